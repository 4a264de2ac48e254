/* gs_run: the built-in programs, their buffers, and their check against a sequential
 * reference. The reference runs the same phase functions as the device, one work-item
 * at a time on the host, which is what a correct barrier must be equivalent to. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "gridsync/run.h"

#include "gridsync/prims_cpu.h"
#include "../kernels/workloads.h"

#define POISON 0xffffffffu
#define MAX_ITEMS (1u << 26)
#define MAX_REFERENCE_WORK (1ull << 28)

typedef struct buffers {
    size_t a_words, b_words;
    uint32_t *a, *b;      /* host images: initial values, then results */
    gs_mem *da, *db, *dc; /* device copies */
} buffers;

static unsigned phases_of(const gs_run_config *cfg)
{
    switch (cfg->workload) {
    case GS_WORKLOAD_TESTSYNC: return 2;
    case GS_WORKLOAD_STENCIL: return 2 * cfg->iterations;
    default: return cfg->iterations + 1;
    }
}

/* Words message passing reads per group and phase (gridsync.h: GS_MAX_MP_READS): every
 * logical group checks one word of every other, and a group runs its share of the
 * logical groups one after another. */
static uint64_t mp_reads(unsigned groups, unsigned logical)
{
    return ((uint64_t)logical + groups - 1u) / groups * logical;
}

static gs_status validate(const gs_barrier *b, const gs_run_config *cfg, unsigned *logical)
{
    if (cfg->groups == 0 || cfg->group_size == 0 || cfg->groups != b->groups)
        return GS_ERR_INVALID_ARGUMENT;
    if ((unsigned)cfg->workload > GS_WORKLOAD_FAULT_SKIP)
        return GS_ERR_INVALID_ARGUMENT;
    if (cfg->group_size > b->dev->info.max_group_size)
        return GS_ERR_INVALID_ARGUMENT;
    *logical = cfg->logical_groups ? cfg->logical_groups : cfg->groups;
    if (*logical < cfg->groups || (uint64_t)*logical * cfg->group_size > MAX_ITEMS)
        return GS_ERR_INVALID_ARGUMENT;
    if (cfg->workload == GS_WORKLOAD_STENCIL &&
        (cfg->iterations == 0 || cfg->iterations > (1u << 30)))
        return GS_ERR_INVALID_ARGUMENT;
    if (cfg->iterations > (1u << 30) || cfg->compute > GS_MAX_COMPUTE ||
        (cfg->split != 0 && cfg->split != 1) || cfg->compute_kind > GS_COMPUTE_KIND_AVERAGE)
        return GS_ERR_INVALID_ARGUMENT;
    /* A group's work is not interrupted when another's wait expires: unbounded, one
     * phase ran seconds past the timeout (gridsync.h: GS_MAX_DELAY). */
    if (cfg->delay > GS_MAX_DELAY || cfg->stress > GS_MAX_STRESS || cfg->late > GS_MAX_LATE)
        return GS_ERR_INVALID_ARGUMENT;
    /* The same for message passing's reads, quadratic in the logical groups. */
    if (cfg->workload == GS_WORKLOAD_MP && mp_reads(cfg->groups, *logical) > GS_MAX_MP_READS)
        return GS_ERR_INVALID_ARGUMENT;
    const gs_backend_ops *ops = b->dev->ops;
    unsigned bound = 0;
    gs_status s;
    if (b->algo == GS_ALGO_RELAUNCH || b->algo == GS_ALGO_RELAUNCH_GRAPH) {
        /* Every launch ends before the next: no co-residency needed, but a launch may
         * still have a bound of its own (cpu: a thread per work-item). */
        if (!ops->launch_groups)
            return GS_OK;
        s = ops->launch_groups(b->dev, cfg->group_size, &bound);
    } else {
        s = ops->max_groups(b->dev, cfg->group_size, &bound);
    }
    if (s != GS_OK)
        return s;
    return cfg->groups > bound ? GS_ERR_TOO_MANY_GROUPS : GS_OK;
}

