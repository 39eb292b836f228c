#!/bin/sh
# regen.sh: the PTX of the nvcc kernels here (cases of tests/async), from their .cu with nvcc 13:
#   sh tests/async/nvcc/regen.sh [NVCC]      (default /usr/local/cuda/bin/nvcc)
# Each NAME.cu becomes NAME.sm_80.ptx (cp.async, and cuda::barrier's mbarrier with test_wait),
# awbarrier.cu NAME.sm_90.ptx (cuda::barrier's arrive with a count and try_wait); nvcc's version
# goes into the first line of each. The lanes and expect files come from expected.py (the values
# the .cu's comments give, computed apart from ptxrun).
set -eu
nvcc=${1:-/usr/local/cuda/bin/nvcc}
here=$(cd "$(dirname "$0")" && pwd)
version=$("$nvcc" --version | tail -1)
for cu in "$here"/*.cu; do
    name=$(basename "$cu" .cu)
    case $name in awbarrier) sm=sm_90 ;; *) sm=sm_80 ;; esac
    "$nvcc" -arch=$sm -ptx -o "$here/$name.$sm.ptx.tmp" "$cu"
    { echo "// $name.cu, nvcc -arch=$sm -ptx ($version)"; cat "$here/$name.$sm.ptx.tmp"; } > "$here/$name.$sm.ptx"
    rm -f "$here/$name.$sm.ptx.tmp"
done
