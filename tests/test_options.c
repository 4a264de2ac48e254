/* gs_barrier_options (gridsync.h): the defaults, every field's range, the environment
 * overriding a default and an explicit option overriding the environment. On the cpu
 * back end, whose state is host memory: the header the device would read shows what
 * each option set. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "gridsync/state.h"
#include "test_support.h"

static gs_device *dev;

static const char *const vars[] = {
    "GRIDSYNC_TIMEOUT_MS", "GRIDSYNC_RELEASE", "GRIDSYNC_RELEASE_LINES",  "GRIDSYNC_TREE_FANOUT",
    "GRIDSYNC_BACKOFF_NS", "GRIDSYNC_SHARDS",  "GRIDSYNC_BACKOFF_CAP_NS", "GRIDSYNC_FIRST_POLL_NS"};

static int clear_env(void **unused)
{
    (void)unused;
    for (unsigned i = 0; i < sizeof vars / sizeof *vars; ++i)
        unsetenv(vars[i]);
    return 0;
}

/* The barrier's header word `w`, as its kernels would read it. */
static unsigned header(gs_barrier *b, unsigned w)
{
    void *state = NULL;
    assert_int_equal(gs_barrier_native(b, &state), GS_OK);
    return ((const uint32_t *)state)[w];
}

static gs_barrier *make(gs_algo algo, unsigned groups, const gs_barrier_options *o)
{
    gs_barrier *b = NULL;
    assert_int_equal(gs_barrier_create_with(dev, algo, groups, o, &b), GS_OK);
    assert_non_null(b);
    return b;
}

static unsigned timeout_of(gs_barrier *b)
{
    unsigned ms = 0;
    assert_int_equal(gs_barrier_get_timeout(b, &ms), GS_OK);
    return ms;
}

static void init_sets_every_field_default(void **unused)
{
    (void)unused;
    gs_barrier_options o;
    memset(&o, 0, sizeof o);
    gs_barrier_options_init(&o);
    assert_int_equal(o.timeout_ms, GS_OPTION_DEFAULT);
    assert_int_equal(o.release, GS_OPTION_DEFAULT);
    assert_int_equal(o.release_lines, GS_OPTION_DEFAULT);
    assert_int_equal(o.tree_fanout, GS_OPTION_DEFAULT);
    assert_int_equal(o.backoff_ns, GS_OPTION_DEFAULT);
    assert_int_equal(o.shards, GS_OPTION_DEFAULT);
    assert_int_equal(o.backoff_cap_ns, GS_OPTION_DEFAULT);
    assert_int_equal(o.first_poll_ns, GS_OPTION_DEFAULT);
    gs_barrier_options_init(NULL); /* documented: does nothing */
}

/* Nothing set anywhere: the library's defaults, the same as gs_barrier_create's. */
static void defaults(void **unused)
{
    (void)unused;
    gs_barrier_options o;
    gs_barrier_options_init(&o);
    gs_barrier *b = make(GS_ALGO_FLIP, 8, &o), *c = NULL, *s = make(GS_ALGO_SHARDED, 40, NULL);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, 8, &c), GS_OK);
    assert_int_equal(timeout_of(b), GS_DEFAULT_TIMEOUT_MS);
    assert_int_equal(header(b, GS_HDR_BACKOFF), 32);
    assert_int_equal(header(b, GS_HDR_BACKOFF_CAP), GS_DEFAULT_BACKOFF_CAP_NS);
    assert_int_equal(header(b, GS_HDR_RELEASE), GS_BARRIER_RELEASE_POLL);
    assert_int_equal(header(s, GS_HDR_LEAVES), 32);    /* sharded: the groups, at most 32 */
    assert_int_equal(header(b, GS_HDR_FIRST_POLL), 0); /* polls at once but on CUDA */
    for (unsigned w = 0; w < GS_LINE_WORDS; ++w)
        assert_int_equal(header(b, w), header(c, w));
    gs_barrier_destroy(b);
    gs_barrier_destroy(c);
    gs_barrier_destroy(s);
}

/* One field set to `value` on `algo`'s barrier of `groups`: the status it gets. */
static gs_status with_field(size_t offset, unsigned value, gs_algo algo, unsigned groups)
{
    gs_barrier_options o;
    gs_barrier *b = (gs_barrier *)&o; /* a failure must set it to NULL */
    gs_barrier_options_init(&o);
    *(unsigned *)((char *)&o + offset) = value;
    gs_status s = gs_barrier_create_with(dev, algo, groups, &o, &b);
    if (s != GS_OK)
        assert_null(b);
    gs_barrier_destroy(b);
    return s;
}

#define FIELD(f) offsetof(gs_barrier_options, f)

/* Each field's range, both ends: just inside is taken, just outside refused, also on a
 * protocol that does not use the field. */
static void ranges(void **unused)
{
    (void)unused;
    static const struct {
        size_t field;
        gs_algo algo;
        unsigned ok_lo, ok_hi, bad_hi;
        int has_bad_lo;
        unsigned bad_lo;
    } cases[] = {
        {FIELD(timeout_ms), GS_ALGO_FLIP, 1, 3600000, 3600001, 1, 0},
        {FIELD(release), GS_ALGO_FLIP, GS_BARRIER_RELEASE_POLL, GS_BARRIER_RELEASE_LINES, 2, 0, 0},
        {FIELD(release_lines), GS_ALGO_FLIP, 0, 1024, 1025, 0, 0},
        {FIELD(tree_fanout), GS_ALGO_TREE, 0, 1048576, 1048577, 0, 0},
        {FIELD(backoff_ns), GS_ALGO_FLIP, 0, 1000000, 1000001, 0, 0},
        {FIELD(backoff_cap_ns), GS_ALGO_TREE, 0, 1000000, 1000001, 0, 0},
        {FIELD(shards), GS_ALGO_SHARDED, 1, 1024, 1025, 1, 0},
        {FIELD(first_poll_ns), GS_ALGO_FLIP, 0, 100000, 100001, 0, 0},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; ++i) {
        unsigned groups = 2048;
        assert_int_equal(with_field(cases[i].field, cases[i].ok_lo, cases[i].algo, groups), GS_OK);
        assert_int_equal(with_field(cases[i].field, cases[i].ok_hi, cases[i].algo, groups), GS_OK);
        assert_int_equal(with_field(cases[i].field, cases[i].bad_hi, cases[i].algo, groups),
                         GS_ERR_INVALID_ARGUMENT);
        assert_int_equal(with_field(cases[i].field, cases[i].bad_hi, GS_ALGO_CENTRAL, groups),
                         GS_ERR_INVALID_ARGUMENT);
        if (cases[i].has_bad_lo)
            assert_int_equal(with_field(cases[i].field, cases[i].bad_lo, cases[i].algo, groups),
                             GS_ERR_INVALID_ARGUMENT);
    }
    /* shards: at most the groups */
    assert_int_equal(with_field(FIELD(shards), 8, GS_ALGO_SHARDED, 8), GS_OK);
    assert_int_equal(with_field(FIELD(shards), 9, GS_ALGO_SHARDED, 8), GS_ERR_INVALID_ARGUMENT);
}

