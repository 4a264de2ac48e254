/* The initial grid and the sequential reference every scheme is checked against. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sor.h"

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

void gsr_initial(unsigned n, unsigned seed, float *out)
{
    size_t cells = (size_t)n * n;
    for (size_t c = 0; c < cells; ++c) /* 24 bits: exactly representable in [0, 1) */
        out[c] = (float)(mix((uint32_t)c ^ mix(seed + 0x7f4a7c15u)) >> 8) * (1.0f / 16777216.0f);
}

/* S lexicographic sweeps in place: row by row, left to right, so u[i-1][j] and
 * u[i][j-1] already hold this sweep's values and u[i+1][j], u[i][j+1] the last one's. */
gs_status gsr_reference(unsigned n, unsigned sweeps, float omega, unsigned seed, float *out)
{
    if (out == NULL || n < GSR_MIN_N || n > GSR_MAX_N || sweeps == 0)
        return GS_ERR_INVALID_ARGUMENT;
    const float a = 1.0f - omega, b = omega * 0.25f; /* as gsr_run passes them */
    gsr_initial(n, seed, out);
    for (unsigned s = 0; s < sweeps; ++s)
        for (size_t i = 1; i + 1 < n; ++i) {
            float *row = out + i * n;
            const float *up = row - n, *down = row + n;
            for (size_t j = 1; j + 1 < n; ++j)
                row[j] = GSR_UPDATE(row[j], up[j], row[j - 1], down[j], row[j + 1], a, b);
        }
    return GS_OK;
}

uint64_t gsr_compare(const float *a, const float *b, size_t cells, double *max_abs_diff)
{
    uint64_t differ = 0;
    double worst = 0.0;
    for (size_t c = 0; c < cells; ++c) {
        if (memcmp(&a[c], &b[c], sizeof *a) == 0) /* bit for bit: -0 is not 0 here */
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
