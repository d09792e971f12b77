/* tune_mix.c — a kernel's instruction mix by cost-model unit.
 *
 * Every instruction of the body counts once (a static mix: loops are not
 * weighted, so the model ranks variants of one kernel by occupancy and
 * spill traffic against the same mix, which is all the tuner asks of it).
 * Classes come from the opcode table (ir/opcode.h), refined by the
 * instruction's own modifiers (opcode_flags_full) and state space. */
#include <string.h>

#include "driver/tune.h"
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
