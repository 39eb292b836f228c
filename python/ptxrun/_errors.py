"""_errors: ptxrun's messages as Python objects: Diagnostic, the exception classes, PtxWarning."""
import os
from typing import Iterable, List, NamedTuple, Optional, Sequence

from . import _lib


class Diagnostic(NamedTuple):
    """One message of the library: an error, a warning, or a note explaining the message before it.

    ``level`` is ``"error"``, ``"warning"`` or ``"note"``; ``message`` the message alone; ``text`` the
    message as the command line shows it (``name:line:col: error: ...``, the PTX line and a caret,
    the CUDA place's note); ``file`` the module's name; ``line`` and ``column`` its place in the PTX
    (from 1; 0: no place); ``cuda_file``, ``cuda_line``, ``cuda_column`` the CUDA source place of
    the instruction (``nvcc -lineinfo``), or None and 0 when there is none.
    """
    level: str
    message: str
    text: str
    file: str
    line: int
    column: int
    cuda_file: Optional[str]
    cuda_line: int
    cuda_column: int


_LEVELS = {_lib.LEVEL_ERROR: "error", _lib.LEVEL_WARNING: "warning", _lib.LEVEL_NOTE: "note"}


def _str(b: Optional[bytes]) -> Optional[str]:
    return None if b is None else b.decode("utf-8", "replace")


def diagnostic_from_c(d: "_lib.Diagnostic_") -> Diagnostic:
    """A copy of the library's ptxrun_diagnostic (its strings live only while the callback runs)."""
    return Diagnostic(_LEVELS.get(d.level, "note"), _str(d.message) or "", _str(d.text) or "",
                      _str(d.file) or "", d.line, d.column, _str(d.cuda_file), d.cuda_line, d.cuda_column)


def cuda_source_line(d: Diagnostic, ptx_path: Optional[str]) -> Optional[str]:
    """The text of d's CUDA line, '  LINE | text', when its file can be read: the path as .file wrote
    it (a relative one from the PTX file's folder, then from the working directory), else the file
    of that name next to the PTX file."""
    if not d.cuda_file or not d.cuda_line:
        return None
    folder = os.path.dirname(ptx_path) if ptx_path else None
    candidates = []
    if os.path.isabs(d.cuda_file):
        candidates.append(d.cuda_file)
    else:
        if folder:
            candidates.append(os.path.join(folder, d.cuda_file))
        candidates.append(d.cuda_file)
    if folder:
        candidates.append(os.path.join(folder, os.path.basename(d.cuda_file)))
    for path in candidates:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    if number == d.cuda_line:
                        return "%5u | %s" % (number, line.rstrip("\n"))
        except OSError:
            continue
    return None


def describe(diagnostics: Iterable[Diagnostic], ptx_path: Optional[str] = None) -> str:
    """The diagnostics' text as the command line shows it, each followed by its CUDA line's text
    when the CUDA file can be read."""
    parts = []
    for d in diagnostics:
        text = d.text.rstrip("\n")
        line = cuda_source_line(d, ptx_path)
        parts.append(text + ("\n" + line if line else ""))
    return "\n".join(parts)


class PtxWarning(UserWarning):
    """A warning of ptxrun's (an undefined value used, a mul and add fused into an fma, ...),
    given through Python's warnings module with the diagnostic's text."""


class PtxError(Exception):
    """What ptxrun refused or where a run stopped. ``status`` is the library's status code,
    ``diagnostics`` the messages (a list of Diagnostic); str() is their text, PTX and CUDA lines
    included. The first error's place is also in ``file``, ``line``, ``column``, ``cuda_file``,
    ``cuda_line``, ``cuda_column``. ``result`` is the launch's Result when the error came from a
    launch that ran (a fault), else None."""
    status = -1

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = (), result: object = None,
                 ptx_path: Optional[str] = None):
        self.diagnostics: List[Diagnostic] = list(diagnostics)
        self.result = result
        errors = [d for d in self.diagnostics if d.level == "error"]
        first = errors[0] if errors else None
        self.file = first.file if first else None
        self.line = first.line if first else 0
        self.column = first.column if first else 0
        self.cuda_file = first.cuda_file if first else None
        self.cuda_line = first.cuda_line if first else 0
        self.cuda_column = first.cuda_column if first else 0
        shown = [d for d in self.diagnostics if d.level != "warning"]
        text = describe(shown, ptx_path)
        super().__init__(message + ("\n" + text if text else ""))


class PtxRefused(PtxError):
    """PTX that does not parse or check (raised by Module), or a launch the kernel cannot take
    (a shape over CUDA's limits or the kernel's launch bounds, ...): the command line's exit 2."""
    status = _lib.ERROR_INPUT


class PtxFault(PtxError):
    """The run stopped at an execution fault (an access outside every buffer, a store to a
    read-only array, a trap, ...; or, strict, an undefined value used): the command line's exit 3."""
    status = _lib.ERROR_FAULT


class PtxUnsupported(PtxError):
    """The kernel uses what ptxrun cannot execute yet (raised by get_function)."""
    status = _lib.ERROR_UNSUPPORTED


class KernelNotFound(PtxError, LookupError):
    """No kernel of that name in the module (or the name is ambiguous)."""
    status = _lib.ERROR_NOT_FOUND


_BY_STATUS = {_lib.ERROR_INPUT: PtxRefused, _lib.ERROR_FAULT: PtxFault, _lib.ERROR_UNSUPPORTED: PtxUnsupported,
              _lib.ERROR_NOT_FOUND: KernelNotFound}


def error_for(status: int, message: str, diagnostics: Sequence[Diagnostic], result: object = None,
              ptx_path: Optional[str] = None) -> PtxError:
    """The exception for a status other than OK."""
    cls = _BY_STATUS.get(status, PtxError)
    err = cls(message, diagnostics, result, ptx_path)
    if cls is PtxError:
        err.status = status
    return err


def warning_texts(diagnostics: Sequence[Diagnostic], ptx_path: Optional[str] = None) -> List[str]:
    """The text of each warning with the notes that follow it."""
    out: List[List[Diagnostic]] = []
    current: Optional[List[Diagnostic]] = None
    for d in diagnostics:
        if d.level == "warning":
            current = [d]
            out.append(current)
        elif d.level == "note" and current is not None:
            current.append(d)
        else:
            current = None
    return [describe(group, ptx_path) for group in out]
