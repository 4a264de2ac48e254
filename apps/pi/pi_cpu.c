/* The app on gridsync's cpu back end: every way is one gs_cpu_launch (teams of threads
 * with a group barrier are what it makes); the host way sums the partials after it. */
#include <stdlib.h>

#include "gridsync/cpu.h"
#include "gridsync/host_cpu.h"

#include "backend.h"
#include "pi_step.h"

typedef struct cpu_impl {
    gs_word *state;
    gs_word ticket;
    double *scratch, *partials, result;
    unsigned long long steps;
    unsigned way;
} cpu_impl;

static void kernel(void *arg)
{
    cpu_impl *m = arg;
    gs_grid g = gs_grid_begin_flip(m->state); /* every way: gs_cpu_launch wants its state used */
    gsp_kernel(&g, &m->ticket, m->scratch, m->partials, &m->result, m->steps, m->way);
}

static int cpu_supported(gsp_way way) { return way != GSP_CUB; }

static gs_status cpu_open(gsp_session *s)
{
    cpu_impl *m = calloc(1, sizeof *m);
    if (m == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    s->impl = m;
    m->scratch = malloc((size_t)s->cfg->groups * s->cfg->group_size * sizeof *m->scratch);
    m->partials = malloc(s->cfg->groups * sizeof *m->partials);
    if (m->scratch == NULL || m->partials == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    void *state = NULL;
    gs_status st = gs_barrier_native(s->bar, &state);
    m->state = state;
    m->steps = s->cfg->steps;
    m->way = (unsigned)s->cfg->way;
    return st == GS_OK ? GS_OK : gsp_fail(s, st, "gs_barrier_native");
}

static gs_status cpu_run(gsp_session *s, double *pi)
{
    cpu_impl *m = s->impl;
    m->result = 0.0;
    gs_status st = gs_cpu_launch(s->bar, GS_DIM3_1D(s->cfg->groups), GS_DIM3_1D(s->cfg->group_size),
                                 kernel, m);
    if (st != GS_OK)
        return gsp_fail(s, st, "gs_cpu_launch(%u x %u)", s->cfg->groups, s->cfg->group_size);
    if (s->cfg->way == GSP_HOST)
        m->result = gsp_host_total(m->partials, s->cfg->groups);
    *pi = m->result;
    return GS_OK;
}

static void cpu_close(gsp_session *s)
{
    cpu_impl *m = s->impl;
    if (m == NULL)
        return;
    free(m->scratch);
    free(m->partials);
    free(m);
    s->impl = NULL;
}

const gsp_backend gsp_cpu_backend = {cpu_supported, cpu_open, cpu_run, cpu_close};
