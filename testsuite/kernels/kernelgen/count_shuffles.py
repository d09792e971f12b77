#!/usr/bin/env python3
"""count_shuffles.py -- expected shuffle opportunities in the KernelGen-port PTX.

    python3 count_shuffles.py [CORPUS_DIR] [ARCH]

For each NAME.ARCH.ptx (default: ../../corpus/kernelgen, sm_80) prints the
number of global loads in the whole kernel and in its main body (the basic
block with the most loads), and the shuffles a perfect pass would make there
under the paper's policy (seed-003 §3.8-3.9).

The model is deliberately simple and only valid for these ports: nvcc
addresses every row of a stencil (same array, same non-thread indices) from
one base register plus immediate byte offsets, so loads that share a base
register differ only along the unit-stride index.  In the kernels listed in
UNIT_STRIDE_IS_TID that index is threadIdx.x, so the first load of each group
is the root and every later one is a shuffle with N = (offset - root)/4.  In
the others (matmul, matvec) the immediate offsets step along a sequential
loop or a warp-uniform array, so no group is a shuffle; README.md explains
each case.  This is a cross-check for README.md, not the pass.
"""
import os
import re
import sys

UNIT_STRIDE_IS_TID = {
    "divergence", "gameoflife", "gaussblur", "gradient", "jacobi", "lapgsrb",
    "laplacian", "sincos", "tricubic", "tricubic2", "uxx1", "vecadd",
    "wave13pt", "whispering",
}
LOAD = re.compile(r"^\s*(@%p\d+\s+)?ld\.global(\.nc)?\.(f32|u32|b32|s32)\s+%\w+,\s*"
                  r"\[(%rd\d+)(\+(-?\d+))?\];")
LABEL = re.compile(r"^(\$L__BB\d+_\d+):")


def blocks(path):
    """List of (label, [(base, offset, type)]) in file order."""
    out = [("entry", [])]
    with open(path) as f:
        for line in f:
            m = LABEL.match(line)
            if m:
                out.append((m.group(1), []))
                continue
            m = LOAD.match(line)
            if m:
                out[-1][1].append((m.group(4), int(m.group(6) or 0), m.group(3)))
    return out


def analyse(name, path):
    bbs = blocks(path)
    total = sum(len(b[1]) for b in bbs)
    label, body = max(bbs, key=lambda b: len(b[1]))
    shuffles = []
    if name in UNIT_STRIDE_IS_TID:
        roots = {}
        for base, off, _ in body:
            if base in roots:
                shuffles.append((off - roots[base]) // 4)
            else:
                roots[base] = off
    return total, len(body), shuffles


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    corpus = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] else os.path.join(here, "../../corpus/kernelgen")
    arch = sys.argv[2] if len(sys.argv) > 2 else "sm_80"
    names = sorted(f[:-len(".cu")] for f in os.listdir(here) if f.endswith(".cu"))
    print(f"{'kernel':<11} {'loads':>5} {'body':>4} {'shfl':>4} {'mean|N|':>7}  N values")
    for name in names:
        total, body, sh = analyse(name, os.path.join(corpus, f"{name}.{arch}.ptx"))
        mean = f"{sum(abs(n) for n in sh) / len(sh):.2f}" if sh else "-"
        print(f"{name:<11} {total:>5} {body:>4} {len(sh):>4} {mean:>7}  {' '.join(map(str, sh))}")


if __name__ == "__main__":
    main()
