/* test_scopes.c — a register declared in a nested { } scope is a register
 * of its own (nvcc's inline-asm scopes redeclare %p1 and friends): inside
 * the scope the name means the inner register, outside the outer one. */
#include <stdio.h>

#include "parser/parse.h"

static int failures;
#define CHECK(cond, msg) do { if (!(cond)) { failures++; fprintf(stderr, "FAIL: %s\n", msg); } } while (0)

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: test_scopes Inputs/scopes.ptx\n"); return 2; }
    Module *m = parse_file(argv[1], stderr);
    if (!m) return 1;
    Function *fn = m->funcs[0];
    Stmt *setp[3] = { 0 }, *guarded_mov = NULL, *bra = NULL, *add = NULL;
    int n = 0;
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b) {
            if (s->kind != STMT_INSTR) continue;
            Instr *in = &s->u.instr;
            if (str_eqc(in->opname, "setp") && n < 3) setp[n++] = s;
            if (str_eqc(in->opname, "mov") && in->guard) guarded_mov = s;
            if (str_eqc(in->opname, "bra")) bra = s;
            if (str_eqc(in->opname, "add")) add = s;
        }
    CHECK(n == 3 && guarded_mov && bra && add, "instructions found");
    if (failures) return 1;
    Reg *outer_p1 = setp[0]->u.instr.ops[0].u.reg;
    Reg *scope1_p1 = setp[1]->u.instr.ops[0].u.reg;
    Reg *scope2_p1 = setp[2]->u.instr.ops[0].u.reg;
    CHECK(outer_p1 != scope1_p1 && scope1_p1 != scope2_p1 && outer_p1 != scope2_p1, "three distinct %p1 registers");
    CHECK(str_eqc(scope1_p1->name, "%p1") && str_eqc(scope2_p1->name, "%p1"), "shadowing registers keep their name");
    CHECK(guarded_mov->u.instr.guard == scope1_p1, "guard inside scope 1 means scope 1's %p1");
    CHECK(bra->u.instr.guard == outer_p1, "guard after the scopes means the outer %p1");
    /* %r1 inside scope 1 comes from its own %r<2>; outside, the outer %r<4> */
    Reg *outer_r1 = setp[0]->u.instr.ops[1].u.reg;
    Reg *scope_r1 = setp[1]->u.instr.ops[1].u.reg;
    CHECK(outer_r1 != scope_r1, "%r1 in scope 1 is the scope's own");
    CHECK(add->u.instr.ops[1].u.reg == outer_r1, "%r1 after the scope is the outer one");
    CHECK(guarded_mov->u.instr.ops[0].u.reg == scope_r1, "mov inside scope 1 writes the scope's %r1");
    CHECK(scope1_p1->id != outer_p1->id && fn->regs[scope1_p1->id] == scope1_p1, "dense ids");
    ir_module_free(m);
    if (failures) return 1;
    printf("scopes: all checks passed\n");
    return 0;
}
