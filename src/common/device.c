/* Opening devices: the back-end table, the auto choice, native errors. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "knobs.h"

static const gs_backend_ops *ops_for(gs_backend backend)
{
    switch (backend) {
    case GS_BACKEND_CPU: return &gs_cpu_ops;
#ifdef GRIDSYNC_HAVE_OPENCL
    case GS_BACKEND_OPENCL: return &gs_opencl_ops;
#endif
#ifdef GRIDSYNC_HAVE_CUDA
    case GS_BACKEND_CUDA: return &gs_cuda_ops;
#endif
    default: return NULL;
    }
}

int gs_backend_built(gs_backend backend)
{
    return backend == GS_BACKEND_AUTO || ops_for(backend) != NULL;
}

static gs_status open_with(const gs_backend_ops *ops, int index, gs_device **out)
{
    if (index < 0 || index >= ops->count())
        return GS_ERR_NO_DEVICE;
    gs_status s = ops->open(index, out);
    if (s == GS_OK)
        (*out)->ops = ops;
    return s;
}

/* CUDA GPU, else an OpenCL GPU, else any OpenCL device (PoCL's CPU), else cpu.
 * OpenCL numbers GPUs first, so its device 0 is a GPU whenever there is one. */
static gs_status open_auto(int index, gs_device **out)
{
    static const gs_backend order[] = {GS_BACKEND_CUDA, GS_BACKEND_OPENCL, GS_BACKEND_CPU};
    for (unsigned i = 0; i < sizeof order / sizeof *order; ++i) {
        const gs_backend_ops *ops = ops_for(order[i]);
        if (ops && index < ops->count() && open_with(ops, index, out) == GS_OK)
            return GS_OK;
    }
    return GS_ERR_NO_DEVICE;
}

gs_status gs_device_open(gs_backend backend, int index, gs_device **out)
{
    if (!out)
        return GS_ERR_INVALID_ARGUMENT;
    *out = NULL; /* before any refusal: every failure leaves *out NULL */
    if (index < 0)
        return GS_ERR_INVALID_ARGUMENT;
    if (backend == GS_BACKEND_AUTO) {
        const char *env = gs_knob_text(GS_KNOB_BACKEND);
        if (env && gs_backend_from_name(env, &backend) != GS_OK)
            return GS_ERR_INVALID_ARGUMENT;
    }
    if (backend == GS_BACKEND_AUTO)
        return open_auto(index, out);
    if ((unsigned)backend > GS_BACKEND_CUDA)
        return GS_ERR_INVALID_ARGUMENT;
    const gs_backend_ops *ops = ops_for(backend);
    if (!ops)
        return GS_ERR_BACKEND_UNAVAILABLE;
    return open_with(ops, index, out);
}

void gs_device_hold(gs_device *dev) { atomic_fetch_add(&dev->holders, 1u); }
void gs_device_release(gs_device *dev) { atomic_fetch_sub(&dev->holders, 1u); }

gs_status gs_device_close(gs_device *dev)
{
    if (!dev)
        return GS_ERR_INVALID_ARGUMENT;
    if (atomic_load(&dev->holders) != 0u)
        return GS_ERR_BUSY;
    dev->ops->close(dev);
    return GS_OK;
}

gs_status gs_device_get_info(const gs_device *dev, gs_device_info *out)
{
    if (!dev || !out)
        return GS_ERR_INVALID_ARGUMENT;
    *out = dev->info;
    return GS_OK;
}

gs_status gs_device_max_groups(gs_device *dev, unsigned group_size, unsigned *out)
{
    if (!dev || !out || group_size == 0 || group_size > dev->info.max_group_size)
        return GS_ERR_INVALID_ARGUMENT;
    return dev->ops->max_groups(dev, group_size, out);
}

gs_status gs_device_discover_groups(gs_device *dev, unsigned group_size, unsigned *out)
{
    if (!dev || !out || group_size == 0 || group_size > dev->info.max_group_size)
        return GS_ERR_INVALID_ARGUMENT;
    return dev->ops->discover ? dev->ops->discover(dev, group_size, out) : GS_ERR_UNSUPPORTED;
}

/* Threads sharing a device may fail at once (gridsync.h): the record of the last native
 * failure is written and read under this lock, so two failures never interleave their
 * texts. One lock for every device: failures are rare, and a lock inside gs_device
 * would have to exist before a back end's open can fail. */
static pthread_mutex_t native_lock = PTHREAD_MUTEX_INITIALIZER;

gs_status gs_device_native_error(const gs_device *dev, int *code, const char **text)
{
    if (!dev)
        return GS_ERR_INVALID_ARGUMENT;
    pthread_mutex_lock(&native_lock);
    if (code)
        *code = dev->native_code;
    pthread_mutex_unlock(&native_lock);
    if (text)
        *text = dev->native_text;
    return GS_OK;
}

gs_status gs_native_fail(gs_device *dev, int code, const char *what)
{
    char text[sizeof dev->native_text];
    snprintf(text, sizeof text, "%s failed with %d", what, code);
    pthread_mutex_lock(&native_lock);
    dev->native_code = code;
    memcpy(dev->native_text, text, sizeof text);
    pthread_mutex_unlock(&native_lock);
    return GS_ERR_NATIVE;
}

int gs_algo_supported(const gs_device *dev, gs_algo algo)
{
    if (algo == GS_ALGO_AUTO) /* resolved at gs_barrier_create to one of these */
        return gs_algo_supported(dev, GS_ALGO_FLIP) && gs_algo_supported(dev, GS_ALGO_TREE);
    return dev && (unsigned)algo < GS_ALGO_COUNT_ && dev->ops->algo_supported(dev, algo);
}
