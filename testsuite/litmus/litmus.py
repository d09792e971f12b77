#!/usr/bin/env python3
"""litmus.py — the litmus suite of ptxopt-emu's memory models (issue 23).

  litmus.py --emu=PTXOPT_EMU [--seeds=N] [--only=REGEX] [--work=DIR] [-v]
  litmus.py --ptx NAME        print the PTX kernel of test NAME
  litmus.py --list            the tests and the outcomes they state

Each test is a classic shape (MP, SB, LB, WRC, IRIW, 2+2W, CoRR, CoWR,
release sequences) with weak accesses, relaxed ones, release/acquire,
fences or atomics, at .cta or .gpu scope, its threads in one CTA
(different warps) or in different CTAs, on shared or global memory.  It
states the non-SC outcomes the PTX memory model allows (`allow`) and
those it forbids (`forbid`), each with the reason from the model: the
PTX ISA manual, chapter "Memory Consistency Model" (scopes, morally
strong operations, release and acquire patterns, the axioms coherence,
fence-SC order, atomicity, no thin air, sequential consistency per
location, causality), as formalised by Lustig, Sahasrabuddhe and Giroux,
"A Formal Analysis of the NVIDIA PTX Memory Consistency Model", ASPLOS
2019 (its Alloy model ptx.als, NVlabs/ptxmemorymodel: the predicates
no_thin_air, location_sc, atomicity, coherence, causality and the
relations observation, sync, cause named below).

The SC outcomes are computed here by enumerating every interleaving.  The
check, under N seeds (schedule and weak-memory seed): --memory=sc gives
SC outcomes only; --memory=weak gives only SC outcomes and the allowed
non-SC ones, and every allowed non-SC outcome at least once.  The exit
status is 1 on any violation.
"""
import argparse
import itertools
import os
import re
import subprocess
import sys

# ------------------------------------------------------------------ tests
#
# A thread is a list of instructions:
#   st[.SEM] LOC VAL            SEM: relaxed.cta, relaxed.gpu, release.cta, release.gpu, volatile
#   st.dep(REG) LOC VAL         a plain store whose address depends on REG (LOC + (REG & 0))
#   ld[.SEM] REG LOC            SEM: relaxed.*, acquire.*, volatile
#   atom.SEM.OP REG LOC VAL     OP exch or add; SEM relaxed/acquire/release/acq_rel + scope
#   fence.sc.S | fence.acq_rel.S | membar.cta | membar.gl
# REG is r0..r3; LOC is x, y or z.  Outcomes name "T:rK" (thread T's
# register) or a location ("x": its final value, global tests only).

CITE_MP = "MP: the model allows r0=1, r1=0 unless a release pattern in T0 synchronises with an acquire pattern in T1"
M = "PTX ISA, Memory Consistency Model; Lustig et al. ASPLOS'19 (ptx.als)"


class T:
    def __init__(self, name, place, space, threads, allow=(), forbid=(), why=""):
        self.name, self.place, self.space = name, place, space
        self.threads = threads
        self.allow = [parse_cond(c) for c in allow]
        self.forbid = [parse_cond(c) for c in forbid]
        self.why = why


def parse_cond(s):
    return dict((k, int(v)) for k, v in (kv.split("=") for kv in s.split()))


def mp(w, r, data="st x 1", rd="ld r1 x"):
    """T0: data; w...; T1: r...; rd."""
    return [[data] + w, r + [rd]]


TESTS = []


def add(*a, **k):
    TESTS.append(T(*a, **k))


