#!/usr/bin/env python3
"""reduce.py — delta debugging (ddmin) over the statements of one kernel.

A candidate is the kernel with some instruction lines removed (labels,
declarations and braces stay).  It is kept when it is still interesting:

  1. the pass still changes it, and the rewrite still fails the same way
     (the oracle signature: "differs", a check in the rewrite, ptxas
     rejecting the rewrite, ptxopt failing);
  2. the candidate itself is valid: ptxas accepts it and the emulator runs
     it without a check failure and schedule-independently
     (oracle.original_valid) — so removing a definition whose register is
     later used as an address, a branch or an output is refused by the
     emulator's poison checks instead of producing undefined behaviour.

Usage: reduce.py PTXOPT PTXOPT-EMU IN.ptx KERNEL PIPELINE 'LAUNCH' OUT.ptx
"""
import hashlib
import os
import re
import shlex
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402


def failure(tools, path, kernel, pipeline, launch, extra, scratch, require=None):
    """The failure signature of PIPELINE on PATH, or None when it passes
    (or when the rewrite does not match the regex REQUIRE: a reduction
    may insist on, e.g., a shuffle rather than a register copy)."""
    opt = os.path.join(scratch, "opt.ptx")
    rc, out = tools.optimize(path, pipeline, opt)
    if rc != 0:
        return "ptxopt-rc%d" % rc
    with open(path) as f, open(opt) as g:
        out = g.read()
        if f.read() == out or (require and not re.search(require, out)):
            return None
    ok, _ = tools.ptxas_ok(opt)
    if not ok:
        return "ptxas-rejects"
    rc, out = tools.diff(path, opt, kernel, launch, extra)
    if rc == 0:
        return None
    return oracle.signature(out)


def statements(lines):
    """Indices of instruction lines inside the entry body."""
    idx, inside = [], False
    for i, l in enumerate(lines):
        s = l.strip()
        if s == "{":
            inside = True
            continue
        if not inside or not s.endswith(";") or s.startswith("."):
            continue
        idx.append(i)
    return idx


def protected(lines, stmts):
    """Statements a reduction must keep so that it cannot introduce a race
    the emulator might not show: every barrier, and the backward slice
    (by register name, every definition) of every memory address.  The
    generators make each access race-free by its address and the barriers
    around it; with both intact, dropping statements, branches or whole
    accesses only removes accesses or runs them in more threads, which the
    generators' rules already allow."""
    keep, need, defs = set(), [], {}
    for i in stmts:
        s = lines[i].strip()
        op = s.split(None, 2)[1] if s.startswith("@") and len(s.split()) > 1 else s.split(None, 1)[0]
        if op.startswith(("bar.", "barrier.")):
            keep.add(i)
        for addr in re.findall(r"\[([^\]]*)\]", s):
            need += REG.findall(addr)
        rest = s.split(None, 2)[2] if s.startswith("@") and len(s.split()) > 2 else (s.split(None, 1) + [""])[1]
        first = rest.split("}")[0] if rest.startswith("{") else rest.split(",")[0]
        if not op.startswith(SIDE_EFFECTS) or op.startswith("atom."):
            for r in REG.findall(first):
                defs.setdefault(r, []).append(i)
    seen = set()
    while need:
        r = need.pop()
        if r in seen:
            continue
        seen.add(r)
        for i in defs.get(r, []):
            if i not in keep:
                keep.add(i)
                need += REG.findall(lines[i])
    return keep


def removable(lines):
    """The statements a reduction may remove or rewrite."""
    st = statements(lines)
    keep = protected(lines, st)
    return [i for i in st if i not in keep]


SIDE_EFFECTS = ("st.", "atom.", "red.", "bar.", "barrier.", "bra", "ret", "exit", "call", "membar", "fence",
                "shfl.", "vote.", "trap", "cp.async")
REG = re.compile(r"%[A-Za-z_$][\w$]*")


def dead_statements(lines):
    """Instruction lines without side effects whose destination registers
    appear in no other line."""
    rem = removable(lines)
    uses = {}
    for i in rem:
        for r in REG.findall(lines[i]):
            uses[r] = uses.get(r, 0) + 1
    dead = set()
    for i in rem:
        s = lines[i].strip()
        body = s.split(None, 1)
        if s.startswith("@"):
            body = body[1].split(None, 1) if len(body) > 1 else []
        if len(body) < 2 or body[0].startswith(SIDE_EFFECTS) or "//" in s:
            continue
        first = body[1].split(",")[0] if not body[1].startswith("{") else body[1].split("}")[0]
        dst = REG.findall(first)
        if dst and all(uses.get(r, 0) == first.count(r) for r in dst):
            dead.add(i)
    return dead


def copies(line, decls):
    """The instruction LINE as `mov dst, src` for each register source of
    dst's class (no copy of a copy, no side effects)."""
    s = line.strip()
    if s.startswith("@") or s.startswith(("mov.", "ld.param")) or s.startswith(SIDE_EFFECTS) or "{" in s:
        return []
    body = s.rstrip(";").split(None, 1)
    if len(body) < 2:
        return []
    ops = [o.strip() for o in body[1].split(",")]
    m = re.match(r"(%[A-Za-z_]+)\d+$", ops[0])
    if not m or m.group(1) not in decls:
        return []
    ty = decls[m.group(1)]
    out = []
    for o in ops[1:]:
        mm = re.match(r"(%[A-Za-z_]+)\d+$", o)
        if mm and mm.group(1) == m.group(1):
            out.append("\tmov%s \t%s, %s;\n" % (ty, ops[0], o))
    return out


