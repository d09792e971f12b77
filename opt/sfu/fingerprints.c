/* fingerprints.c — inlined library code (sinf, cosf, expf, exp10f, logf,
 * log2f, powf, tanhf) recognised by the fingerprints that
 * fingerprints/gen.py cut out of nvcc's own output (research §2.4,
 * checklist S2).  No pattern here is written by hand: the data files
 * fingerprints/cudaX.Y.c are generated, one per toolkit, and compiled in.
 *
 * A fingerprint is the region from the input to the output, normalised:
 * registers by role (%i inputs, %x defined before the region, %v defined
 * in it), labels $L0.. and the exit $LX.  Matching walks the function's
 * statements in layout order from a start instruction and the fingerprint
 * in step, binding roles to registers one to one (register renaming) and
 * labels to labels; opcodes with their modifiers, immediates (by value),
 * symbols and address offsets must be equal.  What nvcc does to the same
 * code inside a user's kernel is allowed for in three ways, each kept
 * narrow:
 *   - constants: a fingerprint register set once by `mov IMM` may be an
 *     immediate, a register the user's code sets only to that value (CSE
 *     across unrolled copies), or the mov itself; a table address
 *     (`mov.u64 r, __cudart_i2opi_f`) a register only ever set to it; an
 *     address [x+24] a register only ever set to x+24 (LICM);
 *   - contraction: the region's final `mul out, a, b` may have become
 *     `fma.rn d, a, b, c` (the call's result added to c): the site then
 *     computes d = f(x) + c;
 *   - interleaving: instructions that are not part of the region (no
 *     memory write, branch or barrier; reading nothing the region computed
 *     or overwrites; writing nothing it read or computes) may sit in
 *     between, in its first straight-line part or wherever every path
 *     through the region passes exactly once (not in a branch's arm nor in
 *     its loop; a memory read there not after a region store); they are
 *     moved, in order, in front of the replacement.  The local depot's
 *     address setup (set once, from the depot) may sit anywhere in it.
 * Whether the whole region may then go is legality.c's question. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/sfu/internal.h"

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

/* ------------------------------------------------ the parsed fingerprint */

typedef enum FpKind { FK_REG, FK_INT, FK_FLOAT, FK_LABEL, FK_SYM, FK_ADDR, FK_PAIR, FK_VEC, FK_SINK } FpKind;

typedef struct FpOp {
    FpKind kind;
    int role;              /* FK_REG; FK_ADDR base register (-1: symbol) */
    bool cuse;             /* FK_REG: reads the constant a soft mov gave the role (cvalue) */
    int64_t cvalue;
    int64_t value;         /* FK_INT, FK_FLOAT bits, FK_ADDR offset, FK_LABEL id (-1: exit) */
    char sym[96];          /* FK_SYM, FK_ADDR base symbol */
    int n;                 /* FK_PAIR, FK_VEC */
    struct FpOp *elems;
} FpOp;

typedef struct FpItem {
    bool chunk;            /* "--": a part of the region laid out elsewhere starts */
    bool label;
    int label_id;          /* label items */
    int guard;             /* role, -1 none */
    bool guard_neg;
    char full[48];
    int nops;
    FpOp ops[6];
    int const_role;        /* `mov ROLE, IMM` of a constant role, else -1 */
    bool soft_const;       /* `mov ROLE, IMM` of a role written again later (nvcc
                              reused the output register for a constant) */
} FpItem;

typedef struct Fp {
    const SfuFingerprint *src;
    int nroles, out_role, nlabels;
    bool ok;
    FpItem *items;
    int nitems;
    bool *is_const;        /* [nroles] set once, by mov of an immediate */
    int64_t *const_value;  /* [nroles] */
    int last_instr;        /* index of the last instruction item */
    bool *written;         /* [nroles] some item writes the role */
    bool *skip_ok;         /* [nitems] a stranger may sit in front of item k:
                              every path through the region passes there once */
    bool store_in_chunk;   /* a store laid out in a part elsewhere */
    int first_store;       /* index of the first store item, nitems: none */
} Fp;

static Fp *parsed;

static int role_index(const SfuFingerprint *f, const char *p, const char **end)
{
    char c = p[1];
    long k = strtol(p + 2, (char **)end, 10);
    if (c == 'i') return (int)k;
    if (c == 'x') return f->nin + (int)k;
    return f->nin + f->nx + (int)k;
}

