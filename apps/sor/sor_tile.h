/* apps/sor/sor_tile.h - what the kernels of every back end do with the schedule of
 * sor_step.h: a wavefront step's tiles (the barrier schemes), and the local scheme's
 * loop of ticket, waits, tile, signal. Common subset of C11, CUDA C++ and OpenCL C,
 * after a gridsync shim (gridsync/cpu.h, cuda.cuh, opencl.clh) and sor_step.h.
 *
 * A tile's cells are computed by GSR_TILE_CELLS(u, n, tile, a, b), every work-item of
 * the group calling it: gsr_cells_group below unless the includer names its own (CUDA:
 * a warp in shared memory, sor_kernels.cuh). */
#ifndef GSR_SOR_TILE_H
#define GSR_SOR_TILE_H

/* No #include of sor_step.h here: the OpenCL program is these files joined in order,
 * and its run-time compiler has no include path. */

/* A tile in its own anti-diagonals, in place in global memory: work-item c takes
 * column c, row k - c at step k, a group barrier between steps. Then the up and left
 * neighbours of a cell were written a step earlier (by this work-item, or by c - 1) and
 * the down and right ones are written a step later: the lexicographic order's values.
 * Needs at least w work-items. */
GSR_DFN void gsr_cells_group(GSR_GLOBAL float *u, unsigned n, const gsr_tile *t, float a, float b)
{
    unsigned c = gs_local_id();
    int up = -(int)n;
    for (unsigned k = 0; k + 1u < t->h + t->w; ++k) {
        unsigned r = k - c; /* wraps above h where c > k: idle */
        if (c < t->w && r < t->h) {
            GSR_GLOBAL float *p = u + (t->i0 + r) * n + t->j0 + c;
            *p = GSR_UPDATE(p[0], p[up], p[-1], p[n], p[1], a, b);
        }
        gs_group_barrier();
    }
}

#ifndef GSR_TILE_CELLS
#define GSR_TILE_CELLS gsr_cells_group
#endif

/* The barrier schemes: this group's tiles of one step, slots first, first + stride, ...
 * (the group's id and the grid's groups). The step's tiles are independent. */
GSR_DFN void gsr_step(GSR_GLOBAL float *u, const gsr_shape *g, unsigned step, unsigned first,
                      unsigned stride, float a, float b)
{
    gsr_tile t;
    for (unsigned k = first; k < g->slots; k += stride)
        if (gsr_tile_at(g, step, k, &t))
            GSR_TILE_CELLS(u, g->n, &t, a, b);
}

/* The waits of tile t (sor_step.h says why these four, and why they are enough): up and
 * left with this sweep done (s + 1 sweeps completed), down and right with the last one
 * done (s completed; 0 in the first sweep, which waits for nothing). Every word waited
 * for belongs to the step before t's, so to a smaller ticket: a group holding the
 * smallest unfinished ticket waits for nothing unfinished, finishes, and by induction
 * every ticket does (gridsync/local.h), with any number of groups. */
GSR_DFN gs_u32 gsr_wait(gs_local *L, const gsr_shape *g, const gsr_tile *t, unsigned mutant)
{
    unsigned w = t->word, now = t->s + 1u, last = t->s; /* last: 0 in the first sweep */
    unsigned up = t->ti > 0u && !(mutant & GSR_DROP_UP) ? now : 0u;
    unsigned left = t->tj > 0u && !(mutant & GSR_DROP_LEFT) ? now : 0u;
    unsigned down = t->ti + 1u < g->rows && !(mutant & GSR_DROP_DOWN) ? last : 0u;
    unsigned right = t->tj + 1u < g->cols && !(mutant & GSR_DROP_RIGHT) ? last : 0u;
    return gs_local_wait4(L, w - g->cols, up, w - 1u, left, w + g->cols, down, w + 1u, right);
}

/* The next ticket, ordered when a tile starts (gridsync/local.h's gs_local_order and
 * gs_local_take), so that its round trips overlap the tile's waits and cells instead of
 * lying between two tiles; or, where GSR_TICKET_AHEAD is 0, taken when it is needed
 * (gs_local_next). OpenCL takes it when needed: PoCL 3.1 ran the loop below with the
 * ticket ahead into a hang that no bounded wait could end (test_sor's local runs with 2
 * groups never returned), a work-group loop it builds wrongly, like those this file
 * is written around. */
#ifndef GSR_TICKET_AHEAD
#if defined(__OPENCL_VERSION__)
#define GSR_TICKET_AHEAD 0
#else
#define GSR_TICKET_AHEAD 1
#endif
#endif
#if GSR_TICKET_AHEAD
typedef gs_local_ticket gsr_next;
GSR_DFN gsr_next gsr_order(gs_local *L) { return gs_local_order(L); }
GSR_DFN gs_u32 gsr_take(gs_local *L, gsr_next o) { return gs_local_take(L, o); }
#else
typedef gs_u32 gsr_next;
GSR_DFN gsr_next gsr_order(gs_local *L)
{
    (void)L;
    return 0u;
}
GSR_DFN gs_u32 gsr_take(gs_local *L, gsr_next o)
{
    (void)o;
    return gs_local_next(L);
}
#endif

/* The local scheme, every work-item of the group: tickets until none is left, each
 * tile after its waits, then its word := sweeps completed. 0, or why the group left
 * (a wait gave up: the host's gs_local_collect reports it; gs_local_next then hands out
 * no more tickets, which ends the loop). Written without `continue`, early exits or a
 * loop condition on a wait's verdict: PoCL 3.1's work-group loops crashed (SIGSEGV in
 * the kernel) on each of those. After a failed wait the tile is computed with no
 * columns and its word keeps what it held (t.s), so nothing moves on from it. */
GSR_DFN gs_u32 gsr_local_run(gs_local *L, GSR_GLOBAL float *u, const gsr_shape *g, float a, float b,
                             unsigned mutant)
{
    gs_u32 failed = 0u;
    gsr_next next = gsr_order(L);
    for (gs_u32 ticket = gsr_take(L, next); ticket < g->tickets; ticket = gsr_take(L, next)) {
        next = gsr_order(L);
        gsr_tile t; /* an empty slot: the sweep has not reached it, or is done */
        if (gsr_tile_at(g, ticket / g->slots, ticket % g->slots, &t)) {
            gs_u32 why = gsr_wait(L, g, &t, mutant);
            int mute = why != 0u || ((mutant & GSR_MUTE_FIRST) && t.word == 0u);
            failed = failed != 0u ? failed : why;
            t.w = why != 0u ? 0u : t.w;
            GSR_TILE_CELLS(u, g->n, &t, a, b);
            gs_local_signal(L, t.word, mute ? t.s : t.s + 1u);
        }
    }
    return failed;
}

#endif
