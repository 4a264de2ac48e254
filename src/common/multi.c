/* src/common/multi.c - a barrier across devices on the host (gridsync/host_multi.h):
 * the states, their headers and peer tables, the launches' bookkeeping and the
 * diagnosis, written once over the back ends' memory operations. */
#include <stdlib.h>
#include <string.h>

#include "knobs.h"
#include "multi_internal.h"

#define GS_MULTI_BACKOFF_NS 32u

void gs_multi_hold(gs_multi *m)
{
    for (unsigned k = 0; k < m->ranks; ++k)
        if (m->rank[k].dev)
            gs_device_hold(m->rank[k].dev);
}

gs_multi *gs_multi_alloc(unsigned ranks, unsigned groups)
{
    gs_multi *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->ranks = ranks;
    m->groups = groups;
    m->timeout_ms = GS_DEFAULT_TIMEOUT_MS;
    (void)gs_knob_uint(GS_KNOB_TIMEOUT_MS, &m->timeout_ms);
    m->bytes = (size_t)GS_MULTI_STATE_LINES(groups) * GS_LINE_BYTES;
    for (unsigned r = 0; r < GS_MULTI_MAX_DEVICES; ++r)
        atomic_init(&m->rank[r].busy, 0);
    return m;
}

static gs_status write_header(gs_multi *m, unsigned k)
{
    gs_multi_rank *r = &m->rank[k];
    uint32_t hdr[GS_LINE_WORDS] = {0};
    uint64_t units = r->dev->ops->timeout_units(r->dev, m->timeout_ms);
    hdr[GS_HDR_MAGIC] = GS_MULTI_MAGIC;
    hdr[GS_HDR_ALGO] = GS_MULTI_ALGO_ID;
    hdr[GS_HDR_GROUPS] = m->groups;
    hdr[GS_HDR_TIMEOUT_LO] = (uint32_t)units;
    hdr[GS_HDR_TIMEOUT_HI] = (uint32_t)(units >> 32);
    hdr[GS_HDR_BACKOFF] = GS_MULTI_BACKOFF_NS;
    hdr[GS_HDR_BACKOFF_CAP] = GS_DEFAULT_BACKOFF_CAP_NS;
    hdr[GS_HDR_MULTI_RANK] = k;
    hdr[GS_HDR_MULTI_RANKS] = m->ranks;
    return r->dev->ops->mem_write(r->dev, r->state, 0, hdr, sizeof hdr);
}

/* Rank k's state from scratch: zeroes (counters, notes, slots, the abort line), the
 * header, and the table of every rank's address (kept in the state's own words, so that
 * a reset reads it back instead of keeping a copy). */
static gs_status clear_state(gs_multi *m, unsigned k, const uint32_t *table)
{
    gs_multi_rank *r = &m->rank[k];
    size_t at = (size_t)GS_WORD(GS_MULTI_LINE_PEERS(m->groups), 0) * 4u;
    size_t table_bytes = (size_t)GS_MULTI_PEER_LINES * GS_LINE_BYTES;
    uint32_t *saved = NULL;
    void *zero = calloc(1, m->bytes);
    gs_status s = zero ? GS_OK : GS_ERR_OUT_OF_MEMORY;
    if (s == GS_OK && !table) {
        saved = malloc(table_bytes);
        s = saved ? r->dev->ops->mem_read(r->dev, r->state, at, saved, table_bytes)
                  : GS_ERR_OUT_OF_MEMORY;
        table = saved;
    }
    if (s == GS_OK)
        s = r->dev->ops->mem_write(r->dev, r->state, 0, zero, m->bytes);
    if (s == GS_OK)
        s = r->dev->ops->mem_write(r->dev, r->state, at, table, table_bytes);
    if (s == GS_OK)
        s = write_header(m, k);
    free(saved);
    free(zero);
    return s;
}

gs_status gs_multi_init_states(gs_multi *m, void *const *peers)
{
    uint32_t table[GS_MULTI_PEER_LINES * GS_LINE_WORDS] = {0};
    for (unsigned k = 0; k < m->ranks; ++k) {
        uint64_t a = (uint64_t)(uintptr_t)peers[k];
        table[2 * k] = (uint32_t)a;
        table[2 * k + 1] = (uint32_t)(a >> 32);
    }
    for (unsigned k = 0; k < m->ranks; ++k) {
        if (!m->rank[k].dev)
            continue;
        gs_status s = clear_state(m, k, table);
        if (s != GS_OK)
            return s;
    }
    return GS_OK;
}

static void free_states(gs_multi *m)
{
    if (m->release) {
        m->release(m);
        return;
    }
    for (unsigned k = 0; k < m->ranks; ++k)
        if (m->rank[k].state)
            m->rank[k].dev->ops->mem_free(m->rank[k].dev, m->rank[k].state);
}

