#!/usr/bin/env python3
"""tmap_model.py: an independent model of a tensor copy's addresses (docs/semantics.md, "Tensor
maps"), written apart from exec/tensormap.c: for each element of the box, in the order it lies in
shared memory, whether it is inside the tensor, its byte offset from the tensor's global address,
and the shared-memory address it lands at after the swizzle. Writes tests/tmap_cases.h, which
tests/check_tensormap.c holds tensormap.c to.

    python3 scripts/tmap_model.py > tests/tmap_cases.h

The rules modelled (as docs/semantics.md states them):
- tiled: dimension i takes ceil(box[i] / elementStrides[i]) elements, coordinate c[i] + k *
  elementStrides[i] (dimension 0 of a non-interleaved map: box[0] elements, step 1); packed in
  shared memory dimension 0 fastest.
- im2col: pixelsPerColumn pixels of channelsPerPixel channels each (channels fastest); the pixels
  walk the pixel box from the instruction's coordinates, W fastest, then H, D, N, each step the
  dimension's elementStride; a spatial coordinate past globalDim - 1 + upperCorner goes back to
  lowerCorner and carries into the next; each pixel is read at its place plus the im2col offsets.
- swizzle: bits 4.. of the shared address (the 16-byte chunk within the span) XOR bits 7.. of it
  (which 128-byte row), 1, 2 or 3 bits for 32B, 64B, 128B.
"""

ELEM = {0: 1, 1: 2, 2: 4, 3: 4, 4: 8, 5: 8, 6: 2, 7: 4, 8: 8, 9: 2, 10: 4, 11: 4, 12: 4}


def swizzled(addr, swz):
    if swz == 0:
        return addr
    nbits = {1: 1, 2: 2, 3: 3}[swz]
    chunk = (addr >> 4) % (1 << nbits)
    row = (addr >> 7) % (1 << nbits)
    return addr - (chunk << 4) + ((chunk ^ row) << 4)


