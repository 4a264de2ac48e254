/* gridsync/multi_state.h - layout of one device's state of a barrier across devices
 * (gridsync/multi.h on the device, gridsync/host_multi.h on the host).
 *
 * Every device ("rank") of the barrier has a state of its own, in its own memory, laid
 * out as a barrier's (gridsync/state.h) where the words mean the same, so that the group
 * bookkeeping and the one bounded wait of gridsync/grid.h serve it unchanged:
 *   line 0        the header: magic, groups per device, wait bound, back-off; rank, ranks
 *   line 1        the abort line, plus the word peers write to make this device leave
 *   line 2        the device's arrival counter (a flip counter of its groups)
 *   lines 3..     one line per group (its arrival note, its verdict), as a barrier's
 *   then          the release line: the episodes this device's representative released
 *   then          the flag line: slot r holds the episodes rank r has arrived at, written
 *                 by rank r (across the link), polled by this device's representative only
 *   then          the peer table: every rank's state address, as this device reaches it
 * Words written by other devices (the flag slots, the abort word of peers) sit on lines
 * no local group writes; the release line is polled by every local group and written by
 * one. Ranks have the same groups per device, so every line is at the same offset in
 * every rank's state. */
#ifndef GRIDSYNC_MULTI_STATE_H
#define GRIDSYNC_MULTI_STATE_H

#include "gridsync/state.h"

#define GS_MULTI_MAGIC 0x67736d75u /* "gsmu": not a barrier's state, not a local one */
#define GS_MULTI_ALGO_ID 0x6d75u   /* the header's GS_HDR_ALGO: no protocol of protocols.h */
#define GS_HDR_MULTI_RANK 13u      /* this device's rank, 0 .. ranks - 1 */
#define GS_HDR_MULTI_RANKS 14u     /* devices in the barrier, 1 .. GS_MULTI_MAX_RANKS */
#if GS_HDR_MULTI_RANK <= GS_HDR_MIRROR_HI
#error "the header words of a barrier across devices overlap the barrier's own"
#endif

/* The most devices one barrier spans: their slots fill one flag line. */
#define GS_MULTI_MAX_RANKS 32u

/* The abort line, beside state.h's words: 1 + the rank of a device that gave up and
 * told this one to leave (0: none did). Written by other devices with system-scope
 * stores, never by this device's groups. */
#define GS_ABORT_MULTI_FROM 9u

#define GS_MULTI_LINE_RELEASE(groups) (GS_LINE_GROUPS + (groups))
#define GS_MULTI_LINE_FLAGS(groups) (GS_MULTI_LINE_RELEASE(groups) + 1u)
/* A peer's address takes two words, low then high. */
#define GS_MULTI_LINE_PEERS(groups) (GS_MULTI_LINE_FLAGS(groups) + 1u)
#define GS_MULTI_PEER_LINES GS_FLAG_LINES(2u * GS_MULTI_MAX_RANKS)
#define GS_MULTI_STATE_LINES(groups) (GS_MULTI_LINE_PEERS(groups) + GS_MULTI_PEER_LINES)

#endif
