/* llvm_mirror.c — an independent check of our CFG, dominators and SSA
 * overlay: each function is mirrored into an LLVM function (one basic block
 * per block plus an entry and an exit block; every SSA value an i64 made by
 * a call that takes the values the instruction reads; every merge an LLVM
 * phi with one incoming value per predecessor; terminators from our
 * successor lists) and LLVM's verifier, which computes its own dominator
 * tree, checks that every read is dominated by its value and that every phi
 * matches its block's predecessors.  ssa_check() runs too. */
#include "config.h"
#include "analysis/internal.h"

#ifdef HAVE_LLVM
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>

typedef struct Mirror {
    Function *fn;
    const Cfg *c;
    const Ssa *s;
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef bld;
    LLVMTypeRef i64, i32, valty, condty;
    LLVMValueRef valfn, condfn, f;
    LLVMBasicBlockRef *bb;    /* [n + 2]: blocks, exit (n), entry (n + 1) */
    LLVMValueRef *val;        /* [nvalues] */
    int problems;
    FILE *err;
} Mirror;

static void value_name(Mirror *m, SsaValue v, char *buf, size_t cap)
{
    ssa_value_name(m->s, v, buf, cap);
    if (buf[0] == '%') memmove(buf, buf + 1, strlen(buf));
    for (char *p = buf; *p; p++)
        if (*p == '#') *p = '.';
}

static LLVMValueRef get_value(Mirror *m, SsaValue v, uint32_t b)
{
    if (m->val[v]) return m->val[v];
    if (cfg_reachable(m->c, b)) {
        char n1[64], n2[64];
        if (m->err)
            fprintf(m->err, "%.*s: block %s: %s is read before the block that defines it in reverse postorder\n",
                    STR_FMT(m->fn->name), cfg_block_name(m->c, b, n1, sizeof n1),
                    ssa_value_name(m->s, v, n2, sizeof n2));
        m->problems++;
    }
    return LLVMConstInt(m->i64, 0, 0);
}

static void build_block(Mirror *m, uint32_t b)
{
    const Cfg *c = m->c;
    const Ssa *s = m->s;
    LLVMPositionBuilderAtEnd(m->bld, m->bb[b]);
    for (uint32_t i = c->block_instr[b]; i < c->block_instr[b + 1]; i++) {
        uint32_t nu = s->use_start[i + 1] - s->use_start[i];
        LLVMValueRef *args = xmalloc(sizeof(LLVMValueRef) * (nu + 1));
        args[0] = LLVMConstInt(m->i64, i, 0);
        for (uint32_t k = 0; k < nu; k++) args[k + 1] = get_value(m, s->uses[s->use_start[i] + k].value, b);
        if (s->def_start[i] == s->def_start[i + 1]) {
            LLVMBuildCall2(m->bld, m->valty, m->valfn, args, nu + 1, "");
        }
        for (uint32_t k = s->def_start[i]; k < s->def_start[i + 1]; k++) {
            char name[80];
            value_name(m, s->defs[k], name, sizeof name);
            m->val[s->defs[k]] = LLVMBuildCall2(m->bld, m->valty, m->valfn, args, nu + 1, name);
        }
        free(args);
    }
    uint32_t ns = cfg_nsucc(c, b);
    const uint32_t *sc = cfg_succs(c, b);
    if (ns == 1) {
        LLVMBuildBr(m->bld, m->bb[sc[0]]);
    } else if (ns == 0) {
        LLVMBuildBr(m->bld, m->bb[c->n]);
    } else {
        LLVMValueRef cond = LLVMBuildCall2(m->bld, m->condty, m->condfn, NULL, 0, "cond");
        LLVMValueRef sw = LLVMBuildSwitch(m->bld, cond, m->bb[sc[0]], ns - 1);
        for (uint32_t k = 1; k < ns; k++) LLVMAddCase(sw, LLVMConstInt(m->i32, k, 0), m->bb[sc[k]]);
    }
}

