#!/usr/bin/env python3
"""A reviewer's differential check of wmma (written from the PTX ISA's text, apart from exec/wmma*.c).

Each case: random A, B, C matrices in memory (every shape, type, layout, stride of mma.h), one
wmma.load.a/b/c, wmma.mma, wmma.store.d, run by ptxrun. D in memory is compared with
  - integers (s8/u8, s4/u4, b1 .xor/.and.popc, .satfinite) and f64 (an fma chain in k order by exact
    fractions): a Python model of D = A*B + C;
  - f16/bf16/tf32: the same D computed by ptxrun's mma.sync (checked on its own against the H100
    recordings), each element of D through an m16n8k16 (m16n8k8 for tf32) tile placed by the ISA's
    fragment figures, for random and rounding-sensitive inputs: a wmma.mma must give mma.sync's bits.
Bytes of D's buffer outside the stored matrix must keep their values.

    python3 tests/wmma/fuzz_wmma.py [N_PER_FORM] [SEED]     (exit 1 on a difference)
"""
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
PTXRUN = os.environ.get("PTXRUN", os.path.join(HERE, "..", "..", "build", "ptxrun"))

BITS = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "f64": 64, "s8": 8, "u8": 8, "s4": 4, "u4": 4,
        "b1": 1, "s32": 32}


def forms():
    """(shape, atype, ctype, dtype, op) of every mma.h combination."""
    out = []
    for sh in ("m16n16k16", "m32n8k16", "m8n32k16"):
        for c in ("f16", "f32"):
            for d in ("f16", "f32"):
                out.append((sh, "f16", c, d, ""))
        out.append((sh, "bf16", "f32", "f32", ""))
        for t in ("s8", "u8"):
            out.append((sh, t, "s32", "s32", ""))
            out.append((sh, t, "s32", "s32", "satfinite"))
    out.append(("m16n16k8", "tf32", "f32", "f32", ""))
    out.append(("m8n8k4", "f64", "f64", "f64", ""))
    for t in ("s4", "u4"):
        out.append(("m8n8k32", t, "s32", "s32", ""))
        out.append(("m8n8k32", t, "s32", "s32", "satfinite"))
    out.append(("m8n8k128", "b1", "s32", "s32", "xor.popc"))
    out.append(("m8n8k128", "b1", "s32", "s32", "and.popc"))
    return out


def dims(sh):
    m = int(sh[1:sh.index("n")])
    n = int(sh[sh.index("n") + 1:sh.index("k")])
    k = int(sh[sh.index("k") + 1:])
    return m, n, k


def nregs(sh, t, which):
    """Fragment registers (from the ISA's wmma.load table)."""
    m, n, k = dims(sh)
    if which == "c":
        if t == "f16":
            return 4
        if t == "f64":
            return 2
        return m * n // 32
    if t == "f16":
        return 8
    if t == "f64":
        return 1
    elems = m * k if which == "a" else k * n
    return elems * BITS[t] // 32 // 32


# ---------------------------------------------------------------- numbers
def f16_val(b):
    s = -1 if b >> 15 else 1
    e = (b >> 10) & 31
    f = b & 1023
    if e == 31:
        return None
    if e == 0:
        return s * Fraction(f, 1 << 24)
    return s * Fraction(1024 + f, 1 << 10) * Fraction(2) ** (e - 15)


def f32_val(b):
    return Fraction(struct.unpack("<f", struct.pack("<I", b))[0])


def f64_val(b):
    return Fraction(struct.unpack("<d", struct.pack("<Q", b))[0])


def to_f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", float(x)))[0]


