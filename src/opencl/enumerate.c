/* src/opencl/enumerate.c - OpenCL devices across every platform, GPUs first, then
 * every other device (CPU, accelerator) in platform order; opening and closing one. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "opencl_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GS_CL_MAX_PLATFORMS 16u
#define GS_CL_MAX_DEVICES 64u

/* Walks the devices in gridsync's order. Returns how many there are; when `want` is
 * one of them, fills *platform and *device with it. Never fails: no platform, no
 * device or a broken ICD all count as 0. */
static int walk(int want, cl_platform_id *platform, cl_device_id *device)
{
    cl_platform_id plats[GS_CL_MAX_PLATFORMS];
    cl_uint nplat = 0;
    int n = 0;
    /* PoCL 3.1's default work-group compiler (loopvec) runs gridsync's kernels wrongly at
     * 64 and more work-items per group (early releases, writes past the state, crashes);
     * continuation-based barriers (cbs) run them right. Only where the user chose none;
     * other OpenCL platforms do not read it. */
    setenv("POCL_WORK_GROUP_METHOD", "cbs", 0);
    gs_cl_load_icds();
    if (clGetPlatformIDs(GS_CL_MAX_PLATFORMS, plats, &nplat) != CL_SUCCESS)
        return 0;
    if (nplat > GS_CL_MAX_PLATFORMS)
        nplat = GS_CL_MAX_PLATFORMS;
    for (int pass = 0; pass < 2; ++pass) { /* 0: GPUs, 1: the rest */
        for (cl_uint p = 0; p < nplat; ++p) {
            cl_device_id devs[GS_CL_MAX_DEVICES];
            cl_uint ndev = 0;
            if (!gs_cl_platform_wanted(plats[p]))
                continue;
            if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, GS_CL_MAX_DEVICES, devs, &ndev) !=
                CL_SUCCESS)
                continue;
            if (ndev > GS_CL_MAX_DEVICES)
                ndev = GS_CL_MAX_DEVICES;
            for (cl_uint i = 0; i < ndev; ++i) {
                cl_device_type type = 0;
                if (clGetDeviceInfo(devs[i], CL_DEVICE_TYPE, sizeof type, &type, NULL) !=
                    CL_SUCCESS)
                    continue;
                int gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
                if (gpu != (pass == 0))
                    continue;
                if (n == want) {
                    *platform = plats[p];
                    *device = devs[i];
                }
                ++n;
            }
        }
    }
    return n;
}

int gs_cl_count(void) { return walk(-1, NULL, NULL); }

/* "OpenCL 3.0 ..." / "OpenCL C 1.2 ..." -> major, minor after `prefix`. */
static void parse_version(const char *text, const char *prefix, unsigned *major, unsigned *minor)
{
    unsigned a = 0, b = 0;
    size_t k = strlen(prefix);
    if (strncmp(text, prefix, k) == 0 && sscanf(text + k, "%u.%u", &a, &b) == 2) {
        *major = a;
        *minor = b;
    } else {
        *major = 1;
        *minor = 0;
    }
}

static void info_string(cl_device_id id, cl_device_info what, char *buf, size_t size)
{
    buf[0] = '\0';
    if (clGetDeviceInfo(id, what, size, buf, NULL) != CL_SUCCESS) {
        /* too long for buf: fetch it whole, keep the start */
        size_t need = 0;
        char *tmp;
        if (clGetDeviceInfo(id, what, 0, NULL, &need) != CL_SUCCESS || need == 0 ||
            (tmp = malloc(need)) == NULL)
            return;
        if (clGetDeviceInfo(id, what, need, tmp, NULL) == CL_SUCCESS)
            snprintf(buf, size, "%s", tmp);
        free(tmp);
    }
    buf[size - 1] = '\0';
}

static void platform_string(cl_platform_id p, cl_platform_info what, char *buf, size_t size)
{
    size_t need = 0;
    char *tmp;
    buf[0] = '\0';
    if (clGetPlatformInfo(p, what, 0, NULL, &need) != CL_SUCCESS || need == 0 ||
        (tmp = malloc(need)) == NULL)
        return;
    if (clGetPlatformInfo(p, what, need, tmp, NULL) == CL_SUCCESS)
        snprintf(buf, size, "%s", tmp);
    free(tmp);
}

/* Which OpenCL C versions the device compiles: CL_DEVICE_OPENCL_C_ALL_VERSIONS on
 * 3.0 platforms, else the single CL_DEVICE_OPENCL_C_VERSION. */
static void c_versions(gs_cl_device *d)
{
    char text[128];
    unsigned major, minor;
    info_string(d->id, CL_DEVICE_OPENCL_C_VERSION, text, sizeof text);
    parse_version(text, "OpenCL C ", &major, &minor);
    d->c_max_major = major;
    d->c_max_minor = minor;
    d->c_has_30 = major >= 3;
    d->c_has_20 = major == 2;
    if (d->platform_major >= 3) {
        size_t bytes = 0;
        if (clGetDeviceInfo(d->id, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL, &bytes) ==
                CL_SUCCESS &&
            bytes >= sizeof(cl_name_version)) {
            cl_name_version *v = malloc(bytes);
            if (v && clGetDeviceInfo(d->id, CL_DEVICE_OPENCL_C_ALL_VERSIONS, bytes, v, NULL) ==
                         CL_SUCCESS) {
                for (size_t i = 0; i < bytes / sizeof *v; ++i) {
                    unsigned ma = CL_VERSION_MAJOR(v[i].version);
                    unsigned mi = CL_VERSION_MINOR(v[i].version);
                    if (ma == 3)
                        d->c_has_30 = 1;
                    if (ma == 2)
                        d->c_has_20 = 1;
                    if (ma > d->c_max_major || (ma == d->c_max_major && mi > d->c_max_minor)) {
                        d->c_max_major = ma;
                        d->c_max_minor = mi;
                    }
                }
            }
            free(v);
        }
    }
}

