/* defuse.c — which registers an instruction reads and writes.
 *
 * PTX writes its destination in operand 0 ({a,b} vectors and d|p pairs
 * included) except for instructions whose first operand is a memory
 * destination, a barrier number, a mask or a branch target; those are
 * listed in op0_is_written().  A call writes the registers of its return
 * list (usually .param names, which are not registers).  A write is
 * "partial" (it also reads the old value) when the instruction is guarded,
 * when it writes one component of a vector register, and for wgmma's
 * accumulator.  Memory is modelled as one pseudo-register (fn->nregs):
 * mutable loads read it; stores, atomics, calls, barriers, fences,
 * asynchronous copies, volatile loads and unknown instructions write it
 * (partially).  Loads of immutable data (ld.global.nc, ldu, ld.const, and
 * ld.param of the function's own parameters) do not read it. */
#include "analysis/internal.h"

typedef struct RefWriter {
    RegRef *out;
    int cap, n;
} RefWriter;

static void put(RefWriter *w, uint32_t reg, uint8_t flags, uint8_t opnd, uint8_t elem, char comp)
{
    if (w->n < w->cap) w->out[w->n] = (RegRef){ reg, flags, opnd, elem, comp };
    w->n++;
}

static bool has_mod_prefix(const Instr *in, const char *prefix)
{
    /* ".red" also matches ".red" only; used for bar.red / barrier.cta.red */
    return instr_has_mod(in, prefix);
}

/* Is operand 0 a destination (given that it is a register-like operand)? */
static bool op0_is_written(const Instr *in)
{
    switch (in->op) {
    case OP_st: case OP_red: case OP_sust: case OP_sured: case OP_membar: case OP_fence:
    case OP_bra: case OP_brx: case OP_ret: case OP_exit: case OP_trap: case OP_prefetch:
    case OP_prefetchu: case OP_applypriority: case OP_discard: case OP_nanosleep: case OP_pmevent:
    case OP_brkpt: case OP_griddepcontrol: case OP_setmaxnreg: case OP_stackrestore: case OP_cp:
    case OP_tensormap:
        return false;
    case OP_bar: case OP_barrier:
        return has_mod_prefix(in, ".red");
    case OP_multimem:
        return instr_has_mod(in, ".ld_reduce");
    default:
        return true;
    }
}

static bool is_accumulating(const Instr *in)
{
    return in->op == OP_wgmma && instr_has_mod(in, ".mma_async");
}

static void visit(RefWriter *w, const Operand *o, uint8_t flags, uint8_t opnd, uint8_t elem, uint32_t nregs)
{
    switch (o->kind) {
    case OPND_REG: {
        if (!o->u.reg) return;
        const Reg *r = o->u.reg;
        if (r->special) {
            put(w, r->id, REF_USE | REF_SPECIAL | (flags & REF_ADDR), opnd, elem, o->comp);
            return;
        }
        if (flags & REF_DEF) {
            uint8_t f = flags;
            if (o->comp || o->sel) f |= REF_PARTIAL;  /* vd.b0: the other bytes come from c */
            if (f & REF_PARTIAL) put(w, r->id, REF_USE | REF_PARTIAL, opnd, elem, o->comp);
            put(w, r->id, f, opnd, elem, o->comp);
        } else {
            put(w, r->id, flags, opnd, elem, o->comp);
        }
        return;
    }
    case OPND_VEC: case OPND_PAIR: case OPND_LIST: case OPND_ADDR:
        for (uint8_t k = 0; k < o->n; k++) {
            uint8_t f = flags;
            if (o->kind == OPND_ADDR) f |= REF_ADDR;
            visit(w, &o->u.elems[k], f, opnd, elem == 255 ? k : elem, nregs);
        }
        return;
    default:
        return;
    }
}

/* ld.param of one of the function's own parameters (immutable inside it). */
static bool own_param_load(const Function *fn, const Instr *in)
{
    if (!str_eqc(instr_space(in), ".param")) return false;
    for (int k = 0; k < in->nops; k++) {
        const Operand *o = &in->ops[k];
        if (o->kind != OPND_ADDR || o->n != 1 || o->u.elems[0].kind != OPND_SYM) continue;
        Str name = opnd_text(&o->u.elems[0]);
        for (uint32_t i = 0; i < fn->nparam; i++)
            for (uint32_t j = 0; j < fn->params[i]->ndecl; j++)
                if (str_eq(fn->params[i]->decls[j].name, name)) return true;
    }
    return false;
}

