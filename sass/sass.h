/* sass.h — what a PTX module becomes in machine code (SASS), per kernel.
 *
 * PTX is not what runs: ptxas can undo or reshape what a pass did.  This
 * module assembles PTX with NVIDIA's ptxas (-v) into a cubin, disassembles
 * it with nvdisasm, and reads, per function, the instruction mix as classes
 * (classes.def: global/local/shared/constant loads and stores, shuffles,
 * SFU, FP32/FP64/integer arithmetic, branches, convergence, barriers,
 * atomics, ...) plus what ptxas -v says (registers, spills, stack, shared
 * memory).  An opcode the table (opcodes.def) does not know is counted as
 * "other", never an error.  A non-inlined .func has no section of its own
 * in a whole-program cubin (ptxas copies it into each caller's): its code
 * counts in its callers' lines.
 *
 *   tools.c     finding ptxas and nvdisasm
 *   classify.c  base opcode → class
 *   listing.c   nvdisasm's listing → per-function counts
 *   ptxas_v.c   ptxas -v → registers, spills, stack, shared memory
 *   compile.c   PTX → ptxas → cubin → nvdisasm, temporary files removed
 *   compare.c   before → after lines and JSON, for ptxopt and ptxopt-tune */
#ifndef PTXOPT_SASS_H
#define PTXOPT_SASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum SassClass {
#define SASS_CLASS(id, name, what) SASS_##id,
#include "sass/classes.def"
#undef SASS_CLASS
    SASS_NCLASSES
} SassClass;

/* An opcode with its modifiers (e.g. "LDG.EF.CONSTANT": .E, widths and
 * integer types dropped; "@LDG.EF.CONSTANT" when a predicate guards it)
 * and how often it occurs. */
typedef struct SassOpCount {
    char *op;
    int n;
} SassOpCount;

typedef struct SassKernel {
    char *name;             /* the symbol (mangled for C++) */
    bool entry;             /* a kernel (.entry), not a .func */
    int count[SASS_NCLASSES];
    int total;              /* every instruction but NOP */
    /* ptxas -v (regs also from the listing for a .func); -1: not reported */
    int regs;
    long stack, spill_stores, spill_loads, smem;
    int nmem;
    SassOpCount *mem;       /* memory instructions by opcode with cache/scope suffixes */
    int nother;
    SassOpCount *other;     /* the opcodes counted as "other" */
} SassKernel;

typedef struct SassModule {
    char arch[16];          /* "sm_80" */
    int n;
    SassKernel *k;          /* in listing order */
} SassModule;

typedef struct SassTools {
    char *ptxas, *nvdisasm; /* malloc'ed paths */
} SassTools;

/* ptxas: $PTXAS, PATH, /usr/local/cuda/bin.  nvdisasm: $NVDISASM, PATH,
 * beside ptxas (the toolkit), /usr/local/cuda/bin, then where configure
 * found it (the pip install of ./bootstrap).  False after saying why in err. */
bool sass_tools_find(SassTools *t, char *err, size_t errsz);
void sass_tools_free(SassTools *t);

/* The first sm_XX of the module's .target directive (into arch), or false. */
bool sass_ptx_target(const char *ptx, size_t len, char *arch, size_t n);

/* Assembles `ptx` for `arch` ("sm_80"; NULL: the module's .target) and
 * reads the result into m.  False, m empty, after writing one line (ptxas's
 * or nvdisasm's first error) to err. */
bool sass_compile(const SassTools *t, const char *ptx, size_t len, const char *arch, SassModule *m, char *err,
                  size_t errsz);
/* The same for the entry functions named in `entries` only (ptxas -e,
 * comma-separated; NULL or "": every kernel): the other kernels of a big
 * module are not assembled, and m holds only these. */
bool sass_compile_entries(const SassTools *t, const char *ptx, size_t len, const char *arch, const char *entries,
                          SassModule *m, char *err, size_t errsz);

/* Disassembles a cubin someone else assembled (no ptxas -v figures but the
 * listing's registers; m->arch from the listing).  False after saying why. */
bool sass_read_cubin(const SassTools *t, const char *cubin, SassModule *m, char *err, size_t errsz);

/* The readers, exposed for tests: they add to m and never fail. */
void sass_parse_listing(const char *text, size_t len, SassModule *m);
void sass_parse_ptxas_log(const char *text, SassModule *m);

SassClass sass_classify(const char *opcode, size_t len);   /* base opcode, no modifiers */
const char *sass_class_name(SassClass c);
const char *sass_class_what(SassClass c);
SassKernel *sass_kernel(const SassModule *m, const char *name);
void sass_module_free(SassModule *m);

/* One line per kernel of `before` (then those only in `after`):
 *   PREFIX kernel NAME: total=B->A ldg=B->A ... regs=B->A spill=B->A ...
 * classes that are 0 on both sides left out (but total, ldg, stg and shfl
 * always there); then the summary line "PREFIX: N kernels, ..." (sums;
 * regs is the maximum).  `after` may be NULL (one module, B only). */
void sass_print_compare(FILE *out, const char *prefix, const SassModule *before, const SassModule *after);
/* The same as JSON: {"arch":..,"kernels":[{"name":..,"before":{..},"after":{..}}],"summary":{..}} */
void sass_json_compare(FILE *out, const SassModule *before, const SassModule *after);
/* One module's kernel as a JSON object of counts. */
void sass_json_kernel(FILE *out, const SassKernel *k);

#endif
