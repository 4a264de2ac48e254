/* tests/test_local.c - local synchronization (gridsync/local.h, host_local.h) on the cpu
 * back end: the anti-diagonal ticket order, a wavefront checked cell by cell with more
 * tiles than groups and with one group, reuse across launches and the epoch's wrap, the
 * timeout naming the tile never signalled; tagged words passing chains of values across
 * groups (one group included, launches reusing the state, beside progress words), a
 * silent producer's timeout naming the word and the seqs, the wrap clearing them; a
 * state that is not local synchronization's, and the host API's argument checks.
 *
 * With GS_TEST_EXPECT_WRONG=1 (the weakened library, whose waits let a group through
 * one value early) the wavefront must come out wrong; with GS_TEST_EXPECT_WRONG=tagged
 * (test_local_weak_tag: tagged gets that take a tag one seq early) the chains must: the
 * checks can fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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
                gs_u32 pi = 0, pj = 0;
                assert_true(gs_local_diagonal(t - 1, rows, cols, &pi, &pj));
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

/* gs_local_diagonal_from gives gs_local_diagonal's tile from any hint: a diagonal at or
 * before the ticket's (the group's previous one), or a wrong one past it. */
static void diagonal_from_a_hint_is_the_same(void **unused)
{
    (void)unused;
    static const unsigned shapes[][2] = {{1, 1}, {1, 7}, {7, 1}, {3, 5}, {5, 3}, {8, 8}, {2, 33}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        unsigned rows = shapes[s][0], cols = shapes[s][1], last = rows + cols - 2u;
        for (unsigned t = 0; t < rows * cols; ++t) {
            gs_u32 i = 0u, j = 0u, fi = 99, fj = 99;
            assert_true(gs_local_diagonal(t, rows, cols, &i, &j));
            for (gs_u32 hint = 0; hint <= last + 2u; ++hint) {
                gs_u32 d = hint;
                assert_true(gs_local_diagonal_from(t, rows, cols, &d, &fi, &fj));
                assert_int_equal(fi, i);
                assert_int_equal(fj, j);
                assert_int_equal(d, i + j);
            }
            gs_u32 d = 0u;
            assert_false(gs_local_diagonal_from(rows * cols, rows, cols, &d, &fi, &fj));
        }
    }
    gs_u32 i, j, d = 3u; /* far from the hint, in the largest matrix */
    assert_true(gs_local_diagonal_from(4294967295u - 1u, 65536u, 65536u, &d, &i, &j));
    assert_int_equal(i, 65535u);
    assert_int_equal(j, 65534u);
    assert_int_equal(d, 131069u);
    d = 131070u; /* past the ticket's: not trusted */
    assert_true(gs_local_diagonal_from(5u, 65536u, 65536u, &d, &i, &j));
    assert_int_equal(d, 2u);
    assert_int_equal(i, 2u);
    assert_int_equal(j, 0u);
    d = 0u; /* one row of 2^32 - 1 tiles: the gallop's step stops doubling at 2^31 */
    assert_true(gs_local_diagonal_from(4294967294u, 1u, 4294967295u, &d, &i, &j));
    assert_int_equal(i, 0u);
    assert_int_equal(j, 4294967294u);
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

/* ---- tagged words ------------------------------------------------------------------------ */

#define ITEMS 4u                      /* work-items a group */
#define CHAIN_WORDS (2u * ITEMS + 1u) /* a chain's words: two a work-item, one more for item 0 */

/* Chains of values passed on through tagged words: ticket t is step t / chains of chain
 * t % chains. Step s of a chain gets seq s of each of the chain's words (step 0: none),
 * then puts seq s + 1 of the next value there, each word by the one work-item that got
 * it (gridsync/local.h's reuse rule), so a word carries the whole chain and a get that
 * took a value one seq early, or an earlier launch's, reads a wrong one. Work-item k
 * gets words 2k and 2k + 1 in one wait, item 0 the last word too (three, as apps/nw's
 * lane 0 with the corner). */
typedef struct chains {
    gs_word *state;
    unsigned chains, steps;
    unsigned launch; /* in every value: a launch must not take the last one's */
    unsigned silent; /* a ticket that puts nothing, or ~0u */
    unsigned slow;   /* yields between a step's get and its puts */
    uint32_t *got;   /* [chain][step][word]: what the step took (step 0: nothing) */
} chains;

static uint32_t chain_seed(unsigned launch, unsigned chain, unsigned word)
{
    return (launch + 1u) * 0x9e3779b1u ^ (chain * 977u + word * 131u + 7u);
}
static uint32_t chain_next(uint32_t v, unsigned step, unsigned word)
{
    return v * 2654435761u + step * 40503u + word + 1u;
}

static void chain_kernel(void *arg)
{
    chains *c = arg;
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(c->state, scratch);
    gs_u32 k = gs_local_id(), last = 2u * ITEMS;
    for (;;) {
        gs_u32 t = gs_local_next(&L);
        if (t >= c->chains * c->steps)
            return; /* no ticket left, or an abort */
        gs_u32 ch = t % c->chains, s = t / c->chains;
        gs_word64 *w = gs_local_tagged(&L, ch * CHAIN_WORDS);
        gs_u32 a = chain_seed(c->launch, ch, 2u * k), b = chain_seed(c->launch, ch, 2u * k + 1u);
        gs_u32 x = chain_seed(c->launch, ch, last);
        gs_u32 why = gs_local_get3(&L, &w[2u * k], s, &a, &w[2u * k + 1u], s, &b, &w[last],
                                   k == 0u ? s : 0u, &x);
        if (gs_local_agree(&L, why))
            return;
        uint32_t *got = c->got + ((size_t)ch * c->steps + s) * CHAIN_WORDS;
        got[2u * k] = a;
        got[2u * k + 1u] = b;
        if (k == 0u)
            got[last] = x;
        for (unsigned y = 0; y < c->slow; ++y) /* let a later step's holder poll meanwhile */
            sched_yield();
        if (t == c->silent)
            continue;
        gs_local_put(&L, &w[2u * k], s + 1u, chain_next(a, s, 2u * k));
        gs_local_put(&L, &w[2u * k + 1u], s + 1u, chain_next(b, s, 2u * k + 1u));
        if (k == 0u)
            gs_local_put(&L, &w[last], s + 1u, chain_next(x, s, last));
    }
}

/* One launch of `groups` groups; the status, and in *wrong the values taken that are not
 * the ones put by the step before (every value of steps 1 .. steps - 1). */
static gs_status run_chains(gs_local *L, unsigned n_chains, unsigned steps, unsigned groups,
                            unsigned launch, unsigned silent, unsigned slow, size_t *wrong)
{
    void *state = NULL;
    assert_int_equal(gs_local_native(L, &state), GS_OK);
    chains c = {state, n_chains, steps, launch, silent, slow, NULL};
    size_t n = (size_t)n_chains * steps * CHAIN_WORDS;
    c.got = calloc(n, sizeof *c.got);
    assert_non_null(c.got);
    gs_status st = gs_cpu_launch_local(L, GS_DIM3_1D(groups), GS_DIM3_1D(ITEMS), chain_kernel, &c);
    *wrong = 0;
    for (unsigned ch = 0; ch < n_chains; ++ch)
        for (unsigned w = 0; w < CHAIN_WORDS; ++w) {
            uint32_t v = chain_seed(launch, ch, w);
            for (unsigned s = 1; s < steps; ++s) {
                v = chain_next(v, s - 1u, w);
                *wrong += c.got[((size_t)ch * steps + s) * CHAIN_WORDS + w] != v;
            }
        }
    free(c.got);
    return st;
}

static int expect_wrong_tagged(void)
{
    const char *e = getenv("GS_TEST_EXPECT_WRONG");
    return e && strcmp(e, "tagged") == 0;
}

/* Message passing through tagged words across groups: 2 chains of 60 steps (1062 values
 * taken a launch) on 6 groups, four launches of one state with no clearing between them
 * (each launch's values differ: a get that took the last launch's word would read a
 * wrong one), then 3 groups and one group. With GS_TEST_EXPECT_WRONG=tagged (the build
 * whose gets take a tag one seq early) some value must come out wrong. */
static void tagged_chains_pass_values(void **unused)
{
    (void)unused;
    gs_local *L = NULL;
    assert_int_equal(gs_local_create_tagged(dev, 0, 2 * CHAIN_WORDS, &L), GS_OK);
    static const unsigned grids[] = {6, 6, 6, 6, 3, 1};
    size_t wrong_total = 0;
    for (unsigned run = 0; run < sizeof grids / sizeof *grids; ++run) {
        size_t wrong = 0;
        gs_status s = run_chains(L, 2, 60, grids[run], run, ~0u, 2, &wrong);
        printf("  %u groups: %s, %zu of %u values wrong\n", grids[run], gs_status_string(s), wrong,
               2u * 59u * CHAIN_WORDS);
        if (!expect_wrong_tagged()) {
            assert_int_equal(s, GS_OK);
            assert_int_equal(wrong, 0);
        }
        wrong_total += wrong;
    }
    if (expect_wrong_tagged())
        assert_true(wrong_total > 0); /* a step read the value before the one it waited for */
    gs_local_destroy(L);
}

/* Tagged words beside progress words in one state: the wavefront over the progress words
 * and then the chains over the tagged ones, alternately, neither disturbing the other. */
static void tagged_beside_progress_words(void **unused)
{
    (void)unused;
    gs_local *L = NULL;
    assert_int_equal(gs_local_create_tagged(dev, 6 * 6, 3 * CHAIN_WORDS, &L), GS_OK);
    unsigned words = 0, tagged = 0;
    size_t bytes = 0;
    assert_int_equal(gs_local_get_words(L, &words, &bytes), GS_OK);
    assert_int_equal(gs_local_get_tagged(L, &tagged), GS_OK);
    assert_int_equal(words, 36u);
    assert_int_equal(tagged, 3u * CHAIN_WORDS);
    assert_true(bytes >= 3u * GS_LINE_BYTES + 36u * 4u + 3u * CHAIN_WORDS * 8u);
    for (unsigned run = 0; run < 3; ++run) {
        size_t wrong = 1;
        assert_int_equal(run_wave(L, 6, 6, 3, ~0u, &wrong), GS_OK);
        assert_int_equal(wrong, 0);
        assert_int_equal(run_chains(L, 3, 20, 4, run, ~0u, 0, &wrong), GS_OK);
        assert_int_equal(wrong, 0);
    }
    gs_local_destroy(L);
}

/* A step that puts nothing: the next step of its chain times out, and the abort names
 * the group, the work-item, its first tagged word, the seq it awaited and the one the
 * word held (the step before's); no launch hangs, and the next launch is whole. */
static void tagged_silent_producer_times_out(void **unused)
{
    (void)unused;
    gs_local *L = NULL;
    assert_int_equal(gs_local_create_tagged(dev, 0, 2 * CHAIN_WORDS, &L), GS_OK);
    assert_int_equal(gs_local_set_timeout(L, 300), GS_OK);
    unsigned silent = 2 * 3 + 1; /* chain 1, step 3: step 4 waits for seq 4 */
    for (unsigned groups = 1; groups <= 3; groups += 2) {
        size_t wrong = 0;
        assert_int_equal(run_chains(L, 2, 8, groups, 7, silent, 0, &wrong), GS_ERR_TIMEOUT);
        gs_local_abort info;
        assert_int_equal(gs_local_abort_info(L, &info), GS_OK);
        printf("  %u groups: group %u item %u, tagged %d word %u awaited %u seen %u\n", groups,
               info.group, info.item, info.tagged, info.word, info.awaited, info.seen);
        assert_int_equal(info.reason, GS_ABORT_REASON_TIMEOUT);
        assert_int_equal(info.tagged, 1);
        assert_true(info.group < groups);
        assert_true(info.item < ITEMS);
        if (groups == 1) { /* step 4 of chain 1, the first word of the work-item that gave up */
            assert_int_equal(info.word, 1u * CHAIN_WORDS + 2u * info.item);
            assert_int_equal(info.awaited, 4u);
            assert_int_equal(info.seen, 3u);
        } else { /* a word of chain 1, at step 4 or later */
            assert_true(info.word >= CHAIN_WORDS && info.word < 2u * CHAIN_WORDS);
            assert_true(info.awaited >= 4u);
        }
        assert_int_equal(run_chains(L, 2, 8, groups, 8, ~0u, 0, &wrong), GS_OK);
        assert_int_equal(wrong, 0);
        assert_int_equal(gs_local_abort_info(L, &info), GS_OK);
        assert_int_equal(info.reason, GS_ABORT_REASON_NONE);
        assert_int_equal(info.tagged, 0);
    }
    gs_local_destroy(L);
}

/* Tagged word 0 := seq 5 in the state's first epoch; 126 launches that write nothing;
 * the 128th launch is epoch 1 again. Its get of seq 5 must not take the word the first
 * launch left (the wrap clears the tagged words too): it times out having seen nothing
 * of this launch. A put of seq 5 by another group in that launch then makes it pass. */
typedef struct stale {
    gs_word *state;
    int put;           /* group 1 (of 2) puts seq 5 after a while */
    gs_u32 value, why; /* what the get took, and its verdict */
} stale;
static void stale_kernel(void *arg)
{
    stale *st = arg;
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(st->state, scratch);
    if (gs_group_id() == 1u) {
        for (int y = 0; y < 20; ++y)
            sched_yield();
        gs_local_put(&L, gs_local_tagged(&L, 0), 5u, 0xbeefu);
        return;
    }
    gs_u32 v = 0u, why = gs_local_get(&L, gs_local_tagged(&L, 0), 5u, &v);
    st->value = v;
    st->why = why;
}
static void idle_kernel(void *arg)
{
    GS_GROUP_SCRATCH(scratch);
    (void)gs_local_begin(((stale *)arg)->state, scratch);
}
static void tagged_words_cleared_at_the_wrap(void **unused)
{
    (void)unused;
    gs_local *L = NULL;
    void *state = NULL;
    assert_int_equal(gs_local_create_tagged(dev, 1, 4, &L), GS_OK);
    assert_int_equal(gs_local_set_timeout(L, 200), GS_OK);
    assert_int_equal(gs_local_native(L, &state), GS_OK);
    stale st = {state, 1, 0, 0};
    assert_int_equal(gs_cpu_launch_local(L, GS_DIM3_1D(2), GS_DIM3_1D(1), stale_kernel, &st),
                     GS_OK); /* epoch 1: group 1 puts 0xbeef, group 0 takes it */
    assert_int_equal(st.why, 0u);
    assert_int_equal(st.value, 0xbeefu);
    for (unsigned e = 2; e <= GS_LOCAL_EPOCHS; ++e)
        assert_int_equal(gs_cpu_launch_local(L, GS_DIM3_1D(1), GS_DIM3_1D(1), idle_kernel, &st),
                         GS_OK);
    st.value = 0;
    assert_int_equal(gs_cpu_launch_local(L, GS_DIM3_1D(1), GS_DIM3_1D(1), stale_kernel, &st),
                     GS_ERR_TIMEOUT); /* epoch 1 again, nobody puts */
    assert_int_equal(st.why, GS_ABORT_TIMEOUT);
    assert_int_equal(st.value, 0u);
    gs_local_abort info;
    assert_int_equal(gs_local_abort_info(L, &info), GS_OK);
    assert_int_equal(info.tagged, 1);
    assert_int_equal(info.word, 0u);
    assert_int_equal(info.awaited, 5u);
    assert_int_equal(info.seen, 0u);
    assert_int_equal(gs_cpu_launch_local(L, GS_DIM3_1D(2), GS_DIM3_1D(1), stale_kernel, &st),
                     GS_OK);
    assert_int_equal(st.value, 0xbeefu);
    gs_local_destroy(L);
}

/* A kernel handed a barrier's state instead: it touches nothing, takes no ticket, and
 * the host says GS_ERR_BAD_STATE (nothing acknowledged the local state). */
typedef struct wrong_state {
    gs_word *state;
    int tickets;
    gs_u32 why;        /* what gs_local_wait said (a thread may not call cmocka's asserts) */
    gs_u32 tagged_why; /* what gs_local_get said */
} wrong_state;
static void wrong_state_kernel(void *arg)
{
    wrong_state *ws = arg;
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(ws->state, scratch);
    if (gs_local_next(&L) != GS_LOCAL_END && gs_local_first())
        ws->tickets = 1;
    gs_u32 why = gs_local_wait(&L, 0, 1), v = 0u;
    gs_local_put(&L, gs_local_tagged(&L, 0), 1, 7u); /* touches nothing */
    gs_u32 tagged_why = gs_local_get(&L, gs_local_tagged(&L, 0), 1, &v);
    if (gs_local_first()) {
        ws->why = why;
        ws->tagged_why = tagged_why;
    }
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
    uint32_t before[64];
    memcpy(before, bstate, sizeof before);
    wrong_state ws = {bstate, 0, 0, 0};
    assert_int_equal(gs_cpu_launch_local(L, GS_DIM3_1D(2), GS_DIM3_1D(2), wrong_state_kernel, &ws),
                     GS_ERR_BAD_STATE);
    assert_int_equal(ws.tickets, 0);
    assert_int_equal(ws.why, GS_ABORT_BAD_STATE);
    assert_int_equal(ws.tagged_why, GS_ABORT_BAD_STATE);
    assert_memory_equal(before, bstate, sizeof before); /* the barrier's lines 0 and 1 */
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
    unsigned ms = 0, words = 0;
    size_t bytes = 0;
    assert_int_equal(gs_local_create(dev, 0, &L), GS_ERR_INVALID_ARGUMENT);
    assert_null(L);
    assert_int_equal(gs_local_create(dev, GS_LOCAL_MAX_WORDS + 1u, &L), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_create(NULL, 4, &L), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_create(dev, 4, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_create_tagged(dev, 0, 0, &L), GS_ERR_INVALID_ARGUMENT);
    assert_null(L);
    assert_int_equal(gs_local_create_tagged(dev, 0, GS_LOCAL_MAX_TAGGED + 1u, &L),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_create_tagged(dev, GS_LOCAL_MAX_WORDS + 1u, 1, &L),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_create_tagged(NULL, 1, 1, &L), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_create_tagged(dev, 1, 1, NULL), GS_ERR_INVALID_ARGUMENT);
    L = (gs_local *)&words; /* create_with: a bad bound refused before anything, *out NULL */
    assert_int_equal(gs_local_create_with(dev, 4, 0, 3600001u, &L), GS_ERR_INVALID_ARGUMENT);
    assert_null(L);
    assert_int_equal(gs_local_create_with(dev, 0, 0, 5, &L), GS_ERR_INVALID_ARGUMENT);
    assert_null(L);
    assert_int_equal(gs_local_create_with(dev, 4, 0, 3600001u, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_create_with(dev, 2, 3, 777, &L), GS_OK);
    assert_int_equal(gs_local_get_timeout(L, &ms), GS_OK);
    assert_int_equal(ms, 777u);
    assert_int_equal(gs_local_get_tagged(L, &words), GS_OK);
    assert_int_equal(words, 3u);
    gs_local_destroy(L);
    assert_int_equal(gs_local_create_with(dev, 2, 0, 0, &L), GS_OK); /* 0: the default */
    assert_int_equal(gs_local_get_timeout(L, &ms), GS_OK);
    assert_true(ms >= 1u);
    gs_local_destroy(L);
    assert_int_equal(gs_local_get_tagged(NULL, &words), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_create_tagged(dev, 0, 5, &L), GS_OK);
    assert_int_equal(gs_local_get_tagged(L, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_get_tagged(L, &words), GS_OK);
    assert_int_equal(words, 5u);
    assert_int_equal(gs_local_get_words(L, &words, &bytes), GS_OK);
    assert_int_equal(words, 0u);
    assert_int_equal(bytes, 4u * GS_LINE_BYTES); /* header, abort, ticket, 5 words in a line */
    gs_local_destroy(L);
    assert_int_equal(gs_local_destroy(NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_prepare(NULL, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_collect(NULL, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_create(dev, 4, &L), GS_OK);
    assert_int_equal(gs_local_set_timeout(L, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_set_timeout(L, 3600001u), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_local_set_timeout(L, 1234), GS_OK);
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
    if (expect_wrong_tagged()) {
        const struct CMUnitTest weak[] = {cmocka_unit_test(tagged_chains_pass_values)};
        return cmocka_run_group_tests(weak, open_device, close_device);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(diagonal_order_respects_dependencies),
        cmocka_unit_test(diagonal_from_a_hint_is_the_same),
        cmocka_unit_test(wavefront_more_tiles_than_groups),
        cmocka_unit_test(wavefront_one_group),
        cmocka_unit_test(epochs_wrap),
        cmocka_unit_test(silent_producer_times_out),
        cmocka_unit_test(tagged_chains_pass_values),
        cmocka_unit_test(tagged_beside_progress_words),
        cmocka_unit_test(tagged_silent_producer_times_out),
        cmocka_unit_test(tagged_words_cleared_at_the_wrap),
        cmocka_unit_test(bad_state_reported),
        cmocka_unit_test(host_api_refuses_bad_arguments),
    };
    return cmocka_run_group_tests(tests, open_device, close_device);
}
