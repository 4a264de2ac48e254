/* apps/appkit/appkit_cuda.cuh - appkit.h's part for the applications' CUDA back ends
 * (header only: each application's .cu file is compiled whole, no device linking). */
#ifndef GRIDSYNC_APPKIT_CUDA_CUH
#define GRIDSYNC_APPKIT_CUDA_CUH

#include <cuda_runtime.h>

/* The device time between two events on one stream, once the second has happened, in
 * ns. */
static inline cudaError_t gsa_cuda_elapsed_ns(cudaEvent_t start, cudaEvent_t stop, double *ns)
{
    float ms = 0.0f;
    cudaError_t e = cudaEventSynchronize(stop);
    if (e == cudaSuccess)
        e = cudaEventElapsedTime(&ms, start, stop);
    if (e == cudaSuccess)
        *ns = (double)ms * 1e6;
    return e;
}

#endif
