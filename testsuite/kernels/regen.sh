#!/usr/bin/env bash
# regen.sh — regenerate the committed nvcc PTX corpus.
#
#   bash testsuite/kernels/regen.sh [SRCDIR]
#
# For every SRCDIR/testsuite/kernels/NAME.cu and every target it declares,
# runs `nvcc -ptx` and writes SRCDIR/testsuite/corpus/nvcc/NAME.sm_XX.ptx,
# then checks that each file assembles with `ptxas -arch=sm_XX`.  SRCDIR
# defaults to the top of the tree this script lives in.
#
# Per-file settings, read from comment lines in the .cu:
#   // corpus-archs: sm_80 sm_90    targets (default: sm_75 sm_80 sm_86 sm_89 sm_90)
#   // corpus-flags: -G -lineinfo   extra nvcc flags (default: none)
#
# The output must not depend on where the tree lives or when it is built.
# -G/-lineinfo builds record the compiler's working directory (DWARF
# DW_AT_comp_dir) and the absolute source path (.file), whatever name nvcc
# is given, so the sources are copied to a fixed staging directory,
# $stage_dir, and compiled there under their bare names; a lock
# (flock, when available) keeps two runs from sharing it.  Files are
# generated into a scratch directory and only replace the corpus when every
# one of them assembles, so a failed run changes nothing.
#
# Environment: NVCC, PTXAS (tools; otherwise PATH, then /usr/local/cuda/bin),
# JOBS (parallel compilations; default: number of CPUs).  Another corpus
# (kernelgen/regen.sh) reuses this script with KERNELS_SUBDIR, CORPUS_SUBDIR
# and STAGE_DIR (relative to SRCDIR; the stage directory is absolute).
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
srcdir=$(cd "${1:-$script_dir/../..}" && pwd)
kernels_dir=$srcdir/${KERNELS_SUBDIR:-testsuite/kernels}
corpus_dir=$srcdir/${CORPUS_SUBDIR:-testsuite/corpus/nvcc}
default_archs="sm_75 sm_80 sm_86 sm_89 sm_90"
stage_dir=${STAGE_DIR:-/tmp/ptxopt-corpus-src}

die() { echo "regen.sh: error: $*" >&2; exit 1; }