static bool parse_op(const SfuFingerprint *f, const char *p, size_t n, FpOp *o)
{
    memset(o, 0, sizeof *o);
    char buf[96];
    if (n >= sizeof buf) return false;
    memcpy(buf, p, n);
    buf[n] = 0;
    const char *bar = strchr(buf, '|');
    if (bar) {
        o->kind = FK_PAIR;
        o->n = 2;
        o->elems = calloc(2, sizeof *o->elems);
        return parse_op(f, buf, (size_t)(bar - buf), &o->elems[0]) &&
               parse_op(f, bar + 1, strlen(bar + 1), &o->elems[1]);
    }
    if (buf[0] == '{') {
        o->kind = FK_VEC;
        o->elems = calloc(8, sizeof *o->elems);
        const char *q = buf + 1;
        while (*q && *q != '}' && o->n < 8) {
            while (*q == ' ') q++;
            size_t m = strcspn(q, ",}");
            if (!parse_op(f, q, m, &o->elems[o->n++])) return false;
            q += m;
            if (*q == ',') q++;
        }
        return true;
    }
    if (buf[0] == '%') {
        const char *e;
        o->kind = FK_REG;
        o->role = role_index(f, buf, &e);
        return *e == 0;
    }
    if (buf[0] == '_' && buf[1] == 0) {
        o->kind = FK_SINK;
        return true;
    }
    if (buf[0] == '$') {
        o->kind = FK_LABEL;
        o->value = buf[2] == 'X' ? -1 : strtol(buf + 2, NULL, 10);
        return true;
    }
    if (buf[0] == '[') {
        o->kind = FK_ADDR;
        char *plus = strpbrk(buf + 1, "+]");
        if (buf[1] == '%') {
            const char *e;
            o->role = role_index(f, buf + 1, &e);
        } else {
            o->role = -1;
            snprintf(o->sym, sizeof o->sym, "%.*s", (int)(plus - buf - 1), buf + 1);
        }
        o->value = *plus == '+' ? strtoll(plus + 1, NULL, 10) : 0;
        return true;
    }
    if (buf[0] == '0' && (buf[1] == 'f' || buf[1] == 'd')) {
        o->kind = FK_FLOAT;
        o->value = (int64_t)strtoull(buf + 2, NULL, 16);
        return true;
    }
    if (buf[0] == '-' || (buf[0] >= '0' && buf[0] <= '9')) {
        o->kind = FK_INT;
        o->value = strtoll(buf, NULL, 0);
        return true;
    }
    o->kind = FK_SYM;
    snprintf(o->sym, sizeof o->sym, "%s", buf);
    return true;
}

/* The positions (in front of item k) where an instruction that is not
 * part of the region may sit and still be moved in front of it: in the
 * region's main part (before any part laid out elsewhere), after its first
 * item, not right after an unconditional branch (dead code there), and
 * not inside the span of any branch (skipped on the taken path, or
 * repeated in a loop).  A branch from item j to label l covers the
 * positions (min(j,l), max(j,l)]; one to the exit, everything after j. */
static void where_strangers_may_sit(Fp *fp)
{
    int main_end = fp->nitems;
    for (int k = 0; k < fp->nitems; k++)
        if (fp->items[k].chunk) {
            main_end = k;
            break;
        }
    for (int k = 0; k < fp->nitems; k++) {
        const FpItem *it = &fp->items[k];
        if (!it->label && !it->chunk && !strncmp(it->full, "st.", 3)) {
            if (k < fp->first_store) fp->first_store = k;
            if (k > main_end) fp->store_in_chunk = true;
        }
    }
    for (int k = 1; k < main_end; k++) {
        const FpItem *p = &fp->items[k - 1];
        fp->skip_ok[k] = !(!p->label && !p->chunk && !strncmp(p->full, "bra", 3) && p->guard < 0);
    }
    for (int j = 0; j < fp->nitems; j++) {
        const FpItem *it = &fp->items[j];
        if (it->label || it->chunk) continue;
        for (int q = 0; q < it->nops; q++) {
            if (it->ops[q].kind != FK_LABEL) continue;
            int l = fp->nitems;   /* the exit */
            for (int t = 0; t < fp->nitems; t++)
                if (fp->items[t].label && fp->items[t].label_id == it->ops[q].value) l = t;
            int lo = j < l ? j : l, hi = j < l ? l : j;
            if (it->ops[q].value < 0 || l > main_end) hi = fp->nitems;   /* to the exit or elsewhere */
            for (int k = lo + 1; k <= hi && k < fp->nitems; k++) fp->skip_ok[k] = false;
        }
    }
}

