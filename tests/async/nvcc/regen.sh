#!/bin/sh
# regen.sh: the PTX of the nvcc kernels here (cases of tests/async), from their .cu with nvcc 13:
#   sh tests/async/nvcc/regen.sh [NVCC]      (default /usr/local/cuda/bin/nvcc)
# Each NAME.cu becomes NAME.sm_80.ptx (cp.async, and cuda::barrier's mbarrier); nvcc's version
# goes into the first line of each. The lanes and expect files are written by hand (their
# values from the .cu's comments, computed by expected.py).
set -eu
nvcc=${1:-/usr/local/cuda/bin/nvcc}
here=$(cd "$(dirname "$0")" && pwd)
version=$("$nvcc" --version | tail -1)
for cu in "$here"/*.cu; do
    name=$(basename "$cu" .cu)
    "$nvcc" -arch=sm_80 -ptx -o "$here/$name.sm_80.ptx.tmp" "$cu"
    { echo "// $name.cu, nvcc -arch=sm_80 -ptx ($version)"; cat "$here/$name.sm_80.ptx.tmp"; } > "$here/$name.sm_80.ptx"
    rm -f "$here/$name.sm_80.ptx.tmp"
done
