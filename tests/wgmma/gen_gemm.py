#!/usr/bin/env python3
"""tests/wgmma/gen_gemm.py: gemm_nvcc.cu (a CUTLASS-style wgmma GEMM tile written by us: A and B
stored into shared memory in the 128B-swizzled K-major layout by the kernel's own C++, descriptors
made as CUTLASS's make_gmma_desc makes them, wgmma.fence, four m64n64k16 wgmma stepping K, commit,
wait, D stored by the ISA's fragment figure), its PTX from nvcc (-arch=sm_90a; regenerate with
`python3 tests/wgmma/gen_gemm.py NVCC`), and the case's inputs and expected D, computed here exactly
(small values: every sum is an f32). Run from the repository root."""
import json
import os
import random
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

def f16(v):
    return struct.unpack('<H', struct.pack('<e', v))[0]

def f32(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]

regs = ', '.join('%%%d' % i for i in range(32))
outs = ', '.join('"+f"(d[%d])' % i for i in range(32))
CU = r'''// gemm_nvcc.cu: one 64x64x64 f16 GEMM tile on a warpgroup with wgmma (written for ptxrun's tests;
// tests/wgmma/gen_gemm.py makes its PTX and the expected D). A: 64 x 64 (M x K), B: 64 x 64 (N x K,
// K contiguous), both row after row; D: 64 x 64 f32, row after row.
#include <cuda_fp16.h>
#include <stdint.h>

// A K-major 128B-swizzled operand: row r (of 64 halves, 128 bytes) at r * 128, then the 16-byte
// chunks of the row xored with r % 8 (bits 4-6 of the address with bits 7-9).
__device__ static uint32_t swizzled(int r, int k)
{
    uint32_t off = r * 128 + k * 2;
    return off ^ (((off >> 7) & 7) << 4);
}

// start >> 4, LBO 16 bytes (unused), SBO 1024 bytes (8 rows of 128), 128B swizzle (1 << 62)
__device__ static uint64_t descriptor(const void *p)
{
    uint64_t a = (uint32_t)__cvta_generic_to_shared(p);
    return ((a & 0x3ffff) >> 4) | (uint64_t)(16 >> 4) << 16 | (uint64_t)(1024 >> 4) << 32 | (uint64_t)1 << 62;
}

extern "C" __global__ void __launch_bounds__(128) gemm(const __half *A, const __half *B, float *D)
{
    __shared__ __align__(1024) __half sA[64 * 64];
    __shared__ __align__(1024) __half sB[64 * 64];
    int t = threadIdx.x;
    for (int i = t; i < 64 * 64; i += 128) {
        uint32_t off = swizzled(i / 64, i % 64);
        sA[off / 2] = A[i];
        sB[off / 2] = B[i];
    }
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    float d[32];
#pragma unroll
    for (int i = 0; i < 32; i++)
        d[i] = 0.0f;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int ks = 0; ks < 4; ks++) {
        uint64_t da = descriptor(sA + ks * 16), db = descriptor(sB + ks * 16);
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {REGS}, %32, %33, p, 1, 1, 0, 0;\n}\n"
                     : OUTS
                     : "l"(da), "l"(db), "r"((int)(ks > 0)));
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    int w = t / 32, l = t % 32;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        int row = 16 * w + l / 4 + 8 * ((i >> 1) & 1), col = 8 * (i >> 2) + 2 * (l % 4) + (i & 1);
        D[row * 64 + col] = d[i];
    }
}
'''.replace('REGS', regs).replace('OUTS', outs)

def main():
    cu = os.path.join(HERE, 'gemm_nvcc.cu')
    with open(cu, 'w') as f:
        f.write(CU)
    if len(sys.argv) > 1:
        subprocess.run([sys.argv[1], '-arch=sm_90a', '-ptx', cu, '-o', os.path.join(HERE, 'gemm_nvcc.ptx')], check=True)
    rnd = random.Random(90)
    vals = [-2, -1.5, -1, -0.5, 0, 0.5, 1, 2, 3]
    A = [[rnd.choice(vals) for _ in range(64)] for _ in range(64)]
    Bnk = [[rnd.choice(vals) for _ in range(64)] for _ in range(64)]
    D = [[sum(A[m][k] * Bnk[n][k] for k in range(64)) for n in range(64)] for m in range(64)]
    def words(halves):
        return ['0x%04x%04x' % (f16(halves[i + 1]), f16(halves[i])) for i in range(0, len(halves), 2)]
    lanes = {'block': [128, 1, 1], 'grid': [1, 1, 1], 'params': ['@A', '@B', '@D'],
             'buffers': {'A': {'type': 'b32', 'data': words(sum(A, []))},
                         'B': {'type': 'b32', 'data': words(sum(Bnk, []))},
                         'D': {'type': 'f32', 'data': [0] * 4096}}}
    with open(os.path.join(HERE, 'gemm_nvcc.lanes.json'), 'w') as f:
        json.dump(lanes, f)
    with open(os.path.join(HERE, 'gemm_nvcc.expect.json'), 'w') as f:
        json.dump({'buffers': {'D': ['0x%08x' % f32(v) for row in D for v in row]}}, f)

if __name__ == '__main__':
    main()
