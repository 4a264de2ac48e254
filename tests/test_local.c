/* tests/test_local.c - local synchronization (gridsync/local.h, host_local.h) on the cpu
 * back end: the anti-diagonal ticket order, a wavefront checked cell by cell with more
 * tiles than groups and with one group, reuse across launches and the epoch's wrap, the
 * timeout naming the tile never signalled, a state that is not local synchronization's,
 * and the host API's argument checks.
 *
 * With GS_TEST_EXPECT_WRONG=1 (the weakened library, whose waits let a group through
 * one value early) the wavefront must come out wrong: the check can fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gridsync.h"
#include "gridsync/cpu.h"
#include "gridsync/host_cpu.h"
#include "gridsync/host_local.h"

static gs_device *dev;

/* ---- the ticket order ----------------------------------------------------------------- */

static void diagonal_order_respects_dependencies(void **unused)
{
    (void)unused;
    static const unsigned shapes[][2] = {{1, 1}, {1, 7}, {7, 1}, {3, 5}, {5, 3}, {8, 8}, {2, 33}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        unsigned rows = shapes[s][0], cols = shapes[s][1];
        unsigned *ticket_of = calloc(rows * cols, sizeof *ticket_of);
        unsigned char *seen = calloc(rows * cols, 1);
        assert_non_null(ticket_of);
        assert_non_null(seen);
        for (unsigned t = 0; t < rows * cols; ++t) {
            gs_u32 i = 99, j = 99;
            assert_true(gs_local_diagonal(t, rows, cols, &i, &j));
            assert_true(i < rows && j < cols);
            assert_int_equal(seen[i * cols + j], 0); /* every tile once */
            seen[i * cols + j] = 1;
            ticket_of[i * cols + j] = t;
            if (i > 0) /* its dependencies came earlier */
                assert_true(seen[(i - 1) * cols + j]);
            if (j > 0)
                assert_true(seen[i * cols + j - 1]);
            if (t > 0) { /* anti-diagonals in order */
                gs_u32 pi, pj;
                gs_local_diagonal(t - 1, rows, cols, &pi, &pj);
                assert_true(pi + pj <= i + j);
            }
        }
        gs_u32 i, j;
        assert_false(gs_local_diagonal(rows * cols, rows, cols, &i, &j));
        assert_false(gs_local_diagonal(GS_LOCAL_END, rows, cols, &i, &j));
        free(ticket_of);
        free(seen);
    }
    gs_u32 i, j; /* a 65536 x 65536 matrix: the count does not overflow 32 bits */
    assert_true(gs_local_diagonal(4294967295u - 1u, 65536u, 65536u, &i, &j));
    assert_int_equal(i, 65535u);
    assert_int_equal(j, 65534u);
}

/* ---- a wavefront ------------------------------------------------------------------------ */

#define TILE 4u /* cells a side; a group of TILE work-items, one per column */

typedef struct wave {
    gs_word *state;
    unsigned rows, cols;  /* tiles */
    uint32_t *cell;       /* (rows*TILE + 1) x (cols*TILE + 1), row 0 and column 0 fixed */
    unsigned silent_tile; /* a tile whose owner never signals, or ~0u */
} wave;

static size_t width(const wave *w) { return (size_t)w->cols * TILE + 1u; }

static uint32_t rule(uint32_t up, uint32_t left, uint32_t diag)
{
    return up * 3u + left + diag * 7u + 1u;
}

/* A tile's cells in the tile's own wavefront: work-item c takes column c, one cell a
 * step, a group barrier between steps, so the writes of one tile come from every
 * work-item of the group (the signal must release them all). */
static void compute_tile(const wave *w, unsigned ti, unsigned tj)
{
    unsigned c = gs_local_id();
    for (unsigned step = 0; step < 2u * TILE - 1u; ++step) {
        if (step >= c && step - c < TILE) {
            size_t r = (size_t)ti * TILE + (step - c) + 1u, k = (size_t)tj * TILE + c + 1u;
            uint32_t *p = &w->cell[r * width(w) + k];
            *p = rule(p[-(ptrdiff_t)width(w)], p[-1], p[-(ptrdiff_t)width(w) - 1]);
            if (c == 0u && step == 0u)
                sched_yield(); /* let the scheduler interleave the groups */
        }
        gs_group_barrier();
    }
}

static void wave_kernel(void *arg)
{
    wave *w = arg;
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(w->state, scratch);
    for (;;) {
        gs_u32 t = gs_local_next(&L), i, j;
        if (!gs_local_diagonal(t, w->rows, w->cols, &i, &j))
            return;
        if (gs_local_wait2(&L, (i - 1u) * w->cols + j, i > 0u, i * w->cols + j - 1u, j > 0u))
            return;
        compute_tile(w, i, j);
        if (t != w->silent_tile)
            gs_local_signal(&L, i * w->cols + j, 1u);
    }
}

