/* gridsync/barrier_flip.h - "flip": a counter that is never reset; its top bit flips
 * once per episode, as in CUDA's cooperative groups.
 *
 * Group 0 adds FLIP_BIT - (groups-1), every other group adds 1: after all groups of
 * an episode the low bits are back where they started and the top bit has flipped,
 * exactly at the last arrival. The adds are release RMWs, so every one of them is in
 * the release sequence that the pollers' acquire (gs_wait) reads from. The last arriver
 * sees the flip in the value its own add returns and does not poll; an acquire fence
 * makes it see the others' writes. (An acq_rel add would do the same for everyone and
 * costs 558 ns against 321 ns for a release add on an H200: only the last arriver needs
 * the acquire, and a fence costs it 136 ns.)
 *
 * The release (GS_AUX_LINES in gs_f(g)->aux, chosen by the host for the group count): the
 * others poll the counter's flip bit, or, at larger sizes (src/common/barrier.c), the
 * last arriver writes the flip bit into release lines and the others poll theirs
 * (gs_flip_release_lines, gs_flip_await). */
#ifndef GRIDSYNC_BARRIER_FLIP_H
#define GRIDSYNC_BARRIER_FLIP_H

#include "gridsync/grid.h"

/* What one of the `members` of a flip counter adds; `first` is true for exactly one. */
GS_DEVICE gs_u32 gs_flip_share(gs_u32 members, int first)
{
    return first ? GS_FLIP_BIT - (members - 1u) : 1u;
}

GS_DEVICE int gs_flip_completed(gs_u32 old, gs_u32 add)
{
    return ((old ^ (old + add)) & GS_FLIP_BIT) != 0u;
}

/* A flip counter's top bit once the group's current episode is complete: every counter
 * starts at 0 when the state is reset and flips once per episode. */
GS_DEVICE gs_u32 gs_flip_bit_after(const gs_grid *g) { return (gs_f(g)->episode + 1u) << 31; }

/* Release line l (GS_RELEASE_LINES), of the fields `f` or of the grid. */
GS_DEVICE GS_GLOBAL gs_word *gs_release_line_of(const gs_grid_fields *f, gs_u32 l)
{
    return gs_field_word(f, GS_LINE_LEAF_GEN(f->groups, l), 0u);
}
GS_DEVICE GS_GLOBAL gs_word *gs_release_line(const gs_grid *g, gs_u32 l)
{
    return gs_release_line_of(gs_f(g), l);
}

/* The others wait until the counter (or, with lines, their release line) shows `bit`. */
GS_DEVICE gs_u32 gs_flip_await(gs_grid *g, GS_GLOBAL gs_word *counter, gs_u32 bit, int lines)
{
    return gs_wait(g, lines ? gs_release_line(g, gs_aux_own(g)) : counter, bit, GS_UNTIL_FLIP);
}

/* The last arriver of a flip counter ends the episode, whose flip bit is `bit`. With
 * release lines, one fence acquires the others' writes and releases the lines' plain
 * stores (one fence for every line, where a release store per line would fence each). */
GS_DEVICE void gs_flip_release_lines(gs_grid *g, gs_u32 bit)
{
    gs_fence_acq_rel();
    for (gs_u32 l = 0u; l < gs_aux_count(g); ++l)
        gs_store_fenced(gs_release_line(g, l), bit);
}

/* A representative's flip arrival (flip, cluster): its release add `add` at the counter
 * (the value before it goes into t->before, for the wait to decode), its progress note,
 * and with release lines the last arriver's release, in the arrival so that the
 * split-phase form releases at gs_arrive. Polling the counter, nothing here reads the
 * add's result: the note goes out while the add is in flight (branching on the result
 * first cost ~35 ns at 132 blocks on an H200), and the split phase's work after
 * gs_arrive runs meanwhile. With lines, the note follows the lines' fence, which would
 * otherwise wait for it. */
GS_DEVICE void gs_flip_arrive_rep(gs_grid *g, gs_token *t, gs_u32 add, int lines)
{
    t->before = gs_fetch_add_release(gs_word_at(g, GS_LINE_COUNTER, 0u), add);
    if (!lines) { /* two paths: else the compiler reads the result before the note */
        gs_note_arrival(g);
        return;
    }
    if (gs_flip_completed(t->before, add))
        gs_flip_release_lines(g, t->target);
    gs_note_arrival(g);
}

