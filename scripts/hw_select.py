#!/usr/bin/env python3
"""hw_select.py: a compact selection of the H100 cases, and the list of cases ptxrun refuses.

    scripts/hw_select.py [--from ../shared/hw] [--to tests/hw] [--dry-run] [--max-mb N]
        copies into tests/hw/<folder>/ the cases of <from>/<folder>/ that together keep every
        feature the folder has (below), whole (NAME.ptx, .lanes.json, .expect.json, .meta.json);
        with --max-mb, as many features as N MB hold
    scripts/hw_select.py --not-yet [--ptxrun build/ptxrun] [--jobs 2]
        runs every case of tests/hw and <from> and writes tests/hw/not-yet.txt: the cases ptxrun
        refuses before running ("cannot execute", exit 2), one line each, with its message

Features, per folder:
- every instruction form, the `what` of NAME.meta.json's ops (`cvt.rzi.sat.s8.f64`, `shfl.sync.up.b32|p`
  when it also writes a predicate), with the shape of its operands (register or immediate);
- every value class met by a form's family (its opcode and types: cvt.s8.f64): the classes of every
  source value it read in every thread (inputs from NAME.lanes.json, earlier results from
  NAME.expect.json) and of its immediates, by the bits of the form's type: NaN quiet or signalling,
  +-inf, +-0, subnormal, largest finite, normal; 0, 1, all ones, INT_MIN, INT_MAX, below the width,
  up to 255, other positive or negative; true, false. (Pairs of exact form and class would keep
  nearly every program: most forms appear in two or three.)
- divergence programs: what each warp instruction measures and where (digits dropped), the number of
  constructs, and which construct follows which (loops, loops with a branch, if/else, nested if,
  lane groups, key switches, early exits: from the labels of the PTX);
- tensor-core programs: every form (mma shape and types, ldmatrix/stmatrix .x and .trans, wmma
  layouts and strides), and every input flavour for each element type of A.
Folders of few cases (undef, probes) are kept whole.

The cover is greedy: the case that brings the most new features per byte first, ties to the smaller
case, then by name, so the same input gives the same selection. Requires Python 3.8, nothing else.
"""
import argparse
import concurrent.futures
import heapq
import json
import os
import re
import shutil
import subprocess
import sys

FOLDERS = ["int", "float", "float_approx", "half", "shfl", "diverge", "undef", "probes", "mma"]
KEEP_WHOLE = {"undef", "probes"}
SUFFIXES = [".ptx", ".lanes.json", ".expect.json", ".meta.json"]

# The register classes of meta.json, as the type their bits are read as.
REGISTER_CLASS = {
    "i16": "b16", "i32": "b32", "i64": "b64", "f16": "f16", "bf16": "bf16", "f32": "f32",
    "f64": "f64", "h2": "f16x2", "b2": "bf16x2", "pred": "pred",
}
FLOAT_LAYOUT = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23), "f64": (11, 52)}
TYPE_SUFFIX = re.compile(r"^(?:[bsu](?:8|16|32|64)|f(?:16|32|64)|bf16|f16x2|bf16x2|[su]16x2|pred)$")


def width(t):
    if t == "pred":
        return 1
    if t.endswith("x2"):
        return 2 * width(t[:-2])
    return int(re.sub(r"\D", "", t.replace("bf", "")))


def float_class(bits, t):
    exp_bits, man_bits = FLOAT_LAYOUT[t]
    sign = "-" if bits >> (exp_bits + man_bits) else "+"
    exp = (bits >> man_bits) & ((1 << exp_bits) - 1)
    man = bits & ((1 << man_bits) - 1)
    if exp == (1 << exp_bits) - 1:
        if man == 0:
            return sign + "inf"
        return "qnan" if man >> (man_bits - 1) else "snan"
    if exp == 0:
        return sign + ("0" if man == 0 else "subnormal")
    if exp == (1 << exp_bits) - 2 and man == (1 << man_bits) - 1:
        return sign + "max"
    return sign + "normal"


def int_class(bits, w):
    top = 1 << (w - 1)
    if bits == 0:
        return "0"
    if bits == 1:
        return "1"
    if bits == (1 << w) - 1:
        return "all-ones"
    if bits == top:
        return "int-min"
    if bits == top - 1:
        return "int-max"
    if bits < w:
        return "below-width"
    if bits < 256:
        return "width-to-255"
    return "negative" if bits & top else "positive"


