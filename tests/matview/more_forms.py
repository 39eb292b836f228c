#!/usr/bin/env python3
"""tests/matview/more_forms.py PTXRUN TMPDIR: --matrix's JSON of the nine mma forms of
tests/matview/more_forms.ptx (m16n8k8 and m16n8k4 tf32, m16n8k32 e4m3 x e5m2, m16n8k64 s4,
m16n8k32 u4 x s4 .satfinite, m8n8k128 b1 .xor, m16n8k256 b1 .and, m16n8k16 bf16, m16n8k8 f16 with
f16 C and D) against a model written here from the PTX ISA's fragment figures ("Matrix fragments
for mma.m16n8k8", "m16n8k4", "m16n8k16", "m16n8k32", "m16n8k64", "m8n8k128", "m16n8k256";
g = groupID = lane >> 2, t = threadID_in_group = lane % 4): each element's lane, register and
part, its value in the element type (tf32: the register's top 19 bits, the low 13 dropped as
the tensor core drops them; fp8 with its NaN and infinities; negative s4), and D of the integer
and b1 forms computed here. Prints FAIL lines and exits 1 on a difference."""
import json
import math
import os
import random
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def fail(what):
    failures.append(what)
    print("FAIL: more_forms: " + what)


def f32(b):
    return struct.unpack("<f", struct.pack("<I", b & 0xffffffff))[0]


def f16(h):
    return struct.unpack("<e", struct.pack("<H", h))[0]


def fp8(b, e, m):                 # e4m3: S.1111.111 NaN, no infinities; e5m2: IEEE-like
    sign = -1.0 if b & 0x80 else 1.0
    ex, mant, bias = (b >> m) & ((1 << e) - 1), b & ((1 << m) - 1), (1 << (e - 1)) - 1
    if e == 4 and ex == 15 and mant == 7:
        return math.nan
    if e == 5 and ex == 31:
        return math.nan if mant else sign * math.inf
    if ex == 0:
        return sign * mant * 2.0 ** (1 - bias - m)
    return sign * (1 + mant / 2 ** m) * 2.0 ** (ex - bias)


def s32(b):
    return b - (1 << 32) if b >= 1 << 31 else b


VALUE = {
    "tf32": lambda b: f32(b & 0xffffe000),
    "bf16": lambda b: f32(b << 16),
    "f16": f16,
    "f32": f32,
    "e4m3": lambda b: fp8(b, 4, 3),
    "e5m2": lambda b: fp8(b, 5, 2),
    "s4": lambda b: b - 16 if b >= 8 else b,
    "u4": lambda b: b,
    "b1": lambda b: b,
    "s32": s32,
}
BITS = {"tf32": 32, "bf16": 16, "f16": 16, "f32": 32, "e4m3": 8, "e5m2": 8, "s4": 4, "u4": 4, "b1": 1, "s32": 32}


def c16(g, t, i):                 # C and D of m16n8 with one element to a register (and f16 pairs)
    return g + 8 * (i >> 1), t * 2 + (i & 1)


