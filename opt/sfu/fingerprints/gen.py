#!/usr/bin/env python3
"""gen.py — generate the SFU pass's fingerprint library from nvcc's own output.

The sfu pass (opt/sfu/) recognises the code nvcc inlines for sinf, cosf,
expf, logf, powf, ... by matching it against fingerprints: normalised
instruction sequences cut out of one-line kernels that nvcc compiled.
Nothing here is written by hand; re-run this script for a new toolkit
(it writes cudaMAJOR.MINOR.c beside itself, and fingerprints.c includes the
files listed in versions.h) and commit the result:

    opt/sfu/fingerprints/gen.py [--nvcc PATH] [--kernels testsuite/sfu/Inputs/fp-kernels]

For each flag set (-O3 default, -ftz=true, -prec-div=false -prec-sqrt=false,
both) and target (sm_75, sm_80, sm_90; -use_fast_math is excluded: it already
approximates) it compiles one kernel per function,
    o[i] = FN(a[i])          (powf: FN(a[i], b[i]))
and cuts the region from the first input load to the output store: every
instruction in between but the input loads and the loads' and the store's
address computations (the backward slices of those addresses that do not
depend on an input); a constant the region reads that nvcc set before the
first load (`mov r, IMM` or a symbol's address) is put in front of it.  The
region is written with registers renamed by role (%i0/%i1 the inputs, %x0..
registers read in the region but defined before it, which must be
addresses in the local depot, %v0.. defined in it; the output register is
named in the entry, `types` gives each role's register type: f f32, d f64,
r b32, l b64, h b16, p pred, D a depot address), labels renamed $L0.. and
the label the region branches to at its end $LX; a line "--" starts a part
of the region that nvcc laid out elsewhere (it begins with a label the
region branches to and ends with a branch back).  Identical regions from
several flag sets and targets are stored once, with the list of what
produced them.

powf with a constant exponent (powf(x, 3.0f), powf(x, 2.5f), ...) is code
of its own: nvcc folds the tests on y.  For each class of constant (odd or
even integer, not an integer; by sign) several constants are compiled; the
regions of one class that differ only in float immediates that are the same
multiple of the constant (C, C/2, -C, ...) become one fingerprint whose
immediate is written #P*FACTOR, with `pclass` naming the classes of
constant it was generated from (the pass accepts a constant of those
classes only).

--kernels DIR also writes the compiled modules (one per flag set and
target, with the one-line kernels and the same calls inside loops) as the
recall test's inputs (testsuite/sfu/fp-kernels/).
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

# function -> (source expression, number of inputs, SfuKind name)
FUNCS = [
    ("sinf", "sinf(a[i])", 1, "SFU_SIN"),
    ("cosf", "cosf(a[i])", 1, "SFU_COS"),
    ("expf", "expf(a[i])", 1, "SFU_EXP"),
    ("exp10f", "exp10f(a[i])", 1, "SFU_EXP10"),
    ("logf", "logf(a[i])", 1, "SFU_LOG"),
    ("log2f", "log2f(a[i])", 1, "SFU_LOG2"),
    ("powf", "powf(a[i], b[i])", 2, "SFU_POW"),
    ("tanhf", "tanhf(a[i])", 1, "SFU_TANH"),
]
# powf(x, C): the constants compiled per class (grouped afterwards by the
# shape of their code); the classes are (integer or not, parity, sign).
POW_CONSTS = [2.5, 3.5, 0.3, 1.7, 0.5, -0.5, -2.5, -1.5, 3.0, 5.0, 7.0, -1.0, -3.0, -5.0,
              2.0, 4.0, 6.0, -2.0, -4.0, -6.0, 1.0, 1e10, -1e10]
POW_FACTORS = [1.0, 0.5, -1.0, -0.5, 2.0, -2.0]
# The loads of a kernel's inputs (the integer exponent of powf(x, (float)n) too).
INPUT_LOADS = ("ld.global.f32", "ld.global.u32", "ld.global.s32", "ld.global.nc.f32", "ld.global.nc.u32",
               "ld.global.nc.s32")
# Fingerprints of other shapes of a call: (function, SfuKind, kernel body,
# inputs, stores, the store whose value is the output).  sincosf computes
# both polynomials and selects between them by the quadrant: one
# fingerprint per output.  powf with an integer exponent tests the integer.
SPECIAL = [
    ("sincosf", "SFU_SIN", "float s, c; sincosf(a[i], &s, &c); o[i] = s; o[i + n] = c;", 1, 2, 0),
    ("sincosf", "SFU_COS", "float s, c; sincosf(a[i], &s, &c); o[i] = s; o[i + n] = c;", 1, 2, 1),
    ("powf", "SFU_POW", "o[i] = powf(a[i], (float)((const int *)b)[i]);", 2, 1, 0),
]
FLAGSETS = [
    ("default", []),
    ("ftz", ["-ftz=true"]),
    ("noprec", ["-prec-div=false", "-prec-sqrt=false"]),
    ("ftz-noprec", ["-ftz=true", "-prec-div=false", "-prec-sqrt=false"]),
]
SMS = ["sm_75", "sm_80", "sm_90"]


def pow_class(c):
    """The class of a constant exponent: the tests nvcc folds depend on it."""
    if c != c or c in (float("inf"), float("-inf")):
        return "special"
    if float(int(c)) == c:
        k = "int-odd" if int(c) % 2 else "int-even"
    else:
        k = "frac"
    return k + ("-neg" if c < 0 else "-pos")


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def f32_bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def source(loops):
    out = []
    for name, expr, nin, _ in FUNCS:
        out.append('extern "C" __global__ void k_%s(const float *a, const float *b, float *o)\n'
                   "{ int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = %s; }\n" % (name, expr))
        if loops:
            # the same call in a loop, accumulated: the context the pass meets
            e = expr.replace("a[i]", "a[i * n + j]").replace("b[i]", "b[i * n + j]")
            out.append('extern "C" __global__ void loop_%s(const float *a, const float *b, float *o, int n)\n'
                       "{ int i = blockIdx.x * blockDim.x + threadIdx.x; float s = 0.0f;\n"
                       "  for (int j = 0; j < n; j++) s += %s;\n  o[i] = s; }\n" % (name, e))
    # after the others, so that their numbering (labels, depots) is that of before
    for n, (name, kind, body, nin, nst, which) in enumerate(SPECIAL):
        out.append('extern "C" __global__ void ks_%d(const float *a, const float *b, float *o, int n)\n'
                   "{ int i = blockIdx.x * blockDim.x + threadIdx.x; %s }\n" % (n, body))
    for n, c in enumerate(POW_CONSTS):
        out.append('extern "C" __global__ void kc_%d(const float *a, const float *b, float *o)\n'
                   "{ int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = powf(a[i], %rf); }\n" % (n, c))
    return "".join(out)


INSTR = re.compile(r"^\s*(@!?%\w+\s+)?([a-z][\w.:]*)\s*(.*?);\s*$")
LABEL = re.compile(r"^\s*(\$?[\w$]+):\s*$")


def split_operands(s):
    ops, depth, cur = [], 0, ""
    for ch in s:
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        if ch == "," and depth == 0:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    return ops


REG = re.compile(r"%[A-Za-z_][\w]*")


def parse_kernels(ptx):
    """{kernel name: [items]}; an item is ('L', name) or ('I', guard, op, [operands])."""
    kernels, cur, body = {}, None, False
    for line in ptx.splitlines():
        m = re.match(r"^\.visible \.entry (\w+)\(", line)
        if m:
            cur = m.group(1)
            kernels[cur] = []
            body = False
            continue
        if cur is None:
            continue
        if line.startswith("{"):
            body = True
            continue
        if line.startswith("}"):
            cur = None
            continue
        if not body:
            continue
        s = line.split("//")[0].strip()
        if s.startswith(".pragma"):
            kernels[cur].append(("P", s.rstrip(";").strip()))   # kept: the precise copy of a guard keeps it
            continue
        if not s or s.startswith("."):
            continue  # declarations, .loc
        m = LABEL.match(s)
        if m:
            kernels[cur].append(("L", m.group(1)))
            continue
        m = INSTR.match(s)
        if not m:
            sys.exit("gen.py: cannot read: " + s)
        guard = (m.group(1) or "").strip()
        kernels[cur].append(("I", guard, m.group(2), split_operands(m.group(3))))
    return kernels


def regs_of(text):
    return REG.findall(text)


def defs_uses(it):
    """Registers written and read by an instruction item."""
    _, guard, op, ops = it
    uses = set(regs_of(guard))
    defs = set()
    name = op.split(".")[0]
    nodst = name in ("st", "bra", "ret", "exit", "bar", "barrier", "red", "prefetch")
    for k, o in enumerate(ops):
        rs = set(regs_of(o))
        if k == 0 and not nodst and not o.startswith("["):
            if "|" in o:
                defs |= rs
            else:
                defs |= rs
        else:
            uses |= rs
    return defs, uses


def reg_types(ptx_kernel_lines):
    """Register name prefix -> type code, from a kernel's .reg declarations."""
    codes = {".f32": "f", ".f64": "d", ".b32": "r", ".u32": "r", ".s32": "r", ".b64": "l", ".u64": "l",
             ".s64": "l", ".pred": "p", ".b16": "h", ".u16": "h", ".s16": "h"}
    out = {}
    for line in ptx_kernel_lines:
        m = re.match(r"^\s*\.reg\s+(\.\w+)\s+(%?\w+?)(<\d+>)?;", line)
        if m:
            out[m.group(2)] = codes.get(m.group(1), "?")
    return out


