/* nw_run: one configuration checked, then timed; names, and what the back ends share. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsync/cpu.h"
#include "gridsync/host_local.h"

#include "backend.h"
#include "nw_tile.h"

_Static_assert(NW_FLAG_TILE == NW_V_TILE && NW_FLAG_ROW == NW_V_ROW && NW_ROWS == NW_V_ROWS,
               "the app's variants are the kernels' numbers");
_Static_assert(NW_PENALTY == NW_TILE_PENALTY && NW_SYMBOLS == NW_TILE_SYMBOLS,
               "one problem on host and device");

static const char *const scheme_names[NW_SCHEME_COUNT_] = {
    "relaunch", "relaunch-graph", "global", "cg", "local", "local-tagged"};

const char *nw_scheme_name(nw_scheme s)
{
    return (unsigned)s < NW_SCHEME_COUNT_ ? scheme_names[s] : NULL;
}

int nw_scheme_parse(const char *name, nw_scheme *out)
{
    for (unsigned i = 0; name && i < NW_SCHEME_COUNT_; ++i)
        if (strcmp(name, scheme_names[i]) == 0) {
            *out = (nw_scheme)i;
            return 0;
        }
    return -1;
}

const char *nw_variant_name(nw_variant v, char *buf, size_t size)
{
    if (v.flags == NW_FLAG_ROW)
        snprintf(buf, size, "row");
    else if (v.flags == NW_ROWS)
        snprintf(buf, size, v.k > 1 ? "rows-k%u" : "rows", v.k);
    else
        snprintf(buf, size, v.k > 1 ? "k%u" : "tile", v.k);
    return buf;
}

/* "k" then 1..NW_MAX_K in decimal, nothing after. */
static int parse_k(const char *s, unsigned *k)
{
    char *end;
    if (s[0] != 'k' || s[1] < '1' || s[1] > '9')
        return -1;
    unsigned long v = strtoul(s + 1, &end, 10);
    if (*end != '\0' || v > NW_MAX_K)
        return -1;
    *k = (unsigned)v;
    return 0;
}

int nw_variant_parse(const char *name, nw_variant *out)
{
    nw_variant v = {NW_FLAG_TILE, 1};
    if (name == NULL)
        return -1;
    if (strcmp(name, "tile") == 0 || strcmp(name, "row") == 0 || strcmp(name, "rows") == 0)
        v.flags = name[0] == 't' ? NW_FLAG_TILE : name[3] ? NW_ROWS : NW_FLAG_ROW;
    else if (strncmp(name, "rows-", 5) == 0 && parse_k(name + 5, &v.k) == 0)
        v.flags = NW_ROWS;
    else if (parse_k(name, &v.k) != 0)
        return -1;
    *out = v;
    return 0;
}

void nw_variant_args(const nw_variant *v, unsigned *flags, unsigned *k)
{
    *flags = (unsigned)v->flags;
    *k = v->flags == NW_FLAG_ROW || v->k == 0 ? 1u : v->k;
}

unsigned nw_variant_words(const nw_config *cfg, unsigned R)
{
    unsigned flags, k;
    nw_variant_args(&cfg->variant, &flags, &k);
    return nw_local_words(flags, k, R);
}

gs_status nw_fail(nw_session *s, gs_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gsa_vnote(s->result->error, sizeof s->result->error, fmt, ap);
    va_end(ap);
    return status;
}

gs_status nw_barrier_open(nw_session *s, gs_barrier **out)
{
    return gsa_barrier_open(s->dev, s->cfg->protocol, s->cfg->groups, s->cfg->timeout_ms, out,
                            &s->result->algo, &s->result->state_bytes, s->result->error,
                            sizeof s->result->error);
}

gs_status nw_local_open(nw_session *s, gs_local **out)
{
    int tagged = s->cfg->scheme == NW_LOCAL_TAGGED;
    unsigned words = tagged ? nw_tagged_words(s->R, s->cfg->tile) : nw_variant_words(s->cfg, s->R);
    return gsa_local_open(s->dev, tagged ? 0 : words, tagged ? words : 0, s->cfg->timeout_ms, out,
                          &s->result->state_bytes, s->result->error, sizeof s->result->error);
}

/* The tagged word a get timed out on names the tile that should have put it: column j's
 * bottom-row words come from the tile above (seq i + 1 from tile (i, j)), row i's
 * right-column words from the tile to the left (seq j + 1 from tile (i, j)). */
