/* central_abort.pml - the central barrier (central.pml) with gridsync's bounded
 * wait, gs_wait in include/gridsync/grid.h, and the abort word.
 *
 * Every failed poll looks at the abort word (GS_LINE_ABORT: any group that gives
 * up writes a reason there) and then at the clock. A group that sees a reason
 * leaves (GS_ABORT_PEER); a group whose deadline has passed raises the abort
 * (gs_raise_abort: compare-and-swap 0 -> GS_ABORT_TIMEOUT, so the first one's
 * reason stays) and leaves (GS_ABORT_TIMEOUT). A group that leaves ends its
 * kernel: gs_sync returns non-zero and the caller returns.
 *
 * The clock is abstracted: at every failed poll the deadline may or may not have
 * passed (nondeterministic), but it has passed at the latest after BUDGET failed
 * polls of the same wait, as a real timeout is finite. The real gs_wait looks
 * only at every 16th poll; that only changes how many polls pass between looks.
 *
 * MISSING groups (the last ones) are never started: they stand for groups that
 * are never scheduled, so they never arrive. Spin shows that every started group
 * still ends (safety run: no invalid end state; liveness run: every started
 * process ends, under weak fairness), that each one that left early leaves the
 * abort word set for the host to read, and that nobody passed a barrier the
 * missing groups did not arrive at (check_pass). With -DMISSING=0 every group
 * runs and deadlines may still pass spuriously: the barrier stays safe and every
 * group ends, all episodes done or aborted.
 *
 * Mutants (spin -DMUTANT=k):
 *   1  a group whose deadline passed leaves without raising the abort. Rejected
 *      by the safety run: assertion violated (abort word still 0 when a group
 *      leaves early: the host would report success).
 *   2  waits have no deadline, they only watch the abort word: nobody ever
 *      raises it. Rejected by the liveness run: acceptance cycle.
 *
 * Sequentially consistent: see common.pml. */
#ifndef N
#define N 4           /* groups in the launch, MISSING of them never started */
#endif
#ifndef MISSING
#define MISSING 1     /* groups never scheduled */
#endif
#define LIVE (N - MISSING)
#include "common.pml"

#ifndef CW
#define CW 8          /* counter word; needs CW > 2*(N-1) */
#endif
#ifndef BUDGET
#define BUDGET 2      /* failed polls of one wait before its deadline surely passed */
#endif

#define GS_ABORT_TIMEOUT 1
#define GS_ABORT_PEER 2

byte counter;
byte abortReason;     /* GS_ABORT_REASON */
byte abortGroup;      /* GS_ABORT_GROUP */
byte abortEpisode;    /* GS_ABORT_EPISODE */
byte leftEarly;       /* ghost: groups that left through the abort path */

proctype Group(byte g)
{
    byte e = 0;
    byte target, budget;

    do
    :: e < E ->
        write_payload(g, e);
        /* gs_group_barrier; gs_note_arrival; gs_fetch_add_release(counter, 1) */
        d_step { ghost_arrive(g, e); counter = (counter + 1) % CW }
        target = ((e + 1) * N) % CW;
        budget = BUDGET;
        /* gs_wait(counter, target, GS_UNTIL_REACHED) */
        do
        :: REACHED(counter, target, CW) -> break
        :: else ->
            /* a failed poll: the abort word first, then the clock */
            if
            :: abortReason != 0 ->
                printf("MSG group %d sees the abort in episode %d\n", g, e);
                goto peer
            :: else -> skip
            fi;
#if MUTANT == 2
            skip
#else
            if
            :: budget > 0 -> budget--                   /* deadline not yet passed */
            :: true ->                                  /* deadline passed */
                printf("MSG group %d: deadline passed in episode %d\n", g, e);
                goto timedout
            fi
#endif
        od;
        check_pass(g, e);
        e++
    :: else -> break
    od;
    assert(MISSING == 0);   /* nobody completes a barrier a missing group skipped */
    goto out;

timedout:
#if MUTANT != 1
    /* gs_raise_abort: the first to give up records who and where */
    atomic {
        if
        :: abortReason == 0 ->
            abortReason = GS_ABORT_TIMEOUT;
            abortGroup = g;
            abortEpisode = e;
            printf("MSG group %d raises the abort\n", g)
        :: else -> skip
        fi
    }
#endif
peer:
    /* leaving early: the host must find a reason in the abort word */
    assert(abortReason != 0);
    leftEarly++;
out:
    finished++
}

init
{
    byte i;
    assert(CW > 2 * (N - 1) && LIVE > 0);
    atomic {
        for (i : 0 .. LIVE - 1) {
            run Group(i)
        }
    }
}
