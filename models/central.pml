/* central.pml - model of gs_central_sync (include/gridsync/barrier_central.h).
 *
 * One counter that only grows. Each group's representative adds 1 (fetch_add,
 * release), then polls (acquire loads) until counter has reached (e+1)*N, compared
 * modulo the word size as gs_ready(GS_UNTIL_REACHED) does. The 32-bit word is
 * scaled down to CW values, small enough that the counter wraps during the run
 * (N*E > CW), so the wrap-around comparison is checked too.
 *
 * Mutants (spin -DMUTANT=k):
 *   1  release one arrival early: target (e+1)*N - 1, as GS_WEAKEN_COUNT does.
 *      Rejected by the safety run: assertion violated in check_pass.
 *   2  wait for one arrival too many: target (e+1)*N + 1. Nobody ever passes
 *      episode 0; rejected by the liveness run: acceptance cycle.
 *
 * Sequentially consistent: see common.pml. */
#include "common.pml"

#ifndef CW
#define CW 8          /* counter word: 3 bits; needs CW > 2*(N-1) */
#endif

#if MUTANT == 1
#define SLACK (CW - 1)   /* target - 1, mod CW */
#elif MUTANT == 2
#define SLACK 1
#else
#define SLACK 0
#endif

byte counter;

proctype Group(byte g)
{
    byte e = 0;
    byte target;

    do
    :: e < E ->
        write_payload(g, e);
        /* gs_group_barrier; gs_note_arrival; gs_fetch_add_release(counter, 1) */
        d_step { ghost_arrive(g, e); counter = (counter + 1) % CW }
        target = ((e + 1) * N + SLACK) % CW;
        /* gs_wait(counter, target, GS_UNTIL_REACHED): acquire polls */
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
    assert(CW > 2 * (N - 1));
    atomic {
        for (i : 0 .. LIVE - 1) {
            run Group(i)
        }
    }
}
