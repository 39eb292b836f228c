#!/usr/bin/env python3
"""Models of the H100's f16 / bf16 / tf32 mma.sync arithmetic, checked against the recorded programs.

Written apart from ptxrun (plain Python integers, no ptxrun code): reads ../shared/hw/mma (or the folder
given), rebuilds every step's A, B, C (C of a chained step is the previous step's recorded D) from the
fragment layouts of the PTX ISA, computes every D element with the models below and prints, per form and
model, how many recorded D elements (all 32 bits / 16 bits) it reproduces.

    python3 scripts/mma_float_model.py [DIR] [--model NAME] [--misses N]
"""
import glob
import json
import os
import sys
from collections import defaultdict

# --- formats: (exponent bits, mantissa bits) -------------------------------------------------------
FMT = {"f16": (5, 10), "bf16": (8, 7), "tf32": (8, 10), "f32": (8, 23)}


def decode(bits, fmt):
    """-> ('num', sign, sig, e) value = (-1)^sign * sig * 2^e, sig an integer; or ('inf', sign) / ('nan',)."""
    eb, mb = FMT[fmt]
    if fmt == "tf32":            # a tf32 operand is an f32 register whose low 13 bits the tensor core drops
        bits = (bits >> 13) & 0x7FFFF
    sign = (bits >> (eb + mb)) & 1
    ex = (bits >> mb) & ((1 << eb) - 1)
    man = bits & ((1 << mb) - 1)
    bias = (1 << (eb - 1)) - 1
    if ex == (1 << eb) - 1:
        return ("nan",) if man else ("inf", sign)
    if ex == 0:
        return ("num", sign, man, 1 - bias - mb)
    return ("num", sign, man | (1 << mb), ex - bias - mb)


def field_exp(bits, fmt, sub_exp="field"):
    """The exponent the alignment uses: the unbiased exponent field (a subnormal's is the format's emin);
    sub_exp="log2": a subnormal's floor(log2 |x|) instead (a model the data rejects)."""
    eb, mb = FMT[fmt]
    if fmt == "tf32":
        bits = (bits >> 13) & 0x7FFFF
    ex = (bits >> mb) & ((1 << eb) - 1)
    bias = (1 << (eb - 1)) - 1
    man = bits & ((1 << mb) - 1)
    if ex == 0 and sub_exp == "log2" and man:
        return 1 - bias - (mb - (man.bit_length() - 1))
    return max(ex, 1) - bias


def round_to(sign, mag, e, fmt, mode, ovf_inf=False):
    """Round (-1)^sign * mag * 2^e (mag >= 0 an integer) to fmt (f32 or f16) with mode 'rz' or 'rn'.
    Returns the raw bits. Overflow: RN gives inf; RZ the largest finite (IEEE) or inf (ovf_inf)."""
    eb, mb = FMT[fmt]
    bias = (1 << (eb - 1)) - 1
    emin = 1 - bias                       # exponent of the smallest normal
    width = 1 + eb + mb
    sbit = sign << (width - 1)
    if mag == 0:
        return sbit
    top = mag.bit_length() - 1 + e        # floor(log2 |x|)
    q = max(top, emin) - mb               # quantum of the result's grid
    sh = q - e
    if sh <= 0:
        r = mag << (-sh)
        rest = 0
        half = 0
    else:
        r = mag >> sh
        rest = mag - (r << sh)
        half = 1 << (sh - 1)
    if mode == "rn" and (rest > half or (rest == half and half and (r & 1))):
        r += 1
    # r is the significand on the grid 2^q (with the hidden bit when normal)
    if r >> (mb + 1):                      # carried into the next binade
        r >>= 1
        q += 1
    if r < (1 << mb):                      # subnormal (or became normal by rounding: r == 1<<mb handled below)
        return sbit | r
    biased = q + mb + bias
    if biased >= (1 << eb) - 1:            # overflow
        if mode == "rz" and not ovf_inf:
            return sbit | ((((1 << eb) - 2) << mb) | ((1 << mb) - 1))
        return sbit | (((1 << eb) - 1) << mb)
    return sbit | (biased << mb) | (r & ((1 << mb) - 1))


