/* apps/jacobi/jacobi.h - a 2-D 5-point Jacobi solver written as a gridsync user writes
 * it, against the public headers only, and timed the same way with every method a
 * user could pick:
 *
 *   a barrier protocol   one persistent kernel, gs_sync_<protocol> between iterations
 *   GS_ALGO_AUTO         the same, with the protocol the library picks (flip or tree)
 *   GS_ALGO_CG           CUDA: the same persistent kernel with cooperative_groups'
 *                        grid.sync(), launched by the app with cudaLaunchCooperativeKernel
 *   GS_ALGO_RELAUNCH     one plain launch per iteration, on a stream / queue
 *   GS_ALGO_RELAUNCH_GRAPH  CUDA: those launches captured once into a CUDA graph,
 *                        instantiated outside the timed span, then replayed
 *
 * each in one of five forms (gsj_config.form):
 *
 *   GSJ_FORM_SYNC    cells dealt round-robin over every work-item of the grid; each
 *                    iteration ends with the barrier (gs_sync_<p>, grid.sync(), a launch)
 *   GSJ_FORM_SPLIT   a tile per group (gsj_tiling); each iteration computes the tile's
 *                    perimeter, the only cells other groups read, then gs_arrive_<p>, then
 *                    the inner cells while the barrier completes, then gs_wait_token_<p>:
 *                    the barrier hidden behind work no other group needs (jacobi_step.h
 *                    proves it race-free). For cg the same with the vendor's split
 *                    barrier (grid.barrier_arrive / barrier_wait), as a cg user would
 *                    write it. T barriers per run (the sync form: T - 1). The
 *                    relaunch baselines ignore the form: a launch per iteration has no
 *                    barrier to split; they run the sync form.
 *   GSJ_FORM_LOCAL   no barrier at all: bands of whole rows (gsj_local_bands), each band of
 *                    an iteration computed once the bands next to it are done with the
 *                    iteration before, through gridsync's local synchronization
 *                    (gridsync/local.h, gridsync/host_local.h; jacobi_local.h proves it
 *                    race-free). Work comes as tickets, so any grid runs, resident or
 *                    not. Method GS_ALGO_AUTO only (the local form has no protocol to
 *                    pick; the CLI calls it `local`); the kernel is launched the
 *                    ordinary way (CUDA <<<>>>, clEnqueueNDRangeKernel,
 *                    gs_cpu_launch_local).
 *   GSJ_FORM_RESIDENT  the split form's tiles, each kept in group memory (CUDA shared
 *                    memory, OpenCL local memory; on the cpu a buffer per team) for the
 *                    whole run: an iteration computes the tile there, publishes its
 *                    perimeter to global memory, passes the barrier, and reads the halo
 *                    cells next to other tiles back (jacobi_resident.h proves it
 *                    race-free). What a persistent kernel keeps that a relaunch loses;
 *                    cg runs the same kernel with grid.sync(). A tile (twice, with its
 *                    halo: gsj_resident_bytes) must fit a group's memory.
 *   GSJ_FORM_HALO    the resident form's tiles and no barrier: each group puts its
 *                    perimeter cells into gridsync's tagged words (gridsync/local.h),
 *                    value and iteration in one 64-bit store, and gets its halo ring
 *                    from its neighbours' words (jacobi_halo.h proves it race-free):
 *                    between two groups one store and one load an iteration. A tile is
 *                    a group's for the whole run, so the grid must be co-resident: the
 *                    CUDA back end launches it cooperatively. Method GS_ALGO_AUTO only
 *                    (no protocol to pick; the CLI calls it `halo`); where the device
 *                    has 64-bit atomics (gs_device_info.has_word64).
 *
 * The problem: an n x n float grid; the edges keep their initial values; each interior
 * cell becomes 0.25f * ((left + right) + (up + down)) of the previous grid; T such
 * iterations. Initial values are pseudo-random in [0, 1) from a seed. Every method, in
 * either form, computes each cell with that one expression in that order, so its result
 * must equal the sequential reference bit for bit (the comparison is exact). */
