#!/usr/bin/env python3
"""tests/wgmma/gen.py: writes the wgmma cases (NAME.ptx, NAME.lanes.json, NAME.expect.json) and
computes every expected value apart from ptxrun.

The model, from the PTX ISA (9.7.15 "wgmma") and CUTLASS's layout atoms (cute's
Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom tiled over the matrix, then Swizzle<B,4,3> on the
shared-memory byte address):
- each test matrix is laid out in a shared-memory image by its atom: the kernel copies the image
  byte for byte into a `.shared .align 1024` array, builds descriptors (start, LBO, SBO, swizzle)
  and runs wgmma; the model never reads a descriptor;
- A given in registers is packed by the ISA's A fragment figure, D read back by D's figure (each
  thread stores its D registers in order: out[tid * regs + i]);
- D = A B (+ D), integers exactly, floats as exact fractions (inputs chosen so that every sum is
  a value of D's type), except `wgmma_f16_round`, which follows the tensor-core rule recorded for
  mma on the H100 (docs/semantics.md, "f16, bf16 and tf32"): terms cut 25 bits below the largest
  exponent sum, added exactly, rounded toward zero to f32.
Run: python3 tests/wgmma/gen.py (from the repository root)."""
import json
import os
import random
import struct
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- element encodings ----

def f16_bits(v):
    b = struct.unpack('<H', struct.pack('<e', float(v)))[0]
    assert Fraction(struct.unpack('<e', struct.pack('<H', b))[0]) == Fraction(v), v
    return b

def f32_bits(v):
    b = struct.unpack('<I', struct.pack('<f', float(v)))[0]
    assert Fraction(struct.unpack('<f', struct.pack('<I', b))[0]) == Fraction(v), v
    return b

def bf16_bits(v):
    b = f32_bits(v)
    assert b & 0xffff == 0, v
    return b >> 16

def tf32_bits(v):
    b = f32_bits(v)
    assert b & 0x1fff == 0, v
    return b

def f32_value(b):
    return Fraction(struct.unpack('<f', struct.pack('<I', b))[0])

BITS = {'f16': 16, 'bf16': 16, 'tf32': 32, 's8': 8, 'u8': 8, 'b1': 1}

def encode(t, v):
    if t == 'f16': return f16_bits(v)
    if t == 'bf16': return bf16_bits(v)
    if t == 'tf32': return tf32_bits(v)
    if t in ('s8', 'u8'): return v & 0xff
    if t == 'b1': return v & 1
    raise ValueError(t)

# ---- shared-memory images: CUTLASS's atoms tiled over the matrix (atoms along MN first) ----

SWIZZLE_BITS = {'none': 0, '32B': 1, '64B': 2, '128B': 3}

def swizzle(addr, mode):
    b = SWIZZLE_BITS[mode]                    # cute Swizzle<b, 4, 3>
    return addr ^ ((addr >> 3) & (((1 << b) - 1) << 4))

def byte_of(mode, major, bits, rows, mn, k):
    """Bit offset of element (mn, k) of a rows x K matrix in its atom-tiled image, before the
    swizzle (which acts on the byte address). K-major atom: 8 rows of W*16 bytes (none: 16);
    MN-major atom: 8 k-rows of W*16 bytes along MN."""
    w = 1 << SWIZZLE_BITS[mode]
    width = 16 * w * 8                        # atom width in bits along its contiguous dimension
    if major == 'K':
        atoms_mn = rows // 8
        a_mn, a_k = mn // 8, (k * bits) // width
        within = (mn % 8) * width + (k * bits) % width
        return ((a_mn + atoms_mn * a_k) * 8 * width) + within
    per = width // bits                       # MN elements in one atom row
    atoms_mn = rows // per
    a_mn, a_k = mn // per, k // 8
    within = (k % 8) * width + (mn % per) * bits
    return ((a_mn + atoms_mn * a_k) * 8 * width) + within