def type_of(reg, types):
    m = re.match(r"^(%[A-Za-z_]+?)(\d*)$", reg)
    if reg in types:
        return types[reg]
    if m and m.group(1) in types:
        return types[m.group(1)]
    return "?"


def cut_region(items, nin, nstores=1, out_store=0):
    """The region between the input loads and the output stores; the output
    is the value the out_store-th store (in layout order) writes."""
    # inputs in parameter order (x, then y): trace each load's address to its ld.param
    def param_of(k):
        regs = set(regs_of(items[k][3][1]))
        for j in range(k - 1, -1, -1):
            it = items[j]
            if it[0] != "I":
                continue
            d, u = defs_uses(it)
            if d & regs:
                m = re.search(r"_param_(\d+)\]", it[3][1]) if it[2].startswith("ld.param") else None
                if m:
                    return int(m.group(1))
                regs = (regs - d) | u
        return None   # not a parameter's buffer (a table of the library)

    loads = [k for k, it in enumerate(items)
             if it[0] == "I" and it[2] in INPUT_LOADS and param_of(k) is not None]
    stores = [k for k, it in enumerate(items) if it[0] == "I" and it[2] == "st.global.f32"]
    if len(loads) != nin or len(stores) != nstores:
        raise ValueError("expected %d input loads and %d stores" % (nin, nstores))
    loads.sort(key=param_of)
    inputs = [items[k][3][0] for k in loads]
    start, end = min(loads) + 1, max(stores)
    out_reg = items[stores[out_store]][3][1]
    # forward slice of the inputs, in layout order (loops: iterate to a fixpoint)
    fwd = set(inputs)
    for _ in range(4):
        for it in items[start:end]:
            if it[0] == "I":
                d, u = defs_uses(it)
                if u & fwd:
                    fwd |= d
    # backward slices of the loads' and the store's addresses, instructions
    # not touching the inputs' slice
    drop = set(loads) | set(stores)
    need = set(regs_of(items[end][3][0]))
    for k in stores:
        need |= set(regs_of(items[k][3][0]))
    for k in loads:
        need |= set(regs_of(items[k][3][1]))
    for k in range(end - 1, start - 1, -1):
        it = items[k]
        if it[0] != "I" or k in drop:
            continue
        d, u = defs_uses(it)
        if d and d <= need and not (u & fwd) and not it[2].startswith("bra"):
            drop.add(k)
            need |= u
    body = [it for k, it in enumerate(items[start:end], start) if k not in drop]
    # trailing labels: the region's exit label (the last one) and nothing after
    exit_label = None
    while body and body[-1][0] == "L":
        exit_label = body.pop()[1]
    # parts of the region nvcc laid out elsewhere (powf: after the ret): a
    # branch from the region to a label outside it starts a chunk that runs
    # to its first unconditional branch, back into the region or its exit
    defined = {it[1] for it in body if it[0] == "L"}
    chunks = []
    todo = [it for it in body]
    while todo:
        it = todo.pop(0)
        if it[0] != "I" or not it[2].startswith("bra"):
            continue
        target = it[3][-1]
        if target == exit_label or target in defined:
            continue
        k = next(j for j, x in enumerate(items) if x[0] == "L" and x[1] == target)
        chunk = []
        for x in items[k:]:
            chunk.append(x)
            if x[0] == "L":
                defined.add(x[1])
            if x[0] == "I" and not x[1] and (x[2].startswith("bra") or x[2] in ("ret", "exit")):
                break
        if chunk[-1][0] != "I" or not chunk[-1][2].startswith("bra"):
            raise ValueError("a chunk of the region does not branch back")
        chunks.append(chunk)
        todo.extend(chunk)
    # registers the region reads but nothing in it defines: a constant nvcc
    # set before the region goes in front of it; the rest must be addresses
    # in the local depot (the %x roles)
    region_defs = set()
    for it in body + [x for c in chunks for x in c]:
        if it[0] == "I":
            region_defs |= defs_uses(it)[0]
    depot = set()
    for it in items:   # registers derived from __local_depot only
        if it[0] == "I" and not it[1]:
            d, u = defs_uses(it)
            if (it[2] == "mov.u64" and it[3][1].startswith("__local_depot")) or \
               (u and u <= depot and it[2] in ("add.u64", "add.s64", "cvta.local.u64", "mov.u64")):
                depot |= d
    front = []   # (index, item) of constant computations nvcc put before the region

    def constant_slice(r):
        """The instructions before the region computing r from immediates
        only (no load, parameter or special register), or None."""
        want, got = {r}, []
        for k in range(start - 1, -1, -1):
            it = items[k]
            if it[0] != "I":
                continue
            d, u = defs_uses(it)
            if not (d & want):
                continue
            if it[1] or it[2].startswith(("ld.", "cvta")) or any("%" in o and not REG.fullmatch(o) for o in it[3][1:]):
                return None
            if any(re.match(r"^%(tid|ntid|ctaid|nctaid|laneid|warpid|SP)", x) for x in u):
                return None
            if any(o.startswith("__") for o in it[3][1:]):
                return None
            got.append((k, it))
            want = (want - d) | u
        return got if not want else None

    for it in body + [x for c in chunks for x in c]:
        if it[0] != "I":
            continue
        for r in sorted(defs_uses(it)[1] - region_defs - set(inputs) - depot):
            sl = constant_slice(r)
            if sl is None:
                raise ValueError("the region reads %s, set before it, not a constant nor a depot address" % r)
            for x in sl:
                if x not in front:
                    front.append(x)
                region_defs |= defs_uses(x[1])[0]
    front = [it for _, it in sorted(front, key=lambda x: x[0])]
    body = front + body
    for c in chunks:
        body = body + [("C",)] + c
    return body, inputs, out_reg, exit_label, depot


