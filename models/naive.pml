/* naive.pml - model of gs_naive_sync (include/gridsync/barrier_naive.h).
 *
 * Every one of the T work-items of every group adds 1 to one counter (fetch_add,
 * release); after a group barrier, work-item 0 polls until the counter has
 * reached (e+1)*N*T (acquire, compared modulo the word as gs_ready does). One
 * process per group makes its T adds as T separate atomic steps, so they
 * interleave with other groups' adds as the real work-items' do; the group
 * barrier joins them before the poll. The group counts as arrived (ghost) at its
 * T-th add. The word is scaled to CW values and wraps during the run.
 *
 * Mutants (spin -DMUTANT=k):
 *   1  target one add early, (e+1)*N*T - 1, as GS_WEAKEN_COUNT does. Rejected by
 *      the safety run: assertion violated in check_pass.
 *   2  target one add late, (e+1)*N*T + 1. Rejected by the liveness run:
 *      acceptance cycle.
 *
 * Sequentially consistent: see common.pml. */
#include "common.pml"

#ifndef T
#define T 2           /* work-items per group */
#endif
#ifndef CW
#define CW 16         /* counter word; needs CW > 2*(N-1)*T */
#endif

#if MUTANT == 1
#define SLACK (CW - 1)
#elif MUTANT == 2
#define SLACK 1
#else
#define SLACK 0
#endif

byte counter;

proctype Group(byte g)
{
    byte e = 0;
    byte t, target;

    do
    :: e < E ->
        write_payload(g, e);
        /* each work-item: gs_fetch_add_release(counter, 1) */
        t = 1;
        do
        :: t < T -> counter = (counter + 1) % CW; t++
        :: else -> break
        od;
        atomic { ghost_arrive(g, e); counter = (counter + 1) % CW; t = 0 }
        /* gs_group_barrier; lid 0: gs_note_arrival; gs_wait(counter, target) */
        target = ((e + 1) * N * T + SLACK) % CW;
        do
        :: REACHED(counter, target, CW) -> break
        :: else -> skip
        od;
        check_pass(g, e);
        e++
    :: else -> break
    od;
    finished++
}

init
{
    byte i;
    assert(CW > 2 * (N - 1) * T);
    atomic {
        for (i : 0 .. LIVE - 1) {
            run Group(i)
        }
    }
}
