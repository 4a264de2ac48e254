/* gs_libsync's loop compiled for cg alone (gs_sync_cg): no run-time dispatch. */
#define LIBSYNC_PROTOCOL cg
#define LIBSYNC_KERNEL k_sync_only_cg
#define LIBSYNC_ACCESSOR libsync_only_cg
#include "libsync_kernel.cuh"
