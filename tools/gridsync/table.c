/* Results: the table on stdout, CSV, JSON and a gnuplot plot. Every figure carries
 * its device. Ratios are to the baselines measured in the same run. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char *cli_algo_name(gs_algo a) { return a == CLI_ALGO_LOCAL ? "local" : gs_algo_name(a); }

bench_row *table_add(bench_table *t)
{
    if (t->n == t->cap) {
        unsigned cap = t->cap ? 2 * t->cap : 64;
        bench_row *r = realloc(t->rows, cap * sizeof *r);
        if (!r)
            return NULL;
        t->rows = r;
        t->cap = cap;
    }
    bench_row *row = &t->rows[t->n++];
    memset(row, 0, sizeof *row);
    return row;
}

void table_free(bench_table *t) { free(t->rows); }

/* Two rows of one form (bench jacobi's; NULL elsewhere). */
int table_same_form(const bench_row *a, const bench_row *b)
{
    return a->form == b->form || (a->form && b->form && strcmp(a->form, b->form) == 0);
}

/* Whether base row b is the base of row r's form: of the same form, or of none
 * (relaunch), or the sync form's for the local and halo forms, which have no baselines of their own
 * (bench jacobi: cg, the vendor's barrier, is measured in the user's sync kernel). */
static int base_of_form(const bench_row *b, const bench_row *r)
{
    if (b->form == NULL || r->form == NULL || table_same_form(b, r))
        return 1;
    return (strcmp(r->form, "local") == 0 || strcmp(r->form, "halo") == 0) &&
           strcmp(b->form, "sync") == 0;
}

/* The same configuration's time with another method, if it passed. A best row's
 * configuration has no group count: it is compared with the base's best row. Of one
 * form: a row without one (relaunch, in bench jacobi) is compared with, and is the base
 * of, the first row of any form. */
double table_ratio(const bench_table *t, const bench_row *r, gs_algo base)
{
    if (r->scheme) /* wavefront rows carry their own speed-ups */
        return 0;
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *b = &t->rows[i];
        if (b->algo == base && (r->any_grid || (b->groups == r->groups && b->block == r->block)) &&
            b->any_grid == r->any_grid && b->iters == r->iters && b->compute == r->compute &&
            b->n == r->n && strcmp(b->experiment, r->experiment) == 0 && b->status == GS_OK &&
            r->status == GS_OK && b->total_ms > 0 && base_of_form(b, r))
            return r->total_ms / b->total_ms;
    }
    return 0;
}

const char *table_algo_name(const bench_row *r)
{
    const char *name = cli_algo_name(r->algo);
    return name ? name : r->scheme ? r->scheme : "?";
}

int table_add_best(bench_table *t, unsigned first, const gs_algo *ms, unsigned n_ms)
{
    unsigned end = t->n;
    for (unsigned m = 0; m < n_ms; ++m) {
        int best = -1;
        for (unsigned i = first; i < end; ++i)
            if (t->rows[i].algo == ms[m] && t->rows[i].status == GS_OK &&
                (best < 0 || t->rows[i].total_ms < t->rows[best].total_ms))
                best = (int)i;
        if (best < 0)
            continue;
        bench_row *r = table_add(t);
        if (r == NULL)
            return -1;
        *r = t->rows[best];
        r->experiment = "best";
        r->any_grid = 1;
        r->paired_cg = 0; /* its grid's pairing, not best against best */
    }
    return 0;
}

/* The three ratios of a row, each after its prefix; `none` where the baseline did not
 * run or pass (an empty CSV cell, JSON null: not 0, which reads as infinitely fast). */
static void ratios(FILE *f, const bench_table *t, const bench_row *r, const char *none,
                   const char *const prefix[3])
{
    static const gs_algo bases[] = {GS_ALGO_RELAUNCH, GS_ALGO_RELAUNCH_GRAPH, GS_ALGO_CG};
    for (unsigned i = 0; i < 3; ++i) {
        double x = table_ratio(t, r, bases[i]);
        fputs(prefix[i], f);
        if (x > 0)
            fprintf(f, "%.4f", x);
        else
            fputs(none, f);
    }
}

/* A speed-up after its prefix, or `none` where its base did not pass. */
static void speedup(FILE *f, double x, const char *prefix, const char *none)
{
    fputs(prefix, f);
    if (x > 0)
        fprintf(f, "%.4f", x);
    else
        fputs(none, f);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
    fputc('"', f);
}

