/* src/opencl/build.c - builds gridsync's program (the embedded shim, protocols and
 * built-in kernel, plus the calibration kernel) with the strongest ordering the
 * device's compiler takes:
 *   2  -cl-std=CL3.0 (or CL2.0) -DGS_CL_ORDERING=2: C11 builtins at device scope
 *   1  -cl-std=CL3.0 (or CL2.0) -DGS_CL_ORDERING=1: 1.x atomics + device-scope fences
 *   0  -cl-std=CL1.2 -DGS_CL_ORDERING=0: the seeds' idiom (only where nothing else builds)
 * GRIDSYNC_CL_ORDERING=0|1|2 in the environment forces one (for `gridsync check`).
 * A library built with GS_WEAKEN_* passes the same definitions to the device build.
 * Built once, at open; PoCL caches the binary under POCL_CACHE_DIR. */
#include "opencl_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GS_CL_STR_(x) #x
#define GS_CL_STR(x) GS_CL_STR_(x)

static const char gs_cl_weaken_options[] = ""
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
    size_t bytes = 0;
    char *text;
    if (clGetProgramBuildInfo(program, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &bytes) != CL_SUCCESS ||
        bytes <= 1 || (text = malloc(bytes + 1)) == NULL)
        return;
    if (clGetProgramBuildInfo(program, d->id, CL_PROGRAM_BUILD_LOG, bytes, text, NULL) == CL_SUCCESS) {
        text[bytes] = '\0';
        size_t n = strlen(text);
        if (n > 0)
            log_append(log, "%s%s", text, text[n - 1] != '\n' ? "\n" : "");
    }
    free(text);
}

/* The ordering forced by GRIDSYNC_CL_ORDERING, or -1. */
static int forced_ordering(void)
{
    const char *e = getenv("GRIDSYNC_CL_ORDERING");
    if (e && (e[0] == '0' || e[0] == '1' || e[0] == '2') && e[1] == '\0')
        return e[0] - '0';
    return -1;
}

static void release_program(gs_cl_device *d)
{
    if (d->calib_kernel)
        clReleaseKernel(d->calib_kernel);
    if (d->kernel)
        clReleaseKernel(d->kernel);
    if (d->program)
        clReleaseProgram(d->program);
    d->calib_kernel = d->kernel = NULL;
    d->program = NULL;
}

/* Outcome of one attempt: built, failed to compile (try the next), or a native error. */
enum { GS_TRY_BUILT, GS_TRY_REJECTED, GS_TRY_ERROR };

static int try_build(gs_cl_device *d, const char *options, gs_status *status, cl_int *build_err)
{
    const char *sources[2] = {gs_cl_program_source, gs_cl_calibrate_source};
    cl_int err = CL_SUCCESS;

    d->program = clCreateProgramWithSource(d->ctx, 2, sources, NULL, &err);
    if (d->program == NULL || err != CL_SUCCESS) {
        d->program = NULL;
        *status = gs_cl_fail(&d->base, err, "clCreateProgramWithSource");
        return GS_TRY_ERROR;
    }
    err = clBuildProgram(d->program, 1, &d->id, options, NULL, NULL);
    log_append(&d->build_log, "[%s] %s (%d)\n", options, err == CL_SUCCESS ? "built" : "failed",
               (int)err);
    append_build_log(d, d->program, &d->build_log);
    if (err != CL_SUCCESS) {
        int rejected = err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS ||
                       err == CL_COMPILER_NOT_AVAILABLE || err == CL_INVALID_OPERATION;
        *status = rejected ? GS_ERR_BUILD : gs_cl_fail(&d->base, err, "clBuildProgram");
        *build_err = err;
        release_program(d);
        return rejected ? GS_TRY_REJECTED : GS_TRY_ERROR;
    }
    d->kernel = clCreateKernel(d->program, "gs_work_kernel", &err);
    if (d->kernel != NULL && err == CL_SUCCESS)
        d->calib_kernel = clCreateKernel(d->program, "gs_calibrate_kernel", &err);
    if (d->kernel == NULL || d->calib_kernel == NULL || err != CL_SUCCESS) {
        *status = gs_cl_fail(&d->base, err, "clCreateKernel");
        release_program(d);
        return GS_TRY_ERROR;
    }
    err = clGetKernelWorkGroupInfo(d->kernel, d->id, CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof d->kernel_wg_size, &d->kernel_wg_size, NULL);
    if (err != CL_SUCCESS) {
        *status = gs_cl_fail(&d->base, err, "clGetKernelWorkGroupInfo");
        release_program(d);
        return GS_TRY_ERROR;
    }
    *status = GS_OK;
    return GS_TRY_BUILT;
}

gs_status gs_cl_build(gs_cl_device *d)
{
    gs_status status = GS_ERR_BUILD;
    int forced = forced_ordering();
    int done = 0;
    cl_int build_err = CL_BUILD_PROGRAM_FAILURE;

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
            switch (try_build(d, options, &status, &build_err)) {
            case GS_TRY_BUILT:
                snprintf(d->build_options, sizeof d->build_options, "%s", options);
                d->base.info.ordering = (unsigned)ordering;
                done = 1;
                break;
            case GS_TRY_ERROR:
                done = 1;
                break;
            default:
                break;
            }
        }
    }
    /* only a build that failed in every mode is an error of the device */
    if (status == GS_ERR_BUILD)
        (void)gs_native_fail(&d->base, build_err, "clBuildProgram (see gs_opencl_build_log)");
    if (d->build_log.text == NULL) {
        d->build_log.text = calloc(1, 1);
        d->build_log.cap = d->build_log.text ? 1 : 0;
        if (d->build_log.text == NULL && status == GS_OK)
            status = GS_ERR_OUT_OF_MEMORY;
    }
    d->build_status = status;
    return status;
}

void gs_cl_release_builds(gs_cl_device *d)
{
    release_program(d);
    free(d->build_log.text);
    d->build_log.text = NULL;
    d->build_log.len = d->build_log.cap = 0;
}
