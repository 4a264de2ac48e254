/* gridsync/host_cuda.h: launching a user's kernel through a barrier. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

#include "gridsync/host_cuda.h"

static gs_cuda_device *cuda_of(gs_device *dev)
{
    return gs_cuda_is_ours(dev) ? gs_cuda(dev) : NULL;
}

/* What a barrier keeps from one user launch to the next (gs_barrier.launch_cache; while
 * a launch is in flight gs_barrier.pending points to it too). A user's loop of short
 * kernels pays the host's part of every launch, so the library adds as little as it
 * can to a cooperative launch: measured on the H100, an empty kernel of 132 x 256,
 * launch to return, 26.6 us through gs_cuda_launch when each launch cleared the
 * acknowledgement with a memset, recorded two timing events and copied the abort line
 * back after the kernel (the copy alone ~9 us), against 12.6 us for a bare cooperative
 * launch and wait. Now the kernel writes the verdict into pinned host memory itself
 * (GS_HDR_MIRROR_*), the host clears it with plain stores, an untimed launch records one
 * event without timing, and the co-residency bound is remembered for the last kernel and
 * shape: 10.9 us against the bare launch's 10.8 (1056 x 256: 13.5 against 12.4). */
#define GS_BOUND_KEPT 4u

typedef struct cuda_launch_cache {
    int timed; /* the launch in flight recorded start and stop */
    /* A synchronous launch (gs_cuda_launch, _timed) waits for its stream, where nothing
     * but its kernel can be pending for it, and an untimed one records no event: the
     * Pi program's barrier way at 10^6 steps on an H200 took 0.2-0.3 us less from launch
     * to pi than with the done event (4 of 4 interleaved runs; at 10^10 level;
     * bench/results/h200/eleventh/pi_ab_printed.txt). An asynchronous launch's collect
     * waits for its event: the user's stream may have later work. */
    int whole_stream;
    cudaStream_t stream;       /* the synchronous launch's */
    cudaEvent_t start, stop;   /* around a timed launch's kernel: its device time */
    cudaEvent_t done;          /* after an untimed launch's kernel */
    volatile uint32_t *mirror; /* pinned, mapped: the abort line as the kernel wrote it */
    /* The co-residency bounds of the last GS_BOUND_KEPT kernels and shapes launched
     * through the barrier. Trusted only to let a grid through: the cooperative launch
     * is the driver's own check (a bound gone stale through cudaFuncSetAttribute is then
     * GS_ERR_TOO_MANY_GROUPS from the launch), and a grid over it asks the occupancy API
     * again before it is refused. More than one: with only the last kept, two kernels
     * launched in turn through one barrier asked the occupancy API at every launch
     * (bench/micro/launch_cost.cu, gs-async-alt, H200, one call: 3.74 us a launch call
     * with the last bound kept, 3.16 with four, against 3.30 for one kernel). */
    struct {
        const void *kernel; /* NULL: unused */
        unsigned group_size;
        size_t shared_bytes;
        unsigned bound;
    } bounds[GS_BOUND_KEPT];
    unsigned next_bound; /* the entry a new kernel or shape replaces */
} cuda_launch_cache;

static void free_cache(cuda_launch_cache *c)
{
    if (c->start)
        cudaEventDestroy(c->start);
    if (c->stop)
        cudaEventDestroy(c->stop);
    if (c->done)
        cudaEventDestroy(c->done);
    if (c->mirror)
        cudaFreeHost((void *)c->mirror);
    free(c);
}

/* gs_backend_ops.barrier_release */
void gs_cuda_barrier_release(gs_device *dev, gs_barrier *b)
{
    (void)dev;
    free_cache(b->launch_cache);
    b->launch_cache = NULL;
}

/* The barrier's cache, made at its first launch: events, and the verdict's host copy,
 * whose device address goes into the state's header. */
static gs_status cache_of(gs_cuda_device *d, gs_barrier *b, cuda_launch_cache **out)
{
    cuda_launch_cache *c = b->launch_cache;
    void *mirror = NULL, *at = NULL;
    cudaError_t e = cudaSuccess;
    if (!c) {
        if (!(c = calloc(1, sizeof *c)))
            return GS_ERR_OUT_OF_MEMORY;
        if ((e = cudaEventCreate(&c->start)) != cudaSuccess ||
            (e = cudaEventCreate(&c->stop)) != cudaSuccess ||
            (e = cudaEventCreateWithFlags(&c->done, cudaEventDisableTiming)) != cudaSuccess ||
            (e = cudaHostAlloc(&mirror, GS_LINE_BYTES, cudaHostAllocMapped)) != cudaSuccess ||
            (c->mirror = mirror, e = cudaHostGetDevicePointer(&at, mirror, 0)) != cudaSuccess) {
            free_cache(c);
            return gs_cuda_fail(&d->base, e, "making the launch's events and verdict copy");
        }
        memset(mirror, 0, GS_LINE_BYTES);
        gs_status s = gs_barrier_set_host_mirror(b, (uint64_t)(uintptr_t)at);
        if (s != GS_OK) {
            free_cache(c);
            return s;
        }
        b->launch_cache = c;
    }
    *out = c;
    return GS_OK;
}

