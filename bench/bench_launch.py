"""bench_launch.py: launches per second of bench_launch.c's tiny kernel (out[i] += a[i] over 256
floats, 2 CTAs of 128 threads) through the Python module (python/ptxrun: ptxrun.Module(text)
.get_function(name)(*args, grid=..., block=...)), NumPy arrays passed in place. Every launch adds a
once more, so after n launches out must be out0 + n * a exactly (small integers: every sum
exact), checked after each timed series; beside it the same loop in NumPy, for scale. Prints
"python: not built" when the module cannot be imported (make bench runs it with
PYTHONPATH=python and PTXRUN_LIBRARY=build/lib/libptxrun.so, under Debian's python3, which has
NumPy).
usage: python3 bench/bench_launch.py"""
import sys
import time

N, BLOCK, LAUNCHES = 256, 128, 5000

# the same PTX as bench_launch.c's tiny_ptx
TINY_PTX = """.version 7.8
.target sm_80
.address_size 64
.visible .entry E_256(.param .u64 data0, .param .u64 data1)
{
\t.reg .b32 %r<5>;
\t.reg .f32 %f<4>;
\t.reg .b64 %rd<6>;
\tld.param.u64 %rd1, [data0];
\tld.param.u64 %rd2, [data1];
\tmov.u32 %r1, %ctaid.x;
\tmov.u32 %r2, %ntid.x;
\tmov.u32 %r3, %tid.x;
\tmad.lo.s32 %r4, %r1, %r2, %r3;
\tmul.wide.s32 %rd3, %r4, 4;
\tadd.s64 %rd4, %rd1, %rd3;
\tadd.s64 %rd5, %rd2, %rd3;
\tld.global.f32 %f1, [%rd4];
\tld.global.f32 %f2, [%rd5];
\tadd.f32 %f3, %f1, %f2;
\tst.global.f32 [%rd4], %f3;
\tret;
}
"""


def main() -> int:
    try:
        import numpy as np
        import ptxrun
    except Exception as e:  # not built, not on the path, no NumPy: say so, not a failure
        print(f"python: not built ({type(e).__name__}: {e})")
        return 0
    start = np.arange(N, dtype=np.float32)
    a = (np.arange(N) % 7 - 3).astype(np.float32)
    out = start.copy()
    kernel = ptxrun.Module(TINY_PTX).get_function("E_256")

    def launch() -> None:
        kernel(out, a, grid=(N // BLOCK, 1, 1), block=(BLOCK, 1, 1))

    done, best = 0, float("inf")
    for _ in range(3):
        t0 = time.process_time()
        for _ in range(LAUNCHES):
            launch()
        best = min(best, (time.process_time() - t0) / LAUNCHES)
        done += LAUNCHES
        want = start.astype(np.float64) + done * a.astype(np.float64)
        if not np.array_equal(out.astype(np.float64), want):
            bad = int(np.flatnonzero(out.astype(np.float64) != want)[0])
            print(f"bench_launch.py: out[{bad}] is {out[bad]!r} after {done} launches, not {want[bad]!r}",
                  file=sys.stderr)
            return 1
    ref, plain = start.copy(), float("inf")
    for _ in range(3):
        t0 = time.process_time()
        for _ in range(LAUNCHES):
            np.add(ref, a, out=ref)
        plain = min(plain, (time.process_time() - t0) / LAUNCHES)
    print(f"{'(e) Python, ptxrun.Module':34s} {1 / best:8.3g} launches/s, {best * 1e6:.2f} us a launch, results "
          f"checked; NumPy's own add {1 / plain:.3g}/s ({plain * 1e6:.2f} us), {best / plain:.0f}x ptxrun")
    return 0


if __name__ == "__main__":
    sys.exit(main())