static bool parse_fp(const SfuFingerprint *f, Fp *fp)
{
    fp->src = f;
    fp->nroles = f->nin + f->nx + f->nv;
    const char *e;
    fp->out_role = role_index(f, f->out, &e);
    fp->items = calloc((size_t)f->nlines, sizeof *fp->items);
    fp->is_const = calloc((size_t)fp->nroles, sizeof *fp->is_const);
    fp->const_value = calloc((size_t)fp->nroles, sizeof *fp->const_value);
    int *ndefs = calloc((size_t)fp->nroles, sizeof *ndefs);
    fp->nitems = f->nlines;
    fp->written = calloc((size_t)fp->nroles, sizeof *fp->written);
    fp->skip_ok = calloc((size_t)f->nlines + 1, sizeof *fp->skip_ok);
    fp->first_store = f->nlines;
    for (int k = 0; k < f->nlines; k++) {
        FpItem *it = &fp->items[k];
        const char *p = f->lines[k];
        it->guard = -1;
        it->const_role = -1;
        size_t len = strlen(p);
        if (strcmp(p, "--") == 0) {
            it->chunk = true;
            continue;
        }
        if (p[len - 1] == ':') {
            it->label = true;
            it->label_id = (int)strtol(p + 2, NULL, 10);
            if (it->label_id + 1 > fp->nlabels) fp->nlabels = it->label_id + 1;
            continue;
        }
        if (p[0] == '@') {
            it->guard_neg = p[1] == '!';
            it->guard = role_index(f, p + (it->guard_neg ? 2 : 1), &e);
            p = e + 1;
        }
        size_t m = strcspn(p, " ");
        if (m >= sizeof it->full) return false;
        memcpy(it->full, p, m);
        p += m;
        while (*p == ' ') p++;
        while (*p) {
            size_t q = 0;
            int depth = 0;
            while (p[q] && !(p[q] == ',' && depth == 0)) {
                if (p[q] == '[' || p[q] == '{') depth++;
                if (p[q] == ']' || p[q] == '}') depth--;
                q++;
            }
            if (it->nops == 6 || !parse_op(f, p, q, &it->ops[it->nops++])) return false;
            p += q;
            if (*p == ',') p++;
            while (*p == ' ') p++;
        }
        fp->last_instr = k;
        bool nodst = !strncmp(it->full, "st.", 3) || !strncmp(it->full, "bra", 3);
        if (!nodst && it->nops && it->ops[0].kind == FK_REG) ndefs[it->ops[0].role]++;
        if (!nodst && it->nops && it->ops[0].kind == FK_PAIR)
            for (int j = 0; j < 2; j++)
                if (it->ops[0].elems[j].kind == FK_REG) ndefs[it->ops[0].elems[j].role]++;
    }
    /* constant roles: set exactly once, by an unguarded mov of an immediate */
    for (int k = 0; k < fp->nitems; k++) {
        FpItem *it = &fp->items[k];
        if (it->label || it->chunk || it->guard >= 0 || strncmp(it->full, "mov.", 4) || it->nops != 2) continue;
        if (it->ops[0].kind != FK_REG || (it->ops[1].kind != FK_FLOAT && it->ops[1].kind != FK_INT)) continue;
        int r = it->ops[0].role;
        if (ndefs[r] != 1 || r == fp->out_role) continue;
        fp->is_const[r] = true;
        fp->const_value[r] = it->ops[1].value;
        it->const_role = r;
    }
    /* soft constants: a role written more than once whose write is a mov of
     * an immediate; its reads up to its next write are reads of that value */
    for (int k = 0; k < fp->nitems; k++) {
        FpItem *it = &fp->items[k];
        if (it->label || it->chunk || it->guard >= 0 || it->const_role >= 0 || strncmp(it->full, "mov.", 4) ||
            it->nops != 2 || it->ops[0].kind != FK_REG || (it->ops[1].kind != FK_FLOAT && it->ops[1].kind != FK_INT))
            continue;
        int r = it->ops[0].role;
        bool earlier = false;   /* only a role's first appearance */
        for (int j = 0; j < k && !earlier; j++)
            for (int q = 0; q < fp->items[j].nops; q++) {
                const FpOp *o = &fp->items[j].ops[q];
                earlier |= (o->kind == FK_REG || o->kind == FK_ADDR) && o->role == r;
                if (o->kind == FK_PAIR || o->kind == FK_VEC)
                    for (int e = 0; e < o->n; e++) earlier |= o->elems[e].kind == FK_REG && o->elems[e].role == r;
            }
        for (int j = 0; j < k && !earlier; j++) earlier |= fp->items[j].guard == r;
        if (earlier) continue;
        it->soft_const = true;
        for (int j = k + 1; j < fp->nitems; j++) {
            FpItem *u = &fp->items[j];
            if (u->label || u->chunk) break;   /* straight-line reads only */
            bool redef = false;
            for (int q = 0; q < u->nops; q++) {
                if (u->ops[q].kind == FK_REG && u->ops[q].role == r) {
                    if (q == 0 && strncmp(u->full, "st.", 3)) redef = true;
                    else u->ops[q].cuse = true, u->ops[q].cvalue = it->ops[1].value;
                }
            }
            if (redef || !strncmp(u->full, "bra", 3)) break;
        }
    }
    for (int r = 0; r < fp->nroles; r++) fp->written[r] = ndefs[r] > 0;
    free(ndefs);
    where_strangers_may_sit(fp);
    return true;
}

static void parse_all(void)
{
    if (parsed) return;
    int n = sfu_fingerprint_count();
    parsed = calloc((size_t)n, sizeof *parsed);
    for (int i = 0; i < n; i++) parsed[i].ok = parse_fp(sfu_fingerprint_at(i), &parsed[i]);
}

/* --------------------------------------------------------------- matching */

typedef struct Match {
    Function *fn;
    const Fp *fp;
    Reg **bind;            /* [nroles] */
    int *role_of;          /* [fn->nregs] role + 1, 0: none */
    Str *labels;           /* [nlabels] */
    Str exit;
    const int64_t *konst;  /* [fn->nregs] the only value a register is ever set to */
    const bool *is_konst;
    Stmt *skip[SFU_MAX_SKIP];
    int nskip;
    uint32_t *skip_defs;   /* registers written by skipped instructions */
    int nskip_defs;
    bool fused;
    Operand addend;
    int ninstr;
    int undo_roles[16], nundo_roles;   /* bound by the instruction being tried */
    Str *undo_labels[8];
    int nundo_labels;
    bool undo_overflow;
    const Str *ksym;       /* [fn->nregs] the symbol a register is only ever set to (mov r, SYM) */
    Reg *const *abase;     /* [fn->nregs] r only ever set by add.{s,u}64 r, abase[r], aoff[r] */
    const int64_t *aoff;
    const bool *depot;     /* [fn->nregs] set once, to the local depot's address */
    Reg *lconst[8];        /* registers a soft mov of this match set, and to what */
    int64_t lvalue[8];
    int nlconst;
    int depth;             /* the item a failed match stopped at */
    int nchunks;           /* parts laid out elsewhere */
    Stmt *chunk_first[SFU_MAX_CHUNKS], *chunk_last[SFU_MAX_CHUNKS];
} Match;

