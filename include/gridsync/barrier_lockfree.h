/* gridsync/barrier_lockfree.h - "lockfree": Xiao & Feng's decentralized barrier (the
 * thesis's DCB, the blogs' globalSync3 / global_sync), without read-modify-writes.
 *
 * Each group writes the episode number into its own arrival flag; the master group
 * (group 0) polls every flag, then writes the episode number into every group's
 * release flag; each group polls its own release flag. Flags hold episode numbers
 * rather than 0/1, so they never need clearing and a fast group cannot be confused by
 * a flag of the previous episode. The seeds require more work-items per group than
 * groups; here each polling work-item of the master takes every spinners-th flag, so
 * any number of groups works with any group size. A master work-item releases its
 * flags with one fence and plain (relaxed) stores, not one release store (one fence)
 * per flag. The master's release happens in its wait, so in the split-phase form the
 * master's gs_wait_token should come early. Flags compare for equality (a flag holds its
 * group's episode or the one before), so a shim may keep them modulo 256 (CUDA: bytes). */
#ifndef GRIDSYNC_BARRIER_LOCKFREE_H
#define GRIDSYNC_BARRIER_LOCKFREE_H

#include "gridsync/grid.h"

/* The state word w of the arrival flags (the seed's Arrayin) or of the release flags
 * (Arrayout). Group j > 0 has flag j - 1 of each, flag k being flag k % GS_FLAG_PACK of
 * word k / GS_FLAG_PACK (grid.h). The master has none: its own arrival releases nothing
 * (its group's writes are released by the fence before its release flags), so it takes
 * no fence to arrive and polls no flag of its own. */
GS_DEVICE GS_GLOBAL gs_word *gs_flags_in(const gs_grid *g, gs_u32 w)
{
    return gs_word_at(g, GS_LINE_FLAGS_IN(gs_g_groups(g)), w);
}
GS_DEVICE GS_GLOBAL gs_word *gs_flags_out(const gs_grid *g, gs_u32 w)
{
    return gs_word_at(g, GS_LINE_FLAGS_OUT(gs_g_groups(g)), w);
}

/* The words that hold n flags. */
GS_DEVICE gs_u32 gs_flag_words(gs_u32 n) { return (n + GS_FLAG_PACK - 1u) / GS_FLAG_PACK; }

/* The arrival flags the master waits for: [0, end), in words [0, gs_lockfree_words). */
GS_DEVICE gs_u32 gs_lockfree_end(const gs_grid *g)
{
    gs_u32 others = gs_g_groups(g) - 1u;
    return others > GS_EARLY ? others - GS_EARLY : 0u;
}
GS_DEVICE gs_u32 gs_lockfree_words(const gs_grid *g) { return gs_flag_words(gs_lockfree_end(g)); }

/* The master's polling work-items (the host's choice, held in share). */
GS_DEVICE void gs_lockfree_setup(gs_grid_fields *f) { f->share = gs_spinners(f->state); }

GS_DEVICE void gs_lockfree_arrive(gs_grid *g, gs_token *t)
{
    gs_group_barrier();
    t->target = gs_f(g)->episode + 1u;
    if (gs_g_first_fresh(g)) {
        if (gs_g_group(g) != 0u) {
            gs_u32 k = gs_g_group(g) - 1u;
            gs_flag_store_release(gs_flags_in(g, k / GS_FLAG_PACK), k % GS_FLAG_PACK, t->target);
        } else {
            /* The master tests every flag of a word it polls (no mask: gs_wait_flags), so
             * it fills the flags past the end of the last word itself; they release nothing. */
            for (gs_u32 k = gs_lockfree_end(g); k < gs_lockfree_words(g) * GS_FLAG_PACK; ++k)
                gs_flag_store_relaxed(gs_flags_in(g, k / GS_FLAG_PACK), k % GS_FLAG_PACK,
                                      t->target);
        }
        gs_note_arrival(g);
    }
}

GS_DEVICE gs_u32 gs_lockfree_wait(gs_grid *g, const gs_token *t)
{
    gs_u32 why = GS_ABORT_NONE;
    gs_u32 lid = gs_g_lid(g), spinners = gs_f(g)->share;
    if (gs_g_group(g) == 0u) {
        /* words lid, lid + spinners, ...: a warp's loads cover 32 neighbouring words, and
         * all of a work-item's are in flight at once (gs_wait_flags) */
        gs_u32 words = gs_lockfree_words(g);
        if (lid < spinners && lid < words)
            why = gs_wait_flags(g, gs_flags_in(g, lid), spinners,
                                (words - lid + spinners - 1u) / spinners, t->target);
    } else if (lid == 0u) {
        gs_u32 k = gs_g_group(g) - 1u;
        why = gs_wait_masked(g, gs_flags_out(g, k / GS_FLAG_PACK), t->target, GS_UNTIL_FLAGS,
                             gs_flag_mask(k % GS_FLAG_PACK));
    }
    /* One verdict for master and others alike: no barrier is reached on one side of a
     * branch only (PoCL 3.1 miscompiles that shape). */
    why = gs_group_verdict(g, why);
    if (gs_g_group(g) == 0u && why == GS_ABORT_NONE) {
        gs_fence_acq_rel(); /* acquire the flags read by any master work-item; release */
        for (gs_u32 w = lid; w < gs_flag_words(gs_g_groups(g) - 1u); w += gs_g_lsize(g))
            gs_flags_store_fenced(gs_flags_out(g, w), t->target);
    }
    return why;
}

#define GS_REP_ONLY_lockfree 0 /* other work-items touch the state */
GS_EPISODE_FROM_HALVES(lockfree)

#endif
