/* apps/appkit/appkit.h - what every application in apps/ does the same way around its
 * kernels: keep the first failure's message, tell gridsync's protocols from the
 * baselines an application writes itself, open a configuration's barrier, sort the
 * timed runs. Written against gridsync's public headers only, as the applications are. */
#ifndef GRIDSYNC_APPKIT_H
#define GRIDSYNC_APPKIT_H

#include <stdarg.h>
#include <stddef.h>

#include "gridsync.h"
#include "gridsync/host_local.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the message into error[size] unless it already holds one: the first failure
 * is the cause, what fails after it is a consequence. */
void gsa_vnote(char *error, size_t size, const char *fmt, va_list ap);
void gsa_note(char *error, size_t size, const char *fmt, ...);

/* cg, relaunch and relaunch-graph: the baselines an application writes as a user would
 * (grid.sync(), a launch per step, those launches in a CUDA graph), not through a
 * gridsync barrier. */
int gsa_is_baseline(gs_algo method);

/* Whether `algo` is one of gridsync's protocols that runs on `dev`: auto where flip and
 * tree both run (gs_barrier_create resolves it to one of them), never a baseline nor a
 * value past the protocols (an application's own method). */
int gsa_protocol_runs(gs_device *dev, gs_algo algo);

/* The barrier of `groups` groups for `method` with timeout_ms (0: the library's
 * default), into *out; *algo receives the protocol it resolved to, *state_bytes its
 * state's size. On failure *out is untouched and `error` (first failure wins) names the
 * protocol and the group count. */
gs_status gsa_barrier_open(gs_device *dev, gs_algo method, unsigned groups, unsigned timeout_ms,
                           gs_barrier **out, gs_algo *algo, size_t *state_bytes, char *error,
                           size_t error_size);

/* A local synchronization state of `words` progress words and `tagged` tagged words
 * with timeout_ms (0: the library's default), into *out; *state_bytes receives its size.
 * On failure *out is untouched and `error` (first failure wins) gives the counts. */
gs_status gsa_local_open(gs_device *dev, unsigned words, unsigned tagged, unsigned timeout_ms,
                         gs_local **out, size_t *state_bytes, char *error, size_t error_size);

/* Sorts v[0..n) ascending: the fastest run is v[0], the median v[n / 2]. */
void gsa_sort(double *v, unsigned n);

/* The median of v[0..n) (v[n / 2] once sorted; v is sorted in place); 0 for n == 0. */
double gsa_median(double *v, unsigned n);

/* order[0..n) a permutation of 0..n-1 drawn from *seed (xorshift32, Fisher-Yates; the
 * seed advances, non-zero): each round of an application's timed runs takes the
 * configurations in its own order, so that none always runs right after the same
 * other one, whose end sets the device's idle gap before it. */
void gsa_shuffle(unsigned *order, unsigned n, unsigned *seed);

/* A comparison of n configurations of one problem (methods, grids) in rounds: `open`
 * opens configuration i and runs its checked warm-up, `run` one checked and timed run of
 * it (*ns its time); both return its status. */
typedef struct gsa_rounds_ops {
    gs_status (*open)(void *ctx, unsigned i);
    gs_status (*run)(void *ctx, unsigned i, double *ns);
} gsa_rounds_ops;

/* How many rounds: at least `min`, at most `max`; past min more while the runs so far add
 * up to less than `budget` (in the runs' unit) for each configuration still running (0:
 * exactly min). */
typedef struct gsa_rounds_plan {
    unsigned min, max;
    double budget;
} gsa_rounds_plan;

/* A configuration's timed runs: median, fastest and slowest (0 where it failed or ran
 * none); paired with configuration 0 round by round, the median over the rounds of its
 * time over configuration 0's (`paired`: 1 for configuration 0) and of its time minus
 * configuration 0's (`paired_diff`), 0 where either ran no round or it failed. */
typedef struct gsa_timing {
    double median, min, max, paired, paired_diff;
    unsigned runs;
} gsa_timing;

/* Opens every configuration (status[i] its status), then the rounds of `plan`, every
 * configuration still passing once a round, each round in its own seeded shuffled order
 * (gsa_shuffle): a device that drifts over the seconds of a comparison weighs on all
 * alike, and none always runs right after the same other one. A configuration that fails
 * drops out with its status; the others go on. timing[i] is configuration i's (zeroed
 * first). GS_ERR_OUT_OF_MEMORY, in every status, where the rounds' memory cannot be had;
 * else GS_OK (the configurations' own statuses are in status[]). */
gs_status gsa_rounds(unsigned n, const gsa_rounds_plan *plan, const gsa_rounds_ops *ops, void *ctx,
                     gs_status *status, gsa_timing *timing);

