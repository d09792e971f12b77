/* fplib.c — the fingerprint library, parsed (research §2.4, checklist S2).
 *
 * No pattern here is written by hand: fingerprints/gen.py cuts the region
 * nvcc inlines for each function out of one-line kernels, normalises it
 * (registers by role: %i inputs, %x depot addresses defined before it, %v
 * defined in it; labels $L0.., the exit $LX; "--" starts a part nvcc laid
 * out elsewhere) and writes one data file per toolkit, compiled in.  Each
 * fingerprint becomes a small PTX function of its own here,
 *
 *     .entry __ptxopt_fp() { .reg <type> %i0; ...  <lines>  $LX: ret;  <parts elsewhere> }
 *
 * parsed by the ordinary parser, so that match.c can ask the ordinary
 * analyses (CFG, SSA, dominators, loops) about it: its output is the value
 * of the output role reaching the `ret`, its inputs and depot addresses are
 * the entry values of their registers, the memory at the region's entry the
 * entry value of memory.  powf's constant-exponent fingerprints write each
 * immediate that is a multiple of the constant as #P*F; that becomes a NaN
 * immediate with a reserved payload (no real code has it) that names F.
 *
 * Signatures (the "resembles ... not recognised" remarks): in each
 * fingerprint, the last instruction with an immediate of its own (not a
 * common value: 0, 1, 0.5, 2^23, infinity, ...; not in another function's
 * fingerprints) that also reads a value computed from the input: nvcc
 * cannot share it between two calls, so a user instruction spelled the
 * same with that immediate is one call of the function. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/sfu/internal.h"
#include "analysis/ssa.h"
#include "parser/parse.h"

#include "opt/sfu/fingerprints/cuda13.0.c"

static const struct {
    const char *toolkit;
    const SfuFingerprint *v;
    int n;
} libraries[] = {
    { "13.0", fingerprints_cuda13_0, (int)(sizeof fingerprints_cuda13_0 / sizeof fingerprints_cuda13_0[0]) },
};
enum { NLIBS = (int)(sizeof libraries / sizeof libraries[0]) };

int sfu_fingerprint_count(void)
{
    int n = 0;
    for (int i = 0; i < NLIBS; i++) n += libraries[i].n;
    return n;
}

static int lib_of(int *i)
{
    int l = 0;
    while (l < NLIBS && *i >= libraries[l].n) *i -= libraries[l++].n;
    return l;
}

const SfuFingerprint *sfu_fingerprint_at(int i)
{
    int l = lib_of(&i);
    return l < NLIBS ? &libraries[l].v[i] : NULL;
}

const char *sfu_fingerprint_toolkit(int i)
{
    int l = lib_of(&i);
    return l < NLIBS ? libraries[l].toolkit : "?";
}

/* ------------------------------------------------------------ parsing */

#define PARAM_BASE 0x7FA5A500u   /* NaN payloads standing for #P*F */
#define MAX_FACTORS 8
#define MAX_ANCHORS 16

struct FpLib {
    const SfuFingerprint *src;
    Module *m;
    Function *fn;
    int ninstr;
    double factors[MAX_FACTORS];
    int nfactors;
    uint64_t imms[64];          /* float immediates of the fingerprint */
    int nimms;
    uint64_t anchors[MAX_ANCHORS];
    int nanchors;
    /* the signature instruction */
    Str sig_full;
    int sig_nops, sig_opnd;
    uint64_t sig_bits;
};

static FpLib **lib;
static int nlib = -1;

static const char *type_name(char t)
{
    switch (t) {
    case 'f': return ".f32";
    case 'd': return ".f64";
    case 'r': return ".b32";
    case 'l': case 'D': return ".b64";
    case 'h': return ".b16";
    case 'p': return ".pred";
    default: return NULL;
    }
}

typedef struct Text {
    char *p;
    size_t n, cap;
} Text;

static void put(Text *t, const char *s, size_t n)
{
    if (t->n + n + 2 > t->cap) {
        t->cap = (t->n + n + 2) * 2;
        t->p = realloc(t->p, t->cap);
        if (!t->p) abort();
    }
    memcpy(t->p + t->n, s, n);
    t->n += n;
}