/* The waiting half for flip and cluster: the last arriver (the representative whose add
 * `add` completed the episode) acquires (when the counter is polled: with lines it did
 * in gs_flip_arrive_rep); the others wait until the counter, or their release line, shows
 * the episode's flip bit. */
GS_DEVICE gs_u32 gs_flip_settle(gs_grid *g, const gs_token *t, gs_u32 add, int lines)
{
    if (gs_flip_completed(t->before, add)) {
        if (!lines)
            gs_fence_acquire(); /* the earlier arrivals' writes; its own went with its add */
        return GS_ABORT_NONE;
    }
    return gs_flip_await(g, gs_word_at(g, GS_LINE_COUNTER, 0u), t->target, lines);
}

/* The release form and its lines, from the header (cluster shares it), and the first
 * poll's delay in `share`: read once here, where a load of the header at every episode
 * went to L2 (the acquire fence of the episode before invalidates the SM's L1). */
GS_DEVICE void gs_flip_setup(gs_grid_fields *f)
{
    f->aux = gs_aux_make(gs_load_header(&f->state[GS_HDR_LEAVES]),
                         gs_load_header(&f->state[GS_HDR_RELEASE]) == GS_RELEASE_LINES);
    f->share = gs_load_header(&f->state[GS_HDR_FIRST_POLL]);
}

/* What this group adds to the flip counter, from its fields or the grid. */
GS_DEVICE gs_u32 gs_flip_share_of(const gs_grid_fields *f)
{
    return gs_flip_share(f->groups - GS_EARLY, f->group == 0u);
}
GS_DEVICE gs_u32 gs_flip_group_share(const gs_grid *g) { return gs_flip_share_of(gs_f(g)); }

/* The representative's halves (after the arrival's group barrier, before the verdict),
 * with the launch's test (GS_REP_ONLY_flip); auto calls them too. */
GS_DEVICE void gs_flip_arrive_first(gs_grid *g, gs_token *t)
{
    if (gs_rep_launch_bad(t, g) != GS_ABORT_NONE)
        return;
    t->target = gs_flip_bit_after(g);
    gs_flip_arrive_rep(g, t, gs_flip_group_share(g), gs_aux_lines(g));
}
GS_DEVICE gs_u32 gs_flip_wait_first(gs_grid *g, const gs_token *t)
{
    return t->why != GS_ABORT_NONE ? t->why
                                   : gs_flip_settle(g, t, gs_flip_group_share(g), gs_aux_lines(g));
}

/* The representative's part of gs_arrive_last_flip (gridsync/barrier.h): its arrival,
 * and whether its add completed the episode, then acquiring the others' writes as the
 * last arriver's wait does. */
GS_DEVICE int gs_flip_last_first(gs_grid *g, gs_token *t)
{
    gs_flip_arrive_first(g, t);
    if (t->why != GS_ABORT_NONE || !gs_flip_completed(t->before, gs_flip_group_share(g)))
        return 0;
    if (!gs_aux_lines(g))
        gs_fence_acquire(); /* with lines it acquired in gs_flip_arrive_rep */
    return 1;
}

#define GS_REP_ONLY_flip 1
GS_DEVICE void gs_flip_arrive(gs_grid *g, gs_token *t)
{
    gs_group_barrier();
    if (gs_g_first(g))
        gs_flip_arrive_first(g, t);
}

GS_DEVICE gs_u32 gs_flip_wait(gs_grid *g, const gs_token *t)
{
    return gs_group_verdict(g, gs_g_first(g) ? gs_flip_wait_first(g, t) : GS_ABORT_NONE);
}

