/* mix.c — a kernel's instruction mix by cost-model unit.
 *
 * Every instruction of the body counts once (a static mix: loops are not
 * weighted, so the model ranks variants of one kernel by occupancy and
 * spill traffic against the same mix, which is all the tuner asks of it).
 * Classes come from the opcode table (ir/opcode.h), refined by the
 * instruction's own modifiers (opcode_flags_full) and state space. */
#include <string.h>

#include "tools/ptxopt-tune/tune.h"
#include "ir/ir.h"

static CostUnit unit_of(const Instr *in)
{
    uint32_t f = opcode_flags_full(in->full.p, in->full.len);
    if (f & (OPF_BRANCH | OPF_CALL | OPF_RET | OPF_EXIT)) return UNIT_BRANCH;
    if (f & (OPF_BARRIER | OPF_FENCE)) return UNIT_BARRIER;
    if (f & (OPF_LOAD | OPF_STORE | OPF_ATOMIC | OPF_TEXTURE | OPF_SURFACE)) {
        Str sp = instr_space(in);
        if (str_starts(sp, ".param")) return UNIT_INT; /* kernel parameters: a constant-bank read */
        return str_starts(sp, ".shared") ? UNIT_SHARED : UNIT_GLOBAL;
    }
    if (f & OPF_COLLECTIVE) return UNIT_SHUFFLE;
    if (f & OPF_SFU) return UNIT_SFU;
    if (f & OPF_CONVERT) return UNIT_CONVERT;
    if (f & OPF_FLOAT) {
        Str t = instr_type(in);
        return str_eqc(t, ".f64") ? UNIT_FP64 : UNIT_FP32;
    }
    return UNIT_INT;
}

void tune_instruction_mix(const Function *fn, double mix[UNIT_COUNT])
{
    memset(mix, 0, sizeof(double) * UNIT_COUNT);
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b)
            if (s->kind == STMT_INSTR) mix[unit_of(&s->u.instr)] += 1.0;
}

/* SASS class -> the unit that executes it.  Constant-bank reads and moves
 * go with the integer pipe (as .param reads do above), tensor-core
 * instructions with FP32 (the model has no unit of their own), local
 * traffic with global memory (it is: spills go through L1/L2). */
void tune_sass_mix(const int count[SASS_NCLASSES], double mix[UNIT_COUNT])
{
    static const signed char unit[SASS_NCLASSES] = {
        [SASS_LDG] = UNIT_GLOBAL, [SASS_STG] = UNIT_GLOBAL, [SASS_LDL] = UNIT_GLOBAL, [SASS_STL] = UNIT_GLOBAL,
        [SASS_LDS] = UNIT_SHARED, [SASS_STS] = UNIT_SHARED, [SASS_LDC] = UNIT_INT, [SASS_LD] = UNIT_GLOBAL,
        [SASS_ST] = UNIT_GLOBAL, [SASS_ATOM] = UNIT_GLOBAL, [SASS_SHFL] = UNIT_SHUFFLE, [SASS_VOTE] = UNIT_SHUFFLE,
        [SASS_SFU] = UNIT_SFU, [SASS_FP32] = UNIT_FP32, [SASS_FP16] = UNIT_FP32, [SASS_FP64] = UNIT_FP64,
        [SASS_INT] = UNIT_INT, [SASS_CVT] = UNIT_CONVERT, [SASS_MOV] = UNIT_INT, [SASS_MMA] = UNIT_FP32,
        [SASS_TEX] = UNIT_GLOBAL, [SASS_BRA] = UNIT_BRANCH, [SASS_CONV] = UNIT_BRANCH, [SASS_BAR] = UNIT_BARRIER,
        [SASS_MISC] = UNIT_INT, [SASS_NOP] = -1, [SASS_OTHER] = UNIT_INT,
    };
    memset(mix, 0, sizeof(double) * UNIT_COUNT);
    for (int c = 0; c < SASS_NCLASSES; c++)
        if (unit[c] >= 0) mix[unit[c]] += count[c];
}
