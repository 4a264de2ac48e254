/* gridsync.h - barriers between the thread blocks (CUDA) / work-groups (OpenCL) of one
 * kernel launch, with launches that refuse grids that cannot be co-resident and waits
 * that end in an error code instead of a hang.
 *
 * Words: a *group* is a CUDA thread block, an OpenCL work-group or a team of threads
 * on the cpu back end; a *grid* is the groups of one launch; an *episode* is one pass
 * through a barrier; *co-resident* means every group of the grid runs at once.
 *
 * Conventions: opaque handles; every function returns gs_status (GS_OK = 0) and
 * writes results through out-pointers; gs_status_string() names a status; the last
 * native CUDA/OpenCL error stays readable with gs_device_native_error(). The library
 * never exits, aborts or prints.
 *
 * Threads: on the cpu and OpenCL back ends a device may be used from several host
 * threads at once, each with barriers of its own (a barrier, like its state, belongs
 * to one launch at a time: use it from one thread at a time). What the threads share
 * is serialized by a lock per device: on OpenCL the first build of each protocol's
 * program, the deadline's calibration (at the device's first barrier) and each launch
 * of gs_run from its kernel arguments to its enqueue; the launches themselves run one
 * after another on the device's in-order queue. The cpu back end shares nothing: each
 * launch starts threads of its own. gs_device_native_error() gives the device's last
 * failure, whichever thread had it. CUDA: not yet; its launches share the device's
 * stream and timing events, so use a device per thread there. */
#ifndef GRIDSYNC_H
#define GRIDSYNC_H

#include <stddef.h>
#include <stdint.h>

#include "gridsync/api.h"
#include "gridsync/protocols.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRIDSYNC_VERSION_MAJOR 0
#define GRIDSYNC_VERSION_MINOR 1
#define GRIDSYNC_VERSION_PATCH 0
/* One number, MAJOR * 10000 + MINOR * 100 + PATCH. The shared library's SONAME carries
 * the major version: a minor version adds to the API and ABI, never changes them. */
#define GRIDSYNC_VERSION \
    (GRIDSYNC_VERSION_MAJOR * 10000 + GRIDSYNC_VERSION_MINOR * 100 + GRIDSYNC_VERSION_PATCH)

/* The version of the library the program runs with, as GRIDSYNC_VERSION (which is the
 * one it was compiled against): a program can refuse a shared library older than its
 * headers. */
GS_API unsigned gs_version(void);

typedef enum gs_status {
    GS_OK = 0,
    GS_ERR_INVALID_ARGUMENT = 1,    /* a null handle or pointer, a zero or out-of-range count */
    GS_ERR_UNKNOWN_ALGO = 2,        /* no protocol of that name or number */
    GS_ERR_UNSUPPORTED = 3,         /* the protocol or feature does not exist on this back end */
    GS_ERR_NO_DEVICE = 4,           /* no device of the asked back end and index */
    GS_ERR_BACKEND_UNAVAILABLE = 5, /* the back end was not built into this library */
    GS_ERR_OUT_OF_MEMORY = 6,
    GS_ERR_TOO_MANY_GROUPS = 7, /* the grid exceeds the co-residency bound */
    GS_ERR_TIMEOUT = 8,         /* a barrier wait passed its deadline: see gs_barrier_abort_info */
    GS_ERR_NEEDS_RESET = 9,     /* the barrier was aborted; call gs_barrier_reset first */
    GS_ERR_BUILD = 10,          /* an OpenCL program did not build (host_opencl.h: the logs) */
    GS_ERR_NATIVE = 11,         /* a CUDA/OpenCL/pthreads call failed: see gs_device_native_error */
    GS_ERR_BAD_STATE = 12,      /* the kernel found a barrier state of another grid or kind,
                                   or began an episode after its gs_arrive_last_<p> */
    GS_ERR_CHECK_FAILED = 13,   /* a built-in program computed a wrong result */
    GS_ERR_SMALL_BUFFER = 14,   /* an output buffer is too small */
    GS_ERR_BUSY = 15            /* the barrier has a launch in flight (another thread's, or one
                                   not collected yet): one launch at a time per barrier */
} gs_status;

