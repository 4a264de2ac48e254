/* apps/sor/sor.h - 2-D Gauss-Seidel / SOR sweeps as a wavefront, written as a gridsync
 * user writes it, against the public headers only, and timed with every scheme a user
 * could pick:
 *
 *   GSR_LOCAL            local synchronization (gridsync/local.h): one ordinary launch of
 *                        any number of groups; tiles handed out by ticket, a progress
 *                        word per tile ("sweeps completed"), each tile waiting only for
 *                        the four tiles it reads
 *   a barrier protocol   one persistent kernel of co-resident groups, a gridsync barrier
 *                        after every wavefront step (GS_ALGO_AUTO: the library's choice)
 *   GS_ALGO_CG           CUDA: the same persistent kernel with cooperative_groups'
 *                        grid.sync(), launched with cudaLaunchCooperativeKernel
 *   GS_ALGO_RELAUNCH     one plain launch per wavefront step
 *   GS_ALGO_RELAUNCH_GRAPH  CUDA: those launches captured once into a CUDA graph
 *
 * The problem: an n x n float grid whose edges keep their initial values; a sweep
 * updates the interior in place, in lexicographic order (row by row, left to right):
 *     u[i][j] = a * u[i][j] + b * ((u[i-1][j] + u[i][j-1]) + (u[i+1][j] + u[i][j+1]))
 * with a = 1 - omega and b = omega / 4 (floats, rounded once on the host), so the up
 * and left neighbours are this sweep's values and the down and right ones the last
 * sweep's. S sweeps. Float, not double: a GPU's float throughput, and exactness does not
 * need double (every scheme evaluates each cell with that one expression, in that
 * order, from the same inputs, so the result must equal the sequential reference bit
 * for bit; the comparison is exact).
 *
 * Every scheme runs the same schedule (sor_step.h): the interior in tiles of t x t
 * cells, R x C tiles; tile (I, J) of sweep s belongs to wavefront step I + J + 2s, and
 * the tiles of one step are independent (every tile they read belongs to the step
 * before). The barrier schemes put a barrier (or a launch) between steps; the local
 * scheme takes tickets in step order and waits per tile. */
#ifndef GSR_SOR_H
#define GSR_SOR_H

#include <stddef.h>
#include <stdint.h>

#include "gridsync.h"
#include "gridsync/host_local.h"

#include "sor_step.h" /* the schedule, the update, the test-only switches */

#ifdef __cplusplus
extern "C" {
#endif

/* The local scheme: not one of gridsync's barrier protocols (gs_algo_name says NULL). */
#define GSR_LOCAL ((gs_algo)GS_ALGO_COUNT_)

#define GSR_MIN_N 3u             /* an interior of at least one cell */
#define GSR_MAX_N 32768u         /* cell indices stay within 32 bits */
#define GSR_MIN_TILE 2u          /* a tile's side in cells */
#define GSR_MAX_TILE 32u         /* one warp on CUDA: a lane per column */
#define GSR_MAX_SWEEPS 16777215u /* a progress word's largest value (GS_LOCAL_MAX_VALUE) */

typedef struct gsr_config {
    unsigned n;             /* grid side, GSR_MIN_N..GSR_MAX_N */
    unsigned sweeps;        /* S, 1..GSR_MAX_SWEEPS */
    unsigned tile;          /* tile side, GSR_MIN_TILE..GSR_MAX_TILE */
    float omega;            /* relaxation: 1 is Gauss-Seidel; 0 < omega < 2 converges */
    unsigned seed;          /* initial values */
    gs_algo method;         /* GSR_LOCAL, a protocol, GS_ALGO_AUTO, CG, RELAUNCH(_GRAPH) */
    unsigned groups;        /* groups (blocks, work-groups, teams) of every launch */
    unsigned repeats;       /* timed runs after the checked warm-up; 0: the check alone */
    unsigned timeout_ms;    /* wait bound (barrier or local); 0: the library's default */
    unsigned mutant;        /* test only: GSR_DROP_* / GSR_MUTE_FIRST (sor_step.h); 0 */
    const float *reference; /* the grid after S sweeps (gsr_reference), or NULL: gsr_run
                               computes it */
} gsr_config;

typedef struct gsr_result {
    double ms_median, ms_min, ms_max; /* device time of one run of S sweeps */
    double updates_per_s;             /* interior cells x S / the median */
    unsigned steps;                   /* wavefront steps of the schedule */
    unsigned group_size;              /* work-items per group the back end used */
    uint64_t mismatches;              /* cells that differ from the reference */
    double max_abs_diff;              /* the largest such difference */
    gs_algo algo;                     /* the protocol that ran (AUTO resolved) */
    size_t state_bytes;               /* the barrier's or local state's device bytes */
    gs_local_abort abort;             /* local: what a wait that gave up waited for */
    char error[160];                  /* what failed, where a call returned an error */
    gs_status status;                 /* this configuration's (gsr_run_methods) */
    double paired_ratio; /* gsr_run_methods: the median over the rounds of this run's time
                          * over the first configuration's in the same round (1 for the
                          * first; 0 where either failed or ran no round) */
} gsr_result;

/* "local" for GSR_LOCAL, else gs_algo_name. */
const char *gsr_method_name(gs_algo method);

/* The initial grid of `seed` (n * n floats, row-major). */
void gsr_initial(unsigned n, unsigned seed, float *out);

/* The sequential reference: S lexicographic sweeps from gsr_initial(seed), into `out`
 * (n * n floats). GS_ERR_INVALID_ARGUMENT for bad sizes. */
gs_status gsr_reference(unsigned n, unsigned sweeps, float omega, unsigned seed, float *out);

/* Whether `method` runs on this device. */
int gsr_method_supported(gs_device *dev, gs_algo method);

/* The most groups `method`'s kernel can have resident at once on this device for
 * tiles of `tile` (the local scheme and the relaunch baselines: what one launch holds
 * at once; the local scheme runs more too). */
gs_status gsr_max_groups(gs_device *dev, gs_algo method, unsigned tile, unsigned *out);

/* Runs the solver once and compares it with the reference (GS_ERR_CHECK_FAILED and
 * out->mismatches when it differs: no time is then measured), then `repeats` timed
 * runs from the initial grid, each checked again. GS_ERR_INVALID_ARGUMENT for a
 * configuration out of range (the schedule must fit 32-bit tickets). */
gs_status gsr_run(gs_device *dev, const gsr_config *cfg, gsr_result *out);

/* gsr_run for `n` configurations of one problem (the same n, sweeps, omega, seed and
 * repeats; else GS_ERR_INVALID_ARGUMENT for all, as for one out of range), compared
 * fairly: each opened and checked, then the timed runs in rounds, every configuration
 * once a round, each round in its own shuffled order (appkit's gsa_rounds), every run
 * checked again. One that fails drops out with its own status (out[i].status); the others
 * go on. out[i].paired_ratio pairs each with the first, round by round. Returns the first
 * failure's status, else GS_OK. gsr_run is its one-configuration case. */
gs_status gsr_run_methods(gs_device *dev, const gsr_config *cfgs, unsigned n, gsr_result *out);

/* Cells of a and b (n * n each) that differ; *max_abs_diff their largest difference. */
uint64_t gsr_compare(const float *a, const float *b, size_t cells, double *max_abs_diff);

#ifdef __cplusplus
}
#endif

#endif
