#!/usr/bin/env python3
"""The hand-made wmma cases of tests/wmma: faults (exit 3), a guard false everywhere, and
definedness per element with the warning on a fragment register read directly. Expected values
worked out by hand in the comments. Run in tests/wmma: python3 gen_faults.py"""
import json
HEAD = """.version 8.7
.target sm_90
.address_size 64

// %s
.visible .entry k(.param .u64 pa, .param .u64 pd)
{
    .reg .b32 %%r<40>;
    .reg .u64 %%a, %%d, %%off;
    .reg .u32 %%lane, %%s;
    .reg .pred %%p;
    mov.u32 %%lane, %%tid.x;
    ld.param.u64 %%a, [pa];
    ld.param.u64 %%d, [pd];
    cvta.to.global.u64 %%a, %%a;
    cvta.to.global.u64 %%d, %%d;
"""
V8 = '{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}'
cases = {
 'fault_misaligned': ('a matrix at 8 bytes past a 16-byte boundary: a fault',
   '    wmma.load.a.sync.aligned.row.m16n16k16.global.f16 %s, [%%a+8], 16;\n' % V8,
   {'exit': 3, 'diagnostic': "must start at a multiple of 16 bytes"}),
 'warn_misaligned32': ('a matrix 16 bytes past a 32-byte boundary: runs, with a warning (CUDA asks 32); D = A',
   '    wmma.load.c.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3}, [%a+16], 16;\n'
   '    wmma.store.d.sync.aligned.row.m16n16k16.global.f16 [%d], {%r0, %r1, %r2, %r3}, 16;\n',
   {'buffers': {'D': ['0x3c003c00'] * 128 + ['0x00000000'] * 128}, 'diagnostic': "not 32-byte aligned"}),
 'fault_stride': ('a stride of 12 f16 (24 bytes): rows not 16 bytes apart, a fault',
   '    wmma.load.b.sync.aligned.col.m16n16k16.global.f16 %s, [%%a], 12;\n' % V8,
   {'exit': 3, 'diagnostic': "a multiple of 16 bytes apart"}),
 'fault_range': ('the last rows past the end of the 544-byte buffer (stride 32: 16 rows need 992 bytes)',
   '    wmma.load.a.sync.aligned.row.m16n16k16.global.f16 %s, [%%a], 32;\n' % V8,
   {'exit': 3, 'diagnostic': "outside every region"}),
 'fault_lanes_differ': ('each lane its own stride (the PTX ISA: undefined): a fault',
   '    and.b32 %%s, %%lane, 1;\n    mad.lo.u32 %%s, %%s, 8, 16;\n    wmma.load.a.sync.aligned.row.m16n16k16.global.f16 %s, [%%a], %%s;\n' % V8,
   {'exit': 3, 'diagnostic': "unless every lane gives the same"}),
 'fault_guard': ('a guard true in half the warp: a fault (.sync.aligned)',
   '    setp.lt.u32 %%p, %%lane, 16;\n    @%%p wmma.load.a.sync.aligned.row.m16n16k16.global.f16 %s, [%%a], 16;\n' % V8,
   {'exit': 3, 'diagnostic': "needs all 32 lanes"}),
 'fault_stride_undefined': ('a stride never written: a fault',
   '    wmma.load.a.sync.aligned.row.m16n16k16.global.f16 %s, [%%a], %%s;\n' % V8,
   {'exit': 3, 'diagnostic': "undefined stride"}),
 'fault_local': ('a generic address in .local: a fault (wmma reads .global and .shared)',
   '    .local .align 32 .b8 loc[512];\n    .reg .u64 %%g;\n    cvta.local.u64 %%g, loc;\n    wmma.load.a.sync.aligned.row.m16n16k16.f16 %s, [%%g], 16;\n' % V8,
   {'exit': 3, 'diagnostic': "global and .shared only"}),
 'guard_false_all': ('a guard false in every lane: nothing happens (D keeps its zeros)',
   '    setp.gt.u32 %%p, %%lane, 99;\n    @%%p wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%%d], %s, 16;\n' % V8,
   {'buffers': {'D': ['0x00000000'] * 256}}),
}
for name, (comment, body, expect) in cases.items():
    open(name + '.ptx', 'w').write(HEAD % comment + body + '    ret;\n}\n')
    lanes = {'block': [32, 1, 1], 'grid': [1, 1, 1], 'params': ['@A', '@D'],
             'buffers': {'A': {'type': 'b32', 'data': ['0x3c003c00'] * 136}, 'D': {'type': 'b32', 'data': ['0x00000000'] * 256}}}
    json.dump(lanes, open(name + '.lanes.json', 'w'))
    json.dump(expect, open(name + '.expect.json', 'w'))
