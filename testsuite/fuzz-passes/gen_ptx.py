#!/usr/bin/env python3
"""gen_ptx.py — random valid kernels written directly in PTX.

The companion of gen.py (CUDA through nvcc): the same kernel signature,
regions, launch shapes and validity rules (see gen.py's header: in bounds
by interval, race-free by per-segment tracking, barriers only in
block-uniform code and never after an exit), but the shapes come from us,
not from nvcc: every address form (sign- or zero-extended 32-bit index,
64-bit index, immediate offsets), predicated loads and predicated merges,
%laneid and %lanemask_lt used directly, .local memory, atomics, loops
whose trip count is uniform, lane-dependent or nested, early exits
through a branch to the common exit.  No nvcc needed, so it also runs
where only ptxas is installed.

Feature "math" (f32 kernels, as in gen.py, from a second random stream):
after a load, a precise div.rn/div.full, sqrt.rn, rcp.rn or sqrt.rn +
rcp.rn (the rsqrt pair) of clamped loaded values (results within gen.MATH's
magnitudes), whose result only enters acc.

Issue 22's features, from a third stream (--avoid=late,brk,wrap gives the
programs of before): "late", lanes that read one word at different times
(block 0's thread 0 skips an ld.acquire spin the others wait in; the word
then enters a neighbour pair's index); "brk", lane-divergent break and
continue in plain loops and a loop whose latch is a divergent exit right
after a neighbour load; "wrap", a 32-bit index that wraps between two
lanes of one warp, sign- or zero-extended, reading b and e2 (the launch's
buffer 2^34 bytes after b, see gen.launch_args) on the two sides.

Usage: gen_ptx.py [--avoid=FEATURES] SEED — print the kernel p<SEED> as a .ptx module;
gen_ptx.py --features N — how many of seeds 1..N contain each math operation.
"""
import random
import sys

import gen

R, OFF, LO, HI, BS_MAX = gen.R, gen.OFF, gen.LO, gen.HI, gen.BS_MAX
TYPES = {  # element: (ptx type, value register prefix, size, zero, 0.75)
    "float": (".f32", "%f", 4, "0f00000000", "0f3F400000"),
    "double": (".f64", "%fd", 8, "0d0000000000000000", "0d3FE8000000000000"),
    "int": (".s32", "%r", 4, "0", None),
    "unsigned": (".u32", "%r", 4, "0", None),
}


class T:
    """An int register with its interval over every launch."""
    def __init__(self, reg, lo, hi, scoped=False):
        self.reg, self.lo, self.hi, self.scoped = reg, lo, hi, scoped


