/* gridsync/weaken.h - deliberately broken protocols, to prove the tests can fail.
 *
 * Never defined in a normal build. The test suite builds the library a second time
 * with one of these and expects its checks to fail:
 *   GS_WEAKEN_ORDER  every acquire and release becomes relaxed, fences vanish;
 *   GS_WEAKEN_COUNT  every protocol releases its groups one arrival early (naive, whose
 *                    arrivals are work-items: one group's arrivals early).
 */
#ifndef GRIDSYNC_WEAKEN_H
#define GRIDSYNC_WEAKEN_H

#if defined(GS_WEAKEN_ORDER) && GS_WEAKEN_ORDER
#undef gs_load_acquire
#undef gs_store_release
#undef gs_fetch_add_release
#undef gs_fetch_add_acq_rel
#undef gs_add_release
#undef gs_store_fenced
#undef gs_fetch_add_fenced
#undef gs_add_fenced
#undef gs_fence_acq_rel
#undef gs_fence_acquire
#undef gs_poll_load
#undef gs_poll_acquire
#undef gs_flag_store_release
#define gs_load_acquire(p) gs_load_relaxed(p)
#define gs_store_release(p, v) gs_store_relaxed((p), (v))
#define gs_fetch_add_release(p, v) gs_fetch_add_relaxed((p), (v))
#define gs_fetch_add_acq_rel(p, v) gs_fetch_add_relaxed((p), (v))
#define gs_add_release(p, v) ((void)gs_fetch_add_relaxed((p), (v)))
#define gs_store_fenced(p, v) gs_store_relaxed((p), (v))
#define gs_fetch_add_fenced(p, v) gs_fetch_add_relaxed((p), (v))
#define gs_add_fenced(p, v) ((void)gs_fetch_add_relaxed((p), (v)))
#define gs_fence_acq_rel() ((void)0)
#define gs_fence_acquire() ((void)0)
#define gs_poll_load(p) gs_load_relaxed(p)
#define gs_poll_acquire() ((void)0)
#define gs_flag_store_release(p, k, v) gs_flag_store_relaxed((p), (k), (v))
#endif

#if defined(GS_WEAKEN_COUNT) && GS_WEAKEN_COUNT
#define GS_EARLY 1u
#else
#define GS_EARLY 0u
#endif

#endif
