#!/usr/bin/env python3
"""gen.py — random valid CUDA kernels for the pass differential tester.

A kernel is reproducible from its seed (Python's random.Random(seed); the
text depends on nothing else).  It is built to reach what passes reason
about: neighbour loads at shifted index expressions over %tid.x/y/z,
%laneid, %lanemask_lt, %ctaid, %ntid, parameters, loaded data, atomic
results and .local values; stores before, between and after loads, inside
and around loops; uniform, lane-dependent and nested loops; divergent
branches and merges; early exits; barriers; predication; vector loads;
32/64-bit and signed/unsigned indices; f32/f64/i32/u32 elements.

Validity is by construction, so that any difference between a program and
its rewrite is a pass bug, not undefined behaviour:

* in bounds: every block owns a region of R elements of each array (base
  blk*R + OFF); every index expression is a sum of terms whose intervals
  are known for every launch shape in LAUNCHES (tid.x < 64, 128 threads a
  block, 4 blocks), and the generator keeps only expressions whose interval
  lies inside the region.  The emulator's bounds checks back this up: a
  program that fails them unmodified is reported as invalid, not as a bug.
* race-free: regions are per block, so only threads of one block share
  elements.  Between two barriers (a "segment") an array is either read at
  any index and written by nobody, or read and written by each thread only
  at its own element (blk*R + OFF + t, t the linear thread index).  The
  generator tracks, per segment, the arrays read at other elements and the
  arrays written, and refuses the statement that would break the rule.
  Loops without a barrier are covered by the same incremental check (both
  orders are refused).  A loop with a barrier runs at least once, is
  uniform, ends with a barrier, and contains no return.
* barriers only in block-uniform control flow and never after a return.
* integer arithmetic is unsigned where it may overflow; no division.
* atomics: to the thread's own counter (its old value is deterministic and
  lane-varying) or, result unused, to a per-block counter (commutative).
* precise float math (feature "math", float kernels): after a load, a
  division, sqrtf, 1/sqrtf, expf, logf, sinf, cosf, powf (also with a
  constant exponent, and an integer one from (float)(int), of a base of
  either sign), exp10f, log2f or tanhf of loaded values, on clamped
  operands (MATH below: no overflow, no NaN, sin/cos within 100 pi), whose
  result only enters acc (acc = acc * 0.75f + m) and so only out: never an
  index, a condition or a global store, so an approximation (the sfu pass)
  perturbs out alone, by at most 4x the largest per-site error
  (passes.py).  The shapes the sfu pass meets in real code (issue 24):
  the call alone, in a loop of a constant trip count (nvcc unrolls it) or
  of a runtime one, and through shared memory (where a barrier is allowed;
  an array of its own): stored at the thread's own element, a barrier, the
  values of lanes t^1 and t^8 (the same warp, so a split's precise warps
  read no approximate value) mixed one by one, a barrier.  Its
  choices come from a second random stream, so --avoid=math gives the
  programs of before.

Issue 22's features, from a third stream (--avoid=late,brk gives the
programs of before): "late" (block 0's thread 0 reads a word others wait
for with ld.acquire, then a neighbour pair indexes with it) and "brk"
(lane-divergent break and continue in loops without a barrier); the kernels
take two more read-only buffers e1, e2 (gen_ptx.py's "wrap" reads them).

Usage: gen.py SEED [COUNT] — print COUNT kernels (seeds SEED..) as one .cu
file on standard output; gen.py --meta SEED prints the kernel's element type;
gen.py --features N: how many of seeds 1..N contain each math operation.
"""
import random
import sys

R = 512          # elements of each array per block
OFF = 192        # a block's index 0 within its region
LO, HI = -OFF, R - OFF - 1   # allowed interval of an index relative to the base
BS_MAX = 128     # threads per block (linear index t < 128)
TX_MAX = 63      # tid.x
NBLK = 4         # blocks in a grid
OUT_N = NBLK * BS_MAX
OUT_SPARE = 16   # out's elements after OUT_N: zeros, the lane-timing protocol's words (feature "late")
WRAP_N = 256     # the read-only u32 buffers e1, e2 after cnt (feature "wrap": e2 lies 2^34 bytes after b)
ARR_N = NBLK * R
CNT_N = 16 + NBLK * BS_MAX

