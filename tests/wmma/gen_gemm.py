#!/usr/bin/env python3
"""gemm_nvcc: the PTX nvcc 13.0 makes of gemm_nvcc.cu (nvcc -ptx -arch=sm_90 gemm_nvcc.cu -o
gemm_nvcc.ptx), run on 2 x 2 blocks of one warp, M = N = K = 32, A and B small integers in f16
(column-major), C = 1.5 * A*B + 0.5 * C computed here exactly (every value a multiple of 0.5
far below 2^24: exact in f32). Run in tests/wmma: python3 gen_gemm.py"""
import json
import random
import struct

random.seed(5)
M = N = K = 32
A = [random.randint(-4, 4) for _ in range(M * K)]   # A[r + c*M]
B = [random.randint(-4, 4) for _ in range(K * N)]
C = [float(random.randint(-10, 10)) for _ in range(M * N)]


def h(v):
    return '0x%04x' % struct.unpack('<H', struct.pack('<e', float(v)))[0]


lanes = {'block': [32, 1, 1], 'grid': [2, 2, 1], 'params': ['@A', '@B', '@C', 32, 32, 32, 1.5, 0.5],
         'buffers': {'A': {'type': 'f16', 'data': [h(v) for v in A]}, 'B': {'type': 'f16', 'data': [h(v) for v in B]},
                     'C': {'type': 'f32', 'data': C}}}
D = [0.0] * (M * N)
for r in range(M):
    for c in range(N):
        D[r + c * M] = 1.5 * sum(A[r + k * M] * B[k + c * K] for k in range(K)) + 0.5 * C[r + c * M]
json.dump(lanes, open('gemm_nvcc.lanes.json', 'w'))
json.dump({'buffers': {'C': D}}, open('gemm_nvcc.expect.json', 'w'))