NAN = {"f32": 0x7FFFFFFF, "f16": 0x7FFF}
INF = {"f32": 0x7F800000, "f16": 0x7C00}


def model_E(a, b, c, fa, fc, fd, p=25, final="rz", f16_chain="direct", zero_prod_in_max=False,
            c0_in_max=False, ovf_inf=True, sub_exp="field",
            zero="plus", tf32_round=False, f16_mode="rn"):
    """E(p): align C and every product at the largest of exp(C) and exp(a)+exp(b), truncate each toward
    zero p bits below it, add exactly, round once to f32 toward zero (f16 D: then RN to f16)."""
    if tf32_round and fa == "tf32":     # operands rounded to nearest tf32 instead of truncated
        a = [x if (x >> 23) & 0xFF == 0xFF else (x + 0xFFF + ((x >> 13) & 1)) & 0xFFFFE000 for x in a]
        b = [x if (x >> 23) & 0xFF == 0xFF else (x + 0xFFF + ((x >> 13) & 1)) & 0xFFFFE000 for x in b]
    # special values first
    da = [decode(x, fa) for x in a]
    db = [decode(x, fa) for x in b]
    dc = decode(c, fc)
    nan = False
    infs = set()
    for x, y in zip(da, db):
        if x[0] == "nan" or y[0] == "nan":
            nan = True
        elif x[0] == "inf" or y[0] == "inf":
            other = y if x[0] == "inf" else x
            if other[0] == "num" and other[2] == 0:
                nan = True              # inf * 0
            else:
                infs.add(x[1] ^ y[1])
    if dc[0] == "nan":
        nan = True
    elif dc[0] == "inf":
        infs.add(dc[1])
    if nan or len(infs) == 2:
        return NAN[fd]
    if infs:
        return INF[fd] | ((1 << (15 if fd == "f16" else 31)) if infs.pop() else 0)
    # finite: exact terms as (sign, sig, e), alignment exponents
    terms = []
    ealign = []
    for x, y, xb, yb in zip(da, db, a, b):
        s = x[1] ^ y[1]
        sig = x[2] * y[2]
        e = x[3] + y[3]
        if sig == 0 and not zero_prod_in_max:
            terms.append((s, 0, 0))
            continue
        terms.append((s, sig, e))
        ealign.append(field_exp(xb, fa, sub_exp) + field_exp(yb, fa, sub_exp))
    if dc[2] != 0 or c0_in_max:
        ealign.append(field_exp(c, fc, sub_exp))
    terms.append((dc[1], dc[2], dc[3]))
    if not ealign:
        emax = -10**6
    else:
        emax = max(ealign)
    q = emax - p                        # every term truncated to a multiple of 2^q
    lo = min([t[2] for t in terms if t[1]] + [q])
    total = 0
    for s, sig, e in terms:
        if sig == 0:
            continue
        v = sig << (e - lo)             # exact at 2^lo
        sh = q - lo
        v = (v >> sh) << sh             # truncate magnitude toward zero at 2^q
        total += -v if s else v
    sign = 1 if total < 0 else 0
    mag = -total if total < 0 else total
    if mag == 0:
        # sign of an exact zero: decided below by the data
        return zero_sign(terms, fd) if zero == "ieee" else 0
    if fd == "f32":
        return round_to(sign, mag, lo, "f32", final, ovf_inf)
    if f16_chain == "f32rz_then_rn":
        f = round_to(sign, mag, lo, "f32", "rz", ovf_inf)
        d = decode(f, "f32")
        if d[0] != "num":
            return INF["f16"] | (sign << 15)
        return round_to(sign, d[2], d[3], "f16", f16_mode)
    return round_to(sign, mag, lo, "f16", f16_mode, ovf_inf)


def zero_sign(terms, fd):
    # IEEE: an exact zero sum is +0 unless every addend is -0 ... (RZ keeps +0)
    allneg = all(s == 1 for s, sig, e in terms)
    w = 15 if fd == "f16" else 31
    return (1 << w) if allneg else 0


