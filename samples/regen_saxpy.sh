#!/usr/bin/env bash
# Regenerates saxpy.ptx from saxpy.cu (needs CUDA's nvcc): the README's walkthrough kernel, built
# with -lineinfo so that its PTX carries .file/.loc. nvcc writes the absolute path of the source into
# .file; compiling in a fixed folder keeps the PTX the same wherever the repository is checked out
# (ptxrun finds saxpy.cu next to the PTX when that path does not exist).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
stage=/tmp/ptxrun-samples
mkdir -p "$stage"
cp "$here/saxpy.cu" "$stage/"
(cd "$stage" && "$NVCC" -ptx -lineinfo -arch=sm_80 saxpy.cu -o saxpy.ptx)
"$(dirname "$NVCC")/ptxas" -arch=sm_80 "$stage/saxpy.ptx" -o /dev/null
cp "$stage/saxpy.ptx" "$here/saxpy.ptx"
rm -rf "$stage"      # else ptxrun would read the staged copy: the walkthrough must show samples/saxpy.cu