class PGen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.name = "p%d" % seed
        self.etype = self.r.choice(list(TYPES))
        self.ty, self.vp, self.sz, self.zero, self.c075 = TYPES[self.etype]
        self.flt = self.etype in ("float", "double")
        self.n = {"%r": 0, "%rd": 0, "%p": 0, "%f": 0, "%fd": 0}
        self.lines, self.ind = [], 1
        self.labels = 0
        self.values, self.helpers, self.loops, self.templates = [], [], [], []
        self.reads_any, self.writes = set(), set()
        self.returned = False
        self.fenced = self.in_bar_loop = 0
        self.uniform = True
        self.budget = self.r.randint(14, 32)
        self.has_local = self.r.random() < 0.3
        self.nc = self.r.random() < 0.3
        self.rm = random.Random(seed * 1000003 + 7)   # the math feature's stream
        self.math_ops = []
        # issue 22's features (late, brk, wrap): a stream of their own, so
        # that --avoid=late,brk,wrap gives the programs of before
        self.r22 = random.Random(seed * 7919 + 22)
        self.loop_labels = []                         # (continue, end) of the enclosing plain loops
        self.feats = set()

    def reg(self, p):
        self.n[p] += 1
        return "%s%d" % (p, self.n[p])

    def label(self):
        self.labels += 1
        return "$L_%d" % self.labels

    def emit(self, s):
        self.lines.append("\t" * self.ind + s)

    # ---------------------------------------------------------- indices
    def base_terms(self):
        return ([] if gen.avoid("lane") else [self.lane, self.lmk]) + [self.tidy, self.pm7, self.qm3, self.ntx7] + self.helpers + self.loops

    def anchor(self):
        c = self.r.random()
        if c < 0.6:
            return self.t
        if c < 0.8:
            return self.tidx
        if c < 0.9:
            return self.tidx2
        return None

    def index(self, span=(LO, HI)):
        """(register of the index without the shift, shift k, lo, hi)."""
        for _ in range(20):
            if self.templates and self.r.random() < 0.75:
                parts = self.r.choice(self.templates)
                if any(p.scoped and p not in self.helpers and p not in self.loops for p in parts):
                    continue
            else:
                a = self.anchor()
                parts = ([a] if a else []) + [self.r.choice(self.base_terms())
                                              for _ in range(self.r.choice([0, 1, 1, 2]))]
                if not parts:
                    parts = [self.t]
                self.templates.append(parts)
            lo, hi = sum(p.lo for p in parts), sum(p.hi for p in parts)
            k = self.r.choice([0, 1, -1, 2, -2, 3, 4, -5, 8, 16, -16, 31, -31, 33])
            if lo + k >= span[0] and hi + k <= span[1]:
                reg = parts[0].reg
                for p in parts[1:]:
                    s = self.reg("%r")
                    self.emit("add.s32 \t%s, %s, %s;" % (s, reg, p.reg))
                    reg = s
                return reg, k, lo + k, hi + k
        return self.t.reg, 0, 0, BS_MAX - 1

    def address(self, arr, own):
        """A register holding a global address in ARR's region, and the
        immediate offset to write after it."""
        if own:
            reg, k, lo = self.t.reg, 0, 0
        else:
            reg, k, lo, _ = self.index()
        sz = self.sz
        c = self.r.random()
        imm = 0
        if self.r.random() < 0.5 and k:
            imm = k * sz     # the shift as nvcc writes it: [%rd+imm]
        elif k:
            s = self.reg("%r")
            self.emit("add.s32 \t%s, %s, %d;" % (s, reg, k))
            reg = s
        x, a = self.reg("%rd"), self.reg("%rd")
        if c < 0.4:
            self.emit("mul.wide.s32 \t%s, %s, %d;" % (x, reg, sz))
            self.emit("add.s64 \t%s, %s, %s;" % (a, self.region[arr], x))
        elif c < 0.65:
            # zero-extended absolute index (never negative: base >= 192)
            j = self.reg("%r")
            self.emit("add.s32 \t%s, %s, %s;" % (j, reg, self.base))
            if imm:
                self.emit("add.s32 \t%s, %s, %d;" % (j, j, imm // sz))
                imm = 0
            self.emit("mul.wide.u32 \t%s, %s, %d;" % (x, j, sz))
            self.emit("add.s64 \t%s, %s, %s;" % (a, self.glob[arr], x))
        elif c < 0.85 or lo - imm // sz < 0:   # the register holds index - imm/sz
            w = self.reg("%rd")
            self.emit("cvt.s64.s32 \t%s, %s;" % (w, reg))
            self.emit("shl.b64 \t%s, %s, %d;" % (x, w, {4: 2, 8: 3}[sz]))
            self.emit("add.s64 \t%s, %s, %s;" % (a, self.region[arr], x))
        else:
            w = self.reg("%rd")
            self.emit("cvt.u64.u32 \t%s, %s;" % (w, reg))
            self.emit("mad.lo.s64 \t%s, %s, %d, %s;" % (a, w, sz, self.region[arr]))
        return a, imm

    def mem(self, a, imm):
        return "[%s%s]" % (a, "+%d" % imm if imm else "")   # PTX writes [%rd+-8]

    # ---------------------------------------------------------- statements
    def mix(self, v):
        if self.flt:
            self.emit("fma.rn%s \t%s, %s, %s, %s;" % (self.ty, self.acc, self.acc, self.c075, v))
        else:
            self.emit("mad.lo.s32 \t%s, %s, 31, %s;" % (self.acc, self.acc, v))

    def load(self):
        arr = self.r.choice(["a", "b", "b", "c"])
        own = arr != "b" and self.r.random() < 0.25
        if not own and arr in self.writes:
            if arr == "b":
                return
            own = True
        a, imm = self.address(arr, own)
        if not own:
            self.reads_any.add(arr)
        v = self.reg(self.vp)
        nc = ".nc" if arr == "b" and self.nc else ""
        if self.values and self.r.random() < 0.2:
            p = self.cond()
            self.emit("mov%s \t%s, %s;" % (self.ty if self.flt else ".b32", v, self.r.choice(self.values)))
            self.emit("@%s ld.global%s%s \t%s, %s;" % (p, nc, self.ty, v, self.mem(a, imm)))
        else:
            self.emit("ld.global%s%s \t%s, %s;" % (nc, self.ty, v, self.mem(a, imm)))
        self.values.append(v)
        self.mix(v)
        self.math(v)

    def math(self, v):
        """Maybe a precise div, sqrt, rcp or rsqrt pair of V whose result
        enters acc only: x = min(|V|, 64) + 1 in [1, 65], y = V within
        [-64, 64]; div y / (|W| + 1), sqrt x, rcp x, rcp(sqrt x)."""
        if self.etype != "float" or gen.avoid("math") or self.rm.random() >= 0.4:
            return
        op = self.rm.choice(["div", "div-full", "sqrt", "rcp", "rsqrt"])
        w = self.rm.choice(self.values)
        x, m = self.reg("%f"), self.reg("%f")
        if op.startswith("div"):
            y = self.reg("%f")
            self.emit("min.f32 \t%s, %s, 0f42800000;" % (x, v))
            self.emit("max.f32 \t%s, %s, 0fC2800000;" % (x, x))
            self.emit("abs.f32 \t%s, %s;" % (y, w))
            self.emit("add.f32 \t%s, %s, 0f3F800000;" % (y, y))
            self.emit("div.%s.f32 \t%s, %s, %s;" % ("full" if op == "div-full" else "rn", m, x, y))
        else:
            self.emit("abs.f32 \t%s, %s;" % (x, v))
            self.emit("min.f32 \t%s, %s, 0f42800000;" % (x, x))
            self.emit("add.f32 \t%s, %s, 0f3F800000;" % (x, x))
            if op == "rsqrt":
                s = self.reg("%f")
                self.emit("sqrt.rn.f32 \t%s, %s;" % (s, x))
                self.emit("rcp.rn.f32 \t%s, %s;" % (m, s))
            else:
                self.emit("%s.rn.f32 \t%s, %s;" % (op, m, x))
        self.mix(m)
        self.math_ops.append(op)

    def vload(self):
        k = self.r.randint(-8, 8)
        i, x, a = self.reg("%r"), self.reg("%rd"), self.reg("%rd")
        self.emit("add.s32 \t%s, %s, %d;" % (i, self.t.reg, k))
        self.emit("mul.wide.s32 \t%s, %s, %d;" % (x, i, 2 * self.sz))
        self.emit("add.s64 \t%s, %s, %s;" % (a, self.region["b"], x))
        v, w = self.reg(self.vp), self.reg(self.vp)
        self.emit("ld.global%s.v2%s \t{%s, %s}, [%s];" % (".nc" if self.nc else "", self.ty, v, w, a))
        self.reads_any.add("b")
        s = self.reg(self.vp)
        self.emit("add%s \t%s, %s, %s;" % (self.ty, s, v, w))
        self.values.append(s)
        self.mix(s)

    def store(self):
        arr = self.r.choice(["a", "c"])
        if arr in self.reads_any:
            return
        a, imm = self.address(arr, True)
        if not self.values:
            return
        v, w = self.r.choice(self.values), self.r.choice(self.values)
        s = self.reg(self.vp)
        self.emit("add%s \t%s, %s, %s;" % (self.ty, s, v, w))
        if self.etype != "double" and self.r.random() < 0.2:
            h = self.reg(self.vp)
            self.emit("atom.global.add%s \t%s, %s, %s;" % (self.ty, h, self.mem(a, imm), s))
            if not gen.avoid("atomic"):
                self.helper_from(h)
        else:
            self.emit("st.global%s \t%s, %s;" % (self.ty, self.mem(a, imm), s))
        self.writes.add(arr)

    def helper_from(self, v):
        h = self.reg("%r")
        if self.flt:
            x = self.reg(self.vp)
            self.emit("mul%s \t%s, %s, %s;" % (self.ty, x, v, "0f41000000" if self.sz == 4 else "0d%016X" % 0x4020000000000000))
            self.emit("cvt.rzi.s32%s \t%s, %s;" % (self.ty, h, x))
            self.emit("and.b32 \t%s, %s, 7;" % (h, h))
        else:
            self.emit("and.b32 \t%s, %s, 7;" % (h, v))
        self.helpers.append(T(h, 0, 7, True))

    def helper(self):
        c = self.r.randrange(7)
        if gen.avoid({0: "data", 1: "atomic", 2: "local", 3: "merge", 4: "laneloop", 5: "lane"}.get(c)):
            c = 6
        if c == 0 and self.values:
            self.helper_from(self.r.choice(self.values))
            return
        h = self.reg("%r")
        if c == 1:
            self.emit("atom.global.add.u32 \t%s, [%s], 1;" % (h, self.cntown))
            self.emit("and.b32 \t%s, %s, 7;" % (h, h))
        elif c == 2 and self.has_local:
            i, x, a, v = self.reg("%r"), self.reg("%rd"), self.reg("%rd"), self.reg("%r")
            self.emit("add.s32 \t%s, %s, %d;" % (i, self.p, self.r.randrange(8)))
            self.emit("and.b32 \t%s, %s, 7;" % (i, i))
            self.emit("mul.wide.u32 \t%s, %s, 4;" % (x, i))
            self.emit("add.s64 \t%s, %s, %s;" % (a, self.depot, x))
            self.emit("ld.local.u32 \t%s, [%s];" % (v, a))
            self.emit("and.b32 \t%s, %s, 7;" % (h, v))
        elif c == 3:
            # merged after a divergent condition, by predication
            p = self.cond(True)
            self.emit("mov.u32 \t%s, %d;" % (h, self.r.randrange(8)))
            self.emit("@%s and.b32 \t%s, %s, 7;" % (p, h, self.r.choice([self.lane.reg, self.lmk.reg, self.p])))
        elif c == 4:
            # a value after a loop whose trip count depends on the lane
            j, trip, pc = self.reg("%r"), self.reg("%r"), self.reg("%p")
            top, end = self.label(), self.label()
            self.emit("and.b32 \t%s, %s, 3;" % (trip, self.lane.reg))
            self.emit("mov.u32 \t%s, 0;" % h)
            self.emit("mov.u32 \t%s, 0;" % j)
            self.emit("setp.eq.s32 \t%s, %s, 0;" % (pc, trip))
            self.emit("@%s bra \t%s;" % (pc, end))
            self.lines.append(top + ":")
            self.emit("add.s32 \t%s, %s, 3;" % (h, h))
            self.emit("and.b32 \t%s, %s, 7;" % (h, h))
            self.emit("add.s32 \t%s, %s, 1;" % (j, j))
            self.emit("setp.lt.s32 \t%s, %s, %s;" % (pc, j, trip))
            self.emit("@%s bra \t%s;" % (pc, top))
            self.lines.append(end + ":")
        elif c == 5:
            self.emit("mov.u32 \t%s, %%laneid;" % h)
            self.emit("and.b32 \t%s, %s, 7;" % (h, h))
        else:
            self.emit("and.b32 \t%s, %s, 3;" % (h, self.p))
        self.helpers.append(T(h, 0, 7, True))

    def cond(self, divergent=None):
        if divergent is None:
            divergent = self.r.random() < 0.6
        p = self.reg("%p")
        if divergent:
            c = self.r.randrange(4)
            if c == 0:
                x = self.reg("%r")
                self.emit("and.b32 \t%s, %s, 1;" % (x, self.t.reg))
                self.emit("setp.eq.s32 \t%s, %s, 1;" % (p, x))
            elif c == 1:
                self.emit("setp.lt.u32 \t%s, %s, %d;" % (p, self.lane.reg, self.r.randrange(1, 32)))
            elif c == 2 and self.helpers:
                self.emit("setp.ne.s32 \t%s, %s, 2;" % (p, self.r.choice(self.helpers).reg))
            else:
                self.emit("setp.gt.u32 \t%s, %s, %d;" % (p, self.tidx.reg, self.r.randrange(64)))
        else:
            self.emit("setp.gt.s32 \t%s, %s, %d;" % (p, self.p, self.r.randrange(8)))
        return p

    def barrier(self):
        if self.uniform and not self.returned and not self.fenced:
            self.emit("bar.sync \t0;")
            self.reads_any.clear()
            self.writes.clear()

    def block(self, depth, n):
        sv, sh = len(self.values), len(self.helpers)
        for _ in range(n):
            if self.budget <= 0:
                break
            self.stmt(depth)
        del self.values[sv:]
        del self.helpers[sh:]

    def branch(self, depth):
        div = self.r.random() < 0.7
        p = self.cond(div)
        els, end = self.label(), self.label()
        saved = self.uniform
        self.uniform = saved and not div
        self.fenced += 1
        self.emit("@!%s bra \t%s;" % (p, els))
        self.block(depth + 1, self.r.randint(1, 4))
        self.emit("bra.uni \t%s;" % end)
        self.lines.append(els + ":")
        self.block(depth + 1, self.r.randint(0, 3))
        self.lines.append(end + ":")
        self.fenced -= 1
        self.uniform = saved

    def loop(self, depth):
        lane_dep = self.r.random() < 0.35
        bar_loop = not lane_dep and self.uniform and not self.returned and not self.fenced and self.r.random() < 0.35
        trip, i, pc = self.reg("%r"), self.reg("%r"), self.reg("%p")
        if lane_dep:
            src = self.r.choice([self.t.reg, self.lane.reg] + [h.reg for h in self.helpers])
            self.emit("and.b32 \t%s, %s, 3;" % (trip, src))
            hi = 3
        elif bar_loop:
            self.emit("and.b32 \t%s, %s, 3;" % (trip, self.p))
            self.emit("add.s32 \t%s, %s, 1;" % (trip, trip))
            hi = 4
        else:
            c = self.r.randrange(3)
            self.emit(["mov.u32 \t%s, 3;" % trip, "and.b32 \t%s, %s, 7;" % (trip, self.p),
                       "and.b32 \t%s, %s, 3;" % (trip, self.q)][c])
            hi = [3, 7, 3][c]
        top, end = self.label(), self.label()
        self.emit("mov.u32 \t%s, 0;" % i)
        if not bar_loop:
            self.emit("setp.eq.s32 \t%s, %s, 0;" % (pc, trip))
            self.emit("@%s bra \t%s;" % (pc, end))
        self.lines.append(top + ":")
        saved = self.uniform
        self.uniform = saved and not lane_dep
        term = T(i, 0, hi - 1, True)
        self.loops.append(term)
        if bar_loop:
            self.in_bar_loop += 1
        else:
            self.fenced += 1
        cont = self.label()
        if not bar_loop:
            self.loop_labels.append((cont, end))
        self.block(depth + 1, self.r.randint(2, 6))
        if not bar_loop:
            self.loop_labels.pop()
        if bar_loop:
            self.in_bar_loop -= 1
            self.emit("bar.sync \t0;")
            self.reads_any.clear()
            self.writes.clear()
        else:
            self.fenced -= 1
        self.lines.append(cont + ":")
        self.emit("add.s32 \t%s, %s, 1;" % (i, i))
        self.emit("setp.lt.s32 \t%s, %s, %s;" % (pc, i, trip))
        self.emit("@%s bra \t%s;" % (pc, top))
        self.lines.append(end + ":")
        self.loops.pop()
        self.uniform = saved

    def motif(self):
        """A load before a loop, a load and a store of the same array in it
        (issue 10 class 1): own elements (N = 0), or where barriers are
        allowed a neighbour's element with the store between barriers."""
        arr = self.r.choice(["a", "c"])
        nb = self.uniform and not self.returned and not self.fenced and arr not in self.writes and self.r.random() < 0.6
        if not nb and arr in self.reads_any:
            return
        k = self.r.choice([1, -1, 2]) if nb else 0
        x, y, s = self.reg(self.vp), self.reg(self.vp), self.reg(self.vp)
        self.emit("ld.global%s \t%s, [%s];" % (self.ty, x, self.own[arr] + ("+%d" % (k * self.sz) if k else "")))
        self.mix(x)
        if nb:
            self.reads_any.add(arr)
        i, pc, top = self.reg("%r"), self.reg("%p"), self.label()
        self.emit("mov.u32 \t%s, 0;" % i)
        self.lines.append(top + ":")
        k2 = k + self.r.choice([1, -1, 0]) if nb else 0
        self.emit("ld.global%s \t%s, [%s%s];" % (self.ty, y, self.own[arr], "+%d" % (k2 * self.sz) if k2 else ""))
        self.mix(y)
        if nb:
            self.emit("bar.sync \t0;")
        self.emit("add%s \t%s, %s, %s;" % (self.ty, s, y, x))
        self.emit("st.global%s \t[%s], %s;" % (self.ty, self.own[arr], s))
        if nb:
            self.emit("bar.sync \t0;")
        self.emit("add.s32 \t%s, %s, 1;" % (i, i))
        self.emit("setp.lt.s32 \t%s, %s, 3;" % (pc, i))
        self.emit("@%s bra \t%s;" % (pc, top))
        if nb:
            self.reads_any.clear()
            self.writes.clear()
        else:
            self.writes.add(arr)
        self.values.append(x)

    # ------------------------------------------------- issue 22's features
    def late_motif(self):
        """Lanes that read one word at different times (issue 22 class 1):
        block 0's thread 0 reads cfg (out's spare word) and then releases
        sig; block 1's thread 0 waits for sig, writes cfg and releases flag;
        every other thread waits for flag and then reads cfg.  Thread 0
        reads the old value, the others the new one, and nothing races: a
        warp-uniform address, a value that is not warp-uniform, which then
        enters indices as a helper in [0, 7]."""
        self.feats.add("late")
        cfg, v, m, h = self.reg("%rd"), self.reg("%r"), self.reg("%r"), self.reg("%r")
        pb, pt, pw, pr, pc = (self.reg("%p") for _ in range(5))
        ws, nw, wf, rd = self.label(), self.label(), self.label(), self.label()
        self.emit("add.s64 \t%s, %s, %d;" % (cfg, self.glob["out"], gen.OUT_N * self.sz))
        self.emit("setp.eq.s32 \t%s, %s, 0;" % (pt, self.t.reg))
        self.emit("setp.eq.s32 \t%s, %s, 1;" % (pb, self.blk))
        self.emit("and.pred \t%s, %s, %s;" % (pw, pb, pt))
        self.emit("setp.eq.and.s32 \t%s, %s, 0, %s;" % (pr, self.blk, pt))
        self.emit("@!%s bra \t%s;" % (pw, nw))
        self.lines.append(ws + ":")
        self.emit("ld.acquire.gpu.global.u32 \t%s, [%s+8];" % (v, cfg))
        self.emit("setp.eq.u32 \t%s, %s, 0;" % (pc, v))
        self.emit("@%s bra \t%s;" % (pc, ws))
        self.emit("st.global.u32 \t[%s], %d;" % (cfg, self.r22.randrange(1, 8)))
        self.emit("st.release.gpu.global.u32 \t[%s+4], 1;" % cfg)
        self.emit("bra.uni \t%s;" % rd)
        self.lines.append(nw + ":")
        self.emit("@%s bra \t%s;" % (pr, rd))
        self.lines.append(wf + ":")
        self.emit("ld.acquire.gpu.global.u32 \t%s, [%s+4];" % (v, cfg))
        self.emit("setp.eq.u32 \t%s, %s, 0;" % (pc, v))
        self.emit("@%s bra \t%s;" % (pc, wf))
        self.lines.append(rd + ":")
        self.emit("ld.global.u32 \t%s, [%s];" % (m, cfg))
        self.emit("@%s st.release.gpu.global.u32 \t[%s+8], 1;" % (pr, cfg))
        self.emit("and.b32 \t%s, %s, 7;" % (h, m))
        self.helpers.append(T(h, 0, 7))
        # every thread of the block meets again (the barrier is no hazard:
        # all reach it together), so the lanes that read different values
        # share a warp's shuffles after it
        self.emit("bar.sync \t0;")
        # a neighbour pair whose address holds the value (read-only b)
        j, o, a = self.reg("%r"), self.reg("%rd"), self.reg("%rd")
        x, y = self.reg(self.vp), self.reg(self.vp)
        k = self.r22.choice([0, 1, -1, 2])
        self.emit("add.s32 \t%s, %s, %s;" % (j, self.t.reg, h))
        self.emit("mul.wide.s32 \t%s, %s, %d;" % (o, j, self.sz))
        self.emit("add.s64 \t%s, %s, %s;" % (a, self.region["b"], o))
        self.emit("ld.global%s \t%s, [%s%s];" % (self.ty, x, a, "+%d" % (k * self.sz) if k else ""))
        self.emit("ld.global%s \t%s, [%s+%d];" % (self.ty, y, a, (k + 1) * self.sz))
        self.mix(x)
        self.mix(y)

    def wrap_motif(self):
        """A 32-bit index that wraps between two lanes (issue 22 class 3):
        x = t + (2^31 - W), sign-extended, or x = t - W, zero-extended, W
        in 1..127 and not a multiple of 32 (the wrap falls inside a warp);
        from the pointer P (b + 2^33 + 4W, or b + 4W) threads t < W read
        e2[t], e2[t + 1] (e2 lies 2^34 bytes after b: fuzz launches) and the
        others b[t], b[t + 1] (read-only memory).  The neighbour load
        is at [A+4] (the shift in the 64-bit address, as nvcc writes it) or
        from x + 1 computed in 32 bits."""
        self.feats.add("wrap")
        sx = self.r22.random() < 0.5
        W = self.r22.choice([w for w in range(1, 128) if w % 32])
        x, o, a, pp = self.reg("%r"), self.reg("%rd"), self.reg("%rd"), self.reg("%rd")
        v1, v2 = self.reg("%r"), self.reg("%r")
        self.emit("add.s32 \t%s, %s, %d;" % (x, self.t.reg, (1 << 31) - W if sx else -W))
        self.emit("add.s64 \t%s, %s, %d;" % (pp, self.glob["b"], (1 << 33) + 4 * W if sx else 4 * W))
        self.emit("mul.wide.%s32 \t%s, %s, 4;" % ("s" if sx else "u", o, x))
        self.emit("add.s64 \t%s, %s, %s;" % (a, pp, o))
        self.emit("ld.global%s.u32 \t%s, [%s];" % (self.r22.choice(["", ".cg", ".nc"]), v1, a))
        if self.r22.random() < 0.7:
            self.emit("ld.global.u32 \t%s, [%s+4];" % (v2, a))
        else:
            x2, o2, a2 = self.reg("%r"), self.reg("%rd"), self.reg("%rd")
            self.emit("add.s32 \t%s, %s, 1;" % (x2, x))
            self.emit("mul.wide.%s32 \t%s, %s, 4;" % ("s" if sx else "u", o2, x2))
            self.emit("add.s64 \t%s, %s, %s;" % (a2, pp, o2))
            self.emit("ld.global.u32 \t%s, [%s];" % (v2, a2))
        for v in (v1, v2):
            if self.flt:
                f = self.reg(self.vp)
                self.emit("cvt.rn%s.u32 \t%s, %s;" % (self.ty, f, v))
                self.mix(f)
            else:
                self.mix(v)

    def brk_motif(self):
        """The issue 22 class 2 shape: a load before a loop, the neighbour's
        element loaded in it, and a lane-divergent break after the load in
        the same block (latch = exit), of read-only b."""
        self.feats.add("brk")
        k = self.r22.choice([0, 1, -1, 2])
        k2 = k + self.r22.choice([1, -1, 2])
        x, y = self.reg(self.vp), self.reg(self.vp)
        i, pc, pb, top, end = self.reg("%r"), self.reg("%p"), self.reg("%p"), self.label(), self.label()
        ta = self.reg("%rd")
        self.emit("mul.wide.s32 \t%s, %s, %d;" % (ta, self.t.reg, self.sz))
        self.emit("add.s64 \t%s, %s, %s;" % (ta, ta, self.region["b"]))
        self.emit("ld.global%s \t%s, [%s%s];" % (self.ty, x, ta, "+%d" % (k * self.sz) if k else ""))
        self.reads_any.add("b")
        self.mix(x)
        self.emit("mov.u32 \t%s, 0;" % i)
        self.lines.append(top + ":")
        self.emit("ld.global%s \t%s, [%s%s];" % (self.ty, y, ta, "+%d" % (k2 * self.sz) if k2 else ""))
        self.mix(y)
        self.emit("add.s32 \t%s, %s, 1;" % (i, i))
        c = self.r22.randrange(3)
        if c == 0:
            self.emit("setp.gt.u32 \t%s, %s, %d;" % (pb, self.lane.reg, self.r22.randrange(32)))
        elif c == 1:
            w = self.reg("%r")
            self.emit("and.b32 \t%s, %s, 3;" % (w, self.t.reg))
            self.emit("setp.ge.u32 \t%s, %s, %s;" % (pb, i, w))
        else:
            self.emit("setp.gt%s \t%s, %s, %s;" % (self.ty if self.flt else ".s32", pb, y,
                                                    self.zero if self.flt else "0"))
        self.emit("@%s bra \t%s;" % (pb, end))
        self.emit("setp.lt.u32 \t%s, %s, %d;" % (pc, i, self.r22.choice([3, 5])))
        self.emit("@%s bra \t%s;" % (pc, top))
        self.lines.append(end + ":")
        self.values.append(x)

    def jump(self):
        """A lane-divergent break or continue in the innermost plain loop
        (issue 22 class 2: loops whose exit or back edge is divergent)."""
        cont, end = self.loop_labels[-1]
        self.feats.add("brk")
        p = self.cond(True)
        self.emit("@%s bra \t%s;" % (p, end if self.r22.random() < 0.5 else cont))

    def stmt(self, depth):
        self.budget -= 1
        if not gen.avoid("brk") and self.loop_labels and self.r22.random() < 0.08:
            self.jump()
        if not gen.avoid("wrap") and self.r22.random() < 0.04:
            self.wrap_motif()
        if not gen.avoid("brk") and depth < 2 and self.r22.random() < 0.03:
            self.brk_motif()
        c = self.r.random()
        if c < 0.30:
            self.load()
        elif c < 0.42:
            self.store()
        elif c < 0.50:
            self.helper()
        elif c < 0.54:
            self.vload()
        elif c < 0.59:
            self.barrier()
        elif c < 0.73 and depth < 3:
            self.loop(depth)
        elif c < 0.85 and depth < 3:
            self.branch(depth)
        elif c < 0.89 and not self.in_bar_loop and depth < 2:
            p = self.cond()
            self.emit("@%s bra \t$L_exit;" % p)
            self.returned = True
        elif c < 0.95 and depth < 2 and not gen.avoid("motif"):
            self.motif()
        else:
            self.load()

    # ---------------------------------------------------------- kernel
    def kernel(self):
        n = self.name
        prm = [self.reg("%rd") for _ in range(5)]
        eprm = [self.reg("%rd") for _ in range(2)]
        self.n_, self.p, self.q = self.reg("%r"), self.reg("%r"), self.reg("%r")
        for i, r in enumerate(prm):
            self.emit("ld.param.u64 \t%s, [%s_param_%d];" % (r, n, i))
        for i, r in enumerate([self.n_, self.p, self.q]):
            self.emit("ld.param.u32 \t%s, [%s_param_%d];" % (r, n, 5 + i))
        for i, r in enumerate(eprm):
            self.emit("ld.param.u64 \t%s, [%s_param_%d];" % (r, n, 8 + i))
        g = {}
        for name, r in zip(["out", "a", "b", "c", "cnt"], prm):
            g[name] = self.reg("%rd")
            self.emit("cvta.to.global.u64 \t%s, %s;" % (g[name], r))
        self.glob = g
        sp = {}
        for s in ["tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ctaid.x", "ctaid.y", "nctaid.x"]:
            sp[s] = self.reg("%r")
            self.emit("mov.u32 \t%s, %%%s;" % (sp[s], s))
        t, x = self.reg("%r"), self.reg("%r")
        self.emit("mul.lo.s32 \t%s, %s, %s;" % (x, sp["tid.z"], sp["ntid.y"]))
        self.emit("add.s32 \t%s, %s, %s;" % (x, x, sp["tid.y"]))
        self.emit("mad.lo.s32 \t%s, %s, %s, %s;" % (t, x, sp["ntid.x"], sp["tid.x"]))
        blk, base, gown = self.reg("%r"), self.reg("%r"), self.reg("%r")
        self.emit("mad.lo.s32 \t%s, %s, %s, %s;" % (blk, sp["ctaid.y"], sp["nctaid.x"], sp["ctaid.x"]))
        self.emit("mad.lo.s32 \t%s, %s, %d, %d;" % (base, blk, R, OFF))
        self.emit("mad.lo.s32 \t%s, %s, %d, %s;" % (gown, blk, BS_MAX, t))
        self.base = base
        self.region, self.own = {}, {}
        for arr in ["a", "b", "c"]:
            x, rr, o = self.reg("%rd"), self.reg("%rd"), self.reg("%rd")
            self.emit("mul.wide.s32 \t%s, %s, %d;" % (x, base, self.sz))
            self.emit("add.s64 \t%s, %s, %s;" % (rr, g[arr], x))
            self.emit("mul.wide.s32 \t%s, %s, %d;" % (x, t, self.sz))
            self.emit("add.s64 \t%s, %s, %s;" % (o, rr, x))
            self.region[arr], self.own[arr] = rr, o
        x, self.cntown = self.reg("%rd"), self.reg("%rd")
        self.emit("mul.wide.s32 \t%s, %s, 4;" % (x, gown))
        self.emit("add.s64 \t%s, %s, %s;" % (self.cntown, g["cnt"], x))
        self.emit("add.s64 \t%s, %s, 64;" % (self.cntown, self.cntown))
        lane, lm, lmk = self.reg("%r"), self.reg("%r"), self.reg("%r")
        self.emit("mov.u32 \t%s, %%laneid;" % lane)
        self.emit("mov.u32 \t%s, %%lanemask_lt;" % lm)
        self.emit("popc.b32 \t%s, %s;" % (lmk, lm))
        tidx2, pm7, qm3, ntx7 = self.reg("%r"), self.reg("%r"), self.reg("%r"), self.reg("%r")
        self.emit("shl.b32 \t%s, %s, 1;" % (tidx2, sp["tid.x"]))
        self.emit("and.b32 \t%s, %s, 7;" % (pm7, self.p))
        self.emit("and.b32 \t%s, %s, 3;" % (qm3, self.q))
        self.emit("and.b32 \t%s, %s, 7;" % (ntx7, sp["ntid.x"]))
        self.t, self.tidx, self.tidx2 = T(t, 0, BS_MAX - 1), T(sp["tid.x"], 0, gen.TX_MAX), T(tidx2, 0, 2 * gen.TX_MAX)
        self.lane, self.lmk, self.tidy = T(lane, 0, 31), T(lmk, 0, 31), T(sp["tid.y"], 0, 2)
        self.pm7, self.qm3, self.ntx7 = T(pm7, 0, 7), T(qm3, 0, 3), T(ntx7, 0, 7)
        self.acc = self.reg(self.vp)
        self.emit("mov%s \t%s, %s;" % (self.ty if self.flt else ".u32", self.acc, self.zero))
        if self.has_local:
            self.depot = self.reg("%rd")
            self.emit("mov.u64 \t%s, __local_depot_%s;" % (self.depot, n))
            for i in range(8):
                v = self.reg("%r")
                self.emit("add.s32 \t%s, %s, %d;" % (v, t, 3 * i))
                self.emit("st.local.u32 \t[%s+%d], %s;" % (self.depot, 4 * i, v))
        self.blk = blk
        if not gen.avoid("late") and self.r22.random() < 0.2:
            self.late_motif()
        if self.r.random() < 0.3:
            p, tot, y = self.reg("%p"), self.reg("%r"), self.reg("%r")
            self.emit("mov.u32 \t%s, %%ntid.z;" % y)
            self.emit("mul.lo.s32 \t%s, %s, %s;" % (tot, sp["ntid.x"], sp["ntid.y"]))
            self.emit("mul.lo.s32 \t%s, %s, %s;" % (tot, tot, y))
            self.emit("mad.lo.s32 \t%s, %s, %s, %s;" % (tot, blk, tot, t))
            self.emit("setp.ge.s32 \t%s, %s, %s;" % (p, tot, self.n_))
            self.emit("@%s bra \t$L_exit;" % p)
            self.returned = True
        while self.budget > 0:
            self.stmt(0)
        self.lines.append("$L_exit:")
        x, o = self.reg("%rd"), self.reg("%rd")
        self.emit("mul.wide.s32 \t%s, %s, %d;" % (x, gown, self.sz))
        self.emit("add.s64 \t%s, %s, %s;" % (o, g["out"], x))
        self.emit("st.global%s \t[%s], %s;" % (self.ty, o, self.acc))
        self.emit("ret;")
        decl = ["\t.reg .pred \t%%p<%d>;" % (self.n["%p"] + 1), "\t.reg .b32 \t%%r<%d>;" % (self.n["%r"] + 1),
                "\t.reg .b64 \t%%rd<%d>;" % (self.n["%rd"] + 1)]
        if self.n["%f"]:
            decl.append("\t.reg .f32 \t%%f<%d>;" % (self.n["%f"] + 1))
        if self.n["%fd"]:
            decl.append("\t.reg .f64 \t%%fd<%d>;" % (self.n["%fd"] + 1))
        if self.has_local:
            decl.insert(0, "\t.local .align 4 .b8 \t__local_depot_%s[32];" % n)
        params = ",\n".join(["\t.param .u64 %s_param_%d" % (n, i) for i in range(5)] +
                            ["\t.param .u32 %s_param_%d" % (n, i) for i in range(5, 8)] +
                            ["\t.param .u64 %s_param_%d" % (n, i) for i in range(8, 10)])
        return ("//\n// gen_ptx.py %s\n//\n\n.version 8.0\n.target sm_80\n.address_size 64\n\n"
                "\t// .globl\t%s\n.visible .entry %s(\n%s\n)\n{\n%s\n\n%s\n}\n"
                % (n[1:], n, n, params, "\n".join(decl), "\n".join(self.lines)))


def kernel_source(seed):
    g = PGen(seed)
    return g.kernel(), g.etype


if __name__ == "__main__":
    if sys.argv[1].startswith("--avoid="):
        gen.AVOID |= set(sys.argv.pop(1).split("=", 1)[1].split(","))
    if sys.argv[1] == "--features":
        # how many of seeds 1..N contain each math operation
        seen = {}
        for s in range(1, int(sys.argv[2]) + 1):
            g = PGen(s)
            g.kernel()
            for op in set(g.math_ops):
                seen[op] = seen.get(op, 0) + 1
        for op in ("div", "div-full", "rcp", "rsqrt", "sqrt"):
            print("math-%s %d" % (op, seen.get(op, 0)))
    else:
        sys.stdout.write(kernel_source(int(sys.argv[1]))[0])
