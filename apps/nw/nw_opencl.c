/* The app on gridsync's OpenCL back end: the program is gridsync's device source, then
 * nw_tile.h and nw.cl, built in the device's context with gridsync's options and the
 * tile side; the global scheme launches through gs_opencl_launch, the local schemes and
 * the relaunch baseline are enqueued the ordinary way on the device's in-order queue.
 * Time comes from profiling events (that queue profiles). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsync/host_local.h"
#include "gridsync/host_opencl.h"

#include "appkit_opencl.h"
#include "backend.h"

extern const char nw_cl_source[]; /* nw_tile.h + nw.cl, embedded at build time */

#define NW_CL_ENTRY_X(ID, name, value, text, desc) {GS_ALGO_##ID, "nw_global_" #name},
static const struct {
    gs_algo algo;
    const char *kernel;
} globals[] = {GS_PROTOCOLS_SHARED(NW_CL_ENTRY_X){GS_ALGO_AUTO, "nw_global_auto"}};

static const char *global_of(gs_algo protocol)
{
    for (size_t i = 0; i < sizeof globals / sizeof *globals; ++i)
        if (globals[i].algo == protocol)
            return globals[i].kernel;
    return NULL;
}

static int cl_supported(gs_device *dev, nw_scheme scheme, gs_algo protocol)
{
    if (scheme == NW_RELAUNCH || scheme == NW_LOCAL)
        return 1;
    gs_device_info info; /* local-tagged's words are 64-bit atomics: an OpenCL extension */
    if (scheme == NW_LOCAL_TAGGED)
        return gs_device_get_info(dev, &info) == GS_OK && info.has_word64;
    return scheme == NW_GLOBAL && global_of(protocol) != NULL && gsa_protocol_runs(dev, protocol);
}

static gs_status cl_max_groups(gs_device *dev, nw_scheme scheme, gs_algo protocol, unsigned tile,
                               unsigned *out)
{
    (void)scheme; /* OpenCL knows compute units, not a kernel's occupancy: the library's bound */
    (void)protocol;
    return gs_device_max_groups(dev, tile, out);
}

typedef struct cl_impl {
    cl_context ctx;
    cl_command_queue queue;
    cl_device_id id;
    cl_program program;
    cl_kernel kernel;
    cl_mem m, edge, s1, s2, blosum;
    gs_barrier *bar;
    gs_local *L;
} cl_impl;

static gs_status cl_fail(nw_session *s, cl_int err, const char *what)
{
    return gsa_cl_fail(err, what, s->result->error, sizeof s->result->error);
}

/* gridsync's source, then the app's, with gridsync's options and the tile side. */
static gs_status build(nw_session *s, cl_impl *m)
{
    char opts[32];
    snprintf(opts, sizeof opts, "-DNW_B=%u", s->cfg->tile);
    return gsa_cl_build(s->dev, nw_cl_source, opts, &m->program, s->result->error,
                        sizeof s->result->error);
}

/* The buffers every kernel takes, after the state where it has one (args from `first`). */
static cl_int set_common(cl_impl *m, cl_uint first, cl_uint n)
{
    cl_mem *bufs[5] = {&m->m, &m->edge, &m->s1, &m->s2, &m->blosum};
    cl_int err = CL_SUCCESS;
    for (cl_uint i = 0; err == CL_SUCCESS && i < 5; ++i)
        err = clSetKernelArg(m->kernel, first + i, sizeof(cl_mem), bufs[i]);
    return err == CL_SUCCESS ? clSetKernelArg(m->kernel, first + 5, sizeof n, &n) : err;
}

