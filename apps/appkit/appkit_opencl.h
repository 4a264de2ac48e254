/* apps/appkit/appkit_opencl.h - appkit.h's part for the applications' OpenCL back ends. */
#ifndef GRIDSYNC_APPKIT_OPENCL_H
#define GRIDSYNC_APPKIT_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

/* The device time from the start of `first` to the end of `last` (both ended, on a
 * profiling queue), in ns. */
cl_int gsa_cl_span_ns(cl_event first, cl_event last, double *ns);

#endif
