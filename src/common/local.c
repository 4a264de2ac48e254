/* src/common/local.c - local synchronization's state on the host (gridsync/host_local.h):
 * written once over the back ends' memory operations. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "knobs.h"

#include "gridsync/local_state.h"

/* The header's timeout and back-off (the words gridsync/grid.h's bounded wait reads). */
#define GS_LOCAL_BACKOFF_NS 32u

/* The bound in the device's units, as the header's two words. */
static void bound_words(gs_local *L, uint32_t *lo_hi)
{
    uint64_t units = L->dev->ops->timeout_units(L->dev, L->timeout_ms);
    lo_hi[0] = (uint32_t)units;
    lo_hi[1] = (uint32_t)(units >> 32);
}

/* The 32-bit words the epoch's wrap clears: the progress and tagged words' lines. */
static unsigned clear_words(const gs_local *L)
{
    return (GS_LOCAL_STATE_LINES(L->words, L->tagged) - GS_LOCAL_LINE_WORDS) * GS_LINE_WORDS;
}

/* A new state's header: epoch 0, so that the first prepare clears the words. */
static gs_status write_header(gs_local *L)
{
    uint32_t hdr[GS_LINE_WORDS] = {0};
    hdr[GS_HDR_MAGIC] = GS_LOCAL_MAGIC;
    bound_words(L, &hdr[GS_HDR_TIMEOUT_LO]);
    hdr[GS_HDR_BACKOFF] = GS_LOCAL_BACKOFF_NS;
    hdr[GS_HDR_BACKOFF_CAP] = GS_DEFAULT_BACKOFF_CAP_NS;
    hdr[GS_HDR_LOCAL_WORDS] = L->words;
    hdr[GS_HDR_LOCAL_TAGGED] = L->tagged;
    return L->dev->ops->mem_write(L->dev, L->state, 0, hdr, sizeof hdr);
}

static gs_status read_words(gs_local *L, unsigned line, unsigned first, uint32_t *dst, unsigned n)
{
    return L->dev->ops->mem_read(L->dev, L->state, GS_WORD(line, first) * 4u, dst, n * 4u);
}

gs_status gs_local_create_tagged(gs_device *dev, unsigned words, unsigned tagged, gs_local **out)
{
    if (!out)
        return GS_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!dev || (words == 0 && tagged == 0) || words > GS_LOCAL_MAX_WORDS ||
        tagged > GS_LOCAL_MAX_TAGGED)
        return GS_ERR_INVALID_ARGUMENT;
    if (tagged > 0 && !dev->info.has_word64) /* no 64-bit atomics to put and get them */
        return GS_ERR_UNSUPPORTED;
    gs_local *L = calloc(1, sizeof *L);
    if (!L)
        return GS_ERR_OUT_OF_MEMORY;
    L->dev = dev;
    L->words = words;
    L->tagged = tagged;
    L->timeout_ms = GS_DEFAULT_TIMEOUT_MS;
    (void)gs_knob_uint(GS_KNOB_TIMEOUT_MS, &L->timeout_ms);
    L->bytes = (size_t)GS_LOCAL_STATE_LINES(words, tagged) * GS_LINE_BYTES;
    gs_status s = dev->ops->mem_alloc(dev, L->bytes, &L->state); /* zeroed */
    if (s == GS_OK)
        s = write_header(L);
    if (s != GS_OK) {
        if (L->state)
            dev->ops->mem_free(dev, L->state);
        free(L);
        return s;
    }
    gs_device_hold(dev);
    *out = L;
    return GS_OK;
}

gs_status gs_local_create(gs_device *dev, unsigned words, gs_local **out)
{
    if (out && words == 0) /* a state of tagged words alone is gs_local_create_tagged's */
        *out = NULL;
    return words == 0 ? GS_ERR_INVALID_ARGUMENT : gs_local_create_tagged(dev, words, 0, out);
}

gs_status gs_local_create_with(gs_device *dev, unsigned words, unsigned tagged, unsigned timeout_ms,
                               gs_local **out)
{
    if (out && timeout_ms > 3600000u) /* found before anything is allocated */
        *out = NULL;
    if (timeout_ms > 3600000u)
        return GS_ERR_INVALID_ARGUMENT;
    gs_status s = gs_local_create_tagged(dev, words, tagged, out);
    if (s == GS_OK && timeout_ms && (s = gs_local_set_timeout(*out, timeout_ms)) != GS_OK) {
        gs_local_destroy(*out);
        *out = NULL;
    }
    return s;
}

gs_status gs_local_destroy(gs_local *L)
{
    if (!L)
        return GS_ERR_INVALID_ARGUMENT;
    L->dev->ops->mem_free(L->dev, L->state);
    gs_device_release(L->dev);
    free(L);
    return GS_OK;
}

gs_status gs_local_set_timeout(gs_local *L, unsigned milliseconds)
{
    if (!L || milliseconds == 0 || milliseconds > 3600000u)
        return GS_ERR_INVALID_ARGUMENT;
    uint32_t lo_hi[2];
    L->timeout_ms = milliseconds;
    bound_words(L, lo_hi);
    return L->dev->ops->mem_write(L->dev, L->state, GS_HDR_TIMEOUT_LO * 4u, lo_hi, sizeof lo_hi);
}

