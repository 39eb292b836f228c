#!/bin/sh
# tma.ptx is what nvcc 13.0 makes of tma.cu (needs the CUDA toolkit; the tests need only the .ptx):
#   sh tests/bulk/nvcc/regen.sh
cd "$(dirname "$0")" && /usr/local/cuda/bin/nvcc -arch=sm_90a -ptx tma.cu -o tma.ptx
