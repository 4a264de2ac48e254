/* bench/micro/begin_cost.cu - what gridsync's begin (and one or four barriers) adds to
 * an empty kernel: device time between two CUDA events around the launch, median of
 * 300 after 30 warm-up launches, at 132, 528 and 1056 blocks of 256 (auto: flip at one
 * or two blocks per SM, tree above). Built and run by scripts/gpu.sh (stage begin_cost)
 * against the build's libraries:
 *     nvcc -arch=sm_90 -O3 -std=c++17 -Iinclude bench/micro/begin_cost.cu \
 *          build/src/libgridsync-cuda.a build/src/libgridsync.a -lcuda -o begin_cost */
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "gridsync/cuda.cuh"
#include "gridsync/host_cuda.h"
#include "timing.cuh"

__global__ void k_plain(gs_word *) {}
__global__ void k_begin(gs_word *state)
{
    gs_grid g = gs_grid_begin_auto(state);
    (void)g;
}
__global__ void k_sync(gs_word *state)
{
    gs_grid g = gs_grid_begin_auto(state);
    (void)gs_sync_auto(&g);
}
__global__ void k_sync4(gs_word *state)
{
    gs_grid g = gs_grid_begin_auto(state);
    for (int i = 0; i < 4; ++i)
        if (gs_sync_auto(&g))
            return;
}

int main()
{
    gs_device *dev;
    if (gs_device_open(GS_BACKEND_CUDA, 0, &dev) != GS_OK) {
        fprintf(stderr, "begin_cost: no CUDA device\n");
        return 2;
    }
    cudaStream_t s;
    cudaEvent_t e0, e1;
    bench_stream_events(&s, &e0, &e1);
    const void *kernels[] = {(const void *)k_plain, (const void *)k_begin, (const void *)k_sync,
                             (const void *)k_sync4};
    const char *names[] = {"plain", "begin", "begin+sync", "begin+4sync"};
    int failed = 0;
    printf("blocks,kernel,median_us,p10_us,p90_us\n");
    for (unsigned groups : {132u, 528u, 1056u}) {
        gs_barrier *bar;
        void *state;
        if (gs_barrier_create(dev, GS_ALGO_AUTO, groups, &bar) != GS_OK ||
            gs_cuda_state(bar, &state) != GS_OK)
            return 1;
        for (int k = 0; k < 4; ++k) {
            void *args[] = {&state};
            std::vector<double> us;
            for (int i = 0; i < 330; ++i) {
                cudaEventRecord(e0, s);
                if (k == 0)
                    cudaLaunchKernel(kernels[k], groups, 256, args, 0, s);
                else if (gs_cuda_launch_async(bar, kernels[k], GS_DIM3_1D(groups), GS_DIM3_1D(256),
                                              0, args, s) != GS_OK)
                    failed = 1;
                cudaEventRecord(e1, s);
                cudaEventSynchronize(e1);
                if (k != 0 && gs_barrier_collect(bar) != GS_OK)
                    failed = 1;
                float ms = 0.0f;
                cudaEventElapsedTime(&ms, e0, e1);
                if (i >= 30)
                    us.push_back(ms * 1000.0);
            }
            std::sort(us.begin(), us.end());
            printf("%u,%s,%.2f,%.2f,%.2f\n", groups, names[k], us[us.size() / 2],
                   us[us.size() / 10], us[us.size() * 9 / 10]);
        }
        gs_barrier_destroy(bar);
    }
    if (cudaGetLastError() != cudaSuccess || failed) {
        fprintf(stderr, "begin_cost: a launch failed\n");
        return 1;
    }
    gs_device_close(dev);
    return 0;
}
