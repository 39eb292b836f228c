#!/usr/bin/env python3
"""Write the programs of tests/h100_more/cases2 (NAME.ptx + NAME.lanes.json): the forms no H100
case covered before 2026-11-24 (szext, bmsk, cvt.pack.sat, the SIMD video instructions
vadd2 ... vset4 and vmad, 16-bit integer arithmetic and sad, integer set/slct, .relu on .s16x2,
ld/st that extend or truncate, vector ld/st, lop3 with a predicate, vector float atomics) and
warp instructions where several groups of lanes meet at one instruction. The vmad programs go
to disagree/ (DISAGREE below). Their expect files are what an H100 gave
(scripts/h100_run.py --write-expect), never this script's.

    scripts/h100_more_gen2.py tests/h100_more            # writes cases2/ (and disagree/ for DISAGREE)
    scripts/h100_more_gen2.py tests/h100_more NAME...    # only the cases named

Each program (ops_case) runs one block: thread t loads a[t], b[t], c[t] from in_a, in_b, in_c
(of the case's source width), runs every instruction of the list on them, and stores instruction
k's result at out[k * n + t] (of the destination width). Buffers named `in*` are inputs; `out*`
are what the GPU writes (the expect files hold them). The input values are crosses of corner
values (0, 1, -1, MIN, MAX, the width's edges, positions and lengths 0, 1, 7, 8, 15, 16, 31, 32,
33, 255, 256, values with the high bits set) with random ones (seeded: the same files every run).
"""
import random
import sys

from h100_cases import write_all

HEAD = '.version 8.0\n.target sm_90\n.address_size 64\n\n'
R = random.Random(20261124_2)


def hx(v, n):
    return '0x%0*x' % (2 * n, v & ((1 << (8 * n)) - 1))


def cross(xs, ys, n):
    """n pairs: the cross of xs and ys first (as far as it goes), then random pairs from both."""
    out = [(x, y) for x in xs for y in ys][:n]
    while len(out) < n:
        out.append((R.choice(xs), R.choice(ys)))
    return out


def ops_case(instrs, a, b, c, sw, dw, regs='', head=HEAD):
    """instrs run by len(a) threads; sw/dw: source/destination width in bits; `%a %b %c` are the
    sources (.bSW), `%d` the destination (.bDW), `%a32 %b32 %c32` the sources widened to 32 bits
    (zero-extended), `%p %q` predicates; regs declares more."""
    n = len(a)
    ss, ds = sw // 8, dw // 8
    body = ''
    for k, ins in enumerate(instrs):
        body += '    %s\n    st.global.b%d [%%po+%d], %%d;\n' % (ins, dw, k * n * ds)
    widen = ''
    if sw < 32:
        widen = ''.join('    cvt.u32.u%d %%%s32, %%%s;\n' % (sw, r, r) for r in 'abc')
    elif sw == 32:
        widen = ''.join('    mov.b32 %%%s32, %%%s;\n' % (r, r) for r in 'abc')
    else:
        widen = ''.join('    cvt.u32.u64 %%%s32, %%%s;\n' % (r, r) for r in 'abc')
    loads = ''
    for r in 'abc':
        loads += ('    ld.param.u64 %%p%s, [in_%s];\n    cvta.to.global.u64 %%p%s, %%p%s;\n'
                  '    add.u64 %%p%s, %%p%s, %%offs;\n    ld.global.b%d %%%s, [%%p%s];\n'
                  % (r, r, r, r, r, r, sw, r, r))
    src = head + ('.visible .entry k(.param .u64 in_a, .param .u64 in_b, .param .u64 in_c, .param .u64 out)\n{\n'
                  '    .reg .b32 %%t, %%a32, %%b32, %%c32;\n    .reg .b%d %%a, %%b, %%c;\n    .reg .b%d %%d;\n'
                  '    .reg .b64 %%pa, %%pb, %%pc, %%po, %%offs, %%offd;\n    .reg .pred %%p, %%q;\n%s'
                  '    mov.u32 %%t, %%tid.x;\n    mul.wide.u32 %%offs, %%t, %d;\n    mul.wide.u32 %%offd, %%t, %d;\n%s%s'
                  '    ld.param.u64 %%po, [out];\n    cvta.to.global.u64 %%po, %%po;\n    add.u64 %%po, %%po, %%offd;\n'
                  % (sw, dw, regs, ss, ds, loads, widen)) + body + '    ret;\n}\n'
    lanes = {'block': [n, 1, 1],
             'buffers': {'in_a': {'type': 'b%d' % sw, 'data': [hx(x, ss) for x in a]},
                         'in_b': {'type': 'b%d' % sw, 'data': [hx(x, ss) for x in b]},
                         'in_c': {'type': 'b%d' % sw, 'data': [hx(x, ss) for x in c]},
                         'out': {'type': 'b%d' % dw, 'count': n * len(instrs)}},
             'params': ['@in_a', '@in_b', '@in_c', '@out']}
    return src, lanes


def rnd(bits, k):
    return [R.getrandbits(bits) for _ in range(k)]


# ---- szext, bmsk: a value against positions/lengths at and past the width
POS = [0, 1, 2, 7, 8, 15, 16, 17, 30, 31, 32, 33, 63, 64, 255, 256, 0xffffffff, 0x80000000, 0x7fffffff,
       0x100000020, 0x21, 0x1f1f]