ETYPES = {  # C type, emulator type, vector types (2, 4 or None)
    "float": ("f32", "float2", "float4"),
    "double": ("f64", "double2", None),
    "int": ("i32", "int2", "int4"),
    "unsigned": ("u32", "uint2", "uint4"),
}

# Launch shapes: 1-D full warps, a partial warp, 2-D with x not a multiple
# of 32 (so rows straddle warps), 3-D.  n (the element count) is the thread
# total minus 5, so the last block is partial where a kernel exits early.
LAUNCHES = [
    ("2", "64"),
    ("3", "33"),
    ("2,2", "40,3"),
    ("2", "16,2,2"),
]


def launch_args(etype, grid, block, seed=1, wrap_buffers=True):
    """ptxopt-emu launch options for one shape (inputs from SEED).  gen.py's
    and gen_ptx.py's kernels take two more read-only buffers e1, e2
    (wrap_buffers; gen_sync.py's do not): the emulator places each buffer in
    a 4 GiB window of its own, in argument order, so e2 is b + 2^34 bytes,
    which is where a 32-bit index that wraps between two lanes takes one of
    them (feature "wrap")."""
    et = ETYPES[etype][0]
    dims = lambda s: [int(x) for x in s.split(",")]
    threads = 1
    for d in dims(grid) + dims(block):
        threads *= d
    s = seed * 10
    return ["--grid=" + grid, "--block=" + block,
            "--arg=buf:%s:%d:zeros" % (et, OUT_N + OUT_SPARE),
            "--arg=buf:%s:%d:random:%d" % (et, ARR_N, s + 1),
            "--arg=buf:%s:%d:random:%d" % (et, ARR_N, s + 2),
            "--arg=buf:%s:%d:random:%d" % (et, ARR_N, s + 3),
            "--arg=buf:i32:%d:random:%d:0:64" % (CNT_N, s + 4),
            "--arg=i32:%d" % (threads - 5), "--arg=i32:6", "--arg=u32:3"] + (
                ["--arg=buf:u32:%d:random:%d" % (WRAP_N, s + 5), "--arg=buf:u32:%d:random:%d" % (WRAP_N, s + 6)]
                if wrap_buffers else [])


# Features a campaign may switch off (fuzz.py --avoid), to look past a known
# bug class for others; empty, the generators' output does not change.
# "known" names the shapes of issue 10's classes 1 and 2.
AVOID = set()
KNOWN = {"lane", "data", "atomic", "local", "merge", "laneloop", "motif"}
# Every feature --avoid accepts: the known classes' shapes, "math" (precise
# float math for the sfu pass; no known bug class) and issue 22's shapes:
# "late" (lanes that read one word at different times: a spin on an acquire
# that some lanes skip), "brk" (lane-divergent break and continue, loops
# whose latch is the exit), "wrap" (a 32-bit index that wraps between two
# lanes, sign- and zero-extended; gen_ptx.py only).
FEATURES = KNOWN | {"math", "late", "brk", "wrap"}

# The math feature's operations: C text over the loaded value V and
# another value W, and the largest magnitude of the result.  Operands are
# clamped (CL(x, k) = x within [-k, k]) so that results stay within the
# bound the sfu tolerance in passes.py assumes.
MATH = {
    "div": ("CL(V, 64.0f) / (fabsf(W) + 1.0f)", 64),
    "sqrt": ("sqrtf(fminf(fabsf(V), 64.0f) + 1.0f)", 8.1),
    "rsqrt": ("1.0f / sqrtf(fminf(fabsf(V), 64.0f) + 1.0f)", 1),
    "exp": ("expf(CL(V, 4.0f))", 54.6),
    "log": ("logf(fminf(fabsf(V), 64.0f) + 1.0f)", 4.2),
    "sin": ("sinf(CL(V, 12.0f))", 1),
    "cos": ("cosf(CL(V, 12.0f))", 1),
    "pow": ("powf(fminf(fabsf(V), 3.0f) + 1.0f, CL(W, 3.0f))", 64),
    "exp10": ("exp10f(CL(V, 2.0f))", 100),
    "log2": ("log2f(fminf(fabsf(V), 64.0f) + 1.0f)", 6.1),
    "tanh": ("tanhf(CL(V, 8.0f))", 1),
    # powf of a base of either sign, |x| in [1, 4]: a constant exponent
    # (C: the math stream picks it from POWC), an integer one
    "powc": ("powf(PBASE(V), #C)", 64),
    "powi": ("powf(PBASE(V), (float)((int)CL(W, 8.0f) & 3))", 64),
}
# constant exponents of "powc" (non-integers take a positive base: powf of a
# negative one is NaN)
POWC = ["2.0f", "3.0f", "-1.0f", "0.5f", "2.5f", "1.5f"]
# the shapes of the math feature's calls (gen.py --features counts them)
MATH_SHAPES = ["alone", "loop-const", "loop-runtime", "shared"]


