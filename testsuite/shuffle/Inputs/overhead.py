#!/usr/bin/env python3
"""overhead.py -- the shuffle template's per-site overhead, derived (issue 12,
Tests: "per-site overhead pinned by emulator counters and SASS").

    overhead.py emu PTXOPT-EMU ORIG.ptx NEW.ptx REMARKS KERNEL [LAUNCH...]
    overhead.py sass ORIG.ptx NEW.ptx SASS-REPORT REMARKS KERNEL

Nothing here is a number from a run.  From the two PTX files the script
aligns KERNEL's instruction lines (difflib) and splits what the rewrite
added into
  * shuffles (shfl.sync ...): one per 32-bit site;
  * fallbacks: an original load, now predicated (@!p ld ...): the load's
    own slot, so not an added instruction;
  * the guard set-up: the added lines that compute the shuffles' mask and
    clamp operands (their backward slice: lanes of the warp or
    activemask, row guard, clamp); it must run once per warp (true of
    these kernels: it sits at the entry, or in a straight-line body);
  * anything else counts against the sites.
The number of sites is the pass's own "(applied)" remarks.

emu: run both files with ptxopt-emu --policy=hanoi --counters and check
  * memory warp instructions and global-load requests are unchanged (each
    load still issues, for the lanes without a source lane);
  * shuffles issued = shuffle sites executed (one shfl per 32-bit site);
  * added warp instructions = guard * warps + per_site * sites executed,
    with per_site <= 2 (the issue's target: the shfl and the predicated
    fallback, beyond the removed load's own slot).
sass: read KERNEL's line of ptxopt --sass-report (ptxas + nvdisasm) and
check SHFL = sites, LDG unchanged with `sites` of them guarded, and total
SASS instructions added <= 2 per site plus at most one per PTX guard
instruction that computes something (the full-mask form's guard is only
constants, mov.b32 %m, -1 and the clamp operand, which ptxas folds: there
the bound is 2 per site alone).  A kernel versioned on full warps holds a
copy of the original body, so its static counts double: there the check
is SHFL = sites and no convergence check (VOTE/MATCH/REDUX) around them.

Prints one line of figures; exits 1 when a check fails."""
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter


VERSION_BRANCH = re.compile(r"@(%px_pred_\d+) bra\.uni (\$px_L\d+)$")


def kernel_lines(path, kernel):
    """KERNEL's instruction lines (no declarations, labels or comments),
    whitespace-normalised.  A kernel versioned on full warps (the pass's
    `@%partial bra.uni $copy`) ends where the copy of the original body
    starts: full warps never run it."""
    text = open(path).read()
    m = re.search(r"\.entry\s+%s\s*\(" % re.escape(kernel), text)
    if not m:
        sys.exit("overhead.py: no kernel %s in %s" % (kernel, path))
    body = text[text.index("{", m.end()):]
    depth, out, copy = 0, [], None
    for raw in body.splitlines():
        if copy and raw.strip() == copy + ":":
            break
        v = VERSION_BRANCH.match(raw.strip().rstrip(";"))
        if v:
            copy = v.group(2)
        depth += raw.count("{") - raw.count("}")
        line = " ".join(raw.split("//")[0].split())
        if line and line not in ("{", "}") and not line.startswith(".") and not line.endswith(":"):
            out.append(line.rstrip(";"))
        if depth <= 0:
            break
    return out


def added(orig, new, kernel):
    """The lines the rewrite added to KERNEL, as (shuffles, fallbacks, guard,
    other): insertions aligned with difflib against the original; the
    guard is what computes the shuffles' mask and clamp operands."""
    a, b = kernel_lines(orig, kernel), kernel_lines(new, kernel)
    shfl, fallback, rest = [], [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        gone = Counter(a[i1:i2])
        for l in b[j1:j2]:
            m = re.match(r"@!?%\S+ (ld\..*)", l)
            if l.startswith("shfl.sync"):
                shfl.append(l)
            elif m and gone[m.group(1)] > 0:
                gone[m.group(1)] -= 1
                fallback.append(l)
            else:
                rest.append(l)
        if +gone:
            sys.exit("overhead.py: %s: original lines gone without a fallback: %s" % (kernel, sorted(gone.elements())))
    # backward slice of the mask and clamp operands (the last two) over the added lines
    need = set()
    for l in shfl:
        need.update(re.findall(r"%[\w.]+", ",".join(l.split(",")[-2:])))
    guard = []
    for l in rest:  # the full-warp versioning branch and what decides it
        v = VERSION_BRANCH.match(l)
        if v:
            guard.append(l)
            need.add(v.group(1))
    for l in reversed(rest):
        regs = re.findall(r"%[\w.]+", l)
        if regs and regs[0] in need and l not in guard:
            guard.append(l)
            need.update(regs[1:])
    other = [l for l in rest if l not in guard]
    return shfl, fallback, list(reversed(guard)), other


def sites_of(remarks, kernel):
    pat = re.compile(r"\[shuffle\] %s: shfl\.sync\.(down|up) from the load at line \d+ \(N = -?\d+(, per-lane wrap check)?\) "
                     r"\(applied\)"
                     % re.escape(kernel))
    return sum(1 for l in open(remarks) if pat.search(l))


def counters(emu, ptx, kernel, launch):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "c.json")
        subprocess.run([emu, "-q", "--policy=hanoi", "--counters=" + out, ptx, "--kernel=" + kernel] + launch, check=True)
        return json.load(open(out))