static void reference(const wave *w, uint32_t *out)
{
    size_t W = width(w), H = (size_t)w->rows * TILE + 1u;
    for (size_t r = 0; r < H; ++r)
        for (size_t k = 0; k < W; ++k)
            out[r * W + k] = r == 0 || k == 0 ? (uint32_t)(r * 31u + k * 17u)
                                              : rule(out[(r - 1) * W + k], out[r * W + k - 1],
                                                     out[(r - 1) * W + k - 1]);
}

/* Runs the wavefront on `groups` groups; returns the launch's status and the number of
 * wrong cells in *wrong. */
static gs_status run_wave(gs_local *L, unsigned rows, unsigned cols, unsigned groups,
                          unsigned silent, size_t *wrong)
{
    wave w = {0};
    void *state = NULL;
    assert_int_equal(gs_local_native(L, &state), GS_OK);
    w.state = state;
    w.rows = rows;
    w.cols = cols;
    w.silent_tile = silent;
    size_t W = (size_t)cols * TILE + 1u, H = (size_t)rows * TILE + 1u;
    w.cell = calloc(W * H, sizeof *w.cell);
    uint32_t *want = calloc(W * H, sizeof *want);
    assert_non_null(w.cell);
    assert_non_null(want);
    reference(&w, want);
    for (size_t r = 0; r < H; ++r) /* the fixed edges */
        for (size_t k = 0; k < W; ++k)
            if (r == 0 || k == 0)
                w.cell[r * W + k] = want[r * W + k];
    gs_status s = gs_cpu_launch_local(L, GS_DIM3_1D(groups), GS_DIM3_1D(TILE), wave_kernel, &w);
    *wrong = 0;
    for (size_t n = 0; n < W * H; ++n)
        *wrong += w.cell[n] != want[n];
    free(w.cell);
    free(want);
    return s;
}

static int expect_wrong(void)
{
    const char *e = getenv("GS_TEST_EXPECT_WRONG");
    return e && e[0] == '1';
}

static void wavefront_more_tiles_than_groups(void **unused)
{
    (void)unused;
    gs_local *L = NULL;
    unsigned rows = 12, cols = 12, groups = 6;
    assert_int_equal(gs_local_create(dev, rows * cols, &L), GS_OK);
    size_t wrong_total = 0;
    for (int run = 0; run < 4; ++run) { /* the same state, no reset between launches */
        size_t wrong = 0;
        gs_status s = run_wave(L, rows, cols, groups, ~0u, &wrong);
        if (!expect_wrong()) {
            assert_int_equal(s, GS_OK);
            assert_int_equal(wrong, 0);
        }
        wrong_total += wrong;
    }
    if (expect_wrong())
        assert_true(wrong_total > 0); /* the weakened wait lets a tile start too early */
    gs_local_destroy(L);
}

static void wavefront_one_group(void **unused)
{
    (void)unused;
    gs_local *L = NULL;
    assert_int_equal(gs_local_create(dev, 5 * 9, &L), GS_OK);
    size_t wrong = 1;
    assert_int_equal(run_wave(L, 5, 9, 1, ~0u, &wrong), GS_OK);
    assert_int_equal(wrong, 0);
    gs_local_destroy(L);
}

/* 130 launches on one state: the epoch wraps (127) and the words are cleared, and no
 * launch takes an earlier launch's word for its own. */
static void epochs_wrap(void **unused)
{
    (void)unused;
    gs_local *L = NULL;
    assert_int_equal(gs_local_create(dev, 2 * 3, &L), GS_OK);
    for (int run = 0; run < 130; ++run) {
        size_t wrong = 1;
        assert_int_equal(run_wave(L, 2, 3, 2, ~0u, &wrong), GS_OK);
        assert_int_equal(wrong, 0);
    }
    gs_local_destroy(L);
}

/* A tile whose owner never signals: a wait on it (or on a tile after it) times out, the
 * abort names the group that waited, the word and the value, and no launch hangs. With
 * one group the first wait to give up is the one on the silent tile itself. */
static void silent_producer_times_out(void **unused)
{
    (void)unused;
    gs_local *L = NULL;
    unsigned rows = 4, cols = 4;
    assert_int_equal(gs_local_create(dev, rows * cols, &L), GS_OK);
    assert_int_equal(gs_local_set_timeout(L, 300), GS_OK);
    gs_u32 si, sj;
    gs_local_diagonal(4, rows, cols, &si, &sj); /* ticket 4: tile (1, 1) */
    for (unsigned groups = 1; groups <= 3; groups += 2) {
        size_t wrong = 0;
        assert_int_equal(run_wave(L, rows, cols, groups, 4, &wrong), GS_ERR_TIMEOUT);
        gs_local_abort info;
        assert_int_equal(gs_local_abort_info(L, &info), GS_OK);
        assert_int_equal(info.reason, GS_ABORT_REASON_TIMEOUT);
        assert_int_equal(info.awaited, 1u);
        assert_int_equal(info.seen, 0u);
        assert_true(info.group < groups);
        assert_int_equal(info.item, 0u); /* the representative polls */
        if (groups == 1)
            assert_int_equal(info.word, si * cols + sj);
        else /* the silent tile or one that depends on it */
            assert_true(info.word / cols >= si && info.word % cols >= sj);
        /* the next launch of the same state is whole again */
        assert_int_equal(run_wave(L, rows, cols, groups, ~0u, &wrong), GS_OK);
        assert_int_equal(wrong, 0);
        assert_int_equal(gs_local_abort_info(L, &info), GS_OK);
        assert_int_equal(info.reason, GS_ABORT_REASON_NONE);
    }
    gs_local_destroy(L);
}

