/* regtune.c — per-kernel register caps and occupancy levels (see regtune.h
 * and the "regtune" section of ptxopt-passes(7)).
 *
 * The pass only edits the performance directives of a kernel's header; it
 * never touches the body, so it is function-local and always safe for the
 * kernel's meaning.  What it must get right is what ptxas does with the
 * directives (checked with ptxas 13.0 on sm_75 ... sm_120):
 *   - .maxnreg N: N in 1..255; 1..23 are raised to 24 with a warning, 0 is
 *     an error, above 255 it is ignored with a warning.  The last one wins.
 *   - any .maxnreg, .maxntid or .reqntid makes ptxas ignore the command
 *     line's --maxrregcount (unless -override-directive-values), so the
 *     user's cap is folded into what we emit (maxrregcount=R).
 *   - .minnctapersm needs .maxntid or .reqntid (else ignored with a
 *     warning); with one it caps registers at cp(C); a level above the
 *     threads-per-SM limit is ignored with a warning.
 *   - .maxnreg with .maxntid/.minnctapersm: the tighter cap wins.
 *   - .maxnreg 128 with .maxntid 1024 is accepted silently although no such
 *     block can ever launch: the pass checks feasibility itself.
 *   - .maxntid together with .reqntid is an error (never emitted: an
 *     existing one is kept and gives the block size). */
#include "opt/regtune.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/critical.h"
#include "model/occupancy.h"

#define PASS "regtune"

static const char *const regtune_keys[] = { "maxnreg", "level", "block", "kernel", "smem", "maxrregcount", NULL };

typedef struct Options {
    bool by_maxnreg;    /* maxnreg=N given (else level=C) */
    long maxnreg;
    long level;
    long block;         /* 0: not given */
    long smem;          /* dynamic shared memory per block, bytes */
    long maxrregcount;  /* 0: none */
    const char *kernel; /* NULL: every kernel */
} Options;

/* What the kernel already says and uses. */
typedef struct Kernel {
    int block;          /* threads from .reqntid/.maxntid, 0 if neither */
    const char *block_from; /* ".reqntid" or ".maxntid" */
    int minncta;        /* existing .minnctapersm, 0 if none */
    int maxnreg;        /* existing .maxnreg, 0 if none */
    long long smem;     /* static .shared bytes declared in the body + smem= */
    bool uses_shared;   /* any .shared declaration or access */
    bool setmaxnreg;    /* reconfigures its registers at run time */
} Kernel;

/* ------------------------------------------------------------ options */

/* The largest register cap any known target takes (255 on all of them). */
static int max_regs_any_target(void)
{
    size_t n;
    const Arch *t = arch_table(&n);
    int top = 0;
    for (size_t i = 0; i < n; i++)
        if (t[i].max_regs_per_thread > top) top = t[i].max_regs_per_thread;
    return top;
}

/* The one reader of the options: pipeline parsing validates with it (a
 * bad value is a usage error, reported before any input is read) and the
 * run reads with it. */
