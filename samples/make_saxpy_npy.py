#!/usr/bin/env python3
"""Writes saxpy_x.npy and saxpy_y.npy, the README walkthrough's inputs (x[i] = i / 4, y[i] = 1), in
NumPy's .npy format version 1.0, without NumPy: the magic, the version, a little-endian header
length, a Python-literal header padded with spaces to a multiple of 64 bytes, then the data."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write_npy(path, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    pad = 64 - (10 + len(header) + 1) % 64
    header += " " * (pad % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%df" % len(values), *values))


write_npy(os.path.join(HERE, "saxpy_x.npy"), [i / 4 for i in range(1000)])
write_npy(os.path.join(HERE, "saxpy_y.npy"), [1.0] * 1000)
