/* bench/micro/timing.cuh - what the micro-benchmarks here time with: one non-blocking
 * stream (no implicit synchronization with the legacy stream) and two CUDA events
 * recorded around the launches on it, the host's steady clock, a round's shuffled
 * order, and the median. */
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

/* order[0..n) a permutation of 0..n-1 drawn from *seed (xorshift32, Fisher-Yates): a
 * round's order, so that no variant always runs right after the same other one. */
static inline void shuffle_order(int *order, int n, unsigned *seed)
{
    for (int i = 0; i < n; ++i)
        order[i] = i;
    for (int i = n; i > 1; --i) {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 17;
        *seed ^= *seed << 5;
        std::swap(order[i - 1], order[*seed % i]);
    }
}

/* The upper median (0 for none). */
static inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

#endif
