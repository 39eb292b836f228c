#!/usr/bin/env python3
"""tests/matview/model.py PTXRUN TMPDIR: checks --matrix (table and JSON) and --trace's fragments
of tests/matview/forms.ptx against a model written here from the PTX ISA's figures ("Matrix
fragments for mma.m16n8k32", "mma.m16n8k16" (.s8/.u8 and .f16), "mma.m8n8k16", "mma.m8n8k4" with .f64): which lane
and register hold each element of A, B, C and D, and D = A*B + C computed here (integers wrap
modulo 2^32, or saturate with .satfinite; the f64, f16 and f32 inputs are small integers, so every
sum is exact). The lanes file it writes gives random registers, with two lanes' values left undefined.
Prints FAIL lines and exits 1 on a difference."""
import json
import os
import random
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def fail(what):
    failures.append(what)
    print("FAIL: matview: " + what)


# --- the fragment layouts, PTX ISA 9.7.14.5 (g = groupID = lane >> 2, t = lane % 4) ---
def place_m16n8k32_a(lane, i):      # .s8/.u8: 16 elements a0..a15 in four .b32 registers
    g, t = lane >> 2, lane % 4
    row = g if (i < 4 or 8 <= i < 12) else g + 8
    col = t * 4 + (i & 3) + (16 if i >= 8 else 0)
    return row, col


def place_m16n8k32_b(lane, i):      # b0..b7 in two registers
    g, t = lane >> 2, lane % 4
    return t * 4 + (i & 3) + (16 if i >= 4 else 0), g


def place_m16n8k16_a(lane, i):      # .s8/.u8: a0..a7 in two registers
    g, t = lane >> 2, lane % 4
    return (g if i < 4 else g + 8), t * 4 + (i & 3)


def place_m16n8k16_b(lane, i):      # b0..b3 in one register
    g, t = lane >> 2, lane % 4
    return t * 4 + i, g


def place_m16n8_c(lane, i):         # c0..c3 (and d), one .s32 per register
    g, t = lane >> 2, lane % 4
    return (g if i < 2 else g + 8), t * 2 + (i & 1)


def place_m8n8k16_a(lane, i):
    g, t = lane >> 2, lane % 4
    return g, t * 4 + i


def place_m8n8k16_b(lane, i):
    g, t = lane >> 2, lane % 4
    return t * 4 + i, g


def place_m8n8_c(lane, i):
    g, t = lane >> 2, lane % 4
    return g, t * 2 + i


def place_m16n8k16_f16_a(lane, i):  # .f16: a0..a7, two to a register
    g, t = lane >> 2, lane % 4
    return (g if i in (0, 1, 4, 5) else g + 8), t * 2 + (i & 1) + (8 if i >= 4 else 0)


def place_m16n8k16_f16_b(lane, i):  # b0..b3, two to a register
    g, t = lane >> 2, lane % 4
    return t * 2 + (i & 1) + (8 if i >= 2 else 0), g


def place_m8n8k4_a(lane, i):        # .f64: a0 alone
    return lane >> 2, lane % 4


def place_m8n8k4_b(lane, i):
    return lane % 4, lane >> 2