def rand_elem(t, flavor, rng):
    if t in ("s8", "u8", "s4", "u4", "b1"):
        return rng.getrandbits(BITS[t])
    if t == "s32":
        if flavor == "big":
            return rng.choice([0x7FFFFF00, 0x80000010, rng.getrandbits(32)])
        return rng.getrandbits(32)
    if flavor == "int":
        v = rng.randint(-8, 8)
        if t == "f16":
            return struct.unpack("<H", struct.pack("<e", float(v)))[0]
        if t == "bf16":
            return struct.unpack("<I", struct.pack("<f", float(v)))[0] >> 16
        if t in ("f32", "tf32"):
            return struct.unpack("<I", struct.pack("<f", float(v)))[0]
        return struct.unpack("<Q", struct.pack("<d", float(v)))[0]
    if flavor == "special" and rng.random() < 0.3 and t in ("f16", "bf16", "tf32", "f32"):
        w = {"f16": (5, 10), "bf16": (8, 7), "tf32": (8, 10), "f32": (8, 23), "f64": (11, 52)}[t]
        e, m = w
        kind = rng.choice(["zero", "sub", "inf", "nan", "max"])
        frac = {"zero": 0, "sub": rng.getrandbits(m) | 1, "inf": 0, "nan": rng.getrandbits(m) | 1 << (m - 1),
                "max": (1 << m) - 1}[kind]
        ex = {"zero": 0, "sub": 0, "inf": (1 << e) - 1, "nan": (1 << e) - 1, "max": (1 << e) - 2}[kind]
        v = (rng.getrandbits(1) << (e + m)) | (ex << m) | frac
        return v << 13 if t == "tf32" else v
    # random normal numbers over a few binades (rounding-sensitive)
    if t == "f16":
        return (rng.getrandbits(1) << 15) | (rng.randint(10, 20) << 10) | rng.getrandbits(10)
    if t == "bf16":
        return (rng.getrandbits(1) << 15) | (rng.randint(120, 134) << 7) | rng.getrandbits(7)
    if t == "tf32":
        return (rng.getrandbits(1) << 31) | (rng.randint(120, 134) << 23) | (rng.getrandbits(10) << 13)
    if t == "f32":
        return (rng.getrandbits(1) << 31) | (rng.randint(118, 136) << 23) | rng.getrandbits(23)
    if t == "f64":
        return (rng.getrandbits(1) << 63) | (rng.randint(1013, 1033) << 52) | rng.getrandbits(52)
    raise ValueError(t)


