/* gs_libsync's loop compiled for cg alone (GS_ONLY_ALGO): no run-time dispatch. */
#define GS_ONLY_ALGO GS_ALGO_ID_CG
#define LIBSYNC_KERNEL k_sync_only_cg
#define LIBSYNC_ACCESSOR libsync_only_cg
#include "libsync_kernel.cuh"
