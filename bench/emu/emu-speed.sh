#!/bin/sh
# emu-speed.sh — how fast ptxopt-emu runs kernels, in thread-instructions
# per second on one core (the target is at least 20 million for ALU-heavy
# kernels).  Not a timed test: run it by hand.
#
#   sh bench/emu/emu-speed.sh [PTXOPT_EMU]
#
# PTXOPT_EMU defaults to $PTXOPT_EMU, then ./ptxopt-emu (a build directory).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
emu=${1:-${PTXOPT_EMU:-./ptxopt-emu}}
corpus=$top/testsuite/corpus/nvcc
if [ ! -x "$emu" ]; then
    echo "emu-speed.sh: no ptxopt-emu at '$emu' (give its path)" >&2
    exit 2
fi

run() {
    name=$1; shift
    for policy in its hanoi; do
        line=$("$emu" "$@" --policy=$policy --stats 2>&1 >/dev/null | grep 'thread-instructions/s') || {
            echo "$name ($policy): failed" >&2; continue; }
        rate=$(echo "$line" | sed 's/.*: \([0-9.]*\) M thread-instructions\/s/\1/')
        secs=$(echo "$line" | sed 's/.* in \([0-9.]*\) s:.*/\1/')
        printf '%-22s %-6s %8s M thread-instructions/s  (%s s)\n' "$name" "$policy" "$rate" "$secs"
    done
}

echo "ptxopt-emu speed, one core ($(uname -m))"
run alu_loop "$here/alu_loop.ptx" --grid=64 --block=256 --arg=buf:f32:16384:zeros --arg=u32:400
run matmul_tiled "$corpus/matmul_tiled.sm_80.ptx" --grid=8,8 --block=16,16 \
    --arg=buf:f32:16384:zeros --arg=buf:f32:16384:random:1 --arg=buf:f32:16384:random:2 --arg=i32:128
run matmul_naive "$corpus/matmul_naive.sm_80.ptx" --grid=8,64 --block=16,2 \
    --arg=buf:f32:16384:zeros --arg=buf:f32:16384:random:1 --arg=buf:f32:16384:random:2 --arg=i32:128 --arg=i32:128 --arg=i32:128
run stencil2d_5pt "$corpus/stencil2d_5pt.sm_80.ptx" --grid=32,256 --block=16,2 \
    --arg=buf:f32:262144:zeros --arg=buf:f32:262144:random:1 --arg=i32:512 --arg=i32:512
run scan_inclusive "$corpus/scan_inclusive.sm_80.ptx" --grid=256 --block=256 \
    --arg=buf:i32:65536:zeros --arg=buf:i32:256:zeros --arg=buf:i32:65536:random:1 --arg=i32:65536
run divergent_return "$corpus/divergent_return.sm_80.ptx" --grid=64 --block=256 \
    --arg=buf:i32:16384:zeros --arg=buf:i32:16384:random:5:-20:2000 --arg=i32:16384
