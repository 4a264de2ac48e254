/* gridsync/host_cpu.h - launching your own kernel on the cpu back end.
 *
 * A kernel is a function run by every thread of every group; inside it, include
 * gridsync/cpu.h and use gs_grid_begin_<p> / gs_sync_<p> on the state from
 * gs_barrier_native(), exactly as on a GPU (examples/cpu_hello.c). gs_group_id(),
 * gs_local_id(), ... give the linear indices, gs_cpu_group_in(d), ... each dimension's.
 * The same rules as on a GPU: one launch at a time per barrier (GS_ERR_BUSY), a launch
 * with another group size resets the state first, at most GS_CPU_MAX_THREADS (4096)
 * threads in all (GS_ERR_TOO_MANY_GROUPS) and 1024 per group. gridsync/cpu.h is C11
 * (_Atomic, _Thread_local): compile the kernels as C; a C++ program calls them through
 * an extern "C" declaration (this header is C++-clean). */
#ifndef GRIDSYNC_HOST_CPU_H
#define GRIDSYNC_HOST_CPU_H

#include "gridsync.h"
#include "gridsync/host_local.h"

/* The cpu back end's bounds: threads of a launch in all, and of one group. */
#define GS_CPU_MAX_THREADS 4096u
#define GS_CPU_MAX_GROUP_SIZE 1024u

#ifdef __cplusplus
extern "C" {
#endif

/* Runs kernel(arg) on a grid of `groups` teams of `group_size` threads and waits for
 * them. GS_ERR_TIMEOUT (with gs_barrier_abort_info) when a barrier wait expired, or a
 * work-item never reached its group's barrier (the abort then names the group and the
 * work-item). */
GS_API gs_status gs_cpu_launch(gs_barrier *b, gs_dim3 groups, gs_dim3 group_size,
                               void (*kernel)(void *arg), void *arg);
/* The same, returning once the threads run; gs_barrier_collect(b) waits for them and
 * returns the status. */
GS_API gs_status gs_cpu_launch_async(gs_barrier *b, gs_dim3 groups, gs_dim3 group_size,
                                     void (*kernel)(void *arg), void *arg);

/* Runs kernel(arg), a kernel of local synchronization (gridsync/local.h) on the state
 * of L, and waits for it: gs_local_prepare, the run, gs_local_collect's verdict. Any
 * number of groups within the thread limit above: local synchronization needs no
 * co-residency. */
GS_API gs_status gs_cpu_launch_local(gs_local *L, gs_dim3 groups, gs_dim3 group_size,
                                     void (*kernel)(void *arg), void *arg);

#ifdef __cplusplus
}
#endif

#endif
