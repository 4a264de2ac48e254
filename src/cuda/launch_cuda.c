/* src/cuda/launch_cuda.c - launches: the built-in kernel (timed) and the resident
 * enqueue that user launches share (host_cuda.c).
 *
 * Co-residency: every persistent launch is a cooperative launch
 * (cudaLaunchAttributeCooperative), so the driver itself refuses a grid that cannot be
 * resident (cudaErrorCooperativeLaunchTooLarge -> GS_ERR_TOO_MANY_GROUPS); the
 * occupancy API gives the same bound before the launch. The cluster protocol adds the
 * cluster dimension and checks cudaOccupancyMaxActiveClusters itself, because whether
 * the driver accepts a cooperative cluster launch is found out at the first try (and
 * remembered): if it does not, the cluster grid is launched without the cooperative
 * attribute, within the bound the occupancy API gave.
 *
 * The relaunch baselines end the kernel between phases: one plain (non-cooperative)
 * launch per phase on the device's stream, timed from an event before the first to an
 * event after the last; relaunch-graph captures those launches into CUDA graphs once
 * (chunks of GS_CUDA_GRAPH_CHUNK kernels), instantiates and uploads them outside the
 * timed span, then times one replay. */
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

#define GS_CUDA_GRAPH_CHUNK 4096u

static gs_status timed_wait(gs_cuda_device *d, cudaStream_t stream, double *elapsed_ns)
{
    float ms = 0;
    cudaError_t e = cudaEventRecord(d->stop, stream);
    if (e == cudaSuccess)
        e = cudaEventSynchronize(d->stop); /* reports a fault of the kernel(s) */
    if (e != cudaSuccess)
        return gs_cuda_fail(&d->base, e, "kernel execution");
    if (elapsed_ns) {
        e = cudaEventElapsedTime(&ms, d->start, d->stop);
        if (e != cudaSuccess)
            return gs_cuda_fail(&d->base, e, "cudaEventElapsedTime");
        *elapsed_ns = (double)ms * 1e6;
    }
    return GS_OK;
}

static int launch_refused(cudaError_t e)
{
    return e == cudaErrorInvalidValue || e == cudaErrorNotSupported ||
           e == cudaErrorInvalidConfiguration || e == cudaErrorInvalidClusterSize;
}

gs_status gs_cuda_enqueue_resident(gs_cuda_device *d, const void *kernel, gs_algo algo,
                                   gs_dim3 grid, gs_dim3 block, size_t shared_bytes, void **args,
                                   cudaStream_t stream)
{
    return gs_cuda_enqueue_beside(d, kernel, algo, grid, block, shared_bytes, args, stream, 1);
}

gs_status gs_cuda_enqueue_beside(gs_cuda_device *d, const void *kernel, gs_algo algo, gs_dim3 grid,
                                 gs_dim3 block, size_t shared_bytes, void **args,
                                 cudaStream_t stream, unsigned launches)
{
    unsigned bound = 0;
    gs_status s =
        gs_cuda_kernel_bound(d, kernel, block.x * block.y * block.z, shared_bytes, &bound);
    return s != GS_OK ? s
                      : gs_cuda_enqueue_bounded(d, kernel, algo, grid, block, shared_bytes, args,
                                                stream, bound, launches, 1);
}

