/* tests/cuda_multi.cu - the barrier across devices (gridsync/multi.h, host_multi.h) on
 * CUDA GPUs: message passing across the ranks (every thread of every block of every
 * rank writes its value of phase k into a buffer on rank 0's GPU, and after the barrier
 * every block checks every value of phase k), with gs_multi_sync and in split phase,
 * twice on the same states; a rank whose kernel returns before a barrier: every rank
 * ends with GS_ERR_TIMEOUT within the bound, naming the missing rank, the next launch is
 * refused until a reset and then whole; launches that together do not fit the GPU.
 *
 * GS_TEST_MULTI_DEVICES lists the ranks' GPU ordinals (default "0,0": two ranks on GPU
 * 0, each launch small enough that both are resident at once: the single-GPU test).
 * Exits 77 without the GPUs it names. */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "gridsync.h"
#include "gridsync/cuda.cuh"
#include "gridsync/host_cuda.h"
#include "gridsync/host_multi.h"

#include "cuda_check.h"
#include "cuda_multi_mp.cuh"

static double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct setup {
    std::vector<gs_device *> devs;
    std::vector<int> ordinal;
    std::vector<cudaStream_t> streams;
    gs_multi *m = nullptr;
    unsigned groups = 0;
    unsigned *buf = nullptr, *wrong = nullptr, *why = nullptr;
};

/* One launch of every rank; the host's count of wrong values in *wrong. */
static gs_status run(setup &s, unsigned episodes, int split, unsigned fault_rank,
                     unsigned fault_episode, std::vector<gs_status> &st, unsigned *wrong)
{
    unsigned ranks = (unsigned)s.devs.size();
    cudaSetDevice(s.ordinal[0]);
    cudaMemset(s.wrong, 0, sizeof(unsigned));
    cudaMemset(s.why, 0, ranks * sizeof(unsigned));
    cudaDeviceSynchronize();
    std::vector<mp_params> p(ranks);
    std::vector<void *> state(ranks);
    std::vector<std::vector<void *>> args(ranks);
    std::vector<void **> argv(ranks);
    std::vector<void *> streams(ranks);
    for (unsigned r = 0; r < ranks; ++r) {
        gs_multi_native(s.m, r, &state[r]);
        p[r] = mp_params{r,       ranks,     s.groups,   episodes,      s.buf,
                         s.wrong, s.why + r, fault_rank, fault_episode, split};
        args[r] = {&state[r], &p[r]};
        argv[r] = args[r].data();
        streams[r] = s.streams[r];
    }
    st.assign(ranks, GS_ERR_NATIVE);
    gs_status all =
        gs_cuda_multi_launch(s.m, (const void *)mp, GS_DIM3_1D(s.groups), GS_DIM3_1D(THREADS), 0,
                             argv.data(), streams.data(), st.data());
    cudaSetDevice(s.ordinal[0]);
    cudaMemcpy(wrong, s.wrong, sizeof(unsigned), cudaMemcpyDeviceToHost);
    return all;
}

static std::vector<int> ordinals()
{
    const char *e = getenv("GS_TEST_MULTI_DEVICES");
    std::vector<int> out;
    for (const char *p = e && *e ? e : "0,0"; *p;) {
        out.push_back(atoi(p));
        while (*p && *p != ',')
            ++p;
        if (*p == ',')
            ++p;
    }
    return out;
}

