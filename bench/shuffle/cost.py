#!/usr/bin/env python3
"""cost.py -- what the shuffle pass's rewrite costs and what its profitability
gate predicted, kernel by kernel (issue 12 §3; make bench-shuffle-cost).

    cost.py --ptxopt=P --emu=E [--run=R] [--srcdir=DIR] [--arch=sm_80]
            [--jobs=2] [--runs=20] [--set=kernelgen|nvcc|inputs|all] [--no-sass]
            [--scratch=DIR]

Kernels: the KernelGen ports and the nvcc stencils of testsuite/corpus
(sm_80 files, launched as bench/shuffle/sectors.py launches them: full
warps, two blocks) and the stencils of testsuite/shuffle/Inputs (the
launches of their tests).  Settings: the default pipeline (`shuffle`: the
gate decides) and the PTXASW paper's (max-delta=31, max-shuffles=1000,
loops=1, profit=off: always rewritten).  For each setting ptxopt runs in
batch mode twice, with the gate (profit=auto) and without it
(profit=off): the gate prices the sites the pass selected and keeps or
drops them all, so the second run is the rewrite it priced.

Table 1, before -> after for what the setting emits: per launched warp,
emulator warp instructions, global-load requests and 32-byte sectors
(ptxopt-emu --policy=hanoi --counters); SASS instructions, SHFL and
registers (ptxopt --sass-report: ptxas + nvdisasm, static counts).
Without ptxas or nvdisasm the SASS columns print n/a and the reason.

Table 2, the gate: its decision and predicted SM cycles per warp before
-> after (the kernel's profitability remark), against the priced
rewrite in the emulator: the model's weights (model/neighbour.c, read
from the source) applied to the emulator's per-warp differences
(issue x warp instructions + shuffle unit x shuffles + L1 x lines, with
lines ~ sectors / 4, + L2 x sectors for loads that bypass L1), and
whether predicted and measured cost change agree in sign.  The model
prices one execution of each site; the emulator counts every iteration
of a loop, so only signs compare.

Table 3 (issue 22), the default gate per block shape (1-D, 2-D 32x4, 2-D
16x4, partial blocks) on the stencils of Inputs/profit.ptx, converged.ptx
and cgloop.ptx, the shape unknown (the PTX as it is) and known (.reqntid
of the launch added to a copy): the decision, the predicted cost change,
the emulator's (model weights x counts) and whether an accepted rewrite
measured worse or the signs disagree; the rows to note are listed at the
end (a shape the gate knows must have none: the unknown shape is priced
for rows of whole warps, and the other shapes pay its 4-instruction
version test).

GPU: when ptxopt-run finds a CUDA device, each rewritten kernel is timed
against its original (bench/gpu/gpu_bench.py's runner: outputs compared,
L2 flushed, median of --runs) and the measured speedup is printed beside
the predicted one; otherwise the bench says it skipped timing and why.
Prints figures; exits non-zero only when a tool fails."""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "gpu"))
import sectors  # noqa: E402  (the corpus kernels, their launches, the emulator's counters)
import gpu_bench  # noqa: E402  (ptxopt-run pairs)

PAPER = "max-delta=31;max-shuffles=1000;loops=1"
SETTINGS = [  # label, options (the gate's run adds nothing, the priced run profit=off)
    ("default", ""),
    ("paper", PAPER),
]


def pipeline(opts, profit):
    parts = [o for o in (opts, "profit=" + profit) if o]
    return "shuffle<%s>" % ";".join(parts)


def shown(opts):
    return "shuffle" if not opts else "shuffle<%s;profit=off>" % opts