static int write_csv(const bench_table *t, const char *path)
{
    FILE *f = cli_output_open(path);
    if (!f)
        return -1;
    fprintf(
        f,
        "experiment,device,backend,platform,algo,groups,block,iters,ns_per_barrier,total_ms,"
        "spread,ratio_relaunch,ratio_relaunch_graph,ratio_cg,state_bytes,n,compute,%s%s%scheck\n",
        t->wavefront ? "scheme,variant,tile,gcups,speedup_relaunch,speedup_global," : "",
        t->forms ? "form," : "", t->paired ? "paired_cg," : "");
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *r = &t->rows[i];
        fprintf(f, "%s,\"%s\",%s,\"%s\",%s,%u,%u,%u,%.1f,%.4f,%.3f,", r->experiment, t->dev.name,
                gs_backend_name(t->dev.backend), t->dev.platform, table_algo_name(r), r->groups,
                r->block, r->iters, r->ns_per_barrier, r->total_ms, r->spread);
        ratios(f, t, r, "", (const char *const[]){"", ",", ","});
        fprintf(f, ",%zu,%u,%u,", r->state_bytes, r->n, r->compute);
        if (t->wavefront) { /* bench wavefront's own columns: only its table has them */
            fprintf(f, "%s,%s,%u,%.4f,", r->scheme ? r->scheme : "", r->variant, r->tile, r->gcups);
            speedup(f, r->x_relaunch, "", "");
            speedup(f, r->x_global, ",", "");
            fputc(',', f);
        }
        if (t->forms) /* bench jacobi's: empty for a method without forms */
            fprintf(f, "%s,", r->form ? r->form : "");
        if (t->paired) {
            speedup(f, r->paired_cg, "", "");
            fputc(',', f);
        }
        fprintf(f, "%s\n", r->check);
    }
    return cli_output_close(f, path);
}

static int write_json(const bench_table *t, const char *path)
{
    FILE *f = cli_output_open(path);
    if (!f)
        return -1;
    fprintf(f, "{\n  \"device\": {\"name\": ");
    json_string(f, t->dev.name);
    fprintf(f, ", \"backend\": \"%s\", \"platform\": ", gs_backend_name(t->dev.backend));
    json_string(f, t->dev.platform);
    fprintf(f,
            ", \"compute_units\": %u, \"cc\": \"%u.%u\", \"clock_khz\": %u, \"mem_clock_khz\": %u,"
            " \"l2_bytes\": %llu},\n  \"rows\": [\n",
            t->dev.compute_units, t->dev.cc_major, t->dev.cc_minor, t->dev.clock_khz,
            t->dev.mem_clock_khz, (unsigned long long)t->dev.l2_bytes);
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *r = &t->rows[i];
        fprintf(f,
                "    {\"experiment\": \"%s\", \"algo\": \"%s\", \"groups\": %u, \"block\": %u, "
                "\"iters\": %u, \"ns_per_barrier\": %.1f, \"total_ms\": %.4f, \"spread\": %.3f, ",
                r->experiment, table_algo_name(r), r->groups, r->block, r->iters, r->ns_per_barrier,
                r->total_ms, r->spread);
        ratios(f, t, r, "null",
               (const char *const[]){
                   "\"ratio_relaunch\": ", ", \"ratio_relaunch_graph\": ", ", \"ratio_cg\": "});
        fprintf(f, ", \"state_bytes\": %zu, \"n\": %u, \"compute\": %u, ", r->state_bytes, r->n,
                r->compute);
        if (r->scheme) {
            fprintf(f, "\"scheme\": \"%s\", \"variant\": \"%s\", \"tile\": %u, \"gcups\": %.4f, ",
                    r->scheme, r->variant, r->tile, r->gcups);
            speedup(f, r->x_relaunch, "\"speedup_relaunch\": ", "null");
            speedup(f, r->x_global, ", \"speedup_global\": ", "null");
            fputs(", ", f);
        }
        if (r->form)
            fprintf(f, "\"form\": \"%s\", ", r->form);
        if (t->paired) {
            speedup(f, r->paired_cg, "\"paired_cg\": ", "null");
            fputs(", ", f);
        }
        fprintf(f, "\"check\": \"%s\"}%s\n", r->check, i + 1 < t->n ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return cli_output_close(f, path);
}

/* The value a row has on the plot's x axis. */
static unsigned x_of(const bench_row *r, const char *xlabel)
{
    if (strcmp(xlabel, "iters") == 0)
        return r->iters;
    return strcmp(xlabel, "compute") == 0 ? r->compute : r->groups;
}

/* Rows a and b are on one line: same protocol, same experiment (split: same form), the
 * same form (jacobi), the same problem size (jacobi), and the same grid where the x axis
 * is not the group count (bench split --groups 132,1056 draws a line per grid, not one
 * that jumps between them). */
static int same_line(const bench_row *a, const bench_row *b, const char *xlabel)
{
    return a->algo == b->algo && strcmp(a->experiment, b->experiment) == 0 &&
           table_same_form(a, b) && a->n == b->n && (a->n == 0 || a->iters == b->iters) &&
           (strcmp(xlabel, "groups") == 0 || a->groups == b->groups);
}

/* Row i is the first passing row of its line. Best rows (one grid per method) are not
 * drawn: they repeat points of the lines. */
static int starts_line(const bench_table *t, unsigned i, const char *xlabel)
{
    if (t->rows[i].status != GS_OK || t->rows[i].any_grid)
        return 0;
    for (unsigned j = 0; j < i; ++j)
        if (same_line(&t->rows[j], &t->rows[i], xlabel) && t->rows[j].status == GS_OK)
            return 0;
    return 1;
}

/* gnuplot's script for a line per protocol (and form) of `y` against `xlabel` (groups,
 * iters or compute): total ms against iters, ns per barrier otherwise. The PNG goes to
 * gnuplot's stdout. */
static void plot_script(const bench_table *t, const char *xlabel, FILE *g)
{
    int by_iters = strcmp(xlabel, "iters") == 0, forms = 0, grids = 0, sizes = 0;
    for (unsigned i = 1; i < t->n; ++i) {
        forms |= strcmp(t->rows[i].experiment, t->rows[0].experiment) != 0 && !t->rows[i].any_grid;
        grids |= strcmp(xlabel, "groups") != 0 && t->rows[i].groups != t->rows[0].groups;
        sizes |= t->rows[i].n != t->rows[0].n;
    }
    fprintf(g, "set terminal pngcairo size 900,600\nset key outside\n");
    fprintf(g, "set title \"%s (%s)\"\nset xlabel '%s'\nset ylabel '%s'\nset logscale y\n",
            t->dev.name, gs_backend_name(t->dev.backend), xlabel,
            by_iters               ? "total ms"
            : t->n && t->rows[0].n ? "ns per iteration"
                                   : "ns per barrier");
    int first = 1;
    fprintf(g, "plot ");
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *r = &t->rows[i];
        if (!starts_line(t, i, xlabel))
            continue;
        fprintf(g, "%s'-' with linespoints title '%s%s%s%s%s", first ? "" : ", ",
                table_algo_name(r), forms ? " " : "", forms ? r->experiment : "",
                r->form ? " " : "", r->form ? r->form : "");
        if (grids)
            fprintf(g, ", %u groups", r->groups);
        if (sizes)
            fprintf(g, ", N=%u T=%u", r->n, r->iters);
        fputc('\'', g);
        first = 0;
    }
    fprintf(g, "\n");
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *r = &t->rows[i];
        if (!starts_line(t, i, xlabel))
            continue;
        for (unsigned k = i; k < t->n; ++k)
            if (same_line(&t->rows[k], r, xlabel) && t->rows[k].status == GS_OK)
                fprintf(g, "%u %g\n", x_of(&t->rows[k], xlabel),
                        by_iters ? t->rows[k].total_ms : t->rows[k].ns_per_barrier);
        fprintf(g, "e\n");
    }
}

