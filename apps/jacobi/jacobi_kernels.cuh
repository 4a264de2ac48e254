/* apps/jacobi/jacobi_kernels.cuh - the app's CUDA kernels: two persistent kernel
 * templates, instantiated per barrier (each gridsync protocol, and cooperative groups'
 * grid.sync() for the cg baseline), and the relaunch baselines' one-iteration kernel.
 * gsj_persistent (the sync form) updates its cells with gsj_sweep, gsj_split (the split
 * form: a tile per group) with gsj_perimeter and gsj_inner (jacobi_step.h).
 *
 * It compiles on its own, to read a kernel's registers and spills, e.g.
 *     nvcc -cubin -arch=sm_90 --fmad=false -Xptxas -v -x cu -I include -I apps/jacobi \
 *          -DGSJ_CUBIN=gsj_flip apps/jacobi/jacobi_kernels.cuh -o /dev/null
 * with GSJ_CUBIN one of gsj_<protocol> (central lockfree naive flip tree sharded auto
 * cluster) or gsj_cg: both forms' kernels of that barrier; the one-iteration kernel
 * gsj_step and the local and halo forms' gsj_local and gsj_halo are always in the cubin. */
#ifndef GSJ_JACOBI_KERNELS_CUH
#define GSJ_JACOBI_KERNELS_CUH

#include <cooperative_groups.h>

#include "gridsync/cuda.cuh"

#include "jacobi_step.h"
#include "jacobi_local.h"
#include "jacobi_resident.h"
#include "jacobi_halo.h"

/* The block size the persistent kernels are built for: at 8 blocks of 256 per SM
 * (2048 threads) a kernel may hold 32 registers per thread, and the benchmark's
 * largest grid is 8 blocks per SM. */
#define GSJ_CUDA_BLOCK 256
#ifndef GSJ_CUDA_BLOCKS_PER_SM /* -D: another bound, for bench/micro's experiments */
#define GSJ_CUDA_BLOCKS_PER_SM 8
#endif

/* A barrier policy: made once per thread before the first iteration; sync() between
 * two iterations (the sync form), or arrive() and wait(token) around the work that no
 * other group reads (the split form); non-zero meaning "leave the kernel now". */