static gs_status tagged_verdict(nw_session *s, const gs_local_abort *a, gs_status st)
{
    unsigned down = nw_down_stride(s->cfg->tile), across = s->R * down;
    int is_down = a->word < across;
    s->result->fault_row = is_down ? a->awaited - 1u : (a->word - across) / s->cfg->tile;
    s->result->fault_col = is_down ? a->word / down : a->awaited - 1u;
    return nw_fail(s, st,
                   "timed out: group %u work-item %u waited for tagged word %u (%s %u) to hold "
                   "seq %u (saw %u): the words of tile (%u, %u) never came",
                   a->group, a->item, a->word, is_down ? "column" : "row",
                   is_down ? s->result->fault_col : s->result->fault_row, a->awaited, a->seen,
                   s->result->fault_row, s->result->fault_col);
}

gs_status nw_local_verdict(nw_session *s, gs_local *L, gs_status st)
{
    gs_local_abort a;
    if (st != GS_ERR_TIMEOUT || gs_local_abort_info(L, &a) != GS_OK)
        return st == GS_OK ? GS_OK : nw_fail(s, st, "local scheme: %s", gs_status_string(st));
    unsigned flags, k, R = s->R;
    if (s->cfg->scheme == NW_LOCAL_TAGGED)
        return tagged_verdict(s, &a, st);
    nw_variant_args(&s->cfg->variant, &flags, &k);
    /* The word names a ticket of k tiles (its first is named) or a row's counter, whose
     * value v would have come with tile v - 1's signal (rows: the k-th tile's). */
    unsigned C = (R + k - 1u) / k, v = a.awaited;
    if (flags == NW_V_ROWS)
        v = (v + k - 1u) / k * k < R ? (v + k - 1u) / k * k : R;
    s->result->fault_row = flags == NW_V_TILE ? a.word / C : a.word;
    s->result->fault_col = flags == NW_V_TILE ? a.word % C * k : v - 1u;
    return nw_fail(s, st,
                   "timed out: group %u waited for progress word %u to reach %u (saw %u): the "
                   "signal of tile (%u, %u) never came",
                   a.group, a.word, a.awaited, a.seen, s->result->fault_row, s->result->fault_col);
}

unsigned nw_lead(void) { return NW_LEAD; }
unsigned nw_diag_count_host(unsigned d, unsigned R) { return nw_diag_count(d, R); }

void nw_unpack(const int32_t *device_layout, size_t pitch, unsigned n, int32_t *out)
{
    for (size_t r = 0; r <= n; ++r)
        memcpy(out + r * (n + 1u), device_layout + r * pitch + NW_LEAD, (n + 1u) * sizeof *out);
}

static const nw_backend *backend_of(gs_device *dev)
{
    gs_device_info info;
    if (dev == NULL || gs_device_get_info(dev, &info) != GS_OK)
        return NULL;
    switch (info.backend) {
    case GS_BACKEND_CPU: return &nw_cpu_backend;
#ifdef NW_HAVE_OPENCL
    case GS_BACKEND_OPENCL: return &nw_opencl_backend;
#endif
#ifdef NW_HAVE_CUDA
    case GS_BACKEND_CUDA: return &nw_cuda_backend;
#endif
    default: return NULL;
    }
}

int nw_scheme_supported(gs_device *dev, nw_scheme scheme, gs_algo protocol)
{
    const nw_backend *be = backend_of(dev);
    return be != NULL && (unsigned)scheme < NW_SCHEME_COUNT_ &&
           be->supported(dev, scheme, protocol);
}

static int tile_ok(unsigned B) { return B == 16u || B == 32u || B == 64u; }

gs_status nw_max_groups(gs_device *dev, nw_scheme scheme, gs_algo protocol, unsigned tile,
                        unsigned group_size, unsigned *out)
{
    const nw_backend *be = backend_of(dev);
    if (out == NULL || !tile_ok(tile) || group_size != tile)
        return GS_ERR_INVALID_ARGUMENT;
    if (!nw_scheme_supported(dev, scheme, protocol))
        return GS_ERR_UNSUPPORTED;
    return be->max_groups(dev, scheme, protocol, tile, out);
}

