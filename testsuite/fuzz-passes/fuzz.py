#!/usr/bin/env python3
"""fuzz.py — random-program differential testing of every pass.

  fuzz.py --ptxopt=P --emu=E [--seed=S] [--count=N] [--minutes=M]
          [--source=cuda|ptx|both|sync] [--validate-all] [--avoid=FEATURES] [--batch=K]
          [--work=DIR] [--found=DIR] [--expect=FILE] [--no-reduce] [--keep]
          [--configs=REGEX] [--add-config=NAME=PIPELINE]

The campaign stops after N seeds or M minutes, whichever comes first (20
seeds when neither is given).  Per seed, two kernels: kS from gen.py (CUDA;
K at a time in one .cu file compiled by nvcc -ptx, cached under WORK/cache
by the source's hash, split into one .ptx per kernel) and pS from
gen_ptx.py (PTX written directly; the only source without nvcc).
--source=sync runs instead sS from gen_sync.py: producer/consumer and
critical-section kernels (locks, flags, mbarriers, barriers; PTX, no nvcc)
for the tinylock configurations, with a short hanoi watchdog (their naive
spin locks park the lock holder at a reconvergence point).
--validate-all checks every original (runs cleanly and gives the same
buffers under every schedule) even when no configuration changes it: with
no pass, the identity campaign of a generator.

For each kernel and each configuration of passes.py: ptxopt rewrites it;
when the output differs from the input (the pass "changed something": the
coverage figure, with its applied remarks counted as "rewrites"), ptxas
must accept it and ptxopt-emu --diff must find the buffers identical for
every launch of gen.LAUNCHES under 3 ITS seeds and hanoi (oracle.py).
Identical rewrites from two configurations are checked once.

A failure is reduced (reduce.py; once per kernel and failure kind) and
written to FOUND/KERNEL-CONFIG.ptx with its pipeline and launch in header
comments (check_found.py reruns them).  --expect=FILE lists
"KERNEL CONFIG  # class" pairs known to fail: they are reported as XFAIL;
one that passes is XPASS.  --avoid=known leaves out the generator features
of the known bug classes, to look past them (--avoid=math: the precise
float math that the sfu configurations rewrite).  The summary ends with
the coverage of reduce.FEATURES (programs containing each).  The exit
status is 1 on an
unexpected failure, an XPASS, or an invalid original (a generator bug: out
of bounds, a race, a check failure), else 0.
"""
import argparse
import hashlib
import os
import re
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import gen      # noqa: E402
import gen_ptx  # noqa: E402
import gen_sync  # noqa: E402
import oracle   # noqa: E402
import passes   # noqa: E402
import reduce as reducer  # noqa: E402


