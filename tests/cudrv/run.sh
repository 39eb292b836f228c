#!/bin/sh
# run.sh: the driver API programs regen.sh built with CUDA's own header, run against ptxrun's
# libcuda.so.1 (no CUDA needed): each checks its own results and exits 0.
#   sh tests/cudrv/run.sh BUILD/cuda
set -u
lib=$1
here=$(cd "$(dirname "$0")" && pwd)
status=0
for program in abi abi_ptds; do
    if LD_LIBRARY_PATH="$lib" PTXRUN_REPORT=none "$here/$program" "$here/kernels.ptx"; then :; else
        echo "FAIL tests/cudrv/$program"
        status=1
    fi
done
exit $status