static int mirror_function(Function *fn, LLVMContextRef ctx, FILE *err)
{
    Mirror m = { 0 };
    m.fn = fn;
    m.c = cfg_get(fn);
    m.s = ssa_get(fn);
    m.ctx = ctx;
    m.err = err;
    const Cfg *c = m.c;
    const Ssa *s = m.s;
    uint32_t n = c->n;
    char *fname = arena_printf(ana_arena(fn), "%.*s", STR_FMT(fn->name));
    m.mod = LLVMModuleCreateWithNameInContext(fname, ctx);
    m.bld = LLVMCreateBuilderInContext(ctx);
    m.i64 = LLVMInt64TypeInContext(ctx);
    m.i32 = LLVMInt32TypeInContext(ctx);
    m.valty = LLVMFunctionType(m.i64, NULL, 0, 1);
    m.condty = LLVMFunctionType(m.i32, NULL, 0, 0);
    m.valfn = LLVMAddFunction(m.mod, "value", m.valty);
    m.condfn = LLVMAddFunction(m.mod, "cond", m.condty);
    m.f = LLVMAddFunction(m.mod, fname, LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, 0));
    m.bb = xcalloc(n + 2, sizeof(LLVMBasicBlockRef));
    m.val = xcalloc(s->nvalues + 1, sizeof(LLVMValueRef));
    m.bb[n + 1] = LLVMAppendBasicBlockInContext(ctx, m.f, "entry");
    for (uint32_t b = 0; b < n; b++) {
        char name[96], lab[64];
        snprintf(name, sizeof name, "bb%u.%s", b, cfg_block_name(c, b, lab, sizeof lab));
        m.bb[b] = LLVMAppendBasicBlockInContext(ctx, m.f, name);
    }
    m.bb[n] = LLVMAppendBasicBlockInContext(ctx, m.f, "exit");
    /* entry values, then the branch to the first block */
    LLVMPositionBuilderAtEnd(m.bld, m.bb[n + 1]);
    for (uint32_t v = 0; v < s->nvars; v++) {
        char name[80];
        value_name(&m, v, name, sizeof name);
        LLVMValueRef arg = LLVMConstInt(m.i64, v, 0);
        m.val[v] = LLVMBuildCall2(m.bld, m.valty, m.valfn, &arg, 1, name);
    }
    LLVMBuildBr(m.bld, n ? m.bb[0] : m.bb[n]);
    LLVMPositionBuilderAtEnd(m.bld, m.bb[n]);
    LLVMBuildRetVoid(m.bld);
    /* merges first (they may be read before their block is built) */
    for (uint32_t b = 0; b < n; b++) {
        LLVMPositionBuilderAtEnd(m.bld, m.bb[b]);
        for (uint32_t k = s->phi_start[b]; k < s->phi_start[b + 1]; k++) {
            char name[80];
            value_name(&m, s->phis[k], name, sizeof name);
            m.val[s->phis[k]] = LLVMBuildPhi(m.bld, m.i64, name);
        }
    }
    for (uint32_t r = 0; r < c->nrpo; r++) build_block(&m, c->rpo[r]);
    for (uint32_t b = 0; b < n; b++)
        if (!cfg_reachable(c, b)) build_block(&m, b);
    for (uint32_t b = 0; b < n; b++)
        for (uint32_t k = s->phi_start[b]; k < s->phi_start[b + 1]; k++) {
            const SsaVal *p = &s->v[s->phis[k]];
            for (uint32_t j = 0; j < p->nargs; j++) {
                bool from_entry = j >= cfg_npred(c, b);
                uint32_t pred = from_entry ? n + 1 : cfg_preds(c, b)[j];
                LLVMValueRef v = from_entry ? m.val[p->args[j]] : get_value(&m, p->args[j], pred);
                LLVMBasicBlockRef pb = m.bb[pred];
                LLVMAddIncoming(m.val[s->phis[k]], &v, &pb, 1);
            }
        }
    char *msg = NULL;
    if (LLVMVerifyModule(m.mod, LLVMReturnStatusAction, &msg)) {
        m.problems++;
        if (err) {
            fprintf(err, "%.*s: LLVM verifier disagrees with the CFG/SSA overlay:\n", STR_FMT(fn->name));
            /* quote the first lines: they name the block and the values */
            int lines = 0;
            for (char *p = msg; p && *p && lines < 12; lines++) {
                char *nl = strchr(p, '\n');
                fprintf(err, "  %.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
                p = nl ? nl + 1 : NULL;
            }
        }
    }
    if (msg) LLVMDisposeMessage(msg);
    LLVMDisposeBuilder(m.bld);
    LLVMDisposeModule(m.mod);
    free(m.bb);
    free(m.val);
    return m.problems;
}
#endif

int analysis_verify_llvm(Module *m, FILE *err)
{
#ifdef HAVE_LLVM
    int problems = 0;
    LLVMContextRef ctx = LLVMContextCreate();
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Function *fn = m->funcs[i];
        if (!fn->has_body) continue;
        problems += ssa_check(fn, err);
        problems += mirror_function(fn, ctx, err);
    }
    LLVMContextDispose(ctx);
    return problems;
#else
    (void)m;
    if (err) fprintf(err, "ptxopt: --verify-ir is unavailable: built without LLVM (configure --with-llvm)\n");
    return -1;
#endif
}
