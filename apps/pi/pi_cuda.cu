/* The app on gridsync's CUDA back end: the barrier way launches through gs_cuda_launch,
 * the others with <<<>>>; the CUB way sums the host way's partials with
 * cub::DeviceReduce::Sum (its temporary storage sized and allocated at open).
 *
 * The ways that finish on the device (barrier, ticket, CUB) store pi into mapped pinned
 * host memory, where the host reads it after the stream's work: no copy to enqueue. The
 * host way reads the partials back with a copy, as the lecture's program does
 * (clEnqueueReadBuffer). What the copy costs was measured on its own
 * (bench/micro/pi_finish.cu, H200, launch to pi on the host, median of 201;
 * bench/results/h200/pi_finish_variants.csv): the ticket way took 23.2 us at 10^6 steps
 * with a copy of its result and 17.1 with the mapped store, 138.0 and 127.2 at 10^8, where
 * the host way took 26.4 and 133.0 (with its partials mapped too: 18.4 and 128.9). */
#include <cuda_runtime.h>
#include <cub/device/device_reduce.cuh>

#include <cmath>
#include <cstdlib>

#include "gridsync/cuda.cuh"
#include "gridsync/host_cuda.h"

#include "appkit_cuda.cuh"
#include "backend.h"
#include "pi_step.h"

__global__ void __launch_bounds__(1024)
    gsp_pi(gs_word *state, gs_word *ticket, double *scratch, double *partials, double *result,
           unsigned long long steps, unsigned way)
{
    gs_grid g;
    if (way == GSP_WAY_BARRIER) /* the other ways launch without gridsync */
        g = gs_grid_begin_flip(state);
    gsp_kernel(&g, ticket, scratch, partials, result, steps, way);
}

struct cuda_impl {
    void *state;
    gs_word *ticket;
    double *scratch, *partials, *host_partials;
    double *host_result, *mapped_result; /* mapped pinned memory: host and device address */
    void *cub_tmp;
    size_t cub_bytes;
    cudaStream_t stream;
};

static int cuda_supported(gsp_way way) { return way < GSP_WAYS; }

static gs_status cuda_fail(gsp_session *s, cudaError_t e, const char *what)
{
    return gsp_fail(s, gsa_cuda_status(e), "%s: %s", what, cudaGetErrorString(e));
}

static gs_status cuda_open(gsp_session *s)
{
    const gsp_config *c = s->cfg;
    cuda_impl *m = static_cast<cuda_impl *>(calloc(1, sizeof(cuda_impl)));
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    int ordinal = 0;
    gs_status st = gs_cuda_ordinal(s->dev, &ordinal);
    if (st != GS_OK)
        return gsp_fail(s, st, "gs_cuda_ordinal");
    cudaError_t e = gsa_cuda_stream_open(ordinal, &m->stream, NULL, NULL);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->ticket, sizeof(gs_word));
    if (e == cudaSuccess)
        e = cudaMemsetAsync(m->ticket, 0, sizeof(gs_word), m->stream);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->scratch, (size_t)c->groups * c->group_size * sizeof(double));
    if (e == cudaSuccess)
        e = cudaMalloc(&m->partials, c->groups * sizeof(double));
    if (e == cudaSuccess)
        e = cudaMallocHost(&m->host_partials, c->groups * sizeof(double));
    if (e == cudaSuccess)
        e = cudaHostAlloc(&m->host_result, sizeof(double), cudaHostAllocMapped);
    if (e == cudaSuccess)
        e = cudaHostGetDevicePointer(&m->mapped_result, m->host_result, 0);
    if (e == cudaSuccess && c->way == GSP_CUB) /* first call: the storage it needs */
        e = cub::DeviceReduce::Sum(NULL, m->cub_bytes, m->partials, m->mapped_result,
                                   (int)c->groups, m->stream);
    if (e == cudaSuccess && c->way == GSP_CUB)
        e = cudaMalloc(&m->cub_tmp, m->cub_bytes);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "allocating the sums");
    st = c->way == GSP_BARRIER ? gs_cuda_state(s->bar, &m->state) : GS_OK;
    return st == GS_OK ? GS_OK : gsp_fail(s, st, "gs_cuda_state");
}

static gs_status cuda_run(gsp_session *s, double *pi)
{
    const gsp_config *c = s->cfg;
    cuda_impl *m = static_cast<cuda_impl *>(s->impl);
    unsigned long long steps = c->steps;
    unsigned way =
        c->way == GSP_CUB ? GSP_WAY_HOST : (unsigned)c->way; /* cub: the partials alone */
    cudaError_t e = cudaSuccess;
    *(volatile double *)m->host_result = NAN; /* a way that wrote nothing disagrees */
    if (c->way == GSP_BARRIER) {
        void *args[] = {&m->state,         &m->ticket, &m->scratch, &m->partials,
                        &m->mapped_result, &steps,     &way};
        /* Launched and waited for in one call: pi is in mapped host memory once the kernel
         * has ended, and the launch's own wait is the only one (a wait of the stream
         * before a collect cost 1.5-1.9 us more from launch to pi, H200: asking CUDA
         * about work that had finished costs that much again, bench/micro/pi_finish.cu,
         * collect_us). */
        gs_status st = gs_cuda_launch(s->bar, (const void *)gsp_pi, GS_DIM3_1D(c->groups),
                                      GS_DIM3_1D(c->group_size), 0, args, m->stream);
        if (st != GS_OK)
            return gsp_fail(s, st, "gs_cuda_launch(%u x %u)", c->groups, c->group_size);
    } else {
        gsp_pi<<<c->groups, c->group_size, 0, m->stream>>>(NULL, m->ticket, m->scratch, m->partials,
                                                           m->mapped_result, steps, way);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess && c->way == GSP_CUB)
        e = cub::DeviceReduce::Sum(m->cub_tmp, m->cub_bytes, m->partials, m->mapped_result,
                                   (int)c->groups, m->stream);
    if (e == cudaSuccess && c->way == GSP_HOST)
        e = cudaMemcpyAsync(m->host_partials, m->partials, c->groups * sizeof(double),
                            cudaMemcpyDeviceToHost, m->stream);
    if (e == cudaSuccess && c->way != GSP_BARRIER)
        e = cudaStreamSynchronize(m->stream);
    if (e != cudaSuccess)
        return cuda_fail(s, e, "running gsp_pi");
    *pi = c->way == GSP_HOST ? gsp_host_total(m->host_partials, c->groups)
                             : *(volatile double *)m->host_result;
    return GS_OK;
}

static void cuda_close(gsp_session *s)
{
    cuda_impl *m = static_cast<cuda_impl *>(s->impl);
    if (m == NULL)
        return;
    gsa_cuda_stream_close(&m->stream, NULL, NULL);
    cudaFree(m->ticket);
    cudaFree(m->scratch);
    cudaFree(m->partials);
    cudaFree(m->cub_tmp);
    cudaFreeHost(m->host_partials);
    cudaFreeHost(m->host_result);
    cudaGetLastError();
    free(m);
    s->impl = NULL;
}

extern "C" const gsp_backend gsp_cuda_backend = {cuda_supported, cuda_open, cuda_run, cuda_close};
