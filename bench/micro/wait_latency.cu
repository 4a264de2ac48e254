/* bench/micro/wait_latency.cu - how soon the host learns that a kernel has ended, by the
 * way it waits, as the kernel gets longer. The Pi program's ways that finish on the
 * device lose ground on the host way from 10^9 to 10^10 steps (H200, paired in each
 * round: the ticket way from 6 us ahead to 3.5, the barrier way from 2.5 ahead to 2.3
 * behind; bench/results/h200/fifteenth/pi_rounds_*.csv), where the host way has a copy
 * after its kernel that may hide the host's own wake-up. One block spins on the global
 * timer for D ns, then stores a flag into mapped host memory; the host times from the
 * launch call to the wait's return (std::chrono), rounds of every way in a shuffled
 * order, medians, and each way paired with stream-sync in the same round:
 *   stream-sync   cudaStreamSynchronize
 *   event-sync    cudaEventSynchronize on an event recorded after the kernel
 *   event-spin    cudaEventQuery until it is not cudaErrorNotReady
 *   flag-spin     a volatile read of the mapped flag until it is set, then
 *                 cudaStreamSynchronize (the kernel's end is then near)
 *   flag-only     the flag alone (how soon the store is seen; the kernel may not have
 *                 ended)
 *   copy-sync     a 8 KB device-to-host copy after the kernel, then cudaStreamSynchronize
 *                 (the Pi program's host way)
 * Built by hand:
 *     nvcc -arch=sm_90 -O3 -std=c++17 bench/micro/wait_latency.cu -o wait_latency */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "timing.cuh"

__global__ void k_spin(unsigned long long ns, volatile unsigned *flag, unsigned token)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
    if (threadIdx.x == 0) {
        __threadfence_system();
        *flag = token;
    }
}

enum { STREAM_SYNC, EVENT_SYNC, EVENT_SPIN, FLAG_SPIN, FLAG_ONLY, COPY_SYNC, WAYS };

int main()
{
    const char *names[WAYS] = {"stream-sync", "event-sync", "event-spin",
                               "flag-spin",   "flag-only",  "copy-sync"};
    const unsigned long long durations[] = {10000ull, 100000ull, 1000000ull, 10000000ull};
    cudaStream_t s;
    cudaEvent_t e0, e1;
    bench_stream_events(&s, &e0, &e1);
    unsigned *flag = NULL, *dflag = NULL;
    double *dsrc = NULL, *hdst = NULL;
    if (cudaHostAlloc((void **)&flag, 64, cudaHostAllocMapped) != cudaSuccess ||
        cudaHostGetDevicePointer((void **)&dflag, flag, 0) != cudaSuccess ||
        cudaMalloc(&dsrc, 8192) != cudaSuccess || cudaMallocHost(&hdst, 8192) != cudaSuccess) {
        fprintf(stderr, "wait_latency: no CUDA device\n");
        return 2;
    }
    *flag = 0;
    unsigned token = 0, seed = 0x9e3779b9u;
    printf("kernel_us,way,rounds,median_us,minus_kernel_us,paired_vs_stream_sync_us\n");
    for (unsigned long long ns : durations) {
        int rounds = ns >= 10000000ull ? 60 : 200;
        std::vector<double> t[WAYS], d[WAYS];
        for (int r = -5; r < rounds; ++r) {
            int order[WAYS];
            shuffle_order(order, WAYS, &seed);
            double round[WAYS];
            for (int k = 0; k < WAYS; ++k) {
                int w = order[k];
                ++token;
                double t0 = now_us();
                k_spin<<<1, 32, 0, s>>>(ns, dflag, token);
                if (w == COPY_SYNC)
                    cudaMemcpyAsync(hdst, dsrc, 8192, cudaMemcpyDeviceToHost, s);
                if (w == EVENT_SYNC || w == EVENT_SPIN)
                    cudaEventRecord(e1, s);
                switch (w) {
                case STREAM_SYNC:
                case COPY_SYNC: cudaStreamSynchronize(s); break;
                case EVENT_SYNC: cudaEventSynchronize(e1); break;
                case EVENT_SPIN:
                    while (cudaEventQuery(e1) == cudaErrorNotReady) {
                    }
                    break;
                case FLAG_SPIN:
                case FLAG_ONLY:
                    while (*(volatile unsigned *)flag != token) {
                    }
                    if (w == FLAG_SPIN)
                        cudaStreamSynchronize(s);
                    break;
                }
                round[w] = now_us() - t0;
                cudaStreamSynchronize(s);
            }
            if (r < 0)
                continue;
            for (int w = 0; w < WAYS; ++w) {
                t[w].push_back(round[w]);
                d[w].push_back(round[w] - round[STREAM_SYNC]);
            }
        }
        for (int w = 0; w < WAYS; ++w)
            printf("%.0f,%s,%d,%.2f,%.2f,%.2f\n", ns / 1e3, names[w], rounds, median(t[w]),
                   median(t[w]) - ns / 1e3, median(d[w]));
        fflush(stdout);
    }
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
