/* A seeded fuzzer of the public host API (gridsync.h): random calls with random
 * arguments, boundary values (0, 1, the documented bounds and one past them, UINT_MAX),
 * null pointers, unknown enum values and random strings, checking only what the header
 * promises: nothing crashes or hangs, every status is a documented gs_status, the
 * out-pointers are set as documented, a value out of its documented range is
 * GS_ERR_INVALID_ARGUMENT, and a built-in program never computes a wrong result
 * (GS_ERR_CHECK_FAILED, or mismatches on GS_OK).
 *
 * Reproducible: GS_FUZZ_SEED picks the sequence (printed at the start), GS_FUZZ_CALLS
 * how many calls (default: a few thousand on cpu, a few hundred on OpenCL, each
 * backend's share of a minute on 2 cores). A failure names the call and its arguments;
 * GS_FUZZ_TRACE=1 prints every call before it is made.
 * Quick by construction: every barrier's timeout is 200 ms (a call that sets another
 * sets it back), and an accepted gs_run has few work-items, few barriers and at most
 * one field at a large valid value; huge values are only ones the API refuses. The
 * launch functions of gridsync/host_*.h (gs_cpu_launch, gs_opencl_launch, gs_cuda_*)
 * are not part of gridsync.h and not called. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "test_support.h"

#define SLOTS 4u
#define TIMEOUT_MS 200u
#define MAX_ITERATIONS (1u << 30) /* gs_run_config.iterations: the most gs_run takes */

static gs_device *dev;
static gs_device_info info;
static unsigned long long seed;
static unsigned calls;

/* ---- the generator: splitmix64 ---------------------------------------------------- */

static uint64_t rng;

