#!/usr/bin/env python3
"""library_example.py: compiles the worked example of docs/library.md (its first ```c block) against
the library just built, runs it from the repository's root, and compares what it prints with the
```text block after it (the word ADDRESS standing for any 0x address), so that the page cannot
drift from the library. Then the man page docs/libptxrun.3: every function api/ptxrun.h declares
is in its synopsis, and it renders without a complaint (man -l); and the two libraries export those
functions and nothing else.

usage: library_example.py docs/library.md LIBDIR [CC [CFLAGS...]]
LIBDIR holds libptxrun.so; the example links against it (the shared library: its exports suffice).
"""
import os
import re
import subprocess
import sys
import tempfile


def fenced(text, language):
    """The fenced blocks of a language, in order."""
    return re.findall(r"^```" + language + r"\n(.*?)^```$", text, re.M | re.S)


def main():
    page, libdir = sys.argv[1], os.path.abspath(sys.argv[2])
    cc = sys.argv[3:] or ["cc"]
    root = os.path.dirname(os.path.dirname(os.path.abspath(page)))
    with open(page, encoding="utf-8") as f:
        text = f.read()
    code, shown = fenced(text, "c"), fenced(text, "text")
    if not code or not shown:
        print(f"{page}: no ```c example or no ```text output after it")
        return 1
    with tempfile.TemporaryDirectory() as scratch:
        source, program = os.path.join(scratch, "example.c"), os.path.join(scratch, "example")
        with open(source, "w", encoding="utf-8") as f:
            f.write(code[0])
        build = cc + ["-std=c11", "-Wall", "-Wextra", "-Werror", "-I", os.path.join(root, "api"), "-o", program,
                      source, "-L", libdir, "-lptxrun", "-Wl,-rpath," + libdir]
        done = subprocess.run(build, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if done.returncode:
            print(f"{page}: the example does not compile:\n{done.stdout.decode()}")
            return 1
        done = subprocess.run([program], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    printed = re.sub(r"0x[0-9a-f]+", "ADDRESS", done.stdout.decode("utf-8", "replace"))
    if done.returncode or printed != shown[0]:
        print(f"{page}: the example (exit {done.returncode}) prints:\n{printed}\nand the page shows:\n{shown[0]}")
        return 1
    print(f"{page}: the worked example prints what the page shows")
    return check_man(root) or check_exports(root, libdir)


def check_exports(root, libdir):
    """Both libraries export ptxrun.h's functions and nothing else."""
    with open(os.path.join(root, "api", "ptxrun.h"), encoding="utf-8") as f:
        declared = sorted(re.findall(r"PTXRUN_API [^;(]*?\b(ptx\w+)\(", f.read()))
    for lib, nm in (("libptxrun.so", ["nm", "-D", "--defined-only"]), ("libptxrun.a", ["nm", "--defined-only"])):
        listed = subprocess.run(nm + [os.path.join(libdir, lib)], stdout=subprocess.PIPE, check=True).stdout.decode()
        names = sorted({w[2] for w in (line.split() for line in listed.splitlines())
                        if len(w) == 3 and w[1].isupper() and not w[2].startswith("_")})
        if names != declared:
            print(f"{lib}: exports {sorted(set(names) - set(declared))}, lacks {sorted(set(declared) - set(names))}")
            return 1
    print(f"libptxrun.so and libptxrun.a export the {len(declared)} functions of ptxrun.h and nothing else")
    return 0


def check_man(root):
    with open(os.path.join(root, "api", "ptxrun.h"), encoding="utf-8") as f:
        declared = re.findall(r"PTXRUN_API [^;(]*?\b(ptx\w+)\(", f.read())
    page = os.path.join(root, "docs", "libptxrun.3")
    with open(page, encoding="utf-8") as f:
        man = f.read()
    synopsis = man[man.index(".SH SYNOPSIS"):man.index(".SH DESCRIPTION")]
    missing = [name for name in declared if not re.search(r"\b" + name + r"\(", synopsis)]
    if len(declared) < 18 or missing:
        print(f"{page}: not in the synopsis: {', '.join(missing)} ({len(declared)} functions in ptxrun.h)")
        return 1
    done = subprocess.run(["man", "-l", page], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=dict(os.environ, MANWIDTH="80"))
    if done.returncode or done.stderr or b"ptxrun_launch" not in done.stdout:
        print(f"{page}: man -l does not render it cleanly:\n{done.stderr.decode()}")
        return 1
    print(f"{page}: its synopsis has the {len(declared)} functions of ptxrun.h, and it renders")
    return 0


if __name__ == "__main__":
    sys.exit(main())
