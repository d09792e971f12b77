#!/usr/bin/env python3
"""emuref.py -- reference computations for the emulator tests (testsuite/emu).

Each test runs a corpus kernel in ptxopt-emu, dumps buffers in binary, and
calls

    python3 emuref.py CHECK [key=value ...] [name=FILE ...]

The CHECK function below recomputes the expected output in Python from the
*same inputs* (either regenerated with the emulator's documented random
generator, or read back from input buffers dumped by the test) and compares
it with the dumped output.  It prints the first mismatches and exits 1 when
anything differs.  Floating-point results that go through fused multiply-add
or libm-style sequences are compared with a small relative tolerance;
integer results are compared exactly.

The generator (see emu/args.c): splitmix64 with state = SEED; for each
element z = next(); integers: LO + z mod (HI - LO); floats:
LO + (z >> 11) * 2**-53 * (HI - LO) rounded to the element type.  Default
ranges: unsigned [0, 256), signed [-128, 128), floats [-1, 1).
"""
import math
import struct
import sys

sys.dont_write_bytecode = True
from fractions import Fraction

M64 = (1 << 64) - 1
FMT = {"u8": "B", "i8": "b", "u16": "H", "i16": "h", "u32": "I", "i32": "i", "u64": "Q", "i64": "q",
       "f32": "f", "f64": "d", "f16": "e"}


def splitmix(seed, n):
    s = seed
    for _ in range(n):
        s = (s + 0x9E3779B97F4A7C15) & M64
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        yield z ^ (z >> 31)


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def gen(typ, n, seed=1, lo=None, hi=None):
    """The emulator's buf:TYPE:N:random:SEED[:LO:HI] contents."""
    isfloat = typ[0] == "f"
    if lo is None:
        lo, hi = (-1.0, 1.0) if isfloat else ((-128, 128) if typ[0] == "i" else (0, 256))
    out = []
    for z in splitmix(seed, n):
        if isfloat:
            v = lo + (z >> 11) * 2.0 ** -53 * (hi - lo)
            out.append(f32(v) if typ == "f32" else v)
        else:
            lo_i, span = int(lo), int(hi) - int(lo)
            out.append(lo_i + z % span)
    return out


def load(path, typ):
    data = open(path, "rb").read()
    size = struct.calcsize(FMT[typ])
    return list(struct.unpack("<%d%s" % (len(data) // size, FMT[typ]), data))


def round_binary(q, sig_bits, emin, maxval):
    """Rounds an exact Fraction to nearest-even in a binary format with
    sig_bits significand bits (hidden bit included) and minimum normal
    exponent emin; values beyond maxval become infinity."""
    if q == 0:
        return 0.0
    sign = -1 if q < 0 else 1
    q = abs(Fraction(q))
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, emin)
    quantum = Fraction(2) ** (e - (sig_bits - 1))
    n = q / quantum
    fl = n.numerator // n.denominator
    rem = n - fl
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1):
        fl += 1
    v = float(fl * quantum)
    if v > maxval:
        v = math.inf
    return sign * v


def round_f32(q):
    """Rounds an exact Fraction to the nearest float32 (ties to even)."""
    return round_binary(q, 24, -126, 3.4028234663852886e38)


def round_bf16(q):
    return round_binary(q, 8, -126, 3.3895313892515355e38)


def round_f16(q):
    return round_binary(q, 11, -14, 65504.0)


def _odd(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0] & 1


def fma32(a, b, c):
    """float32 fma: a*b is exact in double; the sum is rounded to odd in
    double (TwoSum finds the error) and then once to float32, which is
    exact for float32 (53 >= 24 + 2)."""
    p = a * b
    s = p + c
    if math.isinf(s) or math.isnan(s):
        return f32(s)
    bb = s - p
    e = (p - (s - bb)) + (c - bb)
    if e != 0 and not _odd(s):
        s = math.nextafter(s, math.inf if e > 0 else -math.inf)
    return f32(s)


def wrap(v, bits=32, signed=True):
    v &= (1 << bits) - 1
    if signed and v >> (bits - 1):
        v -= 1 << bits
    return v


class Checker:
    def __init__(self, name):
        self.name = name
        self.bad = 0
        self.count = 0

    def eq(self, what, got, want):
        self.count += 1
        if got != want and not (isinstance(got, float) and isinstance(want, float) and math.isnan(got) and math.isnan(want)):
            self.bad += 1
            if self.bad <= 10:
                print("%s: %s: got %r, want %r" % (self.name, what, got, want))

    def close(self, what, got, want, rel=1e-5, abs_=1e-6):
        self.count += 1
        if math.isnan(want) and math.isnan(got):
            return
        if not (abs(got - want) <= max(abs_, rel * abs(want))):
            self.bad += 1
            if self.bad <= 10:
                print("%s: %s: got %r, want %r" % (self.name, what, got, want))

    def done(self):
        if self.count == 0:
            print("%s: nothing compared" % self.name)
            sys.exit(1)
        if self.bad:
            print("%s: %d of %d values differ" % (self.name, self.bad, self.count))
            sys.exit(1)
        print("%s: %d values match" % (self.name, self.count))


def main():
    sys.dont_write_bytecode = True
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    check = sys.argv[1]
    kv = {}
    for a in sys.argv[2:]:
        k, v = a.split("=", 1)
        kv[k] = v
    import emuchecks
    fn = getattr(emuchecks, "check_" + check, None)
    if fn is None:
        print("emuref.py: unknown check %s" % check)
        sys.exit(2)
    c = Checker(check)
    fn(c, kv)
    c.done()


if __name__ == "__main__":
    main()
