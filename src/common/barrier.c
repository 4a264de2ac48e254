/* Barrier state: allocation, initialisation, reset, and the diagnosis of an abort. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "knobs.h"

/* How a flip counter releases (GS_RELEASE_*), from the H200's numbers
 * (docs/performance.md, tune/tune_flip*). Flip and cluster: the others poll the counter
 * up to GS_FLIP_POLL_MAX groups (at 1056 it is a toss-up: 1923 ns polling, 1952 with 4
 * lines at 64 work-items); above, one line's pollers cost more than the hop that release
 * lines add (2112 x 64: 2773 ns with 4 lines, 4704 polling; 4224 x 64: 4576 against
 * 8833). Tree: see below.
 * gs_barrier_options.release (GRIDSYNC_RELEASE) overrides. */
#define GS_FLIP_POLL_MAX 1536u
#define GS_TREE_ROOT_POLL_MAX 1024u
static unsigned release_form(gs_algo algo, unsigned groups, const gs_barrier_options *o)
{
    if (algo != GS_ALGO_TREE && algo != GS_ALGO_FLIP && algo != GS_ALGO_CLUSTER)
        return GS_RELEASE_POLL;
    unsigned max = algo == GS_ALGO_TREE ? GS_TREE_ROOT_POLL_MAX : GS_FLIP_POLL_MAX;
    if (o->release != GS_OPTION_DEFAULT)
        return o->release;
    return groups <= max ? GS_RELEASE_POLL : GS_RELEASE_LINES;
}

/* Flip's and cluster's release lines: 4 (2112 x 64: 2773 ns with 4, 2774 with 8, 2873
 * with 16; 4224 x 64: 4576, 4585, 4578). gs_barrier_options.release_lines
 * (GRIDSYNC_RELEASE_LINES) overrides. */
#define GS_FLIP_RELEASE_LINES 4u
static unsigned flip_lines(unsigned groups, const gs_barrier_options *o)
{
    unsigned r = o->release_lines != GS_OPTION_DEFAULT ? o->release_lines : GS_FLIP_RELEASE_LINES;
    r = r == 0 ? 1 : r;
    return r > groups ? groups : r;
}

/* Tree shape, from the H200's numbers (docs/performance.md, tune/tune_tree*). Up to
 * GS_TREE_ROOT_POLL_MAX groups, 8 leaves and every group polling the root (528 x 256:
 * 1603 ns, against 1632 with lines counting the leaves); above, the lines (1056 x 256:
 * 1869 against 1963; 1056 x 64: 1741 against 1828; 4224 x 64: 2478 against 3962). A
 * leaf then holds about sqrt(groups) groups but at least 256: at 4224 x 64 leaves of
 * 248 took 2478 ns, of 528 2630 and of 128 2792 (each leaf's last arriver adds into
 * every line, and each level costs a fence and an atomic round trip).
 * gs_barrier_options.release and .tree_fanout (GRIDSYNC_RELEASE, GRIDSYNC_TREE_FANOUT)
 * override. */
#define GS_TREE_ROOT_POLL_LEAVES 8u
#define GS_TREE_MIN_FANOUT 256u

static unsigned tree_fanout(unsigned groups, unsigned release, const gs_barrier_options *o)
{
    unsigned f;
    if (o->tree_fanout != GS_OPTION_DEFAULT) {
        f = o->tree_fanout;
    } else if (release == GS_RELEASE_POLL) {
        f = (groups + GS_TREE_ROOT_POLL_LEAVES - 1) / GS_TREE_ROOT_POLL_LEAVES;
    } else {
        f = 2;
        while (f * f < groups)
            ++f;
        if (f < GS_TREE_MIN_FANOUT)
            f = groups < GS_TREE_MIN_FANOUT ? groups : GS_TREE_MIN_FANOUT;
    }
    return f < 2 ? 2 : f;
}

