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

/* One run, then its matrix against the reference: the session's first run (the warm-up)
 * always, the others where the configuration says check_all. */
static gs_status run_checked(const nw_backend *be, nw_session *s, const int32_t *reference,
                             int32_t *result, double *ns)
{
    size_t cells = ((size_t)s->cfg->n + 1u) * (s->cfg->n + 1u);
    int check = s->runs++ == 0u || s->cfg->check_all;
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

/* One problem (n, tile, seed, repeats and the timed runs' check alike), each
 * configuration in range, then each scheme run here. */
static gs_status configs_ok(gs_device *dev, const nw_config *cfgs, unsigned n)
{
    if (cfgs == NULL || n == 0)
        return GS_ERR_INVALID_ARGUMENT;
    for (unsigned i = 0; i < n; ++i)
        if (!config_ok(&cfgs[i]) || cfgs[i].n != cfgs[0].n || cfgs[i].tile != cfgs[0].tile ||
            cfgs[i].seed != cfgs[0].seed || cfgs[i].repeats != cfgs[0].repeats ||
            cfgs[i].check_all != cfgs[0].check_all)
            return GS_ERR_INVALID_ARGUMENT;
    const nw_backend *be = backend_of(dev);
    for (unsigned i = 0; i < n; ++i)
        if (be == NULL || !be->supported(dev, cfgs[i].scheme, cfgs[i].protocol))
            return GS_ERR_UNSUPPORTED;
    return GS_OK;
}

GSA_COMPARE_SESSIONS(nw, nw_session, nw_backend, int32_t, run_checked);

int nw_memory_fits(gs_device *dev, unsigned n, unsigned configs)
{
    double matrix = ((double)n + 1.0) * ((double)n + 1.0) * sizeof(int32_t);
    return gsa_memory_fits(dev, 2.0 * matrix, configs * matrix); /* a result, a reference */
}

gs_status nw_run_methods(gs_device *dev, const nw_config *cfgs, unsigned n, nw_result *out)
{
    if (out == NULL || n == 0)
        return GS_ERR_INVALID_ARGUMENT;
    memset(out, 0, n * sizeof *out);
    gs_status st = configs_ok(dev, cfgs, n);
    if (st == GS_OK && !nw_memory_fits(dev, cfgs[0].n, n))
        st = GS_ERR_OUT_OF_MEMORY; /* before anything is allocated (c0 NULL: nothing is) */
    const nw_config *c0 = st == GS_OK ? &cfgs[0] : NULL;
    unsigned R = c0 ? nw_tiles(c0->n, c0->tile) : 0u;
    size_t len = c0 ? (size_t)R * c0->tile + 1u : 0u;
    size_t cells = c0 ? ((size_t)c0->n + 1u) * (c0->n + 1u) : 0u;
    unsigned char *s1 = c0 ? calloc(len, 1) : NULL, *s2 = c0 ? calloc(len, 1) : NULL;
    int32_t *result = c0 ? malloc(cells * sizeof *result) : NULL;
    int need_ref = 0;
    for (unsigned i = 0; c0 && i < n; ++i)
        need_ref |= cfgs[i].reference == NULL;
    int32_t *own_ref = need_ref ? malloc(cells * sizeof *own_ref) : NULL;
    nw_entry *es = c0 ? calloc(n, sizeof *es) : NULL;
    gs_status *status = c0 ? calloc(n, sizeof *status) : NULL;
    gsa_timing *timing = c0 ? calloc(n, sizeof *timing) : NULL;
    if (st == GS_OK && !(s1 && s2 && result && (own_ref || !need_ref) && es && status && timing))
        st = GS_ERR_OUT_OF_MEMORY;
    if (st == GS_OK && own_ref)
        st = nw_reference(c0->n, c0->seed, own_ref);
    int compared = 0; /* then each configuration has its own status */
    if (st == GS_OK) {
        nw_sequences(c0->n, c0->seed, s1, s2); /* padding past n: symbol 0 */
        for (unsigned i = 0; i < n; ++i) {
            out[i].algo = cfgs[i].scheme == NW_GLOBAL ? cfgs[i].protocol : GS_ALGO_COUNT_;
            es[i].s =
                (nw_session){dev, &cfgs[i], s1, s2, R, nw_pitch(R, c0->tile), 0, &out[i], NULL, 0};
            es[i].s.cells = len * es[i].s.pitch;
            es[i].reference = cfgs[i].reference ? cfgs[i].reference : own_ref;
        }
        /* The warm-up is the check: a scheme that computes a wrong matrix is never timed. */
        nw_rounds x = {backend_of(dev), es, result};
        st = gsa_compare(n, c0->repeats, &nw_compare_ops, &x, status, timing);
        compared = 1;
        for (unsigned i = 0; i < n; ++i) {
            nw_result *r = &out[i];
            gsa_times_of(&timing[i], &r->ms_median, &r->ms_min, &r->ms_max, &r->paired_ratio);
            r->gcups = r->ms_median > 0 ? (double)c0->n * c0->n / (r->ms_median * 1e6) : 0;
        }
    }
    for (unsigned i = 0; i < n; ++i)
        out[i].status = compared ? status[i] : st;
    free(s1);
    free(s2);
    free(result);
    free(own_ref);
    free(es);
    free(status);
    free(timing);
    return st;
}

gs_status nw_run(gs_device *dev, const nw_config *cfg, nw_result *out)
{
    return nw_run_methods(dev, cfg, 1u, out);
}
