"""docs/python.md's example: its code runs and prints the output the page shows (a line ending in
' ...' there matches any line that starts with the text before it)."""
import os
import re
import subprocess
import sys

from conftest import HERE

PAGE = os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "python.md")


def _example():
    with open(PAGE, encoding="utf-8") as f:
        text = f.read()
    after = text[text.index("<!-- example"):]
    blocks = re.findall(r"```(\w*)\n(.*?)```", after, re.S)
    code = next(body for lang, body in blocks if lang == "python")
    shown = next(body for lang, body in blocks if lang == "")
    return code, shown.splitlines()


def _matches(want, got):
    if want.endswith(" ..."):
        return got.startswith(want[:-4])
    return want.rstrip() == got.rstrip()


def test_the_example_prints_what_the_page_shows():
    code, shown = _example()
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ))
    assert run.returncode == 0, run.stderr
    printed = run.stdout.splitlines()
    assert len(printed) == len(shown), run.stdout
    for want, got in zip(shown, printed):
        assert _matches(want, got), (want, got)
