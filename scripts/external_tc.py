#!/usr/bin/env python3
"""Tensor-core kernels written elsewhere, run by ptxrun and compared with their own references.

Not part of `make check`: it needs nvcc (CUDA 12+) and local checkouts (any directory `git -C`
accepts, bare or not) of NVIDIA/cuda-samples, vosen/ZLUDA and tinygrad/tinygrad. Nothing from
them is copied into this repository: each file is read from the checkout's HEAD into a temporary
directory at run time.

    scripts/external_tc.py --samples DIR --zluda DIR --tinygrad DIR [--ptxrun build/ptxrun]
                           [--nvcc /usr/local/cuda/bin/nvcc] [--keep DIR] [--only samples,zluda,tinygrad]

Prints one row per run (source | kernel | build | size | compared how | result); exit 1 when a
row is FAIL or ptxrun refused a run, 0 otherwise (docs/external-tensor-cores.md)."""
import argparse, os, random, re, shutil, struct, subprocess, sys, tempfile
from fractions import Fraction

ROWS = []


def row(*cells):
    ROWS.append(cells)
    print(' | '.join(map(str, cells)), flush=True)


def sh(cmd, cwd=None, env=None):
    return subprocess.run(cmd, shell=isinstance(cmd, str), capture_output=True, text=True, cwd=cwd, env=env)


def git_show(repo, path):
    r = subprocess.run(['git', '-C', repo, 'show', 'HEAD:' + path], capture_output=True)
    if r.returncode:
        sys.exit(f'external_tc: {repo} has no {path} at HEAD')
    return r.stdout