/* A static English name for a status ("GS_ERR_TIMEOUT: ..."); never NULL. */
GS_API const char *gs_status_string(gs_status status);

/* ---- back ends and devices ---------------------------------------------------- */

typedef enum gs_backend {
    GS_BACKEND_AUTO = 0, /* CUDA GPU, else OpenCL GPU, else an OpenCL CPU device, else cpu */
    GS_BACKEND_CPU = 1,
    GS_BACKEND_OPENCL = 2,
    GS_BACKEND_CUDA = 3
} gs_backend;

GS_API const char *gs_backend_name(gs_backend backend);
/* "auto", "cpu", "opencl", "cuda" -> backend; GS_ERR_INVALID_ARGUMENT otherwise. */
GS_API gs_status gs_backend_from_name(const char *name, gs_backend *out);
/* Whether the back end was compiled into this library (it may still find no device). */
GS_API int gs_backend_built(gs_backend backend);

typedef struct gs_device gs_device;

/* Opens device `index` of a back end. With GS_BACKEND_AUTO the environment variable
 * GRIDSYNC_BACKEND (auto|cpu|opencl|cuda) overrides the choice; with an explicit
 * back end, OpenCL devices are numbered across platforms, GPUs first. Every failure
 * but a NULL `out` leaves *out NULL (a negative index: GS_ERR_INVALID_ARGUMENT). */
GS_API gs_status gs_device_open(gs_backend backend, int index, gs_device **out);
/* GS_ERR_BUSY while a barrier, local or multi state made on it lives: destroy them first. */
GS_API gs_status gs_device_close(gs_device *dev);

typedef struct gs_device_info {
    gs_backend backend;
    char name[128];         /* e.g. "NVIDIA H100 80GB HBM3", "pthread-haswell-AMD EPYC" */
    char platform[128];     /* OpenCL platform, CUDA driver version, or "cpu" */
    unsigned compute_units; /* SMs, OpenCL compute units, or online cores */
    unsigned max_group_size;
    unsigned is_gpu;
    unsigned ordering; /* OpenCL: 2 C11 builtins, 1 1.x atomics + device fence, 0 seeds' idiom */
    uint64_t global_mem_bytes;
    uint64_t l2_bytes;           /* 0 where unknown */
    unsigned cc_major, cc_minor; /* CUDA compute capability */
    unsigned clock_khz, mem_clock_khz;
    /* 1 where gridsync/local.h's tagged words (gs_local_put, gs_local_get*: 64-bit atomics)
     * run: CUDA, the cpu, OpenCL devices with cl_khr_int64_base_atomics. Elsewhere
     * gs_local_create_tagged with tagged words returns GS_ERR_UNSUPPORTED. */
    unsigned has_word64;
} gs_device_info;

GS_API gs_status gs_device_get_info(const gs_device *dev, gs_device_info *out);

/* The most groups of `group_size` work-items that this device runs at once with the
 * built-in kernel (CUDA: the occupancy API; OpenCL: compute units, or the discovered
 * bound; cpu: a thread budget). */
GS_API gs_status gs_device_max_groups(gs_device *dev, unsigned group_size, unsigned *out);

/* Measures, by running them, how many groups of `group_size` run at once: the
 * occupancy discovery protocol of Sorensen et al. (OOPSLA 2016), for OpenCL, where the
 * device reports only compute units. GS_ERR_UNSUPPORTED on back ends that know their
 * bound exactly (CUDA: the occupancy API; cpu). */
GS_API gs_status gs_device_discover_groups(gs_device *dev, unsigned group_size, unsigned *out);

/* The last native error code (cudaError_t, cl_int, errno) and a text, for
 * GS_ERR_NATIVE and GS_ERR_BUILD: the device's, from whichever thread failed last (a
 * later failure rewrites the text). */
