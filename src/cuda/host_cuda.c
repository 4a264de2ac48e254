/* gridsync/host_cuda.h: launching a user's kernel through a barrier. */
#include "cuda_internal.h"

#include "gridsync/host_cuda.h"

static gs_cuda_device *cuda_of(gs_device *dev)
{
    return dev && dev->ops == &gs_cuda_ops ? (gs_cuda_device *)dev : NULL;
}

gs_status gs_cuda_launch_timed(gs_barrier *b, const void *kernel, unsigned groups,
                               unsigned group_size, size_t shared_bytes, void **args,
                               void *stream, double *elapsed_ns)
{
    if (!b || !kernel || groups == 0 || group_size == 0)
        return GS_ERR_INVALID_ARGUMENT;
    gs_cuda_device *d = cuda_of(b->dev);
    if (!d)
        return GS_ERR_UNSUPPORTED;
    if (groups != b->groups)
        return GS_ERR_INVALID_ARGUMENT;
    if (b->algo == GS_ALGO_RELAUNCH || b->algo == GS_ALGO_RELAUNCH_GRAPH)
        return GS_ERR_UNSUPPORTED;
    gs_status s = gs_barrier_before_launch(b);
    if (s != GS_OK)
        return s;
    s = gs_cuda_launch_resident(d, kernel, b->algo, groups, group_size, shared_bytes, args,
                                (cudaStream_t)stream, elapsed_ns);
    if (s != GS_OK)
        return s;
    return gs_barrier_after_launch(b);
}

gs_status gs_cuda_launch(gs_barrier *b, const void *kernel, unsigned groups, unsigned group_size,
                         size_t shared_bytes, void **args, void *stream)
{
    return gs_cuda_launch_timed(b, kernel, groups, group_size, shared_bytes, args, stream, NULL);
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
    return gs_cuda_pick_cluster(d, kernel, groups, group_size, shared_bytes, out);
}

gs_status gs_cuda_ordinal(const gs_device *dev, int *ordinal)
{
    if (!dev || !ordinal)
        return GS_ERR_INVALID_ARGUMENT;
    if (dev->ops != &gs_cuda_ops)
        return GS_ERR_UNSUPPORTED;
    *ordinal = ((const gs_cuda_device *)dev)->ordinal;
    return GS_OK;
}