# --- the recorded programs ---------------------------------------------------------------------------
def lay(fn, which, lane, i):
    g, t = lane >> 2, lane & 3
    if which == "c":
        return g + 8 * (i >> 1), 2 * t + (i & 1)
    if fn == "lay_f16_k16":
        if which == "a":
            return g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)
        return 2 * t + (i & 1) + 8 * (i >> 1), g
    if fn == "lay_f16_k8":
        if which == "a":
            return g + 8 * (i >> 1), 2 * t + (i & 1)
        return 2 * t + i, g
    if fn == "lay_tf32_k8":
        if which == "a":
            return g + 8 * (i & 1), t + 4 * (i >> 1)
        return t + 4 * i, g
    if fn == "lay_tf32_k4":
        if which == "a":
            return g + 8 * i, t
        return t, g
    raise ValueError(fn)


def regval(name, meta, lanes, expect, lane):
    if name in meta["inputs"]:
        buf, slot = meta["inputs"][name]
        return int(lanes["buffers"][buf]["data"][slot * 32 + lane], 16)
    buf, slot = meta["slots"][name]
    return int(expect["buffers"][buf][slot * 32 + lane], 16)


def matrix(meta, lanes, expect, regs, which, width, fn):
    per = 32 // width
    out = {}
    for lane in range(32):
        words = [regval(r, meta, lanes, expect, lane) for r in regs]
        for i in range(len(words) * per):
            w = words[i // per]
            v = (w >> (width * (i % per))) & ((1 << width) - 1) if width < 32 else w
            out[lay(fn, which, lane, i)] = v
    return out


def elements(folder):
    """Yield (form, name, flavor, step, (row, col), a list, b list, c, d, types) for every D element."""
    for mf in sorted(glob.glob(os.path.join(folder, "mma_*.meta.json"))):
        meta = json.load(open(mf))
        ty = meta["types"]
        if ty["a"] not in ("f16", "bf16", "tf32"):
            continue
        base = mf[:-len(".meta.json")]
        lanes = json.load(open(base + ".lanes.json"))
        expect = json.load(open(base + ".expect.json"))
        m, n, k = meta["shape"]
        wa = 32 if ty["a"] == "tf32" else 16
        wc = 16 if ty["c"] == "f16" else 32
        fn = meta["layout_fn"]
        for si, st in enumerate(meta["steps"]):
            A = matrix(meta, lanes, expect, st["A"], "a", wa, fn)
            B = matrix(meta, lanes, expect, st["B"], "b", wa, fn)
            C = matrix(meta, lanes, expect, st["C"], "c", wc, fn)
            D = matrix(meta, lanes, expect, st["D"], "c", wc, fn)
            for r in range(m):
                for cc in range(n):
                    yield (meta["form"], meta["name"], meta["flavor"], si, (r, cc),
                           [A[(r, kk)] for kk in range(k)], [B[(kk, cc)] for kk in range(k)],
                           C[(r, cc)], D[(r, cc)], ty)


MODELS = {
    "E25": dict(),
    "E24": dict(p=24),
    "E26": dict(p=26),
    "E25_f16_via_f32rz": dict(f16_chain="f32rz_then_rn"),
    "E25_zeroprod_in_max": dict(zero_prod_in_max=True),
    "E25_sub_log2": dict(sub_exp="log2"),
    "E25_ovf_maxfinite": dict(ovf_inf=False),
    "E25_rn": dict(final="rn"),
    "E25_zero_ieee": dict(zero="ieee"),
    "E25_c0_in_max": dict(c0_in_max=True),
    "E25_tf32_rn_operands": dict(tf32_round=True),
    "E25_f16_rz": dict(f16_mode="rz"),
}


def features(a, b, c, ty):
    """What an element exercises (to say which rule the data tests and how often)."""
    fa, fc = ty["a"], ty["c"]
    da = [decode(x, fa) for x in a]
    db = [decode(x, fa) for x in b]
    dc = decode(c, fc)
    tags = set()
    allv = da + db + [dc]
    if any(v[0] == "nan" for v in allv):
        tags.add("nan-in")
    prods = []
    for x, y in zip(da, db):
        if "nan" in (x[0], y[0]):
            continue
        if x[0] == "inf" or y[0] == "inf":
            o = y if x[0] == "inf" else x
            if o[0] == "num" and o[2] == 0:
                tags.add("inf*0")
            else:
                prods.append(("inf", x[1] ^ y[1]))
    if dc[0] == "inf":
        prods.append(("inf", dc[1]))
    if prods:
        tags.add("inf-in")
        if len({p[1] for p in prods}) == 2:
            tags.add("inf-inf")
    if any(v[0] == "num" and v[2] and v[2] < (1 << FMT[fa][1]) for v in da + db):
        tags.add("subnormal-operand")
    if not tags - {"subnormal-operand"}:
        fin = [(x, y) for x, y in zip(da, db)]
        if any(x[2] == 0 or y[2] == 0 for x, y in fin):
            tags.add("zero-product")
        if dc[2] == 0:
            tags.add("c-zero")
    return tags


def main():
    args = sys.argv[1:]
    folder = "../shared/hw/mma"
    models = list(MODELS)
    nmiss = 0
    while args:
        x = args.pop(0)
        if x == "--model":
            models = [args.pop(0)]
        elif x == "--misses":
            nmiss = int(args.pop(0))
        else:
            folder = x
    counts = defaultdict(lambda: [0, 0])
    shown = 0
    for form, name, flav, si, rc, a, b, c, d, ty in elements(folder):
        tags = features(a, b, c, ty)
        w = 16 if ty["d"] == "f16" else 32
        if d & ((1 << (w - 1)) - 1) == 0:
            tags.add("zero-result-" + ("neg" if d >> (w - 1) else "pos"))
        elif (d >> (10 if w == 16 else 23)) & (0x1F if w == 16 else 0xFF) == 0:
            tags.add("subnormal-result")
        elif d & ((1 << (w - 1)) - 1) == INF[ty["d"]]:
            tags.add("inf-result")
        for t in tags:
            for mname in models:
                got = model_E(a, b, c, ty["a"], ty["c"], ty["d"], **MODELS[mname])
                counts[("tag:" + t, mname)][1] += 1
                counts[("tag:" + t, mname)][0] += got == d
        for mname in models:
            got = model_E(a, b, c, ty["a"], ty["c"], ty["d"], **MODELS[mname])
            key = (form, mname)
            counts[key][1] += 1
            if got == d:
                counts[key][0] += 1
            elif nmiss and shown < nmiss and mname == models[0]:
                shown += 1
                print("MISS %s step %d %s %s a=%s b=%s c=%#x d=%#x got=%#x" % (
                    name, si, rc, flav, [hex(x) for x in a], [hex(x) for x in b], c, d, got))
    forms = sorted({f for f, _ in counts}, key=lambda f: (f.startswith("tag:"), f))
    print("recorded D elements reproduced bit for bit, per form (then per feature of the inputs), per model;")
    print("E25 is ptxrun's rule (exec/mmafloat.c), the others change one thing in it\n")
    print("%-22s" % "model \\ form" + "".join("%13s" % f for f in forms if not f.startswith("tag:")))
    for mn in models:
        print("%-22s" % mn + "".join("%13s" % ("%d/%d" % tuple(counts[(f, mn)])) if not f.startswith("tag:")
                                     else "" for f in forms))
    print()
    tags = [f for f in forms if f.startswith("tag:")]
    for t in tags:
        print("%-22s" % t[4:] + " ".join("%s %d/%d" % (mn, *counts[(t, mn)]) for mn in models[:1]) +
              "; misses under: " + ", ".join("%s %d" % (mn, counts[(t, mn)][1] - counts[(t, mn)][0])
                                               for mn in models[1:] if counts[(t, mn)][0] != counts[(t, mn)][1]))

if __name__ == "__main__":
    main()
