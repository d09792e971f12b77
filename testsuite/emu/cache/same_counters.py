"""same_counters.py A.json B.json — the counters of two ptxopt-emu runs are
equal apart from B's "cache" member (which A must not have): the cache
model only observes a run.  Exit 0 when equal, 1 with the differing keys."""
import json
import sys

a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
if "cache" in a:
    sys.exit("%s has a \"cache\" member without --cache" % sys.argv[1])
if "cache" not in b:
    sys.exit("%s has no \"cache\" member" % sys.argv[2])
del b["cache"]
diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
if diff:
    sys.exit("counters differ in %s" % ", ".join(diff))
print("same counters")
