/* The app on gridsync's CUDA back end, written as a user writes it: the global scheme's
 * kernels launch through gs_cuda_launch_timed; the local and local-tagged schemes are an
 * ordinary <<<>>> launch of any number of blocks between gs_local_prepare and
 * gs_local_collect on the app's stream; the baselines are the app's own CUDA (cudaLaunchCooperativeKernel for
 * cg, a launch per anti-diagonal for relaunch, those launches captured into a graph for
 * relaunch-graph), timed with CUDA events. */
#include <cuda_runtime.h>

#include <cstdlib>

#include "gridsync/host_cuda.h"
#include "gridsync/host_local.h"

#include "appkit_cuda.cuh"
#include "backend.h"
#include "nw_kernels.cuh"

typedef void (*global_fn)(gs_word *, int *, int *, const unsigned char *, const unsigned char *,
                          const int *, unsigned);
typedef void (*relaunch_fn)(int *, int *, const unsigned char *, const unsigned char *, const int *,
                            unsigned, unsigned);
typedef void (*local_fn)(gs_word *, int *, int *, const unsigned char *, const unsigned char *,
                         const int *, unsigned, unsigned, unsigned, unsigned);
typedef void (*tagged_fn)(gs_word *, int *, int *, const unsigned char *, const unsigned char *,
                          const int *, unsigned, unsigned);

/* The kernels of one tile side. */
struct nw_kernels {
    relaunch_fn relaunch;
    local_fn local;
    tagged_fn tagged;
    struct {
        gs_algo algo;
        global_fn kernel;
    } global[GS_ALGO_COUNT_ + 1];
};

#define NW_CUDA_ENTRY_X(ID, name, value, text, desc) {GS_ALGO_##ID, nw_global<B, nw_##name>},
template <unsigned B> static const nw_kernels *kernels_of()
{
    static const nw_kernels k = {
        nw_relaunch<B>,
        nw_local_kernel<B>,
        nw_tagged_kernel<B>,
        {GS_PROTOCOLS_SHARED(NW_CUDA_ENTRY_X){GS_ALGO_CLUSTER, nw_global<B, nw_cluster>},
         {GS_ALGO_AUTO, nw_global<B, nw_auto>},
         {GS_ALGO_CG, nw_global<B, nw_cg>}}};
    return &k;
}

static const nw_kernels *kernels_for(unsigned B)
{
    return B == 16u ? kernels_of<16>() : B == 32u ? kernels_of<32>() : kernels_of<64>();
}

/* The persistent kernel of protocol p (GS_ALGO_CG: the cg baseline's), or NULL. */
static const void *global_of(unsigned B, gs_algo protocol)
{
    const nw_kernels *k = kernels_for(B);
    for (size_t i = 0; i < sizeof k->global / sizeof *k->global; ++i)
        if (k->global[i].kernel && k->global[i].algo == protocol)
            return (const void *)k->global[i].kernel;
    return NULL;
}

static const void *kernel_of(unsigned B, nw_scheme scheme, gs_algo protocol)
{
    switch (scheme) {
    case NW_RELAUNCH:
    case NW_RELAUNCH_GRAPH: return (const void *)kernels_for(B)->relaunch;
    case NW_LOCAL: return (const void *)kernels_for(B)->local;
    case NW_LOCAL_TAGGED: return (const void *)kernels_for(B)->tagged;
    case NW_CG: return global_of(B, GS_ALGO_CG);
    default: return global_of(B, protocol);
    }
}

static int cuda_supported(gs_device *dev, nw_scheme scheme, gs_algo protocol)
{
    if (scheme != NW_GLOBAL)
        return (unsigned)scheme < NW_SCHEME_COUNT_;
    return global_of(16, protocol) != NULL && gsa_protocol_runs(dev, protocol);
}

static gs_status cuda_fail(nw_session *s, cudaError_t e, const char *what)
{
    return nw_fail(s, gsa_cuda_status(e), "%s: %s", what, cudaGetErrorString(e));
}

/* The global scheme asks the library (it knows what a protocol's launch adds); the
 * others ask the occupancy API themselves, as a user would. */
static gs_status cuda_max_groups(gs_device *dev, nw_scheme scheme, gs_algo protocol, unsigned tile,
                                 unsigned *out)
{
    const void *k = kernel_of(tile, scheme, protocol);
    if (scheme == NW_GLOBAL)
        return gs_cuda_max_groups(dev, k, tile, 0, out);
    return gsa_cuda_resident_blocks(dev, k, tile, 0, out);
}

struct cuda_impl {
    gs_barrier *bar;
    gs_local *L;
    void *state;
    int *m, *edge, *blosum;
    unsigned char *s1, *s2;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
};

/* The relaunch baselines' 2R - 1 launches, a diagonal each, its tiles' blocks (at most
 * cfg->groups: the rest are strided over). */
static cudaError_t enqueue_diagonals(const nw_session *s, cuda_impl *m)
{
    relaunch_fn k = kernels_for(s->cfg->tile)->relaunch;
    for (unsigned d = 0; d + 1u < 2u * s->R; ++d) {
        unsigned count = nw_diag_count_host(d, s->R);
        unsigned blocks = count < s->cfg->groups ? count : s->cfg->groups;
        k<<<blocks, s->cfg->tile, 0, m->stream>>>(m->m, m->edge, m->s1, m->s2, m->blosum, s->cfg->n,
                                                  d);
    }
    return cudaGetLastError();
}

/* relaunch-graph: the launches captured once, instantiated here, outside the timed span. */
static gs_status capture(nw_session *s, cuda_impl *m)
{
    cudaError_t e = cudaStreamBeginCapture(m->stream, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "cudaStreamBeginCapture");
    cudaError_t launched = enqueue_diagonals(s, m);
    e = cudaStreamEndCapture(m->stream, &m->graph);
    if (launched != cudaSuccess || e != cudaSuccess)
        return cuda_fail(s, launched != cudaSuccess ? launched : e, "capturing the relaunch graph");
    e = cudaGraphInstantiate(&m->exec, m->graph, 0);
    return e == cudaSuccess ? GS_OK : cuda_fail(s, e, "cudaGraphInstantiate");
}

static gs_status cuda_open(nw_session *s)
{
    const nw_config *c = s->cfg;
    size_t len = (size_t)s->R * c->tile + 1u;
    cuda_impl *m = static_cast<cuda_impl *>(calloc(1, sizeof(cuda_impl)));
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    int ordinal = 0;
    gs_status st = gs_cuda_ordinal(s->dev, &ordinal);
    if (st != GS_OK)
        return nw_fail(s, st, "gs_cuda_ordinal");
    cudaError_t e = gsa_cuda_stream_open(ordinal, &m->stream, &m->start, &m->stop);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->m, s->cells * sizeof(int));
    if (e == cudaSuccess)
        e = cudaMalloc(&m->edge, (size_t)s->R * s->pitch * sizeof(int));
    if (e == cudaSuccess)
        e = cudaMalloc(&m->s1, len);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->s2, len);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->blosum, sizeof nw_blosum62);
    /* On the app's stream, synchronised: a copy from pageable memory may return before
     * its DMA lands. */
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(m->s1, s->s1, len, cudaMemcpyHostToDevice, m->stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(m->s2, s->s2, len, cudaMemcpyHostToDevice, m->stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(m->blosum, nw_blosum62, sizeof nw_blosum62, cudaMemcpyHostToDevice,
                            m->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "allocating the matrix");
    if (c->scheme == NW_RELAUNCH_GRAPH)
        return capture(s, m);
    if (c->scheme == NW_LOCAL || c->scheme == NW_LOCAL_TAGGED) {
        if ((st = nw_local_open(s, &m->L)) != GS_OK)
            return st;
        st = gs_local_native(m->L, &m->state);
        return st == GS_OK ? GS_OK : nw_fail(s, st, "gs_local_native");
    }
    if (c->scheme != NW_GLOBAL)
        return GS_OK;
    if ((st = nw_barrier_open(s, &m->bar)) != GS_OK)
        return st;
    st = gs_cuda_state(m->bar, &m->state);
    return st == GS_OK ? GS_OK : nw_fail(s, st, "gs_cuda_state");
}

/* The time between the two events, once the second has happened. */
static gs_status elapsed(nw_session *s, cuda_impl *m, double *ns)
{
    cudaError_t e = gsa_cuda_elapsed_ns(m->start, m->stop, ns);
    return e == cudaSuccess ? GS_OK : cuda_fail(s, e, "the timed launches");
}

/* Everything but the global scheme, between two events on the app's stream. */
static gs_status run_own(nw_session *s, cuda_impl *m, double *ns)
{
    const nw_config *c = s->cfg;
    unsigned n = c->n;
    gs_word *none = NULL;
    cudaError_t e = cudaSuccess;
    int local = c->scheme == NW_LOCAL || c->scheme == NW_LOCAL_TAGGED;
    gs_status st = local ? gs_local_prepare(m->L, m->stream) : GS_OK;
    if (st != GS_OK)
        return nw_fail(s, st, "gs_local_prepare");
    if ((e = cudaEventRecord(m->start, m->stream)) != cudaSuccess)
        return cuda_fail(s, e, "cudaEventRecord");
    s->result->launches = 1;
    if (c->scheme == NW_LOCAL) {
        unsigned v[3] = {0, 0, c->silent_tile};
        nw_variant_args(&c->variant, &v[0], &v[1]);
        kernels_for(c->tile)->local<<<c->groups, c->tile, 0, m->stream>>>(
            static_cast<gs_word *>(m->state), m->m, m->edge, m->s1, m->s2, m->blosum, n, v[0], v[1],
            v[2]);
        e = cudaGetLastError();
    } else if (c->scheme == NW_LOCAL_TAGGED) {
        kernels_for(c->tile)->tagged<<<c->groups, c->tile, 0, m->stream>>>(
            static_cast<gs_word *>(m->state), m->m, m->edge, m->s1, m->s2, m->blosum, n,
            c->silent_tile);
        e = cudaGetLastError();
    } else if (c->scheme == NW_CG) {
        void *args[] = {&none, &m->m, &m->edge, &m->s1, &m->s2, &m->blosum, &n};
        e = cudaLaunchCooperativeKernel(global_of(c->tile, GS_ALGO_CG), dim3(c->groups),
                                        dim3(c->tile), args, 0, m->stream);
    } else {
        s->result->launches = 2u * s->R - 1u;
        e = c->scheme == NW_RELAUNCH_GRAPH ? cudaGraphLaunch(m->exec, m->stream)
                                           : enqueue_diagonals(s, m);
    }
    if (e != cudaSuccess)
        return cuda_fail(s, e, nw_scheme_name(c->scheme));
    if ((e = cudaEventRecord(m->stop, m->stream)) != cudaSuccess)
        return cuda_fail(s, e, "cudaEventRecord");
    st = elapsed(s, m, ns);
    if (local)
        st = nw_local_verdict(s, m->L, st == GS_OK ? gs_local_collect(m->L, m->stream) : st);
    return st;
}

static gs_status cuda_run(nw_session *s, double *ns)
{
    const nw_config *c = s->cfg;
    cuda_impl *m = static_cast<cuda_impl *>(s->impl);
    cudaError_t e = cudaMemsetAsync(m->m, NW_POISON, s->cells * sizeof(int), m->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "poisoning the matrix");
    if (c->scheme != NW_GLOBAL)
        return run_own(s, m, ns);
    unsigned n = c->n;
    void *args[] = {&m->state, &m->m, &m->edge, &m->s1, &m->s2, &m->blosum, &n};
    s->result->launches = 1;
    gs_status st =
        gs_cuda_launch_timed(m->bar, global_of(c->tile, c->protocol), GS_DIM3_1D(c->groups),
                             GS_DIM3_1D(c->tile), 0, args, m->stream, ns);
    return st == GS_OK ? GS_OK
                       : nw_fail(s, st, "gs_cuda_launch_timed(%u x %u)", c->groups, c->tile);
}

static gs_status cuda_fetch(nw_session *s, int32_t *out)
{
    cuda_impl *m = static_cast<cuda_impl *>(s->impl);
    size_t w = (size_t)s->cfg->n + 1u;
    cudaError_t e =
        cudaMemcpy2DAsync(out, w * sizeof(int), m->m + nw_lead(), s->pitch * sizeof(int),
                          w * sizeof(int), w, cudaMemcpyDeviceToHost, m->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m->stream);
    return e == cudaSuccess ? GS_OK : cuda_fail(s, e, "reading the matrix back");
}

static void cuda_close(nw_session *s)
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
    cudaFree(m->m);
    cudaFree(m->edge);
    cudaFree(m->s1);
    cudaFree(m->s2);
    cudaFree(m->blosum);
    cudaGetLastError();
    free(m);
    s->impl = NULL;
}

extern "C" const nw_backend nw_cuda_backend = {cuda_supported, cuda_max_groups, cuda_open,
                                               cuda_run,       cuda_fetch,      cuda_close};
