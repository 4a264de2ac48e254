/* bench/micro/jacobi_barriers.cu - issue 15's question: in a user's own Jacobi kernel
 * (apps/jacobi's kernels, the sync and resident forms), what does each ingredient of a
 * grid barrier cost? The same kernel templates with:
 *
 *   cg         cooperative groups' grid.sync(), as the app's cg baseline
 *   flip       gridsync's gs_sync_flip, launched by gs_cuda_launch_timed
 *   hand-cg    grid.sync()'s algorithm written out on our own counter: a release add,
 *              then acquire polls until the top bit differs from the add's result
 *   hand-flip  the same, but the last arriver knows from its add's result and does not
 *              poll, and the others poll relaxed with one acquire fence after (flip's
 *              algorithm without gridsync's bookkeeping: no shared slot, no progress
 *              note, no verdict, no abort word)
 *   hand-flip-acq  hand-flip with acquire polls instead of the fence
 *   +note, +verdict, +book, +slot, +all   hand-flip with gridsync's ingredients (below)
 *   pipe<S>-<C>  hand-flip polling with S loads in flight, issued C cycles apart (below)
 *   auto       gridsync's gs_sync_auto (flip or tree, the host's choice for the grid)
 *
 * JB_ONLY=name,name,... runs only those variants (and cg, the reference).
 * Device time between CUDA events, median of 7 after a warm-up, every result compared
 * bit for bit with cg's. Hand-written waits give up after 2^26 polls (then the result
 * differs and the row says so): nothing here can hang. Built and run by scripts/gpu.sh
 * (stage jacobi_barriers):
 *     nvcc -arch=sm_90 -O3 -std=c++17 --fmad=false -Iinclude -Iapps/jacobi \
 *          bench/micro/jacobi_barriers.cu build/apps/jacobi/libgridsync_jacobi.a \
 *          build/src/libgridsync-cuda.a build/src/libgridsync.a -lcuda -o jacobi_barriers */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "gridsync/host_cuda.h"

#include "jacobi.h"
#include "jacobi_kernels.cuh"

#include "hand_barriers.cuh"

/* hand-flip with pipelined polls: STREAMS loads of the counter in flight at once, the
 * second issued OFF cycles after the first (the third 2 * OFF after), so that a poll
 * reaches the counter's L2 slice every round trip / STREAMS instead of every round trip:
 * the last poller to see the flip sees it up to a round trip sooner. Each stream tests
 * its own load and issues the next at once, so the streams keep their offsets. */
template <int STREAMS, int OFF> struct pipe_flip {
    gs_word *counter;
    __device__ explicit pipe_flip(gs_word *state) : counter(state) {}
    static __device__ bool flipped(gs_u32 v, gs_u32 old) { return ((v ^ old) & 0x80000000u) != 0u; }
    static __device__ void delay()
    {
        long long t0 = clock64();
        while (clock64() - t0 < OFF) {
        }
    }
    __device__ gs_u32 poll(gs_word *c, gs_u32 old)
    {
        gs_u32 a = gs_ld_relaxed(c), b = 0u, d = 0u;
        if (STREAMS > 1) {
            delay();
            b = gs_ld_relaxed(c);
        }
        if (STREAMS > 2) {
            delay();
            d = gs_ld_relaxed(c);
        }
        for (gs_u32 polls = 0; polls < POLL_LIMIT; ++polls) {
            if (flipped(a, old))
                return 0u;
            a = gs_ld_relaxed(c);
            if (STREAMS > 1) {
                if (flipped(b, old))
                    return 0u;
                b = gs_ld_relaxed(c);
            }
            if (STREAMS > 2) {
                if (flipped(d, old))
                    return 0u;
                d = gs_ld_relaxed(c);
            }
        }
        return 1u;
    }
    __device__ gs_u32 sync()
    {
        __syncthreads();
        gs_u32 why = 0u;
        if (threadIdx.x == 0) {
            gs_u32 add = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1u) : 1u;
            gs_u32 old = gs_fetch_add_release(counter, add);
            if (((old ^ (old + add)) & 0x80000000u) == 0u)
                why = poll(counter, old);
            gs_fence_acquire();
        }
        __syncthreads();
        return why;
    }
};

typedef void (*kernel_fn)(gs_word *, float *, float *, unsigned, unsigned, unsigned, unsigned);

