#!/usr/bin/env python3
"""tests/matview/sparse.py PTXRUN TMPDIR: checks --matrix (JSON and table) and --trace's fragments
of the four mma.sp forms of tests/matview/sparse.ptx against a model written here from the PTX ISA
("Matrix fragments for multiply-accumulate operation with sparse matrix A", "Sparse matrix storage")
and docs/semantics.md's metadata rule, never from exec/: which lane and register hold each kept
element of A (the compressed fragment) and each of B, C, D; where the metadata places each kept
element in the dense A; which lane and bits give each chunk's nibble; D = A * B + C over the kept
elements (integers wrap; the f16 and tf32 inputs are small integers, so every f32 sum is exact).
The lanes file it writes has metadata with an undefined register in one lane, values the ISA leaves
undefined, and junk in the lanes the selector does not pick. Prints FAIL lines, exits 1 on a
difference."""
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
    print("FAIL: matview sparse: " + what)


# --- the ISA's sparse fragments (g = lane >> 2, t = lane % 4); element i of a lane's fragment ---
def a_8bit_k32(lane, i):            # compressed A 16x16: a0..a3 row g, a4..a7 row g + 8
    g, t = lane >> 2, lane % 4
    return (g if i < 4 else g + 8), 4 * t + i % 4


def b_8bit_k32(lane, i):            # B 32x8: b0..b3 rows 4t.., b4..b7 rows 16 + 4t..
    g, t = lane >> 2, lane % 4
    return 4 * t + i % 4 + 16 * (i // 4), g


def a_4bit_k64(lane, i):            # compressed A 16x32: a0..a7 row g, a8..a15 row g + 8
    g, t = lane >> 2, lane % 4
    return (g if i < 8 else g + 8), 8 * t + i % 8


def b_4bit_k64(lane, i):            # B 64x8: b0..b7 rows 8t.., b8..b15 rows 32 + 8t..
    g, t = lane >> 2, lane % 4
    return 8 * t + i % 8 + 32 * (i // 8), g


def a_f16_k16(lane, i):             # compressed A 16x8: a0, a1 row g, a2, a3 row g + 8
    g, t = lane >> 2, lane % 4
    return (g if i < 2 else g + 8), 2 * t + i % 2


def b_f16_k16(lane, i):             # B 16x8: b0, b1 rows 2t.., b2, b3 rows 8 + 2t..
    g, t = lane >> 2, lane % 4
    return 2 * t + i % 2 + 8 * (i // 2), g


def a_tf32_k8(lane, i):             # compressed A 16x4: a0 row g, a1 row g + 8, column t
    g, t = lane >> 2, lane % 4
    return g + 8 * i, t


def b_tf32_k8(lane, i):             # B 8x8: b0 row t, b1 row t + 4
    g, t = lane >> 2, lane % 4
    return t + 4 * i, g


def cd(lane, i):                    # C and D 16x8: c0, c1 row g, c2, c3 row g + 8
    g, t = lane >> 2, lane % 4
    return g + 8 * (i // 2), 2 * t + i % 2


FORMS = [
    dict(line=20, k=32, at="s8", bt="u8", ct="s32", bits=8, ordered=True, selector=1, chunk=4,
         regs={"A": ["%a0", "%a1"], "B": ["%b0", "%b1"], "C": ["%c0", "%c1", "%c2", "%c3"],
               "D": ["%d0", "%d1", "%d2", "%d3"]}, e="%e0", place={"A": a_8bit_k32, "B": b_8bit_k32}),
    dict(line=21, k=64, at="u4", bt="s4", ct="s32", bits=4, ordered=False, selector=0, chunk=8,
         regs={"A": ["%a2", "%a3"], "B": ["%b2", "%b3"], "C": ["%c0", "%c1", "%c2", "%c3"],
               "D": ["%q0", "%q1", "%q2", "%q3"]}, e="%e1", place={"A": a_4bit_k64, "B": b_4bit_k64}),
    dict(line=22, k=16, at="f16", bt="f16", ct="f32", bits=16, ordered=False, selector=2, chunk=4,
         regs={"A": ["%h0", "%h1"], "B": ["%h2", "%h3"], "C": ["%g0", "%g1", "%g2", "%g3"],
               "D": ["%f0", "%f1", "%f2", "%f3"]}, e="%e2", place={"A": a_f16_k16, "B": b_f16_k16}),
    dict(line=23, k=8, at="tf32", bt="tf32", ct="f32", bits=32, ordered=True, selector=3, chunk=2,
         regs={"A": ["%t0", "%t1"], "B": ["%t2", "%t3"], "C": ["%g0", "%g1", "%g2", "%g3"],
               "D": ["%s0", "%s1", "%s2", "%s3"]}, e="%e3", place={"A": a_tf32_k8, "B": b_tf32_k8}),
]


def nibbles(f):
    return f["k"] // f["chunk"]


def meta_at(f, r, j):
    """Nibble j of row r: its lane and first bit (docs/semantics.md, "Metadata")."""
    threads = nibbles(f) // 4
    return 4 * (r % 8) + f["selector"] * threads + j // 4, 4 * (j % 4) + 16 * (r // 8)


def kept_columns(f, nib, j):
    """The dense columns chunk j's nibble keeps, in the fragment's order; None if the ISA leaves it
    undefined."""
    if f["at"] == "tf32":
        return {0x4: [2 * j], 0xE: [2 * j + 1]}.get(nib)
    lo, hi = nib & 3, nib >> 2
    if lo == hi or (f["ordered"] and lo > hi):
        return None
    if f["bits"] == 4:                  # pairs of 4-bit elements
        return [8 * j + 2 * lo, 8 * j + 2 * lo + 1, 8 * j + 2 * hi, 8 * j + 2 * hi + 1]
    return [4 * j + lo, 4 * j + hi]


def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def value(bits, ty):
    w = {"s8": 8, "u8": 8, "s4": 4, "u4": 4, "s32": 32}.get(ty)
    if w:
        return bits - (1 << w) if ty[0] == "s" and bits >> (w - 1) else bits
    if ty == "f16":
        return struct.unpack("<e", struct.pack("<H", bits))[0]
    return struct.unpack("<f", struct.pack("<I", bits))[0]   # f32, tf32 (small integers: exact)


def lanes_file(rng):
    regs = {}
    for r in ["%a0", "%a1", "%a2", "%a3", "%b0", "%b1", "%b2", "%b3"]:
        regs[r] = ["0x%08x" % rng.getrandbits(32) for _ in range(32)]
    for r in ["%c0", "%c1", "%c2", "%c3"]:
        regs[r] = [rng.randrange(-2**31, 2**31) for _ in range(32)]
    for r in ["%h0", "%h1", "%h2", "%h3"]:
        regs[r] = ["0x%04x%04x" % (f16_bits(rng.randrange(-4, 5)), f16_bits(rng.randrange(-4, 5))) for _ in range(32)]
    for r in ["%t0", "%t1", "%t2", "%t3"]:
        regs[r] = ["0x%08x" % f32_bits(rng.randrange(-8, 9)) for _ in range(32)]
    for r in ["%g0", "%g1", "%g2", "%g3"]:
        regs[r] = [float(rng.randrange(-100, 101)) for _ in range(32)]
    for f in FORMS:                     # junk in every lane, then each chunk's nibble where it belongs
        words = [rng.getrandbits(32) for _ in range(32)]
        choices = [n for n in range(16) if kept_columns(f, n, 0) is not None]
        for r in range(16):
            for j in range(nibbles(f)):
                lane, bit = meta_at(f, r, j)
                words[lane] = words[lane] & ~(0xF << bit) | rng.choice(choices) << bit
        regs[f["e"]] = ["0x%08x" % w for w in words]
    e = regs
    # %e0 (selector 1 of 2 threads: lanes 4g + 2, 4g + 3): lane 6 undefined (rows 1 and 9, chunks
    # 0..3), row 4 chunk 5 (lane 19, bits 4..7) 0b0001: decreasing, undefined for ::ordered_metadata
    e["%e0"][6] = None
    e["%e0"][19] = "0x%08x" % (int(e["%e0"][19], 16) & ~0xF0 | 0x10)
    # %e1 (selector 0: lanes 4g, 4g + 1): row 10 chunk 2 (lane 8, bits 24..27) 0b1010, equal indices;
    # row 3 chunk 0 (lane 12, bits 0..3) 0b0001: decreasing, which plain mma.sp keeps (columns 2,3,0,1)
    e["%e1"][8] = "0x%08x" % (int(e["%e1"][8], 16) & ~0x0F000000 | 0x0A000000)
    e["%e1"][12] = "0x%08x" % (int(e["%e1"][12], 16) & ~0xF | 0x1)
    # %e3 (.tf32, selector 3: lanes 4g + 3): row 2 chunk 1 (lane 11, bits 4..7) 0b1000, not 0b0100 or 0b1110
    e["%e3"][11] = "0x%08x" % (int(e["%e3"][11], 16) & ~0xF0 | 0x80)
    return {"block": [32, 1, 1], "regs": regs}


def word(lanes, name, lane):
    v = lanes["regs"][name][lane]
    if v is None:
        return None
    if isinstance(v, str):
        return int(v, 16)
    if isinstance(v, float):
        return f32_bits(v)
    return v & 0xFFFFFFFF


def element(lanes, regs, lane, i, bits):
    per = 32 // bits
    w = word(lanes, regs[i // per], lane)
    return w >> (bits * (i % per)) & ((1 << bits) - 1), i // per, i % per


def model(f, lanes):
    """{"held": {(r, c): (bits, lane, reg, part)}, "A": {(r, c): that, or "." or "?"}, "B", "C", "D"
    likewise (D's bits None where undefined), "meta": {(r, j): (lane, bit, nibble or None, columns)}}."""
    bits, k = f["bits"], f["k"]
    per = 32 // bits
    want = {"held": {}, "A": {}, "B": {}, "C": {}, "D": {}, "meta": {}}
    for lane in range(32):
        for i in range(16 * k // 2 // 32):
            b, reg, part = element(lanes, f["regs"]["A"], lane, i, bits)
            want["held"][f["place"]["A"](lane, i)] = (b, lane, reg, part)
        for i in range(k * 8 // 32):
            b, reg, part = element(lanes, f["regs"]["B"], lane, i, bits)
            want["B"][f["place"]["B"](lane, i)] = (b, lane, reg, part)
        for i in range(4):
            want["C"][cd(lane, i)] = (word(lanes, f["regs"]["C"][i], lane), lane, i, 0)
    kept = per_chunk = f["chunk"] // 2
    good = [True] * 16
    for r in range(16):
        for j in range(nibbles(f)):
            lane, bit = meta_at(f, r, j)
            w = word(lanes, f["e"], lane)
            nib = None if w is None else w >> bit & 0xF
            cols = None if nib is None else kept_columns(f, nib, j)
            want["meta"][(r, j)] = (lane, bit, nib, cols)
            for c in range(f["chunk"] * j, f["chunk"] * (j + 1)):
                want["A"][(r, c)] = "." if cols else "?"
            if not cols:
                good[r] = False
                continue
            for q, c in enumerate(cols):
                want["A"][(r, c)] = want["held"][(r, kept * j + q)]
    assert per_chunk == kept
    for lane in range(32):
        for i in range(4):
            r, c = cd(lane, i)
            d = None
            if good[r]:
                s = value(want["C"][(r, c)][0], f["ct"])
                for q in range(k):
                    a = want["A"][(r, q)]
                    if isinstance(a, tuple):
                        s += value(a[0], f["at"]) * value(want["B"][(q, c)][0], f["bt"])
                d = (s & 0xFFFFFFFF) if f["ct"] == "s32" else f32_bits(s)
            want["D"][(r, c)] = (d, lane, i, 0)
    return want


def run(ptxrun, *args):
    p = subprocess.run([ptxrun, "--no-color"] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def json_element(want, ty):
    if want == ".":
        return {"value": None, "bits": None, "lane": None, "reg": None, "part": None, "defined": None, "kept": False}
    if want == "?":
        return {"value": None, "bits": None, "lane": None, "reg": None, "part": None, "defined": None, "kept": None}
    bits, lane, reg, part = want
    width = {"s8": 8, "u8": 8, "s4": 4, "u4": 4, "f16": 16}.get(ty, 32)
    return {"value": None if bits is None else value(bits, ty), "lane": lane, "reg": reg, "part": part,
            "bits": None if bits is None else "0x%0*x" % ((width + 3) // 4, bits), "defined": bits is not None}


def check_json(f, want, got):
    where = "--matrix %d (JSON)" % f["line"]
    k = f["k"]
    types = {"a": f["at"], "b": f["bt"], "c": f["ct"], "d": f["ct"]}
    if (got["m"], got["n"], got["k"], got["types"]) != (16, 8, k, types):
        fail("%s: shape, types %s" % (where, (got["m"], got["n"], got["k"], got["types"])))
    sp = got.get("sparse")
    if not sp:
        fail("%s: no \"sparse\"" % where)
        return
    if (sp["ordered"], sp["selector"], sp["chunk"], sp["kept"], sp["metadata"]["register"]) != (
            f["ordered"], f["selector"], f["chunk"], f["chunk"] // 2, f["e"]):
        fail("%s: sparse %s" % (where, {x: sp[x] for x in ("ordered", "selector", "chunk", "kept")}))
    shapes = {"held": (16, k // 2, "A", f["at"]), "A": (16, k, "A", f["at"]), "B": (k, 8, "B", f["bt"]),
              "C": (16, 8, "C", f["ct"]), "D": (16, 8, "D", f["ct"])}
    for name, (rows, cols, regs, ty) in shapes.items():
        g = sp["held"] if name == "held" else got[name]
        if g["registers"] != f["regs"][regs]:
            fail("%s: %s's registers %s" % (where, name, g["registers"]))
        if len(g["rows"]) != rows or any(len(r) != cols for r in g["rows"]):
            fail("%s: %s is not %dx%d" % (where, name, rows, cols))
            continue
        for r in range(rows):
            for c in range(cols):
                exp = json_element(want[name][(r, c)], ty)
                e = dict(g["rows"][r][c])
                if name == "A" and isinstance(want["A"][(r, c)], tuple):
                    exp["kept"] = True
                if e != exp:
                    fail("%s: %s[%d][%d] is %s, the model's %s" % (where, name, r, c, e, exp))
                    return
    for r in range(16):
        for j in range(nibbles(f)):
            lane, bit, nib, cols = want["meta"][(r, j)]
            e = sp["metadata"]["rows"][r][j]
            exp = {"lane": lane, "bit": bit, "nibble": None if nib is None else "0x%x" % nib,
                   "defined": nib is not None, "valid": cols is not None, "columns": cols}
            if e != exp:
                fail("%s: metadata of row %d chunk %d is %s, the model's %s" % (where, r, j, e, exp))
                return


def table(text, title):
    """The rows of the table after the line that starts with title: {(row, col): cell}."""
    lines = text.split("\n")
    at = next(i for i, s in enumerate(lines) if s.startswith(title)) + 1
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


def check_text(f, want, text):
    where = "--matrix %d (table)" % f["line"]
    sp = "mma.sp%s, sparse A: %d of each %d elements of a row kept, as the metadata says" % (
        "::ordered_metadata" if f["ordered"] else "", f["chunk"] // 2, f["chunk"])
    if sp not in text.split("\n"):
        fail("%s: no line '%s'" % (where, sp))
    a = table(text, "A (%s, 16x%d), registers {%s} (they hold its kept 16x%d" % (
        f["at"], f["k"], ", ".join(f["regs"]["A"]), f["k"] // 2))
    a_places = table(text, "A: LANE:REGISTER")
    meta = table(text, "metadata %s, selector %d" % (f["e"], f["selector"]))
    meta_places = table(text, "metadata: LANE:BIT")
    for (r, c), w in want["A"].items():
        if isinstance(w, tuple):
            v = value(w[0], f["at"])
            exp = "%d" % v if f["at"] in ("s8", "u4") else "%.1f" % v
            place = "%d:%d.%d" % (w[1], w[2], w[3]) if f["bits"] < 32 else "%d:%d" % (w[1], w[2])
        else:
            exp = place = w
        if f["at"] in ("s8", "u4") and a.get((r, c)) != exp or a_places.get((r, c)) != place:
            fail("%s: A[%d][%d] shown as %s at %s, the model's %s at %s" % (where, r, c, a.get((r, c)),
                                                                          a_places.get((r, c)), exp, place))
            return
    for (r, j), (lane, bit, nib, cols) in want["meta"].items():
        if cols:
            exp = ",".join(str(c) for c in cols)
        elif nib is None:
            exp = "0b????"
        else:
            exp = "!0b{:04b}".format(nib)
        if meta.get((r, j)) != exp or meta_places.get((r, j)) != "%d:%d" % (lane, bit):
            fail("%s: the metadata of row %d chunk %d shown as %s at %s, the model's %s at %d:%d" % (
                where, r, j, meta.get((r, j)), meta_places.get((r, j)), exp, lane, bit))
            return


def check_trace(f, want, step):
    frags = step.get("fragments")
    if not frags:
        fail("--trace=json at line %d: no fragments" % f["line"])
        return
    for op, name in (("A", "held"), ("B", "B"), ("C", "C"), ("D", "D")):
        per_lane = [[] for _ in range(32)]
        for (r, c), (bits, lane, reg, part) in sorted(want[name].items(), key=lambda kv: (kv[1][2], kv[1][3])):
            while len(per_lane[lane]) <= reg:
                per_lane[lane].append([])
            per_lane[lane][reg].append([r, c])
        if frags[op] != per_lane:
            fail("--trace=json at line %d: %s's fragments %s, the model's %s" % (f["line"], op, frags[op][:2],
                                                                               per_lane[:2]))
    gives = [[] for _ in range(32)]
    for (r, j), (lane, bit, nib, cols) in sorted(want["meta"].items(), key=lambda kv: kv[1][1]):
        gives[lane].append([r, j])
    if frags.get("e") != gives:
        fail("--trace=json at line %d: e's nibbles %s, the model's %s" % (f["line"], frags.get("e"), gives))
    regs = {d["name"] if isinstance(d, dict) and "name" in d else None for d in step.get("writes", [])}
    del regs


def main():
    ptxrun, tmp = sys.argv[1], sys.argv[2]
    os.makedirs(tmp, exist_ok=True)
    lanes = lanes_file(random.Random(3434))
    lanes_path = os.path.join(tmp, "sparse.lanes.json")
    with open(lanes_path, "w") as fh:
        json.dump(lanes, fh)
    ptx = os.path.join(HERE, "sparse.ptx")
    for f in FORMS:
        want = model(f, lanes)
        line = str(f["line"])
        rc, out, err = run(ptxrun, "--lanes", lanes_path, "--json", "--matrix", line, ptx)
        if rc != 0:
            fail("--matrix %s --json: exit %d: %s" % (line, rc, err.strip()[:300]))
            continue
        got = json.loads(out).get("matrices", [])
        if len(got) != 1:
            fail("--matrix %s --json: %d executions" % (line, len(got)))
            continue
        check_json(f, want, got[0])
        rc, out, err = run(ptxrun, "--lanes", lanes_path, "--matrix", line, ptx)
        if rc != 0:
            fail("--matrix %s: exit %d" % (line, rc))
            continue
        check_text(f, want, out)
        rc, out, err = run(ptxrun, "--lanes", lanes_path, "--trace=json", "--trace-lines", line, ptx)
        steps = [json.loads(s) for s in err.split("\n") if s.startswith("{")]
        if rc != 0 or len(steps) != 1:
            fail("--trace=json --trace-lines %s: exit %d, %d steps" % (line, rc, len(steps)))
            continue
        check_trace(f, want, steps[0])
    print("matview sparse: %d failure%s" % (len(failures), "" if len(failures) == 1 else "s"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