int main()
{
    setup s;
    s.ordinal = ordinals();
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess)
        count = 0;
    for (int o : s.ordinal) {
        gs_device *d = nullptr;
        if (o < 0 || o >= count || gs_device_open(GS_BACKEND_CUDA, o, &d) != GS_OK) {
            printf("no CUDA device %d: skipped\n", o);
            return 77;
        }
        s.devs.push_back(d);
        cudaSetDevice(o);
        cudaStream_t st;
        cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
        s.streams.push_back(st);
    }
    unsigned ranks = (unsigned)s.devs.size(), most = 0, bound = 0;
    for (unsigned r = 0; r < ranks; ++r) {
        unsigned beside = 0;
        for (unsigned j = 0; j < ranks; ++j)
            beside += s.ordinal[j] == s.ordinal[r];
        most = beside > most ? beside : most;
    }
    CHECK(gs_cuda_max_groups(s.devs[0], (const void *)mp, THREADS, 0, &bound) == GS_OK, "bound");
    gs_device_info info;
    gs_device_get_info(s.devs[0], &info);
    /* a quarter of the SMs a rank, and all of them fit beside each other */
    s.groups = info.compute_units / 4u ? info.compute_units / 4u : 1u;
    if (s.groups * most > bound)
        s.groups = bound / most ? bound / most : 1u;
    printf("%u ranks on GPUs", ranks);
    for (int o : s.ordinal)
        printf(" %d", o);
    printf(": %u blocks of %u each (bound %u a GPU)\n", s.groups, THREADS, bound);

    gs_status c = gs_multi_create(s.devs.data(), ranks, s.groups, &s.m);
    CHECK(c == GS_OK, "create: %s", gs_status_string(c));
    if (c != GS_OK)
        return 1;
    cudaSetDevice(s.ordinal[0]);
    size_t words = 2u * ranks * s.groups * THREADS;
    cudaMalloc(&s.buf, words * sizeof(unsigned));
    cudaMalloc(&s.wrong, sizeof(unsigned));
    cudaMalloc(&s.why, ranks * sizeof(unsigned));
    cudaMemset(s.buf, 0, words * sizeof(unsigned));

    std::vector<gs_status> st;
    unsigned wrong = 0;
    for (int split = 0; split < 2; ++split)
        for (int rep = 0; rep < 2; ++rep) { /* the same states, no reset */
            gs_status all = run(s, 2000, split, NO_FAULT, 0, st, &wrong);
            CHECK(all == GS_OK && wrong == 0, "%s, launch %d: %s, %u wrong values",
                  split ? "split" : "sync", rep, gs_status_string(all), wrong);
            for (unsigned r = 0; r < ranks; ++r)
                CHECK(st[r] == GS_OK, "rank %u: %s", r, gs_status_string(st[r]));
        }

    /* The last rank returns before its 11th barrier (episodes count from the reset). */
    unsigned missing = ranks - 1u;
    CHECK(gs_multi_reset(s.m) == GS_OK, "reset before the missing rank");
    gs_multi_set_timeout(s.m, 500);
    double t0 = now_ms();
    gs_status all = run(s, 100, 0, missing, 10, st, &wrong);
    double took = now_ms() - t0;
    CHECK(all == GS_ERR_TIMEOUT && took < 5000.0, "missing rank: %s after %.0f ms",
          gs_status_string(all), took);
    for (unsigned r = 0; r < ranks; ++r) {
        gs_multi_abort a;
        gs_multi_abort_info(s.m, r, &a);
        CHECK(st[r] == GS_ERR_TIMEOUT && a.missing_ranks == 1u &&
                  a.first_missing_rank[0] == missing,
              "rank %u: %s, reason %d from %u group %u episode %u, %u missing, first %u", r,
              gs_status_string(st[r]), (int)a.reason, a.from_rank, a.group, a.episode,
              a.missing_ranks, a.first_missing_rank[0]);
        if (r != missing)
            CHECK(a.episode == 10u && a.group < s.groups, "rank %u: group %u episode %u", r,
                  a.group, a.episode);
    }
    all = run(s, 100, 0, NO_FAULT, 0, st, &wrong);
    CHECK(all == GS_ERR_NEEDS_RESET, "before the reset: %s", gs_status_string(all));
    CHECK(gs_multi_reset(s.m) == GS_OK, "reset");
    all = run(s, 500, 1, NO_FAULT, 0, st, &wrong);
    CHECK(all == GS_OK && wrong == 0, "after the reset: %s, %u wrong", gs_status_string(all),
          wrong);

    /* Launches that together do not fit: refused before any runs. */
    if (most > 1u) {
        gs_multi *big = nullptr;
        unsigned groups = bound / most + 1u;
        CHECK(gs_multi_create(s.devs.data(), ranks, groups, &big) == GS_OK, "create big");
        void *state = nullptr;
        gs_multi_native(big, 0, &state);
        mp_params p = {};
        void *args[] = {&state, &p};
        gs_status r = gs_cuda_multi_launch_async(big, 0, (const void *)mp, GS_DIM3_1D(groups),
                                                 GS_DIM3_1D(THREADS), 0, args, s.streams[0]);
        CHECK(r == GS_ERR_TOO_MANY_GROUPS, "too large beside each other: %s", gs_status_string(r));
        gs_multi_destroy(big);
        /* ranks of one GPU on the legacy default stream would run one after the other */
        gs_multi_native(s.m, 0, &state);
        r = gs_cuda_multi_launch_async(s.m, 0, (const void *)mp, GS_DIM3_1D(s.groups),
                                       GS_DIM3_1D(THREADS), 0, args, NULL);
        CHECK(r == GS_ERR_INVALID_ARGUMENT, "NULL stream beside another rank: %s",
              gs_status_string(r));
    }

    gs_multi_destroy(s.m);
    cudaSetDevice(s.ordinal[0]);
    cudaFree(s.buf);
    cudaFree(s.wrong);
    cudaFree(s.why);
    for (unsigned r = 0; r < ranks; ++r) {
        cudaSetDevice(s.ordinal[r]);
        cudaStreamDestroy(s.streams[r]);
        gs_device_close(s.devs[r]);
    }
    printf("cuda_multi: %d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
