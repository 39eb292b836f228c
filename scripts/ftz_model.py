#!/usr/bin/env python3
"""Where .ftz flushes a result near the smallest normal number: a model in exact arithmetic,
written apart from ptxrun, checked against the H100's recorded values, and the test case it makes.

Three readings of "flush a subnormal result" differ only for an exact result just below 2^emin:
  (a) tiny before rounding: |exact| < 2^emin;
  (b) the result rounded to the format (its subnormal grid) is subnormal;
  (c) tiny after rounding, IEEE 754's: the exact result rounded to the format's precision with an
      unbounded exponent range is below 2^emin.

    scripts/ftz_model.py --check ../shared/hw/half ../shared/hw/float tests/h100_more/cases3
        every recorded .ftz add/sub/mul/fma/mad/div/rcp/cvt result of f32, f16, f16x2 whose exact
        value lies in [2^emin / 4, 2 * 2^emin), with the readings that give the H100's bits
    scripts/ftz_model.py --write tests/misc
        writes ftz_after_rounding.{ptx,lanes.json,expect.json}: expected values from reading (c)
"""
import glob
import json
import math
import os
import random
import re
import sys
from fractions import Fraction as F

FORMATS = {'f16': (10, 5), 'bf16': (7, 8), 'f32': (23, 8), 'f64': (52, 11)}   # fraction, exponent bits


def width(fmt):
    return 1 + sum(FORMATS[fmt])


def bias(fmt):
    return (1 << (FORMATS[fmt][1] - 1)) - 1


def min_normal(fmt):
    return F(2) ** (1 - bias(fmt))


def decode(v, fmt):
    """bits -> (sign, magnitude) exactly, or 'nan' / 'inf'."""
    m, e = FORMATS[fmt]
    sign = -1 if v >> (m + e) & 1 else 1
    ex, fr = v >> m & ((1 << e) - 1), v & ((1 << m) - 1)
    if ex == (1 << e) - 1:
        return 'nan' if fr else 'inf'
    if ex == 0:
        return sign, F(fr, 1 << m) * min_normal(fmt)
    return sign, F((1 << m) | fr, 1 << m) * F(2) ** (ex - bias(fmt))


def subnormal(v, fmt):
    m, e = FORMATS[fmt]
    return (v >> m & ((1 << e) - 1)) == 0 and v & ((1 << m) - 1) != 0


