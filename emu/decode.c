/* decode.c — pre-decodes every function into a flat EInst array.
 *
 * Each function gets a contiguous range of "pcs".  Pass 1 walks a body to
 * collect its scoped symbols (labels, .param/.local declarations, brx.idx
 * tables) and lays out the per-frame parameter and local areas; pass 2
 * decodes each instruction: modifiers become fields, operands become EOps
 * (register ids, typed immediates, resolved addresses, label pcs).
 *
 * An instruction the emulator does not implement decodes to EK_UNSUP with
 * the reason; it stops the run only if it is executed. */
#include <stdlib.h>
#include <string.h>

#include "emu/fp.h"
#include "emu/internal.h"
#include "ir/regs.h"

/* ---------------------------------------------------------------- symbols */

enum { SYM_LABEL, SYM_FPARAM, SYM_FLOCAL, SYM_VAR, SYM_KPARAM, SYM_BTAB, SYM_REGPARAM };

typedef struct Sym {
    Str name;
    uint32_t scope;
    uint8_t kind;
    uint32_t val;       /* pc, offset, var index, table stmt index, register id */
    uint32_t size;
    const Stmt *dir;    /* SYM_BTAB: the .branchtargets directive */
    int32_t next;       /* older symbol in the same hash bucket */
} Sym;

typedef struct FnCtx {
    EmuProgram *p;
    uint32_t fi;
    EFunc *ef;
    Function *fn;
    Sym *syms;
    uint32_t nsyms, capsyms;
    int32_t *bucket;    /* hash of names -> newest symbol, chained by Sym.next */
    uint32_t nbucket;
    uint32_t *parent;   /* scope tree */
    uint32_t nscopes, capscopes;
    uint32_t scope;
    uint32_t next_body_var;
    uint32_t extra_regs;
    /* .reg declarations in nested { } scopes make new variables even when
     * the name exists outside (the IR interns registers per function):
     * remap[id] is the emulator's register for IR register id here. */
    uint32_t *remap;
    struct ScopedReg { uint32_t scope, id, old; } *shadow;
    uint32_t nshadow, capshadow;
    uint8_t *extra_bits;
    uint32_t capextra;
} FnCtx;

static uint32_t new_extra_reg(FnCtx *c, uint8_t bits)
{
    uint32_t k = c->extra_regs++;
    if (k >= c->capextra) {
        c->capextra = c->capextra ? c->capextra * 2 : 16;
        c->extra_bits = realloc(c->extra_bits, c->capextra);
    }
    c->extra_bits[k] = bits;
    return c->fn->nregs + k;
}

static inline uint32_t reg_id(const FnCtx *c, const Reg *r) { return c->remap ? c->remap[r->id] : r->id; }

static void add_sym(FnCtx *c, Sym s)
{
    if (c->nsyms == c->capsyms) {
        c->capsyms = c->capsyms ? c->capsyms * 2 : 32;
        c->syms = realloc(c->syms, sizeof(Sym) * c->capsyms);
    }
    if (c->nsyms * 2 >= c->nbucket) {          /* rehash */
        c->nbucket = c->nbucket ? c->nbucket * 4 : 64;
        c->bucket = realloc(c->bucket, sizeof(int32_t) * c->nbucket);
        for (uint32_t i = 0; i < c->nbucket; i++) c->bucket[i] = -1;
        for (uint32_t i = 0; i < c->nsyms; i++) {
            uint32_t h = str_hash(c->syms[i].name) & (c->nbucket - 1);
            c->syms[i].next = c->bucket[h];
            c->bucket[h] = (int32_t)i;
        }
    }
    uint32_t h = str_hash(s.name) & (c->nbucket - 1);
    s.next = c->bucket[h];
    c->bucket[h] = (int32_t)c->nsyms;
    c->syms[c->nsyms++] = s;
}

static uint32_t open_scope(FnCtx *c)
{
    if (c->nscopes == c->capscopes) {
        c->capscopes = c->capscopes ? c->capscopes * 2 : 8;
        c->parent = realloc(c->parent, sizeof(uint32_t) * c->capscopes);
    }
    c->parent[c->nscopes] = c->scope;
    c->scope = c->nscopes++;
    return c->scope;
}

static bool scope_visible(const FnCtx *c, uint32_t sym_scope)
{
    for (uint32_t s = c->scope;; s = c->parent[s]) {
        if (s == sym_scope) return true;
        if (s == 0) return false;
    }
}

static const Sym *find_sym(const FnCtx *c, Str name)
{
    if (!c->nbucket) return NULL;
    for (int32_t i = c->bucket[str_hash(name) & (c->nbucket - 1)]; i >= 0; i = c->syms[i].next)
        if (str_eq(c->syms[i].name, name) && scope_visible(c, c->syms[i].scope)) return &c->syms[i];
    return NULL;
}

/* A function by name; a definition wins over earlier prototypes. */
static int find_func(const EmuProgram *p, Str name)
{
    int found = -1;
    for (uint32_t i = 0; i < p->m->nfuncs; i++)
        if (str_eq(p->m->funcs[i]->name, name)) {
            if (p->m->funcs[i]->has_body) return (int)i;
            if (found < 0) found = (int)i;
        }
    return found;
}

