/* poison_bits.c — poison that follows the bits (issue 22).
 *
 * A register's poison shadow is one origin per value (report.c).  A value
 * may be undefined in some bits only: nvcc packs a 64-bit value from two
 * registers of which one was never written (mov.b64 %rd, {%r6, %r7}) and
 * reads back the low half (cvt.u32.u64).  Such a value carries a partial
 * origin, PSN_PARTIAL | index into Machine.ppsn, which records the real
 * origin and the undefined bits.  The instructions that move bits without
 * mixing them keep it exact: mov (copy, pack, unpack), integer cvt
 * (truncation keeps the low bits, zero extension adds defined ones, sign
 * extension copies the sign bit's state), and, or (a defined 0, resp. 1,
 * decides a bit), shl and shr by a defined amount.  Every other instruction
 * writes the whole origin (opw: an undefined bit anywhere may reach any
 * bit of an add or a multiply), and any use that needs the value (an
 * address, a guard, a store's shadow) sees it as poisoned, as before. */
#include <stdlib.h>

#include "emu/internal.h"

uint32_t psn_full(const Machine *M, uint32_t psn)
{
    if (!(psn & PSN_PARTIAL) || (psn & 0x80000000u)) return psn;
    uint32_t k = psn & ~PSN_PARTIAL;
    return k < M->nppsn ? M->ppsn[k].origin : psn;
}

uint64_t psn_bits(const Machine *M, uint32_t psn, int width)
{
    if (!psn) return 0;
    if ((psn & PSN_PARTIAL) && !(psn & 0x80000000u)) {
        uint32_t k = psn & ~PSN_PARTIAL;
        if (k < M->nppsn) return M->ppsn[k].bits & mask_bits(width);
    }
    return mask_bits(width);
}

uint32_t psn_with_bits(Machine *M, uint32_t psn, uint64_t bits, int width)
{
    bits &= mask_bits(width);
    if (!psn || !bits) return 0;
    uint32_t origin = psn_full(M, psn);
    if (bits == mask_bits(width)) return origin;
    /* the same partial value again (a loop that packs it each iteration):
     * its entry, so that the table does not grow with the trip count */
    if (M->nppsn && M->ppsn[M->nppsn - 1].origin == origin && M->ppsn[M->nppsn - 1].bits == bits)
        return PSN_PARTIAL | (M->nppsn - 1);
    if (M->nppsn == M->capppsn) {
        M->capppsn = M->capppsn ? M->capppsn * 2 : 64;
        M->ppsn = realloc(M->ppsn, sizeof *M->ppsn * M->capppsn);
        if (!M->ppsn) abort();
    }
    M->ppsn[M->nppsn] = (PartialPsn){ origin, bits };
    return PSN_PARTIAL | M->nppsn++;
}

uint32_t psn_and_or(Machine *M, uint32_t pa, uint64_t va, uint32_t pb, uint64_t vb, int width, bool is_or)
{
    if (!pa && !pb) return 0;
    uint64_t ba = psn_bits(M, pa, width), bb = psn_bits(M, pb, width);
    /* the bits a defined operand decides: its zeros for and, its ones for or */
    uint64_t da = ~ba & (is_or ? va : ~va), db = ~bb & (is_or ? vb : ~vb);
    return psn_with_bits(M, pa ? pa : pb, (ba | bb) & ~da & ~db, width);
}