def value_classes(bits, t):
    """The classes of one value read as type t (packed types give one class per half)."""
    if t == "pred":
        return ["true" if bits else "false"]
    if t.endswith("x2"):
        half = width(t) // 2
        return [c + "(x2)" for part in (bits & ((1 << half) - 1), bits >> half)
                for c in value_classes(part, t[:-2])]
    bits &= (1 << width(t)) - 1
    if t in FLOAT_LAYOUT:
        return [float_class(bits, t)]
    return [int_class(bits, width(t))]


def form_type(what):
    """The last type suffix of an instruction form: the type its sources are read as."""
    types = [part for part in what.split(".") if TYPE_SUFFIX.match(part)]
    return types[-1] if types else None


def source_type(what, register_class):
    """How to read a source register of class register_class in instruction form what."""
    own = REGISTER_CLASS.get(register_class, "b32")
    t = form_type(what)
    if own == "pred" or t is None:
        return own
    if width(t) > width(own) or (width(t) < width(own) and ".wide" in what):
        return own                            # a shift count, a .wide operand
    return t


def parse_bits(value, t):
    """The bits of a lanes/expect value ("0x..." strings in these files), or None."""
    try:
        if isinstance(value, str):
            number = int(value, 16) if value.lstrip("-").startswith("0x") else int(value)
        else:
            number = int(value)
    except ValueError:
        return None
    return number & ((1 << width(t)) - 1)


def parse_immediate(text):
    """A PTX integer immediate (decimal, 0x hex, 0 octal), or None."""
    m = re.match(r"^(-?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)$", text)
    if not m:
        return None
    digits = m.group(2)
    base = 16 if digits[:2].lower() == "0x" else 8 if digits.startswith("0") else 10
    value = int(digits[2:] if base == 16 else digits, base)
    return -value if m.group(1) else value


class Case:
    def __init__(self, folder_path, name, folder):
        self.name = name
        self.key = folder + "/" + name
        self.paths = [os.path.join(folder_path, name + s) for s in SUFFIXES]
        self.paths = [p for p in self.paths if os.path.exists(p)]
        self.size = sum(os.path.getsize(p) for p in self.paths)
        meta = os.path.join(folder_path, name + ".meta.json")
        self.meta = load_json(meta) if os.path.exists(meta) else {}
        self.folder_path = folder_path

    def buffers(self, which):
        path = os.path.join(self.folder_path, self.name + which)
        data = load_json(path).get("buffers", {})
        return {k: (v.get("data", []) if isinstance(v, dict) else v) for k, v in data.items()}

    def register_values(self):
        """Register name -> list of bits per thread, for the inputs and the recorded results."""
        n = self.meta.get("nthreads", 32)
        inputs, results = self.buffers(".lanes.json"), self.buffers(".expect.json")
        values = {}
        for table, buffers in ((self.meta.get("inputs", {}), inputs), (self.meta.get("slots", {}), results)):
            for reg, place in table.items():
                if not isinstance(place, list) or len(place) != 2:
                    continue
                data = buffers.get(place[0], [])
                chunk = data[place[1] * n:(place[1] + 1) * n]
                if len(chunk) == n:
                    values[reg] = chunk
        return values


def load_json(path):
    with open(path) as f:
        return json.load(f)


def operands(text):
    """The operands of the first instruction of an ops text, and whether the first one is d|p."""
    text = text.split(";")[0]
    text = re.sub(r"^@!?%?\w+\s+", "", text.strip())
    parts = text.split(None, 1)
    if len(parts) < 2:
        return [], False
    ops = [o.strip() for o in re.split(r",(?![^{]*})", parts[1])]
    return ops, "|" in ops[0]


def family(what):
    """An instruction form without its modifiers: cvt.rzi.sat.s8.f64 -> cvt.s8.f64."""
    parts = what.split(".")
    return ".".join([parts[0]] + [p for p in parts[1:] if TYPE_SUFFIX.match(p)])


