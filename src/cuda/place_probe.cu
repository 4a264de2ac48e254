/* src/cuda/place_probe.cu - the kernel that times a flip counter at one address, for
 * place_cuda.c: the state's placement at barrier creation.
 *
 * One 32-thread block per group of the barrier, launched cooperatively; each block's
 * thread 0 runs `rounds` flip episodes on `counter` with flip's own share, completion
 * test and memory operations (gridsync/barrier_flip.h, the CUDA shim): a release add,
 * relaxed polls of the top bit, one acquire fence. Every poll loop is bounded: past
 * GS_PLACE_POLL_BOUND polls the block marks counter[1] and leaves (the host then keeps
 * the state where it is). An even count of episodes leaves the counter at 0. Block 0's
 * thread 0 counts its SM's clock from the end of the first GS_PLACE_WARM episodes to the
 * last one's and leaves the count in counter[2]: timed on the host with events around
 * the launch, the probe's times of one line spread by 3-5% between passes (H200, 132
 * groups, 64 episodes: 56.2 to 59.5 us), more than what tells the lines apart. */
#include "gridsync/cuda.cuh"

#include "cuda_internal.h"

#define GS_PLACE_POLL_BOUND (1u << 20) /* ~0.7 s of L2 round trips: never on a sound GPU */

static __global__ void gs_place_probe(gs_word *counter, unsigned rounds, unsigned warm)
{
    if (threadIdx.x != 0u)
        return;
    gs_u32 add = gs_flip_share(gridDim.x, blockIdx.x == 0u);
    long long start = 0;
    for (unsigned r = 0u; r < rounds; ++r) {
        if (r == warm)
            start = clock64();
        gs_u32 before = gs_fetch_add_release(counter, add);
        if (!gs_flip_completed(before, add)) {
            gs_u32 polls = 0u;
            while (((gs_ld_relaxed(counter) ^ before) & GS_FLIP_BIT) == 0u)
                if (++polls > GS_PLACE_POLL_BOUND) {
                    atomicExch(counter + 1, 1u);
                    return;
                }
        }
        gs_fence_acquire();
    }
    if (blockIdx.x == 0u)
        counter[2] = (gs_word)(clock64() - start);
}

extern "C" int gs_cuda_place_probe_enqueue(void *counter, unsigned groups, unsigned rounds,
                                           unsigned warm, void *stream)
{
    void *args[] = {&counter, &rounds, &warm};
    return (int)cudaLaunchCooperativeKernel((const void *)gs_place_probe, dim3(groups), dim3(32),
                                            args, 0, (cudaStream_t)stream);
}
