#!/usr/bin/env python3
"""Run ptxrun test cases (NAME.ptx + NAME.lanes.json with buffers) on a real NVIDIA GPU.

Needs a GPU and libcuda.so only to record; nothing in the build or the tests runs it.

    scripts/h100_run.py --out results.json CASE_DIR_OR_PTX...   # every case twice, one process per run
    scripts/h100_run.py --write-expect DIR results.json         # NAME.expect.json beside each NAME.ptx below DIR
    scripts/h100_run.py --write-records DIR results.json        # DIR/FOLDER/FILE.h100.json for whole kernels

A case is run when its lanes file gives `buffers` and `params` (and optionally `grid`,
`dynamic_shared`) and nothing the runner cannot express (regs, preds, textures, surfaces,
samplers, buffer replicas, `bytes`/`fields` parameters, an expect file wanting a non-zero exit).
The PTX is loaded with cuModuleLoadDataEx (the driver's JIT), launched with cuLaunchKernel, and
every buffer is read back and written as "0x..." bits of its type. Each case runs twice, each
time in a fresh process (a fault cannot spoil the next case); `same` says whether both runs gave
identical bytes.
"""
import concurrent.futures
import ctypes
import json
import os
import re
import struct
import subprocess
import sys

from cmdline import command_line, refuse

WIDTH = {'8': 1, '16': 2, '32': 4, '64': 8}


def type_bytes(t):
    return WIDTH[re.sub(r'^[usbf]', '', t)]


def value_bits(t, v):
    """A lanes-file value of type t as an unsigned integer of its width (None: undefined)."""
    n = type_bytes(t)
    mask = (1 << (8 * n)) - 1
    if v is None:
        return None
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int) and t in ('f32', 'f64'):
        v = float(v)
    elif isinstance(v, int):
        return v & mask
    if isinstance(v, float):
        if t == 'f32':
            return struct.unpack('<I', struct.pack('<f', v))[0]
        if t == 'f64':
            return struct.unpack('<Q', struct.pack('<d', v))[0]
        raise ValueError('real value for type %s' % t)
    if isinstance(v, str):
        s = v.lower()
        special = {'nan': (0x7fffffff if t == 'f32' else 0x7fffffffffffffff),
                   'inf': (0x7f800000 if t == 'f32' else 0x7ff0000000000000),
                   '-inf': (0xff800000 if t == 'f32' else 0xfff0000000000000)}
        if s in special:
            return special[s]
        if s.startswith('0x'):
            if '?' in s:
                return None
            return int(s, 16) & mask
        if s.startswith('-0x'):
            return (-int(s[1:], 16)) & mask
        return int(s, 0) & mask
    raise ValueError('value %r' % (v,))


def unsupported(lanes, expect):
    why = []
    for k in ('regs', 'preds', 'textures', 'surfaces', 'samplers'):
        if lanes.get(k):
            why.append(k)
    if 'buffers' not in lanes:
        why.append('no buffers')
    for name, b in lanes.get('buffers', {}).items():
        if '@' in name or 'replicas' in b:
            why.append('multimem replicas')
    params = lanes.get('params', [])
    vals = params.values() if isinstance(params, dict) else params
    for v in vals:
        if isinstance(v, dict):
            why.append('bytes/fields parameter')
    if expect.get('exit', 0) != 0:
        why.append('expects exit %s' % expect.get('exit'))
    return sorted(set(why))


def entry_params(ptx, entry):
    """[(name, type, size in bytes)] of the entry's parameters, and the entry's name."""
    body = re.sub(r'//[^\n]*', '', ptx)
    body = re.sub(r'/\*.*?\*/', '', body, flags=re.S)
    ents = re.findall(r'\.entry\s+([A-Za-z_$%][\w$]*)\s*\(([^)]*)\)', body)
    if not ents:
        ents = [(m, '') for m in re.findall(r'\.entry\s+([A-Za-z_$%][\w$]*)', body)]
    if entry:
        ents = [e for e in ents if e[0] == entry]
    if len(ents) != 1:
        raise ValueError('entries: %s' % [e[0] for e in ents])
    name, plist = ents[0]
    out = []
    for p in [p.strip() for p in plist.split(',') if p.strip()]:
        m = re.search(r'\.([usbf](?:8|16|32|64))\b', p)
        n = re.search(r'([A-Za-z_$%][\w$%]*)\s*(?:\[(\d+)\])?\s*$', p)
        if not m or not n:
            raise ValueError('parameter %r' % p)
        t, pname, count = m.group(1), n.group(1), n.group(2)
        size = type_bytes(t) * (int(count) if count else 1)
        out.append((pname, t, size))
    return name, out


