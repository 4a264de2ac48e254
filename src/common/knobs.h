/* src/common/knobs.h - THE table of gridsync's environment variables: every GRIDSYNC_*
 * the library reads is listed here, with the range it accepts, its default and what it
 * changes, and read only through knobs.c. docs/using.md ("Environment variables")
 * carries the same table; keep the two together.
 *
 * A variable outside its range (or not a number) is ignored: the default holds;
 * gs_environment_check (knobs.c, public in gridsync.h) names it for a caller that would
 * rather refuse it. The
 * barrier knobs are also fields of gs_barrier_options (gridsync.h), where an explicit
 * value wins over the variable and one outside the same range is refused with
 * GS_ERR_INVALID_ARGUMENT. */
#ifndef GRIDSYNC_KNOBS_H
#define GRIDSYNC_KNOBS_H

/* GRIDSYNC_PLACE_LINES's default and largest value: barrier.c allocates room for the
 * candidates, src/cuda/place_cuda.c probes them. */
#define GS_PLACE_LINES_DEFAULT 8
#define GS_PLACE_LINES_MAX 17

/* A knob's number as text, after its macros have expanded. */
#define GS_KNOB_STR_(x) #x
#define GS_KNOB_STR(x) GS_KNOB_STR_(x)

/* X(ID, variable, min, max, default, meaning). min/max bound a number; for a knob that
 * takes names, the values the names map to; 0, 0 for a knob that takes text. */
#define GS_KNOBS(X)                                                                             \
    X(BACKEND, "GRIDSYNC_BACKEND", 0, 3, "auto",                                                \
      "auto|cpu|opencl|cuda: the back end gs_device_open(GS_BACKEND_AUTO) opens; a bad name "   \
      "is GS_ERR_INVALID_ARGUMENT there")                                                       \
    X(TIMEOUT_MS, "GRIDSYNC_TIMEOUT_MS", 1, 3600000, "5000 (GS_DEFAULT_TIMEOUT_MS)",            \
      "ms one barrier, local or multi-device wait may last before it aborts (option "           \
      "timeout_ms)")                                                                            \
    X(RELEASE, "GRIDSYNC_RELEASE", 0, 1, "poll up to 1536 groups (tree 1024), else lines",      \
      "poll|lines: how flip, cluster and tree release their waiters (option release)")          \
    X(RELEASE_LINES, "GRIDSYNC_RELEASE_LINES", 0, 1024, "4",                                    \
      "flip's and cluster's release lines when they release by lines; 0 means 1, more than "    \
      "the groups means the groups (option release_lines)")                                     \
    X(TREE_FANOUT, "GRIDSYNC_TREE_FANOUT", 0, 1048576,                                          \
      "groups/8 when polling, else about sqrt(groups) but at least 256",                        \
      "groups per leaf of the tree; under 2 means 2 (option tree_fanout)")                      \
    X(BACKOFF_NS, "GRIDSYNC_BACKOFF_NS", 0, 1000000, "32",                                      \
      "ns a waiting poller backs off between polls (option backoff_ns)")                        \
    X(BACKOFF_CAP_NS, "GRIDSYNC_BACKOFF_CAP_NS", 0, 1000000, "16384",                           \
      "ns the back-off of a long wait grows to at most (option backoff_cap_ns)")                \
    X(FIRST_POLL_NS, "GRIDSYNC_FIRST_POLL_NS", 0, 100000,                                       \
      "CUDA: 0 up to 2 groups per SM, else 16 per group per SM, at most 1024",                  \
      "ns flip's representative sleeps between its arrival and its first poll (option "         \
      "first_poll_ns)")                                                                         \
    X(PLACE_LINES, "GRIDSYNC_PLACE_LINES", 0, GS_PLACE_LINES_MAX,                               \
      GS_KNOB_STR(GS_PLACE_LINES_DEFAULT),                                                      \
      "CUDA: how many starts, a line apart from its allocation's first, a flip state's "        \
      "placement tries when the barrier is made, keeping the one whose counter ran a probe's "  \
      "episodes fastest; 0 or 1: none")                                                         \
    X(SHARDS, "GRIDSYNC_SHARDS", 1, 1024, "the groups, at most 32",                             \
      "sharded's counters; the variable is ignored above the groups, the option refused "       \
      "(option shards)")                                                                        \
    X(CLUSTER_SIZE, "GRIDSYNC_CLUSTER_SIZE", 1, 16, "the largest of 8, 4, 2 that fits, else 1", \
      "CUDA cluster protocol: blocks per cluster, at each launch; one that does not divide "    \
      "the grid is GS_ERR_INVALID_ARGUMENT there")                                              \
    X(CL_ORDERING, "GRIDSYNC_CL_ORDERING", 0, 2, "the strongest that builds",                   \
      "OpenCL: the memory-ordering build forced at gs_device_open (docs/protocols.md)")         \
    X(OPENCL_ICD, "GRIDSYNC_OPENCL_ICD", 0, 0, "unset: the loader's vendors directory",         \
      "OpenCL: ICD libraries separated by ':' (libnvidia-opencl.so.1) loaded instead of "       \
      "/etc/OpenCL/vendors, read at the process's first OpenCL call (src/opencl/platforms.c)")  \
    X(OPENCL_PLATFORM, "GRIDSYNC_OPENCL_PLATFORM", 0, 0, "unset: every platform",               \
      "OpenCL: only the platforms whose name or vendor contains this text, any case (NVIDIA)")

typedef enum gs_knob {
#define GS_KNOB_ENUM_(ID, var, lo, hi, def, meaning) GS_KNOB_##ID,
    GS_KNOBS(GS_KNOB_ENUM_)
#undef GS_KNOB_ENUM_
        GS_KNOB_COUNT_
} gs_knob;

/* The variable's text; NULL when it is unset or empty. */
const char *gs_knob_text(gs_knob k);
/* Whether `v` is within the knob's range. */
int gs_knob_in_range(gs_knob k, unsigned v);
/* 1 with *out when the variable is a decimal number within the knob's range; else 0
 * (unset, empty or bad: the caller keeps its default) and *out untouched. */
int gs_knob_uint(gs_knob k, unsigned *out);

#endif
