/* tests/cuda_local.cu - local synchronization (gridsync/local.h) on a CUDA GPU: a
 * wavefront checked cell by cell with the co-resident count of blocks, with ten times
 * more blocks than can be resident (they queue in the hardware; tickets keep it
 * deadlock-free), with one block; prepare and kernel captured in a CUDA graph and
 * replayed (each replay a new epoch: a replay that reused the last epoch would read the
 * previous run's words as done, and the check would fail); the epoch's wrap; a silent
 * producer that times out naming its tile; a barrier's state handed to a local kernel.
 * Tagged words (gs_local_put / gs_local_get*): chains of values passed on through reused
 * words by blocks of one warp (each lane its own words, lane 0 three in one wait), at
 * the co-resident count, 10 x it and one block, over launches of one state; a step that
 * puts nothing times out naming its word and seqs. (The NW app's local-tagged scheme on
 * the GPU: test nw_cuda and cli_wavefront_cuda.) Exits 77 without a GPU. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "gridsync.h"
#include "gridsync/cuda.cuh"
#include "gridsync/host_cuda.h"
#include "gridsync/host_local.h"

#include "cuda_check.h"

#define TILE 32u /* cells a side; a block of TILE threads, one per column */

static __host__ __device__ unsigned rule(unsigned up, unsigned left, unsigned diag)
{
    return up * 3u + left + diag * 7u + 1u;
}

/* Tile (ti, tj) through its inner anti-diagonals, thread c on column c: every thread of
 * the block writes part of the tile, so the signal must release them all. */
static __device__ void compute_tile(unsigned *cell, size_t width, unsigned ti, unsigned tj)
{
    unsigned c = threadIdx.x;
    for (unsigned step = 0; step < 2u * TILE - 1u; ++step) {
        if (step >= c && step - c < TILE) {
            size_t r = (size_t)ti * TILE + (step - c) + 1u, k = (size_t)tj * TILE + c + 1u;
            unsigned *p = &cell[r * width + k];
            *p = rule(p[-(ptrdiff_t)width], p[-1], p[-(ptrdiff_t)width - 1]);
        }
        __syncthreads();
    }
}

/* `pad` shared memory limits the blocks a SM holds, so a grid can outnumber them. */
static __global__ void wave(gs_word *state, unsigned rows, unsigned cols, unsigned *cell,
                            unsigned silent)
{
    extern __shared__ unsigned pad[];
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(state, scratch);
    if (threadIdx.x == 0)
        pad[0] = 0;
    size_t width = (size_t)cols * TILE + 1u;
    for (;;) {
        gs_u32 t = gs_local_next(&L), i, j;
        if (!gs_local_diagonal(t, rows, cols, &i, &j))
            return;
        if (gs_local_wait2(&L, (i - 1u) * cols + j, i > 0u, i * cols + j - 1u, j > 0u))
            return;
        compute_tile(cell, width, i, j);
        if (t != silent)
            gs_local_signal(&L, i * cols + j, 1u);
    }
}

/* Chains through tagged words, as tests/test_local.c's on the cpu: ticket t is step
 * t / chains of chain t % chains; step s gets seq s of the chain's words (step 0: none)
 * and puts seq s + 1 of the next value, each word by the lane that got it. Lane k has
 * words 2k and 2k + 1, lane 0 the last one too. `spin`: ns a step waits between its get
 * and its puts, so that the next step's block polls meanwhile. */
#define CHAIN_LANES 32u
#define CHAIN_WORDS (2u * CHAIN_LANES + 1u)

static __host__ __device__ unsigned chain_seed(unsigned launch, unsigned chain, unsigned word)
{
    return (launch + 1u) * 0x9e3779b1u ^ (chain * 977u + word * 131u + 7u);
}
static __host__ __device__ unsigned chain_next(unsigned v, unsigned step, unsigned word)
{
    return v * 2654435761u + step * 40503u + word + 1u;
}

