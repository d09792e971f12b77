/* test_opcode.c — the opcode table (ir/opcodes.def, ir/opcode.c).
 *
 * Standalone: gcc -std=c17 -I. testsuite/unit/test_opcode.c ir/opcode.c
 * Checks that names are unique and look up to themselves, that unknown
 * names are rejected, spot checks of base and modifier-refined flags, and
 * that the instruction names of the PTX ISA 9.0 manual (chapter 9.7 section
 * titles, copied below) resolve and cover the table exactly.
 * Prints every failure; exits 1 if any. */
#include "ir/opcode.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "testsuite/unit/check.h"

static Opcode lookup(const char *s) { return opcode_lookup(s, strlen(s)); }

/* --------------------------------------------------------------------------
 * Every instruction named in a section title of chapter 9.7 "Instructions"
 * of the PTX ISA 9.0 manual, in manual order (titles that list several
 * instructions are split), plus the two instructions PTX ISA 9.1 adds.
 * Source: see the provenance comment at the top of ir/opcodes.def. */
static const char *const manual_names[] = {
    /* 9.7.1 Integer Arithmetic */
    "add", "sub", "mul", "mad", "mul24", "mad24", "sad", "div", "rem", "abs",
    "neg", "min", "max", "popc", "clz", "bfind", "fns", "brev", "bfe", "bfi",
    "szext", "bmsk", "dp4a", "dp2a",
    /* 9.7.2 Extended-Precision Integer Arithmetic */
    "add.cc", "addc", "sub.cc", "subc", "mad.cc", "madc",
    /* 9.7.3 Floating-Point */
    "testp", "copysign", "add", "sub", "mul", "fma", "mad", "div", "abs", "neg",
    "min", "max", "rcp", "rcp.approx.ftz.f64", "sqrt", "rsqrt",
    "rsqrt.approx.ftz.f64", "sin", "cos", "lg2", "ex2", "tanh",
    /* 9.7.4 Half Precision Floating-Point */
    "add", "sub", "mul", "fma", "neg", "abs", "min", "max", "tanh", "ex2",
    /* 9.7.5 Mixed Precision Floating-Point */
    "add", "sub", "fma",
    /* 9.7.6 Comparison and Selection */
    "set", "setp", "selp", "slct",
    /* 9.7.7 Half Precision Comparison */
    "set", "setp",
    /* 9.7.8 Logic and Shift */
    "and", "or", "xor", "not", "cnot", "lop3", "shf", "shl", "shr",
    /* 9.7.9 Data Movement and Conversion */
    "mov", "mov", "shfl", "shfl.sync", "prmt", "ld", "ld.global.nc", "ldu",
    "st", "st.async", "st.bulk", "multimem.ld_reduce", "multimem.st",
    "multimem.red", "prefetch", "prefetchu", "applypriority", "discard",
    "createpolicy", "isspacep", "cvta", "cvt", "cvt.pack", "mapa",
    "getctarank", "cp.async", "cp.async.commit_group", "cp.async.wait_group",
    "cp.async.wait_all", "cp.async.bulk", "cp.reduce.async.bulk",
    "cp.async.bulk.prefetch", "cp.async.bulk.tensor",
    "cp.reduce.async.bulk.tensor", "cp.async.bulk.prefetch.tensor",
    "cp.async.bulk.commit_group", "cp.async.bulk.wait_group",
    "tensormap.replace",
    /* 9.7.10 Texture */
    "tex", "tld4", "txq", "istypep",
    /* 9.7.11 Surface */
    "suld", "sust", "sured", "suq",
    /* 9.7.12 Control Flow ({} and @ are not opcodes) */
    "bra", "brx.idx", "call", "ret", "exit",
    /* 9.7.13 Parallel Synchronization and Communication */
    "bar", "barrier", "bar.warp.sync", "barrier.cluster", "membar", "fence",
    "atom", "red", "red.async", "vote", "vote.sync", "match.sync",
    "activemask", "redux.sync", "griddepcontrol", "elect.sync",
    "mbarrier.init", "mbarrier.inval", "mbarrier.expect_tx",
    "mbarrier.complete_tx", "mbarrier.arrive", "mbarrier.arrive_drop",
    "cp.async.mbarrier.arrive", "mbarrier.test_wait", "mbarrier.try_wait",
    "mbarrier.pending_count", "tensormap.cp_fenceproxy",
    "clusterlaunchcontrol.try_cancel", "clusterlaunchcontrol.query_cancel",
    /* 9.7.14 Warp Level Matrix Multiply-Accumulate */
    "wmma.load", "wmma.store", "wmma.mma", "mma", "ldmatrix", "stmatrix",
    "movmatrix", "mma.sp", "mma.sp::ordered_metadata",
    /* 9.7.15 Asynchronous Warpgroup Level Matrix Multiply-Accumulate */
    "wgmma.mma_async", "wgmma.mma_async.sp", "wgmma.fence",
    "wgmma.commit_group", "wgmma.wait_group",
    /* 9.7.16 TensorCore 5th Generation Family */
    "tcgen05.alloc", "tcgen05.dealloc", "tcgen05.relinquish_alloc_permit",
    "tcgen05.ld", "tcgen05.st", "tcgen05.wait", "tcgen05.cp", "tcgen05.shift",
    "tcgen05.mma", "tcgen05.mma.sp", "tcgen05.mma.ws", "tcgen05.mma.ws.sp",
    "tcgen05.fence", "tcgen05.commit",
    /* 9.7.17 Stack Manipulation */
    "stacksave", "stackrestore", "alloca",
    /* 9.7.18 Video */
    "vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vmad", "vset",
    "vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2", "vset2",
    "vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4", "vset4",
    /* 9.7.19 Miscellaneous */
    "brkpt", "nanosleep", "pmevent", "trap", "setmaxnreg",
    /* PTX ISA 9.1 additions */
    "multimem.cp.async.bulk", "multimem.cp.reduce.async.bulk",
};

