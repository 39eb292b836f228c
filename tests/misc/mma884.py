#!/usr/bin/env python3
# mma884.py: writes the cases mma884_forms and mma884_round (NAME.ptx, NAME.lanes.json, NAME.expect.json)
# into the folder given (default: this one). An independent model of mma.sync.aligned.m8n8k4 with .f16 A
# and B, written from the PTX ISA (9.7.14.5.1, "Matrix Fragments for mma.m8n8k4 with .f16 floating point
# type") and from the code ptxas 13.0 makes of it for sm_90 (docs/semantics.md, "mma"), not from exec/.
# Arithmetic in exact rationals, each step rounded here to f32 (or f16) to nearest even.
#   mma884_forms: all 12 forms (A .row/.col x B .row/.col x .f16.f16, .f32.f16, .f32.f32 D.C), small
#     integers: every accumulation order gives the same D, so this checks the fragment layouts.
#   mma884_round: 4 forms on rounding-sensitive values, signed zeros, subnormal f16, inf, NaN, f16 overflow.
import json, math, os, random, struct, sys
from fractions import Fraction

# --- the ISA's fragment layouts: element i of lane's fragment -> (pair, row, col) ---
def pair(lane): return (lane >> 2) & 3           # lanes 0-3 with 16-19, 4-7 with 20-23, ...
def high(lane): return 4 if lane >= 16 else 0
def lay_a(lane, i, a_col):
    return (pair(lane), i % 4 + high(lane), lane % 4) if a_col else (pair(lane), lane % 4 + high(lane), i)
def lay_b(lane, i, b_row):
    return (pair(lane), lane % 4, i + high(lane)) if b_row else (pair(lane), i, lane % 4 + high(lane))
def lay_c(lane, i, f32):
    if not f32:
        return pair(lane), lane % 4 + high(lane), i
    return pair(lane), (lane & 1) + (i & 2) + high(lane), (i & 4) + (lane & 2) + (i & 1)

# --- values: Python floats hold every f16 and f32 exactly ---
def f16_val(h):
    s, e, m = h >> 15, (h >> 10) & 31, h & 1023
    v = math.inf if e == 31 and m == 0 else math.nan if e == 31 else math.ldexp(m if e == 0 else m | 1024, (e or 1) - 25)
    return -v if s else v
def f32_val(u): return struct.unpack('<f', struct.pack('<I', u))[0]

def rnd(x, p, emin, emax):
    """Fraction x rounded to nearest even with p significant bits, exponents down to emin (subnormals
    below), overflow to inf past the largest finite value. Returns a float (0.0 for zero: sign set by caller)."""
    if x == 0:
        return 0.0
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a: e -= 1
    e = max(e, emin)
    q = Fraction(2) ** (e - p + 1)
    n, r = divmod(a, q)
    n = int(n)
    if r * 2 > q or (r * 2 == q and n & 1): n += 1
    v = n * q
    if v >= Fraction(2) ** (emax + 1) * (1 - Fraction(1, 2 ** (p + 1))):
        v = math.inf
    else:
        v = float(v)
    return -v if x < 0 else v
def r32(x): return rnd(x, 24, -126, 127)
def r16(x): return rnd(x, 11, -14, 15)

def add_exact(terms, rounder):
    """IEEE sum of exact terms (floats; a product given as (x, y)) rounded once: inf/NaN by IEEE, a zero sum
    is -0 only when every term is a zero of sign -."""
    vals = []
    for t in terms:
        if isinstance(t, tuple):
            x, y = t
            if math.isnan(x) or math.isnan(y) or (math.isinf(x) and y == 0) or (math.isinf(y) and x == 0):
                return math.nan
            if math.isinf(x) or math.isinf(y):
                vals.append(math.copysign(math.inf, x) * math.copysign(1, y))
            else:
                vals.append((Fraction(x) * Fraction(y), math.copysign(1, x) * math.copysign(1, y)))
        elif math.isnan(t) or math.isinf(t):
            vals.append(t)
        else:
            vals.append((Fraction(t), math.copysign(1, t)))
    infs = [v for v in vals if not isinstance(v, tuple)]
    if any(math.isnan(v) for v in infs) or (math.inf in infs and -math.inf in infs):
        return math.nan
    if infs:
        return infs[0]
    s = sum(v[0] for v in vals)
    if s == 0:
        return -0.0 if all(v[0] == 0 and v[1] < 0 for v in vals) else 0.0
    return rounder(s)

