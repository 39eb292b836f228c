#!/usr/bin/env python3
"""The H100's fp8 mma.sync (m16n8k32 .e4m3/.e5m2 A and B) modelled and checked against the recordings.

Written apart from ptxrun (exact rational arithmetic, no ptxrun code). Reads the mma_*e4m3* and
mma_*e5m2* programs of ../shared/hw/mma (or the folders given), rebuilds every step's A, B and C
(C of a chained step is the previous step's recorded D) from the PTX ISA's fragment layouts, and
prints, per model, form and input flavour, how many recorded D elements (all 32 bits) it gives.

The rule (model "ptxas"): ptxas -arch=sm_90 emulates fp8 mma with f16 tensor-core code. Each fp8
element is converted to the f16 of the same value (exact). The first HMMA takes the low f16x2 of
each 32-bit register of four fp8 (k = 4t, 4t+1: every k with k % 4 < 2) from a zero accumulator,
the second the high f16x2 (k % 4 >= 2) accumulating the first's result; each HMMA is the tensor
core's f16 sum (terms aligned to the largest exponent-field sum, cut toward zero 25 bits below it,
added exactly, rounded toward zero to f32; to nearest to f16 for f16 D); C is added last with one
IEEE addition to nearest (FADD; HADD2 for f16).

    python3 scripts/mma_fp8_model.py [DIR...] [--misses N] [--vectors N]

--vectors N prints N random test vectors of every fp8 form ptxas takes for sm_90 (m16n8k32 and
m16n8k16, A/B e4m3/e5m2, C/D f32/f32 or f16/f16), computed by the rule, for tests/check_mmafp8.c.
"""
import glob
import json
import math
import os
import random
import struct
import sys
from collections import Counter
from fractions import Fraction as Q

NAN = "nan"


# --- formats -----------------------------------------------------------------------------------------
def fp8_value(x, t):
    """An fp8 byte's value: a Fraction, +-math.inf or NAN."""
    s = -1 if x & 0x80 else 1
    if t == "e4m3":                         # bias 7, 3 fraction bits, no infinity, S.1111.111 NaN
        e, m = (x >> 3) & 15, x & 7
        if e == 15 and m == 7:
            return NAN
        return s * (Q(m, 8) * Q(2) ** -6 if e == 0 else (1 + Q(m, 8)) * Q(2) ** (e - 7))
    e, m = (x >> 2) & 31, x & 3              # e5m2: bias 15, 2 fraction bits, IEEE specials
    if e == 31:
        return NAN if m else s * math.inf
    return s * (Q(m, 4) * Q(2) ** -14 if e == 0 else (1 + Q(m, 4)) * Q(2) ** (e - 15))


def ieee_value(u, eb, mb):
    s = -1 if (u >> (eb + mb)) & 1 else 1
    e, m, bias = (u >> mb) & ((1 << eb) - 1), u & ((1 << mb) - 1), (1 << (eb - 1)) - 1
    if e == (1 << eb) - 1:
        return NAN if m else s * math.inf
    if e == 0:
        return s * Q(m) * Q(2) ** (1 - bias - mb)
    return s * (1 + Q(m, 1 << mb)) * Q(2) ** (e - bias)


def f32_value(u):
    return ieee_value(u, 8, 23)


def f16_value(u):
    return ieee_value(u, 5, 10)


def floor_log2(x):
    x = abs(x)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    return e - 1 if Q(2) ** e > x else e


def round_to(x, eb, mb, mode):
    """Exact Fraction x rounded to the format (eb, mb) with mode 'rz' or 'rn'; beyond the range: inf
    (the tensor core's overflow, also toward zero; for 'rn' IEEE's). Returns the bits."""
    sign = (1 << (eb + mb)) if x < 0 else 0
    a = abs(x)
    if a == 0:
        return sign
    bias = (1 << (eb - 1)) - 1
    e = max(floor_log2(a), 1 - bias)
    q = Q(2) ** (e - mb)
    n = a / q
    i = n.numerator // n.denominator
    if mode == "rn":
        r = n - i
        if r > Q(1, 2) or (r == Q(1, 2) and i & 1):
            i += 1
    if i >> (mb + 1):
        i >>= 1
        e += 1
    if i < (1 << mb):                        # subnormal
        return sign | i
    if e + bias >= (1 << eb) - 1:
        return sign | (((1 << eb) - 1) << mb)
    return sign | ((e + bias) << mb) | (i - (1 << mb))