static __global__ void chain(gs_word *state, unsigned chains, unsigned steps, unsigned launch,
                             unsigned silent, unsigned spin, unsigned *got)
{
    GS_GROUP_SCRATCH(scratch); /* the launch's dynamic shared memory only limits residency */
    gs_local L = gs_local_begin(state, scratch);
    unsigned k = threadIdx.x, last = 2u * CHAIN_LANES;
    for (;;) {
        gs_u32 t = gs_local_next(&L);
        if (t >= chains * steps)
            return;
        unsigned ch = t % chains, s = t / chains;
        gs_word64 *w = gs_local_tagged(&L, ch * CHAIN_WORDS);
        gs_u32 a = chain_seed(launch, ch, 2u * k), b = chain_seed(launch, ch, 2u * k + 1u);
        gs_u32 x = chain_seed(launch, ch, last);
        gs_u32 why = gs_local_get3(&L, &w[2u * k], s, &a, &w[2u * k + 1u], s, &b, &w[last],
                                   k == 0u ? s : 0u, &x);
        if (gs_local_agree(&L, why))
            return;
        unsigned *g = got + ((size_t)ch * steps + s) * CHAIN_WORDS;
        g[2u * k] = a;
        g[2u * k + 1u] = b;
        if (k == 0u)
            g[last] = x;
        if (spin)
            __nanosleep(spin);
        if (t != silent) {
            gs_local_put(&L, &w[2u * k], s + 1u, chain_next(a, s, 2u * k));
            gs_local_put(&L, &w[2u * k + 1u], s + 1u, chain_next(b, s, 2u * k + 1u));
            if (k == 0u)
                gs_local_put(&L, &w[last], s + 1u, chain_next(x, s, last));
        }
    }
}

/* One launch of the chains; the status, and in *wrong the values taken that are not the
 * step before's (steps 1 .. steps - 1). */
