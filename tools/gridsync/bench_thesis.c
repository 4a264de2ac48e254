/* bench thesis: the experiments of the 2013 ANU thesis (seed 000, "Inter-block
 * synchronization on a GPGPU"), Appendices H, I and J, on today's devices, through the
 * experiments that already time them (bench groups, iters, memory) with the thesis's
 * grid, protocols and computation as defaults:
 *   - protocols: its CB Sync (our central), DCB Sync (lockfree) and CPU Sync (relaunch:
 *     a kernel launch per barrier);
 *   - work-groups of 128 work-items. The thesis never prints its size; 128 is the one its
 *     own numbers allow: Appendix J's CPU Sync data grows by exactly 512 bytes per group
 *     (4 bytes per work-item), and DCB needs at least as many work-items as groups (70);
 *   - the computation of its Figure 4-3, avg = (a + b) / 2, 20000 times per work-item
 *     before every barrier (workloads.h, gs_compute, says how it is kept from being
 *     optimised away);
 *   - H: 1, 10, 20 ... 70 groups, one barrier (the thesis: "synchronizations are
 *     performed once"), the median of 10 runs (it averaged 10);
 *   - I: 70 groups, 10, 500, 1000 ... 3000 barriers;
 *   - J: the state each protocol allocates at 10, 20 ... 70 groups (runs nothing).
 * Every option overrides its default; grids past the co-residency bound (on a CPU, past
 * twice its cores) are left out, or refused where --groups names them. */
#include <stdio.h>

#include "bench_defaults.h"

#define THESIS_BLOCK 128u
#define THESIS_COMPUTE 20000u
#define THESIS_REPEATS 10u

static const unsigned thesis_groups[] = {1, 10, 20, 30, 40, 50, 60, 70};
static const unsigned thesis_iters[] = {10, 500, 1000, 1500, 2000, 2500, 3000};

/* The thesis's protocols, unless --algo names others. */
static void default_algos(cli_options *w)
{
    static const gs_algo thesis[] = {GS_ALGO_CENTRAL, GS_ALGO_LOCKFREE, GS_ALGO_RELAUNCH};
    if (w->given & OPT_ALGO)
        return;
    w->algo_all = 0;
    w->n_algos = 0;
    for (unsigned i = 0; i < sizeof thesis / sizeof *thesis; ++i)
        w->algos[w->n_algos++] = (unsigned)thesis[i];
}

/* The largest grid of the defaults: the co-residency bound; on a CPU (cpu back end,
 * PoCL) at most twice the compute units, as bench groups has it: more groups only time
 * the scheduler (30 groups of 128 threads took 0.6 s a barrier on 2 cores). */
static unsigned largest(const gs_device_info *d, unsigned bound)
{
    unsigned cap = 2 * (d->compute_units ? d->compute_units : 1);
    return d->is_gpu || bound < cap ? bound : cap;
}

/* Appendix H's group counts that fit (bound: largest()), and the bound itself where it
 * is under 70, so a CPU still shows its largest grid. */
static void h_groups(cli_options *w, unsigned bound)
{
    if (w->n_groups)
        return;
    for (unsigned i = 0; i < sizeof thesis_groups / sizeof *thesis_groups; ++i)
        if (thesis_groups[i] <= bound)
            w->groups[w->n_groups++] = thesis_groups[i];
    if (bound < 70 && w->groups[w->n_groups - 1] != bound)
        w->groups[w->n_groups++] = bound;
}

/* Appendix I's barrier counts: all of them on a GPU (--quick: the first); on a CPU,
 * where 20000 steps per work-item per barrier take 2 ms a group (PoCL) to 27 ms (the cpu
 * back end, 4 groups of 128 threads on 2 cores), the first. */
static void i_iters(cli_options *w, int is_gpu)
{
    unsigned n = w->quick || !is_gpu ? 1 : sizeof thesis_iters / sizeof *thesis_iters;
    if (w->n_iters)
        return;
    for (; w->n_iters < n; ++w->n_iters)
        w->iters_list[w->n_iters] = thesis_iters[w->n_iters];
}

/* The options that act in some appendices only, and which: where --appendix leaves all
 * of those out the option would do nothing, so it is refused (J times nothing: no
 * timing option acts there). */
