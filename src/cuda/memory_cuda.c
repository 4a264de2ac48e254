/* src/cuda/memory_cuda.c - device buffers (gs_mem) and copies. */
#include <stdlib.h>

#include "cuda_internal.h"

/* cudaMalloc is 256-byte aligned, so every 128-byte line of the state
 * layout is a line of the L2. Copies go through the device's stream. */

/* The bytes allocated for a buffer of `bytes`: whole lines. */
static size_t span_of(size_t bytes)
{
    size_t lines = (bytes + GS_LINE_BYTES - 1) / GS_LINE_BYTES;
    return (lines ? lines : 1u) * GS_LINE_BYTES;
}

gs_status gs_cuda_mem_alloc(gs_device *dev, size_t bytes, gs_mem **out)
{
    gs_mem *m = calloc(1, sizeof *m);
    if (!m)
        return GS_ERR_OUT_OF_MEMORY;
    size_t total = span_of(bytes);
    cudaError_t e = cudaSetDevice(gs_cuda(dev)->ordinal);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->base, total);
    if (e == cudaSuccess && ((uintptr_t)m->base % GS_LINE_BYTES) != 0) {
        cudaFree(m->base);
        free(m);
        return GS_ERR_NATIVE; /* never happens: cudaMalloc aligns to 256 bytes */
    }
    m->ptr = m->base;
    /* On the device's stream, where the header's writes follow: a plain cudaMemset goes to
     * the legacy stream, which the non-blocking stream does not wait for. */
    if (e == cudaSuccess)
        e = cudaMemsetAsync(m->base, 0, total, gs_cuda(dev)->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(gs_cuda(dev)->stream);
    if (e != cudaSuccess) {
        if (m->base)
            cudaFree(m->base);
        free(m);
        gs_status s = gs_cuda_fail(dev, e, "cudaMalloc");
        return s;
    }
    m->span = total;
    m->bytes = bytes;
    *out = m;
    return GS_OK;
}

void gs_cuda_mem_free(gs_device *dev, gs_mem *m)
{
    if (!m)
        return;
    cudaSetDevice(gs_cuda(dev)->ordinal);
    cudaFree(m->base);
    free(m);
}

static gs_status cuda_copy(gs_device *dev, void *dst, const void *src, size_t n,
                           enum cudaMemcpyKind kind)
{
    gs_cuda_device *d = gs_cuda(dev);
    cudaError_t e = cudaSetDevice(d->ordinal);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(dst, src, n, kind, d->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(d->stream);
    return e == cudaSuccess ? GS_OK : gs_cuda_fail(dev, e, "cudaMemcpyAsync");
}

gs_status gs_cuda_mem_write(gs_device *dev, gs_mem *m, size_t off, const void *src, size_t n)
{
    if (off > m->bytes || n > m->bytes - off)
        return GS_ERR_INVALID_ARGUMENT;
    if (n == 0)
        return GS_OK;
    return cuda_copy(dev, (char *)m->ptr + off, src, n, cudaMemcpyHostToDevice);
}

gs_status gs_cuda_mem_read(gs_device *dev, gs_mem *m, size_t off, void *dst, size_t n)
{
    if (off > m->bytes || n > m->bytes - off)
        return GS_ERR_INVALID_ARGUMENT;
    if (n == 0)
        return GS_OK;
    return cuda_copy(dev, dst, (const char *)m->ptr + off, n, cudaMemcpyDeviceToHost);
}

void *gs_cuda_mem_native(gs_mem *m) { return m->ptr; }
