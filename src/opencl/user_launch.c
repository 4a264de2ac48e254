/* src/opencl/user_launch.c - gridsync/host_opencl.h: what a user who writes OpenCL
 * kernels of their own needs: the device source, the build options, the handles, and
 * a launch that knows the co-residency bound and reads the barrier's abort line. */
#include "opencl_internal.h"

#include "gridsync/host_opencl.h"

#include <stdio.h>
#include <string.h>

const char *gs_opencl_device_source(void)
{
    return gs_cl_device_source;
}

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

gs_status gs_opencl_barrier_build_options(const gs_barrier *b, char *buf, size_t size)
{
    char only[32];
    size_t n, m;
    gs_status s;
    if (b == NULL || buf == NULL || !gs_cl_is_ours(b->dev))
        return GS_ERR_INVALID_ARGUMENT;
    if ((s = gs_opencl_build_options(b->dev, buf, size)) != GS_OK)
        return s;
    snprintf(only, sizeof only, " -DGS_ONLY_ALGO=%u", (unsigned)b->algo);
    n = strlen(buf);
    m = strlen(only);
    if (n + m + 1 > size)
        return GS_ERR_SMALL_BUFFER;
    memcpy(buf + n, only, m + 1);
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

gs_status gs_opencl_launch(gs_barrier *b, cl_kernel kernel, size_t groups, size_t group_size,
                           double *elapsed_ns)
{
    gs_device *dev;
    gs_cl_device *d;
    size_t kernel_wg = 0, global;
    cl_event ev = NULL;
    cl_int err;
    gs_status s;

    if (elapsed_ns)
        *elapsed_ns = 0.0;
    if (b == NULL || kernel == NULL || !gs_cl_is_ours(b->dev))
        return GS_ERR_INVALID_ARGUMENT;
    dev = b->dev;
    d = gs_cl(dev);
    if (groups == 0 || group_size == 0 || group_size > 0xffffffffu ||
        groups > (size_t)-1 / group_size)
        return GS_ERR_INVALID_ARGUMENT;
    err = clGetKernelWorkGroupInfo(kernel, d->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_wg,
                                   &kernel_wg, NULL);
    if (err != CL_SUCCESS)
        return gs_cl_fail(dev, err, "clGetKernelWorkGroupInfo");
    if (group_size > kernel_wg)
        return GS_ERR_INVALID_ARGUMENT;
    if (groups > gs_cl_coresident_bound(dev, (unsigned)group_size))
        return GS_ERR_TOO_MANY_GROUPS;
    if ((s = gs_barrier_before_launch(b)) != GS_OK)
        return s;
    global = groups * group_size;
    err = clEnqueueNDRangeKernel(d->queue, kernel, 1, NULL, &global, &group_size, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return gs_cl_fail(dev, err, "clEnqueueNDRangeKernel");
    s = gs_cl_event_span(dev, ev, ev, elapsed_ns);
    clReleaseEvent(ev);
    if (s != GS_OK)
        return s;
    return gs_barrier_after_launch(b);
}
