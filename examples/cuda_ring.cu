/* A persistent CUDA kernel: every block hands a value to the next one, STEPS times,
 * with a grid barrier between the steps, in one launch that the host enqueues
 * asynchronously and collects later. Build (the shared CUDA runtime: the library
 * launches this program's kernel, which only the runtime that registered it knows):
 *     nvcc -std=c++17 --cudart shared cuda_ring.cu $(pkg-config --cflags --libs gridsync-cuda)
 * Exits 77 where there is no CUDA device (what CTest reads as skipped). */
#include <cstdio>

#include <cuda_runtime.h>

#include "gridsync.h"
#include "gridsync/cuda.cuh"
#include "gridsync/host_cuda.h"

enum { STEPS = 1000, BLOCK = 128 };

/* ring[0] and ring[1] take turns: a block reads its own slot in one and writes the
 * next block's in the other, so every step needs the whole grid's previous step. */
__global__ void relay(gs_word *state, unsigned *ring)
{
    unsigned n = gridDim.x;
    gs_grid g = gs_grid_begin_flip(state);
    for (unsigned step = 0; step < STEPS; ++step) {
        const unsigned *from = ring + (step % 2) * n;
        unsigned *to = ring + ((step + 1) % 2) * n;
        if (threadIdx.x == 0)
            to[(blockIdx.x + 1) % n] = from[blockIdx.x] + 1;
        if (gs_sync_flip(&g))
            return; /* a wait timed out: leave; gs_barrier_collect says why */
    }
}

int main()
{
    gs_device *dev;
    gs_barrier *bar = NULL;
    unsigned groups, *ring, host[4096];
    gs_status s = gs_device_open(GS_BACKEND_CUDA, 0, &dev);
    if (s == GS_ERR_NO_DEVICE) {
        printf("no CUDA device\n");
        return 77;
    }
    if (s == GS_OK)
        s = gs_cuda_max_groups(dev, (const void *)relay, BLOCK, 0, &groups);
    if (s == GS_OK && groups > 4096)
        groups = 4096;
    if (s == GS_OK)
        s = gs_barrier_create(dev, GS_ALGO_FLIP, groups, &bar);
    if (s != GS_OK) {
        fprintf(stderr, "gridsync: %s\n", gs_status_string(s));
        return 1;
    }
    for (unsigned i = 0; i < groups; ++i)
        host[i] = i;
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cudaMalloc(&ring, 2 * groups * sizeof *ring);
    cudaMemcpy(ring, host, groups * sizeof *ring, cudaMemcpyHostToDevice);
    void *state;
    gs_cuda_state(bar, &state);
    void *args[] = {&state, &ring};
    s = gs_cuda_launch_async(bar, (const void *)relay, GS_DIM3_1D(groups), GS_DIM3_1D(BLOCK), 0,
                             args, stream);
    /* ... the host is free here while the kernel runs ... */
    if (s == GS_OK)
        s = gs_barrier_collect(bar);
    if (s != GS_OK) {
        fprintf(stderr, "gridsync: %s\n", gs_status_string(s));
        return 1;
    }
    cudaMemcpy(host, ring + (STEPS % 2) * groups, groups * sizeof *ring, cudaMemcpyDeviceToHost);
    for (unsigned b = 0; b < groups; ++b) {
        unsigned want = (b + groups - STEPS % groups) % groups + STEPS;
        if (host[b] != want) {
            fprintf(stderr, "block %u holds %u, expected %u\n", b, host[b], want);
            return 1;
        }
    }
    printf("%u blocks passed a value around the ring %u times in one launch\n", groups, STEPS);
    cudaFree(ring);
    cudaStreamDestroy(stream);
    gs_barrier_destroy(bar);
    gs_device_close(dev);
    return 0;
}
