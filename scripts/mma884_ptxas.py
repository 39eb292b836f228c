#!/usr/bin/env python3
"""What does mma.sync.aligned.m8n8k4 with .f16 A and B compute on sm_90? ptxas as the oracle: the H100 has
no m8n8k4 f16 tensor-core instruction, and ptxas 13.0 (the H100 recordings' JIT) compiles these forms to a
call of a software routine ($__internal_N_$__cuda_sm_8x_mma_row_col_<d>_f16_f16_<c>, after
..._mma_shfl_f16 moves for the other A/B layouts): shuffles, f16->f32 conversions, FFMA/FMUL/FADD, F2FP.
Needs ptxas and readelf; not run by make check.

    scripts/mma884_ptxas.py [--ptxas /usr/local/cuda/bin/ptxas] [--cases tests/misc]

For each of the 12 forms ptxas accepts (A .row/.col, B .row/.col, D.C .f16.f16, .f32.f16, .f32.f32; it
refuses .f16.f32), a kernel loading A, B, C per lane and storing D is compiled; the cubin's .text is run here
symbolically for all 32 lanes (a small interpreter of the 16 SASS instructions these routines use, whose
encodings were read off single-instruction cubins: no disassembler is installed), giving each D element
as an expression of the lanes' A, B, C elements. Checked:
1. no HMMA (opcode 0x23c) in the code;
2. every D element of every lane is exactly the expression the model of tests/misc/mma884.py (and
   exec/mma884.c) gives it, with the PTX ISA's fragment layouts: .f32 D = C + fma(a3,b3, fma(a2,b2,
   fma(a1,b1, fma(a0,b0, +0)))); .f16 D = f16((C + fma(a1,b1, a0*b0)) + fma(a3,b3, a2*b2));
3. the expressions evaluated on the inputs of the cases mma884_forms, mma884_round and mma884_order (its own
   model, tests/misc/mma884_order.py: the order of .f16 D's sum) give their expect.json.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'tests', 'misc'))
import mma884 as M  # noqa: E402


def text_and_funcs(cubin):
    sections = subprocess.run(['readelf', '-S', '-W', cubin], capture_output=True, text=True).stdout.splitlines()
    data = open(cubin, 'rb').read()
    text = None
    for line in sections:
        if ' .text.k ' in line:
            p = line.split(']')[1].split()
            off, size = int(p[3], 16), int(p[4], 16)
            text = data[off:off + size]
    funcs = {}
    for line in subprocess.run(['readelf', '-s', '-W', cubin], capture_output=True, text=True).stdout.splitlines():
        if ' FUNC ' in line:
            p = line.split()
            funcs[p[-1]] = (int(p[1], 16), int(p[2]))
    ins = {i: (int.from_bytes(text[i:i + 8], 'little'), int.from_bytes(text[i + 8:i + 16], 'little'))
           for i in range(0, len(text), 16)}
    return ins, funcs


def call_offset(lo):
    """CALL.REL's target, relative to the next instruction: bits 16-23 and 34-63 (signed) of the low word."""
    return ((lo >> 16) & 0xff) * 4 + ((((lo >> 34) & 0x3fffffff) ^ 0x20000000) - 0x20000000) * 0x400


# The modifier bits (high word bits 8-23, low word bits 40-63) of the float instructions, as ptxas 13.0 encodes
# the plain PTX forms: fma.rn.f32, mul.rn.f32, add.rn.f32, cvt.f32.f16 (HADD2.F32 -RZ, Rb.Hx), cvt.rn.f16x2.f32,
# each compiled alone (checked 2026-11-29: .rz/.rm sets high bits 14-15, .ftz bit 16, .sat bit 13, a negated
# product or C bits 8 and 11, a negated or absolute B low bits 63 and 62; F2FP .rz high bits 15-16). Code with
# other bits (another rounding, flushing, a negation) would be refused here, not read as the plain form.
PLAIN = {0x223: 0, 0x220: 0x400000, 0x221: 0, 0x230: 0x4100, 0x23e: 0}


