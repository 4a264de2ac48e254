/* gridsync/host_multi.h - the host side of a barrier across devices (gridsync/multi.h):
 * one grid barrier over the groups of D devices, each device running its own launch of
 * the kernel, driven by one process.
 *
 *     gs_device *devs[2];                               // two GPUs (or one, twice)
 *     gs_device_open(GS_BACKEND_CUDA, 0, &devs[0]);
 *     gs_device_open(GS_BACKEND_CUDA, 1, &devs[1]);
 *     gs_multi *m;
 *     gs_multi_create(devs, 2, groups, &m);             // `groups` groups on each device
 *     for (unsigned r = 0; r < 2; ++r) {
 *         void *state; gs_multi_native(m, r, &state);  // rank r's kernel takes this
 *         void *args[] = {&state, &data[r]};
 *         gs_cuda_multi_launch_async(m, r, (const void *)kernel, GS_DIM3_1D(groups),
 *                                    GS_DIM3_1D(256), 0, args, streams[r]);
 *     }
 *     gs_status each[2];
 *     gs_status s = gs_multi_collect(m, each);          // waits for every device
 *
 * Rank r is devs[r]. The barrier's states (one per device, in its memory) are
 * allocated at creation; on CUDA, creation enables peer access between every two GPUs
 * of the list (for the whole process, never disabled again), and refuses GPUs that
 * cannot reach each other (GS_ERR_UNSUPPORTED). The same device may be listed several
 * times (or the same ordinal opened several times): its ranks' launches then run side by
 * side on it and must all fit at once, which the launch checks against this kernel's
 * co-residency bound (a launch of a rank whose GPU holds others is not cooperative:
 * docs/multi.md says why). On the cpu back end the devices are emulated: several handles
 * of device 0, or one handle listed several times, each rank a grid of teams of threads
 * as gs_cpu_launch runs, all in one address space. OpenCL devices: GS_ERR_UNSUPPORTED.
 *
 * Launches: one per rank, asynchronous, from any host thread (one launch at a time per
 * rank: GS_ERR_BUSY); gs_multi_collect then waits for every rank launched since the
 * last collect and gives each its status. The state needs no reset between launches
 * that completed; after a launch that did not (any rank's status not GS_OK), every
 * launch is GS_ERR_NEEDS_RESET until gs_multi_reset. Collect, reset, set_timeout and
 * destroy come from one thread, while no launch is being made.
 *
 * Statuses per rank: GS_OK; GS_ERR_TIMEOUT when a wait of this device expired
 * (reason GS_ABORT_REASON_TIMEOUT) or another device's did, or another group's of this
 * device, and this one was made to leave (GS_ABORT_REASON_PEER): gs_multi_abort_info
 * names the devices that had not arrived and, where known, their group; GS_ERR_BAD_STATE
 * when the kernel found another state or grid (another group count), or no kernel began
 * with this rank's state since the last collect (reason GS_ABORT_REASON_UNUSED: a rank
 * never launched); GS_ERR_NATIVE when the device reports a failure.
 *
 * Every function returns GS_ERR_INVALID_ARGUMENT for a null handle or pointer, a rank
 * past the devices, or a grid whose groups are not the barrier's groups per device. */
#ifndef GRIDSYNC_HOST_MULTI_H
#define GRIDSYNC_HOST_MULTI_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_multi gs_multi;

/* The most devices one barrier spans. */
#define GS_MULTI_MAX_DEVICES 32u
/* A rank or group that the diagnosis cannot name. */
#define GS_MULTI_NONE 0xffffffffu

/* A barrier over the `ndev` devices of `devs` (rank r is devs[r]), 1 to
 * GS_MULTI_MAX_DEVICES, with `groups_per_device` groups on each (1 to GS_MAX_GROUPS), wait
 * bound GS_DEFAULT_TIMEOUT_MS (GRIDSYNC_TIMEOUT_MS where set). GS_ERR_INVALID_ARGUMENT
 * for a null entry, no devices, too many, or devices of different back ends;
 * GS_ERR_UNSUPPORTED for OpenCL devices or GPUs without peer access to each other. Every
 * failure but a NULL `out` leaves *out NULL. */
GS_API gs_status gs_multi_create(gs_device *const *devs, unsigned ndev, unsigned groups_per_device,
                                 gs_multi **out);
/* GS_ERR_BUSY while a launch is in flight (collect it first). */
GS_API gs_status gs_multi_destroy(gs_multi *m);

/* How long one wait may last, 1 to 3600000 ms (else GS_ERR_INVALID_ARGUMENT); takes
 * effect at the next launch; GS_ERR_BUSY while a launch is in flight. */
GS_API gs_status gs_multi_set_timeout(gs_multi *m, unsigned milliseconds);
GS_API gs_status gs_multi_get_timeout(const gs_multi *m, unsigned *milliseconds);

/* The devices of the barrier and its groups per device (either pointer may be NULL, not
 * both), and the bytes of device memory one device's state takes. */
GS_API gs_status gs_multi_get_shape(const gs_multi *m, unsigned *ranks,
                                    unsigned *groups_per_device);
GS_API gs_status gs_multi_state_bytes(const gs_multi *m, size_t *bytes);

/* Rank `rank`'s state, to pass to that rank's kernel as its `gs_word *`: a CUDA device
 * pointer on that GPU, a host pointer on the cpu. GS_ERR_UNSUPPORTED for a rank another
 * process drives (an NCCL barrier's other ranks). */
GS_API gs_status gs_multi_native(const gs_multi *m, unsigned rank, void **state);

/* Clears every state this process drives after an abort (or at any time between
 * launches); GS_ERR_BUSY while a launch is in flight. On an NCCL barrier every rank
 * calls it (it is collective: no rank launches again before every rank has reset). */
GS_API gs_status gs_multi_reset(gs_multi *m);

/* Waits for every rank launched since the last collect and reads what each left:
 * statuses[rank] for every rank (an array of the barrier's devices; may be NULL; a rank
 * another process drives gets GS_ERR_UNSUPPORTED). Returns GS_OK when every rank this
 * process drives is GS_OK, else the first other status in rank order. Then every rank
 * takes the next launch. */
GS_API gs_status gs_multi_collect(gs_multi *m, gs_status *statuses);

/* What one rank's last collected launch left (reason GS_ABORT_REASON_NONE after a good
 * one). The devices missing are read from this device's own flag line: those whose
 * slot stayed behind the furthest episode any device reached. */
typedef struct gs_multi_abort {
    gs_abort_reason reason; /* TIMEOUT: a wait of this device expired; PEER: another device's
                               did, or another group's here, and this one left */
    unsigned rank;          /* the device this describes */
    unsigned from_rank;     /* the device whose wait expired, as far as this one knows: itself
                               for TIMEOUT, the one that told it for PEER; or GS_MULTI_NONE */
    unsigned group;         /* the group of this device that left first (GS_MULTI_NONE: no
                               group of it was waiting: its kernel had ended) */
    unsigned item;          /* that group's work-item */
    unsigned episode;       /* the episode it waited in (0-based since the last reset) */
    unsigned missing_ranks; /* devices that had not arrived where the furthest had */
    unsigned first_missing_rank[8];
    unsigned missing_group;  /* a group of first_missing_rank[0] that had not arrived where its
                                device's other groups had, where this process can read that
                                device's state and one is behind; else GS_MULTI_NONE */
    unsigned missing_groups; /* groups of this device behind its furthest group */
    unsigned first_missing_group[8];
    int stray; /* cpu: a work-item of this device never reached its group's barrier */
    unsigned stray_group, stray_item;
} gs_multi_abort;

GS_API gs_status gs_multi_abort_info(const gs_multi *m, unsigned rank, gs_multi_abort *out);

/* ---- cpu back end ------------------------------------------------------------------ */

/* Starts kernel(arg) for rank `rank`: a grid of `groups` teams (their product is the
 * barrier's groups per device) of `group_size` threads, as gs_cpu_launch does, and
 * returns; gs_multi_collect waits for it. Every rank's threads run at once: a launch
 * whose threads, times the devices, pass 4096 is GS_ERR_TOO_MANY_GROUPS; a group of more
 * than 1024 GS_ERR_INVALID_ARGUMENT. GS_ERR_UNSUPPORTED for a rank on another back end. */
GS_API gs_status gs_cpu_multi_launch_async(gs_multi *m, unsigned rank, gs_dim3 groups,
                                           gs_dim3 group_size, void (*kernel)(void *arg),
                                           void *arg);
/* Every rank, rank r with args[r] (args may be NULL: every rank gets NULL), then
 * gs_multi_collect(m, statuses). The first launch refused stops the others and its
 * status is returned (and is its rank's), after the ranks already started are collected
 * (they end by their bound, waiting for it). */
GS_API gs_status gs_cpu_multi_launch(gs_multi *m, gs_dim3 groups, gs_dim3 group_size,
                                     void (*kernel)(void *arg), void *const *args,
                                     gs_status *statuses);

/* ---- CUDA back end (libgridsync-cuda only) ---------------------------------------- */

/* Enqueues `kernel` for rank `rank` on `stream` (a cudaStream_t of that rank's GPU;
 * NULL: its legacy default stream), with the cudaLaunchKernel-style `args`, as
 * gs_cuda_launch_async does: this kernel's co-residency bound checked (for all the
 * ranks that share the GPU), cooperative where the GPU is the rank's alone. Returns once
 * it is enqueued; gs_multi_collect waits for it. GS_ERR_UNSUPPORTED for a rank that is
 * not a CUDA device of this process. Ranks that share a GPU need streams of their own
 * (non-blocking ones, cudaStreamNonBlocking, where other code uses the legacy default
 * stream): NULL, or the stream of another rank of that GPU in flight, is
 * GS_ERR_INVALID_ARGUMENT (one would wait for the other until its bound). */
GS_API gs_status gs_cuda_multi_launch_async(gs_multi *m, unsigned rank, const void *kernel,
                                            gs_dim3 grid, gs_dim3 block, size_t shared_bytes,
                                            void **args, void *stream);
/* Every rank, rank r with args[r] on streams[r] (streams may be NULL: default streams,
 * where no two ranks share a GPU), then gs_multi_collect(m, statuses); a refusal as
 * gs_cpu_multi_launch's. */
GS_API gs_status gs_cuda_multi_launch(gs_multi *m, const void *kernel, gs_dim3 grid, gs_dim3 block,
                                      size_t shared_bytes, void **const *args, void *const *streams,
                                      gs_status *statuses);

#ifdef __cplusplus
}
#endif

#endif
