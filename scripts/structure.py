#!/usr/bin/env python3
"""structure.py: checks the shape docs/architecture.md describes, so that it stays true.

  - no source file over MAX_LINES lines;
  - no loop of calls between files: the graph "file A calls a function defined in file B" has
    no cycle (a function's file is where its body is);
  - the rooms, named in pipeline order, call only into themselves and the rooms before them;
  - no code after the checker reads mnemonic text (Instr.mnemonic is only printed there);
  - the top of the repository (the current folder) holds what docs/architecture.md's "The top
    level" names, and nothing else that git tracks or would track (ignored files do not count).

usage: structure.py ROOM...   (in pipeline order; exit 1 and a message per problem)
"""
import os
import re
import subprocess
import sys

MAX_LINES = 900
# Files that run after the checker: they may print an instruction's mnemonic, never parse it.
AFTER_CHECK = re.compile(r'(exec|lower|layout|cfg|mem|report|alu|bitops|mathops|approx|convert|warpops|barrier|'
                         r'sync|call|trace|warp|block|lanes|dump|expect)\.c$')

DEF = re.compile(r'^(?!static\b)[A-Za-z_][\w \*]*?\b([a-z_][a-z0-9_]*)\(([^;]*)$')
CALL = re.compile(r'\b([a-z_][a-z0-9_]*)\s*\(')


LAYOUT_DOC = 'docs/architecture.md'
LAYOUT_HEADING = '## The top level'


def layout(doc):
    """The top-level entries doc names: the first word of each indented line of its "The top
    level" section, without a folder's '/'; None if it has no such section."""
    names, inside = None, False
    with open(doc, encoding='utf-8') as f:
        for line in f:
            if line.startswith('## '):
                inside = line.strip() == LAYOUT_HEADING
                names = set() if inside else names
            elif inside and line.startswith('    ') and line.strip():
                names.add(line.split()[0].rstrip('/'))
    return names


def top_level_problems():
    """Top-level entries git tracks or would track (not ignored) that the layout does not name,
    and entries it names that are missing; a note instead when this is not a git work tree."""
    try:
        listed = subprocess.run(['git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
                                capture_output=True)
    except OSError:
        listed = None
    if not listed or listed.returncode != 0:
        print('structure: not a git work tree: the top level is not checked')
        return []
    if not os.path.exists(LAYOUT_DOC):
        return ['%s is missing: it names the top level' % LAYOUT_DOC]
    named = layout(LAYOUT_DOC)
    if named is None:
        return ['%s has no "%s" section: it names the top level' % (LAYOUT_DOC, LAYOUT_HEADING[3:])]
    present = {p.split('/')[0] for p in listed.stdout.decode('utf-8', 'replace').split('\0') if p}
    problems = ['%s: at the top of the repository, but not in the layout %s names ("%s"): move it, ignore it '
                'in .gitignore, or name it there' % (e, LAYOUT_DOC, LAYOUT_HEADING[3:]) for e in sorted(present - named)]
    problems += ['%s: named in %s ("%s"), but not in the repository' % (e, LAYOUT_DOC, LAYOUT_HEADING[3:])
                 for e in sorted(named) if not os.path.exists(e)]
    return problems


def strip(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def main(dirs):
    files, room = {}, {}
    for rank, d in enumerate(dirs):
        for root, _, names in os.walk(d):
            for n in names:
                if n.endswith(('.c', '.re', '.y')):
                    path = os.path.join(root, n)
                    room[path] = rank
                    with open(path, encoding='utf-8') as f:
                        files[path] = f.read()
    problems = []
    defined = {}
    for path, text in files.items():
        lines = text.count('\n')
        if lines > MAX_LINES:
            problems.append('%s: %d lines (at most %d)' % (path, lines, MAX_LINES))
        for line in strip(text).split('\n'):
            m = DEF.match(line)
            if m and not line.startswith(('return', 'else', 'typedef')):
                defined.setdefault(m.group(1), path)
    calls = {path: set() for path in files}
    for path, text in files.items():
        for name in set(CALL.findall(strip(text))):
            target = defined.get(name)
            if target and target != path:
                calls[path].add(target)
                if room[target] > room[path]:
                    problems.append('%s calls %s() of %s, a later room' % (path, name, target))
        if AFTER_CHECK.search(path):
            for i, line in enumerate(text.split('\n'), 1):
                if re.search(r'(str\w*|mem\w*)\([^;]*mnemonic', line):
                    problems.append('%s:%d: reads mnemonic text after the checker' % (path, i))
    # cycles: Tarjan's strongly connected components
    index, low, on, stack, sccs = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in calls[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(files):
        if v not in index:
            visit(v)
    for comp in sccs:
        edges = ['%s -> %s' % (os.path.basename(a), os.path.basename(b))
                 for a in comp for b in sorted(calls[a]) if b in comp]
        problems.append('a loop of calls between files: ' + ', '.join(edges))
    problems += top_level_problems()
    for p in problems:
        print('structure: ' + p)
    if not problems:
        print('structure: %d files in %d rooms, none over %d lines, no loop of calls between files, no call into a '
              'later room, nothing at the top level that %s does not name' % (len(files), len(dirs), MAX_LINES,
                                                                            LAYOUT_DOC))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:] or ['lexer', 'parser', 'exec', 'cli']))
