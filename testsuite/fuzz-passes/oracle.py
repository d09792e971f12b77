"""oracle.py — what decides that a pass got a program wrong.

For one kernel (a .ptx file holding just it), one pass configuration and
one launch: ptxopt rewrites it; ptxas must accept the rewrite; ptxopt-emu
--diff runs original and rewrite under its ITS seeds and hanoi and the
buffers must agree bit for bit (or within the configuration's bound).  A
disagreement counts only if the original itself is valid for the launch:
it runs without a check failure and is not schedule-dependent
(`--diff ORIG ORIG`); otherwise the program, not the pass, is at fault.
"""
import hashlib
import os
import shutil
import subprocess

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
        """(rc, output) of ptxopt-emu --diff A B."""
        argv = [self.emu, "--diff", a, b, "--kernel=" + kernel] + EMU_OPTS + launch + extra.split()
        return self.run(argv)


def signature(out):
    """A short name for how a --diff failed (kept fixed while reducing)."""
    if " differ in " in out:
        return "differs"
    for word in ("OUT_OF_BOUNDS", "MISALIGNED", "BAD_ADDRESS", "POISON", "UB_", "DEADLOCK", "LIVELOCK",
                 "BARRIER_MISUSE", "TRAP", "unsupported", "timed out"):
        if word in out:
            return "check:" + word
    return "other"


def original_valid(tools, ptx, kernel, launch):
    """(valid, why): the original runs cleanly and schedule-independently."""
    rc, out = tools.diff(ptx, ptx, kernel, launch)
    if rc != 0:
        lines = out.strip().splitlines() or ["rc %d" % rc]
        err = next((l for l in lines if "error:" in l), lines[-1])
        return False, signature(out) + ": " + err.split("error:", 1)[-1].strip()
    if "schedule-dependent" in out:
        return False, "schedule-dependent"
    return True, ""
