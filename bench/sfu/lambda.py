#!/usr/bin/env python3
"""lambda.py -- the SFU split ratio lambda against output error and
instruction mix on the thesis's SFU benchmarks that have public sources
(testsuite/sfu/Inputs: Black-Scholes BLA, Box-Muller MEN, n-body NBO,
MRI-Q MRQ; research/seed-002-sfu-lock.md §2.10).  make bench-sfu.

For every kernel and every lambda in 0..W (W = warps per CTA of the
launch) the sfu pass rewrites the nvcc -arch=sm_80 PTX with
sfu<lambda=L;key=warp>, and this prints:
  error    the output's mean relative error against the original, measured
           in the emulator with every approximate instruction at the worst
           end of its documented error (ptxopt-emu --approx=bound);
  emu      the rewritten kernel's dynamic warp-instruction issues in the
           emulator under that launch: sfu (MUFU) / fma (FP32 pipe) / alu;
  sass     static SASS counts of the rewritten kernel (ptxas + nvdisasm via
           ptxopt --sass-report): sfu (MUFU) / fp32 / int / total, and
           registers (both clones are in the code: static counts grow with
           the split, the dynamic ones above show what lambda changes).
Each kernel's header line says which sites the pass finds (issue 24:
MRI-Q's sinf/cosf and Box-Muller's logf/sinf/cosf were missed before).
Then the -use_fast_math build as a reference row, the thesis's figures for
the kernel's functions (Table 6.4: SFU/precise throughput per SM on
Maxwell and the SFU version's error; the per-application speedups exist
only in its figures), and the lambda ptxopt-tune's sfu dimension picks
under QoS = 0.8 x the all-approximate error (the thesis's QoS_ratio 0.8).
Last, the double-precision operations (Inputs/dpops.cu, every warp on the
SFU path with f64=1): the emulator's per-operation error beside the
thesis's GPU measurements (Table 6.5).
Not a timed test: it prints figures.  Needs ptxas and nvdisasm."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

BS = ("--grid=4 --block=128 --arg=buf:f32:512:zeros --arg=buf:f32:512:zeros --arg=buf:f32:512:random:1:5:30 "
      "--arg=buf:f32:512:random:2:1:100 --arg=buf:f32:512:random:3:0.25:10 --arg=f32:0.02 --arg=f32:0.30 --arg=i32:512")
MEN = "--grid=2 --block=128 --arg=buf:f32:1024:zeros --arg=buf:f32:1024:random:4:0.0001:1 --arg=i32:512"
NBO = "--grid=2 --block=128 --arg=buf:f32:768:zeros --arg=buf:f32:1024:random:5 --arg=i32:256 --arg=f32:0.01"
MRQ = ("--grid=2 --block=128 --arg=buf:f32:256:zeros --arg=buf:f32:256:zeros --arg=buf:f32:256:random:6 "
       "--arg=buf:f32:256:random:7 --arg=buf:f32:256:random:8 --arg=buf:f32:64:random:9:-2:2 "
       "--arg=buf:f32:64:random:10:-2:2 --arg=buf:f32:64:random:11:-2:2 --arg=buf:f32:64:random:12:0:1 "
       "--arg=i32:256 --arg=i32:64")

# Thesis Table 6.4 (SP, Maxwell): SFU/precise throughput per SM, and the SFU
# version's relative error against the CPU (research note §2.8).
THESIS_FN = {
    "div": ("x/y", 6.2, 2.3433e-8), "rcp": ("1/x", 5.7, 1.1266e-8), "sqrt": ("sqrt x", 3.0, 3.0763e-8),
    "rsqrt": ("1/sqrt x", 10.8, 2.7610e-8), "exp": ("e^x", 4.4, 4.0603e-8), "log": ("ln x", 14.6, 6.3260e-7),
    "sin": ("sin x", 9.8, 9.6523e-7), "cos": ("cos x", 10.7, 1.1584e-6),
}
DP = ("--grid=4 --block=256 --arg=buf:f64:1024:zeros --arg=buf:f64:1024:zeros --arg=buf:f64:1024:zeros "
      "--arg=buf:f64:1024:zeros --arg=buf:f64:1024:random:21:0:1 --arg=buf:f64:1024:random:22:0:1 --arg=i32:1024")
# Thesis Table 6.5 (DP, measured on the GPU): the SFU version's mean relative error.
THESIS_DP = [("x/y", 2.5561e-7), ("1/x", 2.5545e-7), ("sqrt x", 2.8951e-7), ("1/sqrt x", 2.2110e-7)]
KERNELS = [
    ("blackscholes", "BLA", BS, ["sqrt", "div", "log", "exp", "rcp"]),
    ("boxmuller", "MEN", MEN, ["log", "sqrt", "sin", "cos"]),
    ("nbody", "NBO", NBO, ["rsqrt"]),
    ("mriq", "MRQ", MRQ, ["sin", "cos"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def emu_error(emu, a, b, launch):
    r = run([emu, "--diff", a, b, "--error-metric=mre", "--approx=bound"] + launch.split())
    m = re.search(r"overall: (\S+)", r.stdout)
    if r.returncode != 0 or not m:
        sys.exit("lambda.py: ptxopt-emu failed: %s%s" % (r.stdout, r.stderr))
    return float(m.group(1))


def emu_counts(emu, ptx, launch):
    r = run([emu, ptx, "--approx=bound", "--policy=hanoi", "--counters=-", "-q"] + launch.split())
    if r.returncode != 0:
        sys.exit("lambda.py: ptxopt-emu failed: %s" % r.stderr)
    c = json.loads(r.stdout)
    issued = c["warp_instructions"]
    return issued.get("sfu", 0), issued.get("fma", 0), issued.get("alu", 0)


def rewrite(ptxopt, pipeline, src, out, report):
    r = run([ptxopt, "--passes=" + pipeline, "-q", "-o", out, "--sass-report=" + report + ".txt",
             "--report=" + report, src])
    if r.returncode != 0:
        return None, r.stderr.strip()
    rep = json.load(open(report))
    for f in rep.get("sass", []):
        sass = f.get("sass", {})
        if "error" in sass:
            return None, "no SASS: %s" % sass["error"]
        for k in sass.get("kernels", []):
            return k, None
    return None, "no SASS in the report"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxopt", required=True)
    ap.add_argument("--emu", required=True)
    ap.add_argument("--tune", required=True)
    ap.add_argument("--srcdir", required=True)
    ap.add_argument("--qos-ratio", type=float, default=0.8)
    a = ap.parse_args()
    inputs = os.path.join(a.srcdir, "testsuite", "sfu", "Inputs")
    probe = run([a.ptxopt, "--passes=sfu<lambda=0>", "-o", os.devnull, os.path.join(inputs, "nbody.sm_80.ptx")])
    if probe.returncode != 0:
        sys.exit("lambda.py: this ptxopt has no usable sfu pass: %s" % probe.stderr.strip())
    print("SFU split ratio lambda: output error (emulator, --approx=bound) and instruction mix (sm_80)")
    with tempfile.TemporaryDirectory(prefix="bench-sfu.") as tmp:
        for name, abbr, launch, fns in KERNELS:
            src = os.path.join(inputs, name + ".sm_80.ptx")
            block = [int(x) for x in re.search(r"--block=(\S+)", launch).group(1).split(",")]
            threads = 1
            for x in block:
                threads *= x
            W = (threads + 31) // 32
            print()
            print("%s (thesis %s), W = %d warps per CTA; functions %s" % (name, abbr, W, ", ".join(fns)))
            r = run([a.ptxopt, "--passes=sfu<lambda=0;gate=off>", "--remarks", "-o", os.devnull, src])
            sites = re.findall(r"site \d+, (\w+): ", r.stderr)
            print("sites the pass finds: %s" % (", ".join("%s x%d" % (k, sites.count(k)) for k in sorted(set(sites)))
                                               or "none"))
            print("%-8s %-12s %-22s %-24s %-5s" % ("lambda", "error mre", "emu sfu/fma/alu", "sass sfu/fp32/int/total",
                                                  "regs"))
            err_all = None
            for lam in range(W + 1):
                out = os.path.join(tmp, "%s.l%d.ptx" % (name, lam))
                k, why = rewrite(a.ptxopt, "sfu<lambda=%d;key=warp>" % lam, src, out, out + ".json")
                if k is None:
                    print("%-8d %s" % (lam, why))
                    continue
                e = emu_error(a.emu, src, out, launch)
                s, f, al = emu_counts(a.emu, out, launch)
                af = k["after"]
                print("%-8d %-12.4g %-22s %-24s %-5s" % (lam, e, "%d/%d/%d" % (s, f, al),
                                                         "%d/%d/%d/%d" % (af["sfu"], af["fp32"], af["int"], af["total"]),
                                                         "%d->%d" % (k["before"]["regs"], af["regs"])))
                if lam == W:
                    err_all = e
            fast = os.path.join(inputs, name + ".fast.sm_80.ptx")
            e = emu_error(a.emu, src, fast, launch)
            s, f, al = emu_counts(a.emu, fast, launch)
            print("%-8s %-12.4g %-22s" % ("fastmath", e, "%d/%d/%d" % (s, f, al)))
            print("thesis (Table 6.4, Maxwell): " + "; ".join(
                "%s SFU %.1fx throughput, error %.3g" % THESIS_FN[fn] for fn in fns))
            if err_all is not None and err_all > 0:
                r = run([a.tune, "--dry-run", "--no-regs", "--sfu-launch=" + launch, "--qos-ratio=%g" % a.qos_ratio,
                         "--workdir=" + os.path.join(tmp, name + ".tune"), src])
                m = re.search(r"QoS mre <= (\S+).*lambda=(\d+) after (\d+) emulator run", r.stderr)
                if m:
                    print("ptxopt-tune (HEU, --qos-ratio=%g: mre <= %s): lambda = %s after %s emulator runs"
                          % (a.qos_ratio, m.group(1), m.group(2), m.group(3)))
                else:
                    print("ptxopt-tune failed: %s" % r.stderr.strip()[-400:])
        print()
        print("double precision (Inputs/dpops.cu, sfu<lambda=all;f64=1>): per-operation mean relative error,")
        print("emulator (bit-wise model of rcp/rsqrt.approx.ftz.f64, --approx=bound) against the thesis's GPU (Table 6.5)")
        src = os.path.join(inputs, "dpops.sm_80.ptx")
        out = os.path.join(tmp, "dpops.all.ptx")
        r = run([a.ptxopt, "--passes=sfu<lambda=all;f64=1>", "-q", "-o", out, src])
        if r.returncode != 0:
            print("the pass failed: %s" % r.stderr.strip())
        else:
            r = run([a.emu, "--diff", src, out, "--error-metric=mre", "--approx=bound"] + DP.split())
            errs = [float(m) for m in re.findall(r"argument \d+ \(\S+\): (\S+)", r.stdout)]
            for (op, thesis), e in zip(THESIS_DP, errs):
                print("  %-9s emulated %.4g   thesis %.4g   ratio %.3f" % (op, e, thesis, e / thesis))
    print()
    print("thesis headline (ch. 8): 1.89x speedup at QoS 0.8, up to 5.1x with all warps on the SFU (SP, Maxwell);")
    print("BLA, NBO, MEN and MRQ are among the apps whose all-SFU loss it calls intolerable for science.")


if __name__ == "__main__":
    main()
