/* src/cuda/cuda_internal.h - the CUDA back end's runtime, shared by its files.
 *
 * The host code is C over the CUDA runtime's C API; the kernels live in .cu files and
 * are reached through C accessors. The files depend one way, each only on those below:
 *   device_cuda.c    the gs_backend_ops table
 *   host_cuda.c      the public functions of gridsync/host_cuda.h, gs_backend_ops.collect
 *   multi_cuda.c     a barrier across GPUs: peer access, launches (gridsync/host_multi.h)
 *   local_cuda.c     local synchronization's prepare (kernel_local.cu) and stream waits
 *   launch_cuda.c    launches of the built-in kernel, the resident enqueue
 *   bounds_cuda.c    co-residency bounds, supported protocols, cluster sizes
 *   place_cuda.c     where a flip state's counter lies in L2 (place_probe.cu)
 *   open_cuda.c memory_cuda.c kernels_cuda.c  devices, buffers, kernel choice
 *   native_cuda.c    CUDA errors */
#ifndef GRIDSYNC_SRC_CUDA_INTERNAL_H
#define GRIDSYNC_SRC_CUDA_INTERNAL_H

#include "gridsync/protocols.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The host stubs of the built-in kernel, three per protocol (kernel_<name>.cu, see
 * kernel_algo.cuh: `form` one of GS_FORM_* of kernels/workloads.h), for
 * cudaLaunchKernelExC. */
#define GS_CUDA_KERNEL_DECL_(ID, name, value, text, desc) \
    const void *gs_cuda_kernel_##name(int form);
GS_PROTOCOLS_SHARED(GS_CUDA_KERNEL_DECL_)
GS_PROTOCOLS_CUDA(GS_CUDA_KERNEL_DECL_)
#undef GS_CUDA_KERNEL_DECL_
const void *gs_cuda_kernel_relaunch(int form);
/* kernel_local.cu: enqueues local synchronization's prepare kernel on `stream` (a
 * cudaStream_t); returns the cudaError_t of the launch. */
int gs_cuda_local_prepare_enqueue(void *state, unsigned clear, void *stream);
/* place_probe.cu: enqueues `rounds` flip episodes of `groups` 32-thread blocks on the
 * counter at `counter` (a cooperative launch), the last `rounds - warm` of them timed in
 * clock cycles into counter[2]; returns the launch's cudaError_t. */
int gs_cuda_place_probe_enqueue(void *counter, unsigned groups, unsigned rounds, unsigned warm,
                                void *stream);

#ifdef __cplusplus
}
#endif

#ifndef __CUDACC__
#include <cuda_runtime_api.h>

#include "common/internal.h"

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
    void *ptr;    /* the buffer: base, or base shifted by whole lines (place_cuda.c) */
    void *base;   /* the allocation */
    size_t span;  /* its bytes: those asked for, rounded up to whole lines */
    size_t bytes; /* the buffer's, from ptr: those asked for, less a placement's shift */
};

static inline gs_cuda_device *gs_cuda(gs_device *dev) { return (gs_cuda_device *)dev; }
/* Whether `dev` is an open device of this back end: by its id, so that no file below
 * device_cuda.c needs the ops table defined there. */
static inline int gs_cuda_is_ours(const gs_device *dev)
{
    return dev != NULL && dev->ops != NULL && dev->ops->id == GS_BACKEND_CUDA;
}

/* native_cuda.c: maps a CUDA error to a status and records it on the device (clears a
 * non-sticky error): cooperative launch too large -> GS_ERR_TOO_MANY_GROUPS, allocation
 * -> GS_ERR_OUT_OF_MEMORY, everything else GS_ERR_NATIVE. */
gs_status gs_cuda_fail(gs_device *dev, cudaError_t e, const char *what);

/* open_cuda.c: gs_backend_ops.count, .open, .close */
int gs_cuda_count(void);
gs_status gs_cuda_open(int index, gs_device **out);
void gs_cuda_close(gs_device *dev);

/* memory_cuda.c: gs_backend_ops.mem_* */
gs_status gs_cuda_mem_alloc(gs_device *dev, size_t bytes, gs_mem **out);
void gs_cuda_mem_free(gs_device *dev, gs_mem *m);
gs_status gs_cuda_mem_write(gs_device *dev, gs_mem *m, size_t off, const void *src, size_t n);
gs_status gs_cuda_mem_read(gs_device *dev, gs_mem *m, size_t off, void *dst, size_t n);
void *gs_cuda_mem_native(gs_mem *m);
/* place_cuda.c: gs_backend_ops.place_counter */
gs_status gs_cuda_place_counter(gs_device *dev, gs_mem *m, size_t state_bytes,
                                size_t counter_offset, unsigned groups, unsigned lines);

