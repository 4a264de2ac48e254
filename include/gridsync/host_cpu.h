/* gridsync/host_cpu.h - launching your own kernel on the cpu back end.
 *
 * A kernel is a function run by every thread of every group; inside it, include
 * gridsync/cpu.h and use gs_grid_begin / gs_sync on the state from
 * gs_barrier_native(), exactly as on a GPU. */
#ifndef GRIDSYNC_HOST_CPU_H
#define GRIDSYNC_HOST_CPU_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs kernel(arg) on `groups` teams of `group_size` threads and waits for them.
 * GS_ERR_TIMEOUT (with gs_barrier_abort_info) when a barrier wait expired. */
gs_status gs_cpu_launch(gs_barrier *b, unsigned groups, unsigned group_size,
                        void (*kernel)(void *arg), void *arg);

#ifdef __cplusplus
}
#endif

#endif
