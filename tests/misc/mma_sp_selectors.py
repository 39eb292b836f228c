#!/usr/bin/env python3
"""Writes mma_sp_selectors.{ptx,lanes.json,expect.json}: every mma.sp form (one type mix per shape
and kind, f16 and f32 C for .f16) with every selector ptxas takes, from a second model of mma.sp
written apart from exec/mmasp.c and tests/misc/mma_sp.py, from the PTX ISA's text (9.7.14.6: the
sparse A fragment laid out as the dense A of K/2; B in blocks of 4e rows per register, e elements to
a register; 2:4 chunks, 4:8 in pairs for 4-bit, 1:2 for .tf32 as 0b0100 / 0b1110) and the metadata
rule of docs/semantics.md (nibble j of row r: lane 4(r%8) + selector*T + j/4, bits 4(j%4) + 16(r/8)).
Float A, B and C are small multiples of 1/2 so that every sum is exact: the case checks layouts and
selectors, not rounding. Usage: python3 tests/misc/mma_sp_selectors.py (from the repository root)."""
import json, random, struct

rng = random.Random(20261129)

BITS = {"s8": 8, "u8": 8, "s4": 4, "u4": 4, "f16": 16, "bf16": 16, "tf32": 32}

# form: (shape K, atype, a_regs, b_regs, T threads of metadata, selectors)
def forms():
    out = []
    for a in ("s8", "u8"):
        for b in ("s8", "u8"):
            out.append((32, a, b, "s32", 2, (0, 1)))
            out.append((64, a, b, "s32", 4, (0,)))
    for a in ("s4", "u4"):
        for b in ("s4", "u4"):
            out.append((64, a, b, "s32", 2, (0, 1)))
            out.append((128, a, b, "s32", 4, (0,)))
    for c in ("f16", "f32"):
        out.append((16, "f16", "f16", c, 1, (0, 1, 2, 3)))
        out.append((32, "f16", "f16", c, 2, (0, 1)))
    out.append((16, "bf16", "bf16", "f32", 1, (0, 1, 2, 3)))
    out.append((32, "bf16", "bf16", "f32", 2, (0, 1)))
    out.append((8, "tf32", "tf32", "f32", 1, (0, 1, 2, 3)))
    out.append((16, "tf32", "tf32", "f32", 2, (0, 1)))
    return out

def per_reg(t):
    return 32 // BITS[t]

# A (compressed, M x K/2): register r, element e of lane -> (row, compressed col).
# ISA: the sparse A fragment of each form is laid out as the dense A of K/2 (row groupID for the
# first register(s) of a pair, groupID+8 for the next; cols threadID_in_group * per_reg).
def a_pos(K, t, lane, r, e):
    g, q = lane >> 2, lane & 3
    if t == "tf32":
        # dense m16n8k4 / m16n8k8 tf32 A: a0 (g, q), a1 (g+8, q), a2 (g, q+4), a3 (g+8, q+4)
        return (g + 8 * (r & 1), q + 4 * (r >> 1))
    n = per_reg(t)
    return (g + 8 * (r & 1), q * n + e + 4 * n * (r >> 1))

# B (K x 8): register r, element e -> (row, col). ISA: rows in blocks of 4*n per register.
def b_pos(K, t, lane, r, e):
    g, q = lane >> 2, lane & 3
    if t == "tf32":
        return (q + 4 * r, g)
    n = per_reg(t)
    return (q * n + e + 4 * n * r, g)

def c_pos(lane, i):
    g, q = lane >> 2, lane & 3
    return (g + 8 * (i >> 1), 2 * q + (i & 1))

def sx(v, bits, signed):
    v &= (1 << bits) - 1
    if signed and v >> (bits - 1):
        v -= 1 << bits
    return v

def f16_of(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]

def f16_val(h):
    return struct.unpack("<e", struct.pack("<H", h))[0]

def f32_of(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]

def f32_val(u):
    return struct.unpack("<f", struct.pack("<I", u))[0]

ORDERED = [0b0100, 0b1000, 0b1001, 0b1100, 0b1101, 0b1110]
UNORDERED = [n for n in range(16) if (n & 3) != (n >> 2)]

