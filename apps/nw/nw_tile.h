/* apps/nw/nw_tile.h - a tile of the Needleman-Wunsch matrix and the orders tiles are
 * taken in, in the common subset of C11, CUDA C++ and OpenCL C: every scheme of every
 * back end computes its tiles with nw_tile, so schemes differ only in how tiles are
 * handed out and ordered. Include after gridsync's device header (cpu.h, cuda.cuh, or
 * the OpenCL device source), which gives the group barrier and gridsync/local.h.
 *
 * Device memory (nw_layout):
 *   m     the (R*B + 1)^2 score matrix, R = ceil(n / B) tiles a side: the tiles past n
 *         are computed too (their cells depend on nothing real and nothing real depends
 *         on them), so no cell needs a bounds check. Cell (r, c) is at
 *         r * pitch + c + NW_LEAD: with pitch a multiple of 32, column 1 of every row,
 *         hence every tile's row of B cells, starts on a 128-byte line.
 *   edge  each tile column's rightmost column again, contiguous (edge_pitch per tile
 *         column, the same lead): the next tile column loads its left column from here
 *         in one coalesced read instead of B strided ones.
 *   words the local-tagged scheme's boundaries, in the local state's tagged words (its
 *         section at the end); it has no edge buffer.
 * A group computes a tile in group memory: (B + 1) x (B + 2) cells (the odd stride B + 1
 * between a diagonal's cells spreads them over the banks), then writes it out row by
 * row. Work-item y owns tile row y: it keeps its left and upper-left neighbours in
 * registers and reads only the cell above, written one step earlier by work-item y - 1:
 * 2B - 1 steps, a group barrier after each; on CUDA a tile of B <= 32 is one warp, whose
 * lanes pass the cell above by shuffle, with no barrier between steps. */
#ifndef NW_TILE_H
#define NW_TILE_H

#if defined(__OPENCL_VERSION__)
#define NW_FN inline
#define NW_G __global
#define NW_L __local
typedef ulong nw_idx;
typedef uchar nw_sym;
#elif defined(__CUDACC__)
#define NW_FN static __device__ __forceinline__
#define NW_G
#define NW_L
typedef unsigned long long nw_idx;
typedef unsigned char nw_sym;
#else
#include <stddef.h>
#define NW_FN static inline
#define NW_G
#define NW_L
typedef size_t nw_idx;
typedef unsigned char nw_sym;
#endif

#define NW_TILE_PENALTY 10
#define NW_TILE_SYMBOLS 24u
#define NW_LEAD 31u
#define NW_MAX_TILE 64u
/* Group memory of one group, in ints: the tile, BLOSUM62, and the tile's symbols as
 * offsets into BLOSUM62 (row: s1 * 24, column: s2). */
#define NW_TILE_WORDS(B) (((B) + 1u) * ((B) + 2u))
#define NW_GROUP_WORDS(B) (NW_TILE_WORDS(B) + NW_TILE_SYMBOLS * NW_TILE_SYMBOLS + 2u * (B))

/* Tiles a side, the matrix's and the edge buffer's row pitch, in cells. */
NW_FN unsigned nw_tiles(unsigned n, unsigned B) { return (n + B - 1u) / B; }
NW_FN nw_idx nw_pitch(unsigned R, unsigned B)
{
    return ((nw_idx)R * B + NW_LEAD + 32u) & ~(nw_idx)31u;
}
NW_FN nw_idx nw_at(nw_idx pitch, nw_idx r, nw_idx c) { return r * pitch + c + NW_LEAD; }

/* What every tile of a launch shares: global buffers and this group's memory. */
typedef struct nw_ctx {
    NW_G int *m;
    NW_G int *edge;
    const NW_G nw_sym *s1, *s2; /* s[1 .. R*B] */
    NW_L int *t;                /* the tile: (B + 1) x (B + 2) */
    NW_L int *blosum;           /* 24 x 24 */
    NW_L int *row_of, *col_of;  /* B each */
    nw_idx pitch;
    unsigned B, R;
    unsigned lid; /* the work-item in its group, 0 .. B - 1 */
} nw_ctx;