def avoid(kind):
    return kind in AVOID


class Term:
    """An int-valued C expression with its interval over every launch."""
    def __init__(self, text, lo, hi, scoped=False):
        self.text, self.lo, self.hi, self.scoped = text, lo, hi, scoped


class Gen:
    def __init__(self, seed, name):
        self.r = random.Random(seed)
        self.name = name
        self.lines = []
        self.ind = 1
        self.nvar = 0
        self.etype = self.r.choice(list(ETYPES))
        self.flt = self.etype in ("float", "double")
        self.helpers = []          # int Terms usable in indices
        self.values = []           # element-typed variables
        self.reads_any = set()     # arrays read at another thread's element this segment
        self.writes = set()        # arrays written this segment
        self.returned = False      # a return was emitted: no barrier after it
        self.loops = []            # enclosing loop variables (Terms)
        self.uniform = True        # control flow here is block-uniform
        self.in_bar_loop = 0
        self.fenced = 0            # inside a branch or a loop without a trailing barrier
        self.budget = self.r.randint(14, 34)
        self.has_shared = self.r.random() < 0.3
        self.has_local = self.r.random() < 0.3
        self.templates = []
        # the math feature's own stream: the main one (and so every other
        # statement) is the same with or without it
        self.rm = random.Random(seed * 1000003 + 7)
        self.math_ops = []         # math operations emitted (gen.py --features)
        self.math_shapes = []      # and their shapes
        # issue 22's features: a stream of their own (--avoid=late,brk gives
        # the programs of before)
        self.r22 = random.Random(seed * 7919 + 22)
        self.plain_loops = 0       # enclosing loops without a barrier (break/continue allowed)

    # ---------------------------------------------------------- text
    def emit(self, s):
        self.lines.append("    " * self.ind + s)

    def var(self, p="v"):
        self.nvar += 1
        return "%s%d" % (p, self.nvar)

    # ---------------------------------------------------------- terms
    def base_terms(self):
        """Lane-varying and uniform int terms an index may add."""
        t = [] if avoid("lane") else [Term("lane", 0, 31), Term("lmk", 0, 31)]
        t += [Term("(int)threadIdx.y", 0, 2), Term("(int)threadIdx.z", 0, 1),
             Term("(p & 7)", 0, 7), Term("(int)(q & 3u)", 0, 3),
             Term("(int)(blockIdx.x & 1u)", 0, 1), Term("(int)(blockDim.x & 7u)", 0, 7)]
        t += self.helpers
        t += self.loops
        return t

    def anchor(self):
        """The part of an index that names the thread (or nothing)."""
        c = self.r.random()
        if c < 0.55:
            return Term("t", 0, BS_MAX - 1)
        if c < 0.7:
            return Term("(int)threadIdx.x", 0, TX_MAX)
        if c < 0.8:
            return Term("(int)threadIdx.x * 2", 0, 2 * TX_MAX)
        if c < 0.9:
            return Term("((int)threadIdx.x + (int)threadIdx.y * (int)blockDim.x)", 0, BS_MAX - 1)
        return Term("0", 0, 0)

    def new_template(self):
        a = self.anchor()
        parts = [a]
        for _ in range(self.r.choice([0, 0, 1, 1, 2])):
            parts.append(self.r.choice(self.base_terms()))
        return parts

    def index(self, span=(LO, HI), scale=1):
        """A random in-bounds index expression (relative to the region base):
        a template (so loads pair up at shifts) plus a shift."""
        for _ in range(20):
            if self.templates and self.r.random() < 0.75:
                parts = self.r.choice(self.templates)
                if any(p.scoped and p not in self.helpers and p not in self.loops for p in parts):
                    continue
            else:
                parts = self.new_template()
                self.templates.append(parts)
            lo = sum(p.lo for p in parts)
            hi = sum(p.hi for p in parts)
            k = self.r.choice([0, 1, -1, 1, 2, -2, 3, -3, 4, 5, -7, 8, 16, -16, 31, -31, 33])
            if scale * (lo + k) >= span[0] and scale * (hi + k) + scale - 1 <= span[1]:
                txt = " + ".join(p.text for p in parts)
                if k:
                    txt += " %s %d" % ("+" if k > 0 else "-", abs(k))
                return txt, lo + k, hi + k, parts
        return "0", 0, 0, None

    # ---------------------------------------------------------- accesses
    def conv(self, v):
        """An element value as an index helper in [0, 7]."""
        if self.flt:
            return "((int)(%s * 8.0%s) & 7)" % (v, "f" if self.etype == "float" else "")
        return "((int)%s & 7)" % v

    def access(self, arr, own):
        """The text of arr[...] at the own element or at a random index."""
        if own:
            forms = ["%sr[t]", "%s[base + t]", "%s[(unsigned)(base + t)]", "%sr[(long long)t]"]
            return self.r.choice(forms) % arr
        txt, lo, hi, _ = self.index()
        c = self.r.random()
        if c < 0.45:
            return "%sr[%s]" % (arr, txt)
        if c < 0.65:
            return "%s[base + %s]" % (arr, txt)
        if c < 0.8:
            return "%s[(unsigned)(base + %s)]" % (arr, txt)
        if c < 0.9:
            return "%sr[(long long)(%s)]" % (arr, txt)
        if lo >= 0:
            return "%sr[(unsigned)(%s)]" % (arr, txt)
        return "%s[(size_t)(base + %s)]" % (arr, txt)

    def load(self):
        arrs = ["a", "b", "b", "c"]
        if self.has_shared:
            arrs.append("sh")
        arr = self.r.choice(arrs)
        own = arr != "b" and self.r.random() < 0.25
        if not own and arr in self.writes:
            own = arr != "b"
            if not own:
                return
        if arr == "sh":
            if own:
                txt = "sh[SHOFF + t]"
            else:
                itxt, lo, hi, _ = self.index(span=(-64, BS_MAX + 63))
                txt = "sh[SHOFF + %s]" % itxt
        else:
            txt = self.access(arr, own)
        if not own:
            self.reads_any.add(arr)
        v = self.var()
        if self.r.random() < 0.2 and self.values:
            # a predicated load (nvcc emits @p ld or a branch)
            w = self.r.choice(self.values)
            self.emit("%s %s = %s;" % (self.etype, v, w))
            self.emit("if (%s) %s = %s;" % (self.cond(), v, txt))
        else:
            self.emit("%s %s = %s;" % (self.etype, v, txt))
        self.values.append(v)
        self.mix(v)
        self.math(v)

    def vload(self):
        vt = ETYPES[self.etype][self.r.choice([1, 2])] or ETYPES[self.etype][1]
        width = 4 if vt.endswith("4") else 2
        # own index helpers would often leave the region at 2 or 4 elements a
        # thread: the anchor is t (2) or tid.x (4), the shift small
        k = self.r.randint(-8, 8)
        anchor = "t" if width == 2 else "(int)threadIdx.x"
        extra = self.r.choice(["", "", " + (p & 3)", " + (lane & 1)"] + [" + (%s & 3)" % h.text for h in self.helpers])
        itxt = "%s%s %s %d" % (anchor, extra, "+" if k >= 0 else "-", abs(k))
        v = self.var("w")
        self.emit("%s %s = reinterpret_cast<const %s *>(br)[%s];" % (vt, v, vt, itxt))
        self.reads_any.add("b")
        comps = "xyzw"[:width]
        s = self.var()
        self.emit("%s %s = %s;" % (self.etype, s, " + ".join("%s.%s" % (v, c) for c in comps)))
        self.values.append(s)
        self.mix(s)
        self.math(s)

    def math_text(self, op, v, w):
        text = MATH[op][0]
        if op == "powc":
            c = self.rm.choice(POWC)
            integer = c in ("2.0f", "3.0f", "-1.0f")
            text = text.replace("PBASE(V)", "PBASE(V)" if integer else "(fminf(fabsf(V), 3.0f) + 1.0f)").replace("#C", c)
        return text.replace("V", v).replace("W", w)

    def math(self, v):
        """Maybe a precise math operation on V whose result enters acc only."""
        if self.etype != "float" or avoid("math") or self.rm.random() >= 0.4:
            return
        op = self.rm.choice(sorted(MATH))
        w = self.rm.choice(self.values)
        shape = self.rm.random()
        shared_ok = self.uniform and not self.returned and not self.fenced
        m = self.var("m")
        if shared_ok and shape < 0.3:
            # through shared memory (an array of its own, every element set
            # first: launches with fewer threads leave t ^ 8 unwritten),
            # within the warp
            sm = self.var("sm")
            self.emit("__shared__ float %s[%d];" % (sm, BS_MAX))
            self.emit("for (int i = t; i < %d; i += (int)(blockDim.x * blockDim.y * blockDim.z)) %s[i] = 0.0f;"
                      % (BS_MAX, sm))
            self.emit("float %s = %s;" % (m, self.math_text(op, v, w)))
            self.mix(m)
            self.emit("__syncthreads();")
            self.emit("%s[t] = %s;" % (sm, m))
            self.emit("__syncthreads();")
            for lane in ("(t ^ 1)", "(t ^ 8)"):
                r = self.var("m")
                self.emit("float %s = %s[%s];" % (r, sm, lane))
                self.mix(r)
            self.emit("__syncthreads();")
            self.reads_any.clear()
            self.writes.clear()
            self.math_shapes.append("shared")
        elif shape < 0.55:
            # in a loop: a constant trip count (unrolled) or a runtime one
            const = self.rm.random() < 0.5
            k = self.var("k")
            self.emit("for (int %s = 0; %s < %s; %s++) {" % (k, k, self.rm.choice(["3", "4"]) if const else
                                                             self.rm.choice(["(p & 3) + 1", "(int)(q & 3u)"]), k))
            self.ind += 1
            vk = "(%s + (float)%s * 0.25f)" % (v, k)
            self.emit("float %s = %s;" % (m, self.math_text(op, vk, w)))
            self.mix(m)
            self.ind -= 1
            self.emit("}")
            self.math_shapes.append("loop-const" if const else "loop-runtime")
        else:
            self.emit("float %s = %s;" % (m, self.math_text(op, v, w)))
            self.mix(m)
            self.math_shapes.append("alone")
        self.math_ops.append(op)

    def store(self):
        arrs = ["a", "c"] + (["sh"] if self.has_shared else [])
        arr = self.r.choice(arrs)
        if arr in self.reads_any:
            return
        val = self.value_expr()
        if arr == "sh":
            self.emit("sh[SHOFF + t] = %s;" % val)
        elif self.r.random() < 0.15 and self.etype in ("int", "unsigned", "float"):
            h = self.var("h")
            self.emit("int %s = (int)atomicAdd(&%s, %s) & 7;" % (h, self.access(arr, True), val))
            if not avoid("atomic"):
                self.helpers.append(Term(h, 0, 7, True))
        else:
            self.emit("%s = %s;" % (self.access(arr, True), val))
        self.writes.add(arr)

    def value_expr(self):
        if not self.values:
            return "(%s)t" % self.etype
        v = self.r.choice(self.values)
        w = self.r.choice(self.values)
        if self.flt:
            return self.r.choice(["%s + %s" % (v, w), "%s * 0.5f - %s" % (v, w), "%s + 1.0f" % v])
        return self.r.choice(["%s + %s" % (v, w), "%s ^ %s" % (v, w), "%s + 1" % v, "(%s >> 1) - %s" % (v, w)])

    def mix(self, v):
        if self.flt:
            self.emit("acc = acc * 0.75%s + %s;" % ("f" if self.etype == "float" else "", v))
        else:
            self.emit("acc = acc * 31u + (unsigned)%s;" % v)

    # ---------------------------------------------------------- helpers
    def helper(self):
        h = self.var("h")
        c = self.r.randrange(9)
        kinds = {0: "lane", 1: "data", 2: "atomic", 3: "local", 4: "merge", 5: "laneloop", 6: "lane"}
        if avoid(kinds.get(c)):
            c = 7
        if c == 0:
            self.emit("int %s = lane;" % h)
            self.helpers.append(Term(h, 0, 31, True))
            return
        if c == 1 and self.values:
            self.emit("int %s = %s;" % (h, self.conv(self.r.choice(self.values))))
        elif c == 2:
            self.emit("int %s = (int)atomicAdd(&cnt[16 + gown], 1 + (t & 1)) & 7;" % h)
        elif c == 3 and self.has_local:
            self.emit("int %s = %s;" % (h, self.conv("loc[(p + %d) & 7]" % self.r.randrange(8))))
        elif c == 4:
            # a value merged after divergent control flow
            self.emit("int %s;" % h)
            self.emit("if (%s) %s = %d; else %s = %s;" % (self.cond(True), h, self.r.randrange(8), h,
                                                            self.r.choice(["(p & 3)", "lane & 7", "1", "lmk & 7"])))
        elif c == 5:
            # a value after a loop whose trip count depends on the lane
            self.emit("int %s = 0;" % h)
            self.emit("for (int j = 0; j < %s; j++) %s = (%s + %s) & 7;" %
                      (self.r.choice(["(lane & 3)", "(t % 3)", "((int)threadIdx.x & 1)"]), h, h,
                       self.r.choice(["3", "j", "p"])))
        elif c == 6:
            self.emit("int %s = __popc(lmask) & 7;" % h)
        elif c == 7:
            self.emit("int %s = p & 3;" % h)
        else:
            self.emit("int %s = (int)(q + blockIdx.x) & 7;" % h)
        self.helpers.append(Term(h, 0, 7, True))

    def cond(self, divergent=None):
        if divergent is None:
            divergent = self.r.random() < 0.6
        if divergent:
            c = ["(t & 1)", "lane < %d" % self.r.randrange(1, 32), "(int)threadIdx.x > %d" % self.r.randrange(64),
                 "threadIdx.y == 1"]
            if self.values:
                v = self.r.choice(self.values)
                c.append("%s > %s" % (v, "0.0f" if self.etype == "float" else "0"))
            if self.helpers:
                c.append("%s != 2" % self.r.choice(self.helpers).text)
            return self.r.choice(c)
        return self.r.choice(["p > 3", "(q & 1u)", "blockIdx.x == 1", "p < 2"])

    # ---------------------------------------------------------- statements
    def barrier(self):
        if self.uniform and not self.returned and not self.fenced:
            self.emit("__syncthreads();")
            self.reads_any.clear()
            self.writes.clear()

    def stmt(self, depth):
        self.budget -= 1
        if not avoid("brk") and self.plain_loops and self.r22.random() < 0.08:
            # a lane-divergent break or continue (issue 22 class 2)
            self.emit("if (%s) %s;" % (self.cond(True), "break" if self.r22.random() < 0.5 else "continue"))
        c = self.r.random()
        if c < 0.30:
            self.load()
        elif c < 0.42:
            self.store()
        elif c < 0.50:
            self.helper()
        elif c < 0.55:
            self.vload()
        elif c < 0.60:
            self.barrier()
        elif c < 0.75 and depth < 3:
            self.loop(depth)
        elif c < 0.88 and depth < 3:
            self.branch(depth)
        elif c < 0.92 and not self.in_bar_loop and depth < 2:
            self.emit("if (%s) { out[gown] = (%s)acc; return; }" % (self.cond(), self.etype))
            self.returned = True
        elif c < 0.96 and depth < 2 and not avoid("motif"):
            self.motif()
        else:
            self.load()

    def motif(self):
        """A load before a loop and a load and a store of the same array
        in it (the shapes of issue 10 class 1), which random statements
        reach rarely: own elements only (always race-free), or, where a
        barrier is allowed, a neighbour's element with the store between
        barriers."""
        arr = self.r.choice(["a", "c"])
        neighbour = (self.uniform and not self.returned and not self.fenced and arr not in self.writes
                     and self.r.random() < 0.6)
        if not neighbour and arr in self.reads_any:
            return
        e, x, y = self.etype, self.var(), self.var()
        if neighbour:
            k = self.r.choice([1, -1, 2, 0])
            k2 = k + self.r.choice([1, -1, 0, 3])
            self.emit("%s %s = %sr[t + %d];" % (e, x, arr, k))
            self.reads_any.add(arr)
            self.mix(x)
            self.emit("for (int m = 0; m < %s; m++) {" % self.r.choice(["p", "(p & 3) + 1", "4"]))
            self.ind += 1
            self.emit("%s %s = %sr[t + %d];" % (e, y, arr, k2))
            self.mix(y)
            self.emit("__syncthreads();")
            self.emit("%sr[t] = %s + %s;" % (arr, y, x if not self.flt else x + " * 0.5f"))
            self.emit("__syncthreads();")
            self.ind -= 1
            self.emit("}")
            self.reads_any.clear()
            self.writes.clear()
        else:
            self.emit("%s %s = %sr[t];" % (e, x, arr))
            self.mix(x)
            self.emit("for (int m = 0; m < %s; m++) {" % self.r.choice(["p", "(t & 3)", "3"]))
            self.ind += 1
            self.emit("%s %s = %s[base + t];" % (e, y, arr))
            self.mix(y)
            self.emit("%sr[t] = %s + %s;" % (arr, y, "1" if not self.flt else "1.0f"))
            self.ind -= 1
            self.emit("}")
            self.writes.add(arr)
        self.values.append(x)

    def block(self, depth, n):
        saved_vals, saved_helpers = len(self.values), len(self.helpers)
        for _ in range(n):
            if self.budget <= 0:
                break
            self.stmt(depth)
        # variables declared inside are out of scope afterwards
        del self.values[saved_vals:]
        del self.helpers[saved_helpers:]

    def branch(self, depth):
        div = self.r.random() < 0.7
        saved = self.uniform
        self.emit("if (%s) {" % self.cond(div))
        self.uniform = saved and not div
        self.ind += 1
        self.fenced += 1
        self.block(depth + 1, self.r.randint(1, 4))
        if self.r.random() < 0.5:
            self.ind -= 1
            self.emit("} else {")
            self.ind += 1
            self.block(depth + 1, self.r.randint(1, 3))
        self.fenced -= 1
        self.ind -= 1
        self.emit("}")
        self.uniform = saved

    def loop(self, depth):
        i = "i%d" % depth
        lane_dep = self.r.random() < 0.35
        bar_loop = not lane_dep and self.uniform and not self.returned and not self.fenced and self.r.random() < 0.35
        if lane_dep:
            trip, hi = self.r.choice([("(t & 3)", 3), ("(lane % 5)", 4), ("((int)threadIdx.x & 3) + 1", 4)]
                                     + [("(%s & 3)" % h.text, 3) for h in self.helpers])
        elif bar_loop:
            trip, hi = self.r.choice([("(p & 3) + 5", 7), ("p", 6), ("4", 4)])
        else:
            trip, hi = self.r.choice([("p", 6), ("(p & 3)", 3), ("3", 3), ("(int)(q & 7u)", 7)])
        self.emit("for (int %s = 0; %s < %s; %s++) {" % (i, i, trip, i))
        saved = self.uniform
        self.uniform = saved and not lane_dep
        term = Term(i, 0, hi - 1, True)
        self.loops.append(term)
        self.ind += 1
        if bar_loop:
            self.in_bar_loop += 1
        else:
            self.fenced += 1
            self.plain_loops += 1
        self.block(depth + 1, self.r.randint(2, 6))
        if not bar_loop:
            self.fenced -= 1
            self.plain_loops -= 1
        if bar_loop:
            self.in_bar_loop -= 1
            # trip >= 1 and a trailing barrier: the segment after the loop
            # starts afresh whatever the trip count
            self.emit("__syncthreads();")
            self.reads_any.clear()
            self.writes.clear()
        self.ind -= 1
        self.emit("}")
        self.loops.pop()
        self.uniform = saved

    def late_motif(self):
        """Lanes that read one word at different times (issue 22 class 1), as
        gen_ptx.py's late_motif: block 0's thread 0 reads cfg (out's spare
        word) and then releases sig; block 1's thread 0 waits for sig,
        writes cfg and releases flag; every other thread waits for flag
        and then reads cfg.  The value enters indices as a helper in [0, 7]."""
        h = self.var("h")
        v = self.r22.randrange(1, 8)
        k = self.r22.choice([0, 1, -1, 2])
        pair = "br[t + %s + %d] + br[t + %s + %d]" % (h, k, h, k + 1)
        self.helpers.append(Term(h, 0, 7))
        return ["    volatile unsigned *cfgw = (volatile unsigned *)(out + %d);" % OUT_N,
                "    if (blk == 1 && t == 0) {",
                "        while (ld_acquire(cfgw + 2) == 0) { }",
                "        cfgw[0] = %du;" % v,
                "        st_release(cfgw + 1, 1);",
                "    } else if (blk != 0 || t != 0) {",
                "        while (ld_acquire(cfgw + 1) == 0) { }",
                "    }",
                "    int %s = (int)(*(const unsigned *)(out + %d) & 7u);" % (h, OUT_N),
                "    if (blk == 0 && t == 0) st_release(cfgw + 2, 1);",
                "    __syncthreads();",
                # a neighbour pair whose address holds the value (read-only b)
                ("    acc = acc * 0.75%s + (%s);" % ("f" if self.etype == "float" else "", pair)) if self.flt
                else "    acc = acc * 31u + (unsigned)(%s);" % pair]

    # ---------------------------------------------------------- kernel
    def kernel(self):
        e = self.etype
        rb = "const %s *%sb" % (e, "__restrict__ " if self.r.random() < 0.3 else "")
        head = ['extern "C" __global__ void %s(%s *out, %s *a, %s, %s *c, int *cnt, int n, int p, unsigned q, '
                'const unsigned *e1, const unsigned *e2)' % (self.name, e, e, rb, e), "{"]
        pre = ["    unsigned ulane, lmask;",
               "    asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(ulane));",
               "    int lane = (int)ulane;",
               "    asm(\"mov.u32 %0, %%lanemask_lt;\" : \"=r\"(lmask));",
               "    int lmk = __popc(lmask);",
               "    int t = (int)(threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y);",
               "    int blk = (int)(blockIdx.x + blockIdx.y * gridDim.x);",
               "    int gown = blk * %d + t;" % BS_MAX,
               "    int base = blk * %d + %d;" % (R, OFF),
               "    %s *ar = a + base; const %s *br = b + base; %s *cr = c + base;" % (e, e, e),
               "    %s acc = 0;" % ("unsigned" if not self.flt else e)]
        if self.has_shared:
            pre += ["    __shared__ %s sh[%d];" % (e, BS_MAX + 128),
                    "    for (int i = t; i < %d; i += (int)(blockDim.x * blockDim.y * blockDim.z))" % (BS_MAX + 128),
                    "        sh[i] = b[base + i - 64];",
                    "    __syncthreads();"]
        if self.has_local:
            pre += ["    %s loc[8];" % e,
                    "    for (int i = 0; i < 8; i++) loc[i] = br[t + i];"]
        if not avoid("late") and self.r22.random() < 0.2:
            pre += self.late_motif()
        if self.r.random() < 0.3:
            pre.append("    if (blk * (int)(blockDim.x * blockDim.y * blockDim.z) + t >= n) return;")
            self.returned = True
        self.lines = []
        while self.budget > 0:
            self.stmt(0)
        self.emit("out[gown] = (%s)acc;" % e)
        body = pre + self.lines
        return "\n".join(head + body + ["}"]) + "\n"