#if defined(GS_EPISODE_IN_ONE_PIECE) && GS_EPISODE_IN_ONE_PIECE
/* The whole episode (gs_sync_flip) in one piece, for the representative's path, from a
 * copy of the group's fields taken in one round of shared loads. From the halves, the
 * add was warp-aggregated (the kept representative test) and its broadcast waited for the
 * add's round trip, and only then did the note and the wait load the fields again from
 * shared memory (a chain of two or three dependent shared loads, ~40-50 ns on an H200)
 * before the first poll could be issued: 2-2.2% behind grid.sync() at 132 and 264 blocks
 * in the user's Jacobi kernel (512^2, H200), whose add is followed by its poll at once.
 * In one piece flip is level with grid.sync() there, but at 528 and 1056 blocks polling
 * at once cost 4% (the polls of more groups queue at the counter's L2 slice beside the
 * adds still to come): the representative then sleeps `share` ns before its first poll
 * (GS_HDR_FIRST_POLL, the host's choice by groups per SM, option first_poll_ns). Polling
 * more often does the opposite of good: two or three polls in flight at once, issued
 * 50-200 ns apart, cost 3-19% at 132-264 blocks and 37-82% at 1056 (512^2; bench/micro/
 * jacobi_barriers.cu, pipe*, H200). Not kept (docs/performance.md, fifteenth round):
 * reading the fields before the group barrier (1-5% slower), a wait whose first 15 failed
 * polls do nothing else (level). The poll's address made after the add measured level
 * and stays: six instructions fewer before the last arrival's add. It runs on the
 * representative's whole warp, every lane alike (gs_rep_warp: lane 0 adds, all poll; the
 * CUDA shim says why). Its arrival is gs_flip_arrive_rep's and its wait gs_flip_settle's;
 * the halves make their addresses after the add, where the split form's work overlaps it
 * (a shared helper taking the addresses made PoCL 3.1 fail to build the halves). */
GS_DEVICE gs_u32 gs_flip_episode_of(gs_grid *g, gs_token *t, const gs_grid_fields *f)
{
    gs_u32 add = gs_flip_share_of(f);
    t->why = gs_bad_of(f->aux); /* gs_rep_launch_bad */
    if (t->why != GS_ABORT_NONE) {
        if (gs_g_first(g))
            gs_bad_told(g, t->why);
        return t->why;
    }
    t->before = gs_rep_warp_add_release(gs_field_word(f, GS_LINE_COUNTER, 0u), add);
    /* The rest is made while the add is in flight (before it, the poll's address put a
     * branch and six instructions ahead of the last arrival's add). */
    int lines = (f->aux & GS_AUX_LINES) != 0u;
    gs_u32 noted = f->episode + 1u;
    t->target = noted << 31;
    int completed = gs_flip_completed(t->before, add);
    if (lines && completed)
        gs_flip_release_lines(g, t->target);
    gs_store_relaxed(gs_note_word_of(f), noted); /* gs_note_arrival */
    if (completed) {
        if (!lines)
            gs_fence_acquire(); /* as gs_flip_settle */
        return GS_ABORT_NONE;
    }
    if (f->share != 0u) /* the first poll's delay (gs_flip_setup) */
        gs_pause(1u, f->share);
    return gs_rep_warp_wait(g,
                            lines ? gs_release_line_of(f, f->aux & GS_AUX_OWN_MASK)
                                  : gs_field_word(f, GS_LINE_COUNTER, 0u),
                            t->target, GS_UNTIL_FLIP);
}
/* The fields copied at once (one round of shared loads), then the episode from them;
 * auto reads its choice from the same copy (gridsync/barrier.h), where reading it first
 * put a second round of shared loads before the add. */
GS_DEVICE gs_u32 gs_flip_episode_first(gs_grid *g, gs_token *t)
{
    gs_grid_fields f = *gs_f(g);
    return gs_flip_episode_of(g, t, &f);
}
GS_DEVICE gs_u32 gs_flip_episode(gs_grid *g, gs_token *t)
{
    gs_group_barrier();
    return gs_group_verdict(g, gs_rep_warp() ? gs_flip_episode_first(g, t) : GS_ABORT_NONE);
}
#else
/* Elsewhere from the halves: PoCL 3.1 fails to build the kernel of one piece with one
 * work-item a group ("Could not find a dominating alternative variable"), and the cpu
 * and OpenCL shims have no first-poll sleep to gain. */
GS_EPISODE_FROM_HALVES(flip)
#endif

#endif
