#!/usr/bin/env python3
"""check_report.py REPORT.json CORPUS-DIR [--failed NAME]... [--out DIR]

Checks the JSON report of a batch run (ptxopt --report) over every *.ptx
below CORPUS-DIR plus deliberately bad files:
  * every corpus file is listed once, with its per-kernel entries, which
    name the file's .entry/.func functions (found independently here with a
    regular expression);
  * the files named with --failed (by base name) failed with an error, all
    others did not; the "failures" list and the summary counts agree;
  * per file and per pass: kernels_seen is the file's kernel count,
    sites_rewritten is the number of "applied" remarks of that pass in the
    kernels, kernels_changed the number of kernels with one; the summary
    sums them per pass; files_failed counts the files where the pass failed;
  * with --out, each file reported as written exists under DIR.
Works for any pipeline, the empty one included.
"""
import argparse
import collections
import json
import os
import re
import sys

ap = argparse.ArgumentParser()
ap.add_argument("report")
ap.add_argument("corpus")
ap.add_argument("--failed", action="append", default=[])
ap.add_argument("--out")
ap.add_argument("--allow-failures", action="store_true",
                help="files may fail (the tallies are still checked)")
a = ap.parse_args()

rep = json.load(open(a.report, encoding="utf-8"))
problems = []
def bad(msg):
    problems.append(msg)

corpus = []
for d, _, files in os.walk(a.corpus):
    corpus += [os.path.join(d, f) for f in files if f.endswith(".ptx")]
files = rep["files"]
by_input = collections.Counter(os.path.realpath(f["input"]) for f in files)
for c in corpus:
    if by_input[os.path.realpath(c)] != 1:
        bad("%s listed %d times" % (c, by_input[os.path.realpath(c)]))
extra = [n for n in a.failed if n not in {os.path.basename(c) for c in corpus}]
if len(files) != len(corpus) + len(extra):
    bad("%d files in the report, expected %d" % (len(files), len(corpus) + len(extra)))

func_re = re.compile(r"\.(entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$%]*)\s*\(?[^;{]*\{", re.S)
totals = collections.defaultdict(lambda: collections.Counter())
nfailed = 0
for f in files:
    name = os.path.basename(f["input"])
    should_fail = name in a.failed
    if should_fail != (f["status"] == "failed") and not (a.allow_failures and f["status"] == "failed"):
        bad("%s: status %s" % (name, f["status"]))
    if f["status"] == "failed":
        nfailed += 1
        if not f["error"]:
            bad("%s: failed without an error" % name)
        for p in f["passes"]:
            totals[p["pass"]]["files_failed"] += p["failed"]
            for k in ("kernels_seen", "kernels_changed", "sites_rewritten"):
                totals[p["pass"]][k] += p[k]
        continue
    text = open(f["input"], encoding="utf-8", errors="replace").read()
    text = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
    want = sorted(m.group(2) for m in func_re.finditer(text))
    got = sorted(k["name"] for k in f["kernels"] if k["entry"] is not None)
    if want != got:
        bad("%s: kernels %s, expected %s" % (name, got, want))
    for p in f["passes"]:
        applied = [r for k in f["kernels"] for r in k["remarks"] if r["pass"] == p["pass"] and r["kind"] == "applied"]
        changed = {k["name"] for k in f["kernels"] for r in k["remarks"] if r["pass"] == p["pass"] and r["kind"] == "applied"}
        if p["kernels_seen"] != len(got):
            bad("%s/%s: kernels_seen %d, expected %d" % (name, p["pass"], p["kernels_seen"], len(got)))
        if p["sites_rewritten"] != len(applied):
            bad("%s/%s: sites_rewritten %d, %d applied remarks" % (name, p["pass"], p["sites_rewritten"], len(applied)))
        if p["kernels_changed"] != len(changed):
            bad("%s/%s: kernels_changed %d, expected %d" % (name, p["pass"], p["kernels_changed"], len(changed)))
        t = totals[p["pass"]]
        t["kernels_seen"] += p["kernels_seen"]
        t["kernels_changed"] += p["kernels_changed"]
        t["sites_rewritten"] += p["sites_rewritten"]
        t["files_failed"] += p["failed"]
    if a.out and f["output"] and not os.path.exists(f["output"]):
        bad("%s: output %s missing" % (name, f["output"]))

s = rep["summary"]
if s["failed"] != nfailed or s["files"] != len(files) or s["changed"] + s["unchanged"] + s["failed"] != len(files):
    bad("summary counts %s" % {k: s[k] for k in ("files", "changed", "unchanged", "failed")})
if sorted(os.path.basename(x["input"]) for x in rep["failures"]) != sorted(a.failed) and not a.allow_failures:
    bad("failures list %s" % [x["input"] for x in rep["failures"]])
for p in s["passes"]:
    for k in ("kernels_seen", "kernels_changed", "sites_rewritten", "files_failed"):
        if p[k] != totals[p["pass"]][k]:
            bad("summary %s.%s = %d, files sum to %d" % (p["pass"], k, p[k], totals[p["pass"]][k]))
nk = sum(len(f["kernels"]) for f in files)
for p in problems[:30]:
    print("problem: " + p)
print("%d files, %d failed, %d kernels, %d passes, %d problems" % (len(files), nfailed, nk, len(s["passes"]), len(problems)))
sys.exit(1 if problems else 0)
