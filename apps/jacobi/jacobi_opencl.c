/* The app on gridsync's OpenCL back end: the app's program is gridsync's device source
 * followed by jacobi.cl, built in the device's context with gridsync's options; the
 * persistent kernels launch through gs_opencl_launch, the local form's is enqueued
 * between gs_local_prepare and gs_local_collect, the relaunch baseline enqueues one
 * kernel per iteration on the device's in-order queue. Time comes from profiling
 * events (that queue profiles). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsync/host_opencl.h"

#include "appkit_opencl.h"
#include "backend.h"

extern const char gsj_cl_source[]; /* jacobi_step.h ... jacobi_halo.h, jacobi.cl: embedded */

/* jacobi.cl's persistent kernels of the barrier forms, from the same protocol list. */
#define GSJ_CL_ENTRY(name, algo) \
    {algo, "gsj_persistent_" #name, "gsj_split_" #name, "gsj_resident_" #name},
#define GSJ_CL_ENTRY_X(ID, name, value, text, desc) GSJ_CL_ENTRY(name, GS_ALGO_##ID)
static const struct {
    gs_algo algo;
    const char *kernel, *split, *resident;
} persistent[] = {GS_PROTOCOLS_SHARED(GSJ_CL_ENTRY_X) GSJ_CL_ENTRY(auto, GS_ALGO_AUTO)};

/* The kernel of a method in a form (the relaunch baseline's is not here: two of them). */
static const char *persistent_of(gs_algo method, gsj_form form)
{
    if (form == GSJ_FORM_LOCAL || form == GSJ_FORM_HALO)
        return method != GS_ALGO_AUTO ? NULL : form == GSJ_FORM_HALO ? "gsj_halo" : "gsj_local";
    for (size_t i = 0; i < sizeof persistent / sizeof *persistent; ++i)
        if (persistent[i].algo == method)
            return form == GSJ_FORM_SPLIT      ? persistent[i].split
                   : form == GSJ_FORM_RESIDENT ? persistent[i].resident
                                               : persistent[i].kernel;
    return NULL;
}

static int cl_supported(gs_device *dev, gs_algo method)
{
    if (method == GS_ALGO_RELAUNCH)
        return 1;
    return persistent_of(method, GSJ_FORM_SYNC) != NULL && gsa_protocol_runs(dev, method);
}

static gs_status cl_max_groups(gs_device *dev, gs_algo method, gsj_form form, unsigned group_size,
                               unsigned *out)
{
    /* OpenCL knows compute units, not a kernel's occupancy: the library's bound */
    (void)method, (void)form;
    return gs_device_max_groups(dev, group_size, out);
}

static gs_status cl_group_memory(gs_device *dev, size_t *out)
{
    cl_context ctx;
    cl_command_queue queue;
    cl_device_id id;
    cl_ulong bytes = 0;
    gs_status st = gs_opencl_handles(dev, &ctx, &queue, &id);
    if (st == GS_OK &&
        clGetDeviceInfo(id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof bytes, &bytes, NULL) != CL_SUCCESS)
        st = GS_ERR_NATIVE;
    *out = (size_t)bytes;
    return st;
}

typedef struct cl_impl {
    cl_context ctx;
    cl_command_queue queue;
    cl_device_id id;
    cl_program program;
    cl_kernel kernel, back; /* persistent, or the step a -> b and the step b -> a */
    cl_mem a, b, initial;
    gs_barrier *bar;
    gs_local *L; /* the local and halo forms' */
} cl_impl;

static gs_status cl_fail(gsj_session *s, cl_int err, const char *what)
{
    return gsa_cl_fail(err, what, s->result->error, sizeof s->result->error);
}

/* gridsync's source, then the app's, built with gridsync's options for this device. */
static gs_status build(gsj_session *s, cl_impl *m)
{
    return gsa_cl_build(s->dev, gsj_cl_source, NULL, &m->program, s->result->error,
                        sizeof s->result->error);
}

static gs_status make_kernel(gsj_session *s, cl_impl *m, const char *name, cl_kernel *out)
{
    return gsa_cl_kernel(m->program, name, out, s->result->error, sizeof s->result->error);
}

/* Sets kernel k's arguments, in order, from (size, pointer) pairs; stops at the first
 * error so the one reported is the one that happened. */
static cl_int set_args(cl_kernel k, cl_uint count, const size_t *sizes, const void *const *values)
{
    cl_int err = CL_SUCCESS;
    for (cl_uint i = 0; err == CL_SUCCESS && i < count; ++i)
        err = clSetKernelArg(k, i, sizes[i], values[i]);
    return err;
}

/* Arguments that do not change between runs: the relaunch steps alternate buffers by
 * kernel (a -> b, b -> a), the persistent kernel picks them by parity; the split
 * form's also takes its tiles, the local form's its bands, the resident form's its tiles
 * and its local memory. */
static gs_status kernel_args(gsj_session *s, cl_impl *m)
{
    cl_uint n = s->cfg->n, iters = s->cfg->iters, gx, gy;
    gsj_tiling(s->cfg->groups, &gx, &gy);
    gsj_form form = gsj_kernel_form(s->cfg);
    cl_int err;
    if (s->cfg->method == GS_ALGO_RELAUNCH) {
        const size_t sz[3] = {sizeof(cl_mem), sizeof(cl_mem), sizeof n};
        const void *ab[3] = {&m->a, &m->b, &n}, *ba[3] = {&m->b, &m->a, &n};
        err = set_args(m->kernel, 3, sz, ab);
        if (err == CL_SUCCESS)
            err = set_args(m->back, 3, sz, ba);
    } else {
        void *state = NULL;
        gs_status st = m->L ? gs_local_native(m->L, &state) : gs_barrier_native(m->bar, &state);
        if (st != GS_OK)
            return gsj_fail(s, st, "the state's native handle");
        cl_mem mstate = (cl_mem)state;
        cl_uint bands = gsj_local_bands(n, s->cfg->groups);
        cl_uint stride = gsj_halo_stride(n, s->cfg->groups);
        const size_t sz[8] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem), sizeof n,
                              sizeof iters,   sizeof gx,      sizeof gy,      sizeof stride};
        const void *v[8] = {&mstate, &m->a,  &m->b,
                            &n,      &iters, form == GSJ_FORM_LOCAL ? (const void *)&bands : &gx,
                            &gy,     &stride};
        /* sync: state, a, b, n, iters; local: and bands; split, resident: and gx, gy;
         * halo: and the stride; resident and halo then their local memory */
        cl_uint count = form == GSJ_FORM_SYNC    ? 5
                        : form == GSJ_FORM_LOCAL ? 6
                        : form == GSJ_FORM_HALO  ? 8
                                                 : 7;
        err = set_args(m->kernel, count, sz, v);
        if (err == CL_SUCCESS && (form == GSJ_FORM_RESIDENT || form == GSJ_FORM_HALO))
            err = clSetKernelArg(m->kernel, count, gsj_resident_bytes(n, s->cfg->groups), NULL);
    }
    return err == CL_SUCCESS ? GS_OK : cl_fail(s, err, "clSetKernelArg");
}

