/* apps/stencil/stencil_step.h - the two phases of one iteration for one work-item, in
 * the common subset of C11, CUDA C++ and OpenCL C, so every method of every back end
 * computes with the same code and differs only in what separates the phases. */
#ifndef GSS_STENCIL_STEP_H
#define GSS_STENCIL_STEP_H

#if defined(__OPENCL_VERSION__)
#define GSS_FN inline
#define GSS_GLOBAL __global
#elif defined(__CUDACC__)
#define GSS_FN static __device__ __forceinline__
#define GSS_GLOBAL
#else
#define GSS_FN static inline
#define GSS_GLOBAL
#endif

/* (i + k) mod n for i < n, k <= 2 <= n: a compare, not a division (the blog's & (N-1)
 * needs a power of two). */
#define GSS_WRAP(i, k, n) ((i) + (k) < (n) ? (i) + (k) : (i) + (k) - (n))

GSS_FN unsigned gss_sum(const GSS_GLOBAL unsigned *a, unsigned i, unsigned n)
{
    return a[i] + a[GSS_WRAP(i, 1u, n)] + a[GSS_WRAP(i, 2u, n)];
}

/* The read phase into the buffer, every element of this work-item (the relaunch
 * baselines always take this one: a kernel's end loses its registers). */
GSS_FN void gss_read_all(const GSS_GLOBAL unsigned *a, GSS_GLOBAL unsigned *tmp, unsigned n,
                         unsigned first, unsigned stride)
{
    for (unsigned i = first; i < n; i += stride)
        tmp[i] = gss_sum(a, i, n);
}

GSS_FN void gss_write_all(GSS_GLOBAL unsigned *a, const GSS_GLOBAL unsigned *tmp, unsigned n,
                          unsigned first, unsigned stride)
{
    for (unsigned i = first; i < n; i += stride)
        a[i] = tmp[i];
}

/* The persistent kernels' read phase: with at most one element per work-item (the
 * blog's case) the sum stays in a register across the barrier and is returned; with
 * more, the sums go to tmp. */
GSS_FN unsigned gss_read(const GSS_GLOBAL unsigned *a, GSS_GLOBAL unsigned *tmp, unsigned n,
                         unsigned first, unsigned stride)
{
    if (n <= stride)
        return first < n ? gss_sum(a, first, n) : 0u;
    gss_read_all(a, tmp, n, first, stride);
    return 0u;
}

GSS_FN void gss_write(GSS_GLOBAL unsigned *a, const GSS_GLOBAL unsigned *tmp, unsigned n,
                      unsigned first, unsigned stride, unsigned held)
{
    if (n > stride)
        gss_write_all(a, tmp, n, first, stride);
    else if (first < n)
        a[first] = held;
}

#endif
