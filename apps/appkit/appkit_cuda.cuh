/* apps/appkit/appkit_cuda.cuh - appkit.h's part for the applications' CUDA back ends
 * (header only: each application's .cu file is compiled whole, no device linking). */
#ifndef GRIDSYNC_APPKIT_CUDA_CUH
#define GRIDSYNC_APPKIT_CUDA_CUH

#include <cuda_runtime.h>

#include "gridsync.h"
#include "gridsync/host_cuda.h"

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

/* A CUDA error as an application's status, the error cleared so that the next
 * configuration starts clean: a cooperative grid too large to be resident is
 * GS_ERR_TOO_MANY_GROUPS, any other error GS_ERR_NATIVE. */
static inline gs_status gsa_cuda_status(cudaError_t e)
{
    cudaGetLastError();
    return e == cudaErrorCooperativeLaunchTooLarge ? GS_ERR_TOO_MANY_GROUPS : GS_ERR_NATIVE;
}

/* How many blocks of `kernel` (group_size threads, shared_bytes of dynamic shared memory)
 * the GPU of `dev` holds at once, asked as a user asks for the launches an application
 * makes itself (its baselines, its kernels without a barrier): the occupancy API's
 * blocks per SM times the SMs. (gridsync's barrier kernels ask gs_cuda_max_groups, which
 * knows what a protocol's launch adds.) */
static inline gs_status gsa_cuda_resident_blocks(gs_device *dev, const void *kernel,
                                                 unsigned group_size, size_t shared_bytes,
                                                 unsigned *out)
{
    int ordinal = 0, per_sm = 0, sms = 0;
    gs_status st = gs_cuda_ordinal(dev, &ordinal);
    if (st != GS_OK)
        return st;
    if (cudaSetDevice(ordinal) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)group_size,
                                                      shared_bytes) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ordinal) != cudaSuccess) {
        cudaGetLastError();
        return GS_ERR_NATIVE;
    }
    *out = (unsigned)per_sm * (unsigned)sms;
    return GS_OK;
}

/* The GPU `ordinal` made current, then an application session's stream and, where start
 * and stop are not NULL, its two timing events. The stream does not wait for the legacy
 * default stream, so the session's copies go on it and are waited for there: a plain
 * cudaMemcpy from pageable memory may return before its DMA has landed (apps/jacobi's
 * cg and relaunch rows of one H100 run read a partly written grid, 3 of 200). On failure
 * what was made is left for gsa_cuda_stream_close. */
static inline cudaError_t gsa_cuda_stream_open(int ordinal, cudaStream_t *stream,
                                               cudaEvent_t *start, cudaEvent_t *stop)
{
    cudaError_t e = cudaSetDevice(ordinal);
    if (e == cudaSuccess)
        e = cudaStreamCreateWithFlags(stream, cudaStreamNonBlocking);
    if (e == cudaSuccess && start)
        e = cudaEventCreate(start);
    if (e == cudaSuccess && stop)
        e = cudaEventCreate(stop);
    return e;
}

/* Waits for the stream's work, then frees the events and the stream (those not made, 0
 * or NULL, are skipped), so that the session's other resources may go after it. */
static inline void gsa_cuda_stream_close(cudaStream_t *stream, cudaEvent_t *start,
                                         cudaEvent_t *stop)
{
    if (*stream)
        cudaStreamSynchronize(*stream);
    if (start && *start)
        cudaEventDestroy(*start);
    if (stop && *stop)
        cudaEventDestroy(*stop);
    if (*stream)
        cudaStreamDestroy(*stream);
    *stream = NULL;
}

#endif
