"""_module: Module (PTX loaded once), Function (a kernel, launched by calling it) and Result (what a
launch left). Each launch keeps its state in locals and in a Collector of its own, which the
library's callbacks reach through their context pointer, on the launching thread."""
import ctypes
import os
import threading
import warnings
from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _lib
from ._convert import Param, array_buffer, converter
from ._errors import Diagnostic, PtxWarning, diagnostic_from_c, error_for, warning_texts

lib = _lib.lib
Shape = Union[int, Sequence[int]]
Trace = Union[None, Callable[[str], Any], Any]


class Collector:
    """What the library's callbacks hand over during one call: diagnostics, printed text, the trace
    (to a callable or a file), and the first exception the trace's target raised."""
    __slots__ = ("diagnostics", "printed", "printed_err", "trace", "trace_error")

    def __init__(self, trace: Trace = None):
        self.diagnostics: List[Diagnostic] = []
        self.printed: List[bytes] = []
        self.printed_err: List[bytes] = []
        self.trace = trace
        self.trace_error: Optional[BaseException] = None


def _collector(context: Optional[int]) -> Collector:
    return ctypes.cast(context, ctypes.POINTER(ctypes.py_object)).contents.value


def _on_diagnostic(context: Optional[int], d: Any) -> None:
    _collector(context).diagnostics.append(diagnostic_from_c(d.contents))


def _on_print(context: Optional[int], stream: int, text: Any, length: int) -> None:
    c = _collector(context)
    (c.printed if stream == _lib.PRINT_OUT else c.printed_err).append(ctypes.string_at(text, length))


def _on_trace(context: Optional[int], text: Any, length: int) -> None:
    c = _collector(context)
    if c.trace_error is not None:
        return
    piece = ctypes.string_at(text, length).decode("utf-8", "replace")
    try:
        if callable(c.trace):
            c.trace(piece)
        else:
            c.trace.write(piece)
    except BaseException as e:        # raised again after the launch: a callback cannot raise
        c.trace_error = e


# The C function pointers: made once, immutable; the state they reach is each call's Collector.
_DIAGNOSTIC = _lib.DIAGNOSTIC_FN(_on_diagnostic)
_PRINT = _lib.PRINT_FN(_on_print)
_TRACE = _lib.TRACE_FN(_on_trace)
_NO_TRACE = _lib.TRACE_FN()


def _callbacks(collector: Collector, trace: bool) -> Tuple[_lib.Callbacks_, Any]:
    """The callbacks struct for collector, and the object that must live as long as it is used."""
    holder = ctypes.py_object(collector)
    pointer = ctypes.pointer(holder)
    cb = _lib.Callbacks_(_DIAGNOSTIC, _PRINT, _TRACE if trace else _NO_TRACE,
                         ctypes.cast(pointer, ctypes.c_void_p))
    return cb, (holder, pointer)


def _warn(diagnostics: Sequence[Diagnostic], ptx_path: Optional[str], stacklevel: int) -> None:
    for text in warning_texts(diagnostics, ptx_path):
        warnings.warn(text, PtxWarning, stacklevel=stacklevel + 1)


