#!/bin/bash
# throughput.sh SRCDIR PTXOPT — parse+print throughput and peak memory of
# ptxopt (no passes) on the largest corpus file and on a >= 50 MB file
# built from corpus functions, then the analyses and the shuffle pass on it.
# Budget (DESIGN.md): >= 100 MB/s, peak RSS
# <= 10x the input.  Prints figures; asserts nothing (machines are noisy).
set -euo pipefail
src=$1 ptxopt=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
largest=$(ls -S "$src"/testsuite/corpus/*/*.ptx | sed -n 1p)
python3 "$src/bench/mkbig.py" "$tmp/big.ptx" 50 "$src/testsuite/corpus/nvcc"
# the process's own footprint (shared libraries: libLLVM alone is most of
# it) is measured on a tiny input and reported apart from what the input costs
/usr/bin/time -f "%M" -o "$tmp/base" "$ptxopt" "$src/examples/stencil3pt.ptx" -o /dev/null
base_kb=$(cat "$tmp/base")
echo "baseline peak RSS (a 2 KB input): $((base_kb / 1024)) MiB"
run() {  # best of N runs: wall time of parse+print (whole process) and peak RSS
    local f=$1 n=$2 best=999999 rss=0
    local bytes; bytes=$(stat -c %s "$f")
    for _ in $(seq "$n"); do
        /usr/bin/time -f "%e %M" -o "$tmp/t" "$ptxopt" --stats "$f" -o "$tmp/out.ptx" 2>"$tmp/stats"
        read -r secs kb <"$tmp/t"
        best=$(python3 -c "print(min($best, $secs))"); rss=$kb
    done
    cmp -s "$f" "$tmp/out.ptx" || echo "WARNING: output differs from input"
    python3 - "$f" "$bytes" "$best" "$rss" "$tmp/stats" "$base_kb" <<'PY'
import re, sys
f, b, secs, rss, stats = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
base = int(sys.argv[6])
st = open(stats).read()
m = re.search(r"parse ([\d.]+) ms.*print ([\d.]+) ms", st)
parse_ms, print_ms = float(m.group(1)), float(m.group(2))
mb = b / 1e6
print(f"{f.split('/')[-1]}: {mb:.2f} MB")
print(f"  parse {parse_ms:.1f} ms = {mb/(parse_ms/1e3):.0f} MB/s; print {print_ms:.1f} ms = {mb/(print_ms/1e3):.0f} MB/s; "
      f"parse+print {mb/((parse_ms+print_ms)/1e3):.0f} MB/s (budget >= 100)")
print(f"  whole process {secs:.2f} s = {mb/max(secs,1e-3):.0f} MB/s incl. read/write")
print(f"  peak RSS {rss/1024:.1f} MiB; above the baseline {(rss-base)/1024:.1f} MiB = {(rss-base)*1024/b:.1f}x the input (budget <= 10x)")
PY
}
passes() {  # the analyses and the shuffle pass (whole-module mode), broadest options
    local f=$1 p='shuffle<max-delta=31;max-shuffles=1000;loops=1>'
    local bytes; bytes=$(stat -c %s "$f")
    /usr/bin/time -f "%e %M" -o "$tmp/t" "$ptxopt" --stats --passes="$p" "$f" -o "$tmp/out.ptx" 2>"$tmp/stats"
    read -r secs kb <"$tmp/t"
    python3 - "$f" "$bytes" "$kb" "$tmp/stats" "$base_kb" "$p" <<'PY'
import re, sys
f, b, rss, stats, base, p = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), sys.argv[6]
st = open(stats).read()
ms = float(re.search(r"passes ([\d.]+) ms", st).group(1))
mb = b / 1e6
print(f"{f.split('/')[-1]} with --passes='{p}':")
print(f"  passes {ms:.0f} ms = {mb/(ms/1e3):.0f} MB/s (budget >= 20); peak RSS above the baseline "
      f"{(rss-base)/1024:.1f} MiB = {(rss-base)*1024/b:.1f}x the input (budget <= 10x)")
PY
}
run "$largest" 5
run "$tmp/big.ptx" 3
passes "$tmp/big.ptx"