/* The label statement called name in fn, or NULL. */
static Stmt *find_label(Function *fn, Str name)
{
    FOR_EACH_BLOCK (b, fn)
        FOR_EACH_STMT (s, b)
            if (s->kind == STMT_LABEL && str_eq(s->u.label, name)) return s;
    return NULL;
}

static bool bind_reg(Match *m, int role, Reg *r)
{
    if (!r) return false;
    if (m->bind[role]) return m->bind[role] == r;
    if (m->role_of[r->id]) return false;
    for (int k = 0; k < m->nlconst; k++)
        if (m->lconst[k] == r) m->lconst[k] = NULL;   /* written again: no longer that constant */
    /* a stranger moved in front wrote r: fine when the region only reads r
     * from then on (a value from before the region, e.g. the depot address) */
    bool outside = role < m->fp->src->nin + m->fp->src->nx && !m->fp->written[role];
    for (int k = 0; k < m->nskip_defs && !outside; k++)
        if (m->skip_defs[k] == r->id) return false;
    m->bind[role] = r;
    m->role_of[r->id] = role + 1;
    if (m->nundo_roles < 16) m->undo_roles[m->nundo_roles++] = role;
    else m->undo_overflow = true;
    return true;
}

static bool match_op(Match *m, const FpOp *f, const Operand *u)
{
    switch (f->kind) {
    case FK_REG:
        if (f->cuse) {   /* the value a soft mov gave: the immediate, or a register holding it */
            if (u->kind == OPND_FLOAT || u->kind == OPND_INT) return u->value == f->cvalue;
            if (u->kind != OPND_REG || u->comp) return false;
            if (m->is_konst[u->u.reg->id] && m->konst[u->u.reg->id] == f->cvalue && !m->role_of[u->u.reg->id]) return true;
            for (int k = 0; k < m->nlconst; k++)
                if (m->lconst[k] == u->u.reg && m->lvalue[k] == f->cvalue) return true;
            return false;
        }
        if (m->fp->is_const[f->role] && !m->bind[f->role]) {
            /* an unbound constant: the immediate itself, or a register only ever set to it */
            int64_t want = m->fp->const_value[f->role];
            if (u->kind == OPND_FLOAT || u->kind == OPND_INT) return u->value == want;
            return u->kind == OPND_REG && u->comp == 0 && m->is_konst[u->u.reg->id] && m->konst[u->u.reg->id] == want &&
                   !m->role_of[u->u.reg->id];
        }
        return u->kind == OPND_REG && u->comp == 0 && !u->flags && bind_reg(m, f->role, u->u.reg);
    case FK_INT: return u->kind == OPND_INT && u->value == f->value;
    case FK_FLOAT: return u->kind == OPND_FLOAT && u->value == f->value;
    case FK_SINK: return u->kind == OPND_SINK;
    case FK_SYM: return u->kind == OPND_SYM && u->value == 0 && str_eqc(opnd_text(u), f->sym);
    case FK_LABEL: {
        if (u->kind != OPND_SYM) return false;
        Str t = opnd_text(u);
        Str *slot = f->value < 0 ? &m->exit : &m->labels[f->value];
        if (slot->len) return slot->len == t.len && memcmp(slot->p, t.p, t.len) == 0;
        *slot = t;
        if (m->nundo_labels < 8) m->undo_labels[m->nundo_labels++] = slot;
        else m->undo_overflow = true;
        return true;
    }
    case FK_ADDR: {
        if (u->kind != OPND_ADDR || u->n != 1) return false;
        const Operand *b = &u->u.elems[0];
        if (f->role < 0) return u->value == f->value && b->kind == OPND_SYM && str_eqc(opnd_text(b), f->sym);
        if (b->kind != OPND_REG || b->comp) return false;
        if (u->value == f->value) return bind_reg(m, f->role, b->u.reg);
        /* [x+24] whose x+24 LICM hoisted into a register of its own (defined
         * before the region: it must not be bound to a role of it) */
        Reg *base = m->abase[b->u.reg->id];
        return base && !m->role_of[b->u.reg->id] && m->aoff[b->u.reg->id] + u->value == f->value &&
               f->role < m->fp->src->nin + m->fp->src->nx && bind_reg(m, f->role, base);
    }
    case FK_PAIR:
    case FK_VEC:
        if (u->kind != (f->kind == FK_PAIR ? OPND_PAIR : OPND_VEC) || u->n != f->n) return false;
        for (int k = 0; k < f->n; k++)
            if (!match_op(m, &f->elems[k], &u->u.elems[k])) return false;
        return true;
    }
    return false;
}

