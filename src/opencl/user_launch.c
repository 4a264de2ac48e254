/* src/opencl/user_launch.c - gridsync/host_opencl.h: what a user who writes OpenCL
 * kernels of their own needs: the device source, the build options, the handles, and
 * a launch that knows the co-residency bound and reads the barrier's abort line. */
#include "opencl_internal.h"

#include "gridsync/host_opencl.h"

#include <stdio.h>
#include <string.h>

const char *gs_opencl_device_source(void) { return gs_cl_device_source; }

gs_status gs_opencl_build_options(const gs_device *dev, char *buf, size_t size)
{
    const gs_cl_device *d = gs_cl_const(dev);
    size_t n;
    if (!gs_cl_is_ours(dev) || buf == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    if (d->build_status != GS_OK)
        return d->build_status;
    n = strlen(d->build_options);
    if (n + 1 > size)
        return GS_ERR_SMALL_BUFFER;
    memcpy(buf, d->build_options, n + 1);
    return GS_OK;
}

gs_status gs_opencl_build_log(const gs_device *dev, const char **log)
{
    if (!gs_cl_is_ours(dev) || log == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    *log = gs_cl_const(dev)->build_log.text ? gs_cl_const(dev)->build_log.text : "";
    return GS_OK;
}

gs_status gs_opencl_handles(const gs_device *dev, cl_context *ctx, cl_command_queue *queue,
                            cl_device_id *id)
{
    const gs_cl_device *d = gs_cl_const(dev);
    if (!gs_cl_is_ours(dev))
        return GS_ERR_INVALID_ARGUMENT;
    if (ctx)
        *ctx = d->ctx;
    if (queue)
        *queue = d->queue;
    if (id)
        *id = d->id;
    return GS_OK;
}

gs_status gs_opencl_polls_per_ms(gs_device *dev, uint64_t *polls_per_ms, int *measured)
{
    if (!gs_cl_is_ours(dev) || polls_per_ms == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    (void)gs_cl_timeout_units(dev, 1u); /* calibrates once */
    *polls_per_ms = gs_cl(dev)->polls_per_ms;
    if (measured)
        *measured = gs_cl(dev)->calibrated > 0;
    return GS_OK;
}

/* A user launch in flight (gs_barrier.pending): its event. */
gs_status gs_cl_collect(gs_device *dev, gs_barrier *b)
{
    cl_event ev = b->pending;
    b->pending = NULL;
    gs_status s = gs_cl_event_span(dev, ev, ev, &b->elapsed_ns);
    clReleaseEvent(ev);
    return s;
}

gs_status gs_opencl_launch_async(gs_barrier *b, cl_kernel kernel, cl_command_queue queue,
                                 cl_uint work_dim, const size_t *groups, const size_t *group_size)
{
    size_t kernel_wg = 0, global[3], local[3];
    uint64_t n_groups = 1, size = 1;
    unsigned dims[2][3] = {{1, 1, 1}, {1, 1, 1}};
    cl_event ev = NULL;
    if (b == NULL || kernel == NULL || groups == NULL || group_size == NULL ||
        !gs_cl_is_ours(b->dev) || work_dim < 1 || work_dim > 3)
        return GS_ERR_INVALID_ARGUMENT;
    gs_device *dev = b->dev;
    gs_cl_device *d = gs_cl(dev);
    if (gs_algo_is_host(b->algo))
        return GS_ERR_UNSUPPORTED;
    for (cl_uint i = 0; i < work_dim; ++i) {
        if (groups[i] == 0 || group_size[i] == 0 || groups[i] > 0xffffffffu ||
            group_size[i] > 0xffffffffu)
            return GS_ERR_INVALID_ARGUMENT;
        n_groups *= groups[i];
        size *= group_size[i];
        if (n_groups > 0xffffffffu || size > 0xffffffffu || groups[i] > SIZE_MAX / group_size[i])
            return GS_ERR_INVALID_ARGUMENT;
        dims[0][i] = (unsigned)groups[i];
        dims[1][i] = (unsigned)group_size[i];
        global[i] = groups[i] * group_size[i];
        local[i] = group_size[i];
    }
    cl_int err = clGetKernelWorkGroupInfo(kernel, d->id, CL_KERNEL_WORK_GROUP_SIZE,
                                          sizeof kernel_wg, &kernel_wg, NULL);
    if (err != CL_SUCCESS)
        return gs_cl_fail(dev, err, "clGetKernelWorkGroupInfo");
    if (size > kernel_wg)
        return GS_ERR_INVALID_ARGUMENT;
    if (n_groups > gs_cl_coresident_bound(dev, (unsigned)size))
        return GS_ERR_TOO_MANY_GROUPS;
    gs_dim3 grid = gs_dim3_make(dims[0][0], dims[0][1], dims[0][2]);
    gs_dim3 block = gs_dim3_make(dims[1][0], dims[1][1], dims[1][2]);
    gs_status s = gs_barrier_begin_launch(b, grid, block, 0);
    if (s != GS_OK)
        return s;
    if ((s = gs_barrier_clear_ack(b)) != GS_OK)
        return gs_barrier_end_launch(b, s, -1);
    err = clEnqueueNDRangeKernel(queue ? queue : d->queue, kernel, work_dim, NULL, global, local, 0,
                                 NULL, &ev);
    if (err != CL_SUCCESS)
        return gs_barrier_end_launch(b, gs_cl_fail(dev, err, "clEnqueueNDRangeKernel"), -1);
    clFlush(queue ? queue : d->queue);
    b->pending = ev;
    return GS_OK;
}

gs_status gs_opencl_launch(gs_barrier *b, cl_kernel kernel, cl_uint work_dim, const size_t *groups,
                           const size_t *group_size, double *elapsed_ns)
{
    if (elapsed_ns)
        *elapsed_ns = 0.0;
    gs_status s = gs_opencl_launch_async(b, kernel, NULL, work_dim, groups, group_size);
    if (s != GS_OK)
        return s;
    s = gs_barrier_collect(b);
    if (elapsed_ns)
        *elapsed_ns = b->elapsed_ns;
    return s;
}
