/* tests/regs/user_kernels.cu - reference user kernels for the register test
 * (check_registers.sh): the same kernel with each gridsync protocol (named, as a user
 * names it) and with the vendor's grid.sync() written the plain way, at 256 and 1024
 * threads per block under full-occupancy launch bounds (2048 threads per SM: 32
 * registers). Compiled only (nvcc -Xptxas -v), never run. */
#include <cooperative_groups.h>

#include "gridsync/cuda.cuh"

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

#define GS_SYNC_OF(name)    \
    if (gs_sync_##name(&g)) \
    return
#define DEFINE_KERNELS(name)                                                              \
    extern "C" __global__ void __launch_bounds__(256, 8)                                  \
        jacobi256_##name(gs_word *state, float *a, float *b, int n, int iters)            \
    {                                                                                     \
        gs_grid g = gs_grid_begin_##name(state);                                          \
        JACOBI_BODY(GS_SYNC_OF(name))                                                     \
    }                                                                                     \
    extern "C" __global__ void __launch_bounds__(1024, 2)                                 \
        jacobi1024_##name(gs_word *state, float *a, float *b, int n, int iters)           \
    {                                                                                     \
        gs_grid g = gs_grid_begin_##name(state);                                          \
        JACOBI_BODY(GS_SYNC_OF(name))                                                     \
    }                                                                                     \
    extern "C" __global__ void __launch_bounds__(1024, 2)                                 \
        mp1024_##name(gs_word *state, unsigned *buf, unsigned *errors, unsigned episodes) \
    {                                                                                     \
        gs_grid g = gs_grid_begin_##name(state);                                          \
        MP_BODY(GS_SYNC_OF(name))                                                         \
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
