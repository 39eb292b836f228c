#!/usr/bin/env bash
# Regenerate the executable kernel corpus next to the sources in this directory.
#
# For every NAME.cu (or only the NAMEs given as arguments):
#   NAME.sm_75.ptx NAME.sm_80.ptx NAME.sm_90.ptx   nvcc -ptx -O3 -arch=sm_XX, checked with ptxas
#   NAME.sm_80.debug.ptx                           nvcc -ptx -G -O0 -arch=sm_80 (a debug build), checked too
#   NAME.sm_90.rdc.ptx                             for coop_* (cooperative launches): -rdc=true as well
#   NAME.lanes.json NAME.expect.json               written by the host reference NAME.ref.c
#   NAME.debug.expect.json                         also by it, where the debug build's values differ
# and for DEBUG_SOURCES also NAME.sm_75.debug.ptx (nvcc -ptx -G -O0 -arch=sm_75).
# The tensor-core kernels tc_* (mma.sync forms and wmma shapes of sm_80) have no sm_75 build.
# Kernels ptxrun does not execute yet live in ../kernels_pending (same files, not run by make
# check); their outputs are written there, beside their sources.
#
# The expected outputs come only from the C references, never from ptxrun. Nothing in this
# directory is replaced unless every compile, ptxas check and reference run succeeded.
#
# Environment:
#   NVCC   nvcc to use (default /usr/local/cuda/bin/nvcc)
#   PTXAS  ptxas to use (default: the ptxas next to $NVCC)
#   CC     C compiler for the references (default cc)
#   STAGE  fixed build directory under /tmp (default /tmp/ptxrun-kernels-stage; it is wiped).
#          nvcc writes the working directory into -G debug info, so compiling there keeps
#          the output independent of where the repository is checked out.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
pending="$(cd "$here/.." && pwd)/kernels_pending"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
PTXAS="${PTXAS:-$(dirname "$NVCC")/ptxas}"
CC="${CC:-cc}"
STAGE="${STAGE:-/tmp/ptxrun-kernels-stage}"

ARCHS=(sm_75 sm_80 sm_90)
DEBUG_ARCH=sm_80                                   # every kernel is also built with -G -O0 for it
DEBUG_SOURCES=(noinline_call cg_tiles bitfields)   # and these for sm_75 as well
CFLAGS=(-std=c11 -O1 -ffp-contract=off -Wall -Wextra -Werror)

die() { echo "regen.sh: error: $*" >&2; exit 1; }

command -v "$NVCC" >/dev/null 2>&1 || die "nvcc not found: $NVCC"
command -v "$PTXAS" >/dev/null 2>&1 || die "ptxas not found: $PTXAS"
command -v "$CC" >/dev/null 2>&1 || die "C compiler not found: $CC"

export LC_ALL=C TZ=UTC

case "$STAGE" in
    /tmp/?*) ;;
    *) die "STAGE must be a directory under /tmp (it is wiped): $STAGE" ;;
esac

shopt -s nullglob
names=()
if [ "$#" -gt 0 ]; then
    for n in "$@"; do
        n="$(basename "$n")"; n="${n%.cu}"
        [ -f "$here/$n.cu" ] || [ -f "$pending/$n.cu" ] || die "no such source: $n.cu"
        names+=("$n")
    done
else
    for src in "$here"/*.cu "$pending"/*.cu; do names+=("$(basename "$src" .cu)"); done
fi
[ "${#names[@]}" -gt 0 ] || die "no .cu sources in $here"

# Two runs at once would wipe each other's stage: the second waits for the first.
if command -v flock >/dev/null 2>&1; then
    exec 9>"$STAGE.lock"
    flock -n 9 || { echo "regen.sh: waiting for another regen.sh using $STAGE" >&2; flock 9; }
fi
rm -rf -- "$STAGE"
mkdir -p -- "$STAGE/out"
trap 'rm -rf -- "$STAGE"' EXIT
cp -- "$here"/*.cu "$here"/*.ref.c "$here"/*.h "$STAGE"/
for f in "$pending"/*.cu "$pending"/*.ref.c; do cp -- "$f" "$STAGE"/; done

"$NVCC" --version | sed -n 's/^Cuda compilation tools, /regen.sh: nvcc /p'

# compile NAME ARCH OUT [nvcc flags...]
compile() {
    local name="$1" arch="$2" out="$3"
    shift 3
    (cd "$STAGE" && "$NVCC" -ptx -arch="$arch" "$@" "$name.cu" -o "out/$out") ||
        die "nvcc $* -arch=$arch $name.cu failed"
    "$PTXAS" -arch="$arch" "$STAGE/out/$out" -o /dev/null || die "ptxas -arch=$arch $out failed"
    echo "regen.sh: ok $out"
}

for name in "${names[@]}"; do
    [ -f "$STAGE/$name.ref.c" ] || die "missing reference $name.ref.c"
    archs=("${ARCHS[@]}")
    case "$name" in tc_*) archs=(sm_80 sm_90) ;; esac
    for arch in "${archs[@]}"; do
        compile "$name" "$arch" "$name.$arch.ptx" -O3
    done
    compile "$name" "$DEBUG_ARCH" "$name.$DEBUG_ARCH.debug.ptx" -G -O0
    case "$name" in coop_*) compile "$name" sm_90 "$name.sm_90.rdc.ptx" -O3 -rdc=true ;; esac   # relocatable device code too
    for d in "${DEBUG_SOURCES[@]}"; do
        if [ "$d" = "$name" ]; then
            compile "$name" sm_75 "$name.sm_75.debug.ptx" -G -O0
        fi
    done
    (cd "$STAGE" && "$CC" "${CFLAGS[@]}" -o "$name.ref" "$name.ref.c" -lm) ||
        die "compiling $name.ref.c failed"
    "$STAGE/$name.ref" "$STAGE/out/$name.lanes.json" "$STAGE/out/$name.expect.json" \
        "$STAGE/out/$name.debug.expect.json" || die "$name.ref failed"
    echo "regen.sh: ok $name.lanes.json $name.expect.json"
    if [ -f "$STAGE/out/$name.debug.expect.json" ]; then
        echo "regen.sh: ok $name.debug.expect.json"
    fi
done

# Everything built: replace the outputs of the regenerated sources.
for name in "${names[@]}"; do
    dir="$here"
    [ -f "$here/$name.cu" ] || dir="$pending"
    rm -f -- "$dir/$name".*.ptx "$dir/$name.lanes.json" "$dir/$name.expect.json" "$dir/$name.debug.expect.json"
    cp -- "$STAGE/out/$name".* "$dir"/
done
echo "regen.sh: regenerated ${#names[@]} kernel(s) in $here"
