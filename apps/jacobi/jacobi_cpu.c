/* The app on gridsync's cpu back end: a group is a team of threads, a launch is
 * gs_cpu_launch (the local and halo forms: gs_cpu_launch_local), time is the host's monotonic
 * clock around the launch(es). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_MONOTONIC */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#include "gridsync/cpu.h"
#include "gridsync/host_cpu.h"

#include "backend.h"
#include "jacobi_step.h"
#include "jacobi_local.h"
#include "jacobi_resident.h"
#include "jacobi_halo.h"

typedef struct cpu_job {
    gs_word *state;
    float *a, *b; /* b receives iteration 0 */
    unsigned n, iters;
    unsigned gx, gy;     /* the split form's tiles (gsj_tiling) */
    unsigned bands;      /* the local form's (gsj_local_bands) */
    unsigned stride;     /* the halo form's (gsj_halo_stride) */
    float *group_memory; /* the resident and halo forms': `floats` for each group in turn */
    size_t floats;
} cpu_job;

/* This thread's place among every work-item of the launch (linear numbering). */
static unsigned first_cell(void) { return gs_group_id() * gs_local_size() + gs_local_id(); }
static unsigned all_cells(void) { return gs_num_groups() * gs_local_size(); }

/* The persistent kernel of protocol p: every iteration in one launch, a barrier
 * between two (none after the last: the launch's end orders it). */
