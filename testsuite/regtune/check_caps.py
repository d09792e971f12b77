#!/usr/bin/env python3
"""check_caps.py — regtune's output against ptxas itself.

For every FILE (its target is the sm_XX in its name, NAME.sm_XX.ptx, or
--target) and every cap N of --caps, runs `ptxopt --passes=regtune<maxnreg=N>`
and `ptxas -v` on the result, and requires for every kernel:
  * the output assembles;
  * ptxas's register count <= max(N, 24) (24 is ptxas's floor);
  * the kernel got exactly one .maxnreg line.
For every level C of --levels (block 256), runs regtune<level=C;block=256>
and requires registers <= the cap the pass announced in its remark ("ptxas
caps registers at R" or ".maxnreg R for level C").
A cap below what an instruction needs (ptxas C7602 "Insufficient registers",
e.g. wmma on sm_80 needs 28) is not the pass's fault: it is printed as a
"note" line and not counted as a failure.
Prints one line per failure ("FAIL ...") and a summary:
  checked K kernel builds in F files: M caps and L levels, all within their caps
Exit status 1 when anything failed.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

USED = re.compile(r"Compiling entry function '([^']+)'|Used (\d+) registers")
REMARK_CAP = re.compile(r"\] (\S+): (?:.*ptxas caps registers at (\d+)|\.maxnreg (\d+) for level)")


def ptxas_regs(ptxas, target, path):
    p = subprocess.run([ptxas, "-arch=" + target, "-v", path, "-o", os.devnull],
                       capture_output=True, text=True)
    if p.returncode != 0:
        lines = [l for l in p.stderr.splitlines() if "error" in l or "fatal" in l] or ["?"]
        return None, lines[0]
    regs, entry = {}, None
    for m in USED.finditer(p.stderr):
        if m.group(1):
            entry = m.group(1)
        elif entry:
            regs[entry] = int(m.group(2))
    return regs, None


def one(args, path, target, kind, value, tmpdir):
    """Returns (kernels checked, failure messages)."""
    base = os.path.basename(path)
    out = os.path.join(tmpdir, "%s.%s%d.ptx" % (base, kind, value))
    pipeline = "regtune<maxnreg=%d>" % value if kind == "cap" else "regtune<level=%d;block=256>" % value
    cmd = [args.ptxopt, "--passes=" + pipeline, "--remarks", path, "-o", out]
    if args.target:
        cmd.insert(1, "--target=" + target)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return 0, ["FAIL %s %s: ptxopt failed: %s" % (base, pipeline, p.stderr.strip())]
    regs, err = ptxas_regs(args.ptxas, target, out)
    if regs is None and "Insufficient registers" in err:
        # ptxas's own floor for some instructions (wmma/mma fragments) is
        # above 24; the pass cannot know it, ptxopt-tune finds it by probing
        need = re.search(r"register target of (\d+)", err)
        return 0, ["note %s %s %s: ptxas needs at least %s registers (C7602)" %
                   (base, target, pipeline, need.group(1) if need else "more")]
    if regs is None:
        return 0, ["FAIL %s %s %s: ptxas rejects the output: %s" % (base, target, pipeline, err)]
    fails = []
    if kind == "cap":
        limit = {k: max(value, 24) for k in regs}
        text = open(out).read()
        if text.count("\n.maxnreg %d\n" % max(value, 24)) < len(regs) - text.count("setmaxnreg"):
            fails.append("FAIL %s %s: not every kernel got one .maxnreg line" % (base, pipeline))
    else:
        limit = {}
        for m in REMARK_CAP.finditer(p.stderr):
            limit[m.group(1)] = int(m.group(2) or m.group(3))
    for k, r in regs.items():
        if k in limit and r > limit[k]:
            fails.append("FAIL %s %s %s: kernel %s uses %d registers, above %d" % (base, target, pipeline, k, r, limit[k]))
    return len(regs), fails


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxopt", required=True)
    ap.add_argument("--ptxas", required=True)
    ap.add_argument("--caps", default="24,32,40")
    ap.add_argument("--levels", default="")
    ap.add_argument("--target", help="retarget every file (ptxopt --target) instead of its own sm_XX")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    caps = [int(x) for x in args.caps.split(",") if x]
    levels = [int(x) for x in args.levels.split(",") if x]
    jobs = []
    for f in args.files:
        m = re.search(r"\.(sm_\d+a?)\.ptx$", f)
        target = args.target or (m.group(1) if m else None)
        if not target:
            print("FAIL %s: no target in the name and no --target" % f)
            return 1
        jobs += [(f, target, "cap", c) for c in caps] + [(f, target, "level", c) for c in levels]
    kernels, fails = 0, []
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for n, fl in pool.map(lambda j: one(args, *j, tmp), jobs):
            kernels += n
            fails += fl
    for f in sorted(fails):
        print(f)
    bad = [f for f in fails if f.startswith("FAIL")]
    print("checked %d kernel builds in %d files: %d caps and %d levels, %s" %
          (kernels, len(args.files), len(caps), len(levels),
           "all within their caps" if not bad else "%d FAILURES" % len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
