"""emuchecks.py -- one reference check per corpus kernel (see emuref.py).

check_NAME(c, kv): kv maps the command line's key=value pairs: file names of
dumped buffers (binary) and launch parameters.  Inputs are read back from
dumps when the test provides them, so the reference sees exactly what the
kernel saw.
"""
import math
import struct

from emuref import Fraction, f32, fma32, gen, load, round_bf16, round_f16, round_f32, wrap


def I(kv, k):
    return int(kv[k], 0)


# ------------------------------------------------------------------ stencils

def check_stencil1d(c, kv):
    out, inp, n = load(kv["out"], "f32"), load(kv["in"], "f32"), I(kv, "n")
    for i in range(n):
        if i == 0 or i == n - 1:
            want = inp[i]
        else:
            # nvcc: fma(0.25, in[i-1], 0.5*in[i]) then fma(0.25, in[i+1], t)
            want = fma32(0.25, inp[i + 1], fma32(0.25, inp[i - 1], f32(0.5 * inp[i])))
        c.close("out[%d]" % i, out[i], want, rel=2e-7, abs_=1e-7)


def check_stencil2d(c, kv):
    out, inp = load(kv["out"], "f32"), load(kv["in"], "f32")
    nx, ny = I(kv, "nx"), I(kv, "ny")
    for y in range(ny):
        for x in range(nx):
            i = y * nx + x
            if x == 0 or y == 0 or x == nx - 1 or y == ny - 1:
                want = inp[i]
            else:
                s = f32(f32(f32(f32(inp[i] + inp[i - 1]) + inp[i + 1]) + inp[i - nx]) + inp[i + nx])
                want = f32(s * f32(0.2))
            c.close("out[%d,%d]" % (x, y), out[i], want, rel=1e-6)


def check_stencil3d7(c, kv):
    out, inp = load(kv["out"], "f32"), load(kv["in"], "f32")
    nx, ny, nz = I(kv, "nx"), I(kv, "ny"), I(kv, "nz")
    plane = nx * ny
    for z in range(nz):
        for y in range(ny):
            for x in range(nx):
                i = z * plane + y * nx + x
                if x == 0 or y == 0 or z == 0 or x == nx - 1 or y == ny - 1 or z == nz - 1:
                    want = inp[i]
                else:
                    s = sum(inp[j] for j in (i - 1, i + 1, i - nx, i + nx, i - plane, i + plane))
                    want = 0.4 * inp[i] + 0.1 * s
                c.close("out[%d]" % i, out[i], want, rel=1e-5)


def check_stencil3d13(c, kv):
    out, inp = load(kv["out"], "f32"), load(kv["in"], "f32")
    nx, ny, nz = I(kv, "nx"), I(kv, "ny"), I(kv, "nz")
    p = nx * ny
    for z in range(nz):
        for y in range(ny):
            for x in range(nx):
                i = z * p + y * nx + x
                if x < 2 or y < 2 or z < 2 or x >= nx - 2 or y >= ny - 2 or z >= nz - 2:
                    want = inp[i]
                else:
                    s1 = sum(inp[j] for j in (i - 1, i + 1, i - nx, i + nx, i - p, i + p))
                    s2 = sum(inp[j] for j in (i - 2, i + 2, i - 2 * nx, i + 2 * nx, i - 2 * p, i + 2 * p))
                    want = 0.5 * inp[i] + 0.06 * s1 + 0.02 * s2
                c.close("out[%d]" % i, out[i], want, rel=1e-5, abs_=1e-5)


def check_blur5x5(c, kv):
    out, inp = load(kv["out"], "f32"), load(kv["in"], "f32")
    w, h = I(kv, "w"), I(kv, "h")
    for y in range(h):
        for x in range(w):
            s = 0.0
            for dy in range(-2, 3):
                for dx in range(-2, 3):
                    xx = min(max(x + dx, 0), w - 1)
                    yy = min(max(y + dy, 0), h - 1)
                    s += inp[yy * w + xx]
            c.close("out[%d,%d]" % (x, y), out[y * w + x], s / 25.0, rel=1e-5, abs_=1e-5)


