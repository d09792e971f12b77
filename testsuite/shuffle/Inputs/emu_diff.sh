#!/bin/sh
# emu_diff.sh PTXOPT PTXOPT-EMU CORPUS-DIR SCRATCH [PASS-OPTIONS]
# Rewrites every stencil kernel of the corpus with the shuffle pass and runs
# original and rewritten side by side in the emulator (3 ITS seeds and
# hanoi per launch) for each block shape; sizes that are and are not
# multiples of 32.  Exits non-zero at the first disagreement.
set -e
ptxopt=$1 emu=$2 corpus=$3 tmp=$4
opts=${5:-max-delta=31;max-shuffles=64}
mkdir -p "$tmp"
ceil() { echo $(( ($1 + $2 - 1) / $2 )); }
for k in stencil1d_3pt stencil2d_5pt stencil3d_7pt stencil3d_13pt jacobi_restrict blur5x5; do
  "$ptxopt" --passes="shuffle<$opts;profit=off>" "$corpus/$k.sm_80.ptx" -o "$tmp/$k.ptx"
  for nx in 70 64; do
    for b in 32 128 512 16,2 48,2 33; do
      bx=${b%%,*}; by=1; case $b in *,*) by=${b#*,};; esac
      ny=6 nz=5
      case $k in
      stencil1d_3pt) n=$((nx * 3)); launch="--grid=$(ceil $n $bx) --block=$b --arg=buf:f32:$n:zeros --arg=buf:f32:$n:random --arg=i32:$n";;
      stencil2d_5pt|blur5x5) n=$((nx * ny)); launch="--grid=$(ceil $nx $bx),$(ceil $ny $by) --block=$b --arg=buf:f32:$n:zeros --arg=buf:f32:$n:random --arg=i32:$nx --arg=i32:$ny";;
      jacobi_restrict) n=$((nx * ny)); launch="--grid=$(ceil $nx $bx),$(ceil $ny $by) --block=$b --arg=buf:f32:$n:zeros --arg=buf:f32:$n:random --arg=buf:f32:$n:random:7 --arg=i32:$nx --arg=i32:$ny";;
      stencil3d_7pt) n=$((nx * ny * nz)); launch="--grid=$(ceil $nx $bx),$(ceil $ny $by) --block=$b --arg=buf:f32:$n:zeros --arg=buf:f32:$n:random --arg=i32:$nx --arg=i32:$ny --arg=i32:$nz";;
      stencil3d_13pt) n=$((nx * ny * nz)); launch="--grid=$(ceil $nx $bx),$(ceil $ny $by),$nz --block=$b --arg=buf:f32:$n:zeros --arg=buf:f32:$n:random --arg=i32:$nx --arg=i32:$ny --arg=i32:$nz";;
      esac
      if ! "$emu" -q --diff "$corpus/$k.sm_80.ptx" "$tmp/$k.ptx" $launch --max-report=3; then
        echo "emu_diff.sh: $k differs (nx $nx, block $b)" >&2
        exit 1
      fi
    done
  done
done
echo "emu_diff.sh: all launches agree"
