/* src/opencl/user_program.c - gridsync/host_opencl.h: the program a user's OpenCL
 * kernels live in: gridsync's device text put before them, the options gridsync's own
 * program built with, its build log, and the whole build in one call. */
#include "opencl_internal.h"

#include "gridsync/host_opencl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GS_TEST_HOOKS
/* A weakened library's build options define GS_TEST_HOOKS: its users' programs need the
 * hooks' text between the shim and the protocols, as its own programs have it (build.c). */
static char *hooked_source;
static pthread_once_t hooked_once = PTHREAD_ONCE_INIT;
static void join_hooked_source(void)
{
    size_t a = strlen(gs_cl_shim_source), b = strlen(gs_cl_hooks_source);
    size_t c = strlen(gs_cl_protocol_source);
    hooked_source = malloc(a + b + c + 1);
    if (hooked_source == NULL)
        return;
    memcpy(hooked_source, gs_cl_shim_source, a);
    memcpy(hooked_source + a, gs_cl_hooks_source, b);
    memcpy(hooked_source + a + b, gs_cl_protocol_source, c + 1);
}
const char *gs_opencl_device_source(void)
{
    pthread_once(&hooked_once, join_hooked_source);
    return hooked_source ? hooked_source : gs_cl_device_source;
}
#else
const char *gs_opencl_device_source(void) { return gs_cl_device_source; }
#endif

gs_status gs_opencl_build_options(const gs_device *dev, char *buf, size_t size)
{
    const gs_cl_device *d = gs_cl_const(dev);
    size_t n;
    if (!gs_cl_is_ours(dev) || buf == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    if (d->build_status != GS_OK)
        return d->build_status;
    n = strlen(d->build_options);
    if (n + 1 > size)
        return GS_ERR_SMALL_BUFFER;
    memcpy(buf, d->build_options, n + 1);
    return GS_OK;
}

gs_status gs_opencl_build_log(const gs_device *dev, const char **log)
{
    if (!gs_cl_is_ours(dev) || log == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    *log = gs_cl_const(dev)->build_log.text ? gs_cl_const(dev)->build_log.text : "";
    return GS_OK;
}

/* A one-line account of a failure for the caller's log buffer (may be NULL). */
static void note(char *log, size_t size, const char *fmt, ...)
{
    va_list ap;
    if (log == NULL || size == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(log, size, fmt, ap);
    va_end(ap);
}

/* The user's text starts at line 1 of its own: the compiler's messages then give the
 * lines of the user's file, not of gridsync's text ahead of it. */
static const char user_line_reset[] = "\n#line 1\n";

gs_status gs_opencl_build_program(gs_device *dev, const char *source, const char *options,
                                  cl_program *out, char *log, size_t log_size)
{
    if (out)
        *out = NULL;
    note(log, log_size, "%s", "");
    if (!gs_cl_is_ours(dev) || source == NULL || out == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    const gs_cl_device *d = gs_cl_const(dev);
    if (d->build_status != GS_OK) {
        note(log, log_size, "gridsync's own program did not build here: gs_opencl_build_log");
        return d->build_status;
    }
    size_t n = strlen(d->build_options) + (options ? strlen(options) : 0) + 2;
    char *all = malloc(n);
    if (all == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    snprintf(all, n, "%s %s", d->build_options, options ? options : "");
    const char *parts[3] = {gs_opencl_device_source(), user_line_reset, source};
    cl_int err;
    cl_program p = clCreateProgramWithSource(d->ctx, 3, parts, NULL, &err);
    if (err != CL_SUCCESS) {
        free(all);
        note(log, log_size, "clCreateProgramWithSource failed with %d", (int)err);
        return gs_cl_fail(dev, err, "clCreateProgramWithSource");
    }
    err = clBuildProgram(p, 1, &d->id, all, NULL, NULL);
    gs_status s = GS_OK;
    if (err == CL_BUILD_PROGRAM_FAILURE) {
        char *text = gs_cl_program_log(d->id, p); /* its head, as much as fits */
        note(log, log_size, "%s", text ? text : "clBuildProgram failed; the compiler wrote no log");
        free(text);
        s = GS_ERR_BUILD;
        (void)gs_native_fail(dev, err, "clBuildProgram of the user's program");
    } else if (err == CL_INVALID_BUILD_OPTIONS) {
        note(log, log_size, "options: the compiler refused \"%s\"", all);
        s = GS_ERR_INVALID_ARGUMENT;
    } else if (err != CL_SUCCESS) {
        note(log, log_size, "clBuildProgram failed with %d", (int)err);
        s = gs_cl_fail(dev, err, "clBuildProgram");
    }
    free(all);
    if (s != GS_OK) {
        clReleaseProgram(p);
        return s;
    }
    *out = p;
    return GS_OK;
}
