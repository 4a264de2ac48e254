/* src/kernels/workloads.h - the built-in programs, written once for every back end.
 *
 * Each program is a sequence of phases over logical groups; a barrier separates
 * consecutive phases. A launch runs a range of phases: all of them with a barrier
 * protocol, one per launch for the relaunch baseline. A resident group runs every
 * logical group congruent to it, so a grid larger than the device still computes the
 * same result (virtual groups). Needs gridsync/barrier.h first.
 *
 * Which barrier a kernel runs, as a user's kernel says it:
 *   GS_WORK_PROTOCOL=<name>  one protocol by name (gs_sync_<name>): CUDA's kernels and
 *                            OpenCL's builds, one per protocol;
 *   GS_WORK_NO_BARRIER       none: the relaunch baselines' kernels, one phase a launch;
 *   neither                  the run-time dispatch (gs_sync): the cpu back end's kernel. */
#ifndef GRIDSYNC_WORKLOADS_H
#define GRIDSYNC_WORKLOADS_H

#include "gridsync/barrier.h"
#include "work.h"

#define GS_WORK_CAT_(a, b) a##b
#define GS_WORK_CAT(a, b) GS_WORK_CAT_(a, b)
#if defined(GS_WORK_NO_BARRIER)
GS_DEVICE gs_grid gs_work_begin(GS_GLOBAL gs_word *state)
{
    gs_grid_fields f;
    f.state = state;
    f.episode = 0u;
    f.algo = GS_ALGO_ID_RELAUNCH;
    f.aux = GS_AUX_BAD | GS_ABORT_BAD_STATE; /* never synchronizes: one phase a launch */
    f.share = 0u;
    f.group = gs_group_id();
    f.groups = gs_num_groups();
#if !GS_GRID_IN_SHARED
    f.lid = gs_local_id();
    f.lsize = gs_local_size();
#endif
    return gs_grid_publish(&f);
}
#define gs_work_sync(g) gs_token_initial(g).why
#define gs_work_arrive(g) gs_token_initial(g)
#define gs_work_wait(g, t) ((t).why)
#elif defined(GS_WORK_PROTOCOL)
#define gs_work_begin GS_WORK_CAT(gs_grid_begin_, GS_WORK_PROTOCOL)
#define gs_work_sync GS_WORK_CAT(gs_sync_, GS_WORK_PROTOCOL)
#define gs_work_arrive GS_WORK_CAT(gs_arrive_, GS_WORK_PROTOCOL)
#define gs_work_wait GS_WORK_CAT(gs_wait_token_, GS_WORK_PROTOCOL)
#else
#define gs_work_begin gs_grid_begin
#define gs_work_sync gs_sync
#define gs_work_arrive gs_arrive
#define gs_work_wait gs_wait_token
#endif

