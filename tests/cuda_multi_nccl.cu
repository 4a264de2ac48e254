/* tests/cuda_multi_nccl.cu - the barrier across devices over an NCCL communicator
 * (gridsync/host_multi_nccl.h), first with one rank, then with a rank on every GPU.
 *
 * One rank: a communicator of one rank (ncclCommInitAll over GPU 0), the state in an NCCL
 * symmetric window, the peers' table from the window. Message passing between the rank's
 * blocks through gs_multi_sync and in split phase, twice on the same state; a block that
 * returns before a barrier: the launch ends with GS_ERR_TIMEOUT naming the group, the next
 * is refused until a collective reset and then whole.
 *
 * Several ranks, where the host has 2 GPUs or more (GS_TEST_NCCL_RANKS of them, default
 * one a GPU up to 8): one process, one host thread a rank, rank r on GPU r with its own
 * communicator (ncclCommInitRank), gs_device and gs_multi, as one process a GPU would have
 * them. Message passing across the ranks (every rank writes its values of phase k into a
 * buffer on GPU 0, peer access; after the barrier every block checks a share of every
 * rank's), with gs_multi_sync and in split phase, twice; the last rank's kernel returns
 * before barrier 10: every other rank ends with GS_ERR_TIMEOUT within the bound and names
 * it, that rank with GS_OK or GS_ERR_TIMEOUT (whether it ended before it was told to leave);
 * a collective reset, and a whole launch again. Skipped (printed) with fewer GPUs, GPUs
 * that cannot reach GPU 0, or a gs_multi_create_nccl that every rank finds unsupported.
 *
 * Exits 77 without a GPU or where NCCL cannot make the one-rank communicator. */
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include <nccl.h>

#include "gridsync.h"
#include "gridsync/cuda.cuh"
#include "gridsync/host_cuda.h"
#include "gridsync/host_multi.h"
#include "gridsync/host_multi_nccl.h"

#include "cuda_check.h"
#include "cuda_multi_mp.cuh"

/* Every thread writes its value of phase k; after the barrier every block checks a share
 * of every value of phase k. A block `fault_group` returns before barrier fault_episode. */
static __global__ void __launch_bounds__(THREADS)
    mp_one(gs_word *state, unsigned *buf, unsigned *wrong, unsigned episodes, int split,
           unsigned fault_group, unsigned fault_episode)
{
    gs_multi_grid m = gs_multi_begin(state);
    unsigned total = gridDim.x * THREADS;
    for (unsigned k = 0; k < episodes; ++k) {
        if (blockIdx.x == fault_group && k == fault_episode)
            return;
        buf[(k % 2u) * total + blockIdx.x * THREADS + threadIdx.x] = (k * 2654435761u) ^ blockIdx.x;
        gs_u32 why;
        if (split) {
            gs_token t = gs_multi_arrive(&m);
            why = gs_multi_wait_token(&m, t);
        } else {
            why = gs_multi_sync(&m);
        }
        if (why)
            return;
        unsigned bad = 0;
        for (unsigned i = threadIdx.x; i < total; i += THREADS) /* every block reads all */
            bad += buf[(k % 2u) * total + i] != ((k * 2654435761u) ^ (i / THREADS));
        if (bad)
            atomicAdd(wrong, bad);
    }
}

static gs_status launch(gs_multi *m, unsigned groups, unsigned *buf, unsigned *wrong,
                        unsigned episodes, int split, unsigned fault_group, cudaStream_t stream)
{
    void *state = nullptr;
    unsigned fault_episode = 10u;
    gs_multi_native(m, 0, &state);
    void *args[] = {&state, &buf, &wrong, &episodes, &split, &fault_group, &fault_episode};
    gs_status s = gs_cuda_multi_launch_async(m, 0, (const void *)mp_one, GS_DIM3_1D(groups),
                                             GS_DIM3_1D(THREADS), 0, args, stream);
    if (s != GS_OK)
        return s;
    gs_status each = GS_ERR_NATIVE;
    gs_status all = gs_multi_collect(m, &each);
    return all != GS_OK ? all : each;
}