class Sim:
    """32 lanes of registers: integers, f16 pairs ('h2', lo, hi) and float expressions (tuples)."""

    def __init__(self, ins, regs):
        self.ins, self.R, self.P = ins, regs, [{} for _ in range(32)]

    def run(self, pc):
        stack = []
        while True:
            lo, hi = self.ins[pc]
            op, pred = lo & 0xfff, (lo >> 12) & 0xf
            nxt = pc + 16
            if op == 0x950:                                    # RET
                if not stack:
                    return
                nxt = stack.pop()
            elif op == 0x944:                                  # CALL.REL
                stack.append(pc + 16)
                nxt = pc + 16 + call_offset(lo)
            elif op != 0x918:                                  # NOP
                results = []
                for lane in range(32):
                    on = True
                    if pred != 7:                              # @P / @!P
                        on = self.P[lane].get(pred & 7, True) != bool(pred & 8)
                    results.append(self.one(lane, op, lo, hi) if on else None)
                for lane, res in enumerate(results):
                    if res is not None:
                        kind, where, value = res
                        (self.R if kind == 'R' else self.P)[lane][where] = value
            pc = nxt

    def one(self, lane, op, lo, hi):
        d, a, b, c, imm = (lo >> 16) & 0xff, (lo >> 24) & 0xff, (lo >> 32) & 0xff, hi & 0xff, (lo >> 32) & 0xffffffff
        R = lambda r: 0 if r == 255 else self.R[lane].get(r, 0)
        out = lambda v: ('R', d, v)
        if op == 0x919:
            assert (hi >> 8) & 0xff == 0, 'S2R of a special register other than SR_LANEID'
            return out(lane)
        if op in (0x812, 0x212):                               # LOP3.LUT
            x, y, z, lut = R(a), imm if op == 0x812 else R(b), R(c), (hi >> 8) & 0xff
            return out(sum(((lut >> (((x >> k) & 1) << 2 | ((y >> k) & 1) << 1 | ((z >> k) & 1))) & 1) << k
                           for k in range(32)))
        if op == 0x810:                                        # IADD3 Rd, Ra, imm, Rc
            return out((R(a) + imm + R(c)) & 0xffffffff)
        if op == 0x210:                                        # IADD3 Rd, Ra, Rb, Rc
            return out((R(a) + R(b) + R(c)) & 0xffffffff)
        if op == 0x202:                                        # MOV
            return out(R(b))
        if op == 0x802:                                        # MOV imm
            return out(imm)
        if op == 0x435:                                        # HFMA2.MMA Rd, -RZ, RZ, 0, 0: a zero
            return out(0)
        if op == 0x819:                                        # SHF.R.U32.HI Rd, RZ, imm, Rc
            return out(R(c) >> imm)
        if op == 0x80c:                                        # ISETP.NE.U32 Pd, PT, Ra, imm, PT
            assert (hi >> 12) & 7 == 5
            return ('P', (hi >> 17) & 7, R(a) != imm)
        if op == 0x207:                                        # SEL Rd, Ra, Rb, [!]P
            p = self.P[lane][(hi >> 23) & 7] != bool((hi >> 26) & 1)
            return out(R(a) if p else R(b))
        if op == 0x816:                                        # PRMT Rd, Ra, imm, Rc on 16-bit halves
            x, z = R(a), R(c)
            halves = {0x10: x[1], 0x32: x[2], 0x54: z[1], 0x76: z[2]}
            return out(('h2', halves[imm & 0xff], halves[(imm >> 8) & 0xff]))
        if op == 0x589:                                        # SHFL.IDX Rd, Ra, Rb, 0x1f
            return out(self.R[R(b) & 31].get(a, 0))
        if op in PLAIN:                                        # no .RZ/.RM/.RP, .FTZ, .SAT, -x, |x| (above)
            low = lo >> 40 & ~(3 << 20) if op == 0x230 else lo >> 40     # HADD2.F32: bits 60-61 pick the half
            assert (hi & 0xffff00, low) == (PLAIN[op], 0), 'modifiers on %016x %016x' % (hi, lo)
        if op == 0x230:                                        # HADD2.F32 Rd, -RZ, Rb.H0/.H1: f16 -> f32
            sel = (lo >> 60) & 3
            assert sel in (2, 3) and a == 255
            return out(R(b)[1 if sel == 2 else 2])
        if op == 0x223:
            return out(('fma', R(a), R(b), R(c) if c != 255 else '+0'))
        if op == 0x220:
            return out(('mul', R(a), R(b)))
        if op == 0x221:
            return out(('add', R(a), R(b)))
        if op == 0x23e:                                        # F2FP.F16.F32.PACK_AB Rd, Ra, Rb: Rb low
            return out(('h2', ('f16', R(b)), ('f16', R(a))))
        raise SystemExit('unknown instruction %016x %016x' % (hi, lo))


