/* The app on gridsync's CUDA back end, written as a user writes it: the gridsync
 * kernels launch through gs_cuda_launch_timed, the local form's with <<<>>> and the halo
 * form's with cudaLaunchCooperativeKernel between gs_local_prepare and gs_local_collect
 * on the app's stream; the baselines are the app's own CUDA
 * (cudaLaunchCooperativeKernel for cg, a launch per iteration on a stream for
 * relaunch, those launches captured into a graph for relaunch-graph), timed with CUDA
 * events around the launch(es). `auto` launches the kernel of the protocol the library
 * chose for the grid (gs_barrier_get_algo), chosen on the host. Built whole-program with
 * --fmad=false (CMakeLists.txt). */
#include <cuda_runtime.h>

#include <cstdlib>
#include <mutex>

#include "gridsync/host_cuda.h"

#include "appkit_cuda.cuh"
#include "backend.h"
#include "jacobi_kernels.cuh"

typedef void (*persistent_fn)(gs_word *, float *, float *, unsigned, unsigned);
typedef void (*split_fn)(gs_word *, float *, float *, unsigned, unsigned, unsigned, unsigned);

#define GSJ_CUDA_ENTRY(name, algo) \
    {algo, gsj_persistent<gsj_##name>, gsj_split<gsj_##name>, gsj_resident<gsj_##name>},
#define GSJ_CUDA_ENTRY_X(ID, name, value, text, desc) GSJ_CUDA_ENTRY(name, GS_ALGO_##ID)
static const struct {
    gs_algo algo;
    persistent_fn kernel;
    split_fn split, resident;
} persistent[] = {GS_PROTOCOLS_SHARED(GSJ_CUDA_ENTRY_X) GSJ_CUDA_ENTRY(cluster, GS_ALGO_CLUSTER)
                      GSJ_CUDA_ENTRY(auto, GS_ALGO_AUTO) GSJ_CUDA_ENTRY(cg, GS_ALGO_CG)};

/* The kernel a method runs in a form (the one-iteration kernel for the relaunch
 * baselines, in any). */
static const void *kernel_of(gs_algo method, gsj_form form)
{
    if (method == GS_ALGO_RELAUNCH || method == GS_ALGO_RELAUNCH_GRAPH)
        return (const void *)gsj_step;
    if (form == GSJ_FORM_LOCAL || form == GSJ_FORM_HALO)
        return method != GS_ALGO_AUTO  ? NULL
               : form == GSJ_FORM_HALO ? (const void *)gsj_halo
                                       : (const void *)gsj_local;
    for (size_t i = 0; i < sizeof persistent / sizeof *persistent; ++i)
        if (persistent[i].algo == method)
            return form == GSJ_FORM_SPLIT      ? (const void *)persistent[i].split
                   : form == GSJ_FORM_RESIDENT ? (const void *)persistent[i].resident
                                               : (const void *)persistent[i].kernel;
    return NULL;
}

/* The dynamic shared memory a configuration's kernel takes (the resident form's tiles). */
static size_t shared_of(const gsj_config *c)
{
    gsj_form form = gsj_kernel_form(c);
    return form == GSJ_FORM_RESIDENT || form == GSJ_FORM_HALO ? gsj_resident_bytes(c->n, c->groups)
                                                              : 0u;
}

static int cuda_supported(gs_device *dev, gs_algo method)
{
    if (kernel_of(method, GSJ_FORM_SYNC) == NULL)
        return 0;
    return gsa_is_baseline(method) || gsa_protocol_runs(dev, method);
}

static gs_status cuda_fail(gsj_session *s, cudaError_t e, const char *what)
{
    return gsj_fail(s, gsa_cuda_status(e), "%s: %s", what, cudaGetErrorString(e));
}

/* The gridsync barrier kernels ask the library (it knows what a protocol's launch adds);
 * the baselines and the local and halo forms' kernels (the app's own launches) ask the
 * occupancy API themselves, as a user would. */
static gs_status cuda_max_groups(gs_device *dev, gs_algo method, gsj_form form, unsigned group_size,
                                 unsigned *out)
{
    const void *k = kernel_of(method, form);
    if (k == NULL)
        return GS_ERR_UNSUPPORTED;
    if (!gsa_is_baseline(method) && form != GSJ_FORM_LOCAL && form != GSJ_FORM_HALO)
        return gs_cuda_max_groups(dev, k, group_size, 0, out);
    return gsa_cuda_resident_blocks(dev, k, group_size, 0, out);
}

static gs_status cuda_group_memory(gs_device *dev, size_t *out)
{
    int ordinal = 0, bytes = 0;
    gs_status st = gs_cuda_ordinal(dev, &ordinal);
    if (st == GS_OK && cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                              ordinal) != cudaSuccess) {
        cudaGetLastError();
        st = GS_ERR_NATIVE;
    }
    *out = (size_t)bytes;
    return st;
}