/* Whether the device's extension string names `ext` (a whole word of it). */
static unsigned has_extension(cl_device_id id, const char *ext)
{
    size_t size = 0, len = strlen(ext);
    unsigned found = 0;
    if (clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return 0;
    char *all = malloc(size + 1);
    if (all && clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, size, all, NULL) == CL_SUCCESS) {
        all[size] = '\0';
        for (const char *at = strstr(all, ext); at && !found; at = strstr(at + 1, ext))
            found = (at == all || at[-1] == ' ') && (at[len] == ' ' || at[len] == '\0');
    }
    free(all);
    return found;
}

static void fill_info(gs_cl_device *d)
{
    gs_device_info *info = &d->base.info;
    char name[128], version[128];
    cl_device_type type = 0;
    cl_uint u = 0;
    size_t sz = 0;
    cl_ulong ul = 0;

    memset(info, 0, sizeof *info);
    info->backend = GS_BACKEND_OPENCL;
    info_string(d->id, CL_DEVICE_NAME, info->name, sizeof info->name);
    platform_string(d->platform, CL_PLATFORM_NAME, name, sizeof name);
    platform_string(d->platform, CL_PLATFORM_VERSION, version, sizeof version);
    {
        /* "name, version", cut to fit */
        size_t cap = sizeof info->platform - 1, n = strlen(name);
        n = n < cap ? n : cap;
        memcpy(info->platform, name, n);
        if (n + 2 <= cap) {
            size_t v = strlen(version);
            memcpy(info->platform + n, ", ", 2);
            n += 2;
            v = v < cap - n ? v : cap - n;
            memcpy(info->platform + n, version, v);
            n += v;
        }
        info->platform[n] = '\0';
    }
    parse_version(version, "OpenCL ", &d->platform_major, &d->platform_minor);
    if (clGetDeviceInfo(d->id, CL_DEVICE_TYPE, sizeof type, &type, NULL) == CL_SUCCESS)
        info->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    if (clGetDeviceInfo(d->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u, &u, NULL) == CL_SUCCESS)
        info->compute_units = u;
    if (clGetDeviceInfo(d->id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof sz, &sz, NULL) == CL_SUCCESS)
        info->max_group_size = sz > 0xffffffffu ? 0xffffffffu : (unsigned)sz;
    if (clGetDeviceInfo(d->id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof ul, &ul, NULL) == CL_SUCCESS)
        info->global_mem_bytes = ul;
    ul = 0;
    if (clGetDeviceInfo(d->id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof ul, &ul, NULL) == CL_SUCCESS)
        info->l2_bytes = ul;
    u = 0;
    if (clGetDeviceInfo(d->id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof u, &u, NULL) == CL_SUCCESS)
        info->clock_khz = u * 1000u;
    info->has_word64 = has_extension(d->id, "cl_khr_int64_base_atomics");
    c_versions(d);
}

gs_status gs_cl_open(int index, gs_device **out)
{
    cl_platform_id platform = NULL;
    cl_device_id id = NULL;
    cl_int err = CL_SUCCESS;
    gs_cl_device *d;

    if (out == NULL || index < 0)
        return GS_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (index >= walk(index, &platform, &id) || id == NULL)
        return GS_ERR_NO_DEVICE;
    d = calloc(1, sizeof *d);
    if (d == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    if (pthread_mutex_init(&d->lock, NULL) != 0) {
        free(d);
        return GS_ERR_OUT_OF_MEMORY;
    }
    d->lock_made = 1;
    d->platform = platform;
    d->id = id;
    d->build_status = GS_ERR_BUILD;
    fill_info(d);

    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    d->ctx = clCreateContext(props, 1, &id, NULL, NULL, &err);
    if (d->ctx == NULL || err != CL_SUCCESS) {
        gs_status s = gs_cl_fail(&d->base, err, "clCreateContext");
        gs_cl_close(&d->base);
        return s;
    }
    if (d->platform_major >= 2) {
        cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
        d->queue = clCreateCommandQueueWithProperties(d->ctx, id, qp, &err);
    } else {
        d->queue = clCreateCommandQueue(d->ctx, id, CL_QUEUE_PROFILING_ENABLE, &err);
    }
    if (d->queue == NULL || err != CL_SUCCESS) {
        gs_status s = gs_cl_fail(&d->base, err, "clCreateCommandQueue");
        gs_cl_close(&d->base);
        return s;
    }
    /* A build failure leaves the device open, so its log stays readable; launches
     * then report the build's status. */
    (void)gs_cl_build(d);
    *out = &d->base;
    return GS_OK;
}

void gs_cl_close(gs_device *dev)
{
    gs_cl_device *d = gs_cl(dev);
    if (d == NULL)
        return;
    if (d->queue)
        clFinish(d->queue);
    gs_cl_release_builds(d);
    if (d->queue)
        clReleaseCommandQueue(d->queue);
    if (d->ctx)
        clReleaseContext(d->ctx);
    if (d->lock_made)
        pthread_mutex_destroy(&d->lock);
    free(d);
}
