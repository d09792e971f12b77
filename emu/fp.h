/* fp.h — IEEE helpers for the emulator: bit casts, flush-to-zero,
 * canonical NaNs, rounding into narrow formats (f16, bf16, tf32) in every
 * rounding mode, and the deterministic model of the approximate (SFU)
 * instructions.
 *
 * Conventions taken from the PTX ISA and the CUDA programming guide:
 *  - a single-precision result that is NaN is the canonical 0x7fffffff;
 *    double, half and bfloat16 NaN results are 0x7fffffffffffffff, 0x7fff
 *    and 0x7fff (the emulator's choice; PTX leaves payloads unspecified);
 *  - .ftz flushes subnormal inputs and results to sign-preserving zero;
 *  - .sat clamps to [0.0, 1.0] and turns NaN into +0.0.
 * Narrow-format arithmetic is computed in double with round-to-odd and then
 * rounded once into the target format, which is exact for every format of
 * at most 51 significand bits. */
#ifndef PTXOPT_EMU_FP_H
#define PTXOPT_EMU_FP_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define F32_CANON_NAN 0x7fffffffu
#define F64_CANON_NAN 0x7fffffffffffffffull
#define H_CANON_NAN 0x7fffu

static inline float f32_of(uint64_t b) { uint32_t u = (uint32_t)b; float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t bits_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double f64_of(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static inline uint64_t bits_f64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static inline bool f32_is_sub(uint32_t b) { return (b & 0x7f800000u) == 0 && (b & 0x007fffffu) != 0; }
static inline uint32_t f32_ftz(uint32_t b) { return f32_is_sub(b) ? (b & 0x80000000u) : b; }
static inline bool f32_is_nan(uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u; }
static inline bool f64_is_nan(uint64_t b) { return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }

/* Final touch of a single-precision result: canonical NaN, ftz, sat. */
static inline uint32_t f32_result(float r, bool ftz, bool sat)
{
    uint32_t b = bits_f32(r);
    if (f32_is_nan(b)) return sat ? 0 : F32_CANON_NAN;
    if (ftz) b = f32_ftz(b);
    if (sat) {
        if (b & 0x80000000u) return 0;              /* negative (incl. -0) -> +0 */
        if (b > 0x3f800000u) return 0x3f800000u;    /* > 1.0 */
    }
    return b;
}
static inline uint64_t f64_result(double r, bool sat)
{
    uint64_t b = bits_f64(r);
    if (f64_is_nan(b)) return sat ? 0 : F64_CANON_NAN;
    if (sat) {
        if (b >> 63) return 0;
        if (b > 0x3ff0000000000000ull) return 0x3ff0000000000000ull;
    }
    return b;
}

/* Narrow formats. */
double f16_to_double(uint16_t h);
double bf16_to_double(uint16_t h);
bool f16_is_nan(uint16_t h);
bool bf16_is_nan(uint16_t h);
/* Rounds an exact double into a format with p significand bits (hidden bit
 * included) and ebits exponent bits; rnd is RND_* from internal.h.
 * ftz flushes a subnormal result to signed zero, satfinite clamps to the
 * largest finite value instead of infinity. */
uint64_t fp_round_pack(double x, int p, int ebits, int rnd, bool ftz, bool satfinite);
uint16_t double_to_f16(double x, int rnd, bool ftz);
uint16_t double_to_bf16(double x, int rnd, bool ftz);

/* Arithmetic in double with round-to-odd (a correct first step before
 * rounding into a narrower format). op: '+', '-', '*', '/', 'f' (fma), 's' (sqrt). */
double fp_rto(int op, double a, double b, double c);

/* f32 / f64 arithmetic in a directed rounding mode (RND_RN .. RND_RP). */
float f32_op_rnd(int op, float a, float b, float c, int rnd);
double f64_op_rnd(int op, double a, double b, double c, int rnd);
/* Converts double -> float in a rounding mode. */
float f64_to_f32_rnd(double x, int rnd);
/* Integer -> float in a rounding mode (through long double, exact for 64-bit). */
float i64_to_f32_rnd(int64_t v, bool is_unsigned, int rnd);
double i64_to_f64_rnd(int64_t v, bool is_unsigned, int rnd);
/* Rounds to an integral value (rni/rzi/rmi/rpi). */
double fp_round_integral(double x, int rnd);

/* The approximate-instruction model: the function computed in double
 * precision and rounded to nearest in the destination format.  op is an
 * EK_F* code (EK_FSIN, EK_FEX2, ...). */
double fp_approx(int op, double x);

/* The error model (approx_error.c): the documented bound of an f32
 * approximate instruction for its inputs (op EK_F*, full: div.full), false
 * when the table has none; the result under model m given the exact value
 * (inputs already flushed when .ftz); the bit-wise definition of
 * rcp/rsqrt.approx.ftz.f64 (op EK_FRCP or EK_FRSQRT, the input's bits). */
struct EmuApprox;
struct EmuApproxBound;
bool emu_approx_bound_f32(int op, bool full, float a, float b, struct EmuApproxBound *out);
float emu_approx_f32(const struct EmuApprox *m, int op, bool full, uint32_t ia, uint32_t ib, double exact);
/* sin/cos.approx (EK_FSIN/EK_FCOS) as ptxas lowers them (FMUL.RZ by 1/2pi,
 * MUFU of the fraction): the model beyond |a| = 100 pi. */
double emu_approx_sincos_lowered(int op, float a);
double emu_approx_f64_gross(int op, uint64_t ia);

#endif