static bool read_options(const PassInvocation *inv, Options *o, char *err, size_t errsz)
{
    memset(o, 0, sizeof *o);
    if (!pass_arg_int(inv, "maxnreg", &o->maxnreg, 0, err, errsz) ||
        !pass_arg_int(inv, "level", &o->level, 0, err, errsz) ||
        !pass_arg_int(inv, "block", &o->block, 0, err, errsz) ||
        !pass_arg_int(inv, "smem", &o->smem, 0, err, errsz) ||
        !pass_arg_int(inv, "maxrregcount", &o->maxrregcount, 0, err, errsz))
        return false;
    o->kernel = pass_arg(inv, "kernel");
    bool has_n = pass_arg(inv, "maxnreg") != NULL, has_c = pass_arg(inv, "level") != NULL;
    if (has_n == has_c) {
        snprintf(err, errsz, "needs exactly one of maxnreg=N or level=C");
        return false;
    }
    if (pass_arg(inv, "block") && o->block <= 0) {
        snprintf(err, errsz, "block=%ld must be positive", o->block);
        return false;
    }
    if (o->smem < 0 || o->maxrregcount < 0) {
        snprintf(err, errsz, "%s=%ld is negative", o->smem < 0 ? "smem" : "maxrregcount", o->smem < 0 ? o->smem : o->maxrregcount);
        return false;
    }
    /* What is out of range on every target is a usage error (ptxopt(1):
     * "out of range" values are refused when the pipeline is parsed);
     * what depends on the target and the block (a level above what fits,
     * a cap no block can launch with) is a remark per kernel. */
    int top = max_regs_any_target();
    if (has_n && (o->maxnreg < 1 || o->maxnreg > top)) {
        snprintf(err, errsz, "maxnreg=%ld is outside 1..%d (ptxas rejects 0 and ignores values above %d)", o->maxnreg, top,
                 top);
        return false;
    }
    if (has_c && o->level < 1) {
        snprintf(err, errsz, "level=%ld must be at least 1 (resident blocks per SM)", o->level);
        return false;
    }
    o->by_maxnreg = has_n;
    return true;
}

static bool regtune_validate(const PassInvocation *inv, char *err, size_t errsz)
{
    Options o;
    return read_options(inv, &o, err, errsz);
}

/* ------------------------------------------------------- kernel facts */

static long long type_bytes(Str t)
{
    if (t.len < 3) return 0;
    if (str_eqc(t, ".pred")) return 1;
    long bits = 0;
    for (size_t i = 2; i < t.len && t.p[i] >= '0' && t.p[i] <= '9'; i++) bits = bits * 10 + (t.p[i] - '0');
    if (str_starts(t, ".f16x2") || str_starts(t, ".bf16x2")) return 4;
    if (str_starts(t, ".bf16")) return 2;
    return bits / 8;
}

static long long align_up(long long x, long long a) { return a > 1 ? (x + a - 1) / a * a : x; }

/* Bytes of one .shared declaration (every declarator); 0 for extern/unsized. */
static long long shared_decl_bytes(const Decl *d)
{
    long long total = 0, elem = type_bytes(d->type) * (d->vec ? d->vec : 1);
    for (uint16_t i = 0; i < d->ndecl; i++) {
        long long n = elem;
        for (uint8_t k = 0; k < d->decls[i].ndims; k++) n = d->decls[i].dims[k] < 0 ? 0 : n * d->decls[i].dims[k];
        total = align_up(total, d->align ? d->align : elem) + n;
    }
    return total;
}

static bool is_shared_space(Str s) { return str_starts(s, ".shared"); }

static void scan_body(Function *fn, Kernel *k)
{
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b) {
            if (s->kind == STMT_DECL && is_shared_space(s->u.decl->space)) {
                k->uses_shared = true;
                k->smem = align_up(k->smem, s->u.decl->align ? s->u.decl->align : 4) + shared_decl_bytes(s->u.decl);
            } else if (s->kind == STMT_INSTR) {
                const Instr *in = &s->u.instr;
                if (str_eqc(in->opname, "setmaxnreg")) k->setmaxnreg = true;
                for (int m = 0; m < instr_nmods(in) && !k->uses_shared; m++)
                    if (is_shared_space(instr_mod(in, m))) k->uses_shared = true;
            }
        }
}

static int perf_index(const Function *fn, const char *name)
{
    int found = -1;
    for (uint32_t i = 0; i < fn->nperf; i++)
        if (str_eqc(fn->perf[i].name, name)) found = (int)i; /* ptxas: the last one wins */
    return found;
}

static int perf_threads(const PerfDirective *p)
{
    long long t = 1;
    for (uint8_t i = 0; i < p->n; i++) t *= p->v[i];
    return p->n && t <= INT_MAX ? (int)t : 0;
}

