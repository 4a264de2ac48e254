/* gridsync/prims_cuda.cuh - the primitives in CUDA C with the PTX memory model:
 * every ordering is an explicit .acquire/.release/.acq_rel at .gpu scope; no volatile
 * or cache hint stands in for ordering. */
#ifndef GRIDSYNC_PRIMS_CUDA_CUH
#define GRIDSYNC_PRIMS_CUDA_CUH

#define GS_DEVICE static __device__ __forceinline__
#define GS_GLOBAL
#define GS_SHIM_CUDA 1 /* not GS_BACKEND_CUDA: that is gridsync.h's enum constant (3) */

typedef unsigned int gs_u32;
typedef unsigned long long gs_u64;
typedef unsigned int gs_word;

/* A group's gs_grid lives in its shared memory (gridsync/grid.h): no register. (The
 * register test builds it once in registers, -DGS_GRID_IN_SHARED=0, and must fail.) */
#ifndef GS_GRID_IN_SHARED
#define GS_GRID_IN_SHARED 1
#endif
#define GS_SHARED __shared__

/* The verdict's host copy (gridsync/grid.h, gs_mirror_store): pinned host memory the
 * kernel writes through its device address; the host reads it once the launch ended. */
#ifndef GS_HOST_MIRROR
#define GS_HOST_MIRROR 1
#endif
GS_DEVICE void gs_host_store(gs_u64 address, gs_u32 v) { *(volatile gs_u32 *)address = v; }

/* The slow paths (a wait's bookkeeping, the abort) stay inline: a call from the user's
 * loop makes ptxas keep the ABI's registers (a 32-register kernel with a call took all 32
 * and spilled, in tests/regs). */

/* Group and work-item indices, linear over 1-, 2- or 3-D grids and blocks (x fastest, as
 * CUDA numbers threads within a block): group = x + X * (y + Y * z). Read from the
 * special registers at each use, through volatile asm, so that the compiler cannot keep
 * them in registers across the user's loop (held there, they cost the kernel registers
 * at every point of its loop; read again, a few instructions per barrier). */
#define GS_SREG_(fn, reg)                                 \
    GS_DEVICE gs_u32 fn(void)                             \
    {                                                     \
        gs_u32 v;                                         \
        asm volatile("mov.u32 %0, %%" reg ";" : "=r"(v)); \
        return v;                                         \
    }
/* One definition a call, with nothing between them for clang-format to break at. */
/* clang-format off */
GS_SREG_(gs_tid_x, "tid.x") GS_SREG_(gs_tid_y, "tid.y") GS_SREG_(gs_tid_z, "tid.z")
GS_SREG_(gs_ntid_x, "ntid.x") GS_SREG_(gs_ntid_y, "ntid.y") GS_SREG_(gs_ntid_z, "ntid.z")
GS_SREG_(gs_ctaid_x, "ctaid.x") GS_SREG_(gs_ctaid_y, "ctaid.y") GS_SREG_(gs_ctaid_z, "ctaid.z")
GS_SREG_(gs_lane_id, "laneid")
GS_SREG_(gs_nctaid_x, "nctaid.x") GS_SREG_(gs_nctaid_y, "nctaid.y") GS_SREG_(gs_nctaid_z, "nctaid.z")
/* clang-format on */
#undef GS_SREG_
#define gs_group_id() (gs_ctaid_x() + gs_nctaid_x() * (gs_ctaid_y() + gs_nctaid_y() * gs_ctaid_z()))
#define gs_num_groups() (gs_nctaid_x() * gs_nctaid_y() * gs_nctaid_z())
#define gs_local_id() (gs_tid_x() + gs_ntid_x() * (gs_tid_y() + gs_ntid_y() * gs_tid_z()))
#define gs_local_size() (gs_ntid_x() * gs_ntid_y() * gs_ntid_z())
    /* Work-item 0 of its group: the representative. Unlike the indices above, this test is
 * read without volatile: the compiler keeps it in a predicate register across the
 * user's loop (not one of the 32), where volatile reads put four S2R in a row on every
 * barrier, twice (before the group barrier and after the verdict): in the Jacobi app's
 * own kernel at 512^2 on an H200 that cost 100-145 ns a barrier, 4-6% of an iteration
 * (bench/micro/jacobi_barriers.cu, parts-first against parts;
 * bench/results/h200/jacobi_barriers_parts.csv). Kept, the lane test no longer tells
 * ptxas that one lane runs the arrival, and it aggregates flip's and tree's adds over
 * the warp (tests/regs reports where): that once cost flip 1212 against 969 ns per
 * barrier (H100, when the note waited for the shuffle), but now measures equal as a bare
 * barrier and faster in the user's kernel than the form that prevents it, a volatile
 * laneid read at each use (tests/regs/check_registers.sh has the figures). */
    GS_DEVICE gs_u32 gs_lane_id_pure(void)
{
    gs_u32 v;
    asm("mov.u32 %0, %%laneid;" : "=r"(v));
    return v;
}
#define gs_local_first() \
    (gs_lane_id_pure() == 0u && (threadIdx.x | threadIdx.y | threadIdx.z) == 0u)
