/* The app on gridsync's CUDA back end, written as a user writes it: the gridsync
 * barrier kernels launch through gs_cuda_launch_timed; the local scheme is an ordinary
 * <<<>>> launch after gs_local_prepare on the app's stream; the baselines are the app's
 * own CUDA (cudaLaunchCooperativeKernel for cg, a launch per wavefront step for
 * relaunch, those launches captured into a graph for relaunch-graph). Time: CUDA events
 * around the launch(es). Blocks of one warp (sor_kernels.cuh); whole-program with
 * --fmad=false (CMakeLists.txt). */
#include <cuda_runtime.h>

#include <cstdlib>

#include "gridsync/host_cuda.h"

#include "appkit_cuda.cuh"
#include "backend.h"
#include "sor_kernels.cuh"

typedef void (*persistent_fn)(gs_word *, float *, unsigned, unsigned, unsigned, float, float);

#define GSR_CUDA_ENTRY_X(ID, name, value, text, desc) {GS_ALGO_##ID, gsr_persistent<gsr_##name>},
static const struct {
    gs_algo algo;
    persistent_fn kernel;
} persistent[] = {
    GS_PROTOCOLS_SHARED(GSR_CUDA_ENTRY_X){GS_ALGO_CLUSTER, gsr_persistent<gsr_cluster>},
    {GS_ALGO_AUTO, gsr_persistent<gsr_auto>},
    {GS_ALGO_CG, gsr_persistent<gsr_cg>}};

/* The kernel a scheme runs. */
static const void *kernel_of(gs_algo method)
{
    if (method == GS_ALGO_RELAUNCH || method == GS_ALGO_RELAUNCH_GRAPH)
        return (const void *)gsr_relaunch;
    if (method == GSR_LOCAL)
        return (const void *)gsr_local;
    for (size_t i = 0; i < sizeof persistent / sizeof *persistent; ++i)
        if (persistent[i].algo == method)
            return (const void *)persistent[i].kernel;
    return NULL;
}

static int cuda_supported(gs_device *dev, gs_algo method)
{
    if (kernel_of(method) == NULL)
        return 0;
    return gsr_is_barrierless(method) || gsa_protocol_runs(dev, method);
}

static gs_status cuda_fail(gsr_session *s, cudaError_t e, const char *what)
{
    return gsr_fail(s, gsa_cuda_status(e), "%s: %s", what, cudaGetErrorString(e));
}

/* The gridsync barrier kernels ask the library (it knows what a protocol's launch
 * adds); the others ask the occupancy API, as a user would. Every kernel has blocks of
 * one warp whatever the tile. */
static gs_status cuda_max_groups(gs_device *dev, gs_algo method, unsigned tile, unsigned *out)
{
    (void)tile;
    const void *k = kernel_of(method);
    if (!gsr_is_barrierless(method))
        return gs_cuda_max_groups(dev, k, GSR_CUDA_BLOCK, 0, out);
    return gsa_cuda_resident_blocks(dev, k, GSR_CUDA_BLOCK, 0, out);
}

struct cuda_impl {
    gs_barrier *bar;
    gs_local *L;
    void *state;
    float *u, *initial;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
};

/* The relaunch baselines' launches, one per wavefront step. */
static cudaError_t enqueue_steps(const gsr_session *s, cuda_impl *m)
{
    const gsr_config *c = s->cfg;
    for (unsigned step = 0; step < s->shape.steps; ++step)
        gsr_relaunch<<<c->groups, GSR_CUDA_BLOCK, 0, m->stream>>>(m->u, c->n, c->tile, c->sweeps,
                                                                  s->a, s->b, step);
    return cudaGetLastError();
}

/* relaunch-graph: the launches captured once, instantiated here, outside the timed
 * span; each run replays them. */
static gs_status capture(gsr_session *s, cuda_impl *m)
{
    cudaError_t e = cudaStreamBeginCapture(m->stream, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "cudaStreamBeginCapture");
    cudaError_t launched = enqueue_steps(s, m);
    e = cudaStreamEndCapture(m->stream, &m->graph);
    if (launched != cudaSuccess || e != cudaSuccess)
        return cuda_fail(s, launched != cudaSuccess ? launched : e, "capturing the relaunch graph");
    e = cudaGraphInstantiate(&m->exec, m->graph, 0);
    return e == cudaSuccess ? GS_OK : cuda_fail(s, e, "cudaGraphInstantiate");
}

static gs_status cuda_open(gsr_session *s)
{
    const gsr_config *c = s->cfg;
    size_t bytes = (size_t)c->n * c->n * sizeof(float);
    cuda_impl *m = static_cast<cuda_impl *>(calloc(1, sizeof(cuda_impl)));
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    s->result->group_size = GSR_CUDA_BLOCK;
    int ordinal = 0;
    gs_status st = gs_cuda_ordinal(s->dev, &ordinal);
    if (st != GS_OK)
        return gsr_fail(s, st, "gs_cuda_ordinal");
    cudaError_t e = gsa_cuda_stream_open(ordinal, &m->stream, &m->start, &m->stop);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->u, bytes);
    if (e == cudaSuccess) /* a device copy of the start: each run reloads from it */
        e = cudaMalloc(&m->initial, bytes);
    /* On the app's stream, then waited for (apps/jacobi says why: a pageable copy may
     * return before it has landed). */
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(m->initial, s->initial, bytes, cudaMemcpyHostToDevice, m->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "allocating the grid");
    if (c->method == GS_ALGO_RELAUNCH_GRAPH)
        return capture(s, m);
    if (c->method == GSR_LOCAL) {
        if ((st = gsr_local_open(s, &m->L)) != GS_OK)
            return st;
        st = gs_local_native(m->L, &m->state);
        return st == GS_OK ? GS_OK : gsr_fail(s, st, "gs_local_native");
    }
    if (gsr_is_barrierless(c->method))
        return GS_OK;
    if ((st = gsr_barrier_open(s, &m->bar)) != GS_OK)
        return st;
    st = gs_cuda_state(m->bar, &m->state);
    return st == GS_OK ? GS_OK : gsr_fail(s, st, "gs_cuda_state");
}

