#!/bin/sh
# emu_diff.sh PTXOPT PTXOPT-EMU SRCDIR SCRATCH [PLANT]
# Issue 13 tests: for every form (pairs with .cg and with .cs, versioning
# with .L1::no_allocate, l2policy) and every threshold T in 0..W
# (immediate; the module variable for T = 0, W/2, W), the emulator runs
# the original and the rewritten kernel on the same random inputs (an ITS
# seed and hanoi: the partition is warp-uniform, so schedules matter
# little) and every buffer must be bit-identical.  Kernels: a 2-D
# stencil, a naive and a tiled matmul (CTA barriers: versioning's
# non-aligned barriers), a gather (vector load, data-dependent addresses);
# blocks 1-D (96: 3 warps), 2-D with ntid.x a multiple of 32 (32,4) and
# not (16,8: two rows per warp; 40,3: 120 threads, a partial last warp).
# PLANT=1: the bypass halves load from the wrong address (sed on the
# output), and the script must then report a difference: the comparison
# can fail.  KERNELS (optional, after PLANT) limits the kernels.
set -e
ptxopt=$1 emu=$2 src=$3 tmp=$4 plant=${5:-0} kernels=${6:-stencil2d_5pt matmul_naive matmul_tiled gather}
mkdir -p "$tmp"
ceil() { echo $(( ($1 + $2 - 1) / $2 )); }
corpus=$src/testsuite/corpus/nvcc
bad=0 runs=0
for k in $kernels; do
  case $k in
  gather) file=$src/testsuite/bypass/Inputs/gather.sm_80.ptx;;
  *) file=$corpus/$k.sm_80.ptx;;
  esac
  for b in 96 32,4 16,8 40,3; do
    bx=${b%%,*}; by=1; case $b in *,*) by=${b#*,};; esac
    W=$(ceil $((bx * by)) 32)
    case $k in
    stencil2d_5pt) nx=37 ny=11; n=$((nx * ny))
      launch="--grid=$(ceil $nx $bx),$(ceil $ny $by) --block=$b --arg=buf:f32:$n:zeros --arg=buf:f32:$n:random --arg=i32:$nx --arg=i32:$ny";;
    matmul_naive) m=13 nn=41 kk=9
      launch="--grid=$(ceil $nn $bx),$(ceil $m $by) --block=$b --arg=buf:f32:$((m * nn)):zeros --arg=buf:f32:$((m * kk)):random:1 --arg=buf:f32:$((kk * nn)):random:2 --arg=i32:$m --arg=i32:$nn --arg=i32:$kk";;
    matmul_tiled) [ "$b" = 16,8 ] || continue   # the kernel's tile is 16x16: needs blockDim.x 16
      b=16,16 bx=16 by=16 W=8 nn=37
      launch="--grid=3,3 --block=16,16 --arg=buf:f32:$((nn * nn)):zeros --arg=buf:f32:$((nn * nn)):random:31 --arg=buf:f32:$((nn * nn)):random:32 --arg=i32:$nn";;
    gather) width=45 n=$((45 * 7))
      launch="--grid=$(ceil $width $bx),$(ceil 7 $by) --block=$b --arg=buf:f32:$n:zeros --arg=buf:f32:$n:random --arg=buf:i32:$n:random:5:0:$((n - 1)) --arg=buf:f32:16:random:9 --arg=i32:$n --arg=i32:$width";;
    esac
    T=0
    while [ $T -le $W ]; do
      for form in 'form=pairs' 'form=pairs;op=cs' 'form=versioning;op=no-allocate' 'form=l2policy'; do
        for d in imm global; do
          # the module variable: the header with T = 0, W/2 and W
          [ $d = imm ] || [ $T -eq 0 ] || [ $T -eq $((W / 2)) ] || [ $T -eq $W ] || continue
          out=$tmp/$k.$bx.$by.$T.$d.$(echo "$form" | tr ';=' '__').ptx
          "$ptxopt" --passes="bypass<threshold=$T;$form;delivery=$d>" "$file" -o "$out"
          if [ "$plant" = 1 ]; then
            sed -i -E 's/^(.*ld(\.global)?\.(cg|cs|L1::no_allocate)[^[]*)\[(%rd[0-9]+)\]/\1[\4+4]/; s/^(.*L2::cache_hint[^[]*)\[(%rd[0-9]+)\]/\1[\2+4]/' "$out"
          fi
          runs=$((runs + 1))
          if ! "$emu" -q --diff "$file" "$out" $launch --seeds=1 --max-report=2 > "$out.log" 2>&1; then
            echo "emu_diff.sh: $k block $b T=$T $form delivery=$d differs" >&2
            bad=$((bad + 1))
            [ "$plant" = 1 ] || { cat "$out.log" >&2; exit 1; }
          fi
        done
      done
      T=$((T + 1))
    done
  done
done
echo "emu_diff.sh: $runs launches, $bad differ"
[ $bad -eq 0 ]
