/* src/common/place.h - the rule by which a flip state's counter is placed: which
 * candidate starts a buffer holds, and which of them its probes chose. The probes
 * themselves are the back end's (CUDA: src/cuda/place_cuda.c, place_probe.cu); the rule
 * is written here, apart from them, so that it is tested without a GPU (tests/test_place.c). */
#ifndef GS_COMMON_PLACE_H
#define GS_COMMON_PLACE_H

#include <stddef.h>

/* The candidate starts, one a line from the buffer's start, for a state of `state_bytes`
 * in a buffer of `bytes`: `lines` (GRIDSYNC_PLACE_LINES), cut to the starts the buffer
 * holds whole and to GS_PLACE_LINES_MAX. Fewer than 2: nothing to choose (the state stays
 * at the buffer's start). */
unsigned gs_place_candidates(size_t bytes, size_t state_bytes, unsigned lines);

/* The line chosen from `passes` passes of probes over `lines` candidates (cycles[pass *
 * lines + line], each a probe's time): the line whose fewest cycles over the passes are
 * the fewest, the first of equals. A probe that could not run (0 or less) chooses line 0
 * for all: the state stays where it was allocated. */
unsigned gs_place_choose(const float *cycles, unsigned passes, unsigned lines);

#endif
