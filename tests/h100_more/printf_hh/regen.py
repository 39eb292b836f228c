#!/usr/bin/env python3
"""Makes this folder's cases from probe.cu and the H100's output (h100_run1.txt): for each
kernel of probe.cu, NAME.cu (that kernel alone), NAME.ptx (nvcc -ptx -arch=sm_90), NAME.lanes.json
and NAME.expect.json: the text the H100 printed and the value printf returned (RET line), or,
for hhd_f, the fault ptxrun gives (the H100's 0.000000 is not reproduced). Run from the repo root."""
import json, re, subprocess, pathlib
d = pathlib.Path(__file__).parent
src = (d / 'probe.cu').read_text().splitlines()
head = [l for l in src if l.startswith('#define') and not l.startswith('#define E_')]
kernels = {m.group(1): l for l in src if (m := re.match(r'K\((\w+),', l))}
out, name, text = {}, None, ''
for line in (d / 'h100_run1.txt').read_text().splitlines(keepends=True):
    if line.startswith('BEGIN '):
        name, text = line.split()[1], ''
    elif line.startswith('RET '):
        out[name] = (text, int(line.split()[2]))
    elif not line.startswith('rc='):
        text += line
for k, line in kernels.items():
    cu = d / f'{k}.cu'
    cu.write_text('// one kernel of probe.cu, made by regen.py\n#include <cstdio>\n' + '\n'.join(head) + '\n' + line + '\n')
    subprocess.run(['/usr/local/cuda/bin/nvcc', '-ptx', '-arch=sm_90', '-o', str(d / f'{k}.ptx'), str(cu)], check=True)
    (d / f'{k}.lanes.json').write_text(json.dumps({'block': [1, 1, 1], 'buffers': {'ret': {'type': 's32', 'count': 1}},
                                                   'params': ['@ret']}) + '\n')
    text, ret = out[k]
    if k == 'hhd_f':
        exp = {'exit': 3, 'diagnostic': "cannot print a '%f' after a %hh conversion"}
    else:
        exp = {'stdout': text, 'buffers': {'ret': [ret]}}
    (d / f'{k}.expect.json').write_text(json.dumps(exp) + '\n')