/* The same test read again at each use: for kernels that run it once (gs_grid_begin),
 * and for protocols whose other work-items' indices (gs_g_lid: lockfree's and sharded's
 * spinners) already hold the user's registers: with the kept test their Jacobi kernel
 * spilled 16 to 28 bytes at 32 registers (tests/regs). */
#define gs_local_first_fresh() (gs_lane_id() == 0u && (gs_tid_x() | gs_tid_y() | gs_tid_z()) == 0u)
/* The begin's work (the header read, the fields written to shared memory, the launch
 * acknowledged) done by the group's whole first warp, every lane alike, where its first
 * lane alone did it: that one lane's branch at the kernel's start cost the user's Jacobi
 * sweep 0.1-0.2% for the whole run, where the same reads by a whole warp cost nothing
 * (H200, 8192^2 x 200 at 132 and 264 blocks, interleaved medians of 21 beside
 * grid.sync(): begin-nc 1.0007 / 1.0005, begin-nc-warp 0.9988 / 0.9981;
 * bench/micro/jacobi_order.cu, docs/performance.md sixteenth round). A warp's store of
 * one value by several lanes to one address is one store (one lane performs it, the CUDA
 * programming guide says). */
#define gs_begin_lead() (gs_local_id() < 32u)

/* Group memory a kernel declares for gridsync/local.h. */
#define GS_GROUP_SCRATCH(name) __shared__ gs_u32 name[GS_GROUP_SCRATCH_WORDS]
#define GS_SCRATCH_PTR gs_u32 *

#define gs_group_barrier() __syncthreads()
/* flip's episode (and auto's on flip) in one piece: gridsync/barrier_flip.h */
#define GS_EPISODE_IN_ONE_PIECE 1
#define gs_group_any(pred, slot) ((void)(slot), __syncthreads_or((pred) != 0))