def warps(c):
    g, b = c["grid"], c["block"]
    t = b[0] * b[1] * b[2]
    return g[0] * g[1] * g[2] * ((t + 31) // 32)


def emu_check(emu, orig, new, remarks, kernel, launch):
    sites = sites_of(remarks, kernel)
    shfl, fallback, guard, other = added(orig, new, kernel)
    bad = []
    if sites == 0:
        bad.append("no site rewritten")
    if len(shfl) != sites or len(fallback) != sites:
        bad.append("expected one shfl and one fallback per site: %d shfl, %d fallbacks, %d sites"
                   % (len(shfl), len(fallback), sites))
    c0, c1 = counters(emu, orig, kernel, launch), counters(emu, new, kernel, launch)
    w = warps(c0)
    i0, i1 = c0["warp_instructions"], c1["warp_instructions"]
    run = i1["shuffle"] - i0["shuffle"]  # sites executed (one shfl each)
    if i1["memory"] != i0["memory"]:
        bad.append("memory warp instructions %d -> %d" % (i0["memory"], i1["memory"]))
    if c1["global_load"]["requests"] != c0["global_load"]["requests"]:
        bad.append("global-load requests changed")
    if run < sites * w:
        bad.append("%d shuffles issued, fewer than %d sites x %d warps" % (run, sites, w))
    extra = i1["total"] - i0["total"] - len(guard) * w
    per_site = extra / run if run else float("inf")
    # the figure: warp instructions added per executed shuffle,
    # beyond the shuffle itself (guard included)
    beyond = (i1["total"] - i0["total"] - run) / run if run else float("inf")
    if per_site > 2:
        bad.append("%.2f warp instructions per site beyond its load's slot (target: at most 2)" % per_site)
    print("%s: %d sites, guard set-up %d (%s), %d warps, warp instructions %d -> %d = +%d guard x %d warps "
          "+ %.2f x %d sites run (%.2f per shuffle beyond the shuffle); sectors %d -> %d: %s"
          % (kernel, sites, len(guard), "activemask" if any("activemask" in g for g in guard) else "no activemask",
             w, i0["total"], i1["total"], len(guard), w, per_site, run, beyond, c0["global_load"]["sectors"],
             c1["global_load"]["sectors"], "ok" if not bad else "FAIL: " + "; ".join(bad)))
    return not bad


SASS = re.compile(r"sass kernel (\S+): (.*) \| (.*)")


def versioned(path, kernel):
    text = open(path).read()
    m = re.search(r"\.entry\s+%s\s*\(" % re.escape(kernel), text)
    end = text.find("\n}", m.end())
    return any(VERSION_BRANCH.match(l.strip().rstrip(";")) for l in text[m.end():end].splitlines())


def sass_check(orig, new, report, remarks, kernel):
    sites = sites_of(remarks, kernel)
    guard = [g for g in added(orig, new, kernel)[2] if not re.match(r"mov\.b32 \S+, -?\d+$", g)]
    for line in open(report):
        m = SASS.search(line)
        if not m or m.group(1) != kernel:
            continue
        f = {k: tuple(int(x) for x in v.split("->")) for k, v in re.findall(r"(\S+)=(\d+->\d+)", line)}
        ldg = [(k, v) for k, v in f.items() if k.startswith("LDG")]
        guarded = sum(v[1] - v[0] for k, v in f.items() if k.startswith("@LDG"))
        bad = []
        if f["shfl"] != (0, sites):
            bad.append("SHFL %d->%d for %d sites" % (f["shfl"] + (sites,)))
        if versioned(new, kernel):
            # the copy of the body doubles the static code: what is pinned is
            # that ptxas sees a constant full mask (a bare SHFL, no
            # convergence check: no VOTE/MATCH/REDUX)
            conv = {k: v for k, v in f.items() if k.split(".")[0].lstrip("@") in ("VOTE", "VOTEU", "MATCH", "REDUX")}
            if f.get("vote", (0, 0))[1] != f.get("vote", (0, 0))[0] or any(v[1] != v[0] for v in conv.values()):
                bad.append("a convergence check around the shuffle (vote %d->%d)" % f.get("vote", (0, 0)))
            print("%s: %d sites, versioned on full warps, SASS total %d->%d, SHFL %d->%d, vote %d->%d, regs %d->%d: %s"
                  % (kernel, sites, f["total"][0], f["total"][1], f["shfl"][0], f["shfl"][1], f.get("vote", (0, 0))[0],
                     f.get("vote", (0, 0))[1], f["regs"][0], f["regs"][1], "ok" if not bad else "FAIL: " + "; ".join(bad)))
            return not bad
        if f["ldg"][0] != f["ldg"][1]:
            bad.append("LDG %d->%d" % f["ldg"])
        if guarded != sites:
            bad.append("%d more guarded LDG for %d sites" % (guarded, sites))
        grow = f["total"][1] - f["total"][0]
        if sites == 0 or grow > 2 * sites + len(guard):
            bad.append("+%d SASS instructions for %d sites and a guard of %d (target: at most 2 per site)"
                       % (grow, sites, len(guard)))
        print("%s: %d sites, guard %d, SASS total %d->%d (+%d), SHFL %d->%d, LDG %d->%d (%d more guarded), regs %d->%d: %s"
              % (kernel, sites, len(guard), f["total"][0], f["total"][1], grow, f["shfl"][0], f["shfl"][1], f["ldg"][0],
                 f["ldg"][1], guarded, f["regs"][0], f["regs"][1], "ok" if not bad else "FAIL: " + "; ".join(bad)))
        return not bad
    sys.exit("overhead.py: no SASS line for kernel %s in %s" % (kernel, report))


def main():
    if len(sys.argv) >= 6 and sys.argv[1] == "emu":
        return 0 if emu_check(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7:]) else 1
    if len(sys.argv) == 7 and sys.argv[1] == "sass":
        return 0 if sass_check(*sys.argv[2:7]) else 1
    sys.exit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    sys.exit(main())