GS_API gs_status gs_device_native_error(const gs_device *dev, int *code, const char **text);

/* ---- barriers ----------------------------------------------------------------- */

/* The protocols, from gridsync/protocols.h (the one list): GS_ALGO_CENTRAL, _LOCKFREE,
 * _NAIVE, _FLIP, _TREE, _SHARDED (every back end); _CLUSTER, _CG (CUDA); _RELAUNCH,
 * _RELAUNCH_GRAPH (the baselines of the built-in programs, gridsync/run.h: the host ends
 * the kernel between phases; gs_barrier_create accepts them, since it cannot know the
 * kernel, and every user launch through such a barrier, gs_cuda_launch, gs_opencl_launch,
 * gs_cpu_launch and their _async forms, refuses it with GS_ERR_UNSUPPORTED before
 * anything runs); _AUTO (flip or tree, whichever was
 * measured faster for the grid: decided at gs_barrier_create, gs_barrier_get_algo says
 * which). */
#define GS_ALGO_ENUM_(ID, name, value, text, desc) GS_ALGO_##ID = value,
typedef enum gs_algo {
    GS_PROTOCOLS_ALL(GS_ALGO_ENUM_) GS_ALGO_COUNT_ = GS_PROTOCOL_VALUES
} gs_algo;
#undef GS_ALGO_ENUM_

GS_API const char *gs_algo_name(gs_algo algo); /* "central", ...; NULL for an unknown value */
GS_API gs_status gs_algo_from_name(const char *name, gs_algo *out);
/* Whether `algo` runs on this device's back end. */
GS_API int gs_algo_supported(const gs_device *dev, gs_algo algo);

typedef struct gs_barrier gs_barrier;

/* A launch shape, as CUDA's dim3: groups per dimension, or work-items per dimension of a
 * group. Groups and work-items are numbered linearly, x fastest: group = x + X * (y + Y *
 * z) for a grid of X x Y x Z groups (the device API's gs_group_id(), gs_local_id()). */
typedef struct gs_dim3 {
    unsigned x, y, z;
} gs_dim3;
static inline gs_dim3 gs_dim3_make(unsigned x, unsigned y, unsigned z)
{
    gs_dim3 d;
    d.x = x;
    d.y = y;
    d.z = z;
    return d;
}
#define GS_DIM3_1D(n) gs_dim3_make((n), 1u, 1u)

/* Allocates and initialises barrier state on the device for a grid of `groups` (the
 * product of a launch's grid dimensions), 1 to GS_MAX_GROUPS (GS_ERR_INVALID_ARGUMENT);
 * more than any launch of the back end can have, even of groups of one work-item (cpu:
 * GS_CPU_MAX_THREADS), is GS_ERR_TOO_MANY_GROUPS. Every failure but a NULL `out` leaves
 * *out NULL. */
#define GS_MAX_GROUPS (1u << 24)
GS_API gs_status gs_barrier_create(gs_device *dev, gs_algo algo, unsigned groups, gs_barrier **out);

/* The first GRIDSYNC_* variable set to a value gridsync does not take (docs/using.md,
 * "Environment variables"): GS_ERR_INVALID_ARGUMENT with its name in *variable and what it
 * takes ("1 to 3600000", "poll or lines", ...) in *takes; GS_OK with both NULL when every
 * variable set is good. The library itself ignores such a value and keeps its default;
 * a program that would rather refuse it (the gridsync CLI does) asks here. NULL pointers
 * are GS_ERR_INVALID_ARGUMENT. */
GS_API gs_status gs_environment_check(const char **variable, const char **takes);

/* What gs_barrier_create reads from the environment (docs/using.md, "Environment
 * variables"), as options of one barrier. A field left at GS_OPTION_DEFAULT takes the
 * environment variable where it is set and in range, else the library's default; a
 * field set to a value wins over the variable. A value outside the field's range is
 * GS_ERR_INVALID_ARGUMENT at gs_barrier_create_with. A field the protocol does not use
 * is still checked, then ignored. */
