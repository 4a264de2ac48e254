/* apps/stencil/backend.h - what each back end of the app gives the driver in run.c (the
 * shape of apps/jacobi/backend.h). Not installed: the app's API is stencil.h. */
#ifndef GSS_BACKEND_H
#define GSS_BACKEND_H

#include "appkit.h"
#include "stencil.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gss_session {
    gs_device *dev;
    const gss_config *cfg;
    const uint32_t *initial; /* n host values: every run starts from them */
    gss_result *result;      /* the back end fills algo, state_bytes and error */
    void *impl;
} gss_session;

typedef struct gss_backend {
    int (*supported)(gs_device *dev, gs_algo method);
    gs_status (*max_groups)(gs_device *dev, gs_algo method, unsigned group_size, unsigned *out);
    gs_status (*open)(gss_session *s);            /* everything outside the timed span */
    gs_status (*run)(gss_session *s, double *ns); /* reloads the start (untimed), runs T */
    gs_status (*fetch)(gss_session *s, uint32_t *out);
    void (*close)(gss_session *s); /* safe after a failed open */
} gss_backend;

extern const gss_backend gss_cpu_backend;
#ifdef GSS_HAVE_OPENCL
extern const gss_backend gss_opencl_backend;
#endif
#ifdef GSS_HAVE_CUDA
extern const gss_backend gss_cuda_backend;
#endif

gs_status gss_barrier_open(gss_session *s, gs_barrier **out);
gs_status gss_fail(gss_session *s, gs_status status, const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif
