#!/usr/bin/env python3
"""readme_tour.py: runs every command the README shows after a '$ ' prompt and compares what it
prints with the text below it, so that the README cannot drift from the tool.

usage: readme_tour.py README.md BUILD_DIR

The README's examples are indented code blocks. In a block, a line '$ CMD' (continued by a
trailing backslash) is a command; the lines after it, up to the next '$ ' line or the block's end,
are what it prints, standard output and standard error together as a terminal shows them. In the
shown text:
  - a line '...' stands for any number of lines (none included);
  - a line ending in ' ...' stands for a line that begins with the text before it;
  - every other line must be printed exactly (trailing spaces aside).
'$ cat NAME' followed by text defines a file of the tour: it is written, and later commands of the
tour see it. Commands run with bash in a scratch folder holding those files and links to the
repository's samples/, tests/, build/, docs/ and api/, with BUILD_DIR first on the PATH (so 'ptxrun' is the
one just built) and no color. 'echo $?' reports the previous command's exit status.
Exit 0 when every command printed what the README says; else each difference, and exit 1.
"""
import os
import re
import subprocess
import sys
import tempfile


def blocks(text):
    """Indented code blocks that hold a '$ ' line: lists of (line number, text without the indent)."""
    found, current = [], []
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("    ") or (line.strip() == "" and current and False):
            current.append((number, line[4:]))
        else:
            if any(t.startswith("$ ") for _, t in current):
                found.append(current)
            current = []
    if any(t.startswith("$ ") for _, t in current):
        found.append(current)
    return found


def commands(block):
    """(line number, command, shown lines) for each '$ ' command of a block."""
    result, i = [], 0
    while i < len(block):
        number, line = block[i]
        if not line.startswith("$ "):
            raise SystemExit(f"README.md:{number}: text before the first '$ ' of its block")
        command = line[2:]
        while command.endswith("\\") and i + 1 < len(block):
            i += 1
            command = command[:-1] + " " + block[i][1].strip()
        i += 1
        shown = []
        while i < len(block) and not block[i][1].startswith("$ "):
            shown.append(block[i][1])
            i += 1
        result.append((number, command, shown))
    return result


def matches(shown, actual):
    """Does the printed text (a list of lines) match the shown lines? Returns None or a reason."""
    def go(s, a):
        if s == len(shown):
            return None if a == len(actual) else f"printed more lines than shown, from: {actual[a]!r}"
        want = shown[s].rstrip()
        if want.strip() == "...":
            for skip in range(a, len(actual) + 1):
                if go(s + 1, skip) is None:
                    return None
            return f"no place matches the lines after '...' (line {s + 1} of the shown text)"
        if a == len(actual):
            return f"printed fewer lines than shown; missing: {want!r}"
        got = actual[a].rstrip()
        if want.endswith(" ...") and want.strip() != "...":
            ok = got.startswith(want[:-4])
        else:
            ok = got == want
        if not ok:
            return f"shown {want!r}\n          printed {got!r}"
        return go(s + 1, a + 1)
    return go(0, 0)


def main():
    readme, build = sys.argv[1], os.path.abspath(sys.argv[2])
    root = os.path.dirname(os.path.abspath(readme))
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    env = dict(os.environ, PATH=build + os.pathsep + os.environ.get("PATH", ""), NO_COLOR="1")
    env.pop("PTXRUN_PROGRESS", None)
    failures = runs = 0
    with tempfile.TemporaryDirectory() as scratch:
        for name in ("samples", "tests", "build", "docs", "api"):
            os.symlink(os.path.join(root, name), os.path.join(scratch, name))
        for block in blocks(text):
            status = 0
            for number, command, shown in commands(block):
                cat = re.fullmatch(r"cat (\S+)", command)
                if cat and not os.path.exists(os.path.join(scratch, cat.group(1))):
                    with open(os.path.join(scratch, cat.group(1)), "w", encoding="utf-8") as f:
                        f.write("\n".join(shown) + "\n")
                runs += 1
                if command.strip() == "echo $?":
                    printed = f"{status}\n"
                else:
                    done = subprocess.run(["bash", "-c", command], cwd=scratch, env=env, stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, timeout=300)
                    printed, status = done.stdout.decode("utf-8", "replace"), done.returncode
                lines = printed.split("\n")
                if lines and lines[-1] == "":
                    lines.pop()
                why = matches(shown, lines)
                if why:
                    failures += 1
                    print(f"README.md:{number}: '$ {command}' does not print what the README shows:\n    {why}")
    print(f"README tour: {runs - failures} of {runs} commands print what the README shows")
    return 1 if failures or runs == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
