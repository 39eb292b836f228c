#!/usr/bin/env python3
# mma_subbyte.py: writes mma_subbyte.ptx, .lanes.json and .expect.json into the folder given
# (default: this one). An independent model of the dense mma forms with 4-bit and 1-bit A and B,
# each fragment layout written out as the PTX ISA's text gives it ("Matrix Fragments for
# mma.m8n8k32", "mma.m16n8k32", "mma.m16n8k64", "mma.m8n8k128", "mma.m16n8k128",
# "mma.m16n8k256"; groupID = laneid >> 2, threadID_in_group = laneid % 4, elements low bits
# first), never from exec/mma.c. m16n8k256's A text reads "col = (threadID_in_group * 32) + i for
# ai where i < 64", which would put a32..a63 past column 127 and on top of a64..a95: read as
# (i & 0x1F), as its B text and m16n8k128's A text write it.
import json, os, random, sys

random.seed(3481)
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))


def a_pos(shape, lane, i):
    g, t = lane >> 2, lane % 4
    if shape == "m8n8k32":
        return g, t * 8 + i
    if shape == "m16n8k32":                      # .s4/.u4: a0..a7 row g, a8..a15 row g+8
        return (g if i < 8 else g + 8), t * 8 + (i & 7)
    if shape == "m16n8k64":
        return (g if i < 8 or 16 <= i < 24 else g + 8), t * 8 + (i & 7) + (32 if i >= 16 else 0)
    if shape == "m8n8k128":
        return g, t * 32 + i
    if shape == "m16n8k128":
        return (g if i < 32 else g + 8), t * 32 + (i & 0x1F)
    if shape == "m16n8k256":
        return (g if i < 32 or 64 <= i < 96 else g + 8), t * 32 + (i & 0x1F) + (128 if i >= 64 else 0)


def b_pos(shape, lane, i):
    g, t = lane >> 2, lane % 4
    if shape in ("m8n8k32", "m16n8k32"):
        return t * 8 + i, g
    if shape == "m16n8k64":
        return t * 8 + (i & 7) + (32 if i >= 8 else 0), g
    if shape in ("m8n8k128", "m16n8k128"):
        return t * 32 + i, g
    if shape == "m16n8k256":
        return t * 32 + (i & 0x1F) + (128 if i >= 32 else 0), g


def c_pos(m, lane, i):
    g, t = lane >> 2, lane % 4
    if m == 8:
        return g, t * 2 + i
    return (g if i < 2 else g + 8), t * 2 + (i & 1)


FORMS = [  # shape, m, k, atype, btype, op ("sat", "xor", "and" or ""), A regs, B regs
    ("m8n8k32", 8, 32, "s4", "u4", "", 1, 1),
    ("m16n8k32", 16, 32, "u4", "s4", "sat", 2, 1),
    ("m16n8k64", 16, 64, "s4", "s4", "", 4, 2),
    ("m16n8k64", 16, 64, "u4", "u4", "sat", 4, 2),
    ("m8n8k128", 8, 128, "b1", "b1", "xor", 1, 1),
    ("m8n8k32", 8, 32, "u4", "s4", "imm", 1, 1),     # C as immediates {-5, 7}
    ("m16n8k128", 16, 128, "b1", "b1", "and", 2, 1),
    ("m16n8k256", 16, 256, "b1", "b1", "xor", 4, 2),
    ("m16n8k256", 16, 256, "b1", "b1", "and", 4, 2),
]


