#!/usr/bin/env python3
"""workloads.py -- the cache-bypassing workloads (issue 13 item 8): one
emulator launch per kernel of testsuite/kernels/workloads/*.cu, with
deterministic inputs and an independent Python reference.

    workloads.py list                       names, one per line
    workloads.py info NAME                  file, kernel, grid, block, warps per CTA
    workloads.py prepare NAME PREFIX        write the input files PREFIX.inK and
                                            print the ptxopt-emu launch options
                                            (kernel, grid, block, --arg, --dump of
                                            every output to PREFIX.outK)
    workloads.py check NAME PREFIX          compare the dumped outputs with the
                                            reference; exit 1 on a mismatch

The tests (testsuite/bypass/workloads/*.test) run

    workloads.py prepare NAME %t > %t.opts
    ptxopt-emu corpus/workloads/FILE.sm_80.ptx $(cat %t.opts)
    workloads.py check NAME %t

and bench/bypass/curves.py imports this module for the same launches.

Inputs come from Python's random.Random(SEED) (fixed per workload), are
written as raw little-endian files and passed with buf:TYPE:N:file=PATH, so
a reference never depends on the emulator's generator.  The references
recompute each kernel from its source's semantics in Python: integer and
pointer-chasing outputs are compared exactly; float outputs are computed in
double and compared against 2e-6 times the magnitude of the summed terms
(nvcc contracts multiply-adds into fma, and float sums are not
associative; the largest error seen is below 3e-7 of it), never against a
stored answer.
"""
import math
import os
import random
import struct
import sys

sys.dont_write_bytecode = True

FMT = {"u8": "B", "i8": "b", "u32": "I", "i32": "i", "u64": "Q", "i64": "q", "f32": "f", "f64": "d"}


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def frand(rng, n, lo=-1.0, hi=1.0):
    return [f32(rng.uniform(lo, hi)) for _ in range(n)]


def ceil_div(a, b):
    return (a + b - 1) // b


class Buf:
    """A buffer argument: element type, contents (a list, or raw bytes for
    structs), whether it is an output (dumped and checked)."""

    def __init__(self, typ, data, out=False, raw=None):
        self.typ, self.data, self.out, self.raw = typ, data, out, raw

    def count(self):
        if self.raw is not None:
            return len(self.raw)
        return len(self.data)

    def bytes(self):
        if self.raw is not None:
            return self.raw
        return struct.pack("<%d%s" % (len(self.data), FMT[self.typ]), *self.data)


class Launch:
    def __init__(self, file, kernel, grid, block, args, ref, tol=2e-6):
        self.file, self.kernel, self.grid, self.block = file, kernel, grid, block
        self.args, self.ref, self.tol = args, ref, tol

    def warps_per_cta(self):
        n = 1
        for d in self.block:
            n *= d
        return ceil_div(n, 32)

    def ptx(self, srcdir):
        return os.path.join(srcdir, "testsuite", "corpus", "workloads", self.file + ".sm_80.ptx")

    def options(self, prefix, dumps=True):
        """ptxopt-emu options; writes the input files PREFIX.inK."""
        opts = ["--kernel=" + self.kernel, "--grid=" + ",".join(map(str, self.grid)),
                "--block=" + ",".join(map(str, self.block))]
        for k, a in enumerate(self.args):
            if isinstance(a, Buf):
                path = "%s.in%d" % (prefix, k)
                with open(path, "wb") as f:
                    f.write(a.bytes())
                opts.append("--arg=buf:%s:%d:file=%s" % (a.typ, a.count(), path))
            else:
                typ, val = a
                opts.append("--arg=%s:%s" % (typ, float_bits(val) if typ == "f32" else val))
        if dumps:
            for k in self.outputs():
                opts.append("--dump=%d:%s.out%d" % (k, prefix, k))
        return opts

    def outputs(self):
        return [k for k, a in enumerate(self.args) if isinstance(a, Buf) and a.out]


def float_bits(x):
    return "0f%08X" % struct.unpack("<I", struct.pack("<f", x))[0]


# A reference returns {arg index: list of (expected, scale)} where scale is
# None for an exact comparison, else the magnitude the tolerance scales by.
def exact(values):
    return [(v, None) for v in values]


# ---------------------------------------------------------------- Rodinia

def bfs_graph(n, seed):
    rng = random.Random(seed)
    adj = [[] for _ in range(n)]
    for v in range(n):
        for _ in range(rng.randint(1, 10)):
            adj[v].append(rng.randrange(n))
    starts, edges = [], []
    for v in range(n):
        starts.append(len(edges))
        edges.extend(adj[v])
    return adj, starts, edges


