#!/usr/bin/env python3
"""fuzz_wrapper.py - the ptxas wrapper's promise, on random command lines
and environments (issue 26): whatever the arguments, the files and the
settings, ptxopt-ptxas gives the same result as plain ptxas (status,
output files, standard output; standard error but for the wrapper's own
"ptxopt..." lines), or plain ptxas's own error, and never hangs where
plain ptxas does not.

  fuzz_wrapper.py --wrapper=PTXOPT-PTXAS --ptxas=PTXAS --ptx=FILE...
                  [--cases=N] [--seed=S] [--workdir=DIR] [--keep]

Each case draws:
  * inputs: the PTX under names with spaces, quotes, a newline, a leading
    dash or non-ASCII letters; a missing file; /dev/null; a directory;
    garbage; standard input ("-"); a pipe as /dev/fd/3; sometimes two;
  * the output: -o under such names, /dev/null, /dev/stdout, an existing
    directory, a file in a missing directory, or none (ptxas's elf.o);
  * ptxas options: from the wrapper's own table (--ptxopt-list-options),
    with values drawn for each kind, spelled in each form ptxas accepts, an
    unknown option now and then, sometimes in an options file, sometimes
    an options file that is /dev/null, a directory or missing;
  * the wrapper's settings: PTXOPT_PASSES (real pipelines, typos, a
    newline), PTXOPT_FLAGS, --ptxopt-* options (a passes file that is a
    FIFO, /dev/zero, a directory), PTXOPT_FAULT, a tiny time or memory
    limit, TMPDIR with a space, '"', ',', missing or a file.
Plain ptxas runs in one copy of the case's directory, the wrapper in
another, each with a time limit.  The wrapper's --ptxopt-report line says
whether it ran ptxas on the original command ("original": everything must
then be byte-identical) or on optimized copies (the same status and the
same files; their bytes may differ).  A failing case is printed with what
reproduces it (--seed and the case number: --cases=K+1 --first=K).
Status 0 when every case keeps the promise, 1 otherwise."""
import argparse
import json
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time

NAMES = ["k.ptx", "with space.ptx", "quote'd.ptx", 'dq"uote.ptx', "new\nline.ptx", "-dash.ptx",
         "ünï.ptx", "semi;colon.ptx", "back\\slash.ptx", "comma,name.ptx", "star*.ptx", "$(echo x).ptx"]
OUTS = ["k.cubin", "out put.cubin", "o'ut.cubin", "new\nline.cubin", "sub/dir/k.cubin"]
ARCHS = ["sm_80", "sm_86", "sm_90", "sm_75", "sm_999", "compute_80"]
PIPELINES = [None, "", "shuffle", "regtune", "regtune<level=2>", "bypass", "shufle", "regtune<level=9>",
             "shuffle,regtune", "sfu", "tinylock", "shuffle\nregtune", "<>", "regtune<maxnreg=32>"]
FAULTS = [None] * 8 + ["parse", "pass", "crash", "timeout", "ptxas-reject", "nonsense"]
VALUES = {"--gpu-name": ARCHS, "--opt-level": ["0", "1", "2", "3", "9"], "--maxrregcount": ["32", "255", "0", "x"],
          "--def-load-cache": ["ca", "cg", "cv", "bogus"], "--fmad": ["true", "false"], "--machine": ["64", "32"],
          "--entry": ["vote_kernel", "nosuch"], "--register-usage-level": ["0", "5", "10"]}
SAFE_FLAGS = ["--verbose", "--generate-line-info", "--warn-on-spills", "--disable-warnings", "--compile-only",
              "--return-at-end", "--suppress-stack-size-warning", "--warning-as-error", "--preserve-relocs",
              "--device-debug", "--dont-merge-basicblocks"]
# options that would make a case non-deterministic or long to compare
SKIP = {"--help", "--version", "--list-version", "--options-file", "--output-file", "--input-as-string",
        "--split-compile", "--sanitize", "--compile-as-tools-patch", "--device-stack-protector"}


def load_table(wrapper):
    out = subprocess.run([wrapper, "--ptxopt-list-options"], capture_output=True, text=True, timeout=60).stdout
    table = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0].startswith("--"):
            table.append((parts[0], parts[1].strip("()").lstrip("-"), parts[2]))
    return table


