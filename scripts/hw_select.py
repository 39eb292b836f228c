#!/usr/bin/env python3
"""hw_select.py: a compact selection of the H100 cases, and the list of cases ptxrun refuses.

    scripts/hw_select.py [--from ../shared/hw] [--to tests/hw] [--dry-run] [--max-mb 4]
        writes tests/hw/<folder>/: for the straight-line folders, one-instruction cases cut out of
        the recordings (below); for probes, mma and diverge, whole cases copied unchanged; then
        re-reads what it wrote and checks it against the recordings
    scripts/hw_select.py --verify
        only that check, of the cases already in tests/hw
    scripts/hw_select.py --not-yet [--ptxrun build/ptxrun] [--jobs 2]
        runs every case of tests/hw and <from> and writes tests/hw/not-yet.txt: the cases ptxrun
        refuses before running ("cannot execute", exit 2), one line each, with its message

Straight-line folders (int, float, float_approx, half, shfl, undef): their meta.json lists the ops,
and every register is written once, so every instruction's inputs and results were recorded, per
thread. The unit is one recorded instruction (one entry of meta.json's ops: an instruction, or a
short sequence such as a carry chain, a guarded instruction after its default move, a division
with its safe divisor) in one CTA of 32 threads. It becomes the case NAME_opI_ctaC:
- NAME_opI_ctaC.ptx: a full module: the source's .version/.target/.address_size, a comment naming
  the source case, the instruction and the CTA, one `.entry` without parameters that declares
  exactly the registers the instruction uses (with their types in the source: a .b32 destination
  of cvt.rzi.s8.f64 holds a sign-extended value), the instruction text verbatim, and `ret;`;
- NAME_opI_ctaC.lanes.json: block [32,1,1] and the values of the registers it reads, for that
  CTA's threads: inputs as the program loaded them (from NAME.lanes.json), results of earlier
  instructions as the H100 wrote them (from NAME.expect.json); predicates under "preds";
- NAME_opI_ctaC.expect.json: the H100's values of the registers it writes.
A value list is one value when all 32 threads agree. Nothing comes from ptxrun. An instruction that
reads a register with no recorded value (or one written after it) is skipped.

Features, per folder:
- every instruction form, the `what` of NAME.meta.json's ops (`cvt.rzi.sat.s8.f64`, `shfl.sync.up.b32|p`
  when it also writes a predicate), with the shape of its sources: register or immediate, and which
  are the same register (`min.f32 d, a, a` is `aa`, a negated predicate `!c`);
- every value class met by a form's family (its opcode and types: cvt.s8.f64): the classes of every
  source value it read in every thread and of its immediates, by the bits of the form's type: NaN
  quiet or signalling, +-inf, +-0, subnormal, largest finite, normal; 0, 1, all ones, INT_MIN,
  INT_MAX, below the width, up to 255, other positive or negative; true, false;
- diverge (whole cases): what each warp instruction measures and where (digits dropped), the number
  of constructs, and which construct follows which (loops, loops with a branch, if/else, nested
  if, lane groups, key switches, early exits: from the labels of the PTX);
- mma (whole cases; ptxrun runs ldmatrix, stmatrix,
  movmatrix and the s32 and f64 mma, refuses the others): one case per
  instruction kind (ldmatrix, stmatrix, movmatrix, wmma) and one mma per shape, of the `special`
  flavour for the f16, bf16 and tf32 shapes.
probes is kept whole.

The cover is greedy, the cost of a case the bytes of its files: the case that brings the most new
features per byte first, ties to the smaller case, then by name, so the same input gives the same
selection. The straight-line folders are covered first, then probes, mma and diverge within what
is left of --max-mb. Requires Python 3.8, nothing else.
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

FOLDERS = ["int", "float", "float_approx", "half", "shfl", "undef", "probes", "mma", "diverge"]
STRAIGHT = {"int", "float", "float_approx", "half", "shfl", "undef"}
KEEP_WHOLE = {"probes"}
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


BUFFER_WIDTH = {"i16": 16, "i32": 32, "i64": 64, "o16": 16, "o32": 32, "o64": 64}
# Special registers a one-warp, one-CTA kernel reads as the source program did.
LANE_SREGS = re.compile(r"^%(laneid|lanemask_(eq|le|lt|ge|gt)|warpsz|WARP_SZ)$")
MIB = 1 << 20                          # sizes are MiB, as du -h counts them


def load_json(path):
    with open(path) as f:
        return json.load(f)


def buffers_of(path):
    data = load_json(path).get("buffers", {})
    return {k: (v.get("data", []) if isinstance(v, dict) else v) for k, v in data.items()}


def as_int(value):
    """A recorded value ("0x..." string, or a number) as a non-negative int, or None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value, 16) if value.lower().startswith("0x") else int(value)
        except ValueError:
            return None
    return None