for space in ("shared", "global"):
    sp = space[0]
    # ---- MP
    add("MP.weak." + sp, "cta", space, mp(["st y 1"], ["ld r0 y"]), allow=["1:r0=1 1:r1=0"],
        why="weak flag accesses: no morally strong observation, no synchronisation (ptx.als observation needs strong[rf])")
    add("MP.relaxed." + sp, "cta", space, mp(["st.relaxed.gpu y 1"], ["ld.relaxed.gpu r0 y"]), allow=["1:r0=1 1:r1=0"],
        why="relaxed flag, no release or acquire pattern: nothing orders the data (no sync, empty cause)")
    add("MP.rel-acq.cta." + sp, "cta", space, mp(["st.release.cta y 1"], ["ld.acquire.cta r0 y"]), forbid=["1:r0=1 1:r1=0"],
        why="release/acquire at .cta in one CTA are morally strong: sync, so st x is in cause before ld x (causality)")
    add("MP.rel-acq.gpu." + sp, "cta", space, mp(["st.release.gpu y 1"], ["ld.acquire.gpu r0 y"]), forbid=["1:r0=1 1:r1=0"],
        why="release/acquire synchronise (causality)")
    add("MP.rel-only." + sp, "cta", space, mp(["st.release.gpu y 1"], ["ld.relaxed.gpu r0 y"]), allow=["1:r0=1 1:r1=0"],
        why="no acquire pattern in T1 (a strong read needs a later fence or .acquire): the loads are unordered")
    add("MP.acq-only." + sp, "cta", space, mp(["st.relaxed.gpu y 1"], ["ld.acquire.gpu r0 y"]), allow=["1:r0=1 1:r1=0"],
        why="no release pattern in T0: the stores are unordered")
    add("MP.membar.cta." + sp, "cta", space, mp(["membar.cta", "st.volatile y 1"], ["ld.volatile r0 y", "membar.cta"]),
        forbid=["1:r0=1 1:r1=0"], why="membar.cta is fence.sc.cta; volatile is relaxed.sys: release and acquire patterns in one CTA")
    add("MP.acqrel-fences." + sp, "cta", space, mp(["fence.acq_rel.gpu", "st.relaxed.gpu y 1"], ["ld.relaxed.gpu r0 y", "fence.acq_rel.gpu"]),
        forbid=["1:r0=1 1:r1=0"], why="fence.acq_rel + strong write / strong read + fence.acq_rel: release and acquire patterns")
    add("MP.acqrel-fences.weakflag." + sp, "cta", space, mp(["fence.acq_rel.gpu", "st y 1"], ["ld r0 y", "fence.acq_rel.gpu"]),
        allow=["1:r0=1 1:r1=0"], why="the patterns need a strong write and a strong read of the flag; without fence.sc nothing orders")
    add("MP.sc-fences.weakflag." + sp, "cta", space, mp(["fence.sc.gpu", "st y 1"], ["ld r0 y", "fence.sc.gpu"]),
        forbid=["1:r0=1 1:r1=0"], why="fence-SC order: if T1 read y=1, T0's fence precedes T1's in it (else ld y is in cause before st y), "
                                       "so st x is in cause before ld x")
    add("MP.atom." + sp, "cta", space, mp(["atom.release.gpu.exch r2 y 1"], ["atom.acquire.gpu.add r0 y 0"]), forbid=["1:r0=1 1:r1=0"],
        why="release and acquire read-modify-writes synchronise")
    add("MP.atom-relaxed." + sp, "cta", space, mp(["atom.relaxed.gpu.exch r2 y 1"], ["atom.relaxed.gpu.add r0 y 0"]), allow=["1:r0=1 1:r1=0"],
        why="relaxed atomics are coherent (location_sc, atomicity) but order nothing else")
    add("MP.rmw-chain." + sp, "cta", space, [["st x 1", "st.release.gpu y 1"], ["atom.relaxed.gpu.add r0 y 1"], ["ld.acquire.gpu r0 y", "ld r1 x"]],
        forbid=["2:r0=2 2:r1=0"],
        why="release sequence: observation = ^(strong[rf] + rmw), so reading the add's write observes the release")
    # ---- SB
    sb = lambda a, f, b: [["st%s x 1" % a] + f + ["ld%s r0 y" % b], ["st%s y 1" % a] + f + ["ld%s r1 x" % b]]
    add("SB.weak." + sp, "cta", space, sb("", [], ""), allow=["0:r0=0 1:r1=0"], why="store buffering: nothing orders a store before a later load")
    add("SB.rel-acq." + sp, "cta", space, sb(".release.gpu", [], ".acquire.gpu"), allow=["0:r0=0 1:r1=0"],
        why="release/acquire do not order a store before a later load (no sync without a read of the other's write)")
    add("SB.acqrel-fences." + sp, "cta", space, sb(".relaxed.gpu", ["fence.acq_rel.gpu"], ".relaxed.gpu"), allow=["0:r0=0 1:r1=0"],
        why="fence.acq_rel has no fence-SC order: no sync without observation")
    add("SB.membar.cta." + sp, "cta", space, sb("", ["membar.cta"], ""), forbid=["0:r0=0 1:r1=0"],
        why="fence.sc.cta in one CTA are morally strong: fence-SC order puts one thread's store in cause before the other's load")
    add("SB.sc-fences." + sp, "cta", space, sb("", ["fence.sc.gpu"], ""), forbid=["0:r0=0 1:r1=0"], why="fence-SC order")
    # ---- LB
    lb = lambda la, sa, f=(): [["ld%s r0 x" % la] + list(f) + ["st%s y 1" % sa], ["ld%s r1 y" % la] + list(f) + ["st%s x 1" % sa]]
    add("LB.weak." + sp, "cta", space, lb("", ""), allow=["0:r0=1 1:r1=1"], why="no_thin_air forbids only cycles of rf and dependencies")
    add("LB.relaxed." + sp, "cta", space, lb(".relaxed.gpu", ".relaxed.gpu"), allow=["0:r0=1 1:r1=1"], why="no dependency: rf cycle allowed")
    add("LB.deps." + sp, "cta", space, [["ld r0 x", "st.dep(r0) y 1"], ["ld r1 y", "st.dep(r1) x 1"]], forbid=["0:r0=1 1:r1=1"],
        why="address dependencies: rf + dep would be cyclic (no_thin_air)")
    add("LB.acq-rel." + sp, "cta", space, [["ld r0 x", "st.release.gpu y 1"], ["ld.acquire.gpu r1 y", "st x 1"]], forbid=["0:r0=1 1:r1=1"],
        why="release/acquire: ld x (T0) is in cause before st x (T1), which it would read (causality)")
    add("LB.membar." + sp, "cta", space, lb(".volatile", ".volatile", ["membar.gl"]), forbid=["0:r0=1 1:r1=1"],
        why="fences between strong accesses: release and acquire patterns both ways (causality)")
    # ---- CoRR, CoWR
    add("CoRR.weak." + sp, "cta", space, [["st x 1"], ["ld r0 x", "ld r1 x"]], allow=["1:r0=1 1:r1=0"],
        why="sequential consistency per location binds only morally strong accesses (location_sc: strong[com] + po_loc)")
    add("CoRR.relaxed." + sp, "cta", space, [["st.relaxed.gpu x 1"], ["ld.relaxed.gpu r0 x", "ld.relaxed.gpu r1 x"]], forbid=["1:r0=1 1:r1=0"],
        why="location_sc for morally strong accesses")
    add("CoWR." + sp, "cta", space, [["st x 1", "ld r0 x"], ["st x 2"]], forbid=["0:r0=0"],
        why="a thread's own accesses are morally strong with each other: location_sc (po_loc)")
    # ---- WRC, IRIW
    add("WRC.weak." + sp, "cta", space, [["st x 1"], ["ld r0 x", "st y 1"], ["ld r1 y", "ld r2 x"]], allow=["1:r0=1 2:r1=1 2:r2=0"],
        why="no synchronisation anywhere")
    add("WRC.rel-acq." + sp, "cta", space, [["st.relaxed.gpu x 1"], ["ld.relaxed.gpu r0 x", "st.release.gpu y 1"],
                                            ["ld.acquire.gpu r1 y", "ld.relaxed.gpu r2 x"]],
        forbid=["1:r0=1 2:r1=1 2:r2=0"], why="cumulativity: st x is observed by T1 (strong rf), then cause (observation.cause_base)")
    iriw = lambda w, r, f=(): [["st%s x 1" % w], ["st%s y 1" % w], ["ld%s r0 x" % r] + list(f) + ["ld%s r1 y" % r],
                               ["ld%s r2 y" % r] + list(f) + ["ld%s r3 x" % r]]
    add("IRIW.weak." + sp, "cta", space, iriw("", ""), allow=["2:r0=1 2:r1=0 3:r2=1 3:r3=0"], why="PTX is not multi-copy atomic")
    add("IRIW.relaxed." + sp, "cta", space, iriw(".relaxed.gpu", ".relaxed.gpu"), allow=["2:r0=1 2:r1=0 3:r2=1 3:r3=0"],
        why="location_sc is per location; nothing orders the two reads")
    add("IRIW.acquire." + sp, "cta", space, iriw(".relaxed.gpu", ".acquire.gpu"), allow=["2:r0=1 2:r1=0 3:r2=1 3:r3=0"],
        why="the writes are not releases: an acquire of them synchronises with nothing")
    add("IRIW.acqrel-fences." + sp, "cta", space, iriw(".relaxed.gpu", ".relaxed.gpu", ["fence.acq_rel.gpu"]),
        allow=["2:r0=1 2:r1=0 3:r2=1 3:r3=0"], why="acq_rel fences need a release pattern to synchronise with")
    add("IRIW.sc-fences." + sp, "cta", space, iriw(".relaxed.gpu", ".relaxed.gpu", ["fence.sc.gpu"]),
        forbid=["2:r0=1 2:r1=0 3:r2=1 3:r3=0"], why="fence-SC order between the readers' fences; the writes are observed (strong rf)")

