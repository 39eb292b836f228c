#!/usr/bin/env python3
# mma_fp8_forms.py: writes mma_fp8_forms.lanes.json and .expect.json (to /tmp/mmagen: copy them here).
# Three fp8 mma forms the H100 recordings lack (../shared/hw/mma has m16n8k32 .f32.e4m3.e4m3.f32 and
# .f32.e5m2.e5m2.f32 only): m16n8k16 .f32.e5m2.e4m3.f32, m16n8k32 .f16.e4m3.e5m2.f16 and m16n8k16
# .f16.e5m2.e5m2.f16. Fragments from the PTX ISA's figures (written here, not from exec/mma.c); each
# D element from scripts/mma_fp8_model.py's mma8 (exact rational arithmetic, not from exec/mmafp8.c).
import json, os, random, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from mma_fp8_model import mma8, round_to
from fractions import Fraction as Q
random.seed(8934)

def fp8_word(t, out):
    top = {("f32", "e4m3"): 0x7F, ("f32", "e5m2"): 0x7B, ("f16", "e4m3"): 0x50, ("f16", "e5m2"): 0x48}[out, t]
    w = 0
    for j in range(4):
        r = random.random()
        x = 0 if r < 0.05 else random.randrange(1, 4) if r < 0.15 else random.randrange(1, top)
        w |= (x | random.choice([0, 0x80])) << (8 * j)
    return w

def c_word(out):
    if out == "f32":
        return round_to(Q(random.randrange(-2**20, 2**20)) * Q(2) ** random.randrange(-24, 0), 8, 23, "rn")
    h = [round_to(Q(random.randrange(-2**10, 2**10)) * Q(2) ** random.randrange(-14, 0), 5, 10, "rn") for _ in range(2)]
    return h[0] | h[1] << 16

def run(k, out, at, bt):
    na, nb = k // 8, k // 16               # A, B registers per lane (four fp8 each)
    nc = 4 if out == "f32" else 2
    A = [[fp8_word(at, out) for _ in range(32)] for _ in range(na)]
    B = [[fp8_word(bt, out) for _ in range(32)] for _ in range(nb)]
    C = [[c_word(out) for _ in range(32)] for _ in range(nc)]
    Am = [[0] * k for _ in range(16)]; Bm = [[0] * 8 for _ in range(k)]; Cm = [[0] * 8 for _ in range(16)]
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for i in range(4 * na):            # a_i: row g + 8*((i>>2)&1), col 4t + (i&3) + 16*(i>>3)
            Am[g + 8 * ((i >> 2) & 1)][4 * t + (i & 3) + 16 * (i >> 3)] = A[i // 4][lane] >> (8 * (i % 4)) & 0xFF
        for i in range(4 * nb):            # b_i: row 4t + (i&3) + 16*(i>>2), col g
            Bm[4 * t + (i & 3) + 16 * (i >> 2)][g] = B[i // 4][lane] >> (8 * (i % 4)) & 0xFF
        for i in range(4):                 # c_i: row g + 8*(i>>1), col 2t + (i&1)
            w = C[i][lane] if out == "f32" else C[i // 2][lane] >> (16 * (i % 2)) & 0xFFFF
            Cm[g + 8 * (i >> 1)][2 * t + (i & 1)] = w
    D = [[0] * 32 for _ in range(nc)]
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for i in range(4):
            r, c = g + 8 * (i >> 1), 2 * t + (i & 1)
            d = mma8(Am[r], [Bm[kk][c] for kk in range(k)], Cm[r][c], at, bt, out)
            if out == "f32":
                D[i][lane] = d
            else:
                D[i // 2][lane] |= d << (16 * (i % 2))
    return A + B + C, D

slots, outs = [], []
for k, out, at, bt in ((16, "f32", "e5m2", "e4m3"), (32, "f16", "e4m3", "e5m2"), (16, "f16", "e5m2", "e5m2")):
    s, d = run(k, out, at, bt)
    slots += s
    outs += d
h = lambda v: "0x%08x" % v
os.makedirs("/tmp/mmagen", exist_ok=True)
json.dump({"block": [32, 1, 1], "grid": [1, 1, 1], "buffers": {"i32": {"type": "b32", "data": [h(v) for s in slots for v in s]},
           "o32": {"type": "b32", "count": 32 * len(outs)}}, "params": ["@i32", "@o32"]}, open("/tmp/mmagen/lanes.json", "w"))
json.dump({"buffers": {"o32": [h(v) for s in outs for v in s]}, "diagnostic": "not recorded on the H100"},
          open("/tmp/mmagen/expect.json", "w"))
print(len(slots), "input slots,", len(outs), "output slots")
