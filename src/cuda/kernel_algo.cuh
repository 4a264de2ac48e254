/* src/cuda/kernel_algo.cuh - the built-in kernel, specialised for one protocol.
 *
 * Every kernel is the shared body (src/kernels/workloads.h) over the CUDA shim; each
 * translation unit that includes this file defines
 *     GS_KERNEL_ALGO      the GS_ALGO_ID_* whose barrier gs_sync runs (any other
 *                         protocol id found in the state ends the launch with
 *                         GS_ABORT_BAD_STATE), GS_ALGO_ID_RELAUNCH for none
 *     GS_KERNEL_NAME      the kernel's name (the one with the independent work adds
 *                         _compute)
 *     GS_KERNEL_ACCESSOR  a C function returning a host stub (cuda_internal.h)
 * One kernel per protocol keeps each kernel's registers to what its own barrier needs
 * (all of them within 32, so 2048 threads per SM stay possible), leaves no run-time
 * dispatch in the hot loop, and gives each protocol SASS of its own to read.
 *
 * How: GS_ONLY_ALGO (gridsync/barrier.h) compiles the chosen protocol alone into the
 * dispatch. */
#define GS_ONLY_ALGO GS_KERNEL_ALGO
#include "gridsync/cuda.cuh"
#include "kernels/workloads.h"

#include "cuda_internal.h"

#define GS_KERNEL_CAT_(a, b) a##b
#define GS_KERNEL_CAT(a, b) GS_KERNEL_CAT_(a, b)

/* 1024 threads per block must stay possible, and 2048 threads per SM: at most 32
 * registers (ptxas reads the bound as a full SM of such blocks). */
extern "C" __global__ void __launch_bounds__(1024)
GS_KERNEL_NAME(gs_word *state, unsigned *a, unsigned *b, gs_word *c, gs_work_params prm)
{
    gs_work_kernel_body(state, a, b, c, prm, 0);
}

/* The same with the independent work and the split phase (gs_run_config.compute,
 * .split; bench split). */
extern "C" __global__ void __launch_bounds__(1024)
GS_KERNEL_CAT(GS_KERNEL_NAME, _compute)(gs_word *state, unsigned *a, unsigned *b, gs_word *c,
                                        gs_work_params prm)
{
    gs_work_kernel_body(state, a, b, c, prm, 1);
}

extern "C" const void *GS_KERNEL_ACCESSOR(int with_compute)
{
    return with_compute ? (const void *)GS_KERNEL_CAT(GS_KERNEL_NAME, _compute)
                        : (const void *)GS_KERNEL_NAME;
}
