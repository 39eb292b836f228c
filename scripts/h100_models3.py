#!/usr/bin/env python3
"""Models of two rules the H100 showed in tests/h100_more/disagree (cases3 runs, README.md "cases3"),
written apart from ptxrun, in exact rational arithmetic; each compares its predictions with the
H100's recorded buffers (the expect files). Needs no GPU.

    scripts/h100_models3.py tests/h100_more/disagree     (fmad_* are in cases3/ since ptxrun fuses)

- contract(fmad_contract): for each mul + add/sub pair, which lanes match one rounding (fma.rn)
  and which two (mul, then add).
- check(fmad_check): the rule "fused into one fma iff neither instruction has a rounding modifier",
  stated before the run (33 of 40 forms), and the rule refined from that run: "... and mul and
  add/sub agree on .ftz" (40 of 40 forms, every lane).
- oob(fma_oob, fma_oob_check): fma.rn.oob: a half whose a or b is +-0x7ff7 (the OOB-NaN, read off
  fma_oob_scan) gives +0, else a NaN operand gives 0x7fff, else fma.rn of the format.
"""
import json
import math
import os
import re
import struct
import sys
from fractions import Fraction as F

def rne(q, p, emin, emax):
    """round exact rational q to a binary format with p significand bits (incl. hidden),
    min normal exponent emin, max exponent emax; returns a python float (or inf)."""
    if q == 0:
        return 0.0
    s = -1 if q < 0 else 1
    q = abs(q)
    e = math.floor(math.log2(q.numerator) - math.log2(q.denominator))
    while F(2) ** e > q: e -= 1
    while F(2) ** (e + 1) <= q: e += 1
    e = max(e, emin)
    ulp = F(2) ** (e - p + 1)
    n = q / ulp
    fl = n.numerator // n.denominator
    rem = n - fl
    if rem > F(1, 2) or (rem == F(1, 2) and fl % 2 == 1):
        fl += 1
    v = fl * ulp
    if v >= F(2) ** (emax + 1):
        return s * math.inf
    return s * float(v)

FMT = {'f32': (24, -126, 127), 'f64': (53, -1022, 1023), 'f16': (11, -14, 15)}

def dec(bits, t):
    if t == 'f32': return struct.unpack('<f', struct.pack('<I', bits))[0]
    if t == 'f64': return struct.unpack('<d', struct.pack('<Q', bits))[0]
    return struct.unpack('<e', struct.pack('<H', bits))[0]

def enc(x, t):
    if t == 'f32': return struct.unpack('<I', struct.pack('<f', x))[0]
    if t == 'f64': return struct.unpack('<Q', struct.pack('<d', x))[0]
    return struct.unpack('<H', struct.pack('<e', x))[0]

def rnd(x, t):
    return rne(F(x), *FMT[t]) if math.isfinite(x) else x

def ftz(x, t):
    p, emin, emax = FMT[t]
    return math.copysign(0.0, x) if math.isfinite(x) and x != 0 and abs(x) < 2.0 ** emin else x

def op(kind, a, b, c, t, fused, flush=False):
    """kind: 'add' d=a*b+c, 'radd' c+a*b, 'sub' a*b-c, 'rsub' c-a*b"""
    if flush: a, b, c = ftz(a, t), ftz(b, t), ftz(c, t)
    sign = {'add': 1, 'radd': 1, 'sub': -1, 'rsub': 1}[kind]
    pm = -1 if kind == 'rsub' else 1
    if not all(map(math.isfinite, (a, b, c))):
        return None
    if fused:
        r = rne(pm * F(a) * F(b) + sign * F(c), *FMT[t])
    else:
        p = rne(F(a) * F(b), *FMT[t])
        if flush: p = ftz(p, t)
        if not math.isfinite(p): return None
        r = rne(pm * F(p) + sign * F(c), *FMT[t])
    return ftz(r, t) if flush else r