def op_features(op, classes, values):
    """The form, its operands (register or immediate), and the classes of what it read: the
    classes per family, since one program per rounding mode and class would keep nearly all."""
    what = op["what"]
    ops, pair = operands(op["text"])
    form = what + ("|p" if pair else "")
    feats = {(form,)}
    immediates = [parse_immediate(o) for o in ops[1:]]
    shape = "".join("r" if v is None else "i" for v in immediates)
    feats.add((form, "operands " + shape))
    t = form_type(what)
    for v in immediates:
        if v is not None and t and t != "pred":
            for c in value_classes(v & ((1 << width(t)) - 1), t):
                feats.add((family(what), "imm " + c))
    for reg in op.get("src", []):
        reg = reg.lstrip("!")
        if reg not in values:
            continue
        t = source_type(what, classes.get(reg, "i32"))
        for v in values[reg]:
            bits = parse_bits(v, t) if v is not None else None
            if bits is not None:
                feats.update((family(what), c) for c in value_classes(bits, t))
    return feats


def straight_line_features(case):
    classes = dict(case.meta.get("classes", {}))
    classes.update(case.meta.get("input_classes", {}))
    values = case.register_values()
    feats = set()
    for op in case.meta.get("ops", []):
        feats |= op_features(op, classes, values)
    return feats


# The constructs of a divergence program, by the labels the generator gave them.
CONSTRUCT = {"G": "lane groups", "NJOIN": None, "PA": "nested if", "PB": None, "PC": None, "PJOIN": None,
             "LOOP": "loop", "SKIP": "branch in loop", "ELSE": "if/else", "JOIN": None, "KJOIN": "key switch",
             "STAY": "early exit", "EXIT_STORE": None}


def diverge_features(case):
    feats = set()
    for op in case.meta.get("ops", []):
        feats.add(("measure", re.sub(r"\d+", "N", op["text"])))
    with open(case.paths[0]) as f:
        labels = re.findall(r"^([A-Za-z_]+?)_?\d*:", f.read(), re.M)
    order = [CONSTRUCT.get(label, label) for label in labels if CONSTRUCT.get(label, label)]
    shape = []
    for c in order:
        if c == "branch in loop" and shape and shape[-1] == "loop":
            shape[-1] = "loop with a branch"
        elif not shape or shape[-1] != c or c == "loop":
            shape.append(c)
    for a, b in zip(["start"] + shape, shape + ["end"]):
        feats.add(("then", a, b))
    feats.add(("constructs", len(shape)))
    return feats


def mma_features(case):
    m = case.meta
    kind = m.get("kind", "?")
    if kind == "mma":
        a_type = m.get("types", {}).get("a", "?")
        return {(kind, m.get("form")), (kind, a_type, m.get("flavor"))}
    if kind in ("ldmatrix", "stmatrix"):
        return {(kind, m.get("x"), m.get("trans"))}
    if kind == "wmma":
        layouts = m.get("layouts", {})
        return {(kind, tuple(sorted(layouts.items()))), (kind, "stride", m.get("stride")), (kind, m.get("flavor"))}
    return {(kind,)}


def features(folder, case):
    if folder == "diverge":
        return diverge_features(case)
    if folder == "mma":
        return mma_features(case)
    return straight_line_features(case)


def case_names(folder_path):
    return sorted({f[:-4] for f in os.listdir(folder_path) if f.endswith(".ptx")})


def greedy_cover(cases, feats, budget=None):
    """Cases that together hold every feature, within budget bytes if given: the case with the most
    new features per byte first, ties to the smaller case, then the smaller key. Gains only shrink,
    so a heap of possibly stale gains finds each best case without rescanning them all. Returns the
    chosen cases and the features left out."""
    left = set().union(*feats.values()) if feats else set()

    def order(c):
        return (-len(feats[c.key] & left) / c.size, c.size, c.key)

    heap = [(order(c), i) for i, c in enumerate(cases)]
    heapq.heapify(heap)
    chosen, size = [], 0
    while left and heap:
        _, i = heapq.heappop(heap)
        c = cases[i]
        if budget is not None and size + c.size > budget:
            continue
        fresh = order(c)
        if fresh[0] == 0:
            continue
        if heap and fresh > heap[0][0]:
            heapq.heappush(heap, (fresh, i))
            continue
        chosen.append(c)
        size += c.size
        left -= feats[c.key]
    return chosen, left


