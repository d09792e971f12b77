#!/usr/bin/env python3
"""curves.py -- the thesis's bypassing curves in the emulator's cache model
(issue 13 item 8): for every workload of testsuite/kernels/workloads, L1
hit rate, L2 and DRAM sectors against the threshold T = 0..W (W = warps per
CTA; T = W is cache-all, the untransformed kernel; T = 0 bypass-all), the
model's optimum T (exhaustive), the T a static search on the model picks,
and whether every T computes bit for bit what the original computes.

    curves.py --ptxopt=P --emu=E [--tune=T] [--srcdir=DIR] [--ops=cg[,no-allocate,cs]]
              [--form=pairs|versioning|l2policy] [--cache=KEYS] [--jobs=2]
              [--only=NAME,...] [--check] [--scratch=DIR]

Per workload (launches and inputs: testsuite/bypass/workloads/Inputs/
workloads.py) and bypass operator:
 1. the original runs once under ptxopt-emu --policy=hanoi --cache=... with
    its outputs dumped and compared with the workload's Python reference;
 2. for T = 0..W, `ptxopt --passes='bypass<threshold=T;op=OP;form=F;
    delivery=imm>'` rewrites it and the emulator runs it with the same
    launch, the model's partition=T (counters split into caching and
    bypassing warps), and its outputs are compared byte for byte with the
    original's;
 3. cost(T) = sectors the L2 serves (L1 misses + L1-bypassed sectors)
    + 3 x DRAM sectors read (an A100 moves about 3x more bytes per second
    out of its L2 than out of HBM; the weight only matters when DRAM
    sectors change with T).  The exhaustive optimum is the T of least
    cost; ties (within 1 %, the tuner's flat tolerance) go to T = W, then
    T = 0 (plain code, no header), then the larger T;
 4. the static choice (no GPU) is ptxopt-tune's: with --tune, `ptxopt-tune
    --no-regs --dim=bypass:FORM:OP --block=THREADS -k KERNEL` on the
    original, whose --measure command is this script in --lookup mode: it
    prints the cost step 3 measured for the variant's T, so the tuner's
    early-exit search (ptxopt-tune(1), BYPASS; research seed-002 §3.3:
    cache-all, bypass-all and W/2 first, flat or monotone stops, a bowl is
    bracketed, irregular is measured whole) runs on the model without
    running the emulator again (the tuner's variants rewrite only KERNEL,
    the sweep's every kernel of the file; the emulated kernel's code is
    the same).  The tuner builds its variants with ptxas;
    without --tune, or when no ptxas is found, the bench's own copy of that
    search (static_search) stands in and the header says so.  The report
    gives the runs the search needed and whether its T has the optimum's
    cost (the summary also counts how often the best of the first three
    points alone is optimal, i.e. the search without its follow-up runs).

The cache geometry: the thesis's larger Fermi L1 (48 KiB; it also ran
16 KiB), with the L2 and the SM count scaled down to the inputs (a few
hundred KiB to 2 MiB per workload, where the thesis ran data sets of many
MiB): by default --cache=sm_80,l1=48,l2=256,sms=4, and the occupancy the
model derives for CTAs per SM (make bench-bypass also runs
l1=16,l2=128,sms=2 for op=cg).  Counts are deterministic
(hanoi), so a test can FileCheck them.  With --check the exit status is 1
when any T's outputs differ from the original's, the original's differ
from the reference, or a rewrite or a run fails.

The model has no timing, MSHRs or bandwidth (ptxopt-emu(1)): it can show
the footprint effects behind the thesis's curves (the cache peak, LRU
thrash among caching warps), not the contention effects, so "optimum" here
means least modelled memory traffic, not least time.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True

DRAM_WEIGHT = 3
TIE = 0.01


def load_workloads(srcdir):
    sys.path.insert(0, os.path.join(srcdir, "testsuite", "bypass", "workloads", "Inputs"))
    import workloads
    return workloads


class Runner:
    def __init__(self, args, wl):
        self.a, self.wl = args, wl

    def rewrite(self, src, out, T, op, form, kernel):
        """Runs the pass; returns (error, "M of N") from its per-kernel
        remark "KERNEL: loads N, rewritten M"."""
        passes = "bypass<threshold=%d;op=%s;form=%s;delivery=imm>" % (T, op, form)
        if form == "l2policy":
            passes = "bypass<threshold=%d;form=l2policy;delivery=imm>" % T
        r = subprocess.run([self.a.ptxopt, "--passes=" + passes, "--remarks", src, "-o", out],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return "ptxopt %s: %s" % (passes, r.stderr.strip().splitlines()[-1:] or r.returncode), None
        m = re.search(r"\] %s: loads (\d+), rewritten (\d+)" % re.escape(kernel), r.stderr)
        return None, ("%s of %s" % (m.group(2), m.group(1)) if m else "?")

    def emulate(self, ptx, opts, launch, prefix, T):
        counters = prefix + ".json"
        cache = self.a.cache + ",partition=%d" % T
        cmd = [self.a.emu, ptx] + opts + ["-q", "--policy=hanoi", "--cache=" + cache, "--counters=" + counters]
        cmd += ["--dump=%d:%s.out%d" % (k, prefix, k) for k in launch.outputs()]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            return None, "ptxopt-emu: %s" % (r.stderr.strip().splitlines()[:1] or r.returncode)
        c = json.load(open(counters))["cache"]
        ld = c["loads"]["total"]
        point = {
            "l1_hits": ld["l1_hits"], "l1_misses": ld["l1_misses"], "bypassed": ld["l1_bypassed"],
            "l2_sectors": ld["l1_misses"] + ld["l1_bypassed"], "dram": c["dram_read_sectors"],
            "ctas_per_sm": c["ctas_per_sm"],
            "caching_hit_rate": c["loads"]["caching"]["l1_hit_rate"],
        }
        point["l1_rate"] = point["l1_hits"] / max(1, point["l1_hits"] + point["l1_misses"] + point["bypassed"])
        point["cost"] = point["l2_sectors"] + DRAM_WEIGHT * point["dram"]
        point["outputs"] = {k: open("%s.out%d" % (prefix, k), "rb").read() for k in launch.outputs()}
        return point, None


def job_original(runner, name, scratch):
    wl = runner.wl
    launch = wl.WORKLOADS[name]()
    prefix = os.path.join(scratch, name)
    opts = launch.options(prefix, dumps=False)
    W = launch.warps_per_cta()
    point, err = runner.emulate(launch.ptx(runner.a.srcdir), opts, launch, prefix + ".orig", W)
    bad = None
    if point:
        bad = wl.check(launch, prefix + ".orig")
    return name, launch, opts, point, err, bad


def job_variant(runner, name, launch, opts, scratch, op, form, T):
    prefix = os.path.join(scratch, "%s.%s.%s.T%d" % (name, op, form, T))
    out = prefix + ".ptx"
    err, rewritten = runner.rewrite(launch.ptx(runner.a.srcdir), out, T, op, form, launch.kernel)
    if err:
        return (name, op, T), None, err
    point, err = runner.emulate(out, opts, launch, prefix, T)
    if point:
        point["rewritten"] = rewritten
    return (name, op, T), point, err


def lookup():
    """--lookup=FILE: the ptxopt-tune --measure command.  Prints the cost
    the sweep measured for the variant's T (PTXOPT_VARIANT_BYPASS
    "threshold=T;...", none for the baseline, T = W)."""
    costs = json.load(open(sys.argv[1].split("=", 1)[1]))
    m = re.search(r"threshold=(\d+)", os.environ.get("PTXOPT_VARIANT_BYPASS") or "")
    print(costs[m.group(1) if m else "W"])
    return 0


def job_tune(runner, name, launch, scratch, op, form, costs):
    """ptxopt-tune --dim=bypass on the kernel, measuring with the sweep's
    costs (lookup): its early-exit search picks T.  Returns (T, runs,
    verdict) or an error string."""
    base = os.path.join(scratch, "%s.%s.%s.tune" % (name, op, form))
    W = launch.warps_per_cta()
    table = {str(T): c for T, c in costs.items()}
    table["W"] = costs[W]
    with open(base + ".costs.json", "w") as f:
        json.dump(table, f)
    dim = "bypass:l2policy" if form == "l2policy" else "bypass:%s:%s" % (form, op)
    threads = launch.block[0] * launch.block[1] * launch.block[2]
    measure = "%s %s --lookup=%s" % (sys.executable, os.path.abspath(__file__), base + ".costs.json")
    cmd = [runner.a.tune, "--no-regs", "--dim=" + dim, "--block=%d" % threads, "-k", launch.kernel, "--arch=sm_80",
           "--measure=" + measure, "--report=" + base + ".json", "--workdir=" + base + ".d",
           launch.ptx(runner.a.srcdir)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, "ptxopt-tune: %s" % (r.stderr.strip().splitlines()[-1:] or r.returncode)
    k = json.load(open(base + ".json"))["kernels"][0]
    best = k["variants"][k["best"]]
    v = best["values"].get("bypass")
    T = int(re.search(r"threshold=(\d+)", v).group(1)) if v else W
    runs = sum(1 for x in k["variants"] if x.get("times") and not x.get("duplicate_of"))
    verdict = re.search(r"search %s, bypass=\S+: (\w+)" % re.escape(launch.kernel), r.stderr)
    return (T, runs, verdict.group(1) if verdict else "?"), None


def exhaustive(costs, W):
    best = min(costs.values())
    good = [T for T in costs if costs[T] <= best * (1 + TIE)]
    order = sorted(good, key=lambda T: (T != W, T != 0, -T))
    return order[0], good


def find_ptxas():
    for p in (os.environ.get("PTXAS"), shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"):
        if p and os.access(p, os.X_OK):
            return p
    return None


def static_search(cost_of, W):
    """The bench's copy of ptxopt-tune's early-exit search over T = 0..W
    (for machines without ptxas); cost_of(T) looks the model's cost up.
    Returns (T, runs, shape)."""
    seen = {}

    def c(T):
        if T not in seen:
            seen[T] = cost_of(T)
        return seen[T]

    cha, bpa, mid = c(W), c(0), c(W // 2)
    lo, hi = min(cha, bpa, mid), max(cha, bpa, mid)
    if hi <= lo * (1 + TIE):
        return W, len(seen), "flat"
    if (bpa >= mid >= cha) or (bpa <= mid <= cha):
        return (W if cha <= bpa else 0), len(seen), "monotone"
    if mid < cha and mid < bpa:
        a, b = 0, W
        while b - a > 2:
            m1, m2 = a + (b - a) // 3, b - (b - a) // 3
            if c(m1) <= c(m2):
                b = m2
            else:
                a = m1
        T = min(range(a, b + 1), key=lambda t: (c(t), t != W, t != 0, -t))
        for end in (W, 0):
            if c(end) <= c(T) * (1 + TIE):
                T = end
                break
        return T, len(seen), "bowl"
    costs = {T: c(T) for T in range(W + 1)}
    return exhaustive(costs, W)[0], len(seen), "irregular"


def fmt_row(label, values, fmt):
    return "  %-16s" % label + "".join(fmt % v for v in values)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxopt", required=True)
    ap.add_argument("--emu", required=True)
    ap.add_argument("--srcdir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--ops", default="cg")
    ap.add_argument("--form", default="pairs", choices=["pairs", "versioning", "l2policy"])
    ap.add_argument("--cache", default="sm_80,l1=48,l2=256,sms=4")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--scratch")
    ap.add_argument("--tune", help="ptxopt-tune (the static choice: --dim=bypass's search); "
                    "without it the bench's own copy of that search")
    a = ap.parse_args()
    a.srcdir = os.path.abspath(a.srcdir)
    no_ptxas = a.tune and not find_ptxas()
    if no_ptxas:
        a.tune = None
    wl = load_workloads(a.srcdir)
    names = [n for n in wl.WORKLOADS if not a.only or n in a.only.split(",")]
    ops = ["l2policy"] if a.form == "l2policy" else a.ops.split(",")
    runner = Runner(a, wl)
    scratch = a.scratch or tempfile.mkdtemp(prefix="ptxopt-bypass-")
    os.makedirs(scratch, exist_ok=True)
    failures = []

    print("bypass curves in the cache model: --cache=%s, --policy=hanoi, form=%s, delivery=imm" % (a.cache, a.form))
    print("(static choice: %s)" % ("ptxopt-tune --dim=bypass, measuring with the model" if a.tune else
                                   "the bench's copy of ptxopt-tune's early-exit search" +
                                   (": ptxopt-tune needs ptxas, none found" if no_ptxas else "")))
    print("(a model, not the hardware: L1 hit % = L1 hits / all load sectors; L2 = sectors the L2 serves;")
    print(" DRAM = sectors read; cost = L2 + %d x DRAM; T = caching warps per CTA, W = cache-all)" % DRAM_WEIGHT)
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        originals = list(pool.map(lambda n: job_original(runner, n, scratch), names))
        futs = []
        for name, launch, opts, point, err, bad in originals:
            if err or bad:
                failures.append("%s: original: %s" % (name, err or "%d elements differ from the reference" % bad))
                continue
            for op in ops:
                for T in range(launch.warps_per_cta() + 1):
                    futs.append(pool.submit(job_variant, runner, name, launch, opts, scratch, op, a.form, T))
        results = {}
        for f in futs:
            key, point, err = f.result()
            results[key] = (point, err)
        tuned = {}
        if a.tune:
            tfuts = {}
            for name, launch, opts, point, err, bad in originals:
                if err or bad:
                    continue
                W = launch.warps_per_cta()
                for op in ops:
                    pts = [results[(name, op, T)][0] for T in range(W + 1)]
                    if all(pts):
                        costs = {T: pts[T]["cost"] for T in range(W + 1)}
                        tfuts[(name, op)] = pool.submit(job_tune, runner, name, launch, scratch, op, a.form, costs)
            for key, f in tfuts.items():
                tuned[key] = f.result()

    matches = cases = static_runs = exhaustive_runs = exact_T = identical = variants = three = 0
    table = []
    for name, launch, opts, orig, err, bad in originals:
        if err or bad:
            continue
        W = launch.warps_per_cta()
        info = "%s: %s, grid %s, block %s, W = %d, at most %d CTAs per SM" % (
            name, launch.kernel, "x".join(map(str, launch.grid)), "x".join(map(str, launch.block)), W,
            orig["ctas_per_sm"])
        print("\n" + info)
        for op in ops:
            pts, errs = {}, []
            for T in range(W + 1):
                point, e = results[(name, op, T)]
                if e:
                    errs.append("T=%d: %s" % (T, e))
                else:
                    pts[T] = point
            if errs:
                failures += ["%s op=%s %s" % (name, op, e) for e in errs]
                print("  op=%s: %d of %d runs failed: %s" % (op, len(errs), W + 1, errs[0]))
                continue
            same = [T for T in pts if pts[T]["outputs"] == orig["outputs"]]
            variants += len(pts)
            identical += len(same)
            if len(same) != len(pts):
                failures.append("%s op=%s: outputs differ from the original for T = %s" %
                                (name, op, ",".join(str(T) for T in pts if T not in same)))
            Ts = list(range(W + 1))
            print("  %-16s" % ("op=" + op if a.form != "l2policy" else "form=l2policy") + "".join("%8d" % T for T in Ts))
            print("  %-16s%s (the pass's remark at T = %d)" % ("loads rewritten", pts[min(1, W)]["rewritten"], min(1, W)))
            print(fmt_row("L1 hit %", [100 * pts[T]["l1_rate"] for T in Ts], "%8.1f"))
            print(fmt_row("caching hit %", [100 * pts[T]["caching_hit_rate"] for T in Ts], "%8.1f"))
            print(fmt_row("L2 sectors", [pts[T]["l2_sectors"] for T in Ts], "%8d"))
            print(fmt_row("DRAM sectors", [pts[T]["dram"] for T in Ts], "%8d"))
            costs = {T: pts[T]["cost"] for T in Ts}
            best, good = exhaustive(costs, W)
            if a.tune:
                choice, terr = tuned[(name, op)]
                if terr:
                    failures.append("%s op=%s: %s" % (name, op, terr))
                    print("  static: %s" % terr)
                    continue
                sT, runs, shape = choice
            else:
                sT, runs, shape = static_search(lambda T: costs[T], W)
            hit = sT in good
            # the three first points alone (no ternary or exhaustive follow-up)
            three += min((W, 0, W // 2), key=lambda T: costs[T]) in good
            cases += 1
            matches += hit
            exact_T += sT == best
            static_runs += runs
            exhaustive_runs += W + 1
            table.append((name, op, W, best, sT, runs, shape, hit, 100.0 * (costs[W] - costs[best]) / max(1, costs[W])))
            peak = max(Ts[1:], key=lambda T: (round(pts[T]["caching_hit_rate"], 4), -T))
            print("  optimum T = %d (exhaustive, %d runs; cost %d, cache-all %d, bypass-all %d); caching-warp hit peak at T = %d"
                  % (best, W + 1, costs[best], costs[W], costs[0], peak))
            print("  static  T = %d (%s%s, %d runs): %s; outputs identical to the original for %d of %d T"
                  % (sT, "ptxopt-tune: " if a.tune else "", shape, runs,
                     "optimal" if hit else "NOT optimal (cost %d)" % costs[sT], len(same), len(pts)))

    print("\n%-18s %-12s %3s %8s %9s %5s %-10s %s" % ("workload", "op", "W", "optimum", "static", "runs", "shape",
                                                     "optimum's saving over cache-all"))
    for name, op, W, best, sT, runs, shape, hit, gain in table:
        print("%-18s %-12s %3d %8d %9s %5d %-10s %5.1f %%" % (name, op, W, best, "%d%s" % (sT, "" if hit else " (miss)"),
                                                        runs, shape, gain))
    print("\nsummary: static choice optimal in %d of %d cases (same T as the exhaustive pick in %d); "
          "%d model runs instead of %d" % (matches, cases, exact_T, static_runs, exhaustive_runs))
    print("the best of cache-all, bypass-all and the midpoint alone is optimal in %d of %d cases" % (three, cases))
    print("outputs bit-identical to the original: %d of %d rewritten runs" % (identical, variants))
    for f in failures:
        print("FAIL: " + f)
    if a.check and failures:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(lookup() if len(sys.argv) == 2 and sys.argv[1].startswith("--lookup=") else main())
