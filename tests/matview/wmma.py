#!/usr/bin/env python3
"""tests/matview/wmma.py PTXRUN TMPDIR: checks --matrix of wmma.mma without knowing wmma's fragment
layout. Each case loads A, B and C from memory (wmma.load, a layout and a stride), multiplies and
stores; the matrices are written here, so --matrix's A, B, C must be exactly them (whatever the
fragment layout), its D the A * B + C computed here (integers wrap; f16 inputs are small integers, so
the f32 sums are exact), and each element's lane, register and part must name the bits that the
fragment register of that lane holds at the end of the run (--json's final registers). Also --trace
must list, for every lane, each register's elements where --matrix says they are. Prints FAIL
lines, exits 1 on a difference."""
import json
import os
import random
import struct
import subprocess
import sys

failures = []


def fail(what):
    failures.append(what)
    print("FAIL: matview wmma: " + what)


def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


# name, shape (m, n, k), A/B type, C/D type, layouts (A, B, C, D), strides (elements; None: default),
# registers in each fragment (the ISA's wmma.load/wmma.mma vector sizes)
CASES = [
    dict(name="f16", m=16, n=16, k=16, ab="f16", cd="f32", lay=("row", "col", "row", "row"),
         stride=(24, None, None, 16), regs=(8, 8, 8, 8)),
    dict(name="s8", m=32, n=8, k=16, ab="s8", cd="s32", lay=("col", "row", "col", "row"),
         stride=(None, 16, 40, None), regs=(4, 1, 8, 8)),
]
BITS = {"f16": 16, "s8": 8, "f32": 32, "s32": 32}


def ptx_of(c):
    ra, rb, rc, rd = c["regs"]
    A = ["%%a%d" % i for i in range(ra)]
    B = ["%%b%d" % i for i in range(rb)]
    C = ["%%c%d" % i for i in range(rc)]
    D = ["%%d%d" % i for i in range(rd)]
    shape = "m%dn%dk%d" % (c["m"], c["n"], c["k"])
    la, lb, lc, ld = c["lay"]
    sa, sb, sc, sd = (", %d" % s if s else "" for s in c["stride"])
    lines = [
        ".version 8.0", ".target sm_90", ".address_size 64", "",
        ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)", "{",
        "    .reg .b32 %%a<%d>, %%b<%d>;" % (ra, rb),
        "    .reg .%s %%c<%d>, %%d<%d>;" % ("f32" if c["cd"] == "f32" else "b32", rc, rd),
        "    .reg .u64 %pa, %pb, %pc, %pd;",
        "    ld.param.u64 %pa, [pa];", "    ld.param.u64 %pb, [pb];",
        "    ld.param.u64 %pc, [pc];", "    ld.param.u64 %pd, [pd];",
        "    wmma.load.a.sync.aligned.%s.%s.global.%s {%s}, [%%pa]%s;" % (la, shape, c["ab"], ", ".join(A), sa),
        "    wmma.load.b.sync.aligned.%s.%s.global.%s {%s}, [%%pb]%s;" % (lb, shape, c["ab"], ", ".join(B), sb),
        "    wmma.load.c.sync.aligned.%s.%s.global.%s {%s}, [%%pc]%s;" % (lc, shape, c["cd"], ", ".join(C), sc),
        "    wmma.mma.sync.aligned.%s.%s.%s.%s {%s}, {%s}, {%s}, {%s};" % (   # f16: .dtype.ctype only
            la, lb, shape, "%s.%s" % (c["cd"], c["cd"]) if c["ab"] == "f16" else "%s.%s.%s.%s" % (
                c["cd"], c["ab"], c["ab"], c["cd"]), ", ".join(D), ", ".join(A), ", ".join(B), ", ".join(C)),
        "    wmma.store.d.sync.aligned.%s.%s.global.%s [%%pd], {%s}%s;" % (ld, shape, c["cd"], ", ".join(D), sd),
        "    ret;", "}", ""]
    line = next(i for i, s in enumerate(lines) if s.startswith("    wmma.mma")) + 1
    return "\n".join(lines), {"A": A, "B": B, "C": C, "D": D}, line


def buffer(mat, layout, stride, bits):
    """The matrix's elements in memory (row or column major, stride elements), as .b32 words."""
    rows, cols = len(mat), len(mat[0])
    major = cols if layout == "row" else rows
    stride = stride or major
    count = stride * ((rows if layout == "row" else cols) - 1) + major
    elems = [0] * count
    for r in range(rows):
        for q in range(cols):
            elems[r * stride + q if layout == "row" else q * stride + r] = mat[r][q]
    per = 32 // bits
    elems += [0] * (-len(elems) % per)
    return ["0x%08x" % sum((elems[i + j] & ((1 << bits) - 1)) << (bits * j) for j in range(per))
            for i in range(0, len(elems), per)]


