# -- the launch on the command line and binary buffers (issue 15, points 1 and 2); sourced by
# tests/cli.sh, whose helpers (expect_exit, expect_stderr_line, ok, fail, $tmp) it uses.
# Expected values come from python3 (struct packs and unpacks the .npy bytes and IEEE halves,
# independently of ptxrun) or from hand arithmetic, said at each check.
L=tests/launch
mkdir -p "$tmp/npy/data"
# npy.py: write a .npy file by hand (NumPy's format: magic, version, header length, a dict,
# spaces and a newline to a multiple of 64 bytes), or read one back and print its values.
cat > "$tmp/npy.py" <<'EOF'
import struct, sys
def write(path, descr, shape, fmt, values, major=1, fortran='False'):
    write_dict(path, "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape), fmt, values, major)
def write_dict(path, h, fmt, values, major):
    pre = 10 if major == 1 else 12
    total = (pre + len(h) + 1 + 63) // 64 * 64
    h = h + ' ' * (total - pre - len(h) - 1) + '\n'
    size = struct.pack('<H', len(h)) if major == 1 else struct.pack('<I', len(h))
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY' + bytes([major, 0]) + size + h.encode() + struct.pack('<%d%s' % (len(values), fmt), *values))
def read(path):   # prints "descr shape: values" of a version 1.0 file, checking the layout
    b = open(path, 'rb').read()
    assert b[:8] == b'\x93NUMPY\x01\x00', 'magic/version'
    n = struct.unpack('<H', b[8:10])[0]
    assert (10 + n) % 64 == 0 and b[10 + n - 1:10 + n] == b'\n', 'header padding'
    d = eval(b[10:10 + n].decode())
    assert d['fortran_order'] is False
    fmt = {'<f4': 'f', '<f8': 'd', '<f2': 'e', '<u2': 'H', '<u4': 'I', '<i4': 'i', '|u1': 'B', '<u8': 'Q'}[d['descr']]
    count = d['shape'][0]
    data = b[10 + n:]
    assert len(data) == count * struct.calcsize(fmt), 'data length'
    vals = struct.unpack('<%d%s' % (count, fmt), data)
    print(d['descr'], d['shape'], ' '.join(('%#06x' % v if fmt == 'H' else repr(v)) for v in vals))
if sys.argv[1] == 'read':
    read(sys.argv[2])
elif sys.argv[1][0] == 'H':   # H1 PATH DICT FMT VALUES...: the header's dictionary as given (\t, \r, \n read)
    write_dict(sys.argv[2], sys.argv[3].replace('\\t', '\t').replace('\\r', '\r').replace('\\n', '\n'),
               sys.argv[4], [eval(v) for v in sys.argv[5:]], int(sys.argv[1][-1]))
else:
    write(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], [eval(v) for v in sys.argv[6:]], int(sys.argv[1][-1]),
          'True' if sys.argv[1][0] == 'F' else 'False')   # F1: version 1.0 in Fortran order
EOF
npy() { python3 "$tmp/npy.py" "$@"; }
# expect_npy DESCRIPTION FILE LINE: the file read back by npy.py is LINE.
expect_npy() {
    got=$(npy read "$2" 2>&1)
    if [ "$got" = "$3" ]; then ok; else fail "$1: $2 reads '$got', expected '$3'"; fi
}
# x: 0, 0.5, ... 4.5 (a 2 x 5 array, flattened; format 2.0); y: 100 ... 109 (format 1.0)
npy 2 "$tmp/npy/data/x.npy" '<f4' '(2, 5)' f 0 0.5 1 1.5 2 2.5 3 3.5 4 4.5
npy 1 "$tmp/npy/data/y.npy" '<f4' '(10,)' f 100 101 102 103 104 105 106 107 108 109
cp "$tmp/npy/data/x.npy" "$tmp/npy/x.npy"
cp "$tmp/npy/data/y.npy" "$tmp/npy/y.npy"
# saxpy with a = 2.5, n = 9 on 3 CTAs of 4: y[i] = 2.5 * 0.5i + 100 + i = 100 + 2.25i for i < 9
# (every value exact in binary, so fma or not makes no difference), y[9] = 109 untouched.
want_y='<f4 (10,) 100.0 102.25 104.5 106.75 109.0 111.25 113.5 115.75 118.0 109.0'
expect_exit 0 "saxpy launched from the command line" "$PTXRUN" "$L/saxpy.sm_80.ptx" --block 4 --grid 3 \
    --buffer x=@"$tmp/npy/x.npy" --buffer y=@"$tmp/npy/y.npy" --param 0=@x --param 1=@y --param param_2=2.5 \
    --param _Z5saxpyPKfPffi_param_3=9 --save-buffers "$tmp/npy/out1/deeper" --json
