/* common.pml - ghost state, checks and the liveness property shared by every
 * gridsync model. Each model #includes it after choosing its parameters.
 *
 * A model has N groups; each group is one Promela process, standing for the
 * group's representative work-item (lid 0), which is the only one that touches
 * the barrier's state. Every group runs E barrier episodes, e = 0 .. E-1.
 *
 * Promela is sequentially consistent: every statement of every process happens
 * in one global order and every read sees the latest write. So these models check
 * the protocols' counting and hand-off logic (who may pass when, that nobody waits
 * forever), not their memory ordering; acquire/release and the GPU memory models
 * are tested on real hardware (tests/, GS_WEAKEN_ORDER). Comments name the
 * ordering each real operation carries.
 *
 * Ghost variables (not in the protocol, only watched by the asserts):
 *   arrivedAt[g]   episodes group g has arrived at, set in the same atomic step as
 *                  the protocol's own arrival operation;
 *   data[g*E + k]  group g wrote its payload of episode k (before it arrives);
 *   finished       groups whose process has ended (all episodes, or left early).
 * When group g passes episode k, check_pass asserts that every group j has
 * arrived at k (the barrier property) and that g sees j's payload of k (message
 * passing, which under SC follows from the first when the payload is written
 * before the arrival).
 */
#ifndef GS_MODEL_COMMON
#define GS_MODEL_COMMON

#ifndef N
#define N 3          /* groups in the launch */
#endif
#ifndef E
#define E 3          /* episodes every group runs */
#endif
#ifndef MUTANT
#define MUTANT 0     /* 0: the protocol as written; 1, 2: deliberately broken */
#endif
#ifndef LIVE
#define LIVE N       /* groups whose processes are started (see central_abort.pml) */
#endif

byte arrivedAt[N];
bit data[N * E];
byte finished;
hidden byte gj;       /* scratch for the d_step loops below; not part of the state */

/* The group's writes of episode k, made before it arrives. */
inline write_payload(g, k)
{
    data[g * E + k] = 1
}

/* Ghost half of an arrival: call inside the d_step of the arrival operation. */
inline ghost_arrive(g, k)
{
    assert(arrivedAt[g] == k);
    arrivedAt[g] = k + 1;
    printf("MSG group %d arrives at episode %d\n", g, k)
}

/* Group g leaves episode k: every group must have arrived at k, and g must see
 * every group's payload of k. */
inline check_pass(g, k)
{
    d_step {
        printf("MSG group %d passes episode %d\n", g, k);
        gj = 0;
        do
        :: gj < N ->
            assert(arrivedAt[gj] > k);        /* barrier: nobody left behind */
            assert(data[gj * E + k] == 1);    /* message passing */
            gj++
        :: else -> gj = 0; break
        od
    }
}

/* A word compared the way gs_ready(GS_UNTIL_REACHED) compares it:
 * (v - target) mod 2^32 < 2^31. Models scale the 32-bit word down to W values
 * (a power of two); both arguments are already reduced mod W. */
#define REACHED(v, t, W) ((((v) + (W) - (t)) % (W)) < ((W) / 2))

/* Flip counters (flip, tree): the word is 2*FLIP values wide and FLIP is its top
 * bit, standing for 2^32 and GS_FLIP_BIT. gs_flip_completed(old, add): */
#define FLIPPED(old, add, FLIP) ((((old) ^ (((old) + (add)) % (2 * (FLIP)))) & (FLIP)) != 0)

/* Liveness, checked with pan -a -f (weak fairness): every started group's process
 * eventually ends. Polls are busy loops, so a wait that can never succeed shows
 * up as a fair cycle, i.e. an acceptance cycle of this property's never claim. */
ltl all_groups_finish { <> (finished == LIVE) }

#endif