/* 0 when the launches ran (their checks counted), else the exit code. */
static int one_rank()
{
    int count = 0, ordinal = 0;
    gs_device *dev = nullptr;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 ||
        gs_device_open(GS_BACKEND_CUDA, 0, &dev) != GS_OK) {
        printf("no CUDA device: skipped\n");
        return 77;
    }
    ncclComm_t comm;
    ncclResult_t nr = ncclCommInitAll(&comm, 1, &ordinal);
    if (nr != ncclSuccess) {
        printf("ncclCommInitAll: %s: skipped\n", ncclGetErrorString(nr));
        return 77;
    }
    { /* what NCCL gives one rank: printed, for the record */
        int version = 0;
        void *mem = nullptr;
        ncclWindow_t w = nullptr;
        cudaPointerAttributes pa = {};
        ncclGetVersion(&version);
        ncclResult_t a = ncclMemAlloc(&mem, 1u << 21);
        ncclResult_t b = a == ncclSuccess ? ncclCommWindowRegister(comm, mem, 1u << 21, &w,
                                                                   NCCL_WIN_COLL_SYMMETRIC)
                                          : a;
        cudaError_t e = w ? cudaPointerGetAttributes(&pa, w) : cudaSuccess;
        printf("  NCCL %d: ncclMemAlloc %d, window register %d, window %p (memory type %d, %s)\n",
               version, (int)a, (int)b, (void *)w, (int)pa.type, cudaGetErrorString(e));
        cudaGetLastError();
        if (w)
            ncclCommWindowDeregister(comm, w);
        if (mem)
            ncclMemFree(mem);
    }
    gs_device_info info;
    gs_device_get_info(dev, &info);
    unsigned groups = info.compute_units;
    gs_multi *m = nullptr;
    gs_status c = gs_multi_create_nccl(dev, comm, groups, &m);
    int code = 0;
    const char *why = "";
    gs_device_native_error(dev, &code, &why);
    CHECK(c == GS_OK, "gs_multi_create_nccl: %s (%d: %s)", gs_status_string(c), code, why);
    if (c != GS_OK)
        return 1;
    unsigned ranks = 0, per = 0;
    CHECK(gs_multi_get_shape(m, &ranks, &per) == GS_OK && ranks == 1u && per == groups,
          "shape: %u ranks of %u groups", ranks, per);
    unsigned *buf = nullptr, *wrong = nullptr, host_wrong = 0;
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cudaMalloc(&buf, 2u * groups * THREADS * sizeof(unsigned));
    cudaMalloc(&wrong, sizeof(unsigned));
    for (int split = 0; split < 2; ++split)
        for (int rep = 0; rep < 2; ++rep) {
            cudaMemset(wrong, 0, sizeof(unsigned));
            cudaDeviceSynchronize();
            gs_status s = launch(m, groups, buf, wrong, 2000, split, NO_FAULT, stream);
            cudaMemcpy(&host_wrong, wrong, sizeof host_wrong, cudaMemcpyDeviceToHost);
            CHECK(s == GS_OK && host_wrong == 0, "%s, launch %d: %s, %u wrong",
                  split ? "split" : "sync", rep, gs_status_string(s), host_wrong);
        }
    gs_multi_set_timeout(m, 300);
    gs_status s = launch(m, groups, buf, wrong, 100, 0, groups / 2u, stream);
    gs_multi_abort a;
    gs_multi_abort_info(m, 0, &a);
    CHECK(s == GS_ERR_TIMEOUT, "a block that skips barrier 10: %s", gs_status_string(s));
    printf("  abort: reason %d, group %u, episode %u, missing ranks %u\n", (int)a.reason, a.group,
           a.episode, a.missing_ranks);
    s = launch(m, groups, buf, wrong, 100, 0, NO_FAULT, stream);
    CHECK(s == GS_ERR_NEEDS_RESET, "before the reset: %s", gs_status_string(s));
    CHECK(gs_multi_reset(m) == GS_OK, "collective reset");
    cudaMemset(wrong, 0, sizeof(unsigned));
    s = launch(m, groups, buf, wrong, 500, 1, NO_FAULT, stream);
    cudaMemcpy(&host_wrong, wrong, sizeof host_wrong, cudaMemcpyDeviceToHost);
    CHECK(s == GS_OK && host_wrong == 0, "after the reset: %s, %u wrong", gs_status_string(s),
          host_wrong);
    CHECK(gs_multi_destroy(m) == GS_OK, "destroy (deregisters the window)");
    ncclCommDestroy(comm);
    cudaFree(buf);
    cudaFree(wrong);
    cudaStreamDestroy(stream);
    gs_device_close(dev);
    return 0;
}

