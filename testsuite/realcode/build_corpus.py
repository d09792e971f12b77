#!/usr/bin/env python3
"""build_corpus.py -- build the real-code PTX corpus of the sweep (issue 21).

Compiles the CUDA programs of public benchmark suites (snapshots of their
GitHub repositories, which this script never downloads) to PTX with nvcc
(sm_75, sm_80, sm_90) and clang 14 (sm_75, sm_80), keeps what ptxas accepts,
adds two merged modules of many functions (the big-file cases) and writes a
manifest.  Everything goes to a cache outside the source tree:

  $PTXOPT_SWEEP_CACHE (default ~/.cache/ptxopt-sweep)
    src/SUITE/          the snapshot's source files (extracted once)
    ptx/SUITE/PROGRAM/  UNIT.COMPILER.TARGET.ptx (+ .cmd: the command that
                        made it, so a rebuild skips what is up to date)
    fail/...            the log of each compilation that failed (not retried
                        unless --retry-failed)
    merged/             merged-16mb.sm_80.ptx, merged-40mb.sm_80.ptx
    manifest.tsv        one line per corpus file (see MANIFEST_FIELDS)
    build-summary.txt   what was built, skipped and why

Snapshots: a suite's snapshot is a bare git directory (what `git clone
--bare` or ptxopt's project tooling leaves), a directory holding one in
repo/, or an already extracted source tree.  They are looked up as
SNAPSHOTS/OWNER+NAME (SNAPSHOTS: --snapshots or $PTXOPT_SWEEP_SNAPSHOTS,
default /work/.mirror) unless --snapshot SUITE=PATH names one.  A missing
snapshot is reported with the repository to fetch and the suite is skipped;
the exit status is 1 when no suite could be built, 0 otherwise.

Usage: build_corpus.py [--jobs 2] [--suites a,b] [--compilers nvcc,clang]
                       [--limit N] [--no-merged] [--retry-failed] [--list]
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ptxinfo  # noqa: E402  (this folder)

NVCC_ARCHS = ["sm_75", "sm_80", "sm_90"]
CLANG_ARCHS = ["sm_75", "sm_80"]          # clang 14 knows sm_86 at most
MERGED = [("merged-16mb", 16), ("merged-40mb", 40)]   # MiB
MERGED_TARGET = "sm_80"
MERGE_MAX_PART = 2 << 20      # a merged module is many modules, not one big one
MANIFEST_FIELDS = ["path", "suite", "program", "source", "target", "compiler",
                   "flags", "bytes", "kernels", "functions", "ptxas_flags"]
SOURCE_EXT = (".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".c", ".cc", ".cpp",
              ".cxx", ".inc", ".inl", ".def", ".tcc", ".ipp", ".cl")
KEEP_NAMES = re.compile(r"^(Makefile|makefile|LICEN[CS]E.*|COPYING.*|COPYRIGHT.*)$")
MAX_BLOB = 4 << 20
COMPILE_TIMEOUT = 600
PTXAS_TIMEOUT = 1200


class Suite:
    """A benchmark suite: its repository, licence, how to list its units,
    and headers its host code needs that its build would generate or find
    on the system (written to CACHE/shim/SUITE, searched after its own)."""
    def __init__(self, name, repo, licence, units, shims=None):
        self.name, self.repo, self.licence, self.units = name, repo, licence, units
        self.shims = shims or {}


# ---------------------------------------------------------------- snapshots

def run_git(gitdir, *args, **kw):
    return subprocess.run(["git", "--git-dir=" + gitdir] + list(args),
                          check=True, stdout=subprocess.PIPE, **kw).stdout


def find_snapshot(suite, args):
    """(kind, path) of the suite's snapshot: ('git', bare dir) or ('tree',
    dir), or (None, where it was looked for)."""
    path = args.snapshot.get(suite.name)
    if path is None:
        path = os.path.join(args.snapshots, suite.repo.replace("/", "+"))
    for cand in (path, os.path.join(path, "repo")):
        if os.path.isfile(os.path.join(cand, "HEAD")) and os.path.isdir(os.path.join(cand, "objects")):
            return "git", cand
    if os.path.isdir(path) and os.listdir(path):
        return "tree", path
    return None, path


def extract(suite, kind, path, dest):
    """Copies the source files of the snapshot into dest (once per commit).
    Returns a short description; blobs missing from a partial snapshot are
    skipped and counted."""
    stamp = os.path.join(dest, ".snapshot")
    if kind == "tree":
        ident = "tree " + os.path.abspath(path)
    else:
        ident = "git " + run_git(path, "rev-parse", "HEAD").decode().strip()
    if os.path.exists(stamp) and open(stamp).read().strip() == ident:
        return ident + " (extracted before)"
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    if kind == "tree":
        n = 0
        for d, _, files in os.walk(path):
            if "/.git" in d:
                continue
            for f in files:
                if f.endswith(SOURCE_EXT) or KEEP_NAMES.match(f):
                    rel = os.path.relpath(os.path.join(d, f), path)
                    os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
                    shutil.copy2(os.path.join(d, f), os.path.join(dest, rel), follow_symlinks=False)
                    n += 1
        open(stamp, "w").write(ident + "\n")
        return "%s (%d files)" % (ident, n)
    entries = []
    for rec in run_git(path, "ls-tree", "-r", "-l", "-z", "HEAD").split(b"\0"):
        if not rec:
            continue
        meta, name = rec.split(b"\t", 1)
        mode, typ, sha, size = meta.split()
        name = name.decode("utf-8", "replace")
        base = os.path.basename(name)
        if typ != b"blob" or not (base.endswith(SOURCE_EXT) or KEEP_NAMES.match(base)):
            continue
        if size != b"-" and int(size) > MAX_BLOB:
            continue
        entries.append((mode, sha.decode(), name))
    out = subprocess.run(["git", "--git-dir=" + path, "cat-file", "--batch"],
                         input="".join(e[1] + "\n" for e in entries).encode(),
                         stdout=subprocess.PIPE, check=True).stdout
    pos, written, missing = 0, 0, 0
    for mode, sha, name in entries:
        nl = out.index(b"\n", pos)
        header = out[pos:nl].split()
        pos = nl + 1
        if header[-1] == b"missing":
            missing += 1
            continue
        size = int(header[2])
        data = out[pos:pos + size]
        pos += size + 1
        target = os.path.join(dest, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if mode == b"120000":
            os.symlink(data.decode(), target)
        else:
            with open(target, "wb") as f:
                f.write(data)
        written += 1
    open(stamp, "w").write(ident + "\n")
    return "%s (%d files, %d absent from the snapshot)" % (ident, written, missing)


# ---------------------------------------------------------------- units

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def included_files(root):
    """Paths (real) of files that some file under root #includes with quotes,
    relative to the includer: such a .cu is part of another unit."""
    inc = set()
    for d, _, files in os.walk(root):
        for f in files:
            if not f.endswith(SOURCE_EXT):
                continue
            p = os.path.join(d, f)
            try:
                text = open(p, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            for m in INCLUDE_RE.finditer(text):
                inc.add(os.path.realpath(os.path.join(d, m.group(1))))
    return inc


def cu_units(root, progdir, exts=(".cu",)):
    """The .cu files under progdir that no other file includes."""
    inc = included_files(progdir)
    out = []
    for d, _, files in os.walk(progdir):
        for f in sorted(files):
            p = os.path.join(d, f)
            if f.endswith(exts) and os.path.realpath(p) not in inc and os.path.isfile(p):
                out.append(os.path.relpath(p, root))
    return sorted(out)


def header_dirs(root, progdir, have):
    """The folders under progdir that hold headers (inc/, include/, ...),
    relative to root, that are not in have."""
    out = []
    for d, _, files in sorted(os.walk(progdir)):
        rel = os.path.relpath(d, root)
        if rel not in have and any(f.endswith((".h", ".cuh", ".hpp", ".hh")) for f in files):
            out.append(rel)
    return out


def unit(program, source, includes=(), defines=(), variant="", lang=None, nvcc_extra=()):
    return {"program": program, "source": source, "includes": list(includes),
            "defines": list(defines), "variant": variant, "lang": lang,
            "nvcc_extra": list(nvcc_extra)}


def units_cuda_samples(root):
    out = []
    samples = os.path.join(root, "Samples")
    for cat in sorted(os.listdir(samples)) if os.path.isdir(samples) else []:
        for prog in sorted(os.listdir(os.path.join(samples, cat))):
            pd = os.path.join(samples, cat, prog)
            if not os.path.isdir(pd):
                continue
            for src in cu_units(root, pd):
                u = unit(prog, src, [os.path.dirname(src), "Samples/" + cat + "/" + prog, "Common"])
                u["more_includes"] = header_dirs(root, pd, u["includes"])
                out.append(u)
    return out


MAKE_SOURCE_RE = re.compile(r"^\s*source\s*[:+]?=\s*(.*)$", re.M)
MAKE_FLAG_RE = re.compile(r"^\s*(?:CFLAGS|CXXFLAGS|NVCCFLAGS|CUDAFLAGS|FLAGS)\s*[:+]?=(.*)$", re.M)


def units_hecbench(root):
    out = []
    src = os.path.join(root, "src")
    for prog in sorted(os.listdir(src)) if os.path.isdir(src) else []:
        if not prog.endswith("-cuda"):
            continue
        pd = os.path.join(src, prog)
        rel = "src/" + prog
        includes, defines = [rel], []
        mk = os.path.join(pd, "Makefile")
        listed = None
        if os.path.isfile(mk):
            text = open(mk, encoding="utf-8", errors="replace").read()
            m = MAKE_SOURCE_RE.search(text)
            if m:
                listed = [w for w in m.group(1).split() if w.endswith(".cu")]
            for line in MAKE_FLAG_RE.findall(text):
                for tok in line.split():
                    if tok.startswith("-I") and len(tok) > 2 and "$" not in tok and not tok[2:].startswith("/"):
                        includes.append(os.path.normpath(os.path.join(rel, tok[2:])))
                    elif tok.startswith("-D") and "$" not in tok and tok not in ("-DDEBUG",):
                        defines.append(tok[2:])
        units = cu_units(root, pd)
        if listed:
            want = {os.path.normpath(os.path.join(rel, s)) for s in listed}
            units = [u for u in units if u in want] or units
        for s in units:
            u = unit(prog[:-5], s, [os.path.dirname(s)] + includes, defines,
                     nvcc_extra=["--extended-lambda", "--expt-relaxed-constexpr"])
            u["more_includes"] = header_dirs(root, pd, u["includes"])
            out.append(u)
    return out


def units_rodinia(root):
    out = []
    cuda = os.path.join(root, "cuda")
    for prog in sorted(os.listdir(cuda)) if os.path.isdir(cuda) else []:
        pd = os.path.join(cuda, prog)
        if os.path.isdir(pd):
            for s in cu_units(root, pd):
                u = unit(prog, s, [os.path.dirname(s), "cuda/" + prog, "common"])
                u["more_includes"] = header_dirs(root, pd, u["includes"])
                out.append(u)
    return out


def units_polybench(root):
    out = []
    cuda = os.path.join(root, "CUDA")
    for d, _, files in sorted(os.walk(cuda)):
        for f in sorted(files):
            if f.endswith(".cu"):
                s = os.path.relpath(os.path.join(d, f), root)
                out.append(unit(os.path.basename(d), s,
                                [os.path.dirname(s), "CUDA/utilities", "common"]))
    return out


def units_shoc(root):
    out = []
    base = os.path.join(root, "src", "cuda")
    for d, _, files in sorted(os.walk(base)):
        if "/common" in d:
            continue
        inc = included_files(d)
        for f in sorted(files):
            p = os.path.join(d, f)
            if f.endswith(".cu") and os.path.realpath(p) not in inc:
                s = os.path.relpath(p, root)
                out.append(unit(os.path.basename(d), s,
                                [os.path.dirname(s), "src/common", "src/cuda/common", "config"]))
    return out


def units_parboil(root):
    out = []
    bench = os.path.join(root, "benchmarks")
    for b in sorted(os.listdir(bench)) if os.path.isdir(bench) else []:
        sd = os.path.join(bench, b, "src")
        if not os.path.isdir(sd):
            continue
        for v in sorted(os.listdir(sd)):
            if not v.startswith("cuda") or not os.path.isdir(os.path.join(sd, v)):
                continue
            for s in cu_units(root, os.path.join(sd, v)):
                u = unit(b + "/" + v, s, [os.path.dirname(s), "common/include"])
                u["more_includes"] = header_dirs(root, os.path.join(bench, b), u["includes"])
                out.append(u)
    return out


def units_kernelgen(root):
    """KernelGen's stencil performance tests: each TEST/TEST.c is the CUDA
    version under __CUDACC__ (the .cu in the repository is a link to it),
    built for float and double as its makefiles do."""
    out = []
    for t in sorted(os.listdir(root)):
        c = os.path.join(root, t, t + ".c")
        if os.path.isfile(c):
            for real in ("float", "double"):
                out.append(unit(t, t + "/" + t + ".c", [t + "/cuda", t], ["real=" + real],
                                variant=real, lang="cu"))
    return out


SUITES = [
    Suite("rodinia", "yuhc/gpu-rodinia", "BSD-3-Clause-style (University of Virginia)", units_rodinia),
    Suite("polybench-acc", "cavazos-lab/PolyBench-ACC", "BSD-3-Clause (University of Delaware)", units_polybench),
    Suite("shoc", "vetter/shoc", "BSD-3-Clause (UT-Battelle)", units_shoc,
          # what SHOC's configure writes
          {"config.h": "#define HAVE_STDINT_H 1\n#define HAVE_UNISTD_H 1\n#define HAVE_GETHOSTNAME 1\n"
                     "#define HAVE_GETTIMEOFDAY 1\n"}),
    Suite("parboil", "abduld/Parboil", "NCSA (University of Illinois)", units_parboil,
          # parboil.h declares an OpenCL timing hook for every version
          {"CL/cl.h": "#pragma once\ntypedef int cl_int;\ntypedef unsigned int cl_uint;\n"
                      "typedef struct _cl_command_queue *cl_command_queue;\ntypedef struct _cl_kernel *cl_kernel;\n"
                      "typedef struct _cl_mem *cl_mem;\ntypedef struct _cl_event *cl_event;\n"}),
    Suite("cuda-samples", "NVIDIA/cuda-samples", "BSD-3-Clause (NVIDIA)", units_cuda_samples),
    Suite("hecbench", "zjin-lcf/HeCBench", "BSD-3-Clause (ANL/ORNL); some programs carry their own notice", units_hecbench),
    Suite("kernelgen", "dmikushin/kernelgen-perf-tests", "NCSA (University of Illinois), as its makefiles state", units_kernelgen),
]


# ---------------------------------------------------------------- compile

def tool_ident(argv):
    try:
        return subprocess.run(argv + ["--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True).stdout.strip().splitlines()[-1]
    except OSError:
        return None


CLANG_SHIM_CUDA_H = ("/* ptxopt sweep: clang 14 + CUDA 13 shim (see build_corpus.py) */\n"
                     "#include_next <cuda.h>\n"
                     "#if defined(__clang__) && defined(__CUDA__) && !defined(PTXOPT_SWEEP_TEXTURE_SHIM)\n"
                     "#define PTXOPT_SWEEP_TEXTURE_SHIM\n"
                     "template <class T, int texType = 1, int mode = 0> struct texture {};\n"
                     "#endif\n")


def write_clang_shim(cache):
    """clang 14 with CUDA 13's headers: CUDA 13 dropped texture references
    (the texture<> template, texture_fetch_functions.h) that clang 14's CUDA
    wrapper still names.  Two small headers, found before CUDA's through -I,
    put them back as empty declarations; everything else is CUDA 13's."""
    d = os.path.join(cache, "clang-shim")
    os.makedirs(d, exist_ok=True)
    files = {
        "cuda.h": CLANG_SHIM_CUDA_H,
        "texture_fetch_functions.h": "/* ptxopt sweep: removed in CUDA 13, named by clang 14 */\n",
    }
    for n, text in files.items():
        p = os.path.join(d, n)
        if not os.path.exists(p) or open(p).read() != text:
            open(p, "w").write(text)
    return d


