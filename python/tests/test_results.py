"""What launches leave and how they fail: the undefined mask, warnings, faults, refusals, strict
runs, read-only arrays, and launches from several Python threads at once."""
import threading
import time
import warnings

import numpy as np
import pytest

import ptxrun
from conftest import HEADER, INDEX, entry, line_of

# Odd threads store an uninitialised register, even ones their index: out[i].
UNDEF_REG = entry("undef_reg", [".param .u64 out"], INDEX + """
ld.param.u64 %rd1, [out];
add.s64 %rd3, %rd1, %rd2;
and.b32 %r4, %r1, 1;
setp.eq.u32 %p1, %r4, 1;
@%p1 st.global.u32 [%rd3], %r9;
@!%p1 st.global.u32 [%rd3], %r1;
ret;""")

# Threads below `written` store their index into .shared; after the barrier every thread copies
# its own word of .shared to out: the words no thread wrote are uninitialised .shared.
UNDEF_SHARED = HEADER + """
.visible .entry undef_shared(.param .u64 out, .param .u32 written)
{
.reg .pred %p<2>;
.reg .b32 %r<8>;
.reg .b64 %rd<8>;
.shared .align 8 .b8 sh[512];
mov.u32 %r1, %tid.x;
ld.param.u32 %r2, [written];
mov.u32 %r3, sh;
shl.b32 %r4, %r1, 3;
add.u32 %r3, %r3, %r4;
setp.lt.u32 %p1, %r1, %r2;
cvt.u64.u32 %rd4, %r1;
@%p1 st.shared.u64 [%r3], %rd4;
bar.sync 0;
ld.shared.u64 %rd5, [%r3];
ld.param.u64 %rd1, [out];
mul.wide.u32 %rd2, %r1, 8;
add.s64 %rd1, %rd1, %rd2;
st.global.u64 [%rd1], %rd5;
ret;
}
"""


def test_undefined_mask_from_a_register():
    out = np.full(64, 7, np.uint32)
    k = ptxrun.Module(UNDEF_REG).get_function("undef_reg")
    k(out, block=64)
    index = np.arange(64)
    assert np.array_equal(k.last.undefined(out), index % 2 == 1)
    assert np.array_equal(out[::2], index[::2])
    # The mask follows the array's shape and any view of it.
    assert np.array_equal(k.last.undefined(out.reshape(8, 8)), (index % 2 == 1).reshape(8, 8))
    assert np.array_equal(k.last.undefined(out[1::2]), np.ones(32, bool))
    assert np.array_equal(k.last.undefined(out[::-1]), (index % 2 == 1)[::-1])    # its lowest byte last
    assert np.array_equal(k.last.undefined(out[60:2:-3]), (index % 2 == 1)[60:2:-3])
    other = np.zeros(4, np.uint32)
    assert not k.last.undefined(other).any()              # memory of no buffer of the launch
    bits = k.last.defined_bits(out)
    assert bits.shape == (64, 4) and (bits[1::2] == 0).all() and (bits[::2] == 0xFF).all()


def test_undefined_mask_without_numpy_byte_bounds(monkeypatch):
    # NumPy 2 took byte_bounds out of its top-level namespace (numpy.lib.array_utils now):
    # undefined() must not need it.
    monkeypatch.delattr(np, "byte_bounds", raising=False)
    out = np.full(64, 7, np.uint32)
    k = ptxrun.Module(UNDEF_REG).get_function("undef_reg")
    k(out, block=64)
    index = np.arange(64)
    assert np.array_equal(k.last.undefined(out), index % 2 == 1)
    assert np.array_equal(k.last.undefined(out[60:2:-3]), (index % 2 == 1)[60:2:-3])
    assert np.array_equal(k.last.undefined(out.reshape(8, 8).T), (index % 2 == 1).reshape(8, 8).T)


def test_undefined_mask_from_uninitialised_shared():
    out = np.zeros(64, np.uint64)
    k = ptxrun.Module(UNDEF_SHARED).get_function("undef_shared")
    k(out, 40, block=64)
    assert np.array_equal(k.last.undefined(out), np.arange(64) >= 40)
    assert np.array_equal(out[:40], np.arange(40))


def test_result_outlives_its_module():
    out = np.zeros(32, np.uint32)
    result = ptxrun.Module(UNDEF_REG).get_function("undef_reg").launch(out, block=32)
    import gc
    gc.collect()
    assert result.undefined(out).sum() == 16


