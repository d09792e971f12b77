#!/usr/bin/env python3
"""warpcheck.py PRECISE.bin SPLIT.bin BLOCK LAMBDA REL — a split's output, warp by warp.

Both files are f32 buffers (ptxopt-emu --dump=ARG:FILE.bin) of a 1-D launch
where thread i wrote element i.  The warps whose index in their CTA
((i mod BLOCK) / 32) is at least LAMBDA ran the precise copy: their
elements must be bit-identical to PRECISE.  The others ran the approximate
copy: within relative error REL of PRECISE, and (so that the check can
fail) at least one of them must differ when LAMBDA > 0.  Prints the
counts; exit 1 on a violation."""
import struct
import sys


def floats(path):
    data = open(path, "rb").read()
    return struct.unpack("<%df" % (len(data) // 4), data), struct.unpack("<%dI" % (len(data) // 4), data)


def main():
    (pf, pb), (sf, sb) = floats(sys.argv[1]), floats(sys.argv[2])
    block, lam, rel = int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
    same = differ = bad = 0
    worst = 0.0
    for i in range(len(pf)):
        approx = (i % block) // 32 < lam
        if pb[i] == sb[i]:
            same += 1
            continue
        differ += 1
        if not approx:
            print("element %d (precise warp) differs: %r vs %r" % (i, pf[i], sf[i]))
            bad += 1
            continue
        err = abs(sf[i] - pf[i]) / max(abs(pf[i]), 1e-30)
        worst = max(worst, err)
        if err > rel:
            print("element %d (approximate warp) error %.3g > %g: %r vs %r" % (i, err, rel, pf[i], sf[i]))
            bad += 1
    if lam > 0 and differ == 0:
        print("no element of an approximate warp differs")
        bad += 1
    print("%d identical, %d differ (all in approximate warps: %s), worst relative error %.3g" %
          (same, differ, "yes" if bad == 0 else "no", worst))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
