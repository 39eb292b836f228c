#!/bin/sh
# regen.sh: rebuild the committed CUDA test programs of tests/cuda/bin/ with nvcc (no GPU needed).
#   sh tests/cuda/regen.sh [NVCC [OUTDIR [NAME...]]]   (default /usr/local/cuda/bin/nvcc, tests/cuda/bin, all)
# Every program is built as a user builds one for ptxrun: -cudart shared (so the libcudart found
# on the library path, ptxrun's, serves it) and -lineinfo (so faults name the .cu line), for
# sm_80 (the fatbinary holds compute_80 PTX next to the sm_80 cubin; arch.cu: compute_80 and
# compute_90 PTX alone). make check runs the committed binaries (tests/cuda/run.sh) and, where
# nvcc is here, builds a few again into build/ with this script. nvcc's version goes to
# bin/nvcc-version.txt. nvcc writes the absolute path of each source into the PTX's .file, which
# faults name: the committed programs are compiled from copies in a fixed folder,
# /tmp/ptxrun-cuda-tests (removed after), so that they name the same file wherever the
# repository is; other builds from copies in OUTDIR/src.
set -eu
nvcc=${1:-/usr/local/cuda/bin/nvcc}
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here/bin}
[ $# -gt 2 ] && shift 2 || set --
mkdir -p "$out"
out=$(cd "$out" && pwd)
cuda=$(dirname "$(dirname "$nvcc")")
if [ "$out" = "$here/bin" ]; then
    stage=/tmp/ptxrun-cuda-tests
    trap 'rm -rf "$stage"' EXIT
else
    stage=$out/src
fi
rm -rf "$stage"
mkdir -p "$stage"
cp "$here"/*.cu "$here"/*.cpp "$here"/*.h "$stage/"
cd "$stage"     # the sources by their plain names: assert's __FILE__ is "assert.cu"

build() {   # NAME NVCC-ARGUMENTS...
    name=$1
    shift
    "$nvcc" -cudart shared -lineinfo "$@" -o "$out/$name"
}

wanted() {   # is NAME among the names asked for (all when none were)?
    [ -z "$names" ] && return 0
    for n in $names; do [ "$n" = "$1" ] && return 0; done
    return 1
}

names="$*"
for name in vecadd reduce shuffle atomics symbols memory streams printf assert oob fault texture uninit deadlock launch coop threads; do
    wanted $name && build $name -arch=sm_80 $name.cu
done
wanted notsupported && build notsupported -arch=sm_90 notsupported.cu    # mma m16n8k4 .f64: sm_90
wanted cluster && build cluster -arch=sm_90 cluster.cu    # thread block clusters: sm_90
wanted arch && build arch -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=compute_90 arch.cu
wanted drvapi && "$nvcc" -cudart none drvapi.cpp -L"$cuda/lib64/stubs" -lcuda -o "$out/drvapi"
wanted rdc && build rdc -arch=sm_80 -rdc=true rdc.cu rdc_lib.cu
wanted twofiles && build twofiles -arch=sm_80 twofiles.cu twofiles_other.cu
if [ -z "$names" ]; then
    "$nvcc" --version | tail -1 > "$out/nvcc-version.txt"
fi
