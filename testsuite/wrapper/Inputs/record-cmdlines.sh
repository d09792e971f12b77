#!/bin/sh
# record-cmdlines.sh — how cmdlines-nvcc-13.0.txt and cmdlines-clang-14.txt
# were captured (run by hand when a toolkit changes; not part of the tests):
#
#   sh record-cmdlines.sh nvcc  > cmdlines-nvcc-NEW.txt
#   sh record-cmdlines.sh clang > cmdlines-clang-NEW.txt
#
# Every ptxas command that `nvcc --dryrun` or `clang -###` prints for a set of
# flag combinations, with the inputs that the command names (the .ptx/.s
# files), which the test compares with what ptxopt-ptxas finds.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/k.cu" <<'CU'
extern "C" __global__ void k(float *p) { p[threadIdx.x] *= 2.0f; }
CU
emit() {  # emit SOURCE-DESCRIPTION LINE
    inputs=$(printf '%s\n' "$2" | grep -o '"[^"]*\.\(ptx\|s\)"' | tr -d '"' | tr '\n' ' ')
    printf '# %s\n# inputs: %s\n%s\n\n' "$1" "$inputs" "$2"
}
case ${1:-nvcc} in
nvcc)
    nvcc=${NVCC:-nvcc}
    printf '# ptxas command lines printed by %s --dryrun (%s)\n\n' "$nvcc" "$("$nvcc" --version | tail -1)"
    while IFS= read -r flags; do
        # shellcheck disable=SC2086
        (cd "$dir" && "$nvcc" --dryrun $flags k.cu 2>&1) | sed -n 's/^#\$ \(ptxas .*\)/\1/p' | sed 's/ *$//' |
            while IFS= read -r line; do emit "nvcc --dryrun $flags k.cu" "$line"; done
    done <<'FLAGS'
-arch=sm_80 -c
-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=[sm_90,compute_90] -c
-arch=sm_86 -G -c
-arch=sm_80 -lineinfo -rdc=true -c
-arch=sm_80 -Xptxas -v,-dlcm=cg -maxrregcount=32 -c
-arch=sm_89 --use_fast_math -c
-arch=sm_80 -Xptxas -O1 -c
-arch=sm_80 --ptxas-options=--warn-on-spills -c
-arch=sm_80 -Xptxas --ptxopt-passes=a,b -c
-arch=sm_80 --keep --keep-dir /tmp -c
-arch=sm_90a -c
-arch=sm_75 -cubin
-arch=sm_80 -Xptxas -warn-lmem-usage,-warn-double-usage,-Werror -c
-arch=sm_80 -split-compile=4 -c
-arch=sm_80 --fmad=false -prec-div=true -c
-arch=sm_80 -Xptxas=-allow-expensive-optimizations=true -c
-arch=sm_80 -Xptxas -e,k -c
FLAGS
    ;;
clang)
    clang=${CLANG:-clang}
    cuda=${CUDA_PATH:-/usr/local/cuda}
    printf '# ptxas command lines printed by %s -### --cuda-path=%s (%s)\n\n' "$clang" "$cuda" "$("$clang" --version | head -1)"
    while IFS= read -r flags; do
        # shellcheck disable=SC2086
        (cd "$dir" && "$clang" -### --cuda-path="$cuda" --no-cuda-version-check -nocudainc -nocudalib \
            --cuda-device-only -c k.cu $flags 2>&1) | grep '/ptxas"' | sed 's/^ *//' |
            while IFS= read -r line; do emit "clang -### --cuda-device-only -c k.cu $flags" "$line"; done
    done <<'FLAGS'
--cuda-gpu-arch=sm_80 -O3
--cuda-gpu-arch=sm_75 --cuda-gpu-arch=sm_86 -O2
--cuda-gpu-arch=sm_86 -g -O0
--cuda-gpu-arch=sm_80 -fgpu-rdc -O3
--cuda-gpu-arch=sm_80 -O3 -Xcuda-ptxas -v -Xcuda-ptxas --maxrregcount=64
--cuda-gpu-arch=sm_75 -O1 -gline-tables-only
FLAGS
    ;;
esac
