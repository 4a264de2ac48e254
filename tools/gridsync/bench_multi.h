/* tools/gridsync/bench_multi.h - bench multi's back-end parts: one launch of the
 * barrier across devices on every rank (its kernel loops `iters` barriers; with `check`
 * each group's value of every phase is read back by a group of the next rank after the
 * barrier), and the host-synchronized baseline (a kernel with no barrier launched on
 * every device, every device waited for, `iters` times). Times in ms on the host's
 * clock, from the first launch to the end of the collect. bench_multi.c has the cpu
 * part; bench_multi_cuda.cu the CUDA part (GRIDSYNC_CLI_CUDA). */
#ifndef GRIDSYNC_BENCH_MULTI_H
#define GRIDSYNC_BENCH_MULTI_H

#include "gridsync.h"
#include "gridsync/host_multi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bm_run {
    gs_multi *m;
    gs_device *const *devs; /* rank r's device */
    unsigned ranks, groups, block;
} bm_run;

/* The kernel's co-residency bound on one device, for groups of `block`. */
gs_status bm_cuda_bound(gs_device *dev, unsigned block, unsigned *bound);
/* One launch of every rank: `iters` barriers (0: none, only the launch), and with
 * `check` the count of values read wrong in *wrong. */
gs_status bm_cuda_multi(const bm_run *r, unsigned iters, int check, double *ms, unsigned *wrong);
gs_status bm_cuda_relaunch(const bm_run *r, unsigned iters, double *ms);

#ifdef __cplusplus
}
#endif

#endif
