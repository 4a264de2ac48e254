/* The app on gridsync's OpenCL back end: gridsync's device source, stencil_step.h and
 * stencil.cl built as one program with gridsync's options; the persistent kernels
 * launch through gs_opencl_launch, the relaunch baseline enqueues a kernel per phase on
 * the device's in-order queue. Time comes from profiling events. */
#include <stdlib.h>

#include "gridsync/host_opencl.h"

#include "appkit_opencl.h"
#include "backend.h"

extern const char gss_cl_source[]; /* stencil_step.h + stencil.cl, embedded at build time */

#define GSS_CL_ENTRY_X(ID, name, value, text, desc) {GS_ALGO_##ID, "gss_persistent_" #name},
static const struct {
    gs_algo algo;
    const char *kernel;
} persistent[] = {GS_PROTOCOLS_SHARED(GSS_CL_ENTRY_X){GS_ALGO_AUTO, "gss_persistent_auto"}};

static const char *persistent_of(gs_algo method)
{
    for (size_t i = 0; i < sizeof persistent / sizeof *persistent; ++i)
        if (persistent[i].algo == method)
            return persistent[i].kernel;
    return NULL;
}

static int cl_supported(gs_device *dev, gs_algo method)
{
    return method == GS_ALGO_RELAUNCH ||
           (persistent_of(method) != NULL && gsa_protocol_runs(dev, method));
}

static gs_status cl_max_groups(gs_device *dev, gs_algo method, unsigned group_size, unsigned *out)
{
    (void)method; /* OpenCL knows compute units, not a kernel's occupancy: the library's bound */
    return gs_device_max_groups(dev, group_size, out);
}

typedef struct cl_impl {
    cl_context ctx;
    cl_command_queue queue;
    cl_device_id id;
    cl_program program;
    cl_kernel kernel, write; /* persistent, or the read phase and the write phase */
    cl_mem a, tmp, initial;
    gs_barrier *bar;
} cl_impl;

static gs_status cl_fail(gss_session *s, cl_int err, const char *what)
{
    return gsa_cl_fail(err, what, s->result->error, sizeof s->result->error);
}

/* gridsync's source, then the app's, built with gridsync's options for this device. */
static gs_status build(gss_session *s, cl_impl *m)
{
    return gsa_cl_build(s->dev, gss_cl_source, NULL, &m->program, s->result->error,
                        sizeof s->result->error);
}

static gs_status make_kernel(gss_session *s, cl_impl *m, const char *name, cl_kernel *out)
{
    return gsa_cl_kernel(m->program, name, out, s->result->error, sizeof s->result->error);
}

static gs_status kernel_args(gss_session *s, cl_impl *m)
{
    cl_uint n = s->cfg->n, iters = s->cfg->iters;
    cl_int err;
    if (s->cfg->method == GS_ALGO_RELAUNCH) {
        err = clSetKernelArg(m->kernel, 0, sizeof(cl_mem), &m->a);
        err |= clSetKernelArg(m->kernel, 1, sizeof(cl_mem), &m->tmp);
        err |= clSetKernelArg(m->kernel, 2, sizeof n, &n);
        err |= clSetKernelArg(m->write, 0, sizeof(cl_mem), &m->a);
        err |= clSetKernelArg(m->write, 1, sizeof(cl_mem), &m->tmp);
        err |= clSetKernelArg(m->write, 2, sizeof n, &n);
    } else {
        void *state = NULL;
        gs_status st = gs_barrier_native(m->bar, &state);
        if (st != GS_OK)
            return gss_fail(s, st, "gs_barrier_native");
        cl_mem mstate = (cl_mem)state;
        err = clSetKernelArg(m->kernel, 0, sizeof(cl_mem), &mstate);
        err |= clSetKernelArg(m->kernel, 1, sizeof(cl_mem), &m->a);
        err |= clSetKernelArg(m->kernel, 2, sizeof(cl_mem), &m->tmp);
        err |= clSetKernelArg(m->kernel, 3, sizeof n, &n);
        err |= clSetKernelArg(m->kernel, 4, sizeof iters, &iters);
    }
    return err == CL_SUCCESS ? GS_OK : cl_fail(s, err, "clSetKernelArg");
}