def contract(lanes_path, expect_path):
    lanes = json.load(open(lanes_path)); exp = json.load(open(expect_path))['buffers']
    A = [int(x, 16) for x in lanes['buffers']['in_a']['data']]
    B = [int(x, 16) for x in lanes['buffers']['in_b']['data']]
    C = [int(x, 16) for x in lanes['buffers']['in_c']['data']]
    n = len(A)
    out = {w: [int(x, 16) for x in exp['out%d' % w]] for w in (16, 32, 64)}
    # (name, width, slot, type, kind, flush, lanes) as in scripts/h100_more_gen3.py fmad_contract
    ins = [('mul.f32+add.f32', 32, 0, 'f32', 'add', False), ('mul.f32+add.f32 (c first)', 32, 1, 'f32', 'radd', False),
           ('mul.f32+sub.f32', 32, 2, 'f32', 'sub', False), ('mul.f32+sub.f32 (c - p)', 32, 3, 'f32', 'rsub', False),
           ('mul.ftz+add.ftz', 32, 4, 'f32', 'add', True), ('mul.rn+add', 32, 5, 'f32', 'add', False),
           ('mul+add.rn', 32, 6, 'f32', 'add', False),
           ('mul.f64+add.f64', 64, 0, 'f64', 'add', False), ('mul.f64+sub.f64 (c - p)', 64, 1, 'f64', 'rsub', False),
           ('mul.rn.f64+add.f64', 64, 2, 'f64', 'add', False),
           ('mul.f16+add.f16', 16, 0, 'f16', 'add', False), ('mul.ftz.f16+sub.ftz.f16', 16, 1, 'f16', 'sub', True)]
    for name, w, slot, t, kind, flush in ins:
        cnt = {'both': 0, 'fused only': 0, 'unfused only': 0, 'neither': 0}
        bad = []
        for i in range(n):
            if t == 'f64' and i % 2 == 0: continue
            if t == 'f32' and i % 4 != 0: continue
            if t == 'f16' and i % 4 != 2: continue
            m = {'f32': 0xffffffff, 'f64': (1 << 64) - 1, 'f16': 0xffff}[t]
            a, b, c = (dec(x & m, t) for x in (A[i], B[i], C[i]))
            g = out[w][slot * n + i] & m
            fu, un = op(kind, a, b, c, t, True, flush), op(kind, a, b, c, t, False, flush)
            if fu is None or un is None: continue
            fb, ub = enc(fu, t), enc(un, t)
            key = 'both' if g == fb == ub else 'fused only' if g == fb else 'unfused only' if g == ub else 'neither'
            cnt[key] += 1
            if key == 'neither': bad.append((i, hex(g), hex(fb), hex(ub)))
        print('%-28s %s %s' % (name, cnt, bad[:3]))

    def R32(q): return rne(F(q), *FMT['f32'])
    def fma32(a, b, c): return rne(F(a) * F(b) + F(c), *FMT['f32'])
    extra = {
      7: ('mul+add.sat', {'fused then sat': lambda a, b, c: min(max(fma32(a, b, c), 0.0), 1.0),
                          'unfused then sat': lambda a, b, c: min(max(R32(F(R32(F(a) * F(b))) + F(c)), 0.0), 1.0)}),
      8: ('p=a*b; f=p+c; d=f+p', {'unfused': lambda a, b, c: R32(F(R32(F(R32(F(a) * F(b))) + F(c))) + F(R32(F(a) * F(b)))),
                                  'd=fma(a,b,fma(a,b,c))': lambda a, b, c: fma32(a, b, fma32(a, b, c)),
                                  'd=fma(a,b,c)+R(ab)': lambda a, b, c: R32(F(fma32(a, b, c)) + F(R32(F(a) * F(b)))),
                                  'd=fma(a,b,R(R(ab)+c))': lambda a, b, c: fma32(a, b, R32(F(R32(F(a) * F(b))) + F(c)))}),
      9: ('p=a*b; q=-c*c; d=p+q', {'unfused': lambda a, b, c: R32(F(R32(F(a) * F(b))) + F(R32(-F(c) * F(c)))),
                                  'fma(a,b,R(-c*c))': lambda a, b, c: fma32(a, b, R32(-F(c) * F(c))),
                                  'fma(-c,c,R(ab))': lambda a, b, c: fma32(-c, c, R32(F(a) * F(b)))}),
      10: ('mul.f32 then mov', {'R(ab)': lambda a, b, c: R32(F(a) * F(b))}),
    }
    for slot, (name, cands) in extra.items():
        cnt = {k: 0 for k in cands}; tot = 0; none = []
        for i in range(0, n, 4):
            a, b, c = (dec(x & 0xffffffff, 'f32') for x in (A[i], B[i], C[i]))
            if not all(map(math.isfinite, (a, b, c))): continue
            g = out[32][slot * n + i]
            tot += 1
            def val(f):
                try:
                    return f(a, b, c)
                except (OverflowError, ValueError):
                    return math.nan
            hit = [k for k, f in cands.items() if (lambda v: math.isfinite(v) and enc(v, 'f32') == g)(val(f))]
            for k in hit: cnt[k] += 1
            if not hit: none.append(i)
        print('%-28s of %d: %s; none %s' % (name, tot, cnt, none[:5]))
    # f16x2: slot 11 of out32, lanes 2 mod 4, both halves
    cnt = {'fused': 0, 'unfused': 0}; tot = 0
    for i in range(2, n, 4):
        for h in (0, 1):
            a, b, c = (dec((x >> 16 * h) & 0xffff, 'f16') for x in (A[i], B[i], C[i]))
            g = (out[32][11 * n + i] >> 16 * h) & 0xffff
            tot += 1
            cnt['fused'] += enc(op('add', a, b, c, 'f16', True), 'f16') == g
            cnt['unfused'] += enc(op('add', a, b, c, 'f16', False), 'f16') == g
    print('mul.f16x2+add.f16x2 of', tot, cnt)


