/* src/common/place.c - the rule of a flip state's placement (place.h). */
#include "place.h"

#include "internal.h"
#include "knobs.h"

unsigned gs_place_candidates(size_t bytes, size_t state_bytes, unsigned lines)
{
    if (bytes < state_bytes)
        return 0u;
    size_t room = (bytes - state_bytes) / GS_LINE_BYTES + 1u; /* starts the buffer holds */
    if (lines > room)
        lines = (unsigned)room;
    return lines < GS_PLACE_LINES_MAX ? lines : GS_PLACE_LINES_MAX;
}

unsigned gs_place_choose(const float *cycles, unsigned passes, unsigned lines)
{
    unsigned chosen = 0u;
    float chosen_fewest = 0.0f;
    if (cycles == NULL)
        return 0u;
    for (unsigned k = 0; k < lines; ++k) {
        float fewest = 0.0f;
        for (unsigned p = 0; p < passes; ++p) {
            float c = cycles[(size_t)p * lines + k];
            if (!(c > 0.0f)) /* could not run (or NaN): no choice at all */
                return 0u;
            if (fewest == 0.0f || c < fewest)
                fewest = c;
        }
        if (k == 0u || fewest < chosen_fewest) {
            chosen = k;
            chosen_fewest = fewest;
        }
    }
    return chosen;
}
