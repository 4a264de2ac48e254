/* src/cuda/kernel_local.cu - gs_local_prepare on CUDA: one block, in the user's stream
 * order, so that a CUDA graph captures it and every replay takes a new epoch (a copy of
 * a host value would replay the same epoch, and the words of the last run would read as
 * done). The same steps as src/common/local.c's prepare_from_host. */
#include "gridsync/local_state.h"

#include "cuda_internal.h"

/* `clear`: the progress and tagged words, as 32-bit words from line GS_LOCAL_LINE_WORDS. */
static __global__ void gs_local_prepare_kernel(unsigned *state, unsigned clear)
{
    unsigned epoch = state[GS_HDR_LOCAL_EPOCH]; /* every thread reads before any writes */
    epoch = GS_LOCAL_NEXT_EPOCH(epoch);
    if (epoch == 1u)
        for (unsigned i = threadIdx.x; i < clear; i += blockDim.x)
            state[GS_WORD(GS_LOCAL_LINE_WORDS, 0u) + i] = 0u;
    __syncthreads();
    if (threadIdx.x < GS_LINE_WORDS) {
        state[GS_WORD(GS_LINE_ABORT, threadIdx.x)] = 0u;
        state[GS_WORD(GS_LOCAL_LINE_TICKET, threadIdx.x)] = 0u;
    }
    if (threadIdx.x == 0u)
        state[GS_HDR_LOCAL_EPOCH] = epoch;
}

extern "C" int gs_cuda_local_prepare_enqueue(void *state, unsigned clear, void *stream)
{
    gs_local_prepare_kernel<<<1, 1024, 0, (cudaStream_t)stream>>>((unsigned *)state, clear);
    return (int)cudaGetLastError();
}
