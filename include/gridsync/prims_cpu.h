/* gridsync/prims_cpu.h - the primitives for the cpu back end: C11 atomics, and a
 * group that is a team of threads with an intra-group barrier of its own.
 *
 * The runtime (src/cpu) sets gs_cpu_self for every thread it starts, so group and
 * member indices read like the GPU built-ins they stand for. */
#ifndef GRIDSYNC_PRIMS_CPU_H
#define GRIDSYNC_PRIMS_CPU_H

#include <sched.h>
#include <stdatomic.h>
#include <threads.h>
#include <time.h>

#include "gridsync/api.h"

#define GS_DEVICE static inline
#define GS_GLOBAL
#define GS_SHIM_CPU 1

typedef unsigned int gs_u32;
typedef unsigned long long gs_u64;
typedef _Atomic unsigned int gs_word;

/* Who the calling thread is; filled in by the runtime before the kernel runs. The
 * linear indices (group = x + X * (y + Y * z), work-items likewise) and, for kernels of
 * 2-D and 3-D grids, each dimension's (gs_cpu_group_in(d), ...). */
typedef struct gs_cpu_self {
    gs_u32 group, groups, lid, lsize;
    gs_u32 group3[3], groups3[3], lid3[3], lsize3[3];
    struct gs_cpu_team *team;
    /* gs_cpu_pause's crowd: the groups of every cpu grid now running in the process (the
     * emulated devices of gridsync/multi.h share the cores too), and the cores. Last, so
     * that the fields above keep the offsets that kernels built against 0.1 read inline. */
    gs_word *running;
    gs_u32 cores;
} gs_cpu_self;
GS_API extern _Thread_local gs_cpu_self gs_cpu_self_now;

/* One dimension (0, 1, 2) of the calling thread's group, the grid, its work-item index
 * and its group size: what blockIdx, gridDim, threadIdx and blockDim are in CUDA. */
#define gs_cpu_group_in(d) (gs_cpu_self_now.group3[(d)])
#define gs_cpu_groups_in(d) (gs_cpu_self_now.groups3[(d)])
#define gs_cpu_local_in(d) (gs_cpu_self_now.lid3[(d)])
#define gs_cpu_local_size_in(d) (gs_cpu_self_now.lsize3[(d)])

/* Barrier among the threads of the caller's team; returns non-zero on every member
 * if any member passed a non-zero pred (CUDA's __syncthreads_or). */
GS_API int gs_cpu_team_barrier_or(int pred);

/* The calling team's group memory for gridsync/local.h (GS_GROUP_SCRATCH), words that
 * its threads share as a GPU group shares __shared__ memory. */
GS_API gs_u32 *gs_cpu_team_scratch(void);
#define GS_GROUP_SCRATCH(name) gs_u32 *name = gs_cpu_team_scratch()
#define GS_SCRATCH_PTR gs_u32 *

#define gs_group_id() (gs_cpu_self_now.group)
#define gs_num_groups() (gs_cpu_self_now.groups)
#define gs_local_id() (gs_cpu_self_now.lid)
#define gs_local_size() (gs_cpu_self_now.lsize)
#define gs_local_first() (gs_cpu_self_now.lid == 0u)
#define GS_COLD static __attribute__((noinline, cold))

#define gs_group_barrier() ((void)gs_cpu_team_barrier_or(0))
#define gs_group_any(pred, slot) ((void)(slot), gs_cpu_team_barrier_or((pred) != 0))

#define gs_load_relaxed(p) atomic_load_explicit((p), memory_order_relaxed)
#define gs_load_acquire(p) atomic_load_explicit((p), memory_order_acquire)
#define gs_store_relaxed(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)
#define gs_store_release(p, v) atomic_store_explicit((p), (v), memory_order_release)
#define gs_fetch_add_relaxed(p, v) atomic_fetch_add_explicit((p), (v), memory_order_relaxed)
/* Stronger than the name on purpose: x86's locked add is a full barrier either way,
 * and ThreadSanitizer, which does not model fences, then sees the acquire that a
 * protocol takes with gs_fence_acq_rel after the add. */
#define gs_fetch_add_release(p, v) atomic_fetch_add_explicit((p), (v), memory_order_acq_rel)
/* A store made a release by the gs_fence_acq_rel before it; a release store here so
 * that ThreadSanitizer sees it. */
