/* apps/jacobi/jacobi_halo.h - the halo form (jacobi.h): the resident form's tiles, kept in
 * group memory for the whole run, and no barrier at all. Each perimeter cell a group
 * computes goes to the group next to it in one of gridsync's tagged words
 * (gridsync/local.h: gs_local_put, gs_local_get3): the value and the iteration it belongs
 * to in one 64-bit store, so the neighbour's poll that sees the tag has the value. Between
 * two groups an iteration costs one store and one load: no fence, no flag, no arrival at
 * a counter every group shares. Common subset of C11, CUDA C++ and OpenCL C, after a
 * gridsync shim (gridsync/cuda.cuh, cpu.h, opencl.clh, which include gridsync/local.h),
 * jacobi_step.h and jacobi_resident.h. Only where the shim has 64-bit atomic words
 * (GS_HAVE_WORD64).
 *
 * Words. Group g owns 2 x 4 x S tagged words (S = gsj_halo_stride, the longest side a
 * tile has): a set for each parity of the iteration, and in each a row of S for each side
 * of its tile, side 0 its top row, 1 its bottom row, 2 its left column, 3 its right
 * column: word ((g * 2 + parity) * 4 + side) * S + offset. Its neighbour across side s
 * (g - gx, g + gx, g - 1, g + 1) reads them into its halo ring across side s ^ 1; tiles
 * of one tile row have the same rows, of one tile column the same columns, so offsets
 * agree. A side is exchanged only where a tile lies across it (gsj_tile_of: a tile is
 * empty only past the last non-empty one, so a non-empty tile's neighbours are too).
 *
 * A group's iteration k (tile in group memory as the resident form's: src s, dst d):
 *
 *   (1) every cell of the tile from s into d; group barrier
 *   (2) after the last iteration: d's whole tile into the grid D_k = k % 2 ? a : b; done
 *   (3) d's perimeter cells into its words of parity k % 2, tagged seq k + 1
 *   (4) d's halo ring from its neighbours' words of parity k % 2, seq k + 1
 *   (5) gs_local_agree (a group barrier: the verdict); d is s of k + 1
 *
 * Why that is race-free:
 *  - read after write: (4) takes the value of the put whose tag it awaited (a get reads
 *    all 64 bits from one put, and each (word, seq) is put once a launch): the
 *    neighbour's cell of iteration k, whatever else that group has done.
 *  - write after read: a group puts into a word of parity k % 2 again at iteration
 *    k + 2, after its (4) of k + 1 took its neighbour's seq k + 2, which that neighbour
 *    put in its (3) of k + 1, after its (5) of k, which follows its (4) of k: the get
 *    of seq k + 1 from our word. And should a get ever meet a later seq, its tag differs:
 *    it waits on and times out (GS_ERR_TIMEOUT), never taking a wrong value.
 *  - group memory: (4) writes only the ring of d, (3) reads only its tile; (1) of k + 1
 *    reads the ring after the barrier of (5); the ring next to the fixed edge is loaded
 *    once, into both copies.
 * So every cell is the one GSJ_AVERAGE of the previous iteration's values, bit for bit.
 *
 * Deadlock freedom: a tile is a group's for the whole run, so every group must be
 * running at once: the CUDA back end launches the kernel cooperatively (refused, not
 * hung, where the grid cannot be co-resident), the cpu back end runs every team as
 * threads, OpenCL keeps to the device's co-resident bound. Every get is bounded by the
 * state's timeout all the same: a group that never comes ends the launch with
 * GS_ERR_TIMEOUT naming the word awaited. */
#ifndef GSJ_JACOBI_HALO_H
#define GSJ_JACOBI_HALO_H

#if defined(GS_HAVE_WORD64)

/* The weakened build (GSJ_WEAKEN_HALO, the test that proves the check can fail): a tile
 * does not wait for the row above it, and computes with what its ring held before. */
#ifdef GSJ_WEAKEN_HALO
#define GSJ_ABOVE_AWAITED 0u
#else
#define GSJ_ABOVE_AWAITED 1u
#endif

