/* gst_run: the barrier, the back end's launch, the count of wrong elements. */

#include "backend.h"

gs_status gst_run(gs_device *dev, const gst_config *cfg, int *out, unsigned long *wrong,
                  char error[160])
{
    gs_device_info info;
    if (error == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    error[0] = '\0';
    if (cfg == NULL || out == NULL || wrong == NULL || cfg->groups == 0 || cfg->group_size == 0 ||
        dev == NULL || gs_device_get_info(dev, &info) != GS_OK)
        return GS_ERR_INVALID_ARGUMENT;
    gs_barrier *bar = NULL;
    gs_status st = gs_barrier_create(dev, GS_ALGO_AUTO, cfg->groups, &bar);
    if (st == GS_OK && cfg->timeout_ms)
        st = gs_barrier_set_timeout(bar, cfg->timeout_ms);
    if (st != GS_OK)
        gsa_note(error, GST_ERROR_BYTES, "gs_barrier_create(auto, %u groups): %s", cfg->groups,
                 gs_status_string(st));
    if (st == GS_OK) {
        switch (info.backend) {
        case GS_BACKEND_CPU: st = gst_cpu_run(dev, bar, cfg, out, error); break;
#ifdef GST_HAVE_OPENCL
        case GS_BACKEND_OPENCL: st = gst_opencl_run(dev, bar, cfg, out, error); break;
#endif
#ifdef GST_HAVE_CUDA
        case GS_BACKEND_CUDA: st = gst_cuda_run(dev, bar, cfg, out, error); break;
#endif
        default: st = GS_ERR_UNSUPPORTED;
        }
    }
    if (bar)
        gs_barrier_destroy(bar);
    *wrong = 0;
    for (unsigned g = 0; st == GS_OK && g < cfg->groups; ++g)
        for (unsigned i = 0; i < cfg->group_size; ++i)
            *wrong += out[(size_t)g * cfg->group_size + i] != (int)(cfg->groups - 1u - g);
    return st;
}
