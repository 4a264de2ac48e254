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

struct gs_cpu_team {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned size, waiting, generation;
    int or_acc, or_result, broken;
    struct timespec *deadline_span; /* how long one team barrier may wait */
};

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
    int go;      /* 1: run the kernel, -1: leave without running it */
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

gs_status gs_cpu_run_grid(gs_device *dev, unsigned groups, unsigned group_size,
                          void (*kernel)(void *arg), void *arg, unsigned timeout_ms,
                          double *elapsed_ns)
{
    size_t n = (size_t)groups * group_size;
    /* Every caller checks the budget first (gs_run, gs_cpu_launch); this keeps one that
     * did not from starting threads until the process dies. */
    if (groups == 0 || group_size == 0 || n > GS_CPU_MAX_THREADS)
        return groups == 0 || group_size == 0 ? GS_ERR_INVALID_ARGUMENT : GS_ERR_TOO_MANY_GROUPS;
    struct gs_cpu_team *teams = calloc(groups, sizeof *teams);
    member *members = calloc(n, sizeof *members);
    pthread_t *threads = calloc(n, sizeof *threads);
    grid_run run = {.go = 0, .kernel = kernel, .arg = arg};
    /* A team barrier waits at most for its representative, whose own wait is bounded by
     * timeout_ms: only a member that never comes (divergent barrier) exceeds this. */
    unsigned team_ms = timeout_ms + (timeout_ms / 2 > 100 ? timeout_ms / 2 : 100);
    struct timespec span = {.tv_sec = team_ms / 1000, .tv_nsec = (long)(team_ms % 1000) * 1000000L};
    gs_status s = GS_OK;
    size_t started = 0;
    if (!teams || !members || !threads) {
        s = GS_ERR_OUT_OF_MEMORY;
        goto out;
    }
    pthread_mutex_init(&run.mu, NULL);
    pthread_cond_init(&run.cv, NULL);
    for (unsigned g = 0; g < groups; ++g) {
        pthread_mutex_init(&teams[g].mu, NULL);
        pthread_cond_init(&teams[g].cv, NULL);
        teams[g].size = group_size;
        teams[g].deadline_span = &span;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    for (; started < n; ++started) {
        member *m = &members[started];
        m->run = &run;
        m->self.group = (unsigned)(started / group_size);
        m->self.groups = groups;
        m->self.lid = (unsigned)(started % group_size);
        m->self.lsize = group_size;
        m->self.team = &teams[m->self.group];
        int e = pthread_create(&threads[started], &attr, member_main, m);
        if (e != 0) {
            s = e == EAGAIN ? GS_ERR_OUT_OF_MEMORY : gs_native_fail(dev, e, "pthread_create");
            break;
        }
    }
    pthread_attr_destroy(&attr);
    /* All or nothing: a partial grid would only wait for the groups that are missing. */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    release(&run, s == GS_OK ? 1 : -1);
    for (size_t i = 0; i < started; ++i)
        pthread_join(threads[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (elapsed_ns)
        *elapsed_ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
    for (unsigned g = 0; g < groups; ++g) {
        if (teams[g].broken && s == GS_OK)
            s = GS_ERR_TIMEOUT;
        pthread_mutex_destroy(&teams[g].mu);
        pthread_cond_destroy(&teams[g].cv);
    }
    pthread_mutex_destroy(&run.mu);
    pthread_cond_destroy(&run.cv);
out:
    free(teams);
    free(members);
    free(threads);
    return s;
}
