#!/bin/bash
# throughput.sh SRCDIR PTXOPT — per pass, throughput and peak memory against
# the budgets of DESIGN.md: parse+print >= 100 MB/s; every pass streams or
# peaks at <= 10x the input, and takes <= 5x the time of parse+print.
#
# Inputs: a generated module of 200 MiB (bench/mkbig.py: the corpus's
# functions, renamed copies), and the largest file of the real-code sweep's
# cache (make sweep; $PTXOPT_SWEEP_CACHE, else ~/.cache/ptxopt-sweep) when
# there is one.  Times are CPU seconds (user + sys) of the whole process,
# best of $BENCH_RUNS (default 1) runs: this machine is shared, and wall
# time mostly measures the neighbours.  "pass x" is the pass's CPU time
# beyond parse+print's, as a multiple of it.  Prints figures; asserts
# nothing (machines are noisy).
set -euo pipefail
src=$1 ptxopt=$2
runs=${BENCH_RUNS:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# what each pass does at its defaults and at its widest or forced setting;
# the last ones need the whole module (a module variable, the sfu resource
# gate), so they cannot stream
pipelines=(
    'regtune<maxnreg=64>'
    'shuffle' 'shuffle<profit=off;max-delta=31;loops=1>'
    'bypass<threshold=2>' 'bypass<threshold=2;form=versioning>'
    'sfu' 'sfu<lambda=2;gate=off>'
    'tinylock' 'tinylock<profit=off>'
)
whole=('bypass<threshold=2;delivery=global>' 'sfu<lambda=2;delivery=global;gate=off>')

/usr/bin/time -f "%M" -o "$tmp/base" "$ptxopt" "$src/examples/stencil3pt.ptx" -o /dev/null
base_kb=$(cat "$tmp/base")
echo "the process's own footprint (a 2 KB input): $((base_kb / 1024)) MiB peak RSS"

measure() {  # FILE PIPELINE -> "cpu_s peak_kb streamed rc"
    local f=$1 p=$2 best=999999 kb=0 rc=0 streamed=no
    for _ in $(seq "$runs"); do
        if /usr/bin/time -f "%U %S %M" -o "$tmp/t" "$ptxopt" --stats ${p:+--passes="$p"} "$f" -o /dev/null 2>"$tmp/stats"; then rc=0; else rc=$?; fi
        read -r us ss kb <"$tmp/t"
        best=$(python3 -c "print(min($best, $us + $ss))")
    done
    grep -q '(streamed)' "$tmp/stats" && streamed=yes
    echo "$best $kb $streamed $rc"
}

report() {  # FILE LABEL
    local f=$1 label=$2 bytes
    bytes=$(stat -c %s "$f")
    echo
    echo "$label: $(python3 -c "print('%.1f MB' % ($bytes / 1e6))")"
    read -r pp_cpu pp_kb _ _ <<<"$(measure "$f" "")"
    python3 - "$bytes" "$pp_cpu" "$pp_kb" "$base_kb" <<'PY'
import sys
b, cpu, kb, base = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
print("  %-44s %8s %9s %8s %9s %7s %s" % ("pipeline", "cpu s", "MB/s", "pass x", "peak MiB", "x input", "streamed"))
print("  %-44s %8.2f %9.1f %8s %9.0f %7.1f %s%s" % ("(none: parse+print)", cpu, b / 1e6 / max(cpu, 1e-3), "-", kb / 1024,
      kb * 1024 / b, "yes", "" if b / 1e6 / max(cpu, 1e-3) >= 100 else "   parse+print below 100 MB/s"))
PY
    for p in "${pipelines[@]}" "${whole[@]}"; do
        read -r cpu kb streamed rc <<<"$(measure "$f" "$p")"
        python3 - "$bytes" "$cpu" "$kb" "$pp_cpu" "$p" "$streamed" "$rc" <<'PY'
import sys
b, cpu, kb, pp = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
p, streamed, rc = sys.argv[5], sys.argv[6], int(sys.argv[7])
ratio = max(cpu - pp, 0) / max(pp, 1e-3)
x = kb * 1024 / b
over = []
if rc: over.append("exit status %d" % rc)
if ratio > 5: over.append("time over 5x")
if x > 10: over.append("memory over 10x")
print("  %-44s %8.2f %9.1f %8.1f %9.0f %7.1f %-8s %s" % (p, cpu, b / 1e6 / max(cpu, 1e-3), ratio, kb / 1024, x, streamed,
      "  OVER BUDGET: " + ", ".join(over) if over else ""))
PY
    done
}

python3 "$src/bench/mkbig.py" "$tmp/big.ptx" 209.8 "$src/testsuite/corpus/nvcc" >/dev/null
report "$tmp/big.ptx" "generated module (bench/mkbig.py, 200 MiB)"
rm -f "$tmp/big.ptx"

cache=${PTXOPT_SWEEP_CACHE:-$HOME/.cache/ptxopt-sweep}
largest=$(find "$cache" -name '*.ptx' -type f -printf '%s %p\n' 2>/dev/null | sort -n | tail -1 | cut -d' ' -f2- || true)
if [ -n "$largest" ]; then
    report "$largest" "largest file of the sweep (${largest#"$cache"/})"
else
    echo
    echo "no sweep cache at $cache (or no .ptx in it): run 'make sweep' first for the largest real file"
fi
