/* apps/jacobi/backend.h - what each back end of the app (cpu, OpenCL, CUDA) gives the
 * driver in run.c. Not installed: the app's API is jacobi.h. */
#ifndef GSJ_BACKEND_H
#define GSJ_BACKEND_H

#include "appkit.h"
#include "gridsync/host_local.h"
#include "jacobi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One configuration, from buffers to teardown. */
typedef struct gsj_session {
    gs_device *dev;
    const gsj_config *cfg;
    const float *initial; /* n * n host floats: every run starts from them */
    gsj_result *result;   /* the back end fills algo, state_bytes and error */
    void *impl;           /* the back end's own */
    /* gsj_run_methods: the session opened first (NULL in it and in gsj_run), whose grids a
     * back end may share: the sessions of one call run one at a time, from one thread,
     * and the first is closed last */
    const struct gsj_session *peer;
} gsj_session;

typedef struct gsj_backend {
    int (*supported)(gs_device *dev, gs_algo method);
    gs_status (*max_groups)(gs_device *dev, gs_algo method, gsj_form form, unsigned group_size,
                            unsigned *out);
    /* The most group memory a group of the resident form may have, in bytes. */
    gs_status (*group_memory)(gs_device *dev, size_t *out);
    /* Buffers, kernels, the barrier, a graph: everything outside the timed span. */
    gs_status (*open)(gsj_session *s);
    /* Loads the initial grid (untimed), then runs the T iterations: *ns their time. */
    gs_status (*run)(gsj_session *s, double *ns);
    /* The grid after the last run's T iterations, into n * n host floats. */
    gs_status (*fetch)(gsj_session *s, float *out);
    void (*close)(gsj_session *s); /* safe after a failed open */
    /* Frees what the back end keeps between configurations (gsj_release); NULL: nothing. */
    void (*release)(void);
} gsj_backend;

extern const gsj_backend gsj_cpu_backend;
#ifdef GSJ_HAVE_OPENCL
extern const gsj_backend gsj_opencl_backend;
#endif
#ifdef GSJ_HAVE_CUDA
extern const gsj_backend gsj_cuda_backend;
#endif

/* The form of the kernel a configuration runs: its form, or the sync form for the
 * relaunch baselines, which have none (they run the one-iteration kernel). */
gsj_form gsj_kernel_form(const gsj_config *c);

/* A barrier for the configuration's protocol (AUTO included) and grid, with its
 * timeout; records the protocol that runs and the state's size in the result. */
gs_status gsj_barrier_open(gsj_session *s, gs_barrier **out);

/* The local form's state: a progress word per band (gsj_local_bands), with the
 * configuration's timeout; records the state's size in the result. */
gs_status gsj_local_open(gsj_session *s, gs_local **out);
/* The halo form's state: gsj_halo_words tagged words, with the configuration's timeout;
 * records the state's size in the result. */
gs_status gsj_halo_open(gsj_session *s, gs_local **out);
/* A local launch's status after gs_local_collect (`st`), with what a timeout names. */
gs_status gsj_local_verdict(gsj_session *s, gs_local *L, gs_status st);
/* Records what failed (printf-style) in s->result->error and returns `status`. */
gs_status gsj_fail(gsj_session *s, gs_status status, const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif
