/* bench/micro/pi_tail.cu - why the Pi program's barrier way (apps/pi) trails its ticket
 * way by more the more steps it takes (H100 and H200: 1-4 us at 10^9 steps, 3-16 us at
 * 10^10), where both run the same kernel and the same summing loop. The variants run in
 * interleaved rounds, each round in a shuffled order, each timed with CUDA events (device)
 * and on the host from the launch to the end of the stream's synchronize; medians.
 *   host           the app's kernel, way host, <<<>>>, then the partials copied back and
 *                  summed on the host (the app's way (a))
 *   ticket         the app's kernel, way ticket, <<<>>> (the app's way (c))
 *   barrier        the app's kernel, way barrier, through gs_cuda_launch on an
 *                  arrive-only flip barrier (the app's way (b))
 *   barrier-sync   the same through gs_cuda_launch, which waits itself (as the app does);
 *                  its host time ends where the call returns (its device time ends after it)
 *   barrier-plain  the same kernel and state, <<<>>>: its device side alone
 *   barrier-ex     the same with cudaLaunchKernelEx and no attribute, by hand (the call
 *                  the library makes)
 *   late           a kernel that sums its steps first and begins the barrier after them
 *                  (gs_grid_begin_flip, then gs_arrive_last_flip), through gs_cuda_launch
 * Each variant's time of its launch call on the host is printed too, and its device and
 * host times paired with the ticket way's in the same round (medians of the differences).
 * With `gate` first, a 50 us kernel precedes each variant's first event, so that the
 * host's work before the launch is hidden and the device time is the kernel's.
 * Usage: pi_tail [gate] [steps ...] (default 10^9 and 10^10). Built and run by
 * scripts/gpu.sh (stage pi_tail, only when named), or by hand against a build's libraries:
 *     nvcc -arch=sm_90 -O3 -std=c++17 -Iinclude -Iapps/pi bench/micro/pi_tail.cu \
 *          build/src/libgridsync-cuda.a build/src/libgridsync.a -lcuda -o pi_tail */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "gridsync/cuda.cuh"
#include "gridsync/host_cuda.h"

#include "pi_app_kernel.cuh"
#include "pi_step.h"
#include "timing.cuh"

#define GROUPS 1056u
#define BLOCK 256u

__global__ void __launch_bounds__(1024) k_late(gs_word *state, double *scratch, double *partials,
                                               double *result, unsigned long long steps)
{
    gsp_partial(scratch, partials, steps);
    gs_grid g = gs_grid_begin_flip(state);
    if (gs_arrive_last_flip(&g))
        gsp_total(scratch, partials, result);
}

__global__ void k_gate(unsigned long long ns)
{
    unsigned long long t0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    for (;;) {
        unsigned long long t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 >= ns)
            break;
    }
}

enum {
    V_HOST,
    V_TICKET,
    V_BARRIER,
    V_BARRIER_SYNC,
    V_BARRIER_PLAIN,
    V_BARRIER_EX,
    V_LATE,
    V_COUNT
};
static const char *const names[V_COUNT] = {"host",          "ticket",     "barrier", "barrier-sync",
                                           "barrier-plain", "barrier-ex", "late"};

