/* test_builder.c — the builder API passes use (ir.h): insert, remove,
 * touch, fresh registers and labels, block splitting, and how the printer
 * shows each change (untouched text stays byte-identical). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/print.h"
#include "parser/parse.h"

static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static const char *src =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry k(\n"
    "\t.param .u64 k_param_0\n"
    ")\n"
    "{\n"
    "\t.reg .b32 \t%r<3>;\n"
    "\t.reg .b32 \t%px_b32_0;   // a user register with a name fresh registers must avoid\n"
    "\n"
    "\tmov.u32 \t%r1, %tid.x;   // keep this comment\n"
    "\tret;\n"
    "}\n";

static Module *parse_text(const char *text)
{
    size_t n = strlen(text);
    char *buf = malloc(n + 2);
    memcpy(buf, text, n);
    return parse_module("builder.ptx", buf, n, stderr);
}

static char *print(Module *m, bool canonical)
{
    OutBuf o;
    out_init(&o);
    print_module(&o, m, canonical);
    out_char(&o, 0);
    return o.p;
}

static Stmt *find_instr(Function *fn, const char *opname)
{
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b)
            if (s->kind == STMT_INSTR && str_eqc(s->u.instr.opname, opname)) return s;
    return NULL;
}

int main(void)
{
    /* unchanged: byte-identical */
    Module *m = parse_text(src);
    CHECK(m != NULL, "parse failed");
    if (!m) return 1;
    char *out = print(m, false);
    CHECK(strcmp(out, src) == 0, "unchanged module not reproduced:\n%s", out);
    free(out);

    Function *fn = m->funcs[0];
    CHECK(fn->nblocks == 1, "blocks: %u", fn->nblocks);

    /* a fresh register avoids %px_b32_0, which the user declared */
    Reg *r = ir_fresh_reg(fn, ".b32");
    CHECK(!str_eqc(r->name, "%px_b32_0"), "fresh register collides: %.*s", STR_FMT(r->name));
    CHECK(ir_find_reg(fn, r->name) == r, "fresh register not found by name");

    /* insert "add.s32 %fresh, %r1, 1;" after the mov */
    Stmt *mov = find_instr(fn, "mov");
    Stmt *add = ir_new_instr(fn, "add.s32", 3);
    add->u.instr.ops[0] = ir_op_reg(r);
    add->u.instr.ops[1] = mov->u.instr.ops[0];
    add->u.instr.ops[2] = ir_op_int(m, 1);
    ir_insert_after(mov, add);
    CHECK(add->block == mov->block && mov->next == add, "insert_after links");
    CHECK(add->u.instr.op == opcode_lookup("add", 3), "opcode of new instruction");

    /* touch the mov: canonical text, original leading whitespace */
    ir_touch(mov);
    out = print(m, false);
    const char *expect =
        ".version 8.0\n"
        ".target sm_80\n"
        ".address_size 64\n"
        "\n"
        ".visible .entry k(\n"
        "\t.param .u64 k_param_0\n"
        ")\n"
        "{\n"
        "\t.reg .b32 %px_b32_1;\n"
        "\t.reg .b32 \t%r<3>;\n"
        "\t.reg .b32 \t%px_b32_0;   // a user register with a name fresh registers must avoid\n"
        "\n"
        "\tmov.u32 %r1, %tid.x;\n"
        "\tadd.s32 %px_b32_1, %r1, 1;   // keep this comment\n"
        "\tret;\n"
        "}\n";
    CHECK(strcmp(out, expect) == 0, "after insert/touch:\n%s\n--- expected:\n%s", out, expect);
    free(out);

    /* a fresh label and a block split before ret */
    Stmt *ret = find_instr(fn, "ret");
    Str l = ir_fresh_label(fn);
    Stmt *lab = ir_new_label(fn, l);
    Block *nb = ir_split_block_before(ret);
    ir_insert_before(ret, lab);
    nb->label = l;
    CHECK(fn->nblocks == 2 && nb->id == 1, "split: %u blocks, id %u", fn->nblocks, nb->id);
    CHECK(nb->first == lab && lab->next == ret, "label starts the new block");

    /* remove the add again */
    ir_remove(add);
    CHECK(mov->next == NULL && fn->first->last == mov, "remove unlinks");
    out = print(m, true);
    const char *canon =
        ".version 8.0\n"
        ".target sm_80\n"
        ".address_size 64\n"
        "\n"
        ".visible .entry k(\n"
        "\t.param .u64 k_param_0\n"
        ")\n"
        "{\n"
        "\t.reg .b32 %px_b32_1;\n"
        "\t.reg .b32 %r<3>;\n"
        "\t.reg .b32 %px_b32_0;\n"
        "\tmov.u32 %r1, %tid.x;\n";
    CHECK(strncmp(out, canon, strlen(canon)) == 0, "canonical prefix:\n%s", out);
    CHECK(strstr(out, "$px_L") && strstr(out, ":\n\tret;\n}\n"), "canonical label before ret:\n%s", out);
    free(out);

    /* modifier queries */
    Stmt *ld = ir_new_instr(fn, "ld.global.nc.v4.f32", 0);
    Instr *in = &ld->u.instr;
    CHECK(instr_nmods(in) == 4, "nmods %d", instr_nmods(in));
    CHECK(str_eqc(instr_mod(in, 1), ".nc"), "mod 1");
    CHECK(instr_has_mod(in, ".v4") && !instr_has_mod(in, ".v2"), "has_mod");
    CHECK(str_eqc(instr_type(in), ".f32"), "type");
    CHECK(str_eqc(instr_space(in), ".global"), "space");
    ir_set_full(m, in, "ld.shared::cta.u32");
    CHECK(str_eqc(instr_space(in), ".shared::cta") && str_eqc(in->opname, "ld"), "space with ::");

    /* version edit */
    ir_set_version(m, 8, 3);
    out = print(m, false);
    CHECK(strncmp(out, ".version 8.3\n.target sm_80\n", 27) == 0, "version:\n%.40s", out);
    free(out);

    ir_module_free(m);
    if (failures) { fprintf(stderr, "%d failure(s)\n", failures); return 1; }
    printf("builder: all checks passed\n");
    return 0;
}
