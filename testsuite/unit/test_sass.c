/* test_sass.c — the SASS reader (sass/sass.h).
 *
 *   test_sass                   the readers on canned nvdisasm and ptxas -v
 *                               text (no NVIDIA tools needed)
 *   test_sass ARCH FILE.ptx...  assemble each file for ARCH (or "target":
 *                               its .target) and print its functions' lines
 *                               (sass_print_compare with one module), then
 *                               "OTHER: NAME OPCODE N" for each unknown opcode;
 *                               exit 1 when a file cannot be assembled */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser/parse.h"
#include "sass/sass.h"
#include "testsuite/unit/check.h"

/* nvdisasm 13 -c, cut down: an entry and a .func, guards, uniform ops,
 * labels, a memory op with suffixes, an opcode no table knows. */
static const char LISTING[] =
    "\t.target\tsm_80\n"
    "\t.elftype\t@\"ET_EXEC\"\n"
    "//--------------------- .text.k                 --------------------------\n"
    "\t.section\t.text.k,\"ax\",@progbits\n"
    "\t.sectioninfo\t@\"SHI_REGISTERS=27\"\n"
    "        .other          k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n"
    "k:\n"
    "        /*0000*/                   MOV R1, c[0x0][0x28] ;\n"
    "        /*0010*/                   S2R R4, SR_CTAID.Y ;\n"
    "        /*0020*/                   ULDC.64 UR6, c[0x0][0x118] ;\n"
    "        /*0030*/                   UIADD3 UR4, UR4, -0x1, URZ ;\n"
    ".L_x_2:\n"
    "        /*0040*/               @!P0 LDG.E.EF.CONSTANT R13, [R2.64+0x8] ;\n"
    "        /*0050*/               @PT LDG.E.128.CONSTANT R12, [R2.64] ;\n"
    "        /*0060*/                   STG.E.STRONG.GPU [R2.64], R5 ;\n"
    "        /*0070*/                   SHFL.DOWN PT, R3, R2, 0x1, 0x1f ;\n"
    "        /*0080*/                   MUFU.RSQ R3, R3 ;\n"
    "        /*0090*/                   FFMA R3, R3, R3, R3 ;\n"
    "        /*00a0*/                   DADD R4, R4, R6 ;\n"
    "        /*00b0*/                   BSSY B0, `(.L_x_1) ;\n"
    "        /*00c0*/                   BSYNC B0 ;\n"
    "        /*00d0*/                   WARPSYNC 0xffffffff ;\n"
    "        /*00e0*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
    "        /*00f0*/                   STL [R1], R3 ;\n"
    "        /*0100*/                   LDL R3, [R1] ;\n"
    "        /*0110*/                   ATOMG.E.ADD.STRONG.GPU PT, R3, [R2.64], R3 ;\n"
    "        /*0120*/                   FROBNICATE R3 ;\n"
    "        /*0130*/                   EXIT ;\n"
    "        /*0140*/                   BRA `(.L_x_2) ;\n"
    "        /*0150*/                   NOP;\n"
    "//--------------------- .text.f                 --------------------------\n"
    "\t.section\t.text.f,\"ax\",@progbits\n"
    "\t.sectioninfo\t@\"SHI_REGISTERS=12\"\n"
    "f:\n"
    "        /*0000*/                   IMAD R3, R3, R3, RZ ;\n"
    "        /*0010*/                   RET.ABS.NODEC R20 0x0 ;\n"
    "\t.section\t.nv.constant0.k,\"a\",@progbits\n"
    "        /*0000*/ \t.byte\t0x00, 0x00\n";

