/* apps/stencil/stencil_kernels.cuh - the app's CUDA kernels: one persistent kernel
 * template per barrier (each gridsync protocol, and grid.sync() for the cg baseline)
 * and the relaunch baselines' two phase kernels. */
#ifndef GSS_STENCIL_KERNELS_CUH
#define GSS_STENCIL_KERNELS_CUH

#include <cooperative_groups.h>

#include "gridsync/cuda.cuh"

#include "stencil_step.h"

#define GSS_GRIDSYNC_POLICY(p)                                                       \
    struct gss_##p {                                                                 \
        gs_grid g;                                                                   \
        __device__ explicit gss_##p(gs_word *state) : g(gs_grid_begin_##p(state)) {} \
        __device__ gs_u32 sync() { return gs_sync_##p(&g); }                         \
    };
#define GSS_GRIDSYNC_POLICY_X(ID, name, value, text, desc) GSS_GRIDSYNC_POLICY(name)
GS_PROTOCOLS_SHARED(GSS_GRIDSYNC_POLICY_X)
GSS_GRIDSYNC_POLICY(cluster)
GSS_GRIDSYNC_POLICY(auto)

/* The vendor's grid barrier as a user writes it; it cannot time out. */
struct gss_cg {
    cooperative_groups::grid_group grid;
    __device__ explicit gss_cg(gs_word *) : grid(cooperative_groups::this_grid()) {}
    __device__ gs_u32 sync()
    {
        grid.sync();
        return 0u;
    }
};

/* The blog's kernel: read, barrier, write, barrier (none after the last write). Up to
 * 1024 threads a block: the blog's largest work-group. */
template <class Barrier>
__global__ void __launch_bounds__(1024)
    gss_persistent(gs_word *state, unsigned *a, unsigned *tmp, unsigned n, unsigned iters)
{
    Barrier bar(state);
    for (unsigned t = 0;; ++t) {
        unsigned held =
            gss_read(a, tmp, n, blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x);
        if (bar.sync() != 0u)
            return; /* a wait gave up: the launch reports it */
        gss_write(a, tmp, n, blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x, held);
        if (t + 1u == iters || bar.sync() != 0u)
            return;
    }
}

__global__ void gss_read_phase(const unsigned *a, unsigned *tmp, unsigned n)
{
    gss_read_all(a, tmp, n, blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x);
}

__global__ void gss_write_phase(unsigned *a, const unsigned *tmp, unsigned n)
{
    gss_write_all(a, tmp, n, blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x);
}

#endif