# testsuite/shuffle/Inputs: file, kernel, launch (as their tests launch them)
C2D = ["--grid=2,2", "--block=32,4", "--arg=buf:f32:660:zeros", "--arg=buf:f32:660:random", "--arg=i32:66"]
PROFIT = ["--grid=2", "--block=128", "--arg=buf:f32:300:zeros", "--arg=buf:f32:300:random"]
CLAMP = ["--grid=2", "--block=64", "--arg=buf:f32:256:random", "--arg=buf:f32:256:zeros", "--arg=i32:40"]
INPUTS = [
    ("converged.ptx", "conv1d", ["--grid=2", "--block=128", "--arg=buf:f32:258:zeros", "--arg=buf:f32:258:random"]),
    ("converged.ptx", "conv2d", C2D),
    ("converged.ptx", "conv2d_any", C2D),
    ("template.ptx", "loopc", ["--grid=2", "--block=64", "--arg=buf:f32:400:random", "--arg=buf:f32:400:zeros",
                               "--arg=i32:10"]),
    ("profit.ptx", "cached", PROFIT),
    ("profit.ptx", "bypass", PROFIT),
    ("profit.ptx", "copy", PROFIT),
    ("rows2d.ptx", "rows2d", ["--grid=1", "--block=32", "--arg=buf:f32:512:zeros", "--arg=buf:f32:512:random", "--arg=i32:64"]),
    ("clamp.ptx", "clamp_inside", CLAMP),
    ("clamp.ptx", "clamp_outside", CLAMP),
    ("gridstride.ptx", "gridstride", ["--grid=2", "--block=128", "--arg=buf:f32:1000:zeros",
                                      "--arg=buf:f32:1004:random", "--arg=i32:1000"]),
    ("gridstride.ptx", "divloop", ["--grid=2", "--block=128", "--arg=buf:f32:1000:zeros",
                                   "--arg=buf:f32:1004:random", "--arg=i32:40"]),
    # issue 22: loads that bypass L1, a destination in a loop (trip count
    # a parameter, m = 1, or the constant 4), 64-bit values
    ("cgloop.ptx", "cgloop", ["--grid=2,2", "--block=32,4", "--arg=buf:f32:600:random", "--arg=buf:f32:600:zeros",
                              "--arg=i32:66", "--arg=i32:1"]),
    ("cgloop.ptx", "cgloop4", ["--grid=2,2", "--block=32,4", "--arg=buf:f64:600:random", "--arg=buf:f64:600:zeros",
                               "--arg=i32:66", "--arg=i32:1"]),
    ("cgloop.ptx", "cg1d", ["--grid=2", "--block=128", "--arg=buf:f64:300:random", "--arg=buf:f64:300:zeros"]),
]

# Table 3 (issue 22): the default gate's decision against the emulator's
# cost on each block shape, the shape unknown (as the PTX has it) and known
# (.reqntid of the launch added to the kernel).  kernel: (file, 1-D or 2-D
# signature, element type, extra scalar arguments)
SHAPE_KERNELS = [
    ("profit.ptx", "bypass", "1d-out-in", "f32", []),
    ("profit.ptx", "cached", "1d-out-in", "f32", []),
    ("converged.ptx", "conv2d_any", "2d-out-in-nx", "f32", []),
    ("cgloop.ptx", "cg1d", "1d-in-out", "f64", []),
    ("cgloop.ptx", "cgloop", "2d-in-out-nx", "f32", ["--arg=i32:1"]),
    ("cgloop.ptx", "cgloop", "2d-in-out-nx", "f32", ["--arg=i32:8"]),
    ("cgloop.ptx", "cgloop4", "2d-in-out-nx", "f64", ["--arg=i32:1"]),
]
SHAPES = [  # label, 1-D (grid, block), 2-D (grid, block)
    ("1-D", ((2, 1), (128, 1)), ((2, 2), (128, 1))),
    ("2-D 32x4", ((2, 1), (32, 4)), ((2, 2), (32, 4))),
    ("2-D 16x4", ((4, 1), (16, 4)), ((4, 2), (16, 4))),
    ("partial", ((3, 1), (48, 1)), ((2, 2), (40, 3))),
]

GATE = re.compile(r"profitability \((\S+), [^)]*\): (\d+) shuffled loads? predicted at ([0-9.]+) SM cycles per warp "
                  r"against ([0-9.]+) for the loads \(\+([0-9.]+) instructions, ([0-9.]+) of them shuffles; -(\d+) L1 lines, "
                  r"-(\d+) sectors.*?\); (rewritten|not rewritten)")
