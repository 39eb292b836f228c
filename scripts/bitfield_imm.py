#!/usr/bin/env python3
"""What the code ptxas makes for bit-field and shift instructions with immediate operands gives.

usage: scripts/bitfield_imm.py [--ptxas PATH] [--quick] [--case DIR]

The H100 (sm_90) has no bfe/bfi instruction: ptxas 13.0 writes each as shifts, masks, SGXT or
PRMT, and where the position and length are immediates it works the masks out itself. Without a
disassembler, this script reads that code: it compiles small kernels (data loaded from memory, the
instructions with immediates, each result stored), takes the SASS words out of the cubin and runs
them in a small emulator of the few instructions ptxas uses there (LDG, STG, MOV, IMAD, SEL,
ISETP.EQ/NE, SHF, SGXT, LOP3, PRMT, HFMA2.MMA of zeros as a constant; guards). Every shift count
and SGXT width those programs hold lies where the emulator's reading is the plain one (below the
width; a width from 1 to 31): the script checks that, so nothing here rests on a guess about the
hardware at its edges. An encoding it does not know stops it.

It prints, for each form, the (position, length) or count pairs where the code differs from the
PTX ISA's pseudo-code, and checks every value against the rule docs/semantics.md gives ("Where
ptxrun follows the H100"):
  bfe.s32 d, a, p, l     p >= 32 and l >= 1: all ones for every a (ISA: copies of a's sign bit)
  bfi.b32 d, f, b, p, l  p < 32 and not a multiple of 8, l >= 32: the length modulo 32 (ISA: up
                         to bit 31); at a multiple of 8 ptxas moves whole bytes (PRMT), by the ISA
  bfe.u32, the .b64 forms, shl/shr/shf by immediate counts: as the ISA
It also shows that a form with one of position and length immediate is the code of the register
form after a move of the immediate (so the H100's register behaviour applies), that ptxas folds a
bfi/bfe whose data are constants too by the ISA, and that it refuses a position or length above
255. With --case DIR it writes DIR/bitfield_imm.{ptx,lanes.json,expect.json}, a test case whose
expected values are this code's, run on the emulator. --quick tries fewer pairs (every value to
70 and a few above); by default every pair from 0 to 255. Needs ptxas; make check does not run it.
"""
import json, os, random, struct, subprocess, sys, tempfile

from cmdline import command_line

M = 0xffffffff
PTXAS = "/usr/local/cuda/bin/ptxas"


# ---- the cubin's code ----

def text_section(cubin):
    """The bytes of the (one) .text section of an ELF64 cubin."""
    shoff = struct.unpack_from("<Q", cubin, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3a)
    secs = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx][4]
    for s in secs:
        name = cubin[names + s[0]:cubin.index(b"\0", names + s[0])]
        if name.startswith(b".text"):
            return cubin[s[4]:s[4] + s[5]]
    raise SystemExit("no .text in the cubin")


class Unknown(Exception):
    pass


