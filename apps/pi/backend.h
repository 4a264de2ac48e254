/* apps/pi/backend.h - what each back end of the app gives the driver in run.c. */
#ifndef GSP_BACKEND_H
#define GSP_BACKEND_H

#include "appkit.h"
#include "pi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gsp_session {
    gs_device *dev;
    const gsp_config *cfg;
    gsp_result *result; /* the back end fills error */
    gs_barrier *bar;    /* every way's grid (the cpu back end launches through it) */
    void *impl;
} gsp_session;

typedef struct gsp_backend {
    int (*supported)(gsp_way way);
    gs_status (*open)(gsp_session *s);            /* buffers, program: outside the timed span */
    gs_status (*run)(gsp_session *s, double *pi); /* launch to pi on the host: timed */
    void (*close)(gsp_session *s);
} gsp_backend;

extern const gsp_backend gsp_cpu_backend;
#ifdef GSP_HAVE_OPENCL
extern const gsp_backend gsp_opencl_backend;
#endif
#ifdef GSP_HAVE_CUDA
extern const gsp_backend gsp_cuda_backend;
#endif

/* The host way's finish: the partials summed in group order, as the device ways do. */
double gsp_host_total(const double *partials, unsigned groups);
gs_status gsp_fail(gsp_session *s, gs_status status, const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif
