#!/usr/bin/env python3
"""recall.py PTXOPT FILE.ptx... — fingerprint recall of the sfu pass.

The files are gen.py's compiled modules (Inputs/fp-kernels/FLAGS-sm_XX.ptx):
kernels k_FN (one call) and loop_FN (the call in a loop, as nvcc unrolls
it).  The number of calls a kernel holds is counted independently of the
pass: every call reads its input with one ld.global.f32 (powf: two).  The
pass, run with --remarks, must report exactly that many sites per kernel,
all of the function's kind, and nothing else.  Prints one line per file
and the total; exit 1 on any difference."""
import re
import subprocess
import sys

KIND = {"sinf": "sin", "cosf": "cos", "expf": "exp", "exp10f": "exp10", "logf": "log", "log2f": "log2",
        "powf": "pow", "tanhf": "tanh"}


def calls(ptx):
    out, cur = {}, None
    for line in ptx.splitlines():
        m = re.match(r"^\.visible \.entry (\w+)\(", line)
        if m:
            cur = m.group(1)
            out[cur] = 0
        elif cur and "ld.global.f32" in line:
            out[cur] += 1
    return {k: (n // 2 if k.endswith("powf") else n) for k, n in out.items()}


def main():
    ptxopt, files = sys.argv[1], sys.argv[2:]
    bad = 0
    total_want = total_found = 0
    for f in files:
        want = calls(open(f).read())
        r = subprocess.run([ptxopt, "--passes=sfu<lambda=0>", "--remarks", f, "-o", "/dev/null"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print("%s: ptxopt failed: %s" % (f, r.stderr.strip()))
            bad += 1
            continue
        got = {}
        for line in r.stderr.splitlines():
            m = re.search(r"\[sfu\] (\w+): site (?:\d+, )?(\w+):", line)
            if m and "the same call as site" not in line:
                got.setdefault(m.group(1), []).append(m.group(2))
        found = 0
        for k, n in sorted(want.items()):
            kind = KIND[k.split("_", 1)[1]]
            kinds = got.get(k, [])
            ok = len(kinds) == n and all(x == kind for x in kinds)
            found += min(kinds.count(kind), n)
            if not ok:
                print("%s: %s: %d calls of %s, sites found: %s" % (f, k, n, kind, ", ".join(kinds) or "none"))
                bad += 1
        n = sum(want.values())
        total_want += n
        total_found += found
        print("%s: %d/%d calls recognised" % (f.split("/")[-1], found, n))
    print("recall %.1f%% (%d/%d), %d kernels wrong" % (100.0 * total_found / max(total_want, 1), total_found,
                                                        total_want, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