/* The co-residency bound of `kernel` in this shape, remembered for the next launches. */
static gs_status bound_of(gs_cuda_device *d, cuda_launch_cache *c, const void *kernel,
                          unsigned groups, unsigned group_size, size_t shared_bytes, unsigned *out)
{
    unsigned slot = GS_BOUND_KEPT; /* the entry of this kernel and shape, if kept */
    for (unsigned i = 0; c && i < GS_BOUND_KEPT && slot == GS_BOUND_KEPT; ++i)
        if (c->bounds[i].kernel == kernel && c->bounds[i].group_size == group_size &&
            c->bounds[i].shared_bytes == shared_bytes)
            slot = i;
    if (slot < GS_BOUND_KEPT && groups <= c->bounds[slot].bound) {
        *out = c->bounds[slot].bound;
        return GS_OK;
    }
    /* new, or a grid over the kept bound: asked again, and the answer kept */
    gs_status s = gs_cuda_kernel_bound(d, kernel, group_size, shared_bytes, out);
    if (s == GS_OK && c) {
        if (slot == GS_BOUND_KEPT)
            slot = c->next_bound++ % GS_BOUND_KEPT;
        c->bounds[slot].kernel = kernel;
        c->bounds[slot].group_size = group_size;
        c->bounds[slot].shared_bytes = shared_bytes;
        c->bounds[slot].bound = *out;
    }
    return s;
}

/* Enqueues the launch. Inside a capture (c NULL) the acknowledgement is cleared on the
 * stream first, so that the graph takes the clearing in and the host reads the state
 * after a replay; otherwise the host clears its copy of the abort line, and an event
 * follows the kernel (two around it, timed). */
static gs_status enqueue(gs_cuda_device *d, gs_barrier *b, const void *kernel, gs_dim3 grid,
                         gs_dim3 block, size_t shared_bytes, void **args, cudaStream_t stream,
                         cuda_launch_cache *c)
{
    void *state = NULL;
    unsigned bound = 0;
    cudaError_t e = cudaSuccess;
    (void)gs_barrier_native(b, &state);
    gs_status s =
        bound_of(d, b->algo == GS_ALGO_CLUSTER ? NULL : c, kernel, grid.x * grid.y * grid.z,
                 block.x * block.y * block.z, shared_bytes, &bound);
    if (s != GS_OK)
        return s;
    if (!c) {
        e = cudaMemsetAsync((char *)state + GS_ACK_OFFSET, 0, 4, stream);
    } else {
        for (unsigned i = 0; i < GS_ABORT_LINE_READ; ++i)
            c->mirror[i] = 0u; /* no kernel of this barrier runs: the last was collected */
        if (c->timed)
            e = cudaEventRecord(c->start, stream);
    }
    if (e != cudaSuccess)
        return gs_cuda_fail(&d->base, e, "clearing the acknowledgement");
    /* arrive-only (gs_barrier_set_arrive_only): nobody waits, so neither the bound nor the
     * cooperative attribute */
    s = gs_cuda_enqueue_bounded(d, kernel, b->algo, grid, block, shared_bytes, args, stream,
                                b->arrive_only ? UINT_MAX : bound, 1, !b->arrive_only);
    if (s != GS_OK || !c)
        return s;
    if (c->whole_stream && !c->timed)
        return GS_OK; /* the collect waits for the stream */
    e = cudaEventRecord(c->timed ? c->stop : c->done, stream);
    return e == cudaSuccess ? GS_OK : gs_cuda_fail(&d->base, e, "cudaEventRecord");
}

