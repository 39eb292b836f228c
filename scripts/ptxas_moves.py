#!/usr/bin/env python3
"""Which half-precision results ptxas (the machine's, sm_90) makes a move of another value, read off
the SASS of the cubin it writes, compared with what ptxrun does (docs/semantics.md: NaN payloads of
half arithmetic; exec/half.c, half_fold_moves).

There is no disassembler here, so the SASS is read from the instruction words themselves: 16 bytes
each, the opcode in bits 0-11, the destination register in 16-23, the first source in 24-31, the
second (or an immediate) from bit 32. Only a few opcodes matter, each checked on hand-written pairs:
a global load (0x981) or store (0x986, size in bits 72-75: 5 for 16 bits, 9 for 32; the offset
from bit 40), a move (MOV 0x202; IMAD.MOV 0x224 with both multiplicands RZ, the source in bits
64-71) and a byte permute with an immediate selector (PRMT 0x816, the second source in bits 64-71):
every other instruction computes a new value. Following moves and the 16-bit halves a permute
takes, each store's value is traced to the instruction that made it; a PTX result whose store
traces to the load of an input is a move of that input.

    scripts/ptxas_moves.py DIR N [PTXRUN]
        writes N random straight-line programs into DIR, drawn from the instruction forms of
        ../shared/hw/half's (as its generator made them: each result stored), compiles each with
        ptxas, and runs each with ptxrun on a distinct signalling NaN in every input half: every
        result that carries an input's NaN in ptxrun must be one ptxas makes a move of that input,
        and the other way round.
"""
import glob
import json
import os
import random
import struct
import subprocess
import sys

from cmdline import command_line

PTXAS = '/usr/local/cuda/bin/ptxas'
HW_HALF = os.path.join(os.path.dirname(__file__), '..', '..', 'shared', 'hw', 'half')
LOAD, STORE, MOV, IMAD, PRMT_IMM = 0x981, 0x986, 0x202, 0x224, 0x816
NOTHING = (0x94d, 0x947, 0x918)       # EXIT, BRA, NOP
RZ = 255


def text_section(path):
    d = open(path, 'rb').read()
    shoff = struct.unpack_from('<Q', d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
    secs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx][4]
    for s in secs:
        name = d[names + s[0]:d.index(b'\0', names + s[0])].decode()
        if name.startswith('.text.'):
            return d[s[4]:s[4] + s[5]]
    raise SystemExit('%s: no .text section' % path)


def stored_values(cubin):
    """{(size, offset): value} of each store, a value being a pair of half roots (the low one
    alone for a 16-bit store): ('ld', size, offset, half) for a loaded half, ('op', i, half) for one
    computed by instruction i."""
    t = text_section(cubin)
    writer, halves, stores = {}, {}, {}

    def roots(reg):
        if reg == RZ:
            return ('zero',), ('zero',)
        return halves[writer[reg]] if reg in writer else (('reg', reg, 0), ('reg', reg, 1))
    for i in range(0, len(t), 16):
        lo, hi = struct.unpack_from('<QQ', t, i)
        op, d, a, b = lo & 0xfff, lo >> 16 & 0xff, lo >> 24 & 0xff, lo >> 32 & 0xff
        size, offset = hi >> 8 & 0xf, lo >> 40 & 0xffffff
        if op == STORE:
            h = roots(b)
            stores[(size, offset)] = h[0] if size == 5 else h
            continue
        if op in NOTHING:
            continue
        if op == LOAD:
            h = (('ld', size, offset, 0), ('ld', size, offset, 1))
        elif op == MOV:
            h = roots(b)
        elif op == IMAD and a == RZ and b == RZ:
            h = roots(hi & 0xff)
        elif op == PRMT_IMM:
            sel, parts = lo >> 32 & 0xffff, roots(a) + roots(hi & 0xff)
            pick = {0x10: 0, 0x32: 1, 0x54: 2, 0x76: 3}
            h = tuple(parts[pick[s]] if s in pick else ('op', i, k) for k, s in enumerate((sel & 0xff, sel >> 8)))
        else:
            h = (('op', i, 0), ('op', i, 1))
        halves[i] = h
        writer[d] = i
    return stores


