/* apps/sor/backend.h - what each back end of the app (cpu, OpenCL, CUDA) gives the
 * driver in run.c. Not installed: the app's API is sor.h. */
#ifndef GSR_BACKEND_H
#define GSR_BACKEND_H

#include "appkit.h"
#include "sor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One configuration, from buffers to teardown. */
typedef struct gsr_session {
    gs_device *dev;
    const gsr_config *cfg;
    gsr_shape shape;      /* sor_step.h's, of (n, tile, sweeps) */
    float a, b;           /* 1 - omega and omega / 4, as the reference has them */
    const float *initial; /* n * n host floats: every run starts from them */
    gsr_result *result;   /* the back end fills algo, state_bytes, group_size, error */
    void *impl;           /* the back end's own */
} gsr_session;

typedef struct gsr_backend {
    int (*supported)(gs_device *dev, gs_algo method);
    gs_status (*max_groups)(gs_device *dev, gs_algo method, unsigned tile, unsigned *out);
    /* Buffers, kernels, the barrier or local state, a graph: all outside the timed span. */
    gs_status (*open)(gsr_session *s);
    /* Loads the initial grid (untimed), then runs the S sweeps: *ns their time. */
    gs_status (*run)(gsr_session *s, double *ns);
    /* The grid after the last run, into n * n host floats. */
    gs_status (*fetch)(gsr_session *s, float *out);
    void (*close)(gsr_session *s); /* safe after a failed open */
} gsr_backend;

extern const gsr_backend gsr_cpu_backend;
#ifdef GSR_HAVE_OPENCL
extern const gsr_backend gsr_opencl_backend;
#endif
#ifdef GSR_HAVE_CUDA
extern const gsr_backend gsr_cuda_backend;
#endif

/* The schemes no gridsync barrier runs: local synchronization and the baselines. */
int gsr_is_barrierless(gs_algo method);

/* A barrier for the configuration's protocol and grid, with its timeout; records the
 * protocol that runs and the state's size in the result. */
gs_status gsr_barrier_open(gsr_session *s, gs_barrier **out);

/* The local scheme's state: a progress word per tile, with its timeout; records the
 * state's size in the result. */
gs_status gsr_local_open(gsr_session *s, gs_local **out);

/* A local launch's verdict `st` (from gs_local_collect or gs_cpu_launch_local): the
 * abort's words in the result on GS_ERR_TIMEOUT, and the error's text. */
gs_status gsr_local_verdict(gsr_session *s, gs_local *L, gs_status st);

/* Records what failed (printf-style) in s->result->error and returns `status`. */
gs_status gsr_fail(gsr_session *s, gs_status status, const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif
