"""Shared pieces of the Python module's tests: PTX text for small kernels, and where the nvcc
kernels are. The package is imported from python/ (make python-tests sets PYTHONPATH) or from
where it is installed; the library from PTXRUN_LIBRARY, the package, or the repository's build/lib."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CUDA = os.path.join(HERE, "cuda")
HEADER = ".version 7.8\n.target sm_90\n.address_size 64\n"


def entry(name, params, body, regs=""):
    """PTX text of one kernel: `params` a list of declarations, `body` its instructions."""
    declared = regs or (".reg .pred %p<4>;\n.reg .b16 %h<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"
                        ".reg .f32 %f<16>;\n.reg .f64 %fd<8>;\n")
    return "%s.visible .entry %s(%s)\n{\n%s%s\n}\n" % (HEADER, name, ", ".join(params), declared, body)


def line_of(text, needle):
    """The line (from 1) and column (from 1) where needle starts in text."""
    at = text.index(needle)
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return line, column


# The global index i = ctaid.x * ntid.x + tid.x into %r1, and %rd3 = param pointer + 4 * i.
INDEX = """mov.u32 %r1, %ctaid.x;
mov.u32 %r2, %ntid.x;
mov.u32 %r3, %tid.x;
mad.lo.s32 %r1, %r1, %r2, %r3;
mul.wide.u32 %rd2, %r1, 4;
"""