VAL32 = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x55555555, 0xaaaaaaaa, 0x12345678, 0x8000, 0x7fff, 0xff,
         0x80, 0xfffffffe, 0xdeadbeef]


def szext_bmsk():
    pairs = cross(VAL32, [p & 0xffffffff for p in POS], 256)
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    # bmsk reads a as the position and b as the length: give it positions in a too
    c = [R.choice(POS) & 0xffffffff for _ in range(256)]
    ins = ['szext.clamp.u32 %d, %a, %b;', 'szext.wrap.u32 %d, %a, %b;', 'szext.clamp.s32 %d, %a, %b;',
           'szext.wrap.s32 %d, %a, %b;', 'bmsk.clamp.b32 %d, %c, %b;', 'bmsk.wrap.b32 %d, %c, %b;',
           'bmsk.clamp.b32 %d, %b, %c;', 'bmsk.wrap.b32 %d, %b, %c;',
           'szext.clamp.s32 %d, %a, 8;', 'szext.wrap.u32 %d, %a, 40;', 'bmsk.clamp.b32 %d, 30, %b;',
           'bmsk.wrap.b32 %d, %b, 33;']
    return ops_case(ins, a, b, c, 32, 32)


# ---- cvt.pack.sat: s32 values at and around every destination width's limits
PACKV = [0, 1, 2, 3, 4, 7, 8, 15, 16, 127, 128, 255, 256, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff,
         0x80000000, 0xffffffff, 0xfffffffe, 0xfffffffd, 0xfffffffc, 0xfffffff9, 0xfffffff8, 0xfffffff0,
         0xffffff80, 0xffffff7f, 0xffff8000, 0xffff7fff, 0xffffff00, 0x12345678]


def cvt_pack():
    pairs = cross(PACKV, PACKV, 256)
    R.shuffle(pairs)
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    c = [0, 0xffffffff, 0x12345678, 0x87654321, 0xffff0000, 0x0000ffff] + rnd(32, 250)
    ins = ['cvt.pack.sat.u16.s32 %d, %a, %b;', 'cvt.pack.sat.s16.s32 %d, %a, %b;',
           'cvt.pack.sat.u8.s32.b32 %d, %a, %b, %c;', 'cvt.pack.sat.s8.s32.b32 %d, %a, %b, %c;',
           'cvt.pack.sat.u4.s32.b32 %d, %a, %b, %c;', 'cvt.pack.sat.s4.s32.b32 %d, %a, %b, %c;',
           'cvt.pack.sat.u2.s32.b32 %d, %a, %b, %c;', 'cvt.pack.sat.s2.s32.b32 %d, %a, %b, %c;']
    return ops_case(ins, a, b, c, 32, 32)


# ---- SIMD video: halves and bytes at and around their limits
H16 = [0, 1, 2, 0x7fff, 0x8000, 0xffff, 0xfffe, 0x8001, 0x7ffe, 0x00ff, 0x0100, 0x4000, 0xc000]
B8 = [0, 1, 0x7f, 0x80, 0xff, 0xfe, 0x81, 0x7e, 0x40, 0xc0]


def simd_vals(n, two):
    out = []
    for _ in range(n):
        if R.random() < 0.2:
            out.append(R.getrandbits(32))
        elif two:
            out.append(R.choice(H16) << 16 | R.choice(H16))
        else:
            out.append(R.choice(B8) << 24 | R.choice(B8) << 16 | R.choice(B8) << 8 | R.choice(B8))
    return out


TYPES3 = ['u32.u32.u32', 's32.s32.s32', 'u32.s32.s32', 's32.u32.u32', 's32.s32.u32', 'u32.u32.s32']


def simd2():
    ins = []
    for op in ('vadd2', 'vsub2', 'vavrg2', 'vabsdiff2', 'vmin2', 'vmax2'):
        for t in TYPES3[:4]:
            ins.append('%s.%s %%d, %%a, %%b, %%c;' % (op, t))
            ins.append('%s.%s.sat %%d, %%a, %%b, %%c;' % (op, t))
            ins.append('%s.%s.add %%d, %%a, %%b, %%c;' % (op, t))
        ins.append('%s.s32.u32.s32 %%d.h1, %%a.h01, %%b.h23, %%c;' % op)
        ins.append('%s.u32.s32.u32.sat %%d.h0, %%a.h32, %%b.h10, %%c;' % op)
        ins.append('%s.s32.s32.s32.add %%d.h1, %%a.h00, %%b.h33, %%c;' % op)
    for cmp in ('eq', 'ne', 'lt', 'le', 'gt', 'ge'):
        for t in ('u32.u32', 's32.s32', 'u32.s32', 's32.u32'):
            ins.append('vset2.%s.%s %%d, %%a, %%b, %%c;' % (t, cmp))
        ins.append('vset2.s32.s32.%s.add %%d, %%a, %%b, %%c;' % cmp)
        ins.append('vset2.u32.s32.%s %%d.h0, %%a.h12, %%b.h03, %%c;' % cmp)
    a = [0, 0xffffffff, 0x7fff8000, 0x80007fff, 0xffff0001, 0x00010000] + simd_vals(58, True)
    b = [0, 1, 0x80008000, 0x7fff7fff, 0x0001ffff, 0xffff0000] + simd_vals(58, True)
    c = [0, 0xffffffff, 0x7fffffff, 0x80000000, 0x12345678, 0xffff0000] + simd_vals(58, True)
    return ops_case(ins, a, b, c, 32, 32)