/* The devices of one back end that can hold the states and reach each other's. */
static gs_status check_devices(gs_device *const *devs, unsigned ndev)
{
    for (unsigned k = 0; k < ndev; ++k)
        if (!devs[k] || devs[k]->ops != devs[0]->ops)
            return GS_ERR_INVALID_ARGUMENT;
    gs_backend b = devs[0]->ops->id;
    if (b != GS_BACKEND_CPU && b != GS_BACKEND_CUDA)
        return GS_ERR_UNSUPPORTED; /* OpenCL has no system scope to meet in */
    if (!devs[0]->ops->peer_access)
        return GS_OK;
    for (unsigned a = 0; a < ndev; ++a)
        for (unsigned c = 0; c < ndev; ++c) {
            gs_status s = devs[a]->ops->peer_access(devs[a], devs[c]);
            if (s != GS_OK)
                return s;
        }
    return GS_OK;
}

gs_status gs_multi_create(gs_device *const *devs, unsigned ndev, unsigned groups_per_device,
                          gs_multi **out)
{
    if (!out)
        return GS_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!devs || ndev == 0 || ndev > GS_MULTI_MAX_DEVICES || groups_per_device == 0 ||
        groups_per_device > GS_MAX_GROUPS)
        return GS_ERR_INVALID_ARGUMENT;
    gs_status s = check_devices(devs, ndev);
    if (s != GS_OK)
        return s;
    gs_multi *m = gs_multi_alloc(ndev, groups_per_device);
    if (!m)
        return GS_ERR_OUT_OF_MEMORY;
    void *peers[GS_MULTI_MAX_DEVICES];
    for (unsigned k = 0; k < ndev && s == GS_OK; ++k) {
        gs_multi_rank *r = &m->rank[k];
        r->dev = devs[k];
        s = r->dev->ops->mem_alloc(r->dev, m->bytes, &r->state);
        if (s == GS_OK)
            peers[k] = r->dev->ops->mem_native(r->state);
    }
    if (s == GS_OK)
        s = gs_multi_init_states(m, peers);
    if (s != GS_OK) {
        free_states(m);
        free(m);
        return s;
    }
    gs_multi_hold(m);
    *out = m;
    return GS_OK;
}

/* Holds every rank this process drives for a change on the host, or says one is in
 * flight. */
static int take_all(gs_multi *m)
{
    for (unsigned k = 0; k < m->ranks; ++k) {
        int idle = 0;
        if (!atomic_compare_exchange_strong(&m->rank[k].busy, &idle, 1)) {
            while (k-- > 0)
                atomic_store(&m->rank[k].busy, 0);
            return 0;
        }
    }
    return 1;
}
static void give_all(gs_multi *m)
{
    for (unsigned k = 0; k < m->ranks; ++k)
        atomic_store(&m->rank[k].busy, 0);
}

gs_status gs_multi_destroy(gs_multi *m)
{
    if (!m)
        return GS_ERR_INVALID_ARGUMENT;
    if (!take_all(m))
        return GS_ERR_BUSY;
    free_states(m);
    for (unsigned k = 0; k < m->ranks; ++k)
        if (m->rank[k].dev)
            gs_device_release(m->rank[k].dev);
    free(m);
    return GS_OK;
}

gs_status gs_multi_set_timeout(gs_multi *m, unsigned milliseconds)
{
    if (!m || milliseconds == 0 || milliseconds > 3600000u)
        return GS_ERR_INVALID_ARGUMENT;
    if (!take_all(m))
        return GS_ERR_BUSY;
    gs_status s = GS_OK;
    m->timeout_ms = milliseconds;
    for (unsigned k = 0; k < m->ranks && s == GS_OK; ++k)
        if (m->rank[k].dev)
            s = write_header(m, k);
    give_all(m);
    return s;
}

gs_status gs_multi_get_timeout(const gs_multi *m, unsigned *milliseconds)
{
    if (!m || !milliseconds)
        return GS_ERR_INVALID_ARGUMENT;
    *milliseconds = m->timeout_ms;
    return GS_OK;
}

gs_status gs_multi_get_shape(const gs_multi *m, unsigned *ranks, unsigned *groups_per_device)
{
    if (!m || (!ranks && !groups_per_device))
        return GS_ERR_INVALID_ARGUMENT;
    if (ranks)
        *ranks = m->ranks;
    if (groups_per_device)
        *groups_per_device = m->groups;
    return GS_OK;
}

gs_status gs_multi_state_bytes(const gs_multi *m, size_t *bytes)
{
    if (!m || !bytes)
        return GS_ERR_INVALID_ARGUMENT;
    *bytes = m->bytes;
    return GS_OK;
}

