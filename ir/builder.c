/* builder.c — the small API passes use to change a function (see ir.h).
 * Everything a pass creates is marked dirty and printed canonically; fresh
 * registers are declared by the printer at the top of the function. */
#include <stdio.h>

#include "ir/fatal.h"
#include "ir/ir.h"
#include "ir/regs.h"

Reg *ir_find_reg(Function *fn, Str name) { return regs_lookup(fn, name); }

Reg *ir_fresh_reg(Function *fn, const char *type)
{
    Arena *a = &fn->mod->arena;
    /* %ptxopt_<class><n>: cannot collide with a declared name or range */
    const char *t = type[0] == '.' ? type + 1 : type;
    for (;;) {
        char *name = arena_printf(a, "%%px_%s_%u", t, fn->fresh_counter++);
        Str s = str_c(name);
        if (regs_name_taken(fn, s)) continue;
        Reg *r = regs_add_fresh(fn, s, str_c(arena_strndup(a, type, strlen(type))));
        fn->nfresh++;
        return r;
    }
}

void ir_fresh_reg_range(Function *fn, const char *type, uint32_t n, Reg **out)
{
    Arena *a = &fn->mod->arena;
    const char *t = type[0] == '.' ? type + 1 : type;
    Str base;
    for (;;) {
        base = str_c(arena_printf(a, "%%px_%s_r%u_", t, fn->fresh_counter++));
        if (!regs_name_taken(fn, base)) break;
    }
    Str ty = str_c(arena_strndup(a, type, strlen(type)));
    regs_declare(fn, base, ty, 0, (int32_t)n);
    /* `.reg TYPE BASE<n>;` after the function's declarations */
    Decl *d = ARENA_NEW(a, Decl);
    d->space = STR_LIT(".reg");
    d->type = ty;
    d->ndecl = 1;
    d->decls = ARENA_NEW(a, Declarator);
    d->decls[0] = (Declarator){ base, (int32_t)n, 0, { 0 } };
    d->ntok = 6;
    d->tok = ARENA_ARRAY(a, Token, 6);
    d->tok[0] = (Token){ STR_LIT(".reg"), TOKK_DOTWORD };
    d->tok[1] = (Token){ ty, TOKK_DOTWORD };
    d->tok[2] = (Token){ base, TOKK_REG };
    d->tok[3] = (Token){ STR_LIT("<"), TOKK_PUNCT };
    d->tok[4] = (Token){ str_c(arena_printf(a, "%u", n)), TOKK_INT };
    d->tok[5] = (Token){ STR_LIT(">"), TOKK_PUNCT };
    Stmt *s = ARENA_NEW(a, Stmt);
    s->kind = STMT_DECL;
    s->dirty = true;
    s->u.decl = d;
    Block *b = fn->first;
    Stmt *after = NULL;
    FOR_EACH_STMT(x, b)
        if (x->kind == STMT_DECL) after = x;
    if (after) ir_insert_after(after, s);
    else if (b->first) ir_insert_before(b->first, s);
    else ir_append(b, s);
    for (uint32_t i = 0; i < n; i++)
        out[i] = regs_lookup(fn, str_c(arena_printf(a, "%.*s%u", (int)base.len, base.p, i)));
}

static bool label_taken(Function *fn, Str name)
{
    FOR_EACH_BLOCK(b, fn)
        if (str_eq(b->label, name)) return true;
    return false;
}

Str ir_fresh_label(Function *fn)
{
    for (;;) {
        char *name = arena_printf(&fn->mod->arena, "$px_L%u", fn->fresh_counter++);
        Str s = str_c(name);
        if (!label_taken(fn, s)) return s;
    }
}

Stmt *ir_new_instr(Function *fn, const char *full, int nops)
{
    Arena *a = &fn->mod->arena;
    Stmt *s = ARENA_NEW(a, Stmt);
    s->kind = STMT_INSTR;
    s->dirty = true;
    ir_set_full(fn->mod, &s->u.instr, full);
    s->u.instr.nops = (uint8_t)nops;
    s->u.instr.ops = ARENA_ARRAY(a, Operand, nops ? nops : 1);
    return s;
}

void ir_set_full(Module *m, Instr *in, const char *full)
{
    size_t n = strlen(full);
    in->full = (Str){ arena_strndup(&m->arena, full, n), n };
    const char *dot = memchr(in->full.p, '.', n);
    in->opname = (Str){ in->full.p, dot ? (size_t)(dot - in->full.p) : n };
    in->op = opcode_lookup(in->opname.p, in->opname.len);
}

Stmt *ir_new_label(Function *fn, Str name)
{
    Stmt *s = ARENA_NEW(&fn->mod->arena, Stmt);
    s->kind = STMT_LABEL;
    s->dirty = true;
    s->u.label = name;
    return s;
}

Operand ir_op_reg(Reg *r) { return (Operand){ .kind = OPND_REG, .u.reg = r }; }

Operand ir_op_int(Module *m, int64_t v)
{
    (void)m;
    return (Operand){ .kind = OPND_INT, .value = v };
}