def exponent(x):
    """floor(log2(x)) of a positive Fraction, exactly."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if F(2) ** e > x:
        e -= 1
    return e


def round_at(x, ulp, mode, negative):
    """x > 0 rounded to a multiple of ulp."""
    q = x / ulp
    whole = q.numerator // q.denominator
    rest = q - whole
    if mode == 'rz':
        up = False
    elif mode == 'rp':
        up = rest > 0 and not negative
    elif mode == 'rm':
        up = rest > 0 and negative
    else:
        up = rest > F(1, 2) or (rest == F(1, 2) and whole % 2 == 1)
    return (whole + up) * ulp


def encode(x, fmt, mode, negative):
    """Magnitude x > 0 rounded to the format (subnormals kept): its bits without the sign."""
    m, e = FORMATS[fmt]
    ex = max(exponent(x), 1 - bias(fmt))
    r = round_at(x, F(2) ** (ex - m), mode, negative)
    if r >= F(2) ** (1 << (e - 1)):       # overflow
        to_inf = mode == 'rn' or (mode == 'rp' and not negative) or (mode == 'rm' and negative)
        return ((1 << e) - 1) << m if to_inf else (((1 << e) - 1) << m) - 1
    ex = exponent(r)
    if r < min_normal(fmt):
        return int(r / F(2) ** (1 - bias(fmt) - m))
    return (ex + bias(fmt)) << m | int((r / F(2) ** ex - 1) * (1 << m))


def tiny(x, fmt, mode, negative, reading):
    """Whether .ftz flushes the exact magnitude x > 0 under a reading."""
    mn = min_normal(fmt)
    if x >= mn:
        return False
    if reading == 'a':
        return True
    if reading == 'b':
        return encode(x, fmt, mode, negative) < 1 << FORMATS[fmt][0]
    return round_at(x, F(2) ** (exponent(x) - FORMATS[fmt][0]), mode, negative) < mn


SAT_ONE = {'f32': 0x3f800000, 'f16': 0x3c00}


def result(op, fmt, mode, flags, src, src_fmt=None, reading='c'):
    """The bits of op on finite source bits under a reading; None where a source is NaN or
    infinite, or the exact result is zero or undefined (a division by zero). .ftz reads subnormal
    f32 and f16 sources as zeros and flushes tiny f32 and f16 results, except cvt's f16 results
    (cvt_from_float: cvt.rn.ftz.f16.f32 of 0x387fc000 gives the subnormal 0x3ff); 'ftz_inputs'
    flushes the sources only."""
    src_fmt = src_fmt or fmt
    vals = [decode(v, src_fmt) for v in src]
    if any(isinstance(v, str) for v in vals):
        return None
    if flags & {'ftz', 'ftz_inputs'} and src_fmt in ('f32', 'f16'):
        vals = [(s, F(0)) if subnormal(v, src_fmt) else (s, x) for v, (s, x) in zip(src, vals)]
    a = [s * x for s, x in vals]
    if op == 'add':
        r = a[0] + a[1]
    elif op == 'sub':
        r = a[0] - a[1]
    elif op == 'mul':
        r = a[0] * a[1]
    elif op in ('fma', 'mad'):
        r = a[0] * a[1] + a[2]
    elif op == 'div':
        if a[1] == 0:
            return None
        r = a[0] / a[1]
    elif op == 'rcp':
        if a[0] == 0:
            return None
        r = 1 / a[0]
    else:                                  # cvt
        r = a[0]
    if r == 0:                             # an exact zero's sign: not modelled (not near 2^emin)
        return None
    sign_bit = 1 << (width(fmt) - 1)
    negative = r < 0
    flushes = 'ftz' in flags and fmt in ('f32', 'f16') and not (op == 'cvt' and fmt == 'f16')
    if flushes and tiny(abs(r), fmt, mode, negative, reading):
        bits = sign_bit if negative else 0
    else:
        bits = (sign_bit if negative else 0) | encode(abs(r), fmt, mode, negative)
    if ('sat' in flags or 'relu' in flags) and bits & sign_bit:
        bits = 0
    if 'sat' in flags and bits > SAT_ONE[fmt]:
        bits = SAT_ONE[fmt]
    return bits


# ---- the recorded cases ----

def straight_line(folder):
    """(name, op text, what, source bits, result bits) of ../shared/hw's programs (meta.json)."""
    for meta_path in sorted(glob.glob(os.path.join(folder, '*.meta.json'))):
        meta = json.load(open(meta_path))
        base = meta_path[:-len('.meta.json')]
        bufs = {}
        for k, v in json.load(open(base + '.lanes.json'))['buffers'].items():
            if 'data' in v:
                bufs[k] = [int(x, 16) for x in v['data']]
        for k, v in json.load(open(base + '.expect.json'))['buffers'].items():
            bufs[k] = [int(x, 16) for x in v]
        n = meta['nthreads']
        where = dict(meta['inputs'], **meta['slots'])
        for op in meta['ops']:
            for t in range(n):
                vals = [bufs[where[r][0]][where[r][1] * n + t] for r in op['src'] + op['dst']]
                yield os.path.basename(base), op['text'], op['what'], vals[:len(op['src'])], vals[-1]


OPS_CASE_REGS = {'%a16': ('in_a', 16), '%b16': ('in_b', 16), '%c16': ('in_c', 16), '%a32': ('in_a', 32),
                 '%b32': ('in_b', 32), '%c32': ('in_c', 32), '%a': ('in_a', 64), '%b': ('in_b', 64), '%c': ('in_c', 64)}


def ops_case(folder):
    """The same of tests/h100_more/cases3's ops_case programs: each single instruction stored."""
    for ptx in sorted(glob.glob(os.path.join(folder, '*.ptx'))):
        base = ptx[:-4]
        lanes = json.load(open(base + '.lanes.json'))
        if 'in_a' not in lanes['buffers'] or not os.path.exists(base + '.expect.json'):
            continue
        n = lanes['block'][0]
        ins = {k: [int(x, 16) for x in v['data']] for k, v in lanes['buffers'].items() if 'data' in v}
        outs = {k: [int(x, 16) for x in v] for k, v in json.load(open(base + '.expect.json'))['buffers'].items()}
        lines = open(ptx).read().split('\n')
        for j, line in enumerate(lines):
            store = re.match(r'\s*st\.global\.b(\d+) \[%o\d+\+(\d+)\], %\w+;', line)
            ins_text = lines[j - 1].strip()
            instr = re.match(r'(\S+) (%\w+), (.*);$', ins_text)
            if not store or not instr or ins_text.count(';') != 1:
                continue
            srcs = [r.strip() for r in instr.group(3).split(',')]
            if not all(r in OPS_CASE_REGS for r in srcs):
                continue
            w = int(store.group(1))
            k = int(store.group(2)) // (w // 8) // n
            for t in range(n):
                src = [ins[OPS_CASE_REGS[r][0]][t] & ((1 << OPS_CASE_REGS[r][1]) - 1) for r in srcs]
                yield os.path.basename(base), ins_text, instr.group(1), src, outs['out%d' % w][k * n + t]