static void fill_initial(const gs_run_config *cfg, buffers *bu)
{
    for (size_t i = 0; i < bu->a_words; ++i)
        bu->a[i] = POISON;
    for (size_t i = 0; i < bu->b_words; ++i)
        bu->b[i] = POISON;
    if (cfg->workload == GS_WORKLOAD_STENCIL)
        for (size_t i = 0; i < bu->a_words; ++i) /* seed 0: the blog's all-ones input */
            bu->a[i] = cfg->seed ? gs_mix(cfg->seed + (uint32_t)i) & 0xffffu : 1u;
}

/* Every phase, every logical group, every work-item, one after another. */
static void reference(const gs_work_params *prm, unsigned lsize, uint32_t *a, uint32_t *b)
{
    gs_word c[GS_C_WORDS];
    for (unsigned i = 0; i < GS_C_WORDS; ++i)
        atomic_init(&c[i], 0u);
    gs_work_params p = *prm;
    p.delay = 0;
    p.stress = 0;
    for (unsigned phase = p.phase_begin; phase < p.phase_end; ++phase)
        for (unsigned lg = 0; lg < p.logical_groups; ++lg)
            for (unsigned lid = 0; lid < lsize; ++lid)
                gs_work_phase(&p, phase, lg, lid, lsize, a, b, c);
}

static uint64_t count_diff(const uint32_t *x, const uint32_t *y, size_t n)
{
    uint64_t d = 0;
    for (size_t i = 0; i < n; ++i)
        d += x[i] != y[i];
    return d;
}

static void free_buffers(gs_device *dev, buffers *bu)
{
    gs_mem *m[] = {bu->da, bu->db, bu->dc};
    for (unsigned i = 0; i < 3; ++i)
        if (m[i])
            dev->ops->mem_free(dev, m[i]);
    free(bu->a);
    free(bu->b);
}

static gs_status upload(gs_device *dev, const gs_run_config *cfg, buffers *bu)
{
    const gs_backend_ops *o = dev->ops;
    uint32_t zero[GS_C_WORDS] = {0};
    gs_status s;
    fill_initial(cfg, bu);
    if ((s = o->mem_alloc(dev, bu->a_words * 4, &bu->da)) != GS_OK ||
        (s = o->mem_alloc(dev, bu->b_words * 4, &bu->db)) != GS_OK ||
        (s = o->mem_alloc(dev, sizeof zero, &bu->dc)) != GS_OK ||
        (s = o->mem_write(dev, bu->da, 0, bu->a, bu->a_words * 4)) != GS_OK ||
        (s = o->mem_write(dev, bu->db, 0, bu->b, bu->b_words * 4)) != GS_OK)
        return s;
    return o->mem_write(dev, bu->dc, 0, zero, sizeof zero);
}

static gs_status check(gs_device *dev, const gs_run_config *cfg, const gs_work_params *prm,
                       buffers *bu, gs_run_result *res)
{
    const gs_backend_ops *o = dev->ops;
    uint32_t c[GS_C_WORDS];
    uint32_t *ra = malloc(bu->a_words * 4), *rb = malloc(bu->b_words * 4);
    gs_status s = ra && rb ? GS_OK : GS_ERR_OUT_OF_MEMORY;
    if (s == GS_OK && (s = o->mem_read(dev, bu->dc, 0, c, sizeof c)) == GS_OK)
        res->mismatches += c[GS_C_ERRORS];
    if (s == GS_OK) {
        memcpy(ra, bu->a, bu->a_words * 4); /* initial values */
        memcpy(rb, bu->b, bu->b_words * 4);
        s = o->mem_read(dev, bu->da, 0, bu->a, bu->a_words * 4);
    }
    if (s == GS_OK)
        s = o->mem_read(dev, bu->db, 0, bu->b, bu->b_words * 4);
    uint64_t work = (uint64_t)bu->a_words * (prm->phase_end - prm->phase_begin);
    /* message passing: each work-item also reads a word of every group (no overflow:
     * the reads divide the bound instead of multiplying the work) */
    uint64_t reads = cfg->workload == GS_WORKLOAD_MP
                         ? 1u + (prm->logical_groups + cfg->group_size - 1u) / cfg->group_size
                         : 1u;
    int fault = cfg->workload == GS_WORKLOAD_FAULT_EXIT || cfg->workload == GS_WORKLOAD_FAULT_SKIP;
    if (s == GS_OK && cfg->workload != GS_WORKLOAD_EMPTY && !fault &&
        work <= MAX_REFERENCE_WORK / reads) {
        reference(prm, cfg->group_size, ra, rb);
        res->mismatches += count_diff(bu->a, ra, bu->a_words);
        if (cfg->workload != GS_WORKLOAD_MP) /* there b is scratch for the stress */
            res->mismatches += count_diff(bu->b, rb, bu->b_words);
        res->reference_checked = 1;
    }
    if (s == GS_OK && cfg->workload == GS_WORKLOAD_STENCIL) {
        res->all_equal = 1;
        for (size_t i = 1; i < bu->a_words; ++i)
            res->all_equal &= bu->a[i] == bu->a[0];
    }
    free(ra);
    free(rb);
    return s;
}