def one(form, sel, ordered, sat):
    K, at, bt, ct, T, _ = form
    fl = at in ("f16", "bf16", "tf32")
    na = per_reg(at)
    a_regs = (16 * K // 2) // (32 * na)
    b_regs = (K * 8) // (32 * per_reg(bt))
    c_regs = 2 if ct == "f16" else 4
    # dense A (16 x K) values and compressed A + metadata nibbles
    if at == "tf32":
        chunk, keep = 2, 1
    elif at in ("s4", "u4"):
        chunk, keep = 8, 4   # pairs
    else:
        chunk, keep = 4, 2
    nchunks = K // chunk
    def rnd(t):
        if t in ("s8", "u8"):
            return rng.randrange(256)
        if t in ("s4", "u4"):
            return rng.randrange(16)
        if t == "f16":
            return f16_of(rng.randint(-6, 6) * 0.5)
        if t == "bf16":
            return f32_of(rng.randint(-6, 6) * 0.5) >> 16
        if t == "tf32":
            return f32_of(rng.randint(-6, 6) * 0.5) | rng.randrange(1 << 13)
    def val(t, bits):
        if t in ("s8", "s4"):
            return sx(bits, BITS[t], True)
        if t in ("u8", "u4"):
            return bits
        if t == "f16":
            return f16_val(bits)
        if t == "bf16":
            return f32_val(bits << 16)
        if t == "tf32":
            return f32_val(bits & 0xffffe000)
    nib = [[0] * nchunks for _ in range(16)]
    comp = [[0] * (K // 2) for _ in range(16)]   # compressed raw bits
    dcol = [[0] * (K // 2) for _ in range(16)]   # dense column of each compressed element
    for r in range(16):
        for j in range(nchunks):
            if at == "tf32":
                nb = rng.choice([0b0100, 0b1110])
                idx = [0 if nb == 0b0100 else 1]
            else:
                nb = rng.choice(ORDERED if ordered else UNORDERED)
                idx = [nb & 3, nb >> 2]
            nib[r][j] = nb
            per_chunk = K // 2 // nchunks
            for k in range(per_chunk):
                cc = j * per_chunk + k
                comp[r][cc] = rnd(at)
                if at in ("s4", "u4"):
                    # kept pairs: element k of 4 in the chunk is pair idx[k//2], half k%2
                    dcol[r][cc] = j * chunk + 2 * idx[k // 2] + (k % 2)
                else:
                    dcol[r][cc] = j * chunk + idx[k]
    B = [[rnd(bt) for _ in range(8)] for _ in range(K)]
    if ct == "f16":
        C = [[f16_of(rng.randint(-8, 8)) for _ in range(8)] for _ in range(16)]
    elif ct == "f32":
        C = [[f32_of(rng.randint(-8, 8) * 1.0) for _ in range(8)] for _ in range(16)]
    else:
        C = [[rng.randrange(1 << 32) for _ in range(8)] for _ in range(16)]
        if sat:
            for r in range(16):
                for c in range(8):
                    if rng.random() < 0.5:
                        C[r][c] = rng.choice([0x7fffff00, 0x80000100, 0x7ffffff0, 0x80000010])
    # metadata registers: nibble j of row r -> lane 4*(r%8) + sel*T + j//4, bits 4*(j%4)+16*(r//8)
    meta = [rng.randrange(1 << 32) for _ in range(32)]
    for L in range(32):
        q = L & 3
        if sel * T <= q < sel * T + T:
            meta[L] = 0
    for r in range(16):
        for j in range(nchunks):
            L = 4 * (r % 8) + sel * T + j // 4
            meta[L] |= nib[r][j] << (4 * (j % 4) + 16 * (r // 8))
    # registers
    def pack(t, items):
        w = 0
        b = BITS[t] if t != "tf32" else 32
        for e, v in enumerate(items):
            w |= v << (b * e)
        return w
    Areg = [[0] * a_regs for _ in range(32)]
    Breg = [[0] * b_regs for _ in range(32)]
    Creg = [[0] * c_regs for _ in range(32)]
    for L in range(32):
        for r in range(a_regs):
            items = []
            for e in range(na):
                row, cc = a_pos(K, at, L, r, e)
                items.append(comp[row][cc])
            Areg[L][r] = pack(at, items)
        for r in range(b_regs):
            items = []
            for e in range(per_reg(bt)):
                row, col = b_pos(K, bt, L, r, e)
                items.append(B[row][col])
            Breg[L][r] = pack(bt, items)
        if ct == "f16":
            for r in range(2):
                lo = C[c_pos(L, 2 * r)[0]][c_pos(L, 2 * r)[1]]
                hi = C[c_pos(L, 2 * r + 1)[0]][c_pos(L, 2 * r + 1)[1]]
                Creg[L][r] = lo | hi << 16
        else:
            for i in range(4):
                row, col = c_pos(L, i)
                Creg[L][i] = C[row][col]
    # expected D
    D = [[0] * 8 for _ in range(16)]
    for r in range(16):
        for c in range(8):
            if fl:
                s = (f16_val(C[r][c]) if ct == "f16" else f32_val(C[r][c]))
                for cc in range(K // 2):
                    s += val(at, comp[r][cc]) * val(bt, B[dcol[r][cc]][c])
                D[r][c] = f16_of(s) if ct == "f16" else f32_of(s)
            else:
                s = sx(C[r][c], 32, True)
                for cc in range(K // 2):
                    s += val(at, comp[r][cc]) * val(bt, B[dcol[r][cc]][c])
                if sat:
                    s = max(-2**31, min(2**31 - 1, s))
                D[r][c] = s & 0xffffffff
    Dreg = [[0] * c_regs for _ in range(32)]
    for L in range(32):
        if ct == "f16":
            for r in range(2):
                a0 = c_pos(L, 2 * r); a1 = c_pos(L, 2 * r + 1)
                Dreg[L][r] = D[a0[0]][a0[1]] | D[a1[0]][a1[1]] << 16
        else:
            for i in range(4):
                row, col = c_pos(L, i)
                Dreg[L][i] = D[row][col]
    op = "mma.sp::ordered_metadata" if ordered else "mma.sp"
    name = f"{op}.sync.aligned.m16n8k{K}.row.col{'.satfinite' if sat else ''}.{ct if ct!='s32' else 's32'}.{at}.{bt}.{ct}"
    return dict(name=name, sel=sel, a=Areg, b=Breg, c=Creg, e=meta, d=Dreg,
                na=a_regs, nb=b_regs, nc=c_regs)

def ptx_of(cases):
    lines = [".version 8.5", ".target sm_90", ".address_size 64", "",
             ".visible .entry k(.param .u64 p_i32, .param .u64 p_o32)", "{",
             "    .reg .b32 %r<40>;", "    .reg .b32 %d<8>;", "    .reg .u64 %bi, %bo, %off;",
             "    mov.u32 %r39, %tid.x;", "    mul.wide.u32 %off, %r39, 4;",
             "    ld.param.u64 %bi, [p_i32];", "    cvta.to.global.u64 %bi, %bi;", "    add.s64 %bi, %bi, %off;",
             "    ld.param.u64 %bo, [p_o32];", "    cvta.to.global.u64 %bo, %bo;", "    add.s64 %bo, %bo, %off;"]
    slot = 0; oslot = 0
    data = []; 
    for cs in cases:
        regs = []
        for part, n in (("a", cs["na"]), ("b", cs["nb"]), ("c", cs["nc"])):
            names = []
            for r in range(n):
                lines.append(f"    ld.global.b32 %r{len(regs)}, [%bi+{slot*128}];")
                data += [cs[part][L][r] for L in range(32)]
                names.append(f"%r{len(regs)}"); regs.append(1); slot += 1
            cs["_" + part] = names
        lines.append(f"    ld.global.b32 %r30, [%bi+{slot*128}];")
        data += cs["e"]; slot += 1
        dn = [f"%d{i}" for i in range(cs["nc"])]
        lines.append(f"    {cs['name']} {{{', '.join(dn)}}}, {{{', '.join(cs['_a'])}}}, {{{', '.join(cs['_b'])}}}, {{{', '.join(cs['_c'])}}}, %r30, {cs['sel']};")
        for i in range(cs["nc"]):
            lines.append(f"    st.global.b32 [%bo+{oslot*128}], %d{i};"); oslot += 1
    lines += ["    ret;", "}", ""]
    expect = []
    for cs in cases:
        for i in range(cs["nc"]):
            expect += [cs["d"][L][i] for L in range(32)]
    lanes = {"block": [32, 1, 1], "grid": [1, 1, 1],
             "buffers": {"i32": {"type": "b32", "data": ["0x%08x" % v for v in data]},
                         "o32": {"type": "b32", "count": oslot * 32}},
             "params": ["@i32", "@o32"]}
    return "\n".join(lines), lanes, expect

def main():
    cases = []
    for f in forms():
        if f[1] in ("s8", "s4") and f[2] != "u" + f[1][1]:
            continue                       # one type mix per integer shape: .s8.u8, .s4.u4
        if f[1] in ("u8", "u4"):
            continue
        for sel in f[5]:
            cases.append(one(f, sel, sel % 2 == 0, f[3] == "s32" and sel == 0))
    p, lanes, expect = ptx_of(cases)
    comment = ["// mma_sp_selectors: every mma.sp form with every selector ptxas takes (%d instructions), A, B" % len(cases),
               "// and C random, unselected lanes' metadata random; ::ordered_metadata for even selectors.",
               "// Input slot s of lane l is i32[s*32+l]; D register s of lane l goes to o32[s*32+l].",
               "// Expected values: mma_sp_selectors.py, a model of mma.sp written apart from exec/mmasp.c."]
    open("tests/misc/mma_sp_selectors.ptx", "w").write("\n".join(comment) + "\n" + p)
    open("tests/misc/mma_sp_selectors.lanes.json", "w").write(json.dumps(lanes) + "\n")
    open("tests/misc/mma_sp_selectors.expect.json", "w").write(
        json.dumps({"buffers": {"o32": ["0x%08x" % v for v in expect]}}) + "\n")

if __name__ == "__main__":
    main()
