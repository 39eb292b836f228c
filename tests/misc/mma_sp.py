#!/usr/bin/env python3
# mma_sp.py: writes the mma_sp_* cases of tests/misc (NAME.ptx, .lanes.json, .expect.json) into the
# folder given (default: this one). An independent model of mma.sp / mma.sp::ordered_metadata written
# from the PTX ISA's text ("Sparse matrix storage", "Matrix fragments for multiply-accumulate
# operation with sparse matrix A") and the per-lane metadata rule of docs/semantics.md, never from
# exec/mmasp.c. Only the integer forms (exact arithmetic) are written here.
#
# The rules modelled:
# - compressed A (M x K/2): lane l (g = l >> 2, t = l & 3) holds element i of register i // e (e
#   elements to a register, low bits first) at row g + 8 * (r & 1), compressed column
#   e * t + i % e + 4 * e * (r >> 1), r = i // e (the ISA's "row = groupID ... firstcol ..." text);
# - B (K x N): element i at row e * t + i % e + 4 * e * (i // e), column g; C and D: element i at
#   row g + 8 * (i >> 1), column 2t + (i & 1);
# - metadata: a row of A has one 4-bit nibble per chunk (4 elements for 8-bit types, 8 for 4-bit
#   ones), K / chunk nibbles, 4 to a 16-bit half: with T = nibbles / 4 threads of each group of four
#   contributing (1, 2 or 4), nibble j of row r is bits 4 * (j % 4) + 16 * (r // 8) of lane
#   4 * (r % 8) + selector * T + j // 4; its bits 1:0 give the position of the chunk's first kept
#   element (pair of elements for 4-bit types), bits 3:2 the second's;
# - 0b0000, 0b0101, 0b1010, 0b1111 (two equal indices) are undefined behaviour, and for
#   ::ordered_metadata so is a first index not below the second: that row of D is undefined.
import json, os, random, sys

random.seed(3480)
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
BITS = {"s8": 8, "u8": 8, "s4": 4, "u4": 4}
ORDERED = [0x4, 0x8, 0x9, 0xC, 0xD, 0xE]
VALID = [(hi << 2) | lo for lo in range(4) for hi in range(4) if lo != hi]   # mma.sp: any two distinct


