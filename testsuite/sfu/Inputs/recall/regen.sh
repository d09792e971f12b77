#!/usr/bin/env bash
# regen.sh — compile the recall suite (shapes.cu) with nvcc's four flag sets
# for sm_75, sm_80 and sm_90: FLAGS-sm_XX.ptx beside it.
#   bash testsuite/sfu/Inputs/recall/regen.sh
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
cd "$dir"
for fs in default ftz noprec ftz-noprec; do
    case $fs in
    default) flags="" ;;
    ftz) flags="-ftz=true" ;;
    noprec) flags="-prec-div=false -prec-sqrt=false" ;;
    ftz-noprec) flags="-ftz=true -prec-div=false -prec-sqrt=false" ;;
    esac
    for sm in sm_75 sm_80 sm_90; do
        "$nvcc" -arch=$sm -O3 -ptx $flags -o "$fs-$sm.ptx" shapes.cu
    done
done
