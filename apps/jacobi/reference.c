/* The initial grid and the sequential reference every method is checked against. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jacobi.h"
#include "jacobi_step.h"

/* A 32-bit mix of the seed and the cell index (the finaliser of MurmurHash3): every
 * cell's value depends on both, none on the order cells are made in. */
static uint32_t mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x *= 0xc2b2ae35u;
    x ^= x >> 16;
    return x;
}

void gsj_initial(unsigned n, unsigned seed, float *out)
{
    size_t cells = (size_t)n * n;
    for (size_t c = 0; c < cells; ++c) /* 24 bits: exactly representable in [0, 1) */
        out[c] = (float)(mix((uint32_t)c ^ mix(seed + 0x9e3779b9u)) >> 8) * (1.0f / 16777216.0f);
}

/* One iteration from a into b, row by row; the edges of b are never written, so both
 * buffers must start with the edges. The inner loop vectorises without reordering any
 * cell's arithmetic. */
static void iterate(const float *restrict a, float *restrict b, unsigned n)
{
    for (unsigned i = 1; i + 1 < n; ++i) {
        const float *up = a + (size_t)(i - 1) * n, *row = a + (size_t)i * n,
                    *down = a + (size_t)(i + 1) * n;
        float *out = b + (size_t)i * n;
        for (unsigned j = 1; j + 1 < n; ++j)
            out[j] = GSJ_AVERAGE(row[j - 1], row[j + 1], up[j], down[j]);
    }
}

gs_status gsj_reference(unsigned n, unsigned iters, unsigned seed, float *out)
{
    if (out == NULL || n < GSJ_MIN_N || n > GSJ_MAX_N || iters == 0)
        return GS_ERR_INVALID_ARGUMENT;
    size_t cells = (size_t)n * n;
    float *other = malloc(cells * sizeof *other);
    if (other == NULL)
        return GS_ERR_OUT_OF_MEMORY;
    /* The result lands in `out` after the last iteration: start in the buffer that
     * makes it so. */
    float *a = iters % 2 ? other : out, *b = iters % 2 ? out : other;
    gsj_initial(n, seed, a);
    memcpy(b, a, cells * sizeof *b);
    for (unsigned t = 0; t < iters; ++t) {
        iterate(a, b, n);
        float *s = a;
        a = b;
        b = s;
    }
    free(other);
    return GS_OK;
}

uint64_t gsj_compare(const float *a, const float *b, size_t cells, double *max_abs_diff)
{
    uint64_t differ = 0;
    double worst = 0.0;
    for (size_t c = 0; c < cells; ++c) {
        if (a[c] == b[c])
            continue;
        ++differ;
        double d = fabs((double)a[c] - (double)b[c]);
        if (isnan(d)) /* a NaN counts as the worst */
            worst = INFINITY;
        else if (d > worst)
            worst = d;
    }
    if (max_abs_diff)
        *max_abs_diff = worst;
    return differ;
}
