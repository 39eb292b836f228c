#!/usr/bin/env python3
"""Compare the buffers a GPU wrote (scripts/h100_run.py's results) with the cases' expect files
and with ptxrun's results. Needs no GPU.

    scripts/h100_compare.py RESULTS.json PREFIX=REPO_DIR [--ptxrun build/ptxrun]

PREFIX=REPO_DIR maps a case path in RESULTS (as recorded, e.g. `.gpu/a/kernels`) to the repo's
folder (`tests/kernels`). An element is compared only where the expect file defines it (not
null, no `?` digits). Prints one line per difference: case, buffer, index, GPU, expected, ptxrun.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import h100_run  # noqa: E402


def expect_file(ptx):
    d, f = os.path.split(ptx)
    parts = f.split('.')
    name, tags = parts[0], parts[1:-1]
    for t in reversed(tags):
        p = os.path.join(d, '%s.%s.expect.json' % (name, t))
        if os.path.exists(p):
            return p
    return os.path.join(d, name + '.expect.json')


def bits_list(t, data):
    return [h100_run.value_bits(t, v) for v in data]


def main():
    a = sys.argv[1:]
    results = json.load(open(a[0]))
    maps = [x.split('=', 1) for x in a[1:] if '=' in x and not x.startswith('--')]
    ptxrun = a[a.index('--ptxrun') + 1] if '--ptxrun' in a else 'build/ptxrun'
    ndiff = 0
    for key, r in sorted(results.items()):
        path = key
        for src, dst in maps:
            if key.startswith(src.rstrip('/') + '/'):
                path = dst.rstrip('/') + key[len(src.rstrip('/')):]
        if 'buffers' not in r:
            print('%s: not compared: %s' % (path, r.get('error') or 'skipped: ' + ', '.join(r.get('skipped', []))))
            continue
        lanes = h100_run.companions(path)[0]
        exp = json.load(open(expect_file(path)))
        cmd = [ptxrun, path, '--lanes', lanes, '--json']
        if 'entry' in exp:
            cmd += ['--entry', exp['entry']]
        p = subprocess.run(cmd, capture_output=True, text=True)
        try:
            mine = json.loads(p.stdout)['buffers']
        except (ValueError, KeyError):
            mine = {}
            print('%s: ptxrun exit %d: %s' % (path, p.returncode, p.stderr.strip()[:200]))
        for buf, want in exp.get('buffers', {}).items():
            if isinstance(want, dict):
                want = want['data']
            t = r['buffers'][buf]['type']
            gpu = bits_list(t, r['buffers'][buf]['data'])
            expected = bits_list(t, want)
            got = bits_list(t, mine[buf]['data']) if buf in mine else [None] * len(gpu)
            n = 2 * h100_run.type_bytes(t)
            for i, (g, e) in enumerate(zip(gpu, expected)):
                m = got[i] if i < len(got) else None
                if e is not None and g != e or (m is not None and g != m):
                    ndiff += 1
                    print('%s: %s[%d]: H100 %s, expected %s, ptxrun %s' % (
                        path, buf, i, '0x%0*x' % (n, g),
                        'undefined' if e is None else '0x%0*x' % (n, e),
                        'undefined' if m is None else '0x%0*x' % (n, m)))
    print('%d differences' % ndiff)


if __name__ == '__main__':
    main()
