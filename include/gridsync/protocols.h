/* gridsync/protocols.h - the one list of gridsync's protocols.
 *
 * Everything that names a protocol is generated from these X-macros: the device ids
 * (gridsync/state.h), the host's enum gs_algo and its names (gridsync.h, status.c), the
 * per-protocol device API gs_grid_begin_<p> / gs_sync_<p> / gs_arrive_<p> /
 * gs_wait_token_<p> (gridsync/barrier.h), the run-time dispatch of gs_sync, which back
 * end runs which protocol, the built-in kernels and the OpenCL embed list (CMake reads
 * GS_PROTOCOLS_SHARED below). tests/test_protocol_list.c checks the rest against it.
 *
 * Columns: X(ID, name, value, "text name", "description"): ID makes GS_ALGO_<ID> and
 * GS_ALGO_ID_<ID>, name the functions and the file barrier_<name>.h (.cuh), value is the
 * stable number, the text name is what gs_algo_name() and the CLI say.
 * Plain C preprocessor, so OpenCL C reads it too. */
#ifndef GRIDSYNC_PROTOCOLS_H
#define GRIDSYNC_PROTOCOLS_H

/* Written once in the common subset of C11, CUDA C and OpenCL C (barrier_<name>.h): they
 * run on every back end. In dependency order (tree builds on flip). */
#define GS_PROTOCOLS_SHARED(X)                                                           \
    X(CENTRAL, central, 0, "central", "thesis CB: one counter, every group polls it")    \
    X(LOCKFREE, lockfree, 1, "lockfree", "Xiao & Feng / thesis DCB: flags and a master") \
    X(NAIVE, naive, 2, "naive", "blog globalSync1: one atomic per work-item")            \
    X(FLIP, flip, 3, "flip", "never-reset counter with a flip bit")                      \
    X(TREE, tree, 4, "tree", "two-level flip counters")                                  \
    X(SHARDED, sharded, 9, "sharded", "central over K counters polled in parallel")

/* CUDA only (barrier_<name>.cuh). */
#define GS_PROTOCOLS_CUDA(X)                                                           \
    X(CLUSTER, cluster, 6, "cluster", "Hopper cluster barrier, one arrival a cluster") \
    X(CG, cg, 7, "cg", "cooperative_groups grid.sync(): cannot time out")

/* No device protocol of its own: the host ends the kernel between phases (built-in
 * programs only), or chooses a protocol for the grid. */
#define GS_PROTOCOLS_HOST(X)                                                           \
    X(RELAUNCH, relaunch, 5, "relaunch", "end the kernel, launch the next")            \
    X(RELAUNCH_GRAPH, relaunch_graph, 8, "relaunch-graph", "relaunch in a CUDA graph") \
    X(AUTO, auto, 10, "auto", "flip or tree, the faster one for the grid")

#define GS_PROTOCOLS_ALL(X) GS_PROTOCOLS_SHARED(X) GS_PROTOCOLS_CUDA(X) GS_PROTOCOLS_HOST(X)

/* The number of values: one more than the largest. */
#define GS_PROTOCOL_VALUES 11

/* `auto` chooses between these two (at most a two-way choice on the device): flip up to
 * GS_AUTO_FLIP_PER_CU groups per compute unit, the tree above. Barriers alone (bench
 * groups) favour flip at 1, 2 and 4 blocks of 256 per SM on H100 and H200 (at 4: 1444
 * against 1891 ns per barrier on an H100) and put the two level at 8 on the H100 (2102,
 * 2092) with the tree 10% ahead on the H200 (1998, 1805); but in the user's Jacobi kernel
 * at 8 per SM flip was the faster at 512^2, 4096^2 and 8192^2 on both (512^2: 57.45
 * against 58.74 ms on the H100, 52.98 against 54.39 on the H200) and the slower only at
 * 1024^2 (25.84 against 25.31, 22.17 against 22.11; bench/results/<gpu>/fourteenth/
 * jacobi_final.csv). Above 8 per SM (smaller blocks) the tree is far ahead: 2241 against
 * 2915 ns at 16 blocks of 64 per SM on the H100, 2675 against 4744 at 32 (groups64.csv). */
#define GS_AUTO_FLIP_PER_CU 8u

#endif
