#!/usr/bin/env python3
"""A second model of the H100's f16 / bf16 / tf32 mma arithmetic (a review's, written apart from
exec/mmafloat.c and scripts/mma_float_model.py: exact rationals, from the PTX ISA, the H100 data's
README and Khattak and Mikaitis's paper), and a fuzzer that compares ptxrun with it.

    python3 scripts/mma_float_fuzz.py hw [DIR] [choice=value ...]   the recorded programs
    python3 scripts/mma_float_fuzz.py fuzz SEED ROUNDS [choice=value ...]   random programs

Choices (docs/semantics.md, "mma", the ones no recording decides): zero_sign=ieee|plus|c (a sum of
zero terms only: -0 when all are -0 | +0 | C's sign), f16c_emin=f16|f32 (a subnormal f16 C aligned
by f16's smallest exponent | its leading bit), f16d=direct|viaf32, ovf=inf|max, p=25, floor=-133.
ptxrun's choices: zero_sign=plus (the default here is ieee, so its -0 sums show as differences).
"""
import glob
import json
import os
import random
import subprocess
import sys
import tempfile
from fractions import Fraction as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PTXRUN = os.environ.get('PTXRUN', os.path.join(ROOT, 'build', 'ptxrun'))
TMP = tempfile.mkdtemp(prefix='mmafuzz')
FMT = {'f16': (5, 10, 16), 'bf16': (8, 7, 16), 'tf32': (8, 10, 32), 'f32': (8, 23, 32)}
OPT = dict(p=25, f16c_emin='f16', zero_sign='ieee', f16d='direct', ovf='inf')

def decode(bits, t):
    eb, mb, w = FMT[t]
    if t == 'tf32':
        bits &= 0xffffe000; eb, mb = 8, 23
    bias = (1 << (eb - 1)) - 1
    s = (bits >> (eb + mb)) & 1
    e = (bits >> mb) & ((1 << eb) - 1)
    m = bits & ((1 << mb) - 1)
    if e == (1 << eb) - 1:
        return ('nan', s) if m else ('inf', s)
    if e == 0:
        v = F(m, 1 << mb) * F(2) ** (1 - bias)
        ex = 1 - bias
    else:
        v = (1 + F(m, 1 << mb)) * F(2) ** (e - bias)
        ex = e - bias
    return ('fin', s, -v if s else v, ex)

def encode(v, t, mode, neg_zero=False, ovf='inf'):
    eb, mb, w = FMT[t]
    bias = (1 << (eb - 1)) - 1
    emin = 1 - bias
    if v == 0:
        return (1 << (w - 1)) if neg_zero else 0
    s = 1 if v < 0 else 0
    a = abs(v)
    e = max(floor_log2(a), emin)
    q = F(2) ** (e - mb)
    n = a / q
    fl = n.numerator // n.denominator
    r = n - fl
    if mode == 'rz':
        k = fl
    else:
        if r > F(1, 2) or (r == F(1, 2) and fl & 1):
            k = fl + 1
        else:
            k = fl
    # k * q
    val = k * q
    if val == 0:
        return s << (w - 1)
    e2 = max(floor_log2(val), emin)
    if e2 > bias:
        if mode == 'rz' and ovf == 'max':
            return (s << (w - 1)) | (((1 << eb) - 2) << mb) | ((1 << mb) - 1)
        return (s << (w - 1)) | (((1 << eb) - 1) << mb)
    mant = val / F(2) ** (e2 - mb)
    assert mant.denominator == 1
    mant = mant.numerator
    if mant < (1 << mb):
        return (s << (w - 1)) | mant
    return (s << (w - 1)) | ((e2 + bias) << mb) | (mant - (1 << mb))

def floor_log2(a):
    n, d = a.numerator, a.denominator
    e = n.bit_length() - d.bit_length()
    if F(2) ** e > a:
        e -= 1
    if F(2) ** (e + 1) <= a:
        e += 1
    return e

NAN = {'f32': 0x7fffffff, 'f16': 0x7fff}

