"""curve.py T0.json TMID.json TALL.json — the cache-congested shape of the
thesis (research/seed-002-reg-cache.md §2.4) on one kernel: the L2
traffic (L1 misses + bypassed sectors) of the middle threshold is below
both cache-all and bypass-all, bypass-all has no L1 hit, and DRAM reads
do not depend on T (the L2 holds the matrix)."""
import json
import sys

runs = [json.load(open(f))["cache"] for f in sys.argv[1:4]]
traffic = [r["loads"]["total"]["l2_hits"] + r["loads"]["total"]["l2_misses"] for r in runs]
bypass_all, middle, cache_all = runs
fail = []
if bypass_all["loads"]["total"]["l1_hits"] != 0:
    fail.append("bypass-all hits L1")
if bypass_all["loads"]["caching"]["requests"] != 0:
    fail.append("T=0 counts caching warps")
if not (traffic[1] < traffic[0] and traffic[1] < traffic[2]):
    fail.append("no valley: L2 traffic %s" % traffic)
if len({r["dram_read_sectors"] for r in runs}) != 1:
    fail.append("DRAM reads depend on T")
if fail:
    sys.exit("; ".join(fail))
print("L2 sectors by T: bypass-all %d, middle %d, cache-all %d" % tuple(traffic))