static gs_status write_header(gs_barrier *b)
{
    uint32_t hdr[GS_LINE_WORDS] = {0};
    uint64_t units = b->dev->ops->timeout_units(b->dev, b->timeout_ms);
    hdr[GS_HDR_MAGIC] = GS_STATE_MAGIC;
    hdr[GS_HDR_ALGO] = (uint32_t)b->algo;
    hdr[GS_HDR_GROUPS] = b->groups;
    hdr[GS_HDR_TIMEOUT_LO] = (uint32_t)units;
    hdr[GS_HDR_TIMEOUT_HI] = (uint32_t)(units >> 32);
    hdr[GS_HDR_SPINNERS] = b->spinners;
    hdr[GS_HDR_LEAVES] = b->leaves;
    hdr[GS_HDR_RELEASE] = b->release;
    hdr[GS_HDR_GROUP_SIZE] = b->group_size;
    hdr[GS_HDR_BACKOFF] = b->backoff_ns;
    hdr[GS_HDR_BACKOFF_CAP] = b->backoff_cap_ns;
    hdr[GS_HDR_FIRST_POLL] = b->first_poll_ns;
    hdr[GS_HDR_MIRROR_LO] = (uint32_t)b->host_mirror;
    hdr[GS_HDR_MIRROR_HI] = (uint32_t)(b->host_mirror >> 32);
    return b->dev->ops->mem_write(b->dev, b->state, 0, hdr, sizeof hdr);
}

/* Zeroes the state and writes the header: the caller holds the barrier (busy). */
static gs_status reset_state(gs_barrier *b)
{
    void *zero = calloc(1, b->bytes);
    if (!zero)
        return GS_ERR_OUT_OF_MEMORY;
    gs_status s = b->dev->ops->mem_write(b->dev, b->state, 0, zero, b->bytes);
    free(zero);
    if (s == GS_OK)
        s = write_header(b);
    if (s == GS_OK) {
        b->aborted = 0;
        memset(&b->abort, 0, sizeof b->abort);
    }
    return s;
}

/* Holds the barrier for a host-side change, or says it is in use. */
static int take(gs_barrier *b)
{
    int idle = 0;
    return atomic_compare_exchange_strong(&b->busy, &idle, 1);
}
static void give(gs_barrier *b) { atomic_store(&b->busy, 0); }

gs_status gs_barrier_reset(gs_barrier *b)
{
    if (!b)
        return GS_ERR_INVALID_ARGUMENT;
    if (!take(b))
        return GS_ERR_BUSY;
    gs_status s = reset_state(b);
    b->launched = 0;
    give(b);
    return s;
}

int gs_algo_is_host(gs_algo algo)
{
    return algo == GS_ALGO_RELAUNCH || algo == GS_ALGO_RELAUNCH_GRAPH;
}

/* GS_ALGO_AUTO: flip up to GS_AUTO_FLIP_PER_CU groups per compute unit, the tree above
 * (gridsync/protocols.h says what was measured). */
static gs_algo resolve_auto(const gs_device *dev, unsigned groups)
{
    unsigned cus = dev->info.compute_units ? dev->info.compute_units : 1;
    return groups <= GS_AUTO_FLIP_PER_CU * cus ? GS_ALGO_FLIP : GS_ALGO_TREE;
}
/* 32 ns (a 64 ns sleep on Hopper) unless the options say otherwise. */
#define GS_DEFAULT_BACKOFF_NS 32u