/* A float's bits and back, for the words' 32-bit values. */
#if defined(__OPENCL_VERSION__)
#define GSJ_BITS(f) as_uint(f)
#define GSJ_FLOAT(u) as_float(u)
#elif defined(__CUDACC__)
#define GSJ_BITS(f) __float_as_uint(f)
#define GSJ_FLOAT(u) __uint_as_float(u)
#else
GSJ_FN unsigned gsj_bits(float f)
{
    union {
        float f;
        unsigned u;
    } x;
    x.f = f;
    return x.u;
}
GSJ_FN float gsj_float(unsigned u)
{
    union {
        float f;
        unsigned u;
    } x;
    x.u = u;
    return x.f;
}
#define GSJ_BITS(f) gsj_bits(f)
#define GSJ_FLOAT(u) gsj_float(u)
#endif

/* The pieces a tile exchanges: its sides that have a tile across them, a cell each. */
GSJ_FN unsigned gsj_halo_pieces(gsj_tile t, unsigned n)
{
    unsigned up = t.row > 1u, down = t.row + t.rows < n - 1u;
    unsigned left = t.col > 1u, right = t.col + t.cols < n - 1u;
    return t.rows && t.cols ? (up + down) * t.cols + (left + right) * t.rows : 0u;
}

/* Piece p's side (0 top, 1 bottom, 2 left, 3 right) and offset along it: the rows
 * across first (top, bottom), then the columns (left, right). */
GSJ_FN unsigned gsj_halo_side(gsj_tile t, unsigned n, unsigned p, unsigned *off)
{
    unsigned up = t.row > 1u, down = t.row + t.rows<n - 1u, left = t.col> 1u;
    unsigned ups = up * t.cols, across = (up + down) * t.cols, lefts = left * t.rows;
    if (p < across) {
        *off = p < ups ? p : p - ups;
        return p < ups ? 0u : 1u;
    }
    unsigned q = p - across;
    *off = q < lefts ? q : q - lefts;
    return q < lefts ? 2u : 3u;
}

/* Where in the group-memory copy ((rows + 2) x (cols + 2), row-major) side s's cell
 * `off` lies: the tile's own cell (`ring` 0) or the halo cell across it (`ring` 1). */
GSJ_FN unsigned gsj_halo_cell(gsj_tile t, unsigned s, unsigned off, unsigned ring)
{
    unsigned w = t.cols + 2u;
    if (s < 2u)
        return (s == 0u ? 1u - ring : t.rows + ring) * w + 1u + off;
    return (1u + off) * w + (s == 2u ? 1u - ring : t.cols + ring);
}

/* The group across side s of group g in a gx-wide tiling. */
GSJ_FN unsigned gsj_halo_across(unsigned g, unsigned s, unsigned gx)
{
    return s == 0u ? g - gx : s == 1u ? g + gx : s == 2u ? g - 1u : g + 1u;
}

/* What a work-item does with piece p of its tile, worked out once: the word it puts its
 * cell into and that cell, the word it gets the halo cell from and that cell (words of
 * parity 0: parity 1's are 4 S on; GSJ_HALO_NONE: no such piece, or, for the get, not
 * awaited), and the tile's piece count. Made for a work-item's first piece before the
 * iterations and kept in registers: made again in each phase, gsj_tile_of's divisions
 * cost more than the exchange (the halo form at 132 blocks of 256, 512^2, H200: 1.96
 * us an iteration, slower than the resident form with grid.sync()). */
#define GSJ_HALO_NONE 0xffffffffu
typedef struct gsj_halo_piece {
    unsigned put_word, put_cell, get_word, get_cell, pieces;
} gsj_halo_piece;

GSJ_FN gsj_halo_piece gsj_halo_plan(gsj_tile t, unsigned n, unsigned g, unsigned gx, unsigned S,
                                    unsigned p)
{
    gsj_halo_piece x;
    unsigned off = 0u;
    x.pieces = gsj_halo_pieces(t, n);
    unsigned s = p < x.pieces ? gsj_halo_side(t, n, p, &off) : 0u;
    x.put_word = p < x.pieces ? (g * 8u + s) * S + off : GSJ_HALO_NONE;
    x.put_cell = gsj_halo_cell(t, s, off, 0u);
    x.get_word = p < x.pieces && (s != 0u || GSJ_ABOVE_AWAITED)
                     ? (gsj_halo_across(g, s, gx) * 8u + (s ^ 1u)) * S + off
                     : GSJ_HALO_NONE;
    x.get_cell = gsj_halo_cell(t, s, off, 1u);
    return x;
}

