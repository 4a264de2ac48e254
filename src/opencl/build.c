/* src/opencl/build.c - builds gridsync's program (the embedded shim, protocols and
 * built-in kernel, plus the calibration kernel) with the strongest ordering the
 * device's compiler takes:
 *   2  -cl-std=CL3.0 (or CL2.0) -DGS_CL_ORDERING=2: C11 builtins at device scope
 *   1  -cl-std=CL3.0 (or CL2.0) -DGS_CL_ORDERING=1: 1.x atomics + device-scope fences
 *   0  -cl-std=CL1.2 -DGS_CL_ORDERING=0: the seeds' idiom (only where nothing else builds)
 * GRIDSYNC_CL_ORDERING=0|1|2 in the environment forces one (for `gridsync check`).
 * A library built with GS_WEAKEN_* passes the same definitions to the device build.
 *
 * One build per protocol, as the CUDA back end has one kernel per protocol: with
 * -DGS_WORK_PROTOCOL=<name> (src/kernels/workloads.h) the built-in kernel calls
 * gs_sync_<name>, so no barrier sits inside a run-time switch, which PoCL 3.1's
 * work-group compiler gets wrong (it runs the representative's `lid == 0` arrival on
 * every work-item) and takes minutes to compile. The relaunch build (no protocol at all) is made at open, where
 * the ordering is chosen and the calibration kernel lives; each protocol's at its
 * first launch, with the options that worked. PoCL caches every binary under
 * POCL_CACHE_DIR. */
#include "cl_build.h"
#include "common/knobs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GS_CL_STR_(x) #x
#define GS_CL_STR(x) GS_CL_STR_(x)

static const char gs_cl_weaken_options[] = ""
#if defined(GS_TEST_HOOKS)
                                           " -DGS_TEST_HOOKS=1"
#endif
#if defined(GS_WEAKEN_ORDER)
                                           " -DGS_WEAKEN_ORDER=" GS_CL_STR(GS_WEAKEN_ORDER)
#endif
#if defined(GS_WEAKEN_COUNT)
                                               " -DGS_WEAKEN_COUNT=" GS_CL_STR(GS_WEAKEN_COUNT)
#endif
    ;

static void log_append(gs_cl_log *log, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    if (log->len + (size_t)n + 1 > log->cap) {
        size_t cap = (log->len + (size_t)n + 1) * 2;
        char *t = realloc(log->text, cap);
        if (t == NULL)
            return;
        log->text = t;
        log->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(log->text + log->len, log->cap - log->len, fmt, ap);
    va_end(ap);
    log->len += (size_t)n;
}

/* The build log of `program` on the device, appended to `log`. */
static void append_build_log(gs_cl_device *d, cl_program program, gs_cl_log *log)
{
    char *text = gs_cl_program_log(d->id, program);
    size_t n = text ? strlen(text) : 0;
    if (n > 0)
        log_append(log, "%s%s", text, text[n - 1] != '\n' ? "\n" : "");
    free(text);
}

/* The ordering forced by GRIDSYNC_CL_ORDERING, or -1. */
static int forced_ordering(void)
{
    unsigned v;
    return gs_knob_uint(GS_KNOB_CL_ORDERING, &v) ? (int)v : -1;
}

static void release_variant(gs_cl_variant *v)
{
    if (v->kernel)
        clReleaseKernel(v->kernel);
    if (v->program)
        clReleaseProgram(v->program);
    v->kernel = NULL;
    v->program = NULL;
}

/* Outcome of one attempt: built, failed to compile (try the next), or a native error. */
enum { GS_TRY_BUILT, GS_TRY_REJECTED, GS_TRY_ERROR };

/* The definition that makes the built-in kernel run `algo`'s barrier. */
static const char *protocol_option(unsigned algo)
{
    switch (algo) {
#define GS_CL_PROTOCOL_CASE_(ID, name, value, text, desc) \
    case GS_ALGO_##ID: return "-DGS_WORK_PROTOCOL=" #name;
        GS_PROTOCOLS_SHARED(GS_CL_PROTOCOL_CASE_)
#undef GS_CL_PROTOCOL_CASE_
    default: return "-DGS_WORK_NO_BARRIER=1"; /* relaunch: one phase a launch */
    }
}

/* Builds the program for protocol `algo` with `options` into *v. */
static int try_build(gs_cl_device *d, unsigned algo, const char *options, gs_cl_variant *v,
                     cl_int *build_err)
{
#ifdef GS_TEST_HOOKS
    const char *sources[] = {gs_cl_shim_source, gs_cl_hooks_source, gs_cl_protocol_source,
                             gs_cl_work_source, gs_cl_calibrate_source};
#else
    const char *sources[] = {gs_cl_shim_source, gs_cl_protocol_source, gs_cl_work_source,
                             gs_cl_calibrate_source};
#endif
    char all[sizeof d->build_options + 48];
    cl_int err = CL_SUCCESS;

    snprintf(all, sizeof all, "%s %s", options, protocol_option(algo));
    v->tried = 1;
    v->program =
        clCreateProgramWithSource(d->ctx, sizeof sources / sizeof *sources, sources, NULL, &err);
    if (v->program == NULL || err != CL_SUCCESS) {
        v->program = NULL;
        v->status = gs_cl_fail(&d->base, err, "clCreateProgramWithSource");
        return GS_TRY_ERROR;
    }
    err = clBuildProgram(v->program, 1, &d->id, all, NULL, NULL);
    log_append(&d->build_log, "[%s] %s (%d)\n", all, err == CL_SUCCESS ? "built" : "failed",
               (int)err);
    append_build_log(d, v->program, &d->build_log);
    if (err != CL_SUCCESS) {
        int rejected = err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS ||
                       err == CL_COMPILER_NOT_AVAILABLE || err == CL_INVALID_OPERATION;
        v->status = rejected ? GS_ERR_BUILD : gs_cl_fail(&d->base, err, "clBuildProgram");
        *build_err = err;
        release_variant(v);
        return rejected ? GS_TRY_REJECTED : GS_TRY_ERROR;
    }
    v->kernel = clCreateKernel(v->program, "gs_work_kernel", &err);
    if (v->kernel == NULL || err != CL_SUCCESS) {
        v->kernel = NULL;
        v->status = gs_cl_fail(&d->base, err, "clCreateKernel");
        release_variant(v);
        return GS_TRY_ERROR;
    }
    err = clGetKernelWorkGroupInfo(v->kernel, d->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof v->wg_size,
                                   &v->wg_size, NULL);
    if (err != CL_SUCCESS) {
        v->status = gs_cl_fail(&d->base, err, "clGetKernelWorkGroupInfo");
        release_variant(v);
        return GS_TRY_ERROR;
    }
    v->status = GS_OK;
    return GS_TRY_BUILT;
}

gs_status gs_cl_build(gs_cl_device *d)
{
    gs_cl_variant *base = &d->variants[GS_ALGO_RELAUNCH];
    gs_status status = GS_ERR_BUILD;
    int forced = forced_ordering();
    int done = 0;
    cl_int build_err = CL_BUILD_PROGRAM_FAILURE, err = CL_SUCCESS;

    for (int ordering = 2; ordering >= 0 && !done; --ordering) {
        const char *stds[2] = {NULL, NULL};
        int nstd = 0;
        if (forced >= 0 && ordering != forced)
            continue;
        if (ordering > 0) {
            /* the C11-style builtins and atomic_work_item_fence need OpenCL C 2.0+ */
            if (d->c_has_30)
                stds[nstd++] = "-cl-std=CL3.0";
            if (d->c_has_20 || nstd == 0)
                stds[nstd++] = "-cl-std=CL2.0";
        } else {
            stds[nstd++] = d->c_max_major > 1 || d->c_max_minor >= 2 ? "-cl-std=CL1.2" : "";
        }
        for (int i = 0; i < nstd && !done; ++i) {
            char options[sizeof d->build_options];
            snprintf(options, sizeof options, "%s%s-DGS_CL_ORDERING=%d%s", stds[i],
                     stds[i][0] ? " " : "", ordering, gs_cl_weaken_options);
            switch (try_build(d, GS_ALGO_RELAUNCH, options, base, &build_err)) {
            case GS_TRY_BUILT:
                snprintf(d->build_options, sizeof d->build_options, "%s", options);
                d->base.info.ordering = (unsigned)ordering;
                status = GS_OK;
                done = 1;
                break;
            case GS_TRY_ERROR:
                status = base->status;
                done = 1;
                break;
            default: break;
            }
        }
    }
    if (status == GS_OK) {
        d->kernel_wg_size = base->wg_size;
        d->calib_kernel = clCreateKernel(base->program, "gs_calibrate_kernel", &err);
        if (d->calib_kernel == NULL || err != CL_SUCCESS) {
            d->calib_kernel = NULL;
            status = gs_cl_fail(&d->base, err, "clCreateKernel");
            release_variant(base);
        }
    } else if (status == GS_ERR_BUILD) {
        /* only a build that failed in every mode is an error of the device */
        (void)gs_native_fail(&d->base, build_err, "clBuildProgram (see gs_opencl_build_log)");
    }
    if (d->build_log.text == NULL) {
        d->build_log.text = calloc(1, 1);
        d->build_log.cap = d->build_log.text ? 1 : 0;
        if (d->build_log.text == NULL && status == GS_OK)
            status = GS_ERR_OUT_OF_MEMORY;
    }
    base->status = status;
    d->build_status = status;
    return status;
}

gs_status gs_cl_kernel_for(gs_cl_device *d, gs_algo algo, cl_kernel *kernel, size_t *wg_size)
{
    gs_cl_variant *v;
    gs_status s;
    cl_int build_err = CL_SUCCESS;
    if (d->build_status != GS_OK) /* set at open, before any other thread has the device */
        return d->build_status;
    if ((unsigned)algo >= GS_ALGO_COUNT_)
        return GS_ERR_UNKNOWN_ALGO;
    v = &d->variants[algo];
    /* Under the device's lock: two threads at a protocol's first launch would both
     * build it into *v (one program leaked, or released twice) and both append to the
     * build log, which realloc moves. */
    pthread_mutex_lock(&d->lock);
    if (!v->tried &&
        try_build(d, (unsigned)algo, d->build_options, v, &build_err) == GS_TRY_REJECTED)
        (void)gs_native_fail(&d->base, build_err, "clBuildProgram (see gs_opencl_build_log)");
    s = v->status;
    if (s == GS_OK) {
        *kernel = v->kernel;
        *wg_size = v->wg_size;
    }
    pthread_mutex_unlock(&d->lock);
    return s;
}

void gs_cl_release_builds(gs_cl_device *d)
{
    if (d->calib_kernel)
        clReleaseKernel(d->calib_kernel);
    d->calib_kernel = NULL;
    for (unsigned a = 0; a < GS_ALGO_COUNT_; ++a)
        release_variant(&d->variants[a]);
    free(d->build_log.text);
    d->build_log.text = NULL;
    d->build_log.len = d->build_log.cap = 0;
}