/* Flip's sleep before its first poll unless the options say otherwise, on CUDA: none up
 * to two groups per compute unit, 16 ns per group per compute unit above. Measured in the
 * user's Jacobi kernel (H200, sync form, ms at 512^2 x 20000 / 1024^2 x 5000, against
 * grid.sync()'s 61.85/43.89, 44.06/26.07, 43.20/20.84, 58.00/24.35 at 1, 2, 4, 8 blocks
 * of 256 an SM; docs/performance.md, fourteenth round):
 *
 *   first poll   1 an SM        2              4              8
 *   at once      61.90/44.32    44.12/26.44    43.18/20.89    60.26/24.94
 *   32 ns        62.59/44.39    44.99/26.57    41.43/20.18    56.66/24.03
 *   64 ns        62.96/44.45    45.48/26.66    41.34/19.91    55.31/23.48
 *   128 ns       63.96/44.62    46.12/26.91    41.88/19.89    52.93/22.25
 *
 * The more groups poll the counter's line, the more their polls delay the adds still to
 * come; with few, a late first poll is a late release. */
#define GS_FIRST_POLL_NS_PER_GROUP 16u
static unsigned default_first_poll(const gs_device *dev, unsigned groups)
{
    unsigned cus = dev->info.compute_units ? dev->info.compute_units : 1;
    unsigned per_cu = (groups + cus - 1u) / cus;
    return dev->info.backend == GS_BACKEND_CUDA && per_cu > 2u
               ? GS_FIRST_POLL_NS_PER_GROUP * (per_cu < 64u ? per_cu : 64u)
               : 0u;
}

gs_status gs_barrier_create(gs_device *dev, gs_algo algo, unsigned groups, gs_barrier **out)
{
    return gs_barrier_create_with(dev, algo, groups, NULL, out);
}

gs_status gs_barrier_create_with(gs_device *dev, gs_algo algo, unsigned groups,
                                 const gs_barrier_options *options, gs_barrier **out)
{
    gs_barrier_options o;
    if (!out)
        return GS_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!dev || groups == 0 || groups > GS_MAX_GROUPS)
        return GS_ERR_INVALID_ARGUMENT;
    if ((unsigned)algo >= GS_ALGO_COUNT_)
        return GS_ERR_UNKNOWN_ALGO;
    if (algo == GS_ALGO_AUTO)
        algo = resolve_auto(dev, groups);
    if (!gs_algo_supported(dev, algo))
        return GS_ERR_UNSUPPORTED;
    /* A bound of the back end's own that no launch passes, even of groups of one (the
     * cpu's threads): refused here, where a state of 2^24 groups took 2.3 GB and 20-35 s
     * to make for a barrier no launch could use. */
    unsigned most = 0;
    if (dev->ops->launch_groups && dev->ops->launch_groups(dev, 1, &most) == GS_OK && groups > most)
        return GS_ERR_TOO_MANY_GROUPS;
    gs_status s = gs_barrier_options_resolve(options, groups, &o);
    if (s != GS_OK)
        return s;
    gs_barrier *b = calloc(1, sizeof *b);
    if (!b)
        return GS_ERR_OUT_OF_MEMORY;
    b->dev = dev;
    b->algo = algo;
    b->groups = groups;
    b->timeout_ms = o.timeout_ms != GS_OPTION_DEFAULT ? o.timeout_ms : GS_DEFAULT_TIMEOUT_MS;
    b->backoff_ns = o.backoff_ns != GS_OPTION_DEFAULT ? o.backoff_ns : GS_DEFAULT_BACKOFF_NS;
    b->backoff_cap_ns =
        o.backoff_cap_ns != GS_OPTION_DEFAULT ? o.backoff_cap_ns : GS_DEFAULT_BACKOFF_CAP_NS;
    b->first_poll_ns =
        o.first_poll_ns != GS_OPTION_DEFAULT ? o.first_poll_ns : default_first_poll(dev, groups);
    b->spinners = dev->ops->spinners(dev);
    b->release = release_form(algo, groups, &o);
    unsigned fanout = algo == GS_ALGO_TREE ? tree_fanout(groups, b->release, &o) : 1;
    /* the device packs the count of leaves into 15 bits (gridsync/grid.h, GS_AUX_*) */
    if (fanout < (groups + GS_AUX_MAX_COUNT - 1) / GS_AUX_MAX_COUNT)
        fanout = (groups + GS_AUX_MAX_COUNT - 1) / GS_AUX_MAX_COUNT;
    b->leaves = algo == GS_ALGO_TREE ? (groups + fanout - 1) / fanout : 0;
    if (algo != GS_ALGO_TREE && b->release == GS_RELEASE_LINES)
        b->leaves = flip_lines(groups, &o);
    if (algo == GS_ALGO_SHARDED) /* one counter per polling lane of a warp, at most */
        b->leaves = o.shards != GS_OPTION_DEFAULT ? o.shards : groups < 32 ? groups : 32;
    atomic_init(&b->busy, 0);
    b->bytes = (size_t)GS_STATE_LINES(groups, b->leaves) * GS_LINE_BYTES;
    unsigned place = 0; /* candidate starts for the counter's placement: 0, 1 none */
    if (algo == GS_ALGO_FLIP && dev->ops->place_counter) {
        place = GS_PLACE_LINES_DEFAULT; /* src/cuda/place_cuda.c measured why */
        (void)gs_knob_uint(GS_KNOB_PLACE_LINES, &place);
    }
    /* a placed state gets its candidate lines past it; the placement keeps what it uses */
    size_t room = place > 1u ? (size_t)(place - 1u) * GS_LINE_BYTES : 0u;
    s = dev->ops->mem_alloc(dev, b->bytes + room, &b->state);
    if (s == GS_OK && place > 1u) {
        s = dev->ops->place_counter(dev, b->state, b->bytes,
                                    (size_t)GS_LINE_COUNTER * GS_LINE_BYTES, groups, place);
        if (s != GS_OK)
            dev->ops->mem_free(dev, b->state);
    }
    if (s == GS_OK && (s = reset_state(b)) != GS_OK)
        dev->ops->mem_free(dev, b->state);
    if (s != GS_OK) {
        free(b);
        return s;
    }
    gs_device_hold(dev);
    *out = b;
    return GS_OK;
}

