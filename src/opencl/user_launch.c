/* src/opencl/user_launch.c - gridsync/host_opencl.h: what a user who writes OpenCL
 * kernels of their own needs to run them: the handles, the poll calibration, and a
 * launch that knows the co-residency bound and reads the barrier's abort line (the
 * program they run is user_program.c's). */
#include "opencl_internal.h"

#include "gridsync/host_opencl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A user launch's shape: `work_dim` dimensions of groups[d] groups of group_size[d]
 * work-items, each and their products within 32 bits and the kernel's work-group size;
 * the NDRange (global, local), the linear group count and size, and the gs_dim3 forms. */
typedef struct user_shape {
    size_t global[3], local[3];
    uint64_t groups, size;
    gs_dim3 grid, block;
} user_shape;

static gs_status user_shape_of(gs_device *dev, cl_kernel kernel, cl_uint work_dim,
                               const size_t *groups, const size_t *group_size, user_shape *u)
{
    size_t kernel_wg = 0;
    unsigned dims[2][3] = {{1, 1, 1}, {1, 1, 1}};
    u->groups = u->size = 1;
    for (cl_uint i = 0; i < work_dim; ++i) {
        if (groups[i] == 0 || group_size[i] == 0 || groups[i] > 0xffffffffu ||
            group_size[i] > 0xffffffffu)
            return GS_ERR_INVALID_ARGUMENT;
        u->groups *= groups[i];
        u->size *= group_size[i];
        if (u->groups > 0xffffffffu || u->size > 0xffffffffu ||
            groups[i] > SIZE_MAX / group_size[i])
            return GS_ERR_INVALID_ARGUMENT;
        dims[0][i] = (unsigned)groups[i];
        dims[1][i] = (unsigned)group_size[i];
        u->global[i] = groups[i] * group_size[i];
        u->local[i] = group_size[i];
    }
    cl_int err = clGetKernelWorkGroupInfo(kernel, gs_cl(dev)->id, CL_KERNEL_WORK_GROUP_SIZE,
                                          sizeof kernel_wg, &kernel_wg, NULL);
    if (err != CL_SUCCESS)
        return gs_cl_fail(dev, err, "clGetKernelWorkGroupInfo");
    if (u->size > kernel_wg)
        return GS_ERR_INVALID_ARGUMENT;
    u->grid = gs_dim3_make(dims[0][0], dims[0][1], dims[0][2]);
    u->block = gs_dim3_make(dims[1][0], dims[1][1], dims[1][2]);
    return GS_OK;
}

gs_status gs_opencl_launch_async(gs_barrier *b, cl_kernel kernel, cl_command_queue queue,
                                 cl_uint work_dim, const size_t *groups, const size_t *group_size)
{
    cl_event ev = NULL;
    user_shape u;
    if (b == NULL || kernel == NULL || groups == NULL || group_size == NULL ||
        !gs_cl_is_ours(b->dev) || work_dim < 1 || work_dim > 3)
        return GS_ERR_INVALID_ARGUMENT;
    gs_device *dev = b->dev;
    gs_cl_device *d = gs_cl(dev);
    if (gs_algo_is_host(b->algo))
        return GS_ERR_UNSUPPORTED;
    gs_status s = user_shape_of(dev, kernel, work_dim, groups, group_size, &u);
    if (s != GS_OK)
        return s;
    if (!b->arrive_only && u.groups > gs_cl_coresident_bound(dev, (unsigned)u.size))
        return GS_ERR_TOO_MANY_GROUPS; /* arrive-only: nobody waits, any grid runs */
    if ((s = gs_barrier_begin_launch(b, u.grid, u.block, 0)) != GS_OK)
        return s;
    if ((s = gs_barrier_clear_ack(b)) != GS_OK)
        return gs_barrier_end_launch(b, s, -1);
    cl_int err = clEnqueueNDRangeKernel(queue ? queue : d->queue, kernel, work_dim, NULL, u.global,
                                        u.local, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return gs_barrier_end_launch(b, gs_cl_fail(dev, err, "clEnqueueNDRangeKernel"), -1);
    clFlush(queue ? queue : d->queue);
    b->pending = ev;
    return GS_OK;
}

gs_status gs_opencl_launch_local(gs_local *L, cl_kernel kernel, cl_uint work_dim,
                                 const size_t *groups, const size_t *group_size, double *elapsed_ns)
{
    cl_event ev = NULL;
    user_shape u;
    if (elapsed_ns)
        *elapsed_ns = 0.0;
    if (L == NULL || kernel == NULL || groups == NULL || group_size == NULL ||
        !gs_cl_is_ours(L->dev) || work_dim < 1 || work_dim > 3)
        return GS_ERR_INVALID_ARGUMENT;
    gs_status s = user_shape_of(L->dev, kernel, work_dim, groups, group_size, &u);
    if (s == GS_OK) /* no co-residency bound: local synchronization needs none */
        s = gs_local_prepare(L, NULL);
    if (s != GS_OK)
        return s;
    cl_int err = clEnqueueNDRangeKernel(gs_cl(L->dev)->queue, kernel, work_dim, NULL, u.global,
                                        u.local, 0, NULL, &ev);
    s = gs_local_collect(L, NULL); /* waits for the queue */
    if (err != CL_SUCCESS)
        s = gs_cl_fail(L->dev, err, "clEnqueueNDRangeKernel");
    else if (s == GS_OK && elapsed_ns)
        s = gs_cl_event_span(L->dev, ev, ev, elapsed_ns);
    if (ev)
        clReleaseEvent(ev);
    return s;
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