/* An attempt on one instruction: what it bound is taken back when it fails. */
static void attempt_begin(Match *m) { m->nundo_roles = m->nundo_labels = 0; }
static bool attempt_end(Match *m, bool ok)
{
    if (ok) return true;
    for (int k = 0; k < m->nundo_roles; k++) {
        int role = m->undo_roles[k];
        m->role_of[m->bind[role]->id] = 0;
        m->bind[role] = NULL;
    }
    for (int k = 0; k < m->nundo_labels; k++) *m->undo_labels[k] = (Str){ 0 };
    return false;
}

/* `mov.u64 %v, SYM` (the address of a table, sinf's __cudart_i2opi_f) that
 * LICM hoisted: `mov.u64 r, q` with q only ever set to SYM. */
static bool match_hoisted_symbol(Match *m, const FpItem *it, const Instr *in)
{
    if (strcmp(it->full, "mov.u64") || it->nops != 2 || it->ops[1].kind != FK_SYM || it->ops[0].kind != FK_REG) return false;
    if (!str_eqc(in->full, "mov.u64") || in->nops != 2 || in->guard || in->ops[1].kind != OPND_REG) return false;
    const Str *k = &m->ksym[in->ops[1].u.reg->id];
    return k->len && str_eqc(*k, it->ops[1].sym) && match_op(m, &it->ops[0], &in->ops[0]);
}

static bool match_instr(Match *m, const FpItem *it, const Instr *in)
{
    if (!str_eqc(in->full, it->full) || in->nops != it->nops) return false;
    if ((it->guard >= 0) != (in->guard != NULL)) return false;
    if (it->guard >= 0 && (it->guard_neg != in->guard_neg || !bind_reg(m, it->guard, in->guard))) return false;
    for (int k = 0; k < it->nops; k++)
        if (!match_op(m, &it->ops[k], &in->ops[k])) return false;
    return true;
}

/* The library's final `mul[.ftz].f32 out, a, b` contracted with an add
 * into `fma.rn[.ftz].f32 d, a, b, c`. */
static bool match_fused(Match *m, const FpItem *it, const Instr *in)
{
    bool ftz = strstr(it->full, ".ftz") != NULL;
    if (strcmp(it->full, ftz ? "mul.ftz.f32" : "mul.f32") || it->nops != 3 || in->guard) return false;
    if (!str_eqc(in->full, ftz ? "fma.rn.ftz.f32" : "fma.rn.f32") || in->nops != 4) return false;
    if (it->ops[0].kind != FK_REG || it->ops[0].role != m->fp->out_role) return false;
    if (in->ops[3].kind == OPND_REG && m->role_of[in->ops[3].u.reg->id]) return false;   /* c from outside */
    if (in->ops[3].kind != OPND_REG && in->ops[3].kind != OPND_FLOAT) return false;
    for (int k = 0; k < 3; k++)
        if (!match_op(m, &it->ops[k], &in->ops[k])) return false;
    m->fused = true;
    m->addend = in->ops[3];
    return true;
}

/* May a user instruction in front of item k be an interleaved stranger
 * (moved in front of the replacement)?  In the region's first
 * straight-line part (`first`), or where every path through the region
 * passes once (fp->skip_ok); there, a memory read must not follow a store
 * of the region (param space cannot be written). */
static bool skippable(Match *m, Stmt *s, int k_item, bool first)
{
    const Instr *in = &s->u.instr;
    uint32_t fl = opcode_flags_full(in->full.p, in->full.len);
    if (in->op == OP_UNKNOWN || (fl & (OPF_BRANCH | OPF_TERMINATOR | OPF_BARRIER | OPF_SIDE_EFFECT | OPF_COLLECTIVE)) ||
        refs_writes_memory(in, fl) || m->nskip == SFU_MAX_SKIP)
        return false;
    if (!first && refs_reads_memory(in, fl) && (m->fp->store_in_chunk || m->fp->first_store < k_item) &&
        !(in->op == OP_ld && instr_has_mod(in, ".param")))
        return false;
    RegRef refs[32];
    int n = refs_of_instr(m->fn, in, refs, 32);
    if (n > 32 || m->nskip_defs + n > SFU_MAX_SKIP * 8) return false;
    for (int k = 0; k < n; k++) {
        if (refs[k].reg >= m->fn->nregs) continue;   /* memory: reads are fine (no region store before it) */
        int role = m->role_of[refs[k].reg] - 1;
        if (role >= 0) {
            if (refs[k].flags & REF_DEF) return false;   /* writes what the region uses */
            if (role >= m->fp->src->nin + m->fp->src->nx) return false;   /* reads what the region computed */
            if (m->fp->written[role]) return false;   /* an input the region may have overwritten */
        }
        if (refs[k].flags & REF_DEF)
            for (int c = 0; c < m->nlconst; c++)
                if (m->lconst[c] && m->lconst[c]->id == refs[k].reg) return false;   /* a constant the region reads */
    }
    for (int k = 0; k < n; k++)
        if ((refs[k].flags & REF_DEF) && refs[k].reg < m->fn->nregs) m->skip_defs[m->nskip_defs++] = refs[k].reg;
    m->skip[m->nskip++] = s;
    return true;
}

/* The local depot's address setup (`mov.u64 %SPL, __local_depot0`,
 * `cvta.local.u64 %SP, %SPL`, `add.u64 %rd, %SP, 0`): nvcc hoists it above
 * the region in one kernel and leaves it inside in another.  Its one
 * register is set nowhere else, from registers only ever set to the
 * depot's address: running it earlier, or on a path that did not, gives
 * every later read the same value, so it may sit anywhere in the region. */
