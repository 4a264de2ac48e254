/* src/cuda/place_cuda.c - where a flip state's counter lies in L2.
 *
 * Every group of a flip barrier adds to one counter and polls it, so one L2 slice serves
 * the whole barrier, and which slice an address lands in decides how long those round
 * trips take. flip written bare in the user's Jacobi kernel on an H100, its counter moved
 * by 0 to 7 lines of one allocation, took 0.945 to 0.960 x grid.sync()'s time at 512^2 x
 * 20000 on 132 blocks and 0.939 to 0.967 on 264 (bench/micro/jacobi_order.cu, hand-flip@k;
 * bench/results/h100/thirteenth/jacobi_order_where512.csv), and the best line at one grid
 * was the worst at the other. So when a flip barrier is made, the state is shifted by the
 * whole lines (up to GRIDSYNC_PLACE_LINES, within the lines the barrier allocated past
 * it) that put its counter where flip episodes of the barrier's own group count ran
 * fastest: place_probe.cu's kernel, timed in clock cycles inside it, GS_PLACE_PASSES
 * passes over the candidates, the fewest cycles of each (the rule: src/common/place.c). Best effort: a probe that cannot
 * run (too many groups to be co-resident in 32-thread blocks, a poll past its bound)
 * leaves the state where it is. */
#include "cuda_internal.h"

#include "common/knobs.h"
#include "common/place.h"

#if defined(GS_PLACE_TRACE) && GS_PLACE_TRACE
#include <stdio.h> /* an experiment's build only (bench/micro/auto_order.sh): each probe's time */
#include <stdlib.h>
#endif

/* Episodes a probe runs, the first GS_PLACE_WARM untimed; even, so that the counter ends
 * at 0. 256 timed episodes at 132 groups take ~0.2 ms on an H100 or H200. */
#define GS_PLACE_ROUNDS 272u
#define GS_PLACE_WARM 16u
#define GS_PLACE_PASSES 3u

/* The clock cycles of one probe's timed episodes at `line` (0: it could not run). */
static gs_status probe(gs_device *dev, unsigned *line, unsigned groups, float *cycles)
{
    gs_cuda_device *d = gs_cuda(dev);
    unsigned words[2] = {0u, 0u}; /* counter[1]: a poll past its bound; counter[2]: cycles */
    *cycles = 0.0f;
    cudaError_t e = (cudaError_t)gs_cuda_place_probe_enqueue(line, groups, GS_PLACE_ROUNDS,
                                                             GS_PLACE_WARM, d->stream);
    if (e == cudaErrorCooperativeLaunchTooLarge || e == cudaErrorNotSupported) {
        cudaGetLastError();
        return GS_OK; /* nothing to measure: the state stays where it is */
    }
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(words, line + 1, sizeof words, cudaMemcpyDeviceToHost, d->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(d->stream);
    if (e != cudaSuccess)
        return gs_cuda_fail(dev, e, "placing the state (probe)");
    if (!words[0])
        *cycles = (float)words[1];
    return GS_OK;
}

/* The whole allocation back to 0, as it began: the probes' words and a failed one's mark. */
static gs_status clear(gs_device *dev, gs_mem *m)
{
    cudaError_t e = cudaMemsetAsync(m->base, 0, m->span, gs_cuda(dev)->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(gs_cuda(dev)->stream);
    return e == cudaSuccess ? GS_OK : gs_cuda_fail(dev, e, "cudaMemsetAsync");
}

gs_status gs_cuda_place_counter(gs_device *dev, gs_mem *m, size_t state_bytes,
                                size_t counter_offset, unsigned groups, unsigned lines)
{
    float cycles[GS_PLACE_PASSES * GS_PLACE_LINES_MAX]; /* [pass][line], gs_place_choose */
    if (m->bytes < state_bytes || counter_offset + 3u * sizeof(unsigned) > state_bytes)
        return GS_ERR_INVALID_ARGUMENT;
    lines = gs_place_candidates(m->bytes, state_bytes, lines);
    if (groups < 2u || lines < 2u)
        return GS_OK;
    cudaError_t e = cudaSetDevice(gs_cuda(dev)->ordinal);
    if (e != cudaSuccess)
        return gs_cuda_fail(dev, e, "cudaSetDevice");
    for (unsigned pass = 0; pass < GS_PLACE_PASSES; ++pass)
        for (unsigned k = 0; k < lines; ++k) {
            float *c = &cycles[pass * lines + k];
            unsigned *line = (unsigned *)((char *)m->base + k * GS_LINE_BYTES + counter_offset);
            gs_status s = probe(dev, line, groups, c);
            if (s != GS_OK)
                return s;
            if (*c <= 0.0f) /* could not run: the state stays at the allocation's start */
                return clear(dev, m);
#if defined(GS_PLACE_TRACE) && GS_PLACE_TRACE
            fprintf(stderr, "gs_place: groups %u pass %u line %u %.0f cycles\n", groups, pass, k,
                    *c);
#endif
        }
    unsigned chosen = gs_place_choose(cycles, GS_PLACE_PASSES, lines);
#if defined(GS_PLACE_TRACE) && GS_PLACE_TRACE
    /* an experiment's build: GS_PLACE_FORCE=k puts the state at line k whatever the probe
     * found (bench/micro/place_lines.sh) */
    const char *force = getenv("GS_PLACE_FORCE");
    if (force && *force && (unsigned)atoi(force) < lines)
        chosen = (unsigned)atoi(force);
    fprintf(stderr, "gs_place: groups %u chose line %u of %u (base %p)\n", groups, chosen, lines,
            m->base);
#endif
    m->ptr = (char *)m->base + chosen * GS_LINE_BYTES;
    m->bytes -= chosen * GS_LINE_BYTES; /* the buffer still ends where the allocation does */
    return clear(dev, m);
}
