/* The app on gridsync's cpu back end: a group is a team of threads, its group memory a
 * slice of one host buffer (the team's own scratch is gridsync's two words); time is the
 * host's monotonic clock around the launch(es). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_MONOTONIC */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gridsync/cpu.h"
#include "gridsync/host_cpu.h"

#include "backend.h"
#include "nw_tile.h"

typedef struct cpu_job {
    gs_word *state; /* the barrier's (global) or the local state's */
    int *m, *edge;
    const unsigned char *s1, *s2;
    int *group_mem; /* NW_GROUP_WORDS(B) ints per group */
    unsigned n, B;
    unsigned d;                /* relaunch: the diagonal of this launch */
    unsigned flags, k, silent; /* local */
} cpu_job;

static nw_ctx ctx_of(const cpu_job *job)
{
    return nw_begin(job->m, job->edge, job->s1, job->s2, nw_blosum62,
                    job->group_mem + (size_t)gs_group_id() * NW_GROUP_WORDS(job->B), job->n, job->B,
                    gs_local_id());
}

/* The persistent kernel of protocol p: every diagonal in one launch, a grid barrier
 * between two (none after the last: the launch's end orders it). */
#define NW_CPU_GLOBAL(p)                                                     \
    static void global_##p(void *arg)                                        \
    {                                                                        \
        const cpu_job *job = arg;                                            \
        nw_ctx c = ctx_of(job);                                              \
        gs_grid g = gs_grid_begin_##p(job->state);                           \
        for (unsigned d = 0;; ++d) {                                         \
            nw_diagonal(&c, d, gs_group_id(), gs_num_groups());              \
            if (d + 2u == 2u * c.R || gs_sync_##p(&g) != 0u)                 \
                return; /* done, or a wait gave up: the launch reports it */ \
        }                                                                    \
    }
#define NW_CPU_GLOBAL_X(ID, name, value, text, desc) NW_CPU_GLOBAL(name)
GS_PROTOCOLS_SHARED(NW_CPU_GLOBAL_X)
NW_CPU_GLOBAL(auto)

#define NW_CPU_ENTRY_X(ID, name, value, text, desc) {GS_ALGO_##ID, global_##name},
static const struct {
    gs_algo algo;
    void (*kernel)(void *);
} global[] = {GS_PROTOCOLS_SHARED(NW_CPU_ENTRY_X){GS_ALGO_AUTO, global_auto}};

static void (*global_of(gs_algo protocol))(void *)
{
    for (size_t i = 0; i < sizeof global / sizeof *global; ++i)
        if (global[i].algo == protocol)
            return global[i].kernel;
    return NULL;
}

static void local_kernel(void *arg)
{
    const cpu_job *job = arg;
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(job->state, scratch);
    nw_ctx c = ctx_of(job);
    nw_local(&c, &L, job->flags, job->k, job->silent);
}

static void tagged_kernel(void *arg)
{
    const cpu_job *job = arg;
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(job->state, scratch);
    nw_ctx c = ctx_of(job);
    nw_tagged(&c, &L, job->silent);
}

/* One diagonal. The cpu back end launches a team kernel only with a gridsync state
 * (gs_cpu_launch_local reports a kernel that never began it as GS_ERR_BAD_STATE): the
 * relaunch kernel begins a local state it otherwise leaves alone. */
static void relaunch_kernel(void *arg)
{
    const cpu_job *job = arg;
    GS_GROUP_SCRATCH(scratch);
    (void)gs_local_begin(job->state, scratch);
    nw_ctx c = ctx_of(job);
    nw_diagonal(&c, job->d, gs_group_id(), gs_num_groups());
}

static int cpu_supported(gs_device *dev, nw_scheme scheme, gs_algo protocol)
{
    if (scheme == NW_RELAUNCH || scheme == NW_LOCAL || scheme == NW_LOCAL_TAGGED)
        return 1;
    return scheme == NW_GLOBAL && global_of(protocol) != NULL && gsa_protocol_runs(dev, protocol);
}

static gs_status cpu_max_groups(gs_device *dev, nw_scheme scheme, gs_algo protocol, unsigned tile,
                                unsigned *out)
{
    (void)scheme; /* every kernel is a team of threads: the library's thread budget */
    (void)protocol;
    return gs_device_max_groups(dev, tile, out);
}

typedef struct cpu_impl {
    gs_barrier *bar; /* global */
    gs_local *L;     /* local, and relaunch's launches */
    int *m, *edge, *group_mem;
} cpu_impl;

static gs_status cpu_open(nw_session *s)
{
    const nw_config *c = s->cfg;
    cpu_impl *m = calloc(1, sizeof *m);
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    unsigned most = c->scheme == NW_RELAUNCH && c->groups > s->R ? s->R : c->groups;
    m->m = malloc(s->cells * sizeof *m->m);
    m->edge = malloc((size_t)s->R * s->pitch * sizeof *m->edge);
    m->group_mem = malloc((size_t)most * NW_GROUP_WORDS(c->tile) * sizeof *m->group_mem);
    if (m->m == NULL || m->edge == NULL || m->group_mem == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    if (c->scheme == NW_GLOBAL)
        return nw_barrier_open(s, &m->bar);
    if (c->scheme == NW_LOCAL || c->scheme == NW_LOCAL_TAGGED)
        return nw_local_open(s, &m->L);
    gs_status st = gs_local_create(s->dev, 1, &m->L);
    return st == GS_OK ? GS_OK : nw_fail(s, st, "gs_local_create");
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static gs_status cpu_run(nw_session *s, double *ns)
{
    const nw_config *c = s->cfg;
    cpu_impl *m = s->impl;
    void *state = NULL;
    gs_status st = m->bar ? gs_barrier_native(m->bar, &state) : gs_local_native(m->L, &state);
    if (st != GS_OK)
        return nw_fail(s, st, "the state's native handle");
    memset(m->m, NW_POISON, s->cells * sizeof *m->m);
    cpu_job job = {state, m->m, m->edge, s->s1, s->s2, m->group_mem, c->n, c->tile, 0, 0, 1, 0};
    nw_variant_args(&c->variant, &job.flags, &job.k);
    job.silent = c->silent_tile;
    gs_dim3 size = GS_DIM3_1D(c->tile);
    double t0 = now_ns();
    if (c->scheme == NW_RELAUNCH) {
        s->result->launches = 2u * s->R - 1u;
        for (unsigned d = 0; st == GS_OK && d + 1u < 2u * s->R; ++d) {
            unsigned count = nw_diag_count(d, s->R);
            job.d = d;
            st = gs_cpu_launch_local(m->L, GS_DIM3_1D(count < c->groups ? count : c->groups), size,
                                     relaunch_kernel, &job);
        }
        *ns = now_ns() - t0;
        return st == GS_OK ? GS_OK : nw_fail(s, st, "gs_cpu_launch_local (relaunch)");
    }
    s->result->launches = 1;
    if (c->scheme == NW_LOCAL || c->scheme == NW_LOCAL_TAGGED) {
        st = gs_cpu_launch_local(m->L, GS_DIM3_1D(c->groups), size,
                                 c->scheme == NW_LOCAL ? local_kernel : tagged_kernel, &job);
        *ns = now_ns() - t0;
        return nw_local_verdict(s, m->L, st);
    }
    st = gs_cpu_launch(m->bar, GS_DIM3_1D(c->groups), size, global_of(c->protocol), &job);
    *ns = now_ns() - t0;
    return st == GS_OK ? GS_OK : nw_fail(s, st, "gs_cpu_launch(%u x %u)", c->groups, c->tile);
}

static gs_status cpu_fetch(nw_session *s, int32_t *out)
{
    cpu_impl *m = s->impl;
    nw_unpack(m->m, s->pitch, s->cfg->n, out);
    return GS_OK;
}

static void cpu_close(nw_session *s)
{
    cpu_impl *m = s->impl;
    if (m == NULL)
        return;
    if (m->bar)
        gs_barrier_destroy(m->bar);
    if (m->L)
        gs_local_destroy(m->L);
    free(m->m);
    free(m->edge);
    free(m->group_mem);
    free(m);
    s->impl = NULL;
}

const nw_backend nw_cpu_backend = {cpu_supported, cpu_max_groups, cpu_open,
                                   cpu_run,       cpu_fetch,      cpu_close};
