/* Teams of threads: the cpu back end's groups, their intra-group barrier, and the
 * launch of a grid of them. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu.h"

#include "gridsync/prims_cpu.h"

_Thread_local gs_cpu_self gs_cpu_self_now;

/* The groups of every grid started and not yet joined, whatever its device: the
 * emulated devices of gridsync/multi.h run their grids at once on the same cores, and
 * a rank that counted only its own grid waited as if the cores were its own (4 ranks of
 * 1024 groups on 2 cores timed out where one grid of 4096 passes). */
static gs_word running_groups;

struct gs_cpu_team {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned size, waiting, generation;
    int or_acc, or_result, broken;
    unsigned index;                 /* the group it is */
    unsigned *calls;                /* team barriers each member has reached */
    struct timespec *deadline_span; /* how long one team barrier may wait */
    gs_word *abort_line;            /* the barrier state's abort line, or NULL */
    gs_u32 scratch[4];              /* group memory (gs_cpu_team_scratch) */
};

/* A team that breaks raises the barrier's abort at once, naming itself and the member
 * that never came (the one with the fewest team barriers), so that the other groups'
 * waits end at their next look instead of their own deadline, and the host's
 * diagnosis names the work-item. */
static void raise_broken(struct gs_cpu_team *t)
{
    unsigned expected = 0, item = 0;
    if (!t->abort_line)
        return;
    for (unsigned m = 1; m < t->size; ++m)
        if (t->calls[m] < t->calls[item])
            item = m;
    atomic_store(&t->abort_line[GS_ABORT_STRAY_ITEM], item);
    atomic_store(&t->abort_line[GS_ABORT_STRAY], t->index + 1u);
    if (atomic_compare_exchange_strong(&t->abort_line[GS_ABORT_REASON], &expected,
                                       GS_ABORT_TIMEOUT)) {
        atomic_store(&t->abort_line[GS_ABORT_GROUP], t->index);
        atomic_store(&t->abort_line[GS_ABORT_ITEM], item);
    }
}

static void deadline_after(struct timespec *t, const struct timespec *span)
{
    clock_gettime(CLOCK_REALTIME, t);
    t->tv_sec += span->tv_sec;
    t->tv_nsec += span->tv_nsec;
    if (t->tv_nsec >= 1000000000L) {
        t->tv_sec += 1;
        t->tv_nsec -= 1000000000L;
    }
}

gs_u32 *gs_cpu_team_scratch(void)
{
    static _Thread_local gs_u32 alone[4]; /* the host's sequential reference: no team */
    struct gs_cpu_team *t = gs_cpu_self_now.team;
    return t ? t->scratch : alone;
}

int gs_cpu_team_barrier_or(int pred)
{
    struct gs_cpu_team *t = gs_cpu_self_now.team;
    if (!t) /* the host's sequential reference: one work-item at a time */
        return pred;
    int r;
    pthread_mutex_lock(&t->mu);
    if (t->broken) {
        pthread_mutex_unlock(&t->mu);
        return 1;
    }
    t->or_acc |= pred;
    ++t->calls[gs_cpu_self_now.lid];
    unsigned gen = t->generation;
    if (++t->waiting == t->size) {
        t->or_result = t->or_acc;
        t->or_acc = 0;
        t->waiting = 0;
        ++t->generation;
        pthread_cond_broadcast(&t->cv);
    } else {
        /* A member that never comes (divergent barrier in user code) must not hang
         * the others: past the deadline the team is broken and every call says
         * "leave". */
        struct timespec deadline;
        deadline_after(&deadline, t->deadline_span);
        while (gen == t->generation && !t->broken)
            if (pthread_cond_timedwait(&t->cv, &t->mu, &deadline) == ETIMEDOUT) {
                t->broken = 1;
                raise_broken(t);
                pthread_cond_broadcast(&t->cv);
            }
    }
    r = t->broken ? 1 : t->or_result;
    pthread_mutex_unlock(&t->mu);
    return r;
}

typedef struct grid_run {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int go; /* 1: run the kernel, -1: leave without running it */
    void (*kernel)(void *);
    void *arg;
} grid_run;

typedef struct member {
    grid_run *run;
    gs_cpu_self self;
} member;

static void *member_main(void *p)
{
    member *m = p;
    grid_run *run = m->run;
    pthread_mutex_lock(&run->mu);
    while (run->go == 0)
        pthread_cond_wait(&run->cv, &run->mu);
    int go = run->go;
    pthread_mutex_unlock(&run->mu);
    if (go > 0) {
        gs_cpu_self_now = m->self;
        run->kernel(run->arg);
    }
    return NULL;
}

static void release(grid_run *run, int go)
{
    pthread_mutex_lock(&run->mu);
    run->go = go;
    pthread_cond_broadcast(&run->cv);
    pthread_mutex_unlock(&run->mu);
}

struct gs_cpu_grid {
    gs_device *dev;
    unsigned groups;
    size_t n, started;
    struct gs_cpu_team *teams;
    unsigned *calls;
    member *members;
    pthread_t *threads;
    grid_run run;
    struct timespec span, t0;
    gs_status status;
};

static void free_grid(gs_cpu_grid *g)
{
    free(g->teams);
    free(g->calls);
    free(g->members);
    free(g->threads);
    free(g);
}

/* The index `i` of a linear count over `dims`, per dimension (x fastest). */
static void split3(size_t i, const unsigned dims[3], unsigned out[3])
{
    out[0] = (unsigned)(i % dims[0]);
    out[1] = (unsigned)(i / dims[0] % dims[1]);
    out[2] = (unsigned)(i / dims[0] / dims[1]);
}