def draw_option(rnd, table):
    """One ptxas option as one or two words, in a random spelling."""
    if rnd.random() < 0.05:
        return [rnd.choice(["--bogus-option", "-Xnonsense", "--gpu-name"])]
    if rnd.random() < 0.5:
        name = rnd.choice(SAFE_FLAGS)
        entry = next((t for t in table if t[0] == name), None)
    else:
        entry = rnd.choice([t for t in table if t[0] not in SKIP])
        name = entry[0]
    if entry is None:
        return [name]
    long_name, short, kind = entry
    spelled = rnd.choice(["--" + long_name[2:], "-" + short])
    if kind == "none":
        return [spelled]
    value = rnd.choice(VALUES.get(long_name, ["1", "2", "true"]))
    if kind == "attached" or (kind == "optional" and rnd.random() < 0.5):
        return [spelled + value] if spelled.startswith("-") and not spelled.startswith("--") else [spelled + "=" + value]
    return rnd.choice([[spelled, value], [spelled + "=" + value]])


class Case:
    def __init__(self, rnd, table, ptx_texts):
        self.ptx = rnd.choice(ptx_texts)
        self.files = {}         # relative path -> bytes (made in each run directory)
        self.dirs = ["adir"]
        self.argv = []          # ptxas arguments (both runs)
        self.wopts = []         # wrapper-only arguments
        self.env = {}           # wrapper-only environment
        self.stdin = b""
        self.fd3 = None         # bytes given through a pipe on descriptor 3
        self.fifo_passes = False
        n_inputs = rnd.choice([1, 1, 1, 1, 2])
        for _ in range(n_inputs):
            kind = rnd.choice(["file"] * 6 + ["missing", "devnull", "dir", "garbage", "stdin", "fd3"])
            if kind == "file":
                name = rnd.choice(NAMES)
                self.files[name] = self.ptx
                self.argv.append(name if not name.startswith("-") else "./" + name)
            elif kind == "missing":
                self.argv.append("no such.ptx")
            elif kind == "devnull":
                self.argv.append("/dev/null")
            elif kind == "dir":
                self.argv.append("adir")
            elif kind == "garbage":
                self.files["garbage.ptx"] = bytes(rnd.randrange(256) for _ in range(rnd.randrange(64)))
                self.argv.append("garbage.ptx")
            elif kind == "stdin" and "-" not in self.argv:
                self.stdin = self.ptx
                self.argv.append("-")
            elif kind == "fd3" and self.fd3 is None:
                self.fd3 = self.ptx
                self.argv.append("/dev/fd/3")
        if rnd.random() < 0.85:
            self.argv += [rnd.choice(["-arch", "--gpu-name", "-arch="]), rnd.choice(ARCHS[:4] if rnd.random() < 0.9 else ARCHS)]
            if self.argv[-2].endswith("="):
                self.argv[-2:] = [self.argv[-2] + self.argv[-1]]
        for _ in range(rnd.randrange(4)):
            self.argv[rnd.randrange(len(self.argv) + 1):0] = draw_option(rnd, table)
        out = rnd.choice(OUTS + ["/dev/null", "/dev/stdout", "adir", "missing/dir/k.cubin", None])
        if out and out.startswith("sub/"):
            self.dirs.append("sub/dir")
        if out:
            self.argv += [rnd.choice(["-o", "--output-file"]), out]
        if rnd.random() < 0.15:
            # everything in an options file, which ptxas reads as it splits words
            self.files["args.txt"] = " ".join('"' + a.replace("\\", "\\\\") + '"' for a in self.argv
                                              if '"' not in a and "\n" not in a).encode()
            keep = [a for a in self.argv if '"' in a or "\n" in a]
            self.argv = ["-optf", "args.txt"] + keep
        elif rnd.random() < 0.05:
            # an options file that is not one (ptxas hangs on a FIFO or /dev/zero: not those)
            self.argv[rnd.randrange(len(self.argv) + 1):0] = ["-optf", rnd.choice(["/dev/null", "adir", "no such.txt"])]
        # the wrapper's settings
        p = rnd.choice(PIPELINES)
        if p is not None:
            self.env["PTXOPT_PASSES"] = p
        if rnd.random() < 0.2:
            self.env["PTXOPT_FLAGS"] = rnd.choice(["--canonical", "--verbose", "--bogus", "--timeout=x",
                                                   '"--passes=shuffle"', "--passes-file=/dev/zero", "canonical"])
        f = rnd.choice(FAULTS)
        if f:
            self.env["PTXOPT_FAULT"] = f
        for _ in range(rnd.randrange(3)):
            o = rnd.choice(["--ptxopt-canonical", "--ptxopt-canonical", "--ptxopt-timeout=0.001", "--ptxopt-memory-limit=16",
                            "--ptxopt-passes-file=FIFO", "--ptxopt-passes-file=/dev/zero", "--ptxopt-passes-file=adir",
                            "--ptxopt-passes-file=good.pipeline", "--ptxopt-disable", "--ptxopt-bogus",
                            "--ptxopt-passes=regtune<level=2>", "--ptxopt-verbose"])
            if o.endswith("=FIFO"):
                self.fifo_passes = True
            if o.endswith("good.pipeline"):
                self.files["good.pipeline"] = b"# pipeline\nregtune<level=2>\n"
            self.wopts.append(o)
        t = rnd.choice([None] * 6 + ["with space", 'q"uote', "c,omma", "missing", "afile"])
        if t:
            self.env["TMPDIR"] = t

    def describe(self):
        return "argv=%r wrapper-options=%r env=%r stdin=%d bytes fd3=%s" % (
            self.argv, self.wopts, self.env, len(self.stdin), "pipe" if self.fd3 is not None else "-")