static void puts_(Text *t, const char *s) { put(t, s, strlen(s)); }

/* One line with its #P*F placeholders replaced. */
static bool put_line(Text *t, FpLib *l, const char *line)
{
    if (!strncmp(line, ".pragma '", 9)) {   /* gen.py writes the pragma's quotes as ' */
        for (const char *p = line; *p; p++) put(t, *p == '\'' ? "\"" : p, 1);
        return true;
    }
    for (const char *p = line; *p;) {
        const char *h = strstr(p, "#P*");
        if (!h) {
            puts_(t, p);
            break;
        }
        put(t, p, (size_t)(h - p));
        char *end;
        double f = strtod(h + 3, &end);
        int k = 0;
        while (k < l->nfactors && l->factors[k] != f) k++;
        if (k == l->nfactors) {
            if (k == MAX_FACTORS) return false;
            l->factors[l->nfactors++] = f;
        }
        char buf[16];
        snprintf(buf, sizeof buf, "0f%08X", PARAM_BASE + (unsigned)k);
        puts_(t, buf);
        p = end;
    }
    return true;
}

static bool common_value(uint64_t b)
{
    static const uint32_t common[] = { 0x00000000u, 0x80000000u, 0x3F800000u, 0xBF800000u, 0x3F000000u, 0xBF000000u,
                                       0x40000000u, 0xC0000000u, 0x40400000u, 0x7F800000u, 0xFF800000u, 0x7FFFFFFFu,
                                       0x00800000u, 0x4B000000u, 0x4B800000u, 0x34000000u, 0x3F317218u, 0x3FB8AA3Bu };
    for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
        if (b == common[i]) return true;
    return (b >> 8) == (PARAM_BASE >> 8);
}

static FpLib *parse_one(const SfuFingerprint *f)
{
    FpLib *l = calloc(1, sizeof *l);
    if (!l) abort();
    l->src = f;
    int nroles = f->nin + f->nx + f->nv;
    if (!f->types || (int)strlen(f->types) != nroles) return l;
    Text t = { 0 };
    puts_(&t, ".version 8.0\n.target sm_90\n.address_size 64\n");
    /* the module variables a region names (the reduction tables) */
    bool seen_i2opi = false;
    for (int k = 0; k < f->nlines; k++)
        if (strstr(f->lines[k], "__cudart_i2opi_f") && !seen_i2opi) {
            puts_(&t, ".global .align 4 .b8 __cudart_i2opi_f[24];\n");
            seen_i2opi = true;
        }
    puts_(&t, ".visible .entry __ptxopt_fp()\n{\n");
    Text decls = { 0 };
    for (int r = 0; r < nroles; r++) {
        const char *ty = type_name(f->types[r]);
        if (!ty) return l;
        char buf[64];
        int k = r < f->nin ? r : r < f->nin + f->nx ? r - f->nin : r - f->nin - f->nx;
        snprintf(buf, sizeof buf, "\t.reg %s %%%c%d;\n", ty, r < f->nin ? 'i' : r < f->nin + f->nx ? 'x' : 'v', k);
        puts_(&decls, buf);
    }
    size_t body_at = t.n;
    int k = 0;
    for (; k < f->nlines && strcmp(f->lines[k], "--"); k++) {
        puts_(&t, "\t");
        if (!put_line(&t, l, f->lines[k])) return l;
        puts_(&t, f->lines[k][strlen(f->lines[k]) - 1] == ':' ? "\n" : ";\n");
    }
    /* the exit reads the output (so that SSA keeps its merge there) */
    {
        int r = f->out[1] == 'i' ? atoi(f->out + 2) : f->out[1] == 'x' ? f->nin + atoi(f->out + 2)
                                                                         : f->nin + f->nx + atoi(f->out + 2);
        const char *ty = r >= 0 && r < nroles ? type_name(f->types[r]) : NULL;
        if (!ty) return l;
        char buf[96];
        snprintf(buf, sizeof buf, "\t.reg %s %%__out;\n", ty);
        puts_(&decls, buf);
        snprintf(buf, sizeof buf, "$LX:\n\tmov%s %%__out, %s;\n\tret;\n", strcmp(ty, ".pred") ? ty : ".pred", f->out);
        puts_(&t, buf);
    }
    for (; k < f->nlines; k++) {
        if (!strcmp(f->lines[k], "--")) continue;
        puts_(&t, "\t");
        if (!put_line(&t, l, f->lines[k])) return l;
        puts_(&t, f->lines[k][strlen(f->lines[k]) - 1] == ':' ? "\n" : ";\n");
    }
    puts_(&t, "}\n");
    /* the declarations in front of the body */
    {
        Text all = { 0 };
        put(&all, t.p, body_at);
        put(&all, decls.p, decls.n);
        put(&all, t.p + body_at, t.n - body_at);
        free(t.p);
        free(decls.p);
        t = all;
    }
    FILE *diag = getenv("PTXOPT_SFU_DEBUG") ? stderr : fopen("/dev/null", "w");
    l->m = parse_module("<sfu fingerprint>", t.p, t.n, diag);
    if (diag && diag != stderr) fclose(diag);
    if (!l->m || l->m->nfuncs != 1) {
        if (l->m) ir_module_free(l->m);
        l->m = NULL;
        return l;
    }
    l->fn = l->m->funcs[0];
    const Cfg *c = cfg_get(l->fn);
    l->ninstr = (int)c->ninstr;
    for (uint32_t i = 0; i < c->ninstr; i++) {
        const Instr *in = &c->instr[i]->u.instr;
        for (int j = 0; j < in->nops; j++)
            if (in->ops[j].kind == OPND_FLOAT && !common_value((uint64_t)in->ops[j].value) && l->nimms < 64) {
                bool dup = false;
                for (int q = 0; q < l->nimms; q++) dup |= l->imms[q] == (uint64_t)in->ops[j].value;
                if (!dup) l->imms[l->nimms++] = (uint64_t)in->ops[j].value;
            }
    }
    return l;
}

