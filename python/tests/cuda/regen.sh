#!/usr/bin/env bash
# Regenerates kernels.ptx from kernels.cu (needs CUDA's nvcc) and checks it with ptxas. -lineinfo
# gives each instruction its CUDA line (.loc), which the tests find in PtxFault's message.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
cd "$here"
"$NVCC" -ptx -arch=sm_80 -lineinfo kernels.cu -o kernels.ptx
sed -i "s|\"$here/|\"|" kernels.ptx     # the .file as a name next to the PTX, not this machine's path
"$(dirname "$NVCC")/ptxas" -arch=sm_80 kernels.ptx -o /dev/null
