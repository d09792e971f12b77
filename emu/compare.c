/* compare.c — element-wise comparison of two runs' buffers for the
 * differential mode: bit for bit by default; floating-point buffers may
 * allow a distance in units in the last place (ulp) or a relative error. */
#include <math.h>
#include <string.h>

#include "emu/fp.h"
#include "emu/internal.h"

/* Ordered integer image of a float's bits, so ulp distance is a difference. */
static int64_t ordered(uint64_t v, int bits)
{
    uint64_t sign = 1ull << (bits - 1);
    int64_t m = (int64_t)(v & (sign - 1));
    return (v & sign) ? -m : m;
}

static bool within(const EmuBuffer *b, uint64_t va, uint64_t vb, const EmuTolerance *tol)
{
    if (va == vb) return true;
    if (!tol || !emu_type_is_float(b->type)) return false;
    int bits = (int)emu_type_size(b->type) * 8;
    double da, db;
    switch (b->type) {
    case EMU_T_F16: da = f16_to_double((uint16_t)va); db = f16_to_double((uint16_t)vb); break;
    case EMU_T_BF16: da = bf16_to_double((uint16_t)va); db = bf16_to_double((uint16_t)vb); break;
    case EMU_T_F32: da = f32_of(va); db = f32_of(vb); break;
    default: da = f64_of(va); db = f64_of(vb); break;
    }
    if (isnan(da) && isnan(db)) return true;
    if (isnan(da) || isnan(db)) return false;
    if (tol->ulp) {
        int64_t d = ordered(va, bits) - ordered(vb, bits);
        if (d < 0) d = -d;
        if ((uint64_t)d <= tol->ulp) return true;
    }
    if (tol->rel > 0 || tol->abs > 0) {
        double m = fmax(fabs(da), fabs(db));
        if (fabs(da - db) <= tol->abs + tol->rel * m) return true;
    }
    return false;
}

size_t emu_compare_buffers(FILE *out, const EmuResult *a, const EmuResult *b, const EmuArg *args, const EmuTolerance *tol,
                           const uint8_t *const *ignore, int max_report, const char *label_a, const char *label_b)
{
    size_t ndiff = 0;
    int shown = 0;
    for (int k = 0; k < a->nbufs && k < b->nbufs; k++) {
        const EmuBuffer *ba = &a->bufs[k], *bb = &b->bufs[k];
        if (!ba->data || !bb->data) continue;
        size_t es = emu_type_size(ba->type), n = ba->count < bb->count ? ba->count : bb->count;
        size_t here = 0;
        for (size_t i = 0; i < n; i++) {
            if (ignore && ignore[k] && ignore[k][i]) continue;
            uint64_t va = 0, vb = 0;
            memcpy(&va, ba->data + i * es, es);
            memcpy(&vb, bb->data + i * es, es);
            if (within(ba, va, vb, tol)) continue;
            ndiff++;
            here++;
            if (out && shown < max_report) {
                char sa[64], sb[64];
                emu_format_element(sa, sizeof sa, ba, i);
                emu_format_element(sb, sizeof sb, bb, i);
                fprintf(out, "  argument %d (%s) element %zu: %s = %s (0x%0*llx), %s = %s (0x%0*llx)\n", k,
                        args ? args[k].spec : emu_type_name(ba->type), i, label_a, sa, (int)es * 2, (unsigned long long)va, label_b, sb,
                        (int)es * 2, (unsigned long long)vb);
                shown++;
            }
        }
        if (out && here > 0 && shown >= max_report && here > (size_t)max_report)
            fprintf(out, "  argument %d: %zu differing elements in all\n", k, here);
    }
    return ndiff;
}
