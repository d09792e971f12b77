#!/usr/bin/env python3
"""sweep.py -- the real-code sweep (issue 21): every pass, at its defaults
and at its widest or forced setting, over the corpus that build_corpus.py
cached, in ptxopt's batch mode.

For each setting (a pipeline):
  1. ptxopt --passes=P --timeout=T -j JOBS --output-dir --report over the
     corpus (files above --big-mb run one batch each, so that their peak
     RSS is their own);
  2. ptxas -arch=TARGET (with -c where the file needs relocatable linking,
     as the manifest records) on every changed file;
  3. ptxopt --verify-ir on every changed file (LLVM's verifier on the CFG and
     SSA overlay of what the pass emitted; batch mode does not take
     --verify-ir).  The baseline setting "none" (no passes) verifies every
     input.
It prints, per setting: files, kernels seen, kernels and sites changed (the
batch report's per-pass totals), files changed, crashes (signals),
timeouts, other optimizer failures, ptxas rejections, verifier errors, the
batch's seconds and MB/s, the peak RSS of any one process, and for the big
files the worst peak RSS as a multiple of the input size.  Then every
failing file with its reason; with --backtraces, gdb's backtrace of one
crash per distinct crash site.  Exit status 0 when nothing failed, 1 when
something did, 2 for a usage error or a missing corpus.
"""
import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

# (pass, pipeline): each pass at its defaults and at its widest/forced
# settings (ptxopt-passes(7)).  regtune has no default: a common cap and an
# occupancy level.
SETTINGS = [
    ("none", ""),
    ("regtune", "regtune<maxnreg=32>"),
    ("regtune", "regtune<level=2;block=256>"),
    ("shuffle", "shuffle"),
    ("shuffle", "shuffle<profit=off>"),
    ("shuffle", "shuffle<max-delta=31;max-shuffles=1024;loops=1;clamp=1;unsigned=1;profit=off>"),
    ("bypass", "bypass<threshold=2>"),
    ("bypass", "bypass<threshold=2;form=versioning>"),
    ("bypass", "bypass<threshold=2;form=l2policy>"),
    ("bypass", "bypass<threshold=0;form=auto;delivery=global>"),
    ("sfu", "sfu"),
    ("sfu", "sfu<lambda=1>"),
    ("sfu", "sfu<lambda=1;f64=1>"),
    ("tinylock", "tinylock"),
    ("tinylock", "tinylock<profit=off>"),
]

FRAME_RE = re.compile(r"^#(\d+)\s+(?:0x[0-9a-f]+ in )?(\S+) \(.*?\)(?: at (\S+:\d+))?", re.M)


