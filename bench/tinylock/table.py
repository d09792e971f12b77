#!/usr/bin/env python3
"""table.py — what the tinylock pass costs and saves in machine code.

For the pass's own test kernels (testsuite/tinylock/Inputs/*.ptx) and the
evaluation kernels (testsuite/tinylock/Inputs/eval/*.ptx), ptxopt runs
`tinylock` with --sass-report (ptxas + nvdisasm, before and after) and
this prints, per kernel the pass rewrote: SASS instructions, registers and
static shared memory before -> after (the bytes the flags add), CTA
barriers (BAR.SYNC) and memory fences (MEMBAR) before -> after, counted in
nvdisasm's listing.  Kernels the pass left alone are listed by name.  Not
a timed test: it prints figures (make bench-tinylock).  Needs ptxas and
nvdisasm (./bootstrap installs nvdisasm from PyPI)."""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile


def tool(env, name, extra=()):
    p = os.environ.get(env) or shutil.which(name)
    for d in extra:
        if not p and os.access(os.path.join(d, name), os.X_OK):
            p = os.path.join(d, name)
    return p


def sass_counts(ptxas, nvdisasm, ptx, arch, work):
    """Per kernel: BAR.SYNC and MEMBAR instructions in the SASS."""
    cubin = os.path.join(work, "k.cubin")
    subprocess.run([ptxas, "-arch=" + arch, ptx, "-o", cubin], check=True)
    out = subprocess.run([nvdisasm, cubin], check=True, capture_output=True, text=True).stdout
    counts, kernel = {}, None
    for line in out.splitlines():
        m = re.match(r"\s*\.text\.(\S+):", line)
        if m:
            kernel = m.group(1)
            counts[kernel] = {"bar": 0, "membar": 0}
            continue
        if kernel and re.search(r"\bBAR\.SYNC", line):
            counts[kernel]["bar"] += 1
        if kernel and re.search(r"\bMEMBAR\.", line):
            counts[kernel]["membar"] += 1
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxopt", required=True)
    ap.add_argument("--srcdir", default=".")
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--passes", default="tinylock")
    a = ap.parse_args()
    ptxas = tool("PTXAS", "ptxas", ["/usr/local/cuda/bin"])
    nvdisasm = tool("NVDISASM", "nvdisasm", [os.path.join(a.srcdir, "pydeps/nvidia/cu13/bin"), "/usr/local/cuda/bin"])
    if not ptxas or not nvdisasm:
        print("bench-tinylock: needs ptxas and nvdisasm", file=sys.stderr)
        return 1
    env = dict(os.environ, PTXAS=ptxas, NVDISASM=nvdisasm)
    files = sorted(glob.glob(os.path.join(a.srcdir, "testsuite/tinylock/Inputs/*.ptx")) +
                   glob.glob(os.path.join(a.srcdir, "testsuite/tinylock/Inputs/eval/*.ptx")))
    print("tinylock on %s (%s): SASS instructions, registers, shared memory, BAR.SYNC, MEMBAR before -> after"
          % (a.arch, a.passes))
    print("%-34s %12s %8s %14s %8s %8s" % ("kernel", "sass", "regs", "smem bytes", "bar", "membar"))
    untouched = []
    with tempfile.TemporaryDirectory() as work:
        for f in files:
            out = os.path.join(work, "out.ptx")
            rep = os.path.join(work, "sass.txt")
            subprocess.run([a.ptxopt, "--passes=" + a.passes, "--target=" + a.arch, "--sass-report=" + rep, f, "-o", out],
                           check=True, env=env)
            before = sass_counts(ptxas, nvdisasm, f, a.arch, work)
            after = sass_counts(ptxas, nvdisasm, out, a.arch, work)
            for line in open(rep):
                m = re.search(r"sass kernel (\S+): total=(\d+)->(\d+).* regs=(\d+)->(\d+).* smem=(\d+)->(\d+)", line)
                if not m:
                    continue
                k = m.group(1)
                t0, t1, r0, r1, s0, s1 = map(int, m.groups()[1:])
                b0, b1 = before.get(k, {}), after.get(k, {})
                if (t0, r0, s0, b0) == (t1, r1, s1, b1):
                    untouched.append(k)
                    continue
                name = "%s/%s" % (os.path.basename(f).split(".")[0], k)
                print("%-34s %5d -> %-4d %3d -> %-3d %6d -> %-6d %2d -> %-3d %2d -> %-3d  (+%d bytes)"
                      % (name, t0, t1, r0, r1, s0, s1, b0.get("bar", 0), b1.get("bar", 0), b0.get("membar", 0),
                         b1.get("membar", 0), s1 - s0))
    print("unchanged: %s" % (", ".join(untouched) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
