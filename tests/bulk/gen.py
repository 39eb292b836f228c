#!/usr/bin/env python3
"""gen.py: the lanes and expect files of tests/bulk, each expected value computed here from the
rules docs/semantics.md states ("Tensor maps", "Bulk and tensor copies"), apart from ptxrun:
tensor element (x, y) at byte y * stride + x * size; the box's elements packed in shared memory,
dimension 0 fastest; the 128-byte swizzle moving the 16-byte chunk k of 128-byte row r to chunk
k ^ (r % 8); elements outside the tensor filled with zero (or the NaN 0x7fff of bf16) on a load and
left alone on a store; im2col's column from scripts/tmap_model.py. Run from anywhere:
    python3 tests/bulk/gen.py"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import tmap_model  # noqa: E402


def dump(name, obj):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


def swizzle128(a):
    return a ^ (((a >> 7) & 7) << 4)


W, H, ROW = 100, 40, 128          # a 100 x 40 tensor of 16-bit elements in rows of 256 bytes
X0, Y0 = 48, 36                    # the box's corner: columns 100.., rows 40.. lie outside


def store_reduce():
    lanes = {"block": [64, 1, 1], "params": {"out": "@out", "acc": "@acc", "last": "@last"},
             "buffers": {"out": {"type": "u32", "count": 64},
                         "acc": {"type": "u32", "data": [1000 + i for i in range(32)]},
                         "last": {"type": "u32", "count": 1}}}
    dump("store_reduce.lanes.json", lanes)
    dump("store_reduce.expect.json", {"buffers": {"out": [3 * i + 1 for i in range(64)],
                                                  "acc": [1000 + i + 3 * i + 1 for i in range(32)],
                                                  "last": [190]}})
    for v in ("nowait", "readwait"):
        dump("store_%s.lanes.json" % v, {"block": [64, 1, 1], "params": {"out": "@out", "last": "@last"},
                                         "buffers": {"out": {"type": "u32", "count": 64},
                                                     "last": {"type": "u32", "count": 1}}})
    dump("store_nowait.expect.json", {"buffers": {"out": [None] * 64, "last": [None]},
                                      "diagnostic": "a bulk copy's shared source was read after its thread exited"})
    dump("store_readwait.expect.json", {"buffers": {"out": [3 * i + 1 for i in range(64)], "last": [None]},
                                        "diagnostic": "read of bytes an asynchronous copy has not written yet"})


def tma_store():
    lanes = {"block": [64, 1, 1], "buffers": {"g": {"type": "b16", "data": ["0xffff"] * (ROW * H)}},
             "params": {"tmap": {"tensormap": {"buffer": "g", "type": "bf16", "dims": [W, H], "strides": [256],
                                               "box": [64, 8], "swizzle": "128B"}}, "x": X0, "y": Y0}}
    dump("tma_store.lanes.json", lanes)
    g = [0xffff] * (ROW * H)
    for r in range(8):
        for c in range(64):
            x, y = X0 + c, Y0 + r
            if x < W and y < H:
                g[y * ROW + x] = r * 100 + c
    dump("tma_store.expect.json", {"buffers": {"g": ["0x%04x" % v for v in g]}})


def tma_load():
    g = [(1000 * y + x) & 0xffff if x < W else 0 for y in range(H) for x in range(ROW)]

    def lanes(fill):
        t = {"buffer": "g", "type": "bf16", "dims": [W, H], "strides": [256], "box": [64, 8], "swizzle": "128B"}
        if fill:
            t["oob_fill"] = "nan"
        return {"block": [64, 1, 1], "buffers": {"g": {"type": "b16", "data": ["0x%04x" % v for v in g]},
                                                 "out": {"type": "b16", "count": 512}},
                "params": {"tmap": {"tensormap": t}, "out": "@out", "x": X0, "y": Y0}}

    def box(fill):
        out = []
        for r in range(8):
            for c in range(64):
                x, y = X0 + c, Y0 + r
                out.append(g[y * ROW + x] if x < W and y < H else fill)
        return out

    dump("tma_load.lanes.json", lanes(False))
    dump("tma_load.expect.json", {"buffers": {"out": ["0x%04x" % v for v in box(0)]}})
    dump("tma_load_nan.lanes.json", lanes(True))
    dump("tma_load_nan.expect.json", {"buffers": {"out": ["0x%04x" % v for v in box(0x7fff)]}})
    dump("tma_load_nowait.lanes.json", lanes(False))
    dump("tma_load_nowait.expect.json", {"buffers": {"out": [None] * 512},
                                         "diagnostic": "read of bytes an asynchronous copy has not written yet"})
    # nvcc/tma.ptx: tile copies the shared box as it lies (swizzled) to float out; store stores a
    # linear box (no swizzle) at (X0, Y0).
    u16 = [(1000 * y + x) & 0xffff if x < W else 0 for y in range(H) for x in range(ROW)]
    b = [u16[(Y0 + r) * ROW + X0 + c] if X0 + c < W and Y0 + r < H else 0 for r in range(8) for c in range(64)]
    p = "_Z4tile14CUtensorMap_stPfii_param_"
    dump("nvcc/tma.lanes.json", {"block": [128, 1, 1],
                                 "buffers": {"g": {"type": "u16", "data": u16}, "out": {"type": "f32", "count": 512}},
                                 "params": {p + "0": {"tensormap": {"buffer": "g", "type": "u16", "dims": [W, H],
                                                                    "strides": [256], "box": [64, 8],
                                                                    "swizzle": "128B"}},
                                            p + "1": "@out", p + "2": X0, p + "3": Y0}})
    dump("nvcc/tma.expect.json", {"entry": "tile(CUtensorMap_st, float*, int, int)",
                                  "buffers": {"out": [float(b[swizzle128(2 * i) // 2]) for i in range(512)]}})
    h = [0xffff] * (ROW * H)
    for r in range(8):
        for c in range(64):
            if X0 + c < W and Y0 + r < H:
                h[(Y0 + r) * ROW + X0 + c] = 64 * r + c
    p = "_Z5store14CUtensorMap_stii_param_"
    dump("nvcc/tma_store.lanes.json", {"block": [128, 1, 1], "buffers": {"g": {"type": "u16", "data": [0xffff] * (ROW * H)}},
                                       "params": {p + "0": {"tensormap": {"buffer": "g", "type": "u16", "dims": [W, H],
                                                                          "strides": [256], "box": [64, 8]}},
                                                  p + "1": X0, p + "2": Y0}})
    dump("nvcc/tma_store.expect.json", {"entry": "store(CUtensorMap_st, int, int)", "buffers": {"g": h}})


def im2col_load():
    dims, strides = [8, 5, 5, 2], [16, 80, 400]
    m = tmap_model.im2col(6, dims, strides, [1, 1, 1, 1], 8, 12, [-1, -1], [-1, -1])
    elems = tmap_model.im2col_elements(m, [0, -1, -1, 0], [1, 1])
    value = lambda c, w, h, n: 1000 * n + 100 * h + 10 * w + c
    # the tensor's f16 elements hold small integers exactly: f16 bits of v
    import struct
    f16 = lambda v: struct.unpack("<H", struct.pack("<e", float(v)))[0]
    data = [f16(value(c, w, h, n)) for n in range(2) for h in range(5) for w in range(5) for c in range(8)]
    out = []
    for g in elems:
        inside = all(0 <= g[i] < dims[i] for i in range(4))
        out.append("0x%04x" % (f16(value(*g)) if inside else 0))
    dump("im2col_load.lanes.json", {"block": [96, 1, 1],
                                    "buffers": {"t": {"type": "b16", "data": ["0x%04x" % v for v in data]},
                                                "out": {"type": "b16", "count": 96}},
                                    "params": {"tmap": {"tensormap": {"buffer": "t", "mode": "im2col", "type": "f16",
                                                                      "dims": dims, "strides": strides, "channels": 8,
                                                                      "pixels": 12, "lower": [-1, -1],
                                                                      "upper": [-1, -1]}},
                                               "out": "@out"}})
    dump("im2col_load.expect.json", {"buffers": {"out": out}})


def bulk_load():
    g = [(0x9e3779b9 * (i + 1)) & 0xffffffff for i in range(32)]
    dump("bulk_load.lanes.json", {"block": [1, 1, 1], "params": {"g": "@g", "out": "@out"},
                                  "buffers": {"g": {"type": "b32", "data": ["0x%08x" % v for v in g]},
                                              "out": {"type": "b32", "count": 32}}})
    dump("bulk_load.expect.json", {"buffers": {"out": ["0x%08x" % v for v in g]}})


def tensor_reduce():
    ROWF = 16                      # rows of 64 bytes: 16 floats, 10 of them in the tensor
    g = [float(100 * y + x) if x < 10 else 0.0 for y in range(5) for x in range(ROWF)]
    lanes = {"block": [32, 1, 1], "buffers": {"g": {"type": "f32", "data": g}},
             "params": {"tmap": {"tensormap": {"buffer": "g", "type": "f32", "dims": [10, 5], "strides": [64],
                                               "box": [8, 4]}}}}
    dump("tensor_reduce.lanes.json", lanes)
    out = list(g)
    for r in range(4):
        for c in range(8):
            x, y = 4 + c, 3 + r
            if x < 10 and y < 5:
                out[y * ROWF + x] += 8 * r + c + 0.5      # exact in f32
    dump("tensor_reduce.expect.json", {"buffers": {"g": out}})


def im2col_store():
    dims, strides = [4, 9, 2], [16, 144]
    m = tmap_model.im2col(7, dims, strides, [1, 2, 1], 4, 6, [0], [0])
    elems = tmap_model.im2col_elements(m, [0, 5, 1], [0])
    t = [-1.0] * (4 * 9 * 2)
    for e, (c, w, n) in enumerate(elems):
        if 0 <= w < 9 and 0 <= n < 2:
            t[(n * 9 + w) * 4 + c] = e + 0.25
    dump("im2col_store.lanes.json", {"block": [24, 1, 1], "buffers": {"t": {"type": "f32", "data": [-1.0] * 72}},
                                     "params": {"tmap": {"tensormap": {"buffer": "t", "mode": "im2col", "type": "f32",
                                                                       "dims": dims, "strides": strides,
                                                                       "element_strides": [1, 2, 1], "channels": 4,
                                                                       "pixels": 6, "lower": [0], "upper": [0]}}}})
    dump("im2col_store.expect.json", {"buffers": {"t": t}})


store_reduce()
bulk_load()
im2col_store()
tensor_reduce()
tma_store()
tma_load()
im2col_load()