/* The applications' comparison of n configurations of one problem (jacobi, sor, stencil):
 * each opened and checked by a first run that is not timed (a configuration that computes
 * a wrong answer is never timed), then `repeats` rounds of gsa_rounds, then every session
 * closed, the last first (a later one may share the first one's memory). `open` opens
 * configuration i; `run` runs it once and checks its result (*ns its time); `close`
 * closes it, opened or not. status[i] and timing[i] as gsa_rounds gives them. Returns the
 * first configuration's failure in order (GS_ERR_OUT_OF_MEMORY for all where the rounds'
 * memory cannot be had), else GS_OK. */
typedef struct gsa_compare_ops {
    gs_status (*open)(void *ctx, unsigned i);
    gs_status (*run)(void *ctx, unsigned i, double *ns);
    void (*close)(void *ctx, unsigned i);
} gsa_compare_ops;
gs_status gsa_compare(unsigned n, unsigned repeats, const gsa_compare_ops *ops, void *ctx,
                      gs_status *status, gsa_timing *timing);

/* gsa_compare's callbacks for an application whose back end `BACKEND` opens, runs and
 * closes sessions of type SESSION (be->open(&s), be->close(&s)), each run read back and
 * checked by RUN_CHECKED(be, &s, reference, result, &ns), the grids of ELEM: the entry
 * PREFIX##_entry (a session and the grid it is checked against), the context
 * PREFIX##_rounds (the back end, the entries, the grid a run is read into) and
 * PREFIX##_compare_ops. The same for every grid application, so written once here
 * (apps/jacobi, apps/sor and apps/stencil expand it). */
#define GSA_COMPARE_SESSIONS(PREFIX, SESSION, BACKEND, ELEM, RUN_CHECKED)                          \
    typedef struct PREFIX##_entry {                                                                \
        SESSION s;                                                                                 \
        const ELEM *reference;                                                                     \
    } PREFIX##_entry;                                                                              \
    typedef struct PREFIX##_rounds {                                                               \
        const BACKEND *be;                                                                         \
        PREFIX##_entry *es;                                                                        \
        ELEM *result;                                                                              \
    } PREFIX##_rounds;                                                                             \
    static gs_status PREFIX##_open_session(void *ctx, unsigned i)                                  \
    {                                                                                              \
        PREFIX##_rounds *x = (PREFIX##_rounds *)ctx;                                               \
        return x->be->open(&x->es[i].s);                                                           \
    }                                                                                              \
    static gs_status PREFIX##_run_once(void *ctx, unsigned i, double *ns)                          \
    {                                                                                              \
        PREFIX##_rounds *x = (PREFIX##_rounds *)ctx;                                               \
        return RUN_CHECKED(x->be, &x->es[i].s, x->es[i].reference, x->result, ns);                 \
    }                                                                                              \
    static void PREFIX##_close_session(void *ctx, unsigned i)                                      \
    {                                                                                              \
        PREFIX##_rounds *x = (PREFIX##_rounds *)ctx;                                               \
        x->be->close(&x->es[i].s);                                                                 \
    }                                                                                              \
    static const gsa_compare_ops PREFIX##_compare_ops = {PREFIX##_open_session, PREFIX##_run_once, \
                                                         PREFIX##_close_session}

/* What a grid application's comparison holds beside its sessions: the initial grid, the
 * grid each run is read back into (`cells` elements of `size` bytes each), a reference of
 * its own where `own_ref` (some configuration brings none), and each of the n
 * configurations' status and timing for gsa_compare. gsa_compare_mem_alloc:
 * GS_ERR_OUT_OF_MEMORY where any of them cannot be had (what was had is freed by
 * gsa_compare_mem_free, which takes a zeroed or allocated one). */
typedef struct gsa_compare_mem {
    void *initial, *result, *own_ref;
    gs_status *status;
    gsa_timing *timing;
} gsa_compare_mem;
gs_status gsa_compare_mem_alloc(gsa_compare_mem *m, gs_device *dev, size_t cells, size_t size,
                                int own_ref, unsigned n, unsigned device_arrays);
/* Whether a run that holds `host` bytes in host memory and `device` bytes on dev can hold
 * them at all: no more than the machine's physical memory (1 where it cannot be told); on
 * the cpu back end the device's bytes are host memory too. Past it malloc does not fail
 * (Linux overcommits): the process pages for minutes and is killed (bench wavefront
 * --matrix 65536, a reference and a result of 16 GiB each and a matrix per method on the
 * cpu, had taken 10.8 GB of a 24 GB machine after 60 s). The apps end such sizes in
 * GS_ERR_OUT_OF_MEMORY before they allocate. (gsa_compare_mem_alloc: the initial state,
 * the result and a reference, own or the caller's, on the host, device_arrays of them on
 * the device.) */
int gsa_memory_fits(gs_device *dev, double host, double device);
void gsa_compare_mem_free(gsa_compare_mem *m);

/* A configuration's timing in milliseconds (its median, fastest and slowest run) and its
 * paired ratio, as the applications' results give them. */
void gsa_times_of(const gsa_timing *t, double *median_ms, double *min_ms, double *max_ms,
                  double *paired);

#ifdef __cplusplus
}
#endif

#endif
