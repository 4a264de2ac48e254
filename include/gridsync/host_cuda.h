/* gridsync/host_cuda.h - the host side of gridsync for users who write their own CUDA
 * kernels.
 *
 * A kernel includes gridsync/cuda.cuh, takes the barrier state as a `gs_word *`
 * argument and calls
 *     gs_grid g = gs_grid_begin(state);
 *     ... if (gs_sync(&g)) return; ...
 * (or the split-phase gs_arrive / gs_wait_token of gridsync/barrier.h). Launch it through
 * gs_cuda_launch, which checks that THIS kernel (its registers, its shared memory) can
 * have every group resident, launches it cooperatively (plus the cluster dimension for
 * GS_ALGO_CLUSTER), waits for it and turns a barrier abort into GS_ERR_TIMEOUT and
 * friends:
 *
 *     __global__ void my_kernel(gs_word *state, float *x);
 *     gs_device *dev; gs_barrier *bar; void *state;
 *     gs_device_open(GS_BACKEND_CUDA, 0, &dev);
 *     gs_barrier_create(dev, GS_ALGO_FLIP, groups, &bar);
 *     gs_cuda_state(bar, &state);
 *     void *args[] = {&state, &x};
 *     gs_status s = gs_cuda_launch(bar, (const void *)my_kernel, groups, 256, 0, args, NULL);
 *
 * Protocols: every one but relaunch and relaunch-graph (GS_ERR_UNSUPPORTED: the
 * library cannot cut a user's kernel into phases). cg cannot time out (see cuda.cuh).
 * For cluster the library picks the cluster size (GRIDSYNC_CLUSTER_SIZE overrides);
 * do not give such a kernel a compile-time __cluster_dims__. A kernel that needs more
 * than 48 KiB of dynamic shared memory must have cudaFuncAttributeMaxDynamicSharedMemorySize
 * set by the caller first. Calls on one device are not thread-safe.
 *
 * Every function returns GS_ERR_INVALID_ARGUMENT for a null pointer and GS_ERR_UNSUPPORTED
 * for a device or barrier of another back end. */
#ifndef GRIDSYNC_HOST_CUDA_H
#define GRIDSYNC_HOST_CUDA_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Launches `kernel` (a __global__ function's address) as `groups` 1-D blocks of
 * `group_size` threads with `shared_bytes` of dynamic shared memory and the
 * cudaLaunchKernel-style `args`, on `stream` (a cudaStream_t; NULL: the default
 * stream), through barrier `b`, and waits for it.
 * GS_ERR_INVALID_ARGUMENT when groups differs from the barrier's or group_size exceeds
 * what the kernel allows; GS_ERR_TOO_MANY_GROUPS when the groups cannot be
 * co-resident; GS_ERR_NEEDS_RESET after an abort that was not reset; after the launch
 * whatever the barrier's abort line says (GS_ERR_TIMEOUT, GS_ERR_BAD_STATE, ...);
 * GS_ERR_NATIVE when CUDA fails (gs_device_native_error says how). */
gs_status gs_cuda_launch(gs_barrier *b, const void *kernel, unsigned groups, unsigned group_size,
                         size_t shared_bytes, void **args, void *stream);

/* The same, and the kernel's device time from CUDA events (elapsed_ns may be NULL). */
gs_status gs_cuda_launch_timed(gs_barrier *b, const void *kernel, unsigned groups,
                               unsigned group_size, size_t shared_bytes, void **args,
                               void *stream, double *elapsed_ns);

/* The barrier state's device pointer (a `gs_word *` for the kernel). */
gs_status gs_cuda_state(const gs_barrier *b, void **device_ptr);

/* The co-residency bound of `kernel` on the device: the most groups of `group_size`
 * threads with `shared_bytes` of dynamic shared memory that can run at once. */
gs_status gs_cuda_max_groups(gs_device *dev, const void *kernel, unsigned group_size,
                             size_t shared_bytes, unsigned *out);

/* The cluster size a GS_ALGO_CLUSTER launch of `kernel` with this grid would use
 * (1 when no larger cluster fits); GS_ERR_TOO_MANY_GROUPS / GS_ERR_INVALID_ARGUMENT
 * when GRIDSYNC_CLUSTER_SIZE names a size that does not fit or divide the grid. */
gs_status gs_cuda_cluster_size(gs_device *dev, const void *kernel, unsigned groups,
                               unsigned group_size, size_t shared_bytes, unsigned *out);

/* The CUDA device ordinal behind a gridsync device (for cudaSetDevice). */
gs_status gs_cuda_ordinal(const gs_device *dev, int *ordinal);

#ifdef __cplusplus
}
#endif

#endif