def simd4():
    ins = []
    for op in ('vadd4', 'vsub4', 'vavrg4', 'vabsdiff4', 'vmin4', 'vmax4'):
        for t in TYPES3[:4]:
            ins.append('%s.%s %%d, %%a, %%b, %%c;' % (op, t))
            ins.append('%s.%s.sat %%d, %%a, %%b, %%c;' % (op, t))
            ins.append('%s.%s.add %%d, %%a, %%b, %%c;' % (op, t))
        ins.append('%s.s32.u32.s32 %%d.b31, %%a.b0123, %%b.b4567, %%c;' % op)
        ins.append('%s.u32.s32.u32.sat %%d.b20, %%a.b7654, %%b.b3210, %%c;' % op)
        ins.append('%s.s32.s32.s32.add %%d.b310, %%a.b0000, %%b.b7373, %%c;' % op)
    for cmp in ('eq', 'ne', 'lt', 'le', 'gt', 'ge'):
        for t in ('u32.u32', 's32.s32', 'u32.s32', 's32.u32'):
            ins.append('vset4.%s.%s %%d, %%a, %%b, %%c;' % (t, cmp))
        ins.append('vset4.s32.s32.%s.add %%d, %%a, %%b, %%c;' % cmp)
        ins.append('vset4.u32.s32.%s %%d.b21, %%a.b1357, %%b.b6420, %%c;' % cmp)
    a = [0, 0xffffffff, 0x7f807f80, 0x807f807f, 0xff01ff01] + simd_vals(59, False)
    b = [0, 1, 0x80808080, 0x7f7f7f7f, 0x01ff01ff] + simd_vals(59, False)
    c = [0, 0xffffffff, 0x7fffffff, 0x80000000, 0x12345678] + simd_vals(59, False)
    return ops_case(ins, a, b, c, 32, 32)


def vmad():
    ins = []
    for t in ('u32.u32.u32', 's32.s32.s32', 's32.u32.s32', 'u32.s32.u32', 's32.s32.u32', 'u32.u32.s32'):
        ins.append('vmad.%s %%d, %%a, %%b, %%c;' % t)
        ins.append('vmad.%s.sat %%d, %%a, %%b, %%c;' % t)
    ins += ['vmad.s32.s32.s32 %d, %a.h0, %b.h1, %c;', 'vmad.u32.u32.u32 %d, %a.b0, %b.b3, %c;',
            'vmad.s32.s32.s32 %d, %a.b2, %b.h0, %c;', 'vmad.s32.s32.s32 %d, -%a, %b, %c;',
            'vmad.s32.s32.s32 %d, %a, -%b, %c;', 'vmad.s32.s32.s32 %d, %a, %b, -%c;',
            'vmad.s32.s32.s32.sat %d, -%a, %b, %c;', 'vmad.u32.u32.u32.po %d, %a, %b, %c;',
            'vmad.s32.s32.s32.po %d, %a.h1, %b.h1, %c;', 'vmad.s32.s32.s32.shr7 %d, %a, %b, %c;',
            'vmad.s32.s32.s32.shr15 %d, %a, %b, %c;', 'vmad.u32.u32.u32.shr15 %d, %a, %b, %c;',
            'vmad.s32.s32.s32.sat.shr15 %d, %a, %b, %c;', 'vmad.s32.u32.u32.sat.shr7 %d, %a.h0, %b.h0, -%c;',
            'vmad.u32.s32.s32.sat %d, %a.b1, %b.b1, %c;', 'vmad.s32.s32.s32.sat %d, %a.h1, -%b.h1, %c;']
    v = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0xffff, 0x8000, 0x7fff, 0xffff8000, 0x10000, 0xff, 0x80,
         0xffffff80, 0x12345678]
    pairs = cross(v, v, 128)
    R.shuffle(pairs)
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    c = [R.choice(v + rnd(32, 6)) for _ in range(128)]
    return ops_case(ins, a, b, c, 32, 32)


# ---- 16-bit integer arithmetic, logic and compares
V16 = [0, 1, 2, 3, 0x7fff, 0x8000, 0xffff, 0xfffe, 0x8001, 0x00ff, 0x0100, 15, 16, 17, 0x1234, 0xfedc]


def int16_vals():
    pairs = cross(V16, V16, 256)
    R.shuffle(pairs)
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    c = [R.choice(V16 + rnd(16, 8)) for _ in range(256)]
    return a, b, c


