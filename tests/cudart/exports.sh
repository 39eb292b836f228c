#!/bin/sh
# exports.sh DIR: libcudart.so.13 and .12 in DIR export only cuda* and __cuda* names, each under its
# own version node (what nvcc's programs ask for: readelf -V), libcudart.so.13 CUDA 13's
# cudaGetDeviceProperties and .12 CUDA 12's cudaGetDeviceProperties_v2, never the other; and each
# needs libcuda.so.1, found beside it (RUNPATH $ORIGIN).
set -eu
dir=$1
fail() { echo "exports.sh: $*" >&2; exit 1; }
for v in 13 12; do
    lib=$dir/libcudart.so.$v
    syms=$(nm -D --defined-only "$lib" | awk '{print $3}')
    bad=$(echo "$syms" | grep -v -E "^(cuda|__cuda)[A-Za-z0-9_]*@@libcudart\.so\.$v\$" | grep -v -x "libcudart\.so\.$v" || true)
    [ -z "$bad" ] || fail "$lib exports $(echo $bad)"
    count=$(echo "$syms" | grep -c "@@libcudart\.so\.$v\$")
    [ "$count" -gt 150 ] || fail "$lib exports only $count names"
    for name in __cudaRegisterFatBinary __cudaRegisterFunction __cudaLaunchKernel __cudaLaunchKernel_ptsz cudaMalloc \
                cudaMemcpy cudaMemcpy_ptds cudaMemcpyAsync_ptsz cudaStreamSynchronize_ptsz cudaMemPrefetchAsync_ptsz; do
        echo "$syms" | grep -q -x "$name@@libcudart\.so\.$v" || fail "$lib does not export $name"
    done
    readelf -d "$lib" | grep -q "NEEDED.*\[libcuda\.so\.1\]" || fail "$lib does not need libcuda.so.1"
    readelf -d "$lib" | grep -q "RUNPATH.*\[\$ORIGIN\]" || fail "$lib has no RUNPATH \$ORIGIN"
    readelf -d "$lib" | grep -q "SONAME.*\[libcudart\.so\.$v\]" || fail "$lib has not soname libcudart.so.$v"
done
echo "$(nm -D --defined-only "$dir/libcudart.so.13" | awk '{print $3}')" | grep -q -x "cudaGetDeviceProperties@@libcudart\.so\.13" \
    || fail "libcudart.so.13 does not export cudaGetDeviceProperties"
nm -D --defined-only "$dir/libcudart.so.13" | grep -q "cudaGetDeviceProperties_v2" && fail "libcudart.so.13 exports CUDA 12's layout"
nm -D --defined-only "$dir/libcudart.so.12" | grep -q "cudaGetDeviceProperties_v2@@libcudart.so.12" \
    || fail "libcudart.so.12 does not export cudaGetDeviceProperties_v2"
nm -D --defined-only "$dir/libcudart.so.12" | awk '{print $3}' | grep -q -x "cudaGetDeviceProperties@@libcudart\.so\.12" \
    && fail "libcudart.so.12 exports CUDA 13's layout"
exit 0