gs_status gs_local_get_timeout(const gs_local *L, unsigned *milliseconds)
{
    if (!L || !milliseconds)
        return GS_ERR_INVALID_ARGUMENT;
    *milliseconds = L->timeout_ms;
    return GS_OK;
}

gs_status gs_local_get_words(const gs_local *L, unsigned *words, size_t *bytes)
{
    if (!L || (!words && !bytes))
        return GS_ERR_INVALID_ARGUMENT;
    if (words)
        *words = L->words;
    if (bytes)
        *bytes = L->bytes;
    return GS_OK;
}

gs_status gs_local_get_tagged(const gs_local *L, unsigned *tagged)
{
    if (!L || !tagged)
        return GS_ERR_INVALID_ARGUMENT;
    *tagged = L->tagged;
    return GS_OK;
}

gs_status gs_local_native(const gs_local *L, void **out)
{
    if (!L || !out)
        return GS_ERR_INVALID_ARGUMENT;
    *out = L->dev->ops->mem_native(L->state);
    return GS_OK;
}

static gs_status sync_stream(gs_local *L, void *stream)
{
    return L->dev->ops->stream_sync ? L->dev->ops->stream_sync(L->dev, stream) : GS_OK;
}

/* Where no kernel does it in the stream's order: the same steps as the CUDA back end's
 * prepare kernel (src/cuda/kernel_local.cu), from the host once the stream is idle. */
static gs_status prepare_from_host(gs_local *L, void *stream)
{
    uint32_t epoch = 0, zero[GS_LINE_WORDS] = {0};
    gs_status s = sync_stream(L, stream);
    if (s == GS_OK)
        s = read_words(L, 0, GS_HDR_LOCAL_EPOCH, &epoch, 1);
    if (s != GS_OK)
        return s;
    epoch = GS_LOCAL_NEXT_EPOCH(epoch);
    if (epoch == 1u) {
        size_t n = (size_t)clear_words(L) * 4u;
        void *zeros = calloc(1, n);
        if (!zeros)
            return GS_ERR_OUT_OF_MEMORY;
        s = L->dev->ops->mem_write(L->dev, L->state, GS_WORD(GS_LOCAL_LINE_WORDS, 0) * 4u, zeros,
                                   n);
        free(zeros);
    }
    if (s == GS_OK)
        s = L->dev->ops->mem_write(L->dev, L->state, GS_WORD(GS_LINE_ABORT, 0) * 4u, zero,
                                   sizeof zero);
    if (s == GS_OK)
        s = L->dev->ops->mem_write(L->dev, L->state, GS_WORD(GS_LOCAL_LINE_TICKET, 0) * 4u, zero,
                                   sizeof zero);
    if (s == GS_OK)
        s = L->dev->ops->mem_write(L->dev, L->state, GS_HDR_LOCAL_EPOCH * 4u, &epoch, 4u);
    return s;
}

gs_status gs_local_prepare(gs_local *L, void *stream)
{
    if (!L)
        return GS_ERR_INVALID_ARGUMENT;
    memset(&L->abort, 0, sizeof L->abort);
    if (L->dev->ops->local_prepare)
        return L->dev->ops->local_prepare(L->dev, L->state, clear_words(L), stream);
    return prepare_from_host(L, stream);
}

gs_status gs_local_collect(gs_local *L, void *stream)
{
    if (!L)
        return GS_ERR_INVALID_ARGUMENT;
    uint32_t line[GS_ABORT_TAGGED + 1];
    gs_status s = sync_stream(L, stream);
    if (s == GS_OK)
        s = read_words(L, GS_LINE_ABORT, 0, line, GS_ABORT_TAGGED + 1);
    if (s != GS_OK)
        return s;
    memset(&L->abort, 0, sizeof L->abort);
    if (line[GS_ABORT_ACK] == 0u) {
        L->abort.reason = GS_ABORT_REASON_UNUSED;
        return GS_ERR_BAD_STATE;
    }
    if (line[GS_ABORT_REASON] == GS_ABORT_NONE)
        return GS_OK;
    L->abort.reason = (gs_abort_reason)line[GS_ABORT_REASON];
    L->abort.group = line[GS_ABORT_GROUP];
    L->abort.item = line[GS_ABORT_ITEM];
    L->abort.word = line[GS_ABORT_EPISODE];
    L->abort.awaited = line[GS_ABORT_AWAITED];
    L->abort.seen = line[GS_ABORT_SEEN];
    L->abort.tagged = line[GS_ABORT_TAGGED] != 0u;
    if (line[GS_ABORT_STRAY] != 0u) {
        L->abort.stray = 1;
        L->abort.stray_group = line[GS_ABORT_STRAY] - 1u;
        L->abort.stray_item = line[GS_ABORT_STRAY_ITEM];
    }
    return L->abort.reason == GS_ABORT_REASON_BAD_STATE ? GS_ERR_BAD_STATE : GS_ERR_TIMEOUT;
}

gs_status gs_local_abort_info(const gs_local *L, gs_local_abort *out)
{
    if (!L || !out)
        return GS_ERR_INVALID_ARGUMENT;
    *out = L->abort;
    return GS_OK;
}