/* ---- several ranks, one host thread and one GPU each ----------------------------------- */

/* How long the part of several ranks may take in all: NCCL bounds none of its waits, so a
 * rank whose thread never comes would otherwise hold the others in a collective call. */
#define SEVERAL_DEADLINE_S 80

/* CHECK's counters are plain ints: the ranks' threads count under one lock, taken after
 * the condition is evaluated (a condition that is a collective call, held under the lock,
 * would keep the other ranks out of it: the first run on two H200s hung so). */
static std::mutex g_check_lock;
#define RANK_CHECK(cond, ...)                            \
    do {                                                 \
        bool ok_ = (cond);                               \
        std::lock_guard<std::mutex> held_(g_check_lock); \
        CHECK_THAT(ok_, #cond, __VA_ARGS__);             \
    } while (0)

static double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/* What the ranks' threads share. */
struct several {
    unsigned ranks = 0, groups = 0;
    ncclUniqueId id;
    unsigned *buf = nullptr;
    std::chrono::steady_clock::time_point deadline;
    std::mutex mu; /* guards what follows */
    std::condition_variable cv;
    unsigned arrived = 0, generation = 0;
    bool votes = true, verdict = true;
    std::vector<gs_status> created;
    std::vector<char> faulted; /* the provoked fault ran on this rank: fault[r] is its abort */
    std::vector<gs_multi_abort> fault;
};

/* A rank's step, printed as it begins: where a run that CTest's limit ended stood. */
static void say(several &, unsigned r, const char *what)
{
    std::lock_guard<std::mutex> held(g_check_lock);
    printf("  rank %u: %s\n", r, what);
    fflush(stdout);
}

/* Every rank's thread meets here, bringing `mine`: true when every rank brought true. Also
 * lines the ranks' launches up, so that none waits for another's thread. False, printed,
 * when the deadline comes first. */
static bool agree(several &s, unsigned r, bool mine, const char *where)
{
    std::unique_lock<std::mutex> lock(s.mu);
    unsigned gen = s.generation;
    s.votes = s.votes && mine;
    if (++s.arrived == s.ranks) {
        s.verdict = s.votes;
        s.votes = true;
        s.arrived = 0;
        ++s.generation;
        s.cv.notify_all();
        return s.verdict;
    }
    if (!s.cv.wait_until(lock, s.deadline, [&] { return s.generation != gen; })) {
        lock.unlock();
        RANK_CHECK(false, "rank %u: the other ranks did not come to %s", r, where);
        return false;
    }
    return s.verdict; /* no later meeting can end before this rank comes to it */
}

struct rank_run {
    gs_status all, mine;
    bool others_unsupported; /* what gs_multi_collect gives for the ranks of other threads */
    unsigned wrong, why;
    double ms; /* from the launch to the collect's return */
};

static rank_run run_rank(several &s, unsigned r, gs_multi *m, cudaStream_t stream, unsigned *wrong,
                         unsigned *why, unsigned episodes, int split, unsigned fault_rank)
{
    rank_run out = {GS_ERR_NATIVE, GS_ERR_NATIVE, false, 0, 0, 0.0};
    void *state = nullptr;
    gs_multi_native(m, r, &state);
    mp_params p = {r, s.ranks, s.groups, episodes, s.buf, wrong, why, fault_rank, 10u, split};
    void *args[] = {&state, &p};
    cudaMemsetAsync(wrong, 0, sizeof(unsigned), stream);
    cudaMemsetAsync(why, 0, sizeof(unsigned), stream);
    double t0 = now_ms();
    gs_status l = gs_cuda_multi_launch_async(m, r, (const void *)mp, GS_DIM3_1D(s.groups),
                                             GS_DIM3_1D(THREADS), 0, args, stream);
    if (l != GS_OK) {
        out.all = out.mine = l;
        return out;
    }
    std::vector<gs_status> each(s.ranks, GS_ERR_NATIVE); /* one per rank, not only this one */
    out.all = gs_multi_collect(m, each.data());
    out.ms = now_ms() - t0;
    out.mine = each[r];
    out.others_unsupported = true;
    for (unsigned k = 0; k < s.ranks; ++k)
        if (k != r && each[k] != GS_ERR_UNSUPPORTED)
            out.others_unsupported = false;
    cudaMemcpy(&out.wrong, wrong, sizeof out.wrong, cudaMemcpyDeviceToHost);
    cudaMemcpy(&out.why, why, sizeof out.why, cudaMemcpyDeviceToHost);
    return out;
}

/* Rank r's launches on its barrier; every collective call is made whatever came before it,
 * since a rank that left one out would hold the others in it. */
static void exercise(several &s, unsigned r, gs_multi *m, cudaStream_t stream, unsigned *wrong,
                     unsigned *why)
{
    unsigned ranks = 0, per = 0;
    void *other = nullptr;
    RANK_CHECK(gs_multi_get_shape(m, &ranks, &per) == GS_OK && ranks == s.ranks && per == s.groups,
               "rank %u: shape: %u ranks of %u groups", r, ranks, per);
    RANK_CHECK(gs_multi_native(m, (r + 1u) % s.ranks, &other) == GS_ERR_UNSUPPORTED,
               "rank %u: another rank's state is its own thread's", r);
    for (int split = 0; split < 2; ++split)
        for (int rep = 0; rep < 2; ++rep) { /* the same states, no reset */
            say(s, r, "a launch");
            agree(s, r, true, "a launch");
            rank_run x = run_rank(s, r, m, stream, wrong, why, 2000, split, NO_FAULT);
            RANK_CHECK(x.all == GS_OK && x.mine == GS_OK && x.wrong == 0 && x.others_unsupported,
                       "rank %u, %s, launch %d: %s (this rank %s), %u wrong values", r,
                       split ? "split" : "sync", rep, gs_status_string(x.all),
                       gs_status_string(x.mine), x.wrong);
        }

    /* The last rank returns before its 11th barrier (episodes count from the reset). */
    unsigned missing = s.ranks - 1u, bound = 0;
    say(s, r, "gs_multi_reset before the fault");
    RANK_CHECK(gs_multi_reset(m) == GS_OK, "rank %u: collective reset before the fault", r);
    gs_multi_get_timeout(m, &bound);
    RANK_CHECK(gs_multi_set_timeout(m, 300) == GS_OK, "rank %u: timeout 300 ms", r);
    say(s, r, "the launch with a missing rank");
    agree(s, r, true, "the launch with a missing rank");
    rank_run x = run_rank(s, r, m, stream, wrong, why, 100, 0, missing);
    gs_multi_abort a;
    memset(&a, 0, sizeof a);
    gs_status info = gs_multi_abort_info(m, r, &a);
    {
        std::lock_guard<std::mutex> lock(s.mu);
        s.fault[r] = a;
        s.faulted[r] = 1;
    }
    if (r == missing) {
        RANK_CHECK((x.mine == GS_OK || x.mine == GS_ERR_TIMEOUT) && x.ms < 5000.0,
                   "rank %u, which left before barrier 10: %s after %.0f ms", r,
                   gs_status_string(x.mine), x.ms);
    } else {
        RANK_CHECK(x.all == GS_ERR_TIMEOUT && x.mine == GS_ERR_TIMEOUT && x.why != 0 &&
                       x.ms < 5000.0,
                   "rank %u, waiting for rank %u: %s (device result %u) after %.0f ms", r, missing,
                   gs_status_string(x.mine), x.why, x.ms);
        /* The teller of a rank told to leave is a rank whose own wait expired. */
        bool from = a.reason == GS_ABORT_REASON_TIMEOUT
                        ? a.from_rank == r
                        : a.reason == GS_ABORT_REASON_PEER && a.from_rank < s.ranks &&
                              a.from_rank != missing;
        RANK_CHECK(info == GS_OK && a.rank == r && from && a.missing_ranks == 1u &&
                       a.first_missing_rank[0] == missing && a.episode == 10u && a.group < s.groups,
                   "rank %u: reason %d from %u, group %u episode %u, %u missing, first %u", r,
                   (int)a.reason, a.from_rank, a.group, a.episode, a.missing_ranks,
                   a.first_missing_rank[0]);
    }
    /* A rank that reported GS_OK is not refused, and a launch of it now would arrive where
     * the others are still waiting: only the others try. */
    if (x.mine != GS_OK) {
        rank_run y = run_rank(s, r, m, stream, wrong, why, 100, 0, NO_FAULT);
        RANK_CHECK(y.mine == GS_ERR_NEEDS_RESET, "rank %u, before the reset: %s", r,
                   gs_status_string(y.mine));
    }
    /* No meeting of the threads first: processes would have none. The reset alone must
     * leave every state clean, the early rank's too, which the others' kernels may still
     * write into (telling it to leave) after it has collected. */
    say(s, r, "gs_multi_reset after the fault");
    RANK_CHECK(gs_multi_reset(m) == GS_OK, "rank %u: collective reset", r);
    /* the default bound again: a thread that comes late must not read as a fault */
    RANK_CHECK(gs_multi_set_timeout(m, bound) == GS_OK, "rank %u: timeout %u ms", r, bound);
    say(s, r, "the launch after the reset");
    agree(s, r, true, "the launch after the reset");
    x = run_rank(s, r, m, stream, wrong, why, 500, 1, NO_FAULT);
    RANK_CHECK(x.all == GS_OK && x.mine == GS_OK && x.wrong == 0,
               "rank %u, after the reset: %s, %u wrong values", r, gs_status_string(x.mine),
               x.wrong);
    say(s, r, "gs_multi_destroy");
    RANK_CHECK(gs_multi_destroy(m) == GS_OK, "rank %u: destroy (deregisters the window)", r);
}

static void rank_body(several &s, unsigned r)
{
    say(s, r, "ncclCommInitRank");
    cudaSetDevice((int)r);
    ncclComm_t comm = nullptr;
    ncclResult_t nr = ncclCommInitRank(&comm, (int)s.ranks, s.id, (int)r);
    RANK_CHECK(nr == ncclSuccess, "rank %u: ncclCommInitRank: %s", r, ncclGetErrorString(nr));
    gs_device *dev = nullptr;
    gs_status o = gs_device_open(GS_BACKEND_CUDA, (int)r, &dev);
    RANK_CHECK(o == GS_OK, "rank %u: gs_device_open(%u): %s", r, r, gs_status_string(o));
    cudaStream_t stream = nullptr;
    unsigned *wrong = nullptr, *why = nullptr;
    cudaError_t e = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    if (e == cudaSuccess)
        e = cudaMalloc(&wrong, sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMalloc(&why, sizeof(unsigned));
    RANK_CHECK(e == cudaSuccess, "rank %u: stream and counters: %s", r, cudaGetErrorString(e));

    bool made = false;
    say(s, r, "gs_multi_create_nccl");
    if (agree(s, r, nr == ncclSuccess && o == GS_OK && e == cudaSuccess, "the creation")) {
        gs_multi *m = nullptr;
        gs_status c = gs_multi_create_nccl(dev, comm, s.groups, &m);
        int code = 0;
        const char *text = "";
        gs_device_native_error(dev, &code, &text);
        s.created[r] = c; /* read by the others after the meeting */
        made = agree(s, r, c == GS_OK, "the end of the creation");
        bool unsupported = true;
        for (unsigned k = 0; k < s.ranks; ++k)
            unsupported = unsupported && s.created[k] == GS_ERR_UNSUPPORTED;
        if (made)
            exercise(s, r, m, stream, wrong, why);
        else if (unsupported)
            printf("  several ranks: rank %u: gs_multi_create_nccl: %s (%d: %s): skipped\n", r,
                   gs_status_string(c), code, text);
        else
            RANK_CHECK(c == GS_OK, "rank %u: gs_multi_create_nccl: %s (%d: %s)", r,
                       gs_status_string(c), code, text);
    }
    /* A rank that did not get through the creation may leave the communicator in a
     * collective call: abort it rather than wait for it. */
    if (comm && made)
        ncclCommDestroy(comm);
    else if (comm)
        ncclCommAbort(comm);
    cudaFree(wrong);
    cudaFree(why);
    if (stream)
        cudaStreamDestroy(stream);
    if (dev)
        gs_device_close(dev);
}

static void several_ranks(int count)
{
    unsigned n = count < 8 ? (unsigned)count : 8u;
    const char *env = getenv("GS_TEST_NCCL_RANKS");
    if (env && *env)
        n = (unsigned)strtoul(env, nullptr, 10);
    if (n < 2u || n > (unsigned)count || n > GS_MULTI_MAX_DEVICES) {
        printf("several ranks: %u ranks, one a GPU, on %d GPUs: skipped\n", n, count);
        return;
    }
    int sms = 0;
    for (unsigned r = 0; r < n; ++r) {
        int can = 0, v = 0;
        cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, (int)r);
        sms = r == 0 || v < sms ? v : sms;
        if (r == 0)
            continue;
        /* the buffer that every rank writes is on GPU 0 */
        if (cudaDeviceCanAccessPeer(&can, (int)r, 0) != cudaSuccess || !can) {
            printf("several ranks: GPU %u cannot reach GPU 0's memory: skipped\n", r);
            return;
        }
        cudaSetDevice((int)r);
        cudaError_t e = cudaDeviceEnablePeerAccess(0, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) {
            (void)cudaGetLastError();
            e = cudaSuccess;
        }
        CHECK(e == cudaSuccess, "peer access from GPU %u to GPU 0: %s", r, cudaGetErrorString(e));
        if (e != cudaSuccess)
            return;
    }
    several s;
    s.ranks = n;
    /* a quarter of the SMs a rank: cooperative on every GPU, and the remote reads stay few */
    s.groups = sms / 4 > 0 ? (unsigned)sms / 4u : 1u;
    s.created.assign(n, GS_ERR_NATIVE);
    s.faulted.assign(n, 0);
    s.fault.resize(n);
    size_t words = 2u * n * s.groups * THREADS;
    cudaSetDevice(0);
    cudaError_t e = cudaMalloc(&s.buf, words * sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMemset(s.buf, 0, words * sizeof(unsigned));
    CHECK(e == cudaSuccess, "the buffer on GPU 0: %s", cudaGetErrorString(e));
    ncclResult_t nr = ncclGetUniqueId(&s.id);
    CHECK(nr == ncclSuccess, "ncclGetUniqueId: %s", ncclGetErrorString(nr));
    if (e != cudaSuccess || nr != ncclSuccess)
        return;
    printf("several ranks: %u ranks on GPUs 0 to %u, %u blocks of %u each\n", n, n - 1u, s.groups,
           THREADS);
    fflush(stdout);

    s.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(SEVERAL_DEADLINE_S);
    std::vector<std::thread> threads;
    for (unsigned r = 0; r < n; ++r)
        threads.emplace_back(rank_body, std::ref(s), r);
    /* No watchdog of our own: CTest's TIMEOUT (and gpu.sh's stage limit) ends a run in
     * which NCCL, whose waits have no bound, held a rank; each rank prints its steps, so
     * the log shows where. */
    for (std::thread &t : threads)
        t.join();

    /* A rank told to leave was told by one whose own wait expired: some waiting rank's did. */
    bool ran = true, expired = false;
    for (unsigned r = 0; r + 1u < n; ++r) {
        ran = ran && s.faulted[r];
        expired = expired || s.fault[r].reason == GS_ABORT_REASON_TIMEOUT;
    }
    if (ran)
        CHECK(expired, "a waiting rank's own wait expired");
    cudaSetDevice(0);
    cudaFree(s.buf);
}

int main()
{
    /* no NVLink multicast, also where the test is run by hand */
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    int count = 0;
    int code = one_rank();
    if (code != 0)
        return code;
    if (cudaGetDeviceCount(&count) != cudaSuccess)
        count = 0;
    several_ranks(count);
    printf("cuda_multi_nccl: %d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
