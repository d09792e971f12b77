/* module.c — module lifecycle and simple queries. */
#include <stdlib.h>

#include "ir/fatal.h"
#include "ir/ir.h"

Module *ir_module_new(const char *filename)
{
    Arena a;
    arena_init(&a);
    Module *m = arena_alloc(&a, sizeof(Module));
    m->arena = a;
    m->filename = arena_strndup(&m->arena, filename, strlen(filename));
    m->version_major = m->version_minor = -1;
    m->address_size = 64;
    return m;
}

void ir_module_free(Module *m)
{
    if (!m) return;
    char *buf = m->buf;
    if (m->analysis_drop) m->analysis_drop(m, NULL);
    modsyms_free(m->syms);
    Arena a = m->arena; /* the module itself lives in its arena */
    arena_free(&a);
    free(buf);
}

Stmt *ir_block_first_instr(Block *b)
{
    for (Stmt *s = b->first; s; s = s->next)
        if (s->kind == STMT_INSTR) return s;
    return NULL;
}

Stmt *ir_block_last_instr(Block *b)
{
    for (Stmt *s = b->last; s; s = s->prev)
        if (s->kind == STMT_INSTR) return s;
    return NULL;
}
