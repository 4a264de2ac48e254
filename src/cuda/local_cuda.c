/* src/cuda/local_cuda.c - local synchronization on CUDA: its prepare in the user's
 * stream order (kernel_local.cu), and waits for a user's stream. */
#include "cuda_internal.h"

gs_status gs_cuda_stream_sync(gs_device *dev, void *stream)
{
    cudaError_t e = cudaSetDevice(gs_cuda(dev)->ordinal);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize((cudaStream_t)stream);
    return e == cudaSuccess ? GS_OK : gs_cuda_fail(dev, e, "cudaStreamSynchronize");
}

gs_status gs_cuda_local_prepare(gs_device *dev, gs_mem *state, unsigned clear, void *stream)
{
    cudaError_t e = cudaSetDevice(gs_cuda(dev)->ordinal);
    if (e == cudaSuccess)
        e = (cudaError_t)gs_cuda_local_prepare_enqueue(state->ptr, clear, stream);
    return e == cudaSuccess ? GS_OK : gs_cuda_fail(dev, e, "local prepare kernel");
}
