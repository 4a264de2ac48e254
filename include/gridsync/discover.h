/* gridsync/discover.h - which groups of a launch run at the same time: occupancy
 * discovery after Sorensen, Donaldson, Batty, Gopalakrishnan and Rakamaric ("Portable
 * inter-workgroup barrier synchronisation for GPUs", OOPSLA 2016).
 *
 * Launch many more groups than can run at once. Each group's representative takes a
 * ticket lock and, while the poll is open, registers and gets the next dense id; the
 * first participant waits until no newcomer has registered for `settle` polls, then
 * closes the poll; the other participants wait for the close (so no slot they hold can
 * be taken by a group that was not running with them); a group that finds the poll
 * closed arrived late: it was not co-resident, and it leaves. The count of participants
 * is a grid size that did run at once on this device. Every wait is gs_wait, bounded.
 *
 * The words live on lines of their own in a state of GS_DISC_LINES lines whose header
 * and abort lines are a barrier state's. Needs a shim and grid.h. */
#ifndef GRIDSYNC_DISCOVER_H
#define GRIDSYNC_DISCOVER_H

#include "gridsync/grid.h"

GS_DEVICE gs_u32 gs_disc_lock(const gs_grid *g)
{
    gs_u32 ticket = gs_fetch_add_acq_rel(&g->state[GS_DISC_NEXT], 1u);
    return gs_wait(g, &g->state[GS_DISC_SERVE], ticket, GS_UNTIL_REACHED);
}

GS_DEVICE void gs_disc_unlock(const gs_grid *g) { gs_add_release(&g->state[GS_DISC_SERVE], 1u); }

/* Called by work-item 0 of every group. Returns the group's dense id among the
 * co-resident groups, or GS_DISC_LATE. */
GS_DEVICE gs_u32 gs_discover(const gs_grid *g, gs_u64 settle)
{
    gs_u32 id = GS_DISC_LATE;
    if (gs_disc_lock(g) != GS_ABORT_NONE)
        return GS_DISC_LATE;
    if (gs_load_relaxed(&g->state[GS_DISC_CLOSED]) == 0u) { /* open phase */
        id = gs_load_relaxed(&g->state[GS_DISC_COUNT]);
        gs_store_relaxed(&g->state[GS_DISC_COUNT], id + 1u);
    }
    gs_disc_unlock(g);
    if (id == 0u) {
        /* Closing phase: once nobody new has come for `settle` polls. Bounded: every
         * newcomer restarts the count, and at most every launched group comes. */
        gs_u32 seen = 1u;
        for (gs_u64 quiet = 0u; quiet < settle; ++quiet) {
            gs_u32 now = gs_load_relaxed(&g->state[GS_DISC_COUNT]);
            if (now != seen) {
                seen = now;
                quiet = 0u;
            }
        }
        if (gs_disc_lock(g) == GS_ABORT_NONE) {
            gs_store_relaxed(&g->state[GS_DISC_CLOSED], 1u);
            gs_disc_unlock(g);
        }
    } else if (id != GS_DISC_LATE) {
        (void)gs_wait(g, &g->state[GS_DISC_CLOSED], 1u, GS_UNTIL_REACHED);
    }
    return id;
}

#endif