static const char PTXAS_LOG[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
    "ptxas info    : Function properties for f\n"
    "    24 bytes stack frame, 20 bytes spill stores, 16 bytes spill loads\n"
    "ptxas info    : Function properties for k\n"
    "    576 bytes stack frame, 1264 bytes spill stores, 1324 bytes spill loads\n"
    "ptxas info    : Used 40 registers, used 1 barriers, 4224 bytes smem, 372 bytes cmem[0]\n"
    "ptxas info    : Function properties for inlined_into_k\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";

static int mem(const SassKernel *k, const char *op)
{
    for (int i = 0; i < k->nmem; i++)
        if (strcmp(k->mem[i].op, op) == 0) return k->mem[i].n;
    return 0;
}

static void test_readers(void)
{
    SassModule m = { 0 };
    sass_parse_listing(LISTING, strlen(LISTING), &m);
    CHECK(strcmp(m.arch, "sm_80") == 0, "arch %s", m.arch);
    CHECK(m.n == 2, "functions %d", m.n);
    SassKernel *k = sass_kernel(&m, "k"), *f = sass_kernel(&m, "f");
    CHECK(k && f, "k and f found");
    if (!k || !f) return;
    CHECK(k->entry && !f->entry, "entry flags");
    CHECK(k->regs == 27 && f->regs == 12, "regs %d %d", k->regs, f->regs);
    CHECK(k->count[SASS_LDG] == 2, "ldg %d", k->count[SASS_LDG]);
    CHECK(k->count[SASS_STG] == 1 && k->count[SASS_ATOM] == 1, "stg, atom");
    CHECK(k->count[SASS_LDC] == 1 && k->count[SASS_INT] == 1 && k->count[SASS_MOV] == 2, "uniform ops: ldc %d int %d mov %d",
          k->count[SASS_LDC], k->count[SASS_INT], k->count[SASS_MOV]);
    CHECK(k->count[SASS_SHFL] == 1 && k->count[SASS_SFU] == 1 && k->count[SASS_FP32] == 1 && k->count[SASS_FP64] == 1,
          "shfl sfu fp32 fp64");
    CHECK(k->count[SASS_CONV] == 3 && k->count[SASS_BAR] == 1 && k->count[SASS_BRA] == 2, "conv %d bar %d bra %d",
          k->count[SASS_CONV], k->count[SASS_BAR], k->count[SASS_BRA]);
    CHECK(k->count[SASS_STL] == 1 && k->count[SASS_LDL] == 1, "local traffic");
    CHECK(k->count[SASS_OTHER] == 1 && k->nother == 1 && strcmp(k->other[0].op, "FROBNICATE") == 0, "other");
    CHECK(k->count[SASS_NOP] == 1 && k->total == 21, "total %d (NOP not counted)", k->total);
    CHECK(mem(k, "@LDG.EF.CONSTANT") == 1 && mem(k, "LDG.CONSTANT") == 1, "ldg suffixes kept, widths dropped, guard marked");
    CHECK(mem(k, "STG.STRONG.GPU") == 1 && mem(k, "ATOMG.ADD.STRONG.GPU") == 1, "scopes kept");
    CHECK(f->count[SASS_INT] == 1 && f->count[SASS_BRA] == 1 && f->total == 2, "f");

    sass_parse_ptxas_log(PTXAS_LOG, &m);
    CHECK(m.n == 2, "ptxas -v adds no .func the listing lacks (%d)", m.n);
    k = sass_kernel(&m, "k"), f = sass_kernel(&m, "f");
    CHECK(k->regs == 40 && k->smem == 4224 && k->stack == 576, "k regs %d smem %ld stack %ld", k->regs, k->smem, k->stack);
    CHECK(k->spill_stores == 1264 && k->spill_loads == 1324, "k spills");
    CHECK(f->regs == 12 && f->stack == 24 && f->spill_stores == 20 && f->spill_loads == 16, "f from its paragraph");

    CHECK(sass_classify("UMOV", 4) == SASS_MOV && sass_classify("ULDC", 4) == SASS_LDC, "uniform twins");
    CHECK(sass_classify("U", 1) == SASS_OTHER && sass_classify("", 0) == SASS_OTHER, "degenerate opcodes");
    CHECK(strcmp(sass_class_name(SASS_SHFL), "shfl") == 0, "class names");
    SassModule e = { 0 };
    sass_parse_ptxas_log(PTXAS_LOG, &e);
    CHECK(e.n == 1 && e.k[0].entry && e.k[0].regs == 40, "an entry without a listing is added");
    sass_module_free(&e);

    char arch[16];
    const char ptx[] = "// .target sm_10\n.version 8.0\n  .target sm_90a, debug\n";
    CHECK(sass_ptx_target(ptx, sizeof ptx - 1, arch, sizeof arch) && strcmp(arch, "sm_90a") == 0, "target %s", arch);
    CHECK(!sass_ptx_target(".version 8.0\n", 13, arch, sizeof arch), "no target");

    /* the report line: one module */
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    sass_print_compare(out, "x.ptx: sass", &m, &m);
    fclose(out);
    CHECK(strstr(text, "x.ptx: sass kernel k: total=21->21 ldg=2->2 stg=1->1 ") != NULL, "line: %s", text);
    CHECK(strstr(text, "| @LDG.EF.CONSTANT=1->1") != NULL, "memory suffixes in the line: %s", text);
    CHECK(strstr(text, "x.ptx: sass: sm_80, 1 kernel, 1 function: total=23->23") != NULL, "summary: %s", text);
    free(text);
    sass_module_free(&m);
}

static int assemble(const char *arch, int n, char **files)
{
    SassTools t;
    char err[1024];
    if (!sass_tools_find(&t, err, sizeof err)) {
        fprintf(stderr, "test_sass: %s\n", err);
        return 1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        size_t len;
        char *buf = read_file(files[i], &len, stderr);
        if (!buf) { rc = 1; continue; }
        SassModule m;
        if (!sass_compile(&t, buf, len, strcmp(arch, "target") ? arch : NULL, &m, err, sizeof err)) {
            fprintf(stderr, "test_sass: %s: %s\n", files[i], err);
            rc = 1;
        } else {
            const char *base = strrchr(files[i], '/');
            sass_print_compare(stdout, base ? base + 1 : files[i], &m, NULL);
            for (int j = 0; j < m.n; j++)
                for (int o = 0; o < m.k[j].nother; o++)
                    printf("OTHER: %s %s %d\n", m.k[j].name, m.k[j].other[o].op, m.k[j].other[o].n);
            sass_module_free(&m);
        }
        free(buf);
    }
    sass_tools_free(&t);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 2) return assemble(argv[1], argc - 2, argv + 2);
    test_readers();
    printf("test_sass: %d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