/* Splits one group's memory (NW_GROUP_WORDS(B) ints) and loads BLOSUM62 into it (the
 * first tile's barrier orders the copy before any use). */
NW_FN nw_ctx nw_begin(NW_G int *m, NW_G int *edge, const NW_G nw_sym *s1, const NW_G nw_sym *s2,
                      const NW_G int *blosum, NW_L int *group_mem, unsigned n, unsigned B,
                      unsigned lid)
{
    nw_ctx c;
    c.m = m;
    c.edge = edge;
    c.s1 = s1;
    c.s2 = s2;
    c.t = group_mem;
    c.blosum = group_mem + NW_TILE_WORDS(B);
    c.row_of = c.blosum + NW_TILE_SYMBOLS * NW_TILE_SYMBOLS;
    c.col_of = c.row_of + B;
    c.B = B;
    c.R = nw_tiles(n, B);
    c.pitch = nw_pitch(c.R, B);
    c.lid = lid;
    for (unsigned k = lid; k < NW_TILE_SYMBOLS * NW_TILE_SYMBOLS; k += B)
        c.blosum[k] = blosum[k];
    return c;
}

NW_FN int nw_max(int a, int b) { return a > b ? a : b; }

/* The recurrence, with the cell's BLOSUM62 score. */
NW_FN int nw_cell_scored(int score, int diag, int left, int up)
{
    return nw_max(diag + score, nw_max(left, up) - NW_TILE_PENALTY);
}
/* The cell's score: row = 24 * s1's symbol of the cell's row, x its column in the tile. */
NW_FN int nw_score(const nw_ctx *c, int row, unsigned x) { return c->blosum[row + c->col_of[x]]; }

/* Tile (ti, tj)'s inputs from memory: its top row from the matrix (row 0: -10 c), its
 * left column from the edge buffer (column 0: -10 r), and its symbols. */
NW_FN void nw_tile_load(const nw_ctx *c, unsigned ti, unsigned tj)
{
    const unsigned B = c->B, P = B + 2u, y = c->lid;
    const nw_idx r0 = (nw_idx)ti * B, c0 = (nw_idx)tj * B;
    NW_L int *t = c->t;
    for (unsigned x = y; x <= B; x += B) /* the top row, corner included */
        t[x] = ti == 0u ? -NW_TILE_PENALTY * (int)(c0 + x) : c->m[nw_at(c->pitch, r0, c0 + x)];
    t[(y + 1u) * P] = tj == 0u ? -NW_TILE_PENALTY * (int)(r0 + y + 1u)
                               : c->edge[nw_at(c->pitch, tj - 1u, r0 + y + 1u)];
    c->row_of[y] = (int)c->s1[r0 + y + 1u] * (int)NW_TILE_SYMBOLS;
    c->col_of[y] = (int)c->s2[c0 + y + 1u];
}

/* The tile's 2B - 1 inner anti-diagonals in group memory, from its inputs there (written
 * before a group barrier the caller passed). Ends with every cell of the tile visible to
 * every work-item of the group. */
NW_FN void nw_tile_cells(const nw_ctx *c)
{
    const unsigned B = c->B, P = B + 2u, y = c->lid;
    NW_L int *t = c->t;
    const int row = c->row_of[y];
    int left = t[(y + 1u) * P], diag = t[y * P];
#if defined(__CUDACC__)
    if (B <= 32u) { /* one warp: the cell above comes from lane y - 1 by a shuffle */
        const unsigned lanes = B == 32u ? 0xffffffffu : (1u << B) - 1u;
        int mine = 0; /* the cell this lane computed at the step before */
        /* The next step's score (two dependent group-memory loads) and lane 0's cell of
         * the top row are loaded a step ahead: they depend on no cell, and loaded in the
         * step that used them they lay on the tile's critical path (a shuffle and two
         * maxima a step), 2B - 1 times. */
        unsigned x = 0u - y; /* wraps above B before this row's first step */
        int score = x < B ? nw_score(c, row, x) : 0, top = y == 0u ? t[1] : 0;
        for (unsigned d = 0; d + 1u < 2u * B; ++d, ++x) {
            int above = __shfl_up_sync(lanes, mine, 1);
            int next_score = x + 1u < B ? nw_score(c, row, x + 1u) : 0;
            int next_top = y == 0u && x + 1u < B ? t[x + 2u] : 0;
            if (x < B) {
                int up = y == 0u ? top : above;
                mine = nw_cell_scored(score, diag, left, up);
                t[(y + 1u) * P + x + 1u] = mine;
                diag = up;
                left = mine;
            }
            score = next_score;
            top = next_top;
        }
        __syncwarp(lanes); /* the tile's cells, before the lanes read each other's */
    } else
#endif
        for (unsigned d = 0; d + 1u < 2u * B; ++d) {
            unsigned x = d - y; /* wraps above B before this row's first step */
            if (x < B) {
                int up = t[y * P + x + 1u];
                int v = nw_cell_scored(nw_score(c, row, x), diag, left, up);
                t[(y + 1u) * P + x + 1u] = v;
                diag = up;
                left = v;
            }
            gs_group_barrier();
        }
}