/* The PNG gnuplot draws from `script`, read from its stdout; NULL where gnuplot failed
 * (or is missing) or drew nothing. */
static unsigned char *run_gnuplot(const char *script, size_t *size)
{
    char cmd[4200];
    unsigned char *png = NULL;
    size_t n = 0, cap = 0, got = 1;
    snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null", script);
    FILE *g = popen(cmd, "r");
    if (g == NULL)
        return NULL;
    while (got > 0) {
        if (n == cap) {
            unsigned char *more = realloc(png, cap ? 2 * cap : 65536);
            if (more == NULL)
                break;
            png = more;
            cap = cap ? 2 * cap : 65536;
        }
        n += got = fread(png + n, 1, cap - n, g);
    }
    int ok = got == 0 && !ferror(g);
    if (pclose(g) != 0 || !ok || n == 0) {
        free(png);
        return NULL;
    }
    *size = n;
    return png;
}

/* The plot, drawn by gnuplot from a script in a temporary file, its PNG read back and
 * written here: gnuplot writing the file itself exits 0 having written nothing on a full
 * disk, so every write to the --plot file is ours, checked as the CSV's are. */
static int write_plot(const bench_table *t, const char *path, const char *xlabel)
{
    const char *tmp = getenv("TMPDIR");
    char script[4096];
    size_t size = 0;
    /* the shell sees the name in single quotes: a directory with one is not used */
    snprintf(script, sizeof script, "%s/gridsync-plot-XXXXXX",
             tmp && *tmp && !strchr(tmp, '\'') ? tmp : "/tmp");
    int fd = mkstemp(script);
    FILE *s = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (s == NULL) {
        fprintf(stderr, "gridsync: cannot plot to %s: no temporary file for gnuplot's script\n",
                path);
        if (fd >= 0) {
            close(fd);
            remove(script);
        }
        return -1;
    }
    plot_script(t, xlabel, s);
    int scripted = cli_output_close(s, script) == 0; /* else it said why */
    unsigned char *png = scripted ? run_gnuplot(script, &size) : NULL;
    remove(script);
    if (png == NULL) {
        fprintf(stderr, "gridsync: cannot plot to %s%s\n", path,
                scripted ? " (is gnuplot installed?)" : "");
        return -1;
    }
    FILE *f = cli_output_open(path);
    if (f)
        fwrite(png, 1, size, f);
    free(png);
    return cli_output_close(f, path);
}

/* Each writer says which file it could not write. */
int table_write(const bench_table *t, const cli_options *o, const char *xlabel)
{
    int rc = 0;
    if (o->csv && write_csv(t, o->csv) != 0)
        rc = -1;
    if (o->json && write_json(t, o->json) != 0)
        rc = -1;
    if (o->plot && write_plot(t, o->plot, xlabel) != 0)
        rc = -1;
    return rc;
}