def run_one(ptx_path, lanes_path, expect_path):
    ptx = open(ptx_path).read()
    lanes = json.load(open(lanes_path))
    expect = json.load(open(expect_path)) if expect_path and os.path.exists(expect_path) else {}
    cu = ctypes.CDLL('libcuda.so.1')

    def ck(r, what):
        if r != 0:
            s = ctypes.c_char_p()
            cu.cuGetErrorString(r, ctypes.byref(s))
            raise RuntimeError('%s: %d %s' % (what, r, s.value.decode() if s.value else ''))
    ck(cu.cuInit(0), 'cuInit')
    dev = ctypes.c_int()
    ck(cu.cuDeviceGet(ctypes.byref(dev), 0), 'cuDeviceGet')
    ctx = ctypes.c_void_p()
    ck(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), 'ctx')
    ck(cu.cuCtxSetCurrent(ctx), 'ctx current')
    if re.search(r'\.func\b', ptx):  # calls, maybe recursive: a deeper stack (16 KiB a thread)
        ck(cu.cuCtxSetLimit(0, ctypes.c_size_t(16 * 1024)), 'stack size')
    mod = ctypes.c_void_p()
    logbuf = ctypes.create_string_buffer(65536)
    opts = (ctypes.c_int * 2)(5, 6)  # CU_JIT_ERROR_LOG_BUFFER, _SIZE_BYTES
    optv = (ctypes.c_void_p * 2)(ctypes.cast(logbuf, ctypes.c_void_p), ctypes.c_void_p(65536))
    r = cu.cuModuleLoadDataEx(ctypes.byref(mod), ctypes.c_char_p(ptx.encode() + b'\0'), 2, opts, optv)
    if r != 0:
        raise RuntimeError('cuModuleLoadDataEx %d: %s' % (r, logbuf.value.decode(errors='replace')))
    ename, params = entry_params(ptx, expect.get('entry'))
    fn = ctypes.c_void_p()
    ck(cu.cuModuleGetFunction(ctypes.byref(fn), mod, ename.encode()), 'cuModuleGetFunction')
    bufs = {}
    for name, b in lanes.get('buffers', {}).items():
        t = b['type']
        n = type_bytes(t)
        data = b.get('data')
        count = len(data) if data is not None else b['count']
        raw = bytearray(count * n)
        if data is not None:
            for i, v in enumerate(data):
                bits = value_bits(t, v)
                raw[i * n:(i + 1) * n] = (bits if bits is not None else 0).to_bytes(n, 'little')
        ptr = ctypes.c_uint64()
        ck(cu.cuMemAlloc_v2(ctypes.byref(ptr), max(len(raw), 16)), 'alloc')
        ck(cu.cuMemcpyHtoD_v2(ptr, bytes(raw), len(raw)), 'HtoD')
        bufs[name] = (t, count, ptr)
    given = lanes.get('params', [])
    if isinstance(given, dict):
        given = [given[p[0]] for p in params]
    if len(given) != len(params):
        raise ValueError('%d params given, entry has %d' % (len(given), len(params)))
    holders = []
    for (pname, t, size), v in zip(params, given):
        if isinstance(v, str) and v.startswith('@'):
            bits = bufs[v[1:]][2].value
        else:
            bits = value_bits(t if t in ('f32', 'f64') or size == type_bytes(t) else 'b%d' % (8 * size), v)
        holders.append(ctypes.create_string_buffer((bits or 0).to_bytes(max(size, 8), 'little')[:size], max(size, 1)))
    argv = (ctypes.c_void_p * max(len(holders), 1))(*[ctypes.cast(h, ctypes.c_void_p) for h in holders])
    block = (list(lanes.get('block', [1])) + [1, 1])[:3]
    grid = (list(lanes.get('grid', [1])) + [1, 1])[:3]
    shared = int(lanes.get('dynamic_shared', 0))
    if shared > 48 * 1024:
        ck(cu.cuFuncSetAttribute(fn, 8, shared), 'max dynamic shared')
    ck(cu.cuLaunchKernel(fn, *[ctypes.c_uint(x) for x in grid], *[ctypes.c_uint(x) for x in block],
                         ctypes.c_uint(shared), None, argv, None), 'launch')
    ck(cu.cuCtxSynchronize(), 'synchronize')
    out = {}
    for name, (t, count, ptr) in bufs.items():
        n = type_bytes(t)
        raw = ctypes.create_string_buffer(count * n)
        ck(cu.cuMemcpyDtoH_v2(raw, ptr, count * n), 'DtoH')
        out[name] = {'type': t, 'data': ['0x%0*x' % (2 * n, int.from_bytes(raw.raw[i * n:(i + 1) * n], 'little'))
                                          for i in range(count)]}
    return out


def cases_in(paths):
    for p in paths:
        if p.endswith('.ptx'):
            yield p
            continue
        for root, _, files in sorted(os.walk(p)):
            for f in sorted(files):
                if f.endswith('.ptx'):
                    yield os.path.join(root, f)