static gs_status cl_open(gsj_session *s)
{
    size_t bytes = (size_t)s->cfg->n * s->cfg->n * sizeof(float);
    cl_int err;
    cl_impl *m = calloc(1, sizeof *m);
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    gs_status st = gs_opencl_handles(s->dev, &m->ctx, &m->queue, &m->id);
    if (st != GS_OK)
        return gsj_fail(s, st, "gs_opencl_handles");
    gsj_form form = gsj_kernel_form(s->cfg);
    if (form == GSJ_FORM_LOCAL ? (st = gsj_local_open(s, &m->L)) != GS_OK
        : form == GSJ_FORM_HALO
            ? (st = gsj_halo_open(s, &m->L)) != GS_OK
            : s->cfg->method != GS_ALGO_RELAUNCH && (st = gsj_barrier_open(s, &m->bar)) != GS_OK)
        return st; /* halo: GS_ERR_UNSUPPORTED without 64-bit atomics */
    size_t local_bytes = 0;
    if ((form == GSJ_FORM_RESIDENT || form == GSJ_FORM_HALO) &&
        (cl_group_memory(s->dev, &local_bytes) != GS_OK ||
         gsj_resident_bytes(s->cfg->n, s->cfg->groups) > local_bytes))
        return gsj_fail(s, GS_ERR_UNSUPPORTED,
                        "resident tiles of %zu bytes: the device's local memory has %zu",
                        gsj_resident_bytes(s->cfg->n, s->cfg->groups), local_bytes);
    if ((st = build(s, m)) != GS_OK)
        return st;
    if (s->cfg->method == GS_ALGO_RELAUNCH) {
        if ((st = make_kernel(s, m, "gsj_step", &m->kernel)) != GS_OK ||
            (st = make_kernel(s, m, "gsj_step", &m->back)) != GS_OK)
            return st;
    } else if ((st = make_kernel(s, m, persistent_of(s->cfg->method, gsj_kernel_form(s->cfg)),
                                 &m->kernel)) != GS_OK) {
        return st;
    }
    const cl_impl *peer = s->peer ? s->peer->impl : NULL;
    if (peer && peer->a && peer->b && peer->initial) {
        /* the methods of one call on the same grids (each run reloads them): one set in
         * device memory, where a set each made ten methods of 8192^2 take 7.5 GiB */
        err = clRetainMemObject(peer->a);
        m->a = err == CL_SUCCESS ? peer->a : NULL;
        if (err == CL_SUCCESS && (err = clRetainMemObject(peer->b)) == CL_SUCCESS)
            m->b = peer->b;
        if (err == CL_SUCCESS && (err = clRetainMemObject(peer->initial)) == CL_SUCCESS)
            m->initial = peer->initial;
        if (err != CL_SUCCESS)
            return cl_fail(s, err, "clRetainMemObject");
        return kernel_args(s, m);
    }
    m->a = clCreateBuffer(m->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err == CL_SUCCESS)
        m->b = clCreateBuffer(m->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err == CL_SUCCESS) /* a device copy of the start: each run reloads from it */
        m->initial = clCreateBuffer(m->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                                    (void *)s->initial, &err);
    if (err != CL_SUCCESS)
        return cl_fail(s, err, "clCreateBuffer");
    return kernel_args(s, m);
}