STAT = re.compile(r"loads (\d+), shuffles (\d+), mean")
APPLIED = re.compile(r"^(shfl\.sync\.\w+|register copy) from the load")


def entry_name(ptx):
    with open(ptx) as f:
        return re.search(r"\.entry\s+(\w+)", f.read()).group(1)


def kernels(srcdir, which):
    """(set, input file, kernel, launch) for every kernel of the set(s)."""
    out = []
    for k in sectors.KG if which in ("kernelgen", "all") else []:
        p = os.path.join(srcdir, "testsuite", "corpus", "kernelgen", k + ".sm_80.ptx")
        out.append(("kernelgen", p, entry_name(p), sectors.kg_launch(p, 64)))
    for k, kind in sectors.NVCC if which in ("nvcc", "all") else []:
        p = os.path.join(srcdir, "testsuite", "corpus", "nvcc", k + ".sm_80.ptx")
        out.append(("nvcc", p, k, sectors.nvcc_launch(kind, False)))
    for f, k, launch in INPUTS if which in ("inputs", "all") else []:
        out.append(("inputs", os.path.join(srcdir, "testsuite", "shuffle", "Inputs", f), k, launch))
    return out


def model_weights(srcdir):
    """The sm_70+ row of model/neighbour.c: issue, shfl, l1_line, l2_sector."""
    with open(os.path.join(srcdir, "model", "neighbour.c")) as f:
        m = re.search(r'\{\s*"Volta and newer",\s*\d+,\s*\d+,\s*([0-9.]+),\s*([0-9.]+),\s*([0-9.]+),\s*([0-9.]+)',
                      f.read())
    if not m:
        sys.exit("cost.py: no \"Volta and newer\" entry in model/neighbour.c")
    return tuple(float(x) for x in m.groups())


def ascii_copies(files, scratch):
    """The inputs with non-ASCII characters (in comments) replaced, which
    ptxas refuses; same lines, same kernels.  Returns {original: copy}."""
    d = os.path.join(scratch, "in")
    os.makedirs(d, exist_ok=True)
    out = {}
    for f in files:
        dst = os.path.join(d, os.path.basename(f))
        with open(f, encoding="utf-8", errors="replace") as fi, open(dst, "w") as fo:
            fo.write("".join(c if ord(c) < 128 else "?" for c in fi.read()))
        out[f] = dst
    return out