def kernel(form):
    f32c, f32d = form.c_f32, form.d_f32
    d = ['%%d%d' % i for i in range(form.d_regs())]
    c = ['%%c%d' % i for i in range(form.c_regs())]
    lines = ['.version 8.0', '.target sm_90', '.address_size 64', '.visible .entry k(.param .u64 p){',
             '.reg .%s %%d<8>; .reg .%s %%c<8>; .reg .b32 %%a<2>; .reg .b32 %%b<2>; .reg .b32 %%t; .reg .u64 %%q, %%o;'
             % ('f32' if f32d else 'b32', 'f32' if f32c else 'b32'),
             'ld.param.u64 %q,[p]; mov.u32 %t,%tid.x; mul.wide.u32 %o,%t,128; add.u64 %q,%q,%o;',
             'ld.global.b32 %a0,[%q]; ld.global.b32 %a1,[%q+4]; ld.global.b32 %b0,[%q+8]; ld.global.b32 %b1,[%q+12];']
    lines += ['ld.global.%s %s,[%%q+%d];' % ('f32' if f32c else 'b32', r, 16 + 4 * i) for i, r in enumerate(c)]
    lines.append('mma.sync.aligned.%s {%s},{%%a0,%%a1},{%%b0,%%b1},{%s};' % (form.name(), ','.join(d), ','.join(c)))
    lines += ['st.global.%s [%%q+%d],%s;' % ('f32' if f32d else 'b32', 64 + 4 * i, r) for i, r in enumerate(d)]
    return '\n'.join(lines + ['ret;}', ''])


def symbolic(ptxas, form, tmp):
    """Each lane's D registers as expressions of ('A'|'B'|'C', lane, element)."""
    src, cubin = os.path.join(tmp, 'k.ptx'), os.path.join(tmp, 'k.cubin')
    open(src, 'w').write(kernel(form))
    subprocess.run([ptxas, '-arch=sm_90', src, '-o', cubin], check=True)
    ins, funcs = text_and_funcs(cubin)
    assert not any(lo & 0xfff == 0x23c for lo, _ in ins.values()), 'an HMMA in the code'
    assert any('_mma_row_col_' in name for name in funcs), sorted(funcs)
    start, size = funcs['k']
    loads, stores, call = {}, {}, None
    for pc in range(start, start + size, 16):
        lo, _ = ins[pc]
        if lo & 0xfff == 0x981:
            loads[lo >> 40] = (lo >> 16) & 0xff
        elif lo & 0xfff == 0x986:
            stores[lo >> 40] = (lo >> 32) & 0xff
        elif lo & 0xfff == 0x944 and call is None:
            call = pc
    regs = []
    for lane in range(32):
        r = {}
        for j in range(2):
            r[loads[4 * j]] = ('h2', ('A', lane, 2 * j), ('A', lane, 2 * j + 1))
            r[loads[8 + 4 * j]] = ('h2', ('B', lane, 2 * j), ('B', lane, 2 * j + 1))
        for j in range(form.c_regs()):
            r[loads[16 + 4 * j]] = ('C', lane, j) if form.c_f32 else ('h2', ('C', lane, 2 * j), ('C', lane, 2 * j + 1))
        regs.append(r)
    sim = Sim(ins, regs)
    sim.run(call + 16 + call_offset(ins[call][0]))
    out = []
    for lane in range(32):
        elems = []
        for j in range(form.d_regs()):
            v = sim.R[lane][stores[64 + 4 * j]]
            elems += [v] if form.d_f32 else [v[1], v[2]]
        out.append(elems)
    return out


def norm(e):
    """Operands of an add, a mul, and the product of an fma in a canonical order (each is commutative)."""
    if isinstance(e, tuple) and e[0] in ('add', 'mul'):
        return (e[0],) + tuple(sorted((norm(e[1]), norm(e[2])), key=repr))
    if isinstance(e, tuple) and e[0] == 'fma':
        return ('fma',) + tuple(sorted((norm(e[1]), norm(e[2])), key=repr)) + (norm(e[3]),)
    return e


