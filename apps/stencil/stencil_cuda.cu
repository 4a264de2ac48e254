/* The app on gridsync's CUDA back end, written as a user writes it: the gridsync
 * kernels launch through gs_cuda_launch_timed; the baselines are the app's own CUDA
 * (cudaLaunchCooperativeKernel for cg, two launches per iteration on a stream for
 * relaunch, those launches in CUDA graphs for relaunch-graph), timed with CUDA events. */
#include <cuda_runtime.h>

#include <cstdlib>

#include "gridsync/host_cuda.h"

#include "appkit_cuda.cuh"
#include "backend.h"
#include "stencil_kernels.cuh"

/* A graph holds this many iterations (2 launches each): 500,000 iterations captured
 * whole would be a million nodes. The run replays it, then a graph of the rest. */
#define GSS_GRAPH_ITERS 1000u

typedef void (*persistent_fn)(gs_word *, unsigned *, unsigned *, unsigned, unsigned);

#define GSS_CUDA_ENTRY_X(ID, name, value, text, desc) {GS_ALGO_##ID, gss_persistent<gss_##name>},
static const struct {
    gs_algo algo;
    persistent_fn kernel;
} persistent[] = {
    GS_PROTOCOLS_SHARED(GSS_CUDA_ENTRY_X){GS_ALGO_CLUSTER, gss_persistent<gss_cluster>},
    {GS_ALGO_AUTO, gss_persistent<gss_auto>},
    {GS_ALGO_CG, gss_persistent<gss_cg>}};

static const void *kernel_of(gs_algo method)
{
    if (method == GS_ALGO_RELAUNCH || method == GS_ALGO_RELAUNCH_GRAPH)
        return (const void *)gss_read_phase;
    for (size_t i = 0; i < sizeof persistent / sizeof *persistent; ++i)
        if (persistent[i].algo == method)
            return (const void *)persistent[i].kernel;
    return NULL;
}

static int cuda_supported(gs_device *dev, gs_algo method)
{
    return kernel_of(method) != NULL && (gsa_is_baseline(method) || gsa_protocol_runs(dev, method));
}

static gs_status cuda_fail(gss_session *s, cudaError_t e, const char *what)
{
    return gss_fail(s, gsa_cuda_status(e), "%s: %s", what, cudaGetErrorString(e));
}

static gs_status cuda_max_groups(gs_device *dev, gs_algo method, unsigned group_size, unsigned *out)
{
    const void *k = kernel_of(method);
    if (!gsa_is_baseline(method))
        return gs_cuda_max_groups(dev, k, group_size, 0, out);
    return gsa_cuda_resident_blocks(dev, k, group_size, 0, out);
}

struct cuda_impl {
    gs_barrier *bar;
    void *state;
    unsigned *a, *tmp, *initial;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    cudaGraph_t graph[2];
    cudaGraphExec_t exec[2]; /* GSS_GRAPH_ITERS iterations, and the rest */
};

static cudaError_t enqueue_phases(const gss_config *c, cuda_impl *m, unsigned iters)
{
    for (unsigned t = 0; t < iters; ++t) {
        gss_read_phase<<<c->groups, c->group_size, 0, m->stream>>>(m->a, m->tmp, c->n);
        gss_write_phase<<<c->groups, c->group_size, 0, m->stream>>>(m->a, m->tmp, c->n);
    }
    return cudaGetLastError();
}

static gs_status capture(gss_session *s, cuda_impl *m, unsigned iters, int k)
{
    cudaError_t e = cudaStreamBeginCapture(m->stream, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "cudaStreamBeginCapture");
    cudaError_t launched = enqueue_phases(s->cfg, m, iters);
    e = cudaStreamEndCapture(m->stream, &m->graph[k]);
    if (launched != cudaSuccess || e != cudaSuccess)
        return cuda_fail(s, launched != cudaSuccess ? launched : e, "capturing the relaunch graph");
    e = cudaGraphInstantiate(&m->exec[k], m->graph[k], 0);
    return e == cudaSuccess ? GS_OK : cuda_fail(s, e, "cudaGraphInstantiate");
}