def dot(at, ct, dt, a, b, c, opt=OPT):
    """a, b: lists of raw bits; c raw bits. returns D raw bits."""
    A = [decode(x, at) for x in a]
    B = [decode(x, at) for x in b]
    C = decode(c, ct)
    nan = False; pinf = ninf = False
    terms = []
    for x, y in zip(A, B):
        if x[0] == 'nan' or y[0] == 'nan':
            nan = True; continue
        if x[0] == 'inf' or y[0] == 'inf':
            other = y if x[0] == 'inf' else x
            if other[0] == 'fin' and other[2] == 0:
                nan = True; continue
            sgn = x[1] ^ y[1]
            if sgn: ninf = True
            else: pinf = True
            continue
        terms.append((x[2] * y[2], x[3] + y[3], x[1] ^ y[1]))
    if C[0] == 'nan': nan = True
    elif C[0] == 'inf':
        if C[1]: ninf = True
        else: pinf = True
    if nan or (pinf and ninf):
        return NAN[dt]
    if pinf or ninf:
        return encode(F(-1 if ninf else 1) * F(2) ** 300, dt, 'rn')
    cv = C[2]
    cex = C[3]
    if ct == 'f16' and opt['f16c_emin'] == 'f32' and cv != 0:
        cex = floor_log2(abs(cv))
    allt = terms + [(cv, cex, C[1])]
    nz = [t for t in allt if t[0] != 0]
    if not nz:
        if opt['zero_sign'] == 'ieee':
            neg = all(t[2] for t in allt)
        elif opt['zero_sign'] == 'c':
            neg = bool(C[1])
        else:
            neg = False
        return encode(F(0), dt, 'rz', neg_zero=neg)
    E = max(t[1] for t in nz)
    if opt.get('floor') is not None:
        E = max(E, opt['floor'])
    q = F(2) ** (E - opt['p'])
    S = F(0)
    for v, ex, s in nz:
        n = abs(v) / q
        tr = (n.numerator // n.denominator) * q
        S += -tr if v < 0 else tr
    if S == 0:
        neg = False
        if opt['zero_sign'] == 'ieee_rz':
            neg = False
        return encode(F(0), dt, 'rz', neg_zero=neg)
    if dt == 'f32':
        return encode(S, 'f32', 'rz', ovf=opt['ovf'])
    if opt['f16d'] == 'direct':
        return encode(S, 'f16', 'rn')
    # via f32 RZ
    f = encode(S, 'f32', 'rz', ovf=opt['ovf'])
    d = decode(f, 'f32')
    if d[0] == 'inf':
        return 0xfc00 if d[1] else 0x7c00
    return encode(d[2], 'f16', 'rn', neg_zero=bool(d[1]))
HW = os.path.join(ROOT, '..', 'shared', 'hw', 'mma')
def lay(form, which, lane, i):
    g, t = lane >> 2, lane & 3
    m, n, k = form['shape']
    at = form['types']['a']
    if which == 'c':
        return g + 8 * (i >> 1), 2 * t + (i & 1)
    if at in ('f16', 'bf16'):
        if k == 16:
            if which == 'a': return g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)
            return 2 * t + (i & 1) + 8 * (i >> 1), g
        if which == 'a': return g + 8 * (i >> 1), 2 * t + (i & 1)
        return 2 * t + i, g
    if k == 8:
        if which == 'a': return g + 8 * (i & 1), t + 4 * (i >> 1)
        return t + 4 * i, g
    if which == 'a': return g + 8 * i, t
    return t, g

def width(ty): return 32 if ty in ('tf32', 'f32') else 16

def gather(meta, regs, which, ty, val):
    m, n, k = meta['shape']
    rows, cols = {'a': (m, k), 'b': (k, n), 'c': (m, n)}[which]
    M = [[None] * cols for _ in range(rows)]
    w = width(ty); per = 32 // w
    for lane in range(32):
        for ri, r in enumerate(regs):
            word = val(r, lane)
            for j in range(per):
                i = ri * per + j
                rr, cc = lay(meta, which, lane, i)
                M[rr][cc] = (word >> (w * j)) & ((1 << w) - 1)
    return M

def run_case(path, opt=OPT, verbose=False):
    meta = json.load(open(path + '.meta.json'))
    lanes = json.load(open(path + '.lanes.json'))
    exp = json.load(open(path + '.expect.json'))
    i32 = [int(x, 16) for x in lanes['buffers']['i32']['data']]
    o32 = [int(x, 16) for x in exp['buffers']['o32']]
    def val(r, lane):
        if r in meta['inputs']:
            b, s = meta['inputs'][r]; return i32[s * 32 + lane]
        b, s = meta['slots'][r]; return o32[s * 32 + lane]
    ty = meta['types']
    res = []
    for st in meta['steps']:
        A = gather(meta, st['A'], 'a', ty['a'], val)
        B = gather(meta, st['B'], 'b', ty['b'], val)
        C = gather(meta, st['C'], 'c', ty['c'], val)
        D = gather(meta, st['D'], 'c', ty['d'], val)
        m, n, k = meta['shape']
        for i in range(m):
            for j in range(n):
                got = dot(ty['a'], ty['c'], ty['d'], A[i], [B[kk][j] for kk in range(k)], C[i][j], opt)
                res.append((got == D[i][j], i, j, got, D[i][j], A[i], [B[kk][j] for kk in range(k)], C[i][j]))
    return meta, res
