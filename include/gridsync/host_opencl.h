/* gridsync/host_opencl.h - the host side of gridsync for users who write their own
 * OpenCL kernels (docs/using.md is the guide).
 *
 * A user program is gs_opencl_device_source() (the shim and every protocol, as one
 * text) followed by the user's kernels, built with gs_opencl_build_options() in the
 * context returned by gs_opencl_handles(); gs_opencl_build_program does all of that in
 * one call. A kernel takes the barrier state as a
 * `__global gs_word *` argument (pass the cl_mem from gs_barrier_native) and names its
 * protocol:
 *     gs_grid g = gs_grid_begin_flip(state);
 *     ... if (gs_sync_flip(&g)) return; ...
 * (gs_grid_begin / gs_sync, the run-time choice, compile wrongly on PoCL 3.1: barriers
 * inside a switch over protocols; name the protocol there). Split phase (gs_arrive_<p>,
 * gs_wait_token_<p>) works on PoCL too: gs_arrive ends with a group barrier, which PoCL
 * needs, and `gridsync check` runs it there (its mp-split test; ctest check_opencl).
 * The relaunch baselines are for gs_run alone: a launch through such a barrier is
 * GS_ERR_UNSUPPORTED (gridsync.h). Launch it
 * through gs_opencl_launch (waits) or gs_opencl_launch_async (returns once enqueued;
 * gs_barrier_collect gives the status), which refuse a grid that cannot be co-resident
 * and turn a barrier abort into GS_ERR_TIMEOUT and friends:
 *
 *     gs_device *dev; gs_barrier *bar; cl_program p; char log[512]; void *state;
 *     gs_device_open(GS_BACKEND_OPENCL, 0, &dev);
 *     gs_barrier_create(dev, GS_ALGO_FLIP, groups, &bar);
 *     if (gs_opencl_build_program(dev, my_kernels, NULL, &p, log, sizeof log) != GS_OK)
 *         fprintf(stderr, "%s\n", log);
 *     cl_kernel k = clCreateKernel(p, "my_kernel", &err);
 *     gs_barrier_native(bar, &state);
 *     cl_mem m = (cl_mem)state;
 *     clSetKernelArg(k, 0, sizeof m, &m);
 *     size_t ngroups = groups, local = 64;
 *     gs_status s = gs_opencl_launch(bar, k, 1, &ngroups, &local, NULL);
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
#include "gridsync/host_local.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The device-side headers (shim, state layout, every protocol) as one OpenCL C text,
 * without #include lines, to put before a user's kernels. Never NULL. */
GS_API const char *gs_opencl_device_source(void);

/* The options that built gridsync's program on the device: -cl-std=... and
 * -DGS_CL_ORDERING=N (and the test-only definitions a weakened library uses).
 * GS_ERR_BUILD if no ordering built on this device, GS_ERR_SMALL_BUFFER if the text
 * and its terminating zero do not fit in `size` bytes. */
GS_API gs_status gs_opencl_build_options(const gs_device *dev, char *buf, size_t size);

/* The logs of the device's builds of gridsync's program, one attempt after another,
 * each after a line "[options] built|failed (cl error)": after GS_ERR_BUILD, why no
 * ordering built; else why the stronger orderings did not (often just one line).
 * Never NULL on GS_OK; valid until gs_device_close. */
GS_API gs_status gs_opencl_build_log(const gs_device *dev, const char **log);

/* Builds the user's kernels for the device: gs_opencl_device_source(), then `source`
 * (its lines numbered from 1 in the compiler's messages, as in the user's own file),
 * in the device's context, with gs_opencl_build_options() followed by `options` (NULL
 * or the user's own, e.g. "-DTILE=16"). *out receives the program, the caller's to
 * release (clReleaseProgram); NULL on failure. `log` (may be NULL) receives, cut to
 * log_size - 1 bytes and terminated, the compiler's log after GS_ERR_BUILD and a line
 * saying what failed after any other status; "" on GS_OK. GS_ERR_INVALID_ARGUMENT for a
 * NULL source or out, a device of another back end, or options the compiler refuses;
 * GS_ERR_OUT_OF_MEMORY; GS_ERR_NATIVE when another OpenCL call fails; gridsync's own
 * program's status where it did not build on the device. */
GS_API gs_status gs_opencl_build_program(gs_device *dev, const char *source, const char *options,
                                         cl_program *out, char *log, size_t log_size);

/* The device's context, in-order profiling queue and device id. Any out-pointer may
 * be NULL. */
GS_API gs_status gs_opencl_handles(const gs_device *dev, cl_context *ctx, cl_command_queue *queue,
                                   cl_device_id *id);

/* The calibration of the device-side deadline (OpenCL C has no clock: a wait counts
 * its polls): how many polls of one waiting work-item last a millisecond. Measured
 * once per device, at the first call or the first barrier; *measured (may be NULL)
 * is 0 where the measurement failed and a conservative default is used. */
GS_API gs_status gs_opencl_polls_per_ms(gs_device *dev, uint64_t *polls_per_ms, int *measured);

/* Launches a user kernel whose arguments are set, as a `work_dim`-dimensional grid
 * (1 to 3) of groups[d] work-groups of group_size[d] work-items in each dimension d
 * (the NDRange's global size is their product), on the device's queue, through barrier
 * `b`, and waits for it. Groups and work-items are numbered linearly, dimension 0
 * fastest. GS_ERR_TOO_MANY_GROUPS when the groups cannot be co-resident,
 * GS_ERR_INVALID_ARGUMENT when the group count differs from the barrier's or the group
 * size exceeds what the kernel allows, GS_ERR_NEEDS_RESET after an abort that was not
 * reset, GS_ERR_BUSY while another launch through `b` is in flight, and after the launch
 * whatever the barrier's state says (GS_ERR_TIMEOUT, GS_ERR_BAD_STATE, ...). A launch with
 * another group size than the last one resets the state first. elapsed_ns (may be NULL)
 * receives the kernel's device time from profiling events. */
GS_API gs_status gs_opencl_launch(gs_barrier *b, cl_kernel kernel, cl_uint work_dim,
                                  const size_t *groups, const size_t *group_size,
                                  double *elapsed_ns);

/* The same checks, then enqueues the kernel on `queue` (NULL: the device's queue, which
 * profiles) and returns; gs_barrier_collect(b) waits for it and returns its status. */
GS_API gs_status gs_opencl_launch_async(gs_barrier *b, cl_kernel kernel, cl_command_queue queue,
                                        cl_uint work_dim, const size_t *groups,
                                        const size_t *group_size);

/* Launches a kernel of local synchronization (gridsync/local.h) on the state of L, whose
 * arguments are set, as gs_opencl_launch shapes a grid, on the device's queue, and waits
 * for it: gs_local_prepare, the launch, gs_local_collect's verdict (GS_ERR_TIMEOUT with
 * gs_local_abort_info, GS_ERR_BAD_STATE when the kernel never began the state). Any
 * number of groups: local synchronization needs no co-residency. GS_ERR_INVALID_ARGUMENT
 * for a NULL argument, a state of another back end, a bad shape or a group larger than
 * the kernel allows; GS_ERR_NATIVE when OpenCL fails. elapsed_ns (may be NULL) receives
 * the kernel's device time from profiling events. The cpu back end's twin is
 * gs_cpu_launch_local (gridsync/host_cpu.h). */
GS_API gs_status gs_opencl_launch_local(gs_local *L, cl_kernel kernel, cl_uint work_dim,
                                        const size_t *groups, const size_t *group_size,
                                        double *elapsed_ns);

#ifdef __cplusplus
}
#endif

#endif