gs_status gs_cuda_enqueue_bounded(gs_cuda_device *d, const void *kernel, gs_algo algo, gs_dim3 grid,
                                  gs_dim3 block, size_t shared_bytes, void **args,
                                  cudaStream_t stream, unsigned bound, unsigned launches,
                                  int cooperative)
{
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attrs[2];
    unsigned cs = 1, n = 0;
    unsigned groups = grid.x * grid.y * grid.z, group_size = block.x * block.y * block.z;
    gs_status s;
    if (groups == 0 || launches == 0)
        return GS_ERR_INVALID_ARGUMENT;
    if ((uint64_t)groups * launches > bound)
        return GS_ERR_TOO_MANY_GROUPS;
    if (algo == GS_ALGO_CLUSTER && (s = gs_cuda_pick_cluster(d, kernel, groups, grid.x, group_size,
                                                             shared_bytes, &cs)) != GS_OK)
        return s;
    if (algo == GS_ALGO_CG && !d->coop)
        return GS_ERR_UNSUPPORTED;

    gs_cuda_set_grid(&cfg, grid, block, shared_bytes, stream);
    memset(attrs, 0, sizeof attrs);
    int coop_slot = -1;
    if (cooperative && d->coop && launches == 1 && !(cs > 1 && d->cluster_coop == 0)) {
        attrs[n].id = cudaLaunchAttributeCooperative;
        attrs[n].val.cooperative = 1;
        coop_slot = (int)n++;
    }
    if (cs > 1) {
        attrs[n].id = cudaLaunchAttributeClusterDimension;
        attrs[n].val.clusterDim.x = cs;
        attrs[n].val.clusterDim.y = 1;
        attrs[n].val.clusterDim.z = 1;
        ++n;
    }
    cfg.attrs = attrs;
    cfg.numAttrs = n;

    cudaError_t e = cudaLaunchKernelExC(&cfg, kernel, args);
    if (e != cudaSuccess && cs > 1 && coop_slot >= 0 && d->cluster_coop < 0 && launch_refused(e)) {
        /* The driver does not take the cooperative attribute together with clusters:
         * the cluster bound checked above is the guarantee. */
        (void)cudaGetLastError();
        d->cluster_coop = 0;
        attrs[coop_slot] = attrs[n - 1];
        cfg.numAttrs = --n;
        e = cudaLaunchKernelExC(&cfg, kernel, args);
    } else if (e == cudaSuccess && cs > 1 && coop_slot >= 0) {
        d->cluster_coop = 1;
    }
    return e == cudaSuccess ? GS_OK : gs_cuda_fail(&d->base, e, "cudaLaunchKernelEx");
}

/* A built-in kernel, resident, timed and waited for. */
static gs_status launch_resident(gs_cuda_device *d, const void *kernel, gs_algo algo,
                                 unsigned groups, unsigned group_size, void **args,
                                 double *elapsed_ns)
{
    cudaError_t e = cudaEventRecord(d->start, d->stream);
    if (e != cudaSuccess)
        return gs_cuda_fail(&d->base, e, "cudaEventRecord");
    gs_status s = gs_cuda_enqueue_resident(d, kernel, algo, GS_DIM3_1D(groups),
                                           GS_DIM3_1D(group_size), 0, args, d->stream);
    return s == GS_OK ? timed_wait(d, d->stream, elapsed_ns) : s;
}

