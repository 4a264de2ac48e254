/* gridsync/state.h - layout of a barrier's state in device memory.
 *
 * Shared by the host runtime (which allocates and initialises the state) and the
 * device code of every back end (which reads and writes it). Written in the common
 * subset of C11, CUDA C and OpenCL C: integer macros and one enum, no types.
 *
 * The state is an array of 32-bit words cut into lines of GS_LINE_WORDS words. Every
 * word that more than one group writes or polls sits on a line of its own, so polls of
 * different words never contend for one line and a poller never shares a line with an
 * unrelated writer. (The exception, lockfree's packed flags, is explained below.)
 */
#ifndef GRIDSYNC_STATE_H
#define GRIDSYNC_STATE_H

/* 128 bytes: the L2 line of NVIDIA GPUs since Volta, two x86 cache lines. */
#define GS_LINE_WORDS 32u
#define GS_LINE_BYTES (GS_LINE_WORDS * 4u)

/* Line 0: the header, written by the host before a launch and read-only on the device. */
#define GS_HDR_MAGIC 0u      /* GS_STATE_MAGIC: catches a stray pointer passed as state */
#define GS_HDR_ALGO 1u       /* enum gs_algo */
#define GS_HDR_GROUPS 2u     /* groups the state was created for */
#define GS_HDR_TIMEOUT_LO 3u /* wait bound in clock units (ns, or polls on OpenCL) */
#define GS_HDR_TIMEOUT_HI 4u
/* The most a poller's back-off grows to, ns (CUDA; word 5 held the tree's fan-out before
 * the device took its leaf from LEAVES). Every state's header has it. */
#define GS_HDR_BACKOFF_CAP 5u
#define GS_HDR_SPINNERS 6u /* lockfree: how many work-items of the master may poll */
#define GS_HDR_LEAVES 7u   /* tree: leaves; sharded: counters; flip, cluster: release lines */
#define GS_HDR_BACKOFF 8u  /* ns a poller sleeps between polls once a wait is long (CUDA) */
/* What a state's back-off grows to unless its barrier's options say otherwise: a wait
 * long enough to grow it is one where pollers share their SMs with groups still
 * computing (gridsync/grid.h, GS_BOUNDED_SPIN). */
#define GS_DEFAULT_BACKOFF_CAP_NS 16384u
#define GS_HDR_RELEASE 9u /* flip, cluster, tree: GS_RELEASE_POLL or GS_RELEASE_LINES */
#define GS_HDR_GROUP_SIZE \
    10u /* work-items per group the state is counting for; 0: any.
                                 * The host sets it at each launch (and resets the state when
                                 * it changes): naive counts work-items, so a kernel launched
                                 * with another group size ends with GS_ABORT_BAD_GRID */
/* The device address of the host's copy of the abort line (CUDA: pinned host memory the
 * host reads after a launch instead of copying the line back; 0: none). Group 0 writes
 * the acknowledgement there too, and whoever raises the abort its words. */
#define GS_HDR_MIRROR_LO 11u
#define GS_HDR_MIRROR_HI 12u
/* words 13 and 14: a device's rank and the ranks of a barrier across devices
 * (gridsync/multi_state.h) */
/* flip: ns its representative sleeps between its add and its first poll (CUDA; 0: it
 * polls at once). gridsync/barrier_flip.h says what was measured. */
#define GS_HDR_FIRST_POLL 15u

/* How a flip-counter barrier (flip, cluster, tree) releases its groups: every group
 * polls the (root) counter's flip bit (no hop after the last arrival, but one line with
 * every group polling it), or group g polls release line g % LEAVES (no line with more
 * than groups / LEAVES pollers). Flip's and cluster's last arriver writes the flip bit
 * into every line (one more hop); the tree has no root then: the last arriver of each
 * leaf adds into every line, each line a flip counter of the leaves (no more hops). */
#define GS_RELEASE_POLL 0u
#define GS_RELEASE_LINES 1u

#define GS_STATE_MAGIC 0x67727364u /* "grsd" */

/* The most leaves, counters or release lines a state has: the device packs their count
 * into 14 bits (gridsync/grid.h). */
#define GS_AUX_MAX_COUNT 0x3fffu

/* Line 1: abort. Any group that gives up writes a reason here; every other group
 * leaves at its next poll. The host reads it after the launch. */
#define GS_LINE_ABORT 1u
#define GS_ABORT_REASON 0u  /* enum gs_abort_reason, 0 while nobody aborted */
#define GS_ABORT_GROUP 1u   /* the group that raised it */
#define GS_ABORT_EPISODE 2u /* the episode it was waiting in */
#define GS_ABORT_ACK \
    3u                   /* 1 once a kernel began with this state (group 0 writes it; the
                             * host clears it before each launch): a launch whose kernel never
                             * used the barrier's state is an error, not GS_OK */