def normalise(body, inputs, out_reg, exit_label, types, depot):
    names, labels, lines = {}, {}, []
    for k, r in enumerate(inputs):
        names[r] = "%%i%d" % k
    nx = [0]
    nv = [0]
    # registers defined in the region
    region_defs = set()
    for it in body:
        if it[0] == "I" and len(it) > 1:
            region_defs |= defs_uses(it)[0]
    if out_reg not in region_defs:
        raise ValueError("output not defined in the region")
    role_type = {}

    def reg(r):
        if r in names:
            return names[r]
        if r in region_defs:
            names[r] = "%%v%d" % nv[0]
            nv[0] += 1
        else:
            names[r] = "%%x%d" % nx[0]
            nx[0] += 1
        role_type[names[r]] = "D" if r in depot else type_of(r, types)
        return names[r]

    for r in inputs:
        role_type[names[r]] = type_of(r, types)

    def lab(l):
        if l == exit_label:
            return "$LX"
        if l not in labels:
            labels[l] = "$L%d" % len(labels)
        return labels[l]

    for it in body:
        if it[0] == "C":
            lines.append("--")
            continue
        if it[0] == "L":
            lines.append(lab(it[1]) + ":")
            continue
        if it[0] == "P":
            lines.append(it[1].replace('"', "'"))
            continue
        _, guard, op, ops = it
        g = ""
        if guard:
            neg = guard.startswith("@!")
            g = ("@!" if neg else "@") + reg(guard.lstrip("@!")) + " "
        nops = []
        for o in ops:
            if re.match(r"^\$?L__\w+$", o) or (op.startswith("bra") and not o.startswith("%")):
                nops.append(lab(o))
            else:
                nops.append(REG.sub(lambda m: reg(m.group(0)), o))
        lines.append(g + op + (" " + ", ".join(nops) if nops else ""))
    # the roles' types in role order: inputs, %x, %v
    order = ["%%i%d" % k for k in range(len(inputs))] + ["%%x%d" % k for k in range(nx[0])] + \
            ["%%v%d" % k for k in range(nv[0])]
    tys = "".join(role_type.get(r, "?") for r in order)
    if "?" in tys:
        raise ValueError("a register of unknown type: %s" % tys)
    return lines, names[out_reg], nx[0], nv[0], tys