#ifndef GSJ_JACOBI_H
#define GSJ_JACOBI_H

#include <stddef.h>
#include <stdint.h>

#include "gridsync.h"
#include "gridsync/local_state.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GSJ_MIN_N 3u     /* an interior of at least one cell */
#define GSJ_MAX_N 32768u /* cell indices stay within 32 bits (jacobi_step.h) */

typedef enum gsj_form {
    GSJ_FORM_SYNC = 0,     /* a barrier between iterations (a zeroed config's) */
    GSJ_FORM_SPLIT = 1,    /* tiles, the barrier split around their inner cells */
    GSJ_FORM_LOCAL = 2,    /* bands, each waiting for its neighbours only (auto only) */
    GSJ_FORM_RESIDENT = 3, /* tiles kept in group memory, halos through global memory */
    GSJ_FORM_HALO = 4      /* resident tiles, halos in tagged words, no barrier (auto only) */
} gsj_form;

typedef struct gsj_config {
    unsigned n;             /* grid side, GSJ_MIN_N..GSJ_MAX_N */
    unsigned iters;         /* T >= 1 */
    unsigned seed;          /* initial values */
    gs_algo method;         /* a protocol, GS_ALGO_AUTO, CG, RELAUNCH or RELAUNCH_GRAPH */
    gsj_form form;          /* GSJ_FORM_SYNC, _SPLIT, _LOCAL, _RESIDENT (relaunch*: ignored) */
    unsigned groups;        /* groups (blocks, work-groups, teams) of every launch */
    unsigned group_size;    /* work-items per group */
    unsigned repeats;       /* timed runs after the checked warm-up; 0: the check alone */
    unsigned timeout_ms;    /* barrier wait bound; 0: the library's default */
    const float *reference; /* the grid after T iterations (gsj_reference), or NULL:
                               gsj_run computes it */
} gsj_config;

typedef struct gsj_result {
    double ms_median, ms_min, ms_max; /* device time of one run of T iterations */
    double ms_per_iter;               /* ms_median / T */
    uint64_t mismatches;              /* cells that differ from the reference */
    double max_abs_diff;              /* the largest such difference */
    gs_algo algo;                     /* the protocol that ran (AUTO resolved) */
    size_t state_bytes;               /* the barrier's device state; 0 for baselines */
    /* gsj_run_methods: the median over the rounds of this configuration's time over the
     * first configuration's in the same round (1 for the first; 0 where either ran no
     * timed round) */
    double paired_ratio;
    gs_status status; /* what gsj_run or gsj_run_methods returned for this configuration */
    char error[160];  /* what failed, where a call returned an error */
} gsj_result;

/* The initial grid of `seed` (n * n floats, row-major). */
void gsj_initial(unsigned n, unsigned seed, float *out);

/* The sequential reference: the grid after `iters` iterations from gsj_initial(seed),
 * in `out` (n * n floats). GS_ERR_OUT_OF_MEMORY or GS_ERR_INVALID_ARGUMENT. */
gs_status gsj_reference(unsigned n, unsigned iters, unsigned seed, float *out);

/* Whether `method` runs on this device (in both forms). */
int gsj_method_supported(gs_device *dev, gs_algo method);

/* Whether the form changes what `method` runs: not for the relaunch baselines. */
int gsj_method_has_forms(gs_algo method);

/* Whether `method` runs in `form`: every method in the sync, split and resident forms
 * (the relaunch baselines ignore the form), GS_ALGO_AUTO alone in the local and halo
 * forms. */
int gsj_method_in_form(gs_algo method, gsj_form form);
/* The local form's bands for `groups` groups: as many as the groups, at most the
 * interior's n - 2 rows. */
unsigned gsj_local_bands(unsigned n, unsigned groups);
/* The most iterations the local form takes: a band's progress word counts them
 * (GS_LOCAL_MAX_VALUE of gridsync/local_state.h), and iters x bands tickets stay below
 * GS_LOCAL_END. */