def run_sass(code, memory):
    """Runs sm_90 code on memory {offset from the parameter: 32-bit word}; returns what it
    stored, {offset: word}. Also returns the operands that lay at an edge (see the docstring)."""
    R, P = [0] * 256, [False] * 7 + [True]     # registers (R255 = RZ), predicates (P7 = PT)
    base = 0x10000
    mem = {base + o: v for o, v in memory.items()}
    stored, edges = {}, []

    def get(r):
        return 0 if r == 255 else R[r]

    def put(r, v):
        if r != 255:
            R[r] = v & M

    def pred(field):                           # a 4-bit predicate operand: index, then negation
        return P[field & 7] != bool(field & 8)

    for i in range(0, len(code), 16):
        w = code[i:i + 16]
        opcode = int.from_bytes(w[:2], "little")
        op, form = opcode & 0x1ff, (opcode >> 9) & 7
        rd, ra, rc = w[2], w[3], w[8]
        if op == 0x147:                                # BRA to itself: the end
            break
        if op in (0x14d, 0x118, 0xb9):                 # EXIT, NOP, ULDC (a uniform register)
            continue
        if not pred(opcode >> 12):                     # the guard, @P0 ... (PT: always)
            continue
        if op == 0x182:                                # LDC: the parameter (and the stack pointer)
            put(rd, base)
            if w[9] == 0x0a:                           # .64
                put(rd + 1, 0)
            continue
        if op in (0x181, 0x186):                       # LDG, STG: [Ra + offset], 1, 2 or 4 words
            offset = int.from_bytes(w[5:8], "little", signed=True)
            words = {0x19: 1, 0x1b: 2, 0x1d: 4}[w[9]]
            for k in range(words):
                if op == 0x181:
                    put(rd + k, mem.get(get(ra) + offset + 4 * k, 0))
                else:
                    stored[get(ra) - base + offset + 4 * k] = get(w[4] + k if w[4] != 255 else 255)
            continue
        if op == 0x024 and form == 2:                  # IMAD d = a * c + an immediate (IMAD.MOV: RZ, RZ)
            put(rd, get(ra) * get(rc) + int.from_bytes(w[4:8], "little"))
            continue
        if op == 0x035 and form == 2 and ra == 255 and rc == 255:   # HFMA2.MMA d = -RZ * RZ + halves: a constant
            put(rd, int.from_bytes(w[4:8], "little"))
            continue
        if form == 4:
            b = int.from_bytes(w[4:8], "little")       # an immediate
        elif form == 1:
            b = get(w[4])                              # a register
        else:
            raise Unknown(w.hex())
        if op == 0x024 and w[9] == 0:                  # IMAD d = a * b + c (IMAD.SHL: b = 2^n)
            put(rd, get(ra) * b + get(rc))
        elif op == 0x002:                              # MOV
            put(rd, b)
        elif op == 0x007:                              # SEL d = p ? a : b
            put(rd, get(ra) if pred(w[10] >> 7 | (w[11] & 7) << 1) else b)
        elif op == 0x00c:                              # ISETP p = a cmp b (.EX: the high words, chained)
            cmp, ex, a = w[9] >> 4 & 7, bool(w[9] & 1), get(ra)
            if cmp not in (2, 5):                      # EQ, NE (no order: signedness not needed)
                raise Unknown(w.hex())
            r = (a == b) == (cmp == 2)
            if ex and a == b:                          # equal high words: the low words' result
                r = pred(w[8] >> 4)
            if w[10] >> 4 & 7 != 7 or (w[10] >> 7 | (w[11] & 7) << 1) != 7:
                raise Unknown(w.hex())                 # a second destination or a combining predicate
            P[w[10] >> 1 & 7] = r
        elif op == 0x012:                              # LOP3: bit i of the table at index (a, b, c)
            if w[10] >> 1 & 7 != 7:
                raise Unknown(w.hex())                 # a predicate written too
            lut, a, c, r = w[9], get(ra), get(rc), 0
            for bit in range(32):
                r |= (lut >> ((a >> bit & 1) << 2 | (b >> bit & 1) << 1 | (c >> bit & 1)) & 1) << bit
            put(rd, r)
        elif op == 0x016:                              # PRMT, default mode: bytes of c:a
            if w[9] & 0xf0 or w[10] & 0x0f:
                raise Unknown(w.hex())
            pool, r = get(rc) << 32 | get(ra), 0
            for k in range(4):
                sel = b >> (4 * k) & 0xf
                byte = pool >> (8 * (sel & 7)) & 0xff
                r |= ((0xff if byte & 0x80 else 0) if sel & 8 else byte) << (8 * k)
            put(rd, r)
        elif op == 0x019:                              # SHF: c:a shifted, the low or (.HI) high word
            right, wrap, kind, hi = bool(w[9] & 0x10), bool(w[9] & 0x08), w[9] >> 1 & 3, bool(w[10] & 1)
            width = 32 if kind >= 2 else 64            # .S32 .U32, or .S64 .U64
            if b >= width:
                edges.append(("SHF", b))
            n = b & (width - 1) if wrap else min(b, width)
            v = get(rc) << 32 | get(ra)
            if right:
                if kind % 2 == 0 and v >> 63:          # .S32, .S64
                    v -= 1 << 64
                v = (v >> n) & (2 ** 64 - 1)
            else:
                v = (v << n) & (2 ** 64 - 1)
            put(rd, v >> 32 if hi else v)
        elif op == 0x01a:                              # SGXT: the low b bits, (.U32) zero- or sign-extended
            if w[9] & ~0x02 or not 1 <= b <= 31:
                edges.append(("SGXT", b))
                raise Unknown(w.hex())
            v = get(ra) & ((1 << b) - 1)
            if w[9] & 2 and v >> (b - 1) & 1:
                v |= M ^ ((1 << b) - 1)
            put(rd, v)
        else:
            raise Unknown(w.hex())
    return stored, edges


