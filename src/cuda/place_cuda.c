/* src/cuda/place_cuda.c - where a flip state's counter lies in L2.
 *
 * Every group of a flip barrier adds to one counter and polls it, so one L2 slice serves
 * the whole barrier, and which slice an address lands in decides how long those round
 * trips take. flip written bare in the user's Jacobi kernel on an H100, its counter moved
 * by 0 to 7 lines of one allocation, took 0.945 to 0.960 x grid.sync()'s time at 512^2 x
 * 20000 on 132 blocks and 0.939 to 0.967 on 264 (bench/micro/jacobi_order.cu, hand-flip@k;
 * bench/results/h100/thirteenth/jacobi_order_where512.csv), and the best line at one grid
 * was the worst at the other. So when a flip barrier is made, the state is shifted by the
 * whole lines (up to GRIDSYNC_PLACE_LINES, within the slack memory_cuda.c allocates) that
 * put its counter where GS_PLACE_ROUNDS flip episodes of the barrier's own group count
 * ran fastest: place_probe.cu's kernel, two passes over the candidates, the better time
 * of each. Best effort: a probe that cannot run (too many groups to be co-resident in
 * 32-thread blocks, a poll past its bound) leaves the state where it is. */
#include "cuda_internal.h"

#define GS_PLACE_ROUNDS 64u /* even: the counter ends at 0 */
#define GS_PLACE_PASSES 2u

/* The device time of one probe at `line`; 0 where it could not run. */
static gs_status probe(gs_device *dev, unsigned *line, unsigned groups, float *ms)
{
    gs_cuda_device *d = gs_cuda(dev);
    unsigned failed = 0u;
    *ms = 0.0f;
    cudaError_t e = cudaEventRecord(d->start, d->stream);
    if (e == cudaSuccess)
        e = (cudaError_t)gs_cuda_place_probe_enqueue(line, groups, GS_PLACE_ROUNDS, d->stream);
    if (e == cudaErrorCooperativeLaunchTooLarge || e == cudaErrorNotSupported) {
        cudaGetLastError();
        return GS_OK; /* nothing to measure: the state stays where it is */
    }
    if (e == cudaSuccess)
        e = cudaEventRecord(d->stop, d->stream);
    if (e == cudaSuccess)
        e = cudaEventSynchronize(d->stop);
    if (e == cudaSuccess)
        e = cudaEventElapsedTime(ms, d->start, d->stop);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&failed, line + 1, sizeof failed, cudaMemcpyDeviceToHost, d->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(d->stream);
    if (e != cudaSuccess)
        return gs_cuda_fail(dev, e, "placing the state (probe)");
    if (failed)
        *ms = 0.0f;
    return GS_OK;
}

/* The whole allocation back to 0, as it began: the probes' words and a failed one's mark. */
static gs_status clear(gs_device *dev, gs_mem *m)
{
    cudaError_t e = cudaMemsetAsync(m->base, 0, gs_cuda_mem_span(m->bytes), gs_cuda(dev)->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(gs_cuda(dev)->stream);
    return e == cudaSuccess ? GS_OK : gs_cuda_fail(dev, e, "cudaMemsetAsync");
}

gs_status gs_cuda_place_counter(gs_device *dev, gs_mem *m, size_t counter_offset, unsigned groups,
                                unsigned lines)
{
    float best_ms[GS_PLACE_SLACK_LINES + 1u];
    if (lines > GS_PLACE_SLACK_LINES + 1u)
        lines = GS_PLACE_SLACK_LINES + 1u;
    if (groups < 2u || lines < 2u)
        return GS_OK;
    cudaError_t e = cudaSetDevice(gs_cuda(dev)->ordinal);
    if (e != cudaSuccess)
        return gs_cuda_fail(dev, e, "cudaSetDevice");
    for (unsigned k = 0; k < lines; ++k)
        best_ms[k] = 0.0f;
    for (unsigned pass = 0; pass < GS_PLACE_PASSES; ++pass)
        for (unsigned k = 0; k < lines; ++k) {
            float ms;
            unsigned *line = (unsigned *)((char *)m->base + k * GS_LINE_BYTES + counter_offset);
            gs_status s = probe(dev, line, groups, &ms);
            if (s != GS_OK)
                return s;
            if (ms <= 0.0f) /* could not run: the state stays at the allocation's start */
                return clear(dev, m);
            if (best_ms[k] == 0.0f || ms < best_ms[k])
                best_ms[k] = ms;
        }
    unsigned best = 0;
    for (unsigned k = 1; k < lines; ++k)
        if (best_ms[k] < best_ms[best])
            best = k;
    m->ptr = (char *)m->base + best * GS_LINE_BYTES;
    return clear(dev, m);
}
