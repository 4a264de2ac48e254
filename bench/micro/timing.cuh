/* bench/micro/timing.cuh - what the micro-benchmarks here time with: one non-blocking
 * stream (no implicit synchronization with the legacy stream) and two CUDA events
 * recorded around the launches on it, the host's steady clock, and the median. */
#ifndef GS_BENCH_TIMING_CUH
#define GS_BENCH_TIMING_CUH

#include <algorithm>
#include <chrono>
#include <vector>

#include <cuda_runtime.h>

static inline void bench_stream_events(cudaStream_t *s, cudaEvent_t *e0, cudaEvent_t *e1)
{
    cudaStreamCreateWithFlags(s, cudaStreamNonBlocking);
    cudaEventCreate(e0);
    cudaEventCreate(e1);
}

/* The host's steady clock, in microseconds. */
static inline double now_us()
{
    return std::chrono::duration<double, std::micro>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/* The upper median (0 for none). */
static inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

#endif
