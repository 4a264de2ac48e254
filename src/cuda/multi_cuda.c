/* src/cuda/multi_cuda.c - a barrier across GPUs driven by one process
 * (gridsync/host_multi.h): peer access between the GPUs, and each rank's launch on its
 * GPU, which gs_multi_collect waits for through an event. */
#include <stdlib.h>

#include "common/multi_internal.h"
#include "cuda_internal.h"

gs_status gs_cuda_peer_access(gs_device *dev, gs_device *peer)
{
    int a = gs_cuda(dev)->ordinal, b = gs_cuda(peer)->ordinal, can = 0;
    if (a == b)
        return GS_OK;
    cudaError_t e = cudaDeviceCanAccessPeer(&can, a, b);
    if (e != cudaSuccess)
        return gs_cuda_fail(dev, e, "cudaDeviceCanAccessPeer");
    if (!can)
        return GS_ERR_UNSUPPORTED;
    /* For the whole process, and left on: other code of the program may rely on it. */
    if ((e = cudaSetDevice(a)) == cudaSuccess)
        e = cudaDeviceEnablePeerAccess(b, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) {
        (void)cudaGetLastError();
        e = cudaSuccess;
    }
    return e == cudaSuccess ? GS_OK : gs_cuda_fail(dev, e, "cudaDeviceEnablePeerAccess");
}

/* A rank's launch in flight: the event after its kernel. */
static gs_status wait_event(gs_multi_rank *r)
{
    cudaEvent_t done = r->pending;
    cudaError_t e = cudaSetDevice(gs_cuda(r->dev)->ordinal);
    if (e == cudaSuccess)
        e = cudaEventSynchronize(done); /* reports a fault of the kernel */
    cudaEventDestroy(done);
    return e == cudaSuccess ? GS_OK : gs_cuda_fail(r->dev, e, "kernel execution");
}

static int same_gpu(const gs_multi *m, unsigned j, unsigned k)
{
    return m->rank[j].dev && gs_cuda(m->rank[j].dev)->ordinal == gs_cuda(m->rank[k].dev)->ordinal;
}

/* The ranks that run on rank k's GPU, itself included: their launches share its bound. */
static unsigned on_same_gpu(const gs_multi *m, unsigned k)
{
    unsigned n = 0;
    for (unsigned j = 0; j < m->ranks; ++j)
        n += same_gpu(m, j, k);
    return n;
}

/* Ranks that share a GPU run side by side only on streams of their own: one stream (or
 * the legacy default stream, which waits for every blocking stream) would run one
 * rank's kernel after the other's, which waits for it until its bound. */
static int stream_taken(const gs_multi *m, unsigned k, void *stream)
{
    if (on_same_gpu(m, k) < 2)
        return 0;
    if (!stream)
        return 1;
    for (unsigned j = 0; j < m->ranks; ++j)
        if (j != k && same_gpu(m, j, k) && m->rank[j].launched && m->rank[j].queue == stream)
            return 1;
    return 0;
}

gs_status gs_cuda_multi_launch_async(gs_multi *m, unsigned rank, const void *kernel, gs_dim3 grid,
                                     gs_dim3 block, size_t shared_bytes, void **args, void *stream)
{
    if (!m || !kernel || rank >= m->ranks)
        return GS_ERR_INVALID_ARGUMENT;
    gs_multi_rank *r = &m->rank[rank];
    if (!gs_cuda_is_ours(r->dev))
        return GS_ERR_UNSUPPORTED;
    if ((uint64_t)block.x * block.y * block.z == 0 || stream_taken(m, rank, stream))
        return GS_ERR_INVALID_ARGUMENT;
    gs_status s = gs_multi_begin_launch(m, rank, grid);
    if (s != GS_OK)
        return s;
    gs_cuda_device *d = gs_cuda(r->dev);
    cudaEvent_t done = NULL;
    cudaError_t e = cudaSetDevice(d->ordinal);
    if (e == cudaSuccess)
        e = cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    if (e != cudaSuccess)
        return gs_multi_launch_failed(m, rank, gs_cuda_fail(r->dev, e, "cudaEventCreate"));
    s = gs_cuda_enqueue_beside(d, kernel, GS_ALGO_FLIP, grid, block, shared_bytes, args,
                               (cudaStream_t)stream, on_same_gpu(m, rank));
    if (s == GS_OK && (e = cudaEventRecord(done, (cudaStream_t)stream)) != cudaSuccess)
        s = gs_cuda_fail(r->dev, e, "cudaEventRecord");
    if (s != GS_OK) {
        cudaEventDestroy(done);
        return gs_multi_launch_failed(m, rank, s);
    }
    r->pending = done;
    r->queue = stream;
    r->wait = wait_event;
    return GS_OK;
}

typedef struct every_rank {
    const void *kernel;
    gs_dim3 grid, block;
    size_t shared_bytes;
    void **const *args;
    void *const *streams;
} every_rank;

static gs_status launch_one(gs_multi *m, unsigned rank, void *ctx)
{
    const every_rank *e = ctx;
    return gs_cuda_multi_launch_async(m, rank, e->kernel, e->grid, e->block, e->shared_bytes,
                                      e->args[rank], e->streams ? e->streams[rank] : NULL);
}

gs_status gs_cuda_multi_launch(gs_multi *m, const void *kernel, gs_dim3 grid, gs_dim3 block,
                               size_t shared_bytes, void **const *args, void *const *streams,
                               gs_status *statuses)
{
    every_rank e = {kernel, grid, block, shared_bytes, args, streams};
    if (!m || !args)
        return GS_ERR_INVALID_ARGUMENT;
    return gs_multi_launch_each(m, launch_one, &e, statuses);
}
