/* apps/sor/sor_step.h - the update and the schedule, in the common subset of C11, CUDA
 * C++ and OpenCL C: the host reference, every kernel of every back end and the host's
 * checks use these, so the schemes differ only in how wavefront steps are separated.
 *
 * Tiles. The interior (rows and columns 1 .. n-2) is cut into tiles of t x t cells
 * (the last row and column of tiles may be smaller): R x C tiles, tile (I, J) starting
 * at cell (1 + I t, 1 + J t). A tile's cells are updated in lexicographic order, or in
 * the tile's own anti-diagonals (the same order dependency-wise: each cell still sees
 * its up and left neighbours new and its down and right neighbours old).
 *
 * Which tiles tile (I, J) of sweep s needs, and why that suffices (the four waits of
 * sor_tile.h). Its cells read, across its edges, only the 5-point neighbours:
 *   up    tile (I-1, J) with sweep s done     (new values of its last row)
 *   left  tile (I, J-1) with sweep s done     (new values of its last column)
 *   down  tile (I+1, J) with sweep s-1 done   (old values of its first row)
 *   right tile (I, J+1) with sweep s-1 done   (old values of its first column)
 * and "old" also means "not yet overwritten by sweep s": that needs no wait of its own,
 * because tile (I+1, J) (and (I, J+1)) of sweep s itself waits, as its `up` (`left`),
 * for tile (I, J) of sweep s. Symmetrically nobody overwrites what (I, J) reads too
 * early, and the neighbours that read (I, J) are ordered by their own waits. The
 * diagonal tiles (I-1, J+1), (I+1, J-1) share no 5-point edge with (I, J): no wait. No
 * wait is implied by the others (down at s-1 is not reached through right, nor right
 * through down: each chain of waits ends a sweep short), so each of the four is needed,
 * and the tests drop each in turn and see the result come out wrong.
 *
 * So every cell of every sweep is computed from exactly the values the sequential
 * lexicographic sweep gives it: the result is the reference's bit for bit.
 *
 * The schedule: tile (I, J) of sweep s belongs to step I + J + 2s. Its four
 * dependencies belong to step I + J + 2s - 1 (up, left: one diagonal back; down, right:
 * one diagonal on and one sweep back), so the tiles of a step are independent and
 * several sweeps are in flight at once (a step holds tiles of every sweep whose
 * wavefront is inside the grid). A step's tiles are one colour of the checkerboard
 * ((I + J) % 2 == step % 2) less those whose sweep has not begun or is past S: the
 * schedule numbers `slots` = ceil(R C / 2) per step, slot k the k-th tile of that
 * colour in row-major order, and skips the empty ones. Steps: 2 (S - 1) + R + C - 1.
 * A ticket t is slot t % slots of step t / slots: every dependency of a tile has a
 * smaller ticket (it is in an earlier step). */
#ifndef GSR_SOR_STEP_H
#define GSR_SOR_STEP_H

#if defined(__OPENCL_VERSION__)
/* Before any arithmetic of the program: OpenCL C may contract a * b + c by default. */
#pragma OPENCL FP_CONTRACT OFF
#define GSR_FN inline
#define GSR_DFN inline
#define GSR_GLOBAL __global
#elif defined(__CUDACC__)
#define GSR_FN static __device__ __host__ __forceinline__ /* the host's checks use them too */
#define GSR_DFN static __device__ __forceinline__         /* device only (sor_tile.h) */
#define GSR_GLOBAL
#else
#define GSR_FN static inline
#define GSR_DFN static inline
#define GSR_GLOBAL
#endif

/* Test-only switches (gsr_config.mutant, a kernel argument): a wait left out, or a
 * tile that never signals. With a wait left out the result must come out wrong (the
 * tests prove the check can fail); with GSR_MUTE_FIRST the local scheme must time out
 * on tile (0, 0)'s word. */
#define GSR_DROP_UP 1u     /* tile (I-1, J) of this sweep */
#define GSR_DROP_LEFT 2u   /* tile (I, J-1) of this sweep */
#define GSR_DROP_DOWN 4u   /* tile (I+1, J) of the last sweep */
#define GSR_DROP_RIGHT 8u  /* tile (I, J+1) of the last sweep */
#define GSR_MUTE_FIRST 16u /* tile (0, 0) never signals (local) */

/* The update, written once. a = 1 - omega and b = omega / 4, rounded once on the host.
 * Two products and three sums: every build must keep them apart (no fused multiply-add:
 * --fmad=false, -ffp-contract=off, FP_CONTRACT OFF in sor.cl) to round as the host does. */
#define GSR_UPDATE(self, up, left, down, right, a, b) \
    ((a) * (self) + (b) * (((up) + (left)) + ((down) + (right))))

/* The shape of one configuration: computed from (n, t, S) everywhere it is needed. The
 * host checks that steps * slots fits 32 bits before anything runs. */
typedef struct gsr_shape {
    unsigned n, tile, sweeps;
    unsigned rows, cols; /* tiles: R x C */
    unsigned slots;      /* per step: ceil(R C / 2) ("half" is an OpenCL type) */
    unsigned steps;      /* 2 (S - 1) + R + C - 1 */
    unsigned tickets;    /* steps * slots */
} gsr_shape;

GSR_FN gsr_shape gsr_shape_of(unsigned n, unsigned tile, unsigned sweeps)
{
    gsr_shape g;
    g.n = n;
    g.tile = tile;
    g.sweeps = sweeps;
    g.rows = (n - 2u + tile - 1u) / tile;
    g.cols = g.rows;
    g.slots = (g.rows * g.cols + 1u) / 2u;
    g.steps = 2u * (sweeps - 1u) + g.rows + g.cols - 1u;
    g.tickets = g.steps * g.slots;
    return g;
}

/* One tile of one sweep: its sweep, its place and its cells. */
typedef struct gsr_tile {
    unsigned s, ti, tj; /* sweep, tile row, tile column */
    unsigned word;      /* its progress word: ti * C + tj */
    unsigned i0, j0;    /* its first cell */
    unsigned h, w;      /* its rows and columns of cells (t, less at the far edges) */
} gsr_tile;

/* Slot k of step `step`: 1 and the tile, or 0 for an empty slot. Row-major order over
 * one colour: with C even every tile row holds C/2 of each colour; with C odd, tile
 * p = I C + J has I + J = p (mod 2), so the colour's tiles are p = 2k + colour. */
GSR_FN int gsr_tile_at(const gsr_shape *g, unsigned step, unsigned k, gsr_tile *out)
{
    unsigned colour = step & 1u, p;
    if (g->cols % 2u) {
        p = 2u * k + colour;
    } else {
        unsigned per_row = g->cols / 2u, ti = k / per_row;
        p = ti * g->cols + 2u * (k % per_row) + ((colour + ti) & 1u);
    }
    if (p >= g->rows * g->cols)
        return 0;
    out->ti = p / g->cols;
    out->tj = p % g->cols;
    if (out->ti + out->tj > step) /* its first sweep has not begun */
        return 0;
    out->s = (step - out->ti - out->tj) / 2u;
    if (out->s >= g->sweeps) /* its last sweep is done */
        return 0;
    out->word = p;
    out->i0 = 1u + out->ti * g->tile;
    out->j0 = 1u + out->tj * g->tile;
    out->h = g->n - 1u - out->i0 < g->tile ? g->n - 1u - out->i0 : g->tile;
    out->w = g->n - 1u - out->j0 < g->tile ? g->n - 1u - out->j0 : g->tile;
    return 1;
}

#endif