/* Each variable, set and in range, replaces the default; out of range it is ignored. */
static void environment_overrides_default(void **unused)
{
    (void)unused;
    setenv("GRIDSYNC_TIMEOUT_MS", "1234", 1);
    setenv("GRIDSYNC_BACKOFF_NS", "77", 1);
    setenv("GRIDSYNC_BACKOFF_CAP_NS", "300", 1);
    setenv("GRIDSYNC_RELEASE", "lines", 1);
    setenv("GRIDSYNC_RELEASE_LINES", "3", 1);
    setenv("GRIDSYNC_TREE_FANOUT", "5", 1);
    setenv("GRIDSYNC_SHARDS", "6", 1);
    setenv("GRIDSYNC_FIRST_POLL_NS", "64", 1);
    gs_barrier *f = make(GS_ALGO_FLIP, 8, NULL), *t = make(GS_ALGO_TREE, 20, NULL);
    gs_barrier *s = make(GS_ALGO_SHARDED, 40, NULL), *s4 = make(GS_ALGO_SHARDED, 4, NULL);
    assert_int_equal(timeout_of(f), 1234);
    assert_int_equal(header(f, GS_HDR_BACKOFF), 77);
    assert_int_equal(header(f, GS_HDR_BACKOFF_CAP), 300);
    assert_int_equal(header(f, GS_HDR_FIRST_POLL), 64);
    assert_int_equal(header(f, GS_HDR_RELEASE), GS_BARRIER_RELEASE_LINES);
    assert_int_equal(header(f, GS_HDR_LEAVES), 3);
    assert_int_equal(header(t, GS_HDR_LEAVES), 4); /* 20 groups in leaves of 5 */
    assert_int_equal(header(s, GS_HDR_LEAVES), 6);
    assert_int_equal(header(s4, GS_HDR_LEAVES), 4); /* more shards than groups: ignored */
    gs_barrier_destroy(f);
    gs_barrier_destroy(t);
    gs_barrier_destroy(s);
    gs_barrier_destroy(s4);

    setenv("GRIDSYNC_TIMEOUT_MS", "0", 1);
    setenv("GRIDSYNC_BACKOFF_NS", "1000001", 1);
    setenv("GRIDSYNC_BACKOFF_CAP_NS", "-1", 1);
    setenv("GRIDSYNC_RELEASE", "sometimes", 1);
    setenv("GRIDSYNC_FIRST_POLL_NS", "100001", 1);
    f = make(GS_ALGO_FLIP, 8, NULL);
    assert_int_equal(timeout_of(f), GS_DEFAULT_TIMEOUT_MS);
    assert_int_equal(header(f, GS_HDR_BACKOFF), 32);
    assert_int_equal(header(f, GS_HDR_BACKOFF_CAP), GS_DEFAULT_BACKOFF_CAP_NS);
    assert_int_equal(header(f, GS_HDR_RELEASE), GS_BARRIER_RELEASE_POLL);
    assert_int_equal(header(f, GS_HDR_FIRST_POLL), 0);
    gs_barrier_destroy(f);
}

/* gs_environment_check names the first variable the library would ignore, and what it
 * takes; good values, text variables and unset ones pass. */
static void environment_check(void **unused)
{
    (void)unused;
    const char *var = "x", *takes = "x";
    assert_int_equal(gs_environment_check(&var, &takes), GS_OK);
    assert_null(var);
    assert_null(takes);
    setenv("GRIDSYNC_BACKOFF_CAP_NS", "1000000", 1);
    setenv("GRIDSYNC_RELEASE", "lines", 1);
    setenv("GRIDSYNC_OPENCL_PLATFORM", "any text", 1);
    assert_int_equal(gs_environment_check(&var, &takes), GS_OK);
    static const struct {
        const char *var, *value, *takes;
    } bad[] = {
        {"GRIDSYNC_BACKOFF_CAP_NS", "1000001", "0 to 1000000"},
        {"GRIDSYNC_SHARDS", "0", "1 to 1024"},
        {"GRIDSYNC_TIMEOUT_MS", "soon", "1 to 3600000"},
        {"GRIDSYNC_TREE_FANOUT", "-3", "0 to 1048576"},
        {"GRIDSYNC_RELEASE", "sometimes", "poll or lines"},
        {"GRIDSYNC_BACKEND", "bogus", "auto, cpu, opencl or cuda"},
        {"GRIDSYNC_PLACE_LINES", "18", "0 to 17"},
    };
    for (unsigned i = 0; i < sizeof bad / sizeof *bad; ++i) {
        const char *old = getenv(bad[i].var);
        char keep[64] = "";
        if (old)
            snprintf(keep, sizeof keep, "%s", old);
        setenv(bad[i].var, bad[i].value, 1);
        assert_int_equal(gs_environment_check(&var, &takes), GS_ERR_INVALID_ARGUMENT);
        assert_string_equal(var, bad[i].var);
        assert_string_equal(takes, bad[i].takes);
        if (old)
            setenv(bad[i].var, keep, 1);
        else
            unsetenv(bad[i].var);
    }
    assert_int_equal(gs_environment_check(NULL, &takes), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_environment_check(&var, NULL), GS_ERR_INVALID_ARGUMENT);
    unsetenv("GRIDSYNC_OPENCL_PLATFORM");
}

