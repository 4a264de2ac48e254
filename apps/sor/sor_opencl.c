/* The app on gridsync's OpenCL back end: the app's program is gridsync's device source
 * followed by sor_step.h, sor_tile.h and sor.cl, built in the device's context with
 * gridsync's options; the persistent kernels launch through gs_opencl_launch, the local
 * scheme and the relaunch baseline enqueue ordinary launches on the device's in-order
 * queue. Time comes from profiling events (that queue profiles). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsync/host_opencl.h"

#include "appkit_opencl.h"
#include "backend.h"

extern const char gsr_cl_source[]; /* sor_step.h + sor_tile.h + sor.cl, embedded */

/* sor.cl's persistent kernels, from the same protocol list. */
#define GSR_CL_ENTRY_X(ID, name, value, text, desc) {GS_ALGO_##ID, "gsr_persistent_" #name},
static const struct {
    gs_algo algo;
    const char *kernel;
} persistent[] = {GS_PROTOCOLS_SHARED(GSR_CL_ENTRY_X){GS_ALGO_AUTO, "gsr_persistent_auto"},
                  {GSR_LOCAL, "gsr_local"},
                  {GS_ALGO_RELAUNCH, "gsr_relaunch"}};

static const char *kernel_of(gs_algo method)
{
    for (size_t i = 0; i < sizeof persistent / sizeof *persistent; ++i)
        if (persistent[i].algo == method)
            return persistent[i].kernel;
    return NULL;
}

static int cl_supported(gs_device *dev, gs_algo method)
{
    if (method == GSR_LOCAL || method == GS_ALGO_RELAUNCH)
        return 1;
    return kernel_of(method) != NULL && gsa_protocol_runs(dev, method);
}

static gs_status cl_max_groups(gs_device *dev, gs_algo method, unsigned tile, unsigned *out)
{
    (void)method; /* OpenCL knows compute units, not a kernel's occupancy: the library's bound */
    return gs_device_max_groups(dev, tile, out);
}

typedef struct cl_impl {
    cl_context ctx;
    cl_command_queue queue;
    cl_device_id id;
    cl_program program;
    cl_kernel kernel;
    cl_mem u, initial;
    gs_barrier *bar;
    gs_local *L;
} cl_impl;

static gs_status cl_fail(gsr_session *s, cl_int err, const char *what)
{
    return gsa_cl_fail(err, what, s->result->error, sizeof s->result->error);
}

/* gridsync's source, then the app's, built with gridsync's options for this device. */
static gs_status build(gsr_session *s, cl_impl *m)
{
    return gsa_cl_build(s->dev, gsr_cl_source, NULL, &m->program, s->result->error,
                        sizeof s->result->error);
}

/* Sets kernel k's arguments from `first` on, in order, from (size, pointer) pairs;
 * stops at the first error so the one reported is the one that happened. */
static cl_int set_args(cl_kernel k, cl_uint first, cl_uint count, const size_t *sizes,
                       const void *const *values)
{
    cl_int err = CL_SUCCESS;
    for (cl_uint i = 0; err == CL_SUCCESS && i < count; ++i)
        err = clSetKernelArg(k, first + i, sizes[i], values[i]);
    return err;
}

/* The arguments every run shares: [state,] u, n, tile, sweeps, a, b [, mutant]; the
 * relaunch kernel's last one, its step, is set per launch. */
static gs_status kernel_args(gsr_session *s, cl_impl *m)
{
    cl_uint n = s->cfg->n, tile = s->cfg->tile, sweeps = s->cfg->sweeps, mutant = s->cfg->mutant;
    cl_float a = s->a, b = s->b;
    const size_t sz[7] = {sizeof(cl_mem), sizeof n, sizeof tile,  sizeof sweeps,
                          sizeof a,       sizeof b, sizeof mutant};
    const void *v[7] = {&m->u, &n, &tile, &sweeps, &a, &b, &mutant};
    if (s->cfg->method == GS_ALGO_RELAUNCH) {
        cl_int err = set_args(m->kernel, 0, 6, sz, v);
        return err == CL_SUCCESS ? GS_OK : cl_fail(s, err, "clSetKernelArg");
    }
    void *state = NULL;
    gs_status st = m->L ? gs_local_native(m->L, &state) : gs_barrier_native(m->bar, &state);
    if (st != GS_OK)
        return gsr_fail(s, st, "the state's native handle");
    cl_mem mstate = (cl_mem)state;
    cl_int err = clSetKernelArg(m->kernel, 0, sizeof mstate, &mstate);
    if (err == CL_SUCCESS) /* the persistent kernels take no mutant */
        err = set_args(m->kernel, 1, m->L ? 7 : 6, sz, v);
    return err == CL_SUCCESS ? GS_OK : cl_fail(s, err, "clSetKernelArg");
}