gs_status gs_cpu_grid_start(gs_device *dev, gs_dim3 grid, gs_dim3 block, void (*kernel)(void *arg),
                            void *arg, unsigned timeout_ms, gs_word *abort_line, gs_cpu_grid **out)
{
    unsigned groups = grid.x * grid.y * grid.z, group_size = block.x * block.y * block.z;
    const unsigned gdims[3] = {grid.x, grid.y, grid.z}, ldims[3] = {block.x, block.y, block.z};
    *out = NULL;
    uint64_t n = (uint64_t)groups * group_size;
    /* Every caller checks the budget first (gs_run, gs_cpu_launch); this keeps one that
     * did not from starting threads until the process dies. */
    if (groups == 0 || group_size == 0 || n > GS_CPU_MAX_THREADS)
        return groups == 0 || group_size == 0 ? GS_ERR_INVALID_ARGUMENT : GS_ERR_TOO_MANY_GROUPS;
    gs_cpu_grid *g = calloc(1, sizeof *g);
    if (!g)
        return GS_ERR_OUT_OF_MEMORY;
    g->dev = dev;
    g->groups = groups;
    g->n = (size_t)groups * group_size;
    g->teams = calloc(groups, sizeof *g->teams);
    g->calls = calloc(g->n, sizeof *g->calls);
    g->members = calloc(g->n, sizeof *g->members);
    g->threads = calloc(g->n, sizeof *g->threads);
    g->run.go = 0;
    g->run.kernel = kernel;
    g->run.arg = arg;
    /* A team barrier waits at most for its representative, whose own wait is bounded by
     * timeout_ms: only a member that never comes (divergent barrier) exceeds this. */
    unsigned team_ms = timeout_ms + (timeout_ms / 2 > 100 ? timeout_ms / 2 : 100);
    g->span.tv_sec = team_ms / 1000;
    g->span.tv_nsec = (long)(team_ms % 1000) * 1000000L;
    if (!g->teams || !g->calls || !g->members || !g->threads) {
        free_grid(g);
        return GS_ERR_OUT_OF_MEMORY;
    }
    pthread_mutex_init(&g->run.mu, NULL);
    pthread_cond_init(&g->run.cv, NULL);
    for (unsigned t = 0; t < groups; ++t) {
        pthread_mutex_init(&g->teams[t].mu, NULL);
        pthread_cond_init(&g->teams[t].cv, NULL);
        g->teams[t].size = group_size;
        g->teams[t].index = t;
        g->teams[t].calls = g->calls + (size_t)t * group_size;
        g->teams[t].deadline_span = &g->span;
        g->teams[t].abort_line = abort_line;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    g->status = GS_OK;
    /* A group's representative is its one poller (the others wait in the team barrier). */
    unsigned cores = dev->info.compute_units ? dev->info.compute_units : 1u;
    atomic_fetch_add(&running_groups, groups);
    for (; g->started < g->n; ++g->started) {
        member *m = &g->members[g->started];
        m->run = &g->run;
        m->self.group = (unsigned)(g->started / group_size);
        m->self.groups = groups;
        m->self.lid = (unsigned)(g->started % group_size);
        m->self.lsize = group_size;
        m->self.running = &running_groups;
        m->self.cores = cores;
        split3(m->self.group, gdims, m->self.group3);
        split3(m->self.lid, ldims, m->self.lid3);
        for (unsigned d = 0; d < 3; ++d) {
            m->self.groups3[d] = gdims[d];
            m->self.lsize3[d] = ldims[d];
        }
        m->self.team = &g->teams[m->self.group];
        int e = pthread_create(&g->threads[g->started], &attr, member_main, m);
        if (e != 0) {
            g->status =
                e == EAGAIN ? GS_ERR_OUT_OF_MEMORY : gs_native_fail(dev, e, "pthread_create");
            break;
        }
    }
    pthread_attr_destroy(&attr);
    /* All or nothing: a partial grid would only wait for the groups that are missing. */
    clock_gettime(CLOCK_MONOTONIC, &g->t0);
    release(&g->run, g->status == GS_OK ? 1 : -1);
    *out = g;
    return GS_OK;
}

gs_status gs_cpu_grid_join(gs_cpu_grid *g, double *elapsed_ns)
{
    struct timespec t1;
    gs_status s = g->status;
    for (size_t i = 0; i < g->started; ++i)
        pthread_join(g->threads[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (elapsed_ns)
        *elapsed_ns =
            (double)(t1.tv_sec - g->t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - g->t0.tv_nsec);
    atomic_fetch_sub(&running_groups, g->groups);
    for (unsigned t = 0; t < g->groups; ++t) {
        if (g->teams[t].broken && s == GS_OK)
            s = GS_ERR_TIMEOUT;
        pthread_mutex_destroy(&g->teams[t].mu);
        pthread_cond_destroy(&g->teams[t].cv);
    }
    pthread_mutex_destroy(&g->run.mu);
    pthread_cond_destroy(&g->run.cv);
    free_grid(g);
    return s;
}

gs_status gs_cpu_run_grid(gs_device *dev, unsigned groups, unsigned group_size,
                          void (*kernel)(void *arg), void *arg, unsigned timeout_ms,
                          gs_word *abort_line, double *elapsed_ns)
{
    gs_cpu_grid *g;
    gs_status s = gs_cpu_grid_start(dev, GS_DIM3_1D(groups), GS_DIM3_1D(group_size), kernel, arg,
                                    timeout_ms, abort_line, &g);
    return s == GS_OK ? gs_cpu_grid_join(g, elapsed_ns) : s;
}
