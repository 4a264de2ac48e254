/* bench multi on CUDA GPUs (bench_multi.h): the barrier's kernel, launched on every rank
 * through gs_cuda_multi_launch, and the baseline's kernel, launched plainly on every
 * rank's stream and waited for with cudaStreamSynchronize on each, as a program that
 * synchronizes on the host would. */
#include <chrono>
#include <vector>

#include "bench_multi.h"
#include "gridsync/cuda.cuh"
#include "gridsync/host_cuda.h"

/* As the cpu part's kernel (bench_multi.c): block 0 of every group's next rank reads the
 * value the next group wrote before the barrier. The check's buffer lives on rank 0's GPU
 * (peer access is on between the ranks' GPUs). */
struct bm_params {
    unsigned rank, ranks, groups, iters;
    int check;
    unsigned *buf, *wrong;
};

static __device__ unsigned bm_value(unsigned i, unsigned rank, unsigned group)
{
    return (i * 2654435761u) ^ (rank << 20) ^ group;
}

static __global__ void bm_multi_kernel(gs_word *state, bm_params p)
{
    unsigned g = blockIdx.x, next = (p.rank + 1u) % p.ranks, h = (g + 1u) % p.groups;
    gs_multi_grid m = gs_multi_begin(state);
    for (unsigned i = 0; i < p.iters; ++i) {
        unsigned *half = p.buf + (size_t)(i % 2u) * p.ranks * p.groups;
        if (p.check && threadIdx.x == 0)
            half[p.rank * p.groups + g] = bm_value(i, p.rank, g);
        if (gs_multi_sync(&m))
            return;
        if (p.check && threadIdx.x == 0 && half[next * p.groups + h] != bm_value(i, next, h))
            atomicAdd(p.wrong, 1u);
    }
}

/* The baseline's phase: nothing to synchronize within the kernel. */
static __global__ void bm_empty_kernel(unsigned *sink) { (void)sink; }

static double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

static int ordinal_of(gs_device *d)
{
    int o = 0;
    gs_cuda_ordinal(d, &o);
    return o;
}

/* A stream per rank on its GPU, made once per list of devices. */
struct bm_streams {
    std::vector<cudaStream_t> s;
    explicit bm_streams(const bm_run *r) : s(r->ranks)
    {
        for (unsigned k = 0; k < r->ranks; ++k) {
            cudaSetDevice(ordinal_of(r->devs[k]));
            cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking);
        }
    }
    ~bm_streams()
    {
        for (cudaStream_t x : s)
            cudaStreamDestroy(x);
    }
};

extern "C" gs_status bm_cuda_bound(gs_device *dev, unsigned block, unsigned *bound)
{
    return gs_cuda_max_groups(dev, (const void *)bm_multi_kernel, block, 0, bound);
}

extern "C" gs_status bm_cuda_multi(const bm_run *r, unsigned iters, int check, double *ms,
                                   unsigned *wrong)
{
    bm_streams streams(r);
    unsigned *buf = nullptr, *bad = nullptr;
    cudaSetDevice(ordinal_of(r->devs[0]));
    if (cudaMalloc(&buf, 2u * r->ranks * r->groups * sizeof *buf) != cudaSuccess ||
        cudaMalloc(&bad, sizeof *bad) != cudaSuccess || cudaMemset(bad, 0, sizeof *bad))
        return GS_ERR_OUT_OF_MEMORY;
    std::vector<bm_params> p(r->ranks);
    std::vector<void *> state(r->ranks), stream(r->ranks);
    std::vector<std::vector<void *>> args(r->ranks);
    std::vector<void **> argv(r->ranks);
    for (unsigned k = 0; k < r->ranks; ++k) {
        gs_multi_native(r->m, k, &state[k]);
        p[k] = bm_params{k, r->ranks, r->groups, iters, check, buf, bad};
        args[k] = {&state[k], &p[k]};
        argv[k] = args[k].data();
        stream[k] = streams.s[k];
    }
    double t0 = now_ms();
    gs_status s = gs_cuda_multi_launch(r->m, (const void *)bm_multi_kernel, GS_DIM3_1D(r->groups),
                                       GS_DIM3_1D(r->block), 0, argv.data(), stream.data(), NULL);
    *ms = now_ms() - t0;
    cudaSetDevice(ordinal_of(r->devs[0]));
    if (wrong)
        *wrong = 0;
    if (wrong && cudaMemcpy(wrong, bad, sizeof *bad, cudaMemcpyDeviceToHost) != cudaSuccess)
        s = s == GS_OK ? GS_ERR_NATIVE : s;
    cudaFree(buf);
    cudaFree(bad);
    return s;
}

extern "C" gs_status bm_cuda_relaunch(const bm_run *r, unsigned iters, double *ms)
{
    bm_streams streams(r);
    cudaError_t e = cudaSuccess;
    double t0 = now_ms();
    for (unsigned i = 0; i < iters && e == cudaSuccess; ++i) {
        for (unsigned k = 0; k < r->ranks && e == cudaSuccess; ++k) {
            cudaSetDevice(ordinal_of(r->devs[k]));
            bm_empty_kernel<<<r->groups, r->block, 0, streams.s[k]>>>(nullptr);
            e = cudaGetLastError();
        }
        for (unsigned k = 0; k < r->ranks && e == cudaSuccess; ++k)
            e = cudaStreamSynchronize(streams.s[k]);
    }
    *ms = now_ms() - t0;
    return e == cudaSuccess ? GS_OK : GS_ERR_NATIVE;
}
