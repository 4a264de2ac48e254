/* apps/jacobi/jacobi_local.h - the local form's loop (jacobi.h): no barrier at all; a
 * group waits only for the bands next to the one it computes, through gridsync's local
 * synchronization (gridsync/local.h). Common subset of C11, CUDA C++ and OpenCL C, after
 * a gridsync shim (gridsync/cpu.h, cuda.cuh, opencl.clh) and jacobi_step.h.
 *
 * Work comes as tickets from the state's counter: ticket k is band k % B of iteration
 * k / B (B bands, gsj_band), and progress word x holds the iterations band x has done.
 * Band x of iteration t waits until words x - 1, x and x + 1 hold t (iteration 0 waits
 * for nothing), computes its rows from src_t into dst_t, and then sets word x to t + 1.
 *
 * Why that is race-free (src_t = dst_{t-1}; buffers ping-pong):
 *  - read after write: band x of t reads src_t in its own rows and the one row next to
 *    it in bands x - 1 and x + 1; each of the three wrote those rows in iteration t - 1,
 *    before its word said t.
 *  - write after read: band x of t writes its rows of dst_t = src_{t-1}, which were read
 *    in iteration t - 1 by bands x - 1, x and x + 1 only, before their words said t.
 *  - nobody gets further ahead: band x + 1 of t + 1 waits for band x to have done t.
 * So every cell is the one GSJ_AVERAGE of src, as in the reference, bit for bit.
 *
 * Deadlock freedom with any number of groups, resident or not (gridsync/local.h): a
 * ticket waits only for tickets of the iteration before, all smaller, so the holder of
 * the smallest unfinished ticket waits for nothing unfinished.
 *
 * Where the barrier forms make every group wait for the slowest of all, here a band
 * waits for its two neighbours, and a late group delays only what depends on it. */
#ifndef GSJ_JACOBI_LOCAL_H
#define GSJ_JACOBI_LOCAL_H

/* The weakened build (GSJ_WEAKEN_LOCAL, the test that proves the check can fail): a band
 * does not wait for the band above it, whose last row (the one it reads first) that band
 * writes last. */
#ifdef GSJ_WEAKEN_LOCAL
#define GSJ_ABOVE_WAITED 0u
#else
#define GSJ_ABOVE_WAITED 1u
#endif

/* Every work-item of the group, `bands` of the interior (1 .. n - 2), `iters` iterations
 * (iters * bands below GS_LOCAL_END, iters <= GS_LOCAL_MAX_VALUE: the host checks).
 * 0, or why the group left (a wait gave up: the host's gs_local_collect reports it, and
 * gs_local_next hands out no more tickets, which ends the loop). Written without
 * `continue` or early exits, as apps/sor's loop, for PoCL 3.1's work-group loops; after
 * a failed wait the band is computed with no rows and its word keeps what it held. */
GSJ_FN gs_u32 gsj_local_run(gs_local *L, GSJ_GLOBAL float *a, GSJ_GLOBAL float *b, unsigned n,
                            unsigned iters, unsigned bands)
{
    gs_u32 failed = 0u;
    unsigned tickets = iters * bands;
    gs_local_ticket next = gs_local_order(L);
    for (gs_u32 k = gs_local_take(L, next); k < tickets; k = gs_local_take(L, next)) {
        next = gs_local_order(L); /* the next ticket's round trip overlaps this band */
        unsigned t = k / bands, x = k - t * bands;
        unsigned up = x > 0u ? t * GSJ_ABOVE_WAITED : 0u, below = x + 1u < bands ? t : 0u;
        gs_u32 why = gs_local_wait4(L, x - 1u, up, x, t, x + 1u, below, x, 0u);
        failed = failed != 0u ? failed : why;
        unsigned r0 = 1u + gsj_part_begin(x, n - 2u, bands);
        unsigned r1 = why != 0u ? r0 : 1u + gsj_part_begin(x + 1u, n - 2u, bands);
        gsj_band(t % 2u ? b : a, t % 2u ? a : b, n, r0, r1, gs_local_id(), gs_local_size());
        gs_local_signal(L, x, why != 0u ? t : t + 1u);
    }
    return failed;
}

#endif
