/* bench/micro/cpu_crowd.c N EPISODES: a crowded grid on the cpu back end, N groups of one
 * thread (up to GS_CPU_MAX_THREADS) on however few cores there are, flip, a little
 * uneven work before each barrier; prints how long group 0 took from the start of its
 * work to the end of its wait, median, 90th percentile and slowest of the episodes, with
 * a 60 s bound so that a slow episode is measured, not cut off. Built and run as a user
 * would (bench/results/cpu/crowd.md has the commands and what they measured):
 *   gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -Ibuild/include \
 *       bench/micro/cpu_crowd.c build/src/libgridsync.a -lpthread -lm -ldl -o cpu_crowd */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "gridsync.h"
#include "gridsync/cpu.h"
#include "gridsync/host_cpu.h"
static gs_word *state;
static unsigned eps;
static double *dt;
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
static void kernel(void *p)
{
    (void)p;
    gs_grid g = gs_grid_begin_flip(state);
    volatile unsigned sink = 0;
    for (unsigned e = 0; e < eps; ++e) {
        double t0 = gs_group_id() == 0 ? now() : 0;
        for (unsigned k = 0; k < (gs_group_id() * 2654435761u ^ e) % 64u; ++k)
            sink += k;
        if (gs_sync_flip(&g) != 0)
            return;
        if (gs_group_id() == 0)
            dt[e] = now() - t0;
    }
}
static int cmp(const void *a, const void *b)
{
    double x = *(double *)a, y = *(double *)b;
    return x < y ? -1 : x > y;
}
int main(int argc, char **argv)
{
    unsigned n = atoi(argv[1]);
    eps = atoi(argv[2]);
    dt = calloc(eps, sizeof *dt);
    gs_device *dev;
    gs_barrier *bar;
    gs_status s = gs_device_open(GS_BACKEND_CPU, 0, &dev);
    if (!s)
        s = gs_barrier_create(dev, GS_ALGO_FLIP, n, &bar);
    if (!s)
        s = gs_barrier_set_timeout(bar, 60000);
    gs_barrier_native(bar, (void **)&state);
    double t0 = now();
    if (!s)
        s = gs_cpu_launch(bar, GS_DIM3_1D(n), GS_DIM3_1D(1), kernel, NULL);
    double t1 = now();
    qsort(dt, eps, sizeof *dt, cmp);
    printf("n %u: %s total %.2f s; episode ms median %.2f p90 %.2f max %.2f\n", n,
           gs_status_string(s), t1 - t0, dt[eps / 2] * 1e3, dt[eps * 9 / 10] * 1e3,
           dt[eps - 1] * 1e3);
    return s != GS_OK;
}