FLOAT_IMM = re.compile(r"\b0f([0-9A-Fa-f]{8})\b")


def parametrise(members):
    """members: [(C, lines)] of one shape.  The lines with each float
    immediate that differs between members written #P*FACTOR (the same
    multiple of C in every member), or None when one does not fit."""
    base = members[0][1]
    out = []
    for li, line in enumerate(base):
        toks = FLOAT_IMM.split(line)   # text, imm, text, imm, ...
        per = [FLOAT_IMM.split(m[1][li]) for m in members]
        if any(len(p) != len(toks) for p in per):
            return None
        res = []
        for t in range(len(toks)):
            if t % 2 == 0:
                if any(p[t] != toks[t] for p in per):
                    return None
                res.append(toks[t])
                continue
            vals = [int(p[t], 16) for p in per]
            if len(set(vals)) == 1:
                res.append("0f%08X" % vals[0])
                continue
            fit = None
            for f in POW_FACTORS:
                if all(f32_bits(f32(c * f)) == v for (c, _), v in zip(members, vals)):
                    fit = f
                    break
            if fit is None:
                return None
            res.append("#P*%r" % fit)
        out.append("".join(res))
    return out


def shape_of(lines):
    return tuple(FLOAT_IMM.sub("0fIMM", l) for l in lines)


