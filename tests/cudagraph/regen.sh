#!/bin/sh
# regen.sh: rebuild conditional.fatbin (the fatbinary tests/check_cudagraph.c registers) from
# conditional.cu with nvcc (no GPU needed): PTX for compute_90 and an sm_90 cubin.
#   sh tests/cudagraph/regen.sh [NVCC]      (default /usr/local/cuda/bin/nvcc)
set -eu
nvcc=${1:-/usr/local/cuda/bin/nvcc}
here=$(cd "$(dirname "$0")" && pwd)
"$nvcc" -fatbin -arch=sm_90 "$here/conditional.cu" -o "$here/conditional.fatbin"