struct variant {
    const char *name;
    const void *sync_form, *resident_form;
    int library; /* 1: launched through a gridsync barrier (3: an auto one); 2: on its
                    state, after one */
};

int main()
{
    gs_device *dev;
    if (gs_device_open(GS_BACKEND_CUDA, 0, &dev) != GS_OK) {
        fprintf(stderr, "jacobi_barriers: no CUDA device\n");
        return 2;
    }
    const variant vs[] = {
        {"cg", (const void *)gsj_persistent<gsj_cg>, (const void *)gsj_resident<gsj_cg>, 0},
        {"flip", (const void *)gsj_persistent<gsj_flip>, (const void *)gsj_resident<gsj_flip>, 1},
        {"auto", (const void *)gsj_persistent<gsj_auto>, (const void *)gsj_resident<gsj_auto>, 3},
        {"hand-cg", (const void *)gsj_persistent<hand_cg>, (const void *)gsj_resident<hand_cg>, 0},
        {"hand-flip", (const void *)gsj_persistent<hand_flip<0>>,
         (const void *)gsj_resident<hand_flip<0>>, 0},
        {"hand-flip-acq", (const void *)gsj_persistent<hand_flip<1>>,
         (const void *)gsj_resident<hand_flip<1>>, 0},
        {"+note", (const void *)gsj_persistent<hand_flip<0, 1>>,
         (const void *)gsj_resident<hand_flip<0, 1>>, 0},
        {"+verdict", (const void *)gsj_persistent<hand_flip<0, 0, 1>>,
         (const void *)gsj_resident<hand_flip<0, 0, 1>>, 0},
        {"+book", (const void *)gsj_persistent<hand_flip<0, 0, 0, 1>>,
         (const void *)gsj_resident<hand_flip<0, 0, 0, 1>>, 0},
        {"+slot", (const void *)gsj_persistent<hand_flip<0, 0, 0, 0, 1>>,
         (const void *)gsj_resident<hand_flip<0, 0, 0, 0, 1>>, 0},
        {"+all", (const void *)gsj_persistent<hand_flip<0, 1, 1, 1, 1>>,
         (const void *)gsj_resident<hand_flip<0, 1, 1, 1, 1>>, 0},
        {"pipe2-100", (const void *)gsj_persistent<pipe_flip<2, 100>>,
         (const void *)gsj_resident<pipe_flip<2, 100>>, 0},
        {"pipe2-250", (const void *)gsj_persistent<pipe_flip<2, 250>>,
         (const void *)gsj_resident<pipe_flip<2, 250>>, 0},
        {"pipe2-400", (const void *)gsj_persistent<pipe_flip<2, 400>>,
         (const void *)gsj_resident<pipe_flip<2, 400>>, 0},
        {"pipe3-200", (const void *)gsj_persistent<pipe_flip<3, 200>>,
         (const void *)gsj_resident<pipe_flip<3, 200>>, 0},
        {"pipe3-300", (const void *)gsj_persistent<pipe_flip<3, 300>>,
         (const void *)gsj_resident<pipe_flip<3, 300>>, 0},
        {"flip-raw", (const void *)gsj_persistent<gsj_flip>, (const void *)gsj_resident<gsj_flip>,
         2},
#define FLIP_PARTS(a, b, c)                            \
    (const void *)gsj_persistent<flip_parts<a, b, c>>, \
        (const void *)gsj_resident<flip_parts<a, b, c>>
        {"parts", FLIP_PARTS(0, 0, 0), 2},
        {"parts-first", FLIP_PARTS(1, 0, 0), 2},
        {"parts-nobad", FLIP_PARTS(0, 1, 0), 2},
        {"parts-first-nobad", FLIP_PARTS(1, 1, 0), 2},
        {"parts-all-bare", FLIP_PARTS(1, 1, 1), 2},
    };
    const unsigned nv = sizeof vs / sizeof *vs;
    /* JB_ONLY=name,name,...: only these variants (and cg, the reference) */
    const char *only = getenv("JB_ONLY");
    const unsigned groups_list[] = {132u, 264u, 528u, 1056u};
    cudaStream_t s;
    cudaEvent_t e0, e1;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    gs_word *counter;
    cudaMalloc(&counter, 4u * (64u + 32u * 1056u)); /* the counter, an abort word, notes */
    cudaMemset(counter, 0, 4u * (64u + 32u * 1056u));
    int failed = 0;
    printf("n,iters,form,groups,variant,median_ms,us_per_iter,x_cg,check\n");
    struct size {
        unsigned n, iters;
    } sizes[] = {{512, 20000}, {1024, 5000}};
    for (size z : sizes) {
        size_t cells = (size_t)z.n * z.n, bytes = cells * sizeof(float);
        std::vector<float> init(cells), want(cells), got(cells);
        gsj_initial(z.n, 20240601u, init.data());
        float *a, *b, *a0;
        cudaMalloc(&a, bytes);
        cudaMalloc(&b, bytes);
        cudaMalloc(&a0, bytes);
        cudaMemcpy(a0, init.data(), bytes, cudaMemcpyHostToDevice);
        for (int resident = 0; resident < 2; ++resident)
            for (unsigned groups : groups_list) {
                unsigned gx, gy;
                gsj_tiling(groups, &gx, &gy);
                size_t shared = resident ? gsj_resident_bytes(z.n, groups) : 0;
                double cg_ms = 0;
                for (unsigned v = 0; v < nv; ++v) {
                    const void *k = resident ? vs[v].resident_form : vs[v].sync_form;
                    if (shared > 48 * 1024)
                        cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)shared);
                    gs_barrier *bar = NULL;
                    void *state = counter;
                    if (only && v != 0 && !strstr(only, vs[v].name))
                        continue;
                    if (vs[v].library &&
                        (gs_barrier_create(dev, vs[v].library == 3 ? GS_ALGO_AUTO : GS_ALGO_FLIP,
                                           groups, &bar) != GS_OK ||
                         gs_cuda_state(bar, &state) != GS_OK))
                        return 1;
                    unsigned n = z.n, iters = z.iters;
                    void *args[] = {&state, &a, &b, &n, &iters, &gx, &gy};
                    std::vector<double> ms;
                    gs_status st = GS_OK;
                    for (int r = 0; r < 8 && st == GS_OK; ++r) {
                        cudaMemcpyAsync(a, a0, bytes, cudaMemcpyDeviceToDevice, s);
                        cudaMemcpyAsync(b, a0, bytes, cudaMemcpyDeviceToDevice, s);
                        double ns = 0;
                        if (vs[v].library % 2 == 1 || (vs[v].library == 2 && r == 0)) {
                            st = gs_cuda_launch_timed(bar, k, GS_DIM3_1D(groups), GS_DIM3_1D(256),
                                                      shared, args, s, &ns);
                        } else {
                            cudaEventRecord(e0, s);
                            if (cudaLaunchCooperativeKernel(k, groups, 256, args, shared, s) !=
                                cudaSuccess)
                                st = GS_ERR_NATIVE;
                            cudaEventRecord(e1, s);
                            cudaEventSynchronize(e1);
                            float f = 0;
                            cudaEventElapsedTime(&f, e0, e1);
                            ns = f * 1e6;
                        }
                        if (r > 0)
                            ms.push_back(ns / 1e6);
                    }
                    cudaStreamSynchronize(s);
                    cudaMemcpy(got.data(), z.iters % 2 ? b : a, bytes, cudaMemcpyDeviceToHost);
                    if (v == 0)
                        want = got;
                    int ok = st == GS_OK && memcmp(got.data(), want.data(), bytes) == 0;
                    failed |= !ok;
                    std::sort(ms.begin(), ms.end());
                    double med = ms.empty() ? 0 : ms[ms.size() / 2];
                    if (v == 0)
                        cg_ms = med;
                    printf("%u,%u,%s,%u,%s,%.3f,%.4f,%.4f,%s\n", z.n, z.iters,
                           resident ? "resident" : "sync", groups, vs[v].name, med,
                           med * 1000.0 / z.iters, cg_ms > 0 ? med / cg_ms : 0.0,
                           ok ? "pass" : "FAIL");
                    fflush(stdout);
                    if (bar)
                        gs_barrier_destroy(bar);
                    cudaGetLastError();
                }
            }
        cudaFree(a);
        cudaFree(b);
        cudaFree(a0);
    }
    gs_device_close(dev);
    return failed;
}