static Kernel kernel_facts(Function *fn, const Options *o)
{
    Kernel k = { 0 };
    int i;
    if ((i = perf_index(fn, ".reqntid")) >= 0) k.block = perf_threads(&fn->perf[i]), k.block_from = ".reqntid";
    else if ((i = perf_index(fn, ".maxntid")) >= 0) k.block = perf_threads(&fn->perf[i]), k.block_from = ".maxntid";
    if ((i = perf_index(fn, ".minnctapersm")) >= 0 && fn->perf[i].n) k.minncta = (int)fn->perf[i].v[0];
    if ((i = perf_index(fn, ".maxnreg")) >= 0 && fn->perf[i].n) k.maxnreg = (int)fn->perf[i].v[0];
    scan_body(fn, &k);
    if (o->smem > 0) k.uses_shared = true;
    k.smem += o->smem;
    return k;
}

/* ------------------------------------------------- directive editing */

static void perf_remove(Function *fn, const char *name)
{
    uint32_t j = 0;
    for (uint32_t i = 0; i < fn->nperf; i++)
        if (!str_eqc(fn->perf[i].name, name)) fn->perf[j++] = fn->perf[i];
    fn->nperf = j;
    fn->header_dirty = true;
}

/* Sets `name` to the values, replacing every earlier one; new directives go
 * after the existing ones (the array is reallocated: its capacity is the
 * parser's). */
static void perf_set(Function *fn, const char *name, int n, uint32_t v0, uint32_t v1, uint32_t v2)
{
    perf_remove(fn, name);
    PerfDirective *nv = ARENA_ARRAY(&fn->mod->arena, PerfDirective, fn->nperf + 1);
    if (fn->nperf) memcpy(nv, fn->perf, sizeof *nv * fn->nperf);
    PerfDirective *p = &nv[fn->nperf];
    memset(p, 0, sizeof *p);
    p->name = str_c(name);
    p->text = p->name;
    p->n = (uint8_t)n;
    p->v[0] = v0, p->v[1] = v1, p->v[2] = v2;
    fn->perf = nv;
    fn->nperf++;
    fn->header_dirty = true;
}

/* ---------------------------------------------------------- messages */

/* "; what else was done", appended to a remark. */
typedef struct Notes {
    char text[384];
} Notes;

static void note(Notes *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(Notes *n, const char *fmt, ...)
{
    size_t len = strlen(n->text);
    if (len + 3 >= sizeof n->text) return;
    memcpy(n->text + len, "; ", 3);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->text + len + 2, sizeof n->text - len - 2, fmt, ap);
    va_end(ap);
}

static void occ_text(char *buf, size_t n, const Arch *a, int block, int regs, long long smem)
{
    if (!block) {
        snprintf(buf, n, "block size unknown: occupancy not checked");
        return;
    }
    OccInput in = occ_input(block, regs);
    in.smem_static = smem;
    Occupancy oc = occ_compute(a, &in);
    snprintf(buf, n, "%d threads: %d blocks/SM, occupancy %.0f%%, limited by %s", block, oc.blocks_per_sm,
             oc.occupancy * 100.0, occ_limit_name(oc.limit));
}

/* ------------------------------------------------------------- modes */

