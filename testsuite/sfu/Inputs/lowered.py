#!/usr/bin/env python3
"""lowered.py write IN.bin | check IN.bin OUT.bin — sin.approx where the
hardware is worst (issue 24 item 4), end to end in the emulator.

write: the inputs (f32): huge, beyond 100 pi, within it, subnormal,
infinite, NaN; one per thread of Inputs/approx_ops.ptx.
check: OUT is approx_ops's output under --approx=bound: sin.approx within
the documented bound of sin(x) up to 100 pi, far from sin(x) at 1e6..1e8
(ptxas's FMUL.RZ by 1/2pi loses the argument's fraction there), 0 for a
huge argument (an integer number of revolutions), NaN for infinities and
NaN, x for a subnormal x; ex2.approx's overflow is +inf and its underflow
+0 (the ISA's special values, not FLT_MAX or a negative subnormal).
Prints the counts; exit 1 on a failure."""
import math
import struct
import sys

INPUTS = [0.5, -3.0, 6.0, 300.0, -300.0, 1e5, 1e6, 1e7, 1e8, -1e7, 3e38, -3e38, 1e-40, -1e-40,
          float("inf"), float("-inf"), float("nan"), 200.0, -200.0, 2.5]


def main():
    if sys.argv[1] == "write":
        open(sys.argv[2], "wb").write(struct.pack("<%df" % len(INPUTS), *INPUTS))
        return
    xs = struct.unpack("<%df" % len(INPUTS), open(sys.argv[2], "rb").read())
    out = open(sys.argv[3], "rb").read()
    res = struct.unpack("<%df" % (len(out) // 4), out)
    fails = 0
    for i, x in enumerate(xs):
        s, e2 = res[4 * i], res[4 * i + 1]
        ok = True
        if math.isnan(x) or math.isinf(x):
            ok = math.isnan(s)
        elif abs(x) > 1e30:
            ok = abs(s) <= 2 ** -20.5
        elif abs(x) >= 1e6:
            ok = abs(s - math.sin(x)) > 0.05
        elif abs(x) <= 100 * math.pi:
            ok = abs(s - math.sin(x)) <= (2 ** -20.5 if abs(x) <= 2 * math.pi else 2 ** -14.7) * 1.001
        if x == 200.0:
            ok = ok and math.isinf(e2) and e2 > 0
        if x == -200.0:
            ok = ok and e2 == 0 and math.copysign(1, e2) > 0
        if not ok:
            fails += 1
            print("x=%r: sin.approx %r (sin %r), ex2.approx %r" % (x, s, math.sin(x) if math.isfinite(x) else None, e2))
    print("lowered: %d inputs, %d failures" % (len(xs), fails))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
