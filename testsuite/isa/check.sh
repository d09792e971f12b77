#!/bin/bash
# check.sh MODULE — what every ISA conformance module must pass:
#  (a) no passes: the output is byte-identical to the module;
#  (b) --canonical output parses back, prints to the same text, and
#      prints back losslessly;
#  (c) --verify-ir (the LLVM cross-check of CFG and SSA) succeeds;
#  (d) every --dump kind succeeds, text and dot;
#  (e) ptxas accepts the module and its canonical form for the module's
#      target (a module ptxas refuses is a bad module, said so);
#  (f) without debug sections: the two cubins are byte-identical.
# Without ptxas, (e) and (f) are skipped and the script exits 77 (the lit
# format reports UNSUPPORTED, never a pass).
set -u
f=$1
ptxopt=${PTXOPT:-ptxopt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($1): $(basename "$f")"; shift; [ $# -gt 0 ] && echo "$@"; exit 1; }

"$ptxopt" "$f" -o "$tmp/same.ptx" 2>"$tmp/err" || fail a "ptxopt refused the module" "$(head -5 "$tmp/err")"
cmp "$f" "$tmp/same.ptx" || fail a "output differs from the module"

"$ptxopt" --canonical "$f" -o "$tmp/c1.ptx" 2>"$tmp/err" || fail b "ptxopt --canonical failed" "$(head -5 "$tmp/err")"
"$ptxopt" --canonical "$tmp/c1.ptx" -o "$tmp/c2.ptx" 2>"$tmp/err" || fail b "the canonical output does not parse" "$(head -5 "$tmp/err")"
cmp -s "$tmp/c1.ptx" "$tmp/c2.ptx" || fail b "canonical printing is not idempotent" "$(diff "$tmp/c1.ptx" "$tmp/c2.ptx" | head -20)"
"$ptxopt" "$tmp/c1.ptx" -o "$tmp/c3.ptx" && cmp -s "$tmp/c1.ptx" "$tmp/c3.ptx" || fail b "canonical output does not print back losslessly"

"$ptxopt" --verify-ir "$f" -o /dev/null 2>"$tmp/err" || fail c "--verify-ir failed" "$(head -5 "$tmp/err")"

for d in cfg dom postdom loops ssa liveness uniform terms; do
    for fmt in text dot; do
        "$ptxopt" --dump="$d" --dump-format="$fmt" "$f" >"$tmp/dump" 2>"$tmp/err" ||
            fail d "--dump=$d --dump-format=$fmt failed" "$(head -5 "$tmp/err")"
        [ -s "$tmp/dump" ] || fail d "--dump=$d --dump-format=$fmt printed nothing"
    done
done

ptxas=${PTXAS:-}
[ -n "$ptxas" ] || ptxas=$(command -v ptxas || true)
[ -n "$ptxas" ] || { [ -x /usr/local/cuda/bin/ptxas ] && ptxas=/usr/local/cuda/bin/ptxas; }
if [ -z "$ptxas" ]; then echo "ptxas not found: steps (e) and (f) skipped"; exit 77; fi

arch=$(grep -m1 -E '^[[:space:]]*\.target' "$f" | grep -oE 'sm_[0-9]+[af]?' | head -1)
[ -n "$arch" ] || fail e "no sm_XX .target in the module"
# a module may need options, e.g. "// ptxas-options: -c" for an extern function
read -r -a opts <<<"$(sed -n 's|^// ptxas-options: ||p' "$f" | head -1)"
"$ptxas" -arch="$arch" "${opts[@]}" -o "$tmp/orig.cubin" "$f" 2>"$tmp/err" || fail e "ptxas rejects the module itself (a bad module)" "$(head -5 "$tmp/err")"
"$ptxas" -arch="$arch" "${opts[@]}" -o "$tmp/c1.cubin" "$tmp/c1.ptx" 2>"$tmp/err" || fail e "ptxas rejected the canonical output" "$(head -5 "$tmp/err")"
if grep -q -E '^[[:space:]]*\.(section|file|loc)\b' "$f"; then
    echo "debug sections: cubins not compared"
    exit 0
fi
cmp -s "$tmp/orig.cubin" "$tmp/c1.cubin" || fail f "the canonical output's cubin differs from the module's"
exit 0