def int16():
    ins = ['add.u16 %d, %a, %b;', 'add.s16 %d, %a, %b;', 'sub.u16 %d, %a, %b;', 'sub.s16 %d, %a, %b;',
           'mul.lo.u16 %d, %a, %b;', 'mul.lo.s16 %d, %a, %b;', 'mul.hi.u16 %d, %a, %b;', 'mul.hi.s16 %d, %a, %b;',
           'mad.lo.u16 %d, %a, %b, %c;', 'mad.lo.s16 %d, %a, %b, %c;', 'mad.hi.u16 %d, %a, %b, %c;',
           'mad.hi.s16 %d, %a, %b, %c;', 'min.u16 %d, %a, %b;', 'min.s16 %d, %a, %b;', 'max.u16 %d, %a, %b;',
           'max.s16 %d, %a, %b;', 'abs.s16 %d, %a;', 'neg.s16 %d, %a;', 'shl.b16 %d, %a, %b32;',
           'shr.u16 %d, %a, %b32;', 'shr.s16 %d, %a, %b32;', 'shr.b16 %d, %a, %b32;', 'and.b16 %d, %a, %b;',
           'or.b16 %d, %a, %b;', 'xor.b16 %d, %a, %b;', 'not.b16 %d, %a;', 'cnot.b16 %d, %a;',
           'shl.b16 %d, %a, 15;', 'shr.s16 %d, %a, 16;', 'shr.u16 %d, %a, 17;',
           'setp.lt.s16 %p, %a, %b; selp.b16 %d, 1, 0, %p;', 'setp.lt.u16 %p, %a, %b; selp.b16 %d, 1, 0, %p;',
           'setp.hi.u16 %p, %a, %b; selp.b16 %d, %a, %c, %p;', 'setp.ge.s16 %p, %a, %b; selp.s16 %d, 7, -3, %p;',
           'setp.eq.b16 %p, %a, %b; selp.u16 %d, 1, 0, %p;', 'setp.ne.s16.and %p|%q, %a, %c, %p; selp.b16 %d, 1, 0, %q;',
           'setp.le.u16 %p, %a, %b; selp.b16 %d, 1, 0, %p;', 'setp.gt.s16 %p, %a, %b; selp.b16 %d, 1, 0, %p;',
           'slct.b16.s32 %d, %a, %b, %c32;', 'slct.u16.s32 %d, %a, %b, %a32;',
           'add.s16 %d, %a, -1;', 'mul.lo.s16 %d, %a, -2;', 'min.s16 %d, %a, -32768;', 'max.u16 %d, %a, 0xfff0;']
    a, b, c = int16_vals()
    return ops_case(ins, a, b, c, 16, 16)


def int16_wide():
    ins = ['mul.wide.u16 %d, %a, %b;', 'mul.wide.s16 %d, %a, %b;', 'mad.wide.u16 %d, %a, %b, %c32;',
           'mad.wide.s16 %d, %a, %b, %c32;', 'mul.wide.s16 %d, %a, -32768;', 'mul.wide.u16 %d, %a, 0xffff;',
           'set.lt.u32.s16 %d, %a, %b;', 'set.lt.u32.u16 %d, %a, %b;', 'set.ge.s32.s16 %d, %a, %b;',
           'set.eq.f32.u16 %d, %a, %b;', 'set.gt.f32.s16 %d, %a, %b;']
    a, b, c = int16_vals()
    return ops_case(ins, a, b, c, 16, 32)


def int16_div():
    """division: by zero and MIN / -1 are left to the implementation (ptxrun: all ones, MIN)."""
    ins = ['div.u16 %d, %a, %b;', 'div.s16 %d, %a, %b;', 'rem.u16 %d, %a, %b;', 'rem.s16 %d, %a, %b;']
    a, b, c = int16_vals()
    return ops_case(ins, a, b, c, 16, 16)


def set_int32():
    """integer set with 32-bit sources, boolean ops, and slct with an s32 selector."""
    ins = []
    for cmp in ('eq', 'ne', 'lt', 'le', 'gt', 'ge'):
        ins.append('set.%s.u32.s32 %%d, %%a, %%b;' % cmp)
        ins.append('set.%s.s32.u32 %%d, %%a, %%b;' % cmp)
    for cmp in ('lo', 'ls', 'hi', 'hs'):
        ins.append('set.%s.u32.u32 %%d, %%a, %%b;' % cmp)
    ins += ['set.lt.f32.s32 %d, %a, %b;', 'set.hi.f32.u32 %d, %a, %b;', 'set.eq.u32.b32 %d, %a, %b;',
            'setp.lt.s32 %p, %c, 0; set.lt.and.u32.s32 %d, %a, %b, %p;',
            'setp.lt.s32 %p, %c, 0; set.lt.or.u32.s32 %d, %a, %b, %p;',
            'setp.lt.s32 %p, %c, 0; set.ge.xor.u32.u32 %d, %a, %b, !%p;',
            'setp.lt.s32 %p, %c, 0; set.ne.and.f32.s32 %d, %a, %b, !%p;',
            'slct.u32.s32 %d, %a, %b, %c;', 'slct.s32.s32 %d, %a, %b, %c;', 'slct.b32.s32 %d, 5, %b, %c;']
    pairs = cross(VAL32, VAL32, 196)
    a = [x for x, _ in pairs] + rnd(32, 60)
    b = [y for _, y in pairs] + rnd(32, 60)
    c = [R.choice([0, 1, 0xffffffff, 0x80000000, 0x7fffffff] + rnd(32, 3)) for _ in range(256)]
    return ops_case(ins, a, b, c, 32, 32)


