/* gridsync/host_cuda.h - the host side of gridsync for users who write their own CUDA
 * kernels (docs/using.md is the guide; examples/cuda_ring.cu a whole program).
 *
 * A kernel includes gridsync/cuda.cuh, takes the barrier state as a `gs_word *`
 * argument and names its protocol:
 *     gs_grid g = gs_grid_begin_flip(state);
 *     ... if (gs_sync_flip(&g)) return; ...
 * Launch it through gs_cuda_launch (waits) or gs_cuda_launch_async (returns once the
 * kernel is enqueued on the stream; gs_barrier_collect gives its status later). Either
 * checks that THIS kernel (its registers, its shared memory, the block's shape) can have
 * every group resident, launches it cooperatively (plus the cluster dimension for
 * GS_ALGO_CLUSTER), and turns a barrier abort into GS_ERR_TIMEOUT and friends:
 *
 *     __global__ void my_kernel(gs_word *state, float *x);
 *     gs_device *dev; gs_barrier *bar; void *state;
 *     gs_device_open(GS_BACKEND_CUDA, 0, &dev);
 *     gs_barrier_create(dev, GS_ALGO_FLIP, groups, &bar);
 *     gs_cuda_state(bar, &state);
 *     void *args[] = {&state, &x};
 *     gs_status s = gs_cuda_launch(bar, (const void *)my_kernel, GS_DIM3_1D(groups),
 *                                  GS_DIM3_1D(256), 0, args, stream);
 *
 * Grids and blocks may be 2- or 3-D (gs_dim3, as dim3); the barrier's group count is the
 * product of the grid's dimensions. A launch with another block size (threads per block)
 * than the barrier's last one resets the state first (naive counts threads: a state
 * counting another size would give wrong answers or false timeouts).
 *
 * One launch at a time per barrier: a second launch before the first is collected (by
 * gs_cuda_launch itself, or gs_barrier_collect) is GS_ERR_BUSY, from any thread; launches
 * through different barriers may run at once on different streams.
 *
 * CUDA graphs: gs_cuda_launch_async on a stream that is being captured adds the launch
 * (a cooperative kernel node after a small memset node that clears the state's
 * acknowledgement) to the graph and leaves the barrier free; each replay is such a
 * launch. After a replay has finished (synchronize its stream), gs_barrier_collect reads
 * its status. A captured launch cannot change the block size (GS_ERR_INVALID_ARGUMENT:
 * launch once outside the capture first); a replay after an abort leaves at once.
 *
 * Protocols: every one but relaunch and relaunch-graph (GS_ERR_UNSUPPORTED: the
 * library cannot cut a user's kernel into phases). cg cannot time out (see
 * barrier_cg.cuh). For cluster the library picks the cluster size along x, dividing
 * grid.x (GRIDSYNC_CLUSTER_SIZE overrides); do not give such a kernel a compile-time
 * __cluster_dims__. A kernel that needs more than 48 KiB of dynamic shared memory must
 * have cudaFuncAttributeMaxDynamicSharedMemorySize set by the caller first.
 *
 * Every function returns GS_ERR_INVALID_ARGUMENT for a null pointer or a zero dimension
 * and GS_ERR_UNSUPPORTED for a device or barrier of another back end. */
#ifndef GRIDSYNC_HOST_CUDA_H
#define GRIDSYNC_HOST_CUDA_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Launches `kernel` (a __global__ function's address) as a `grid` of `block`-shaped
 * groups with `shared_bytes` of dynamic shared memory and the cudaLaunchKernel-style
 * `args`, on `stream` (a cudaStream_t; NULL: the default stream), through barrier `b`,
 * and waits for it: for the whole stream (cudaStreamSynchronize), so work another thread
 * enqueues on `stream` meanwhile is waited for too (use gs_cuda_launch_async and
 * gs_barrier_collect to wait for the kernel alone). GS_ERR_INVALID_ARGUMENT when the
 * grid's groups differ from the barrier's or the block exceeds what the kernel allows;
 * GS_ERR_TOO_MANY_GROUPS when the groups cannot be co-resident; GS_ERR_NEEDS_RESET after
 * an abort that was not reset; GS_ERR_BUSY while another launch through `b` is in flight;
 * after the launch whatever the barrier's state says (GS_ERR_TIMEOUT, GS_ERR_BAD_STATE,
 * ...); GS_ERR_NATIVE when CUDA fails (gs_device_native_error says how). */
GS_API gs_status gs_cuda_launch(gs_barrier *b, const void *kernel, gs_dim3 grid, gs_dim3 block,
                                size_t shared_bytes, void **args, void *stream);

/* The same, and the kernel's device time from CUDA events (elapsed_ns may be NULL). */
GS_API gs_status gs_cuda_launch_timed(gs_barrier *b, const void *kernel, gs_dim3 grid,
                                      gs_dim3 block, size_t shared_bytes, void **args, void *stream,
                                      double *elapsed_ns);

/* The same checks, then enqueues the launch on `stream` and returns: GS_OK once it is
 * enqueued (or captured). gs_barrier_collect(b) waits for it and returns its status. */
GS_API gs_status gs_cuda_launch_async(gs_barrier *b, const void *kernel, gs_dim3 grid,
                                      gs_dim3 block, size_t shared_bytes, void **args,
                                      void *stream);

/* The barrier state's device pointer (a `gs_word *` for the kernel). */
GS_API gs_status gs_cuda_state(const gs_barrier *b, void **device_ptr);

/* The co-residency bound of `kernel` on the device: the most groups of `group_size`
 * threads (the product of the block's dimensions) with `shared_bytes` of dynamic shared
 * memory that can run at once. */
GS_API gs_status gs_cuda_max_groups(gs_device *dev, const void *kernel, unsigned group_size,
                                    size_t shared_bytes, unsigned *out);

/* The cluster size a GS_ALGO_CLUSTER launch of `kernel` with this 1-D grid would use
 * (1 when no larger cluster fits); GS_ERR_TOO_MANY_GROUPS / GS_ERR_INVALID_ARGUMENT
 * when GRIDSYNC_CLUSTER_SIZE names a size that does not fit or divide the grid. */
GS_API gs_status gs_cuda_cluster_size(gs_device *dev, const void *kernel, unsigned groups,
                                      unsigned group_size, size_t shared_bytes, unsigned *out);

/* The CUDA device ordinal behind a gridsync device (for cudaSetDevice). */
GS_API gs_status gs_cuda_ordinal(const gs_device *dev, int *ordinal);

#ifdef __cplusplus
}
#endif

#endif