COMPAT_H = """/* ptxopt sweep (build_corpus.py): host functions that CUDA 13 removed and
   old benchmark host code still calls.  Only host code uses them: the
   device code, which is what the corpus is made of, is the program's own. */
#pragma once
#include <cuda_runtime.h>
#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000
static inline cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
static inline cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
static inline cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache c) { return cudaDeviceSetCacheConfig(c); }
static inline cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *c) { return cudaDeviceGetCacheConfig(c); }
static inline cudaError_t cudaThreadSetLimit(enum cudaLimit l, size_t v) { return cudaDeviceSetLimit(l, v); }
static inline cudaError_t cudaThreadGetLimit(size_t *v, enum cudaLimit l) { return cudaDeviceGetLimit(v, l); }
#endif
"""


def write_compat(cache):
    d = os.path.join(cache, "compat")
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, "ptxopt_sweep_compat.h")
    if not os.path.exists(p) or open(p).read() != COMPAT_H:
        open(p, "w").write(COMPAT_H)
    return p


def command(u, compiler, arch, srcroot, out, tools):
    inc = []
    for i in u["includes"]:
        inc.append("-I" + os.path.join(srcroot, i))
    defs = ["-D" + d for d in u["defines"]] + ["-include", tools["compat_h"]]
    src = os.path.join(srcroot, u["source"])
    if compiler == "nvcc":
        cmd = [tools["nvcc"], "-ptx", "-O3", "-std=c++17", "-arch=" + arch, "-w"] + u["nvcc_extra"]
        if u["lang"]:
            cmd += ["-x", "cu"]
        return cmd + inc + defs + [src, "-o", out]
    cmd = [tools["clang"], "--cuda-device-only", "-S", "-x", "cuda", "--cuda-gpu-arch=" + arch,
           "--cuda-path=" + tools["cuda_root"], "--no-cuda-version-check", "-Wno-unknown-cuda-version",
           "-I" + tools["clang_shim"], "-I" + os.path.join(tools["cuda_root"], "include", "cccl"),
           # CCCL 3 names a variadic function in unevaluated contexts (type traits)
           "-Xclang", "-fcuda-allow-variadic-functions", "-O3", "-std=c++17", "-w"]
    return cmd + inc + defs + [src, "-o", out]