static bool depot_setup(const Match *m, const Stmt *s)
{
    const Instr *in = &s->u.instr;
    if (in->guard || in->nops < 2 || in->ops[0].kind != OPND_REG || !m->depot[in->ops[0].u.reg->id]) return false;
    if (str_eqc(in->full, "mov.u64")) return in->nops == 2 && in->ops[1].kind == OPND_SYM;
    const Operand *q = &in->ops[1];
    bool from_depot = q->kind == OPND_REG && !q->comp && m->depot[q->u.reg->id];
    if (str_eqc(in->full, "cvta.local.u64")) return in->nops == 2 && from_depot;
    return (str_eqc(in->full, "add.u64") || str_eqc(in->full, "add.s64")) && in->nops == 3 && from_depot &&
           in->ops[2].kind == OPND_INT;
}

/* Registers written exactly once in fn, by the depot's address setup. */
static void depot_registers(Function *fn, bool *depot)
{
    uint32_t nr = fn->nregs ? fn->nregs : 1;
    int *ndefs = calloc(nr, sizeof *ndefs);
    FOR_EACH_BLOCK (b, fn)
        FOR_EACH_STMT (s, b) {
            if (s->kind != STMT_INSTR) continue;
            RegRef refs[32];
            int n = refs_of_instr(fn, &s->u.instr, refs, 32);
            for (int k = 0; k < n && k < 32; k++)
                if ((refs[k].flags & REF_DEF) && refs[k].reg < fn->nregs) ndefs[refs[k].reg]++;
        }
    for (bool grew = true; grew;) {   /* mov from the symbol, then cvta and add from those */
        grew = false;
        FOR_EACH_BLOCK (b, fn)
            FOR_EACH_STMT (s, b) {
                const Instr *in = &s->u.instr;
                if (s->kind != STMT_INSTR || in->guard || in->nops < 2 || in->ops[0].kind != OPND_REG) continue;
                uint32_t r = in->ops[0].u.reg->id;
                if (depot[r] || ndefs[r] != 1) continue;
                const Operand *q = &in->ops[1];
                bool ok = false;
                if (str_eqc(in->full, "mov.u64"))
                    ok = in->nops == 2 && q->kind == OPND_SYM && q->value == 0 && opnd_text(q).len > 13 &&
                         !memcmp(opnd_text(q).p, "__local_depot", 13);
                else if (q->kind == OPND_REG && !q->comp && depot[q->u.reg->id])
                    ok = (str_eqc(in->full, "cvta.local.u64") && in->nops == 2) ||
                         ((str_eqc(in->full, "add.u64") || str_eqc(in->full, "add.s64")) && in->nops == 3 &&
                          in->ops[2].kind == OPND_INT);
                if (ok) depot[r] = grew = true;
            }
    }
    free(ndefs);
}

static Stmt *next_stmt(Stmt *s)
{
    if (s->next) return s->next;
    for (Block *b = s->block->next; b; b = b->next)
        if (b->first) return b->first;
    return NULL;
}

/* Matches fp from user statement `start`; on success *last is the region's
 * last statement. */
/* A failed match; PTXOPT_SFU_DEBUG=1 says where one that got past its
 * fifth item stopped (for new toolkits: which nvcc change broke it). */
static bool dbg_fail(Match *m, int k, const Stmt *s, int line)
{
    m->depth = k;
    if (k > 4 && getenv("PTXOPT_SFU_DEBUG"))
        fprintf(stderr, "sfu-debug: %s item %d/%d '%s' fails at line %u (matcher line %d)\n", m->fp->src->func, k,
                m->fp->nitems, m->fp->src->lines[k], s ? s->line : 0, line);
    return false;
}