def main():
    ptxrun, tmp = sys.argv[1], sys.argv[2]
    os.makedirs(tmp, exist_ok=True)
    rng = random.Random(3401)
    for c in CASES:
        m, n, k = c["m"], c["n"], c["k"]
        if c["ab"] == "f16":
            vals = lambda: rng.randrange(-4, 5)
            enc_ab = lambda v: f16_bits(v)
        else:
            vals = lambda: rng.randrange(-128, 128)
            enc_ab = lambda v: v & 0xFF
        A = [[vals() for _ in range(k)] for _ in range(m)]
        B = [[vals() for _ in range(n)] for _ in range(k)]
        if c["cd"] == "f32":
            C = [[float(rng.randrange(-200, 201)) for _ in range(n)] for _ in range(m)]
            enc_cd = f32_bits
        else:
            C = [[rng.randrange(-2**31, 2**31) for _ in range(n)] for _ in range(m)]
            enc_cd = lambda v: v & 0xFFFFFFFF
        D = [[C[i][j] + sum(A[i][q] * B[q][j] for q in range(k)) for j in range(n)] for i in range(m)]
        bits_ab, bits_cd = BITS[c["ab"]], BITS[c["cd"]]
        want = {"A": [[enc_ab(v) for v in r] for r in A], "B": [[enc_ab(v) for v in r] for r in B],
                "C": [[enc_cd(v) for v in r] for r in C], "D": [[enc_cd(v) for v in r] for r in D]}
        ptx, regs, line = ptx_of(c)
        path = os.path.join(tmp, "wmma_%s.ptx" % c["name"])
        with open(path, "w") as f:
            f.write(ptx)
        d_rows = m if c["lay"][3] == "row" else n
        lanes = {"block": [32, 1, 1], "params": ["@A", "@B", "@C", "@D"], "buffers": {
            "A": {"type": "b32", "data": buffer(want["A"], c["lay"][0], c["stride"][0], bits_ab)},
            "B": {"type": "b32", "data": buffer(want["B"], c["lay"][1], c["stride"][1], bits_ab)},
            "C": {"type": "b32", "data": buffer(want["C"], c["lay"][2], c["stride"][2], bits_cd)},
            "D": {"type": "b32", "data": ["0x0"] * ((c["stride"][3] or (n if c["lay"][3] == "row" else m)) * d_rows)}}}
        lanes_path = os.path.join(tmp, "wmma_%s.lanes.json" % c["name"])
        with open(lanes_path, "w") as f:
            json.dump(lanes, f)
        p = subprocess.run([ptxrun, "--no-color", "--lanes", lanes_path, "--json", "--matrix", str(line), path],
                           capture_output=True, text=True)
        if p.returncode != 0:
            fail("%s: --matrix %d: exit %d: %s" % (c["name"], line, p.returncode, p.stderr.strip()[:300]))
            continue
        doc = json.loads(p.stdout)
        got = doc.get("matrices", [])
        if len(got) != 1:
            fail("%s: %d executions" % (c["name"], len(got)))
            continue
        got = got[0]
        final = doc["regs"]
        if (got["m"], got["n"], got["k"]) != (m, n, k):
            fail("%s: shape %s" % (c["name"], (got["m"], got["n"], got["k"])))
        places = {}
        for op in "ABCD":
            g, w = got[op], want[op]
            bits = bits_ab if op in "AB" else bits_cd
            if g["registers"] != regs[op]:
                fail("%s: %s's registers %s" % (c["name"], op, g["registers"]))
            if len(g["rows"]) != len(w) or any(len(r) != len(w[0]) for r in g["rows"]):
                fail("%s: %s is not %dx%d" % (c["name"], op, len(w), len(w[0])))
                continue
            wrong = 0
            for r in range(len(w)):
                for q in range(len(w[0])):
                    e = g["rows"][r][q]
                    reg_bits = int(str(final[regs[op][e["reg"]]][e["lane"]]), 0) if isinstance(
                        final[regs[op][e["reg"]]][e["lane"]], str) else final[regs[op][e["reg"]]][e["lane"]]
                    if isinstance(reg_bits, float):
                        reg_bits = f32_bits(reg_bits)
                    held = reg_bits >> (bits * e["part"]) & ((1 << bits) - 1)
                    if e["bits"] != "0x%0*x" % (bits // 4, w[r][q]) or held != w[r][q] or not e["defined"]:
                        if not wrong:
                            fail("%s: %s[%d][%d] is %s (its register holds 0x%x there), the model's 0x%x" % (
                                c["name"], op, r, q, e, held, w[r][q]))
                        wrong += 1
                    places[(op, e["lane"], e["reg"], e["part"])] = (r, q)
        p = subprocess.run([ptxrun, "--no-color", "--lanes", lanes_path, "--trace=json", "--trace-lines", str(line),
                            path], capture_output=True, text=True)
        steps = [json.loads(s) for s in p.stderr.split("\n") if s.startswith("{")]
        if p.returncode != 0 or len(steps) != 1 or "fragments" not in steps[0]:
            fail("%s: --trace=json: exit %d, %d steps" % (c["name"], p.returncode, len(steps)))
            continue
        frags = steps[0]["fragments"]
        for op in "ABCD":
            wrong = [(lane, reg, part, r, q) for lane in range(32) for reg, group in enumerate(frags[op][lane])
                     if group is not None           # None: a register repeating another's elements
                     for part, (r, q) in enumerate(group) if places.get((op, lane, reg, part)) != (r, q)]
            if wrong:
                lane, reg, part, r, q = wrong[0]
                fail("%s: --trace: lane %d's %s register %d part %d is [%d][%d], --matrix's %s (%d such)" % (
                    c["name"], lane, op, reg, part, r, q, places.get((op, lane, reg, part)), len(wrong)))
    print("matview wmma: %d failure%s" % (len(failures), "" if len(failures) == 1 else "s"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
