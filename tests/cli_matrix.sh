# -- --matrix LINE[@N] and --trace's fragments of matrix instructions (issue 34, point 3); sourced by
# tests/cli.sh, whose helpers (expect_exit, expect_stderr_line, ok, fail, $tmp) it uses.
# tests/matview/model.py checks every element of A, B, C, D of four mma forms (table, JSON, trace)
# against the PTX ISA's fragment figures and a D it computes itself; the rest is worked out by hand.
if python3 tests/matview/model.py "$PTXRUN" "$tmp/matview" > "$tmp/model.out" 2>&1; then ok; else
    fail "tests/matview/model.py"; head -20 "$tmp/model.out"; fi

# Three executions of one mma, C from the D before: every byte of A is 1, of B 2, so each adds
# 16 * 2 = 32 to C (5 and 7 in every lane): D[0][0] is 37, 69, 101 and D[0][1] 39, 71, 103.
mv=tests/matview/loop.ptx
printf '{"regs": {"%%a": "0x01010101", "%%b": "0x02020202", "%%c0": 5, "%%c1": 7}}' > "$tmp/loop.json"
expect_exit 0 "--matrix --json" "$PTXRUN" --no-color --lanes "$tmp/loop.json" --matrix 13 --json "$mv"
if python3 -m json.tool "$tmp/out" > /dev/null; then ok; else fail "--matrix --json: not JSON"; head -5 "$tmp/out"; fi
if command -v jq > /dev/null; then
    if jq -e '.matrices | length == 3' "$tmp/out" > /dev/null; then ok; else fail "--matrix --json: jq"; fi
fi
if python3 -c "
import json, sys
m = json.load(open('$tmp/out'))['matrices']
got = [(e['execution'], e['line'], e['C']['rows'][0][0]['value'], e['D']['rows'][0][0]['value'], e['D']['rows'][0][1]['value'],
        e['D']['rows'][7][7]['lane'], e['D']['rows'][7][7]['reg'], e['A']['rows'][3][13]['value'], e['B']['rows'][13][3]['value'])
       for e in m]
sys.exit(got != [(1, 13, 5, 37, 39, 31, 1, 1, 2), (2, 13, 37, 69, 71, 31, 1, 1, 2), (3, 13, 69, 101, 103, 31, 1, 1, 2)])"
then ok; else fail "--matrix --json: the three executions"; fi
expect_exit 0 "--matrix LINE@2" "$PTXRUN" --no-color --lanes "$tmp/loop.json" --matrix 13@2 --json "$mv"
if python3 -c "
import json, sys
m = json.load(open('$tmp/out'))['matrices']
sys.exit([(e['execution'], e['C']['rows'][0][0]['value'], e['D']['rows'][0][0]['value']) for e in m] != [(2, 37, 69)])"
then ok; else fail "--matrix LINE@2: execution 2 alone"; fi
expect_exit 0 "--matrix (table)" "$PTXRUN" --no-color --lanes "$tmp/loop.json" --matrix 13 "$mv"
if [ "$(grep -c '^== --matrix 13: execution [123]: PTX line 13, warp 0$' "$tmp/out")" = 3 ] &&
   [ "$(grep -c '^(the lanes and registers of each element: as in execution 1)$' "$tmp/out")" = 2 ] &&
   grep -qx 'm8n8k16: D (8x8 s32) = A (8x16 s8) \* B (16x8 s8) + C (8x8 s32)' "$tmp/out" &&
   grep -qx '   0: 37 39 37 39 37 39 37 39' "$tmp/out" && grep -qx '   7: 101 103 101 103 101 103 101 103' "$tmp/out" &&
   grep -qx '   7: 28:0 28:1 29:0 29:1 30:0 30:1 31:0 31:1' "$tmp/out"