static gs_status run_chains(gs_local *L, unsigned chains, unsigned steps, unsigned blocks,
                            size_t pad, unsigned launch, unsigned silent, unsigned spin,
                            cudaStream_t s, size_t *wrong)
{
    void *state = nullptr;
    size_t n = (size_t)chains * steps * CHAIN_WORDS;
    unsigned *got = nullptr;
    gs_local_native(L, &state);
    cudaMalloc(&got, n * sizeof(unsigned));
    cudaMemsetAsync(got, 0, n * sizeof(unsigned), s);
    gs_status st = gs_local_prepare(L, s);
    if (st == GS_OK) {
        chain<<<blocks, CHAIN_LANES, pad, s>>>((gs_word *)state, chains, steps, launch, silent,
                                               spin, got);
        st = gs_local_collect(L, s);
    }
    std::vector<unsigned> h(n);
    cudaMemcpy(h.data(), got, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaFree(got);
    *wrong = 0;
    for (unsigned ch = 0; ch < chains; ++ch)
        for (unsigned w = 0; w < CHAIN_WORDS; ++w) {
            unsigned v = chain_seed(launch, ch, w);
            for (unsigned st2 = 1; st2 < steps; ++st2) {
                v = chain_next(v, st2 - 1u, w);
                *wrong += h[((size_t)ch * steps + st2) * CHAIN_WORDS + w] != v;
            }
        }
    return st;
}

static std::vector<unsigned> reference(unsigned rows, unsigned cols)
{
    size_t W = (size_t)cols * TILE + 1u, H = (size_t)rows * TILE + 1u;
    std::vector<unsigned> out(W * H);
    for (size_t r = 0; r < H; ++r)
        for (size_t k = 0; k < W; ++k)
            out[r * W + k] = r == 0 || k == 0 ? (unsigned)(r * 31u + k * 17u)
                                              : rule(out[(r - 1) * W + k], out[r * W + k - 1],
                                                     out[(r - 1) * W + k - 1]);
    return out;
}

struct wavefront {
    unsigned rows, cols;
    std::vector<unsigned> want;
    unsigned *cell = nullptr;
    size_t bytes = 0;
    wavefront(unsigned r, unsigned c) : rows(r), cols(c), want(reference(r, c))
    {
        bytes = want.size() * sizeof(unsigned);
        cudaMalloc(&cell, bytes);
    }
    ~wavefront() { cudaFree(cell); }
    /* the fixed edges, everything else zero */
    void reset(cudaStream_t s)
    {
        std::vector<unsigned> init(want.size(), 0u);
        size_t W = (size_t)cols * TILE + 1u;
        for (size_t n = 0; n < want.size(); ++n)
            if (n < W || n % W == 0)
                init[n] = want[n];
        cudaMemcpyAsync(cell, init.data(), bytes, cudaMemcpyHostToDevice, s);
        cudaStreamSynchronize(s);
    }
    size_t wrong() const
    {
        std::vector<unsigned> got(want.size());
        cudaMemcpy(got.data(), cell, bytes, cudaMemcpyDeviceToHost);
        size_t n = 0;
        for (size_t k = 0; k < got.size(); ++k)
            n += got[k] != want[k];
        return n;
    }
};

static gs_status run(gs_local *L, wavefront &w, unsigned blocks, size_t pad, unsigned silent,
                     cudaStream_t s)
{
    void *state = nullptr;
    gs_local_native(L, &state);
    w.reset(s);
    gs_status st = gs_local_prepare(L, s);
    if (st != GS_OK)
        return st;
    wave<<<blocks, TILE, pad, s>>>((gs_word *)state, w.rows, w.cols, w.cell, silent);
    return gs_local_collect(L, s);
}

int main()
{
    gs_device *dev = nullptr;
    if (gs_device_open(GS_BACKEND_CUDA, 0, &dev) != GS_OK) {
        printf("no CUDA device: skipped\n");
        return 77;
    }
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    int sms = 0, resident = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    size_t pad = 100u * 1024u; /* two blocks a SM at most */
    cudaFuncSetAttribute(wave, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)pad);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, wave, TILE, pad);
    unsigned coresident = (unsigned)(resident * sms);
    printf("%d SMs, %d blocks of %u threads with %zu B a SM: %u co-resident\n", sms, resident, TILE,
           pad, coresident);

    wavefront w(64, 96); /* 6144 tiles of 32 x 32 cells */
    gs_local *L = nullptr;
    CHECK(gs_local_create(dev, w.rows * w.cols, &L) == GS_OK, "create");
    const unsigned grids[] = {coresident, 10u * coresident, 1u};
    for (unsigned blocks : grids) {
        for (int rep = 0; rep < 3; ++rep) { /* the same state, no reset */
            gs_status st = run(L, w, blocks, pad, ~0u, s);
            size_t wrong = w.wrong();
            CHECK(st == GS_OK && wrong == 0, "%u blocks, run %d: %s, %zu wrong cells", blocks, rep,
                  gs_status_string(st), wrong);
        }
    }

    /* A graph of prepare + kernel, replayed: each replay a new epoch. */
    {
        void *state = nullptr;
        gs_local_native(L, &state);
        cudaGraph_t graph;
        cudaGraphExec_t exec;
        cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
        gs_status st = gs_local_prepare(L, s);
        wave<<<coresident, TILE, pad, s>>>((gs_word *)state, w.rows, w.cols, w.cell, ~0u);
        cudaError_t e = cudaStreamEndCapture(s, &graph);
        CHECK(st == GS_OK && e == cudaSuccess, "capture: %s, %s", gs_status_string(st),
              cudaGetErrorString(e));
        CHECK(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess, "instantiate");
        for (int rep = 0; rep < 5; ++rep) {
            w.reset(s);
            cudaGraphLaunch(exec, s);
            gs_status c = gs_local_collect(L, s);
            size_t wrong = w.wrong();
            CHECK(c == GS_OK && wrong == 0, "graph replay %d: %s, %zu wrong cells", rep,
                  gs_status_string(c), wrong);
        }
        cudaGraphExecDestroy(exec);
        cudaGraphDestroy(graph);
    }

    /* 130 launches of a small wavefront: the epoch wraps at 127 and the words are cleared. */
    {
        wavefront small(3, 5);
        gs_local *S = nullptr;
        CHECK(gs_local_create(dev, 15, &S) == GS_OK, "create small");
        size_t bad = 0;
        for (int rep = 0; rep < 130; ++rep)
            bad += run(S, small, 4, 0, ~0u, s) != GS_OK || small.wrong() != 0;
        CHECK(bad == 0, "%zu of 130 launches wrong across the epoch's wrap", bad);
        gs_local_destroy(S);
    }

    /* A silent producer: ticket 4 of 4 x 4 tiles is tile (1, 1); one block waits on it. */
    {
        wavefront f(4, 4);
        gs_local *F = nullptr;
        CHECK(gs_local_create(dev, 16, &F) == GS_OK, "create fault");
        gs_local_set_timeout(F, 200);
        gs_status st = run(F, f, 1, 0, 4, s);
        gs_local_abort a;
        gs_local_abort_info(F, &a);
        CHECK(st == GS_ERR_TIMEOUT && a.reason == GS_ABORT_REASON_TIMEOUT && a.word == 5 &&
                  a.awaited == 1 && a.seen == 0 && a.group == 0,
              "silent tile: %s, reason %d word %u awaited %u seen %u group %u",
              gs_status_string(st), (int)a.reason, a.word, a.awaited, a.seen, a.group);
        st = run(F, f, 8, 0, ~0u, s); /* and the state is whole again */
        CHECK(st == GS_OK && f.wrong() == 0, "after the timeout: %s", gs_status_string(st));
        gs_local_destroy(F);
    }

    /* A barrier's state handed to the local kernel: nothing touched, GS_ERR_BAD_STATE. */
    {
        gs_barrier *b = nullptr;
        void *bstate = nullptr;
        CHECK(gs_barrier_create(dev, GS_ALGO_FLIP, 4, &b) == GS_OK, "barrier");
        gs_barrier_native(b, &bstate);
        wavefront f(2, 2);
        f.reset(s);
        gs_local_prepare(L, s);
        wave<<<4, TILE, 0, s>>>((gs_word *)bstate, f.rows, f.cols, f.cell, ~0u);
        gs_status st = gs_local_collect(L, s);
        CHECK(st == GS_ERR_BAD_STATE, "wrong state: %s", gs_status_string(st));
        gs_barrier_destroy(b);
    }

    /* Tagged words: 64 chains of 200 steps through one state, at the co-resident count, 10
     * x it (queued blocks take later tickets) and one block, launches reusing the state
     * with no clearing (each launch's values differ: a get that took the last launch's
     * word would read a wrong one); with and without a pause between get and puts. */
    {
        gs_local *T = nullptr;
        const unsigned chains = 64, steps = 200;
        cudaFuncSetAttribute(chain, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)pad);
        CHECK(gs_local_create_tagged(dev, 0, chains * CHAIN_WORDS, &T) == GS_OK, "create tagged");
        const unsigned tgrids[] = {coresident, 10u * coresident, 1u};
        unsigned launch = 0;
        for (unsigned blocks : tgrids)
            for (unsigned spin = 0; spin <= 2000; spin += 2000) {
                size_t wrong = 0;
                gs_status st =
                    run_chains(T, chains, steps, blocks, pad, launch++, ~0u, spin, s, &wrong);
                CHECK(st == GS_OK && wrong == 0,
                      "chains, %u blocks, pause %u ns: %s, %zu of %u wrong", blocks, spin,
                      gs_status_string(st), wrong, chains * (steps - 1u) * CHAIN_WORDS);
            }
        /* A step that puts nothing (chain 1, step 3): step 4 of chain 1 times out; with
         * one block it is the first to, naming its lane's first word, seq 4, seen 3. */
        gs_local_set_timeout(T, 200);
        size_t wrong = 0;
        gs_status st = run_chains(T, 2, 8, 1, 0, launch++, 2 * 3 + 1, 0, s, &wrong);
        gs_local_abort a;
        gs_local_abort_info(T, &a);
        CHECK(st == GS_ERR_TIMEOUT && a.reason == GS_ABORT_REASON_TIMEOUT && a.tagged == 1 &&
                  a.group == 0 && a.item < CHAIN_LANES && a.word == CHAIN_WORDS + 2u * a.item &&
                  a.awaited == 4 && a.seen == 3,
              "silent step: %s, reason %d tagged %d group %u item %u word %u awaited %u seen %u",
              gs_status_string(st), (int)a.reason, a.tagged, a.group, a.item, a.word, a.awaited,
              a.seen);
        st = run_chains(T, 2, 8, 4, 0, launch++, ~0u, 0, s, &wrong); /* whole again */
        CHECK(st == GS_OK && wrong == 0, "after the timeout: %s, %zu wrong", gs_status_string(st),
              wrong);
        gs_local_destroy(T);
    }

    gs_local_destroy(L);
    cudaStreamDestroy(s);
    gs_device_close(dev);
    printf("cuda_local: %d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