/* An explicit option wins over the variable. */
static void explicit_wins(void **unused)
{
    (void)unused;
    gs_barrier_options o;
    setenv("GRIDSYNC_TIMEOUT_MS", "1234", 1);
    setenv("GRIDSYNC_BACKOFF_NS", "77", 1);
    setenv("GRIDSYNC_BACKOFF_CAP_NS", "300", 1);
    setenv("GRIDSYNC_RELEASE", "poll", 1);
    setenv("GRIDSYNC_RELEASE_LINES", "3", 1);
    setenv("GRIDSYNC_TREE_FANOUT", "5", 1);
    setenv("GRIDSYNC_SHARDS", "6", 1);
    gs_barrier_options_init(&o);
    o.timeout_ms = 4321;
    o.backoff_ns = 0;
    o.backoff_cap_ns = 256;
    o.release = GS_BARRIER_RELEASE_LINES;
    o.release_lines = 2;
    o.tree_fanout = 10;
    o.shards = 7;
    gs_barrier *f = make(GS_ALGO_FLIP, 8, &o), *t = make(GS_ALGO_TREE, 20, &o);
    gs_barrier *s = make(GS_ALGO_SHARDED, 40, &o);
    assert_int_equal(timeout_of(f), 4321);
    assert_int_equal(header(f, GS_HDR_BACKOFF), 0);
    assert_int_equal(header(f, GS_HDR_BACKOFF_CAP), 256);
    assert_int_equal(header(f, GS_HDR_RELEASE), GS_BARRIER_RELEASE_LINES);
    assert_int_equal(header(f, GS_HDR_LEAVES), 2);
    assert_int_equal(header(t, GS_HDR_LEAVES), 2); /* 20 groups in leaves of 10 */
    assert_int_equal(header(s, GS_HDR_LEAVES), 7);
    gs_barrier_destroy(f);
    gs_barrier_destroy(t);
    gs_barrier_destroy(s);
}

/* Bad handles and counts are refused before the options are looked at. */
static void bad_arguments(void **unused)
{
    (void)unused;
    gs_barrier_options o;
    gs_barrier *b = NULL;
    gs_barrier_options_init(&o);
    assert_int_equal(gs_barrier_create_with(dev, GS_ALGO_FLIP, 8, &o, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_create_with(NULL, GS_ALGO_FLIP, 8, &o, &b),
                     GS_ERR_INVALID_ARGUMENT);
    assert_null(b);
    assert_int_equal(gs_barrier_create_with(dev, GS_ALGO_FLIP, 0, &o, &b), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_create_with(dev, GS_ALGO_COUNT_, 8, &o, &b), GS_ERR_UNKNOWN_ALGO);
    assert_null(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(init_sets_every_field_default, clear_env),
        cmocka_unit_test_setup(defaults, clear_env),
        cmocka_unit_test_setup(ranges, clear_env),
        cmocka_unit_test_setup(environment_overrides_default, clear_env),
        cmocka_unit_test_setup(explicit_wins, clear_env),
        cmocka_unit_test_setup(environment_check, clear_env),
        cmocka_unit_test_setup(bad_arguments, clear_env),
    };
    dev = test_open_or_skip();
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    gs_device_close(dev);
    return failed;
}
