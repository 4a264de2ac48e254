/* src/common/options.c - a barrier's options: an explicit field, else the environment
 * (knobs.h), else GS_OPTION_DEFAULT, which barrier.c turns into its measured choice. */
#include <stddef.h>
#include <string.h>

#include "internal.h"
#include "knobs.h"

/* gridsync.h's public values are the state header's (GS_HDR_RELEASE). */
_Static_assert(GS_BARRIER_RELEASE_POLL == GS_RELEASE_POLL, "release values");
_Static_assert(GS_BARRIER_RELEASE_LINES == GS_RELEASE_LINES, "release values");

/* Each field and the knob that is its environment variable and its range. */
static const struct {
    size_t offset;
    gs_knob knob;
} fields[] = {
    {offsetof(gs_barrier_options, timeout_ms), GS_KNOB_TIMEOUT_MS},
    {offsetof(gs_barrier_options, release), GS_KNOB_RELEASE},
    {offsetof(gs_barrier_options, release_lines), GS_KNOB_RELEASE_LINES},
    {offsetof(gs_barrier_options, tree_fanout), GS_KNOB_TREE_FANOUT},
    {offsetof(gs_barrier_options, backoff_ns), GS_KNOB_BACKOFF_NS},
    {offsetof(gs_barrier_options, backoff_cap_ns), GS_KNOB_BACKOFF_CAP_NS},
    {offsetof(gs_barrier_options, shards), GS_KNOB_SHARDS},
    {offsetof(gs_barrier_options, first_poll_ns), GS_KNOB_FIRST_POLL_NS},
};

void gs_barrier_options_init(gs_barrier_options *o)
{
    if (!o)
        return;
    for (unsigned i = 0; i < sizeof fields / sizeof *fields; ++i)
        *(unsigned *)((char *)o + fields[i].offset) = GS_OPTION_DEFAULT;
}

/* GRIDSYNC_RELEASE takes names, not numbers. */
static int env_release(unsigned *out)
{
    const char *env = gs_knob_text(GS_KNOB_RELEASE);
    if (env && strcmp(env, "poll") == 0)
        *out = GS_RELEASE_POLL;
    else if (env && strcmp(env, "lines") == 0)
        *out = GS_RELEASE_LINES;
    else
        return 0;
    return 1;
}

gs_status gs_barrier_options_resolve(const gs_barrier_options *o, unsigned groups,
                                     gs_barrier_options *r)
{
    gs_barrier_options_init(r);
    for (unsigned i = 0; i < sizeof fields / sizeof *fields; ++i) {
        gs_knob k = fields[i].knob;
        unsigned *dst = (unsigned *)((char *)r + fields[i].offset);
        unsigned v =
            o ? *(const unsigned *)((const char *)o + fields[i].offset) : GS_OPTION_DEFAULT;
        if (v != GS_OPTION_DEFAULT) {
            if (!gs_knob_in_range(k, v))
                return GS_ERR_INVALID_ARGUMENT;
            *dst = v;
        } else if (k == GS_KNOB_RELEASE ? env_release(&v) : gs_knob_uint(k, &v)) {
            *dst = v;
        }
    }
    /* More counters than groups: the option is a mistake, the variable (set for a whole
     * run of differently sized grids) only does not apply. */
    if (r->shards != GS_OPTION_DEFAULT && r->shards > groups) {
        if (o && o->shards != GS_OPTION_DEFAULT)
            return GS_ERR_INVALID_ARGUMENT;
        r->shards = GS_OPTION_DEFAULT;
    }
    return GS_OK;
}