PRELUDE = ("#define SHOFF 64\n#define CL(x, k) fminf(fmaxf((x), -(k)), (k))\n"
           "#define PBASE(x) (((x) < 0.0f ? -1.0f : 1.0f) * (fminf(fabsf(x), 3.0f) + 1.0f))\n"
           "__device__ __forceinline__ unsigned ld_acquire(volatile unsigned *p)\n"
           "{ unsigned v; asm volatile(\"ld.acquire.gpu.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p) : \"memory\"); return v; }\n"
           "__device__ __forceinline__ void st_release(volatile unsigned *p, unsigned v)\n"
           "{ asm volatile(\"st.release.gpu.global.u32 [%0], %1;\" :: \"l\"(p), \"r\"(v) : \"memory\"); }\n")


def kernel_source(seed):
    g = Gen(seed, "k%d" % seed)
    return g.kernel(), g.etype


def module(seeds):
    parts = [PRELUDE]
    meta = {}
    for s in seeds:
        src, et = kernel_source(s)
        parts.append(src)
        meta["k%d" % s] = et
    return "\n".join(parts), meta


if __name__ == "__main__":
    if sys.argv[1] == "--features":
        # how often each math operation occurs over seeds 1..N
        from collections import Counter
        n = int(sys.argv[2])
        seen, shapes = Counter(), Counter()
        for s in range(1, n + 1):
            g = Gen(s, "k%d" % s)
            g.kernel()
            seen.update(set(g.math_ops))
            shapes.update(set(g.math_shapes))
        for op in sorted(MATH):
            print("math-%s %d" % (op, seen[op]))
        for sh in MATH_SHAPES:
            print("math-shape-%s %d" % (sh, shapes[sh]))
    elif sys.argv[1] == "--meta":
        print(kernel_source(int(sys.argv[2]))[1])
    else:
        seed = int(sys.argv[1])
        count = int(sys.argv[2]) if len(sys.argv) > 2 else 1
        sys.stdout.write(module(range(seed, seed + count))[0])
