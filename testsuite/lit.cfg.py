# lit.cfg.py — ptxopt's test configuration.
#
# Test kinds:
#   *.ptx, *.test  under lit/, unit/, ...   RUN/CHECK lines (FileCheck)
#   corpus/**/*.ptx                          the round-trip ladder (see corpus/lit.local.cfg)
#
# Substitutions: %ptxopt %ptxopt-emu %ptxopt-run %ptxopt-report %ptxopt-model-query %ptxopt-emu-measure
#   %cuda_stub %mock_cuda %FileCheck %ptxas %srcdir %builddir %unit
# Features: 'ptxas' when NVIDIA ptxas is found ($PTXAS, PATH, /usr/local/cuda/bin),
#           'nvcc' likewise; tests that need them say REQUIRES: ptxas and are
#           reported UNSUPPORTED (counted as skipped, never as passed) without.
#           'cuobjdump' (%cuobjdump) likewise; 'cmake' when cmake is on PATH.
#           'nvdisasm' when NVIDIA's nvdisasm is found ($NVDISASM, PATH,
#           /usr/local/cuda/bin, then where configure found it: the pip
#           install of ./bootstrap); SASS tests say REQUIRES: nvdisasm.
#           'z3' when built with Z3 (REQUIRES: z3, or REQUIRES: !z3 for the
#           --without-z3 behaviour).
#           'gnuplot' when gnuplot is found (ptxopt-tune --plot).
import os
import shutil
import lit.formats