/* Functions whose fingerprints share constants: one family each. */
const char *sfu_family(const char *func)
{
    if (!strcmp(func, "sinf") || !strcmp(func, "cosf") || !strcmp(func, "sincosf")) return "sinf/cosf";
    if (!strcmp(func, "logf") || !strcmp(func, "log2f")) return "logf/log2f";
    if (!strcmp(func, "expf") || !strcmp(func, "exp10f")) return "expf/exp10f";
    return func;
}

/* The immediate an operand is: itself, or the only value a `mov r, IMM`
 * gave its register (konst/is_konst per register: the caller's). */
static bool operand_const(const Operand *o, const uint64_t *konst, const bool *is_konst, uint64_t *bits)
{
    if (o->kind == OPND_FLOAT) {
        *bits = (uint64_t)o->value;
        return true;
    }
    if (o->kind == OPND_REG && !o->u.reg->special && is_konst && is_konst[o->u.reg->id]) {
        *bits = konst[o->u.reg->id];
        return true;
    }
    return false;
}

void sfu_reg_constants(Function *fn, uint64_t *konst, bool *is_konst)
{
    uint8_t *state = calloc(fn->nregs ? fn->nregs : 1, 1);   /* 0 unseen, 1 one constant, 2 not */
    FOR_EACH_BLOCK (b, fn)
        FOR_EACH_STMT (st, b) {
            if (st->kind != STMT_INSTR) continue;
            const Instr *in = &st->u.instr;
            RegRef refs[32];
            int n = refs_of_instr(fn, in, refs, 32);
            bool cmov = in->op == OP_mov && !in->guard && in->nops == 2 && in->ops[1].kind == OPND_FLOAT;
            for (int k = 0; k < n && k < 32; k++) {
                if (!(refs[k].flags & REF_DEF) || refs[k].reg >= fn->nregs) continue;
                uint32_t r = refs[k].reg;
                if (cmov && state[r] != 2 && (state[r] == 0 || konst[r] == (uint64_t)in->ops[1].value)) {
                    state[r] = 1;
                    konst[r] = (uint64_t)in->ops[1].value;
                } else
                    state[r] = 2;
            }
        }
    for (uint32_t r = 0; r < fn->nregs; r++) is_konst[r] = state[r] == 1;
    free(state);
}

