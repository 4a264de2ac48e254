/* Command-line options common to every subcommand. A bad value is reported with its
 * option and the range it must lie in, before anything opens a device. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The ranges below are the library's own limits (gs_run, gs_barrier_set_timeout,
 * GS_MAX_GROUPS, GS_MAX_COMPUTE): a value past them would only come back as an error
 * row after the run had started. */
static const struct cli_opt {
    const char *name;
    unsigned bit;
    const char *arg;  /* NULL: takes no value */
    const char *text; /* the value's form and range, and what the option does */
} opts[] = {
    {"backend", OPT_BACKEND, "B",
     "auto, cpu, opencl or cuda (default auto: the best device present)"},
    {"device", OPT_DEVICE, "N", "0 to 1024: the device's index within its back end (default 0)"},
    {"algo", OPT_ALGO, "LIST",
     "all (default), or protocols separated by commas (gridsync help algos;\n"
     "                    bench sor also takes local)"},
    {"groups", OPT_GROUPS, "LIST",
     "1 to 16777216 each, at most 64, separated by commas: grids to run"},
    {"block", OPT_BLOCK, "N", "1 to the device's largest group: work-items per group"},
    {"iters", OPT_ITERS, "N", "1 to 1073741824: barriers per timed run (jacobi: iterations)"},
    {"iters-list", OPT_ITERS_LIST, "LIST", "1 to 1073741824 each, at most 64: barriers per run"},
    {"compute", OPT_COMPUTE, "LIST",
     "1 to 1048576 each, at most 64: multiply-adds per work-item per barrier (bench\n"
     "                    thesis: one value, the thesis's averages)"},
    {"sizes", OPT_SIZES, "N:T,...",
     "T from 1 to 1073741824 iterations of size N: jacobi an N x N grid, N from 3 to\n"
     "                    32768; sor N x N, 3 to 32768, T sweeps up to 16777215; stencil N\n"
     "                    elements, 2 to 268435456"},
    {"n", OPT_N, "N",
     "2 to 268435456: the stencil's elements (the blog's 2048; 1048576 overflows the registers)"},
    {"steps", OPT_STEPS, "LIST",
     "1 to 1000000000000 each, at most 64: integration steps of the pi program"},
    {"appendix", OPT_APPENDIX, "LIST",
     "H, I or J, or a list (default H,I,J): the thesis's experiments to run"},
    {"matrix", OPT_MATRIX, "LIST",
     "1 to 65536 each, at most 64: wavefront sequence lengths (an (N+1)^2 matrix)"},
    {"tile", OPT_TILE, "LIST",
     "2 to 64 each: tile sides in cells; bench wavefront: 16, 32 or 64 each (B x B\n"
     "                    cells, B work-items); bench sor: one side, 2 to 32 (default 32 on\n"
     "                    a GPU, 4 cpu, 8 OpenCL)"},
    {"variants", OPT_VARIANTS, "LIST",
     "wavefront local variants: tile, row, kK, rows, rows-kK (K 1 to 1024), at most 64"},
    {"schemes", OPT_SCHEMES, "LIST",
     "wavefront schemes: relaunch, relaunch-graph, global, cg, local, local-tagged\n"
     "                    (default: every one that runs on the device)"},
    {"devices", OPT_DEVICES, "LIST",
     "0 to 1024 each, at most 32: bench multi's devices, one a rank, by index in the\n"
     "                    back end (the same index twice: two ranks on one device)"},
    {"form", OPT_FORM, "LIST",
     "sync, split, local, resident or halo, several separated by commas (default: all): bench "
     "jacobi's forms"},
    {"repeats", OPT_REPEATS, "N",
     "1 to 1000: timed runs, the median is reported (default 5, --quick 3)"},
    {"timeout-ms", OPT_TIMEOUT, "N", "1 to 3600000: how long a barrier waits before it gives up"},
    {"quick", OPT_QUICK, NULL, "fewer grids, barriers and repeats, where no option names them"},
    {"max-spread", OPT_MAX_SPREAD, "X",
     "0 to 1000: warn about rows whose spread is larger (default 0.5)"},
    {"allow-refused", OPT_ALLOW_REFUSED, NULL,
     "refused rows (more groups than fit) do not make the exit status 1"},
    {"csv", OPT_CSV, "FILE", "write the rows as CSV"},
    {"json", OPT_JSON, "FILE", "write the rows and the device as JSON"},
    {"plot", OPT_PLOT, "FILE.png", "draw the rows with gnuplot"},
};
#define N_OPTS (sizeof opts / sizeof *opts)

