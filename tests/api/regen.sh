#!/bin/sh
# Regenerates tests/api's PTX from its CUDA sources (CUDA 13's nvcc; -lineinfo for the .loc lines),
# compiled from a copy in /tmp/ptxrun-api so that the .file path names no one's checkout.
set -eu
cd "$(dirname "$0")"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p /tmp/ptxrun-api
cp printf.cu /tmp/ptxrun-api/printf.cu
"$nvcc" -arch=sm_80 -lineinfo -ptx /tmp/ptxrun-api/printf.cu -o printf.ptx