def check(lanes_path, expect_path, refined, verbose=False, show=False):
    l = json.load(open(lanes_path)); e = json.load(open(expect_path))['buffers']
    A = [int(x, 16) for x in l['buffers']['in_a']['data']]; B = [int(x, 16) for x in l['buffers']['in_b']['data']]
    C = [int(x, 16) for x in l['buffers']['in_c']['data']]; n = len(A)
    out = {w: [int(x, 16) for x in e['out%d' % w]] for w in (16, 32, 64) if 'out%d' % w in e}
    ptx = open(lanes_path.replace('.lanes.json', '.ptx')).read()
    ins = re.findall(r'    (mul\S* [^;]*; (add|sub)(\S*) %d(\d+), (%\w+), (%\w+));', ptx)
    slots = {16: 0, 32: 0, 64: 0}
    tot_ok = tot = 0
    for full, op, amods, w, s0, s1 in ins:
        w = int(w); slot = slots[w]; slots[w] += 1
        mmods = full.split()[0]
        t = mmods.split('.')[-1]
        mrn, arn = '.rn' in mmods, '.rn' in amods
        mftz, aftz, sat = '.ftz' in mmods, '.ftz' in amods, '.sat' in amods
        prod_first = s0.startswith('%e')
        fuse_pred = not mrn and not arn and (not refined or mftz == aftz)
        halves = [0, 1] if t == 'f16x2' else [0]
        bt = 'f16' if t.startswith('f16') else t
        m = {'f32': 0xffffffff, 'f64': (1 << 64) - 1, 'f16': 0xffff}[bt]
        cnt = {'fused': 0, 'unfused': 0, 'both': 0, 'neither': 0}
        for i in range(n):
            if bt == 'f64' and i % 2 == 0 or bt == 'f32' and i % 4 != 0 or bt == 'f16' and i % 4 != 2: continue
            for h in halves:
                sh = 16 * h
                a, b, c = (dec((x >> sh) & m, bt) for x in (A[i], B[i], C[i]))
                g = (out[w][slot * n + i] >> sh) & m
                kind = ('add' if prod_first else 'radd') if op == 'add' else ('sub' if prod_first else 'rsub')
                def calc(fused):
                    fa, fb, fc = (ftz(v, bt) if (mftz if k < 2 else aftz) else v for k, v in enumerate((a, b, c)))
                    if fused:
                        if aftz: fa, fb = ftz(fa, bt), ftz(fb, bt)
                        pm = -1 if kind == 'rsub' else 1
                        sg = -1 if kind == 'sub' else 1
                        r = rne(pm * F(fa) * F(fb) + sg * F(fc), *FMT[bt])
                    else:
                        p = rne(F(fa) * F(fb), *FMT[bt])
                        if mftz: p = ftz(p, bt)
                        if aftz: p = ftz(p, bt)
                        pm = -1 if kind == 'rsub' else 1
                        sg = -1 if kind == 'sub' else 1
                        r = rne(pm * F(p) + sg * F(fc), *FMT[bt])
                    if aftz: r = ftz(r, bt)
                    if sat: r = min(max(r, 0.0), 1.0) + 0.0   # .sat of -0 gives +0
                    return enc(r, bt)
                fu, un = calc(True), calc(False)
                k = 'both' if g == fu == un else 'fused' if g == fu else 'unfused' if g == un else 'neither'
                cnt[k] += 1
                if k == 'neither' and show: print('   lane', i, h, [hex((x >> sh) & m) for x in (A[i], B[i], C[i])], 'gpu', hex(g), 'fused', hex(fu), 'unfused', hex(un))
        pred_ok = cnt['neither'] == 0 and (cnt['unfused'] == 0 if fuse_pred else cnt['fused'] == 0)
        distinguishing = cnt['fused'] + cnt['unfused']
        tot += 1; tot_ok += pred_ok
        if verbose: print('%-70s pred=%-7s %s %s' % (full[:70], 'fused' if fuse_pred else 'unfused', cnt, 'OK' if pred_ok else 'MISS'))
    print('%s: forms predicted: %d of %d' % ('refined rule' if refined else 'rule stated before the run', tot_ok, tot))


