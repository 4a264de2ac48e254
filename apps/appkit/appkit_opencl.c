/* apps/appkit/appkit_opencl.c - appkit_opencl.h. */
#include <stdarg.h>

#include "appkit.h"
#include "appkit_opencl.h"

static gs_status note(gs_status st, char *error, size_t error_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gsa_vnote(error, error_size, fmt, ap);
    va_end(ap);
    return st;
}

cl_int gsa_cl_span_ns(cl_event first, cl_event last, double *ns)
{
    cl_ulong t0 = 0, t1 = 0;
    cl_int err = clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    if (err == CL_SUCCESS)
        *ns = t1 > t0 ? (double)(t1 - t0) : 0.0;
    return err;
}

gs_status gsa_cl_fail(cl_int err, const char *what, char *error, size_t error_size)
{
    return note(GS_ERR_NATIVE, error, error_size, "%s: OpenCL error %d", what, (int)err);
}

gs_status gsa_cl_span(cl_event first, cl_event last, double *ns, char *error, size_t error_size)
{
    cl_int err = gsa_cl_span_ns(first, last, ns);
    return err == CL_SUCCESS ? GS_OK
                             : gsa_cl_fail(err, "clGetEventProfilingInfo", error, error_size);
}

gs_status gsa_cl_build(gs_device *dev, const char *source, const char *options, cl_program *program,
                       char *error, size_t error_size)
{
    char log[160];
    gs_status st = gs_opencl_build_program(dev, source, options, program, log, sizeof log);
    return st == GS_OK ? GS_OK : note(st, error, error_size, "gs_opencl_build_program: %s", log);
}

gs_status gsa_cl_kernel(cl_program program, const char *name, cl_kernel *out, char *error,
                        size_t error_size)
{
    cl_int err;
    *out = clCreateKernel(program, name, &err);
    return err == CL_SUCCESS ? GS_OK : gsa_cl_fail(err, name, error, error_size);
}

gs_status gsa_cl_relaunch_end(cl_command_queue queue, cl_int err, cl_event first, cl_event last,
                              double *ns, char *error, size_t error_size)
{
    if (err == CL_SUCCESS)
        err = clFinish(queue);
    gs_status st = err == CL_SUCCESS
                       ? gsa_cl_span(first, last ? last : first, ns, error, error_size)
                       : gsa_cl_fail(err, "clEnqueueNDRangeKernel (relaunch)", error, error_size);
    if (first)
        clReleaseEvent(first);
    if (last)
        clReleaseEvent(last);
    return st;
}