# ---- across CTAs (global memory): scopes
g = "global"
add("MP.rel-acq.cta.grid", "grid", g, mp(["st.release.cta y 1"], ["ld.acquire.cta r0 y"]), allow=["1:r0=1 1:r1=0"],
    why=".cta release/acquire in different CTAs are not morally strong: no sync")
add("MP.rel-acq.gpu.grid", "grid", g, mp(["st.release.gpu y 1"], ["ld.acquire.gpu r0 y"]), forbid=["1:r0=1 1:r1=0"],
    why=".gpu release/acquire synchronise across CTAs")
add("MP.rel.gpu-acq.cta.grid", "grid", g, mp(["st.release.gpu y 1"], ["ld.acquire.cta r0 y"]), allow=["1:r0=1 1:r1=0"],
    why="the acquire's scope (its CTA) does not include the releasing thread: not morally strong")
add("MP.rel.cta-acq.gpu.grid", "grid", g, mp(["st.release.cta y 1"], ["ld.acquire.gpu r0 y"]), allow=["1:r0=1 1:r1=0"],
    why="the release's scope does not include the acquiring thread")
add("MP.membar.cta.grid", "grid", g, mp(["membar.cta", "st.volatile y 1"], ["ld.volatile r0 y", "membar.cta"]), allow=["1:r0=1 1:r1=0"],
    why="fence.sc.cta orders nothing for another CTA")
