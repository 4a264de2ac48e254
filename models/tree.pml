/* tree.pml - model of the tree barrier (include/gridsync/barrier_tree.h).
 *
 * Groups are dealt round-robin into LEAVES = ceil(N/F) leaves (group g in leaf
 * g % LEAVES; group g == leaf is the leaf's first). Each group arrives at its leaf's
 * flip counter (the first adds FLIP - (members-1), the others 1). The arrival that
 * flips a leaf counter then adds its share (leaf 0's: FLIP - (LEAVES-1), the others'
 * 1) to:
 *   LINES=1 (default; GS_RELEASE_LINES): every leaf's release line, each a flip
 *           counter of the leaves; every group polls its leaf's line's flip bit;
 *   LINES=0 (GS_RELEASE_POLL): the root flip counter; the arrival that flips it does
 *           not poll, every other group polls the root's flip bit.
 * The flip bit a group waits for after episode e is (e+1) mod 2.
 *
 * Defaults N=4, F=2 (two leaves of two); N=3, F=2 gives a leaf of one group, whose
 * only group adds FLIP and so flips its leaf at once. Flip words are scaled to 2*FLIP
 * values with top bit FLIP.
 *
 * Mutants (spin -DMUTANT=k):
 *   1  the lines (or the root) count one leaf fewer (leaf 0 adds FLIP - (LEAVES-2)), as
 *      GS_WEAKEN_COUNT does: they flip one leaf early. Rejected by the safety run:
 *      assertion violated in check_pass.
 *   2  (LINES=1) a leaf's last arriver adds to every line but the last one. Rejected by
 *      the liveness run: acceptance cycle.
 *
 * Sequentially consistent: see common.pml. */
#ifndef N
#define N 4
#endif
#include "common.pml"

#ifndef F
#define F 2           /* fanout: groups per leaf */
#endif
#ifndef LINES
#define LINES 1
#endif
#define LEAVES ((N + F - 1) / F)
#ifndef FLIP
#define FLIP 4        /* flip bit; flip counter words hold 2*FLIP values */
#endif

#if MUTANT == 1
#define ROOT_MEMBERS (LEAVES - 1)
#else
#define ROOT_MEMBERS LEAVES
#endif
#if MUTANT == 2
#define ADDED_LINES (LEAVES - 1)
#else
#define ADDED_LINES LEAVES
#endif

byte leafcnt[LEAVES];   /* GS_LINE_LEAF_COUNT */
byte root;              /* GS_LINE_COUNTER (LINES=0) */
byte line[LEAVES];      /* GS_LINE_LEAF_GEN (LINES=1) */

proctype Group(byte g)
{
    byte e = 0;
    byte leaf = g % LEAVES;
    byte members = (N - leaf + LEAVES - 1) / LEAVES;
    byte old, add, l, target;
    bool released;

    do
    :: e < E ->
        write_payload(g, e);
        target = ((e + 1) % 2) * FLIP;
        released = false;
        /* gs_group_barrier; gs_flip_arrive(leaf counter): a release add */
        add = (g == leaf -> FLIP - (members - 1) : 1);
        d_step {
            ghost_arrive(g, e);
            old = leafcnt[leaf];
            leafcnt[leaf] = (old + add) % (2 * FLIP)
        }
        if
        :: FLIPPED(old, add, FLIP) ->
            /* last of its leaf: gs_fence_acq_rel, then its share */
            add = (leaf == 0 -> FLIP - (ROOT_MEMBERS - 1) : 1);
#if LINES
            l = 0;
            do
            :: l < ADDED_LINES ->
                d_step { line[l] = (line[l] + add) % (2 * FLIP) };   /* gs_add_fenced */
                l++
            :: else -> break
            od
#else
            d_step {
                old = root;                             /* gs_fetch_add_fenced */
                root = (old + add) % (2 * FLIP)
            }
            if
            :: FLIPPED(old, add, FLIP) -> released = true   /* gs_fence_acquire */
            :: else -> skip
            fi
#endif
        :: else -> skip
        fi;
        if
        :: !released ->
            /* gs_flip_await: relaxed polls of the flip bit, then gs_fence_acquire */
            do
#if LINES
            :: (line[leaf] & FLIP) == target -> break
#else
            :: (root & FLIP) == target -> break
#endif
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