def prepare(case, d, work):
    os.makedirs(d)
    for sub in case.dirs:
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    for name, data in case.files.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    for name in ("with space", 'q"uote', "c,omma"):
        os.makedirs(os.path.join(work, "tmp", name), exist_ok=True)
    with open(os.path.join(work, "tmp", "afile"), "w") as f:
        f.write("not a directory\n")


def run(argv, cwd, env, stdin, fd3, timeout):
    """(status or "timeout", stdout, stderr, seconds).  fd3: bytes the
    program finds in a pipe on its descriptor 3 (as <(...) gives)."""
    saved, pass_fds = None, ()
    if fd3 is not None:
        try:
            os.fstat(3)
            saved = os.dup(3)       # ours: put back afterwards
        except OSError:
            pass
        r3, w3 = os.pipe()
        os.write(w3, fd3)           # the PTX fits in a pipe's buffer
        os.close(w3)
        if r3 != 3:
            os.dup2(r3, 3)
            os.close(r3)
        pass_fds = (3,)
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, cwd=cwd, env=env, input=stdin, capture_output=True, timeout=timeout,
                           pass_fds=pass_fds)
        res = (p.returncode, p.stdout, p.stderr)
    except subprocess.TimeoutExpired as e:
        res = ("timeout", e.stdout or b"", e.stderr or b"")
    finally:
        if fd3 is not None:
            if saved is not None:
                os.dup2(saved, 3)
                os.close(saved)
            else:
                os.close(3)
    return res + (time.monotonic() - t0,)


def tree(d):
    """relative path -> bytes of every file below d (and the FIFO's name)."""
    out = {}
    for root, dirs, files in os.walk(d):
        for n in files:
            p = os.path.join(root, n)
            rel = os.path.relpath(p, d)
            if stat.S_ISFIFO(os.lstat(p).st_mode):
                out[rel] = b"<fifo>"
                continue
            with open(p, "rb") as f:
                out[rel] = f.read()
    return out


def alike(data):
    """What differs between two runs of plain ptxas made alike: its
    temporary names (tmpxft_PID_N, for standard input; in messages, and in
    a -g cubin) and its compile times (-v)."""
    data = re.sub(rb"tmpxft_[0-9a-f]{8}_[0-9a-f]{8}", b"tmpxft_", data)
    return re.sub(rb"Compile time = [0-9.]+ ms", b"Compile time = ms", data)


def own_lines(err):
    """stderr without the wrapper's own lines (warnings, --ptxopt-verbose)."""
    return alike(b"\n".join(l for l in err.split(b"\n") if not l.startswith(b"ptxopt")))


