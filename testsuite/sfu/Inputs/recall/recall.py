#!/usr/bin/env python3
"""recall.py PTXOPT SHAPES.cu FILE.ptx... — the sfu pass's recall on the
recall suite (issue 24 item 3).

SHAPES.cu says, above each kernel or device function, how many calls of
each function its compiled code holds ("// expect: sinf=4 cosf=1").  For
every compiled module (FLAGS-sm_XX.ptx) the pass runs with --remarks and
lambda=0; each "site N, KIND: FUNC" remark of a function counts for FUNC
(not the ones that say "the same call as site M").  Prints the table of
found/expected per function and flag set (all three targets together), the
per-function totals, and "recall F: P%" per function; with --min=P, exit 1
when a function is below P% or a kernel has a site of a function it does
not call."""
import argparse
import collections
import re
import subprocess

FUNCS = ["sinf", "cosf", "expf", "logf", "powf", "tanhf", "exp10f", "log2f"]
KIND = {"sin": "sinf", "cos": "cosf", "exp": "expf", "exp10": "exp10f", "log": "logf", "log2": "log2f",
        "pow": "powf", "tanh": "tanhf"}


def expectations(cu):
    """{function name in the source: Counter of expected calls}."""
    out, pending = {}, None
    for line in open(cu):
        m = re.match(r"^// expect:(.*)$", line)
        if m:
            pending = collections.Counter({k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", m.group(1))})
            continue
        m = re.search(r"\b(\w+)\s*\(", line)
        if pending is not None and m and ("__global__" in line or "__device__" in line):
            out[m.group(1)] = pending
            pending = None
    return out


def ptx_name_of(source_name, ptx_names):
    for n in ptx_names:
        if n == source_name or re.match(r"^_Z%d%s" % (len(source_name), source_name), n):
            return n
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptxopt")
    ap.add_argument("cu")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--min", type=float, default=0)
    args = ap.parse_args()
    want_src = expectations(args.cu)
    table = collections.defaultdict(lambda: [0, 0])   # (function, flagset) -> [found, expected]
    bad = []
    for f in args.files:
        fs = re.sub(r"-sm_\d+\.ptx$", "", f.split("/")[-1])
        text = open(f).read()
        names = re.findall(r"^\.(?:visible|weak|extern)?\s*\.(?:entry|func)\s+(?:\([^)]*\)\s*)?(\w+)", text, re.M)
        names += re.findall(r"^\.func\s+(?:\([^)]*\)\s*)?(\w+)", text, re.M)
        r = subprocess.run([args.ptxopt, "--passes=sfu<lambda=0;gate=off>", "--remarks", f, "-o", "/dev/null"],
                           capture_output=True, text=True)
        if r.returncode:
            bad.append("%s: ptxopt failed: %s" % (f, r.stderr.strip()))
            continue
        got = collections.defaultdict(collections.Counter)
        for line in r.stderr.splitlines():
            m = re.search(r"\[sfu\] (\w+): site (?:\d+, )?(\w+): (\w+) \(fingerprint", line)
            if m and "the same call as site" not in line:
                got[m.group(1)][KIND[m.group(2)]] += 1
        for src, want in want_src.items():
            pn = ptx_name_of(src, names)
            if pn is None:
                bad.append("%s: no function %s" % (f, src))
                continue
            for fn in FUNCS:
                n = want.get(fn, 0)
                g = got[pn].get(fn, 0)
                table[(fn, fs)][0] += min(g, n)
                table[(fn, fs)][1] += n
                if g > n:
                    bad.append("%s: %s: %d sites of %s, %d calls" % (f, src, g, fn, n))
    flagsets = ["default", "ftz", "noprec", "ftz-noprec"]
    print("%-8s" % "" + "".join("%14s" % fs for fs in flagsets) + "%14s" % "all")
    low = []
    for fn in FUNCS:
        cells, tf, tw = [], 0, 0
        for fs in flagsets:
            fnd, w = table[(fn, fs)]
            tf, tw = tf + fnd, tw + w
            cells.append("%14s" % ("%d/%d" % (fnd, w) if w else "-"))
        if not tw:
            continue
        pct = 100.0 * tf / tw
        print("%-8s" % fn + "".join(cells) + "%14s" % ("%d/%d %.0f%%" % (tf, tw, pct)))
        if pct < args.min:
            low.append(fn)
    for b in bad:
        print("problem: " + b)
    for fn in FUNCS:
        tf = sum(table[(fn, fs)][0] for fs in flagsets)
        tw = sum(table[(fn, fs)][1] for fs in flagsets)
        if tw:
            print("recall %s: %.1f%%" % (fn, 100.0 * tf / tw))
    raise SystemExit(1 if low or bad else 0)


if __name__ == "__main__":
    main()