cp "$tmp/out" "$tmp/launch_cli.json"
expect_npy "saxpy's y saved" "$tmp/npy/out1/deeper/y.npy" "$want_y"
expect_npy "saxpy's x saved (a 2 x 5 array read flat)" "$tmp/npy/out1/deeper/x.npy" \
    '<f4 (10,) 0.0 0.5 1.0 1.5 2.0 2.5 3.0 3.5 4.0 4.5'
# The same launch from a lanes file in another folder: "file" is relative to the lanes file.
printf '{"block": [4], "grid": [3], "buffers": {"x": {"file": "data/x.npy"}, "y": {"file": "data/y.npy"}}, "params": ["@x", "@y", 2.5, 9]}\n' > "$tmp/npy/saxpy.lanes.json"
expect_exit 0 "saxpy launched from a lanes file" "$PTXRUN" "$L/saxpy.sm_80.ptx" --lanes "$tmp/npy/saxpy.lanes.json" --json
if cmp -s "$tmp/out" "$tmp/launch_cli.json"; then ok; else fail "saxpy: the lanes file and the command line give different output"; fi
# The command line overrides the lanes file's entries: a = 1 in the file, 2.5 given; y from raw
# binary (100 ... 109 as f32, written by struct); block 2 x grid 6 instead of 4 x 3.
python3 -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<10f', *range(100, 110)))" "$tmp/npy/y.bin"
printf '{"block": [4], "grid": [3], "buffers": {"x": {"file": "data/x.npy"}, "y": {"type": "u8", "count": 3}}, "params": ["@x", "@y", 1.0, 9]}\n' > "$tmp/npy/over.lanes.json"
expect_exit 0 "the command line overrides the lanes file" "$PTXRUN" "$L/saxpy.sm_80.ptx" --lanes "$tmp/npy/over.lanes.json" \
    --block 2 --grid 6 --buffer y=f32@"$tmp/npy/y.bin" --param 2=2.5 --save-buffers "$tmp/npy/out2"
