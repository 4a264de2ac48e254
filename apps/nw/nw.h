/* apps/nw/nw.h - Needleman-Wunsch global alignment as Rodinia's `nw` computes it, written
 * as a gridsync user writes it (public headers only), with every way a user could order
 * the tiles of the wavefront:
 *
 *   NW_RELAUNCH        one launch per anti-diagonal of tiles (Rodinia's structure)
 *   NW_RELAUNCH_GRAPH  CUDA: those launches captured once into a CUDA graph, replayed
 *   NW_GLOBAL          one persistent kernel of co-resident groups, a gridsync grid
 *                      barrier (cfg.protocol, default auto) per anti-diagonal, groups
 *                      striding over the diagonal's tiles
 *   NW_CG              CUDA: the same kernel with cooperative groups' grid.sync()
 *   NW_LOCAL           one persistent kernel, any number of groups launched the ordinary
 *                      way, tiles handed out by gridsync/local.h tickets and ordered by
 *                      progress words (cfg.variant: PeerWave's granularity and scheduling)
 *   NW_LOCAL_TAGGED    the same tickets, a tile a ticket, but no progress words: a tile's
 *                      bottom row and right column travel in gridsync/local.h's tagged
 *                      words (a value and its tag in one 64-bit store), which the next
 *                      tiles' work-items poll directly (OpenCL: where the device has
 *                      64-bit atomics, else GS_ERR_UNSUPPORTED)
 *
 * The problem: two sequences of n symbols, s1 and s2, values 1..10 (Rodinia's
 * rand() % 10 + 1, from nw_sequences' seeded generator instead of rand()); the
 * (n+1) x (n+1) score matrix m[i][0] = -10 i, m[0][j] = -10 j,
 *   m[i][j] = max(m[i-1][j-1] + blosum62[s1[i]][s2[j]], m[i][j-1] - 10, m[i-1][j] - 10).
 * Tiles of B x B cells (B = 16, 32 or 64); a group computes a tile through its inner
 * anti-diagonals in group-local memory, as Rodinia's kernel does. Every method's matrix
 * must equal the sequential reference cell for cell. */
#ifndef NW_NW_H
#define NW_NW_H

#include <stddef.h>
#include <stdint.h>

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NW_MIN_N 1u
#define NW_MAX_N 65536u /* (n+1)^2 cells index through size_t; 65536^2 int32 = 16 GiB */
#define NW_PENALTY 10
#define NW_SYMBOLS 24u /* BLOSUM62's alphabet: ARNDCQEGHILKMFPSTWYVBZX* */
#define NW_MAX_K 1024u /* tiles per flag of the k variants */

typedef enum nw_scheme {
    NW_RELAUNCH,
    NW_RELAUNCH_GRAPH,
    NW_GLOBAL,
    NW_CG,
    NW_LOCAL,
    NW_LOCAL_TAGGED,
    NW_SCHEME_COUNT_
} nw_scheme;

/* The local scheme's variants (PeerWave's experiments):
 *   NW_FLAG_TILE   anti-diagonal tickets of k tiles of a row (k = 1: a tile), a flag per
 *                  ticket: waits for the flag above and the flag to the left
 *   NW_FLAG_ROW    anti-diagonal tickets of one tile, a progress counter per tile row
 *                  (its tiles finish left to right): waits for the row above to count
 *                  j + 1 and its own row j
 *   NW_ROWS        PeerWave's row allocation: a ticket is a row of tiles, swept left to
 *                  right; the row's counter is signalled every k tiles (and at its end),
 *                  each tile waits until the row above counts past it */
typedef enum nw_flags { NW_FLAG_TILE, NW_FLAG_ROW, NW_ROWS } nw_flags;

typedef struct nw_variant {
    nw_flags flags;
    unsigned k; /* NW_FLAG_TILE, NW_ROWS: tiles per flag / per signal, 1..NW_MAX_K */
} nw_variant;

typedef struct nw_config {
    unsigned n;    /* sequence length: the matrix is (n+1) x (n+1), NW_MIN_N..NW_MAX_N */
    unsigned tile; /* B: 16, 32 or 64 */
    unsigned seed; /* the sequences */
    nw_scheme scheme;
    gs_algo protocol;         /* NW_GLOBAL: the barrier (GS_ALGO_AUTO: the library's choice) */
    nw_variant variant;       /* NW_LOCAL (NW_LOCAL_TAGGED has none) */
    unsigned groups;          /* persistent schemes: groups; relaunch: the most groups of one
                            launch (a diagonal's tiles beyond them are strided over) */
    unsigned group_size;      /* work-items per group: 1 .. 1024 (B: Rodinia's) */
    unsigned repeats;         /* timed runs after the checked warm-up; 0: the check alone */
    int check_all;            /* compare every timed run too, not only the warm-up */
    unsigned timeout_ms;      /* bound of every wait; 0: the library's default */
    const int32_t *reference; /* the (n+1)^2 matrix of this seed (nw_reference), or NULL */
    /* Tests only (not for timing): 0, or t + 1 where the owner of tile t (row-major)
     * skips its signal (NW_LOCAL_TAGGED: its puts), so that the launch must end in
     * GS_ERR_TIMEOUT naming the tile. */
    unsigned silent_tile;
} nw_config;

