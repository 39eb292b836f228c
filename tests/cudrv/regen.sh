#!/bin/sh
# regen.sh: rebuild what tests/cudrv/run.sh runs, with CUDA (no GPU needed):
#   sh tests/cudrv/regen.sh [CUDA]      (default /usr/local/cuda)
# kernels.ptx from kernels.cu (nvcc -ptx, compute_90, -lineinfo); abi and abi_ptds from abi.c
# compiled against CUDA's cuda.h and linked against its stub libcuda (abi_ptds with
# CUDA_API_PER_THREAD_DEFAULT_STREAM, so that it calls the _ptds/_ptsz names).
set -eu
cuda=${1:-/usr/local/cuda}
here=$(cd "$(dirname "$0")" && pwd)
"$cuda/bin/nvcc" -ptx -arch=compute_90 -lineinfo "$here/kernels.cu" -o "$here/kernels.ptx"
for variant in abi abi_ptds; do
    flags=
    [ "$variant" = abi_ptds ] && flags=-DCUDA_API_PER_THREAD_DEFAULT_STREAM
    cc -std=c11 -O1 $flags -I"$cuda/include" -o "$here/$variant" "$here/abi.c" -L"$cuda/lib64/stubs" -lcuda
    strip "$here/$variant"
done
"$cuda/bin/nvcc" --version | tail -1 > "$here/nvcc-version.txt"