add("MP.membar.gl.grid", "grid", g, mp(["membar.gl", "st.volatile y 1"], ["ld.volatile r0 y", "membar.gl"]), forbid=["1:r0=1 1:r1=0"],
    why="membar.gl is fence.sc.gpu: release and acquire patterns across CTAs (the legacy __threadfence idiom)")
add("MP.weak.grid", "grid", g, mp(["st y 1"], ["ld r0 y"]), allow=["1:r0=1 1:r1=0"], why="no synchronisation")
add("MP.atom.gpu.grid", "grid", g, mp(["atom.release.gpu.exch r2 y 1"], ["atom.acquire.gpu.add r0 y 0"]), forbid=["1:r0=1 1:r1=0"],
    why="release and acquire atomics at .gpu synchronise")
add("MP.atom.cta.grid", "grid", g, mp(["atom.release.cta.exch r2 y 1"], ["atom.acquire.cta.add r0 y 0"]), allow=["1:r0=1 1:r1=0", "1:r0=0 y=0"],
    why=".cta atomics in different CTAs are not morally strong: no sync, and no atomicity between them (the add may read 0 "
        "and write it after the exch)")
add("SB.membar.cta.grid", "grid", g, sb("", ["membar.cta"], ""), allow=["0:r0=0 1:r1=0"], why="fence.sc.cta in different CTAs: no fence-SC order")
add("SB.membar.gl.grid", "grid", g, sb("", ["membar.gl"], ""), forbid=["0:r0=0 1:r1=0"], why="fence.sc.gpu: fence-SC order")
add("LB.relaxed.grid", "grid", g, lb(".relaxed.gpu", ".relaxed.gpu"), allow=["0:r0=1 1:r1=1"], why="no dependency")
add("IRIW.sc-fences.cta.grid", "grid", g, iriw(".relaxed.gpu", ".relaxed.gpu", ["fence.sc.cta"]), allow=["2:r0=1 2:r1=0 3:r2=1 3:r3=0"],
    why=".cta fences of readers in different CTAs are not in fence-SC order")
