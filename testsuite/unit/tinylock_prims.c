/* tinylock_prims.c — prints the tinylock primitive library for one
 * (target, .version) pair as a PTX module: one kernel per primitive the
 * pair allows, each built by the same emitters the pass uses
 * (opt/tinylock/primitives.c), so that testsuite/tinylock/primitives-*.test
 * can check every primitive with ptxas, FileCheck and nvdisasm.
 *
 *   tinylock_prims sm_XX X.Y [debug-spin [backoff]]
 *
 * Kernels: tl_flag (publish + wait on a shared flag), tl_mutex_shared and
 * tl_mutex_global (acquire-CAS + releasing store), tl_mbarrier (init,
 * arrive, wait; sm_80+/PTX 7.1+), tl_warplock (leader election +
 * bar.warp.sync; PTX 6.2+); a kernel the pair does not allow stays empty.  Below sm_70 or PTX 6.0 the legacy forms are printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/print.h"
#include "opt/tinylock/tinylock.h"
#include "parser/parse.h"

static Stmt *ret_of(Function *fn)
{
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b)
            if (s->kind == STMT_INSTR && str_eqc(s->u.instr.opname, "ret")) return s;
    return NULL;
}

static Reg *shared_addr(TlEmit *e, const char *sym)
{
    Reg *r = ir_fresh_reg(e->fn, ".b32");
    size_t n = strlen(sym);
    char *name = arena_alloc(&e->fn->mod->arena, n + 1); /* the IR keeps the pointer */
    memcpy(name, sym, n + 1);
    Stmt *s = ir_new_instr(e->fn, "mov.u32", 2);
    s->u.instr.ops[0] = ir_op_reg(r);
    s->u.instr.ops[1] = ir_op_sym(e->fn->mod, (Str){ name, n }, 0);
    ir_insert_before(e->at, s);
    return r;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: tinylock_prims sm_XX X.Y [debug-spin [backoff]]\n");
        return 2;
    }
    long dbg = argc > 3 ? atol(argv[3]) : 0, backoff = argc > 4 ? atol(argv[4]) : 0;
    char src[4096];
    int n = snprintf(src, sizeof src, ".version %s\n.target %s\n.address_size 64\n", argv[2], argv[1]);
    static const char *const kernels[] = { "tl_flag", "tl_mutex_shared", "tl_mutex_global", "tl_mbarrier", "tl_warplock" };
    for (int k = 0; k < 5; k++)
        n += snprintf(src + n, sizeof src - (size_t)n,
                      "\n.visible .entry %s(\n\t.param .u64 %s_p\n)\n{\n\t.shared .align 8 .b64 %s_word;\n"
                      "\t.reg .b64 %%rd<2>;\n\tld.param.u64 %%rd1, [%s_p];\n\tcvta.to.global.u64 %%rd1, %%rd1;\n\tret;\n}\n",
                      kernels[k], kernels[k], kernels[k], kernels[k]);
    char *buf = malloc((size_t)n + 2);
    memcpy(buf, src, (size_t)n);
    Module *m = parse_module("tinylock_prims.ptx", buf, (size_t)n, stderr);
    if (!m) return 1;
    TlTarget t = tl_target(m, 0);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Function *fn = m->funcs[i];
        TlEmit e = { .fn = fn, .at = ret_of(fn), .t = t, .debug_spin = dbg, .backoff = backoff };
        char word[64];
        snprintf(word, sizeof word, "%.*s_word", STR_FMT(fn->name));
        if (str_eqc(fn->name, "tl_flag")) {
            Reg *a = shared_addr(&e, word);
            tl_flag_publish(&e, a, 1);
            tl_flag_wait(&e, a, 1, NULL);
        } else if (str_eqc(fn->name, "tl_mutex_shared")) {
            Reg *a = shared_addr(&e, word);
            tl_mutex_acquire(&e, a, ".shared", "cta");
            tl_mutex_release(&e, a, ".shared", "cta");
        } else if (str_eqc(fn->name, "tl_mutex_global")) {
            tl_mutex_acquire(&e, ir_find_reg(fn, str_c("%rd1")), ".global", "gpu");
            tl_mutex_release(&e, ir_find_reg(fn, str_c("%rd1")), ".global", "gpu");
        } else if (str_eqc(fn->name, "tl_mbarrier")) {
            if (!t.mbarrier) continue;
            Reg *a = shared_addr(&e, word);
            tl_mbar_init(&e, a, 1);
            tl_mbar_arrive(&e, a);
            tl_mbar_wait(&e, a, 0);
        } else {
            if (!t.warp_sync) continue;
            Reg *a = shared_addr(&e, word), *mask, *leader;
            tl_warp_lock(&e, a, &mask, &leader);
            tl_warp_unlock(&e, a, mask, leader);
        }
    }
    OutBuf o;
    out_init(&o);
    print_module(&o, m, false);
    fwrite(o.p, 1, o.len, stdout);
    out_free(&o);
    ir_module_free(m);
    return 0;
}