/* A 32-bit integer mix (the "lowbias32" constants): values no group can guess. */
GS_DEVICE gs_u32 gs_mix(gs_u32 x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

GS_DEVICE gs_u32 gs_mp_value(gs_u32 seed, gs_u32 phase, gs_u32 group, gs_u32 lid)
{
    return gs_mix(seed ^ gs_mix(phase * 0x9e3779b9u ^ gs_mix(group * 0x85ebca6bu + lid)));
}

/* test_sync: phase 0 writes the group id after an atomic that staggers the groups,
 * phase 1 reads the element mirrored across the whole grid. */
GS_DEVICE void gs_testsync_phase(gs_u32 phase, gs_u32 lg, gs_u32 lid, gs_u32 lsize, gs_u32 items,
                                 GS_GLOBAL gs_u32 *tmp, GS_GLOBAL gs_u32 *out, GS_GLOBAL gs_word *c)
{
    gs_u32 id = lg * lsize + lid;
    if (phase == 0u) {
        gs_fetch_add_relaxed(&c[GS_C_SCRATCH], id);
        tmp[id] = lg;
    } else {
        out[id] = tmp[items - id - 1u];
    }
}

/* stencil: even phases compute a[i] + a[i+1] + a[i+2] (mod n, unsigned wrap-around)
 * into tmp, odd phases copy it back. */
GS_DEVICE void gs_stencil_phase(gs_u32 phase, gs_u32 lg, gs_u32 lid, gs_u32 lsize, gs_u32 items,
                                GS_GLOBAL gs_u32 *a, GS_GLOBAL gs_u32 *tmp)
{
    gs_u32 i = lg * lsize + lid;
    if ((phase & 1u) == 0u) {
        gs_u32 i1 = (i + 1u) % items, i2 = (i + 2u) % items;
        tmp[i] = a[i] + a[i1] + a[i2];
    } else {
        a[i] = tmp[i];
    }
}

/* Memory stress in the manner of Sorensen et al.: the work-items scatter loads and
 * stores over a scratch region, so the lines of the test compete with other traffic
 * in the caches and the memory system. The accesses race by design, so they are
 * relaxed atomics: the races are not the barrier's to order. */
#define GS_SCRATCH_WORDS 4096u
GS_DEVICE void gs_stress(const gs_work_params *prm, gs_u32 phase, gs_u32 lg, gs_u32 lid,
                         GS_GLOBAL gs_word *scratch)
{
    gs_u32 x = gs_mix(prm->seed ^ (phase << 16) ^ (lg << 8) ^ lid);
    for (gs_u32 i = 0u; i < prm->stress; ++i) {
        x = gs_mix(x);
        gs_u32 at = (x >> 8) % GS_SCRATCH_WORDS;
        if (x & 1u)
            gs_store_relaxed(&scratch[at], x);
        else
            x += gs_load_relaxed(&scratch[at]);
    }
}

/* message passing under stress: in phase p every logical group first checks one word
 * that each other group wrote in phase p-1, then idles a random number of polls, then
 * writes its words for phase p. Two buffers alternate, so a group writing phase p+1
 * cannot overwrite what a slow group is still checking from phase p-1... only if the
 * barrier holds: that is what is tested. */
GS_DEVICE void gs_mp_phase(const gs_work_params *prm, gs_u32 phase, gs_u32 lg, gs_u32 lid,
                           gs_u32 lsize, GS_GLOBAL gs_u32 *buf, GS_GLOBAL gs_word *scratch,
                           GS_GLOBAL gs_word *c)
{
    gs_u32 groups = prm->logical_groups;
    gs_u32 items = groups * lsize;
    if (phase > 0u) {
        GS_GLOBAL gs_u32 *prev = buf + ((phase - 1u) & 1u) * items;
        gs_u32 errors = 0u;
        for (gs_u32 j = lid; j < groups; j += lsize) {
            gs_u32 slot = (lg + phase) % lsize;
            if (j != lg && prev[j * lsize + slot] != gs_mp_value(prm->seed, phase - 1u, j, slot))
                ++errors;
        }
        if (errors)
            gs_fetch_add_relaxed(&c[GS_C_ERRORS], errors);
    }
    /* Every work-item idles the same spins, so the whole group writes late. (Not the
     * representative alone behind a group barrier: PoCL 3.1 aborts compiling a barrier
     * inside this switch for work-groups of 1 or 2 work-items.) One work-item of one
     * group may idle `late` more: its write then comes after every other arrival in
     * every phase, which a random delay makes rare, and a barrier that releases before
     * that one arrival (a master skipping its flag, a count one short) shows.
     * gs_run bounds delay (GS_MAX_DELAY), but a kernel launched with other parameters
     * must not trap: where delay + 1 wraps to 0, the whole 32-bit range is [0, delay]. */
    gs_u32 spins = 0u;
    if (prm->delay) {
        gs_u32 span = prm->delay + 1u, r = gs_mix(prm->seed + phase * 7919u + lg);
        spins = span ? r % span : r;
    }
    if (lg == groups - 1u && lid == lsize - 1u)
        spins += prm->late;
    if (spins) {
        gs_u32 sink = 0u;
        for (gs_u32 s = 0u; s < spins; ++s)
            sink += gs_load_relaxed(&c[GS_C_SCRATCH]);
        if (sink == 0xffffffffu) /* keeps the idle loop; never true in practice */
            gs_fetch_add_relaxed(&c[GS_C_SCRATCH], 1u);
    }
    if (prm->stress)
        gs_stress(prm, phase, lg, lid, scratch);
    buf[(phase & 1u) * items + lg * lsize + lid] = gs_mp_value(prm->seed, phase, lg, lid);
}

GS_DEVICE void gs_work_phase(const gs_work_params *prm, gs_u32 phase, gs_u32 lg, gs_u32 lid,
                             gs_u32 lsize, GS_GLOBAL gs_u32 *a, GS_GLOBAL gs_u32 *b,
                             GS_GLOBAL gs_word *c)
{
    gs_u32 items = prm->logical_groups * lsize;
    switch (prm->work) {
    case GS_WORK_TESTSYNC: gs_testsync_phase(phase, lg, lid, lsize, items, a, b, c); break;
    case GS_WORK_STENCIL: gs_stencil_phase(phase, lg, lid, lsize, items, a, b); break;
    case GS_WORK_MP: gs_mp_phase(prm, phase, lg, lid, lsize, a, (GS_GLOBAL gs_word *)b, c); break;
    default: break;
    }
}

/* Independent work at a barrier: `compute` dependent steps per work-item that touch no
 * shared data, so they may run between gs_arrive and gs_wait_token. The result decides
 * an atomic add that practically never happens (x would have to hit one 32-bit value
 * that it can reach), so the compiler cannot drop the chain.
 *
 * GS_COMPUTE_AVERAGE is the thesis's computation (Figure 4-3, Appendix G):
 *     for (i = 0; i < 20000; i++) avg = (a + b) / 2;
 * As printed it is loop-invariant and its result unused: a compiler evaluates it once
 * or not at all (the thesis's own times leave no room for 20000 steps: Appendix H's
 * whole kernel took 14 us at 850 MHz). Here every average feeds the next (b = avg), so
 * the same add and halving run `compute` times one after another; a and b depend on the
 * work-item and the phase, so nothing folds to a constant. (tests/thesis_ptx.sh checks
 * the loop in CUDA's PTX.) */
GS_DEVICE void gs_compute(const gs_work_params *prm, gs_u32 phase, gs_u32 lid, GS_GLOBAL gs_word *c)
{
    gs_u32 x = phase * 0x9e3779b9u ^ lid;
    if (prm->compute_kind == GS_COMPUTE_AVERAGE) {
        gs_u32 a = lid + 1u, b = x;
        for (gs_u32 k = 0u; k < prm->compute; ++k) {
            x = (a + b) / 2u;
            b = x;
        }
    } else {
        for (gs_u32 k = 0u; k < prm->compute; ++k)
            x = x * 1664525u + 1013904223u;
    }
    if (x == 0x5eedf00du)
        gs_fetch_add_relaxed(&c[GS_C_SCRATCH], 1u);
}

/* The barrier before phase p, with the independent work beside it: in split phase the
 * work hides the barrier's latency, otherwise it comes first. */
GS_DEVICE gs_u32 gs_barrier_with_compute(gs_grid *g, const gs_work_params *prm, gs_u32 p,
                                         GS_GLOBAL gs_word *c)
{
    if (prm->split) {
        gs_token t = gs_work_arrive(g);
        gs_compute(prm, p, gs_g_lid(g), c);
        return gs_work_wait(g, t);
    }
    gs_compute(prm, p, gs_g_lid(g), c);
    return gs_work_sync(g);
}

/* The barrier-only program: nothing between barriers, not even the phase loop's tests
 * and address arithmetic (with 64 warps per SM every instruction a work-item runs per
 * episode costs about 8 ns of the barrier's time: docs/performance.md). */
GS_DEVICE void gs_work_barriers_only(gs_grid *g, const gs_work_params *prm)
{
    for (gs_u32 p = prm->phase_begin + 1u; p < prm->phase_end; ++p)
        if (gs_work_sync(g) != GS_ABORT_NONE)
            return;
}

/* The built-in kernel of every back end. Its forms (`form`, a constant where CUDA
 * compiles one kernel per form): GS_FORM_BARRIERS the barrier-only program alone;
 * GS_FORM_PROGRAMS every program but the split phase and the independent work
 * (prm.split, prm.compute); GS_FORM_ALL everything, as the cpu and OpenCL build it.
 * CUDA builds all three, so that the barrier-only kernel stays the code that was
 * measured: with the programs' loop in the same kernel, NVVM merged the two loops' barrier
 * code into one, and the barrier-only loop ran the programs' per-phase tests (flip 1152
 * against 969 ns per barrier at 132 x 256 on an H100, 2968 against 2162 at 1056; with the
 * compute in the same kernel too, up to 22% slower in an H100 run of the eighth round). */
GS_DEVICE void gs_work_kernel_body(GS_GLOBAL gs_word *state, GS_GLOBAL gs_u32 *a,
                                   GS_GLOBAL gs_u32 *b, GS_GLOBAL gs_word *c, gs_work_params prm,
                                   int form)
{
    int with_compute = form == GS_FORM_ALL;
    gs_grid g = gs_work_begin(state);
    if (form == GS_FORM_BARRIERS) {
        gs_work_barriers_only(&g, &prm);
        return;
    }
    gs_u32 group = gs_g_group(&g), groups = gs_g_groups(&g);
    /* The faults `gridsync check` and the fault tests provoke: the last group never
     * arrives, or arrives at one barrier fewer than the others. */
    int faulty = group + 1u == groups && groups > 1u;
    if (faulty && prm.work == GS_WORK_FAULT_EXIT)
        return;
    if (prm.work == GS_WORK_EMPTY && (!with_compute || (prm.compute == 0u && !prm.split))) {
        gs_work_barriers_only(&g, &prm);
        return;
    }
    for (gs_u32 p = prm.phase_begin; p < prm.phase_end; ++p) {
        int skip = faulty && prm.work == GS_WORK_FAULT_SKIP && p == prm.phase_begin + 1u;
        if (p != prm.phase_begin && !skip) {
            if ((with_compute ? gs_barrier_with_compute(&g, &prm, p, c) : gs_work_sync(&g)) !=
                GS_ABORT_NONE)
                return;
        } else if (with_compute && p != 0u) {
            gs_compute(&prm, p, gs_g_lid(&g), c); /* relaunch: the launch boundary is the barrier */
        }
        for (gs_u32 lg = group; lg < prm.logical_groups; lg += groups)
            gs_work_phase(&prm, p, lg, gs_g_lid(&g), gs_g_lsize(&g), a, b, c);
    }
}

#endif
