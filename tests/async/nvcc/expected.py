#!/usr/bin/env python3
"""expected.py: the lanes and expect files of the nvcc cases here, from what each .cu's comment
says it computes (a model of the kernels written apart from ptxrun). Run it here."""
import json
import random

MASK = 0xffffffff


def s32(v):
    v &= MASK
    return v - (1 << 32) if v >> 31 else v


def write(name, lanes, out):
    with open(name + '.lanes.json', 'w') as f:
        json.dump(lanes, f)
    with open(name + '.expect.json', 'w') as f:
        json.dump({'buffers': out}, f)


rng = random.Random(80)

# pipeline_sum: 8 tiles of 64 int4; out[t] = sum_k (k + 1) * (x + y + z + w of tile k's t)
tiles = 8
data = [rng.randrange(-1000, 1000) for _ in range(tiles * 64 * 4)]
out = []
for t in range(64):
    total = 0
    for k in range(tiles):
        total += (k + 1) * sum(data[(k * 64 + t) * 4:(k * 64 + t) * 4 + 4])
    out.append(s32(total))
write('pipeline', {'block': [64], 'buffers': {'in': {'type': 's32', 'data': data}, 'out': {'type': 's32', 'count': 64}},
                   'params': ['@in', '@out', tiles]}, {'out': out})

# barrier_copy: out[t] = in[255 - t] + 2 * in2[t ^ 1]
a = [rng.randrange(-10**6, 10**6) for _ in range(256)]
b = [rng.randrange(-10**6, 10**6) for _ in range(256)]
write('barrier', {'block': [256], 'buffers': {'in': {'type': 's32', 'data': a}, 'in2': {'type': 's32', 'data': b},
                                              'out': {'type': 's32', 'count': 256}},
                  'params': ['@in', '@in2', '@out']},
      {'out': [s32(a[255 - t] + 2 * b[t ^ 1]) for t in range(256)]})

# primitives: in has 128 + 256 words; out[3t] = in[t], out[3t + 1] = in[64 + t], out[3t + 2] = the
# 16 bytes at in[128 + 4t] with the last t % 17 of them zero, folded z = 31 z + byte (32 bits)
words = [rng.randrange(0, 1 << 32) for _ in range(128 + 256)]
out = []
for t in range(64):
    raw = b''.join(w.to_bytes(4, 'little') for w in words[128 + 4 * t:128 + 4 * t + 4])
    keep = 16 - t % 17
    z = 0
    for i in range(16):
        z = (z * 31 + (raw[i] if i < keep else 0)) & MASK
    out += [words[t], words[64 + t], z]
write('primitives', {'block': [64], 'buffers': {'in': {'type': 'u32', 'data': words}, 'out': {'type': 'u32', 'count': 192}},
                     'params': ['@in', '@out']}, {'out': out})

# primitives_nowait: the same, out[3t] undefined (read before its copy landed)
write('primitives_nowait', {'block': [64], 'buffers': {'in': {'type': 'u32', 'data': words},
                                                       'out': {'type': 'u32', 'count': 192}},
                            'params': ['@in', '@out']},
      {'out': [None if i % 3 == 0 else v for i, v in enumerate(out)]})

# awbarrier: 4 blocks of 256; out[2b] = sum of the block's values, out[2b + 1] = sum of squares,
# in f64 from f32 inputs (small integers and halves: every sum exact, whatever the order)
vals = [rng.randrange(-64, 64) / 2 for _ in range(4 * 256)]
out = []
for blk in range(4):
    part = vals[blk * 256:(blk + 1) * 256]
    out += [sum(part), sum(v * v for v in part)]
write('awbarrier', {'block': [256], 'grid': [4], 'buffers': {'in': {'type': 'f32', 'data': vals},
                                                           'out': {'type': 'f64', 'count': 8}},
                    'params': ['@in', '@out']}, {'out': out})
