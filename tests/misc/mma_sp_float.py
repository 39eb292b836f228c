#!/usr/bin/env python3
# mma_sp_float.py: writes the mma_sp_f16 and mma_sp_tf32 cases of tests/misc (NAME.ptx, .lanes.json, .expect.json): mma.sp with
# .f16, .bf16 and .tf32 A and B. The sparse side (compressed A in the layout of the dense form with
# K/2, the sparse B fragments, the metadata's lanes and nibbles) is modelled as in
# tests/misc/mma_sp.py, from the PTX ISA's text; each D element is the H100 model of the dense form
# (scripts/mma_float_model.py, model_E: fitted to ../shared/hw/mma, written apart from ptxrun) over
# the kept products only. No H100 recording of mma.sp exists: these pin down ptxrun's documented
# choice (docs/semantics.md, "mma.sp"), not the hardware.
import json, os, random, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from mma_float_model import model_E   # noqa: E402

random.seed(3482)
OUT = sys.argv[1] if len(sys.argv) > 1 else HERE
BITS = {"f16": 16, "bf16": 16, "tf32": 32}
ORDERED = [0x4, 0x8, 0x9, 0xC, 0xD, 0xE]


class Form:
    def __init__(self, k, at, ct, sel, ordered=True, hole=False):
        self.k, self.at, self.ct, self.sel, self.ordered, self.hole = k, at, ct, sel, ordered, hole
        self.bits = BITS[at]
        self.e = 32 // self.bits
        self.a_regs = 16 * (k // 2) // 32 // self.e
        self.b_regs = k * 8 // 32 // self.e
        self.c_regs = 2 if ct == "f16" else 4
        self.chunk = 2 if at == "tf32" else 4
        self.nibbles = k // self.chunk
        self.threads = self.nibbles // 4

    def mnemonic(self):
        sp = "mma.sp::ordered_metadata" if self.ordered else "mma.sp"
        return f"{sp}.sync.aligned.m16n8k{self.k}.row.col.{self.ct}.{self.at}.{self.at}.{self.ct}"

    def meta_at(self, r, j):
        return 4 * (r % 8) + self.sel * self.threads + j // 4, 4 * (j % 4) + 16 * (r // 8)


def rand_float(fmt):
    if fmt == "f16":
        return random.getrandbits(1) << 15 | random.randint(9, 21) << 10 | random.getrandbits(10)
    if fmt == "bf16":
        return random.getrandbits(1) << 15 | random.randint(118, 136) << 7 | random.getrandbits(7)
    # tf32 in an f32 register: its low 13 bits random too (the tensor core drops them)
    return random.getrandbits(1) << 31 | random.randint(118, 136) << 23 | random.getrandbits(23)


SPECIAL = {"f16": [0x7C00, 0xFC00, 0x7E00], "bf16": [0x7F80, 0xFF80, 0x7FC0],
           "tf32": [0x7F800000, 0xFF800000, 0x7FC00000]}


def elem(words, lane, i, bits):
    e = 32 // bits
    return words[i // e][lane] >> (bits * (i % e)) & ((1 << bits) - 1)


def pack(values_by_lane, n_regs, bits):
    """values_by_lane[lane][i] -> n_regs register words per lane."""
    e = 32 // bits
    out = [[0] * 32 for _ in range(n_regs)]
    for lane in range(32):
        for i, v in enumerate(values_by_lane[lane]):
            out[i // e][lane] |= v << (bits * (i % e))
    return out


def make_step(f):
    K = f.k
    # metadata: with hole, chunk 0 of every row never keeps its last position (B's row there holds
    # inf and NaN, which must not reach any product)
    E = [random.getrandbits(32) for _ in range(32)]
    for r in range(16):
        for j in range(f.nibbles):
            lane, bit = f.meta_at(r, j)
            if f.at == "tf32":
                nib = 0x4 if (f.hole and j == 0) else random.choice([0x4, 0xE])
            else:
                pool = [0x4, 0x8, 0x9] if (f.hole and j == 0) else ORDERED
                nib = random.choice(pool)
            E[lane] = E[lane] & ~(0xF << bit) | nib << bit
    hole_row = 1 if f.at == "tf32" else 3
    # compressed A, dense B, C as matrices, then into fragments
    Ac = [[rand_float(f.at) for _ in range(K // 2)] for _ in range(16)]
    Bm = [[rand_float(f.at) for _ in range(8)] for _ in range(K)]
    if f.hole:
        Bm[hole_row] = [random.choice(SPECIAL[f.at]) for _ in range(8)]
    Cm = [[rand_float("f16") if f.ct == "f16" else rand_float("tf32") & ~0 for _ in range(8)] for _ in range(16)]
    a_l = [[0] * (f.a_regs * f.e) for _ in range(32)]
    b_l = [[0] * (f.b_regs * f.e) for _ in range(32)]
    c_l = [[0] * 4 for _ in range(32)]
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for i in range(f.a_regs * f.e):
            r = i // f.e
            a_l[lane][i] = Ac[g + 8 * (r & 1)][f.e * t + i % f.e + 4 * f.e * (r >> 1)]
        for i in range(f.b_regs * f.e):
            b_l[lane][i] = Bm[f.e * t + i % f.e + 4 * f.e * (i // f.e)][g]
        for i in range(4):
            c_l[lane][i] = Cm[g + 8 * (i >> 1)][2 * t + (i & 1)]
    A, B = pack(a_l, f.a_regs, f.bits), pack(b_l, f.b_regs, f.bits)
    C = pack(c_l, f.c_regs, 16) if f.ct == "f16" else pack(c_l, 4, 32)
    # the model: kept positions, then model_E of the dense form over the kept products
    D = [[0] * 8 for _ in range(16)]
    for r in range(16):
        pos = []
        for j in range(f.nibbles):
            lane, bit = f.meta_at(r, j)
            nib = E[lane] >> bit & 0xF
            if f.at == "tf32":
                pos.append(2 * j + (nib == 0xE))
            else:
                pos += [4 * j + (nib & 3), 4 * j + (nib >> 2)]
        for c in range(8):
            D[r][c] = model_E(Ac[r], [Bm[p][c] for p in pos], Cm[r][c], f.at, f.ct, f.ct)
    d_l = [[D[(lane >> 2) + 8 * (i >> 1)][2 * (lane & 3) + (i & 1)] for i in range(4)] for lane in range(32)]
    Dw = pack(d_l, f.c_regs, 16) if f.ct == "f16" else pack(d_l, 4, 32)
    return A, B, C, E, Dw


def write_case(name, comment, forms):
    slots, body, outs = [], [], []
    reg = 0

    def take(ws):
        nonlocal reg
        names = []
        for w in ws:
            slots.append(w)
            names.append(f"%r{reg}")
            body.append(f"    ld.global.b32 %r{reg}, [%bi+{128 * (len(slots) - 1)}];")
            reg += 1
        return names
    dn = 0
    for f in forms:
        A, B, C, E, Dw = make_step(f)
        a, b, c, e = take(A), take(B), take(C), take([E])[0]
        d = [f"%d{dn + i}" for i in range(f.c_regs)]
        dn += f.c_regs
        body.append(f"    {f.mnemonic()} {{{', '.join(d)}}}, {{{', '.join(a)}}}, {{{', '.join(b)}}}, "
                    f"{{{', '.join(c)}}}, {e}, {f.sel};")
        outs.append((d, Dw))
    n = 0
    for d, _ in outs:
        for r in d:
            body.append(f"    st.global.b32 [%bo+{128 * n}], {r};")
            n += 1
    ptx = ["// " + line for line in comment.strip().splitlines()]
    ptx += [".version 8.5", ".target sm_90", ".address_size 64", "",
            ".visible .entry k(.param .u64 p_i32, .param .u64 p_o32)", "{",
            f"    .reg .b32 %r<{reg}>;", f"    .reg .b32 %d<{dn}>;",
            "    .reg .u64 %bi, %bo, %off;", "    .reg .u32 %lane;",
            "    mov.u32 %lane, %tid.x;", "    mul.wide.u32 %off, %lane, 4;",
            "    ld.param.u64 %bi, [p_i32];", "    cvta.to.global.u64 %bi, %bi;", "    add.s64 %bi, %bi, %off;",
            "    ld.param.u64 %bo, [p_o32];", "    cvta.to.global.u64 %bo, %bo;", "    add.s64 %bo, %bo, %off;"]
    ptx += body + ["    ret;", "}"]
    open(os.path.join(OUT, name + ".ptx"), "w").write("\n".join(ptx) + "\n")
    h = lambda v: "0x%08x" % v
    json.dump({"block": [32, 1, 1], "grid": [1, 1, 1],
               "buffers": {"i32": {"type": "b32", "data": [h(v) for s in slots for v in s]},
                           "o32": {"type": "b32", "count": 32 * dn}},
               "params": ["@i32", "@o32"]}, open(os.path.join(OUT, name + ".lanes.json"), "w"))
    json.dump({"buffers": {"o32": [h(v) for _, D in outs for r in D for v in r]}},
              open(os.path.join(OUT, name + ".expect.json"), "w"))


write_case("mma_sp_f16", """
mma_sp_f16: mma.sp with .f16 and .bf16 A and B (exec/mmasp.c over mmafloat.c): m16n8k16
.f32.f16.f16.f32 (selector 2), m16n8k32 .f16.f16.f16.f16 (selector 1), m16n8k32 .f32.bf16.bf16.f32
(selector 0, plain mma.sp), m16n8k16 .f16 whose B row 3 holds infinities and NaNs that no row of A
keeps (they must not reach D). Input slot s of lane l is i32[s*32+l]; D register s of lane l goes
to o32[s*32+l]. Expected values: mma_sp_float.py (the sparse layout from the ISA's text, each D
element by scripts/mma_float_model.py's model of the dense form over the kept products).
""", [Form(16, "f16", "f32", 2), Form(32, "f16", "f16", 1), Form(32, "bf16", "f32", 0, ordered=False),
      Form(16, "f16", "f32", 3, hole=True)])

write_case("mma_sp_tf32", """
mma_sp_tf32: mma.sp with .tf32 A and B (1:2 sparsity, one kept element in two, nibbles 0b0100 or
0b1110): m16n8k8 (selector 3), m16n8k16 (selector 1), and m16n8k16 whose B row 1 holds infinities
and NaNs that no row of A keeps. Operands have random low 13 bits (the tensor core drops them).
Expected values: mma_sp_float.py.
""", [Form(8, "tf32", "f32", 3), Form(16, "tf32", "f32", 1), Form(16, "tf32", "f32", 0, hole=True)])
