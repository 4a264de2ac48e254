/* local.pml - model of gridsync's local (point-to-point) synchronization with
 * ticket-ordered scheduling (include/gridsync/local.h): a wavefront over an
 * R x C matrix of tiles, tile (i,j) depending on (i-1,j) and (i,j-1) where they
 * exist. Tile (i,j) is number x = i*C + j below.
 *
 * State: a ticket counter (fetch_add, relaxed), a progress word per tile (or per
 * row), the tiles' data. P groups, each one Promela process standing for its
 * representative work-item (the group's other work-items and its group barriers
 * are abstracted, as in the barrier models).
 *
 * Scheduling (SCHED):
 *   0  a ticket per tile. A group loops: t = fetch_add(ticket, 1); t >= R*C ends
 *      it. Ticket t is the t-th tile in anti-diagonal order (diagonal d = i+j
 *      ascending, within a diagonal i ascending), so every dependency of a tile
 *      has a smaller ticket. It waits (acquire polls) until flag(i-1,j) and
 *      flag(i,j-1) are set, computes the tile (reads its inputs' data, writes its
 *      own) and signals: release-store flag(i,j) = 1.
 *   1  row allocation (PeerWave): a ticket per row. The group sweeps j = 0..C-1:
 *      waits until progress[t-1] >= j+1 (acquire), computes tile (t,j),
 *      release-stores progress[t] = j+1.
 *
 * No co-residency: the device has S slots (S <= P, S = 1 included). A group
 * process takes a slot before it starts (before its first ticket) and holds it
 * until it ends: a resident block runs to completion, and the hardware starts a
 * waiting block only when a slot frees, in any order. Tickets are taken only by
 * resident groups, so the holder of the smallest unfinished ticket always has its
 * inputs computed by groups that were resident: no deadlock for any S >= 1.
 *
 * Memory ordering. Promela is sequentially consistent, so the store buffer is
 * modelled explicitly for the tiles' data: a group's write of tile x's data is
 * first *pending* (dat[x] == PENDING, owner[x] = the group: in its store buffer,
 * seen by the group itself but not by others) and becomes visible (dat[x] ==
 * VISIBLE) when the Drain process drains it, at any time, or when the group's
 * release store drains every pending write of the group first (the release: every
 * earlier write is visible before the flag is). A read of an input is fresh only
 * if the data is visible, or pending in the reader's own buffer. The acquire side
 * reads data only after its polls have seen the flag; a relaxed poll (MUTANT=4)
 * lets the data reads be satisfied before the poll, modelled by reading first.
 * Flags, progress words and the ticket are single atomic words (their own
 * coherence order; a store that is slow to show only delays a poll).
 *
 * Ghost checks (asserts):
 *   when tile x is computed: x was not computed before, and each input was
 *   computed and its data was visible to the reader when it read it;
 *   at the end (after every group ended and the buffers drained): every tile was
 *   computed and its data is visible, unless the run aborted.
 * Liveness (pan -a -f, weak fairness): <> (every group ended and every tile was
 * computed); with bounded waits: <> (every group ended).
 *
 * Bounded waits (BOUNDED=1, as gs_wait, see central_abort.pml): each failed poll
 * looks at the abort word, then at the clock; the deadline may pass at any failed
 * poll and surely passes after BUDGET failed polls of one wait. A group whose
 * deadline passed raises the abort (CAS 0 -> GS_ABORT_TIMEOUT; the first one
 * records its group and the awaited tile) and ends; one that sees the abort ends.
 * STUCK = x (implies BOUNDED=1): the producer of tile x computes it but never
 * signals it (in row allocation: its row signals nothing from x on). Spin shows
 * that every group still ends, that the abort is raised, that it names a tile the
 * raiser was waiting for (a dependency of the raiser's uncomputed tile), and that
 * no consumer of x computed. With BOUNDED=1 and no STUCK, deadlines pass
 * spuriously: everything stays safe and every group ends, all tiles computed or
 * the run aborted.
 *
 * AHEAD=1 (SCHED 0; include/gridsync/local.h's gs_local_order / gs_local_take, apps/nw's
 * local-tagged): a group takes its next ticket when it starts a tile, before it waits
 * for the tile's inputs, so that the ticket's round trip overlaps the tile. Its tickets
 * are still worked in increasing order: the smallest unfinished ticket is always its
 * holder's current tile, whose dependencies (smaller tickets) are finished. Spin checks
 * liveness with one slot (S=1: a group ahead holds a ticket while others cannot start).
 *
 * Tagged words (TAGGED=1, SCHED 0 only; include/gridsync/local.h's gs_local_put and
 * gs_local_get, apps/nw's local-tagged): no flags. Tile (i,j) puts its bottom row into
 * column j's word (seq i+1) and its right column into row i's word (seq j+1), each word
 * one atomic unit holding a seq and a value (here: the tile that put it, the ghost that
 * stands for its data); tile (i,j) polls column j's word until its seq is i and row i's
 * until it is j, then takes the value in the same atomic read. The words are reused
 * down the column and along the row: the tile that gets seq s is the one that puts seq
 * s+1. No release and no drain: the tile's data writes (the matrix) stay in the store
 * buffer, and nothing reads them but the final check. Checked: each tile takes exactly
 * its neighbours' values (ghost: the value names the producer), and a get never sees a
 * later seq than it awaits (no value overwritten before its reader took it). One word
 * per column and per row stands for a tile's B + 1 and B (each lane's word follows the
 * same hand-over).
 *
 * Mutants (spin -DMUTANT=k):
 *   1  tickets out of dependency order: the anti-diagonal order with each pair of
 *      tickets swapped (t -> t^1), so ticket 0 is tile (0,1), which depends on
 *      ticket 1. It works while two groups are co-resident (S >= 2: the wrong
 *      order is hidden by co-residency); with S = 1 the only resident group
 *      waits forever. Liveness run with S = 1: acceptance cycle.
 *   2  signal without the release: the flag store does not drain the group's
 *      buffered data writes, so a consumer can see the flag and read stale data.
 *      Safety run (S >= 2): assertion violated. (With S = 1 a single group
 *      computes every tile and reads its own buffer: nothing to see.)
 *   3  row allocation waits for progress[t-1] >= j instead of j+1 (off by one):
 *      tile (t,j) reads (t-1,j) before it is computed. Safety run (S >= 2):
 *      assertion violated.
 *   4  relaxed polls (no acquire): the data reads may be satisfied before the
 *      flag is seen. Safety run: assertion violated.
 *   5  static scheduling: group g takes tiles g, g+P, g+2P, ... (its block index)
 *      instead of tickets. Fine when all groups are co-resident; with S = 1 a
 *      resident group waits for a tile of a group that cannot start. Liveness
 *      run: acceptance cycle.
 *   6  (STUCK) the abort names the raiser's own tile instead of the awaited one.
 *      Safety run: assertion violated (the ghost check of the abort's tile).
 *   7  (STUCK) waits with no deadline, watching only the abort word, which nobody
 *      raises. Liveness run: acceptance cycle.
 *   8  (TAGGED) a get also takes the seq one before the awaited one (from seq 2 on:
 *      the test suite's GS_WEAKEN_TAG): a tile may take the value the tile two before
 *      put. Safety run: assertion violated.
 */

