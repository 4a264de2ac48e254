/* src/cuda/kernels_cuda.c - which built-in kernel (kernel_<name>.cu) a launch runs. */
#include "cuda_internal.h"

#define GS_CUDA_KERNEL_CASE_(ID, name, value, text, desc) \
    case GS_ALGO_##ID: return gs_cuda_kernel_##name(w);
const void *gs_cuda_work_kernel(gs_algo algo, int w)
{
    switch (algo) {
        GS_PROTOCOLS_SHARED(GS_CUDA_KERNEL_CASE_)
        GS_PROTOCOLS_CUDA(GS_CUDA_KERNEL_CASE_)
    default: return gs_cuda_kernel_relaunch(w);
    }
}
#undef GS_CUDA_KERNEL_CASE_

/* Which of a protocol's kernels (GS_FORM_*) a launch with these parameters needs. */
int gs_cuda_kernel_form(const gs_work_params *prm)
{
    if (prm->compute != 0u || prm->split != 0u)
        return GS_FORM_ALL;
    return prm->work == GS_WORK_EMPTY ? GS_FORM_BARRIERS : GS_FORM_PROGRAMS;
}
