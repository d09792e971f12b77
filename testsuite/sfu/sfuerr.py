#!/usr/bin/env python3
"""sfuerr.py -- compares the overall errors two `ptxopt-emu --error-metric`
outputs print: `sfuerr.py less A B` exits 0 when A's overall error is
strictly below B's (and prints both), 1 otherwise."""
import sys


def overall(path):
    for line in open(path):
        if " overall: " in line:
            return float(line.split(" overall: ")[1].split()[0])
    sys.exit("sfuerr.py: no overall error in %s" % path)


def main():
    op, a, b = sys.argv[1], overall(sys.argv[2]), overall(sys.argv[3])
    print("%s: %.9g  %s: %.9g" % (sys.argv[2], a, sys.argv[3], b))
    if op == "less":
        sys.exit(0 if a < b else 1)
    sys.exit("sfuerr.py: unknown comparison %s" % op)


if __name__ == "__main__":
    main()
