/* gridsync/barrier_cluster.cuh - "cluster", CUDA only (sm_90 and newer).
 *
 * Hopper (sm_90+) thread-block clusters. Inside a cluster the blocks meet at
 * the hardware cluster barrier (barrier.cluster.arrive.release /
 * barrier.cluster.wait.acquire); then one representative per cluster (rank 0,
 * work-item 0) arrives at the flip counter of barrier_flip.h with one member
 * per cluster and, unless it was the last, polls it through gs_wait (bounded);
 * a second cluster barrier releases the cluster. Only a representative that
 * gives up writes its verdict into its members' shared memory
 * (st.shared::cluster): the fast path has no remote store. The global counter
 * sees groups/cluster_size atomics per episode instead of groups. Cluster
 * shape comes from %cluster_nctarank / %nclusterid, so the same code runs for
 * any cluster size the host launched with (1 included). The hardware barrier
 * has no deadline of its own: a block that never arrives at it because it
 * hangs in its own code hangs its cluster (as it would hang any kernel); a
 * block that EXITS early is reported as missing by its representative.
 */
#ifndef GRIDSYNC_BARRIER_CLUSTER_CUH
#define GRIDSYNC_BARRIER_CLUSTER_CUH

#include "gridsync/prims_cuda.cuh"
#include "gridsync/grid.h"
#include "gridsync/barrier_flip.h"

/* ---- cluster primitives (sm_90 PTX) --------------------------------------------- */

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define GS_CUDA_HAVE_CLUSTER 1
#else
#define GS_CUDA_HAVE_CLUSTER 0
#endif

#if GS_CUDA_HAVE_CLUSTER
GS_DEVICE gs_u32 gs_cluster_rank(void)
{
    gs_u32 r;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
GS_DEVICE gs_u32 gs_cluster_size(void)
{
    gs_u32 r;
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
    return r;
}
/* Linear cluster index and count over the grid. */
GS_DEVICE gs_u32 gs_cluster_index(void)
{
    gs_u32 x, y, z, nx, ny;
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(x));
    asm("mov.u32 %0, %%clusterid.y;" : "=r"(y));
    asm("mov.u32 %0, %%clusterid.z;" : "=r"(z));
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(nx));
    asm("mov.u32 %0, %%nclusterid.y;" : "=r"(ny));
    return x + nx * (y + ny * z);
}
GS_DEVICE gs_u32 gs_cluster_count(void)
{
    gs_u32 nx, ny, nz;
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(nx));
    asm("mov.u32 %0, %%nclusterid.y;" : "=r"(ny));
    asm("mov.u32 %0, %%nclusterid.z;" : "=r"(nz));
    return nx * ny * nz;
}
/* The hardware cluster barrier, split. Every thread of every block of the cluster
 * takes part (.aligned: the whole warp executes it together, as gs_sync requires).
 * Release/acquire at cluster scope: together with the gpu-scope acq_rel atomic of the
 * representative, causality order carries every member's writes to the other
 * clusters, as __syncthreads does for a block in the other protocols. */
GS_DEVICE void gs_cluster_hw_arrive(void)
{
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
}
GS_DEVICE void gs_cluster_hw_wait(void)
{
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
GS_DEVICE void gs_cluster_hw_barrier(void)
{
    gs_cluster_hw_arrive();
    gs_cluster_hw_wait();
}
/* Writes v into the shared variable *local of the blocks of the cluster whose rank is
 * set in `ranks`. */
GS_DEVICE void gs_cluster_broadcast(gs_u32 *local, gs_u32 v, gs_u32 ranks)
{
    gs_u32 addr = (gs_u32)__cvta_generic_to_shared(local);
    for (gs_u32 r = 0u; ranks != 0u; ++r, ranks >>= 1) {
        if ((ranks & 1u) == 0u)
            continue;
        gs_u32 remote;
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(addr), "r"(r));
        asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(remote), "r"(v) : "memory");
    }
}

/* The verdict of a cluster episode, in every block's shared memory. Each block clears
 * its own before it arrives (the verdict is 0 in every episode but the last one, so a
 * slow warp still reading the previous episode's 0 cannot tell); the representative
 * writes a non-zero verdict into the blocks of its cluster, and only then: the fast
 * path has no remote store at all. Each block reads its own copy, so no block reads
 * the shared memory of a block that may have exited. */
GS_DEVICE gs_u32 *gs_cluster_verdict_slot(void)
{
    __shared__ gs_u32 gs_cluster_verdict;
    return &gs_cluster_verdict;
}

/* Clusters of several blocks already cut the arrivals at the counter (on an H200 no
 * more than 528 clusters of 2 fit), so only clusters of one block, where cluster is
 * flip, take the release lines the host chose for the group count. */