static gs_status launch(gs_barrier *b, const void *kernel, gs_dim3 grid, gs_dim3 block,
                        size_t shared_bytes, void **args, void *stream_ptr, int timed,
                        int whole_stream)
{
    cudaStream_t stream = (cudaStream_t)stream_ptr;
    enum cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (!b || !kernel)
        return GS_ERR_INVALID_ARGUMENT;
    gs_cuda_device *d = cuda_of(b->dev);
    if (!d)
        return GS_ERR_UNSUPPORTED;
    if (gs_algo_is_host(b->algo))
        return GS_ERR_UNSUPPORTED;
    cudaError_t e = cudaSetDevice(d->ordinal);
    if (e == cudaSuccess)
        e = cudaStreamIsCapturing(stream, &capture);
    if (e != cudaSuccess)
        return gs_cuda_fail(b->dev, e, "cudaStreamIsCapturing");
    int capturing = capture != cudaStreamCaptureStatusNone;
    gs_status s = gs_barrier_begin_launch(b, grid, block, capturing);
    if (s != GS_OK)
        return s;
    cuda_launch_cache *c = NULL;
    if (!capturing && (s = cache_of(d, b, &c)) != GS_OK)
        return gs_barrier_end_launch(b, s, 0);
    if (c) {
        c->timed = timed;
        c->whole_stream = whole_stream;
        c->stream = stream;
    }
    s = enqueue(d, b, kernel, grid, block, shared_bytes, args, stream, c);
    if (s != GS_OK || capturing) /* a failed enqueue has nothing to read; a captured one
                                    runs with the graph */
        return gs_barrier_end_launch(b, s, -1);
    b->pending = c;
    return GS_OK;
}

/* gs_backend_ops.collect: waits for the launch; its verdict is then in c->mirror. */
gs_status gs_cuda_collect(gs_device *dev, gs_barrier *b)
{
    cuda_launch_cache *c = b->pending;
    float ms = 0;
    b->pending = NULL;
    b->elapsed_ns = 0;
    cudaError_t e = cudaSetDevice(((gs_cuda_device *)dev)->ordinal);
    if (e == cudaSuccess && c->whole_stream) /* a fault of the kernel */
        e = cudaStreamSynchronize(c->stream);
    else if (e == cudaSuccess)
        e = cudaEventSynchronize(c->timed ? c->stop : c->done);
    if (e != cudaSuccess)
        return gs_cuda_fail(dev, e, "kernel execution");
    if (c->timed && cudaEventElapsedTime(&ms, c->start, c->stop) == cudaSuccess)
        b->elapsed_ns = (double)ms * 1e6;
    b->verdict = c->mirror;
    return GS_OK;
}

gs_status gs_cuda_launch_async(gs_barrier *b, const void *kernel, gs_dim3 grid, gs_dim3 block,
                               size_t shared_bytes, void **args, void *stream)
{
    return launch(b, kernel, grid, block, shared_bytes, args, stream, 0, 0);
}

gs_status gs_cuda_launch_timed(gs_barrier *b, const void *kernel, gs_dim3 grid, gs_dim3 block,
                               size_t shared_bytes, void **args, void *stream, double *elapsed_ns)
{
    if (elapsed_ns)
        *elapsed_ns = 0;
    gs_status s = launch(b, kernel, grid, block, shared_bytes, args, stream, elapsed_ns != NULL, 1);
    if (s != GS_OK || !b->pending)
        return s;
    s = gs_barrier_collect(b);
    if (elapsed_ns)
        *elapsed_ns = b->elapsed_ns;
    return s;
}

gs_status gs_cuda_launch(gs_barrier *b, const void *kernel, gs_dim3 grid, gs_dim3 block,
                         size_t shared_bytes, void **args, void *stream)
{
    return gs_cuda_launch_timed(b, kernel, grid, block, shared_bytes, args, stream, NULL);
}

gs_status gs_cuda_state(const gs_barrier *b, void **device_ptr)
{
    if (!b || !device_ptr)
        return GS_ERR_INVALID_ARGUMENT;
    if (!cuda_of(b->dev))
        return GS_ERR_UNSUPPORTED;
    return gs_barrier_native(b, device_ptr);
}

gs_status gs_cuda_max_groups(gs_device *dev, const void *kernel, unsigned group_size,
                             size_t shared_bytes, unsigned *out)
{
    if (!dev || !kernel || !out)
        return GS_ERR_INVALID_ARGUMENT;
    gs_cuda_device *d = cuda_of(dev);
    if (!d)
        return GS_ERR_UNSUPPORTED;
    return gs_cuda_kernel_bound(d, kernel, group_size, shared_bytes, out);
}

gs_status gs_cuda_cluster_size(gs_device *dev, const void *kernel, unsigned groups,
                               unsigned group_size, size_t shared_bytes, unsigned *out)
{
    if (!dev || !kernel || !out || groups == 0 || group_size == 0)
        return GS_ERR_INVALID_ARGUMENT;
    gs_cuda_device *d = cuda_of(dev);
    if (!d)
        return GS_ERR_UNSUPPORTED;
    return gs_cuda_pick_cluster(d, kernel, groups, groups, group_size, shared_bytes, out);
}

gs_status gs_cuda_ordinal(const gs_device *dev, int *ordinal)
{
    if (!dev || !ordinal)
        return GS_ERR_INVALID_ARGUMENT;
    if (!gs_cuda_is_ours(dev))
        return GS_ERR_UNSUPPORTED;
    *ordinal = ((const gs_cuda_device *)dev)->ordinal;
    return GS_OK;
}
