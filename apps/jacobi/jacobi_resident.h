/* apps/jacobi/jacobi_resident.h - the resident form (jacobi.h): each group keeps its tile
 * (gsj_tile_of, as the split form's) in group memory for the whole run, and only the
 * cells other groups read go through global memory. What a persistent kernel can do and
 * a kernel relaunched every iteration cannot: its group memory outlives the barrier.
 * Common subset of C11, CUDA C++ and OpenCL C, after a gridsync shim and jacobi_step.h.
 *
 * Group memory holds the tile twice (src and dst of an iteration, gsj_resident_floats),
 * each with a ring of halo cells around it: (rows + 2) x (cols + 2), row-major. A group's
 * iteration t (src_t in group memory, D_t = t % 2 ? a : b the global grid it publishes):
 *
 *   (1) every cell of the tile from src into dst (group memory only)
 *   (2) group barrier; the tile's perimeter cells of dst into D_t (gsj_perimeter_at)
 *   (3) the grid barrier (gs_sync_<p>, or grid.sync())
 *   (4) the halo cells next to other tiles from D_t into dst's ring; group barrier
 *   (5) dst is src_{t+1}
 *
 * and after the last iteration's (1), the whole tile into D_{T-1} (no barrier: the kernel
 * ends). The halo next to the fixed edge is loaded once, with the tile, from a, into
 * both copies.
 *
 * Why that is race-free: (4) of t reads, of other groups, their perimeter cells of D_t,
 * each written in (2) of t before its barrier t, which our (4) follows. D_t is written
 * again in (2) of t + 2 only, after barrier t + 1, which every group reaches after its
 * (4) of t. Group memory is the group's own, its phases separated by group barriers. So
 * every cell is the one GSJ_AVERAGE of the previous iteration's values, bit for bit. */
#ifndef GSJ_JACOBI_RESIDENT_H
#define GSJ_JACOBI_RESIDENT_H

#if defined(__OPENCL_VERSION__)
#define GSJ_LOCAL __local
#else
#define GSJ_LOCAL
#endif

/* The floats of group memory a tile of rows x cols takes (both copies, with halos). */
GSJ_FN unsigned gsj_resident_floats(unsigned rows, unsigned cols)
{
    return 2u * (rows + 2u) * (cols + 2u);
}

/* The cells of a rows x cols rectangle that work-item `first` of `stride` takes, row-major
 * (i, j from its corner; k its index), advancing by addition, not division: BODY for
 * each. None where the rectangle is empty. */
#define GSJ_RECT_WALK(rows, cols, first, stride, BODY)                 \
    do {                                                               \
        unsigned wc_ = (cols) ? (cols) : 1u, cells_ = (rows) * (cols); \
        unsigned i = (first) / wc_, j = (first)-i * wc_;               \
        unsigned di_ = (stride) / wc_, dj_ = (stride)-di_ * wc_;       \
        for (unsigned k = (first); k < cells_; k += (stride)) {        \
            BODY;                                                      \
            i += di_;                                                  \
            j += dj_;                                                  \
            if (j >= wc_) {                                            \
                j -= wc_;                                              \
                ++i;                                                   \
            }                                                          \
        }                                                              \
    } while (0)

/* The tile and its whole ring (corners too, unused) from global grid g into both copies,
 * m and m2: the ring's cells on the fixed edge are never loaded again. */
GSJ_FN void gsj_resident_load(const GSJ_GLOBAL float *g, unsigned n, gsj_tile t, GSJ_LOCAL float *m,
                              GSJ_LOCAL float *m2, unsigned first, unsigned stride)
{
    unsigned rows = t.rows && t.cols ? t.rows + 2u : 0u;
    GSJ_RECT_WALK(rows, t.cols + 2u, first, stride,
                  m[k] = m2[k] = g[(t.row - 1u + i) * n + t.col - 1u + j]);
}

/* (1): every cell of the tile from s into d, in group memory. */
GSJ_FN void gsj_resident_cells(const GSJ_LOCAL float *s, GSJ_LOCAL float *d, gsj_tile t,
                               unsigned first, unsigned stride)
{
    unsigned w = t.cols + 2u;
    GSJ_RECT_WALK(t.rows, t.cols, first, stride, unsigned c = (i + 1u) * w + j + 1u;
                  d[c] = GSJ_AVERAGE(s[c - 1u], s[c + 1u], s[c - w], s[c + w]));
}

/* After the last iteration: the whole tile of m into global grid g. */
GSJ_FN void gsj_resident_store(const GSJ_LOCAL float *m, GSJ_GLOBAL float *g, unsigned n,
                               gsj_tile t, unsigned first, unsigned stride)
{
    GSJ_RECT_WALK(t.rows, t.cols, first, stride,
                  g[(t.row + i) * n + t.col + j] = m[(i + 1u) * (t.cols + 2u) + j + 1u]);
}

/* (2): the tile's perimeter cells of m into global grid g. */
GSJ_FN void gsj_resident_publish(const GSJ_LOCAL float *m, GSJ_GLOBAL float *g, unsigned n,
                                 gsj_tile t, unsigned first, unsigned stride)
{
    for (unsigned p = first; p < gsj_perimeter_cells(t); p += stride) {
        unsigned i, j;
        gsj_perimeter_at(t, p, &i, &j);
        g[(t.row + i) * n + t.col + j] = m[(i + 1u) * (t.cols + 2u) + j + 1u];
    }
}

/* (4): the halo cells next to other tiles (not the fixed edge's) from g into m's ring:
 * the row above, the row below, the column left, the column right, where a tile lies. */
GSJ_FN void gsj_resident_halo(const GSJ_GLOBAL float *g, GSJ_LOCAL float *m, unsigned n, gsj_tile t,
                              unsigned first, unsigned stride)
{
    unsigned up = t.row > 1u, down = t.row + t.rows < n - 1u;
    unsigned left = t.col > 1u, right = t.col + t.cols < n - 1u;
    unsigned across = (up + down) * t.cols, ups = up * t.cols, lefts = left * t.rows;
    unsigned all = t.rows && t.cols ? across + (left + right) * t.rows : 0u;
    for (unsigned p = first; p < all; p += stride) {
        unsigned i, j; /* in the ring's frame: 0 .. rows + 1, 0 .. cols + 1 */
        if (p < across) {
            i = p < ups ? 0u : t.rows + 1u;
            j = 1u + (p < ups ? p : p - ups);
        } else {
            unsigned q = p - across;
            i = 1u + (q < lefts ? q : q - lefts);
            j = q < lefts ? 0u : t.cols + 1u;
        }
        m[i * (t.cols + 2u) + j] = g[(t.row - 1u + i) * n + t.col - 1u + j];
    }
}

/* (2), or after the last iteration (`last`) the whole tile: one call, so that every back
 * end's loop keeps the plain form of the sync kernels (one exit, at the barrier), the
 * form PoCL 3.1 builds right. */
GSJ_FN void gsj_resident_out(const GSJ_LOCAL float *m, GSJ_GLOBAL float *g, unsigned n, gsj_tile t,
                             int last, unsigned first, unsigned stride)
{
    if (last)
        gsj_resident_store(m, g, n, t, first, stride);
    else
        gsj_resident_publish(m, g, n, t, first, stride);
}

#endif