static bool match_from(Match *m, Stmt *start, Stmt **last)
{
    const Fp *fp = m->fp;
    Stmt *s = start;
    bool straight = true;   /* no fingerprint label or branch consumed yet */
    bool started = false;
    Stmt *prev = NULL, *main_last = NULL;
    int k_dbg = 0;
    for (int k = 0; k < fp->nitems; k++) {
        const FpItem *it = &fp->items[k];
        k_dbg = k;
        if (it->chunk) {   /* jump to the chunk's label, bound by a branch before */
            const FpItem *l = &fp->items[k + 1];
            if (k + 1 >= fp->nitems || !l->label || !m->labels[l->label_id].len || m->nchunks == SFU_MAX_CHUNKS) return dbg_fail(m, k_dbg, s, __LINE__);
            if (m->nchunks) m->chunk_last[m->nchunks - 1] = prev;
            else main_last = prev;
            s = find_label(m->fn, m->labels[l->label_id]);
            if (!s) return dbg_fail(m, k_dbg, s, __LINE__);
            m->chunk_first[m->nchunks++] = s;
            straight = false;
            continue;
        }
        while (s && s->kind != STMT_INSTR && s->kind != STMT_LABEL) s = next_stmt(s);   /* .pragma, .loc */
        if (it->label) {
            if (!s || s->kind != STMT_LABEL) return dbg_fail(m, k_dbg, s, __LINE__);
            Str *slot = &m->labels[it->label_id];
            if (slot->len ? !(slot->len == s->u.label.len && !memcmp(slot->p, s->u.label.p, slot->len)) : false)
                return dbg_fail(m, k_dbg, s, __LINE__);
            *slot = s->u.label;
            straight = false;
            prev = s;
            s = next_stmt(s);
            continue;
        }
        if (it->soft_const) {   /* a soft constant's mov: this statement, into any register, or gone */
            const Instr *in = s && s->kind == STMT_INSTR ? &s->u.instr : NULL;
            if (in && str_eqc(in->full, it->full) && !in->guard && in->nops == 2 && in->ops[0].kind == OPND_REG &&
                (in->ops[1].kind == OPND_FLOAT || in->ops[1].kind == OPND_INT) && in->ops[1].value == it->ops[1].value &&
                !m->role_of[in->ops[0].u.reg->id] && m->nlconst < 8) {
                m->lconst[m->nlconst] = in->ops[0].u.reg;
                m->lvalue[m->nlconst++] = in->ops[1].value;
                m->ninstr++;
                prev = s;
                s = next_stmt(s);
            }
            continue;
        }
        for (;;) {
            if (!s || s->kind != STMT_INSTR) {
                if (it->const_role >= 0) break;   /* the constant's mov may be gone */
                return dbg_fail(m, k_dbg, s, __LINE__);
            }
            /* two adjacent independent movs in the other order */
            const FpItem *nx = k + 1 < fp->nitems ? &fp->items[k + 1] : NULL;
            Stmt *s2 = next_stmt(s);
            if (nx && !nx->label && !nx->chunk && !strncmp(it->full, "mov.", 4) && !strncmp(nx->full, "mov.", 4) && s2 &&
                s2->kind == STMT_INSTR && !(attempt_begin(m), attempt_end(m, match_instr(m, it, &s->u.instr)))) {
                attempt_begin(m);
                bool ok = match_instr(m, nx, &s->u.instr) || match_hoisted_symbol(m, nx, &s->u.instr);
                ok = ok && (match_instr(m, it, &s2->u.instr) || match_hoisted_symbol(m, it, &s2->u.instr));
                if (attempt_end(m, ok && !m->undo_overflow)) {
                    m->ninstr += 2;
                    prev = s2;
                    s = next_stmt(s2);
                    straight = false;   /* nothing skipped past a reordering */
                    k++;
                    goto next_item;
                }
            }
            attempt_begin(m);
            bool hit = match_instr(m, it, &s->u.instr) || match_hoisted_symbol(m, it, &s->u.instr) ||
                       (k == fp->last_instr && match_fused(m, it, &s->u.instr));
            if (attempt_end(m, hit && !m->undo_overflow)) {
                started = true;
                m->ninstr++;
                if (!strncmp(it->full, "bra", 3) || it->guard >= 0) straight = false;
                prev = s;
                s = next_stmt(s);
                goto next_item;
            }
            if (it->const_role >= 0) break;   /* not here: skip the mov, keep the statement */
            if (!started || !(straight || fp->skip_ok[k] || depot_setup(m, s)) || !skippable(m, s, k, straight))
                return dbg_fail(m, k_dbg, s, __LINE__);
            s = next_stmt(s);
        }
    next_item:;
    }
    if (!started || !prev) return dbg_fail(m, k_dbg, s, __LINE__);
    if (m->nchunks) {
        m->chunk_last[m->nchunks - 1] = prev;
        prev = main_last;
    }
    if (m->exit.len) {   /* the region branches to its exit: the next label must be it */
        Stmt *t = next_stmt(prev);
        while (t && t->kind != STMT_INSTR && t->kind != STMT_LABEL) t = next_stmt(t);
        if (!t || t->kind != STMT_LABEL || !str_eq(t->u.label, m->exit)) return dbg_fail(m, k_dbg, s, __LINE__);
    }
    *last = prev;
    return true;
}

/* The value each register is ever set to, when it is only ever set to one
 * immediate by unguarded movs. */
static void constants(Function *fn, int64_t *konst, bool *is_konst, Str *ksym, Reg **abase, int64_t *aoff)
{
    uint8_t *state = calloc(fn->nregs ? fn->nregs : 1, 1);   /* 0 unseen, 1 constant, 2 not */
    FOR_EACH_BLOCK (b, fn)
        FOR_EACH_STMT (s, b) {
            if (s->kind != STMT_INSTR) continue;
            const Instr *in = &s->u.instr;
            RegRef refs[32];
            int n = refs_of_instr(fn, in, refs, 32);
            bool cmov = in->op == OP_mov && !in->guard && in->nops == 2 && in->ops[0].kind == OPND_REG &&
                        (in->ops[1].kind == OPND_FLOAT || in->ops[1].kind == OPND_INT);
            bool smov = in->op == OP_mov && !in->guard && in->nops == 2 && in->ops[0].kind == OPND_REG &&
                        in->ops[1].kind == OPND_SYM && in->ops[1].value == 0;
            bool aadd = in->op == OP_add && !in->guard && in->nops == 3 && in->ops[0].kind == OPND_REG &&
                        in->ops[1].kind == OPND_REG && !in->ops[1].comp && in->ops[2].kind == OPND_INT &&
                        (str_eqc(in->full, "add.s64") || str_eqc(in->full, "add.u64"));
            for (int k = 0; k < n && k < 32; k++) {
                if (!(refs[k].flags & REF_DEF) || refs[k].reg >= fn->nregs) continue;
                uint32_t r = refs[k].reg;
                if (cmov && state[r] != 2 && (state[r] == 0 || konst[r] == in->ops[1].value)) {
                    state[r] = 1;
                    konst[r] = in->ops[1].value;
                } else if (smov && state[r] != 2 && (state[r] == 0 || str_eq(ksym[r], opnd_text(&in->ops[1])))) {
                    state[r] = 3;
                    ksym[r] = opnd_text(&in->ops[1]);
                } else if (aadd && state[r] == 0) {
                    state[r] = 4;
                    abase[r] = in->ops[1].u.reg;
                    aoff[r] = in->ops[2].value;
                } else
                    state[r] = 2;
            }
        }
    for (uint32_t r = 0; r < fn->nregs; r++) {
        is_konst[r] = state[r] == 1;
        if (state[r] != 3) ksym[r] = (Str){ 0 };
        if (state[r] != 4) abase[r] = NULL;
    }
    free(state);
}

