#!/bin/sh
# regdelta.sh [PTXOPT] [PASS-OPTIONS] — per corpus stencil kernel and
# KernelGen port (testsuite/corpus/kernelgen) and target:
# loads, shuffles, mean |N|, pass time, and the register count ptxas -v
# reports before and after the shuffle pass (a proxy for the occupancy
# cost the paper saw on Volta).  Not a timed test; needs ptxas.
ptxopt=${1:-ptxopt}
opts=${2:-max-delta=31;max-shuffles=64;loops=1;profit=off}
ptxas=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
corpus=$(dirname "$0")/../../testsuite/corpus
tmp=${TMPDIR:-/tmp}/regdelta.$$
mkdir -p "$tmp" || exit 1
regs() { "$ptxas" -v -arch="$2" "$1" -o /dev/null 2>&1 | sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' | head -1; }
printf '%-22s %-6s %6s %9s %7s %9s %5s %5s %6s\n' kernel target loads shuffles mean_N pass_ms regs0 regs1 delta
kernelgen=$(cd "$corpus/kernelgen" && ls *.sm_80.ptx | sed 's|^|kernelgen/|; s/\.sm_80\.ptx$//')
for k in nvcc/stencil1d_3pt nvcc/stencil2d_5pt nvcc/stencil3d_7pt nvcc/stencil3d_13pt nvcc/jacobi_restrict nvcc/blur5x5 \
         $kernelgen; do
  for sm in 75 80 86 89 90; do
    in=$corpus/$k.sm_$sm.ptx
    [ -f "$in" ] || continue
    "$ptxopt" --stats --remarks --passes="shuffle<$opts>" "$in" -o "$tmp/out.ptx" 2> "$tmp/err" || { echo "$k sm_$sm: ptxopt failed"; continue; }
    stat=$(sed -n 's/.*loads \([0-9]*\), shuffles \([0-9]*\), mean |N| \([0-9.]*\).*/\1 \2 \3/p' "$tmp/err" | head -1)
    ms=$(sed -n 's/.*passes \([0-9.]*\) ms.*/\1/p' "$tmp/err" | head -1)
    r0=$(regs "$in" sm_$sm) r1=$(regs "$tmp/out.ptx" sm_$sm)
    set -- $stat
    printf '%-22s %-6s %6s %9s %7s %9s %5s %5s %+6d\n' "$k" "sm_$sm" "$1" "$2" "$3" "$ms" "$r0" "$r1" $((r1 - r0))
  done
done
rm -rf "$tmp"
