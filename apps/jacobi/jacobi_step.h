/* apps/jacobi/jacobi_step.h - one Jacobi iteration's share of one work-item, in the
 * common subset of C11, CUDA C++ and OpenCL C: every method of every back end (the
 * persistent kernels and the relaunch baselines) updates its cells with this function,
 * so they differ only in how iterations are separated.
 *
 * Cells are dealt round-robin over all work-items of the grid: work-item `first` of
 * `stride` takes interior cells first, first + stride, ... in row-major order of the
 * (n-2) x (n-2) interior. Neighbouring work-items take neighbouring cells (coalesced
 * on a GPU), every work-item of any grid gets work where there is any, and the row and
 * column advance by addition: no division per cell. */
#ifndef GSJ_JACOBI_STEP_H
#define GSJ_JACOBI_STEP_H

#if defined(__OPENCL_VERSION__)
#define GSJ_FN inline
#define GSJ_GLOBAL __global
#elif defined(__CUDACC__)
#define GSJ_FN static __device__ __forceinline__
#define GSJ_GLOBAL
#else
#define GSJ_FN static inline
#define GSJ_GLOBAL
#endif

/* The update, written once: the host reference uses the same order of operations, so
 * results compare exactly (no a * b + c in it, so no fused multiply-add can change it;
 * the scaling by 0.25f is exact). */
#define GSJ_AVERAGE(l, r, u, d) (0.25f * (((l) + (r)) + ((u) + (d))))

/* Only the cell index c and its column j advance, so a persistent kernel keeps few
 * registers for the sweep across its barriers. n <= GSJ_MAX_N keeps every index below
 * 2^31 and c + dc from wrapping. */
GSJ_FN void gsj_sweep(const GSJ_GLOBAL float *a, GSJ_GLOBAL float *b, unsigned n, unsigned first,
                      unsigned stride)
{
    unsigned w = n - 2u;         /* interior width */
    unsigned last = w * n + w;   /* the last interior cell, (n-2, n-2) */
    unsigned j = 1u + first % w; /* the column of cell `first` */
    unsigned c = (1u + first / w) * n + j;
    unsigned dj = stride % w, dc = (stride / w) * n + dj; /* stride cells on */
    for (; c <= last; c += dc) {
        b[c] = GSJ_AVERAGE(a[c - 1u], a[c + 1u], a[c - n], a[c + n]);
        j += dj;
        if (j > w) { /* past the row's end: one row down, w columns back (n - w = 2) */
            j -= w;
            c += 2u;
        }
    }
}

#endif
