#!/usr/bin/env python3
"""Turn single results recorded on an NVIDIA H100 into ptxrun test cases.

usage: scripts/h100_points.py [HW_DIR] [OUT_DIR]      (defaults: ../shared/hw tests/h100)

OUT_DIR/POINTS lists one case a line:  NAME  FOLDER/CASE  DEST  [THREADS]  [| DIAGNOSTIC]
DEST names the register an instruction of the H100 case wrote (as in its meta.json); THREADS is
a list like 0-7,12 (default: every thread of the first CTA). The case becomes a snippet with that
one instruction (its registers renamed d, a, b, c, e), a lanes file with the inputs the H100
instruction read (the H100's own values, for sources earlier instructions wrote) and an expect
file with the H100's result; the diagnostic, when given, must appear in ptxrun's messages (the
warning where ptxrun follows the H100 instead of the ISA text). Nothing comes from ptxrun.
"""
import json, os, re, sys

from cmdline import command_line

def load(p):
    with open(p) as f:
        return json.load(f)

def data(buf):
    return buf.get("data", []) if isinstance(buf, dict) else buf

def threads_of(spec, n):
    if not spec:
        return list(range(min(n, 32)))
    out = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out

def make(hw, out, line):
    line, _, diag = line.partition("|")
    fields = line.split()
    name, case, dest = fields[0], fields[1], fields[2]
    base = os.path.join(hw, case)
    meta, exp, lanes = load(base + ".meta.json"), load(base + ".expect.json"), load(base + ".lanes.json")
    ebuf = {k: data(v) for k, v in exp["buffers"].items()}
    lbuf = {k: data(v) for k, v in lanes["buffers"].items()}
    n = meta["nthreads"]
    ts = threads_of(fields[3] if len(fields) > 3 else "", n)
    op = next(o for o in meta["ops"] if dest in o["dst"])

    def value(reg, t):
        if reg in meta["slots"]:
            b, s = meta["slots"][reg]
            return ebuf[b][s * n + t]
        b, s = meta["inputs"][reg]
        return lbuf[b][s * n + t]

    names = {}
    for r in op["dst"] + op["src"]:
        if r not in names:
            names[r] = "d" if r in op["dst"] else "abce"[len([k for k in names if k not in op["dst"]])]
    text = re.sub(r"%[A-Za-z_][A-Za-z0-9_]*", lambda m: names.get(m.group(0), m.group(0)), op["text"])
    pred = meta["classes"].get(dest) == "pred"
    pad = [None] * (32 - len(ts))
    regs = {names[r]: [value(r, t) for t in ts] + pad for r in dict.fromkeys(op["src"])}
    result = [value(dest, t) for t in ts]
    with open(os.path.join(out, name + ".ptx"), "w") as f:
        f.write(f"// {case} (H100), {dest} of '{op['text']}', threads {fields[3] if len(fields) > 3 else 'all'}\n")
        f.write(text + "\n")
    with open(os.path.join(out, name + ".lanes.json"), "w") as f:
        json.dump({"active": hex((1 << len(ts)) - 1), "regs": regs}, f)
        f.write("\n")
    key = "preds" if pred else "regs"
    want = {key: {names[dest]: [bool(int(v, 0)) if pred else v for v in result] + pad}}
    if diag.strip():
        want["diagnostic"] = diag.strip()
    with open(os.path.join(out, name + ".expect.json"), "w") as f:
        json.dump(want, f)
        f.write("\n")

def main():
    argv = command_line(sys.argv, __doc__)
    hw = argv[1] if len(argv) > 1 else "../shared/hw"
    out = argv[2] if len(argv) > 2 else "tests/h100"
    with open(os.path.join(out, "POINTS")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                make(hw, out, line)

if __name__ == "__main__":
    main()
