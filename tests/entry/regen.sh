#!/usr/bin/env bash
# Regenerates templates.ptx from templates.cu (needs CUDA's nvcc), checks it with ptxas, and
# rewrites demangled.tsv: each kernel's mangled name and its C++ name as binutils' c++filt
# writes it (an independent demangler; tests/check_demangle.c compares ptxrun's with it), with
# the names of names.txt (more cases, written by hand) after them.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
stage=/tmp/ptxrun-entry
rm -rf "$stage"
mkdir -p "$stage"
cp "$here/templates.cu" "$stage/"
(cd "$stage" && "$NVCC" -ptx -arch=sm_90 templates.cu -o templates.ptx)
"$(dirname "$NVCC")/ptxas" -arch=sm_90 "$stage/templates.ptx" -o /dev/null
{ grep -o '\.entry [A-Za-z0-9_$]*' "$stage/templates.ptx" | cut -d' ' -f2 | grep '^_Z'
  grep -v '^#' "$here/names.txt"; } > "$stage/names"
c++filt < "$stage/names" > "$stage/demangled"
[ "$(wc -l < "$stage/names")" = "$(wc -l < "$stage/demangled")" ]
paste "$stage/names" "$stage/demangled" > "$stage/demangled.tsv"
cp "$stage/templates.ptx" "$stage/demangled.tsv" "$here/"
rm -rf "$stage"
