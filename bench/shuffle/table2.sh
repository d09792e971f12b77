#!/bin/sh
# table2.sh [PTXOPT] [PASS-OPTIONS] [ARCH] — the PTXASW paper's Table 2
# (shuffles / loads, mean |N|, analysis time on the 16 KernelGen kernels)
# beside what a perfect pass would find in this project's CUDA ports
# (testsuite/kernels/kernelgen/count_shuffles.py, the README's "expected"
# columns) and beside what ptxopt's shuffle pass finds, with the reason for
# every difference.  Not a timed test: it prints figures.
#
# Options default to shuffle<max-delta=31;max-shuffles=1000;loops=1>: the
# paper shuffles over any distance a warp allows, caps nothing and rewrites
# loads in loops (its gang loops hold every kernel body), while ptxopt's
# sm_70+ defaults (max-delta=1;max-shuffles=8;loops=0) are tuned for Volta
# and later (a totals line for them follows the table).
ptxopt=${1:-ptxopt}
opts=${2:-max-delta=31;max-shuffles=1000;loops=1;profit=off}
arch=${3:-sm_80}
src=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$src/testsuite/corpus/kernelgen
count=$src/testsuite/kernels/kernelgen/count_shuffles.py
python=${PYTHON:-python3}
tmp=${TMPDIR:-/tmp}/table2.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT

# Table 2 of the paper, verbatim (seed-003 §5.2): kernel, frontend (C =
# nvc, F = nvfortran), shuffles, loads, mean |N|, analysis time on an
# i7-5930K; then the notes of testsuite/kernels/kernelgen/README.md
# ("Why the numbers differ") that explain port vs paper ("-": none needed).
cat > "$tmp/paper" <<'EOF'
divergence C 1 6 2.00 4.281s -
gameoflife C 6 9 1.50 3.470s 1
gaussblur C 20 25 2.50 7.938s 1
gradient C 1 6 2.00 4.668s -
jacobi F 6 9 1.50 4.119s 1,7
lapgsrb C 12 25 1.83 14.296s 1
laplacian C 2 7 1.50 4.816s 1
matmul F 0 8 - 13.971s 3,7
matvec C 0 7 - 4.929s 4
sincos F 0 2 - 101.424s 5,7
tricubic C 48 67 2.00 99.476s -
tricubic2 C 48 67 2.00 101.855s -
uxx1 C 3 17 2.00 7.466s 1
vecadd C 0 2 - 3.281s -
wave13pt C 4 14 2.50 6.967s 1,6
whispering C 6 19 0.83 6.288s 2
EOF

# Expected (a perfect pass under the paper's policy): the README's table,
# "kernel body-L total-L S mean" per line; its S is cross-checked against
# count_shuffles.py, which reads the PTX (a stale README shows up here).
readme=$src/testsuite/kernels/kernelgen/README.md
awk -F'|' 'NF > 6 && $2 ~ /^ [a-z0-9]+ $/ {
    k = $2; gsub(/ /, "", k); split($4, l, /[ ()]+/); s = $5; gsub(/ /, "", s)
    m = $6; gsub(/ /, "", m); if (m !~ /^[0-9.]+$/) m = "-"
    print k, l[2], l[3], s, m }' "$readme" > "$tmp/expected"
[ -s "$tmp/expected" ] || { echo "table2.sh: no table in $readme" >&2; exit 1; }
"$python" "$count" "$corpus" "$arch" > "$tmp/counted" || { echo "table2.sh: $count failed" >&2; exit 1; }
stale=$(awk 'NR == FNR { s[$1] = $4; next } FNR > 1 && s[$1] != $4 { printf " %s", $1 }' "$tmp/expected" "$tmp/counted")