typedef struct nw_result {
    double ms_median, ms_min, ms_max; /* device time of one alignment */
    double gcups;                     /* n^2 cells / ms_median */
    uint64_t mismatches;              /* cells that differ from the reference */
    gs_algo algo;                     /* NW_GLOBAL: the protocol that ran (auto resolved) */
    size_t state_bytes;               /* the barrier's or local state's device memory */
    unsigned launches;                /* kernel launches of one alignment */
    unsigned fault_row, fault_col;    /* after GS_ERR_TIMEOUT: the tile (row of tiles, col
                                         ~0u for a row's counter) whose signal (or tagged
                                         words) never came */
    char error[200];                  /* what failed, where something did */
    gs_status status;                 /* this configuration's (nw_run_methods) */
    double paired_ratio; /* nw_run_methods: the median over the rounds of this run's time
                          * over the first configuration's in the same round (1 for the
                          * first; 0 where either failed or ran no round) */
} nw_result;

/* The BLOSUM62 matrix, NW_SYMBOLS x NW_SYMBOLS, row-major (blosum62.c). */
extern const int nw_blosum62[NW_SYMBOLS * NW_SYMBOLS];

/* s1[1..n] and s2[1..n] of `seed`, values 1..10; s1[0] = s2[0] = 0 (unused). */
void nw_sequences(unsigned n, unsigned seed, unsigned char *s1, unsigned char *s2);

/* The sequential reference: the (n+1)^2 matrix, row-major, into `out`. */
gs_status nw_reference(unsigned n, unsigned seed, int32_t *out);

const char *nw_scheme_name(nw_scheme s); /* "relaunch", "relaunch-graph", ..., "local-tagged" */
/* "tile", "k4", "row", "rows", "rows-k4"; into buf. */
const char *nw_variant_name(nw_variant v, char *buf, size_t size);
/* Parses those names: 0, or -1 for anything else (k out of 1..NW_MAX_K included). */
int nw_variant_parse(const char *name, nw_variant *out);
int nw_scheme_parse(const char *name, nw_scheme *out);

/* Whether `scheme` runs on this device (NW_GLOBAL: with cfg protocol `protocol`). */
int nw_scheme_supported(gs_device *dev, nw_scheme scheme, gs_algo protocol);

/* The most groups of `group_size` work-items for tiles of B that the scheme's kernel can
 * have resident at once on this device: the persistent schemes' default grid. */
gs_status nw_max_groups(gs_device *dev, nw_scheme scheme, gs_algo protocol, unsigned tile,
                        unsigned group_size, unsigned *out);

/* Runs the alignment once and compares it with the reference (GS_ERR_CHECK_FAILED and
 * out->mismatches when it differs: nothing is then timed), then `repeats` timed runs. */
gs_status nw_run(gs_device *dev, const nw_config *cfg, nw_result *out);

/* nw_run for `n` configurations of one problem (the same n, tile, seed, repeats and
 * check_all; else GS_ERR_INVALID_ARGUMENT for all, as for one out of range), compared
 * fairly: each opened and checked, then the timed runs in rounds, every configuration
 * once a round, each round in its own shuffled order (appkit's gsa_rounds). Every session
 * is open at once, each with its own matrix on the device. One that fails drops out with
 * its own status (out[i].status); the others go on. out[i].paired_ratio pairs each with
 * the first, round by round. Returns the first failure's status, else GS_OK. nw_run is
 * its one-configuration case. */
gs_status nw_run_methods(gs_device *dev, const nw_config *cfgs, unsigned n, nw_result *out);

/* Whether `configs` methods of size n can be compared here at all: a result and a
 * reference in host memory and a matrix per method on the device (on the cpu back end,
 * host memory too), within the machine's memory. nw_run_methods returns
 * GS_ERR_OUT_OF_MEMORY for every one otherwise; a caller that computes the reference
 * itself asks first. */
int nw_memory_fits(gs_device *dev, unsigned n, unsigned configs);

#ifdef __cplusplus
}
#endif

#endif