def check_jacobi(c, kv):
    out, inp, rhs = load(kv["out"], "f32"), load(kv["in"], "f32"), load(kv["rhs"], "f32")
    nx, ny = I(kv, "nx"), I(kv, "ny")
    for y in range(ny):
        for x in range(nx):
            i = y * nx + x
            if x < 1 or y < 1 or x >= nx - 1 or y >= ny - 1:
                want = 0.0
            else:
                want = 0.25 * (inp[i - 1] + inp[i + 1] + inp[i - nx] + inp[i + nx] - rhs[i])
            c.close("out[%d]" % i, out[i], want, rel=1e-5, abs_=1e-6)


# ----------------------------------------------------------------- reductions

def check_reduce_sum(c, kv):
    out, inp, n = load(kv["out"], "i32"), load(kv["in"], "i32"), I(kv, "n")
    c.eq("sum", out[0], wrap(sum(inp[:n])))


def check_warp_reduce_xor(c, kv):
    omax, osum = load(kv["max"], "f32"), load(kv["sum"], "i32")
    inp, vals, n = load(kv["in"], "f32"), load(kv["vals"], "i32"), I(kv, "n")
    nthreads = len(omax)
    for w in range(0, n, 32):
        lanes = range(w, w + 32)
        m = max(inp[i] if i < n else f32(-3.0e38) for i in lanes)
        s = wrap(sum(vals[i] if i < n else 0 for i in lanes))
        for i in lanes:
            if i < n and i < nthreads:
                c.eq("max[%d]" % i, omax[i], m)
                c.eq("sum[%d]" % i, osum[i], s)


def check_reduce_add_sync(c, kv):
    sm, mn, mx, orv = (load(kv[k], t) for k, t in (("sum", "i32"), ("min", "u32"), ("max", "u32"), ("or", "u32")))
    inp, n = load(kv["in"], "u32"), I(kv, "n")
    for w in range(0, n, 32):
        v = inp[w:w + 32]
        o = 0
        for x in v:
            o |= x
        for i in range(w, w + 32):
            c.eq("sum[%d]" % i, sm[i], wrap(sum(v)))
            c.eq("min[%d]" % i, mn[i], min(v))
            c.eq("max[%d]" % i, mx[i], max(v))
            c.eq("or[%d]" % i, orv[i], o)


def check_block_reduce(c, kv):
    out, inp, n = load(kv["out"], "f32"), load(kv["in"], "f32"), I(kv, "n")
    for b in range(len(out)):
        buf = [inp[b * 256 + t] if b * 256 + t < n else 0.0 for t in range(256)]
        s = 128
        while s > 0:
            for t in range(s):
                buf[t] = f32(buf[t] + buf[t + s])
            s >>= 1
        c.eq("out[%d]" % b, out[b], buf[0])


def check_scan(c, kv):
    out, bsums, inp = load(kv["out"], "i32"), load(kv["bsums"], "i32"), load(kv["in"], "i32")
    n, bd = I(kv, "n"), I(kv, "block")
    for b in range(len(bsums)):
        acc = 0
        for t in range(bd):
            i = b * bd + t
            acc = wrap(acc + (inp[i] if i < n else 0))
            if i < n:
                c.eq("out[%d]" % i, out[i], acc)
        c.eq("block_sums[%d]" % b, bsums[b], acc)


def check_histogram(c, kv):
    hist, data, n = load(kv["hist"], "u32"), load(kv["data"], "u8"), I(kv, "n")
    want = [0] * 256
    for x in data[:n]:
        want[x] += 1
    for b in range(256):
        c.eq("hist[%d]" % b, hist[b], want[b])


