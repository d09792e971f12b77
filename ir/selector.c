/* selector.c — byte and half-word selectors on operands of the video
 * instructions (vadd %r3, %r1.h0, %r2.b1, ...; vadd4 with %r1.b3210).
 *
 * They are kept in the 32 bits that a register operand does not use
 * (Operand.sel), so the IR does not grow: bits 0-1 the letter (1 'b',
 * 2 'h'), bits 2-4 the number of digits (1-4), then three bits per digit. */
#include "ir/ir.h"

bool opnd_sel_parse(Str t, uint32_t *sel)
{
    if (t.len < 2 || t.len > 5 || (t.p[0] != 'b' && t.p[0] != 'h')) return false;
    uint32_t v = (t.p[0] == 'b' ? 1u : 2u) | (uint32_t)(t.len - 1) << 2;
    for (size_t i = 1; i < t.len; i++) {
        if (t.p[i] < '0' || t.p[i] > '7') return false;
        v |= (uint32_t)(t.p[i] - '0') << (5 + 3 * (i - 1));
    }
    *sel = v;
    return true;
}

int opnd_sel_format(uint32_t sel, char buf[8])
{
    int n = 0;
    buf[n++] = (sel & 3) == 1 ? 'b' : 'h';
    uint32_t nd = (sel >> 2) & 7;
    for (uint32_t i = 0; i < nd && i < 4; i++) buf[n++] = (char)('0' + ((sel >> (5 + 3 * i)) & 7));
    buf[n] = 0;
    return n;
}