class Result:
    """What one launch left: ``status`` (0: it ran to its end; 3: a fault), ``steps`` (warp-steps,
    summed over every warp of every CTA), ``instructions`` (threads' instructions), ``diagnostics``
    (every message), ``warnings`` (the warning Diagnostics), ``printed`` (the kernel's printf text)
    and ``printed_err`` (assertion messages), and which bytes of the launch's arrays it left
    undefined (``undefined``). A Result may outlive its module."""

    _free = lib.ptxrun_result_free

    def __init__(self, handle: Optional[int], status: int, collector: Collector):
        self._handle = handle
        self.status = status
        self.diagnostics: List[Diagnostic] = collector.diagnostics
        self.warnings: List[Diagnostic] = [d for d in collector.diagnostics if d.level == "warning"]
        self.printed = b"".join(collector.printed).decode("utf-8", "replace")
        self.printed_err = b"".join(collector.printed_err).decode("utf-8", "replace")

    def __del__(self) -> None:
        if self._handle:
            self._free(self._handle)
            self._handle = None

    @property
    def steps(self) -> int:
        """Warp-steps the run took, summed over every warp of every CTA."""
        return lib.ptxrun_result_steps(self._handle) if self._handle else 0

    @property
    def instructions(self) -> int:
        """Instructions the threads ran, summed over every thread."""
        return lib.ptxrun_result_instructions(self._handle) if self._handle else 0

    def defined_bits(self, array: np.ndarray) -> np.ndarray:
        """For each byte of array's elements, which of its bits the launch left defined: a uint8
        array of shape array.shape + (array.itemsize,), 0xff where every bit is defined. Bytes the
        kernel never wrote, and bytes of no buffer of the launch, are defined."""
        if not isinstance(array, np.ndarray):
            raise TypeError("defined_bits takes a NumPy array, not %s" % type(array).__name__)
        shape = array.shape + (array.itemsize,)
        if array.size == 0 or not self._handle:
            return np.full(shape, 0xFF, dtype=np.uint8)
        low, high = _byte_bounds(array)
        bits = np.empty(high - low, dtype=np.uint8)
        status = lib.ptxrun_result_defined(self._handle, low, high - low,
                                           bits.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8)))
        if status != _lib.OK:
            raise RuntimeError("ptxrun_result_defined: status %d" % status)
        start = array.__array_interface__["data"][0] - low
        return np.lib.stride_tricks.as_strided(bits[start:], shape=shape, strides=array.strides + (1,),
                                               writeable=False).copy()

    def undefined(self, array: np.ndarray) -> np.ndarray:
        """A boolean mask of array's shape: True where any bit of the element's bytes was left
        undefined by the launch (a store of an uninitialised register or of uninitialised .shared)."""
        return (self.defined_bits(array) != 0xFF).any(axis=-1)

    def __repr__(self) -> str:
        return "<ptxrun.Result status=%d steps=%d warnings=%d>" % (self.status, self.steps, len(self.warnings))


def _byte_bounds(array: np.ndarray) -> Tuple[int, int]:
    """The lowest address of array's bytes and the one after its highest (numpy.byte_bounds, which
    NumPy 2 moved out of its top-level namespace). array has at least one element."""
    low = high = array.__array_interface__["data"][0]
    for n, stride in zip(array.shape, array.strides):
        if stride < 0:
            low += (n - 1) * stride
        else:
            high += (n - 1) * stride
    return low, high + array.itemsize


def _shape(value: Shape, what: str) -> Tuple[int, int, int]:
    if type(value) is int and 1 <= value < 1 << 32:
        return value, 1, 1
    if isinstance(value, (int, np.integer)):
        dims = [int(value)]
    else:
        try:
            dims = [int(v) for v in value]
        except TypeError:
            raise TypeError("%s must be an int or a tuple of 1 to 3 ints, not %s" % (what, type(value).__name__)) from None
    if not 1 <= len(dims) <= 3:
        raise ValueError("%s must have 1 to 3 dimensions, not %d" % (what, len(dims)))
    for d in dims:
        if not 1 <= d < 1 << 32:
            raise ValueError("%s: %d is not a size from 1 to 2**32-1" % (what, d))
    dims += [1] * (3 - len(dims))
    return dims[0], dims[1], dims[2]