/* One run, then (when `check`) its matrix against the reference. */
static gs_status run_checked(const nw_backend *be, nw_session *s, const int32_t *reference,
                             int32_t *result, int check, double *ns)
{
    size_t cells = ((size_t)s->cfg->n + 1u) * (s->cfg->n + 1u);
    gs_status st = be->run(s, ns);
    if (st != GS_OK || !check)
        return st;
    if ((st = be->fetch(s, result)) != GS_OK)
        return st;
    uint64_t wrong = 0;
    size_t first = 0;
    for (size_t c = 0; c < cells; ++c)
        if (result[c] != reference[c] && wrong++ == 0)
            first = c;
    s->result->mismatches = wrong;
    if (wrong) {
        size_t w = (size_t)s->cfg->n + 1u;
        return nw_fail(s, GS_ERR_CHECK_FAILED,
                       "%llu of %zu cells differ from the reference, the first m[%zu][%zu] = %d, "
                       "not %d",
                       (unsigned long long)wrong, cells, first / w, first % w, (int)result[first],
                       (int)reference[first]);
    }
    return GS_OK;
}

/* The tile, its group size, n, groups and the variant's k in range; the silent tile
 * only for the local scheme. */
static int config_ok(const nw_config *c)
{
    unsigned R = c->n ? nw_tiles(c->n, c->tile ? c->tile : 1u) : 0u;
    return c->n >= NW_MIN_N && c->n <= NW_MAX_N && tile_ok(c->tile) && c->group_size == c->tile &&
           c->groups > 0 && c->repeats <= 100000u && (unsigned)c->variant.flags <= NW_ROWS &&
           c->variant.k <= NW_MAX_K &&
           (c->silent_tile == 0 || c->scheme == NW_LOCAL || c->scheme == NW_LOCAL_TAGGED) &&
           (c->scheme != NW_LOCAL || nw_variant_words(c, R) <= GS_LOCAL_MAX_WORDS);
}

gs_status nw_run(gs_device *dev, const nw_config *cfg, nw_result *out)
{
    if (out == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (cfg == NULL || !config_ok(cfg))
        return GS_ERR_INVALID_ARGUMENT;
    const nw_backend *be = backend_of(dev);
    if (be == NULL || !be->supported(dev, cfg->scheme, cfg->protocol))
        return GS_ERR_UNSUPPORTED;
    out->algo = cfg->scheme == NW_GLOBAL ? cfg->protocol : GS_ALGO_COUNT_;

    unsigned R = nw_tiles(cfg->n, cfg->tile);
    size_t len = (size_t)R * cfg->tile + 1u, cells = ((size_t)cfg->n + 1u) * (cfg->n + 1u);
    unsigned char *s1 = calloc(len, 1), *s2 = calloc(len, 1); /* padding: symbol 0 */
    int32_t *result = malloc(cells * sizeof *result);
    int32_t *own_ref = cfg->reference ? NULL : malloc(cells * sizeof *own_ref);
    double *times = malloc((cfg->repeats + 1u) * sizeof *times);
    const int32_t *reference = cfg->reference ? cfg->reference : own_ref;
    gs_status st = s1 && s2 && result && reference && times ? GS_OK : GS_ERR_OUT_OF_MEMORY;
    if (st == GS_OK && own_ref)
        st = nw_reference(cfg->n, cfg->seed, own_ref);
    nw_session s = {dev, cfg, s1, s2, R, nw_pitch(R, cfg->tile), 0, out, NULL};
    s.cells = len * s.pitch;
    if (st == GS_OK) {
        nw_sequences(cfg->n, cfg->seed, s1, s2);
        st = be->open(&s);
        /* The warm-up is the check: a scheme that computes a wrong matrix is never timed. */
        if (st == GS_OK)
            st = run_checked(be, &s, reference, result, 1, &times[cfg->repeats]);
        for (unsigned r = 0; st == GS_OK && r < cfg->repeats; ++r)
            st = run_checked(be, &s, reference, result, cfg->check_all, &times[r]);
        be->close(&s);
    }
    if (st == GS_OK && cfg->repeats) {
        gsa_sort(times, cfg->repeats);
        out->ms_median = times[cfg->repeats / 2] / 1e6;
        out->ms_min = times[0] / 1e6;
        out->ms_max = times[cfg->repeats - 1] / 1e6;
        out->gcups = out->ms_median > 0 ? (double)cfg->n * cfg->n / (out->ms_median * 1e6) : 0;
    }
    free(s1);
    free(s2);
    free(result);
    free(own_ref);
    free(times);
    return st;
}
