/* partition.c — the partition header at kernel entry (research seed-002
 * §2.3 with the linear-tid fix of §2.3 "missing pieces"; issue 13 item 2):
 *
 *     linear = tid.x + ntid.x * (tid.y + ntid.y * tid.z)
 *     warp   = linear >> 5            (CTA-local warp index)
 *     p      = warp < T               (true: this warp caches)
 *
 * Why p is warp-uniform for every launch shape: the hardware forms warps
 * from consecutive linear thread ids (x fastest, then y, then z; CUDA
 * Programming Guide, "Thread Hierarchy" / SIMT architecture), so the 32
 * threads of warp k are exactly those with linear >> 5 == k; independent
 * thread scheduling does not change membership.  Listing 5.1 of the thesis
 * used tid.x alone, which is only right for 1-D blocks (with ntid.x not a
 * multiple of 32 it even splits a warp).  A partial last warp is still one
 * warp: its threads share linear >> 5.
 *
 * What the kernel's directives prove is not computed: .reqntid/.maxntid
 * with y = z = 1 leave tid.x alone, z = 1 drops the tid.z term, and an
 * exact .reqntid x makes ntid.x an immediate.  The header is straight-line
 * code at the kernel's entry, before its first instruction or label (the
 * first block may be a loop header: the header is put in a block of its
 * own then), so it dominates every load and runs once.
 *
 * Delivering T: an immediate, or (delivery=global) one load at entry of
 * the module variable __ptxopt_bypass_threshold, declared here with the
 * threshold given as its initial value:
 *     .global .align 4 .u32 __ptxopt_bypass_threshold = T;
 * a harness overwrites it (cuModuleGetGlobal + cuMemcpyHtoD) before a
 * launch, so one compile serves every T. */
#include <stdio.h>
#include <string.h>

#include "opt/bypass/internal.h"

Shape byp_block_shape(const Function *fn)
{
    Shape sh = { .dims = 3 };
    for (uint32_t i = 0; i < fn->nperf; i++) {
        const PerfDirective *p = &fn->perf[i];
        bool req = str_eqc(p->name, ".reqntid");
        if (!p->n || (!req && !str_eqc(p->name, ".maxntid"))) continue;
        if (sh.exact && !req) continue; /* .reqntid wins over .maxntid */
        sh.exact = req;
        sh.nx = p->v[0];
        sh.ny = p->n > 1 ? p->v[1] : 1;
        sh.nz = p->n > 2 ? p->v[2] : 1;
        sh.dims = sh.nz > 1 ? 3 : sh.ny > 1 ? 2 : 1;
        uint64_t t = (uint64_t)sh.nx * sh.ny * sh.nz;
        sh.warps = t == 0 || t > 1024 ? 0 : (int)((t + 31) / 32);
    }
    return sh;
}

const char *byp_shape_text(const Shape *sh, char *buf, size_t cap)
{
    if (!sh->nx) snprintf(buf, cap, "block shape unknown: 3-D linear tid");
    else
        snprintf(buf, cap, "%d-D block (%s %u,%u,%u: W %s %d)", sh->dims, sh->exact ? ".reqntid" : ".maxntid", sh->nx, sh->ny,
                 sh->nz, sh->exact ? "=" : "<=", sh->warps);
    return buf;
}

Stmt *byp_instr(Function *fn, const char *full, int nops, const Operand *ops)
{
    Stmt *s = ir_new_instr(fn, full, nops);
    for (int i = 0; i < nops; i++) s->u.instr.ops[i] = ops[i];
    return s;
}

void byp_put(Anchor *a, Stmt *s)
{
    if (a->before) ir_insert_before(a->before, s);
    else ir_append(a->b, s);
}

Anchor byp_entry_anchor(Function *fn, bool split)
{
    Block *b = fn->first;
    Stmt *first = NULL;
    FOR_EACH_STMT(s, b)
        if (s->kind == STMT_INSTR || s->kind == STMT_LABEL) {
            first = s;
            break;
        }
    if (!first) return (Anchor){ b, NULL };                 /* declarations only: the body starts in the next block */
    if (first->kind == STMT_LABEL || split) {
        ir_split_block_before(first);                        /* b keeps the declarations */
        return (Anchor){ b, NULL };
    }
    return (Anchor){ b, first };
}

static Reg *sreg(Function *fn, Anchor *a, const char *name, char comp)
{
    Reg *r = ir_fresh_reg(fn, ".u32");
    Operand ops[2] = { ir_op_reg(r), ir_op_special(fn, name, comp) };
    byp_put(a, byp_instr(fn, "mov.u32", 2, ops));
    return r;
}

