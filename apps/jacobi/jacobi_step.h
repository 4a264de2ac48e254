/* apps/jacobi/jacobi_step.h - one Jacobi iteration's share of one work-item, in the
 * common subset of C11, CUDA C++ and OpenCL C, for both forms (jacobi.h) of every back
 * end, so that kernels differ only in how iterations are separated:
 *
 *   sync form   gsj_sweep: cells dealt round-robin over all work-items of the grid
 *   split form  gsj_tile_of, gsj_perimeter, gsj_inner: a tile per group
 *
 * In the sync form work-item `first` of `stride` takes interior cells first, first +
 * stride, ... in row-major order of the (n-2) x (n-2) interior. Neighbouring work-items
 * take neighbouring cells (coalesced on a GPU), every work-item of any grid gets work
 * where there is any, and the row and column advance by addition: no division per cell. */
#ifndef GSJ_JACOBI_STEP_H
#define GSJ_JACOBI_STEP_H

#if defined(__OPENCL_VERSION__)
#define GSJ_FN inline
#define GSJ_GLOBAL __global
#elif defined(__CUDACC__)
#define GSJ_FN static __device__ __forceinline__
#define GSJ_GLOBAL
#else
#define GSJ_FN static inline
#define GSJ_GLOBAL
#endif

/* The update, written once: the host reference uses the same order of operations, so
 * results compare exactly (no a * b + c in it, so no fused multiply-add can change it;
 * the scaling by 0.25f is exact). */
#define GSJ_AVERAGE(l, r, u, d) (0.25f * (((l) + (r)) + ((u) + (d))))

/* Cell c of a walk over a rectangle of w columns, j its column in it (0 .. w - 1), dc and
 * dj the stride in cells and columns: the next cell (past the row's end: one row down, w
 * columns back, n - w cells on). */
#define GSJ_NEXT_CELL(c, j, dc, dj, w, n) \
    do {                                  \
        (c) += (dc);                      \
        (j) += (dj);                      \
        if ((j) >= (w)) {                 \
            (j) -= (w);                   \
            (c) += (n) - (w);             \
        }                                 \
    } while (0)
#define GSJ_CELL(a, c, n) GSJ_AVERAGE((a)[(c)-1u], (a)[(c) + 1u], (a)[(c) - (n)], (a)[(c) + (n)])

/* Cells a turn of the walk (1, 2 or 4; the split form's inner cells at most 2), every
 * load of a turn before its first store. a and b are not known not to alias, so with one
 * cell a turn the next cell's loads wait for this cell's store: one L2 round trip per
 * cell, in series. Measured on the H100 (bench/results/h100/jacobi_turn*.csv; one build
 * per GSJ_TURN, the same run; ms, each at its best of 264, 528, 1056 groups of 256):
 *
 *   turn    512^2 x 20000: cg   flip  graph   4096^2 x 1000: cg  flip   8192^2 x 200: cg  flip
 *   1                   46.8   49.9   43.0                  57.0  57.3                 44.2  44.3
 *   2                   42.1   44.8   43.5                  59.3  59.4                 46.2  46.2
 *   4                   45.6   48.9   44.1                  58.8  59.4                 52.5  49.5
 *
 * Two a turn helps every method where the barrier dominates and costs 4-5% where memory
 * does; no width changes gridsync against grid.sync() (flip 1.066, 1.064 and 1.072 x
 * cg's time at 512^2), and four wins nowhere: ptxas fits four in 32 registers (no spill,
 * tests/regs) but the methods' kernels then differ by up to 15% in ways the barrier does
 * not explain. One a turn stays the default: the app's figures are the same as before
 * (tests jacobi_turn2_cpu and jacobi_turn4_cpu check the wider turns). */
#ifndef GSJ_TURN
#define GSJ_TURN 1u
#endif

/* The walk's cells from c (column j) to `last`, from a into b, `turn` cells a turn (a
 * constant where it is inlined). Only c and j advance, so a persistent kernel keeps few
 * registers for it across its barriers. Every method of the app runs the same walk. */
GSJ_FN void gsj_walk(const GSJ_GLOBAL float *a, GSJ_GLOBAL float *b, unsigned n, unsigned c,
                     unsigned j, unsigned dc, unsigned dj, unsigned w, unsigned last, unsigned turn)
{
    while (c <= last) {
        unsigned c1 = c, j1 = j;
        GSJ_NEXT_CELL(c1, j1, dc, dj, w, n);
        if (turn < 2u || c1 > last) { /* the work-item's last cell, or a cell a turn */
            b[c] = GSJ_CELL(a, c, n);
            c = c1;
            j = j1;
            continue;
        }
        unsigned c2 = c1, j2 = j1;
        GSJ_NEXT_CELL(c2, j2, dc, dj, w, n);
        unsigned c3 = c2, j3 = j2;
        if (turn >= 4u && c2 <= last)
            GSJ_NEXT_CELL(c3, j3, dc, dj, w, n);
        if (turn < 4u || c3 > last) { /* two cells (of two or three left) */
            float s0 = GSJ_CELL(a, c, n), s1 = GSJ_CELL(a, c1, n);
            b[c] = s0;
            b[c1] = s1;
            c = c2;
            j = j2;
            continue;
        }
        float s0 = GSJ_CELL(a, c, n), s1 = GSJ_CELL(a, c1, n);
        float s2 = GSJ_CELL(a, c2, n), s3 = GSJ_CELL(a, c3, n);
        b[c] = s0;
        b[c1] = s1;
        b[c2] = s2;
        b[c3] = s3;
        c = c3;
        j = j3;
        GSJ_NEXT_CELL(c, j, dc, dj, w, n);
    }
}

