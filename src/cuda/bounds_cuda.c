/* src/cuda/bounds_cuda.c - how many groups a launch may have: the occupancy API's
 * co-residency bound, the protocols a device runs, and the cluster size of the cluster
 * protocol, which checks cudaOccupancyMaxActiveClusters itself (launch_cuda.c says why). */
#include <string.h>

#include "common/knobs.h"
#include "cuda_internal.h"

void gs_cuda_set_grid(cudaLaunchConfig_t *cfg, gs_dim3 grid, gs_dim3 block, size_t shared_bytes,
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
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)group_size,
                                                      shared_bytes);
    if (e != cudaSuccess)
        return gs_cuda_fail(&d->base, e, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    *out = (unsigned)per_sm * d->sms;
    return GS_OK;
}

/* The bound for the built-in program, whatever the protocol: the smallest over the
 * protocols' kernels, both forms (they all fit in 32 registers, so in practice one
 * number). */
gs_status gs_cuda_builtin_max_groups(gs_device *dev, unsigned group_size, unsigned *out)
{
    unsigned best = ~0u;
    for (unsigned k = 0; k < 3 * GS_ALGO_COUNT_; ++k) {
        unsigned n = 0;
        gs_algo a = (gs_algo)(k / 3);
        if (!gs_cuda_algo_supported(dev, a))
            continue;
        gs_status s = gs_cuda_kernel_bound(gs_cuda(dev), gs_cuda_work_kernel(a, (int)(k % 3)),
                                           group_size, 0, &n);
        if (s != GS_OK)
            return s;
        if (n < best)
            best = n;
    }
    *out = best;
    return GS_OK;
}

int gs_cuda_algo_supported(const gs_device *dev, gs_algo algo)
{
    const gs_cuda_device *d = (const gs_cuda_device *)dev;
    switch (algo) {
    case GS_ALGO_CLUSTER: return d->clusters;
    case GS_ALGO_CG: return d->coop;
    default: return (unsigned)algo < GS_ALGO_COUNT_; /* every protocol of the list */
    }
}

static unsigned env_cluster_size(void)
{
    unsigned v = 0;
    return gs_knob_uint(GS_KNOB_CLUSTER_SIZE, &v) ? v : 0;
}

/* How many clusters of `cs` blocks can be resident at once (0 if none or unknown). */
static unsigned max_clusters(gs_cuda_device *d, const void *kernel, unsigned groups,
                             unsigned group_size, size_t shared_bytes, unsigned cs)
{
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    int n = 0;
    gs_cuda_set_grid(&cfg, GS_DIM3_1D(groups), GS_DIM3_1D(group_size), shared_bytes, d->stream);
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
        if (x_groups % cs == 0 &&
            groups / cs <= max_clusters(d, kernel, groups, group_size, shared_bytes, cs)) {
            *out = cs;
            return GS_OK;
        }
    }
    return GS_OK; /* clusters of one block: the flip protocol plus a trivial cluster barrier */
}
