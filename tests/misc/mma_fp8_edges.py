#!/usr/bin/env python3
# mma_fp8_edges.py: writes mma_fp8_edges.ptx, .lanes.json and .expect.json into the folder given
# (default: this one). All 16 fp8 mma forms ptxas takes for sm_90 (m16n8k32, m16n8k16; A, B each
# .e4m3 or .e5m2; C, D both .f32 or both .f16), one each, on edge inputs: each row of A and column of
# B is drawn from one flavour (near the largest finite, with products past f16's range inside the
# f16 HMMA of the .f16 forms; NaN and infinity encodings, e4m3 0x7f/0xff, e5m2 0x7c-0x7f/0xfc-0xff;
# subnormals of both formats; zeros of both signs with C = -0; rows whose second half is the first
# negated, against columns whose halves are equal, so whole sums cancel; plain random bytes).
# The expected D is from the model below, written by the reviewer from ptxas's sm_90 sequence
# (docs/semantics.md, "fp8") apart from exec/mmafp8.c and scripts/mma_fp8_model.py: fp8 -> f16
# exactly; HMMA over k % 4 < 2 from +0, HMMA over k % 4 >= 2 accumulating it (terms aligned to the
# largest exponent sum, cut 25 bits below, summed exactly, rounded to f32 toward zero or f16 to
# nearest); C added by FADD / HADD2 (to nearest). It reproduces ../shared/hw/mma's 11,520 fp8 outputs:
#     python3 tests/misc/mma_fp8_edges.py --hw ../shared/hw/mma
import json, math, os, random, struct, sys
from fractions import Fraction as F

NAN, PINF, NINF, NEG0 = "nan", "+inf", "-inf", "-0"

def fp8(bits, kind):
    s = -1 if bits & 0x80 else 1
    if kind == "e4m3":
        e, m = bits >> 3 & 15, bits & 7
        if e == 15 and m == 7:
            return NAN
        v = F(m, 8) * F(2) ** -6 if e == 0 else (1 + F(m, 8)) * F(2) ** (e - 7)
    else:
        e, m = bits >> 2 & 31, bits & 3
        if e == 31:
            return (PINF if s > 0 else NINF) if m == 0 else NAN
        v = F(m, 4) * F(2) ** -14 if e == 0 else (1 + F(m, 4)) * F(2) ** (e - 15)
    return s * v if v else (F(0) if s > 0 else NEG0)

def ilog2(a):
    e = math.floor(math.log2(a))
    while F(2) ** e > a: e -= 1
    while F(2) ** (e + 1) <= a: e += 1
    return e

def val(x): return F(0) if x == NEG0 else x
def is_inf(x): return x in (PINF, NINF)
def sign(x): return (1 if x == PINF else -1) if is_inf(x) else (-1 if x == NEG0 or val(x) < 0 else 1)

def rnd(v, mant, emin, emax, mode):
    """v rounded to a binary format (mant fraction bits, normal exponents emin..emax); past the range: inf."""
    if v == 0:
        return F(0)
    a = abs(v)
    q = F(2) ** (max(ilog2(a), emin) - mant)
    n = a / q
    r = n.numerator // n.denominator
    if mode == "rn" and (n - r > F(1, 2) or (n - r == F(1, 2) and r % 2)):
        r += 1
    res = r * q
    if res > (2 - F(2) ** -mant) * F(2) ** emax:
        return PINF if v > 0 else NINF
    if res == 0:
        return F(0) if v > 0 else NEG0
    return res if v > 0 else -res

