"""Launches over NumPy arrays: results against NumPy on the same inputs, shapes, options."""
import io
import pathlib

import numpy as np
import pytest

import ptxrun
from conftest import INDEX, entry

# y[i] = a * x[i] + y[i] with a rounded mul and a rounded add (.rn: never fused), i < n.
SAXPY = entry("saxpy", [".param .u32 n", ".param .f32 a", ".param .u64 x", ".param .u64 y"], INDEX + """
ld.param.u32 %r4, [n];
setp.ge.u32 %p1, %r1, %r4;
@%p1 bra DONE;
ld.param.f32 %f1, [a];
ld.param.u64 %rd4, [x];
ld.param.u64 %rd5, [y];
add.s64 %rd4, %rd4, %rd2;
add.s64 %rd5, %rd5, %rd2;
ld.global.f32 %f2, [%rd4];
ld.global.f32 %f3, [%rd5];
mul.rn.f32 %f2, %f1, %f2;
add.rn.f32 %f3, %f2, %f3;
st.global.f32 [%rd5], %f3;
DONE:
ret;""")


def test_saxpy_against_numpy():
    rng = np.random.default_rng(1)
    n = 1000
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    a = np.float32(1.7)
    expected = a * x + y                       # float32 mul, then float32 add: each rounded once
    k = ptxrun.Module(SAXPY).get_function("saxpy")
    k(n, a, x, y, grid=(n + 127) // 128, block=(128, 1, 1))
    assert np.array_equal(y, expected)
    assert k.last.steps > 0 and k.last.status == 0
    assert not k.last.undefined(y).any()


def test_saxpy_writes_in_place_only_below_n():
    x = np.arange(64, dtype=np.float32)
    y = np.full(64, 2, dtype=np.float32)
    k = ptxrun.Module(SAXPY).get_function("saxpy")
    k(40, 3.0, x, y, grid=1, block=64)
    expected = np.full(64, 2, dtype=np.float32)
    expected[:40] = np.float32(3) * x[:40] + np.float32(2)
    assert np.array_equal(y, expected)


GRID2D = entry("grid2d", [".param .u64 out", ".param .u32 width"], """
mov.u32 %r1, %ctaid.x;
mov.u32 %r2, %ntid.x;
mov.u32 %r3, %tid.x;
mad.lo.s32 %r1, %r1, %r2, %r3;
mov.u32 %r4, %ctaid.y;
mov.u32 %r5, %ntid.y;
mov.u32 %r6, %tid.y;
mad.lo.s32 %r4, %r4, %r5, %r6;
mov.u32 %r7, %tid.z;
mov.u32 %r8, %ctaid.z;
ld.param.u32 %r9, [width];
mad.lo.s32 %r10, %r4, %r9, %r1;
mad.lo.s32 %r11, %r4, 1000, %r1;
mad.lo.s32 %r11, %r8, 1000000, %r11;
mad.lo.s32 %r11, %r7, 100000, %r11;
mul.wide.u32 %rd2, %r10, 4;
ld.param.u64 %rd1, [out];
add.s64 %rd1, %rd1, %rd2;
st.global.u32 [%rd1], %r11;
ret;""")


def test_2d_grid_and_block():
    grid, block = (3, 2), (4, 5)
    width, height = grid[0] * block[0], grid[1] * block[1]
    out = np.zeros((height, width), dtype=np.uint32)
    ptxrun.Module(GRID2D).get_function("grid2d")(out, width, grid=grid, block=block + (1,))
    ys, xs = np.mgrid[0:height, 0:width]
    assert np.array_equal(out, (ys * 1000 + xs).astype(np.uint32))


INTOPS = entry("intops", [".param .u64 a", ".param .u64 b", ".param .u64 out"], INDEX + """
ld.param.u64 %rd4, [a];
ld.param.u64 %rd5, [b];
ld.param.u64 %rd6, [out];
add.s64 %rd4, %rd4, %rd2;
add.s64 %rd5, %rd5, %rd2;
add.s64 %rd6, %rd6, %rd2;
ld.global.u32 %r4, [%rd4];
ld.global.u32 %r5, [%rd5];
mul.lo.u32 %r6, %r4, %r5;
shr.u32 %r7, %r4, 3;
xor.b32 %r6, %r6, %r7;
sub.u32 %r6, %r6, %r5;
st.global.u32 [%rd6], %r6;
ret;""")


def test_integer_kernel_exact():
    rng = np.random.default_rng(2)
    a = rng.integers(0, 2 ** 32, 256, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2 ** 32, 256, dtype=np.uint64).astype(np.uint32)
    out = np.zeros(256, dtype=np.uint32)
    ptxrun.Module(INTOPS).get_function("intops")(a, b, out, grid=2, block=128)
    with np.errstate(over="ignore"):
        expected = ((a * b) ^ (a >> np.uint32(3))) - b
    assert np.array_equal(out, expected)


def test_module_from_path_bytes_and_names(tmp_path):
    path = tmp_path / "intops.ptx"
    path.write_text(INTOPS)
    for source in (path, str(path), INTOPS.encode()):
        mod = ptxrun.Module(source)
        assert mod.kernels == ["intops"]
    assert ptxrun.Module(pathlib.Path(path)).name == str(path)
    assert ptxrun.Module(INTOPS, name="mine.ptx").name == "mine.ptx"
    with pytest.raises(FileNotFoundError):
        ptxrun.Module(str(tmp_path / "missing.ptx"))


def test_wrong_argument_count_names_the_parameters():
    k = ptxrun.Module(SAXPY).get_function("saxpy")
    with pytest.raises(TypeError) as e:
        k(1, 2.0, np.zeros(1, np.float32), block=1)
    assert "saxpy(.u32 n, .f32 a, .u64 x, .u64 y)" in str(e.value) and "3 given" in str(e.value)


def test_kernel_not_found_is_a_lookup_error():
    mod = ptxrun.Module(SAXPY)
    with pytest.raises(ptxrun.KernelNotFound) as e:
        mod.get_function("nosuch")
    assert isinstance(e.value, LookupError) and "nosuch" in str(e.value)
    assert mod.get_function(None).name == "saxpy"


def test_non_contiguous_array_is_refused():
    x = np.zeros(64, dtype=np.float32)
    y = np.zeros(128, dtype=np.float32)[::2]
    with pytest.raises(ValueError, match="not contiguous"):
        ptxrun.Module(SAXPY).get_function("saxpy")(64, 1.0, x, y, block=64)


def test_access_past_a_slice_is_a_fault():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, dtype=np.float32)
    k = ptxrun.Module(SAXPY).get_function("saxpy")
    with pytest.raises(ptxrun.PtxFault):
        k(64, 1.0, x[:32], y, block=64)           # only 32 elements of x are the launch's
    y[:] = 0                                      # (the faulted run wrote what it ran before)
    k(32, 1.0, x[:32], y, block=64)
    assert np.array_equal(y[:32], x[:32]) and not y[32:].any()


