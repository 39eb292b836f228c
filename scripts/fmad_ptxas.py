#!/usr/bin/env python3
"""When does ptxas fuse a mul and an add into one fma? ptxas itself as the oracle, with ptxrun's rule
(exec/contract.c, docs/semantics.md "Contraction") checked against it. Needs ptxas (CUDA 13.0 recorded the
H100 cases); not run by make check.

    scripts/fmad_ptxas.py [--ptxrun build/ptxrun] [--random N] [--seed S] [-v]

Each program is compiled with `ptxas -arch=sm_90` and the float instructions of its SASS are counted from the
cubin's .text (no disassembler here): the low 9 bits of each 128-bit sm_90 instruction are its opcode,
0x23 FFMA, 0x20 FMUL, 0x21 FADD, 0x2b DFMA, 0x28 DMUL, 0x29 DADD, 0x31 HFMA2, 0x32 HMUL2, 0x30 HADD2 (read off
the cubins of single fma.rn, mul.rn and add.rn instructions, which this script checks first); f16x2 and bf16x2 in
.b32 registers: 0x35 (HFMA2.MMA) for both fma.rn and mul.rn (a mul is an fma with -0), so a fused pair is one
instruction, an unfused one that and an HADD2.

1. The variants below (one question each): the SASS counts each must give, the add lines ptxrun must fuse.
2. Random programs of f32 (or f64) mul, add, sub, neg, mov and abs, on fresh registers, with .ftz, .rn, .sat
   and guards drawn at random, every value stored or read; a third of them with a forward branch over some of
   the code: ptxrun's warning names the adds it fuses, and ptxas's fma count must equal their number, its add
   count the others'. (Two instructions ptxas would merge into one value are not written: their counts would
   differ for reasons other than fusion.)
"""
import argparse
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

PTXAS = os.environ.get('PTXAS', '/usr/local/cuda/bin/ptxas')
NAMES = {0x23: 'FFMA', 0x20: 'FMUL', 0x21: 'FADD', 0x2b: 'DFMA', 0x28: 'DMUL', 0x29: 'DADD',
         0x31: 'HFMA2', 0x32: 'HMUL2', 0x30: 'HADD2', 0x35: 'HFMA2.MMA'}

HEAD = """.version 8.6
.target sm_90%s
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .f32 %%f<200>;
    .reg .f64 %%d<200>;
    .reg .b16 %%h<20>;
    .reg .b32 %%r<20>;
    .reg .b64 %%rd<4>;
    .reg .pred %%p<4>;
    .shared .align 4 .f32 sh[4];
    ld.param.u64 %%rd1, [p];
    ld.global.f32 %%f1, [%%rd1];
    ld.global.f32 %%f2, [%%rd1+4];
    ld.global.f32 %%f3, [%%rd1+8];
    ld.global.f32 %%f4, [%%rd1+12];
    ld.global.f64 %%d1, [%%rd1+16];
    ld.global.f64 %%d2, [%%rd1+24];
    ld.global.f64 %%d3, [%%rd1+32];
    ld.global.f64 %%d4, [%%rd1+40];
    ld.global.b16 %%h1, [%%rd1+48];
    ld.global.b16 %%h2, [%%rd1+50];
    ld.global.b16 %%h3, [%%rd1+52];
    ld.global.b32 %%r1, [%%rd1+56];
    ld.global.b32 %%r2, [%%rd1+60];
    ld.global.b32 %%r3, [%%rd1+64];
    setp.ne.b32 %%p1, %%r3, 0;
    setp.ne.b32 %%p2, %%r2, 0;
"""
FIRST_LINE = HEAD.count('\n') + 1     # the line of the body's first instruction


def program(body, debug=False):
    return (HEAD % (', debug' if debug else '')) + '\n'.join('    ' + s for s in body) + '\n    ret;\n}\n'