def companions(ptx):
    d, f = os.path.split(ptx)
    name = f.split('.')[0]
    return os.path.join(d, name + '.lanes.json'), os.path.join(d, name + '.expect.json')


def main():
    a = command_line(sys.argv, __doc__, {'--one': 3, '--write-expect': 2, '--write-records': 2, '--out': 1})[1:]
    if a and a[0] == '--one':
        ptx, lanes, expect = a[1:4]
        try:
            r = {'buffers': run_one(ptx, lanes, expect)}
        except Exception as e:  # reported per case, the recording goes on
            r = {'error': str(e)}
        sys.stdout.flush()
        print('\nRESULT:' + json.dumps(r), flush=True)
        return 0
    if a and a[0] == '--write-expect':
        folder, results = a[1], json.load(open(a[2]))
        where = {f: os.path.join(d, f) for d, _, fs in os.walk(folder) for f in fs if f.endswith('.ptx')}
        for key, r in results.items():
            if 'buffers' not in r or not r.get('same'):
                continue
            lanes, expect = companions(where[os.path.basename(key)])
            keep = [b for b in r['buffers'] if not b.startswith('in')]
            if re.match(r'same_\w+_(cas|exch)_', os.path.basename(key)):
                keep.remove('mem')  # which lane's value stays depends on the order: not recorded
            with open(expect, 'w') as f:
                json.dump({'buffers': {k: r['buffers'][k]['data'] for k in keep}}, f, indent=None)
                f.write('\n')
        return 0
    if a and a[0] == '--write-records':
        # the buffers as the GPU left them, in the expect files' form, or why not; run from the repo root
        folder, results = a[1], json.load(open(a[2]))
        for key, r in sorted(results.items()):
            sub = os.path.basename(os.path.dirname(key))
            os.makedirs(os.path.join(folder, sub), exist_ok=True)
            # the buffers the case's expect file compares (tests/FOLDER or samples/)
            repo = os.path.join('samples' if sub == 'samples' else os.path.join('tests', sub), os.path.basename(key))
            parts = os.path.basename(key).split('.')
            exp = [os.path.join(os.path.dirname(repo), '.'.join([parts[0], t, 'expect.json'])) for t in parts[1:-1][::-1]]
            exp = [e for e in exp + [companions(repo)[1]] if os.path.exists(e)]
            keep = list(json.load(open(exp[0])).get('buffers', {})) if exp else None
            rec = {'buffers': {k: v['data'] for k, v in r['buffers'].items() if keep is None or k in keep}} \
                if 'buffers' in r and r.get('same') else {'not_recorded': r.get('error') or r.get('skipped') or 'runs differed'}
            with open(os.path.join(folder, sub, os.path.basename(key)[:-4] + '.h100.json'), 'w') as f:
                json.dump(rec, f)
                f.write('\n')
        return 0
    if '--out' not in a:
        refuse(__doc__, 'expected --out FILE, --write-expect or --write-records')
    out = a[a.index('--out') + 1]
    paths = [x for i, x in enumerate(a) if x != '--out' and (i == 0 or a[i - 1] != '--out')]
    results = {}
    runs = []
    for ptx in cases_in(paths):
        lanes, expect = companions(ptx)
        if not os.path.exists(lanes):
            continue
        l = json.load(open(lanes))
        e = json.load(open(expect)) if os.path.exists(expect) else {}
        why = unsupported(l, e)
        if why:
            results[ptx] = {'skipped': why}
            continue
        runs.append((ptx, lanes, expect))

    def one(job):
        try:
            p = subprocess.run([sys.executable, __file__, '--one', *job],
                               capture_output=True, text=True, timeout=30)
            lines = [x for x in p.stdout.splitlines() if x.startswith('RESULT:')]
            return json.loads(lines[-1][7:]) if lines else {'error': (p.stdout + p.stderr)[-500:]}
        except subprocess.TimeoutExpired:
            return {'error': 'timeout (30 s)'}
    with concurrent.futures.ThreadPoolExecutor(int(os.environ.get('JOBS', '8'))) as pool:
        first = list(pool.map(one, runs))
        second = list(pool.map(one, runs))
    for (ptx, _, _), r0, r1 in zip(runs, first, second):
        runs = [r0, r1]
        r = dict(runs[0])
        r['same'] = runs[0] == runs[1]
        if not r['same']:
            r['second'] = runs[1]
        results[ptx] = r
        print(ptx, 'error' if 'error' in r else 'ok', '' if r['same'] else 'DIFFERENT', flush=True)
    with open(out, 'w') as f:
        json.dump(results, f, indent=0)
    return 0


if __name__ == '__main__':
    sys.exit(main())
