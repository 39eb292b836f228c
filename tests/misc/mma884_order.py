#!/usr/bin/env python3
# mma884_order.py: writes the case mma884_order (NAME.ptx, NAME.lanes.json, NAME.expect.json) into the
# folder given (default: this one). It pins down the order in which mma.sync.aligned.m8n8k4 with .f16 D
# adds up its terms (docs/semantics.md, "mma"): D = f16((C + p) + q), p = a1*b1 + a0*b0 and q = a3*b3 + a2*b2
# each one f32 rounding, every f32 step to nearest even. Written apart from exec/ and from mma884.py (the
# fragment positions from the PTX ISA's figures for m8n8k4 .f16, the arithmetic on exact fractions).
# Each quad-pair's D(0,0) gets inputs on which another plausible order gives another f16 (found by search
# with this model): pair 0 C + (p + q), pairs (0,2)(1,3), the f32 chain, one exact rounding; pair 1 (C + q) + p;
# pair 2 the fma chain started from C; pair 3 one exact rounding. Every other A, B, C element is +0.
# The forms .row.col and .col.row .f16.f16.f16.f16, the same values. scripts/mma884_ptxas.py checks the
# expected values against the code ptxas 13.0 makes for sm_90, evaluated on these inputs.
import json
import os
import sys
from fractions import Fraction

# (A row 0, B column 0, C(0,0)) of each pair as f16 bits, and what each order gives (comment only).
TARGETS = [
    ([0x2800, 0x8020, 0x1800, 0x3400], [0x0080, 0x2a00, 0x3400, 0x8004], 0x3c00),   # 0x3c00; C+(p+q): 0x3c01
    ([0x2000, 0x3c00, 0x0040, 0x0008], [0x0001, 0xbc00, 0x3c00, 0x2e00], 0x3c00),   # 0x0041; (C+q)+p: 0x0040
    ([0x0010, 0x0000, 0x1e00, 0x3bff], [0x2600, 0x3e00, 0x0080, 0xb800], 0x3c01),   # 0x3803; chain from C: 0x3802
    ([0x0006, 0x2600, 0x1400, 0x2c00], [0x2a00, 0x8002, 0x8040, 0x2000], 0x3e00),   # 0x3e00; exact: 0x3e01
]
FORMS = [('row', 'col'), ('col', 'row')]


def a_elem(lane, i, a_col):
    """(row, k) of A element i in lane, within its quad-pair's 8x4 A."""
    up = 4 if lane >= 16 else 0
    return (i + up, lane % 4) if a_col else (lane % 4 + up, i)


def b_elem(lane, i, b_row):
    """(k, col) of B element i in lane, within its quad-pair's 4x8 B."""
    up = 4 if lane >= 16 else 0
    return (lane % 4, i + up) if b_row else (i, lane % 4 + up)


def value16(h):
    sign = -1 if h >> 15 else 1
    e, m = (h >> 10) & 31, h & 1023
    assert e != 31
    return sign * (Fraction(m, 1024) * Fraction(2) ** -14 if e == 0 else Fraction(1024 + m, 1024) * Fraction(2) ** (e - 15))


def round_bin(x, mant, emin, emax):
    """x rounded to nearest even, mant fraction bits, normal exponents emin..emax (subnormals below);
    None for an overflow (no test value here overflows)."""
    if x == 0:
        return Fraction(0)
    neg, x = x < 0, abs(x)
    e = emin
    while Fraction(2) ** (e + 1) <= x:
        e += 1
    step = Fraction(2) ** (e - mant)
    n, rest = divmod(x, step)
    if rest * 2 > step or (rest * 2 == step and n % 2 == 1):
        n += 1
    y = n * step
    assert y < Fraction(2) ** (emax + 1)
    return -y if neg else y


def f32(x):
    return round_bin(x, 23, -126, 127)


def bits16(x):
    y = round_bin(x, 10, -14, 15)
    assert y != 0                                   # every D here is nonzero: no sign of zero to decide
    sign, y = (0x8000, -y) if y < 0 else (0, y)
    e = -14
    while Fraction(2) ** (e + 1) <= y:
        e += 1
    if y < Fraction(2) ** -14:
        return sign | int(y / Fraction(2) ** -24)
    return sign | (e + 15) << 10 | int((y / Fraction(2) ** e - 1) * 1024)