/* The sync form's share of work-item `first` of `stride`. n <= GSJ_MAX_N keeps every
 * index below 2^31 and c + dc from wrapping. */
GSJ_FN void gsj_sweep(const GSJ_GLOBAL float *a, GSJ_GLOBAL float *b, unsigned n, unsigned first,
                      unsigned stride)
{
    unsigned w = n - 2u; /* interior width; the interior starts at (1, 1) */
    unsigned j = first % w, dj = stride % w;
    gsj_walk(a, b, n, (1u + first / w) * n + 1u + j, j, (stride / w) * n + dj, dj, w,
             w * n + w /* (n-2, n-2) */, GSJ_TURN);
}

/* ---- the split form: a tile per group ----------------------------------------------
 *
 * The G groups of the grid own gx x gy tiles of the interior (gx * gy == G, group
 * ty * gx + tx owns tile (tx, ty); the host picks gx and gy, gsj_tiling). Each tile splits
 * into its perimeter, the cells next to another group's tile (the only cells another
 * group reads), and its inner cells, which read nothing but cells of their own tile and
 * the fixed edges. A group's iteration t, from src into dst:
 *
 *   (1) gsj_perimeter   its perimeter cells, the group's work-items striding over them
 *   (2) gs_arrive_<p>   its perimeter of dst is published
 *   (3) gsj_inner       its inner cells, hiding the barrier
 *   (4) gs_wait_token_<p>
 *
 * Why that is race-free (buffers ping-pong: dst of t is src of t + 1 and dst of t - 1).
 * gs_arrive publishes everything the group's work-items did before it (it begins with a
 * group barrier) to every group that has returned from its gs_wait_token of that
 * episode, and a wait ends with a group barrier:
 *  - read after write: iteration t + 1 reads, of other groups, their perimeters of dst_t
 *    only; each wrote them in (1) of t, before its arrive(t), and our wait(t) returns
 *    after every group's arrive(t). Its own cells of dst_t a group wrote in (1) and (3)
 *    of t, before its wait(t).
 *  - write after read: in t + 1 a group writes its own cells of dst_{t+1} = src_t. Other
 *    groups read those (its perimeter) in (1) of t only, before their arrive(t), so
 *    before our wait(t) returns; the group itself read them before its own wait(t).
 *  - no group gets further ahead: a group in (1) or (3) of t + 1 has passed wait(t), so
 *    every other group has finished (1) of t and at worst still runs its (3) of t, which
 *    reads src_t and writes dst_t inside its own tile's inner cells, none of which the
 *    group ahead reads (only perimeters) or writes (only its own tile).
 * Every cell is still the one GSJ_AVERAGE of src: the result equals the reference bit
 * for bit, whatever the tiling. */

#define GSJ_MIN(x, y) ((x) < (y) ? (x) : (y))

/* A group's tile, in cells of the whole n x n grid (the interior starts at row and
 * column 1). top, bottom, left, right: 1 where that side's row or column is perimeter,
 * i.e. another tile lies across it (not the fixed edge) and the cells are not already
 * another side's. A tile may be empty (more tiles than rows or columns) or one cell
 * wide: its perimeter then takes what there is and its inner part is empty. */
typedef struct gsj_tile {
    unsigned row, rows, col, cols;
    unsigned top, bottom, left, right;
} gsj_tile;

/* Where part k of `parts` begins when `total` rows (or columns) are dealt by integer
 * division: the first total % parts parts get one more, so parts differ by at most one.
 * (No k * total product: G and n together would overflow 32 bits.) */
GSJ_FN unsigned gsj_part_begin(unsigned k, unsigned total, unsigned parts)
{
    return k * (total / parts) + GSJ_MIN(k, total % parts);
}

/* Group `group`'s tile of gx x gy over the interior of an n x n grid: three divisions,
 * cheap enough for a kernel to make it again in each phase rather than hold it in
 * registers across its barrier (jacobi_kernels.cuh). */
GSJ_FN gsj_tile gsj_tile_of(unsigned n, unsigned gx, unsigned gy, unsigned group)
{
    unsigned w = n - 2u, ty = group / gx, tx = group - ty * gx;
    unsigned r0 = gsj_part_begin(ty, w, gy), r1 = gsj_part_begin(ty + 1u, w, gy);
    unsigned c0 = gsj_part_begin(tx, w, gx), c1 = gsj_part_begin(tx + 1u, w, gx);
    gsj_tile t;
    t.row = 1u + r0;
    t.rows = r1 - r0;
    t.col = 1u + c0;
    t.cols = c1 - c0;
    t.top = GSJ_MIN(r0 > 0u ? 1u : 0u, t.rows);
    t.bottom = GSJ_MIN(r1 < w ? 1u : 0u, t.rows - t.top);
    t.left = GSJ_MIN(c0 > 0u ? 1u : 0u, t.cols);
    t.right = GSJ_MIN(c1 < w ? 1u : 0u, t.cols - t.left);
    return t;
}