#define GS_ABORT_ITEM 4u /* the work-item (linear, in its group) that raised it */
#define GS_ABORT_STRAY \
    5u                         /* 1 + a group one of whose work-items never reached a group
                             * barrier, where the runtime can tell (cpu), else 0 */
#define GS_ABORT_STRAY_ITEM 6u /* that work-item */
#define GS_ABORT_LINE_READ 7u  /* the words of the line the host reads after a launch */

/* Line 2: the shared counter (central, naive, flip) or the tree's root counter. */
#define GS_LINE_COUNTER 2u

/* Lines from GS_LINE_GROUPS on: one line per group, written by the group itself: */
#define GS_LINE_GROUPS 3u
#define GS_G_ARRIVED 0u /* episodes this group has arrived at (monotone, wraps at 2^32) */
#define GS_G_VERDICT 1u /* sticky non-zero once the group decided to leave (OpenCL broadcast) */
#define GS_LINE_GROUP_A(g) (GS_LINE_GROUPS + (g))

/* Then lockfree's flags, packed as the seed's Arrayin and Arrayout are: arrival flags
 * then release flags, room for one word per group each (a shim that packs several flags
 * into a word, CUDA four bytes, uses the first part of each array). Only the master
 * reads every arrival flag and writes every release flag, so packing lets one warp-wide
 * access cover 32 groups or more, where a line per flag costs the master's SM one L2
 * request per group, twice per episode. */
#define GS_FLAG_LINES(n) (((n) + GS_LINE_WORDS - 1u) / GS_LINE_WORDS)
#define GS_LINE_FLAGS_IN(n) (GS_LINE_GROUPS + (n))
#define GS_LINE_FLAGS_OUT(n) (GS_LINE_FLAGS_IN(n) + GS_FLAG_LINES(n))

/* Then the tree's two lines per leaf (sharded: one counter line each; flip, cluster:
 * the release lines). */
#define GS_LINE_LEAF_COUNT(n, l) (GS_LINE_FLAGS_OUT(n) + GS_FLAG_LINES(n) + 2u * (l))
#define GS_LINE_LEAF_GEN(n, l) (GS_LINE_LEAF_COUNT(n, l) + 1u) /* release line l */
#define GS_STATE_LINES(n, leaves) GS_LINE_LEAF_COUNT(n, leaves)

#define GS_WORD(line, word) ((line)*GS_LINE_WORDS + (word))

/* Occupancy discovery (gridsync/discover.h): its own small state, header and abort
 * lines as above, then one line per word. */
#define GS_DISC_NEXT GS_WORD(2u, 0u)   /* ticket dispenser */
#define GS_DISC_SERVE GS_WORD(3u, 0u)  /* ticket now served */
#define GS_DISC_COUNT GS_WORD(4u, 0u)  /* participants so far */
#define GS_DISC_CLOSED GS_WORD(5u, 0u) /* 1 once the poll is closed */
#define GS_DISC_LINES 6u
#define GS_DISC_LATE 0xffffffffu /* id of a group that arrived after the close */

/* Reasons a wait ends without the barrier completing (also the device-side return
 * value of gs_sync: 0 = the barrier completed). */
#define GS_ABORT_NONE 0u
#define GS_ABORT_TIMEOUT 1u    /* a wait passed its deadline */
#define GS_ABORT_PEER 2u       /* another group aborted; this one left */
#define GS_ABORT_BAD_GRID 3u   /* launched with another group count than the state was made for */
#define GS_ABORT_BAD_STATE 4u  /* the state's magic or algorithm is wrong */
#define GS_ABORT_HOST 5u       /* reserved (gridsync.h's GS_ABORT_REASON_HOST) */
#define GS_ABORT_AFTER_LAST 7u /* an episode after gs_arrive_last_<p> in the same launch */

/* Protocol identifiers, GS_ALGO_ID_<ID>: the host API's enum gs_algo has the same
 * values (gridsync/protocols.h). */
#include "gridsync/protocols.h"
#define GS_ALGO_ID_ENUM_(ID, name, value, text, desc) GS_ALGO_ID_##ID = value,
enum gs_algo_id { GS_PROTOCOLS_ALL(GS_ALGO_ID_ENUM_) GS_ALGO_ID_COUNT_ = GS_PROTOCOL_VALUES };
#undef GS_ALGO_ID_ENUM_

/* The top bit of a flip counter changes once per completed episode. */
#define GS_FLIP_BIT 0x80000000u

#endif
