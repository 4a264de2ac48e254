/* apps/sor/sor_kernels.cuh - the app's CUDA kernels: a tile is one warp's (a block of
 * 32 threads, lane c the tile's column c) in shared memory; the persistent kernel
 * template is instantiated per barrier (each gridsync protocol, and cooperative groups'
 * grid.sync() for the cg baseline); the local scheme's kernel and the relaunch
 * baselines' one-step kernel. The schedule, the waits and the update are sor_step.h's
 * and sor_tile.h's, as on every back end.
 *
 * It compiles on its own, to read the kernels' registers and spills, e.g.
 *     nvcc -cubin -arch=sm_90 --fmad=false -Xptxas -v -x cu -I include -I apps/sor \
 *          -DGSR_CUBIN=gsr_flip apps/sor/sor_kernels.cuh -o /dev/null
 * with GSR_CUBIN one of gsr_<protocol> (central lockfree naive flip tree sharded auto
 * cluster) or gsr_cg; gsr_local and gsr_relaunch are always in the cubin. */
#ifndef GSR_SOR_KERNELS_CUH
#define GSR_SOR_KERNELS_CUH

#include <cooperative_groups.h>
#include <cuda_pipeline.h>

#include "gridsync/cuda.cuh"

#include "sor_step.h"

/* One warp per block; at 32 blocks per SM (the most an SM holds) a kernel may keep 64
 * registers per thread. */
#define GSR_CUDA_BLOCK 32
#define GSR_CUDA_BLOCKS_PER_SM 32

/* A tile's cells, one warp: the tile and the row below it (old values) are copied
 * coalesced into shared memory, with the column left of it (new values) and right of
 * it (old), all of them by asynchronous copies (cp.async) issued before the warp waits
 * for any: a loop of a load and a shared store per row waited a memory round trip per
 * row, 33 in a row per tile (the loop is not unrolled: h is a run-time bound), which
 * was most of a tile's time at 4096^2 (H200, 4096^2 x 400: local 33.8 -> 31.0 ms,
 * global 48.8 -> 43.6).
 *
 * Lane c then walks down column c, row r = k - c at step k. Its up neighbour is its own
 * last value (a register: the row above the tile to start with), its left neighbour
 * lane c-1's last value (a shuffle). Its own old value and the one below it are old
 * values of its own column, which only it overwrites, row r at step k: it keeps rows r
 * and r + 1 in registers and loads row r + 2 for the next step, so no load is on a
 * step's path. Its right neighbour, row r of column c+1, is what lane c+1 (at row r - 1)
 * holds as the value below its own: a shuffle of a value known before the step. So the
 * lanes share nothing through shared memory while they walk (no __syncwarp a step:
 * shuffles synchronise them), and a step's chain is the shuffle of the up-left value and
 * the update's four dependent operations. A row stride of 32 floats puts the lanes'
 * cells of one step, (k - c, c), in 32 different banks. Then the tile goes back
 * coalesced (each lane its own column: no other lane's writes to wait for). */
static __device__ __forceinline__ void gsr_cells_warp(float *u, unsigned n, const gsr_tile *t,
                                                      float a, float b)
{
    __shared__ float sm[GSR_CUDA_BLOCK + 1][GSR_CUDA_BLOCK]; /* GSR_MAX_TILE (sor.h) is 32 */
    __shared__ float lcol[GSR_CUDA_BLOCK], rcol[GSR_CUDA_BLOCK];
    const unsigned c = threadIdx.x, h = t->h, w = t->w;
    float *base = u + t->i0 * n + t->j0;
    __syncwarp(); /* the last tile's stores from shared memory are done */
    if (c < w)
        for (unsigned r = 0; r <= h; ++r) /* row h: the first row below the tile */
            __pipeline_memcpy_async(&sm[r][c], base + r * n + c, sizeof(float));
    if (c < h) { /* (base + c n)[-1]: index arithmetic stays signed */
        const float *row = base + c * n;
        __pipeline_memcpy_async(&lcol[c], row - 1, sizeof(float));
        __pipeline_memcpy_async(&rcol[c], row + w, sizeof(float));
    }
    __pipeline_commit();
    float v = c < w ? (base - n)[c] : 0.0f; /* the row above: this sweep's values */
    __pipeline_wait_prior(0);
    __syncwarp();
    /* Rows r and r + 1 of column c at step k (clamped to the rows loaded: lanes before
     * their first step hold row 0 as the row below theirs from r = -1 on). */
    int r = -(int)c;
    float self = sm[r < 0 ? 0 : r][c], below = sm[r + 1 < 0 ? 0 : r + 1][c];
    for (unsigned k = 0; k + 1u < h + w; ++k, ++r) {
        const float left_in = __shfl_up_sync(0xffffffffu, v, 1);        /* lane c-1, row r */
        const float right_in = __shfl_down_sync(0xffffffffu, below, 1); /* lane c+1's row r */
        if (c < w && (unsigned)r < h) {
            const float left = c == 0u ? lcol[r] : left_in;
            const float right = c + 1u < w ? right_in : rcol[r];
            v = GSR_UPDATE(self, v, left, below, right, a, b);
            sm[r][c] = v;
        }
        const int next = r + 2 < 0 ? 0 : r + 2 > (int)h ? (int)h : r + 2;
        self = below;
        below = sm[next][c];
    }
    if (c < w) {
#pragma unroll 8 /* the shared loads of eight rows before their stores */
        for (unsigned r = 0; r < h; ++r)
            base[r * n + c] = sm[r][c];
    }
}