static gs_status cl_open(gss_session *s)
{
    size_t bytes = (size_t)s->cfg->n * sizeof(cl_uint);
    cl_int err;
    cl_impl *m = calloc(1, sizeof *m);
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    gs_status st = gs_opencl_handles(s->dev, &m->ctx, &m->queue, &m->id);
    if (st != GS_OK)
        return gss_fail(s, st, "gs_opencl_handles");
    if (s->cfg->method != GS_ALGO_RELAUNCH && (st = gss_barrier_open(s, &m->bar)) != GS_OK)
        return st;
    if ((st = build(s, m)) != GS_OK)
        return st;
    if (s->cfg->method == GS_ALGO_RELAUNCH) {
        if ((st = make_kernel(s, m, "gss_read_phase", &m->kernel)) != GS_OK ||
            (st = make_kernel(s, m, "gss_write_phase", &m->write)) != GS_OK)
            return st;
    } else if ((st = make_kernel(s, m, persistent_of(s->cfg->method), &m->kernel)) != GS_OK) {
        return st;
    }
    m->a = clCreateBuffer(m->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err == CL_SUCCESS)
        m->tmp = clCreateBuffer(m->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err == CL_SUCCESS)
        m->initial = clCreateBuffer(m->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                                    (void *)s->initial, &err);
    if (err != CL_SUCCESS)
        return cl_fail(s, err, "clCreateBuffer");
    return kernel_args(s, m);
}

/* 2T launches, read and write phases alternating, enqueued back to back. */
static gs_status relaunch(gss_session *s, cl_impl *m, double *ns)
{
    size_t local = s->cfg->group_size, global = (size_t)s->cfg->groups * local;
    unsigned launches = 2u * s->cfg->iters;
    cl_event first = NULL, last = NULL;
    cl_int err = CL_SUCCESS;
    for (unsigned t = 0; err == CL_SUCCESS && t < launches; ++t) {
        cl_event *ev = t == 0 ? &first : t + 1 == launches ? &last : NULL;
        err = clEnqueueNDRangeKernel(m->queue, t % 2 ? m->write : m->kernel, 1, NULL, &global,
                                     &local, 0, NULL, ev);
    }
    return gsa_cl_relaunch_end(m->queue, err, first, last, ns, s->result->error,
                               sizeof s->result->error);
}

static gs_status cl_run(gss_session *s, double *ns)
{
    cl_impl *m = s->impl;
    cl_int err = clEnqueueCopyBuffer(m->queue, m->initial, m->a, 0, 0,
                                     (size_t)s->cfg->n * sizeof(cl_uint), 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(m->queue);
    if (err != CL_SUCCESS)
        return cl_fail(s, err, "clEnqueueCopyBuffer");
    if (s->cfg->method == GS_ALGO_RELAUNCH)
        return relaunch(s, m, ns);
    size_t groups = s->cfg->groups, size = s->cfg->group_size;
    gs_status st = gs_opencl_launch(m->bar, m->kernel, 1, &groups, &size, ns);
    return st == GS_OK ? GS_OK : gss_fail(s, st, "gs_opencl_launch(%zu x %zu)", groups, size);
}

static gs_status cl_fetch(gss_session *s, uint32_t *out)
{
    cl_impl *m = s->impl;
    cl_int err = clEnqueueReadBuffer(m->queue, m->a, CL_TRUE, 0,
                                     (size_t)s->cfg->n * sizeof(cl_uint), out, 0, NULL, NULL);
    return err == CL_SUCCESS ? GS_OK : cl_fail(s, err, "clEnqueueReadBuffer");
}

static void cl_close(gss_session *s)
{
    cl_impl *m = s->impl;
    if (m == NULL)
        return;
    if (m->kernel)
        clReleaseKernel(m->kernel);
    if (m->write)
        clReleaseKernel(m->write);
    if (m->program)
        clReleaseProgram(m->program);
    cl_mem mems[3] = {m->a, m->tmp, m->initial};
    for (int i = 0; i < 3; ++i)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    if (m->bar)
        gs_barrier_destroy(m->bar);
    free(m);
    s->impl = NULL;
}

const gss_backend gss_opencl_backend = {cl_supported, cl_max_groups, cl_open,
                                        cl_run,       cl_fetch,      cl_close};
