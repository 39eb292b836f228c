"""_convert: a kernel's parameters as the library describes them, and each Python argument turned
into the bytes of its parameter (the parameter's PTX type decides how; docs/python.md, "Arguments").

An argument becomes (bytes, array): the parameter's bytes, and the NumPy array to register as a
buffer of the launch, or None.
"""
import math
import operator
import struct
from fractions import Fraction
from typing import Any, Callable, NamedTuple, Optional, Tuple

import numpy as np

Converted = Tuple[bytes, Optional[np.ndarray]]


class Param(NamedTuple):
    """A kernel parameter: its PTX name, its type without the dot (``"u32"``, ``"f16"``; ``"b8"``
    for a struct or an array of bytes), its size in the parameter buffer, its alignment, its
    elements (1, or the bytes of an array or struct), and whether it may hold a pointer (declared
    ``.ptr``, or a 64-bit integer)."""
    name: str
    type: str
    size: int
    align: int
    elements: int
    pointer: bool

    def __str__(self) -> str:
        if self.type == "b8" and self.size > 1:
            return ".b8 %s[%d]" % (self.name, self.size)
        return ".%s %s" % (self.type, self.name)


_INT_FORMATS = {"u8": "<B", "u16": "<H", "u32": "<I", "u64": "<Q",
                "s8": "<b", "s16": "<h", "s32": "<i", "s64": "<q",
                "b8": "<B", "b16": "<H", "b32": "<I", "b64": "<Q"}
_FLOAT_FORMATS = {"f16": "<e", "f32": "<f", "tf32": "<f", "f64": "<d"}


def bf16_bits(x: float) -> int:
    """x rounded to the nearest bfloat16, ties to even, directly from its double value (never
    through an f32 first, which could round twice): the 16 bits. NaN gives 0x7fc0 (its sign kept);
    a finite x that rounds past the largest bfloat16 raises OverflowError."""
    sign = 0x8000 if math.copysign(1.0, x) < 0 else 0
    if math.isnan(x):
        return sign | 0x7FC0
    if math.isinf(x):
        return sign | 0x7F80
    a = abs(x)
    if a == 0:
        return sign
    exponent = max(math.frexp(a)[1] - 1, -126)      # a's leading bit, at least the normal minimum
    quantum = Fraction(2) ** (exponent - 7)         # 8 significant bits
    rounded = round(Fraction(a) / quantum) * quantum    # round() of a Fraction: half to even
    if rounded >= 2 ** 128:
        raise OverflowError("%r is past the largest bfloat16" % x)
    f32 = struct.unpack("<I", struct.pack("<f", float(rounded)))[0]     # exact: 8 bits fit an f32
    return sign | (f32 >> 16)


def _kind(value: Any) -> str:
    return type(value).__name__


def _integer(value: Any) -> Optional[int]:
    """value as an int when it is an integer (a Python int or bool, a NumPy integer or bool, a 0-d
    integer array); None when it is not."""
    if isinstance(value, bool) or isinstance(value, np.bool_):
        return int(value)
    if isinstance(value, float) or isinstance(value, np.floating) or isinstance(value, complex):
        return None
    if isinstance(value, np.ndarray):
        if value.ndim == 0 and value.dtype.kind in "iub":
            return int(value[()])
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _real(value: Any) -> Optional[float]:
    """value as a float when it is a real number (int, float, bool, NumPy number, 0-d array)."""
    if isinstance(value, np.ndarray):
        if value.ndim == 0 and value.dtype.kind in "iubf":
            return float(value[()])
        return None
    if isinstance(value, (int, float, np.integer, np.floating, np.bool_)):
        return float(value)
    return None


def array_buffer(value: np.ndarray, where: Callable[[], str]) -> np.ndarray:
    """value when it may be a launch's buffer: contiguous (C or Fortran order), not of objects."""
    if value.dtype.hasobject:
        raise TypeError("%s: an array of Python objects cannot be a buffer" % where())
    if not (value.flags.c_contiguous or value.flags.f_contiguous):
        raise ValueError("%s: the array is not contiguous (pass a copy: numpy.ascontiguousarray)" % where())
    return value


def converter(p: Param, where: Callable[[], str]) -> Callable[[Any], Converted]:
    """The function that turns an argument into parameter p's bytes. where() names the parameter
    and its kernel for messages."""
    bits = 8 * p.size

    def wrong(value: Any, wanted: str) -> TypeError:
        return TypeError("%s expects %s, not %s" % (where(), wanted, _kind(value)))

    def as_bytes(value: Any) -> Converted:
        if isinstance(value, np.ndarray) and value.ndim == 0:
            value = value[()] if value.dtype.names is None else value
        try:
            view = memoryview(value)
        except TypeError:
            raise wrong(value, "%d bytes (bytes, bytearray, memoryview or a NumPy structured scalar)"
                        % p.size) from None
        if not view.contiguous:
            raise ValueError("%s: the bytes are not contiguous" % where())
        data = view.tobytes()
        if len(data) != p.size:
            raise ValueError("%s takes exactly %d bytes, not %d" % (where(), p.size, len(data)))
        return data, None

    if p.type in _INT_FORMATS and p.size == bits // 8 and (p.type != "b8" or p.size == 1):
        fmt = _INT_FORMATS[p.type]
        signed = p.type[0] == "s"
        lo = -(1 << (bits - 1)) if p.type[0] in "sb" else 0
        hi = (1 << (bits - 1)) if signed else (1 << bits)
        pointer = p.pointer
        bits_fmt = _INT_FORMATS["b%d" % bits]
        mask = (1 << bits) - 1

        def integer(value: Any) -> Converted:
            if pointer and isinstance(value, np.ndarray) and value.ndim > 0:
                array_buffer(value, where)
                return struct.pack(fmt, value.ctypes.data), value
            if isinstance(value, np.integer) and value.itemsize == p.size:
                return struct.pack(bits_fmt, int(value) & mask), None    # a NumPy integer of the width: its bits
            n = _integer(value)
            if n is None:
                if p.size == 1 and isinstance(value, (bytes, bytearray, memoryview)):
                    return as_bytes(value)
                raise wrong(value, "an integer" + (" or an array" if pointer else ""))
            if not lo <= n < hi:
                raise OverflowError("%s: %d does not fit (%d to %d)" % (where(), n, lo, hi - 1))
            if not signed and n < 0:
                n += 1 << bits
            return struct.pack(fmt, n), None
        return integer

    if p.type in _FLOAT_FORMATS:
        fmt = _FLOAT_FORMATS[p.type]

        def real(value: Any) -> Converted:
            if isinstance(value, np.ndarray) and value.ndim == 0:
                value = value[()]
            if isinstance(value, np.floating) and value.itemsize == p.size:
                return value.astype(value.dtype.newbyteorder("<")).tobytes(), None   # its bits, NaNs kept
            x = _real(value)
            if x is None:
                raise wrong(value, "a real number")
            try:
                return struct.pack(fmt, x), None
            except OverflowError:
                raise OverflowError("%s: %r is past the largest .%s" % (where(), x, p.type)) from None
        return real

    if p.type == "bf16":
        def brain(value: Any) -> Converted:
            x = _real(value)
            if x is None:
                raise wrong(value, "a real number")
            try:
                return struct.pack("<H", bf16_bits(x)), None
            except OverflowError:
                raise OverflowError("%s: %r is past the largest .bf16" % (where(), x)) from None
        return brain

    return as_bytes