def hmma(prods, acc, f16):
    """One f16 HMMA: the products (pairs of fp8 values as f16) and its accumulator."""
    infs = set()
    for a, b in prods:
        if a == NAN or b == NAN:
            return NAN
        if is_inf(a) or is_inf(b):
            if (is_inf(a) and val(b) == 0 and not is_inf(b)) or (is_inf(b) and not is_inf(a) and val(a) == 0):
                return NAN
            infs.add(sign(a) * sign(b))
    if acc == NAN:
        return NAN
    if is_inf(acc):
        infs.add(sign(acc))
    if len(infs) == 2:
        return NAN
    if infs:
        return PINF if 1 in infs else NINF
    terms = [(val(a) * val(b), max(ilog2(abs(val(a))), -14) + max(ilog2(abs(val(b))), -14))
             for a, b in prods if val(a) != 0 and val(b) != 0]
    if val(acc) != 0:
        terms.append((val(acc), max(ilog2(abs(val(acc))), -14 if f16 else -126)))
    if not terms:
        return F(0)
    q = F(2) ** (max(e for _, e in terms) - 25)
    total = F(0)
    for v, _ in terms:
        n = abs(v) / q
        total += (n.numerator // n.denominator) * q * (1 if v > 0 else -1)
    if total == 0:
        return F(0)
    return rnd(total, 10, -14, 15, "rn") if f16 else rnd(total, 23, -126, 127, "rz")

def ieee_add(x, c, f16):
    if x == NAN or c == NAN or (is_inf(x) and is_inf(c) and x != c):
        return NAN
    if is_inf(x) or is_inf(c):
        return x if is_inf(x) else c
    if val(x) == 0 and val(c) == 0:
        return NEG0 if x == NEG0 and c == NEG0 else F(0)
    s = val(x) + val(c)
    if s == 0:
        return F(0)
    return rnd(s, 10, -14, 15, "rn") if f16 else rnd(s, 23, -126, 127, "rn")

def enc(x, f16):
    special = {NAN: (0x7fff, 0x7fffffff), PINF: (0x7c00, 0x7f800000), NINF: (0xfc00, 0xff800000), NEG0: (0x8000, 0x80000000)}
    if x in special:
        return special[x][0 if f16 else 1]
    return struct.unpack("<H", struct.pack("<e", float(x)))[0] if f16 else struct.unpack("<I", struct.pack("<f", float(x)))[0]

def dec_c(bits, f16):
    eb, mb = (5, 10) if f16 else (8, 23)
    s, e, m = bits >> (eb + mb) & 1, bits >> mb & ((1 << eb) - 1), bits & ((1 << mb) - 1)
    bias = (1 << (eb - 1)) - 1
    if e == (1 << eb) - 1:
        return NAN if m else (NINF if s else PINF)
    v = F(m, 1 << mb) * F(2) ** (1 - bias) if e == 0 else (1 + F(m, 1 << mb)) * F(2) ** (e - bias)
    return (NEG0 if s else F(0)) if v == 0 else (-v if s else v)

def element(arow, bcol, cbits, ta, tb, f16):
    """D's bits from a row of A, a column of B (fp8 bytes) and C's bits; also the first HMMA's result."""
    A, B = [fp8(x, ta) for x in arow], [fp8(x, tb) for x in bcol]
    d1 = hmma([(A[k], B[k]) for k in range(len(A)) if k % 4 < 2], F(0), f16)
    d2 = hmma([(A[k], B[k]) for k in range(len(A)) if k % 4 >= 2], d1, f16)
    return enc(ieee_add(d2, dec_c(cbits, f16), f16), f16), d1

FLAVOURS = ("big", "special", "sub", "zero", "cancel", "raw")
SPECIAL = {"e4m3": [0x7f, 0xff, 0x7e, 0xfe, 0x00, 0x80, 0x01, 0x81, 0x07, 0x87, 0x08],
           "e5m2": [0x7c, 0xfc, 0x7d, 0x7e, 0x7f, 0xfd, 0xfe, 0xff, 0x7b, 0xfb, 0x00, 0x80, 0x01, 0x81, 0x03, 0x04]}

def fp8_byte(rng, t, fl):
    sgn = rng.choice((0, 0x80))
    if fl == "big":
        top = [0x7e, 0x7d, 0x7c, 0x7b, 0x77] if t == "e4m3" else [0x7b, 0x7a, 0x79, 0x78, 0x77]
        return (rng.choice(top) if rng.random() < 0.7 else rng.randrange(0x7b)) | sgn
    if fl == "special":
        return rng.choice(SPECIAL[t]) if rng.random() < 0.2 else rng.randrange(256)
    if fl == "sub":
        return rng.randrange(0x10 if t == "e4m3" else 0x04) | sgn
    if fl == "zero":
        return sgn if rng.random() < 0.9 else rng.randrange(0x70) | sgn
    return rng.randrange(0x7b if t == "e5m2" else 0x7e) | sgn      # finite

def c_bits(rng, f16, fl):
    if fl == "zero" or (fl == "cancel" and rng.random() < 0.5):
        return (0x8000 if f16 else 0x80000000) if rng.random() < 0.7 else 0
    if fl == "special" and rng.random() < 0.4:
        return rng.choice([0x7c00, 0xfc00, 0x7e00, 0x7d01, 0x8000, 0x7bff, 0x0001, 0x83ff] if f16 else
                          [0x7f800000, 0xff800000, 0x7fc00000, 0xff800001, 0x80000000, 0x7f7fffff, 0x00000001])
    if fl == "sub" and rng.random() < 0.3:
        return rng.choice((0, 0x8000, 0x8000)) if f16 else rng.choice((0, 1 << 31, 1 << 31))
    if fl == "sub":
        return rng.randrange(0x0800) | rng.choice((0, 0x8000)) if f16 else rng.randrange(0x38000000) | rng.choice((0, 1 << 31))
    if fl == "big":
        return rng.randrange(0x7800, 0x7c00) | rng.choice((0, 0x8000)) if f16 else rng.randrange(0x4f000000, 0x4f800000) | rng.choice((0, 1 << 31))
    return rng.randrange(0x10000) if f16 else rng.randrange(1 << 24) | rng.randrange(0x70, 0x90) << 23 | rng.choice((0, 1 << 31))

def form_case(rng, k, cd, ta, tb, stats):
    """One form's input registers (slots of 32 lanes) and D registers, by the ISA's fragment figures."""
    f16 = cd == "f16"
    na, nb, nc = k // 8, k // 16, 2 if f16 else 4
    A = [[fp8_byte(rng, ta, FLAVOURS[r % 6]) for _ in range(k)] for r in range(16)]
    B = [[fp8_byte(rng, tb, FLAVOURS[c % 6]) for c in range(8)] for _ in range(k)]
    for r in range(16):
        if FLAVOURS[r % 6] == "cancel":
            A[r][k // 2:] = [x ^ 0x80 for x in A[r][:k // 2]]
    for c in range(8):
        if FLAVOURS[c % 6] == "cancel":
            for kk in range(k // 2):
                B[kk + k // 2][c] = B[kk][c]
    C = [[c_bits(rng, f16, FLAVOURS[(r + c) % 6]) for c in range(8)] for r in range(16)]
    for r in range(16):           # tiny or zero sums meet C = -0 (+0 + -0 is +0; -0 only from an f16 HMMA)
        for c in range(8):
            if FLAVOURS[r % 6] == FLAVOURS[c % 6] and FLAVOURS[c % 6] in ("sub", "zero"):
                C[r][c] = 0x8000 if f16 else 0x80000000
    D = [[0] * 8 for _ in range(16)]
    for r in range(16):
        for c in range(8):
            D[r][c], d1 = element(A[r], [B[kk][c] for kk in range(k)], C[r][c], ta, tb, f16)
            nanb, infb, negz = (0x7fff, 0x7c00, 0x8000) if f16 else (0x7fffffff, 0x7f800000, 0x80000000)
            stats["NaN"] += D[r][c] == nanb
            stats["inf"] += D[r][c] & ~negz == infb
            stats["-0"] += D[r][c] == negz
            stats["+0"] += D[r][c] == 0
            stats["first HMMA past f16"] += f16 and is_inf(d1)
    regs = [[0] * 32 for _ in range(na + nb + nc)]
    out = [[0] * 32 for _ in range(nc)]
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for i in range(4 * na):   # a_i: row g + 8*((i>>2)&1) (k16: 8*(i>>2)), col 4t + (i&3) + 16*(i>>3)
            r, c = (g + 8 * ((i >> 2) & 1), 4 * t + (i & 3) + 16 * (i >> 3)) if k == 32 else (g + 8 * (i >> 2), 4 * t + (i & 3))
            regs[i // 4][lane] |= A[r][c] << 8 * (i % 4)
        for i in range(4 * nb):   # b_i: row 4t + (i&3) + 16*(i>>2), col g
            regs[na + i // 4][lane] |= B[4 * t + (i & 3) + 16 * (i >> 2)][g] << 8 * (i % 4)
        for i in range(4):        # c_i: row g + 8*(i>>1), col 2t + (i&1); f16: two per register
            r, c = g + 8 * (i >> 1), 2 * t + (i & 1)
            if f16:
                regs[na + nb + i // 2][lane] |= C[r][c] << 16 * (i % 2)
                out[i // 2][lane] |= D[r][c] << 16 * (i % 2)
            else:
                regs[na + nb + i][lane], out[i][lane] = C[r][c], D[r][c]
    return regs, out, (na, nb, nc)

def check_hw(folder):
    """This model on the recorded fp8 programs (each step on its own: C is the recorded C)."""
    import glob
    for kind in ("e4m3", "e5m2"):
        ok = total = 0
        for meta_file in sorted(glob.glob(os.path.join(folder, "mma_f32_%s_k32_*.meta.json" % kind))):
            meta, base = json.load(open(meta_file)), meta_file[:-len(".meta.json")]
            i32 = [int(x, 16) for x in json.load(open(base + ".lanes.json"))["buffers"]["i32"]["data"]]
            o32 = [int(x, 16) for x in json.load(open(base + ".expect.json"))["buffers"]["o32"]]
            word = lambda reg, lane: i32[meta["inputs"][reg][1] * 32 + lane] if reg in meta["inputs"] else o32[meta["slots"][reg][1] * 32 + lane]
            for st in meta["steps"]:
                A, B, C, D = [[0] * 32 for _ in range(16)], [[0] * 8 for _ in range(32)], [[0] * 8 for _ in range(16)], [[0] * 8 for _ in range(16)]
                for lane in range(32):
                    g, t = lane >> 2, lane & 3
                    for i in range(16):
                        A[g + 8 * ((i >> 2) & 1)][4 * t + (i & 3) + 16 * (i >> 3)] = word(st["A"][i // 4], lane) >> 8 * (i % 4) & 0xff
                    for i in range(8):
                        B[4 * t + (i & 3) + 16 * (i >> 2)][g] = word(st["B"][i // 4], lane) >> 8 * (i % 4) & 0xff
                    for i in range(4):
                        C[g + 8 * (i >> 1)][2 * t + (i & 1)] = word(st["C"][i], lane)
                        D[g + 8 * (i >> 1)][2 * t + (i & 1)] = word(st["D"][i], lane)
                for r in range(16):
                    for c in range(8):
                        total += 1
                        ok += element(A[r], [B[k][c] for k in range(32)], C[r][c], kind, kind, False)[0] == D[r][c]
        print(kind, ok, "/", total)

def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--hw":
        return check_hw(sys.argv[2])
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = random.Random(20261129)
    stats = dict.fromkeys(("NaN", "inf", "-0", "+0", "first HMMA past f16"), 0)
    slots, outs, body = [], [], []
    for k in (32, 16):
        for cd in ("f32", "f16"):
            for ta in ("e4m3", "e5m2"):
                for tb in ("e4m3", "e5m2"):
                    regs, out, (na, nb, nc) = form_case(rng, k, cd, ta, tb, stats)
                    names = ["%%a%d" % (len(slots) + j) for j in range(len(regs))]
                    dnames = ["%%d%d" % (len(outs) + j) for j in range(nc)]
                    ops = [dnames, names[:na], names[na:na + nb], names[na + nb:]]
                    body.append("    mma.sync.aligned.m16n8k%d.row.col.%s.%s.%s.%s %s;" % (
                        k, cd, ta, tb, cd, ", ".join("{" + ", ".join(o) + "}" for o in ops)))
                    body += ["    st.global.b32 [%%bo+%d], %s;" % ((len(outs) + j) * 128, d) for j, d in enumerate(dnames)]
                    slots += regs
                    outs += out
    head = [".version 8.7", ".target sm_90", ".address_size 64", "",
            "// mma_fp8_edges: the 16 fp8 mma forms on edge inputs (NaN and inf encodings, subnormals, products",
            "// past f16 inside the .f16 forms' HMMA, zeros of both signs, cancellation); input slot s of lane l is",
            "// i32[s*32+l], D register s of lane l goes to o32[s*32+l]. Expected values: mma_fp8_edges.py (its own",
            "// model of ptxas's sm_90 sequence, written apart from ptxrun; fragments from the PTX ISA's figures).",
            ".visible .entry k(.param .u64 p_i32, .param .u64 p_o32)", "{",
            "    .reg .b32 %%a<%d>;" % len(slots), "    .reg .b32 %%d<%d>;" % len(outs),
            "    .reg .u64 %bi, %bo, %off;", "    .reg .u32 %lane;", "    mov.u32 %lane, %tid.x;",
            "    mul.wide.u32 %off, %lane, 4;", "    ld.param.u64 %bi, [p_i32];", "    cvta.to.global.u64 %bi, %bi;",
            "    add.s64 %bi, %bi, %off;", "    ld.param.u64 %bo, [p_o32];", "    cvta.to.global.u64 %bo, %bo;",
            "    add.s64 %bo, %bo, %off;"]
    head += ["    ld.global.b32 %%a%d, [%%bi+%d];" % (j, j * 128) for j in range(len(slots))]
    base = os.path.join(folder, "mma_fp8_edges")
    open(base + ".ptx", "w").write("\n".join(head + body + ["    ret;", "}"]) + "\n")
    h = lambda v: "0x%08x" % v
    json.dump({"block": [32, 1, 1], "grid": [1, 1, 1], "buffers": {"i32": {"type": "b32", "data": [h(v) for s in slots for v in s]},
               "o32": {"type": "b32", "count": 32 * len(outs)}}, "params": ["@i32", "@o32"]}, open(base + ".lanes.json", "w"))
    json.dump({"buffers": {"o32": [h(v) for s in outs for v in s]}, "diagnostic": "not recorded on the H100"},
              open(base + ".expect.json", "w"))
    print(len(slots), "input slots,", len(outs), "output slots; D elements:", stats)

if __name__ == "__main__":
    main()