add("IRIW.sc-fences.gpu.grid", "grid", g, iriw(".relaxed.gpu", ".relaxed.gpu", ["fence.sc.gpu"]), forbid=["2:r0=1 2:r1=0 3:r2=1 3:r3=0"],
    why="fence-SC order at .gpu")
add("CoRR.relaxed.cta.grid", "grid", g, [["st.relaxed.cta x 1"], ["ld.relaxed.cta r0 x", "ld.relaxed.cta r1 x"]], allow=["1:r0=1 1:r1=0"],
    why=".cta accesses of different CTAs are not morally strong: location_sc does not bind them")
add("CoRR.relaxed.gpu.grid", "grid", g, [["st.relaxed.gpu x 1"], ["ld.relaxed.gpu r0 x", "ld.relaxed.gpu r1 x"]], forbid=["1:r0=1 1:r1=0"],
    why="location_sc")
add("2+2W.weak.grid", "grid", g, [["st x 1", "st y 2"], ["st y 1", "st x 2"]], allow=["x=1 y=1"], why="stores to different locations are unordered")
add("2+2W.relaxed", "cta", g, [["st.relaxed.gpu x 1", "st.relaxed.gpu y 2"], ["st.relaxed.gpu y 1", "st.relaxed.gpu x 2"]], allow=["x=1 y=1"],
    why="coherence orders writes only along cause; po alone is not in cause")
add("2+2W.membar.gl.grid", "grid", g, [["st x 1", "membar.gl", "st y 2"], ["st y 1", "membar.gl", "st x 2"]], forbid=["x=1 y=1"],
    why="fence-SC order puts one thread's first store in cause before the other's second (coherence)")
add("ATOM.add.cta.grid", "grid", g, [["atom.relaxed.cta.add r0 x 1"], ["atom.relaxed.cta.add r0 x 1"]], allow=["x=1 0:r0=0 1:r0=0"],
    why="atomicity binds only morally strong RMWs: .cta atomics of different CTAs may both read 0")
add("ATOM.add.gpu.grid", "grid", g, [["atom.relaxed.gpu.add r0 x 1"], ["atom.relaxed.gpu.add r0 x 1"]], forbid=["x=1 0:r0=0 1:r0=0"],
    why="atomicity of morally strong RMWs")
add("ATOM.add.cta", "cta", g, [["atom.relaxed.cta.add r0 x 1"], ["atom.relaxed.cta.add r0 x 1"]], forbid=["x=1 0:r0=0 1:r0=0"],
    why="atomicity: .cta RMWs of one CTA are morally strong")
add("WRC.rel-acq.grid", "grid", g, [["st.relaxed.gpu x 1"], ["ld.relaxed.gpu r0 x", "st.release.gpu y 1"],
                                     ["ld.acquire.gpu r1 y", "ld.relaxed.gpu r2 x"]],
    forbid=["1:r0=1 2:r1=1 2:r2=0"], why="cumulativity across CTAs at .gpu")

# The litmus-sized cores of the tinylock rewrites (issue 23): each kept
# rewrite's ordering, and the narrowed one the pass no longer emits.
# (the lock word y starts 0 = held by T0; 1 = free: a thread that
# exchanges 0 into it and reads 1 took the lock)
add("core.spinlock.gpu.grid", "grid", g, [["st x 1", "st.release.gpu y 1"], ["atom.acquire.gpu.exch r0 y 0", "ld r1 x"]],
    forbid=["1:r0=1 1:r1=0"],
    why="the upgraded lock handed over across CTAs: the holder's critical-section store, its st.release.gpu; the next "
        "owner's acquire exchange finds the lock free, then must see the store (release/acquire at .gpu synchronise)")