/* T launches of one iteration each, enqueued back to back as a user writes them. */
static gs_status relaunch(gsj_session *s, cl_impl *m, double *ns)
{
    size_t local = s->cfg->group_size, global = (size_t)s->cfg->groups * local;
    cl_event first = NULL, last = NULL;
    cl_int err = CL_SUCCESS;
    for (unsigned t = 0; err == CL_SUCCESS && t < s->cfg->iters; ++t) {
        cl_event *ev = t == 0 ? &first : t + 1 == s->cfg->iters ? &last : NULL;
        err = clEnqueueNDRangeKernel(m->queue, t % 2 ? m->back : m->kernel, 1, NULL, &global,
                                     &local, 0, NULL, ev);
    }
    return gsa_cl_relaunch_end(m->queue, err, first, last, ns, s->result->error,
                               sizeof s->result->error);
}

/* The local and halo forms: an ordinary launch on the state (gs_opencl_launch_local: a
 * new epoch, the launch, the verdict); the halo form's grid within the device's bound. */
static gs_status run_local(gsj_session *s, cl_impl *m, double *ns)
{
    size_t groups = s->cfg->groups, size = s->cfg->group_size;
    return gsj_local_verdict(s, m->L,
                             gs_opencl_launch_local(m->L, m->kernel, 1, &groups, &size, ns));
}

static gs_status cl_run(gsj_session *s, double *ns)
{
    cl_impl *m = s->impl;
    size_t bytes = (size_t)s->cfg->n * s->cfg->n * sizeof(float);
    cl_int err = clEnqueueCopyBuffer(m->queue, m->initial, m->a, 0, 0, bytes, 0, NULL, NULL);
    if (err == CL_SUCCESS) /* the edges must be in both */
        err = clEnqueueCopyBuffer(m->queue, m->initial, m->b, 0, 0, bytes, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(m->queue);
    if (err != CL_SUCCESS)
        return cl_fail(s, err, "clEnqueueCopyBuffer");
    if (s->cfg->method == GS_ALGO_RELAUNCH)
        return relaunch(s, m, ns);
    if (m->L)
        return run_local(s, m, ns);
    size_t groups = s->cfg->groups, size = s->cfg->group_size;
    gs_status st = gs_opencl_launch(m->bar, m->kernel, 1, &groups, &size, ns);
    return st == GS_OK ? GS_OK : gsj_fail(s, st, "gs_opencl_launch(%zu x %zu)", groups, size);
}

static gs_status cl_fetch(gsj_session *s, float *out)
{
    cl_impl *m = s->impl;
    size_t bytes = (size_t)s->cfg->n * s->cfg->n * sizeof(float);
    /* Iteration t writes b when t is even: the last one, T - 1, wrote b when T is odd. */
    cl_int err = clEnqueueReadBuffer(m->queue, s->cfg->iters % 2 ? m->b : m->a, CL_TRUE, 0, bytes,
                                     out, 0, NULL, NULL);
    return err == CL_SUCCESS ? GS_OK : cl_fail(s, err, "clEnqueueReadBuffer");
}

static void cl_close(gsj_session *s)
{
    cl_impl *m = s->impl;
    if (m == NULL)
        return;
    if (m->kernel)
        clReleaseKernel(m->kernel);
    if (m->back)
        clReleaseKernel(m->back);
    if (m->program)
        clReleaseProgram(m->program);
    if (m->a)
        clReleaseMemObject(m->a);
    if (m->b)
        clReleaseMemObject(m->b);
    if (m->initial)
        clReleaseMemObject(m->initial);
    if (m->bar)
        gs_barrier_destroy(m->bar);
    if (m->L)
        gs_local_destroy(m->L);
    free(m);
    s->impl = NULL;
}

const gsj_backend gsj_opencl_backend = {cl_supported, cl_max_groups, cl_group_memory, cl_open,
                                        cl_run,       cl_fetch,      cl_close,        NULL};