def shown(cmd, srcroot, tools):
    """The command as recorded in the manifest: paths relative to the
    suite's source tree, the helper headers by their names."""
    out = []
    for a in cmd[1:]:
        if a == "-o" or a.endswith(".ptx.tmp"):
            continue
        a = a.replace(os.path.join(os.path.dirname(os.path.dirname(tools["compat_h"])), "shim") + "/", "shim/")
        a = a.replace(tools["compat_h"], "compat.h").replace(tools.get("clang_shim", "\0"), "clang-shim")
        a = a.replace(tools["cuda_root"], "$CUDA")
        out.append(a.replace(srcroot + "/", ""))
    return " ".join(out)


def ptxas_check(tools, path, target, timeout=PTXAS_TIMEOUT):
    """'' or '-c' (relocatable: extern functions to link) when ptxas accepts
    the file; None and the message when it does not."""
    last = ""
    for flags in ([], ["-c"]):
        try:
            p = subprocess.run([tools["ptxas"], "-arch=" + target] + flags + [path, "-o", "/dev/null"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, "ptxas timed out"
        if p.returncode == 0:
            return " ".join(flags), ""
        last = p.stdout.strip()
        if "nresolved extern" not in last and "External" not in last:
            break
    return None, last


def build_one(job):
    """Compiles one (unit, compiler, arch).  Returns (status, record|message)."""
    u, compiler, arch, srcroot, out, tools, retry = job
    key_cmd = command(u, compiler, arch, srcroot, out + ".tmp", tools)
    # a second try with the program's other header folders, for a header
    # the first did not find (the candidates are part of the key)
    alt_cmd = None
    if u.get("more_includes"):
        alt = dict(u, includes=u["includes"] + u["more_includes"])
        alt_cmd = command(alt, compiler, arch, srcroot, out + ".tmp", tools)
    # the key: the commands, the compiler's version and the helper headers
    key = hashlib.sha1(("\0".join(key_cmd + (alt_cmd or []) +
                                  [tools[compiler + "_ident"], COMPAT_H, CLANG_SHIM_CUDA_H,
                                   json.dumps(u["shims"], sort_keys=True)])).encode()).hexdigest()
    cmdfile, failfile = out + ".cmd", out.replace("/ptx/", "/fail/", 1) + ".log"
    if os.path.exists(out) and os.path.exists(cmdfile) and open(cmdfile).read().split("\n")[0] == key:
        return "cached", json.loads(open(cmdfile).read().split("\n", 1)[1])
    if not retry and os.path.exists(failfile) and open(failfile).read().split("\n")[0] == key:
        return "failed-before", open(failfile).read().split("\n", 2)[1]
    os.makedirs(os.path.dirname(out), exist_ok=True)
    os.makedirs(os.path.dirname(failfile), exist_ok=True)
    msg, used, cmd = "", None, key_cmd
    tried = set()
    while cmd is not None and tuple(cmd) not in tried:
        tried.add(tuple(cmd))
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               errors="replace", timeout=COMPILE_TIMEOUT, cwd=os.path.dirname(os.path.join(srcroot, u["source"])))
            ok, msg = p.returncode == 0, p.stdout
        except subprocess.TimeoutExpired:
            ok, msg = False, "compiler timed out"
        if ok:
            used = cmd
            break
        if ("xternal calls are not supported" in msg or "nresolved extern" in msg) and compiler == "nvcc" \
                and "-rdc=true" not in cmd:
            cmd = cmd[:2] + ["-rdc=true"] + cmd[2:]       # relocatable device code
        elif ("No such file" in msg or "file not found" in msg) and alt_cmd and cmd[:len(key_cmd)] == key_cmd:
            cmd = alt_cmd
        else:
            cmd = None
    tmp = out + ".tmp"
    why = None
    if used is None:
        why = "compile: " + first_error(msg)
    else:
        info = ptxinfo.scan(open(tmp, encoding="utf-8", errors="replace").read())
        if info["functions"] == 0:
            why = "no device code"
        else:
            pflags, err = ptxas_check(tools, tmp, arch)
            if pflags is None:
                why = "ptxas rejects the compiler's output: " + first_error(err)
    if why:
        if os.path.exists(tmp):
            os.unlink(tmp)
        with open(failfile, "w") as f:
            f.write(key + "\n" + why.replace("\n", " ") + "\n" + msg)
        return "failed", why
    rec = {"suite": None, "program": u["program"], "source": u["source"], "target": arch,
           "compiler": compiler, "flags": shown(used, srcroot, tools), "bytes": os.path.getsize(tmp),
           "kernels": info["kernels"], "functions": info["functions"], "ptxas_flags": pflags}
    os.replace(tmp, out)
    with open(cmdfile, "w") as f:
        f.write(key + "\n" + json.dumps(rec) + "\n")
    return "built", rec


def first_error(msg):
    for line in msg.splitlines():
        if "error" in line.lower() or "fatal" in line.lower():
            return line.strip()[:200]
    return (msg.strip().splitlines() or ["(no message)"])[0][:200]


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", default=os.environ.get("PTXOPT_SWEEP_CACHE") or
                    os.path.join(os.path.expanduser("~"), ".cache", "ptxopt-sweep"))
    ap.add_argument("--snapshots", default=os.environ.get("PTXOPT_SWEEP_SNAPSHOTS", "/work/.mirror"),
                    help="folder of OWNER+NAME snapshots (default $PTXOPT_SWEEP_SNAPSHOTS or /work/.mirror)")
    ap.add_argument("--snapshot", action="append", default=[], metavar="SUITE=PATH",
                    help="where one suite's snapshot is (bare git dir or source tree)")
    ap.add_argument("--suites", help="comma-separated subset (default: all)")
    ap.add_argument("--compilers", default="nvcc,clang")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--limit", type=int, help="at most N units per suite (for a quick try)")
    ap.add_argument("--match", help="only units whose source path matches this regular expression")
    ap.add_argument("--targets", help="comma-separated subset of the targets (sm_75,sm_80,sm_90)")
    ap.add_argument("--no-merged", action="store_true")
    ap.add_argument("--retry-failed", action="store_true")
    ap.add_argument("--list", action="store_true", help="list the suites and where their snapshots are")
    args = ap.parse_args()
    args.snapshot = dict(s.split("=", 1) for s in args.snapshot)
    cache = os.path.abspath(args.cache)

    cuda_bin = os.environ.get("CUDA_BIN", "/usr/local/cuda/bin")
    tools = {"nvcc": os.environ.get("NVCC") or shutil.which("nvcc") or os.path.join(cuda_bin, "nvcc"),
             "ptxas": os.environ.get("PTXAS") or shutil.which("ptxas") or os.path.join(cuda_bin, "ptxas"),
             "clang": os.environ.get("CLANG") or shutil.which("clang-14") or shutil.which("clang") or "clang"}
    tools["cuda_root"] = os.path.dirname(os.path.dirname(os.path.realpath(tools["nvcc"])))
    compilers = [c for c in args.compilers.split(",") if c]
    for c in compilers:
        tools[c + "_ident"] = tool_ident([tools[c]])
    missing_tools = [c for c in compilers + ["ptxas"] if not (tools.get(c + "_ident") if c != "ptxas" else os.access(tools["ptxas"], os.X_OK))]
    if "nvcc" in missing_tools or "ptxas" in missing_tools:
        sys.exit("build_corpus.py: nvcc/ptxas not found (set NVCC, PTXAS or CUDA_BIN)")
    if "clang" in missing_tools:
        print("build_corpus.py: clang not found: the clang files are skipped", file=sys.stderr)
        compilers.remove("clang")
    if "clang" in compilers:
        tools["clang_shim"] = write_clang_shim(cache)
    tools["compat_h"] = write_compat(cache)

    wanted = set(args.suites.split(",")) if args.suites else None
    suites = [s for s in SUITES if wanted is None or s.name in wanted]
    if args.list:
        for s in suites:
            kind, path = find_snapshot(s, args)
            print("%-14s github:%-32s %-8s %s  [%s]" % (s.name, s.repo, kind or "MISSING", path, s.licence))
        return 0

    os.makedirs(cache, exist_ok=True)
    summary, jobs, missing = [], [], []
    t0 = time.time()
    for s in suites:
        kind, path = find_snapshot(s, args)
        if kind is None:
            missing.append(s)
            print("build_corpus.py: MISSING snapshot of %s (github:%s): looked for %s; "
                  "fetch the repository there (git clone --bare https://github.com/%s %s) "
                  "or pass --snapshot %s=PATH" % (s.name, s.repo, path, s.repo, path, s.name), file=sys.stderr)
            continue
        srcroot = os.path.join(cache, "src", s.name)
        desc = extract(s, kind, path, srcroot)
        units = s.units(srcroot)
        if s.shims:
            shimdir = os.path.join(cache, "shim", s.name)
            for n, text in s.shims.items():
                p = os.path.join(shimdir, n)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                if not os.path.exists(p) or open(p).read() != text:
                    open(p, "w").write(text)
            for u in units:
                u["includes"].append(shimdir)
        for u in units:
            u["shims"] = s.shims
        if args.match:
            units = [u for u in units if re.search(args.match, u["source"])]
        if args.limit:
            units = units[:args.limit]
        summary.append("%s: %s: %d units" % (s.name, desc, len(units)))
        print("build_corpus.py: " + summary[-1], file=sys.stderr)
        for u in units:
            stem = os.path.splitext(os.path.basename(u["source"]))[0] + ("." + u["variant"] if u["variant"] else "")
            for c in compilers:
                for a in (NVCC_ARCHS if c == "nvcc" else CLANG_ARCHS):
                    if args.targets and a not in args.targets.split(","):
                        continue
                    out = os.path.join(cache, "ptx", s.name, u["program"].replace("/", "_"),
                                       "%s.%s.%s.ptx" % (stem, c, a))
                    jobs.append((s, (u, c, a, srcroot, out, tools, args.retry_failed)))
    if not jobs:
        if os.path.exists(os.path.join(cache, "manifest.tsv")):
            print("build_corpus.py: no snapshot found: the corpus cached in %s stays as it is" % cache,
                  file=sys.stderr)
            return 0
        print("build_corpus.py: nothing to build (no snapshot found) and no corpus in %s" % cache,
              file=sys.stderr)
        return 1

    counts, records, failures = {}, [], []
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = {ex.submit(build_one, j): (s, j) for s, j in jobs}
        for fut in concurrent.futures.as_completed(futs):
            s, j = futs[fut]
            status, val = fut.result()
            done += 1
            counts[(s.name, j[1], status)] = counts.get((s.name, j[1], status), 0) + 1
            if status in ("built", "cached"):
                val["suite"] = s.name
                val["path"] = os.path.relpath(j[4], cache)
                records.append(val)
            else:
                failures.append("%s %s %s %s: %s" % (s.name, j[0]["source"], j[1], j[2], val))
            if status != "cached" and (done % 25 == 0 or status == "built"):
                print("build_corpus.py: [%d/%d] %s %s %s %s" % (done, len(jobs), status, s.name,
                                                                  os.path.basename(j[4]), "" if status == "built" else val[:100]),
                      file=sys.stderr)

    # identical files (a unit compiled twice, forks of one program): keep one
    records.sort(key=lambda r: r["path"])
    seen, unique, dups = {}, [], 0
    for r in records:
        h = hashlib.sha1(open(os.path.join(cache, r["path"]), "rb").read()).hexdigest()
        if h in seen:
            dups += 1
            continue
        seen[h] = r["path"]
        unique.append(r)

    # suites not built this time (not selected, snapshot missing) keep the
    # lines of the previous manifest whose files are still there
    built = {sn for (sn, _, _) in counts}
    old_manifest = os.path.join(cache, "manifest.tsv")
    if os.path.exists(old_manifest):
        with open(old_manifest, encoding="utf-8") as f:
            head = f.readline().rstrip("\n").split("\t")
            for line in f:
                r = dict(zip(head, line.rstrip("\n").split("\t")))
                if r.get("suite") not in built and r.get("suite") != "merged" \
                        and os.path.exists(os.path.join(cache, r["path"])):
                    unique.append(r)
    unique.sort(key=lambda r: r["path"])

    if not args.no_merged:
        for name, mib in MERGED:
            rec = build_merged(cache, unique, name, mib, tools)
            if rec:
                unique.append(rec)

    with open(os.path.join(cache, "manifest.tsv.tmp"), "w") as f:
        f.write("\t".join(MANIFEST_FIELDS) + "\n")
        for r in unique:
            f.write("\t".join(str(r[k]) for k in MANIFEST_FIELDS) + "\n")
    os.replace(os.path.join(cache, "manifest.tsv.tmp"), os.path.join(cache, "manifest.tsv"))

    lines = ["corpus: %s" % cache, "built in %.0f s" % (time.time() - t0)] + summary
    lines.append("missing snapshots: %s" % (", ".join("%s (github:%s)" % (s.name, s.repo) for s in missing) or "none"))
    tab = {}
    for (sn, c, st), n in counts.items():
        tab.setdefault((sn, c), {}).setdefault(st, 0)
        tab[(sn, c)][st] += n
    lines.append("%-14s %-6s %8s %8s %8s" % ("suite", "comp", "ok", "failed", "(cached)"))
    for (sn, c), d in sorted(tab.items()):
        ok = d.get("built", 0) + d.get("cached", 0)
        bad = d.get("failed", 0) + d.get("failed-before", 0)
        lines.append("%-14s %-6s %8d %8d %8d" % (sn, c, ok, bad, d.get("cached", 0)))
    lines.append("identical files dropped: %d" % dups)
    by = {}
    for r in unique:
        k = (r["suite"], r["compiler"], r["target"])
        a = by.setdefault(k, [0, 0, 0])
        a[0] += 1
        a[1] += int(r["bytes"])
        a[2] += int(r["kernels"])
    lines.append("%-14s %-6s %-6s %6s %9s %8s" % ("suite", "comp", "target", "files", "MB", "kernels"))
    for k, (n, b, kk) in sorted(by.items()):
        lines.append("%-14s %-6s %-6s %6d %9.2f %8d" % (k + (n, b / 1e6, kk)))
    lines.append("total: %d files, %.1f MB, %d kernels" % (
        len(unique), sum(int(r["bytes"]) for r in unique) / 1e6, sum(int(r["kernels"]) for r in unique)))
    text = "\n".join(lines) + "\n"
    open(os.path.join(cache, "build-summary.txt"), "w").write(text)
    with open(os.path.join(cache, "build-failures.txt"), "w") as f:
        f.write("\n".join(sorted(failures)) + "\n")
    print(text, end="")
    print("(failed compilations: %s)" % os.path.join(cache, "build-failures.txt"))
    return 0


