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
 * pow(1, inf) (powf: 1), and its error grows with |y * log2 x|.  With an
 * integer constant exponent C (a fingerprint of powf(x, C), fplib.c) it
 * is ex2(C * lg2|x|), negated for x < 0 and odd C: powf's sign.
 *
 * sinf and cosf become sin/cos.approx behind a guard (guard.c): the
 * documented bound holds on [-100 pi, 100 pi] only, and ptxas's lowering
 * (FMUL.RZ by 1/2pi, then MUFU.SIN) loses the argument's fraction beyond
 * it (emu/approx_error.c models it: errors of 0.1 to 1 at 1e6..1e8). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/sfu/internal.h"

/* powf(x, (float)n): the fingerprint's second input is an integer. */
static bool int_exponent(const SfuSite *s)
{
    return s->fp && s->kind == SFU_POW && !s->fp->pclass[0] && s->fp->nin == 2 && s->fp->types && s->fp->types[1] == 'r';
}

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
    case SFU_POW:
        if (int_exponent(s))
            return s->ftz ? "abs + lg2.approx.ftz.f32 + mul.ftz by (float)n + ex2.approx.ftz.f32 + the sign of x for odd n"
                          : "abs + lg2.approx.f32 + mul by (float)n + ex2.approx.f32 + the sign of x for odd n";
        if (s->fp && s->fp->pclass[0] && s->param == (double)(long long)s->param && ((long long)s->param) % 2)
            return s->ftz ? "abs + lg2.approx.ftz.f32 + mul.ftz by the exponent + ex2.approx.ftz.f32 + copysign of x"
                          : "abs + lg2.approx.f32 + mul by the exponent + ex2.approx.f32 + copysign of x";
        if (s->fp && s->fp->pclass[0] && s->param == (double)(long long)s->param)
            return s->ftz ? "abs + lg2.approx.ftz.f32 + mul.ftz by the exponent + ex2.approx.ftz.f32"
                          : "abs + lg2.approx.f32 + mul by the exponent + ex2.approx.f32";
        return s->ftz ? "lg2.approx.ftz.f32 + mul.ftz + ex2.approx.ftz.f32" : "lg2.approx.f32 + mul + ex2.approx.f32";
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
    case SFU_SIN: case SFU_COS:
        return s->guard ? "absolute 2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi]; |x| > 100pi, infinities and NaN "
                          "run nvcc's precise code (guard)"
                        : "absolute 2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi], no guarantee outside";
    case SFU_EXP: return "2 + floor(|1.173 x|) ulp (__expf)";
    case SFU_EXP10: return "2 + floor(|2.97 x|) ulp (__exp10f)";
    case SFU_LOG: return "absolute 2^-21.41 for x in [0.5, 2], 3 ulp elsewhere (__logf)";
    case SFU_LOG2: return "absolute 2^-22 for x in [0.5, 2], 2 ulp elsewhere (__log2f)";
    case SFU_POW:
        if ((s->fp && s->fp->pclass[0] && s->param == (double)(long long)s->param) || int_exponent(s))
            return "as exp2(C * log2 |x|): lg2's error amplified by |C log2 x| (an integer constant exponent C: "
                   "the sign of powf for x < 0)";
        return "as exp2(y * log2 x): lg2's error amplified by |y log2 x|; NaN for x < 0 (__powf)";
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
        if (int_exponent(s)) {
            /* powf(x, (float)n): |x|^n, negative for x < 0 and odd n (as powf) */
            Operand yf = ir_op_reg(ir_fresh_reg(fn, ".f32")), a = ir_op_reg(ir_fresh_reg(fn, ".f32"));
            Operand r = ir_op_reg(ir_fresh_reg(fn, ".f32")), cs = ir_op_reg(ir_fresh_reg(fn, ".f32"));
            Operand odd = ir_op_reg(ir_fresh_reg(fn, ".b32")), p = ir_op_reg(ir_fresh_reg(fn, ".pred"));
            emit2(e, "cvt.rn.f32.s32", yf, s->in[1]);
            emit2(e, "abs.f32", a, s->in[0]);
            emit2(e, OP("lg2.approx%s.f32"), t, a);
            emit3(e, OP("mul%s.f32"), u, t, yf);
            emit2(e, OP("ex2.approx%s.f32"), r, u);
            emit3(e, "and.b32", odd, s->in[1], ir_op_int(m, 1));
            emit3(e, "setp.ne.s32", p, odd, ir_op_int(m, 0));
            emit3(e, "copysign.f32", cs, s->in[0], r);
            emit(e, "selp.f32", 4, (Operand[]){ d, cs, r, p });
            return;
        }
        if (s->fp && s->fp->pclass[0] && s->param == (double)(long long)s->param) {
            /* an integer constant exponent: |x|^C, negative for x < 0 and odd C (as powf) */
            bool odd = ((long long)s->param) % 2 != 0;
            Operand a = ir_op_reg(ir_fresh_reg(fn, ".f32"));
            Operand r = odd ? ir_op_reg(ir_fresh_reg(fn, ".f32")) : d;
            emit2(e, "abs.f32", a, s->in[0]);
            emit2(e, OP("lg2.approx%s.f32"), t, a);
            emit3(e, OP("mul%s.f32"), u, t, s->in[1]);
            emit2(e, OP("ex2.approx%s.f32"), r, u);
            if (odd) emit3(e, "copysign.f32", d, s->in[0], r);
            return;
        }
        emit2(e, OP("lg2.approx%s.f32"), t, s->in[0]);
        emit3(e, OP("mul%s.f32"), u, t, s->in[1]);
        emit2(e, OP("ex2.approx%s.f32"), d, u);
        return;
    case SFU_TANH: emit2(e, "tanh.approx.f32", d, s->in[0]); return;
    case SFU_NKINDS: return;
    }