def check_atomics(c, kv):
    cnt, fsum, fprod = load(kv["counters"], "i32"), load(kv["fsum"], "f32"), load(kv["fprod"], "f32")
    inp, fin, scale, n = load(kv["in"], "i32"), load(kv["fin"], "f32"), load(kv["scale"], "f32"), I(kv, "n")
    c.eq("counters[0]", cnt[0], wrap(sum(inp[:n])))
    c.eq("counters[1]", cnt[1], max([0] + inp[:n]))
    c.eq("counters[2]", cnt[2], min([0] + inp[:n]))
    c.close("fsum", fsum[0], sum(fin[:n]), rel=1e-5, abs_=1e-4)
    p = float(kv.get("prod0", "1"))
    for s in scale[:n]:
        p *= s
    c.eq("fprod", fprod[0], f32(p))


def check_atomics_bitwise(c, kv):
    st, inp, n = load(kv["state"], "u32"), load(kv["in"], "u32"), I(kv, "n")
    a, o, x = 0xFFFFFFFF, 0, 0
    for v in inp[:n]:
        a &= v
        o |= v
        x ^= v
    init = [int(v, 0) for v in kv.get("init", "0,0,0,0,0,0").split(",")]
    c.eq("and", st[0], init[0] & a)
    c.eq("or", st[1], init[1] | o)
    c.eq("xor", st[2], init[2] ^ x)
    c.eq("inc", st[3], init[3] + n)
    s64 = (st[4] | (st[5] << 32))
    c.eq("sum64", s64, ((init[4] | (init[5] << 32)) + sum(inp[:n])) & ((1 << 64) - 1))


# ------------------------------------------------------------------- matmul

def check_matmul_naive(c, kv):
    cc, a, b = load(kv["c"], "f32"), load(kv["a"], "f32"), load(kv["b"], "f32")
    m, n, k = I(kv, "m"), I(kv, "n"), I(kv, "k")
    for r in range(m):
        for col in range(n):
            acc = 0.0
            for p in range(k):
                acc = fma32(a[r * k + p], b[p * n + col], acc)
            c.eq("c[%d,%d]" % (r, col), cc[r * n + col], acc)


def check_matmul_tiled(c, kv):
    cc, a, b, n = load(kv["c"], "f32"), load(kv["a"], "f32"), load(kv["b"], "f32"), I(kv, "n")
    tiles = (n + 15) // 16
    for r in range(n):
        for col in range(n):
            acc = 0.0
            for p in range(tiles * 16):
                av = a[r * n + p] if p < n else 0.0
                bv = b[p * n + col] if p < n else 0.0
                acc = fma32(av, bv, acc)
            c.eq("c[%d,%d]" % (r, col), cc[r * n + col], acc)


def check_transpose(c, kv):
    out, inp = load(kv["out"], "f32"), load(kv["in"], "f32")
    rows, cols = I(kv, "rows"), I(kv, "cols")
    for r in range(rows):
        for col in range(cols):
            c.eq("out[%d,%d]" % (col, r), out[col * rows + r], inp[r * cols + col])


# --------------------------------------------------------------- control flow

def check_divergent_return(c, kv):
    out, inp, n = load(kv["out"], "i32"), load(kv["in"], "i32"), I(kv, "n")
    for i in range(n):
        v = inp[i]
        if v < 0:
            want = -1
        elif v == 0:
            want = 0
        elif v % 2 == 0:
            want = v // 2
        else:
            steps, x = 0, v
            while x != 1 and steps < 1000:
                x = 3 * x + 1 if x & 1 else x // 2
                steps += 1
            want = steps
        c.eq("out[%d]" % i, out[i], want)


def check_noinline_calls(c, kv):
    out, inp, n = load(kv["out"], "f32"), load(kv["in"], "f32"), I(kv, "n")
    for i in range(n):
        x = inp[i]
        p = fma32(fma32(x, 0.0, 1.0), x, 0.0)          # poly3(x, 0, 1, 0)
        q = (f32(p * 3.0), f32(x * 3.0))                # swap_scale({x, p}, 3)
        tmp = f32(q[0] + q[1])
        poly = fma32(fma32(x, 3.0, 2.0), x, 1.0)
        c.close("out[%d]" % i, out[i], f32(poly + tmp), rel=1e-6, abs_=1e-6)


