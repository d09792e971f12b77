#!/usr/bin/env python3
"""check_cmdlines.py WRAPPER DATAFILE WORKDIR — recorded ptxas command lines.

DATAFILE holds blocks of comment lines followed by one ptxas command line
(shell syntax, as nvcc --dryrun, clang -### or an NVHPC driver print it):

  # <where the line comes from>
  # inputs: PATH... | input-as-string N       the PTX inputs in it
  # removed: WORD...                           words the wrapper must drop
  # ptxopt: OPTION...                          wrapper options it must see
  # options-file PATH: WORD...                 an options file to create
  ptxas ARG...

Every "/tmp/" in a block is moved into WORKDIR.  For each line the wrapper
runs with --ptxopt-dry-run and must report exactly the expected inputs and
wrapper options, give the real ptxas the original arguments minus the
removed words, and, for the optimized run, the same arguments with each
input replaced (inside rewritten options files too).  Prints one line per
block and exits 1 if any block fails.
"""
import os
import shlex
import subprocess
import sys


def blocks(path):
    meta, out = [], []
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if line.startswith("#"):
            meta.append(line[1:].strip())
        elif line.strip():
            out.append((meta, line))
            meta = []
    return out


def parse_dry_run(text):
    r = {"inputs": [], "ptxopt": [], "files": {}, "optimized": None, "original": None, "errors": []}
    for line in text.splitlines():
        if line.startswith("input "):
            _, rest = line.split(": ", 1)
            kind, _, name = rest.partition(" ")
            n = line.split(":")[0].split()[1]
            r["inputs"].append(name if kind in ("file", "stdin") else "input-as-string %d" %
                               (sum(1 for x in r["inputs"] if x.startswith("input-as-string")) + 1))
        elif line.startswith("wrapper option: "):
            r["ptxopt"].append(line[len("wrapper option: "):])
        elif line.startswith("optimized: "):
            r["optimized"] = shlex.split(line[len("optimized: "):])
        elif line.startswith("original: "):
            r["original"] = shlex.split(line[len("original: "):])
        elif line.startswith("  options-"):
            name, words = line.strip().split(": ", 1)
            r["files"][name] = shlex.split(words)
        elif line.startswith("pipeline error: "):
            pass  # the recorded lines name placeholder passes (a,b): not an argument error
        elif "error" in line:
            r["errors"].append(line)
    return r


def check(wrapper, meta, line, work):
    fix = lambda s: s.replace("/tmp/", work + "/")
    expect_inputs, removed, ptxopt, files = [], [], [], {}
    for m in meta:
        if m.startswith("inputs:"):
            v = m[len("inputs:"):].strip()
            expect_inputs = [v] if v.startswith("input-as-string") else [fix(x) for x in v.split()]
        elif m.startswith("removed:"):
            removed = m[len("removed:"):].split()
        elif m.startswith("ptxopt:"):
            ptxopt = m[len("ptxopt:"):].split()
        elif m.startswith("options-file "):
            name, words = m[len("options-file "):].split(": ", 1)
            files[fix(name)] = fix(words)
    for name, words in files.items():
        with open(name, "w") as f:
            f.write(words + "\n")
    args = [fix(a) for a in shlex.split(line)[1:]]
    env = dict(os.environ)
    for k in ("PTXOPT_FLAGS", "PTXOPT_PASSES", "PTXOPT_FAULT"):
        env.pop(k, None)
    p = subprocess.run([wrapper, "--ptxopt-dry-run"] + args, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        return "dry run failed (%d): %s" % (p.returncode, p.stderr.strip())
    r = parse_dry_run(p.stdout)
    if r["errors"]:
        return "; ".join(r["errors"])
    if r["inputs"] != expect_inputs:
        return "inputs %s, expected %s" % (r["inputs"], expect_inputs)
    if [x for x in r["ptxopt"] if x != "--ptxopt-dry-run"] != ptxopt:
        return "wrapper options %s, expected %s" % (r["ptxopt"], ptxopt)
    kept = [a for a in args if a not in removed]
    if r["original"] != ["ptxas"] + kept:
        return "original command %s, expected %s" % (r["original"], ["ptxas"] + kept)
    # the optimized command: inputs replaced, in place or inside rewritten options files
    def replaced(words):
        out = []
        for w in words:
            if w in expect_inputs:
                out.append("@OPTIMIZED-%d@" % (expect_inputs.index(w) + 1))
            else:
                out.append(w)
        return out
    want = replaced(["ptxas"] + kept)
    got = list(r["optimized"])
    for i, w in enumerate(got):
        base = os.path.basename(w)
        if base.startswith("options-") and base in r["files"]:
            orig = want[i]
            if orig not in files:
                return "options file %s rewritten, but %s is not one" % (base, orig)
            expect_words = replaced(shlex.split(files[orig]))
            expect_words = [x for x in expect_words if x not in removed]
            if r["files"][base] != expect_words:
                return "rewritten options file %s, expected %s" % (r["files"][base], expect_words)
            got[i] = orig
    if "input-as-string 1" in expect_inputs:
        # the PTX text itself is the value that gets replaced
        k = expect_inputs.index("input-as-string 1")
        want = [("@OPTIMIZED-%d@" % (k + 1)) if j > 0 and want[j - 1] in ("--input-as-string", "-ias") else w
                for j, w in enumerate(want)]
    if got != want:
        return "optimized command %s, expected %s" % (got, want)
    return None


def main():
    wrapper, data, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    failed = 0
    for i, (meta, line) in enumerate(blocks(data)):
        why = check(wrapper, meta, line, work)
        desc = next((m for m in meta if not m.split(":")[0] in ("inputs", "removed", "ptxopt")), "")
        print("%s block %d: %s%s" % ("FAIL" if why else "ok", i + 1, desc, (": " + why) if why else ""))
        failed += why is not None
    print("%d blocks, %d failed" % (len(blocks(data)), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
