"""passes.py — the pass configurations the differential tester runs.

One line per configuration: (name, pipeline, extra ptxopt-emu options).
Registering a new pass (bypass, sfu, tinylock) is one more line here; a
pass whose rewrite is approximate gives its error bound as an emulator
option (e.g. "--ulp=2"), exact passes give none (bit for bit).
"""
CONFIGS = [
    ("shuffle", "shuffle", ""),
    ("shuffle-d31-loops", "shuffle<max-delta=31;loops=1>", ""),
    ("shuffle-paper", "shuffle<max-delta=31;max-shuffles=1000;loops=1>", ""),
    ("shuffle-z3", "shuffle<max-delta=31;max-shuffles=1000;loops=1;prove=z3>", ""),
    ("shuffle-rewrite", "shuffle<max-delta=31;max-shuffles=1000;loops=1;prove=rewrite>", ""),
    ("regtune-l2", "regtune<level=2;block=128>", ""),
    ("regtune-maxnreg32", "regtune<maxnreg=32>", ""),
]
