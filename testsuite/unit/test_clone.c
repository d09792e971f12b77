/* test_clone.c — ir_clone_blocks (ir/clone.h): fresh labels, branches
 * inside the region retargeted, fall-through out of the region and out of
 * `after` made explicit, originals untouched, regions that cannot be
 * copied refused with nothing changed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/print.h"
#include "analysis/cfg.h"
#include "ir/clone.h"
#include "parser/parse.h"

static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static Module *parse_text(const char *text)
{
    size_t n = strlen(text);
    char *buf = malloc(n + 2);
    memcpy(buf, text, n);
    return parse_module("clone.ptx", buf, n, stderr);
}

static char *print(Module *m)
{
    OutBuf o;
    out_init(&o);
    print_module(&o, m, true);
    out_char(&o, 0);
    return o.p;
}

static Block *block_labelled(Function *fn, const char *label)
{
    FOR_EACH_BLOCK(b, fn)
        if (str_eqc(b->label, label)) return b;
    return NULL;
}

/* A counted loop, then a tail: the loop block is copied right after
 * itself (loop versioning's layout). */
static const char *loop_src =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_p)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, 0;\n"
    "$L_loop:\n"
    "\tadd.s32 %r1, %r1, 1;\n"
    "\tsetp.lt.s32 %p1, %r1, 10;\n"
    "\t@%p1 bra $L_loop;\n"
    "\tadd.s32 %r2, %r1, 3;\n"
    "\tret;\n}\n";

static const char *loop_expect =
    "\tmov.u32 %r1, 0;\n"
    "$L_loop:\n"
    "\tadd.s32 %r1, %r1, 1;\n"
    "\tsetp.lt.s32 %p1, %r1, 10;\n"
    "\t@%p1 bra $L_loop;\n"
    "\tbra $px_L0;\n"
    "$px_L1:\n"
    "\tadd.s32 %r1, %r1, 1;\n"
    "\tsetp.lt.s32 %p1, %r1, 10;\n"
    "\t@%p1 bra $px_L1;\n"
    "\tbra $px_L0;\n"
    "$px_L0:\n"
    "\tadd.s32 %r2, %r1, 3;\n"
    "\tret;\n}\n";

static void test_loop(void)
{
    Module *m = parse_text(loop_src);
    Function *fn = m->funcs[0];
    Block *loop = block_labelled(fn, "$L_loop");
    CHECK(loop && ir_block_falls_through(loop), "loop block");
    Stmt *setp = loop->first->next->next;
    CloneMap map;
    const char *why = NULL;
    Block *c = ir_clone_blocks(fn, loop, loop, loop, &map, &why);
    CHECK(c != NULL, "refused: %s", why ? why : "?");
    if (!c) return;
    CHECK(map.n == 1 && map.orig[0] == loop && map.copy[0] == c, "map");
    CHECK(clone_map_block(&map, loop) == c, "clone_map_block");
    Stmt *cs = clone_map_stmt(&map, setp);
    CHECK(cs && cs != setp && str_eqc(cs->u.instr.opname, "setp") && cs->block == c, "clone_map_stmt");
    CHECK(clone_map_block(&map, fn->first) == NULL, "a block outside the region has no copy");
    CHECK(fn->nblocks == 6, "blocks: %u", fn->nblocks);   /* + copy + two branch blocks */
    char *out = print(m);
    CHECK(strstr(out, loop_expect) != NULL, "loop clone printed:\n%s", out);
    free(out);
    /* the CFG sees the copy as a loop of its own, entered from nowhere */
    analysis_invalidate(fn);
    const Cfg *cfg = cfg_get(fn);
    uint32_t ci = cfg_block_index(cfg, c);
    CHECK(cfg_npred(cfg, ci) == 1, "the copy's only predecessor is its own back edge: %u", cfg_npred(cfg, ci));
    ir_module_free(m);
}

