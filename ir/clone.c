/* clone.c — copy a region of blocks with fresh labels (see clone.h). */
#include <string.h>

#include "ir/clone.h"

bool ir_block_falls_through(const Block *b)
{
    Stmt *s = ir_block_last_instr((Block *)b);
    if (!s) return true;
    const Instr *in = &s->u.instr;
    if (in->guard) return true;
    uint32_t fl = opcode_info(in->op)->flags;
    if (in->op == OP_bra) return false;
    return !(fl & (OPF_RET | OPF_EXIT));
}

Str ir_block_label(Block *b)
{
    if (b->label.len) return b->label;
    Str name = ir_fresh_label(b->fn);
    Stmt *l = ir_new_label(b->fn, name);
    if (b->first) ir_insert_before(b->first, l); else ir_append(b, l);
    b->label = name;
    return name;
}

/* Makes b's fall-through explicit: `bra target` (or `ret` when b falls off
 * the end of the function: target empty) at its end, or in a new block
 * right after it when b already ends in a (guarded) terminator, since a
 * terminator must be the last instruction of its block. */
static void add_fallthrough_branch(Block *b, Str target)
{
    Function *fn = b->fn;
    Stmt *br = ir_new_instr(fn, target.len ? "bra" : "ret", target.len ? 1 : 0);
    if (target.len) br->u.instr.ops[0] = ir_op_sym(fn->mod, target, 0);
    Stmt *last = ir_block_last_instr(b);
    if (!last || !(opcode_info(last->u.instr.op)->flags & OPF_TERMINATOR)) {
        ir_append(b, br);
        return;
    }
    ir_append(ir_new_block_after(b), br);
}

/* Why a statement keeps its region from being copied, or NULL. */
static const char *uncopyable(const Stmt *s)
{
    switch (s->kind) {
    case STMT_DECL: return "it declares a name (it would be declared twice)";
    case STMT_SCOPE_OPEN: case STMT_SCOPE_CLOSE: return "it opens or closes a { } scope";
    case STMT_VERBATIM: return "it holds text the parser kept verbatim";
    case STMT_DIRECTIVE:
        if (s->dirkind == DIR_BRANCHTARGETS || s->dirkind == DIR_CALLTARGETS || s->dirkind == DIR_CALLPROTOTYPE)
            return "it holds a label table (.branchtargets/.calltargets/.callprototype)";
        return NULL;
    case STMT_INSTR:
        if (s->u.instr.op == OP_brx) return "it has an indirect branch (brx.idx)";
        return NULL;
    default: return NULL;
    }
}

/* Deep copy of an operand tree (the copy must be free to change alone). */
static Operand copy_operand(Arena *a, const Operand *o)
{
    Operand c = *o;
    if ((o->kind == OPND_ADDR || o->kind == OPND_VEC || o->kind == OPND_LIST || o->kind == OPND_PAIR) && o->n) {
        Operand *e = ARENA_ARRAY(a, Operand, o->n);
        for (int i = 0; i < o->n; i++) e[i] = copy_operand(a, &o->u.elems[i]);
        c.u.elems = e;
    }
    return c;
}

static int region_index(const CloneMap *map, const Block *b)
{
    for (uint32_t i = 0; i < map->n; i++)
        if (map->orig[i] == b) return (int)i;
    return -1;
}

Block *clone_map_block(const CloneMap *map, const Block *orig)
{
    int i = region_index(map, orig);
    return i < 0 ? NULL : map->copy[i];
}

Stmt *clone_map_stmt(const CloneMap *map, const Stmt *orig)
{
    int i = orig->block ? region_index(map, orig->block) : -1;
    if (i < 0) return NULL;
    /* copies keep the statement order of their block (labels first) */
    Stmt *c = map->copy[i]->first;
    for (Stmt *s = map->orig[i]->first; s && c; s = s->next, c = c->next)
        if (s == orig) return c;
    return NULL;
}

typedef struct LabelPair { Str from, to; } LabelPair;