def select(source, target, dry_run, budget):
    """Chooses across all folders at once, so that a budget goes where it buys the most."""
    by_folder, feats, whole = {}, {}, []
    for folder in FOLDERS:
        folder_path = os.path.join(source, folder)
        if not os.path.isdir(folder_path):
            continue
        by_folder[folder] = [Case(folder_path, n, folder) for n in case_names(folder_path)]
        if folder in KEEP_WHOLE:
            whole += by_folder[folder]
        else:
            for c in by_folder[folder]:
                feats[c.key] = {(folder,) + f for f in features(folder, c)}
    rest = [c for c in sum(by_folder.values(), []) if c.key in feats]
    kept = budget - sum(c.size for c in whole) if budget is not None else None
    chosen, left = greedy_cover(rest, {c.key: feats[c.key] for c in rest}, kept)
    chosen = {c.key for c in chosen + whole}
    total = 0
    for folder, cases in by_folder.items():
        picked = [c for c in cases if c.key in chosen]
        size = sum(c.size for c in picked)
        total += size
        nfeat = len({f for c in cases if c.key in feats for f in feats[c.key]})
        missing = len([f for f in left if f[0] == folder])
        print(f"{folder:13} {len(picked):4} of {len(cases):4} cases, {size / 1e6:6.2f} MB"
              + (f", {nfeat} features" if nfeat else ", all kept")
              + (f", {missing} left out" if missing else ""))
        print("    " + " ".join(c.name for c in picked))
        if not dry_run:
            copy_folder(os.path.join(source, folder), os.path.join(target, folder), picked)
    print(f"total {total / 1e6:.2f} MB")


def copy_folder(folder_path, out, cases):
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    for c in cases:
        for p in c.paths:
            shutil.copyfile(p, os.path.join(out, os.path.basename(p)))
    readme = os.path.join(folder_path, "README.md")     # mma/README.md: layouts, flavours
    if os.path.exists(readme):
        shutil.copyfile(readme, os.path.join(out, "README.md"))


# ---- the cases ptxrun cannot execute yet ----

def refusal(ptxrun, ptx):
    """ptxrun's 'cannot execute' message for this case, or None when it runs (or fails otherwise)."""
    base = ptx[:-4]
    cmd = [ptxrun, "-w", "--no-color", ptx]
    for option, suffix in (("--lanes", ".lanes.json"), ("--expect", ".expect.json")):
        if os.path.exists(base + suffix):
            cmd += [option, base + suffix]
    run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
    if run.returncode != 2:
        return None
    for line in run.stderr.splitlines():
        if "cannot execute" in line:
            return re.sub(r"^.*?: error: ", "", line).strip()
    return None


def not_yet(roots, ptxrun, jobs, out_path):
    todo = {}
    for root in roots:
        for folder in FOLDERS:
            folder_path = os.path.join(root, folder)
            if os.path.isdir(folder_path):
                for name in case_names(folder_path):
                    todo.setdefault(f"{folder}/{name}", os.path.join(folder_path, name + ".ptx"))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        reasons = dict(zip(todo, pool.map(lambda p: refusal(ptxrun, p), todo.values())))
    listed = sorted(k for k, r in reasons.items() if r)
    with open(out_path, "w") as f:
        f.write("# H100 cases ptxrun refuses before running (exit 2, \"cannot execute\"), as FOLDER/NAME and\n"
                "# its message. `ptxrun test --not-yet` counts them as not yet executable; a listed case that\n"
                "# runs fails. Regenerate: scripts/hw_select.py --not-yet (after make).\n")
        for k in listed:
            f.write(f"{k}  {reasons[k]}\n")
    print(f"{os.path.relpath(out_path)}: {len(listed)} of {len(todo)} cases not yet executable")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--from", dest="source", default=os.path.join(root, "..", "shared", "hw"))
    ap.add_argument("--to", dest="target", default=os.path.join(root, "tests", "hw"))
    ap.add_argument("--dry-run", action="store_true", help="print the selection, copy nothing")
    ap.add_argument("--max-mb", type=float, help="stop at this size (MB), leaving features out")
    ap.add_argument("--not-yet", action="store_true", help="write TARGET/not-yet.txt")
    ap.add_argument("--ptxrun", default=os.path.join(root, "build", "ptxrun"))
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    if a.not_yet:
        roots = [a.target] + ([a.source] if os.path.isdir(a.source) else [])
        not_yet(roots, a.ptxrun, a.jobs, os.path.join(a.target, "not-yet.txt"))
        return 0
    if not os.path.isdir(a.source):
        print(f"hw_select.py: error: no folder '{a.source}'", file=sys.stderr)
        return 2
    select(a.source, a.target, a.dry_run, a.max_mb * 1e6 if a.max_mb else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
