#!/usr/bin/env python3
"""bench_python.py: launches per second of a tiny kernel (one thread storing one word) through the
package, and through the bare C call (ptxrun_launch through ctypes, its arguments and options made
once): the difference is the package's cost per launch. Prints figures; not a test.

usage: PYTHONPATH=python python3 bench/bench_python.py [LAUNCHES]
"""
import ctypes
import sys
import time

import numpy as np

import ptxrun
from ptxrun import _lib

TINY = """.version 7.8
.target sm_90
.address_size 64
.visible .entry tiny(.param .u64 out, .param .u32 v)
{
.reg .b32 %r<2>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [out];
ld.param.u32 %r1, [v];
st.global.u32 [%rd1], %r1;
ret;
}
"""


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    start = time.perf_counter()
    mod = ptxrun.Module(TINY)
    k = mod.get_function("tiny")
    out = np.zeros(1, np.uint32)
    k(out, 5, block=1)
    first = time.perf_counter() - start
    assert out[0] == 5
    best_py = best_c = float("inf")
    pointer, value = ctypes.c_uint64(out.ctypes.data), ctypes.c_uint32(6)
    args = (ctypes.c_void_p * 2)(ctypes.addressof(pointer), ctypes.addressof(value))
    buffers = (_lib.Buffer_ * 1)()
    buffers[0].data, buffers[0].size = out.ctypes.data, out.nbytes
    options = _lib.LaunchOptions_()
    options.grid[0] = options.block[0] = 1
    options.buffers, options.buffer_count = buffers, 1
    result = ctypes.c_void_p()
    launch, free = _lib.lib.ptxrun_launch, _lib.lib.ptxrun_result_free
    for _ in range(3):                     # the best of three rounds of each
        t = time.perf_counter()
        for _ in range(n):
            k(out, 5, block=1)
        best_py = min(best_py, (time.perf_counter() - t) / n)
        t = time.perf_counter()
        for _ in range(n):
            launch(k._handle, args, ctypes.byref(options), ctypes.byref(result))
            free(result)
        best_c = min(best_c, (time.perf_counter() - t) / n)
    assert out[0] == 6
    print("python: the first launch of a module (load, lower, run): %.0f us" % (first * 1e6))
    print("python: a launch of a tiny kernel: %.1f us (%.0f launches/s)" % (best_py * 1e6, 1 / best_py))
    print("python: ptxrun_launch alone through ctypes: %.1f us (%.0f launches/s); the package adds %.1f us"
          % (best_c * 1e6, 1 / best_c, (best_py - best_c) * 1e6))


if __name__ == "__main__":
    main()