static gs_status kernel_args(nw_session *s, cl_impl *m)
{
    const nw_config *c = s->cfg;
    cl_int err;
    if (c->scheme == NW_RELAUNCH) /* the diagonal is set per launch */
        return (err = set_common(m, 0, c->n)) == CL_SUCCESS ? GS_OK
                                                            : cl_fail(s, err, "clSetKernelArg");
    void *state = NULL;
    gs_status st = m->bar ? gs_barrier_native(m->bar, &state) : gs_local_native(m->L, &state);
    if (st != GS_OK)
        return nw_fail(s, st, "the state's native handle");
    cl_mem mstate = (cl_mem)state;
    err = clSetKernelArg(m->kernel, 0, sizeof mstate, &mstate);
    if (err == CL_SUCCESS)
        err = set_common(m, 1, c->n);
    if (err == CL_SUCCESS && c->scheme == NW_LOCAL) {
        cl_uint v[3] = {0, 0, c->silent_tile};
        nw_variant_args(&c->variant, &v[0], &v[1]);
        for (cl_uint i = 0; err == CL_SUCCESS && i < 3; ++i)
            err = clSetKernelArg(m->kernel, 7 + i, sizeof v[i], &v[i]);
    }
    if (err == CL_SUCCESS && c->scheme == NW_LOCAL_TAGGED) {
        cl_uint silent = c->silent_tile;
        err = clSetKernelArg(m->kernel, 7, sizeof silent, &silent);
    }
    return err == CL_SUCCESS ? GS_OK : cl_fail(s, err, "clSetKernelArg");
}

static gs_status cl_open(nw_session *s)
{
    const nw_config *c = s->cfg;
    size_t len = (size_t)s->R * c->tile + 1u;
    cl_int err;
    cl_impl *m = calloc(1, sizeof *m);
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    gs_status st = gs_opencl_handles(s->dev, &m->ctx, &m->queue, &m->id);
    if (st != GS_OK)
        return nw_fail(s, st, "gs_opencl_handles");
    if (c->scheme == NW_GLOBAL && (st = nw_barrier_open(s, &m->bar)) != GS_OK)
        return st;
    if ((c->scheme == NW_LOCAL || c->scheme == NW_LOCAL_TAGGED) &&
        (st = nw_local_open(s, &m->L)) != GS_OK)
        return st;
    if ((st = build(s, m)) != GS_OK)
        return st;
    const char *name = c->scheme == NW_RELAUNCH       ? "nw_relaunch"
                       : c->scheme == NW_LOCAL        ? "nw_local_kernel"
                       : c->scheme == NW_LOCAL_TAGGED ? "nw_tagged_kernel"
                                                      : global_of(c->protocol);
    if ((st = gsa_cl_kernel(m->program, name, &m->kernel, s->result->error,
                            sizeof s->result->error)) != GS_OK)
        return st;
    m->m = clCreateBuffer(m->ctx, CL_MEM_READ_WRITE, s->cells * sizeof(cl_int), NULL, &err);
    if (err == CL_SUCCESS)
        m->edge = clCreateBuffer(m->ctx, CL_MEM_READ_WRITE,
                                 (size_t)s->R * s->pitch * sizeof(cl_int), NULL, &err);
    if (err == CL_SUCCESS)
        m->s1 = clCreateBuffer(m->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, len, (void *)s->s1,
                               &err);
    if (err == CL_SUCCESS)
        m->s2 = clCreateBuffer(m->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, len, (void *)s->s2,
                               &err);
    if (err == CL_SUCCESS)
        m->blosum = clCreateBuffer(m->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                   sizeof nw_blosum62, (void *)nw_blosum62, &err);
    if (err != CL_SUCCESS)
        return cl_fail(s, err, "clCreateBuffer");
    return kernel_args(s, m);
}

/* 2R - 1 launches, one per anti-diagonal, each of its tiles' groups (at most cfg->groups),
 * enqueued back to back as a user writes them. */
