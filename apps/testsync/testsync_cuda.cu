/* test_sync on CUDA: test_sync through gs_cuda_launch, test_nosync with <<<>>>. */
#include <cuda_runtime.h>

#include "gridsync/cuda.cuh"
#include "gridsync/host_cuda.h"

#include "backend.h"
#include "testsync_body.h"

__global__ void gst_kernel(gs_word *state, gs_word *scratch, int *tmp, int *out)
{
    gs_grid g;
    if (state != NULL) /* test_sync; test_nosync launches without gridsync */
        g = gs_grid_begin_auto(state);
    gst_body(state != NULL ? &g : NULL, scratch, tmp, out);
}

extern "C" gs_status gst_cuda_run(gs_device *dev, gs_barrier *bar, const gst_config *c, int *out,
                                  char error[160])
{
    size_t n = (size_t)c->groups * c->group_size;
    int ordinal = 0;
    gs_word *scratch = NULL;
    int *tmp = NULL, *dout = NULL;
    void *state = NULL;
    gs_status st = gs_cuda_ordinal(dev, &ordinal);
    if (st == GS_OK && c->sync)
        st = gs_cuda_state(bar, &state);
    if (st != GS_OK) {
        gsa_note(error, GST_ERROR_BYTES, "gs_cuda_ordinal/state: %s", gs_status_string(st));
        return st;
    }
    cudaError_t e = cudaSetDevice(ordinal);
    if (e == cudaSuccess)
        e = cudaMalloc(&scratch, sizeof *scratch);
    if (e == cudaSuccess)
        e = cudaMalloc(&tmp, n * sizeof(int));
    if (e == cudaSuccess)
        e = cudaMalloc(&dout, n * sizeof(int));
    if (e == cudaSuccess)
        e = cudaMemset(scratch, 0, sizeof *scratch);
    if (e == cudaSuccess)
        e = cudaMemset(tmp, 0xff, n * sizeof(int)); /* -1: not written yet */
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e == cudaSuccess && c->sync) {
        void *args[] = {&state, &scratch, &tmp, &dout};
        st = gs_cuda_launch(bar, (const void *)gst_kernel, GS_DIM3_1D(c->groups),
                            GS_DIM3_1D(c->group_size), 0, args, 0);
        if (st != GS_OK)
            gsa_note(error, GST_ERROR_BYTES, "gs_cuda_launch(%u x %u): %s", c->groups,
                     c->group_size, gs_status_string(st));
    } else if (e == cudaSuccess) {
        gst_kernel<<<c->groups, c->group_size>>>(NULL, scratch, tmp, dout);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess && st == GS_OK)
        e = cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess && st == GS_OK) {
        gsa_note(error, GST_ERROR_BYTES, "test_sync: %s", cudaGetErrorString(e));
        st = GS_ERR_NATIVE;
    }
    cudaFree(scratch);
    cudaFree(tmp);
    cudaFree(dout);
    cudaGetLastError();
    return st;
}