/* The tile's cells out to the matrix, row by row (B consecutive cells a store), and where
 * `edge` its right column to the edge buffer. */
NW_FN void nw_tile_store(const nw_ctx *c, unsigned ti, unsigned tj, int edge)
{
    const unsigned B = c->B, P = B + 2u, y = c->lid;
    const nw_idx r0 = (nw_idx)ti * B, c0 = (nw_idx)tj * B;
    NW_L int *t = c->t;
    for (unsigned r = 0; r < B; ++r)
        c->m[nw_at(c->pitch, r0 + r + 1u, c0 + y + 1u)] = t[(r + 1u) * P + y + 1u];
    if (edge)
        c->edge[nw_at(c->pitch, tj, r0 + y + 1u)] = t[(y + 1u) * P + B];
    if (ti == 0u) /* the matrix's first row and column, which no tile owns */
        for (unsigned x = y; x <= B; x += B)
            c->m[nw_at(c->pitch, 0u, c0 + x)] = t[x];
    if (tj == 0u)
        c->m[nw_at(c->pitch, r0 + y + 1u, 0u)] = t[(y + 1u) * P];
}

/* Tile (ti, tj): its inputs from memory, then the 2B - 1 inner anti-diagonals, then the
 * cells and the tile's right column out. Every work-item of the group calls it; it begins
 * with a group barrier (the previous tile's readers of group memory are done) and ends
 * after its writes are issued (a signal or grid barrier then publishes them). */
NW_FN void nw_tile(const nw_ctx *c, unsigned ti, unsigned tj)
{
    gs_group_barrier();
    nw_tile_load(c, ti, tj);
    gs_group_barrier();
    nw_tile_cells(c);
    nw_tile_store(c, ti, tj, 1);
}

/* Anti-diagonal d of an R x R grid of tiles: its first row of tiles and its length. */
NW_FN unsigned nw_diag_first(unsigned d, unsigned R) { return d < R ? 0u : d - R + 1u; }
NW_FN unsigned nw_diag_count(unsigned d, unsigned R)
{
    return (d < R ? d : R - 1u) - nw_diag_first(d, R) + 1u;
}

/* Diagonal d's tiles first, first + stride, ...: a relaunch's or a grid barrier's
 * share of one group. */
NW_FN void nw_diagonal(const nw_ctx *c, unsigned d, unsigned first, unsigned stride)
{
    unsigned i0 = nw_diag_first(d, c->R), count = nw_diag_count(d, c->R);
    for (unsigned k = first; k < count; k += stride)
        nw_tile(c, i0 + k, d - (i0 + k));
}

/* ---- the local scheme: tickets and progress words (gridsync/local.h) ---- */

#define NW_V_TILE 0u /* anti-diagonal tickets of k tiles of a row, a flag per ticket */
#define NW_V_ROW 1u  /* anti-diagonal tickets of a tile, a counter per tile row */
#define NW_V_ROWS 2u /* a row of tiles per ticket, its counter signalled every k tiles */

/* Progress words the variant needs for R x R tiles. */
NW_FN unsigned nw_local_words(unsigned flags, unsigned k, unsigned R)
{
    return flags == NW_V_TILE ? R * ((R + k - 1u) / k) : R;
}

