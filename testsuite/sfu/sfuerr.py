#!/usr/bin/env python3
"""sfuerr.py -- compares the overall errors `ptxopt-emu --error-metric`
outputs print, and exits 0 when the comparison holds (1 otherwise):
    sfuerr.py less A B            A's error strictly below B's
    sfuerr.py equal A B           the same error
    sfuerr.py increasing A B ...  each error strictly above the one before"""
import os
import sys


def overall(path):
    for line in open(path):
        if " overall: " in line:
            return float(line.split(" overall: ")[1].split()[0])
    sys.exit("sfuerr.py: no overall error in %s" % path)


def main():
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
