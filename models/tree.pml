/* tree.pml - model of gs_tree_sync (include/gridsync/barrier_tree.h).
 *
 * Groups are cut into leaves of F groups (the last leaf may be smaller). Each
 * group arrives at its leaf's flip counter (the leaf's first group adds
 * FLIP - (members-1), the others 1). The arrival that flips a leaf counter arrives
 * at the root flip counter (leaf 0's arrival adds FLIP - (LEAVES-1), the others 1).
 * The arrival that flips the root stores gen[l] = e+1 for every leaf l (release)
 * and does not poll; every other group polls gen[own leaf] until it has reached
 * e+1 (acquire, compared modulo the word as gs_ready(GS_UNTIL_REACHED) does).
 *
 * Defaults N=4, F=2 (two full leaves); N=3, F=2 gives a leaf of one group, whose
 * first and only group adds FLIP and so flips its leaf at once. Flip words are
 * scaled to 2*FLIP values with top bit FLIP; gen words to GW values.
 *
 * Mutants (spin -DMUTANT=k):
 *   1  the root counts one leaf fewer (leaf 0 adds FLIP - (LEAVES-2)), as
 *      GS_WEAKEN_COUNT does: the root flips one leaf early. Rejected by the
 *      safety run: assertion violated in check_pass.
 *   2  the last arriver releases every leaf but the last one. Rejected by the
 *      liveness run: acceptance cycle.
 *
 * Sequentially consistent: see common.pml. */
#ifndef N
#define N 4
#endif
#include "common.pml"

#ifndef F
#define F 2           /* fanout: groups per leaf */
#endif
#define LEAVES ((N + F - 1) / F)
#ifndef FLIP
#define FLIP 4        /* flip bit; flip counter words hold 2*FLIP values */
#endif
#ifndef GW
#define GW 4          /* generation words hold GW values */
#endif

#if MUTANT == 1
#define ROOT_MEMBERS (LEAVES - 1)
#else
#define ROOT_MEMBERS LEAVES
#endif
#if MUTANT == 2
#define RELEASED_LEAVES (LEAVES - 1)
#else
#define RELEASED_LEAVES LEAVES
#endif

byte leafcnt[LEAVES];   /* GS_LINE_LEAF_COUNT */
byte root;              /* GS_LINE_COUNTER */
byte gen[LEAVES];       /* GS_LINE_LEAF_GEN */

proctype Group(byte g)
{
    byte e = 0;
    byte leaf = g / F;
    byte first = leaf * F;
    byte members = (N - first < F -> N - first : F);
    byte done, old, add, l;
    bool released;

    do
    :: e < E ->
        write_payload(g, e);
        done = (e + 1) % GW;
        released = false;
        /* gs_group_barrier; gs_note_arrival; gs_flip_arrive(leaf counter) */
        add = (g == first -> FLIP - (members - 1) : 1);
        d_step {
            ghost_arrive(g, e);
            old = leafcnt[leaf];                        /* gs_fetch_add_acq_rel */
            leafcnt[leaf] = (old + add) % (2 * FLIP)
        }
        if
        :: FLIPPED(old, add, FLIP) ->
            /* last of its leaf: gs_flip_arrive(root) */
            add = (leaf == 0 -> FLIP - (ROOT_MEMBERS - 1) : 1);
            d_step {
                old = root;                             /* gs_fetch_add_acq_rel */
                root = (old + add) % (2 * FLIP)
            }
            if
            :: FLIPPED(old, add, FLIP) ->
                /* last of all: gs_store_release(gen[l], done) for every leaf */
                l = 0;
                do
                :: l < RELEASED_LEAVES -> gen[l] = done; l++
                :: else -> break
                od;
                released = true
            :: else -> skip
            fi
        :: else -> skip
        fi;
        if
        :: !released ->
            /* gs_wait(gen[leaf], done, GS_UNTIL_REACHED): acquire polls */
            do
            :: REACHED(gen[leaf], done, GW) -> break
            :: else -> skip
            od
        :: else -> skip
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
    assert(FLIP > F - 1 && FLIP > LEAVES - 1);
    atomic {
        for (i : 0 .. LIVE - 1) {
            run Group(i)
        }
    }
}