static uint32_t align_up32(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

/* --------------------------------------------------------------- code growth */

static EInst *new_inst(EmuProgram *p)
{
    if (p->ncode == p->capcode) {
        p->capcode = p->capcode ? p->capcode * 2 : 256;
        p->code = realloc(p->code, sizeof(EInst) * p->capcode);
    }
    EInst *I = &p->code[p->ncode++];
    memset(I, 0, sizeof *I);
    I->guard = -1;
    I->rpc = NO_PC;
    return I;
}

static uint32_t pool_add(EmuProgram *p, uint32_t n)
{
    if (p->npool + n > p->cappool) {
        while (p->npool + n > p->cappool) p->cappool = p->cappool ? p->cappool * 2 : 256;
        p->pool = realloc(p->pool, sizeof(EOp) * p->cappool);
    }
    uint32_t at = p->npool;
    memset(p->pool + at, 0, sizeof(EOp) * n);
    p->npool += n;
    return at;
}

/* ------------------------------------------------------------- modifiers */

#define MAXMODS 24
typedef struct Mods { Str m[MAXMODS]; int n; } Mods;

static void split_mods(const Instr *in, Mods *ms)
{
    ms->n = 0;
    size_t i = in->opname.len;
    while (i < in->full.len && ms->n < MAXMODS) {
        size_t j = i + 1;
        while (j < in->full.len && in->full.p[j] != '.') j++;
        ms->m[ms->n++] = (Str){ in->full.p + i, j - i };
        i = j;
    }
}

static bool is_hint(Str m)
{
    static const char *const hints[] = {
        ".weak", ".volatile", ".relaxed", ".acquire", ".release", ".acq_rel", ".sc", ".mmio",
        ".cta", ".gpu", ".sys", ".cluster", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt", ".nc",
        ".unified", ".uni", ".sync", ".aligned", ".noftz", ".level::cache_hint", ".L2::cache_hint",
    };
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
        if (str_eqc(m, hints[i])) return true;
    return str_starts(m, ".L1::") || str_starts(m, ".L2::") || str_starts(m, ".level::");
}

static int rnd_of(Str m)
{
    static const char *const r[] = { "", ".rn", ".rz", ".rm", ".rp", ".rna", ".rni", ".rzi", ".rmi", ".rpi", ".rs" };
    for (int i = 1; i < (int)(sizeof r / sizeof r[0]); i++)
        if (str_eqc(m, r[i])) return i;
    return RND_NONE;
}

static int space_of_mod(Str m)
{
    if (str_eqc(m, ".global")) return SP_GLOBAL;
    if (str_eqc(m, ".shared") || str_eqc(m, ".shared::cta") || str_eqc(m, ".shared::cluster")) return SP_SHARED;
    if (str_eqc(m, ".local")) return SP_LOCAL;
    if (str_eqc(m, ".param") || str_eqc(m, ".param::entry") || str_eqc(m, ".param::func")) return SP_PARAM;
    if (str_eqc(m, ".const")) return SP_CONST;
    return SP_NONE;
}

static int cmp_of(Str m)
{
    static const char *const c[] = { ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs",
                                     ".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan" };
    for (int i = 0; i < (int)(sizeof c / sizeof c[0]); i++)
        if (str_eqc(m, c[i])) return i;
    return -1;
}

/* ------------------------------------------------------ special registers */

static int sreg_id(Str name, char comp)
{
    int c = comp == 'y' ? 1 : comp == 'z' ? 2 : 0;
    static const struct { const char *n; int id; bool vec; } t[] = {
        { "%tid", SR_TID, true }, { "%ntid", SR_NTID, true }, { "%ctaid", SR_CTAID, true },
        { "%nctaid", SR_NCTAID, true }, { "%laneid", SR_LANEID, false }, { "%warpid", SR_WARPID, false },
        { "%nwarpid", SR_NWARPID, false }, { "%smid", SR_SMID, false }, { "%nsmid", SR_NSMID, false },
        { "%gridid", SR_GRIDID, false }, { "%lanemask_eq", SR_LANEMASK_EQ, false },
        { "%lanemask_le", SR_LANEMASK_LE, false }, { "%lanemask_lt", SR_LANEMASK_LT, false },
        { "%lanemask_ge", SR_LANEMASK_GE, false }, { "%lanemask_gt", SR_LANEMASK_GT, false },
        { "%clock", SR_CLOCK, false }, { "%clock_hi", SR_CLOCK_HI, false }, { "%clock64", SR_CLOCK64, false },
        { "%globaltimer", SR_GLOBALTIMER, false }, { "%globaltimer_lo", SR_GLOBALTIMER_LO, false },
        { "%globaltimer_hi", SR_GLOBALTIMER_HI, false }, { "%dynamic_smem_size", SR_DYN_SMEM, false },
        { "%total_smem_size", SR_TOTAL_SMEM, false }, { "%aggr_smem_size", SR_AGGR_SMEM, false },
        { "%clusterid", SR_CLUSTERID, true }, { "%nclusterid", SR_NCLUSTERID, true },
        { "%cluster_ctaid", SR_CLUSTER_CTAID, true }, { "%cluster_nctaid", SR_CLUSTER_NCTAID, true },
        { "%cluster_ctarank", SR_CLUSTER_CTARANK, false }, { "%cluster_nctarank", SR_CLUSTER_NCTARANK, false },
        { "%is_explicit_cluster", SR_IS_EXPLICIT_CLUSTER, false },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (str_eqc(name, t[i].n)) return t[i].id + (t[i].vec ? c : 0);
    if (str_starts(name, "%envreg")) return SR_ENVREG;
    if (str_starts(name, "%pm")) return SR_PM;
    if (str_starts(name, "%reserved_smem") || str_eqc(name, "%current_graph_exec")) return SR_ZERO;
    return -1;
}

/* -------------------------------------------------------------- operands */

static int reg_bits(const Reg *r)
{
    switch (r->cls) {
    case RC_PRED: return 1;
    case RC_B8: return 8;
    case RC_B16: return 16;
    case RC_B32: case RC_F32: return 32;
    case RC_B64: case RC_F64: return 64;
    default: return 64;
    }
}

typedef struct DecErr { const char *msg; } DecErr;

/* Is a float literal written as 0fXXXXXXXX (single precision bits)? */
static bool is_f32_literal(const Operand *o)
{
    const char *t = o->text;
    uint32_t n = o->textlen;
    if (!t) return false;
    if (n && t[0] == '-') { t++; n--; }
    return n >= 2 && t[0] == '0' && (t[1] == 'f' || t[1] == 'F');
}

/* An immediate converted to the bits of type ty. */
static int64_t imm_for_type(const Operand *o, int ty)
{
    if (o->kind == OPND_FLOAT) {
        bool f32lit = is_f32_literal(o);
        double d = f32lit ? (double)f32_of((uint64_t)o->value) : f64_of((uint64_t)o->value);
        switch (ty) {
        case TY_F32: return f32lit ? (int64_t)(uint32_t)o->value : (int64_t)bits_f32((float)d);
        case TY_F64: return (int64_t)bits_f64(d);
        case TY_F16: return double_to_f16(d, RND_RN, false);
        case TY_BF16: return double_to_bf16(d, RND_RN, false);
        default: return f32lit ? (int64_t)(uint32_t)o->value : o->value;   /* bit types take the literal's bits */
        }
    }
    if (o->kind == OPND_INT && ty_is_float(ty) && ty != TY_F16X2 && ty != TY_BF16X2) {
        double d = (double)o->value;
        switch (ty) {
        case TY_F32: return (int64_t)bits_f32((float)d);
        case TY_F64: return (int64_t)bits_f64(d);
        case TY_F16: return double_to_f16(d, RND_RN, false);
        case TY_BF16: return double_to_bf16(d, RND_RN, false);
        default: break;
        }
    }
    int b = ty_bits(ty);
    if (b > 0 && b < 64) return (int64_t)((uint64_t)o->value & mask_bits(b));
    return o->value;
}

static bool dec_sym_value(FnCtx *c, Str name, int64_t off, EOp *e, DecErr *err)
{
    const Sym *s = find_sym(c, name);
    if (s) {
        switch (s->kind) {
        case SYM_LABEL: e->kind = EO_LABEL; e->imm = s->val; return true;
        case SYM_FPARAM: e->kind = EO_FPARAMSYM; e->imm = (int64_t)s->val + off; return true;
        case SYM_FLOCAL: e->kind = EO_LOCALSYM; e->imm = (int64_t)s->val + off; return true;
        case SYM_KPARAM: e->kind = EO_IMM; e->imm = (int64_t)s->val + off; return true;
        case SYM_REGPARAM: e->kind = EO_REG; e->reg = s->val; e->bits = (uint8_t)s->size; return true;
        case SYM_VAR: {
            const EVar *v = &c->p->vars[s->val];
            e->kind = EO_IMM;
            if (v->space == SP_SHARED) e->imm = (int64_t)v->offset + off;
            else e->imm = (int64_t)(WINDOW(TAG_ALLOC0 + v->alloc) + (uint64_t)off);
            return true;
        }
        case SYM_BTAB: e->kind = EO_LABEL; e->imm = s->val; e->ab = 1; return true;
        }
    }
    int v = emu_find_var(c->p, name);
    if (v >= 0) {
        const EVar *var = &c->p->vars[v];
        e->kind = EO_IMM;
        if (var->space == SP_SHARED) e->imm = (int64_t)var->offset + off;
        else if (var->space == SP_LOCAL) { e->kind = EO_LOCALSYM; e->imm = -1 - (int64_t)var->offset - off; }
        else e->imm = (int64_t)(WINDOW(TAG_ALLOC0 + var->alloc) + (uint64_t)off);
        return true;
    }
    int f = find_func(c->p, name);
    if (f >= 0) { e->kind = EO_FUNC; e->reg = (uint32_t)f; e->imm = (int64_t)(WINDOW(TAG_FUNC) + (uint64_t)f); return true; }
    err->msg = "unknown symbol";
    return false;
}

/* Space of a symbol used as an address base (SP_NONE when not a variable). */
static int sym_space(FnCtx *c, Str name)
{
    const Sym *s = find_sym(c, name);
    if (s) {
        switch (s->kind) {
        case SYM_FPARAM: return SP_FPARAM;
        case SYM_FLOCAL: return SP_LOCAL;
        case SYM_KPARAM: return SP_PARAM;
        case SYM_VAR: return c->p->vars[s->val].space;
        default: return SP_NONE;
        }
    }
    int v = emu_find_var(c->p, name);
    if (v >= 0) return c->p->vars[v].space;
    return SP_NONE;
}

static bool dec_opnd(FnCtx *c, const Operand *o, int ty, EOp *e, DecErr *err);

static bool dec_addr(FnCtx *c, const Operand *o, int ispace, EOp *e, DecErr *err)
{
    memset(e, 0, sizeof *e);
    if (o->kind != OPND_ADDR || o->n != 1) { err->msg = "unsupported address form"; return false; }
    const Operand *b = &o->u.elems[0];
    e->kind = EO_ADDR;
    e->imm = o->value;
    if (b->kind == OPND_REG) {
        if (b->u.reg->special) { err->msg = "special register as address"; return false; }
        e->ab = AB_REG;
        e->reg = reg_id(c, b->u.reg);
        e->bits = (uint8_t)reg_bits(b->u.reg);
        return true;
    }
    if (b->kind == OPND_INT) { e->ab = AB_ABS; e->imm = b->value + o->value; return true; }
    if (b->kind != OPND_SYM) { err->msg = "unsupported address base"; return false; }
    Str name = opnd_text(b);
    int sp = sym_space(c, name);
    EOp v;
    memset(&v, 0, sizeof v);
    if (sp == SP_NONE) {
        /* a .reg parameter used as an address base */
        const Sym *s = find_sym(c, name);
        if (s && s->kind == SYM_REGPARAM) {
            e->ab = AB_REG; e->reg = s->val; e->bits = (uint8_t)s->size;
            return true;
        }
        err->msg = "address of an unknown symbol";
        return false;
    }
    if (!dec_sym_value(c, name, o->value, &v, err)) return false;
    if (sp == SP_LOCAL) {
        e->ab = AB_FLOCAL;
        e->imm = v.imm;
        if (ispace == SP_GENERIC) { err->msg = "generic access through a .local symbol"; return false; }
        return true;
    }
    if (sp == SP_FPARAM) {
        e->ab = AB_FPARAM;
        e->imm = v.imm;
        return true;
    }
    e->ab = AB_ABS;
    e->imm = v.imm;
    if (ispace == SP_GENERIC) {
        if (sp == SP_SHARED) e->imm += (int64_t)WINDOW(TAG_SHARED);
        else if (sp == SP_PARAM) e->imm += (int64_t)WINDOW(TAG_KPARAM);
    } else if (ispace != sp && !(ispace == SP_PARAM && sp == SP_PARAM) &&
               !((ispace == SP_GLOBAL || ispace == SP_CONST) && (sp == SP_GLOBAL || sp == SP_CONST))) {
        err->msg = "address symbol in another state space";
        return false;
    }
    return true;
}

static bool dec_opnd(FnCtx *c, const Operand *o, int ty, EOp *e, DecErr *err)
{
    memset(e, 0, sizeof *e);
    switch (o->kind) {
    case OPND_REG: {
        Reg *r = o->u.reg;
        if (o->flags & OPNDF_MINUS) { err->msg = "negated register operand"; return false; }
        if (r->special) {
            int id = sreg_id(r->name, o->comp);
            if (id < 0) { err->msg = "unknown special register"; return false; }
            e->kind = EO_SREG;
            e->reg = (uint32_t)id;
            if (id == SR_PM) e->reg = SR_ZERO;
            if (id == SR_ENVREG) {          /* %envreg<N>: the index in imm */
                uint32_t n = 0;
                for (size_t i = 7; i < r->name.len; i++) n = n * 10 + (uint32_t)(r->name.p[i] - '0');
                e->imm = n;
            }
            return true;
        }
        if (r->vec || o->comp) { err->msg = "vector register"; return false; }
        if (r->cls == RC_B128) { err->msg = ".b128 register"; return false; }
        if (o->value) { err->msg = "register+offset operand"; return false; }
        e->kind = (o->flags & OPNDF_NEG) ? EO_REGNEG : EO_REG;
        e->reg = reg_id(c, r);
        e->bits = (uint8_t)reg_bits(r);
        return true;
    }
    case OPND_INT:
    case OPND_FLOAT:
        e->kind = EO_IMM;
        e->imm = imm_for_type(o, ty);
        return true;
    case OPND_SYM: {
        Str name = opnd_text(o);
        if (!dec_sym_value(c, name, o->value, e, err)) return false;
        if (o->flags & OPNDF_NEG) {
            if (e->kind == EO_REG) e->kind = EO_REGNEG;
            else { err->msg = "negated symbol"; return false; }
        }
        return true;
    }
    case OPND_ADDR:
        return dec_addr(c, o, SP_GENERIC, e, err);
    case OPND_SINK:
        e->kind = EO_SINK;
        return true;
    case OPND_VEC: {
        uint32_t at = pool_add(c->p, o->n);
        e->kind = EO_VEC;
        e->n = o->n;
        e->reg = at;
        for (int i = 0; i < o->n; i++) {
            EOp sub;
            if (!dec_opnd(c, &o->u.elems[i], ty, &sub, err)) return false;
            c->p->pool[at + i] = sub;
        }
        return true;
    }
    case OPND_LIST: {
        uint32_t at = pool_add(c->p, o->n);
        e->kind = EO_LIST;
        e->n = o->n;
        e->reg = at;
        for (int i = 0; i < o->n; i++) {
            EOp sub;
            if (!dec_opnd(c, &o->u.elems[i], ty, &sub, err)) return false;
            c->p->pool[at + i] = sub;
        }
        return true;
    }
    default:
        err->msg = "unsupported operand (constant expression)";
        return false;
    }
}

/* -------------------------------------------------------- instruction forms */

typedef struct Dec {
    FnCtx *c;
    const Instr *in;
    EInst *I;
    Mods ms;
    DecErr err;
    int types[4];
    int ntypes;
} Dec;

static bool unsup(Dec *d, const char *why) { d->err.msg = why; return false; }

static bool ops_n(Dec *d, int n)
{
    if (d->in->nops != n) return unsup(d, "unexpected number of operands");
    return true;
}

static bool op_at(Dec *d, int k, int ty)
{
    return dec_opnd(d->c, &d->in->ops[k], ty, &d->I->o[k], &d->err);
}

static bool all_ops(Dec *d, int ty)
{
    if (d->in->nops > 5) return unsup(d, "too many operands");
    for (int k = 0; k < d->in->nops; k++)
        if (!op_at(d, k, ty)) return false;
    d->I->nops = d->in->nops;
    return true;
}

/* Destination operands must be registers (or sinks). */
static bool dest_ok(Dec *d, int k)
{
    uint8_t kd = d->I->o[k].kind;
    if (kd != EO_REG && kd != EO_SINK) return unsup(d, "destination is not a register");
    return true;
}

/* Collects type modifiers and common flags; returns false on a modifier it does not know. */
static bool scan_common(Dec *d, bool allow_lohi, bool allow_cmp)
{
    EInst *I = d->I;
    d->ntypes = 0;
    for (int i = 0; i < d->ms.n; i++) {
        Str m = d->ms.m[i];
        int t = ty_from_mod(m);
        if (t) { if (d->ntypes < 4) d->types[d->ntypes++] = t; continue; }
        int r = rnd_of(m);
        if (r) { I->rnd = (uint8_t)r; continue; }
        if (str_eqc(m, ".ftz")) { I->flags |= F_FTZ; continue; }
        if (str_eqc(m, ".sat")) { I->flags |= F_SAT; continue; }
        if (str_eqc(m, ".approx")) { I->flags |= F_APPROX; continue; }
        if (str_eqc(m, ".full")) { I->flags |= F_FULL; continue; }
        if (str_eqc(m, ".cc")) { I->flags |= F_CC; continue; }
        if (str_eqc(m, ".relu")) { I->flags |= F_RELU; continue; }
        if (allow_lohi && str_eqc(m, ".lo")) { I->sub = MW_LO; continue; }
        if (allow_lohi && str_eqc(m, ".hi")) { I->sub = MW_HI; continue; }
        if (allow_lohi && str_eqc(m, ".wide")) { I->sub = MW_WIDE; continue; }
        if (allow_cmp && cmp_of(m) >= 0) continue;
        if (str_eqc(m, ".sync") || str_eqc(m, ".aligned") || str_eqc(m, ".noftz") || str_eqc(m, ".uni")) continue;
        return unsup(d, "unsupported modifier");
    }
    if (d->ntypes) I->t = (uint8_t)d->types[d->ntypes - 1];
    return true;
}

static int float_kind(int op)
{
    switch (op) {
    case OP_add: return EK_FADD;
    case OP_sub: return EK_FSUB;
    case OP_mul: return EK_FMUL;
    case OP_mad: case OP_fma: return EK_FFMA;
    case OP_div: return EK_FDIV;
    case OP_abs: return EK_FABS;
    case OP_neg: return EK_FNEG;
    case OP_min: return EK_FMIN;
    case OP_max: return EK_FMAX;
    case OP_rcp: return EK_FRCP;
    case OP_sqrt: return EK_FSQRT;
    case OP_rsqrt: return EK_FRSQRT;
    case OP_sin: return EK_FSIN;
    case OP_cos: return EK_FCOS;
    case OP_lg2: return EK_FLG2;
    case OP_ex2: return EK_FEX2;
    case OP_tanh: return EK_FTANH;
    case OP_copysign: return EK_COPYSIGN;
    default: return EK_UNSUP;
    }
}

static int int_kind(int op)
{
    switch (op) {
    case OP_add: case OP_addc: return EK_ADD;
    case OP_sub: case OP_subc: return EK_SUB;
    case OP_mul: return EK_MUL;
    case OP_mad: case OP_madc: return EK_MAD;
    case OP_mul24: return EK_MUL24;
    case OP_mad24: return EK_MAD24;
    case OP_sad: return EK_SAD;
    case OP_div: return EK_DIV;
    case OP_rem: return EK_REM;
    case OP_abs: return EK_ABS;
    case OP_neg: return EK_NEG;
    case OP_min: return EK_MIN;
    case OP_max: return EK_MAX;
    case OP_popc: return EK_POPC;
    case OP_clz: return EK_CLZ;
    case OP_bfind: return EK_BFIND;
    case OP_fns: return EK_FNS;
    case OP_brev: return EK_BREV;
    case OP_bfe: return EK_BFE;
    case OP_bfi: return EK_BFI;
    case OP_szext: return EK_SZEXT;
    case OP_bmsk: return EK_BMSK;
    case OP_dp4a: return EK_DP4A;
    case OP_dp2a: return EK_DP2A;
    case OP_and: return EK_AND;
    case OP_or: return EK_OR;
    case OP_xor: return EK_XOR;
    case OP_not: return EK_NOT;
    case OP_cnot: return EK_CNOT;
    case OP_lop3: return EK_LOP3;
    case OP_shl: return EK_SHL;
    case OP_shr: return EK_SHR;
    case OP_shf: return EK_SHF;
    case OP_prmt: return EK_PRMT;
    default: return EK_UNSUP;
    }
}

static bool dec_arith(Dec *d)
{
    EInst *I = d->I;
    int op = d->in->op;
    /* mode words of specific instructions */
    for (int i = 0; i < d->ms.n; i++) {
        Str m = d->ms.m[i];
        if (op == OP_bfind && str_eqc(m, ".shiftamt")) { I->sub2 = 1; d->ms.m[i] = STR_LIT(".sync"); }
        if ((op == OP_szext || op == OP_bmsk || op == OP_shf) && (str_eqc(m, ".wrap") || str_eqc(m, ".clamp"))) {
            I->sub2 = str_eqc(m, ".clamp");
            d->ms.m[i] = STR_LIT(".sync");
        }
        if (op == OP_shf && (str_eqc(m, ".l") || str_eqc(m, ".r"))) { I->sub = str_eqc(m, ".r"); d->ms.m[i] = STR_LIT(".sync"); }
        if (op == OP_prmt) {
            static const char *const pm[] = { ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16" };
            for (int k = 0; k < 6; k++)
                if (str_eqc(m, pm[k])) { I->sub = (uint8_t)(k + 1); d->ms.m[i] = STR_LIT(".sync"); }
        }
        if ((op == OP_min || op == OP_max) && (str_eqc(m, ".NaN") || str_eqc(m, ".xorsign") || str_eqc(m, ".abs")))
            return unsup(d, "min/max .NaN/.xorsign not implemented");
    }
    /* operand counts (the parser keeps any shape; never read a missing operand) */
    int want;
    switch (op) {
    case OP_abs: case OP_neg: case OP_not: case OP_cnot: case OP_popc: case OP_clz: case OP_bfind: case OP_brev:
    case OP_rcp: case OP_sqrt: case OP_rsqrt: case OP_sin: case OP_cos: case OP_lg2: case OP_ex2: case OP_tanh:
        want = 2; break;
    case OP_mad: case OP_madc: case OP_fma: case OP_mad24: case OP_sad: case OP_bfe: case OP_dp4a: case OP_dp2a:
    case OP_shf: case OP_prmt: case OP_fns:
        want = 4; break;
    case OP_bfi: case OP_lop3: want = 5; break;
    default: want = 3; break;
    }
    if (d->in->nops != want) return unsup(d, "unexpected number of operands");
    bool lohi = op == OP_mul || op == OP_mad || op == OP_madc || op == OP_mul24 || op == OP_mad24 || op == OP_dp2a;
    if (!scan_common(d, lohi, false)) return false;
    if (op == OP_addc || op == OP_subc || op == OP_madc) I->flags |= F_CARRYIN;
    if (op == OP_dp4a || op == OP_dp2a) {
        if (d->ntypes != 2) return unsup(d, "dp4a/dp2a need two types");
        I->t = (uint8_t)d->types[0];
        I->t2 = (uint8_t)d->types[1];
    }
    if ((op == OP_mul || op == OP_mad) && d->ntypes == 2) return unsup(d, "mixed-precision arithmetic");
    if (d->ntypes == 2 && (op == OP_add || op == OP_sub || op == OP_fma)) return unsup(d, "mixed-precision arithmetic");
    int ty = I->t;
    if (ty_is_float(ty) && op != OP_bfe && op != OP_copysign) {
        I->op = (uint16_t)float_kind(op);
        if (I->op == EK_UNSUP) return unsup(d, "unsupported floating-point instruction");
        bool approx = I->flags & F_APPROX;
        switch (I->op) {
        case EK_FSIN: case EK_FCOS: case EK_FLG2: case EK_FEX2: case EK_FTANH: case EK_FRSQRT:
            I->cls = EMU_CLS_SFU;
            break;
        case EK_FRCP: case EK_FSQRT:
            I->cls = approx ? EMU_CLS_SFU : EMU_CLS_FMA;
            if (!approx && I->rnd == RND_NONE) return unsup(d, "rcp/sqrt without .approx or rounding");
            break;
        case EK_FDIV:
            I->cls = (approx || (I->flags & F_FULL)) ? EMU_CLS_SFU : EMU_CLS_FMA;
            if (!approx && !(I->flags & F_FULL) && I->rnd == RND_NONE && ty == TY_F32) return unsup(d, "div.f32 without rounding");
            break;
        default:
            I->cls = EMU_CLS_FMA;
        }
        if (ty == TY_TF32) return unsup(d, ".tf32 arithmetic");
    } else {
        I->op = (uint16_t)int_kind(op);
        if (op == OP_copysign) I->op = EK_COPYSIGN;
        if (I->op == EK_UNSUP) return unsup(d, "unsupported integer instruction");
        I->cls = EMU_CLS_ALU;
        if (ty == TY_NONE) return unsup(d, "missing type");
        if (ty == TY_B128 || ty == TY_F16X2 || ty == TY_BF16X2) return unsup(d, "unsupported type");
        if (op == OP_lop3 && d->in->nops != 5) return unsup(d, "lop3 with a predicate output");
        if ((op == OP_min || op == OP_max) && (I->flags & F_RELU) && ty != TY_S32) return unsup(d, "packed min/max .relu");
        if ((op == OP_min || op == OP_max || op == OP_add || op == OP_sub) && (d->types[0] == TY_U16 || d->types[0] == TY_S16) &&
            d->ntypes > 0 && str_eqc(d->ms.m[d->ms.n - 1], ".u16x2"))
            return unsup(d, "packed integer SIMD");
    }
    if (!all_ops(d, (op == OP_shl || op == OP_shr || op == OP_bfe || op == OP_bfi || op == OP_fns || op == OP_shf ||
                     op == OP_bmsk || op == OP_szext)
                        ? TY_NONE
                        : ty))
        return false;
    /* shift amounts and bit positions are u32 immediates */
    if (!dest_ok(d, 0)) return false;
    return true;
}

static bool dec_testp(Dec *d)
{
    EInst *I = d->I;
    static const char *const ops[] = { ".finite", ".infinite", ".number", ".notanumber", ".normal", ".subnormal" };
    for (int i = 0; i < d->ms.n; i++)
        for (int k = 0; k < 6; k++)
            if (str_eqc(d->ms.m[i], ops[k])) { I->sub = (uint8_t)k; d->ms.m[i] = STR_LIT(".sync"); }
    if (!scan_common(d, false, false)) return false;
    I->op = EK_TESTP;
    I->cls = EMU_CLS_ALU;
    if (!ops_n(d, 2) || !all_ops(d, I->t)) return false;
    return dest_ok(d, 0);
}

static bool dec_setp(Dec *d, bool is_set)
{
    EInst *I = d->I;
    int cmp = -1;
    I->sub2 = BOP_NONE;
    for (int i = 0; i < d->ms.n; i++) {
        Str m = d->ms.m[i];
        if (cmp < 0 && cmp_of(m) >= 0) { cmp = cmp_of(m); d->ms.m[i] = STR_LIT(".sync"); continue; }
        if (str_eqc(m, ".and")) { I->sub2 = BOP_AND; d->ms.m[i] = STR_LIT(".sync"); }
        else if (str_eqc(m, ".or")) { I->sub2 = BOP_OR; d->ms.m[i] = STR_LIT(".sync"); }
        else if (str_eqc(m, ".xor")) { I->sub2 = BOP_XOR; d->ms.m[i] = STR_LIT(".sync"); }
    }
    if (cmp < 0) return unsup(d, "missing comparison");
    if (!scan_common(d, false, false)) return false;
    I->sub = (uint8_t)cmp;
    I->cls = EMU_CLS_ALU;
    if (is_set) {
        if (d->ntypes != 2) return unsup(d, "set needs two types");
        I->op = EK_SET;
        I->t = (uint8_t)d->types[0];
        I->t2 = (uint8_t)d->types[1];
    } else {
        I->op = EK_SETP;
        I->t2 = I->t;
    }
    if (I->t2 == TY_F16X2 || I->t2 == TY_BF16X2 || I->t2 == TY_B128) return unsup(d, "packed compare");
    int n = d->in->nops;
    if (n != 3 && n != 4) return unsup(d, "unexpected number of operands");
    if (n == 4 && I->sub2 == BOP_NONE) return unsup(d, "predicate operand without a boolean operation");
    const Operand *dst = &d->in->ops[0];
    if (dst->kind == OPND_PAIR) {
        if (is_set) return unsup(d, "set with a pair destination");
        if (!dec_opnd(d->c, &dst->u.elems[0], TY_PRED, &I->o[0], &d->err)) return false;
        if (!dec_opnd(d->c, &dst->u.elems[1], TY_PRED, &I->o[5], &d->err)) return false;
    } else {
        if (!op_at(d, 0, is_set ? I->t : TY_PRED)) return false;
        I->o[5].kind = EO_NONE;
    }
    if (!op_at(d, 1, I->t2) || !op_at(d, 2, I->t2)) return false;
    if (n == 4 && !op_at(d, 3, TY_PRED)) return false;
    I->nops = (uint8_t)n;
    return dest_ok(d, 0);
}

static bool dec_selp(Dec *d, bool slct)
{
    EInst *I = d->I;
    if (!scan_common(d, false, false)) return false;
    I->cls = EMU_CLS_ALU;
    if (slct) {
        if (d->ntypes != 2) return unsup(d, "slct needs two types");
        I->op = EK_SLCT;
        I->t = (uint8_t)d->types[0];
        I->t2 = (uint8_t)d->types[1];
    } else {
        I->op = EK_SELP;
    }
    if (!ops_n(d, 4)) return false;
    if (!op_at(d, 0, I->t) || !op_at(d, 1, I->t) || !op_at(d, 2, I->t) || !op_at(d, 3, slct ? I->t2 : TY_PRED)) return false;
    I->nops = 4;
    return dest_ok(d, 0);
}

static bool dec_mov(Dec *d)
{
    EInst *I = d->I;
    if (!scan_common(d, false, false)) return false;
    I->op = EK_MOV;
    I->cls = EMU_CLS_ALU;
    if (!ops_n(d, 2)) return false;
    if (I->t == TY_B128) return unsup(d, "mov.b128");
    int total = ty_bits(I->t);
    if (d->in->ops[0].kind == OPND_VEC) {           /* unpack */
        int n = d->in->ops[0].n;
        if (n < 2 || total % n) return unsup(d, "bad vector unpack");
        int eb = total / n;
        int ety = eb == 8 ? TY_B8 : eb == 16 ? TY_B16 : eb == 32 ? TY_B32 : TY_B64;
        if (!op_at(d, 0, ety) || !op_at(d, 1, I->t)) return false;
        I->sub = 2;
        I->t2 = (uint8_t)eb;
    } else if (d->in->ops[1].kind == OPND_VEC) {    /* pack */
        int n = d->in->ops[1].n;
        if (n < 2 || total % n) return unsup(d, "bad vector pack");
        int eb = total / n;
        int ety = eb == 8 ? TY_B8 : eb == 16 ? TY_B16 : eb == 32 ? TY_B32 : TY_B64;
        if (!op_at(d, 0, I->t) || !op_at(d, 1, ety)) return false;
        I->sub = 1;
        I->t2 = (uint8_t)eb;
        if (!dest_ok(d, 0)) return false;
    } else {
        if (!op_at(d, 0, I->t) || !op_at(d, 1, I->t)) return false;
        if (!dest_ok(d, 0)) return false;
    }
    I->nops = 2;
    return true;
}

static bool dec_cvt(Dec *d)
{
    EInst *I = d->I;
    bool satfinite = false;
    for (int i = 0; i < d->ms.n; i++)
        if (str_eqc(d->ms.m[i], ".satfinite")) { satfinite = true; d->ms.m[i] = STR_LIT(".sync"); }
    if (!scan_common(d, false, false)) return false;
    I->cls = EMU_CLS_ALU;
    if (d->ntypes != 2) return unsup(d, "cvt needs two types");
    I->t = (uint8_t)d->types[0];
    I->t2 = (uint8_t)d->types[1];
    if (satfinite) I->sub2 = 1;
    if (I->t == TY_F16X2 || I->t == TY_BF16X2) {
        if (I->t2 != TY_F32 || d->in->nops != 3) return unsup(d, "unsupported packed conversion");
        I->op = EK_CVTPACK;
        if (!op_at(d, 0, I->t) || !op_at(d, 1, TY_F32) || !op_at(d, 2, TY_F32)) return false;
        I->nops = 3;
        return dest_ok(d, 0);
    }
    if (I->t == TY_B128 || I->t2 == TY_B128 || I->t2 == TY_F16X2 || I->t2 == TY_BF16X2 || I->t2 == TY_TF32)
        return unsup(d, "unsupported conversion types");
    if (I->t == TY_TF32 && I->t2 != TY_F32) return unsup(d, "unsupported conversion to tf32");
    I->op = EK_CVT;
    if (!ops_n(d, 2) || !op_at(d, 0, I->t) || !op_at(d, 1, I->t2)) return false;
    I->nops = 2;
    return dest_ok(d, 0);
}

static bool dec_cvta(Dec *d, bool isspacep)
{
    EInst *I = d->I;
    I->space = SP_NONE;
    for (int i = 0; i < d->ms.n; i++) {
        Str m = d->ms.m[i];
        int sp = space_of_mod(m);
        if (sp != SP_NONE) { I->space = (uint8_t)sp; d->ms.m[i] = STR_LIT(".sync"); }
        else if (str_eqc(m, ".to")) { I->sub = 1; d->ms.m[i] = STR_LIT(".sync"); }
    }
    if (!scan_common(d, false, false)) return false;
    if (I->space == SP_NONE) return unsup(d, "missing state space");
    I->op = isspacep ? EK_ISSPACEP : EK_CVTA;
    I->cls = EMU_CLS_ALU;
    if (!ops_n(d, 2) || !all_ops(d, isspacep ? TY_U64 : I->t)) return false;
    return dest_ok(d, 0);
}


/* The cache behaviour of a global ld/st/atom/cp.async (EInst.cl1, cl2),
 * for the cache model only (emu/cache.c documents the semantics).  Reads
 * the modifiers; a cache operator or eviction priority the model does not
 * distinguish keeps the default (cache in L1 and L2, normal priority). */
static int cpri_of(Str m, const char *lvl)
{
    static const char *const names[] = { "evict_first", "evict_normal", "evict_last", "evict_unchanged" };
    size_t n = strlen(lvl);
    if (m.len <= n || memcmp(m.p, lvl, n) != 0) return -1;
    for (int k = 0; k < 4; k++)
        if (m.len - n == strlen(names[k]) && memcmp(m.p + n, names[k], m.len - n) == 0) return k == 0 ? CPRI_FIRST : k == 1 ? CPRI_NORMAL : k == 2 ? CPRI_LAST : CPRI_UNCHANGED;
    return -1;
}

static void cache_mods(Dec *d, bool nc)
{
    int mode = CL1_ALLOC, p1 = CPRI_NORMAL, p2 = CPRI_NORMAL, extra = 0;
    bool strong = false, scope_cta = false;
    for (int i = 0; i < d->ms.n; i++) {
        Str m = d->ms.m[i];
        int pr;
        if (str_eqc(m, ".cg")) { if (!nc) mode = CL1_BYPASS; }    /* .cg.nc is .nc (same SASS, research §3.3) */
        else if (str_eqc(m, ".cs") || str_eqc(m, ".lu")) { p1 = CPRI_FIRST; p2 = CPRI_FIRST; }
        else if (str_eqc(m, ".cv") || str_eqc(m, ".volatile") || str_eqc(m, ".mmio")) { mode = CL1_INVALIDATE; extra |= CL2_REFETCH; }
        else if (str_eqc(m, ".relaxed") || str_eqc(m, ".acquire") || str_eqc(m, ".release") || str_eqc(m, ".acq_rel") || str_eqc(m, ".sc")) strong = true;
        else if (str_eqc(m, ".cta")) scope_cta = true;
        else if (str_eqc(m, ".L1::no_allocate")) mode = mode == CL1_ALLOC ? CL1_NOALLOC : mode;
        else if ((pr = cpri_of(m, ".L1::")) >= 0) p1 = pr;
        else if ((pr = cpri_of(m, ".L2::")) >= 0) p2 = pr;
        else if (str_eqc(m, ".L2::cache_hint")) extra |= CL2_HINT;
    }
    /* strong loads are served where they are coherent: the L2 at .gpu,
     * .cluster and .sys scope, the SM's L1 at .cta scope */
    if (strong && !scope_cta && mode != CL1_INVALIDATE) mode = CL1_BYPASS;
    d->I->cl1 = CL1(mode, p1);
    d->I->cl2 = (uint8_t)(p2 | extra);
}

/* The memory-model semantics of an ld/st/atom/red (EInst.msem; only the
 * weak-memory mode reads it): .volatile and .mmio are .relaxed.sys (PTX ISA,
 * memory consistency model: volatile operations), a missing scope of a
 * strong operation is .gpu, .cluster and .sys count as .gpu (a wider
 * scope only adds ordering among the CTAs the emulator runs); atom/red
 * without an order are .relaxed. */
static uint8_t mem_sem(Dec *d, int dflt)
{
    int sem = dflt, scope = WS_NONE;
    for (int i = 0; i < d->ms.n; i++) {
        Str m = d->ms.m[i];
        if (str_eqc(m, ".volatile") || str_eqc(m, ".mmio") || str_eqc(m, ".relaxed")) sem = MS_RELAXED;
        else if (str_eqc(m, ".acquire")) sem = MS_ACQUIRE;
        else if (str_eqc(m, ".release")) sem = MS_RELEASE;
        else if (str_eqc(m, ".acq_rel")) sem = MS_ACQREL;
        else if (str_eqc(m, ".cta")) scope = WS_CTA;
        else if (str_eqc(m, ".gpu") || str_eqc(m, ".sys") || str_eqc(m, ".cluster")) scope = WS_GPU;
    }
    if (sem == MS_WEAK) return MSEM(MS_WEAK, WS_NONE);
    return MSEM(sem, scope == WS_NONE ? WS_GPU : scope);
}

static bool dec_ldst(Dec *d, bool store)
{
    EInst *I = d->I;
    I->space = SP_GENERIC;
    I->vec = 1;
    for (int i = 0; i < d->ms.n; i++) {
        Str m = d->ms.m[i];
        int sp = space_of_mod(m);
        if (sp != SP_NONE) { I->space = (uint8_t)sp; continue; }
        if (str_eqc(m, ".v2")) { I->vec = 2; continue; }
        if (str_eqc(m, ".v4")) { I->vec = 4; continue; }
        if (str_eqc(m, ".v8")) { I->vec = 8; continue; }
        if (ty_from_mod(m)) { I->t = (uint8_t)ty_from_mod(m); continue; }
        if (!store && str_eqc(m, ".nc")) { I->sub = LD_NC; continue; }
        if (!store && (str_eqc(m, ".volatile") || str_eqc(m, ".relaxed") || str_eqc(m, ".acquire"))) { I->sub2 = LD_SYNC; continue; }
        if (is_hint(m)) continue;
        return unsup(d, "unsupported ld/st modifier");
    }
    /* ldu, like ld.global.nc, promises data that no thread writes during the
     * launch; stores then record their writer so that a load can check it. */
    if (!store && d->in->op == OP_ldu) I->sub = LD_NC;
    if (I->sub == LD_NC) d->c->p->has_nc = true;
    if (I->t == TY_NONE || I->t == TY_B128 || I->t == TY_PRED) return unsup(d, "unsupported ld/st type");
    I->op = store ? EK_ST : EK_LD;
    I->cls = EMU_CLS_MEM;
    if (d->in->nops < 2) return unsup(d, "missing operands");
    int ai = store ? 0 : 1, vi = store ? 1 : 0;
    int sp = I->space;
    if (sp == SP_PARAM) {
        /* ld.param of a symbol: kernel parameter or frame parameter, decided by the symbol */
        const Operand *a = &d->in->ops[ai];
        if (a->kind == OPND_ADDR && a->n == 1 && a->u.elems[0].kind == OPND_SYM && sym_space(d->c, opnd_text(&a->u.elems[0])) == SP_FPARAM)
            sp = SP_FPARAM;
        else if (!d->c->ef->entry && !(a->kind == OPND_ADDR && a->n == 1 && a->u.elems[0].kind == OPND_SYM))
            return unsup(d, "ld.param through a register in a device function");
        I->space = (uint8_t)sp;
    }
    if (!dec_addr(d->c, &d->in->ops[ai], sp, &I->o[ai], &d->err)) return false;
    if (!dec_opnd(d->c, &d->in->ops[vi], I->t, &I->o[vi], &d->err)) return false;
    if (I->vec > 1 && (I->o[vi].kind != EO_VEC || I->o[vi].n != I->vec)) return unsup(d, "vector length mismatch");
    if (I->vec == 1 && I->o[vi].kind == EO_VEC) return unsup(d, "vector operand without .vN");
    if (!store) {
        if (I->vec == 1 && I->o[0].kind != EO_REG && I->o[0].kind != EO_SINK) return unsup(d, "load destination");
    }
    I->nops = 2;
    I->msem = mem_sem(d, MS_WEAK);
    cache_mods(d, I->sub == LD_NC);
    /* the .L2::cache_hint policy (a 64-bit register or immediate): read by the cache model only */
    if ((I->cl2 & CL2_HINT) && d->in->nops >= 3) {
        if (!op_at(d, 2, TY_B64)) return false;
        if (I->o[2].kind != EO_REG && I->o[2].kind != EO_IMM) I->cl2 &= (uint8_t)~CL2_HINT;
    } else {
        I->cl2 &= (uint8_t)~CL2_HINT;
    }
    return true;
}

static bool dec_atom(Dec *d, bool red)
{
    EInst *I = d->I;
    I->space = SP_GENERIC;
    int aop = -1;
    static const char *const ops[] = { ".add", ".min", ".max", ".inc", ".dec", ".and", ".or", ".xor", ".exch", ".cas" };
    for (int i = 0; i < d->ms.n; i++) {
        Str m = d->ms.m[i];
        int sp = space_of_mod(m);
        if (sp != SP_NONE) { I->space = (uint8_t)sp; continue; }
        bool hit = false;
        for (int k = 0; k < 10; k++)
            if (str_eqc(m, ops[k])) { aop = k; hit = true; }
        if (hit) continue;
        if (str_eqc(m, ".v2") || str_eqc(m, ".v4") || str_eqc(m, ".v8")) return unsup(d, "vector atomics");
        if (ty_from_mod(m)) { I->t = (uint8_t)ty_from_mod(m); continue; }
        if (is_hint(m)) continue;
        return unsup(d, "unsupported atom modifier");
    }
    if (aop < 0) return unsup(d, "missing atomic operation");
    if (I->space == SP_LOCAL || I->space == SP_PARAM || I->space == SP_CONST) return unsup(d, "atomic on this state space");
    I->op = EK_ATOM;
    I->sub = (uint8_t)aop;
    I->sub2 = red;
    I->cls = EMU_CLS_MEM;
    int t = I->t;
    if (t == TY_NONE || t == TY_B128 || t == TY_BF16X2 || t == TY_U8 || t == TY_S8 || t == TY_B8) return unsup(d, "unsupported atomic type");
    if (ty_is_float(t) && aop != AO_ADD && aop != AO_EXCH && aop != AO_CAS && aop != AO_MIN && aop != AO_MAX) return unsup(d, "floating-point atomic operation");
    if ((t == TY_B16 || t == TY_U16 || t == TY_S16) && aop != AO_CAS) return unsup(d, "16-bit atomic other than cas");
    int n = d->in->nops;
    int first = red ? 0 : 1;
    int need = first + 2 + (aop == AO_CAS ? 1 : 0);
    if (n != need && n != need + 1) return unsup(d, "unexpected number of operands");
    if (!red && (!op_at(d, 0, t) || !dest_ok(d, 0))) return false;
    if (!dec_addr(d->c, &d->in->ops[first], I->space, &I->o[first], &d->err)) return false;
    for (int k = first + 1; k < need; k++)
        if (!op_at(d, k, t)) return false;
    I->nops = (uint8_t)need;
    I->msem = mem_sem(d, MS_RELAXED);
    cache_mods(d, false);
    I->cl2 &= (uint8_t)~CL2_HINT;
    return true;
}

/* mbarrier.*: operands normalised to o[0] destination (state, predicate,
 * count; EO_NONE when none), o[1] the object's address, o[2] the value
 * (count, transaction bytes, state or parity). */
static bool dec_mbar(Dec *d)
{
    EInst *I = d->I;
    I->space = SP_GENERIC;
    int op = -1;
    static const char *const ops[] = { ".init", ".arrive", ".arrive_drop", ".expect_tx", ".complete_tx", ".test_wait",
                                       ".try_wait", ".pending_count", ".inval" };
    for (int i = 0; i < d->ms.n; i++) {
        Str m = d->ms.m[i];
        int sp = space_of_mod(m);
        if (sp != SP_NONE) { I->space = (uint8_t)sp; continue; }
        if (str_eqc(m, ".expect_tx") && (op == MB_ARRIVE || op == MB_ARRIVE_DROP)) { I->sub2 |= MBF_EXPECT_TX; continue; }
        if (str_eqc(m, ".parity")) { I->sub2 |= MBF_PARITY; continue; }
        if (str_eqc(m, ".b64")) continue;
        bool hit = false;
        for (int k = 0; k < 9; k++)
            if (op < 0 && str_eqc(m, ops[k])) { op = k; hit = true; }
        if (hit) continue;
        if (is_hint(m)) continue;
        return unsup(d, "unsupported mbarrier modifier");
    }
    if (op < 0) return unsup(d, "unsupported mbarrier operation");
    if (I->space != SP_GENERIC && I->space != SP_SHARED) return unsup(d, "mbarrier outside shared memory");
    I->op = EK_MBAR;
    I->sub = (uint8_t)op;
    I->cls = EMU_CLS_MEM;
    I->t = TY_B64;
    I->o[0].kind = I->o[1].kind = I->o[2].kind = EO_NONE;
    int n = d->in->nops, k = 0;
    bool has_dest = op == MB_ARRIVE || op == MB_ARRIVE_DROP || op == MB_TEST_WAIT || op == MB_TRY_WAIT || op == MB_PENDING;
    if (has_dest) {
        if (n < 2) return unsup(d, "missing operands");
        int dty = (op == MB_TEST_WAIT || op == MB_TRY_WAIT) ? TY_PRED : op == MB_PENDING ? TY_U32 : TY_B64;
        if (!op_at(d, 0, dty) || !dest_ok(d, 0)) return false;
        k = 1;
    }
    if (op != MB_PENDING) {
        if (k >= n) return unsup(d, "missing mbarrier address");
        if (!dec_addr(d->c, &d->in->ops[k], I->space, &I->o[1], &d->err)) return false;
        k++;
    }
    int vty = (op == MB_TEST_WAIT || op == MB_TRY_WAIT) && !(I->sub2 & MBF_PARITY) ? TY_B64 : op == MB_PENDING ? TY_B64 : TY_U32;
    int want_max = (op == MB_INIT || op == MB_EXPECT_TX || op == MB_COMPLETE_TX || op == MB_TEST_WAIT || op == MB_PENDING) ? 1
                   : op == MB_TRY_WAIT ? 2 : op == MB_INVAL ? 0 : 1;
    int want_min = (op == MB_ARRIVE || op == MB_ARRIVE_DROP) ? ((I->sub2 & MBF_EXPECT_TX) ? 1 : 0) : op == MB_INVAL ? 0 : 1;
    if (n - k < want_min || n - k > want_max) return unsup(d, "unexpected number of operands");
    if (k < n) {
        if (!dec_opnd(d->c, &d->in->ops[k], vty, &I->o[2], &d->err)) return false;
        k++;
    }
    /* try_wait's suspend-time hint is a hint */
    I->nops = 3;
    return true;
}

static bool dec_cp(Dec *d)
{
    EInst *I = d->I;
    Str f = d->in->full;
    if (str_eqc(f, "cp.async.commit_group") || str_starts(f, "cp.async.wait_group") || str_eqc(f, "cp.async.wait_all")) {
        I->op = EK_NOP;
        I->cls = EMU_CLS_MEM;
        return true;
    }
    if (str_starts(f, "cp.async.mbarrier.arrive")) {
        /* the copies are synchronous here: the arrive happens now */
        I->space = SP_GENERIC;
        for (int i = 0; i < d->ms.n; i++) {
            Str m = d->ms.m[i];
            int sp = space_of_mod(m);
            if (sp != SP_NONE) { I->space = (uint8_t)sp; continue; }
            if (str_eqc(m, ".noinc")) { I->sub2 |= MBF_NOINC; continue; }
            if (str_eqc(m, ".async") || str_eqc(m, ".mbarrier") || str_eqc(m, ".arrive") || str_eqc(m, ".b64") || is_hint(m)) continue;
            return unsup(d, "unsupported cp.async.mbarrier.arrive modifier");
        }
        if (d->in->nops != 1) return unsup(d, "unexpected number of operands");
        I->op = EK_MBAR;
        I->sub = MB_CP_ARRIVE;
        I->cls = EMU_CLS_MEM;
        I->t = TY_B64;
        I->o[0].kind = I->o[2].kind = EO_NONE;
        if (!dec_addr(d->c, &d->in->ops[0], I->space, &I->o[1], &d->err)) return false;
        I->nops = 3;
        return true;
    }
    if (!str_starts(f, "cp.async.ca.shared") && !str_starts(f, "cp.async.cg.shared"))
        return unsup(d, "unsupported copy instruction");
    for (int i = 0; i < d->ms.n; i++) {
        Str m = d->ms.m[i];
        if (str_eqc(m, ".async") || str_eqc(m, ".ca") || str_eqc(m, ".cg") || space_of_mod(m) != SP_NONE || is_hint(m)) continue;
        return unsup(d, "unsupported cp.async modifier");
    }
    I->op = EK_CPASYNC;
    I->cls = EMU_CLS_MEM;
    int n = d->in->nops;
    if (n < 3) return unsup(d, "missing operands");
    if (!dec_addr(d->c, &d->in->ops[0], SP_SHARED, &I->o[0], &d->err)) return false;
    if (!dec_addr(d->c, &d->in->ops[1], SP_GLOBAL, &I->o[1], &d->err)) return false;
    if (!op_at(d, 2, TY_U32)) return false;
    I->o[3].kind = EO_NONE;
    if (n >= 4) {
        /* cp-size, src-size (an integer), or a cache policy (64-bit register) */
        if (!op_at(d, 3, TY_U32)) return false;
        if (I->o[3].kind == EO_REG && I->o[3].bits == 64) I->o[3].kind = EO_NONE;
    }
    if (I->o[2].kind != EO_IMM) return unsup(d, "cp.async size must be a constant");
    I->nops = 4;
    I->cl1 = CL1(str_starts(f, "cp.async.cg") ? CL1_BYPASS : CL1_ALLOC, CPRI_NORMAL);
    I->cl2 = CPRI_NORMAL;
    return true;
}


/* createpolicy: an opaque 64-bit cache policy.  The emulator gives it the
 * encoding of internal.h (cpol_encode), with or without the cache model, so
 * that the model can read the policy back from the register that a
 * .L2::cache_hint access names.  .fractional keeps its fraction; .range is
 * kept coarsely as the fraction primary-size / total-size of the lines (its
 * address range is not recorded); .cvt passes its operand through. */
static bool dec_createpolicy(Dec *d)
{
    EInst *I = d->I;
    I->op = EK_MOV; I->cls = EMU_CLS_ALU; I->t = TY_B64;
    if (d->in->nops < 1 || !op_at(d, 0, TY_B64) || !dest_ok(d, 0)) return false;
    I->nops = 2;
    if (str_starts(d->in->full, "createpolicy.cvt")) {
        if (d->in->nops != 2) return unsup(d, "unexpected number of operands");
        return op_at(d, 1, TY_B64);
    }
    int pri[2] = { CPRI_NORMAL, CPRI_UNCHANGED }, npri = 0;
    for (int i = 0; i < d->ms.n; i++) {
        int pr = cpri_of(d->ms.m[i], ".L2::");
        if (pr >= 0 && npri < 2) pri[npri++] = pr;
    }
    uint32_t frac = 256;
    const Operand *o = d->in->nops >= 2 ? &d->in->ops[1] : NULL;
    if (str_starts(d->in->full, "createpolicy.fractional") && o && o->kind == OPND_FLOAT) {
        double f = f32_of((uint32_t)imm_for_type(o, TY_F32));
        frac = f >= 1.0 ? 256 : f <= 0.0 ? 0 : (uint32_t)(f * 256.0 + 0.5);
    } else if (str_starts(d->in->full, "createpolicy.range") && d->in->nops == 4 && d->in->ops[2].kind == OPND_INT &&
               d->in->ops[3].kind == OPND_INT) {
        double a = (double)imm_for_type(&d->in->ops[2], TY_U32), b = (double)imm_for_type(&d->in->ops[3], TY_U32);
        frac = b <= 0 || a >= b ? 256 : (uint32_t)(a / b * 256.0 + 0.5);
    }
    I->o[1].kind = EO_IMM;
    I->o[1].imm = (int64_t)cpol_encode(pri[0], pri[1], frac);
    return true;
}

static bool dec_bra(Dec *d)
{
    EInst *I = d->I;
    for (int i = 0; i < d->ms.n; i++) {
        if (str_eqc(d->ms.m[i], ".uni")) I->flags |= F_UNI;
        else return unsup(d, "unsupported branch modifier");
    }
    if (!ops_n(d, 1)) return false;
    if (!op_at(d, 0, TY_NONE)) return false;
    if (I->o[0].kind != EO_LABEL || I->o[0].ab) return unsup(d, "branch target is not a label");
    I->op = EK_BRA;
    I->flow = FL_BRANCH;
    I->cls = EMU_CLS_BRANCH;
    I->aux = (uint32_t)I->o[0].imm;
    I->nops = 1;
    return true;
}

static bool dec_brx(Dec *d)
{
    EInst *I = d->I;
    bool idx = false;
    for (int i = 0; i < d->ms.n; i++) {
        if (str_eqc(d->ms.m[i], ".uni")) I->flags |= F_UNI;
        else if (str_eqc(d->ms.m[i], ".idx")) idx = true;
        else return unsup(d, "unsupported brx modifier");
    }
    if (!idx || !ops_n(d, 2)) return unsup(d, "unsupported brx form");
    if (!op_at(d, 0, TY_U32) || !op_at(d, 1, TY_NONE)) return false;
    if (I->o[1].kind != EO_LABEL || !I->o[1].ab) return unsup(d, "brx.idx target list is not a .branchtargets label");
    I->op = EK_BRX;
    I->flow = FL_BRX;
    I->cls = EMU_CLS_BRANCH;
    I->aux = (uint32_t)I->o[1].imm;    /* index into p->tabs */
    I->nops = 2;
    return true;
}

static bool dec_call(Dec *d)
{
    EInst *I = d->I;
    for (int i = 0; i < d->ms.n; i++)
        if (!str_eqc(d->ms.m[i], ".uni")) return unsup(d, "unsupported call modifier");
    int n = d->in->nops, k = 0;
    I->o[0].kind = EO_NONE;     /* returns */
    I->o[2].kind = EO_NONE;     /* arguments */
    if (k < n && d->in->ops[k].kind == OPND_LIST) {
        if (!op_at(d, k, TY_NONE)) return false;
        I->o[0] = I->o[k];
        k++;
    }
    if (k >= n) return unsup(d, "call without a target");
    EOp tgt;
    if (!dec_opnd(d->c, &d->in->ops[k], TY_U64, &tgt, &d->err)) return false;
    k++;
    if (tgt.kind == EO_FUNC) { I->aux = tgt.reg; I->o[1] = tgt; }
    else if (tgt.kind == EO_REG) { I->aux = NO_PC; I->o[1] = tgt; }
    else return unsup(d, "call target");
    if (k < n && d->in->ops[k].kind == OPND_LIST) {
        EOp args;
        if (!dec_opnd(d->c, &d->in->ops[k], TY_NONE, &args, &d->err)) return false;
        I->o[2] = args;
        k++;
    }
    /* a trailing prototype or .calltargets name is not needed */
    I->op = EK_CALL;
    I->flow = FL_CALL;
    I->cls = EMU_CLS_BRANCH;
    I->nops = 3;
    return true;
}

static bool dec_bar(Dec *d)
{
    EInst *I = d->I;
    Str f = d->in->full;
    if (str_eqc(f, "bar.warp.sync")) {
        if (!ops_n(d, 1) || !op_at(d, 0, TY_U32)) return false;
        I->op = EK_BARWARP;
        I->flow = FL_COLL;
        I->cls = EMU_CLS_BARRIER;
        I->nops = 1;
        return true;
    }
    bool is_barrier = d->in->op == OP_barrier;
    I->aligned = !is_barrier;            /* bar.* is barrier.*.aligned */
    int mode = -1;
    for (int i = 0; i < d->ms.n; i++) {
        Str m = d->ms.m[i];
        if (str_eqc(m, ".cta")) continue;
        if (str_eqc(m, ".aligned")) { I->aligned = 1; continue; }
        if (str_eqc(m, ".sync")) { mode = BAR_SYNC; continue; }
        if (str_eqc(m, ".arrive")) { mode = BAR_ARRIVE; continue; }
        if (str_eqc(m, ".red")) { mode = BAR_RED_POPC; continue; }
        if (str_eqc(m, ".popc")) { mode = BAR_RED_POPC; continue; }
        if (str_eqc(m, ".and")) { mode = BAR_RED_AND; continue; }
        if (str_eqc(m, ".or")) { mode = BAR_RED_OR; continue; }
        if (str_eqc(m, ".u32") || str_eqc(m, ".pred")) continue;
        return unsup(d, "unsupported barrier form");
    }
    if (mode < 0) return unsup(d, "unsupported barrier form");
    I->op = EK_BAR;
    I->sub = (uint8_t)mode;
    I->flow = FL_BAR;
    I->cls = EMU_CLS_BARRIER;
    int n = d->in->nops;
    if (mode == BAR_SYNC || mode == BAR_ARRIVE) {
        if (n < 1 || n > 2 || (mode == BAR_ARRIVE && n != 2)) return unsup(d, "unexpected number of operands");
        if (!op_at(d, 0, TY_U32)) return false;
        I->o[1].kind = EO_NONE;
        if (n == 2 && !op_at(d, 1, TY_U32)) return false;
        I->o[2].kind = EO_NONE;
        I->o[3].kind = EO_NONE;
    } else {
        /* bar.red.op d, a{, b}, {!}c  ->  o[3]=d, o[0]=a, o[1]=b, o[2]=c */
        if (n != 3 && n != 4) return unsup(d, "unexpected number of operands");
        if (!dec_opnd(d->c, &d->in->ops[0], mode == BAR_RED_POPC ? TY_U32 : TY_PRED, &I->o[3], &d->err)) return false;
        if (!dec_opnd(d->c, &d->in->ops[1], TY_U32, &I->o[0], &d->err)) return false;
        I->o[1].kind = EO_NONE;
        if (n == 4 && !dec_opnd(d->c, &d->in->ops[2], TY_U32, &I->o[1], &d->err)) return false;
        if (!dec_opnd(d->c, &d->in->ops[n - 1], TY_PRED, &I->o[2], &d->err)) return false;
        if (I->o[3].kind != EO_REG) return unsup(d, "destination is not a register");
    }
    I->nops = 4;
    return true;
}

static bool dec_coll(Dec *d)
{
    EInst *I = d->I;
    int op = d->in->op;
    bool sync = false;
    I->flow = FL_COLL;
    I->cls = EMU_CLS_SHUFFLE;
    for (int i = 0; i < d->ms.n; i++) {
        Str m = d->ms.m[i];
        if (str_eqc(m, ".sync")) { sync = true; continue; }
        if (ty_from_mod(m)) { I->t = (uint8_t)ty_from_mod(m); continue; }
        if (op == OP_shfl) {
            static const char *const md[] = { ".up", ".down", ".bfly", ".idx" };
            bool hit = false;
            for (int k = 0; k < 4; k++) if (str_eqc(m, md[k])) { I->sub = (uint8_t)k; hit = true; }
            if (hit) continue;
        } else if (op == OP_vote) {
            static const char *const md[] = { ".all", ".any", ".uni", ".ballot" };
            bool hit = false;
            for (int k = 0; k < 4; k++) if (str_eqc(m, md[k])) { I->sub = (uint8_t)k; hit = true; }
            if (hit) continue;
        } else if (op == OP_match) {
            if (str_eqc(m, ".any")) { I->sub = 0; continue; }
            if (str_eqc(m, ".all")) { I->sub = 1; continue; }
        } else if (op == OP_redux) {
            static const char *const md[] = { ".add", ".min", ".max", ".and", ".or", ".xor" };
            bool hit = false;
            for (int k = 0; k < 6; k++) if (str_eqc(m, md[k])) { I->sub = (uint8_t)k; hit = true; }
            if (hit) continue;
        }
        return unsup(d, "unsupported collective modifier");
    }
    if (!sync) return unsup(d, "legacy (non-.sync) warp collective");
    const Operand *dst = &d->in->ops[0];
    if (d->in->nops < 2) return unsup(d, "missing operands");
    int dty = op == OP_vote && I->sub != VOTE_BALLOT ? TY_PRED : (op == OP_match ? TY_B32 : I->t);
    if (op == OP_elect) dty = TY_U32;
    if (dst->kind == OPND_PAIR) {
        if (!dec_opnd(d->c, &dst->u.elems[0], dty, &I->o[0], &d->err)) return false;
        if (!dec_opnd(d->c, &dst->u.elems[1], TY_PRED, &I->o[5], &d->err)) return false;
    } else {
        if (!op_at(d, 0, dty)) return false;
        I->o[5].kind = EO_NONE;
    }
    if (!dest_ok(d, 0)) return false;
    if (I->o[5].kind != EO_NONE && I->o[5].kind != EO_REG && I->o[5].kind != EO_SINK) return unsup(d, "bad predicate destination");
    int n = d->in->nops;
    switch (op) {
    case OP_shfl:
        I->op = EK_SHFL;
        if (I->t != TY_B32 || n != 5) return unsup(d, "unsupported shfl form");
        for (int k = 1; k < 5; k++) if (!op_at(d, k, TY_B32)) return false;
        break;
    case OP_vote:
        I->op = EK_VOTE;
        if (n != 3) return unsup(d, "unsupported vote form");
        if (!op_at(d, 1, TY_PRED) || !op_at(d, 2, TY_B32)) return false;
        break;
    case OP_match:
        I->op = EK_MATCH;
        if (n != 3 || (I->t != TY_B32 && I->t != TY_B64)) return unsup(d, "unsupported match form");
        if (!op_at(d, 1, I->t) || !op_at(d, 2, TY_B32)) return false;
        I->t2 = I->t;
        I->t = TY_B32;
        break;
    case OP_redux:
        I->op = EK_REDUX;
        if (n != 3 || (I->t != TY_U32 && I->t != TY_S32 && I->t != TY_B32)) return unsup(d, "unsupported redux form");
        if (!op_at(d, 1, I->t) || !op_at(d, 2, TY_B32)) return false;
        break;
    case OP_elect:
        I->op = EK_ELECT;
        if (n != 2) return unsup(d, "unsupported elect form");
        if (!op_at(d, 1, TY_B32)) return false;
        I->o[1] = I->o[1];
        break;
    default:
        return unsup(d, "unsupported collective");
    }
    I->nops = (uint8_t)n;
    return true;
}

/* Decodes one instruction statement into I. */
static void decode_instr(FnCtx *c, const Stmt *s, EInst *I)
{
    Dec d;
    memset(&d, 0, sizeof d);
    d.c = c;
    d.in = &s->u.instr;
    d.I = I;
    I->stmt = s;
    I->fn = c->fi;
    I->cls = EMU_CLS_OTHER;
    split_mods(d.in, &d.ms);
    if (d.in->guard) {
        if (d.in->guard->special || d.in->guard->cls != RC_PRED) { I->op = EK_UNSUP; I->unsup = "guard is not a predicate"; return; }
        I->guard = (int32_t)reg_id(c, d.in->guard);
        I->guard_neg = d.in->guard_neg;
    }
    bool ok = true;
    switch (d.in->op) {
    case OP_add: case OP_sub: case OP_mul: case OP_mad: case OP_mul24: case OP_mad24: case OP_sad: case OP_div:
    case OP_rem: case OP_abs: case OP_neg: case OP_min: case OP_max: case OP_popc: case OP_clz: case OP_bfind:
    case OP_fns: case OP_brev: case OP_bfe: case OP_bfi: case OP_szext: case OP_bmsk: case OP_dp4a: case OP_dp2a:
    case OP_addc: case OP_subc: case OP_madc: case OP_and: case OP_or: case OP_xor: case OP_not: case OP_cnot:
    case OP_lop3: case OP_shf: case OP_shl: case OP_shr: case OP_prmt: case OP_fma: case OP_rcp: case OP_sqrt:
    case OP_rsqrt: case OP_sin: case OP_cos: case OP_lg2: case OP_ex2: case OP_tanh: case OP_copysign:
        ok = dec_arith(&d);
        break;
    case OP_testp: ok = dec_testp(&d); break;
    case OP_setp: ok = dec_setp(&d, false); break;
    case OP_set: ok = dec_setp(&d, true); break;
    case OP_selp: ok = dec_selp(&d, false); break;
    case OP_slct: ok = dec_selp(&d, true); break;
    case OP_mov: ok = dec_mov(&d); break;
    case OP_cvt: ok = dec_cvt(&d); break;
    case OP_cvta: ok = dec_cvta(&d, false); break;
    case OP_isspacep: ok = dec_cvta(&d, true); break;
    case OP_ld: case OP_ldu: ok = dec_ldst(&d, false); break;
    case OP_st: ok = dec_ldst(&d, true); break;
    case OP_atom: ok = dec_atom(&d, false); break;
    case OP_red: ok = dec_atom(&d, true); break;
    case OP_cp: ok = dec_cp(&d); break;
    case OP_bra: ok = dec_bra(&d); break;
    case OP_brx: ok = dec_brx(&d); break;
    case OP_call: ok = dec_call(&d); break;
    case OP_ret:
        I->op = EK_RET; I->flow = FL_RET; I->cls = EMU_CLS_BRANCH;
        break;
    case OP_exit:
        I->op = EK_EXIT; I->flow = FL_EXIT; I->cls = EMU_CLS_BRANCH;
        break;
    case OP_trap: case OP_brkpt:
        I->op = EK_TRAP; I->flow = FL_TRAP; I->cls = EMU_CLS_OTHER;
        break;
    case OP_bar: case OP_barrier:
        if (str_starts(d.in->full, "barrier.cluster")) { ok = unsup(&d, "cluster barriers"); break; }
        ok = dec_bar(&d);
        break;
    case OP_shfl: case OP_vote: case OP_match: case OP_redux: case OP_elect:
        ok = dec_coll(&d);
        break;
    case OP_activemask:
        I->op = EK_ACTIVEMASK; I->cls = EMU_CLS_ALU;
        ok = ops_n(&d, 1) && op_at(&d, 0, TY_B32) && dest_ok(&d, 0);
        I->nops = 1;
        break;
    case OP_membar: case OP_fence:
        /* fences order memory: no-ops in SC mode (every interleaving is
         * sequentially consistent); the weak mode (weak.c) reads msem.
         * membar.{cta,gl,sys} is fence.sc.{cta,gpu,sys}; fence.acq_rel
         * is the default order; any other fence (proxy, mbarrier_init,
         * op_restrict) counts as fence.sc.gpu, the most it could order. */
        if (str_starts(d.in->full, "fence.proxy.tensormap")) { ok = unsup(&d, "unsupported fence"); break; }
        I->op = EK_FENCE; I->cls = EMU_CLS_BARRIER;
        {
            Str f = d.in->full;
            int sem = d.in->op == OP_membar ? MS_SC : MS_ACQREL, scope = WS_GPU;
            bool other = false;
            for (int i = 0; i < d.ms.n; i++) {
                Str m = d.ms.m[i];
                if (str_eqc(m, ".sc")) sem = MS_SC;
                else if (str_eqc(m, ".acq_rel")) sem = MS_ACQREL;
                else if (str_eqc(m, ".cta")) scope = WS_CTA;
                else if (str_eqc(m, ".gl") || str_eqc(m, ".gpu") || str_eqc(m, ".sys") || str_eqc(m, ".cluster")) scope = WS_GPU;
                else other = true;
            }
            (void)f;
            if (other) { sem = MS_SC; scope = WS_GPU; }
            I->msem = MSEM(sem, scope);
        }
        break;
    case OP_mbarrier:
        ok = dec_mbar(&d);
        break;
    case OP_nanosleep:
        I->op = EK_NANOSLEEP; I->flow = FL_YIELD; I->cls = EMU_CLS_OTHER;
        break;
    case OP_prefetch: case OP_prefetchu: case OP_applypriority: case OP_pmevent: case OP_griddepcontrol:
    case OP_setmaxnreg: case OP_discard:
        I->op = EK_NOP;
        break;
    case OP_createpolicy:
        ok = dec_createpolicy(&d);
        break;
    default:
        ok = unsup(&d, "unsupported instruction");
        break;
    }
    if (!ok) {
        I->op = EK_UNSUP;
        I->flow = FL_UNSUP;
        I->unsup = d.err.msg ? d.err.msg : "unsupported instruction";
    }
}

/* --------------------------------------------------------------- functions */

static void add_param(FnCtx *c, const Decl *dl, EParam *out, bool as_kparam, uint32_t *kp_off)
{
    EFunc *ef = c->ef;
    Str sp = dl->space;
    uint32_t size = (uint32_t)decl_var_size(dl, 0);
    uint32_t al = decl_align(dl);
    if (dl->ndecl == 0) return;
    Str name = dl->decls[0].name;
    if (str_starts(sp, ".reg")) {
        int t = ty_from_mod(dl->type);
        uint32_t id = new_extra_reg(c, (uint8_t)(t == TY_PRED ? 1 : ty_bits(t)));
        Sym s = { name, 0, SYM_REGPARAM, id, (uint32_t)(t == TY_PRED ? 1 : ty_bits(t)), NULL, -1 };
        add_sym(c, s);
        if (out) { out->isreg = true; out->reg = id; out->size = size; out->bits = (uint8_t)s.size; }
        return;
    }
    if (as_kparam) {
        *kp_off = align_up32(*kp_off, al);
        Sym s = { name, 0, SYM_KPARAM, *kp_off, size, NULL, -1 };
        add_sym(c, s);
        *kp_off += size;
        return;
    }
    ef->fparam_size = align_up32(ef->fparam_size, al);
    Sym s = { name, 0, SYM_FPARAM, ef->fparam_size, size, NULL, -1 };
    add_sym(c, s);
    if (out) { out->isreg = false; out->off = ef->fparam_size; out->size = size; }
    ef->fparam_size += size;
}

static bool is_instruction_verbatim(const Stmt *s)
{
    if (s->kind != STMT_VERBATIM || s->u.dir.ntok == 0) return false;
    Str t = s->u.dir.tok[0].text;
    return t.len > 0 && t.p[0] != '.';
}

/* Pass 1: symbols and frame layout. */
static void collect(FnCtx *c)
{
    EFunc *ef = c->ef;
    Function *fn = c->fn;
    uint32_t pc = ef->pc0;
    int64_t last_label = -1;
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b) {
            switch (s->kind) {
            case STMT_SCOPE_OPEN: open_scope(c); last_label = -1; break;
            case STMT_SCOPE_CLOSE: c->scope = c->parent[c->scope]; last_label = -1; break;
            case STMT_LABEL: {
                Sym sy = { s->u.label, c->scope, SYM_LABEL, pc, 0, NULL, -1 };
                add_sym(c, sy);
                last_label = (int64_t)c->nsyms - 1;
                break;
            }
            case STMT_DIRECTIVE:
                if (s->dirkind == DIR_BRANCHTARGETS && last_label >= 0) {
                    c->syms[last_label].kind = SYM_BTAB;
                    c->syms[last_label].dir = s;
                }
                break;
            case STMT_DECL: {
                const Decl *dl = s->u.decl;
                Str sp = dl->space;
                if (str_starts(sp, ".param")) {
                    for (uint32_t k = 0; k < dl->ndecl; k++) {
                        uint32_t size = (uint32_t)decl_var_size(dl, k);
                        ef->fparam_size = align_up32(ef->fparam_size, decl_align(dl));
                        Sym sy = { dl->decls[k].name, c->scope, SYM_FPARAM, ef->fparam_size, size, NULL, -1 };
                        add_sym(c, sy);
                        ef->fparam_size += size;
                    }
                } else if (str_starts(sp, ".local")) {
                    for (uint32_t k = 0; k < dl->ndecl; k++) {
                        uint32_t al = decl_align(dl);
                        if (al > ef->local_align) ef->local_align = al;
                        ef->local_size = align_up32(ef->local_size, al);
                        Sym sy = { dl->decls[k].name, c->scope, SYM_FLOCAL, ef->local_size, 0, NULL, -1 };
                        add_sym(c, sy);
                        ef->local_size += (uint32_t)decl_var_size(dl, k);
                    }
                } else if (str_starts(sp, ".shared") || str_starts(sp, ".global") || str_starts(sp, ".const")) {
                    for (uint32_t k = 0; k < dl->ndecl; k++) {
                        Sym sy = { dl->decls[k].name, c->scope, SYM_VAR, c->next_body_var++, 0, NULL, -1 };
                        add_sym(c, sy);
                    }
                }
                last_label = -1;
                break;
            }
            case STMT_INSTR: pc++; last_label = -1; break;
            case STMT_VERBATIM: if (is_instruction_verbatim(s)) pc++; last_label = -1; break;
            default: break;
            }
        }
    ef->local_size = align_up32(ef->local_size, 16);
    ef->fparam_size = align_up32(ef->fparam_size, 16);
}

/* Resolves the label lists of .branchtargets into tables. */
static void build_tables(FnCtx *c)
{
    EmuProgram *p = c->p;
    for (uint32_t i = 0; i < c->nsyms; i++) {
        Sym *s = &c->syms[i];
        if (s->kind != SYM_BTAB) continue;
        const Stmt *dir = s->dir;
        uint32_t n = 0;
        for (uint32_t k = 1; k < dir->u.dir.ntok; k++) if (dir->u.dir.tok[k].kind == TOKK_WORD) n++;
        if (p->ntabs + n + 1 > p->captabs) {
            while (p->ntabs + n + 1 > p->captabs) p->captabs = p->captabs ? p->captabs * 2 : 64;
            p->tabs = realloc(p->tabs, sizeof(uint32_t) * p->captabs);
        }
        uint32_t at = p->ntabs;
        p->tabs[at] = n;
        uint32_t j = 1;
        uint32_t saved = c->scope;
        c->scope = s->scope;
        for (uint32_t k = 1; k < dir->u.dir.ntok; k++) {
            if (dir->u.dir.tok[k].kind != TOKK_WORD) continue;
            const Sym *t = find_sym(c, dir->u.dir.tok[k].text);
            p->tabs[at + j++] = (t && t->kind == SYM_LABEL) ? t->val : NO_PC;
        }
        c->scope = saved;
        p->ntabs += n + 1;
        s->val = at;
    }
}

static void shadow_reg(FnCtx *c, Reg *r)
{
    if (c->nshadow == c->capshadow) {
        c->capshadow = c->capshadow ? c->capshadow * 2 : 16;
        c->shadow = realloc(c->shadow, sizeof *c->shadow * c->capshadow);
    }
    c->shadow[c->nshadow++] = (struct ScopedReg){ c->scope, r->id, c->remap[r->id] };
    c->remap[r->id] = new_extra_reg(c, (uint8_t)reg_bits(r));
}

/* A .reg declaration inside a nested scope: fresh registers for its names. */
static void scope_regs(FnCtx *c, const Decl *dl)
{
    Function *fn = c->fn;
    for (uint32_t k = 0; k < dl->ndecl; k++) {
        Str name = dl->decls[k].name;
        if (dl->decls[k].range < 0) {
            /* only registers the body uses have a Reg; do not create any */
            for (uint32_t i = 0; i < fn->nregs; i++)
                if (!fn->regs[i]->special && str_eq(fn->regs[i]->name, name)) { shadow_reg(c, fn->regs[i]); break; }
            continue;
        }
        for (uint32_t i = 0; i < fn->nregs; i++) {
            Reg *r = fn->regs[i];
            if (r->name.len <= name.len || memcmp(r->name.p, name.p, name.len) != 0) continue;
            uint32_t v = 0;
            bool digits = true;
            for (size_t j = name.len; j < r->name.len; j++) {
                if (r->name.p[j] < '0' || r->name.p[j] > '9') { digits = false; break; }
                v = v * 10 + (uint32_t)(r->name.p[j] - '0');
            }
            if (digits && v < (uint32_t)dl->decls[k].range) shadow_reg(c, r);
        }
    }
}

/* Pass 2: instructions. */
static void decode_body(FnCtx *c)
{
    Function *fn = c->fn;
    c->scope = 0;
    uint32_t next_scope = 1;
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b) {
            if (s->kind == STMT_SCOPE_OPEN) { c->scope = next_scope++; continue; }
            if (s->kind == STMT_SCOPE_CLOSE) {
                while (c->nshadow && c->shadow[c->nshadow - 1].scope == c->scope) {
                    c->nshadow--;
                    c->remap[c->shadow[c->nshadow].id] = c->shadow[c->nshadow].old;
                }
                c->scope = c->parent[c->scope];
                continue;
            }
            if (s->kind == STMT_DECL && c->scope != 0 && str_eqc(s->u.decl->space, ".reg")) {
                scope_regs(c, s->u.decl);
                continue;
            }
            if (s->kind == STMT_INSTR) {
                EInst *I = new_inst(c->p);
                decode_instr(c, s, I);
            } else if (is_instruction_verbatim(s)) {
                EInst *I = new_inst(c->p);
                I->stmt = s;
                I->fn = c->fi;
                I->op = EK_UNSUP;
                I->flow = FL_UNSUP;
                I->unsup = "unrecognised instruction";
            }
        }
}

static uint32_t count_module_vars(const EmuProgram *p)
{
    uint32_t n = 0;
    for (Stmt *s = p->m->first; s; s = s->next) {
        if (s->kind != STMT_DECL) continue;
        Str sp = s->u.decl->space;
        if (str_starts(sp, ".global") || str_starts(sp, ".const") || str_starts(sp, ".shared") || str_starts(sp, ".local"))
            n += s->u.decl->ndecl;
    }
    return n;
}

bool emu_decode(EmuProgram *p)
{
    Module *m = p->m;
    p->nfuncs = m->nfuncs;
    p->funcs = arena_alloc(&p->arena, sizeof(EFunc) * (m->nfuncs ? m->nfuncs : 1));
    uint32_t next_body_var = count_module_vars(p);
    uint32_t reg_base = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        Function *fn = m->funcs[fi];
        EFunc *ef = &p->funcs[fi];
        ef->f = fn;
        ef->name = arena_strndup(&p->arena, fn->name.p, fn->name.len);
        ef->entry = fn->is_entry;
        ef->has_body = fn->has_body;
        ef->pc0 = p->ncode;
        ef->local_align = 16;
        FnCtx c;
        memset(&c, 0, sizeof c);
        c.p = p;
        c.fi = fi;
        c.ef = ef;
        c.fn = fn;
        c.next_body_var = next_body_var;
        open_scope(&c);                    /* scope 0: the function */
        c.parent[0] = 0;
        /* parameters */
        ef->nparams = fn->nparam;
        ef->nrets = fn->nret;
        ef->params = arena_alloc(&p->arena, sizeof(EParam) * (fn->nparam + 1));
        ef->rets = arena_alloc(&p->arena, sizeof(EParam) * (fn->nret + 1));
        if (fn->is_entry) {
            ef->kparam_off = arena_alloc(&p->arena, sizeof(uint32_t) * (fn->nparam + 1));
            ef->kparam_size_of = arena_alloc(&p->arena, sizeof(uint32_t) * (fn->nparam + 1));
            uint32_t off = 0;
            for (uint32_t k = 0; k < fn->nparam; k++) {
                const Decl *dl = fn->params[k];
                uint32_t al = decl_align(dl);
                off = align_up32(off, al);
                ef->kparam_off[k] = off;
                ef->kparam_size_of[k] = (uint32_t)decl_var_size(dl, 0);
                uint32_t o2 = off;
                add_param(&c, dl, NULL, true, &o2);
                off = o2;
            }
            ef->kparam_size = align_up32(off, 8);
        } else {
            for (uint32_t k = 0; k < fn->nret; k++) add_param(&c, fn->ret[k], &ef->rets[k], false, NULL);
            for (uint32_t k = 0; k < fn->nparam; k++) add_param(&c, fn->params[k], &ef->params[k], false, NULL);
        }
        c.remap = malloc(sizeof(uint32_t) * (fn->nregs + 1));
        for (uint32_t r = 0; r < fn->nregs; r++) c.remap[r] = r;
        if (fn->has_body) {
            collect(&c);
            build_tables(&c);
            /* labels of BTAB symbols now hold table indices; scopes restart for pass 2 */
            decode_body(&c);
            /* falling off the end of a body returns (and never runs into the
             * next function's code) */
            EInst *I = new_inst(p);
            I->op = EK_RET;
            I->flow = FL_RET;
            I->cls = EMU_CLS_BRANCH;
            I->fn = fi;
            I->stmt = NULL;
        }
        next_body_var = c.next_body_var;
        ef->pcn = p->ncode;
        ef->nregs = fn->nregs + c.extra_regs;
        ef->regbits = arena_alloc(&p->arena, ef->nregs + 1);
        for (uint32_t r = 0; r < fn->nregs; r++) ef->regbits[r] = (uint8_t)reg_bits(fn->regs[r]);
        for (uint32_t i = 0; i < c.extra_regs; i++) ef->regbits[fn->nregs + i] = c.extra_bits[i];
        ef->uninit0 = reg_base;
        reg_base += ef->nregs;
        free(c.syms);
        free(c.bucket);
        free(c.parent);
        free(c.remap);
        free(c.shadow);
        free(c.extra_bits);
    }
    p->nregs_total = reg_base;
    return true;
}

