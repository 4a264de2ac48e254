/* src/cuda/place_probe.cu - the kernel that times a flip counter at one address, for
 * place_cuda.c: the state's placement at barrier creation.
 *
 * One 32-thread block per group of the barrier, launched cooperatively; each block's
 * thread 0 runs GS_PLACE_ROUNDS flip episodes on `line` (release add, relaxed polls of
 * the top bit, one acquire fence), as the library's flip does. Every poll loop is
 * bounded: past GS_PLACE_POLL_BOUND polls the block marks line[1] and leaves (the host
 * then keeps the state where it is). An even count of episodes leaves the counter at 0. */
#include "cuda_internal.h"

#define GS_PLACE_POLL_BOUND (1u << 20) /* ~0.7 s of L2 round trips: never on a sound GPU */

static __global__ void gs_place_probe(unsigned *line, unsigned rounds)
{
    if (threadIdx.x != 0u)
        return;
    unsigned add = blockIdx.x == 0u ? 0x80000000u - (gridDim.x - 1u) : 1u;
    for (unsigned r = 0u; r < rounds; ++r) {
        unsigned old;
        asm volatile("atom.release.gpu.global.add.u32 %0, [%1], %2;"
                     : "=r"(old) : "l"(line), "r"(add) : "memory");
        if (((old ^ (old + add)) & 0x80000000u) == 0u) {
            unsigned now, polls = 0u;
            do {
                asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(now) : "l"(line) : "memory");
                if (++polls > GS_PLACE_POLL_BOUND) {
                    atomicExch(line + 1, 1u);
                    return;
                }
            } while (((now ^ old) & 0x80000000u) == 0u);
        }
        asm volatile("fence.acq_rel.gpu;" ::: "memory");
    }
}

extern "C" int gs_cuda_place_probe_enqueue(void *line, unsigned groups, unsigned rounds, void *stream)
{
    void *args[] = {&line, &rounds};
    return (int)cudaLaunchCooperativeKernel((const void *)gs_place_probe, dim3(groups), dim3(32),
                                            args, 0, (cudaStream_t)stream);
}
