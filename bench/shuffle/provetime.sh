#!/bin/sh
# provetime.sh [PTXOPT] [RUNS] — the shuffle pass's time per file (issue 6:
# under 50 ms, Z3 proofs included) for the corpus stencils and the
# kernelgen kernels (sm_80): pairs rewritten, Z3 queries, and the fastest of
# RUNS runs (default 5) of `ptxopt --stats` "passes" time with
#   default   --passes=shuffle (prove=auto: every pair confirmed by Z3)
#   rewrite   shuffle<prove=rewrite> (normalisation only, no Z3)
#   wide      shuffle<max-delta=31;max-shuffles=64;loops=1> (the paper's setting, sources in loops included)
#   wide-z3   the same with prove=z3 (Z3 asked for every candidate)
# The first Z3 query of a process makes the Z3 context (about 10 ms on an
# idle machine): files without a candidate never pay it.  Not a timed test.
ptxopt=${1:-ptxopt}
runs=${2:-5}
corpus=$(dirname "$0")/../../testsuite/corpus
tmp=${TMPDIR:-/tmp}/provetime.$$
mkdir -p "$tmp" || exit 1
best() { # best OPTS FILE: the smallest "passes N ms" of $runs runs
  b=
  i=0
  while [ $i -lt "$runs" ]; do
    ms=$("$ptxopt" --stats --passes="$1" "$2" -o /dev/null 2>&1 | sed -n 's/.*passes \([0-9.]*\) ms.*/\1/p')
    b=$(echo "$ms ${b:-$ms}" | awk '{print ($1 < $2) ? $1 : $2}')
    i=$((i + 1))
  done
  echo "${b:-?}"
}
printf '%-26s %5s %7s %9s %9s %9s %9s\n' file pairs queries default rewrite wide wide-z3
worst=0 worst_w=0
for f in "$corpus"/nvcc/stencil*.sm_80.ptx "$corpus"/nvcc/jacobi_restrict.sm_80.ptx "$corpus"/nvcc/blur5x5.sm_80.ptx \
         "$corpus"/kernelgen/*.sm_80.ptx; do
  [ -f "$f" ] || continue
  "$ptxopt" --remarks --passes=shuffle "$f" -o /dev/null 2> "$tmp/rem" || { echo "$f: ptxopt failed"; continue; }
  pairs=$(sed -n 's/.*proofs: \([0-9]*\) pair.* in \([0-9]*\) quer.*/\1/p' "$tmp/rem" | awk '{s += $1} END {print s + 0}')
  queries=$(sed -n 's/.*proofs: .* in \([0-9]*\) quer.*/\1/p' "$tmp/rem" | awk '{s += $1} END {print s + 0}')
  d=$(best shuffle "$f")
  r=$(best 'shuffle<prove=rewrite>' "$f")
  w=$(best 'shuffle<max-delta=31;max-shuffles=64;loops=1>' "$f")
  z=$(best 'shuffle<max-delta=31;max-shuffles=64;loops=1;prove=z3>' "$f")
  printf '%-26s %5s %7s %9s %9s %9s %9s\n' "$(basename "$f")" "$pairs" "$queries" "$d" "$r" "$w" "$z"
  worst=$(echo "$d $worst" | awk '{print ($1 > $2) ? $1 : $2}')
  worst_w=$(echo "$w $worst_w" | awk '{print ($1 > $2) ? $1 : $2}')
done
echo "slowest file, default pipeline: $worst ms; the paper's setting (wide): $worst_w ms (goal: < 50 ms)"
rm -rf "$tmp"
