#!/bin/bash
# run.sh SRCDIR BUILDDIR SECONDS — build the front-end fuzzer against the
# sanitizer build in BUILDDIR (configured with CC=clang-14 and
# -fsanitize=fuzzer-no-link,address,undefined) and run it for SECONDS on a
# copy of the seed corpus.  Exit status non-zero on any finding; findings
# are kept in $FUZZ_FINDINGS (default BUILDDIR/fuzz-findings).
set -euo pipefail
src=$1 build=$2 secs=$3
cc=${FUZZ_CC:-clang-14}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make -C "$build" -s libptxopt.a
llvm_ldflags=$(sed -n 's/^LLVM_LDFLAGS = //p' "$build/Makefile")
llvm_libs=$(sed -n 's/^LLVM_LIBS = //p' "$build/Makefile")
z3_libs=$(sed -n 's/^Z3_LIBS = //p' "$build/Makefile")
$cc -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -I"$src" -I"$build" -o "$work/fuzz_frontend" "$src/testsuite/fuzz/fuzz_frontend.c" \
    "$build/libptxopt.a" $z3_libs $llvm_ldflags $llvm_libs -lm
findings=${FUZZ_FINDINGS:-$build/fuzz-findings}
mkdir -p "$work/corpus" "$findings"
cp "$src"/testsuite/fuzz/seeds/* "$work/corpus/" 2>/dev/null || true
# the dictionary steers mutations towards PTX tokens
rc=0
"$work/fuzz_frontend" -max_total_time="$secs" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$findings/" -dict="$src/testsuite/fuzz/ptx.dict" -print_final_stats=1 \
    "$work/corpus" >"$work/log" 2>&1 || rc=$?
tail -25 "$work/log"
for f in "$findings"/crash-* "$findings"/leak-* "$findings"/timeout-* "$findings"/oom-*; do
    [ -e "$f" ] || continue
    echo "== finding $f (first bytes):"
    head -c 600 "$f" | od -c | head -20
done
exit $rc
