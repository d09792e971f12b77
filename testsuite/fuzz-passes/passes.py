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
    # tinylock: every rewrite on (spin-lock upgrade, barrier channels with
    # the profitability gate), then forced barrier channels with the debug
    # bound (a wait that never ends traps instead of hanging the emulator)
    ("tinylock", "tinylock", ""),
    ("tinylock-debug", "tinylock<debug-spin=100000;profit=off;backoff=32>", ""),
]