# One run of the pass: "L S mean" of its summary remark, the passes time,
# the applied N values and the missed remarks' reasons.
run() { # FILE OPTS OUT-PREFIX
  "$ptxopt" --stats --remarks --passes="shuffle${2:+<$2>}" "$1" -o /dev/null 2> "$3.err" || return 1
  sed -n 's/.*\] [^:]*: loads \([0-9]*\), shuffles \([0-9]*\), mean |N| \([0-9.]*\).*/\1 \2 \3/p' "$3.err" | head -1 > "$3.sum"
  sed -n 's/.*passes \([0-9.]*\) ms.*/\1/p' "$3.err" | head -1 > "$3.ms"
  sed -n 's/.*(N = \(-\{0,1\}[0-9]*\)[,)].*(applied)$/\1/p' "$3.err" | tr '\n' ' ' > "$3.n"
  sed -n 's/.*\] [^:]*: \([^:(]*[^:( ]\).*(missed)$/\1/p' "$3.err" | sort | uniq -c | sort -rn |
    awk '{n=$1; $1=""; printf "%s%d x%s", (NR>1?"; ":""), n, $0}' > "$3.why"
  sed -n 's/ ([a-z]* at line [0-9]*)//; s/.*\] [^:]*: \(.*\) (missed)$/\1/p' "$3.err" > "$3.full"
}

printf 'Table 2 (PTXASW, CC'"'"'23) beside ptxopt on the CUDA ports: shuffle<%s>, %s\n' "$opts" "$arch"
printf '  paper: S/L, mean|N|, analysis time | expected: a perfect pass under the paper'"'"'s policy on the port\n'
printf '  (testsuite/kernels/kernelgen/README.md; L = main-body loads (all ld.global)) | ptxopt: S/L from its\n'
printf '  summary remark (L = all ld.global), pass time in ms (best of 3)\n\n'
printf '%-11s | %-25s | %-20s | %-22s | %-5s |\n' '' 'paper (NVHPC)' 'expected (port)' 'ptxopt (port)' ''
printf '%-11s | %7s %5s %11s | %13s %6s | %7s %5s %8s | %-5s | %s\n' \
  kernel S/L '|N|' time 'S/L (all)' '|N|' S/L '|N|' ms notes 'ptxopt vs expected'
line=$(printf '%104s' '' | tr ' ' -)
echo "$line"
sp=0 lp=0 se=0 le=0 lt=0 so=0 lo=0 msum=0
: > "$tmp/reasons"; : > "$tmp/nlist"
while read -r k lang ps pl pm pt notes; do
  f=$corpus/$k.$arch.ptx
  if ! run "$f" "$opts" "$tmp/o"; then echo "$k: ptxopt failed: $(head -3 "$tmp/o.err")"; continue; fi
  best=$(cat "$tmp/o.ms")
  for i in 2 3; do
    run "$f" "$opts" "$tmp/r" && best=$(printf '%s\n%s\n' "$best" "$(cat "$tmp/r.ms")" | sort -n | head -1)
  done
  set -- $(cat "$tmp/o.sum"); ol=$1 os=$2 om=$3
  [ "$os" = 0 ] && om=-
  set -- $(awk -v k="$k" '$1 == k {print $3, $2, $4, $5}' "$tmp/expected"); et=$1 eb=$2 es=$3 em=$4
  # why ptxopt differs from the expected column
  if [ "$os" = "$es" ] && [ "$om" = "$em" ]; then why="="
  elif [ "$os" = "$es" ]; then
    why="same S; mean |N| $om vs $em: partner choice (N values below)"
    printf '%s: ptxopt N = %s| expected N = %s\n' "$k" "$(cat "$tmp/o.n")" \
      "$(awk -v k="$k" '$1 == k {for (i = 6; i <= NF; i++) printf "%s ", $i}' "$tmp/counted")" >> "$tmp/nlist"
  else
    d=$((os - es)); [ $d -gt 0 ] && d=+$d
    why="$d; missed: $(cat "$tmp/o.why")"
    [ -s "$tmp/o.why" ] || why="$d"
  fi
  cat "$tmp/o.full" >> "$tmp/reasons"
  printf '%-11s | %7s %5s %11s | %13s %6s | %7s %5s %8s | %-5s | %s\n' \
    "$k" "$ps/$pl" "$pm" "$pt" "$es/$eb ($et)" "$em" "$os/$ol" "$om" "$best" "$notes" "$why"
  sp=$((sp + ps)) lp=$((lp + pl)) se=$((se + es)) le=$((le + eb)) lt=$((lt + et)) so=$((so + os)) lo=$((lo + ol))
  msum=$(awk -v a="$msum" -v b="$best" 'BEGIN {printf "%.2f", a + b}')