gs_status gs_barrier_destroy(gs_barrier *b)
{
    if (!b)
        return GS_ERR_INVALID_ARGUMENT;
    if (!take(b))
        return GS_ERR_BUSY;
    if (b->launch_cache && b->dev->ops->barrier_release)
        b->dev->ops->barrier_release(b->dev, b);
    b->dev->ops->mem_free(b->dev, b->state);
    gs_device_release(b->dev);
    free(b);
    return GS_OK;
}

gs_status gs_barrier_get_algo(const gs_barrier *b, gs_algo *out)
{
    if (!b || !out)
        return GS_ERR_INVALID_ARGUMENT;
    *out = b->algo;
    return GS_OK;
}

gs_status gs_barrier_get_groups(const gs_barrier *b, unsigned *out)
{
    if (!b || !out)
        return GS_ERR_INVALID_ARGUMENT;
    *out = b->groups;
    return GS_OK;
}

gs_status gs_barrier_get_shape(const gs_barrier *b, gs_dim3 *grid, gs_dim3 *group)
{
    if (!b || (!grid && !group))
        return GS_ERR_INVALID_ARGUMENT;
    if (grid)
        *grid = b->grid;
    if (group)
        *group = b->block;
    return GS_OK;
}

gs_status gs_barrier_state_bytes(const gs_barrier *b, size_t *out)
{
    if (!b || !out)
        return GS_ERR_INVALID_ARGUMENT;
    *out = b->bytes;
    return GS_OK;
}

gs_status gs_barrier_set_timeout(gs_barrier *b, unsigned milliseconds)
{
    if (!b || milliseconds == 0 || milliseconds > 3600000u)
        return GS_ERR_INVALID_ARGUMENT;
    if (!take(b))
        return GS_ERR_BUSY;
    b->timeout_ms = milliseconds;
    gs_status s = write_header(b);
    give(b);
    return s;
}