GS_DEVICE gs_u32 gs_ld_relaxed(const gs_word *p)
{
    gs_u32 v;
    asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
GS_DEVICE gs_u32 gs_ld_acquire(const gs_word *p)
{
    gs_u32 v;
    asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
GS_DEVICE void gs_st_relaxed(gs_word *p, gs_u32 v)
{
    asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GS_DEVICE void gs_st_release(gs_word *p, gs_u32 v)
{
    asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GS_DEVICE gs_u32 gs_atom_add_relaxed(gs_word *p, gs_u32 v)
{
    gs_u32 o;
    asm volatile("atom.relaxed.gpu.add.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v) : "memory");
    return o;
}
GS_DEVICE gs_u32 gs_atom_add_release(gs_word *p, gs_u32 v)
{
    gs_u32 o;
    asm volatile("atom.release.gpu.add.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v) : "memory");
    return o;
}
GS_DEVICE gs_u32 gs_atom_add_acq_rel(gs_word *p, gs_u32 v)
{
    gs_u32 o;
    asm volatile("atom.acq_rel.gpu.add.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v) : "memory");
    return o;
}
/* No result wanted: red, so the issuing thread does not wait for the round trip. */
GS_DEVICE void gs_red_add_release(gs_word *p, gs_u32 v)
{
    asm volatile("red.release.gpu.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GS_DEVICE void gs_red_add_relaxed(gs_word *p, gs_u32 v)
{
    asm volatile("red.relaxed.gpu.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GS_DEVICE gs_u32 gs_cas_relaxed(gs_word *p, gs_u32 expected, gs_u32 desired)
{
    gs_u32 o;
    asm volatile("atom.relaxed.gpu.cas.b32 %0, [%1], %2, %3;"
                 : "=r"(o)
                 : "l"(p), "r"(expected), "r"(desired)
                 : "memory");
    return o;
}

/* gridsync/local.h's tagged words: a value and its tag in one aligned 64-bit word,
 * stored and loaded as one strong .b64 access at .gpu scope, which PTX makes
 * single-copy atomic: a load returns the 64 bits of exactly one store, never half of
 * two. Relaxed: the word carries its own proof of freshness, no fence is needed. */
#define GS_HAVE_WORD64 1
typedef unsigned long long gs_word64;
GS_DEVICE gs_u64 gs_ld64_relaxed(const gs_word64 *p)
{
    gs_u64 v;
    asm volatile("ld.relaxed.gpu.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
GS_DEVICE void gs_st64_relaxed(gs_word64 *p, gs_u64 v)
{
    asm volatile("st.relaxed.gpu.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
#define gs_load64_relaxed(p) gs_ld64_relaxed(p)
#define gs_store64_relaxed(p, v) gs_st64_relaxed((p), (v))

/* lockfree's flags (barrier_lockfree.h): one byte per group, four to a state word, so
 * that one 32-bit load polls four groups. The master's polls are limited by registers
 * (a load in flight holds one until its result is tested, and 2048 threads per SM leave
 * 32 each), so four flags per register is four times the flags in flight. PTX models a
 * vector access as one scalar access per element: a .v4.u8 load is four byte loads,
 * each overlapping exactly one byte store, so no access is mixed-size. Flag k of a word
 * is byte k (little-endian), and a flag holds its episode number modulo 256. */
#define GS_FLAG_PACK 4u
GS_DEVICE gs_u32 gs_flag_poll_cuda(const gs_word *p)
{
    gs_u32 a, b, c, d;
    asm volatile("ld.relaxed.gpu.v4.u8 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                 : "l"(p)
                 : "memory");
    return (a & 0xffu) | ((b & 0xffu) << 8) | ((c & 0xffu) << 16) | (d << 24);
}
GS_DEVICE void gs_flag_st_release(gs_word *p, gs_u32 k, gs_u32 v)
{
    asm volatile("st.release.gpu.u8 [%0], %1;" ::"l"((unsigned char *)p + k), "r"(v) : "memory");
}
GS_DEVICE void gs_flag_st_relaxed(gs_word *p, gs_u32 k, gs_u32 v)
{
    asm volatile("st.relaxed.gpu.u8 [%0], %1;" ::"l"((unsigned char *)p + k), "r"(v) : "memory");
}
GS_DEVICE void gs_flags_st_relaxed(gs_word *p, gs_u32 v)
{
    asm volatile("st.relaxed.gpu.v4.u8 [%0], {%1, %1, %1, %1};" ::"l"(p), "r"(v) : "memory");
}
#define gs_flag_poll(p) gs_flag_poll_cuda(p)
#define gs_flag_store_release(p, k, v) gs_flag_st_release((p), (k), (v))
#define gs_flag_store_relaxed(p, k, v) gs_flag_st_relaxed((p), (k), (v))
#define gs_flags_store_fenced(p, v) gs_flags_st_relaxed((p), (v))
#define gs_flag_splat(v) (((v)&0xffu) * 0x01010101u)
#define gs_flag_mask(k) (0xffu << (8u * (k)))

#define gs_load_relaxed(p) gs_ld_relaxed(p)
/* A header word: written by the host between launches and by no kernel while one runs,
 * so read through the SM's read-only cache, as a plain load the compiler may merge and
 * schedule: the groups of one SM share one miss to L2, where every group's
 * representative reading the header's line at the kernel's start queued 1056 loads of
 * each word there (docs/performance.md, launch cost). */
#define gs_load_header(p) __ldg(p)
#define gs_load_acquire(p) gs_ld_acquire(p)
#define gs_store_relaxed(p, v) gs_st_relaxed((p), (v))
#define gs_store_release(p, v) gs_st_release((p), (v))
#define gs_fetch_add_relaxed(p, v) gs_atom_add_relaxed((p), (v))
#define gs_fetch_add_release(p, v) gs_atom_add_release((p), (v))
#define gs_fetch_add_acq_rel(p, v) gs_atom_add_acq_rel((p), (v))
#define gs_add_release(p, v) gs_red_add_release((p), (v))
/* A store or add made a release by the gs_fence_acq_rel before it (PTX: fence + relaxed
 * write is a release pattern): several writes share one fence, where a .release on
 * each would cost a MEMBAR each. */
#define gs_store_fenced(p, v) gs_st_relaxed((p), (v))
#define gs_fetch_add_fenced(p, v) gs_atom_add_relaxed((p), (v))
#define gs_add_fenced(p, v) gs_red_add_relaxed((p), (v))
#define gs_fence_acq_rel() asm volatile("fence.acq_rel.gpu;" ::: "memory")
/* Acquire only, for a group that has read the last release it needs (an RMW's result)
 * and releases nothing itself. PTX 8.6 (CUDA 12.8) on sm_90 compiles it to the L1
 * invalidation alone (CCTL.IVALL), where fence.acq_rel also waits for every store in
 * flight (MEMBAR.ALL.GPU, 136 ns or more: docs/performance.md). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && \
    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8))
#define GS_PTX_FENCE_ACQUIRE 1
#define gs_fence_acquire() asm volatile("fence.acquire.gpu;" ::: "memory")
#else
#define gs_fence_acquire() gs_fence_acq_rel()
#endif

/* Flip's episode in one piece (gridsync/barrier_flip.h) runs on the representative's
 * whole warp, every lane alike: lane 0 alone adds (one predicated instruction) and hands
 * the counter's value before it to the others, and every lane polls the same word (one
 * request a poll). In the user's Jacobi kernel on an H100, flip written out bare with one
 * lane polling was 0.961 x grid.sync()'s time at 512^2 on 264 blocks, with the warp
 * polling 0.937 (bench/micro/jacobi_order.cu, hand-flip-warp). The test reads threadIdx
 * and blockDim, which the compiler may keep (no register: gridsync/grid.h, gs_g_first). */
#define gs_rep_warp() (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) < 32u)
GS_DEVICE gs_u32 gs_rep_warp_lanes(void)
{
    gs_u32 size = blockDim.x * blockDim.y * blockDim.z;
    return size >= 32u ? 0xffffffffu : (1u << size) - 1u;
}
GS_DEVICE gs_u32 gs_rep_warp_add_release(gs_word *p, gs_u32 v)
{
    gs_u32 before = 0u;
    if (gs_lane_id_pure() == 0u)
        before = gs_fetch_add_release(p, v);
    return __shfl_sync(gs_rep_warp_lanes(), before, 0);
}

/* System scope, between GPUs (gridsync/multi.h): a device's flag slots are written by
 * other GPUs across the link, and a load or store is morally strong with another GPU's
 * only where both are .sys. A fence.acq_rel.sys before relaxed .sys stores makes them a
 * release that carries every write this GPU's groups made before their arrival
 * (cumulativity); relaxed .sys polls and one fence after the last make the acquire. */
GS_DEVICE gs_u32 gs_ld_relaxed_sys(const gs_word *p)
{
    gs_u32 v;
    asm volatile("ld.relaxed.sys.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
GS_DEVICE void gs_st_relaxed_sys(gs_word *p, gs_u32 v)
{
    asm volatile("st.relaxed.sys.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
#define gs_load_relaxed_sys(p) gs_ld_relaxed_sys(p)
#define gs_store_relaxed_sys(p, v) gs_st_relaxed_sys((p), (v))
#define gs_store_fenced_sys(p, v) gs_st_relaxed_sys((p), (v))
#define gs_poll_load_sys(p) gs_ld_relaxed_sys(p)
#define gs_fence_acq_rel_sys() asm volatile("fence.acq_rel.sys;" ::: "memory")
#ifdef GS_PTX_FENCE_ACQUIRE
#define gs_poll_acquire_sys() asm volatile("fence.acquire.sys;" ::: "memory")
#else
#define gs_poll_acquire_sys() gs_fence_acq_rel_sys()
#endif

/* gs_wait's poll: relaxed loads, and one acquire fence once the awaited value is seen
 * (PTX: a fence.acquire after a relaxed read of a release is an acquire pattern).
 * ld.acquire would invalidate the SM's L1 (CCTL.IVALL) at every poll, under the feet of
 * every other block on the SM. */
#define gs_poll_load(p) gs_ld_relaxed(p)
#define gs_poll_acquire() gs_fence_acquire()

/* Back off a little once a wait is slow (gs_wait passes 0 for its first 16 polls):
 * fewer requests queue at the L2 slice that holds the polled line, and the arrival that
 * ends the wait gets there sooner. */
#define gs_pause(polls, backoff_ns)  \
    do {                             \
        (void)(polls);               \
        if (backoff_ns)              \
            __nanosleep(backoff_ns); \
    } while (0)

GS_DEVICE gs_u64 gs_globaltimer(void)
{
    gs_u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
#define gs_clock(polls) gs_globaltimer()
/* A wait's clock (gridsync/grid.h): %globaltimer in 2.048 us ticks, 32 bits (wraps after
 * 2.4 hours: a deadline may lie up to half of that ahead, 73 minutes, longer than the
 * longest bound, 1 hour). */
#define gs_tick_t gs_u32
#define gs_ticks(polls) ((gs_u32)(gs_globaltimer() >> 11))
#define gs_ticks_of_bound(ns) ((gs_u32)((ns) >> 11))
#define gs_polls_t gs_u32

/* Index of the lowest set bit (lockfree's master: its words not yet seen). */
#define gs_lowest_bit(x) ((gs_u32)__ffs((int)(x)) - 1u) /* x != 0 */

#endif