static gs_status cuda_open(gss_session *s)
{
    const gss_config *c = s->cfg;
    size_t bytes = (size_t)c->n * sizeof(unsigned);
    cuda_impl *m = static_cast<cuda_impl *>(calloc(1, sizeof(cuda_impl)));
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    int ordinal = 0;
    gs_status st = gs_cuda_ordinal(s->dev, &ordinal);
    if (st != GS_OK)
        return gss_fail(s, st, "gs_cuda_ordinal");
    cudaError_t e = gsa_cuda_stream_open(ordinal, &m->stream, &m->start, &m->stop);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->a, bytes);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->tmp, bytes);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->initial, bytes);
    /* On the app's stream (pageable copies may return before they land: apps/jacobi). */
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(m->initial, s->initial, bytes, cudaMemcpyHostToDevice, m->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "allocating the arrays");
    if (c->method == GS_ALGO_RELAUNCH_GRAPH) {
        unsigned chunk = c->iters < GSS_GRAPH_ITERS ? c->iters : GSS_GRAPH_ITERS,
                 rest = c->iters % chunk;
        st = capture(s, m, chunk, 0);
        return st == GS_OK && rest ? capture(s, m, rest, 1) : st;
    }
    if (gsa_is_baseline(c->method))
        return GS_OK;
    if ((st = gss_barrier_open(s, &m->bar)) != GS_OK)
        return st;
    st = gs_cuda_state(m->bar, &m->state);
    return st == GS_OK ? GS_OK : gss_fail(s, st, "gs_cuda_state");
}

static gs_status run_baseline(gss_session *s, cuda_impl *m, double *ns)
{
    const gss_config *c = s->cfg;
    cudaError_t e = cudaEventRecord(m->start, m->stream);
    if (c->method == GS_ALGO_CG && e == cudaSuccess) {
        unsigned n = c->n, iters = c->iters;
        gs_word *none = NULL;
        void *args[] = {&none, &m->a, &m->tmp, &n, &iters};
        e = cudaLaunchCooperativeKernel(kernel_of(GS_ALGO_CG), dim3(c->groups), dim3(c->group_size),
                                        args, 0, m->stream);
    } else if (c->method == GS_ALGO_RELAUNCH_GRAPH && e == cudaSuccess) {
        unsigned chunk = c->iters < GSS_GRAPH_ITERS ? c->iters : GSS_GRAPH_ITERS;
        for (unsigned k = 0; e == cudaSuccess && k < c->iters / chunk; ++k)
            e = cudaGraphLaunch(m->exec[0], m->stream);
        if (e == cudaSuccess && m->exec[1])
            e = cudaGraphLaunch(m->exec[1], m->stream);
    } else if (e == cudaSuccess) {
        e = enqueue_phases(c, m, c->iters);
    }
    if (e == cudaSuccess)
        e = cudaEventRecord(m->stop, m->stream);
    if (e == cudaSuccess)
        e = gsa_cuda_elapsed_ns(m->start, m->stop, ns);
    return e == cudaSuccess ? GS_OK : cuda_fail(s, e, gs_algo_name(c->method));
}

static gs_status cuda_run(gss_session *s, double *ns)
{
    const gss_config *c = s->cfg;
    cuda_impl *m = static_cast<cuda_impl *>(s->impl);
    cudaError_t e = cudaMemcpyAsync(m->a, m->initial, (size_t)c->n * sizeof(unsigned),
                                    cudaMemcpyDeviceToDevice, m->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "reloading the start");
    if (gsa_is_baseline(c->method))
        return run_baseline(s, m, ns);
    unsigned n = c->n, iters = c->iters;
    void *args[] = {&m->state, &m->a, &m->tmp, &n, &iters};
    gs_status st = gs_cuda_launch_timed(m->bar, kernel_of(c->method), GS_DIM3_1D(c->groups),
                                        GS_DIM3_1D(c->group_size), 0, args, m->stream, ns);
    return st == GS_OK ? GS_OK
                       : gss_fail(s, st, "gs_cuda_launch_timed(%u x %u)", c->groups, c->group_size);
}

static gs_status cuda_fetch(gss_session *s, uint32_t *out)
{
    cuda_impl *m = static_cast<cuda_impl *>(s->impl);
    cudaError_t e = cudaMemcpyAsync(out, m->a, (size_t)s->cfg->n * sizeof(unsigned),
                                    cudaMemcpyDeviceToHost, m->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m->stream);
    return e == cudaSuccess ? GS_OK : cuda_fail(s, e, "reading the array back");
}

static void cuda_close(gss_session *s)
{
    cuda_impl *m = static_cast<cuda_impl *>(s->impl);
    if (m == NULL)
        return;
    gsa_cuda_stream_close(&m->stream, &m->start, &m->stop);
    for (int k = 0; k < 2; ++k) {
        if (m->exec[k])
            cudaGraphExecDestroy(m->exec[k]);
        if (m->graph[k])
            cudaGraphDestroy(m->graph[k]);
    }
    if (m->bar)
        gs_barrier_destroy(m->bar);
    cudaFree(m->a);
    cudaFree(m->tmp);
    cudaFree(m->initial);
    cudaGetLastError();
    free(m);
    s->impl = NULL;
}

extern "C" const gss_backend gss_cuda_backend = {cuda_supported, cuda_max_groups, cuda_open,
                                                 cuda_run,       cuda_fetch,      cuda_close};