#undef OP
}

void sfu_replace(Function *fn, SfuSite *s)
{
    if (!s->fp) {
        /* a single instruction (or the sqrt + rcp pair): the sequence in its place */
        Emit e = { .fn = fn, .at = s->last };
        if (s->out_def) e.guard = s->out_def->u.instr.guard, e.guard_neg = s->out_def->u.instr.guard_neg;
        sequence(&e, s, ir_op_reg(s->out));
        if (s->first != s->last) ir_remove(s->first);
        ir_remove(s->last);
        analysis_invalidate(fn);
        return;
    }
    /* a library region: the output computed where the precise code defined
     * it (a placeholder marks the place while the sequence goes in) */
    Stmt *anchor = ir_new_instr(fn, "ret", 0);
    if (s->at) ir_insert_before(s->at, anchor);
    else ir_append(s->at_block, anchor);
    Emit e = { .fn = fn, .at = anchor };
    Stmt *before = anchor->prev;
    if (s->tail == '-') {
        Operand t = ir_op_reg(ir_fresh_reg(fn, ".f32"));
        sequence(&e, s, t);
        emit2(&e, s->ftz ? "neg.ftz.f32" : "neg.f32", ir_op_reg(s->out), t);
    } else if (s->tail) {
        Operand t = ir_op_reg(ir_fresh_reg(fn, ".f32"));
        sequence(&e, s, t);
        emit3(&e, s->tail == '+' ? (s->ftz ? "add.ftz.f32" : "add.f32") : (s->ftz ? "mul.ftz.f32" : "mul.f32"),
              ir_op_reg(s->out), t, s->tail_opnd);
    } else
        sequence(&e, s, ir_op_reg(s->out));
    Stmt *first = before ? before->next : anchor->block->first;
    while (first && first->kind != STMT_INSTR) first = first->next;
    Stmt *last = anchor->prev;
    ir_remove(anchor);
    if (s->replaces) ir_remove(s->replaces);
    if (s->guard && first && last) sfu_guard(fn, s, first, last);
    analysis_invalidate(fn);
}