def check_fib(c, kv):
    out, inp, n = load(kv["out"], "i32"), load(kv["in"], "i32"), I(kv, "n")
    fib = [0, 1]
    for k in range(2, 30):
        fib.append(fib[-1] + fib[-2])
    for i in range(n):
        c.eq("out[%d]" % i, out[i], fib[int(math.fmod(inp[i], 24))])


def check_gcd(c, kv):
    out, a, b, n = load(kv["out"], "u32"), load(kv["a"], "u32"), load(kv["b"], "u32"), I(kv, "n")
    for i in range(n):
        c.eq("out[%d]" % i, out[i], math.gcd(a[i], b[i]))


def check_brx(c, kv):
    out, sel, n = load(kv["out"], "i32"), load(kv["sel"], "i32"), I(kv, "n")
    for i in range(n):
        c.eq("out[%d]" % i, out[i], [10, 20, 30, 40][sel[i] & 3] + i)


# ------------------------------------------------------------------- warps

def check_vote(c, kv):
    flags, ballots, inp, n = load(kv["flags"], "i32"), load(kv["ballots"], "u32"), load(kv["in"], "i32"), I(kv, "n")
    total = len(flags)
    for w in range(0, total, 32):
        v = [inp[i] if i < n else 0 for i in range(w, w + 32)]
        b = sum(1 << k for k in range(32) if v[k] > 0)
        al = all(x > 0 for x in v)
        an = any(x < 0 for x in v)
        for i in range(w, min(w + 32, n)):
            c.eq("ballot[%d]" % i, ballots[i], b)
            c.eq("flags[%d]" % i, flags[i], bin(b).count("1") + 100 * al + 1000 * an)


def check_match_any(c, kv):
    peers, count, allsame = load(kv["peers"], "u32"), load(kv["count"], "i32"), load(kv["all"], "i32")
    keys, n = load(kv["keys"], "i32"), I(kv, "n")
    want_count = [0] * len(count)
    for w in range(0, n, 32):
        k = keys[w:w + 32]
        same = all(x == k[0] for x in k)
        for j in range(32):
            m = sum(1 << q for q in range(32) if k[q] == k[j])
            c.eq("peers[%d]" % (w + j), peers[w + j], m)
            c.eq("all_same[%d]" % (w + j), allsame[w + j], 1 if same else 0)
            if (m & -m).bit_length() - 1 == j:
                want_count[k[j]] += bin(m).count("1")
    for k in range(len(count)):
        c.eq("count[%d]" % k, count[k], want_count[k])


def check_coop_groups(c, kv):
    s, qm, inp, n = load(kv["sum"], "i32"), load(kv["quad"], "i32"), load(kv["in"], "i32"), I(kv, "n")
    c.eq("sum", s[0], wrap(sum(inp[:n])))
    for i in range(n):
        q = i & ~3
        vals = [inp[j] if j < n else 0 for j in range(q, q + 4)]
        m = max(vals)
        c.eq("quad_max[%d]" % i, qm[i], m if m > 0 else 0)


def check_warp_sync_partial(c, kv):
    out, inp, n = load(kv["out"], "f32"), load(kv["in"], "f32"), I(kv, "n")
    for w in range(0, n, 32):
        for j in range(32):
            i = w + j
            if j < 16:
                # butterfly within 16 lanes: the same pairwise tree for every lane
                vals = inp[w:w + 16]
                for off in (8, 4, 2, 1):
                    vals = [f32(vals[k] + vals[k ^ off]) for k in range(16)]
                want = vals[j]
            else:
                want = f32(inp[w] * 2.0)
            c.eq("out[%d]" % i, out[i], want)