def text_section(elf):
    shoff, = struct.unpack_from('<Q', elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', elf, 0x3a)
    sections = [struct.unpack_from('<IIQQQQIIQQ', elf, shoff + i * shentsize) for i in range(shnum)]
    names = sections[shstrndx][4]
    out = b''
    for s in sections:
        name = elf[names + s[0]:elf.index(b'\0', names + s[0])]
        if name.startswith(b'.text'):
            out += elf[s[4]:s[4] + s[5]]
    return out


def sass_counts(ptx, tmp):
    src, cubin = os.path.join(tmp, 'x.ptx'), os.path.join(tmp, 'x.cubin')
    open(src, 'w').write(ptx)
    r = subprocess.run([PTXAS, '-arch=sm_90', src, '-o', cubin], capture_output=True, text=True)
    if r.returncode:
        raise SystemExit('ptxas refused a program: %s\n%s' % (r.stderr, ptx))
    t = text_section(open(cubin, 'rb').read())
    counts = {}
    for i in range(0, len(t), 16):
        word = struct.unpack_from('<Q', t, i)[0]
        name = NAMES.get(word & 0x1ff)
        if name in ('FFMA', 'FMUL') and word & 0xe00 != 0x200:
            name += '.imm'         # an immediate (or constant) operand: tells two products apart
        if name:
            counts[name] = counts.get(name, 0) + 1
    return counts


def ptxrun_fused(ptxrun, ptx, tmp):
    """The lines ptxrun's warning names as fused (every one: the programs here stay under its limit)."""
    src = os.path.join(tmp, 'y.ptx')
    open(src, 'w').write(ptx)
    r = subprocess.run([ptxrun, src, '--buffer', 'b=u8:4096', '--param', 'p=@b', '--block', '1'],
                       capture_output=True, text=True)
    if r.returncode:
        raise SystemExit('ptxrun failed (%d): %s' % (r.returncode, r.stderr))
    m = re.search(r'fused into one fma \(one rounding\) at lines? ([0-9]+(?:, [0-9]+)*)( and \d+ more)?', r.stderr)
    if m and m.group(2):
        raise SystemExit('too many fused lines to compare')
    return sorted(int(x) for x in m.group(1).split(',')) if m else []


S = 'st.global.f32 [%rd1+68], %f9;'
D = 'st.global.f64 [%rd1+72], %d9;'
H = 'st.global.b16 [%rd1+80], %h9;'
R = 'st.global.b32 [%rd1+84], %r9;'
# A .func whose .reg result is the product, which the caller stores.
FUNC_RESULT = """.version 8.6
.target sm_90
.address_size 64
.func (.reg .f32 %out) g(.reg .f32 %a, .reg .f32 %b, .reg .f32 %c, .reg .b64 %q)
{
    .reg .f32 %x;
    mul.f32 %out, %a, %b;
    add.f32 %x, %out, %c;
    st.global.f32 [%q], %x;
    ret;
}
.visible .entry k(.param .u64 p)
{
    .reg .f32 %f<10>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.global.f32 %f1, [%rd1];
    ld.global.f32 %f2, [%rd1+4];
    ld.global.f32 %f3, [%rd1+8];
    call (%f5), g, (%f1, %f2, %f3, %rd1);
    st.global.f32 [%rd1+16], %f5;
    ret;
}
"""
# name, body, SASS counts ptxas must give, the body's lines (0 = first) ptxrun must fuse, [debug target]
VARIANTS = [
    ('mul then add', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f3;', S], {'FFMA': 1}, [1]),
    ('the product second', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f3, %f5;', S], {'FFMA': 1}, [1]),
    ('a*b - c', ['mul.f32 %f5, %f1, %f2;', 'sub.f32 %f9, %f5, %f3;', S], {'FFMA': 1}, [1]),
    ('c - a*b', ['mul.f32 %f5, %f1, %f2;', 'sub.f32 %f9, %f3, %f5;', S], {'FFMA': 1}, [1]),
    ('f64', ['mul.f64 %d5, %d1, %d2;', 'add.f64 %d9, %d5, %d3;', D], {'DFMA': 1}, [1]),
    ('f64 c - a*b', ['mul.f64 %d5, %d1, %d2;', 'sub.f64 %d9, %d3, %d5;', D], {'DFMA': 1}, [1]),
    ('f16', ['mul.f16 %h5, %h1, %h2;', 'add.f16 %h9, %h5, %h3;', H], {'HFMA2': 1}, [1]),
    ('bf16 sub', ['mul.bf16 %h5, %h1, %h2;', 'sub.bf16 %h9, %h5, %h3;', H], {'HFMA2': 1}, [1]),
    ('f16x2', ['mul.f16x2 %r5, %r1, %r2;', 'add.f16x2 %r9, %r5, %r3;', R], {'HFMA2.MMA': 1}, [1]),
    ('bf16x2', ['mul.bf16x2 %r5, %r1, %r2;', 'add.bf16x2 %r9, %r5, %r3;', R], {'HFMA2.MMA': 1}, [1]),
    ('f16x2, the product stored', ['mul.f16x2 %r5, %r1, %r2;', 'add.f16x2 %r9, %r5, %r3;', R,
                                   'st.global.b32 [%rd1+88], %r5;'], {'HFMA2.MMA': 1, 'HADD2': 1}, []),
    ('f16x2 .ftz on the add only', ['mul.f16x2 %r5, %r1, %r2;', 'add.ftz.f16x2 %r9, %r5, %r3;', R],
     {'HFMA2.MMA': 1, 'HADD2': 1}, []),
    ('.ftz on both', ['mul.ftz.f32 %f5, %f1, %f2;', 'add.ftz.f32 %f9, %f5, %f3;', S], {'FFMA': 1}, [1]),
    ('.ftz on the mul only', ['mul.ftz.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f3;', S], {'FMUL': 1, 'FADD': 1}, []),
    ('.ftz on the add only', ['mul.f32 %f5, %f1, %f2;', 'add.ftz.f32 %f9, %f5, %f3;', S], {'FMUL': 1, 'FADD': 1}, []),
    ('f16 .ftz on the mul only', ['mul.ftz.f16 %h5, %h1, %h2;', 'add.f16 %h9, %h5, %h3;', H], {'HMUL2': 1, 'HADD2': 1}, []),
    ('mul.rn', ['mul.rn.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f3;', S], {'FMUL': 1, 'FADD': 1}, []),
    ('add.rz', ['mul.f32 %f5, %f1, %f2;', 'add.rz.f32 %f9, %f5, %f3;', S], {'FMUL': 1, 'FADD': 1}, []),
    ('f64 mul.rz', ['mul.rz.f64 %d5, %d1, %d2;', 'add.f64 %d9, %d5, %d3;', D], {'DMUL': 1, 'DADD': 1}, []),
    ('add.sat', ['mul.f32 %f5, %f1, %f2;', 'add.sat.f32 %f9, %f5, %f3;', S], {'FFMA': 1}, [1]),
    ('mul.sat', ['mul.sat.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f3;', S], {'FMUL': 1, 'FADD': 1}, []),
    ('f16 mul.sat', ['mul.sat.f16 %h5, %h1, %h2;', 'add.f16 %h9, %h5, %h3;', H], {'HMUL2': 1, 'HADD2': 1}, []),
    ('the product also stored', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f3;', S, 'st.global.f32 [%rd1+88], %f5;'],
     {'FMUL': 1, 'FADD': 1}, []),
    ('read by two adds', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f6, %f5, %f3;', 'add.f32 %f9, %f6, %f5;', S], {'FFMA': 2}, [1, 2]),
    ('read by an add and a mul', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f6, %f5, %f3;', 'mul.f32 %f7, %f5, %f4;',
                                  'add.f32 %f9, %f6, %f7;', S], {'FMUL': 1, 'FADD': 1, 'FFMA': 1}, [3]),
    ('read by an add and an add.rn', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f6, %f5, %f3;', 'add.rn.f32 %f7, %f5, %f4;',
                                      'add.f32 %f9, %f6, %f7;', S], {'FMUL': 1, 'FADD': 3}, []),
    ('read by a setp', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f6, %f5, %f3;', 'setp.gt.f32 %p2, %f5, %f4;',
                        'selp.f32 %f9, %f6, %f4, %p2;', S], {'FMUL': 1, 'FADD': 1}, []),
    ('p + p', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f5;', S], {'FMUL': 1, 'FADD': 1}, []),
    ('through mov', ['mul.f32 %f5, %f1, %f2;', 'mov.f32 %f6, %f5;', 'add.f32 %f9, %f6, %f3;', S], {'FFMA': 1}, [2]),
    ('through ten movs', ['mul.f32 %f5, %f1, %f2;'] + ['mov.f32 %%f%d, %%f%d;' % (20 + k, 19 + k if k else 5)
                                                       for k in range(10)] + ['add.f32 %f9, %f29, %f3;', S],
     {'FFMA': 1}, [11]),
    ('through mov.b32', ['mul.f32 %f5, %f1, %f2;', 'mov.b32 %r5, %f5;', 'mov.b32 %f6, %r5;', 'add.f32 %f9, %f6, %f3;', S],
     {'FFMA': 1}, [3]),
    ('through neg', ['mul.f32 %f5, %f1, %f2;', 'neg.f32 %f6, %f5;', 'add.f32 %f9, %f6, %f3;', S], {'FFMA': 1}, [2]),
    ('through neg, then sub', ['mul.f32 %f5, %f1, %f2;', 'neg.f32 %f6, %f5;', 'sub.f32 %f9, %f3, %f6;', S], {'FFMA': 1}, [2]),
    ('f64 through neg', ['mul.f64 %d5, %d1, %d2;', 'neg.f64 %d6, %d5;', 'add.f64 %d9, %d6, %d3;', D], {'DFMA': 1}, [2]),
    ('f16 through neg', ['mul.f16 %h5, %h1, %h2;', 'neg.f16 %h6, %h5;', 'add.f16 %h9, %h6, %h3;', H], {'HFMA2': 1}, [2]),
    ('through abs', ['mul.f32 %f5, %f1, %f2;', 'abs.f32 %f6, %f5;', 'add.f32 %f9, %f6, %f3;', S], {'FMUL': 1, 'FADD': 1}, []),
    ('the neg also stored', ['mul.f32 %f5, %f1, %f2;', 'neg.f32 %f6, %f5;', 'add.f32 %f9, %f6, %f3;', S,
                             'st.global.f32 [%rd1+88], %f6;'], {'FMUL': 1, 'FADD': 2}, []),
    ('a guarded add', ['mul.f32 %f5, %f1, %f2;', 'mov.f32 %f9, %f4;', '@%p1 add.f32 %f9, %f5, %f3;', S], {'FFMA': 1}, [2]),
    ('a guarded mul', ['mov.f32 %f5, %f4;', '@%p1 mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f3;', S],
     {'FMUL': 1, 'FADD': 1}, []),
    ('both guarded', ['@%p1 mul.f32 %f5, %f1, %f2;', '@%p1 add.f32 %f9, %f5, %f3;', S], {'FMUL': 1, 'FADD': 1}, []),
    ('much between', ['mul.f32 %f5, %f1, %f2;', 'ld.global.f32 %f8, [%rd1+92];', 'add.f32 %f7, %f8, %f4;',
                      'st.global.f32 [%rd1+88], %f7;', 'bar.sync 0;', 'add.f32 %f9, %f5, %f3;', S],
     {'FADD': 1, 'FFMA': 1}, [5]),
    ('a bra to the next instruction (ptxas drops it)', ['mul.f32 %f5, %f1, %f2;', '@%p1 bra L0;',
                                                        'L0: add.f32 %f9, %f5, %f3;', S], {'FFMA': 1}, [2]),
    ('... unguarded', ['mul.f32 %f5, %f1, %f2;', 'bra L0;', 'L0: add.f32 %f9, %f5, %f3;', S], {'FFMA': 1}, [2]),
    ('... and another branch to that label', ['mul.f32 %f5, %f1, %f2;', '@%p2 bra L0;', 'st.global.f32 [%rd1+88], %f4;',
                                              '@%p1 bra L0;', 'L0: add.f32 %f9, %f5, %f3;', S], {'FMUL': 1, 'FADD': 1}, []),
    ('a label no branch targets', ['mul.f32 %f5, %f1, %f2;', 'L0: add.f32 %f9, %f5, %f3;', S], {'FFMA': 1}, [1]),
    ('the add in the next block', ['mul.f32 %f5, %f1, %f2;', '@%p1 bra L1;', 'add.f32 %f4, %f4, %f4;',
                                   'st.global.f32 [%rd1+88], %f4;', 'L1: add.f32 %f9, %f5, %f3;', S],
     {'FMUL': 1, 'FADD': 2}, []),
    ('the add under a branch', ['mul.f32 %f5, %f1, %f2;', '@%p1 bra L1;', 'add.f32 %f9, %f5, %f3;', S, 'L1: ret;'],
     {'FMUL': 1, 'FADD': 1}, []),
    ('both in a loop', ['mov.u32 %r9, 0;', 'L1: mul.f32 %f5, %f1, %f2;', 'add.f32 %f3, %f5, %f3;',
                        'add.f32 %f1, %f1, %f4;', 'add.u32 %r9, %r9, 1;', 'setp.lt.u32 %p2, %r9, %r1;', '@%p2 bra L1;',
                        'st.global.f32 [%rd1+88], %f3;'], None, [2]),
    ('the product read after the block', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f3;', S, '@%p1 bra L1;',
                                          'add.f32 %f4, %f4, %f4;', 'st.global.f32 [%rd1+92], %f4;',
                                          'L1: st.global.f32 [%rd1+88], %f5;'],
     {'FMUL': 1, 'FADD': 2}, []),
    ('two products: the first', ['mul.f32 %f5, %f1, %f2;', 'mul.f32 %f6, %f3, %f4;', 'add.f32 %f9, %f5, %f6;', S],
     {'FMUL': 1, 'FFMA': 1}, [2]),
    ('two products, the one read less', ['mul.f32 %f5, %f1, %f2;', 'mul.f32 %f6, %f3, %f4;', 'add.f32 %f9, %f6, %f5;',
                                         'add.f32 %f7, %f6, %f1;', 'st.global.f32 [%rd1+88], %f7;', S],
     {'FMUL': 1, 'FFMA': 1, 'FADD': 1}, [2]),
    ('two products, fewer reads second', ['mul.f32 %f5, %f1, %f2;', 'mul.f32 %f6, %f3, %f4;', 'add.f32 %f9, %f6, %f5;',
                                          'add.f32 %f7, %f6, %f1;', 'add.f32 %f8, %f6, %f2;', 'add.f32 %f10, %f5, %f4;',
                                          'add.f32 %f7, %f7, %f8;', 'add.f32 %f7, %f7, %f10;',
                                          'st.global.f32 [%rd1+88], %f7;', S], None, [2, 5]),
    ('two products: one not fused elsewhere leaves the add to the other',      # (the imm one is not fused)
     ['mul.f32 %f5, %f1, %f2;', 'mul.f32 %f6, %f3, 0f40400000;', 'mul.f32 %f7, %f4, %f1;', 'add.f32 %f9, %f6, %f5;',
      'add.f32 %f8, %f7, %f6;', 'add.f32 %f10, %f5, %f4;', 'st.global.f32 [%rd1+88], %f8;',
      'st.global.f32 [%rd1+92], %f10;', S], {'FMUL.imm': 1, 'FFMA': 3}, [3, 4, 5]),
    ('two products each first once: the earlier add decides',
     ['mul.f32 %f5, %f1, %f2;', 'mul.f32 %f6, %f3, 0f40400000;', 'add.f32 %f9, %f5, %f6;', 'sub.f32 %f8, %f6, %f5;',
      'st.global.f32 [%rd1+88], %f8;', S], {'FMUL.imm': 1, 'FFMA': 2}, [2, 3]),
    ('... the other add first',
     ['mul.f32 %f5, %f1, %f2;', 'mul.f32 %f6, %f3, 0f40400000;', 'sub.f32 %f8, %f6, %f5;', 'add.f32 %f9, %f5, %f6;',
      'st.global.f32 [%rd1+88], %f8;', S], {'FMUL': 1, 'FFMA.imm': 2}, [2, 3]),
    ('a mul between the operands written', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f1, %f1, %f4;', 'add.f32 %f9, %f5, %f3;',
                                            S, 'st.global.f32 [%rd1+88], %f1;'], {'FADD': 1, 'FFMA': 1}, [2]),
    ('a mul that writes its own operand', ['mul.f32 %f1, %f1, %f2;', 'add.f32 %f9, %f1, %f3;', S], {'FFMA': 1}, [1]),
    ('a dead abs reads the product', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f3, %f5;', 'abs.f32 %f6, %f5;', S],
     {'FFMA': 1}, [1]),
    ('a dead abs of a dead abs reads the product', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f3, %f5;',
                                                    'abs.f32 %f6, %f5;', 'abs.f32 %f7, %f6;', S], {'FFMA': 1}, [1]),
    ('... a dead add of a dead abs', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f3, %f5;', 'abs.f32 %f6, %f5;',
                                      'add.f32 %f7, %f6, %f1;', S], {'FFMA': 1}, [1]),
    ('a dead add reads it too (fused in ptxrun, which shows its register)',
     ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f3, %f5;', 'add.f32 %f6, %f5, %f4;', S], {'FFMA': 1}, [1, 2]),
    ('a dead setp reads it', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f3;', 'setp.gt.f32 %p3, %f5, %f4;', S],
     {'FFMA': 1}, [1]),
    ('a setp whose predicate guards a store reads it', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f3;',
                                                        'setp.gt.f32 %p3, %f5, %f4;', '@%p3 ' + S],
     {'FMUL': 1, 'FADD': 1}, []),
    ('a membar between', ['mul.f32 %f5, %f1, %f2;', 'membar.gl;', 'add.f32 %f9, %f5, %f3;', S],
     {'FMUL': 1, 'FADD': 1}, []),
    ('a fence.acq_rel between', ['mul.f32 %f5, %f1, %f2;', 'fence.acq_rel.cta;', 'add.f32 %f9, %f5, %f3;', S],
     {'FMUL': 1, 'FADD': 1}, []),
    ('a fence.proxy between', ['mul.f32 %f5, %f1, %f2;', 'fence.proxy.alias;', 'add.f32 %f9, %f5, %f3;', S],
     {'FFMA': 1}, [2]),
    ('shfl, vote, atom, bar.warp.sync between',
     ['mul.f32 %f5, %f1, %f2;', 'shfl.sync.bfly.b32 %r7, %r1, 1, 31, -1;', 'vote.sync.ballot.b32 %r8, %p1, -1;',
      'atom.global.add.u32 %r9, [%rd1+8], 1;', 'bar.warp.sync -1;', 'add.f32 %f9, %f5, %f3;', S,
      'st.global.b32 [%rd1+92], %r7;', 'st.global.b32 [%rd1+96], %r8;', 'st.global.b32 [%rd1+100], %r9;'],
     {'FFMA': 1}, [5]),
    ('a guarded exit between', ['mul.f32 %f5, %f1, %f2;', '@%p1 exit;', 'add.f32 %f9, %f5, %f3;', S],
     {'FMUL': 1, 'FADD': 1}, []),
    # Not fused by ptxrun, which warns instead (the fma ptxas makes here is not modelled):
    ('div.approx then add (its multiply by the reciprocal fused)',
     ['div.approx.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f3;', S], {'FMUL.imm': 2, 'FFMA': 1}, []),
    ('div.approx.ftz then add.ftz', ['div.approx.ftz.f32 %f5, %f1, %f2;', 'add.ftz.f32 %f9, %f5, %f3;', S],
     {'FFMA': 1}, []),
    ('a mul by a constant into red.shared.add.f32 (the emulating loop\'s add)',
     ['mul.f32 %f5, %f1, 0f3DCCCCCD;', 'red.shared.add.f32 [sh], %f5;'], {'FFMA.imm': 1}, []),
    ('a mul of registers into red.shared.add.f32', ['mul.f32 %f5, %f1, %f2;', 'red.shared.add.f32 [sh], %f5;'],
     {'FMUL': 1, 'FADD': 1}, []),
    ('div.full then add', ['div.full.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f3;', S], {'FMUL.imm': 4, 'FFMA': 1}, []),
    ('shfl.sync writes the mul\'s operand before the add (its old value fused)',
     ['mul.f32 %f5, %f1, %f2;', 'shfl.sync.idx.b32 %f1, %f3, 0, 31, -1;', 'add.f32 %f9, %f5, %f4;', S,
      'st.global.f32 [%rd1+88], %f1;'], {'FFMA': 1}, [2]),
    ('vote.sync writes it', ['mul.f32 %f5, %r1, %f2;', 'vote.sync.ballot.b32 %r1, %p1, -1;', 'add.f32 %f9, %f5, %f4;',
                             S, 'st.global.b32 [%rd1+88], %r1;'], {'FFMA': 1}, [2]),
    ('shfl.sync writes the product after the add', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f4;',
                                                    'shfl.sync.idx.b32 %f5, %f3, 0, 31, -1;', S,
                                                    'st.global.f32 [%rd1+88], %f5;'], {'FFMA': 1}, [1]),
    ('neg.ftz of a plain product', ['mul.f32 %f5, %f1, %f2;', 'neg.ftz.f32 %f6, %f5;', 'add.f32 %f9, %f6, %f3;', S],
     {'FMUL': 1, 'FADD': 2}, []),
    ('f16 neg.ftz of a plain product', ['mul.f16 %h5, %h1, %h2;', 'neg.ftz.f16 %h6, %h5;', 'add.f16 %h9, %h6, %h3;', H],
     {'HMUL2': 1, 'HADD2': 2}, []),
    ('neg.ftz of a .ftz product', ['mul.ftz.f32 %f5, %f1, %f2;', 'neg.ftz.f32 %f6, %f5;', 'add.ftz.f32 %f9, %f6, %f3;',
                                   S], {'FFMA': 1}, [2]),
    ('a mul of two immediates (ptxas computes it)', ['mul.f32 %f5, 0f3DCCCCCD, 0f3DCCCCCD;', 'add.f32 %f9, %f5, %f3;',
                                                     S], {'FADD': 1}, []),
    ('... through a mov', ['mov.f32 %f6, 0f3DCCCCCD;', 'mul.f32 %f5, %f6, %f6;', 'add.f32 %f9, %f5, %f3;', S],
     {'FADD': 1}, []),
    ('... through a mov.b32 of an integer', ['mov.b32 %r6, 1036831949;', 'mul.f32 %f5, %r6, %r6;',
                                             'add.f32 %f9, %f5, %f3;', S], {'FADD': 1}, []),
    ('... an add of immediates', ['add.f32 %f6, 0f3DCCCCCD, 0f3DCCCCCD;', 'mul.f32 %f5, %f6, 0f3DCCCCCD;',
                                  'add.f32 %f9, %f5, %f3;', S], {'FADD': 1}, []),
    ('f64 two immediates', ['mul.f64 %d5, 0d3FB999999999999A, 0d3FB999999999999A;', 'add.f64 %d9, %d5, %d3;', D],
     {'DADD': 1}, []),
    ('a constant times a register', ['mov.f32 %f6, 0f3DCCCCCD;', 'mul.f32 %f5, %f6, %f1;', 'add.f32 %f9, %f5, %f3;', S],
     {'FFMA.imm': 1}, [2]),
    ('a .func\'s .reg result is the product (its caller reads it)', FUNC_RESULT, {'FMUL': 1, 'FADD': 1}, []),
    ('a call between', None, {'FMUL': 1, 'FADD': 1}, []),
    ('a debug target', ['mul.f32 %f5, %f1, %f2;', 'add.f32 %f9, %f5, %f3;', S], None, [], True),
]