static const struct {
    unsigned opt, appendices;
    const char *names;
} only_in[] = {
    {OPT_ITERS, CLI_APPENDIX_H, "appendix H"}, /* I's barrier counts are --iters-list */
    {OPT_ITERS_LIST, CLI_APPENDIX_I, "appendix I"},
    {OPT_COMPUTE, CLI_APPENDIX_H | CLI_APPENDIX_I, "appendices H and I"},
    {OPT_REPEATS, CLI_APPENDIX_H | CLI_APPENDIX_I, "appendices H and I"},
    {OPT_TIMEOUT, CLI_APPENDIX_H | CLI_APPENDIX_I, "appendices H and I"},
    {OPT_QUICK, CLI_APPENDIX_H | CLI_APPENDIX_I, "appendices H and I"},
    {OPT_MAX_SPREAD, CLI_APPENDIX_H | CLI_APPENDIX_I, "appendices H and I"},
    {OPT_ALLOW_REFUSED, CLI_APPENDIX_H | CLI_APPENDIX_I, "appendices H and I"},
};

/* 2 where an option given acts in none of the appendices --appendix names, else 0. */
static int check_appendix(const cli_options *o)
{
    for (unsigned i = 0; o->appendix && i < sizeof only_in / sizeof *only_in; ++i)
        if ((o->given & only_in[i].opt) && !(o->appendix & only_in[i].appendices))
            return cli_refuse_pair(only_in[i].opt, OPT_APPENDIX,
                                   "--%s acts in %s only, which --appendix leaves out",
                                   cli_option_name(only_in[i].opt), only_in[i].names);
    return 0;
}

int bench_thesis(gs_device *dev, const cli_options *o, bench_table *t)
{
    unsigned which = o->appendix ? o->appendix : CLI_APPENDIX_H | CLI_APPENDIX_I | CLI_APPENDIX_J;
    cli_options w = *o;
    unsigned bound;
    int rc = 0;
    if (o->plot && which != CLI_APPENDIX_H && which != CLI_APPENDIX_I) {
        fprintf(stderr, "gridsync: --plot draws one timed appendix here: add --appendix H or "
                        "--appendix I (J times nothing)\n");
        return 2;
    }
    if (check_appendix(o) != 0)
        return 2;
    if (o->n_compute > 1) {
        fprintf(stderr, "gridsync: --compute takes one value here (the thesis's averages per "
                        "work-item per barrier)\n");
        return 2;
    }
    default_algos(&w);
    w.block = o->block ? o->block : THESIS_BLOCK;
    if (!(o->given & OPT_REPEATS) && !o->quick)
        w.repeats = THESIS_REPEATS;
    if (!o->n_compute) {
        w.compute_list[0] = THESIS_COMPUTE;
        w.n_compute = 1;
    }
    w.compute_kind = GS_COMPUTE_KIND_AVERAGE;
    if (bench_bound(dev, w.block, &bound) != 0)
        return 2;
    bound = largest(&t->dev, bound);
    /* the plot's x axis: H's and J's is the group count, I's the barrier count (a plot
     * of more than one appendix is refused before anything runs) */
    t->xlabel = which == CLI_APPENDIX_I ? "iters" : "groups";
    if (rc == 0 && (which & CLI_APPENDIX_H)) {
        cli_options h = w;
        h.experiment = "thesis-H";
        h.iters = o->iters ? o->iters : 1;
        h_groups(&h, bound);
        rc = bench_groups(dev, &h, t);
    }
    if (rc == 0 && (which & CLI_APPENDIX_I)) {
        cli_options i = w;
        i.experiment = "thesis-I";
        if (!i.n_groups) {
            i.groups[0] = bound < 70 ? bound : 70;
            i.n_groups = 1;
        }
        i_iters(&i, t->dev.is_gpu);
        rc = bench_iters(dev, &i, t);
    }
    if (rc == 0 && (which & CLI_APPENDIX_J)) {
        cli_options j = w;
        j.experiment = "thesis-J";
        if (!j.n_groups)
            for (; j.n_groups < 7; ++j.n_groups)
                j.groups[j.n_groups] = 10 * (j.n_groups + 1);
        rc = bench_memory(dev, &j, t);
    }
    return rc;
}