def value(words, lane, i, t):
    bits = 1 if t == "b1" else 4
    e = 32 // bits
    v = words[i // e][lane] >> (bits * (i % e)) & ((1 << bits) - 1)
    return v - 16 if t == "s4" and v >= 8 else v


def compute(form, A, B, C):
    shape, M, K, at, bt, op, na, nb = form
    Am = [[None] * K for _ in range(M)]
    Bm = [[None] * 8 for _ in range(K)]
    Cm = [[None] * 8 for _ in range(M)]
    per_a, per_b = M * K // 32, K * 8 // 32
    nc = M * 8 // 32
    for lane in range(32):
        for i in range(per_a):
            r, c = a_pos(shape, lane, i)
            assert Am[r][c] is None
            Am[r][c] = value(A, lane, i, at)
        for i in range(per_b):
            r, c = b_pos(shape, lane, i)
            assert Bm[r][c] is None
            Bm[r][c] = value(B, lane, i, bt)
        for i in range(nc):
            r, c = c_pos(M, lane, i)
            v = C[i][lane]
            Cm[r][c] = v - (1 << 32) if v >> 31 else v
    D = [[0] * 32 for _ in range(nc)]
    for lane in range(32):
        for i in range(nc):
            r, c = c_pos(M, lane, i)
            if op == "imm":
                s = Cm[r][c] + sum(Am[r][k] * Bm[k][c] for k in range(K))
            elif op == "xor":
                s = Cm[r][c] + sum(Am[r][k] ^ Bm[k][c] for k in range(K))
            elif op == "and":
                s = Cm[r][c] + sum(Am[r][k] & Bm[k][c] for k in range(K))
            else:
                s = Cm[r][c] + sum(Am[r][k] * Bm[k][c] for k in range(K))
            if op == "sat":
                s = max(-2**31, min(2**31 - 1, s))
            D[i][lane] = s & 0xFFFFFFFF
    return D


def words(n):
    return [[random.getrandbits(32) for _ in range(32)] for _ in range(n)]


slots, outs, body = [], [], []
reg = dreg = 0
for form in FORMS:
    shape, M, K, at, bt, op, na, nb = form
    nc = M * 8 // 32
    A, B = words(na), words(nb)
    if op == "sat":
        C = [[random.choice([0x7FFFFF80 + random.getrandbits(7), 0x80000000 + random.getrandbits(7),
                             random.getrandbits(32)]) for _ in range(32)] for _ in range(nc)]
    elif op == "imm":
        C = [[(-5) & 0xFFFFFFFF] * 32, [7] * 32]
    else:
        C = words(nc)
    names = {}
    for key, ws in (("a", A), ("b", B), ("c", C)):
        if op == "imm" and key == "c":
            names[key] = ["-5", "7"]
            continue
        names[key] = []
        for w in ws:
            slots.append(w)
            names[key].append(f"%r{reg}")
            body.append(f"    ld.global.b32 %r{reg}, [%bi+{128 * (len(slots) - 1)}];")
            reg += 1
    d = [f"%d{dreg + i}" for i in range(nc)]
    dreg += nc
    suffix = ".satfinite" if op == "sat" else ""
    tail = f".{op}.popc" if op in ("xor", "and") else ""
    body.append(f"    mma.sync.aligned.{shape}.row.col{suffix}.s32.{at}.{bt}.s32{tail} {{{', '.join(d)}}}, "
                f"{{{', '.join(names['a'])}}}, {{{', '.join(names['b'])}}}, {{{', '.join(names['c'])}}};")
    outs.append((d, compute(form, A, B, C)))
n = 0
for d, _ in outs:
    for r in d:
        body.append(f"    st.global.b32 [%bo+{128 * n}], {r};")
        n += 1
comment = """mma_subbyte: the dense mma forms with 4-bit and 1-bit A and B (exec/mma.c): m8n8k32
.s32.s4.u4.s32, m16n8k32 .satfinite.s32.u4.s4.s32 and m16n8k64 .s32.s4.s4.s32 / .satfinite
.u4.u4 (C near both ends of the s32 range where saturating), m8n8k128 .xor.popc, m8n8k32
.s32.u4.s4.s32 with C given as immediates {-5, 7}, m16n8k128
.and.popc, m16n8k256 .xor.popc and .and.popc. Input slot s of lane l is i32[s*32+l]; D register s
of lane l (in order) goes to o32[s*32+l]. Expected values: mma_subbyte.py, a model that writes
each fragment layout as the PTX ISA's text gives it (never from ptxrun's output)."""
ptx = ["// " + line for line in comment.splitlines()]
ptx += [".version 8.5", ".target sm_90", ".address_size 64", "",
        ".visible .entry k(.param .u64 p_i32, .param .u64 p_o32)", "{",
        f"    .reg .b32 %r<{reg}>;", f"    .reg .b32 %d<{dreg}>;",
        "    .reg .u64 %bi, %bo, %off;", "    .reg .u32 %lane;",
        "    mov.u32 %lane, %tid.x;", "    mul.wide.u32 %off, %lane, 4;",
        "    ld.param.u64 %bi, [p_i32];", "    cvta.to.global.u64 %bi, %bi;", "    add.s64 %bi, %bi, %off;",
        "    ld.param.u64 %bo, [p_o32];", "    cvta.to.global.u64 %bo, %bo;", "    add.s64 %bo, %bo, %off;"]
ptx += body + ["    ret;", "}"]
open(os.path.join(OUT, "mma_subbyte.ptx"), "w").write("\n".join(ptx) + "\n")
h = lambda v: "0x%08x" % v
json.dump({"block": [32, 1, 1], "grid": [1, 1, 1],
           "buffers": {"i32": {"type": "b32", "data": [h(v) for s in slots for v in s]},
                       "o32": {"type": "b32", "count": 32 * dreg}},
           "params": ["@i32", "@o32"]}, open(os.path.join(OUT, "mma_subbyte.lanes.json"), "w"))
json.dump({"buffers": {"o32": [h(v) for _, D in outs for r in D for v in r]}},
          open(os.path.join(OUT, "mma_subbyte.expect.json"), "w"))