#define gs_store_fenced(p, v) atomic_store_explicit((p), (v), memory_order_release)
#define gs_fetch_add_fenced(p, v) atomic_fetch_add_explicit((p), (v), memory_order_acq_rel)
#define gs_fetch_add_acq_rel(p, v) atomic_fetch_add_explicit((p), (v), memory_order_acq_rel)
#define gs_add_release(p, v) ((void)atomic_fetch_add_explicit((p), (v), memory_order_acq_rel))
#define gs_fence_acq_rel() atomic_thread_fence(memory_order_acq_rel)
#define gs_fence_acquire() atomic_thread_fence(memory_order_acquire)
/* gs_wait's poll: an acquire load each time, which ThreadSanitizer sees (it does not
 * model fences) and x86 gives for free. */
#define gs_poll_load(p) gs_load_acquire(p)
#define gs_poll_acquire() ((void)0)

/* System scope, between devices (gridsync/multi.h): the cpu back end's "devices" share
 * one address space, and C11's atomics have no scopes, so these are the operations
 * above. */
#define gs_load_relaxed_sys(p) gs_load_relaxed(p)
#define gs_store_relaxed_sys(p, v) gs_store_relaxed((p), (v))
#define gs_store_fenced_sys(p, v) gs_store_fenced((p), (v))
#define gs_fence_acq_rel_sys() gs_fence_acq_rel()
#define gs_poll_load_sys(p) gs_poll_load(p)
#define gs_poll_acquire_sys() gs_poll_acquire()

GS_DEVICE gs_u32 gs_cas_relaxed(gs_word *p, gs_u32 expected, gs_u32 desired)
{
    atomic_compare_exchange_strong_explicit(p, &expected, desired, memory_order_relaxed,
                                            memory_order_relaxed);
    return expected;
}

/* gridsync/local.h's tagged words: a value and its tag in one 64-bit atomic (lock-free
 * on every target the cpu back end builds for), relaxed. */
#define GS_HAVE_WORD64 1
typedef _Atomic unsigned long long gs_word64;
#define gs_load64_relaxed(p) atomic_load_explicit((p), memory_order_relaxed)
#define gs_store64_relaxed(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)

/* Threads outnumber cores in every test: a spinner must give its core away. With
 * GS_CPU_SLEEP_CROWD groups per core or more running (every cpu grid of the process
 * counted), a long wait (a back-off given: from its 16th poll) sleeps instead,
 * GS_CPU_SLEEP_NS_PER_GROUP for each group per core. A yielding waiter stays runnable,
 * and Linux's fair scheduler ran thousands of them before a group that had still to
 * arrive: flip at 2048 groups of 1 on 2 cores, 200 episodes, had a
 * slowest episode of 1.5 and 2.5 s, and message passing at 4096 timed out at the default
 * 5 s. Sleepers that wake often are worse (7 s, and a 60 s timeout). One sleep of 20 us a
 * group per core kept the slowest under 0.6 s from 2048 to 4096 groups, the median
 * alike (bench/micro/cpu_crowd.c, bench/results/cpu/crowd.md). Fewer groups per core
 * are not starved: at 512 groups of 1 the slowest of 200 episodes took 8-10 ms
 * yielding. */
#define GS_CPU_SLEEP_CROWD 64u
#define GS_CPU_SLEEP_NS_PER_GROUP 20000u
GS_DEVICE void gs_cpu_pause(gs_u32 backoff_ns)
{
    gs_word *running = gs_cpu_self_now.running;
    gs_u32 cores = gs_cpu_self_now.cores, crowd = 0u;
    if (backoff_ns != 0u && running && cores)
        crowd = (gs_load_relaxed(running) + cores - 1u) / cores;
    if (crowd < GS_CPU_SLEEP_CROWD) {
        sched_yield();
        return;
    }
    gs_u64 ns = (gs_u64)crowd * GS_CPU_SLEEP_NS_PER_GROUP;
    struct timespec t = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    thrd_sleep(&t, NULL);
}
#define gs_pause(polls, backoff_ns) ((void)(polls), gs_cpu_pause(backoff_ns))

/* C11's clock, so the header needs no POSIX feature macro in user code. */
GS_DEVICE gs_u64 gs_clock_ns(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (gs_u64)t.tv_sec * 1000000000ull + (gs_u64)t.tv_nsec;
}
#define gs_clock(polls) gs_clock_ns()

/* Index of the lowest set bit (lockfree's master: its words not yet seen). */
#define gs_lowest_bit(x) ((gs_u32)__builtin_ctz(x)) /* x != 0; GCC and Clang */

#endif
