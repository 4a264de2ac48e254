/* gridsync/barrier_cg.cuh - "cg", CUDA only: the vendor's grid barrier.
 *
 * cooperative_groups::this_grid().sync(): the vendor's grid barrier, kept as
 * the reference the other protocols are measured against. It needs the
 * cooperative launch (gs_cuda_launch and the built-in programs do that) and
 * it CANNOT TIME OUT: its spin is inside the CUDA headers, not gs_wait, so a
 * group that never arrives hangs the grid. Every other protocol is bounded.
 */
#ifndef GRIDSYNC_BARRIER_CG_CUH
#define GRIDSYNC_BARRIER_CG_CUH

#include <cooperative_groups.h>

#include "gridsync/prims_cuda.cuh"
#include "gridsync/grid.h"

GS_DEVICE void gs_cg_setup(gs_grid_fields *f) { (void)f; }

#define GS_REP_ONLY_cg 0 /* every work-item takes the vendor's barrier */
GS_DEVICE void gs_cg_arrive(gs_grid *g, gs_token *t)
{
    t->target = cooperative_groups::this_grid().barrier_arrive();
    if (gs_g_first(g))
        gs_note_arrival(g); /* after: keeps the count right without slowing cg down */
}
GS_DEVICE gs_u32 gs_cg_wait(gs_grid *g, const gs_token *t)
{
    cooperative_groups::this_grid().barrier_wait(static_cast<gs_u32>(t->target));
    return GS_ABORT_NONE;
}
/* gs_sync with cg is exactly grid.sync(): the reference is measured as users call it,
 * with no progress note (cg cannot time out, so there is nothing to diagnose). */
GS_DEVICE gs_u32 gs_cg_episode(gs_grid *g, gs_token *t)
{
    (void)g;
    (void)t;
    cooperative_groups::this_grid().sync();
    return GS_ABORT_NONE;
}

#endif