def as_value(bits, out):
    return f32_value(bits) if out == "f32" else f16_value(bits)


# --- the tensor core's f16 HMMA ----------------------------------------------------------------------
def f16_align_exp(v):
    """The exponent an f16 operand is aligned by: its exponent field (a subnormal's: -14)."""
    return max(floor_log2(v), -14)


def hmma(pairs, acc, out, p=25, align=f16_align_exp, zero_in_max=False):
    """One HMMA (f16 A, B) over the (a, b) value pairs with accumulator acc (a value); D's bits."""
    nan, infs = False, set()
    for a, b in pairs:
        if a is NAN or b is NAN:
            nan = True
        elif not isinstance(a, Q) or not isinstance(b, Q):
            if a == 0 or b == 0:
                nan = True                   # inf * 0
            else:
                infs.add((a > 0) == (b > 0))
    if acc is NAN:
        nan = True
    elif not isinstance(acc, Q):
        infs.add(acc > 0)
    eb, mb = (8, 23) if out == "f32" else (5, 10)
    if nan or len(infs) == 2:
        return (1 << (eb + mb)) - 1          # canonical NaN: 0x7fffffff, 0x7fff
    if infs:
        return (0 if infs.pop() else 1 << (eb + mb)) | (((1 << eb) - 1) << mb)
    terms = [(a * b, align(a) + align(b)) for a, b in pairs if zero_in_max or (a != 0 and b != 0)]
    exps = [e for v, e in terms]
    if acc != 0:
        exps.append(floor_log2(acc) if out == "f32" else max(floor_log2(acc), -14))
    if not exps:
        return 0
    q = Q(2) ** (max(exps) - p)
    s = sum(int(v / q) * q for v, e in terms) + int(acc / q) * q   # int(): toward zero
    return round_to(s, eb, mb, "rz" if out == "f32" else "rn")


def ieee_add(x, y, out):
    """FADD / HADD2: x + y (values) rounded to nearest, IEEE; NaN canonical."""
    eb, mb = (8, 23) if out == "f32" else (5, 10)
    if x is NAN or y is NAN:
        return (1 << (eb + mb)) - 1
    xi, yi = not isinstance(x, Q), not isinstance(y, Q)
    if xi and yi and (x > 0) != (y > 0):
        return (1 << (eb + mb)) - 1
    if xi or yi:
        z = x if xi else y
        return (0 if z > 0 else 1 << (eb + mb)) | (((1 << eb) - 1) << mb)
    return round_to(x + y, eb, mb, "rn")     # (no -0 + -0 here: see zero_sign below)


def mma8(a_bytes, b_bytes, c_bits, at, bt, out, first=lambda k: k % 4 < 2, **kw):
    """The rule: D's bits from a row of A, a column of B (bytes), C's bits."""
    av = [fp8_value(x, at) for x in a_bytes]
    bv = [fp8_value(x, bt) for x in b_bytes]
    ks = range(len(av))
    d1 = hmma([(av[k], bv[k]) for k in ks if first(k)], Q(0), out, **kw)
    d2 = hmma([(av[k], bv[k]) for k in ks if not first(k)], as_value(d1, out), out, **kw)
    neg = 1 << (31 if out == "f32" else 15)
    if (d2 == neg) and (c_bits == neg):
        return neg                           # -0 + -0 (IEEE); never reached: an HMMA gives +0
    return ieee_add(as_value(d2, out), as_value(c_bits, out), out)


# --- alternatives the data rejects ------------------------------------------------------------------
def alt_one_block(a_bytes, b_bytes, c_bits, at, bt, out):
    """A native fp8 unit: one aligned sum of C and all 32 products, toward zero, once."""
    av = [fp8_value(x, at) for x in a_bytes]
    bv = [fp8_value(x, bt) for x in b_bytes]
    c = f32_value(c_bits)
    if any(not isinstance(v, Q) for v in av + bv + [c]):
        return mma8(a_bytes, b_bytes, c_bits, at, bt, out)
    return hmma(list(zip(av, bv)), c, out)


def alt_c_first(a_bytes, b_bytes, c_bits, at, bt, out):
    """C as the first HMMA's accumulator (no FADD)."""
    av = [fp8_value(x, at) for x in a_bytes]
    bv = [fp8_value(x, bt) for x in b_bytes]
    d1 = hmma([(av[k], bv[k]) for k in range(32) if k % 4 < 2], f32_value(c_bits), out)
    return hmma([(av[k], bv[k]) for k in range(32) if k % 4 >= 2], f32_value(d1), out)


