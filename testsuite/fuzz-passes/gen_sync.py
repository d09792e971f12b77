#!/usr/bin/env python3
"""gen_sync.py — random producer/consumer and critical-section kernels.

The synchronisation companion of gen_ptx.py (issue 15): kernels written
directly in PTX (no nvcc) with the shapes the tinylock pass rewrites, so
that its configurations in passes.py meet hand-written locks, flags and
barriers of random shape:

* channel phases: a producer warp (0 or 1, at random) writes one value per
  lane into a shared buffer slot and signals it to the same lane of a
  consumer warp (the other one) through a volatile flag (st.volatile +
  membar.cta / ld.volatile spin), a release/acquire flag (st.release.cta /
  ld.acquire.cta), a lock used as a flag (the producer holds the slot's
  mutex from the start and releases it with atom.exch; the consumer takes
  it with an atom.cas loop and restores it), an mbarrier (sm_80: one
  arrival per producer lane, the consumer spins on test_wait.parity), or a
  CTA barrier between the write and the read (the one-producer ->
  one-consumer bar.sync);
* critical-section phases: 1, 2 or 4 locks in shared or global memory,
  chosen per thread (all threads on one lock, by thread, warp or lane),
  1 to 3 critical sections per thread, each a non-atomic read-modify-write
  of one or two accumulators guarded by the lock (a sum, an xor, a count:
  order-independent), acquired with atom.cas or atom.exch (test-and-set),
  optionally .acquire, released with atom.exch, st.volatile or
  st.release after a fence, in the done-flag shape (critical section inside
  the retry loop: safe even under lock-step) or the naive shape (spin, then
  the critical section after the loop: needs independent thread
  scheduling).

* (issue 23) the shapes the tinylock pass got wrong: lock-protected
  publication (a producer writes a datum and its flag inside its slot's
  critical section; the consumer retries its own critical section until
  the flag is set, or spins on the flag outside the lock: "pub"); a
  datum stored before the lock and published by a flag stored inside it,
  the consumer spinning outside ("pubout": only the fences around the
  lock order the two stores); barrier channels whose producer store is in
  a non-inlined callee ("callee"), that go through two aliasing
  `.extern .shared` arrays ("alias"), or whose consumer reads its own and
  its neighbour's slot with one 8-byte load ("wide"); and a lock shared by
  every CTA with `membar.cta` fences around it ("xcta": per-CTA data, and
  an occupancy count of the critical section that must never exceed one);

Race-free and deterministic by construction (under the PTX memory model,
which ptxopt-emu --memory=weak checks): every shared datum is touched
only under its lock, or by one producer and (after the signal) one
consumer, or across a block-wide barrier; consumers wait only for
producers that exist in the launch (33 threads: warp 1 has one lane) and
producers never wait, so every wait ends; what threads read under a lock
never reaches their result, only the final accumulators do, read after a
barrier.  The kernel signature and launch shapes are gen.py's (out, a, b,
c, cnt, n, p, q; gen.LAUNCHES), so fuzz.py runs them like the others:
out[gown] = the thread's own chain of channel values, plus the final
accumulator of its lock.  Locks in global memory are per block (words of
cnt in the block's own region, zeroed by the block before use).

Usage: gen_sync.py SEED — print the kernel s<SEED> as a .ptx module;
gen_sync.py --features N — how often seeds 1..N contain each shape.
"""
import random
import sys

import gen

BS_MAX = gen.BS_MAX