FORMS = [  # (shape k, atype, ctype, dtype)
    (16, 'f16', 'f32', 'f32'), (16, 'f16', 'f16', 'f16'), (16, 'bf16', 'f32', 'f32'),
    (8, 'f16', 'f32', 'f32'), (8, 'f16', 'f16', 'f16'), (8, 'bf16', 'f32', 'f32'),
    (8, 'tf32', 'f32', 'f32'), (4, 'tf32', 'f32', 'f32')]
def nregs(k, t, which):
    m, n = 16, 8
    cnt = {'a': m * k, 'b': k * n, 'c': m * n}[which] // 32
    return cnt // (32 // width(t))

def rand_val(t, r, style):
    eb, mb, w = FMT[t]
    if t == 'tf32': eb, mb = 8, 23
    bias = (1 << (eb - 1)) - 1
    s = r.getrandbits(1)
    x = r.random()
    if style.get('zero') and r.random() < style['zero']:
        return s << (w - 1)
    specials = style.get('spec', 0.05)
    if x < specials:
        c = r.randrange(8)
        if c == 0: return (s << (w - 1))  # zero
        if c == 1: return (s << (w - 1)) | (((1 << eb) - 1) << mb)  # inf
        if c == 2: return (s << (w - 1)) | (((1 << eb) - 1) << mb) | r.randrange(1, 1 << mb)  # nan payload
        if c == 3: return (s << (w - 1)) | (((1 << eb) - 2) << mb) | ((1 << mb) - 1)  # max
        if c == 4: return (s << (w - 1)) | 1  # min subnormal
        if c == 5: return (s << (w - 1)) | (1 << mb)  # min normal
        return (s << (w - 1)) | r.randrange(1, 1 << mb)  # subnormal
    lo, hi = style.get('erange', (1, (1 << eb) - 2))
    e = r.randint(max(0, lo), min((1 << eb) - 2, hi))
    m = r.getrandbits(mb)
    if style.get('short'):  # few mantissa bits: ties and exact cancels
        m &= ~((1 << max(0, mb - style['short'])) - 1)
    v = (s << (w - 1)) | (e << mb) | m
    if t == 'tf32' and style.get('raw'):
        v |= r.getrandbits(13)
    return v

def make_ptx(form, steps):
    k, at, ct, dt = form
    na, nb, nc, nd = nregs(k, at, 'a'), nregs(k, at, 'b'), nregs(k, ct, 'c'), nregs(k, dt, 'c')
    per = na + nb + nc
    L = ['.version 8.7', '.target sm_90', '.address_size 64',
         '.visible .entry k(.param .u64 p_i32, .param .u64 p_o32)', '{',
         '  .reg .b32 %%a<%d>;' % (per * steps), '  .reg .b32 %%r<%d>;' % (nd * steps),
         '  .reg .u64 %bi, %bo, %off;', '  .reg .u32 %lane;',
         '  mov.u32 %lane, %tid.x;', '  ld.param.u64 %bi, [p_i32];', '  cvta.to.global.u64 %bi, %bi;',
         '  mul.wide.u32 %off, %lane, 4;', '  add.s64 %bi, %bi, %off;',
         '  ld.param.u64 %bo, [p_o32];', '  cvta.to.global.u64 %bo, %bo;', '  add.s64 %bo, %bo, %off;']
    ins = 'mma.sync.aligned.m16n8k%d.row.col.%s.%s.%s.%s' % (k, dt, at, at, ct)
    for s in range(steps):
        base = s * per
        for i in range(per):
            L.append('  ld.global.b32 %%a%d, [%%bi+%d];' % (base + i, (base + i) * 128))
        a = ['%%a%d' % (base + i) for i in range(na)]
        b = ['%%a%d' % (base + na + i) for i in range(nb)]
        c = ['%%a%d' % (base + na + nb + i) for i in range(nc)]
        d = ['%%r%d' % (s * nd + i) for i in range(nd)]
        L.append('  %s {%s}, {%s}, {%s}, {%s};' % (ins, ', '.join(d), ', '.join(a), ', '.join(b), ', '.join(c)))
        for i in range(nd):
            L.append('  st.global.b32 [%%bo+%d], %%r%d;' % ((s * nd + i) * 128, s * nd + i))
    L += ['  ret;', '}']
    return '\n'.join(L) + '\n', per, nd