def alt_separate(a_bytes, b_bytes, c_bits, at, bt, out):
    """Both HMMA from zero, then (D1 + D2) + C, each to nearest."""
    av = [fp8_value(x, at) for x in a_bytes]
    bv = [fp8_value(x, bt) for x in b_bytes]
    d1 = hmma([(av[k], bv[k]) for k in range(32) if k % 4 < 2], Q(0), out)
    d2 = hmma([(av[k], bv[k]) for k in range(32) if k % 4 >= 2], Q(0), out)
    return ieee_add(f32_value(ieee_add(f32_value(d1), f32_value(d2), out)), f32_value(c_bits), out)


def log2_align(v):
    return floor_log2(v)


MODELS = {
    "ptxas (the rule: k%4<2 first, 25 bits, FADD)": lambda *r: mma8(*r),
    "k 0-15 first (README's first model)": lambda *r: mma8(*r, first=lambda k: k < 16),
    "k 16-31 first": lambda *r: mma8(*r, first=lambda k: k >= 16),
    "k%4>=2 first": lambda *r: mma8(*r, first=lambda k: k % 4 >= 2),
    "even k first": lambda *r: mma8(*r, first=lambda k: k % 2 == 0),
    "24 bits": lambda *r: mma8(*r, p=24),
    "26 bits": lambda *r: mma8(*r, p=26),
    "subnormal f16 aligned by its leading bit": lambda *r: mma8(*r, align=log2_align),
    "zero products in the alignment max": lambda *r: mma8(*r, zero_in_max=True),
    "C in the first HMMA, no FADD": alt_c_first,
    "both HMMA from 0, (D1+D2)+C": alt_separate,
    "one aligned sum of all 32 and C": alt_one_block,
}


# --- the recordings ----------------------------------------------------------------------------------
def lay_a(lane, i):
    g, t = lane >> 2, lane & 3
    return g + 8 * ((i >> 2) & 1), 4 * t + (i & 3) + 16 * (i >> 3)


def lay_b(lane, i):
    g, t = lane >> 2, lane & 3
    return 4 * t + (i & 3) + 16 * (i >> 2), g


def lay_c(lane, i):
    g, t = lane >> 2, lane & 3
    return g + 8 * (i >> 1), 2 * t + (i & 1)


def word(x):
    return int(x, 16) if isinstance(x, str) else x


