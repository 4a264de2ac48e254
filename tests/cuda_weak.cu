/* tests/cuda_weak.cu - the CUDA tests can fail: the same message-passing kernel as
 * cuda_barrier, compiled with GS_WEAKEN_COUNT=1 (every protocol releases its groups
 * one arrival early), must be caught by every protocol's check: kernel-side
 * mismatches, or an abort. The last work-item of the last group writes late in every
 * phase, so the arrival released early is always the one whose data is missing
 * (under random delays alone, lockfree's master skipping the last group's flag and
 * naive's count one work-item short slipped through on an H200). Exits 0 when every
 * weakened protocol was caught, 1 when one slipped through, 77 without a CUDA device. */
#define GS_TEST_HOOKS 1
#define GS_WEAKEN_COUNT 1
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "gridsync.h"
#include "gridsync/host_cuda.h"

#include "cuda_kernels.cuh"

int main()
{
    gs_device *dev = nullptr;
    gs_device_info info;
    gs_status s = gs_device_open(GS_BACKEND_CUDA, 0, &dev);
    if (s == GS_ERR_NO_DEVICE || s == GS_ERR_BACKEND_UNAVAILABLE) {
        printf("no CUDA device: skipped\n");
        return 77;
    }
    if (s != GS_OK)
        return 1;
    gs_device_get_info(dev, &info);
    const gs_algo algos[] = {GS_ALGO_CENTRAL, GS_ALGO_LOCKFREE, GS_ALGO_NAIVE,  GS_ALGO_FLIP,
                             GS_ALGO_TREE,    GS_ALGO_CLUSTER,  GS_ALGO_SHARDED};
    unsigned groups = 2 * info.compute_units, block = 64, episodes = 2000;
    int caught = 0, missed = 0;
    for (gs_algo a : algos) {
        if (!gs_algo_supported(dev, a))
            continue;
        for (int split = 0; split < 2; ++split) {
            gs_barrier *b = nullptr;
            void *state = nullptr;
            unsigned *buf = nullptr, *scratch = nullptr, errors = 0;
            gs_word *c = nullptr;
            if (gs_barrier_create(dev, a, groups, &b) != GS_OK)
                return 1;
            gs_barrier_set_timeout(b, 500);
            gs_cuda_state(b, &state);
            cudaMalloc(&buf, 2ull * groups * block * 4);
            cudaMalloc(&scratch, GS_SCRATCH_WORDS * 4);
            cudaMalloc(&c, 128);
            cudaMemset(c, 0, 128);
            gs_work_params prm;
            memset(&prm, 0, sizeof prm);
            prm.work = GS_WORK_MP;
            prm.phase_end = episodes + 1;
            prm.logical_groups = groups;
            prm.seed = 7;
            prm.delay = 1024;
            prm.late = 16384; /* the last work-item of the last group: see gs_mp_phase */
            void *args[] = {&state, &buf, &scratch, &c, &prm, &split};
            s = gs_cuda_launch(b, (const void *)user_mp_kernel, GS_DIM3_1D(groups),
                               GS_DIM3_1D(block), 0, args, nullptr);
            cudaMemcpy(&errors, c, 4, cudaMemcpyDeviceToHost);
            int got = s != GS_OK || errors != 0;
            printf("%s %-10s split=%d: %s, %u mismatches\n", got ? "caught" : "MISSED",
                   gs_algo_name(a), split, gs_status_string(s), errors);
            caught += got;
            missed += !got;
            cudaFree(buf);
            cudaFree(scratch);
            cudaFree(c);
            gs_barrier_destroy(b);
        }
    }
    gs_device_close(dev);
    printf("cuda weak: %d passed, %d failed\n", caught, missed);
    return missed ? 1 : 0;
}
