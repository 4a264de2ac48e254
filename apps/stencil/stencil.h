/* apps/stencil/stencil.h - the Chinese blog's benchmark (seed 001) written as a gridsync
 * user writes it, against the public headers only:
 *
 *   for each of T iterations:  t = a[i] + a[(i+1) mod n] + a[(i+2) mod n];  barrier;
 *                              a[i] = t;                                      barrier;
 *
 * on n unsigned 32-bit elements (wrap-around arithmetic, as the blog's int overflows).
 * The blog has one element per work-item, its sum kept in a register across the first
 * barrier; with more elements than work-items (the 2^20 case) each work-item takes
 * elements first, first + stride, ... and parks their sums in a device buffer instead.
 * Methods as in apps/jacobi: a protocol or auto in one persistent kernel, cg (CUDA's
 * grid.sync()), relaunch (a launch per phase: two per iteration, the kernel's end is
 * the barrier), relaunch-graph (CUDA: those launches in graphs). Every result must equal
 * the sequential reference element by element; from the blog's all-ones start every
 * element must also equal every other (the blog's own test). */
#ifndef GSS_STENCIL_H
#define GSS_STENCIL_H

#include <stddef.h>
#include <stdint.h>

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GSS_MIN_N 2u         /* (i + 2) mod n needs no division from n = 2 on */
#define GSS_MAX_N (1u << 28) /* 1 GiB of elements: far past any register file */
#define GSS_BLOG_N 2048u     /* the blog's work-items and elements */

typedef struct gss_config {
    unsigned n;     /* elements, GSS_MIN_N..GSS_MAX_N */
    unsigned iters; /* T >= 1 */
    unsigned seed;  /* 0: the blog's all ones; else pseudo-random values */
    gs_algo method;
    unsigned groups, group_size;
    unsigned repeats;          /* timed runs after the checked warm-up */
    unsigned timeout_ms;       /* barrier wait bound; 0: the library's default */
    const uint32_t *reference; /* gss_reference's result, or NULL: gss_run computes it */
} gss_config;

typedef struct gss_result {
    double ms_median, ms_min, ms_max; /* one run of T iterations */
    uint64_t mismatches;              /* elements that differ from the reference */
    uint64_t unequal;                 /* all-ones start: elements that differ from a[0] */
    gs_algo algo;                     /* the protocol that ran (AUTO resolved) */
    size_t state_bytes;
    char error[160];
    gs_status status;    /* this configuration's (gss_run_methods) */
    double paired_ratio; /* gss_run_methods: the median over the rounds of this run's time
                          * over the first configuration's in the same round (1 for the
                          * first; 0 where either failed or ran no round) */
} gss_result;

void gss_initial(unsigned n, unsigned seed, uint32_t *out);
/* The array after `iters` iterations from gss_initial(seed), computed sequentially. */
gs_status gss_reference(unsigned n, unsigned iters, unsigned seed, uint32_t *out);
int gss_method_supported(gs_device *dev, gs_algo method);
gs_status gss_max_groups(gs_device *dev, gs_algo method, unsigned group_size, unsigned *out);
/* The checked warm-up (GS_ERR_CHECK_FAILED on any difference: nothing is timed), then
 * `repeats` timed runs, each checked. */
gs_status gss_run(gs_device *dev, const gss_config *cfg, gss_result *out);
/* gss_run for `n` configurations of one problem (the same n, iters, seed and repeats;
 * else GS_ERR_INVALID_ARGUMENT for all, as for one out of range), compared fairly: each
 * opened and checked, then the timed runs in rounds, every configuration once a round,
 * each round in its own shuffled order (appkit's gsa_compare), every run checked again.
 * One that fails drops out with its own status (out[i].status); the others go on.
 * out[i].paired_ratio pairs each with the first, round by round. Returns the first
 * failure's status, else GS_OK. gss_run is its one-configuration case. */
gs_status gss_run_methods(gs_device *dev, const gss_config *cfgs, unsigned n, gss_result *out);

#ifdef __cplusplus
}
#endif

#endif