HFMT = {'f16': (11, -14, 15, 5, 10), 'bf16': (8, -126, 127, 8, 7)}

def h_rne(q, p, emin, emax):
    if q == 0: return F(0)
    s = -1 if q < 0 else 1; q = abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    while F(2) ** e > q: e -= 1
    while F(2) ** (e + 1) <= q: e += 1
    e = max(e, emin); ulp = F(2) ** (e - p + 1); n = q / ulp
    fl = n.numerator // n.denominator; rem = n - fl
    if rem > F(1, 2) or (rem == F(1, 2) and fl % 2): fl += 1
    v = fl * ulp
    return s * v if v < F(2) ** (emax + 1) else s * math.inf

def h_dec(h, t):
    p, emin, emax, eb, mb = HFMT[t]
    s = -1 if h >> 15 else 1; e = (h >> mb) & ((1 << eb) - 1); m = h & ((1 << mb) - 1)
    if e == (1 << eb) - 1: return None if m else s * math.inf
    return s * (F(m, 1 << mb) * F(2) ** (emin) if e == 0 else (1 + F(m, 1 << mb)) * F(2) ** (e - (emax)))

def h_enc(v, t, neg0=False):
    p, emin, emax, eb, mb = HFMT[t]
    if v == math.inf: return ((1 << eb) - 1) << mb
    if v == -math.inf: return 0x8000 | ((1 << eb) - 1) << mb
    if v == 0: return 0x8000 if neg0 else 0
    s = 0x8000 if v < 0 else 0; v = abs(v)
    e = v.numerator.bit_length() - v.denominator.bit_length()
    while F(2) ** e > v: e -= 1
    while F(2) ** (e + 1) <= v: e += 1
    if e < emin: return s | int(v / F(2) ** emin * (1 << mb))
    return s | (e + emax) << mb | int((v / F(2) ** e - 1) * (1 << mb))