def elem(words, lane, i, bits, signed):
    e = 32 // bits
    v = words[i // e][lane] >> (bits * (i % e)) & ((1 << bits) - 1)
    return v - (1 << bits) if signed and v >> (bits - 1) else v


class Form:
    def __init__(self, name, k, at, bt, sel, sat=False, ordered=True):
        self.name, self.k, self.at, self.bt, self.sel, self.sat, self.ordered = name, k, at, bt, sel, sat, ordered
        self.bits = BITS[at]
        self.e = 32 // self.bits
        self.a_regs = 16 * (k // 2) // 32 // self.e
        self.b_regs = k * 8 // 32 // self.e
        self.chunk = 4 if self.bits == 8 else 8
        self.nibbles = k // self.chunk
        self.threads = self.nibbles // 4

    def mnemonic(self):
        sp = "mma.sp::ordered_metadata" if self.ordered else "mma.sp"
        sat = ".satfinite" if self.sat else ""
        return f"{sp}.sync.aligned.m16n8k{self.k}.row.col{sat}.s32.{self.at}.{self.bt}.s32"

    def meta_at(self, r, j):
        lane = 4 * (r % 8) + self.sel * self.threads + j // 4
        return lane, 4 * (j % 4) + 16 * (r // 8)


def model(f, A, B, C, E, Eundef, Bundef=None):
    """D words (None for an undefined element) of the form f from the register words; Bundef: per
    B register and lane, the bits that are undefined (an element with one is undefined)."""
    K = f.k
    Ac = [[0] * (K // 2) for _ in range(16)]
    Bu = set()                          # (row, column) of B elements with an undefined bit
    kept = [set() for _ in range(16)]   # the dense columns each row of A keeps
    Bm = [[0] * 8 for _ in range(K)]
    Cm = [[0] * 8 for _ in range(16)]
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for i in range(f.a_regs * f.e):
            r = i // f.e
            Ac[g + 8 * (r & 1)][f.e * t + i % f.e + 4 * f.e * (r >> 1)] = elem(A, lane, i, f.bits, f.at[0] == "s")
        for i in range(f.b_regs * f.e):
            row = f.e * t + i % f.e + 4 * f.e * (i // f.e)
            Bm[row][g] = elem(B, lane, i, f.bits, f.bt[0] == "s")
            if Bundef and elem(Bundef, lane, i, f.bits, False):
                Bu.add((row, g))
        for i in range(4):
            v = C[i][lane]
            Cm[g + 8 * (i >> 1)][2 * t + (i & 1)] = v - (1 << 32) if v >> 31 else v
    Ad = [[0] * K for _ in range(16)]
    bad = [False] * 16
    for r in range(16):
        for j in range(f.nibbles):
            lane, bit = f.meta_at(r, j)
            nib = E[lane] >> bit & 0xF
            if Eundef[lane] >> bit & 0xF:
                bad[r] = True
            lo, hi = nib & 3, nib >> 2
            if lo == hi or (f.ordered and lo > hi):
                bad[r] = True
                continue
            per = 1 if f.bits == 8 else 2
            for n, pos in enumerate((lo, hi)):
                for q in range(per):
                    Ad[r][j * f.chunk + pos * per + q] = Ac[r][j * 2 * per + n * per + q]
                    kept[r].add(j * f.chunk + pos * per + q)
    D = [[None] * 32 for _ in range(4)]
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for i in range(4):
            r, c = g + 8 * (i >> 1), 2 * t + (i & 1)
            if bad[r] or any((k, c) in Bu for k in kept[r]):
                continue
            s = Cm[r][c] + sum(Ad[r][k] * Bm[k][c] for k in range(K))
            if f.sat:
                s = max(-2**31, min(2**31 - 1, s))
            D[i][lane] = s & 0xFFFFFFFF
    return D


def meta_words(f, invalid=()):
    """Every lane's metadata: valid nibbles where the form reads them, random bits elsewhere;
    invalid: (row, chunk, nibble) to plant."""
    E = [random.getrandbits(32) for _ in range(32)]
    pool = ORDERED if f.ordered else VALID
    for r in range(16):
        for j in range(f.nibbles):
            lane, bit = f.meta_at(r, j)
            E[lane] = E[lane] & ~(0xF << bit) | random.choice(pool) << bit
    for r, j, nib in invalid:
        lane, bit = f.meta_at(r, j)
        E[lane] = E[lane] & ~(0xF << bit) | nib << bit
    return E


def words(n):
    return [[random.getrandbits(32) for _ in range(32)] for _ in range(n)]


def big_c():
    return [[random.choice([0x7FFFFF00 + random.getrandbits(8), 0x80000000 + random.getrandbits(8),
                            random.getrandbits(32)]) for _ in range(32)] for _ in range(4)]


def write_case(name, comment, steps, undef_lanes=None):
    """steps: [(form, A, B, C, E, Eundef)]. Input slots: A, B, C, e of each step in turn; the
    metadata register of a step whose Eundef is not all zero is built in the kernel from a
    defined word and, in the lanes given by undef_lanes, an undefined one (see the .ptx)."""
    slots, outs, lines, decl = [], [], [], []
    reg = 0
    body = []
    for f, A, B, C, E, Eundef, Bundef in steps:
        def take(ws):
            nonlocal reg
            names = []
            for w in ws:
                slots.append(w)
                names.append(f"%r{reg}")
                body.append(f"    ld.global.b32 %r{reg}, [%bi+{128 * (len(slots) - 1)}];")
                reg += 1
            return names
        a, b, c = take(A), take(B), take(C)
        for n, mask in enumerate(Bundef or []):
            if any(mask):                # b = (b & ~mask) | (undefined & mask)
                mreg = take([mask])[0]
                body.append(f"    and.b32 %u1, %u0, {mreg};")
                body.append(f"    not.b32 {mreg}, {mreg};")
                body.append(f"    and.b32 {b[n]}, {b[n]}, {mreg};")
                body.append(f"    or.b32 {b[n]}, {b[n]}, %u1;")
        e = take([E])[0]
        if any(Eundef):
            mask = Eundef[:]
            # lanes whose metadata has undefined bits: e = (e & ~mask) | (undefined & mask)
            mreg = take([mask])[0]
            body.append(f"    and.b32 %u1, %u0, {mreg};")
            body.append(f"    not.b32 {mreg}, {mreg};")
            body.append(f"    and.b32 {e}, {e}, {mreg};")
            body.append(f"    or.b32 {e}, {e}, %u1;")
        d = []
        for i in range(4):
            d.append(f"%d{len(outs) * 4 + i}")
        body.append(f"    {f.mnemonic()} {{{', '.join(d)}}}, {{{', '.join(a)}}}, {{{', '.join(b)}}}, "
                    f"{{{', '.join(c)}}}, {e}, {f.sel};")
        outs.append((d, model(f, A, B, C, E, Eundef, Bundef)))
    for n, (d, _) in enumerate(outs):
        for i, r in enumerate(d):
            body.append(f"    st.global.b32 [%bo+{128 * (4 * n + i)}], {r};")
    ptx = ["// " + line for line in comment.strip().splitlines()]
    ptx += [".version 8.5", ".target sm_90", ".address_size 64", "",
            ".visible .entry k(.param .u64 p_i32, .param .u64 p_o32)", "{",
            f"    .reg .b32 %r<{reg}>;", f"    .reg .b32 %d<{4 * len(outs)}>;", "    .reg .b32 %u<2>;",
            "    .reg .u64 %bi, %bo, %off;", "    .reg .u32 %lane;",
            "    mov.u32 %lane, %tid.x;", "    mul.wide.u32 %off, %lane, 4;",
            "    ld.param.u64 %bi, [p_i32];", "    cvta.to.global.u64 %bi, %bi;", "    add.s64 %bi, %bi, %off;",
            "    ld.param.u64 %bo, [p_o32];", "    cvta.to.global.u64 %bo, %bo;", "    add.s64 %bo, %bo, %off;"]
    ptx += body + ["    ret;", "}"]
    open(os.path.join(OUT, name + ".ptx"), "w").write("\n".join(ptx) + "\n")
    h = lambda v: "0x%08x" % v
    data = [h(v) for s in slots for v in s]
    count = 128 * len(outs)
    json.dump({"block": [32, 1, 1], "grid": [1, 1, 1],
               "buffers": {"i32": {"type": "b32", "data": data}, "o32": {"type": "b32", "count": count}},
               "params": ["@i32", "@o32"]}, open(os.path.join(OUT, name + ".lanes.json"), "w"))
    expect = [("0x????????" if v is None else h(v)) for _, D in outs for reg_words in D for v in reg_words]
    json.dump({"buffers": {"o32": expect}}, open(os.path.join(OUT, name + ".expect.json"), "w"))


def step(f, C=None, invalid=(), undef=None, bundef=None):
    return (f, words(f.a_regs), words(f.b_regs), C or words(4), meta_words(f, invalid), undef or [0] * 32, bundef)


write_case("mma_sp_8bit", """
mma_sp_8bit: sparse mma with 8-bit A and B (exec/mmasp.c). m16n8k32 .s32.s8.s8.s32 with the
sparsity selector 0 (threads T0, T1 of each group of four give the metadata) and 1 (T2, T3),
.satfinite .s32.u8.s8.s32 with C near both ends of the s32 range, plain mma.sp m16n8k64
.s32.u8.u8.s32 whose metadata has indices in either order (only ::ordered_metadata needs the
first below the second), and ::ordered_metadata m16n8k64 .s32.s8.u8.s32. Lanes whose metadata
the selector does not pick hold random bits. Input slot s of lane l is i32[s*32+l]; D register
s of lane l goes to o32[s*32+l]. Expected values: mma_sp.py, a model written from the ISA's text.
""", [step(Form("a", 32, "s8", "s8", 0)), step(Form("b", 32, "s8", "s8", 1)),
      step(Form("c", 32, "u8", "s8", 1, sat=True), C=big_c()),
      step(Form("d", 64, "u8", "u8", 0, ordered=False)), step(Form("e", 64, "s8", "u8", 0))])

write_case("mma_sp_4bit", """
mma_sp_4bit: sparse mma with 4-bit A and B (exec/mmasp.c): A is 4:8 sparse in pairs, each
metadata index naming a pair of elements. m16n8k64 .s32.s4.s4.s32 with selectors 0 and 1,
.satfinite .s32.u4.s4.s32 m16n8k64 with C near both ends of the s32 range, m16n8k128
.s32.u4.s4.s32 (all four threads of a group give metadata) and plain mma.sp m16n8k128
.s32.s4.u4.s32 with indices in either order. Input slot s of lane l is i32[s*32+l]; D register
s of lane l goes to o32[s*32+l]. Expected values: mma_sp.py, a model written from the ISA's text.
""", [step(Form("a", 64, "s4", "s4", 0)), step(Form("b", 64, "s4", "s4", 1)),
      step(Form("c", 64, "u4", "s4", 0, sat=True), C=big_c()),
      step(Form("d", 128, "u4", "s4", 0)), step(Form("e", 128, "s4", "u4", 0, ordered=False))])

# Undefined metadata: an index pair the ISA calls undefined (equal indices; for ::ordered_metadata
# a decreasing pair) in a few rows, and undefined bits in the metadata of a lane the selector picks
# (its rows undefined) and of one it does not (no effect).
f1 = Form("u1", 32, "s8", "s8", 1)
f2 = Form("u2", 64, "s4", "u4", 0, ordered=False)
f3 = Form("u3", 32, "s8", "u8", 0)
undef = [0] * 32
undef[4 * 5 + 0] = 0x000F0000          # selector 0 picks lanes 4g, 4g+1: row 13's first chunks
undef[4 * 2 + 3] = 0xFFFFFFFF          # lane 11 is not picked: no effect
f4 = Form("u4", 32, "s8", "s8", 0)
bundef = [[0] * 32 for _ in range(f4.b_regs)]
bundef[0][4 * 3 + 1] = 0x0000FF00      # B row 5 (lane 13's b1), column 3: undefined
bundef[1][4 * 6 + 2] = 0xFF000000      # B row 27 (lane 26's b7), column 6: undefined
write_case("mma_sp_undefined", """
mma_sp_undefined: sparse mma whose metadata the ISA leaves undefined makes the rows of D it
describes undefined (exec/mmasp.c, docs/semantics.md). ::ordered_metadata m16n8k32 (selector 1)
with 0b0101 (equal indices) in row 3 and 0b0001 (decreasing: undefined for ::ordered_metadata)
in row 12; plain mma.sp m16n8k64 .s4.u4 with 0b0001 (defined there) in row 2 and 0b1111 in row 9;
::ordered_metadata m16n8k32 .s8.u8 (selector 0) whose metadata has undefined bits in lane 20
(row 13) and in lane 11, which the selector does not pick; ::ordered_metadata m16n8k32 .s8.s8
with an undefined element of B in rows 5 and 27: a D element is undefined only where its row of A
keeps that row of B (the others never reach a product). The undefined bits come from an
uninitialised register (%u0). Expected values: mma_sp.py.
""", [step(f1, invalid=[(3, 2, 0x5), (12, 7, 0x1)]), step(f2, invalid=[(2, 1, 0x1), (9, 6, 0xF)]),
      step(f3, undef=undef), step(f4, bundef=bundef)])