def default_cache():
    return os.environ.get("PTXOPT_SWEEP_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "ptxopt-sweep")


def sample(files, n, big_limit):
    """n of the (output, record) pairs, spread evenly in path order; files
    above big_limit are left out."""
    files = sorted((x for x in files if x[1] and x[1]["bytes"] <= big_limit), key=lambda x: x[1]["path"])
    if len(files) <= n:
        return files
    return [files[i * len(files) // n] for i in range(n)]


def read_manifest(cache):
    path = os.path.join(cache, "manifest.tsv")
    if not os.path.exists(path):
        return None
    rows = []
    with open(path, encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(head, line.rstrip("\n").split("\t")))
            r["bytes"], r["kernels"], r["functions"] = int(r["bytes"]), int(r["kernels"]), int(r["functions"])
            if os.path.exists(os.path.join(cache, r["path"])):
                rows.append(r)
    return rows


def pick(rows, args):
    if args.suites:
        want = set(args.suites.split(","))
        rows = [r for r in rows if r["suite"] in want]
    if args.match:
        rx = re.compile(args.match)
        rows = [r for r in rows if rx.search(r["path"])]
    if args.limit is not None and len(rows) > args.limit:
        # round-robin over suites, so that a small subset still covers them
        by = collections.OrderedDict()
        for r in rows:
            by.setdefault(r["suite"], []).append(r)
        out = []
        while len(out) < args.limit:
            for rs in by.values():
                if rs and len(out) < args.limit:
                    out.append(rs.pop(0))
        rows = out
    return rows


def run_measured(argv, log, timeout=None):
    """Runs argv with stdout+stderr to log; returns (status, seconds, peak
    RSS in bytes of the largest process of its tree).  The RSS comes from
    /usr/bin/time where there is one: wait4's ru_maxrss of a child forked
    from this Python process starts at this process's own RSS (Linux keeps
    the high-water mark of the image a child replaces at exec), so it
    would grow with the sweep's own memory; time(1) is small."""
    t0 = time.time()
    rss_file = None
    if os.access("/usr/bin/time", os.X_OK):
        rss_file = log + ".rss"
        argv = ["/usr/bin/time", "-f", "%M", "-o", rss_file] + list(argv)
    with open(log, "wb") as f:
        p = subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT)
        deadline = None if timeout is None else t0 + timeout
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if deadline and time.time() > deadline:
                p.kill()
            time.sleep(0.05)
        p.returncode = os.waitstatus_to_exitcode(status)
    rss = ru.ru_maxrss * 1024
    if rss_file:
        try:
            rss = int(open(rss_file).read().split()[-1]) * 1024
        except (OSError, ValueError, IndexError):
            pass
    return p.returncode, time.time() - t0, rss


def classify(f):
    """The kind of a failed batch entry."""
    e = f.get("error") or ""
    if "killed by signal" in e or "died" in e:
        return "crash"
    if "took longer" in e or "timed out" in e:
        return "timeout"
    if f.get("exit_status") == 1:
        return "bad-input"
    return "pass-error"


class PtxasCache:
    """ptxas verdicts by content, so that identical outputs (two settings
    that emit the same text, a rerun) are assembled once."""
    def __init__(self, path):
        self.path = path
        self.d = json.load(open(path)) if os.path.exists(path) else {}

    def save(self):
        tmp = self.path + ".tmp"
        json.dump(self.d, open(tmp, "w"))
        os.replace(tmp, self.path)


def ptxas_one(ptxas, path, target, flags, cache, ptxas_ver):
    data = open(path, "rb").read()
    key = hashlib.sha1(data + ("\0%s\0%s\0%s" % (target, flags, ptxas_ver)).encode()).hexdigest()
    if key in cache.d:
        return cache.d[key]
    argv = [ptxas, "-arch=" + target] + flags.split() + [path, "-o", "/dev/null"]
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                           timeout=1800)
        verdict = "" if p.returncode == 0 else (first_line(p.stdout, "error") or "status %d" % p.returncode)
    except subprocess.TimeoutExpired:
        verdict = "ptxas timed out"
    cache.d[key] = verdict
    return verdict


def verify_one(ptxopt, path, timeout):
    try:
        p = subprocess.run([ptxopt, "--verify-ir", path, "-o", "/dev/null"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return "verifier timed out"
    if p.returncode == 0:
        return ""
    if p.returncode < 0:
        return "ptxopt --verify-ir died of signal %d" % -p.returncode
    return "status %d: %s" % (p.returncode, first_line(p.stdout, "") or "")


def first_line(text, word):
    for line in text.splitlines():
        if word in line.lower():
            return line.strip()[:300]
    return (text.strip().splitlines() or [""])[0][:300]


def backtrace(ptxopt, pipeline, path, timeout):
    """gdb's backtrace of ptxopt --passes=PIPELINE PATH (one file, no batch)."""
    argv = ["gdb", "-batch", "-nx", "-ex", "run", "-ex", "bt", "--args", ptxopt,
            "--passes=" + pipeline, path, "-o", "/dev/null"]
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "gdb timed out"
    frames = [(m.group(2), m.group(3) or "?") for m in FRAME_RE.finditer(p.stdout)]
    bt = "\n".join(l for l in p.stdout.splitlines() if l.startswith("#") or "signal" in l.lower())
    return frames, bt


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", default=default_cache(), help="the corpus (default $PTXOPT_SWEEP_CACHE or ~/.cache/ptxopt-sweep)")
    ap.add_argument("--ptxopt", default=os.environ.get("PTXOPT", "ptxopt"))
    ap.add_argument("--ptxas", default=os.environ.get("PTXAS") or shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    ap.add_argument("--passes", help="comma-separated pass names: only their settings (none: the baseline)")
    ap.add_argument("--setting", action="append", default=[], metavar="PIPELINE",
                    help="run this pipeline instead of the built-in settings (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the settings and exit")
    ap.add_argument("--suites", help="comma-separated suites of the manifest")
    ap.add_argument("--match", help="only corpus files whose path matches this regular expression")
    ap.add_argument("--limit", type=int, help="at most N files (spread over the suites)")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300, help="seconds per file (default 300)")
    ap.add_argument("--big-mb", type=float, default=4, help="files above this size run alone (default 4)")
    ap.add_argument("--no-ptxas", action="store_true")
    ap.add_argument("--no-verify", action="store_true")
    ap.add_argument("--backtraces", action="store_true", help="gdb backtrace per distinct crash site")
    ap.add_argument("--max-gdb", type=int, default=40, help="at most N gdb runs (default 40)")
    ap.add_argument("--out", help="results folder (default CACHE/sweep)")
    ap.add_argument("--keep", action="store_true", help="keep every setting's outputs")
    ap.add_argument("--verdicts", help="the ptxas verdict cache (default CACHE/ptxas-verdicts.json)")
    ap.add_argument("--check-sample", type=int, metavar="N",
                    help="ptxas and --verify-ir on N of each setting's changed files (spread over the corpus "
                         "in path order, files above --big-mb left out) instead of all of them")
    ap.add_argument("--resume", action="store_true",
                    help="reuse the settings an earlier run finished with the same ptxopt, files and options")
    args = ap.parse_args()

    settings = [(s.split("<")[0] or "none", s) for s in args.setting] or SETTINGS
    if args.passes:
        want = set(args.passes.split(","))
        settings = [s for s in settings if s[0] in want]
    if args.list:
        for p, s in settings:
            print(s or "(none)")
        return 0
    ptxopt = shutil.which(args.ptxopt) or args.ptxopt
    if not os.access(ptxopt, os.X_OK):
        print("sweep.py: no ptxopt at %s (--ptxopt or $PTXOPT)" % args.ptxopt, file=sys.stderr)
        return 2
    ptxopt = os.path.abspath(ptxopt)
    cache = os.path.abspath(args.cache)
    rows = read_manifest(cache)
    if not rows:
        print("sweep.py: no corpus in %s: build it with testsuite/realcode/build_corpus.py "
              "(it needs the suites' snapshots; see testsuite/realcode/README.md)" % cache, file=sys.stderr)
        return 2
    rows = pick(rows, args)
    if not rows:
        print("sweep.py: no corpus file left after --suites/--match/--limit", file=sys.stderr)
        return 2
    have_ptxas = not args.no_ptxas and os.access(args.ptxas, os.X_OK)
    if not args.no_ptxas and not have_ptxas:
        print("sweep.py: ptxas not found (%s): the ptxas check is SKIPPED" % args.ptxas, file=sys.stderr)
    ptxas_ver = subprocess.run([args.ptxas, "--version"], stdout=subprocess.PIPE, text=True).stdout if have_ptxas else ""

    out = os.path.abspath(args.out or os.path.join(cache, "sweep"))
    work = os.path.join(out, "work")
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    # the inputs: a tree of hard links, small files in one, each big file alone
    big_limit = args.big_mb * 1e6
    small_dir = os.path.join(work, "in", "corpus")
    by_rel = {}
    bigs = []
    for r in rows:
        if r["bytes"] > big_limit:
            bigs.append(r)
            continue
        link = os.path.join(small_dir, r["path"])
        os.makedirs(os.path.dirname(link), exist_ok=True)
        # a hard link (a copy across file systems): batch mode does not
        # follow symbolic links in a directory walk
        try:
            os.link(os.path.join(cache, r["path"]), link)
        except OSError:
            shutil.copyfile(os.path.join(cache, r["path"]), link)
        by_rel[os.path.realpath(link)] = r
    for r in bigs:
        by_rel[os.path.realpath(os.path.join(cache, r["path"]))] = r
    total_bytes = sum(r["bytes"] for r in rows)
    print("sweep.py: %d files (%d big), %.1f MB, %d kernels, %d functions; %d settings; ptxopt %s" % (
        len(rows), len(bigs), total_bytes / 1e6, sum(r["kernels"] for r in rows),
        sum(r["functions"] for r in rows), len(settings), ptxopt), file=sys.stderr)

    pcache = PtxasCache(os.path.abspath(args.verdicts) if args.verdicts else os.path.join(cache, "ptxas-verdicts.json"))
    results, failures = [], []
    crashes = []          # (setting, row)
    t_all = time.time()
    # --resume: a setting already swept with the same ptxopt, ptxas, files
    # and options is taken from CACHE/sweep/done/ instead of run again
    h = hashlib.sha1(open(ptxopt, "rb").read())
    h.update(("%s\0%s\0%s\0%s\0%s\0%s\0%s" % (ptxas_ver, args.timeout, args.big_mb, have_ptxas, args.no_verify,
                                              args.jobs, args.check_sample)).encode())
    for r in rows:
        h.update(("%s\0%d\0" % (r["path"], r["bytes"])).encode())
    run_key = h.hexdigest()
    done_dir = os.path.join(out, "done")
    os.makedirs(done_dir, exist_ok=True)
    by_path = {r["path"]: r for r in rows}
    for n, (pname, pipeline) in enumerate(settings):
        tag = "s%02d" % n
        label = pipeline or "(none)"
        done_file = os.path.join(done_dir, hashlib.sha1((run_key + "\0" + pipeline).encode()).hexdigest() + ".json")
        if args.resume and os.path.exists(done_file):
            d = json.load(open(done_file))
            results.append(d["result"])
            failures.extend(tuple(f) for f in d["failures"])
            crashes.extend((p, by_path[f]) for p, f in d["crashes"] if f in by_path)
            print("sweep.py: [%d/%d] %s: (done before) %s" % (n + 1, len(settings), label, row_text(results[-1])),
                  file=sys.stderr)
            continue
        nfail, ncrash = len(failures), len(crashes)
        res = collections.Counter()
        res_rss, worst_ratio, batch_s = 0, (0.0, None), 0.0
        entries = []
        groups = ([("corpus", [small_dir])] if by_rel and len(bigs) < len(rows) else []) + \
                 [("big%d" % i, [os.path.join(cache, r["path"])]) for i, r in enumerate(bigs)]
        for gname, inputs in groups:
            odir = os.path.join(work, tag, gname)
            rep = os.path.join(work, tag, gname + ".json")
            os.makedirs(odir, exist_ok=True)
            argv = [ptxopt, "-q", "-j", str(args.jobs), "--timeout=%g" % args.timeout,
                    "--passes=" + pipeline, "--output-dir=" + odir, "--report=" + rep] + inputs
            rc, secs, rss = run_measured(argv, os.path.join(work, tag, gname + ".log"))
            batch_s += secs
            res_rss = max(res_rss, rss)
            if not os.path.exists(rep):
                failures.append((label, gname, "batch run failed (status %d): %s" % (
                    rc, first_line(open(os.path.join(work, tag, gname + ".log"), errors="replace").read(), ""))))
                res["pass-error"] += 1
                continue
            report = json.load(open(rep))
            for f in report["files"]:
                r = by_rel.get(os.path.realpath(f["input"]))
                entries.append((f, r))
            for p in report["summary"]["passes"]:
                res["kernels_seen"] += p["kernels_seen"]
                res["kernels_changed"] += p["kernels_changed"]
                res["sites"] += p["sites_rewritten"]
            if gname != "corpus":
                r = by_rel.get(os.path.realpath(inputs[0]))
                ratio = rss / r["bytes"]
                if ratio > worst_ratio[0]:
                    worst_ratio = (ratio, os.path.basename(r["path"]))
        changed = []
        for f, r in entries:
            res["files"] += 1
            if f["status"] == "failed":
                kind = classify(f)
                res[kind] += 1
                failures.append((label, r["path"] if r else f["input"], "%s: %s" % (kind, f["error"])))
                if kind == "crash" and r:
                    crashes.append((pipeline, r))
            elif f["status"] == "changed":
                res["changed"] += 1
                changed.append((f["output"], r))
        t1 = time.time()
        checks = changed if pipeline else [(os.path.join(cache, r["path"]), r) for f, r in entries
                                           if r and f["status"] != "failed"]
        if args.check_sample is not None:
            changed, checks = sample(changed, args.check_sample, big_limit), sample(checks, args.check_sample, big_limit)
        res["checked"] = len(checks)
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            if have_ptxas:
                futs = {ex.submit(ptxas_one, args.ptxas, o, r["target"], r["ptxas_flags"], pcache, ptxas_ver): (o, r)
                        for o, r in changed if r}
                for fut in concurrent.futures.as_completed(futs):
                    o, r = futs[fut]
                    v = fut.result()
                    if v:
                        res["ptxas"] += 1
                        failures.append((label, r["path"], "ptxas -arch=%s %s rejects the output: %s" % (
                            r["target"], r["ptxas_flags"], v)))
            ptxas_s = time.time() - t1
            t2 = time.time()
            if not args.no_verify:
                vt = max(args.timeout, 60)
                futs = {ex.submit(verify_one, ptxopt, o, vt): (o, r) for o, r in checks if r}
                for fut in concurrent.futures.as_completed(futs):
                    o, r = futs[fut]
                    v = fut.result()
                    if v:
                        res["verify"] += 1
                        failures.append((label, r["path"], "--verify-ir: " + v))
            verify_s = time.time() - t2
        pcache.save()
        nbytes = sum(r["bytes"] for f, r in entries if r)
        if not pipeline:      # no pass saw anything: the corpus's count
            res["kernels_seen"] = sum(r["functions"] for f, r in entries if r and f["status"] != "failed")
        results.append({"setting": label, "pass": pname, "files": res["files"], "kernels": res["kernels_seen"],
                        "kernels_changed": res["kernels_changed"], "sites": res["sites"],
                        "files_changed": res["changed"], "crashes": res["crash"], "timeouts": res["timeout"],
                        "pass_errors": res["pass-error"], "bad_input": res["bad-input"],
                        "ptxas_rejections": res["ptxas"], "verifier_errors": res["verify"],
                        "files_checked": res["checked"],
                        "seconds": round(batch_s, 1), "mb_per_s": round(nbytes / 1e6 / batch_s, 2) if batch_s else 0,
                        "ptxas_seconds": round(ptxas_s, 1), "verify_seconds": round(verify_s, 1),
                        "peak_rss_mb": round(res_rss / 2**20, 1),
                        "big_rss_ratio": round(worst_ratio[0], 1), "big_rss_file": worst_ratio[1]})
        print("sweep.py: [%d/%d] %s: %s" % (n + 1, len(settings), label, row_text(results[-1])), file=sys.stderr)
        with open(done_file + ".tmp", "w") as f:
            json.dump({"setting": label, "result": results[-1], "failures": failures[nfail:],
                       "crashes": [(p, r["path"]) for p, r in crashes[ncrash:]]}, f)
        os.replace(done_file + ".tmp", done_file)
        if not args.keep:
            shutil.rmtree(os.path.join(work, tag), ignore_errors=True)

    bts = []
    if args.backtraces and crashes:
        bts = crash_sites(ptxopt, crashes, args)

    text = render(results, failures, bts, rows, total_bytes, time.time() - t_all)
    os.makedirs(out, exist_ok=True)
    open(os.path.join(out, "summary.txt"), "w").write(text)
    json.dump({"results": results, "failures": failures,
               "crash_sites": [{"frames": f, "backtrace": b, "files": fl} for f, b, fl in bts]},
              open(os.path.join(out, "summary.json"), "w"), indent=1)
    print(text, end="")
    print("(written to %s)" % out)
    bad = sum(r[k] for r in results for k in ("crashes", "timeouts", "pass_errors", "bad_input",
                                               "ptxas_rejections", "verifier_errors"))
    return 1 if bad else 0


def crash_sites(ptxopt, crashes, args):
    """One gdb run per crashing file, smallest first, at most --max-gdb;
    grouped by their top three frames."""
    seen_files, sites = set(), collections.OrderedDict()
    runs = 0
    for pipeline, r in sorted(crashes, key=lambda c: c[1]["bytes"]):
        key_file = (pipeline.split("<")[0], r["path"])
        if key_file in seen_files or runs >= args.max_gdb:
            if key_file not in seen_files:
                sites.setdefault(("(not run: --max-gdb)",), [None, []])[1].append((pipeline, r["path"]))
            continue
        seen_files.add(key_file)
        runs += 1
        frames, bt = backtrace(ptxopt, pipeline, os.path.join(args.cache, r["path"]), max(args.timeout * 3, 120))
        own = [f for f in (frames or []) if not f[1].startswith("?")] or (frames or [])
        key = tuple("%s %s" % f for f in own[:3]) or ("(no backtrace)",)
        ent = sites.setdefault(key, [bt, []])
        ent[1].append((pipeline, r["path"]))
    return [(list(k), v[0], v[1]) for k, v in sites.items()]


COLS = [("setting", "setting", "%-50s"), ("files", "files", "%6d"), ("kernels", "kernels", "%7d"),
        ("kchg", "kernels_changed", "%6d"), ("sites", "sites", "%6d"), ("fchg", "files_changed", "%5d"),
        ("crash", "crashes", "%5d"), ("tmout", "timeouts", "%5d"), ("perr", "pass_errors", "%4d"),
        ("chk", "files_checked", "%5d"), ("ptxas", "ptxas_rejections", "%5d"), ("verif", "verifier_errors", "%5d"), ("sec", "seconds", "%7.1f"),
        ("MB/s", "mb_per_s", "%6.2f"), ("rssMB", "peak_rss_mb", "%7.1f"), ("big×", "big_rss_ratio", "%5.1f")]


def row_text(r):
    return " ".join("%s=%s" % (h, r[k]) for h, k, _ in COLS[1:])


def render(results, failures, bts, rows, total_bytes, secs):
    lines = []
    suites = collections.Counter(r["suite"] for r in rows)
    lines.append("corpus: %d files (%s), %.1f MB, %d kernels, %d functions" % (
        len(rows), ", ".join("%s %d" % kv for kv in sorted(suites.items())), total_bytes / 1e6,
        sum(r["kernels"] for r in rows), sum(r["functions"] for r in rows)))
    lines.append("columns: kernels = functions with a body the pass saw; kchg/sites = kernels changed and sites "
                 "rewritten (batch report); fchg = files changed; crash = died of a signal; tmout = per-file "
                 "timeout; perr = other optimizer failures; chk = changed files checked by ptxas and the verifier (all, or --check-sample's); ptxas = changed files ptxas rejects; verif = "
                 "--verify-ir failures; sec, MB/s = the batch run; rssMB = peak RSS of one process; big× = "
                 "worst peak RSS / input size over the big files")
    head = []
    for h, _, fmt in COLS:
        w = int(re.match(r"%-?(\d+)", fmt).group(1))
        head.append(h.ljust(w) if fmt.startswith("%-") else h.rjust(w))
    lines.append(" ".join(head))
    for r in results:
        lines.append(" ".join(fmt % r[k] for _, k, fmt in COLS))
    lines.append("sweep: %.0f s in all (ptxas and verifier included)" % secs)
    lines.append("")
    lines.append("failures: %d" % len(failures))
    for s, f, why in failures:
        lines.append("  [%s] %s: %s" % (s, f, why))
    if bts:
        lines.append("")
        lines.append("crash sites (gdb):")
        for frames, bt, files in bts:
            lines.append("  site: %s" % " <- ".join(frames))
            for p, f in files:
                lines.append("    [%s] %s" % (p, f))
            if bt:
                for l in bt.splitlines()[:14]:
                    lines.append("      " + l)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