int main(int argc, char **argv)
{
    std::vector<unsigned long long> sizes;
    int gate = argc > 1 && strcmp(argv[1], "gate") == 0;
    for (int i = 1 + gate; i < argc; ++i)
        sizes.push_back(strtoull(argv[i], NULL, 10));
    if (sizes.empty())
        sizes = {1000000000ull, 10000000000ull};
    gs_device *dev;
    gs_barrier *bar, *bar_late; /* late's own: one kernel through each barrier, as in the app */
    void *state, *state_late;
    if (gs_device_open(GS_BACKEND_CUDA, 0, &dev) != GS_OK ||
        gs_barrier_create(dev, GS_ALGO_FLIP, GROUPS, &bar) != GS_OK ||
        gs_barrier_set_arrive_only(bar, 1) != GS_OK || gs_cuda_state(bar, &state) != GS_OK ||
        gs_barrier_create(dev, GS_ALGO_FLIP, GROUPS, &bar_late) != GS_OK ||
        gs_barrier_set_arrive_only(bar_late, 1) != GS_OK ||
        gs_cuda_state(bar_late, &state_late) != GS_OK) {
        fprintf(stderr, "pi_tail: no CUDA device or barrier\n");
        return 2;
    }
    cudaStream_t s;
    cudaEvent_t e0, e1;
    bench_stream_events(&s, &e0, &e1);
    gs_word *ticket;
    double *scratch, *partials, *result, *host;
    cudaMalloc(&ticket, sizeof(gs_word));
    cudaMemset(ticket, 0, sizeof(gs_word));
    cudaMalloc(&scratch, GROUPS * BLOCK * sizeof(double));
    cudaMalloc(&partials, GROUPS * sizeof(double));
    cudaMalloc(&result, sizeof(double));
    cudaMallocHost(&host, GROUPS * sizeof(double));
    int failed = 0;
    printf("steps,gate,variant,rounds,device_us,host_us,launch_us,device_vs_ticket_us,"
           "host_vs_ticket_us,pi\n");
    for (unsigned long long steps : sizes) {
        int rounds = steps >= 10000000000ull ? 101 : 121;
        unsigned seed = 0x9e3779b9u;
        std::vector<double> dev_us[V_COUNT], host_us[V_COUNT], launch_us[V_COUNT];
        double pi[V_COUNT] = {0};
        for (int r = -4; r < rounds; ++r) { /* four rounds of warm-up */
            int order[V_COUNT];             /* each round in its own order */
            shuffle_order(order, V_COUNT, &seed);
            for (int k = 0; k < V_COUNT; ++k) {
                int v = order[k];
                unsigned way = v == V_HOST     ? GSP_WAY_HOST
                               : v == V_TICKET ? GSP_WAY_TICKET
                                               : GSP_WAY_BARRIER;
                if (gate)
                    k_gate<<<1, 1, 0, s>>>(50000ull);
                cudaEventRecord(e0, s);
                double t0 = now_us();
                if (v == V_HOST || v == V_TICKET || v == V_BARRIER_PLAIN) {
                    k_app<<<GROUPS, BLOCK, 0, s>>>(v == V_BARRIER_PLAIN ? (gs_word *)state : NULL,
                                                   ticket, scratch, partials, result, steps, way);
                } else if (v == V_BARRIER || v == V_BARRIER_SYNC) {
                    void *args[] = {&state, &ticket, &scratch, &partials, &result, &steps, &way};
                    failed |= (v == V_BARRIER ? gs_cuda_launch_async : gs_cuda_launch)(
                                  bar, (const void *)k_app, GS_DIM3_1D(GROUPS), GS_DIM3_1D(BLOCK),
                                  0, args, s) != GS_OK;
                } else if (v == V_BARRIER_EX) {
                    void *args[] = {&state, &ticket, &scratch, &partials, &result, &steps, &way};
                    cudaLaunchConfig_t cfg;
                    memset(&cfg, 0, sizeof cfg);
                    cfg.gridDim = dim3(GROUPS);
                    cfg.blockDim = dim3(BLOCK);
                    cfg.stream = s;
                    failed |= cudaLaunchKernelExC(&cfg, (const void *)k_app, args) != cudaSuccess;
                } else {
                    void *args[] = {&state_late, &scratch, &partials, &result, &steps};
                    failed |=
                        gs_cuda_launch_async(bar_late, (const void *)k_late, GS_DIM3_1D(GROUPS),
                                             GS_DIM3_1D(BLOCK), 0, args, s) != GS_OK;
                }
                double t_launched = now_us();
                cudaEventRecord(e1, s);
                if (v == V_HOST)
                    cudaMemcpyAsync(host, partials, GROUPS * sizeof(double), cudaMemcpyDeviceToHost,
                                    s);
                if (v == V_BARRIER || v == V_LATE)
                    failed |= gs_barrier_collect(v == V_LATE ? bar_late : bar) != GS_OK;
                cudaStreamSynchronize(s);
                double p = 0.0;
                if (v == V_HOST)
                    for (unsigned g = 0; g < GROUPS; ++g)
                        p += host[g];
                /* the other ways' pi read back outside the time; barrier-sync's host time
                 * ends where gs_cuda_launch returned (its kernel had ended) */
                double t1 = v == V_BARRIER_SYNC ? t_launched : now_us();
                if (v != V_HOST)
                    cudaMemcpy(&p, result, sizeof p, cudaMemcpyDeviceToHost);
                float ms = 0.0f;
                cudaEventElapsedTime(&ms, e0, e1);
                if (r >= 0) {
                    dev_us[v].push_back(ms * 1e3);
                    host_us[v].push_back(t1 - t0);
                    launch_us[v].push_back(t_launched - t0);
                }
                pi[v] = p;
            }
        }
        for (int v = 0; v < V_COUNT; ++v) {
            /* paired: each round's time minus the ticket way's in the same round */
            std::vector<double> dd, dh;
            for (size_t r = 0; r < dev_us[v].size() && r < dev_us[V_TICKET].size(); ++r) {
                dd.push_back(dev_us[v][r] - dev_us[V_TICKET][r]);
                dh.push_back(host_us[v][r] - host_us[V_TICKET][r]);
            }
            printf("%llu,%d,%s,%d,%.2f,%.2f,%.2f,%.2f,%.2f,%.16f\n", steps, gate, names[v], rounds,
                   median(dev_us[v]), median(host_us[v]), median(launch_us[v]), median(dd),
                   median(dh), pi[v]);
        }
        fflush(stdout);
    }
    if (cudaGetLastError() != cudaSuccess || failed) {
        fprintf(stderr, "pi_tail: a launch failed\n");
        return 1;
    }
    return 0;
}