# A branch on a predicate set from an uninitialised register: a warning, then the run goes on.
BRANCH = entry("branch", [".param .u64 out"], """
ld.param.u64 %rd1, [out];
setp.eq.u32 %p1, %r9, 0;
@%p1 bra SKIP;
SKIP:
st.global.u32 [%rd1], 5;
ret;""")


def test_run_warning_is_a_ptx_warning():
    out = np.zeros(1, np.uint32)
    k = ptxrun.Module(BRANCH).get_function("branch")
    line, column = line_of(BRANCH, "@%p1 bra SKIP;")
    with pytest.warns(ptxrun.PtxWarning) as caught:
        k(out, block=1)
    assert len(caught) == 1
    text = str(caught[0].message)
    assert "undefined branch condition" in text and "<ptx>:%d:%d: warning:" % (line, column) in text
    assert "@%p1 bra SKIP;" in text
    assert caught[0].filename == __file__                  # pointed at the launch
    assert out[0] == 5 and len(k.last.warnings) == 1 and k.last.warnings[0].line == line


def test_strict_makes_the_warning_a_fault():
    k = ptxrun.Module(BRANCH).get_function("branch")
    with pytest.raises(ptxrun.PtxFault, match="undefined branch condition"):
        k(np.zeros(1, np.uint32), block=1, strict=True)


FUSED = entry("fused", [".param .u64 out", ".param .f32 a"], """
ld.param.u64 %rd1, [out];
ld.param.f32 %f1, [a];
mul.f32 %f2, %f1, %f1;
add.f32 %f3, %f2, 0fBF800000;
st.global.f32 [%rd1], %f3;
ret;""")


def test_load_warning_and_fmad():
    with pytest.warns(ptxrun.PtxWarning, match="fused into one fma"):
        k = ptxrun.Module(FUSED).get_function("fused")
    a = np.float32(1 + 2 ** -12)                     # a * a = 1 + 2^-11 + 2^-24: the f32 product rounds
    out = np.zeros(1, np.float32)
    k(out, a, block=1)
    exact = np.float64(a) * np.float64(a) - 1.0      # exact in a double; fma rounds it once
    assert out[0] == np.float32(exact)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        unfused = ptxrun.Module(FUSED, fmad=False).get_function("fused")
    unfused(out, a, block=1)
    assert out[0] == a * a - np.float32(1)           # float32 mul, float32 add: two roundings
    assert np.float32(exact) != a * a - np.float32(1)


FAULT = entry("fault", [".param .u64 out"], INDEX + """
ld.param.u64 %rd1, [out];
add.s64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r1;
ret;""")


def test_fault_carries_the_ptx_line():
    out = np.zeros(16, np.uint32)
    k = ptxrun.Module(FAULT, name="fault.ptx").get_function("fault")
    with pytest.raises(ptxrun.PtxFault) as e:
        k(out, block=32)
    line, column = line_of(FAULT, "st.global.u32 [%rd3], %r1;")
    assert (e.value.file, e.value.line, e.value.column) == ("fault.ptx", line, column)
    assert "fault.ptx:%d:%d: error:" % (line, column) in str(e.value)
    assert "st.global.u32 [%rd3], %r1;" in str(e.value)
    assert e.value.status == 3 and e.value.diagnostics[0].level == "error"
    assert k.last is e.value.result and k.last.status == 3


def test_read_only_array_store_is_a_fault():
    out = np.zeros(32, np.uint32)
    out.flags.writeable = False
    k = ptxrun.Module(FAULT).get_function("fault")
    with pytest.raises(ptxrun.PtxFault, match="read-only|read only"):
        k(out, block=32)
    assert not out.any()
    writable = np.zeros(32, np.uint32)
    k(writable, block=32)
    assert np.array_equal(writable, np.arange(32))


def test_parse_error_gives_line_and_column():
    bad = entry("bad", [".param .u64 out"], "mov.u32 %r1, 1;\nadd.u32 %r2, %r1 %r1;\nret;")
    line, column = line_of(bad, "%r1 %r1;")
    with pytest.raises(ptxrun.PtxRefused) as e:
        ptxrun.Module(bad, name="bad.ptx")
    assert e.value.line == line and e.value.column > column
    assert "bad.ptx:%d:%d: error:" % (e.value.line, e.value.column) in str(e.value)
    assert "add.u32 %r2, %r1 %r1;" in str(e.value)
    undeclared = entry("bad", [".param .u64 out"], "mov.u32 %q1, 1;\nret;")
    line, column = line_of(undeclared, "%q1")
    with pytest.raises(ptxrun.PtxRefused) as e:
        ptxrun.Module(undeclared)
    assert (e.value.line, e.value.column) == (line, column) and "%q1" in e.value.diagnostics[0].message


REFUSED = HEADER + """
.visible .entry copies(.param .u64 in)
{
.reg .f32 %f<4>;
mov.f32 %f2, 1.0;
redux.sync.min.f32 %f1, %f2, 0xffffffff;
ret;
}
.visible .entry plain(.param .u64 out)
{
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [out];
st.global.u32 [%rd1], 9;
ret;
}
"""


def test_unsupported_instruction():
    mod = ptxrun.Module(REFUSED)                     # the module loads: only a kernel reaching it is refused
    with pytest.raises(ptxrun.PtxUnsupported) as e:
        mod.get_function("copies")
    line, column = line_of(REFUSED, "redux.sync")
    assert e.value.line == line and "cannot execute" in str(e.value) and "redux.sync" in str(e.value)
    with pytest.raises(ptxrun.PtxUnsupported) as again:    # asked again: the same answer, said again
        mod.get_function("copies")
    assert again.value.line == line and str(again.value) == str(e.value)
    out = np.zeros(1, np.uint32)
    mod.get_function("plain")(out, block=1)
    assert out[0] == 9


def test_exception_classes():
    assert issubclass(ptxrun.PtxFault, ptxrun.PtxError) and issubclass(ptxrun.PtxError, Exception)
    assert issubclass(ptxrun.KernelNotFound, LookupError)
    assert issubclass(ptxrun.PtxWarning, UserWarning)
    assert (ptxrun.PtxRefused.status, ptxrun.PtxFault.status, ptxrun.PtxUnsupported.status,
            ptxrun.KernelNotFound.status) == (2, 3, 4, 5)


@pytest.mark.filterwarnings("ignore::ptxrun.PtxWarning")
def test_threads_launch_at_once():
    mod = ptxrun.Module(UNDEF_REG + BRANCH[len(HEADER):] + FAULT[len(HEADER):] +
                        entry("scale", [".param .u64 x", ".param .u32 m"], INDEX + """
ld.param.u64 %rd1, [x];
ld.param.u32 %r5, [m];
add.s64 %rd3, %rd1, %rd2;
ld.global.u32 %r4, [%rd3];
mad.lo.u32 %r4, %r4, %r5, %r1;
st.global.u32 [%rd3], %r4;
ret;""")[len(HEADER):])
    kernels = {name: mod.get_function(name) for name in ("scale", "branch", "undef_reg", "fault")}
    failures = []
    start = threading.Barrier(8)

    def work(t):
        try:
            start.wait()
            for i in range(15):
                x = np.arange(1024, dtype=np.uint32) * np.uint32(t + 1)
                expected = x * np.uint32(t + i) + np.arange(1024, dtype=np.uint32)
                kernels["scale"](x, t + i, grid=8, block=128)
                if not np.array_equal(x, expected):
                    failures.append("thread %d: scale differs" % t)
                out = np.zeros(1, np.uint32)
                kernels["branch"](out, block=1)
                if out[0] != 5 or len(kernels["branch"].last.warnings) != 1:
                    failures.append("thread %d: branch" % t)
                u = np.zeros(64, np.uint32)
                kernels["undef_reg"](u, block=64)
                time.sleep(0.001)                    # other threads launch it meanwhile: last is this thread's
                if kernels["undef_reg"].last.undefined(u).sum() != 32:
                    failures.append("thread %d: undefined" % t)
                try:
                    kernels["fault"](np.zeros(t + 1, np.uint32), block=32)
                    failures.append("thread %d: no fault" % t)
                except ptxrun.PtxFault as e:
                    if "outside every region" not in str(e):
                        failures.append("thread %d: %s" % (t, e))
        except Exception as e:                       # pragma: no cover - reported below
            failures.append("thread %d: %r" % (t, e))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


@pytest.mark.filterwarnings("ignore::ptxrun.PtxWarning")
def test_launches_that_warn_keep_no_memory():
    # Each launch's warnings are its own (once they went to the module's arena, shared by every
    # launch of it: 128 bytes more a launch, for the module's life, and a race between threads).
    import os

    k = ptxrun.Module(BRANCH).get_function("branch")
    out = np.zeros(1, np.uint32)

    def resident_kib():                          # resident now (not the peak, which earlier tests may set)
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024

    for _ in range(5000):
        k(out, block=1)
    before = resident_kib()
    for _ in range(50000):
        k(out, block=1)
    assert len(k.last.warnings) == 1
    assert resident_kib() - before < 2048        # 50,000 launches: 6 MiB when each kept 128 bytes
