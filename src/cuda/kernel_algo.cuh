/* src/cuda/kernel_algo.cuh - the built-in kernel, specialised for one protocol.
 *
 * Every kernel is the shared body (src/kernels/workloads.h) over the CUDA shim; each
 * translation unit that includes this file defines GS_KERNEL_PROTOCOL, a protocol's name
 * (gridsync/protocols.h), whose gs_sync_<name> the kernel runs as a user's kernel names
 * its protocol, or relaunch (with GS_WORK_NO_BARRIER: no barrier at all). It defines
 * gs_work_kernel_<name>, its _compute twin, and the accessor gs_cuda_kernel_<name>
 * (cuda_internal.h). One kernel per protocol keeps each kernel's registers to what its
 * own barrier needs (all of them within 32, so 2048 threads per SM stay possible), leaves
 * no run-time dispatch in the hot loop, and gives each protocol SASS of its own to read. */
#ifndef GS_WORK_NO_BARRIER
#define GS_WORK_PROTOCOL GS_KERNEL_PROTOCOL
#endif
#include "gridsync/cuda.cuh"
#include "kernels/workloads.h"

#include "cuda_internal.h"

#define GS_KERNEL_CAT_(a, b) a##b
#define GS_KERNEL_CAT(a, b) GS_KERNEL_CAT_(a, b)
#define GS_KERNEL_NAME GS_KERNEL_CAT(gs_work_kernel_, GS_KERNEL_PROTOCOL)

/* 1024 threads per block must stay possible, and 2048 threads per SM: at most 32
 * registers (ptxas reads the bound as a full SM of such blocks). */
extern "C" __global__ void __launch_bounds__(1024)
    GS_KERNEL_NAME(gs_word *state, unsigned *a, unsigned *b, gs_word *c, gs_work_params prm)
{
    gs_work_kernel_body(state, a, b, c, prm, GS_FORM_PROGRAMS);
}

/* The barrier-only program alone (gs_run_config.work GS_WORK_EMPTY without compute or
 * split: bench groups, iters, wgsize; workloads.h says why a kernel of its own). */
extern "C" __global__ void __launch_bounds__(1024)
    GS_KERNEL_CAT(GS_KERNEL_NAME, _barriers)(gs_word *state, unsigned *a, unsigned *b, gs_word *c,
                                             gs_work_params prm)
{
    gs_work_kernel_body(state, a, b, c, prm, GS_FORM_BARRIERS);
}

/* The same with the independent work and the split phase (gs_run_config.compute,
 * .split; bench split). */
extern "C" __global__ void __launch_bounds__(1024)
    GS_KERNEL_CAT(GS_KERNEL_NAME, _compute)(gs_word *state, unsigned *a, unsigned *b, gs_word *c,
                                            gs_work_params prm)
{
    gs_work_kernel_body(state, a, b, c, prm, GS_FORM_ALL);
}

extern "C" const void *GS_KERNEL_CAT(gs_cuda_kernel_, GS_KERNEL_PROTOCOL)(int form)
{
    return form == GS_FORM_ALL        ? (const void *)GS_KERNEL_CAT(GS_KERNEL_NAME, _compute)
           : form == GS_FORM_BARRIERS ? (const void *)GS_KERNEL_CAT(GS_KERNEL_NAME, _barriers)
                                      : (const void *)GS_KERNEL_NAME;
}
