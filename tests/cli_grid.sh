# -- grids of CUDA's sizes (issue 32, point 6): gridDim.x up to 2^31 - 1, y and z up to 65,535;
# sourced by tests/cli.sh, whose helpers (expect_exit, expect_stderr_line, ok, fail, $tmp) it
# uses. tests/blocks/grid_ids.ptx has thread 0 of each CTA write 3 * %ctaid.x + %nctaid.x +
# (%ctaid.y << 24) + (%ctaid.z << 28) at out[CTA number]; grid_ids.py computes every element
# apart from ptxrun and compares the saved .npy with it.
G=tests/blocks/grid_ids.ptx
mkdir -p "$tmp/grid"
cat > "$tmp/grid/grid_ids.py" <<'EOF'
import struct, sys
path, nx, ny, nz = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
b = open(path, 'rb').read()
n = struct.unpack('<H', b[8:10])[0]
got = struct.unpack('<%dI' % (nx * ny * nz), b[10 + n:])
bad = 0
for z in range(nz):
    for y in range(ny):
        for x in range(nx):
            want = (3 * x + nx + (y << 24) + (z << 28)) & 0xffffffff
            if got[x + nx * (y + ny * z)] != want:
                bad += 1
print('%d of %d elements wrong' % (bad, len(got)))
EOF
# expect_grid DESCRIPTION X Y Z OPTIONS...: the grid runs (exit 0) and every element is right.
expect_grid() {
    what=$1; x=$2; y=$3; z=$4; shift 4
    rm -rf "$tmp/grid/out"
    expect_exit 0 "$what" "$PTXRUN" "$G" --grid "$x,$y,$z" --buffer out=u32:$((x * y * z)) --param 0=@out \
        --save-buffers "$tmp/grid/out" "$@"
    got=$(python3 "$tmp/grid/grid_ids.py" "$tmp/grid/out/out.npy" "$x" "$y" "$z" 2>&1)
    if [ "$got" = "0 of $((x * y * z)) elements wrong" ]; then ok; else fail "$what: $got"; fi
}
expect_grid "--grid 65536 (one past the old limit)" 65536 1 1 -j 1
expect_grid "--grid 100000 on one thread" 100000 1 1 -j 1
cp "$tmp/out" "$tmp/grid/j1.out"
expect_grid "--grid 100000 on two threads" 100000 1 1 -j 2
if cmp -s "$tmp/out" "$tmp/grid/j1.out"; then ok; else fail "--grid 100000: -j 2 and -j 1 differ"; fi
expect_grid "--grid 66000,2" 66000 2 1
# The lanes file's "grid" takes the same sizes.
printf '{"grid": [66000, 1, 2], "buffers": {"out": {"type": "u32", "count": 132000}}, "params": ["@out"]}\n' > "$tmp/grid/big.json"
rm -rf "$tmp/grid/out"
expect_exit 0 "a lanes file's grid of 66000 x 1 x 2" "$PTXRUN" "$G" --lanes "$tmp/grid/big.json" --save-buffers "$tmp/grid/out"
got=$(python3 "$tmp/grid/grid_ids.py" "$tmp/grid/out/out.npy" 66000 1 2 2>&1)
if [ "$got" = "0 of 132000 elements wrong" ]; then ok; else fail "a lanes file's grid of 66000 x 1 x 2: $got"; fi
# Beyond CUDA's limits: refused, with the limits.
limits="expected X[,Y,Z], X from 1 to 2147483647, Y and Z from 1 to 65535"
for g in 2147483648 1,65536 1,1,65536 0; do
    expect_exit 2 "--grid $g refused" "$PTXRUN" "$G" --grid $g --buffer out=u32:1 --param 0=@out
    expect_stderr_line "--grid $g refused" "ptxrun: error: --grid $g: $limits"
done
printf '{"grid": [1, 65536]}\n' > "$tmp/grid/bad.json"
expect_exit 2 "a lanes file's grid y of 65536" "$PTXRUN" "$G" --lanes "$tmp/grid/bad.json"
expect_stderr_line "a lanes file's grid y of 65536" "ptxrun: error: $tmp/grid/bad.json: grid[1]: expected an integer from 1 to 65535"
printf '{"grid": [2147483648]}\n' > "$tmp/grid/bad.json"
expect_exit 2 "a lanes file's grid x of 2^31" "$PTXRUN" "$G" --lanes "$tmp/grid/bad.json"
expect_stderr_line "a lanes file's grid x of 2^31" "ptxrun: error: $tmp/grid/bad.json: grid[0]: expected an integer from 1 to 2147483647"
# A grid given as a float is refused as not an integer, not as out of range (1e9 is in range).
printf '{"grid": [1e9]}\n' > "$tmp/grid/bad.json"
expect_exit 2 "a lanes file's grid x of 1e9" "$PTXRUN" "$G" --lanes "$tmp/grid/bad.json"
expect_stderr_line "a lanes file's grid x of 1e9" "ptxrun: error: $tmp/grid/bad.json: grid[0]: expected an integer from 1 to 2147483647"
# CUDA's largest grid is accepted; its 9,223,090,559,730,712,575 CTAs ((2^31 - 1) * 65535^2,
# python3's arithmetic) need 64 bits, as --cta's message shows (the grid does not run).
ctas=$(python3 -c 'print((2**31 - 1) * 65535**2)')
expect_exit 2 "the largest grid, --cta outside it" "$PTXRUN" "$G" --grid 2147483647,65535,65535 --buffer out=u32:1 \
    --param 0=@out --cta 2147483647,0,0
