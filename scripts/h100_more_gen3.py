#!/usr/bin/env python3
"""Write the programs of tests/h100_more/cases3 (NAME.ptx + NAME.lanes.json): forms no H100 case
covered before (every .ptx of tests/hw, tests/h100_more and ../shared/hw grepped, 2026-11-24):
64-bit and signed carry chains (add.cc/addc/sub.cc/subc .s64/.u64, mad.lo/hi.cc and madc on
.u64/.s64/.s32), compares on half types (setp/set .f16 .f16x2 .bf16 .bf16x2, .ftz, every
comparison, boolean ops), min/max .xorsign.abs on half types, conversions to and from .bf16
(f64, f16 and integer sources and destinations, sm_90), integer-rounding of halves, 8- and 64-bit
integers to .f16, .rz packed conversions, cvt .f32.f32 with .ftz/.sat; fma.oob on halves (every
NaN, then a check of the OOB-NaN rule) and mul + add/sub with no rounding modifier (which the
driver's ptxas fuses; then a check on 40 random forms). Cases ptxrun does not reproduce go to
disagree/ (DISAGREE below; tests/h100_more/README.md, "cases3"). Their expect files are what an
H100 gave (scripts/h100_run.py --write-expect), never this script's.

    scripts/h100_more_gen3.py tests/h100_more            # writes cases3/ (and disagree/ for DISAGREE)
    scripts/h100_more_gen3.py tests/h100_more NAME...    # only the cases named

Each program (ops_case) runs one block: thread t loads the 64-bit words a[t], b[t], c[t] from
in_a, in_b, in_c into %a %b %c (.b64), their low 32 bits into %a32 %b32 %c32 and low 16 bits
into %a16 %b16 %c16; each instruction of the list (a short sequence for a carry chain) writes
%d16, %d32 or %d64, stored at out16/out32/out64[k * n + t], k counting the instructions of that
width. Inputs are crosses of corner values (0, ±1, MIN/MAX of each width, ±0, ±inf, quiet and
signalling NaNs with payloads, subnormals, the largest finite values, ties of each rounding)
with random ones (seeded: the same files every run).
"""
import random
import struct
import sys

from h100_cases import write_all

R = random.Random(20261124_3)


def head(version='8.6'):
    return '.version %s\n.target sm_90\n.address_size 64\n\n' % version


def hx(v, n):
    return '0x%0*x' % (2 * n, v & ((1 << (8 * n)) - 1))


def cross(xs, ys, n):
    out = [(x, y) for x in xs for y in ys]
    R.shuffle(out)
    out = out[:n]
    while len(out) < n:
        out.append((R.choice(xs), R.choice(ys)))
    return out


