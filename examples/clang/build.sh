#!/bin/sh
# build.sh — the clang recipe of ptxopt-nvcc(1): clang 14 + CUDA 13 +
# ptxopt.  clang's one-step build (clang++ -x cuda app.cu) stops at
# fatbinary with CUDA 12/13 (clang 14 calls it with --image, which CUDA 12
# dropped), and clang cannot parse CUDA 13's headers; so: device code by
# clang (its ptxas is ptxopt-ptxas, through the shadow CUDA root), the
# fatbinary by CUDA's own tool, host code by clang with that fatbinary
# included, linked with CUDA's runtime.
#   sh build.sh [SOURCE.cu [OUTPUT [SM]]]     (defaults: saxpy.cu saxpy 80)
set -eu
src=${1:-saxpy.cu} out=${2:-saxpy} sm=${3:-80}
here=$(cd "$(dirname "$0")" && pwd)
root=$(ptxopt-nvcc --cuda-root)
clang=${CLANGXX:-clang++}
flags="--cuda-path=$root --no-cuda-version-check -nocudainc --cuda-gpu-arch=sm_$sm -I$here -O2"
$clang -x cuda $flags --cuda-device-only -c "$src" -o "$out.cubin"
"$root/bin/fatbinary" --create="$out.fatbin" --image3=kind=elf,sm=$sm,file="$out.cubin"
$clang -x cuda $flags --cuda-host-only -Xclang -fcuda-include-gpubinary -Xclang "$out.fatbin" -c "$src" -o "$out.o"
$clang "$out.o" -o "$out" -L"$root/lib64" -lcudart