# line, m, n, k, types A B C D, registers, places (lane's g, t, element i -> row, column)
FORMS = [
    dict(line=16, mnk=(16, 8, 8), types=("tf32", "tf32", "f32", "f32"),
         regs=("%a0 %a1 %a2 %a3", "%b0 %b1", "%g0 %g1 %g2 %g3", "%e0 %e1 %e2 %e3"),
         place=(lambda g, t, i: (g + 8 * (i & 1), t + 4 * (i >> 1)), lambda g, t, i: (t + 4 * i, g), c16, c16)),
    dict(line=17, mnk=(16, 8, 32), types=("e4m3", "e5m2", "f32", "f32"),
         regs=("%a0 %a1 %a2 %a3", "%b0 %b1", "%g0 %g1 %g2 %g3", "%e0 %e1 %e2 %e3"),
         place=(lambda g, t, i: (g + 8 * (i >> 2 & 1), t * 4 + (i & 3) + 16 * (i >> 3)),
                lambda g, t, i: (t * 4 + (i & 3) + 16 * (i >> 2), g), c16, c16)),
    dict(line=18, mnk=(16, 8, 64), types=("s4", "s4", "s32", "s32"), sat=False,
         regs=("%a0 %a1 %a2 %a3", "%b0 %b1", "%c0 %c1 %c2 %c3", "%d0 %d1 %d2 %d3"),
         place=(lambda g, t, i: (g + 8 * (i >> 3 & 1), t * 8 + (i & 7) + 32 * (i >> 4)),
                lambda g, t, i: (t * 8 + (i & 7) + 32 * (i >> 3), g), c16, c16)),
    dict(line=19, mnk=(8, 8, 128), types=("b1", "b1", "s32", "s32"), op="xor",
         regs=("%a0", "%b0", "%c0 %c1", "%d0 %d1"),
         place=(lambda g, t, i: (g, t * 32 + i), lambda g, t, i: (t * 32 + i, g),
                lambda g, t, i: (g, t * 2 + i), lambda g, t, i: (g, t * 2 + i))),
    dict(line=20, mnk=(16, 8, 16), types=("bf16", "bf16", "f32", "f32"),
         regs=("%a0 %a1 %a2 %a3", "%b0 %b1", "%g0 %g1 %g2 %g3", "%e0 %e1 %e2 %e3"),
         place=(lambda g, t, i: (g + 8 * (i >> 1 & 1), t * 2 + (i & 1) + 8 * (i >> 2)),
                lambda g, t, i: (t * 2 + (i & 1) + 8 * (i >> 1), g), c16, c16)),
    dict(line=21, mnk=(16, 8, 8), types=("f16", "f16", "f16", "f16"),
         regs=("%a0 %a1", "%b0", "%c2 %c3", "%h0 %h1"),
         place=(lambda g, t, i: (g + 8 * (i >> 1), t * 2 + (i & 1)), lambda g, t, i: (t * 2 + i, g), c16, c16)),
    dict(line=22, mnk=(16, 8, 4), types=("tf32", "tf32", "f32", "f32"),
         regs=("%a0 %a1", "%b0", "%g0 %g1 %g2 %g3", "%e0 %e1 %e2 %e3"),
         place=(lambda g, t, i: (g + 8 * i, t), lambda g, t, i: (t, g), c16, c16)),
    dict(line=23, mnk=(16, 8, 256), types=("b1", "b1", "s32", "s32"), op="and",
         regs=("%a0 %a1 %a2 %a3", "%b0 %b1", "%c0 %c1 %c2 %c3", "%d0 %d1 %d2 %d3"),
         place=(lambda g, t, i: (g + 8 * (i >> 5 & 1), t * 32 + (i & 31) + 128 * (i >> 6)),
                lambda g, t, i: (t * 32 + (i & 31) + 128 * (i >> 5), g), c16, c16)),
    dict(line=24, mnk=(16, 8, 32), types=("u4", "s4", "s32", "s32"), sat=True,
         regs=("%a0 %a1", "%b0", "%c0 %c1 %c2 %c3", "%d0 %d1 %d2 %d3"),
         place=(lambda g, t, i: (g + 8 * (i >> 3), t * 8 + (i & 7)), lambda g, t, i: (t * 8 + i, g), c16, c16)),
]


def lanes_file(rng):
    regs = {}
    for r in ("%a0", "%a1", "%a2", "%a3", "%b0", "%b1", "%c0", "%c1", "%c2", "%c3"):
        regs[r] = [rng.getrandbits(32) for _ in range(32)]
    for r in ("%c2", "%c3"):       # f16 pairs of small integers for line 21's C
        regs[r] = [struct.unpack("<H", struct.pack("<e", rng.randint(-8, 8)))[0] |
                   struct.unpack("<H", struct.pack("<e", rng.randint(-8, 8)))[0] << 16 for _ in range(32)]
    for r in ("%g0", "%g1", "%g2", "%g3"):
        regs[r] = [float(rng.randint(-8, 8)) for _ in range(32)]
    # tf32 A elements whose low 13 bits matter to an f32 reading (A[8][0..1], A[10][2] of lines 16 and 22):
    # 1 + 2^-23 (tf32 1.0), an f32 NaN whose payload lies only in the low 13 bits (tf32 +inf), -(1.5 + 2^-12)
    regs["%a1"][0], regs["%a1"][1], regs["%a1"][10] = 0x3f800001, 0x7f800001, 0xbfc00800
    # line 24's .satfinite: A's row 0 all 15 (u4), B's column 0 all 7 and column 1 all -8 (s4), C[0][0] and
    # C[0][1] near the s32 limits: both sums saturate (0x7fffff00 + 3360, 0x80000100 - 3840)
    for lane in range(4):
        regs["%a0"][lane], regs["%b0"][lane], regs["%b0"][lane + 4] = 0xffffffff, 0x77777777, 0x88888888
    regs["%c0"][0], regs["%c1"][0] = 0x7fffff00, 0x80000100
    return {"regs": regs}


def reg_bits(lanes, name, lane):
    v = lanes["regs"][name][lane]
    return struct.unpack("<I", struct.pack("<f", v))[0] if isinstance(v, float) else v


