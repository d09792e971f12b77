#!/usr/bin/env python3
"""check_report.py REPORT.jsonl [--runs N] [--used original|optimized]
                   [--kernel NAME]... [--reason SUBSTRING]

Checks the JSON lines that ptxopt-ptxas appends with --ptxopt-report, one
per ptxas run: every line parses; there are N runs; each ran the real
ptxas (not a wrapper) on the stated PTX ("used"); the kernels named appear
among the inputs' kernels; with --reason every run fell back for a reason
containing SUBSTRING, otherwise none did.  Prints a summary line.
"""
import argparse
import json
import os
import sys

ap = argparse.ArgumentParser()
ap.add_argument("report")
ap.add_argument("--runs", type=int)
ap.add_argument("--used")
ap.add_argument("--kernel", action="append", default=[])
ap.add_argument("--reason")
a = ap.parse_args()

runs = [json.loads(line) for line in open(a.report, encoding="utf-8")]
problems = []
if a.runs is not None and len(runs) != a.runs:
    problems.append("%d runs, expected %d" % (len(runs), a.runs))
kernels = set()
for i, r in enumerate(runs):
    if r.get("tool") != "ptxopt-ptxas":
        problems.append("run %d: not a ptxopt-ptxas record" % i)
    real = r.get("ptxas") or ""
    if os.path.basename(os.path.realpath(real)) != "ptxas" or "ptxopt" in os.path.basename(real):
        problems.append("run %d: real ptxas is %r" % (i, real))
    if a.used and r.get("used") != a.used:
        problems.append("run %d: used %r, expected %r" % (i, r.get("used"), a.used))
    if r.get("ptxas_status") != 0:
        problems.append("run %d: ptxas status %r" % (i, r.get("ptxas_status")))
    reason = r.get("reason")
    if a.reason is None and reason:
        problems.append("run %d: fell back: %s" % (i, reason))
    if a.reason is not None and (not reason or a.reason not in reason):
        problems.append("run %d: reason %r lacks %r" % (i, reason, a.reason))
    if not r.get("inputs"):
        problems.append("run %d: no inputs" % i)
    for inp in r.get("inputs", []):
        for k in inp.get("kernels", []):
            kernels.add(k["name"])
for k in a.kernel:
    if k not in kernels:
        problems.append("kernel %s not in the report (saw %s)" % (k, sorted(kernels)))
for p in problems:
    print("problem: " + p)
print("%d runs, %d kernels, %d problems" % (len(runs), len(kernels), len(problems)))
sys.exit(1 if problems else 0)