expect_stderr_line "the largest grid, --cta outside it" "ptxrun: error: --cta 2147483647,0,0 is outside the grid (2147483647, 65535, 65535) of $ctas CTAs (numbers 0 to $((ctas - 1)), or X,Y,Z each below the grid's)"
# 2^30 x 4 CTAs is 2^32, 0 in 32 bits: a fault in CTA 2 still names its CTA, the table says of
# how many, and -j (whose CTAs are told apart in 32 bits) runs them one after another.
cat > "$tmp/grid/trap.ptx" <<'EOF'
.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
	.reg .b32 %r<2>;
	.reg .pred %p1;
	mov.u32 %r1, %ctaid.x;
	setp.eq.u32 %p1, %r1, 2;
	@%p1 trap;
	ret;
}
EOF
expect_exit 3 "a fault in a grid of 2^32 CTAs" "$PTXRUN" --no-color -j 1 "$tmp/grid/trap.ptx" --grid 1073741824,4
expect_stderr_line "a fault in a grid of 2^32 CTAs" "$tmp/grid/trap.ptx:10:2: note: in warp 0 (threads 0-31) of CTA (2, 0, 0)"
if grep -qxF "(registers of CTA (2, 0, 0), where the run stopped, of the grid's 4294967296 CTAs)" "$tmp/out"; then ok
else fail "a fault in a grid of 2^32 CTAs: the CTA line"; tail -3 "$tmp/out"; fi
expect_exit 3 "a grid of 2^32 CTAs with -j 2" "$PTXRUN" --no-color -j 2 --json "$tmp/grid/trap.ptx" --grid 1073741824,4
expect_stderr_line "a grid of 2^32 CTAs with -j 2" "ptxrun: note: -j 2: the grid's CTAs ran one after another: the grid has 4294967296 CTAs, more than the run on threads tells apart (2^32 - 2)"
if grep -qxF '  "grid": [1073741824, 4, 1],' "$tmp/out" && grep -qxF '  "cta": [2, 0, 0],' "$tmp/out"; then ok
else fail "a grid of 2^32 CTAs: JSON grid and cta"; head -5 "$tmp/out"; fi
# --cta by a number beyond 32 bits names its place (x = N mod X, y = N / X, in sh's arithmetic).
n=4294967296
expect_exit 3 "--cta $n" "$PTXRUN" --no-color -j 1 "$tmp/grid/trap.ptx" --grid 2147483647,3 --cta $n
if grep -qxF "(registers of CTA (2, 0, 0), where the run stopped, of the grid's $((2147483647 * 3)) CTAs; CTA ($((n % 2147483647)), $((n / 2147483647)), 0) did not run)" "$tmp/out"; then ok
else fail "--cta $n: the CTA line"; tail -2 "$tmp/out"; fi
# Buffers a kernel does not touch are not copied by a grid on threads (issue 33, point 3): 8
# CTAs on 4 threads, each writing its own word of 'out', beside 256 MiB of zeros the kernel
# never reads. Peak memory (the child's ru_maxrss) stays within docs/ptxrun.1's bound of 1.5
# bytes per byte of buffers, which a copy of the 256 MiB to put back would pass; the words as
# the kernel gives them, out[CTA] = CTA.
cat > "$tmp/grid/untouched.py" <<'EOF'
import resource, struct, subprocess, sys
ptxrun, ptx, save = sys.argv[1:4]
size = (256 << 20) + 32
rc = subprocess.run([ptxrun, '-j', '4', ptx, '--grid', '8', '--block', '32', '--buffer', 'out=u32:8', '--buffer',
                     'big=u32:%d' % (64 << 20), '--param', '0=@out', '--save-buffers', save],
                    stdout=subprocess.DEVNULL).returncode
per_byte = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024 / size
b = open(save + '/out.npy', 'rb').read() if rc == 0 else b''
n = struct.unpack('<H', b[8:10])[0] if b else 0
words = list(struct.unpack('<8I', b[10 + n:])) if b else []
print('exit %d, %s, %s' % (rc, 'within 1.5 bytes per byte' if per_byte <= 1.5 else '%.2f bytes per byte' % per_byte,
                           'words right' if words == list(range(8)) else 'words %s' % words))
EOF
cat > "$tmp/grid/own_word.ptx" <<'EOF'
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %ctaid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r1;
	ret;
}
EOF
got=$(python3 "$tmp/grid/untouched.py" "$PTXRUN" "$tmp/grid/own_word.ptx" "$tmp/grid/untouched" 2>&1)
if [ "$got" = "exit 0, within 1.5 bytes per byte, words right" ]; then ok
else fail "-j 4 beside 256 MiB of untouched buffer: $got"; fi