#ifndef R
#define R 2           /* tile rows */
#endif
#ifndef C
#define C 3           /* tile columns */
#endif
#define NT (R * C)
#ifndef P
#define P 3           /* groups */
#endif
#ifndef S
#define S 2           /* slots: groups resident at once (1 <= S <= P) */
#endif
#ifndef SCHED
#define SCHED 0       /* 0: ticket per tile, anti-diagonal order; 1: row allocation */
#endif
#ifndef TAGGED
#define TAGGED 0      /* 1: tagged words instead of flags (SCHED 0) */
#endif
#ifndef AHEAD
#define AHEAD 0       /* 1: the next ticket taken at the start of a tile (SCHED 0) */
#endif
#ifndef MUTANT
#define MUTANT 0
#endif
#define NONE 255
#ifndef STUCK
#define STUCK NONE    /* a tile whose producer never signals */
#endif
#ifndef BOUNDED
#if STUCK != NONE || MUTANT == 6 || MUTANT == 7
#define BOUNDED 1
#else
#define BOUNDED 0
#endif
#endif
#ifndef BUDGET
#define BUDGET 1      /* failed polls of one wait before its deadline surely passed */
#endif

#define GS_ABORT_TIMEOUT 1

/* data word states */
#define UNWRITTEN 0
#define PENDING 1     /* in its writer's store buffer */
#define VISIBLE 2

