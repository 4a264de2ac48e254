/* tests/cuda_multi_nccl.cu - the barrier across devices over an NCCL communicator
 * (gridsync/host_multi_nccl.h) in its one-GPU case: a communicator of one rank
 * (ncclCommInitAll over GPU 0), the state in an NCCL symmetric window, the peers' table
 * from the window. Message passing between the rank's blocks through gs_multi_sync and in
 * split phase, twice on the same state; a block that returns before a barrier: the
 * launch ends with GS_ERR_TIMEOUT naming the group, the next is refused until a collective
 * reset and then whole. What one GPU cannot show (ranks on other GPUs, NVLink) needs a
 * machine of several. Exits 77 without a GPU or where NCCL cannot make the communicator. */
#include <cstdio>
#include <cstdlib>

#include <nccl.h>

#include "gridsync.h"
#include "gridsync/cuda.cuh"
#include "gridsync/host_cuda.h"
#include "gridsync/host_multi.h"
#include "gridsync/host_multi_nccl.h"

#include "cuda_check.h"

#define THREADS 128u
#define NO_FAULT 0xffffffffu

/* Every thread writes its value of phase k; after the barrier every block checks a share
 * of every value of phase k. A block `fault_group` returns before barrier fault_episode. */
static __global__ void __launch_bounds__(THREADS)
    mp(gs_word *state, unsigned *buf, unsigned *wrong, unsigned episodes, int split,
       unsigned fault_group, unsigned fault_episode)
{
    gs_multi_grid m = gs_multi_begin(state);
    unsigned total = gridDim.x * THREADS;
    for (unsigned k = 0; k < episodes; ++k) {
        if (blockIdx.x == fault_group && k == fault_episode)
            return;
        buf[(k % 2u) * total + blockIdx.x * THREADS + threadIdx.x] = (k * 2654435761u) ^ blockIdx.x;
        gs_u32 why;
        if (split) {
            gs_token t = gs_multi_arrive(&m);
            why = gs_multi_wait_token(&m, t);
        } else {
            why = gs_multi_sync(&m);
        }
        if (why)
            return;
        unsigned bad = 0;
        for (unsigned i = threadIdx.x; i < total; i += THREADS) /* every block reads all */
            bad += buf[(k % 2u) * total + i] != ((k * 2654435761u) ^ (i / THREADS));
        if (bad)
            atomicAdd(wrong, bad);
    }
}

static gs_status launch(gs_multi *m, unsigned groups, unsigned *buf, unsigned *wrong,
                        unsigned episodes, int split, unsigned fault_group, cudaStream_t stream)
{
    void *state = nullptr;
    unsigned fault_episode = 10u;
    gs_multi_native(m, 0, &state);
    void *args[] = {&state, &buf, &wrong, &episodes, &split, &fault_group, &fault_episode};
    gs_status s = gs_cuda_multi_launch_async(m, 0, (const void *)mp, GS_DIM3_1D(groups),
                                             GS_DIM3_1D(THREADS), 0, args, stream);
    if (s != GS_OK)
        return s;
    gs_status each = GS_ERR_NATIVE;
    gs_status all = gs_multi_collect(m, &each);
    return all != GS_OK ? all : each;
}

