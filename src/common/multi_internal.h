/* src/common/multi_internal.h - a barrier across devices (gridsync/host_multi.h) inside
 * the library: what multi.c (written once) shares with the back ends' launches
 * (src/cpu/multi_cpu.c, src/cuda/multi_cuda.c) and the NCCL creation. */
#ifndef GRIDSYNC_MULTI_INTERNAL_H
#define GRIDSYNC_MULTI_INTERNAL_H

#include "internal.h"

#include "gridsync/host_multi.h"
#include "gridsync/multi_state.h"

typedef struct gs_multi_rank gs_multi_rank;
struct gs_multi_rank {
    gs_device *dev;  /* NULL: another process drives this rank */
    gs_mem *state;   /* its state, in its device's memory */
    atomic_int busy; /* 1 from a launch's start until it is collected */
    int launched;    /* a launch since the last collect (set by gs_multi_begin_launch) */
    void *pending;   /* the back end's record of the launch in flight */
    void *queue;     /* where it was enqueued (CUDA: its stream) */
    /* Waits for the launch and frees its record: GS_OK once the kernel ended. */
    gs_status (*wait)(gs_multi_rank *r);
    gs_multi_abort abort;
};

struct gs_multi {
    unsigned ranks, groups;
    unsigned timeout_ms;
    size_t bytes; /* one device's state */
    int aborted;  /* a collected launch did not complete: launches need a reset */
    gs_multi_rank rank[GS_MULTI_MAX_DEVICES];
    /* Where the states are not the back end's buffers (NCCL's symmetric memory): frees
     * them and whatever was made with them; and how a reset's ranks meet, before and
     * after they clear their states (makes it collective). NULL for a barrier of
     * gs_multi_create. */
    void (*release)(gs_multi *m);
    gs_status (*meet)(gs_multi *m);
    void *ext;
};

/* A fresh barrier of `ranks` devices and `groups` per device, no states yet (NULL when
 * out of memory); gs_multi_init_states writes every state this process drives (its
 * header, its peer table: the addresses in peers[], as each rank's kernels reach every
 * rank's state). */
gs_multi *gs_multi_alloc(unsigned ranks, unsigned groups);
/* A made gs_multi holds each of its ranks' devices until gs_multi_destroy (gs_device_hold). */
void gs_multi_hold(gs_multi *m);
gs_status gs_multi_init_states(gs_multi *m, void *const *peers);

/* A launch of rank `rank` with `grid` groups starts: refuses a rank this process does
 * not drive (GS_ERR_UNSUPPORTED), a grid of another group count (GS_ERR_INVALID_ARGUMENT),
 * a rank in flight (GS_ERR_BUSY), a barrier that needs a reset (GS_ERR_NEEDS_RESET); clears
 * the acknowledgement. On GS_OK the rank is busy: the back end then either records its
 * launch (rank->pending, rank->wait) or gives up with gs_multi_launch_failed. */
gs_status gs_multi_begin_launch(gs_multi *m, unsigned rank, gs_dim3 grid);
gs_status gs_multi_launch_failed(gs_multi *m, unsigned rank, gs_status why);

/* Every rank this process drives, in rank order, by `launch` (a back end's asynchronous
 * launch), then gs_multi_collect. The first refusal stops the launches and is returned
 * (and in its rank's status) once the ranks already started have been collected: they
 * end by their bound, waiting for the rank refused. */
gs_status gs_multi_launch_each(gs_multi *m,
                               gs_status (*launch)(gs_multi *m, unsigned rank, void *ctx),
                               void *ctx, gs_status *statuses);

#endif