# ---- ld/st: loads that sign- or zero-extend into wider registers, stores that truncate, vectors
def ldst():
    n = 64
    words = [0x80ff7f01, 0xffff8000, 0x7fff0080, 0x01fe80ff] * 4 + rnd(32, 256 - 16)
    src = HEAD + '''.visible .entry k(.param .u64 in_m, .param .u64 out32, .param .u64 out64, .param .u64 out8)
{
    .reg .b32 %t, %r<8>;
    .reg .s32 %s<4>;
    .reg .u32 %u<4>;
    .reg .b16 %h<4>;
    .reg .b64 %pm, %po, %pq, %p8, %off, %x<4>;
    .reg .s64 %sx;
    mov.u32 %t, %tid.x;
    ld.param.u64 %pm, [in_m];
    cvta.to.global.u64 %pm, %pm;
    ld.param.u64 %po, [out32];
    cvta.to.global.u64 %po, %po;
    ld.param.u64 %pq, [out64];
    cvta.to.global.u64 %pq, %pq;
    ld.param.u64 %p8, [out8];
    cvta.to.global.u64 %p8, %p8;
'''
    body = []
    k32 = [0]
    k64 = [0]

    def at(stride):
        return ('    mul.wide.u32 %%off, %%t, %d;\n    add.u64 %%x0, %%pm, %%off;\n' % stride)

    def s32(reg):
        body.append('    mul.wide.u32 %%off, %%t, 4;\n    add.u64 %%x1, %%po, %%off;\n'
                    '    st.global.b32 [%%x1+%d], %s;\n' % (k32[0] * n * 4, reg))
        k32[0] += 1

    def s64(reg):
        body.append('    mul.wide.u32 %%off, %%t, 8;\n    add.u64 %%x1, %%pq, %%off;\n'
                    '    st.global.b64 [%%x1+%d], %s;\n' % (k64[0] * n * 8, reg))
        k64[0] += 1
    # scalar loads that extend (byte t, half t, word t of in_m)
    for ins, stride, reg in [('ld.global.s8 %s0', 1, '%s0'), ('ld.global.u8 %u0', 1, '%u0'),
                             ('ld.global.b8 %r0', 1, '%r0'), ('ld.global.s8 %r0', 1, '%r0'),
                             ('ld.global.s16 %s0', 2, '%s0'), ('ld.global.u16 %u0', 2, '%u0'),
                             ('ld.global.b16 %r0', 2, '%r0'), ('ld.global.s16 %r0', 2, '%r0')]:
        body.append(at(stride) + '    %s, [%%x0+1];\n' % ins if stride == 1 else at(stride) + '    %s, [%%x0];\n' % ins)
        s32(reg)
    for ins, stride in [('ld.global.s8 %sx', 1), ('ld.global.u8 %x2', 1), ('ld.global.s16 %sx', 2),
                        ('ld.global.u16 %x2', 2), ('ld.global.s32 %sx', 4), ('ld.global.u32 %x2', 4),
                        ('ld.global.b32 %x2', 4)]:
        body.append(at(stride) + '    %s, [%%x0];\n' % ins)
        s64('%sx' if '%sx' in ins else '%x2')
    # vectors: two and four elements, extending
    body.append(at(2) + '    ld.global.v2.s8 {%s0, %s1}, [%x0];\n')
    s32('%s0'); s32('%s1')
    body.append(at(4) + '    ld.global.v4.u8 {%u0, %u1, %u2, %u3}, [%x0];\n')
    for r in ('%u0', '%u1', '%u2', '%u3'):
        s32(r)
    body.append(at(4) + '    ld.global.v2.s16 {%s2, %s3}, [%x0];\n')
    s32('%s2'); s32('%s3')
    body.append(at(8) + '    ld.global.v4.s16 {%s0, %s1, %s2, %s3}, [%x0];\n')
    for r in ('%s0', '%s1', '%s2', '%s3'):
        s32(r)
    body.append(at(16) + '    ld.global.v4.b32 {%r0, %r1, %r2, %r3}, [%x0];\n')
    for r in ('%r3', '%r2', '%r1', '%r0'):
        s32(r)
    body.append(at(16) + '    ld.global.v2.b64 {%x2, %x3}, [%x0];\n')
    s64('%x3'); s64('%x2')
    body.append(at(8) + '    ld.global.v2.s32 {%s0, %s1}, [%x0];\n    cvt.s64.s32 %sx, %s1;\n')
    s64('%sx')
    body.append(at(2) + '    ld.global.v2.b8 {%h0, %h1}, [%x0];\n    mov.b32 %r4, {%h0, %h1};\n')
    s32('%r4')
    body.append(at(2) + '    ld.global.v2.s8 {%h2, %h3}, [%x0];\n    mov.b32 %r4, {%h2, %h3};\n')
    s32('%r4')
    # stores that truncate: the word t of in_m, stored as a byte, a half, and as vectors of them
    body.append(at(4) + '    ld.global.b32 %r5, [%x0];\n    mul.wide.u32 %off, %t, 8;\n    add.u64 %x3, %pm, %off;\n'
                '    ld.global.b64 %x2, [%x3];\n'
                '    mul.wide.u32 %off, %t, 16;\n    add.u64 %x1, %p8, %off;\n'
                '    st.global.u8 [%x1], %r5;\n    st.global.s8 [%x1+1], %x2;\n    st.global.b16 [%x1+2], %r5;\n'
                '    st.global.s16 [%x1+4], %x2;\n    shr.u32 %r6, %r5, 8;\n    st.global.v2.u8 [%x1+6], {%r5, %r6};\n'
                '    st.global.v4.b8 [%x1+8], {%r6, %r5, %r6, %r5};\n    cvt.u16.u32 %h0, %r5;\n'
                '    st.global.v2.b16 [%x1+12], {%h0, %h0};\n')
    src += ''.join(body) + '    ret;\n}\n'
    lanes = {'block': [n, 1, 1],
             'buffers': {'in_m': {'type': 'b32', 'data': [hx(w, 4) for w in words]},
                         'out32': {'type': 'b32', 'count': n * k32[0]},
                         'out64': {'type': 'b64', 'count': n * k64[0]},
                         'out8': {'type': 'b8', 'count': n * 16}},
             'params': ['@in_m', '@out32', '@out64', '@out8']}
    return src, lanes


