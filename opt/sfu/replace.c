/* replace.c — the approximate sequences (research §2.2 Table 6.1 for f32,
 * §2.3 Table 6.2 for f64; checklist S3) and the documented maximum error
 * of each (research §2.7, from the PTX ISA and the CUDA programming guide;
 * checklist S11).
 *
 * .ftz follows the original: a site compiled with -ftz=true (or written
 * .ftz) gets .ftz forms, one without gets the forms that keep subnormals
 * (the thesis always used .ftz; -use_fast_math couples it for the whole
 * file, which is what the split avoids).  f64 has only the gross
 * .ftz forms (about 20 bits: the input's and result's low words are
 * dropped).  tanh.approx.f32 has no .ftz form.
 *
 * powf becomes __powf's sequence ex2(y * lg2(x)): it returns NaN for
 * x < 0 (powf gives ±|x|^y for integer y), NaN for pow(0, 0) and
 * pow(1, inf) (powf: 1), and its error grows with |y * log2 x|. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/sfu/internal.h"

typedef struct Seq {
    const char *text, *bound;
} Seq;

const char *sfu_replacement_text(const SfuSite *s)
{
    if (s->f64) switch (s->kind) {
        case SFU_DIV: return "rcp.approx.ftz.f64 + mul.f64";
        case SFU_RCP: return "rcp.approx.ftz.f64";
        case SFU_SQRT: return "rsqrt.approx.ftz.f64 + rcp.approx.ftz.f64";
        case SFU_RSQRT: return "rsqrt.approx.ftz.f64";
        default: return "?";
        }
    switch (s->kind) {
    case SFU_DIV: return s->ftz ? "div.approx.ftz.f32" : "div.approx.f32";
    case SFU_RCP: return s->ftz ? "rcp.approx.ftz.f32" : "rcp.approx.f32";
    case SFU_SQRT: return s->ftz ? "sqrt.approx.ftz.f32" : "sqrt.approx.f32";
    case SFU_RSQRT: return s->ftz ? "rsqrt.approx.ftz.f32" : "rsqrt.approx.f32";
    case SFU_SIN: return s->ftz ? "sin.approx.ftz.f32" : "sin.approx.f32";
    case SFU_COS: return s->ftz ? "cos.approx.ftz.f32" : "cos.approx.f32";
    case SFU_EXP: return s->ftz ? "mul.ftz by log2(e) + ex2.approx.ftz.f32" : "mul by log2(e) + ex2.approx.f32";
    case SFU_EXP10: return s->ftz ? "mul.ftz by log2(10) + ex2.approx.ftz.f32" : "mul by log2(10) + ex2.approx.f32";
    case SFU_LOG: return s->ftz ? "lg2.approx.ftz.f32 + mul.ftz by ln(2)" : "lg2.approx.f32 + mul by ln(2)";
    case SFU_LOG2: return s->ftz ? "lg2.approx.ftz.f32" : "lg2.approx.f32";
    case SFU_POW: return s->ftz ? "lg2.approx.ftz.f32 + mul.ftz + ex2.approx.ftz.f32" : "lg2.approx.f32 + mul + ex2.approx.f32";
    case SFU_TANH: return "tanh.approx.f32";
    case SFU_NKINDS: break;
    }
    return "?";
}

const char *sfu_error_bound(const SfuSite *s)
{
    if (s->f64) switch (s->kind) {
        case SFU_DIV: case SFU_RCP: case SFU_SQRT: case SFU_RSQRT:
            return "about 2^-20 relative (1.11.20 result, low 32 bits zero; thesis measured 2.2e-7..2.9e-7 mean)";
        default: return "?";
        }
    switch (s->kind) {
    case SFU_DIV: return "2 ulp for |b| in [2^-126, 2^126]; 0 for 2^126 < |b| < 2^128";
    case SFU_RCP: return "1 ulp";
    case SFU_SQRT: return "relative 2^-23";
    case SFU_RSQRT: return "relative 2^-22.9";
    case SFU_SIN: case SFU_COS: return "absolute 2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi], no guarantee outside";
    case SFU_EXP: return "2 + floor(|1.173 x|) ulp (__expf)";
    case SFU_EXP10: return "2 + floor(|2.97 x|) ulp (__exp10f)";
    case SFU_LOG: return "absolute 2^-21.41 for x in [0.5, 2], 3 ulp elsewhere (__logf)";
    case SFU_LOG2: return "absolute 2^-22 for x in [0.5, 2], 2 ulp elsewhere (__log2f)";
    case SFU_POW: return "as exp2(y * log2 x): lg2's error amplified by |y log2 x|; NaN for x < 0 (__powf)";
    case SFU_TANH: return "relative 2^-11";
    case SFU_NKINDS: break;
    }
    return "?";
}

/* ------------------------------------------------------------ emitting */

typedef struct Emit {
    Function *fn;
    Stmt *at;             /* insert before */
    Reg *guard;
    bool guard_neg;
} Emit;

static Operand fimm(Module *m, uint32_t bits)
{
    char buf[16];
    snprintf(buf, sizeof buf, "0f%08X", bits);
    size_t n = strlen(buf);
    return (Operand){ .kind = OPND_FLOAT, .text = arena_strndup(&m->arena, buf, n), .textlen = (uint32_t)n, .value = bits };
}

static void emit(Emit *e, const char *full, int nops, const Operand *ops)
{
    Stmt *st = ir_new_instr(e->fn, full, nops);
    for (int k = 0; k < nops; k++) st->u.instr.ops[k] = ops[k];
    st->u.instr.guard = e->guard;
    st->u.instr.guard_neg = e->guard_neg;
    st->line = e->at ? e->at->line : 0;
    ir_insert_before(e->at, st);
}

static void emit2(Emit *e, const char *full, Operand d, Operand a) { emit(e, full, 2, (Operand[]){ d, a }); }
static void emit3(Emit *e, const char *full, Operand d, Operand a, Operand b) { emit(e, full, 3, (Operand[]){ d, a, b }); }

/* The sequence computing d from the inputs. */
static void sequence(Emit *e, const SfuSite *s, Operand d)
{
    Function *fn = e->fn;
    Module *m = fn->mod;
    const char *F = s->ftz ? ".ftz" : "";
    char op[48];
#define OP(fmt) (snprintf(op, sizeof op, fmt, F), op)
    if (s->f64) {
        Operand t = s->kind == SFU_DIV || s->kind == SFU_SQRT ? ir_op_reg(ir_fresh_reg(fn, ".f64")) : (Operand){ 0 };
        switch (s->kind) {
        case SFU_DIV: emit2(e, "rcp.approx.ftz.f64", t, s->in[1]); emit3(e, "mul.f64", d, s->in[0], t); return;
        case SFU_RCP: emit2(e, "rcp.approx.ftz.f64", d, s->in[0]); return;
        case SFU_SQRT: emit2(e, "rsqrt.approx.ftz.f64", t, s->in[0]); emit2(e, "rcp.approx.ftz.f64", d, t); return;
        case SFU_RSQRT: emit2(e, "rsqrt.approx.ftz.f64", d, s->in[0]); return;
        default: return;
        }
    }
    Operand t = { 0 }, u = { 0 };
    if (s->kind == SFU_EXP || s->kind == SFU_EXP10 || s->kind == SFU_LOG || s->kind == SFU_POW)
        t = ir_op_reg(ir_fresh_reg(fn, ".f32"));
    switch (s->kind) {
    case SFU_DIV: emit3(e, OP("div.approx%s.f32"), d, s->in[0], s->in[1]); return;
    case SFU_RCP: emit2(e, OP("rcp.approx%s.f32"), d, s->in[0]); return;
    case SFU_SQRT: emit2(e, OP("sqrt.approx%s.f32"), d, s->in[0]); return;
    case SFU_RSQRT: emit2(e, OP("rsqrt.approx%s.f32"), d, s->in[0]); return;
    case SFU_SIN: emit2(e, OP("sin.approx%s.f32"), d, s->in[0]); return;
    case SFU_COS: emit2(e, OP("cos.approx%s.f32"), d, s->in[0]); return;
    case SFU_EXP:
    case SFU_EXP10:
        emit3(e, OP("mul%s.f32"), t, s->in[0], fimm(m, s->kind == SFU_EXP ? 0x3FB8AA3Bu : 0x40549A78u));
        emit2(e, OP("ex2.approx%s.f32"), d, t);
        return;
    case SFU_LOG:
        emit2(e, OP("lg2.approx%s.f32"), t, s->in[0]);
        emit3(e, OP("mul%s.f32"), d, t, fimm(m, 0x3F317218u));
        return;
    case SFU_LOG2: emit2(e, OP("lg2.approx%s.f32"), d, s->in[0]); return;
    case SFU_POW:
        u = ir_op_reg(ir_fresh_reg(fn, ".f32"));
        emit2(e, OP("lg2.approx%s.f32"), t, s->in[0]);
        emit3(e, OP("mul%s.f32"), u, t, s->in[1]);
        emit2(e, OP("ex2.approx%s.f32"), d, u);
        return;
    case SFU_TANH: emit2(e, "tanh.approx.f32", d, s->in[0]); return;
    case SFU_NKINDS: return;
    }
#undef OP
}