byte ticket;          /* gs_fetch_add_relaxed(ticket, 1) */
#if SCHED == 0 && TAGGED
byte downSeq[C];      /* column j's bottom-row word: its seq (0: nothing put yet) ... */
byte downVal[C];      /* ... and its value: the tile that put it */
byte acrossSeq[R];    /* row i's right-column word */
byte acrossVal[R];
#elif SCHED == 0
bit flag[NT];         /* per tile: 1 = signalled */
#else
byte progress[R];     /* per row: tiles of the row signalled */
#endif
byte dat[NT];         /* each tile's data: UNWRITTEN, PENDING, VISIBLE */
byte owner[NT];       /* the group that wrote it (whose buffer holds it) */
byte npending;        /* writes pending in some store buffer */
byte tileOf[NT];      /* ticket -> tile, filled by init (constant after) */
byte slots = S;       /* free slots on the device */

bit done[NT];         /* ghost: tile computed */
byte ndone;           /* ghost */
byte finished;        /* ghost: groups that ended */
#if BOUNDED
byte abortReason;     /* GS_ABORT_REASON */
byte abortGroup;      /* GS_ABORT_GROUP */
byte abortTile = NONE;   /* the awaited tile the abort names */
byte abortWaiter = NONE; /* ghost: the tile its raiser was about to compute */
byte leftEarly;       /* ghost */
#endif
hidden byte gk;       /* scratch for d_step loops; not part of the state */

/* Can group g read tile x's data fresh? Visible, or in its own store buffer. */
#define FRESH(x, g) ((x) == NONE || dat[x] == VISIBLE || (dat[x] == PENDING && owner[x] == g))

/* The release: drain group g's buffered writes (all of them, not only tile x's). */
inline drain_own(g)
{
    gk = 0;
    do
    :: gk < NT ->
        if
        :: dat[gk] == PENDING && owner[gk] == g -> dat[gk] = VISIBLE; npending--
        :: else -> skip
        fi;
        gk++
    :: else -> gk = 0; break
    od
}

/* The store buffers drain on their own, at any time (lowest pending tile first:
 * which one goes first does not matter, every check is about one tile). */
active proctype Drain()
{
end:
    do
    :: d_step {
        npending > 0;
        gk = 0;
        do
        :: dat[gk] == PENDING -> dat[gk] = VISIBLE; npending--; gk = 0; break
        :: else -> gk++
        od
       }
    od
}

/* Poll (acquire loads) until word >= target; w names the awaited tile. Bounded:
 * every failed poll looks at the abort word, then at the clock. */
inline await(word, target)
{
#if BOUNDED
    budget = BUDGET;
#endif
    do
    :: word >= target -> break
    :: else ->
#if BOUNDED
        if
        :: abortReason != 0 ->
            printf("MSG group %d sees the abort waiting for tile (%d,%d)\n", g, w / C, w % C);
            goto peer
        :: else -> skip
        fi;
#if MUTANT == 7
        skip
#else
        if
        :: budget > 0 -> budget--                   /* deadline not yet passed */
        :: true ->                                  /* deadline passed */
            printf("MSG group %d: deadline passed waiting for tile (%d,%d)\n", g, w / C, w % C);
            goto timedout
        fi
#endif
#else
        skip
#endif
    od;
    w = NONE
}

/* Read the inputs' data: fresh only if visible to g at this moment. */
inline read_inputs()
{
    d_step {
        seenUp = FRESH(up, g);
        seenLeft = FRESH(left, g)
    }
}

/* Compute tile x from its inputs, write its data (pending in g's buffer). */
inline compute()
{
    d_step {
        printf("MSG group %d computes tile (%d,%d)\n", g, x / C, x % C);
        assert(!done[x]);                           /* never computed twice */
        assert(up == NONE || done[up]);             /* inputs computed ... */
        assert(left == NONE || done[left]);
        assert(seenUp && seenLeft);                 /* ... and read fresh */
        done[x] = 1;
        ndone++;
        dat[x] = PENDING;
        owner[x] = g;
        npending++;
        seenUp = 0;
        seenLeft = 0
    }
}