static gs_status relaunch(nw_session *s, cl_impl *m, double *ns)
{
    size_t local = s->cfg->tile;
    cl_event first = NULL, last = NULL;
    cl_int err = CL_SUCCESS;
    unsigned launches = 2u * s->R - 1u;
    for (unsigned d = 0; err == CL_SUCCESS && d < launches; ++d) {
        unsigned count = nw_diag_count_host(d, s->R);
        size_t global = (size_t)(count < s->cfg->groups ? count : s->cfg->groups) * local;
        cl_uint dd = d;
        cl_event *ev = d == 0 ? &first : d + 1 == launches ? &last : NULL;
        err = clSetKernelArg(m->kernel, 6, sizeof dd, &dd);
        if (err == CL_SUCCESS)
            err =
                clEnqueueNDRangeKernel(m->queue, m->kernel, 1, NULL, &global, &local, 0, NULL, ev);
    }
    s->result->launches = launches;
    return gsa_cl_relaunch_end(m->queue, err, first, last, ns, s->result->error,
                               sizeof s->result->error);
}

/* The local scheme: an ordinary launch of any number of groups on the state
 * (gs_opencl_launch_local: a new epoch, the launch, the verdict). */
static gs_status run_local(nw_session *s, cl_impl *m, double *ns)
{
    size_t groups = s->cfg->groups, size = s->cfg->tile;
    gs_status st = gs_opencl_launch_local(m->L, m->kernel, 1, &groups, &size, ns);
    s->result->launches = 1;
    return nw_local_verdict(s, m->L, st);
}

static gs_status cl_run(nw_session *s, double *ns)
{
    cl_impl *m = s->impl;
    cl_uchar poison = NW_POISON;
    cl_int err = clEnqueueFillBuffer(m->queue, m->m, &poison, 1, 0, s->cells * sizeof(cl_int), 0,
                                     NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(m->queue);
    if (err != CL_SUCCESS)
        return cl_fail(s, err, "clEnqueueFillBuffer");
    if (s->cfg->scheme == NW_RELAUNCH)
        return relaunch(s, m, ns);
    if (s->cfg->scheme == NW_LOCAL || s->cfg->scheme == NW_LOCAL_TAGGED)
        return run_local(s, m, ns);
    size_t groups = s->cfg->groups, size = s->cfg->tile;
    s->result->launches = 1;
    gs_status st = gs_opencl_launch(m->bar, m->kernel, 1, &groups, &size, ns);
    return st == GS_OK ? GS_OK : nw_fail(s, st, "gs_opencl_launch(%zu x %zu)", groups, size);
}

static gs_status cl_fetch(nw_session *s, int32_t *out)
{
    cl_impl *m = s->impl;
    size_t w = (size_t)s->cfg->n + 1u;
    size_t origin[3] = {nw_lead() * sizeof(cl_int), 0, 0}, host[3] = {0, 0, 0};
    size_t region[3] = {w * sizeof(cl_int), w, 1};
    cl_int err = clEnqueueReadBufferRect(m->queue, m->m, CL_TRUE, origin, host, region,
                                         s->pitch * sizeof(cl_int), 0, w * sizeof(cl_int), 0, out,
                                         0, NULL, NULL);
    return err == CL_SUCCESS ? GS_OK : cl_fail(s, err, "clEnqueueReadBufferRect");
}

static void cl_close(nw_session *s)
{
    cl_impl *m = s->impl;
    if (m == NULL)
        return;
    if (m->kernel)
        clReleaseKernel(m->kernel);
    if (m->program)
        clReleaseProgram(m->program);
    cl_mem bufs[5] = {m->m, m->edge, m->s1, m->s2, m->blosum};
    for (int i = 0; i < 5; ++i)
        if (bufs[i])
            clReleaseMemObject(bufs[i]);
    if (m->bar)
        gs_barrier_destroy(m->bar);
    if (m->L)
        gs_local_destroy(m->L);
    free(m);
    s->impl = NULL;
}

const nw_backend nw_opencl_backend = {cl_supported, cl_max_groups, cl_open,
                                      cl_run,       cl_fetch,      cl_close};