gs_status gs_multi_native(const gs_multi *m, unsigned rank, void **state)
{
    if (!m || !state || rank >= m->ranks)
        return GS_ERR_INVALID_ARGUMENT;
    const gs_multi_rank *r = &m->rank[rank];
    if (!r->dev)
        return GS_ERR_UNSUPPORTED;
    *state = r->dev->ops->mem_native(r->state);
    return GS_OK;
}

gs_status gs_multi_reset(gs_multi *m)
{
    if (!m)
        return GS_ERR_INVALID_ARGUMENT;
    if (!take_all(m))
        return GS_ERR_BUSY;
    /* Where every rank resets its own state (NCCL), the ranks meet before any clears: a
     * rank whose kernel ended early may collect GS_OK and reset while another's kernel
     * still waits, and that kernel's timeout then tells this rank's state to leave
     * (gs_multi_tell), a word written after the clear that would end the next launch at
     * its first look. Once every rank has collected, every kernel has ended and its
     * words have landed. They meet again after, so that none launches on a state another
     * rank has yet to clear. */
    gs_status s = m->meet ? m->meet(m) : GS_OK;
    for (unsigned k = 0; k < m->ranks && s == GS_OK; ++k)
        if (m->rank[k].dev) {
            s = clear_state(m, k, NULL);
            memset(&m->rank[k].abort, 0, sizeof m->rank[k].abort);
        }
    if (s == GS_OK && m->meet)
        s = m->meet(m);
    if (s == GS_OK)
        m->aborted = 0;
    give_all(m);
    return s;
}

gs_status gs_multi_abort_info(const gs_multi *m, unsigned rank, gs_multi_abort *out)
{
    if (!m || !out || rank >= m->ranks)
        return GS_ERR_INVALID_ARGUMENT;
    if (!m->rank[rank].dev)
        return GS_ERR_UNSUPPORTED;
    *out = m->rank[rank].abort;
    return GS_OK;
}

gs_status gs_multi_begin_launch(gs_multi *m, unsigned rank, gs_dim3 grid)
{
    uint64_t groups = (uint64_t)grid.x * grid.y * grid.z;
    gs_multi_rank *r = &m->rank[rank];
    if (groups != m->groups)
        return GS_ERR_INVALID_ARGUMENT;
    int idle = 0;
    if (!atomic_compare_exchange_strong(&r->busy, &idle, 1))
        return GS_ERR_BUSY;
    gs_status s = m->aborted ? GS_ERR_NEEDS_RESET : GS_OK;
    uint32_t zero = 0;
    if (s == GS_OK)
        s = r->dev->ops->mem_write(r->dev, r->state, GS_ACK_OFFSET, &zero, sizeof zero);
    if (s != GS_OK)
        atomic_store(&r->busy, 0);
    r->launched = s == GS_OK;
    return s;
}

gs_status gs_multi_launch_failed(gs_multi *m, unsigned rank, gs_status why)
{
    m->rank[rank].launched = 0;
    atomic_store(&m->rank[rank].busy, 0);
    return why;
}

/* ---- collect and diagnosis ------------------------------------------------------ */

static gs_status read_words(gs_multi *m, unsigned k, unsigned line, uint32_t *dst, unsigned n)
{
    gs_multi_rank *r = &m->rank[k];
    return r->dev->ops->mem_read(r->dev, r->state, (size_t)GS_WORD(line, 0) * 4u, dst,
                                 (size_t)n * 4u);
}

/* Which of `n` monotone counters stayed behind the furthest (values a launch keeps
 * within one of each other; compared modulo 2^32): their count, the first eight. */
static unsigned behind(const uint32_t *v, unsigned n, unsigned stride, unsigned *first)
{
    uint32_t top = v[0];
    unsigned count = 0;
    for (unsigned i = 1; i < n; ++i)
        if ((uint32_t)(v[(size_t)i * stride] - top) - 1u < GS_FLIP_BIT)
            top = v[(size_t)i * stride];
    for (unsigned i = 0; i < n; ++i)
        if (v[(size_t)i * stride] != top) {
            if (count < 8)
                first[count] = i;
            ++count;
        }
    return count;
}

/* The groups of rank k behind its furthest (their arrival notes). */
static gs_status groups_behind(gs_multi *m, unsigned k, unsigned *count, unsigned *first)
{
    size_t n = (size_t)m->groups * GS_LINE_WORDS;
    uint32_t *notes = malloc(n * 4u);
    if (!notes)
        return GS_ERR_OUT_OF_MEMORY;
    gs_status s = read_words(m, k, GS_LINE_GROUPS, notes, (unsigned)n);
    if (s == GS_OK)
        *count = behind(notes + GS_G_ARRIVED, m->groups, GS_LINE_WORDS, first);
    free(notes);
    return s;
}

