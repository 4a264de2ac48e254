/* The sequences and the sequential reference every scheme is checked against. */
#include <stdlib.h>

#include "nw.h"

/* A 32-bit mix (the finaliser of MurmurHash3): each symbol depends on the seed, the
 * sequence and its position, none on the order they are made in. */
static uint32_t mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x *= 0xc2b2ae35u;
    x ^= x >> 16;
    return x;
}

/* Rodinia draws rand() % 10 + 1: the same range, from a generator that is the same on
 * every platform. */
void nw_sequences(unsigned n, unsigned seed, unsigned char *s1, unsigned char *s2)
{
    uint32_t k1 = mix(seed * 2u + 0x9e3779b9u), k2 = mix(seed * 2u + 1u + 0x9e3779b9u);
    s1[0] = s2[0] = 0;
    for (uint32_t i = 1; i <= n; ++i) {
        s1[i] = (unsigned char)(mix(i ^ k1) % 10u + 1u);
        s2[i] = (unsigned char)(mix(i ^ k2) % 10u + 1u);
    }
}

static int32_t max3(int32_t a, int32_t b, int32_t c)
{
    int32_t m = a > b ? a : b;
    return m > c ? m : c;
}

gs_status nw_reference(unsigned n, unsigned seed, int32_t *out)
{
    if (out == NULL || n < NW_MIN_N || n > NW_MAX_N)
        return GS_ERR_INVALID_ARGUMENT;
    size_t w = (size_t)n + 1u;
    unsigned char *s1 = malloc(w), *s2 = malloc(w);
    if (s1 == NULL || s2 == NULL) {
        free(s1);
        free(s2);
        return GS_ERR_OUT_OF_MEMORY;
    }
    nw_sequences(n, seed, s1, s2);
    for (size_t j = 0; j < w; ++j)
        out[j] = -NW_PENALTY * (int32_t)j;
    for (size_t i = 1; i < w; ++i) {
        int32_t *row = out + i * w;
        const int32_t *up = row - w, *score = nw_blosum62 + s1[i] * NW_SYMBOLS;
        row[0] = -NW_PENALTY * (int32_t)i;
        for (size_t j = 1; j < w; ++j)
            row[j] = max3(up[j - 1] + score[s2[j]], row[j - 1] - NW_PENALTY, up[j] - NW_PENALTY);
    }
    free(s1);
    free(s2);
    return GS_OK;
}