def model(form, lane, i):
    """The model's expression for element i of lane's D, through the ISA's layouts (tests/misc/mma884.py)."""
    p, r, c = M.lay_c(lane, i, form.d_f32)
    where = {}
    for l in range(32):
        for k in range(4):
            where[('A',) + M.lay_a(l, k, form.a_col)] = ('A', l, k)
            where[('B',) + M.lay_b(l, k, form.b_row)] = ('B', l, k)
        for k in range(8):
            where[('C',) + M.lay_c(l, k, form.c_f32)] = ('C', l, k)
    a = [where[('A', p, r, k)] for k in range(4)]
    b = [where[('B', p, k, c)] for k in range(4)]
    cc = where[('C', p, r, c)]
    if form.d_f32:
        s = ('fma', a[0], b[0], '+0')
        for k in range(1, 4):
            s = ('fma', a[k], b[k], s)
        return ('add', cc, s)
    return ('f16', ('add', ('add', cc, ('fma', a[1], b[1], ('mul', a[0], b[0]))), ('fma', a[3], b[3], ('mul', a[2], b[2]))))


def evaluate(e, env):
    if e == '+0':
        return 0.0
    if e[0] in ('A', 'B', 'C'):
        return env[e]
    if e[0] == 'fma':
        return M.fma(evaluate(e[1], env), evaluate(e[2], env), evaluate(e[3], env))
    if e[0] == 'add':
        return M.fadd(evaluate(e[1], env), evaluate(e[2], env))
    if e[0] == 'mul':
        return M.fmul(evaluate(e[1], env), evaluate(e[2], env))
    v = evaluate(e[1], env)                                    # 'f16'
    return v if math.isnan(v) or math.isinf(v) or v == 0 else M.r16(Fraction(v))


def check_case(folder, name, forms, exprs):
    lanes = json.load(open(os.path.join(folder, name + '.lanes.json')))
    expect = json.load(open(os.path.join(folder, name + '.expect.json')))
    words = [int(x, 16) for x in lanes['buffers']['i32']['data']]
    want = [int(x, 16) for x in expect['buffers']['o32']]
    slot = oslot = bad = 0
    for form in forms:
        regs = [[words[(slot + k) * 32 + l] for l in range(32)] for k in range(4 + form.c_regs())]
        slot += 4 + form.c_regs()
        env = {}
        for l in range(32):
            half = lambda reg, k: (regs[reg][l] >> (16 * (k % 2))) & 0xffff
            for k in range(4):
                env[('A', l, k)] = M.f16_val(half(k // 2, k))
                env[('B', l, k)] = M.f16_val(half(2 + k // 2, k))
            for k in range(8):
                env[('C', l, k)] = M.f32_val(regs[4 + k][l]) if form.c_f32 else M.f16_val(half(4 + k // 2, k))
        for l in range(32):
            vals = [evaluate(e, env) for e in exprs[form.name()][l]]
            for j in range(form.d_regs()):
                got = M.bits32(vals[j]) if form.d_f32 else M.bits16(vals[2 * j]) | M.bits16(vals[2 * j + 1]) << 16
                bad += got != want[(oslot + j) * 32 + l]
        oslot += form.d_regs()
    print('%s: %d registers, %d differ from expect.json' % (name, oslot * 32, bad))
    return bad == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--ptxas', default='/usr/local/cuda/bin/ptxas')
    ap.add_argument('--cases', default=os.path.join(HERE, '..', 'tests', 'misc'))
    args = ap.parse_args()
    ok = True
    exprs = {}
    with tempfile.TemporaryDirectory() as tmp:
        for form in M.FORMS:
            got = symbolic(args.ptxas, form, tmp)
            exprs[form.name()] = got
            bad = sum(norm(got[l][i]) != norm(model(form, l, i)) for l in range(32) for i in range(8))
            print('%s: no HMMA; %d of 256 D elements differ from the model' % (form.name(), bad))
            ok &= bad == 0
    ok &= check_case(args.cases, 'mma884_forms', M.FORMS, exprs)
    ok &= check_case(args.cases, 'mma884_round', M.ROUND_FORMS, exprs)
    by_name = {form.name(): form for form in M.FORMS}
    ok &= check_case(args.cases, 'mma884_order', [by_name['m8n8k4.%s.f16.f16.f16.f16' % lay] for lay in ('row.col', 'col.row')],
                     exprs)
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