add("core.spinlock.cta-narrowed.grid", "grid", g, [["st x 1", "st.release.cta y 1"], ["atom.acquire.cta.exch r0 y 0", "ld r1 x"]],
    allow=["1:r0=1 1:r1=0", "1:r0=0 y=0"],
    why="the class-5 rewrite (the lock narrowed to the fences' .cta scope): across CTAs nothing synchronises, and the "
        "exchange is not atomic against the release (it may miss it and leave the lock held: y=0)")
add("core.channel.cta", "cta", "shared", [["st x 1", "st.release.cta y 1"], ["ld.acquire.cta r0 y", "ld r1 x"]], forbid=["1:r0=1 1:r1=0"],
    why="the barrier channel and the lock-as-flag wait: producer store, st.release.cta of the flag; consumer ld.acquire.cta, load")

LOCS = {"x": 0, "y": 128, "z": 256}


# ------------------------------------------------------------ PTX
def ptx(t):
    n = len(t.threads)
    L = [".version 8.0", ".target sm_80", ".address_size 64", "",
         ".visible .entry lit(.param .u64 out, .param .u64 mem)", "{",
         "\t.reg .b32 %r<64>;", "\t.reg .b64 %rd<64>;", "\t.reg .pred %p<16>;",
         "\t.shared .align 8 .b32 sm[96];",
         "\tld.param.u64 %rd1, [out];", "\tcvta.to.global.u64 %rd1, %rd1;",
         "\tld.param.u64 %rd2, [mem];", "\tcvta.to.global.u64 %rd2, %rd2;",
         "\tmov.u32 %r1, %tid.x;", "\tmov.u32 %r2, %ctaid.x;"]
    if t.space == "shared":
        L += ["\tsetp.ne.u32 %p1, %r1, 0;", "\t@%p1 bra $init_done;"]
        for k in range(96):
            L.append("\tst.shared.u32 [sm+%d], 0;" % (4 * k))
        L += ["$init_done:", "\tbar.sync 0;"]
    if t.place == "cta":
        L += ["\tand.b32 %r3, %r1, 31;", "\tshr.u32 %r4, %r1, 5;"]
    else:
        L += ["\tmov.u32 %r3, %r1;", "\tmov.u32 %r4, %r2;"]
    L += ["\tsetp.ne.u32 %p2, %r3, 0;", "\t@%p2 bra $done;"]
    for i in range(n):
        L += ["\tsetp.eq.u32 %%p3, %%r4, %d;" % i, "\t@%%p3 bra $t%d;" % i]
    L.append("\tbra.uni $done;")
    for i, th in enumerate(t.threads):
        L.append("$t%d:" % i)
        for k in range(4):
            L.append("\tmov.u32 %%r%d, 0;" % (10 + k))
        for ins in th:
            L += ["\t" + x for x in instr(ins, t.space)]
        for k in range(4):
            L.append("\tst.global.u32 [%%rd1+%d], %%r%d;" % (4 * (4 * i + k), 10 + k))
        L.append("\tbra.uni $done;")
    L += ["$done:", "\tret;", "}"]
    return "\n".join(L) + "\n"


def reg(r):
    return "%%r%d" % (10 + int(r[1:]))


def addr(loc, space, dep=None):
    off = LOCS[loc]
    if dep is None:
        return [], ("[sm+%d]" % off) if space == "shared" else ("[%%rd2+%d]" % off)
    # LOC + (dep & 0): an address that depends on dep's value
    if space == "shared":
        return (["and.b32 %%r40, %s, 0;" % reg(dep), "mov.u32 %r41, sm;", "add.s32 %r41, %r41, %r40;"], "[%%r41+%d]" % off)
    return (["and.b32 %%r40, %s, 0;" % reg(dep), "cvt.u64.u32 %rd40, %r40;", "add.s64 %rd41, %rd2, %rd40;"], "[%%rd41+%d]" % off)


