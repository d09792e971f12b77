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
and cuts the region from the input load to the output store: every
instruction in between except the store's address computation (the backward
slice of the store's address that does not depend on the input).  The
region is written with registers renamed by role (%i0/%i1 the inputs, %x0..
registers read in the region but defined before it, %v0.. defined in it;
the output register is named in the entry), labels renamed $L0.. and the
label the region branches to at its end $LX; a line "--" starts a part of the
region that nvcc laid out elsewhere (it begins with a label the region
branches to and ends with a branch back).  Identical regions from several
flag sets and targets are stored once, with the list of what produced them.

--kernels DIR also writes the compiled modules (one per flag set and
target, with the one-line kernels and the same calls inside loops) as the
recall test's inputs (testsuite/sfu/fp-kernels/).
"""
import argparse
import os
import re
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
FLAGSETS = [
    ("default", []),
    ("ftz", ["-ftz=true"]),
    ("noprec", ["-prec-div=false", "-prec-sqrt=false"]),
    ("ftz-noprec", ["-ftz=true", "-prec-div=false", "-prec-sqrt=false"]),
]
SMS = ["sm_75", "sm_80", "sm_90"]


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
        if not s or s.startswith("."):
            continue  # declarations, .pragma, .loc
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


def cut_region(items, nin):
    """The region between the input loads and the output store, normalised."""
    loads = [k for k, it in enumerate(items) if it[0] == "I" and it[2] == "ld.global.f32"]
    stores = [k for k, it in enumerate(items) if it[0] == "I" and it[2] == "st.global.f32"]
    if len(loads) != nin or len(stores) != 1:
        raise ValueError("expected %d input loads and one store" % nin)
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
        raise ValueError("input load without a parameter")
    loads.sort(key=param_of)
    inputs = [items[k][3][0] for k in loads]
    start, end = max(loads) + 1, stores[0]
    out_reg = items[end][3][1]
    addr_regs = set(regs_of(items[end][3][0]))
    # forward slice of the inputs, in layout order (loops: iterate to a fixpoint)
    fwd = set(inputs)
    for _ in range(4):
        for it in items[start:end]:
            if it[0] == "I":
                d, u = defs_uses(it)
                if u & fwd:
                    fwd |= d
    # backward slice of the store address, instructions not touching the inputs' slice
    drop = set()
    need = set(addr_regs)
    for k in range(end - 1, start - 1, -1):
        it = items[k]
        if it[0] != "I":
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
    for c in chunks:
        body = body + [("C",)] + c
    return body, inputs, out_reg, exit_label


def normalise(body, inputs, out_reg, exit_label):
    names, labels, lines = {}, {}, []
    for k, r in enumerate(inputs):
        names[r] = "%%i%d" % k
    nx = [0]
    nv = [0]
    defined = set(inputs)
    # registers defined in the region
    region_defs = set()
    for it in body:
        if it[0] == "I" and len(it) > 1:
            region_defs |= defs_uses(it)[0]
    if out_reg not in region_defs:
        raise ValueError("output not defined in the region")

    def reg(r):
        if r in names:
            return names[r]
        if r in region_defs:
            names[r] = "%%v%d" % nv[0]
            nv[0] += 1
        else:
            names[r] = "%%x%d" % nx[0]
            nx[0] += 1
        return names[r]

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
    labels_used = {l for l in labels}
    for l in labels_used:
        pass
    return lines, names[out_reg], nx[0], nv[0]


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
    fps = {}   # (func, lines tuple) -> entry
    order = []
    with tempfile.TemporaryDirectory() as tmp:
        cu = os.path.join(tmp, "k.cu")
        with open(cu, "w") as f:
            f.write(source(loops=bool(args.kernels)))
        for fsname, flags in FLAGSETS:
            for sm in SMS:
                ptx = os.path.join(tmp, "k.ptx")
                subprocess.run([args.nvcc, "-arch=" + sm, "-O3", "-ptx"] + flags + ["-o", ptx, cu], check=True)
                text = open(ptx).read()
                if args.kernels:
                    os.makedirs(args.kernels, exist_ok=True)
                    with open(os.path.join(args.kernels, "%s-%s.ptx" % (fsname, sm)), "w") as f:
                        f.write(text)
                ks = parse_kernels(text)
                for name, expr, nin, kind in FUNCS:
                    body, inputs, out_reg, exit_label = cut_region(ks["k_" + name], nin)
                    lines, outname, nx, nv = normalise(body, inputs, out_reg, exit_label)
                    key = (name, tuple(lines), outname)
                    if key not in fps:
                        ftz = "-ftz=true" in flags
                        fps[key] = dict(func=name, kind=kind, nin=nin, lines=lines, out=outname, nx=nx, nv=nv,
                                        ftz=ftz, origins=[])
                        order.append(key)
                    fps[key]["origins"].append("%s %s" % (sm, " ".join(flags) or "-O3"))
    with open(out, "w") as f:
        f.write("/* cuda%s.%s.c — fingerprints of nvcc %s.%s's inlined math library, GENERATED by\n"
                " * opt/sfu/fingerprints/gen.py (do not edit; re-run it for a new toolkit).\n"
                " * %s\n"
                " * One entry per distinct region; `from` lists the targets and flags that\n"
                " * produced it.  Register roles: %%i inputs, %%x defined before the region,\n"
                " * %%v defined in it; $LX is the label the region ends at. */\n"
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
            f.write('    { "%s", %s, %d, %s, "%s", %d, %d, fp%d, %d,\n      "%s" },\n'
                    % (e["func"], e["kind"], e["nin"], "true" if e["ftz"] else "false", e["out"], e["nx"], e["nv"],
                       n, len(e["lines"]), "; ".join(e["origins"])))
        f.write("};\n")
    print("gen.py: %d fingerprints (%d functions) -> %s" % (len(order), len(FUNCS), out))


if __name__ == "__main__":
    main()
