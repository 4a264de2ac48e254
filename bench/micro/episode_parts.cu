/* bench/micro/episode_parts.cu - what one barrier episode's parts cost in a loop, one
 * block (no other SM involved): which of bar.sync, the release fence flavours, strong
 * stores and loads, CCTL (acquire) dominate the fixed cost per episode.
 *     nvcc -arch=sm_90 -O3 bench/micro/episode_parts.cu -o episode_parts && ./episode_parts
 * Prints name,ns_per_iteration (clock64 over 4096 iterations, thread 0, median of 5). */
#include <cstdio>
#include <algorithm>

__device__ unsigned g_word[2 * 64 * 32];

#define LOOP(name, body)                                                         \
    __global__ void k_##name(unsigned long long *out, int n)                     \
    {                                                                            \
        unsigned *w = &g_word[32 * (blockIdx.x % 64)];                           \
        unsigned v = 0;                                                          \
        __syncthreads();                                                         \
        long long t0 = clock64();                                                \
        for (int i = 0; i < n; ++i) {                                            \
            body;                                                                \
        }                                                                        \
        long long t1 = clock64();                                                \
        if (threadIdx.x == 0)                                                    \
            out[blockIdx.x] = (unsigned long long)(t1 - t0) + (v == 0xdeadbeef); \
    }

LOOP(bar, __syncthreads())
LOOP(bar_or, v += __syncthreads_or(i == -1))
LOOP(fence_acq_rel, if (threadIdx.x == 0) asm volatile("fence.acq_rel.gpu;" ::
                                                           : "memory");
     __syncthreads())
LOOP(fence_sc, if (threadIdx.x == 0) asm volatile("fence.sc.gpu;" ::: "memory"); __syncthreads())
LOOP(st_relaxed, if (threadIdx.x == 0) asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(w), "r"(i)
                                                    : "memory");
     __syncthreads())
LOOP(st_release, if (threadIdx.x == 0) asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(w), "r"(i)
                                                    : "memory");
     __syncthreads())
LOOP(red_release, if (threadIdx.x == 0) asm volatile("red.release.gpu.add.u32 [%0], 1;" ::"l"(w)
                                                     : "memory");
     __syncthreads())
LOOP(red_relaxed, if (threadIdx.x == 0) asm volatile("red.relaxed.gpu.add.u32 [%0], 1;" ::"l"(w)
                                                     : "memory");
     __syncthreads())
LOOP(
    atom_release_use, if (threadIdx.x == 0) {
        unsigned o;
        asm volatile("atom.release.gpu.add.u32 %0, [%1], 1;" : "=r"(o) : "l"(w) : "memory");
        v += o;
    } __syncthreads())
LOOP(
    ld_acquire, if (threadIdx.x == 0) {
        unsigned o;
        asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(o) : "l"(w + 1) : "memory");
        v += o;
    } __syncthreads())
LOOP(
    ld_relaxed, if (threadIdx.x == 0) {
        unsigned o;
        asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(o) : "l"(w + 1) : "memory");
        v += o;
    } __syncthreads())
LOOP(
    red_rel_then_ld_acq, if (threadIdx.x == 0) {
        unsigned o;
        asm volatile("red.release.gpu.add.u32 [%0], 1;" ::"l"(w) : "memory");
        asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(o) : "l"(w) : "memory");
        v += o;
    } v += __syncthreads_or(i == -1))
LOOP(
    red_rlx_fence_ld_rlx, if (threadIdx.x == 0) {
        unsigned o;
        asm volatile("fence.acq_rel.gpu;" ::: "memory");
        asm volatile("red.relaxed.gpu.add.u32 [%0], 1;" ::"l"(w) : "memory");
        asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(o) : "l"(w) : "memory");
        v += o;
    } v += __syncthreads_or(i == -1))

/* central's exact sequence, and where its progress note is stored from */
#define CENTRAL_EPISODE(note_tid)                                                           \
    __syncthreads();                                                                        \
    if (threadIdx.x == 0)                                                                   \
        asm volatile("red.release.gpu.add.u32 [%0], 1;" ::"l"(w) : "memory");               \
    if ((int)threadIdx.x == (note_tid))                                                     \
        asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(w + 32 * 64), "r"(i) : "memory"); \
    if (threadIdx.x == 0) {                                                                 \
        unsigned o;                                                                         \
        do                                                                                  \
            asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(o) : "l"(w) : "memory");     \
        while (o == 0xffffffffu);                                                           \
        v += o;                                                                             \
    }                                                                                       \
    v += __syncthreads_or(i == -1)
LOOP(central_note_t0, CENTRAL_EPISODE(0))
LOOP(central_no_note, CENTRAL_EPISODE(-1))
LOOP(central_note_t1, CENTRAL_EPISODE(1))
LOOP(central_note_t32, CENTRAL_EPISODE(32))

typedef void (*kern)(unsigned long long *, int);
int main()
{
    struct {
        const char *name;
        kern k;
    } ks[] = {{"bar", k_bar},
              {"bar_or", k_bar_or},
              {"fence_acq_rel+bar", k_fence_acq_rel},
              {"fence_sc+bar", k_fence_sc},
              {"st_relaxed+bar", k_st_relaxed},
              {"st_release+bar", k_st_release},
              {"red_release+bar", k_red_release},
              {"red_relaxed+bar", k_red_relaxed},
              {"atom_release_used+bar", k_atom_release_use},
              {"ld_acquire+bar", k_ld_acquire},
              {"ld_relaxed+bar", k_ld_relaxed},
              {"red_rel+ld_acq+bar_or", k_red_rel_then_ld_acq},
              {"fence+red_rlx+ld_rlx+bar_or", k_red_rlx_fence_ld_rlx},
              {"central_note_t0", k_central_note_t0},
              {"central_no_note", k_central_no_note},
              {"central_note_t1", k_central_note_t1},
              {"central_note_t32", k_central_note_t32}};
    unsigned long long *d, h[132];
    int n = 4096, clk_khz;
    cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, 0);
    cudaMalloc(&d, sizeof h);
    for (int blocks : {1, 132}) {
        for (auto &k : ks) {
            double r[5];
            for (int rep = 0; rep < 5; ++rep) {
                k.k<<<blocks, 256>>>(d, n);
                cudaMemcpy(h, d, sizeof(unsigned long long) * blocks, cudaMemcpyDeviceToHost);
                r[rep] = (double)h[0] / n;
            }
            std::sort(r, r + 5);
            /* clock64 counts SM cycles: ns = cycles / (MHz / 1000) with the reported clock */
            printf("%s,%d,%.1f\n", k.name, blocks, r[2] / (clk_khz / 1e6));
        }
    }
    return cudaGetLastError() != cudaSuccess;
}
