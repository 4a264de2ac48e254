/* tests/regs/user_kernels.cu - reference user kernels for the register test
 * (check_registers.sh): the same kernel with each gridsync protocol (named, as a user
 * names it) and with the vendor's grid.sync() written the plain way, at 256 and 1024
 * threads per block under full-occupancy launch bounds (2048 threads per SM: 32
 * registers). Compiled only (nvcc -Xptxas -v), never run. */
#include <cooperative_groups.h>

#include "gridsync/cuda.cuh"

/* The Jacobi app's tiles (gsj_tile_of, gsj_perimeter, gsj_inner): the split shape below
 * is the code apps/jacobi runs. */
#include "../../apps/jacobi/jacobi_step.h"

/* A 2-D 5-point Jacobi sweep per iteration, grid-stride over a 2-D grid of 2-D blocks. */
#define JACOBI_BODY(SYNC)                                                                       \
    int tx = blockIdx.x * blockDim.x + threadIdx.x, ty = blockIdx.y * blockDim.y + threadIdx.y; \
    int sx = gridDim.x * blockDim.x, sy = gridDim.y * blockDim.y;                               \
    for (int it = 0; it < iters; ++it) {                                                        \
        for (int y = 1 + ty; y < n - 1; y += sy)                                                \
            for (int x = 1 + tx; x < n - 1; x += sx) {                                          \
                size_t i = (size_t)y * n + x;                                                   \
                b[i] = 0.25f * ((a[i - 1] + a[i + 1]) + (a[i - n] + a[i + n]));                 \
            }                                                                                   \
        float *t = a;                                                                           \
        a = b;                                                                                  \
        b = t;                                                                                  \
        SYNC;                                                                                   \
    }

/* Message passing: every thread writes a value, the barrier, then reads what a thread of
 * the next group wrote and counts the wrong ones. */
#define MP_BODY(SYNC)                                                                  \
    unsigned me = blockIdx.x * blockDim.x + threadIdx.x, all = gridDim.x * blockDim.x; \
    unsigned bad = 0;                                                                  \
    for (unsigned e = 0; e < episodes; ++e) {                                          \
        buf[(e & 1u) * all + me] = e * 2654435761u + me;                               \
        SYNC;                                                                          \
        unsigned other = (me + blockDim.x) % all;                                      \
        bad += buf[(e & 1u) * all + other] != e * 2654435761u + other;                 \
    }                                                                                  \
    if (bad)                                                                           \
        atomicAdd(errors, bad);

/* The Jacobi app's split form (apps/jacobi/jacobi_kernels.cuh, gsj_split): a tile per
 * block, its perimeter, ARRIVE, its inner cells, then WAIT, which leaves the kernel when
 * the barrier gave up or after the last iteration. */
#define SPLIT_BODY(ARRIVE, WAIT)                                                                \
    for (unsigned t = 0;; ++t) {                                                                \
        gsj_perimeter(t % 2u ? b : a, t % 2u ? a : b, n, gsj_tile_of(n, gx, gy, gs_group_id()), \
                      threadIdx.x, blockDim.x);                                                 \
        ARRIVE;                                                                                 \
        gsj_inner(t % 2u ? b : a, t % 2u ? a : b, n, gsj_tile_of(n, gx, gy, gs_group_id()),     \
                  threadIdx.x, blockDim.x);                                                     \
        WAIT;                                                                                   \
    }

#define GS_SYNC_OF(name)    \
    if (gs_sync_##name(&g)) \
    return
#define GS_ARRIVE_OF(name) gs_token token = gs_arrive_##name(&g)
#define GS_WAIT_OF(name)                                          \
    if (gs_wait_token_##name(&g, token) != 0u || t + 1u == iters) \
    return
#define DEFINE_KERNELS(name)                                                                      \
    extern "C" __global__ void __launch_bounds__(256, 8)                                          \
        jacobi256_##name(gs_word *state, float *a, float *b, int n, int iters)                    \
    {                                                                                             \
        gs_grid g = gs_grid_begin_##name(state);                                                  \
        JACOBI_BODY(GS_SYNC_OF(name))                                                             \
    }                                                                                             \
    extern "C" __global__ void __launch_bounds__(1024, 2)                                         \
        jacobi1024_##name(gs_word *state, float *a, float *b, int n, int iters)                   \
    {                                                                                             \
        gs_grid g = gs_grid_begin_##name(state);                                                  \
        JACOBI_BODY(GS_SYNC_OF(name))                                                             \
    }                                                                                             \
    extern "C" __global__ void __launch_bounds__(1024, 2)                                         \
        mp1024_##name(gs_word *state, unsigned *buf, unsigned *errors, unsigned episodes)         \
    {                                                                                             \
        gs_grid g = gs_grid_begin_##name(state);                                                  \
        MP_BODY(GS_SYNC_OF(name))                                                                 \
    }                                                                                             \
    extern "C" __global__ void __launch_bounds__(256, 8) split256_##name(                         \
        gs_word *state, float *a, float *b, unsigned n, unsigned iters, unsigned gx, unsigned gy) \
    {                                                                                             \
        gs_grid g = gs_grid_begin_##name(state);                                                  \
        SPLIT_BODY(GS_ARRIVE_OF(name), GS_WAIT_OF(name))                                          \
    }                                                                                             \
    extern "C" __global__ void __launch_bounds__(1024, 2) split1024_##name(                       \
        gs_word *state, float *a, float *b, unsigned n, unsigned iters, unsigned gx, unsigned gy) \
    {                                                                                             \
        gs_grid g = gs_grid_begin_##name(state);                                                  \
        SPLIT_BODY(GS_ARRIVE_OF(name), GS_WAIT_OF(name))                                          \
    }
#define DEFINE_PROTOCOL_KERNELS(ID, name, value, text, desc) DEFINE_KERNELS(name)
GS_DEVICE_PROTOCOLS(DEFINE_PROTOCOL_KERNELS)
DEFINE_KERNELS(auto)

/* The baseline: grid.sync(), as its users write it. */
#define CG_SYNC cooperative_groups::this_grid().sync()
extern "C" __global__ void __launch_bounds__(256, 8)
    jacobi256_vendor(float *a, float *b, int n, int iters)
{
    JACOBI_BODY(CG_SYNC)
}
extern "C" __global__ void __launch_bounds__(1024, 2)
    jacobi1024_vendor(float *a, float *b, int n, int iters)
{
    JACOBI_BODY(CG_SYNC)
}
extern "C" __global__ void __launch_bounds__(1024, 2)
    mp1024_vendor(unsigned *buf, unsigned *errors, unsigned episodes)
{
    MP_BODY(CG_SYNC)
}

/* The split shape's twin: the same tiles, grid.sync() after the whole tile (the app's
 * tiled cg baseline). */
#define CG_WAIT          \
    CG_SYNC;             \
    if (t + 1u == iters) \
    return
extern "C" __global__ void __launch_bounds__(256, 8)
    split256_vendor(float *a, float *b, unsigned n, unsigned iters, unsigned gx, unsigned gy)
{
    SPLIT_BODY((void)0, CG_WAIT)
}
extern "C" __global__ void __launch_bounds__(1024, 2)
    split1024_vendor(float *a, float *b, unsigned n, unsigned iters, unsigned gx, unsigned gy)
{
    SPLIT_BODY((void)0, CG_WAIT)
}