/* One cell from a into b. */
GSJ_FN void gsj_update(const GSJ_GLOBAL float *a, GSJ_GLOBAL float *b, unsigned n, unsigned c)
{
    b[c] = GSJ_CELL(a, c, n);
}

/* The tile's perimeter cells, the only ones another group reads: the top row's cells,
 * the bottom row's, then the left column's and the right column's between them. Their
 * number, and where cell p of them lies in the tile (row i, column j from its corner):
 * no division, each piece is one row or one column. */
GSJ_FN unsigned gsj_perimeter_cells(gsj_tile t)
{
    return (t.top + t.bottom) * t.cols + (t.left + t.right) * (t.rows - t.top - t.bottom);
}
GSJ_FN void gsj_perimeter_at(gsj_tile t, unsigned p, unsigned *i, unsigned *j)
{
    unsigned mid = t.rows - t.top - t.bottom; /* rows between the top and bottom rows */
    unsigned across = (t.top + t.bottom) * t.cols, tops = t.top * t.cols, lefts = t.left * mid;
    if (p < across) {
        *i = p < tops ? 0u : t.rows - 1u;
        *j = p < tops ? p : p - tops;
    } else {
        unsigned q = p - across;
        *i = t.top + (q < lefts ? q : q - lefts);
        *j = q < lefts ? 0u : t.cols - 1u;
    }
}

/* The tile's perimeter from a into b, work-item `first` of `stride` of the group taking
 * every stride-th cell. GSJ_WEAKEN_SPLIT (the test's weakened build, tests/CMakeLists.txt)
 * leaves the perimeter to gsj_inner, after the arrival that publishes it: a real race. */
GSJ_FN void gsj_perimeter(const GSJ_GLOBAL float *a, GSJ_GLOBAL float *b, unsigned n, gsj_tile t,
                          unsigned first, unsigned stride)
{
#ifdef GSJ_WEAKEN_SPLIT
    (void)a, (void)b, (void)n, (void)t, (void)first, (void)stride;
#else
    for (unsigned p = first; p < gsj_perimeter_cells(t); p += stride) {
        unsigned i, j;
        gsj_perimeter_at(t, p, &i, &j);
        gsj_update(a, b, n, (t.row + i) * n + t.col + j);
    }
#endif
}

/* The tile's inner cells, dealt over the group's work-items as gsj_sweep deals the
 * interior over the grid's (row-major, advancing by addition). */
GSJ_FN void gsj_inner(const GSJ_GLOBAL float *a, GSJ_GLOBAL float *b, unsigned n, gsj_tile t,
                      unsigned first, unsigned stride)
{
#ifdef GSJ_WEAKEN_SPLIT
    t.top = t.bottom = t.left = t.right = 0u; /* the whole tile, perimeter included */
#endif
    unsigned rows = t.rows - t.top - t.bottom, w = t.cols - t.left - t.right;
    unsigned origin = (t.row + t.top) * n + t.col + t.left;
    /* an empty part has no last cell: 0 ends the loop at once (every cell is >= n + 1) */
    unsigned last = rows && w ? origin + (rows - 1u) * n + w - 1u : 0u;
    w = w ? w : 1u; /* no division by 0 where there is nothing to do */
    unsigned j = first % w, dj = stride % w;
    gsj_walk(a, b, n, origin + (first / w) * n + j, j, (stride / w) * n + dj, dj, w, last,
             GSJ_TURN < 2u ? GSJ_TURN : 2u);
}

/* ---- the local form: a band of rows at a time ---------------------------------------
 *
 * The interior's n - 2 rows dealt into B bands of whole rows (gsj_part_begin: they
 * differ by at most a row), band x from row 1 + gsj_part_begin(x, n - 2, B). A band reads
 * its own rows and the one row next to it in each neighbour band, nothing else: so band
 * x of iteration t needs bands x - 1, x and x + 1 done with iteration t - 1
 * (jacobi_local.h). gsj_band computes rows r0 .. r1 - 1 (none where r1 <= r0), dealt
 * over the group's work-items as gsj_sweep deals the interior. */
GSJ_FN void gsj_band(const GSJ_GLOBAL float *a, GSJ_GLOBAL float *b, unsigned n, unsigned r0,
                     unsigned r1, unsigned first, unsigned stride)
{
    unsigned w = n - 2u; /* interior width */
    /* no rows, no last cell: 0 ends the walk at once (every cell is >= n + 1) */
    unsigned last = r1 > r0 ? (r1 - 1u) * n + w : 0u;
    unsigned j = first % w, dj = stride % w;
    gsj_walk(a, b, n, (r0 + first / w) * n + 1u + j, j, (stride / w) * n + dj, dj, w, last,
             GSJ_TURN);
}

#endif
