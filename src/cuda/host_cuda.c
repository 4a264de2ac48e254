/* gridsync/host_cuda.h: launching a user's kernel through a barrier. */
#include <stdlib.h>

#include "cuda_internal.h"

#include "gridsync/host_cuda.h"

static gs_cuda_device *cuda_of(gs_device *dev)
{
    return gs_cuda_is_ours(dev) ? gs_cuda(dev) : NULL;
}

/* A user launch in flight (gs_barrier.pending). */
typedef struct cuda_pending {
    cudaStream_t stream;
    cudaEvent_t start, stop;
} cuda_pending;

static void free_pending(cuda_pending *p)
{
    if (p->start)
        cudaEventDestroy(p->start);
    if (p->stop)
        cudaEventDestroy(p->stop);
    free(p);
}

/* Enqueues the launch: the acknowledgement cleared on the stream (so that a graph
 * capture takes it in), then the kernel between two events (not while capturing). */
static gs_status enqueue(gs_cuda_device *d, gs_barrier *b, const void *kernel, gs_dim3 grid,
                         gs_dim3 block, size_t shared_bytes, void **args, cudaStream_t stream,
                         cuda_pending *p)
{
    cudaError_t e = cudaSetDevice(d->ordinal);
    void *state = NULL;
    if (e == cudaSuccess)
        (void)gs_barrier_native(b, &state);
    if (e == cudaSuccess)
        e = cudaMemsetAsync((char *)state + GS_ACK_OFFSET, 0, 4, stream);
    if (e == cudaSuccess && p)
        e = cudaEventRecord(p->start, stream);
    if (e != cudaSuccess)
        return gs_cuda_fail(&d->base, e, "cudaMemsetAsync");
    gs_status s =
        gs_cuda_enqueue_resident(d, kernel, b->algo, grid, block, shared_bytes, args, stream);
    if (s == GS_OK && p && (e = cudaEventRecord(p->stop, stream)) != cudaSuccess)
        s = gs_cuda_fail(&d->base, e, "cudaEventRecord");
    return s;
}

static gs_status launch(gs_barrier *b, const void *kernel, gs_dim3 grid, gs_dim3 block,
                        size_t shared_bytes, void **args, void *stream_ptr)
{
    cudaStream_t stream = (cudaStream_t)stream_ptr;
    enum cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (!b || !kernel)
        return GS_ERR_INVALID_ARGUMENT;
    gs_cuda_device *d = cuda_of(b->dev);
    if (!d)
        return GS_ERR_UNSUPPORTED;
    if (gs_algo_is_host(b->algo))
        return GS_ERR_UNSUPPORTED;
    cudaError_t e = cudaSetDevice(d->ordinal);
    if (e == cudaSuccess)
        e = cudaStreamIsCapturing(stream, &capture);
    if (e != cudaSuccess)
        return gs_cuda_fail(b->dev, e, "cudaStreamIsCapturing");
    int capturing = capture != cudaStreamCaptureStatusNone;
    gs_status s = gs_barrier_begin_launch(b, grid, block, capturing);
    if (s != GS_OK)
        return s;
    cuda_pending *p = NULL;
    if (!capturing) {
        p = calloc(1, sizeof *p);
        if (!p)
            return gs_barrier_end_launch(b, GS_ERR_OUT_OF_MEMORY, 0);
        p->stream = stream;
        if ((e = cudaEventCreate(&p->start)) != cudaSuccess ||
            (e = cudaEventCreate(&p->stop)) != cudaSuccess) {
            free_pending(p);
            return gs_barrier_end_launch(b, gs_cuda_fail(b->dev, e, "cudaEventCreate"), 0);
        }
    }
    s = enqueue(d, b, kernel, grid, block, shared_bytes, args, stream, p);
    if (s != GS_OK || capturing) {
        if (p)
            free_pending(p);
        /* a failed enqueue has nothing to read; a captured one runs with the graph */
        return gs_barrier_end_launch(b, s == GS_OK ? GS_OK : s, -1);
    }
    b->pending = p;
    return GS_OK;
}

/* gs_backend_ops.collect: waits for the launch and frees its record. */
gs_status gs_cuda_collect(gs_device *dev, gs_barrier *b)
{
    cuda_pending *p = b->pending;
    float ms = 0;
    b->pending = NULL;
    cudaError_t e = cudaSetDevice(((gs_cuda_device *)dev)->ordinal);
    if (e == cudaSuccess)
        e = cudaEventSynchronize(p->stop); /* reports a fault of the kernel */
    if (e == cudaSuccess && cudaEventElapsedTime(&ms, p->start, p->stop) == cudaSuccess)
        b->elapsed_ns = (double)ms * 1e6;
    free_pending(p);
    return e == cudaSuccess ? GS_OK : gs_cuda_fail(dev, e, "kernel execution");
}

gs_status gs_cuda_launch_async(gs_barrier *b, const void *kernel, gs_dim3 grid, gs_dim3 block,
                               size_t shared_bytes, void **args, void *stream)
{
    return launch(b, kernel, grid, block, shared_bytes, args, stream);
}

gs_status gs_cuda_launch_timed(gs_barrier *b, const void *kernel, gs_dim3 grid, gs_dim3 block,
                               size_t shared_bytes, void **args, void *stream, double *elapsed_ns)
{
    if (elapsed_ns)
        *elapsed_ns = 0;
    gs_status s = launch(b, kernel, grid, block, shared_bytes, args, stream);
    if (s != GS_OK || !b->pending)
        return s;
    s = gs_barrier_collect(b);
    if (elapsed_ns)
        *elapsed_ns = b->elapsed_ns;
    return s;
}

gs_status gs_cuda_launch(gs_barrier *b, const void *kernel, gs_dim3 grid, gs_dim3 block,
                         size_t shared_bytes, void **args, void *stream)
{
    return gs_cuda_launch_timed(b, kernel, grid, block, shared_bytes, args, stream, NULL);
}

gs_status gs_cuda_state(const gs_barrier *b, void **device_ptr)
{
    if (!b || !device_ptr)
        return GS_ERR_INVALID_ARGUMENT;
    if (!cuda_of(b->dev))
        return GS_ERR_UNSUPPORTED;
    return gs_barrier_native(b, device_ptr);
}

gs_status gs_cuda_max_groups(gs_device *dev, const void *kernel, unsigned group_size,
                             size_t shared_bytes, unsigned *out)
{
    if (!dev || !kernel || !out)
        return GS_ERR_INVALID_ARGUMENT;
    gs_cuda_device *d = cuda_of(dev);
    if (!d)
        return GS_ERR_UNSUPPORTED;
    return gs_cuda_kernel_bound(d, kernel, group_size, shared_bytes, out);
}

gs_status gs_cuda_cluster_size(gs_device *dev, const void *kernel, unsigned groups,
                               unsigned group_size, size_t shared_bytes, unsigned *out)
{
    if (!dev || !kernel || !out || groups == 0 || group_size == 0)
        return GS_ERR_INVALID_ARGUMENT;
    gs_cuda_device *d = cuda_of(dev);
    if (!d)
        return GS_ERR_UNSUPPORTED;
    return gs_cuda_pick_cluster(d, kernel, groups, groups, group_size, shared_bytes, out);
}

gs_status gs_cuda_ordinal(const gs_device *dev, int *ordinal)
{
    if (!dev || !ordinal)
        return GS_ERR_INVALID_ARGUMENT;
    if (!gs_cuda_is_ours(dev))
        return GS_ERR_UNSUPPORTED;
    *ordinal = ((const gs_cuda_device *)dev)->ordinal;
    return GS_OK;
}
