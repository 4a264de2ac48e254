/* apps/testsync/backend.h - each back end's one call, for run.c. */
#ifndef GST_BACKEND_H
#define GST_BACKEND_H

#include "appkit.h"
#include "testsync.h"

/* The size of the error buffer gst_run takes (testsync.h). */
#define GST_ERROR_BYTES 160u

#ifdef __cplusplus
extern "C" {
#endif

/* One launch of test_sync (c->sync) or test_nosync through or beside `bar`; out as gst_run's. */
gs_status gst_cpu_run(gs_device *dev, gs_barrier *bar, const gst_config *c, int *out,
                      char error[160]);
gs_status gst_opencl_run(gs_device *dev, gs_barrier *bar, const gst_config *c, int *out,
                         char error[160]);
gs_status gst_cuda_run(gs_device *dev, gs_barrier *bar, const gst_config *c, int *out,
                       char error[160]);

#ifdef __cplusplus
}
#endif

#endif