void sfu_find_library(Function *fn, const SfuOptions *o, Remarks *rm, SfuSite **v, int *n, int *cap)
{
    parse_all();
    int nfp = sfu_fingerprint_count();
    bool any = false;
    for (int i = 0; i < nfp; i++) any |= parsed[i].ok && o->kinds[parsed[i].src->kind];
    if (!any) return;
    uint32_t nr = fn->nregs ? fn->nregs : 1;
    int64_t *konst = calloc(nr, sizeof *konst);
    bool *is_konst = calloc(nr, sizeof *is_konst);
    int *role_of = calloc(nr, sizeof *role_of);
    Str *ksym = calloc(nr, sizeof *ksym);
    Reg **abase = calloc(nr, sizeof *abase);
    int64_t *aoff = calloc(nr, sizeof *aoff);
    bool *depot = calloc(nr, sizeof *depot);
    uint32_t skip_defs[SFU_MAX_SKIP * 8];
    constants(fn, konst, is_konst, ksym, abase, aoff);
    depot_registers(fn, depot);
    for (Block *b = fn->first; b; b = b->next)
        for (Stmt *s = b->first; s; s = s ? s->next : NULL) {
            if (s->kind != STMT_INSTR) continue;
            int best = -1, best_depth = 0;
            bool found = false;
            for (int i = 0; i < nfp; i++) {
                const Fp *fp = &parsed[i];
                if (!fp->ok || !o->kinds[fp->src->kind]) continue;
                const FpItem *i0 = &fp->items[0];
                if (!i0->label && !i0->chunk && i0->const_role < 0 && !i0->soft_const && !str_eqc(s->u.instr.full, i0->full))
                    continue;   /* cheap first test: the region starts with this opcode */
                Reg *bind[fp->nroles];
                Str labels[fp->nlabels ? fp->nlabels : 1];
                memset(bind, 0, sizeof bind);
                memset(labels, 0, sizeof labels);
                Match m = { .fn = fn, .fp = fp, .bind = bind, .role_of = role_of, .labels = labels, .konst = konst,
                            .is_konst = is_konst, .skip_defs = skip_defs, .ksym = ksym, .abase = abase, .aoff = aoff, .depot = depot };
                Stmt *last = NULL;
                bool matched = match_from(&m, s, &last);
                for (int r = 0; r < fp->nroles; r++)   /* role_of back to all zero */
                    if (bind[r]) role_of[bind[r]->id] = 0;
                if (!matched) {
                    if (m.depth * 4 >= fp->nitems && m.depth > best_depth) best = i, best_depth = m.depth;
                    continue;
                }
                found = true;
                SfuSite *site = sfu_site_push(v, n, cap);
                site->kind = fp->src->kind;
                site->ftz = fp->src->ftz;
                site->first = s;
                site->last = last;
                site->nin = fp->src->nin;
                for (int k = 0; k < site->nin; k++) site->in[k] = ir_op_reg(bind[k]);
                site->out = bind[fp->out_role];
                site->fused = m.fused;
                site->addend = m.addend;
                site->fp = fp->src;
                site->fp_index = i;
                site->nskip = m.nskip;
                memcpy(site->skip, m.skip, sizeof m.skip);
                site->ninstr = m.ninstr;
                site->nchunks = m.nchunks;
                memcpy(site->chunk_first, m.chunk_first, sizeof m.chunk_first);
                memcpy(site->chunk_last, m.chunk_last, sizeof m.chunk_last);
                site->line = (int)s->line;
                /* continue after the region */
                b = last->block;
                s = last;
                break;
            }
            if (!found && best >= 0 && o->kinds[parsed[best].src->kind])
                remark(rm, PASS, fn, s, REMARK_MISSED,
                       "resembles %s (fingerprint %d of nvcc %s) for %d of its %d lines, then differs (line %d of the "
                       "fingerprint): not recognised, left precise",
                       parsed[best].src->func, best, sfu_fingerprint_toolkit(best), best_depth, parsed[best].nitems,
                       best_depth + 1);
        }
    free(konst), free(is_konst), free(role_of), free(ksym), free(abase), free(aoff), free(depot);
}