static uint64_t next(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned below(unsigned n) { return n ? (unsigned)(next() % n) : 0u; }
static int chance(unsigned percent) { return below(100) < percent; }
#define PICK(arr) ((arr)[below(sizeof(arr) / sizeof *(arr))])

/* ---- what is being called, for the failure message -------------------------------- */

static unsigned call_no;
static char what[320];
static int trace; /* GS_FUZZ_TRACE=1: print every call (its result follows on failure) */

#define DESCRIBE(...)                                   \
    do {                                                \
        snprintf(what, sizeof what, __VA_ARGS__);       \
        if (trace)                                      \
            fprintf(stderr, "%u: %s\n", call_no, what); \
    } while (0)
#define CHECK(cond)                                                                             \
    do {                                                                                        \
        if (!(cond))                                                                            \
            fail_msg("GS_FUZZ_SEED=%llu call %u: %s: expected %s", seed, call_no, what, #cond); \
    } while (0)

static int documented(gs_status s) { return (unsigned)s <= GS_ERR_BUSY; }

static unsigned run_status[GS_ERR_BUSY + 1]; /* what gs_run answered, how often */

/* ---- the barriers the calls share --------------------------------------------------- */

typedef struct slot {
    gs_barrier *b;
    gs_algo algo;
    unsigned groups;
    unsigned timeout_ms;
} slot;

static slot slots[SLOTS];

/* "flip in slot 2", or "NULL": how a description names a barrier. */
static const char *barrier_name(const slot *sl, const gs_barrier *b)
{
    static char buf[48];
    if (!b)
        return "NULL";
    snprintf(buf, sizeof buf, "%s in slot %u", gs_algo_name(sl->algo), (unsigned)(sl - slots));
    return buf;
}

/* A barrier (or, now and then, NULL) to call with; *s its slot, NULL for NULL. */
static gs_barrier *some_barrier(slot **s)
{
    *s = NULL;
    if (chance(4))
        return NULL;
    unsigned k = below(SLOTS);
    /* mostly a live one, so that most calls get past the null check */
    for (unsigned i = 0; i < SLOTS && !slots[k].b && chance(90); ++i)
        k = (k + 1u) % SLOTS;
    *s = &slots[k];
    return (*s)->b;
}

/* ---- random values ---------------------------------------------------------------- */

static const char *const algo_names[] = {"central",        "lockfree", "naive",   "flip",
                                         "tree",           "relaunch", "cluster", "cg",
                                         "relaunch-graph", "sharded"};
static const char *const backend_names[] = {"auto", "cpu", "opencl", "cuda"};

/* A name, a name one edit away from one, random bytes, or the empty string. */
static const char *some_name(char *buf, size_t size, const char *const *names, unsigned n)
{
    const char *base = names[below(n)];
    unsigned kind = below(5), len;
    snprintf(buf, size, "%s", base);
    len = (unsigned)strlen(buf);
    switch (kind) {
    case 0: break;
    case 1:
        if (len)
            buf[below(len)] = (char)(1 + below(255));
        break;
    case 2:
        if (len)
            buf[below(len)] = '\0';
        break;
    case 3:
        if (len + 1 < size) {
            buf[len] = (char)(1 + below(255));
            buf[len + 1] = '\0';
        }
        break;
    default:
        len = below((unsigned)size);
        for (unsigned i = 0; i < len; ++i)
            buf[i] = (char)(1 + below(255));
        buf[len] = '\0';
    }
    return buf;
}

static unsigned some_group_size(void)
{
    static const unsigned cheap[] = {1, 2, 3, 4, 4, 8, 16};
    unsigned bad[] = {0, info.max_group_size + 1u, 1u << 20, UINT_MAX};
    return chance(85) ? PICK(cheap) : PICK(bad);
}

/* ---- the calls ---------------------------------------------------------------------- */

static void call_status_string(void)
{
    static const int values[] = {-1, 0, 1, 7, 13, 14, 15, 999, INT_MIN, INT_MAX};
    int v = chance(50) ? PICK(values) : (int)next();
    DESCRIBE("gs_status_string(%d)", v);
    const char *text = gs_status_string((gs_status)v);
    CHECK(text != NULL);
    if (v >= 0 && v <= GS_ERR_BUSY)
        CHECK(strncmp(text, "GS_", 3) == 0);
    else
        CHECK(strcmp(text, "unknown gs_status") == 0);
}

static void call_names(void)
{
    char buf[24];
    const char *name =
        chance(5) ? NULL
                  : some_name(buf, sizeof buf, algo_names, sizeof algo_names / sizeof *algo_names);
    gs_algo a = (gs_algo)-7;
    int null_out = chance(5);
    DESCRIBE("gs_algo_from_name(%s%s%s, %s)", name ? "\"" : "", name ? name : "NULL",
             name ? "\"" : "", null_out ? "NULL" : "&a");
    gs_status s = gs_algo_from_name(name, null_out ? NULL : &a);
    CHECK(documented(s));
    CHECK(s == GS_OK || s == GS_ERR_UNKNOWN_ALGO || s == GS_ERR_INVALID_ARGUMENT);
    if (!name || null_out)
        CHECK(s == GS_ERR_INVALID_ARGUMENT);
    if (s == GS_OK)
        CHECK((unsigned)a < GS_ALGO_COUNT_ && strcmp(gs_algo_name(a), name) == 0);
    unsigned v = chance(50) ? below(GS_ALGO_COUNT_ + 2) : (unsigned)next();
    DESCRIBE("gs_algo_name(%u)", v);
    CHECK((gs_algo_name((gs_algo)v) != NULL) == (v < GS_ALGO_COUNT_));

    name = chance(5) ? NULL
                     : some_name(buf, sizeof buf, backend_names,
                                 sizeof backend_names / sizeof *backend_names);
    gs_backend be = (gs_backend)-7;
    DESCRIBE("gs_backend_from_name(%s)", name ? name : "NULL");
    s = gs_backend_from_name(name, &be);
    CHECK(s == GS_OK || s == GS_ERR_INVALID_ARGUMENT);
    if (s == GS_OK)
        CHECK(strcmp(gs_backend_name(be), name) == 0);
    v = chance(50) ? below(6) : (unsigned)next();
    DESCRIBE("gs_backend_name(%u), gs_backend_built(%u)", v, v);
    CHECK((gs_backend_name((gs_backend)v) != NULL) == (v <= GS_BACKEND_CUDA));
    if (v > GS_BACKEND_CUDA)
        CHECK(!gs_backend_built((gs_backend)v));
}

/* Opening another device: rarely a real one (an OpenCL open builds a program). */
static void call_device_open(void)
{
    static const int backends[] = {
        GS_BACKEND_AUTO, GS_BACKEND_CPU, GS_BACKEND_OPENCL, GS_BACKEND_CUDA, -1, 4, 42, INT_MAX};
    static const int indices[] = {-1, INT_MIN, 1, 7, INT_MAX, 0};
    int backend = PICK(backends), index = PICK(indices);
    if (index == 0 && !chance(15))
        index = -2; /* index 0 of a real back end opens it: keep those few */
    int null_out = chance(10);
    gs_device *d = (gs_device *)&d; /* stale: a failure must clear it */
    DESCRIBE("gs_device_open(%d, %d, %s)", backend, index, null_out ? "NULL" : "&d");
    gs_status s = gs_device_open((gs_backend)backend, index, null_out ? NULL : &d);
    CHECK(documented(s));
    if (null_out || index < 0 || backend < 0 || backend > GS_BACKEND_CUDA)
        CHECK(s == GS_ERR_INVALID_ARGUMENT);
    if (null_out)
        return;
    CHECK((s == GS_OK) == (d != NULL));
    if (s != GS_OK)
        return;
    gs_device_info di;
    unsigned u = 0;
    DESCRIBE("gs_device_get_info/max_groups/close on a device of gs_device_open(%d, %d)", backend,
             index);
    CHECK(gs_device_get_info(d, &di) == GS_OK);
    CHECK(backend == GS_BACKEND_AUTO || di.backend == (gs_backend)backend);
    s = gs_device_max_groups(d, 1, &u);
    CHECK(documented(s));
    CHECK(gs_device_close(d) == GS_OK);
}

static void call_device_queries(void)
{
    gs_device *d = chance(5) ? NULL : dev;
    gs_device_info di;
    unsigned size = some_group_size(), u = 12345u;
    int null_out = chance(5);
    DESCRIBE("gs_device_get_info(%s, %s)", d ? "dev" : "NULL", null_out ? "NULL" : "&info");
    gs_status s = gs_device_get_info(d, null_out ? NULL : &di);
    CHECK(s == (d && !null_out ? GS_OK : GS_ERR_INVALID_ARGUMENT));
    if (s == GS_OK)
        CHECK(di.backend == info.backend && di.max_group_size == info.max_group_size);

    DESCRIBE("gs_device_max_groups(%s, %u, %s)", d ? "dev" : "NULL", size,
             null_out ? "NULL" : "&u");
    s = gs_device_max_groups(d, size, null_out ? NULL : &u);
    CHECK(documented(s));
    if (!d || null_out || size == 0 || size > info.max_group_size)
        CHECK(s == GS_ERR_INVALID_ARGUMENT);

    unsigned a = chance(80) ? below(GS_ALGO_COUNT_) : (unsigned)next();
    DESCRIBE("gs_algo_supported(%s, %u)", d ? "dev" : "NULL", a);
    int ok = gs_algo_supported(d, (gs_algo)a);
    if (!d || a >= GS_ALGO_COUNT_)
        CHECK(!ok);

    int code = 0;
    const char *text = NULL;
    DESCRIBE("gs_device_native_error(%s, &code, &text)", d ? "dev" : "NULL");
    s = gs_device_native_error(d, &code, &text);
    CHECK(s == (d ? GS_OK : GS_ERR_INVALID_ARGUMENT));
    if (s == GS_OK)
        CHECK(text != NULL);

    /* Discovery launches a grid on OpenCL: seldom with a size it takes. */
    if (chance(3) || size == 0 || size > info.max_group_size) {
        DESCRIBE("gs_device_discover_groups(%s, %u, %s)", d ? "dev" : "NULL", size,
                 null_out ? "NULL" : "&u");
        s = gs_device_discover_groups(d, size, null_out ? NULL : &u);
        CHECK(documented(s));
        if (!d || null_out || size == 0 || size > info.max_group_size)
            CHECK(s == GS_ERR_INVALID_ARGUMENT);
    }
}

static void call_barrier_create(void)
{
    slot *sl = &slots[below(SLOTS)];
    gs_device *d = chance(4) ? NULL : dev;
    unsigned algo = chance(85) ? below(GS_ALGO_COUNT_) : PICK(((unsigned[]){10, 99, UINT_MAX}));
    static const unsigned cheap[] = {1, 1, 2, 2, 2, 3, 4, 8, 16};
    static const unsigned bad[] = {0, (1u << 24) + 1u, 0x80000000u, UINT_MAX};
    unsigned groups = chance(85) ? PICK(cheap) : PICK(bad);
    int null_out = chance(4);
    gs_barrier *b = (gs_barrier *)&b; /* stale: a failure must clear it */
    DESCRIBE("gs_barrier_create(%s, %u, %u, %s)", d ? "dev" : "NULL", algo, groups,
             null_out ? "NULL" : "&b");
    gs_status s = gs_barrier_create(d, (gs_algo)algo, groups, null_out ? NULL : &b);
    CHECK(documented(s));
    if (!d || null_out || groups == 0 || groups > (1u << 24))
        CHECK(s == GS_ERR_INVALID_ARGUMENT);
    else if (algo >= GS_ALGO_COUNT_)
        CHECK(s == GS_ERR_UNKNOWN_ALGO);
    else if (!gs_algo_supported(d, (gs_algo)algo))
        CHECK(s == GS_ERR_UNSUPPORTED);
    if (null_out)
        return;
    CHECK((s == GS_OK) == (b != NULL));
    if (s != GS_OK)
        return;
    DESCRIBE("gs_barrier_set_timeout(new %s barrier of %u in slot %u, %u)",
             gs_algo_name((gs_algo)algo), groups, (unsigned)(sl - slots), TIMEOUT_MS);
    CHECK(gs_barrier_set_timeout(b, TIMEOUT_MS) == GS_OK);
    if (sl->b)
        CHECK(gs_barrier_destroy(sl->b) == GS_OK);
    *sl = (slot){b, (gs_algo)algo, groups, TIMEOUT_MS};
}

static void call_barrier_destroy(void)
{
    slot *sl;
    gs_barrier *b = some_barrier(&sl);
    DESCRIBE("gs_barrier_destroy(%s)", barrier_name(sl, b));
    CHECK(gs_barrier_destroy(b) == (b ? GS_OK : GS_ERR_INVALID_ARGUMENT));
    if (b)
        sl->b = NULL;
}

static void call_barrier_queries(void)
{
    slot *sl;
    gs_barrier *b = some_barrier(&sl);
    int null_out = chance(5);
    gs_status s;
    const gs_status bad = GS_ERR_INVALID_ARGUMENT;
    const char *bname = barrier_name(sl, b);

    if (chance(50)) { /* not always: an aborted barrier must also meet gs_run */
        DESCRIBE("gs_barrier_reset(%s)", bname);
        s = gs_barrier_reset(b);
        CHECK(b ? s == GS_OK : s == bad);
    }

    static const unsigned ms_values[] = {0, 1, 2, 50, 200, 5000, 3600000, 3600001, UINT_MAX};
    unsigned ms = chance(70) ? PICK(ms_values) : (unsigned)next(), got = 0;
    DESCRIBE("gs_barrier_set_timeout(%s, %u)", bname, ms);
    s = gs_barrier_set_timeout(b, ms);
    CHECK(documented(s));
    CHECK(!b || ms == 0 || ms > 3600000u ? s == bad : s == GS_OK);
    if (s == GS_OK)
        sl->timeout_ms = ms;
    DESCRIBE("gs_barrier_get_timeout(%s, %s) after setting %u", bname, null_out ? "NULL" : "&ms",
             ms);
    s = gs_barrier_get_timeout(b, null_out ? NULL : &got);
    CHECK(b && !null_out ? s == GS_OK : s == bad);
    if (s == GS_OK)
        CHECK(got == sl->timeout_ms);
    if (b && sl->timeout_ms > TIMEOUT_MS) { /* keep every wait short */
        DESCRIBE("gs_barrier_set_timeout(%s, %u) back", bname, TIMEOUT_MS);
        CHECK(gs_barrier_set_timeout(b, TIMEOUT_MS) == GS_OK);
        sl->timeout_ms = TIMEOUT_MS;
    }

    gs_abort_info ai;
    DESCRIBE("gs_barrier_abort_info(%s, %s)", bname, null_out ? "NULL" : "&ai");
    s = gs_barrier_abort_info(b, null_out ? NULL : &ai);
    CHECK(b && !null_out ? s == GS_OK : s == bad);
    if (s == GS_OK)
        CHECK(ai.reason <= GS_ABORT_REASON_AFTER_LAST && ai.missing <= sl->groups);

    void *p = NULL;
    DESCRIBE("gs_barrier_native(%s, %s)", bname, null_out ? "NULL" : "&p");
    s = gs_barrier_native(b, null_out ? NULL : &p);
    CHECK(b && !null_out ? s == GS_OK && p != NULL : s == bad);

    size_t bytes = 0;
    DESCRIBE("gs_barrier_state_bytes(%s, %s)", bname, null_out ? "NULL" : "&bytes");
    s = gs_barrier_state_bytes(b, null_out ? NULL : &bytes);
    CHECK(b && !null_out ? s == GS_OK && bytes > 0 : s == bad);
}

/* A run configuration. Most are cheap and valid; some have one field out of range (or
 * at a boundary the API refuses); some have one field at its largest valid value with
 * everything else minimal; a few take every field from the cheap and refused values. */
static gs_run_config some_config(const slot *sl)
{
    static const unsigned workloads[] = {
        GS_WORKLOAD_EMPTY,   GS_WORKLOAD_TESTSYNC, GS_WORKLOAD_TESTSYNC, GS_WORKLOAD_STENCIL,
        GS_WORKLOAD_STENCIL, GS_WORKLOAD_MP,       GS_WORKLOAD_MP,       GS_WORKLOAD_MP};
    static const unsigned iterations[] = {1, 2, 3, 5, 8, 13};
    static const unsigned delays[] = {0, 0, 1, 8, 64};
    static const unsigned stresses[] = {0, 0, 1, 4};
    static const unsigned lates[] = {0, 0, 16, 256};
    static const unsigned computes[] = {0, 0, 0, 1, 64};
    unsigned groups = sl->groups;
    gs_run_config c = {.workload = (gs_workload)PICK(workloads),
                       .groups = groups,
                       .group_size = PICK(((unsigned[]){1, 2, 3, 4, 8})),
                       .iterations = PICK(iterations),
                       .seed = (unsigned)next(),
                       .delay = PICK(delays),
                       .stress = PICK(stresses),
                       .late = PICK(lates),
                       .compute = PICK(computes),
                       .split = (int)below(2)};
    /* Faults end by the timeout: seldom. */
    if (chance(3))
        c.workload = chance(50) ? GS_WORKLOAD_FAULT_EXIT : GS_WORKLOAD_FAULT_SKIP;
    if (chance(15))
        c.logical_groups = groups * (1u + below(3));
    unsigned mode = below(100), field = below(13);
    if (mode < 63)
        return c;
    if (mode >= 83 && mode < 95) { /* one field at its largest valid value */
        c.group_size = 1 + below(2);
        c.iterations = 1;
        c.logical_groups = 0;
        c.delay = c.stress = c.late = c.compute = 0;
        switch (field % 6) {
        case 0: c.group_size = info.max_group_size; break;
        case 1: c.delay = GS_MAX_DELAY; break;
        case 2: c.stress = GS_MAX_STRESS; break;
        case 3: c.late = GS_MAX_LATE; break;
        case 4: c.compute = GS_MAX_COMPUTE; break;
        default:
            c.seed = UINT_MAX;
            c.iterations = 1;
            break;
        }
        return c;
    }
    /* one field refused (mode < 83), or every field a coin toss between the two (chaos) */
    int chaos = mode >= 95;
    for (unsigned f = 0; f < 13; ++f) {
        if (chaos ? !chance(30) : f != field)
            continue;
        switch (f) {
        case 0: c.workload = (gs_workload)PICK(((unsigned[]){6, 77, UINT_MAX})); break;
        case 1: c.groups = PICK(((unsigned[]){0, groups + 1u, groups - 1u, UINT_MAX})); break;
        case 2: c.group_size = PICK(((unsigned[]){0, info.max_group_size + 1u, UINT_MAX})); break;
        case 3: c.iterations = PICK(((unsigned[]){MAX_ITERATIONS + 1u, UINT_MAX})); break;
        case 4: c.delay = PICK(((unsigned[]){GS_MAX_DELAY + 1u, UINT_MAX})); break;
        case 5: c.stress = PICK(((unsigned[]){GS_MAX_STRESS + 1u, 1u << 26, UINT_MAX})); break;
        case 6: c.late = PICK(((unsigned[]){GS_MAX_LATE + 1u, UINT_MAX})); break;
        case 7: c.compute = PICK(((unsigned[]){GS_MAX_COMPUTE + 1u, UINT_MAX})); break;
        case 8: c.split = PICK(((int[]){2, -1, INT_MAX, INT_MIN})); break;
        case 9:
            c.logical_groups = PICK(((unsigned[]){groups - 1u, UINT_MAX, (1u << 26) + 1u}));
            break;
        case 10:
            c.workload = GS_WORKLOAD_MP;
            c.logical_groups = groups * 4096u;
            break;
        case 11:
            c.workload = GS_WORKLOAD_STENCIL;
            c.iterations = 0;
            break;
        default:
            c.groups = 0;
            c.group_size = 0;
            break;
        }
    }
    return c;
}

/* Whether the header says gs_run refuses `c` with GS_ERR_INVALID_ARGUMENT. */
static int documented_invalid(const gs_run_config *c, const slot *sl)
{
    uint64_t logical = c->logical_groups ? c->logical_groups : c->groups;
    uint64_t mp_reads = c->groups ? (logical + c->groups - 1u) / c->groups * logical : 0u;
    return c->groups == 0 || c->group_size == 0 || c->groups != sl->groups ||
           (unsigned)c->workload > GS_WORKLOAD_FAULT_SKIP || c->group_size > info.max_group_size ||
           (c->logical_groups != 0 && c->logical_groups < c->groups) ||
           (c->workload == GS_WORKLOAD_STENCIL && c->iterations == 0) ||
           c->iterations > MAX_ITERATIONS || c->compute > GS_MAX_COMPUTE ||
           (c->split != 0 && c->split != 1) || c->delay > GS_MAX_DELAY ||
           c->stress > GS_MAX_STRESS || c->late > GS_MAX_LATE ||
           (c->workload == GS_WORKLOAD_MP && mp_reads > GS_MAX_MP_READS);
}

static void call_run(void)
{
    slot *sl;
    gs_barrier *b = some_barrier(&sl);
    slot none = {NULL, GS_ALGO_FLIP, 2, TIMEOUT_MS};
    sl = sl ? sl : &none;
    gs_run_config c = some_config(sl);
    gs_run_result r;
    int null_cfg = chance(3), null_res = chance(3);
    DESCRIBE("gs_run(%s, {workload %u, groups %u, group_size %u, iterations %u, seed %u, "
             "delay %u, logical %u, stress %u, late %u, compute %u, split %d}%s%s)",
             barrier_name(sl, b), (unsigned)c.workload, c.groups, c.group_size, c.iterations,
             c.seed, c.delay, c.logical_groups, c.stress, c.late, c.compute, c.split,
             null_cfg ? ", cfg NULL" : "", null_res ? ", result NULL" : "");
    gs_status s = gs_run(b, null_cfg ? NULL : &c, null_res ? NULL : &r);
    CHECK(documented(s));
    if (documented(s))
        ++run_status[s];
    if (!b || null_cfg || null_res || documented_invalid(&c, sl))
        CHECK(s == GS_ERR_INVALID_ARGUMENT);
    /* The barriers are correct: a wrong result is a defect, never an outcome. */
    CHECK(s != GS_ERR_CHECK_FAILED);
    if (s == GS_OK)
        CHECK(r.mismatches == 0);
}

/* ---- the test ----------------------------------------------------------------------- */

static void fuzz_host_api(void **state)
{
    static void (*const ops[])(void) = {call_status_string,
                                        call_names,
                                        call_device_open,
                                        call_device_queries,
                                        call_barrier_create,
                                        call_barrier_create,
                                        call_barrier_destroy,
                                        call_barrier_queries,
                                        call_run,
                                        call_run,
                                        call_run,
                                        call_run};
    unsigned counts[sizeof ops / sizeof *ops] = {0};
    rng = seed;
    for (call_no = 0; call_no < calls; ++call_no) {
        unsigned k = below(sizeof ops / sizeof *ops);
        /* device opens are the slowest calls that always run: rarer */
        if (ops[k] == call_device_open && !chance(25))
            k = 0;
        ++counts[k];
        ops[k]();
    }
    print_message("%u calls: %u status strings, %u name lookups, %u opens, %u device queries, "
                  "%u creates, %u destroys, %u barrier queries, %u runs\n",
                  calls, counts[0], counts[1], counts[2], counts[3], counts[4] + counts[5],
                  counts[6], counts[7], counts[8] + counts[9] + counts[10] + counts[11]);
    for (unsigned i = 0; i <= GS_ERR_BUSY; ++i)
        if (run_status[i])
            print_message("  gs_run: %4u x %s\n", run_status[i], gs_status_string((gs_status)i));
}

static int setup(void **state)
{
    const char *env = getenv("GS_FUZZ_SEED");
    dev = test_open_or_skip();
    if (gs_device_get_info(dev, &info) != GS_OK)
        return -1;
    seed = env && *env ? strtoull(env, NULL, 0) : 0x6772696473796e63ull; /* "gridsync" */
    trace = test_env_uint("GS_FUZZ_TRACE", 0) != 0;
    calls = test_env_uint("GS_FUZZ_CALLS", info.backend == GS_BACKEND_CPU ? 3000u : 500u);
    print_message("GS_FUZZ_SEED=%llu GS_FUZZ_CALLS=%u on %s\n", seed, calls, info.name);
    return 0;
}

static int teardown(void **state)
{
    for (unsigned i = 0; i < SLOTS; ++i)
        if (slots[i].b)
            gs_barrier_destroy(slots[i].b);
    gs_device_close(dev);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fuzz_host_api),
    };
    return cmocka_run_group_tests_name("fuzz", tests, setup, teardown);
}