def tile_elements(m, coord):
    rank = len(m["dim"])
    counts, steps = [], []
    for i in range(rank):
        if i == 0 and m["interleave"] == 0:
            counts.append(m["box"][0])
            steps.append(1)
        else:
            counts.append(-(-m["box"][i] // m["estride"][i]))
            steps.append(m["estride"][i])
    out = []

    def walk(i, partial):
        if i < 0:
            out.append(list(partial))
            return
        for k in range(counts[i]):
            partial[i] = coord[i] + k * steps[i]
            walk(i - 1, partial)

    walk(rank - 1, [0] * rank)
    return out


def im2col_pixels(m, coord):
    rank = len(m["dim"])
    sp = list(range(1, rank - 1))
    pos = list(coord)
    pixels = [list(pos)]
    while len(pixels) < m["pixels"]:
        carry = True
        for i in sp:
            if not carry:
                break
            pos[i] = pos[i] + m["estride"][i]
            hi = m["dim"][i] - 1 + m["upper"][i - 1]
            if pos[i] > hi:
                pos[i] = m["lower"][i - 1]
            else:
                carry = False
        if carry:
            pos[rank - 1] += m["estride"][rank - 1]
        pixels.append(list(pos))
    return pixels


def im2col_elements(m, coord, offsets):
    rank = len(m["dim"])
    out = []
    for px in im2col_pixels(m, coord):
        for ch in range(m["channels"]):
            g = [coord[0] + ch] + [px[i] + offsets[i - 1] for i in range(1, rank - 1)] + [px[rank - 1]]
            out.append(g)
    return out


def strides(m):
    es = ELEM[m["dtype"]]
    return [es] + m["strides"]


def case(m, coord, offsets, shared_base):
    elems = im2col_elements(m, coord, offsets) if m["mode"] == 2 else tile_elements(m, coord)
    es = ELEM[m["dtype"]]
    st = strides(m)
    rows = []
    for e, g in enumerate(elems):
        inside = all(0 <= g[i] < m["dim"][i] for i in range(len(g)))
        goff = sum(g[i] * st[i] for i in range(len(g)))
        rows.append((int(inside), goff, swizzled(shared_base + e * es, m["swizzle"])))
    return rows


def tiled(dtype, dim, strides_, box, estride, swizzle=0, interleave=0, oobfill=0):
    return dict(mode=1, dtype=dtype, dim=dim, strides=strides_, box=box, estride=estride, swizzle=swizzle,
                interleave=interleave, oobfill=oobfill, channels=0, pixels=0, lower=[0, 0, 0], upper=[0, 0, 0])


def im2col(dtype, dim, strides_, estride, channels, pixels, lower, upper, swizzle=0):
    return dict(mode=2, dtype=dtype, dim=dim, strides=strides_, box=[0] * len(dim), estride=estride, swizzle=swizzle,
                interleave=0, oobfill=0, channels=channels, pixels=pixels, lower=lower + [0] * (3 - len(lower)),
                upper=upper + [0] * (3 - len(upper)))


CASES = [
    # name, map, coordinates, im2col offsets, shared base
    ("bf16_2d_swizzle128", tiled(9, [200, 40], [512], [64, 8], [1, 1], swizzle=3), [64, 16], [], 0x400),
    ("bf16_2d_swizzle128_edge", tiled(9, [100, 20], [256], [64, 8], [1, 1], swizzle=3), [64, 16], [], 0x800),
    ("f32_2d_swizzle64_neg", tiled(7, [30, 30], [128], [16, 4], [1, 1], swizzle=2), [-8, -2], [], 0x200),
    ("u8_2d_swizzle32", tiled(0, [64, 64], [64], [32, 6], [1, 1], swizzle=1), [16, 60], [], 0x100),
    ("f16_3d_estride", tiled(6, [40, 12, 5], [96, 1152], [16, 7, 3], [5, 3, 2]), [8, 1, 1], [], 0x80),
    ("u32_1d", tiled(2, [100], [], [8], [1]), [96], [], 0x10),
    ("f16_5d", tiled(6, [16, 3, 3, 2, 2], [32, 96, 288, 576], [8, 2, 2, 2, 1], [1, 1, 2, 1, 1]),
     [8, 1, 1, 0, 1], [], 0x40),
    ("interleave16_3d", tiled(6, [8, 10, 4], [16, 160], [8, 4, 2], [1, 2, 1], interleave=1), [0, 7, 3], [], 0x0),
    ("im2col_nhwc", im2col(6, [8, 5, 5, 2], [16, 80, 400], [1, 1, 1, 1], 8, 12, [-1, -1], [-1, -1]),
     [0, -1, -1, 0], [1, 1], 0x100),
    ("im2col_nwc_stride", im2col(7, [4, 9, 3], [16, 144], [1, 2, 1], 4, 10, [0], [0]), [0, 3, 0], [2], 0x0),
    ("im2col_ndhwc_swizzle", im2col(9, [16, 4, 3, 3, 2], [32, 128, 384, 1152], [1, 1, 1, 1, 1], 16, 40,
                                    [-1, 0, 0], [0, -1, 0], swizzle=2), [0, 2, 1, 0, 0], [0, 1, 0], 0x400),
]


def cnum(v):
    return str(v) if v >= 0 else "(%d)" % v


def main():
    print("/* tmap_cases.h: made by scripts/tmap_model.py (an independent model of a tensor copy's")
    print(" * addresses); do not edit. Each element: inside the tensor, byte offset from the global")
    print(" * address, shared address after the swizzle. */")
    print("typedef struct TmapCase {")
    print("    const char *name;")
    print("    uint8_t mode, rank, dtype, interleave, swizzle;")
    print("    uint64_t dim[5], strides[4];")
    print("    uint32_t box[5], estride[5];")
    print("    uint16_t channels, pixels;")
    print("    int32_t lower[3], upper[3];")
    print("    int32_t coord[5];")
    print("    uint16_t offsets[3];")
    print("    uint64_t shared;")
    print("    uint32_t count;")
    print("    const int64_t (*expect)[3];")
    print("} TmapCase;")
    for name, m, coord, offsets, base in CASES:
        rows = case(m, coord, offsets, base)
        print("static const int64_t %s_expect[][3] = {" % name)
        for i in range(0, len(rows), 4):
            print("    " + " ".join("{ %d, %d, %d }," % r for r in rows[i:i + 4]))
        print("};")
    print("static const TmapCase tmap_cases[] = {")
    for name, m, coord, offsets, base in CASES:
        rank = len(m["dim"])
        rows = case(m, coord, offsets, base)

        def arr(v, n):
            v = list(v) + [0] * (n - len(v))
            return "{ " + ", ".join(cnum(x) for x in v) + " }"
        print("    { \"%s\", %d, %d, %d, %d, %d, %s, %s, %s, %s, %d, %d, %s, %s, %s, %s, 0x%x, %d, %s_expect }," % (
            name, m["mode"], rank, m["dtype"], m["interleave"], m["swizzle"], arr(m["dim"], 5), arr(m["strides"], 4),
            arr(m["box"], 5), arr(m["estride"], 5), m["channels"], m["pixels"], arr(m["lower"], 3),
            arr(m["upper"], 3), arr(coord, 5), arr(offsets, 3), base, len(rows), name))
    print("};")


if __name__ == "__main__":
    main()