bool refs_writes_memory(const Instr *in, uint32_t fl)
{
    if (in->op == OP_UNKNOWN) return true;
    if (fl & (OPF_STORE | OPF_ATOMIC | OPF_CALL | OPF_BARRIER | OPF_FENCE | OPF_ASYNC)) return true;
    return (fl & OPF_LOAD) && (fl & OPF_SIDE_EFFECT);   /* volatile / strong loads */
}

static bool reads_memory(const Function *fn, const Instr *in, uint32_t fl)
{
    if (in->op == OP_UNKNOWN) return true;
    if (!(fl & (OPF_LOAD | OPF_ATOMIC))) return false;
    if (fl & (OPF_ATOMIC | OPF_SIDE_EFFECT | OPF_STORE)) return true;
    if (in->op == OP_ldu) return false;
    if (in->op == OP_ld) {
        if (instr_has_mod(in, ".nc") || str_eqc(instr_space(in), ".const")) return false;
        if (fn && own_param_load(fn, in)) return false;
    }
    return true;
}

bool refs_reads_memory(const Instr *in, uint32_t fl) { return reads_memory(NULL, in, fl); }

static int refs_with_flags(const Function *fn, const Instr *in, uint32_t fl, RegRef *out, int cap)
{
    RefWriter w = { out, cap, 0 };
    uint32_t nregs = fn->nregs;
    if (in->guard) put(&w, in->guard->id, REF_USE | REF_GUARD | (in->guard->special ? REF_SPECIAL : 0), 255, 255, 0);
    bool dest0 = false;
    if (in->nops > 0) {
        uint8_t k0 = in->ops[0].kind;
        if (in->op == OP_call) dest0 = k0 == OPND_LIST;
        else dest0 = (k0 == OPND_REG || k0 == OPND_VEC || k0 == OPND_PAIR || k0 == OPND_SINK) && op0_is_written(in);
    }
    /* reads first (operands in order), then writes */
    for (int k = dest0 ? 1 : 0; k < in->nops; k++) visit(&w, &in->ops[k], REF_USE, (uint8_t)k, 255, nregs);
    bool rm = reads_memory(fn, in, fl), wm = refs_writes_memory(in, fl);
    if (wm) put(&w, nregs, REF_USE | REF_MEM | REF_PARTIAL, 255, 255, 0);
    else if (rm) put(&w, nregs, REF_USE | REF_MEM, 255, 255, 0);
    if (dest0) {
        uint8_t f = REF_DEF;
        if (in->guard || is_accumulating(in)) f |= REF_PARTIAL;
        visit(&w, &in->ops[0], f, 0, 255, nregs);
    }
    if (wm) put(&w, nregs, REF_DEF | REF_MEM | REF_PARTIAL, 255, 255, 0);
    return w.n;
}

int refs_of_instr(const Function *fn, const Instr *in, RegRef *out, int cap)
{
    uint32_t fl = in->op == OP_UNKNOWN ? 0 : opcode_flags_full(in->full.p, in->full.len);
    return refs_with_flags(fn, in, fl, out, cap);
}

static RegRefs *refs_build(Function *fn)
{
    const Cfg *c = cfg_get(fn);
    Arena *a = ana_arena(fn);
    RegRefs *r = ARENA_NEW(a, RegRefs);
    r->nvars = fn->nregs + 1;
    r->start = ARENA_ARRAY(a, uint32_t, c->ninstr + 1);
    /* one pass into a scratch buffer, then one copy into the arena */
    uint32_t total = 0, cap = c->ninstr * 4 + 16;
    RegRef *buf = xmalloc(sizeof(RegRef) * cap);
    for (uint32_t i = 0; i < c->ninstr; i++) {
        r->start[i] = total;
        const Instr *in = &c->instr[i]->u.instr;
        for (;;) {
            int n = refs_with_flags(fn, in, c->iflags[i], buf + total, (int)(cap - total));
            if (total + (uint32_t)n <= cap) {
                total += (uint32_t)n;
                break;
            }
            cap = (total + (uint32_t)n) * 2;
            buf = xrealloc(buf, sizeof(RegRef) * cap);
        }
    }
    r->start[c->ninstr] = total;
    r->refs = ARENA_ARRAY(a, RegRef, total ? total : 1);
    memcpy(r->refs, buf, sizeof(RegRef) * total);
    free(buf);
    return r;
}

const RegRefs *refs_get(Function *fn)
{
    AnalysisCache *ac = analysis_cache(fn);
    if (!ac->refs) ac->refs = refs_build(fn);
    return ac->refs;
}
