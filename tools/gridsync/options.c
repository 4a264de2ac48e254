/* Command-line options common to every subcommand. */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int parse_uint(const char *s, unsigned *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v > 0xffffffffu)
        return -1;
    *out = (unsigned)v;
    return 0;
}

/* Calls take(token, ctx) for each comma-separated element of s; an empty element
 * ("1,,2", a trailing comma) is an error, not skipped. */
static int each_element(const char *s, int (*take)(const char *, void *), void *ctx)
{
    char buf[1024];
    size_t len = strlen(s);
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len + 1);
    for (char *tok = buf;;) {
        char *comma = strchr(tok, ',');
        if (comma)
            *comma = '\0';
        if (*tok == '\0' || take(tok, ctx) != 0)
            return -1;
        if (!comma)
            return 0;
        tok = comma + 1;
    }
}

typedef struct uint_list {
    unsigned *out, *n;
    unsigned min, max;
} uint_list;

static int take_uint(const char *tok, void *ctx)
{
    uint_list *l = ctx;
    unsigned v;
    if (*l->n == CLI_MAX_LIST || parse_uint(tok, &v) != 0 || v < l->min || v > l->max)
        return -1;
    l->out[(*l->n)++] = v;
    return 0;
}

static int parse_list(const char *s, unsigned *out, unsigned *n, unsigned min, unsigned max)
{
    uint_list l = {out, n, min, max};
    *n = 0;
    return each_element(s, take_uint, &l);
}

/* bench jacobi's N:T, both at least 1 (the app checks N's range before anything runs). */
static int take_size(const char *tok, void *ctx)
{
    cli_options *o = ctx;
    char n[32];
    const char *colon = strchr(tok, ':');
    size_t len = colon ? (size_t)(colon - tok) : 0;
    unsigned side, iters;
    if (!colon || len == 0 || len >= sizeof n || o->n_sizes == CLI_MAX_LIST)
        return -1;
    memcpy(n, tok, len);
    n[len] = '\0';
    if (parse_uint(n, &side) != 0 || parse_uint(colon + 1, &iters) != 0 || side == 0 || iters == 0)
        return -1;
    o->sizes_n[o->n_sizes] = side;
    o->sizes_t[o->n_sizes++] = iters;
    return 0;
}

static int take_algo(const char *tok, void *ctx)
{
    cli_options *o = ctx;
    gs_algo a;
    if (gs_algo_from_name(tok, &a) != GS_OK) {
        fprintf(stderr, "gridsync: unknown protocol '%s'\n", tok);
        return -1;
    }
    if (o->n_algos < GS_ALGO_COUNT_)
        o->algos[o->n_algos++] = (unsigned)a;
    return 0;
}

static int parse_algos(const char *s, cli_options *o)
{
    if (strcmp(s, "all") == 0) {
        o->algo_all = 1;
        return 0;
    }
    o->n_algos = 0;
    return each_element(s, take_algo, o);
}

int cli_parse(int argc, char **argv, int first, cli_options *o)
{
    static const struct option longopts[] = {
        {"backend", required_argument, 0, 'b'}, {"device", required_argument, 0, 'd'},
        {"algo", required_argument, 0, 'a'},    {"groups", required_argument, 0, 'g'},
        {"block", required_argument, 0, 'B'},   {"iters", required_argument, 0, 'i'},
        {"iters-list", required_argument, 0, 'I'}, {"compute", required_argument, 0, 'C'},
        {"repeats", required_argument, 0, 'r'}, {"timeout-ms", required_argument, 0, 't'},
        {"quick", no_argument, 0, 'q'},         {"csv", required_argument, 0, 'c'},
        {"json", required_argument, 0, 'j'},    {"plot", required_argument, 0, 'p'},
        {"sizes", required_argument, 0, 'S'},   {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->algo_all = 1;
    o->repeats = 5;
    optind = first;
    int c;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        int bad = 0;
        switch (c) {
        case 'b': bad = gs_backend_from_name(optarg, &o->backend) != GS_OK; break;
        case 'd': { unsigned d = 0; bad = parse_uint(optarg, &d) || d > 1024; o->device = (int)d; break; }
        case 'a': o->algo_all = 0; bad = parse_algos(optarg, o); break;
        case 'g': bad = parse_list(optarg, o->groups, &o->n_groups, 1, ~0u); break;
        case 'B': bad = parse_uint(optarg, &o->block) || o->block == 0; break;
        case 'i': bad = parse_uint(optarg, &o->iters) || o->iters == 0; break;
        case 'I': bad = parse_list(optarg, o->iters_list, &o->n_iters, 1, ~0u); break;
        case 'C': bad = parse_list(optarg, o->compute_list, &o->n_compute, 1, GS_MAX_COMPUTE); break;
        case 'r': bad = parse_uint(optarg, &o->repeats) || o->repeats == 0 || o->repeats > 1000; break;
        case 't': bad = parse_uint(optarg, &o->timeout_ms) || o->timeout_ms == 0; break;
        case 'q': o->quick = 1; break;
        case 'c': o->csv = optarg; break;
        case 'j': o->json = optarg; break;
        case 'p': o->plot = optarg; break;
        case 'S': o->n_sizes = 0; bad = each_element(optarg, take_size, o); break;
        default: return -1;
        }
        if (bad) {
            fprintf(stderr, "gridsync: bad value '%s'\n", optarg);
            return -1;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "gridsync: unexpected argument '%s'\n", argv[optind]);
        return -1;
    }
    if (o->quick && o->repeats == 5)
        o->repeats = 3;
    return 0;
}

/* Whether protocol a runs on the device for this experiment. */
static int algo_runs(const cli_options *o, gs_device *dev, gs_algo a)
{
    if (a == GS_ALGO_AUTO && o->takes_auto)
        return gs_algo_supported(dev, GS_ALGO_FLIP) && gs_algo_supported(dev, GS_ALGO_TREE);
    return gs_algo_supported(dev, a);
}

int cli_open(const cli_options *o, gs_device **dev, gs_device_info *info)
{
    gs_status s = gs_device_open(o->backend, o->device, dev);
    if (s != GS_OK) {
        fprintf(stderr, "gridsync: cannot open %s device %d: %s\n", gs_backend_name(o->backend),
                o->device, gs_status_string(s));
        return -1;
    }
    gs_device_get_info(*dev, info);
    /* A run that checks or times nothing must not pass as one that did. */
    if (!o->algo_all) {
        unsigned runs = 0;
        for (unsigned i = 0; i < o->n_algos; ++i)
            runs += algo_runs(o, *dev, (gs_algo)o->algos[i]) ? 1u : 0u;
        if (runs == 0) {
            fprintf(stderr, "gridsync: none of the protocols named runs on the %s back end\n",
                    gs_backend_name(info->backend));
            gs_device_close(*dev);
            return -1;
        }
    }
    return 0;
}

unsigned cli_algos(const cli_options *o, gs_device *dev, gs_algo *out)
{
    unsigned n = 0;
    for (unsigned a = 0; a < GS_ALGO_COUNT_; ++a) {
        int named = o->algo_all;
        for (unsigned i = 0; i < o->n_algos; ++i)
            named |= o->algos[i] == a;
        if (named && algo_runs(o, dev, (gs_algo)a))
            out[n++] = (gs_algo)a;
        else if (named && !o->algo_all)
            fprintf(stderr, "gridsync: %s does not run on this back end, skipped\n", gs_algo_name((gs_algo)a));
    }
    return n;
}

void cli_progress(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gridsync: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