def bfs_levels(adj, src, depth):
    """The (cost, visited, frontier) state Rodinia's host loop reaches after
    `depth` rounds of Kernel + Kernel2 from src."""
    n = len(adj)
    cost = [-1] * n
    cost[src] = 0
    visited = [0] * n
    visited[src] = 1
    frontier = [src]
    for _ in range(depth):
        nxt = []
        for v in frontier:
            for u in adj[v]:
                if not visited[u] and cost[u] != cost[v] + 1:
                    cost[u] = cost[v] + 1
                    nxt.append(u)
        for u in nxt:
            visited[u] = 1
        frontier = sorted(set(nxt))
    return cost, visited, frontier


def wl_bfs():
    n = 8192
    adj, starts, edges = bfs_graph(n, 13)
    cost, visited, frontier = bfs_levels(adj, 0, 4)
    mask = [0] * n
    for v in frontier:
        mask[v] = 1
    nodes = []
    for v in range(n):
        nodes += [starts[v], len(adj[v])]

    def ref():
        c, upd = list(cost), [0] * n
        for v in frontier:
            for u in adj[v]:
                if not visited[u]:
                    c[u] = cost[v] + 1
                    upd[u] = 1
        return {2: exact([0] * n), 3: exact(upd), 5: exact(c)}

    return Launch("bfs", "bfs_kernel", (ceil_div(n, 512), 1, 1), (512, 1, 1),
                  [Buf("i32", nodes), Buf("i32", edges), Buf("u8", mask, out=True), Buf("u8", [0] * n, out=True),
                   Buf("u8", visited), Buf("i32", cost, out=True), ("i32", n)], ref)