# ---- batch 2 (recorded in a second run the same day): what settles vmad's reading of words,
# 16-bit sad and .relu on .s16x2, vector atomics, and warp instructions under group masks
def vmad_probe():
    ins = []
    for t in ('u32.u32.u32', 's32.s32.s32', 's32.u32.s32', 'u32.s32.u32', 's32.u32.u32', 'u32.u32.s32'):
        ins += ['vmad.%s.shr7 %%d, %%a, %%b, %%c;' % t, 'vmad.%s.shr15 %%d, %%a, %%b, %%c;' % t,
                'vmad.%s.sat.shr15 %%d, %%a, %%b, %%c;' % t]
    ins += ['vmad.s32.u32.u32.sat %d, %a, %b, %c;', 'vmad.u32.u32.u32.po.sat %d, %a, %b, %c;',
            'vmad.u32.u32.u32.po.shr15 %d, %a, %b, %c;', 'vmad.u32.u32.u32.sat %d, %a, %b, -%c;',
            'vmad.u32.u32.u32.sat %d, -%a, %b, %c;', 'vmad.u32.u32.u32.shr15 %d, %a, -%b, %c;',
            'vmad.u32.u32.u32.sat %d, %a.h1, %b.h0, %c;', 'vmad.u32.u32.u32.sat.shr15 %d, %a.b3, %b.h1, %c;',
            'vmad.s32.s32.s32.sat %d, %a.b3, %b.b0, %c;', 'vmad.u32.u32.u32.sat %d, %a, %b.h1, %c;',
            'vmad.u32.u32.u32.shr7 %d, %a.h1, %b, %c;', 'vmad.s32.s32.s32.sat %d, %a.h1, %b, %c;',
            'vmad.u32.s32.u32.sat %d, %a.h0, %b.h1, %c;', 'vmad.s32.s32.s32.shr15 %d, %a, %b, -%c;']
    v = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x8000ffff, 0xffff8000, 0x80008080, 0x7fff7f7f, 0xc0000001,
         0x00ff8000, 0x8001, 0x10000, 0xfffffffe, 0x40000000, 0x9abcdef0]
    pairs = cross(v, v, 256)
    R.shuffle(pairs)
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    c = [R.choice([0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0xffff8000, 0x7fff] + rnd(32, 4)) for _ in range(256)]
    return ops_case(ins, a, b, c, 32, 32)


def int16_sad():
    ins = ['sad.u16 %d, %a, %b, %c;', 'sad.s16 %d, %a, %b, %c;', 'sad.s16 %d, %a, %b, 0;', 'sad.u16 %d, %a, 0, %c;']
    a, b, c = int16_vals()
    return ops_case(ins, a, b, c, 16, 16)


def relu_x2():
    ins = ['min.relu.s16x2 %d, %a, %b;', 'max.relu.s16x2 %d, %a, %b;', 'min.s16x2 %d, %a, %b;',
           'max.u16x2 %d, %a, %b;', 'add.s16x2 %d, %a, %b;', 'add.u16x2 %d, %a, %c;',
           'min.relu.s32 %d, %a, %b;', 'max.relu.s32 %d, %a, %c;']
    pairs = cross(V16, V16, 256)
    R.shuffle(pairs)
    a = [x << 16 | y for x, y in pairs]
    R.shuffle(pairs)
    b = [x << 16 | y for x, y in pairs]
    c = rnd(32, 256)
    return ops_case(ins, a, b, c, 32, 32)


