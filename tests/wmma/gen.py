#!/usr/bin/env python3
"""Writes the wmma cases of tests/wmma (NAME.ptx, NAME.lanes.json, NAME.expect.json) with every
expected value computed here, apart from ptxrun: the matrices in memory by the PTX ISA's
.row/.col (element (r, c) at r*stride + c, or c*stride + r), D = A*B + C exactly for the
integer forms (wrapping modulo 2^32, or .satfinite's one saturation), an fma chain in k order
from C for f64 (each step rounded once, by exact fractions), and each fragment register of each
lane by the layout docs/semantics.md gives (wmma): for f16 m16n16k16 the one an H100 showed
(../shared/hw/mma, wmma_*), for the rest derived from the mma.sync fragment that does the same
arithmetic. Run from the repository root: python3 tests/wmma/gen.py"""
import json
import os
import random
from fractions import Fraction
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
DIMS = {'m16n16k16': (16, 16, 16), 'm32n8k16': (32, 8, 16), 'm8n32k16': (8, 32, 16), 'm16n16k8': (16, 16, 8),
        'm8n8k4': (8, 8, 4), 'm8n8k32': (8, 8, 32), 'm8n8k128': (8, 8, 128)}
BITS = {'f16': 16, 'bf16': 16, 'tf32': 32, 'f32': 32, 's32': 32, 'f64': 64, 's8': 8, 'u8': 8, 's4': 4, 'u4': 4,
        'b1': 1}


def mat_dims(shape, which):
    m, n, k = DIMS[shape]
    return {'a': (m, k), 'b': (k, n)}.get(which, (m, n))


def nregs(shape, which, t):
    if t == 'f16':
        return 8 if which in 'ab' else 4
    r, c = mat_dims(shape, which)
    return r * c // 32 * BITS[t] // (64 if t == 'f64' else 32)


