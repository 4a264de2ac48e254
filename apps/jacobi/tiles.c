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

size_t gsj_resident_bytes(unsigned n, unsigned groups)
{
    unsigned gx, gy;
    if (n < GSJ_MIN_N || groups == 0)
        return 0;
    gsj_tiling(groups, &gx, &gy);
    unsigned rows = (n - 2u + gy - 1u) / gy, cols = (n - 2u + gx - 1u) / gx; /* the largest */
    return (size_t)gsj_resident_floats(rows, cols) * sizeof(float);
}

unsigned gsj_local_bands(unsigned n, unsigned groups)
{
    return n < GSJ_MIN_N ? 0u : groups < n - 2u ? groups : n - 2u;
}

unsigned gsj_halo_stride(unsigned n, unsigned groups)
{
    unsigned gx, gy;
    if (n < GSJ_MIN_N || groups == 0)
        return 0;
    gsj_tiling(groups, &gx, &gy);
    unsigned rows = (n - 2u + gy - 1u) / gy, cols = (n - 2u + gx - 1u) / gx; /* the largest */
    return rows > cols ? rows : cols;
}

uint64_t gsj_halo_words(unsigned n, unsigned groups)
{
    return (uint64_t)groups * 8u * gsj_halo_stride(n, groups);
}