# The forms of forms.ptx: (CUDA line, m, n, k, types, satfinite, registers and layouts, element bits)
FORMS = [
    dict(line=10, m=16, n=8, k=32, types=("s8", "u8", "s32", "s32"), sat=True,
         regs={"A": ["%a0", "%a1", "%a2", "%a3"], "B": ["%b0", "%b1"], "C": ["%c0", "%c1", "%c2", "%c3"],
               "D": ["%d0", "%d1", "%d2", "%d3"]},
         place={"A": place_m16n8k32_a, "B": place_m16n8k32_b, "C": place_m16n8_c, "D": place_m16n8_c}),
    dict(line=11, m=16, n=8, k=16, types=("u8", "s8", "s32", "s32"), sat=False,
         regs={"A": ["%a0", "%a1"], "B": ["%b0"], "C": ["%c0", "%c1", "%c2", "%c3"], "D": ["%q0", "%q1", "%q2", "%q3"]},
         place={"A": place_m16n8k16_a, "B": place_m16n8k16_b, "C": place_m16n8_c, "D": place_m16n8_c}),
    dict(line=12, m=8, n=8, k=4, types=("f64", "f64", "f64", "f64"), sat=False,
         regs={"A": ["%fa"], "B": ["%fb"], "C": ["%fc0", "%fc1"], "D": ["%fd0", "%fd1"]},
         place={"A": place_m8n8k4_a, "B": place_m8n8k4_b, "C": place_m8n8_c, "D": place_m8n8_c}),
    dict(line=13, m=8, n=8, k=16, types=("s8", "s8", "s32", "s32"), sat=False,
         regs={"A": ["%a2"], "B": ["%b1"], "C": ["%c0", "%c1"], "D": ["%c0", "%c1"]},
         place={"A": place_m8n8k16_a, "B": place_m8n8k16_b, "C": place_m8n8_c, "D": place_m8n8_c}),
    dict(line=14, m=16, n=8, k=16, types=("f16", "f16", "f32", "f32"), sat=False,
         regs={"A": ["%h0", "%h1", "%h2", "%h3"], "B": ["%h4", "%h5"], "C": ["%g0", "%g1", "%g2", "%g3"],
               "D": ["%e0", "%e1", "%e2", "%e3"]},
         place={"A": place_m16n8k16_f16_a, "B": place_m16n8k16_f16_b, "C": place_m16n8_c, "D": place_m16n8_c}),
]
BITS = {"s8": 8, "u8": 8, "s32": 32, "f64": 64, "f16": 16, "f32": 32}


def element_value(bits, ty):
    if ty == "s8":
        return bits - 256 if bits >= 128 else bits
    if ty == "u8":
        return bits
    if ty == "s32":
        return bits - (1 << 32) if bits >= 1 << 31 else bits
    if ty == "f16":
        return struct.unpack("<e", struct.pack("<H", bits))[0]
    if ty == "f32":
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def f16_pair(rng):
    """Two small integers as f16, the first in the low half: every sum of products stays exact."""
    lo, hi = (struct.unpack("<H", struct.pack("<e", float(rng.randrange(-4, 5))))[0] for _ in range(2))
    return "0x%04x%04x" % (hi, lo)


def lanes_file(rng):
    regs = {}
    for r in ["%a0", "%a1", "%a2", "%a3", "%b0", "%b1"]:
        regs[r] = ["0x%08x" % rng.getrandbits(32) for _ in range(32)]
    for r in ["%c0", "%c1", "%c2", "%c3"]:       # some near the ends of the s32 range: .satfinite
        regs[r] = [rng.choice([rng.randrange(-2**31, 2**31), 2**31 - 1 - rng.randrange(3000),
                               -2**31 + rng.randrange(3000)]) for _ in range(32)]
    for r in ["%fa", "%fb", "%fc0", "%fc1"]:
        regs[r] = [float(rng.randrange(-20, 21)) for _ in range(32)]
    for r in ["%h0", "%h1", "%h2", "%h3", "%h4", "%h5"]:
        regs[r] = [f16_pair(rng) for _ in range(32)]
    for r in ["%g0", "%g1", "%g2", "%g3"]:
        regs[r] = [float(rng.randrange(-100, 101)) for _ in range(32)]
    regs["%a1"][2] = None                         # lane 2's second A register: A[8][8..11] undefined
    regs["%c3"][5] = None                         # lane 5's C[9][3]
    return {"block": [32, 1, 1], "regs": regs}


def reg_bits(lanes, name, lane):
    v = lanes["regs"][name][lane]
    if v is None:
        return None
    if isinstance(v, str):
        return int(v, 16)
    if isinstance(v, float):
        return struct.unpack("<Q" if name.startswith("%f") else "<I",
                             struct.pack("<d" if name.startswith("%f") else "<f", v))[0]
    return v & 0xffffffff