def parse(what):
    """(op, destination format, source format, mode, flags, pair) of a mnemonic, or None."""
    p = what.split('.')
    op = p[0]
    if op not in ('add', 'sub', 'mul', 'fma', 'mad', 'div', 'rcp', 'cvt') or 'ftz' not in p:
        return None
    if 'approx' in p or 'full' in p or 'oob' in p:
        return None
    mode = next((m for m in ('rn', 'rz', 'rm', 'rp') if m in p[1:]), 'rn')
    flags = {f for f in ('ftz', 'sat', 'relu') if f in p}
    if op == 'cvt':
        dst, src = p[-2], p[-1]
        if dst not in ('f32', 'f16') or src not in ('f32', 'f64') or dst == src:
            return None
        return op, dst, src, mode, flags, False
    if p[-1] not in ('f32', 'f16', 'f16x2'):
        return None
    fmt = p[-1].replace('x2', '')
    return op, fmt, fmt, mode, flags, p[-1].endswith('x2')


def check(folders):
    counts = {}
    for folder in folders:
        rows = ops_case(folder) if 'h100_more' in folder else straight_line(folder)
        for name, text, what, src, got in rows:
            form = parse(what)
            if not form:
                continue
            op, fmt, src_fmt, mode, flags, pair = form
            w = width(fmt)
            for h in range(2 if pair else 1):
                s = [v >> (w * h) & ((1 << width(src_fmt)) - 1) for v in src]
                g = got >> (w * h) & ((1 << w) - 1)
                vals = [decode(v, src_fmt) for v in s]
                if any(isinstance(v, str) for v in vals):
                    continue
                near = result(op, fmt, mode, {'ftz_inputs'}, s, src_fmt)
                exact_near = near is not None and (near & ((1 << (w - 1)) - 1)) < 2 << FORMATS[fmt][0]
                if not exact_near or near & ((1 << (w - 1)) - 1) == 0:
                    continue
                fits = ''.join(r for r in 'abc' if result(op, fmt, mode, flags, s, src_fmt, r) == g)
                key = '%s.%s%s%s' % (op, fmt, 'x2' if pair else '', '.' + src_fmt if op == 'cvt' else '')
                counts.setdefault(key, {}).setdefault(fits or '-', []).append((name, text, [hex(v) for v in s], hex(g)))
    for key in sorted(counts):
        print(key, ', '.join('%s: %d' % (r, len(v)) for r, v in sorted(counts[key].items())))
        for r, v in sorted(counts[key].items()):
            if r not in ('abc',):
                for x in v[:4]:
                    print('   ', r, x)


# ---- the test case ----

def f32_bits(x):
    """A positive Fraction that is an f32 normal, as bits."""
    return encode(x, 'f32', 'rn', False)


def near_f32(rng):
    """(a, b, c) f32 bits whose a*b or a*b + c lies close to ±2^-126."""
    kind = rng.randrange(3)
    sign = lambda: rng.choice((0, 0x80000000))
    if kind == 0:      # a*b = 2^-126 (1 + e) with |e| about 2^-24 or less; c = ±0
        r = F(rng.randrange(1 << 23, 1 << 24), 1 << 23)
        a = r * F(2) ** -26
        b = F(2) ** -100 / r
        b_bits = encode(b, 'f32', rng.choice(('rz', 'rp')), False) + rng.choice((-1, 0, 0, 1))
        return sign() | f32_bits(a), sign() | b_bits, sign()
    if kind == 1:      # c = ±2^-126 (1 + k 2^-23), a*b of the other sign, 2^-20 to 2^-60 of it
        k = rng.randrange(3)
        c = min_normal('f32') * (1 + F(k, 1 << 23))
        d = F(2) ** -rng.randrange(20, 61) * F(rng.randrange(1 << 23, 1 << 24), 1 << 23)
        ea = rng.randrange(-70, -60)             # b = c d / a is then normal
        a = F(rng.randrange(1 << 23, 1 << 24), 1 << 23) * F(2) ** ea
        b = c * d / a
        sc = sign()
        return (sc ^ 0x80000000) | f32_bits(a), encode(b, 'f32', 'rn', False), sc | f32_bits(c)
    # the recorded patterns: (1 - 2^-24) or (1 - 2^-23) times 2^-126 (1 + j 2^-23)
    a = 1 - F(rng.choice((1, 2)), 1 << 24)
    b = min_normal('f32') * (1 + F(rng.randrange(3), 1 << 23))
    return sign() | f32_bits(a), sign() | f32_bits(b), sign()


