#!/usr/bin/env python3
"""regs.py — register deltas of the sfu pass's split (research §2.5, S8).

The thesis assumed that splitting costs one predicate register; with
modern ptxas the approximate copy is unrolled further and registers grow
(the research note measured BoxMuller 24 -> 32 on sm_75).  For each kernel
and target this prints the registers (ptxas -v through ptxopt
--sass-report) of the original, of the split kernel (lambda=1: both
copies) and of the all-approximate kernel (lambda=all), and the stack
bytes.  Kernels: testsuite/sfu/Inputs/split.sm_75.ptx (expf and a division
in a loop with barriers; sinf/logf/division in the body), the loop kernels
of the fingerprint recall set (one function each, as nvcc unrolls it) and
BoxMullerGPU (bench/sfu/boxmuller_regs.cu; only its sqrtf is recognised:
nvcc folds logf's result into the -2 multiply and shares sinf's and cosf's
reduction, which no fingerprint covers).  Figures, not a timed test.

    bench/sfu/regs.py --ptxopt=./ptxopt [--srcdir=.] [--targets=sm_75,sm_80,sm_86,sm_90]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def sass(ptxopt, path, pipeline, target):
    """{kernel: (regs_before, regs_after, stack_before, stack_after)}"""
    with tempfile.NamedTemporaryFile(suffix=".txt") as rep:
        r = subprocess.run([ptxopt, "--passes=" + pipeline, "--target=" + target, "--sass-report=" + rep.name, path,
                            "-o", os.devnull], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("regs.py: ptxopt failed on %s: %s" % (path, r.stderr.strip()))
        text = open(rep.name).read()
    out = {}
    for line in text.splitlines():
        m = re.search(r"sass kernel (\S+): .*regs=(\d+)->(\d+) .*stack=(\d+)->(\d+)", line)
        if m:
            out[m.group(1)] = tuple(int(x) for x in m.groups()[1:])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxopt", required=True)
    ap.add_argument("--srcdir", default=".")
    ap.add_argument("--targets", default="sm_75,sm_80,sm_86,sm_90")
    a = ap.parse_args()
    files = [
        ("testsuite/sfu/Inputs/split.sm_75.ptx", None),
        ("testsuite/sfu/Inputs/fp-kernels/default-sm_75.ptx", "loop_"),
        ("bench/sfu/boxmuller_regs.sm_75.ptx", None),
    ]
    print("sfu split: registers (stack bytes) original -> split lambda=1 -> all approximate (lambda=all)")
    print("%-14s %-6s %10s %14s %14s" % ("kernel", "target", "original", "split", "approximate"))
    for rel, prefix in files:
        path = os.path.join(a.srcdir, rel)
        for target in a.targets.split(","):
            split = sass(a.ptxopt, path, "sfu<lambda=1;gate=off>", target)
            allx = sass(a.ptxopt, path, "sfu<lambda=all;gate=off>", target)
            for k in sorted(split):
                if prefix and not k.startswith(prefix):
                    continue
                rb, ra, sb, sa = split[k]
                _, rx, _, sx = allx.get(k, (0, 0, 0, 0))
                print("%-14s %-6s %5d (%3d) %5d (%3d) %+3d %5d (%3d) %+3d" % (k, target, rb, sb, ra, sa, ra - rb, rx, sx,
                                                                          rx - rb))


if __name__ == "__main__":
    main()