class Case:
    """A whole case of the source folder."""

    def __init__(self, folder_path, name, folder):
        self.name = name
        self.folder = folder
        self.key = folder + "/" + name
        self.paths = [os.path.join(folder_path, name + s) for s in SUFFIXES]
        self.paths = [p for p in self.paths if os.path.exists(p)]
        self.size = sum(os.path.getsize(p) for p in self.paths)
        meta = os.path.join(folder_path, name + ".meta.json")
        self.meta = load_json(meta) if os.path.exists(meta) else {}
        self.folder_path = folder_path

    def path(self, suffix):
        return os.path.join(self.folder_path, self.name + suffix)


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


def operand_shape(ops):
    """The sources of an instruction as a shape: i for an immediate, a letter per distinct register
    (so `min.f32 d, a, a` is `aa`), ! for a negated predicate, {} around a vector."""
    letters, shape = {}, []
    for o in ops:
        if parse_immediate(o) is not None:
            shape.append("i")
            continue
        regs = re.findall(r"!?%\w+", o)
        if not regs:
            shape.append("?")
            continue
        word = "".join(("!" if r.startswith("!") else "") + letters.setdefault(r.lstrip("!"), "abcdefghjk"[min(len(letters), 9)])
                       for r in regs)
        shape.append("{" + word + "}" if o.startswith("{") else word)
    return "".join(shape)


def op_features(op, classes, values):
    """The form, its operands' shape, and the classes of what it read (values: register -> the
    values read, one per thread): the classes per family, since one program per rounding mode and
    class would keep nearly all, both over all its sources and per source operand (by its place
    among the operands of the instruction; in a sequence, of its first instruction)."""
    what = op["what"]
    fam = family(what)
    ops, pair = operands(op["text"])
    form = what + ("|p" if pair else "")
    feats = {(form,), (form, "operands " + operand_shape(ops[1:]))}
    immediates = [parse_immediate(o) for o in ops[1:]]
    t = form_type(what)
    for v in immediates:
        if v is not None and t and t != "pred":
            for c in value_classes(v & ((1 << width(t)) - 1), t):
                feats.add((fam, "imm " + c))
    place = {}
    for j, o in enumerate(ops[1:]):
        for r in re.findall(r"%\w+", o):
            place.setdefault(r, set()).add(j + 1)
    for reg in op.get("src", []):
        reg = reg.lstrip("!")
        if reg not in values:
            continue
        t = source_type(what, classes.get(reg, "i32"))
        for v in values[reg]:
            bits = parse_bits(v, t) if v is not None else None
            if bits is not None:
                for c in value_classes(bits, t):
                    feats.add((fam, c))
                    feats.update((fam, f"operand {j}", c) for j in place.get(reg, ()))
    return feats


# ---- straight-line folders: one instruction in one CTA ----

def declarations(ptx):
    """Register name -> its declared type (".b32", ".pred") in a PTX module, `%r<18>` expanded."""
    types = {}
    for m in re.finditer(r"^\s*\.reg\s+(\.\w+)\s+([^;]+);", ptx, re.M):
        for item in m.group(2).split(","):
            item = item.strip()
            r = re.match(r"^(%?\w+)<(\d+)>$", item)
            if r:
                for i in range(int(r.group(2))):
                    types[r.group(1) + str(i)] = m.group(1)
            else:
                types[item] = m.group(1)
    return types


def header(ptx):
    """The .version, .target and .address_size lines of a module."""
    lines = []
    for d in (".version", ".target", ".address_size"):
        m = re.search(r"^\s*(" + re.escape(d) + r"\b[^\n]*?)\s*$", ptx, re.M)
        if m:
            lines.append(m.group(1))
    return lines


