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

#ifdef __cplusplus
}
#endif

#endif