/* The options whose value is a file name: --csv --json is a missing value, not a file
 * called --json (it wrote one). */
#define OPT_FILES (OPT_CSV | OPT_JSON | OPT_PLOT)

/* Every whole number of the options: decimal digits and nothing else, min..max. strtoull
 * alone takes " 5", "+5" and "-5" (as a huge number), and stops at the x of "0x10". */
static int parse_ull(const char *s, unsigned long long min, unsigned long long max,
                     unsigned long long *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end != '\0' || errno == ERANGE || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

static int parse_uint(const char *s, unsigned min, unsigned max, unsigned *out)
{
    unsigned long long v;
    if (parse_ull(s, min, max, &v) != 0)
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
    if (*l->n == CLI_MAX_LIST || parse_uint(tok, l->min, l->max, &v) != 0)
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

/* N:T, N within the widest of the apps' bounds (jacobi's 3..32768 side, the stencil's
 * 2..2^28 elements): each experiment refuses, naming --sizes, what its app does not take. */
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
    if (parse_uint(n, 2, 1u << 28, &side) != 0 ||
        parse_uint(colon + 1, 1, CLI_MAX_ITERS, &iters) != 0)
        return -1;
    o->sizes_n[o->n_sizes] = side;
    o->sizes_t[o->n_sizes++] = iters;
    return 0;
}

static int take_steps(const char *tok, void *ctx)
{
    cli_options *o = ctx;
    if (o->n_steps == CLI_MAX_LIST || parse_ull(tok, 1, CLI_MAX_STEPS, &o->steps[o->n_steps]) != 0)
        return -1;
    ++o->n_steps;
    return 0;
}

/* bench thesis --appendix: H, I, J (either case), each at most once. */
static int take_appendix(const char *tok, void *ctx)
{
    unsigned *bits = ctx, bit;
    if (tok[0] == '\0' || tok[1] != '\0')
        return -1;
    switch (tok[0]) {
    case 'H':
    case 'h': bit = CLI_APPENDIX_H; break;
    case 'I':
    case 'i': bit = CLI_APPENDIX_I; break;
    case 'J':
    case 'j': bit = CLI_APPENDIX_J; break;
    default: return -1;
    }
    if (*bits & bit)
        return -1;
    *bits |= bit;
    return 0;
}

/* bench jacobi --form: sync, split, local, resident, halo, each at most once. */
static int take_form(const char *tok, void *ctx)
{
    unsigned *bits = ctx;
    unsigned bit = strcmp(tok, "sync") == 0       ? CLI_FORM_SYNC
                   : strcmp(tok, "split") == 0    ? CLI_FORM_SPLIT
                   : strcmp(tok, "local") == 0    ? CLI_FORM_LOCAL
                   : strcmp(tok, "resident") == 0 ? CLI_FORM_RESIDENT
                   : strcmp(tok, "halo") == 0     ? CLI_FORM_HALO
                                                  : 0u;
    if (bit == 0u || (*bits & bit))
        return -1;
    *bits |= bit;
    return 0;
}

static int take_tile(const char *tok, void *ctx)
{
    cli_options *o = ctx;
    unsigned v;
    if (o->n_tiles == CLI_MAX_LIST || parse_uint(tok, 2, 64, &v) != 0)
        return -1;
    o->tiles[o->n_tiles++] = v;
    o->tile = o->tiles[0]; /* bench sor's one side */
    return 0;
}

/* Only the form here (the app that knows the variants is not linked into every CLI):
 * bench wavefront checks each name before anything runs. */
static int take_variant(const char *tok, void *ctx)
{
    cli_options *o = ctx;
    if (o->n_variants == CLI_MAX_LIST || strlen(tok) >= sizeof o->variants[0])
        return -1;
    strcpy(o->variants[o->n_variants++], tok);
    return 0;
}

/* The same for --schemes: bench wavefront knows the names. */
static int take_scheme(const char *tok, void *ctx)
{
    cli_options *o = ctx;
    if (o->n_schemes == CLI_MAX_LIST || strlen(tok) >= sizeof o->schemes[0])
        return -1;
    strcpy(o->schemes[o->n_schemes++], tok);
    return 0;
}

static int take_algo(const char *tok, void *ctx)
{
    cli_options *o = ctx;
    gs_algo a;
    if (strcmp(tok, "local") == 0)
        a = CLI_ALGO_LOCAL;
    else if (gs_algo_from_name(tok, &a) != GS_OK)
        return -1;
    if (o->n_algos < GS_ALGO_COUNT_ + 1u)
        o->algos[o->n_algos++] = (unsigned)a;
    return 0;
}

static int parse_algos(const char *s, cli_options *o)
{
    if (strcmp(s, "all") == 0) {
        o->algo_all = 1;
        return 0;
    }
    o->algo_all = 0;
    o->n_algos = 0;
    return each_element(s, take_algo, o);
}

/* A plain decimal number, min..max: digits with at most one point ("0.5", "2", ".5").
 * strtod alone takes "0x10", "+5", " 5", "1e2" and "inf". */
static int parse_decimal(const char *s, double min, double max, double *out)
{
    size_t whole = strspn(s, "0123456789"), point = s[whole] == '.';
    size_t frac = strspn(s + whole + point, "0123456789");
    if (whole + frac == 0 || s[whole + point + frac] != '\0')
        return -1;
    double v = strtod(s, NULL);
    if (!(v >= min && v <= max))
        return -1;
    *out = v;
    return 0;
}

/* Stores option k's value; non-zero if it is out of its range. */
static int take(const struct cli_opt *k, const char *v, cli_options *o)
{
    unsigned d;
    switch (k->bit) {
    case OPT_BACKEND: return gs_backend_from_name(v, &o->backend) != GS_OK;
    case OPT_DEVICE: return parse_uint(v, 0, 1024, &d) || (o->device = (int)d, 0);
    case OPT_ALGO: return parse_algos(v, o);
    case OPT_GROUPS: return parse_list(v, o->groups, &o->n_groups, 1, GS_MAX_GROUPS);
    case OPT_BLOCK: return parse_uint(v, 1, ~0u, &o->block);
    case OPT_ITERS: return parse_uint(v, 1, CLI_MAX_ITERS, &o->iters);
    case OPT_ITERS_LIST: return parse_list(v, o->iters_list, &o->n_iters, 1, CLI_MAX_ITERS);
    case OPT_COMPUTE: return parse_list(v, o->compute_list, &o->n_compute, 1, GS_MAX_COMPUTE);
    case OPT_SIZES: o->n_sizes = 0; return each_element(v, take_size, o);
    case OPT_N: return parse_uint(v, 2, 1u << 28, &o->n);
    case OPT_STEPS: o->n_steps = 0; return each_element(v, take_steps, o);
    case OPT_APPENDIX: o->appendix = 0; return each_element(v, take_appendix, &o->appendix);
    case OPT_MATRIX: return parse_list(v, o->matrix, &o->n_matrix, 1, 65536);
    case OPT_TILE: o->n_tiles = 0; return each_element(v, take_tile, o);
    case OPT_VARIANTS: o->n_variants = 0; return each_element(v, take_variant, o);
    case OPT_SCHEMES: o->n_schemes = 0; return each_element(v, take_scheme, o);
    case OPT_DEVICES: return parse_list(v, o->device_list, &o->n_device_list, 0, 1024);
    case OPT_FORM: o->forms = 0; return each_element(v, take_form, &o->forms);
    case OPT_REPEATS: return parse_uint(v, 1, 1000, &o->repeats);
    case OPT_TIMEOUT: return parse_uint(v, 1, CLI_MAX_TIMEOUT_MS, &o->timeout_ms);
    case OPT_QUICK: o->quick = 1; return 0;
    case OPT_MAX_SPREAD: return parse_decimal(v, 0, 1000, &o->max_spread);
    case OPT_ALLOW_REFUSED: o->allow_refused = 1; return 0;
    case OPT_CSV: o->csv = v; return 0;
    case OPT_JSON: o->json = v; return 0;
    default: o->plot = v; return 0;
    }
}

int cli_parse(int argc, char **argv, int first, cli_options *o)
{
    struct option longopts[N_OPTS + 1];
    for (unsigned i = 0; i < N_OPTS; ++i)
        longopts[i] = (struct option){opts[i].name, opts[i].arg ? required_argument : no_argument,
                                      0, (int)i + 1};
    longopts[N_OPTS] = (struct option){0, 0, 0, 0};
    memset(o, 0, sizeof *o);
    o->algo_all = 1;
    o->repeats = 5;
    o->max_spread = CLI_DEFAULT_MAX_SPREAD;
    optind = first;
    opterr = 0; /* getopt's own messages do not say what the option takes: ours do */
    int c;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        if (c == ':' && optopt > 0 && optopt <= (int)N_OPTS) {
            fprintf(stderr, "gridsync: --%s needs a value: %s\n", opts[optopt - 1].name,
                    opts[optopt - 1].text);
            return -1;
        }
        if (c <= 0 || c > (int)N_OPTS) {
            /* A short option: its letter (getopt may still be inside its word, which
             * optind has not passed, so argv[optind - 1] can be the word before it); an
             * unknown or ambiguous long one (optopt 0): the word. */
            char letter[3] = {'-', (char)optopt, 0};
            int in_word = optopt > (int)N_OPTS && optopt < 127;
            fprintf(stderr,
                    "gridsync: unknown or ambiguous option '%s' (gridsync help lists them)\n",
                    in_word ? letter : argv[optind - 1]);
            return -1;
        }
        const struct cli_opt *k = &opts[c - 1];
        o->given |= k->bit;
        if ((k->bit & OPT_FILES) && strncmp(optarg, "--", 2) == 0) {
            fprintf(stderr,
                    "gridsync: --%s: '%s' is an option, not a file name: --%s needs a file "
                    "(./%s names a file called so)\n",
                    k->name, optarg, k->name, optarg);
            return -1;
        }
        if (take(k, optarg, o) != 0) {
            fprintf(stderr, "gridsync: --%s: bad value '%s'; it takes %s\n", k->name, optarg,
                    k->text);
            return -1;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "gridsync: unexpected argument '%s'\n", argv[optind]);
        return -1;
    }
    /* Every experiment that takes --sizes N:T reads its size and iterations (sweeps) from
     * it alone: --n or --iters beside it would be dropped. */
    unsigned beside = o->given & (OPT_ITERS | OPT_N);
    if ((o->given & OPT_SIZES) && beside) {
        unsigned other = beside & OPT_ITERS ? OPT_ITERS : OPT_N;
        cli_refuse_pair(other, OPT_SIZES, "give one of them (--sizes N:T sets %s)",
                        other == OPT_ITERS ? "T" : "N");
        return -1;
    }
    if (o->quick && !(o->given & OPT_REPEATS))
        o->repeats = 3;
    return 0;
}

int cli_check_takes(const cli_command *c, const cli_options *o)
{
    const char *in = c->run ? "bench " : "";
    for (unsigned i = 0; i < N_OPTS; ++i)
        if ((o->given & opts[i].bit) && !(c->takes & opts[i].bit)) {
            fprintf(stderr,
                    "gridsync: %s%s does not take --%s (gridsync help %s%s lists what it takes)\n",
                    in, c->name, opts[i].name, in, c->name);
            return -1;
        }
    if ((c->takes & OPT_ONE_GROUPS) && o->n_groups > 1) {
        fprintf(stderr, "gridsync: %s%s runs one grid: --groups takes one value here\n", in,
                c->name);
        return -1;
    }
    return 0;
}

void cli_options_help(unsigned takes, FILE *f)
{
    for (unsigned i = 0; i < N_OPTS; ++i) {
        if (!(takes & opts[i].bit))
            continue;
        char head[40];
        snprintf(head, sizeof head, "--%s%s%s", opts[i].name, opts[i].arg ? " " : "",
                 opts[i].arg ? opts[i].arg : "");
        fprintf(f, "  %-18s%s%s\n", head, strlen(head) > 17 ? "\n                    " : "",
                opts[i].text);
    }
}

/* Whether protocol a runs on the device for this experiment. */
static int algo_runs(const cli_options *o, gs_device *dev, gs_algo a)
{
    if (a == CLI_ALGO_LOCAL)
        return o->takes_local;
    if (a == GS_ALGO_AUTO && o->takes_auto)
        return gs_algo_supported(dev, GS_ALGO_FLIP) && gs_algo_supported(dev, GS_ALGO_TREE);
    return gs_algo_supported(dev, a);
}

