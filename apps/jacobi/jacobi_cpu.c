/* The app on gridsync's cpu back end: a group is a team of threads, a launch is
 * gs_cpu_launch, time is the host's monotonic clock around the launch(es). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_MONOTONIC */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gridsync/cpu.h"
#include "gridsync/host_cpu.h"

#include "backend.h"
#include "jacobi_step.h"

typedef struct cpu_job {
    gs_word *state;
    float *a, *b; /* b receives iteration 0 */
    unsigned n, iters;
} cpu_job;

/* This thread's place among every work-item of the launch (linear numbering). */
static unsigned first_cell(void) { return gs_group_id() * gs_local_size() + gs_local_id(); }
static unsigned all_cells(void) { return gs_num_groups() * gs_local_size(); }

/* The persistent kernel of protocol p: every iteration in one launch, a barrier
 * between two (none after the last: the launch's end orders it). */
#define GSJ_CPU_PERSISTENT(p)                                                                \
    static void persistent_##p(void *arg)                                                    \
    {                                                                                        \
        const cpu_job *job = arg;                                                            \
        float *a = job->a, *b = job->b;                                                      \
        gs_grid g = gs_grid_begin_##p(job->state);                                           \
        for (unsigned t = 0;; ++t) {                                                         \
            gsj_sweep(a, b, job->n, first_cell(), all_cells());                              \
            if (t + 1u == job->iters || gs_sync_##p(&g) != 0u)                               \
                return; /* done, or a wait gave up: the launch reports it */                 \
            float *swap = a;                                                                 \
            a = b;                                                                           \
            b = swap;                                                                        \
        }                                                                                    \
    }

GSJ_CPU_PERSISTENT(central)
GSJ_CPU_PERSISTENT(lockfree)
GSJ_CPU_PERSISTENT(naive)
GSJ_CPU_PERSISTENT(flip)
GSJ_CPU_PERSISTENT(tree)
GSJ_CPU_PERSISTENT(sharded)
GSJ_CPU_PERSISTENT(auto)

/* The relaunch baseline's kernel: one iteration, no barrier. */
static void step(void *arg)
{
    const cpu_job *job = arg;
    gsj_sweep(job->a, job->b, job->n, first_cell(), all_cells());
}

static const struct {
    gs_algo algo;
    void (*kernel)(void *);
} persistent[] = {
    {GS_ALGO_CENTRAL, persistent_central}, {GS_ALGO_LOCKFREE, persistent_lockfree},
    {GS_ALGO_NAIVE, persistent_naive},     {GS_ALGO_FLIP, persistent_flip},
    {GS_ALGO_TREE, persistent_tree},       {GS_ALGO_SHARDED, persistent_sharded},
    {GS_ALGO_AUTO, persistent_auto},
};

static void (*persistent_of(gs_algo method))(void *)
{
    for (size_t i = 0; i < sizeof persistent / sizeof *persistent; ++i)
        if (persistent[i].algo == method)
            return persistent[i].kernel;
    return NULL;
}

static int cpu_supported(gs_device *dev, gs_algo method)
{
    return method == GS_ALGO_RELAUNCH || (persistent_of(method) != NULL && gs_algo_supported(dev, method));
}

static gs_status cpu_max_groups(gs_device *dev, gs_algo method, unsigned group_size, unsigned *out)
{
    (void)method; /* every kernel is a team of threads: the library's thread budget */
    return gs_device_max_groups(dev, group_size, out);
}

typedef struct cpu_impl {
    gs_barrier *bar;
    float *a, *b;
} cpu_impl;

static gs_status cpu_open(gsj_session *s)
{
    size_t cells = (size_t)s->cfg->n * s->cfg->n;
    cpu_impl *m = calloc(1, sizeof *m);
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    m->a = malloc(cells * sizeof *m->a);
    m->b = malloc(cells * sizeof *m->b);
    if (m->a == NULL || m->b == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    if (s->cfg->method != GS_ALGO_RELAUNCH)
        return gsj_barrier_open(s, &m->bar);
    /* gs_cpu_launch is the cpu back end's only launch and takes a barrier; the step
     * kernel never waits at it, so its protocol does not matter. */
    gs_status st = gs_barrier_create(s->dev, GS_ALGO_CENTRAL, s->cfg->groups, &m->bar);
    return st == GS_OK ? GS_OK : gsj_fail(s, st, "gs_barrier_create(%u groups)", s->cfg->groups);
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
    gs_status st = gs_barrier_native(m->bar, &state);
    if (st != GS_OK)
        return gsj_fail(s, st, "gs_barrier_native");
    memcpy(m->a, s->initial, bytes); /* the edges must be in both */
    memcpy(m->b, s->initial, bytes);
    cpu_job job = {state, m->a, m->b, c->n, c->iters};
    gs_dim3 groups = GS_DIM3_1D(c->groups), size = GS_DIM3_1D(c->group_size);
    double t0 = now_ns();
    if (c->method == GS_ALGO_RELAUNCH) {
        for (unsigned t = 0; st == GS_OK && t < c->iters; ++t) {
            st = gs_cpu_launch(m->bar, groups, size, step, &job);
            float *swap = job.a;
            job.a = job.b;
            job.b = swap;
        }
    } else {
        st = gs_cpu_launch(m->bar, groups, size, persistent_of(c->method), &job);
    }
    *ns = now_ns() - t0;
    return st == GS_OK ? GS_OK : gsj_fail(s, st, "gs_cpu_launch(%u x %u)", c->groups, c->group_size);
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
    free(m->a);
    free(m->b);
    free(m);
    s->impl = NULL;
}

const gsj_backend gsj_cpu_backend = {cpu_supported, cpu_max_groups, cpu_open, cpu_run, cpu_fetch,
                                     cpu_close};