/* Above the default 48 KiB of dynamic shared memory a kernel must ask for it. */
static gs_status allow_shared(gsj_session *s, const void *kernel)
{
    size_t bytes = shared_of(s->cfg);
    cudaError_t e =
        bytes > 48u * 1024u
            ? cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes)
            : cudaSuccess;
    return e == cudaSuccess
               ? GS_OK
               : cuda_fail(s, e, "cudaFuncSetAttribute (the resident tiles' shared memory)");
}

/* The grids of a finished configuration, kept for the next one of the same side on the
 * same GPU (gsj_release frees them): every method of a size then runs on the same memory,
 * as one user's solver does, and where the grids lie is one less thing that differs
 * between the methods compared. (A run moves from process to process by as much as some
 * methods differ: flip's kernel took 59.87 and 60.39 ms at 512^2 x 20000 on 132 blocks in
 * two processes on an H200, bench/results/h200/fourteenth/auto_order.txt.) Within one
 * gsj_run_methods call the configurations share the first one's grids (gsj_session.peer),
 * as on the other back ends; `kept` carries them from one call to the next. */
static struct {
    std::mutex lock;
    int ordinal;
    unsigned n;
    float *a, *b, *initial; /* NULL: none kept */
    int lent;               /* a configuration runs on them */
} kept;

struct cuda_impl {
    int kept_grids; /* a, b and initial are `kept`'s */
    int peer_grids; /* a, b and initial are the peer session's (gsj_session.peer) */
    gs_barrier *bar;
    const void *kernel; /* the gridsync kernel a run launches (auto: the chosen protocol's) */
    gs_local *L;        /* the local and halo forms' */
    void *state;
    float *a, *b, *initial;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
};

/* The relaunch baselines' T launches, b receiving iteration 0. */
static cudaError_t enqueue_steps(const gsj_config *c, cuda_impl *m)
{
    float *a = m->a, *b = m->b;
    for (unsigned t = 0; t < c->iters; ++t) {
        gsj_step<<<c->groups, c->group_size, 0, m->stream>>>(a, b, c->n);
        float *swap = a;
        a = b;
        b = swap;
    }
    return cudaGetLastError();
}

/* relaunch-graph: the T launches captured once, instantiated here, outside the timed
 * span; each run replays them. */
static gs_status capture(gsj_session *s, cuda_impl *m)
{
    cudaError_t e = cudaStreamBeginCapture(m->stream, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "cudaStreamBeginCapture");
    cudaError_t launched = enqueue_steps(s->cfg, m);
    e = cudaStreamEndCapture(m->stream, &m->graph);
    if (launched != cudaSuccess || e != cudaSuccess)
        return cuda_fail(s, launched != cudaSuccess ? launched : e, "capturing the relaunch graph");
    e = cudaGraphInstantiate(&m->exec, m->graph, 0);
    return e == cudaSuccess ? GS_OK : cuda_fail(s, e, "cudaGraphInstantiate");
}

static void free_grids(float *a, float *b, float *initial)
{
    cudaFree(a);
    cudaFree(b);
    cudaFree(initial);
}

/* Whether `kept` held grids of side n on this GPU: then they are m's. */
static int take_kept(int ordinal, unsigned n, cuda_impl *m)
{
    std::lock_guard<std::mutex> hold(kept.lock);
    if (kept.a == NULL || kept.lent || kept.ordinal != ordinal || kept.n != n)
        return 0;
    kept.lent = 1;
    m->a = kept.a;
    m->b = kept.b;
    m->initial = kept.initial;
    return 1;
}

/* m's grids back to `kept`, or freed where `kept` lends others or m has none whole. */
static void keep_grids(int ordinal, unsigned n, cuda_impl *m)
{
    std::lock_guard<std::mutex> hold(kept.lock);
    if (m->kept_grids) {
        kept.lent = 0;
        return;
    }
    if (kept.lent || m->a == NULL || m->b == NULL || m->initial == NULL) {
        free_grids(m->a, m->b, m->initial);
        return;
    }
    free_grids(kept.a, kept.b, kept.initial);
    kept.ordinal = ordinal;
    kept.n = n;
    kept.a = m->a;
    kept.b = m->b;
    kept.initial = m->initial;
}

/* m's grids: the peer session's (already holding the start), the kept ones, or new. */
static cudaError_t grids_of(const gsj_session *s, int ordinal, cuda_impl *m)
{
    const cuda_impl *peer = s->peer ? static_cast<const cuda_impl *>(s->peer->impl) : NULL;
    size_t bytes = (size_t)s->cfg->n * s->cfg->n * sizeof(float);
    if (peer && peer->a && peer->b && peer->initial) {
        m->a = peer->a;
        m->b = peer->b;
        m->initial = peer->initial;
        m->peer_grids = 1;
        return cudaSuccess;
    }
    if ((m->kept_grids = take_kept(ordinal, s->cfg->n, m)))
        return cudaSuccess;
    cudaError_t e = cudaMalloc(&m->a, bytes);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->b, bytes);
    if (e == cudaSuccess) /* a copy of the start: each run reloads from it */
        e = cudaMalloc(&m->initial, bytes);
    return e;
}

static void cuda_release(void)
{
    std::lock_guard<std::mutex> hold(kept.lock);
    if (kept.lent || kept.a == NULL)
        return;
    int current = 0;
    if (cudaGetDevice(&current) == cudaSuccess && cudaSetDevice(kept.ordinal) == cudaSuccess) {
        free_grids(kept.a, kept.b, kept.initial);
        cudaSetDevice(current);
    }
    cudaGetLastError();
    kept.a = kept.b = kept.initial = NULL;
}

static gs_status cuda_open(gsj_session *s)
{
    const gsj_config *c = s->cfg;
    size_t bytes = (size_t)c->n * c->n * sizeof(float);
    cuda_impl *m = static_cast<cuda_impl *>(calloc(1, sizeof(cuda_impl)));
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    int ordinal = 0;
    gs_status st = gs_cuda_ordinal(s->dev, &ordinal);
    if (st != GS_OK)
        return gsj_fail(s, st, "gs_cuda_ordinal");
    cudaError_t e = gsa_cuda_stream_open(ordinal, &m->stream, &m->start, &m->stop);
    if (e == cudaSuccess)
        e = grids_of(s, ordinal, m);
    /* On the app's stream, which does not wait for the legacy default stream: a plain
     * cudaMemcpy from pageable memory may return before its DMA has landed, and the
     * first run's copies from `initial` then read a partly written grid (the cg and
     * relaunch rows of one H100 run failed their check that way, 3 of 200). */
    if (e == cudaSuccess && !m->peer_grids)
        e = cudaMemcpyAsync(m->initial, s->initial, bytes, cudaMemcpyHostToDevice, m->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "allocating the grids");
    size_t most = 0;
    if (shared_of(c) && (cuda_group_memory(s->dev, &most) != GS_OK || shared_of(c) > most))
        return gsj_fail(s, GS_ERR_UNSUPPORTED, "resident tiles of %zu bytes: a block may have %zu",
                        shared_of(c), most);
    if ((st = allow_shared(s, kernel_of(c->method, gsj_kernel_form(c)))) != GS_OK)
        return st;
    if (c->method == GS_ALGO_RELAUNCH_GRAPH)
        return capture(s, m);
    if (gsa_is_baseline(c->method))
        return GS_OK;
    if (gsj_kernel_form(c) == GSJ_FORM_LOCAL || gsj_kernel_form(c) == GSJ_FORM_HALO) {
        if ((st = gsj_kernel_form(c) == GSJ_FORM_HALO ? gsj_halo_open(s, &m->L)
                                                      : gsj_local_open(s, &m->L)) != GS_OK)
            return st;
        st = gs_local_native(m->L, &m->state);
        return st == GS_OK ? GS_OK : gsj_fail(s, st, "gs_local_native");
    }
    if ((st = gsj_barrier_open(s, &m->bar)) != GS_OK)
        return st;
    /* auto's choice made on the host: the library resolved GS_ALGO_AUTO for the grid when
     * it made the barrier (gs_barrier_get_algo says to what), and the app launches that
     * protocol's own kernel, not gsj_auto's, which holds tree's path beside flip's: on an
     * H100 at 132 blocks, where both run flip, gsj_auto's took 62.23 and 62.75 ms against
     * flip's 59.72 and 60.32 (512^2 x 20000, ninth and tenth sessions). */
    gs_algo chosen = c->method;
    if (chosen == GS_ALGO_AUTO && (st = gs_barrier_get_algo(m->bar, &chosen)) != GS_OK)
        return gsj_fail(s, st, "gs_barrier_get_algo");
    m->kernel = kernel_of(chosen, gsj_kernel_form(c));
    if (m->kernel == NULL)
        return gsj_fail(s, GS_ERR_UNSUPPORTED, "no kernel of %s", gs_algo_name(chosen));
    if (m->kernel != kernel_of(c->method, gsj_kernel_form(c)) &&
        (st = allow_shared(s, m->kernel)) != GS_OK)
        return st;
    st = gs_cuda_state(m->bar, &m->state);
    return st == GS_OK ? GS_OK : gsj_fail(s, st, "gs_cuda_state");
}

/* The time between the two events, once the second has happened. */
static gs_status elapsed(gsj_session *s, cuda_impl *m, double *ns)
{
    cudaError_t e = gsa_cuda_elapsed_ns(m->start, m->stop, ns);
    return e == cudaSuccess ? GS_OK : cuda_fail(s, e, "the timed launches");
}

/* The baselines, between two events on the app's stream. */
static gs_status run_baseline(gsj_session *s, cuda_impl *m, double *ns)
{
    const gsj_config *c = s->cfg;
    cudaError_t e = cudaEventRecord(m->start, m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "cudaEventRecord");
    if (c->method == GS_ALGO_CG) {
        unsigned n = c->n, iters = c->iters, gx, gy;
        gsj_tiling(c->groups, &gx, &gy);
        gs_word *none = NULL;
        void *args[] = {&none, &m->a, &m->b, &n, &iters, &gx, &gy}; /* sync form: 5 */
        e = cudaLaunchCooperativeKernel(kernel_of(GS_ALGO_CG, gsj_kernel_form(c)), dim3(c->groups),
                                        dim3(c->group_size), args, shared_of(c), m->stream);
    } else if (c->method == GS_ALGO_RELAUNCH_GRAPH) {
        e = cudaGraphLaunch(m->exec, m->stream);
    } else {
        e = enqueue_steps(c, m);
    }
    if (e != cudaSuccess)
        return cuda_fail(s, e, gs_algo_name(c->method));
    e = cudaEventRecord(m->stop, m->stream);
    return e == cudaSuccess ? elapsed(s, m, ns) : cuda_fail(s, e, "cudaEventRecord");
}

/* The local and halo forms: a new epoch on the app's stream, the kernel between two
 * events (the halo form's launched cooperatively: its tiles stay with their blocks, so
 * every block must be resident, and CUDA refuses a grid that cannot be), then the
 * state's verdict. */
static gs_status run_local(gsj_session *s, cuda_impl *m, double *ns)
{
    const gsj_config *c = s->cfg;
    gs_status st = gs_local_prepare(m->L, m->stream);
    if (st != GS_OK)
        return gsj_fail(s, st, "gs_local_prepare");
    unsigned bands = gsj_local_bands(c->n, c->groups), stride = gsj_halo_stride(c->n, c->groups);
    unsigned n = c->n, iters = c->iters, gx, gy;
    gsj_tiling(c->groups, &gx, &gy);
    cudaError_t e = cudaEventRecord(m->start, m->stream);
    if (e == cudaSuccess && gsj_kernel_form(c) == GSJ_FORM_HALO) {
        void *args[] = {&m->state, &m->a, &m->b, &n, &iters, &gx, &gy, &stride};
        e = cudaLaunchCooperativeKernel((const void *)gsj_halo, dim3(c->groups),
                                        dim3(c->group_size), args, shared_of(c), m->stream);
    } else if (e == cudaSuccess) {
        gsj_local<<<c->groups, c->group_size, 0, m->stream>>>((gs_word *)m->state, m->a, m->b, c->n,
                                                              c->iters, bands);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaEventRecord(m->stop, m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e,
                         gsj_kernel_form(c) == GSJ_FORM_HALO ? "the halo form's cooperative launch"
                                                             : "the local form's launch");
    st = elapsed(s, m, ns);
    gs_status verdict = gsj_local_verdict(s, m->L, gs_local_collect(m->L, m->stream));
    return verdict != GS_OK ? verdict : st;
}

static gs_status cuda_run(gsj_session *s, double *ns)
{
    const gsj_config *c = s->cfg;
    cuda_impl *m = static_cast<cuda_impl *>(s->impl);
    size_t bytes = (size_t)c->n * c->n * sizeof(float);
    cudaError_t e = cudaMemcpyAsync(m->a, m->initial, bytes, cudaMemcpyDeviceToDevice, m->stream);
    if (e == cudaSuccess) /* the edges must be in both */
        e = cudaMemcpyAsync(m->b, m->initial, bytes, cudaMemcpyDeviceToDevice, m->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "reloading the initial grid");
    if (gsa_is_baseline(c->method))
        return run_baseline(s, m, ns);
    if (m->L)
        return run_local(s, m, ns);
    unsigned n = c->n, iters = c->iters, gx, gy;
    gsj_tiling(c->groups, &gx, &gy);
    void *args[] = {&m->state, &m->a, &m->b, &n, &iters, &gx, &gy}; /* sync form: 5 */
    gs_status st =
        gs_cuda_launch_timed(m->bar, m->kernel, GS_DIM3_1D(c->groups), GS_DIM3_1D(c->group_size),
                             shared_of(c), args, m->stream, ns);
    return st == GS_OK ? GS_OK
                       : gsj_fail(s, st, "gs_cuda_launch_timed(%u x %u)", c->groups, c->group_size);
}

static gs_status cuda_fetch(gsj_session *s, float *out)
{
    cuda_impl *m = static_cast<cuda_impl *>(s->impl);
    size_t bytes = (size_t)s->cfg->n * s->cfg->n * sizeof(float);
    /* Iteration t writes b when t is even: the last one, T - 1, wrote b when T is odd. */
    cudaError_t e =
        cudaMemcpyAsync(out, s->cfg->iters % 2 ? m->b : m->a, bytes, cudaMemcpyDeviceToHost,
                        m->stream); /* after the run, on its stream */
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m->stream);
    return e == cudaSuccess ? GS_OK : cuda_fail(s, e, "reading the grid back");
}

static void cuda_close(gsj_session *s)
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
    int ordinal = 0;
    if (!m->peer_grids && gs_cuda_ordinal(s->dev, &ordinal) == GS_OK)
        keep_grids(ordinal, s->cfg->n, m);
    else if (!m->peer_grids) /* (the peer's go with the peer, closed after this session) */
        free_grids(m->a, m->b, m->initial);
    cudaGetLastError();
    free(m);
    s->impl = NULL;
}

extern "C" const gsj_backend gsj_cuda_backend = {cuda_supported, cuda_max_groups, cuda_group_memory,
                                                 cuda_open,      cuda_run,        cuda_fetch,
                                                 cuda_close,     cuda_release};