ptx = """.version 8.7
.target sm_90
.address_size 64

// Definedness per element: A's first word undefined (A[0][0..3], s8, row) makes D's row 0
// undefined and nothing else; the st of a fragment register names it directly (a warning:
// the layout is the ISA's to leave unspecified).
.visible .entry k(.param .u64 pa, .param .u64 pd)
{
    .reg .b32 %r<40>;
    .reg .u64 %a, %d;
    ld.param.u64 %a, [pa];
    ld.param.u64 %d, [pd];
    cvta.to.global.u64 %a, %a;
    cvta.to.global.u64 %d, %d;
    wmma.load.a.sync.aligned.row.m16n16k16.global.s8 {%r0, %r1}, [%a], 16;
    wmma.load.b.sync.aligned.col.m16n16k16.global.s8 {%r2, %r3}, [%a+256], 16;
    mov.b32 %r4, 0;
    wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32 {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, {%r0, %r1}, {%r2, %r3}, {%r4, %r4, %r4, %r4, %r4, %r4, %r4, %r4};
    wmma.store.d.sync.aligned.row.m16n16k16.global.s32 [%d], {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, 16;
    st.global.b32 [%d+1024], %r8;
    ret;
}
"""
open('undefined_row.ptx', 'w').write(ptx)
data = [None] + ['0x01010101'] * 127
lanes = {'block': [32, 1, 1], 'grid': [1, 1, 1], 'params': ['@A', '@D'],
         'buffers': {'A': {'type': 'b32', 'data': data}, 'D': {'type': 'b32', 'data': ['0x00000000'] * 257}}}
json.dump(lanes, open('undefined_row.lanes.json', 'w'))
# D[r][c] = 16 (sixteen products 1*1), row 0 undefined; word 256: every lane stores its %r8, the
# last (lane 31) wins: D[7][6] by the layout (c0 of lane 31: row 31 >> 2, column 2 * (31 & 3)), 16
d = [None] * 16 + ['0x00000010'] * 241
json.dump({'buffers': {'D': d}, 'diagnostic': 'names a register of a wmma fragment'}, open('undefined_row.expect.json', 'w'))

# Forms ptxas refuses, refused alike before the run (exit 2), and one ptxas takes that ptxrun
# does not run yet (f64 .rz: not recorded).
BAD = {
 'bad_types_order': ('types out of .dtype.atype.btype.ctype order (ptxas: Unexpected instruction types)',
   '    wmma.mma.sync.aligned.row.col.m16n16k16.s32.s32.s8.s8 %s, {%%r8, %%r9}, {%%r10, %%r11}, %s;\n' % (V8, V8),
   "types must come in the order"),
 'bad_s4_layout': ('s4 wmma.mma is .row.col only (ptxas: Illegal alayout)',
   '    wmma.mma.sync.aligned.col.col.m8n8k32.s32.s4.s4.s32 {%r0, %r1}, {%r2}, {%r3}, {%r4, %r5};\n',
   ".row.col only"),
 'bad_vector': ('an f16 A fragment is eight registers (ptxas: Argument vector size mismatch)',
   '    wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3}, [%a], 16;\n',
   "takes a vector of 8 .b32 registers"),
 'bad_type_shape': ('tf32 is m16n16k8 only (ptxas: Incorrect instruction type specified)',
   '    wmma.load.a.sync.aligned.row.m16n16k16.global.tf32 {%r0, %r1, %r2, %r3}, [%a], 16;\n',
   "is not a type of wmma's a matrix in this shape"),
 'refused_f64_rz': ('f64 .rz: ptxas takes it, ptxrun does not run it yet (only .rn recorded)',
   '    .reg .f64 %%e<6>;\n    wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rz {%%e0, %%e1}, {%%e2}, {%%e3}, {%%e4, %%e5};\n',
   "cannot execute 'wmma.mma' with '.rz' yet"),
}
for name, (comment, body, diag) in BAD.items():
    open(name + '.ptx', 'w').write(HEAD % comment + body.replace('%%', '%') + '    ret;\n}\n')
    lanes = {'block': [32, 1, 1], 'grid': [1, 1, 1], 'params': ['@A', '@D'],
             'buffers': {'A': {'type': 'b32', 'data': ['0x3c003c00'] * 128}, 'D': {'type': 'b32', 'data': ['0x00000000'] * 256}}}
    json.dump(lanes, open(name + '.lanes.json', 'w'))
    json.dump({'exit': 2, 'diagnostic': diag}, open(name + '.expect.json', 'w'))

