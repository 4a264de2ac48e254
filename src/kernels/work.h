/* src/kernels/work.h - what the host tells the built-in kernel to do. Included by the
 * host runtime and by the device code of every back end; plain C in their common
 * subset, so the struct has the same layout on both sides. */
#ifndef GRIDSYNC_WORK_H
#define GRIDSYNC_WORK_H

#define GS_WORK_EMPTY 0u      /* phases do nothing: the barrier alone is timed */
#define GS_WORK_TESTSYNC 1u   /* the blog's test_sync: write group id, barrier, read mirror */
#define GS_WORK_STENCIL 2u    /* the Chinese blog's a[i] = a[i] + a[i+1] + a[i+2] */
#define GS_WORK_MP 3u         /* message passing: every group checks every other group */
#define GS_WORK_FAULT_EXIT 4u /* the last group leaves before its first barrier */
#define GS_WORK_FAULT_SKIP 5u /* the last group skips one barrier */

/* What one step of the independent work (gs_work_params.compute) is. */
#define GS_COMPUTE_MAD 0u     /* a multiply-add (a linear congruential step) */
#define GS_COMPUTE_AVERAGE 1u /* the thesis's avg = (a + b) / 2 (its Figure 4-3) */

/* The built-in kernel's forms (workloads.h, gs_work_kernel_body, says why three). */
#define GS_FORM_PROGRAMS 0 /* every program but the split phase and the independent work */
#define GS_FORM_ALL 1      /* everything (the cpu's and OpenCL's one kernel) */
#define GS_FORM_BARRIERS 2 /* the barrier-only program alone (CUDA) */

/* Word indices in the counters buffer (c). */
#define GS_C_ERRORS 0u  /* mismatches seen by the kernel */
#define GS_C_SCRATCH 1u /* target of the atomics that stagger groups */
#define GS_C_WORDS 2u

typedef struct gs_work_params {
    unsigned int work;           /* GS_WORK_* */
    unsigned int phase_begin;    /* this launch runs phases [phase_begin, phase_end), */
    unsigned int phase_end;      /*   with a barrier between consecutive phases */
    unsigned int logical_groups; /* groups the work is written for (>= groups launched) */
    unsigned int seed;           /* message passing: values and delays */
    unsigned int delay;          /* message passing: most polls a group idles before writing */
    unsigned int stress;         /* message passing: scratch accesses per work-item per phase */
    unsigned int late;           /* message passing: polls the last work-item of the last
                                  * logical group idles on top, in every phase */
    unsigned int compute;        /* dependent multiply-adds per work-item at every barrier,
                                  * touching nothing shared: work a split barrier can hide */
    unsigned int split;          /* 1: the barrier in split phase, the compute between
                                  * gs_arrive and gs_wait_token; 0: compute, then gs_sync */
    unsigned int compute_kind;   /* GS_COMPUTE_*: what one step of `compute` is */
} gs_work_params;

#endif