/* The region is copied to the end of the function; the block before
 * the tail falls into it, so the copy's exit needs an explicit branch and
 * `after` (the last block, ending in ret) needs none. */
static const char *tail_src =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k()\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tsetp.eq.s32 %p1, %r1, 0;\n"
    "\t@%p1 bra $L_b;\n"
    "\tadd.s32 %r1, %r1, 1;\n"
    "$L_b:\n"
    "\tadd.s32 %r2, %r1, 2;\n"
    "$L_c:\n"
    "\tret;\n}\n";

static void test_to_end(void)
{
    Module *m = parse_text(tail_src);
    Function *fn = m->funcs[0];
    Block *b1 = fn->first->next;          /* add %r1 (falls into $L_b) */
    Block *bb = block_labelled(fn, "$L_b");
    const char *why = NULL;
    CloneMap map;
    Block *c = ir_clone_blocks(fn, b1, bb, fn->last, &map, &why);
    CHECK(c != NULL, "refused: %s", why ? why : "?");
    if (!c) return;
    char *out = print(m);
    /* copy of b1 falls into the copy of $L_b; the copy of $L_b branches
     * back to $L_c; the original ret block gets nothing */
    const char *want =
        "$L_c:\n\tret;\n"
        "\tadd.s32 %r1, %r1, 1;\n"
        "$px_L0:\n\tadd.s32 %r2, %r1, 2;\n\tbra $L_c;\n}\n";
    CHECK(strstr(out, want) != NULL, "tail clone printed:\n%s", out);
    free(out);
    ir_module_free(m);
}

/* A body that falls off the end of the function: copied after itself,
 * the original must not run into the copy (an explicit ret), and the
 * copy, now last, falls off the end as the original did. */
static const char *falloff_src =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k()\n{\n"
    "\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, 0;\n"
    "$L_a:\n"
    "\tadd.s32 %r1, %r1, 1;\n}\n";

static void test_falloff(void)
{
    Module *m = parse_text(falloff_src);
    Function *fn = m->funcs[0];
    Block *a = block_labelled(fn, "$L_a");
    const char *why = NULL;
    CloneMap map;
    Block *c = a ? ir_clone_blocks(fn, a, a, a, &map, &why) : NULL;
    CHECK(c != NULL, "refused: %s", why ? why : "?");
    if (!c) return;
    char *out = print(m);
    const char *want = "$L_a:\n\tadd.s32 %r1, %r1, 1;\n\tret;\n$px_L0:\n\tadd.s32 %r1, %r1, 1;\n}\n";
    CHECK(strstr(out, want) != NULL, "fall-off clone printed:\n%s", out);
    free(out);
    ir_module_free(m);
}

static const char *brx_src =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k()\n{\n"
    "\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, 0;\n"
    "$L_t:\n"
    "\t.branchtargets $L_a, $L_b;\n"
    "\tbrx.idx %r1, $L_t;\n"
    "$L_a:\n\tret;\n"
    "$L_b:\n\tret;\n}\n";

static void test_refused(void)
{
    Module *m = parse_text(brx_src);
    Function *fn = m->funcs[0];
    char *before = print(m);
    uint32_t nb = fn->nblocks;
    const char *why = NULL;
    CloneMap map;
    Block *t = block_labelled(fn, "$L_t");
    CHECK(t != NULL, "no $L_t block");
    if (!t) return;
    Block *c = ir_clone_blocks(fn, t, t, fn->last, &map, &why);
    CHECK(c == NULL && why != NULL, "a label table must not be copied");
    char *after = print(m);
    CHECK(strcmp(before, after) == 0 && fn->nblocks == nb, "a refused clone changed the function");
    free(before);
    free(after);
    ir_module_free(m);
}

int main(void)
{
    test_loop();
    test_to_end();
    test_falloff();
    test_refused();
    if (failures) { fprintf(stderr, "%d failure(s)\n", failures); return 1; }
    puts("clone: ok");
    return 0;
}
