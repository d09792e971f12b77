#!/usr/bin/env bash
# regen.sh — regenerate the KernelGen-port PTX corpus: ../regen.sh over
# testsuite/kernels/kernelgen/*.cu into testsuite/corpus/kernelgen/.
#
#   bash testsuite/kernels/kernelgen/regen.sh [SRCDIR]
#
# Same conventions as ../regen.sh (targets per file, deterministic output,
# ptxas check of every file, nothing replaced unless all succeed).
set -euo pipefail
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
srcdir=$(cd "${1:-$script_dir/../../..}" && pwd)
KERNELS_SUBDIR=testsuite/kernels/kernelgen CORPUS_SUBDIR=testsuite/corpus/kernelgen \
    STAGE_DIR=/tmp/ptxopt-corpus-kernelgen-src exec bash "$script_dir/../regen.sh" "$srcdir"
