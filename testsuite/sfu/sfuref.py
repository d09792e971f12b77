#!/usr/bin/env python3
"""sfuref.py -- independent references for the SFU evaluation kernels
(testsuite/sfu/Inputs/*.cu), computed in double precision in Python.

    python3 sfuref.py KERNEL OUT=FILE ...

regenerates the kernel's inputs with the emulator's documented generator
(testsuite/emu/emuref.py: gen), recomputes every output element from the
formula (not from the PTX), and compares it with the dumped binary outputs
within a tolerance that covers single-precision evaluation (stated per
kernel below).  Prints the first mismatches and the largest deviation;
exits 1 when any element is outside its tolerance.

The launches (the .test files use the same numbers):
  blackscholes  n=512 options; price U[5,30) seed 1, strike U[1,100) seed 2,
                years U[0.25,10) seed 3; r=0.02, v=0.30
  boxmuller     512 pairs; u U[0.0001,1) seed 4
  nbody         256 bodies (x, y, z, m) U[-1,1) seed 5; eps2=0.01
  mriq          256 points x, y, z U[-1,1) seeds 6, 7, 8; 64 k-space samples
                kx, ky, kz U[-2,2) seeds 9, 10, 11; phimag U[0,1) seed 12
  dpops         1024 pairs x, y U[0,1) (f64) seeds 21, 22: x/y, 1/x, sqrt x,
                1/sqrt x, each correctly rounded in double (tolerance 0)
"""
import math
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "emu"))
from emuref import gen, load  # noqa: E402


def cnd(d):
    a1, a2, a3, a4, a5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
    k = 1.0 / (1.0 + 0.2316419 * abs(d))
    c = 0.39894228040143267794 * math.exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))))
    return 1.0 - c if d > 0 else c


def blackscholes(a):
    n, r, v = 512, 0.02, 0.30
    s, x, t = gen("f32", n, 1, 5, 30), gen("f32", n, 2, 1, 100), gen("f32", n, 3, 0.25, 10)
    call, put = load(a["call"], "f32"), load(a["put"], "f32")
    out = []
    for i in range(n):
        d1 = (math.log(s[i] / x[i]) + (r + 0.5 * v * v) * t[i]) / (v * math.sqrt(t[i]))
        d2 = d1 - v * math.sqrt(t[i])
        e = math.exp(-r * t[i])
        c = s[i] * cnd(d1) - x[i] * e * cnd(d2)
        p = x[i] * e * (1 - cnd(d2)) - s[i] * (1 - cnd(d1))
        tol = 5e-7 * (s[i] + x[i])   # f32 rounding of terms of size s and x
        out.append(("call[%d]" % i, call[i], c, tol))
        out.append(("put[%d]" % i, put[i], p, tol))
    return out


def boxmuller(a):
    n = 512
    u = gen("f32", 2 * n, 4, 0.0001, 1)
    got = load(a["out"], "f32")
    out = []
    for i in range(n):
        r = math.sqrt(-2.0 * math.log(u[2 * i]))
        phi = 2 * math.pi * u[2 * i + 1]
        tol = 1e-6 * (r + 1)
        out.append(("out[%d]" % (2 * i), got[2 * i], r * math.cos(phi), tol))
        out.append(("out[%d]" % (2 * i + 1), got[2 * i + 1], r * math.sin(phi), tol))
    return out


def nbody(a):
    n, eps2 = 256, 0.01
    b = gen("f32", 4 * n, 5)
    got = load(a["acc"], "f32")
    out = []
    for i in range(n):
        acc, mag = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
        for j in range(n):
            d = [b[4 * j + c] - b[4 * i + c] for c in range(3)]
            d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2
            s = b[4 * j + 3] / (d2 * math.sqrt(d2))
            for c in range(3):
                acc[c] += d[c] * s
                mag[c] += abs(d[c] * s)
        for c in range(3):
            out.append(("acc[%d]" % (3 * i + c), got[3 * i + c], acc[c], 1e-6 * mag[c] + 1e-7))
    return out


def mriq(a):
    nx, nk = 256, 64
    x, y, z = gen("f32", nx, 6), gen("f32", nx, 7), gen("f32", nx, 8)
    kx, ky, kz = gen("f32", nk, 9, -2, 2), gen("f32", nk, 10, -2, 2), gen("f32", nk, 11, -2, 2)
    phi = gen("f32", nk, 12, 0, 1)
    qr, qi = load(a["qr"], "f32"), load(a["qi"], "f32")
    out = []
    for i in range(nx):
        sr = si = mag = 0.0
        for k in range(nk):
            arg = 2 * math.pi * (kx[k] * x[i] + ky[k] * y[i] + kz[k] * z[i])
            sr += phi[k] * math.cos(arg)
            si += phi[k] * math.sin(arg)
            mag += phi[k] * (1 + abs(arg))   # the argument's f32 rounding is amplified by |arg|
        out.append(("qr[%d]" % i, qr[i], sr, 1e-7 * mag))
        out.append(("qi[%d]" % i, qi[i], si, 1e-7 * mag))
    return out


def dpops(a):
    n = 1024
    x, y = gen("f64", n, 21, 0, 1), gen("f64", n, 22, 0, 1)
    got = [load(a[k], "f64") for k in ("q", "r", "s", "rs")]
    out = []
    for i in range(n):
        want = (x[i] / y[i], 1 / x[i], math.sqrt(x[i]), 1 / math.sqrt(x[i]))
        for k, name in enumerate(("q", "r", "s", "rs")):
            out.append(("%s[%d]" % (name, i), got[k][i], want[k], 0.0))
    return out


def main():
    kernel = sys.argv[1]
    args = dict(s.split("=", 1) for s in sys.argv[2:])
    rows = globals()[kernel](args)
    bad = [(w, g, r, t) for (w, g, r, t) in rows if not abs(g - r) <= t]
    worst = max(rows, key=lambda row: abs(row[1] - row[2]) / row[3] if row[3] else abs(row[1] - row[2]))
    for w, g, r, t in bad[:10]:
        print("MISMATCH %s %s: got %.9g, reference %.9g, tolerance %.3g" % (kernel, w, g, r, t))
    print("%s: %d elements, %d outside tolerance; largest deviation %s: %.3g (%.2f of its tolerance)"
          % (kernel, len(rows), len(bad), worst[0], abs(worst[1] - worst[2]),
             abs(worst[1] - worst[2]) / worst[3] if worst[3] else 0.0))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