static gs_status cl_open(gsr_session *s)
{
    size_t bytes = (size_t)s->cfg->n * s->cfg->n * sizeof(float);
    cl_int err;
    cl_impl *m = calloc(1, sizeof *m);
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    s->result->group_size = s->cfg->tile;
    gs_status st = gs_opencl_handles(s->dev, &m->ctx, &m->queue, &m->id);
    if (st != GS_OK)
        return gsr_fail(s, st, "gs_opencl_handles");
    if (s->cfg->method == GSR_LOCAL)
        st = gsr_local_open(s, &m->L);
    else if (s->cfg->method != GS_ALGO_RELAUNCH)
        st = gsr_barrier_open(s, &m->bar);
    if (st != GS_OK || (st = build(s, m)) != GS_OK)
        return st;
    if ((st = gsa_cl_kernel(m->program, kernel_of(s->cfg->method), &m->kernel, s->result->error,
                            sizeof s->result->error)) != GS_OK)
        return st;
    m->u = clCreateBuffer(m->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err == CL_SUCCESS) /* a device copy of the start: each run reloads from it */
        m->initial = clCreateBuffer(m->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                                    (void *)s->initial, &err);
    if (err != CL_SUCCESS)
        return cl_fail(s, err, "clCreateBuffer");
    return kernel_args(s, m);
}

/* Enqueues the kernel once (its event in *ev where ev is not NULL). */
static cl_int enqueue(gsr_session *s, cl_impl *m, cl_event *ev)
{
    size_t local = s->cfg->tile, global = (size_t)s->cfg->groups * local;
    return clEnqueueNDRangeKernel(m->queue, m->kernel, 1, NULL, &global, &local, 0, NULL, ev);
}

/* A launch per wavefront step, enqueued back to back as a user writes them. */
static gs_status relaunch(gsr_session *s, cl_impl *m, double *ns)
{
    cl_event first = NULL, last = NULL;
    cl_int err = CL_SUCCESS;
    unsigned steps = s->shape.steps;
    for (cl_uint t = 0; err == CL_SUCCESS && t < steps; ++t) {
        err = clSetKernelArg(m->kernel, 6, sizeof t, &t);
        if (err == CL_SUCCESS)
            err = enqueue(s, m, t == 0 ? &first : t + 1 == steps ? &last : NULL);
    }
    return gsa_cl_relaunch_end(m->queue, err, first, last, ns, s->result->error,
                               sizeof s->result->error);
}

/* The local scheme: an ordinary launch of any grid on the state (gs_opencl_launch_local:
 * a new epoch, the launch, the verdict). */
static gs_status local(gsr_session *s, cl_impl *m, double *ns)
{
    size_t groups = s->cfg->groups, size = s->cfg->tile;
    return gsr_local_verdict(s, m->L,
                             gs_opencl_launch_local(m->L, m->kernel, 1, &groups, &size, ns));
}

static gs_status cl_run(gsr_session *s, double *ns)
{
    cl_impl *m = s->impl;
    size_t bytes = (size_t)s->cfg->n * s->cfg->n * sizeof(float);
    cl_int err = clEnqueueCopyBuffer(m->queue, m->initial, m->u, 0, 0, bytes, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(m->queue);
    if (err != CL_SUCCESS)
        return cl_fail(s, err, "clEnqueueCopyBuffer");
    if (s->cfg->method == GS_ALGO_RELAUNCH)
        return relaunch(s, m, ns);
    if (s->cfg->method == GSR_LOCAL)
        return local(s, m, ns);
    size_t groups = s->cfg->groups, size = s->cfg->tile;
    gs_status st = gs_opencl_launch(m->bar, m->kernel, 1, &groups, &size, ns);
    return st == GS_OK ? GS_OK : gsr_fail(s, st, "gs_opencl_launch(%zu x %zu)", groups, size);
}

static gs_status cl_fetch(gsr_session *s, float *out)
{
    cl_impl *m = s->impl;
    size_t bytes = (size_t)s->cfg->n * s->cfg->n * sizeof(float);
    cl_int err = clEnqueueReadBuffer(m->queue, m->u, CL_TRUE, 0, bytes, out, 0, NULL, NULL);
    return err == CL_SUCCESS ? GS_OK : cl_fail(s, err, "clEnqueueReadBuffer");
}

static void cl_close(gsr_session *s)
{
    cl_impl *m = s->impl;
    if (m == NULL)
        return;
    if (m->kernel)
        clReleaseKernel(m->kernel);
    if (m->program)
        clReleaseProgram(m->program);
    if (m->u)
        clReleaseMemObject(m->u);
    if (m->initial)
        clReleaseMemObject(m->initial);
    if (m->bar)
        gs_barrier_destroy(m->bar);
    if (m->L)
        gs_local_destroy(m->L);
    free(m);
    s->impl = NULL;
}

const gsr_backend gsr_opencl_backend = {cl_supported, cl_max_groups, cl_open,
                                        cl_run,       cl_fetch,      cl_close};
