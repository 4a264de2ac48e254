/* bench/micro/timing.cuh - what every micro-benchmark here times its launches with: one
 * non-blocking stream (no implicit synchronization with the legacy stream) and two
 * CUDA events recorded around the launches on it. */
#ifndef GS_BENCH_TIMING_CUH
#define GS_BENCH_TIMING_CUH

#include <cuda_runtime.h>

static inline void bench_stream_events(cudaStream_t *s, cudaEvent_t *e0, cudaEvent_t *e1)
{
    cudaStreamCreateWithFlags(s, cudaStreamNonBlocking);
    cudaEventCreate(e0);
    cudaEventCreate(e1);
}

#endif
