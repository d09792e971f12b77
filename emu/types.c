/* types.c — PTX types (TY_*), argument types (EmuType) and space names. */
#include <string.h>

#include "emu/internal.h"

static const struct { const char *name; uint8_t bits; bool sgn, flt; } ty_tab[TY_COUNT] = {
    [TY_NONE] = { "", 0, false, false },     [TY_PRED] = { ".pred", 1, false, false },
    [TY_B8] = { ".b8", 8, false, false },    [TY_B16] = { ".b16", 16, false, false },
    [TY_B32] = { ".b32", 32, false, false }, [TY_B64] = { ".b64", 64, false, false },
    [TY_B128] = { ".b128", 128, false, false },
    [TY_U8] = { ".u8", 8, false, false },    [TY_U16] = { ".u16", 16, false, false },
    [TY_U32] = { ".u32", 32, false, false }, [TY_U64] = { ".u64", 64, false, false },
    [TY_S8] = { ".s8", 8, true, false },     [TY_S16] = { ".s16", 16, true, false },
    [TY_S32] = { ".s32", 32, true, false },  [TY_S64] = { ".s64", 64, true, false },
    [TY_F16] = { ".f16", 16, true, true },   [TY_F16X2] = { ".f16x2", 32, true, true },
    [TY_BF16] = { ".bf16", 16, true, true }, [TY_BF16X2] = { ".bf16x2", 32, true, true },
    [TY_F32] = { ".f32", 32, true, true },   [TY_F64] = { ".f64", 64, true, true },
    [TY_TF32] = { ".tf32", 32, true, true },
};

int ty_bits(int t) { return (t > 0 && t < TY_COUNT) ? ty_tab[t].bits : 0; }
bool ty_signed(int t) { return t > 0 && t < TY_COUNT && ty_tab[t].sgn; }
bool ty_is_float(int t) { return t > 0 && t < TY_COUNT && ty_tab[t].flt; }
const char *ty_name(int t) { return (t >= 0 && t < TY_COUNT) ? ty_tab[t].name : "?"; }

int ty_from_mod(Str m)
{
    for (int t = 1; t < TY_COUNT; t++)
        if (str_eqc(m, ty_tab[t].name)) return t;
    return TY_NONE;
}

const char *space_name(int sp)
{
    switch (sp) {
    case SP_GENERIC: return "generic";
    case SP_GLOBAL: return "global";
    case SP_SHARED: return "shared";
    case SP_LOCAL: return "local";
    case SP_PARAM: return "kernel parameter";
    case SP_FPARAM: return "function parameter";
    case SP_CONST: return "const";
    default: return "?";
    }
}

static const struct { const char *name, *alt; size_t size; bool flt; } et_tab[EMU_T_COUNT] = {
    [EMU_T_U8] = { "u8", "b8", 1, false },   [EMU_T_U16] = { "u16", "b16", 2, false },
    [EMU_T_U32] = { "u32", "b32", 4, false }, [EMU_T_U64] = { "u64", "b64", 8, false },
    [EMU_T_S8] = { "i8", "s8", 1, false },   [EMU_T_S16] = { "i16", "s16", 2, false },
    [EMU_T_S32] = { "i32", "s32", 4, false }, [EMU_T_S64] = { "i64", "s64", 8, false },
    [EMU_T_F16] = { "f16", "half", 2, true }, [EMU_T_BF16] = { "bf16", "bfloat16", 2, true },
    [EMU_T_F32] = { "f32", "float", 4, true }, [EMU_T_F64] = { "f64", "double", 8, true },
};

size_t emu_type_size(EmuType t) { return t < EMU_T_COUNT ? et_tab[t].size : 0; }
const char *emu_type_name(EmuType t) { return t < EMU_T_COUNT ? et_tab[t].name : "?"; }
bool emu_type_is_float(EmuType t) { return t < EMU_T_COUNT && et_tab[t].flt; }

bool emu_type_parse(const char *s, size_t len, EmuType *out)
{
    for (int t = 0; t < EMU_T_COUNT; t++) {
        if ((strlen(et_tab[t].name) == len && memcmp(s, et_tab[t].name, len) == 0) ||
            (strlen(et_tab[t].alt) == len && memcmp(s, et_tab[t].alt, len) == 0)) {
            *out = (EmuType)t;
            return true;
        }
    }
    return false;
}

const char *emu_policy_name(EmuPolicy p)
{
    switch (p) {
    case EMU_POLICY_ITS: return "its";
    case EMU_POLICY_HANOI: return "hanoi";
    case EMU_POLICY_STRICT: return "strict";
    }
    return "?";
}

const char *emu_class_name(int cls)
{
    static const char *const n[EMU_CLS_COUNT] = { "alu", "fma", "sfu", "memory", "shuffle", "barrier", "branch", "other" };
    return cls >= 0 && cls < EMU_CLS_COUNT ? n[cls] : "?";
}
