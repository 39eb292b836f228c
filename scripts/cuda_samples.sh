#!/bin/bash
# Build NVIDIA's cuda-samples (github.com/NVIDIA/cuda-samples, unmodified) with nvcc -cudart shared
# and run them through ptxrun's libcudart/libcuda; print a table of the results.
#
#   SAMPLES=/path/to/cuda-samples scripts/cuda_samples.sh [build|run|all] [SAMPLE...]
#
# Environment:
#   SAMPLES  a checkout of NVIDIA/cuda-samples (required)
#   BIN      where the binaries are kept (default /tmp/ptxrun-samples-bin); a sample is rebuilt only
#            when one of its sources is newer than its binary
#   BUILD    ptxrun's build directory (default: build/ next to this script); the shims are BUILD/cuda
#   NVCC     nvcc (default /usr/local/cuda/bin/nvcc)
#   ARCH     virtual architecture whose PTX is embedded (default 90: compute_90 PTX only, no SASS)
#   TIMEOUT  seconds each sample may run (default 300; a sample's own limit in the list wins)
#   JOBS     samples built at once (default 1)
#   OUT      where each sample's output goes (default BIN/NAME/run.log)
# Needs nvcc (only to build); not part of `make check`.
#
# The PASS column says how a sample reports its own check (of its results against a CPU reference or
# known values): a text it prints only on success (pass = exit 0 and that text), "exit" (its exit
# status is its check: exit(ok ? EXIT_SUCCESS : EXIT_FAILURE); pass = exit 0), or "-" (it checks
# nothing, or only under a debug macro: exit 0 is reported as "ran", not "pass").
# Results: pass, ran, fail(STATUS), no-msg (exit 0 without the success text), timeout, waived (exit 2,
# the samples' EXIT_WAIVED: the device said it lacks a feature), build-fail. The reason column: for a
# pass, the success line; else ptxrun's messages, or the last lines of the output.
# Samples that need graphics (GL/EGL/Vulkan), CUDA libraries (cuBLAS, cuRAND's host library, NPP,
# nvrtc ...), several GPUs, MPI or IPC between processes are not in the list.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
: "${SAMPLES:?set SAMPLES to a checkout of NVIDIA/cuda-samples}"
BIN=${BIN:-/tmp/ptxrun-samples-bin}
BUILD=${BUILD:-$here/build}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
ARCH=${ARCH:-90}
TIMEOUT=${TIMEOUT:-300}
JOBS=${JOBS:-1}
mode=${1:-all}; [ $# -gt 0 ] && shift

# NAME|DIR under Samples/|ARGS|PASS (a success text, exit or -)|FLAGS|TIMEOUT (seconds; empty: $TIMEOUT)
# Short limits: cudaTensorCoreGemm and immaTensorCoreGemm multiply fixed 4096x4096 matrices, and
# simpleStreams streams 16M integers 10 times (no size options): hours for a CPU executor.
# FLAGS: rdc (relocatable device code, -lcudadevrt), omp (OpenMP host code), drv (links libcuda),
#        fatbin=KERNEL.cu:FILE (the driver-API sample loads FILE made by nvcc -fatbin),
#        ptx=KERNEL.cu:FILE (... made by nvcc -ptx), dl (links libdl), pthread
list='
asyncAPI|0_Introduction/asyncAPI||exit|
clock|0_Introduction/clock||-|
cudaOpenMP|0_Introduction/cudaOpenMP||exit|omp
fp16ScalarProduct|0_Introduction/fp16ScalarProduct||exit|
matrixMul|0_Introduction/matrixMul|-wA=64 -hA=64 -wB=64 -hB=64|Result = PASS|
matrixMulDrv|0_Introduction/matrixMulDrv||Result = PASS|drv fatbin=matrixMul_kernel.cu:matrixMul_kernel64.fatbin
matrixMulDynlinkJIT|0_Introduction/matrixMulDynlinkJIT||Test run success!|dl
mergeSort|0_Introduction/mergeSort||exit|
simpleAWBarrier|0_Introduction/simpleAWBarrier||Result = PASSED|
simpleAssert|0_Introduction/simpleAssert||simpleAssert completed, returned OK|
simpleAtomicIntrinsics|0_Introduction/simpleAtomicIntrinsics||simpleAtomicIntrinsics completed, returned OK|
simpleAttributes|0_Introduction/simpleAttributes||exit|
simpleCallback|0_Introduction/simpleCallback||exit|pthread
simpleCooperativeGroups|0_Introduction/simpleCooperativeGroups||-|
simpleCubemapTexture|0_Introduction/simpleCubemapTexture||exit|
simpleDrvRuntime|0_Introduction/simpleDrvRuntime||Result = PASS|drv fatbin=vectorAdd_kernel.cu:vectorAdd_kernel64.fatbin
simpleHyperQ|0_Introduction/simpleHyperQ|-nstreams=4|exit|
simpleLayeredTexture|0_Introduction/simpleLayeredTexture||exit|
simpleMultiCopy|0_Introduction/simpleMultiCopy||exit|
simpleMultiGPU|0_Introduction/simpleMultiGPU||exit|
simpleOccupancy|0_Introduction/simpleOccupancy||Test PASSED|
simplePitchLinearTexture|0_Introduction/simplePitchLinearTexture||completed, returned OK|
simplePrintf|0_Introduction/simplePrintf||-|
simpleStreams|0_Introduction/simpleStreams||exit||60
simpleSurfaceWrite|0_Introduction/simpleSurfaceWrite||completed, returned OK|
simpleTemplates|0_Introduction/simpleTemplates||Test Results: 0 Failures|
simpleTexture|0_Introduction/simpleTexture||completed, returned OK|
simpleTextureDrv|0_Introduction/simpleTextureDrv||exit|drv fatbin=simpleTexture_kernel.cu:simpleTexture_kernel64.fatbin
simpleVoteIntrinsics|0_Introduction/simpleVoteIntrinsics||exit|
simpleZeroCopy|0_Introduction/simpleZeroCopy||exit|
systemWideAtomics|0_Introduction/systemWideAtomics||systemWideAtomics completed, returned OK|
template|0_Introduction/template||exit|
vectorAdd|0_Introduction/vectorAdd||Test PASSED|
vectorAddDrv|0_Introduction/vectorAddDrv||Result = PASS|drv fatbin=vectorAdd_kernel.cu:vectorAdd_kernel64.fatbin
vectorAddMMAP|0_Introduction/vectorAddMMAP||Result = PASS|drv fatbin=vectorAdd_kernel.cu:vectorAdd_kernel64.fatbin
deviceQuery|1_Utilities/deviceQuery||Result = PASS|
deviceQueryDrv|1_Utilities/deviceQueryDrv||Result = PASS|drv
MC_EstimatePiInlineP|2_Concepts_and_Techniques/MC_EstimatePiInlineP||exit|
MC_SingleAsianOptionP|2_Concepts_and_Techniques/MC_SingleAsianOptionP||exit|
convolutionSeparable|2_Concepts_and_Techniques/convolutionSeparable||Test passed|
convolutionTexture|2_Concepts_and_Techniques/convolutionTexture||Test passed|
dct8x8|2_Concepts_and_Techniques/dct8x8||Test passed|
eigenvalues|2_Concepts_and_Techniques/eigenvalues|-matrix-size=64 -iters-timing=1|Test Succeeded!|
histogram|2_Concepts_and_Techniques/histogram|-sizemult=1|Test passed|
inlinePTX|2_Concepts_and_Techniques/inlinePTX||Test Successful.|
interval|2_Concepts_and_Techniques/interval||exit|
radixSortThrust|2_Concepts_and_Techniques/radixSortThrust|-n=65536 -iterations=1|Test passed|
reduction|2_Concepts_and_Techniques/reduction|-n=65536|Test passed|
reductionMultiBlockCG|2_Concepts_and_Techniques/reductionMultiBlockCG|-n=65536|exit|
scalarProd|2_Concepts_and_Techniques/scalarProd||Test passed|
scan|2_Concepts_and_Techniques/scan||exit|
segmentationTreeThrust|2_Concepts_and_Techniques/segmentationTreeThrust||exit|
shfl_scan|2_Concepts_and_Techniques/shfl_scan||exit|
sortingNetworks|2_Concepts_and_Techniques/sortingNetworks||exit|
streamOrderedAllocation|2_Concepts_and_Techniques/streamOrderedAllocation||exit|
threadFenceReduction|2_Concepts_and_Techniques/threadFenceReduction|-n=65536|exit|
threadMigration|2_Concepts_and_Techniques/threadMigration||exit|drv pthread fatbin=threadMigration_kernel.cu:threadMigration_kernel64.fatbin
StreamPriorities|3_CUDA_Features/StreamPriorities||-|
bf16TensorCoreGemm|3_CUDA_Features/bf16TensorCoreGemm||-|
binaryPartitionCG|3_CUDA_Features/binaryPartitionCG||-|
cdpAdvancedQuicksort|3_CUDA_Features/cdpAdvancedQuicksort|-size=1000|exit|rdc
cdpBezierTessellation|3_CUDA_Features/cdpBezierTessellation||-|rdc
cdpQuadtree|3_CUDA_Features/cdpQuadtree||Results: OK|rdc
cdpSimplePrint|3_CUDA_Features/cdpSimplePrint||-|rdc
cdpSimpleQuicksort|3_CUDA_Features/cdpSimpleQuicksort|-num_items=1000|exit|rdc
cudaCompressibleMemory|3_CUDA_Features/cudaCompressibleMemory||exit|drv
cudaTensorCoreGemm|3_CUDA_Features/cudaTensorCoreGemm||-||30
dmmaTensorCoreGemm|3_CUDA_Features/dmmaTensorCoreGemm||-|
globalToShmemAsyncCopy|3_CUDA_Features/globalToShmemAsyncCopy|-wA=128 -hA=128 -wB=128 -hB=128|exit|
graphConditionalNodes|3_CUDA_Features/graphConditionalNodes||-|
graphMemoryFootprint|3_CUDA_Features/graphMemoryFootprint||exit|
graphMemoryNodes|3_CUDA_Features/graphMemoryNodes||exit|
immaTensorCoreGemm|3_CUDA_Features/immaTensorCoreGemm||-||30
jacobiCudaGraphs|3_CUDA_Features/jacobiCudaGraphs||jacobiCudaGraphs PASSED|
newdelete|3_CUDA_Features/newdelete||exit|
ptxjit|3_CUDA_Features/ptxjit||exit|drv ptx=ptxjit_kernel.cu:ptxjit_kernel64.ptx
simpleCudaGraphs|3_CUDA_Features/simpleCudaGraphs||-|
tf32TensorCoreGemm|3_CUDA_Features/tf32TensorCoreGemm||-|
warpAggregatedAtomicsCG|3_CUDA_Features/warpAggregatedAtomicsCG||exit|
LargeKernelParameter|6_Performance/LargeKernelParameter||Test passed!|
UnifiedMemoryPerf|6_Performance/UnifiedMemoryPerf|-kernel-iterations=1|-|
alignedTypes|6_Performance/alignedTypes||Test passed|
cudaGraphsPerfScaling|6_Performance/cudaGraphsPerfScaling||-|
transpose|6_Performance/transpose|-dimX=256 -dimY=256|Test passed|
conjugateGradientMultiBlockCG|4_CUDA_Libraries/conjugateGradientMultiBlockCG||exit|
'

want() {  # is sample $1 among the names asked for (all when none)?
    [ ${#names[@]} -eq 0 ] && return 0
    local n; for n in "${names[@]}"; do [ "$n" = "$1" ] && return 0; done; return 1
}
names=("$@")

gencode="-gencode arch=compute_$ARCH,code=compute_$ARCH"
common="-cudart shared -lineinfo --extended-lambda -std=c++17 -Wno-deprecated-gpu-targets"

build_one() {  # NAME DIR FLAGS
    local name=$1 dir=$SAMPLES/Samples/$2 flags=$3 out=$BIN/$1
    mkdir -p "$out"
    # the sources are those of the sample's own CMakeLists.txt (add_executable)
    local srcs; srcs=$(tr '\r\n' '  ' < "$dir/CMakeLists.txt" | grep -oE 'add_executable\([^)]*\)' | head -1 |
                       sed -e 's/add_executable( *[^ ]* *//' -e 's/)$//')
    local newest; newest=$(find "$dir" "$SAMPLES/Common" -newer "$out/$name" -type f 2>/dev/null | head -1)
    if [ -x "$out/$name" ] && [ -z "$newest" ]; then return 0; fi
    local extra="" f
    for f in $flags; do
        case $f in
            rdc) extra="$extra -rdc=true -lcudadevrt";;
            omp) extra="$extra -Xcompiler -fopenmp -lgomp";;
            drv) extra="$extra -L/usr/local/cuda/lib64/stubs -lcuda";;
            dl) extra="$extra -ldl";;
            pthread) extra="$extra -lpthread";;
        esac
    done
    local inc="-I$SAMPLES/Common -I$dir -I$dir/inc"
    {
        echo "== $name"
        for f in $flags; do
            case $f in
                fatbin=*|ptx=*)
                    local k=${f#*=}; local kind=${f%%=*}
                    (cd "$dir" && set -x && "$NVCC" $inc $gencode -Wno-deprecated-gpu-targets -lineinfo \
                        -$kind -o "$out/${k#*:}" "${k%%:*}") || return 1;;
            esac
        done
        (cd "$dir" && set -x && "$NVCC" $common $inc $gencode $srcs $extra -o "$out/$name")
    } > "$out/build.log" 2>&1
}

