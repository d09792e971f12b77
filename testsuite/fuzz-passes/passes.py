"""passes.py — the pass configurations the differential tester runs.

One line per configuration: (name, pipeline, extra ptxopt-emu options).
Registering a new pass (bypass, sfu, tinylock) is one more line here; a
pass whose rewrite is approximate gives its error bound as an emulator
option (e.g. "--ulp=2"), exact passes give none (bit for bit).  Words
starting with "oracle:" are checks oracle.py makes itself (see there).
"""
# The sfu tolerance (see the sfu lines): per math operation of gen.MATH,
# its replacement's documented error at the result's largest magnitude M.
SFU_ABS = {
    "div": 2 * 2.0 ** -23 * 64,                # div.full/approx: 2 ulp of |r| <= 64
    "sqrt": 2.0 ** -23 * 8.1,                  # sqrt.approx: relative 2^-23
    "rsqrt": 2.0 ** -22.9 + 2.0 ** -23,        # rsqrt.approx or rcp(sqrt): r <= 1
    "exp": (2 + 1.173 * 4) * 2.0 ** -23 * 54.6,  # 2 + |1.173 x| ulp, x in [-4, 4]
    "exp10": (2 + 2.97 * 2) * 2.0 ** -23 * 100,  # 2 + |2.97 x| ulp, x in [-2, 2]
    "log": max(2.0 ** -21.41, 3 * 2.0 ** -23 * 4.2),  # absolute 2^-21.41 or 3 ulp
    "log2": max(2.0 ** -22, 2 * 2.0 ** -23 * 6.1),    # absolute 2^-22 or 2 ulp
    "sin": 2.0 ** -14.7,                       # |x| <= 12 < 100 pi: absolute 2^-14.7
    "cos": 2.0 ** -14.7,
    # ex2(y lg2 x), x in [1, 4], |y| <= 3: lg2's 2^-22 (relative) times
    # |y lg2 x| <= 6 plus the product's rounding, times ln 2, plus 2 ulp
    "pow": ((6 * 2.0 ** -22 + 6 * 2.0 ** -24) * 0.6932 + 2 * 2.0 ** -23) * 64,
    "tanh": 2.0 ** -11,                        # tanh.approx: relative 2^-11, |r| <= 1
}
# constant and integer exponents (|x| in [1, 4], |y| <= 3): as "pow"
SFU_ABS["powc"] = SFU_ABS["powi"] = SFU_ABS["pow"]
# 4 e, plus 4 ulps of the accumulator's intermediate values (at most 4 x
# (100 + the loaded values'), taken as 512) for the roundings that differ
SFU_TOL = "--approx=bound --abs=%.3g --rel=%.3g" % (4 * max(SFU_ABS.values()) + 4 * 2.0 ** -23 * 512,
                                                    4 * 2.0 ** -23)
# the same bounds under the random model (each approximate result anywhere
# within its bound, seeded: reproducible)
SFU_TOL_RANDOM = SFU_TOL.replace("--approx=bound", "--approx=random:24")

# Configurations whose rewrite touches ordering run under weak memory.
WEAK = "--memory=weak"