gs_status gs_barrier_get_timeout(const gs_barrier *b, unsigned *milliseconds)
{
    if (!b || !milliseconds)
        return GS_ERR_INVALID_ARGUMENT;
    *milliseconds = b->timeout_ms;
    return GS_OK;
}

gs_status gs_barrier_set_arrive_only(gs_barrier *b, int on)
{
    if (!b)
        return GS_ERR_INVALID_ARGUMENT;
    if (!take(b))
        return GS_ERR_BUSY;
    b->arrive_only = on != 0;
    give(b);
    return GS_OK;
}

gs_status gs_barrier_get_arrive_only(const gs_barrier *b, int *on)
{
    if (!b || !on)
        return GS_ERR_INVALID_ARGUMENT;
    *on = b->arrive_only;
    return GS_OK;
}

gs_status gs_barrier_abort_info(const gs_barrier *b, gs_abort_info *out)
{
    if (!b || !out)
        return GS_ERR_INVALID_ARGUMENT;
    *out = b->abort;
    return GS_OK;
}

gs_status gs_barrier_native(const gs_barrier *b, void **out)
{
    if (!b || !out)
        return GS_ERR_INVALID_ARGUMENT;
    *out = b->dev->ops->mem_native(b->state);
    return GS_OK;
}

gs_status gs_barrier_set_host_mirror(gs_barrier *b, uint64_t device_address)
{
    b->host_mirror = device_address;
    return write_header(b);
}

gs_status gs_barrier_clear_ack(gs_barrier *b)
{
    uint32_t zero = 0;
    return b->dev->ops->mem_write(b->dev, b->state, GS_ACK_OFFSET, &zero, sizeof zero);
}

static unsigned dim_product(gs_dim3 d, int *overflow)
{
    uint64_t n = (uint64_t)d.x * d.y * d.z;
    *overflow = n > 0xffffffffu || d.x == 0 || d.y == 0 || d.z == 0;
    return (unsigned)n;
}

gs_status gs_barrier_begin_launch(gs_barrier *b, gs_dim3 grid, gs_dim3 block, int capturing)
{
    int bad_grid, bad_block;
    unsigned groups = dim_product(grid, &bad_grid), size = dim_product(block, &bad_block);
    if (bad_grid || bad_block || groups != b->groups)
        return GS_ERR_INVALID_ARGUMENT;
    if (!take(b))
        return GS_ERR_BUSY;
    gs_status s = b->aborted ? GS_ERR_NEEDS_RESET : GS_OK;
    if (s == GS_OK && size != b->group_size) {
        if (capturing) {
            s = GS_ERR_INVALID_ARGUMENT; /* no synchronous reset inside a capture */
        } else {
            b->group_size = size;
            s = reset_state(b);
        }
    }
    if (s != GS_OK) {
        give(b);
        return s;
    }
    b->grid = grid;
    b->block = block;
    b->launched = 1;
    return GS_OK;
}
/* Names the groups that never arrived at the episode the first waiter gave up in. */
static gs_status diagnose(gs_barrier *b)
{
    uint32_t *words = malloc(b->bytes);
    if (!words)
        return GS_ERR_OUT_OF_MEMORY;
    gs_status s = b->dev->ops->mem_read(b->dev, b->state, 0, words, b->bytes);
    if (s == GS_OK) {
        uint32_t needed = b->abort.episode + 1u;
        for (unsigned g = 0; g < b->groups; ++g) {
            uint32_t arrived = words[GS_WORD(GS_LINE_GROUP_A(g), GS_G_ARRIVED)];
            if ((uint32_t)(arrived - needed) >= GS_FLIP_BIT) {
                if (b->abort.missing <
                    sizeof b->abort.first_missing / sizeof *b->abort.first_missing)
                    b->abort.first_missing[b->abort.missing] = g;
                ++b->abort.missing;
            }
        }
    }
    free(words);
    return s;
}

/* A work-item that never reached its group's barrier (the cpu runtime saw it): its group
 * is among the missing even where the group's representative arrived. */
