/* bench/micro/launch_cost.cu - where gs_cuda_launch's host time goes. The Pi program's
 * barrier way trails its ticket way (the same kernel, launched with <<<>>>) by 1.4-3.7 us
 * at 10^9 steps on an H200 (bench/results/h200/fifteenth/pi_rounds_*.csv, paired in each
 * round), and pi_tail.cu's launch call took 7.6 us through the library against 5.1 with
 * <<<>>>. Each row: the host time of one call (std::chrono, median of 2000 after 200
 * warm-up calls), the stream idle before it (synchronized outside the timed span); the
 * kernels are empty, 1056 blocks of 256 (arrive-only: nothing waits).
 *   plain           k<<<1056, 256, 0, s>>>(state)
 *   ex              cudaLaunchKernelExC, no attribute
 *   ex-coop         cudaLaunchKernelExC with the cooperative attribute (132 blocks)
 *   set-device      cudaSetDevice(0)
 *   get-device      cudaGetDevice
 *   is-capturing    cudaStreamIsCapturing(s)
 *   gs-async        gs_cuda_launch_async on an arrive-only flip barrier
 *   gs-async-coop   gs_cuda_launch_async on a flip barrier of 132 groups (cooperative)
 *   gs-collect      gs_barrier_collect once the kernel has ended
 *   sync-idle       cudaStreamSynchronize of an idle stream
 *   plain+sync      <<<>>> then cudaStreamSynchronize (a whole round trip)
 *   gs-launch       gs_cuda_launch (launch, wait, verdict): the same round trip
 *   gs-async-alt    gs_cuda_launch_async of two kernels in turn through one barrier (the
 *                   co-residency bound of the other kernel remembered from its last launch)
 * Built by hand against a build's libraries:
 *     nvcc -arch=sm_90 -O3 -std=c++17 -Iinclude bench/micro/launch_cost.cu \
 *          build/src/libgridsync-cuda.a build/src/libgridsync.a -lcuda -o launch_cost */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "gridsync/cuda.cuh"
#include "gridsync/host_cuda.h"
#include "timing.cuh"

__global__ void k_empty(gs_word *state)
{
    gs_grid g = gs_grid_begin_flip(state);
    (void)gs_arrive_last_flip(&g);
}
__global__ void k_empty2(gs_word *state)
{
    gs_grid g = gs_grid_begin_flip(state);
    (void)gs_arrive_last_flip(&g);
    (void)gs_arrive_last_flip(&g);
}

enum { WARM = 200, RUNS = 2000, GROUPS = 1056, BLOCK = 256, COOP_GROUPS = 132 };

