/* plan.c — which form of the template a kernel's sites get (emit.c's file
 * comment describes the forms), decided once so that emit.c emits exactly
 * what profit.c prices (issue 22: "the gate prices what it emits").
 *
 *   rows:   every warp that runs the rewrite is full and one row at a
 *           %tid.x that is a multiple of 32: .reqntid says so, or, where
 *           some site is converged, the kernel is versioned on the block
 *           shape (4 instructions at entry).  Converged sites then need no
 *           guard (mask -1, constant clamp).
 *   else:   a row guard at entry when the shape is unknown (7 instructions,
 *           3 when a site's no-wrap premise is warp alignment); converged
 *           sites in loops or in many blocks share a kernel-wide guard (the
 *           warp's lanes from %ntid/%tid, about 16 instructions, versioned
 *           per warp when it can be); other sites an activemask region each
 *           (activemask, setp, a selp per direction).
 * A region is a run of sites in one block with nothing between them that
 * lanes may leave by (emit.c lanes_may_leave). */
#include <stdlib.h>

#include "opt/shuffle/internal.h"

/* The first instruction of the entry block (after the declarations). */
Stmt *shfl_entry_point(Function *fn)
{
    for (Block *b = fn->first; b; b = b->next) {
        Stmt *s = ir_block_first_instr(b);
        if (s) return s;
    }
    return NULL;
}

/* Can the body from `entry` to the end be copied (ir/clone.h's rules:
 * no declarations, scopes, label tables, indirect branches or verbatim
 * text), with `entry` not starting a branch target?  *why otherwise. */
bool shfl_body_copyable(Function *fn, const Stmt *entry, bool barriers_ok, const char **why)
{
    const Block *head = entry->block;
    if (head->label.len || entry == head->first) {
        *why = "the kernel's first block is a branch target";
        return false;
    }
    bool started = false;
    for (const Block *b = head; b; b = b->next)
        FOR_EACH_STMT(s, b) {
            started |= s == entry;
            if (!started) continue;
            switch (s->kind) {
            case STMT_DECL: *why = "a declaration after the first instruction (it would be declared twice)"; return false;
            case STMT_SCOPE_OPEN: case STMT_SCOPE_CLOSE: *why = "a { } scope in the body"; return false;
            case STMT_VERBATIM: *why = "text the parser kept verbatim"; return false;
            case STMT_DIRECTIVE:
                if (s->dirkind == DIR_BRANCHTARGETS || s->dirkind == DIR_CALLTARGETS || s->dirkind == DIR_CALLPROTOTYPE) {
                    *why = "a label table (.branchtargets/.calltargets/.callprototype)";
                    return false;
                }
                break;
            case STMT_INSTR: {
                const Instr *in = &s->u.instr;
                if (in->op == OP_brx) {
                    *why = "an indirect branch (brx.idx)";
                    return false;
                }
                bool aligned_bar = in->op == OP_UNKNOWN || (in->op == OP_bar && !instr_has_mod(in, ".warp")) ||
                                   (in->op == OP_barrier && instr_has_mod(in, ".aligned"));
                if (!barriers_ok && aligned_bar) {
                    *why = "the body has an aligned CTA barrier, which the block's partial warp would reach through the copy's "
                           "instruction";
                    return false;
                }
                break;
            }
            default: break;
            }
        }
    return true;
}

/* Anything between two sites of one block after which not every lane of
 * the first site's activemask reaches the second. */
bool shfl_lanes_may_leave(const Stmt *from, const Stmt *to)
{
    for (const Stmt *s = from; s && s != to; s = s->next) {
        if (s->kind != STMT_INSTR && s->kind != STMT_VERBATIM) continue;
        if (s->kind == STMT_VERBATIM || s->u.instr.op == OP_UNKNOWN || s->u.instr.op == OP_brkpt) return true;
        if (opcode_flags(s->u.instr.op) & (OPF_BRANCH | OPF_CALL | OPF_RET | OPF_EXIT | OPF_TERMINATOR)) return true;
    }
    return false;
}