done < "$tmp/paper"
echo "$line"
printf '%-11s | %7s %5s %11s | %13s %6s | %7s %5s %8s |\n' sum "$sp/$lp" '' 372.050s "$se/$le ($lt)" '' "$so/$lo" '' "$msum"

# The same counts on every target of the corpus?
diffs=
for f in "$corpus"/*.ptx; do
  case $f in *."$arch".ptx) continue;; esac
  k=$(basename "$f"); k=${k%%.*}; a=$(basename "$f" .ptx); a=${a#*.}
  run "$f" "$opts" "$tmp/t" || { diffs="$diffs $k.$a(failed)"; continue; }
  run "$corpus/$k.$arch.ptx" "$opts" "$tmp/u"
  cmp -s "$tmp/t.sum" "$tmp/u.sum" || diffs="$diffs $k.$a"
done
targets=$(ls "$corpus" | sed -n 's/.*\.\(sm_[0-9a-z]*\)\.ptx$/\1/p' | sort -u | tr '\n' ' ')
[ -n "$stale" ] && echo "README.md's expected S disagrees with count_shuffles.py on:$stale (regenerate the table)"
if [ -z "$diffs" ]; then echo "ptxopt's L/S/mean|N| are the same on every target: $targets"
else echo "ptxopt's counts differ from $arch on:$diffs"; fi

# The sm_70+ defaults, for scale.
tl=0 ts=0
for k in $(cut -d' ' -f1 "$tmp/paper"); do
  run "$corpus/$k.$arch.ptx" "" "$tmp/d" || continue
  set -- $(cat "$tmp/d.sum"); tl=$((tl + $1)) ts=$((ts + $2))
done
echo "at the pass's defaults for $arch (plain 'shuffle'; sm_70+: max-delta=1, max-shuffles=8, loops=0, the profitability gate): $ts shuffles of $tl loads"

echo
echo "Paper vs expected (notes column; testsuite/kernels/kernelgen/README.md, 'Why the numbers differ'):"
cat <<'EOF'
  1  mean |N| only: the paper's root is a row's first *loaded* element; NVHPC loaded rows from one
     end (|N| 1,2 / 1..4), nvcc loads the centre first (|N| 1 / 1,2).  Shuffle counts are equal.
  2  whispering 18/5 vs 19/6: `__restrict__` lets nvcc keep h0(i,j) in a register; NVHPC reloaded it
     after the stores and the paper counted that reload as an N = 0 shuffle (mean 0.83).
  3  matmul: 8 body loads as in the paper (4-way unroll) plus a 6-load remainder; no tid.x neighbours.
  4  matvec 8 (10) vs 7: nvcc unrolls the sequential loop 4x on its own; no tid.x neighbours.
  5  sincos: the 2 extra loads read __cudart_i2opi_f in sinf/cosf's slow path (not tid.x-indexed).
  6  wave13pt: the original's vector index is not unit stride; the port names the unit-stride index i.
  7  Fortran kernel ported to C with column-major indexing; 1-based bounds become 0-based.
  Analysis time: the paper ran a Racket symbolic evaluator with an SMT solver per kernel (seconds to
  minutes); ptxopt's pass time is its whole run on the kernel (term rewriting, Z3 only where needed).
  The paper's sum of times is 372.05 s.
EOF
if [ -s "$tmp/nlist" ]; then
  echo
  echo "Same shuffle count, different mean |N| (pass's partner choice vs the paper's first-load root):"
  sed 's/^/  /' "$tmp/nlist"
fi
if [ -s "$tmp/reasons" ]; then
  echo
  echo "ptxopt vs expected: the pass's remarks for the loads it did not shuffle (count over all kernels):"
  sort "$tmp/reasons" | uniq -c | sort -rn | sed 's/^ */  /'
fi
