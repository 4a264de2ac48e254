/* The starting values and the sequential reference every method is checked against. */
#include <stdlib.h>
#include <string.h>

#include "stencil.h"
#include "stencil_step.h"

void gss_initial(unsigned n, unsigned seed, uint32_t *out)
{
    uint32_t x = seed * 2654435761u + 1u;
    for (unsigned i = 0; i < n; ++i) {
        x ^= x << 13; /* xorshift32: a start on which a lost barrier shows in every element */
        x ^= x >> 17;
        x ^= x << 5;
        out[i] = seed ? x : 1u;
    }
}

gs_status gss_reference(unsigned n, unsigned iters, unsigned seed, uint32_t *out)
{
    if (out == NULL || n < GSS_MIN_N || n > GSS_MAX_N || iters == 0)
        return GS_ERR_INVALID_ARGUMENT;
    uint32_t *tmp = malloc((size_t)n * sizeof *tmp);
    if (tmp == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    gss_initial(n, seed, out);
    for (unsigned t = 0; t < iters; ++t) { /* the two phases, one after the other */
        gss_read_all(out, tmp, n, 0, 1);
        memcpy(out, tmp, (size_t)n * sizeof *out);
    }
    free(tmp);
    return GS_OK;
}
