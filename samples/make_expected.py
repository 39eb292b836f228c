#!/usr/bin/env python3
"""Writes each sample's lanes file (its input) and expect file (its output), computed here,
independently of ptxrun, from the pseudo-code in ../shared/spec: shfl's source lane and
predicate, and shf's 64-bit funnel. Run from anywhere: python3 samples/make_expected.py"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
LANES = 32


def f32(x):
    """x rounded to single precision (the f32 add of the samples)."""
    return struct.unpack('<f', struct.pack('<f', x))[0]


def shfl(mode, values, b, c):
    """The spec's shfl/shfl.sync pseudo-code, all lanes present: returns (d, p) per lane."""
    out, preds = [], []
    for lane in range(LANES):
        bval, cval, segmask = b & 0x1f, c & 0x1f, (c >> 8) & 0x1f
        max_lane = (lane & segmask) | (cval & ~segmask & 0x1f)
        min_lane = lane & segmask
        if mode == 'up':
            j = lane - bval
            pval = j >= max_lane
        elif mode == 'down':
            j = lane + bval
            pval = j <= max_lane
        elif mode == 'bfly':
            j = lane ^ bval
            pval = j <= max_lane
        else:
            j = min_lane | (bval & ~segmask & 0x1f)
            pval = j <= max_lane
        if not pval:
            j = lane
        out.append(values[j])
        preds.append(pval)
    return out, preds


def scan(kind, x):
    ry, p = None, None
    for step in (1, 2, 4, 8, 16):
        if kind == 'up':
            ry, p = shfl('up', x, step, 0x0)
            x = [f32(a + b) if q else b for a, b, q in zip(ry, x, p)]
        elif kind == 'down':
            ry, p = shfl('down', x, step, 0x1f)
            x = [f32(a + b) if q else b for a, b, q in zip(ry, x, p)]
    return x, ry, p


def butterfly(x):
    ry = None
    for step in (16, 8, 4, 2, 1):
        ry, _ = shfl('bfly', x, step, 0x1f)
        x = [f32(a + b) for a, b in zip(ry, x)]
    return x, ry


def shf(direction, clamp, a, b, c):
    n = min(c, 32) if clamp else c & 0x1f
    v = (b << 32) | a
    return ((v << n) >> 32) & 0xffffffff if direction == 'l' else (v >> n) & 0xffffffff


def hex32(v):
    return '0x%08x' % v


def write(name, lanes, expect):
    for suffix, data in (('lanes', lanes), ('expect', expect)):
        with open(os.path.join(HERE, '%s.%s.json' % (name, suffix)), 'w') as f:
            json.dump(data, f, indent=1)
            f.write('\n')


def main():
    # Float inputs: small integers and halves, so every partial sum is exact in f32.
    xs = [float((7 * lane) % 23) - 5.5 for lane in range(LANES)]

    out, ry, p = scan('up', xs)
    write('inclusive_scan', {'regs': {'Rx': xs}}, {'regs': {'Rx': out, 'Ry': ry}, 'preds': {'p': p}})
    write('scan', {'regs': {'Rx': xs}}, {'regs': {'Rx': out, 'Ry': ry}, 'preds': {'p': p}})

    out, ry, p = scan('down', xs)
    write('reverse_scan', {'regs': {'Rx': xs}}, {'regs': {'Rx': out, 'Ry': ry}, 'preds': {'p': p}})

    out, ry = butterfly(xs)
    write('butterfly', {'regs': {'Rx': xs}}, {'regs': {'Rx': out, 'Ry': ry}})

    # Rx and Ry are .b32 in this snippet (no typed use): integer inputs.
    ints = [(lane * 37 + 11) % 101 for lane in range(LANES)]
    ry, p = shfl('up', ints, 1, 0)
    write('shfl_sync_up', {'regs': {'Rx': ints}}, {'regs': {'Ry': ry}, 'preds': {'p': p}})

    # 128-bit values: four words per lane from a fixed pattern, with the sign bit set in half
    # the lanes; n = the lane number (0..31), so every shift distance is covered.
    words = [[(0x9E3779B9 * (4 * lane + k + 1) + 0x7F4A7C15 * k) & 0xffffffff for k in range(4)]
             for lane in range(LANES)]
    for lane in range(0, LANES, 2):
        words[lane][3] |= 0x80000000
    ns = list(range(LANES))
    regs_in = {'r%d' % k: [hex32(words[l][k]) for l in range(LANES)] for k in range(4)}
    regs_in['n'] = ns

    left = {}
    for l in range(LANES):
        v = sum(words[l][k] << (32 * k) for k in range(4))
        shifted = (v << ns[l]) & ((1 << 128) - 1)
        for k in range(4):
            left.setdefault('r%d' % (4 + k), []).append(hex32((shifted >> (32 * k)) & 0xffffffff))
    write('shift128_left', {'regs': regs_in}, {'regs': left})

    right = {}
    for l in range(LANES):
        v = sum(words[l][k] << (32 * k) for k in range(4))
        if v >> 127:
            v -= 1 << 128                      # arithmetic: a signed 128-bit value
        shifted = (v >> ns[l]) & ((1 << 128) - 1)
        for k in range(4):
            word = (shifted >> (32 * k)) & 0xffffffff
            right.setdefault('r%d' % (4 + k), []).append(hex32(word))
    # r7 comes from shr.s32, typed .s32 in the snippet: the expect file gives it as a number.
    right['r7'] = [int(w, 16) - (1 << 32) if int(w, 16) >> 31 else int(w, 16) for w in right['r7']]
    write('shift128_right', {'regs': regs_in}, {'regs': right})

    r0 = [words[l][0] for l in range(LANES)]
    rot = {'right': [hex32(((v >> n) | (v << (32 - n))) & 0xffffffff) for v, n in zip(r0, ns)],
           'left': [hex32(((v << n) | (v >> (32 - n))) & 0xffffffff) for v, n in zip(r0, ns)]}
    write('rotate', {'regs': {'r0': [hex32(v) for v in r0], 'n': ns}}, {'regs': rot})

    r1 = [words[l][1] for l in range(LANES)]
    extract = [hex32(((((b << 32) | a) >> n) & 0xffffffff)) for a, b, n in zip(r0, r1, ns)]
    write('extract32', {'regs': {'r0': [hex32(v) for v in r0], 'r1': [hex32(v) for v in r1], 'n': ns}},
          {'regs': {'r0': extract}})

    # The funnel shift itself, cross-checked against the rotate formula above at n = 0..31.
    for v, n in zip(r0, ns):
        assert shf('r', True, v, v, n) == ((v >> n) | (v << (32 - n))) & 0xffffffff
        assert shf('l', True, v, v, n) == ((v << n) | (v >> (32 - n))) & 0xffffffff


if __name__ == '__main__':
    main()