/* One group's part of the local scheme, until no ticket is left or a wait gave up.
 * `silent`: 0, or 1 + the tile whose owner skips its signal (the fault test). */
NW_FN void nw_local(const nw_ctx *c, gs_local *L, unsigned flags, unsigned k, unsigned silent)
{
    const unsigned R = c->R;
    if (flags == NW_V_ROWS) {
        for (;;) {
            gs_u32 i = gs_local_next(L);
            if (i >= R)
                return;
            unsigned known = 0u, quiet = 0u; /* what the row above is known to count */
            for (unsigned j = 0; j < R; ++j) {
                if (i > 0u && j + 1u > known) {
                    if (gs_local_wait(L, i - 1u, j + 1u))
                        return;
                    known = (j + k) / k * k; /* it signals every k tiles */
                }
                nw_tile(c, i, j);
                quiet |= silent == i * R + j + 1u;
                if (!quiet && ((j + 1u) % k == 0u || j + 1u == R))
                    gs_local_signal(L, i, j + 1u);
            }
        }
    }
    const unsigned C = flags == NW_V_TILE ? (R + k - 1u) / k : R; /* tickets a row */
    gs_u32 diagonal = 0u;                                         /* of this group's last ticket */
    for (;;) {
        gs_u32 t = gs_local_next(L), i, j;
        if (!gs_local_diagonal_from(t, R, C, &diagonal, &i, &j))
            return;
        if (flags == NW_V_ROW) {
            if (gs_local_wait2(L, i - 1u, i > 0u ? j + 1u : 0u, i, j))
                return;
            nw_tile(c, i, j);
            if (silent != i * R + j + 1u)
                gs_local_signal(L, i, j + 1u);
            continue;
        }
        if (gs_local_wait2(L, (i - 1u) * C + j, i > 0u, i * C + j - 1u, j > 0u))
            return;
        unsigned end = (j + 1u) * k < R ? (j + 1u) * k : R, quiet = 0u;
        for (unsigned x = j * k; x < end; ++x) {
            nw_tile(c, i, x);
            quiet |= silent == i * R + x + 1u;
        }
        if (!quiet)
            gs_local_signal(L, i * C + j, 1u);
    }
}

/* ---- the local-tagged scheme: a tile's boundary in tagged words (gridsync/local.h) ----
 *
 * The same tickets as the local scheme (anti-diagonal order, a tile a ticket), but no
 * progress word: tile (i, j) puts its bottom row (B + 1 cells: its left input's last cell,
 * the corner of the tile below, then its own B) into column j's words with seq i + 1 and
 * its right column (B cells) into row i's words with seq j + 1, one relaxed 64-bit store
 * a cell, value and tag together. The tile below gets its top row from column j's words
 * (seq i + 1), the tile to the right its left column from row i's (seq j + 1): lane y
 * polls the cell above its column and the cell left of its row, lane 0 the corner too,
 * all in one wait, and the lanes' waits overlap. So a tile waits one round trip for its
 * inputs, which nothing else orders: no signal (group barrier, release fence, flag), no
 * acquire, no second round trip to load what the flag published.
 *
 * The words are reused down a column and along a row (gridsync/local.h's rule): the
 * work-item that gets seq s of a word is the one that puts seq s + 1 there, after its
 * get, and no other tile gets it. The edge buffer is not used; the matrix is written as
 * in every scheme, read only by the host after the launch.
 *
 * The next ticket is taken when a tile starts (gridsync/local.h's gs_local_order and
 * gs_local_take; local.h says why deadlock freedom holds), so its two round trips (the
 * add, the abort word) overlap the tile's wait and cells instead of lying between two
 * tiles. With as many groups as the longest diagonal has tiles (bench wavefront's
 * default), a group ends a tile about when the next diagonal's inputs appear, and the
 * ticket was on the critical path. */
#if defined(GS_HAVE_WORD64)

/* Column j's bottom-row words (B + 1, rounded up to whole 128-byte lines of 16), then
 * row i's right-column words (B). */
NW_FN unsigned nw_down_stride(unsigned B) { return (B + 1u + 15u) & ~15u; }
NW_FN unsigned nw_tagged_words(unsigned R, unsigned B) { return R * (nw_down_stride(B) + B); }

