#!/usr/bin/env python3
"""The expected values of tests/misc/init_expr.ptx, from the bytes ptxas writes for its variables.

usage: scripts/init_expr.py [--ptxas PATH]   (writes tests/misc/init_expr.expect.json)

ptxas 13.0 compiles the case (-arch=sm_90); each variable's initial bytes are read from the cubin's
.nv.global.init section at its symbol's offset (objdump -s, readelf -s), and the pointers of p
from the addends of that section's relocations against a (readelf -r): the words the kernel copies
to out, in its order. Nothing here comes from ptxrun.
"""
import json, os, re, struct, subprocess, sys, tempfile

ptxas = sys.argv[sys.argv.index('--ptxas') + 1] if '--ptxas' in sys.argv else '/usr/local/cuda/bin/ptxas'
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
case = os.path.join(root, 'tests', 'misc', 'init_expr')
cubin = os.path.join(tempfile.mkdtemp(), 'init_expr.cubin')
subprocess.run([ptxas, '-arch=sm_90', case + '.ptx', '-o', cubin], check=True)
sec = subprocess.run(['objdump', '-s', '-j', '.nv.global.init', cubin], capture_output=True, text=True).stdout
data = b''
for line in sec.splitlines():
    m = re.match(r'^ ([0-9a-f]{4}) ((?:[0-9a-f]{2,8} ){1,4})', line)
    if m:
        data += bytes.fromhex(m.group(2).replace(' ', ''))
index = re.search(r'\[\s*(\d+)\] \.nv\.global\.init ',
                  subprocess.run(['readelf', '-SW', cubin], capture_output=True, text=True).stdout).group(1)
syms = {}
for line in subprocess.run(['readelf', '-sW', cubin], capture_output=True, text=True).stdout.splitlines():
    f = line.split()
    if len(f) == 8 and f[3] == 'OBJECT' and f[6] == index:
        syms[f[7]] = (int(f[1], 16), int(f[2]))
def var(name):
    off, size = syms[name]
    return data[off:off + size]
words = []
for name in ['w', 'd']:
    b = var(name); words += list(struct.unpack('<%dI' % (len(b) // 4), b))
for name in ['h', 'c']:
    words.append(struct.unpack('<I', var(name))[0])
for name in ['f', 'g', 'b']:
    b = var(name); words += list(struct.unpack('<%dI' % (len(b) // 4), b))
p_off = syms['p'][0]
addend = {}
for line in subprocess.run(['readelf', '-rW', cubin], capture_output=True, text=True).stdout.splitlines():
    m = re.match(r'^([0-9a-f]{16})\s+\S+\s+unrecognized: 4\s+\S+\s+a ([+-]) (\d+)', line)
    if m:
        addend[int(m.group(1), 16)] = int(m.group(3)) * (1 if m.group(2) == '+' else -1)
words += [addend[p_off + 8 * i] & 0xffffffff for i in range(4)]
with open(case + '.expect.json', 'w') as out:
    out.write(json.dumps({"buffers": {"out": ['0x%08x' % w for w in words]}}) + '\n')
