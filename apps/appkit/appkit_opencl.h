/* apps/appkit/appkit_opencl.h - appkit.h's part for the applications' OpenCL back ends.
 * The calls that can fail write what failed into the caller's error buffer (the first
 * failure wins, as gsa_vnote) and return the status. */
#ifndef GRIDSYNC_APPKIT_OPENCL_H
#define GRIDSYNC_APPKIT_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <stddef.h>

#include "gridsync/host_opencl.h"

/* The device time from the start of `first` to the end of `last` (both ended, on a
 * profiling queue), in ns. */
cl_int gsa_cl_span_ns(cl_event first, cl_event last, double *ns);

/* gsa_cl_span_ns with its failure in error: GS_ERR_NATIVE. */
gs_status gsa_cl_span(cl_event first, cl_event last, double *ns, char *error, size_t error_size);

/* The application's kernels (`source`, after gridsync's device text, with gridsync's
 * options and `options`: gs_opencl_build_program) into *program; a failed build puts the
 * start of the compiler's log into error. */
gs_status gsa_cl_build(gs_device *dev, const char *source, const char *options, cl_program *program,
                       char *error, size_t error_size);

/* Kernel `name` of the program into *out; GS_ERR_NATIVE, naming it, where it cannot be
 * made. */
gs_status gsa_cl_kernel(cl_program program, const char *name, cl_kernel *out, char *error,
                        size_t error_size);

/* The end of a relaunch baseline's loop of launches, the first of whose failures was `err`
 * (CL_SUCCESS: none): waits for the queue, takes the device time from the start of
 * `first` to the end of `last` (NULL: first's own, one launch), releases both events.
 * A failure's "clEnqueueNDRangeKernel (relaunch): OpenCL error N" goes into error. */
gs_status gsa_cl_relaunch_end(cl_command_queue queue, cl_int err, cl_event first, cl_event last,
                              double *ns, char *error, size_t error_size);

/* GS_ERR_NATIVE with "what: OpenCL error N" in error: an OpenCL call's failure. */
gs_status gsa_cl_fail(cl_int err, const char *what, char *error, size_t error_size);

#endif
