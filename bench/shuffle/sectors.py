#!/usr/bin/env python3
"""sectors.py -- what the shuffle pass saves in global memory traffic, measured
in the SIMT emulator (issue 6 (b)).

    sectors.py --ptxopt=P --emu=E [--srcdir=DIR] [--set=nvcc|kernelgen|all]
               [--opts='max-delta=31;max-shuffles=1000;loops=1'] [--check]
               [--require-run] [--require-expected] [--scratch=DIR]

For every kernel of the set: rewrite it with shuffle<OPTS> (sm_80 corpus
file), read the pass's own "loads L, shuffles S" remark, then

 1. run original and rewritten with `ptxopt-emu --diff` (3 ITS seeds and
    hanoi, bit for bit) on a launch of full warps and on one with a partial
    warp per block;
 2. run both once more under --policy=hanoi (deterministic counts) with
    --counters and print global-load requests and 32-byte sectors per warp
    (launched warps, the same denominator before and after).

With --check the exit status is 1 when any kernel breaks a rule:
  * the outputs differ (either launch);
  * S > 0 and shuffles were issued on the full-warp launch, but there
    sectors/warp did not strictly drop or requests/warp rose; or on the
    partial launch sectors or requests rose (a warp that is not full takes
    the fallback load, so equal is the floor there);
  * no shuffle was issued (S = 0, or the rewritten loads never run) and
    the counters changed;
  * --require-run: S > 0 but no shuffle was issued on the full-warp launch
    (the kernelgen launches run every body load on full interior warps;
    the nvcc stencil3d_7pt's rewritten loads sit in a remainder that only
    ever runs the boundary plane z = nz - 1, so it needs the exemption);
  * --require-expected: a kernelgen kernel's S is not the number of
    shuffles count_shuffles.py (the README's "expected" column: a perfect
    pass under the paper's policy) finds in its PTX.
Requests do not drop for N != 0: the corner lanes of a full warp (|N| of
them) still issue the fallback load, which is one request with fewer
sectors.  Only N = 0 reuses remove whole requests.

Counts are deterministic (hanoi), so tests FileCheck the printed lines.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

# nvcc corpus stencils (testsuite/kernels/*.cu): explicit launches, since
# their parameters are (out, in, [rhs,] sizes).  Full: block x a multiple of
# 32, every launched thread in range; partial: 48-wide blocks (a 16-lane
# warp in each).  Boundary lanes still diverge inside a full warp; those
# warps take the fallback, which the per-warp average includes.
NX, NY, NZ = 96, 8, 5


def forced(opts):
    """The options with profit=off unless they say otherwise: the figures are
    what the rewrite does, whatever the gate would decide."""
    return opts if "profit=" in opts else (opts + ";" if opts else "") + "profit=off"


def ceil(a, b):
    return (a + b - 1) // b


def nvcc_launch(kind, partial):
    bx, by = (48, 1) if partial else (32, 4)
    n2, n3 = NX * NY, NX * NY * NZ
    g2 = "--grid=%d,%d" % (ceil(NX, bx), ceil(NY, by))
    b = "--block=%d,%d" % (bx, by)
    if kind == "1d":
        n, bx = NX * 4, 48 if partial else 128
        return ["--grid=%d" % ceil(n, bx), "--block=%d" % bx,
                "--arg=buf:f32:%d:zeros" % n, "--arg=buf:f32:%d:random" % n,
                "--arg=i32:%d" % n]
    if kind == "2d":
        return [g2, b, "--arg=buf:f32:%d:zeros" % n2,
                "--arg=buf:f32:%d:random" % n2, "--arg=i32:%d" % NX,
                "--arg=i32:%d" % NY]
    if kind == "2d_rhs":
        return [g2, b, "--arg=buf:f32:%d:zeros" % n2,
                "--arg=buf:f32:%d:random" % n2,
                "--arg=buf:f32:%d:random:7" % n2, "--arg=i32:%d" % NX,
                "--arg=i32:%d" % NY]
    if kind in ("3d_zloop", "3d_zgrid"):
        g = g2 + (",%d" % NZ if kind == "3d_zgrid" else "")
        return [g, b, "--arg=buf:f32:%d:zeros" % n3,
                "--arg=buf:f32:%d:random" % n3, "--arg=i32:%d" % NX,
                "--arg=i32:%d" % NY, "--arg=i32:%d" % NZ]
    raise ValueError(kind)


NVCC = [  # (kernel, launch kind)
    ("stencil1d_3pt", "1d"),
    ("stencil2d_5pt", "2d"),
    ("stencil3d_7pt", "3d_zloop"),
    ("stencil3d_13pt", "3d_zgrid"),
    ("jacobi_restrict", "2d_rhs"),
    ("blur5x5", "2d"),
]

# KernelGen ports (testsuite/kernels/kernelgen/*.cu): the launch is derived
# from the .entry's parameters, which follow one convention: the .u32
# parameters are the sizes in order (nx, ny, ns|nk), .f32 ones are
# coefficients, .u64 ones are float arrays of at most nx*ny*ns elements.
# The vector index is lo + 512*ctaid.y + tid.x (128 in gameoflife and
# matvec), so with nx = 70 every lane of a 64-thread block passes the
# i < nx - 2 guard (full warps; 48 threads give a 16-lane warp), and
# grid.x = 2 runs the gang loop on two blocks.  ny = 7, ns = 6 leave two
# rows and planes of interior for radius 2.
KG = ["divergence", "gameoflife", "gaussblur", "gradient", "jacobi",
      "lapgsrb", "laplacian", "matmul", "matvec", "sincos", "tricubic",
      "tricubic2", "uxx1", "vecadd", "wave13pt", "whispering"]
KG_SIZES = (70, 7, 6)
PARAM = re.compile(r"\.param\s+\.(\w+)\s+\w+")


def kg_args(ptx, params, dims):
    """The --arg list of a KernelGen port whose .entry parameter list is
    `params`, for sizes dims = (nx, ny, ns) (the convention above)."""
    n = dims[0] * dims[1] * dims[2]
    args, sizes, seed = [], list(dims), 1
    for t in PARAM.findall(params):
        if t in ("u32", "s32", "b32"):
            args.append("--arg=i32:%d" % sizes.pop(0))
        elif t == "f32":
            args.append("--arg=f32:0.%d" % (seed + 2))
            seed += 1
        elif t in ("u64", "b64"):
            args.append("--arg=buf:f32:%d:random:%d" % (n, seed))
            seed += 1
        else:
            raise ValueError("%s: parameter type .%s" % (ptx, t))
    return args


def kg_launch(ptx, bx):
    with open(ptx) as f:
        text = f.read()
    m = re.search(r"\.entry\s+\w+\s*\((.*?)\)", text, re.S)
    return ["--grid=2", "--block=%d" % bx] + kg_args(ptx, m.group(1), KG_SIZES)


def warps(launch):
    dims = {}
    for a in launch:
        for key in ("grid", "block"):
            if a.startswith("--%s=" % key):
                dims[key] = math.prod(int(x) for x in a.split("=")[1].split(","))
    return dims["grid"] * ceil(dims["block"], 32)


def expected_kernelgen(srcdir):
    """Kernel -> shuffles a perfect pass makes (count_shuffles.py, the
    README's expected column)."""
    kdir = os.path.join(srcdir, "testsuite", "kernels", "kernelgen")
    sys.path.insert(0, kdir)
    import count_shuffles  # noqa: E402
    corpus = os.path.join(srcdir, "testsuite", "corpus", "kernelgen")
    out = {}
    for k in KG:
        res = count_shuffles.analyse(k, os.path.join(corpus, k + ".sm_80.ptx"))
        out[k] = len(res[2])
    return out


STAT = re.compile(r"\[shuffle\] (\S+): loads (\d+), shuffles (\d+), mean \|N\| ([0-9.]+)")


def rewrite(ptxopt, src, dst, opts):
    r = subprocess.run([ptxopt, "--remarks", "--passes=shuffle<%s>" % forced(opts),
                        src, "-o", dst], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("ptxopt failed on %s:\n%s" % (src, r.stderr))
    m = STAT.search(r.stderr)
    return int(m.group(2)), int(m.group(3)), float(m.group(4))


class EmuError(Exception):
    pass


def counters_json(emu, ptx, launch, scratch):
    """ptxopt-emu --policy=hanoi --counters: the whole JSON object."""
    out = os.path.join(scratch, "counters.json")
    r = subprocess.run([emu, "-q", "--policy=hanoi", "--counters=" + out, ptx]
                       + launch, capture_output=True, text=True)
    if r.returncode != 0:
        # a check fired (POISON, OUT_OF_BOUNDS, ...): no figures
        raise EmuError(((r.stdout + r.stderr).strip().splitlines() or ["status %d" % r.returncode])[0])
    with open(out) as f:
        return json.load(f)


def counters(emu, ptx, launch, scratch):
    c = counters_json(emu, ptx, launch, scratch)
    return (c["global_load"]["requests"], c["global_load"]["sectors"],
            c["warp_instructions"]["shuffle"])


def diff(emu, a, b, launch):
    r = subprocess.run([emu, "-q", "--diff", a, b, "--max-report=3"] + launch,
                       capture_output=True, text=True)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


def headline(msg):
    """The line of a --diff report that says what went wrong."""
    lines = msg.splitlines() or ["?"]
    for line in lines:
        if "error:" in line or "differ" in line:
            return line.strip()
    return lines[0].strip()


def arrow(before, after):
    return "%.2f -> %.2f" % (before, after)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxopt", default="ptxopt")
    ap.add_argument("--emu", default="ptxopt-emu")
    ap.add_argument("--srcdir", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--set", choices=("nvcc", "kernelgen", "all"), default="all")
    ap.add_argument("--opts", default="max-delta=31;max-shuffles=1000;loops=1")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--require-expected", action="store_true")
    ap.add_argument("--require-run", action="store_true")
    ap.add_argument("--scratch")
    a = ap.parse_args()
    scratch = a.scratch or tempfile.mkdtemp(prefix="sectors.")
    os.makedirs(scratch, exist_ok=True)

    jobs = []  # (set, kernel, ptx, full launch, partial launch)
    if a.set in ("nvcc", "all"):
        for k, kind in NVCC:
            p = os.path.join(a.srcdir, "testsuite", "corpus", "nvcc", k + ".sm_80.ptx")
            jobs.append(("nvcc", k, p, nvcc_launch(kind, False), nvcc_launch(kind, True)))
    expect = {}
    if a.set in ("kernelgen", "all"):
        expect = expected_kernelgen(a.srcdir)
        for k in KG:
            p = os.path.join(a.srcdir, "testsuite", "corpus", "kernelgen", k + ".sm_80.ptx")
            jobs.append(("kernelgen", k, p, kg_launch(p, 64), kg_launch(p, 48)))

    print("shuffle<%s>, sm_80 corpus files, ptxopt-emu --policy=hanoi" % a.opts)
    print("L, S, mean|N|: the pass's remark; then per launched warp, original -> rewritten:")
    print("shfl = shuffles issued, global-load sectors (32 B) and requests;"
          " full-warp launch | partial-warp launch")
    print("%-15s %-9s %3s %3s %6s | %5s %5s %18s %16s | %5s %18s %16s | %s"
          % ("kernel", "set", "L", "S", "mean|N|", "warps", "shfl", "sectors", "requests",
             "warps", "sectors", "requests", "check"))
    bad = 0
    for sset, k, src, full, part in jobs:
        dst = os.path.join(scratch, k + ".ptx")
        loads, shuf, mean = rewrite(a.ptxopt, src, dst, a.opts)
        problems = []
        for name, launch in (("full", full), ("partial", part)):
            ok, msg = diff(a.emu, src, dst, launch)
            if not ok:
                problems.append("%s launch differs: %s" % (name, headline(msg)))
        fig = []
        try:
            for launch in (full, part):
                w = warps(launch)
                r0, s0, h0 = counters(a.emu, src, launch, scratch)
                r1, s1, h1 = counters(a.emu, dst, launch, scratch)
                fig.append((w, (h1 - h0) / w, r0 / w, r1 / w, s0 / w, s1 / w))
        except EmuError as e:
            bad += 1
            problems.append("emulator: %s" % e)
            print("%-15s %-9s %3d %3d %6.2f | FAIL: %s"
                  % (k, sset, loads, shuf, mean, "; ".join(problems)))
            continue
        (w, h, r0, r1, s0, s1), (pw, ph, pr0, pr1, ps0, ps1) = fig
        if shuf > 0 and h > 0:
            if not s1 < s0:
                problems.append("full warps: sectors/warp did not drop")
            if r1 > r0:
                problems.append("full warps: requests/warp rose")
            if ps1 > ps0 or pr1 > pr0:
                problems.append("partial warps: loads rose")
        elif (r0, s0, pr0, ps0) != (r1, s1, pr1, ps1):
            problems.append("no shuffle ran but the counters changed")
        if a.require_run and shuf > 0 and h == 0:
            problems.append("no rewritten load runs on full warps")
        if a.require_expected and k in expect and shuf != expect[k]:
            problems.append("README expects %d shuffles, the pass made %d" % (expect[k], shuf))
        verdict = "ok" if not problems else "FAIL: " + "; ".join(problems)
        if not problems and shuf > 0 and h == 0:
            verdict = "ok (no rewritten load runs)"
        if problems:
            bad += 1
        print("%-15s %-9s %3d %3d %6.2f | %5d %5.2f %18s %16s | %5d %18s %16s | %s"
              % (k, sset, loads, shuf, mean, w, h, arrow(s0, s1), arrow(r0, r1),
                 pw, arrow(ps0, ps1), arrow(pr0, pr1), verdict))
    if a.check and bad:
        print("sectors.py: %d kernel(s) failed" % bad, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