def check_syncthreads_count(c, kv):
    res, pair, inp, n = load(kv["res"], "i32"), load(kv["pair"], "f32"), load(kv["in"], "i32"), I(kv, "n")
    bd = I(kv, "block")
    for b in range(len(res) // 3):
        v = [inp[b * bd + t] if b * bd + t < n else 0 for t in range(bd)]
        c.eq("count[%d]" % b, res[3 * b], sum(1 for x in v if x > 0))
        c.eq("all[%d]" % b, res[3 * b + 1], 1 if all(x > 0 for x in v) else 0)
        c.eq("any[%d]" % b, res[3 * b + 2], 1 if any(x < 0 for x in v) else 0)
        for t in range(min(64, bd)):
            i = b * bd + t
            if i < n:
                c.eq("pair[%d]" % i, pair[i], float(v[t ^ 32]))


# ------------------------------------------------------------------ memory

def check_local_array(c, kv):
    out, inp, idx, n = load(kv["out"], "f32"), load(kv["in"], "f32"), load(kv["idx"], "i32"), I(kv, "n")
    for i in range(n):
        table = [f32(inp[i] * float(k)) for k in range(32)]
        acc = 0.0
        for j in range(8):
            acc = f32(acc + table[(idx[i] + j) & 31])
        c.close("out[%d]" % i, out[i], acc, rel=1e-6, abs_=1e-6)


def check_dynamic_shared(c, kv):
    out, f, k, n, bd = load(kv["out"], "f32"), load(kv["f"], "f32"), load(kv["k"], "i32"), I(kv, "n"), I(kv, "block")
    for i in range(n):
        b, t = divmod(i, bd)
        j = b * bd + (t + 1) % bd
        sf = f[j] if j < n else 0.0
        c.eq("out[%d]" % i, out[i], f32(sf * float(k[i])))


def check_global_variables(c, kv):
    out, n = load(kv["out"], "f32"), I(kv, "n")
    table = [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]
    bias = [-1.0, 0.0, 1.0, 2.0]
    for i in range(n):
        c.eq("out[%d]" % i, out[i], f32(f32(table[i & 7] + bias[i & 3]) + 10.0))


def check_constant_permute(c, kv):
    out, inp, n = load(kv["out"], "f32"), load(kv["in"], "f32"), I(kv, "n")
    perm = [3, 1, 4, 0, 6, 5, 7, 2]
    for i in range(n):
        c.eq("out[%d]" % i, out[i], inp[(i & ~7) + perm[i & 7]])


def check_block3d(c, kv):
    out, tid, blk = load(kv["out"], "i32"), load(kv["tid"], "i32"), load(kv["blk"], "i32")
    nx, ny, nz = I(kv, "nx"), I(kv, "ny"), I(kv, "nz")
    bx, by, bz = (int(v) for v in kv["block"].split(","))
    gx, gy = (int(v) for v in kv["grid"].split(",")[:2])
    for z in range(nz):
        for y in range(ny):
            for x in range(nx):
                i = (z * ny + y) * nx + x
                c.eq("out[%d]" % i, out[i], x + 1000 * y + 1000000 * z)
                c.eq("tid[%d]" % i, tid[i], ((z % bz) * by + (y % by)) * bx + (x % bx))
                c.eq("blk[%d]" % i, blk[i], ((z // bz) * gy + (y // by)) * gx + (x // bx))


def check_bitonic(c, kv):
    out, orig, n = load(kv["out"], "i32"), load(kv["orig"], "i32"), I(kv, "n")
    for s in range(0, n, 512):
        seg = orig[s:min(s + 512, n)]
        want = sorted(seg)
        for k, v in enumerate(want):
            c.eq("data[%d]" % (s + k), out[s + k], v)


def check_vector_loads(c, kv):
    out4, in4, bias4 = load(kv["out4"], "f32"), load(kv["in4"], "f32"), load(kv["bias4"], "f32")
    outd, ind = load(kv["outd"], "f64"), load(kv["ind"], "f64")
    outi, ini = load(kv["outi"], "i32"), load(kv["ini"], "i32")
    s, n = float(kv["s"]), I(kv, "n")
    for i in range(n):
        for k in range(4):
            c.eq("out4[%d].%d" % (i, k), out4[4 * i + k], fma32(in4[4 * i + k], s, bias4[4 * i + k]))
        c.eq("outd[%d].x" % i, outd[2 * i], ind[2 * i + 1])
        c.eq("outd[%d].y" % i, outd[2 * i + 1], ind[2 * i])
        c.eq("outi[%d].x" % i, outi[2 * i], wrap(ini[2 * i] + ini[2 * i + 1]))
        c.eq("outi[%d].y" % i, outi[2 * i + 1], wrap(ini[2 * i] - ini[2 * i + 1]))


def check_saxpy(c, kv):
    y, y0, x, a, n = load(kv["y"], "f32"), load(kv["y0"], "f32"), load(kv["x"], "f32"), float(kv["a"]), I(kv, "n")
    for i in range(n):
        c.eq("y[%d]" % i, y[i], fma32(a, x[i], y0[i]))


def check_size_t(c, kv):
    out, inp = load(kv["out"], "f32"), load(kv["in"], "f32")
    rows, cols, ldo, ldi, r0, c0 = (I(kv, k) for k in ("rows", "cols", "ldo", "ldi", "r0", "c0"))
    for r in range(rows):
        for col in range(cols):
            c.eq("out[%d,%d]" % (r, col), out[r * ldo + col], inp[(r + r0) * ldi + col + c0])


def check_cp_async_reverse(c, kv):
    out, inp, n, bd = load(kv["out"], "f32"), load(kv["in"], "f32"), I(kv, "n"), I(kv, "block")
    for base in range(0, n, bd):
        for t in range(bd):
            c.eq("out[%d]" % (base + t), out[base + t], f32(2.0 * inp[base + bd - 1 - t]))


# ---------------------------------------------------------------- integers

def check_int64_math(c, kv):
    out, a, b, n = load(kv["out"], "i64"), load(kv["a"], "i64"), load(kv["b"], "i64"), I(kv, "n")
    M = (1 << 64) - 1
    for i in range(n):
        x, y = a[i], b[i]
        ux, uy = x & M, y & M
        d = y | 1
        q = int(x / d) if abs(x) < (1 << 52) else (abs(x) // abs(d)) * (1 if (x < 0) == (d < 0) else -1)
        r = x - q * d
        prod = ux * uy
        v = ((prod & M) ^ (prod >> 64))
        clz = 64 - (ux.bit_length())
        v = v + q + r + (x >> 7) + clz + bin(uy).count("1")
        c.eq("out[%d]" % i, out[i], wrap(v, 64))


def check_int64_accumulate(c, kv):
    out, a, m, n = load(kv["out"], "u64"), load(kv["a"], "u64"), I(kv, "m"), I(kv, "n")
    M = (1 << 64) - 1
    for i in range(n):
        acc = 0
        for k in range(m):
            acc = ((acc + ((a[i] * k) & M)) & M) % 1000003
        c.eq("out[%d]" % i, out[i], acc)


def check_inline_asm(c, kv):
    out, wide = load(kv["out"], "u32"), load(kv["wide"], "u64")
    a, b, cc = load(kv["a"], "u32"), load(kv["b"], "u32"), load(kv["c"], "u32")
    x, y, n = load(kv["x"], "u64"), load(kv["y"], "u64"), I(kv, "n")
    bd = I(kv, "block")
    for i in range(n):
        # LUT 0x78 = 0xF0 ^ (0xCC & 0xAA): a ^ (b & c) (the .cu comment says (a & b) ^ c)
        lop = a[i] ^ (b[i] & cc[i])
        field = (a[i] >> 4) & 0xFF
        lane = (i % bd) & 31
        c.eq("out[%d]" % i, out[i], (lop + field + lane) & 0xFFFFFFFF)
        c.eq("wide[%d]" % i, wide[i], (x[i] + y[i]) & ((1 << 64) - 1))


def check_many_params(c, kv):
    out, aux = load(kv["out"], "f32"), load(kv["aux"], "f32")
    a, b, cc = load(kv["a"], "f32"), load(kv["b"], "f32"), load(kv["c"], "i32")
    n = I(kv, "n")
    scale, offset, bias, flags, tag = 1.5, 3, 0.25, 2, 7
    weights = [0.5, -1.0, 2.0, 0.125]
    alpha, beta, ch, sh, big, mask = 0.75, 0.5, 5, -4, 0x1234, 0xF0F0
    for i in range(n):
        v = scale * a[i] + alpha * b[i] + float(cc[i] + offset) * weights[i & 3]
        v += f32(bias + beta) + float(flags + tag + ch + sh)
        v += float(big & 0xFF) + float(mask & i)
        c.close("out[%d]" % i, out[i], v, rel=1e-6, abs_=1e-5)
    c.eq("aux", aux[0], float(tag))


def check_scale_int(c, kv):
    out, inp, n, fac = load(kv["out"], "i32"), load(kv["in"], "i32"), I(kv, "n"), I(kv, "factor")
    for i in range(n):
        c.eq("out[%d]" % i, out[i], wrap(inp[i] * fac))


def check_poly16(c, kv):
    out, inp, n = load(kv["out"], "f32"), load(kv["in"], "f32"), I(kv, "n")
    for i in range(n):
        x, p, acc = inp[i], 1.0, 0.0
        for k in range(16):
            acc += p / (k + 1)
            p *= x
        c.close("out[%d]" % i, out[i], acc, rel=1e-5, abs_=1e-6)


def check_tricubic(c, kv):
    out, vol = load(kv["out"], "f32"), load(kv["vol"], "f32")
    px, py, pz = load(kv["px"], "f32"), load(kv["py"], "f32"), load(kv["pz"], "f32")
    m, nx, ny, nz = I(kv, "m"), I(kv, "nx"), I(kv, "ny"), I(kv, "nz")

    def wts(t):
        t2, t3 = t * t, t * t * t
        return [0.5 * (-t3 + 2 * t2 - t), 0.5 * (3 * t3 - 5 * t2 + 2), 0.5 * (-3 * t3 + 4 * t2 + t), 0.5 * (t3 - t2)]
    for s in range(m):
        fx, fy, fz = math.floor(px[s]), math.floor(py[s]), math.floor(pz[s])
        wx, wy, wz = wts(px[s] - fx), wts(py[s] - fy), wts(pz[s] - fz)
        acc = 0.0
        for k in range(4):
            z = min(max(fz + k - 1, 0), nz - 1)
            for j in range(4):
                y = min(max(fy + j - 1, 0), ny - 1)
                row = 0.0
                for i in range(4):
                    x = min(max(fx + i - 1, 0), nx - 1)
                    row += wx[i] * vol[(z * ny + y) * nx + x]
                acc += wz[k] * wy[j] * row
        c.close("out[%d]" % s, out[s], acc, rel=1e-4, abs_=1e-5)


# -------------------------------------------------------------------- math

def check_fast_intrinsics(c, kv):
    out, x, y, n = load(kv["out"], "f32"), load(kv["x"], "f32"), load(kv["y"], "f32"), I(kv, "n")
    for i in range(n):
        a, b = x[i], y[i]
        r = math.sin(a) + math.cos(b) + math.exp(-a * a) + math.log(1 + b * b) + a / (1 + b * b)
        r += 1 / math.sqrt(1 + a * a) + 1 / (2 + b * b) + math.sqrt(1 + a * a)
        c.close("out[%d]" % i, out[i], r, rel=1e-5, abs_=1e-5)


def check_math_f32(c, kv):
    fn = {"sinf": math.sin, "expf": math.exp, "logf": math.log}[kv["fn"]]
    out, inp, n = load(kv["out"], "f32"), load(kv["in"], "f32"), I(kv, "n")
    for i in range(n):
        c.close("out[%d]" % i, out[i], fn(inp[i]), rel=2e-6, abs_=2e-7)


def check_math_double(c, kv):
    out, x, y, n = load(kv["out"], "f64"), load(kv["x"], "f64"), load(kv["y"], "f64"), I(kv, "n")
    for i in range(n):
        a, b = x[i], y[i]
        want = math.sin(a) + math.exp(-a * a) + math.log(1.0 + b * b) + (1.0 + a * a) ** b + math.sqrt(1.0 + b * b) + a / (1.0 + b * b)
        c.close("out[%d]" % i, out[i], want, rel=1e-13, abs_=1e-13)


def _h2f(h):
    return struct.unpack("<e", struct.pack("<H", h))[0]


def _f2h(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def check_half2_axpb(c, kv):
    out, inp, n = load(kv["out"], "u16"), load(kv["in"], "u16"), I(kv, "npairs")
    a, b = _h2f(_f2h(float(kv["a"]))), _h2f(_f2h(float(kv["b"])))
    for i in range(2 * n):
        x = _h2f(inp[i])
        want = _f2h(round_f16(Fraction(x) * Fraction(a) + Fraction(b)))  # fma: one rounding
        c.eq("out[%d]" % i, out[i], want)


def _bf(x):
    """float -> bf16 bits, round to nearest even."""
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    r = ((u >> 16) & 1) + 0x7FFF
    return ((u + r) >> 16) & 0xFFFF


def _bf2f(h):
    return struct.unpack("<f", struct.pack("<I", h << 16))[0]


def check_bf16_fma(c, kv):
    out, x, y, z, n = load(kv["out"], "f32"), load(kv["x"], "f32"), load(kv["y"], "f32"), load(kv["z"], "f32"), I(kv, "n")
    for i in range(n):
        a, b, cc = _bf2f(_bf(x[i])), _bf2f(_bf(y[i])), _bf2f(_bf(z[i]))
        # two bf16 roundings: fma.rn.bf16(a, b, -0) then fma.rn.bf16(p, 1, c);
        # a*b and p+c are exact in double, float32 rounding is exact for them
        # or rounds once (double rounding to bf16 cannot occur: 53 >= 2*8+2)
        p = round_bf16(Fraction(a) * Fraction(b))
        want = round_bf16(Fraction(p) + Fraction(cc))
        c.eq("out[%d]" % i, out[i], want)


def check_warp_semantics(c, kv):
    out, scr = load(kv["out"], "i32"), load(kv["scratch"], "u32")
    v = [100 + l for l in range(32)]

    def slot(k, l):
        return out[k * 32 + l]
    for l in range(32):
        seg = l & ~7
        c.eq("up w8 d3 [%d]" % l, slot(0, l), v[l - 3] if l - seg >= 3 else v[l])
        c.eq("down w8 d3 [%d]" % l, slot(1, l), v[l + 3] if l - seg + 3 < 8 else v[l])
        c.eq("idx w8 src5 [%d]" % l, slot(2, l), v[seg + 5])
        c.eq("xor 6 [%d]" % l, slot(3, l), v[l ^ 6])
        c.eq("idx src33 [%d]" % l, slot(4, l), v[33 % 32])
        c.eq("down pred [%d]" % l, slot(5, l), 1 if l - seg + 3 < 8 else 0)
        c.eq("redux min [%d]" % l, slot(6, l), -16)
        c.eq("redux max [%d]" % l, slot(7, l), max(3 * k % 7 for k in range(32)))
        c.eq("vote uni [%d]" % l, slot(8, l), 1)
        c.eq("match any [%d]" % l, wrap(slot(9, l), 32, False), 0xF << (4 * (l // 4)))
        c.eq("elect leader [%d]" % l, slot(10, l), 0)
        c.eq("elect pred [%d]" % l, slot(11, l), 1 if l == 0 else 0)
        c.eq("inc wraps [%d]" % l, slot(12, l), 32 % 6)
        c.eq("dec wraps [%d]" % l, slot(13, l), (-32) % 10)
        c.eq("redux add half mask [%d]" % l, slot(14, l), sum(range(16)) if l < 16 else 0)
        c.eq("up 1 pred [%d]" % l, slot(15, l), 0 if l == 0 else 1)
    c.eq("atom min", wrap(scr[0]), -10)
    c.eq("red add f32", struct.unpack("<f", struct.pack("<I", scr[1]))[0], 16.0)
    c.eq("atom add u64", scr[2] | (scr[3] << 32), sum(range(32)))
    c.eq("atom and", scr[4], 0)


def check_coop_grid(c, kv):
    out, inp, n = load(kv["out"], "f32"), load(kv["in"], "f32"), I(kv, "n")
    for i in range(n):
        c.eq("out[%d]" % i, out[i], f32(2.0 * inp[n - 1 - i]))
