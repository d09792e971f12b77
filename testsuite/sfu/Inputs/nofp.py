#!/usr/bin/env python3
"""nofp.py REPORT.json — no library site where there is none.

REPORT.json is ptxopt's batch report of the sfu pass (lambda=0) over the
corpus.  A library site (a remark "site KIND: FUNC (fingerprint ...") is
allowed only in the modules compiled from sources that call those
functions (ALLOWED below, from testsuite/kernels/*.cu and
workloads/*.cu); everywhere else it
is a false positive.  Prints the counts; exit 1 on a false positive or
when the allowed modules show none at all (the check must be able to
fail)."""
import json
import re
import sys

# sources calling sinf/cosf/expf/logf/powf with precise (default) flags
# (and the real-code sample's HeCBench particlefilter: Box-Muller's logf and
# cosf, the likelihood's expf; vmc: expf)
ALLOWED = ("math_transcendental.", "kernelgen/sincos.", "workloads/particlefilter.", "math_fast_intrinsics.",
           "realcode/hecbench.particlefilter.", "realcode/hecbench.vmc.")


def main():
    rep = json.load(open(sys.argv[1]))
    fp = allowed = files = 0
    for f in rep["files"]:
        files += 1
        path = f["input"]
        ok = any(a in path for a in ALLOWED)
        for k in f.get("kernels", []):
            for r in k.get("remarks", []):
                if r["pass"] != "sfu" or not re.match(r"site (?:\d+, )?\w+: \w+ \(fingerprint", r["message"]):
                    continue
                if ok:
                    allowed += 1
                else:
                    fp += 1
                    print("false positive: %s: %s: %s" % (path, k["name"], r["message"]))
    print("%d files, %d library sites in the modules that call the functions, %d false positives" % (files, allowed, fp))
    sys.exit(1 if fp or not allowed else 0)


if __name__ == "__main__":
    main()
