/* The built-in programs' device code (src/kernels/workloads.h), compiled for the host as
 * the sequential reference is, on parameters gs_run refuses but a kernel may still be
 * given (a user's or a test's own launch): no trap. Message passing idles a random
 * number of polls in [0, delay]; with delay UINT_MAX, delay + 1 wrapped to 0 and the
 * modulo by it raised SIGFPE. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "gridsync/prims_cpu.h"
#include "../src/kernels/workloads.h"

/* A seed whose idle count is short even where nothing bounds it (delay UINT_MAX: the
 * mixed value itself), so the test takes milliseconds. */
static gs_u32 seed_with_few_spins(gs_u32 phase, gs_u32 lg, gs_u32 most)
{
    for (gs_u32 s = 1u; s != 0u; ++s)
        if (gs_mix(s + phase * 7919u + lg) <= most)
            return s;
    return 0u;
}

/* Read at run time: a constant would let the compiler see the division by zero. */
static volatile unsigned no_bound = UINT_MAX;

static void mp_delay_without_bound(void **state)
{
    gs_word c[GS_C_WORDS];
    gs_word scratch[GS_SCRATCH_WORDS];
    gs_u32 buf[2] = {0u, 0u};
    for (unsigned i = 0; i < GS_C_WORDS; ++i)
        atomic_init(&c[i], 0u);
    for (unsigned i = 0; i < GS_SCRATCH_WORDS; ++i)
        atomic_init(&scratch[i], 0u);
    gs_work_params p = {.work = GS_WORK_MP,
                        .phase_begin = 0u,
                        .phase_end = 1u,
                        .logical_groups = 1u,
                        .delay = no_bound};
    p.seed = seed_with_few_spins(0u, 0u, 1u << 16);
    assert_int_not_equal(p.seed, 0u);
    gs_work_phase(&p, 0u, 0u, 0u, 1u, buf, (gs_u32 *)scratch, c);
    assert_int_equal(buf[0], gs_mp_value(p.seed, 0u, 0u, 0u));
    assert_int_equal(atomic_load(&c[GS_C_ERRORS]), 0u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mp_delay_without_bound),
    };
    return cmocka_run_group_tests_name("workloads", tests, NULL, NULL);
}