int main()
{
    gs_device *dev;
    gs_barrier *ao, *coop;
    void *ao_state, *coop_state;
    if (gs_device_open(GS_BACKEND_CUDA, 0, &dev) != GS_OK ||
        gs_barrier_create(dev, GS_ALGO_FLIP, GROUPS, &ao) != GS_OK ||
        gs_barrier_set_arrive_only(ao, 1) != GS_OK || gs_cuda_state(ao, &ao_state) != GS_OK ||
        gs_barrier_create(dev, GS_ALGO_FLIP, COOP_GROUPS, &coop) != GS_OK ||
        gs_cuda_state(coop, &coop_state) != GS_OK) {
        fprintf(stderr, "launch_cost: no CUDA device or barrier\n");
        return 2;
    }
    cudaStream_t s;
    cudaEvent_t e0, e1;
    bench_stream_events(&s, &e0, &e1);
    const char *names[] = {"plain",        "ex",        "ex-coop",       "set-device", "get-device",
                           "is-capturing", "gs-async",  "gs-async-coop", "gs-collect", "sync-idle",
                           "plain+sync",   "gs-launch", "gs-async-alt"};
    const int variants = sizeof names / sizeof *names;
    int failed = 0;
    printf("variant,median_us,p10_us,p90_us\n");
    for (int v = 0; v < variants; ++v) {
        std::vector<double> us;
        for (int r = 0; r < WARM + RUNS; ++r) {
            cudaStreamSynchronize(s);
            void *args_ao[] = {&ao_state}, *args_coop[] = {&coop_state};
            cudaLaunchConfig_t cfg;
            memset(&cfg, 0, sizeof cfg);
            cfg.gridDim = dim3(GROUPS);
            cfg.blockDim = dim3(BLOCK);
            cfg.stream = s;
            cudaLaunchAttribute attr;
            memset(&attr, 0, sizeof attr);
            attr.id = cudaLaunchAttributeCooperative;
            attr.val.cooperative = 1;
            int device = 0;
            cudaStreamCaptureStatus cap;
            int async_pending = 0;
            if (v == 8) { /* collect: its kernel launched and ended outside the span */
                failed |= gs_cuda_launch_async(ao, (const void *)k_empty, GS_DIM3_1D(GROUPS),
                                               GS_DIM3_1D(BLOCK), 0, args_ao, s) != GS_OK;
                cudaStreamSynchronize(s);
            }
            double t0 = now_us();
            switch (v) {
            case 0: k_empty<<<GROUPS, BLOCK, 0, s>>>((gs_word *)ao_state); break;
            case 1: failed |= cudaLaunchKernelExC(&cfg, (const void *)k_empty, args_ao) != 0; break;
            case 2:
                cfg.gridDim = dim3(COOP_GROUPS);
                cfg.attrs = &attr;
                cfg.numAttrs = 1;
                failed |= cudaLaunchKernelExC(&cfg, (const void *)k_empty, args_coop) != 0;
                break;
            case 3: failed |= cudaSetDevice(0) != cudaSuccess; break;
            case 4: failed |= cudaGetDevice(&device) != cudaSuccess; break;
            case 5: failed |= cudaStreamIsCapturing(s, &cap) != cudaSuccess; break;
            case 6:
                failed |= gs_cuda_launch_async(ao, (const void *)k_empty, GS_DIM3_1D(GROUPS),
                                               GS_DIM3_1D(BLOCK), 0, args_ao, s) != GS_OK;
                async_pending = 1;
                break;
            case 7:
                failed |= gs_cuda_launch_async(coop, (const void *)k_empty, GS_DIM3_1D(COOP_GROUPS),
                                               GS_DIM3_1D(BLOCK), 0, args_coop, s) != GS_OK;
                async_pending = 2;
                break;
            case 8: failed |= gs_barrier_collect(ao) != GS_OK; break;
            case 9: cudaStreamSynchronize(s); break;
            case 10:
                k_empty<<<GROUPS, BLOCK, 0, s>>>((gs_word *)ao_state);
                cudaStreamSynchronize(s);
                break;
            case 11:
                failed |= gs_cuda_launch(ao, (const void *)k_empty, GS_DIM3_1D(GROUPS),
                                         GS_DIM3_1D(BLOCK), 0, args_ao, s) != GS_OK;
                break;
            case 12:
                failed |= gs_cuda_launch_async(
                              ao, r % 2 ? (const void *)k_empty2 : (const void *)k_empty,
                              GS_DIM3_1D(GROUPS), GS_DIM3_1D(BLOCK), 0, args_ao, s) != GS_OK;
                async_pending = 1;
                break;
            }
            double t1 = now_us();
            if (async_pending)
                failed |= gs_barrier_collect(async_pending == 1 ? ao : coop) != GS_OK;
            if (r >= WARM)
                us.push_back(t1 - t0);
        }
        std::sort(us.begin(), us.end());
        printf("%s,%.3f,%.3f,%.3f\n", names[v], us[us.size() / 2], us[us.size() / 10],
               us[us.size() * 9 / 10]);
        fflush(stdout);
    }
    cudaStreamSynchronize(s);
    if (cudaGetLastError() != cudaSuccess || failed) {
        fprintf(stderr, "launch_cost: a call failed\n");
        return 1;
    }
    return 0;
}
