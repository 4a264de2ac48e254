/* src/common/internal.h - what the common runtime needs from a back end.
 *
 * A back end implements gs_backend_ops and a device struct whose first member is a
 * `struct gs_device`. The common code (barrier state, abort diagnosis, built-in
 * programs and their checks, argument validation) is written once against this. */
#ifndef GRIDSYNC_INTERNAL_H
#define GRIDSYNC_INTERNAL_H

#include <stdatomic.h>

#include "gridsync.h"

#include "../kernels/work.h"
#include "gridsync/state.h"

typedef struct gs_mem gs_mem; /* a device buffer, back-end defined */

/* One request to run the built-in kernel (src/kernels/workloads.h). */
typedef struct gs_launch {
    gs_mem *state;         /* barrier state */
    gs_mem *a, *b, *c;     /* workload buffers; c holds GS_C_WORDS counters */
    gs_work_params params; /* params.phase_begin .. params.phase_end */
    unsigned groups;       /* groups launched */
    unsigned group_size;   /* work-items per group */
    gs_algo algo;          /* RELAUNCH*: one launch per phase, timed as one span */
    unsigned timeout_ms;   /* the barrier's wait bound (for host-side waits) */
} gs_launch;

typedef struct gs_backend_ops {
    gs_backend id;
    /* Number of devices this back end sees (0 if none; never fails). */
    int (*count)(void);
    gs_status (*open)(int index, gs_device **out);
    void (*close)(gs_device *dev);
    gs_status (*max_groups)(gs_device *dev, unsigned group_size, unsigned *out);
    /* Optional: the most groups one launch may have where they need not be co-resident
     * (the relaunch baselines): a bound of the back end's own, such as the cpu back
     * end's thread per work-item. NULL: none (the device queues the groups). */
    gs_status (*launch_groups)(gs_device *dev, unsigned group_size, unsigned *out);
    int (*algo_supported)(const gs_device *dev, gs_algo algo);
    /* Wait bound in the device's clock units (ns; OpenCL: polls). */
    uint64_t (*timeout_units)(gs_device *dev, unsigned milliseconds);
    /* Work-items of the master group that may poll (0 = all). */
    unsigned (*spinners)(const gs_device *dev);
    gs_status (*mem_alloc)(gs_device *dev, size_t bytes, gs_mem **out);
    void (*mem_free)(gs_device *dev, gs_mem *m);
    gs_status (*mem_write)(gs_device *dev, gs_mem *m, size_t offset, const void *src, size_t n);
    gs_status (*mem_read)(gs_device *dev, gs_mem *m, size_t offset, void *dst, size_t n);
    void *(*mem_native)(gs_mem *m); /* device pointer / cl_mem / host pointer */
    /* Runs the built-in kernel to completion and reports its device time. */
    gs_status (*launch)(gs_device *dev, const gs_launch *l, double *elapsed_ns);
    /* Optional: measures how many groups run at once (occupancy discovery). */
    gs_status (*discover)(gs_device *dev, unsigned group_size, unsigned *out);
    /* Waits for a user launch in flight through b (b->pending) and frees its record:
     * GS_OK once the kernel ended, else why it failed. */
    gs_status (*collect)(gs_device *dev, gs_barrier *b);
    /* Optional: waits for what a user enqueued on `stream` (a cudaStream_t, a
     * cl_command_queue; NULL: the back end's default). NULL: nothing to wait for. */
    gs_status (*stream_sync)(gs_device *dev, void *stream);
    /* Optional: gs_local_prepare enqueued on `stream`, in its order (CUDA: a kernel, which
     * a graph captures): `clear` 32-bit words from line GS_LOCAL_LINE_WORDS on (the
     * progress and tagged words) are zeroed when the epoch wraps. NULL: local.c waits for
     * the stream and writes the state. */
    gs_status (*local_prepare)(gs_device *dev, gs_mem *state, unsigned clear, void *stream);
    /* Optional: frees b->launch_cache when the barrier is destroyed. */
    void (*barrier_release)(gs_device *dev, gs_barrier *b);
    /* Optional: lets kernels on `dev` reach `peer`'s memory (a barrier across devices,
     * multi.c; CUDA: peer access; GS_ERR_UNSUPPORTED where they cannot). NULL: every
     * device of the back end shares one address space (cpu). */
    gs_status (*peer_access)(gs_device *dev, gs_device *peer);
    /* Optional: moves a new flip state of `state_bytes` (all zeros) by up to `lines` - 1
     * whole lines, within the buffer `m` allocated for it with that many lines more, to
     * where its counter, `counter_offset` bytes in, serves `groups` groups fastest (CUDA:
     * place_cuda.c says why). NULL: the state stays where it was allocated. */
    gs_status (*place_counter)(gs_device *dev, gs_mem *m, size_t state_bytes, size_t counter_offset,
                               unsigned groups, unsigned lines);
} gs_backend_ops;

struct gs_device {
    const gs_backend_ops *ops;
    gs_device_info info;
    int native_code;
    char native_text[512];
    atomic_uint holders; /* barriers, local and multi states made on it and not destroyed
                            (gs_device_hold): gs_device_close refuses while any lives */
};

/* A barrier, local or multi state made on `dev` holds it until destroyed: closing the
 * device under one freed what its destroy then used (a use after free found by a user's
 * program, ASan: barrier.c's destroy after gs_device_close). */
void gs_device_hold(gs_device *dev);
void gs_device_release(gs_device *dev);

/* Records a native failure on the device and returns GS_ERR_NATIVE. */
gs_status gs_native_fail(gs_device *dev, int code, const char *what);

struct gs_barrier {
    gs_device *dev;
    gs_algo algo; /* the protocol it runs (GS_ALGO_AUTO resolved) */
    unsigned groups;
    unsigned leaves, spinners;
    unsigned release; /* flip, cluster, tree: GS_RELEASE_POLL or GS_RELEASE_LINES */
    unsigned timeout_ms;
    unsigned backoff_ns;     /* the header's GS_HDR_BACKOFF */
    unsigned backoff_cap_ns; /* the header's GS_HDR_BACKOFF_CAP */
    unsigned first_poll_ns;  /* the header's GS_HDR_FIRST_POLL */
    size_t bytes;
    gs_mem *state;
    int aborted;
    int launched;    /* a launch began (or was captured) since the state was made or reset */
    int arrive_only; /* gs_barrier_set_arrive_only: launches need no co-residency */
    gs_abort_info abort;
    unsigned group_size;  /* the group size the state counts for (header); 0 before any launch */
    gs_dim3 grid, block;  /* the last launch's shape */
    atomic_int busy;      /* 1 from a launch's start until it is collected */
    void *pending;        /* the back end's record of a user launch in flight, or NULL */
    void *launch_cache;   /* what the back end keeps from one user launch to the next */
    uint64_t host_mirror; /* the header's GS_HDR_MIRROR_*: set by the back end, or 0 */
    /* The abort line as the launch left it, where the back end has it on the host (CUDA:
     * the kernel wrote it into pinned memory, GS_HDR_MIRROR_*): set by ops->collect for
     * gs_barrier_end_launch, which reads it instead of the device's state; NULL: read
     * the state. */
    const volatile uint32_t *verdict;
    double elapsed_ns; /* device time of the last collected user launch */
};

/* Local synchronization's state (gridsync/host_local.h, local.c). */
#include "gridsync/host_local.h"
struct gs_local {
    gs_device *dev;
    unsigned words, tagged;
    unsigned timeout_ms;
    size_t bytes;
    gs_mem *state;
    gs_local_abort abort;
};

/* Starts a launch through `b` of `grid` groups of `block` work-items: refuses it while
 * another is in flight (GS_ERR_BUSY) or after an abort (GS_ERR_NEEDS_RESET), checks the
 * group count, and resets the state when the group size changes (naive counts
 * work-items; a state left counting another size gives wrong answers or false
 * timeouts), which a launch being captured into a CUDA graph cannot (`capturing`:
 * GS_ERR_INVALID_ARGUMENT). On GS_OK the barrier is busy until gs_barrier_end_launch. */
gs_status gs_barrier_begin_launch(gs_barrier *b, gs_dim3 grid, gs_dim3 block, int capturing);
/* Clears the acknowledgement word now (every launch but CUDA's user launches, which clear
 * it on their stream, where a graph capture takes it in). */
gs_status gs_barrier_clear_ack(gs_barrier *b);
/* Gives the device the address of the host's copy of the abort line (header words
 * GS_HDR_MIRROR_*; 0: none): the caller holds the barrier. */
gs_status gs_barrier_set_host_mirror(gs_barrier *b, uint64_t device_address);
/* Ends it: with `launched` GS_OK, reads what the kernel left in the abort line; on an
 * abort fills b->abort and marks the barrier aborted; a kernel that never acknowledged
 * the state (`check_ack` 1) is GS_ERR_BAD_STATE; `check_ack` -1 reads nothing (a launch
 * that did not run: captured, or not enqueued). Returns the status to report; the
 * barrier takes the next launch. */
gs_status gs_barrier_end_launch(gs_barrier *b, gs_status launched, int check_ack);
/* The byte offset of the acknowledgement word a launch clears first. */
#define GS_ACK_OFFSET (GS_WORD(GS_LINE_ABORT, GS_ABORT_ACK) * 4u)
/* options.c: `o`'s fields checked (GS_ERR_INVALID_ARGUMENT out of range) and, where
 * GS_OPTION_DEFAULT, taken from the environment into *r; what neither sets stays
 * GS_OPTION_DEFAULT, for the protocol's own choice. A NULL `o` sets nothing. */
gs_status gs_barrier_options_resolve(const gs_barrier_options *o, unsigned groups,
                                     gs_barrier_options *r);
/* Whether a protocol has no device code of its own (the relaunch baselines). */
int gs_algo_is_host(gs_algo algo);

/* The back ends built into this library (NULL where not built). */
extern const gs_backend_ops gs_cpu_ops;
#ifdef GRIDSYNC_HAVE_OPENCL
extern const gs_backend_ops gs_opencl_ops;
#endif
#ifdef GRIDSYNC_HAVE_CUDA
extern const gs_backend_ops gs_cuda_ops;
#endif

#endif
