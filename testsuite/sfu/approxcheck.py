#!/usr/bin/env python3
"""approxcheck.py -- checks ptxopt-emu's --approx error model end to end on
Inputs/approx_ops.ptx (out[4i..4i+3] = sin.approx(x), ex2.approx(x),
rsqrt.approx(|x|+1), div.approx(x, 3)).

    python3 approxcheck.py MODE in=FILE out=FILE

MODE exact: every result is the exact value rounded to nearest.
MODE up / down: every result lies on that side of the exact value, by
exactly the documented bound: 2 ulps (ex2, div) from the rounded result;
for sin (absolute 2^-20.5 on |x| <= 2 pi) and rsqrt (relative 2^-22.9) the
result is inside the bound and the next float outward is not.
MODE within: every result is within the bound (random mode).
The exact values are computed here in double precision, independently of
the emulator.  Exits 1 on the first failures (printed)."""
import math
import os
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "emu"))
from emuref import load  # noqa: E402


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def bits(x):
    return struct.unpack("<i", struct.pack("<f", x))[0]


def ordered(x):
    b = bits(x)
    return b if b >= 0 else -(b & 0x7FFFFFFF)


def step(x, k):
    o = ordered(x) + k
    b = o if o >= 0 else (-o) | 0x80000000
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def gross(op, x):
    """rcp/rsqrt.approx.ftz.f64 by their definition: the upper word of x,
    the result truncated to 1.11.20 (low word zero)."""
    hi = struct.unpack("<Q", struct.pack("<d", x))[0] & 0xFFFFFFFF00000000
    xv = struct.unpack("<d", struct.pack("<Q", hi))[0]
    r = 1 / xv if op == "rcp" else 1 / math.sqrt(xv)
    rb = struct.unpack("<Q", struct.pack("<d", r))[0] & 0xFFFFFFFF00000000
    return struct.unpack("<d", struct.pack("<Q", rb))[0]


def check_f64(mode, a):
    """Inputs/approx_f64_ftz.ptx: the gross f64 forms (bit-wise model in
    bound/random mode, the rounded exact value in exact mode) and .ftz on
    a subnormal sin.approx input (flushed: the result is zero; without
    .ftz it is not)."""
    xs, outd, outf = load(a["in"], "f64"), load(a["outd"], "f64"), load(a["outf"], "f32")
    bad = []
    for i, x in enumerate(xs):
        for k, (op, arg) in enumerate((("rcp", x), ("rsqrt", abs(x)))):
            want = gross(op, arg) if mode != "exact" else (1 / arg if op == "rcp" else 1 / math.sqrt(arg))
            if outd[2 * i + k] != want:
                bad.append("%s.approx.ftz.f64(%r) = %r, want %r" % (op, arg, outd[2 * i + k], want))
        if outf[2 * i] != 0 or outf[2 * i + 1] == 0:
            bad.append("sin.approx(.ftz) of the subnormal %r: %r (ftz), %r" % (x * 2.0 ** -140, outf[2 * i], outf[2 * i + 1]))
    for b in bad[:10]:
        print("FAIL", b)
    print("f64/ftz %s: %d inputs, %d failures" % (mode, len(xs), len(bad)))
    sys.exit(1 if bad else 0)


def main():
    mode = sys.argv[1]
    a = dict(s.split("=", 1) for s in sys.argv[2:])
    if "outd" in a:
        check_f64(mode, a)
    xs, out = load(a["in"], "f32"), load(a["out"], "f32")
    bad = []
    for i, x in enumerate(xs):
        rows = [("sin", math.sin(x), "abs", 2 ** -20.5), ("ex2", 2.0 ** x, "ulp", 2),
                ("rsqrt", 1 / math.sqrt(f32(abs(x) + 1)), "rel", 2 ** -22.9), ("div", x / f32(3.0), "ulp", 2)]
        for k, (name, exact, kind, bound) in enumerate(rows):
            r = out[4 * i + k]
            if kind == "ulp":
                err = abs(ordered(r) - ordered(f32(exact)))
            else:
                err = abs(r - exact) / (abs(exact) if kind == "rel" else 1)
            ok = True
            if mode == "exact":
                ok = r == f32(exact)
            elif mode == "within":
                ok = err <= bound
            else:
                s = 1 if mode == "up" else -1
                ok = (r - exact) * s > 0
                if kind == "ulp":
                    ok = ok and err == bound
                else:
                    o = step(r, s)
                    eo = abs(o - exact) / (abs(exact) if kind == "rel" else 1)
                    ok = ok and err <= bound < eo
            if not ok:
                bad.append("%s(%r) = %r: exact %r, error %g (%s bound %g)" % (name, x, r, exact, err, kind, bound))
    for b in bad[:10]:
        print("FAIL", b)
    print("%s: %d results, %d failures" % (mode, 4 * len(xs), len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
