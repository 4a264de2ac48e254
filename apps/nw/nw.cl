/* apps/nw/nw.cl - the app's OpenCL kernels. The program the app builds is
 * gs_opencl_device_source() (gridsync's shim, protocols and local.h), then nw_tile.h,
 * then this file (cmake/embed_text.cmake joins the last two: no #include here), with
 * -DNW_B=16, 32 or 64: the group memory is sized at build time. Launches are 1-D, a
 * group of NW_B work-items per tile. */

/* One anti-diagonal per launch (Rodinia's structure): groups stride over its tiles. */
__kernel void nw_relaunch(__global int *m, __global int *edge, __global const uchar *s1,
                          __global const uchar *s2, __global const int *blosum, uint n, uint d)
{
    __local int mem[NW_GROUP_WORDS(NW_B)];
    nw_ctx c = nw_begin(m, edge, s1, s2, blosum, mem, n, NW_B, (uint)get_local_id(0));
    nw_diagonal(&c, d, (uint)get_group_id(0), (uint)get_num_groups(0));
}

/* Every diagonal in one launch of co-resident groups, protocol p's grid barrier between
 * two (none after the last: the kernel's end orders it). */
#define NW_CL_GLOBAL(p)                                                                       \
    __kernel void nw_global_##p(__global gs_word *state, __global int *m, __global int *edge, \
                                __global const uchar *s1, __global const uchar *s2,           \
                                __global const int *blosum, uint n)                           \
    {                                                                                         \
        __local int mem[NW_GROUP_WORDS(NW_B)];                                                \
        nw_ctx c = nw_begin(m, edge, s1, s2, blosum, mem, n, NW_B, (uint)get_local_id(0));    \
        gs_grid g = gs_grid_begin_##p(state);                                                 \
        for (uint d = 0u;; ++d) {                                                             \
            nw_diagonal(&c, d, (uint)get_group_id(0), (uint)get_num_groups(0));               \
            if (d + 2u == 2u * c.R || gs_sync_##p(&g) != 0u)                                  \
                return; /* done, or a wait gave up: the launch reports it */                  \
        }                                                                                     \
    }
#define NW_CL_GLOBAL_X(ID, name, value, text, desc) NW_CL_GLOBAL(name)
GS_PROTOCOLS_SHARED(NW_CL_GLOBAL_X)
NW_CL_GLOBAL(auto)

/* Any number of groups, tiles by ticket (nw_local). */
__kernel void nw_local_kernel(__global gs_word *state, __global int *m, __global int *edge,
                              __global const uchar *s1, __global const uchar *s2,
                              __global const int *blosum, uint n, uint flags, uint k, uint silent)
{
    __local int mem[NW_GROUP_WORDS(NW_B)];
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(state, scratch);
    nw_ctx c = nw_begin(m, edge, s1, s2, blosum, mem, n, NW_B, (uint)get_local_id(0));
    nw_local(&c, &L, flags, k, silent);
}

#if defined(GS_HAVE_WORD64)
/* Any number of groups, tiles by ticket, boundaries in tagged words (nw_tagged); only
 * where the device has 64-bit atomics (the host asks before it looks the kernel up). */
__kernel void nw_tagged_kernel(__global gs_word *state, __global int *m, __global int *edge,
                               __global const uchar *s1, __global const uchar *s2,
                               __global const int *blosum, uint n, uint silent)
{
    __local int mem[NW_GROUP_WORDS(NW_B)];
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(state, scratch);
    nw_ctx c = nw_begin(m, edge, s1, s2, blosum, mem, n, NW_B, (uint)get_local_id(0));
    nw_tagged(&c, &L, silent);
}
#endif
