/* src/cpu/cpu.h - the cpu back end's runtime, shared by its files. */
#ifndef GRIDSYNC_SRC_CPU_H
#define GRIDSYNC_SRC_CPU_H

#include "common/internal.h"

/* Runs kernel(arg) on groups x group_size threads, each knowing its group and member
 * index (gs_cpu_self_now); returns when every thread has returned. A team barrier
 * that waits longer than timeout_ms breaks its team (GS_ERR_TIMEOUT). */
gs_status gs_cpu_run_grid(gs_device *dev, unsigned groups, unsigned group_size,
                          void (*kernel)(void *arg), void *arg, unsigned timeout_ms,
                          double *elapsed_ns);

/* The built-in kernel (src/kernels/workloads.h) for the cpu back end. */
typedef struct gs_cpu_work_args {
    void *state, *a, *b, *c;
    gs_work_params params;
} gs_cpu_work_args;
void gs_cpu_work_kernel(void *arg);

#define GS_CPU_MAX_THREADS 4096u
#define GS_CPU_MAX_GROUP_SIZE 1024u

#endif
