/* sharded.pml - model of the sharded protocol (include/gridsync/barrier_sharded.h).
 *
 * K counters that only grow. Group g's representative adds 1 (release) to counter
 * g mod K; every waiter polls the K counters (acquire loads) until counter k has
 * reached (e+1) * members(k), members(k) = the groups that map to k, compared modulo
 * the (scaled-down) word size as gs_ready(GS_UNTIL_REACHED) does. The poll of the K
 * counters is modelled as K separate polls in any interleaving with the others.
 *
 * Mutants (spin -DMUTANT=k):
 *   1  release one arrival early: counter 0's target - 1, as GS_WEAKEN_COUNT does.
 *      Rejected by the safety run: assertion violated in check_pass.
 *   2  wait for one arrival too many on counter 0. Rejected by the liveness run.
 *
 * Sequentially consistent: see common.pml. */
#include "common.pml"

#ifndef K
#define K 2
#endif
#ifndef CW
#define CW 8          /* counter word: 3 bits; needs CW > 2*(N/K+1) */
#endif

#if MUTANT == 1
#define SLACK0 (CW - 1)
#elif MUTANT == 2
#define SLACK0 1
#else
#define SLACK0 0
#endif

#define MEMBERS(k) ((N - (k) + K - 1) / K)

byte counter[K];

proctype Group(byte g)
{
    byte e = 0;
    byte k;
    byte target;

    do
    :: e < E ->
        write_payload(g, e);
        /* gs_group_barrier; gs_add_release(counter[g % K], 1); gs_note_arrival */
        d_step { ghost_arrive(g, e); counter[g % K] = (counter[g % K] + 1) % CW }
        /* work-item k polls counter k: one bounded wait per counter */
        k = 0;
        do
        :: k < K ->
            target = ((e + 1) * MEMBERS(k) + (k == 0 -> SLACK0 : 0)) % CW;
            do
            :: REACHED(counter[k], target, CW) -> break
            :: else -> skip
            od;
            k++
        :: else -> break
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
    assert(CW > 2 * (MEMBERS(0) + 1));
    atomic {
        for (i : 0 .. LIVE - 1) {
            run Group(i)
        }
    }
}
