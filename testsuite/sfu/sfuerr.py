#!/usr/bin/env python3
"""sfuerr.py -- compares the overall errors `ptxopt-emu --error-metric`
outputs print, and exits 0 when the comparison holds (1 otherwise):
    sfuerr.py less A B            A's error strictly below B's
    sfuerr.py equal A B           the same error
    sfuerr.py increasing A B ...  each error strictly above the one before
    sfuerr.py near A R K=V ...    argument K's error within the ratio R of V
                                  (1 - R <= error / V <= 1 + R), for each K"""
import os
import sys


def overall(path):
    for line in open(path):
        if " overall: " in line:
            return float(line.split(" overall: ")[1].split()[0])
    sys.exit("sfuerr.py: no overall error in %s" % path)


def per_argument(path):
    errs = {}
    for line in open(path):
        if line.startswith("error ") and " argument " in line:
            k = int(line.split(" argument ")[1].split()[0])
            errs[k] = float(line.split("): ")[1].split()[0])
    return errs


def near(path, ratio, pairs):
    errs = per_argument(path)
    ok = True
    for pair in pairs:
        k, v = pair.split("=")
        e, want = errs[int(k)], float(v)
        good = abs(e / want - 1) <= ratio
        ok = ok and good
        print("argument %s: %.4g against %.4g: ratio %.3f%s" % (k, e, want, e / want, "" if good else "  OUTSIDE"))
    sys.exit(0 if ok else 1)


def main():
    if sys.argv[1] == "near":
        near(sys.argv[2], float(sys.argv[3]), sys.argv[4:])
    op, files = sys.argv[1], sys.argv[2:]
    errs = [overall(f) for f in files]
    print("  ".join("%s: %.9g" % (os.path.basename(f), e) for f, e in zip(files, errs)))
    if op == "less":
        sys.exit(0 if errs[0] < errs[1] else 1)
    if op == "equal":
        sys.exit(0 if errs[0] == errs[1] else 1)
    if op == "increasing":
        sys.exit(0 if all(a < b for a, b in zip(errs, errs[1:])) else 1)
    sys.exit("sfuerr.py: unknown comparison %s" % op)


if __name__ == "__main__":
    main()