def sem_mods(sem):
    return "" if not sem else "." + sem


def instr(ins, space):
    w = ins.split()
    op = w[0]
    sp = "." + space
    if op.startswith("fence") or op.startswith("membar"):
        return [op + ";"]
    m = re.match(r"st(?:\.dep\((r\d)\))?((?:\.\w+)*)$", op)
    if m and op.startswith("st"):
        pre, a = addr(w[1], space, m.group(1))
        return pre + ["st%s%s.u32 %s, %s;" % (m.group(2), sp, a, w[2])]
    if op.startswith("ld"):
        pre, a = addr(w[2], space)
        return pre + ["ld%s%s.u32 %s, %s;" % (op[2:], sp, reg(w[1]), a)]
    if op.startswith("atom"):
        parts = op.split(".")
        o = parts[-1]
        mods = "".join("." + p for p in parts[1:-1])
        pre, a = addr(w[2], space)
        return pre + ["atom%s%s.%s.%s %s, %s, %s;" % (mods, sp, o, "b32" if o == "exch" else "u32", reg(w[1]), a, w[3])]
    raise SystemExit("litmus.py: cannot read instruction %r" % ins)


# -------------------------------------------------------- SC outcomes
def sc_outcomes(t):
    """Every outcome of every interleaving (fences are no-ops under SC)."""
    n = len(t.threads)
    outs = set()
    idx = [list(range(len(th))) for th in t.threads]
    seq = [i for i, th in enumerate(t.threads) for _ in th]
    for order in set(itertools.permutations(seq)):
        mem = {"x": 0, "y": 0, "z": 0}
        regs = [{} for _ in range(n)]
        pcs = [0] * n
        for th in order:
            ins = t.threads[th][pcs[th]].split()
            pcs[th] += 1
            op = ins[0]
            if op.startswith("st"):
                mem[ins[1]] = int(ins[2])
            elif op.startswith("ld"):
                regs[th][ins[1]] = mem[ins[2]]
            elif op.startswith("atom"):
                old = mem[ins[2]]
                regs[th][ins[1]] = old
                mem[ins[2]] = int(ins[3]) if op.endswith("exch") else old + int(ins[3])
        outs.add(outcome_key(t, regs, mem))
    del idx
    return outs


def outcome_key(t, regs, mem):
    d = {}
    for i in range(len(t.threads)):
        for k in range(4):
            d["%d:r%d" % (i, k)] = regs[i].get("r%d" % k, 0)
    if t.space == "global":
        for loc in LOCS:
            d[loc] = mem[loc]
    return tuple(sorted(d.items()))


def matches(key, cond):
    d = dict(key)
    return all(d.get(k) == v for k, v in cond.items())