gs_status gs_run(gs_barrier *b, const gs_run_config *cfg, gs_run_result *res)
{
    if (!b || !cfg || !res)
        return GS_ERR_INVALID_ARGUMENT;
    memset(res, 0, sizeof *res);
    unsigned logical;
    gs_status s = validate(b, cfg, &logical);
    if (s != GS_OK || (s = gs_barrier_begin_launch(b, GS_DIM3_1D(cfg->groups),
                                                   GS_DIM3_1D(cfg->group_size), 0)) != GS_OK)
        return s;

    size_t items = (size_t)logical * cfg->group_size;
    buffers bu = {0};
    switch (cfg->workload) {
    case GS_WORKLOAD_TESTSYNC:
    case GS_WORKLOAD_STENCIL:
        bu.a_words = items;
        bu.b_words = items;
        break;
    case GS_WORKLOAD_MP:
        bu.a_words = 2 * items;
        bu.b_words = GS_SCRATCH_WORDS;
        break;
    default:
        bu.a_words = 1;
        bu.b_words = 1;
        break;
    }
    bu.a = malloc(bu.a_words * 4);
    bu.b = malloc(bu.b_words * 4);
    s = bu.a && bu.b ? upload(b->dev, cfg, &bu) : GS_ERR_OUT_OF_MEMORY;
    if (s == GS_OK)
        s = gs_barrier_clear_ack(b);

    gs_launch l = {0};
    l.state = b->state;
    l.a = bu.da;
    l.b = bu.db;
    l.c = bu.dc;
    l.params.work = (unsigned)cfg->workload;
    l.params.phase_begin = 0;
    l.params.phase_end = phases_of(cfg);
    l.params.logical_groups = logical;
    l.params.seed = cfg->seed;
    l.params.delay = cfg->delay;
    l.params.stress = cfg->stress;
    l.params.late = cfg->late;
    l.params.compute = cfg->compute;
    l.params.split = (unsigned)cfg->split;
    l.params.compute_kind = cfg->compute_kind; /* GS_COMPUTE_KIND_* are GS_COMPUTE_* */
    l.groups = cfg->groups;
    l.group_size = cfg->group_size;
    l.algo = b->algo;
    l.timeout_ms = b->timeout_ms;
    if (s == GS_OK)
        s = b->dev->ops->launch(b->dev, &l, &res->elapsed_ns);
    /* the relaunch baselines' kernels take no barrier: nothing to acknowledge */
    s = gs_barrier_end_launch(b, s, !gs_algo_is_host(b->algo));
    if (s == GS_OK) {
        res->barriers = l.params.phase_end - 1;
        s = check(b->dev, cfg, &l.params, &bu, res);
    }
    if (s == GS_OK && (res->mismatches ||
                       (cfg->workload == GS_WORKLOAD_STENCIL && !cfg->seed && !res->all_equal)))
        s = GS_ERR_CHECK_FAILED;
    free_buffers(b->dev, &bu);
    return s;
}