/* A kernel handed a barrier's state instead: it touches nothing, takes no ticket, and
 * the host says GS_ERR_BAD_STATE (nothing acknowledged the local state). */
typedef struct wrong_state {
    gs_word *state;
    int tickets;
    gs_u32 why; /* what gs_local_wait said (a thread may not call cmocka's asserts) */
} wrong_state;
static void wrong_state_kernel(void *arg)
{
    wrong_state *ws = arg;
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(ws->state, scratch);
    if (gs_local_next(&L) != GS_LOCAL_END && gs_local_first())
        ws->tickets = 1;
    gs_u32 why = gs_local_wait(&L, 0, 1);
    if (gs_local_first())
        ws->why = why;
}
static void bad_state_reported(void **unused)
{
    (void)unused;
    gs_local *L = NULL;
    gs_barrier *b = NULL;
    void *bstate = NULL;
    assert_int_equal(gs_local_create(dev, 4, &L), GS_OK);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, 2, &b), GS_OK);
    assert_int_equal(gs_barrier_native(b, &bstate), GS_OK);
    wrong_state ws = {bstate, 0, 0};
    assert_int_equal(gs_cpu_launch_local(L, GS_DIM3_1D(2), GS_DIM3_1D(2), wrong_state_kernel, &ws),
                     GS_ERR_BAD_STATE);
    assert_int_equal(ws.tickets, 0);
    assert_int_equal(ws.why, GS_ABORT_BAD_STATE);
    gs_local_abort info;
    assert_int_equal(gs_local_abort_info(L, &info), GS_OK);
    assert_int_equal(info.reason, GS_ABORT_REASON_UNUSED);
    gs_barrier_destroy(b);
    gs_local_destroy(L);
}

static void host_api_refuses_bad_arguments(void **unused)
{
    (void)unused;
    gs_local *L = (gs_local *)&L;
    assert_int_equal(gs_local_create(dev, 0, &L), GS_ERR_INVALID_ARGUMENT);
    assert_null(L);
    assert_int_equal(gs_local_create(dev, GS_LOCAL_MAX_WORDS + 1u, &L), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_create(NULL, 4, &L), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_create(dev, 4, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_destroy(NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_prepare(NULL, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_collect(NULL, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_create(dev, 4, &L), GS_OK);
    assert_int_equal(gs_local_set_timeout(L, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_set_timeout(L, 3600001u), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_set_timeout(L, 1234), GS_OK);
    unsigned ms = 0, words = 0;
    size_t bytes = 0;
    assert_int_equal(gs_local_get_timeout(L, &ms), GS_OK);
    assert_int_equal(ms, 1234u);
    assert_int_equal(gs_local_get_words(L, &words, &bytes), GS_OK);
    assert_int_equal(words, 4u);
    assert_true(bytes >= 4u * GS_LINE_BYTES);
    assert_int_equal(gs_local_get_words(L, NULL, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_native(L, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_abort_info(L, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_cpu_launch_local(L, GS_DIM3_1D(0), GS_DIM3_1D(1), wave_kernel, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_cpu_launch_local(L, GS_DIM3_1D(1), GS_DIM3_1D(1), NULL, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_cpu_launch_local(L, GS_DIM3_1D(5000), GS_DIM3_1D(1), wave_kernel, NULL),
                     GS_ERR_TOO_MANY_GROUPS);
    /* collect with nothing launched since prepare: nothing began with the state */
    assert_int_equal(gs_local_prepare(L, NULL), GS_OK);
    assert_int_equal(gs_local_collect(L, NULL), GS_ERR_BAD_STATE);
    gs_local_destroy(L);
}

static int open_device(void **unused)
{
    (void)unused;
    return gs_device_open(GS_BACKEND_CPU, 0, &dev) == GS_OK ? 0 : -1;
}
static int close_device(void **unused)
{
    (void)unused;
    gs_device_close(dev);
    return 0;
}

int main(void)
{
    if (expect_wrong()) {
        const struct CMUnitTest weak[] = {cmocka_unit_test(wavefront_more_tiles_than_groups)};
        return cmocka_run_group_tests(weak, open_device, close_device);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(diagonal_order_respects_dependencies),
        cmocka_unit_test(wavefront_more_tiles_than_groups),
        cmocka_unit_test(wavefront_one_group),
        cmocka_unit_test(epochs_wrap),
        cmocka_unit_test(silent_producer_times_out),
        cmocka_unit_test(bad_state_reported),
        cmocka_unit_test(host_api_refuses_bad_arguments),
    };
    return cmocka_run_group_tests(tests, open_device, close_device);
}
