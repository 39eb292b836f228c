"""setup.py: the package with libptxrun.so inside it (pyproject.toml has the rest). The library is
the file PTXRUN_LIBRARY names, else the repository's build/lib/libptxrun.so, built by
'make lib' when it is not there. The wheel holds a shared library but no Python extension: it
is tagged for any Python 3 on this platform."""
import os
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def library():
    given = os.environ.get("PTXRUN_LIBRARY")
    if given:
        return given
    built = os.path.join(REPO, "build", "lib", "libptxrun.so")
    if not os.path.exists(built) and os.path.exists(os.path.join(REPO, "Makefile")):
        subprocess.check_call(["make", "-C", REPO, "lib"])
    if not os.path.exists(built):
        raise SystemExit("ptxrun: %s is missing: run 'make lib' in the repository, or name the library "
                         "in PTXRUN_LIBRARY" % built)
    return built


class BuildPy(build_py):
    """Copies the library into the package as it is built."""

    def run(self):
        super().run()
        self.copy_file(library(), os.path.join(self.build_lib, "ptxrun", "libptxrun.so"))


commands = {"build_py": BuildPy}
try:
    from wheel.bdist_wheel import bdist_wheel

    class BdistWheel(bdist_wheel):
        """A platform wheel (it holds a .so) for any Python 3: py3-none-<platform>."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            return ("py3", "none", super().get_tag()[2])

    commands["bdist_wheel"] = BdistWheel
except ImportError:
    pass

setup(cmdclass=commands)
