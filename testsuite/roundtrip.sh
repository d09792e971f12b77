#!/bin/bash
# roundtrip.sh FILE — the round-trip ladder every corpus file must climb:
#  (a) no passes: output byte-identical to the input;
#  (b) --canonical output parses back and prints to the same text;
#  (c) ptxas accepts the canonical output for the file's target;
#  (d) without debug info: the cubin of the canonical output is
#      byte-identical to the cubin of the original.
# Steps (c) and (d) need ptxas ($PTXAS, PATH, /usr/local/cuda/bin); without
# it the script exits 77 after (a) and (b) (the lit format reports that
# as UNSUPPORTED, i.e. skipped, never as passed).
set -u
f=$1
ptxopt=${PTXOPT:-ptxopt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($1): $f"; shift; [ $# -gt 0 ] && echo "$@"; exit 1; }

"$ptxopt" "$f" -o "$tmp/same.ptx" || fail a "ptxopt rejected the file"
cmp "$f" "$tmp/same.ptx" || fail a "output differs from the input"

"$ptxopt" --canonical "$f" -o "$tmp/c1.ptx" || fail b "ptxopt --canonical failed"
"$ptxopt" --canonical "$tmp/c1.ptx" -o "$tmp/c2.ptx" || fail b "the canonical output does not parse"
cmp "$tmp/c1.ptx" "$tmp/c2.ptx" || fail b "canonical printing is not idempotent" "$(diff "$tmp/c1.ptx" "$tmp/c2.ptx" | head -20)"
"$ptxopt" "$tmp/c1.ptx" -o "$tmp/c3.ptx" && cmp -s "$tmp/c1.ptx" "$tmp/c3.ptx" || fail b "canonical output does not print back losslessly"

ptxas=${PTXAS:-}
[ -n "$ptxas" ] || ptxas=$(command -v ptxas || true)
[ -n "$ptxas" ] || { [ -x /usr/local/cuda/bin/ptxas ] && ptxas=/usr/local/cuda/bin/ptxas; }
if [ -z "$ptxas" ]; then echo "ptxas not found: steps (c) and (d) skipped"; exit 77; fi

arch=$(sed -n 's/^[[:space:]]*\.target[[:space:]]*\(sm_[0-9]*[af]\{0,1\}\).*/\1/p' "$tmp/c1.ptx" | head -1)
[ -n "$arch" ] || fail c "no sm_XX .target in the file"
"$ptxas" -arch="$arch" -o "$tmp/c1.cubin" "$tmp/c1.ptx" 2>"$tmp/ptxas.err" || fail c "ptxas rejected the canonical output" "$(head -5 "$tmp/ptxas.err")"

if grep -q -E '^[[:space:]]*\.(section|file|loc)\b' "$f"; then
    exit 0   # debug info: cubins embed source positions, (d) does not apply
fi
"$ptxas" -arch="$arch" -o "$tmp/orig.cubin" "$f" 2>/dev/null || fail d "ptxas rejected the original"
cmp -s "$tmp/orig.cubin" "$tmp/c1.cubin" || fail d "cubin of the canonical output differs from the original's"
exit 0