def run(form, steps, r, style, tag, opt=OPT):
    k, at, ct, dt = form
    ptx, per, nd = make_ptx(form, steps)
    words = []
    for s in range(steps):
        for ri in range(per):
            for lane in range(32):
                t = at if ri < nregs(k, at, 'a') + nregs(k, at, 'b') else ct
                if width(t) == 16:
                    words.append(rand_val(t, r, style) | (rand_val(t, r, style) << 16))
                else:
                    words.append(rand_val(t, r, style))
    # word index: (s*per+ri)*32+lane -> reorder
    data = [0] * (steps * per * 32)
    idx = 0
    for s in range(steps):
        for ri in range(per):
            for lane in range(32):
                data[(s * per + ri) * 32 + lane] = words[idx]; idx += 1
    lanes = {'block': [32, 1, 1], 'grid': [1, 1, 1], 'params': ['@i32', '@o32'],
             'buffers': {'i32': {'type': 'b32', 'data': ['0x%08x' % x for x in data]},
                         'o32': {'type': 'b32', 'count': steps * nd * 32}}}
    d = TMP
    open(d + '/%s.ptx' % tag, 'w').write(ptx)
    json.dump(lanes, open(d + '/%s.lanes.json' % tag, 'w'))
    p = subprocess.run([PTXRUN, '--json', '-w', '--lanes', d + '/%s.lanes.json' % tag, d + '/%s.ptx' % tag], capture_output=True, text=True)
    if p.returncode != 0:
        print('ptxrun rc', p.returncode, p.stderr[:500]); return None
    out = json.loads(p.stdout)['buffers']['o32']['data']
    out = [int(x, 16) for x in out]
    meta = {'shape': [16, 8, k], 'types': {'a': at, 'b': at, 'c': ct, 'd': dt}}
    bad = []
    for s in range(steps):
        na, nb = nregs(k, at, 'a'), nregs(k, at, 'b')
        regs = lambda lo, n: ['i%d' % (s * per + lo + i) for i in range(n)]
        def val(rn, lane):
            if rn[0] == 'i': return data[int(rn[1:]) * 32 + lane]
            return out[int(rn[1:]) * 32 + lane]
        A = gather(meta, regs(0, na), 'a', at, val)
        B = gather(meta, regs(na, nb), 'b', at, val)
        C = gather(meta, regs(na + nb, per - na - nb), 'c', ct, val)
        D = gather(meta, ['o%d' % (s * nd + i) for i in range(nd)], 'c', dt, val)
        for i in range(16):
            for j in range(8):
                col = [B[kk][j] for kk in range(k)]
                want = dot(at, ct, dt, A[i], col, C[i][j], opt)
                if want != D[i][j]:
                    bad.append((form, hex(want), hex(D[i][j]), [hex(x) for x in A[i]], [hex(x) for x in col], hex(C[i][j])))
    return bad
STYLES = {
  'normal': dict(spec=0.0, erange=(100, 150)),
  'wide': dict(spec=0.02),
  'special': dict(spec=0.3),
  'sub': dict(spec=0.6),
  'short': dict(spec=0.05, short=2, erange=(110, 140)),
  'tiny': dict(spec=0.1, erange=(1, 40)),
  'huge': dict(spec=0.1, erange=(200, 254)),
  'raw': dict(spec=0.05, raw=1, erange=(100, 150)),
  'zeros': dict(spec=0.05, zero=0.7, short=1, erange=(120, 130)),
  'subzero': dict(spec=0.6, zero=0.5),
  'tinyshort': dict(spec=0.1, short=1, erange=(1, 40)),
}


def main():
    args = sys.argv[1:]
    if not args or args[0] not in ('hw', 'fuzz'):
        sys.exit(__doc__)
    opt = dict(OPT)
    rest = [a for a in args[1:] if '=' not in a]
    for a in args[1:]:
        if '=' in a:
            k, v = a.split('=')
            opt[k] = int(v) if v.lstrip('-').isdigit() else v
    if args[0] == 'hw':
        folder = rest[0] if rest else HW
        tot = bad = 0
        for f in sorted(glob.glob(os.path.join(folder, 'mma_f*.meta.json'))):
            p = f[:-10]
            if any(t in p for t in ('e4m3', 'e5m2', 'f64')):
                continue
            meta, res = run_case(p, opt)
            for r in res:
                tot += 1
                if not r[0]:
                    bad += 1
                    if bad <= 10:
                        print('differs:', os.path.basename(p), meta['flavor'], 'row', r[1], 'col', r[2],
                              'model', hex(r[3]), 'H100', hex(r[4]))
        print('recorded D elements', tot, 'the model differs on', bad)
        return
    r = random.Random(int(rest[0]))
    total = 0
    for _ in range(int(rest[1])):
        for form in FORMS:
            for sn, st in STYLES.items():
                if sn == 'raw' and form[1] != 'tf32':
                    continue
                st = dict(st)
                if form[1] == 'f16' and 'erange' in st:
                    lo, hi = st['erange']
                    st['erange'] = (max(1, (lo - 127) // 8 + 15), min(30, (hi - 127) // 8 + 15))
                bad = run(form, 4, r, st, 'x', opt)
                total += 1
                for b in bad[:3]:
                    print('differs', sn, b)
    print('programs', total)


if __name__ == '__main__':
    main()