GS_DEVICE int gs_cluster_lines(const gs_grid *g)
{
    return gs_aux_lines(g) && gs_cluster_size() == 1u;
}

/* The release form and lines are flip's. */
GS_DEVICE void gs_cluster_setup(gs_grid_fields *f) { gs_flip_setup(f); }

/* What this cluster's representative adds to the flip counter. */
GS_DEVICE gs_u32 gs_cluster_share(void)
{
    return gs_flip_share(gs_cluster_count() - GS_EARLY, gs_cluster_index() == 0u);
}

/* Arrival half of the cluster protocol: the hardware cluster barrier, then the
 * representative's release add at the flip counter (one member per cluster). Its own
 * progress note comes after the add, so the add's fence does not wait for it. */
GS_DEVICE void gs_cluster_arrive(gs_grid *g, gs_token *t)
{
    int rep = gs_cluster_rank() == 0u && gs_g_first(g);
    if (gs_g_first(g)) {
        if (!rep)
            gs_note_arrival(g);
        *gs_cluster_verdict_slot() = GS_ABORT_NONE;
    }
    gs_cluster_hw_barrier(); /* every block's writes happen before the representative's add */
    t->target = gs_flip_bit_after(g);
    if (rep)
        gs_flip_arrive_rep(g, t, gs_cluster_share(), gs_cluster_lines(g));
}

/* The hardware cluster barrier does not wait for a member block that has exited (and
 * the shared memory of such a block must not be written). So the representative
 * checks which members noted their arrival at this episode: a member that
 * left early is reported missing (an abort, GS_ERR_TIMEOUT and the host's diagnosis)
 * instead of being skipped, and a verdict is written only into present members.
 * Returns the ranks present, 1 bit per rank. */
GS_DEVICE gs_u32 gs_cluster_present(const gs_grid *g)
{
    gs_u32 size = gs_cluster_size();
    gs_u32 all = size >= 32u ? ~0u : (1u << size) - 1u;
    gs_u32 present = 1u;
    for (gs_u32 r = 1u; r < size && r < 32u; ++r)
        if (gs_ready(
                gs_load_relaxed(gs_word_at(g, GS_LINE_GROUP_A(gs_g_group(g) + r), GS_G_ARRIVED)),
                gs_f(g)->episode + 1u, GS_UNTIL_REACHED,
                0xffffffffu)) /* later: the check may come late */
            present |= 1u << r;
    if (present != all)
        gs_raise_abort(g, GS_ABORT_TIMEOUT);
    return present;
}

/* Waiting half. A representative that has to poll checks its members first (its time
 * is spent waiting anyway); the last cluster to arrive acquires the others' writes and
 * checks its members after its cluster is released, off the critical path. A
 * representative that gave up writes its verdict into its present members before the
 * second cluster barrier. Returns the same value on every work-item of the cluster. */
GS_DEVICE gs_u32 gs_cluster_wait(gs_grid *g, const gs_token *t)
{
    gs_u32 *slot = gs_cluster_verdict_slot();
    int rep = gs_cluster_rank() == 0u && gs_g_first(g);
    int last = rep && gs_flip_completed(t->before, gs_cluster_share());
    if (last) {
        /* the cluster barrier passes it on */
        (void)gs_flip_settle(g, t, gs_cluster_share(), gs_cluster_lines(g));
    } else if (rep) {
        gs_u32 present = gs_cluster_present(g);
        gs_u32 size = gs_cluster_size();
        gs_u32 why = present != (size >= 32u ? ~0u : (1u << size) - 1u)
                         ? GS_ABORT_TIMEOUT
                         : gs_flip_settle(g, t, gs_cluster_share(), gs_cluster_lines(g));
        if (why != GS_ABORT_NONE)
            gs_cluster_broadcast(slot, why, present);
    }
    gs_cluster_hw_barrier(); /* releases the cluster; acquires the verdict and the grid's writes */
    gs_u32 why = *slot;
    if (last)
        (void)gs_cluster_present(g);
    return why;
}
#else
GS_DEVICE void gs_cluster_setup(gs_grid_fields *f)
{
    f->aux = GS_AUX_BAD | GS_ABORT_BAD_STATE; /* clusters need sm_90 */
}
GS_DEVICE void gs_cluster_arrive(gs_grid *g, gs_token *t) { t->why = GS_ABORT_BAD_STATE; }
GS_DEVICE gs_u32 gs_cluster_wait(gs_grid *g, const gs_token *t) { return GS_ABORT_BAD_STATE; }
#endif

#define GS_REP_ONLY_cluster 0 /* every work-item takes the cluster's barrier */
GS_EPISODE_FROM_HALVES(cluster)

#endif
