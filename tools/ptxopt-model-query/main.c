/* ptxopt-model-query — print what the model says, for scripts and tests.
 *
 *   ptxopt-model-query list
 *   ptxopt-model-query arch ARCH
 *   ptxopt-model-query occupancy ARCH BLOCK REGS [SMEM]
 *   ptxopt-model-query levels ARCH BLOCK [SMEM]       cp(C) for every reachable level C
 *   ptxopt-model-query points ARCH BLOCK [SMEM [RLO RHI]]
 *   ptxopt-model-query universal ARCH [SMEM]
 *
 * Output is one "key value" record per line, easy to split.  Installed
 * (man/ptxopt-model-query.1: what regtune and ptxopt-tune base their
 * register caps on, for scripts); testsuite/model/ptxas_critical_points.py
 * compares `levels` with ptxas. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "model/critical.h"

static const char *prog = "ptxopt-model-query";

static int usage(FILE *f, int status)
{
    fprintf(f,
            "usage: %s list\n"
            "       %s arch ARCH\n"
            "       %s occupancy ARCH BLOCK REGS [SMEM]\n"
            "       %s levels ARCH BLOCK [SMEM]\n"
            "       %s points ARCH BLOCK [SMEM [RLO RHI]]\n"
            "       %s universal ARCH [SMEM]\n"
            "ARCH is sm_86, sm_90a, 8.6, ...; SMEM is static shared bytes per block.\n",
            prog, prog, prog, prog, prog, prog);
    return status;
}

/* Parses a non-negative decimal number; exits with status 2 on junk. */
static long long number(const char *what, const char *s)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < 0 || v > INT_MAX) {
        fprintf(stderr, "%s: error: %s '%s' is not a non-negative number\n", prog, what, s);
        exit(2);
    }
    return v;
}

static const Arch *arch_arg(const char *s)
{
    const Arch *a = arch_find(s);
    if (!a) {
        fprintf(stderr, "%s: error: unknown architecture '%s' (try '%s list')\n", prog, s, prog);
        exit(2);
    }
    return a;
}

static void print_arch(const Arch *a)
{
    printf("name %s\nsm %d\ngpus %s\nptxas13 %d\n", a->name, a->sm, a->example_gpus, a->ptxas13);
    printf("warp_size %d\nmax_threads_per_block %d\nmax_threads_per_sm %d\nmax_warps_per_sm %d\n",
           a->warp_size, a->max_threads_per_block, a->max_threads_per_sm, a->max_warps_per_sm);
    printf("max_blocks_per_sm %d\nregs_per_sm %d\nregs_per_block %d\nreg_alloc_unit %d\n",
           a->max_blocks_per_sm, a->regs_per_sm, a->regs_per_block, a->reg_alloc_unit);
    printf("reg_sub_partitions %d\nmax_regs_per_thread %d\nmin_regs_per_thread %d\n", a->reg_sub_partitions,
           a->max_regs_per_thread, a->min_regs_per_thread);
    printf("smem_per_sm %d\nsmem_per_block %d\nsmem_per_block_optin %d\nsmem_alloc_unit %d\n", a->smem_per_sm,
           a->smem_per_block, a->smem_per_block_optin, a->smem_alloc_unit);
    printf("smem_reserved_per_block %d\ncarveouts_kb", a->smem_reserved_per_block);
    for (int i = 0; i < a->n_carveouts; i++)
        printf(" %d", a->carveout_kb[i]);
    printf("\nbarriers_per_block %d\nbarriers_per_sm %d\nbarrier_limit %d\n", a->barriers_per_block,
           a->barriers_per_sm, a->barrier_limit);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
        printf("%s (ptxopt) %s\n", prog, PACKAGE_VERSION);
        return 0;
    }
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
        return usage(stdout, 0);
    if (argc < 2)
        return usage(stderr, 2);
    const char *cmd = argv[1];

    if (!strcmp(cmd, "list") && argc == 2) {
        size_t n;
        const Arch *t = arch_table(&n);
        for (size_t i = 0; i < n; i++)
            printf("%s ptxas13 %d\n", t[i].name, t[i].ptxas13);
        return 0;
    }
    if (!strcmp(cmd, "arch") && argc == 3) {
        print_arch(arch_arg(argv[2]));
        return 0;
    }
    if (!strcmp(cmd, "occupancy") && (argc == 5 || argc == 6)) {
        const Arch *a = arch_arg(argv[2]);
        OccInput in = occ_input((int)number("block size", argv[3]), (int)number("register count", argv[4]));
        if (argc == 6)
            in.smem_static = number("shared memory", argv[5]);
        Occupancy o = occ_compute(a, &in);
        printf("blocks %d\nwarps %d\noccupancy %.4f\nlimit %s\n", o.blocks_per_sm, o.active_warps, o.occupancy,
               occ_limit_name(o.limit));
        if (o.error != OCC_OK)
            printf("error %s\n", occ_error_message(o.error));
        return 0;
    }
    if (!strcmp(cmd, "levels") && (argc == 4 || argc == 5)) {
        const Arch *a = arch_arg(argv[2]);
        OccInput in = occ_input((int)number("block size", argv[3]), 0);
        if (argc == 5)
            in.smem_static = number("shared memory", argv[4]);
        int max = crit_max_level(a, &in);
        printf("max_level %d\n", max);
        for (int c = 1; c <= max; c++)
            printf("level %d regs %d\n", c, crit_regs_for_level(a, &in, c));
        return 0;
    }
    if (!strcmp(cmd, "points") && (argc == 4 || argc == 5 || argc == 7)) {
        const Arch *a = arch_arg(argv[2]);
        OccInput in = occ_input((int)number("block size", argv[3]), 0);
        int lo = 0, hi = 0;
        if (argc >= 5)
            in.smem_static = number("shared memory", argv[4]);
        if (argc == 7) {
            lo = (int)number("register range start", argv[5]);
            hi = (int)number("register range end", argv[6]);
        }
        CritPoint cp[CRIT_MAX_POINTS];
        int n = crit_points(a, &in, lo, hi, cp);
        for (int i = 0; i < n; i++)
            printf("regs %d blocks %d warps %d occupancy %.4f limit %s\n", cp[i].regs, cp[i].blocks_per_sm,
                   cp[i].active_warps, cp[i].occupancy, occ_limit_name(cp[i].limit));
        if (n == 0)
            printf("none\n");
        return 0;
    }
    if (!strcmp(cmd, "universal") && (argc == 3 || argc == 4)) {
        const Arch *a = arch_arg(argv[2]);
        OccInput in = occ_input(0, 0);
        if (argc == 4)
            in.smem_static = number("shared memory", argv[3]);
        int regs[CRIT_MAX_POINTS];
        int n = crit_universal(a, &in, regs);
        printf("universal");
        for (int i = 0; i < n; i++)
            printf(" %d", regs[i]);
        printf("\n");
        return 0;
    }
    fprintf(stderr, "%s: error: bad command line\n", prog);
    return usage(stderr, 2);
}