# ---------------------------------------------------------------- memory
class Mem:
    def __init__(self, nbytes, rng):
        self.b = bytearray(rng.getrandbits(8) for _ in range(nbytes))

    def put(self, bitoff, width, v):
        for i in range(width):
            bit = bitoff + i
            if (v >> i) & 1:
                self.b[bit // 8] |= 1 << (bit % 8)
            else:
                self.b[bit // 8] &= ~(1 << (bit % 8)) & 0xFF

    def get(self, bitoff, width):
        v = 0
        for i in range(width):
            bit = bitoff + i
            v |= ((self.b[bit // 8] >> (bit % 8)) & 1) << i
        return v

    def words(self):
        return ["0x%08x" % struct.unpack_from("<I", self.b, i)[0] for i in range(0, len(self.b), 4)]


def place(rows, cols, layout, ld, start, width):
    """bit offset of each (r, c): ld in elements (ISA: stride in elements)."""
    return {(r, c): start * 8 + ((r * ld + c) if layout == "row" else (c * ld + r)) * width
            for r in range(rows) for c in range(cols)}


def pick_ld(rows, cols, layout, width, rng, frag=16):
    minimal = cols if layout == "row" else rows
    unit = max(1, min(frag, 16) * 8 // width)    # the fragment's bytes (16 at most) in elements
    lo = -(-minimal // unit) * unit
    return lo + unit * rng.choice([0, 0, 1, 3])


# ---------------------------------------------------------------- model
def sat32(v, sat):
    if sat:
        return max(-2 ** 31, min(2 ** 31 - 1, v))
    return ((v + 2 ** 31) % 2 ** 32) - 2 ** 31


def sval(t, v):
    w = BITS[t]
    if t in ("s8", "s4", "s32") and v >> (w - 1):
        return v - (1 << w)
    return v


def model_int(A, B, C, m, n, k, at, op):
    D = {}
    for i in range(m):
        for j in range(n):
            if at == "b1":
                s = sum((A[i, x] ^ B[x, j]) if op.startswith("xor") else (A[i, x] & B[x, j]) for x in range(k))
                D[i, j] = sat32(sval("s32", C[i, j]) + s, False) & 0xFFFFFFFF
            else:
                s = sum(sval(at, A[i, x]) * sval(at, B[x, j]) for x in range(k))
                D[i, j] = sat32(sval("s32", C[i, j]) + s, op == "satfinite") & 0xFFFFFFFF
    return D


def model_f64(A, B, C, m, n, k):
    D = {}
    for i in range(m):
        for j in range(n):
            acc = f64_val(C[i, j])
            for x in range(k):
                acc = Fraction(float(f64_val(A[i, x]) * f64_val(B[x, j]) + acc))
            D[i, j] = to_f64_bits(acc)
    return D


# ---------------------------------------------------------------- PTX
HEAD = """.version 8.7
.target sm_90
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
{
    .reg .b32 %r<200>;
    .reg .f64 %x<20>;
    .reg .f32 %f<200>;
    .reg .b16 %h<10>;
    .reg .u64 %a, %b, %c, %d, %off;
    .reg .u32 %lane;
    mov.u32 %lane, %tid.x;
    ld.param.u64 %a, [pa];
    ld.param.u64 %b, [pb];
    ld.param.u64 %c, [pc];
    ld.param.u64 %d, [pd];
    cvta.to.global.u64 %a, %a;
    cvta.to.global.u64 %b, %b;
    cvta.to.global.u64 %c, %c;
    cvta.to.global.u64 %d, %d;
"""


def regs(prefix, base, count):
    return "{" + ", ".join("%%%s%d" % (prefix, base + i) for i in range(count)) + "}"


def wmma_ptx(f, lay, lds, starts):
    sh, at, ct, dt, op = f
    al, bl, cl, dl = lay
    rp = "x" if at == "f64" else "r"
    na, nb, nc, nd = nregs(sh, at, "a"), nregs(sh, at, "b"), nregs(sh, ct, "c"), nregs(sh, dt, "c")
    ra, rb, rc, rd = regs(rp, 0, na), regs(rp, 8 if rp == "x" else 20, nb), regs(rp, 10 if rp == "x" else 40, nc), \
        regs(rp, 14 if rp == "x" else 60, nd)
    ldt = {"f16": "f16", "bf16": "bf16", "tf32": "tf32", "f64": "f64", "s8": "s8", "u8": "u8", "s4": "s4",
           "u4": "u4", "b1": "b1"}[at]
    s = HEAD
    s += "    wmma.load.a.sync.aligned.%s.%s.global.%s %s, [%%a+%d], %d;\n" % (al, sh, ldt, ra, starts[0], lds[0])
    s += "    wmma.load.b.sync.aligned.%s.%s.global.%s %s, [%%b+%d], %d;\n" % (bl, sh, ldt, rb, starts[1], lds[1])
    s += "    wmma.load.c.sync.aligned.%s.%s.global.%s %s, [%%c+%d], %d;\n" % (cl, sh, ct, rc, starts[2], lds[2])
    if at in ("f16",):
        types = "%s.%s" % (dt, ct)
    else:
        types = "%s.%s.%s.%s" % (dt, at, at, ct)
    opq = "" if not op or op == "satfinite" else "." + op
    sat = ".satfinite" if op == "satfinite" else ""
    s += "    wmma.mma%s.sync.aligned.%s.%s.%s.%s%s %s, %s, %s, %s;\n" % (opq, al, bl, sh, types, sat, rd, ra, rb, rc)
    s += "    wmma.store.d.sync.aligned.%s.%s.global.%s [%%d+%d], %s, %d;\n" % (dl, sh, dt, starts[3], rd, lds[3])
    s += "    ret;\n}\n"
    return s


def run(ptx, bufs, tmp, name):
    p = os.path.join(tmp, name + ".ptx")
    open(p, "w").write(ptx)
    lanes = {"block": [32, 1, 1], "grid": [1, 1, 1], "params": ["@" + k for k in bufs],
             "buffers": {k: {"type": "b32", "data": v} for k, v in bufs.items()}}
    lp = os.path.join(tmp, name + ".lanes.json")
    json.dump(lanes, open(lp, "w"))
    r = subprocess.run([PTXRUN, "--json", "--lanes", lp, p], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr
    j = json.loads(r.stdout)
    return {k: v["data"] for k, v in j["buffers"].items()}, r.stderr


# ---- mma.sync reference for the float forms: every D element through an m16n8 tile
def frag_a(kk, lane, i, tf32):
    g, t = lane >> 2, lane & 3
    if tf32:      # m16n8k8 tf32
        return g + 8 * (i & 1), t + 4 * (i >> 1)
    return g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)


def frag_b(kk, lane, i, tf32):
    g, t = lane >> 2, lane & 3
    if tf32:
        return t + 4 * i, g
    return 2 * t + (i & 1) + 8 * (i >> 1), g


def frag_c(lane, i):
    g, t = lane >> 2, lane & 3
    return g + 8 * (i >> 1), 2 * t + (i & 1)


def float_ref(f, A, B, C, tmp):
    """D of every element computed by ptxrun's mma.sync (the ISA's fragments, placed by this script)."""
    sh, at, ct, dt, op = f
    m, n, k = dims(sh)
    tf32 = at == "tf32"
    mt, nt = -(-m // 16), -(-n // 8)
    tiles = [(ti, tj) for ti in range(mt) for tj in range(nt)]
    na = 4
    nb = 2
    ebits = 32 if tf32 else 16
    zero = 0
    # per tile, per lane registers
    FA, FB, FC = [], [], []
    for (ti, tj) in tiles:
        for r in range(na):
            for lane in range(32):
                v = 0
                per = 32 // ebits
                for h in range(per):
                    i = r * per + h
                    row, col = frag_a(k, lane, i, tf32)
                    row += 16 * ti
                    e = A.get((row, col), zero) if row < m else zero
                    v |= e << (h * ebits)
                FA.append("0x%08x" % v)
        for r in range(nb):
            for lane in range(32):
                v = 0
                per = 32 // ebits
                for h in range(per):
                    i = r * per + h
                    row, col = frag_b(k, lane, i, tf32)
                    col += 8 * tj
                    e = B.get((row, col), zero) if col < n else zero
                    v |= e << (h * ebits)
                FB.append("0x%08x" % v)
        for i in range(4):
            for lane in range(32):
                row, col = frag_c(lane, i)
                row += 16 * ti
                col += 8 * tj
                e = C.get((row, col), 0) if row < m and col < n else 0
                FC.append("0x%08x" % e)
    body = HEAD.replace(".param .u64 pd)", ".param .u64 pd)")
    body += "    mul.wide.u32 %off, %lane, 4;\n    add.s64 %a, %a, %off;\n    add.s64 %b, %b, %off;\n" \
            "    add.s64 %c, %c, %off;\n    add.s64 %d, %d, %off;\n"
    kind = "m16n8k8" if tf32 else "m16n8k16"
    for ti, _ in enumerate(tiles):
        for r in range(na):
            body += "    ld.global.b32 %%r%d, [%%a+%d];\n" % (r, (ti * na + r) * 128)
        for r in range(nb):
            body += "    ld.global.b32 %%r%d, [%%b+%d];\n" % (4 + r, (ti * nb + r) * 128)
        for r in range(4):
            body += "    ld.global.b32 %%f%d, [%%c+%d];\n" % (r, (ti * 4 + r) * 128)
        if ct == "f16":     # C converted exactly to f32 (the author's reading of ptxas: checked apart)
            for r in range(4):
                body += "    mov.b32 %%r%d, %%f%d;\n    cvt.u16.u32 %%h0, %%r%d;\n    cvt.f32.f16 %%f%d, %%h0;\n" \
                        % (10, r, 10, r)
        src = {"f16": "f16.f16", "bf16": "bf16.bf16", "tf32": "tf32.tf32"}[at]
        if dt == "f16" and ct == "f16":
            body += "    cvt.rn.f16x2.f32 %r12, %f1, %f0;\n    cvt.rn.f16x2.f32 %r13, %f3, %f2;\n"
            body += "    mma.sync.aligned.%s.row.col.f16.%s.f16 {%%r14, %%r15}, {%%r0, %%r1, %%r2, %%r3}, " \
                    "{%%r4, %%r5}, {%%r12, %%r13};\n" % (kind, src)
            body += "    mov.b32 {%h0, %h1}, %r14;\n    mov.b32 {%h2, %h3}, %r15;\n"
            for r in range(4):
                body += "    cvt.u32.u16 %%r%d, %%h%d;\n    mov.b32 %%f%d, %%r%d;\n" % (20 + r, r, 10 + r, 20 + r)
        else:
            body += "    mma.sync.aligned.%s.row.col.f32.%s.f32 {%%f10, %%f11, %%f12, %%f13}, {%%r0, %%r1, %%r2, %%r3}, " \
                    "{%%r4, %%r5}, {%%f0, %%f1, %%f2, %%f3};\n" % (kind, src)
            if dt == "f16":
                for r in range(4):
                    body += "    cvt.rn.f16.f32 %%h%d, %%f%d;\n    cvt.u32.u16 %%r%d, %%h%d;\n    mov.b32 %%f%d, %%r%d;\n" \
                            % (r, 10 + r, 20 + r, r, 10 + r, 20 + r)
        for r in range(4):
            body += "    st.global.b32 [%%d+%d], %%f%d;\n" % ((ti * 4 + r) * 128, 10 + r)
    body += "    ret;\n}\n"
    # C of f16 type: the tile's register holds the f16 in its low half (cvt'd above)
    bufs = {"A": FA, "B": FB, "C": FC, "D": ["0x0"] * (len(tiles) * 4 * 32)}
    got, err = run(body, bufs, tmp, "ref")
    if got is None:
        raise SystemExit("reference mma.sync failed: " + err)
    D = {}
    for ti, (a, b) in enumerate(tiles):
        for i in range(4):
            for lane in range(32):
                row, col = frag_c(lane, i)
                row += 16 * a
                col += 8 * b
                if row < m and col < n:
                    D[row, col] = int(got["D"][(ti * 4 + i) * 32 + lane], 16)
    return D


def one_case(f, rng, flavor, tmp):
    sh, at, ct, dt, op = f
    m, n, k = dims(sh)
    fixed = at in ("s4", "u4", "b1")
    lay = [("row" if fixed else rng.choice(["row", "col"])), ("col" if fixed else rng.choice(["row", "col"])),
           rng.choice(["row", "col"]), rng.choice(["row", "col"])]
    aw, cw, dw = BITS[at], BITS[ct], BITS[dt]
    # starts and strides: multiples of the fragment's bytes (the PTX ISA's alignment), 16 at most
    # (32-byte fragments 16 bytes off ran on the H100: a warning)
    frags = [nregs(sh, at, "a") * (8 if at == "f64" else 4), nregs(sh, at, "b") * (8 if at == "f64" else 4),
             nregs(sh, ct, "c") * (8 if ct == "f64" else 4), nregs(sh, dt, "c") * (8 if dt == "f64" else 4)]
    starts = [min(fb, 16) * rng.randint(0, 6) for fb in frags]
    lds = [pick_ld(m, k, lay[0], aw, rng, frags[0]), pick_ld(k, n, lay[1], aw, rng, frags[1]),
           pick_ld(m, n, lay[2], cw, rng, frags[2]), pick_ld(m, n, lay[3], dw, rng, frags[3])]
    mats = [(m, k, aw), (k, n, aw), (m, n, cw), (m, n, dw)]
    mems, places = [], []
    for idx, (rr, cc, w) in enumerate(mats):
        pl = place(rr, cc, lay[idx], lds[idx], starts[idx], w)
        nbytes = max(pl.values()) // 8 + 64
        nbytes = -(-nbytes // 4) * 4
        mems.append(Mem(nbytes, rng))
        places.append(pl)
    A = {p: rand_elem(at, flavor, rng) for p in places[0]}
    B = {p: rand_elem(at, flavor, rng) for p in places[1]}
    C = {p: rand_elem(ct, "big" if ct == "s32" and flavor != "int" else flavor, rng) for p in places[2]}
    for mat, mem, pl, w in ((A, mems[0], places[0], aw), (B, mems[1], places[1], aw), (C, mems[2], places[2], cw)):
        for p, v in mat.items():
            mem.put(pl[p], w, v)
    before = bytes(mems[3].b)
    ptx = wmma_ptx(f, lay, lds, starts)
    got, err = run(ptx, {"A": mems[0].words(), "B": mems[1].words(), "C": mems[2].words(), "D": mems[3].words()},
                   tmp, "w")
    desc = "%s %s lay=%s ld=%s start=%s %s" % (" ".join(x for x in f if x), flavor, lay, lds, starts, "")
    if got is None:
        return "%s: ptxrun failed: %s" % (desc, err.strip()[:400])
    if at in ("s8", "u8", "s4", "u4", "b1"):
        ref = model_int(A, B, C, m, n, k, at, op)
    elif at == "f64":
        ref = model_f64(A, B, C, m, n, k)
    else:
        ref = float_ref(f, A, B, C, tmp)
        if flavor == "int":   # exact: also the plain product
            for (i, j), v in ref.items():
                exact = sum((f16_val(A[i, x]) if at == "f16" else f32_val(A[i, x] << 16 if at == "bf16" else A[i, x]))
                            * (f16_val(B[x, j]) if at == "f16" else f32_val(B[x, j] << 16 if at == "bf16" else B[x, j]))
                            for x in range(k)) + (f16_val(C[i, j]) if ct == "f16" else f32_val(C[i, j]))
                gotv = f16_val(v) if dt == "f16" else f32_val(v)
                if gotv != exact:
                    return "%s: mma.sync reference %s != exact %s at %s" % (desc, gotv, exact, (i, j))
    dmem = Mem(0, rng)
    dmem.b = bytearray(b"".join(struct.pack("<I", int(w, 16)) for w in got["D"]))
    expect = bytearray(before)
    em = Mem(0, rng)
    em.b = expect
    for p, bit in places[3].items():
        em.put(bit, dw, ref[p])
    if bytes(em.b) != bytes(dmem.b):
        bad = [p for p, bit in places[3].items() if dmem.get(bit, dw) != ref[p]]
        if bad:
            p = bad[0]
            return "%s: D%s got 0x%x expected 0x%x (%d elements differ)" % (
                desc, p, dmem.get(places[3][p], dw), ref[p], len(bad))
        return "%s: bytes outside D changed" % desc
    return None


def main():
    nper = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    only = sys.argv[3] if len(sys.argv) > 3 else None
    rng = random.Random(seed)
    fails = 0
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in forms():
            if only and only not in " ".join(f):
                continue
            for it in range(nper):
                flavor = ["int", "rand", "special"][it % 3]
                msg = one_case(f, rng, flavor, tmp)
                total += 1
                if msg:
                    fails += 1
                    print("FAIL", msg)
    print("%d cases, %d failed" % (total, fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