def near_f16(rng):
    """(a, b, c) f16 bits whose a*b or a*b + c lies close to ±2^-14."""
    sign = lambda: rng.choice((0, 0x8000))
    mn = min_normal('f16')
    if rng.randrange(2) == 0:   # a*b = 2^-14 (1 + e), |e| about 2^-11; c = ±0
        r = F(rng.randrange(1 << 10, 1 << 11), 1 << 10)
        a_bits = encode(r * F(2) ** -7, 'f16', 'rn', False)
        b_bits = encode(F(2) ** -7 / r, 'f16', rng.choice(('rz', 'rp')), False) + rng.choice((-1, 0, 0, 1))
        return sign() | a_bits, sign() | b_bits, sign()
    k = rng.randrange(3)        # c = ±2^-14 (1 + k 2^-10), a*b of the other sign, 2^-11 to 2^-13 of it
    c = mn * (1 + F(k, 1 << 10))
    target = c * F(2) ** -rng.randrange(11, 14) * F(rng.randrange(1 << 10, 1 << 11), 1 << 10)
    ea = -14                    # b = target / a is then normal
    a_bits = encode(F(rng.randrange(1 << 10, 1 << 11), 1 << 10) * F(2) ** ea, 'f16', 'rn', False)
    a = decode(a_bits, 'f16')[1]
    b_bits = encode(target / a, 'f16', 'rn', False)
    sc = sign()
    return (sc ^ 0x8000) | a_bits, b_bits, sc | encode(c, 'f16', 'rn', False)


F32_FORMS = ['fma.rn.ftz.f32', 'fma.rz.ftz.f32', 'fma.rm.ftz.f32', 'fma.rp.ftz.f32', 'mad.rn.ftz.f32',
             'fma.rn.ftz.sat.f32', 'mul.rn.ftz.f32', 'mul.rz.ftz.f32', 'mul.rm.ftz.f32', 'mul.rp.ftz.f32',
             'fma.rn.f32', 'mul.rn.f32']
F16_FORMS = ['fma.rn.ftz.f16x2', 'fma.rn.ftz.relu.f16x2', 'fma.rn.ftz.sat.f16x2', 'mul.rn.ftz.f16x2',
             'fma.rn.f16x2', 'fma.rn.ftz.f16', 'mul.ftz.f16']
THREADS = 64


