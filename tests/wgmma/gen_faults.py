#!/usr/bin/env python3
"""tests/wgmma/gen_faults.py: wgmma cases about everything but the arithmetic: forms refused before
the run (exit 2) as ptxas 13.0 refuses them (-arch=sm_90a: each message below is what ptxas says
of the same line) or as ptxrun does not run them yet; execution faults (exit 3); the warning for
a missing wgmma.fence; wgmma-groups (wait_group 1 lands the older group only). Shared memory is
zero, so every D is 0 exactly. Run: python3 tests/wgmma/gen_faults.py (from the repository root)."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

def kernel(body, version='8.4', regs=4):
    return '''.version %s
.target sm_90a
.address_size 64

.visible .entry k(.param .u64 p_out)
{
  .reg .pred %%p<4>;
  .reg .b32 %%r<20>;
  .reg .b64 %%rd<20>;
  .reg .f32 %%f<%d>;
  .reg .f32 %%g<%d>;
  .shared .align 1024 .b8 smem[4096];
  mov.u32 %%r0, %%tid.x;
  mov.u32 %%r1, smem;
  shl.b32 %%r2, %%r0, 5;
  add.u32 %%r2, %%r2, %%r1;
  st.shared.v4.u32 [%%r2], {0, 0, 0, 0};
  st.shared.v4.u32 [%%r2+16], {0, 0, 0, 0};
  bar.sync 0;
  fence.proxy.async.shared::cta;
  shr.u32 %%r1, %%r1, 4;
  cvt.u64.u32 %%rd1, %%r1;
  or.b64 %%rd1, %%rd1, 0x0000001000010000;
  ld.param.u64 %%rd8, [p_out];
  cvta.to.global.u64 %%rd8, %%rd8;
  mul.wide.u32 %%rd9, %%r0, 32;
  add.u64 %%rd8, %%rd8, %%rd9;
%s
  ret;
}
''' % (version, regs, regs, body)

D = '{%f0, %f1, %f2, %f3}'
G = '{%g0, %g1, %g2, %g3}'
MMA = 'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 %s, %%rd1, %%rd1, 0, 1, 1, 0, 0;'
STORE = '\n'.join('  st.global.f32 [%%rd8+%d], %%f%d;' % (4 * i, i) for i in range(4)) + '\n' + \
        '\n'.join('  st.global.f32 [%%rd8+%d], %%g%d;' % (16 + 4 * i, i) for i in range(4))

CASES = {
    # refused before the run
    'refuse_fp8': (kernel('  wgmma.fence.sync.aligned;\n  wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 %s, '
                          '%%rd1, %%rd1, 0, 1, 1;' % D),
                   {'exit': 2, 'diagnostic': "no recording of the H100's fp8 accumulation"}),
    # ptxas: "Unexpected instruction types specified for 'wgmma.mma_async'"
    'bad_bf16_f16d': (kernel('  wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16 {%r2, %r3}, %rd1, %rd1, 0, '
                             '1, 1, 0, 0;'),
                      {'exit': 2, 'diagnostic': 'a .dtype its A and B types do not take'}),
    # ptxas refuses m64n40k32 for s8 (the integer forms take 8, 16, 24, then multiples of 16)
    'bad_int_n': (kernel('  wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 {%s}, %%rd1, %%rd1, 0;'
                         % ', '.join('%%r%d' % i for i in range(20)), regs=4).replace('%r<20>', '%r<24>'),
                  {'exit': 2, 'diagnostic': 'an N the integer and b1 forms do not take'}),
    # ptxas: "Incorrect operations specified for wgmma.mma_async with boolean type"
    'bad_b1_xor': (kernel('  wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.xor.popc {%r2, %r3, %r4, %r5}, '
                          '%rd1, %rd1, 0;'),
                   {'exit': 2, 'diagnostic': 'take .and.popc'}),
    # ptxas: "Feature 'WGMMA with mixed integer types' requires PTX ISA .version 8.4 or later"
    'bad_mixed_80': (kernel('  wgmma.mma_async.sync.aligned.m64n8k32.s32.u8.s8 {%r2, %r3, %r4, %r5}, %rd1, %rd1, 0;',
                            version='8.0'),
                     {'exit': 2, 'diagnostic': 'requires PTX ISA 8.4'}),
    # ptxas: "Argument 4 of instruction ...: unexpected value '2', expected to be -1 or 1"
    'bad_scale': (kernel('  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 %s, %%rd1, %%rd1, 0, 2, 1, 0, 0;' % D),
                  {'exit': 2, 'diagnostic': 'imm-scale) must be 1 or -1'}),
    # ptxas: "Arguments mismatch for instruction 'wgmma.wait_group'"
    'bad_wait_reg': (kernel('  wgmma.wait_group.sync.aligned %r0;'),
                     {'exit': 2, 'diagnostic': 'takes an integer constant N'}),
    # execution faults
    'fault_partial': (kernel('  wgmma.fence.sync.aligned;\n  ' + MMA % D + '\n  wgmma.commit_group.sync.aligned;\n'
                             '  wgmma.wait_group.sync.aligned 0;'),
                      {'exit': 3, 'diagnostic': 'executed by warpgroups of 128 threads'}, 64),
    'fault_diverged': (kernel('  setp.lt.u32 %p0, %r0, 16;\n  wgmma.fence.sync.aligned;\n  @%p0 ' + MMA % D),
                       {'exit': 3, 'diagnostic': 'need all 32 lanes of every warp'}),
    'fault_base_offset': (kernel('  or.b64 %rd1, %rd1, 0x4002000000000000;\n  wgmma.fence.sync.aligned;\n  ' + MMA % D),
                          {'exit': 3, 'diagnostic': 'has base offset 1'}),
    # the warning: no wgmma.fence before the first wgmma.mma_async
    'warn_nofence': (kernel('  ' + MMA % D + '\n  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;'),
                     {'diagnostic': 'with no wgmma.fence before it'}),
    # registers of an operation in flight written before its wait: D, and A given in registers
    'warn_d_written': (kernel('  wgmma.fence.sync.aligned;\n  ' + MMA % D + '\n  wgmma.commit_group.sync.aligned;\n'
                              '  mov.f32 %f1, 0f3F800000;\n  wgmma.wait_group.sync.aligned 0;'),
                       {'diagnostic': 'an accumulator register of this wgmma.mma_async was written before'}),
    'warn_a_written': (kernel('  mov.b32 %%r10, 0;\n  mov.b32 %%r11, 0;\n  mov.b32 %%r12, 0;\n  mov.b32 %%r13, 0;\n'
                              '  wgmma.fence.sync.aligned;\n  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 %s, '
                              '{%%r10, %%r11, %%r12, %%r13}, %%rd1, 0, 1, 1, 0;\n  wgmma.commit_group.sync.aligned;\n'
                              '  mov.b32 %%r12, 7;\n  wgmma.wait_group.sync.aligned 0;' % D),
                       {'diagnostic': "a register of this wgmma.mma_async's A was written before"}),
    # two groups: wait_group 1 lands the first (D = 0) and leaves the second's D undefined, its
    # stores warning as reads in flight (the second wgmma.mma_async is at line 31)
    'groups': (kernel('  wgmma.fence.sync.aligned;\n  ' + MMA % D + '\n  wgmma.commit_group.sync.aligned;\n  '
                      + MMA % G + '\n  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 1;\n' + STORE
                      + '\n  wgmma.wait_group.sync.aligned 0;'),
               {'buffers': {'out': ([0] * 4 + [None] * 4) * 128},
                'diagnostic': 'read of %g0, which the wgmma.mma_async at line 31 writes, before wgmma.wait_group'}),
    # registers of an operation in flight read before its wait (the wgmma.mma_async is at line 29):
    # by arithmetic; as another wgmma.mma_async's A; as the accumulator of one of another shape
    # (k8, tf32: the ISA orders accumulator accesses only between wgmma.mma_async of one shape)
    'warn_d_read': (kernel('  wgmma.fence.sync.aligned;\n  ' + MMA % D + '\n  wgmma.commit_group.sync.aligned;\n'
                           '  add.f32 %g0, %f0, %f2;\n  wgmma.wait_group.sync.aligned 0;'),
                    {'diagnostic': 'read of %f0, which the wgmma.mma_async at line 29 writes, before wgmma.wait_group'}),
    'warn_a_in_flight': (kernel('  wgmma.fence.sync.aligned;\n  ' + MMA % '{%r14, %r15, %r16, %r17}' + '\n'
                                '  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 %s, {%%r14, %%r15, %%r16, %%r17}, '
                                '%%rd1, 0, 1, 1, 0;\n  wgmma.commit_group.sync.aligned;\n'
                                '  wgmma.wait_group.sync.aligned 0;' % D),
                         {'diagnostic': 'read of %r14, which the wgmma.mma_async at line 29 writes, before'}),
    'warn_chain_shapes': (kernel('  wgmma.fence.sync.aligned;\n  ' + MMA % D + '\n'
                                 '  wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 %s, %%rd1, %%rd1, 1, 1, 1;\n'
                                 '  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;' % D),
                          {'diagnostic': 'read of %f0, which the wgmma.mma_async at line 29 writes, before'}),
}

for name, spec in CASES.items():
    text, expect = spec[0], spec[1]
    threads = spec[2] if len(spec) > 2 else 128
    base = os.path.join(HERE, 'wgmma_' + name)
    with open(base + '.ptx', 'w') as f:
        f.write(text)
    lanes = {'block': [threads, 1, 1], 'grid': [1, 1, 1], 'params': ['@out'],
             'buffers': {'out': {'type': 'f32', 'data': [0] * (8 * threads)}}}
    with open(base + '.lanes.json', 'w') as f:
        json.dump(lanes, f)
    with open(base + '.expect.json', 'w') as f:
        json.dump(expect, f)