def mma_frag(which, t, lane, j):
    """Element j of the mma.sync fragment (PTX ISA figures): m16n8k16 for 16- and 8-bit types,
    m16n8k8 tf32, m8n8k4 f64, m8n8k32 s4/u4, m8n8k128 b1; C of m16n8 or m8n8."""
    g, q = lane // 4, lane % 4
    if which == 'a':
        if t in ('f16', 'bf16'):
            return g + 8 * ((j // 2) % 2), 2 * q + j % 2 + 8 * (j // 4)
        if t in ('s8', 'u8'):
            return g + 8 * (j // 4), 4 * q + j % 4
        if t == 'tf32':
            return g + 8 * (j % 2), q + 4 * (j // 2)
        per = {'f64': 1, 's4': 8, 'u4': 8, 'b1': 32}[t]
        return g, per * q + j
    if which == 'b':
        if t in ('f16', 'bf16'):
            return 2 * q + j % 2 + 8 * (j // 2), g
        if t in ('s8', 'u8'):
            return 4 * q + j, g
        if t == 'tf32':
            return q + 4 * j, g
        per = {'f64': 1, 's4': 8, 'u4': 8, 'b1': 32}[t]
        return per * q + j, g
    raise ValueError(which)


def frag(shape, which, t, lane, i):
    """Element i of lane's wmma fragment of matrix which: its (row, column)."""
    if shape == 'm8n32k16':                      # the transpose of an m32n8k16
        other = {'a': 'b', 'b': 'a'}.get(which, which)
        r, c = frag('m32n8k16', other, t, lane, i)
        return c, r
    g, q = lane // 4, lane % 4
    if which in 'cd':
        if shape in ('m8n8k4', 'm8n8k32', 'm8n8k128'):
            return g, 2 * q + i
        j, tile = i % 4, i // 4
        r, c = g + 8 * (j // 2), 2 * q + j % 2
        return (r + 16 * tile, c) if shape == 'm32n8k16' else (r, c + 8 * tile)
    per = {'f16': 8, 'bf16': 8, 's8': 8, 'u8': 8, 'tf32': 4, 'f64': 1, 's4': 8, 'u4': 8, 'b1': 32}[t]
    if which == 'b':
        per = {'f16': 4, 'bf16': 4, 's8': 4, 'u8': 4, 'tf32': 2}.get(t, per)
    r, c = mma_frag(which, t, lane, i % per)
    tile = (i // per) % 2
    if shape == 'm32n8k16' and which == 'a':
        r += 16 * tile
    if shape in ('m16n16k16', 'm16n16k8') and which == 'b':
        c += 8 * tile
    return r, c


def frag_regs(shape, which, t, M):
    """Each register of each lane holding matrix M (M[r][c] raw bits): regs[j][lane]."""
    bits = BITS[t]
    width = 64 if t == 'f64' else 32
    per = width // bits
    out = []
    for j in range(nregs(shape, which, t)):
        row = []
        for lane in range(32):
            v = 0
            for e in range(per):
                r, c = frag(shape, which, t, lane, j * per + e)
                v |= M[r][c] << (e * bits)
            row.append(v)
        out.append(row)
    return out


def to_memory(M, bits, layout, stride, size_bytes):
    """Matrix M (raw bits) laid out in memory; the other bytes zero."""
    mem = bytearray(size_bytes)
    for r, line in enumerate(M):
        for c, v in enumerate(line):
            idx = r * stride + c if layout == 'row' else c * stride + r
            bit = idx * bits
            if bits >= 8:
                mem[bit // 8:bit // 8 + bits // 8] = v.to_bytes(bits // 8, 'little')
            else:
                mem[bit // 8] |= v << (bit % 8)
    return mem


def words(mem, size):
    return ['0x%0*x' % (size // 4, int.from_bytes(mem[i:i + size // 8], 'little')) for i in range(0, len(mem), size // 8)]


def signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) else v


def f64_bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def f64_of(u):
    return struct.unpack('<d', struct.pack('<Q', u))[0]


def fma(a, b, c):
    return float(Fraction(a) * Fraction(b) + Fraction(c))   # exact, rounded once to nearest even


def fvalue(bits, typ):
    if typ == 'f16':
        return struct.unpack('<e', struct.pack('<H', bits))[0]
    if typ == 'bf16':
        return struct.unpack('<f', struct.pack('<I', bits << 16))[0]
    return struct.unpack('<f', struct.pack('<I', bits))[0]   # f32, tf32


def fbits(v, typ):
    return struct.unpack('<H', struct.pack('<e', v))[0] if typ == 'f16' else struct.unpack('<I', struct.pack('<f', v))[0]


def product(shape, t, A, B, C, flags, ct=None, dt=None):
    m, n, k = DIMS[shape]
    D = [[0] * n for _ in range(m)]
    for i in range(m):
        for j in range(n):
            if t in ('f16', 'bf16', 'tf32'):   # small integers: every sum exact in f32 and f16
                acc = fvalue(C[i][j], ct) + sum(fvalue(A[i][x], t) * fvalue(B[x][j], t) for x in range(k))
                assert acc == int(acc) and abs(acc) < (2048 if dt == 'f16' else 1 << 24)
                D[i][j] = fbits(acc, dt)
                continue
            if t == 'f64':
                acc = f64_of(C[i][j])
                for x in range(k):
                    acc = fma(f64_of(A[i][x]), f64_of(B[x][j]), acc)
                D[i][j] = f64_bits(acc)
                continue
            acc = signed(C[i][j], 32)
            for x in range(k):
                if t == 'b1':
                    acc += (A[i][x] ^ B[x][j]) if 'xor' in flags else (A[i][x] & B[x][j])
                else:
                    sa = t[0] == 's'
                    bits = BITS[t]
                    acc += (signed(A[i][x], bits) if sa else A[i][x]) * (signed(B[x][j], bits) if sa else B[x][j])
            if 'satfinite' in flags:
                acc = max(-2**31, min(2**31 - 1, acc))
            D[i][j] = acc & 0xffffffff
    return D


PTX_HEAD = """.version 8.7
.target sm_90
.address_size 64

// {comment}
// Written by tests/wmma/gen.py, which computed every expected value (see there).
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd, .param .u64 pf)
{{
    .reg .b32 %r<40>;
    .reg .b64 %x<40>;
    .reg .u64 %a, %b, %c, %d, %f, %off;
    .reg .u32 %lane;
    mov.u32 %lane, %tid.x;
    ld.param.u64 %a, [pa];
    ld.param.u64 %b, [pb];
    ld.param.u64 %c, [pc];
    ld.param.u64 %d, [pd];
    ld.param.u64 %f, [pf];
    cvta.to.global.u64 %f, %f;
    mul.wide.u32 %off, %lane, {lanebytes};
    add.s64 %f, %f, %off;
"""


def regvec(t, first, count):
    p = '%x' if t == 'f64' else '%r'
    return '{' + ', '.join('%s%d' % (p, first + i) for i in range(count)) + '}'


def case(name, comment, shape, t, ct, dt, lay, strides, flags=(), seed=0, mma=True, space='global', big_c=False):
    rnd = random.Random(seed)
    m, n, k = DIMS[shape]
    bits = BITS[t]

    def rand_matrix(which, typ):
        r, c = mat_dims(shape, which)
        if typ == 'f64':
            return [[f64_bits(rnd.choice([-1, 1]) * rnd.uniform(0.1, 4.0) * 2.0 ** rnd.randint(-6, 6))
                     for _ in range(c)] for _ in range(r)]
        if typ in ('f16', 'bf16'):   # small integers, exact in every float format (a layout check)
            enc = (lambda v: struct.unpack('<H', struct.pack('<e', float(v)))[0]) if typ == 'f16' else \
                  (lambda v: struct.unpack('<I', struct.pack('<f', float(v)))[0] >> 16)
            return [[enc(rnd.randint(-8, 8)) for _ in range(c)] for _ in range(r)]
        if typ in ('f32', 'tf32'):
            return [[struct.unpack('<I', struct.pack('<f', float(rnd.randint(-99, 99))))[0] for _ in range(c)]
                    for _ in range(r)]
        if typ == 's32':
            if big_c:
                return [[rnd.choice([0x7fffff00, 0x80000100, rnd.getrandbits(32)]) for _ in range(c)] for _ in range(r)]
            return [[rnd.getrandbits(32) for _ in range(c)] for _ in range(r)]
        return [[rnd.getrandbits(BITS[typ]) for _ in range(c)] for _ in range(r)]

    A, B, C = rand_matrix('a', t), rand_matrix('b', t), rand_matrix('c', ct)
    mats = {'a': (A, t), 'b': (B, t), 'c': (C, ct)}
    bufs, data = {}, {}
    for which in 'abc':
        M, typ = mats[which]
        r, c = mat_dims(shape, which)
        lines = c if lay[which] == 'col' else r
        length = r if lay[which] == 'col' else c
        size = ((lines - 1) * strides[which] + length) * BITS[typ] // 8
        size = (size + 15) // 16 * 16
        data[which] = to_memory(M, BITS[typ], lay[which], strides[which], size)
    D = product(shape, t, A, B, C, flags, ct, dt) if mma else C
    r, c = mat_dims(shape, 'd')
    dlines = c if lay['d'] == 'col' else r
    dlen = r if lay['d'] == 'col' else c
    dsize = ((dlines - 1) * strides['d'] + dlen) * BITS[dt] // 8
    dsize = (dsize + 15) // 16 * 16
    Dmem = to_memory(D, BITS[dt], lay['d'], strides['d'], dsize)
    wsz = 64 if t == 'f64' else 32
    lanebytes = wsz // 8
    na, nb, nc, nd = nregs(shape, 'a', t), nregs(shape, 'b', t), nregs(shape, 'c', ct), nregs(shape, 'd', dt)
    ptx = PTX_HEAD.format(comment=comment, lanebytes=lanebytes)
    sp = '' if space == 'generic' else '.' + space
    if space == 'global':
        for p in 'abcd':
            ptx += '    cvta.to.global.u64 %%%s, %%%s;\n' % (p, p)
    if space == 'shared':   # copy A, B, C to .shared, lane by lane, 16 bytes each
        ptx += '    .shared .align 32 .b8 sa[%d], sb[%d], sc[%d], sd[%d];\n' % (
            len(data['a']), len(data['b']), len(data['c']), dsize)
        for p in 'abc':
            ptx += '    cvta.to.global.u64 %%%s, %%%s;\n' % (p, p)
            chunks = len(data[p]) // 16
            for base in range(0, chunks, 32):
                ptx += ('    {\n    .reg .u64 %%g; .reg .u32 %%s, %%i; .reg .b32 %%w<4>; .reg .pred %%q;\n'
                        '    add.u32 %%i, %%lane, %d;\n    setp.lt.u32 %%q, %%i, %d;\n'
                        '    mul.wide.u32 %%g, %%i, 16;\n    add.s64 %%g, %%%s, %%g;\n'
                        '    mov.u32 %%s, s%s;\n    mad.lo.u32 %%s, %%i, 16, %%s;\n'
                        '    @%%q ld.global.v4.b32 {%%w0, %%w1, %%w2, %%w3}, [%%g];\n'
                        '    @%%q st.shared.v4.b32 [%%s], {%%w0, %%w1, %%w2, %%w3};\n    }\n') % (base, chunks, p, p)
        ptx += '    bar.sync 0;\n    .reg .u32 %sa, %sb, %sc, %sd;\n'
        for p in 'abcd':
            ptx += '    mov.u32 %%s%s, s%s;\n' % (p, p)
        ptx += '    cvta.to.global.u64 %d, %d;\n'
    addr = {p: ('%%s%s' % p if space == 'shared' else '%%%s' % p) for p in 'abcd'}
    stride_text = {p: ('' if strides.get(p + '_default') else ', %d' % strides[p]) for p in 'abcd'}
    ptx += '    wmma.load.a.sync.aligned.%s.%s%s.%s %s, [%s]%s;\n' % (lay['a'], shape, sp, t, regvec(t, 0, na), addr['a'], stride_text['a'])
    ptx += '    wmma.load.b.sync.aligned.%s.%s%s.%s %s, [%s]%s;\n' % (lay['b'], shape, sp, t, regvec(t, 8, nb), addr['b'], stride_text['b'])
    ptx += '    wmma.load.c.sync.aligned.%s.%s%s.%s %s, [%s]%s;\n' % (lay['c'], shape, sp, ct, regvec(ct, 16, nc), addr['c'], stride_text['c'])
    if mma:
        if t == 'f16':
            types = '%s.%s' % (dt, ct)
        else:
            types = '%s.%s.%s.%s' % (dt, t, t, ct)
        op = ''.join('.' + f for f in flags if f in ('xor', 'and')) + ('.popc' if t == 'b1' else '')
        tail = ''.join('.' + f for f in flags if f in ('satfinite', 'rn'))
        ptx += '    wmma.mma%s.sync.aligned.%s.%s.%s.%s%s %s, %s, %s, %s;\n' % (
            op, lay['a'], lay['b'], shape, types, tail, regvec(dt, 24, nd), regvec(t, 0, na), regvec(t, 8, nb),
            regvec(ct, 16, nc))
        dfirst = 24
    else:
        dfirst = 16
    dsp = '.global' if space != 'generic' else ''
    ptx += '    wmma.store.d.sync.aligned.%s.%s%s.%s [%%d], %s%s;\n' % (lay['d'], shape, dsp, dt, regvec(dt, dfirst, nd), stride_text['d'])
    # every fragment register to pf: register j of lane l at element 32 j + l
    slots = []
    for first, cnt, typ in ((0, na, t), (8, nb, t), (16, nc, ct)) + (((24, nd, dt),) if mma else ()):
        for j in range(cnt):
            slots.append((first + j, typ))
    for s, (reg, typ) in enumerate(slots):
        if (typ == 'f64') != (t == 'f64'):
            continue
        ptx += '    st.global.b%d [%%f+%d], %s%d;\n' % (wsz, s * 32 * lanebytes, '%x' if typ == 'f64' else '%r', reg)
    ptx += '    ret;\n}\n'
    # expected fragment registers
    F = []
    frags = [frag_regs(shape, 'a', t, A), frag_regs(shape, 'b', t, B), frag_regs(shape, 'c', ct, C)]
    if mma:
        frags.append(frag_regs(shape, 'd', dt, D))
    for fr in frags:
        for row in fr:
            F.extend(row)
    fbytes = bytearray()
    for v in F:
        fbytes += v.to_bytes(wsz // 8, 'little')
    btype = 'b64' if t == 'f64' else 'b32'
    lanes = {'block': [32, 1, 1], 'grid': [1, 1, 1], 'params': ['@A', '@B', '@C', '@D', '@F'], 'buffers': {
        'A': {'type': btype, 'data': words(data['a'], wsz)}, 'B': {'type': btype, 'data': words(data['b'], wsz)},
        'C': {'type': btype, 'data': words(data['c'], wsz)},
        'D': {'type': btype, 'data': words(bytearray(dsize), wsz)},
        'F': {'type': btype, 'data': words(bytearray(len(fbytes)), wsz)}}}
    expect = {'buffers': {'D': words(Dmem, wsz), 'F': words(fbytes, wsz)}}
    with open(os.path.join(HERE, name + '.ptx'), 'w') as f:
        f.write(ptx)
    with open(os.path.join(HERE, name + '.lanes.json'), 'w') as f:
        json.dump(lanes, f)
    with open(os.path.join(HERE, name + '.expect.json'), 'w') as f:
        json.dump(expect, f)


def L(a, b, c, d):
    return {'a': a, 'b': b, 'c': c, 'd': d}


def S(a, b, c, d, **kw):
    s = {'a': a, 'b': b, 'c': c, 'd': d}
    s.update(kw)
    return s


def main():
    # integer and f64 wmma.mma: D from memory checks load, mma and store; F every register
    case('s8_m16n16k16', 's8 m16n16k16 row.col, C row, D col (wrapping)', 'm16n16k16', 's8', 's32', 's32',
         L('row', 'col', 'row', 'col'), S(16, 32, 16, 24), seed=1)
    case('s8_m16n16k16_sat', 's8 .satfinite, C near the s32 limits; A col, B row', 'm16n16k16', 's8', 's32', 's32',
         L('col', 'row', 'col', 'row'), S(32, 16, 20, 16), flags=('satfinite',), seed=2, big_c=True)
    case('u8_m32n8k16', 'u8 m32n8k16 row.row (wrapping), default strides', 'm32n8k16', 'u8', 's32', 's32',
         L('row', 'row', 'row', 'row'), S(16, 8, 8, 8, a_default=1, b_default=1, c_default=1, d_default=1),
         seed=3, big_c=True)
    case('s8_m8n32k16', 's8 m8n32k16 col.col', 'm8n32k16', 's8', 's32', 's32', L('col', 'col', 'col', 'row'),
         S(16, 32, 8, 32), seed=4)
    case('u8_m8n32k16_shared', 'u8 m8n32k16 from .shared', 'm8n32k16', 'u8', 's32', 's32',
         L('row', 'col', 'row', 'row'), S(32, 16, 32, 32), seed=5, space='shared')
    case('s4_m8n8k32', 's4 m8n8k32 row.col', 'm8n8k32', 's4', 's32', 's32', L('row', 'col', 'row', 'col'),
         S(64, 32, 8, 12), seed=6)
    case('u4_m8n8k32_sat', 'u4 m8n8k32 .satfinite', 'm8n8k32', 'u4', 's32', 's32', L('row', 'col', 'col', 'row'),
         S(32, 32, 8, 8), flags=('satfinite',), seed=7, big_c=True)
    case('b1_xor', 'b1 m8n8k128 .xor.popc', 'm8n8k128', 'b1', 's32', 's32', L('row', 'col', 'row', 'row'),
         S(128, 256, 8, 8), flags=('xor',), seed=8)
    case('b1_and', 'b1 m8n8k128 .and.popc, generic addresses', 'm8n8k128', 'b1', 's32', 's32',
         L('row', 'col', 'col', 'col'), S(256, 128, 12, 8), flags=('and',), seed=9, space='generic')
    case('f64_m8n8k4', 'f64 m8n8k4 row.col .rn (an fma chain in k order from C)', 'm8n8k4', 'f64', 'f64', 'f64',
         L('row', 'col', 'row', 'row'), S(4, 4, 8, 8), flags=('rn',), seed=10)
    case('f64_m8n8k4_colrow', 'f64 m8n8k4 col.row, no rounding modifier', 'm8n8k4', 'f64', 'f64', 'f64',
         L('col', 'row', 'col', 'col'), S(10, 8, 12, 8), seed=11)
    # the float forms on small integers (every sum exact: a check of the fragments and the
    # plumbing, not of rounding, which ../shared/hw/mma's wmma_* cases check)
    case('f16_m16n16k16_f16f16', 'f16 m16n16k16 .f16.f16, col.row', 'm16n16k16', 'f16', 'f16', 'f16',
         L('col', 'row', 'row', 'col'), S(16, 16, 16, 24), seed=20)
    case('f16_m16n16k16_f16f32', 'f16 m16n16k16 .f16.f32 (D f16 from C f32)', 'm16n16k16', 'f16', 'f32', 'f16',
         L('row', 'col', 'col', 'row'), S(16, 16, 16, 16), seed=21)
    case('f16_m16n16k16_f32f16', 'f16 m16n16k16 .f32.f16 (D f32 from C f16)', 'm16n16k16', 'f16', 'f16', 'f32',
         L('row', 'row', 'row', 'row'), S(24, 16, 16, 16), seed=22)
    case('f16_m32n8k16', 'f16 m32n8k16 .f32.f32', 'm32n8k16', 'f16', 'f32', 'f32', L('col', 'col', 'row', 'col'),
         S(32, 16, 8, 32), seed=23)
    case('f16_m8n32k16', 'f16 m8n32k16 .f16.f16, from .shared', 'm8n32k16', 'f16', 'f16', 'f16',
         L('row', 'row', 'col', 'row'), S(16, 32, 8, 32), seed=24, space='shared')
    case('bf16_m16n16k16', 'bf16 m16n16k16', 'm16n16k16', 'bf16', 'f32', 'f32', L('row', 'col', 'row', 'row'),
         S(16, 16, 16, 16), seed=25)
    case('bf16_m8n32k16', 'bf16 m8n32k16', 'm8n32k16', 'bf16', 'f32', 'f32', L('col', 'row', 'row', 'col'),
         S(8, 32, 32, 8), seed=26)
    case('tf32_m16n16k8', 'tf32 m16n16k8', 'm16n16k8', 'tf32', 'f32', 'f32', L('row', 'col', 'row', 'col'),
         S(8, 8, 16, 16), seed=27)
    # loads and stores of the float types (C stored back as D): the fragments' registers
    case('f16_m16n16k16_ldst', 'f16 m16n16k16: A, B, C (f16) loaded, C stored back transposed', 'm16n16k16', 'f16',
         'f16', 'f16', L('row', 'row', 'row', 'col'), S(24, 16, 32, 16), mma=False, seed=12)
    case('f16_m32n8k16_ldst', 'f16 m32n8k16 loads, C f32', 'm32n8k16', 'f16', 'f32', 'f32',
         L('col', 'row', 'col', 'row'), S(40, 8, 32, 12), mma=False, seed=13)
    case('f16_m8n32k16_ldst', 'f16 m8n32k16 loads, C f32', 'm8n32k16', 'f16', 'f32', 'f32',
         L('row', 'col', 'row', 'col'), S(16, 24, 32, 8), mma=False, seed=14)
    case('bf16_m16n16k16_ldst', 'bf16 m16n16k16 loads', 'm16n16k16', 'bf16', 'f32', 'f32',
         L('col', 'row', 'row', 'row'), S(16, 16, 16, 20), mma=False, seed=15)
    case('bf16_m32n8k16_ldst', 'bf16 m32n8k16 loads', 'm32n8k16', 'bf16', 'f32', 'f32',
         L('row', 'col', 'col', 'col'), S(16, 16, 32, 32), mma=False, seed=16)
    case('bf16_m8n32k16_ldst', 'bf16 m8n32k16 loads, from .shared', 'm8n32k16', 'bf16', 'f32', 'f32',
         L('row', 'row', 'row', 'row'), S(16, 32, 32, 32), mma=False, seed=17, space='shared')
    case('tf32_m16n16k8_ldst', 'tf32 m16n16k8 loads', 'm16n16k8', 'tf32', 'f32', 'f32',
         L('row', 'col', 'col', 'row'), S(8, 12, 16, 16), mma=False, seed=18)


if __name__ == '__main__':
    main()