/* Signal tile x (release store of its flag, or of progress[row] = j+1). */
inline signal(word, value)
{
    if
    :: (x == STUCK) || (SCHED == 1 && STUCK != NONE && x / C == STUCK / C && x >= STUCK) ->
        printf("MSG group %d never signals tile (%d,%d)\n", g, x / C, x % C)
    :: else ->
        d_step {
#if MUTANT != 2
            drain_own(g);                           /* release: data first */
#endif
            word = value
        }
    fi
}

#if TAGGED
/* Whether a get awaiting seq `want` takes a word holding seq `seq`. */
#if MUTANT == 8
#define TAKES(seq, want) ((seq) == (want) || ((want) >= 2 && (seq) + 1 == (want)))
#else
#define TAKES(seq, want) ((seq) == (want))
#endif

/* gs_local_get: poll (relaxed) until the word's seq is `want`, taking its value in the
 * same atomic read; bounded as await. A failed poll checks, in the same atomic step,
 * that the word holds an earlier seq, never a later one (the reuse rule). */
inline tget(seq, val, want, got)
{
#if BOUNDED
    budget = BUDGET;
#endif
    do
    :: atomic { TAKES(seq, want) -> got = val }; break
    :: atomic {
        !TAKES(seq, want) ->
#if MUTANT != 8
        assert(seq < want)                          /* nothing overwrote it unread */
#else
        skip
#endif
       };
#if BOUNDED
        if
        :: abortReason != 0 ->
            printf("MSG group %d sees the abort waiting for tile (%d,%d)\n", g, w / C, w % C);
            goto peer
        :: else -> skip
        fi;
        if
        :: budget > 0 -> budget--
        :: true ->
            printf("MSG group %d: deadline passed waiting for tile (%d,%d)\n", g, w / C, w % C);
            goto timedout
        fi
#else
        skip
#endif
    od;
    w = NONE
}

/* gs_local_put of tile x = (ti,j)'s bottom row and right column (where a tile reads
 * them): relaxed, one atomic word each, no drain of the group's data writes. */
inline tput(ti)
{
    if
    :: x == STUCK -> printf("MSG group %d never puts tile (%d,%d)\n", g, x / C, x % C)
    :: else ->
        if
        :: ti + 1 < R -> atomic { downSeq[j] = ti + 1; downVal[j] = x }
        :: else -> skip
        fi;
        if
        :: j + 1 < C -> atomic { acrossSeq[ti] = j + 1; acrossVal[ti] = x }
        :: else -> skip
        fi
    fi
}
#endif