def git_export(repo, sub, dest):
    os.makedirs(dest, exist_ok=True)
    # (a mirror missing blobs elsewhere in the tree makes git archive complain; what is asked for is checked)
    a = subprocess.Popen(['git', '-C', repo, 'archive', 'HEAD', sub], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    subprocess.run(['tar', '-x', '-C', dest], stdin=a.stdout, check=True)
    a.wait()
    if not os.path.isdir(os.path.join(dest, sub)):
        sys.exit(f'external_tc: could not export {sub} from {repo}')


def npy_data(path):
    b = open(path, 'rb').read()
    hl = struct.unpack('<H', b[8:10])[0]
    return b[10 + hl:]


def ptxrun_err(r):
    lines = [l for l in r.stderr.splitlines() if 'error' in l or 'cannot' in l] or r.stderr.splitlines()
    return f'exit {r.returncode}: ' + ' / '.join(lines[:2])[:240]


# ---------------------------------------------------------------- NVIDIA cuda-samples
# Each sample's simple wmma kernel, what it reads (its own index arithmetic, from its source) and its
# types: name: (kernel, ptxrun A/B type, C type for the host, ptxrun C/D type, tiles (M, N, K) for a
# 64 x 64 x 64 problem, struct code of A/B, of C/D).
SAMPLES = {
    'cudaTensorCoreGemm': ('simple_wmma_gemm', 'f16', 'half', 'f32', (4, 4, 4), 'e', 'f'),
    'bf16TensorCoreGemm': ('simple_wmma_bf16gemm', 'bf16', '__nv_bfloat16', 'f32', (4, 4, 4), 'bf', 'f'),
    'tf32TensorCoreGemm': ('simple_wmma_tf32gemm', 'f32', 'float', 'f32', (4, 4, 8), 'f', 'f'),
    'dmmaTensorCoreGemm': ('simple_wmma_gemm', 'f64', 'double', 'f64', (8, 8, 16), 'd', 'd'),
    'immaTensorCoreGemm': ('simple_wmma_gemm_imma', 'u8', 'uint8_t', 's32', (4, 4, 4), 'B', 'i'),
}
BUILDS = [('sm_80', '-O3'), ('sm_80', '-G'), ('sm_90', '-O3'), ('sm_90', '-G')]


def c_function(src, head):
    i = src.index(head)
    depth = 0
    for k in range(src.index('{', i), len(src)):
        depth += {'{': 1, '}': -1}.get(src[k], 0)
        if depth == 0:
            return src[i:k + 1]


def unpack(raw, code):
    if code == 'bf':
        return [struct.unpack('<f', struct.pack('<I', h << 16))[0] for h in struct.unpack(f'<{len(raw) // 2}H', raw)]
    return list(struct.unpack(f'<{len(raw) // struct.calcsize(code)}{code}', raw))


def kernel_model(name, A, B, C, Mg, Ng, Kg, tm, tn, tk, alpha, beta, fused, fmt, swap_fixed=False):
    """D as the sample's simple kernel computes it, from its source's index arithmetic: exact sums
    (the inputs are the sample's integers 0..2), the epilogue alpha*acc + beta*c rounded to the
    output type (fused: as one fma after beta*c, as nvcc's PTX does it; else two products, a sum)."""
    def rnd(x):
        return struct.unpack('<' + fmt, struct.pack('<' + fmt, float(x)))[0] if fmt == 'f' else float(x)
    D = [0] * (Mg * Ng)
    for wm in range(Mg // tm):
        for wn in range(Ng // tn):
            acc = [[0] * tn for _ in range(tm)]
            for i in range(0, Kg, tk):
                if name == 'bf16TensorCoreGemm' and not swap_fixed:
                    # bCol = i, bRow = warpN * N; load b + bRow + bCol * ldb (col_major, ldb = K):
                    # B fragment element (kk, nn) is b[(i + nn) * K + warpN * N + kk]
                    if not (wn * tn < Kg and i < Ng):
                        continue
                    bidx = lambda kk, nn: (i + nn) * Kg + wn * tn + kk
                elif name == 'immaTensorCoreGemm':
                    # bCol = i, bRow = warpN * N; load b + bCol + bRow * ldb: element (kk, nn) is
                    # b[(warpN * N + nn) * K + i + kk]; its bounds test compares bRow with K
                    if not (wn * tn < Kg and i < Ng):
                        continue
                    bidx = lambda kk, nn: (wn * tn + nn) * Kg + i + kk
                else:
                    bidx = lambda kk, nn: (wn * tn + nn) * Kg + i + kk
                # imma's lda is m_ld (= K here, the sizes being square), the others' k_ld
                for mm in range(tm):
                    arow = (wm * tm + mm) * (Mg if name == 'immaTensorCoreGemm' else Kg) + i
                    for nn in range(tn):
                        acc[mm][nn] += sum(Fraction(A[arow + kk]) * Fraction(B[bidx(kk, nn)]) for kk in range(tk))
            for mm in range(tm):
                for nn in range(tn):
                    k = (wm * tm + mm) * Ng + wn * tn + nn
                    a, c = acc[mm][nn], Fraction(C[k])
                    if fmt == 'i':
                        D[k] = int(alpha * a + beta * c)
                    elif fused:
                        D[k] = rnd(Fraction(alpha) * a + Fraction(rnd(Fraction(beta) * c)))
                    else:
                        D[k] = rnd(Fraction(rnd(Fraction(alpha) * a)) + Fraction(rnd(Fraction(beta) * c)))
    return D


def run_samples(args, tmp):
    common = os.path.join(tmp, 'cs')
    git_export(args.samples, 'Common', common)
    fixes = [(n, False) for n in SAMPLES] + [('bf16TensorCoreGemm', True)]
    for name, fixed in fixes:
        kern, abt, act, cdt, tiles, acode, ccode = SAMPLES[name]
        label = name + (' (bRow/bCol as in tf32TensorCoreGemm)' if fixed else '')
        src = git_show(args.samples, f'Samples/3_CUDA_Features/{name}/{name}.cu').decode()
        small = src
        for c, t in zip('MNK', tiles):
            small = re.sub(rf'#define {c}_TILES \d+', f'#define {c}_TILES {t}', small)
        if fixed:
            small, n = re.subn(r'int bCol = i;\s*int bRow = warpN \* N;', 'int bCol = warpN * N; int bRow = i;', small)
            assert n == 1, 'bf16 sample: the bRow/bCol lines moved'
        d = os.path.join(tmp, 'samples', name + ('-fixed' if fixed else ''))
        os.makedirs(d)
        open(f'{d}/{name}.cu', 'w').write(small)
        tm, tn, tk = (int(re.search(rf'#define {c} (\d+)', src).group(1)) for c in 'MNK')
        alpha = re.search(r'\n\s*(?:const )?\w+\s+alpha\s*=\s*([^;]+);', src).group(1)
        beta = re.search(r'\n\s*(?:const )?\w+\s+beta\s*=\s*([^;]+);', src).group(1)
        alt = {'f': 'float', 'd': 'double', 'i': 'int'}[ccode]
        defs = ''.join(l + '\n' for l in small.splitlines()
                       if re.match(r'#define (M|N|K|M_TILES|N_TILES|K_TILES|M_GLOBAL|N_GLOBAL|K_GLOBAL) ', l))
        cct = alt
        # the sample's own init_host_matrices and matMultiplyOnHost, built for the host
        host = f'''#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
{defs}
{c_function(small, '__host__ void init_host_matrices')}
{c_function(small, '__host__ void matMultiplyOnHost')}
static void dump(const char *p, const void *x, size_t n) {{ FILE *f = fopen(p, "wb"); fwrite(x, 1, n, f); fclose(f); }}
int main() {{
    {act} *A = ({act} *)malloc(sizeof({act}) * M_GLOBAL * K_GLOBAL);
    {act} *B = ({act} *)malloc(sizeof({act}) * K_GLOBAL * N_GLOBAL);
    {cct} *C = ({cct} *)malloc(sizeof({cct}) * M_GLOBAL * N_GLOBAL);
    {cct} *R = ({cct} *)malloc(sizeof({cct}) * M_GLOBAL * N_GLOBAL);
    init_host_matrices(A, B, C);
    for (int i = 0; i < M_GLOBAL * N_GLOBAL; i++) R[i] = C[i];
    const {alt} alpha = {alpha}, beta = {beta};
    matMultiplyOnHost(A, B, R, alpha, beta, M_GLOBAL, K_GLOBAL, K_GLOBAL, N_GLOBAL, M_GLOBAL, N_GLOBAL);
    dump("a.bin", A, sizeof({act}) * M_GLOBAL * K_GLOBAL);
    dump("b.bin", B, sizeof({act}) * K_GLOBAL * N_GLOBAL);
    dump("c.bin", C, sizeof({cct}) * M_GLOBAL * N_GLOBAL);
    dump("ref.bin", R, sizeof({cct}) * M_GLOBAL * N_GLOBAL);
    dump("alpha.bin", &alpha, sizeof alpha);
    dump("beta.bin", &beta, sizeof beta);
    printf("%d %d %d\\n", M_GLOBAL, N_GLOBAL, K_GLOBAL);
}}
'''
        open(f'{d}/host.cpp', 'w').write(host)
        r = sh(f'g++ -O1 -ffp-contract=off -I{os.path.dirname(os.path.dirname(args.nvcc))}/include host.cpp -o host', cwd=d)
        if r.returncode:
            row('cuda-samples', label, '-', '-', 'host build', 'FAIL ' + r.stderr[-300:])
            continue
        mg, ng, kg = map(int, sh('./host', cwd=d).stdout.split())
        A = unpack(open(f'{d}/a.bin', 'rb').read(), acode)
        B = unpack(open(f'{d}/b.bin', 'rb').read(), acode)
        C = unpack(open(f'{d}/c.bin', 'rb').read(), ccode)
        ref = unpack(open(f'{d}/ref.bin', 'rb').read(), ccode)
        al = unpack(open(f'{d}/alpha.bin', 'rb').read(), ccode)[0]
        be = unpack(open(f'{d}/beta.bin', 'rb').read(), ccode)[0]
        tol = 0 if ccode == 'i' else 0.1    # the sample's check: fabs(d - host) > 0.1f (imma: !=)
        models = {}
        for arch, opt in BUILDS:
            tag = f'{arch} {opt}'
            ptx = f'{name}_{arch}{opt.replace("-", "_")}.ptx'
            r = sh(f'{args.nvcc} -ptx {opt} -arch={arch} -I{common}/Common {name}.cu -o {ptx}', cwd=d)
            if r.returncode:
                row('cuda-samples', label, tag, '-', 'nvcc', 'FAIL ' + r.stderr[-200:])
                continue
            text = open(f'{d}/{ptx}').read()
            # the epilogue as nvcc wrote it: beta * c then one fma (-O3), or two products and a sum (-G)
            entry = re.search(r'\.entry \w*' + kern + r'\w*\(', text)
            body = text[entry.start():] if entry else ''
            nxt = body.find('.entry', 1)
            body = body[:nxt] if nxt > 0 else body
            load_c = body.find('wmma.load.c')
            fused = load_c >= 0 and bool(re.search(r'fma\.rn\.f(32|64)', body[load_c:]))
            bx = 128 // 32 * tm
            grid = f'{(mg + bx - 1) // bx},{(ng + tn * 4 - 1) // (tn * 4)}'
            for run, (ra, rb) in (('sample alpha/beta', (al, be)), ('alpha=1 beta=1', (1, 1))):
                def bits(v):
                    return '0x' + struct.pack('<' + ccode, v)[::-1].hex()
                sv = f'{d}/saved_{arch}{opt}_{ra}'
                cmd = [args.ptxrun, ptx, '--entry', kern, '--block', '128,4', '--grid', grid,
                       '--buffer', f'a={abt}@a.bin', '--buffer', f'b={abt}@b.bin', '--buffer', f'c={cdt}@c.bin',
                       '--buffer', f'd={cdt}:{mg * ng}', '--param', '0=@a', '--param', '1=@b', '--param', '2=@c',
                       '--param', '3=@d', '--param', f'4={mg}', '--param', f'5={ng}', '--param', f'6={kg}',
                       '--param', f'7={bits(ra)}', '--param', f'8={bits(rb)}', '--save-buffers', sv]
                r = sh(cmd, cwd=d)
                size = f'{mg}x{ng}x{kg}'
                if r.returncode:
                    row('cuda-samples', label, tag, size, run, 'REFUSED ' + ptxrun_err(r))
                    continue
                got = unpack(npy_data(f'{sv}/d.npy'), ccode)
                key = (ra, rb, fused)
                if key not in models:
                    models[key] = kernel_model(name, A, B, C, mg, ng, kg, tm, tn, tk, ra, rb, fused, ccode, fixed)
                model = models[key]
                n = mg * ng
                mbad = [i for i in range(n) if got[i] != model[i]]
                how = 'bit-exact vs a model of the kernel' + (' (fused epilogue)' if fused and ccode != 'i' else '')
                if run == 'sample alpha/beta':
                    bad = [i for i in range(n) if abs(got[i] - ref[i]) > tol]
                    same = sum(got[i] == ref[i] for i in range(n))
                    verdict = 'pass' if not bad else 'FAIL'
                    note = f'{n - len(bad)}/{n} within {tol} of the sample\'s host reference ({same} bit-equal)'
                    if bad:
                        i = bad[0]
                        note += f'; d[{i}] host {ref[i]!r}, ptxrun {got[i]!r}'
                        if name == 'bf16TensorCoreGemm' and not mbad:
                            verdict = 'as the kernel computes'
                    row('cuda-samples', label, tag, size, "sample's check, tolerance " + str(tol), f'{verdict}: {note}')
                if mbad:
                    i = mbad[0]
                    row('cuda-samples', label, tag, size, f'{run}: {how}',
                        f'FAIL: {len(mbad)}/{n} differ; d[{i}] model {model[i]!r}, ptxrun {got[i]!r}')
                else:
                    row('cuda-samples', label, tag, size, f'{run}: {how}', f'pass: {n}/{n} bit-equal')


# ---------------------------------------------------------------- ZLUDA
ZLUDA_DIR = 'ptx/src/test/spirv_run'


def run_zluda(args, tmp):
    names = subprocess.run(['git', '-C', args.zluda, 'ls-tree', '--name-only', 'HEAD', ZLUDA_DIR + '/'],
                           capture_output=True, text=True).stdout.split()
    names = sorted(os.path.basename(p)[:-4] for p in names if p.endswith('.ptx')
                   and re.search(r'mma|ldmatrix|stmatrix|movmatrix', os.path.basename(p)))
    mod = git_show(args.zluda, ZLUDA_DIR + '/mod.rs').decode()
    d = os.path.join(tmp, 'zluda')
    os.makedirs(d)
    for n in names:
        # test_ptx_warp!(name, [expected...]): ZLUDA launches one block of 64 threads, the output
        # buffer (as long as the expected array, zeroed) as the only parameter, and compares all of it
        m = re.search(r'test_ptx_warp!\(\s*' + n + r',\s*\[(.*?)\]\s*\);', mod, re.S)
        if not m:
            row('ZLUDA', n, 'as written', '-', 'mod.rs', 'no test_ptx_warp! entry: not run')
            continue
        vals = [v.strip() for v in m.group(1).split(',') if v.strip()]
        t = 'f32' if any('f32' in v or '.' in v for v in vals) else ('s32' if any('i32' in v for v in vals) else 'u32')
        exp = [float(re.sub(r'f32$', '', v)) if t == 'f32' else int(re.sub(r'[ui]\d+$', '', v)) for v in vals]
        code = {'f32': 'f', 's32': 'i', 'u32': 'I'}[t]
        open(f'{d}/{n}.ptx', 'wb').write(git_show(args.zluda, f'{ZLUDA_DIR}/{n}.ptx'))
        for block in ('64', '32'):
            # the buffer is made twice the compared length: ptxrun faults on a store past a buffer,
            # where CUDA's rounded-up allocation takes it silently
            sv = f'{d}/{n}_{block}.saved'
            r = sh([args.ptxrun, f'{n}.ptx', '--entry', n, '--block', block, '--buffer', f'out={t}:{2 * len(exp)}',
                    '--param', '0=@out', '--save-buffers', sv], cwd=d)
            how = f'block {block}: {len(exp)} {t} of mod.rs, exact'
            if r.returncode:
                row('ZLUDA', n, 'as written', '-', how, 'REFUSED ' + ptxrun_err(r) if r.returncode == 2 else
                    'fault ' + ptxrun_err(r))
                continue
            got = unpack(npy_data(f'{sv}/out.npy'), code)[:len(exp)]
            bad = [i for i in range(len(exp)) if got[i] != exp[i]]
            if block == '32' and not bad:
                bad = None
            if bad:
                i = bad[0]
                row('ZLUDA', n, 'as written', '-', how, f'FAIL: {len(bad)}/{len(exp)} differ; out[{i}] expected {exp[i]}, got {got[i]}')
            elif bad is None:
                row('ZLUDA', n, 'as written', '-', how, f'pass: warp 0 alone gives all {len(exp)}')
            else:
                row('ZLUDA', n, 'as written', '-', how, f'pass: {len(exp)}/{len(exp)} equal')
            if not bad and block == '64':
                break


# ---------------------------------------------------------------- tinygrad
TG_GEN = r'''
import os, sys
from tinygrad import Tensor, dtypes
from tinygrad.helpers import Target
from tinygrad.uop.ops import Ops, UOp, graph_rewrite, PatternMatcher
from tinygrad.renderer.ptx import PTXRenderer
import tinygrad.codegen as cg
mm, kk, nn = (int(x) for x in sys.argv[1].split('x'))
dt = {'half': dtypes.half, 'float': dtypes.float}
a = Tensor.empty(mm, kk, dtype=dt[sys.argv[2]], device='CPU')
b = Tensor.empty(kk, nn, dtype=dt[sys.argv[2]], device='CPU')
lin = a.matmul(b, dtype=dt[sys.argv[3]]).schedule_linear()
ast = [u for u in lin.toposort() if u.op is Ops.SINK and type(u.arg).__name__ == 'KernelInfo'][-1]
ren = PTXRenderer(Target('CUDA', 'PTX', sys.argv[4]))
full = cg.full_rewrite_to_sink(ast, ren, optimize=True)
info = cg.ProgramInfo.from_sink(full, ren.target)
prg = graph_rewrite(UOp(Ops.PROGRAM, src=(full,), arg=info),
                    PatternMatcher(cg.pm_to_program.patterns[:2] + cg.pm_to_program.patterns[3:4]), ctx=ren, name='render')
print([s for s in prg.src if s.op is Ops.SOURCE][0].arg)
print('global', tuple(info.global_size), 'local', tuple(info.local_size), file=sys.stderr)
'''
# M x K x N, input type, accumulator type, target
TG_CASES = [('64x64x64', 'half', 'float', 'sm_80'), ('64x64x64', 'half', 'half', 'sm_80'),
            ('64x64x64', 'float', 'float', 'sm_80'), ('128x128x128', 'half', 'float', 'sm_80'),
            ('32x32x32', 'float', 'float', 'sm_80'), ('64x64x64', 'half', 'float', 'sm_75'),
            ('64x64x64', 'half', 'half', 'sm_75'), ('48x80x112', 'half', 'float', 'sm_80'),
            ('40x72x24', 'float', 'float', 'sm_80'), ('96x32x64', 'half', 'half', 'sm_80'),
            ('64x64x64', 'half', 'float', 'sm_90')]


def run_tinygrad(args, tmp):
    d = os.path.join(tmp, 'tinygrad')
    git_export(args.tinygrad, 'tinygrad', d)
    open(f'{d}/gen.py', 'w').write(TG_GEN)
    env = dict(os.environ, ALLOW_TF32='1', PYTHONPATH=d)
    for dims, din, dacc, arch in TG_CASES:
        tag = f'mm{dims}_{din}_{dacc}_{arch}'
        r = sh(['python3', 'gen.py', dims, din, dacc, arch], cwd=d, env=env)
        if r.returncode:
            row('tinygrad', f'matmul {dims} {din}->{dacc}', arch, dims, 'render', 'FAIL ' + r.stderr[-200:])
            continue
        ptx = f'{tag}.ptx'
        # the renderer leaves TARGET and VERSION to tinygrad's PTX compiler, which puts in the
        # target and 7.5 (7.8 from sm_89, 8.7 from sm_120): done the same here
        sm = int(arch[3:])
        version = '8.7' if sm >= 120 else '7.8' if sm >= 89 else '7.5'
        text = r.stdout.replace('TARGET', arch).replace('VERSION', version)
        open(f'{d}/{ptx}', 'w').write(text)
        g = re.search(r'global \((\d+), (\d+), (\d+)\) local \((\d+), (\d+), (\d+)\)', r.stderr).groups()
        ops = sorted(set(re.findall(r'mma\.sync\.aligned\.[\w.]+', text)))
        pa = sh([os.path.join(os.path.dirname(args.nvcc), 'ptxas'), '-arch=' + arch, ptx, '-o', '/dev/null'], cwd=d)
        M, K, N = (int(x) for x in dims.split('x'))
        rnd = random.Random(dims)
        lim = 4 if dacc == 'half' else 8
        scale = 1 if din == 'half' else 4
        A = [[rnd.randint(-lim, lim) / scale for _ in range(K)] for _ in range(M)]
        B = [[rnd.randint(-lim, lim) / scale for _ in range(N)] for _ in range(K)]
        # integers (or quarters) small enough that every partial sum is exact in f16 and f32: the
        # product is one answer whatever the order or rounding
        C = [sum(A[i][k] * B[k][j] for k in range(K)) for i in range(M) for j in range(N)]
        code, t = ('e', 'f16') if din == 'half' else ('f', 'f32')
        open(f'{d}/a.bin', 'wb').write(struct.pack(f'<{M * K}{code}', *[x for r_ in A for x in r_]))
        open(f'{d}/b.bin', 'wb').write(struct.pack(f'<{K * N}{code}', *[x for r_ in B for x in r_]))
        ot, oc = ('f32', 'f') if dacc == 'float' else ('f16', 'e')
        sv = f'{d}/{tag}.saved'
        r = sh([args.ptxrun, ptx, '--grid', ','.join(g[:3]), '--block', ','.join(g[3:]),
                '--buffer', f'a={t}@a.bin', '--buffer', f'b={t}@b.bin', '--buffer', f'c={ot}:{M * N}',
                '--param', '0=@c', '--param', '1=@a', '--param', '2=@b', '--save-buffers', sv], cwd=d)
        kname = f'matmul {din}->{dacc}: ' + (', '.join(o.replace('mma.sync.aligned.', '') for o in ops) or 'no mma')
        how = 'exact vs Python matmul' + ('' if pa.returncode == 0 else ' (ptxas refuses the PTX!)')
        if r.returncode:
            row('tinygrad', kname, arch, dims, how, 'REFUSED ' + ptxrun_err(r))
            continue
        got = unpack(npy_data(f'{sv}/c.npy'), oc)
        bad = [i for i in range(M * N) if got[i] != C[i]]
        if bad:
            i = bad[0]
            row('tinygrad', kname, arch, dims, how, f'FAIL: {len(bad)}/{M * N} differ; c[{i // N}][{i % N}] expected {C[i]}, got {got[i]}')
        else:
            row('tinygrad', kname, arch, dims, how, f'pass: {M * N}/{M * N} equal; grid {",".join(g[:3])} block {",".join(g[3:])}')


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--samples'), p.add_argument('--zluda'), p.add_argument('--tinygrad')
    p.add_argument('--ptxrun', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'ptxrun'))
    p.add_argument('--nvcc', default='/usr/local/cuda/bin/nvcc')
    p.add_argument('--keep', help='work here (kept) instead of a temporary directory')
    p.add_argument('--only', default='samples,zluda,tinygrad')
    args = p.parse_args()
    args.ptxrun = os.path.abspath(args.ptxrun)
    tmp = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix='external_tc.')
    if args.keep and os.path.exists(tmp):
        shutil.rmtree(tmp)
    os.makedirs(tmp, exist_ok=True)
    print('source | kernel | build | size | compared how | result')
    try:
        for part, fn in (('samples', run_samples), ('zluda', run_zluda), ('tinygrad', run_tinygrad)):
            if part in args.only.split(','):
                if not getattr(args, part):
                    sys.exit(f'external_tc: --{part} DIR (a checkout) is needed, or leave it out of --only')
                fn(args, tmp)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    bad = [r for r in ROWS if r[-1].startswith(('FAIL', 'REFUSED'))]
    print(f'{len(ROWS)} rows, {len(bad)} FAIL or REFUSED')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
