/* The app on gridsync's OpenCL back end: one program (gridsync's device source,
 * pi_step.h, pi.cl); the barrier way launches through gs_opencl_launch, the others
 * enqueue the kernel as any OpenCL program does. Needs double precision (cl_khr_fp64). */
#include <stdlib.h>

#include "gridsync/host_opencl.h"

#include "appkit_opencl.h"
#include "backend.h"

extern const char gsp_cl_source[];

typedef struct cl_impl {
    cl_context ctx;
    cl_command_queue queue;
    cl_device_id id;
    cl_program program;
    cl_kernel kernel;
    cl_mem ticket, scratch, partials, result;
    double *host_partials;
} cl_impl;

static int cl_supported(gsp_way way) { return way != GSP_CUB; }

static gs_status cl_fail(gsp_session *s, cl_int err, const char *what)
{
    return gsa_cl_fail(err, what, s->result->error, sizeof s->result->error);
}

/* gridsync's source, then the app's, built with gridsync's options; its one kernel. */
static gs_status build(gsp_session *s, cl_impl *m)
{
    gs_status st = gsa_cl_build(s->dev, gsp_cl_source, NULL, &m->program, s->result->error,
                                sizeof s->result->error);
    return st != GS_OK ? st
                       : gsa_cl_kernel(m->program, "gsp_pi", &m->kernel, s->result->error,
                                       sizeof s->result->error);
}

static gs_status cl_open(gsp_session *s)
{
    const gsp_config *c = s->cfg;
    cl_int err;
    cl_impl *m = calloc(1, sizeof *m);
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    m->host_partials = malloc(c->groups * sizeof(double));
    if (m->host_partials == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    gs_status st = gs_opencl_handles(s->dev, &m->ctx, &m->queue, &m->id);
    if (st != GS_OK)
        return gsp_fail(s, st, "gs_opencl_handles");
    if ((st = build(s, m)) != GS_OK)
        return st;
    cl_uint zero = 0;
    m->ticket =
        clCreateBuffer(m->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
    if (err == CL_SUCCESS)
        m->scratch = clCreateBuffer(m->ctx, CL_MEM_READ_WRITE,
                                    (size_t)c->groups * c->group_size * sizeof(double), NULL, &err);
    if (err == CL_SUCCESS)
        m->partials =
            clCreateBuffer(m->ctx, CL_MEM_READ_WRITE, c->groups * sizeof(double), NULL, &err);
    if (err == CL_SUCCESS)
        m->result = clCreateBuffer(m->ctx, CL_MEM_READ_WRITE, sizeof(double), NULL, &err);
    if (err != CL_SUCCESS)
        return cl_fail(s, err, "clCreateBuffer");
    void *state = NULL;
    if (c->way == GSP_BARRIER && (st = gs_barrier_native(s->bar, &state)) != GS_OK)
        return gsp_fail(s, st, "gs_barrier_native");
    cl_mem mstate = (cl_mem)state;
    cl_ulong steps = c->steps;
    cl_uint way = (cl_uint)c->way;
    err = clSetKernelArg(m->kernel, 0, sizeof(cl_mem), state ? &mstate : NULL);
    err |= clSetKernelArg(m->kernel, 1, sizeof(cl_mem), &m->ticket);
    err |= clSetKernelArg(m->kernel, 2, sizeof(cl_mem), &m->scratch);
    err |= clSetKernelArg(m->kernel, 3, sizeof(cl_mem), &m->partials);
    err |= clSetKernelArg(m->kernel, 4, sizeof(cl_mem), &m->result);
    err |= clSetKernelArg(m->kernel, 5, sizeof steps, &steps);
    err |= clSetKernelArg(m->kernel, 6, sizeof way, &way);
    return err == CL_SUCCESS ? GS_OK : cl_fail(s, err, "clSetKernelArg");
}

static gs_status cl_run(gsp_session *s, double *pi)
{
    const gsp_config *c = s->cfg;
    cl_impl *m = s->impl;
    size_t groups = c->groups, size = c->group_size, global = groups * size;
    cl_int err = CL_SUCCESS;
    if (c->way == GSP_BARRIER) {
        double ns = 0;
        gs_status st = gs_opencl_launch(s->bar, m->kernel, 1, &groups, &size, &ns);
        if (st != GS_OK)
            return gsp_fail(s, st, "gs_opencl_launch(%zu x %zu)", groups, size);
    } else {
        err = clEnqueueNDRangeKernel(m->queue, m->kernel, 1, NULL, &global, &size, 0, NULL, NULL);
    }
    if (err == CL_SUCCESS && c->way == GSP_HOST) {
        err = clEnqueueReadBuffer(m->queue, m->partials, CL_TRUE, 0, groups * sizeof(double),
                                  m->host_partials, 0, NULL, NULL);
        *pi = gsp_host_total(m->host_partials, c->groups);
    } else if (err == CL_SUCCESS) {
        err = clEnqueueReadBuffer(m->queue, m->result, CL_TRUE, 0, sizeof *pi, pi, 0, NULL, NULL);
    }
    return err == CL_SUCCESS ? GS_OK : cl_fail(s, err, "running gsp_pi");
}

static void cl_close(gsp_session *s)
{
    cl_impl *m = s->impl;
    if (m == NULL)
        return;
    if (m->kernel)
        clReleaseKernel(m->kernel);
    if (m->program)
        clReleaseProgram(m->program);
    cl_mem mems[4] = {m->ticket, m->scratch, m->partials, m->result};
    for (int i = 0; i < 4; ++i)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    free(m->host_partials);
    free(m);
    s->impl = NULL;
}

const gsp_backend gsp_opencl_backend = {cl_supported, cl_open, cl_run, cl_close};