run_one() {  # NAME DIR ARGS PASS TIMEOUT -> prints a table row
    local name=$1 dir=$SAMPLES/Samples/$2 args=$3 pass=$4 limit=${5:-$TIMEOUT} out=$BIN/$1
    local log=${OUT:+$OUT/$name.log}; log=${log:-$out/run.log}
    if [ ! -x "$out/$name" ]; then
        printf '%-26s %-10s %6s  %s\n' "$name" build-fail - "$(tail -n 2 "$out/build.log" 2>/dev/null | tr '\r\n' '  ' | cut -c1-150)"
        return
    fi
    [ -d "$dir/data" ] && ln -sfn "$dir/data" "$out/data"
    local t0 t1 rc
    t0=$(date +%s.%N)
    (cd "$out" && LD_LIBRARY_PATH="$BUILD/cuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        timeout -k 5 "$limit" "./$name" $args < /dev/null > "$log" 2>&1)
    rc=$?
    t1=$(date +%s.%N)
    local secs; secs=$(printf '%.1f' "$(echo "$t1 - $t0" | bc)")
    local result
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then result=timeout
    elif [ $rc -eq 2 ]; then result=waived
    elif [ $rc -ne 0 ]; then result="fail($rc)"
    elif [ "$pass" = - ]; then result=ran
    elif [ "$pass" = exit ]; then result=pass
    elif grep -qF -- "$pass" "$log"; then result=pass
    else result=no-msg
    fi
    # the reason: ptxrun's own messages first, else the last lines of the output
    local why=""
    if [ $result = pass ] && [ "$pass" != exit ]; then why=$(grep -m1 -F -- "$pass" "$log")
    elif [ $result != pass ] && [ $result != ran ]; then
        why=$(grep -m2 -E "ptxrun's|ptxrun:|not supported|cannot execute|[Ee]rror|FAIL" "$log" | tr '\r\n' '  ')
    fi
    [ -z "$why" ] && why=$(grep -v '^\s*$' "$log" | tail -n 2 | tr '\r\n' '  ')
    printf '%-26s %-10s %6s  %s\n' "$name" "$result" "$secs" "$(echo "$why" | tr -s ' \t' ' ' | cut -c1-200)"
}

mkdir -p "$BIN"; [ -n "${OUT:-}" ] && mkdir -p "$OUT"
if [ "$mode" = build ] || [ "$mode" = all ]; then
    running=0
    while IFS='|' read -r name dir args pass flags limit; do
        [ -z "$name" ] && continue
        want "$name" || continue
        build_one "$name" "$dir" "$flags" &
        running=$((running + 1))
        if [ $running -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
    done <<< "$list"
    wait
fi
if [ "$mode" = run ] || [ "$mode" = all ]; then
    [ -e "$BUILD/cuda/libcudart.so.13" ] || { echo "no $BUILD/cuda/libcudart.so.13: build ptxrun's shims first" >&2; exit 2; }
    printf '%-26s %-10s %6s  %s\n' sample result secs reason
    while IFS='|' read -r name dir args pass flags limit; do
        [ -z "$name" ] && continue
        want "$name" || continue
        run_one "$name" "$dir" "$args" "$pass" "$limit"
    done <<< "$list"
fi