Block *ir_clone_blocks(Function *fn, Block *first, Block *last, Block *after,
                       CloneMap *map, const char **why)
{
    Arena *a = &fn->mod->arena;
    const char *dummy;
    if (!why) why = &dummy;
    *why = NULL;

    /* the region, and whether it can be copied */
    uint32_t n = 0;
    for (Block *b = first;; b = b->next) {
        if (!b) { *why = "the region's blocks are not contiguous in layout"; return NULL; }
        FOR_EACH_STMT(s, b)
            if ((*why = uncopyable(s))) return NULL;
        n++;
        if (b == last) break;
    }
    map->n = n;
    map->orig = ARENA_ARRAY(a, Block *, n);
    map->copy = ARENA_ARRAY(a, Block *, n);
    uint32_t nlabels = 0, i = 0;
    for (Block *b = first;; b = b->next) {
        map->orig[i++] = b;
        FOR_EACH_STMT(s, b) nlabels += s->kind == STMT_LABEL;
        if (b == last) break;
    }

    /* Fall-through edges become explicit branches where the copies would
     * come between a block and its layout successor: out of the copy of
     * `last`, and out of `after`.  Labels are added before copying, so a
     * label added to a region block is copied (and renamed) with it. */
    bool last_falls = ir_block_falls_through(last);
    if (last_falls && !last->next && after != fn->last) {
        *why = "the region runs off the end of the function";
        return NULL;
    }
    Str last_target = last_falls && last->next ? ir_block_label(last->next) : (Str){ 0 };
    /* `after` at the end of the function falling off it: a ret keeps it
     * from running into the copies */
    bool after_falls = ir_block_falls_through(after);
    Str after_target = after_falls && after->next ? ir_block_label(after->next) : (Str){ 0 };

    /* fresh labels */
    LabelPair *labels = ARENA_ARRAY(a, LabelPair, nlabels ? nlabels : 1);
    uint32_t nl = 0;
    for (i = 0; i < n; i++)
        FOR_EACH_STMT(s, map->orig[i])
            if (s->kind == STMT_LABEL) labels[nl++] = (LabelPair){ s->u.label, ir_fresh_label(fn) };

    /* the copies */
    for (i = 0; i < n; i++) {
        Block *o = map->orig[i];
        Block *c = ARENA_NEW(a, Block);
        c->fn = fn;
        map->copy[i] = c;
        FOR_EACH_STMT(s, o) {
            Stmt *t = ARENA_NEW(a, Stmt);
            *t = *s;
            t->prev = t->next = NULL;
            if (s->kind == STMT_LABEL) {
                for (uint32_t k = 0; k < nl; k++)
                    if (str_eq(labels[k].from, s->u.label)) t->u.label = labels[k].to;
                t->dirty = true;
            } else if (s->kind == STMT_INSTR) {
                Instr *in = &t->u.instr;
                if (in->nops) {
                    in->ops = ARENA_ARRAY(a, Operand, in->nops);
                    for (int k = 0; k < in->nops; k++) in->ops[k] = copy_operand(a, &s->u.instr.ops[k]);
                }
                if (in->op == OP_bra)
                    for (int k = 0; k < in->nops; k++) {
                        Operand *op = &in->ops[k];
                        if (op->kind != OPND_SYM) continue;
                        for (uint32_t m = 0; m < nl; m++)
                            if (str_eq(labels[m].from, opnd_text(op))) {
                                *op = ir_op_sym(fn->mod, labels[m].to, 0);
                                t->dirty = true;
                            }
                    }
            } else if (s->kind == STMT_DIRECTIVE && s->dirkind == DIR_LOC) {
                /* kept as written: the copy has the same source position */
            }
            ir_append(c, t);
        }
        c->label = (Str){ 0 };
        if (c->first && c->first->kind == STMT_LABEL) c->label = c->first->u.label;
    }
    /* link the copies after `after` */
    Block *next = after->next;
    Block *prev = after;
    for (i = 0; i < n; i++) {
        Block *c = map->copy[i];
        c->prev = prev;
        prev->next = c;
        prev = c;
    }
    prev->next = next;
    if (next) next->prev = prev; else fn->last = prev;
    /* copies stay in order, so only the copy of `last` can fall out */
    if (last_target.len) add_fallthrough_branch(map->copy[n - 1], last_target);
    if (after_falls) add_fallthrough_branch(after, after_target);
    ir_renumber_blocks(fn);
    return map->copy[0];
}