def check(case, k, args, work, base_env):
    d = os.path.join(work, "case%d" % k)
    plain_dir, wrap_dir = os.path.join(d, "plain"), os.path.join(d, "wrapped")
    prepare(case, plain_dir, work)
    prepare(case, wrap_dir, work)
    report = os.path.join(d, "report.jsonl")
    fifo = os.path.join(d, "passes.fifo")
    os.mkfifo(fifo)
    wopts = [o.replace("=FIFO", "=" + fifo) for o in case.wopts]
    env = dict(base_env)
    for key, v in case.env.items():
        env[key] = os.path.join(work, "tmp", v) if key == "TMPDIR" else v
    # plain ptxas gets the same environment (it uses TMPDIR too), less the wrapper's settings
    penv = {key: v for key, v in env.items() if not key.startswith("PTXOPT_") or key == "PTXOPT_PTXAS"}
    pst, pout, perr, psec = run([args.ptxas] + case.argv, plain_dir, penv, case.stdin, case.fd3, args.timeout)
    # the wrapper's options go first and last, where they cannot be an option's value
    # (a 5 s limit: a hanging optimizer costs 5 s, not 60)
    wargv = [args.wrapper, "--ptxopt-timeout=5"] + wopts[:1] + case.argv + wopts[1:] + ["--ptxopt-report=" + report]
    wst, wout, werr, wsec = run(wargv, wrap_dir, env, case.stdin, case.fd3, args.timeout + 30)
    problems = []
    if pst == "timeout":
        return []   # plain ptxas hangs too: nothing to compare
    if wst == "timeout":
        problems.append("the wrapper hung (plain ptxas took %.1f s)" % psec)
        return problems
    used = None
    try:
        with open(report) as f:
            lines = f.read().splitlines()
        if len(lines) != 1:
            problems.append("%d report lines" % len(lines))
        else:
            used = json.loads(lines[0]).get("used")
    except (OSError, ValueError) as e:
        problems.append("no report line (%s)" % e)
    if wst != pst:
        problems.append("status %s, plain ptxas %s" % (wst, pst))
    pt, wt = tree(plain_dir), tree(wrap_dir)
    if sorted(pt) != sorted(wt):
        problems.append("files differ: plain %s, wrapper %s" % (sorted(pt), sorted(wt)))
    if used == "original":
        # ptxas ran on the user's own command line: everything the same
        for name in pt:
            if name in wt and alike(pt[name]) != alike(wt[name]):
                problems.append("%r differs" % name)
        if alike(pout) != alike(wout):
            problems.append("standard output differs (%d and %d bytes)" % (len(pout), len(wout)))
        if own_lines(werr) != own_lines(perr):
            problems.append("standard error differs:\n  plain:   %r\n  wrapper: %r" % (perr[-300:], werr[-300:]))
    elif used == "optimized" and pst != 0:
        problems.append("the wrapper used optimized copies where plain ptxas failed")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wrapper", required=True)
    ap.add_argument("--ptxas", required=True)
    ap.add_argument("--ptx", action="append", required=True)
    ap.add_argument("--cases", type=int, default=60)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--workdir")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    seed = str(random.SystemRandom().randrange(1 << 32)) if args.seed == "random" else args.seed
    work = tempfile.mkdtemp(prefix="fuzz-wrapper.", dir=args.workdir)
    os.makedirs(os.path.join(work, "tmp"))
    texts = []
    for p in args.ptx:
        with open(p, "rb") as f:
            texts.append(f.read())
    table = load_table(args.wrapper)
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("PTXOPT")}
    base_env["PTXOPT_PTXAS"] = args.ptxas
    base_env["TMPDIR"] = os.path.join(work, "tmp")
    failed = 0
    t0 = time.monotonic()
    for k in range(args.first, args.cases):
        rnd = random.Random("%s/%d" % (seed, k))
        case = Case(rnd, table, texts)
        problems = check(case, k, args, work, base_env)
        if problems:
            failed += 1
            print("FAIL: case %d (--seed=%s --first=%d --cases=%d): %s" % (k, seed, k, k + 1, case.describe()))
            for p in problems:
                print("  " + p)
    n = args.cases - args.first
    print("%d of %d cases keep the promise (seed %s, %.1f s)" % (n - failed, n, seed, time.monotonic() - t0))
    leftovers = [e for e in os.listdir(os.path.join(work, "tmp"))
                 if e not in ("with space", 'q"uote', "c,omma", "afile")]
    for sub in ("with space", 'q"uote', "c,omma"):
        leftovers += [os.path.join(sub, e) for e in os.listdir(os.path.join(work, "tmp", sub))]
    if leftovers:
        print("FAIL: left in TMPDIR: %s" % leftovers)
        failed += 1
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