def batch(a, files, pipe, outdir, sass):
    """ptxopt in batch mode: {input: {kernel: {"remarks": [...], "sass": {...} or None}}}, sass error or None."""
    report = outdir + ".json"
    cmd = [a.ptxopt, "--passes=" + pipe, "--output-dir=" + outdir, "-q", "-j", str(a.jobs), "--report=" + report]
    if sass:
        cmd += ["--target=" + a.arch, "--sass-report=" + outdir + ".sass.txt"]
    if os.path.exists(report):
        os.remove(report)
    r = subprocess.run(cmd + files, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if sass and not os.path.exists(report):
        # no ptxas or nvdisasm: ptxopt refuses --sass-report up front; the rest without it
        res, _ = batch(a, files, pipe, outdir, False)
        return res, (r.stderr.strip().splitlines() or ["ptxopt --sass-report exited with status %d" % r.returncode])[-1]
    if not os.path.exists(report):
        sys.exit("cost.py: ptxopt failed (%d): %s" % (r.returncode, r.stderr.strip()))
    res, err = {}, None
    for f in json.load(open(report))["files"]:
        if f.get("error"):
            sys.exit("cost.py: %s: %s" % (f["input"], f["error"]))
        ks = {k["name"]: {"remarks": [x["message"] for x in k.get("remarks", []) if x["pass"] == "shuffle"],
                          "sass": None} for k in f.get("kernels", [])}
        s = f.get("sass") or {}
        if sass and "error" in s:
            err = err or s["error"]
        for k in s.get("kernels", []):
            ks.setdefault(k["name"], {"remarks": []})["sass"] = k
        res[f["input"]] = (f["output"], ks)
    if sass and not err and r.returncode != 0:
        err = (r.stderr.strip().splitlines() or ["ptxopt exited with status %d" % r.returncode])[-1]
    return res, err


def gate_of(remarks):
    """(decision, predicted before, after, +instructions, -sectors) or the reason there is none."""
    for m in remarks:
        g = GATE.search(m)
        if g:
            return ("rewritten" if g.group(9) == "rewritten" else "refused",
                    float(g.group(4)), float(g.group(3)), float(g.group(5)), int(g.group(8)))
    shuffles = sum(1 for m in remarks if APPLIED.match(m) and not m.startswith("register copy"))
    copies = sum(1 for m in remarks if m.startswith("register copy"))
    if shuffles:
        return ("forced",)           # profit=off: no gate ran
    return ("N=0 only",) if copies else ("no site",)


def sites_of(remarks):
    for m in remarks:
        s = STAT.search(m)
        if s:
            return int(s.group(2))
    return 0


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha1(f.read()).hexdigest()


class Emu:
    """Per-warp emulator figures, cached by file content and kernel."""

    def __init__(self, emu, scratch):
        self.emu, self.scratch, self.cache = emu, scratch, {}

    def __call__(self, ptx, kernel, launch):
        key = (digest(ptx), kernel, tuple(launch))
        if key not in self.cache:
            try:
                c = sectors.counters_json(self.emu, ptx, ["--kernel=" + kernel] + launch, self.scratch)
                w = sectors.warps(launch)
                wi = c["warp_instructions"]
                self.cache[key] = {"instr": wi["total"] / w, "shfl": wi["shuffle"] / w,
                                   "req": c["global_load"]["requests"] / w, "sec": c["global_load"]["sectors"] / w}
            except sectors.EmuError as e:
                self.cache[key] = {"error": str(e)}
        return self.cache[key]


def arrow(b, a, fmt="%.1f"):
    return (fmt + "->" + fmt) % (b, a)


def bypasses_l1(ptx, kernel):
    """Do KERNEL's global loads bypass L1 (.cg, .cv, .L1::no_allocate)?"""
    text = open(ptx).read()
    m = re.search(r"\.entry\s+%s\b(.*?)(\.entry\s|\Z)" % re.escape(kernel), text, re.S)
    loads = re.findall(r"\bld\.global[\w.:]*", m.group(1) if m else "")
    return bool(loads) and all(re.search(r"\.(cg|cv)\b|L1::no_allocate", l) for l in loads)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxopt", default="ptxopt")
    ap.add_argument("--emu", default="ptxopt-emu")
    ap.add_argument("--run", default="ptxopt-run")
    ap.add_argument("--srcdir", default=os.path.join(HERE, "..", ".."))
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--set", choices=("kernelgen", "nvcc", "inputs", "all"), default="all")
    ap.add_argument("--no-sass", action="store_true", help="leave out the SASS columns (ptxas is slow)")
    ap.add_argument("--scratch")
    a = ap.parse_args()
    if a.scratch:
        os.makedirs(a.scratch, exist_ok=True)
        return report(a, a.scratch)
    with tempfile.TemporaryDirectory(prefix="bench-shuffle-cost.") as scratch:
        return report(a, scratch)


def report(a, scratch):
    issue, shfl_w, l1_w, l2_w = model_weights(a.srcdir)
    jobs = kernels(a.srcdir, a.set)
    copies = ascii_copies(sorted({p for _, p, _, _ in jobs}), scratch)
    files = sorted(copies.values())
    emu = Emu(a.emu, scratch)
    priced_pairs = []  # for the GPU: (kernel, launch, original, priced rewrite, predicted before, after)

    print("shuffle pass: cost before -> after and the profitability gate (%s; emulator: ptxopt-emu --policy=hanoi, "
          "per launched warp)" % a.arch)
    print("model weights (model/neighbour.c, sm_70+): issue %.2f, shuffle %.2f, L1 line %.2f, L2 sector %.2f "
          "SM cycles" % (issue, shfl_w, l1_w, l2_w))
    for label, opts in SETTINGS:
        gated, gerr = batch(a, files, pipeline(opts, "auto"), os.path.join(scratch, label + ".auto"),
                             sass=not opts and not a.no_sass)
        priced, perr = batch(a, files, pipeline(opts, "off"), os.path.join(scratch, label + ".off"),
                              sass=bool(opts) and not a.no_sass)
        # what the setting emits: the gate's run (default) or the forced one (paper); SASS for it
        emitted, sass_err = (gated, gerr) if not opts else (priced, perr)
        print()
        print("== %s: %s" % (label, shown(opts)))
        print("Table 1: before -> after for what it emits (S: sites rewritten, shuffles and N = 0 copies)")
        print("%-15s %-9s %2s | %-15s %-13s %-15s | %-9s %-7s %-7s" % (
            "kernel", "set", "S", "warp instr", "requests", "sectors", "SASS", "SHFL", "regs"))
        rows2 = []
        for sset, src, k, launch in jobs:
            cp = copies[src]
            out, ks = emitted[cp]
            kd = ks.get(k, {"remarks": [], "sass": None})
            e0, e1 = emu(cp, k, launch), emu(out, k, launch)
            if "error" in e0 or "error" in e1:
                emu_cols = "emulator: %s" % (e0.get("error") or e1.get("error"))
                emu_cols = "%-45s" % emu_cols
            else:
                emu_cols = "%-15s %-13s %-15s" % (arrow(e0["instr"], e1["instr"]), arrow(e0["req"], e1["req"]),
                                                 arrow(e0["sec"], e1["sec"]))
            sk = kd.get("sass")
            if sk:
                b, af = sk["before"], sk["after"]
                sass_cols = "%-9s %-7s %-7s" % (arrow(b["total"], af["total"], "%d"), arrow(b["shfl"], af["shfl"], "%d"),
                                                arrow(b["regs"], af["regs"], "%d"))
            else:
                sass_cols = "%-9s %-7s %-7s" % ("n/a", "n/a", "n/a")
            print("%-15s %-9s %2d | %s | %s" % (k, sset, sites_of(kd["remarks"]), emu_cols, sass_cols))
            # the gate against the priced rewrite
            g = gate_of(gated[cp][1].get(k, {"remarks": []})["remarks"])
            pout = priced[cp][0]
            rows2.append((k, sset, g, e0, emu(pout, k, launch), bypasses_l1(cp, k), cp, pout, launch))
        if sass_err or a.no_sass:
            print("SASS n/a: %s" % (sass_err or "--no-sass"))

        print()
        print("Table 2: the gate's decision with these options and profit=auto, its prediction (SM cycles and the")
        print("         remark's +instructions and -sectors, per warp), and the rewrite it priced (profit=off) in the emulator:")
        print("         +instr, -sect and cost (model weights x counts) per warp; sign: do cost and pred (after - before) agree")
        if opts:
            print("         (this setting forces the rewrite: the decision is what the gate would have done)")
        print("%-15s %-9s | %-10s %-13s %-6s %-6s | %-6s %-7s %-7s %-6s | %s" % (
            "kernel", "set", "decision", "pred cycles", "+instr", "-sect", "+instr", "-sect", "cost", "pred", "sign"))
        for k, sset, g, e0, e1, bypass, cp, pout, launch in rows2:
            if len(g) == 1:
                print("%-15s %-9s | %-10s %-13s %-6s %-6s | %-6s %-7s %-7s %-6s | %s" % (
                    k, sset, g[0], "-", "-", "-", "-", "-", "-", "-", "-"))
                continue
            dec, pb, pa, pins, psec = g
            if "error" in e0 or "error" in e1:
                print("%-15s %-9s | %-10s %-13s %-6.1f %-6d | emulator: %s" % (
                    k, sset, dec, arrow(pb, pa, "%.2f"), pins, psec, e0.get("error") or e1.get("error")))
                continue
            di, ds, dsec = e1["instr"] - e0["instr"], e1["shfl"] - e0["shfl"], e1["sec"] - e0["sec"]
            meas = issue * di + shfl_w * ds + l1_w * dsec / 4 + (l2_w * dsec if bypass else 0)
            pred = pa - pb
            if e1 == e0:
                agree = "- (no rewritten load runs on this launch)"
            else:
                agree = "agree" if (meas > 0) == (pred > 0) and meas != 0 else "DISAGREE"
            print("%-15s %-9s | %-10s %-13s %-6.1f %-6d | %-6.1f %-7.1f %-+7.2f %-+6.2f | %s" % (
                k, sset, dec, arrow(pb, pa, "%.2f"), pins, psec, di, 0.0 - dsec, meas, pred, agree))
            if digest(cp) != digest(pout):
                priced_pairs.append((label, sset, k, launch, cp, pout, pb, pa))
    if a.set in ("inputs", "all"):
        shapes_table(a, scratch, emu, (issue, shfl_w, l1_w, l2_w))
    print()
    gpu(a, priced_pairs, scratch)
    return 0


def with_reqntid(src, kernel, block, dst):
    """SRC with `.reqntid bx, by, 1` on KERNEL (the block shape known)."""
    text = open(src).read()
    m = re.search(r"\.entry\s+%s\s*\(" % re.escape(kernel), text)
    depth, i = 0, m.end() - 1
    while True:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            break
        i += 1
    with open(dst, "w") as f:
        f.write(text[:i + 1] + "\n.reqntid %d, %d, 1" % block + text[i + 1:])


def shape_launch(sig, etype, extra, grid, block):
    gx, gy = grid
    bx, by = block
    if sig.startswith("1d"):
        n = gx * bx + 4
        bufs = ["buf:%s:%d:zeros" % (etype, n), "buf:%s:%d:random" % (etype, n)]
        if sig == "1d-in-out":
            bufs.reverse()
        return ["--grid=%d" % gx, "--block=%d,%d" % block] + ["--arg=" + b for b in bufs] + extra
    nx, rows = gx * bx + 2, gy * by + 2
    bufs = ["buf:%s:%d:zeros" % (etype, nx * rows), "buf:%s:%d:random" % (etype, nx * rows)]
    if sig == "2d-in-out-nx":
        bufs.reverse()
    return (["--grid=%d,%d" % grid, "--block=%d,%d" % block] + ["--arg=" + b for b in bufs] +
            ["--arg=i32:%d" % nx] + extra)


def shapes_table(a, scratch, emu, weights):
    """Table 3 (issue 22): the default gate on every block shape, the shape
    unknown and known (.reqntid); returns the rows where an accepted rewrite
    measured worse or prediction and measurement disagree in sign."""
    issue, shfl_w, l1_w, l2_w = weights
    d = os.path.join(scratch, "shapes")
    os.makedirs(d, exist_ok=True)
    print()
    print("Table 3: the default gate (shuffle) per block shape, shape unknown (the PTX as it is) and known (.reqntid")
    print("         of the launch added): decision, predicted cost change (after - before, SM cycles per warp) and the")
    print("         emulator's (model weights x counts, per launched warp); worse: an accepted rewrite costs more")
    print("%-15s %-9s %-8s | %-10s %-8s | %-7s %-7s %-8s | %s" % ("kernel", "shape", "variant", "decision", "pred",
                                                                   "+instr", "-sect", "meas", "check"))
    bad = []
    for f, k, sig, et, extra in SHAPE_KERNELS:
        src = os.path.join(a.srcdir, "testsuite", "shuffle", "Inputs", f)
        label = k + ("(m=%s)" % extra[0].split(":")[-1] if extra and k == "cgloop" else "")
        for shape, one, two in SHAPES:
            grid, block = one if sig.startswith("1d") else two
            launch = shape_launch(sig, et, extra, grid, block)
            for variant in ("unknown", "known"):
                tag = "%s.%s.%s.%s" % (label, shape.replace(" ", "_"), variant, f)
                inp = os.path.join(d, tag + ".in.ptx")
                if variant == "known":
                    with_reqntid(src, k, block, inp)
                else:
                    shutil.copy(src, inp)
                out = os.path.join(d, tag + ".out.ptx")
                r = subprocess.run([a.ptxopt, "--passes=shuffle", "--remarks", inp, "-o", out],
                                   capture_output=True, text=True)
                rem = [l.split("] %s: " % k, 1)[1] for l in r.stderr.splitlines() if "] %s: " % k in l]
                g = gate_of(rem)
                if len(g) == 1:
                    print("%-15s %-9s %-8s | %-10s %-8s | %-7s %-7s %-8s | %s" % (label, shape, variant, g[0], "-", "-", "-",
                                                                                  "-", "unchanged"))
                    continue
                dec, pb, pa, pins, psec = g
                pred = pa - pb
                if dec != "rewritten":
                    print("%-15s %-9s %-8s | %-10s %-+8.2f | %-7s %-7s %-8s | %s" % (label, shape, variant, dec, pred, "-",
                                                                                   "-", "-", "unchanged"))
                    continue
                e0, e1 = emu(inp, k, launch), emu(out, k, launch)
                if "error" in e0 or "error" in e1:
                    print("%-15s %-9s %-8s | %-10s %-+8.2f | emulator: %s" % (label, shape, variant, dec, pred,
                                                                           e0.get("error") or e1.get("error")))
                    bad.append((label, shape, variant, "emulator error"))
                    continue
                dr = subprocess.run([a.emu, "-q", "--diff", inp, out, "--kernel=" + k] + launch, capture_output=True,
                                    text=True)
                di, ds, dsec = e1["instr"] - e0["instr"], e1["shfl"] - e0["shfl"], e1["sec"] - e0["sec"]
                meas = issue * di + shfl_w * ds + l1_w * dsec / 4 + (l2_w * dsec if bypasses_l1(inp, k) else 0)
                notes = []
                if dr.returncode != 0:
                    notes.append("DIFFERS")
                if meas > 1e-9:
                    notes.append("WORSE")
                if (meas > 0) != (pred > 0) or abs(meas) < 1e-9:
                    notes.append("sign DISAGREES")
                print("%-15s %-9s %-8s | %-10s %-+8.2f | %-7.1f %-7.1f %-+8.2f | %s" % (
                    label, shape, variant, dec, pred, di, -dsec, meas, ", ".join(notes) or "no worse, signs agree"))
                if notes:
                    bad.append((label, shape, variant, ", ".join(notes)))
    print()
    if bad:
        print("Table 3 rows to note (accepted and measured worse, or signs that disagree):")
        for row in bad:
            print("  %s %s %s: %s" % row)
    else:
        print("Table 3: every accepted rewrite measured no worse, and every sign agrees")
    return bad


def gpu(a, pairs, scratch):
    if not shutil.which(a.run) and not os.access(a.run, os.X_OK):
        print("GPU: skipped timing: %s not built (configure found no cuda.h)" % a.run)
        return
    if not pairs:
        print("GPU: nothing to time (no kernel was rewritten)")
        return
    header = False
    for label, sset, k, launch, src, dst, pb, pa in pairs:
        if sset == "kernelgen":
            _, launch = gpu_bench.kg_launch(src, k, 4096, 256, 16)
        rc, rows, head, err = gpu_bench.run_pair(a.run, src, dst, k, launch, a.runs)
        if rc == 3:
            print("GPU: skipped timing: %s" % (err or "ptxopt-run found no CUDA device"))
            return
        if not header:
            dev = (head or "an unnamed device").replace("# ptxopt-run: ", "")
            print("GPU (%s): original vs the priced rewrite, median of %d, L2 flushed; speedup = orig/new" % (dev, a.runs))
            print("%-8s %-15s %-9s %10s %10s %9s %9s %s" % ("setting", "kernel", "set", "orig_ms", "new_ms",
                                                           "measured", "predicted", "check"))
            header = True
        if "A" not in rows or "B" not in rows:
            print("%-8s %-15s %-9s ptxopt-run failed (status %d): %s" % (label, k, sset, rc, err))
            continue
        A, B = rows["A"], rows["B"]
        print("%-8s %-15s %-9s %10s %10s %9s %9s %s" % (label, k, sset, A[2], B[2], B[5] + "x", "%.2fx" % (pb / pa), B[6]))


if __name__ == "__main__":
    sys.exit(main())