/* The time between the two events, once the second has happened. */
static gs_status elapsed(gsr_session *s, cuda_impl *m, double *ns)
{
    cudaError_t e = gsa_cuda_elapsed_ns(m->start, m->stop, ns);
    return e == cudaSuccess ? GS_OK : cuda_fail(s, e, "the timed launches");
}

/* The schemes gridsync does not launch, between two events on the app's stream; the
 * local scheme's prepare goes before the first event (it is the library's, not the
 * solver's), its verdict after the second. */
static gs_status run_own(gsr_session *s, cuda_impl *m, double *ns)
{
    const gsr_config *c = s->cfg;
    unsigned n = c->n, tile = c->tile, sweeps = c->sweeps, mutant = c->mutant;
    float a = s->a, b = s->b;
    gs_status st = c->method == GSR_LOCAL ? gs_local_prepare(m->L, m->stream) : GS_OK;
    if (st != GS_OK)
        return gsr_fail(s, st, "gs_local_prepare");
    cudaError_t e = cudaEventRecord(m->start, m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "cudaEventRecord");
    if (c->method == GS_ALGO_CG) {
        gs_word *none = NULL;
        void *args[] = {&none, &m->u, &n, &tile, &sweeps, &a, &b};
        e = cudaLaunchCooperativeKernel(kernel_of(GS_ALGO_CG), dim3(c->groups),
                                        dim3(GSR_CUDA_BLOCK), args, 0, m->stream);
    } else if (c->method == GSR_LOCAL) {
        gsr_local<<<c->groups, GSR_CUDA_BLOCK, 0, m->stream>>>(static_cast<gs_word *>(m->state),
                                                               m->u, n, tile, sweeps, a, b, mutant);
        e = cudaGetLastError();
    } else if (c->method == GS_ALGO_RELAUNCH_GRAPH) {
        e = cudaGraphLaunch(m->exec, m->stream);
    } else {
        e = enqueue_steps(s, m);
    }
    if (e != cudaSuccess)
        return cuda_fail(s, e, gsr_method_name(c->method));
    e = cudaEventRecord(m->stop, m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "cudaEventRecord");
    st = elapsed(s, m, ns);
    if (c->method == GSR_LOCAL) {
        gs_status verdict = gsr_local_verdict(s, m->L, gs_local_collect(m->L, m->stream));
        st = verdict != GS_OK ? verdict : st;
    }
    return st;
}

static gs_status cuda_run(gsr_session *s, double *ns)
{
    const gsr_config *c = s->cfg;
    cuda_impl *m = static_cast<cuda_impl *>(s->impl);
    size_t bytes = (size_t)c->n * c->n * sizeof(float);
    cudaError_t e = cudaMemcpyAsync(m->u, m->initial, bytes, cudaMemcpyDeviceToDevice, m->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "reloading the initial grid");
    if (gsr_is_barrierless(c->method))
        return run_own(s, m, ns);
    unsigned n = c->n, tile = c->tile, sweeps = c->sweeps;
    float a = s->a, b = s->b;
    void *args[] = {&m->state, &m->u, &n, &tile, &sweeps, &a, &b};
    gs_status st = gs_cuda_launch_timed(m->bar, kernel_of(c->method), GS_DIM3_1D(c->groups),
                                        GS_DIM3_1D(GSR_CUDA_BLOCK), 0, args, m->stream, ns);
    return st == GS_OK ? GS_OK
                       : gsr_fail(s, st, "gs_cuda_launch_timed(%u x %u)", c->groups,
                                  (unsigned)GSR_CUDA_BLOCK);
}

static gs_status cuda_fetch(gsr_session *s, float *out)
{
    cuda_impl *m = static_cast<cuda_impl *>(s->impl);
    size_t bytes = (size_t)s->cfg->n * s->cfg->n * sizeof(float);
    cudaError_t e = cudaMemcpyAsync(out, m->u, bytes, cudaMemcpyDeviceToHost, m->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m->stream);
    return e == cudaSuccess ? GS_OK : cuda_fail(s, e, "reading the grid back");
}

static void cuda_close(gsr_session *s)
{
    cuda_impl *m = static_cast<cuda_impl *>(s->impl);
    if (m == NULL)
        return;
    gsa_cuda_stream_close(&m->stream, &m->start, &m->stop);
    if (m->exec)
        cudaGraphExecDestroy(m->exec);
    if (m->graph)
        cudaGraphDestroy(m->graph);
    if (m->bar)
        gs_barrier_destroy(m->bar);
    if (m->L)
        gs_local_destroy(m->L);
    cudaFree(m->u);
    cudaFree(m->initial);
    cudaGetLastError();
    free(m);
    s->impl = NULL;
}

extern "C" const gsr_backend gsr_cuda_backend = {cuda_supported, cuda_max_groups, cuda_open,
                                                 cuda_run,       cuda_fetch,      cuda_close};