expect_npy "override: y" "$tmp/npy/out2/y.npy" "$want_y"
printf '{"block": [4], "grid": [3], "buffers": {"x": {"file": "x.npy"}, "y": {"file": "y.bin", "type": "f32"}}, "params": ["@x", "@y", 2.5, 9]}\n' > "$tmp/npy/raw.lanes.json"
expect_exit 0 "a raw binary buffer in the lanes file" "$PTXRUN" "$L/saxpy.sm_80.ptx" --lanes "$tmp/npy/raw.lanes.json" --save-buffers "$tmp/npy/out3"
expect_npy "raw binary: y" "$tmp/npy/out3/y.npy" "$want_y"
# Parameters: a u64 of 2^64 - 1, a float, --shared read back through %dynamic_smem_size (64 = 0x40).
expect_exit 0 "--param and --shared" "$PTXRUN" "$L/launch.ptx" --block 1 --param 0=18446744073709551615 --param f=1.5 --shared 64 --json
got=$(python3 -c "import json,sys; r = json.load(open(sys.argv[1]))['regs']; print(r['%rd1'][0], r['%f1'][0], r['%r1'][0])" "$tmp/out" 2>&1)
if [ "$got" = "0xffffffffffffffff 1.5 0x00000040" ]; then ok; else fail "--param and --shared: got '$got'"; fi
expect_exit 0 "--cluster 1,1,1 is a plain launch" "$PTXRUN" "$L/launch.ptx" --param 0=1 --param 1=0x3f800000 --cluster 1,1,1
# f16 and bf16 buffers: JSON reals rounded once to nearest even. 1 + 2^-11 + 2^-30 is just above
# half an f16 ulp over 1: f16 0x3c01 (python's struct 'e' rounds from the double: the same); through
# an f32 it would tie and give 0x3c00. 1 + 2^-8 + 2^-30 likewise gives bf16 0x3f81 (hand
# arithmetic: bf16's ulp at 1 is 2^-7), 0x3f80 through an f32; 1 + 2^-8 ties: even, 0x3f80.
printf '{"block": [1], "params": [1, 0], "buffers": {"h": {"type": "f16", "data": [1.0004882821813226, 0.1, -2.5, 65504]}, "g": {"type": "bf16", "data": [1.0039062509313226, 1.00390625, 0.1]}, "u": {"type": "u32", "data": [1, null, 3]}}}\n' > "$tmp/npy/half.lanes.json"
expect_exit 0 "f16 and bf16 buffers" "$PTXRUN" "$L/launch.ptx" --lanes "$tmp/npy/half.lanes.json" --save-buffers "$tmp/npy/out4"
want_h=$(python3 -c "import struct; print('<f2 (4,) ' + ' '.join(repr(struct.unpack('<e', struct.pack('<e', v))[0]) for v in (1 + 2**-11 + 2**-30, 0.1, -2.5, 65504)))")
expect_npy "f16 buffer saved" "$tmp/npy/out4/h.npy" "$want_h"
expect_npy "f16 rounded once" "$tmp/npy/out4/h.npy" "<f2 (4,) 1.0009765625 0.0999755859375 -2.5 65504.0"
expect_npy "bf16 buffer saved as its bits" "$tmp/npy/out4/g.npy" "<u2 (3,) 0x3f81 0x3f80 0x3dcd"
expect_stderr_line "bf16 note" "ptxrun: note: --save-buffers: $tmp/npy/out4/g.npy holds buffer 'g''s bf16 values as their bits (<u2: NumPy has no bf16 type)"
expect_npy "an undefined element saved as 0" "$tmp/npy/out4/u.npy" "<u4 (3,) 1 0 3"
expect_stderr_line "undefined elements warned" "ptxrun: warning: --save-buffers: buffer 'u' has 1 undefined element; $tmp/npy/out4/u.npy holds 0 in their undefined bits"
"$PTXRUN" "$L/launch.ptx" --lanes "$tmp/npy/half.lanes.json" --json > "$tmp/out" 2>/dev/null
# the shortest decimals that read back: the f16 value nearest 1.001 is 1 + 2^-10, nearest 65500 is
# 65504 (f16's ulp there is 32)
if grep -qF '"h": {"type": "f16", "data": [1.001, 0.1, -2.5, 6.55e+04]}' "$tmp/out"; then ok; else fail "f16 buffer in --json: shortest decimals"; grep '"h"' "$tmp/out"; fi
# The bf16 bits read back as bf16 ("type" beside a .npy of integers): 0x3f81 is 1 + 2^-7, shown
# as 1.01 (the bf16 value nearest 1.01: the neighbours are 1 and 1.015625), 0x3dcd as 0.1.
expect_exit 0 "a <u2 .npy read as bf16" "$PTXRUN" "$L/launch.ptx" --param 0=1 --param 1=0 --buffer g=bf16@"$tmp/npy/out4/g.npy" --json --save-buffers "$tmp/npy/out6"
if grep -qF '"g": {"type": "bf16", "data": [1.01, 1.0, 0.1]}' "$tmp/out"; then ok; else fail "bf16 read back"; grep '"g"' "$tmp/out"; fi
expect_npy "bf16 saved again" "$tmp/npy/out6/g.npy" "<u2 (3,) 0x3f81 0x3f80 0x3dcd"
# An f16 .npy in (struct 'e' values), saved back byte for byte.
npy 3 "$tmp/npy/h.npy" '<f2' '(3,)' e 0.5 -0.25 1024
expect_exit 0 "an f16 .npy (format 3.0)" "$PTXRUN" "$L/launch.ptx" --param 0=1 --param 1=0 --buffer h=@"$tmp/npy/h.npy" --save-buffers "$tmp/npy/out5"
expect_npy "f16 .npy round trip" "$tmp/npy/out5/h.npy" "<f2 (3,) 0.5 -0.25 1024.0"
# Errors: exit 2, naming the option or the file.
launch_error() {   # launch_error DESCRIPTION MESSAGE OPTIONS...
    what=$1; message=$2; shift 2
    expect_exit 2 "$what" "$PTXRUN" "$L/launch.ptx" --param 0=1 --param 1=0 "$@"
    expect_stderr_line "$what" "ptxrun: error: $message"
}
launch_error "--block 0" "--block 0: expected X[,Y,Z], X and Y from 1 to 1024, Z from 1 to 64" --block 0
launch_error "--block of 2048 threads" "--block 64,32: 2048 threads; a block has at most 1024" --block 64,32
launch_error "--block garbage" "--block 4x: expected X[,Y,Z], X and Y from 1 to 1024, Z from 1 to 64" --block 4x
launch_error "--grid of four numbers" "--grid 1,1,1,1: expected X[,Y,Z], X from 1 to 2147483647, Y and Z from 1 to 65535" --grid 1,1,1,1
launch_error "--cluster 2 for a grid of one CTA" "the command line: cluster: the grid's x (1) is not a whole number of clusters of 2" --cluster 2,1
launch_error "--cluster of 17 CTAs" "--cluster 17: expected X[,Y,Z], one to three numbers from 1 to 16" --cluster 17 --grid 17
launch_error "--cluster of 4 x 8 CTAs" "the command line: cluster: 4 x 8 x 1 is 32 CTAs; an H100's cluster has at most 16" --cluster 4,8 --grid 4,8
expect_exit 0 "--cluster 2 runs" "$PTXRUN" --no-color "$L/launch.ptx" --param 0=1 --param 1=0 --cluster 2 --grid 4
launch_error "--shared too large" "--shared 2000000: expected a number of bytes of dynamic shared memory (0 to 1 MiB)" --shared 2000000
launch_error "--param unknown" "--param nope: kernel 'k' has no parameter 'nope'; its parameters: 0 big (.u64), 1 f (.f32)" --param nope=3
launch_error "--param without =" "--param big: expected NAME=VALUE (NAME: the position, 0, or the name)" --param big
launch_error "--param bad value" "--param f: 'x1' is not a value (invalid token near 'x'): give an integer, a real, 0x bits, @buffer, or JSON such as {\"bytes\": [1, 2]}" --param f=x1
launch_error "--param of the wrong kind" "the command line: params.big: 1.5 is a real, but the register is .u64" --param 0=1.5
launch_error "--param out of range" "--param 0: '18446744073709551616' is not a value (too big integer near '18446744073709551616'): give an integer, a real, 0x bits, @buffer, or JSON such as {\"bytes\": [1, 2]}" --param 0=18446744073709551616
launch_error "--buffer bad type" "--buffer b=f12:4: 'f12' is not a buffer type (u8..u64, s8..s64, b8..b64, f16, bf16, f32, f64)" --buffer b=f12:4
launch_error "--buffer bad count" "--buffer b=u32:0: the count must be a number from 1 to 2^26" --buffer b=u32:0
launch_error "--buffer raw without a type" "--buffer b=@$tmp/npy/y.bin: '$tmp/npy/y.bin' is not a .npy file: raw binary data needs its type, NAME=TYPE@FILE.bin" --buffer b=@"$tmp/npy/y.bin"
launch_error "--buffer missing file" "the command line: buffers.b: cannot read '$tmp/npy/none.npy': No such file or directory" --buffer b=@"$tmp/npy/none.npy"
head -c 150 "$tmp/npy/y.npy" > "$tmp/npy/short.npy"
launch_error "a truncated .npy" "the command line: buffers.b: $tmp/npy/short.npy: 22 bytes of data; the header's shape and dtype make 40 (truncated?)" --buffer b=@"$tmp/npy/short.npy"
head -c 40 "$tmp/npy/y.npy" > "$tmp/npy/short.npy"
launch_error "a truncated .npy header" "the command line: buffers.b: $tmp/npy/short.npy: a truncated .npy header" --buffer b=@"$tmp/npy/short.npy"
npy 1 "$tmp/npy/be.npy" '>f4' '(2,)' f 1 2
launch_error "a big-endian .npy" "the command line: buffers.b: $tmp/npy/be.npy: dtype '>f4' is big-endian: ptxrun reads little-endian .npy files only (numpy: a.astype(a.dtype.newbyteorder('<')))" --buffer b=@"$tmp/npy/be.npy"
# each dtype refused for what it is, not as "not little-endian" (numpy's kinds: c complex, S bytes;
# sizes: f2 f4 f8, i/u 1 2 4 8); a byte order is said only where the type has more than one byte
reads="ptxrun reads <f2 <f4 <f8, <i1 <i2 <i4 <i8, <u1 <u2 <u4 <u8 ('|' for one byte)"
npy 1 "$tmp/npy/c8.npy" '<c8' '(1,)' f 1 2
launch_error "a complex .npy" "the command line: buffers.b: $tmp/npy/c8.npy: dtype '<c8' holds complex numbers: $reads" --buffer b=@"$tmp/npy/c8.npy"
npy 1 "$tmp/npy/s4.npy" '|S4' '(2,)' f 1 2
launch_error "a .npy of byte strings" "the command line: buffers.b: $tmp/npy/s4.npy: dtype '|S4' holds byte strings: $reads" --buffer b=@"$tmp/npy/s4.npy"
npy 1 "$tmp/npy/f3.npy" '<f3' '(2,)' f 1 2
launch_error "a .npy float of 3 bytes" "the command line: buffers.b: $tmp/npy/f3.npy: dtype '<f3': no float of 3 bytes: $reads" --buffer b=@"$tmp/npy/f3.npy"
npy 1 "$tmp/npy/nf.npy" '|f4' '(2,)' f 1 2
launch_error "a .npy without byte order" "the command line: buffers.b: $tmp/npy/nf.npy: dtype '|f4' does not say its byte order ('<': little-endian; '|' is for one byte): $reads" --buffer b=@"$tmp/npy/nf.npy"
npy 1 "$tmp/npy/f4x.npy" '<f4x' '(2,)' f 1 2
launch_error "a .npy dtype with more after its size" "the command line: buffers.b: $tmp/npy/f4x.npy: dtype '<f4x' is not of the form <f4 (byte order, kind, size in bytes): $reads" --buffer b=@"$tmp/npy/f4x.npy"
npy 1 "$tmp/npy/be1.npy" '>u1' '(8,)' B 1 2 3 4 5 6 7 8
expect_exit 0 "a one-byte .npy in either byte order" "$PTXRUN" "$L/launch.ptx" --param 0=1 --param 1=0 --buffer b=@"$tmp/npy/be1.npy"
# a key twice (NumPy would take the last) or a key NumPy does not allow: refused
npy 1 "$tmp/npy/twice.npy" '<f4' "(2,), 'descr': '<u4'" f 1 2
launch_error "a .npy key twice" "the command line: buffers.b: $tmp/npy/twice.npy: the .npy header gives 'descr' twice (NumPy would read the last: remove the other)" --buffer b=@"$tmp/npy/twice.npy"
npy 1 "$tmp/npy/extra.npy" '<f4' "(2,), 'x': 1" f 1 2
launch_error "a .npy key NumPy refuses" "the command line: buffers.b: $tmp/npy/extra.npy: the .npy header has the key 'x' (NumPy allows only 'descr', 'fortran_order' and 'shape')" --buffer b=@"$tmp/npy/extra.npy"
# The header is a Python literal, as NumPy reads it: white space of any kind between its parts,
# either quotes, a u before a string, keys in any order, Python 2's 6L sizes (versions 1.0 and
# 2.0); Fortran order with at most one size above 1 is the same bytes as C order. Each file is
# read exactly: saved back, python3's struct reads the same six values.
want6='<f4 (6,) 1.5 -2.25 3.0 4.0 0.125 6.0'
npy H1 "$tmp/npy/ws.npy" "{\\t'descr':\\r\\n'<f4',\\n \"shape\": (1,\\n6L),\\tu'fortran_order' : True,\\n}" f 1.5 -2.25 3 4 0.125 6
expect_exit 0 "a .npy header with tabs, newlines, quotes and 6L" "$PTXRUN" "$L/launch.ptx" --param 0=1 --param 1=0 --buffer b=@"$tmp/npy/ws.npy" --save-buffers "$tmp/npy/ws"
expect_npy "a .npy header with tabs, newlines, quotes and 6L: values" "$tmp/npy/ws/b.npy" "$want6"
npy H3 "$tmp/npy/ws3.npy" "{'shape':(6,),'fortran_order':False,'descr':u'<f4'} # NumPy's reader allows a comment" f 1.5 -2.25 3 4 0.125 6
expect_exit 0 "a .npy header in another order with a comment" "$PTXRUN" "$L/launch.ptx" --param 0=1 --param 1=0 --buffer b=@"$tmp/npy/ws3.npy" --save-buffers "$tmp/npy/ws3"
expect_npy "a .npy header in another order with a comment: values" "$tmp/npy/ws3/b.npy" "$want6"
# what NumPy refuses (Python: (6) is a number, 06 a syntax error; fortran_order must be a bool;
# nothing after the dictionary), said as it is, not read anyway or as Fortran order
npy H1 "$tmp/npy/fo0.npy" "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}" f 1 2
launch_error "a .npy fortran_order not a bool" "the command line: buffers.b: $tmp/npy/fo0.npy: the .npy header's fortran_order is '0', not True or False" --buffer b=@"$tmp/npy/fo0.npy"
for shape in '(2)' '(02,)' '(2,,)' '(2L,)'; do
    npy H3 "$tmp/npy/shape.npy" "{'descr': '<f4', 'fortran_order': False, 'shape': $shape}" f 1 2
    launch_error "a .npy shape $shape" "the command line: buffers.b: $tmp/npy/shape.npy: the .npy header's shape '$shape' is not a tuple of decimal sizes such as (6,) or (2, 3) of fewer than 2^40 elements" --buffer b=@"$tmp/npy/shape.npy"