CALL = """.version 8.6
.target sm_90
.address_size 64
.func (.param .b32 r) g(.param .b32 x)
{
    .reg .b32 %q;
    ld.param.b32 %q, [x];
    add.u32 %q, %q, 1;
    st.param.b32 [r], %q;
    ret;
}
.visible .entry k(.param .u64 p)
{
    .reg .f32 %f<10>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.global.f32 %f1, [%rd1];
    ld.global.f32 %f2, [%rd1+4];
    ld.global.f32 %f3, [%rd1+8];
    ld.global.b32 %r1, [%rd1+12];
    mul.f32 %f5, %f1, %f2;
    {
    .param .b32 a;
    .param .b32 rr;
    st.param.b32 [a], %r1;
    call.uni (rr), g, (a);
    ld.param.b32 %r2, [rr];
    }
    add.f32 %f9, %f5, %f3;
    st.global.f32 [%rd1+16], %f9;
    st.global.b32 [%rd1+20], %r2;
    ret;
}
"""


def check_opcodes(tmp):
    for body, want in ((['fma.rn.f32 %f9, %f1, %f2, %f3;', S], 'FFMA'), (['mul.rn.f32 %f9, %f1, %f2;', S], 'FMUL'),
                       (['add.rn.f32 %f9, %f1, %f2;', S], 'FADD'), (['fma.rn.f64 %d9, %d1, %d2, %d3;', D], 'DFMA'),
                       (['mul.rn.f64 %d9, %d1, %d2;', D], 'DMUL'), (['add.rn.f64 %d9, %d1, %d2;', D], 'DADD'),
                       (['fma.rn.f16 %h9, %h1, %h2, %h3;', H], 'HFMA2'), (['mul.rn.f16 %h9, %h1, %h2;', H], 'HMUL2'),
                       (['add.rn.f16 %h9, %h1, %h2;', H], 'HADD2')):
        got = sass_counts(program(body), tmp)
        if got != {want: 1}:
            raise SystemExit('opcode table wrong: %s gives %s' % (body[0], got))