int main()
{
    int count = 0, ordinal = 0;
    gs_device *dev = nullptr;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 ||
        gs_device_open(GS_BACKEND_CUDA, 0, &dev) != GS_OK) {
        printf("no CUDA device: skipped\n");
        return 77;
    }
    ncclComm_t comm;
    ncclResult_t nr = ncclCommInitAll(&comm, 1, &ordinal);
    if (nr != ncclSuccess) {
        printf("ncclCommInitAll: %s: skipped\n", ncclGetErrorString(nr));
        return 77;
    }
    { /* what NCCL gives one rank: printed, for the record */
        int version = 0;
        void *mem = nullptr;
        ncclWindow_t w = nullptr;
        cudaPointerAttributes pa = {};
        ncclGetVersion(&version);
        ncclResult_t a = ncclMemAlloc(&mem, 1u << 21);
        ncclResult_t b = a == ncclSuccess ? ncclCommWindowRegister(comm, mem, 1u << 21, &w,
                                                                   NCCL_WIN_COLL_SYMMETRIC)
                                          : a;
        cudaError_t e = w ? cudaPointerGetAttributes(&pa, w) : cudaSuccess;
        printf("  NCCL %d: ncclMemAlloc %d, window register %d, window %p (memory type %d, %s)\n",
               version, (int)a, (int)b, (void *)w, (int)pa.type, cudaGetErrorString(e));
        cudaGetLastError();
        if (w)
            ncclCommWindowDeregister(comm, w);
        if (mem)
            ncclMemFree(mem);
    }
    gs_device_info info;
    gs_device_get_info(dev, &info);
    unsigned groups = info.compute_units;
    gs_multi *m = nullptr;
    gs_status c = gs_multi_create_nccl(dev, comm, groups, &m);
    int code = 0;
    const char *why = "";
    gs_device_native_error(dev, &code, &why);
    CHECK(c == GS_OK, "gs_multi_create_nccl: %s (%d: %s)", gs_status_string(c), code, why);
    if (c != GS_OK)
        return 1;
    unsigned ranks = 0, per = 0;
    CHECK(gs_multi_get_shape(m, &ranks, &per) == GS_OK && ranks == 1u && per == groups,
          "shape: %u ranks of %u groups", ranks, per);
    unsigned *buf = nullptr, *wrong = nullptr, host_wrong = 0;
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cudaMalloc(&buf, 2u * groups * THREADS * sizeof(unsigned));
    cudaMalloc(&wrong, sizeof(unsigned));
    for (int split = 0; split < 2; ++split)
        for (int rep = 0; rep < 2; ++rep) {
            cudaMemset(wrong, 0, sizeof(unsigned));
            cudaDeviceSynchronize();
            gs_status s = launch(m, groups, buf, wrong, 2000, split, NO_FAULT, stream);
            cudaMemcpy(&host_wrong, wrong, sizeof host_wrong, cudaMemcpyDeviceToHost);
            CHECK(s == GS_OK && host_wrong == 0, "%s, launch %d: %s, %u wrong",
                  split ? "split" : "sync", rep, gs_status_string(s), host_wrong);
        }
    gs_multi_set_timeout(m, 300);
    gs_status s = launch(m, groups, buf, wrong, 100, 0, groups / 2u, stream);
    gs_multi_abort a;
    gs_multi_abort_info(m, 0, &a);
    CHECK(s == GS_ERR_TIMEOUT, "a block that skips barrier 10: %s", gs_status_string(s));
    printf("  abort: reason %d, group %u, episode %u, missing ranks %u\n", (int)a.reason, a.group,
           a.episode, a.missing_ranks);
    s = launch(m, groups, buf, wrong, 100, 0, NO_FAULT, stream);
    CHECK(s == GS_ERR_NEEDS_RESET, "before the reset: %s", gs_status_string(s));
    CHECK(gs_multi_reset(m) == GS_OK, "collective reset");
    cudaMemset(wrong, 0, sizeof(unsigned));
    s = launch(m, groups, buf, wrong, 500, 1, NO_FAULT, stream);
    cudaMemcpy(&host_wrong, wrong, sizeof host_wrong, cudaMemcpyDeviceToHost);
    CHECK(s == GS_OK && host_wrong == 0, "after the reset: %s, %u wrong", gs_status_string(s),
          host_wrong);
    CHECK(gs_multi_destroy(m) == GS_OK, "destroy (deregisters the window)");
    ncclCommDestroy(comm);
    cudaFree(buf);
    cudaFree(wrong);
    cudaStreamDestroy(stream);
    gs_device_close(dev);
    printf("cuda_multi_nccl: %d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