static void add_stray(gs_barrier *b, unsigned group, unsigned item)
{
    unsigned listed = b->abort.missing < 8 ? b->abort.missing : 8;
    b->abort.stray = 1;
    b->abort.stray_group = group;
    b->abort.stray_item = item;
    for (unsigned i = 0; i < listed; ++i)
        if (b->abort.first_missing[i] == group)
            return;
    if (b->abort.missing < 8)
        b->abort.first_missing[b->abort.missing] = group;
    ++b->abort.missing;
}

/* What a finished launch left in the abort line. */
static gs_status after_launch(gs_barrier *b, int check_ack)
{
    uint32_t line[GS_ABORT_LINE_READ];
    gs_status s = GS_OK;
    /* The kernel's own copy on the host (no round trip) holds the acknowledgement and
     * whether it aborted; the abort's details are read from the state. */
    int read_state = 1;
    if (b->verdict) {
        for (unsigned i = 0; i < GS_ABORT_LINE_READ; ++i)
            line[i] = b->verdict[i];
        read_state = line[GS_ABORT_REASON] != GS_ABORT_NONE;
    }
    if (read_state)
        s = b->dev->ops->mem_read(b->dev, b->state, GS_WORD(GS_LINE_ABORT, 0) * 4u, line,
                                  sizeof line);
    b->verdict = NULL;
    if (s != GS_OK)
        return s;
    if (line[GS_ABORT_REASON] == GS_ABORT_NONE && (!check_ack || line[GS_ABORT_ACK] != 0))
        return GS_OK;
    b->aborted = 1;
    memset(&b->abort, 0, sizeof b->abort);
    if (line[GS_ABORT_REASON] == GS_ABORT_NONE) {
        b->abort.reason = GS_ABORT_REASON_UNUSED;
        return GS_ERR_BAD_STATE;
    }
    b->abort.reason = (gs_abort_reason)line[GS_ABORT_REASON];
    b->abort.group = line[GS_ABORT_GROUP];
    b->abort.episode = line[GS_ABORT_EPISODE];
    b->abort.item = line[GS_ABORT_ITEM];
    switch (line[GS_ABORT_REASON]) {
    case GS_ABORT_BAD_GRID:
    case GS_ABORT_BAD_STATE:
    case GS_ABORT_AFTER_LAST: return GS_ERR_BAD_STATE;
    default:
        s = diagnose(b);
        if (s == GS_OK && line[GS_ABORT_STRAY] != 0)
            add_stray(b, line[GS_ABORT_STRAY] - 1u, line[GS_ABORT_STRAY_ITEM]);
        return s == GS_OK ? GS_ERR_TIMEOUT : s;
    }
}

gs_status gs_barrier_end_launch(gs_barrier *b, gs_status launched, int check_ack)
{
    /* a broken team (cpu: a work-item that never reached a group barrier) still has a
     * diagnosis in the state */
    gs_status s = launched;
    if (check_ack >= 0 && (launched == GS_OK || launched == GS_ERR_TIMEOUT)) {
        gs_status after = after_launch(b, check_ack);
        s = after != GS_OK ? after : launched;
        if (s == GS_ERR_TIMEOUT)
            b->aborted = 1; /* the same reset rule on every back end */
    }
    b->verdict = NULL;
    give(b);
    return s;
}

gs_status gs_barrier_collect(gs_barrier *b)
{
    if (!b)
        return GS_ERR_INVALID_ARGUMENT;
    if (b->pending) {
        gs_status launched = b->dev->ops->collect(b->dev, b);
        return gs_barrier_end_launch(b, launched, 1);
    }
    if (!take(b))
        return GS_ERR_BUSY; /* another thread's launch, synchronous */
    if (!b->launched) {     /* nothing to read: no kernel was given the state since its reset */
        give(b);
        return GS_OK;
    }
    return gs_barrier_end_launch(b, GS_OK, 1);
}
