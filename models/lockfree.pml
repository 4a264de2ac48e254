/* lockfree.pml - model of gs_lockfree_sync (include/gridsync/barrier_lockfree.h).
 *
 * No read-modify-write. Each group stores arrived[g] = e+1 (release). The master,
 * group 0, polls arrived[j] until it has reached e+1 for every j = 1..N-1
 * (acquire), then stores release[j] = e+1 for every j = 1..N-1 (release) and
 * passes; every other group polls release[g] until it has reached e+1 (acquire).
 * Flags hold episode numbers modulo the word (scaled to GW values) and are
 * compared as gs_ready(GS_UNTIL_REACHED) does, so they are never cleared.
 *
 * The master's polling is one process polling the flags one after another: the
 * real code splits the flags among `spinners` work-items of group 0 and joins
 * them with a group barrier (gs_group_verdict) before the release stores; under
 * SC that join makes the split equivalent to one poller.
 *
 * Mutants (spin -DMUTANT=k):
 *   1  the master does not wait for the last group's flag (j < N-1), as
 *      GS_WEAKEN_COUNT does. Rejected by the safety run: assertion violated in
 *      check_pass.
 *   2  the master never releases the last group. Rejected by the liveness run:
 *      acceptance cycle.
 *
 * Sequentially consistent: see common.pml. */
#include "common.pml"

#ifndef GW
#define GW 4          /* flag words hold GW values */
#endif

#if MUTANT == 1
#define POLLED (N - 1)
#else
#define POLLED N
#endif
#if MUTANT == 2
#define RELEASED (N - 1)
#else
#define RELEASED N
#endif

byte arrived[N];   /* GS_G_ARRIVED, line A of each group */
byte release[N];   /* GS_G_RELEASE, line B of each group */

proctype Group(byte g)
{
    byte e = 0;
    byte done, j;

    do
    :: e < E ->
        write_payload(g, e);
        done = (e + 1) % GW;
        /* gs_group_barrier; gs_store_release(arrived[g], done) */
        d_step { ghost_arrive(g, e); arrived[g] = done }
        if
        :: g == 0 ->
            j = 1;
            do
            :: j < POLLED ->
                /* gs_wait(arrived[j], done, GS_UNTIL_REACHED): acquire polls */
                do
                :: REACHED(arrived[j], done, GW) -> break
                :: else -> skip
                od;
                j++
            :: else -> break
            od;
            /* gs_group_verdict, then gs_store_release(release[j], done) */
            j = 1;
            do
            :: j < RELEASED -> release[j] = done; j++
            :: else -> j = 0; break
            od
        :: else ->
            /* gs_wait(release[g], done, GS_UNTIL_REACHED): acquire polls */
            do
            :: REACHED(release[g], done, GW) -> break
            :: else -> skip
            od
        fi;
        check_pass(g, e);
        e++
    :: else -> break
    od;
    finished++
}

init
{
    byte i;
    atomic {
        for (i : 0 .. LIVE - 1) {
            run Group(i)
        }
    }
}