def ops_case(instrs, a, b, c, version='8.6'):
    """instrs: (text, width) pairs; text writes %dWIDTH. len(a) threads."""
    n = len(a)
    slot = {16: 0, 32: 0, 64: 0}
    body = ''
    for ins, w in instrs:
        body += '    %s\n    st.global.b%d [%%o%d+%d], %%d%d;\n' % (ins, w, w, slot[w] * n * w // 8, w)
        slot[w] += 1
    src = head(version) + '.visible .entry k(.param .u64 in_a, .param .u64 in_b, .param .u64 in_c'
    outs = [w for w in (16, 32, 64) if slot[w]]
    src += ''.join(', .param .u64 out%d' % w for w in outs) + ')\n{\n'
    src += ('    .reg .b16 %a16, %b16, %c16, %d16, %e16;\n    .reg .b32 %t, %a32, %b32, %c32, %d32, %e32, %f32;\n'
            '    .reg .b64 %a, %b, %c, %d64, %e64, %f64, %pa, %off;\n    .reg .b64 %o16, %o32, %o64;\n'
            '    .reg .pred %p, %q, %r;\n    mov.u32 %t, %tid.x;\n    mul.wide.u32 %off, %t, 8;\n')
    for r in 'abc':
        src += ('    ld.param.u64 %%pa, [in_%s];\n    cvta.to.global.u64 %%pa, %%pa;\n    add.u64 %%pa, %%pa, %%off;\n'
                '    ld.global.b64 %%%s, [%%pa];\n    cvt.u32.u64 %%%s32, %%%s;\n    cvt.u16.u64 %%%s16, %%%s;\n'
                % (r, r, r, r, r, r))
    for w in outs:
        src += ('    ld.param.u64 %%o%d, [out%d];\n    cvta.to.global.u64 %%o%d, %%o%d;\n'
                '    mul.wide.u32 %%off, %%t, %d;\n    add.u64 %%o%d, %%o%d, %%off;\n' % (w, w, w, w, w // 8, w, w))
    src += body + '    ret;\n}\n'
    bufs = {'in_a': {'type': 'b64', 'data': [hx(x, 8) for x in a]},
            'in_b': {'type': 'b64', 'data': [hx(x, 8) for x in b]},
            'in_c': {'type': 'b64', 'data': [hx(x, 8) for x in c]}}
    for w in outs:
        bufs['out%d' % w] = {'type': 'b%d' % w, 'count': n * slot[w]}
    lanes = {'block': [n, 1, 1], 'buffers': bufs,
             'params': ['@in_a', '@in_b', '@in_c'] + ['@out%d' % w for w in outs]}
    return src, lanes


def rnd(bits):
    return R.getrandbits(bits)


# ---- carry chains: 64-bit and signed forms (32-bit unsigned ones had cases)
V64 = [0, 1, 2, 0xffffffffffffffff, 0xfffffffffffffffe, 0x8000000000000000, 0x7fffffffffffffff,
       0x00000000ffffffff, 0x0000000100000000, 0xffffffff00000000, 0x8000000000000001, 0x00000000ffffffff,
       0x7fffffff, 0x80000000, 0xffffffff80000000, 0x123456789abcdef0]


def carry64():
    seqs64 = [
        'add.cc.u64 %e64, %a, %b; addc.u64 %d64, %c, 0;',
        'add.cc.s64 %e64, %a, %b; addc.s64 %d64, %c, %a;',
        'add.cc.u64 %e64, %a, %b; addc.cc.u64 %e64, %c, %b; addc.u64 %d64, 0, 0;',
        'add.cc.s64 %e64, %a, %b; addc.cc.s64 %d64, %c, %b;',
        'sub.cc.u64 %e64, %a, %b; subc.u64 %d64, %c, 0;',
        'sub.cc.s64 %e64, %a, %b; subc.s64 %d64, %c, %a;',
        'sub.cc.u64 %e64, %a, %b; subc.cc.u64 %e64, %c, %b; subc.u64 %d64, 0, 0;',
        'sub.cc.s64 %e64, %a, %b; subc.cc.s64 %d64, %c, %b;',
        'sub.cc.u64 %d64, %a, %b;',
        'add.cc.u64 %e64, %a, %b; subc.u64 %d64, %c, %b;',
        'sub.cc.u64 %e64, %a, %b; addc.u64 %d64, %c, 0;',
        'mad.lo.cc.u64 %e64, %a, %b, %c; addc.u64 %d64, 0, 0;',
        'mad.lo.cc.u64 %d64, %a, %b, %c;',
        'mad.hi.cc.u64 %e64, %a, %b, %c; addc.u64 %d64, 0, 0;',
        'mad.hi.cc.u64 %d64, %a, %b, %c;',
        'mad.lo.cc.s64 %e64, %a, %b, %c; addc.s64 %d64, 0, 0;',
        'mad.hi.cc.s64 %e64, %a, %b, %c; addc.s64 %d64, 0, 0;',
        'mad.hi.cc.s64 %d64, %a, %b, %c;',
        'mad.hi.cc.s64 %e64, %a, %b, %c; madc.hi.s64 %d64, %a, %b, %c;',
        'mad.lo.cc.u64 %e64, %a, %b, %c; madc.lo.cc.u64 %e64, %b, %c, %a; madc.hi.u64 %d64, %a, %c, %b;',
        'mad.lo.cc.u64 %e64, %a, %b, %c; madc.lo.cc.u64 %d64, %b, %c, %a;',
        'mad.lo.cc.u64 %e64, %a, %b, %c; madc.hi.cc.u64 %e64, %b, %c, %a; addc.u64 %d64, 0, 0;',
        'add.cc.u64 %e64, %a, %b; madc.lo.u64 %d64, %a, %b, %c;',
        'add.cc.u64 %e64, %a, %b; madc.hi.s64 %d64, %a, %b, %c;',
        'sub.cc.u64 %e64, %a, %b; madc.lo.s64 %d64, %a, %b, %c;',
        'sub.cc.s64 %e64, %a, %b; madc.hi.cc.s64 %e64, %a, %b, %c; addc.u64 %d64, 0, 0;',
    ]
    seqs32 = [
        'mad.lo.cc.s32 %e32, %a32, %b32, %c32; addc.s32 %d32, 0, 0;',
        'mad.lo.cc.s32 %d32, %a32, %b32, %c32;',
        'mad.hi.cc.s32 %e32, %a32, %b32, %c32; addc.s32 %d32, 0, 0;',
        'mad.hi.cc.s32 %e32, %a32, %b32, %c32; madc.hi.s32 %d32, %a32, %b32, %c32;',
        'add.cc.u32 %e32, %a32, %b32; madc.lo.cc.s32 %e32, %a32, %c32, %b32; '
        'madc.hi.cc.s32 %e32, %b32, %c32, %a32; addc.u32 %d32, 0, 0;',
        'add.cc.u32 %e32, %a32, %b32; madc.lo.cc.s32 %d32, %a32, %c32, %b32;',
        'sub.cc.s32 %e32, %a32, %b32; madc.lo.s32 %d32, %a32, %b32, %c32;',
        'sub.cc.u32 %e32, %a32, %b32; madc.hi.s32 %d32, %a32, %b32, %c32;',
        'add.cc.u32 %e32, %a32, %b32; subc.cc.u32 %e32, %c32, %b32; subc.s32 %d32, 0, 0;',
        'sub.cc.u32 %e32, %a32, %b32; subc.cc.u32 %e32, %a32, %c32; addc.u32 %d32, 0, 0;',
    ]
    pairs = cross(V64, V64, 224)
    a = [x for x, _ in pairs] + [rnd(64) for _ in range(32)]
    b = [y for _, y in pairs] + [rnd(64) for _ in range(32)]
    c = [R.choice(V64) if R.random() < 0.6 else rnd(64) for _ in range(256)]
    return ops_case([(s, 64) for s in seqs64] + [(s, 32) for s in seqs32], a, b, c)


# ---- half-type values
F16V = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01, 0x7fff, 0xffff, 0x7d00,
        0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x7bff, 0xfbff, 0x3c01, 0x3bff, 0x4000, 0xc000]
BF16V = [0x0000, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc1, 0x7fff, 0xffff, 0x7fa0,
         0x0001, 0x8001, 0x007f, 0x807f, 0x0080, 0x8080, 0x7f7f, 0xff7f, 0x3f81, 0x3f7f, 0x4000, 0xc000]
CMPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu', 'num', 'nan']


def half_pairs(vals, n):
    """a, b, c: 64-bit words whose low halves cross vals; the second halves are drawn from vals
    (or random), so packed forms see the same classes in both halves."""
    lo = cross(vals, vals, n)
    hi = cross(vals, vals, n)
    a, b = [], []
    for (x0, y0), (x1, y1) in zip(lo, hi):
        if R.random() < 0.15:
            x1, y1 = rnd(16), rnd(16)
        if R.random() < 0.1:
            x0 = rnd(16)
        a.append(rnd(32) << 32 | x1 << 16 | x0)
        b.append(rnd(32) << 32 | y1 << 16 | y0)
    c = [rnd(32) << 32 | R.choice(vals) << 16 | R.choice(vals) for _ in range(n)]
    return a, b, c


def halfcmp(t):
    """setp/set on t (f16 or bf16), scalar and packed, every comparison."""
    t2 = t + 'x2'
    ins = []
    for cmp in CMPS:
        ins.append(('setp.%s.%s %%p, %%a16, %%b16; selp.b16 %%d16, 1, 0, %%p;' % (cmp, t), 16))
        ins.append(('setp.%s.%s %%p|%%q, %%a32, %%b32; selp.b16 %%d16, 1, 0, %%p; selp.b16 %%e16, 2, 0, %%q; '
                    'or.b16 %%d16, %%d16, %%e16;' % (cmp, t2), 16))
        ins.append(('set.%s.%s.%s %%d32, %%a32, %%b32;' % (cmp, t2, t2), 32))
        if t == 'f16':
            ins.append(('setp.%s.ftz.f16 %%p, %%a16, %%b16; selp.b16 %%d16, 1, 0, %%p;' % cmp, 16))
    for cmp in ('lt', 'equ', 'neu', 'nan'):
        ins.append(('set.%s.%s.%s %%d16, %%a16, %%b16;' % (cmp, t, t), 16))
        ins.append(('set.%s.u32.%s %%d32, %%a16, %%b16;' % (cmp, t), 32))
        ins.append(('set.%s.s32.%s %%d32, %%a32, %%b32;' % (cmp, t2), 32))
        ins.append(('set.%s.u32.%s %%d32, %%a32, %%b32;' % (cmp, t2), 32))
    if t == 'f16':
        for cmp in ('lt', 'ge', 'eq', 'neu'):
            ins.append(('setp.%s.ftz.f16x2 %%p|%%q, %%a32, %%b32; selp.b16 %%d16, 1, 0, %%p; selp.b16 %%e16, 2, 0, %%q; '
                        'or.b16 %%d16, %%d16, %%e16;' % cmp, 16))
            ins.append(('set.%s.ftz.f16x2.f16x2 %%d32, %%a32, %%b32;' % cmp, 32))
            ins.append(('set.%s.ftz.f16.f16 %%d16, %%a16, %%b16;' % cmp, 16))
    ins += [('setp.lt.s16 %%r, %%c16, 0; setp.gt.and.%s %%p, %%a16, %%b16, %%r; selp.b16 %%d16, 1, 0, %%p;' % t, 16),
            ('setp.lt.s16 %%r, %%c16, 0; setp.leu.or.%s %%p, %%a16, %%b16, !%%r; selp.b16 %%d16, 1, 0, %%p;' % t, 16),
            ('setp.lt.s16 %%r, %%c16, 0; setp.neu.xor.%s %%p, %%a16, %%b16, %%r; selp.b16 %%d16, 1, 0, %%p;' % t, 16),
            ('setp.lt.s16 %%r, %%c16, 0; setp.ge.and.%s %%p|%%q, %%a32, %%b32, %%r; selp.b16 %%d16, 1, 0, %%p; '
             'selp.b16 %%e16, 2, 0, %%q; or.b16 %%d16, %%d16, %%e16;' % t2, 16),
            ('setp.lt.s16 %%r, %%c16, 0; set.gtu.or.%s.%s %%d32, %%a32, %%b32, %%r;' % (t2, t2), 32),
            ('setp.lt.s16 %%r, %%c16, 0; set.eq.xor.u32.%s %%d32, %%a16, %%b16, !%%r;' % t, 32)]
    a, b, c = half_pairs(F16V if t == 'f16' else BF16V, 256)
    return ops_case(ins, a, b, c)


def xorsign_half():
    """min/max .xorsign.abs (and .NaN, .ftz) on f16, f16x2, bf16, bf16x2."""
    ins = []
    for op in ('min', 'max'):
        for mods in ('.xorsign.abs', '.NaN.xorsign.abs'):
            for t in ('f16', 'bf16'):
                ins.append(('%s%s.%s %%d16, %%a16, %%b16;' % (op, mods, t), 16))
                ins.append(('%s%s.%sx2 %%d32, %%a32, %%b32;' % (op, mods, t), 32))
            ins.append(('%s.ftz%s.f16 %%d16, %%a16, %%b16;' % (op, mods), 16))
            ins.append(('%s.ftz%s.f16x2 %%d32, %%a32, %%b32;' % (op, mods), 32))
    a, b, c = half_pairs(F16V, 128)
    a2, b2, c2 = half_pairs(BF16V, 128)
    return ops_case(ins, a + a2, b + b2, c + c2)


def fma_oob():
    """fma.rn.oob (.relu) on halves: NaNs of every kind among a, b, c."""
    ins = []
    for t, w, r in (('f16', 16, '16'), ('f16x2', 32, '32'), ('bf16', 16, '16'), ('bf16x2', 32, '32')):
        for mods in ('', '.relu'):
            ins.append(('fma.rn.oob%s.%s %%d%d, %%a%s, %%b%s, %%c%s;' % (mods, t, w, r, r, r), w))
    NANS16 = [0x7fff, 0xffff, 0x7e00, 0xfe00, 0x7c01, 0x7fc0, 0xffc0, 0x7f81, 0x7e01, 0x7d00]
    vals = NANS16 + [0x3c00, 0xbc00, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x3f80, 0xbf80, 0x7f80, 0x4000, 0x0001]

    def word():
        return rnd(32) << 32 | R.choice(vals) << 16 | R.choice(vals)
    a = [word() for _ in range(192)]
    b = [word() for _ in range(192)]
    c = [word() for _ in range(192)]
    return ops_case(ins, a, b, c)


# ---- conversions: bf16 with f64, f16 and integer sources and destinations (sm_90), integer
# rounding of halves, 8- and 64-bit integers to f16, .rz packed, f32 to f32 with .ftz/.sat
INT64 = [0, 1, 0xffffffffffffffff, 0x7f, 0x80, 0xff, 0x100, 0xff80, 0x7fff, 0x8000, 0xffff, 0x10000,
         0x7fffffff, 0x80000000, 0xffffffff, 0x100000000, 0x7fffffffffffffff, 0x8000000000000000,
         0x181, 0x183, 0x180, 0x182, 0xffffffffffffff7f, 0xfffffffffffffe7f, 0x1008, 0x1018, 0xfff0,
         0xffe0, 0xffd0, 0x1001, 0x1003, 0x800, 0x801, 0x803, 0xfffffffffffff7fd, 0x01ff000000000000,
         0x0180800000000000, 0x0181000000000001, 0xfffffe, 0x1000001, 0xfff8000000000000, 0xfff7ffffffffffff]


def cvt_from_int():
    ins = []
    for rnd_ in ('rn', 'rz', 'rm', 'rp'):
        for s in ('s64', 'u64', 's32', 'u32'):
            src = '%a' if s.endswith('64') else '%a32'
            ins.append(('cvt.%s.bf16.%s %%d16, %s;' % (rnd_, s, src), 16))
        ins.append(('cvt.%s.f16.u64 %%d16, %%a;' % rnd_, 16))
    for s in ('s16', 'u16'):
        ins.append(('cvt.rn.bf16.%s %%d16, %%a16;' % s, 16))
        ins.append(('cvt.rz.bf16.%s %%d16, %%a16;' % s, 16))
    for s in ('s8', 'u8'):
        ins.append(('cvt.rn.f16.%s %%d16, %%a16;' % s, 16))
        ins.append(('cvt.rm.f16.%s %%d16, %%a16;' % s, 16))
    vals = INT64 + [(1 << k) + R.choice([-1, 1, 0]) for k in range(8, 64, 5)]
    a = [R.choice(vals) if i < 200 else rnd(64) for i in range(256)]
    a[:len(vals)] = vals
    a = [x & 0xffffffffffffffff for x in a]
    # 16- and 8-bit sources read the low bits: make them corners too, in the same words
    lows = [0, 1, 0xffff, 0x7f, 0x80, 0xff, 0xff80, 0x7fff, 0x8000, 0x181, 0x101, 0xfe7f, 0x7f7f, 0x8181]
    for i in range(64, 128):
        a[i] = (rnd(48) << 16) | lows[i % len(lows)]
    return ops_case(ins, a, [rnd(64) for _ in a], [rnd(64) for _ in a])


def cvt_from_half():
    ins = []
    # from bf16
    ins.append(('cvt.f64.bf16 %d64, %a16;', 64))
    for r in ('rn', 'rz', 'rm', 'rp'):
        ins.append(('cvt.%s.f16.bf16 %%d16, %%a16;' % r, 16))
        ins.append(('cvt.%s.bf16.f16 %%d16, %%a16;' % r, 16))
    for r in ('rni', 'rzi', 'rmi', 'rpi'):
        ins.append(('cvt.%s.bf16.bf16 %%d16, %%a16;' % r, 16))
        ins.append(('cvt.%s.f16.f16 %%d16, %%a16;' % r, 16))
        ins.append(('cvt.%s.s32.bf16 %%d32, %%a16;' % r, 32))
        ins.append(('cvt.%s.u64.bf16 %%d64, %%a16;' % r, 64))
    for d, w in (('s16', 16), ('u16', 16), ('u32', 32), ('s64', 64)):
        ins.append(('cvt.rni.%s.bf16 %%d%d, %%a16;' % (d, w), w))
    for d, w in (('s8', 16), ('u64', 64)):
        ins.append(('cvt.rni.%s.f16 %%d%d, %%a16;' % (d, w), w))
        ins.append(('cvt.rzi.%s.f16 %%d%d, %%a16;' % (d, w), w))
    ins.append(('cvt.rni.sat.u64.f16 %d64, %a16;', 64))
    ins.append(('cvt.rmi.s8.f16 %d16, %a16;', 16))
    vals = sorted(set(F16V + BF16V + [0x3800, 0x3e00, 0x4100, 0x3c01, 0x3f00, 0x3fc0, 0x4040, 0xbfc0, 0xc040,
                                       0x4b00, 0x4aff, 0x4f00, 0x5f00, 0x5f80, 0x6000, 0xdf00, 0xc300, 0xc301,
                                       0x4700, 0x437f, 0x4380, 0x477f, 0x4780, 0x4f80, 0x3fff, 0x3801, 0x5bff,
                                       0x5800, 0x57ff, 0x5c00, 0xd800, 0x7a00, 0x0200, 0x3400, 0x1001]))
    a = [R.choice(vals) if i >= len(vals) and R.random() < 0.7 else rnd(16) for i in range(256)]
    a[:len(vals)] = vals
    a = [rnd(48) << 16 | x for x in a]
    return ops_case(ins, a, [rnd(64) for _ in a], [rnd(64) for _ in a])


F64V = [0, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000, 0x7ff0000000000000,
        0xfff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001, 0xfff8000000012345, 0x7ff4000000000000,
        0x0000000000000001, 0x000fffffffffffff, 0x0010000000000000, 0x7fefffffffffffff, 0xffefffffffffffff,
        0x47efffffe0000000, 0x47efffffffffffff, 0x47f0000000000000, 0x47effff000000000, 0x47efffefffffffff,
        0x3ff0100000000000, 0x3ff0100000000001, 0x3ff0300000000000, 0x3ff00fffffffffff, 0x3ff0080000000000,
        0x3ff0180000000000, 0x3ff0100000000000 | 1 << 28, 0x380fe00000000000, 0x3800000000000000,
        0x37f0000000000000, 0x3780000000000000, 0x3790000000000000, 0x37a0100000000000, 0x3ff0000010000000,
        0xb7a0000000000000, 0x36a0000000000000, 0x380fc00000000000, 0x380fbfffffffffff]
F32V = [0, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc12345,
        0x7fa00000, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f7fffff, 0x3f800001,
        0x477fe000, 0x477ff000, 0x477fefff, 0x477ff001, 0x47800000, 0x33800000, 0x33800001, 0x33000000,
        0x387fc000, 0x387fe000, 0x38800000, 0x3f802000, 0x3f801000, 0x3f803000, 0x3f801001, 0x3f807fff,
        0x3f808000, 0x3f818000, 0x7f7f8000, 0x7f7fffff, 0x00400000, 0x3effffff, 0x3f000000, 0xbf000001]


def cvt_from_float():
    """%a: an f64 (bf16 from f64); %b32, %c32: f32 (packed .rz forms, f32 to f32, f32 to f16 .sat/.ftz)."""
    ins = []
    for r in ('rn', 'rz', 'rm', 'rp'):
        ins.append(('cvt.%s.bf16.f64 %%d16, %%a;' % r, 16))
    for mods in ('rz', 'rz.relu', 'rz.satfinite', 'rz.relu.satfinite'):
        ins.append(('cvt.%s.f16x2.f32 %%d32, %%b32, %%c32;' % mods, 32))
        ins.append(('cvt.%s.bf16x2.f32 %%d32, %%b32, %%c32;' % mods, 32))
    for mods in ('rz.relu', 'rz.satfinite', 'rz.relu.satfinite', 'rn.sat', 'rn.ftz', 'rn.ftz.sat', 'rz.ftz'):
        ins.append(('cvt.%s.f16.f32 %%d16, %%b32;' % mods, 16))
    for mods in ('rz.relu', 'rz.satfinite', 'rz.relu.satfinite'):
        ins.append(('cvt.%s.bf16.f32 %%d16, %%b32;' % mods, 16))
    for mods in ('ftz', 'sat', 'ftz.sat'):
        ins.append(('cvt.%s.f32.f32 %%d32, %%b32;' % mods, 32))
    ins.append(('cvt.sat.f64.f64 %d64, %a;', 64))
    a = [F64V[i] if i < len(F64V) else (R.choice(F64V) ^ rnd(R.choice([1, 8, 30, 52])) if R.random() < 0.6 else rnd(64))
         for i in range(256)]
    b = [R.choice(F32V) if R.random() < 0.7 else rnd(32) for _ in range(256)]
    b[:len(F32V)] = F32V
    c = [R.choice(F32V) if R.random() < 0.7 else rnd(32) for _ in range(256)]
    b = [rnd(32) << 32 | x for x in b]
    c = [rnd(32) << 32 | x for x in c]
    return ops_case(ins, a, b, c)


# ---- batch 2 (a second run the same day): every NaN as a fma.oob operand; mul/add without a
# rounding modifier (the PTX ISA lets the code generator fuse them into an fma)
def fma_oob_scan():
    """fma.rn.oob.f16x2 with a = every f16 NaN (both signs), b = c = 1, and with the NaN as c;
    fma.rn.oob{,.relu}.bf16x2 likewise with every bf16 NaN (from in_b) as a and as b. %c32 is
    1.0 in f16x2, the upper word of c 1.0 in bf16x2."""
    f16 = [s | e for s in (0, 0x8000) for e in range(0x7c01, 0x8000)]          # 2,046
    bf16 = [s | e for s in (0, 0x8000) for e in range(0x7f81, 0x8000)]         # 254
    n = 1024
    a = [f16[2 * i % len(f16)] | f16[(2 * i + 1) % len(f16)] << 16 for i in range(n)]
    b = [bf16[2 * i % len(bf16)] | bf16[(2 * i + 1) % len(bf16)] << 16 for i in range(n)]
    ins = [('fma.rn.oob.f16x2 %d32, %a32, %c32, %c32;', 32),
           ('fma.rn.oob.f16x2 %d32, %c32, %c32, %a32;', 32),
           ('mov.b64 {%e32, %f32}, %c; fma.rn.oob.bf16x2 %d32, %b32, %f32, %f32;', 32),
           ('mov.b64 {%e32, %f32}, %c; fma.rn.oob.relu.bf16x2 %d32, %f32, %b32, %f32;', 32)]
    return ops_case(ins, a, b, [0x3f803f803c003c00] * n)


def f32b(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def bf32(u):
    return struct.unpack('<f', struct.pack('<I', u & 0xffffffff))[0]


def fmad_contract():
    """mul then add/sub with no rounding modifier: fused (one rounding) or not. c is minus the
    rounded product (unfused: 0; fused: the product's rounding error), or a corner value."""
    ins = [('mul.f32 %e32, %a32, %b32; add.f32 %d32, %e32, %c32;', 32),
           ('mul.f32 %e32, %a32, %b32; add.f32 %d32, %c32, %e32;', 32),
           ('mul.f32 %e32, %a32, %b32; sub.f32 %d32, %e32, %c32;', 32),
           ('mul.f32 %e32, %a32, %b32; sub.f32 %d32, %c32, %e32;', 32),
           ('mul.ftz.f32 %e32, %a32, %b32; add.ftz.f32 %d32, %e32, %c32;', 32),
           ('mul.rn.f32 %e32, %a32, %b32; add.f32 %d32, %e32, %c32;', 32),
           ('mul.f32 %e32, %a32, %b32; add.rn.f32 %d32, %e32, %c32;', 32),
           ('mul.f32 %e32, %a32, %b32; add.sat.f32 %d32, %e32, %c32;', 32),
           ('mul.f32 %e32, %a32, %b32; add.f32 %f32, %e32, %c32; add.f32 %d32, %f32, %e32;', 32),
           ('mul.f32 %e32, %a32, %b32; neg.f32 %f32, %c32; mul.f32 %f32, %f32, %c32; add.f32 %d32, %e32, %f32;', 32),
           ('mul.f32 %e32, %a32, %b32; mov.b32 %d32, %e32;', 32),
           ('mul.f64 %e64, %a, %b; add.f64 %d64, %e64, %c;', 64),
           ('mul.f64 %e64, %a, %b; sub.f64 %d64, %c, %e64;', 64),
           ('mul.rn.f64 %e64, %a, %b; add.f64 %d64, %e64, %c;', 64),
           ('mul.f16 %e16, %a16, %b16; add.f16 %d16, %e16, %c16;', 16),
           ('mul.f16x2 %e32, %a32, %b32; add.f16x2 %d32, %e32, %c32;', 32),
           ('mul.ftz.f16 %e16, %a16, %b16; sub.ftz.f16 %d16, %e16, %c16;', 16)]
    n = 256
    a, b, c = [], [], []
    for i in range(n):
        if i < 224:
            x = bf32(0x3f800000 | rnd(23)) * R.choice([1, -1, 2.0 ** R.randint(-20, 20)])
            y = bf32(0x3f800000 | rnd(23)) * R.choice([1, -1, 2.0 ** R.randint(-20, 20)])
            p = bf32(f32b(x * y))                     # the rounded f32 product (x*y exact in double)
            z = -p if i % 4 else -p * R.choice([0.5, 1.0000001, 2.0])
            a32, b32, c32 = f32b(x), f32b(y), f32b(z)
        else:
            a32, b32, c32 = R.choice([(0x5f800000, 0x5f800000, 0xff7fffff), (0x7f800000, 0, 0x3f800000),
                                      (0x00800000, 0x3f000000, 0x80000001), (0x3f800001, 0x3f7ffffe, 0xbf800000),
                                      (0x7fc00000, 0x3f800000, 0x7f800000), (0x1f800000, 0x1f800000, 0x80000000),
                                      (0x3f800001, 0x3f800001, 0xbf800002), (0xdf800000, 0x5f800000, 0x7f7fffff)])
        xd = struct.unpack('<d', struct.pack('<Q', 0x3ff0000000000000 | rnd(52)))[0] * R.choice([1, -3, 0.25])
        yd = struct.unpack('<d', struct.pack('<Q', 0x3ff0000000000000 | rnd(52)))[0] * R.choice([1, -1, 7])
        zd = -(xd * yd)
        h = [struct.unpack('<H', struct.pack('<e', v))[0] for v in
             (R.choice([1, -1]) * (1 + rnd(10) / 1024.0), (1 + rnd(10) / 1024.0) * R.choice([1, 0.5, -4]))]
        hp = struct.unpack('<H', struct.pack('<e', -(struct.unpack('<e', struct.pack('<H', h[0]))[0] *
                                                    struct.unpack('<e', struct.pack('<H', h[1]))[0])))[0]
        # %a32 is the low word of %a and %a16 its low half: f64 operands take the odd lanes,
        # half operands lanes 2 mod 4, f32 operands lanes 0 mod 4
        if i % 2:
            a.append(struct.unpack('<Q', struct.pack('<d', xd))[0])
            b.append(struct.unpack('<Q', struct.pack('<d', yd))[0])
            c.append(struct.unpack('<Q', struct.pack('<d', zd))[0])
        elif i % 4 == 2:
            a.append(rnd(32) << 32 | h[0] << 16 | h[0])
            b.append(rnd(32) << 32 | h[1] << 16 | h[1])
            c.append(rnd(32) << 32 | hp << 16 | hp)
        else:
            a.append(rnd(32) << 32 | a32)
            b.append(rnd(32) << 32 | b32)
            c.append(rnd(32) << 32 | c32)
    return ops_case(ins, a, b, c)


# ---- batch 3 (a third run the same day): checks of the two rules batch 2 gave (README.md, "cases3"),
# on forms and values drawn at random, predicted before the run by models written apart from ptxrun
def fma_oob_check():
    """fma.rn.oob{,.relu} on every half type, operands drawn from the OOB-NaN 0x7ff7/0xfff7, other
    NaNs, infinities, zeros and ordinary values, in every operand place."""
    ins = []
    for t, w, r in (('f16', 16, '16'), ('f16x2', 32, '32'), ('bf16', 16, '16'), ('bf16x2', 32, '32')):
        for mods in ('', '.relu'):
            ins.append(('fma.rn.oob%s.%s %%d%d, %%a%s, %%b%s, %%c%s;' % (mods, t, w, r, r, r), w))
    pool = [0x7ff7, 0xfff7, 0x7ff7, 0xfff7, 0x7ff6, 0x7ff8, 0x7fff, 0x7e00, 0x7fc0, 0x7c00, 0xfc00, 0x7f80, 0x0000,
            0x8000, 0x3c00, 0xbc00, 0x3f80, 0xbf80, 0x4000, 0x0001]

    def word():
        return rnd(32) << 32 | (R.choice(pool) if R.random() < 0.8 else rnd(16)) << 16 | \
            (R.choice(pool) if R.random() < 0.8 else rnd(16))
    return ops_case(ins, [word() for _ in range(256)], [word() for _ in range(256)], [word() for _ in range(256)])


def fmad_check():
    """40 pairs mul{.ftz}{.rn} + add/sub{.ftz}{.rn}{.sat} on f32, f64, f16, f16x2 drawn at random (seeded),
    the product as either operand of the add; inputs where one rounding and two differ."""
    r = random.Random(20261124_33)
    ins = []
    while len(ins) < 40:
        t = r.choice(['f32', 'f32', 'f64', 'f16', 'f16x2'])
        w, reg = {'f32': (32, '32'), 'f64': (64, ''), 'f16': (16, '16'), 'f16x2': (32, '32')}[t]
        e = '%%e%d' % w
        mftz = r.choice(['', '.ftz']) if t in ('f32', 'f16', 'f16x2') else ''
        aftz = mftz if r.random() < 0.7 else ('' if mftz else r.choice(['', '.ftz']) if t != 'f64' else '')
        mrn = r.choice(['', '', '', '.rn'])
        arn = r.choice(['', '', '', '.rn'])
        sat = r.choice(['', '', '.sat']) if t != 'f64' else ''
        op = r.choice(['add', 'sub'])
        first = r.random() < 0.5
        srcs = (e, '%%c%s' % reg) if first else ('%%c%s' % reg, e)
        i = 'mul%s%s.%s %s, %%a%s, %%b%s; %s%s%s%s.%s %%d%d, %s, %s;' % (mrn, mftz, t, e, reg, reg, op, arn, aftz, sat,
                                                                        t, w, srcs[0], srcs[1])
        if (i, w) not in ins:
            ins.append((i, w))
    n = 256
    a, b, c = [], [], []
    for i in range(n):
        x = bf32(0x3f800000 | rnd(23)) * R.choice([1, -1, 0.5, 2.0 ** R.randint(-10, 10)])
        y = bf32(0x3f800000 | rnd(23)) * R.choice([1, -1, 0.25, 2.0 ** R.randint(-10, 10)])
        z = -bf32(f32b(x * y)) * R.choice([1, 1, 1, 0.5, -1])
        xd = struct.unpack('<d', struct.pack('<Q', 0x3ff0000000000000 | rnd(52)))[0] * R.choice([1, -1, 0.5])
        yd = struct.unpack('<d', struct.pack('<Q', 0x3ff0000000000000 | rnd(52)))[0]
        zd = -(xd * yd) * R.choice([1, 1, -1])
        hv = []
        for _ in range(2):
            hx_ = (1 + rnd(10) / 1024.0) * R.choice([1, -1, 0.5])
            hy = (1 + rnd(10) / 1024.0) * R.choice([1, 2, -0.5])
            hz = -struct.unpack('<e', struct.pack('<e', hx_ * hy))[0] * R.choice([1, 1, -1])
            hv.append([struct.unpack('<H', struct.pack('<e', v))[0] for v in (hx_, hy, hz)])
        # f64 operands in odd lanes, f32 ones in lanes 0 mod 4, two halves in the low word of lanes 2 mod 4
        if i % 2:
            a.append(struct.unpack('<Q', struct.pack('<d', xd))[0])
            b.append(struct.unpack('<Q', struct.pack('<d', yd))[0])
            c.append(struct.unpack('<Q', struct.pack('<d', zd))[0])
        elif i % 4 == 0:
            a.append(rnd(32) << 32 | f32b(x))
            b.append(rnd(32) << 32 | f32b(y))
            c.append(rnd(32) << 32 | f32b(z))
        else:
            a.append(rnd(32) << 32 | hv[1][0] << 16 | hv[0][0])
            b.append(rnd(32) << 32 | hv[1][1] << 16 | hv[0][1])
            c.append(rnd(32) << 32 | hv[1][2] << 16 | hv[0][2])
    return ops_case(ins, a, b, c)


def cases():
    return {'carry64': carry64(), 'halfcmp_f16': halfcmp('f16'), 'halfcmp_bf16': halfcmp('bf16'),
            'xorsign_half': xorsign_half(), 'fma_oob': fma_oob(), 'cvt_from_int': cvt_from_int(),
            'cvt_from_half': cvt_from_half(), 'cvt_from_float': cvt_from_float(),
            'fma_oob_scan': fma_oob_scan(), 'fmad_contract': fmad_contract(),
            'fma_oob_check': fma_oob_check(), 'fmad_check': fmad_check()}


# cases whose H100 values ptxrun does not reproduce (tests/h100_more/README.md, "cases3"): they go
# to disagree/, which `make check` does not run; the others to cases3/
DISAGREE = set()


def main():
    write_all(sys.argv, cases(), 'cases3', DISAGREE, 'h100_more_gen3.py')


if __name__ == '__main__':
    main()