def model(form, lanes):
    """Each operand: {(row, col): (bits or None, lane, reg, part)}, D computed."""
    out = {}
    for op, ty in zip("ABC", form["types"][:3]):
        width = BITS[ty]
        per_reg = 32 // width if width < 32 else 1
        cells = {}
        for lane in range(32):
            for i in range(per_reg * len(form["regs"][op])):
                reg, part = divmod(i, per_reg)
                word = reg_bits(lanes, form["regs"][op][reg], lane)
                bits = None if word is None else (word >> (part * width)) & ((1 << width) - 1)
                cells[form["place"][op](lane, i)] = (bits, lane, reg, part)
        out[op] = cells
    m, n, k = form["m"], form["n"], form["k"]
    d = {}
    for i in range(m):
        for j in range(n):
            items = [out["A"][(i, x)][0] for x in range(k)] + [out["B"][(x, j)][0] for x in range(k)]
            c = out["C"][(i, j)][0]
            if c is None or None in items:
                d[(i, j)] = None
                continue
            if form["types"][3] in ("f64", "f32"):        # small integers: every sum exact
                ty = form["types"][0]
                acc = element_value(c, form["types"][2])
                for x in range(k):
                    acc += element_value(out["A"][(i, x)][0], ty) * element_value(out["B"][(x, j)][0], ty)
                d[(i, j)] = struct.unpack("<Q" if ty == "f64" else "<I", struct.pack("<d" if ty == "f64" else "<f", acc))[0]
            else:
                acc = element_value(c, "s32") + sum(element_value(out["A"][(i, x)][0], form["types"][0]) *
                                                     element_value(out["B"][(x, j)][0], form["types"][1])
                                                     for x in range(k))
                if form["sat"]:
                    acc = max(-2**31, min(2**31 - 1, acc))
                d[(i, j)] = acc & 0xffffffff
    cells = {}
    for lane in range(32):
        for i in range(len(form["regs"]["D"])):
            rc = form["place"]["D"](lane, i)
            cells[rc] = (d[rc], lane, i, 0)
    out["D"] = cells
    return out