def d_elem(a, b, c):
    """The sm_90 code's order (docs/semantics.md): products of f16 are exact in f32."""
    x = [value16(h) for h in a]
    y = [value16(h) for h in b]
    p = f32(x[1] * y[1] + f32(x[0] * y[0]))
    q = f32(x[3] * y[3] + f32(x[2] * y[2]))
    return bits16(f32(f32(value16(c) + p) + q))


def write(folder):
    words, out, lines = [], [], []
    for n, (al, bl) in enumerate(FORMS):
        regs = [[0] * 32 for _ in range(8)]          # A0 A1 B0 B1 C0 C1 C2 C3
        dregs = [[0] * 32 for _ in range(4)]
        for lane in range(32):
            pair = lane >> 2 & 3
            a, b, c = TARGETS[pair]
            for i in range(4):
                row, k = a_elem(lane, i, al == 'col')
                if row == 0:
                    regs[i // 2][lane] |= a[k] << 16 * (i % 2)
                k, col = b_elem(lane, i, bl == 'row')
                if col == 0:
                    regs[2 + i // 2][lane] |= b[k] << 16 * (i % 2)
            if lane % 4 == 0 and lane < 16:          # C and D .f16: lane holds row lane%4 (+4), columns 0-7
                regs[4][lane] |= c
                dregs[0][lane] = d_elem(a, b, c)
            else:
                pass
        # every other D element: A row or B column all +0 and C +0, so +0 + +0 ... = +0
        words += [w for r in regs for w in r]
        out += [w for r in dregs for w in r]
        base = 8 * n
        lines += ['    ld.global.b32 %%r%d, [%%pi+%d];' % (base + s, 128 * (base + s)) for s in range(8)]
        lines.append('    mma.sync.aligned.m8n8k4.%s.%s.f16.f16.f16.f16 {%%d%d, %%d%d, %%d%d, %%d%d}, {%%r%d, %%r%d}, '
                     '{%%r%d, %%r%d}, {%%r%d, %%r%d, %%r%d, %%r%d};'
                     % ((al, bl) + tuple(4 * n + j for j in range(4)) + tuple(base + s for s in range(8))))
        lines += ['    st.global.b32 [%%po+%d], %%d%d;' % (128 * (4 * n + j), 4 * n + j) for j in range(4)]
    ptx = ['.version 8.0', '.target sm_90', '.address_size 64', '',
           '// mma884_order: the order of the f16 sum of mma.sync.aligned.m8n8k4 .f16.f16.f16.f16 (.row.col, .col.row):',
           '// D = f16((C + p) + q), p = a1*b1 + a0*b0, q = a3*b3 + a2*b2, f32 steps to nearest even, as ptxas 13.0\'s',
           '// sm_90 code does it. Each quad-pair\'s D(0,0) has inputs on which another order gives another value',
           '// (mma884_order.py, which writes this case and its expected values from its own model).',
           '// Input slot s of lane l is i32[s*32+l]; D register s of lane l goes to o32[s*32+l].',
           '.visible .entry k(.param .u64 p_i32, .param .u64 p_o32)', '{',
           '    .reg .b32 %r<16>, %d<8>;', '    .reg .u64 %pi, %po, %off;', '    .reg .u32 %lane;',
           '    mov.u32 %lane, %tid.x;', '    mul.wide.u32 %off, %lane, 4;',
           '    ld.param.u64 %pi, [p_i32];', '    cvta.to.global.u64 %pi, %pi;', '    add.s64 %pi, %pi, %off;',
           '    ld.param.u64 %po, [p_o32];', '    cvta.to.global.u64 %po, %po;', '    add.s64 %po, %po, %off;'] + lines + ['    ret;', '}', '']
    with open(os.path.join(folder, 'mma884_order.ptx'), 'w') as f:
        f.write('\n'.join(ptx))
    with open(os.path.join(folder, 'mma884_order.lanes.json'), 'w') as f:
        json.dump({'block': [32, 1, 1], 'grid': [1, 1, 1],
                   'buffers': {'i32': {'type': 'b32', 'data': ['0x%08x' % w for w in words]},
                               'o32': {'type': 'b32', 'count': len(out)}},
                   'params': ['@i32', '@o32']}, f, indent=1)
        f.write('\n')
    with open(os.path.join(folder, 'mma884_order.expect.json'), 'w') as f:
        json.dump({'buffers': {'o32': ['0x%08x' % w for w in out]}}, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    write(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