ShflPlan shfl_plan(Function *fn, const ShflSite *sites, int nsites, const ShflEmitOptions *o)
{
    ShflPlan p = { 0 };
    bool converged_in_loop = false;
    int converged_blocks = 0;
    const Block *last_block = NULL;
    for (int i = 0; i < nsites; i++)
        if (sites[i].delta != 0 && !o->no_load) {
            p.need_mask = true;
            if (!sites[i].converged) continue;
            converged_in_loop |= sites[i].in_loop;
            if (sites[i].dst->block != last_block) converged_blocks++, last_block = sites[i].dst->block;
        }
    p.region_start = calloc((size_t)nsites + 1, 1);
    p.region_dirs = calloc((size_t)nsites + 1, 1);
    if (!p.need_mask) return p;
    Stmt *entry = shfl_entry_point(fn);
    if (o->aligned_rows) {
        p.rows = true;
    } else if (entry && o->row_guard && o->version && converged_blocks > 0) {
        /* only for converged sites: they then need no guard at all, where
         * the kernel-wide guard would cost ~17 instructions and a computed
         * mask ptxas wraps in a convergence check; sites in divergent code
         * take an activemask region either way, and the copy of the body
         * costs code and (the KernelGen loops) registers */
        if (shfl_body_copyable(fn, entry, true, &p.no_version)) p.rows = p.version_rows = true;
    }
    if (p.rows) {
        p.kernel_guard = true;
    } else {
        /* The kernel-wide guard costs about 17 instructions once (none with
         * .reqntid full warps); a region's 3 each time it runs: the first
         * wins in loops and across many regions. */
        p.kernel_guard = o->full_warps ? converged_blocks > 0 : converged_in_loop || converged_blocks * 3 >= 17;
        if (entry && o->row_guard) p.row_guard = o->aligned_guard ? 3 : 7;
        if (p.kernel_guard && !o->full_warps && entry) {
            p.kernel_lanes = true;
            const char *why = NULL;
            if (o->version && shfl_body_copyable(fn, entry, false, &why)) p.version_lanes = true;
            else if (o->version) p.no_version = why;
            p.kernel_bad = !p.version_lanes || p.row_guard;
        } else if (p.kernel_guard) {
            p.kernel_bad = p.row_guard != 0;
        }
    }
    /* regions: sites outside the kernel guard, grouped as emit.c groups them */
    int start = -1;
    const Stmt *prev = NULL;
    for (int i = 0; i < nsites; i++) {
        const ShflSite *st = &sites[i];
        if (st->delta == 0 || o->no_load || (st->converged && p.kernel_guard)) continue;
        if (start < 0 || prev->block != st->dst->block || shfl_lanes_may_leave(prev, st->dst)) {
            start = i;
            p.region_start[i] = 1;
            p.nregions++;
        }
        p.region_dirs[start] |= st->delta > 0 ? 1 : 2;
        prev = st->dst;
    }
    for (int i = 0; i < nsites; i++)
        if (!(sites[i].delta == 0 || o->no_load) && sites[i].converged && p.kernel_guard) p.kernel_dirs |= sites[i].delta > 0 ? 1 : 2;
    return p;
}

void shfl_plan_free(ShflPlan *p)
{
    free(p->region_start);
    free(p->region_dirs);
    p->region_start = p->region_dirs = NULL;
}

static int ndirs(uint8_t d) { return (d & 1) + ((d >> 1) & 1); }

int shfl_plan_entry_instrs(const ShflPlan *p)
{
    if (!p->need_mask) return 0;
    if (p->rows) return p->version_rows ? 4 : 0; /* mov, and, setp, bra */
    int n = p->row_guard;
    if (p->kernel_lanes) n += 15 + (p->version_lanes ? 2 : 1); /* the lanes; setp and bra, or setp */
    if (p->kernel_bad) n += ndirs(p->kernel_dirs); /* the clamps' selp */
    return n;
}

int shfl_plan_region_instrs(const ShflPlan *p, int site)
{
    return p->region_start[site] ? 2 + ndirs(p->region_dirs[site]) : 0; /* activemask, setp, selp per direction */
}
