"""Arguments to parameters: each PTX type's conversion, its bytes as the kernel stores them,
against struct.pack of the same values (or bit patterns worked out by hand); out-of-range errors."""
import struct

import numpy as np
import pytest

import ptxrun
from conftest import entry

# Every parameter stored into out's bytes at fixed offsets.
LAYOUT = [("a", "u8", 0), ("b", "s8", 1), ("c", "u16", 2), ("d", "s16", 4), ("e", "u32", 8), ("f", "s32", 12),
          ("g", "u64", 16), ("h", "s64", 24), ("i", "f32", 32), ("j", "f64", 40), ("k", "f16", 48),
          ("l", "b16", 50), ("m", "b32", 52)]
STORE = {1: ("u8", "%h1", "b16"), 2: ("b16", "%h1", "b16"), 4: ("b32", "%r1", "b32"), 8: ("b64", "%rd2", "b64")}
SIZE = {"u8": 1, "s8": 1, "u16": 2, "s16": 2, "f16": 2, "b16": 2, "u32": 4, "s32": 4, "f32": 4, "b32": 4,
        "u64": 8, "s64": 8, "f64": 8}


def _params_kernel():
    body = "ld.param.u64 %rd1, [out];\n"
    for name, ptype, offset in LAYOUT:
        kind, reg, _ = STORE[SIZE[ptype]]
        body += "ld.param.%s %s, [%s];\nst.global.%s [%%rd1+%d], %s;\n" % (kind, reg, name, kind, offset, reg)
    params = [".param .u64 out"] + [".param .%s %s" % (t, n) for n, t, _ in LAYOUT]
    return entry("params", params, body + "ret;")


PARAMS = _params_kernel()


def _expected(values):
    out = bytearray(64)
    formats = {"u8": "<B", "s8": "<b", "u16": "<H", "s16": "<h", "u32": "<I", "s32": "<i", "u64": "<Q",
               "s64": "<q", "f32": "<f", "f64": "<d", "b32": "<I"}
    for (name, ptype, offset), v in zip(LAYOUT, values):
        if ptype in ("f16", "b16"):
            raw = struct.pack("<H", v)          # given as the expected bits
        else:
            raw = struct.pack(formats[ptype], v)
        out[offset:offset + len(raw)] = raw
    return bytes(out)


@pytest.fixture(scope="module")
def params():
    return ptxrun.Module(PARAMS).get_function("params")


def test_params_are_described(params):
    assert [(p.name, p.type, p.size) for p in params.params[1:]] == [(n, t, SIZE[t]) for n, t, _ in LAYOUT]
    assert params.params[0].pointer and not params.params[5].pointer


def test_every_scalar_type(params):
    out = np.zeros(64, np.uint8)
    params(out, 255, -128, 65535, -32768, 2 ** 32 - 1, -2 ** 31, 2 ** 64 - 1, -2 ** 63, 1.5, -0.1,
           np.float16(0.333), -2, -1, block=1)
    # f16 0.333: 0x3554 (sign 0, exponent 01101, fraction 0101010100 = 341 + 1024 = 1365 / 2^12);
    # b16 -2 and b32 -1: their two's complement bits.
    expected = _expected([255, -128, 65535, -32768, 2 ** 32 - 1, -2 ** 31, 2 ** 64 - 1, -2 ** 63, 1.5, -0.1,
                          0x3554, 0xFFFE, 2 ** 32 - 1])
    assert out.tobytes() == expected


def test_numpy_scalars_and_bools(params):
    out = np.zeros(64, np.uint8)
    params(out, np.uint8(7), np.int8(-7), np.uint16(9), True, np.int64(5), np.int32(-1), np.uint64(2 ** 63),
           False, np.float32(0.1), np.float64(2.5), 1.0, np.int16(-3), np.int32(-2), block=1)
    expected = _expected([7, -7, 9, 1, 5, -1, 2 ** 63, 0, struct.unpack("<f", struct.pack("<f", 0.1))[0], 2.5,
                          0x3C00, 0xFFFD, 2 ** 32 - 2])
    assert out.tobytes() == expected


def test_numpy_integer_of_the_width_gives_its_bits(params):
    # nvcc declares an int parameter .u32: np.int32(-1) passes its bits, a Python -1 does not fit.
    out = np.zeros(64, np.uint8)
    args = [out, 0, 0, 0, 0, np.int32(-1), 0, 0, 0, 0.0, 0.0, 0.0, 0, 0]
    params(*args, block=1)
    assert struct.unpack_from("<I", out.tobytes(), 8)[0] == 0xFFFFFFFF
    args[5] = -1
    with pytest.raises(OverflowError):
        params(*args, block=1)


def test_numpy_float_of_the_width_gives_its_bits(params):
    # A NumPy float of the parameter's width passes its bits as they are, NaN payloads and
    # signalling NaNs included (through a Python float, x86 quiets a signalling NaN and an f16
    # NaN's payload is lost): f16 0x7c01 and 0xfe55, f32 0x7f800001, f64 0x7ff0000000000001.
    out = np.zeros(64, np.uint8)
    args = [out, 0, 0, 0, 0, 0, 0, 0, 0, np.uint32(0x7F800001).view(np.float32),
            np.uint64(0x7FF0000000000001).view(np.float64), np.uint16(0x7C01).view(np.float16), 0, 0]
    params(*args, block=1)
    assert struct.unpack_from("<I", out.tobytes(), 32)[0] == 0x7F800001
    assert struct.unpack_from("<Q", out.tobytes(), 40)[0] == 0x7FF0000000000001
    assert struct.unpack_from("<H", out.tobytes(), 48)[0] == 0x7C01
    args[11] = np.array(np.uint16(0xFE55).view(np.float16))          # a 0-d array too
    params(*args, block=1)
    assert struct.unpack_from("<H", out.tobytes(), 48)[0] == 0xFE55


def test_bf16_rounds_to_nearest_even_from_the_double():
    # (A .bf16 kernel parameter is not valid PTX, ptxas refuses it: nvcc passes a __nv_bfloat16 as
    # .b8 p[2], which takes the bytes of ptxrun.bf16_bits; ptxrun's .bf16 parameters use it too.)
    # bf16 has 8 significant bits: near 1.0 its step is 2^-7 (0x3f80 = 1.0, 0x3f81 = 1 + 2^-7).
    cases = [(1 + 2 ** -8, 0x3F80),                 # half a step: ties to the even 0x3f80
             (1 + 3 * 2 ** -8, 0x3F82),             # one and a half steps: ties to the even 0x3f82
             (1 + 2 ** -8 + 2 ** -30, 0x3F81),      # just over half: up (through an f32 first it would tie)
             (-(1 + 2 ** -8 + 2 ** -30), 0xBF81),
             (2.0 ** -133, 0x0001),                 # the smallest subnormal
             (2.0 ** -134, 0x0000),                 # half of it: ties to even, zero
             (float("inf"), 0x7F80), (float("-inf"), 0xFF80), (-0.0, 0x8000)]
    for value, bits in cases:
        assert ptxrun.bf16_bits(value) == bits, value
    assert ptxrun.bf16_bits(float("nan")) == 0x7FC0
    # The largest bf16 is 2^128 - 2^120 (0x7f7f, odd); the tie with 2^128 (even) goes past it.
    assert ptxrun.bf16_bits(2.0 ** 128 - 2.0 ** 119 - 2.0 ** 100) == 0x7F7F
    for past in (2.0 ** 128 - 2.0 ** 119, 2.0 ** 128, 1e300):
        with pytest.raises(OverflowError):
            ptxrun.bf16_bits(past)


def test_f16_from_a_python_float_rounds_to_nearest_even(params):
    # f16 near 1.0: a step of 2^-10 (0x3c00 = 1.0).
    for value, bits in [(1 + 2 ** -11, 0x3C00), (1 + 3 * 2 ** -11, 0x3C02), (1 + 2 ** -11 + 2 ** -40, 0x3C01),
                        (65504.0, 0x7BFF)]:
        out = np.zeros(64, np.uint8)
        params(out, 0, 0, 0, 0, 0, 0, 0, 0, 0.0, 0.0, value, 0, 0, block=1)
        assert struct.unpack_from("<H", out.tobytes(), 48)[0] == bits, value


@pytest.mark.parametrize("position,value,error", [
    (1, 300, OverflowError),            # .u8
    (1, -1, OverflowError),             # .u8
    (2, 128, OverflowError),            # .s8
    (5, -1, OverflowError),             # .u32
    (5, 2 ** 32, OverflowError),        # .u32
    (7, 2 ** 64, OverflowError),        # .u64
    (8, -2 ** 63 - 1, OverflowError),   # .s64
    (13, 2 ** 32, OverflowError),       # .b32
    (13, -2 ** 31 - 1, OverflowError),  # .b32
    (9, 1e300, OverflowError),          # .f32
    (11, 65520.0, OverflowError),       # .f16: rounds past 65504
    (12, 65536, OverflowError),         # .b16
    (12, 1.5, TypeError),               # .b16
    (5, 1.0, TypeError),                # a float into .u32
    (5, np.float32(1), TypeError),
    (5, "1", TypeError),
    (9, "1.0", TypeError),
    (9, None, TypeError),
    (6, np.zeros(2, np.int32), TypeError),   # an array into a 32-bit parameter
])
def test_values_that_do_not_fit(params, position, value, error):
    args = [np.zeros(64, np.uint8), 0, 0, 0, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0, 0]
    args[position] = value
    name, ptype, _ = LAYOUT[position - 1]
    with pytest.raises(error) as e:
        params(*args, block=1)
    assert "'%s' (.%s) of kernel 'params'" % (name, ptype) in str(e.value)


STRUCT = entry("with_struct", [".param .u64 out", ".param .align 8 .b8 s[24]"], """
ld.param.u64 %rd1, [out];
ld.param.u32 %r1, [s];
ld.param.f32 %f1, [s+4];
ld.param.u64 %rd2, [s+8];
ld.param.u16 %h1, [s+16];
cvt.rn.f32.u32 %f2, %r1;
add.rn.f32 %f2, %f2, %f1;
st.global.f32 [%rd1], %f2;
ld.global.u32 %r2, [%rd2];
st.global.u32 [%rd1+4], %r2;
st.global.u16 [%rd1+8], %h1;
ret;""")

POINT = np.dtype([("n", "<u4"), ("x", "<f4"), ("ptr", "<u8"), ("tag", "<u2"), ("pad", "V6")])


def test_struct_parameter_from_numpy_and_bytes():
    k = ptxrun.Module(STRUCT).get_function("with_struct")
    assert (k.params[1].type, k.params[1].size, k.params[1].align) == ("b8", 24, 8)
    data = np.array([0xDEADBEEF], np.uint32)
    out = np.zeros(3, np.uint32)
    s = np.zeros((), POINT)
    s["n"], s["x"], s["ptr"], s["tag"] = 3, 0.25, data.ctypes.data, 0xABCD
    k(out, s, block=1, buffers=[data])                          # a 0-d structured array
    assert out.view(np.float32)[0] == np.float32(3.25)
    assert out[1] == 0xDEADBEEF and out[2] == 0xABCD
    out[:] = 0
    k(out, s[()], block=1, buffers=[data])                      # a structured scalar
    assert out[1] == 0xDEADBEEF
    out[:] = 0
    raw = struct.pack("<IfQH6x", 5, 0.5, data.ctypes.data, 7)
    for given in (raw, bytearray(raw), memoryview(raw)):
        k(out, given, block=1, buffers=[data])
        assert out.view(np.float32)[0] == np.float32(5.5) and out[2] == 7
    with pytest.raises(ValueError, match="exactly 24 bytes"):
        k(out, raw[:-1], block=1, buffers=[data])
    with pytest.raises(TypeError, match="'s' .*with_struct"):
        k(out, 5, block=1)
