/* src/opencl/cl_build.h - gridsync's program (build.c) and the deadline calibration
 * (calibrate.c): the layer above native.c that opening and launching use. */
#ifndef GRIDSYNC_CL_BUILD_H
#define GRIDSYNC_CL_BUILD_H

#include "cl_device.h"

/* build.c: builds the relaunch variant of gridsync's program (and the calibration
 * kernel) with the first ordering that works; sets build_status, build_options,
 * build_log, info.ordering, calib_kernel and kernel_wg_size. */
gs_status gs_cl_build(gs_cl_device *d);
/* The built-in kernel for `algo`, built at the first call. */
gs_status gs_cl_kernel_for(gs_cl_device *d, gs_algo algo, cl_kernel *kernel, size_t *wg_size);
/* Releases every build and the log. */
void gs_cl_release_builds(gs_cl_device *d);

/* calibrate.c: a wait bound of `milliseconds` in polls (calibrated at the first call). */
uint64_t gs_cl_timeout_units(gs_device *dev, unsigned milliseconds);
/* Source of the calibration kernel, appended to the program by build.c. */
extern const char gs_cl_calibrate_source[];

#endif