class Function:
    """A kernel of a Module, launched by calling it:
    ``k(*args, grid=(gx, gy, gz), block=(bx, by, bz), shared_mem=0)``.

    ``name`` is its PTX name, ``cxx_name`` its C++ name (demangled, with its parameters) or None,
    ``params`` its parameters (a list of Param), ``last`` the Result of this thread's last launch
    of it (None before the first)."""

    def __init__(self, module: "Module", handle: int):
        self.module = module
        self._handle = handle
        self.name: str = lib.ptxrun_kernel_name(handle).decode()
        cxx = lib.ptxrun_kernel_cxx_name(handle)
        self.cxx_name: Optional[str] = cxx.decode() if cxx is not None else None
        self.params: List[Param] = []
        for i in range(lib.ptxrun_kernel_param_count(handle)):
            p = _lib.Param_()
            if lib.ptxrun_kernel_param(handle, i, ctypes.byref(p)) != _lib.OK:
                raise RuntimeError("ptxrun_kernel_param(%s, %d) failed" % (self.name, i))
            self.params.append(Param(p.name.decode(), p.type.decode(), p.size, p.align, p.elements, bool(p.pointer)))
        self._convert = [converter(p, self._where(p)) for p in self.params]
        self._local = threading.local()

    def _where(self, p: Param) -> Callable[[], str]:
        return lambda: "parameter '%s' (.%s) of kernel '%s'" % (p.name, p.type, self.name)

    @property
    def last(self) -> Optional[Result]:
        """The Result of the last launch of this kernel made on this thread (None before the first)."""
        return getattr(self._local, "result", None)

    def signature(self) -> str:
        """The kernel's name and parameters, as messages show them."""
        return "%s(%s)" % (self.name, ", ".join(str(p) for p in self.params))

    def __repr__(self) -> str:
        return "<ptxrun.Function %s>" % self.signature()

    def __call__(self, *args: Any, grid: Shape = 1, block: Shape = 1, shared_mem: int = 0,
                 max_steps: Optional[int] = None, strict: bool = False, jobs: Optional[int] = None,
                 trace: Trace = None, buffers: Iterable[np.ndarray] = ()) -> None:
        """Launches the kernel once on grid CTAs of block threads (an int or a tuple of 1 to 3
        ints each), with shared_mem bytes of dynamic .shared. NumPy arrays are the launch's
        memory, used in place (zero-copy: the kernel reads and writes them where they are);
        other arguments are converted to their parameter's PTX type (docs/python.md).
        buffers: more arrays the kernel may reach (through pointers inside a struct, say).
        max_steps: the warp-steps each warp may run (None: the library's default); strict: an
        undefined value used is a fault, not a warning; jobs: CTAs run on this many threads
        where that gives the same result; trace: a callable given the trace's text, or a file.
        Warnings go to Python's warnings (PtxWarning); a fault raises PtxFault, a refused launch
        PtxRefused. The Result is in ``self.last``."""
        self._launch(args, grid, block, shared_mem, max_steps, strict, jobs, trace, buffers, 3)

    def launch(self, *args: Any, grid: Shape = 1, block: Shape = 1, shared_mem: int = 0,
               max_steps: Optional[int] = None, strict: bool = False, jobs: Optional[int] = None,
               trace: Trace = None, buffers: Iterable[np.ndarray] = ()) -> Result:
        """As calling the Function, and returns the launch's Result."""
        return self._launch(args, grid, block, shared_mem, max_steps, strict, jobs, trace, buffers, 3)

    def _launch(self, args: Sequence[Any], grid: Shape, block: Shape, shared_mem: int, max_steps: Optional[int],
                strict: bool, jobs: Optional[int], trace: Trace, buffers: Iterable[np.ndarray],
                stacklevel: int) -> Result:
        if len(args) != len(self.params):
            raise TypeError("kernel %s takes %d argument%s, %d given" % (
                self.signature(), len(self.params), "" if len(self.params) == 1 else "s", len(args)))
        data: List[bytes] = []
        arrays: List[Tuple[int, np.ndarray]] = []
        for convert, value in zip(self._convert, args):
            raw, array = convert(value)
            data.append(raw)
            if array is not None:
                arrays.append((int.from_bytes(raw, "little"), array))     # the address it passes
        for extra in buffers:
            if not isinstance(extra, np.ndarray):
                raise TypeError("buffers takes NumPy arrays, not %s" % type(extra).__name__)
            arrays.append((extra.ctypes.data, array_buffer(extra, lambda: "an array of buffers=")))
        blob = b"".join(data)
        base = ctypes.cast(ctypes.c_char_p(blob), ctypes.c_void_p).value or 0
        pointers = (ctypes.c_void_p * max(len(data), 1))()
        offset = 0
        for i, raw in enumerate(data):
            pointers[i] = base + offset
            offset += len(raw)
        bufs = (_lib.Buffer_ * max(len(arrays), 1))()
        for i, (address, a) in enumerate(arrays):
            bufs[i].data = address
            bufs[i].size = a.nbytes
            bufs[i].read_only = 0 if a.flags.writeable else 1
        o = _lib.LaunchOptions_()
        o.grid[0], o.grid[1], o.grid[2] = _shape(grid, "grid")
        o.block[0], o.block[1], o.block[2] = _shape(block, "block")
        if not 0 <= shared_mem < 1 << 32:
            raise ValueError("shared_mem: %d is not a size in bytes" % shared_mem)
        o.shared_bytes = shared_mem
        o.buffers = bufs
        o.buffer_count = len(arrays)
        if max_steps is not None and not 1 <= max_steps < 1 << 64:
            raise ValueError("max_steps: %d is not from 1 to 2**64-1" % max_steps)
        o.max_steps = max_steps or 0
        o.strict = 1 if strict else 0
        if jobs is not None and not 0 <= jobs < 1 << 32:
            raise ValueError("jobs: %d is not a count of threads" % jobs)
        o.jobs = jobs or 0
        collector = Collector(trace)
        o.callbacks, keep = _callbacks(collector, trace is not None)
        handle = ctypes.c_void_p()
        status = lib.ptxrun_launch(self._handle, pointers, ctypes.byref(o), ctypes.byref(handle))
        del keep, blob
        result = Result(handle.value, status, collector)
        self._local.result = result
        path = self.module.path
        if collector.diagnostics:
            _warn(collector.diagnostics, path, stacklevel)
        if collector.trace_error is not None:
            raise collector.trace_error
        if status != _lib.OK:
            raise error_for(status, "kernel '%s': %s" % (self.name, lib.ptxrun_status_name(status).decode()),
                            collector.diagnostics, result, path)
        return result


