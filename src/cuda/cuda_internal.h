/* src/cuda/cuda_internal.h - the CUDA back end's runtime, shared by its files.
 *
 * The host code is C (device_cuda.c, host_cuda.c) over the CUDA runtime's C API;
 * the kernels live in .cu files and are reached through C accessors. */
#ifndef GRIDSYNC_SRC_CUDA_INTERNAL_H
#define GRIDSYNC_SRC_CUDA_INTERNAL_H

#include "gridsync/protocols.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The host stubs of the built-in kernel, three per protocol (kernel_<name>.cu, see
 * kernel_algo.cuh: `form` one of GS_FORM_* of kernels/workloads.h), for
 * cudaLaunchKernelExC. */
#define GS_CUDA_KERNEL_DECL_(ID, name, value, text, desc) const void *gs_cuda_kernel_##name(int form);
GS_PROTOCOLS_SHARED(GS_CUDA_KERNEL_DECL_)
GS_PROTOCOLS_CUDA(GS_CUDA_KERNEL_DECL_)
#undef GS_CUDA_KERNEL_DECL_
const void *gs_cuda_kernel_relaunch(int form);

#ifdef __cplusplus
}
#endif

#ifndef __CUDACC__
#include <cuda_runtime_api.h>

#include "common/internal.h"

/* The built-in kernel for `algo` (relaunch and relaunch-graph share one): with_compute 1
 * for the one with the independent work and the split phase (gs_work_params.compute,
 * .split). */
const void *gs_cuda_work_kernel(gs_algo algo, int with_compute);

typedef struct gs_cuda_device {
    struct gs_device base; /* first: the common code sees a gs_device */
    int ordinal;
    unsigned sms;
    int coop;         /* cudaDevAttrCooperativeLaunch */
    int clusters;     /* compute capability 9.0 or newer */
    int cluster_coop; /* the driver accepts cooperative + cluster launches: -1 not tried yet */
    cudaStream_t stream;
    cudaEvent_t start, stop;
} gs_cuda_device;

struct gs_mem {
    void *ptr;
    size_t bytes;
};

/* Maps a CUDA error to a status and records it on the device (clears a non-sticky
 * error): cooperative launch too large -> GS_ERR_TOO_MANY_GROUPS, allocation ->
 * GS_ERR_OUT_OF_MEMORY, everything else GS_ERR_NATIVE. */
gs_status gs_cuda_fail(gs_device *dev, cudaError_t e, const char *what);

/* The co-residency bound of `kernel` with this block size and dynamic shared memory:
 * the occupancy API times the SMs. */
gs_status gs_cuda_kernel_bound(gs_cuda_device *d, const void *kernel, unsigned group_size,
                               size_t shared_bytes, unsigned *out);

/* The cluster size the cluster protocol uses for this grid: GRIDSYNC_CLUSTER_SIZE if
 * set, else the largest of 8, 4, 2 that divides the grid's x extent `x_groups` and keeps
 * groups/size clusters within cudaOccupancyMaxActiveClusters, else 1 (a degenerate
 * cluster per block). */
gs_status gs_cuda_pick_cluster(gs_cuda_device *d, const void *kernel, unsigned groups,
                               unsigned x_groups, unsigned group_size, size_t shared_bytes,
                               unsigned *out);

/* Enqueues `kernel` on `stream` so that every group is co-resident (refusing the grid
 * with GS_ERR_TOO_MANY_GROUPS otherwise): cooperative launch, plus the cluster dimension
 * (along x, dividing grid.x) for GS_ALGO_CLUSTER. Does not wait. */
gs_status gs_cuda_enqueue_resident(gs_cuda_device *d, const void *kernel, gs_algo algo,
                                   gs_dim3 grid, gs_dim3 block, size_t shared_bytes,
                                   void **args, cudaStream_t stream);

/* gs_backend_ops.collect (host_cuda.c). */
gs_status gs_cuda_collect(gs_device *dev, gs_barrier *b);

extern const gs_backend_ops gs_cuda_ops;
#endif

#endif
