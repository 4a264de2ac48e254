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
 * it.) A group must finish its tile before it takes the next ticket with gs_local_next;
 * gs_local_order takes one ahead, safely (below).
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
 * (each has a group barrier, as __syncthreads), but the tagged words' gs_local_put and
 * gs_local_get* (below), which are per work-item. A progress word is written by one group
 * at a time (its owner); values are 1 .. GS_LOCAL_MAX_VALUE and only grow within a
 * launch (a row's tiles done, a tile's sweeps done); waiting for value 0 returns at
 * once. Needs a shim (gridsync/cuda.cuh, cpu.h, opencl.clh include this file). */
#ifndef GRIDSYNC_LOCAL_H
#define GRIDSYNC_LOCAL_H

#include "gridsync/grid.h"
#include "gridsync/local_state.h"

/* What a back end's compiler needs after a wait's share (OpenCL: a second share). */
#ifndef GS_LOCAL_WAIT_END
#define GS_LOCAL_WAIT_END(L) ((void)0)
#endif

/* Words of group memory GS_GROUP_SCRATCH declares: gs_local_share's two slots. */
#define GS_GROUP_SCRATCH_WORDS 2u

typedef struct gs_local {
    GS_GLOBAL gs_word *state;
#if defined(GS_HAVE_WORD64)
    GS_GLOBAL gs_word64 *tagged; /* the state's tagged words (gs_local_tagged) */
#endif
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
    L.bad = gs_load_header(&state[GS_HDR_MAGIC]) != GS_LOCAL_MAGIC;
    L.base = L.bad ? 0u : gs_load_header(&state[GS_HDR_LOCAL_EPOCH]) << GS_LOCAL_VALUE_BITS;
#if defined(GS_HAVE_WORD64) /* past the progress words */
    gs_u32 words = L.bad ? 0u : gs_load_header(&state[GS_HDR_LOCAL_WORDS]);
    L.tagged = (GS_GLOBAL gs_word64 *)(state + GS_WORD(GS_LOCAL_LINE_TAGGED(words), 0u));
#endif
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

/* gs_local_next in two halves, so that a ticket's round trip overlaps a tile instead of
 * lying between two: gs_local_order issues the representative's add (and its read of
 * the abort word) and returns without waiting for either (only the representative's
 * value means anything; nothing stalls until gs_local_take uses it); gs_local_take,
 * after the tile, shares the ticket with the group (GS_LOCAL_END if a wait anywhere had
 * given up when it was ordered). Both by every work-item, in pairs:
 *
 *     gs_local_ticket next = gs_local_order(&L);
 *     for (gs_u32 t = gs_local_take(&L, next);; t = gs_local_take(&L, next)) {
 *         if (!gs_local_diagonal(t, rows, cols, &i, &j)) break;
 *         next = gs_local_order(&L);   // the next ticket, while this tile runs
 *         ... wait for (i, j)'s inputs, compute it, publish it ...
 *     }
 *
 * A group then holds one ticket ahead while it works its current tile. Deadlock freedom
 * is kept: its tickets are still worked in increasing order, so the smallest unfinished
 * ticket is still its holder's current tile, whose dependencies (smaller tickets) are
 * finished (models/local.pml, AHEAD=1, checks it with one slot). Where groups are about
 * as many as a diagonal's tiles, a group takes its next tile only when it ends one, and
 * the ticket's two round trips lay on the critical path (apps/nw). Unlike gs_local_next,
 * an order made after an abort still adds (the ticket is dropped at the take). */
typedef struct gs_local_ticket {
    gs_u32 ticket, abort;
} gs_local_ticket;
GS_DEVICE gs_local_ticket gs_local_order(gs_local *L)
{
    gs_local_ticket o;
    o.ticket = GS_LOCAL_END;
    o.abort = GS_ABORT_NONE;
    if (gs_local_first() && !L->bad) {
        o.ticket = gs_fetch_add_relaxed(&L->state[GS_WORD(GS_LOCAL_LINE_TICKET, 0u)], 1u);
        o.abort = gs_load_relaxed(&L->state[GS_WORD(GS_LINE_ABORT, GS_ABORT_REASON)]);
    }
    return o;
}
GS_DEVICE gs_u32 gs_local_take(gs_local *L, gs_local_ticket o)
{
    return gs_local_share(L, o.abort == GS_ABORT_NONE ? o.ticket : GS_LOCAL_END);
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
/* The last diagonal d in [lo, hi] with before(d) <= t, given before(lo) <= t. */
GS_DEVICE gs_u32 gs_local_bisect(gs_u32 t, gs_u32 rows, gs_u32 cols, gs_u32 lo, gs_u32 hi)
{
    while (lo < hi) {
        gs_u32 mid = lo + (hi - lo + 1u) / 2u;
        if (gs_local_before(mid, rows, cols) <= t)
            lo = mid;
        else
            hi = mid - 1u;
    }
    return lo;
}
/* Tile (i, j) of diagonal d for ticket t (before(d) <= t < before(d + 1)). */
GS_DEVICE int gs_local_tile_of(gs_u32 t, gs_u32 rows, gs_u32 cols, gs_u32 d, gs_u32 *i, gs_u32 *j)
{
    gs_u32 first = d >= cols ? d - cols + 1u : 0u; /* the diagonal's smallest i */
    *i = first + (gs_u32)(t - gs_local_before(d, rows, cols));
    *j = d - *i;
    return 1;
}
GS_DEVICE int gs_local_diagonal(gs_u32 t, gs_u32 rows, gs_u32 cols, gs_u32 *i, gs_u32 *j)
{
    if (rows == 0u || cols == 0u || (gs_u64)t >= (gs_u64)rows * cols)
        return 0;
    return gs_local_tile_of(t, rows, cols, gs_local_bisect(t, rows, cols, 0u, rows + cols - 2u), i,
                            j);
}

/* gs_local_diagonal for a group's tickets in turn: *d holds the diagonal of the group's
 * previous ticket (0 before its first) and is set to t's. A group's tickets grow, so t's
 * diagonal is not before *d: the search gallops forward from there (1, 2, 4, ...
 * diagonals) and bisects the last step, a few evaluations where a group's next ticket
 * is a diagonal or two on, where the bisection over every diagonal took eleven at 1024
 * tiles a side (NW's local-tagged tile loop, apps/nw, on its critical path). A *d past
 * t's diagonal is not trusted: the search starts from 0. */
GS_DEVICE int gs_local_diagonal_from(gs_u32 t, gs_u32 rows, gs_u32 cols, gs_u32 *d, gs_u32 *i,
                                     gs_u32 *j)
{
    if (rows == 0u || cols == 0u || (gs_u64)t >= (gs_u64)rows * cols)
        return 0;
    gs_u32 last = rows + cols - 2u, lo = *d, step = 1u;
    if (lo > last || gs_local_before(lo, rows, cols) > t)
        lo = 0u;
    /* step stops at 2^31 (it would wrap past it), bounded by the diagonals left */
    while (step <= last - lo && gs_local_before(lo + step, rows, cols) <= t) {
        lo += step;
        step = step < 0x80000000u ? step * 2u : step;
    }
    *d = gs_local_bisect(t, rows, cols, lo, step <= last - lo ? lo + step - 1u : last);
    return gs_local_tile_of(t, rows, cols, *d, i, j);
}

/* A wait that gave up: the first to, names itself and what it waited for (`tagged`: a
 * tagged word's index and the seqs of its tag, else a progress word's and values). */
GS_COLD_ABORT void gs_local_raise(const gs_local *L, gs_u32 word, gs_u32 value, gs_u32 seen,
                                  gs_u32 tagged)
{
    GS_GLOBAL gs_word *line = L->state + GS_WORD(GS_LINE_ABORT, 0u);
    if (gs_cas_relaxed(&line[GS_ABORT_REASON], 0u, GS_ABORT_TIMEOUT) == 0u) {
        gs_store_relaxed(&line[GS_ABORT_GROUP], gs_group_id());
        gs_store_relaxed(&line[GS_ABORT_ITEM], gs_local_id());
        gs_store_relaxed(&line[GS_ABORT_EPISODE], word);
        gs_store_relaxed(&line[GS_ABORT_AWAITED], value);
        gs_store_relaxed(&line[GS_ABORT_SEEN],
                         (seen & ~GS_LOCAL_MAX_VALUE) == L->base ? seen & GS_LOCAL_MAX_VALUE : 0u);
        gs_store_relaxed(&line[GS_ABORT_TAGGED], tagged);
    }
}
/* The target of waiting for `value` of this launch (GS_EARLY: the weakened build takes
 * one value early), or 0: not awaited. */
GS_DEVICE gs_u32 gs_local_target(const gs_local *L, gs_u32 value)
{
    value = (value & GS_LOCAL_MAX_VALUE) - (value ? GS_EARLY : 0u);
    return value != 0u ? L->base | value : 0u;
}

/* A word's load of one look, taken where it reached its target (the target then 0: not
 * loaded again). */
GS_DEVICE void gs_local_seen(gs_u32 x, gs_u32 *target)
{
    if (*target != 0u && gs_ready(x, *target, GS_UNTIL_REACHED, 0u))
        *target = 0u;
}

/* One look of a wait: every word still awaited is loaded before any is tested, so
 * their round trips overlap (SOR's tile waits for four words: one after another they
 * were four L2 round trips and four acquire fences a tile, on the critical path). 1
 * once no word is awaited. */
GS_DEVICE int gs_local_reached(const gs_local *L, gs_u32 w0, gs_u32 *t0, gs_u32 w1, gs_u32 *t1,
                               gs_u32 w2, gs_u32 *t2, gs_u32 w3, gs_u32 *t3)
{
    gs_u32 x0 = *t0 != 0u ? gs_poll_load(gs_local_word(L, w0)) : 0u;
    gs_u32 x1 = *t1 != 0u ? gs_poll_load(gs_local_word(L, w1)) : 0u;
    gs_u32 x2 = *t2 != 0u ? gs_poll_load(gs_local_word(L, w2)) : 0u;
    gs_u32 x3 = *t3 != 0u ? gs_poll_load(gs_local_word(L, w3)) : 0u;
    gs_local_seen(x0, t0);
    gs_local_seen(x1, t1);
    gs_local_seen(x2, t2);
    gs_local_seen(x3, t3);
    return (*t0 | *t1 | *t2 | *t3) == 0u;
}

/* A wait's look, every 16th failed poll: a timeout names the first word still awaited
 * and the value it waited for. */
GS_COLD gs_u32 gs_local_look(const gs_local *L, gs_spin_seen seen, gs_u32 w0, gs_u32 t0, gs_u32 w1,
                             gs_u32 t1, gs_u32 w2, gs_u32 t2, gs_u32 w3, gs_u32 t3)
{
    gs_u32 why = gs_look_at(seen);
    if (why == GS_ABORT_TIMEOUT) {
        gs_u32 word = t0 != 0u ? w0 : t1 != 0u ? w1 : t2 != 0u ? w2 : w3;
        gs_u32 target = t0 != 0u ? t0 : t1 != 0u ? t1 : t2 != 0u ? t2 : t3;
        gs_local_raise(L, word, target & GS_LOCAL_MAX_VALUE,
                       gs_load_relaxed(gs_local_word(L, word)), 0u);
    }
    return why;
}

/* The representative's bounded wait for up to four words at once (target 0: not
 * awaited), then one acquire for all of them. */
GS_DEVICE gs_u32 gs_local_poll(const gs_local *L, gs_u32 w0, gs_u32 t0, gs_u32 w1, gs_u32 t1,
                               gs_u32 w2, gs_u32 t2, gs_u32 w3, gs_u32 t3)
{
    GS_BOUNDED_SPIN(gs_local_reached(L, w0, &t0, w1, &t1, w2, &t2, w3, &t3), L->state,
                    gs_local_look(L, gs_spin, w0, t0, w1, t1, w2, t2, w3, t3));
}

/* Waits until progress word w0 holds at least v0, w1 at least v1, ... (a value 0: that
 * word is not waited for), then every write the group owning each word made before its
 * signal is visible to every work-item of this group. The words are polled together:
 * one round trip a look and one acquire, whatever their number. 0, or (the same on
 * every work-item) why the group must leave: GS_ABORT_TIMEOUT, GS_ABORT_PEER (another
 * wait gave up), GS_ABORT_BAD_STATE. */
GS_DEVICE gs_u32 gs_local_wait4(gs_local *L, gs_u32 w0, gs_u32 v0, gs_u32 w1, gs_u32 v1, gs_u32 w2,
                                gs_u32 v2, gs_u32 w3, gs_u32 v3)
{
    gs_u32 why = L->bad ? GS_ABORT_BAD_STATE : GS_ABORT_NONE;
    if (gs_local_first() && why == GS_ABORT_NONE) {
        gs_u32 t0 = gs_local_target(L, v0), t1 = gs_local_target(L, v1);
        gs_u32 t2 = gs_local_target(L, v2), t3 = gs_local_target(L, v3);
        if ((t0 | t1 | t2 | t3) != 0u)
            why = gs_local_poll(L, w0, t0, w1, t1, w2, t2, w3, t3);
    }
    why = gs_local_share(L, why);
    GS_LOCAL_WAIT_END(L);
    return why;
}
GS_DEVICE gs_u32 gs_local_wait2(gs_local *L, gs_u32 w1, gs_u32 v1, gs_u32 w2, gs_u32 v2)
{
    return gs_local_wait4(L, w1, v1, w2, v2, w1, 0u, w1, 0u);
}
GS_DEVICE gs_u32 gs_local_wait(gs_local *L, gs_u32 word, gs_u32 value)
{
    return gs_local_wait4(L, word, value, word, 0u, word, 0u, word, 0u);
}

/* Progress word `word` := value, after every work-item's writes so far: the group
 * barrier orders them before the representative's release. */
GS_DEVICE void gs_local_signal(gs_local *L, gs_u32 word, gs_u32 value)
{
    gs_group_barrier();
    if (gs_local_first() && !L->bad)
        gs_store_release(gs_local_word(L, word), L->base | (value & GS_LOCAL_MAX_VALUE));
}

/* ---- Tagged words: a value that carries its own proof of freshness ----
 *
 *     lane k of the producer:  gs_local_put(&L, gs_local_tagged(&L, k), seq, value);
 *     lane k of the consumer:  why = gs_local_get(&L, gs_local_tagged(&L, k), seq, &value);
 *                              if (gs_local_agree(&L, why)) return;   // the group leaves
 *
 * gs_local_put stores `value` and the tag (this launch's epoch | seq) in ONE 64-bit word,
 * with one relaxed store; gs_local_get polls the word with relaxed loads until the tag
 * read is the one awaited, and takes the value from the low half of that same load. Per
 * work-item, no group barrier inside: lane k of a group polls word k while the other
 * lanes poll theirs, so a warp's loads are in flight together (one round trip for the
 * tile's whole boundary, where gs_local_wait's representative polls, acquires, and only
 * then may the group load what the producer wrote: a second round trip).
 *
 * Why no fence and no flag are needed. Every access to a tagged word is atomic and of
 * the same 8 aligned bytes: on CUDA ld/st.relaxed.gpu.b64, morally strong with each
 * other, which PTX performs with single-copy atomicity (they are how the PTX ABI maps
 * C++'s relaxed 64-bit atomic load and store); on the cpu C11 atomics; on OpenCL its
 * 64-bit atomics. So a load takes all 64 bits from exactly one store. Within a launch
 * each (word, seq) pair is put once (the rule below), so a load that sees the awaited
 * tag reads from that one put, and its low half is the value the put wrote: value and
 * proof arrive in the same access. The consumer reads nothing else of the producer's (each of its inputs comes
 * in a word of its own, with its own tag), so no happens-before between the two is
 * needed: no release, no acquire, no fence waiting for the producer's other stores. What
 * a get does not give is anything beyond its word: the producer's other writes (a
 * result matrix) are not ordered before its put; read them after the launch, or order
 * them with gs_local_signal and gs_local_wait.
 *
 * Tags: seq is 1 .. GS_LOCAL_MAX_VALUE; the tag holds the launch's epoch above it like a
 * progress value, so words left by earlier launches never match and need no clearing
 * (gs_local_prepare clears them when the epoch wraps). A get waiting for seq 0 returns
 * at once (nothing awaited; its value is left as it was).
 *
 * Reuse within a launch: one word may carry values seq 1, 2, 3, ... if one work-item
 * alone gets seq s, and it is the one that puts seq s + 1, after its get (coherence
 * orders one work-item's read of a location before its later write there): then no put
 * overwrites a value before its consumer has read it, and a get of seq s never meets a
 * later seq.
 * (apps/nw: tile (i, j) gets seq i of its column's bottom-row words and puts seq i + 1
 * for the tile below.) Otherwise give each (word, seq) a word of its own.
 *
 * Bounded as every wait here: a get that times out raises the abort naming the group,
 * the work-item, the tagged word's index, and the seqs awaited and last seen
 * (gs_local_abort_info: tagged = 1); every other get ends at its next look. A get
 * returns 0 or why its work-item must leave; gs_local_agree then makes that the group's
 * verdict. Only where the shim has 64-bit atomic words (GS_HAVE_WORD64: CUDA, the cpu;
 * OpenCL with cl_khr_int64_base_atomics). */
#if defined(GS_HAVE_WORD64)

/* The test suite's weakened build (GS_WEAKEN_TAG) takes a tag one seq early. */
#ifndef GS_TAG_EARLY
#define GS_TAG_EARLY 0u
#endif

/* Tagged word k of the state (gs_local_create_tagged made the state with at least k + 1). */
GS_DEVICE GS_GLOBAL gs_word64 *gs_local_tagged(const gs_local *L, gs_u32 k)
{
    return L->tagged + k;
}

/* The tag of seq in this launch, or 0 (nothing awaited) for seq 0. */
GS_DEVICE gs_u32 gs_local_tag(const gs_local *L, gs_u32 seq)
{
    seq &= GS_LOCAL_MAX_VALUE;
    return seq != 0u ? L->base | seq : 0u;
}

/* Word w := value, tagged seq of this launch: one relaxed 64-bit store. */
GS_DEVICE void gs_local_put(const gs_local *L, GS_GLOBAL gs_word64 *w, gs_u32 seq, gs_u32 value)
{
    if (!L->bad)
        gs_store64_relaxed(w, ((gs_u64)gs_local_tag(L, seq) << 32) | value);
}

/* One look of a get: loads every word still awaited (tag != 0), all before any test so
 * that their round trips overlap, then takes each whose tag is the one awaited (its
 * value out, its tag 0: not loaded again). 1 once nothing is awaited. */
GS_DEVICE int gs_local_took(GS_GLOBAL gs_word64 *w0, gs_u32 *t0, gs_u32 *v0,
                            GS_GLOBAL gs_word64 *w1, gs_u32 *t1, gs_u32 *v1,
                            GS_GLOBAL gs_word64 *w2, gs_u32 *t2, gs_u32 *v2)
{
    gs_u64 x0 = *t0 != 0u ? gs_load64_relaxed(w0) : 0u;
    gs_u64 x1 = *t1 != 0u ? gs_load64_relaxed(w1) : 0u;
    gs_u64 x2 = *t2 != 0u ? gs_load64_relaxed(w2) : 0u;
    if (*t0 != 0u && *t0 - (gs_u32)(x0 >> 32) <= GS_TAG_EARLY) {
        *v0 = (gs_u32)x0;
        *t0 = 0u;
    }
    if (*t1 != 0u && *t1 - (gs_u32)(x1 >> 32) <= GS_TAG_EARLY) {
        *v1 = (gs_u32)x1;
        *t1 = 0u;
    }
    if (*t2 != 0u && *t2 - (gs_u32)(x2 >> 32) <= GS_TAG_EARLY) {
        *v2 = (gs_u32)x2;
        *t2 = 0u;
    }
    return (*t0 | *t1 | *t2) == 0u;
}

/* A get's look, every 16th failed poll: a timeout names the first word still awaited,
 * the seq awaited and the one it holds. */
GS_COLD gs_u32 gs_local_get_look(const gs_local *L, gs_spin_seen seen, GS_GLOBAL gs_word64 *w0,
                                 gs_u32 t0, GS_GLOBAL gs_word64 *w1, gs_u32 t1,
                                 GS_GLOBAL gs_word64 *w2, gs_u32 t2)
{
    gs_u32 why = gs_look_at(seen);
    if (why == GS_ABORT_TIMEOUT) {
        GS_GLOBAL gs_word64 *w = t0 != 0u ? w0 : t1 != 0u ? w1 : w2;
        gs_u32 t = t0 != 0u ? t0 : t1 != 0u ? t1 : t2;
        gs_local_raise(L, (gs_u32)(w - L->tagged), t & GS_LOCAL_MAX_VALUE,
                       (gs_u32)(gs_load64_relaxed(w) >> 32), 1u);
    }
    return why;
}

/* Up to three words in one bounded wait (a seq of 0: that word is not awaited), each
 * polled until it holds its seq of this launch, its value then into *v0, *v1, *v2. 0,
 * or why this work-item must leave (GS_ABORT_TIMEOUT, GS_ABORT_PEER,
 * GS_ABORT_BAD_STATE); the values of words not taken are left as they were. */
GS_DEVICE gs_u32 gs_local_get3(const gs_local *L, GS_GLOBAL gs_word64 *w0, gs_u32 s0, gs_u32 *v0,
                               GS_GLOBAL gs_word64 *w1, gs_u32 s1, gs_u32 *v1,
                               GS_GLOBAL gs_word64 *w2, gs_u32 s2, gs_u32 *v2)
{
    if (L->bad)
        return GS_ABORT_BAD_STATE;
    gs_u32 t0 = gs_local_tag(L, s0), t1 = gs_local_tag(L, s1), t2 = gs_local_tag(L, s2);
    GS_BOUNDED_SPIN_THEN(gs_local_took(w0, &t0, v0, w1, &t1, v1, w2, &t2, v2), L->state,
                         gs_local_get_look(L, gs_spin, w0, t0, w1, t1, w2, t2), (void)0);
}
GS_DEVICE gs_u32 gs_local_get2(const gs_local *L, GS_GLOBAL gs_word64 *w0, gs_u32 s0, gs_u32 *v0,
                               GS_GLOBAL gs_word64 *w1, gs_u32 s1, gs_u32 *v1)
{
    return gs_local_get3(L, w0, s0, v0, w1, s1, v1, w0, 0u, v0);
}
GS_DEVICE gs_u32 gs_local_get(const gs_local *L, GS_GLOBAL gs_word64 *w, gs_u32 seq, gs_u32 *value)
{
    return gs_local_get3(L, w, seq, value, w, 0u, value, w, 0u, value);
}

#endif

/* The group's verdict after its work-items' own waits (gs_local_get*): a group barrier
 * (two on OpenCL, whose shim ORs in group memory) after which every work-item has 0 when
 * every `why` was 0, else its own why or GS_ABORT_PEER. Every work-item calls it. */
GS_DEVICE gs_u32 gs_local_agree(gs_local *L, gs_u32 why)
{
#if defined(GS_GROUP_ANY_IN_MEMORY)
    GS_SCRATCH_PTR slot = L->scratch + L->turn; /* cleared as gs_local_share writes a slot */
    L->turn ^= 1u;
    if (gs_local_first())
        *slot = 0u;
    gs_group_barrier();
    if (why != 0u)
        gs_scratch_set(slot);
    gs_group_barrier();
    gs_u32 any = *slot;
#else
    gs_u32 any = gs_group_any(why != 0u, L->scratch) ? 1u : 0u;
#endif
    return any != 0u ? (why != 0u ? why : GS_ABORT_PEER) : GS_ABORT_NONE;
}

#endif
