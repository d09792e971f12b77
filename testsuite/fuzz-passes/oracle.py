"""oracle.py — what decides that a pass got a program wrong.

For one kernel (a .ptx file holding just it), one pass configuration and
one launch: ptxopt rewrites it; ptxas must accept the rewrite; ptxopt-emu
--diff runs original and rewrite under its ITS seeds and hanoi and the
buffers must agree bit for bit (or within the configuration's bound).  A
disagreement counts only if the original itself is valid for the launch:
it runs without a check failure and is not schedule-dependent
(`--diff ORIG ORIG`); otherwise the program, not the pass, is at fault.

A configuration's extra options go to ptxopt-emu, except `oracle:` ones,
which the oracle itself checks after --diff passed:
  oracle:exact-warps=K   (K a number or "all": the sfu pass's lambda)
      one run of each under the same options: every buffer but out (the
      generators' argument 0) bit for bit, and out's elements of the
      threads of warps K and up of each block (out[blk * BS_MAX + t], warp
      t / 32: those not sent to the approximate copy) bit for bit too.
"""
import hashlib
import os
import shutil
import subprocess
import tempfile

EMU_OPTS = ["-q", "--max-steps=50000000", "--max-report=3"]


def find_tool(env, name, fallback_dir="/usr/local/cuda/bin"):
    p = os.environ.get(env)
    if p and os.access(p, os.X_OK):
        return p
    p = shutil.which(name)
    if p:
        return p
    p = os.path.join(fallback_dir, name)
    return p if os.access(p, os.X_OK) else None


class Tools:
    def __init__(self, ptxopt, emu, ptxas=None, nvcc=None, arch="sm_80"):
        self.ptxopt, self.emu, self.arch = ptxopt, emu, arch
        self.ptxas = ptxas or find_tool("PTXAS", "ptxas")
        self.nvcc = nvcc or find_tool("NVCC", "nvcc")
        self._ptxas_cache = {}

    def run(self, argv, timeout=120):
        try:
            r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
            return r.returncode, r.stdout
        except subprocess.TimeoutExpired:
            return 124, "timed out after %d s: %s" % (timeout, " ".join(argv))

    def optimize(self, src, pipeline, dst):
        """Run the pass; (rc, remarks text)."""
        return self.run([self.ptxopt, "--passes=" + pipeline, "--remarks", src, "-o", dst])

    def ptxas_ok(self, path):
        """(accepted, message); cached on the text (ptxas is the slow step)."""
        with open(path, "rb") as f:
            key = hashlib.sha1(f.read()).hexdigest()
        if key not in self._ptxas_cache:
            if not self.ptxas:
                self._ptxas_cache[key] = (True, "no ptxas")
            else:
                rc, out = self.run([self.ptxas, "-arch=" + self.arch, path, "-o", os.devnull])
                self._ptxas_cache[key] = (rc == 0, out)
        return self._ptxas_cache[key]

    def diff(self, a, b, kernel, launch, extra=""):
        """(rc, output) of ptxopt-emu --diff A B, then the oracle: checks."""
        words = extra.split()
        mine = [w[len("oracle:"):] for w in words if w.startswith("oracle:")]
        emu = [w for w in words if not w.startswith("oracle:")]
        argv = [self.emu, "--diff", a, b, "--kernel=" + kernel] + EMU_OPTS + launch + emu
        rc, out = self.run(argv)
        for w in mine if rc == 0 else []:
            k, _, v = w.partition("=")
            if k != "exact-warps":
                return 2, "oracle.py: unknown option oracle:%s" % w
            rc, out = self.exact_warps(a, b, kernel, launch, [x for x in emu if x.startswith("--approx")],
                                       1 << 30 if v == "all" else int(v))
            if rc:
                break
        return rc, out

    def exact_warps(self, a, b, kernel, launch, opts, lam):
        """oracle:exact-warps=LAM (see the file's comment): (rc, output)."""
        bs = 128  # gen.BS_MAX: out[blk * 128 + t]
        nbuf = sum(1 for x in launch if x.startswith("--arg=buf:"))
        with tempfile.TemporaryDirectory() as d:
            data = []
            for tag, f in (("A", a), ("B", b)):
                dumps = ["--dump=%d:%s" % (i, os.path.join(d, "%s%d" % (tag, i))) for i in range(nbuf)]
                rc, out = self.run([self.emu, f, "--kernel=" + kernel, "--dump-format=bin"] + EMU_OPTS + launch
                                   + opts + dumps)
                if rc:
                    return rc, out
                data.append([open(os.path.join(d, "%s%d" % (tag, i)), "rb").read() for i in range(nbuf)])
        for i in range(nbuf):
            x, y = data[0][i], data[1][i]
            if i == 0:
                et = next(w for w in launch if w.startswith("--arg=buf:")).split(":")[1]
                size = 8 if et in ("f64", "u64", "s64", "b64") else 4
                for e in range(len(x) // size):
                    if (e % bs) // 32 >= lam and x[e * size:(e + 1) * size] != y[e * size:(e + 1) * size]:
                        return 1, ("%s and %s differ in 1 element of an exact warp (oracle:exact-warps=%s): "
                                   "argument 0 element %d (block %d, thread %d, warp %d)"
                                   % (a, b, lam, e, e // bs, e % bs, (e % bs) // 32))
            elif x != y:
                e = next(j for j in range(len(x)) if x[j] != y[j])
                return 1, ("%s and %s differ in 1 element of an exact buffer (oracle:exact-warps): argument %d "
                           "byte %d" % (a, b, i, e))
        return 0, ""


def signature(out):
    """A short name for how a --diff failed (kept fixed while reducing)."""
    if " differ in " in out:
        return "differs"
    for word in ("OUT_OF_BOUNDS", "MISALIGNED", "BAD_ADDRESS", "POISON", "UB_", "DEADLOCK", "LIVELOCK",
                 "BARRIER_MISUSE", "TRAP", "unsupported", "timed out"):
        if word in out:
            return "check:" + word
    return "other"


def original_valid(tools, ptx, kernel, launch, extra=""):
    """(valid, why): the original runs cleanly and schedule-independently
    (extra: e.g. --memory=weak, then also independently of the weak-memory
    choices: a race under the PTX memory model shows as schedule-dependent)."""
    rc, out = tools.diff(ptx, ptx, kernel, launch, extra)
    if rc != 0:
        lines = out.strip().splitlines() or ["rc %d" % rc]
        err = next((l for l in lines if "error:" in l), lines[-1])
        return False, signature(out) + ": " + err.split("error:", 1)[-1].strip()
    if "schedule-dependent" in out:
        return False, "schedule-dependent"
    return True, ""