/* A run can take minutes on a GPU: an output file it could not write at the end would
 * lose it, so each one is tried before anything runs (an existing file is not touched,
 * a new one is not left behind). */
static int writable(const char *path)
{
    FILE *f;
    int existed;
    if (path == NULL)
        return 1;
    f = fopen(path, "r");
    existed = f != NULL;
    if (f)
        fclose(f);
    f = fopen(path, "a");
    if (f == NULL) {
        fprintf(stderr, "gridsync: cannot write %s\n", path);
        return 0;
    }
    fclose(f);
    if (!existed)
        remove(path);
    return 1;
}

int cli_outputs_ok(const cli_options *o)
{
    const char *paths[] = {o->csv, o->json, o->plot}, *names[] = {"--csv", "--json", "--plot"};
    for (unsigned i = 0; i < 3; ++i)
        for (unsigned k = i + 1; k < 3; ++k)
            if (paths[i] && paths[k] && strcmp(paths[i], paths[k]) == 0) {
                fprintf(stderr, "gridsync: %s and %s name the same file: %s\n", names[i], names[k],
                        paths[i]);
                return 0;
            }
    return writable(o->csv) && writable(o->json) && writable(o->plot);
}

FILE *cli_output_open(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        fprintf(stderr, "gridsync: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

/* fclose alone misses a write that failed before its last flush (the error indicator is
 * set, the final flush can still succeed), and callers that ignored it exited 0 with a
 * CSV cut short on a full disk: the flush, the indicator and the close, all three. */
int cli_output_close(FILE *f, const char *path)
{
    if (path == NULL)
        return 0; /* not asked for */
    if (f == NULL)
        return -1; /* cli_output_open said why */
    int flushed = fflush(f) == 0, err = flushed ? 0 : errno, failed = !flushed || ferror(f);
    if (fclose(f) != 0 && !failed) {
        failed = 1;
        err = errno;
    }
    if (failed)
        fprintf(stderr, "gridsync: cannot write %s: %s\n", path,
                err ? strerror(err) : "a write to it failed");
    return failed ? -1 : 0;
}

const char *cli_option_name(unsigned bit)
{
    for (unsigned i = 0; i < N_OPTS; ++i)
        if (opts[i].bit == bit)
            return opts[i].name;
    return "?";
}

int cli_refuse_pair(unsigned a, unsigned b, const char *why, ...)
{
    va_list ap;
    fprintf(stderr, "gridsync: --%s and --%s: ", cli_option_name(a), cli_option_name(b));
    va_start(ap, why);
    vfprintf(stderr, why, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

void cli_hint_no_device(gs_backend backend, gs_status s)
{
    if (s == GS_ERR_NO_DEVICE && backend == GS_BACKEND_OPENCL)
        fprintf(stderr, "gridsync: an OpenCL driver without its ICD file is reachable with "
                        "GRIDSYNC_OPENCL_ICD=LIB (NVIDIA: libnvidia-opencl.so.1); "
                        "GRIDSYNC_OPENCL_PLATFORM narrows the platforms (docs/using.md)\n");
}

int cli_open(const cli_options *o, gs_device **dev, gs_device_info *info)
{
    gs_status s = gs_device_open(o->backend, o->device, dev);
    if (s != GS_OK) {
        fprintf(stderr, "gridsync: cannot open %s device %d: %s\n", gs_backend_name(o->backend),
                o->device, gs_status_string(s));
        cli_hint_no_device(o->backend, s);
        return -1;
    }
    gs_device_get_info(*dev, info);
    /* The device's own limit, known only now, and still before anything runs. */
    if (o->block > info->max_group_size) {
        fprintf(stderr, "gridsync: --block: bad value '%u'; it takes 1 to %u on this device (%s)\n",
                o->block, info->max_group_size, info->name);
        gs_device_close(*dev);
        return -1;
    }
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

/* The baselines first: each protocol's row can then show its ratios to them as soon as
 * it is measured; cluster after the other protocols: its launches (blocks placed a
 * cluster at a time) change how fast every later kernel runs, for good (on an H200 the
 * user's Jacobi at 512^2 x 20000 on 132 blocks took 60.39 ms with flip's kernel before
 * cluster's configuration and 61.24 with the same kernel after it, and 0.9% less instead
 * on 264 blocks; bench/results/h200/fourteenth/auto_order.txt), so that what an
 * experiment compares has the same history; local last (where the experiment runs it). */
static int algo_class(gs_algo a) { return gsa_is_baseline(a) ? 0 : a == GS_ALGO_CLUSTER ? 2 : 1; }

unsigned cli_algos(const cli_options *o, gs_device *dev, gs_algo *out)
{
    unsigned n = 0;
    for (int rank = 0; rank <= 2; ++rank)
        for (unsigned a = 0; a < GS_ALGO_COUNT_; ++a) {
            if (algo_class((gs_algo)a) != rank)
                continue;
            int named = o->algo_all;
            for (unsigned i = 0; i < o->n_algos; ++i)
                named |= o->algos[i] == a;
            if (named && algo_runs(o, dev, (gs_algo)a))
                out[n++] = (gs_algo)a;
            else if (named && !o->algo_all)
                fprintf(stderr, "gridsync: %s does not run on this back end, skipped\n",
                        gs_algo_name((gs_algo)a));
        }
    int local = o->algo_all;
    for (unsigned i = 0; i < o->n_algos; ++i)
        local |= o->algos[i] == (unsigned)CLI_ALGO_LOCAL;
    if (local && o->takes_local)
        out[n++] = CLI_ALGO_LOCAL;
    else if (local && !o->algo_all)
        fprintf(stderr, "gridsync: local runs in bench sor only, skipped\n");
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