#define GSJ_LOCAL_MAX_ITERS GS_LOCAL_MAX_VALUE
/* The most group memory one group may have on this device (CUDA: shared memory a block
 * may opt in to; OpenCL: the device's local memory; cpu: no bound, SIZE_MAX): the
 * resident form runs where gsj_resident_bytes is at most this, and gsj_run returns
 * GS_ERR_UNSUPPORTED elsewhere. */
gs_status gsj_group_memory(gs_device *dev, size_t *out);
/* The bytes of group memory the resident form's kernel takes for an n x n grid on
 * `groups` groups: the largest tile of gsj_tiling, twice, with its halo ring. */
size_t gsj_resident_bytes(unsigned n, unsigned groups);
/* The halo form's tagged words for an n x n grid on `groups` groups (jacobi_halo.h: 2 x 4
 * x the stride for each group), and the stride, the longest side of a tile of
 * gsj_tiling. The form runs where the words are at most GS_LOCAL_MAX_TAGGED. */
uint64_t gsj_halo_words(unsigned n, unsigned groups);
unsigned gsj_halo_stride(unsigned n, unsigned groups);
/* "sync", "split", "local", "resident" or "halo"; NULL for a value that is none of them. */
const char *gsj_form_name(gsj_form form);

/* The split form's tiles for `groups` groups: gx across, gy down, gx * gy == groups,
 * the factor pair closest to the interior's aspect (square: 132 -> 11 x 12, 1056 -> 32 x
 * 33), gx <= gy so that tiles are at least as wide as tall (rows are contiguous); a
 * prime gives bands of whole rows (1 x groups). */
void gsj_tiling(unsigned groups, unsigned *gx, unsigned *gy);

/* The most groups of `group_size` work-items that the kernel of `method` in `form` can
 * have resident at once on this device (the relaunch baselines and the local form: what
 * one launch holds at once). */
gs_status gsj_max_groups(gs_device *dev, gs_algo method, gsj_form form, unsigned group_size,
                         unsigned *out);

/* Runs the solver once and compares it with the reference (GS_ERR_CHECK_FAILED and
 * out->mismatches when it differs: no time is then measured), then `repeats` timed
 * runs from the initial grid, each checked again. The first run is the warm-up.
 * GS_ERR_INVALID_ARGUMENT for a config out of range (a form that is none of the five, a
 * method other than auto in the local or halo form, more than GSJ_LOCAL_MAX_ITERS
 * iterations there, more halo words than GS_LOCAL_MAX_TAGGED). */
gs_status gsj_run(gs_device *dev, const gsj_config *cfg, gsj_result *out);

/* Several methods (or forms, or grids) of one problem compared fairly: cfgs[0..n) share
 * n, iters, seed and repeats (GS_ERR_INVALID_ARGUMENT for every one otherwise). Each
 * configuration is opened and checked as gsj_run does, then the timed runs go in rounds,
 * every configuration still passing once a round, each round in its own seeded shuffled
 * order: a device that drifts over the seconds of a size weighs on every method alike,
 * and none always runs right after the same other one. out[i] is cfgs[i]'s result, with
 * its status and paired_ratio (against cfgs[0]). A configuration that fails (its check,
 * a timeout) drops out with its status; the others go on. Returns the first non-OK
 * status in the order of cfgs, or GS_OK. The configurations' sessions are all open at
 * once and share the first one's grids (each run reloads them; on CUDA the set
 * gsj_release frees), so that ten methods take one method's memory; one thread runs
 * them. */
gs_status gsj_run_methods(gs_device *dev, const gsj_config *cfgs, unsigned n, gsj_result *out);

/* What gsj_run keeps between configurations, freed: on CUDA the last configuration's
 * grids, which the next configuration of the same side on the same GPU runs on (so that
 * the methods compared at a size run on the same memory). Call it once the runs are done
 * (and before the device is closed); a later gsj_run allocates again. */
void gsj_release(void);

/* Cells of a and b (n * n each) that differ; *max_abs_diff their largest difference. */
uint64_t gsj_compare(const float *a, const float *b, size_t cells, double *max_abs_diff);

#ifdef __cplusplus
}
#endif

#endif
