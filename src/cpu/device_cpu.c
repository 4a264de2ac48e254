/* The cpu back end: one device, host memory, groups as teams of threads. Every
 * thread is scheduled by the OS, so any grid is co-resident: the bound is a thread
 * budget, not a hardware limit. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu.h"

#include "gridsync/host_cpu.h"

struct gs_mem {
    size_t bytes;
    void *p;
};

static int cpu_count(void) { return 1; }

static gs_status cpu_open(int index, gs_device **out)
{
    gs_device *d = calloc(1, sizeof *d);
    if (!d)
        return GS_ERR_OUT_OF_MEMORY;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    d->info.backend = GS_BACKEND_CPU;
    snprintf(d->info.name, sizeof d->info.name, "cpu: %ld cores, teams of POSIX threads", cores);
    snprintf(d->info.platform, sizeof d->info.platform, "cpu (C11 atomics + pthreads)");
    d->info.compute_units = cores > 0 ? (unsigned)cores : 1;
    d->info.max_group_size = GS_CPU_MAX_GROUP_SIZE;
    d->info.ordering = 2;
    d->info.has_word64 = 1; /* C11 atomic 64-bit words */
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    d->info.global_mem_bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    *out = d;
    return GS_OK;
}

static void cpu_close(gs_device *dev) { free(dev); }

static gs_status cpu_max_groups(gs_device *dev, unsigned group_size, unsigned *out)
{
    *out = GS_CPU_MAX_THREADS / group_size;
    return GS_OK;
}

/* The relaunch baseline starts a grid of threads per phase: the same thread budget
 * (65,536 threads of one relaunch killed the process). */
static gs_status cpu_launch_groups(gs_device *dev, unsigned group_size, unsigned *out)
{
    return cpu_max_groups(dev, group_size, out);
}

static int cpu_algo_supported(const gs_device *dev, gs_algo algo)
{
    return algo <= GS_ALGO_RELAUNCH || algo == GS_ALGO_SHARDED;
}

static uint64_t cpu_timeout_units(gs_device *dev, unsigned ms) { return (uint64_t)ms * 1000000u; }

static unsigned cpu_spinners(const gs_device *dev) { return 0; }

static gs_status cpu_mem_alloc(gs_device *dev, size_t bytes, gs_mem **out)
{
    gs_mem *m = malloc(sizeof *m);
    size_t rounded = (bytes + GS_LINE_BYTES - 1) / GS_LINE_BYTES * GS_LINE_BYTES;
    void *p = m ? aligned_alloc(GS_LINE_BYTES, rounded ? rounded : GS_LINE_BYTES) : NULL;
    if (!p) {
        free(m);
        return GS_ERR_OUT_OF_MEMORY;
    }
    memset(p, 0, rounded);
    m->bytes = bytes;
    m->p = p;
    *out = m;
    return GS_OK;
}

static void cpu_mem_free(gs_device *dev, gs_mem *m)
{
    free(m->p);
    free(m);
}

static gs_status cpu_mem_write(gs_device *dev, gs_mem *m, size_t off, const void *src, size_t n)
{
    if (off > m->bytes || n > m->bytes - off)
        return GS_ERR_INVALID_ARGUMENT;
    memcpy((char *)m->p + off, src, n);
    return GS_OK;
}

static gs_status cpu_mem_read(gs_device *dev, gs_mem *m, size_t off, void *dst, size_t n)
{
    if (off > m->bytes || n > m->bytes - off)
        return GS_ERR_INVALID_ARGUMENT;
    memcpy(dst, (char *)m->p + off, n);
    return GS_OK;
}

static void *cpu_mem_native(gs_mem *m) { return m->p; }

/* The relaunch baseline starts a new grid of threads per phase: what ending the
 * kernel costs on this back end. */
/* The state's abort line, which a broken team raises (team.c). */
static gs_word *abort_line(void *state) { return (gs_word *)state + GS_WORD(GS_LINE_ABORT, 0); }

static gs_status cpu_launch(gs_device *dev, const gs_launch *l, double *elapsed_ns)
{
    gs_cpu_work_args w = {l->state->p, l->a->p, l->b->p, l->c->p, l->params};
    unsigned timeout_ms = l->timeout_ms;
    if (l->algo != GS_ALGO_RELAUNCH)
        return gs_cpu_run_grid(dev, l->groups, l->group_size, gs_cpu_work_kernel, &w, timeout_ms,
                               abort_line(l->state->p), elapsed_ns);
    double total = 0;
    for (unsigned p = l->params.phase_begin; p < l->params.phase_end; ++p) {
        double ns = 0;
        w.params.phase_begin = p;
        w.params.phase_end = p + 1;
        gs_status s = gs_cpu_run_grid(dev, l->groups, l->group_size, gs_cpu_work_kernel, &w,
                                      timeout_ms, NULL, &ns);
        if (s != GS_OK)
            return s;
        total += ns;
    }
    *elapsed_ns = total;
    return GS_OK;
}