#define GS_OPTION_DEFAULT 0xffffffffu
#define GS_BARRIER_RELEASE_POLL 0u  /* every waiter polls the counter */
#define GS_BARRIER_RELEASE_LINES 1u /* the last arriver writes release lines the waiters poll */
typedef struct gs_barrier_options {
    unsigned timeout_ms;     /* GRIDSYNC_TIMEOUT_MS: 1 to 3600000 (gs_barrier_set_timeout) */
    unsigned release;        /* GRIDSYNC_RELEASE: GS_BARRIER_RELEASE_POLL or _LINES (flip,
                               cluster, tree) */
    unsigned release_lines;  /* GRIDSYNC_RELEASE_LINES: 0 to 1024 (0 means 1; at most the
                               groups are used) */
    unsigned tree_fanout;    /* GRIDSYNC_TREE_FANOUT: 0 to 1048576 groups a leaf (under 2
                               means 2) */
    unsigned backoff_ns;     /* GRIDSYNC_BACKOFF_NS: 0 to 1000000 */
    unsigned shards;         /* GRIDSYNC_SHARDS: 1 to 1024, and at most `groups` (sharded) */
    unsigned backoff_cap_ns; /* GRIDSYNC_BACKOFF_CAP_NS: 0 to 1000000; a long wait's back-off
                                grows from backoff_ns by half every 16 polls up to this
                                (default 16384; never below backoff_ns) */
    unsigned first_poll_ns;  /* GRIDSYNC_FIRST_POLL_NS: 0 to 100000; flip's representative
                                sleeps this long between its arrival and its first poll
                                (CUDA; default 0 up to 2 groups per SM, above 16 per group
                                per SM) */
} gs_barrier_options;

/* Sets every field to GS_OPTION_DEFAULT (nothing for a NULL `o`). */
GS_API void gs_barrier_options_init(gs_barrier_options *o);
/* gs_barrier_create with options; a NULL `o` is every field GS_OPTION_DEFAULT (then it
 * is gs_barrier_create). */
GS_API gs_status gs_barrier_create_with(gs_device *dev, gs_algo algo, unsigned groups,
                                        const gs_barrier_options *o, gs_barrier **out);
/* GS_ERR_BUSY while a launch through it is in flight (collect it first). */
GS_API gs_status gs_barrier_destroy(gs_barrier *b);

/* The protocol the barrier runs (for GS_ALGO_AUTO, the one chosen: flip or tree), the
 * groups it was made for, and the shape of its last launch (0 x 0 x 0 before any; a
 * launch with another group size resets the state first: see the launch functions). */
GS_API gs_status gs_barrier_get_algo(const gs_barrier *b, gs_algo *out);
GS_API gs_status gs_barrier_get_groups(const gs_barrier *b, unsigned *out);
GS_API gs_status gs_barrier_get_shape(const gs_barrier *b, gs_dim3 *grid, gs_dim3 *group);

/* Bytes of device memory the state takes (the seeds' memory-vs-groups figure). For a
 * flip state the CUDA back end allocates GRIDSYNC_PLACE_LINES - 1 lines (default 7, 896
 * bytes) more, into which it may shift the state when it places its counter
 * (docs/using.md). */
GS_API gs_status gs_barrier_state_bytes(const gs_barrier *b, size_t *out);

/* How long one wait may last before the barrier aborts, 1 to 3600000 ms (else
 * GS_ERR_INVALID_ARGUMENT). Default: gs_barrier_options.timeout_ms, else
 * GRIDSYNC_TIMEOUT_MS from the environment where it is such a number, else
 * GS_DEFAULT_TIMEOUT_MS. On OpenCL the deadline is a calibrated
 * poll count, so only approximate (docs/protocols.md). */
