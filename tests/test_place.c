/* The placement rule of a flip state's counter (src/common/place.c): which candidate
 * starts a buffer holds, and which line a set of probes chooses. The probes run on a
 * GPU (src/cuda/place_cuda.c); the rule they feed is tested here, without one. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/knobs.h"
#include "common/place.h"
#include "gridsync/state.h"

#define STATE ((size_t)5u * GS_LINE_BYTES)

/* A buffer holds one start per whole line past the state, the state's own included. */
static void candidates_the_buffer_holds(void **unused)
{
    (void)unused;
    assert_int_equal(gs_place_candidates(STATE + 7u * GS_LINE_BYTES, STATE, 8u), 8u);
    assert_int_equal(gs_place_candidates(STATE + 7u * GS_LINE_BYTES, STATE, 3u), 3u);
    assert_int_equal(gs_place_candidates(STATE + 7u * GS_LINE_BYTES, STATE, 12u), 8u);
    /* a part line past the state is no start */
    assert_int_equal(gs_place_candidates(STATE + 7u * GS_LINE_BYTES + 4u, STATE, 12u), 8u);
    assert_int_equal(gs_place_candidates(STATE + GS_LINE_BYTES - 4u, STATE, 8u), 1u);
    assert_int_equal(gs_place_candidates(STATE, STATE, 8u), 1u);
    assert_int_equal(gs_place_candidates(STATE - 4u, STATE, 8u), 0u);
    assert_int_equal(gs_place_candidates(STATE, STATE, 0u), 0u);
    /* never more than GRIDSYNC_PLACE_LINES may ask */
    assert_int_equal(gs_place_candidates(STATE + 40u * GS_LINE_BYTES, STATE, 40u),
                     GS_PLACE_LINES_MAX);
}

/* The fewest cycles of each line over the passes decide: not the last pass, not the sum. */
static void fewest_over_the_passes(void **unused)
{
    (void)unused;
    /* sums 200, 185, 165, 190: a sum would take line 2; each line's fewest: 100, 90, 80, 70 */
    const float a[] = {100.f, 90.f, 80.f, 120.f, /* pass 0 */
                       100.f, 95.f, 85.f, 70.f /* pass 1 */};
    assert_int_equal(gs_place_choose(a, 2u, 4u), 3u);
    /* the last pass's fastest is line 3; over both passes line 0's 50 */
    const float b[] = {50.f, 90.f, 80.f, 120.f, 100.f, 95.f, 85.f, 70.f};
    assert_int_equal(gs_place_choose(b, 2u, 4u), 0u);
    /* a middle line, three passes */
    const float c[] = {90.f, 61.f, 75.f, 88.f, 60.f, 72.f, 91.f, 62.f, 74.f};
    assert_int_equal(gs_place_choose(c, 3u, 3u), 1u);
    /* one pass: its fastest */
    const float d[] = {300.f, 200.f, 250.f, 120.f, 400.f};
    assert_int_equal(gs_place_choose(d, 1u, 5u), 3u);
}

/* Of equal lines the first, so that a tie leaves the state nearer its allocation. */
static void first_of_equals(void **unused)
{
    (void)unused;
    const float a[] = {80.f, 70.f, 70.f, 75.f};
    assert_int_equal(gs_place_choose(a, 1u, 4u), 1u);
    const float b[] = {70.f, 70.f, 70.f};
    assert_int_equal(gs_place_choose(b, 1u, 3u), 0u);
}

/* A probe that could not run leaves the state where it was allocated, however fast the
 * others were. */
static void a_probe_that_could_not_run(void **unused)
{
    (void)unused;
    const float a[] = {100.f, 0.f, 50.f};
    assert_int_equal(gs_place_choose(a, 1u, 3u), 0u);
    const float b[] = {100.f, 90.f, 50.f, 100.f, 90.f, -1.f};
    assert_int_equal(gs_place_choose(b, 2u, 3u), 0u);
    const float c[] = {100.f, NAN, 50.f};
    assert_int_equal(gs_place_choose(c, 1u, 3u), 0u);
}

/* Nothing to choose from: line 0. */
static void nothing_to_choose(void **unused)
{
    (void)unused;
    const float a[] = {100.f, 50.f};
    assert_int_equal(gs_place_choose(NULL, 2u, 2u), 0u);
    assert_int_equal(gs_place_choose(a, 0u, 2u), 0u);
    assert_int_equal(gs_place_choose(a, 1u, 0u), 0u);
    assert_int_equal(gs_place_choose(a, 1u, 1u), 0u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(candidates_the_buffer_holds),
        cmocka_unit_test(fewest_over_the_passes),
        cmocka_unit_test(first_of_equals),
        cmocka_unit_test(a_probe_that_could_not_run),
        cmocka_unit_test(nothing_to_choose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