# Immediates in C (ptxas takes them): wmma.mma s8 with C = 5 everywhere, A and B all ones, so
# D = 16 + 5 = 21; mma.sync m8n8k16 with C = {5, 7}: 16 + 5, 16 + 7 (this crashed: the vectors'
# immediates were never given their rows); wmma.mma f64 with C = {1.0, 0.5} as 0d immediates and
# A = B = 0 (D = C); D's first register '_' (ptxas takes it), its last of f16 data in .f16x2.
IMM = """.version 8.7
.target sm_90
.address_size 64

// Immediates in wmma.mma's and mma's C, '_' in D, .f16x2 fragment registers (gen_faults.py).
.visible .entry k(.param .u64 pa, .param .u64 pd)
{
    .reg .b32 %r<48>;
    .reg .f16x2 %h<8>;
    .reg .f64 %e<6>;
    .reg .u64 %a, %d, %off;
    .reg .u32 %lane;
    mov.u32 %lane, %tid.x;
    ld.param.u64 %a, [pa];
    ld.param.u64 %d, [pd];
    cvta.to.global.u64 %a, %a;
    cvta.to.global.u64 %d, %d;
    wmma.load.a.sync.aligned.row.m16n16k16.global.s8 {%r0, %r1}, [%a], 16;
    wmma.load.b.sync.aligned.col.m16n16k16.global.s8 {%r2, %r3}, [%a], 16;
    wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32 {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, {%r0, %r1}, {%r2, %r3}, {5, 5, 5, 5, 5, 5, 5, 5};
    wmma.store.d.sync.aligned.row.m16n16k16.global.s32 [%d], {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, 16;
    mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%r20, %r21}, {%r0}, {%r2}, {5, 7};
    mul.wide.u32 %off, %lane, 8;
    add.s64 %off, %d, %off;
    st.global.v2.b32 [%off+1024], {%r20, %r21};
    mov.b64 %e0, 0d0000000000000000;
    wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64 {%e2, %e3}, {%e0}, {%e0}, {0d3ff0000000000000, 0d3fe0000000000000};
    wmma.store.d.sync.aligned.row.m8n8k4.global.f64 [%d+1280], {%e2, %e3}, 8;
    wmma.load.c.sync.aligned.row.m16n16k16.global.f16 {%h0, %h1, %h2, %h3}, [%a+512], 16;
    wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16 {_, %r30, %r31, %h3}, {%r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47}, {%r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47}, {%h0, %h1, %h2, %h3};
    wmma.store.d.sync.aligned.row.m16n16k16.global.f16 [%d+1792], {%h0, %r30, %r31, %h3}, 16;
    ret;
}
"""
open('immediates.ptx', 'w').write(IMM)
# A: 128 words of ones (s8 1), then at byte 512 a 16x16 f16 C of 1.0 (0x3c00), 128 words more.
json.dump({'block': [32, 1, 1], 'grid': [1, 1, 1], 'params': ['@A', '@D'],
           'buffers': {'A': {'type': 'b32', 'data': ['0x01010101'] * 128 + ['0x3c003c00'] * 128},
                       'D': {'type': 'b32', 'data': ['0x00000000'] * 704}}}, open('immediates.lanes.json', 'w'))
# D words 0-255: 21; 256-319: lane l's {21, 23} at 256 + 2l; 320-447: the f64 D = C, element
# (r, c) = 1.0 for even c, 0.5 for odd (c0 = 1.0, c1 = 0.5 in every lane), low word first;
# 448-575: the f16 D (stride 16 halves): A and B are %r40-%r47, never written (undefined), so
# every element of D is undefined, but the one from '_' kept C's register %h0: its elements
# (rows g, columns 2t and 2t+1) are C's 1.0 (0x3c00) as loaded.
d = ['0x00000015'] * 256 + ['0x00000015', '0x00000017'] * 32
for r in range(8):
    for c in range(8):
        d += ['0x00000000', '0x3ff00000'] if c % 2 == 0 else ['0x00000000', '0x3fe00000']
# f16 D: element (r, c) in word 448 + (r * 16 + c) // 2; register 0 of lane l holds (l >> 2, 2(l & 3) .. +1)
# and, for columns 8-15, register 2 (%r31); register 0 is '_', so %h0 (C) is stored there.
f16 = [[None] * 16 for _ in range(16)]
for r in range(8):
    for c in range(8):
        f16[r][c] = 0x3c00
for r in range(16):
    for c in range(0, 16, 2):
        lo, hi = f16[r][c], f16[r][c + 1]
        d.append(None if lo is None else '0x%04x%04x' % (hi, lo))
d += ['0x00000000'] * (704 - len(d))
json.dump({'buffers': {'D': d}}, open('immediates.expect.json', 'w'))