#define GSR_TILE_CELLS gsr_cells_warp
#include "sor_tile.h"

/* A barrier policy: made once per thread before the first step, sync() between two
 * steps, non-zero meaning "leave the kernel now". */
#define GSR_GRIDSYNC_POLICY(p)                                                       \
    struct gsr_##p {                                                                 \
        gs_grid g;                                                                   \
        __device__ explicit gsr_##p(gs_word *state) : g(gs_grid_begin_##p(state)) {} \
        __device__ gs_u32 sync() { return gs_sync_##p(&g); }                         \
    };
#define GSR_GRIDSYNC_POLICY_X(ID, name, value, text, desc) GSR_GRIDSYNC_POLICY(name)
GS_PROTOCOLS_SHARED(GSR_GRIDSYNC_POLICY_X)
GSR_GRIDSYNC_POLICY(cluster)
GSR_GRIDSYNC_POLICY(auto)

/* The vendor's grid barrier as a user writes it; it cannot fail (nor time out). */
struct gsr_cg {
    cooperative_groups::grid_group grid;
    __device__ explicit gsr_cg(gs_word *) : grid(cooperative_groups::this_grid()) {}
    __device__ gs_u32 sync()
    {
        grid.sync();
        return 0u;
    }
};

/* Every wavefront step in one launch, a barrier between two (none after the last: the
 * kernel's end orders it). */
template <class Barrier>
__global__ void __launch_bounds__(GSR_CUDA_BLOCK, GSR_CUDA_BLOCKS_PER_SM)
    gsr_persistent(gs_word *state, float *u, unsigned n, unsigned tile, unsigned sweeps, float a,
                   float b)
{
    Barrier bar(state);
    const gsr_shape g = gsr_shape_of(n, tile, sweeps);
    for (unsigned step = 0;; ++step) {
        gsr_step(u, &g, step, blockIdx.x, gridDim.x, a, b);
        if (step + 1u == g.steps || bar.sync() != 0u)
            return; /* done, or a wait gave up: the launch reports it */
    }
}

/* The local scheme: an ordinary launch of any number of blocks (sor_tile.h). */
__global__ void __launch_bounds__(GSR_CUDA_BLOCK, GSR_CUDA_BLOCKS_PER_SM)
    gsr_local(gs_word *state, float *u, unsigned n, unsigned tile, unsigned sweeps, float a,
              float b, unsigned mutant)
{
    GS_GROUP_SCRATCH(scratch);
    const gsr_shape g = gsr_shape_of(n, tile, sweeps);
    gs_local L = gs_local_begin(state, scratch);
    gsr_local_run(&L, u, &g, a, b, mutant);
}

/* The relaunch baselines: one wavefront step per launch. */
__global__ void __launch_bounds__(GSR_CUDA_BLOCK, GSR_CUDA_BLOCKS_PER_SM)
    gsr_relaunch(float *u, unsigned n, unsigned tile, unsigned sweeps, float a, float b,
                 unsigned step)
{
    const gsr_shape g = gsr_shape_of(n, tile, sweeps);
    gsr_step(u, &g, step, blockIdx.x, gridDim.x, a, b);
}

#ifdef GSR_CUBIN
template __global__ void gsr_persistent<GSR_CUBIN>(gs_word *, float *, unsigned, unsigned, unsigned,
                                                   float, float);
#endif

#endif
