/* apps/appkit/appkit_opencl.c - appkit_opencl.h. */
#include "appkit_opencl.h"

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