then ok; else fail "--matrix (table): the executions, D, C's places"; head -40 "$tmp/out"; fi
expect_exit 0 "--matrix --hex" "$PTXRUN" --no-color --lanes "$tmp/loop.json" --matrix 13@1 --hex "$mv"
if grep -qx '   0: 0x00000025 0x00000027 0x00000025 0x00000027 0x00000025 0x00000027 0x00000025 0x00000027' "$tmp/out"
then ok; else fail "--matrix --hex: D in hex"; fi
expect_exit 0 "--matrix LINE@4 of 3" "$PTXRUN" --no-color --lanes "$tmp/loop.json" --matrix 13@4 "$mv"
expect_stderr_line "--matrix LINE@4 of 3" "ptxrun: note: --matrix 13@4: it executed 3 times, no execution 4"
expect_exit 0 "--matrix: never executed" "$PTXRUN" --no-color --lanes "$tmp/loop.json" --matrix 18 "$mv"
expect_stderr_line "--matrix: never executed" "ptxrun: note: --matrix 18: the instruction never executed"
# a grid on threads: the CTAs one after another, the executions numbered in the order they ran (warp 0
# of CTA 0 runs its loop to the end before warp 1: nothing makes it wait)
expect_exit 0 "--matrix: a grid" "$PTXRUN" --no-color --lanes "$tmp/loop.json" --matrix 13 --grid 2 --block 64 -j 2 --json "$mv"
if python3 -c "
import json, sys
m = json.load(open('$tmp/out'))['matrices']
sys.exit([(e['execution'], e['cta'][0], e['warp'], e['D']['rows'][0][0]['value']) for e in m] !=
         [(n + 1, n // 6, n % 6 // 3, 37 + 32 * (n % 3)) for n in range(12)])"
then ok; else fail "--matrix: a grid's executions"; fi
expect_stderr_line "--matrix: a grid" "ptxrun: note: -j 2: the grid's CTAs ran one after another: --matrix shows the executions in order, one CTA after another"
# LINE that holds no mma, a bad @N, a file the PTX has not, a kernel without mma: exit 2
expect_exit 2 "--matrix: no mma there" "$PTXRUN" --no-color --matrix 12 "$mv"
expect_stderr_line "--matrix: no mma there" "ptxrun: error: --matrix 12: no mma (nor wmma.mma) instruction of the kernel is there; the kernel's are on PTX lines 13, 18"
expect_exit 2 "--matrix LINE@0" "$PTXRUN" --no-color --matrix 13@0 "$mv"
expect_stderr_line "--matrix LINE@0" "ptxrun: error: --matrix: '0' after '@' is not an execution's number (1 for the first)"
expect_exit 2 "--matrix LINE@N past 2^64" "$PTXRUN" --no-color --matrix 13@18446744073709551617 "$mv"
expect_stderr_line "--matrix LINE@N past 2^64" "ptxrun: error: --matrix: '18446744073709551617' after '@' is not an execution's number (1 for the first)"
expect_exit 2 "--matrix FILE:LINE, no such file" "$PTXRUN" --no-color --matrix k.cu:3 "$mv"
expect_stderr_line "--matrix FILE:LINE, no such file" "ptxrun: error: --matrix: no .file of the PTX is 'k.cu' (it has no .file: compile with nvcc -lineinfo)"
expect_exit 2 "--matrix: no mma in the kernel" "$PTXRUN" --no-color --matrix 3 samples/scan.ptx
expect_stderr_line "--matrix: no mma in the kernel" "ptxrun: error: --matrix 3: the kernel (and what it calls) has no mma or wmma.mma instruction"

# --trace: lane 5 (groupID 1, threadID_in_group 1) of m16n8k32 .s8 (PTX ISA figures): A's a0..a3 row 1,
# columns 4..7, a4..a7 row 9, a8..a15 the same 16 columns on; B's b0..b3 rows 4..7 of column 1, b4..b7
# rows 20..23; C and D c0, c1 row 1, columns 2, 3; c2, c3 row 9
expect_exit 0 "--trace of an mma" "$PTXRUN" --no-color --trace --trace-lines forms.cu:10 tests/matview/forms.ptx
if tr -s ' ' < "$tmp/err" | grep -qxF ' 5 [1][4..7] [9][4..7] [1][20..23] [9][20..23] | [4..7][1] [20..23][1] | [1][2] [1][3] [9][2] [9][3]' &&
   grep -qxF '    fragments: lane: A {%a0, %a1, %a2, %a3} | B {%b0, %b1} | C, D {%c0, %c1, %c2, %c3} -> {%d0, %d1, %d2, %d3} ([row][column] in each register)' "$tmp/err" &&
   grep -q '^    %d3 = ' "$tmp/err"
then ok; else fail "--trace of an mma: lane 5's fragments, D's values"; head -12 "$tmp/err"; fi
# ldmatrix .x4 .trans: lane 5 gives the address of row 5 of matrix 0 and gets, of each matrix j, rows
# 2..3 of column 1 (the transpose of row 1, columns 2..3); movmatrix gives M[1][2..3] and gets M[2..3][1]
printf '.shared .align 16 .b8 t[512];\n.reg .b32 %%r<4>;\n.reg .u32 %%ad, %%l, %%base;\nmov.u32 %%l, %%laneid;\nshl.b32 %%ad, %%l, 4;\nmov.u32 %%base, t;\nadd.u32 %%ad, %%ad, %%base;\nldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%%r0, %%r1, %%r2, %%r3}, [%%ad];\nmovmatrix.sync.aligned.m8n8.trans.b16 %%r1, %%r0;\n' > "$tmp/ldm.ptx"
expect_exit 0 "--trace of ldmatrix, movmatrix" "$PTXRUN" --no-color --trace --trace-ops ldmatrix,movmatrix "$tmp/ldm.ptx"
if tr -s ' ' < "$tmp/err" | grep -qxF ' 5 M0[5] | M0[2..3][1] M1[2..3][1] M2[2..3][1] M3[2..3][1]' &&
   tr -s ' ' < "$tmp/err" | grep -qxF ' 29 M3[5] | M0[2..3][7] M1[2..3][7] M2[2..3][7] M3[2..3][7]' &&
   tr -s ' ' < "$tmp/err" | grep -qxF ' 5 M[1][2..3] | M[2..3][1]'
then ok; else fail "--trace of ldmatrix, movmatrix: lane 5's fragments"; grep -A7 fragments "$tmp/err" | head -20; fi
expect_exit 0 "--trace=json of ldmatrix" "$PTXRUN" --no-color --trace=json --trace-ops ldmatrix "$tmp/ldm.ptx"
if python3 -c "
import json, sys
s = json.loads(open('$tmp/err').read().split('\n')[0])['fragments']
sys.exit(s['rows'][5] != [0, 5] or s['rows'][29] != [3, 5] or s['M'][5] != [[[2, 1], [3, 1]]] * 4)"
then ok; else fail "--trace=json of ldmatrix: lane 5's fragments"; head -3 "$tmp/err"; fi
# nine forms more (tests/matview/more_forms.py, its own model of the PTX ISA's figures): tf32 k8 and k4, e4m3 x
# e5m2, s4 k64, u4 x s4 .satfinite, b1 k128 .xor and k256 .and, bf16, f16 with f16 C and D; a tf32 element
# shows its register's top 19 bits (0x3f800001: 1.0; 0x7f800001: inf), the value the tensor core uses
if python3 tests/matview/more_forms.py "$PTXRUN" "$tmp/matview" > "$tmp/more_forms.out" 2>&1; then ok; else
    fail "tests/matview/more_forms.py"; head -20 "$tmp/more_forms.out"; fi
expect_exit 0 "--matrix of tf32 (table)" "$PTXRUN" --no-color --lanes "$tmp/matview/more_forms.lanes.json" --matrix 22 tests/matview/more_forms.ptx
if grep -qE '^   8: +1\.0 +inf ' "$tmp/out"; then ok; else fail "--matrix of tf32 (table): row 8"; grep '^   8:' "$tmp/out"; fi
# m8n8k4 .f16: four products, one per quad-pair, shown stacked (pair p at rows 8p.. of A, C, D and columns
# 8p.. of B); the PTX ISA's figure for .row A: lane l holds row l % 4 (+ 4 from lane 16) of its pair's A,
# a0..a3 along it: lane 21 (pair 1) rows 13, columns 0..3
expect_exit 0 "--matrix of m8n8k4 .f16" "$PTXRUN" --no-color --json --matrix 34 --lanes tests/misc/mma884_forms.lanes.json tests/misc/mma884_forms.ptx
if python3 -c "
import json, sys
m = json.load(open('$tmp/out'))['matrices'][0]
a = m['A']['rows']
sys.exit(not (m['products'] == 4 and len(a) == 32 and len(a[0]) == 4 and len(m['B']['rows'][0]) == 32 and
              [(e['lane'], e['reg'], e['part']) for e in a[13]] == [(21, 0, 0), (21, 0, 1), (21, 1, 0), (21, 1, 1)]))"
then ok; else fail "--matrix of m8n8k4 .f16: the stacked products"; fi
expect_exit 0 "--trace of m8n8k4 .f16" "$PTXRUN" --no-color --trace --trace-lines 34 --lanes tests/misc/mma884_forms.lanes.json tests/misc/mma884_forms.ptx
if tr -s ' ' < "$tmp/err" | grep -q '^ 21 \[13\]\[0\.\.1\] \[13\]\[2\.\.3\] |'; then ok; else fail "--trace of m8n8k4 .f16: lane 21"; grep -A3 fragments "$tmp/err"; fi
# mma.sp (tests/matview/sparse.py: four sparse forms, A dense and as held, the metadata, B, C, D against its
# own model of the PTX ISA's sparse fragments, with undefined metadata and values the ISA leaves undefined)
if python3 tests/matview/sparse.py "$PTXRUN" "$tmp/matview" > "$tmp/sparse.out" 2>&1; then ok; else
    fail "tests/matview/sparse.py"; head -20 "$tmp/sparse.out"; fi
# by hand: selector 1 of m16n8k32 .s8 (two threads of each group of four): lane 2 gives nibbles 0..3 of rows 0
# (bits 0-15) and 8 (bits 16-31), lane 0 none; lane 2's compressed A, row 0 columns 8..11 and row 8's
expect_exit 0 "--trace of mma.sp" "$PTXRUN" --no-color --trace --trace-lines 20 --lanes "$tmp/matview/sparse.lanes.json" tests/matview/sparse.ptx
if tr -s ' ' < "$tmp/err" | grep -qxF ' 2 [0][8..11] [8][8..11] | [8..11][0] [24..27][0] | [0][4] [0][5] [8][4] [8][5] | [0][0..3],[8][0..3]' &&
   tr -s ' ' < "$tmp/err" | grep -qxF ' 0 [0][0..3] [8][0..3] | [0..3][0] [16..19][0] | [0][0] [0][1] [8][0] [8][1] | -' &&
   grep -q '^    %d3 = ' "$tmp/err"
then ok; else fail "--trace of mma.sp: lanes 0 and 2, D's values"; grep -A4 fragments "$tmp/err"; fi
# its %e0 is undefined in lane 6 (rows 1 and 9, chunks 0..3: '?' in A, 0b???? in the metadata); lane 7 gives row
# 1's chunks 4..7, bits 0-15 of 0x899ed4c4: 0x4, 0xc, 0x4, 0xd, kept columns 16+{0,1}, 20+{0,3}, 24+{0,1}, 28+{1,3};
# lane 19's bits 4-7 are 0b0001 (row 4, chunk 5): decreasing, undefined for ::ordered_metadata
expect_exit 0 "--matrix of mma.sp" "$PTXRUN" --no-color --matrix 20 --lanes "$tmp/matview/sparse.lanes.json" tests/matview/sparse.ptx
if grep -qx '   1:  0b????  0b????  0b????  0b????   16,17   20,23   24,25   29,31' "$tmp/out" &&
   grep -q '^   4: .* !0b0001 ' "$tmp/out" &&
   grep -q '^   9:    ?    ?    ?    ?    ?    ?    ?    ?    ?    ?    ?    ?    ?    ?    ?    ?  ' "$tmp/out" &&
   grep -q '^metadata %e0, selector 1 (threads 2..3 of each group of four give it)' "$tmp/out"
then ok; else fail "--matrix of mma.sp: undefined metadata"; grep -A20 '^metadata' "$tmp/out" | head -24; fi

# wmma.mma (tests/wmma, issue 34): --matrix shows its A, B, C, D by wmma's layout, the first copy
# of f16 A's repeated registers (lane 0 holds A[0][0..1] in %r0 and again in %r4); --trace marks
# the repeats with '=' (A[8][9]: lane 0, element 7, register 3; D[15][15]: lane 31, register 3).
wm=tests/wmma/f16_m16n16k16_f16f32
expect_exit 0 "wmma --matrix" "$PTXRUN" --no-color --lanes $wm.lanes.json --matrix 29 --json $wm.ptx
if python3 -c "
import json, sys
m = json.load(open('$tmp/out'))['matrices'][0]
sys.exit((m['A']['rows'][0][0]['lane'], m['A']['rows'][0][0]['reg'], m['A']['rows'][8][9]['lane'],
          m['A']['rows'][8][9]['reg'], m['D']['rows'][15][15]['lane'], m['D']['rows'][15][15]['reg']) != (0, 0, 0, 3, 31, 3))"
then ok; else fail "wmma --matrix: the places of A and D"; fi
expect_exit 0 "wmma --trace" "$PTXRUN" --no-color --lanes $wm.lanes.json --trace $wm.ptx
if grep -q '^        0  \[0\]\[0\.\.1\] \[8\]\[0\.\.1\] \[0\]\[8\.\.9\] \[8\]\[8\.\.9\] = = = = ' "$tmp/err"; then ok; else
    fail "wmma --trace: lane 0's A fragment and its repeats"; fi
# wmma.mma, without its fragment layout (tests/matview/wmma.py): f16 m16n16k16 and s8 m32n8k16 loaded from
# memory with strides and both layouts; --matrix's A, B, C are the matrices the test wrote, D its A * B + C,
# each element's lane, register and part hold its bits; --trace agrees with --matrix lane by lane
if python3 tests/matview/wmma.py "$PTXRUN" "$tmp/matview" > "$tmp/wmmaview.out" 2>&1; then ok; else
    fail "tests/matview/wmma.py"; head -20 "$tmp/wmmaview.out"; fi
# mma.sp m16n8k32 .f32.f16 with selector 2 (ptxas takes 0-3, the ISA defines 0 and 1; two threads of each group of
# four from 2 * 2 would be lanes 4..5 of the group, past lane 31 for group 7): no metadata read, every chunk '-'
expect_exit 0 "--matrix of mma.sp, selector 2" "$PTXRUN" --no-color --matrix 12 --json tests/matview/sparse_selector.ptx
if python3 -c "
import json, sys
m = json.load(open('$tmp/out'))['matrices'][0]
s = m['sparse']
sys.exit(not (s['selector'] == 2 and s['selector_defined'] is False and
              all(e['lane'] is None and e['nibble'] is None and not e['valid'] for r in s['metadata']['rows'] for e in r) and
              all(e['kept'] is None for r in m['A']['rows'] for e in r) and
              all(e['value'] is None for r in m['D']['rows'] for e in r)))"
then ok; else fail "--matrix of mma.sp, selector 2: JSON"; fi
expect_exit 0 "--matrix of mma.sp, selector 2 (table)" "$PTXRUN" --no-color --matrix 12 tests/matview/sparse_selector.ptx
if grep -qx 'metadata %e, selector 2: the PTX ISA leaves it undefined (ptxas takes it): no metadata is read, all of D is undefined:' "$tmp/out" &&
   grep -qx '   7:      -      -      -      -      -      -      -      -' "$tmp/out"
then ok; else fail "--matrix of mma.sp, selector 2: the metadata"; grep -A3 '^metadata' "$tmp/out"; fi
