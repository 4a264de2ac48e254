/* gridsync/host_local.h - the host side of local synchronization (gridsync/local.h):
 * the state of a wavefront's progress words and ticket counter, on any back end.
 *
 *     gs_local *L;
 *     gs_local_create(dev, rows * cols, &L);          // one progress word per tile
 *     void *state; gs_local_native(L, &state);        // the kernel's argument
 *     for (each launch) {
 *         gs_local_prepare(L, stream);                // new epoch, ticket 0, no abort
 *         my_kernel<<<any_grid, block, 0, stream>>>((gs_word *)state, ...);
 *         gs_status s = gs_local_collect(L, stream);  // waits for the stream; the verdict
 *     }
 *     gs_local_destroy(L);
 *
 * Local synchronization needs no co-residency, so the kernel is launched the ordinary
 * way (CUDA <<<>>> or cudaLaunchKernel, clEnqueueNDRangeKernel or gs_opencl_launch_local
 * of gridsync/host_opencl.h, which also prepares and collects; on the cpu back end
 * gs_cpu_launch_local of gridsync/host_cpu.h), with any number of groups. `stream` is a
 * cudaStream_t (NULL: the legacy default stream), a cl_command_queue (NULL: the one of
 * gs_opencl_handles), ignored on the cpu. gs_local_prepare is enqueued in the stream's
 * order on CUDA (a kernel of one block: a CUDA graph can capture it, and each replay
 * takes a new epoch); on OpenCL it waits for the queue and writes.
 *
 * Every function returns GS_ERR_INVALID_ARGUMENT for a null handle or pointer. */
#ifndef GRIDSYNC_HOST_LOCAL_H
#define GRIDSYNC_HOST_LOCAL_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_local gs_local;

/* The most progress words a state may have (256 MiB of words), and tagged words (512
 * MiB: 64 bits each). */
#define GS_LOCAL_MAX_WORDS (1u << 26)
#define GS_LOCAL_MAX_TAGGED (1u << 26)

/* Allocates the state for `words` progress words, 1 to GS_LOCAL_MAX_WORDS (else
 * GS_ERR_INVALID_ARGUMENT), wait bound GS_DEFAULT_TIMEOUT_MS (GRIDSYNC_TIMEOUT_MS where
 * set). Every failure but a NULL `out` leaves *out NULL. */
GS_API gs_status gs_local_create(gs_device *dev, unsigned words, gs_local **out);

/* The same with `tagged` tagged words too (gs_local_put / gs_local_get of
 * gridsync/local.h: a value and its tag in 64 bits), 0 to GS_LOCAL_MAX_TAGGED; `words`
 * may then be 0 (not both). They live in the state so that they share its epoch, and
 * gs_local_prepare clears them when the epoch wraps, as it does the progress words.
 * GS_ERR_UNSUPPORTED for tagged words on a device without 64-bit atomics
 * (gs_device_info.has_word64 0: an OpenCL device without cl_khr_int64_base_atomics). */
GS_API gs_status gs_local_create_tagged(gs_device *dev, unsigned words, unsigned tagged,
                                        gs_local **out);
/* Either of the above with its wait bound in one call: `timeout_ms` 0 for the default (as
 * gs_local_create), else 1 to 3600000 (else GS_ERR_INVALID_ARGUMENT, *out NULL): what an
 * application that takes a timeout option writes once instead of create, set, destroy. */
GS_API gs_status gs_local_create_with(gs_device *dev, unsigned words, unsigned tagged,
                                      unsigned timeout_ms, gs_local **out);
GS_API gs_status gs_local_destroy(gs_local *L);

/* How long one wait may last, 1 to 3600000 ms (else GS_ERR_INVALID_ARGUMENT). Takes
 * effect at the next launch; on OpenCL a calibrated poll count, approximate. */
GS_API gs_status gs_local_set_timeout(gs_local *L, unsigned milliseconds);
GS_API gs_status gs_local_get_timeout(const gs_local *L, unsigned *milliseconds);

/* The progress words the state has, and the bytes of device memory it takes. */
GS_API gs_status gs_local_get_words(const gs_local *L, unsigned *words, size_t *bytes);
/* The tagged words it has. */
GS_API gs_status gs_local_get_tagged(const gs_local *L, unsigned *tagged);

/* The device-side state, to pass to a kernel: a CUDA device pointer, a cl_mem (as
 * void *), or a host pointer (cpu). */
GS_API gs_status gs_local_native(const gs_local *L, void **out);

/* Before each launch: the next epoch (every progress word and tagged word reads as
 * "nothing yet"), the ticket counter at 0, the abort line cleared. */
GS_API gs_status gs_local_prepare(gs_local *L, void *stream);

/* After a launch: waits for `stream` and reads what the kernel left: GS_OK;
 * GS_ERR_TIMEOUT when a wait expired (gs_local_abort_info names the group, the progress
 * word and the value it waited for, or the tagged word and the seq); GS_ERR_BAD_STATE
 * when no kernel began with this
 * state since gs_local_prepare (reason GS_ABORT_REASON_UNUSED); GS_ERR_NATIVE when the
 * stream reports a failure. */
GS_API gs_status gs_local_collect(gs_local *L, void *stream);

typedef struct gs_local_abort {
    gs_abort_reason reason;
    unsigned group;   /* the group whose wait expired first */
    unsigned item;    /* its work-item, linear in the group */
    unsigned word;    /* the progress word it waited on (tagged: the tagged word) */
    unsigned awaited; /* the value it waited for (tagged: the seq of the tag) */
    unsigned seen;    /* what the word held of this launch then (0: nothing) */
    int stray;        /* cpu: a work-item never reached its group's barrier */
    unsigned stray_group, stray_item;
    int tagged; /* 1: the wait was a tagged word's get (gs_local_get*), 0: a progress word's */
} gs_local_abort;

/* What the last collected launch left (reason GS_ABORT_REASON_NONE after a good one). */
GS_API gs_status gs_local_abort_info(const gs_local *L, gs_local_abort *out);

#ifdef __cplusplus
}
#endif

#endif