/* Tile (ti, tj)'s inputs from the words (the matrix's edge where ti or tj is 0: seq 0,
 * nothing awaited) and its symbols, then the group's verdict: 0, or why it must leave. */
NW_FN gs_u32 nw_tagged_in(const nw_ctx *c, gs_local *L, unsigned ti, unsigned tj)
{
    const unsigned B = c->B, P = B + 2u, y = c->lid;
    const nw_idx r0 = (nw_idx)ti * B, c0 = (nw_idx)tj * B;
    NW_L int *t = c->t;
    GS_GLOBAL gs_word64 *down = gs_local_tagged(L, tj * nw_down_stride(B));
    GS_GLOBAL gs_word64 *across = gs_local_tagged(L, c->R * nw_down_stride(B) + ti * B);
    gs_group_barrier(); /* the previous tile's readers of group memory are done */
    /* Loaded into registers first: their round trips overlap the waits'. */
    int row_sym = (int)c->s1[r0 + y + 1u] * (int)NW_TILE_SYMBOLS, col_sym = (int)c->s2[c0 + y + 1u];
    gs_u32 up = (gs_u32)(-NW_TILE_PENALTY * (int)(c0 + y + 1u));
    gs_u32 left = (gs_u32)(-NW_TILE_PENALTY * (int)(r0 + y + 1u));
    gs_u32 corner = (gs_u32)(-NW_TILE_PENALTY * (int)(r0 + c0));
    gs_u32 why = gs_local_get3(L, &down[y + 1u], ti, &up, &across[y], tj, &left, &down[0],
                               y == 0u ? ti : 0u, &corner);
    c->row_of[y] = row_sym;
    c->col_of[y] = col_sym;
    t[y + 1u] = (int)up;
    t[(y + 1u) * P] = (int)left;
    if (y == 0u)
        t[0] = (int)corner;
    return gs_local_agree(L, why); /* also the barrier before the cells read group memory */
}

/* Tile (ti, tj)'s outputs: its bottom row and right column into the words (none where no
 * tile reads them, or where `quiet`: the fault test's silent tile), then the matrix. */
NW_FN void nw_tagged_out(const nw_ctx *c, gs_local *L, unsigned ti, unsigned tj, int quiet)
{
    const unsigned B = c->B, P = B + 2u, y = c->lid;
    NW_L int *t = c->t;
    GS_GLOBAL gs_word64 *down = gs_local_tagged(L, tj * nw_down_stride(B));
    GS_GLOBAL gs_word64 *across = gs_local_tagged(L, c->R * nw_down_stride(B) + ti * B);
    if (!quiet && ti + 1u < c->R) {
        gs_local_put(L, &down[y + 1u], ti + 1u, (gs_u32)t[B * P + y + 1u]);
        if (y == 0u)
            gs_local_put(L, &down[0], ti + 1u, (gs_u32)t[B * P]);
    }
    if (!quiet && tj + 1u < c->R)
        gs_local_put(L, &across[y], tj + 1u, (gs_u32)t[(y + 1u) * P + B]);
    nw_tile_store(c, ti, tj, 0);
}

/* One group's part of the local-tagged scheme, until no ticket is left or a wait gave
 * up. `silent`: 0, or 1 + the tile (row-major) whose owner puts nothing. Written as
 * nw_local's loop (no `continue`, exits only on a value the group shares). */
NW_FN void nw_tagged(const nw_ctx *c, gs_local *L, unsigned silent)
{
    const unsigned R = c->R;
    gs_local_ticket next = gs_local_order(L);
    gs_u32 diagonal = 0u; /* of this group's last ticket */
    for (;;) {
        gs_u32 t = gs_local_take(L, next), i, j;
        if (!gs_local_diagonal_from(t, R, R, &diagonal, &i, &j))
            return;
        next = gs_local_order(L); /* the next ticket's round trips overlap this tile */
        if (nw_tagged_in(c, L, i, j))
            return;
        nw_tile_cells(c);
        nw_tagged_out(c, L, i, j, silent == i * R + j + 1u);
    }
}

#endif

#endif
