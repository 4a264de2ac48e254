/* src/cpu/cpu.h - the cpu back end's runtime, shared by its files. */
#ifndef GRIDSYNC_SRC_CPU_H
#define GRIDSYNC_SRC_CPU_H

#include "common/internal.h"
#include "gridsync/host_cpu.h"
#include "gridsync/prims_cpu.h"

/* Starts kernel(arg) on a grid of `grid` teams of `block` threads, each knowing its
 * group and member index (gs_cpu_self_now), and returns; gs_cpu_grid_join waits for
 * every thread and frees the grid. A team barrier that waits longer than about 1.5 x
 * timeout_ms breaks its team (GS_ERR_TIMEOUT) and, with `abort_line` (the barrier
 * state's abort line, or NULL), raises the barrier's abort naming the team and the
 * member that never came. */
typedef struct gs_cpu_grid gs_cpu_grid;
gs_status gs_cpu_grid_start(gs_device *dev, gs_dim3 grid, gs_dim3 block, void (*kernel)(void *arg),
                            void *arg, unsigned timeout_ms, gs_word *abort_line, gs_cpu_grid **out);
gs_status gs_cpu_grid_join(gs_cpu_grid *g, double *elapsed_ns);
/* Both, for a 1-D grid. */
gs_status gs_cpu_run_grid(gs_device *dev, unsigned groups, unsigned group_size,
                          void (*kernel)(void *arg), void *arg, unsigned timeout_ms,
                          gs_word *abort_line, double *elapsed_ns);

/* The built-in kernel (src/kernels/workloads.h) for the cpu back end. */
typedef struct gs_cpu_work_args {
    void *state, *a, *b, *c;
    gs_work_params params;
} gs_cpu_work_args;

/* gs_backend_ops.collect (device_cpu.c). */
gs_status gs_cpu_collect(gs_device *dev, gs_barrier *b);
void gs_cpu_work_kernel(void *arg);

#endif