# ------------------------------------------------------------ running
def run(emu, t, path, memory, seeds, seed0):
    n = len(t.threads)
    launch = ["--grid=1", "--block=%d" % (32 * n)] if t.place == "cta" else ["--grid=%d" % n, "--block=32"]
    argv = [emu, path, "--kernel=lit", "-q", "--memory=" + memory, "--outcomes=%d" % seeds, "--seed=%d" % seed0,
            "--arg=buf:u32:%d:zeros" % (4 * n), "--arg=buf:u32:96:zeros", "--dump=0", "--dump=1"] + launch
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise SystemExit("litmus.py: %s failed:\n%s" % (" ".join(argv), r.stdout))
    got = {}
    for line in r.stdout.splitlines()[1:]:
        cnt, text = line.strip().split(None, 1)
        outv, memv = text.split("|")
        ov = [int(v) for v in outv.split()]
        mv = [int(v) for v in memv.split()]
        regs = [dict(("r%d" % k, ov[4 * i + k]) for k in range(4)) for i in range(n)]
        mem = dict((loc, mv[off // 4]) for loc, off in LOCS.items())
        key = outcome_key(t, regs, mem)
        got[key] = got.get(key, 0) + int(cnt)
    return got


def show(key, t):
    d = dict(key)
    return " ".join("%s=%d" % (k, v) for k, v in d.items() if k in {c for cond in t.allow + t.forbid for c in cond} or False) or \
        " ".join("%s=%d" % kv for kv in key if kv[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--emu")
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=".")
    ap.add_argument("--work", default="litmus.work")
    ap.add_argument("--ptx", metavar="NAME")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("-v", action="store_true")
    # checks that the checker can fail (litmus.test)
    ap.add_argument("--weak-as", default="weak", help="the --memory of the weak runs (sc: every allowed weak outcome is missed)")
    ap.add_argument("--flip", action="store_true", help="state every allowed weak outcome as forbidden")
    a = ap.parse_args()
    if a.flip:
        for t in TESTS:
            t.allow, t.forbid = [], t.forbid + t.allow
    tests = [t for t in TESTS if re.search(a.only, t.name)]
    if a.ptx:
        t = next((t for t in TESTS if t.name == a.ptx), None)
        if not t:
            sys.exit("litmus.py: no test %s" % a.ptx)
        sys.stdout.write(ptx(t))
        return
    if a.list:
        for t in tests:
            print("%-28s %-5s %-6s allow %-34s forbid %-34s  %s" % (
                t.name, t.place, t.space, ";".join(" ".join("%s=%d" % kv for kv in c.items()) for c in t.allow) or "-",
                ";".join(" ".join("%s=%d" % kv for kv in c.items()) for c in t.forbid) or "-", t.why))
        return
    if not a.emu:
        sys.exit("litmus.py: --emu=PTXOPT_EMU is needed")
    os.makedirs(a.work, exist_ok=True)
    bad = 0
    seen_weak = total_weak = 0
    noutcomes = 0
    for t in tests:
        path = os.path.join(a.work, re.sub(r"[^\w.+-]", "_", t.name) + ".ptx")
        with open(path, "w") as f:
            f.write(ptx(t))
        sc = sc_outcomes(t)
        for cond in t.allow + t.forbid:
            if any(matches(k, cond) for k in sc):
                sys.exit("litmus.py: %s: outcome %s is SC (a bad test)" % (t.name, cond))
        got_sc = run(a.emu, t, path, "sc", a.seeds, a.seed)
        got_wk = run(a.emu, t, path, a.weak_as, a.seeds, a.seed)
        problems = []
        for k in got_sc:
            if k not in sc:
                problems.append("SC mode gave a non-SC outcome: %s" % show(k, t))
        for k, c in got_wk.items():
            if k in sc:
                continue
            if any(matches(k, f) for f in t.forbid):
                problems.append("weak mode gave the forbidden outcome %s (%d times)" % (show(k, t), c))
            elif not any(matches(k, al) for al in t.allow):
                problems.append("weak mode gave a non-SC outcome the test does not allow: %s (%d times)" % (show(k, t), c))
        weak_counts = []
        for al in t.allow:
            c = sum(v for k, v in got_wk.items() if matches(k, al))
            weak_counts.append(c)
            total_weak += 1
            if c == 0:
                problems.append("weak mode never gave the allowed outcome %s in %d seeds" % (al, a.seeds))
            else:
                seen_weak += 1
        noutcomes += len(set(got_wk) | set(got_sc))
        status = "FAIL" if problems else "ok"
        bad += bool(problems)
        desc = ("allowed weak outcome seen %s/%d" % ("+".join(map(str, weak_counts)), a.seeds)) if t.allow else \
            "forbidden outcome absent"
        print("%-4s %-30s sc %d outcome(s), weak %d outcome(s); %s" % (status, t.name, len(got_sc), len(got_wk), desc))
        for p in problems:
            print("     " + p)
        if a.v:
            for k, c in sorted(got_wk.items(), key=lambda kv: -kv[1]):
                print("       weak %6d  %s%s" % (c, show(k, t), "" if k in sc else "   (non-SC)"))
    print("litmus: %d tests, %d seeds each in both modes, %d distinct outcomes; %d of %d allowed weak outcomes seen; %d failed"
          % (len(tests), a.seeds, noutcomes, seen_weak, total_weak, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