def instructions(text):
    """The instructions of an ops text ("a; ; b;" for a sequence), without their semicolons."""
    return [s.strip() for s in text.split(";") if s.strip()]


def reads_writes(text, declared):
    """(registers read before this text writes them, registers written, in order of appearance),
    or a string saying why the text cannot stand alone."""
    reads, writes = [], []
    for ins in instructions(text):
        guard = re.match(r"^@!?(%\w+)\s+(.*)$", ins)
        body = guard.group(2) if guard else ins
        parts = body.split(None, 1)
        ops = [o.strip() for o in re.split(r",(?![^{]*})", parts[1])] if len(parts) > 1 else []
        dst = re.findall(r"%\w+", ops[0]) if ops else []
        srcs = ([guard.group(1)] if guard else []) + [r for o in ops[1:] for r in re.findall(r"%\w+", o)]
        if guard:
            srcs += dst                     # a guard-false lane keeps the old value
        for r in srcs:
            if r not in declared:
                if LANE_SREGS.match(r):
                    continue
                return f"reads {r}, not a register of the program"
            if r not in writes and r not in reads:
                reads.append(r)
        for r in dst:
            if r not in declared:
                return f"writes {r}, not a register of the program"
            if r not in writes:
                writes.append(r)
    return reads, writes


def type_width(t):
    return 1 if t == ".pred" else int(re.sub(r"\D", "", t))


class Source:
    """A straight-line case of the source folder, read once: its registers' declared types, the
    recorded values of every input and result, and where each register was written."""

    def __init__(self, case):
        self.case = case
        with open(case.path(".ptx")) as f:
            self.ptx = f.read()
        self.header = header(self.ptx)
        self.declared = declarations(self.ptx)
        m = case.meta
        self.n = m.get("nthreads", 32)
        self.ops = m.get("ops", [])
        inputs, results = buffers_of(case.path(".lanes.json")), buffers_of(case.path(".expect.json"))
        self.values = {}                    # register -> (buffer, all recorded values)
        for table, buffers in ((m.get("inputs", {}), inputs), (m.get("slots", {}), results)):
            for reg, place in table.items():
                if not isinstance(place, list) or len(place) != 2 or place[0] not in buffers:
                    continue
                chunk = buffers[place[0]][place[1] * self.n:(place[1] + 1) * self.n]
                if len(chunk) == self.n:
                    self.values[reg] = (place[0], chunk)
        self.loaded = set(m.get("inputs", {}))
        self.writer = {}
        for i, op in enumerate(self.ops):
            for r in op.get("dst", []):
                self.writer.setdefault(r, i)
        self.classes = dict(m.get("classes", {}))
        self.classes.update(m.get("input_classes", {}))

    def value(self, reg, cta):
        """The 32 values of reg in CTA cta as ints (bools for predicates), or a reason why not."""
        if reg not in self.values:
            return f"{reg} has no recorded value"
        buffer, chunk = self.values[reg]
        t = self.declared[reg]
        got = [as_int(v) for v in chunk[cta * 32:(cta + 1) * 32]]
        if len(got) != 32 or None in got:
            return f"{reg} has no recorded value in CTA {cta}"
        if t == ".pred":
            if any(v not in (0, 1) for v in got):
                return f"{reg}: a predicate recorded as {got}"
            return [v == 1 for v in got]
        w = type_width(t)
        if BUFFER_WIDTH.get(buffer) != w or any(v >> w for v in got):
            return f"{reg} ({t}) recorded in {buffer}"
        return got


def fmt_values(values, t):
    """A lanes/expect value: bits as "0x..." without leading zeros, predicates as true/false; one
    value when all 32 threads agree, else a list of 32."""
    if t == ".pred":
        items = ["true" if v else "false" for v in values]
    else:
        items = [f'"0x{v:x}"' for v in values]     # the register's type gives the width
    if all(x == items[0] for x in items):
        return items[0]
    return "[" + ",".join(items) + "]"


def fmt_state(regs, preds, block):
    parts = ['"block":[32,1,1]'] if block else []
    for key, table in (("regs", regs), ("preds", preds)):
        if table:
            parts.append(f'"{key}":{{\n' + ",\n".join(f'"{r}":{v}' for r, v in table) + "}")
    return "{" + ",\n".join(parts) + "}\n"


