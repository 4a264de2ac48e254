/* The app on gridsync's cpu back end: a group is a team of `tile` threads (one per
 * column of a tile), a launch is gs_cpu_launch (the barrier schemes) or
 * gs_cpu_launch_local (the local scheme, and each launch of the relaunch baseline),
 * time is the host's monotonic clock around the launch(es). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_MONOTONIC */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gridsync/cpu.h"
#include "gridsync/host_cpu.h"

#include "backend.h"
#include "sor_step.h"
#include "sor_tile.h"

typedef struct cpu_job {
    gs_word *state; /* the barrier's, or the local state's */
    float *u;
    gsr_shape shape;
    float a, b;
    unsigned mutant;
    unsigned step; /* relaunch: the step this launch runs */
} cpu_job;

/* The persistent kernel of protocol p: every step in one launch, a barrier between two
 * (none after the last: the launch's end orders it). */
#define GSR_CPU_PERSISTENT(p)                                                                    \
    static void persistent_##p(void *arg)                                                        \
    {                                                                                            \
        const cpu_job *job = arg;                                                                \
        gs_grid g = gs_grid_begin_##p(job->state);                                               \
        for (unsigned step = 0;; ++step) {                                                       \
            gsr_step(job->u, &job->shape, step, gs_group_id(), gs_num_groups(), job->a, job->b); \
            if (step + 1u == job->shape.steps || gs_sync_##p(&g) != 0u)                          \
                return; /* done, or a wait gave up: the launch reports it */                     \
        }                                                                                        \
    }
#define GSR_CPU_PERSISTENT_X(ID, name, value, text, desc) GSR_CPU_PERSISTENT(name)
GS_PROTOCOLS_SHARED(GSR_CPU_PERSISTENT_X)
GSR_CPU_PERSISTENT(auto)

#define GSR_CPU_ENTRY_X(ID, name, value, text, desc) {GS_ALGO_##ID, persistent_##name},
static const struct {
    gs_algo algo;
    void (*kernel)(void *);
} persistent[] = {GS_PROTOCOLS_SHARED(GSR_CPU_ENTRY_X){GS_ALGO_AUTO, persistent_auto}};

static void (*persistent_of(gs_algo method))(void *)
{
    for (size_t i = 0; i < sizeof persistent / sizeof *persistent; ++i)
        if (persistent[i].algo == method)
            return persistent[i].kernel;
    return NULL;
}

/* The local scheme: one launch, tickets and progress words (sor_tile.h). */
static void local_kernel(void *arg)
{
    const cpu_job *job = arg;
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(job->state, scratch);
    gsr_local_run(&L, job->u, &job->shape, job->a, job->b, job->mutant);
}

/* The relaunch baseline: one step per launch. The cpu back end runs teams (with their
 * group barriers) only through its launch calls, and gs_cpu_launch_local wants its
 * state begun: this kernel begins it and uses nothing else of it. */
static void step_kernel(void *arg)
{
    const cpu_job *job = arg;
    GS_GROUP_SCRATCH(scratch);
    (void)gs_local_begin(job->state, scratch);
    gsr_step(job->u, &job->shape, job->step, gs_group_id(), gs_num_groups(), job->a, job->b);
}

static int cpu_supported(gs_device *dev, gs_algo method)
{
    return method == GSR_LOCAL || method == GS_ALGO_RELAUNCH ||
           (persistent_of(method) != NULL && gsa_protocol_runs(dev, method));
}

static gs_status cpu_max_groups(gs_device *dev, gs_algo method, unsigned tile, unsigned *out)
{
    (void)method; /* every kernel is a team of threads: the library's thread budget */
    return gs_device_max_groups(dev, tile, out);
}

typedef struct cpu_impl {
    gs_barrier *bar; /* the persistent kernels' */
    gs_local *L;     /* the local scheme's, and the relaunch launches' */
    float *u;
} cpu_impl;

static gs_status cpu_open(gsr_session *s)
{
    cpu_impl *m = calloc(1, sizeof *m);
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    s->result->group_size = s->cfg->tile;
    m->u = malloc((size_t)s->cfg->n * s->cfg->n * sizeof *m->u);
    if (m->u == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    if (gsr_is_barrierless(s->cfg->method))
        return gsr_local_open(s, &m->L);
    return gsr_barrier_open(s, &m->bar);
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static gs_status cpu_run(gsr_session *s, double *ns)
{
    const gsr_config *c = s->cfg;
    cpu_impl *m = s->impl;
    void *state = NULL;
    gs_status st = m->bar ? gs_barrier_native(m->bar, &state) : gs_local_native(m->L, &state);
    if (st != GS_OK)
        return gsr_fail(s, st, "the state's native handle");
    memcpy(m->u, s->initial, (size_t)c->n * c->n * sizeof *m->u);
    cpu_job job = {state, m->u, s->shape, s->a, s->b, c->mutant, 0};
    gs_dim3 groups = GS_DIM3_1D(c->groups), size = GS_DIM3_1D(c->tile);
    double t0 = now_ns();
    if (c->method == GS_ALGO_RELAUNCH) {
        for (; st == GS_OK && job.step < s->shape.steps; ++job.step)
            st = gs_cpu_launch_local(m->L, groups, size, step_kernel, &job);
        *ns = now_ns() - t0;
        return st == GS_OK ? GS_OK : gsr_fail(s, st, "relaunch step %u", job.step - 1u);
    }
    if (c->method == GSR_LOCAL) {
        st = gs_cpu_launch_local(m->L, groups, size, local_kernel, &job);
        *ns = now_ns() - t0;
        return gsr_local_verdict(s, m->L, st);
    }
    st = gs_cpu_launch(m->bar, groups, size, persistent_of(c->method), &job);
    *ns = now_ns() - t0;
    return st == GS_OK ? GS_OK : gsr_fail(s, st, "gs_cpu_launch(%u x %u)", c->groups, c->tile);
}

static gs_status cpu_fetch(gsr_session *s, float *out)
{
    cpu_impl *m = s->impl;
    memcpy(out, m->u, (size_t)s->cfg->n * s->cfg->n * sizeof *out);
    return GS_OK;
}

static void cpu_close(gsr_session *s)
{
    cpu_impl *m = s->impl;
    if (m == NULL)
        return;
    if (m->bar)
        gs_barrier_destroy(m->bar);
    if (m->L)
        gs_local_destroy(m->L);
    free(m->u);
    free(m);
    s->impl = NULL;
}

const gsr_backend gsr_cpu_backend = {cpu_supported, cpu_max_groups, cpu_open,
                                     cpu_run,       cpu_fetch,      cpu_close};
