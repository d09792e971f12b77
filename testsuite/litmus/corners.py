#!/usr/bin/env python3
"""corners.py — litmus tests for the corners of ptxopt-emu's weak mode.

  corners.py --emu=PTXOPT_EMU [--seeds=N] [--only=REGEX] [-v]   (as litmus.py)

The classic shapes are in litmus.py; these are the corners an adversary
of the weak mode probes, written independently of that suite (each
expectation derived again from the sources, not from the emulator):
scopes that make a pair morally strong or not, one side weak, .gpu
within a CTA and .cta across CTAs; fence.sc against fence.acq_rel,
cumulativity (WRC, ISA2, RWC); the second and third forms of the release
and acquire patterns (a release then a strong write of the same
location, a strong read then an acquire of it); release sequences
through read-modify-writes of several CTAs; atomicity across scopes and
widths; coherence (CoRR, CoWW, CoRW, CoWR) with mixed scopes and with
atomics; barriers (bar.sync and bar.arrive as .cta release/acquire, a
thread that does not take part); volatile; sub-word and mixed-size
accesses; a location written more often than the emulator remembers;
and the litmus-sized cores of what the tinylock pass emits or refuses.

Sources, cited in each test as:
  ISA §N   the PTX ISA manual, chapter "Memory Consistency Model" (8.7
           morally strong operations, 8.7.2 mixed-size data-races, 8.8
           release and acquire patterns, 8.9.2 observation order, 8.9.3
           Fence-SC order, 8.9.4 memory synchronization, 8.9.5 causality
           order, 8.9.6 coherence order, 8.10.x the axioms: 1 coherence,
           2 Fence-SC, 3 atomicity, 4 no thin air, 5 SC per location,
           6 causality; 8.11.1 reductions), and 9.7.13.1 (barrier);
  als      Lustig, Sahasrabuddhe, Giroux, "A Formal Analysis of the NVIDIA
           PTX Memory Consistency Model", ASPLOS 2019, and its Alloy model
           ptx.als (NVlabs/ptxmemorymodel): the predicates no_thin_air,
           location_sc, atomicity, coherence, causality and the relations
           observation, prefix/suffix (the patterns), sync, cause;
           FenceRels and FenceAcqs include BarrierWait, and the paper's
           §3.4.2 says barrier synchronisation has the effect of
           release/acquire at .cta scope.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import litmus  # noqa: E402

T = litmus.T
TESTS = []


def add(*a, **k):
    TESTS.append(T(*a, **k))


def mp(w, r, data="st x 1", rd="ld r1 x"):
    return [[data] + w, r + [rd]]


MPW = "1:r0=1 1:r1=0"          # MP's weak outcome: the flag seen, the data not

# ---------------------------------------------------------------- scopes
for space in ("shared", "global"):
    s = space[0]
    add("MS.rel.cta-acq.gpu." + s, "cta", space, mp(["st.release.cta y 1"], ["ld.acquire.gpu r0 y"]), forbid=[MPW],
        why="ISA 8.7: one CTA, so each scope includes the other thread: morally strong; 8.9.4 sync, 8.10.6 causality")
    add("MS.rel.gpu-acq.cta." + s, "cta", space, mp(["st.release.gpu y 1"], ["ld.acquire.cta r0 y"]), forbid=[MPW],
        why="ISA 8.7: .gpu within a CTA is morally strong with .cta; sync")
    add("MS.fence.gpu-fence.cta." + s, "cta", space,
        mp(["fence.acq_rel.gpu", "st.relaxed.cta y 1"], ["ld.relaxed.gpu r0 y", "fence.acq_rel.cta"]), forbid=[MPW],
        why="ISA 8.8: fence + strong write, strong read + fence; the fences (first and last operations) are morally strong in one CTA")
    add("MP.volatile." + s, "cta", space, mp(["st.volatile y 1"], ["ld.volatile r0 y"]), allow=[MPW],
        why="ISA 8.4.2: volatile is relaxed.sys, neither a release nor an acquire: no pattern, no sync")
    add("CoRR.volatile." + s, "cta", space, [["st.volatile x 1"], ["ld.volatile r0 x", "ld.volatile r1 x"]], forbid=[MPW],
        why="ISA 8.10.5 SC per location: volatile accesses are strong (relaxed.sys), pairwise morally strong")
    add("CoRR.mixed.cta-gpu." + s, "cta", space, [["st.relaxed.cta x 1"], ["ld.relaxed.gpu r0 x", "ld.relaxed.gpu r1 x"]],
        forbid=[MPW], why="ISA 8.7: .cta and .gpu in one CTA are morally strong; 8.10.5 (als location_sc)")
    add("CoRR.weak-writer." + s, "cta", space, [["st x 1"], ["ld.relaxed.gpu r0 x", "ld.relaxed.gpu r1 x"]], allow=[MPW],
        why="ISA 8.7: a weak write is morally strong with no other thread's access: 8.10.5 does not bind (als strong[com])")
    add("CoRR.strong-then-weak." + s, "cta", space, [["st.relaxed.gpu x 1"], ["ld.relaxed.gpu r0 x", "ld r1 x"]],
        forbid=[MPW], why="ISA 8.9.5: W precedes R1 in observation order and R1 R2 in program order, so W precedes R2 in "
                          "causality order; 8.10.6 causality (als cause: observation.po_loc)")
    add("CoRR.weak-then-strong." + s, "cta", space, [["st.relaxed.gpu x 1"], ["ld r0 x", "ld.relaxed.gpu r1 x"]],
        allow=[MPW], why="a weak read observes nothing (ISA 8.9.2 needs morally strong); the cycle W->R1->R2->W has a weak edge")
    add("CoWW.relaxed." + s, "cta", space, [["st.relaxed.gpu x 1", "st.relaxed.gpu x 2"],
                                            ["ld.relaxed.gpu r0 x", "ld.relaxed.gpu r1 x"]],
        forbid=["1:r0=2 1:r1=1"], why="ISA 8.10.5: the writes are in coherence order as in program order (SC per location)")
    add("CoWW.weak." + s, "cta", space, [["st x 1", "st x 2"], ["ld.relaxed.gpu r0 x", "ld.relaxed.gpu r1 x"]],
        allow=["1:r0=2 1:r1=1"], maybe=["1:r1=0"],
        why="weak writes are not morally strong with the reads: no observation, no SC per location")
    add("CoRW1.weak." + s, "cta", space, [["ld r0 x", "st x 1"]], forbid=["0:r0=1"],
        why="ISA 8.7: a thread's own accesses are morally strong (program order); 8.10.5, and 8.10.4 no thin air")
    add("CoRR.atom." + s, "cta", space, [["st.relaxed.gpu x 1"], ["atom.relaxed.gpu.add r0 x 0", "ld.relaxed.gpu r1 x"]],
        forbid=[MPW], why="ISA 8.10.5: the atomic's read and the load are morally strong with the write")
    add("CoWR.atom." + s, "cta", space, [["atom.relaxed.gpu.exch r0 x 1", "ld r1 x"], ["st.relaxed.gpu x 2"]],
        forbid=["0:r1=0"], why="ISA 8.9.5: the exchange precedes the load in program order (base causality); 8.10.6")

g = "global"
add("CoRR.mixed.gpu-cta.grid", "grid", g, [["st.relaxed.gpu x 1"], ["ld.relaxed.cta r0 x", "ld.relaxed.cta r1 x"]], allow=[MPW],
    why="ISA 8.7: the readers' .cta scope excludes the writer's CTA: not morally strong, 8.10.5 does not bind")
add("CoRR.mixed.cta-gpu.grid", "grid", g, [["st.relaxed.cta x 1"], ["ld.relaxed.gpu r0 x", "ld.relaxed.gpu r1 x"]], allow=[MPW],
    why="ISA 8.7: the writer's .cta scope excludes the readers: not morally strong")
add("CoRR.volatile-vs-cta.grid", "grid", g, [["st.relaxed.cta x 1"], ["ld.volatile r0 x", "ld.volatile r1 x"]], allow=[MPW],
    why="ISA 8.7: volatile is .sys but the write's .cta scope does not include the reader")
add("CoRW2.relaxed.grid", "grid", g, [["ld.relaxed.gpu r0 x", "st.relaxed.gpu x 1"], ["st.relaxed.gpu x 2"]],
    forbid=["0:r0=2 x=2"], why="ISA 8.10.5: T0 read the 2, so its later write of 1 follows it in coherence order (final x = 1)")
add("MS.fence.cta-tail.grid", "grid", g, mp(["fence.acq_rel.gpu", "st.relaxed.gpu y 1"], ["ld.relaxed.gpu r0 y", "fence.acq_rel.cta"]),
    allow=[MPW], why="ISA 8.9.4: the first operation of the release pattern and the last of the acquire pattern must be morally "
                     "strong; the .cta fence's scope excludes T0")
add("MS.fence.cta-head.grid", "grid", g, mp(["fence.acq_rel.cta", "st.relaxed.gpu y 1"], ["ld.relaxed.gpu r0 y", "fence.acq_rel.gpu"]),
    allow=[MPW], why="ISA 8.9.4: the release pattern's fence is .cta, its scope excludes T1")
add("MS.flag.cta.grid", "grid", g, mp(["fence.acq_rel.gpu", "st.relaxed.cta y 1"], ["ld.relaxed.gpu r0 y", "fence.acq_rel.gpu"]),
    allow=[MPW], why="ISA 8.9.2: the flag's write (.cta) and read are not morally strong: no observation, however wide the fences")
add("MP.rel-acq.sys.grid", "grid", g, mp(["st.release.sys y 1"], ["ld.acquire.sys r0 y"]), forbid=[MPW],
    why="ISA 8.8, 8.9.4: release/acquire at .sys synchronise across CTAs")
add("MS.gpu-rel.older.grid", "grid", g, [["st x 1", "fence.acq_rel.gpu", "st z 1", "fence.acq_rel.cta", "st.relaxed.gpu y 1"],
                                         ["ld.acquire.gpu r0 y", "ld r1 x", "ld r2 z"]],
    forbid=["1:r0=1 1:r1=0"], maybe=["1:r0=1 1:r2=0"],
    why="ISA 8.8: the .gpu fence + the flag store is a release pattern for the writes before the .gpu fence only; the .cta "
        "fence's pattern is not morally strong with T1 (z may be stale)")

# ---------------------------------------------------------------- fences
for space in ("shared", "global"):
    s = space[0]
    sb = lambda f0, f1: [["st x 1", f0, "ld r0 y"], ["st y 1", f1, "ld r1 x"]]
    SBW = "0:r0=0 1:r1=0"
    add("SB.sc-acqrel." + s, "cta", space, sb("fence.sc.gpu", "fence.acq_rel.gpu"), allow=[SBW],
        why="ISA 8.9.3: Fence-SC order relates fence.sc operations only; fence.acq_rel needs an observation to synchronise")
    add("SB.sc.cta-gpu." + s, "cta", space, sb("fence.sc.cta", "fence.sc.gpu"), forbid=[SBW],
        why="ISA 8.9.3: .cta and .gpu fence.sc in one CTA are morally strong, so ordered in Fence-SC order; 8.10.6")
    add("RWC.sc." + s, "cta", space, [["st.relaxed.gpu x 1"], ["ld.relaxed.gpu r0 x", "fence.sc.gpu", "ld r1 y"],
                                      ["st y 1", "fence.sc.gpu", "ld r2 x"]],
        forbid=["1:r0=1 1:r1=0 2:r2=0"],
        why="ISA 8.9.5: observation then Fence-SC order (cumulativity): whichever fence is first, a later read sees the write")
    add("RWC.acqrel." + s, "cta", space, [["st.relaxed.gpu x 1"], ["ld.relaxed.gpu r0 x", "fence.acq_rel.gpu", "ld r1 y"],
                                          ["st y 1", "fence.acq_rel.gpu", "ld r2 x"]],
        allow=["1:r0=1 1:r1=0 2:r2=0"], why="fence.acq_rel: no Fence-SC order, and no write-read synchronisation (as SB)")
    add("WRC.fences." + s, "cta", space, [["st.relaxed.gpu x 1"], ["ld.relaxed.gpu r0 x", "fence.acq_rel.gpu", "st.relaxed.gpu y 1"],
                                          ["ld.relaxed.gpu r1 y", "fence.acq_rel.gpu", "ld r2 x"]],
        forbid=["1:r0=1 2:r1=1 2:r2=0"], why="ISA 8.9.5: x observed by T1 (strong read), T1's release pattern synchronises "
                                             "with T2's acquire pattern: cumulativity (als observation.cause_base)")
    add("WRC.weak-read." + s, "cta", space, [["st x 1"], ["ld r0 x", "fence.acq_rel.gpu", "st.relaxed.gpu y 1"],
                                             ["ld.relaxed.gpu r1 y", "fence.acq_rel.gpu", "ld r2 x"]],
        maybe=["1:r0=1 2:r1=1 2:r2=0"], why="the weak write is observed by nobody (ISA 8.9.2): the emulator counts it as observed")
    add("ISA2.rel-acq." + s, "cta", space, [["st x 1", "st.release.gpu y 1"], ["ld.acquire.gpu r0 y", "st.release.gpu z 1"],
                                            ["ld.acquire.gpu r1 z", "ld r2 x"]],
        forbid=["1:r0=1 2:r1=1 2:r2=0"], why="ISA 8.9.5: base causality order is transitive")

add("WRC.fences.grid", "grid", g, [["st.relaxed.gpu x 1"], ["ld.relaxed.gpu r0 x", "fence.acq_rel.gpu", "st.relaxed.gpu y 1"],
                                   ["ld.relaxed.gpu r1 y", "fence.acq_rel.gpu", "ld r2 x"]],
    forbid=["1:r0=1 2:r1=1 2:r2=0"], why="ISA 8.9.5: cumulativity at .gpu across CTAs")
add("WRC.cta-link.grid", "0,0,1", g, [["st.relaxed.gpu x 1"], ["ld.relaxed.gpu r0 x", "fence.acq_rel.cta", "st.relaxed.gpu y 1"],
                                      ["ld.relaxed.gpu r1 y", "fence.acq_rel.gpu", "ld r2 x"]],
    allow=["1:r0=1 2:r1=1 2:r2=0"], why="ISA 8.9.4: T1's .cta fence and T2's fence (another CTA) are not morally strong: no sync")
add("ISA2.cta-link.grid", "0,0,1", g, [["st x 1", "st.release.gpu y 1"], ["ld.acquire.gpu r0 y", "st.release.cta z 1"],
                                       ["ld.acquire.gpu r1 z", "ld r2 x"]],
    allow=["1:r0=1 2:r1=1 2:r2=0"], why="ISA 8.9.4: the second link (.cta release, reader in another CTA) does not synchronise")
add("SB.sc.cta-gpu.grid", "grid", g, [["st x 1", "fence.sc.cta", "ld r0 y"], ["st y 1", "fence.sc.gpu", "ld r1 x"]],
    allow=["0:r0=0 1:r1=0"], why="ISA 8.9.3: a .cta fence.sc and one in another CTA are not morally strong: no Fence-SC order")
add("IRIW.weak-writes.sc.grid", "grid", g, [["st x 1"], ["st y 1"], ["ld r0 x", "fence.sc.gpu", "ld r1 y"],
                                            ["ld r2 y", "fence.sc.gpu", "ld r3 x"]],
    maybe=["2:r0=1 2:r1=0 3:r2=1 3:r3=0"],
    why="weak writes are observed by nobody, so Fence-SC order between the readers orders nothing about them; the emulator "
        "counts weak reads as observations")

# ------------------------------------------- release and acquire patterns
for space in ("shared", "global"):
    s = space[0]
    add("REL.then-relaxed." + s, "cta", space, mp(["st.release.gpu y 1", "st.relaxed.gpu y 2"], ["ld.acquire.gpu r0 y"]),
        forbid=["1:r0=2 1:r1=0"], why="ISA 8.8: a release operation on M followed by a strong write on M is a release pattern "
                                      "(als prefix: Release;po_loc;Write)")
    add("REL.then-rmw." + s, "cta", space, mp(["st.release.gpu y 1", "atom.relaxed.gpu.exch r2 y 2"], ["ld.acquire.gpu r0 y"]),
        forbid=["1:r0=2 1:r1=0"], why="ISA 8.8: the strong write of the pattern may be an atomic")
    add("REL.then-relaxed.other-loc." + s, "cta", space, mp(["st.release.gpu y 1", "st.relaxed.gpu z 1"],
                                                            ["ld.acquire.gpu r0 z"]),
        allow=[MPW], why="ISA 8.8: the pattern needs the strong write on the release's location; z is not y")
    add("ACQ.relaxed-then-acq." + s, "cta", space, [["st x 1", "st.release.gpu y 1"], ["st.relaxed.gpu y 2"],
                                                    ["ld.relaxed.gpu r0 y", "ld.acquire.gpu r1 y", "ld r2 x"]],
        forbid=["2:r0=1 2:r2=0"], maybe=["2:r2=0"],
        why="ISA 8.8: a strong read of M followed by an acquire of M is an acquire pattern (als suffix: Read;po_loc;Acquire), "
            "whatever the acquire reads")
    add("ACQ.relaxed-then-acq.other-loc." + s, "cta", space, [["st x 1", "st.release.gpu y 1"],
                                                              ["ld.relaxed.gpu r0 y", "ld.acquire.gpu r1 z", "ld r2 x"]],
        allow=["1:r0=1 1:r2=0"], why="ISA 8.8: the acquire must be on the location read; z is not y")


add("ACQ.red-fence", "cta", g, [["st x 1", "st.release.gpu y 1"], ["red.relaxed.gpu.add y 1", "fence.acq_rel.gpu", "ld r1 x"]],
    allow=["1:r1=0 y=2"],
    why="ISA 8.11.1: a reduction's read does not form an acquire pattern (the manual's MP with red: r1 == 0 AND flag == 2)")
add("2+2W.release.grid", "grid", g, [["st.release.gpu x 1", "st.release.gpu y 2"], ["st.release.gpu y 1", "st.release.gpu x 2"]],
    maybe=["x=1 y=1"], why="no read, so no synchronisation: coherence orders the writes only along causality (ISA 8.9.6, "
                           "8.10.1); the emulator performs release stores at once, in program order")
add("RSEQ.rmw-chain.grid", "grid", g, [["st x 1", "st.release.gpu y 1"], ["atom.relaxed.gpu.add r0 y 1"],
                                       ["atom.relaxed.gpu.add r0 y 1"], ["ld.acquire.gpu r0 y", "ld r1 x"]],
    forbid=["1:r0=1 2:r0=2 3:r0=3 3:r1=0"], maybe=["3:r1=0"],
    why="ISA 8.9.2: observation order runs through atomics of other CTAs (als observation: ^(strong[rf] + rmw))")
add("RSEQ.two-ctas", "1,0,1,1", g, [["st x 1", "st.release.gpu y 1"], ["atom.release.gpu.add r0 y 1"],
                                    ["atom.relaxed.gpu.add r0 y 1"], ["ld.acquire.cta r0 y", "ld r1 x"]],
    forbid=["1:r0=1 2:r0=2 3:r0=3 3:r1=0"], maybe=["3:r1=0"],
    why="ISA 8.9.4: T0's release (CTA 1) reaches T3 (CTA 1) through RMWs of CTA 0 and CTA 1, each read morally strong; "
        "T0's release and T3's .cta acquire are in one CTA: morally strong, so they synchronise")
add("RSEQ.cta-acquirer.other-cta", "1,0,0", g, [["st x 1", "st.release.gpu y 1"], ["atom.relaxed.gpu.add r0 y 1"],
                                                ["ld.acquire.cta r0 y", "ld r1 x"]],
    allow=["1:r0=1 2:r0=2 2:r1=0"], maybe=["2:r1=0"],
    why="ISA 8.9.4: T2's .cta acquire does not include T0 (another CTA): the release and the acquire are not morally strong")

# ------------------------------------------------------------- atomicity
add("ATOM.cta+gpu.cta", "cta", g, [["atom.relaxed.cta.add r0 x 1"], ["atom.relaxed.gpu.add r0 x 1"]],
    forbid=["x=1"], why="ISA 8.10.3: in one CTA the .cta and .gpu atomics are morally strong (atomicity)")
add("ATOM.cta+gpu.grid", "grid", g, [["atom.relaxed.cta.add r0 x 1"], ["atom.relaxed.gpu.add r0 x 1"]],
    allow=["x=1"], why="ISA 8.10.3 litmus 2: atom.cta and atom.gpu in different CTAs: FINAL x == 1 OR x == 2")
add("ATOM.cas-lock.gpu.grid", "grid", g, [["atom.acquire.gpu.cas r0 y 0 1"], ["atom.acquire.gpu.cas r0 y 0 1"]],
    forbid=["0:r0=0 1:r0=0"], why="ISA 8.10.3: two .gpu CAS on one word: at most one reads the 0 (mutual exclusion)")
add("ATOM.cas-lock.cta.grid", "grid", g, [["atom.acquire.cta.cas r0 y 0 1"], ["atom.acquire.cta.cas r0 y 0 1"]],
    allow=["0:r0=0 1:r0=0"], why="ISA 8.10.3: .cta CAS of different CTAs are not morally strong: both may take the lock")
add("ATOM.vs-weak-store", "cta", g, [["atom.relaxed.gpu.add r0 x 1"], ["st x 5"]], maybe=["0:r0=0 x=1"],
    why="ISA 8.10.3: atomicity binds morally strong writes only; a weak store may fall between the RMW's read and write")
add("ATOM.mixed.cta", "cta", g, [["atom.relaxed.cta.add/64 r0 x 4294967297"], ["atom.relaxed.cta.add r0 x+4 1"]],
    forbid=["x+4=1"], why="ISA 8.7.2 atomicity of mixed-size RMW operations: overlapping atomics whose scopes include each "
                          "other are performed one after the other even when they overlap partially")
add("ATOM.mixed.gpu.grid", "grid", g, [["atom.relaxed.gpu.add/64 r0 x 4294967297"], ["atom.relaxed.gpu.add r0 x+4 1"]],
    forbid=["x+4=1"], why="ISA 8.7.2 (as ATOM.mixed.cta, .gpu across CTAs)")

# -------------------------------------------------------------- barriers
add("BAR.order", "cta", g, [["st x 1", "barrier.sync 1 64"], ["barrier.sync 1 64", "ld r0 x"]], forbid=["1:r0=0"],
    why="ISA 8.9.4: barrier.sync synchronizes with barrier.sync on the same barrier (a weak store before, a weak load after)")
add("BAR.SB", "cta", "shared", [["st x 1", "barrier.sync 1 64", "ld r0 y"], ["st y 1", "barrier.sync 1 64", "ld r1 x"]],
    forbid=["0:r0=0 1:r1=0"], why="ISA 8.9.4: the barrier orders each store before the other thread's load")
add("BAR.release", "cta", g, [["st x 1", "barrier.sync 1 64", "st.relaxed.cta y 1"], ["barrier.sync 1 64"],
                              ["ld.acquire.cta r0 y", "ld r1 x"]],
    forbid=["2:r0=1 2:r1=0"], why="als: a barrier wait is a release fence (FenceRels includes BarrierWait), so the strong store "
                                  "after it is a release pattern for T2 (not in the barrier); paper 3.4.2: .cta release/acquire")
add("BAR.release.other", "cta", g, [["st x 1", "barrier.sync 1 64"], ["barrier.sync 1 64", "st.relaxed.cta y 1"],
                                    ["ld.acquire.cta r0 y", "ld r1 x"]],
    forbid=["2:r0=1 2:r1=0"], why="als: T0's store, its arrival, T1's wait (synchronizes), T1's release pattern, T2's acquire")
add("BAR.arrive", "cta", g, [["st x 1", "barrier.arrive 1 64"], ["barrier.sync 1 64", "st.relaxed.cta y 1"],
                             ["ld.acquire.cta r0 y", "ld r1 x"]],
    forbid=["2:r0=1 2:r1=0"], why="ISA 8.9.4: bar.arrive synchronizes with bar.sync; als: the wait is a release fence")
add("BAR.release.grid", "0,0,1", g, [["st x 1", "barrier.sync 1 64"], ["barrier.sync 1 64", "st.relaxed.gpu y 1"],
                                     ["ld.acquire.gpu r0 y", "ld r1 x"]],
    allow=["2:r0=1 2:r1=0"], why="the barrier is .cta scope: its wait is not morally strong with a thread of another CTA")
add("BAR.cumul.gpu", "0,0,1", g, [["st x 1", "barrier.sync 1 64"], ["barrier.sync 1 64", "fence.acq_rel.gpu",
                                                                       "st.relaxed.gpu y 1"],
                                  ["ld.acquire.gpu r0 y", "ld r1 x"]],
    forbid=["2:r0=1 2:r1=0"], why="ISA 8.9.5: T0's store precedes T1's .gpu fence in base causality (through the barrier); "
                                  "cumulativity carries it to T2 in another CTA")

# ----------------------------------------------------------- mixed sizes
add("SUB.acq16", "grid", g, [["st z 1", "st.release.gpu/16 x 1"], ["st/16 x+2 5"], ["ld.acquire.gpu/16 r0 x", "ld r1 z"]],
    forbid=["2:r0=1 2:r1=0"], why="ISA 8.7: the 16-bit release and acquire overlap completely: morally strong; the store to the "
                                  "other half of the word overlaps neither (no mixed-size race); sync")
add("SUB.corr16", "grid", g, [["st.relaxed.gpu/16 x 1"], ["st/16 x+2 5"], ["ld.relaxed.gpu/16 r0 x", "ld.relaxed.gpu/16 r1 x"]],
    forbid=["2:r0=1 2:r1=0"], why="ISA 8.10.5: SC per location for the 16-bit accesses; the other half's store is no race")
add("SUB.bytes", "cta", g, [["st/8 x 1", "barrier.sync 1 128"], ["st/8 x+1 2", "barrier.sync 1 128"],
                            ["st/8 x+3 4", "barrier.sync 1 128"], ["barrier.sync 1 128", "ld r0 x"]],
    forbid=["3:r0=0", "3:r0=1", "3:r0=513", "3:r0=67108865"], why="byte stores to one word by three threads, a barrier: the "
                                                                   "load sees every byte (ISA 8.2: the unit is the byte)")
add("MIX.ld64.two-st32", "cta", g, [["st x 1", "st x+4 1"], ["ld/64 r0 x"]], allow=["1:r0=0 1:r1=1"],
    why="ISA 8.7.2: a 64-bit load over two 32-bit stores is a mixed-size data-race; the axioms do not apply (any outcome; "
        "the emulator reads one snapshot)")
add("MIX.release-half", "cta", g, [["st x 1", "st.release.gpu x+4 1"], ["ld.acquire.gpu/64 r0 x"]], maybe=["1:r0=0 1:r1=1"],
    why="ISA 8.7: a partial overlap is never morally strong: no sync, and a mixed-size race (8.7.2)")
add("MP.data64", "grid", g, [["st/64 x 4294967298", "st.release.gpu y 1"], ["ld.acquire.gpu r2 y", "ld/64 r0 x"]],
    forbid=["1:r2=1 1:r0=0", "1:r2=1 1:r1=0"], why="ISA 8.8, 8.10.6: a 64-bit datum published by release/acquire")

# ------------------------------------------------- a busy synchronisation word
add("HIST.release-forgotten", "grid", g, [["st x 1", "st.release.gpu y 1"],
                                          ["st.relaxed.gpu y 2", "st.relaxed.gpu y 3", "st.relaxed.gpu y 4", "st.relaxed.gpu y 5"],
                                          ["ld.acquire.gpu r0 y", "ld r1 x"]],
    forbid=["2:r0=1 2:r1=0"], maybe=["2:r1=0"],
    why="ISA 8.9.4, 8.10.6: reading the release synchronises however many later writes the word has had (the emulator keeps "
        "4 per word)")
add("HIST.release-forgotten.s", "cta", "shared", [["st x 1", "st.release.cta y 1"],
                                                  ["st.relaxed.cta y 2", "st.relaxed.cta y 3", "st.relaxed.cta y 4",
                                                   "st.relaxed.cta y 5"],
                                                  ["ld.acquire.cta r0 y", "ld r1 x"]],
    forbid=["2:r0=1 2:r1=0"], maybe=["2:r1=0"], why="as HIST.release-forgotten, shared memory, .cta")

# ------------------------------------------------------- tinylock cores
# y is the lock word: 1 = free, 0 = held (T0 holds it at the start).
add("core.caslock.gpu.grid", "grid", g, [["ld r1 x", "st x 1", "st.release.gpu y 1"],
                                         ["atom.acquire.gpu.cas r0 y 1 0", "ld r1 x", "st x 2"]],
    forbid=["1:r0=1 1:r1=0", "1:r0=1 0:r1=2", "1:r0=1 x=1"],
    why="the spinlock rewrite (acquire CAS, release store) across CTAs: the next owner sees the critical section (8.10.6), "
        "the holder's reads never see the next owner's writes (8.10.6: R precedes W in causality order), and its writes "
        "are coherence-ordered after the holder's (8.10.1)")
add("core.caslock.cta-narrowed.grid", "grid", g, [["ld r1 x", "st x 1", "st.release.cta y 1"],
                                                  ["atom.acquire.cta.cas r0 y 1 0", "ld r1 x", "st x 2"]],
    allow=["1:r0=1 1:r1=0"], maybe=["1:r0=1"],
    why="the class-5 rewrite (scope narrowed to .cta) across CTAs: not morally strong, no sync, no mutual exclusion")
add("core.racy-cuda-lock", "grid", g, [["st x 1", "membar.gl", "atom.relaxed.gpu.exch r2 y 1"],
                                       ["atom.relaxed.gpu.cas r0 y 1 0", "ld r1 x"]],
    allow=["1:r0=1 1:r1=0"], why="while(atomicCAS(&l,0,1)); ...; __threadfence(); atomicExch(&l,0) without a fence after the "
                                 "acquire: the CAS is no acquire pattern (ISA 8.8), the critical section may read stale data")
add("core.racy-cuda-lock.fixed", "grid", g, [["st x 1", "membar.gl", "atom.relaxed.gpu.exch r2 y 1"],
                                             ["atom.acquire.gpu.cas r0 y 1 0", "ld r1 x"]],
    forbid=["1:r0=1 1:r1=0"], why="fix-races=1: the CAS becomes atom.acquire; membar.gl + exch is a release pattern (ISA 8.8)")
add("core.fenced-lock", "grid", g, [["st x 1", "membar.gl", "atom.relaxed.gpu.exch r2 y 1"],
                                    ["atom.relaxed.gpu.cas r0 y 1 0", "membar.gl", "ld r1 x"]],
    forbid=["1:r0=1 1:r1=0"], why="the fenced lock the pass starts from: a strong read then a fence is an acquire pattern")
add("core.publish-in-cs.fenced", "grid", g, [["st x 1", "atom.relaxed.gpu.cas r0 y 0 1", "membar.gl",
                                              "atom.relaxed.gpu.exch r1 z 1"],
                                             ["ld.acquire.gpu r0 z", "ld r1 x"]],
    forbid=["1:r0=1 1:r1=0"], why="class 4: a store before the lock published by an atomic inside it; the acquire fence is also "
                                  "a release fence for the store (ISA 8.8: fence + strong write)")
add("core.publish-in-cs.acqrel", "grid", g, [["st x 1", "atom.acquire.gpu.cas r0 y 0 1", "atom.relaxed.gpu.exch r1 z 1"],
                                             ["ld.acquire.gpu r0 z", "ld r1 x"]],
    allow=["1:r0=1 1:r1=0"], why="class 4: with the fence replaced by an acquire CAS the publication is lost (no release pattern), "
                                 "which is why the pass keeps the fences there")
add("core.acquire-in-cs.fenced", "grid", g, [["st x 1", "st.release.gpu z 1"],
                                             ["atom.relaxed.gpu.add r0 z 0", "membar.gl", "st.volatile y 1", "ld r1 x"]],
    forbid=["1:r0=1 1:r1=0"], why="class 4: an atomicAdd(flag, 0) in the critical section, then the release fence: a strong read "
                                  "followed by a fence is an acquire pattern (ISA 8.8)")
add("core.acquire-in-cs.acqrel", "grid", g, [["st x 1", "st.release.gpu z 1"],
                                             ["atom.relaxed.gpu.add r0 z 0", "st.release.gpu y 1", "ld r1 x"]],
    allow=["1:r0=1 1:r1=0"], why="class 4: a release store is no acquire: the read after the unlock is unordered")
add("core.epochs", "cta", "shared", [["st x 1", "st.release.cta y 1", "st z 1", "st.release.cta y 2"],
                                     ["ld.acquire.cta r0 y", "ld r1 x", "ld r2 z"]],
    forbid=["1:r0=1 1:r1=0", "1:r0=2 1:r1=0", "1:r0=2 1:r2=0"],
    why="barrier channels with epoch flags: flag j published after the j-th phase's stores; a wait for epoch >= j sees phases "
        "1..j (ISA 8.8, 8.10.6); without a wait the loads are unordered")
add("core.channel.other-warp", "cta", "shared", [["st x 1", "st.release.cta y 1"], ["ld.relaxed.cta r2 y", "ld r3 x"],
                                                ["ld.acquire.cta r0 y", "ld r1 x"]],
    forbid=["2:r0=1 2:r1=0"], allow=["1:r2=1 1:r3=0"],
    why="a barrier channel between warps (N = -32): the consumer's ld.acquire.cta wait orders its load (ISA 8.8); a relaxed "
        "wait (what a pass must not emit) orders nothing")

if __name__ == "__main__":
    litmus.main(TESTS)