void sfu_replace(Function *fn, SfuSite *s, uint8_t *feeds)
{
    /* the region's statements in layout order; interleaved and kept ones move in front */
    Stmt **all;
    int n = sfu_region_stmts(s, &all);
    /* what the region read: the code computing it may now be dead (sfu_sweep) */
    for (int k = 0; feeds && k < n; k++) {
        if (all[k]->kind != STMT_INSTR) continue;
        bool keep = false;
        for (int j = 0; j < s->nskip; j++) keep |= s->skip[j] == all[k];
        if (keep) continue;
        RegRef refs[32];
        int nr = refs_of_instr(fn, &all[k]->u.instr, refs, 32);
        for (int j = 0; j < nr && j < 32; j++)
            if ((refs[j].flags & REF_USE) && refs[j].reg < fn->nregs) feeds[refs[j].reg] = 1;
    }
    Block *home = s->first->block, *lastb = s->last->block;
    Stmt *anchor = ir_new_label(fn, STR_LIT("")); /* placeholder, removed below */
    anchor->kind = STMT_DIRECTIVE;
    ir_insert_before(s->first, anchor);
    for (int k = 0; k < n; k++) {
        bool keep = false;
        for (int j = 0; j < s->nskip; j++) keep |= s->skip[j] == all[k];
        ir_remove(all[k]);
        if (keep) ir_insert_before(anchor, all[k]);
    }
    Emit e = { .fn = fn, .at = anchor };
    if (s->out_def) e.guard = s->out_def->u.instr.guard, e.guard_neg = s->out_def->u.instr.guard_neg;
    if (s->fused) {
        Operand t = ir_op_reg(ir_fresh_reg(fn, ".f32"));
        sequence(&e, s, t);
        emit3(&e, s->ftz ? "add.ftz.f32" : "add.f32", ir_op_reg(s->out), t, s->addend);
    } else
        sequence(&e, s, ir_op_reg(s->out));
    /* the blocks after home up to the last one held only the region (it is
     * contiguous): what is left of the last one, its tail, joins home */
    for (Block *x = home->next; x && home != lastb;) {
        Block *nx = x->next;
        while (x->first) {
            Stmt *t = x->first;
            ir_remove(t);
            ir_append(home, t);
        }
        home->next = nx;
        if (nx) nx->prev = home;
        else fn->last = home;
        if (x == lastb) break;
        x = nx;
    }
    /* the chunks held whole blocks: those are empty now */
    for (Block *x = fn->first; x;) {
        Block *nx = x->next;
        if (!x->first && x != fn->first && s->nchunks) {
            x->prev->next = nx;
            if (nx) nx->prev = x->prev;
            else fn->last = x->prev;
        }
        x = nx;
    }
    ir_remove(anchor);
    ir_renumber_blocks(fn);
    analysis_invalidate(fn);
    free(all);
}

