#!/usr/bin/env bash
# regen.sh — regenerate the SFU evaluation kernels' PTX (testsuite/sfu).
#
#   bash testsuite/sfu/Inputs/regen.sh
#
# For every evaluation kernel NAME.cu listed below: NAME.sm_80.ptx with nvcc's default
# flags (the precise library code the sfu pass rewrites) and
# NAME.fast.sm_80.ptx with -use_fast_math (nvcc's own approximate forms:
# a reference point for the error model), each checked with ptxas.
# Environment: NVCC, PTXAS (otherwise PATH, then /usr/local/cuda/bin).
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ptxas=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
cd "$dir"
for name in blackscholes boxmuller nbody mriq dpops; do
    cu=$name.cu
    "$nvcc" -arch=sm_80 -ptx "$cu" -o "$name.sm_80.ptx"
    "$nvcc" -arch=sm_80 -ptx -use_fast_math "$cu" -o "$name.fast.sm_80.ptx"
    for p in "$name.sm_80.ptx" "$name.fast.sm_80.ptx"; do
        "$ptxas" -arch=sm_80 "$p" -o /dev/null
    done
done
