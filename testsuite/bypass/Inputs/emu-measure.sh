#!/bin/sh
# emu-measure.sh ARCH METRIC LAUNCH... — a ptxopt-tune --measure command
# that needs no GPU: runs the variant (PTXOPT_VARIANT_PTX) in ptxopt-emu
# with the cache model of ARCH (ptxopt-emu(1), CACHE MODEL: a model, not
# the hardware) under hanoi (reproducible counts) and prints one number,
# lower is better:
#   METRIC=l2     sectors the SMs' loads fetch past L1 (L1 misses + L1
#                 bypassed): L2 traffic, what bypassing trades against
#   METRIC=dram   DRAM sectors read
# The rest of the arguments are ptxopt-emu's launch options (--grid,
# --block, --arg, ...).  Example:
#   ptxopt-tune --no-regs --dim=bypass --block=256 k.ptx \
#     --measure='sh emu-measure.sh sm_80,l1=16 l2 --grid=8 --block=256 --arg=...'
set -e
arch=$1 metric=$2
shift 2
json=$(mktemp)
trap 'rm -f "$json"' EXIT
ptxopt-emu -q "$PTXOPT_VARIANT_PTX" --policy=hanoi --cache="$arch" --counters="$json" "$@" > /dev/null
python3 - "$json" "$metric" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["cache"]
t = c["loads"]["total"]
print(t["l1_misses"] + t["l1_bypassed"] if sys.argv[2] == "l2" else c["dram_read_sectors"])
PY