#define GSJ_GRIDSYNC_POLICY(p)                                                       \
    struct gsj_##p {                                                                 \
        typedef gs_token token;                                                      \
        gs_grid g;                                                                   \
        __device__ explicit gsj_##p(gs_word *state) : g(gs_grid_begin_##p(state)) {} \
        __device__ gs_u32 sync() { return gs_sync_##p(&g); }                         \
        __device__ token arrive() { return gs_arrive_##p(&g); }                      \
        __device__ gs_u32 wait(token t) { return gs_wait_token_##p(&g, t); }         \
    };

/* One per protocol of gridsync's shared list (gridsync/protocols.h), cluster and auto.
 * (gridsync's own cg, gs_sync_cg, is not used: the cg baseline is written below as a
 * user writes it.) */
#define GSJ_GRIDSYNC_POLICY_X(ID, name, value, text, desc) GSJ_GRIDSYNC_POLICY(name)
GS_PROTOCOLS_SHARED(GSJ_GRIDSYNC_POLICY_X)
GSJ_GRIDSYNC_POLICY(cluster)
GSJ_GRIDSYNC_POLICY(auto)

/* The vendor's grid barrier as a user writes it: the grid group taken once, sync()
 * between iterations. It cannot fail (nor time out). In the split form, the vendor's
 * split barrier (below). */
struct gsj_cg {
    typedef cooperative_groups::grid_group::arrival_token token;
    cooperative_groups::grid_group grid;
    __device__ explicit gsj_cg(gs_word *) : grid(cooperative_groups::this_grid()) {}
    __device__ gs_u32 sync()
    {
        grid.sync();
        return 0u;
    }
    /* The split form as a cg user writes it: the vendor's split barrier (CUDA 12's
     * barrier_arrive / barrier_wait), so that both sides hide the barrier alike. */
    __device__ token arrive() { return grid.barrier_arrive(); }
    __device__ gs_u32 wait(token t)
    {
        grid.barrier_wait(static_cast<token &&>(t));
        return 0u;
    }
};

/* Every iteration in one launch, a barrier between two (none after the last: the
 * kernel's end orders it). 1-D grid of 1-D blocks. The parameters are never assigned
 * and the indices are read again each iteration: they stay in the constant bank and
 * special registers instead of taking registers across the barrier, where the
 * barrier's own state needs them (32 per thread at 8 blocks of 256 per SM). */
template <class Barrier>
__global__ void __launch_bounds__(GSJ_CUDA_BLOCK, GSJ_CUDA_BLOCKS_PER_SM)
    gsj_persistent(gs_word *state, float *a, float *b, unsigned n, unsigned iters)
{
    Barrier bar(state);
    for (unsigned t = 0;; ++t) {
        gsj_sweep(t % 2u ? b : a, t % 2u ? a : b, n, blockIdx.x * blockDim.x + threadIdx.x,
                  gridDim.x * blockDim.x);
        if (t + 1u == iters || bar.sync() != 0u)
            return; /* done, or a wait gave up: the launch reports it */
    }
}

/* The split form (jacobi_step.h says why it is race-free): each group's tile, its
 * perimeter before the arrival, its inner cells between arrival and wait. The tile is
 * made again in each phase from gs_group_id(), a volatile read the compiler cannot hoist
 * out of the loop, at the price of its three divisions per phase: made once from
 * blockIdx.x, it was held in registers across the barrier beside the token (lockfree 31,
 * cluster 30 registers against the tiled grid.sync() kernel's 28; tests/regs; now every
 * one takes 32, the launch bounds' budget, without spilling). T barriers, where the
 * sync form has T - 1: the last arrival has nothing to publish, but an unconditional
 * arrive/wait pair keeps the loop in the plain form (one barrier per run). */
template <class Barrier>
__global__ void __launch_bounds__(GSJ_CUDA_BLOCK, GSJ_CUDA_BLOCKS_PER_SM)
    gsj_split(gs_word *state, float *a, float *b, unsigned n, unsigned iters, unsigned gx,
              unsigned gy)
{
    Barrier bar(state);
    for (unsigned t = 0;; ++t) {
        gsj_perimeter(t % 2u ? b : a, t % 2u ? a : b, n, gsj_tile_of(n, gx, gy, gs_group_id()),
                      threadIdx.x, blockDim.x);
        typename Barrier::token token = bar.arrive();
        gsj_inner(t % 2u ? b : a, t % 2u ? a : b, n, gsj_tile_of(n, gx, gy, gs_group_id()),
                  threadIdx.x, blockDim.x);
        if (bar.wait(token) != 0u || t + 1u == iters)
            return; /* a wait gave up (the launch reports it), or done */
    }
}

/* The resident form (jacobi_resident.h): the group's tile in dynamic shared memory for
 * the whole run (gsj_resident_bytes of it), its perimeter published and its halo read
 * back around each barrier; after the last iteration the tile goes to the grid whole. */
template <class Barrier>
__global__ void __launch_bounds__(GSJ_CUDA_BLOCK, GSJ_CUDA_BLOCKS_PER_SM)
    gsj_resident(gs_word *state, float *a, float *b, unsigned n, unsigned iters, unsigned gx,
                 unsigned gy)
{
    extern __shared__ float gsj_shared_tiles[];
    Barrier bar(state);
    gsj_tile t = gsj_tile_of(n, gx, gy, blockIdx.x);
    float *s = gsj_shared_tiles, *d = s + (t.rows + 2u) * (t.cols + 2u);
    gsj_resident_load(a, n, t, s, d, threadIdx.x, blockDim.x);
    __syncthreads();
    for (unsigned k = 0;; ++k) {
        gsj_resident_cells(s, d, t, threadIdx.x, blockDim.x);
        __syncthreads();
        gsj_resident_out(d, k % 2u ? a : b, n, t, k + 1u == iters, threadIdx.x, blockDim.x);
        if (k + 1u == iters || bar.sync() != 0u)
            return; /* done, or a wait gave up: the launch reports it */
        gsj_resident_halo(k % 2u ? a : b, d, n, t, threadIdx.x, blockDim.x);
        __syncthreads();
        float *x = s;
        s = d;
        d = x;
    }
}

/* The local form (jacobi_local.h): no barrier; tickets, each band after the bands next to
 * it, any grid. Launched the ordinary way, after gs_local_prepare. */
__global__ void __launch_bounds__(GSJ_CUDA_BLOCK, GSJ_CUDA_BLOCKS_PER_SM)
    gsj_local(gs_word *state, float *a, float *b, unsigned n, unsigned iters, unsigned bands)
{
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(state, scratch);
    gsj_local_run(&L, a, b, n, iters, bands);
}

/* The halo form (jacobi_halo.h): the resident form's tiles, the halo in tagged words, no
 * barrier. A tile is a block's for the whole run: launched cooperatively, after
 * gs_local_prepare. */
__global__ void __launch_bounds__(GSJ_CUDA_BLOCK, GSJ_CUDA_BLOCKS_PER_SM)
    gsj_halo(gs_word *state, float *a, float *b, unsigned n, unsigned iters, unsigned gx,
             unsigned gy, unsigned stride)
{
    extern __shared__ float gsj_shared_tiles[];
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(state, scratch);
    gsj_halo_run(&L, a, b, n, iters, gx, gy, stride, gsj_shared_tiles, threadIdx.x, blockDim.x);
}

/* The relaunch baselines: one iteration per launch. */
__global__ void gsj_step(const float *a, float *b, unsigned n)
{
    gsj_sweep(a, b, n, blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x);
}

#ifdef GSJ_CUBIN
template __global__ void gsj_persistent<GSJ_CUBIN>(gs_word *, float *, float *, unsigned, unsigned);
template __global__ void gsj_split<GSJ_CUBIN>(gs_word *, float *, float *, unsigned, unsigned,
                                              unsigned, unsigned);
template __global__ void gsj_resident<GSJ_CUBIN>(gs_word *, float *, float *, unsigned, unsigned,
                                                 unsigned, unsigned);
#endif

#endif
