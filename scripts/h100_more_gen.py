#!/usr/bin/env python3
"""Write the programs of tests/h100_more (NAME.ptx + NAME.lanes.json); their expect files are
what an H100 gave (scripts/h100_run.py --write-expect), never this script's.

    scripts/h100_more_gen.py tests/h100_more      # writes cases/ and disagree/

Buffers whose names begin with `in` are inputs; the others are what the GPU writes (and what
the expect files hold). Areas: atomics (atom/red, .global and .shared, one address per lane, and
32 lanes on one address with only order-independent outputs), bar.red, fp8 and tf32 conversions;
probe 2 (two-NaN float atomics, more tf32 NaNs, u32 video .sat, printf's return value: the printf
programs are a .cu each, which nvcc -ptx -arch=sm_90 turns into the .ptx; without nvcc the .ptx
already there stays).

    scripts/h100_more_gen.py tests/h100_more NAME...   # only the cases named
"""
import os
import random
import struct
import sys

from cmdline import command_line
from h100_cases import write_case

HEAD = '.version 8.0\n.target sm_90\n.address_size 64\n\n'


def f32(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f64(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def hx(v, n):
    return '0x%0*x' % (2 * n, v)


def cyc(vals, n=32):
    return [vals[i % len(vals)] for i in range(n)]


R = random.Random(20261124)

# (init, b[, c]) per lane, as bits of the type
U32 = [(0, 0), (1, 0xffffffff), (0x7fffffff, 1), (0xffffffff, 0xffffffff), (0x80000000, 0x80000000),
       (5, 3), (3, 5), (0xfffffffe, 7)] + [(R.getrandbits(32), R.getrandbits(32)) for _ in range(24)]
U64 = [(0, 0), (1, 0xffffffffffffffff), (0x7fffffffffffffff, 1), (0xffffffffffffffff, 0xffffffffffffffff),
       (0x8000000000000000, 0x8000000000000000), (0xffffffff, 1), (5, 3), (3, 5)] + \
      [(R.getrandbits(64), R.getrandbits(64)) for _ in range(24)]
NAN32, SNAN32 = 0x7fc00000, 0x7f800001
F32 = [(NAN32, f32(1)), (f32(1), NAN32), (SNAN32, f32(1)), (0x7fc12345, f32(2)), (0xffc00001, f32(1)),
       (0x7f800000, 0xff800000), (0x7f800000, f32(1)), (0x7f7fffff, 0x7f7fffff), (0x00000001, 0),
       (0, 0x00000001), (0x00400000, 0x00400000), (0x00800000, 0x80000001), (0x00800001, 0x80800000),
       (f32(1), f32(2.0 ** -24)), (f32(1), f32(3 * 2.0 ** -24)), (f32(1), f32(2.0 ** -24 + 2.0 ** -47)),
       (0x80000000, 0x80000000), (0x80000000, 0), (f32(1), f32(-1)), (f32(-1.5), f32(0.25)),
       (0x00fffffe, 0x80ffffff), (0x807fffff, 0x807fffff), (f32(3e38), f32(3e38)), (f32(-3e38), f32(-3e38)),
       (f32(1e-30), f32(1e-30)), (f32(2.0 ** -126), f32(-2.0 ** -127)), (0x3f800001, 0x33800000),
       (f32(16777216.0), f32(1.0)), (f32(16777216.0), f32(3.0)), (0x7fffffff, 0xffffffff),
       (0x00000003, 0x80000001), (f32(0.1), f32(0.2))]
NAN64 = 0x7ff8000000000000
F64 = [(NAN64, f64(1)), (f64(1), NAN64), (0x7ff0000000000001, f64(1)), (0x7ff8000000012345, f64(2)),
       (0x7ff0000000000000, 0xfff0000000000000), (0x7fefffffffffffff, 0x7fefffffffffffff), (1, 0), (1, 1),
       (0x0008000000000000, 0x0008000000000000), (0x0010000000000000, 0x8000000000000001),
       (f64(1), f64(2.0 ** -53)), (f64(1), f64(3 * 2.0 ** -53)), (0x8000000000000000, 0x8000000000000000),
       (0x8000000000000000, 0), (f64(0.1), f64(0.2)), (f64(-1.5), f64(0.25))]
F16 = [(0x7e00, 0x3c00), (0x3c00, 0x7e00), (0x7c01, 0x3c00), (0x7e55, 0x4000), (0xfe00, 0x3c00),
       (0x7c00, 0xfc00), (0x7bff, 0x7bff), (0x7bff, 0x4c00), (0x7bff, 0x4b00), (0x0001, 0x0001), (0x0001, 0),
       (0x0200, 0x0200), (0x0400, 0x8001), (0x3c00, 0x1000), (0x3c00, 0x1200), (0x3c00, 0x1001),
       (0x8000, 0x8000), (0x8000, 0x0000), (0x3c00, 0xbc00), (0xbe00, 0x3400), (0x03ff, 0x03ff),
       (0x83ff, 0x0001), (0x2e66, 0x3266), (0x5640, 0x5640)]
BF16 = [(0x7fc0, 0x3f80), (0x3f80, 0x7fc0), (0x7f81, 0x3f80), (0x7fd5, 0x4000), (0xffc0, 0x3f80),
        (0x7f80, 0xff80), (0x7f7f, 0x7f7f), (0x0001, 0x0001), (0x0001, 0), (0x0040, 0x0040), (0x0080, 0x8001),
        (0x3f80, 0x3b80), (0x3f80, 0x3bc0), (0x3f80, 0x3b81), (0x8000, 0x8000), (0x8000, 0x0000),
        (0x3f80, 0xbf80), (0xbfc0, 0x3e80), (0x007f, 0x007f), (0x3dcd, 0x3e4d)]
INC = [(0, 0), (5, 0), (0, 5), (5, 5), (4, 5), (6, 5), (0xffffffff, 0xffffffff), (0xfffffffe, 0xffffffff),
       (100, 3), (3, 100), (1, 0), (0xffffffff, 0), (0, 0xffffffff), (0x80000000, 0x7fffffff),
       (0x7fffffff, 0x80000000), (7, 7), (8, 7), (1, 1), (2, 1), (0, 1)]
CAS32 = [(5, 5, 9), (5, 6, 9), (0, 0, 0xffffffff), (0xffffffff, 0xffffffff, 0), (0x80000000, 0, 1),
         (1, 1, 1), (0x12345678, 0x12345678, 0x87654321), (0x12345678, 0x12345679, 0x87654321)]
CAS16 = [(5, 5, 9), (5, 6, 9), (0, 0, 0xffff), (0xffff, 0xffff, 0), (0x8000, 0, 1), (1, 1, 1),
         (0x1234, 0x1234, 0x8765), (0x1234, 0x1235, 0x8765)]
CAS128 = [(5, 5, 9), (5, 6, 9), (0, 0, (1 << 128) - 1), (1 << 64, 1 << 64, 7), (1 << 64, 1, 7),
          ((1 << 128) - 1, (1 << 64) - 1, 3), (0x0123456789abcdef_fedcba9876543210, 0x0123456789abcdef_fedcba9876543210, 42),
          (0x0123456789abcdef_fedcba9876543210, 0x0123456789abcdef_fedcba9876543211, 42)]
U128 = [(R.getrandbits(128), R.getrandbits(128)) for _ in range(32)]
CAS64 = [(5, 5, 9), (5, 6, 9), (0, 0, 0xffffffffffffffff), (0xffffffff00000000, 0xffffffff00000000, 1),
         (0xffffffff00000000, 0x00000000ffffffff, 2), (0x8000000000000000, 0, 1), (1, 1, 1),
         (0x123456789abcdef0, 0x123456789abcdef0, 0x0fedcba987654321)]


def pairs16(vals):
    out = []
    for i in range(len(vals)):
        a, b = vals[i], vals[(i * 7 + 3) % len(vals)]
        out.append(((a[0] << 16) | b[0], (a[1] << 16) | b[1]))
    return out


# name, instruction text (after atom/red and the space), size, values
ATOMS = [
    ('add_u32', 'add.u32', 4, U32), ('add_s32', 'add.s32', 4, U32), ('add_u64', 'add.u64', 8, U64),
    ('add_f32', 'add.f32', 4, F32), ('add_f64', 'add.f64', 8, F64),
    ('add_noftz_f16', 'add.noftz.f16', 2, F16), ('add_noftz_bf16', 'add.noftz.bf16', 2, BF16),
    ('add_noftz_f16x2', 'add.noftz.f16x2', 4, pairs16(F16)), ('add_noftz_bf16x2', 'add.noftz.bf16x2', 4, pairs16(BF16)),
    ('inc_u32', 'inc.u32', 4, INC), ('dec_u32', 'dec.u32', 4, INC),
    ('cas_b32', 'cas.b32', 4, CAS32), ('cas_b64', 'cas.b64', 8, CAS64),
    ('exch_b32', 'exch.b32', 4, U32), ('exch_b64', 'exch.b64', 8, U64),
    ('min_u32', 'min.u32', 4, U32), ('max_u32', 'max.u32', 4, U32), ('min_s32', 'min.s32', 4, U32),
    ('max_s32', 'max.s32', 4, U32), ('min_u64', 'min.u64', 8, U64), ('max_u64', 'max.u64', 8, U64),
    ('min_s64', 'min.s64', 8, U64), ('max_s64', 'max.s64', 8, U64),
    ('cas_b16', 'cas.b16', 2, CAS16), ('cas_b128', 'cas.b128', 16, CAS128), ('exch_b128', 'exch.b128', 16, U128),
    ('and_b32', 'and.b32', 4, U32), ('or_b32', 'or.b32', 4, U32), ('xor_b32', 'xor.b32', 4, U32),
    ('and_b64', 'and.b64', 8, U64), ('or_b64', 'or.b64', 8, U64), ('xor_b64', 'xor.b64', 8, U64),
]
REDS = ['add_u32', 'add_u64', 'add_f32', 'add_f64', 'add_noftz_f16x2', 'add_noftz_bf16', 'inc_u32', 'dec_u32',
        'max_s32', 'min_u64', 'xor_b64']


def atom_case(name, op, size, vals, space, red, same_addr=False, fixed=True):
    w = 8 * size
    btype = 'b%d' % w
    wide = size == 16   # .b128: buffers of .b64 pairs, low half first
    cas = op.startswith('cas')
    n = 32
    lines = [HEAD.replace('8.0', '8.3') if wide else HEAD]
    if space == 'shared':
        lines.append('.shared .align 8 .b8 sm[%d];\n\n' % (n * size))
    params = ['.param .u64 mem', '.param .u64 in_b']
    if cas:
        params.append('.param .u64 in_c')
    if not red and not same_addr:
        params.append('.param .u64 old')
    if same_addr:
        params.append('.param .u64 sum')
    lines.append('.visible .entry k(%s)\n{\n' % ', '.join(params))
    lines.append('    .reg .b32 %t, %s<8>;\n    .reg .b64 %a, %ab, %ac, %ao, %off, %aoff, %sa;\n')
    lines.append('    .reg .%s %%vb, %%vc, %%vo, %%vi;\n    .reg .pred %%p;\n' % btype)
    lines.append('    mov.u32 %t, %tid.x;\n')
    for reg, p in [('%a', 'mem'), ('%ab', 'in_b')] + ([('%ac', 'in_c')] if cas else []) + \
                  ([('%ao', 'old')] if not red and not same_addr else []):
        lines.append('    ld.param.u64 %s, [%s];\n    cvta.to.global.u64 %s, %s;\n' % (reg, p, reg, reg))
    lines.append('    mul.wide.u32 %%off, %%t, %d;\n' % size)
    lines.append('    mov.u64 %%aoff, %s;\n' % ('0' if same_addr else '%off'))
    lines.append('    add.u64 %%ab, %%ab, %%off;\n    ld.global.%s %%vb, [%%ab];\n' % btype)
    if cas:
        lines.append('    add.u64 %%ac, %%ac, %%off;\n    ld.global.%s %%vc, [%%ac];\n' % btype)
    lines.append('    add.u64 %a, %a, %aoff;\n')
    ops = ', %vb' + (', %vc' if cas else '')
    if space == 'global':
        target = '[%a]'
    else:
        lines.append('    mov.u64 %%sa, sm;\n    add.u64 %%sa, %%sa, %%aoff;\n    ld.global.%s %%vi, [%%a];\n'
                     '    st.shared.%s [%%sa], %%vi;\n    bar.sync 0;\n' % (btype, btype))
        target = '[%sa]'
    if red:
        lines.append('    red.%s.%s %s%s;\n' % (space, op, target, ops))
    else:
        lines.append('    atom.%s.%s %%vo, %s%s;\n' % (space, op, target, ops))
    if space == 'shared':
        lines.append('    bar.sync 0;\n    ld.shared.%s %%vi, [%%sa];\n    st.global.%s [%%a], %%vi;\n' % (btype, btype))
    if not red and not same_addr:
        lines.append('    add.u64 %%ao, %%ao, %%off;\n    st.global.%s [%%ao], %%vo;\n' % btype)
    if same_addr and space == 'global':
        lines.append('    bar.sync 0;\n    ld.volatile.global.%s %%vi, [%%a];\n' % btype)
    if same_addr:
        # order-independent summaries of the 32 returned values (their low 32 bits)
        if size == 8:
            lines.append('    cvt.u32.u64 %s0, %vo;\n')
        elif size == 2:
            lines.append('    cvt.u32.u16 %s0, %vo;\n')
        else:
            lines.append('    mov.b32 %s0, %vo;\n')
        if not fixed:
            # the set of returned values depends on the order: exch keeps the xor of them and the final
            # value; cas the number of lanes that found their compare value; the others nothing
            lines.append('    mov.b32 %s1, 0;\n    mov.b32 %s2, 0;\n    mov.b32 %s3, 0;\n    mov.b32 %s4, 0;\n')
            if op.startswith('exch'):
                lines.append('    redux.sync.xor.b32 %s4, %s0, 0xffffffff;\n    xor.b32 %s4, %s4, %vi;\n')
        else:
            lines.append('    redux.sync.add.u32 %s1, %s0, 0xffffffff;\n    redux.sync.min.u32 %s2, %s0, 0xffffffff;\n'
                         '    redux.sync.max.u32 %s3, %s0, 0xffffffff;\n    redux.sync.xor.b32 %s4, %s0, 0xffffffff;\n')
        if cas:
            lines.append('    setp.eq.%s %%p, %%vo, %%vb;\n    vote.sync.ballot.b32 %%s5, %%p, 0xffffffff;\n'
                         '    popc.b32 %%s5, %%s5;\n' % btype)
        lines.append('    setp.eq.u32 %p, %t, 0;\n    ld.param.u64 %ao, [sum];\n    cvta.to.global.u64 %ao, %ao;\n')
        lines.append('@%p st.global.v4.u32 [%ao], {%s1, %s2, %s3, %s4};\n')
        if cas:
            lines.append('@%p st.global.u32 [%ao+16], %s5;\n')
    lines.append('    ret;\n}\n')
    init = [v[0] for v in vals]
    b = [v[1] for v in vals]
    lanes = {'block': [32, 1, 1], 'buffers': {}, 'params': []}
    def buf(vs):
        if wide:
            return {'type': 'b64', 'data': [hx(x >> (64 * h) & (2 ** 64 - 1), 8) for x in vs for h in (0, 1)]}
        return {'type': btype, 'data': [hx(x, size) for x in vs]}
    lanes['buffers']['mem'] = buf(init[:1] if same_addr else cyc(init))
    lanes['buffers']['in_b'] = buf(cyc(b))
    lanes['params'] = ['@mem', '@in_b']
    if cas:
        lanes['buffers']['in_c'] = buf([v[2] for v in cyc(vals)])
        lanes['params'].append('@in_c')
    if not red and not same_addr:
        lanes['buffers']['old'] = {'type': 'b64' if wide else btype, 'count': 64 if wide else 32}
        lanes['params'].append('@old')
    if same_addr:
        lanes['buffers']['sum'] = {'type': 'b32', 'count': 5 if cas else 4}
        lanes['params'].append('@sum')
    return ''.join(lines), lanes


def contention():
    """32 lanes on one address: (name, op, size, init, per-lane operands, returned values' set fixed?)."""
    lane = list(range(32))
    one = [f32(1.0)] * 32
    return [
        ('add_u32', 'add.u32', 4, [(5, 1)] * 32, True),
        ('add_u32_wrap', 'add.u32', 4, [(3, 0xffffffff)] * 32, True),
        ('add_u64', 'add.u64', 8, [(0xfffffffffffffff0, 1)] * 32, True),
        ('add_f32_ones', 'add.f32', 4, [(0, x) for x in one], True),
        ('add_f32_halfulp', 'add.f32', 4, [(f32(1.0), f32(2.0 ** -24))] * 32, True),
        ('add_f32_subnormal', 'add.f32', 4, [(0, 1)] * 32, True),
        ('add_f64_subnormal', 'add.f64', 8, [(0, 1)] * 32, True),
        ('add_noftz_f16x2', 'add.noftz.f16x2', 4, [(0, 0x3c000001)] * 32, True),
        ('add_noftz_bf16', 'add.noftz.bf16', 2, [(0x3f80, 0x3b80)] * 32, True),
        ('inc_u32', 'inc.u32', 4, [(0, 9)] * 32, True),
        ('dec_u32', 'dec.u32', 4, [(3, 9)] * 32, True),
        ('min_s32', 'min.s32', 4, [(7, (x * 0x9e3779b9) & 0xffffffff) for x in lane], False),
        ('max_u32', 'max.u32', 4, [(7, (x * 0x9e3779b9) & 0xffffffff) for x in lane], False),
        ('or_b32', 'or.b32', 4, [(0x100, 1 << x) for x in lane], False),
        ('xor_b32', 'xor.b32', 4, [(0xff, (x * 0x01010101) & 0xffffffff) for x in lane], False),
        ('and_b64', 'and.b64', 8, [(0xffffffffffffffff, ~(1 << (2 * x)) & 0xffffffffffffffff) for x in lane], False),
        ('exch_b32', 'exch.b32', 4, [(0xabc, 0x1000 + x) for x in lane], False),
        ('cas_b32', 'cas.b32', 4, [(0, 0, x + 1) for x in lane], False),
    ]


def barred_case(pattern, name, n=128):
    src = HEAD + """.visible .entry k(.param .u64 in_p, .param .u64 out)
{
    .reg .b32 %t, %v, %c0, %c1, %a, %o, %x;
    .reg .b64 %pi, %po, %off;
    .reg .pred %p, %q, %r;
    mov.u32 %t, %tid.x;
    ld.param.u64 %pi, [in_p];
    cvta.to.global.u64 %pi, %pi;
    ld.param.u64 %po, [out];
    cvta.to.global.u64 %po, %po;
    mul.wide.u32 %off, %t, 4;
    add.u64 %pi, %pi, %off;
    ld.global.u32 %v, [%pi];
    setp.ne.u32 %p, %v, 0;
    bar.red.popc.u32 %c0, 0, %p;
    bar.red.popc.u32 %c1, 1, NTHREADS, !%p;
    bar.red.and.pred %q, 2, %p;
    bar.red.or.pred %r, 3, !%p;
    selp.u32 %a, 1, 0, %q;
    selp.u32 %o, 1, 0, %r;
    mul.wide.u32 %off, %t, 16;
    add.u64 %po, %po, %off;
    st.global.v4.u32 [%po], {%c0, %c1, %a, %o};
    ret;
}
"""
    src = src.replace('NTHREADS', str((n + 31) // 32 * 32))
    lanes = {'block': [n, 1, 1], 'buffers': {'in_p': {'type': 'u32', 'data': pattern},
                                               'out': {'type': 'u32', 'count': 4 * n}},
             'params': ['@in_p', '@out']}
    return src, lanes


def fp8_values():
    v = [0, 0x80000000, 0x7f800000, 0xff800000, NAN32, 0xffc00000, SNAN32, 0x7fc12345, 0x7f7fffff, 0xff7fffff,
         f32(448), f32(464), f32(464.0001), f32(463.999), f32(480), f32(500), f32(1e6), f32(-448), f32(-500),
         f32(57344), f32(61440), f32(61439), f32(61441), f32(65536), f32(-61440), f32(-1e9),
         f32(2.0 ** -9), f32(2.0 ** -10), f32(1.5 * 2.0 ** -10), f32(3 * 2.0 ** -10), f32(2.0 ** -11),
         f32(2.0 ** -6), f32(7 * 2.0 ** -9), f32(15 * 2.0 ** -10), f32(2.0 ** -16), f32(2.0 ** -17),
         f32(3 * 2.0 ** -17), f32(2.0 ** -14), f32(2.0 ** -15), 1, 0x807fffff, 0x00800000,
         f32(1 + 2.0 ** -4), f32(1 + 3 * 2.0 ** -4), f32(1 + 2.0 ** -4 + 2.0 ** -20), f32(1 + 2.0 ** -3),
         f32(1 + 2.0 ** -3), f32(1 + 3 * 2.0 ** -3), f32(-1 - 2.0 ** -4), f32(1), f32(-1), f32(0.1), f32(-0.3)]
    while len(v) < 256:
        e = R.randint(-20, 17)
        v.append((R.getrandbits(1) << 31) | ((e + 127) << 23) | R.getrandbits(23))
    return v[:256]


def tf32_values():
    v = [0, 0x80000000, 0x7f800000, 0xff800000, NAN32, SNAN32, 0x7f800fff, 0x7f801000, 0xff801fff, 0x7fc01234,
         0x7f7fffff, 0xff7fffff, 0x7f7fefff, 0x7f7ff000, 0x00000001, 0x00001000, 0x00000fff, 0x00001fff,
         0x80001000, 0x007ff000, 0x007fffff, 0x3f801000, 0x3f803000, 0x3f800fff, 0x3f801001, 0x3f802000,
         0xbf801000, 0xbf803000, 0x3fffffff, 0x3ffff000, 0x4b7fffff]
    while len(v) < 256:
        e = R.randint(-30, 30)
        v.append((R.getrandbits(1) << 31) | ((e + 127) << 23) | R.getrandbits(23))
    return v[:256]


def cvt_case(instr, dtype, stypes, ins):
    """One cvt over 256 threads: ins is a list of input lists (one per source)."""
    n = len(ins[0])
    regs = ''.join('    .reg .%s %%s%d;\n' % (t, i) for i, t in enumerate(stypes))
    params = ', '.join(['.param .u64 in%d' % i for i in range(len(ins))] + ['.param .u64 out'])
    body = ''
    for i, t in enumerate(stypes):
        sz = int(t[1:]) // 8
        body += ('    ld.param.u64 %%pp, [in%d];\n    cvta.to.global.u64 %%pp, %%pp;\n    mul.wide.u32 %%off, %%t, %d;\n'
                 '    add.u64 %%pp, %%pp, %%off;\n    ld.global.%s %%s%d, [%%pp];\n' % (i, sz, t, i))
    dsz = int(dtype[1:]) // 8
    srcs = ', '.join('%%s%d' % i for i in range(len(stypes)))
    head = HEAD.replace('8.0', '8.6') if 'satfinite.tf32' in instr else HEAD
    src = head + ('.visible .entry k(%s)\n{\n    .reg .b32 %%t;\n    .reg .b64 %%pp, %%off;\n%s    .reg .%s %%d;\n'
                  '    mov.u32 %%t, %%tid.x;\n%s    %s %%d, %s;\n'
                  '    ld.param.u64 %%pp, [out];\n    cvta.to.global.u64 %%pp, %%pp;\n    mul.wide.u32 %%off, %%t, %d;\n'
                  '    add.u64 %%pp, %%pp, %%off;\n    st.global.%s [%%pp], %%d;\n    ret;\n}\n'
                  % (params, regs, dtype, body, instr, srcs, dsz, dtype))
    lanes = {'block': [n, 1, 1], 'buffers': {}, 'params': []}
    for i, (t, vals) in enumerate(zip(stypes, ins)):
        sz = int(t[1:]) // 8
        lanes['buffers']['in%d' % i] = {'type': t, 'data': [hx(x, sz) for x in vals]}
        lanes['params'].append('@in%d' % i)
    lanes['buffers']['out'] = {'type': dtype, 'count': n}
    lanes['params'].append('@out')
    return src, lanes


VIDEO = ['vabsdiff.s32.s32.s32 %d.h1, %a.b3, %b.b0, %c;', 'vabsdiff.s32.s32.s32 %d.h0, %a.b3, %b.b0, %c;',
         'vabsdiff.u32.u32.u32 %d.b1, %a.b2, %b.b1, %c;', 'vabsdiff.u32.u32.u32 %d.b3, %a, %b, %c;',
         'vadd.u32.u32.u32 %d.h1, %a, %b, %c;', 'vadd.s32.s32.s32.sat %d.b2, %a, %b, %c;',
         'vsub.s32.u32.u32.min %d, %a, %b, %c;', 'vsub.s32.u32.u32.max %d, %a, %b, %c;',
         'vsub.s32.u32.u32.add %d, %a, %b, %c;', 'vsub.s32.u32.u32.sat.min %d, %a, %b, %c;',
         'vadd.u32.u32.u32.min %d, %a, %b, %c;', 'vadd.s32.s32.s32.max %d, %a, %b, %c;',
         'vsub.u32.s32.s32.min %d, %a, %b, %c;', 'vmin.s32.u32.s32.add %d, %a, %b, %c;',
         'vmax.u32.s32.u32.sat %d.b2, %a.b0, %b.b1, %c;', 'vshl.u32.u32.u32.wrap.min %d, %a, %b, %c;',
         'vadd.s32.u32.s32 %d, %a, %b;', 'vsub.s32.s32.s32.sat %d.h1, %a, %b, %c;']


def video_case(instrs=None, a=None, b=None, c=None):
    instrs = instrs or VIDEO
    body = ''
    for k, ins in enumerate(instrs):
        body += '    %s\n    st.global.b32 [%%po+%d], %%d;\n' % (ins, 128 * k)
    src = HEAD + '''.visible .entry k(.param .u64 in_a, .param .u64 in_b, .param .u64 in_c, .param .u64 out)
{
    .reg .b32 %t, %a, %b, %c, %d;
    .reg .b64 %pa, %pb, %pc, %po, %off;
    mov.u32 %t, %tid.x;
    mul.wide.u32 %off, %t, 4;
    ld.param.u64 %pa, [in_a];
    cvta.to.global.u64 %pa, %pa;
    add.u64 %pa, %pa, %off;
    ld.global.b32 %a, [%pa];
    ld.param.u64 %pb, [in_b];
    cvta.to.global.u64 %pb, %pb;
    add.u64 %pb, %pb, %off;
    ld.global.b32 %b, [%pb];
    ld.param.u64 %pc, [in_c];
    cvta.to.global.u64 %pc, %pc;
    add.u64 %pc, %pc, %off;
    ld.global.b32 %c, [%pc];
    ld.param.u64 %po, [out];
    cvta.to.global.u64 %po, %po;
    add.u64 %po, %po, %off;
''' + body + '    ret;\n}\n'
    if a is None:
        vals = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0xb3ba2ac0, 0x0b000a00, 0xff016981]
        a = vals + [R.getrandbits(32) for _ in range(24)]
        b = vals[::-1] + [R.getrandbits(32) for _ in range(24)]
        c = [0x12345678, 0xffff0000, 0x0000ffff, 0x80008000] * 2 + [R.getrandbits(32) for _ in range(24)]
    lanes = {'block': [32, 1, 1], 'buffers': {'in_a': {'type': 'b32', 'data': [hx(x, 4) for x in a]},
                                              'in_b': {'type': 'b32', 'data': [hx(x, 4) for x in b]},
                                              'in_c': {'type': 'b32', 'data': [hx(x, 4) for x in c]},
                                              'out': {'type': 'b32', 'count': 32 * len(instrs)}},
             'params': ['@in_a', '@in_b', '@in_c', '@out']}
    return src, lanes


# video_sat_merge (recorded later than the rest, 2026-11-24): .sat with every destination
# selector for s32 and u32 destinations and sums near each limit, merges without .sat, and
# .min/.max after every primary operation whose value can leave 32 bits or the destination's range
VIDEO2 = ['vadd.s32.s32.s32.sat %d.b0, %a, %b, %c;', 'vadd.s32.s32.s32.sat %d.b1, %a, %b, %c;',
          'vadd.s32.s32.s32.sat %d.b2, %a, %b, %c;', 'vadd.s32.s32.s32.sat %d.b3, %a, %b, %c;',
          'vadd.s32.s32.s32.sat %d.h0, %a, %b, %c;', 'vadd.s32.s32.s32.sat %d.h1, %a, %b, %c;',
          'vadd.u32.s32.s32.sat %d.b0, %a, %b, %c;', 'vadd.u32.s32.s32.sat %d.b3, %a, %b, %c;',
          'vadd.u32.s32.s32.sat %d.h0, %a, %b, %c;', 'vadd.u32.s32.s32.sat %d.h1, %a, %b, %c;',
          'vadd.u32.u32.u32.sat %d.b1, %a, %b, %c;', 'vadd.s32.s32.s32.sat %d, %a, %b, %c;',
          'vadd.s32.s32.s32 %d.b0, %a, %b, %c;', 'vadd.s32.s32.s32 %d.b2, %a, %b, %c;',
          'vsub.s32.s32.s32 %d.h1, %a, %b, %c;', 'vabsdiff.u32.u32.u32 %d.h1, %a.h0, %b.h1, %c;',
          'vmax.s32.u32.u32.min %d, %a, %b, %c;', 'vmin.u32.s32.s32.max %d, %a, %b, %c;',
          'vabsdiff.s32.s32.s32.min %d, %a, %b, %c;', 'vabsdiff.u32.s32.s32.max %d, %a, %b, %c;',
          'vshr.s32.u32.u32.wrap.min %d, %a, %b, %c;', 'vshl.s32.s32.u32.clamp.max %d, %a, %b, %c;',
          'vshl.u32.u32.u32.clamp.min %d, %a, %b, %c;', 'vsub.u32.u32.u32.max %d, %a, %b, %c;',
          'vadd.s32.u32.u32.max %d, %a, %b, %c;', 'vsub.s32.s32.s32.sat.max %d, %a, %b, %c;',
          'vadd.u32.u32.u32.sat.min %d, %a, %b, %c;', 'vset.s32.s32.gt.max %d, %a, %b, %c;',
          'vsub.s32.u32.u32.sat %d.b1, %a, %b, %c;', 'vadd.s32.s32.s32.sat %d.b0, %a.h0, %b.b0, %c;',
          'vsub.u32.s32.s32.sat %d.b1, %a.b0, %b.b1, %c;', 'vadd.s32.s32.s32.sat %d.h1, %a.h1, %b.b2, %c;']


def video2_case():
    r = random.Random(20261125)
    a = [0, 1, 0xffffffff, 0xfffffffe, 0x7e, 0x7f, 0x80, 0xff, 0x100, 0xffffff81, 0xffffff80, 0xffffff7f,
         0x7fff, 0x8000, 0xffff, 0x10000, 0xffff8001, 0xffff8000, 0xffff7fff, 0x7fffffff, 0x80000000,
         0xc0000000, 0x40000000, 0x12345678] + [r.getrandbits(32) for _ in range(8)]
    b = [0] * 16 + [0, 1, 0x7fffffff, 31, 32, 33, 0x80000000, 0xffffffff] + [r.getrandbits(32) for _ in range(8)]
    c = [0x12345678, 0xffff0000, 0x0000ffff, 0x80008000, 0, 0xffffffff, 0x7fffffff, 0x80000000] + \
        [r.getrandbits(32) for _ in range(24)]
    return video_case(VIDEO2, a, b, c)


def cases():
    out = {'video_merge_secondary': video_case()}
    byname = {a[0]: a for a in ATOMS}
    for space in ('global', 'shared'):
        for name, op, size, vals in ATOMS:
            out['atom_%s_%s' % (space, name)] = atom_case(name, op, size, vals, space, False)
        for name in REDS:
            _, op, size, vals = byname[name]
            out['red_%s_%s' % (space, name)] = atom_case(name, op, size, vals, space, True)
        for name, op, size, vals, fixed in contention():
            out['same_%s_%s' % (space, name)] = atom_case(name, op, size, vals, space, False, True, fixed)
    pats = {'all': [1] * 128, 'none': [0] * 128, 'one': [int(i == 77) for i in range(128)],
            'all_but_one': [int(i != 5) for i in range(128)], 'mod3': [int(i % 3 == 0) for i in range(128)],
            'warp2': [int(32 <= i < 64) for i in range(128)], 'values': [(i * 0x9e3779b9) & 0xffffffff for i in range(128)]}
    for p, v in pats.items():
        out['barred_' + p] = barred_case(v, p)
    # a block of 48 threads: the last warp is partial; the count operand of the second bar.red is 64
    # (a multiple of the warp size, counting the partial warp whole)
    out['barred_partial48'] = barred_case([int(i % 5 == 1) for i in range(48)], 'partial48', 48)
    fv = fp8_values()
    fv2 = fv[1:] + fv[:1]
    for fmt in ('e4m3x2', 'e5m2x2'):
        out['cvt_satfinite_%s_f32' % fmt] = cvt_case('cvt.rn.satfinite.%s.f32' % fmt, 'b16', ['b32', 'b32'], [fv, fv2])
        out['cvt_satfinite_relu_%s_f32' % fmt] = cvt_case('cvt.rn.satfinite.relu.%s.f32' % fmt, 'b16', ['b32', 'b32'], [fv, fv2])
        h = [R.getrandbits(32) for _ in range(224)] + [0x7c00fc00, 0x7e00fe00, 0x7bff7bff, 0x5f005b80, 0x5b805b00,
                                                     0x00010400, 0x7c017e01, 0x4b004a00, 0x7a007b00, 0x0001_8001,
                                                     0x13ff0c00, 0x14000bff, 0x3c003c80, 0x3c403c60, 0x3c203c10,
                                                     0x77007800, 0x78007800, 0x7b007b80, 0x79807a00, 0x80008000,
                                                     0x00000000, 0x04000400, 0x10000800, 0x18001400, 0x7c007c00,
                                                     0x3e003d00, 0xbe00bd00, 0x5c005c00, 0x5b005b00, 0x5a805a80,
                                                     0x5bff5c01, 0x07ff0001]
        out['cvt_satfinite_%s_f16x2' % fmt] = cvt_case('cvt.rn.satfinite.%s.f16x2' % fmt, 'b16', ['b32'], [h])
        out['cvt_f16x2_%s' % fmt] = cvt_case('cvt.rn.f16x2.%s' % fmt, 'b32', ['b16'],
                                             [[(i << 8) | (i ^ 0x5a) for i in range(256)]])
        out['cvt_relu_f16x2_%s' % fmt] = cvt_case('cvt.rn.relu.f16x2.%s' % fmt, 'b32', ['b16'],
                                                  [[(i << 8) | (i ^ 0x5a) for i in range(256)]])
    tv = tf32_values()
    # cvt.{rn,rz}[.relu].satfinite.tf32.f32 need sm_100 (ptxas 13.0)
    for form in ('rna', 'rna.satfinite', 'rn', 'rz', 'rn.relu', 'rz.relu'):
        out['cvt_%s_tf32_f32' % form.replace('.', '_')] = cvt_case('cvt.%s.tf32.f32' % form, 'b32', ['b32'], [tv])
    out['video_sat_merge'] = video2_case()
    return out


# ---- PROBE2 (recorded 2026-11-24, one more run): printf's return value, two-NaN float atomics,
# cvt.rna[.satfinite].tf32.f32 on more NaN/inf/overflow patterns, full-width u32 video .sat

# printf calls (format, C arguments) of printf_ret.cu; each call's return value goes to ret[k]
PRINTF = [('%d\n', 'i')] + [(' '.join(['%d'] * n) + '\n', ', '.join(['i'] * n)) for n in range(2, 9)] + [
    ('%hhd\n', '(signed char)i'), ('%hhd %d\n', '(signed char)i, i'), ('%d %hhd\n', 'i, (signed char)i'),
    ('%hhx\n', '(unsigned char)i'), ('%hhu\n', '(unsigned char)i'), ('%hhX\n', '(unsigned char)i'),
    ('%hhi\n', '(signed char)i'), ('%hho\n', '(unsigned char)i'), ('%hd\n', '(short)i'), ('%hu\n', '(unsigned short)i'),
    ('%hhd %hhd\n', '(signed char)i, (signed char)i'), ('%hhd %hhd %hhd\n', '(signed char)i, (signed char)i, (signed char)i'),
    ('%d %hhd %d\n', 'i, (signed char)i, i'), ('%hhd%d\n', '(signed char)i, i'), ('%5hhd|\n', '(signed char)i'),
    ('%hhd %hd\n', '(signed char)i, (short)i'), ('%hd %hhd\n', '(short)i, (signed char)i'),
    ('%hhd %s\n', '(signed char)i, "s"'), ('%hhd %f\n', '(signed char)i, d'), ('%hhd %lld\n', '(signed char)i, l'),
    ('[%d] %hd %hhd %hu %hhu %hx %hhX|%-+6hd|\n', 'i, (short)i, (signed char)i, (unsigned short)i, (unsigned char)i, '
     '(short)i, (unsigned char)i, (short)i'),
    ('%ld\n', '(long)l'), ('%lld\n', 'l'), ('%lu %lx\n', '(unsigned long)l, (unsigned long)l'), ('%f\n', 'd'),
    ('%e %g %a\n', 'd, d, d'), ('%s\n', '"str"'), ('%c\n', "'c'"), ('%p\n', '(void *)ret'), ('100%%\n', ''),
    ('%% %d %%\n', 'i'), ('%*d|\n', '7, i'), ('%-*d|%*s|\n', '6, i, 4, "ab"'), ('no conversions\n', ''),
    ('%d %ld %f %s %c\n', 'i, (long)l, d, "x", \'y\''), ('%hhd %d %hhd %d\n', '(signed char)i, i, (signed char)i, i'),
]
# formats ptxrun refuses (a fault: precision '*', an unknown conversion): their own program each
PRINTF_REFUSED = {'printf_ret_precision_star': [('%.*f|\n', '3, d'), ('%*.*f|\n', '9, 2, d')],
                  'printf_ret_unknown': [('%y %d\n', 'i'), ('%d %k\n', 'i')]}


def printf_cu(calls):
    body = ''.join('    ret[%d] = printf("%s"%s);\n' % (k, f.replace('\n', '\\n'), ', ' + a if a else '')
                   for k, (f, a) in enumerate(calls))
    return ('// written by scripts/h100_more_gen.py: the value printf returns for each format (H100: ret[k])\n'
            '#include <cstdio>\n\nextern "C" __global__ void k(const int *in_v, int *ret)\n{\n'
            '    int i = in_v[threadIdx.x];\n    long long l = (long long)i * 1000000007LL;\n    double d = i * 0.5;\n'
            + body + '}\n')


def printf_case(folder, name, calls):
    """name.cu beside the .ptx, which nvcc -ptx -arch=sm_90 makes (kept as it is without nvcc)."""
    import subprocess
    cu = os.path.join(folder, name + '.cu')
    with open(cu, 'w') as f:
        f.write(printf_cu(calls))
    nvcc = '/usr/local/cuda/bin/nvcc'
    ptx = None
    if os.path.exists(nvcc):
        subprocess.run([nvcc, '-ptx', '-arch=sm_90', '-o', '/tmp/%s.ptx' % name, cu], check=True)
        ptx = open('/tmp/%s.ptx' % name).read()
    lanes = {'block': [1, 1, 1], 'buffers': {'in_v': {'type': 's32', 'data': [-3]},
                                             'ret': {'type': 's32', 'count': len(calls)}},
             'params': ['@in_v', '@ret']}
    return ptx, lanes


F64_NAN2 = [(0x7ff8000000000000, 0x7ff8000000000001), (0x7ff8000000000001, 0x7ff8000000000000),
            (0xfff8000000000000, 0x7ff8000000000000), (0x7ff8000000000000, 0xfff8000000000000),
            (0x7ff0000000000001, 0x7ff8000000000002), (0x7ff8000000000002, 0x7ff0000000000001),
            (0x7ff0000000000001, 0x7ff0000000000002), (0xfff0000000000005, 0x7ff0000000000003),
            (0x7ff8000000012345, 0xfff8000000054321), (0xfff8000000054321, 0x7ff8000000012345),
            (0x7ff8000000000007, 0x7ff0000000000000), (0x7ff0000000000000, 0x7ff8000000000007),
            (0xfff0000000000000, 0xfff4000000000009), (0x7fffffffffffffff, 0xffffffffffffffff),
            (0xffffffffffffffff, 0x7fffffffffffffff), (0x7ff4000000000000, 0x7ff8000000000000),
            (f64(1), 0x7ff0000000000001), (f64(1), 0xfff4000000000007), (f64(-2), 0x7ff8000000000abc),
            (0x7ff4000000000abc, f64(-2)), (0xfff0000000000001, 0), (0, 0xfff0000000000001),
            (0x7ff0000000000001, 0xfff0000000000001), (0xfff8000000000000, 0xfff0000000000002)]
F32_NAN2 = [(0x7fc00000, 0x7fc00001), (0x7fc00001, 0x7fc00000), (0xffc00000, 0x7fc00000), (0x7fc00000, 0xffc00000),
            (0x7f800001, 0x7fc00002), (0x7fc00002, 0x7f800001), (0x7f800001, 0x7f800002), (0xff800005, 0x7f800003),
            (0x7fc12345, 0xffc54321), (0xffc54321, 0x7fc12345), (0x7fc00007, 0x7f800000), (0x7f800000, 0x7fc00007),
            (0xff800000, 0xffa00009), (0x7fffffff, 0xffffffff), (0xffffffff, 0x7fffffff), (0x7fa00000, 0x7fc00000),
            (f32(1), 0x7f800001), (f32(1), 0xffa00007), (f32(-2), 0x7fc00abc), (0x7fa00abc, f32(-2)),
            (0xff800001, 0), (0, 0xff800001), (0x7f800001, 0xff800001), (0xffc00000, 0xff800002)]
F16_NAN2 = [(0x7e00, 0x7e01), (0x7e01, 0x7e00), (0xfe00, 0x7e00), (0x7e00, 0xfe00), (0x7c01, 0x7e02), (0x7e02, 0x7c01),
            (0x7c01, 0x7c02), (0xfc05, 0x7c03), (0x7e55, 0xfe2a), (0xfe2a, 0x7e55), (0x7e07, 0x7c00), (0x7c00, 0x7e07),
            (0xfc00, 0xfd09), (0x7fff, 0xffff), (0xffff, 0x7fff), (0x7d00, 0x7e00), (0x3c00, 0x7c01), (0x3c00, 0xfd07),
            (0xc000, 0x7e3c), (0x7d3c, 0xc000), (0xfc01, 0), (0, 0xfc01), (0x7c01, 0xfc01), (0xfe00, 0xfc02)]
BF16_NAN2 = [(0x7fc0, 0x7fc1), (0x7fc1, 0x7fc0), (0xffc0, 0x7fc0), (0x7fc0, 0xffc0), (0x7f81, 0x7fc2), (0x7fc2, 0x7f81),
             (0x7f81, 0x7f82), (0xff85, 0x7f83), (0x7fd5, 0xffaa), (0xffaa, 0x7fd5), (0x7fc7, 0x7f80), (0x7f80, 0x7fc7),
             (0xff80, 0xffa9), (0x7fff, 0xffff), (0xffff, 0x7fff), (0x7fa0, 0x7fc0), (0x3f80, 0x7f81), (0x3f80, 0xffa7),
             (0xc000, 0x7fbc), (0x7fbc, 0xc000), (0xff81, 0), (0, 0xff81), (0x7f81, 0xff81), (0xffc0, 0xff82)]
NAN2 = [('add_f64_nan2', 'add.f64', 8, F64_NAN2), ('add_f32_nan2', 'add.f32', 4, F32_NAN2),
        ('add_noftz_f16_nan2', 'add.noftz.f16', 2, F16_NAN2), ('add_noftz_bf16_nan2', 'add.noftz.bf16', 2, BF16_NAN2)]

TF32_MORE = [0x7f802000, 0x7fa00000, 0x7fffffff, 0xffffffff, 0x7f800000, 0xff800000, 0x7f7ff000, 0x7f7fefff,
             0x7f802001, 0x7f804000, 0x7fbfe000, 0x7fbfffff, 0xff802000, 0xffa00001, 0x7fc02000, 0xffc00000,
             0x7fe00000, 0x7f7fffff, 0xff7ff000, 0xff7fefff, 0x7f7fe000, 0x7f7fe001, 0x7f7fd000, 0x7f801fff,
             0x7f803fff, 0xff9fe000, 0x7fdfffff, 0xfff00000, 0x7f800002, 0xffbfe001, 0x7f7f8000, 0x00000000]

# full-width u32 .sat without .min (plain, .sat.max, .sat.add), vadd/vsub near 0 and 2^32
VIDEO3 = ['vadd.u32.u32.u32.sat %d, %a, %b;', 'vsub.u32.u32.u32.sat %d, %a, %b;', 'vadd.u32.s32.s32.sat %d, %a, %b;',
          'vsub.u32.s32.s32.sat %d, %a, %b;', 'vadd.u32.u32.s32.sat %d, %a, %b;', 'vsub.u32.s32.u32.sat %d, %a, %b;',
          'vadd.u32.u32.u32.sat.max %d, %a, %b, %c;', 'vsub.u32.u32.u32.sat.max %d, %a, %b, %c;',
          'vadd.u32.s32.s32.sat.max %d, %a, %b, %c;', 'vsub.u32.s32.s32.sat.max %d, %a, %b, %c;',
          'vadd.u32.u32.u32.sat.add %d, %a, %b, %c;', 'vsub.u32.u32.u32.sat.add %d, %a, %b, %c;',
          'vadd.u32.s32.s32.sat.add %d, %a, %b, %c;', 'vsub.u32.s32.s32.sat.add %d, %a, %b, %c;',
          'vadd.u32.u32.u32.sat.min %d, %a, %b, %c;', 'vsub.u32.u32.u32.sat.min %d, %a, %b, %c;',
          'vabsdiff.u32.s32.s32.sat %d, %a, %b;', 'vmax.u32.s32.s32.sat %d, %a, %b;']


def video3_case():
    r = random.Random(20261126)
    a = [0, 1, 0xffffffff, 0xfffffffe, 0x80000000, 0x7fffffff, 0xffffff00, 5, 0, 3, 0x80000001, 0xc0000000,
         0x40000000, 0xfffffff0, 2, 0x10] + [r.getrandbits(32) for _ in range(16)]
    b = [1, 2, 1, 0xffffffff, 0x80000000, 0x80000001, 0x100, 6, 0xffffffff, 0x7fffffff, 0xffffffff, 0xc0000000,
         0xc0000000, 0x20, 3, 0xfffffff0] + [r.getrandbits(32) for _ in range(16)]
    c = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 5, 0xfffffff0, 0x10] * 2 + [r.getrandbits(32) for _ in range(16)]
    return video_case(VIDEO3, a, b, c)


def probe2_cases():
    out = {}
    for space in ('global', 'shared'):
        for name, op, size, vals in NAN2:
            out['atom_%s_%s' % (space, name)] = atom_case(name, op, size, vals, space, False)
        for name, op, size, vals in NAN2[:2]:
            out['red_%s_%s' % (space, name)] = atom_case(name, op, size, vals, space, True)
    for form in ('rna', 'rna.satfinite', 'rn', 'rz'):
        out['cvt_%s_tf32_f32_more' % form.replace('.', '_')] = cvt_case('cvt.%s.tf32.f32' % form, 'b32', ['b32'],
                                                                        [TF32_MORE])
    out['video_usat'] = video3_case()
    return out


# cases whose H100 values ptxrun did not reproduce on 2026-11-24 (tests/h100_more/README.md); the
# others go to cases/, which `make check` runs
DISAGREE = {'printf_ret', 'printf_ret_precision_star', 'printf_ret_unknown'}


def main():
    argv = command_line(sys.argv, __doc__, least=1)
    root = argv[1]
    only = set(argv[2:])
    all_cases = dict(cases())
    all_cases.update(probe2_cases())
    printfs = dict(PRINTF_REFUSED, printf_ret=PRINTF)
    for name in printfs:
        all_cases[name] = None
    for name, case in sorted(all_cases.items()):
        if only and name not in only:
            continue
        sub = 'disagree' if name in DISAGREE else 'cases'
        folder = os.path.join(root, sub)
        os.makedirs(folder, exist_ok=True)
        src, lanes = case or printf_case(folder, name, printfs[name])
        if src is None:       # no nvcc here: the committed .ptx stays
            src = open(os.path.join(folder, name + '.ptx')).read().split('\n', 1)[1]
        write_case(root, sub, name, src, lanes, 'h100_more_gen.py')


if __name__ == '__main__':
    main()