def compile_batch(tools, seeds, cache):
    """{kernel: (ptx text of it alone, element type)} for SEEDS."""
    src, meta = gen.module(seeds)
    key = hashlib.sha1((src + tools.arch).encode()).hexdigest()[:20]
    ptx = os.path.join(cache, key + ".ptx")
    if not os.path.exists(ptx):
        cu = os.path.join(cache, key + ".cu")
        with open(cu, "w") as f:
            f.write(src)
        r = subprocess.run([tools.nvcc, "-ptx", "-w", "-arch=" + tools.arch, cu, "-o", ptx + ".tmp"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.exit("fuzz.py: nvcc failed on %s (a generator bug):\n%s" % (cu, r.stdout[-3000:]))
        os.replace(ptx + ".tmp", ptx)
    with open(ptx) as f:
        text = f.read()
    return split_module(text), meta


def split_module(text):
    """One file per .entry: the module header plus that entry.  Module-scope
    variables (sinf's __cudart_i2opi_f table, placed after the first
    kernel's `// .globl` line) go into the header of every kernel."""
    decl = re.compile(r"(?m)^\.(?:global|const)\s[^\n]*;\n")
    shared = "".join(decl.findall(text))
    parts = re.split(r"(?m)^(?=\t// \.globl\t)", decl.sub("", text))
    head, out = parts[0] + shared, {}
    for p in parts[1:]:
        m = re.search(r"\.entry\s+(\w+)", p)
        out[m.group(1)] = head + p
    return out


class Campaign:
    def __init__(self, tools, args):
        self.t, self.a = tools, args
        self.configs = [c for c in passes.CONFIGS if re.search(args.configs, c[0])]
        for spec in args.add_config:
            name, pipeline = spec.split("=", 1)
            self.configs.append((name, pipeline, ""))
        self.changed = {c[0]: 0 for c in self.configs}
        self.applied = {c[0]: 0 for c in self.configs}
        self.programs = self.invalid = 0
        self.coverage = {}     # reduce.FEATURES name -> programs containing it
        self.failures, self.xfail, self.xpass = [], [], []
        self.expect = {}
        self.reduced = set()
        self.nvcc_nc = 0
        self.last_seed = args.seed - 1
        self.t0 = time.time()
        if args.expect:
            with open(args.expect) as f:
                for line in f:
                    w = line.split("#")[0].split()
                    if len(w) >= 2:
                        self.expect[(w[0], w[1])] = line.split("#", 1)[1].strip() if "#" in line else ""

    def log(self, s):
        print(s, flush=True)

    def kernel(self, seed, name, etype, text, work):
        nfail = len(self.failures)
        self.kernel1(seed, name, etype, text, work)
        if len(self.failures) == nfail and not self.a.keep:
            # a long campaign keeps only what a failure needs
            for f in [name + ".ptx"] + ["%s.%s.ptx" % (name, c[0]) for c in self.configs]:
                try:
                    os.remove(os.path.join(work, f))
                except OSError:
                    pass
        if self.programs % 100 == 0:
            self.log("... %d programs, %d failures, %.0f s" % (self.programs, len(self.failures),
                                                               time.time() - self.t0))

    def kernel1(self, seed, name, etype, text, work):
        src = os.path.join(work, name + ".ptx")
        with open(src, "w") as f:
            f.write(text)
        self.programs += 1
        for f in reducer.features(text):
            self.coverage[f] = self.coverage.get(f, 0) + 1
        if not self.t.ptxas_ok(src)[0]:
            self.invalid += 1
            self.log("INVALID %s: ptxas rejects it" % name)
            return
        shapes = [gen.LAUNCHES[int(k)] for k in self.a.launches.split(",")] if self.a.launches else gen.LAUNCHES
        launches = [gen.launch_args(etype, g, b, seed) + (gen_sync.EMU_EXTRA if name.startswith("s") else [])
                    for g, b in shapes]
        verdicts = {}          # output hash -> failure or None
        valid = None
        if self.a.validate_all:
            valid = self.validate(src, name, launches)
            if valid is not True:
                self.invalid += 1
                self.log("INVALID %s: %s" % (name, valid))
                return
        for cname, pipeline, extra in self.configs:
            dst = os.path.join(work, "%s.%s.ptx" % (name, cname))
            rc, remarks = self.t.optimize(src, pipeline, dst)
            fail = None
            if rc != 0:
                fail = ("ptxopt-rc%d" % rc, None, remarks.strip()[-400:])
            else:
                with open(dst) as f:
                    out = f.read()
                if out == text:
                    self.settle(seed, cname, None)
                    continue
                self.changed[cname] += 1
                self.applied[cname] += remarks.count("(applied)")
                h = hashlib.sha1((out + extra).encode()).hexdigest()
                if h in verdicts:
                    fail = verdicts[h]
                else:
                    if valid is None:
                        valid = self.validate(src, name, launches)
                        if valid is not True and name.startswith("k") and "UB_NC" in valid:
                            # nvcc if-converts `c ? b[i] : a[j]` with a
                            # const __restrict__ b into one ld.global.nc of
                            # a selected address, which may read written
                            # memory: nvcc's doing, not the generator's or a
                            # pass's; counted apart (ptxopt-emu flags it
                            # since issue 10 section 4)
                            self.nvcc_nc += 1
                            self.log("SKIP %s: nvcc's PTX reads written memory through ld.global.nc (%s)" % (name, valid))
                            return
                        if valid is not True:
                            self.invalid += 1
                            self.log("INVALID %s: %s" % (name, valid))
                            return
                    ok, msg = self.t.ptxas_ok(dst)
                    if not ok:
                        fail = ("ptxas-rejects", None, msg.strip()[-400:])
                    else:
                        for launch in launches:
                            rc, o = self.t.diff(src, dst, name, launch, extra)
                            if rc != 0:
                                fail = (oracle.signature(o), launch, o.strip()[-600:])
                                break
                    verdicts[h] = fail
            self.settle(seed, cname, fail, src=src, name=name, pipeline=pipeline, extra=extra)

    def validate(self, src, name, launches):
        # under weak memory too when a configuration runs there, and always
        # for the sync kernels: a program racy under the PTX memory model is
        # the generator's fault, not a pass's
        modes = []
        if not self.configs or any(passes.WEAK not in c[2] for c in self.configs):
            modes.append("")
        if self.a.source == "sync" or any(passes.WEAK in c[2] for c in self.configs):
            modes.append(passes.WEAK)
        for mode in modes:
            for launch in launches:
                ok, why = oracle.original_valid(self.t, src, name, launch, mode)
                if not ok:
                    return "%s with %s%s" % (why, " ".join(launch[:2]), " (weak memory)" if mode else "")
        return True

    def settle(self, seed, cname, fail, src=None, name=None, pipeline=None, extra=""):
        key = (name, cname)
        known = key in self.expect
        if fail is None:
            if known:
                self.xpass.append(key)
                self.log("XPASS %s %s (expected to fail: %s)" % (name, cname, self.expect[key]))
            return
        sig, launch, detail = fail
        if known:
            self.xfail.append(key)
            self.log("XFAIL %s %s: %s (%s)" % (name, cname, sig, self.expect[key]))
            return
        self.failures.append((name, cname, sig))
        self.log("FAIL %s %s: %s%s\n%s" % (name, cname, sig,
                                                  " with " + " ".join(launch) if launch else "",
                                                  "    " + detail.replace("\n", "\n    ")))
        if self.a.found and launch and not self.a.no_reduce and (name, sig) not in self.reduced:
            # one reproducer per program and failure kind: the other
            # configurations failing the same way are usually the same bug
            self.reduced.add((name, sig))
            with open(src) as f:
                text = f.read()
            red, s2 = reducer.reduce(self.t, text, name, pipeline, launch, extra, want=sig)
            os.makedirs(self.a.found, exist_ok=True)
            path = os.path.join(self.a.found, "%s-%s.ptx" % (name, cname))
            with open(path, "w") as f:
                f.write("// fuzz-passes reproducer: %s seed %d (kernel %s), reduced\n"
                        % ({"p": "gen_ptx.py", "s": "gen_sync.py"}.get(name[0], "gen.py"), seed, name))
                f.write("// PIPELINE: %s\n// LAUNCH: %s\n// EMU: %s\n// FAILURE: %s\n// FEATURES: %s\n" %
                        (pipeline, " ".join(launch), extra, sig, " ".join(reducer.features(red))))
                f.write(red)
            self.log("  reduced to %d statements (%s): %s" % (len(reducer.statements(red.splitlines())),
                                                             " ".join(reducer.features(red)), path))

    def summary(self, secs):
        n = max(self.programs, 1)
        self.log("fuzz-passes: %d programs (%s, seeds %d..%d) in %.1f s: %.1f programs/minute; %d invalid"
                 % (self.programs, self.a.source, self.a.seed, self.last_seed, secs,
                    60.0 * self.programs / max(secs, 1e-9), self.invalid))
        self.log("%-22s %-58s %8s %6s %8s" % ("config", "pipeline", "changed", "", "rewrites"))
        for cname, pipeline, _ in self.configs:
            self.log("%-22s %-58s %8d %5.0f%% %8d" % (cname, pipeline, self.changed[cname],
                                                      100.0 * self.changed[cname] / n, self.applied[cname]))
        self.log("features: %s" % ", ".join("%s %d" % (f, self.coverage.get(f, 0)) for f, _ in reducer.FEATURES))
        if self.nvcc_nc:
            self.log("skipped: %d nvcc kernels that read written memory through ld.global.nc" % self.nvcc_nc)
        self.log("failures: %d unexpected, %d expected (XFAIL), %d XPASS"
                 % (len(self.failures), len(self.xfail), len(self.xpass)))
        for k, c, sig in self.failures:
            self.log("  %s %s: %s" % (k, c, sig))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ptxopt", required=True)
    ap.add_argument("--emu", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--minutes", type=float, default=0)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--source", choices=["cuda", "ptx", "both", "sync"], default="",
                    help="gen.py through nvcc, gen_ptx.py, or both (default: both; ptx without nvcc); "
                         "sync: gen_sync.py's lock and flag kernels")
    ap.add_argument("--validate-all", action="store_true",
                    help="validate every original, changed by a configuration or not")
    ap.add_argument("--work", default="fuzz-passes.work")
    ap.add_argument("--found", default="")
    ap.add_argument("--expect", default="")
    ap.add_argument("--no-reduce", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep every kernel and rewrite in WORK")
    ap.add_argument("--avoid", default="", metavar="FEATURES",
                    help="comma-separated generator features to leave out (gen.FEATURES: those of gen.KNOWN, or "
                         "'known' for all of them: the shapes of the known bug classes; math: precise "
                         "float math for the sfu pass), to look past them for other bugs")
    ap.add_argument("--configs", default=".", help="regex: the configurations of passes.py to run")
    ap.add_argument("--launches", default="", metavar="LIST",
                    help="indices into gen.LAUNCHES (default: all four shapes), to make a long campaign cheaper")
    ap.add_argument("--emu-seeds", type=int, default=3, metavar="N", help="ITS seeds per --diff (default 3, and hanoi)")
    ap.add_argument("--add-config", action="append", default=[], metavar="NAME=PIPELINE",
                    help="one more configuration (e.g. a deliberately wrong ablation)")
    a = ap.parse_args()
    if not a.count and not a.minutes:
        a.count = 20
    for f in filter(None, a.avoid.split(",")):
        if f != "known" and f not in gen.FEATURES:
            sys.exit("fuzz.py: --avoid=%s: not one of known, %s" % (f, ", ".join(sorted(gen.FEATURES))))
        gen.AVOID |= gen.KNOWN if f == "known" else {f}
    tools = oracle.Tools(a.ptxopt, a.emu)
    if a.emu_seeds != 3:
        oracle.EMU_OPTS.append("--seeds=%d" % a.emu_seeds)
    if not a.source:
        a.source = "both" if tools.nvcc else "ptx"
    if a.source not in ("ptx", "sync") and not tools.nvcc:
        sys.exit("fuzz.py: nvcc not found ($NVCC, PATH, /usr/local/cuda/bin)")
    cache = os.path.join(a.work, "cache")
    os.makedirs(cache, exist_ok=True)
    c = Campaign(tools, a)
    t0 = c.t0
    seed = a.seed
    while True:
        if a.count and seed >= a.seed + a.count:
            break
        if a.minutes and time.time() - t0 >= 60 * a.minutes:
            break
        k = a.batch if not a.count else min(a.batch, a.seed + a.count - seed)
        if a.source in ("cuda", "both"):
            kernels, meta = compile_batch(tools, range(seed, seed + k), cache)
        for s in range(seed, seed + k):
            if a.source == "sync":
                text, etype = gen_sync.kernel_source(s)
                c.kernel(s, "s%d" % s, etype, text, a.work)
                c.last_seed = s
                continue
            if a.source != "ptx":
                name = "k%d" % s
                c.kernel(s, name, meta[name], kernels[name], a.work)
            if a.source != "cuda":
                text, etype = gen_ptx.kernel_source(s)
                c.kernel(s, "p%d" % s, etype, text, a.work)
            c.last_seed = s
        seed += k
    c.summary(time.time() - t0)
    sys.exit(1 if c.failures or c.xpass or c.invalid else 0)


if __name__ == "__main__":
    main()