class SGen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.name = "s%d" % seed
        self.n = {"%r": 0, "%rd": 0, "%p": 0}
        self.lines = []
        self.labels = 0
        self.nphase = self.r.randint(1, 3)
        self.mbar = False

    def reg(self, p):
        self.n[p] += 1
        return "%s%d" % (p, self.n[p])

    def label(self, what):
        self.labels += 1
        return "$%s_%d" % (what, self.labels)

    def emit(self, s):
        self.lines.append("\t" + s)

    def put(self, s):
        self.lines.append(s)

    def r32(self, op, *args):
        d = self.reg("%r")
        self.emit("%s %s, %s;" % (op, d, ", ".join(args)))
        return d

    def pred(self, cmp, a, b):
        p = self.reg("%p")
        self.emit("setp.%s %s, %s, %s;" % (cmp, p, a, b))
        return p

    def shaddr(self, sym, idx):
        """32-bit shared address of sym[idx] (idx a register)."""
        o = self.r32("shl.b32", idx, "2")
        base = self.reg("%r")
        self.emit("mov.u32 %s, %s;" % (base, sym))
        return self.r32("add.s32", base, o)

    def gaddr(self, base64, idx):
        """64-bit global address of base64[idx] (u32 elements)."""
        w = self.reg("%rd")
        self.emit("mul.wide.u32 %s, %s, 4;" % (w, idx))
        a = self.reg("%rd")
        self.emit("add.s64 %s, %s, %s;" % (a, base64, w))
        return a

    # ------------------------------------------------------------ phases
    def plan(self):
        phases = []
        for k in range(self.nphase):
            x = self.r.random()
            if x < 0.15:
                wp = self.r.randint(0, 1)
                phases.append(("pub", k, self.r.choice(["in", "in", "out", "before"]), wp, 1 - wp,
                               self.r.choice(["fence", "fence", "acqrel"]), self.r.random() < 0.3))
            elif x < 0.25:
                phases.append(("xcta", k, self.r.choice(["done", "naive"]), self.r.randint(1, 2)))
            elif x < 0.6:
                mech = self.r.choice(["volatile", "acqrel", "lockflag", "barrier", "mbarrier", "barrier"])
                wp = self.r.randint(0, 1)
                # a barrier channel's variant: plain, a callee that stores, aliasing extern arrays, a wide load
                var = self.r.choice(["plain", "callee", "alias", "wide"]) if mech == "barrier" else "plain"
                phases.append(("chan", k, mech, wp, 1 - wp, self.r.randrange(3), var))
            else:
                nl = self.r.choice([1, 2, 4])
                phases.append(("cs", k, nl, self.r.choice(["shared", "shared", "global"]),
                               self.r.choice(["zero", "t", "warp", "lane"]), self.r.randint(1, 3),
                               self.r.choice(["done", "done", "naive"]), self.r.choice(["cas", "cas", "exch"]),
                               self.r.choice(["exch", "volatile", "release"]), self.r.random() < 0.4,
                               self.r.choice(["add", "xor", "count"]), self.r.random() < 0.5))
        return phases

    def channel(self, ph):
        _, k, mech, wp, wc, f, var = ph
        slot = self.r32("add.s32", self.lane, str(32 * k))
        # the data buffer: sbuf, or the dynamic shared memory through two
        # names (alias: dynA and dynB are the same bytes)
        wbuf, rbuf = ("dynA", "dynB") if var == "alias" else ("sbuf", "sbuf")
        done = self.label("chan")
        # producer
        skip = self.label("np")
        pw = self.pred("ne.u32", self.warp, str(wp))
        self.emit("@%s bra %s;" % (pw, skip))
        v = [lambda: self.r32("mad.lo.s32", self.acc, "3", str(k + 1)),
             lambda: self.r32("xor.b32", self.acc, "0x5bd1e995"),
             lambda: self.r32("add.s32", self.acc, self.t)][f]()
        if var == "callee":
            self.callee = True
            self.emit("{")
            self.emit("\t.param .b32 pa;")
            self.emit("\t.param .b32 pv;")
            self.emit("\tst.param.b32 [pa], %s;" % self.shaddr(wbuf, slot))
            self.emit("\tst.param.b32 [pv], %s;" % v)
            self.emit("\tcall.uni st_shared_u32, (pa, pv);")
            self.emit("}")
        else:
            self.emit("st.shared.u32 [%s], %s;" % (self.shaddr(wbuf, slot), v))
        fl = self.shaddr("sflag", slot)
        if mech == "volatile":
            self.emit("membar.cta;")
            self.emit("st.volatile.shared.u32 [%s], 1;" % fl)
        elif mech == "acqrel":
            self.emit("st.release.cta.shared.u32 [%s], 1;" % fl)
        elif mech == "lockflag":
            self.emit("membar.cta;")
            self.emit("atom.shared.exch.b32 %s, [%s], 0;" % (self.reg("%r"), fl))
        elif mech == "mbarrier":
            self.emit("mbarrier.arrive.shared.b64 %s, [%s];" % (self.reg("%rd"), self.mbaddr(k)))
        self.put("%s:" % skip)
        if mech == "barrier":
            self.emit("bar.sync 0;")
        # consumer: the same lane of warp wc, when that producer exists
        pc = self.pred("ne.u32", self.warp, str(wc))
        self.emit("@%s bra %s;" % (pc, done))
        pl = self.r32("add.s32", self.lane, str(32 * wp))
        pe = self.pred("ge.u32", pl, self.nthr)
        self.emit("@%s bra %s;" % (pe, done))
        fl = self.shaddr("sflag", slot)
        if mech in ("volatile", "acqrel"):
            spin = self.label("wait")
            self.put("%s:" % spin)
            x = self.reg("%r")
            self.emit("%s %s, [%s];" % ("ld.volatile.shared.u32" if mech == "volatile" else "ld.acquire.cta.shared.u32", x, fl))
            pz = self.pred("eq.u32", x, "0")
            self.emit("@%s bra %s;" % (pz, spin))
            if mech == "volatile":
                self.emit("membar.cta;")
        elif mech == "lockflag":
            spin = self.label("take")
            self.put("%s:" % spin)
            o = self.reg("%r")
            self.emit("atom.shared.cas.b32 %s, [%s], 0, 1;" % (o, fl))
            pt = self.pred("ne.u32", o, "0")
            self.emit("@%s bra %s;" % (pt, spin))
            self.emit("membar.cta;")
        elif mech == "mbarrier":
            spin = self.label("mwait")
            self.put("%s:" % spin)
            pw2 = self.reg("%p")
            self.emit("mbarrier.test_wait.parity.shared.b64 %s, [%s], 0;" % (pw2, self.mbaddr(k)))
            self.emit("@!%s bra %s;" % (pw2, spin))
        x = self.reg("%r")
        if var == "wide" and mech == "barrier":
            # slots 2j and 2j+1 in one 8-byte load: its own and its
            # neighbour's (both produced before the barrier, when they exist)
            ev = self.r32("and.b32", slot, str(~1 & 0xffffffff))
            lo, hi = self.reg("%r"), self.reg("%r")
            self.emit("ld.shared.v2.u32 {%s, %s}, [%s];" % (lo, hi, self.shaddr(rbuf, ev)))
            odd = self.pred("ne.u32", self.r32("and.b32", self.lane, "1"), "0")
            nb = self.r32("add.s32", self.r32("xor.b32", self.lane, "1"), str(32 * wp))
            nbok = self.pred("lt.u32", nb, self.nthr)
            mine, other = self.reg("%r"), self.reg("%r")
            self.emit("selp.b32 %s, %s, %s, %s;" % (mine, hi, lo, odd))
            self.emit("selp.b32 %s, %s, %s, %s;" % (other, lo, hi, odd))
            self.emit("selp.b32 %s, %s, 0, %s;" % (other, other, nbok))
            self.emit("mad.lo.s32 %s, %s, 7, %s;" % (x, other, mine))
        else:
            self.emit("ld.shared.u32 %s, [%s];" % (x, self.shaddr(rbuf, slot)))
        if mech == "lockflag":
            self.emit("atom.shared.exch.b32 %s, [%s], 0;" % (self.reg("%r"), fl))
        a2 = self.r32("add.s32", self.acc, x)
        self.emit("mov.u32 %s, %s;" % (self.acc, a2))
        self.put("%s:" % done)

    def lock(self, lk, sp, acq, fence):
        """Spins until the lock at lk is taken (cas loop; then the fence)."""
        retry = self.label("plock")
        self.put("%s:" % retry)
        o = self.reg("%r")
        sem = ".acquire.%s" % ("cta" if sp == "shared" else "gpu") if acq else ""
        self.emit("atom%s.%s.cas.b32 %s, %s, 0, 1;" % (sem, sp, o, lk))
        pf = self.pred("ne.u32", o, "0")
        self.emit("@%s bra %s;" % (pf, retry))
        if not acq:
            self.emit(fence)

    def unlock(self, lk, sp, rel, fence):
        if rel:
            self.emit("st.release.%s.%s.u32 %s, 0;" % ("cta" if sp == "shared" else "gpu", sp, lk))
        else:
            self.emit(fence)
            self.emit("atom.%s.exch.b32 %s, %s, 0;" % (sp, self.reg("%r"), lk))

    def publication(self, ph):
        """pub: lane l of the producer warp publishes a datum for lane l of
        the consumer warp under the slot's lock (slock[16 + l % 8], shared).
        in: datum and flag stored in the critical section, the consumer
        retries its critical section until the flag is set; out: the same,
        the consumer spins on the flag (volatile) outside the lock first;
        before: the datum is stored before the lock, the flag (volatile)
        inside it, the consumer spins outside and reads after a fence."""
        _, k, how, wp, wc, sync, callee = ph
        acq = rel = sync == "acqrel"
        fence = "membar.cta;"
        slot = self.r32("add.s32", self.lane, str(32 * k))
        lidx = self.r32("add.s32", self.r32("and.b32", self.lane, "7"), "16")
        lk = "[%s]" % self.shaddr("slock", lidx)
        data, flag = self.shaddr("sbuf", slot), self.shaddr("sflag", slot)
        skip, done = self.label("npub"), self.label("pub")
        pw = self.pred("ne.u32", self.warp, str(wp))
        self.emit("@%s bra %s;" % (pw, skip))
        v = self.r32("mad.lo.s32", self.acc, "5", str(k + 3))
        if how == "before":
            self.emit("st.shared.u32 [%s], %s;" % (data, v))
            self.lock(lk, "shared", False, fence)
            self.emit("st.volatile.shared.u32 [%s], 1;" % flag)
            self.unlock(lk, "shared", False, fence)
        else:
            self.lock(lk, "shared", acq, fence)
            self.emit("st.shared.u32 [%s], %s;" % (data, v))
            if callee:
                self.callee = True
                self.emit("{")
                self.emit("\t.param .b32 pa;")
                self.emit("\t.param .b32 pv;")
                self.emit("\tst.param.b32 [pa], %s;" % flag)
                self.emit("\tst.param.b32 [pv], 1;")
                self.emit("\tcall.uni st_shared_u32, (pa, pv);")
                self.emit("}")
            else:
                self.emit("st.%sshared.u32 [%s], 1;" % ("volatile." if how == "out" else "", flag))
            self.unlock(lk, "shared", rel, fence)
        self.put("%s:" % skip)
        pc = self.pred("ne.u32", self.warp, str(wc))
        self.emit("@%s bra %s;" % (pc, done))
        pl = self.r32("add.s32", self.lane, str(32 * wp))
        pe = self.pred("ge.u32", pl, self.nthr)
        self.emit("@%s bra %s;" % (pe, done))
        x = self.reg("%r")
        if how in ("out", "before"):
            spin = self.label("pspin")
            self.put("%s:" % spin)
            f = self.reg("%r")
            self.emit("ld.volatile.shared.u32 %s, [%s];" % (f, flag))
            pz = self.pred("eq.u32", f, "0")
            self.emit("@%s bra %s;" % (pz, spin))
        if how == "before":
            self.emit(fence)
            self.emit("ld.shared.u32 %s, [%s];" % (x, data))
        else:
            # retry the critical section until the flag is set (done shape)
            again = self.label("pagain")
            got = self.r32("mov.u32", "0")
            self.put("%s:" % again)
            self.lock(lk, "shared", acq, fence)
            f = self.reg("%r")
            self.emit("ld.%sshared.u32 %s, [%s];" % ("volatile." if how == "out" else "", f, flag))
            pz = self.pred("eq.u32", f, "0")
            self.emit("@!%s ld.shared.u32 %s, [%s];" % (pz, x, data))
            self.emit("selp.b32 %s, 0, 1, %s;" % (got, pz))
            self.unlock(lk, "shared", rel, fence)
            pg = self.pred("eq.u32", got, "0")
            self.emit("@%s bra %s;" % (pg, again))
        a2 = self.r32("add.s32", self.acc, x)
        self.emit("mov.u32 %s, %s;" % (self.acc, a2))
        self.put("%s:" % done)

    def xcta(self, ph):
        """xcta: one lock for every CTA (out[127]: no thread writes it), taken
        with a relaxed cas and membar.cta, released with membar.cta and an
        exchange (the release sequence keeps each CTA's data ordered); the
        critical section updates the CTA's accumulator (volatile) and
        counts its occupants (out[126], gpu atomics): more than one is a
        broken mutual exclusion, which changes the thread's result."""
        _, k, shape, ncs = ph
        lk = "[%s+508]" % self.outg
        occ = "[%s+504]" % self.outg
        for j in range(ncs):
            slot = self.r32("add.s32", self.r32("mov.u32", "0"), str(8 * k + 4 + j))
            a = self.gaddr(self.cg, self.r32("add.s32", self.accbase, slot))
            retry, latch = self.label("xlock"), self.label("xlatch")
            done = self.r32("mov.u32", "0") if shape == "done" else None
            self.put("%s:" % retry)
            o = self.reg("%r")
            self.emit("atom.global.cas.b32 %s, %s, 0, 1;" % (o, lk))
            pf = self.pred("ne.u32", o, "0")
            self.emit("@%s bra %s;" % (pf, latch if shape == "done" else retry))
            self.emit("membar.cta;")
            c0 = self.reg("%r")
            self.emit("atom.global.add.u32 %s, %s, 1;" % (c0, occ))
            bad = self.pred("ne.u32", c0, "0")
            self.emit("@%s xor.b32 %s, %s, 1073741824;" % (bad, self.acc, self.acc))
            x = self.reg("%r")
            self.emit("ld.volatile.global.u32 %s, [%s];" % (x, a))
            y = self.r32("add.s32", x, self.r32("add.s32", self.t, "1"))
            self.emit("st.volatile.global.u32 [%s], %s;" % (a, y))
            self.emit("atom.global.add.u32 %s, %s, -1;" % (self.reg("%r"), occ))
            self.emit("membar.cta;")
            self.emit("atom.global.exch.b32 %s, %s, 0;" % (self.reg("%r"), lk))
            if shape == "done":
                self.emit("mov.u32 %s, 1;" % done)
                self.put("%s:" % latch)
                pd = self.pred("eq.u32", done, "0")
                self.emit("@%s bra %s;" % (pd, retry))

    def mbaddr(self, k):
        return "smbar+%d" % (8 * k)

    def lock_index(self, nl, sel):
        src = {"zero": None, "t": self.t, "warp": self.warp, "lane": self.lane}[sel]
        if src is None or nl == 1:
            return self.r32("mov.u32", "0")
        return self.r32("and.b32", src, str(nl - 1))

    def crit(self, ph):
        _, k, nl, space, sel, ncs, shape, acq, rel, acqsem, data, two = ph
        for j in range(ncs):
            idx = self.lock_index(nl, sel)
            slot = self.r32("add.s32", idx, str(8 * k))
            if space == "shared":
                lk = "[%s]" % self.shaddr("slock", slot)
                sp, fence = "shared", "membar.cta;"
            else:
                lk = "[%s]" % self.gaddr(self.cntg, self.r32("add.s32", self.lockbase, slot))
                sp, fence = "global", "membar.gl;"
            val = self.r32("add.s32", self.acc, str(j))
            if data == "count":
                val = self.r32("mov.u32", "1")
            sem = ".acquire.%s" % ("cta" if sp == "shared" else "gpu") if acqsem else ""
            retry = self.label("lock")
            latch = self.label("latch")
            if shape == "done":
                # done = false; while (!done) { if (try) { CS; release; done = true; } }
                done = self.r32("mov.u32", "0")
            self.put("%s:" % retry)
            o = self.reg("%r")
            if acq == "cas":
                self.emit("atom%s.%s.cas.b32 %s, %s, 0, 1;" % (sem, sp, o, lk))
            else:
                self.emit("atom%s.%s.exch.b32 %s, %s, 1;" % (sem, sp, o, lk))
            pf = self.pred("ne.u32", o, "0")
            # naive: spin until acquired, the critical section after the loop
            self.emit("@%s bra %s;" % (pf, latch if shape == "done" else retry))
            if not acqsem:
                self.emit(fence)
            self.body(sp, slot, val, data, two)
            if rel == "exch":
                self.emit(fence)
                self.emit("atom.%s.exch.b32 %s, %s, 0;" % (sp, self.reg("%r"), lk))
            elif rel == "volatile":
                self.emit(fence)
                self.emit("st.volatile.%s.u32 %s, 0;" % (sp, lk))
            else:
                self.emit("st.release.%s.%s.u32 %s, 0;" % ("cta" if sp == "shared" else "gpu", sp, lk))
            if shape == "done":
                self.emit("mov.u32 %s, 1;" % done)
                self.put("%s:" % latch)
                pd = self.pred("eq.u32", done, "0")
                self.emit("@%s bra %s;" % (pd, retry))

    def body(self, sp, slot, val, data, two):
        """The guarded read-modify-write of the lock's accumulator(s)."""
        if sp == "shared":
            addrs = [self.shaddr("sacc", slot)] + ([self.shaddr("scnt", slot)] if two else [])
            ld, st = "ld.volatile.shared.u32", "st.volatile.shared.u32"
        else:
            addrs = [self.gaddr(self.cg, self.r32("add.s32", self.accbase, slot))]
            if two:
                addrs.append(self.gaddr(self.cg, self.r32("add.s32", self.accbase, self.r32("add.s32", slot, "32"))))
            ld, st = "ld.volatile.global.u32", "st.volatile.global.u32"
        for i, a in enumerate(addrs):
            x = self.reg("%r")
            self.emit("%s %s, [%s];" % (ld, x, a))
            op = {"add": "add.s32", "xor": "xor.b32", "count": "add.s32"}[data] if i == 0 else "add.s32"
            y = self.r32(op, x, val if i == 0 else "1")
            self.emit("%s [%s], %s;" % (st, a, y))

    # ------------------------------------------------------------ kernel
    def kernel(self):
        phases = self.plan()
        self.mbar = any(p[0] == "chan" and p[2] == "mbarrier" for p in phases)
        self.callee = False
        lockflag_mask = sum(1 << p[1] for p in phases if p[0] == "chan" and p[2] == "lockflag")
        e = self.emit
        for nm in ("out", "a", "b", "c", "cnt"):
            g = self.reg("%rd")
            e("ld.param.u64 %s, [%s];" % (g, nm))
            gg = self.reg("%rd")
            e("cvta.to.global.u64 %s, %s;" % (gg, g))
            setattr(self, nm + "g", gg)
        tx, ty, tz = (self.r32("mov.u32", "%%tid.%s" % d) for d in "xyz")
        nx, ny, nz = (self.r32("mov.u32", "%%ntid.%s" % d) for d in "xyz")
        nxy = self.r32("mul.lo.s32", nx, ny)
        self.nthr = self.r32("mul.lo.s32", nxy, nz)
        t1 = self.r32("mad.lo.s32", ty, nx, tx)
        self.t = self.r32("mad.lo.s32", tz, nxy, t1)
        self.lane = self.r32("and.b32", self.t, "31")
        self.warp = self.r32("shr.u32", self.t, "5")
        bx, by, gx = self.r32("mov.u32", "%ctaid.x"), self.r32("mov.u32", "%ctaid.y"), self.r32("mov.u32", "%nctaid.x")
        blk = self.r32("mad.lo.s32", by, gx, bx)
        gown = self.r32("mad.lo.s32", blk, str(BS_MAX), self.t)
        base = self.r32("mad.lo.s32", blk, str(gen.R), str(gen.OFF))
        # per-block global lock words (cnt) and accumulators (c, beyond the inputs we read)
        self.lockbase = self.r32("mad.lo.s32", blk, str(BS_MAX), "16")
        self.accbase = self.r32("add.s32", base, "256")
        x = self.reg("%r")
        e("ld.global.u32 %s, [%s];" % (x, self.gaddr(self.bg, self.r32("add.s32", base, self.t))))
        self.acc = self.r32("mov.u32", x)
        # initialisation: flags (lock-as-flag slots start held), buffers, locks, accumulators
        i = self.r32("mov.u32", self.t)
        loop, end = self.label("init"), self.label("inited")
        self.put("%s:" % loop)
        pi = self.pred("ge.u32", i, "128")
        e("@%s bra %s;" % (pi, end))
        ph = self.r32("shr.u32", i, "5")
        held = self.r32("shr.u32", self.r32("mov.u32", str(lockflag_mask)), ph)
        held1 = self.r32("and.b32", held, "1")
        e("st.shared.u32 [%s], %s;" % (self.shaddr("sflag", i), held1))
        e("st.shared.u32 [%s], 0;" % self.shaddr("sbuf", i))
        e("add.s32 %s, %s, %s;" % (i, i, self.nthr))
        e("bra.uni %s;" % loop)
        self.put("%s:" % end)
        sdone = self.label("smalldone")
        ps = self.pred("ge.u32", self.t, "32")
        e("@%s bra %s;" % (ps, sdone))
        e("st.shared.u32 [%s], 0;" % self.shaddr("slock", self.t))
        e("st.shared.u32 [%s], 0;" % self.shaddr("sacc", self.t))
        e("st.shared.u32 [%s], 0;" % self.shaddr("scnt", self.t))
        e("st.global.u32 [%s], 0;" % self.gaddr(self.cntg, self.r32("add.s32", self.lockbase, self.t)))
        if any(p[0] == "xcta" for p in phases):
            e("st.global.u32 [%s], 0;" % self.gaddr(self.cg, self.r32("add.s32", self.accbase, self.t)))
        if self.mbar:
            pz = self.pred("ne.u32", self.t, "0")
            e("@%s bra %s;" % (pz, sdone))
            for p in phases:
                if p[0] == "chan" and p[2] == "mbarrier":
                    # one arrival per producer lane that exists
                    np_ = self.r32("sub.s32", self.nthr, str(32 * p[3]))
                    npm = self.r32("min.u32", np_, "32")
                    e("mbarrier.init.shared.b64 [%s], %s;" % (self.mbaddr(p[1]), npm))
        self.put("%s:" % sdone)
        e("bar.sync 0;")
        for p in phases:
            if p[0] == "chan":
                self.channel(p)
            elif p[0] == "pub":
                self.publication(p)
            elif p[0] == "xcta":
                self.xcta(p)
            else:
                self.crit(p)
            if self.r.random() < 0.5:
                e("bar.sync 0;")
        e("bar.sync 0;")
        # the final accumulators, read after the barrier
        res = self.acc
        for p in phases:
            if p[0] == "xcta":
                for j in range(p[3]):
                    v = self.reg("%r")
                    e("ld.global.u32 %s, [%s];" % (v, self.gaddr(self.cg, self.r32("add.s32", self.accbase, str(8 * p[1] + 4 + j)))))
                    res = self.r32("xor.b32", self.r32("mul.lo.s32", res, "31"), v)
            if p[0] != "cs":
                continue
            _, k, nl, space, *_r = p
            idx = self.r32("and.b32", self.t, str(nl - 1))
            slot = self.r32("add.s32", idx, str(8 * k))
            v = self.reg("%r")
            if space == "shared":
                e("ld.shared.u32 %s, [%s];" % (v, self.shaddr("sacc", slot)))
                w = self.reg("%r")
                e("ld.shared.u32 %s, [%s];" % (w, self.shaddr("scnt", slot)))
                v = self.r32("add.s32", v, self.r32("shl.b32", w, "8"))
            else:
                e("ld.global.u32 %s, [%s];" % (v, self.gaddr(self.cg, self.r32("add.s32", self.accbase, slot))))
            res = self.r32("xor.b32", self.r32("mul.lo.s32", res, "31"), v)
        e("st.global.u32 [%s], %s;" % (self.gaddr(self.outg, gown), res))
        e("ret;")
        func = []
        if self.callee:
            func = [".func st_shared_u32(.param .b32 a, .param .b32 v)", "{", "\t.reg .b32 %r<3>;",
                    "\tld.param.b32 %r1, [a];", "\tld.param.b32 %r2, [v];", "\tst.shared.u32 [%r1], %r2;", "\tret;", "}", ""]
        head = [".version 8.0", ".target sm_80", ".address_size 64", "",
                ".extern .shared .align 8 .b8 dynA[];", ".extern .shared .align 8 .b8 dynB[];", ""] + func + [
                ".visible .entry %s(.param .u64 out, .param .u64 a, .param .u64 b, .param .u64 c, .param .u64 cnt,"
                " .param .u32 n, .param .u32 p, .param .u32 q)" % self.name, "{",
                "\t.shared .align 4 .b32 sflag[128];", "\t.shared .align 4 .b32 sbuf[128];",
                "\t.shared .align 4 .b32 slock[32];", "\t.shared .align 4 .b32 sacc[32];", "\t.shared .align 4 .b32 scnt[32];",
                "\t.shared .align 8 .b64 smbar[4];",
                "\t.reg .pred %%p<%d>;" % (self.n["%p"] + 1), "\t.reg .b32 %%r<%d>;" % (self.n["%r"] + 1),
                "\t.reg .b64 %%rd<%d>;" % (self.n["%rd"] + 1)]
        return "\n".join(head + self.lines + ["}"]) + "\n"


