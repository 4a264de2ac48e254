/* src/opencl/device_opencl.c - the OpenCL back end's gs_backend_ops: memory as cl_mem,
 * launches of the built-in kernel, co-residency bound, spinners and timeout units. */
#include "opencl_internal.h"

#include <stdlib.h>

/* ---- bounds ----------------------------------------------------------------------- */

static gs_status cl_max_groups(gs_device *dev, unsigned group_size, unsigned *out)
{
    gs_cl_device *d = gs_cl(dev);
    if (out == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    *out = 0;
    if (d->build_status != GS_OK)
        return d->build_status;
    if (group_size == 0u || group_size > d->kernel_wg_size)
        return GS_ERR_INVALID_ARGUMENT;
    *out = gs_cl_coresident_bound(dev, group_size);
    return GS_OK;
}

static int cl_algo_supported(const gs_device *dev, gs_algo algo)
{
    (void)dev;
    switch (algo) {
    case GS_ALGO_CENTRAL:
    case GS_ALGO_LOCKFREE:
    case GS_ALGO_NAIVE:
    case GS_ALGO_FLIP:
    case GS_ALGO_TREE:
    case GS_ALGO_SHARDED:
    case GS_ALGO_RELAUNCH: return 1;
    default: return 0;
    }
}

/* PoCL (and any CPU device) runs a group's work-items one after another between
 * barriers: only work-item 0 may poll. GPUs: every work-item of the master. */
static unsigned cl_spinners(const gs_device *dev) { return dev->info.is_gpu ? 0u : 1u; }

/* ---- memory ----------------------------------------------------------------------- */

static gs_status cl_mem_alloc(gs_device *dev, size_t bytes, gs_mem **out)
{
    gs_cl_device *d = gs_cl(dev);
    cl_int err = CL_SUCCESS;
    gs_mem *m;
    if (out == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    *out = NULL;
    m = malloc(sizeof *m);
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    m->bytes = bytes;
    /* OpenCL refuses empty buffers; an unused one still gets a valid cl_mem */
    m->buf = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, bytes ? bytes : GS_LINE_BYTES, NULL, &err);
    if (m->buf == NULL || err != CL_SUCCESS) {
        gs_status s = gs_cl_fail(dev, err, "clCreateBuffer");
        free(m);
        if (err == CL_OUT_OF_RESOURCES || err == CL_INVALID_BUFFER_SIZE)
            s = GS_ERR_OUT_OF_MEMORY; /* more than the device has */
        return s;
    }
    *out = m;
    return GS_OK;
}

static void cl_mem_free(gs_device *dev, gs_mem *m)
{
    (void)dev;
    if (m == NULL)
        return;
    if (m->buf)
        clReleaseMemObject(m->buf);
    free(m);
}

static gs_status cl_mem_write(gs_device *dev, gs_mem *m, size_t offset, const void *src, size_t n)
{
    gs_cl_device *d = gs_cl(dev);
    cl_int err;
    if (m == NULL || (src == NULL && n) || offset > m->bytes || n > m->bytes - offset)
        return GS_ERR_INVALID_ARGUMENT;
    if (n == 0)
        return GS_OK;
    err = clEnqueueWriteBuffer(d->queue, m->buf, CL_TRUE, offset, n, src, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return gs_cl_fail(dev, err, "clEnqueueWriteBuffer");
    return GS_OK;
}

static gs_status cl_mem_read(gs_device *dev, gs_mem *m, size_t offset, void *dst, size_t n)
{
    gs_cl_device *d = gs_cl(dev);
    cl_int err;
    if (m == NULL || (dst == NULL && n) || offset > m->bytes || n > m->bytes - offset)
        return GS_ERR_INVALID_ARGUMENT;
    if (n == 0)
        return GS_OK;
    err = clEnqueueReadBuffer(d->queue, m->buf, CL_TRUE, offset, n, dst, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return gs_cl_fail(dev, err, "clEnqueueReadBuffer");
    return GS_OK;
}

/* A user's queue, or the device's, drained (gs_local_prepare, gs_local_collect). */
static gs_status cl_stream_sync(gs_device *dev, void *stream)
{
    cl_command_queue q = stream ? (cl_command_queue)stream : gs_cl(dev)->queue;
    cl_int err = clFinish(q);
    return err == CL_SUCCESS ? GS_OK : gs_cl_fail(dev, err, "clFinish");
}

static void *cl_mem_native(gs_mem *m) { return m ? (void *)m->buf : NULL; }

/* ---- launch ----------------------------------------------------------------------- */

/* PoCL compiles (or loads from its cache) a kernel's code for each work-group size at
 * the first launch with it, inside that launch's profiled time: about 0.1 s that would
 * land in the first measurement. Before the first timed launch of a size, a launch
 * over no phase at all (the kernel reads the state's header and leaves; it writes
 * nothing) pays it. Other devices compile at build time; the extra launch is cheap.
 * Called with the device's lock held: the list of warm sizes is the device's. */
static gs_status warm_up(gs_device *dev, gs_cl_variant *v, cl_kernel k, const gs_launch *l,
                         size_t global, size_t local)
{
    gs_cl_device *d = gs_cl(dev);
    gs_work_params prm = l->params;
    cl_int err;
    for (unsigned i = 0; i < v->nwarm && i < sizeof v->warm / sizeof *v->warm; ++i)
        if (v->warm[i] == local)
            return GS_OK;
    prm.phase_end = prm.phase_begin;
    err = clSetKernelArg(k, 4, sizeof prm, &prm);
    if (err != CL_SUCCESS)
        return gs_cl_fail(dev, err, "clSetKernelArg");
    err = clEnqueueNDRangeKernel(d->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(d->queue);
    if (err != CL_SUCCESS)
        return gs_cl_fail(dev, err, "clEnqueueNDRangeKernel");
    v->warm[v->nwarm++ % (sizeof v->warm / sizeof *v->warm)] = local;
    return GS_OK;
}

static gs_status set_arg_mem(gs_device *dev, cl_kernel k, cl_uint i, gs_mem *m)
{
    cl_mem buf = m ? m->buf : NULL;
    cl_int err = clSetKernelArg(k, i, sizeof buf, &buf);
    return err == CL_SUCCESS ? GS_OK : gs_cl_fail(dev, err, "clSetKernelArg");
}

static gs_status cl_launch(gs_device *dev, const gs_launch *l, double *elapsed_ns)
{
    gs_cl_device *d = gs_cl(dev);
    gs_work_params prm;
    size_t local, global, wg_size = 0;
    cl_kernel k = NULL;
    cl_event first = NULL, last = NULL;
    cl_int err = CL_SUCCESS;
    gs_status s = GS_OK;
    int relaunch;

    if (elapsed_ns)
        *elapsed_ns = 0.0;
    if (l == NULL || l->state == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    if (!cl_algo_supported(dev, l->algo))
        return GS_ERR_UNSUPPORTED;
    if ((s = gs_cl_kernel_for(d, l->algo, &k, &wg_size)) != GS_OK)
        return s;
    if (l->groups == 0u || l->group_size == 0u || l->group_size > wg_size)
        return GS_ERR_INVALID_ARGUMENT;
    local = l->group_size;
    global = (size_t)l->groups * local;

    /* A kernel's arguments belong to the cl_kernel, which every thread launching this
     * protocol on the device shares, and an enqueue takes them as they are then: from
     * the first clSetKernelArg to the last enqueue no other thread may set them (else
     * this launch runs on its buffers). The enqueued launches are waited for outside
     * the lock; the in-order queue runs them one after another anyway. */
    pthread_mutex_lock(&d->lock);
    if ((s = set_arg_mem(dev, k, 0, l->state)) != GS_OK ||
        (s = set_arg_mem(dev, k, 1, l->a)) != GS_OK ||
        (s = set_arg_mem(dev, k, 2, l->b)) != GS_OK ||
        (s = set_arg_mem(dev, k, 3, l->c)) != GS_OK ||
        (s = warm_up(dev, &d->variants[l->algo], k, l, global, local)) != GS_OK) {
        pthread_mutex_unlock(&d->lock);
        return s;
    }

    /* relaunch: one kernel per phase, timed from the first start to the last end */
    prm = l->params;
    relaunch = l->algo == GS_ALGO_RELAUNCH && l->params.phase_end > l->params.phase_begin + 1u;
    for (unsigned p = l->params.phase_begin;; ++p) {
        cl_event ev = NULL;
        if (relaunch) {
            if (p >= l->params.phase_end)
                break;
            prm.phase_begin = p;
            prm.phase_end = p + 1u;
        }
        err = clSetKernelArg(k, 4, sizeof prm, &prm);
        if (err != CL_SUCCESS) {
            s = gs_cl_fail(dev, err, "clSetKernelArg");
            break;
        }
        err = clEnqueueNDRangeKernel(d->queue, k, 1, NULL, &global, &local, 0, NULL, &ev);
        if (err != CL_SUCCESS) {
            s = gs_cl_fail(dev, err, "clEnqueueNDRangeKernel");
            break;
        }
        if (first == NULL) {
            first = ev;
        } else {
            if (last)
                clReleaseEvent(last);
            last = ev;
        }
        if (!relaunch)
            break;
    }
    pthread_mutex_unlock(&d->lock);
    if (first) {
        /* on an enqueue error, still wait for what was enqueued before releasing */
        gs_status w = gs_cl_event_span(dev, first, last ? last : first, elapsed_ns);
        if (s == GS_OK)
            s = w;
    }
    if (last)
        clReleaseEvent(last);
    if (first)
        clReleaseEvent(first);
    return s;
}

static uint64_t cl_timeout_units(gs_device *dev, unsigned milliseconds)
{
    return gs_cl_timeout_units(dev, milliseconds);
}

const gs_backend_ops gs_opencl_ops = {
    .id = GS_BACKEND_OPENCL,
    .discover = gs_cl_discover,
    .count = gs_cl_count,
    .open = gs_cl_open,
    .close = gs_cl_close,
    .max_groups = cl_max_groups,
    .algo_supported = cl_algo_supported,
    .timeout_units = cl_timeout_units,
    .spinners = cl_spinners,
    .mem_alloc = cl_mem_alloc,
    .mem_free = cl_mem_free,
    .mem_write = cl_mem_write,
    .mem_read = cl_mem_read,
    .mem_native = cl_mem_native,
    .launch = cl_launch,
    .collect = gs_cl_collect,
    .stream_sync = cl_stream_sync,
};