def drop_dead(lines, test):
    """Statements whose results nobody reads go in one step (syntactic
    dead-code elimination; the test confirms it)."""
    while True:
        dead = dead_statements(lines)
        if not dead:
            return lines
        trial = [l for i, l in enumerate(lines) if i not in dead]
        if not test(trial):
            return lines
        lines = trial


def sweep(lines, test, more, log):
    """Removal sweeps with a shrinking chunk (ddmin's complements, one pass
    over the statements per size: a success does not restart the sweep);
    the last sweeps at size 1 leave it 1-minimal."""
    lines = drop_dead(lines, test)
    chunk = max(1, len(removable(lines)) // 2)
    while more():
        progress = False
        pos = 0
        while more():
            rem = removable(lines)
            if pos >= len(rem):
                break
            drop = set(rem[pos:pos + chunk])
            trial = [l for i, l in enumerate(lines) if i not in drop]
            if test(trial):
                lines, progress = trial, True
                if log:
                    log("  reduce: %d statements" % len(removable(lines)))
            else:
                pos += chunk
        if not progress:
            if chunk == 1:
                break
            chunk = max(1, chunk // 2)
    return lines


def bypass(lines, test, decls, more):
    """Data flow: an instruction becomes a copy of one of its register
    operands (removing it would leave its result undefined, which the
    emulator's poison check refuses); what that leaves dead goes."""
    for i in reversed(removable(lines)):
        if i >= len(lines) or not more():
            break
        for cand_line in copies(lines[i], decls):
            trial = lines[:i] + [cand_line] + lines[i + 1:]
            if test(trial):
                lines = drop_dead(trial, test)
                break
    return lines


def reduce(tools, text, kernel, pipeline, launch, extra="", want=None, log=None, budget=2000, require=None):
    """Return (reduced text, signature)."""
    scratch = tempfile.mkdtemp(prefix="fp-reduce-")
    cand = os.path.join(scratch, "cand.ptx")
    seen = {}

    def test(lines):
        t = "".join(lines)
        key = hashlib.sha1(t.encode()).hexdigest()
        if key in seen:
            return seen[key]
        with open(cand, "w") as f:
            f.write(t)
        sig = failure(tools, cand, kernel, pipeline, launch, extra, scratch, require)
        ok = sig is not None and sig == want
        if ok:
            ok = tools.ptxas_ok(cand)[0] and oracle.original_valid(tools, cand, kernel, launch)[0]
        seen[key] = ok
        return ok

    lines = text.splitlines(keepends=True)
    if want is None:
        with open(cand, "w") as f:
            f.write(text)
        want = failure(tools, cand, kernel, pipeline, launch, extra, scratch)
    if want is None or not test(lines):
        return text, want
    decls = {p: t for t, p in re.findall(r"\.reg\s+(\.\w+)\s+(%[A-Za-z_]+)<", text)}
    while len(seen) < budget:
        before = "".join(lines)
        lines = sweep(lines, test, lambda: len(seen) < budget, log)
        lines = bypass(lines, test, decls, lambda: len(seen) < budget)
        if "".join(lines) == before:
            break
    # labels no branch names are noise in a reproducer
    used = set(re.findall(r"\bbra(?:\.uni)?\s+(\S+);", "".join(lines)))
    tidy = [l for l in lines if not (re.match(r"^\$?\w+:\s*$", l.strip()) and l.strip()[:-1] not in used)]
    tidy = [l for k, l in enumerate(tidy) if l.strip() or (k and tidy[k - 1].strip())]
    if test(tidy):
        lines = tidy
    return "".join(lines), want


FEATURES = [  # what a reduced kernel still contains: a hint at the class
    ("laneid", r"%laneid"), ("lanemask", r"%lanemask"), ("atomic", r"\batom\."),
    ("local", r"\bld\.local"), ("shared", r"\.shared"), ("barrier", r"\bbar\.|barrier\."),
    ("store", r"\bst\.global"), ("zext-index", r"cvt\.u64\.u32|mul\.wide\.u32"),
    ("branch", r"\bbra\b"), ("vector", r"\.v[24]\."), ("nc", r"\.nc\."),
    # precise float math (gen.py/gen_ptx.py feature "math", the sfu pass's
    # sites): div/sqrt/rcp.rn, div.full, or the approximate instructions
    # inside nvcc's inlined expf/powf/tanhf
    ("math", r"\b(?:div\.(?:rn|full)|sqrt\.rn|rcp\.rn)\.f32|\b(?:ex2|lg2|sin|cos|tanh)\.approx"),
    # issue 22: a spin on an acquire that some lanes skip (lane timing), a
    # 32-bit index that wraps between lanes (gen_ptx.py: t + 2^31 - 64 or
    # t - 64), a loop left from a block that is not its header's (a break)
    ("late", r"\bld\.acquire\."), ("wrap", r"\badd\.s32\s+(%r\d+), %r\d+, (?:21474835\d\d|21474836[0-4]\d|-\d+);\n\s*add\.s64\s+%rd\d+, %rd\d+, \d+;"
             r"\n\s*mul\.wide\.[su]32\s+%rd\d+, \1, 4;"),
]


def features(text):
    import re
    body = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))
    return [name for name, rx in FEATURES if re.search(rx, body)]


if __name__ == "__main__":
    ptxopt, emu, src, kernel, pipeline, launch, dst = sys.argv[1:8]
    tools = oracle.Tools(ptxopt, emu)
    with open(src) as f:
        text = f.read()
    out, sig = reduce(tools, text, kernel, pipeline, shlex.split(launch), log=print)
    with open(dst, "w") as f:
        f.write(out)
    print("reduce.py: %s, %d -> %d statements" % (sig, len(statements(text.splitlines())),
                                                  len(statements(out.splitlines()))))