/* One plain launch per phase; with `capture`, inside a stream capture. */
static cudaError_t launch_phases(gs_cuda_device *d, const gs_launch *l, unsigned begin,
                                 unsigned end, void **args, gs_work_params *prm)
{
    cudaLaunchConfig_t cfg;
    gs_cuda_set_grid(&cfg, GS_DIM3_1D(l->groups), GS_DIM3_1D(l->group_size), 0, d->stream);
    for (unsigned p = begin; p < end; ++p) {
        prm->phase_begin = p;
        prm->phase_end = p + 1;
        cudaError_t e = cudaLaunchKernelExC(
            &cfg, gs_cuda_work_kernel(GS_ALGO_RELAUNCH, gs_cuda_kernel_form(prm)), args);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

static gs_status launch_relaunch(gs_cuda_device *d, const gs_launch *l, void **args,
                                 gs_work_params *prm, double *elapsed_ns)
{
    cudaError_t e = cudaEventRecord(d->start, d->stream);
    if (e == cudaSuccess)
        e = launch_phases(d, l, l->params.phase_begin, l->params.phase_end, args, prm);
    if (e != cudaSuccess) {
        gs_status s = gs_cuda_fail(&d->base, e, "cudaLaunchKernelEx");
        cudaStreamSynchronize(d->stream);
        return s;
    }
    return timed_wait(d, d->stream, elapsed_ns);
}

static gs_status launch_graph(gs_cuda_device *d, const gs_launch *l, void **args,
                              gs_work_params *prm, double *elapsed_ns)
{
    unsigned begin = l->params.phase_begin, end = l->params.phase_end;
    unsigned phases = end > begin ? end - begin : 0;
    unsigned chunks = (phases + GS_CUDA_GRAPH_CHUNK - 1) / GS_CUDA_GRAPH_CHUNK;
    cudaGraphExec_t *execs = calloc(chunks ? chunks : 1, sizeof *execs);
    gs_status s = GS_OK;
    cudaError_t e = cudaSuccess;
    if (!execs)
        return GS_ERR_OUT_OF_MEMORY;
    /* Capture, instantiate and upload every chunk outside the timed span. */
    for (unsigned i = 0; i < chunks && e == cudaSuccess; ++i) {
        unsigned b = begin + i * GS_CUDA_GRAPH_CHUNK;
        unsigned en = b + GS_CUDA_GRAPH_CHUNK < end ? b + GS_CUDA_GRAPH_CHUNK : end;
        cudaGraph_t graph = NULL;
        e = cudaStreamBeginCapture(d->stream, cudaStreamCaptureModeThreadLocal);
        if (e != cudaSuccess)
            break;
        cudaError_t le = launch_phases(d, l, b, en, args, prm);
        e = cudaStreamEndCapture(d->stream, &graph);
        if (le != cudaSuccess)
            e = le;
        if (e == cudaSuccess)
            e = cudaGraphInstantiate(&execs[i], graph, 0);
        if (graph)
            cudaGraphDestroy(graph);
        if (e == cudaSuccess)
            e = cudaGraphUpload(execs[i], d->stream);
    }
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(d->stream);
    if (e == cudaSuccess)
        e = cudaEventRecord(d->start, d->stream);
    for (unsigned i = 0; i < chunks && e == cudaSuccess; ++i)
        e = cudaGraphLaunch(execs[i], d->stream);
    if (e != cudaSuccess) {
        s = gs_cuda_fail(&d->base, e, "CUDA graph");
        cudaStreamSynchronize(d->stream);
    } else {
        s = timed_wait(d, d->stream, elapsed_ns);
    }
    for (unsigned i = 0; i < chunks; ++i)
        if (execs[i])
            cudaGraphExecDestroy(execs[i]);
    free(execs);
    return s;
}

gs_status gs_cuda_builtin_launch(gs_device *dev, const gs_launch *l, double *elapsed_ns)
{
    gs_cuda_device *d = gs_cuda(dev);
    void *state = l->state->ptr, *a = l->a->ptr, *b = l->b->ptr, *c = l->c->ptr;
    gs_work_params prm = l->params;
    void *args[] = {&state, &a, &b, &c, &prm};
    cudaError_t e = cudaSetDevice(d->ordinal);
    if (e != cudaSuccess)
        return gs_cuda_fail(dev, e, "cudaSetDevice");
    *elapsed_ns = 0;
    /* cg cannot time out: a provoked fault would hang the device for good. */
    if (l->algo == GS_ALGO_CG &&
        (l->params.work == GS_WORK_FAULT_EXIT || l->params.work == GS_WORK_FAULT_SKIP))
        return GS_ERR_UNSUPPORTED;
    switch (l->algo) {
    case GS_ALGO_RELAUNCH: return launch_relaunch(d, l, args, &prm, elapsed_ns);
    case GS_ALGO_RELAUNCH_GRAPH: return launch_graph(d, l, args, &prm, elapsed_ns);
    default:
        return launch_resident(d, gs_cuda_work_kernel(l->algo, gs_cuda_kernel_form(&prm)), l->algo,
                               l->groups, l->group_size, args, elapsed_ns);
    }
}
