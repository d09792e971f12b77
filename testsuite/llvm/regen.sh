#!/bin/sh
# regen.sh - regenerate testsuite/corpus/llvm/*.ptx from testsuite/llvm/*.ll
# with LLVM's NVPTX back end (the "second dialect" of the corpus), then check
# that NVIDIA ptxas accepts each result for the target it names.
#
# A .ll file may carry one line "; LLC-FLAGS: ..." that replaces the default
# CPU/PTX-version flags (e.g. to build for sm_80 with PTX 7.1).
#
# Usage: testsuite/llvm/regen.sh            (from anywhere)
# Env:   LLC    (default llc-14, then llc)   PTXAS (default: PATH, then
#        /usr/local/cuda/bin/ptxas; when absent the check is skipped loudly)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
outdir="$here/../corpus/llvm"
default_flags="-mcpu=sm_75 -mattr=+ptx70"

LLC=${LLC:-$(command -v llc-14 || command -v llc || true)}
if [ -z "$LLC" ]; then
  echo "regen.sh: llc not found; install the Debian package llvm-14" >&2
  exit 1
fi
PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
if [ ! -x "$PTXAS" ]; then
  echo "regen.sh: WARNING: ptxas not found; generated PTX is NOT checked" >&2
  PTXAS=
fi

mkdir -p "$outdir"
status=0
for ll in "$here"/*.ll; do
  name=$(basename "$ll" .ll)
  out="$outdir/$name.ptx"
  flags=$(sed -n 's/^; LLC-FLAGS: *//p' "$ll" | head -n 1)
  [ -n "$flags" ] || flags=$default_flags
  # shellcheck disable=SC2086  # flags are deliberately word-split
  if ! "$LLC" -march=nvptx64 $flags -O2 "$ll" -o "$out.tmp"; then
    echo "regen.sh: $name: llc failed" >&2
    rm -f "$out.tmp"; status=1; continue
  fi
  mv "$out.tmp" "$out"
  if [ -n "$PTXAS" ]; then
    arch=$(sed -n 's/^\.target[ \t]*\(sm_[0-9a-z]*\).*/\1/p' "$out" | head -n 1)
    if "$PTXAS" -arch="$arch" -o /dev/null "$out"; then
      echo "ok   $name ($arch)"
    else
      echo "FAIL $name ($arch): ptxas rejected the generated PTX" >&2
      status=1
    fi
  else
    echo "gen  $name"
  fi
done
exit $status