done
npy H1 "$tmp/npy/nokey.npy" "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), : 1}" f 1 2
launch_error "a .npy header with a value without key" "the command line: buffers.b: $tmp/npy/nokey.npy: the .npy header has ': 1}' where a quoted key and ':' should be" --buffer b=@"$tmp/npy/nokey.npy"
npy H1 "$tmp/npy/after.npy" "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x" f 1 2
launch_error "a .npy header with text after it" "the command line: buffers.b: $tmp/npy/after.npy: the .npy header has 'x' after its dictionary" --buffer b=@"$tmp/npy/after.npy"
npy F1 "$tmp/npy/fo.npy" '<f4' '(2, 2)' f 1 2 3 4
launch_error "a Fortran-order .npy" "the command line: buffers.b: $tmp/npy/fo.npy: Fortran order: ptxrun reads C-order .npy files only (numpy: np.ascontiguousarray)" --buffer b=@"$tmp/npy/fo.npy"
# A shape whose product wraps past 2^64: 4 * (2^62 + 1) = 2^64 + 4, which a 64-bit product reads as
# 4, the number of elements the file holds (hand arithmetic); refused, not read as 4 elements.
npy 1 "$tmp/npy/wrap.npy" '<u4' '(4, 4611686018427387905)' I 1 2 3 4
launch_error "a .npy shape whose product wraps" "the command line: buffers.b: $tmp/npy/wrap.npy: the .npy header's shape '(4, 4611686018427387905)' is not a tuple of decimal sizes such as (6,) or (2, 3) of fewer than 2^40 elements" --buffer b=@"$tmp/npy/wrap.npy"
launch_error "a .npy of another type" "the command line: buffers.b: $tmp/npy/y.npy: the file holds .f32 values; \"type\" says u32" --buffer b=u32@"$tmp/npy/y.npy"
printf 'abc' > "$tmp/npy/odd.bin"
launch_error "raw binary of a partial element" "the command line: buffers.b: $tmp/npy/odd.bin: 3 bytes is not a whole number of .f32 elements" --buffer b=f32@"$tmp/npy/odd.bin"
printf 'x' > "$tmp/npy/file"
launch_error "--save-buffers into a file" "--save-buffers $tmp/npy/file: not a folder" --buffer b=u8:1 --save-buffers "$tmp/npy/file"
printf '{"params": [1, 0], "buffers": {"b": {"file": "nope.npy"}}}\n' > "$tmp/npy/missing.lanes.json"
expect_exit 2 "a lanes file's missing buffer file" "$PTXRUN" "$L/launch.ptx" --lanes "$tmp/npy/missing.lanes.json"
expect_stderr_line "a lanes file's missing buffer file" "ptxrun: error: $tmp/npy/missing.lanes.json: buffers.b: cannot read '$tmp/npy/nope.npy': No such file or directory"