#define GSJ_CPU_PERSISTENT(p)                                                                   \
    static void persistent_##p(void *arg)                                                       \
    {                                                                                           \
        const cpu_job *job = arg;                                                               \
        gs_grid g = gs_grid_begin_##p(job->state);                                              \
        for (unsigned t = 0;; ++t) {                                                            \
            gsj_sweep(t % 2u ? job->b : job->a, t % 2u ? job->a : job->b, job->n, first_cell(), \
                      all_cells());                                                             \
            if (t + 1u == job->iters || gs_sync_##p(&g) != 0u)                                  \
                return; /* done, or a wait gave up: the launch reports it */                    \
        }                                                                                       \
    }
/* The split form's kernel of protocol p (jacobi_step.h: the tiles, and why this order
 * is race-free): the group's perimeter, the arrival, its inner cells, the wait. T
 * barriers: an unconditional pair keeps the loop in the one plain form. */
#define GSJ_CPU_SPLIT(p)                                                            \
    static void split_##p(void *arg)                                                \
    {                                                                               \
        const cpu_job *job = arg;                                                   \
        gs_grid g = gs_grid_begin_##p(job->state);                                  \
        for (unsigned t = 0;; ++t) {                                                \
            float *src = t % 2u ? job->b : job->a, *dst = t % 2u ? job->a : job->b; \
            gsj_tile tile = gsj_tile_of(job->n, job->gx, job->gy, gs_group_id());   \
            gsj_perimeter(src, dst, job->n, tile, gs_local_id(), gs_local_size());  \
            gs_token token = gs_arrive_##p(&g);                                     \
            gsj_inner(src, dst, job->n, tile, gs_local_id(), gs_local_size());      \
            if (gs_wait_token_##p(&g, token) != 0u || t + 1u == job->iters)         \
                return; /* a wait gave up (the launch reports it), or done */       \
        }                                                                           \
    }
/* The resident form's kernel of protocol p (jacobi_resident.h): the team's tile in its
 * share of the job's group memory for the whole run. */
#define GSJ_CPU_RESIDENT(p)                                                     \
    static void resident_##p(void *arg)                                         \
    {                                                                           \
        const cpu_job *job = arg;                                               \
        gs_grid g = gs_grid_begin_##p(job->state);                              \
        gsj_tile t = gsj_tile_of(job->n, job->gx, job->gy, gs_group_id());      \
        float *s = job->group_memory + job->floats * gs_group_id();             \
        float *d = s + (t.rows + 2u) * (t.cols + 2u);                           \
        unsigned me = gs_local_id(), all = gs_local_size();                     \
        gsj_resident_load(job->a, job->n, t, s, d, me, all);                    \
        gs_group_barrier();                                                     \
        for (unsigned k = 0;; ++k) {                                            \
            float *out = k % 2u ? job->a : job->b;                              \
            gsj_resident_cells(s, d, t, me, all);                               \
            gs_group_barrier();                                                 \
            gsj_resident_out(d, out, job->n, t, k + 1u == job->iters, me, all); \
            if (k + 1u == job->iters || gs_sync_##p(&g) != 0u)                  \
                return; /* done, or a wait gave up: the launch reports it */    \
            gsj_resident_halo(out, d, job->n, t, me, all);                      \
            gs_group_barrier();                                                 \
            float *x = s;                                                       \
            s = d;                                                              \
            d = x;                                                              \
        }                                                                       \
    }
/* One of each per protocol of gridsync's list (gridsync/protocols.h), and auto. */
#define GSJ_CPU_PERSISTENT_X(ID, name, value, text, desc) \
    GSJ_CPU_PERSISTENT(name)                              \
    GSJ_CPU_SPLIT(name)                                   \
    GSJ_CPU_RESIDENT(name)
GS_PROTOCOLS_SHARED(GSJ_CPU_PERSISTENT_X)
GSJ_CPU_PERSISTENT(auto)
GSJ_CPU_SPLIT(auto)
GSJ_CPU_RESIDENT(auto)

#define GSJ_CPU_ENTRY_X(ID, name, value, text, desc) \
    {GS_ALGO_##ID, persistent_##name, split_##name, resident_##name},
static const struct {
    gs_algo algo;
    void (*kernel)(void *), (*split)(void *), (*resident)(void *);
} persistent[] = {
    GS_PROTOCOLS_SHARED(GSJ_CPU_ENTRY_X){GS_ALGO_AUTO, persistent_auto, split_auto, resident_auto}};

/* Method's persistent kernel of a form (sync, split or resident). */
static void (*persistent_of(gs_algo method, gsj_form form))(void *)
{
    for (size_t i = 0; i < sizeof persistent / sizeof *persistent; ++i)
        if (persistent[i].algo == method)
            return form == GSJ_FORM_SPLIT      ? persistent[i].split
                   : form == GSJ_FORM_RESIDENT ? persistent[i].resident
                                               : persistent[i].kernel;
    return NULL;
}

/* The local form's kernel: tickets, waits for the neighbour bands, a band, its signal
 * (jacobi_local.h). */
static void local_kernel(void *arg)
{
    const cpu_job *job = arg;
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(job->state, scratch);
    gsj_local_run(&L, job->a, job->b, job->n, job->iters, job->bands);
}

/* The halo form's kernel (jacobi_halo.h): the team's tile in its share of the job's
 * group memory, the halo in tagged words. Every team is running at once (threads). */
static void halo_kernel(void *arg)
{
    const cpu_job *job = arg;
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(job->state, scratch);
    gsj_halo_run(&L, job->a, job->b, job->n, job->iters, job->gx, job->gy, job->stride,
                 job->group_memory + job->floats * gs_group_id(), gs_local_id(), gs_local_size());
}

/* The relaunch baseline: a plain launch per iteration, as a user without a barrier
 * writes one on a CPU: a thread per work-item, started, then joined. Not through
 * gs_cpu_launch, which is for kernels that use their barrier (it reports one that never
 * touched the state as GS_ERR_BAD_STATE). */
typedef struct plain_item {
    const cpu_job *job;
    unsigned first, stride;
} plain_item;

static int plain_step(void *p)
{
    const plain_item *it = p;
    gsj_sweep(it->job->a, it->job->b, it->job->n, it->first, it->stride);
    return 0;
}

static gs_status plain_launch(const cpu_job *job, unsigned items, thrd_t *threads, plain_item *it)
{
    unsigned started = 0;
    for (; started < items; ++started) {
        it[started] = (plain_item){job, started, items};
        if (thrd_create(&threads[started], plain_step, &it[started]) != thrd_success)
            break;
    }
    for (unsigned i = 0; i < started; ++i)
        thrd_join(threads[i], NULL);
    return started == items ? GS_OK : GS_ERR_NATIVE;
}

static int cpu_supported(gs_device *dev, gs_algo method)
{
    return method == GS_ALGO_RELAUNCH ||
           (persistent_of(method, GSJ_FORM_SYNC) != NULL && gsa_protocol_runs(dev, method));
}

static gs_status cpu_max_groups(gs_device *dev, gs_algo method, gsj_form form, unsigned group_size,
                                unsigned *out)
{
    (void)method, (void)form; /* every kernel is a team of threads: the library's budget */
    return gs_device_max_groups(dev, group_size, out);
}

static gs_status cpu_group_memory(gs_device *dev, size_t *out)
{
    (void)dev; /* a team's share of an ordinary allocation */
    *out = SIZE_MAX;
    return GS_OK;
}

typedef struct cpu_impl {
    gs_barrier *bar; /* the persistent kernels' */
    gs_local *L;     /* the local and halo forms' */
    float *a, *b;
    int peer_grids;      /* a and b are the peer session's (gsj_session.peer) */
    float *group_memory; /* the resident and halo forms', every team's */
    thrd_t *threads;     /* relaunch: one per work-item */
    plain_item *items;
} cpu_impl;

static gs_status cpu_open(gsj_session *s)
{
    size_t cells = (size_t)s->cfg->n * s->cfg->n,
           items = (size_t)s->cfg->groups * s->cfg->group_size;
    cpu_impl *m = calloc(1, sizeof *m);
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    const cpu_impl *peer = s->peer ? s->peer->impl : NULL;
    if (peer && peer->a && peer->b) { /* the methods of one call on the same grids */
        m->a = peer->a;
        m->b = peer->b;
        m->peer_grids = 1;
    } else {
        m->a = malloc(cells * sizeof *m->a);
        m->b = malloc(cells * sizeof *m->b);
    }
    if (m->a == NULL || m->b == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    gsj_form form = gsj_kernel_form(s->cfg);
    if (form == GSJ_FORM_LOCAL)
        return gsj_local_open(s, &m->L);
    if ((form == GSJ_FORM_RESIDENT || form == GSJ_FORM_HALO) &&
        (m->group_memory =
             malloc(gsj_resident_bytes(s->cfg->n, s->cfg->groups) * s->cfg->groups)) == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    if (form == GSJ_FORM_HALO)
        return gsj_halo_open(s, &m->L);
    if (s->cfg->method != GS_ALGO_RELAUNCH)
        return gsj_barrier_open(s, &m->bar);
    unsigned bound = 0; /* as many threads as a gridsync launch may have */
    if (cpu_max_groups(s->dev, s->cfg->method, GSJ_FORM_SYNC, s->cfg->group_size, &bound) !=
            GS_OK ||
        s->cfg->groups > bound)
        return gsj_fail(s, GS_ERR_TOO_MANY_GROUPS,
                        "%u groups of %u: more threads than the cpu back end runs", s->cfg->groups,
                        s->cfg->group_size);
    m->threads = malloc(items * sizeof *m->threads);
    m->items = malloc(items * sizeof *m->items);
    return m->threads && m->items ? GS_OK : GS_ERR_OUT_OF_MEMORY;
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static gs_status cpu_run(gsj_session *s, double *ns)
{
    const gsj_config *c = s->cfg;
    cpu_impl *m = s->impl;
    size_t bytes = (size_t)c->n * c->n * sizeof(float);
    void *state = NULL;
    gs_status st = m->bar ? gs_barrier_native(m->bar, &state)
                   : m->L ? gs_local_native(m->L, &state)
                          : GS_OK;
    if (st != GS_OK)
        return gsj_fail(s, st, "the state's native handle");
    memcpy(m->a, s->initial, bytes); /* the edges must be in both */
    memcpy(m->b, s->initial, bytes);
    cpu_job job = {state,
                   m->a,
                   m->b,
                   c->n,
                   c->iters,
                   0,
                   0,
                   gsj_local_bands(c->n, c->groups),
                   gsj_halo_stride(c->n, c->groups),
                   m->group_memory,
                   gsj_resident_bytes(c->n, c->groups) / sizeof(float)};
    gsj_tiling(c->groups, &job.gx, &job.gy);
    double t0 = now_ns();
    if (m->L) {
        st = gs_cpu_launch_local(m->L, GS_DIM3_1D(c->groups), GS_DIM3_1D(c->group_size),
                                 gsj_kernel_form(c) == GSJ_FORM_HALO ? halo_kernel : local_kernel,
                                 &job);
        *ns = now_ns() - t0;
        return gsj_local_verdict(s, m->L, st);
    }
    if (c->method == GS_ALGO_RELAUNCH) {
        for (unsigned t = 0; st == GS_OK && t < c->iters; ++t) {
            st = plain_launch(&job, c->groups * c->group_size, m->threads, m->items);
            float *swap = job.a;
            job.a = job.b;
            job.b = swap;
        }
        *ns = now_ns() - t0;
        return st == GS_OK ? GS_OK : gsj_fail(s, st, "thrd_create");
    }
    st = gs_cpu_launch(m->bar, GS_DIM3_1D(c->groups), GS_DIM3_1D(c->group_size),
                       persistent_of(c->method, gsj_kernel_form(c)), &job);
    *ns = now_ns() - t0;
    return st == GS_OK ? GS_OK
                       : gsj_fail(s, st, "gs_cpu_launch(%u x %u)", c->groups, c->group_size);
}

static gs_status cpu_fetch(gsj_session *s, float *out)
{
    cpu_impl *m = s->impl;
    /* Iteration t writes b when t is even: the last one, T - 1, wrote b when T is odd. */
    memcpy(out, s->cfg->iters % 2 ? m->b : m->a, (size_t)s->cfg->n * s->cfg->n * sizeof *out);
    return GS_OK;
}

static void cpu_close(gsj_session *s)
{
    cpu_impl *m = s->impl;
    if (m == NULL)
        return;
    if (m->bar)
        gs_barrier_destroy(m->bar);
    if (m->L)
        gs_local_destroy(m->L);
    if (!m->peer_grids) {
        free(m->a);
        free(m->b);
    }
    free(m->group_memory);
    free(m->threads);
    free(m->items);
    free(m);
    s->impl = NULL;
}

const gsj_backend gsj_cpu_backend = {cpu_supported, cpu_max_groups, cpu_group_memory, cpu_open,
                                     cpu_run,       cpu_fetch,      cpu_close,        NULL};
