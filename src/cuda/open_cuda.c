/* src/cuda/open_cuda.c - CUDA devices: counting, opening (the device info) and closing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

int gs_cuda_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

void gs_cuda_close(gs_device *dev)
{
    gs_cuda_device *d = gs_cuda(dev);
    if (!d)
        return;
    cudaSetDevice(d->ordinal);
    if (d->start)
        cudaEventDestroy(d->start);
    if (d->stop)
        cudaEventDestroy(d->stop);
    if (d->stream)
        cudaStreamDestroy(d->stream);
    free(d);
}

/* The kernel module's release ("580.159.04"), which the CUDA API does not give: the
 * results name the driver, and two releases of one CUDA version can time differently.
 * Empty where /proc/driver/nvidia/version cannot be read (not Linux, a container). */
static void driver_release(char *out, size_t n)
{
    char line[256], tok[64];
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    out[0] = '\0';
    if (!f)
        return;
    const char *p = fgets(line, sizeof line, f) ? strstr(line, "Module") : NULL;
    fclose(f);
    for (int used = 0; p && sscanf(p, "%63s%n", tok, &used) == 1; p += used)
        if (tok[0] >= '0' && tok[0] <= '9' && strchr(tok, '.')) {
            snprintf(out, n, "%s", tok);
            return;
        }
}

gs_status gs_cuda_open(int index, gs_device **out)
{
    struct cudaDeviceProp prop;
    cudaError_t e;
    int v = 0, driver = 0, runtime = 0;
    if (index < 0 || index >= gs_cuda_count())
        return GS_ERR_NO_DEVICE;
    gs_cuda_device *d = calloc(1, sizeof *d);
    if (!d)
        return GS_ERR_OUT_OF_MEMORY;
    d->ordinal = index;
    d->cluster_coop = -1;
    gs_device *dev = &d->base;
    if ((e = cudaSetDevice(index)) != cudaSuccess ||
        (e = cudaGetDeviceProperties(&prop, index)) != cudaSuccess) {
        gs_status s = gs_cuda_fail(dev, e, "cudaGetDeviceProperties");
        free(d);
        return s == GS_ERR_NATIVE ? GS_ERR_NO_DEVICE : s;
    }
    if ((e = cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking)) != cudaSuccess ||
        (e = cudaEventCreate(&d->start)) != cudaSuccess ||
        (e = cudaEventCreate(&d->stop)) != cudaSuccess) {
        gs_status s = gs_cuda_fail(dev, e, "cudaStreamCreate");
        gs_cuda_close(dev);
        return s;
    }
    d->sms = (unsigned)prop.multiProcessorCount;
    d->clusters = prop.major >= 9;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrCooperativeLaunch, index) == cudaSuccess)
        d->coop = v != 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);

    gs_device_info *info = &dev->info;
    info->backend = GS_BACKEND_CUDA;
    size_t name_len = 0;
    while (name_len + 1 < sizeof info->name && name_len < sizeof prop.name && prop.name[name_len])
        ++name_len;
    memcpy(info->name, prop.name, name_len);
    info->name[name_len] = '\0';
    char release[64];
    driver_release(release, sizeof release);
    snprintf(info->platform, sizeof info->platform, "CUDA driver %d.%d%s%s%s, runtime %d.%d",
             driver / 1000, driver % 1000 / 10, release[0] ? " (" : "", release,
             release[0] ? ")" : "", runtime / 1000, runtime % 1000 / 10);
    info->compute_units = d->sms;
    info->max_group_size = (unsigned)prop.maxThreadsPerBlock;
    info->is_gpu = 1;
    info->has_word64 = 1; /* ld/st.relaxed.gpu.b64 */
    info->ordering = 2;   /* explicit .acquire/.release/.acq_rel at .gpu scope */
    info->global_mem_bytes = (uint64_t)prop.totalGlobalMem;
    info->l2_bytes = (uint64_t)prop.l2CacheSize;
    info->cc_major = (unsigned)prop.major;
    info->cc_minor = (unsigned)prop.minor;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, index) == cudaSuccess)
        info->clock_khz = (unsigned)v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, index) == cudaSuccess)
        info->mem_clock_khz = (unsigned)v;
    (void)cudaGetLastError();
    *out = dev;
    return GS_OK;
}
