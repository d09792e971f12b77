#!/usr/bin/env python3
"""table.py — machine code before/after each pass on the KernelGen ports.

For each pipeline (the shuffle pass with its sm_70+ defaults, with the
PTXASW paper's setting, and regtune with a 32-register cap) ptxopt rewrites
the 16 KernelGen ports in batch mode with --sass-report; this prints, per
port, the SASS global loads (and how many of them a predicate guards),
shuffles, total instructions, registers and spill bytes, before -> after.
Not a timed test: it prints figures (make bench-sass).  Needs ptxas and
nvdisasm (./bootstrap installs nvdisasm from PyPI)."""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

PIPELINES = [
    ("shuffle", "shuffle"),
    ("shuffle-paper", "shuffle<max-delta=31;max-shuffles=1000;loops=1;profit=off>"),
    ("regtune-32", "regtune<maxnreg=32>"),
]


def guarded(side, prefix="@LDG"):
    return sum(n for op, n in (side.get("memory") or {}).items() if op.startswith(prefix))


def spill(side):
    return (side.get("spill_stores") or 0) + (side.get("spill_loads") or 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxopt", required=True)
    ap.add_argument("--srcdir", required=True)
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--jobs", default="2")
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(a.srcdir, "testsuite/corpus/kernelgen", "*.%s.ptx" % a.arch)))
    if not files:
        sys.exit("table.py: no KernelGen ports for %s" % a.arch)
    print("SASS before -> after on the KernelGen ports (%s; ptxas + nvdisasm, static counts)" % a.arch)
    print("ldg: global loads (@: of them guarded by a predicate); shfl: shuffles; total: instructions but NOP")
    hdr = "%-13s %-14s %-14s %-9s %-9s %-11s %-8s %-11s" % ("pipeline", "kernel", "ldg", "@ldg", "shfl", "total",
                                                              "regs", "spill B")
    with tempfile.TemporaryDirectory(prefix="bench-sass.") as tmp:
        for label, pipeline in PIPELINES:
            print()
            print("%s = %s" % (label, pipeline))
            print(hdr)
            report = os.path.join(tmp, label + ".json")
            r = subprocess.run([a.ptxopt, "--passes=" + pipeline, "--output-dir=" + os.path.join(tmp, label), "-q",
                                "-j", a.jobs, "--sass-report=" + os.path.join(tmp, label + ".txt"),
                                "--report=" + report] + files, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
            if r.returncode != 0 or not os.path.exists(report):
                sys.exit("table.py: ptxopt failed (%d): %s" % (r.returncode, r.stderr.strip()))
            rows = []
            for f in json.load(open(report))["files"]:
                sass = f.get("sass") or {}
                if "error" in sass:
                    sys.exit("table.py: %s: %s" % (f["input"], sass["error"]))
                for k in sass.get("kernels", []):
                    b, af = k["before"], k["after"]
                    rows.append((label, k["name"], "%d->%d" % (b["ldg"], af["ldg"]),
                                 "%d->%d" % (guarded(b), guarded(af)), "%d->%d" % (b["shfl"], af["shfl"]),
                                 "%d->%d" % (b["total"], af["total"]), "%d->%d" % (b["regs"], af["regs"]),
                                 "%d->%d" % (spill(b), spill(af))))
            for row in sorted(rows, key=lambda x: x[1]):
                print("%-13s %-14s %-14s %-9s %-9s %-11s %-8s %-11s" % row)


if __name__ == "__main__":
    main()