/* Removes the pure instructions that only fed replaced regions (a register
 * in feeds, dead right after them: sinf's local-table pointer, powf's
 * test of y's parity), and what fed those, so the approximate code does
 * not keep the precise code's set-up alive (ptxas would keep the local
 * table, 32 bytes of stack, for an unused pointer).  Nothing else is
 * touched. */
void sfu_sweep(Function *fn, uint8_t *feeds, uint32_t nfeeds)
{
    for (bool changed = true; changed;) {
        changed = false;
        analysis_invalidate(fn);
        const Cfg *c = cfg_get(fn);
        const Liveness *l = liveness_get(fn);
        const RegRefs *rr = refs_get(fn);
        uint64_t *set = calloc(l->words ? l->words : 1, sizeof *set);
        Stmt **dead = calloc(c->ninstr ? c->ninstr : 1, sizeof *dead);
        uint32_t ndead = 0;
        for (uint32_t i = 0; i < c->ninstr; i++) {
            Stmt *st = c->instr[i];
            const Instr *in = &st->u.instr;
            if (!(c->iflags[i] & OPF_PURE) || in->op == OP_UNKNOWN) continue;
            uint32_t b = c->instr_block[i];
            if (i + 1 < c->block_instr[b + 1]) liveness_before(l, rr, i + 1, set);
            else memcpy(set, l->live_out + (size_t)b * l->words, sizeof *set * l->words);
            bool ok = false;
            for (uint32_t k = rr->start[i]; k < rr->start[i + 1]; k++) {
                const RegRef *r = &rr->refs[k];
                if (!(r->flags & REF_DEF)) continue;
                if (r->reg >= nfeeds || !feeds[r->reg] || live_bit(set, r->reg)) {
                    ok = false;
                    break;
                }
                ok = true;
            }
            if (!ok) continue;
            for (uint32_t k = rr->start[i]; k < rr->start[i + 1]; k++)
                if ((rr->refs[k].flags & REF_USE) && rr->refs[k].reg < nfeeds) feeds[rr->refs[k].reg] = 1;
            dead[ndead++] = st;
        }
        for (uint32_t k = 0; k < ndead; k++) ir_remove(dead[k]);
        changed = ndead > 0;
        free(set), free(dead);
    }
    /* nvcc's local depot, when nothing addresses it any more (ptxas would
     * still give it stack) */
    FOR_EACH_BLOCK (b, fn)
        for (Stmt *d = b->first, *nx; d; d = nx) {
            nx = d->next;
            if (d->kind != STMT_DECL || !str_eqc(d->u.decl->space, ".local") || d->u.decl->ndecl != 1 ||
                !str_starts(d->u.decl->decls[0].name, "__local_depot"))
                continue;
            Str name = d->u.decl->decls[0].name;
            bool used = false;
            FOR_EACH_BLOCK (b2, fn)
                FOR_EACH_STMT (t, b2) {
                    if (t->kind != STMT_INSTR) continue;
                    for (int k = 0; k < t->u.instr.nops && !used; k++) {
                        const Operand *o = &t->u.instr.ops[k];
                        const Operand *base = o->kind == OPND_ADDR && o->n ? &o->u.elems[0] : o;
                        used |= base->kind == OPND_SYM && str_eq(opnd_text(base), name);
                    }
                }
            if (!used) ir_remove(d);
        }
    analysis_invalidate(fn);
}