# ptxopt-emu options the oracle adds to every launch of these kernels: the
# naive spin lock makes hanoi park the lock holder at the loop's
# reconvergence point until the progress watchdog lets it go; 64 loop
# visits (default 4096) keeps that cheap without changing any result.
EMU_EXTRA = ["--watchdog=64", "--shared-dyn=512"]


def kernel_source(seed):
    """(PTX text, element type) of kernel s<SEED>; gen.launch_args runs it."""
    return SGen(seed).kernel(), "unsigned"


def features(seed):
    """The shapes kernel s<SEED> contains (for campaign summaries)."""
    g = SGen(seed)
    out = []
    for p in g.plan():
        if p[0] == "chan":
            out += ["chan-%s" % p[2], "producer-warp%d" % p[3]]
            if p[6] != "plain":
                out.append("chan-barrier-%s" % p[6])
        elif p[0] == "pub":
            out += ["pub-%s" % p[2], "pub-%s" % p[5]] + (["pub-callee"] if p[6] and p[2] != "before" else [])
        elif p[0] == "xcta":
            out += ["xcta-%s" % p[2]]
        else:
            out += ["cs-%s" % p[6], "acquire-%s" % p[7], "release-%s" % p[8], "locks-%s-%d" % (p[3], p[2]),
                    "select-%s" % p[4], "sections-%d" % p[5], "data-%s" % p[10]]
    return out


if __name__ == "__main__":
    if sys.argv[1] == "--features":
        count = {}
        for s in range(1, int(sys.argv[2]) + 1):
            for f in set(features(s)):
                count[f] = count.get(f, 0) + 1
        for f in sorted(count):
            print("%-20s %d" % (f, count[f]))
    else:
        sys.stdout.write(kernel_source(int(sys.argv[1]))[0])