def write(folder):
    rng = random.Random(32)
    rows = [near_f32(rng) for _ in range(THREADS)]
    halves = [(near_f16(rng), near_f16(rng)) for _ in range(THREADS)]
    pqr = [tuple(lo[i] | hi[i] << 16 for i in range(3)) for lo, hi in halves]
    body = []
    out = []
    for k, form in enumerate(F32_FORMS + F16_FORMS):
        p = form.split('.')
        op, fmt = p[0], p[-1]
        flags = {f for f in ('ftz', 'sat', 'relu') if f in p}
        mode = next((m for m in ('rn', 'rz', 'rm', 'rp') if m in p[1:]), 'rn')
        operands = ', '.join((['%a', '%b', '%c'] if fmt == 'f32' else ['%p', '%q', '%r'] if fmt == 'f16x2'
                              else ['%ph', '%qh', '%rh'])[:3 if op in ('fma', 'mad') else 2])
        dst = '%hd' if fmt == 'f16' else '%d'
        body.append('    %s %s, %s;' % (form, dst, operands))
        if fmt == 'f16':
            body.append('    cvt.u32.u16 %d, %hd;')
        body.append('    st.global.b32 [%%o+%d], %%d;' % (4 * THREADS * k))
        for t in range(THREADS):
            if fmt == 'f32':
                v = result(op, 'f32', mode, flags, rows[t][:3 if op in ('fma', 'mad') else 2])
            else:
                v = 0
                for h in range(2 if fmt == 'f16x2' else 1):
                    s = [x >> (16 * h) & 0xffff for x in pqr[t]][:3 if op in ('fma', 'mad') else 2]
                    v |= result(op, 'f16', mode, flags, s) << (16 * h)
            out.append('0x%08x' % v)
    ptx = '''// .ftz flushes a result that is tiny AFTER rounding (IEEE 754: rounded to the format's precision
// with an unbounded exponent, below the smallest normal number), as the H100 does (docs/semantics.md,
// "Where ptxrun follows the H100"; recorded: float_190, float_320, float_356, half_arith_092).
// Thread t reads f32 a, b, c (in_a, in_b, in_c) whose a*b or a*b + c lies close to +-2^-126, and
// f16x2 p, q, r (in_p, in_q, in_r) whose halves' products or fmas lie close to +-2^-14 (f16 forms:
// the low halves); instruction k stores its result at out[k * 64 + t] (an f16 zero-extended).
// Written by scripts/ftz_model.py; the expected values are its model's (exact arithmetic, reading
// (c)), never ptxrun's.
.version 8.6
.target sm_90
.address_size 64
.visible .entry k(.param .u64 in_a, .param .u64 in_b, .param .u64 in_c, .param .u64 in_p,
                  .param .u64 in_q, .param .u64 in_r, .param .u64 out)
{
    .reg .b32 %t, %a, %b, %c, %p, %q, %r, %d, %x;
    .reg .b16 %ph, %qh, %rh, %hd, %hx;
    .reg .b64 %off, %ptr, %o;
    mov.u32 %t, %tid.x;
    mul.wide.u32 %off, %t, 4;
'''
    for name, reg in (('in_a', '%a'), ('in_b', '%b'), ('in_c', '%c'), ('in_p', '%p'), ('in_q', '%q'), ('in_r', '%r')):
        ptx += '    ld.param.u64 %%ptr, [%s];\n    cvta.to.global.u64 %%ptr, %%ptr;\n    add.u64 %%ptr, %%ptr, %%off;\n' \
               '    ld.global.b32 %s, [%%ptr];\n' % (name, reg)
    ptx += '    mov.b32 {%ph, %hx}, %p;\n    mov.b32 {%qh, %hx}, %q;\n    mov.b32 {%rh, %hx}, %r;\n'
    ptx += '    ld.param.u64 %o, [out];\n    cvta.to.global.u64 %o, %o;\n    add.u64 %o, %o, %off;\n'
    ptx += '\n'.join(body) + '\n    ret;\n}\n'
    name = os.path.join(folder, 'ftz_after_rounding')
    open(name + '.ptx', 'w').write(ptx)
    hexes = lambda col, rs: ['0x%08x' % r[col] for r in rs]
    lanes = {'block': [THREADS, 1, 1], 'buffers': {
        'in_a': {'type': 'b32', 'data': hexes(0, rows)}, 'in_b': {'type': 'b32', 'data': hexes(1, rows)},
        'in_c': {'type': 'b32', 'data': hexes(2, rows)}, 'in_p': {'type': 'b32', 'data': hexes(0, pqr)},
        'in_q': {'type': 'b32', 'data': hexes(1, pqr)}, 'in_r': {'type': 'b32', 'data': hexes(2, pqr)},
        'out': {'type': 'b32', 'count': len(out)}},
        'params': ['@in_a', '@in_b', '@in_c', '@in_p', '@in_q', '@in_r', '@out']}
    json.dump(lanes, open(name + '.lanes.json', 'w'))
    json.dump({'buffers': {'out': out}}, open(name + '.expect.json', 'w'))
    # how many values each other reading would give otherwise
    for reading in 'ab':
        wrong = {'f32': 0, 'f16': 0}
        for t in range(THREADS):
            for form in F32_FORMS + F16_FORMS:
                p = form.split('.')
                fmt = p[-1].replace('x2', '')
                n = 3 if p[0] in ('fma', 'mad') else 2
                flags = {f for f in ('ftz', 'sat', 'relu') if f in p}
                mode = next((m for m in ('rn', 'rz', 'rm', 'rp') if m in p[1:]), 'rn')
                for h in range(1 if fmt == 'f32' else 2 if p[-1].endswith('x2') else 1):
                    ops = rows[t][:n] if fmt == 'f32' else [x >> (16 * h) & 0xffff for x in pqr[t]][:n]
                    wrong[fmt] += result(p[0], fmt, mode, flags, ops) != result(p[0], fmt, mode, flags, ops,
                                                                                 reading=reading)
        print('reading (%s) gives another value in %d f32 and %d f16 results' % (reading, wrong['f32'], wrong['f16']))


def main():
    if len(sys.argv) > 2 and sys.argv[1] == '--check':
        check(sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == '--write':
        write(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
