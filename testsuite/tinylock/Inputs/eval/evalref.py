#!/usr/bin/env python3
"""evalref.py -- independent references for the tiny-lock evaluation kernels.

Each lit test (testsuite/tinylock/eval-*.test) runs a kernel of this
directory in ptxopt-emu, dumps its buffers in binary (inputs included, so
random inputs need not be regenerated here), and calls

    python3 evalref.py CHECK key=value ... name=FILE ...

CHECK recomputes the result from the inputs with the serial semantics that
the kernel's comment states (nothing here comes from an emulator run) and
compares it with the dumped output: exit 0 when equal, 1 with the first
differences otherwise.  All buffers are int32.
"""
import struct
import sys

sys.dont_write_bytecode = True


def ints(path):
    with open(path, "rb") as f:
        data = f.read()
    return list(struct.unpack("<%di" % (len(data) // 4), data))


def u32(v):
    return v & 0xFFFFFFFF


def same(name, got, want):
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    if len(got) < len(want):
        bad.append((len(got), "missing", want[len(got)]))
    for i, g, w in bad[:8]:
        print("%s[%d]: got %s, want %s" % (name, i, g, w))
    return not bad


def histo(a):
    n, nb = int(a["n"]), int(a["nbins"])
    inp = ints(a["in"])[:n]
    cnt, sm = [0] * nb, [0] * nb
    for v in inp:
        b = u32(v) % nb
        cnt[b] += 1
        sm[b] += v
    return same("count", ints(a["count"])[:nb], cnt) & same("sum", ints(a["sum"])[:nb], sm)


def hashins(a):
    n, nb, cap = int(a["n"]), int(a["nbuckets"]), int(a["cap"])
    keys = ints(a["in"])[:n]
    want = [[] for _ in range(nb)]
    for k in keys:
        want[(((u32(k) * 2654435761) & 0xFFFFFFFF) >> 16) % nb].append(k)
    fill, slots, over = ints(a["fill"]), ints(a["slots"]), ints(a["overflow"])
    ok = True
    for h in range(nb):
        # which keys overflowed depends on the schedule; the kept ones are a sub-multiset
        got = sorted(slots[h * cap:h * cap + fill[h]])
        if len(want[h]) <= cap:
            ok &= same("bucket%d" % h, got, sorted(want[h]))
        else:
            ok &= fill[h] == cap and all(got.count(k) <= want[h].count(k) for k in got)
    ok &= same("fill", fill[:nb], [min(len(w), cap) for w in want])
    ok &= same("overflow", over[:nb], [max(0, len(w) - cap) for w in want])
    return ok


def spinlock_warp(a):
    bs, grid = int(a["block"]), int(a["grid"])
    inp = ints(a["in"])
    want = []
    for c in range(grid):
        want += [sum(inp[c * bs:(c + 1) * bs]), bs]
    return same("out", ints(a["out"])[:2 * grid], want)


def chain(a):
    bs, grid = int(a["block"]), int(a["grid"])
    inp = ints(a["in"])
    want = []
    for c in range(grid):
        A = [0] * bs
        for t in range(bs):
            A[t] = (inp[c * bs + t] if t < 32 else A[t - 32]) + t
        want += A
    return same("out", ints(a["out"])[:bs * grid], want)


def chain_blocks(a):
    bs, grid = int(a["block"]), int(a["grid"])
    inp = ints(a["in"])
    want, run = [], 0
    for c in range(grid):
        run += sum(inp[c * bs:(c + 1) * bs])
        want.append(run)
    return same("prefix", ints(a["prefix"])[:grid], want) & same("flags", ints(a["flags"])[:grid], [1] * grid)


def wavefront(a):
    W, H, k = int(a["W"]), int(a["H"]), int(a["k"])
    sa, sb = ints(a["a"]), ints(a["b"])
    S = {(-1, -1): 0}
    for j in range(W):
        S[(-1, j)] = -(j + 1) * k
    for i in range(H):
        S[(i, -1)] = -(i + 1) * k
    want = []
    for i in range(H):
        for j in range(W):
            p = 1 if sa[i] == sb[j] else -1
            S[(i, j)] = max(S[(i, j - 1)] - k, S[(i - 1, j - 1)] + p, S[(i - 1, j)] - k)
            want.append(S[(i, j)])
    return same("out", ints(a["out"])[:W * H], want)


def pipe(a, kind):
    grid = int(a["grid"])
    inp = ints(a["in"])
    out = ints(a["out"])
    ok = True
    if kind == "p2p":
        want = [3 * inp[c * 32 + l] + 1 + l for c in range(grid) for l in range(32)]
    elif kind == "loop":
        steps = int(a["steps"])
        want = [sum(3 * inp[(r * grid + c) * 32 + l] + 1 for r in range(steps)) + l for c in range(grid) for l in range(32)]
    elif kind == "two":
        want = [3 * inp[c * 32 + l] + 1 + inp[c * 32 + l] - l for c in range(grid) for l in range(32)]
    else:
        want = [3 * inp[c * 32 + l] + 1 + l for c in range(grid) for l in range(32)]
        in2 = ints(a["in2"])
        ok &= same("out2", ints(a["out2"])[:32 * grid], [2 * in2[i] for i in range(32 * grid)])
    return ok & same("out", out[:32 * grid], want)


def contention(a):
    """Counters JSON (ptxopt-emu --counters): the sites of kind `kind` must
    total `acquires` acquires (one per contender: every thread enters its
    critical section or finishes its wait exactly once); spinning=1 also
    requires spins > 0; barriers=N the completed CTA barriers."""
    import json
    with open(a["counters"]) as f:
        c = json.load(f)
    ok = True
    sites = [x for x in c["contention"]["sites"] if x["kind"] == a.get("kind", "")]
    if "acquires" in a:
        got = sum(x["acquires"] for x in sites)
        if got != int(a["acquires"]):
            print("acquires at %s sites: got %d, want %s" % (a["kind"], got, a["acquires"]))
            ok = False
    if a.get("spinning") == "1" and not any(x["spins"] for x in sites):
        print("no spins counted at the %s sites" % a["kind"])
        ok = False
    if a.get("nosites") == "1" and c["contention"]["sites"]:
        print("unexpected synchronisation sites: %s" % c["contention"]["sites"])
        ok = False
    if "barriers" in a and c["barriers_completed"] != int(a["barriers"]):
        print("barriers_completed: got %d, want %s" % (c["barriers_completed"], a["barriers"]))
        ok = False
    s = c["contention"]
    if s["acquires"] and abs(s["spins_per_acquire"] - s["spins"] / s["acquires"]) > 1e-3:
        print("spins_per_acquire is not spins / acquires")
        ok = False
    return ok


CHECKS = {
    "contention": contention,
    "histo": histo,
    "hash": hashins,
    "spinlock_warp": spinlock_warp,
    "chain": chain,
    "chain_blocks": chain_blocks,
    "wavefront": wavefront,
    "pipe_p2p": lambda a: pipe(a, "p2p"),
    "pipe_loop": lambda a: pipe(a, "loop"),
    "pipe_two_producers": lambda a: pipe(a, "two"),
    "pipe_cross": lambda a: pipe(a, "cross"),
}


def main(argv):
    if len(argv) < 2 or argv[1] not in CHECKS:
        print("usage: evalref.py {%s} key=value..." % ",".join(sorted(CHECKS)), file=sys.stderr)
        return 2
    a = dict(x.split("=", 1) for x in argv[2:])
    ok = CHECKS[argv[1]](a)
    print("%s: %s" % (argv[1], "ok" if ok else "MISMATCH"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