class Instance:
    """One recorded instruction in one CTA, as a generated case (its files' text in memory)."""

    def __init__(self, folder, name, files):
        self.folder = folder
        self.name = name
        self.key = folder + "/" + name
        self.files = files                  # suffix -> text
        self.size = sum(len(t.encode()) for t in files.values())


def make_instance(src, i, cta, ctas):
    """The case for op i of src in CTA cta, or a reason why there is none."""
    op = src.ops[i]
    rw = reads_writes(op["text"], src.declared)
    if isinstance(rw, str):
        return rw
    reads, writes = rw
    for r in reads:
        if LANE_SREGS.match(r):
            continue
        if r not in src.loaded and src.writer.get(r, i) >= i:
            return f"reads {r} before the program writes it"
    inputs, outputs = [], []
    for r in reads:
        v = src.value(r, cta)
        if isinstance(v, str):
            return v
        inputs.append((r, v))
    for r in writes:
        if r in src.values:
            v = src.value(r, cta)
            if isinstance(v, str):
                return v
            outputs.append((r, v))
    if not outputs:
        return "writes no recorded register"
    used = [r for r in dict.fromkeys(reads + writes) if r in src.declared]
    case = src.case
    name = f"{case.name}_op{i}_cta{cta}"
    ptx = "\n".join(src.header + [
        f"// {case.folder}/{case.name} op {i}, CTA {cta} of {ctas}",
        ".entry k()",
        "{"] + [f"\t.reg {src.declared[r]} {r};" for r in used]
        + [f"\t{s};" for s in instructions(op["text"])] + ["\tret;", "}"]) + "\n"

    def table(pairs, pred):
        return [(r, fmt_values(v, src.declared[r])) for r, v in pairs if (src.declared[r] == ".pred") == pred]
    lanes = fmt_state(table(inputs, False), table(inputs, True), True)
    expect = fmt_state(table(outputs, False), table(outputs, True), False)
    inst = Instance(case.folder, name, {".ptx": ptx, ".lanes.json": lanes, ".expect.json": expect})
    values = {}
    for r in op.get("src", []):
        r = r.lstrip("!")
        if r in src.values:
            values[r] = src.values[r][1][cta * 32:(cta + 1) * 32]
    inst.feats = {(case.folder,) + f for f in op_features(op, src.classes, values)}
    return inst