def elements(folder):
    """Every recorded D element of the fp8 programs in folder: dicts of form, flavor, case, step,
    a (32 bytes), b (32 bytes), c, d (f32 bits), at, bt."""
    out = []
    for meta_path in sorted(glob.glob(os.path.join(folder, "mma_*e[45]m[32]*.meta.json"))):
        base = meta_path[: -len(".meta.json")]
        meta = json.load(open(meta_path))
        lanes = json.load(open(base + ".lanes.json"))
        expect = json.load(open(base + ".expect.json"))
        ins = {k: [word(x) for x in v["data"]] for k, v in lanes["buffers"].items() if "data" in v}
        outs = {k: [word(x) for x in v] for k, v in expect["buffers"].items()}

        def reg(name, lane):
            if name in meta["inputs"]:
                buf, slot = meta["inputs"][name]
                return ins[buf][slot * 32 + lane]
            buf, slot = meta["slots"][name]
            return outs[buf][slot * 32 + lane]

        for step_no, st in enumerate(meta["steps"]):
            A = [[0] * 32 for _ in range(16)]
            B = [[0] * 8 for _ in range(32)]
            C = [[0] * 8 for _ in range(16)]
            D = [[0] * 8 for _ in range(16)]
            for lane in range(32):
                for i in range(16):
                    r, c = lay_a(lane, i)
                    A[r][c] = reg(st["A"][i // 4], lane) >> (8 * (i % 4)) & 0xFF
                for i in range(8):
                    r, c = lay_b(lane, i)
                    B[r][c] = reg(st["B"][i // 4], lane) >> (8 * (i % 4)) & 0xFF
                for i in range(4):
                    r, c = lay_c(lane, i)
                    C[r][c] = reg(st["C"][i], lane)
                    D[r][c] = reg(st["D"][i], lane)
            for r in range(16):
                for c in range(8):
                    out.append(dict(form=meta["form"], flavor=meta["flavor"], case=os.path.basename(base),
                                    step=step_no, row=r, col=c, a=A[r], b=[B[k][c] for k in range(32)],
                                    c=C[r][c], d=D[r][c], at=meta["types"]["a"], bt=meta["types"]["b"]))
    return out


# --- test vectors ------------------------------------------------------------------------------------
def random_fp8(rng, t):
    r = rng.random()
    if r < 0.04:
        return rng.choice([0x00, 0x80])
    if r < 0.05:
        return rng.choice([0x7F, 0xFF] if t == "e4m3" else [0x7C, 0xFC, 0x7E])
    if r < 0.15:
        return rng.choice(range(1, 8 if t == "e4m3" else 4)) | rng.choice([0, 0x80])   # subnormal
    return rng.randrange(256) if t == "e5m2" else rng.choice([x for x in range(256) if x & 0x7F != 0x7F])


def vectors(n, seed=20261129):
    rng = random.Random(seed)
    forms = [(k, d, at, bt) for k in (32, 16) for d in ("f32", "f16") for at in ("e4m3", "e5m2")
             for bt in ("e4m3", "e5m2")]
    for i in range(n):
        k, d, at, bt = forms[i % len(forms)]
        special = i % 3 == 0
        top = {("f32", "e4m3"): 0x7F, ("f32", "e5m2"): 0x7B, ("f16", "e4m3"): 0x50, ("f16", "e5m2"): 0x48}
        a = [random_fp8(rng, at) if special else rng.choice(range(0x01, top[d, at])) | rng.choice([0, 0x80])
             for _ in range(k)]
        b = [random_fp8(rng, bt) if special else rng.choice(range(0x01, top[d, bt])) | rng.choice([0, 0x80])
             for _ in range(k)]
        if d == "f32":
            cv = Q(rng.randrange(-2**20, 2**20)) * Q(2) ** rng.randrange(-30, 10)
            c = round_to(cv, 8, 23, "rn") if i % 7 else rng.choice([0x7FC00000, 0xFF800000, 0x80000000, 0x00000001])
        else:
            cv = Q(rng.randrange(-2**10, 2**10)) * Q(2) ** rng.randrange(-20, 4)
            c = round_to(cv, 5, 10, "rn") if i % 7 else rng.choice([0x7E00, 0xFC00, 0x8000, 0x0001])
        dd = mma8(a, b, c, at, bt, d)
        print("    { %d, MT_%s, MT_%s, MT_%s, { %s }, { %s }, 0x%x, 0x%x }," % (
            k, at.upper(), bt.upper(), d.upper(), ", ".join("0x%02x" % x for x in a),
            ", ".join("0x%02x" % x for x in b), c, dd))


def main():
    args = sys.argv[1:]
    misses = 0
    if "--vectors" in args:
        vectors(int(args[args.index("--vectors") + 1]))
        return
    if "--misses" in args:
        i = args.index("--misses")
        misses = int(args[i + 1])
        del args[i: i + 2]
    here = os.path.dirname(os.path.abspath(__file__))
    folders = args or [os.path.join(here, "..", "..", "shared", "hw", "mma")]
    data = [e for f in folders for e in elements(f)]
    print("%d recorded D elements of %d fp8 programs" % (len(data), len({e["case"] for e in data})))
    for name, model in MODELS.items():
        count, total, shown = Counter(), Counter(), 0
        for e in data:
            key = (e["form"], e["flavor"])
            total[key] += 1
            got = model(e["a"], e["b"], e["c"], e["at"], e["bt"], "f32")
            if got == e["d"]:
                count[key] += 1
            elif shown < misses:
                shown += 1
                print("   miss %s step %d D[%d][%d]: got 0x%08x, recorded 0x%08x" % (
                    e["case"], e["step"], e["row"], e["col"], got, e["d"]))
        print("%s: %d / %d" % (name, sum(count.values()), sum(total.values())))
        for form in sorted({k[0] for k in total}):
            print("   %-14s %5d / %5d   %s" % (form, sum(count[k] for k in total if k[0] == form),
                                              sum(total[k] for k in total if k[0] == form),
                                              "  ".join("%s %d/%d" % (k[1], count[k], total[k])
                                                        for k in sorted(total) if k[0] == form)))


if __name__ == "__main__":
    main()
