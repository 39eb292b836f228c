#!/bin/sh
# regen.sh: the PTX of the corpus kernels here, from their .cu with nvcc 13, then their lanes and
# expect files (gen.py, a model written apart from ptxrun):
#   sh tests/corpus/regen.sh [NVCC]      (default /usr/local/cuda/bin/nvcc)
# cp_async_gemm.cu -> cp_async_gemm.sm_80.ptx and, with -DMISSING_WAIT, cp_async_gemm_nowait.sm_80.ptx;
# tma_wgmma_gemm.cu -> tma_wgmma_gemm.sm_90a.ptx and its missing-wait variants. nvcc's version goes
# into the first line of each.
set -eu
nvcc=${1:-/usr/local/cuda/bin/nvcc}
here=$(cd "$(dirname "$0")" && pwd)
version=$("$nvcc" --version | tail -1)
ptx() { # ptx CU ARCH OUT [FLAGS...]
    cu=$1 arch=$2 out=$3
    shift 3
    "$nvcc" -arch="$arch" -ptx "$@" -o "$here/$out.tmp" "$here/$cu"
    { echo "// $cu, nvcc -arch=$arch -ptx $* ($version)"; cat "$here/$out.tmp"; } > "$here/$out"
    rm -f "$here/$out.tmp"
}
ptx cp_async_gemm.cu sm_80 cp_async_gemm.sm_80.ptx
ptx cp_async_gemm.cu sm_80 cp_async_gemm_nowait.sm_80.ptx -DMISSING_WAIT
if [ -f "$here/tma_wgmma_gemm.cu" ]; then
    ptx tma_wgmma_gemm.cu sm_90a tma_wgmma_gemm.sm_90a.ptx
    ptx tma_wgmma_gemm.cu sm_90a tma_wgmma_gemm_nofull.sm_90a.ptx -DSKIP_FULL_WAIT
    ptx tma_wgmma_gemm.cu sm_90a tma_wgmma_gemm_early_d.sm_90a.ptx -DSKIP_WGMMA_WAIT
fi
cd "$here" && python3 gen.py
