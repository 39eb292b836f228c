#!/bin/sh
# regen.sh: histogram_cg.ptx from histogram_cg.cu (nvcc 13, sm_90a, checked with ptxas), then the
# cases' lanes and expect files from gen.py's model.
#   NVCC  nvcc to use (default /usr/local/cuda/bin/nvcc); PTXAS the ptxas next to it
set -eu
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
PTXAS=${PTXAS:-$(dirname "$NVCC")/ptxas}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && cp "$here/histogram_cg.cu" . && "$NVCC" -arch=sm_90a -ptx histogram_cg.cu -o histogram_cg.ptx &&
    "$PTXAS" -arch=sm_90a histogram_cg.ptx -o histogram_cg.cubin)
cp "$tmp/histogram_cg.ptx" "$here/histogram_cg.ptx"
python3 "$here/gen.py"
