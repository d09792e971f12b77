"""passes.py — the pass configurations the differential tester runs.

One line per configuration: (name, pipeline, extra ptxopt-emu options).
Registering a new pass (bypass, sfu, tinylock) is one more line here; a
pass whose rewrite is approximate gives its error bound as an emulator
option (e.g. "--ulp=2"), exact passes give none (bit for bit).
"""
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
    ("bypass-pairs-t0", "bypass<threshold=0>", ""),
    ("bypass-pairs-t1", "bypass<threshold=1;form=pairs>", ""),
    ("bypass-pairs-noalloc-t2", "bypass<threshold=2;op=no-allocate>", ""),
    ("bypass-pairs-cs-t1-global", "bypass<threshold=1;op=cs;delivery=global>", ""),
    ("bypass-versioning-t1", "bypass<threshold=1;form=versioning>", ""),
    ("bypass-versioning-t2-global", "bypass<threshold=2;form=versioning;op=no-allocate;delivery=global>", ""),
    ("bypass-l2policy-t0", "bypass<threshold=0;form=l2policy>", ""),
    ("bypass-l2policy-t2", "bypass<threshold=2;form=l2policy>", ""),
    ("bypass-l2policy-all-global", "bypass<threshold=all;form=l2policy;delivery=global>", ""),
    # sfu: lambda=0 leaves the program byte-identical (bit for bit); with
    # lambda > 0 the approximate warps may differ within the documented
    # bounds of the approximations (relative 1e-5 covers div/rcp/sqrt/
    # rsqrt.approx and the library sequences on the generator's values)
    ("sfu-l0", "sfu<lambda=0>", ""),
    ("sfu-l1", "sfu<lambda=1;gate=off>", "--rel=1e-5"),
    ("sfu-all", "sfu<lambda=all;gate=off>", "--rel=1e-5"),
    # tinylock: every rewrite on (spin-lock upgrade, barrier channels with
    # the profitability gate), then forced barrier channels with the debug
    # bound (a wait that never ends traps instead of hanging the emulator)
    ("tinylock", "tinylock", ""),
    ("tinylock-debug", "tinylock<debug-spin=100000;profit=off;backoff=32>", ""),
]
