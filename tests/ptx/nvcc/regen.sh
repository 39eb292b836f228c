#!/usr/bin/env bash
# Regenerate the nvcc PTX corpus next to the *.cu sources in this directory.
#
#   NAME.sm_75.ptx, NAME.sm_80.ptx, NAME.sm_90.ptx   nvcc -ptx -O3 for each source
#   NAME.sm_75.debug.ptx                             nvcc -ptx -O0 -G for DEBUG_SOURCES
#   NAME.sm_80.lineinfo.ptx                          nvcc -ptx -O3 -lineinfo for LINEINFO_SOURCES
#
# Every output is checked with ptxas for its own target; any failure aborts the
# run and leaves the existing .ptx files untouched.
#
# Environment:
#   NVCC   nvcc to use (default /usr/local/cuda/bin/nvcc)
#   PTXAS  ptxas to use (default: the ptxas next to $NVCC)
#   STAGE  fixed build directory (default /tmp/ptxrun-nvcc-corpus); nvcc writes
#          the working directory into -G debug info (.file and DW_AT_comp_dir),
#          so compiling there keeps the debug PTX independent of where the repo
#          is checked out.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
PTXAS="${PTXAS:-$(dirname "$NVCC")/ptxas}"
STAGE="${STAGE:-/tmp/ptxrun-nvcc-corpus}"

ARCHS=(sm_75 sm_80 sm_90)
# Sources also compiled at -O0 -G for sm_75 (keep these free of large headers).
DEBUG_SOURCES=(printf divergent noinline_call)
# Sources also compiled at -O3 -lineinfo for sm_80 (.file/.loc without debug sections).
LINEINFO_SOURCES=(lineinfo)

die() { echo "regen.sh: error: $*" >&2; exit 1; }

[ -x "$NVCC" ] || command -v "$NVCC" >/dev/null 2>&1 || die "nvcc not found: $NVCC"
[ -x "$PTXAS" ] || command -v "$PTXAS" >/dev/null 2>&1 || die "ptxas not found: $PTXAS"

# Deterministic ordering and messages.
export LC_ALL=C
export TZ=UTC

shopt -s nullglob
sources=("$here"/*.cu)
[ "${#sources[@]}" -gt 0 ] || die "no .cu sources in $here"

case "$STAGE" in
    /tmp/*) ;;
    *) die "STAGE must be under /tmp (it is wiped): $STAGE" ;;
esac
rm -rf -- "$STAGE"
mkdir -p -- "$STAGE"
trap 'rm -rf -- "$STAGE"' EXIT
cp -- "${sources[@]}" "$STAGE"/

"$NVCC" --version | sed -n 's/^Cuda compilation tools, //p' | sed 's/^/regen.sh: nvcc /'

failures=0
count=0

# compile NAME ARCH OUT [extra nvcc flags...]
compile() {
    local name="$1" arch="$2" out="$3"
    shift 3
    if ! (cd "$STAGE" && "$NVCC" -ptx -arch="$arch" "$@" "$name.cu" -o "$out"); then
        echo "regen.sh: FAILED: nvcc $* -arch=$arch $name.cu" >&2
        failures=$((failures + 1))
        return 0
    fi
    if ! "$PTXAS" -arch="$arch" "$STAGE/$out" -o /dev/null; then
        echo "regen.sh: FAILED: ptxas -arch=$arch $out" >&2
        failures=$((failures + 1))
        return 0
    fi
    count=$((count + 1))
    echo "regen.sh: ok $out"
}

for src in "${sources[@]}"; do
    name="$(basename "$src" .cu)"
    for arch in "${ARCHS[@]}"; do
        compile "$name" "$arch" "$name.$arch.ptx" -O3
    done
done

for name in "${DEBUG_SOURCES[@]}"; do
    [ -f "$STAGE/$name.cu" ] || die "debug source missing: $name.cu"
    compile "$name" sm_75 "$name.sm_75.debug.ptx" -O0 -G
done

for name in "${LINEINFO_SOURCES[@]}"; do
    [ -f "$STAGE/$name.cu" ] || die "lineinfo source missing: $name.cu"
    compile "$name" sm_80 "$name.sm_80.lineinfo.ptx" -O3 -lineinfo
done

[ "$failures" -eq 0 ] || die "$failures compilation(s) failed; existing .ptx left untouched"

# Everything built and verified: replace the checked-in outputs.
rm -f -- "$here"/*.ptx
cp -- "$STAGE"/*.ptx "$here"/
echo "regen.sh: wrote $count PTX files to $here"