config.name = "ptxopt"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ptx", ".test"]
config.excludes = ["kernels", "fuzz", "bad-inputs", "Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.join(config.ptxopt_srcdir, "testsuite")
config.test_exec_root = os.path.join(config.ptxopt_builddir, "testsuite")

def find_tool(env, name):
    p = os.environ.get(env)
    if p and os.access(p, os.X_OK):
        return p
    p = shutil.which(name)
    if p:
        return p
    p = os.path.join("/usr/local/cuda/bin", name)
    return p if os.access(p, os.X_OK) else None

bindir = config.ptxopt_builddir
srcdir = config.ptxopt_srcdir
ptxas = find_tool("PTXAS", "ptxas")
nvcc = find_tool("NVCC", "nvcc")
if ptxas:
    config.available_features.add("ptxas")
else:
    lit_config.warning("ptxas not found: tests that need it are UNSUPPORTED (skipped)")
nvdisasm = find_tool("NVDISASM", "nvdisasm")
if not nvdisasm and getattr(config, "nvdisasm", "") and os.access(config.nvdisasm, os.X_OK):
    nvdisasm = config.nvdisasm
if nvdisasm:
    config.available_features.add("nvdisasm")
    config.environment["NVDISASM"] = nvdisasm
else:
    lit_config.warning("nvdisasm not found: the SASS tests are UNSUPPORTED (skipped); "
                       "./bootstrap installs it (pip: nvidia-cuda-nvdisasm)")
# 'cuobjdump' (%cuobjdump) like nvdisasm, also beside the nvdisasm configure
# found (./bootstrap's pip install has both); 'cmake' when cmake is on PATH
cuobjdump = find_tool("CUOBJDUMP", "cuobjdump")
if not cuobjdump and nvdisasm:
    p = os.path.join(os.path.dirname(nvdisasm), "cuobjdump")
    cuobjdump = p if os.access(p, os.X_OK) else None
if cuobjdump:
    config.available_features.add("cuobjdump")
config.substitutions.append(("%cuobjdump", cuobjdump or "false"))
if shutil.which("cmake"):
    config.available_features.add("cmake")
if getattr(config, "z3_libs", ""):
    config.available_features.add("z3")
# 'gnuplot' when gnuplot is found ($GNUPLOT, PATH): ptxopt-tune --plot draws
# with it (./bootstrap and .ci/run install gnuplot-nox).
gnuplot = os.environ.get("GNUPLOT") or shutil.which("gnuplot")
if gnuplot and os.access(gnuplot, os.X_OK):
    config.available_features.add("gnuplot")
else:
    lit_config.warning("gnuplot not found: the ptxopt-tune --plot tests are UNSUPPORTED (skipped); "
                       "./bootstrap installs it (apt-get install gnuplot-nox)")
# 'root' when the tests run as root (CI does): tests that need a file of
# another user make one with chown; elsewhere they are UNSUPPORTED.
if os.geteuid() == 0:
    config.available_features.add("root")
# 'memory-limit' when the ptxas wrapper can limit its optimizer's memory
# (not in an AddressSanitizer build, whose shadow memory needs terabytes of
# address space)
def wrapper_limits_memory():
    import subprocess
    try:
        out = subprocess.run([os.path.join(config.ptxopt_builddir, "ptxopt-ptxas"), "--ptxopt-dry-run"],
                             capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return any(l.startswith("memory limit: ") and "not applied" not in l for l in out.splitlines())
if wrapper_limits_memory():
    config.available_features.add("memory-limit")
# 'ptxopt-run' when it was built (configure found cuda.h); 'cuda-stub' when
# configure found the toolkit's stub libcuda.so (%cuda_stub).
if os.access(os.path.join(bindir, "ptxopt-run"), os.X_OK):
    config.available_features.add("ptxopt-run")
else:
    lit_config.warning("ptxopt-run not built (no cuda.h): its tests are UNSUPPORTED (skipped)")
cuda_stub = getattr(config, "cuda_stub", "")
if cuda_stub and os.path.exists(cuda_stub):
    config.available_features.add("cuda-stub")
config.substitutions.append(("%cuda_stub", cuda_stub or "/nonexistent/libcuda.so"))
# %mock_cuda: testsuite/run/mock_cuda.c, a stand-in driver for ptxopt-run's tests
config.substitutions.append(("%mock_cuda", os.path.join(bindir, "testsuite", "run", "libcuda-mock.so")))
if nvcc:
    config.available_features.add("nvcc")
else:
    lit_config.warning("nvcc not found: tests that need it are UNSUPPORTED (skipped)")

def toolkit_bin(nvcc):
    """The bin directory nvcc really runs from: nvcc on PATH may be a
    launcher script (e.g. /usr/local/bin/nvcc exec'ing the toolkit's)."""
    import subprocess
    try:
        out = subprocess.run([nvcc, "--dryrun", "-x", "cu", "-E", "/dev/null"],
                             capture_output=True, text=True, timeout=60)
        for line in (out.stdout + out.stderr).splitlines():
            if line.startswith("#$ _HERE_="):
                return line[len("#$ _HERE_="):]
    except (OSError, subprocess.SubprocessError):
        pass
    return os.path.dirname(nvcc)

# %cuda_bin: the toolkit's bin directory (holds the real nvcc, nvcc.profile, ptxas)
config.substitutions.append(("%cuda_bin", toolkit_bin(nvcc) if nvcc else "/nonexistent"))
# (longer names first: a substitution also matches the start of a longer one)
config.substitutions.append(("%ptxopt-report", os.path.join(bindir, "ptxopt-report")))
config.substitutions.append(("%ptxopt-model-query", os.path.join(bindir, "ptxopt-model-query")))
config.substitutions.append(("%ptxopt-emu-measure", os.path.join(srcdir, "tools", "ptxopt-emu", "ptxopt-emu-measure")))
config.substitutions.append(("%ptxopt-emu", os.path.join(bindir, "ptxopt-emu")))
config.substitutions.append(("%ptxopt-tune", os.path.join(bindir, "ptxopt-tune")))
config.substitutions.append(("%ptxopt-run", os.path.join(bindir, "ptxopt-run")))
config.substitutions.append(("%ptxopt-ptxas", os.path.join(bindir, "ptxopt-ptxas")))
config.substitutions.append(("%ptxopt-nvcc", os.path.join(bindir, "ptxopt-nvcc")))
config.substitutions.append(("%ptxopt", os.path.join(bindir, "ptxopt")))
config.substitutions.append(("%FileCheck", config.filecheck + " --dump-input=fail"))
config.substitutions.append(("%ptxas", ptxas or "false"))
config.substitutions.append(("%nvcc", nvcc or "false"))
config.substitutions.append(("%srcdir", srcdir))
config.substitutions.append(("%builddir", bindir))
config.substitutions.append(("%unit", os.path.join(bindir, "testsuite", "unit")))
config.substitutions.append(("%python", shutil.which("python3") or "python3"))

# Sanitizer runs (CI) must not be slowed by leak checks of short-lived tools.
for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "PTXAS", "NVCC", "TMPDIR", "HOME", "GNUPLOT", "CUOBJDUMP"):
    if k in os.environ:
        config.environment[k] = os.environ[k]
# LLVM's test tools (FileCheck, not, count) come from llvm-14-tools.
path = os.environ.get("PATH", "")
llvm_tools = os.path.dirname(config.filecheck) if config.filecheck else "/usr/lib/llvm-14/bin"
config.environment["PATH"] = os.pathsep.join([bindir, path, llvm_tools])