enum { N_MANUAL = sizeof manual_names / sizeof manual_names[0] };

static Opcode base_of(const char *full)
{
    size_t n = strcspn(full, ".");
    return opcode_lookup(full, n);
}

static void test_table(void)
{
    CHECK(OP_COUNT > 100, "table has only %d opcodes", (int)OP_COUNT - 1);
    for (int a = 1; a < OP_COUNT; a++) {
        const OpcodeInfo *ia = opcode_info((Opcode)a);
        CHECK(ia->name && ia->name[0], "opcode %d has no name", a);
        if (!ia->name)
            continue;
        CHECK(strchr(ia->name, '.') == NULL, "'%s' is not a base name", ia->name);
        for (const char *c = ia->name; *c; c++)
            CHECK((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9'),
                  "'%s' has character '%c'", ia->name, *c);
        CHECK(ia->flags != 0, "'%s' has no flags", ia->name);
        CHECK(ia->min_ptx >= 10 && ia->min_ptx <= 90, "'%s' ptx %u", ia->name, ia->min_ptx);
        CHECK(ia->min_sm == 0 || (ia->min_sm >= 10 && ia->min_sm <= 120),
              "'%s' sm %u", ia->name, ia->min_sm);
        CHECK(!((ia->flags & OPF_PURE) && (ia->flags & (OPF_LOAD | OPF_STORE | OPF_SIDE_EFFECT
                                                        | OPF_CONVERGENT | OPF_COLLECTIVE))),
              "'%s' is PURE but touches memory, state or other lanes", ia->name);
        CHECK(!(ia->flags & OPF_TERMINATOR) || (ia->flags & (OPF_BRANCH | OPF_RET | OPF_EXIT)),
              "'%s' ends a block without being a branch/ret/exit", ia->name);
        for (int b = a + 1; b < OP_COUNT; b++)
            CHECK(strcmp(ia->name, opcode_info((Opcode)b)->name) != 0,
                  "name '%s' appears twice (ids %d and %d)", ia->name, a, b);
        CHECK(lookup(ia->name) == (Opcode)a, "'%s' looks up to %d, not %d",
              ia->name, (int)lookup(ia->name), a);
    }
    const OpcodeInfo *u = opcode_info(OP_UNKNOWN);
    CHECK(strcmp(u->name, "?") == 0 && u->flags == 0 && u->min_ptx == 0 && u->min_sm == 0,
          "OP_UNKNOWN info is not the zeroed \"?\"");
    CHECK(opcode_info(OP_COUNT) == u, "opcode_info(OP_COUNT) is not the unknown info");
    CHECK(opcode_info((Opcode)-1) == u, "opcode_info(-1) is not the unknown info");
    CHECK(opcode_flags(OP_UNKNOWN) == 0, "opcode_flags(OP_UNKNOWN) != 0");
}

static void test_unknown(void)
{
    static const char *const bad[] = {
        "foo", "l", "lds", "ldx", "LD", "Add", "ld.global", "cp.async", "adds",
        "bra ", " bra", "tcgen06", "tcgen05x", "mbarrier_", "clusterlaunchcontrolx",
        "activemaskactivemask", "vadd3", "vset8", "shfl.sync", "nop", "x",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(lookup(bad[i]) == OP_UNKNOWN, "'%s' should be unknown", bad[i]);
    CHECK(opcode_lookup("", 0) == OP_UNKNOWN, "empty name should be unknown");
    CHECK(opcode_lookup(NULL, 0) == OP_UNKNOWN, "NULL name should be unknown");
    CHECK(opcode_lookup(NULL, 5) == OP_UNKNOWN, "NULL name with length should be unknown");
    char nul[] = { 'l', 'd', '\0', 'x' };
    CHECK(opcode_lookup(nul, 3) == OP_UNKNOWN, "'ld\\0' should be unknown");
    /* The length, not a terminator, delimits the name. */
    CHECK(opcode_lookup("ldu", 2) == OP_ld, "prefix 'ld' of 'ldu' should be ld");
    CHECK(opcode_lookup("cp.async.ca", 2) == OP_cp, "prefix 'cp' should be cp");
    CHECK(opcode_lookup("setp.eq", 4) == OP_setp, "prefix 'setp' should be setp");
    char big[4096];
    memset(big, 'a', sizeof big);
    CHECK(opcode_lookup(big, sizeof big) == OP_UNKNOWN, "long name should be unknown");
    CHECK(opcode_flags_full(NULL, 0) == 0, "flags_full(NULL)");
    CHECK(opcode_flags_full("", 0) == 0, "flags_full(\"\")");
    CHECK(opcode_flags_full("foo.bar", 7) == 0, "flags_full of unknown opcode");
    CHECK(opcode_flags_full("@%p1", 4) == 0, "flags_full of a lone guard");
    CHECK(opcode_flags_full(".f32", 4) == 0, "flags_full of a lone modifier");
    CHECK(opcode_flags_full("...", 3) == 0, "flags_full of dots");
}

/* ------------------------------------------------------- base flag checks */

typedef struct {
    const char *name;
    uint32_t must;     /* all of these set */
    uint32_t mustnot;  /* none of these set */
} FlagCase;

static const FlagCase base_cases[] = {
    { "ld",        OPF_LOAD,                                 OPF_STORE | OPF_PURE | OPF_TERMINATOR },
    { "ldu",       OPF_LOAD,                                 OPF_STORE | OPF_PURE },
    { "st",        OPF_STORE | OPF_SIDE_EFFECT,              OPF_LOAD | OPF_PURE },
    { "atom",      OPF_ATOMIC | OPF_LOAD | OPF_STORE | OPF_SIDE_EFFECT, OPF_PURE },
    { "red",       OPF_ATOMIC | OPF_STORE | OPF_SIDE_EFFECT, OPF_PURE },
    { "shfl",      OPF_COLLECTIVE | OPF_CONVERGENT,          OPF_PURE | OPF_LOAD | OPF_MOVE },
    { "vote",      OPF_COLLECTIVE | OPF_CONVERGENT,          OPF_PURE },
    { "match",     OPF_COLLECTIVE | OPF_CONVERGENT,          OPF_PURE },
    { "redux",     OPF_COLLECTIVE | OPF_CONVERGENT,          OPF_PURE },
    { "activemask",OPF_COLLECTIVE | OPF_CONVERGENT,          OPF_PURE },
    { "elect",     OPF_COLLECTIVE | OPF_CONVERGENT,          OPF_PURE },
    { "bra",       OPF_BRANCH | OPF_TERMINATOR,              OPF_SIDE_EFFECT | OPF_CALL },
    { "brx",       OPF_BRANCH | OPF_TERMINATOR,              OPF_CALL },
    { "call",      OPF_CALL | OPF_SIDE_EFFECT | OPF_CONVERGENT, OPF_TERMINATOR | OPF_PURE },
    { "ret",       OPF_RET | OPF_TERMINATOR,                 OPF_BRANCH },
    { "exit",      OPF_EXIT | OPF_TERMINATOR | OPF_SIDE_EFFECT, OPF_BRANCH },
    { "trap",      OPF_EXIT | OPF_TERMINATOR | OPF_SIDE_EFFECT, OPF_BRANCH },
    { "bar",       OPF_BARRIER | OPF_CONVERGENT | OPF_SIDE_EFFECT, OPF_PURE },
    { "barrier",   OPF_BARRIER | OPF_CONVERGENT | OPF_SIDE_EFFECT, OPF_PURE | OPF_COLLECTIVE },
    { "membar",    OPF_FENCE | OPF_SIDE_EFFECT,              OPF_PURE | OPF_BARRIER },
    { "fence",     OPF_FENCE | OPF_SIDE_EFFECT,              OPF_PURE | OPF_BARRIER },
    { "sin",       OPF_SFU | OPF_FLOAT | OPF_PURE,           OPF_INT | OPF_LOAD },
    { "cos",       OPF_SFU | OPF_FLOAT | OPF_PURE,           OPF_INT },
    { "ex2",       OPF_SFU | OPF_FLOAT,                      OPF_INT },
    { "lg2",       OPF_SFU | OPF_FLOAT,                      OPF_INT },
    { "tanh",      OPF_SFU | OPF_FLOAT,                      OPF_INT },
    { "rsqrt",     OPF_SFU | OPF_FLOAT,                      OPF_INT },
    { "rcp",       OPF_SFU | OPF_FLOAT,                      OPF_INT },
    { "sqrt",      OPF_SFU | OPF_FLOAT,                      OPF_INT },
    { "fma",       OPF_FLOAT | OPF_PURE,                     OPF_INT | OPF_SFU },
    { "copysign",  OPF_FLOAT | OPF_PURE,                     OPF_INT | OPF_SFU },
    { "testp",     OPF_FLOAT | OPF_COMPARE,                  OPF_INT },
    { "add",       OPF_PURE | OPF_INT | OPF_FLOAT,           OPF_SIDE_EFFECT | OPF_LOAD | OPF_SFU },
    { "mul",       OPF_PURE | OPF_INT | OPF_FLOAT,           OPF_SIDE_EFFECT },
    { "mad",       OPF_PURE | OPF_INT | OPF_FLOAT,           OPF_SIDE_EFFECT },
    { "addc",      OPF_INT | OPF_SIDE_EFFECT,                OPF_PURE | OPF_FLOAT },
    { "madc",      OPF_INT | OPF_SIDE_EFFECT,                OPF_PURE },
    { "popc",      OPF_PURE | OPF_INT,                       OPF_FLOAT },
    { "lop3",      OPF_PURE | OPF_INT,                       OPF_FLOAT },
    { "prmt",      OPF_PURE | OPF_INT,                       OPF_COLLECTIVE },
    { "and",       OPF_PURE | OPF_INT,                       OPF_FLOAT },
    { "shf",       OPF_PURE | OPF_INT,                       OPF_FLOAT },
    { "mov",       OPF_MOVE | OPF_PURE,                      OPF_LOAD | OPF_COLLECTIVE },
    { "setp",      OPF_COMPARE | OPF_PURE,                   OPF_SIDE_EFFECT },
    { "selp",      OPF_COMPARE | OPF_PURE,                   OPF_SIDE_EFFECT },
    { "slct",      OPF_COMPARE | OPF_PURE,                   OPF_SIDE_EFFECT },
    { "cvt",       OPF_CONVERT | OPF_PURE,                   OPF_LOAD },
    { "cvta",      OPF_CONVERT | OPF_PURE,                   OPF_LOAD },
    { "tex",       OPF_TEXTURE | OPF_LOAD,                   OPF_STORE | OPF_PURE },
    { "tld4",      OPF_TEXTURE | OPF_LOAD,                   OPF_STORE },
    { "txq",       OPF_TEXTURE | OPF_LOAD,                   OPF_STORE },
    { "suld",      OPF_SURFACE | OPF_LOAD,                   OPF_STORE },
    { "sust",      OPF_SURFACE | OPF_STORE | OPF_SIDE_EFFECT, OPF_PURE },
    { "sured",     OPF_SURFACE | OPF_ATOMIC,                 OPF_PURE },
    { "mma",       OPF_TENSOR | OPF_COLLECTIVE | OPF_CONVERGENT, OPF_PURE | OPF_LOAD },
    { "wmma",      OPF_TENSOR | OPF_COLLECTIVE | OPF_CONVERGENT, OPF_PURE },
    { "ldmatrix",  OPF_TENSOR | OPF_LOAD | OPF_COLLECTIVE,   OPF_STORE },
    { "stmatrix",  OPF_TENSOR | OPF_STORE | OPF_COLLECTIVE,  OPF_PURE },
    { "movmatrix", OPF_TENSOR | OPF_COLLECTIVE,              OPF_LOAD | OPF_STORE },
    { "wgmma",     OPF_TENSOR | OPF_ASYNC | OPF_CONVERGENT,  OPF_PURE },
    { "tcgen05",   OPF_TENSOR | OPF_ASYNC,                   OPF_PURE },
    { "cp",        OPF_ASYNC | OPF_LOAD | OPF_STORE | OPF_SIDE_EFFECT, OPF_PURE },
    { "multimem",  OPF_LOAD | OPF_STORE | OPF_ATOMIC,        OPF_PURE },
    { "mbarrier",  OPF_ASYNC | OPF_BARRIER | OPF_SIDE_EFFECT, OPF_PURE },
    { "nanosleep", OPF_SPECIAL | OPF_SIDE_EFFECT,            OPF_PURE },
    { "pmevent",   OPF_SPECIAL | OPF_SIDE_EFFECT,            OPF_PURE },
    { "brkpt",     OPF_SPECIAL | OPF_SIDE_EFFECT,            OPF_TERMINATOR },
    { "setmaxnreg",OPF_SPECIAL | OPF_CONVERGENT,             OPF_PURE },
    { "prefetch",  OPF_SIDE_EFFECT,                          OPF_LOAD | OPF_STORE | OPF_PURE },
    { "discard",   OPF_STORE | OPF_SIDE_EFFECT,              OPF_PURE },
    { "createpolicy", OPF_PURE,                              OPF_SIDE_EFFECT },
    { "getctarank",OPF_PURE,                                 OPF_SIDE_EFFECT },
    { "vadd4",     OPF_PURE | OPF_INT,                       OPF_FLOAT },
    { "alloca",    OPF_SIDE_EFFECT,                          OPF_PURE },
};

static void test_base_flags(void)
{
    for (size_t i = 0; i < sizeof base_cases / sizeof base_cases[0]; i++) {
        const FlagCase *c = &base_cases[i];
        Opcode op = lookup(c->name);
        CHECK(op != OP_UNKNOWN, "'%s' unknown", c->name);
        uint32_t f = opcode_flags(op);
        CHECK((f & c->must) == c->must, "'%s' flags 0x%x lack 0x%x", c->name,
              (unsigned)f, (unsigned)(c->must & ~f));
        CHECK((f & c->mustnot) == 0, "'%s' flags 0x%x have forbidden 0x%x", c->name,
              (unsigned)f, (unsigned)(f & c->mustnot));
    }
    /* Version / target columns. */
    struct { const char *n; unsigned ptx, sm; } v[] = {
        { "add", 10, 0 }, { "shfl", 30, 30 }, { "tcgen05", 86, 100 }, { "wgmma", 80, 90 },
        { "redux", 70, 80 }, { "mma", 64, 70 }, { "ldmatrix", 65, 75 }, { "szext", 76, 70 },
        { "setmaxnreg", 80, 90 }, { "clusterlaunchcontrol", 86, 100 }, { "cp", 70, 80 },
        { "tanh", 70, 75 }, { "activemask", 62, 30 }, { "istypep", 40, 30 },
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        const OpcodeInfo *in = opcode_info(lookup(v[i].n));
        CHECK(in->min_ptx == v[i].ptx && in->min_sm == v[i].sm, "'%s' ptx/sm %u/%u, want %u/%u",
              v[i].n, in->min_ptx, in->min_sm, v[i].ptx, v[i].sm);
    }
}

/* -------------------------------------------------- refined flag checks */

static const FlagCase full_cases[] = {
    { "ld.global.f32",                 OPF_LOAD,                      OPF_SIDE_EFFECT | OPF_FENCE | OPF_STORE },
    { "ld.global.nc.v4.f32",           OPF_LOAD,                      OPF_SIDE_EFFECT },
    { "ld.param.u64",                  OPF_LOAD,                      OPF_SIDE_EFFECT },
    { "ld.volatile.global.u32",        OPF_LOAD | OPF_SIDE_EFFECT,    OPF_FENCE },
    { "ld.volatile.local.u32",         OPF_LOAD | OPF_SIDE_EFFECT,    0 },
    { "ld.relaxed.gpu.global.u32",     OPF_LOAD | OPF_SIDE_EFFECT,    0 },
    { "ld.acquire.gpu.global.u32",     OPF_LOAD | OPF_SIDE_EFFECT | OPF_FENCE, 0 },
    { "st.global.f32",                 OPF_STORE | OPF_SIDE_EFFECT,   OPF_ASYNC | OPF_FENCE | OPF_LOAD },
    { "st.release.gpu.global.u32",     OPF_STORE | OPF_FENCE,         OPF_ASYNC },
    { "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32", OPF_STORE | OPF_ASYNC, OPF_LOAD },
    { "st.bulk.weak.shared::cta",      OPF_STORE | OPF_SIDE_EFFECT,   OPF_ASYNC },
    { "atom.global.add.u32",           OPF_ATOMIC | OPF_LOAD | OPF_STORE, OPF_FENCE },
    { "atom.acq_rel.gpu.global.cas.b32", OPF_ATOMIC | OPF_FENCE,      0 },
    { "red.global.add.u32",            OPF_ATOMIC | OPF_STORE,        OPF_ASYNC },
    { "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32",
                                       OPF_ATOMIC | OPF_ASYNC,        0 },
    { "cp.async.ca.shared.global",     OPF_LOAD | OPF_STORE | OPF_ASYNC, OPF_ATOMIC | OPF_BARRIER | OPF_FENCE },
    { "cp.async.commit_group",         OPF_ASYNC | OPF_SIDE_EFFECT,   OPF_LOAD | OPF_STORE },
    { "cp.async.wait_group",           OPF_ASYNC | OPF_FENCE,         OPF_LOAD | OPF_STORE },
    { "cp.async.wait_all",             OPF_ASYNC | OPF_FENCE,         OPF_LOAD },
    { "cp.async.mbarrier.arrive.noinc.shared::cta.b64", OPF_ASYNC | OPF_BARRIER, OPF_LOAD },
    { "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes",
                                       OPF_LOAD | OPF_STORE | OPF_ASYNC, OPF_ATOMIC },
    { "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
                                       OPF_LOAD | OPF_STORE | OPF_ASYNC, OPF_ATOMIC },
    { "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32",
                                       OPF_ATOMIC | OPF_ASYNC | OPF_STORE, 0 },
    { "cp.async.bulk.prefetch.L2.global", OPF_LOAD | OPF_ASYNC,       OPF_STORE },
    { "cp.async.bulk.commit_group",    OPF_ASYNC,                     OPF_LOAD | OPF_STORE },
    { "cp.async.bulk.wait_group.read", OPF_ASYNC | OPF_FENCE,         OPF_LOAD | OPF_STORE },
    { "multimem.ld_reduce.and.b32",    OPF_LOAD,                      OPF_STORE | OPF_ATOMIC },
    { "multimem.st.relaxed.gpu.b32",   OPF_STORE | OPF_SIDE_EFFECT,   OPF_LOAD },
    { "multimem.red.relaxed.gpu.max.f64", OPF_ATOMIC,                 OPF_ASYNC },
    { "multimem.cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32", OPF_ATOMIC | OPF_ASYNC, 0 },
    { "bar.sync",                      OPF_BARRIER | OPF_CONVERGENT | OPF_FENCE, OPF_COLLECTIVE },
    { "bar.warp.sync",                 OPF_BARRIER | OPF_COLLECTIVE | OPF_CONVERGENT, 0 },
    { "barrier.sync.aligned",          OPF_BARRIER | OPF_CONVERGENT,  OPF_COLLECTIVE },
    { "barrier.cluster.arrive.relaxed.aligned", OPF_BARRIER,          OPF_FENCE },
    { "barrier.cluster.wait",          OPF_BARRIER | OPF_FENCE,       0 },
    { "shfl.sync.bfly.b32",            OPF_COLLECTIVE | OPF_CONVERGENT, OPF_PURE },
    { "vote.sync.ballot.b32",          OPF_COLLECTIVE | OPF_CONVERGENT, OPF_PURE },
    { "rcp.rn.f32",                    OPF_FLOAT | OPF_PURE,          OPF_SFU },
    { "rcp.approx.ftz.f32",            OPF_FLOAT | OPF_SFU,           OPF_INT },
    { "rcp.approx.ftz.f64",            OPF_SFU,                       0 },
    { "sqrt.rn.f32",                   OPF_FLOAT,                     OPF_SFU },
    { "sqrt.approx.ftz.f32",           OPF_SFU,                       0 },
    { "rsqrt.approx.f32",              OPF_SFU,                       0 },
    { "rsqrt.approx.ftz.f64",          OPF_SFU,                       0 },
    { "rsqrt.approx.f64",              OPF_FLOAT,                     OPF_SFU },
    { "div.rn.f32",                    OPF_FLOAT,                     OPF_SFU | OPF_INT },
    { "div.approx.ftz.f32",            OPF_FLOAT | OPF_SFU,           OPF_INT },
    { "div.full.f32",                  OPF_SFU,                       0 },
    { "div.s32",                       OPF_INT | OPF_PURE,            OPF_FLOAT | OPF_SFU },
    { "sin.approx.ftz.f32",            OPF_SFU | OPF_FLOAT,           0 },
    { "ex2.approx.ftz.bf16x2",         OPF_SFU | OPF_FLOAT,           OPF_INT },
    { "add.f32",                       OPF_FLOAT | OPF_PURE,          OPF_INT },
    { "add.rn.ftz.f16x2",              OPF_FLOAT,                     OPF_INT },
    { "add.s32",                       OPF_INT | OPF_PURE,            OPF_FLOAT },
    { "add.sat.s32",                   OPF_INT,                       OPF_FLOAT },
    { "add.u16x2",                     OPF_INT,                       OPF_FLOAT },
    { "add.cc.u32",                    OPF_INT | OPF_SIDE_EFFECT,     OPF_PURE | OPF_FLOAT },
    { "addc.cc.u32",                   OPF_INT | OPF_SIDE_EFFECT,     OPF_PURE },
    { "mad.lo.s32",                    OPF_INT | OPF_PURE,            OPF_FLOAT },
    { "mad.rn.f64",                    OPF_FLOAT,                     OPF_INT },
    { "mul.wide.u32",                  OPF_INT,                       OPF_FLOAT },
    { "min.xorsign.abs.bf16",          OPF_FLOAT,                     OPF_INT },
    { "max.s32",                       OPF_INT,                       OPF_FLOAT },
    { "abs.ftz.f32",                   OPF_FLOAT,                     OPF_INT },
    { "neg.s64",                       OPF_INT,                       OPF_FLOAT },
    { "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                                       OPF_TENSOR | OPF_COLLECTIVE | OPF_CONVERGENT, OPF_LOAD | OPF_STORE },
    { "wmma.load.a.sync.aligned.row.m16n16k16.f16", OPF_TENSOR | OPF_LOAD, OPF_STORE },
    { "wmma.store.d.sync.aligned.row.m16n16k16.f32", OPF_TENSOR | OPF_STORE, OPF_LOAD },
    { "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", OPF_TENSOR | OPF_COLLECTIVE, OPF_LOAD | OPF_STORE },
    { "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", OPF_TENSOR | OPF_ASYNC | OPF_LOAD, OPF_STORE },
    { "wgmma.fence.sync.aligned",      OPF_FENCE | OPF_CONVERGENT,    OPF_LOAD },
    { "wgmma.commit_group.sync.aligned", OPF_ASYNC,                   OPF_LOAD | OPF_FENCE },
    { "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32", OPF_STORE | OPF_CONVERGENT, OPF_LOAD },
    { "tcgen05.ld.sync.aligned.16x64b.x1.b32", OPF_LOAD | OPF_COLLECTIVE | OPF_ASYNC, OPF_STORE },
    { "tcgen05.st.sync.aligned.16x64b.x1.b32", OPF_STORE | OPF_COLLECTIVE, OPF_LOAD },
    { "tcgen05.wait::ld.sync.aligned", OPF_ASYNC | OPF_CONVERGENT | OPF_FENCE, OPF_LOAD | OPF_STORE },
    { "tcgen05.mma.cta_group::1.kind::f16", OPF_TENSOR | OPF_ASYNC,   OPF_CONVERGENT },
    { "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64", OPF_BARRIER | OPF_ASYNC, OPF_LOAD },
    { "tcgen05.fence::before_thread_sync", OPF_FENCE,                 OPF_LOAD | OPF_STORE | OPF_ASYNC },
    { "mbarrier.pending_count.b64",    OPF_PURE,                      OPF_BARRIER | OPF_SIDE_EFFECT },
    { "mbarrier.try_wait.parity.shared::cta.b64", OPF_BARRIER | OPF_SIDE_EFFECT, OPF_PURE },
    { "tensormap.replace.tile.global_address.global.b1024.b64", OPF_STORE, OPF_CONVERGENT | OPF_FENCE },
    { "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned",
                                       OPF_FENCE | OPF_CONVERGENT,    0 },
    { "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128", OPF_PURE, OPF_SIDE_EFFECT },
    { "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128",
                                       OPF_ASYNC | OPF_STORE,         OPF_PURE },
    { "cvt.rn.f32.f64",                OPF_CONVERT | OPF_PURE,        0 },
    { "cvt.pack.sat.u8.s32.b32",       OPF_CONVERT,                   0 },
    /* Guards, operands and the terminating ';' are ignored. */
    { "@%p1 bra.uni $L__BB0_2;",       OPF_BRANCH | OPF_TERMINATOR,   0 },
    { "  @!%p2  ld.global.u32 %r1, [%rd1];", OPF_LOAD,                OPF_SIDE_EFFECT },
    { "ret;",                          OPF_RET | OPF_TERMINATOR,      0 },
    { "exit",                          OPF_EXIT,                      0 },
};

static void test_full_flags(void)
{
    for (size_t i = 0; i < sizeof full_cases / sizeof full_cases[0]; i++) {
        const FlagCase *c = &full_cases[i];
        uint32_t f = opcode_flags_full(c->name, strlen(c->name));
        CHECK(f != 0, "'%s' has no refined flags", c->name);
        CHECK((f & c->must) == c->must, "'%s' refined flags 0x%x lack 0x%x", c->name,
              (unsigned)f, (unsigned)(c->must & ~f));
        CHECK((f & c->mustnot) == 0, "'%s' refined flags 0x%x have forbidden 0x%x", c->name,
              (unsigned)f, (unsigned)(f & c->mustnot));
    }
    /* Only the opcode part counts, not a longer text after it. */
    const char *t = "bar.warp.sync 0xffffffff; // bar.sync";
    CHECK(opcode_flags_full(t, 13) == opcode_flags_full("bar.warp.sync", 13),
          "length limits the text");
}

/* ------------------------------------------------------ manual coverage */

static void test_manual_coverage(void)
{
    CHECK(N_MANUAL >= 150, "only %d manual names", (int)N_MANUAL);
    static bool hit[OP_COUNT];
    for (int i = 0; i < N_MANUAL; i++) {
        const char *n = manual_names[i];
        Opcode op = base_of(n);
        CHECK(op != OP_UNKNOWN, "manual instruction '%s' has no table entry", n);
        CHECK(opcode_flags_full(n, strlen(n)) != 0, "manual instruction '%s' has no flags", n);
        hit[op] = true;
    }
    for (int op = 1; op < OP_COUNT; op++)
        CHECK(hit[op], "table entry '%s' is not an instruction of the manual list",
              opcode_info((Opcode)op)->name);
}

/* ---------------------------------------------------------------- speed */

static void report_speed(void)
{
    enum { ROUNDS = 20000 };
    struct timespec a, b;
    volatile unsigned sink = 0;
    unsigned n = 0;
    timespec_get(&a, TIME_UTC);
    for (int r = 0; r < ROUNDS; r++)
        for (int op = 1; op < OP_COUNT; op++, n++) {
            const char *s = opcode_info((Opcode)op)->name;
            sink += (unsigned)opcode_lookup(s, strlen(s));
        }
    timespec_get(&b, TIME_UTC);
    double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / n;
    (void)sink;
    printf("info: opcode_lookup %.1f ns/call (incl. strlen), %u calls\n", ns, n);
}

int main(void)
{
    test_table();
    test_unknown();
    test_base_flags();
    test_full_flags();
    test_manual_coverage();
    report_speed();
    printf("%s: %d checks, %d failures; %d opcodes, %d manual names\n",
           failures ? "FAIL" : "PASS", checks, failures, (int)OP_COUNT - 1, (int)N_MANUAL);
    return failures ? 1 : 0;
}
