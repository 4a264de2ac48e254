/* apps/nw/nw_kernels.cuh - the app's CUDA kernels, templates on the tile side B (a block
 * of B threads, B^2 cells in shared memory): the relaunch baselines' one-diagonal
 * kernel, the persistent kernel per grid barrier (each gridsync protocol, auto, and
 * cooperative groups' grid.sync() for the cg baseline), and the local and local-tagged
 * schemes' kernels.
 * Every one computes its tiles with nw_tile (nw_tile.h).
 *
 * It compiles on its own, to read a kernel's registers and spills, e.g.
 *     nvcc -cubin -arch=sm_90 -Xptxas -v -x cu -I include -I apps/nw -DNW_CUBIN=16 \
 *          apps/nw/nw_kernels.cuh -o /dev/null
 * (NW_CUBIN: B; the local, local-tagged, relaunch, auto and cg kernels of that B are in
 * the cubin). */
#ifndef NW_KERNELS_CUH
#define NW_KERNELS_CUH

#include <cooperative_groups.h>

#include "gridsync/cuda.cuh"

#include "nw_tile.h"

/* Blocks of B threads: at 16 threads a block, 32 blocks fill an SM's 2048 threads...
 * shared memory (B = 16: ~3.6 KB a block) lets 24 or more reside at B <= 32. The bound
 * asks for no more than 64 registers a thread. */
#define NW_MIN_BLOCKS(B) ((B) == 64u ? 8 : 16)

/* A grid barrier policy: made once per thread, sync() between two diagonals, non-zero
 * meaning "leave the kernel now". */
#define NW_GRIDSYNC_POLICY(p)                                                       \
    struct nw_##p {                                                                 \
        gs_grid g;                                                                  \
        __device__ explicit nw_##p(gs_word *state) : g(gs_grid_begin_##p(state)) {} \
        __device__ gs_u32 sync() { return gs_sync_##p(&g); }                        \
    };
#define NW_GRIDSYNC_POLICY_X(ID, name, value, text, desc) NW_GRIDSYNC_POLICY(name)
GS_PROTOCOLS_SHARED(NW_GRIDSYNC_POLICY_X)
NW_GRIDSYNC_POLICY(cluster)
NW_GRIDSYNC_POLICY(auto)

/* The vendor's grid barrier as a user writes it (it cannot time out). */
struct nw_cg {
    cooperative_groups::grid_group grid;
    __device__ explicit nw_cg(gs_word *) : grid(cooperative_groups::this_grid()) {}
    __device__ gs_u32 sync()
    {
        grid.sync();
        return 0u;
    }
};

#define NW_CTX(B, mem) nw_begin(m, edge, s1, s2, blosum, mem, n, B, threadIdx.x)

/* One anti-diagonal per launch: blocks stride over its tiles. */
template <unsigned B>
__global__ void __launch_bounds__(B, NW_MIN_BLOCKS(B))
    nw_relaunch(int *m, int *edge, const unsigned char *s1, const unsigned char *s2,
                const int *blosum, unsigned n, unsigned d)
{
    __shared__ int mem[NW_GROUP_WORDS(B)];
    nw_ctx c = NW_CTX(B, mem);
    nw_diagonal(&c, d, blockIdx.x, gridDim.x);
}

/* Every diagonal in one launch of co-resident blocks, a grid barrier between two. */
template <unsigned B, class Barrier>
__global__ void __launch_bounds__(B, NW_MIN_BLOCKS(B))
    nw_global(gs_word *state, int *m, int *edge, const unsigned char *s1, const unsigned char *s2,
              const int *blosum, unsigned n)
{
    __shared__ int mem[NW_GROUP_WORDS(B)];
    nw_ctx c = NW_CTX(B, mem);
    Barrier bar(state);
    for (unsigned d = 0;; ++d) {
        nw_diagonal(&c, d, blockIdx.x, gridDim.x);
        if (d + 2u == 2u * c.R || bar.sync() != 0u)
            return; /* done, or a wait gave up: the launch reports it */
    }
}

/* Any number of blocks, tiles by ticket: blocks that do not fit yet queue, and a block
 * that took a ticket waits only for tiles of earlier tickets, held by running blocks. */
template <unsigned B>
__global__ void __launch_bounds__(B, NW_MIN_BLOCKS(B))
    nw_local_kernel(gs_word *state, int *m, int *edge, const unsigned char *s1,
                    const unsigned char *s2, const int *blosum, unsigned n, unsigned flags,
                    unsigned k, unsigned silent)
{
    __shared__ int mem[NW_GROUP_WORDS(B)];
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(state, scratch);
    nw_ctx c = NW_CTX(B, mem);
    nw_local(&c, &L, flags, k, silent);
}

/* The same tickets, a tile's boundary in tagged words polled by the next tiles' threads
 * (nw_tagged). */
template <unsigned B>
__global__ void __launch_bounds__(B, NW_MIN_BLOCKS(B))
    nw_tagged_kernel(gs_word *state, int *m, int *edge, const unsigned char *s1,
                     const unsigned char *s2, const int *blosum, unsigned n, unsigned silent)
{
    __shared__ int mem[NW_GROUP_WORDS(B)];
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(state, scratch);
    nw_ctx c = NW_CTX(B, mem);
    nw_tagged(&c, &L, silent);
}

#ifdef NW_CUBIN
template __global__ void nw_relaunch<NW_CUBIN>(int *, int *, const unsigned char *,
                                               const unsigned char *, const int *, unsigned,
                                               unsigned);
template __global__ void nw_local_kernel<NW_CUBIN>(gs_word *, int *, int *, const unsigned char *,
                                                   const unsigned char *, const int *, unsigned,
                                                   unsigned, unsigned, unsigned);
template __global__ void nw_tagged_kernel<NW_CUBIN>(gs_word *, int *, int *, const unsigned char *,
                                                    const unsigned char *, const int *, unsigned,
                                                    unsigned);
template __global__ void nw_global<NW_CUBIN, nw_auto>(gs_word *, int *, int *,
                                                      const unsigned char *, const unsigned char *,
                                                      const int *, unsigned);
template __global__ void nw_global<NW_CUBIN, nw_cg>(gs_word *, int *, int *, const unsigned char *,
                                                    const unsigned char *, const int *, unsigned);
#endif

#endif
