/* gridsync/host_opencl.h - the host side of gridsync for users who write their own
 * OpenCL kernels.
 *
 * A user program is gs_opencl_device_source() (the shim and every protocol, as one
 * text) followed by the user's kernels, built with gs_opencl_barrier_build_options()
 * (one protocol, -DGS_ONLY_ALGO) or gs_opencl_build_options() (every protocol, chosen
 * at run time) in the context returned by gs_opencl_handles(). On PoCL's CPU device
 * use the former: PoCL 3.1 miscompiles work-group barriers inside the run-time choice
 * of protocol (see gridsync/barrier.h); there, use gs_sync, not the split-phase
 * gs_arrive / gs_wait_token, which PoCL 3.1 compiles wrongly (barriers that do not
 * hold, or its compiler aborting for work-groups of 1-2 work-items). A kernel takes
 * the barrier state as a
 * `__global gs_word *` argument (pass the cl_mem from gs_barrier_native) and calls
 *     gs_grid g = gs_grid_begin(state);
 *     ... if (gs_sync(&g)) return; ...
 * Launch it through gs_opencl_launch, which refuses a grid that cannot be co-resident
 * and turns a barrier abort into GS_ERR_TIMEOUT and friends:
 *
 *     gs_device *dev; gs_barrier *bar; cl_context ctx; cl_command_queue q; cl_device_id id;
 *     char opts[256]; void *state;
 *     gs_device_open(GS_BACKEND_OPENCL, 0, &dev);
 *     gs_opencl_handles(dev, &ctx, &q, &id);
 *     gs_barrier_create(dev, GS_ALGO_FLIP, groups, &bar);
 *     gs_opencl_barrier_build_options(bar, opts, sizeof opts);
 *     const char *srcs[2] = {gs_opencl_device_source(), my_kernels};
 *     cl_program p = clCreateProgramWithSource(ctx, 2, srcs, NULL, &err);
 *     clBuildProgram(p, 1, &id, opts, NULL, NULL);
 *     cl_kernel k = clCreateKernel(p, "my_kernel", &err);
 *     gs_barrier_native(bar, &state);
 *     cl_mem m = (cl_mem)state;
 *     clSetKernelArg(k, 0, sizeof m, &m);
 *     gs_status s = gs_opencl_launch(bar, k, groups, 64, NULL);
 *
 * The handles belong to the device: do not release them; they stay valid until
 * gs_device_close. Every function returns GS_ERR_INVALID_ARGUMENT for a device or
 * barrier of another back end. */
#ifndef GRIDSYNC_HOST_OPENCL_H
#define GRIDSYNC_HOST_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The device-side headers (shim, state layout, every protocol) as one OpenCL C text,
 * without #include lines, to put before a user's kernels. Never NULL. */
const char *gs_opencl_device_source(void);

/* The options that built gridsync's program on the device: -cl-std=... and
 * -DGS_CL_ORDERING=N (and the test-only -DGS_WEAKEN_* a weakened library uses).
 * GS_ERR_BUILD if no ordering built on this device, GS_ERR_SMALL_BUFFER if the text
 * and its terminating zero do not fit in `size` bytes. */
gs_status gs_opencl_build_options(const gs_device *dev, char *buf, size_t size);

/* The same options plus -DGS_ONLY_ALGO=<the barrier's protocol>: a program that holds
 * that protocol alone (a state of another protocol ends its launches with
 * GS_ERR_BAD_STATE). What gridsync builds its own kernels with. */
gs_status gs_opencl_barrier_build_options(const gs_barrier *b, char *buf, size_t size);

/* The logs of the device's builds of gridsync's program, one attempt after another,
 * each after a line "[options] built|failed (cl error)": after GS_ERR_BUILD, why no
 * ordering built; else why the stronger orderings did not (often just one line).
 * Never NULL on GS_OK; valid until gs_device_close. */
gs_status gs_opencl_build_log(const gs_device *dev, const char **log);

/* The device's context, in-order profiling queue and device id. Any out-pointer may
 * be NULL. */
gs_status gs_opencl_handles(const gs_device *dev, cl_context *ctx, cl_command_queue *queue,
                            cl_device_id *id);

/* The calibration of the device-side deadline (OpenCL C has no clock: a wait counts
 * its polls): how many polls of one waiting work-item last a millisecond. Measured
 * once per device, at the first call or the first barrier; *measured (may be NULL)
 * is 0 where the measurement failed and a conservative default is used. */
gs_status gs_opencl_polls_per_ms(gs_device *dev, uint64_t *polls_per_ms, int *measured);

/* Launches a user kernel whose arguments are set, as `groups` work-groups of
 * `group_size` work-items (1-D), through barrier `b`, and waits for it.
 * GS_ERR_TOO_MANY_GROUPS when the groups cannot be co-resident,
 * GS_ERR_INVALID_ARGUMENT when group_size exceeds what the kernel allows,
 * GS_ERR_NEEDS_RESET after an abort that was not reset, and after the launch whatever
 * the barrier's abort line says (GS_ERR_TIMEOUT, GS_ERR_BAD_STATE, ...).
 * elapsed_ns (may be NULL) receives the kernel's device time from profiling events. */
gs_status gs_opencl_launch(gs_barrier *b, cl_kernel kernel, size_t groups, size_t group_size,
                           double *elapsed_ns);

#ifdef __cplusplus
}
#endif

#endif
