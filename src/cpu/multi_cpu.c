/* src/cpu/multi_cpu.c - a barrier across devices on the cpu back end: each rank a grid
 * of teams of threads (team.c), all ranks in one address space, as emulated devices. */
#include "common/multi_internal.h"
#include "cpu.h"

static gs_status wait_grid(gs_multi_rank *r) { return gs_cpu_grid_join(r->pending, NULL); }

gs_status gs_cpu_multi_launch_async(gs_multi *m, unsigned rank, gs_dim3 groups, gs_dim3 group_size,
                                    void (*kernel)(void *arg), void *arg)
{
    if (!m || !kernel || rank >= m->ranks)
        return GS_ERR_INVALID_ARGUMENT;
    gs_multi_rank *r = &m->rank[rank];
    if (!r->dev || r->dev->ops != &gs_cpu_ops)
        return GS_ERR_UNSUPPORTED;
    uint64_t size = (uint64_t)group_size.x * group_size.y * group_size.z;
    uint64_t items = (uint64_t)groups.x * groups.y * groups.z * size;
    if (items == 0 || size > GS_CPU_MAX_GROUP_SIZE)
        return GS_ERR_INVALID_ARGUMENT;
    /* every rank's threads at once, each rank a grid as large */
    if (items * m->ranks > GS_CPU_MAX_THREADS)
        return GS_ERR_TOO_MANY_GROUPS;
    gs_status s = gs_multi_begin_launch(m, rank, groups);
    if (s != GS_OK)
        return s;
    gs_cpu_grid *g = NULL;
    gs_word *state = r->dev->ops->mem_native(r->state);
    s = gs_cpu_grid_start(r->dev, groups, group_size, kernel, arg, m->timeout_ms,
                          state + GS_WORD(GS_LINE_ABORT, 0), &g);
    if (s != GS_OK)
        return gs_multi_launch_failed(m, rank, s);
    r->pending = g;
    r->wait = wait_grid;
    return GS_OK;
}

typedef struct every_rank {
    gs_dim3 groups, group_size;
    void (*kernel)(void *arg);
    void *const *args;
} every_rank;

static gs_status launch_one(gs_multi *m, unsigned rank, void *ctx)
{
    const every_rank *e = ctx;
    return gs_cpu_multi_launch_async(m, rank, e->groups, e->group_size, e->kernel,
                                     e->args ? e->args[rank] : NULL);
}

gs_status gs_cpu_multi_launch(gs_multi *m, gs_dim3 groups, gs_dim3 group_size,
                              void (*kernel)(void *arg), void *const *args, gs_status *statuses)
{
    every_rank e = {groups, group_size, kernel, args};
    if (!m)
        return GS_ERR_INVALID_ARGUMENT;
    return gs_multi_launch_each(m, launch_one, &e, statuses);
}
