"""_lib: libptxrun loaded through ctypes, and its declarations (api/ptxrun.h's types and functions).

The library is looked for, in order: the file the environment variable PTXRUN_LIBRARY names; the
copy bundled into the installed package (ptxrun/libptxrun.so); the repository's build/lib when the
package is imported from its source tree (python/ptxrun). The loaded library is the module's only
state. ctypes releases the GIL around each call into it, so launches on several Python threads run
at once; callbacks take the GIL back while they run, on the thread that launched.
"""
import ctypes
import os
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_int, c_size_t, c_uint, c_uint8, c_uint64,
                    c_void_p)
from typing import List, Optional

API_VERSION = 1   # PTXRUN_API_VERSION of the header these declarations follow

OK, ERROR_ARGUMENT, ERROR_INPUT, ERROR_FAULT, ERROR_UNSUPPORTED, ERROR_NOT_FOUND = range(6)
LEVEL_ERROR, LEVEL_WARNING, LEVEL_NOTE = 0, 1, 2
PRINT_OUT, PRINT_ERR = 1, 2


class Diagnostic_(Structure):
    _fields_ = [("level", c_int), ("message", c_char_p), ("text", c_char_p), ("file", c_char_p),
                ("line", c_uint), ("column", c_uint), ("cuda_file", c_char_p), ("cuda_line", c_uint),
                ("cuda_column", c_uint)]


DIAGNOSTIC_FN = CFUNCTYPE(None, c_void_p, POINTER(Diagnostic_))
PRINT_FN = CFUNCTYPE(None, c_void_p, c_int, POINTER(ctypes.c_char), c_size_t)
TRACE_FN = CFUNCTYPE(None, c_void_p, POINTER(ctypes.c_char), c_size_t)


class Callbacks_(Structure):
    _fields_ = [("diagnostic", DIAGNOSTIC_FN), ("print", PRINT_FN), ("trace", TRACE_FN), ("context", c_void_p)]


class ModuleOptions_(Structure):
    _fields_ = [("name", c_char_p), ("no_fmad", c_int), ("stack_bytes", c_uint), ("callbacks", Callbacks_)]


class Param_(Structure):
    _fields_ = [("name", c_char_p), ("type", c_char_p), ("size", c_uint), ("align", c_uint),
                ("elements", c_uint), ("pointer", c_int)]


class Buffer_(Structure):
    _fields_ = [("data", c_void_p), ("size", c_size_t), ("read_only", c_int)]


class LaunchOptions_(Structure):
    _fields_ = [("grid", c_uint * 3), ("block", c_uint * 3), ("shared_bytes", c_uint),
                ("buffers", POINTER(Buffer_)), ("buffer_count", c_size_t), ("process_memory", c_int),
                ("max_steps", c_uint64), ("strict", c_int), ("jobs", c_uint), ("callbacks", Callbacks_),
                ("cluster", c_uint * 3), ("cooperative", c_int)]


def _candidates() -> List[str]:
    here = os.path.dirname(os.path.abspath(__file__))
    found = []
    env = os.environ.get("PTXRUN_LIBRARY")
    if env:
        return [env]
    found.append(os.path.join(here, "libptxrun.so"))
    found.append(os.path.join(os.path.dirname(os.path.dirname(here)), "build", "lib", "libptxrun.so"))
    return found


def _load() -> ctypes.CDLL:
    tried = _candidates()
    for path in tried:
        if os.path.exists(path):
            return ctypes.CDLL(path)
    raise ImportError("ptxrun: libptxrun.so not found (looked at %s); build it with 'make lib', install the "
                      "package with 'make python', or name it in PTXRUN_LIBRARY" % ", ".join(tried))


def _declare(lib: ctypes.CDLL) -> None:
    def fn(name: str, restype: Optional[type], *argtypes: type) -> None:
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = list(argtypes)

    fn("ptxrun_status_name", c_char_p, c_int)
    fn("ptxrun_module_load", c_int, c_char_p, c_size_t, POINTER(ModuleOptions_), POINTER(c_void_p))
    fn("ptxrun_module_free", None, c_void_p)
    fn("ptxrun_module_kernel_count", c_uint, c_void_p)
    fn("ptxrun_module_kernel_name", c_char_p, c_void_p, c_uint)
    fn("ptxrun_module_kernel", c_int, c_void_p, c_char_p, POINTER(c_void_p))
    fn("ptxrun_kernel_name", c_char_p, c_void_p)
    fn("ptxrun_kernel_cxx_name", c_char_p, c_void_p)
    fn("ptxrun_kernel_param_count", c_uint, c_void_p)
    fn("ptxrun_kernel_param", c_int, c_void_p, c_uint, POINTER(Param_))
    fn("ptxrun_launch", c_int, c_void_p, POINTER(c_void_p), POINTER(LaunchOptions_), POINTER(c_void_p))
    fn("ptxrun_result_status", c_int, c_void_p)
    fn("ptxrun_result_steps", c_uint64, c_void_p)
    fn("ptxrun_result_instructions", c_uint64, c_void_p)
    fn("ptxrun_result_warnings", c_uint, c_void_p)
    fn("ptxrun_result_defined", c_int, c_void_p, c_void_p, c_size_t, POINTER(c_uint8))
    fn("ptxrun_result_free", None, c_void_p)


lib = _load()
_declare(lib)
path = lib._name
