"""uniform.py OUT WID BLOCK T — check the partition predicate of the bypass
pass, as recorded by part.ptx (1 where the thread's warp bypassed):
  * every thread's value is (linear tid >> 5) >= T, with the linear tid
    tid.x + ntid.x * (tid.y + ntid.y * tid.z) (warps are formed from it);
  * it is the same in every thread of each warp the emulator formed
    (threads grouped by CTA and the emulator's %warpid): warp-uniform;
  * both values occur in every CTA (0 < T < W), so the check can fail.
BLOCK is X[,Y[,Z]]; OUT and WID are ptxopt-emu text dumps."""
import sys

def read(path):
    with open(path) as f:
        return [int(x) for x in f.read().split()]

out, wid, block, T = read(sys.argv[1]), read(sys.argv[2]), [int(v) for v in sys.argv[3].split(",")], int(sys.argv[4])
n = 1
for v in block:
    n *= v
bad = 0
groups = {}
for gid, v in enumerate(out):
    cta, lin = divmod(gid, n)
    want = 1 if (lin >> 5) >= T else 0
    if v != want:
        bad += 1
        if bad <= 5:
            print(f"thread {lin} of CTA {cta}: bypass={v}, expected {want}")
    groups.setdefault((cta, wid[gid]), set()).add(v)
split = [k for k, s in groups.items() if len(s) > 1]
for k in split[:5]:
    print(f"CTA {k[0]} warp {k[1]}: the predicate differs within the warp")
for cta in range(len(out) // n):
    if len(set(out[cta * n:(cta + 1) * n])) != 2:
        print(f"CTA {cta}: not partitioned (T={T} should split it)")
        bad += 1
if bad or split:
    sys.exit(1)
print(f"uniform.py: {len(out)} threads, {len(groups)} warps, block {sys.argv[3]}, T={T}: ok")