class Module:
    """PTX loaded once: parsed and checked here (errors raise PtxRefused, with each message's
    place and its PTX line), each kernel lowered the first time get_function asks for it.

    source: PTX text (a str or bytes), or a file (a pathlib.Path, or a str naming an existing
    file, or ending in ".ptx" without a newline). name: the name messages give the PTX (default:
    the file's path, or "<ptx>"). fmad=False: no mul and add fused into an fma as ptxas fuses them
    (ptxas -fmad=false). stack_bytes: each thread's stack for calls (None: the default)."""

    _free = lib.ptxrun_module_free

    def __init__(self, source: Union[str, bytes, "os.PathLike[str]"], name: Optional[str] = None, fmad: bool = True,
                 stack_bytes: Optional[int] = None):
        self._handle: Optional[int] = None
        self.path: Optional[str] = None
        if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source and (
                os.path.isfile(source) or source.endswith(".ptx"))):
            self.path = os.fspath(source)
            with open(self.path, "rb") as f:
                text = f.read()
        elif isinstance(source, str):
            text = source.encode("utf-8")
        elif isinstance(source, (bytes, bytearray, memoryview)):
            text = bytes(source)
        else:
            raise TypeError("Module takes PTX text (str, bytes) or a path, not %s" % type(source).__name__)
        self.name: str = name if name is not None else self.path if self.path is not None else "<ptx>"
        if stack_bytes is not None and not 0 < stack_bytes < 1 << 32:
            raise ValueError("stack_bytes: %d is not a size in bytes" % stack_bytes)
        self._collector = Collector()
        self._lock = threading.Lock()
        self._functions: dict = {}    # by the name asked for, and by the kernel's handle
        callbacks, self._keep = _callbacks(self._collector, False)
        options = _lib.ModuleOptions_(self.name.encode("utf-8"), 0 if fmad else 1, stack_bytes or 0, callbacks)
        handle = ctypes.c_void_p()
        with self._lock:
            status = lib.ptxrun_module_load(text, len(text), ctypes.byref(options), ctypes.byref(handle))
            said = self._said()
        _warn(said, self.path, 2)
        if status != _lib.OK:
            raise error_for(status, "%s: %s" % (self.name, lib.ptxrun_status_name(status).decode()), said,
                            None, self.path)
        self._handle = handle.value
        self.kernels: List[str] = [lib.ptxrun_module_kernel_name(self._handle, i).decode()
                                   for i in range(lib.ptxrun_module_kernel_count(self._handle))]

    def _said(self) -> List[Diagnostic]:
        said = self._collector.diagnostics
        self._collector.diagnostics = []
        return said

    def __del__(self) -> None:
        if getattr(self, "_handle", None):
            self._free(self._handle)
            self._handle = None

    def get_function(self, name: Optional[str] = None) -> Function:
        """The kernel named name: its PTX name, or its C++ name (an nvcc kernel's mangled name
        demangled, with or without its parameter list); None: the module's first kernel. What it
        uses that ptxrun cannot execute raises PtxUnsupported; no such kernel, KernelNotFound."""
        with self._lock:
            if name in self._functions:
                found = self._functions[name]
                if isinstance(found, Exception):
                    raise found
                return found
            handle = ctypes.c_void_p()
            status = lib.ptxrun_module_kernel(self._handle, None if name is None else name.encode("utf-8"),
                                              ctypes.byref(handle))
            said = self._said()
            if status == _lib.OK:
                function = self._functions.get(handle.value) or Function(self, handle.value)
                self._functions[handle.value] = self._functions[name] = function    # one per kernel
        _warn(said, self.path, 2)
        if status != _lib.OK:
            error = error_for(status, "%s: kernel %s: %s" % (self.name, "(the first)" if name is None else repr(name),
                                                            lib.ptxrun_status_name(status).decode()),
                              said, None, self.path)
            if status != _lib.ERROR_NOT_FOUND:
                with self._lock:
                    self._functions[name] = error     # the library says a kernel's refusal once
            raise error
        return function

    def __repr__(self) -> str:
        return "<ptxrun.Module %s: %s>" % (self.name, ", ".join(self.kernels))