def straight_line_instances(cases, skipped):
    out = []
    for case in cases:
        src = Source(case)
        ctas = max(1, src.n // 32)
        for i in range(len(src.ops)):
            for cta in range(ctas):
                inst = make_instance(src, i, cta, ctas)
                if isinstance(inst, str):
                    skipped.append(f"{case.key} op {i} CTA {cta}: {inst}")
                else:
                    out.append(inst)
    return out


# ---- whole cases: diverge, mma, probes ----

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
    """One case per instruction kind, and one mma per shape; for the f16, bf16 and tf32 shapes and for
    e4m3 and e5m2 one of the `special` flavour (NaN, inf, subnormal and largest operands: the tensor
    core's rules); and an integer one."""
    m = case.meta
    kind = m.get("kind", "?")
    if kind == "mma":
        shape = "m{}n{}k{}".format(*m["shape"]) if m.get("shape") else m.get("form")
        feats = {(kind, shape)}
        if m.get("types", {}).get("a") in ("f16", "bf16", "tf32") and m.get("flavor") == "special":
            feats.add((kind, shape, "special"))
        if m.get("types", {}).get("a") in ("e4m3", "e5m2") and m.get("flavor") == "special":
            feats.add((kind, shape, m["types"]["a"], "special"))   # fp8: NaN, inf, subnormals, each type
        if m.get("types", {}).get("a") in ("s8", "u8"):
            feats.add((kind, shape, "integer"))     # m16n8k32 is fp8's shape too: keep an integer case
        return feats
    return {(kind,)}


def whole_features(folder, case):
    if folder == "diverge":
        return diverge_features(case)
    if folder == "mma":
        return mma_features(case)
    return {("whole",)}


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
    """The straight-line folders first, then probes (whole), mma and diverge within what is left."""
    by_folder = {}
    for folder in FOLDERS:
        folder_path = os.path.join(source, folder)
        if os.path.isdir(folder_path):
            by_folder[folder] = [Case(folder_path, n, folder) for n in case_names(folder_path)]
    skipped, units = [], []
    for folder in FOLDERS:
        if folder in STRAIGHT and folder in by_folder:
            units += straight_line_instances(by_folder[folder], skipped)
    feats = {u.key: u.feats for u in units}
    print(f"{len(units)} recorded instructions (op and CTA) of the straight-line folders can stand alone, "
          f"{len(skipped)} cannot")
    chosen, left = greedy_cover(units, feats, budget)
    used = sum(u.size for u in chosen)
    picked = {f: [u for u in chosen if u.folder == f] for f in by_folder}
    lost = {f: len([x for x in left if x[0] == f]) for f in by_folder}
    left_out = set(left)
    total = {f: len({x for u in units if u.folder == f for x in u.feats}) for f in by_folder}
    for folder in ("probes", "mma", "diverge"):
        if folder not in by_folder:
            continue
        cases = by_folder[folder]
        wf = {c.key: {(folder,) + f for f in whole_features(folder, c)} for c in cases}
        total[folder] = len(set().union(*wf.values()))
        rest = None if budget is None else budget - used
        if folder in KEEP_WHOLE:
            got, gone = cases, set()
        else:
            got, gone = greedy_cover(cases, wf, rest)
        got = sorted(got, key=lambda c: c.name)
        picked[folder] = got
        lost[folder] = len(gone)
        left_out |= gone
        used += sum(c.size for c in got)
    print(f"{'folder':13} {'cases':>6} {'MiB':>6}  features kept / total   (from)")
    for folder in by_folder:
        size = sum(u.size for u in picked[folder])
        kept = total[folder] - lost[folder]
        src = len(by_folder[folder])
        unit = "instructions of" if folder in STRAIGHT else "of"
        print(f"{folder:13} {len(picked[folder]):6} {size / MIB:6.2f}  {kept:6} / {total[folder]:<6}"
              f"        ({unit} {src} cases)")
    print(f"total {sum(len(v) for v in picked.values())} cases, {used / MIB:.2f} MiB ({used / 1e6:.2f} MB)"
          + (f", budget {budget / MIB:.2f} MiB" if budget is not None else ""))
    for f in sorted(left_out, key=str):
        print("left out: " + " ".join(map(str, f)))
    if skipped:
        print(f"{len(skipped)} recorded instructions cannot stand alone and were skipped, e.g.:")
        for s in skipped[:5]:
            print("    " + s)
    if dry_run:
        return 0
    for folder in by_folder:
        out = os.path.join(target, folder)
        if os.path.isdir(out):
            shutil.rmtree(out)
        os.makedirs(out)
        for u in picked[folder]:
            if isinstance(u, Instance):
                for suffix, text in u.files.items():
                    with open(os.path.join(out, u.name + suffix), "w") as f:
                        f.write(text)
            else:
                for p in u.paths:
                    shutil.copyfile(p, os.path.join(out, os.path.basename(p)))
        readme = os.path.join(source, folder, "README.md")     # mma/README.md: layouts, flavours
        if os.path.exists(readme) and folder not in STRAIGHT:
            shutil.copyfile(readme, os.path.join(out, "README.md"))
    return verify(source, target)


# ---- the self-check: generated cases against the recordings ----

def declared_as(ptx, reg, t):
    """Whether ptx declares reg with type t, by name or in a %name<N> range."""
    stem, index = re.match(r"^(%\w*?)(\d*)$", reg).groups()
    for m in re.finditer(r"^\s*\.reg\s+" + re.escape(t) + r"\s+([^;]+);", ptx, re.M):
        for item in (x.strip() for x in m.group(1).split(",")):
            if item == reg:
                return True
            r = re.match(r"^(%\w+)<(\d+)>$", item)
            if r and r.group(1) == stem and index and int(index) < int(r.group(2)):
                return True
    return False


def verify(source, target):
    """Re-reads every generated case of target and compares it, by another path, with the source
    case it names: the instruction text, the declared types, every input and expected value."""
    checked, problems = 0, []
    cache = {}
    for folder in sorted(STRAIGHT):
        out = os.path.join(target, folder)
        if not os.path.isdir(out):
            continue
        for name in case_names(out):
            m = re.match(r"^(.*)_op(\d+)_cta(\d+)$", name)
            if not m:
                problems.append(f"{folder}/{name}: not a generated name")
                continue
            base, i, cta = m.group(1), int(m.group(2)), int(m.group(3))
            sp = os.path.join(source, folder, base)
            if sp not in cache:
                meta = load_json(sp + ".meta.json")
                with open(sp + ".ptx") as f:
                    sptx = f.read()
                cache[sp] = (meta, buffers_of(sp + ".lanes.json"), buffers_of(sp + ".expect.json"), sptx)
            meta, ins, res, sptx = cache[sp]
            n = meta["nthreads"]
            with open(os.path.join(out, name + ".ptx")) as f:
                ptx = f.read()
            lanes = load_json(os.path.join(out, name + ".lanes.json"))
            expect = load_json(os.path.join(out, name + ".expect.json"))
            bad = []
            op = meta["ops"][i]
            body = [ln.strip() for ln in ptx.splitlines()
                    if ln.startswith("\t") and not ln.strip().startswith((".reg", "ret;"))]
            if body != [s.strip() + ";" for s in op["text"].split(";") if s.strip()]:
                bad.append("instruction text differs")
            for line in header(sptx):
                if line not in ptx.splitlines():
                    bad.append(f"no '{line}'")
            if lanes.get("block") != [32, 1, 1] or set(lanes) - {"block", "regs", "preds"}:
                bad.append("lanes keys")
            for t, reg in re.findall(r"^\t\.reg (\.\w+) (%\w+);$", ptx, re.M):
                if not declared_as(sptx, reg, t):
                    bad.append(f"{reg} is not declared {t} in the source")
            for which, state in (("input", lanes), ("result", expect)):
                for key in ("regs", "preds"):
                    for reg, got in state.get(key, {}).items():
                        table = meta["inputs"] if which == "input" and reg in meta["inputs"] else meta["slots"]
                        buf, slot = table[reg]
                        rec = (ins if table is meta["inputs"] else res)[buf][slot * n + cta * 32: slot * n + cta * 32 + 32]
                        got = got if isinstance(got, list) else [got] * 32
                        want = [int(v, 16) if isinstance(v, str) else v for v in rec]
                        have = [int(v) if isinstance(v, bool) else int(v, 16) for v in got]
                        if have != want:
                            bad.append(f"{which} {reg} differs from {buf} slot {slot}")
            if bad:
                problems.append(f"{folder}/{name}: " + "; ".join(bad))
            checked += 1
    for p in problems[:20]:
        print("verify: " + p)
    print(f"verify: {checked} generated cases checked against {source}: {len(problems)} problems")
    return 1 if problems else 0


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
    pending = {}
    for root in roots:
        for folder in FOLDERS:
            folder_path = os.path.join(root, folder)
            if os.path.isdir(folder_path):
                for name in case_names(folder_path):
                    pending.setdefault(f"{folder}/{name}", os.path.join(folder_path, name + ".ptx"))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        reasons = dict(zip(pending, pool.map(lambda p: refusal(ptxrun, p), pending.values())))
    listed = sorted(k for k, r in reasons.items() if r)
    with open(out_path, "w") as f:
        f.write("# H100 cases ptxrun refuses before running (exit 2, \"cannot execute\"), as FOLDER/NAME and\n"
                "# its message. `ptxrun test --not-yet` counts them as not yet executable; a listed case that\n"
                "# runs fails. Regenerate: scripts/hw_select.py --not-yet (after make).\n")
        for k in listed:
            f.write(f"{k}  {reasons[k]}\n")
    print(f"{os.path.relpath(out_path)}: {len(listed)} of {len(pending)} cases not yet executable")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--from", dest="source", default=os.path.join(root, "..", "shared", "hw"))
    ap.add_argument("--to", dest="target", default=os.path.join(root, "tests", "hw"))
    ap.add_argument("--dry-run", action="store_true", help="print the selection, copy nothing")
    ap.add_argument("--max-mb", type=float, default=4.0,
                    help="at most this size (MiB, 2^20 bytes), leaving features out (default 4; 0: no limit)")
    ap.add_argument("--verify", action="store_true", help="only check TARGET's generated cases against FROM")
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
    if a.verify:
        return verify(a.source, a.target)
    return select(a.source, a.target, a.dry_run, a.max_mb * MIB if a.max_mb else None)


if __name__ == "__main__":
    sys.exit(main())
