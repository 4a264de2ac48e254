/* gridsync/local.h - local (point-to-point) synchronization between groups, for
 * wavefronts: a group waits only for the tiles its tile depends on, not for the grid.
 *
 *     GS_GROUP_SCRATCH(scratch);                      // kernel scope (OpenCL wants it)
 *     gs_local L = gs_local_begin(state, scratch);
 *     for (;;) {
 *         gs_u32 t = gs_local_next(&L), i, j;         // a ticket, in dependency order
 *         if (!gs_local_diagonal(t, rows, cols, &i, &j))
 *             break;                                  // no tile left (or an abort)
 *         if (gs_local_wait2(&L, (i - 1) * cols + j, i > 0, i * cols + j - 1, j > 0))
 *             return;                                 // a wait gave up: leave
 *         compute_tile(i, j);
 *         gs_local_signal(&L, i * cols + j, 1);       // my tile's writes, then "done"
 *     }
 *
 * No co-residency needed, for any grid and any number of tiles (one group included):
 * groups take tickets from one counter in an order where every tile's dependencies have
 * smaller tickets (gs_local_diagonal: anti-diagonals; or a row of tiles a ticket,
 * PeerWave's row allocation, waiting on the row above). A group waits only for tiles
 * whose tickets were taken before its own, by groups that are running (a group that
 * took a ticket is resident, and a resident group runs to its end); the holder of the
 * smallest unfinished ticket waits for nothing unfinished, so it finishes, and by
 * induction every ticket does. (models/local.pml checks this, and the mutants that break
 * it.) A group must finish its tile before it takes the next ticket.
 *
 * Ordering: gs_local_signal is a release by the group's representative after a group
 * barrier (every work-item's writes of the tile come before it); gs_local_wait's
 * representative takes the acquire, and its group barrier passes it to the group.
 * Every wait is bounded by the state's timeout (gs_local_set_timeout): one that expires
 * raises the abort naming the group, the work-item, the progress word and the value it
 * waited for; every other wait then ends at its next look and gs_local_next hands out
 * no more tickets. The host reads the verdict with gs_local_collect.
 *
 * Every work-item of the group calls every function here, the same number of times
 * (each has a group barrier, as __syncthreads). A progress word is written by one group
 * at a time (its owner); values are 1 .. GS_LOCAL_MAX_VALUE and only grow within a
 * launch (a row's tiles done, a tile's sweeps done); waiting for value 0 returns at
 * once. Needs a shim (gridsync/cuda.cuh, cpu.h, opencl.clh include this file). */
#ifndef GRIDSYNC_LOCAL_H
#define GRIDSYNC_LOCAL_H

#include "gridsync/grid.h"
#include "gridsync/local_state.h"

/* Words of group memory GS_GROUP_SCRATCH declares: gs_local_share's two slots. */
#define GS_GROUP_SCRATCH_WORDS 2u

typedef struct gs_local {
    GS_GLOBAL gs_word *state;
    GS_SCRATCH_PTR scratch;
    gs_u32 base; /* this launch's epoch, shifted above the values */
    gs_u32 turn; /* the scratch slot the next share uses: 0 or 1 (the same on all) */
    gs_u32 bad;  /* 1: not a local synchronization state; nothing is touched */
} gs_local;

GS_DEVICE GS_GLOBAL gs_word *gs_local_word(const gs_local *L, gs_u32 word)
{
    return L->state + GS_WORD(GS_LOCAL_LINE_WORDS, 0u) + word;
}

/* The representative's value, on every work-item of the group. Two slots used in turn:
 * the representative writes one only after the group barrier that follows every read
 * of its previous use, so one group barrier a share is enough. */
GS_DEVICE gs_u32 gs_local_share(gs_local *L, gs_u32 v)
{
    GS_SCRATCH_PTR slot = L->scratch + L->turn;
    L->turn ^= 1u;
    if (gs_local_first())
        *slot = v;
    gs_group_barrier();
    return *slot;
}

/* Every work-item, once, before anything else of this file. */
GS_DEVICE gs_local gs_local_begin(GS_GLOBAL gs_word *state, GS_SCRATCH_PTR scratch)
{
    gs_local L;
    L.state = state;
    L.scratch = scratch;
    L.turn = 0u;
    L.bad = gs_load_relaxed(&state[GS_HDR_MAGIC]) != GS_LOCAL_MAGIC;
    L.base = L.bad ? 0u : gs_load_relaxed(&state[GS_HDR_LOCAL_EPOCH]) << GS_LOCAL_VALUE_BITS;
    if (!L.bad && gs_group_id() == 0u && gs_local_first()) /* the host's proof of use */
        gs_store_relaxed(&state[GS_WORD(GS_LINE_ABORT, GS_ABORT_ACK)], 1u);
    return L;
}

/* The group's next ticket, 0, 1, 2, ... in the order groups ask, or GS_LOCAL_END once a
 * wait anywhere gave up. The caller maps it to work (gs_local_diagonal, a row, ...) and
 * stops past its last tile. The add is relaxed: tickets order who works on what, and
 * the data between tiles is ordered by signal and wait. */
GS_DEVICE gs_u32 gs_local_next(gs_local *L)
{
    gs_u32 t = GS_LOCAL_END;
    if (gs_local_first() && !L->bad &&
        gs_load_relaxed(&L->state[GS_WORD(GS_LINE_ABORT, GS_ABORT_REASON)]) == GS_ABORT_NONE)
        t = gs_fetch_add_relaxed(&L->state[GS_WORD(GS_LOCAL_LINE_TICKET, 0u)], 1u);
    return gs_local_share(L, t);
}

