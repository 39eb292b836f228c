"""nvcc's PTX (cuda/kernels.cu, compiled by cuda/regen.sh): printf's text, kernels chosen by their
C++ names, and a fault's CUDA line (nvcc -lineinfo)."""
import os

import numpy as np
import pytest

import ptxrun
from conftest import CUDA, line_of

PTX = os.path.join(CUDA, "kernels.ptx")
CU = os.path.join(CUDA, "kernels.cu")


@pytest.fixture(scope="module")
def mod():
    return ptxrun.Module(PTX)


def test_printf_text(mod):
    values = np.array([10, -3, 7, 0, 123456], np.int32)
    k = mod.get_function("hello")
    k(values, block=5)
    expected = "".join("thread %d: %d\n" % (i, v) for i, v in enumerate(values))
    assert k.last.printed == expected and k.last.printed_err == ""


def test_kernel_by_its_cxx_name(mod):
    assert "_Z5scaleIiLi5EEvPKT_PS0_S0_" in mod.kernels
    five = mod.get_function("scale<int, 5>")
    assert five.name == "_Z5scaleIiLi5EEvPKT_PS0_S0_"
    assert five.cxx_name == "scale<int, 5>(int const*, int*, int)"
    assert mod.get_function("scale<int, 5>(int const*, int*, int)") is five
    assert mod.get_function("_Z5scaleIiLi5EEvPKT_PS0_S0_").name == five.name
    x = np.array([1, -2, 30, 400], np.int32)
    out = np.zeros(4, np.int32)
    five(x, out, np.int32(-7), block=4)              # nvcc's int parameter is .u32: a NumPy int32's bits
    assert np.array_equal(out, x * 5 - 7)
    three = mod.get_function("scale<unsigned short, 3>")
    xs = np.array([1, 2, 60000], np.uint16)
    outs = np.zeros(3, np.uint16)
    three(xs, outs, 9, block=3)
    with np.errstate(over="ignore"):
        assert np.array_equal(outs, (xs * np.uint16(3) + np.uint16(9)).astype(np.uint16))
    with pytest.raises(ptxrun.KernelNotFound, match="2 kernels"):
        mod.get_function("scale<int")                # the start of two names: which?


def test_fault_carries_the_cuda_line(mod):
    values = np.arange(4, dtype=np.int32)
    out = np.zeros(4, np.int32)
    k = mod.get_function("read_at")
    k(values, out, 0, block=4)
    assert np.array_equal(out, values)
    with pytest.raises(ptxrun.PtxFault) as e:
        k(values, out, 2, block=4)
    with open(CU) as f:
        cu = f.read()
    cuda_line, _ = line_of(cu, "out[threadIdx.x] = values[index + threadIdx.x];")
    assert e.value.cuda_file == "kernels.cu" and e.value.cuda_line == cuda_line
    text = str(e.value)
    assert "kernels.cu:%d:" % cuda_line in text
    assert "%5d |     out[threadIdx.x] = values[index + threadIdx.x];" % cuda_line in text
    assert "ld.global" in text and e.value.file == PTX
