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
    ("shuffle-checks", "shuffle<max-delta=31;max-shuffles=1000;loops=1;unsigned=1;clamp=1;profit=off>", ""),
    ("regtune-l2", "regtune<level=2;block=128>", ""),
    ("regtune-maxnreg32", "regtune<maxnreg=32>", ""),
    # sfu: lambda=0 leaves the program byte-identical (bit for bit); with
    # lambda > 0 the approximate warps may differ within the documented
    # bounds of the approximations (relative 1e-5 covers div/rcp/sqrt/
    # rsqrt.approx and the library sequences on the generator's values)
    ("sfu-l0", "sfu<lambda=0>", ""),
    ("sfu-l1", "sfu<lambda=1;gate=off>", "--rel=1e-5"),
    ("sfu-all", "sfu<lambda=all;gate=off>", "--rel=1e-5"),
]