/* Tile (i, j) of a rows x cols matrix taken by ticket t in anti-diagonal order
 * (diagonal i + j ascending, i ascending within one): every tile's upper and left
 * neighbours come earlier. 0 when t is past the last tile. The cells before diagonal d
 * are T(d) - T(d - rows) - T(d - cols) + T(d - rows - cols), T(x) = x(x+1)/2 for x > 0
 * (the triangle i + j < d less what overhangs each edge); d by bisection. */
GS_DEVICE gs_u64 gs_local_triangle(gs_u64 d, gs_u64 less)
{
    return d > less ? (d - less) * (d - less + 1u) / 2u : 0u;
}
GS_DEVICE gs_u64 gs_local_before(gs_u64 d, gs_u32 rows, gs_u32 cols)
{
    return gs_local_triangle(d, 0u) - gs_local_triangle(d, rows) - gs_local_triangle(d, cols) +
           gs_local_triangle(d, (gs_u64)rows + cols);
}
GS_DEVICE int gs_local_diagonal(gs_u32 t, gs_u32 rows, gs_u32 cols, gs_u32 *i, gs_u32 *j)
{
    if (rows == 0u || cols == 0u || (gs_u64)t >= (gs_u64)rows * cols)
        return 0;
    gs_u32 lo = 0u, hi = rows + cols - 2u; /* the diagonal: before(d) <= t < before(d+1) */
    while (lo < hi) {
        gs_u32 mid = lo + (hi - lo + 1u) / 2u;
        if (gs_local_before(mid, rows, cols) <= t)
            lo = mid;
        else
            hi = mid - 1u;
    }
    gs_u32 first = lo >= cols ? lo - cols + 1u : 0u; /* the diagonal's smallest i */
    *i = first + (gs_u32)(t - gs_local_before(lo, rows, cols));
    *j = lo - *i;
    return 1;
}

/* A wait that gave up: the first to, names itself and what it waited for. */
GS_COLD_ABORT void gs_local_raise(const gs_local *L, gs_u32 word, gs_u32 value, gs_u32 seen)
{
    GS_GLOBAL gs_word *line = L->state + GS_WORD(GS_LINE_ABORT, 0u);
    if (gs_cas_relaxed(&line[GS_ABORT_REASON], 0u, GS_ABORT_TIMEOUT) == 0u) {
        gs_store_relaxed(&line[GS_ABORT_GROUP], gs_group_id());
        gs_store_relaxed(&line[GS_ABORT_ITEM], gs_local_id());
        gs_store_relaxed(&line[GS_ABORT_EPISODE], word);
        gs_store_relaxed(&line[GS_ABORT_AWAITED], value);
        gs_store_relaxed(&line[GS_ABORT_SEEN],
                         (seen & ~GS_LOCAL_MAX_VALUE) == L->base ? seen & GS_LOCAL_MAX_VALUE : 0u);
    }
}
GS_COLD gs_u32 gs_local_look(const gs_local *L, gs_tick_t start, gs_polls_t polls, gs_u32 word,
                             gs_u32 value)
{
    gs_u32 why = gs_look_at(L->state, start, polls);
    if (why == GS_ABORT_TIMEOUT)
        gs_local_raise(L, word, value, gs_load_relaxed(gs_local_word(L, word)));
    return why;
}

/* The representative's bounded wait for one word to reach `value` of this launch. */
GS_DEVICE gs_u32 gs_local_poll(const gs_local *L, gs_u32 word, gs_u32 value)
{
    GS_GLOBAL gs_word *w = gs_local_word(L, word);
    gs_u32 target = L->base | value;
    GS_BOUNDED_SPIN(gs_ready(gs_poll_load(w), target, GS_UNTIL_REACHED, 0u),
                    &L->state[GS_HDR_BACKOFF],
                    gs_local_look(L, gs_spin_start, gs_spin_polls, word, value));
}

/* Waits until progress word w1 holds at least v1 and w2 at least v2 (a value 0: that
 * word is not waited for), then every write the group owning each word made before its
 * signal is visible to every work-item of this group. 0, or (the same on every
 * work-item) why the group must leave: GS_ABORT_TIMEOUT, GS_ABORT_PEER (another wait
 * gave up), GS_ABORT_BAD_STATE. */
GS_DEVICE gs_u32 gs_local_wait2(gs_local *L, gs_u32 w1, gs_u32 v1, gs_u32 w2, gs_u32 v2)
{
    gs_u32 why = L->bad ? GS_ABORT_BAD_STATE : GS_ABORT_NONE;
    v1 = (v1 & GS_LOCAL_MAX_VALUE) - (v1 ? GS_EARLY : 0u); /* GS_EARLY: the weakened build */
    v2 = (v2 & GS_LOCAL_MAX_VALUE) - (v2 ? GS_EARLY : 0u);
    if (gs_local_first() && why == GS_ABORT_NONE) {
        if (v1 != 0u)
            why = gs_local_poll(L, w1, v1);
        if (why == GS_ABORT_NONE && v2 != 0u)
            why = gs_local_poll(L, w2, v2);
    }
    return gs_local_share(L, why);
}
GS_DEVICE gs_u32 gs_local_wait(gs_local *L, gs_u32 word, gs_u32 value)
{
    return gs_local_wait2(L, word, value, word, 0u);
}

/* Progress word `word` := value, after every work-item's writes so far: the group
 * barrier orders them before the representative's release. */
GS_DEVICE void gs_local_signal(gs_local *L, gs_u32 word, gs_u32 value)
{
    gs_group_barrier();
    if (gs_local_first() && !L->bad)
        gs_store_release(gs_local_word(L, word), L->base | (value & GS_LOCAL_MAX_VALUE));
}

#endif