def warp_groups():
    """vote/match/redux/activemask where each lane names its own group (in_c: the group's mask),
    the groups meeting at one instruction; then the same under a branch (the odd groups only)."""
    ins = ['redux.sync.add.u32 %d, %a, %c;', 'redux.sync.min.s32 %d, %a, %c;', 'redux.sync.max.s32 %d, %a, %c;',
           'redux.sync.min.u32 %d, %a, %c;', 'redux.sync.max.u32 %d, %a, %c;', 'redux.sync.add.s32 %d, %a, %c;',
           'redux.sync.and.b32 %d, %a, %c;', 'redux.sync.or.b32 %d, %a, %c;', 'redux.sync.xor.b32 %d, %a, %c;',
           'match.any.sync.b32 %d, %b, %c;', 'match.all.sync.b32 %d|%p, %b, %c; selp.b32 %d, %d, 0xdead, %p;',
           'setp.ne.u32 %p, %b, 0; vote.sync.ballot.b32 %d, %p, %c;',
           'setp.ne.u32 %p, %b, 0; vote.sync.all.pred %q, %p, %c; selp.b32 %d, 1, 0, %q;',
           'setp.ne.u32 %p, %b, 0; vote.sync.any.pred %q, !%p, %c; selp.b32 %d, 1, 0, %q;',
           'setp.ne.u32 %p, %b, 0; vote.sync.uni.pred %q, %p, %c; selp.b32 %d, 1, 0, %q;',
           'activemask.b32 %d;']
    groups = [[0xffffffff], [0x0000ffff, 0xffff0000], [0x55555555, 0xaaaaaaaa],
              [0x000000ff, 0x0000ff00, 0x00ff0000, 0xff000000], [0x00000001, 0xfffffffe],
              [0x80000001, 0x7ffffffe], [0x0f0f0f0f, 0xf0f0f0f0], [1 << i for i in range(32)]]
    n = 32 * len(groups)
    c = [next(m for m in g if m >> (t % 32) & 1) for g in groups for t in range(32)]
    a = [R.choice([0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x80000001, 0xfffffffe]) if R.random() < 0.6
         else R.getrandbits(32) for _ in range(n)]
    b = [R.choice([0, 0, 1, 7, 0x100000000 - 1, 0x80000000]) for _ in range(n)]
    b[32:64] = [7] * 16 + [0] * 16
    return ops_case(ins, a, b, c, 32, 32)


F32V = [0x7fc00000, 0x7f800001, 0xffc00001, 0x7fc12345, 0x7f800000, 0xff800000, 0x7f7fffff, 0x00000001,
        0x80000000, 0, 0x00400000, 0x807fffff, 0x3f800000, 0x33800000, 0x33800001, 0x34400000, 0xbf800000,
        0x3f800001, 0x4b800000, 0x3dcccccd]
F16V = [0x7e00, 0x7c01, 0xfe55, 0x7c00, 0xfc00, 0x7bff, 0x0001, 0x8000, 0x0000, 0x03ff, 0x3c00, 0x1000,
        0x1001, 0xbc00, 0x3c01, 0x6400, 0x2e66]
BF16V = [0x7fc0, 0x7f81, 0xffd5, 0x7f80, 0xff80, 0x7f7f, 0x0001, 0x8000, 0x0000, 0x007f, 0x3f80, 0x3b80,
         0x3b81, 0xbf80, 0x3f81, 0x4b80, 0x3dcd]


def atom_vec(instr, nvec, elem):
    """one vector atomic (sm_90, PTX 8.1) per lane on its own 16 bytes (mem), operand from in_b;
    the returned vector goes to old (red: none). elem: f32, f16x2 or bf16x2 (the values' kind)."""
    red = instr.startswith('red')
    regs = ', '.join('%%v%d' % i for i in range(nvec))
    bregs = ', '.join('%%w%d' % i for i in range(nvec))
    if red:
        op = '    %s [%%pm], {%s};\n' % (instr, bregs)
    else:
        op = '    %s {%s}, [%%pm], {%s};\n    st.global.v%d.b32 [%%po], {%s};\n' % (instr, regs, bregs, nvec, regs)
    src = HEAD.replace('8.0', '8.1') + ('.visible .entry k(.param .u64 mem, .param .u64 in_b%s)\n{\n'
                                          '    .reg .b32 %%t;\n    .reg .b64 %%pm, %%pb, %%po, %%off;\n'
                                          '    .reg .%s %%v<4>, %%w<4>;\n    mov.u32 %%t, %%tid.x;\n'
                                          '    mul.wide.u32 %%off, %%t, 16;\n'
                                          % ('' if red else ', .param .u64 old', 'f32' if elem == 'f32' else 'b32'))
    for r, pn in [('%pm', 'mem'), ('%pb', 'in_b')] + ([] if red else [('%po', 'old')]):
        src += '    ld.param.u64 %s, [%s];\n    cvta.to.global.u64 %s, %s;\n    add.u64 %s, %s, %%off;\n' % (r, pn, r, r, r, r)
    src += '    ld.global.v%d.b32 {%s}, [%%pb];\n' % (nvec, bregs) + op + '    ret;\n}\n'
    n = 32
    if elem == 'f32':
        pool = F32V
        word = lambda: R.choice(pool) if R.random() < 0.8 else R.getrandbits(32)
    else:
        pool = F16V if elem == 'f16x2' else BF16V
        half = lambda: R.choice(pool) if R.random() < 0.8 else R.getrandbits(16)
        word = lambda: half() << 16 | half()
    mem = [word() for _ in range(4 * n)]
    b = [word() for _ in range(4 * n)]
    lanes = {'block': [n, 1, 1], 'buffers': {'mem': {'type': 'b32', 'data': [hx(x, 4) for x in mem]},
                                             'in_b': {'type': 'b32', 'data': [hx(x, 4) for x in b]}},
             'params': ['@mem', '@in_b']}
    if not red:
        lanes['buffers']['old'] = {'type': 'b32', 'count': 4 * n}
        lanes['params'].append('@old')
    return src, lanes