CONST_DECL = re.compile(r"^\s*\.const\s+(?:\.align\s+\d+\s+)?\.([busf])(\d+)\s+[^\s\[;=]+((?:\[\d*\])*)", re.M)
MERGE_MAX_CONST = 60 << 10


def const_bytes(text):
    """Bytes of module-scope .const data a PTX text declares, or None when
    a size is not written out (an array of unstated length)."""
    n = 0
    for m in CONST_DECL.finditer(text):
        size = int(m.group(2)) // 8
        for dim in re.findall(r"\[(\d*)\]", m.group(3)):
            if not dim:
                return None
            size *= int(dim)
        n += size
    return n


def build_merged(cache, records, name, mib, tools):
    """One module of about MIB MiB: whole nvcc modules (sm_75/sm_80, no
    relocatable linking) concatenated in manifest order, each one's
    module-scope names suffixed so that nothing clashes, the shared extern
    declarations (vprintf, malloc, ...) kept once.  Rebuilt only when its
    inputs change; ptxas must accept it."""
    os.makedirs(os.path.join(cache, "merged"), exist_ok=True)
    out = os.path.join(cache, "merged", "%s.%s.ptx" % (name, MERGED_TARGET))
    parts, total = [], 0
    pool = [r for r in records if r["compiler"] == "nvcc" and r["target"] in ("sm_75", "sm_80")
            and not r["ptxas_flags"] and int(r["bytes"]) <= MERGE_MAX_PART]
    # round-robin over suites so that every suite contributes
    by_suite = {}
    for r in pool:
        by_suite.setdefault(r["suite"], []).append(r)
    order, i = [], 0
    while any(by_suite.values()):
        for sn in sorted(by_suite):
            if by_suite[sn]:
                order.append(by_suite[sn].pop(0))
        i += 1
    const_total = 0
    for r in order:
        if total >= mib << 20:
            break
        # one constant bank for the whole module: ptxas refuses more than
        # 64 KiB of .const data ("too much global constant data")
        c = const_bytes(open(os.path.join(cache, r["path"]), encoding="utf-8", errors="replace").read())
        if c is None or const_total + c > MERGE_MAX_CONST:
            continue
        const_total += c
        parts.append(r)
        total += int(r["bytes"])
    if total < mib << 20:
        print("build_corpus.py: %s: only %.1f MB of input, made smaller" % (name, total / 1e6), file=sys.stderr)
    key = hashlib.sha1("\n".join(r["path"] + ":" + str(os.path.getmtime(os.path.join(cache, r["path"])))
                                 for r in parts).encode()).hexdigest()
    cmdfile = out + ".cmd"
    if os.path.exists(out) and os.path.exists(cmdfile) and open(cmdfile).read().split("\n")[0] == key:
        return json.loads(open(cmdfile).read().split("\n", 1)[1])
    print("build_corpus.py: merging %d modules into %s" % (len(parts), out), file=sys.stderr)
    text = ptxinfo.merge([open(os.path.join(cache, r["path"]), encoding="utf-8").read() for r in parts],
                         MERGED_TARGET)
    tmp = out + ".tmp"
    open(tmp, "w", encoding="utf-8").write(text)
    pflags, err = ptxas_check(tools, tmp, MERGED_TARGET, timeout=4 * PTXAS_TIMEOUT)
    if pflags is None:
        print("build_corpus.py: %s: ptxas rejects the merged module, left out: %s" % (name, first_error(err)),
              file=sys.stderr)
        return None
    info = ptxinfo.scan(text)
    rec = {"suite": "merged", "program": name, "source": "%d modules" % len(parts), "target": MERGED_TARGET,
           "compiler": "nvcc", "flags": "merged", "bytes": os.path.getsize(tmp), "kernels": info["kernels"],
           "functions": info["functions"], "ptxas_flags": pflags, "path": os.path.relpath(out, cache)}
    os.replace(tmp, out)
    open(cmdfile, "w").write(key + "\n" + json.dumps(rec) + "\n")
    return rec


if __name__ == "__main__":
    sys.exit(main())
