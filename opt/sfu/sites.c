/* sites.c — single-instruction precise operations (research §2.2, §2.3,
 * checklist S1): div.rn / div.full, rcp.rn, sqrt.rn in f32 (with or
 * without .ftz) and, with f64=1, div.rn, rcp.rn, sqrt.rn in f64; the pair
 * sqrt.rn t,a + rcp.rn d,t (or div.rn d,1.0,t) where t is used by nothing
 * else is one rsqrt site.  An explicit rounding mode (.rz, .rm, .rp) says
 * the author wanted that rounding: left alone with a remark. */
#include <stdlib.h>
#include <string.h>

#include "opt/sfu/internal.h"

SfuSite *sfu_site_push(SfuSite **v, int *n, int *cap)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *v = realloc(*v, sizeof **v * (size_t)*cap);
        if (!*v) abort();
    }
    SfuSite *s = &(*v)[(*n)++];
    memset(s, 0, sizeof *s);
    return s;
}

static bool is_one(const Operand *o, bool f64)
{
    return o->kind == OPND_FLOAT && (uint64_t)o->value == (f64 ? 0x3FF0000000000000ull : 0x3F800000ull);
}

static const char *directed_rounding(const Instr *in)
{
    static const char *const modes[] = { ".rz", ".rm", ".rp" };
    for (int k = 0; k < 3; k++)
        if (instr_has_mod(in, modes[k])) return modes[k];
    return NULL;
}

/* Is r read by any instruction after s, or live after it? */
static bool live_after(Function *fn, const Stmt *s, const Reg *r)
{
    const Cfg *c = cfg_get(fn);
    const Liveness *l = liveness_get(fn);
    uint32_t i = cfg_instr_index(c, s);
    if (i == ANA_NONE) return true;
    uint32_t b = c->instr_block[i];
    if (i + 1 < c->block_instr[b + 1]) {
        uint64_t *set = calloc(l->words, sizeof *set);
        liveness_before(l, refs_get(fn), i + 1, set);
        bool live = live_bit(set, r->id);
        free(set);
        return live;
    }
    return liveness_out(l, b, r->id);
}

/* Does instruction s mention register r (read or write)? */
static bool mentions(const Function *fn, const Stmt *s, const Reg *r)
{
    RegRef refs[64];
    int n = refs_of_instr(fn, &s->u.instr, refs, 64);
    for (int k = 0; k < n && k < 64; k++)
        if (refs[k].reg == r->id) return true;
    return n > 64;
}

/* The rcp.rn (or div.rn 1.0) of sqrt's result t, later in the block with
 * nothing in between touching t or the sqrt's input, and t dead after it. */
static Stmt *rsqrt_partner(Function *fn, Stmt *sq, bool f64)
{
    const Instr *si = &sq->u.instr;
    if (si->ops[0].kind != OPND_REG || si->guard) return NULL;
    Reg *t = si->ops[0].u.reg;
    const Reg *a = si->ops[1].kind == OPND_REG ? si->ops[1].u.reg : NULL;
    for (Stmt *s = sq->next; s; s = s->next) {
        if (s->kind != STMT_INSTR) {
            if (s->kind == STMT_LABEL) return NULL;
            continue;
        }
        const Instr *in = &s->u.instr;
        bool rcp = in->op == OP_rcp && in->nops == 2 && in->ops[1].kind == OPND_REG && in->ops[1].u.reg == t;
        bool div = in->op == OP_div && in->nops == 3 && is_one(&in->ops[1], f64) && in->ops[2].kind == OPND_REG &&
                   in->ops[2].u.reg == t;
        if ((rcp || div) && instr_has_mod(in, ".rn") && !in->guard &&
            instr_has_mod(in, ".ftz") == instr_has_mod(si, ".ftz") && strncmp(instr_type(in).p, f64 ? ".f64" : ".f32", 4) == 0)
            return live_after(fn, s, t) && in->ops[0].u.reg != t ? NULL : s;
        if (mentions(fn, s, t) || (a && mentions(fn, s, a)) || (opcode_flags(in->op) & OPF_BRANCH)) return NULL;
    }
    return NULL;
}

void sfu_find_single(Function *fn, const SfuOptions *o, Remarks *rm, SfuSite **v, int *n, int *cap)
{
    Stmt **paired = NULL;   /* rcp statements already taken by an rsqrt pair */
    int npaired = 0;
    FOR_EACH_BLOCK (b, fn)
        FOR_EACH_STMT (s, b) {
            if (s->kind != STMT_INSTR) continue;
            const Instr *in = &s->u.instr;
            if (in->op != OP_div && in->op != OP_rcp && in->op != OP_sqrt) continue;
            Str ty = instr_type(in);
            bool f32 = ty.len == 4 && memcmp(ty.p, ".f32", 4) == 0, f64 = ty.len == 4 && memcmp(ty.p, ".f64", 4) == 0;
            if (!f32 && !f64) continue;
            bool rn = instr_has_mod(in, ".rn"), full = in->op == OP_div && instr_has_mod(in, ".full");
            SfuKind k = in->op == OP_div ? SFU_DIV : in->op == OP_rcp ? SFU_RCP : SFU_SQRT;
            bool taken = false;
            for (int j = 0; j < npaired; j++) taken |= paired[j] == s;
            if (taken) continue;
            const char *dir = directed_rounding(in);
            if (dir) {
                if (o->kinds[k])
                    remark(rm, PASS, fn, s, REMARK_MISSED, "%.*s: explicit rounding mode %s left alone (it states intent)",
                           (int)in->full.len, in->full.p, dir);
                continue;
            }
            if (!rn && !(full && f32)) continue;   /* .approx already, or no rounding given */
            if (f64 && !o->f64) {
                if (o->kinds[k])
                    remark(rm, PASS, fn, s, REMARK_MISSED, "%.*s: f64 site left alone (f64=1 enables the gross "
                           "rcp/rsqrt.approx.ftz.f64 forms, about 20 bits)", (int)in->full.len, in->full.p);
                continue;
            }
            Stmt *partner = k == SFU_SQRT ? rsqrt_partner(fn, s, f64) : NULL;
            if (partner && !o->kinds[SFU_RSQRT]) partner = NULL;
            if (partner) k = SFU_RSQRT;
            if (!o->kinds[k]) continue;
            SfuSite *site = sfu_site_push(v, n, cap);
            site->kind = k;
            site->f64 = f64;
            site->ftz = instr_has_mod(in, ".ftz");
            site->first = s;
            site->last = partner ? partner : s;
            site->out_def = site->last;
            site->out = site->last->u.instr.ops[0].kind == OPND_REG ? site->last->u.instr.ops[0].u.reg : NULL;
            site->nin = k == SFU_DIV ? 2 : 1;
            for (int j = 0; j < site->nin; j++) site->in[j] = in->ops[1 + j];
            site->ninstr = partner ? 2 : 1;
            site->line = (int)s->line;
            if (partner) {
                paired = realloc(paired, sizeof *paired * (size_t)(npaired + 1));
                paired[npaired++] = partner;
            }
        }
    free(paired);
}