ATOMV = [('atom_v4_f32_add', 'atom.global.v4.f32.add', 4, 'f32'), ('atom_v2_f32_add', 'atom.global.v2.f32.add', 2, 'f32'),
         ('red_v4_f32_add', 'red.global.v4.f32.add', 4, 'f32'),
         ('atom_v2_f16x2_add', 'atom.global.v2.f16x2.add.noftz', 2, 'f16x2'),
         ('atom_v4_bf16x2_add', 'atom.global.v4.bf16x2.add.noftz', 4, 'bf16x2'),
         ('atom_v4_f16x2_min', 'atom.global.v4.f16x2.min.noftz', 4, 'f16x2'),
         ('atom_v4_f16x2_max', 'atom.global.v4.f16x2.max.noftz', 4, 'f16x2'),
         ('atom_v4_bf16x2_min', 'atom.global.v4.bf16x2.min.noftz', 4, 'bf16x2'),
         ('atom_v4_bf16x2_max', 'atom.global.v4.bf16x2.max.noftz', 4, 'bf16x2')]


# ---- batch 3 (a third run the same day): vmad forms drawn at random, to test the rule read off
# vmad and vmad_probe on values it was not made from; lop3 with a predicate (.or/.and)
def vmad_check():
    ins = []
    r = random.Random(20261124_3)
    while len(ins) < 40:
        t = '.'.join(r.choice(['u32', 's32']) for _ in range(3))
        sa, sb = (r.choice(['', '', '.b0', '.b1', '.b2', '.b3', '.h0', '.h1']) for _ in range(2))
        neg = r.choice(['', '', 'po', '-a', '-b', '-c', '-ab'])
        mods = ('.po' if neg == 'po' else '') + r.choice(['', '.sat']) + r.choice(['', '.shr7', '.shr15'])
        a = ('-' if neg in ('-a', '-ab') else '') + '%a' + sa
        b = ('-' if neg in ('-b', '-ab') else '') + '%b' + sb
        c = ('-' if neg == '-c' else '') + '%c'
        i = 'vmad.%s%s %%d, %s, %s, %s;' % (t, mods, a, b, c)
        if i not in ins:
            ins.append(i)
    v = [R.getrandbits(32) | (R.choice([0, 0x80000000, 0x8000, 0x80808080])) for _ in range(256)]
    a = v
    b = [R.getrandbits(32) | R.choice([0, 0x80000000, 0x8080]) for _ in range(256)]
    c = [R.choice([R.getrandbits(32), R.getrandbits(32) | 0x80000000, R.getrandbits(8)]) for _ in range(256)]
    return ops_case(ins, a, b, c, 32, 32)


def lop3_boolop():
    """d once per LUT (it does not depend on the predicate's operation), p for .or/.and with q and !q."""
    ins = []
    for lut in (0x00, 0xff, 0x96, 0xe8, 0xca, 0x80, 0xfe, 0x01):
        ins.append('setp.lt.s32 %%q, %%c, 0; lop3.or.b32 %%d|%%p, %%a, %%b, %%c, 0x%02x, %%q;' % lut)
        for op, q in (('or', '%q'), ('and', '%q'), ('or', '!%q'), ('and', '!%q')):
            ins.append('setp.lt.s32 %%q, %%c, 0; lop3.%s.b32 %%d|%%p, %%a, %%b, %%c, 0x%02x, %s; '
                       'selp.b32 %%d, 1, 0, %%p;' % (op, lut, q))
    vals = [0, 0xffffffff, 0x80000000, 0x7fffffff, 1, 0x55555555, 0xaaaaaaaa, 0xf0f0f0f0]
    trip = [(x, y, z) for x in vals for y in vals for z in vals[:4]]
    R.shuffle(trip)
    trip = trip[:128]
    return ops_case(ins, [t[0] for t in trip], [t[1] for t in trip], [t[2] for t in trip], 32, 32,
                    head=HEAD.replace('8.0', '8.2'))


def cases():
    out = {'szext_bmsk': szext_bmsk(), 'cvt_pack_sat': cvt_pack(), 'simd2': simd2(), 'simd4': simd4(),
            'vmad': vmad(), 'int16': int16(), 'int16_wide': int16_wide(), 'int16_div': int16_div(),
            'set_slct_int32': set_int32(), 'ldst_extend_vector': ldst(),
            'vmad_probe': vmad_probe(), 'int16_sad': int16_sad(), 'relu_x2': relu_x2(), 'warp_groups': warp_groups()}
    for name, instr, nvec, elem in ATOMV:
        out[name] = atom_vec(instr, nvec, elem)
    out['vmad_check'] = vmad_check()
    out['lop3_boolop'] = lop3_boolop()
    return out


# cases whose H100 values ptxrun does not reproduce (tests/h100_more/README.md): they go to
# disagree/, which `make check` does not run; the others to cases2/
DISAGREE = set()   # vmad, vmad_probe, vmad_check: in cases2 since ptxrun follows the H100 (2026-11-24)


def main():
    write_all(sys.argv, cases(), 'cases2', DISAGREE, 'h100_more_gen2.py')


if __name__ == '__main__':
    main()
