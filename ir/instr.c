/* instr.c — questions about an instruction's modifiers.
 * Modifiers are kept as the dotted text after the opcode name
 * ("ld.global.nc.v4.f32"), split on '.', so nothing is ever lost. */
#include "ir/ir.h"

/* Next modifier starting at *pos (pointing at a '.'), or false at the end. */
static bool next_mod(const Instr *in, size_t *pos, Str *out)
{
    size_t i = *pos;
    if (i >= in->full.len) return false;
    size_t j = i + 1;
    while (j < in->full.len && in->full.p[j] != '.') j++;
    *out = (Str){ in->full.p + i, j - i };
    *pos = j;
    return true;
}

int instr_nmods(const Instr *in)
{
    int n = 0;
    for (size_t i = in->opname.len; i < in->full.len; i++)
        if (in->full.p[i] == '.') n++;
    return n;
}

Str instr_mod(const Instr *in, int k)
{
    size_t pos = in->opname.len;
    Str m = { "", 0 };
    for (int i = 0; i <= k; i++)
        if (!next_mod(in, &pos, &m)) return (Str){ "", 0 };
    return m;
}

int instr_find_mod(const Instr *in, const char *mod)
{
    size_t pos = in->opname.len;
    Str m;
    for (int i = 0; next_mod(in, &pos, &m); i++)
        if (str_eqc(m, mod)) return i;
    return -1;
}

bool instr_has_mod(const Instr *in, const char *mod) { return instr_find_mod(in, mod) >= 0; }

static bool is_type(Str m)
{
    if (m.len < 2) return false;
    switch (m.p[1]) {
    case 'b': case 'u': case 's': case 'f':
        if (m.len >= 3 && m.p[2] >= '0' && m.p[2] <= '9') return true;
        return str_eqc(m, ".bf16") || str_eqc(m, ".bf16x2");
    case 'p': return str_eqc(m, ".pred");
    case 't': return str_eqc(m, ".tf32");
    case 'e': return str_starts(m, ".e4m3") || str_starts(m, ".e5m2") || str_starts(m, ".e2m");
    default: return false;
    }
}

Str instr_type(const Instr *in)
{
    size_t pos = in->opname.len;
    Str m, last = { "", 0 };
    while (next_mod(in, &pos, &m))
        if (is_type(m)) last = m;
    return last;
}

/* The first state-space modifier: for copies like cp.async.ca.shared.global
 * that is the destination's space. */
Str instr_space(const Instr *in)
{
    static const char *const spaces[] = { ".global", ".shared", ".local", ".param", ".const", ".tex" };
    size_t pos = in->opname.len;
    Str m;
    while (next_mod(in, &pos, &m))
        for (size_t k = 0; k < sizeof spaces / sizeof spaces[0]; k++) {
            size_t n = strlen(spaces[k]);
            if (m.len >= n && memcmp(m.p, spaces[k], n) == 0 && (m.len == n || m.p[n] == ':'))
                return m;
        }
    return (Str){ "", 0 };
}