#define GS_DEFAULT_TIMEOUT_MS 5000u
GS_API gs_status gs_barrier_set_timeout(gs_barrier *b, unsigned milliseconds);
GS_API gs_status gs_barrier_get_timeout(const gs_barrier *b, unsigned *milliseconds);

/* Arrive-only launches. Where b's kernels have one episode, gs_arrive_last_<p> (the
 * group whose arrival completes it finishes; nobody waits), no group waits for another
 * and a launch needs no co-residency: with `on` non-zero, b's user launches
 * (gs_cuda_launch*, gs_opencl_launch*) skip the co-residency bound, and on CUDA the
 * cooperative attribute, whose launch costs more (apps/pi's barrier way:
 * docs/performance.md). A kernel that does wait on such a barrier is still bounded: where
 * its groups are not all resident, the launch ends in GS_ERR_TIMEOUT, never a hang.
 * Default off; GS_ERR_BUSY while a launch is in flight. The cpu back end runs every team
 * at once and has no bound to skip. */
GS_API gs_status gs_barrier_set_arrive_only(gs_barrier *b, int on);
GS_API gs_status gs_barrier_get_arrive_only(const gs_barrier *b, int *on);

/* Clears the state after an abort (or at any time between launches); GS_ERR_BUSY while a
 * launch is in flight. */
GS_API gs_status gs_barrier_reset(gs_barrier *b);

/* Waits for the launch in flight through `b` (gs_cuda_launch_async, gs_opencl_launch_async,
 * gs_cpu_launch_async) and returns its status: GS_OK, GS_ERR_TIMEOUT (see
 * gs_barrier_abort_info), GS_ERR_BAD_STATE (the kernel found another protocol's or
 * grid's state, or never used this barrier's: reason GS_ABORT_REASON_UNUSED),
 * GS_ERR_NATIVE when the kernel failed. With no launch in flight it reads what the last
 * one left in the state (after a CUDA graph that holds a captured launch has run and its
 * stream was synchronized: that run's status), and with none since the barrier was made
 * or reset it returns GS_OK and changes nothing. Then the barrier takes the next launch. */
GS_API gs_status gs_barrier_collect(gs_barrier *b);

typedef enum gs_abort_reason {
    GS_ABORT_REASON_NONE = 0,
    GS_ABORT_REASON_TIMEOUT = 1,
    GS_ABORT_REASON_PEER = 2,
    GS_ABORT_REASON_BAD_GRID = 3,
    GS_ABORT_REASON_BAD_STATE = 4,
    /* reserved: no call raises it (a cancel from the host would be seen only by a wait
     * slow enough to look at the abort word) */
    GS_ABORT_REASON_HOST = 5,
    /* the launched kernel never began with this barrier's state */
    GS_ABORT_REASON_UNUSED = 6,
    /* a group began an episode after its gs_arrive_last_<p> in the same launch (the abort
     * info's group, item and episode name it) */
    GS_ABORT_REASON_AFTER_LAST = 7
} gs_abort_reason;

/* What the last launch through this barrier left behind when it aborted. */
typedef struct gs_abort_info {
    gs_abort_reason reason;
    unsigned group;            /* the group whose wait expired first (or that raised the abort) */
    unsigned item;             /* its work-item that did, linear in the group */
    unsigned episode;          /* the episode it was waiting in (0-based since the last reset) */
    unsigned missing;          /* how many groups never arrived at that episode */
    unsigned first_missing[8]; /* the first of them (up to 8) */
    int stray;                 /* 1 where the runtime saw a work-item that never reached its group's
                            barrier (cpu back end): then its group is among the missing */
    unsigned stray_group, stray_item;
} gs_abort_info;

GS_API gs_status gs_barrier_abort_info(const gs_barrier *b, gs_abort_info *out);

/* The device-side state, to pass to a user kernel: a CUDA device pointer, a cl_mem
 * (as void *), or a host pointer (cpu). */
GS_API gs_status gs_barrier_native(const gs_barrier *b, void **out);

#ifdef __cplusplus
}
#endif

#endif
