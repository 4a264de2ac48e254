/* The app on gridsync's cpu back end: a group is a team of threads, a launch is
 * gs_cpu_launch, time is the host's monotonic clock around the launch(es). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_MONOTONIC */
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#include "gridsync/cpu.h"
#include "gridsync/host_cpu.h"

#include "backend.h"
#include "stencil_step.h"

typedef struct cpu_job {
    gs_word *state;
    unsigned *a, *tmp;
    unsigned n, iters;
} cpu_job;

static unsigned first_item(void) { return gs_group_id() * gs_local_size() + gs_local_id(); }
static unsigned all_items(void) { return gs_num_groups() * gs_local_size(); }

/* The blog's kernel with protocol p: read, barrier, write, barrier (none after the last
 * write: the launch's end orders it). */
#define GSS_CPU_PERSISTENT(p)                                                              \
    static void persistent_##p(void *arg)                                                  \
    {                                                                                      \
        const cpu_job *job = arg;                                                          \
        gs_grid g = gs_grid_begin_##p(job->state);                                         \
        for (unsigned t = 0;; ++t) {                                                       \
            unsigned held = gss_read(job->a, job->tmp, job->n, first_item(), all_items()); \
            if (gs_sync_##p(&g) != 0u)                                                     \
                return; /* a wait gave up: the launch reports it */                        \
            gss_write(job->a, job->tmp, job->n, first_item(), all_items(), held);          \
            if (t + 1u == job->iters || gs_sync_##p(&g) != 0u)                             \
                return;                                                                    \
        }                                                                                  \
    }
#define GSS_CPU_PERSISTENT_X(ID, name, value, text, desc) GSS_CPU_PERSISTENT(name)
GS_PROTOCOLS_SHARED(GSS_CPU_PERSISTENT_X)
GSS_CPU_PERSISTENT(auto)

#define GSS_CPU_ENTRY_X(ID, name, value, text, desc) {GS_ALGO_##ID, persistent_##name},
static const struct {
    gs_algo algo;
    void (*kernel)(void *);
} persistent[] = {GS_PROTOCOLS_SHARED(GSS_CPU_ENTRY_X){GS_ALGO_AUTO, persistent_auto}};

static void (*persistent_of(gs_algo method))(void *)
{
    for (size_t i = 0; i < sizeof persistent / sizeof *persistent; ++i)
        if (persistent[i].algo == method)
            return persistent[i].kernel;
    return NULL;
}

/* The relaunch baseline: a launch per phase, a thread per work-item started and joined
 * (not gs_cpu_launch, which is for kernels that use their barrier). */
typedef struct plain_item {
    const cpu_job *job;
    unsigned first, stride, write;
} plain_item;

static int plain_phase(void *p)
{
    const plain_item *it = p;
    if (it->write)
        gss_write_all(it->job->a, it->job->tmp, it->job->n, it->first, it->stride);
    else
        gss_read_all(it->job->a, it->job->tmp, it->job->n, it->first, it->stride);
    return 0;
}

static gs_status plain_launch(const cpu_job *job, unsigned items, unsigned write, thrd_t *threads,
                              plain_item *it)
{
    unsigned started = 0;
    for (; started < items; ++started) {
        it[started] = (plain_item){job, started, items, write};
        if (thrd_create(&threads[started], plain_phase, &it[started]) != thrd_success)
            break;
    }
    for (unsigned i = 0; i < started; ++i)
        thrd_join(threads[i], NULL);
    return started == items ? GS_OK : GS_ERR_NATIVE;
}

static int cpu_supported(gs_device *dev, gs_algo method)
{
    return method == GS_ALGO_RELAUNCH ||
           (persistent_of(method) != NULL && gsa_protocol_runs(dev, method));
}

static gs_status cpu_max_groups(gs_device *dev, gs_algo method, unsigned group_size, unsigned *out)
{
    (void)method; /* every kernel is a team of threads: the library's thread budget */
    return gs_device_max_groups(dev, group_size, out);
}

typedef struct cpu_impl {
    gs_barrier *bar;
    unsigned *a, *tmp;
    thrd_t *threads;
    plain_item *items;
} cpu_impl;

static gs_status cpu_open(gss_session *s)
{
    size_t items = (size_t)s->cfg->groups * s->cfg->group_size;
    cpu_impl *m = calloc(1, sizeof *m);
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    m->a = malloc(s->cfg->n * sizeof *m->a);
    m->tmp = malloc(s->cfg->n * sizeof *m->tmp);
    if (m->a == NULL || m->tmp == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    if (s->cfg->method != GS_ALGO_RELAUNCH)
        return gss_barrier_open(s, &m->bar);
    unsigned bound = 0;
    if (cpu_max_groups(s->dev, s->cfg->method, s->cfg->group_size, &bound) != GS_OK ||
        s->cfg->groups > bound)
        return gss_fail(s, GS_ERR_TOO_MANY_GROUPS,
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

static gs_status cpu_run(gss_session *s, double *ns)
{
    const gss_config *c = s->cfg;
    cpu_impl *m = s->impl;
    void *state = NULL;
    gs_status st = m->bar ? gs_barrier_native(m->bar, &state) : GS_OK;
    if (st != GS_OK)
        return gss_fail(s, st, "gs_barrier_native");
    memcpy(m->a, s->initial, c->n * sizeof *m->a);
    cpu_job job = {state, m->a, m->tmp, c->n, c->iters};
    unsigned items = c->groups * c->group_size;
    double t0 = now_ns();
    if (c->method == GS_ALGO_RELAUNCH) {
        for (unsigned t = 0; st == GS_OK && t < 2u * c->iters; ++t)
            st = plain_launch(&job, items, t % 2u, m->threads, m->items);
        *ns = now_ns() - t0;
        return st == GS_OK ? GS_OK : gss_fail(s, st, "thrd_create");
    }
    st = gs_cpu_launch(m->bar, GS_DIM3_1D(c->groups), GS_DIM3_1D(c->group_size),
                       persistent_of(c->method), &job);
    *ns = now_ns() - t0;
    return st == GS_OK ? GS_OK
                       : gss_fail(s, st, "gs_cpu_launch(%u x %u)", c->groups, c->group_size);
}

static gs_status cpu_fetch(gss_session *s, uint32_t *out)
{
    cpu_impl *m = s->impl;
    memcpy(out, m->a, s->cfg->n * sizeof *out);
    return GS_OK;
}

static void cpu_close(gss_session *s)
{
    cpu_impl *m = s->impl;
    if (m == NULL)
        return;
    if (m->bar)
        gs_barrier_destroy(m->bar);
    free(m->a);
    free(m->tmp);
    free(m->threads);
    free(m->items);
    free(m);
    s->impl = NULL;
}

const gss_backend gss_cpu_backend = {cpu_supported, cpu_max_groups, cpu_open,
                                     cpu_run,       cpu_fetch,      cpu_close};
