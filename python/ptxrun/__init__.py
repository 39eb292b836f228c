"""ptxrun: run PTX kernels on the CPU, bit for bit as an H100 does, over NumPy arrays.

    import numpy as np, ptxrun
    mod = ptxrun.Module(ptx_text_or_path)
    saxpy = mod.get_function("saxpy")
    saxpy(n, a, x, y, grid=(n + 255) // 256, block=256)   # x, y: NumPy arrays, written in place
    saxpy.last.undefined(y)                               # where the kernel left y undefined

A thin layer (ctypes) over libptxrun (api/ptxrun.h); docs/python.md describes it.
"""
from ._convert import Param, bf16_bits
from ._errors import (Diagnostic, KernelNotFound, PtxError, PtxFault, PtxRefused, PtxUnsupported, PtxWarning)
from ._lib import path as library_path
from ._module import Function, Module, Result

__all__ = ["Module", "Function", "Result", "Param", "Diagnostic", "PtxError", "PtxFault", "PtxRefused",
           "PtxUnsupported", "KernelNotFound", "PtxWarning", "bf16_bits", "library_path"]
__version__ = "0.1.0"
