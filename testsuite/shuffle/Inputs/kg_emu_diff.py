#!/usr/bin/env python3
"""kg_emu_diff.py PTXOPT PTXOPT-EMU SRCDIR SCRATCH [PASS-OPTIONS]

S20-S22 for the KernelGen ports (testsuite/corpus/kernelgen, sm_80): each
kernel is rewritten by the shuffle pass (the paper's setting, sources in
loops included) and run beside the original in the emulator (`--diff`:
three independent-thread-scheduling seeds and hanoi) with blocks (32),
(128), (512), (16,2), (48,2) and (33); the arrays are 70 x 7 x 6, so rows
are not a multiple of 32.  Exits non-zero at the first disagreement.  The
launch arguments come from bench/shuffle/sectors.py (one convention for
every port's parameters)."""
import importlib.util
import os
import subprocess
import sys

ptxopt, emu, srcdir, scratch = sys.argv[1:5]
opts = sys.argv[5] if len(sys.argv) > 5 else "max-delta=31;max-shuffles=1000;loops=1"
spec = importlib.util.spec_from_file_location("sectors", os.path.join(srcdir, "bench/shuffle/sectors.py"))
sectors = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sectors)

os.makedirs(scratch, exist_ok=True)
rewritten = 0
for k in sectors.KG:
    src = os.path.join(srcdir, "testsuite/corpus/kernelgen/%s.sm_80.ptx" % k)
    dst = os.path.join(scratch, k + ".ptx")
    subprocess.run([ptxopt, "--passes=shuffle<%s>" % (opts if "profit=" in opts else opts + ";profit=off"), src, "-o", dst], check=True)
    with open(dst) as f:
        rewritten += "shfl.sync" in f.read()
    for block in ("32", "128", "512", "16,2", "48,2", "33"):
        launch = [a if not a.startswith("--block=") else "--block=" + block for a in sectors.kg_launch(src, 32)]
        r = subprocess.run([emu, "-q", "--diff", src, dst, "--max-report=3"] + launch,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stdout)
            sys.exit("kg_emu_diff.py: %s differs (block %s)" % (k, block))
print("kg_emu_diff.py: %d kernels (%d rewritten), 6 block shapes each: all agree" % (len(sectors.KG), rewritten))