static void apply_maxnreg(Function *fn, const Options *o, const Kernel *k, const Arch *a, Remarks *rm)
{
    long n = o->maxnreg;
    if (n < 1 || n > a->max_regs_per_thread) {
        remark(rm, PASS, fn, NULL, REMARK_MISSED,
               "maxnreg=%ld is outside 1..%d (ptxas rejects 0 and ignores values above %d); kernel left unchanged",
               n, a->max_regs_per_thread, a->max_regs_per_thread);
        return;
    }
    Notes notes = { "" };
    if (n < a->min_regs_per_thread) {
        note(&notes, "raised %ld to the ptxas lower bound %d", n, a->min_regs_per_thread);
        n = a->min_regs_per_thread;
    }
    if (o->maxrregcount && o->maxrregcount < n) {
        long r = o->maxrregcount < a->min_regs_per_thread ? a->min_regs_per_thread : o->maxrregcount;
        note(&notes, "lowered to the user's --maxrregcount %ld", r);
        n = r;
    }
    int block = k->block ? k->block : (int)o->block;
    if (block > a->max_threads_per_block) {
        remark(rm, PASS, fn, NULL, REMARK_MISSED, "a block of %d threads can never launch on %s (at most %d); kernel left unchanged",
               block, a->name, a->max_threads_per_block);
        return;
    }
    if (block) {
        OccInput in = occ_input(block, (int)n);
        in.smem_static = k->smem;
        Occupancy oc = occ_compute(a, &in);
        if (oc.error != OCC_OK) {
            int best = crit_regs_for_level(a, &in, 1);
            if (best)
                remark(rm, PASS, fn, NULL, REMARK_MISSED,
                       ".maxnreg %ld with blocks of %d threads can never launch on %s (%s); at most %d registers fit; kernel left unchanged",
                       n, block, a->name, occ_error_message(oc.error), best);
            else
                remark(rm, PASS, fn, NULL, REMARK_MISSED, "blocks of %d threads can never launch on %s (%s); kernel left unchanged",
                       block, a->name, occ_error_message(oc.error));
            return;
        }
    }
    /* An existing level that caps registers below N would silently win
     * (ptxas takes the tighter limit): it conflicts with the request. */
    if (k->minncta && k->block) {
        OccInput in = occ_input(k->block, 0); /* ptxas ignores shared memory here */
        int cp = crit_regs_for_level(a, &in, k->minncta);
        if (cp && cp < n) {
            perf_remove(fn, ".minnctapersm");
            note(&notes, "removed .minnctapersm %d (it caps registers at %d)", k->minncta, cp);
        }
    }
    if (k->maxnreg && k->maxnreg != n)
        note(&notes, "replaced .maxnreg %d", k->maxnreg);
    perf_set(fn, ".maxnreg", 1, (uint32_t)n, 0, 0);
    char occ[160];
    occ_text(occ, sizeof occ, a, block, (int)n, k->smem);
    remark(rm, PASS, fn, NULL, REMARK_APPLIED, ".maxnreg %ld (%s)%s", n, occ, notes.text);
}