def fma(x, y, z): return add_exact([(x, y), z], r32)
def fadd(x, y): return add_exact([x, y], r32)
def fmul(x, y): return add_exact([(x, y)], r32)

# ptxas 13.0's code for sm_90: f32 D: ((((+0 + a0b0) + a1b1) + a2b2) + a3b3) by fma, then C + that sum;
# f16 D: p = a1b1 + a0*b0, q = a3b3 + a2*b2 (fma onto an fmul), ((C + p) + q), rounded to f16 once.
def dot(a, b, c, d_f32):
    if d_f32:
        s = fma(a[0], b[0], 0.0)
        for k in range(1, 4):
            s = fma(a[k], b[k], s)
        return fadd(c, s)
    p = fma(a[1], b[1], fmul(a[0], b[0]))
    q = fma(a[3], b[3], fmul(a[2], b[2]))
    s = fadd(fadd(c, p), q)
    return math.nan if math.isnan(s) else s if math.isinf(s) or s == 0 else r16(Fraction(s))

# Other models, only to show that mma884_round tells them apart (not used for expected values).
def dot_exact_rn(a, b, c, d_f32):
    s = add_exact([c] + [(a[k], b[k]) for k in range(4)], r32 if d_f32 else r16)
    return s
def dot_e25rz(a, b, c, d_f32):
    """The H100's m16n8k* f16 model (../shared/hw/mma/README.md): terms aligned to the largest exponent sum,
    truncated 25 bits below it, summed exactly, rounded toward zero to f32 (then to f16 by RN)."""
    if any(math.isnan(v) or math.isinf(v) for v in list(a) + list(b) + [c]):
        return dot_exact_rn(a, b, c, d_f32)
    ex = lambda v: math.frexp(v)[1] - 1 if v != 0 else -1000
    top = max([ex(c)] + [ex(a[k]) + ex(b[k]) for k in range(4)])
    q = Fraction(2) ** (top - 24)
    def trunc(t): return Fraction(int(t / q)) * q
    s = trunc(Fraction(c)) + sum(trunc(Fraction(a[k]) * Fraction(b[k])) for k in range(4))
    if s == 0:
        return 0.0
    sign = -1 if s < 0 else 1
    e = abs(s).numerator.bit_length() - abs(s).denominator.bit_length()
    if Fraction(2) ** e > abs(s): e -= 1
    v = sign * float(Fraction(int(abs(s) / Fraction(2) ** (e - 23))) * Fraction(2) ** (e - 23))
    return v if d_f32 else r16(Fraction(v))

def bits16(v):
    if math.isnan(v): return 0x7fff
    return struct.unpack('<H', struct.pack('<e', v))[0]
def bits32(v):
    if math.isnan(v): return 0x7fffffff
    return struct.unpack('<I', struct.pack('<f', v))[0]

# --- one mma: registers in, registers out ---
class Form:
    def __init__(self, a_col, b_row, d_f32, c_f32):
        self.a_col, self.b_row, self.d_f32, self.c_f32 = a_col, b_row, d_f32, c_f32
    def name(self):
        return 'm8n8k4.%s.%s.%s.f16.f16.%s' % ('col' if self.a_col else 'row', 'row' if self.b_row else 'col',
                                              'f32' if self.d_f32 else 'f16', 'f32' if self.c_f32 else 'f16')
    def c_regs(self): return 8 if self.c_f32 else 4
    def d_regs(self): return 8 if self.d_f32 else 4