/* What rank k's kernel left, once every rank's launch has ended (the diagnosis reads
 * other ranks' states, which their kernels, and the told-to-leave words, wrote). */
static gs_status verdict(gs_multi *m, unsigned k, gs_status launched)
{
    gs_multi_rank *r = &m->rank[k];
    gs_multi_abort *a = &r->abort;
    uint32_t line[GS_ABORT_MULTI_FROM + 1], slots[GS_LINE_WORDS];
    memset(a, 0, sizeof *a);
    a->rank = k;
    a->from_rank = a->group = a->missing_group = GS_MULTI_NONE;
    if (!r->launched) {
        a->reason = GS_ABORT_REASON_UNUSED;
        return GS_ERR_BAD_STATE;
    }
    if (launched != GS_OK && launched != GS_ERR_TIMEOUT)
        return launched;
    gs_status s = read_words(m, k, GS_LINE_ABORT, line, GS_ABORT_MULTI_FROM + 1);
    if (s != GS_OK)
        return s;
    uint32_t reason = line[GS_ABORT_REASON], from = line[GS_ABORT_MULTI_FROM];
    if (reason == GS_ABORT_NONE && from == 0) {
        if (line[GS_ABORT_ACK] != 0)
            return GS_OK;
        a->reason = GS_ABORT_REASON_UNUSED;
        return GS_ERR_BAD_STATE;
    }
    if (reason == GS_ABORT_BAD_GRID || reason == GS_ABORT_BAD_STATE) {
        a->reason = (gs_abort_reason)reason;
        return GS_ERR_BAD_STATE;
    }
    a->reason = reason != GS_ABORT_NONE ? (gs_abort_reason)reason : GS_ABORT_REASON_PEER;
    if (reason != GS_ABORT_NONE) {
        a->group = line[GS_ABORT_GROUP];
        a->item = line[GS_ABORT_ITEM];
        a->episode = line[GS_ABORT_EPISODE];
    }
    /* Its own wait expired: itself, even where a peer that expired too has told it since
     * (both happen when two devices' bounds run out together). */
    a->from_rank = reason == GS_ABORT_TIMEOUT ? k : from != 0 ? from - 1u : GS_MULTI_NONE;
    if (line[GS_ABORT_STRAY] != 0) {
        a->stray = 1;
        a->stray_group = line[GS_ABORT_STRAY] - 1u;
        a->stray_item = line[GS_ABORT_STRAY_ITEM];
    }
    if ((s = read_words(m, k, GS_MULTI_LINE_FLAGS(m->groups), slots, GS_LINE_WORDS)) != GS_OK ||
        (s = groups_behind(m, k, &a->missing_groups, a->first_missing_group)) != GS_OK)
        return s;
    a->missing_ranks = behind(slots, m->ranks, 1, a->first_missing_rank);
    unsigned late = a->first_missing_rank[0], n = 0, first[8];
    if (a->missing_ranks > 0 && m->rank[late].dev &&
        (s = groups_behind(m, late, &n, first)) == GS_OK && n > 0)
        a->missing_group = first[0];
    return s == GS_OK ? GS_ERR_TIMEOUT : s;
}

gs_status gs_multi_collect(gs_multi *m, gs_status *statuses)
{
    if (!m)
        return GS_ERR_INVALID_ARGUMENT;
    gs_status ended[GS_MULTI_MAX_DEVICES], first = GS_OK;
    for (unsigned k = 0; k < m->ranks; ++k) {
        gs_multi_rank *r = &m->rank[k];
        ended[k] = GS_OK;
        if (r->pending) {
            ended[k] = r->wait(r);
            r->pending = NULL;
        }
    }
    for (unsigned k = 0; k < m->ranks; ++k) {
        gs_multi_rank *r = &m->rank[k];
        gs_status s = r->dev ? verdict(m, k, ended[k]) : GS_ERR_UNSUPPORTED;
        if (statuses)
            statuses[k] = s;
        if (!r->dev)
            continue;
        if (s != GS_OK && r->launched)
            m->aborted = 1; /* the ranks stopped at different episodes */
        if (first == GS_OK)
            first = s;
        if (r->launched) {
            r->launched = 0;
            atomic_store(&r->busy, 0);
        }
    }
    return first;
}

gs_status gs_multi_launch_each(gs_multi *m,
                               gs_status (*launch)(gs_multi *m, unsigned rank, void *ctx),
                               void *ctx, gs_status *statuses)
{
    gs_status refused = GS_OK;
    unsigned k = 0;
    for (; k < m->ranks && refused == GS_OK; ++k)
        if (m->rank[k].dev)
            refused = launch(m, k, ctx);
    gs_status s = gs_multi_collect(m, statuses);
    if (refused == GS_OK)
        return s;
    if (statuses)
        statuses[k - 1] = refused;
    return refused;
}
