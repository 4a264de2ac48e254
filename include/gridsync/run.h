/* gridsync/run.h - the built-in programs: the kernels the benchmarks time and `gridsync
 * check` tests, each checked against a sequential reference. A program that launches
 * its own kernels needs none of this (gridsync.h, and gridsync/host_<back end>.h). */
#ifndef GRIDSYNC_RUN_H
#define GRIDSYNC_RUN_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gs_workload {
    GS_WORKLOAD_EMPTY = 0,      /* barriers only: what the benchmark times */
    GS_WORKLOAD_TESTSYNC = 1,   /* the blog's test_sync */
    GS_WORKLOAD_STENCIL = 2,    /* the Chinese blog's stencil, two barriers per iteration */
    GS_WORKLOAD_MP = 3,         /* message passing with random per-group delays */
    GS_WORKLOAD_FAULT_EXIT = 4, /* the last group leaves before its first barrier: must time out */
    GS_WORKLOAD_FAULT_SKIP = 5  /* the last group skips one barrier: must time out */
} gs_workload;

typedef struct gs_run_config {
    gs_workload workload;
    unsigned groups;         /* groups launched (co-resident) */
    unsigned group_size;     /* work-items per group */
    unsigned iterations;     /* EMPTY, MP: barriers; STENCIL: stencil steps; TESTSYNC: ignored */
    unsigned seed;           /* MP: values and delays */
    unsigned delay;          /* MP: the most polls a group idles before writing
                               (at most GS_MAX_DELAY) */
    unsigned logical_groups; /* 0 = groups; more runs that many groups on `groups` (virtual;
                               MP: see GS_MAX_MP_READS) */
    unsigned stress;         /* MP: scratch accesses per work-item per phase (memory stress;
                               at most GS_MAX_STRESS) */
    unsigned late;           /* MP: polls the last work-item of the last group idles on top of
                               `delay` in every phase, so its write comes after every other
                               arrival: a barrier that releases one arrival early shows
                               (at most GS_MAX_LATE) */
    unsigned compute;        /* any workload: dependent multiply-adds per work-item at every
                               barrier, touching no shared data (at most GS_MAX_COMPUTE) */
    int split;               /* 1: every barrier in split phase, the compute between gs_arrive
                               and gs_wait_token, where it hides the barrier's latency;
                               0: the compute, then gs_sync. Other values are refused. */
    unsigned compute_kind;   /* one step of `compute`: GS_COMPUTE_KIND_MAD (0), a multiply-add;
                               GS_COMPUTE_KIND_AVERAGE (1), the 2013 thesis's
                               avg = (a + b) / 2, each average feeding the next. Other
                               values are refused. */
} gs_run_config;

#define GS_COMPUTE_KIND_MAD 0u
#define GS_COMPUTE_KIND_AVERAGE 1u

#define GS_MAX_COMPUTE (1u << 20)

/* Bounds of message passing's per-work-item work in a phase (gs_run refuses more with
 * GS_ERR_INVALID_ARGUMENT): a group still at its work when another's wait expires
 * ends only when its phase does, so a phase must stay a small part of a timeout. All
 * three at their bounds added 45 ms to a phase of 2 groups of 4096 work-items on PoCL
 * with 2 workers, which runs a group's work-items one after another (about 1 ns a
 * poll, 25 ns a stress access): under 1% of GS_DEFAULT_TIMEOUT_MS. A group that runs
 * several logical groups (virtual groups) does the work of each. Each bound is at least
 * 16 times what gridsync check uses (delay 64, stress 16, late 4096). */
#define GS_MAX_DELAY (1u << 14) /* polls */
#define GS_MAX_STRESS (1u << 8) /* scratch accesses */
#define GS_MAX_LATE (1u << 16)  /* polls */
/* Message passing's reads per group and phase, for the same reason: every logical group
 * reads a word of every other, and a group runs its share of the logical groups one
 * after another, so a group reads ceil(logical_groups / groups) x logical_groups words
 * a phase. At most this many: a logical grid of 2048 groups on 1, or of 2^16 on 2^10. */
#define GS_MAX_MP_READS (1u << 22)

typedef struct gs_run_result {
    double elapsed_ns;     /* device time of the launch(es), from events or the clock */
    unsigned barriers;     /* episodes executed per group */
    uint64_t mismatches;   /* elements that differ from the sequential reference, plus
                               the kernel's own message-passing errors */
    int reference_checked; /* 0 when the reference was too large to compute */
    int all_equal;         /* STENCIL: the blog's check, every value the same */
} gs_run_result;

/* Runs a built-in program through barrier `b` (its algorithm decides how: a persistent
 * kernel, or one launch per phase for the relaunch baselines) and checks the result
 * against a sequential reference. GS_ERR_CHECK_FAILED when the result is wrong;
 * GS_ERR_TOO_MANY_GROUPS when the groups exceed gs_device_max_groups (the relaunch
 * baselines need no co-residency, but on the cpu back end, which starts a thread per
 * work-item, their launches keep to the same thread budget); GS_ERR_TIMEOUT and the
 * rest as their names say. */
GS_API gs_status gs_run(gs_barrier *b, const gs_run_config *config, gs_run_result *result);

#ifdef __cplusplus
}
#endif

#endif
