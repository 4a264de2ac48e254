/* How the app deals the interior among groups: the split and resident forms' tiles, the
 * resident form's group memory, the local form's bands. No back end needed (the
 * micro-benchmark bench/micro/jacobi_barriers.cu builds it alone). */
#include "jacobi.h"
#include "jacobi_step.h"
#include "jacobi_resident.h"

/* The interior is square: the divisor of `groups` nearest its square root from below. */
void gsj_tiling(unsigned groups, unsigned *gx, unsigned *gy)
{
    unsigned best = 1;
    for (unsigned d = 1; groups && d <= groups / d; ++d)
        if (groups % d == 0)
            best = d;
    *gx = best;
    *gy = groups ? groups / best : 0;
}

/* The largest tile of gsj_tiling's for `groups` over an n x n grid's interior: 0 where
 * there is none. */
static int largest_tile(unsigned n, unsigned groups, unsigned *rows, unsigned *cols)
{
    unsigned gx, gy;
    if (n < GSJ_MIN_N || groups == 0)
        return 0;
    gsj_tiling(groups, &gx, &gy);
    *rows = (n - 2u + gy - 1u) / gy;
    *cols = (n - 2u + gx - 1u) / gx;
    return 1;
}

size_t gsj_resident_bytes(unsigned n, unsigned groups)
{
    unsigned rows, cols;
    return largest_tile(n, groups, &rows, &cols)
               ? (size_t)gsj_resident_floats(rows, cols) * sizeof(float)
               : 0;
}

unsigned gsj_local_bands(unsigned n, unsigned groups)
{
    return n < GSJ_MIN_N ? 0u : groups < n - 2u ? groups : n - 2u;
}

unsigned gsj_halo_stride(unsigned n, unsigned groups)
{
    unsigned rows, cols;
    return largest_tile(n, groups, &rows, &cols) ? (rows > cols ? rows : cols) : 0;
}

uint64_t gsj_halo_words(unsigned n, unsigned groups)
{
    return (uint64_t)groups * 8u * gsj_halo_stride(n, groups);
}