def model(form, lanes):
    """{operand: {(row, col): (lane, reg, part, bits)}} for A, B, C; D of the integer forms."""
    m, n, k = form["mnk"]
    out = {}
    for o, name in enumerate("ABC"):
        ty, regs, place = form["types"][o], form["regs"][o].split(), form["place"][o]
        width = BITS[ty]
        per = 32 // width
        cells = {}
        count = (m * k if name == "A" else k * n if name == "B" else m * n) // 32
        for lane in range(32):
            for i in range(count):
                r, c = place(lane >> 2, lane % 4, i)
                bits = reg_bits(lanes, regs[i // per], lane) >> (i % per * width) & ((1 << width) - 1)
                if (r, c) in cells:
                    fail("line %d: the model places two elements at %s[%d][%d]" % (form["line"], name, r, c))
                cells[r, c] = (lane, i // per, i % per, bits)
        if len(cells) != count * 32:
            fail("line %d: the model misses elements of %s" % (form["line"], name))
        out[name] = cells
    if form["types"][3] == "s32":
        a = {rc: VALUE[form["types"][0]](v[3]) for rc, v in out["A"].items()}
        b = {rc: VALUE[form["types"][1]](v[3]) for rc, v in out["B"].items()}
        d = {}
        for i in range(m):
            for j in range(n):
                if "op" in form:
                    s = sum((a[i, x] ^ b[x, j]) if form["op"] == "xor" else (a[i, x] & b[x, j]) for x in range(k))
                else:
                    s = sum(a[i, x] * b[x, j] for x in range(k))
                s += s32(out["C"][i, j][3])
                d[i, j] = max(-(1 << 31), min((1 << 31) - 1, s)) if form.get("sat") else s32(s & 0xffffffff)
        out["D"] = d
    return out


def same_value(got, want, ty, bits):
    if isinstance(want, float) and math.isnan(want):   # fp8: "nan"; wider: the NaN's bits (tf32: its top 19)
        return got == "nan" or got == "0x%0*x" % (BITS[ty] // 4, bits & 0xffffe000 if ty == "tf32" else bits)
    if isinstance(want, float) and math.isinf(want):
        return got == ("inf" if want > 0 else "-inf")
    if isinstance(got, str) or got is None:
        return False
    if ty in ("f32", "tf32"):       # the shortest decimal that reads back as the f32
        return struct.unpack("<f", struct.pack("<f", got))[0] == want
    if ty in ("bf16", "f16"):       # the shortest that reads back in the 16-bit type
        if ty == "f16":
            return f16(struct.unpack("<H", struct.pack("<e", got))[0]) == want
        b = struct.unpack("<I", struct.pack("<f", got))[0]
        return f32(((b + 0x7fff + (b >> 16 & 1)) >> 16) << 16) == want
    return got == want


def main():
    ptxrun, tmp = sys.argv[1], sys.argv[2]
    os.makedirs(tmp, exist_ok=True)
    lanes = lanes_file(random.Random(3434))
    path = os.path.join(tmp, "more_forms.lanes.json")
    with open(path, "w") as f:
        json.dump(lanes, f)
    ptx = os.path.join(HERE, "more_forms.ptx")
    for form in FORMS:
        line = form["line"]
        p = subprocess.run([ptxrun, "--no-color", "--lanes", path, "--json", "--matrix", str(line), ptx],
                           capture_output=True, text=True)
        if p.returncode != 0:
            fail("line %d: exit %d: %s" % (line, p.returncode, p.stderr.strip()[:300]))
            continue
        got = json.loads(p.stdout)["matrices"]
        if len(got) != 1:
            fail("line %d: %d executions" % (line, len(got)))
            continue
        got = got[0]
        want = model(form, lanes)
        m, n, k = form["mnk"]
        if (got["m"], got["n"], got["k"]) != (m, n, k):
            fail("line %d: shape %s" % (line, (got["m"], got["n"], got["k"])))
        bad = 0
        for o, name in enumerate("ABC"):
            ty = form["types"][o]
            rows = got[name]["rows"]
            for (r, c), (lane, reg, part, bits) in sorted(want[name].items()):
                e = rows[r][c]
                place = (e["lane"], e["reg"], e["part"] if BITS[ty] < 32 else 0)
                if place != (lane, reg, part) or not same_value(e["value"], VALUE[ty](bits), ty, bits):
                    bad += 1
                    if bad <= 4:
                        fail("line %d: %s[%d][%d]: got lane %s reg %s part %s value %r, want lane %d reg %d part %d "
                             "value %r (bits 0x%x)" % (line, name, r, c, e["lane"], e["reg"], e["part"], e["value"],
                                                       lane, reg, part, VALUE[ty](bits), bits))
        if "D" in want:
            for (r, c), v in sorted(want["D"].items()):
                if got["D"]["rows"][r][c]["value"] != v:
                    bad += 1
                    if bad <= 8:
                        fail("line %d: D[%d][%d] = %r, want %r" % (line, r, c, got["D"]["rows"][r][c]["value"], v))
    if failures:
        sys.exit(1)
    print("more_forms: %d forms, every element of A, B, C (and D of the integer and b1 forms) as modelled"
          % len(FORMS))


main()