def wl_backprop_forward():
    n_in, hid = 2048, 16
    rng = random.Random(21)
    inp = frand(rng, n_in + 1, 0, 1)
    w = frand(rng, (n_in + 1) * (hid + 1))

    def ref():
        # weight_matrix after the tree: row ty holds the sum over rows
        # ty .. ty + 2^t - 1 where 2^t is the largest power of two dividing ty
        # (up to 16); row 0 holds the column sum.
        new_w, partial = list(w), [0.0] * ((n_in // 16) * hid)
        scales_w, scales_p = [None] * len(w), [0.0] * len(partial)
        for by in range(n_in // 16):
            prod = [[inp[16 * by + ty + 1] * w[(hid + 1) * (16 * by + ty + 1) + tx + 1] for tx in range(16)]
                    for ty in range(16)]
            for ty in range(16):
                span = 16 if ty == 0 else (ty & -ty)
                for tx in range(16):
                    idx = (hid + 1) * (16 * by + ty + 1) + tx + 1
                    terms = [prod[r][tx] for r in range(ty, ty + span)]
                    new_w[idx] = sum(terms)
                    scales_w[idx] = sum(abs(t) for t in terms)
            for tx in range(16):
                terms = [prod[r][tx] for r in range(16)]
                partial[by * hid + tx] = sum(terms)
                scales_p[by * hid + tx] = sum(abs(t) for t in terms)
        return {2: list(zip(new_w, scales_w)), 3: list(zip(partial, scales_p))}

    return Launch("backprop", "bpnn_layerforward", (1, n_in // 16, 1), (16, 16, 1),
                  [Buf("f32", inp), Buf("f32", [0.0] * (hid + 1)), Buf("f32", w, out=True),
                   Buf("f32", [0.0] * ((n_in // 16) * hid), out=True), ("i32", n_in), ("i32", hid)], ref)


def wl_backprop_adjust():
    n_in, hid = 2048, 16
    rng = random.Random(22)
    delta = frand(rng, hid + 1)
    ly = frand(rng, n_in + 1, 0, 1)
    w = frand(rng, (n_in + 1) * (hid + 1))
    oldw = frand(rng, (n_in + 1) * (hid + 1), -0.1, 0.1)

    def ref():
        nw, no = list(w), list(oldw)
        sc = [None] * len(w)
        for by in range(n_in // 16):
            for ty in range(16):
                for tx in range(16):
                    idx = (hid + 1) * (16 * by + ty + 1) + tx + 1
                    t1, t2 = 0.3 * delta[tx + 1] * ly[16 * by + ty + 1], 0.3 * oldw[idx]
                    nw[idx], no[idx] = w[idx] + t1 + t2, t1 + t2
                    sc[idx] = abs(w[idx]) + abs(t1) + abs(t2)
        for tx in range(16):
            t1, t2 = 0.3 * delta[tx + 1], 0.3 * oldw[tx + 1]
            nw[tx + 1], no[tx + 1] = w[tx + 1] + t1 + t2, t1 + t2
            sc[tx + 1] = abs(w[tx + 1]) + abs(t1) + abs(t2)
        return {4: list(zip(nw, sc)), 5: list(zip(no, sc))}

    return Launch("backprop", "bpnn_adjust_weights", (1, n_in // 16, 1), (16, 16, 1),
                  [Buf("f32", delta), ("i32", hid), Buf("f32", ly), ("i32", n_in), Buf("f32", w, out=True),
                   Buf("f32", oldw, out=True)], ref)


BT_ORDER = 256
BT_MAX = 2 ** 31 - 1


def btree():
    """A B+ tree in Rodinia's knode layout: height 2, root fanout 8, inner
    fanout 16, leaves of 24 keys (128 leaves, 3072 records).  Unused key
    slots hold INT_MAX so exactly one thread brackets a key."""
    rng = random.Random(31)
    nleaves, leaf_keys = 128, 24
    keys = sorted(rng.sample(range(1, 1 << 20), nleaves * leaf_keys))
    nodes = []   # (indices, keys)

    def node(idx, ks):
        nodes.append((idx + [0] * (BT_ORDER + 1 - len(idx)), ks + [BT_MAX] * (BT_ORDER + 1 - len(ks))))
        return len(nodes) - 1

    root = node([], [])
    inner = [node([], []) for _ in range(8)]
    leaves = []
    for l in range(nleaves):
        ks = keys[l * leaf_keys:(l + 1) * leaf_keys]
        leaves.append(node(list(range(l * leaf_keys, (l + 1) * leaf_keys)), ks))
    first = lambda l: keys[l * leaf_keys]
    for i in range(8):
        ls = list(range(i * 16, (i + 1) * 16))
        ks = [first(l) for l in ls]
        ks[0] = 0 if i == 0 else ks[0]
        nodes[inner[i]] = ([leaves[l] for l in ls] + [0] * (BT_ORDER + 1 - 16), ks + [BT_MAX] * (BT_ORDER + 1 - 16))
    rks = [0] + [first(i * 16) for i in range(1, 8)]
    nodes[root] = (inner + [0] * (BT_ORDER + 1 - 8), rks + [BT_MAX] * (BT_ORDER + 1 - 8))
    raw = b"".join(struct.pack("<i%di%di?3xi" % (BT_ORDER + 1, BT_ORDER + 1), n, *nd[0], *nd[1], False, 0)
                   for n, nd in enumerate(nodes))
    return keys, nodes, raw, rng


def wl_btree_findk():
    keys, nodes, raw, rng = btree()
    q = 96
    queries = [rng.choice(keys) if k % 4 else rng.randrange(1, 1 << 20) for k in range(q)]
    values = [rng.randrange(1 << 30) for _ in keys]

    def ref():
        ans = []
        for k in queries:
            ans.append(values[keys.index(k)] if k in keys else -1)
        return {7: exact(ans)}

    return Launch("btree", "findK", (q, 1, 1), (BT_ORDER, 1, 1),
                  [("i64", 2), Buf("u8", None, raw=raw), ("i64", len(nodes)), Buf("i32", values),
                   Buf("i64", [0] * q), Buf("i64", [0] * q), Buf("i32", queries), Buf("i32", [-1] * q, out=True)],
                  ref)


def wl_btree_findrange():
    keys, nodes, raw, rng = btree()
    q = 96
    starts, ends = [], []
    for _ in range(q):
        a = rng.randrange(len(keys) - 40)
        starts.append(keys[a])
        ends.append(keys[a + rng.randrange(1, 40)])

    def ref():
        rs = [keys.index(s) for s in starts]
        rl = [keys.index(e) - keys.index(s) + 1 for s, e in zip(starts, ends)]
        return {9: exact(rs), 10: exact(rl)}

    return Launch("btree", "findRangeK", (q, 1, 1), (BT_ORDER, 1, 1),
                  [("i64", 2), Buf("u8", None, raw=raw), ("i64", len(nodes)), Buf("i64", [0] * q),
                   Buf("i64", [0] * q), Buf("i64", [0] * q), Buf("i64", [0] * q), Buf("i32", starts),
                   Buf("i32", ends), Buf("i32", [0] * q, out=True), Buf("i32", [0] * q, out=True)], ref)


def wl_kmeans_invert():
    npoints, nf = 4096, 16
    rng = random.Random(41)
    inp = frand(rng, npoints * nf, 0, 1)

    def ref():
        return {1: exact([inp[p * nf + i] for i in range(nf) for p in range(npoints)])}

    return Launch("kmeans", "invert_mapping", (npoints // 256, 1, 1), (256, 1, 1),
                  [Buf("f32", inp), Buf("f32", [0.0] * (npoints * nf), out=True), ("i32", npoints), ("i32", nf)],
                  ref)


def fma32(a, b, c):
    # a*b is exact in double for float a, b; one double add then rounding to
    # float matches fmaf except in double-rounding corner cases.
    return f32(a * b + c)


def wl_kmeans_point():
    npoints, nf, nc = 4096, 16, 5
    rng = random.Random(42)
    feat = frand(rng, npoints * nf, 0, 1)       # feature-major, as invert_mapping leaves it
    clusters = frand(rng, nc * nf, 0, 1)

    def ref():
        member = []
        for p in range(npoints):
            best, idx = float("inf"), -1
            for i in range(nc):
                ans = 0.0
                for j in range(nf):
                    d = f32(feat[p + j * npoints] - clusters[i * nf + j])
                    ans = fma32(d, d, ans)
                if ans < best:
                    best, idx = ans, i
            member.append(idx)
        return {4: exact(member)}

    return Launch("kmeans", "kmeansPoint", (npoints // 256, 1, 1), (256, 1, 1),
                  [Buf("f32", feat), ("i32", nf), ("i32", npoints), ("i32", nc), Buf("i32", [0] * npoints, out=True),
                   Buf("f32", clusters)], ref)


def wl_pf_find_index():
    n = 2048
    rng = random.Random(51)
    w = [rng.random() for _ in range(n)]
    tot, acc, cdf = sum(w), 0.0, []
    for x in w:
        acc += x / tot
        cdf.append(f32(acc))
    cdf[-1] = 1.0
    u0 = rng.random() / n
    u = [f32(u0 + j / n) for j in range(n)]
    ax, ay = frand(rng, n, 0, 128), frand(rng, n, 0, 128)

    def ref():
        xj, yj = [], []
        for i in range(n):
            idx = next((x for x in range(n) if cdf[x] >= u[i]), n - 1)
            xj.append(ax[idx])
            yj.append(ay[idx])
        return {4: exact(xj), 5: exact(yj)}

    return Launch("particlefilter", "find_index_kernel", (n // 512, 1, 1), (512, 1, 1),
                  [Buf("f32", ax), Buf("f32", ay), Buf("f32", cdf), Buf("f32", u), Buf("f32", [0.0] * n, out=True),
                   Buf("f32", [0.0] * n, out=True), ("i32", n)], ref)


def disk(radius):
    ones = []
    for x in range(2 * radius + 1):
        for y in range(2 * radius + 1):
            if (x - radius) ** 2 + (y - radius) ** 2 <= radius * radius:
                ones += [x - radius, y - radius]   # centred offsets, as Rodinia's getneighbors()
    return ones


def wl_pf_likelihood():
    n, isz, nfr, k = 2048, 64, 4, 2
    rng = random.Random(52)
    objxy = disk(3)
    ones = len(objxy) // 2
    # pixel values near 164, where the log-likelihood term (256 p - 41984) / 50
    # is near 0, so that exp() stays finite
    image = [rng.randrange(162, 167) for _ in range(isz * isz * nfr)]
    xj, yj = frand(rng, n, 20, 44), frand(rng, n, 20, 44)
    max_size = isz * isz * nfr

    def rnd(v):
        t = int(v)
        return t if f32(v - t) < 0.5 else t + 1

    def ref():
        ind, lik, wts, part = [], [], [], []
        for i in range(n):
            s, sc = 0.0, 0.0
            for y in range(ones):
                ix = rnd(xj[i]) + objxy[2 * y + 1]
                iy = rnd(yj[i]) + objxy[2 * y]
                v = abs(ix * isz * nfr + iy * nfr + k)
                v = 0 if v >= max_size else v
                ind.append(v)
                p = image[v]
                t = ((p - 100) ** 2 - (p - 228) ** 2) / 50.0
                s += t
                sc += abs(t)
            lik.append((s / ones, sc / ones))
            wts.append(math.exp(s / ones) / n)
        wsc = [v * (1 + sc) for v, (_, sc) in zip(wts, lik)]
        for b in range(n // 512):
            part.append((sum(wts[b * 512:(b + 1) * 512]), sum(wsc[b * 512:(b + 1) * 512])))
        return {0: exact(xj), 1: exact(yj), 4: exact(ind), 6: lik, 8: list(zip(wts, wsc)), 15: part}

    return Launch("particlefilter", "likelihood_kernel", (n // 512, 1, 1), (512, 1, 1),
                  [Buf("f32", [0.0] * n, out=True), Buf("f32", [0.0] * n, out=True), Buf("f32", xj), Buf("f32", yj),
                   Buf("i32", [0] * (n * ones), out=True), Buf("i32", objxy), Buf("f32", [0.0] * n, out=True),
                   Buf("u8", image), Buf("f32", [0.0] * n, out=True), ("i32", n), ("i32", ones), ("i32", max_size),
                   ("i32", k), ("i32", isz), ("i32", nfr), Buf("f32", [0.0] * (n // 512), out=True)], ref)


def wl_streamcluster():
    num, dim, kc = 4096, 16, 8
    stride = kc + 1
    rng = random.Random(61)
    coord = frand(rng, num * dim, 0, 1)
    x = 77
    weight = [f32(rng.uniform(0.5, 2)) for _ in range(num)]
    cost = [f32(rng.uniform(0, 4)) for _ in range(num)]
    assign = [rng.randrange(num) for _ in range(num)]
    center_table = [rng.randrange(kc) for _ in range(num)]
    points = b"".join(struct.pack("<f4xqqf4x", weight[p], 0, assign[p], cost[p]) for p in range(num))

    def ref():
        work = [(0.0, None)] * (num * stride)
        switch = [0] * num
        for t in range(num):
            acc = 0.0
            for i in range(dim):
                d = f32(coord[i * num + t] - coord[i * num + x])
                acc = fma32(d, d, acc)
            xc = f32(acc * weight[t])
            if xc < cost[t]:
                switch[t] = 1
                work[t * stride + kc] = (xc - cost[t], abs(xc) + abs(cost[t]))
            else:
                work[t * stride + center_table[assign[t]]] = (cost[t] - xc, abs(xc) + abs(cost[t]))
        return {7: work, 9: exact(switch)}

    return Launch("streamcluster", "kernel_compute_cost", (num // 512, 1, 1), (512, 1, 1),
                  [("i32", num), ("i32", dim), ("i64", x), Buf("u8", None, raw=points), ("i32", kc), ("i32", stride),
                   Buf("f32", coord), Buf("f32", [0.0] * (num * stride), out=True), Buf("i32", center_table),
                   Buf("u8", [0] * num, out=True)], ref)


SR_ROWS, SR_COLS = 64, 128


def srad_inputs(seed):
    rng = random.Random(seed)
    return [f32(math.exp(rng.uniform(0, 1))) for _ in range(SR_ROWS * SR_COLS)], rng


def srad_neigh(a, r, c):
    rows, cols = SR_ROWS, SR_COLS
    at = lambda rr, cc: a[min(max(rr, 0), rows - 1) * cols + min(max(cc, 0), cols - 1)]
    return at(r - 1, c), at(r + 1, c), at(r, c - 1), at(r, c + 1)


def wl_srad1():
    J, rng = srad_inputs(71)
    q0sqr = f32(0.05)
    n = SR_ROWS * SR_COLS

    def ref():
        E, W, N, S, C = ([None] * n for _ in range(5))
        for r in range(SR_ROWS):
            for c in range(SR_COLS):
                i = r * SR_COLS + c
                jc = J[i]
                nn, ss, ww, ee = (f32(v - jc) for v in srad_neigh(J, r, c))
                N[i], S[i], W[i], E[i] = exact([nn, ss, ww, ee])
                g2 = (nn * nn + ss * ss + ww * ww + ee * ee) / (jc * jc)
                l = (nn + ss + ww + ee) / jc
                num = 0.5 * g2 - (l * l) / 16.0
                den = 1 + 0.25 * l
                qsqr = num / (den * den)
                den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr))
                cc = 1.0 / (1.0 + den)
                C[i] = (min(max(cc, 0.0), 1.0), max(abs(cc), 1.0))
        return {0: E, 1: W, 2: N, 3: S, 5: C}

    z = [0.0] * n
    return Launch("srad", "srad_cuda_1", (SR_COLS // 16, SR_ROWS // 16, 1), (16, 16, 1),
                  [Buf("f32", z, out=True), Buf("f32", z, out=True), Buf("f32", z, out=True), Buf("f32", z, out=True),
                   Buf("f32", J), Buf("f32", z, out=True), ("i32", SR_COLS), ("i32", SR_ROWS), ("f32", q0sqr)], ref)


def wl_srad2():
    J, rng = srad_inputs(72)
    n = SR_ROWS * SR_COLS
    C = frand(rng, n, 0, 1)
    E, W, N, S = (frand(rng, n, -0.5, 0.5) for _ in range(4))
    lam = 0.5

    def ref():
        out = []
        for r in range(SR_ROWS):
            for c in range(SR_COLS):
                i = r * SR_COLS + c
                cs = C[min(r + 1, SR_ROWS - 1) * SR_COLS + c]
                ce = C[r * SR_COLS + min(c + 1, SR_COLS - 1)]
                cc = C[i]
                terms = [cc * N[i], cs * S[i], cc * W[i], ce * E[i]]
                d = sum(terms)
                out.append((J[i] + 0.25 * lam * d, abs(J[i]) + sum(abs(t) for t in terms)))
        return {4: out}

    return Launch("srad", "srad_cuda_2", (SR_COLS // 16, SR_ROWS // 16, 1), (16, 16, 1),
                  [Buf("f32", E), Buf("f32", W), Buf("f32", N), Buf("f32", S), Buf("f32", J, out=True), Buf("f32", C),
                   ("i32", SR_COLS), ("i32", SR_ROWS), ("f32", lam), ("f32", 0.05)], ref)


# ---------------------------------------------------------------- Parboil

def wl_stencil():
    nx, ny, nz = 96, 34, 10
    c0, c1 = f32(1.0 / 6.0), f32(1.0 / 6.0 / 6.0)
    rng = random.Random(81)
    a0 = frand(rng, nx * ny * nz)
    idx = lambda i, j, k: i + nx * (j + ny * k)

    def ref():
        out = [(0.0, None)] * (nx * ny * nz)
        for k in range(1, nz - 1):
            for j in range(1, ny - 1):
                for i in range(1, nx - 1):
                    nb = [a0[idx(i, j, k + 1)], a0[idx(i, j, k - 1)], a0[idx(i, j + 1, k)], a0[idx(i, j - 1, k)],
                          a0[idx(i + 1, j, k)], a0[idx(i - 1, j, k)]]
                    ctr = a0[idx(i, j, k)]
                    out[idx(i, j, k)] = (sum(nb) * c1 - ctr * c0, sum(map(abs, nb)) * c1 + abs(ctr) * c0)
        return {3: out}

    return Launch("stencil", "stencil7", (ceil_div(nx - 2, 32), ceil_div(ny - 2, 4), 1), (32, 4, 1),
                  [("f32", c0), ("f32", c1), Buf("f32", a0), Buf("f32", [0.0] * (nx * ny * nz), out=True), ("i32", nx),
                   ("i32", ny), ("i32", nz)], ref)


def wl_spmv():
    dim, bs = 3072, 192
    rng = random.Random(91)
    rows = []
    for r in range(dim):
        nz = max(1, min(40, int(rng.expovariate(1 / 10.0))))
        cols = sorted(rng.sample(range(dim), nz))
        # banded-ish columns, as in the FEM matrices Parboil uses
        cols = sorted({(r + (c % 64) - 32) % dim for c in cols})
        rows.append([(c, f32(rng.uniform(-1, 1))) for c in cols])
    x = frand(rng, dim)
    perm = sorted(range(dim), key=lambda r: -len(rows[r]))
    zcnt = [len(rows[perm[b * bs]]) for b in range(ceil_div(dim, bs))]
    maxnz = zcnt[0]
    ptr, data, index = [], [], []
    for k in range(maxnz):
        ptr.append(len(data))
        length = min(dim, sum(bs for z in zcnt if z > k))
        for ix in range(length):
            row = rows[perm[ix]]
            c, v = row[k] if k < len(row) else (0, 0.0)
            data.append(v)
            index.append(c)

    def ref():
        out = [None] * dim
        for ix in range(dim):
            terms = [v * x[c] for c, v in rows[perm[ix]]]
            out[perm[ix]] = (sum(terms), sum(map(abs, terms)))
        return {0: out}

    return Launch("spmv", "spmv_jds", (ceil_div(dim, bs), 1, 1), (bs, 1, 1),
                  [Buf("f32", [0.0] * dim, out=True), Buf("f32", data), Buf("i32", index), Buf("i32", perm),
                   Buf("f32", x), ("i32", dim), Buf("i32", ptr), Buf("i32", zcnt)], ref)


# ---------------------------------------------------------------- PolyBench/GPU

PB_N = 512


def matvec(a, x, rows, cols, trans=False, init=None):
    out = []
    for i in range(cols if trans else rows):
        terms = [a[(j * cols + i) if trans else (i * cols + j)] * x[j] for j in range(rows if trans else cols)]
        base = init[i] if init else 0.0
        out.append((base + sum(terms), abs(base) + sum(map(abs, terms))))
    return out


def wl_atax1():
    n = PB_N
    rng = random.Random(101)
    a, x, tmp = frand(rng, n * n), frand(rng, n), frand(rng, n)
    return Launch("atax", "atax_kernel1", (ceil_div(n, 256), 1, 1), (256, 1, 1),
                  [Buf("f32", a), Buf("f32", x), Buf("f32", tmp, out=True), ("i32", n), ("i32", n)],
                  lambda: {2: matvec(a, x, n, n, init=tmp)})


def wl_atax2():
    n = PB_N
    rng = random.Random(102)
    a, y, tmp = frand(rng, n * n), frand(rng, n), frand(rng, n)
    return Launch("atax", "atax_kernel2", (ceil_div(n, 256), 1, 1), (256, 1, 1),
                  [Buf("f32", a), Buf("f32", y, out=True), Buf("f32", tmp), ("i32", n), ("i32", n)],
                  lambda: {1: matvec(a, tmp, n, n, trans=True, init=y)})


def wl_bicg1():
    n = PB_N
    rng = random.Random(111)
    a, r = frand(rng, n * n), frand(rng, n)
    return Launch("bicg", "bicg_kernel1", (ceil_div(n, 256), 1, 1), (256, 1, 1),
                  [Buf("f32", a), Buf("f32", r), Buf("f32", [0.0] * n, out=True), ("i32", n), ("i32", n)],
                  lambda: {2: matvec(a, r, n, n, trans=True)})


def wl_bicg2():
    n = PB_N
    rng = random.Random(112)
    a, p = frand(rng, n * n), frand(rng, n)
    return Launch("bicg", "bicg_kernel2", (ceil_div(n, 256), 1, 1), (256, 1, 1),
                  [Buf("f32", a), Buf("f32", p), Buf("f32", [0.0] * n, out=True), ("i32", n), ("i32", n)],
                  lambda: {2: matvec(a, p, n, n)})


def wl_gesummv():
    n = PB_N
    rng = random.Random(121)
    a, b, x = frand(rng, n * n), frand(rng, n * n), frand(rng, n)

    def ref():
        t, y = matvec(a, x, n, n), matvec(b, x, n, n)
        return {3: [(43532.0 * tv + 12313.0 * yv, 43532.0 * ts + 12313.0 * ys) for (tv, ts), (yv, ys) in zip(t, y)],
                4: t}

    return Launch("gesummv", "gesummv_kernel", (ceil_div(n, 256), 1, 1), (256, 1, 1),
                  [Buf("f32", a), Buf("f32", b), Buf("f32", x), Buf("f32", [0.0] * n, out=True),
                   Buf("f32", [0.0] * n, out=True), ("i32", n)], ref)


def wl_mvt1():
    n = PB_N
    rng = random.Random(131)
    a, x, y = frand(rng, n * n), frand(rng, n), frand(rng, n)
    return Launch("mvt", "mvt_kernel1", (ceil_div(n, 256), 1, 1), (256, 1, 1),
                  [Buf("f32", a), Buf("f32", x, out=True), Buf("f32", y), ("i32", n)],
                  lambda: {1: matvec(a, y, n, n, init=x)})


def wl_mvt2():
    n = PB_N
    rng = random.Random(132)
    a, x, y = frand(rng, n * n), frand(rng, n), frand(rng, n)
    return Launch("mvt", "mvt_kernel2", (ceil_div(n, 256), 1, 1), (256, 1, 1),
                  [Buf("f32", a), Buf("f32", x, out=True), Buf("f32", y), ("i32", n)],
                  lambda: {1: matvec(a, y, n, n, trans=True, init=x)})


SY_N, SY_M = 96, 48
SY_ALPHA, SY_BETA = 32412.0, 2123.0


def wl_syrk():
    n, m = SY_N, SY_M
    rng = random.Random(141)
    a, c = frand(rng, n * m), frand(rng, n * n)

    def ref():
        out = []
        for i in range(n):
            for j in range(n):
                terms = [SY_ALPHA * a[i * m + k] * a[j * m + k] for k in range(m)]
                base = c[i * n + j] * SY_BETA
                out.append((base + sum(terms), abs(base) + sum(map(abs, terms))))
        return {3: out}

    return Launch("syrk", "syrk_kernel", (ceil_div(n, 32), ceil_div(n, 8), 1), (32, 8, 1),
                  [("f32", SY_ALPHA), ("f32", SY_BETA), Buf("f32", a), Buf("f32", c, out=True), ("i32", n), ("i32", m)],
                  ref)


def wl_syr2k():
    n, m = SY_N, SY_M
    rng = random.Random(151)
    a, b, c = frand(rng, n * m), frand(rng, n * m), frand(rng, n * n)

    def ref():
        out = []
        for i in range(n):
            for j in range(n):
                terms = []
                for k in range(m):
                    terms += [SY_ALPHA * a[i * m + k] * b[j * m + k], SY_ALPHA * b[i * m + k] * a[j * m + k]]
                base = c[i * n + j] * SY_BETA
                out.append((base + sum(terms), abs(base) + sum(map(abs, terms))))
        return {4: out}

    return Launch("syr2k", "syr2k_kernel", (ceil_div(n, 32), ceil_div(n, 8), 1), (32, 8, 1),
                  [("f32", SY_ALPHA), ("f32", SY_BETA), Buf("f32", a), Buf("f32", b), Buf("f32", c, out=True),
                   ("i32", n), ("i32", m)], ref)


WORKLOADS = {
    "bfs": wl_bfs,
    "backprop-forward": wl_backprop_forward,
    "backprop-adjust": wl_backprop_adjust,
    "btree-findk": wl_btree_findk,
    "btree-findrange": wl_btree_findrange,
    "kmeans-invert": wl_kmeans_invert,
    "kmeans-point": wl_kmeans_point,
    "pf-find-index": wl_pf_find_index,
    "pf-likelihood": wl_pf_likelihood,
    "streamcluster": wl_streamcluster,
    "srad1": wl_srad1,
    "srad2": wl_srad2,
    "stencil": wl_stencil,
    "spmv": wl_spmv,
    "atax1": wl_atax1,
    "atax2": wl_atax2,
    "bicg1": wl_bicg1,
    "bicg2": wl_bicg2,
    "gesummv": wl_gesummv,
    "mvt1": wl_mvt1,
    "mvt2": wl_mvt2,
    "syrk": wl_syrk,
    "syr2k": wl_syr2k,
}


def load(path, typ):
    data = open(path, "rb").read()
    size = struct.calcsize(FMT[typ])
    return list(struct.unpack("<%d%s" % (len(data) // size, FMT[typ]), data))


def check(launch, prefix):
    """Compares every dumped output with the reference; returns the number
    of mismatching elements (printing the first few)."""
    expected = launch.ref()
    bad = 0
    for k in launch.outputs():
        if k not in expected:
            raise SystemExit("workloads.py: no reference for output %d" % k)
        got = load("%s.out%d" % (prefix, k), launch.args[k].typ)
        exp = expected[k]
        if len(got) != len(exp):
            print("output %d: %d elements, expected %d" % (k, len(got), len(exp)))
            bad += 1
            continue
        for e, (g, (v, scale)) in enumerate(zip(got, exp)):
            if scale is None:
                ok = g == v
            else:
                ok = abs(g - v) <= launch.tol * scale + 1e-30 and not math.isnan(g)
            if not ok:
                if bad < 10:
                    print("output %d[%d]: got %r, expected %r (scale %r)" % (k, e, g, v, scale))
                bad += 1
    return bad


def main(argv):
    if len(argv) >= 2 and argv[1] == "list":
        print("\n".join(WORKLOADS))
        return 0
    if len(argv) < 3 or argv[2] not in WORKLOADS or argv[1] not in ("info", "prepare", "check"):
        sys.stderr.write(__doc__)
        return 2
    launch = WORKLOADS[argv[2]]()
    if argv[1] == "info":
        print("%s %s grid=%s block=%s warps=%d" % (launch.file, launch.kernel, launch.grid, launch.block,
                                                  launch.warps_per_cta()))
    elif argv[1] == "prepare":
        print(" ".join(launch.options(argv[3])))
    else:
        bad = check(launch, argv[3])
        if bad:
            print("%s: %d elements differ from the reference" % (argv[2], bad))
            return 1
        print("%s: %d outputs match the reference" % (argv[2], len(launch.outputs())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
