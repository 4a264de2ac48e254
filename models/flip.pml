/* flip.pml - model of gs_flip_sync (include/gridsync/barrier_flip.h).
 *
 * One counter, never reset, whose top bit flips once per episode. Group 0 adds
 * FLIP - (N-1), every other group adds 1 (fetch_add, acq_rel, returning old), so
 * after the N arrivals of an episode the low bits are back where they started and
 * the top bit has flipped, exactly at the last arrival. An arrival whose own add
 * flipped the bit (gs_flip_completed) was the last and does not poll; every other
 * one polls until the counter's top bit differs from old's.
 *
 * The 32-bit word and GS_FLIP_BIT = 2^31 are scaled down to a word of 2*FLIP
 * values whose top bit is FLIP (FLIP > N-1 keeps group 0's add positive and the
 * low bits below FLIP within an episode); the arithmetic is the same modulo the
 * word size.
 *
 * Mutants (spin -DMUTANT=k):
 *   1  group 0 adds FLIP - (N-2), as if one group fewer took part (what
 *      GS_WEAKEN_COUNT does): the bit flips one arrival early when group 0 is not
 *      last. Rejected by the safety run: assertion violated in check_pass.
 *   2  group 0 adds one too little, FLIP - N: the bit never flips. Rejected by
 *      the liveness run: acceptance cycle.
 *
 * Sequentially consistent: see common.pml. */
#include "common.pml"

#ifndef FLIP
#define FLIP 4        /* the flip bit; the counter word holds 2*FLIP values */
#endif

#if MUTANT == 1
#define ADD0 (FLIP - (N - 2))
#elif MUTANT == 2
#define ADD0 (FLIP - N)
#else
#define ADD0 (FLIP - (N - 1))
#endif

byte counter;

proctype Group(byte g)
{
    byte e = 0;
    byte old, add;

    do
    :: e < E ->
        write_payload(g, e);
        /* gs_group_barrier; gs_note_arrival; gs_flip_arrive: */
        add = (g == 0 -> ADD0 : 1);
        d_step {
            ghost_arrive(g, e);
            old = counter;                              /* gs_fetch_add_acq_rel */
            counter = (counter + add) % (2 * FLIP)
        }
        if
        :: FLIPPED(old, add, FLIP) -> skip             /* last arrival: no poll */
        :: else ->
            /* gs_wait(counter, (old & FLIP) ^ FLIP, GS_UNTIL_FLIP): acquire polls */
            do
            :: (counter & FLIP) != (old & FLIP) -> break
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
    assert(FLIP > N - 1);
    atomic {
        for (i : 0 .. LIVE - 1) {
            run Group(i)
        }
    }
}
