#!/usr/bin/env python3
"""Check ptxopt's register critical points against ptxas itself.

For `.maxntid B,1,1` + `.minnctapersm C`, ptxas caps a kernel's registers at
the largest count that still lets C blocks of B threads share an SM, i.e. at
the model's critical point cp(C) (model/critical.h).  For every target the
model marks as ptxas-13 capable (and that this ptxas lists), several block
sizes and every reachable level C, this script writes a kernel that wants
more than 255 registers, runs `ptxas -v`, and requires

  * "Used N registers" == cp(C) from `ptxopt-model-query levels`;
  * level max+1 to be refused by ptxas ("... out of range ... ignored");
  * without directives: N == max_regs_per_thread, with spills (so the kernel
    really is register hungry and no cap is below its demand);
  * `.maxnreg 1`: N == min_regs_per_thread (ptxas's floor).

By default the levels checked are both ends of every plateau of equal cp(C)
(so every critical point and every drop is seen; levels inside a plateau
follow from ptxas being monotone in C); --all-levels checks every level.
One PTX file (one ptxas run) per (target, block size) holds all its kernels.
Prints one line per target and a summary; exit status 1 on any mismatch.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time

BLOCKS = [32, 48, 64, 96, 128, 160, 192, 256, 384, 512, 768, 800, 992, 1024]
# The targets issue 7 names get every block size above; the others (sm_88,
# sm_103, sm_110, sm_121: same register data as a sibling) a sample, and
# feature-suffixed aliases (same limits as their base) a smaller one.
MAIN_TARGETS = {"sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_100", "sm_120"}
OTHER_BLOCKS = [32, 96, 160, 256, 512, 800, 1024]
ALIAS_BLOCKS = [96, 256, 1024]
ALIASES = ["sm_90a", "sm_100a", "sm_100f", "sm_120a"]
LOADS = 272                              # live values (multiple of 4): more than 255 registers

def query(tool, *args):
    out = subprocess.run([tool, *args], check=True, capture_output=True, text=True).stdout
    return out.splitlines()

def kernel(name, directives):
    """A kernel that loads LOADS values (volatile: ptxas keeps their order)
    and consumes them last-loaded-first, so all of them are live at once."""
    lines = [f".visible .entry {name}(.param .u64 p)"]
    lines += directives
    lines += ["{", f"  .reg .f32 %f<{LOADS + 1}>;", "  .reg .u64 %rd<3>;",
              "  ld.param.u64 %rd1, [p];", "  cvta.to.global.u64 %rd2, %rd1;"]
    lines += [f"  ld.volatile.global.v4.f32 {{%f{i}, %f{i + 1}, %f{i + 2}, %f{i + 3}}}, [%rd2+{4 * i}];"
              for i in range(0, LOADS, 4)]
    lines.append(f"  mov.f32 %f{LOADS}, %f{LOADS - 1};")
    lines += [f"  fma.rn.f32 %f{LOADS}, %f{LOADS}, %f{i}, %f{i};" for i in range(LOADS - 2, -1, -1)]
    lines += [f"  st.global.f32 [%rd2], %f{LOADS};", "  ret;", "}", ""]
    return "\n".join(lines)

def ptxas_targets(ptxas):
    text = subprocess.run([ptxas, "--help"], capture_output=True, text=True).stdout
    return set(re.findall(r"'(sm_\d+[af]?)'", text))

def run_ptxas(ptxas, target, ptx_text, tmpdir):
    fd, path = tempfile.mkstemp(prefix=f"{target}-", suffix=".ptx", dir=tmpdir)
    with os.fdopen(fd, "w") as f:
        f.write(ptx_text)
    p = subprocess.run([ptxas, "-v", f"-arch={target}", path, "-o", os.devnull],
                       capture_output=True, text=True)
    os.unlink(path)
    if p.returncode != 0:
        raise RuntimeError(f"ptxas failed for {target}:\n{p.stderr}")
    regs, spills, refused = {}, {}, set()
    current = None
    for line in (p.stdout + p.stderr).splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            current = m.group(1)
        m = re.search(r"(\d+) bytes spill stores", line)
        if m and current:
            spills[current] = int(m.group(1))
        m = re.search(r"Used (\d+) registers", line)
        if m and current:
            regs[current] = int(m.group(1))
        m = re.search(r"for entry (\w+) is out of range", line)
        if m:
            refused.add(m.group(1))
    return regs, spills, refused

def check_block(args, target, info, block, with_bounds, tmpdir):
    """Returns (cases, failures) for one (target, block size)."""
    lv = query(args.query, "levels", target, str(block))
    max_level = int(lv[0].split()[1])
    expect = {}
    for line in lv[1:]:
        _, c, _, r = line.split()
        expect[int(c)] = int(r)
    levels = [c for c in range(1, max_level + 1)
              if args.all_levels or c in (1, max_level)
              or expect[c] != expect[c - 1] or expect[c] != expect[c + 1]]
    header = f".version 9.0\n.target {target}\n.address_size 64\n\n"
    body = []
    for c in levels + [max_level + 1]:
        body.append(kernel(f"k_c{c}", [f".maxntid {block}, 1, 1", f".minnctapersm {c}"]))
    if with_bounds:
        body.append(kernel("k_free", []))
        body.append(kernel("k_floor", [".maxnreg 1"]))
    regs, spills, refused = run_ptxas(args.ptxas, target, header + "\n".join(body), tmpdir)

    cases, failures = 0, []
    for c in levels:
        cases += 1
        got = regs.get(f"k_c{c}")
        if f"k_c{c}" in refused or got != expect[c]:
            failures.append(f"{target} B={block} C={c}: ptxas {got}"
                            f"{' (refused)' if f'k_c{c}' in refused else ''}, model {expect[c]}")
    cases += 1
    over = f"k_c{max_level + 1}"
    if over not in refused:
        failures.append(f"{target} B={block} C={max_level + 1}: model says unreachable, "
                        f"ptxas accepted it with {regs.get(over)} registers")
    if with_bounds:
        cases += 2
        if regs.get("k_free") != info["max_regs_per_thread"] or spills.get("k_free", 0) == 0:
            failures.append(f"{target}: unconstrained kernel used {regs.get('k_free')} registers, "
                            f"{spills.get('k_free')} spill bytes; want {info['max_regs_per_thread']} and spills")
        if regs.get("k_floor") != info["min_regs_per_thread"]:
            failures.append(f"{target}: .maxnreg 1 gave {regs.get('k_floor')} registers, "
                            f"model floor {info['min_regs_per_thread']}")
    return cases, failures

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--query", required=True, help="path to ptxopt-model-query")
    ap.add_argument("--ptxas", default="ptxas")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--all-levels", action="store_true",
                    help="check every level, not only the ends of each plateau")
    args = ap.parse_args()

    start = time.time()
    supported = ptxas_targets(args.ptxas)
    model = [l.split() for l in query(args.query, "list")]
    targets = [name for name, _, flag in model if flag == "1"]
    skipped = [t for t in targets if t not in supported]
    targets = [t for t in targets if t in supported]
    aliases = [t for t in ALIASES if t in supported]
    if not targets:
        print("error: ptxas supports none of the model's targets", file=sys.stderr)
        return 1

    jobs = []
    for t in targets + aliases:
        info = {}
        for line in query(args.query, "arch", t):
            key, _, val = line.partition(" ")
            info[key] = val
        info = {k: int(v) if v.lstrip("-").isdigit() else v for k, v in info.items()}
        blocks = ALIAS_BLOCKS if t in aliases else BLOCKS if t in MAIN_TARGETS else OTHER_BLOCKS
        for i, b in enumerate(blocks):
            jobs.append((t, info, b, i == 0))

    per_target = {}
    all_failures = []
    with tempfile.TemporaryDirectory(prefix="ptxopt-cp-") as tmpdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(check_block, args, t, info, b, bounds, tmpdir): t
                   for t, info, b, bounds in jobs}
        for fut in concurrent.futures.as_completed(futures):
            t = futures[fut]
            cases, failures = fut.result()
            n, bad = per_target.get(t, (0, 0))
            per_target[t] = (n + cases, bad + len(failures))
            all_failures += failures

    for t in targets + aliases:
        n, bad = per_target[t]
        print(f"{t}: {n - bad}/{n} agree")
    for s in skipped:
        print(f"{s}: skipped (this ptxas does not list it)")
    for f in sorted(all_failures):
        print("MISMATCH " + f)
    total = sum(n for n, _ in per_target.values())
    if all_failures:
        print(f"FAILED: {len(all_failures)} of {total} cases disagree with ptxas")
        return 1
    print(f"all {total} cases agree with ptxas on {len(targets)} targets "
          f"and {len(aliases)} aliases ({time.time() - start:.1f} s)")
    return 0

if __name__ == "__main__":
    sys.exit(main())