proctype Group(byte g)
{
    byte t, x, j, up, left, w = NONE;
#if AHEAD
    byte ahead;
#endif
#if TAGGED
    byte ti, gotUp, gotLeft;
#endif
    bit seenUp, seenLeft;
#if BOUNDED
    byte budget;
#endif

    /* the hardware starts the block when a slot is free */
    atomic { slots > 0 -> slots--; printf("MSG group %d starts\n", g) }
#if AHEAD
    d_step { ahead = ticket; ticket++ }             /* the first ticket */
#endif
#if MUTANT == 5
    t = g;                                          /* static: its block index */
#endif
    do
    ::
#if MUTANT != 5 && AHEAD
        t = ahead;                                  /* gs_local_take */
        d_step { ahead = ticket; ticket++ }         /* gs_local_order: the next, now */
#elif MUTANT != 5
        d_step { t = ticket; ticket++ }             /* gs_fetch_add_relaxed */
#endif
#if SCHED == 0
        if
        :: t >= NT -> break
        :: else -> skip
        fi;
        x = tileOf[t];
        up = (x >= C -> x - C : NONE);
        left = (x % C != 0 -> x - 1 : NONE);
#if TAGGED
        ti = x / C;
        j = x % C;
        gotUp = NONE;
        gotLeft = NONE;
        if
        :: up != NONE -> w = up; tget(downSeq[j], downVal[j], ti, gotUp)
        :: else -> skip
        fi;
        if
        :: left != NONE -> w = left; tget(acrossSeq[ti], acrossVal[ti], j, gotLeft)
        :: else -> skip
        fi;
        seenUp = gotUp == up;                       /* the values are the neighbours' */
        seenLeft = gotLeft == left;
        compute();
        tput(ti);
        x = 0; up = 0; left = 0; ti = 0; j = 0; gotUp = 0; gotLeft = 0;
#else
#if MUTANT == 4
        read_inputs();                              /* loads hoisted above the polls */
#endif
        if
        :: up != NONE -> w = up; await(flag[up], 1)
        :: else -> skip
        fi;
        if
        :: left != NONE -> w = left; await(flag[left], 1)
        :: else -> skip
        fi;
#if MUTANT != 4
        read_inputs();
#endif
        compute();
        signal(flag[x], 1);
        x = 0; up = 0; left = 0;
#endif
#else
        if
        :: t >= R -> break
        :: else -> skip
        fi;
        j = 0;
        do
        :: j < C ->
            x = t * C + j;
            up = (t > 0 -> x - C : NONE);
            left = (j > 0 -> x - 1 : NONE);
#if MUTANT == 4
            read_inputs();
#endif
            if
            :: t > 0 ->
                w = up;
#if MUTANT == 3
                await(progress[t - 1], j)           /* off by one */
#else
                await(progress[t - 1], j + 1)
#endif
            :: else -> skip
            fi;
#if MUTANT != 4
            read_inputs();
#endif
            compute();
            signal(progress[t], j + 1);
            j++
        :: else -> break
        od;
        j = 0; x = 0; up = 0; left = 0;
#endif
#if MUTANT == 5
        t = t + P
#else
        t = 0
#endif
    od;
    goto out;

#if BOUNDED
timedout:
    /* gs_raise_abort: the first to give up records who and which tile */
    atomic {
        if
        :: abortReason == 0 ->
            abortReason = GS_ABORT_TIMEOUT;
            abortGroup = g;
#if MUTANT == 6
            abortTile = x;                          /* its own tile: wrong */
#else
            abortTile = w;
#endif
            abortWaiter = x;
            printf("MSG group %d raises the abort naming tile (%d,%d)\n", g, abortTile / C, abortTile % C)
        :: else -> skip
        fi
    }
peer:
    assert(abortReason != 0);   /* leaving early: the host finds a reason */
    leftEarly++;
#endif
out:
    atomic { finished++; slots++; printf("MSG group %d ends\n", g) }   /* its slot frees */
}

init
{
    byte i, d, n;
    assert(S >= 1 && S <= P && NT < NONE && (STUCK == NONE || STUCK < NT));
    assert(!TAGGED || SCHED == 0);
    assert(!AHEAD || SCHED == 0);
    atomic {
        /* anti-diagonal order: diagonal d ascending, i ascending within it */
        n = 0;
        for (d : 0 .. R + C - 2) {
            for (i : 0 .. R - 1) {
                if
                :: d >= i && d - i < C -> tileOf[n] = i * C + d - i; n++
                :: else -> skip
                fi
            }
        }
        assert(n == NT);
#if MUTANT == 1
        /* swap each pair of tickets */
        for (i : 0 .. NT / 2 - 1) {
            n = tileOf[2 * i];
            tileOf[2 * i] = tileOf[2 * i + 1];
            tileOf[2 * i + 1] = n
        }
#endif
        i = 0; d = 0; n = 0;
        for (i : 0 .. P - 1) {
            run Group(i)
        }
        i = 0
    }
    /* the kernel ended: every block finished, the buffers drained */
    (finished == P && npending == 0);
    d_step {
#if BOUNDED
        if
        :: abortReason == 0 -> assert(ndone == NT && leftEarly == 0)
        :: else ->
            /* the abort names a tile its raiser waited for: a dependency of the
             * raiser's tile, which was never computed */
            assert(abortWaiter < NT && !done[abortWaiter]);
            assert((abortWaiter >= C && abortTile == abortWaiter - C) ||
                   (SCHED == 0 && abortWaiter % C != 0 && abortTile == abortWaiter - 1))
        fi;
#if STUCK != NONE
        /* a stuck tile with a consumer: someone timed out, no consumer computed */
        assert(STUCK == NT - 1 || abortReason != 0);
        assert(STUCK + C >= NT || !done[STUCK + C]);
#if SCHED == 0
        assert(STUCK % C == C - 1 || !done[STUCK + 1]);
#endif
#endif
#else
        assert(ndone == NT);
#endif
        i = 0;
        do
        :: i < NT -> assert(done[i] == 0 || dat[i] == VISIBLE); i++
        :: else -> break
        od
    }
}

#if BOUNDED
ltl all_groups_end { <> (finished == P) }
#else
ltl all_tiles_computed { <> (finished == P && ndone == NT) }
#endif
