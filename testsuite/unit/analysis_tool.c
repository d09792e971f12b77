/* analysis_tool.c — drives the analyses' two command-line entry points
 * before they are wired into ptxopt:
 *
 *   analysis_tool dump WHAT FILE [--kernel=K] [--format=text|dot]
 *   analysis_tool verify FILE...
 *   analysis_tool alias FILE [--kernel=K]
 *   analysis_tool shift FILE --kernel=K iA iB [N]
 *
 * dump prints analysis_dump()'s output; verify runs analysis_verify_llvm()
 * on every file and prints "FILE: N functions verified" or the
 * disagreements.  alias prints memory_alias() for every pair of accesses
 * of which one writes.  shift asks the shuffle question for the address
 * terms of instructions A and B: is A[%tid.x := %tid.x + N] == B for all
 * inputs (N solved on the affine parts when not given, then proved with
 * Z3).  Exit status: 0 ok, 1 disagreements or unparsable input,
 * 2 usage, 77 when LLVM is unavailable (verify). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "analysis/dump.h"
#include "analysis/llvm_mirror.h"
#include "analysis/memory.h"
#include "analysis/terms.h"
#include "analysis/value_terms.h"
#include "analysis/z3bridge.h"
#include "parser/parse.h"

static int usage(void)
{
    fprintf(stderr, "usage: analysis_tool dump WHAT FILE [--kernel=K] [--format=text|dot]\n"
                    "       analysis_tool verify FILE...\n"
                    "       analysis_tool alias FILE [--kernel=K]\n"
                    "       analysis_tool shift FILE --kernel=K iA iB [N]\n");
    return 2;
}

static Function *find(Module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i]->has_body && str_eqc(m->funcs[i]->name, name)) return m->funcs[i];
    return NULL;
}

static int alias(Module *m, const char *kernel)
{
    static const char *const names[] = { "no", "may", "must" };
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        Function *fn = m->funcs[f];
        if (!fn->has_body || (kernel && !str_eqc(fn->name, kernel))) continue;
        const MemInfo *mi = memory_get(fn);
        printf("alias %.*s:", STR_FMT(fn->name));
        for (uint32_t p = 0; p < mi->nparams; p++)
            if (mi->param_readonly[p]) printf(" read-only param %u", p);
        printf("\n");
        for (uint32_t a = 0; a < mi->nacc; a++)
            for (uint32_t b = a + 1; b < mi->nacc; b++) {
                const MemAccess *A = &mi->acc[a], *B = &mi->acc[b];
                if (!((A->flags | B->flags) & (MACC_STORE | MACC_ATOMIC))) continue;
                printf("  i%u i%u: %s\n", A->instr, B->instr, names[memory_alias(fn, A->instr, B->instr)]);
            }
    }
    return 0;
}

static int shift(Module *m, const char *kernel, const char *ia, const char *ib, const char *nstr)
{
    Function *fn = kernel ? find(m, kernel) : NULL;
    if (!fn || ia[0] != 'i' || ib[0] != 'i') return usage();
    uint32_t a = (uint32_t)atoi(ia + 1), b = (uint32_t)atoi(ib + 1);
    const MemInfo *mi = memory_get(fn);
    const Cfg *c = cfg_get(fn);
    if (a >= c->ninstr || b >= c->ninstr || mi->acc_of_instr[a] == ANA_NONE || mi->acc_of_instr[b] == ANA_NONE) {
        fprintf(stderr, "analysis_tool: i%u or i%u is not a memory access\n", a, b);
        return 2;
    }
    const Term *A = mi->acc[mi->acc_of_instr[a]].addr, *B = mi->acc[mi->acc_of_instr[b]].addr;
    TermTable *tt = vterms_get(fn)->tt;
    const Term *tid = vterms_special(fn, "%tid", 'x');
    if (!A || !B) {
        printf("address not modelled\n");
        return 0;
    }
    int64_t N;
    if (nstr) N = atoll(nstr);
    else if (!term_solve_shift(tt, A, B, tid, -31, 31, &N)) {
        printf("no constant shift in [-31, 31] on the affine parts\n");
        return 0;
    }
    const Term *As = term_subst(tt, A, tid, term_add(tt, tid, term_const(tt, tid->width, (uint64_t)N)));
    char cex[512];
    ProofResult r = term_prove_equal(tt, As, B, 2000, cex, sizeof cex);
    printf("A[%%tid.x := %%tid.x %s %lld] == B: %s%s%s\n", N < 0 ? "-" : "+", (long long)(N < 0 ? -N : N),
           proof_result_name(r), r == PROOF_REFUTED ? ", counterexample: " : "", r == PROOF_REFUTED ? cex : "");
    if (As->width > 32) {
        /* the PTXASW artifact's choice: compare addresses modulo 2^32 */
        r = term_prove_equal(tt, term_unop(tt, T_TRUNC, 32, As), term_unop(tt, T_TRUNC, 32, B), 2000, cex, sizeof cex);
        printf("  modulo 2^32: %s%s%s\n", proof_result_name(r), r == PROOF_REFUTED ? ", counterexample: " : "",
               r == PROOF_REFUTED ? cex : "");
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) return usage();
    if (strcmp(argv[1], "dump") == 0) {
        const char *what = NULL, *file = NULL, *kernel = NULL, *format = "text";
        for (int i = 2; i < argc; i++) {
            if (strncmp(argv[i], "--kernel=", 9) == 0) kernel = argv[i] + 9;
            else if (strncmp(argv[i], "--format=", 9) == 0) format = argv[i] + 9;
            else if (!what) what = argv[i];
            else if (!file) file = argv[i];
            else return usage();
        }
        if (!what || !file) return usage();
        Module *m = parse_file(file, stderr);
        if (!m) return 1;
        int rc = analysis_dump(m, what, kernel, format, stdout);
        ir_module_free(m);
        return rc;
    }
    if (strcmp(argv[1], "alias") == 0 || strcmp(argv[1], "shift") == 0) {
        const char *file = NULL, *kernel = NULL, *pos[3] = { NULL, NULL, NULL };
        int np = 0;
        for (int i = 2; i < argc; i++) {
            if (strncmp(argv[i], "--kernel=", 9) == 0) kernel = argv[i] + 9;
            else if (!file) file = argv[i];
            else if (np < 3) pos[np++] = argv[i];
            else return usage();
        }
        if (!file) return usage();
        Module *m = parse_file(file, stderr);
        if (!m) return 1;
        int rc;
        if (argv[1][0] == 'a') rc = np ? usage() : alias(m, kernel);
        else rc = np >= 2 ? shift(m, kernel, pos[0], pos[1], pos[2]) : usage();
        ir_module_free(m);
        return rc;
    }
    if (strcmp(argv[1], "verify") == 0) {
        int bad = 0;
        for (int i = 2; i < argc; i++) {
            Module *m = parse_file(argv[i], stderr);
            if (!m) {
                bad++;
                continue;
            }
            int n = analysis_verify_llvm(m, stderr);
            if (n < 0) {
                ir_module_free(m);
                fprintf(stderr, "analysis_tool: LLVM unavailable\n");
                return 77;
            }
            uint32_t nf = 0;
            for (uint32_t k = 0; k < m->nfuncs; k++) nf += m->funcs[k]->has_body;
            if (n) printf("%s: %d disagreements\n", argv[i], n);
            else printf("%s: %u functions verified\n", argv[i], nf);
            bad += n != 0;
            ir_module_free(m);
        }
        return bad ? 1 : 0;
    }
    return usage();
}
