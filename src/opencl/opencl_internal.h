/* src/opencl/opencl_internal.h - the top layers of the OpenCL back end: the ops table
 * (device_opencl.c) and the files it calls besides build.c and calibrate.c
 * (cl_device.h lists the layers). */
#ifndef GRIDSYNC_OPENCL_INTERNAL_H
#define GRIDSYNC_OPENCL_INTERNAL_H

#include "cl_build.h"

/* platforms.c: GRIDSYNC_OPENCL_ICD's libraries handed to the ICD loader (once, before
 * the process's first OpenCL call), and GRIDSYNC_OPENCL_PLATFORM's choice. */
void gs_cl_load_icds(void);
int gs_cl_platform_wanted(cl_platform_id p);

/* enumerate.c */
int gs_cl_count(void);
gs_status gs_cl_open(int index, gs_device **out);
void gs_cl_close(gs_device *dev);

/* discover.c: occupancy discovery (gridsync/discover.h) */
gs_status gs_cl_discover(gs_device *dev, unsigned group_size, unsigned *out);

/* user_launch.c: gs_backend_ops.collect. */
gs_status gs_cl_collect(gs_device *dev, gs_barrier *b);

#endif