def image(values, t, mode, major, base):
    """values[mn][k] -> bytes of the image placed at shared address base."""
    rows, K = len(values), len(values[0])
    bits = BITS[t]
    atom = 16 * 8 * (1 << SWIZZLE_BITS[mode])       # an atom's bytes; the image is whole atoms
    last = max(byte_of(mode, major, bits, rows, mn, k) for mn in range(rows) for k in range(K)) // 8
    size = (last // atom + 1) * atom
    out = bytearray(size)
    for mn in range(rows):
        for k in range(K):
            bit = byte_of(mode, major, bits, rows, mn, k)
            addr = swizzle(base + bit // 8, mode) - base
            v = encode(t, values[mn][k])
            if bits >= 8:
                out[addr:addr + bits // 8] = v.to_bytes(bits // 8, 'little')
            else:
                out[addr] |= v << (bit % 8)
    return out

# ---- fragments (PTX ISA figures for wgmma: per warp, mma.m16n8's) ----

def d_place(tid, i):
    w, l = tid // 32, tid % 32
    return 16 * w + l // 4 + 8 * (i >> 1 & 1), 8 * (i >> 2) + 2 * (l % 4) + (i & 1)

def a_regs(A, t, tid):
    """The 4 .b32 registers of thread tid's A fragment."""
    w, l = tid // 32, tid % 32
    g, q = l // 4, l % 4
    bits = BITS[t]
    per = 32 // bits if bits < 32 else 1
    K = len(A[0])
    regs = []
    for r in range(4):
        v = 0
        for j in range(per):
            row = 16 * w + g + 8 * (r & 1)
            col = per * q + j + (K // 2) * (r >> 1)
            v |= encode(t, A[row][col]) << (j * bits)
        regs.append(v)
    return regs

# ---- the product ----

def value(t, v):
    return Fraction(v)

def h100_rule(a, b, c):
    """One f32 D element by the tensor-core rule (f16 A and B, f32 C): exponents of the nonzero
    terms (C's, each product's exponent sum), cut toward zero at 2^(top - 25), exact sum,
    rounded toward zero to f32."""
    def exp_of(x):
        x = abs(x)
        e = 0
        while x >= 2: x /= 2; e += 1
        while x < 1: x *= 2; e -= 1
        return e
    terms, exps = [], []
    for x, y in zip(a, b):
        p = Fraction(x) * Fraction(y)
        if p:
            terms.append(p); exps.append(max(exp_of(Fraction(x)), -14) + max(exp_of(Fraction(y)), -14))
    if c:
        terms.append(Fraction(c)); exps.append(exp_of(Fraction(c)))
    if not terms:
        return Fraction(0)
    q = Fraction(2) ** (max(exps) - 25)
    s = sum((abs(p) // q) * q * (1 if p > 0 else -1) for p in terms)
    # toward zero to f32 (24 significant bits)
    if s == 0:
        return Fraction(0)
    e = exp_of(s)
    ulp = Fraction(2) ** (e - 23)
    return (abs(s) // ulp) * ulp * (1 if s > 0 else -1)

def product(A, B, C, kind, sat=False, round_rule=False):
    """D[m][n] = sum_k A[m][k] B[k][n] + C[m][n]."""
    M, K, N = len(A), len(A[0]), len(B[0])
    D = [[0] * N for _ in range(M)]
    for i in range(M):
        for j in range(N):
            col = [B[k][j] for k in range(K)]
            if round_rule:
                D[i][j] = h100_rule(A[i], col, C[i][j])
                continue
            if kind == 'b1':
                s = sum(A[i][k] & col[k] for k in range(K)) + C[i][j]
            else:
                s = sum(Fraction(A[i][k]) * Fraction(col[k]) for k in range(K)) + Fraction(C[i][j])
            if sat:
                s = max(-2**31, min(2**31 - 1, s))
            D[i][j] = s
    return D

def d_word(dtype, D, tid, i):
    """Register i of thread tid's D fragment: one element, or (f16) elements 2i, 2i + 1."""
    if dtype != 'f16':
        r, c = d_place(tid, i)
        return d_bits(dtype, D[r][c])
    word = 0
    for h in range(2):
        r, c = d_place(tid, 2 * i + h)
        word |= f16_bits(D[r][c]) << (16 * h)
    return word

def d_bits(dtype, v):
    if dtype == 'f32':
        return f32_bits(v)
    assert v == int(v)
    return int(v) & 0xffffffff

# ---- the kernel ----

def ptx(name, case):
    t, n, k, dt = case['type'], case['n'], case['k'], case['dtype']
    regs = n // 4 if dt == 'f16' else n // 2
    a_desc = case['a'] != 'regs'
    sizes = case['sizes']                     # bytes of A's image (0 with A in registers), B's
    total = sum(sizes)
    out = []
    emit = out.append
    params = ['.param .u64 p_img', '.param .u64 p_out']
    if not a_desc: params.append('.param .u64 p_afrag')
    if case.get('dinit'): params.append('.param .u64 p_dinit')
    emit('.version 8.4\n.target sm_90a\n.address_size 64\n')
    emit('.visible .entry %s(%s)\n{' % (name, ', '.join(params)))
    emit('  .reg .pred %p<4>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<40>;')
    emit('  .reg .%s %%d<%d>;' % ('f32' if dt == 'f32' else 'b32', regs))
    emit('  .shared .align 1024 .b8 smem[%d];' % total)
    emit('  mov.u32 %r0, %tid.x;')
    emit('  ld.param.u64 %rd1, [p_img];\n  cvta.to.global.u64 %rd1, %rd1;')
    emit('  mov.u32 %r30, smem;')
    emit('  shl.b32 %r1, %r0, 4;')
    emit('$copy:\n  setp.ge.u32 %%p0, %%r1, %d;\n  @%%p0 bra $copied;' % total)
    emit('  cvt.u64.u32 %rd2, %r1;\n  add.u64 %rd3, %rd1, %rd2;')
    emit('  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd3];')
    emit('  add.u32 %r6, %r30, %r1;\n  st.shared.v4.u32 [%r6], {%r2, %r3, %r4, %r5};')
    emit('  add.u32 %r1, %r1, 2048;\n  bra.uni $copy;\n$copied:')
    emit('  bar.sync 0;\n  fence.proxy.async.shared::cta;')
    # descriptors: ((addr & 0x3ffff) >> 4) | lbo >> 4 << 16 | sbo >> 4 << 32 | swizzle << 62
    swz = {'none': 0, '128B': 1, '64B': 2, '32B': 3}
    def desc(reg, offset, lbo, sbo, mode):
        high = (lbo >> 4) << 16 | (sbo >> 4) << 32 | swz[mode] << 62
        emit('  add.u32 %%r7, %%r30, %d;\n  and.b32 %%r7, %%r7, 262143;\n  shr.u32 %%r7, %%r7, 4;' % offset)
        emit('  cvt.u64.u32 %s, %%r7;\n  or.b64 %s, %s, 0x%016x;' % (reg, reg, reg, high))
    if a_desc:
        desc('%rd10', 0, case['a_lbo'], case['a_sbo'], case['a_mode'])
    desc('%rd11', sizes[0], case['b_lbo'], case['b_sbo'], case['b_mode'])
    if not a_desc:
        emit('  ld.param.u64 %rd4, [p_afrag];\n  cvta.to.global.u64 %rd4, %rd4;')
        emit('  mul.wide.u32 %rd5, %r0, 16;\n  add.u64 %rd4, %rd4, %rd5;')
        emit('  ld.global.v4.u32 {%r10, %r11, %r12, %r13}, [%rd4];')
    dregs = '{' + ', '.join('%%d%d' % i for i in range(regs)) + '}'
    if case.get('dinit'):
        emit('  ld.param.u64 %rd6, [p_dinit];\n  cvta.to.global.u64 %rd6, %rd6;')
        emit('  mul.wide.u32 %%rd7, %%r0, %d;\n  add.u64 %%rd6, %%rd6, %%rd7;' % (4 * regs))
        for i in range(regs):
            emit('  ld.global.%s %%d%d, [%%rd6+%d];' % ('f32' if dt == 'f32' else 'u32', i, 4 * i))
        emit('  setp.ne.u32 %p1, %r0, 1000;')   # scale-d: a predicate, true
    emit('  wgmma.fence.sync.aligned;')
    shape = 'm64n%dk%d' % (n, k)
    types = {'f16': '.%s.f16.f16', 'bf16': '.%s.bf16.bf16', 'tf32': '.%s.tf32.tf32',
             's8': '.%s.s8.s8', 'u8s8': '.%s.u8.s8', 'b1': '.%s.b1.b1.and.popc'}[case['form']] % dt
    sat = '.satfinite' if case.get('sat') else ''
    for s in range(case.get('ksteps', 1)):
        if s and a_desc:
            emit('  add.s64 %rd10, %rd10, 2;')  # K-major swizzled: the next 32 bytes of K
        if s:
            emit('  add.s64 %rd11, %rd11, 2;')
        a = '%rd10' if a_desc else '{%r10, %r11, %r12, %r13}'
        scale_d = '%p1' if case.get('dinit') else ('1' if s else '0')
        tail = ''
        if t in ('f16', 'bf16', 'tf32'):
            tail = ', %d, %d' % (case.get('scale_a', 1), case.get('scale_b', 1))
            if t != 'tf32':
                tail += (', %d, %d' % (case.get('trans_a', 0), case.get('trans_b', 0)) if a_desc
                         else ', %d' % case.get('trans_b', 0))
        emit('  wgmma.mma_async.sync.aligned.%s%s%s %s, %s, %%rd11, %s%s;' % (shape, sat, types, dregs, a, scale_d, tail))
    emit('  wgmma.commit_group.sync.aligned;')
    if case.get('early_store'):
        store(emit, regs, dt)
        emit('  wgmma.wait_group.sync.aligned 0;')
    else:
        emit('  wgmma.wait_group.sync.aligned 0;')
        store(emit, regs, dt)
    emit('  ret;\n}')
    return '\n'.join(out) + '\n'

def store(emit, regs, dt):
    emit('  ld.param.u64 %rd8, [p_out];\n  cvta.to.global.u64 %rd8, %rd8;')
    emit('  mul.wide.u32 %%rd9, %%r0, %d;\n  add.u64 %%rd8, %%rd8, %%rd9;' % (4 * regs))
    for i in range(regs):
        emit('  st.global.%s [%%rd8+%d], %%d%d;' % ('f32' if dt == 'f32' else 'u32', 4 * i, i))

# ---- the cases ----

def hexs(words):
    return ['0x%08x' % w for w in words]

def words_of(b):
    return [int.from_bytes(b[i:i + 4], 'little') for i in range(0, len(b), 4)]

def write(name, case, A, B, C=None):
    """A: 64 x K logical, B: K x N logical; C: 64 x N initial D (dinit) or None."""
    t, n, k, dt = case['type'], case['n'], case['k'], case['dtype']
    K = len(A[0])
    regs = n // 4 if dt == 'f16' else n // 2
    per = 2 if dt == 'f16' else 1
    # B's image: K-major stores B^T (N rows of K), MN-major B (K rows of N) by MN index
    Bt = [[B[kk][j] for kk in range(K)] for j in range(n)]
    imgs = []
    if case['a'] != 'regs':
        amaj = 'MN' if case.get('trans_a') else 'K'
        imgs.append(image(A, t, case['a_mode'], amaj, 0))
    else:
        imgs.append(bytearray())
    bmaj = 'MN' if case.get('trans_b') else 'K'
    imgs.append(image(Bt, t, case['b_mode'], bmaj, len(imgs[0])))
    case['sizes'] = [len(i) for i in imgs]
    img = imgs[0] + imgs[1]
    while len(img) % 16:
        img += b'\0'
    # the model's A and B carry the signs of imm-scale
    sa, sb = case.get('scale_a', 1), case.get('scale_b', 1)
    Am = [[x * sa for x in row] for row in A]
    Bm = [[x * sb for x in row] for row in B]
    Cm = C if C is not None else [[0] * n for _ in range(64)]
    D = product(Am, Bm, Cm, 'b1' if t == 'b1' else 'num', case.get('sat', False), case.get('round', False))
    params = ['@img', '@out']
    buffers = {'img': {'type': 'b32', 'data': hexs(words_of(img))},
               'out': {'type': 'b32', 'data': ['0x00000000'] * (128 * regs)}}
    if case['a'] == 'regs':
        params.append('@afrag')
        buffers['afrag'] = {'type': 'b32', 'data': hexs(sum((a_regs(A, t, tid) for tid in range(128)), []))}
    if C is not None:
        params.append('@dinit')
        init = []
        for tid in range(128):
            for i in range(regs):
                init.append(d_word(dt, C, tid, i))
        buffers['dinit'] = {'type': 'b32', 'data': hexs(init)}
    expect = []
    for tid in range(128):
        for i in range(regs):
            expect.append(None if case.get('early_store') else d_word(dt, D, tid, i))
    lanes = {'block': [128, 1, 1], 'grid': [1, 1, 1], 'params': params, 'buffers': buffers}
    exp = {'buffers': {'out': [None if e is None else '0x%08x' % e for e in expect]}}
    if case.get('diagnostic'):
        exp['diagnostic'] = case['diagnostic']
    with open(os.path.join(HERE, name + '.ptx'), 'w') as f:
        f.write(ptx(name, case))
    with open(os.path.join(HERE, name + '.lanes.json'), 'w') as f:
        json.dump(lanes, f)
    with open(os.path.join(HERE, name + '.expect.json'), 'w') as f:
        json.dump(exp, f)

def main():
    rnd = random.Random(37)
    small = lambda: rnd.choice([-2, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3])
    # 1. f16 m64n64k16, A and B by descriptors in 128B swizzle, K = 64 (4 wgmma stepping the
    #    start address through the swizzle atom), f32 D.
    A = [[small() for _ in range(64)] for _ in range(64)]
    B = [[small() for _ in range(64)] for _ in range(64)]
    base = dict(type='f16', form='f16', n=64, k=16, dtype='f32', a='desc', a_mode='128B', b_mode='128B',
                a_lbo=16, a_sbo=1024, b_lbo=16, b_sbo=1024, ksteps=4)
    write('wgmma_f16_sw128', dict(base), A, B)
    # 1b. the same with D read before wgmma.wait_group: undefined, and each read warns (the
    #     three wgmma.mma_async after the first read D in flight too: the ISA's accumulator chain,
    #     no warning)
    write('wgmma_f16_nowait', dict(base, early_store=True,
                                   diagnostic='which the wgmma.mma_async at line 50 writes, before wgmma.wait_group '
                                              'completes it'), A, B)
    # 2. bf16, A from registers, B N-major (imm-trans-b 1) in 64B swizzle, N = 64, K = 16
    A = [[small() for _ in range(16)] for _ in range(64)]
    B = [[small() for _ in range(64)] for _ in range(16)]
    write('wgmma_bf16_regs', dict(type='bf16', form='bf16', n=64, k=16, dtype='f32', a='regs', b_mode='64B',
                                  b_lbo=512, b_sbo=1024, trans_b=1), A, B)
    # 3. f16 with f16 D, A M-major (imm-trans-a 1) and B K-major, both 32B swizzle, imm-scale-b -1, N = 16
    A = [[small() for _ in range(16)] for _ in range(64)]
    B = [[small() for _ in range(16)] for _ in range(16)]
    write('wgmma_f16_trans', dict(type='f16', form='f16', n=16, k=16, dtype='f16', a='desc', a_mode='32B',
                                  b_mode='32B', trans_a=1, a_lbo=256, a_sbo=1024, b_lbo=16, b_sbo=256, scale_b=-1), A, B)
    # 4. tf32 m64n16k8, no swizzle (interleaved core matrices), imm-scale-a -1
    A = [[small() for _ in range(8)] for _ in range(64)]
    B = [[small() for _ in range(16)] for _ in range(8)]
    write('wgmma_tf32', dict(type='tf32', form='tf32', n=16, k=8, dtype='f32', a='desc', a_mode='none',
                             b_mode='none', a_lbo=1024, a_sbo=128, b_lbo=256, b_sbo=128, scale_a=-1), A, B)
    # 5. u8 x s8 .satfinite m64n24k32, 32B swizzle, D from registers (scale-d a predicate), some
    #    sums past the s32 range
    A = [[rnd.randrange(256) for _ in range(32)] for _ in range(64)]
    B = [[rnd.randrange(-128, 128) for _ in range(24)] for _ in range(32)]
    C = [[rnd.choice([0, 5, -7, 2**31 - 100, -2**31 + 100]) for _ in range(24)] for _ in range(64)]
    write('wgmma_u8s8_sat', dict(type='u8', form='u8s8', n=24, k=32, dtype='s32', a='desc', a_mode='32B',
                                 b_mode='32B', a_lbo=16, a_sbo=256, b_lbo=16, b_sbo=256, sat=True, dinit=True),
          A, B, C)
    # 6. b1 .and.popc m64n8k256, A from registers, B no swizzle
    A = [[rnd.randrange(2) for _ in range(256)] for _ in range(64)]
    B = [[rnd.randrange(2) for _ in range(8)] for _ in range(256)]
    write('wgmma_b1', dict(type='b1', form='b1', n=8, k=256, dtype='s32', a='regs', b_mode='none',
                           b_lbo=128, b_sbo=256), A, B)
    # 7. s8 m64n256k32 (the widest N), no swizzle
    A = [[rnd.randrange(-128, 128) for _ in range(32)] for _ in range(64)]
    B = [[rnd.randrange(-128, 128) for _ in range(256)] for _ in range(32)]
    write('wgmma_s8_n256', dict(type='s8', form='s8', n=256, k=32, dtype='s32', a='desc', a_mode='none',
                                b_mode='none', a_lbo=1024, a_sbo=128, b_lbo=4096, b_sbo=128), A, B)
    # 7b. f16, A and B MN-major (imm-trans 1) without swizzle, N = 32; bf16 K-major in 64B swizzle
    #     (K = 16 fills half of each 64-byte row), N = 48
    A = [[small() for _ in range(16)] for _ in range(64)]
    B = [[small() for _ in range(32)] for _ in range(16)]
    write('wgmma_f16_mn_none', dict(type='f16', form='f16', n=32, k=16, dtype='f32', a='desc', a_mode='none',
                                    b_mode='none', trans_a=1, trans_b=1, a_lbo=1024, a_sbo=128, b_lbo=512,
                                    b_sbo=128), A, B)
    A = [[small() for _ in range(16)] for _ in range(64)]
    B = [[small() for _ in range(48)] for _ in range(16)]
    write('wgmma_bf16_sw64', dict(type='bf16', form='bf16', n=48, k=16, dtype='f32', a='desc', a_mode='64B',
                                  b_mode='64B', a_lbo=16, a_sbo=512, b_lbo=16, b_sbo=512), A, B)
    # 7c. A from registers for tf32 (B 128B swizzle, N = 24) and s8 (B 64B swizzle, N = 16)
    A = [[small() for _ in range(8)] for _ in range(64)]
    B = [[small() for _ in range(24)] for _ in range(8)]
    write('wgmma_tf32_regs', dict(type='tf32', form='tf32', n=24, k=8, dtype='f32', a='regs', b_mode='128B',
                                  b_lbo=16, b_sbo=1024), A, B)
    A = [[rnd.randrange(-128, 128) for _ in range(32)] for _ in range(64)]
    B = [[rnd.randrange(-128, 128) for _ in range(16)] for _ in range(32)]
    write('wgmma_s8_regs', dict(type='s8', form='s8', n=16, k=32, dtype='s32', a='regs', b_mode='64B',
                                b_lbo=16, b_sbo=512), A, B)
    # 8. the tensor-core rule: C = 1 (dinit) and 16 products of 2^-26 (cut at 2^-25: D = 1, not
    #    1 + 2^-22); other elements mixed magnitudes.
    A = [[Fraction(1, 2**13) if i < 8 else rnd.choice([1, 2**-12, 3 * 2**-14, -1]) for _ in range(16)] for i in range(64)]
    B = [[Fraction(1, 2**13) if j < 4 else rnd.choice([1, 2**-12, -2**-13, 0.5]) for j in range(8)] for _ in range(16)]
    C = [[1 if (i + j) % 3 else Fraction(-3, 2**20) for j in range(8)] for i in range(64)]
    write('wgmma_f16_round', dict(type='f16', form='f16', n=8, k=16, dtype='f32', a='desc', a_mode='none',
                                  b_mode='none', a_lbo=1024, a_sbo=128, b_lbo=128, b_sbo=256, dinit=True,
                                  round=True, diagnostic='its bits depend on how the tensor core sums'), A, B, C)

if __name__ == '__main__':
    main()
