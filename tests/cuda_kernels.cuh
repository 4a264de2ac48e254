/* tests/cuda_kernels.cuh - user kernels for the CUDA tests, launched through
 * gs_cuda_launch (gridsync/host_cuda.h). Included by cuda_barrier.cu and, with
 * GS_TEST_HOOKS and GS_WEAKEN_COUNT=1 defined first, by cuda_weak.cu. They take the
 * run-time dispatch (gs_grid_begin, gs_sync: one kernel for every protocol);
 * cuda_user_api.cu has kernels that name their protocol. */
#ifndef GRIDSYNC_TESTS_CUDA_KERNELS_CUH
#define GRIDSYNC_TESTS_CUDA_KERNELS_CUH

#include "gridsync/cuda.cuh"
#include "kernels/workloads.h"

/* Message passing as the built-in program runs it, through gs_sync or through the
 * split-phase gs_arrive / gs_wait_token with independent work in between. */
static __global__ void user_mp_kernel(gs_word *state, unsigned *buf, unsigned *scratch, gs_word *c,
                                      gs_work_params prm, int split)
{
    gs_grid g = gs_grid_begin(state);
    for (unsigned p = prm.phase_begin; p < prm.phase_end; ++p) {
        if (p != prm.phase_begin) {
            unsigned why;
            /* The same independent work (about 1 us, touching nothing shared) in both
             * forms: before gs_sync, or between gs_arrive and gs_wait_token, where it
             * hides the barrier's latency. The difference is the gain. */
            gs_token t;
            if (split)
                t = gs_arrive(&g);
            unsigned x = p ^ gs_local_id();
            for (int i = 0; i < 512; ++i)
                x = x * 1664525u + 1013904223u;
            if (x == 0x12345678u && gs_local_id() == 1u)
                gs_fetch_add_relaxed(&c[GS_C_SCRATCH], 1u);
            why = split ? gs_wait_token(&g, t) : gs_sync(&g);
            if (why)
                return;
        }
        for (unsigned lg = gs_group_id(); lg < prm.logical_groups; lg += gs_num_groups())
            gs_work_phase(&prm, p, lg, gs_local_id(), gs_local_size(), buf, scratch, c);
    }
}

/* A kernel whose dynamic shared memory limits how many blocks fit on an SM. */
static __global__ void user_smem_kernel(gs_word *state, unsigned *out)
{
    extern __shared__ unsigned smem[];
    gs_grid g = gs_grid_begin(state);
    smem[gs_local_id()] = gs_group_id();
    if (gs_sync(&g))
        return;
    out[gs_group_id() * gs_local_size() + gs_local_id()] = smem[gs_local_id()] + 1u;
}

#endif