def random_program(r, wide, branchy=False):
    """Straight-line f32 or f64 code on fresh registers. Two instructions that ptxas would make one value
    (the same operation of the same values, up to order, movs and signs) are not both written, nor are movs,
    negs and abs stored (ptxas folds them into the instructions that read them)."""
    t, p = ('f64', '%d') if wide else ('f32', '%f')
    values = [p + str(i) for i in range(1, 5)]
    value = {v: (1, v) for v in values}     # register -> (sign, what it holds up to sign)
    kinds = {v: 'in' for v in values}       # register -> 'in', 'mul', 'add', 'sub', or 'pass' (neg, mov, abs)
    body, seen, n = [], set(), 5
    plain = r.random() < 0.5                  # no modifiers: more pairs ptxas may fuse
    for _ in range(r.randint(3, 9)):
        op = r.choice(['mul', 'mul', 'mul', 'add', 'add', 'sub', 'neg', 'mov', 'abs'])
        d = p + str(n)
        if op in ('neg', 'mov', 'abs'):
            src = r.choice([v for v in values if kinds[v] == 'mul'] or values)
            sign, held = value[src]
            abs_held = held if held[0] == 'abs' else ('abs', held)
            got = (-sign if op == 'neg' else 1 if op == 'abs' else sign, abs_held if op == 'abs' else held)
            if op == 'abs' and got[1] in seen:
                continue
            seen.add(got[1])
            body.append('%s.%s %s, %s;' % (op, t, d, src))
            kinds[d] = 'pass'
        else:
            a, b = r.sample(values, 2)
            mods = ''
            if not plain and r.random() < 0.12:
                mods += '.rn'
            if not plain and not wide and r.random() < 0.25:
                mods += '.ftz'
            if not plain and op != 'mul' and not wide and r.random() < 0.12:
                mods += '.sat'
            guard = '@%p1 ' if not plain and op != 'mul' and r.random() < 0.1 else ''
            (sa, ha), (sb, hb) = value[a], value[b]
            if op == 'mul':
                held, sign = ('mul', mods, tuple(sorted((ha, hb), key=repr))), sa * sb
            else:
                if op == 'sub':
                    sb = -sb
                terms = tuple(sorted(((sa, ha), (sb, hb)), key=repr))
                flipped = tuple(sorted(((-sa, ha), (-sb, hb)), key=repr))
                held, sign = ('add', mods, min(terms, flipped, key=repr)), 1
            if held in seen:
                continue
            seen.add(held)
            body.append('%s%s%s.%s %s, %s, %s;' % (guard, op, mods, t, d, a, b))
            kinds[d] = op
            got = (sign, held)
        value[d] = got
        values.append(d)
        n += 1
    def dest(s):
        return re.search(r'\s(%\w+),', s).group(1)

    def readers(v):
        return [s for s in body if re.search(re.escape(v) + r'\b', s.split(',', 1)[1])]
    dead = True
    while dead:                               # a mov, neg or abs nothing reads: ptxas drops it
        dead = [s for s in body if kinds[dest(s)] == 'pass' and not readers(dest(s))]
        body = [s for s in body if s not in dead]
    stores = ['st.global.%s [%%rd1+%d], %s;' % (t, 96 + 8 * i, v) for i, v in enumerate(values[4:])
              if kinds[v] != 'pass' and any(v == dest(s) for s in body) and (not readers(v) or r.random() < 0.15)]
    # A forward branch over body[i:j] (a block of its own), when no value made there is read after it: its
    # values are stored inside it; a value read from before it into it, or past it, crosses a block edge.
    if branchy and len(body) >= 3:
        i = r.randrange(1, len(body) - 1)
        j = r.randrange(i + 1, len(body) + 1)
        inside = {dest(s) for s in body[i:j]}
        after = ' '.join(s.split(',', 1)[1] for s in body[j:])
        if not any(re.search(re.escape(v) + r'\b', after) for v in inside):
            store_in = [s for s in stores if s.split()[-1].rstrip(';') in inside]
            stores = [s for s in stores if s not in store_in]
            rest = body[j:] + stores
            rest = ['L9: ' + rest[0]] + rest[1:] if rest else ['L9: ret;']
            return body[:i] + ['@%p2 bra L9;'] + body[i:j] + store_in + rest
    return body + stores


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--ptxrun', default='build/ptxrun')
    ap.add_argument('--random', type=int, default=300)
    ap.add_argument('--seed', type=int, default=32)
    ap.add_argument('-v', action='store_true')
    args = ap.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        check_opcodes(tmp)
        for v in VARIANTS:
            name, body, want, fused = v[:4]
            debug = len(v) > 4 and v[4]
            ptx = CALL if body is None else body if isinstance(body, str) else program(body, debug)
            got = sass_counts(ptx, tmp) if not debug else None
            if got is not None and want is not None:   # the format's own instructions (a call's code has others)
                got = {k: c for k, c in got.items() if k[0] in {w[0] for w in want}}
            lines = [] if body is None else ptxrun_fused(args.ptxrun, ptx, tmp)
            first = FIRST_LINE if isinstance(body, list) else 0
            want_lines = [first + i for i in fused]
            ok = (want is None or got == want) and lines == want_lines
            bad += not ok
            if args.v or not ok:
                print('%-4s %-36s ptxas %s (rule: %s); ptxrun fuses lines %s (rule: %s)'
                      % ('ok' if ok else 'BAD', name, got, want, lines, want_lines))
        print('variants: %d of %d as the rule says' % (len(VARIANTS) - bad, len(VARIANTS)))
        r = random.Random(args.seed)
        agree = fusing = 0
        for k in range(args.random):
            body = random_program(r, wide=k % 4 == 3, branchy=k % 3 == 2)
            ptx = program(body)
            got = sass_counts(ptx, tmp)
            lines = ptxrun_fused(args.ptxrun, ptx, tmp)
            adds = sum(1 for s in body if re.match(r'(L9: )?(@%p1 )?(add|sub)', s))
            fma, add = got.get('FFMA', 0) + got.get('DFMA', 0), got.get('FADD', 0) + got.get('DADD', 0)
            ok = fma == len(lines) and add == adds - len(lines)
            agree += ok
            fusing += bool(lines)
            if not ok or args.v:
                print('%s random %d: ptxas %s, ptxrun fuses %d of %d adds (lines %s)\n    %s'
                      % ('ok ' if ok else 'BAD', k, got, len(lines), adds, lines, '\n    '.join(body)))
        print('random programs: %d of %d agree (%d with a fused pair)' % (agree, args.random, fusing))
    sys.exit(0 if not bad and agree == args.random else 1)


if __name__ == '__main__':
    main()
