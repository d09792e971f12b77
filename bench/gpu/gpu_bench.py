#!/usr/bin/env python3
"""gpu_bench.py -- the shuffle and regtune passes timed on a GPU with ptxopt-run
(issue 11 §7).  Needs an NVIDIA driver and a GPU; prints figures, tests nothing.

    gpu_bench.py --ptxopt=P --run=R --tune=T [--srcdir=DIR] [--set=shuffle|regtune|all]
                 [--runs=N] [--nx=4096 --ny=2048 --ns=16] [--threads=N] [--arch=sm_XX]
                 [--scratch=DIR]

shuffle: every KernelGen port (testsuite/corpus/kernelgen/*.sm_80.ptx; the
driver JIT-compiles it for the GPU at hand) rewritten with shuffle<OPTS>,
then `ptxopt-run original rewritten`: outputs compared bit for bit, both
timed (L2 flushed, median of --runs).  The launch follows the ports'
convention (bench/shuffle/sectors.py): .u32 parameters are the sizes
(nx, ny, ns), .f32 ones coefficients, .u64 ones float arrays of nx*ny*ns
elements; i = tid.x + 512*ctaid.y (128 in gameoflife and matvec), the
gang loop over ctaid.x.

regtune: ptxopt-tune on testsuite/tune/Inputs/pressure.ptx (kernel
pressure, 256-thread blocks) with `ptxopt-run --time-only BASELINE VARIANT`
as the measuring command: every register cap checked against the input and
timed; the tuner's table as it prints it.  A cubin runs only on its own
architecture (sm_XY on sm_XZ, Z >= Y), so the tuner builds for the GPU's (--arch, else the sm_XX
the shuffle run's device line names); without one the variants' PTX is
timed (JIT-compiled by the driver, which honours .maxnreg).

Figures depend on the GPU and its clocks (not locked): say which GPU gave
them (the first line of each table names it)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "shuffle"))
import sectors  # noqa: E402  (the KernelGen list and the pass's remark)

STRIDE_128 = ("gameoflife", "matvec")


def kg_launch(ptx, kernel, nx, ny, ns):
    """The .entry's name and the launch options."""
    with open(ptx) as f:
        text = f.read()
    m = re.search(r"\.entry\s+(\w+)\s*\((.*?)\)", text, re.S)
    args = sectors.kg_args(ptx, m.group(2), (nx, ny, ns))
    bx = 128 if kernel in STRIDE_128 else 512
    gx = min(ny, 1024)
    return m.group(1), ["--grid=%d,%d" % (gx, (nx + bx - 1) // bx), "--block=%d" % bx] + args


def run_pair(run, a, b, kernel, launch, runs):
    r = subprocess.run([run, a, b, "--kernel=" + kernel, "--runs=%d" % runs] + launch,
                       capture_output=True, text=True)
    rows = {l.split()[0]: l.split() for l in r.stdout.splitlines() if l[:2] in ("A ", "B ")}
    head = [l for l in r.stdout.splitlines() if l.startswith("# ptxopt-run: device")]
    err = (r.stderr.strip().splitlines() or [""])[-1]
    return r.returncode, rows, head[0] if head else None, err


def shuffle(a, scratch):
    """Returns (status, the device's sm_XX or None)."""
    print("== shuffle<%s> on the KernelGen ports: ptxopt-run original rewritten, "
          "nx=%d ny=%d ns=%d, median of %d" % (a.opts, a.nx, a.ny, a.ns, a.runs))
    header = False
    bad = 0
    arch = None
    for k in sectors.KG:
        src = os.path.join(a.srcdir, "testsuite", "corpus", "kernelgen", k + ".sm_80.ptx")
        dst = os.path.join(scratch, k + ".shuffle.ptx")
        loads, shuffles, _ = sectors.rewrite(a.ptxopt, src, dst, a.opts)
        entry, launch = kg_launch(src, k, a.nx, a.ny, a.ns)
        rc, rows, head, err = run_pair(a.run, src, dst, entry, launch, a.runs)
        if head and not header:
            print(head)
            m = re.search(r"\((sm_\d+),", head)
            arch = m.group(1) if m else None
            print("%-12s %3s %3s %9s %12s %12s %8s  %s" % ("kernel", "L", "S", "regs", "orig_ms", "shuffle_ms",
                                                            "speedup", "check"))
            header = True
        if "A" not in rows or "B" not in rows:
            print("%-12s %3d %3d  ptxopt-run failed (status %d): %s" % (k, loads, shuffles, rc, err))
            bad += 1
            if rc == 3:  # no driver or no GPU: the rest would say the same
                return 1, arch
            continue
        A, B = rows["A"], rows["B"]
        print("%-12s %3d %3d %9s %12s %12s %8s  %s" % (k, loads, shuffles, A[1] + "->" + B[1], A[2], B[2], B[5], B[6]))
        bad += B[6] not in ("identical",)
    return (1 if bad else 0), arch


def regtune(a, scratch, arch):
    n = a.threads
    ptx = os.path.join(a.srcdir, "testsuite", "tune", "Inputs", "pressure.ptx")
    kind = "CUBIN" if arch else "PTX"
    measure = ('%s --time-only --runs=%d "$PTXOPT_BASELINE_%s" "$PTXOPT_VARIANT_%s" --kernel=pressure '
               "--grid=%d --block=256 --arg=buf:f32:%d:random --arg=buf:f32:%d:zeros --arg=i32:%d"
               % (a.run, a.runs, kind, kind, n // 256, 64 * n, 64 * n, n))
    print("== regtune: ptxopt-tune on pressure.ptx (kernel pressure, block 256, %d threads), "
          "each cap checked and timed by ptxopt-run --time-only (%s)"
          % (n, "cubins for " + arch if arch else "PTX, JIT-compiled"))
    r = subprocess.run([a.tune, "-q", "-k", "pressure", "--block=256", "--grid=%d" % (n // 256), "--measure=" + measure,
                        "--workdir=" + os.path.join(scratch, "tune"), ptx] + (["--arch=" + arch] if arch else []),
                       capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode != 0:
        print("ptxopt-tune exited with status %d: %s" % (r.returncode, r.stderr.strip()))
    return r.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxopt", default="ptxopt")
    ap.add_argument("--run", default="ptxopt-run")
    ap.add_argument("--tune", default="ptxopt-tune")
    ap.add_argument("--srcdir", default=os.path.join(HERE, "..", ".."))
    ap.add_argument("--set", choices=("shuffle", "regtune", "all"), default="all")
    ap.add_argument("--opts", default="max-delta=31;max-shuffles=1000;loops=1")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--nx", type=int, default=4096)
    ap.add_argument("--ny", type=int, default=2048)
    ap.add_argument("--ns", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1 << 20, help="regtune: threads launched (a multiple of 256)")
    ap.add_argument("--arch", help="regtune: the GPU's sm_XX (default: as the shuffle run found it)")
    ap.add_argument("--scratch")
    a = ap.parse_args()
    scratch = a.scratch or tempfile.mkdtemp(prefix="gpu_bench.")
    os.makedirs(scratch, exist_ok=True)
    status, arch = 0, a.arch
    if a.set in ("shuffle", "all"):
        st, found = shuffle(a, scratch)
        status |= st
        arch = arch or found
    if a.set in ("regtune", "all"):
        status |= regtune(a, scratch, arch)
    return status


if __name__ == "__main__":
    sys.exit(main())
