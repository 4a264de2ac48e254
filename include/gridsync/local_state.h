/* gridsync/local_state.h - layout of local synchronization's state in device memory
 * (gridsync/local.h on the device, gridsync/host_local.h on the host).
 *
 * Lines of GS_LINE_WORDS words as in gridsync/state.h, whose header and abort words it
 * shares where they mean the same (magic, wait bound, back-off; reason, group, item,
 * acknowledgement), so that the one bounded wait of gridsync/grid.h serves both:
 *   line 0  the header (the host writes it at creation; gs_local_prepare its epoch)
 *   line 1  the abort line
 *   line 2  the ticket counter
 *   line 3+ the progress words, packed: a progress word is written by one group (the
 *           tile's or row's owner) and polled by the few that depend on it, so 32 to a
 *           line cost less than a line each (a 16384^2 alignment in 16^2 tiles has a
 *           million of them: 4 MiB packed, 128 MiB a line each).
 *   then    the tagged words (gs_local_put / gs_local_get), 64 bits each, 16 to a line,
 *           from line GS_LOCAL_LINE_TAGGED(words) on: a value in the low half, its tag
 *           (the launch's epoch and a sequence number, as a progress value) in the high.
 *
 * A progress word holds the launch's epoch in its top bits and the value its owner
 * signalled in the rest: a launch waits only for values of its own epoch, so words
 * left by earlier launches need no clearing. gs_local_prepare advances the epoch
 * (1 .. GS_LOCAL_EPOCHS) and, when it wraps, clears every word, progress and tagged
 * (the comparison modulo 2^32 tells 127 epochs apart, not more; a tagged word left
 * unwritten for 127 launches would hold a tag that reads as the new launch's). */
#ifndef GRIDSYNC_LOCAL_STATE_H
#define GRIDSYNC_LOCAL_STATE_H

#include "gridsync/state.h"

#define GS_LOCAL_MAGIC 0x67736c63u /* "gslc": not a barrier's state */
#define GS_HDR_LOCAL_EPOCH 11u     /* this launch's epoch, 1 .. GS_LOCAL_EPOCHS */
#define GS_HDR_LOCAL_WORDS 12u     /* progress words the state has */
#define GS_HDR_LOCAL_TAGGED 13u    /* tagged words the state has */

#define GS_LOCAL_LINE_TICKET 2u
#define GS_LOCAL_LINE_WORDS 3u
#define GS_LOCAL_LINE_TAGGED(words) (GS_LOCAL_LINE_WORDS + GS_FLAG_LINES(words))
#define GS_LOCAL_TAGGED_LINES(tagged) GS_FLAG_LINES(2u * (tagged))
#define GS_LOCAL_STATE_LINES(words, tagged) \
    (GS_LOCAL_LINE_TAGGED(words) + GS_LOCAL_TAGGED_LINES(tagged))

/* A progress value: 1 .. GS_LOCAL_MAX_VALUE, below the epoch's bits. */
#define GS_LOCAL_VALUE_BITS 24u
#define GS_LOCAL_MAX_VALUE 0xffffffu
#define GS_LOCAL_EPOCHS 127u
/* The epoch after e (a fresh state's is 0). When it comes back to 1 every progress word
 * must be cleared first: values of every earlier epoch would read as new again. */
#define GS_LOCAL_NEXT_EPOCH(e) ((e) >= GS_LOCAL_EPOCHS ? 1u : (e) + 1u)

/* The abort line, beside state.h's words: what a wait that gave up waited for. The
 * progress word's index goes where a barrier keeps its episode (GS_ABORT_EPISODE). */
#define GS_ABORT_AWAITED 7u /* the value it waited for */
#define GS_ABORT_SEEN 8u    /* the value it last saw (0: nothing of this launch) */
/* 1: the wait was a tagged word's (gs_local_get): EPISODE is the tagged word's index,
 * AWAITED and SEEN are sequence numbers of its tag. */
#define GS_ABORT_TAGGED 9u

/* gs_local_next's answer once no ticket is to be taken (an abort, a state that is not
 * local synchronization's). */
#define GS_LOCAL_END 0xffffffffu

#endif