def program(rng, forms, name):
    """A random straight-line program over f16 (%h), bf16 (%g), f16x2 (%x), bf16x2 (%y) inputs; each
    result stored. Returns its inputs {reg: (bits, slot)} and ops [(text, dst, bits, slot)]."""
    pools = {c: ['%%%s%d' % (c, i) for i in range(5 if c in 'hg' else 3)] for c in 'hgxy'}
    inputs = {}
    for c in 'hgxy':
        for r in pools[c]:
            bits = 16 if c in 'hg' else 32
            inputs[r] = (bits, sum(1 for v in inputs.values() if v[0] == bits))
    ops, count = [], {16: 0, 32: 0}
    for _ in range(28):
        what = rng.choice(forms)
        c = {'f16': 'h', 'bf16': 'g', 'f16x2': 'x', 'bf16x2': 'y'}[what.split('.')[-1]]
        n = 3 if what.startswith('fma') else 1 if what.startswith(('neg', 'abs')) else 2
        src = [rng.choice(pools[c][-6:] if rng.random() < 0.7 else pools[c]) for _ in range(n)]
        bits = 16 if c in 'hg' else 32
        dst = '%%%s%d' % ('s' if bits == 16 else 'r', count[bits])
        ops.append(('%s %s, %s;' % (what, dst, ', '.join(src)), dst, bits, count[bits]))
        count[bits] += 1
        pools[c].append(dst)
    lines = ['.version 8.1', '.target sm_90', '.address_size 64',
             '.visible .entry k(.param .u64 p_i32, .param .u64 p_i16, .param .u64 p_o32, .param .u64 p_o16)', '{',
             '    .reg .b16 %h<5>, %g<5>, %s<40>;', '    .reg .b32 %x<3>, %y<3>, %r<40>;',
             '    .reg .u64 %bi32, %bi16, %bo32, %bo16;']
    for b in ('i32', 'i16', 'o32', 'o16'):
        lines += ['    ld.param.u64 %%b%s, [p_%s];' % (b, b), '    cvta.to.global.u64 %%b%s, %%b%s;' % (b, b)]
    for r, (bits, k) in inputs.items():
        lines.append('    ld.global.b%d %s, [%%bi%d+%d];' % (bits, r, bits, k * 4 * bits))
    lines += ['    ' + o[0] for o in ops]
    for _, dst, bits, k in ops:
        lines.append('    st.global.b%d [%%bo%d+%d], %s;' % (bits, bits, k * 4 * bits, dst))
    lines += ['    ret;', '}']
    open(name, 'w').write('\n'.join(lines) + '\n')
    return inputs, ops


def moves_of_inputs(inputs, ops, stores):
    """For each op, the input halves ptxas stores unchanged as its result."""
    code = {16: 5, 32: 9}
    loaded = {r: (('ld', code[bits], k * 4 * bits, 0), ('ld', code[bits], k * 4 * bits, 1))
              for r, (bits, k) in inputs.items()}
    out = []
    for _, dst, bits, k in ops:
        v = stores.get((code[bits], k * 4 * bits))
        found = set()
        for r, (rb, _) in inputs.items():
            if bits == 16 and rb == 16 and v == loaded[r][0]:
                found.add(r)
            for h in range(2 if bits == 32 and rb == 32 and isinstance(v, tuple) and len(v) == 2 else 0):
                if v[h] == loaded[r][h]:
                    found.add('%s.%d' % (r, h))
        out.append(found)
    return out


def ptxrun_payloads(ptxrun, ptx, inputs, ops, lanes_path):
    """Run ptxrun with a distinct signalling NaN in every input half; for each op, the input halves
    whose NaN its result carries."""
    data = {16: [0] * (10 * 32), 32: [0] * (6 * 32)}
    payload = {}
    for n, (r, (bits, k)) in enumerate(inputs.items()):
        nan = (0x7f81 if r.startswith(('%g', '%y')) else 0x7c01) + 2 * n
        if bits == 16:
            data[16][k * 32], payload[nan] = nan, r
        else:
            data[32][k * 32] = nan | (nan + 1) << 16
            payload[nan], payload[nan + 1] = r + '.0', r + '.1'
    lanes = {'block': [1, 1, 1], 'params': ['@i32', '@i16', '@o32', '@o16'], 'buffers': {
        'i32': {'type': 'b32', 'data': data[32]}, 'i16': {'type': 'b16', 'data': data[16]},
        'o32': {'type': 'b32', 'count': 40 * 32}, 'o16': {'type': 'b16', 'count': 40 * 32}}}
    json.dump(lanes, open(lanes_path, 'w'))
    run = subprocess.run([ptxrun, ptx, '--lanes', lanes_path, '--json'], capture_output=True, text=True)
    bufs = {k: v['data'] for k, v in json.loads(run.stdout)['buffers'].items()}
    out = []
    for _, _, bits, k in ops:
        v = bufs['o%d' % bits][k * 32]
        v = int(v, 16) if isinstance(v, str) else v
        out.append({payload[h] for h in (v & 0xffff, v >> 16 if bits == 32 else -1) if h in payload})
    return out


def main():
    command_line(sys.argv, __doc__, least=2)
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    folder, count = sys.argv[1], int(sys.argv[2])
    ptxrun = sys.argv[3] if len(sys.argv) == 4 else os.path.join(os.path.dirname(__file__), '..', 'build', 'ptxrun')
    forms = sorted({o['what'] for m in glob.glob(os.path.join(HW_HALF, 'half_arith*.meta.json'))
                    for o in json.load(open(m))['ops']})
    if not forms:
        sys.exit('no programs in %s' % HW_HALF)
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(32)
    seen = agree = 0
    for n in range(count):
        ptx = os.path.join(folder, 'moves_%03d.ptx' % n)
        inputs, ops = program(rng, forms, ptx)
        cubin = ptx[:-4] + '.cubin'
        subprocess.run([PTXAS, '-arch=sm_90', ptx, '-o', cubin], check=True)
        sass = moves_of_inputs(inputs, ops, stored_values(cubin))
        ours = ptxrun_payloads(ptxrun, ptx, inputs, ops, ptx[:-4] + '.lanes.json')
        for (text, _, _, _), s, o in zip(ops, sass, ours):
            if s or o:
                seen += 1
                agree += s == o
                if s != o:
                    print('%s: %s  ptxas moves %s, ptxrun passes the NaN of %s' % (ptx, text, sorted(s), sorted(o)))
    print('%d programs: %d results are a move of an input for ptxas or carry an input NaN in ptxrun; %d agree'
          % (count, seen, agree))


if __name__ == '__main__':
    main()