/* kernels_cuda.c: the built-in kernel for `algo` (relaunch and relaunch-graph share
 * one) in `form` (GS_FORM_*), and the form a launch with these parameters needs. */
const void *gs_cuda_work_kernel(gs_algo algo, int form);
int gs_cuda_kernel_form(const gs_work_params *prm);

/* bounds_cuda.c */
/* The launch configuration of `grid` x `block` on `stream`, without attributes. */
void gs_cuda_set_grid(cudaLaunchConfig_t *cfg, gs_dim3 grid, gs_dim3 block, size_t shared_bytes,
                      cudaStream_t stream);
/* The co-residency bound of `kernel` with this block size and dynamic shared memory:
 * the occupancy API times the SMs. */
gs_status gs_cuda_kernel_bound(gs_cuda_device *d, const void *kernel, unsigned group_size,
                               size_t shared_bytes, unsigned *out);
/* gs_backend_ops.max_groups, .algo_supported */
gs_status gs_cuda_builtin_max_groups(gs_device *dev, unsigned group_size, unsigned *out);
int gs_cuda_algo_supported(const gs_device *dev, gs_algo algo);
/* The cluster size the cluster protocol uses for this grid: GRIDSYNC_CLUSTER_SIZE if
 * set, else the largest of 8, 4, 2 that divides the grid's x extent `x_groups` and keeps
 * groups/size clusters within cudaOccupancyMaxActiveClusters, else 1 (a degenerate
 * cluster per block). */
gs_status gs_cuda_pick_cluster(gs_cuda_device *d, const void *kernel, unsigned groups,
                               unsigned x_groups, unsigned group_size, size_t shared_bytes,
                               unsigned *out);

/* launch_cuda.c */
/* Enqueues `kernel` on `stream` so that every group is co-resident (refusing the grid
 * with GS_ERR_TOO_MANY_GROUPS otherwise): cooperative launch, plus the cluster dimension
 * (along x, dividing grid.x) for GS_ALGO_CLUSTER. Does not wait. */
gs_status gs_cuda_enqueue_resident(gs_cuda_device *d, const void *kernel, gs_algo algo,
                                   gs_dim3 grid, gs_dim3 block, size_t shared_bytes, void **args,
                                   cudaStream_t stream);

/* The same for one of `launches` launches of this size that run side by side on the GPU
 * (a barrier across devices with a GPU listed several times: multi_cuda.c): the bound
 * must hold them all, and none is cooperative, since a cooperative launch promises the
 * residency of its own grid only and the driver documents nothing of two at once, where
 * kernels of different streams run side by side as resources allow. */
gs_status gs_cuda_enqueue_beside(gs_cuda_device *d, const void *kernel, gs_algo algo, gs_dim3 grid,
                                 gs_dim3 block, size_t shared_bytes, void **args,
                                 cudaStream_t stream, unsigned launches);
/* The same with the co-residency bound `bound` (gs_cuda_kernel_bound's) known;
 * `cooperative` 0: without the cooperative attribute (arrive-only barriers, whose kernels
 * need no co-residency). */
gs_status gs_cuda_enqueue_bounded(gs_cuda_device *d, const void *kernel, gs_algo algo, gs_dim3 grid,
                                  gs_dim3 block, size_t shared_bytes, void **args,
                                  cudaStream_t stream, unsigned bound, unsigned launches,
                                  int cooperative);
/* gs_backend_ops.launch */
gs_status gs_cuda_builtin_launch(gs_device *dev, const gs_launch *l, double *elapsed_ns);

/* host_cuda.c: gs_backend_ops.collect, .barrier_release. */
gs_status gs_cuda_collect(gs_device *dev, gs_barrier *b);
void gs_cuda_barrier_release(gs_device *dev, gs_barrier *b);

/* local_cuda.c: gs_backend_ops.stream_sync, .local_prepare */
gs_status gs_cuda_stream_sync(gs_device *dev, void *stream);
gs_status gs_cuda_local_prepare(gs_device *dev, gs_mem *state, unsigned clear, void *stream);

/* multi_cuda.c: gs_backend_ops.peer_access */
gs_status gs_cuda_peer_access(gs_device *dev, gs_device *peer);
#endif

#endif