def run(ptxrun, *args):
    p = subprocess.run([ptxrun, "--no-color"] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check_json(form, want, got):
    where = "--matrix %d (JSON)" % form["line"]
    m, n, k = form["m"], form["n"], form["k"]
    if (got["m"], got["n"], got["k"]) != (m, n, k):
        fail("%s: shape %s" % (where, (got["m"], got["n"], got["k"])))
    if got["types"] != dict(zip("abcd", form["types"])):
        fail("%s: types %s" % (where, got["types"]))
    for op, ty in zip("ABCD", form["types"]):
        g = got[op]
        if g["registers"] != form["regs"][op]:
            fail("%s: %s's registers %s" % (where, op, g["registers"]))
        rows, cols = (k, n) if op == "B" else (m, k if op == "A" else n)
        if len(g["rows"]) != rows or any(len(r) != cols for r in g["rows"]):
            fail("%s: %s is not %dx%d" % (where, op, rows, cols))
            continue
        width = BITS[ty]
        for r in range(rows):
            for c in range(cols):
                bits, lane, reg, part = want[op][(r, c)]
                e = g["rows"][r][c]
                exp = {"lane": lane, "reg": reg, "part": part, "defined": bits is not None,
                       "value": None if bits is None else element_value(bits, ty),
                       "bits": None if bits is None else "0x%0*x" % (width // 4, bits)}
                if e != exp:
                    fail("%s: %s[%d][%d] is %s, the model's %s" % (where, op, r, c, e, exp))
                    return


def table(text, title):
    """The rows of the table after the line title (column blocks joined): {(row, col): cell}."""
    lines = text.split("\n")
    at = lines.index(title) + 1
    cells = {}
    while at < len(lines) and re.match(r"^ +\d+( +\d+)*$", lines[at]):
        cols = [int(x) for x in lines[at].split()]
        at += 1
        while at < len(lines) and re.match(r"^ *\d+:", lines[at]):
            head, rest = lines[at].split(":", 1)
            for c, v in zip(cols, rest.split()):
                cells[(int(head), c)] = v
            at += 1
        if at + 1 < len(lines) and lines[at] == "" and re.match(r"^ +\d+( +\d+)*$", lines[at + 1]):
            at += 1
    return cells


def check_text(form, want, text):
    where = "--matrix %d (table)" % form["line"]
    t = form["types"]
    shape = "m%dn%dk%d: D (%dx%d %s) = A (%dx%d %s) * B (%dx%d %s) + C (%dx%d %s)" % (
        form["m"], form["n"], form["k"], form["m"], form["n"], t[3], form["m"], form["k"], t[0],
        form["k"], form["n"], t[1], form["m"], form["n"], t[2])
    if shape not in text.split("\n"):
        fail("%s: no line '%s'" % (where, shape))
    for op, ty in zip("ABCD", t):
        rows, cols = (form["k"], form["n"]) if op == "B" else (form["m"], form["k"] if op == "A" else form["n"])
        title = "%s (%s, %dx%d), registers {%s}:" % (op, ty, rows, cols, ", ".join(form["regs"][op]))
        if title not in text.split("\n"):
            fail("%s: no line '%s'" % (where, title))
            continue
        values = table(text, title)
        per_reg = 32 // BITS[ty] if BITS[ty] < 32 else 1
        ptitle = "%s: LANE:REGISTER%s of each element (REGISTER: its place in {%s}%s):" % (
            op, ".PART" if per_reg > 1 else "", ", ".join(form["regs"][op]),
            "; PART: its place in the register from the low bits" if per_reg > 1 else "")
        places = table(text, ptitle) if ptitle in text.split("\n") else {}
        for r in range(rows):
            for c in range(cols):
                bits, lane, reg, part = want[op][(r, c)]
                v = "undef" if bits is None else element_value(bits, ty)
                shown = values.get((r, c))
                ok = shown == "undef" if v == "undef" else shown is not None and float(shown) == v
                if not ok:
                    fail("%s: %s[%d][%d] shown %s, the model's %s" % (where, op, r, c, shown, v))
                    return
                p = "%d:%d.%d" % (lane, reg, part) if per_reg > 1 else "%d:%d" % (lane, reg)
                if places.get((r, c)) != p:
                    fail("%s: %s[%d][%d]'s place shown %s, the model's %s" % (where, op, r, c, places.get((r, c)), p))
                    return


def check_trace(form, want, step):
    frags = step.get("fragments")
    if not frags:
        fail("--trace=json at line %d: no fragments" % form["line"])
        return
    for op in "ABCD":
        per_lane = [[] for _ in range(32)]
        for (r, c), (bits, lane, reg, part) in sorted(want[op].items(), key=lambda kv: (kv[1][2], kv[1][3])):
            while len(per_lane[lane]) <= reg:
                per_lane[lane].append([])
            per_lane[lane][reg].append([r, c])
        if frags[op] != per_lane:
            fail("--trace=json at line %d: %s's fragments %s, the model's %s" % (form["line"], op, frags[op][:2],
                                                                               per_lane[:2]))


def main():
    ptxrun, tmp = sys.argv[1], sys.argv[2]
    os.makedirs(tmp, exist_ok=True)
    lanes = lanes_file(random.Random(34))
    lanes_path = os.path.join(tmp, "forms.lanes.json")
    with open(lanes_path, "w") as f:
        json.dump(lanes, f)
    ptx = os.path.join(HERE, "forms.ptx")
    ptx_lines = open(ptx).read().split("\n")
    for form in FORMS:
        want = model(form, lanes)
        ptx_line = next(i + 1 for i, s in enumerate(ptx_lines) if s.strip() == ".loc 1 %d 5" % form["line"]) + 1
        rc, out, err = run(ptxrun, "--lanes", lanes_path, "--json", "--matrix", "forms.cu:%d" % form["line"], ptx)
        if rc != 0:
            fail("--matrix forms.cu:%d --json: exit %d: %s" % (form["line"], rc, err))
            continue
        doc = json.loads(out)
        if len(doc.get("matrices", [])) != 1:
            fail("--matrix forms.cu:%d --json: %d executions" % (form["line"], len(doc.get("matrices", []))))
            continue
        got = doc["matrices"][0]
        if (got["line"], got.get("source"), got.get("source_line"), got["execution"]) != (ptx_line, "forms.cu",
                                                                                       form["line"], 1):
            fail("--matrix forms.cu:%d: line %s, source %s:%s" % (form["line"], got["line"], got.get("source"),
                                                                  got.get("source_line")))
        check_json(form, want, got)
        rc, out, err = run(ptxrun, "--lanes", lanes_path, "--matrix", str(ptx_line), ptx)
        if rc != 0:
            fail("--matrix %d: exit %d: %s" % (ptx_line, rc, err))
            continue
        check_text(form, want, out)
        rc, out, err = run(ptxrun, "--lanes", lanes_path, "--trace=json", "--trace-lines", str(ptx_line), ptx)
        steps = [json.loads(s) for s in err.split("\n") if s.startswith("{")]
        if rc != 0 or len(steps) != 1:
            fail("--trace=json --trace-lines %d: exit %d, %d steps" % (ptx_line, rc, len(steps)))
            continue
        check_trace(form, want, steps[0])
    if not failures:
        print("matview: %d forms, every element of A, B, C, D as the model has it" % len(FORMS))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