Operand ir_op_sym(Module *m, Str name, int64_t off)
{
    (void)m;
    return (Operand){ .kind = OPND_SYM, .text = name.p, .textlen = (uint32_t)name.len, .value = off };
}

Operand ir_op_addr(Module *m, Operand base, int64_t off)
{
    Operand *e = ARENA_NEW(&m->arena, Operand);
    *e = base;
    e->value = 0;
    return (Operand){ .kind = OPND_ADDR, .n = 1, .u.elems = e, .value = off };
}

Operand ir_op_vec(Module *m, const Operand *elems, int n)
{
    Operand *e = ARENA_ARRAY(&m->arena, Operand, n ? n : 1);
    memcpy(e, elems, sizeof(Operand) * (size_t)n);
    return (Operand){ .kind = OPND_VEC, .n = (uint8_t)n, .u.elems = e };
}

Operand ir_op_pair(Module *m, Operand a, Operand b)
{
    Operand *e = ARENA_ARRAY(&m->arena, Operand, 2);
    e[0] = a;
    e[1] = b;
    return (Operand){ .kind = OPND_PAIR, .n = 2, .u.elems = e };
}

Operand ir_op_sink(void) { return (Operand){ .kind = OPND_SINK }; }

Operand ir_op_special(Function *fn, const char *name, char comp)
{
    Reg *r = regs_lookup(fn, str_c(name));
    if (!r || !r->special) fatal_internal("ir_op_special: '%s' is not a special register", name);
    return (Operand){ .kind = OPND_REG, .u.reg = r, .comp = comp };
}

static void link_between(Block *b, Stmt *prev, Stmt *s, Stmt *next)
{
    s->block = b;
    s->prev = prev;
    s->next = next;
    if (prev) prev->next = s; else b->first = s;
    if (next) next->prev = s; else b->last = s;
}

void ir_insert_before(Stmt *pos, Stmt *s) { link_between(pos->block, pos->prev, s, pos); }
void ir_insert_after(Stmt *pos, Stmt *s) { link_between(pos->block, pos, s, pos->next); }
void ir_append(Block *b, Stmt *s) { link_between(b, b->last, s, NULL); }

void ir_remove(Stmt *s)
{
    Block *b = s->block;
    if (s->prev) s->prev->next = s->next; else b->first = s->next;
    if (s->next) s->next->prev = s->prev; else b->last = s->prev;
    s->prev = s->next = NULL;
    s->block = NULL;
}

void ir_touch(Stmt *s) { s->dirty = true; }

Block *ir_new_block_after(Block *b)
{
    Function *fn = b->fn;
    Block *nb = ARENA_NEW(&fn->mod->arena, Block);
    nb->fn = fn;
    nb->prev = b;
    nb->next = b->next;
    if (b->next) b->next->prev = nb; else fn->last = nb;
    b->next = nb;
    return nb;
}

Block *ir_split_block_before(Stmt *s)
{
    Block *old = s->block;
    Function *fn = old->fn;
    Block *nb = ir_new_block_after(old);
    nb->first = s;
    nb->last = old->last;
    old->last = s->prev;
    if (s->prev) s->prev->next = NULL; else old->first = NULL;
    s->prev = NULL;
    for (Stmt *t = s; t; t = t->next) t->block = nb;
    if (s->kind == STMT_LABEL) nb->label = s->u.label;
    fn->nblocks++;
    ir_renumber_blocks(fn);
    return nb;
}

void ir_renumber_blocks(Function *fn)
{
    uint32_t id = 0;
    FOR_EACH_BLOCK(b, fn) b->id = id++;
    fn->nblocks = id;
}

void ir_set_version(Module *m, int major, int minor)
{
    m->version_major = major;
    m->version_minor = minor;
    for (Stmt *s = m->first; s; s = s->next)
        if (s->kind == STMT_DIRECTIVE && s->dirkind == DIR_VERSION) {
            char *t = arena_printf(&m->arena, ".version %d.%d", major, minor);
            s->u.dir.tok[0].text = str_c(t);
            s->dirty = true;
            return;
        }
}

void ir_set_target(Module *m, const char *name, int sm)
{
    m->target_sm = sm;
    for (Stmt *s = m->first; s; s = s->next) {
        if (s->kind != STMT_DIRECTIVE || s->dirkind != DIR_TARGET) continue;
        Str t = m->target;
        const char *p = t.p, *end = t.p + t.len, *sm_at = NULL;
        for (const char *q = p; q + 3 <= end; q++)
            if (memcmp(q, "sm_", 3) == 0) { sm_at = q; break; }
        char *text;
        if (sm_at) {
            const char *sm_end = sm_at;
            while (sm_end < end && *sm_end != ',' && *sm_end != ' ' && *sm_end != '\t') sm_end++;
            text = arena_printf(&m->arena, ".target %.*s%s%.*s", (int)(sm_at - p), p, name, (int)(end - sm_end), sm_end);
        } else {
            text = arena_printf(&m->arena, ".target %s", name);
        }
        s->u.dir.tok[0].text = str_c(text);
        s->dirty = true;
    }
}
