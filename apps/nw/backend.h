/* apps/nw/backend.h - what each back end of the app (cpu, OpenCL, CUDA) gives the
 * driver in run.c. Not installed: the app's API is nw.h. */
#ifndef NW_BACKEND_H
#define NW_BACKEND_H

#include "appkit.h"
#include "nw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One configuration, from buffers to teardown. */
typedef struct nw_session {
    gs_device *dev;
    const nw_config *cfg;
    const unsigned char *s1, *s2; /* R*B + 1 symbols each, padded past n */
    unsigned R;                   /* tiles a side */
    size_t pitch;                 /* nw_pitch(R, B): of the matrix and the edge buffer */
    size_t cells;                 /* of the device matrix: (R*B + 1) * pitch */
    nw_result *result;            /* the back end fills algo, state_bytes, launches, error */
    void *impl;                   /* the back end's own */
    unsigned runs;                /* runs so far: the first, the warm-up, is always checked */
} nw_session;

typedef struct nw_backend {
    int (*supported)(gs_device *dev, nw_scheme scheme, gs_algo protocol);
    gs_status (*max_groups)(gs_device *dev, nw_scheme scheme, gs_algo protocol, unsigned tile,
                            unsigned *out);
    /* Buffers, kernels, the barrier or local state, a graph: all outside the timed span. */
    gs_status (*open)(nw_session *s);
    /* Poisons the matrix (untimed), then one alignment: *ns its device time. */
    gs_status (*run)(nw_session *s, double *ns);
    /* The (n+1)^2 matrix of the last run, row-major, into host memory. */
    gs_status (*fetch)(nw_session *s, int32_t *out);
    void (*close)(nw_session *s); /* safe after a failed open */
} nw_backend;

extern const nw_backend nw_cpu_backend;
#ifdef NW_HAVE_OPENCL
extern const nw_backend nw_opencl_backend;
#endif
#ifdef NW_HAVE_CUDA
extern const nw_backend nw_cuda_backend;
#endif

/* The byte every cell holds before a run: a matrix cell no tile wrote reads as
 * 0x80808080, far below any score. */
#define NW_POISON 0x80

/* The local variant as the kernels take it: NW_V_* and k. */
void nw_variant_args(const nw_variant *v, unsigned *flags, unsigned *k);
/* Progress words of the configuration's local variant. */
unsigned nw_variant_words(const nw_config *cfg, unsigned R);

/* A barrier of cfg->protocol for cfg->groups (NW_GLOBAL), with its timeout; records the
 * protocol and the state's size. */
gs_status nw_barrier_open(nw_session *s, gs_barrier **out);
/* The local state of the variant (NW_LOCAL), with its timeout; records its size. */
gs_status nw_local_open(nw_session *s, gs_local **out);
/* After a launch of the local scheme: its status, and on a timeout the tile it names. */
gs_status nw_local_verdict(nw_session *s, gs_local *L, gs_status st);

/* Records what failed (printf-style) in s->result->error and returns `status`. */
gs_status nw_fail(nw_session *s, gs_status status, const char *fmt, ...);

/* nw_tile.h's layout and diagonals, for host code that does not include it (it needs a
 * gridsync device header): the cells before column 0, a diagonal's tiles. */
unsigned nw_lead(void);
unsigned nw_diag_count_host(unsigned d, unsigned R);

/* Copies the (n+1)^2 cells out of a device-layout matrix (`pitch`, NW_LEAD). */
void nw_unpack(const int32_t *device_layout, size_t pitch, unsigned n, int32_t *out);

#ifdef __cplusplus
}
#endif

#endif
