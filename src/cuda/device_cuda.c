/* The CUDA back end: devices, memory and launches of the built-in kernel.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

#define GS_CUDA_GRAPH_CHUNK 4096u

static gs_cuda_device *as_cuda(gs_device *dev) { return (gs_cuda_device *)dev; }

gs_status gs_cuda_fail(gs_device *dev, cudaError_t e, const char *what)
{
    (void)cudaGetLastError(); /* clears the error unless it is sticky */
    gs_status s = gs_native_fail(dev, (int)e, what);
    snprintf(dev->native_text, sizeof dev->native_text, "%s: %s (%d): %s", what,
             cudaGetErrorName(e), (int)e, cudaGetErrorString(e));
    switch (e) {
    case cudaErrorCooperativeLaunchTooLarge: return GS_ERR_TOO_MANY_GROUPS;
    case cudaErrorMemoryAllocation: return GS_ERR_OUT_OF_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver: return GS_ERR_NO_DEVICE;
    default: return s;
    }
}

/* ---- devices --------------------------------------------------------------------- */

static int cuda_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

static void cuda_close(gs_device *dev)
{
    gs_cuda_device *d = as_cuda(dev);
    if (!d)
        return;
    cudaSetDevice(d->ordinal);
    if (d->start)
        cudaEventDestroy(d->start);
    if (d->stop)
        cudaEventDestroy(d->stop);
    if (d->stream)
        cudaStreamDestroy(d->stream);
    free(d);
}

/* The kernel module's release ("580.159.04"), which the CUDA API does not give: the
 * results name the driver, and two releases of one CUDA version can time differently.
 * Empty where /proc/driver/nvidia/version cannot be read (not Linux, a container). */
static void driver_release(char *out, size_t n)
{
    char line[256], tok[64];
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    out[0] = '\0';
    if (!f)
        return;
    const char *p = fgets(line, sizeof line, f) ? strstr(line, "Module") : NULL;
    fclose(f);
    for (int used = 0; p && sscanf(p, "%63s%n", tok, &used) == 1; p += used)
        if (tok[0] >= '0' && tok[0] <= '9' && strchr(tok, '.')) {
            snprintf(out, n, "%s", tok);
            return;
        }
}

static gs_status cuda_open(int index, gs_device **out)
{
    struct cudaDeviceProp prop;
    cudaError_t e;
    int v = 0, driver = 0, runtime = 0;
    if (index < 0 || index >= cuda_count())
        return GS_ERR_NO_DEVICE;
    gs_cuda_device *d = calloc(1, sizeof *d);
    if (!d)
        return GS_ERR_OUT_OF_MEMORY;
    d->ordinal = index;
    d->cluster_coop = -1;
    gs_device *dev = &d->base;
    dev->ops = &gs_cuda_ops;
    if ((e = cudaSetDevice(index)) != cudaSuccess ||
        (e = cudaGetDeviceProperties(&prop, index)) != cudaSuccess) {
        gs_status s = gs_cuda_fail(dev, e, "cudaGetDeviceProperties");
        free(d);
        return s == GS_ERR_NATIVE ? GS_ERR_NO_DEVICE : s;
    }
    if ((e = cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking)) != cudaSuccess ||
        (e = cudaEventCreate(&d->start)) != cudaSuccess ||
        (e = cudaEventCreate(&d->stop)) != cudaSuccess) {
        gs_status s = gs_cuda_fail(dev, e, "cudaStreamCreate");
        cuda_close(dev);
        return s;
    }
    d->sms = (unsigned)prop.multiProcessorCount;
    d->clusters = prop.major >= 9;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrCooperativeLaunch, index) == cudaSuccess)
        d->coop = v != 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);

    gs_device_info *info = &dev->info;
    info->backend = GS_BACKEND_CUDA;
    size_t name_len = 0;
    while (name_len + 1 < sizeof info->name && name_len < sizeof prop.name && prop.name[name_len])
        ++name_len;
    memcpy(info->name, prop.name, name_len);
    info->name[name_len] = '\0';
    char release[64];
    driver_release(release, sizeof release);
    snprintf(info->platform, sizeof info->platform, "CUDA driver %d.%d%s%s%s, runtime %d.%d",
             driver / 1000, driver % 1000 / 10, release[0] ? " (" : "", release, release[0] ? ")" : "",
             runtime / 1000, runtime % 1000 / 10);
    info->compute_units = d->sms;
    info->max_group_size = (unsigned)prop.maxThreadsPerBlock;
    info->is_gpu = 1;
    info->ordering = 2; /* explicit .acquire/.release/.acq_rel at .gpu scope */
    info->global_mem_bytes = (uint64_t)prop.totalGlobalMem;
    info->l2_bytes = (uint64_t)prop.l2CacheSize;
    info->cc_major = (unsigned)prop.major;
    info->cc_minor = (unsigned)prop.minor;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, index) == cudaSuccess)
        info->clock_khz = (unsigned)v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, index) == cudaSuccess)
        info->mem_clock_khz = (unsigned)v;
    (void)cudaGetLastError();
    *out = dev;
    return GS_OK;
}

gs_status gs_cuda_kernel_bound(gs_cuda_device *d, const void *kernel, unsigned group_size,
                               size_t shared_bytes, unsigned *out)
{
    struct cudaFuncAttributes fa;
    int per_sm = 0;
    cudaError_t e;
    *out = 0;
    if ((e = cudaSetDevice(d->ordinal)) != cudaSuccess ||
        (e = cudaFuncGetAttributes(&fa, kernel)) != cudaSuccess)
        return gs_cuda_fail(&d->base, e, "cudaFuncGetAttributes");
    if (group_size == 0 || group_size > (unsigned)fa.maxThreadsPerBlock)
        return GS_ERR_INVALID_ARGUMENT;
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)group_size, shared_bytes);
    if (e != cudaSuccess)
        return gs_cuda_fail(&d->base, e, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    *out = (unsigned)per_sm * d->sms;
    return GS_OK;
}

static int cuda_algo_supported(const gs_device *dev, gs_algo algo);

#define GS_CUDA_KERNEL_CASE_(ID, name, value, text, desc)                                 \
    case GS_ALGO_##ID: return gs_cuda_kernel_##name(w);
const void *gs_cuda_work_kernel(gs_algo algo, int w)
{
    switch (algo) {
    GS_PROTOCOLS_SHARED(GS_CUDA_KERNEL_CASE_)
    GS_PROTOCOLS_CUDA(GS_CUDA_KERNEL_CASE_)
    default: return gs_cuda_kernel_relaunch(w);
    }
}
#undef GS_CUDA_KERNEL_CASE_

/* Which of a protocol's kernels (GS_FORM_*) a launch with these parameters needs. */
static int kernel_form(const gs_work_params *prm)
{
    if (prm->compute != 0u || prm->split != 0u)
        return GS_FORM_ALL;
    return prm->work == GS_WORK_EMPTY ? GS_FORM_BARRIERS : GS_FORM_PROGRAMS;
}

/* The bound for the built-in program, whatever the protocol: the smallest over the
 * protocols' kernels, both forms (they all fit in 32 registers, so in practice one
 * number). */
static gs_status cuda_max_groups(gs_device *dev, unsigned group_size, unsigned *out)
{
    unsigned best = ~0u;
    for (unsigned k = 0; k < 3 * GS_ALGO_COUNT_; ++k) {
        unsigned n = 0;
        gs_algo a = (gs_algo)(k / 3);
        if (!cuda_algo_supported(dev, a))
            continue;
        gs_status s = gs_cuda_kernel_bound(as_cuda(dev), gs_cuda_work_kernel(a, (int)(k % 3)),
                                           group_size, 0, &n);
        if (s != GS_OK)
            return s;
        if (n < best)
            best = n;
    }
    *out = best;
    return GS_OK;
}

static int cuda_algo_supported(const gs_device *dev, gs_algo algo)
{
    const gs_cuda_device *d = (const gs_cuda_device *)dev;
    switch (algo) {
    case GS_ALGO_CLUSTER: return d->clusters;
    case GS_ALGO_CG: return d->coop;
    default: return (unsigned)algo < GS_ALGO_COUNT_; /* every protocol of the list */
    }
}

/* The device clock is %globaltimer: nanoseconds. */
static uint64_t cuda_timeout_units(gs_device *dev, unsigned ms) { return (uint64_t)ms * 1000000u; }

static unsigned cuda_spinners(const gs_device *dev) { return 0; }

/* ---- memory: cudaMalloc is 256-byte aligned, so every 128-byte line of the state
 * layout is a line of the L2. Copies go through the device's stream. --------------- */

static gs_status cuda_mem_alloc(gs_device *dev, size_t bytes, gs_mem **out)
{
    gs_mem *m = calloc(1, sizeof *m);
    if (!m)
        return GS_ERR_OUT_OF_MEMORY;
    size_t rounded = (bytes + GS_LINE_BYTES - 1) / GS_LINE_BYTES * GS_LINE_BYTES;
    cudaError_t e = cudaSetDevice(as_cuda(dev)->ordinal);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->ptr, rounded ? rounded : GS_LINE_BYTES);
    if (e == cudaSuccess && ((uintptr_t)m->ptr % GS_LINE_BYTES) != 0) {
        cudaFree(m->ptr);
        free(m);
        return GS_ERR_NATIVE; /* never happens: cudaMalloc aligns to 256 bytes */
    }
    /* On the device's stream, where the header's writes follow: a plain cudaMemset goes to
     * the legacy stream, which the non-blocking stream does not wait for. */
    if (e == cudaSuccess)
        e = cudaMemsetAsync(m->ptr, 0, rounded ? rounded : GS_LINE_BYTES, as_cuda(dev)->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(as_cuda(dev)->stream);
    if (e != cudaSuccess) {
        if (m->ptr)
            cudaFree(m->ptr);
        free(m);
        gs_status s = gs_cuda_fail(dev, e, "cudaMalloc");
        return s;
    }
    m->bytes = bytes;
    *out = m;
    return GS_OK;
}

static void cuda_mem_free(gs_device *dev, gs_mem *m)
{
    if (!m)
        return;
    cudaSetDevice(as_cuda(dev)->ordinal);
    cudaFree(m->ptr);
    free(m);
}

static gs_status cuda_copy(gs_device *dev, void *dst, const void *src, size_t n,
                           enum cudaMemcpyKind kind)
{
    gs_cuda_device *d = as_cuda(dev);
    cudaError_t e = cudaSetDevice(d->ordinal);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(dst, src, n, kind, d->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(d->stream);
    return e == cudaSuccess ? GS_OK : gs_cuda_fail(dev, e, "cudaMemcpyAsync");
}

static gs_status cuda_mem_write(gs_device *dev, gs_mem *m, size_t off, const void *src, size_t n)
{
    if (off > m->bytes || n > m->bytes - off)
        return GS_ERR_INVALID_ARGUMENT;
    if (n == 0)
        return GS_OK;
    return cuda_copy(dev, (char *)m->ptr + off, src, n, cudaMemcpyHostToDevice);
}

static gs_status cuda_mem_read(gs_device *dev, gs_mem *m, size_t off, void *dst, size_t n)
{
    if (off > m->bytes || n > m->bytes - off)
        return GS_ERR_INVALID_ARGUMENT;
    if (n == 0)
        return GS_OK;
    return cuda_copy(dev, dst, (const char *)m->ptr + off, n, cudaMemcpyDeviceToHost);
}

static void *cuda_mem_native(gs_mem *m) { return m->ptr; }

/* ---- launches -------------------------------------------------------------------- */

static void set_grid(cudaLaunchConfig_t *cfg, gs_dim3 grid, gs_dim3 block, size_t shared_bytes,
                     cudaStream_t stream)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->gridDim.x = grid.x;
    cfg->gridDim.y = grid.y;
    cfg->gridDim.z = grid.z;
    cfg->blockDim.x = block.x;
    cfg->blockDim.y = block.y;
    cfg->blockDim.z = block.z;
    cfg->dynamicSmemBytes = shared_bytes;
    cfg->stream = stream;
}

static unsigned env_cluster_size(void)
{
    const char *env = getenv("GRIDSYNC_CLUSTER_SIZE");
    if (!env || !*env)
        return 0;
    char *end;
    unsigned long v = strtoul(env, &end, 10);
    return *end == '\0' && v >= 1 && v <= 16 ? (unsigned)v : 0;
}

/* How many clusters of `cs` blocks can be resident at once (0 if none or unknown). */
static unsigned max_clusters(gs_cuda_device *d, const void *kernel, unsigned groups,
                             unsigned group_size, size_t shared_bytes, unsigned cs)
{
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    int n = 0;
    set_grid(&cfg, GS_DIM3_1D(groups), GS_DIM3_1D(group_size), shared_bytes, d->stream);
    memset(&attr, 0, sizeof attr);
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cs;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    if (cs > 8) /* above the portable size the kernel must opt in */
        cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    if (cudaOccupancyMaxActiveClusters(&n, kernel, &cfg) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n > 0 ? (unsigned)n : 0;
}

gs_status gs_cuda_pick_cluster(gs_cuda_device *d, const void *kernel, unsigned groups,
                               unsigned x_groups, unsigned group_size, size_t shared_bytes,
                               unsigned *out)
{
    static const unsigned sizes[] = {8, 4, 2};
    unsigned forced = env_cluster_size();
    *out = 1;
    if (!d->clusters)
        return GS_ERR_UNSUPPORTED;
    if (forced) {
        if (x_groups % forced != 0)
            return GS_ERR_INVALID_ARGUMENT;
        if (forced > 1 &&
            groups / forced > max_clusters(d, kernel, groups, group_size, shared_bytes, forced))
            return GS_ERR_TOO_MANY_GROUPS;
        *out = forced;
        return GS_OK;
    }
    for (unsigned i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
        unsigned cs = sizes[i];
        if (x_groups % cs == 0 && groups / cs <= max_clusters(d, kernel, groups, group_size,
                                                              shared_bytes, cs)) {
            *out = cs;
            return GS_OK;
        }
    }
    return GS_OK; /* clusters of one block: the flip protocol plus a trivial cluster barrier */
}

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
                                   gs_dim3 grid, gs_dim3 block, size_t shared_bytes,
                                   void **args, cudaStream_t stream)
{
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attrs[2];
    unsigned bound = 0, cs = 1, n = 0;
    unsigned groups = grid.x * grid.y * grid.z, group_size = block.x * block.y * block.z;
    gs_status s = gs_cuda_kernel_bound(d, kernel, group_size, shared_bytes, &bound);
    if (s != GS_OK)
        return s;
    if (groups == 0)
        return GS_ERR_INVALID_ARGUMENT;
    if (groups > bound)
        return GS_ERR_TOO_MANY_GROUPS;
    if (algo == GS_ALGO_CLUSTER &&
        (s = gs_cuda_pick_cluster(d, kernel, groups, grid.x, group_size, shared_bytes, &cs)) != GS_OK)
        return s;
    if (algo == GS_ALGO_CG && !d->coop)
        return GS_ERR_UNSUPPORTED;

    set_grid(&cfg, grid, block, shared_bytes, stream);
    memset(attrs, 0, sizeof attrs);
    int coop_slot = -1;
    if (d->coop && !(cs > 1 && d->cluster_coop == 0)) {
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
    set_grid(&cfg, GS_DIM3_1D(l->groups), GS_DIM3_1D(l->group_size), 0, d->stream);
    for (unsigned p = begin; p < end; ++p) {
        prm->phase_begin = p;
        prm->phase_end = p + 1;
        cudaError_t e = cudaLaunchKernelExC(&cfg, gs_cuda_work_kernel(GS_ALGO_RELAUNCH, kernel_form(prm)), args);
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

static gs_status cuda_launch(gs_device *dev, const gs_launch *l, double *elapsed_ns)
{
    gs_cuda_device *d = as_cuda(dev);
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
        return launch_resident(d, gs_cuda_work_kernel(l->algo, kernel_form(&prm)), l->algo,
                               l->groups, l->group_size, args, elapsed_ns);
    }
}

const gs_backend_ops gs_cuda_ops = {
    .id = GS_BACKEND_CUDA,
    .count = cuda_count,
    .open = cuda_open,
    .close = cuda_close,
    .max_groups = cuda_max_groups,
    .algo_supported = cuda_algo_supported,
    .timeout_units = cuda_timeout_units,
    .spinners = cuda_spinners,
    .mem_alloc = cuda_mem_alloc,
    .mem_free = cuda_mem_free,
    .mem_write = cuda_mem_write,
    .mem_read = cuda_mem_read,
    .mem_native = cuda_mem_native,
    .launch = cuda_launch,
    .collect = gs_cuda_collect,
};