def test_pointer_as_int_with_buffers():
    x = np.arange(8, dtype=np.float32)
    y = np.ones(8, dtype=np.float32)
    k = ptxrun.Module(SAXPY).get_function("saxpy")
    k(8, 2.0, x.ctypes.data, y, block=8, buffers=[x])
    assert np.array_equal(y, np.float32(2) * x + np.float32(1))
    with pytest.raises(ptxrun.PtxFault):          # the address without its buffer
        k(8, 2.0, x.ctypes.data, y, block=8)


def test_jobs_give_the_same():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 2 ** 32, 4096, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2 ** 32, 4096, dtype=np.uint64).astype(np.uint32)
    one, many = np.zeros(4096, np.uint32), np.zeros(4096, np.uint32)
    k = ptxrun.Module(INTOPS).get_function("intops")
    k(a, b, one, grid=32, block=128)
    k(a, b, many, grid=32, block=128, jobs=4)
    assert np.array_equal(one, many) and one.any()


LOOP = entry("loop", [".param .u64 out"], """
mov.u32 %r1, 0;
LOOP:
add.u32 %r1, %r1, 1;
bra LOOP;
ret;""")


def test_max_steps_stops_a_loop():
    k = ptxrun.Module(LOOP).get_function("loop")
    with pytest.raises(ptxrun.PtxFault) as e:
        k(np.zeros(1), block=1, max_steps=1000)
    assert e.value.result is k.last and 900 <= k.last.steps <= 1100


def test_trace_to_a_callable_and_a_file():
    pieces = []
    a, out = np.ones(4, np.uint32), np.zeros(4, np.uint32)
    k = ptxrun.Module(INTOPS).get_function("intops")
    k(a, a, out, block=4, trace=pieces.append)
    text = "".join(pieces)
    assert "mul.lo.u32" in text and "xor.b32" in text
    f = io.StringIO()
    k(a, a, out, block=4, trace=f)
    assert f.getvalue() == text


def test_trace_callable_error_is_raised_after_the_launch():
    def boom(text):
        raise KeyError("from the trace")
    out = np.zeros(4, np.uint32)
    with pytest.raises(KeyError, match="from the trace"):
        ptxrun.Module(INTOPS).get_function("intops")(out, out, out, block=4, trace=boom)


def test_refused_launch_shape():
    with pytest.raises(ptxrun.PtxRefused, match="1024"):
        ptxrun.Module(INTOPS).get_function("intops")(0, 0, 0, block=(2048, 1, 1))
    with pytest.raises(ValueError):
        ptxrun.Module(INTOPS).get_function("intops")(0, 0, 0, block=(1, 2, 3, 4))


# Each thread stores its index into the dynamic .shared block, then reads its mirror's.
DYNAMIC = """.version 7.8
.target sm_90
.address_size 64
.extern .shared .align 4 .b8 dyn[];
.visible .entry mirror(.param .u64 out)
{
.reg .b32 %r<8>;
.reg .b64 %rd<4>;
mov.u32 %r1, %tid.x;
mov.u32 %r2, %ntid.x;
mov.u32 %r3, dyn;
shl.b32 %r4, %r1, 2;
add.u32 %r5, %r3, %r4;
st.shared.u32 [%r5], %r1;
bar.sync 0;
sub.u32 %r6, %r2, %r1;
sub.u32 %r6, %r6, 1;
shl.b32 %r6, %r6, 2;
add.u32 %r6, %r3, %r6;
ld.shared.u32 %r7, [%r6];
ld.param.u64 %rd1, [out];
mul.wide.u32 %rd2, %r1, 4;
add.s64 %rd1, %rd1, %rd2;
st.global.u32 [%rd1], %r7;
ret;
}
"""


def test_dynamic_shared_memory():
    out = np.zeros(96, np.uint32)
    k = ptxrun.Module(DYNAMIC).get_function("mirror")
    k(out, block=96, shared_mem=96 * 4)
    assert np.array_equal(out, np.arange(96)[::-1])
    with pytest.raises(ptxrun.PtxFault):             # too small a block for the threads' words
        k(out, block=96, shared_mem=64 * 4)
