/* src/opencl/calibrate.c - the device-side deadline of an OpenCL wait.
 *
 * OpenCL C has no clock, so gs_wait counts its failed polls (gs_clock(polls) = polls)
 * and gives up after the header's timeout, in polls. Once per device the host times
 * gs_wait itself (the same loop, the same gs_load_acquire, the same abort check every
 * 16 polls) on a word that never changes, with profiling events, from one work-item in
 * each of compute-units work-groups polling that word at once: that is how the waits
 * of a barrier run, and such polls are several times slower than one idle poller's
 * (3.5x on PoCL with 2 workers, which stretched a 300 ms timeout past 1 s). The fastest
 * of a few runs converts milliseconds to polls, so a wait ends near its timeout. */
#include "cl_build.h"

#include <string.h>

/* Appended to the program by build.c; sees everything gs_cl_program_source defines. */
const char gs_cl_calibrate_source[] =
    "\n/* src/opencl/calibrate.c: a work-item of every group waits `polls` polls on a word\n"
    " * nobody writes; the first to give up raises the abort, the others follow */\n"
    "__kernel void gs_calibrate_kernel(__global gs_word *state, ulong polls)\n"
    "{\n"
    "    gs_grid g = gs_grid_waiter(state, polls);\n"
    "    (void)gs_wait(&g, gs_word_at(&g, GS_LINE_COUNTER, 0u), 1u, GS_UNTIL_REACHED);\n"
    "}\n";

/* Bytes of the calibration state: header, abort and counter lines. */
#define GS_CL_CALIB_BYTES (3u * GS_LINE_BYTES)
/* A run must last this long to be timed (ns). */
#define GS_CL_CALIB_TARGET_NS 10e6
/* Used when the measurement fails: 5 ns per poll, long rather than short. */
#define GS_CL_DEFAULT_POLLS_PER_MS 200000u
/* No wait is shorter than this many polls, whatever the timeout. */
#define GS_CL_MIN_POLLS 65536u

/* One timed run of `polls` polls; *why receives the abort reason it left behind. */
static gs_status run_once(gs_cl_device *d, cl_mem buf, cl_ulong polls, double *ns, unsigned *why)
{
    static const unsigned zeros[GS_CL_CALIB_BYTES / 4];
    cl_int err;
    cl_event ev = NULL;
    size_t one = 1, groups = d->base.info.compute_units ? d->base.info.compute_units : 1;
    gs_status s;
    unsigned out[1] = {0};

    err = clEnqueueWriteBuffer(d->queue, buf, CL_TRUE, 0, sizeof zeros, zeros, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return gs_cl_fail(&d->base, err, "clEnqueueWriteBuffer");
    err = clSetKernelArg(d->calib_kernel, 0, sizeof buf, &buf);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(d->calib_kernel, 1, sizeof polls, &polls);
    if (err != CL_SUCCESS)
        return gs_cl_fail(&d->base, err, "clSetKernelArg");
    err = clEnqueueNDRangeKernel(d->queue, d->calib_kernel, 1, NULL, &groups, &one, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return gs_cl_fail(&d->base, err, "clEnqueueNDRangeKernel");
    s = gs_cl_event_span(&d->base, ev, ev, ns);
    clReleaseEvent(ev);
    if (s != GS_OK)
        return s;
    /* The first work-group whose wait expires raises the abort; the others then leave
     * with GS_ABORT_PEER at their next look. What counts is that the deadline, not
     * anything else, ended the launch. */
    err = clEnqueueReadBuffer(d->queue, buf, CL_TRUE, GS_WORD(GS_LINE_ABORT, GS_ABORT_REASON) * 4u,
                              sizeof out[0], &out[0], 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return gs_cl_fail(&d->base, err, "clEnqueueReadBuffer");
    *why = out[0];
    return GS_OK;
}

/* Polls per millisecond of one waiting work-item; 0 when it cannot be measured. */
static uint64_t measure(gs_cl_device *d)
{
    cl_int err = CL_SUCCESS;
    cl_mem buf;
    cl_ulong polls = 1024u;
    double ns = 0.0, best = 0.0;
    unsigned why = 0;

    if (d->build_status != GS_OK || d->calib_kernel == NULL)
        return 0;
    buf = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, GS_CL_CALIB_BYTES, NULL, &err);
    if (buf == NULL || err != CL_SUCCESS) {
        (void)gs_cl_fail(&d->base, err, "clCreateBuffer");
        return 0;
    }
    /* Grow the run until it is long enough to time. */
    for (int step = 0; step < 40; ++step) {
        if (run_once(d, buf, polls, &ns, &why) != GS_OK || why != GS_ABORT_TIMEOUT)
            goto fail;
        if (ns >= GS_CL_CALIB_TARGET_NS)
            break;
        if (polls >= ((cl_ulong)1 << 40))
            goto fail;
        polls *= ns < GS_CL_CALIB_TARGET_NS / 16 ? 8u : 2u;
    }
    if (ns < GS_CL_CALIB_TARGET_NS)
        goto fail;
    /* The fastest of three runs: polls that take longer only make waits longer. */
    best = (double)polls / (ns / 1e6);
    for (int k = 0; k < 2; ++k) {
        if (run_once(d, buf, polls, &ns, &why) != GS_OK || why != GS_ABORT_TIMEOUT)
            goto fail;
        if (ns > 0.0 && (double)polls / (ns / 1e6) > best)
            best = (double)polls / (ns / 1e6);
    }
    clReleaseMemObject(buf);
    return best < 1.0 ? 1u : (uint64_t)best;
fail:
    clReleaseMemObject(buf);
    return 0;
}

uint64_t gs_cl_timeout_units(gs_device *dev, unsigned milliseconds)
{
    gs_cl_device *d = gs_cl(dev);
    uint64_t units, ppm;
    /* Under the device's lock: the first barriers of two threads would both measure,
     * setting the arguments of the one calibration kernel at once. */
    pthread_mutex_lock(&d->lock);
    if (d->calibrated == 0) {
        ppm = measure(d);
        d->calibrated = ppm ? 1 : -1;
        d->polls_per_ms = ppm ? ppm : GS_CL_DEFAULT_POLLS_PER_MS;
    }
    ppm = d->polls_per_ms;
    pthread_mutex_unlock(&d->lock);
    if (milliseconds != 0u && ppm > UINT64_MAX / 4u / milliseconds)
        units = UINT64_MAX / 4u; /* the device adds it to a poll count: no wrap */
    else
        units = (uint64_t)milliseconds * ppm;
    return units < GS_CL_MIN_POLLS ? GS_CL_MIN_POLLS : units;
}
