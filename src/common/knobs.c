/* src/common/knobs.c - reading the environment variables of knobs.h's table. */
#include "knobs.h"

#include <stdlib.h>

static const struct {
    const char *var;
    unsigned long lo, hi;
} knobs[GS_KNOB_COUNT_] = {
#define GS_KNOB_ROW_(ID, var, lo, hi, def, meaning) {var, lo, hi},
    GS_KNOBS(GS_KNOB_ROW_)
#undef GS_KNOB_ROW_
};

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
