/* tests/weaken/gridsync_test_hooks.h - deliberately broken protocols, to prove the
 * tests can fail.
 *
 * Not part of the library: gridsync/grid.h includes it only where GS_TEST_HOOKS is
 * defined, which the test suite's weakened builds do (with this folder on the include
 * path; the OpenCL program gets its text embedded after the shim). They build the
 * library again with one of these and expect its checks to fail:
 *   GS_WEAKEN_ORDER  every acquire and release becomes relaxed, fences vanish;
 *   GS_WEAKEN_COUNT  every protocol releases its groups one arrival early (naive, whose
 *                    arrivals are work-items: one group's arrivals early); the barrier
 *                    across devices (gridsync/multi.h) waits for one device fewer;
 *   GS_WEAKEN_TAG    a tagged word's get (gridsync/local.h) takes the tag one seq early
 *                    too: where the word is passed on (seq s, then s + 1), it may read the
 *                    value before the one it waits for.
 */
#ifndef GRIDSYNC_TEST_HOOKS_H
#define GRIDSYNC_TEST_HOOKS_H

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
#undef gs_store_fenced_sys
#undef gs_fence_acq_rel_sys
#undef gs_poll_acquire_sys
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
#define gs_store_fenced_sys(p, v) gs_store_relaxed_sys((p), (v))
#define gs_fence_acq_rel_sys() ((void)0)
#define gs_poll_acquire_sys() ((void)0)
#endif

#if defined(GS_WEAKEN_TAG) && GS_WEAKEN_TAG
#define GS_TAG_EARLY 1u
#endif

#if defined(GS_WEAKEN_COUNT) && GS_WEAKEN_COUNT
#define GS_EARLY 1u
#else
#define GS_EARLY 0u
#endif

#endif