# find_tool VAR NAME: $VAR if set, else NAME on PATH, else /usr/local/cuda/bin.
find_tool() {
    local var=$1 name=$2 path
    path=${!var:-}
    if [ -n "$path" ]; then
        # An explicit choice is used or refused, never silently replaced.
        case $path in
            */*) ;;
            *) path=$(command -v "$path" 2>/dev/null || true) ;;
        esac
        if [ -z "$path" ] || [ ! -x "$path" ]; then
            die "$var=${!var} is not an executable"
        fi
    else
        path=$(command -v "$name" 2>/dev/null || true)
        if [ -z "$path" ] && [ -x "/usr/local/cuda/bin/$name" ]; then
            path=/usr/local/cuda/bin/$name
        fi
        if [ -z "$path" ]; then
            die "$name not found (set $var, or put it on PATH)"
        fi
    fi
    printf '%s\n' "$path"
}

NVCC=$(find_tool NVCC nvcc)
PTXAS=$(find_tool PTXAS ptxas)
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

[ -d "$kernels_dir" ] || die "no kernels directory at $kernels_dir"
shopt -s nullglob
sources=("$kernels_dir"/*.cu)
[ ${#sources[@]} -gt 0 ] || die "no .cu files in $kernels_dir"

# directive FILE KEY: the value of the first `// corpus-KEY:` line, or empty.
directive() {
    sed -n "s|^// corpus-$2:[[:space:]]*||p" "$1" | head -n 1
}

if command -v flock >/dev/null 2>&1; then
    exec 9>"$stage_dir.lock"
    flock 9
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ptxopt-regen.XXXXXX")
trap 'rm -rf "$scratch" "$stage_dir"' EXIT
mkdir -p "$scratch/ptx" "$scratch/log"
rm -rf "$stage_dir"
mkdir -p "$stage_dir"
# Sources plus any local headers they include.
for f in "$kernels_dir"/*.cu "$kernels_dir"/*.h "$kernels_dir"/*.cuh; do
    cp "$f" "$stage_dir"/
done

# compile NAME ARCH FLAGS...: one nvcc run; its log is kept on failure.
compile() {
    local name=$1 arch=$2
    shift 2
    local out=$scratch/ptx/$name.$arch.ptx log=$scratch/log/$name.$arch
    if ! (cd "$stage_dir" &&
          "$NVCC" -ptx -O3 -std=c++17 -arch="$arch" "$@" -o "$out" "$name.cu") >"$log" 2>&1; then
        echo "FAILED: nvcc -arch=$arch $* $name.cu" >>"$log"
        mv "$log" "$log.failed"
    fi
}

start=$(date +%s)
jobs_total=0
running=0
for src in "${sources[@]}"; do
    name=$(basename "$src" .cu)
    archs=$(directive "$src" archs)
    flags=$(directive "$src" flags)
    for arch in ${archs:-$default_archs}; do
        case $arch in
            sm_[0-9][0-9]|sm_[0-9][0-9][0-9]|sm_[0-9][0-9]a|sm_[0-9][0-9][0-9]a) ;;
            *) die "$name.cu: bad arch '$arch' in corpus-archs" ;;
        esac
        # shellcheck disable=SC2086  # flags are a word list on purpose
        compile "$name" "$arch" $flags &
        jobs_total=$((jobs_total + 1))
        running=$((running + 1))
        if [ "$running" -ge "$JOBS" ]; then
            wait -n || true
            running=$((running - 1))
        fi
    done
done
wait

failed=("$scratch"/log/*.failed)
if [ ${#failed[@]} -gt 0 ]; then
    for f in "${failed[@]}"; do
        cat "$f" >&2
    done
    die "${#failed[@]} of $jobs_total nvcc compilations failed; corpus left unchanged"
fi

# Every generated file must assemble for the target it was made for.
bad=0
for ptx in "$scratch"/ptx/*.ptx; do
    arch=${ptx%.ptx}
    arch=${arch##*.}
    if ! "$PTXAS" -arch="$arch" -o /dev/null "$ptx" >"$scratch/log/ptxas" 2>&1; then
        echo "FAILED: ptxas -arch=$arch $(basename "$ptx")" >&2
        cat "$scratch/log/ptxas" >&2
        bad=$((bad + 1))
    fi
done
[ "$bad" -eq 0 ] || die "$bad generated files do not assemble; corpus left unchanged"

# Nothing machine-specific may leak into committed files.
local_paths=(-e "$srcdir" -e "$scratch")
if [ -n "${HOME:-}" ] && [ "$HOME" != / ]; then
    local_paths+=(-e "$HOME")
fi
if grep -l -F "${local_paths[@]}" "$scratch"/ptx/*.ptx >&2; then
    die "generated PTX mentions a local path (listed above); corpus left unchanged"
fi
# .file entries may only name staged sources: header code compiled under
# -G/-lineinfo would add the toolkit's (or host compiler's) install path.
if grep -H '^[[:space:]]*\.file' "$scratch"/ptx/*.ptx | grep -v -F "\"$stage_dir/" >&2; then
    die ".file names a path outside $stage_dir (listed above); corpus left unchanged"
fi

mkdir -p "$corpus_dir"
rm -f "$corpus_dir"/*.ptx
cp "$scratch"/ptx/*.ptx "$corpus_dir"/
end=$(date +%s)

count=$(find "$corpus_dir" -name '*.ptx' | wc -l)
bytes=$(cat "$corpus_dir"/*.ptx | wc -c)
echo "regen.sh: ${#sources[@]} sources, $count PTX files, $bytes bytes in $corpus_dir ($((end - start)) s)"