static void parse_all(void)
{
    if (nlib >= 0) return;
    nlib = sfu_fingerprint_count();
    lib = calloc((size_t)(nlib ? nlib : 1), sizeof *lib);
    if (!lib) abort();
    for (int i = 0; i < nlib; i++) lib[i] = parse_one(sfu_fingerprint_at(i));
    /* anchors: immediates of this family's fingerprints only */
    for (int i = 0; i < nlib; i++) {
        FpLib *l = lib[i];
        const char *fam = sfu_family(l->src->func);
        for (int q = 0; q < l->nimms && l->nanchors < MAX_ANCHORS; q++) {
            bool other = false;
            for (int j = 0; j < nlib && !other; j++) {
                if (!strcmp(sfu_family(lib[j]->src->func), fam)) continue;
                for (int r = 0; r < lib[j]->nimms && !other; r++) other = lib[j]->imms[r] == l->imms[q];
            }
            if (!other) l->anchors[l->nanchors++] = l->imms[q];
        }
        if (!l->fn) continue;
        /* the signature: the last instruction that reads an anchor (as an
         * immediate or through a register set to it) and a value computed
         * from the input (a register that is not a constant): one per call */
        const Cfg *c = cfg_get(l->fn);
        uint64_t *konst = calloc(l->fn->nregs + 1, sizeof *konst);
        bool *is_konst = calloc(l->fn->nregs + 1, sizeof *is_konst);
        sfu_reg_constants(l->fn, konst, is_konst);
        for (uint32_t i2 = 0; i2 < c->ninstr; i2++) {
            const Instr *in = &c->instr[i2]->u.instr;
            if (in->guard || in->op == OP_mov) continue;
            int anc = -1;
            uint64_t abits = 0;
            bool reg = false;
            for (int j = 1; j < in->nops; j++) {
                const Operand *o = &in->ops[j];
                uint64_t bits;
                if (operand_const(o, konst, is_konst, &bits)) {
                    if (anc < 0 && sfu_fplib_is_anchor(l, bits)) anc = j, abits = bits;
                } else if (o->kind == OPND_REG && !o->u.reg->special)
                    reg = true;
            }
            if (anc >= 0 && reg) {
                l->sig_full = in->full;
                l->sig_nops = in->nops;
                l->sig_opnd = anc;
                l->sig_bits = abits;
            }
        }
        free(konst), free(is_konst);
        if (getenv("PTXOPT_SFU_DEBUG") && l->sig_full.len)
            fprintf(stderr, "sfu-debug: fingerprint %d (%s) signature %.*s operand %d = %#llx\n", i, l->src->func,
                    (int)l->sig_full.len, l->sig_full.p, l->sig_opnd, (unsigned long long)l->sig_bits);
    }
}

bool sfu_fplib_signature(const FpLib *l, const Instr *in, const uint64_t *konst, const bool *is_konst)
{
    uint64_t bits;
    return l->sig_full.len && str_eq(in->full, l->sig_full) && in->nops == l->sig_nops && !in->guard &&
           operand_const(&in->ops[l->sig_opnd], konst, is_konst, &bits) && bits == l->sig_bits;
}

const FpLib *sfu_fplib(int i)
{
    parse_all();
    return i >= 0 && i < nlib && lib[i]->fn ? lib[i] : NULL;
}

Function *sfu_fplib_function(const FpLib *l) { return l->fn; }
int sfu_fplib_ninstr(const FpLib *l) { return l->ninstr; }
const SfuFingerprint *sfu_fplib_source(const FpLib *l) { return l->src; }

bool sfu_fplib_is_anchor(const FpLib *l, uint64_t bits)
{
    for (int k = 0; k < l->nanchors; k++)
        if (l->anchors[k] == bits) return true;
    return false;
}

bool sfu_fplib_param(const FpLib *l, uint64_t bits, double *factor)
{
    if (bits < PARAM_BASE || bits >= PARAM_BASE + (uint64_t)l->nfactors) return false;
    *factor = l->factors[bits - PARAM_BASE];
    return true;
}