# ---- the PTX ISA's pseudo-code, and the rule ----

def isa_bfe(a, pos, length, signed, bits=32):
    msb = bits - 1
    if length == 0:
        return 0
    top = min(pos + length - 1, msb)
    sbit = (a >> top & 1) if signed else 0
    return sum(((a >> (pos + i) & 1) if i < length and pos + i <= msb else sbit) << i for i in range(bits))


def isa_bfi(f, b, pos, length, bits=32):
    for i in range(length):
        if pos + i > bits - 1:
            break
        b = (b & ~(1 << (pos + i))) | ((f >> i & 1) << (pos + i))
    return b


def rule_bfe(a, pos, length, signed):
    if signed and pos >= 32 and length >= 1:
        return M
    return isa_bfe(a, pos, length, signed)


def rule_bfi(f, b, pos, length):
    if pos < 32 and pos % 8 and length >= 32:
        length %= 32
    return isa_bfi(f, b, pos, length)


def isa_shift(kind, a, b, n):
    """shl/shr of b by n, shf of b:a by n (clamp at 32 or wrap modulo 32)."""
    bits = int(kind[-2:])
    mask = 2 ** bits - 1
    if kind.startswith("shl"):
        return (b << min(n, bits)) & mask
    if kind.startswith("shr.u"):
        return b >> min(n, bits)
    if kind.startswith("shr.s"):
        return ((b - (1 << bits) if b >> (bits - 1) else b) >> min(n, bits)) & mask
    k = n & 31 if ".wrap" in kind else min(n, 32)
    v = b << 32 | a
    return ((v << k) >> 32) & M if ".l." in kind else (v >> k) & M


# ---- compiling ----

MIXED = """.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b32 %a, %b, %c, %e, %d;
  .reg .u64 %p;
  ld.param.u64 %p, [p];
  ld.global.b32 %a, [%p];
  ld.global.b32 %b, [%p+4];
  ld.global.b32 %c, [%p+8];
  ld.global.b32 %e, [%p+12];
  {body}
  st.global.b32 [%p+16], %d;
  ret;
}
"""


def code_shape(code):
    """The code's instructions without their registers, loads, NOPs and moves of immediates
    (IMAD.MOV, MOV): what two forms share when one holds an immediate where the other reads a register."""
    shape = []
    for i in range(0, len(code), 16):
        w = code[i:i + 16]
        opcode = int.from_bytes(w[:2], "little")
        if opcode & 0x1ff in (0x024, 0x002) and (opcode >> 9) & 7 in (2, 4) and w[3] == 255:
            continue
        if opcode & 0x1ff in (0x181, 0x118):   # loads (the register form reads one more operand), NOPs
            continue
        if opcode & 0x1ff == 0x186:
            shape.append((opcode, w[9]))       # stores: their widths
        else:
            shape.append((opcode, bytes(w[4:8]) if (opcode >> 9) & 7 == 4 else b"", w[9], w[10]))
    return shape

