# tinygrad_plugin.py: a pytest plugin for tinygrad's test/backend with Debian's pytest 7.2 / pluggy 1.0 (scripts/tinygrad_backend.sh).
# Load with: python3 -m pytest --noconftest -p tinygrad_plugin ...   (PYTHONPATH must hold this folder and tinygrad's root)
# 1. Stands in for tinygrad's conftest.py, which uses pytest.hookimpl(wrapper=True) (pluggy >= 1.2 only): the same
#    per-test watchdog (SIGABRT after TEST_TIMEOUT seconds, default 300), as an old-style hookwrapper.
# 2. If TG_LAUNCH_LOG=FILE is set and DEV is the mock CUDA GPU, wraps the mock's ptx_run so that each test that
#    launches at least one kernel appends "nodeid<TAB>launches" to FILE (works with any OCELOT_PATH library).
import os, signal, threading
import pytest

_current = {"id": None, "n": 0}

def _patch_ptx_run():
  if not os.getenv("TG_LAUNCH_LOG") or "MOCK+CUDA" not in os.getenv("DEV", ""): return
  import test.mockgpu.cuda.cuda as mc
  orig = mc.ptx_run
  def counted(*a):
    _current["n"] += 1
    return orig(*a)
  mc.ptx_run = counted

def pytest_configure(config): _patch_ptx_run()

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
  _current["id"], _current["n"] = item.nodeid, 0
  yield
  if _current["n"] and (log := os.getenv("TG_LAUNCH_LOG")):
    with open(log, "a") as f: f.write(f"{item.nodeid}\t{_current['n']}\n")

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
  t = threading.Timer(int(os.getenv("TEST_TIMEOUT", 300)), os.kill, args=(os.getpid(), signal.SIGABRT))
  t.start()
  try: yield
  finally:
    t.cancel()
    t.join()
