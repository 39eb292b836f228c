#!/usr/bin/env python3
# mma_int_shapes.py: writes mma_int_shapes.lanes.json and .expect.json (to /tmp/mmagen: copy them here).
# Independent model of mma integer forms from the PTX ISA fragment figures (not from exec/mma.c).
import json, random
random.seed(34)
def s8(v): return v - 256 if v >= 128 else v
def frag_words(nregs):
    return [[random.getrandbits(32) for _ in range(32)] for _ in range(nregs)]
def byte(words, lane, i, signed):
    v = words[i // 4][lane] >> (8 * (i % 4)) & 0xff
    return s8(v) if signed else v
def run(shape, a_signed, b_signed, sat, A, B, C):
    M, N, K = shape
    Am = [[None]*K for _ in range(M)]; Bm = [[None]*N for _ in range(K)]; Cm = [[None]*N for _ in range(M)]
    for lane in range(32):
        g, t = lane >> 2, lane % 4
        na = M * K // 32
        for i in range(na):
            if K == 16 and M == 8: r, c = g, t * 4 + i
            else: r, c = (g if i < 4 else g + 8), t * 4 + (i & 3)     # m16n8k16
            Am[r][c] = byte(A, lane, i, a_signed)
        for i in range(K * N // 32):
            Bm[t * 4 + i][g] = byte(B, lane, i, b_signed)
        for i in range(len(C)):
            r = g if M == 8 else (g if i < 2 else g + 8)
            v = C[i][lane]; Cm[r][t * 2 + (i & 1)] = v - (1 << 32) if v >= 1 << 31 else v
    out = [[0]*32 for _ in C]
    for lane in range(32):
        g, t = lane >> 2, lane % 4
        for i in range(len(C)):
            r = g if M == 8 else (g if i < 2 else g + 8); c = t * 2 + (i & 1)
            s = Cm[r][c] + sum(Am[r][k] * Bm[k][c] for k in range(K))
            if sat: s = max(-2**31, min(2**31 - 1, s))
            out[i][lane] = s & 0xffffffff
    return out
# m16n8k16 .satfinite .s32.u8.s8.s32: C near both ends of the s32 range in half the elements
A1, B1 = frag_words(2), frag_words(1)
C1 = [[random.choice([0x7fffff00 + random.getrandbits(8), 0x80000000 + random.getrandbits(8), random.getrandbits(32)]) for _ in range(32)] for _ in range(4)]
D1 = run((16, 8, 16), False, True, True, A1, B1, C1)
# m8n8k16 .s32.s8.u8.s32 without .satfinite: the same kind of C wraps
A2, B2 = frag_words(1), frag_words(1)
C2 = [[random.choice([0x7fffff00 + random.getrandbits(8), 0x80000000 + random.getrandbits(8), random.getrandbits(32)]) for _ in range(32)] for _ in range(2)]
D2 = run((8, 8, 16), True, False, False, A2, B2, C2)
slots = A1 + B1 + C1 + A2 + B2 + C2
inp = [w for s in slots for w in s]
outw = [w for s in D1 + D2 for w in s]
h = lambda v: "0x%08x" % v
json.dump({"block": [32, 1, 1], "grid": [1, 1, 1], "buffers": {"i32": {"type": "b32", "data": [h(v) for v in inp]},
           "o32": {"type": "b32", "count": len(outw)}}, "params": ["@i32", "@o32"]}, open("/tmp/mmagen/lanes.json", "w"))
json.dump({"buffers": {"o32": [h(v) for v in outw]}}, open("/tmp/mmagen/expect.json", "w"))