static void apply_level(Function *fn, const Options *o, const Kernel *k, const Arch *a, Remarks *rm)
{
    Notes notes = { "" };
    int block = k->block;
    if (block && o->block && o->block != block)
        note(&notes, "kept the kernel's %s (%d threads) over block=%ld", k->block_from, block, o->block);
    if (!block) block = (int)o->block;
    if (!block) {
        remark(rm, PASS, fn, NULL, REMARK_MISSED,
               "level=%ld needs the block size: give block=B or a .maxntid/.reqntid directive; kernel left unchanged", o->level);
        return;
    }
    if (block > a->max_threads_per_block) {
        remark(rm, PASS, fn, NULL, REMARK_MISSED, "a block of %d threads can never launch on %s (at most %d); kernel left unchanged",
               block, a->name, a->max_threads_per_block);
        return;
    }
    OccInput in = occ_input(block, 0);
    in.smem_static = k->smem;
    int top = crit_max_level(a, &in);
    if (o->level < 1 || o->level > top) {
        Occupancy oc = occ_compute(a, &(OccInput){ .block_threads = block, .regs_per_thread = a->min_regs_per_thread,
                                                   .smem_static = k->smem });
        if (o->level < 1)
            remark(rm, PASS, fn, NULL, REMARK_MISSED, "level must be at least 1; kernel left unchanged");
        else if (!top)
            remark(rm, PASS, fn, NULL, REMARK_MISSED, "blocks of %d threads can never launch on %s (%s); kernel left unchanged",
                   block, a->name, occ_error_message(oc.error));
        else
            remark(rm, PASS, fn, NULL, REMARK_MISSED,
                   "level %ld is out of reach: at most %d blocks of %d threads fit per SM on %s (limited by %s); kernel left unchanged",
                   o->level, top, block, a->name, occ_limit_name(oc.limit));
        return;
    }
    int cp = crit_regs_for_level(a, &in, (int)o->level);
    long cap = cp;
    if (o->maxrregcount && o->maxrregcount < cap) {
        cap = o->maxrregcount < a->min_regs_per_thread ? a->min_regs_per_thread : o->maxrregcount;
        note(&notes, ".maxnreg %ld for the user's --maxrregcount", cap);
    }
    if (!k->block) perf_set(fn, ".maxntid", 3, (uint32_t)block, 1, 1);
    char occ[160];
    occ_text(occ, sizeof occ, a, block, (int)cap, k->smem);
    if (k->uses_shared) {
        /* ptxas would honour .minnctapersm even where shared memory makes the
         * level unreachable; the explicit cap is what we computed with it. */
        if (k->minncta) {
            perf_remove(fn, ".minnctapersm");
            note(&notes, "removed .minnctapersm %d", k->minncta);
        }
        perf_set(fn, ".maxnreg", 1, (uint32_t)cap, 0, 0);
        remark(rm, PASS, fn, NULL, REMARK_APPLIED,
               ".maxnreg %ld for level %ld (uses %lld bytes of shared memory, so a register cap instead of .minnctapersm; %s)%s",
               cap, o->level, k->smem, occ, notes.text);
        return;
    }
    perf_set(fn, ".minnctapersm", 1, (uint32_t)o->level, 0, 0);
    if (cap < cp) {
        perf_set(fn, ".maxnreg", 1, (uint32_t)cap, 0, 0);
    } else if (k->maxnreg) {
        perf_remove(fn, ".maxnreg");
        note(&notes, "removed .maxnreg %d (the level decides)", k->maxnreg);
    }
    char blk[64];
    if (k->block) snprintf(blk, sizeof blk, "kept %s (%d threads)", k->block_from, block);
    else snprintf(blk, sizeof blk, ".maxntid %d,1,1", block);
    remark(rm, PASS, fn, NULL, REMARK_APPLIED, "%s, .minnctapersm %ld: ptxas caps registers at %d (%s)%s", blk, o->level,
           cp, occ, notes.text);
}

/* ------------------------------------------------------------ driver */

static int regtune_run(Module *m, const PassInvocation *inv, PassContext *ctx)
{
    Options o;
    char err[256];
    if (!read_options(inv, &o, err, sizeof err)) { /* validated when parsed: not reached from the tools */
        fprintf(stderr, "ptxopt: pass '%s': %s\n", PASS, err);
        return 1;
    }
    const Arch *a = arch_by_sm(ctx->target_sm);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Function *fn = m->funcs[i];
        if (!fn->has_body) continue;
        if (o.kernel && !str_eqc(fn->name, o.kernel)) continue;
        if (!fn->is_entry) {
            remark(ctx->remarks, PASS, fn, NULL, REMARK_MISSED,
                   "not a kernel: .maxnreg, .maxntid and .minnctapersm apply to .entry functions only");
            continue;
        }
        if (!a) {
            remark(ctx->remarks, PASS, fn, NULL, REMARK_MISSED, "unknown target (sm %d): no limits to check against; kernel left unchanged",
                   ctx->target_sm);
            continue;
        }
        Kernel k = kernel_facts(fn, &o);
        if (k.setmaxnreg) {
            remark(ctx->remarks, PASS, fn, NULL, REMARK_MISSED,
                   "the kernel reconfigures its registers with setmaxnreg; kernel left unchanged");
            continue;
        }
        if (o.by_maxnreg) apply_maxnreg(fn, &o, &k, a, ctx->remarks);
        else apply_level(fn, &o, &k, a, ctx->remarks);
    }
    return 0;
}

const PassInfo pass_regtune = {
    .name = "regtune",
    .summary = "register cap or occupancy level per kernel (.maxnreg, .minnctapersm)",
    .function_local = true,
    .keys = regtune_keys,
    .validate = regtune_validate,
    .run = regtune_run,
};