/* (3): d's perimeter cell of piece x into its word, seq `seq`. */
GSJ_FN void gsj_halo_put(gs_local *L, const GSJ_LOCAL float *d, gsj_halo_piece x, unsigned S,
                         unsigned seq)
{
    if (x.put_word != GSJ_HALO_NONE)
        gs_local_put(L, gs_local_tagged(L, x.put_word + seq % 2u * 4u * S), seq,
                     GSJ_BITS(d[x.put_cell]));
}

/* (4): the halo cell of piece x into d's ring, seq `seq`: 0, or why this work-item must
 * leave. */
GSJ_FN gs_u32 gsj_halo_get(gs_local *L, GSJ_LOCAL float *d, gsj_halo_piece x, unsigned S,
                           unsigned seq)
{
    gs_u32 v = 0u, why = 0u;
    if (x.get_word != GSJ_HALO_NONE) {
        why = gs_local_get(L, gs_local_tagged(L, x.get_word + seq % 2u * 4u * S), seq, &v);
        if (why == 0u)
            d[x.get_cell] = GSJ_FLOAT(v);
    }
    return why;
}

/* (3) and (4) for every piece of the tile: the work-item's first (`mine`, planned), then
 * where a tile has more pieces than the group work-items (tiles beyond 64 x 64 for 256)
 * the others, planned as they come, a get at a time; then the group's verdict: 0, or why
 * it must leave. */
GSJ_FN gs_u32 gsj_halo_exchange(gs_local *L, GSJ_LOCAL float *d, gsj_halo_piece mine, unsigned n,
                                unsigned gx, unsigned gy, unsigned S, unsigned seq, unsigned first,
                                unsigned stride)
{
    gsj_halo_put(L, d, mine, S, seq);
    for (unsigned p = first + stride; p < mine.pieces; p += stride)
        gsj_halo_put(
            L, d, gsj_halo_plan(gsj_tile_of(n, gx, gy, gs_group_id()), n, gs_group_id(), gx, S, p),
            S, seq);
    gs_u32 why = gsj_halo_get(L, d, mine, S, seq);
    for (unsigned p = first + stride; why == 0u && p < mine.pieces; p += stride)
        why = gsj_halo_get(
            L, d, gsj_halo_plan(gsj_tile_of(n, gx, gy, gs_group_id()), n, gs_group_id(), gx, S, p),
            S, seq);
    return gs_local_agree(L, why);
}

/* Every work-item of its group (`me` of `all`), the group's tile of the gx x gy tiling, S
 * the words' stride, group memory m (gsj_resident_floats of the largest tile), T = iters
 * >= 1 iterations from a. 0, or why the group left (a get gave up: the host's
 * gs_local_collect reports it). The tile is made again in each phase from gs_group_id()
 * (a read the compiler cannot hoist) and the copies picked by parity, as the split
 * form's kernels do: held across the gets' polls beside the plan, the tile took
 * registers that a kernel of 8 blocks of 256 an SM does not have. Written as the
 * resident form's loop (one exit, at the exchange) for PoCL 3.1's work-group loops. */
GSJ_FN gs_u32 gsj_halo_run(gs_local *L, GSJ_GLOBAL float *a, GSJ_GLOBAL float *b, unsigned n,
                           unsigned iters, unsigned gx, unsigned gy, unsigned S, GSJ_LOCAL float *m,
                           unsigned me, unsigned all)
{
    gs_u32 why = 0u;
    gsj_tile t = gsj_tile_of(n, gx, gy, gs_group_id());
    unsigned copy = (t.rows + 2u) * (t.cols + 2u);
    gsj_halo_piece mine = gsj_halo_plan(t, n, gs_group_id(), gx, S, me);
    gsj_resident_load(a, n, t, m, m + copy, me, all);
    gs_group_barrier();
    for (unsigned k = 0u;; ++k) {
        t = gsj_tile_of(n, gx, gy, gs_group_id());
        copy = (t.rows + 2u) * (t.cols + 2u);
        GSJ_LOCAL float *d = m + (k % 2u ? 0u : copy); /* src: the other copy */
        gsj_resident_cells(m + (k % 2u ? copy : 0u), d, t, me, all);
        gs_group_barrier();
        if (k + 1u == iters)
            gsj_resident_store(d, k % 2u ? a : b, n, t, me, all);
        if (k + 1u == iters ||
            (why = gsj_halo_exchange(L, d, mine, n, gx, gy, S, k + 1u, me, all)) != 0u)
            return why; /* done, or a get gave up: the host's collect reports it */
    }
}

#endif

#endif