# The shuffle pass's default is gated by profitability (sm_70+: N != 0
# shuffles of L1-served loads are refused); the other shuffle lines say
# profit=off so that the rewrite itself is what gets tested.
CONFIGS = [
    ("shuffle", "shuffle", ""),
    ("shuffle-forced", "shuffle<profit=off>", ""),
    ("shuffle-d31-loops", "shuffle<max-delta=31;loops=1;profit=off>", ""),
    ("shuffle-paper", "shuffle<max-delta=31;max-shuffles=1000;loops=1;profit=off>", ""),
    ("shuffle-z3", "shuffle<max-delta=31;max-shuffles=1000;loops=1;prove=z3;profit=off>", ""),
    ("shuffle-rewrite", "shuffle<max-delta=31;max-shuffles=1000;loops=1;prove=rewrite;profit=off>", ""),
    ("shuffle-noversion", "shuffle<max-delta=31;loops=1;profit=off;version=0>", ""),
    ("shuffle-checks", "shuffle<max-delta=31;max-shuffles=1000;loops=1;unsigned=1;clamp=1;profit=off>", ""),
    ("regtune-l2", "regtune<level=2;block=128>", ""),
    ("regtune-maxnreg32", "regtune<maxnreg=32>", ""),
    # bypass: every form, T = 0 (plain bypass-all), 1, 2 (about W/2 of the
    # launch shapes' 2..4 warps) and all; both deliveries.  Exact: bit for bit.
    # bypass changes cache operators and tinylock changes fences, atomics
    # and flags: both run under the emulator's weak memory model too
    # (WEAK: its seed varies per --diff run), where a missing ordering
    # shows (issue 23).
    ("bypass-pairs-t0", "bypass<threshold=0>", WEAK),
    ("bypass-pairs-t1", "bypass<threshold=1;form=pairs>", WEAK),
    ("bypass-pairs-noalloc-t2", "bypass<threshold=2;op=no-allocate>", WEAK),
    ("bypass-pairs-cs-t1-global", "bypass<threshold=1;op=cs;delivery=global>", WEAK),
    ("bypass-versioning-t1", "bypass<threshold=1;form=versioning>", WEAK),
    ("bypass-versioning-t2-global", "bypass<threshold=2;form=versioning;op=no-allocate;delivery=global>", WEAK),
    ("bypass-l2policy-t0", "bypass<threshold=0;form=l2policy>", WEAK),
    ("bypass-l2policy-t2", "bypass<threshold=2;form=l2policy>", WEAK),
    ("bypass-l2policy-all-global", "bypass<threshold=all;form=l2policy;delivery=global>", WEAK),
    # sfu: lambda=0 leaves the program byte-identical (bit for bit).  With
    # lambda > 0 the approximate warps differ, and a relative tolerance is
    # not sound (sin.approx documents an absolute bound: an output near 0
    # has any relative error).  gen.py's math results (gen.MATH) enter only
    # out, through acc = acc * 0.75 + m, so an output moves by at most
    # sum_k 0.75^k e = 4 e, e the largest per-site absolute error (the
    # documented bound of emu/approx_error.c at the clamped result
    # magnitudes of gen.MATH, SFU_ABS above), plus 4 ulps of the
    # accumulator for the roundings that differ.  The rewrite runs under
    # --approx=bound, each approximate instruction pushed to the worst end
    # of its documented error (the original too: nvcc's own ex2.approx
    # inside expf moves the same way in both), so the check is of the
    # bounds, not of the exact model's nearly exact results.  Integer
    # buffers stay bit for bit.  Then oracle:exact-warps=K (oracle.py):
    # every buffer but out bit for bit (math never reaches them), and out
    # too at the threads of warps K and up (those the split leaves on the
    # precise copy).  Sensitivity: a wrong replacement early in a kernel
    # is damped by 0.75 per later mix into acc, so the tolerance catches it
    # where its site is among the last dozen mixes (exact-warps, anywhere).
    ("sfu-l0", "sfu<lambda=0>", ""),
    ("sfu-l1", "sfu<lambda=1;gate=off>", SFU_TOL + " oracle:exact-warps=1"),
    ("sfu-all", "sfu<lambda=all;gate=off>", SFU_TOL + " oracle:exact-warps=all"),
    # the same under --approx=random (issue 24: bound and random campaigns)
    ("sfu-l2-random", "sfu<lambda=2;gate=off>", SFU_TOL_RANDOM + " oracle:exact-warps=2"),
    ("sfu-all-random", "sfu<lambda=all;gate=off>", SFU_TOL_RANDOM + " oracle:exact-warps=all"),
    # tinylock: every rewrite on (spin-lock upgrade, barrier channels with
    # the profitability gate), then forced barrier channels with the debug
    # bound (a wait that never ends traps instead of hanging the emulator)
    ("tinylock", "tinylock", WEAK),
    ("tinylock-debug", "tinylock<debug-spin=100000;profit=off;backoff=32>", WEAK),
]
