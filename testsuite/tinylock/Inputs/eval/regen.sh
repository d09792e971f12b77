#!/usr/bin/env bash
# regen.sh — regenerate the tiny-lock evaluation PTX: ../../../kernels/regen.sh
# over testsuite/tinylock/Inputs/eval/*.cu into the same directory
# (NAME.sm_80.ptx), with the corpus's conventions (nvcc -ptx -O3 -std=c++17,
# targets per file, ptxas check of every file, nothing replaced unless all
# succeed, no local paths in the output).
#
#   bash testsuite/tinylock/Inputs/eval/regen.sh [SRCDIR]
set -euo pipefail
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
srcdir=$(cd "${1:-$script_dir/../../../..}" && pwd)
KERNELS_SUBDIR=testsuite/tinylock/Inputs/eval CORPUS_SUBDIR=testsuite/tinylock/Inputs/eval \
    STAGE_DIR=/tmp/ptxopt-corpus-tinylock-src exec bash "$srcdir/testsuite/kernels/regen.sh" "$srcdir"