const gs_backend_ops gs_cpu_ops = {
    .id = GS_BACKEND_CPU,
    .count = cpu_count,
    .open = cpu_open,
    .close = cpu_close,
    .max_groups = cpu_max_groups,
    .launch_groups = cpu_launch_groups,
    .algo_supported = cpu_algo_supported,
    .timeout_units = cpu_timeout_units,
    .spinners = cpu_spinners,
    .mem_alloc = cpu_mem_alloc,
    .mem_free = cpu_mem_free,
    .mem_write = cpu_mem_write,
    .mem_read = cpu_mem_read,
    .mem_native = cpu_mem_native,
    .launch = cpu_launch,
    .collect = gs_cpu_collect,
};

gs_status gs_cpu_collect(gs_device *dev, gs_barrier *b)
{
    gs_cpu_grid *g = b->pending;
    b->pending = NULL;
    return gs_cpu_grid_join(g, &b->elapsed_ns);
}

gs_status gs_cpu_launch_async(gs_barrier *b, gs_dim3 groups, gs_dim3 group_size,
                              void (*kernel)(void *arg), void *arg)
{
    if (!b || !kernel)
        return GS_ERR_INVALID_ARGUMENT;
    if (b->dev->ops != &gs_cpu_ops)
        return GS_ERR_UNSUPPORTED;
    if (gs_algo_is_host(b->algo))
        return GS_ERR_UNSUPPORTED;
    uint64_t items =
        (uint64_t)groups.x * groups.y * groups.z * group_size.x * group_size.y * group_size.z;
    uint64_t size = (uint64_t)group_size.x * group_size.y * group_size.z;
    if (items == 0 || size > GS_CPU_MAX_GROUP_SIZE)
        return GS_ERR_INVALID_ARGUMENT;
    if (items > GS_CPU_MAX_THREADS)
        return GS_ERR_TOO_MANY_GROUPS;
    gs_status s = gs_barrier_begin_launch(b, groups, group_size, 0);
    if (s != GS_OK)
        return s;
    gs_cpu_grid *g = NULL;
    void *state = b->state->p;
    if ((s = gs_barrier_clear_ack(b)) == GS_OK)
        s = gs_cpu_grid_start(b->dev, groups, group_size, kernel, arg, b->timeout_ms,
                              abort_line(state), &g);
    if (s != GS_OK)
        return gs_barrier_end_launch(b, s, -1);
    b->pending = g;
    return GS_OK;
}

gs_status gs_cpu_launch_local(gs_local *L, gs_dim3 groups, gs_dim3 group_size,
                              void (*kernel)(void *arg), void *arg)
{
    if (!L || !kernel)
        return GS_ERR_INVALID_ARGUMENT;
    if (L->dev->ops != &gs_cpu_ops)
        return GS_ERR_UNSUPPORTED;
    uint64_t size = (uint64_t)group_size.x * group_size.y * group_size.z;
    uint64_t items = (uint64_t)groups.x * groups.y * groups.z * size;
    if (items == 0 || size > GS_CPU_MAX_GROUP_SIZE)
        return GS_ERR_INVALID_ARGUMENT;
    if (items > GS_CPU_MAX_THREADS)
        return GS_ERR_TOO_MANY_GROUPS;
    gs_status s = gs_local_prepare(L, NULL);
    if (s != GS_OK)
        return s;
    void *state = NULL;
    gs_cpu_grid *g = NULL;
    (void)gs_local_native(L, &state);
    unsigned timeout_ms = 0;
    (void)gs_local_get_timeout(L, &timeout_ms);
    s = gs_cpu_grid_start(L->dev, groups, group_size, kernel, arg, timeout_ms, abort_line(state),
                          &g);
    if (s == GS_OK)
        s = gs_cpu_grid_join(g, NULL);
    gs_status verdict = gs_local_collect(L, NULL);
    return verdict != GS_OK ? verdict : s;
}

gs_status gs_cpu_launch(gs_barrier *b, gs_dim3 groups, gs_dim3 group_size,
                        void (*kernel)(void *arg), void *arg)
{
    gs_status s = gs_cpu_launch_async(b, groups, group_size, kernel, arg);
    return s == GS_OK ? gs_barrier_collect(b) : s;
}