def halves(regs, lane, n):
    return [(regs[i // 2][lane] >> (16 * (i % 2))) & 0xffff for i in range(n)]

def matrices(f, A, B, C):
    """A, B, C: lists of registers, each 32 lanes of 32-bit words -> per pair A[4][8][4], B[4][4][8], C[4][8][8]."""
    Am = [[[None] * 4 for _ in range(8)] for _ in range(4)]
    Bm = [[[None] * 8 for _ in range(4)] for _ in range(4)]
    Cm = [[[None] * 8 for _ in range(8)] for _ in range(4)]
    for lane in range(32):
        for i, h in enumerate(halves(A, lane, 4)):
            p, r, c = lay_a(lane, i, f.a_col); assert Am[p][r][c] is None; Am[p][r][c] = f16_val(h)
        for i, h in enumerate(halves(B, lane, 4)):
            p, r, c = lay_b(lane, i, f.b_row); assert Bm[p][r][c] is None; Bm[p][r][c] = f16_val(h)
        vals = [f32_val(C[i][lane]) for i in range(8)] if f.c_f32 else [f16_val(h) for h in halves(C, lane, 8)]
        for i, v in enumerate(vals):
            p, r, c = lay_c(lane, i, f.c_f32); assert Cm[p][r][c] is None; Cm[p][r][c] = v
    return Am, Bm, Cm

def run(f, A, B, C, model=dot):
    Am, Bm, Cm = matrices(f, A, B, C)
    D = [[0] * 32 for _ in range(f.d_regs())]
    for lane in range(32):
        for i in range(8):
            p, r, c = lay_c(lane, i, f.d_f32)
            v = model(Am[p][r], [Bm[p][k][c] for k in range(4)], Cm[p][r][c], f.d_f32)
            if f.d_f32:
                D[i][lane] = bits32(v)
            else:
                D[i // 2][lane] |= bits16(v) << (16 * (i % 2))
    return D

def regs_from(f, Am, Bm, Cm):
    """The inverse: matrices per pair -> the registers that hold them in form f."""
    A = [[0] * 32 for _ in range(2)]; B = [[0] * 32 for _ in range(2)]; C = [[0] * 32 for _ in range(f.c_regs())]
    for lane in range(32):
        for i in range(4):
            p, r, c = lay_a(lane, i, f.a_col); A[i // 2][lane] |= Am[p][r][c] << (16 * (i % 2))
            p, r, c = lay_b(lane, i, f.b_row); B[i // 2][lane] |= Bm[p][r][c] << (16 * (i % 2))
        for i in range(8):
            p, r, c = lay_c(lane, i, f.c_f32)
            if f.c_f32: C[i][lane] = Cm[p][r][c]
            else: C[i // 2][lane] |= Cm[p][r][c] << (16 * (i % 2))
    return A, B, C

# --- writing a case ---
def write_case(folder, name, comment, steps):
    """steps: (form, A, B, C) per mma; each has its own input registers; D registers stored in order."""
    lines = ['.version 8.0', '.target sm_90', '.address_size 64', '']
    lines += ['// ' + l for l in comment]
    lines += ['.visible .entry k(.param .u64 p_i32, .param .u64 p_o32)', '{']
    nin = sum(4 + len(C) for _, _, _, C in steps)
    nout = sum(f.d_regs() for f, _, _, _ in steps)
    lines += ['    .reg .b32 %%i<%d>;' % nin, '    .reg .f32 %%c<%d>;' % nin, '    .reg .b32 %%h<%d>;' % nout,
              '    .reg .f32 %%d<%d>;' % nout,
              '    .reg .u64 %bi, %bo, %off;', '    .reg .u32 %lane;', '    mov.u32 %lane, %tid.x;',
              '    mul.wide.u32 %off, %lane, 4;', '    ld.param.u64 %bi, [p_i32];', '    cvta.to.global.u64 %bi, %bi;',
              '    add.s64 %bi, %bi, %off;', '    ld.param.u64 %bo, [p_o32];', '    cvta.to.global.u64 %bo, %bo;',
              '    add.s64 %bo, %bo, %off;']
    slot = out = 0
    inputs, outputs = [], []
    for f, A, B, C in steps:
        regs = []
        for k, w in enumerate(A + B + C):
            f32c = k >= 4 and f.c_f32
            lines.append('    ld.global.%s %%%s%d, [%%bi+%d];' % ('f32' if f32c else 'b32', 'c' if f32c else 'i', slot, 128 * slot))
            regs.append('%%%s%d' % ('c' if f32c else 'i', slot))
            inputs.append(w); slot += 1
        dn = ['%%%s%d' % ('d' if f.d_f32 else 'h', out + j) for j in range(f.d_regs())]
        lines.append('    mma.sync.aligned.%s {%s}, {%s}, {%s}, {%s};' % (
            f.name(), ', '.join(dn), ', '.join(regs[0:2]), ', '.join(regs[2:4]), ', '.join(regs[4:])))
        for j, r in enumerate(dn):
            lines.append('    st.global.%s [%%bo+%d], %s;' % ('f32' if f.d_f32 else 'b32', 128 * (out + j), r))
        outputs += run(f, A, B, C)
        out += f.d_regs()
    lines += ['    ret;', '}', '']
    open(os.path.join(folder, name + '.ptx'), 'w').write('\n'.join(lines))
    h = lambda v: '0x%08x' % v
    inw = [w for s in inputs for w in s]
    outw = [w for s in outputs for w in s]
    json.dump({'block': [32, 1, 1], 'grid': [1, 1, 1], 'buffers': {'i32': {'type': 'b32', 'data': [h(v) for v in inw]},
               'o32': {'type': 'b32', 'count': len(outw)}}, 'params': ['@i32', '@o32']},
              open(os.path.join(folder, name + '.lanes.json'), 'w'))
    open(os.path.join(folder, name + '.lanes.json'), 'a').write('\n')
    json.dump({'buffers': {'o32': [h(v) for v in outw]}}, open(os.path.join(folder, name + '.expect.json'), 'w'))
    open(os.path.join(folder, name + '.expect.json'), 'a').write('\n')

ROUND_FORMS = [Form(False, False, True, True), Form(True, True, False, False), Form(False, True, True, False),
               Form(True, False, False, False)]
FORMS = [Form(ac, br, d, c) for ac in (False, True) for br in (True, False) for d, c in ((False, False), (True, False), (True, True))]

def forms_case(folder):
    rnd_ = random.Random(884)
    small16 = lambda lo, hi: bits16(float(rnd_.randint(lo, hi)))
    A = [[small16(-8, 8) | small16(-8, 8) << 16 for _ in range(32)] for _ in range(2)]
    B = [[small16(-8, 8) | small16(-8, 8) << 16 for _ in range(32)] for _ in range(2)]
    C16 = [[small16(-99, 99) | small16(-99, 99) << 16 for _ in range(32)] for _ in range(4)]
    C32 = [[bits32(float(rnd_.randint(-999, 999))) for _ in range(32)] for _ in range(8)]
    steps = [(f, A, B, C32 if f.c_f32 else C16) for f in FORMS]
    # a wrong layout (A read as the other layout, B likewise, C/D as the other accumulator layout) must change D
    for f, A_, B_, C_ in steps:
        good = run(f, A_, B_, C_)
        for g in (Form(not f.a_col, f.b_row, f.d_f32, f.c_f32), Form(f.a_col, not f.b_row, f.d_f32, f.c_f32)):
            assert run(g, A_, B_, C_) != good, f.name()
    write_case(folder, 'mma884_forms', [
        'mma884_forms: mma.sync.aligned.m8n8k4 with .f16 A and B in all 12 forms ptxas accepts for sm_90 (A .row/.col,',
        'B .row/.col; D.C .f16.f16, .f32.f16, .f32.f32: ptxas refuses .f16 D with .f32 C), small integers so that every',
        'accumulation order gives the same D: a check of the PTX ISA fragment layouts (four 8x8x4 products, one per',
        'quad-pair). Input slot s of lane l is i32[s*32+l]; D register s of lane l goes to o32[s*32+l]. Written, with',
        'the expected values, by mma884.py (a Python model from the ISA, not from ptxrun).'], steps)

def round_case(folder):
    rnd_ = random.Random(8840)
    def normal16():
        while True:
            v = math.ldexp(rnd_.uniform(1, 2), rnd_.randint(-9, 9)) * rnd_.choice((-1, 1))
            h = bits16(r16(Fraction(v)))
            if (h >> 10) & 31 not in (0, 31): return h
    def mats(c_f32):
        Am = [[[normal16() for _ in range(4)] for _ in range(8)] for _ in range(4)]
        Bm = [[[normal16() for _ in range(8)] for _ in range(4)] for _ in range(4)]
        Cm = [[[bits32(math.ldexp(rnd_.uniform(1, 2), rnd_.randint(-4, 14)) * rnd_.choice((-1, 1))) if c_f32
                else normal16() for _ in range(8)] for _ in range(8)] for _ in range(4)]
        return Am, Bm, Cm
    one, m1 = bits16(1.0), bits16(-1.0)
    steps = []
    for f in ROUND_FORMS:
        Am, Bm, Cm = mats(f.c_f32)
        if f.d_f32:
            # pair 0 row 0 x col 0: every product -0, C = -0: the fma chain starts from +0, so D = +0
            Am[0][0] = [0x8000, 0x0000, 0x8000, 0x0000]; Bm[0][0][0] = 0x0000; Bm[0][1][0] = 0x8000
            Bm[0][2][0] = 0x0000; Bm[0][3][0] = 0x8000
            Cm[0][0][0] = 0x80000000 if f.c_f32 else 0x8000
            # row 1 x col 1: products 1, 2^-24, 2^-24, -1 in k order: the chain loses both 2^-24 (D = C), the
            # exact sum keeps 2^-23
            Am[0][1] = [one, bits16(2.0 ** -12), bits16(2.0 ** -12), m1]
            for k, v in enumerate((one, bits16(2.0 ** -12), bits16(2.0 ** -12), one)): Bm[0][k][1] = v
            Cm[0][1][1] = bits32(0.25) if f.c_f32 else bits16(0.25)
            # row 2: inf times 0 (NaN, canonical); row 3: inf + finite = inf; row 4 col 2: a subnormal product
            Am[0][2][1] = 0x7c00; Bm[0][1][2] = 0x0000
            Am[0][3][2] = 0xfc00
            Am[0][4] = [0x0001, 0x0001, 0x0001, 0x0001]
            # pair 1 row 0 col 0: C = 2^24 and products 1, 1, 1, 1: 4 added after the chain is exact (2^24 + 4)
            Cm[1][0][0] = bits32(2.0 ** 24) if f.c_f32 else bits16(2048.0)
        else:
            # pair 0 row 0 x col 0: C = 1, a0b0 = 2^-11, a1b1 = 0, a2b2 = 2^-30, a3b3 = 0: (C + p) + q is
            # 1 + 2^-11 in f32, a tie for f16 (1.0); the exact sum rounds up to 1 + 2^-10
            Am[0][0] = [bits16(2.0 ** -6), 0x0000, bits16(2.0 ** -15), 0x0000]
            for k, v in enumerate((bits16(2.0 ** -5), 0x0000, bits16(2.0 ** -15), 0x0000)): Bm[0][k][0] = v
            Cm[0][0][0] = one
            # row 1 x col 1: all -0 products, C = -0: -0 (the f16 path starts with a multiply, not from +0)
            Am[0][1] = [0x8000, 0x8000, 0x8000, 0x8000]
            for k in range(4): Bm[0][k][1] = 0x0000
            Cm[0][1][1] = 0x8000
            # row 2 x col 2: overflow to inf in the f16 result; row 3: NaN input
            Am[0][2] = [bits16(240.0)] * 4
            for k in range(4): Bm[0][k][2] = bits16(100.0)
            Cm[0][2][2] = bits16(60000.0)
            Am[0][3][0] = 0x7e01
            # row 4 x col 4: C = 0, products 2^-24 and 2^-26: a subnormal f16 result, 2^-24
            Am[0][4] = [bits16(2.0 ** -14), bits16(2.0 ** -13), 0x0000, 0x0000]
            for k, v in enumerate((bits16(2.0 ** -10), bits16(2.0 ** -13), 0x0000, 0x0000)): Bm[0][k][4] = v
            Cm[0][4][4] = 0x0000
        A, B, C = regs_from(f, Am, Bm, Cm)
        steps.append((f, A, B, C))
    # the inputs must tell the model apart from the others
    for f, A, B, C in steps:
        d = run(f, A, B, C)
        for other in (dot_exact_rn, dot_e25rz):
            o = run(f, A, B, C, other)
            diff = sum(1 for r in range(len(d)) for l in range(32) if d[r][l] != o[r][l])
            print('%s: %d of %d registers differ from %s' % (f.name(), diff, 32 * len(d), other.__name__),
                  file=sys.stderr)
            assert diff > 0
    write_case(folder, 'mma884_round', [
        'mma884_round: mma.sync.aligned.m8n8k4 .f16 A and B on values where the order of the accumulation shows: the',
        'H100 runs it as the code ptxas 13.0 makes for sm_90 (no HMMA: f16 operands widened to f32, .f32 D an fma chain',
        'in k order from +0 and C added last; .f16 D two fma pairs, (C + p01) + p23, rounded to f16 once), random',
        'normal f16 operands over 2^-9..2^10, signed zeros, subnormal f16, inf, NaN and f16 overflow. Slots as in',
        'mma884_forms. Written, with the expected values, by mma884.py (exact rationals, rounded per step).'], steps)

if __name__ == '__main__':
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    forms_case(folder)
    round_case(folder)
