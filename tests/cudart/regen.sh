#!/bin/sh
# regen.sh: rebuild kernels.fatbin (the fatbinary tests/check_cudart.c registers) from kernels.cu
# with nvcc (no GPU needed): PTX for compute_80 and an sm_80 cubin, as -arch=sm_80 makes them.
#   sh tests/cudart/regen.sh [NVCC]      (default /usr/local/cuda/bin/nvcc)
set -eu
nvcc=${1:-/usr/local/cuda/bin/nvcc}
here=$(cd "$(dirname "$0")" && pwd)
"$nvcc" -fatbin -arch=sm_80 "$here/kernels.cu" -o "$here/kernels.fatbin"
# props13.txt: cudaDeviceProp's layout as CUDA's own header gives it (check_cudart compares ours).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$nvcc" -x cu "$here/props_layout.cu" -o "$tmp/props_layout"
"$tmp/props_layout" > "$here/props13.txt"
# sass_only.fatbin: the same kernels as an sm_80 cubin and no PTX (what ptxrun cannot load)
"$nvcc" -fatbin -gencode arch=compute_80,code=sm_80 "$here/kernels.cu" -o "$here/sass_only.fatbin"
