#!/bin/sh
# regen.sh: rebuild the fatbinaries tests/check_fatbin.c reads, with nvcc (no GPU needed).
#   sh tests/fatbin/regen.sh [NVCC]      (default /usr/local/cuda/bin/nvcc)
# Each NAME.fatbin is the whole .nv_fatbin section (or __nv_relfatbin for -rdc) of scale.cu built as
# the line below says; sm80.elf is the sm_80 program itself, stripped, for fatbin_from_elf. The
# expectations in check_fatbin.c follow from the options, not from ptxrun's output.
set -eu
nvcc=${1:-/usr/local/cuda/bin/nvcc}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

build() {   # NAME SECTION NVCC-OPTIONS...
    name=$1 section=$2
    shift 2
    "$nvcc" -cudart shared "$@" "$here/scale.cu" -o "$tmp/$name"
    objcopy -O binary --only-section="$section" "$tmp/$name" "$here/$name.fatbin"
}

build sm80 .nv_fatbin -arch=sm_80                       # default: PTX compressed (zstd)
build two .nv_fatbin -gencode arch=compute_75,code=[sm_75,compute_75] \
                     -gencode arch=compute_90,code=[sm_90,compute_90]
build all .nv_fatbin -arch=sm_80 -Xfatbin -compress-all  # cubins compressed too
build plain .nv_fatbin -arch=sm_80 --no-compress        # nothing compressed
build speed .nv_fatbin -arch=sm_80 -compress-mode=speed # PTX compressed LZ4-style
build rdc __nv_relfatbin -arch=sm_80 -rdc=true           # the PTX for device linking
strip -o "$here/sm80.elf" "$tmp/sm80"
"$nvcc" --version | tail -1 > "$here/nvcc-version.txt"