def kernel_lines(ptx, name):
    out, on = [], False
    for line in ptx.splitlines():
        if re.match(r"^\.visible \.entry %s\(" % name, line):
            on = True
        elif on and line.startswith("}"):
            break
        if on:
            out.append(line)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    ap.add_argument("--kernels", help="also write the compiled modules here (recall test inputs)")
    ap.add_argument("--out", help="output file (default: cudaX.Y.c beside this script)")
    args = ap.parse_args()
    ver = subprocess.run([args.nvcc, "--version"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"release (\d+)\.(\d+)", ver)
    major, minor = m.group(1), m.group(2)
    vid = "%s_%s" % (major, minor)
    here = os.path.dirname(os.path.abspath(__file__))
    out = args.out or os.path.join(here, "cuda%s.%s.c" % (major, minor))
    fps = {}   # (func, lines tuple, out, types, pclass) -> entry
    order = []
    powc = {}  # (flags, sm, shape) -> [(C, lines, outname, nx, nv, types)]

    def add(name, kind, nin, lines, outname, nx, nv, tys, ftz, origin, pclass=""):
        # one entry per distinct region; the constant classes of one region merge
        key = (name, tuple(lines), outname, tys, bool(pclass))
        if key not in fps:
            fps[key] = dict(func=name, kind=kind, nin=nin, lines=lines, out=outname, nx=nx, nv=nv, types=tys,
                            ftz=ftz, pclass=pclass, origins=[])
            order.append(key)
        if pclass and pclass not in fps[key]["pclass"].split(","):
            fps[key]["pclass"] = ",".join(sorted(fps[key]["pclass"].split(",") + [pclass]))
        if origin not in fps[key]["origins"]:
            fps[key]["origins"].append(origin)

    with tempfile.TemporaryDirectory() as tmp:
        cu = os.path.join(tmp, "k.cu")
        with open(cu, "w") as f:
            f.write(source(loops=True))
        for fsname, flags in FLAGSETS:
            ftz = "-ftz=true" in flags
            for sm in SMS:
                ptx = os.path.join(tmp, "k.ptx")
                subprocess.run([args.nvcc, "-arch=" + sm, "-O3", "-ptx"] + flags + ["-o", ptx, cu], check=True)
                text = open(ptx).read()
                if args.kernels:
                    os.makedirs(args.kernels, exist_ok=True)
                    # the recall test's modules: the one-line and loop kernels only
                    with open(os.path.join(args.kernels, "%s-%s.ptx" % (fsname, sm)), "w") as f:
                        f.write(strip_kernels(strip_kernels(text, "kc_"), "ks_"))
                ks = parse_kernels(text)
                origin = "%s %s" % (sm, " ".join(flags) or "-O3")
                for name, expr, nin, kind in FUNCS:
                    types = reg_types(kernel_lines(text, "k_" + name))
                    body, inputs, out_reg, exit_label, depot = cut_region(ks["k_" + name], nin)
                    lines, outname, nx, nv, tys = normalise(body, inputs, out_reg, exit_label, types, depot)
                    add(name, kind, nin, lines, outname, nx, nv, tys, ftz, origin)
                for n, (sname, kind, body, nin, nst, which) in enumerate(SPECIAL):
                    kn = "ks_%d" % n
                    types = reg_types(kernel_lines(text, kn))
                    body_, inputs, out_reg, exit_label, depot = cut_region(ks[kn], nin, nst, which)
                    lines, outname, nx, nv, tys = normalise(body_, inputs, out_reg, exit_label, types, depot)
                    add(sname, kind, nin, lines, outname, nx, nv, tys, ftz, origin)
                for n, c in enumerate(POW_CONSTS):
                    kn = "kc_%d" % n
                    types = reg_types(kernel_lines(text, kn))
                    body, inputs, out_reg, exit_label, depot = cut_region(ks[kn], 1)
                    lines, outname, nx, nv, tys = normalise(body, inputs, out_reg, exit_label, types, depot)
                    powc.setdefault((fsname, sm, shape_of(lines), outname, tys), []).append((c, lines, nx, nv))
        # powf with a constant exponent: one fingerprint per shape and class
        for (fsname, sm, shape, outname, tys), members in powc.items():
            flags = dict(FLAGSETS)[fsname]
            origin = "%s %s" % (sm, " ".join(flags) or "-O3")
            byclass = {}
            for mbr in members:
                byclass.setdefault(pow_class(mbr[0]), []).append(mbr)
            for cls, ms in sorted(byclass.items()):
                lines = parametrise([(c, l) for c, l, _, _ in ms]) if len(ms) > 1 else None
                if lines is None or not any("#P" in l for l in lines):
                    continue   # one constant of its class, or a shape the constant does not parametrise
                add("powf", "SFU_POW", 1, lines, outname, ms[0][2], ms[0][3], tys, "-ftz=true" in flags,
                    origin, cls)
    with open(out, "w") as f:
        f.write("/* cuda%s.%s.c — fingerprints of nvcc %s.%s's inlined math library, GENERATED by\n"
                " * opt/sfu/fingerprints/gen.py (do not edit; re-run it for a new toolkit).\n"
                " * %s\n"
                " * One entry per distinct region; `from` lists the targets and flags that\n"
                " * produced it.  Register roles: %%i inputs, %%x defined before the region,\n"
                " * %%v defined in it; $LX is the label the region ends at; `types` one\n"
                " * letter per role; #P*F a constant exponent times F (pclass: its classes). */\n"
                % (major, minor, major, minor, ver.strip().splitlines()[-1]))
        for n, key in enumerate(order):
            e = fps[key]
            f.write("\nstatic const char *const fp%d[] = {\n" % n)
            for l in e["lines"]:
                f.write('    "%s",\n' % l.replace('"', '\\"'))
            f.write("};\n")
        f.write("\nstatic const SfuFingerprint fingerprints_cuda%s[] = {\n" % vid)
        for n, key in enumerate(order):
            e = fps[key]
            f.write('    { "%s", %s, %d, %s, "%s", %d, %d, fp%d, %d,\n      "%s",\n      "%s", "%s" },\n'
                    % (e["func"], e["kind"], e["nin"], "true" if e["ftz"] else "false", e["out"], e["nx"], e["nv"],
                       n, len(e["lines"]), "; ".join(e["origins"]), e["types"], e["pclass"]))
        f.write("};\n")
    print("gen.py: %d fingerprints (%d functions, %d with a constant exponent) -> %s"
          % (len(order), len(FUNCS), sum(1 for k in order if fps[k]["pclass"]), out))


def strip_kernels(text, prefix):
    """The module without the kernels whose name starts with prefix."""
    out, skip = [], False
    for line in text.split("\n"):
        if re.match(r"^\s*// \.globl\s+%s" % prefix, line):
            continue
        if re.match(r"^\.visible \.entry %s" % prefix, line):
            skip = True
        if not skip:
            out.append(line)
        if skip and line.startswith("}"):
            skip = False
    return "\n".join(out)


if __name__ == "__main__":
    main()