def oob_half(a, b, c, t, relu):
    if (a & 0x7fff) == 0x7ff7 or (b & 0x7fff) == 0x7ff7: return 0
    x, y, z = h_dec(a, t), h_dec(b, t), h_dec(c, t)
    if None in (x, y, z): return 0x7fff
    infs = [v for v in (x, y, z) if isinstance(v, float)]
    if infs or True:
        try:
            if (isinstance(x, float) and y == 0) or (isinstance(y, float) and x == 0): return 0x7fff
            pr = x * y if not (isinstance(x, float) or isinstance(y, float)) else math.copysign(math.inf, (1 if x > 0 else -1) * (1 if y > 0 else -1))
            if isinstance(pr, float) and isinstance(z, float) and pr != z: return 0x7fff
            q = 0
            if isinstance(pr, float): r = pr
            elif isinstance(z, float): r = z
            else:
                q = pr + z
                r = h_rne(q, *HFMT[t][:3])
                if q == 0:   # exact zero: +0 unless both products and c are -0 (round to nearest)
                    neg = (a ^ b) & 0x8000 and c & 0x8000 if pr == 0 else False
                    return 0x8000 if neg and not relu else 0
        except TypeError:
            return None
    if relu and r < 0: return 0
    if not isinstance(r, float) and r == 0 and q < 0: return 0x0 if relu else 0x8000   # a tiny negative rounds to -0
    return h_enc(r, t)


def oob(lanes_path, expect_path):
    l = json.load(open(lanes_path)); e = json.load(open(expect_path))['buffers']
    A = [int(x, 16) for x in l['buffers']['in_a']['data']]; B = [int(x, 16) for x in l['buffers']['in_b']['data']]
    C = [int(x, 16) for x in l['buffers']['in_c']['data']]; n = len(A)
    o = {16: [int(x, 16) for x in e['out16']], 32: [int(x, 16) for x in e['out32']]}
    forms = [('f16', 0, 16), ('f16', 1, 16), ('f16', 0, 32), ('f16', 1, 32), ('bf16', 0, 16), ('bf16', 1, 16), ('bf16', 0, 32), ('bf16', 1, 32)]
    slots = {16: 0, 32: 0}; tot = ok = 0; bad = []
    for t, relu, w in forms:
        s = slots[w]; slots[w] += 1
        for i in range(n):
            for h in ([0] if w == 16 else [0, 1]):
                a, b, c = ((v >> 16 * h) & 0xffff for v in (A[i], B[i], C[i]))
                g = (o[w][s * n + i] >> 16 * h) & 0xffff
                p = oob_half(a, b, c, t, relu)
                tot += 1
                if p == g: ok += 1
                else: bad.append((t, relu, w, i, h, hex(a), hex(b), hex(c), hex(g), None if p is None else hex(p)))
    print('predicted %d of %d' % (ok, tot))
    for x in bad[:12]: print(x)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else 'tests/h100_more/disagree'
    # the case in d, or in d's sibling folders (fmad_* moved to cases3/ once ptxrun reproduced them)
    def p(name):
        for folder in (d, os.path.join(d, '..', 'cases3'), os.path.join(d, '..', 'disagree')):
            if os.path.exists(os.path.join(folder, name + '.lanes.json')):
                return (os.path.join(folder, name + '.lanes.json'), os.path.join(folder, name + '.expect.json'))
        raise SystemExit('no case %s near %s' % (name, d))
    print('fmad_contract:')
    contract(*p('fmad_contract'))
    print('fmad_check:')
    check(*p('fmad_check'), refined=False)
    check(*p('fmad_check'), refined=True)
    for name in ('fma_oob', 'fma_oob_check'):
        print(name + ':', end=' ')
        oob(*p(name))


if __name__ == '__main__':
    main()