# A kernel that loads %a and %b of BITS bits from memory and runs {body} on them.
KERNEL_OF_BITS = """.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .bBITS %a, %b, %d<{n}>;
  .reg .u64 %p;
  ld.param.u64 %p, [p];
  ld.global.bBITS %a, [%p];
  ld.global.bBITS %b, [%p+BYTES];
{body}
  ret;
}
"""
KERNEL = KERNEL_OF_BITS.replace("BITS", "32").replace("BYTES", "4")
KERNEL64 = KERNEL_OF_BITS.replace("BITS", "64").replace("BYTES", "8")


def compile_ptx(ptx, tmp):
    """The cubin's .text, or (None, ptxas's message) when ptxas refuses the PTX."""
    src, out = os.path.join(tmp, "k.ptx"), os.path.join(tmp, "k.cubin")
    with open(src, "w") as f:
        f.write(ptx)
    r = subprocess.run([PTXAS, "-arch=sm_90", src, "-o", out], capture_output=True, text=True)
    if r.returncode:
        return None, (r.stdout + r.stderr).strip()
    with open(out, "rb") as f:
        return text_section(f.read()), ""


def results(instrs, inputs, tmp, chunk=96, bits=32):
    """Runs each instruction (writing %d, reading %a and %b, of `bits` bits) on each (a, b) of
    inputs through ptxas's code: returns one list of results per instruction, and the edge
    operands met."""
    size, out, edges = bits // 8, [], []
    for start in range(0, len(instrs), chunk):
        part = instrs[start:start + chunk]
        body = "\n".join("  %s\n  st.global.b%d [%%p+%d], %%d%d;" % (ins.replace("%d,", "%%d%d," % k, 1), bits,
                                                                   2 * size + size * k, k)
                         for k, ins in enumerate(part))
        code, message = compile_ptx((KERNEL if bits == 32 else KERNEL64).replace("{n}", str(len(part)))
                                    .replace("{body}", body), tmp)
        if code is None:
            raise SystemExit("ptxas refused the kernel:\n" + message)
        runs = []
        for a, b in inputs:
            words = {0: a & M, 4: a >> 32, 8: b & M, 12: b >> 32} if bits == 64 else {0: a, 4: b}
            stored, e = run_sass(code, words)
            runs.append(stored)
            edges += e
        for k in range(len(part)):
            at = 2 * size + size * k
            out.append([s[at] | (s[at + 4] << 32 if bits == 64 else 0) for s in runs])
    return out, edges


