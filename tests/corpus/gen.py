#!/usr/bin/env python3
"""gen.py: the lanes and expect files of the corpus kernels here, from what each .cu says it
computes: a plain GEMM in Python, written apart from ptxrun. The inputs are small multiples of
1/2 (f16 and bf16 hold them exactly), so every product and every partial sum is exact in f32 and
D does not depend on the order or rounding of the sums. Run it here (regen.sh does)."""
import json
import random
import struct

UNDEF_WARNING = 'read of bytes an asynchronous copy has not written yet'
WGMMA_WARNING = 'which the wgmma.mma_async at line'  # ... writes, before wgmma.wait_group completes it


def f16(v):
    return struct.unpack('<H', struct.pack('<e', v))[0]


def bf16(v):
    bits = struct.unpack('<I', struct.pack('<f', v))[0]
    assert bits & 0xffff == 0  # exact
    return bits >> 16


def f32(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def matrix(rng, rows, cols):
    vals = [-2, -1.5, -1, -0.5, 0, 0.5, 1, 2, 3]
    return [[rng.choice(vals) for _ in range(cols)] for _ in range(rows)]


def gemm(A, Bnk):
    """D[m][n] = sum over k of A[m][k] * B[n][k]: exact (Python floats, all values small dyadics)."""
    return [[sum(a * b for a, b in zip(row, col)) for col in Bnk] for row in A]


def exact_in_f32(D):
    for row in D:
        for v in row:
            assert struct.unpack('<f', struct.pack('<f', v))[0] == v


def halves_as_words(values, enc):
    return ['0x%04x%04x' % (enc(values[i + 1]), enc(values[i])) for i in range(0, len(values), 2)]


def write(name, lanes, expect):
    with open(name + '.lanes.json', 'w') as f:
        json.dump(lanes, f)
        f.write('\n')
    with open(name + '.expect.json', 'w') as f:
        json.dump(expect, f)
        f.write('\n')


def cp_async_gemm():
    M, N, K = 128, 128, 256  # a grid of 2 x 2 CTAs of 64 x 64, 8 K tiles of 32 through 3 stages
    rng = random.Random(37)
    A, B = matrix(rng, M, K), matrix(rng, N, K)
    D = gemm(A, B)
    exact_in_f32(D)
    lanes = {'block': [128, 1, 1], 'grid': [N // 64, M // 64, 1], 'params': ['@A', '@B', '@D', M, N, K],
             'buffers': {'A': {'type': 'b32', 'data': halves_as_words(sum(A, []), f16)},
                         'B': {'type': 'b32', 'data': halves_as_words(sum(B, []), f16)},
                         'D': {'type': 'f32', 'count': M * N}}}
    write('cp_async_gemm', lanes, {'buffers': {'D': ['0x%08x' % f32(v) for row in D for v in row]}})
    # wait_group STAGES-1: every tile is read before it lands, so every element of D is undefined.
    write('cp_async_gemm_nowait', lanes, {'diagnostic': UNDEF_WARNING, 'buffers': {'D': [None] * (M * N)}})


def tma_wgmma_gemm():
    M, N, K = 128, 128, 256  # a grid of 2 x 2 CTAs of 64 x 64, 4 K tiles of 64 through 3 stages
    rng = random.Random(90)
    A, B = matrix(rng, M, K), matrix(rng, N, K)
    D = gemm(A, B)
    exact_in_f32(D)

    def tmap(buf, rows):  # rows x K halves, K contiguous; a 64 x 64 box, 128B swizzle
        return {'tensormap': {'buffer': buf, 'type': 'f16', 'dims': [K, rows], 'strides': [K * 2],
                              'box': [64, 64], 'swizzle': '128B'}}
    lanes = {'block': [256, 1, 1], 'grid': [N // 64, M // 64, 1], 'dynamic_shared': 3 * 16384 + 1024,
             'params': [tmap('A', M), tmap('B', N), '@D', M, N, K],
             'buffers': {'A': {'type': 'b32', 'data': halves_as_words(sum(A, []), f16)},
                         'B': {'type': 'b32', 'data': halves_as_words(sum(B, []), f16)},
                         'D': {'type': 'f32', 'count': M * N}}}
    write('tma_wgmma_gemm', lanes, {'buffers': {'D': ['0x%08x' % f32(v) for row in D for v in row]}})
    # The consumer does not wait for the full barrier. Under ptxrun's round-robin schedule the
    # producer warp runs first and, later, as soon as a stage's empty barrier frees it, so every
    # stage's copies have landed before a consumer reads it: D comes out right and nothing is
    # reported. The bug is real (the ISA makes the bytes visible only to a thread that saw the
    # phase complete); catching it needs another schedule or a check of that visibility (README.md).
    write('tma_wgmma_gemm_nofull', lanes, {'buffers': {'D': ['0x%08x' % f32(v) for row in D for v in row]}})
    # The last wgmma group is not waited for: the epilogue stores D while it is in flight, and every
    # element of D is undefined (wgmma.c makes D's registers undefined until the group completes),
    # and each store warns: it reads a register a wgmma.mma_async in flight writes.
    write('tma_wgmma_gemm_early_d', lanes, {'diagnostic': WGMMA_WARNING, 'buffers': {'D': [None] * (M * N)}})


def main():
    cp_async_gemm()
    tma_wgmma_gemm()


if __name__ == '__main__':
    main()
