/* src/common/knobs.c - reading the environment variables of knobs.h's table. */
#include "knobs.h"

#include <stdlib.h>
#include <string.h>

#include "gridsync.h"

static const struct {
    const char *var;
    unsigned long lo, hi;
    const char *range; /* "lo to hi", what a number knob takes */
} knobs[GS_KNOB_COUNT_] = {
#define GS_KNOB_ROW_(ID, var, lo, hi, def, meaning) \
    {var, lo, hi, GS_KNOB_STR(lo) " to " GS_KNOB_STR(hi)},
    GS_KNOBS(GS_KNOB_ROW_)
#undef GS_KNOB_ROW_
};

/* The knobs that take names (their min and max are the values the names map to). */
static const char *takes_names(gs_knob k)
{
    switch (k) {
    case GS_KNOB_BACKEND: return "auto, cpu, opencl or cuda";
    case GS_KNOB_RELEASE: return "poll or lines";
    default: return NULL;
    }
}

static int name_is_good(gs_knob k, const char *v)
{
    gs_backend b;
    if (k == GS_KNOB_BACKEND)
        return gs_backend_from_name(v, &b) == GS_OK;
    return strcmp(v, "poll") == 0 || strcmp(v, "lines") == 0;
}

gs_status gs_environment_check(const char **variable, const char **takes)
{
    if (!variable || !takes)
        return GS_ERR_INVALID_ARGUMENT;
    *variable = *takes = NULL;
    for (unsigned k = 0; k < GS_KNOB_COUNT_; ++k) {
        const char *v = gs_knob_text((gs_knob)k);
        unsigned n;
        if (!v || (knobs[k].lo == 0 && knobs[k].hi == 0)) /* unset, or text of any kind */
            continue;
        if (takes_names((gs_knob)k) ? name_is_good((gs_knob)k, v)
                                    : (*v >= '0' && *v <= '9' && gs_knob_uint((gs_knob)k, &n)))
            continue;
        *variable = knobs[k].var;
        *takes = takes_names((gs_knob)k) ? takes_names((gs_knob)k) : knobs[k].range;
        return GS_ERR_INVALID_ARGUMENT;
    }
    return GS_OK;
}

const char *gs_knob_text(gs_knob k)
{
    const char *env = (unsigned)k < GS_KNOB_COUNT_ ? getenv(knobs[k].var) : NULL;
    return env && *env ? env : NULL;
}

int gs_knob_in_range(gs_knob k, unsigned v)
{
    return (unsigned)k < GS_KNOB_COUNT_ && v >= knobs[k].lo && v <= knobs[k].hi;
}

int gs_knob_uint(gs_knob k, unsigned *out)
{
    const char *env = gs_knob_text(k);
    char *end;
    unsigned long v;
    if (!env)
        return 0;
    v = strtoul(env, &end, 10);
    /* v > UINT_MAX (or a wrapped negative) is above every range, so the cast is safe */
    if (*end != '\0' || v < knobs[k].lo || v > knobs[k].hi)
        return 0;
    *out = (unsigned)v;
    return 1;
}