def main():
    global PTXAS
    args = command_line(sys.argv, __doc__, {"--quick": 0, "--case": 1, "--ptxas": 1})[1:]
    quick = "--quick" in args
    case_dir = args[args.index("--case") + 1] if "--case" in args else None
    if "--ptxas" in args:
        PTXAS = args[args.index("--ptxas") + 1]
    if not os.path.exists(PTXAS):
        raise SystemExit("no ptxas at %s (--ptxas PATH)" % PTXAS)
    values = [v for v in range(256) if v <= 70 or v in (95, 96, 127, 128, 200, 255)] if quick else list(range(256))
    random.seed(32)
    inputs = [(random.getrandbits(32), random.getrandbits(32)) for _ in range(6)]
    inputs += [(M, 0), (0, M), (0x80000000, 0x7fffffff), (0x7fffffff, 0x80000000)]
    inputs64 = [(random.getrandbits(64), random.getrandbits(64)) for _ in range(6)]
    inputs64 += [(2 ** 64 - 1, 0), (0, 2 ** 64 - 1), (2 ** 63, 2 ** 63 - 1), (2 ** 63 - 1, 2 ** 63)]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        # the forms with immediate position and length (%a: the data, or bfi's base; %b: bfi's field)
        forms = [("bfe.u32", "bfe.u32 %%d, %%a, %d, %d;", lambda a, b, p, l: isa_bfe(a, p, l, False),
                  lambda a, b, p, l: rule_bfe(a, p, l, False)),
                 ("bfe.s32", "bfe.s32 %%d, %%a, %d, %d;", lambda a, b, p, l: isa_bfe(a, p, l, True),
                  lambda a, b, p, l: rule_bfe(a, p, l, True)),
                 ("bfi.b32", "bfi.b32 %%d, %%b, %%a, %d, %d;", lambda a, b, p, l: isa_bfi(b, a, p, l),
                  lambda a, b, p, l: rule_bfi(b, a, p, l)),
                 ("bfe.u64", "bfe.u64 %%d, %%a, %d, %d;", lambda a, b, p, l: isa_bfe(a, p, l, False, 64), None),
                 ("bfe.s64", "bfe.s64 %%d, %%a, %d, %d;", lambda a, b, p, l: isa_bfe(a, p, l, True, 64), None),
                 ("bfi.b64", "bfi.b64 %%d, %%b, %%a, %d, %d;", lambda a, b, p, l: isa_bfi(b, a, p, l, 64), None)]
        for name, fmt, isa, rule in forms:
            bits = int(name[-2:])
            rule = rule or isa                         # 64 bits: the ISA
            pairs = [(p, l) for p in values for l in values]
            got, edges = results([fmt % pl for pl in pairs], inputs64 if bits == 64 else inputs, tmp,
                                 chunk=96 if bits == 32 else 8, bits=bits)
            ins = inputs64 if bits == 64 else inputs
            unlike_isa = [pl for pl, g in zip(pairs, got) if g != [isa(a, b, *pl) for a, b in ins]]
            unlike_rule = [pl for pl, g in zip(pairs, got) if g != [rule(a, b, *pl) for a, b in ins]]
            failures += len(unlike_rule) + len(edges)
            print("%-8s %6d (position, length) pairs: %5d unlike the ISA, %d unlike the rule %s; edge operands %s"
                  % (name, len(pairs), len(unlike_isa), len(unlike_rule), unlike_rule[:6], edges[:3]))
        # shifts by immediate counts
        counts = list(range(0, 70)) + [95, 96, 127, 128, 255, 256, 1000, 0x7fffffff, 0x80000000, M]
        for kind in ("shl.b32", "shr.u32", "shr.s32", "shf.l.wrap.b32", "shf.l.clamp.b32", "shf.r.wrap.b32",
                     "shf.r.clamp.b32", "shl.b64", "shr.u64", "shr.s64"):
            fmt = kind + (" %%d, %%a, %%b, %d;" if kind.startswith("shf") else " %%d, %%b, %d;")
            ins = inputs64 if kind.endswith("64") else inputs
            got, edges = results([fmt % n for n in counts], ins, tmp, chunk=1, bits=int(kind[-2:]))
            unlike = [n for n, g in zip(counts, got) if g != [isa_shift(kind, a, b, n) for a, b in ins]]
            failures += len(unlike) + len(edges)
            print("%-16s %d counts (0 to 2^32-1): %d unlike the ISA %s; edge operands %s"
                  % (kind, len(counts), len(unlike), unlike[:6], edges[:3]))
        # one of position and length immediate: the code for registers, the immediate moved into one
        for imm, reg in (("bfi.b32 %d, %b, %a, %c, 32;", "bfi.b32 %d, %b, %a, %c, %e;"),
                         ("bfi.b32 %d, %b, %a, 7, %e;", "bfi.b32 %d, %b, %a, %c, %e;"),
                         ("bfe.s32 %d, %a, 63, %e;", "bfe.s32 %d, %a, %c, %e;"),
                         ("bfe.s32 %d, %a, %c, 40;", "bfe.s32 %d, %a, %c, %e;")):
            shapes = [code_shape(compile_ptx(MIXED.replace("{body}", f), tmp)[0]) for f in (imm, reg)]
            same = shapes[0] == shapes[1]
            failures += not same
            print("mixed    %-44s %s" % (imm, "the code of " + reg[:-1] + " after a move of the immediate"
                                          if same else "OTHER CODE than " + reg))
        # data constants too: ptxas folds the whole result, by the ISA
        folded = [("bfi.b32 %d, 0x9e3779b9, 0x12345678, 31, 32;", isa_bfi(0x9e3779b9, 0x12345678, 31, 32)),
                  ("bfi.b32 %d, 0x9e3779b9, 0x12345678, 7, 33;", isa_bfi(0x9e3779b9, 0x12345678, 7, 33)),
                  ("bfe.s32 %d, 0x12345678, 33, 31;", isa_bfe(0x12345678, 33, 31, True)),
                  ("bfe.s32 %d, 0x92345678, 40, 8;", isa_bfe(0x92345678, 40, 8, True))]
        got, _ = results([f for f, _ in folded], inputs[:1], tmp, chunk=1)
        for (f, want), g in zip(folded, got):
            failures += g[0] != want
            print("folded   %-44s 0x%08x (the ISA: 0x%08x)" % (f, g[0], want))
        # refused: an immediate position or length above 255
        for ins in ("bfe.u32 %d0, %a, 256, 1;", "bfi.b32 %d0, %b, %a, 1, 256;", "bfe.u32 %d0, %a, -1, 1;"):
            code, message = compile_ptx(KERNEL.replace("{n}", "1").replace("{body}", "  " + ins), tmp)
            failures += code is not None
            print("refused  %-44s %s" % (ins, message.splitlines()[0] if message else "NOT REFUSED"))
        if case_dir:
            write_case(case_dir, tmp)
    print("FAILED: %d" % failures if failures else "every value agrees with the rule")
    return 1 if failures else 0