static Reg *mad(Function *fn, Anchor *a, Reg *x, Operand y, Reg *z)
{
    Reg *r = ir_fresh_reg(fn, ".u32");
    Operand ops[4] = { ir_op_reg(r), ir_op_reg(x), y, ir_op_reg(z) };
    byp_put(a, byp_instr(fn, "mad.lo.u32", 4, ops));
    return r;
}

Reg *byp_emit_partition(Function *fn, Anchor *a, const Shape *sh, long T, const char *tsym)
{
    Module *m = fn->mod;
    Reg *lin = NULL;
    if (sh->dims == 1) lin = sreg(fn, a, "%tid", 'x');
    else {
        Reg *inner = sreg(fn, a, "%tid", 'y');
        if (sh->dims == 3) {
            Reg *tz = sreg(fn, a, "%tid", 'z');
            Operand ny = sh->exact ? ir_op_int(m, sh->ny) : ir_op_reg(sreg(fn, a, "%ntid", 'y'));
            inner = mad(fn, a, tz, ny, inner);
        }
        Reg *tx = sreg(fn, a, "%tid", 'x');
        Operand nx = sh->exact ? ir_op_int(m, sh->nx) : ir_op_reg(sreg(fn, a, "%ntid", 'x'));
        lin = mad(fn, a, inner, nx, tx);
    }
    Reg *warp = ir_fresh_reg(fn, ".u32");
    Operand sh5[3] = { ir_op_reg(warp), ir_op_reg(lin), ir_op_int(m, 5) };
    byp_put(a, byp_instr(fn, "shr.u32", 3, sh5));
    Operand t = ir_op_int(m, T);
    if (tsym) {
        Reg *tr = ir_fresh_reg(fn, ".u32");
        Operand ld[2] = { ir_op_reg(tr), ir_op_addr(m, ir_op_sym(m, str_c(tsym), 0), 0) };
        byp_put(a, byp_instr(fn, "ld.global.u32", 2, ld));
        t = ir_op_reg(tr);
    }
    Reg *p = ir_fresh_reg(fn, ".pred");
    Operand cmp[3] = { ir_op_reg(p), ir_op_reg(warp), t };
    byp_put(a, byp_instr(fn, "setp.lt.u32", 3, cmp));
    return p;
}

/* The module variable of delivery=global, before the module's first
 * function; false when the name is taken (an earlier run of the pass, or
 * the user's own variable: the module is left as it is). */
bool byp_declare_threshold(Module *m, long dflt)
{
    Str name = str_c(BYP_THRESHOLD_SYM), space;
    if (modsyms_find(m, name, &space)) return false;
    Stmt *pos = m->first;
    while (pos && pos->kind != STMT_FUNC) pos = pos->next;
    if (!pos) return false;
    Arena *a = &m->arena;
    static const struct { const char *text; uint8_t kind; } toks[] = {
        { ".global", TOKK_DOTWORD }, { ".align", TOKK_DOTWORD }, { "4", TOKK_INT }, { ".u32", TOKK_DOTWORD },
        { BYP_THRESHOLD_SYM, TOKK_WORD }, { "=", TOKK_PUNCT }, { NULL, TOKK_INT },
    };
    enum { NT = sizeof toks / sizeof toks[0] };
    Decl *d = ARENA_NEW(a, Decl);
    memset(d, 0, sizeof *d);
    d->space = str_c(".global");
    d->type = str_c(".u32");
    d->align = 4;
    d->ndecl = 1;
    d->decls = ARENA_NEW(a, Declarator);
    memset(d->decls, 0, sizeof *d->decls);
    d->decls->name = name;
    d->decls->range = -1;
    d->has_init = true;
    d->ntok = NT;
    d->tok = ARENA_ARRAY(a, Token, NT);
    for (int i = 0; i < NT; i++)
        d->tok[i] = (Token){ str_c(toks[i].text ? toks[i].text : arena_printf(a, "%ld", dflt)), toks[i].kind };
    Stmt *s = ARENA_NEW(a, Stmt);
    memset(s, 0, sizeof *s);
    s->kind = STMT_DECL;
    s->dirty = true;
    s->u.decl = d;
    s->prev = pos->prev;
    s->next = pos;
    if (pos->prev) pos->prev->next = s;
    else m->first = s;
    pos->prev = s;
    modsyms_add_decl(m, d);
    return true;
}
