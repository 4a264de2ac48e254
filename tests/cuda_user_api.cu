/* tests/cuda_user_api.cu - the CUDA launch API with kernels written as a user writes
 * them, one per protocol (gs_grid_begin_<p>, gs_sync_<p>): every protocol and auto; a
 * barrier reused with another block size (1000 then 96 threads gave naive GS_OK with 18.8
 * million wrong reads, 96 then 1000 a false timeout); 2-D grids of 2-D blocks; an
 * asynchronous launch that times out, and one that is busy; a CUDA graph that holds a
 * launch, replayed; a kernel handed another barrier's state; a last barrier that only
 * block 0 waits for (the others arrive and return); the last arriver's barrier
 * (gs_arrive_last_<p>), where only the block that completed the episode reads. Each kernel: every thread
 * writes a value per episode, the barrier, then it reads what a thread of the next block
 * wrote and counts the wrong ones. Exits 77 without a CUDA device. */
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "gridsync.h"
#include "gridsync/cuda.cuh"
#include "gridsync/host_cuda.h"

#include "cuda_check.h"

static gs_device *g_dev;
static unsigned g_sms;

__device__ unsigned expected(unsigned e, unsigned item) { return e * 2654435761u + item; }

#define MP_KERNEL(name)                                                                            \
    __global__ void mp_##name(gs_word *state, unsigned *data, unsigned *errors, unsigned episodes, \
                              unsigned skip)                                                       \
    {                                                                                              \
        gs_grid g = gs_grid_begin_##name(state);                                                   \
        unsigned n = gs_num_groups() * gs_local_size();                                            \
        unsigned me = gs_group_id() * gs_local_size() + gs_local_id();                             \
        if (skip && gs_group_id() + 1u == gs_num_groups())                                         \
            return;                                                                                \
        unsigned bad = 0;                                                                          \
        for (unsigned e = 0; e < episodes; ++e) {                                                  \
            data[(e & 1u) * n + me] = expected(e, me);                                             \
            if (gs_sync_##name(&g))                                                                \
                return;                                                                            \
            unsigned other = (me + gs_local_size()) % n;                                           \
            bad += data[(e & 1u) * n + other] != expected(e, other);                               \
        }                                                                                          \
        if (bad)                                                                                   \
            atomicAdd(errors, bad);                                                                \
    }
#define MP_KERNEL_OF(ID, name, value, text, desc) MP_KERNEL(name)
GS_DEVICE_PROTOCOLS(MP_KERNEL_OF)
MP_KERNEL(auto)

/* One barrier that every block arrives at and only block 0 waits for (docs/using.md:
 * the launch's last barrier); block 0 then reads every thread's value. */
#define AO_KERNEL(name)                                                                       \
    __global__ void ao_##name(gs_word *state, unsigned *data, unsigned *errors, unsigned tag) \
    {                                                                                         \
        gs_grid g = gs_grid_begin_##name(state);                                              \
        unsigned n = gs_num_groups() * gs_local_size();                                       \
        unsigned me = gs_group_id() * gs_local_size() + gs_local_id();                        \
        data[me] = expected(tag, me);                                                         \
        gs_token t = gs_arrive_##name(&g);                                                    \
        if (gs_group_id() != 0u)                                                              \
            return;                                                                           \
        if (gs_wait_token_##name(&g, t))                                                      \
            return;                                                                           \
        unsigned bad = 0;                                                                     \
        for (unsigned k = gs_local_id(); k < n; k += gs_local_size())                         \
            bad += data[k] != expected(tag, k);                                               \
        if (bad)                                                                              \
            atomicAdd(errors, bad);                                                           \
    }
#define AO_KERNEL_OF(ID, name, value, text, desc) AO_KERNEL(name)
GS_PROTOCOLS_SHARED(AO_KERNEL_OF)
AO_KERNEL(auto)

/* The last arriver's barrier: the last block writes ~20 us late (so it arrives last: an
 * episode completed one arrival early would be read before its write); the block told it
 * was last counts itself in errors[1] and reads every thread's value. */
#define AL_KERNEL(name)                                                                       \
    __global__ void al_##name(gs_word *state, unsigned *data, unsigned *errors, unsigned tag) \
    {                                                                                         \
        gs_grid g = gs_grid_begin_##name(state);                                              \
        unsigned n = gs_num_groups() * gs_local_size();                                       \
        unsigned me = gs_group_id() * gs_local_size() + gs_local_id();                        \
        if (gs_group_id() + 1u == gs_num_groups())                                            \
            for (int k = 0; k < 20; ++k)                                                      \
                __nanosleep(1000);                                                            \
        data[me] = expected(tag, me);                                                         \
        if (!gs_arrive_last_##name(&g))                                                       \
            return;                                                                           \
        if (gs_local_id() == 0u)                                                              \
            atomicAdd(&errors[1], 1u);                                                        \
        unsigned bad = 0;                                                                     \
        for (unsigned k = gs_local_id(); k < n; k += gs_local_size())                         \
            bad += data[k] != expected(tag, k);                                               \
        if (bad)                                                                              \
            atomicAdd(errors, bad);                                                           \
    }
AL_KERNEL(flip)
AL_KERNEL(tree)
AL_KERNEL(auto)

/* Misuse: gs_arrive_last then, in the same launch, gs_sync (then 1) or gs_arrive_last
 * again (then 2). */
#define AL_THEN_KERNEL(name)                                      \
    __global__ void al_then_##name(gs_word *state, unsigned then) \
    {                                                             \
        gs_grid g = gs_grid_begin_##name(state);                  \
        (void)gs_arrive_last_##name(&g);                          \
        if (then == 1u)                                           \
            (void)gs_sync_##name(&g);                             \
        else                                                      \
            (void)gs_arrive_last_##name(&g);                      \
    }
AL_THEN_KERNEL(flip)
AL_THEN_KERNEL(tree)
AL_THEN_KERNEL(auto)

static const void *kernel_for(gs_algo a)
{
    switch (a) {
#define MP_CASE(ID, name, value, text, desc) \
    case GS_ALGO_##ID: return (const void *)mp_##name;
        GS_DEVICE_PROTOCOLS(MP_CASE)
#undef MP_CASE
    case GS_ALGO_AUTO: return (const void *)mp_auto;
    default: return nullptr;
    }
}

struct buffers {
    unsigned *data = nullptr, *errors = nullptr;
    buffers(size_t items)
    {
        cudaMalloc(&data, 2 * items * 4);
        cudaMalloc(&errors, 8); /* wrong reads; gs_arrive_last's blocks told they were last */
        cudaMemset(errors, 0, 8);
    }
    ~buffers()
    {
        cudaFree(data);
        cudaFree(errors);
    }
    unsigned take()
    {
        unsigned e = ~0u;
        cudaMemcpy(&e, errors, 4, cudaMemcpyDeviceToHost);
        cudaMemset(errors, 0, 4);
        return e;
    }
};

static unsigned count(gs_dim3 d) { return d.x * d.y * d.z; }

/* One launch of protocol `a`'s kernel through `b`, handed `state` (the barrier's own when
 * null); returns its status; *wrong gets the wrong reads. */
static gs_status run(gs_barrier *b, gs_algo a, gs_dim3 grid, gs_dim3 block, unsigned skip,
                     unsigned *wrong, void *state = nullptr, bool async = false,
                     cudaStream_t stream = nullptr)
{
    buffers m((size_t)count(grid) * count(block));
    if (!state)
        gs_cuda_state(b, &state);
    unsigned episodes = 200;
    void *args[] = {&state, &m.data, &m.errors, &episodes, &skip};
    gs_status s = async ? gs_cuda_launch_async(b, kernel_for(a), grid, block, 0, args, stream)
                        : gs_cuda_launch(b, kernel_for(a), grid, block, 0, args, stream);
    if (async && s == GS_OK)
        s = gs_barrier_collect(b);
    *wrong = m.take();
    return s;
}

static void every_protocol_and_block_size()
{
    const gs_algo algos[] = {GS_ALGO_CENTRAL, GS_ALGO_LOCKFREE, GS_ALGO_NAIVE,
                             GS_ALGO_FLIP,    GS_ALGO_TREE,     GS_ALGO_SHARDED,
                             GS_ALGO_CLUSTER, GS_ALGO_CG,       GS_ALGO_AUTO};
    const unsigned sizes[] = {1000, 96, 1000, 256};
    for (gs_algo a : algos) {
        gs_barrier *b = nullptr;
        gs_status s = gs_barrier_create(g_dev, a, g_sms, &b);
        CHECK(s == GS_OK, "%s create: %s", gs_algo_name(a), gs_status_string(s));
        if (!b)
            continue;
        for (unsigned k = 0; k < 4; ++k) {
            unsigned wrong = ~0u;
            s = run(b, a, GS_DIM3_1D(g_sms), GS_DIM3_1D(sizes[k]), 0, &wrong);
            CHECK(s == GS_OK && wrong == 0, "%s, %u blocks of %u after %u: %s, %u wrong reads",
                  gs_algo_name(a), g_sms, sizes[k], k ? sizes[k - 1] : 0, gs_status_string(s),
                  wrong);
        }
        printf("ok   %-8s blocks of 1000, 96, 1000 and 256 threads through one barrier\n",
               gs_algo_name(a));
        gs_barrier_destroy(b);
    }
}

/* The last barrier with block 0 its only waiter, for every protocol that allows it
 * (gridsync/barrier.h), launch after launch on one state, at 1 and 8 blocks of 256 per
 * SM; then the waiting-everywhere kernel on the same state. */
/* The last arriver's barrier for flip, tree and auto (and flip and tree with release
 * lines), at 1 and 8 blocks of 256 per SM: in each of 50 launches on one state exactly
 * one block is told it was last and reads every value right; then the waiting-everywhere
 * kernel on the same state. */
/* 50 gs_arrive_last launches of `kernel` on b (tags 1 .. 50): how many failed, read
 * wrong or told other than one block it was last; the wrong reads and the blocks told
 * in all into *wrong and *finishers. */
static unsigned last_launches(gs_barrier *b, const void *kernel, unsigned blocks, void *state,
                              buffers &m, unsigned *wrong, unsigned *finishers)
{
    unsigned bad_launches = 0;
    for (unsigned tag = 1; tag <= 50; ++tag) {
        void *args[] = {&state, &m.data, &m.errors, &tag};
        gs_status s =
            gs_cuda_launch(b, kernel, GS_DIM3_1D(blocks), GS_DIM3_1D(256), 0, args, nullptr);
        unsigned f = 0;
        cudaMemcpy(&f, m.errors + 1, 4, cudaMemcpyDeviceToHost);
        cudaMemset(m.errors + 1, 0, 4);
        unsigned w = m.take();
        bad_launches += s != GS_OK || w != 0 || f != 1;
        *wrong += s == GS_OK ? w : 0;
        *finishers += f;
    }
    return bad_launches;
}

static void arrive_last()
{
    const gs_algo algos[] = {GS_ALGO_FLIP, GS_ALGO_TREE, GS_ALGO_AUTO, GS_ALGO_FLIP, GS_ALGO_TREE};
    const void *kernels[] = {(const void *)al_flip, (const void *)al_tree, (const void *)al_auto,
                             (const void *)al_flip, (const void *)al_tree};
    for (unsigned per_sm : {1u, 8u}) {
        unsigned blocks = g_sms * per_sm;
        for (unsigned i = 0; i < sizeof algos / sizeof *algos; ++i) {
            gs_barrier_options o;
            gs_barrier_options_init(&o);
            if (i >= 3)
                o.release = GS_BARRIER_RELEASE_LINES;
            gs_barrier *b = nullptr;
            gs_status s = gs_barrier_create_with(g_dev, algos[i], blocks, &o, &b);
            CHECK(s == GS_OK, "%s create: %s", gs_algo_name(algos[i]), gs_status_string(s));
            if (!b)
                continue;
            buffers m((size_t)blocks * 256);
            void *state = nullptr;
            gs_cuda_state(b, &state);
            unsigned wrong = 0, finishers = 0;
            unsigned bad_launches =
                last_launches(b, kernels[i], blocks, state, m, &wrong, &finishers);
            CHECK(bad_launches == 0,
                  "%s%s, %u blocks, gs_arrive_last: %u of 50 launches failed, read wrong or "
                  "told other than one block it was last (%u wrong reads, %u told)",
                  gs_algo_name(algos[i]), i >= 3 ? " (lines)" : "", blocks, bad_launches, wrong,
                  finishers);
            s = run(b, algos[i], GS_DIM3_1D(blocks), GS_DIM3_1D(256), 0, &wrong);
            CHECK(s == GS_OK && wrong == 0,
                  "%s, %u blocks, every block waiting after gs_arrive_last: %s, %u wrong",
                  gs_algo_name(algos[i]), blocks, gs_status_string(s), wrong);
            gs_barrier_destroy(b);
        }
        printf("ok   flip, tree, auto (and flip, tree with release lines), %u blocks: "
               "gs_arrive_last, 50 launches, one block told it was last, then every block "
               "waiting\n",
               blocks);
    }
}

/* gs_arrive_last is a block's last episode of its launch: a gs_sync or a second
 * gs_arrive_last after it ends the launch in GS_ERR_BAD_STATE, reason AFTER_LAST, naming
 * a block and episode 1 (a new state); after a reset the barrier runs right. */
static void arrive_last_then_more()
{
    const gs_algo algos[] = {GS_ALGO_FLIP, GS_ALGO_TREE, GS_ALGO_AUTO};
    const void *kernels[] = {(const void *)al_then_flip, (const void *)al_then_tree,
                             (const void *)al_then_auto};
    unsigned blocks = g_sms * 2u;
    for (unsigned i = 0; i < 3; ++i)
        for (unsigned then = 1; then <= 2; ++then) {
            gs_barrier *b = nullptr;
            gs_status s = gs_barrier_create(g_dev, algos[i], blocks, &b);
            CHECK(s == GS_OK, "%s create: %s", gs_algo_name(algos[i]), gs_status_string(s));
            if (!b)
                continue;
            void *state = nullptr;
            gs_cuda_state(b, &state);
            void *args[] = {&state, &then};
            s = gs_cuda_launch(b, kernels[i], GS_DIM3_1D(blocks), GS_DIM3_1D(256), 0, args,
                               nullptr);
            gs_abort_info ai;
            gs_barrier_abort_info(b, &ai);
            CHECK(s == GS_ERR_BAD_STATE && ai.reason == GS_ABORT_REASON_AFTER_LAST &&
                      ai.group < blocks && ai.episode == 1u,
                  "%s, gs_arrive_last then %s: %s, reason %d, block %u, episode %u",
                  gs_algo_name(algos[i]), then == 1 ? "gs_sync" : "gs_arrive_last",
                  gs_status_string(s), (int)ai.reason, ai.group, ai.episode);
            unsigned wrong = 0;
            s = run(b, algos[i], GS_DIM3_1D(blocks), GS_DIM3_1D(256), 0, &wrong);
            CHECK(s == GS_ERR_NEEDS_RESET, "%s, launch before the reset: %s",
                  gs_algo_name(algos[i]), gs_status_string(s));
            gs_barrier_reset(b);
            s = run(b, algos[i], GS_DIM3_1D(blocks), GS_DIM3_1D(256), 0, &wrong);
            CHECK(s == GS_OK && wrong == 0, "%s after the reset: %s, %u wrong",
                  gs_algo_name(algos[i]), gs_status_string(s), wrong);
            gs_barrier_destroy(b);
        }
    printf("ok   flip, tree, auto, %u blocks: gs_arrive_last then gs_sync or gs_arrive_last "
           "refused (GS_ERR_BAD_STATE, AFTER_LAST), right after a reset\n",
           blocks);
}

/* An arrive-only barrier (gs_barrier_set_arrive_only): 20 blocks an SM, past what the
 * kernel holds at once, refused until the barrier is arrive-only, then 50 launches
 * without the cooperative attribute, each with one block told it was last and no wrong
 * read (blocks run in turns: nobody waits). */
static void arrive_last_past_bound()
{
    unsigned blocks = g_sms * 20u, bad_launches = 0, wrong = 0, finishers = 0;
    gs_barrier *b = nullptr;
    gs_status s = gs_barrier_create(g_dev, GS_ALGO_FLIP, blocks, &b);
    CHECK(s == GS_OK, "flip create, %u blocks: %s", blocks, gs_status_string(s));
    if (!b)
        return;
    buffers m((size_t)blocks * 256);
    void *state = nullptr;
    gs_cuda_state(b, &state);
    unsigned tag = 1;
    void *args[] = {&state, &m.data, &m.errors, &tag};
    s = gs_cuda_launch(b, (const void *)al_flip, GS_DIM3_1D(blocks), GS_DIM3_1D(256), 0, args,
                       nullptr);
    CHECK(s == GS_ERR_TOO_MANY_GROUPS, "flip, %u blocks, not arrive-only: %s", blocks,
          gs_status_string(s));
    CHECK(gs_barrier_set_arrive_only(b, 1) == GS_OK, "gs_barrier_set_arrive_only");
    bad_launches = last_launches(b, (const void *)al_flip, blocks, state, m, &wrong, &finishers);
    CHECK(bad_launches == 0,
          "arrive-only flip, %u blocks: %u of 50 launches failed, read wrong or told other than "
          "one block it was last (%u wrong reads, %u told)",
          blocks, bad_launches, wrong, finishers);
    gs_barrier_destroy(b);
    printf(
        "ok   arrive-only flip, %u blocks (20 an SM, past the bound): refused until arrive-only, "
        "then 50 gs_arrive_last launches right\n",
        blocks);
}

static void arrive_only()
{
    const gs_algo algos[] = {GS_ALGO_CENTRAL, GS_ALGO_LOCKFREE, GS_ALGO_NAIVE, GS_ALGO_FLIP,
                             GS_ALGO_TREE,    GS_ALGO_SHARDED,  GS_ALGO_AUTO};
    const void *kernels[] = {(const void *)ao_central, (const void *)ao_lockfree,
                             (const void *)ao_naive,   (const void *)ao_flip,
                             (const void *)ao_tree,    (const void *)ao_sharded,
                             (const void *)ao_auto};
    for (unsigned per_sm : {1u, 8u}) {
        unsigned blocks = g_sms * per_sm;
        for (unsigned i = 0; i < sizeof algos / sizeof *algos; ++i) {
            gs_barrier *b = nullptr;
            gs_status s = gs_barrier_create(g_dev, algos[i], blocks, &b);
            CHECK(s == GS_OK, "%s create: %s", gs_algo_name(algos[i]), gs_status_string(s));
            if (!b)
                continue;
            buffers m((size_t)blocks * 256);
            void *state = nullptr;
            gs_cuda_state(b, &state);
            unsigned bad_launches = 0, wrong = 0;
            for (unsigned tag = 1; tag <= 50; ++tag) {
                void *args[] = {&state, &m.data, &m.errors, &tag};
                s = gs_cuda_launch(b, kernels[i], GS_DIM3_1D(blocks), GS_DIM3_1D(256), 0, args,
                                   nullptr);
                unsigned w = m.take();
                bad_launches += s != GS_OK || w != 0;
                wrong += s == GS_OK ? w : 0;
            }
            CHECK(bad_launches == 0,
                  "%s, %u blocks, block 0 the only waiter: %u of 50 launches failed "
                  "or read wrong (%u wrong reads)",
                  gs_algo_name(algos[i]), blocks, bad_launches, wrong);
            s = run(b, algos[i], GS_DIM3_1D(blocks), GS_DIM3_1D(256), 0, &wrong);
            CHECK(s == GS_OK && wrong == 0,
                  "%s, %u blocks, every block waiting after them: %s, %u wrong",
                  gs_algo_name(algos[i]), blocks, gs_status_string(s), wrong);
            gs_barrier_destroy(b);
        }
        printf("ok   every protocol but cluster and cg, %u blocks: block 0 the last barrier's only "
               "waiter, 50 launches, then every block waiting\n",
               blocks);
    }
}

static void two_d()
{
    const gs_algo algos[] = {GS_ALGO_FLIP, GS_ALGO_TREE, GS_ALGO_AUTO, GS_ALGO_CLUSTER};
    const gs_dim3 grid = gs_dim3_make(g_sms / 2, 2, 2), block = gs_dim3_make(16, 8, 2);
    for (gs_algo a : algos) {
        gs_barrier *b = nullptr;
        unsigned wrong = ~0u;
        CHECK(gs_barrier_create(g_dev, a, count(grid), &b) == GS_OK, "%s create", gs_algo_name(a));
        if (!b)
            continue;
        gs_status s = run(b, a, grid, block, 0, &wrong);
        CHECK(s == GS_OK && wrong == 0, "%s 3-D grid of 3-D blocks: %s, %u wrong", gs_algo_name(a),
              gs_status_string(s), wrong);
        gs_dim3 got{};
        gs_barrier_get_shape(b, &got, nullptr);
        CHECK(got.x == grid.x && got.y == grid.y && got.z == grid.z, "shape kept");
        gs_barrier_destroy(b);
    }
    printf("ok   flip, tree, auto, cluster on a %ux2x2 grid of 16x8x2 blocks\n", g_sms / 2);
}

/* On the default stream (an event after the kernel) and on a stream of the test's own
 * (the collect synchronizes the stream, no event): a collect that did not wait for the
 * kernel would read the verdict before the timeout and say GS_OK. */
static void async_and_busy()
{
    cudaStream_t own = nullptr;
    cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking);
    for (cudaStream_t stream : {(cudaStream_t) nullptr, own}) {
        const char *where = stream ? "own stream" : "default stream";
        gs_barrier *b = nullptr;
        gs_abort_info ai{};
        unsigned wrong = 0, skip = 1, episodes = 200;
        CHECK(gs_barrier_create(g_dev, GS_ALGO_FLIP, g_sms, &b) == GS_OK, "create");
        gs_barrier_set_timeout(b, 300);
        buffers m((size_t)g_sms * 128);
        void *state = nullptr;
        gs_cuda_state(b, &state);
        void *args[] = {&state, &m.data, &m.errors, &episodes, &skip};
        gs_status s = gs_cuda_launch_async(b, (const void *)mp_flip, GS_DIM3_1D(g_sms),
                                           GS_DIM3_1D(128), 0, args, stream);
        CHECK(s == GS_OK, "%s: async launch: %s", where, gs_status_string(s));
        s = gs_cuda_launch_async(b, (const void *)mp_flip, GS_DIM3_1D(g_sms), GS_DIM3_1D(128), 0,
                                 args, stream);
        CHECK(s == GS_ERR_BUSY, "%s: second launch before the collect: %s", where,
              gs_status_string(s));
        s = gs_barrier_collect(b);
        CHECK(s == GS_ERR_TIMEOUT, "%s: collect of the provoked fault: %s", where,
              gs_status_string(s));
        gs_barrier_abort_info(b, &ai);
        CHECK(ai.missing == 1 && ai.first_missing[0] == g_sms - 1, "%s: missing %u, first %u",
              where, ai.missing, ai.first_missing[0]);
        s = run(b, GS_ALGO_FLIP, GS_DIM3_1D(g_sms), GS_DIM3_1D(128), 0, &wrong);
        CHECK(s == GS_ERR_NEEDS_RESET, "%s: after the abort: %s", where, gs_status_string(s));
        gs_barrier_reset(b);
        s = run(b, GS_ALGO_FLIP, GS_DIM3_1D(g_sms), GS_DIM3_1D(128), 0, &wrong, nullptr, true,
                stream);
        CHECK(s == GS_OK && wrong == 0, "%s: async after reset: %s, %u wrong", where,
              gs_status_string(s), wrong);
        gs_barrier_destroy(b);
        printf("ok   flip     asynchronous launch (%s): busy, then GS_ERR_TIMEOUT at the "
               "collect, reset\n",
               where);
    }
    cudaStreamDestroy(own);
}

static void graph()
{
    gs_barrier *b = nullptr;
    cudaStream_t stream;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    unsigned skip = 0, episodes = 200;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    CHECK(gs_barrier_create(g_dev, GS_ALGO_AUTO, g_sms, &b) == GS_OK, "create");
    buffers m((size_t)g_sms * 256);
    void *state = nullptr;
    gs_cuda_state(b, &state);
    void *args[] = {&state, &m.data, &m.errors, &episodes, &skip};
    unsigned wrong = 0;
    /* once outside, so that the block size is known before the capture */
    gs_status s = run(b, GS_ALGO_AUTO, GS_DIM3_1D(g_sms), GS_DIM3_1D(256), 0, &wrong);
    CHECK(s == GS_OK && wrong == 0, "before the capture: %s", gs_status_string(s));
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    s = gs_cuda_launch_async(b, (const void *)mp_auto, GS_DIM3_1D(g_sms), GS_DIM3_1D(256), 0, args,
                             stream);
    gs_status other = gs_cuda_launch_async(b, (const void *)mp_auto, GS_DIM3_1D(g_sms),
                                           GS_DIM3_1D(128), 0, args, stream);
    cudaError_t e = cudaStreamEndCapture(stream, &graph);
    CHECK(s == GS_OK && e == cudaSuccess, "capture: %s, %s", gs_status_string(s),
          cudaGetErrorString(e));
    CHECK(other == GS_ERR_INVALID_ARGUMENT, "another block size in a capture: %s",
          gs_status_string(other));
    e = cudaGraphInstantiate(&exec, graph, 0);
    CHECK(e == cudaSuccess, "instantiate: %s", cudaGetErrorString(e));
    for (int r = 0; r < 3 && e == cudaSuccess; ++r)
        e = cudaGraphLaunch(exec, stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(stream);
    CHECK(e == cudaSuccess, "replays: %s", cudaGetErrorString(e));
    s = gs_barrier_collect(b);
    wrong = m.take();
    CHECK(s == GS_OK && wrong == 0, "three replays: %s, %u wrong reads", gs_status_string(s),
          wrong);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    /* a replay that times out: the collect says so */
    skip = 1;
    gs_barrier_set_timeout(b, 300);
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    s = gs_cuda_launch_async(b, (const void *)mp_auto, GS_DIM3_1D(g_sms), GS_DIM3_1D(256), 0, args,
                             stream);
    cudaStreamEndCapture(stream, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphLaunch(exec, stream);
    cudaStreamSynchronize(stream);
    s = gs_barrier_collect(b);
    CHECK(s == GS_ERR_TIMEOUT, "a replay with a missing block: %s", gs_status_string(s));
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    gs_barrier_destroy(b);
    cudaStreamDestroy(stream);
    printf("ok   auto     a launch captured into a CUDA graph, replayed; a replay's timeout "
           "collected\n");
}

static void foreign_state()
{
    gs_barrier *b = nullptr, *other = nullptr;
    gs_abort_info ai{};
    void *other_state = nullptr;
    unsigned wrong = 0;
    gs_barrier_create(g_dev, GS_ALGO_FLIP, g_sms, &b);
    gs_barrier_create(g_dev, GS_ALGO_FLIP, g_sms, &other);
    gs_cuda_state(other, &other_state);
    gs_status s = run(b, GS_ALGO_FLIP, GS_DIM3_1D(g_sms), GS_DIM3_1D(128), 0, &wrong, other_state);
    gs_barrier_abort_info(b, &ai);
    CHECK(s == GS_ERR_BAD_STATE && ai.reason == GS_ABORT_REASON_UNUSED,
          "a kernel handed another barrier's state: %s, reason %d", gs_status_string(s),
          (int)ai.reason);
    gs_barrier_reset(b);
    s = run(b, GS_ALGO_TREE, GS_DIM3_1D(g_sms), GS_DIM3_1D(128), 0, &wrong);
    CHECK(s == GS_ERR_BAD_STATE, "a tree kernel on a flip barrier: %s", gs_status_string(s));
    gs_barrier_destroy(b);
    gs_barrier_destroy(other);
    printf("ok   flip     another barrier's state, another protocol's kernel: GS_ERR_BAD_STATE\n");
}

int main()
{
    setvbuf(stdout, nullptr, _IOLBF, 0);
    gs_status s = gs_device_open(GS_BACKEND_CUDA, 0, &g_dev);
    if (s == GS_ERR_NO_DEVICE || s == GS_ERR_BACKEND_UNAVAILABLE) {
        printf("no CUDA device (%s): skipped\n", gs_status_string(s));
        return 77;
    }
    gs_device_info info;
    gs_device_get_info(g_dev, &info);
    g_sms = info.compute_units;
    every_protocol_and_block_size();
    arrive_only();
    arrive_last();
    arrive_last_then_more();
    arrive_last_past_bound();
    two_d();
    async_and_busy();
    graph();
    foreign_state();
    gs_device_close(g_dev);
    printf("cuda user api: %d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