CASE = [  # the instructions of the test case, %a and %b per lane
    "bfi.b32 %d, %b, %a, 16, 32;", "bfi.b32 %d, %b, %a, 8, 40;", "bfi.b32 %d, %b, %a, 0, 33;",
    "bfi.b32 %d, %b, %a, 31, 32;", "bfi.b32 %d, %b, %a, 7, 33;", "bfi.b32 %d, %b, %a, 4, 40;",
    "bfi.b32 %d, %b, %a, 20, 64;", "bfi.b32 %d, %b, %a, 4, 31;", "bfi.b32 %d, %b, %a, 40, 32;",
    "bfe.s32 %d, %a, 33, 31;", "bfe.s32 %d, %a, 32, 1;", "bfe.s32 %d, %a, 33, 0;",
    "bfe.s32 %d, %a, 31, 40;", "bfe.u32 %d, %a, 40, 8;",
]


def write_case(case_dir, tmp):
    """A ptxrun test case: CASE on 32 lanes of inputs, the expected values from ptxas's code."""
    random.seed(3232)
    lanes = [(random.getrandbits(32), random.getrandbits(32)) for _ in range(28)]
    lanes += [(0, M), (M, 0), (0x5412, 0x5412), (0x80000000, 1)]
    got, _ = results(CASE, lanes, tmp)
    names = ["r%d" % k for k in range(len(CASE))]
    ptx = ["// Written by scripts/bitfield_imm.py: bfe/bfi with immediate position and length, the",
           "// expected values those of the code ptxas 13.0 makes for them (sm_90), run on its emulator;",
           "// docs/semantics.md, \"Where ptxrun follows the H100\", gives the rule they follow."]
    ptx += [ins.replace("%d", n).replace("%a", "a").replace("%b", "b") for ins, n in zip(CASE, names)]
    with open(os.path.join(case_dir, "bitfield_imm.ptx"), "w") as f:
        f.write("\n".join(ptx) + "\n")
    with open(os.path.join(case_dir, "bitfield_imm.lanes.json"), "w") as f:
        json.dump({"regs": {"a": ["0x%08x" % a for a, _ in lanes], "b": ["0x%08x" % b for _, b in lanes]}}, f)
        f.write("\n")
    with open(os.path.join(case_dir, "bitfield_imm.expect.json"), "w") as f:
        json.dump({"regs": {n: ["0x%08x" % v for v in g] for n, g in zip(names, got)}}, f)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
