#!/usr/bin/env bash
# regen.sh — regenerate the cache-bypassing workload corpus (issue 13 §8):
# ../regen.sh over testsuite/kernels/workloads/*.cu into
# testsuite/corpus/workloads/.
#
#   bash testsuite/kernels/workloads/regen.sh [SRCDIR]
#
# Same conventions as ../regen.sh (targets per file, deterministic output,
# ptxas check of every file, nothing replaced unless all succeed).
set -euo pipefail
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
srcdir=$(cd "${1:-$script_dir/../../..}" && pwd)
KERNELS_SUBDIR=testsuite/kernels/workloads CORPUS_SUBDIR=testsuite/corpus/workloads \
    STAGE_DIR=/tmp/ptxopt-corpus-workloads-src exec bash "$script_dir/../regen.sh" "$srcdir"