/* ------------------------------------------------------------- messages */

uint32_t emu_inst_line(const EInst *I) { return I && I->stmt ? I->stmt->line : 0; }

char *emu_inst_text(const EmuProgram *p, const EInst *I, char *buf, size_t cap)
{
    (void)p;
    if (I && !I->stmt && I->op == EK_RET) { snprintf(buf, cap, "(end of %s)", p->funcs[I->fn].name); return buf; }
    if (!I || !I->stmt || !I->stmt->src) { snprintf(buf, cap, "?"); return buf; }
    const char *s = I->stmt->src + I->stmt->lead_len;
    size_t n = I->stmt->src_len - I->stmt->lead_len;
    size_t k = 0;
    bool space = false;
    for (size_t i = 0; i < n && k + 2 < cap; i++) {
        char ch = s[i];
        if (ch == '\n' || ch == '\t' || ch == '\r' || ch == ' ') { space = true; continue; }
        if (space && k > 0) buf[k++] = ' ';
        space = false;
        buf[k++] = ch;
    }
    buf[k] = 0;
    return buf;
}

int emu_func_of_reg(const EmuProgram *p, uint32_t global_reg, uint32_t *reg)
{
    for (uint32_t f = 0; f < p->nfuncs; f++) {
        const EFunc *ef = &p->funcs[f];
        if (global_reg >= ef->uninit0 && global_reg < ef->uninit0 + ef->nregs) {
            *reg = global_reg - ef->uninit0;
            return (int)f;
        }
    }
    return -1;
}

const char *emu_reg_name(const EmuProgram *p, uint32_t fn, uint32_t reg, char *buf, size_t cap)
{
    const Function *f = p->funcs[fn].f;
    if (reg < f->nregs) snprintf(buf, cap, "%.*s", STR_FMT(f->regs[reg]->name));
    else snprintf(buf, cap, "parameter register #%u", reg - f->nregs);
    return buf;
}

int emu_program_list_unsupported(const EmuProgram *p, FILE *out)
{
    int n = 0;
    char text[240];
    for (uint32_t pc = 0; pc < p->ncode; pc++) {
        const EInst *I = &p->code[pc];
        if (I->op != EK_UNSUP) continue;
        n++;
        if (out)
            fprintf(out, "%s:%u: unsupported instruction '%s' (%s) in %s\n", p->m->filename, emu_inst_line(I),
                    emu_inst_text(p, I, text, sizeof text), I->unsup ? I->unsup : "?", p->funcs[I->fn].name);
    }
    return n;
}
