#!/bin/sh
# Command-line tests: exit codes, stdin, messages with carets, the nvcc corpus and the spec
# examples under --check, --dump-ir output accepted by ptxas when CUDA is installed, and the
# generated instruction table kept in step with ops.def.
# usage: PTXRUN=build/ptxrun sh tests/cli.sh   (from the repository root)
set -u
PTXRUN=${PTXRUN:-build/ptxrun}
SPEC=${SPEC:-../shared/spec}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect_exit CODE DESCRIPTION COMMAND...
expect_exit() {
    want=$1; what=$2; shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -eq "$want" ]; then ok; else fail "$what: exit $got, expected $want"; sed 's/^/  | /' "$tmp/err" | head -20; fi
}

# expect_stderr_line DESCRIPTION LINE: stderr of the last command holds LINE exactly.
expect_stderr_line() {
    if grep -qxF -- "$2" "$tmp/err"; then ok; else fail "$1: no line '$2' in stderr"; sed 's/^/  | /' "$tmp/err" | head -20; fi
}

# -- exit codes and usage
expect_exit 0 "help" "$PTXRUN" --help
expect_exit 2 "no input" "$PTXRUN" --check
expect_stderr_line "no input" "ptxrun: error: no input file"
expect_exit 2 "unknown option" "$PTXRUN" --frobnicate x.ptx
expect_stderr_line "unknown option" "ptxrun: error: unknown option '--frobnicate'"
expect_exit 2 "missing file" "$PTXRUN" --check "$tmp/does-not-exist.ptx"
expect_stderr_line "missing file" "ptxrun: error: cannot open '$tmp/does-not-exist.ptx': No such file or directory"
expect_exit 2 "directory" "$PTXRUN" --check "$tmp"
expect_exit 0 "clean file" "$PTXRUN" --check samples/scan.ptx

# -- standard input
printf 'shf.l.wrap.b32 d, a, b, 8;\n' > "$tmp/shf.ptx"
expect_exit 0 "stdin snippet" sh -c "\"$PTXRUN\" --check - < \"$tmp/shf.ptx\""
printf 'shfl.sync.up.b32 Ry|p, Rx, 0x1, 0x0;\n' > "$tmp/bad.ptx"
expect_exit 2 "stdin error" sh -c "\"$PTXRUN\" --check --no-color - < \"$tmp/bad.ptx\""
expect_stderr_line "stdin error" "<stdin>:1:1: error: 'shfl.sync.up.b32' takes 5 operands, not 4"
expect_exit 2 "stdin twice" sh -c "\"$PTXRUN\" --lanes - - < \"$tmp/shf.ptx\""
expect_stderr_line "stdin twice" "ptxrun: error: standard input ('-') given as both the PTX file and --lanes: it can be read only once"
expect_exit 2 "stdin twice: --lanes and --expect" sh -c "\"$PTXRUN\" --lanes - samples/scan.ptx --expect=- < /dev/null"
expect_stderr_line "stdin twice: --lanes and --expect" "ptxrun: error: standard input ('-') given as both --lanes and --expect: it can be read only once"
# one pipe under two names ('-' and /dev/stdin), or a FIFO given twice: refused, not read as
# empty the second time (nor waited on for ever: no one writes this FIFO)
expect_exit 2 "stdin twice: - and /dev/stdin" sh -c "cat \"$tmp/shf.ptx\" | \"$PTXRUN\" --lanes /dev/stdin -"
expect_stderr_line "stdin twice: - and /dev/stdin" "ptxrun: error: '-' (the PTX file) and '/dev/stdin' (--lanes) are one stream: it can be read only once"
mkfifo "$tmp/twice.fifo"
expect_exit 2 "a FIFO given twice" timeout 10 "$PTXRUN" --expect "$tmp/twice.fifo" "$tmp/twice.fifo"
expect_stderr_line "a FIFO given twice" "ptxrun: error: '$tmp/twice.fifo' (the PTX file) and '$tmp/twice.fifo' (--expect) are one stream: it can be read only once"

# -- a syntax error: file:line:col, the line, a caret; three mistakes, three errors
expect_exit 2 "three mistakes" "$PTXRUN" --check --no-color tests/ptx/bad/three_mistakes.ptx.txt
expect_stderr_line "mistake 1" "tests/ptx/bad/three_mistakes.ptx.txt:11:2: error: 'shfl.sync.bfly.b32' takes 5 operands, not 4"
expect_stderr_line "mistake 2" "tests/ptx/bad/three_mistakes.ptx.txt:12:19: error: unexpected identifier '%r1' (expected ',', ';', '+', '|' or '[')"
expect_stderr_line "mistake 2 line" "   12 | 	add.s32 %r3, %r2 %r1;"
expect_stderr_line "mistake 2 caret" "      | 	                 ^~~"
expect_stderr_line "mistake 3" "tests/ptx/bad/three_mistakes.ptx.txt:13:3: error: '%r1' is not a predicate and cannot guard an instruction"
expect_stderr_line "error count" "tests/ptx/bad/three_mistakes.ptx.txt: 3 errors"

# -- warnings do not fail a check; -w hides them
printf 'shfl.up.b32 Ry|p, Rx, 1, 0;\n' > "$tmp/legacy.ptx"
expect_exit 0 "deprecated shfl" "$PTXRUN" --check --no-color "$tmp/legacy.ptx"
expect_stderr_line "deprecation warning" "$tmp/legacy.ptx:1:1: warning: 'shfl' without .sync is deprecated since PTX ISA 6.0 (use 'shfl.sync')"
expect_exit 0 "-w" "$PTXRUN" --check -w "$tmp/legacy.ptx"
if [ -s "$tmp/err" ]; then fail "-w still printed: $(cat "$tmp/err")"; else ok; fi

# -- --check goes function by function; where that could answer otherwise it checks the whole
# module again, and says only what the whole check says (nothing twice): a warning in the first
# kernel, then a name used before its declaration (fine for the whole check, not for a streamed one)
printf '.version 6.0\n.target sm_60\n.address_size 64\n.visible .entry a() { .reg .b32 %%r<3>; .reg .pred %%p<2>;\n  shfl.up.b32 %%r1|%%p1, %%r2, 1, 0; ret; }\n.visible .entry b() { .reg .b32 %%r<2>; ld.global.u32 %%r1, [g]; ret; }\n.global .u32 g;\n' > "$tmp/forward.ptx"
expect_exit 0 "forward reference, streamed then whole" "$PTXRUN" --check --no-color "$tmp/forward.ptx"
if [ "$(grep -c 'warning:' "$tmp/err")" = 1 ]; then ok; else fail "forward reference: the warning not said once: $(cat "$tmp/err")"; fi
# an error after a streamed warning: the whole check's messages, each once, and its count
printf '.version 6.0\n.target sm_60\n.address_size 64\n.visible .entry a() { .reg .b32 %%r<3>; .reg .pred %%p<2>;\n  shfl.up.b32 %%r1|%%p1, %%r2, 1, 0; ret; }\n.visible .entry b() { .reg .b32 %%r<2>; ld.global.u32 %%r1, [nope]; ret; }\n' > "$tmp/undeclared.ptx"
expect_exit 2 "undeclared after a warning" "$PTXRUN" --check --no-color "$tmp/undeclared.ptx"
expect_stderr_line "undeclared after a warning" "$tmp/undeclared.ptx:6:60: error: undeclared identifier 'nope'"
expect_stderr_line "undeclared after a warning: count" "$tmp/undeclared.ptx: 1 error"
if [ "$(grep -c 'warning:' "$tmp/err")" = 1 ]; then ok; else fail "undeclared: the warning not said once: $(cat "$tmp/err")"; fi

# a module of 1 MB or more is read by -j threads at once (each parses its share of the kernels);
# what they cannot answer alone (here a mistake in kernel 12000, a warning in kernel 3) one
# reader answers, with the same words as -j1
big_module() { # VERSION TARGET WHICH TEXT: 15000 kernels, kernel WHICH with TEXT before its ret
    awk -v v="$1" -v t="$2" -v k="$3" -v x="$4" 'BEGIN { printf ".version %s\n.target %s\n.address_size 64\n", v, t
        for (i = 0; i < 15000; i++)
            printf ".visible .entry k%d(.param .u64 p) { .reg .b64 %%rd<2>; .reg .pred %%p<2>; ld.param.u64 %%rd1, [p]; %s ret; }\n", i, i == k ? x : "" }'
}
big_module 8.0 sm_80 -1 "" > "$tmp/big.ptx"
big_module 8.0 sm_80 12000 "ld.param.u64 %rd1, [q];" > "$tmp/big_bad.ptx"
big_module 6.0 sm_60 3 "vote.all.pred %p1, %p0;" > "$tmp/big_warn.ptx"
[ "$(wc -c < "$tmp/big.ptx")" -gt 1048576 ] && ok || fail "big.ptx is under 1 MB"
# what only the lowering of a kernel with the whole module refuses (a variable no kernel reaches,
# holding the address of a function defined nowhere), at the end and at the start of the module
whole_only='.extern .func f();\n.global .u64 table[1] = {f};\n'
{ cat "$tmp/big.ptx"; printf "$whole_only"; } > "$tmp/big_whole_end.ptx"
{ head -3 "$tmp/big.ptx"; printf "$whole_only"; tail -n +4 "$tmp/big.ptx"; } > "$tmp/big_whole_start.ptx"
for j in 1 2 3; do
    expect_exit 2 "big module, whole-module refusal at its end -j$j" "$PTXRUN" --check -j$j --no-color "$tmp/big_whole_end.ptx"
    expect_stderr_line "big module, whole-module refusal at its end -j$j" \
        "$tmp/big_whole_end.ptx:15005:14: error: ptxrun cannot execute an initializer with the address of 'f' yet"
    expect_exit 2 "big module, whole-module refusal at its start -j$j" "$PTXRUN" --check -j$j --no-color "$tmp/big_whole_start.ptx"
    expect_stderr_line "big module, whole-module refusal at its start -j$j" \
        "$tmp/big_whole_start.ptx:5:14: error: ptxrun cannot execute an initializer with the address of 'f' yet"
done
for j in 1 2 3; do
    expect_exit 0 "big module -j$j" "$PTXRUN" --check -j$j --no-color "$tmp/big.ptx"
    if [ -s "$tmp/err" ]; then fail "big module -j$j said: $(head -3 "$tmp/err")"; else ok; fi
    expect_exit 2 "big module with a mistake -j$j" "$PTXRUN" --check -j$j --no-color "$tmp/big_bad.ptx"
    cp "$tmp/err" "$tmp/err_bad_$j"
    expect_stderr_line "big module with a mistake -j$j" "$tmp/big_bad.ptx:12004:121: error: undeclared identifier 'q'"
    expect_exit 0 "big module with a warning -j$j" "$PTXRUN" --check -j$j --no-color "$tmp/big_warn.ptx"
    cp "$tmp/err" "$tmp/err_warn_$j"
    if [ "$(grep -c 'warning:' "$tmp/err")" = 1 ]; then ok; else fail "big module -j$j: the warning not said once: $(cat "$tmp/err")"; fi
done
cmp -s "$tmp/err_bad_1" "$tmp/err_bad_2" && cmp -s "$tmp/err_bad_1" "$tmp/err_bad_3" && ok || fail "big module with a mistake: -j1, -j2, -j3 differ"
cmp -s "$tmp/err_warn_1" "$tmp/err_warn_2" && cmp -s "$tmp/err_warn_1" "$tmp/err_warn_3" && ok || fail "big module with a warning: -j1, -j2, -j3 differ"
# a file of 1 MB or more is mapped, not read (source.c): one of exactly 2 MiB (a whole number of
# pages, its sentinel on a page of its own) with its last kernel ending at its last byte
{ head -c 2000000 "$tmp/big.ptx" | sed '$d'; } > "$tmp/exact.ptx"
last='.visible .entry last() { ret; }'
pad=$((2097152 - $(wc -c < "$tmp/exact.ptx") - ${#last}))
{ printf '//%*s\n' $((pad - 3)) ''; printf '%s' "$last"; } >> "$tmp/exact.ptx"
[ "$(wc -c < "$tmp/exact.ptx")" = 2097152 ] && ok || fail "exact.ptx is $(wc -c < "$tmp/exact.ptx") bytes"
expect_exit 0 "2 MiB module" "$PTXRUN" --check --no-color "$tmp/exact.ptx"
printf '.visible .entry cut() { ret;' >> "$tmp/exact.ptx"     # now unclosed at the end of the file
expect_exit 2 "2 MiB module, unclosed" "$PTXRUN" --check --no-color "$tmp/exact.ptx"
lines=$(($(wc -l < "$tmp/exact.ptx") + 1))                   # (no newline at its end)
expect_stderr_line "2 MiB module, unclosed" "$tmp/exact.ptx:$lines:60: error: expected '}' at end of file (to close '{' at line $lines)"
# a mapped file cut short while it is read raises SIGBUS: said, exit 2, never a crash (the file,
# 6 MB, one kernel, is cut to 100 kB after a few milliseconds: at least one try must meet it)
awk 'BEGIN { print ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry big() {\n.reg .b32 %r<4>;"
             for (i = 0; i < 300000; i++) print "add.s32 %r1, %r1, 1;"; print "ret;\n}" }' > "$tmp/trunc0.ptx"
said=0
for delay in 0.01 0.03 0.06 0.1 0.2; do
    cp "$tmp/trunc0.ptx" "$tmp/trunc.ptx"
    "$PTXRUN" --check -j1 --no-color "$tmp/trunc.ptx" >/dev/null 2>"$tmp/err" & pid=$!
    sleep $delay; truncate -s 100000 "$tmp/trunc.ptx"; wait $pid; rc=$?
    [ "$rc" -lt 128 ] && ok || fail "a file cut short while read: exit $rc (a signal)"
    grep -qxF "ptxrun: error: the input file was cut short while it was being read" "$tmp/err" && [ "$rc" = 2 ] && said=$((said + 1))
done
[ "$said" -gt 0 ] && ok || fail "a file cut short while read: never said so"

# -- every nvcc file checks clean (vprintf included, since issue 13)
count=0
for f in tests/ptx/nvcc/*.ptx; do
    expect_exit 0 "check $f" "$PTXRUN" --check "$f"
    count=$((count + 1))
done
[ "$count" -ge 45 ] && ok || fail "only $count nvcc files"

# -- every example in the spec checks clean (snippets)
if [ -d "$SPEC" ]; then
    sh tests/spec_examples.sh "$SPEC" "$tmp/spec" >/dev/null
    n=0
    for f in "$tmp"/spec/*.ptx; do
        expect_exit 0 "check spec example $(basename "$f")" "$PTXRUN" --check "$f"
        n=$((n + 1))
    done
    [ "$n" -ge 4 ] && ok || fail "only $n spec examples extracted"
else
    echo "note: $SPEC not found; spec examples not checked"
fi

# -- --dump-ir prints PTX that ptxas accepts (when CUDA is here) and that ptxrun reads back
for f in tests/ptx/nvcc/*.sm_75.ptx tests/ptx/nvcc/*.sm_90.ptx; do
    "$PTXRUN" --dump-ir "$f" > "$tmp/dump.ptx" || { fail "dump $f"; continue; }
    expect_exit 0 "recheck dump of $f" "$PTXRUN" --check "$tmp/dump.ptx"
    if [ -x "$PTXAS" ]; then
        target=$(sed -n 's/^\.target \([a-z0-9_]*\).*/\1/p' "$tmp/dump.ptx")
        expect_exit 0 "ptxas accepts dump of $f" "$PTXAS" -arch="$target" "$tmp/dump.ptx" -o /dev/null
    fi
done

# -- running: the table, exit codes 0/1/2/3, --lanes and --expect errors, JSON round trip
cat > "$tmp/x.json" <<'JSON'
{"regs": {"Rx": [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
                 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41]}}
JSON
printf 'shfl.sync.up.b32 Ry|p, Rx, 0x1, 0x0, 0xffffffff;\n' > "$tmp/up.ptx"
expect_exit 0 "run from stdin" sh -c "\"$PTXRUN\" --lanes \"$tmp/x.json\" - < \"$tmp/up.ptx\""
if grep -qxF "7       0x00000010  0x00000011   true" "$tmp/out" && grep -qxF "0       0x0000000a  0x0000000a  false" "$tmp/out"
then ok; else fail "table rows"; cat "$tmp/out"; fi

printf '{"regs": {"Ry": [10, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40]}, "preds": {"p": [false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]}}\n' > "$tmp/ok.json"
expect_exit 0 "expect holds" "$PTXRUN" "$tmp/up.ptx" --lanes "$tmp/x.json" --expect "$tmp/ok.json"
printf '{"regs": {"Ry": 10}}\n' > "$tmp/wrong.json"
expect_exit 1 "expect mismatch" "$PTXRUN" "$tmp/up.ptx" --lanes "$tmp/x.json" --expect "$tmp/wrong.json"
expect_stderr_line "mismatch line" "Ry lane 7: expected 0x0000000a, got 0x00000010"
expect_stderr_line "mismatch count" "ptxrun: 30 differences from $tmp/wrong.json (the first 20 shown)"
if grep -q "Ry lane 22:" "$tmp/err"; then fail "more than 20 differences printed"; else ok; fi

printf '{"regs": {"Rz": 1}}\n' > "$tmp/bad1.json"
expect_exit 2 "unknown register" "$PTXRUN" "$tmp/up.ptx" --lanes "$tmp/bad1.json"
expect_stderr_line "unknown register" "ptxrun: error: $tmp/bad1.json: regs.Rz: the program has no register 'Rz'"
printf '{"regs": {"Rx": [1, 2]}}\n' > "$tmp/bad2.json"
expect_exit 2 "wrong length" "$PTXRUN" "$tmp/up.ptx" --lanes "$tmp/bad2.json"
expect_stderr_line "wrong length" "ptxrun: error: $tmp/bad2.json: regs.Rx: an array needs 32 values, one per lane (this one has 2)"
printf '{"regs": {"Rx": 4294967296}}\n' > "$tmp/bad3.json"
expect_exit 2 "out of range" "$PTXRUN" "$tmp/up.ptx" --lanes "$tmp/bad3.json"
expect_stderr_line "out of range" "ptxrun: error: $tmp/bad3.json: regs.Rx: 4294967296 does not fit in .b32"
printf '{"regs": {"p": true}}\n' > "$tmp/bad4.json"
expect_exit 2 "predicate under regs" "$PTXRUN" "$tmp/up.ptx" --lanes "$tmp/bad4.json"
expect_stderr_line "predicate under regs" "ptxrun: error: $tmp/bad4.json: regs.p: 'p' is a predicate; put it under \"preds\""
printf '{"regs": ' > "$tmp/bad5.json"
expect_exit 2 "broken JSON" "$PTXRUN" "$tmp/up.ptx" --lanes "$tmp/bad5.json"
printf '{"block": [64, 32, 1]}\n' > "$tmp/bad6.json"
expect_exit 2 "more than 1024 threads" "$PTXRUN" "$tmp/up.ptx" --lanes "$tmp/bad6.json"
expect_stderr_line "more than 1024 threads" "ptxrun: error: $tmp/bad6.json: block: 64 x 32 x 1 is 2048 threads; a block has at most 1024"
expect_exit 2 "bad --max-steps" "$PTXRUN" "$tmp/up.ptx" --max-steps -5

printf 'shfl.sync.idx.b32 v, x, 0, 31, 0xfffffffe;\n' > "$tmp/own.ptx"
expect_exit 3 "own bit missing" "$PTXRUN" "$tmp/own.ptx"
# A loop whose state changes at each turn (a counter) runs until --max-steps; one that reads memory
# and comes back to the same state with nothing it reads changing would repeat forever: a deadlock
# (spin.c). A loop that reads no memory waits for nothing: --max-steps.
printf 'mov.u32 r, 0;\nL: add.u32 r, r, 1;\nbra L;\n' > "$tmp/loop.ptx"
expect_exit 3 "runaway" "$PTXRUN" "$tmp/loop.ptx" --max-steps 500
printf '.shared .u32 s;\nL: ld.volatile.shared.u32 v, [s];\nbra L;\n' > "$tmp/same.ptx"
expect_exit 3 "a loop that comes back to the same state" "$PTXRUN" --no-color "$tmp/same.ptx" --max-steps 100000000000
expect_stderr_line "a loop that comes back to the same state" "$tmp/same.ptx:3:1: error: deadlock: no lane can move"
expect_stderr_line "a loop that comes back to the same state: the note" "$tmp/same.ptx:3:1: note: lanes 0-31 spin in a loop here that comes back to the same state, and nothing they read can change"
printf 'setp.eq.u32 p, x, 1;\n@p bra L;\nL: ret;\n' > "$tmp/undef.ptx"
expect_exit 0 "undefined branch condition warns" "$PTXRUN" --no-color "$tmp/undef.ptx"
expect_stderr_line "warning text" "$tmp/undef.ptx:2:1: warning: undefined branch condition in lanes 0-31"
expect_exit 3 "--strict" "$PTXRUN" --strict "$tmp/undef.ptx"
expect_exit 2 "cannot execute yet" "$PTXRUN" --no-color tests/not_yet/refused.ptx
expect_stderr_line "cannot execute: where and what" "tests/not_yet/refused.ptx:16:5: error: ptxrun cannot execute a call of 'host_side' (no body: an external function) yet"
expect_exit 2 "kernel parameters missing" "$PTXRUN" tests/ptx/nvcc/atomics.sm_90.ptx

# -- a real nvcc kernel: buffers, parameters, shared memory, bar.sync, atomics
printf '{"buffers": {"in": {"type": "u8", "data": [1, 2, 2, 3, 3, 3, 250, 250]}, "bins": {"type": "u32", "count": 256}},\n "params": ["@in", "@bins", 8]}\n' > "$tmp/hist.json"
bins=$(awk 'BEGIN { for (i = 0; i < 256; i++) { v = (i >= 1 && i <= 3) ? i : (i == 250 ? 2 : 0); printf "%s%d", (i ? ", " : ""), v } }')
printf '{"buffers": {"bins": [%s]}}\n' "$bins" > "$tmp/hist.expect.json"
for target in sm_75 sm_80 sm_90; do
    expect_exit 0 "histogram on $target" "$PTXRUN" --entry _Z9histogramPKhPji tests/ptx/nvcc/atomics.$target.ptx --lanes "$tmp/hist.json" --expect "$tmp/hist.expect.json"
done
printf '{"buffers": {"in": {"type": "u8", "data": [1, 2]}, "bins": {"type": "u32", "count": 4}},\n "params": ["@in", "@bins", 2]}\n' > "$tmp/small.json"
expect_exit 3 "out of bounds in nvcc code" "$PTXRUN" --no-color --entry _Z9histogramPKhPji tests/ptx/nvcc/atomics.sm_90.ptx --lanes "$tmp/small.json"
if grep -q "lane 4 (pc [0-9]*): 'atom.global.add.u32' writes 4 bytes at 0x100000000410 (.global), outside every region; the nearest is 'bins'" "$tmp/err"; then ok; else fail "out of bounds message"; cat "$tmp/err"; fi

# -- a vector access is aligned to the whole vector (PTX ISA, Addresses as Operands): exit 3
printf '.shared .align 16 .b8 s[32];\nmov.b64 x, 0;\nst.shared.v2.u64 [s+8], {x, x};\n' > "$tmp/vec_misaligned.ptx"
expect_exit 3 "misaligned vector" "$PTXRUN" --no-color "$tmp/vec_misaligned.ptx"
if grep -q "^$tmp/vec_misaligned.ptx:3:1: error: lane 0 (pc 1): 'st.shared.v2.u64' writes 16 bytes at 0x[0-9a-f]*8, which is not 16-byte aligned$" "$tmp/err"; then ok; else fail "misaligned vector message"; cat "$tmp/err"; fi

# -- what ptxas refuses (ptxas 13.0) is refused at --check: a module-scope .local ("Module-scoped
# variables in .local state space are not allowed with ABI"), .param::entry and .param::func
# before PTX ISA 8.3 ("Feature '::entry' requires PTX ISA .version 8.3 or later")
printf '.version 8.3\n.target sm_90\n.address_size 64\n.func (.param .b64 r) f()\n{\n\tst.param::func.b64 [r], 0;\n\tret;\n}\n.visible .entry k(.param .u64 out)\n{\n\t.reg .b64 %%rd<3>;\n\tld.param::entry.u64 %%rd1, [out];\n\tret;\n}\n' > "$tmp/param_sub.ptx"
expect_exit 0 ".param::entry and ::func in 8.3" "$PTXRUN" --check "$tmp/param_sub.ptx"
sed 's/^\.version 8\.3$/.version 8.2/' "$tmp/param_sub.ptx" > "$tmp/param_sub82.ptx"
expect_exit 2 ".param::entry and ::func in 8.2" "$PTXRUN" --check --no-color "$tmp/param_sub82.ptx"
expect_stderr_line "st.param::func before 8.3" "$tmp/param_sub82.ptx:6:4: error: '.param::func' requires PTX ISA 8.3 or later (this module is .version 8.2)"
expect_stderr_line "ld.param::entry before 8.3" "$tmp/param_sub82.ptx:12:4: error: '.param::entry' requires PTX ISA 8.3 or later (this module is .version 8.2)"
printf '.version 8.3\n.target sm_90\n.address_size 64\n.local .align 4 .b8 scratch[16];\n.visible .entry k()\n{\n\tret;\n}\n' > "$tmp/module_local.ptx"
expect_exit 2 "module-scope .local" "$PTXRUN" --check --no-color "$tmp/module_local.ptx"
expect_stderr_line "module-scope .local" "$tmp/module_local.ptx:4:21: error: '.local' variable 'scratch' at module scope (ptxas allows .local only inside a function)"

# -- forms PTX does not have, and valid forms ptxrun does not execute yet, are refused at --check
# where they are written (the run refuses them the same way, before it starts)
printf 'bar.frob 0;\n' > "$tmp/barfrob.ptx"
expect_exit 2 "bar.frob" "$PTXRUN" --check --no-color "$tmp/barfrob.ptx"
expect_stderr_line "bar.frob" "$tmp/barfrob.ptx:1:4: error: unknown modifier '.frob' for 'bar'"
printf '.reg .b64 a;\nld.weird.global.u32 r, [a];\n' > "$tmp/ldweird.ptx"
expect_exit 2 "ld.weird" "$PTXRUN" --check --no-color "$tmp/ldweird.ptx"
expect_stderr_line "ld.weird" "$tmp/ldweird.ptx:2:3: error: unknown modifier '.weird' for 'ld'"
printf '.reg .b64 a;\nld.global.v8.f32 {r0, r1, r2, r3, r4, r5, r6, r7}, [a];\nredux.sync.min.f32 r, r, -1;\nsuq.array_width.b32 r, [a];\nfence.proxy.tensormap::generic.release.gpu;\n' > "$tmp/notyet.ptx"
expect_exit 2 "not executed yet: --check" "$PTXRUN" --check --no-color "$tmp/notyet.ptx"
expect_stderr_line "ld.v8" "$tmp/notyet.ptx:2:10: error: ptxrun cannot execute 'ld' with '.v8' yet"
expect_stderr_line "redux.sync.f32" "$tmp/notyet.ptx:3:15: error: ptxrun cannot execute 'redux.sync' with '.f32' yet"
expect_stderr_line "suq.array_width" "$tmp/notyet.ptx:4:4: error: ptxrun cannot execute 'suq' with '.array_width' yet"
expect_stderr_line "fence.proxy.tensormap" "$tmp/notyet.ptx:5:12: error: ptxrun cannot execute 'fence' with '.tensormap::generic' yet"
expect_stderr_line "four refusals" "$tmp/notyet.ptx: 4 errors"
# mma: the m16n8k16 f16, s4 and m8n8k4 f16 (.row.row) forms run; a mixed f16/f32 C and D of
# m16n8k8/k16 .f16 is an error, as ptxas
# refuses it (".dtype must be '.f16' when .ctype is '.f16'")
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<14>;\n.reg .f64 d<14>;\nmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {r0, r1, r2, r3}, {r4, r5, r6, r7}, {r8, r9}, {r10, r11, r12, r13};\nmma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32 {r0, r1, r2, r3}, {r4, r5}, {r8}, {r10, r11, r12, r13};\nmma.sync.aligned.m8n8k4.row.row.f16.f16.f16.f16 {r0, r1, r2, r3}, {r4, r5}, {r8, r9}, {r10, r11, r12, r13};\nret;\n}\n' > "$tmp/mma_f16.ptx"
expect_exit 0 "mma m16n8k16 f16, s4, m8n8k4 f16 run" "$PTXRUN" --no-color --block 32 "$tmp/mma_f16.ptx"
if grep -q ':8:.*error' "$tmp/err"; then fail "mma m16n8k16 f16 refused"; sed -n 1,5p "$tmp/err"; else ok; fi
if grep -q ':9:.*error' "$tmp/err"; then fail "mma s4 refused"; sed -n 1,5p "$tmp/err"; else ok; fi
if grep -q ':10:.*error' "$tmp/err"; then fail "mma m8n8k4 f16 refused"; sed -n 1,5p "$tmp/err"; else ok; fi
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<14>;\nmma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f16 {r0, r1, r2, r3}, {r4, r5}, {r8}, {r10, r11};\nret;\n}\n' > "$tmp/mma_mixed.ptx"
expect_exit 2 "mma f32.f16.f16.f16 not a form" "$PTXRUN" --no-color "$tmp/mma_mixed.ptx"
expect_stderr_line "mma f32.f16.f16.f16" "$tmp/mma_mixed.ptx:7:1: error: 'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f16' is not a form of mma (m16n8k8 and m16n8k16 .f16 take .f16 or .f32 for both C and D, not one of each)"
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .f64 d<14>;\nmma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {d0, d1, d2, d3}, {d4, d5, d6, d7, d8, d9, d10, d11}, {d8, d9, d10, d11}, {d10, d11, d12, d13};\nret;\n}\n' > "$tmp/mma_f64k16.ptx"
# m16n8k4/k8/k16 .f64: PTX ISA 7.8, sm_90 (ptxas 13.0 takes them there; "requires .target sm_90" for sm_80): not run yet
expect_exit 2 "mma m16n8k16 f64 not run yet" "$PTXRUN" --no-color "$tmp/mma_f64k16.ptx"
expect_stderr_line "mma m16n8k16 f64" "$tmp/mma_f64k16.ptx:7:1: error: ptxrun cannot execute 'mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64' (mma m16n8k* with .f64 A and B) yet"
sed 's/sm_90/sm_80/' "$tmp/mma_f64k16.ptx" > "$tmp/mma_f64k16_80.ptx"
expect_exit 2 "mma m16n8k16 f64 needs sm_90" "$PTXRUN" --no-color "$tmp/mma_f64k16_80.ptx"
expect_stderr_line "mma m16n8k16 f64 sm_80" "$tmp/mma_f64k16_80.ptx:7:1: error: 'mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64' requires sm_90 or later (this module targets sm_80)"
# mma m8n8k4 with .f16 D and .f32 C: ptxas refuses it (".dtype must be '.f32' when .ctype is '.f32'"), so does ptxrun
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<8>;\n.reg .f32 f<8>;\nmma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32 {r0, r1, r2, r3}, {r4, r5}, {r6, r7}, {f0, f1, f2, f3, f4, f5, f6, f7};\nret;\n}\n' > "$tmp/mma884_f16f32.ptx"
expect_exit 2 "mma m8n8k4 .f16.f16.f16.f32 not a form" "$PTXRUN" --no-color "$tmp/mma884_f16f32.ptx"
expect_stderr_line "mma m8n8k4 .f16.f16.f16.f32" "$tmp/mma884_f16f32.ptx:8:1: error: 'mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32' is not a form of mma (.f16 D with .f32 C, which ptxas refuses: .dtype must be .f32 when .ctype is .f32)"
# fp8 mma: C and D both f32 or both f16 (ptxas: "Unexpected instruction types" for .f32 ... .f16);
# a form not recorded on the H100 runs with a warning that says so, the recorded ones without
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<14>;\nmma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f16 {r0, r1, r2, r3}, {r4, r5, r6, r7}, {r8, r9}, {r10, r11};\nret;\n}\n' > "$tmp/mma_fp8cd.ptx"
expect_exit 2 "mma f32.e4m3.e4m3.f16 not a form" "$PTXRUN" --no-color "$tmp/mma_fp8cd.ptx"
expect_stderr_line "mma f32.e4m3.e4m3.f16" "$tmp/mma_fp8cd.ptx:7:1: error: 'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f16' is not a form of mma (e4m3 and e5m2 forms take .f16 or .f32 for both C and D, not one of each)"
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<14>;\nmov.b32 r4, 0x38383838;\nmov.b32 r8, 0x3c3c3c3c;\nmov.b32 r10, 0;\nmma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 {r0, r1, r2, r3}, {r4, r4, r4, r4}, {r8, r8}, {r10, r10, r10, r10};\nmma.sync.aligned.m16n8k16.row.col.f16.e4m3.e5m2.f16 {r0, r1}, {r4, r4}, {r8}, {r10, r10};\nret;\n}\n' > "$tmp/mma_fp8.ptx"
expect_exit 0 "mma fp8 forms run" "$PTXRUN" --no-color "$tmp/mma_fp8.ptx"
expect_stderr_line "mma fp8 unrecorded form" "$tmp/mma_fp8.ptx:11:1: warning: mma with fp8 A/B in a form not recorded on the H100 (only m16n8k32 .f32.e4m3.e4m3.f32 and .f32.e5m2.e5m2.f32 are): ptxrun computes it as ptxas's sm_90 code does (fp8 to f16, two f16 HMMA, then C added), from the recorded parts in lanes 0-31"
if grep -q ':10:.*warning' "$tmp/err"; then fail "mma fp8 recorded form warned"; sed -n 1,5p "$tmp/err"; else ok; fi
sed 's/^.version 8.7/.version 8.6/' "$tmp/mma_fp8.ptx" > "$tmp/mma_fp8v.ptx"
expect_exit 2 "mma fp8 m16n8k16 needs PTX ISA 8.7" "$PTXRUN" --no-color --check "$tmp/mma_fp8v.ptx"
expect_stderr_line "mma fp8 m16n8k16 version" "$tmp/mma_fp8v.ptx:11:1: error: 'mma.sync.aligned.m16n8k16.row.col.f16.e4m3.e5m2.f16' requires PTX ISA 8.7 or later (this module is .version 8.6)"
if grep -q ':10:.*error' "$tmp/err"; then fail "mma fp8 m16n8k32 f32 under 8.6 refused"; sed -n 1,5p "$tmp/err"; else ok; fi
# an mma.sync.aligned that a partial warp executes (a block of 16 threads): an execution fault
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<5>;\nmov.b32 r2, 0;\nmov.b32 r3, 0;\nmov.b32 r4, 0;\nmma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {r0, r1}, {r2}, {r3}, {r4, r4};\nret;\n}\n' > "$tmp/mma_partial.ptx"
expect_exit 3 "mma by a partial warp" "$PTXRUN" --no-color --block 16 "$tmp/mma_partial.ptx"
expect_exit 0 "mma by a whole warp" "$PTXRUN" --no-color --block 32 "$tmp/mma_partial.ptx"
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<5>;\n.reg .pred p;\nsetp.ne.u32 p, 0, 0;\nmov.b32 r2, 0;\nmov.b32 r3, 0;\nmov.b32 r4, 0;\n@p mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {r0, r1}, {r2}, {r3}, {r4, r4};\nret;\n}\n' > "$tmp/mma_off.ptx"
expect_exit 0 "mma guarded off in every lane of a partial warp" "$PTXRUN" --no-color --block 16 "$tmp/mma_off.ptx"
# mma's types in an order ptxas refuses ("Unexpected instruction types"): an error, not a run as .s32.s8.s8.s32
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<5>;\nmov.b32 r2, 0;\nmov.b32 r3, 0;\nmov.b32 r4, 0;\nmma.sync.aligned.m8n8k16.row.col.s32.s32.s8.s8 {r0, r1}, {r2}, {r3}, {r4, r4};\nret;\n}\n' > "$tmp/mma_order.ptx"
expect_exit 2 "mma types out of order" "$PTXRUN" --no-color --block 32 "$tmp/mma_order.ptx"
expect_stderr_line "mma types out of order" "$tmp/mma_order.ptx:10:1: error: mma's types must come in the order .dtype.atype.btype.ctype (.s32.s32.s8.s8 here; a valid form is .s32.s8.s8.s32)"
# m8n8k4 .f64 with .rn (ptxas takes it; the fma chain rounds to nearest): 4 * (1.5 * 2) + 0.25 in every D
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .f64 d<6>;\nmov.f64 d2, 0d3FF8000000000000;\nmov.f64 d3, 0d4000000000000000;\nmov.f64 d4, 0d3FD0000000000000;\nmma.sync.aligned.m8n8k4.row.col.rn.f64.f64.f64.f64 {d0, d1}, {d2}, {d3}, {d4, d4};\nret;\n}\n' > "$tmp/mma_rn.ptx"
expect_exit 0 "mma f64 .rn" "$PTXRUN" --no-color --block 32 --regs d0,d1 --threads 31 "$tmp/mma_rn.ptx"
if grep -qxF "31      12.25  12.25" "$tmp/out"; then ok; else fail "mma f64 .rn: lane 31's D"; cat "$tmp/out"; fi
# --json shows every register, those only an mma names (its D) too
expect_exit 0 "mma --json" "$PTXRUN" --no-color --block 32 --json "$tmp/mma_rn.ptx"
if grep -q '"d0": \[12.25, ' "$tmp/out"; then ok; else fail "mma --json: no d0"; head -20 "$tmp/out"; fi
# mma .f64 NaNs as f64 fma gives them on the H100, whatever the host: an input NaN quieted (a's first, and a
# warning when two differ), 0xfff8000000000000 for inf * 0
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .f64 d<12>;\nmov.b64 d2, 0xfff0000000000123;\nmov.b64 d3, 0x7ff8000000000456;\nmov.b64 d4, 0x7ff0000000000789;\nmma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {d0, d1}, {d2}, {d3}, {d4, d4};\nmov.b64 d6, 0x7ff0000000000000;\nmov.b64 d7, 0;\nmov.b64 d8, 0x3ff0000000000000;\nmma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {d9, d10}, {d6}, {d7}, {d8, d8};\nret;\n}\n' > "$tmp/mma_nan.ptx"
expect_exit 0 "mma f64 NaNs" "$PTXRUN" --no-color --hex --block 32 --threads 5 --regs d0,d9 "$tmp/mma_nan.ptx"
if grep -qxF "5       0xfff8000000000123  0xfff8000000000000" "$tmp/out"; then ok; else fail "mma f64 NaNs: lane 5's D"; cat "$tmp/out"; fi
expect_stderr_line "mma f64 two NaNs" "$tmp/mma_nan.ptx:10:1: warning: mma .f64 on two different NaNs in one step of the fma chain: which one the H100 returns is not recorded; ptxrun returns a's, else b's, quieted in lanes 0-31"
# mma.sp: a selector ptxas refuses (out of its range, in a register), the metadata as an immediate and
# the floating-point forms (not run yet) are refused before the run; --json shows the D only mma.sp names;
# metadata the ISA leaves undefined: a warning, those rows of D undefined
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<20>;\nmma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {r0, r1, r2, r3}, {r4, r5}, {r8, r9}, {r10, r11, r12, r13}, r16, 2;\nmma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {r0, r1, r2, r3}, {r4, r5}, {r8, r9}, {r10, r11, r12, r13}, r16, r17;\nmma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {r0, r1, r2, r3}, {r4, r5}, {r8, r9}, {r10, r11, r12, r13}, 5, 0;\nmma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32 {r0, r1, r2, r3}, {r4, r5, r6, r7}, {r8, r9, r10, r11}, {r10, r11, r12, r13}, r16, 0;\nret;\n}\n' > "$tmp/mmasp_bad.ptx"
expect_exit 2 "mma.sp refused forms" "$PTXRUN" --no-color "$tmp/mmasp_bad.ptx"
expect_stderr_line "mma.sp selector 2" "$tmp/mmasp_bad.ptx:7:117: error: the sparsity selector of 'mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32' must be an integer constant from 0 to 1 (as ptxas takes it)"
expect_stderr_line "mma.sp selector register" "$tmp/mmasp_bad.ptx:8:117: error: the sparsity selector of 'mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32' must be an integer constant from 0 to 1 (as ptxas takes it)"
expect_stderr_line "mma.sp metadata immediate" "$tmp/mmasp_bad.ptx:9:130: error: the metadata of 'mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32' must be a .b32 register"
expect_stderr_line "mma.sp fp8" "$tmp/mmasp_bad.ptx:10:1: error: ptxrun cannot execute 'mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32' (mma.sp with .e4m3 or .e5m2 A and B) yet"
# mma's sub-byte shapes and .and.popc need the PTX ISA and target ptxas 13.0 asks (ran on sm_75 before)
printf '.version 6.5\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<20>;\nmma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32 {r0, r1, r2, r3}, {r4, r5}, {r6}, {r8, r9, r10, r11};\nmma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc {r0, r1}, {r4}, {r6}, {r8, r9};\nmma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 {r0, r1}, {r4}, {r6}, {r8, r9};\nret;\n}\n' > "$tmp/mma_target.ptx"
expect_exit 2 "mma shapes' targets" "$PTXRUN" --no-color --check "$tmp/mma_target.ptx"
expect_stderr_line "mma m16n8k32 sm_75" "$tmp/mma_target.ptx:7:17: error: '.m16n8k32' requires sm_80 or later (this module targets sm_75)"
expect_stderr_line "mma m8n8k128 PTX 6.5" "$tmp/mma_target.ptx:8:17: error: '.m8n8k128' requires PTX ISA 7.0 or later (this module is .version 6.5)"
expect_stderr_line "mma .and.popc sm_75" "$tmp/mma_target.ptx:8:48: error: '.and' requires sm_80 or later (this module targets sm_75)"
if grep -q ':9:' "$tmp/err"; then fail "mma m8n8k32 on sm_75 (ptxas takes it)"; else ok; fi
# a floating-point immediate in an mma fragment is refused, naming what is taken (ptxas 13.0 makes 0 of 1.0 in an f32 C)
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<20>;\n.reg .f32 f<8>;\nmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {f0, f1, f2, f3}, {r4, r5, r6, r7}, {r8, r9}, {f4, 1.0, f6, f7};\nmma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {r0, r1, r2, r3}, {r4, r5}, {r8, r9}, {r10, 0f3F800000, r12, r13}, r16, 0;\nret;\n}\n' > "$tmp/mma_fimm.ptx"
expect_exit 2 "mma float immediates" "$PTXRUN" --no-color --check "$tmp/mma_fimm.ptx"
expect_stderr_line "mma 1.0 in f32 C" "$tmp/mma_fimm.ptx:8:97: error: operand 4 of 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' must be {4 .b32 or .f32 registers} (or integer or 0f immediates)"
expect_stderr_line "mma.sp 0f in s32 C" "$tmp/mma_fimm.ptx:9:90: error: operand 4 of 'mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32' must be {4 .b32 registers} (or integer immediates)"
# mma.sp takes only .row.col (ptxas: "Illegal alayout '.col'"); .col.row ran as .row.col before
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<20>;\nmma.sp::ordered_metadata.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {r0, r1, r2, r3}, {r4, r5}, {r8, r9}, {r10, r11, r12, r13}, r16, 0;\nret;\n}\n' > "$tmp/mmasp_layout.ptx"
expect_exit 2 "mma.sp .col.row" "$PTXRUN" --no-color "$tmp/mmasp_layout.ptx"
expect_stderr_line "mma.sp .col.row" "$tmp/mmasp_layout.ptx:7:1: error: 'mma.sp::ordered_metadata.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32' is not a form of mma.sp (a layout other than .row.col, the only one mma.sp takes)"
# m16n8k32 .f32.f16.f16.f32 with selector 2: ptxas takes it, the ISA leaves it undefined: a warning, D undefined
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<20>;\nmov.b32 r16, 0x88888888;\nmov.b32 r4, 0x3c003c00;\nmov.b32 r10, 0;\nmma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {r0, r1, r2, r3}, {r4, r4, r4, r4}, {r4, r4, r4, r4}, {r10, r10, r10, r10}, r16, 0;\nmma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {r6, r7, r8, r9}, {r4, r4, r4, r4}, {r4, r4, r4, r4}, {r10, r10, r10, r10}, r16, 2;\nret;\n}\n' > "$tmp/mmasp_sel.ptx"
expect_exit 0 "mma.sp selector 2" "$PTXRUN" --no-color --block 32 --threads 0 --regs r0,r6 "$tmp/mmasp_sel.ptx"
if grep -qE '^0 +0x41800000 +undef' "$tmp/out"; then ok; else fail "mma.sp selector 2: D"; cat "$tmp/out"; fi
expect_stderr_line "mma.sp selector 2 warning" "$tmp/mmasp_sel.ptx:11:1: warning: mma.sp m16n8k32 with a sparsity selector other than 0 or 1, which the PTX ISA leaves undefined (ptxas takes it): all of D is undefined in lanes 0-31"
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<20>;\nmov.b32 r16, 0x44448888;\nmov.b32 r4, 0x04030201;\nmov.b32 r5, 0;\nmov.b32 r8, 0x01010101;\nmov.b32 r10, 0;\nmma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {r0, r1, r2, r3}, {r4, r5}, {r8, r8}, {r10, r10, r10, r10}, r16, 0;\nmov.b32 r16, 0x00050001;\nmma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {r6, r7, r9, r11}, {r4, r5}, {r8, r8}, {r10, r10, r10, r10}, r16, 0;\nret;\n}\n' > "$tmp/mmasp_json.ptx"
expect_exit 0 "mma.sp --json" "$PTXRUN" --no-color --block 32 --json --threads 0 "$tmp/mmasp_json.ptx"
if grep -q '"r0": \["0x00000028"' "$tmp/out" && grep -q '"r6": \[null' "$tmp/out"; then ok; else fail "mma.sp --json: r0, r6"; head -30 "$tmp/out"; fi
expect_stderr_line "mma.sp undefined metadata" "$tmp/mmasp_json.ptx:14:1: warning: mma.sp::ordered_metadata with metadata the PTX ISA leaves undefined (two equal indices, or a first index not below the second): the rows of D it describes are undefined in lanes 0-31"
# mma operand vectors of the register types and immediates ptxas 13.0 (sm_90) takes, and no others: an f16 A in
# .f32 registers and an f32 C of integer immediates only are errors ("Arguments mismatch"); an f32 C of 0f
# immediates runs, each its bits (D = 0 * 0 + C: 1.0, -2.5)
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<14>;\n.reg .f32 f<14>;\nmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {r0, r1, r2, r3}, {f4, f5, f6, f7}, {r8, r9}, {r10, r11, r12, r13};\nret;\n}\n' > "$tmp/mma_freg.ptx"
expect_exit 2 "mma f16 A in .f32 registers" "$PTXRUN" --no-color "$tmp/mma_freg.ptx"
expect_stderr_line "mma f16 A in .f32 registers" "$tmp/mma_freg.ptx:8:69: error: operand 2 of 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' must be {4 .b32 or .f16x2 registers} (or integer immediates)"
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<14>;\nmov.b32 r4, 0;\nmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {r0, r1, r2, r3}, {r4, r4, r4, r4}, {r4, r4}, {0, 0, 0, 0};\nret;\n}\n' > "$tmp/mma_intc.ptx"
expect_exit 2 "mma f32 C of integer immediates" "$PTXRUN" --no-color "$tmp/mma_intc.ptx"
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<14>;\nmov.b32 r4, 0;\nmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {r0, r1, r2, r3}, {r4, r4, r4, r4}, {r4, r4}, {0f3F800000, 0fC0200000, 0f3F800000, 0f3F800000};\nret;\n}\n' > "$tmp/mma_fc.ptx"
expect_exit 0 "mma f32 C of 0f immediates" "$PTXRUN" --no-color --hex --threads 0 --regs r0,r1 "$tmp/mma_fc.ptx"
if grep -qxF "0       0x3f800000  0xc0200000" "$tmp/out"; then ok; else fail "mma f32 C of 0f immediates: lane 0's D"; cat "$tmp/out"; fi
# an integer immediate among C's registers (ptxas takes it: its bits) ran into an unplaced row (a crash)
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<14>;\nmov.b32 r4, 0;\nmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {r0, r1, r2, r3}, {r4, r4, r4, r4}, {r4, r4}, {r4, r4, r4, 7};\nret;\n}\n' > "$tmp/mma_ic.ptx"
expect_exit 0 "mma integer immediate in C" "$PTXRUN" --no-color --hex --threads 0 --regs r2,r3 "$tmp/mma_ic.ptx"
if grep -qxF "0       0x00000000  0x00000007" "$tmp/out"; then ok; else fail "mma integer immediate in C: lane 0's D"; cat "$tmp/out"; fi
# an f16 D where rounding the cut sum to f16 directly (ptxrun) and through f32 toward zero differ, which no recording
# decides: 1 + 2^-11 + 2^-24 to nearest is 0x3c01 (through f32: the tie 1 + 2^-11, 0x3c00), with a warning
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 r<10>;\n.reg .pred p;\nmov.u32 r9, %%laneid;\nand.b32 r9, r9, 3;\nsetp.eq.u32 p, r9, 0;\nselp.b32 r2, 0x0c001000, 0, p;\nselp.b32 r3, 0x0c003c00, 0, p;\nmov.b32 r4, 0x3c003c00;\nmma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {r0, r1}, {r2, r2}, {r3}, {r4, r4};\nret;\n}\n' > "$tmp/mma_open.ptx"
expect_exit 0 "mma f16 D unrecorded case" "$PTXRUN" --no-color --hex --threads 31 --regs r0,r1 "$tmp/mma_open.ptx"
if grep -qxF "31      0x3c013c01  0x3c013c01" "$tmp/out"; then ok; else fail "mma f16 D unrecorded case: lane 31's D"; cat "$tmp/out"; fi
if grep -qF "mma_open.ptx:14:1: warning: mma: an element of D on a case no H100 recording decides" "$tmp/err"; then ok; else fail "mma f16 D unrecorded case: no warning"; cat "$tmp/err"; fi
expect_exit 2 "not executed yet: run" "$PTXRUN" --no-color "$tmp/notyet.ptx"
expect_stderr_line "run: ld.v8" "$tmp/notyet.ptx:2:10: error: ptxrun cannot execute 'ld' with '.v8' yet"

# JSON out is --lanes in: an identity program reproduces the state exactly.
"$PTXRUN" -w samples/butterfly.ptx --lanes samples/butterfly.lanes.json --json > "$tmp/state.json"
printf 'mov.f32 Ry, Ry;\nmov.f32 Rx, Rx;\n' > "$tmp/identity.ptx"
"$PTXRUN" "$tmp/identity.ptx" --lanes "$tmp/state.json" --json > "$tmp/again.json"
grep -v '"steps"' "$tmp/state.json" > "$tmp/state.nosteps"
grep -v '"steps"' "$tmp/again.json" > "$tmp/again.nosteps"
if cmp -s "$tmp/state.nosteps" "$tmp/again.nosteps"; then ok; else fail "JSON round trip"; diff "$tmp/state.nosteps" "$tmp/again.nosteps" | head; fi

# -- --trace on the spec's butterfly reduction: every shuffle step says which lane fed which
"$PTXRUN" -w --no-color samples/butterfly.ptx --lanes samples/butterfly.lanes.json --trace >/dev/null 2>"$tmp/trace"
steps=$(grep -c '^step ' "$tmp/trace")
shuffles=$(grep -c 'shfl.bfly.b32' "$tmp/trace")
reads=$(grep -c '^    read: 0<-16 1<-17 .* 31<-15 \|^    read: 0<-8 \|^    read: 0<-4 \|^    read: 0<-2 \|^    read: 0<-1 1<-0 ' "$tmp/trace")
if [ "$steps" -eq 10 ] && [ "$shuffles" -eq 5 ] && [ "$reads" -eq 5 ]; then ok; else fail "butterfly trace: $steps steps, $shuffles shuffles, $reads read lines"; head -20 "$tmp/trace"; fi
if grep -q '^    read: 0<-16 1<-17 2<-18 .* 16<-0 .* 31<-15 ' "$tmp/trace"; then ok; else fail "butterfly first read line"; fi

# -- CUDA source lines (nvcc -lineinfo: .file/.loc) in run-time diagnostics and --trace. The
# expected line numbers come from the .cu itself (grep -n of the statement), not from ptxrun.
LI=tests/ptx/nvcc/lineinfo.sm_80.lineinfo.ptx
LCU=tests/ptx/nvcc/lineinfo.cu
cu_line() { grep -nF -- "$1" "$LCU" | head -1 | cut -d: -f1; }
printf '{"block": [32, 1, 1], "buffers": {"out": {"type": "f32", "count": 32}, "in": {"type": "f32", "count": 32}}, "params": ["@out", "@in", 1]}\n' > "$tmp/li_oob.json"
expect_exit 3 "lineinfo: out-of-bounds store" "$PTXRUN" --no-color $LI --entry oob_store --lanes "$tmp/li_oob.json"
n=$(cu_line 'out[i + offset] = v;')
expect_stderr_line "lineinfo: the fault's CUDA line" "$LCU:$n:5: note: in the CUDA source"
expect_stderr_line "lineinfo: the fault's CUDA text" "$(printf '%5u | %s' "$n" "    out[i + offset] = v;")"
printf '{"block": [32, 1, 1], "buffers": {"out": {"type": "u32", "count": 32}}, "params": ["@out"]}\n' > "$tmp/li_out.json"
expect_exit 0 "lineinfo: a warning" "$PTXRUN" --no-color $LI --entry undefined_branch --lanes "$tmp/li_out.json"
n=$(cu_line 'if (flags[i] > 0)')
expect_stderr_line "lineinfo: the warning's CUDA line" "$LCU:$n:5: note: in the CUDA source"
expect_stderr_line "lineinfo: the warning's CUDA text" "$(printf '%5u | %s' "$n" "    if (flags[i] > 0)")"
expect_exit 3 "lineinfo: a deadlock" "$PTXRUN" --no-color $LI --entry syncwarp_deadlock --lanes "$tmp/li_out.json"
n=$(cu_line '__syncwarp(0xffffffff);')      # bar.warp.sync is inlined from a toolkit header: its inlined_at line
expect_stderr_line "lineinfo: the deadlock's __syncwarp" "$LCU:$n:9: note: in the CUDA source"
n=$(cu_line '__syncthreads();')
expect_stderr_line "lineinfo: the deadlock note's __syncthreads" "$(printf '%5u | %s' "$n" "        __syncthreads();")"
printf '{"block": [32, 1, 1], "buffers": {"in": {"type": "s32", "data": [0, 1, 2, -3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]}}, "params": ["@in"]}\n' > "$tmp/li_in.json"
expect_exit 3 "lineinfo: a failed assert" "$PTXRUN" --no-color $LI --entry failed_assert --lanes "$tmp/li_in.json"
n=$(cu_line 'assert(in[i] >= 0);')
expect_stderr_line "lineinfo: the assert's CUDA text" "$(printf '%5u | %s' "$n" "    assert(in[i] >= 0);")"
# the .cu out of reach: the path as .file wrote it, no text
cp $LI "$tmp/alone.ptx"
expect_exit 3 "lineinfo: the .cu unreadable" "$PTXRUN" --no-color "$tmp/alone.ptx" --entry oob_store --lanes "$tmp/li_oob.json"
expect_stderr_line "lineinfo: the .file path" "/tmp/ptxrun-nvcc-corpus/lineinfo.cu:$(cu_line 'out[i + offset] = v;'):5: note: in the CUDA source"
if grep -q '^ *[0-9]* |     out\[i' "$tmp/err"; then fail "lineinfo: text of an unreadable file"; else ok; fi
# a relative .file is found from the PTX file's folder; a .loc applies to the instructions after it
mkdir -p "$tmp/li"
printf 'int a;\nint b;\n    trap_here();\n' > "$tmp/li/k.cu"
printf '.version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\t.reg .u32 %%r1;\n\t.loc 1 3 5\n\tmov.u32 %%r1, 1;\n\ttrap;\n}\n.file 1 "k.cu"\n' > "$tmp/li/k.ptx"
expect_exit 3 "lineinfo: trap" "$PTXRUN" --no-color "$tmp/li/k.ptx"
expect_stderr_line "lineinfo: a relative .file" "$tmp/li/k.cu:3:5: note: in the CUDA source"
expect_stderr_line "lineinfo: its text" "    3 |     trap_here();"
# --trace names the CUDA line; --trace-lines picks CUDA lines or PTX lines; --trace-ops opcodes
expect_exit 3 "lineinfo: trace" "$PTXRUN" --no-color $LI --entry oob_store --lanes "$tmp/li_oob.json" --trace
pl=$(grep -n 'st.global.f32' $LI | head -1 | cut -d: -f1)
if grep -q "^step [0-9]* *pc [0-9]* *line $pl *lineinfo.cu:$(cu_line 'out[i + offset] = v;')  #* *st.global.f32" "$tmp/err"; then ok; else fail "lineinfo: trace header"; grep st.global "$tmp/err"; fi
expect_exit 3 "--trace-lines FILE:LINE" "$PTXRUN" --no-color $LI --entry oob_store --lanes "$tmp/li_oob.json" --trace-lines lineinfo.cu:$(cu_line 'out[i + offset] = v;')
# the instructions under '.loc 1 10 5' up to the next .loc (counted in the PTX with awk), one step each
want=$(awk '/\.loc\t1 10 5/ { on = 1; next } /\.loc/ { on = 0 } on && /;$/ { n++ } END { print n }' $LI)
got=$(grep -c '^step ' "$tmp/err")
if [ "$got" -eq "$want" ] && [ "$want" -gt 1 ] && ! grep '^step ' "$tmp/err" | grep -qv "lineinfo.cu:10 "; then ok; else fail "--trace-lines lineinfo.cu:10: $got steps, expected $want"; fi
expect_exit 2 "--trace-lines no such file" "$PTXRUN" $LI --entry oob_store --lanes "$tmp/li_oob.json" --trace-lines nope.cu:3
expect_stderr_line "--trace-lines no such file" "ptxrun: error: --trace-lines: no .file of the PTX is 'nope.cu'; its files: \"/tmp/ptxrun-nvcc-corpus/lineinfo.cu\", \"/usr/local/cuda/bin/../targets/x86_64-linux/include/sm_30_intrinsics.hpp\""
expect_exit 2 "--trace-lines bad range" "$PTXRUN" $LI --entry oob_store --lanes "$tmp/li_oob.json" --trace-lines 9-3
expect_stderr_line "--trace-lines bad range" "ptxrun: error: --trace-lines: '9-3' is not LINE, FIRST-LAST or FILE:FIRST-LAST (lines from 1)"
# a range where the kernel has no instruction (oob_store is lines 6-11 of lineinfo.cu) is refused
expect_exit 2 "--trace-lines: no code there" "$PTXRUN" $LI --entry oob_store --lanes "$tmp/li_oob.json" --trace-lines lineinfo.cu:10,lineinfo.cu:999
expect_stderr_line "--trace-lines: no code there" "ptxrun: error: --trace-lines: no instruction of the kernel (or of a function it calls) is on lineinfo.cu:999; its code in lineinfo.cu is on lines 6, 8-11"
# line 7 is oob_store's '{': inside the span of its code but without code; the message names the lines with code
expect_exit 2 "--trace-lines: a line without code inside the kernel" "$PTXRUN" $LI --entry oob_store --lanes "$tmp/li_oob.json" --trace-lines lineinfo.cu:$(($(cu_line 'void oob_store(') + 1))
expect_stderr_line "--trace-lines: a line without code inside the kernel" "ptxrun: error: --trace-lines: no instruction of the kernel (or of a function it calls) is on lineinfo.cu:7; its code in lineinfo.cu is on lines 6, 8-11"
expect_exit 2 "--trace-lines: another kernel's line" "$PTXRUN" $LI --entry oob_store --lanes "$tmp/li_oob.json" --trace-lines lineinfo.cu:$(cu_line 'if (flags[i] > 0)')
expect_exit 2 "--trace-ops unknown" "$PTXRUN" $LI --trace-ops shfl,nope
expect_stderr_line "--trace-ops unknown" "ptxrun: error: --trace-ops: 'nope' is not an instruction (ptxrun --list-ops lists them)"

# -- --trace values: one value for every lane once, a few values with their lanes, else a list;
# expected text from the instructions' meaning (tid.x = lane in one warp).
printf '.version 7.0\n.target sm_80\n.address_size 64\n.visible .entry tr()\n{\n\t.reg .u32 %%r<6>;\n\t.reg .pred %%p<2>;\n\tmov.u32 %%r1, 7;\n\tmov.u32 %%r2, %%tid.x;\n\tshr.u32 %%r3, %%r2, 4;\n\tsetp.lt.u32 %%p1, %%r2, 8;\n\t@%%p1 mov.u32 %%r5, 3;\n\tshfl.sync.bfly.b32 %%r4, %%r2, 1, 31, -1;\n\tbar.sync 0;\n\tsetp.gt.u32 %%p1, %%r2, 99;\n\t@%%p1 mov.u32 %%r5, 4;\n\tret;\n}\n' > "$tmp/tr.ptx"
expect_exit 0 "trace values" "$PTXRUN" --no-color "$tmp/tr.ptx" --trace
expect_stderr_line "trace: a uniform value once" "    %r1 = 7 (all)"
expect_stderr_line "trace: two values" "    %r3 = 0 (lanes 0-15), 1 (lanes 16-31)"
expect_stderr_line "trace: a predicate" "    %p1 = true (lanes 0-7), false (lanes 8-31)"
expect_stderr_line "trace: some lanes ran" "    %r5 = 3 (lanes 0-7)"
if [ "$(grep -c '^    %r5 =' "$tmp/err")" -eq 1 ]; then ok; else fail "trace: a write no lane's guard let through is shown"; fi
expect_stderr_line "trace: one value per lane" "    %r2 = [$(seq -s ' ' 0 31)]"
expect_stderr_line "trace: bfly 1 swaps pairs" "    %r4 = [$(seq 0 31 | awk '{ v = ($1 % 2) ? $1 - 1 : $1 + 1; s = (NR > 1) ? " " : ""; printf "%s%d", s, v }')]"
expect_exit 0 "trace --regs" "$PTXRUN" --no-color "$tmp/tr.ptx" --trace --regs %r3,%p1
if grep -q '^    %r[1245] =' "$tmp/err"; then fail "--regs in the trace: other registers shown"; else ok; fi
expect_stderr_line "trace --regs keeps %r3" "    %r3 = 0 (lanes 0-15), 1 (lanes 16-31)"
expect_exit 2 "trace --regs unknown" "$PTXRUN" --no-color "$tmp/tr.ptx" --trace --regs %r9
expect_exit 0 "trace ops" "$PTXRUN" --no-color "$tmp/tr.ptx" --trace-ops shfl,bar
if [ "$(grep '^step ' "$tmp/err" | sed 's/.*  //' | tr '\n' '|')" = "shfl.sync.bfly.b32 %r4, %r2, 1, 31, -1;|bar.sync 0;|" ]; then ok; else fail "--trace-ops shfl,bar"; cat "$tmp/err"; fi
expect_exit 0 "trace PTX lines" "$PTXRUN" --no-color "$tmp/tr.ptx" --trace --trace-lines 9-10,13
if [ "$(grep -o '^step [0-9]* *pc [0-9]* *line [0-9]*' "$tmp/err" | awk '{ print $NF }' | tr '\n' ' ')" = "9 10 13 " ]; then ok; else fail "--trace-lines 9-10,13"; cat "$tmp/err"; fi
expect_exit 2 "trace PTX lines without code" "$PTXRUN" --no-color "$tmp/tr.ptx" --trace-lines 9-10,30
expect_stderr_line "trace PTX lines without code" "ptxrun: error: --trace-lines: no instruction of the kernel (or of a function it calls) is on PTX line 30; its code is on PTX lines 8-17"
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n}\n' > "$tmp/no_code.ptx"
expect_exit 2 "trace PTX lines of a kernel without code" "$PTXRUN" "$tmp/no_code.ptx" --trace-lines 2-5
expect_stderr_line "trace PTX lines of a kernel without code" "ptxrun: error: --trace-lines: no instruction of the kernel (or of a function it calls) is on PTX lines 2-5: the kernel has no instruction"
expect_exit 0 "trace json" "$PTXRUN" --no-color "$tmp/tr.ptx" --trace=json --regs %r1,%r3,%r5,%r2
if python3 -c '
import json, sys
steps = [json.loads(line) for line in open(sys.argv[1])]
w = {k: v for s in steps for k, v in s["writes"].items()}
assert len(steps) == 10, len(steps)
assert steps[8]["instruction"] == "@%p1 mov.u32 %r5, 4;" and steps[8]["writes"] == {}, steps[8]
assert w["%r1"] == [{"value": 7, "lanes": "0xffffffff"}], w["%r1"]
assert w["%r3"] == [{"value": 0, "lanes": "0x0000ffff"}, {"value": 1, "lanes": "0xffff0000"}], w["%r3"]
assert w["%r5"] == [{"value": 3, "lanes": "0x000000ff"}], w["%r5"]
assert w["%r2"] == [{"value": l, "lanes": "0x%08x" % (1 << l)} for l in range(32)], w["%r2"]
assert "%p1" not in w and "%r4" not in w
' "$tmp/err"; then ok; else fail "trace json"; head -5 "$tmp/err"; fi
expect_exit 3 "trace json names the CUDA line" "$PTXRUN" $LI --entry oob_store --lanes "$tmp/li_oob.json" --trace=json --trace-ops st
if python3 -c '
import json, sys
steps = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
assert steps and all(s["source"] == "lineinfo.cu" and s["source_line"] == int(sys.argv[2]) for s in steps), steps
' "$tmp/err" "$(cu_line 'out[i + offset] = v;')"; then ok; else fail "trace json source"; head -3 "$tmp/err"; fi
# the first line of a trace of an endless loop through head: back at once (the run stops at its
# first failed write)
printf 'L: add.u32 a, a, 1;\nbra L;\n' > "$tmp/endless.ptx"
start=$(date +%s%N)
timeout 5 sh -c "\"$PTXRUN\" \"$tmp/endless.ptx\" --trace 2>&1 >/dev/null | head -1 >/dev/null"
rc=$?; ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ "$rc" -eq 0 ] && [ "$ms" -lt 1000 ]; then ok; else fail "--trace | head -1 on an endless loop: exit $rc after $ms ms"; fi

# -- ptxrun test: the samples and the kernel corpus; a broken case; TAP; JUnit
expect_exit 0 "ptxrun test samples tests/kernels" "$PTXRUN" test samples tests/kernels
if tail -n 1 "$tmp/out" | grep -qx "[2-9][0-9][0-9] passed, 0 failed"; then ok; else fail "test summary: $(tail -n 1 "$tmp/out")"; fi
mkdir -p "$tmp/cases"
cp samples/butterfly.ptx samples/butterfly.lanes.json "$tmp/cases/"
sed 's/\([0-9]\)\.0,/\1.5,/' samples/butterfly.expect.json > "$tmp/cases/butterfly.expect.json"
cp samples/scan.ptx samples/scan.lanes.json samples/scan.expect.json "$tmp/cases/"
printf 'add.s32 a, b;\n' > "$tmp/cases/broken.ptx"
printf '{"exit": 2, "diagnostic": "takes 3 operands, not 2"}\n' > "$tmp/cases/broken.expect.json"
expect_exit 1 "a broken case fails" "$PTXRUN" test -j 2 "$tmp/cases"
if grep -q "^FAIL $tmp/cases/butterfly.ptx: exit 1, expected 0: Rx lane 0: expected 168.5 (0x43288000), got 168.0 (0x43280000)" "$tmp/out"; then ok; else fail "failure line"; cat "$tmp/out"; fi
if tail -n 1 "$tmp/out" | grep -qx "2 passed, 1 failed"; then ok; else fail "broken summary"; cat "$tmp/out"; fi
expect_exit 1 "TAP" "$PTXRUN" test --tap "$tmp/cases"
if head -n 2 "$tmp/out" | grep -qx "1..3" && grep -q "^not ok 2 - $tmp/cases/butterfly.ptx" "$tmp/out" &&
   grep -q "^ok 1 - $tmp/cases/broken.ptx" "$tmp/out"; then ok; else fail "TAP output"; cat "$tmp/out"; fi
expect_exit 1 "JUnit" "$PTXRUN" test --junit="$tmp/junit.xml" "$tmp/cases"
if command -v xmllint >/dev/null 2>&1; then
    expect_exit 0 "JUnit XML is valid against tests/junit.xsd" xmllint --noout --schema tests/junit.xsd "$tmp/junit.xml"
else
    fail "xmllint is missing (scripts/deps.sh installs libxml2-utils)"
fi
if grep -q '<failure message="exit 1, expected 0' "$tmp/junit.xml"; then ok; else fail "JUnit failure element"; fi
# finding cases: each folder walked once (by device and inode), so links to a folder itself or
# above end; a case reached with and without links is named by its path without; a file also
# in a folder given runs once; a FIFO named k.ptx is passed over (named, it is read); no case: exit 2
mkdir -p "$tmp/found/real" "$tmp/found/fifo" "$tmp/found/empty"
printf 'mov.b32 Rx, 1;\n' > "$tmp/found/real/k.ptx"
ln -s . "$tmp/found/a"; ln -s . "$tmp/found/b"; ln -s real "$tmp/found/alias"; ln -s .. "$tmp/found/real/up"
ln -s ../.. "$tmp/found/real/top"   # a link to a folder above the one given: not walked
expect_exit 0 "test: folders that link to themselves" timeout 20 "$PTXRUN" test --tap -j 1 "$tmp/found"
if [ "$(grep -c '^ok' "$tmp/out")" = 1 ] && grep -qx "ok 1 - $tmp/found/real/k.ptx" "$tmp/out"; then ok; else fail "test: a linked case not once, by its path without links"; head -5 "$tmp/out"; fi
expect_exit 1 "test: a case named and found" "$PTXRUN" test --tap "$tmp/cases/scan.ptx" "$tmp/cases/broken.ptx" "$tmp/cases"
if head -n 2 "$tmp/out" | grep -qx "1..3" && grep -qx "ok 1 - $tmp/cases/scan.ptx" "$tmp/out"; then ok; else fail "test: a case named and found runs once, first as named"; cat "$tmp/out"; fi
cp samples/scan.ptx samples/scan.lanes.json samples/scan.expect.json "$tmp/found/fifo/"
mkfifo "$tmp/found/fifo/k.ptx"
expect_exit 0 "test: a FIFO named k.ptx is no case" timeout 20 "$PTXRUN" test "$tmp/found/fifo"
if tail -n 1 "$tmp/out" | grep -qx "1 passed, 0 failed"; then ok; else fail "test: the FIFO counted"; cat "$tmp/out"; fi
(timeout 20 sh -c "printf 'mov.b32 Rx, 1;\n' > \"$tmp/found/fifo/k.ptx\"" &)
expect_exit 0 "test: a FIFO named on the command line is read" timeout 20 "$PTXRUN" test "$tmp/found/fifo/k.ptx"
expect_exit 2 "test: no case" "$PTXRUN" test "$tmp/found/empty"
expect_stderr_line "test: no case" "ptxrun test: error: no case found: no NAME.ptx file below '$tmp/found/empty'"
rm "$tmp/found/fifo/scan.ptx"
expect_exit 2 "test: only a FIFO" timeout 20 "$PTXRUN" test "$tmp/found/empty" "$tmp/found/fifo"
expect_stderr_line "test: only a FIFO" "ptxrun test: error: no case found: no NAME.ptx file below '$tmp/found/empty' and '$tmp/found/fifo' ('$tmp/found/fifo/k.ptx' is no regular file: passed over)"
# a folder that cannot be read (here its path is past PATH_MAX: 18 folders of 243 bytes; as root,
# chmod cannot make one) may hold cases: the run is refused, not passed without them
mkdir -p "$tmp/found/deep"
printf 'mov.b32 Rx, 1;\n' > "$tmp/found/deep/k.ptx"
python3 -c 'import os, sys
os.chdir(sys.argv[1])
for i in range(18):
    os.mkdir("d%02d" % i + "x" * 240); os.chdir("d%02d" % i + "x" * 240)' "$tmp/found/deep"
expect_exit 2 "test: a folder that cannot be read" "$PTXRUN" test "$tmp/found/deep"
if grep -q "^ptxrun test: error: cannot read '$tmp/found/deep/d00x.*': File name too long$" "$tmp/err"; then ok; else fail "test: a folder that cannot be read: not said"; cut -c1-200 "$tmp/err"; fi
expect_stderr_line "test: a folder that cannot be read" "ptxrun test: error: a folder that cannot be read may hold cases: none is run"
# a folder's name with a newline and '#' cannot forge a TAP result line or directive, nor split a FAIL line
forged="$tmp/found/named/x
ok 2 - forged # SKIP"
mkdir -p "$forged"
printf 'bad;\n' > "$forged/k.ptx"
expect_exit 1 "test: a newline in a folder's name" "$PTXRUN" test --tap "$tmp/found/named"
if [ "$(grep -c '^\(not \)\{0,1\}ok ' "$tmp/out")" = 1 ] && grep -qxF "not ok 1 - $tmp/found/named/x\nok 2 - forged \# SKIP/k.ptx" "$tmp/out"; then ok; else fail "test: a newline in a folder's name: TAP lines"; cat "$tmp/out"; fi
expect_exit 1 "test: a newline in a folder's name, plain" "$PTXRUN" test "$tmp/found/named"
if grep -q "^FAIL $tmp/found/named/x\\\\nok 2 - forged # SKIP/k.ptx: exit 2" "$tmp/out" && [ "$(wc -l < "$tmp/out")" = 2 ]; then ok; else fail "test: a newline in a folder's name: FAIL line"; cat "$tmp/out"; fi

# -- limits and hostile input: each refused with a message that names the place, exit 2
# (input) or 3 (execution); nothing crashes, hangs or exhausts memory.
H='.version 8.0\n.target sm_80\n.address_size 64\n'
printf "$H.visible .entry k()\n{\n\t.reg .b32 %%r<2000000000>;\n\tret;\n}\n" > "$tmp/bigreg.ptx"
expect_exit 2 "register range" "$PTXRUN" --check --no-color "$tmp/bigreg.ptx"
expect_stderr_line "register range" "$tmp/bigreg.ptx:6:15: error: register range 2000000000 is too large"
awk 'BEGIN { print ".visible .entry k()\n{"; for (i = 0; i < 3; i++) print "\t.reg .b32 %r" i "<600000>;"; print "\tret;\n}" }' > "$tmp/manyregs.ptx"
expect_exit 2 "registers per function" "$PTXRUN" --check --no-color -w "$tmp/manyregs.ptx"
expect_stderr_line "registers per function" "$tmp/manyregs.ptx:4:12: error: '%r1' would make more than 1048576 registers in 'k'"
printf "$H.global .align 4 .b8 g[1073741824];\n.visible .entry k()\n{\n\tret;\n}\n" > "$tmp/bigglobal.ptx"
expect_exit 2 "variable too large" "$PTXRUN" --no-color "$tmp/bigglobal.ptx"
expect_stderr_line "variable too large" "$tmp/bigglobal.ptx:4:22: error: 'g' needs 1073741824 bytes; ptxrun holds at most 256 MiB per variable"
printf "$H.visible .entry k()\n{\n\t.local .align 4 .b8 l[16777216];\n\tret;\n}\n" > "$tmp/biglocal.ptx"
expect_exit 2 "local too large" "$PTXRUN" --no-color "$tmp/biglocal.ptx"
expect_stderr_line "local too large" "$tmp/biglocal.ptx:6:22: error: 'l' needs 16777216 bytes in each of the 32 lanes; ptxrun holds at most 256 MiB per variable (all lanes' copies together)"
printf "$H.global .b8 g[2000000000][2000000000][2000000000];\n.visible .entry k()\n{\n\tret;\n}\n" > "$tmp/hugedims.ptx"
expect_exit 2 "dimensions overflow" "$PTXRUN" --no-color "$tmp/hugedims.ptx"
expect_stderr_line "dimensions overflow" "$tmp/hugedims.ptx:4:13: error: 'g' is too large: ptxrun holds at most 256 MiB per variable"
{ printf "$H"; for i in 1 2 3 4 5; do printf '.global .align 4 .b8 g%d[250000000];\n' $i; done
  printf '.visible .entry k()\n{\n\tret;\n}\n'; } > "$tmp/allglobals.ptx"
expect_exit 2 "all variables too large" "$PTXRUN" --no-color "$tmp/allglobals.ptx"
expect_stderr_line "all variables too large" "$tmp/allglobals.ptx:8:22: error: with 'g5', the program's variables need more than the 1024 MiB ptxrun holds"
printf '{"buffers": {"big": {"type": "u64", "count": 67108864}}}\n' > "$tmp/bigbuf.json"
expect_exit 2 "buffer too large" "$PTXRUN" "$tmp/up.ptx" --lanes "$tmp/bigbuf.json"
expect_stderr_line "buffer too large" "ptxrun: error: $tmp/bigbuf.json: buffers.big: 536870912 bytes is more than the 256 MiB a buffer may have"
printf '{"buffers": {"big": {"type": "u32", "count": 100000000}}}\n' > "$tmp/bigbuf2.json"
expect_exit 2 "buffer count" "$PTXRUN" "$tmp/up.ptx" --lanes "$tmp/bigbuf2.json"
expect_stderr_line "buffer count" "ptxrun: error: $tmp/bigbuf2.json: buffers.big: give one of \"data\": [values], \"count\": N (1 to 2^26) and \"file\": \"x.npy\" (or \"x.bin\" with a \"type\")"
awk 'BEGIN { for (i = 0; i < 1048577; i++) print "ret;" }' > "$tmp/rets.ptx"
expect_exit 2 "instructions per function" "$PTXRUN" --check --no-color "$tmp/rets.ptx"
expect_stderr_line "instructions per function" "$tmp/rets.ptx:1048577:1: error: more than 1048576 instructions in 'snippet'; ptxrun takes at most that many"
expect_stderr_line "wide line number" "        | ^~~~"
awk 'BEGIN { for (i = 0; i < 1048577; i++) print "L" i ":"; print "ret;" }' > "$tmp/labels.ptx"
expect_exit 2 "labels per function" "$PTXRUN" --check --no-color "$tmp/labels.ptx"
expect_stderr_line "labels per function" "$tmp/labels.ptx:1048577:1: error: more than 1048576 labels in 'snippet'; ptxrun takes at most that many"
awk 'BEGIN { printf ".visible .entry k()\n{\n"; for (i = 0; i < 5000; i++) printf "{"; for (i = 0; i < 5000; i++) printf "}"; print "\nret;\n}" }' > "$tmp/nest.ptx"
expect_exit 2 "nesting" "$PTXRUN" --check --no-color -w "$tmp/nest.ptx"
expect_stderr_line "nesting" "$tmp/nest.ptx:3:1000: error: blocks nested more than 1000 deep"
awk 'BEGIN { printf ".version 8.0\n.target sm_80\n.visible .entry k()\n{\n"; for (i = 0; i < 999; i++) printf "{"; for (i = 0; i < 999; i++) printf "}"; print "\nret;\n}" }' > "$tmp/nest_ok.ptx"
expect_exit 0 "nesting at the limit" "$PTXRUN" --check -w "$tmp/nest_ok.ptx"
printf "$H.func f()\n{\n\tcall f;\n\tret;\n}\n.visible .entry k()\n{\n\tcall f;\n\tret;\n}\n" > "$tmp/recurse.ptx"
expect_exit 3 "call depth" "$PTXRUN" --no-color "$tmp/recurse.ptx"
# A call costs its .local bytes plus 8 of return address (parameters travel in registers, as
# in the ABI): 'f' has no .local, so 1024 bytes hold 128 calls and the 129th overflows; 64 hold 8.
expect_stderr_line "call depth" "$tmp/recurse.ptx:6:2: error: lane 0: the stack overflows: calling 'f' (8 bytes of .local and return address) at depth 129 needs 1032 bytes of stack; each thread has 1024 (--stack)"
expect_exit 3 "--stack" "$PTXRUN" --no-color --stack 64 "$tmp/recurse.ptx"
expect_stderr_line "--stack" "$tmp/recurse.ptx:6:2: error: lane 0: the stack overflows: calling 'f' (8 bytes of .local and return address) at depth 9 needs 72 bytes of stack; each thread has 64 (--stack)"
expect_exit 2 "--stack too large" "$PTXRUN" --stack 2000000 "$tmp/recurse.ptx"
expect_exit 2 "--stack with a space" "$PTXRUN" --stack ' 5' "$tmp/recurse.ptx"
# A lanes-file buffer may not take the name of a module variable: the kernel would read the
# variable, not the buffer.
printf "$H.const .align 4 .b32 coeffs[4];\n.global .align 4 .b32 table[4];\n.visible .entry k()\n{\n\tret;\n}\n" > "$tmp/modvars.ptx"
printf '{"buffers": {"coeffs": {"type": "u32", "count": 4}}}\n' > "$tmp/modvars1.json"
expect_exit 2 "buffer named like a .const" "$PTXRUN" "$tmp/modvars.ptx" --lanes "$tmp/modvars1.json"
expect_stderr_line "buffer named like a .const" "ptxrun: error: $tmp/modvars1.json: buffers.coeffs: the program already has a .const variable named 'coeffs'"
printf '{"buffers": {"table": {"type": "u32", "count": 4}}}\n' > "$tmp/modvars2.json"
expect_exit 2 "buffer named like a .global" "$PTXRUN" "$tmp/modvars.ptx" --lanes "$tmp/modvars2.json"
expect_stderr_line "buffer named like a .global" "ptxrun: error: $tmp/modvars2.json: buffers.table: the program already has a global named 'table'"
# A frame's room grows as calls need it: a .func taking a 2 KiB struct, in 1024 threads, runs.
printf "$H.func (.param .b32 rv) first(.param .align 8 .b8 s[2048])\n{\n\t.reg .b32 %%r1;\n\tld.param.u32 %%r1, [s+2044];\n\tst.param.u32 [rv], %%r1;\n\tret;\n}\n.visible .entry k()\n{\n\t.reg .b32 %%r<3>;\n\tmov.u32 %%r1, %%tid.x;\n\t{\n\t.param .align 8 .b8 a[2048];\n\t.param .b32 r;\n\tst.param.u32 [a+2044], %%r1;\n\tcall (r), first, (a);\n\tld.param.u32 %%r2, [r];\n\t}\n\tret;\n}\n" > "$tmp/bigframe.ptx"
printf '{"block": [1024]}\n' > "$tmp/block1024.json"
expect_exit 0 "large frames, 1024 threads" "$PTXRUN" "$tmp/bigframe.ptx" --lanes "$tmp/block1024.json" --threads 1023 --regs %r2
if grep -qE "^1023 +0x000003ff" "$tmp/out"; then ok; else fail "large frames: thread 1023 read its own argument"; cat "$tmp/out"; fi
# A call through an address that is not a function's, even one that truncates to a function's
# index (through a prototype of no results, '()_', as nvcc writes it for a void function).
printf "$H.func f()\n{\n\tret;\n}\n.visible .entry k(.param .u64 p)\n{\n\t.reg .b64 %%rd1;\n\tld.param.u64 %%rd1, [p];\n\tprototype_0 : .callprototype ()_ ();\n\tcall %%rd1, prototype_0;\n\tret;\n}\n" > "$tmp/fptr.ptx"
printf '{"params": ["0xf01000000010"]}\n' > "$tmp/fptr.json"
expect_exit 3 "call through a non-function" "$PTXRUN" --no-color "$tmp/fptr.ptx" --lanes "$tmp/fptr.json"
expect_stderr_line "call through a non-function" "$tmp/fptr.ptx:13:2: error: lane 0 calls 0xf01000000010, which is not the address of a function"
# What ptxas refuses: an instruction's state space against the variable it names, atomics on
# .local, .extern .shared in a function, a body declaration named like a parameter, and ld.param
# through an address in a .func (its parameters are in .local).
printf "$H.shared .b32 s;\n.visible .entry k()\n{\n\t.local .b32 l;\n\t.reg .b32 %%r1;\n\tld.shared.u32 %%r1, [l];\n\tld.local.u32 %%r1, [s];\n\tret;\n}\n" > "$tmp/spaces.ptx"
expect_exit 2 "state space mismatch" "$PTXRUN" --no-color "$tmp/spaces.ptx"
expect_stderr_line "state space mismatch" "$tmp/spaces.ptx:9:2: error: 'ld.shared.u32' names 'l', a .local variable: the state spaces differ"
expect_stderr_line "state space mismatch" "$tmp/spaces.ptx:10:2: error: 'ld.local.u32' names 's', a .shared variable: the state spaces differ"
# --check says what a run would refuse before it starts (it lowers every kernel), with the same
# messages: the mismatched state spaces, half arithmetic, a call of a function without a body.
expect_exit 2 "state space mismatch at --check" "$PTXRUN" --check --no-color "$tmp/spaces.ptx"
expect_stderr_line "state space mismatch at --check" "$tmp/spaces.ptx:9:2: error: 'ld.shared.u32' names 'l', a .local variable: the state spaces differ"
printf '.reg .b128 q;\ncvt.u64.u32 q, r;\n' > "$tmp/wide.ptx"
expect_exit 2 "cvt into .b128 at --check" "$PTXRUN" --check --no-color "$tmp/wide.ptx"
expect_stderr_line "cvt into .b128 at --check" "$tmp/wide.ptx:2:1: error: ptxrun cannot execute 'cvt.u64.u32' with a .b128 register yet"
# A later kernel is lowered with what it reaches (a .func, a variable): its refusal is reported
# (the expected line is ptxrun's wording for the instruction on line 30; ptxas accepts the file).
printf ".version 8.3\n.target sm_90\n.address_size 64\n.global .align 4 .u32 g[4];\n.func (.param .b32 r) f(.param .b32 a)\n{\n\t.reg .b32 %%r<3>;\n\tld.param.b32 %%r1, [a];\n\tld.global.u32 %%r2, [g];\n\tadd.s32 %%r2, %%r2, %%r1;\n\tst.param.b32 [r], %%r2;\n\tret;\n}\n.visible .entry k1()\n{\n\tret;\n}\n.visible .entry k2()\n{\n\t.reg .b128 q;\n\t.reg .b32 %%r<3>;\n\tmov.u32 %%r1, 1;\n\t{\n\t.param .b32 p;\n\t.param .b32 rv;\n\tst.param.b32 [p], %%r1;\n\tcall (rv), f, (p);\n\tld.param.b32 %%r2, [rv];\n\t}\n\tcvt.u64.u32 q, %%r2;\n\tst.global.u32 [g+4], %%r2;\n\tret;\n}\n" > "$tmp/second.ptx"
expect_exit 2 "second kernel at --check" "$PTXRUN" --check --no-color "$tmp/second.ptx"
expect_stderr_line "second kernel at --check" "$tmp/second.ptx:30:2: error: ptxrun cannot execute 'cvt.u64.u32' with a .b128 register yet"
printf "$H.visible .entry k()\n{\n\t.local .b32 l;\n\t.reg .b32 %%r1;\n\t.reg .b64 %%rd1;\n\tmov.u64 %%rd1, l;\n\tatom.local.add.u32 %%r1, [%%rd1], 3;\n\tret;\n}\n" > "$tmp/atomlocal.ptx"
expect_exit 2 "atom.local" "$PTXRUN" --no-color "$tmp/atomlocal.ptx"
expect_stderr_line "atom.local" "$tmp/atomlocal.ptx:10:2: error: 'atom.local.add.u32': atomics are defined on .global and .shared memory (or a generic address of either) only"
printf "$H.visible .entry k()\n{\n\t.local .b32 l;\n\t.reg .b32 %%r1;\n\t.reg .b64 %%rd<3>;\n\tmov.u64 %%rd1, l;\n\tcvta.local.u64 %%rd2, %%rd1;\n\tatom.add.u32 %%r1, [%%rd2], 3;\n\tret;\n}\n" > "$tmp/atomgeneric.ptx"
expect_exit 3 "atom on a generic .local address" "$PTXRUN" --no-color "$tmp/atomgeneric.ptx"
expect_stderr_line "atom on a generic .local address" "$tmp/atomgeneric.ptx:11:2: error: lane 0 (pc 2): 'atom.add.u32' on a .local address (0x300000000000000): atomics are defined on .global and .shared memory only"
printf "$H.func f()\n{\n\t.extern .shared .align 4 .b8 e[];\n\tret;\n}\n" > "$tmp/externfn.ptx"
expect_exit 2 "extern in a function" "$PTXRUN" --check --no-color "$tmp/externfn.ptx"
expect_stderr_line "extern in a function" "$tmp/externfn.ptx:6:31: error: '.extern .shared' inside a function: ptxas takes extern variables at module scope only"
printf "$H.func f(.param .b32 x)\n{\n\t{\n\t.param .b32 x;\n\t}\n\tret;\n}\n" > "$tmp/redeclared.ptx"
expect_exit 2 "parameter redeclared" "$PTXRUN" --check --no-color "$tmp/redeclared.ptx"
expect_stderr_line "parameter redeclared" "$tmp/redeclared.ptx:7:14: error: 'x' is a parameter of 'f': ptxas takes a declaration of that name in its body for the parameter"
printf "$H.func f(.param .b32 x)\n{\n\t.reg .b32 %%r1;\n\t.reg .b64 %%rd1;\n\tmov.u64 %%rd1, x;\n\tld.param.u32 %%r1, [%%rd1];\n\tret;\n}\n.visible .entry k()\n{\n\t.param .b32 a;\n\tst.param.u32 [a], 1;\n\tcall f, (a);\n\tret;\n}\n" > "$tmp/paramreg.ptx"
expect_exit 2 "ld.param through an address in a .func" "$PTXRUN" --no-color "$tmp/paramreg.ptx"
expect_stderr_line "ld.param through an address in a .func" "$tmp/paramreg.ptx:9:2: error: 'ld.param.u32' through an address in a .func: a function's parameters are in .local, where the address of one (mov) points; read it with ld.local, or by name"
"$PTXRUN" --no-color "$tmp/loop.ptx" --max-steps 500 >/dev/null 2>"$tmp/err"
expect_stderr_line "--max-steps" "$tmp/loop.ptx:3:1: error: warp 0 stopped after 500 warp-steps of its own (--max-steps counts each warp's); lanes still running: 0xffffffff"
# A long line (1 MB) is shown as a window around the mistake; the file has no fixed-size buffer.
awk 'BEGIN { printf "add.u32 d, a, b;"; for (i = 0; i < 100000; i++) printf "          "; print "@@" }' > "$tmp/longline.ptx"
expect_exit 2 "long line" "$PTXRUN" --check --no-color "$tmp/longline.ptx"
if [ "$(awk 'length > 200' "$tmp/err" | wc -l)" -eq 0 ] && grep -q ":1:1000018: error: " "$tmp/err"; then ok
else fail "long line: not windowed"; head -c 600 "$tmp/err"; fi
# NUL, invalid UTF-8, a stray non-ASCII character, a control character; a BOM and CRLF are fine.
printf 'add.u32 d, a, b;\000\n' > "$tmp/nul.ptx"
expect_exit 2 "NUL byte" "$PTXRUN" --check --no-color "$tmp/nul.ptx"
expect_stderr_line "NUL byte" "$tmp/nul.ptx:1:17: error: NUL byte in input"
expect_stderr_line "NUL byte shown" "    1 | add.u32 d, a, b;?"
printf 'add.u32 d, a, b; \377\n' > "$tmp/utf8.ptx"
expect_exit 2 "invalid UTF-8" "$PTXRUN" --check --no-color "$tmp/utf8.ptx"
expect_stderr_line "invalid UTF-8" "$tmp/utf8.ptx:1:18: error: invalid UTF-8 byte 0xff in program"
expect_stderr_line "invalid UTF-8 shown" "    1 | add.u32 d, a, b; ?"
printf 'add.u32 d\303\251, a, b; \001\n' > "$tmp/nonascii.ptx"
expect_exit 2 "non-ASCII" "$PTXRUN" --check --no-color "$tmp/nonascii.ptx"
expect_stderr_line "non-ASCII" "$tmp/nonascii.ptx:1:10: error: stray non-ASCII character 'é' in program"
expect_stderr_line "control character" "$tmp/nonascii.ptx:1:20: error: stray control character 0x01 in program"
expect_stderr_line "caret counts characters" "      | $(printf '%18s' '')^"
printf '\357\273\277add.u32 d, a, b;\r\n' > "$tmp/bom.ptx"
printf '{"regs": {"a": 40, "b": 2}}\n' > "$tmp/ab.json"
expect_exit 0 "BOM and CRLF" "$PTXRUN" "$tmp/bom.ptx" --lanes "$tmp/ab.json" --regs=d
if grep -qxF "31      42" "$tmp/out"; then ok; else fail "BOM and CRLF: result"; cat "$tmp/out"; fi
# The lanes file: duplicate keys, wrong types, NaN for an integer, 64-bit values in 32 bits.
printf 'add.u32 d, a, b;\n' > "$tmp/add.ptx"
lanes_error() {   # lanes_error DESCRIPTION JSON MESSAGE
    printf '%s\n' "$2" > "$tmp/l.json"
    expect_exit 2 "$1" "$PTXRUN" "$tmp/add.ptx" --lanes "$tmp/l.json"
    expect_stderr_line "$1" "ptxrun: error: $tmp/l.json$3"
}
lanes_error "duplicate key" '{"regs": {"a": 1, "a": 2}}' ':1:21: duplicate object key near '"'"'"a"'"'"
lanes_error "duplicate top-level key" '{"regs": {}, "regs": {}}' ':1:19: duplicate object key near '"'"'"regs"'"'"
lanes_error "wrong type" '{"regs": {"a": true}}' ': regs.a: expected a number, a string or null'
lanes_error "wrong type in array" '{"regs": {"a": [0,1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7,8,9,0,{}]}}' ': regs.a[31]: expected a number, a string or null'
lanes_error "regs not an object" '{"regs": [1, 2]}' ': regs: expected an object of register names'
lanes_error "nan for an integer" '{"regs": {"a": "nan"}}' ': regs.a: "nan" is not a value (use a number, "0x..." bits, or null)'
lanes_error "NaN token" '{"regs": {"a": NaN}}' ':1:18: invalid token near '"'"'NaN'"'"
lanes_error "real for an integer" '{"regs": {"a": 1.5}}' ': regs.a: 1.5 is a real, but the register is .u32'
lanes_error "64-bit value" '{"regs": {"a": 4294967296}}' ': regs.a: 4294967296 does not fit in .u32'
lanes_error "64-bit bits" '{"regs": {"a": "0x100000000"}}' ': regs.a: 0x100000000 does not fit in 32 bits'
lanes_error "negative for unsigned" '{"regs": {"a": -1}}' ': regs.a: -1 does not fit in .u32'
lanes_error "not an object" '[1, 2, 3]' ': expected a JSON object {"regs": ..., "preds": ...}'
lanes_error "unknown key" '{"regz": {}}' ': unknown key "regz" (expected block, grid, cluster, cooperative, active, regs, preds, buffers, params, dynamic_shared, surfaces, textures, samplers)'
lanes_error "truncated" '{"regs": {"a": 1}' ':2:0: '"'"'}'"'"' expected near end of file'
# A buffer's table: a run of lines equal to the one before is one "*"; the last line stays.
printf '{"buffers": {"z": {"type": "u32", "count": 40}, "d": {"type": "u16", "data": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]}}}\n' > "$tmp/zeros.json"
expect_exit 0 "collapsed buffer rows" "$PTXRUN" "$tmp/add.ptx" --lanes "$tmp/zeros.json" --regs=d --buffers all
zero_row="$(printf ' %11s' 0 0 0 0 0 0 0 0)"
{ printf '\nbuffer z: .u32[40]\n     0:%s\n*\n    32:%s\n' "$zero_row" "$zero_row"
  printf '\nbuffer d: .u16[17]\n     0:%s\n*\n    16:%s\n' "$zero_row" "$(printf ' %11s' 1)"; } > "$tmp/zeros.want"
sed -n '/^buffer z/,/^1 warp-steps/p' "$tmp/out" | sed '$d' | sed '1i\
' > "$tmp/zeros.got"
if cmp -s "$tmp/zeros.want" "$tmp/zeros.got"; then ok; else fail "collapsed buffer rows"; diff "$tmp/zeros.want" "$tmp/zeros.got"; fi
"$PTXRUN" "$tmp/add.ptx" --lanes "$tmp/zeros.json" --json > "$tmp/zeros.out.json"
if [ "$(grep '"z"' "$tmp/zeros.out.json" | sed 's/.*"data": \[//; s/\].*//' | tr ',' '\n' | grep -c '^ *0$')" -eq 40 ]; then ok
else fail "--json lists every element"; grep '"z"' "$tmp/zeros.out.json"; fi

# Long values (s64 minimum) are not cut off, so rows that differ are never collapsed.
M=-9223372036854775808
printf '{"buffers": {"s": {"type": "s64", "data": [%s,%s,%s,%s,%s,1,1,1, %s,%s,%s,%s,%s,2,2,2, %s,%s,%s,%s,%s,3,3,3, 0,0,0,0,0,0,0,0]}}}\n' \
    $M $M $M $M $M $M $M $M $M $M $M $M $M $M $M > "$tmp/s64.json"
expect_exit 0 "long buffer values" "$PTXRUN" "$tmp/add.ptx" --lanes "$tmp/s64.json" --regs=d --buffers=s
if grep -qxF "     8:$(printf ' %s' $M $M $M $M $M) $(printf ' %11s' 2 2 2 | sed 's/^ //')" "$tmp/out" &&
   grep -qxF "    16:$(printf ' %s' $M $M $M $M $M) $(printf ' %11s' 3 3 3 | sed 's/^ //')" "$tmp/out" && ! grep -q '^\*$' "$tmp/out"
then ok; else fail "long buffer values"; cat "$tmp/out"; fi
# All buffers together: refused before any is allocated.
printf '{"buffers": {"a": {"type": "u64", "count": 33554432}, "b": {"type": "u64", "count": 33554432}, "c": {"type": "u64", "count": 33554432}, "d": {"type": "u64", "count": 33554432}, "e": {"type": "u8", "count": 1}}}\n' > "$tmp/allbufs.json"
expect_exit 2 "all buffers too large" "$PTXRUN" "$tmp/add.ptx" --lanes "$tmp/allbufs.json"
expect_stderr_line "all buffers too large" "ptxrun: error: $tmp/allbufs.json: buffers.e: with it, the buffers need more than the 1024 MiB they may have together"
# Snippet registers made by use count against the limit too.
printf '.reg .b32 %%g<1048576>;\nadd.u32 %%x, %%y, 1;\n.reg .b32 %%z;\n' > "$tmp/implicit.ptx"
expect_exit 2 "implicit registers over the limit" "$PTXRUN" --check --no-color "$tmp/implicit.ptx"
expect_stderr_line "implicit registers over the limit" "$tmp/implicit.ptx:2:9: error: '%x' would make more than 1048576 registers in 'snippet'"
expect_stderr_line "declared registers over the limit" "$tmp/implicit.ptx:3:11: error: '%z' would make more than 1048576 registers in 'snippet'"
# C1 controls and bidirectional overrides are named, never echoed to the terminal.
printf 'add.u32 %%x, \302\23331m, 1; \342\200\256x\n' > "$tmp/c1.ptx"
expect_exit 2 "invisible characters" "$PTXRUN" --check --no-color "$tmp/c1.ptx"
expect_stderr_line "C1 control" "$tmp/c1.ptx:1:13: error: stray invisible character U+009B in program"
expect_stderr_line "bidi override" "$tmp/c1.ptx:1:23: error: stray invisible character U+202E in program"
expect_stderr_line "invisible characters shown as ?" "    1 | add.u32 %x, ?31m, 1; ?x"

# Found by fuzzing: cvt with one type read a type table out of bounds (the checker wants two);
# an unknown suffix of an executed instruction was dropped instead of reported.
printf '.reg .b32 r; .reg .b64 rd;\ncvt.u32 r, rd;\n' > "$tmp/cvt1.ptx"
expect_exit 2 "cvt with one type" "$PTXRUN" --check --no-color "$tmp/cvt1.ptx"
expect_stderr_line "cvt with one type" "$tmp/cvt1.ptx:2:1: error: 'cvt.u32' needs one of .u8, .u16, .u32, .u64, .s8, .s16, .s32, .s64, ..."
printf '.reg .b32 r; .reg .b64 rd;\ncvt.foo.u32.u64 r, rd;\n' > "$tmp/cvt2.ptx"
expect_exit 2 "unknown cvt suffix" "$PTXRUN" --check --no-color "$tmp/cvt2.ptx"
expect_stderr_line "unknown cvt suffix" "$tmp/cvt2.ptx:2:4: error: unknown modifier '.foo' for 'cvt'"
printf '.reg .b16 h; .reg .f32 f; .reg .b32 t;\ncvt.rn.relu.f16.f32 h, f;\ncvt.rna.satfinite.tf32.f32 t, f;\n' > "$tmp/cvt3.ptx"
expect_exit 0 "cvt .relu, .rna, .satfinite: --check takes them (issue 13)" "$PTXRUN" --check "$tmp/cvt3.ptx"
# Found by fuzzing: match/redux.sync/elect.sync with too few operands read past them; --check counts them.
expect_exit 2 "sync ops with wrong operand counts" "$PTXRUN" --check --no-color tests/fuzz/regressions/fuzz_pipeline/sync_ops_with_wrong_operand_counts.ptx
expect_stderr_line "match with a wrong type" "tests/fuzz/regressions/fuzz_pipeline/sync_ops_with_wrong_operand_counts.ptx:8:11: error: unknown modifier '.s21' for 'match'"
expect_stderr_line "match with one operand" "tests/fuzz/regressions/fuzz_pipeline/sync_ops_with_wrong_operand_counts.ptx:9:2: error: 'match.all.sync.b64' takes 3 operands, not 1"
expect_stderr_line "redux.sync with two" "tests/fuzz/regressions/fuzz_pipeline/sync_ops_with_wrong_operand_counts.ptx:10:2: error: 'redux.sync.add.u32' takes 3 operands, not 2"
expect_stderr_line "elect.sync with three" "tests/fuzz/regressions/fuzz_pipeline/sync_ops_with_wrong_operand_counts.ptx:11:2: error: 'elect.sync' takes 2 operands, not 3"
expect_exit 2 "lanes file is a directory" "$PTXRUN" "$tmp/add.ptx" --lanes "$tmp"
expect_stderr_line "lanes file is a directory" "ptxrun: error: cannot read '$tmp': Is a directory"
expect_exit 2 "lanes file missing" "$PTXRUN" "$tmp/add.ptx" --lanes "$tmp/none.json"
expect_stderr_line "lanes file missing" "ptxrun: error: cannot open '$tmp/none.json': No such file or directory"
expect_exit 2 "--max-steps beyond 64 bits" "$PTXRUN" "$tmp/add.ptx" --max-steps 99999999999999999999999
expect_stderr_line "--max-steps beyond 64 bits" "ptxrun: error: --max-steps needs a positive number, not '99999999999999999999999'"
# Output that cannot be written: a full disk, a reader that goes away.
if [ -w /dev/full ]; then
    expect_exit 2 "full disk" sh -c "\"$PTXRUN\" \"$tmp/add.ptx\" --lanes \"$tmp/ab.json\" --json > /dev/full"
    expect_stderr_line "full disk" "ptxrun: error: cannot write the output: No space left on device"
    printf 'L: add.u32 a, a, 1;\nbra L;\n' > "$tmp/endless.ptx"
    expect_exit 2 "--trace of an endless loop to a full disk stops" timeout 10 sh -c "\"$PTXRUN\" \"$tmp/endless.ptx\" --trace 2> /dev/full > /dev/null"
    expect_exit 2 "ptxrun test's report to a full disk" sh -c "\"$PTXRUN\" test tests/misc > /dev/full"
    expect_stderr_line "ptxrun test's report to a full disk" "ptxrun test: error: cannot write the report: No space left on device"
    for args in --help --version --list-ops "test --help"; do
        expect_exit 2 "ptxrun $args to a full disk" sh -c "\"$PTXRUN\" $args > /dev/full"
        expect_stderr_line "ptxrun $args to a full disk" "ptxrun: error: cannot write the output: No space left on device"
    done
    expect_exit 2 "ptxrun test's JUnit file on a full disk" "$PTXRUN" test --junit /dev/full tests/misc
    expect_stderr_line "ptxrun test's JUnit file on a full disk" "ptxrun test: error: cannot write '/dev/full': No space left on device"
    # A fault stays exit 3 when the output cannot be written too; the write error is still said.
    printf 'trap;\n' > "$tmp/trapped.ptx"
    expect_exit 3 "a fault with the output to a full disk" sh -c "\"$PTXRUN\" \"$tmp/trapped.ptx\" > /dev/full"
    expect_stderr_line "a fault with the output to a full disk" "ptxrun: error: cannot write the output: No space left on device"
fi
printf 'trap;\n' > "$tmp/trapped.ptx"
expect_exit 3 "a fault with standard output closed" sh -c "\"$PTXRUN\" \"$tmp/trapped.ptx\" >&-"
expect_stderr_line "a fault with standard output closed" "ptxrun: error: cannot write the output: Bad file descriptor"
expect_exit 2 "a run with standard output closed" sh -c "\"$PTXRUN\" \"$tmp/add.ptx\" --lanes \"$tmp/ab.json\" >&-"
expect_stderr_line "a run with standard output closed" "ptxrun: error: cannot write the output: Bad file descriptor"
awk 'BEGIN { printf "{\"buffers\": {\"big\": {\"type\": \"u32\", \"count\": 200000}}}\n" }' > "$tmp/bigout.json"
# A closed pipe (| head) ends ptxrun quietly, by SIGPIPE as grep and jq (the shell's 141); a full
# disk stays an error (above).
( "$PTXRUN" "$tmp/add.ptx" --lanes "$tmp/bigout.json" --json 2>"$tmp/err"; echo $? > "$tmp/rc" ) | head -c 1 >/dev/null
if [ "$(cat "$tmp/rc")" -eq 141 ] && [ ! -s "$tmp/err" ]; then ok; else fail "closed pipe: exit $(cat "$tmp/rc"), expected 141 and no message"; cat "$tmp/err"; fi
python3 -c 'import json; print(json.dumps({"buffers": {"big": {"type": "u32", "data": list(range(50000))}}}))' > "$tmp/distinct.json"
( "$PTXRUN" "$tmp/add.ptx" --lanes "$tmp/distinct.json" --buffers all 2>"$tmp/err"; echo $? > "$tmp/rc" ) | head -n 3 >/dev/null
if [ "$(cat "$tmp/rc")" -eq 141 ] && [ ! -s "$tmp/err" ]; then ok; else fail "a long table | head: exit $(cat "$tmp/rc"), expected 141 and no message"; cat "$tmp/err"; fi
printf 'L: add.u32 a, a, 1;\nbra L;\n' > "$tmp/endless.ptx"
( timeout 10 "$PTXRUN" "$tmp/endless.ptx" --trace 2>&1 >/dev/null; echo $? > "$tmp/rc" ) | head -1 > /dev/null
if [ "$(cat "$tmp/rc")" -eq 141 ]; then ok; else fail "--trace of an endless loop into a closed pipe: exit $(cat "$tmp/rc"), expected 141"; fi

# -- make demo shows its two mistakes with their exit codes, never as make's "Error 2 (ignored)"
#    (make prints that for a recipe line that starts with '-'): the demo's recipe has none
if awk '/^demo:/ { in_demo = 1; next } /^[^\t]/ { in_demo = 0 } in_demo && /^\t-/ { bad = 1 } END { exit bad }' Makefile &&
   grep -q 'exit $$? (bad input), as expected' Makefile; then ok; else fail "make demo ignores an error"; fi
# -- a wrong name gets a message that helps: CUDA source, --entry, --regs
expect_exit 2 "CUDA source instead of PTX" "$PTXRUN" tests/kernels/atomics.cu
expect_stderr_line "CUDA source instead of PTX" "ptxrun: error: tests/kernels/atomics.cu is CUDA C++, not PTX: compile it with nvcc first, e.g. 'nvcc -ptx -arch=sm_80 tests/kernels/atomics.cu -o kernel.ptx', and run the .ptx"
printf '#include <cstdio>\n__global__ void k() {}\n' > "$tmp/kernel.txt"
expect_exit 2 "CUDA source on standard input" sh -c "\"$PTXRUN\" - < \"$tmp/kernel.txt\""
expect_stderr_line "CUDA source on standard input" "ptxrun: error: <stdin> is CUDA C++, not PTX: compile it with nvcc first, e.g. 'nvcc -ptx -arch=sm_80 kernel.cu -o kernel.ptx', and run the .ptx"
expect_exit 2 "--entry of no kernel" "$PTXRUN" tests/kernels/atomics.sm_80.ptx --entry nope
expect_stderr_line "--entry of no kernel" "ptxrun: error: no kernel (.entry) named 'nope'; the module's kernels:"
expect_stderr_line "--entry of no kernel, the kernels" "  kernel"
expect_exit 2 "--regs of an unknown name" "$PTXRUN" samples/scan.ptx --lanes samples/scan.lanes.json --regs Rx,rx
expect_stderr_line "--regs of an unknown name" "ptxrun: error: --regs: 'rx' is not a register or predicate of 'snippet' (close: 'Rx')"
expect_exit 2 "--regs with nothing close" "$PTXRUN" samples/scan.ptx --lanes samples/scan.lanes.json --regs NOPE
expect_stderr_line "--regs with nothing close" "ptxrun: error: --regs: 'NOPE' is not a register or predicate of 'snippet'"
sed 's/"dynamic_shared": [0-9]*/"dynamic_shared": 0/' tests/kernels/fence_reduction.lanes.json > "$tmp/nodyn.json"
expect_exit 3 "extern .shared without dynamic_shared" "$PTXRUN" tests/kernels/fence_reduction.sm_80.ptx --lanes "$tmp/nodyn.json"
grep -qF 'which is empty: the kernel'"'"'s extern .shared arrays take their bytes from --shared BYTES (the lanes file'"'"'s "dynamic_shared")' "$tmp/err" && ok || fail "extern .shared without dynamic_shared: --shared and the key are not named"
# the region in the form of the address: a .shared address, not the generic window's
grep -q "bytes at 0x[0-9a-f]* (.shared), outside every region; the nearest is 'dynamic .shared' at 0x[0-9a-f]\{1,8\}\.\.0x[0-9a-f]\{1,8\}," "$tmp/err" && ok || fail "extern .shared without dynamic_shared: the region not as a .shared address"; 
# -- JSON integers up to 2^64 - 1 (as Python writes u64 values); an f32 from one rounded once
#    (2^63 + 2^39 + 1 is above the half-way point, so 2^63 + 2^40, which rounding through a
#    double first would miss: it would tie to 2^63)
printf '.reg .u64 a;\n.reg .f32 f;\n.reg .u32 w;\nadd.u64 a, a, 1;\nmov.f32 f, f;\n' > "$tmp/u64.ptx"
printf '{"regs": {"a": 18446744073709551614, "f": 9223372586610589697}}\n' > "$tmp/u64.json"
printf '{"regs": {"a": 18446744073709551615, "f": "0x5f000001"}}\n' > "$tmp/u64.expect.json"
expect_exit 0 "u64 JSON integers in the lanes and expect files" "$PTXRUN" "$tmp/u64.ptx" --lanes "$tmp/u64.json" --expect "$tmp/u64.expect.json"
#    an int64 into a .bf16 rounded once too: 2^62 + 2^54 + 1 is above the half-way point
#    between 2^62 and 2^62 + 2^55 (0x5e80, 0x5e81); through a double it would tie to 0x5e80
printf '.reg .bf16 h;\nmov.b16 h, h;\n' > "$tmp/bf16.ptx"
printf '{"regs": {"h": 4629700416936869889}}\n' > "$tmp/bf16.json"
printf '{"regs": {"h": "0x5e81"}}\n' > "$tmp/bf16.expect.json"
expect_exit 0 "an int64 into a .bf16, rounded once" "$PTXRUN" "$tmp/bf16.ptx" --lanes "$tmp/bf16.json" --expect "$tmp/bf16.expect.json"
printf '{"regs": {"w": 9223372036854775808}}\n' > "$tmp/u64w.json"
expect_exit 2 "a u64 JSON integer for a .u32" "$PTXRUN" "$tmp/u64.ptx" --lanes "$tmp/u64w.json"
expect_stderr_line "a u64 JSON integer for a .u32" "ptxrun: error: $tmp/u64w.json: regs.w: 9223372036854775808 does not fit in .u32"
printf '{"regs": {"a": 18446744073709551616}}\n' > "$tmp/u65.json"
expect_exit 2 "a JSON integer past 2^64 - 1" "$PTXRUN" "$tmp/u64.ptx" --lanes "$tmp/u65.json"
# -- --version, --opt=value, --entry, --color, --jobs
expect_exit 0 "--version" "$PTXRUN" --version
if grep -q '^ptxrun [0-9][0-9.]* (PTX ISA 9.0; warps, blocks and grids)$' "$tmp/out"; then ok; else fail "--version text"; fi
expect_exit 0 "--opt=value forms" "$PTXRUN" -w --lanes=samples/scan.lanes.json --expect=samples/scan.expect.json --regs=Rx --entry=snippet --max-steps=1000 samples/scan.ptx
expect_exit 0 "--color" "$PTXRUN" --color --check samples/scan.ptx
expect_exit 0 "test --jobs" "$PTXRUN" test --jobs 1 samples
expect_exit 0 "test --help" "$PTXRUN" test --help

# -- thread blocks: several warps, barriers, grids (tests/blocks/)
B=tests/blocks
printf '{"block": [96]}\n' > "$tmp/b96.json"
expect_exit 3 "barrier deadlock" "$PTXRUN" $B/barrier_deadlock.ptx --lanes "$tmp/b96.json"
expect_stderr_line "barrier deadlock" "$B/barrier_deadlock.ptx:12:5: error: deadlock: no thread can move"
expect_stderr_line "barrier deadlock: who waits" "$B/barrier_deadlock.ptx:12:5: note: warp 0 lanes 0-31 wait here at barrier 1 for 64 threads; 32 have arrived"
expect_stderr_line "barrier deadlock: where the others are" "$B/barrier_deadlock.ptx:12:5: note: barrier 1 never completes: warp 1 lanes 0-31 exited; warp 2 lanes 0-31 at line 16 ('bar.sync')"
expect_stderr_line "barrier deadlock: second barrier" "$B/barrier_deadlock.ptx:16:5: note: warp 2 lanes 0-31 wait here at barrier 2 for 64 threads; 32 have arrived"
printf '{"block": [64]}\n' > "$tmp/b64.json"
expect_exit 3 "sm_70 counts threads: 33 of 64" "$PTXRUN" $B/barrier_counting.ptx --lanes "$tmp/b64.json"
expect_stderr_line "sm_70 counts threads" "$B/barrier_counting.ptx:16:5: note: warp 0 lane 0 waits here at barrier 1 for 64 threads; 33 have arrived"
expect_stderr_line "sm_70 counts threads: exited lanes" "$B/barrier_counting.ptx:16:5: note: barrier 1 never completes: warp 0 lanes 1-31 exited"
expect_exit 0 "sm_60 counts warps: 2 x 32" "$PTXRUN" $B/barrier_counting_sm60.ptx --lanes "$tmp/b64.json" --regs %r2 --threads 0,40
if grep -qxF "0         0x00000007" "$tmp/out" && grep -qxF "40        0x00000007" "$tmp/out"; then ok; else fail "sm_60 barrier result"; cat "$tmp/out"; fi
barrier_fault() {   # barrier_fault DESCRIPTION R1 R2 MESSAGE
    printf '{"block": [64], "regs": {"%%r1": %s, "%%r2": %s}}\n' "$2" "$3" > "$tmp/bf.json"
    expect_exit 3 "$1" "$PTXRUN" $B/barrier_faults.ptx --lanes "$tmp/bf.json"
    expect_stderr_line "$1" "$B/barrier_faults.ptx:14:5: error: $4"
}
barrier_fault "barrier 16" 16 64 "lane 0 executes 'bar.sync' on barrier 16; a CTA has barriers 0 to 15"
barrier_fault "count not a multiple of 32" 0 48 "lane 0 executes 'bar.sync' with thread count 48, which is not a positive multiple of 32"
barrier_fault "count above the block" 0 96 "lane 0 executes 'bar.sync' with thread count 96, but the CTA has 64 threads: the barrier could never complete"
barrier_fault "undefined barrier number" null 64 "lane 0 executes 'bar.sync' with an undefined barrier number or thread count"
printf '{"block": [64], "regs": {"%%r1": 0, "%%r2": 64}}\n' > "$tmp/bf.json"
expect_exit 3 "counts that disagree" "$PTXRUN" $B/barrier_faults.ptx --lanes "$tmp/bf.json"
if grep -q "^$B/barrier_faults.ptx:1[47]:5: error: lane 0 arrives at barrier 0 with 'bar.sync' for .* threads, but its arrivals so far came from 'bar.sync' (line 1[47]) for .* threads: PTX leaves this undefined" "$tmp/err" &&
   grep -qxF "$B/barrier_faults.ptx:17:5: note: in warp 1 (threads 32-63) of CTA (0, 0, 0)" "$tmp/err"; then ok
else fail "counts that disagree: message"; cat "$tmp/err"; fi
expect_exit 0 "divergent .aligned barrier" "$PTXRUN" $B/aligned_divergent.ptx --lanes "$tmp/b64.json" --regs x
expect_stderr_line "divergent .aligned barrier" "$B/aligned_divergent.ptx:6:1: warning: '.aligned' barrier (bar is barrier.aligned) that a warp's lanes reach at different instructions, which PTX leaves undefined, in warp 1 lanes 8-31"
if [ "$(grep -c warning "$tmp/err")" -eq 2 ]; then ok; else fail "divergent .aligned barrier: only warp 1's lanes, not barrier.sync"; cat "$tmp/err"; fi
expect_exit 3 "divergent .aligned barrier, --strict" "$PTXRUN" $B/aligned_divergent.ptx --lanes "$tmp/b64.json" --strict
# Special registers of every thread: a 3-D block of 48 (a partial second warp), a 3-D grid;
# the values below are worked out by hand (x fastest: thread 37 is x 5, y 1, z 1).
printf '{"block": [8, 3, 2], "grid": [3, 1, 2]}\n' > "$tmp/sr.json"
expect_exit 0 "special registers" "$PTXRUN" $B/special_registers.ptx --lanes "$tmp/sr.json" --threads 31,37 --regs %r1,%r2,%r3,%r7,%r8,%r11,%r12
if grep -qxF "31        0x00000007  0x00000000  0x00000001  0x00000002  0x00000001  0x00000000  0x00000002" "$tmp/out" &&
   grep -qxF "37        0x00000005  0x00000001  0x00000001  0x00000002  0x00000001  0x00000001  0x00000002" "$tmp/out" &&
   grep -qxF -- "-- warp 1: threads 32-47" "$tmp/out" &&
   grep -qxF "(registers of CTA (2, 0, 1), the last of the grid's 6 CTAs to run; --cta X,Y,Z shows another)" "$tmp/out"; then ok
else fail "special registers: table"; cat "$tmp/out"; fi
# -- output for kernels (issue 15, point 3): a module's table shows its buffers, the registers the
#    lanes file gives and a count of the others; --regs all; --cta picks the CTA; a fault names the
#    CTA where the run stopped; --json --all-ctas; --hex. Expected values by hand from the PTX:
#    cta_values.ptx sets %r3 = %ctaid.x * 100 + %tid.x and out[ctaid * 4 + tid] = (float)%r3;
#    it names %r1-%r5, %rd1-%rd3 and %f1 (%r0 and %f0 are declared, never used).
printf '{"block": [4], "grid": [3], "buffers": {"out": {"type": "f32", "data": [0,0,0,0,0,0,0,0,0,0,0,0]}}, "params": {"out": "@out"}}\n' > "$tmp/cta.json"
expect_exit 0 "kernel table: a count of the registers" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json"
if grep -qxF "registers: 9 (%r 5, %rd 3, %f 1); --regs NAME,... or --regs all shows them" "$tmp/out" &&
   ! grep -q "^lane" "$tmp/out" && grep -qxF "buffer out: .f32[12]" "$tmp/out"; then ok
else fail "kernel table: a count of the registers"; cat "$tmp/out"; fi
sed 's/"block"/"regs": {"%r4": 7}, "block"/' "$tmp/cta.json" > "$tmp/cta_r4.json"
expect_exit 0 "kernel table: the registers the lanes file gives" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta_r4.json"
if [ "$(head -n 2 "$tmp/out")" = "$(printf 'lane    %%r4\n0         4')" ] &&
   grep -qxF "other registers: 8 (%r 4, %rd 3, %f 1); --regs NAME,... or --regs all shows them" "$tmp/out"; then ok
else fail "kernel table: the registers the lanes file gives"; cat "$tmp/out"; fi
expect_exit 0 "kernel table: --regs all" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --regs all
if grep -q "^lane  .* %r1 .* %r5 .* %rd3 .* %f1$" "$tmp/out" && ! grep -q "registers:" "$tmp/out"; then ok
else fail "kernel table: --regs all"; cat "$tmp/out"; fi
printf 'add.u32 y, x, 1;\nand.b32 z, x, 0xff;\n' > "$tmp/snip.ptx"
printf '{"regs": {"x": 5}}\n' > "$tmp/snip.json"
expect_exit 0 "snippet table: every register" "$PTXRUN" "$tmp/snip.ptx" --lanes "$tmp/snip.json"
if grep -qxF "lane    y  x           z" "$tmp/out" && ! grep -q "registers:" "$tmp/out"; then ok
else fail "snippet table: every register"; cat "$tmp/out"; fi
# --cta: CTA 1 holds 100-103, CTA 2 200-203, CTA 0 0-3 (also on 2 threads, where a worker keeps it)
expect_exit 0 "--cta 1" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --cta 1 --regs %r3
if [ "$(head -n 5 "$tmp/out")" = "$(printf 'lane    %%r3\n0       100\n1       101\n2       102\n3       103')" ] &&
   grep -qxF "(registers of CTA (1, 0, 0), chosen with --cta, of the grid's 3 CTAs)" "$tmp/out"; then ok
else fail "--cta 1"; cat "$tmp/out"; fi
expect_exit 0 "--cta 2,0,0" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --cta 2,0,0 --regs %r1,%r3
if grep -qxF "3         2  203" "$tmp/out"; then ok; else fail "--cta 2,0,0"; cat "$tmp/out"; fi
expect_exit 0 "--cta 0 -j 2" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --cta 0 --regs %r3 -j 2
if grep -qxF "3         3" "$tmp/out" && grep -qxF "(registers of CTA (0, 0, 0), chosen with --cta, of the grid's 3 CTAs)" "$tmp/out"; then ok
else fail "--cta 0 -j 2"; cat "$tmp/out" "$tmp/err"; fi
# --cta in a grid of two clusters of 4 CTAs (two gangs, one after the other): CTA 1, rank 1 of the
# first, is kept when the first gang ends and not handed back when the second does (it crashed)
expect_exit 0 "--cta 1 of clusters" "$PTXRUN" tests/cluster/exchange.ptx --lanes tests/cluster/exchange.lanes.json --cta 1 --regs %r2,%r11
if grep -qxF "0         0x00000001  0x00000001" "$tmp/out" &&
   grep -qxF "(registers of CTA (1, 0, 0), chosen with --cta, of the grid's 8 CTAs)" "$tmp/out"; then ok
else fail "--cta 1 of clusters"; cat "$tmp/out" "$tmp/err"; fi
expect_exit 0 "no --cta: the last CTA" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --regs %r3
if grep -qxF "3       203" "$tmp/out" && grep -qxF "(registers of CTA (2, 0, 0), the last of the grid's 3 CTAs to run; --cta X,Y,Z shows another)" "$tmp/out"; then ok
else fail "no --cta: the last CTA"; cat "$tmp/out"; fi
expect_exit 0 "--json --cta 1" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --cta 1 --json
if grep -qF '  "cta": [1, 0, 0],' "$tmp/out" && grep -qF '    "%r3": [100, 101, 102, 103, null' "$tmp/out"; then ok
else fail "--json --cta 1"; cat "$tmp/out"; fi
printf '{"regs": {"%%r3": [100, 101, 102, 103]}}\n' > "$tmp/cta1.expect.json"
expect_exit 0 "--expect compares the --cta CTA" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --cta 1 --expect "$tmp/cta1.expect.json"
expect_exit 1 "--expect compares the last CTA" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --expect "$tmp/cta1.expect.json"
expect_stderr_line "--expect compares the last CTA" "%r3 lane 0: expected 100, got 200"
expect_exit 2 "--cta outside the grid" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --cta 3
expect_stderr_line "--cta outside the grid" "ptxrun: error: --cta 3 is outside the grid (3, 1, 1) of 3 CTAs (numbers 0 to 2, or X,Y,Z each below the grid's)"
expect_exit 2 "--cta 0,1 outside the grid" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --cta 0,1
expect_exit 2 "--cta malformed" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --cta 1,x
expect_stderr_line "--cta malformed" "ptxrun: error: --cta: expected a CTA's number or its X,Y,Z (such as 3 or 1,0,0), not '1,x'"
# a fault in CTA 0: the table is CTA 0's, and says the run stopped there (on 1 thread and on 2)
sed 's/"f32"/"u32"/' "$tmp/cta.json" > "$tmp/cta_u32.json"
for j in 1 2; do
    expect_exit 3 "fault in CTA 0 (-j $j)" "$PTXRUN" $B/cta0_fault.ptx --lanes "$tmp/cta_u32.json" --regs %r1,%r3 -j $j
    if grep -qxF "(registers of CTA (0, 0, 0), where the run stopped, of the grid's 3 CTAs)" "$tmp/out" &&
       grep -qxF "3         0    3" "$tmp/out"; then ok
    else fail "fault in CTA 0 (-j $j)"; cat "$tmp/out"; fi
done
expect_exit 3 "fault before the --cta CTA" "$PTXRUN" $B/cta0_fault.ptx --lanes "$tmp/cta_u32.json" --regs %r3 --cta 2
if grep -qxF "(registers of CTA (0, 0, 0), where the run stopped, of the grid's 3 CTAs; CTA (2, 0, 0) did not run)" "$tmp/out"; then ok
else fail "fault before the --cta CTA"; cat "$tmp/out"; fi
# --json --all-ctas: one element per CTA, in order; fed back with --lanes, "ctas" is left aside
expect_exit 0 "--all-ctas" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --json --all-ctas -j 2
cp "$tmp/out" "$tmp/ctas.json"
if [ "$(grep -c '^      "cta": \[[0-2], 0, 0\],$' "$tmp/ctas.json")" -eq 3 ] &&
   grep -qF '        "%r3": [0, 1, 2, 3, null' "$tmp/ctas.json" && grep -qF '        "%r3": [100, 101, 102, 103, null' "$tmp/ctas.json" &&
   grep -qF '        "%r3": [200, 201, 202, 203, null' "$tmp/ctas.json"; then ok
else fail "--all-ctas"; cat "$tmp/ctas.json"; fi
expect_exit 0 "--all-ctas output fed back" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/ctas.json" --json
if python3 -c '
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert "ctas" not in b and all(a.get(k) == b.get(k) for k in ("block", "grid", "params", "regs", "preds"))
' "$tmp/ctas.json" "$tmp/out"; then ok; else fail "--all-ctas output fed back: not the same launch"; fi
expect_exit 2 "--all-ctas without --json" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --all-ctas
expect_stderr_line "--all-ctas without --json" "ptxrun: error: --all-ctas is for --json (the table shows one CTA: choose it with --cta)"
# --hex: IEEE 754 single bits, by hand: 1.0 = 0x3f800000, 2.0 = 0x40000000, 3.0 = 0x40400000,
# 100.0 = 1.5625 * 2^6 = 0x42c80000, 101.0 = 0x42ca0000, 102.0 = 0x42cc0000, 103.0 = 0x42ce0000,
# 200.0 = 1.5625 * 2^7 = 0x43480000 ... 203.0 = 0x434b0000; %r3 = 103 = 0x00000067
expect_exit 0 "--hex" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --hex --cta 1 --regs %r3,%f1
if grep -qxF "3       0x00000067  0x42ce0000" "$tmp/out" &&
   grep -qxF "     0:  0x00000000  0x3f800000  0x40000000  0x40400000  0x42c80000  0x42ca0000  0x42cc0000  0x42ce0000" "$tmp/out" &&
   grep -qxF "     8:  0x43480000  0x43490000  0x434a0000  0x434b0000" "$tmp/out"; then ok
else fail "--hex"; cat "$tmp/out"; fi
expect_exit 2 "--hex with --json" "$PTXRUN" $B/cta_values.ptx --lanes "$tmp/cta.json" --hex --json
expect_exit 0 "--warps" "$PTXRUN" $B/special_registers.ptx --lanes "$tmp/sr.json" --warps 1 --regs %r11
if [ "$(grep -c '^[0-9]* *0x00000001$' "$tmp/out")" -eq 16 ] && ! grep -q "warp 0" "$tmp/out"; then ok; else fail "--warps 1 rows"; cat "$tmp/out"; fi
expect_exit 2 "--warps out of range" "$PTXRUN" $B/special_registers.ptx --lanes "$tmp/sr.json" --warps 0,2
expect_stderr_line "--warps out of range" "ptxrun: error: --warps: warp 2 does not exist (the block has 2 warps)"
expect_exit 2 "--threads malformed" "$PTXRUN" $B/special_registers.ptx --lanes "$tmp/sr.json" --threads 3-1
expect_stderr_line "--threads malformed" "ptxrun: error: --threads: expected numbers and ranges such as 0,2-3, not '3-1'"
# JSON over all 48 threads: one array per register; it reads back as lanes and as expectations.
expect_exit 0 "block JSON" "$PTXRUN" $B/special_registers.ptx --lanes "$tmp/sr.json" --json
cp "$tmp/out" "$tmp/sr.out.json"
if grep -q '^    "%r13": \["0x00000000", "0x00000001", .*, "0x0000001f", "0x00000000", .*, "0x0000000f"\]$' "$tmp/sr.out.json" &&
   [ "$(grep '"%r13"' "$tmp/sr.out.json" | tr ',' '\n' | wc -l)" -eq 48 ] &&
   grep -qxF '  "exited": ["0xffffffff", "0x0000ffff"],' "$tmp/sr.out.json" &&
   grep -qxF '  "grid": [3, 1, 2],' "$tmp/sr.out.json"; then ok; else fail "block JSON shape"; head -c 2000 "$tmp/sr.out.json"; fi
expect_exit 0 "block JSON round trip" "$PTXRUN" $B/special_registers.ptx --lanes "$tmp/sr.out.json" --expect "$tmp/sr.out.json"
sed 's/"%r13": \["0x00000000", "0x00000001", "0x00000002",/"%r13": ["0x00000000", "0x00000001", "0x00000003",/' "$tmp/sr.out.json" > "$tmp/sr.bad.json"
expect_exit 1 "block --expect difference" "$PTXRUN" $B/special_registers.ptx --lanes "$tmp/sr.json" --expect "$tmp/sr.bad.json"
expect_stderr_line "block --expect difference" "%r13 thread 2 (warp 0 lane 2): expected 0x00000003, got 0x00000002"
printf '{"block": [48], "regs": {"%%r1": [1, 2]}}\n' > "$tmp/bad48.json"
expect_exit 2 "array for 48 threads" "$PTXRUN" $B/special_registers.ptx --lanes "$tmp/bad48.json"
expect_stderr_line "array for 48 threads" "ptxrun: error: $tmp/bad48.json: regs.%r1: an array needs 48 values, one per thread of the block (this one has 2)"
printf '{"block": [64], "active": "0x1"}\n' > "$tmp/bad64.json"
expect_exit 2 "active mask for two warps" "$PTXRUN" $B/special_registers.ptx --lanes "$tmp/bad64.json"
expect_stderr_line "active mask for two warps" "ptxrun: error: $tmp/bad64.json: active: a lane mask applies to a block of one warp; this one has 64 threads"
# A mask naming lanes an 8-thread block lacks ran no thread at all and exited 0 ("0 warp-steps"):
# lanes 16-31 of 0xffff0000 do not exist in a block of 8 (threads 0 to 7), so it is refused.
printf '{"block": [8], "active": "0xffff0000"}\n' > "$tmp/bad8.json"
expect_exit 2 "active mask beyond the block" "$PTXRUN" $B/special_registers.ptx --lanes "$tmp/bad8.json"
expect_stderr_line "active mask beyond the block" "ptxrun: error: $tmp/bad8.json: active: 0xffff0000 names lanes the block of 8 threads does not have (lanes 0 to 7)"
printf '{"grid": [65536, 65535, 65536]}\n' > "$tmp/badgrid.json"
expect_exit 2 "grid too large" "$PTXRUN" $B/special_registers.ptx --lanes "$tmp/badgrid.json"
expect_stderr_line "grid too large" "ptxrun: error: $tmp/badgrid.json: grid[2]: expected an integer from 1 to 65535"
expect_exit 0 "trace names warps" "$PTXRUN" $B/special_registers.ptx --lanes "$tmp/sr.json" --trace=json
if grep -q '^{"step": [0-9]*, "warp": 1, "pc": 0,' "$tmp/err"; then ok; else fail "trace warp field"; head -3 "$tmp/err"; fi

# -- guarded .sync instructions, partial membermasks, parameter names (tests/sync, tests/calls:
#    expected values from H100 measurements and the PTX ISA, worked out in each file's comment)
expect_exit 0 "sync and call cases" "$PTXRUN" test tests/sync tests/calls
if [ -x "$PTXAS" ]; then
    for f in tests/sync/*.ptx tests/calls/*.ptx; do
        if "$PTXAS" -arch=sm_90 "$f" -o "$tmp/out.cubin" 2>"$tmp/ptxas.err"; then ok; else fail "ptxas rejects $f"; cat "$tmp/ptxas.err"; fi
    done
fi

# -- several kernels and no --entry: refused, naming them; --entry picks one
printf "$H.visible .entry first()\n{\n\tret;\n}\n.visible .entry second()\n{\n\tret;\n}\n" > "$tmp/two.ptx"
expect_exit 2 "two kernels, no --entry" "$PTXRUN" "$tmp/two.ptx"
expect_stderr_line "two kernels, no --entry" "ptxrun: error: the module has 2 kernels; choose one with --entry:"
if [ "$(tail -n 2 "$tmp/err")" = "$(printf '  first\n  second')" ]; then ok; else fail "two kernels, one a line"; cat "$tmp/err"; fi
expect_exit 0 "two kernels, --entry" "$PTXRUN" --entry second "$tmp/two.ptx"

# -- a run refuses only what its kernel can reach (docs/semantics.md, "What a run reads"): two
#    kernels, one with redux.sync.f32 (not executable yet), one through a .func; --check still says all
cat > "$tmp/reach.ptx" <<'PTX'
.version 8.0
.target sm_90
.address_size 64
.func helper_cp(.param .u64 p)
{
	.reg .b64 %rd<2>;
	.reg .f32 %f<3>;
	ld.param.u64 %rd1, [p];
	redux.sync.min.f32 %f1, %f2, 0xffffffff;
	redux.sync.max.f32 %f1, %f2, 0xffffffff;
	ret;
}
.visible .entry plain(.param .u64 out)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	add.s32 %r2, %r1, 40;
	st.global.u32 [%rd2], %r2;
	ret;
}
.visible .entry uses_cp(.param .u64 in)
{
	.reg .f32 %f<3>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [in];
	redux.sync.min.f32 %f1, %f2, 0xffffffff;
	redux.sync.max.f32 %f1, %f2, 0xffffffff;
	ret;
}
.visible .entry calls_cp(.param .u64 in)
{
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [in];
	{
	.param .u64 a;
	st.param.u64 [a], %rd1;
	call helper_cp, (a);
	}
	ret;
}
PTX
expect_exit 0 "the kernel without redux.sync.f32 runs" "$PTXRUN" --json --entry plain --block 1 --buffer out=s32:1 --param 0=@out "$tmp/reach.ptx"
if python3 -c "import json, sys; sys.exit(json.load(open('$tmp/out'))['buffers']['out']['data'] != [40])" 2>/dev/null
then ok; else fail "the kernel without redux.sync.f32: out is not tid + 40"; cat "$tmp/out"; fi
expect_exit 2 "the kernel with redux.sync.f32" "$PTXRUN" --no-color --entry uses_cp --block 1 --buffer in=s32:1 --param 0=@in "$tmp/reach.ptx"
expect_stderr_line "the kernel with redux.sync.f32" "$tmp/reach.ptx:29:16: error: ptxrun cannot execute 'redux.sync' with '.f32' yet"
expect_stderr_line "the kernel with redux.sync.f32: its refusals only" "$tmp/reach.ptx: 2 errors"
expect_exit 2 "a .func it calls with redux.sync.f32" "$PTXRUN" --no-color --entry calls_cp --block 1 --buffer in=s32:1 --param 0=@in "$tmp/reach.ptx"
expect_stderr_line "a .func it calls with redux.sync.f32" "$tmp/reach.ptx:9:16: error: ptxrun cannot execute 'redux.sync' with '.f32' yet"
expect_stderr_line "a .func it calls with redux.sync.f32: its refusals only" "$tmp/reach.ptx: 2 errors"
expect_exit 2 "--check says every refusal" "$PTXRUN" --no-color --check "$tmp/reach.ptx"
expect_stderr_line "--check says every refusal" "$tmp/reach.ptx: 4 errors"
expect_exit 0 "--list-kernels of a module a kernel of which is refused" "$PTXRUN" --list-kernels "$tmp/reach.ptx"
if [ "$(cut -f1 "$tmp/out" | tr '\n' ' ')" = "plain uses_cp calls_cp " ]; then ok; else fail "--list-kernels: $(cat "$tmp/out")"; fi
#    a mistake in a kernel not run still refuses the module, every refusal said as --check says them
sed 's/add.s32 %r2, %r1, 40;/add.s32 %r2, %nope, 40;/' "$tmp/reach.ptx" > "$tmp/reach_bad.ptx"
expect_exit 2 "a mistake in another kernel" "$PTXRUN" --no-color --entry uses_cp --block 1 --buffer in=s32:1 --param 0=@in "$tmp/reach_bad.ptx"
expect_stderr_line "a mistake in another kernel" "$tmp/reach_bad.ptx:20:15: error: undeclared identifier '%nope'"
expect_stderr_line "a mistake in another kernel: all said" "$tmp/reach_bad.ptx: 5 errors"
#    a .func not reached that lowering would refuse (three-input min, valid for sm_100) is not lowered
printf '.version 8.8\n.target sm_100\n.address_size 64\n.func f()\n{\n\t.reg .f32 %%f<5>;\n\tmin.f32 %%f1, %%f2, %%f3, %%f4;\n\tret;\n}\n.visible .entry k()\n{\n\tret;\n}\n.visible .entry calls_f()\n{\n\tcall f, ();\n\tret;\n}\n' > "$tmp/min3.ptx"
expect_exit 0 "a .func not reached is not lowered" "$PTXRUN" --entry k "$tmp/min3.ptx"
expect_exit 2 "a .func reached is lowered" "$PTXRUN" --no-color --entry calls_f "$tmp/min3.ptx"
expect_stderr_line "a .func reached is lowered" "$tmp/min3.ptx:7:2: error: ptxrun cannot execute three-input min/max yet"
expect_exit 2 "--check lowers every function" "$PTXRUN" --check "$tmp/min3.ptx"
#    listing reads only the kernels' names: a mistake inside a kernel's body is not read then
sed 's/add.s32 %r2, %r1, 40;/add.s32 %r2 %r1, 40;/' "$tmp/reach.ptx" > "$tmp/reach_syntax.ptx"
expect_exit 0 "--list-kernels passes over the bodies" "$PTXRUN" --list-kernels "$tmp/reach_syntax.ptx"
expect_exit 2 "a run reads them" "$PTXRUN" --no-color --entry calls_cp "$tmp/reach_syntax.ptx"
expect_stderr_line "a run reads them" "$tmp/reach_syntax.ptx:20:14: error: unexpected identifier '%r1' (expected ',', ';', '+', '|' or '[')"
#    a run reads the module in passes (the names, then each function): a warning is said once
printf '.version 8.0\n.target sm_90, texmode_independent\n.address_size 64\n.global .texref t = { filter_mode = nearest };\n.visible .entry k()\n{\n\tret;\n}\n.visible .entry j()\n{\n\tret;\n}\n' > "$tmp/texwarn.ptx"
expect_exit 0 "a warning in a run of one of two kernels" "$PTXRUN" --no-color --entry k "$tmp/texwarn.ptx"
if [ "$(grep -c 'warning: filter_mode is ignored' "$tmp/err")" = 1 ]; then ok; else fail "the warning not said once: $(cat "$tmp/err")"; fi
#    refusals held are never cut at the 50 errors shown: 60 in a kernel not run, then the kernel run's own
#    (held after them, they were dropped: redux.sync.f32 ran, exit 0)
{ printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry z()\n{\n\t.reg .b64 %%rd<2>;\n\t.reg .f32 %%f<3>;\n'
  for i in $(seq 60); do printf '\tredux.sync.min.f32 %%f1, %%f2, 0xffffffff;\n'; done
  printf '\tret;\n}\n.visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %%r<3>;\n\t.reg .b64 %%rd<2>;\n\t.shared .align 4 .b32 s[1];\n'
  printf '\tld.param.u64 %%rd1, [out];\n\tredux.sync.min.f32 %%r2, %%r1, -1;\n\tst.global.u32 [%%rd1], %%r2;\n\tret;\n}\n'; } > "$tmp/cap.ptx"
expect_exit 2 "a kernel's refusal after 60 held" "$PTXRUN" --no-color --entry k --block 1 --buffer out=u32:1 --param 0=@out "$tmp/cap.ptx"
expect_stderr_line "a kernel's refusal after 60 held" "$tmp/cap.ptx:76:16: error: ptxrun cannot execute 'redux.sync' with '.f32' yet"
#    past the limit of errors shown, the same first 50 as the whole module's check (a refusal in source order
#    before 60 mistakes; the mistakes were said first, the refusal cut)
{ printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry a()\n{\n\t.reg .b64 %%rd<2>;\n\t.reg .f32 %%f<3>;\n'
  printf '\tredux.sync.min.f32 %%f1, %%f2, 0xffffffff;\n\tret;\n}\n.visible .entry b()\n{\n\t.reg .b32 %%r<2>;\n'
  for i in $(seq 60); do printf '\tadd.s32 %%r1, %%nope, 1;\n'; done; printf '\tret;\n}\n'; } > "$tmp/order.ptx"
expect_exit 2 "errors past the limit, in source order" "$PTXRUN" --no-color --entry b "$tmp/order.ptx"
expect_stderr_line "errors past the limit, in source order" "$tmp/order.ptx:8:16: error: ptxrun cannot execute 'redux.sync' with '.f32' yet"
expect_stderr_line "errors past the limit: counted" "$tmp/order.ptx: 61 errors (the first 50 shown)"
#    a function's address is the same in every run of a module: one kernel stores f's, another calls it
#    (each kernel had its own numbering, of what it reached: the call ran g0, exit 0)
printf '.version 8.0\n.target sm_90\n.address_size 64\n.func (.param .b32 r) g0()\n{\n\tst.param.b32 [r], 1;\n\tret;\n}\n.func (.param .b32 r) f()\n{\n\tst.param.b32 [r], 2;\n\tret;\n}\n.visible .entry put(.param .u64 out)\n{\n\t.reg .b64 %%rd<3>;\n\tld.param.u64 %%rd1, [out];\n\tmov.u64 %%rd2, f;\n\tst.global.u64 [%%rd1], %%rd2;\n\tret;\n}\n' > "$tmp/fptr.ptx"
printf '.visible .entry use(.param .u64 in, .param .u64 out)\n{\n\t.reg .b32 %%r<3>;\n\t.reg .b64 %%rd<4>;\n\tld.param.u64 %%rd1, [in];\n\tld.param.u64 %%rd3, [out];\n\tld.global.u64 %%rd2, [%%rd1];\n\t{\n\t.param .b32 rv;\n\tproto: .callprototype (.param .b32 _) _ ();\n\tcall (rv), %%rd2, (), proto;\n\tld.param.b32 %%r1, [rv];\n\t}\n\t{\n\t.param .b32 rv;\n\tcall (rv), g0, ();\n\tld.param.b32 %%r2, [rv];\n\t}\n\tst.global.u32 [%%rd3], %%r1;\n\tst.global.u32 [%%rd3+4], %%r2;\n\tret;\n}\n' >> "$tmp/fptr.ptx"
rm -rf "$tmp/fptr"; mkdir "$tmp/fptr"
expect_exit 0 "a kernel stores a function's address" "$PTXRUN" --entry put --block 1 --buffer out=u64:1 --param 0=@out --save-buffers "$tmp/fptr" "$tmp/fptr.ptx"
expect_exit 0 "another calls it" "$PTXRUN" --entry use --block 1 --buffer in=@"$tmp/fptr/out.npy" --buffer out=s32:2 --param 0=@in --param 1=@out "$tmp/fptr.ptx"
if grep -qx "     0:           2           1" "$tmp/out"; then ok; else fail "a function's address from another kernel's run called the wrong function: $(cat "$tmp/out")"; fi
#    a refusal in a .func's results, written before its name, is the .func's, not the kernel's before it (it
#    was the kernel k0's, not reached: the run went on, exit 0)
printf '.version 8.8\n.target sm_100\n.address_size 64\n.visible .entry k0()\n{\n\tret;\n}\n.func (.reg .v2 .pred r) f()\n{\n\tret;\n}\n.visible .entry k()\n{\n\tcall f, ();\n\tret;\n}\n' > "$tmp/vpred.ptx"
expect_exit 2 "a refusal in a .func's results" "$PTXRUN" --no-color --entry k "$tmp/vpred.ptx"
expect_stderr_line "a refusal in a .func's results" "$tmp/vpred.ptx:8:23: error: ptxrun cannot execute a vector of predicates yet"

# -- a module of many templated kernels (tests/entry/templates.cu): listed one a line with their
#    C++ names, a screenful at most; chosen by the C++ name or the start of it; --list-kernels
T=tests/entry/templates.ptx
expect_exit 2 "22 kernels, no --entry" "$PTXRUN" "$T"
expect_stderr_line "22 kernels, no --entry" "ptxrun: error: the module has 22 kernels; choose one with --entry:"
expect_stderr_line "22 kernels, the first" "  reduce<int, 4u, true>(int const*, int*, unsigned int)  (_Z6reduceIiLj4ELb1EEvPKT_PS0_j)"
expect_stderr_line "22 kernels, extern \"C\"" "  reduce_c"
expect_stderr_line "22 kernels, a screenful" "  ... and 2 more (ptxrun --list-kernels FILE lists every kernel)"
if [ "$(wc -l < "$tmp/err")" -eq 22 ]; then ok; else fail "22 kernels: $(wc -l < "$tmp/err") lines, not 22"; fi
RUN_REDUCE="--block 4 --buffer in=f32@$tmp/in.bin --buffer out=f32:4 --param 0=@in --param 1=@out --param 2=4"
python3 -c "import struct, sys; sys.stdout.buffer.write(struct.pack('<4f', 1.5, -2, 0.25, 3))" > "$tmp/in.bin"
for name in 'reduce<float, 4u, true>' 'reduce<float' 'void reduce<float, 4u, true>(float const*, float*, unsigned int)' \
            'reduce<float,4u,true>(float const*,float*,unsigned int)' _Z6reduceIfLj4ELb1EEvPKT_PS0_j; do
    expect_exit 0 "--entry '$name'" "$PTXRUN" "$T" --entry "$name" $RUN_REDUCE --json
    if python3 -c "import json, sys; sys.exit(json.load(open('$tmp/out'))['buffers']['out']['data'] != [7.0, -7.0, 2.0, 13.0])" 2>/dev/null
    then ok; else fail "--entry '$name': out is not in * 4 + 1"; cat "$tmp/out"; fi
done
expect_exit 2 "--entry of several" "$PTXRUN" "$T" --entry reduce
expect_stderr_line "--entry of several" "ptxrun: error: 'reduce' could be any of 4 kernels; name one in full, or more of its C++ name:"
expect_stderr_line "--entry of several, one" "  reduce<double, 256u, false>(double const*, double*, unsigned int)  (_Z6reduceIdLj256ELb0EEvPKT_PS0_j)"
if ! grep -q reduce_c "$tmp/err"; then ok; else fail "--entry reduce: reduce_c is not a reduce"; fi
expect_exit 0 "--entry of an extern \"C\" kernel" "$PTXRUN" "$T" --entry reduce_c --block 2 --buffer out=s32:2 --param 0=@out
expect_exit 0 "--list-kernels" "$PTXRUN" --list-kernels "$T"
if [ "$(wc -l < "$tmp/out")" -eq 22 ] && grep -qxF "$(printf '_ZN6ptxrun4demo10swap_pairsIfEEvPNS0_4PairIT_EEPKS4_\tvoid ptxrun::demo::swap_pairs<float>(ptxrun::demo::Pair<float>*, ptxrun::demo::Pair<float> const*)')" "$tmp/out" &&
   grep -qxF "$(printf 'reduce_c\treduce_c')" "$tmp/out"; then ok; else fail "--list-kernels"; cat "$tmp/out"; fi
if command -v c++filt >/dev/null; then         # an independent demangler: binutils'
    cut -f1 "$tmp/out" | c++filt > "$tmp/cxxfilt"
    if cut -f2 "$tmp/out" | cmp -s - "$tmp/cxxfilt"; then ok; else fail "--list-kernels: not c++filt's names"; fi
fi
expect_exit 0 "--list-kernels --json" "$PTXRUN" --list-kernels --json "$T"
if python3 -c "import json, sys; k = json.load(open('$tmp/out')); sys.exit(not (len(k) == 22 and k[4] == {'name': 'reduce_c', 'demangled': 'reduce_c'} and k[0]['demangled'].startswith('void reduce<int, 4u, true>(')))" 2>/dev/null
then ok; else fail "--list-kernels --json"; cat "$tmp/out"; fi

# -- trap aborts the kernel: exit 3, the line and the lanes
printf 'mov.u32 a, %%laneid;\nsetp.gt.u32 p, a, 27;\n@p trap;\n' > "$tmp/trap.ptx"
expect_exit 3 "trap" "$PTXRUN" --no-color "$tmp/trap.ptx"
expect_stderr_line "trap message" "$tmp/trap.ptx:3:1: error: 'trap' executed by lanes 28-31: the kernel is aborted"

# -- every option in --help is in the man page and used in this file; the man page renders
"$PTXRUN" --help > "$tmp/help"
"$PTXRUN" test --help >> "$tmp/help"
for opt in $(grep -o -- '-[-a-z][-a-z]*' "$tmp/help" | grep -v -- '^--opt$' | grep -v -- '^-format$' | sort -u); do
    roff=$(printf '%s' "$opt" | sed 's/-/\\-/g')
    if grep -qF -- "$roff" docs/ptxrun.1; then ok; else fail "option $opt is not in docs/ptxrun.1"; fi
    uses=$(cat "$0" tests/cli_launch.sh | grep -c -- "$opt")
    if [ "$uses" -ge 1 ]; then ok; else fail "option $opt is not used in tests/cli.sh"; fi
done
# --help says the limits of a launch and where its formats are written
for limit in '2^31-1' '65535' '1 MiB' '2^26 elements' '256 MiB' '1 GiB' 'docs/lanes-format.md'; do
    if grep -qF -- "$limit" "$tmp/help"; then ok; else fail "--help does not say '$limit'"; fi
done
# ptxrun test's options, every one, in the man page's synopsis
sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' docs/ptxrun.1 > "$tmp/synopsis"
for opt in $("$PTXRUN" test --help | grep -o -- '^ *-[-a-z, ]*' | grep -o -- '--[a-z][-a-z]*' | sort -u); do
    roff=$(printf '%s' "$opt" | sed 's/-/\\-/g')
    if grep -qF -- "$roff" "$tmp/synopsis"; then ok; else fail "ptxrun test $opt is not in the man page's synopsis"; fi
done
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man -l docs/ptxrun.1 > "$tmp/man.txt" 2>"$tmp/man.err"
    if grep -q "^NAME" "$tmp/man.txt" && grep -q "EXIT STATUS" "$tmp/man.txt" && [ ! -s "$tmp/man.err" ]; then ok
    else fail "man page does not render cleanly"; cat "$tmp/man.err"; fi
else
    fail "man is missing (scripts/deps.sh installs man-db)"
fi

# -- the instruction table in docs/ is what ops.def says
"$PTXRUN" --list-ops > "$tmp/instructions.md"
if cmp -s "$tmp/instructions.md" docs/instructions.md; then ok; else fail "docs/instructions.md is stale: run 'make docs'"; fi

# -- ptxrun test --not-yet: listed cases count while refused, fail once they run (tests/not_yet/)
NY=tests/not_yet
printf '# cases ptxrun refuses\nnot_yet/refused  a call of a function without a body\n' > "$tmp/ny.txt"
expect_exit 0 "listed and refused" "$PTXRUN" test --not-yet "$tmp/ny.txt" $NY/refused.ptx $NY/runs.ptx
if tail -n 1 "$tmp/out" | grep -qx "1 passed, 0 failed, 1 not yet executable"; then ok; else fail "not-yet summary"; cat "$tmp/out"; fi
expect_exit 1 "unlisted and refused" "$PTXRUN" test $NY/refused.ptx
if grep -q "^UNSUPPORTED $NY/refused.ptx: unsupported: .*cannot execute" "$tmp/out"; then ok; else fail "unlisted refused case"; cat "$tmp/out"; fi
printf 'not_yet/refused  r\nnot_yet/runs  r\nnot_yet/wrong  r\n' > "$tmp/ny3.txt"
expect_exit 1 "listed cases that run" "$PTXRUN" test -j 1 --not-yet="$tmp/ny3.txt" $NY/
if grep -qx "FAIL $NY/runs.ptx: listed in $tmp/ny3.txt as not yet executable, but passes now: remove it from $tmp/ny3.txt" "$tmp/out"
then ok; else fail "listed case that passes"; cat "$tmp/out"; fi
if grep -q "^FAIL $NY/wrong.ptx: wrong values (listed in $tmp/ny3.txt as not yet executable, but it runs): exit 1, expected 0: Rs lane 0: expected 43, got 42" "$tmp/out"
then ok; else fail "listed case with a wrong value"; cat "$tmp/out"; fi
if tail -n 1 "$tmp/out" | grep -qx "0 passed, 2 failed, 1 not yet executable"; then ok; else fail "not-yet summary with failures"; cat "$tmp/out"; fi
long_dir="$tmp/$(printf 'd%0150d' 0)"        # the reason keeps its end: the listing's path (cut at 255 bytes before)
mkdir -p "$long_dir" && cp "$tmp/ny3.txt" "$long_dir/"
expect_exit 1 "a listed case that passes, a long listing path" "$PTXRUN" test -j 1 --not-yet="$long_dir/ny3.txt" $NY/runs.ptx
if grep -qxF "FAIL $NY/runs.ptx: listed in $long_dir/ny3.txt as not yet executable, but passes now: remove it from $long_dir/ny3.txt" "$tmp/out"
then ok; else fail "listed case that passes, a long listing path"; cat "$tmp/out"; fi
mkdir -p "$tmp/elsewhere" && cp -r $NY "$tmp/elsewhere/"
expect_exit 1 "a list names cases by folder/NAME wherever they are" "$PTXRUN" test --not-yet "$tmp/ny3.txt" "$tmp/elsewhere/not_yet"
if tail -n 1 "$tmp/out" | grep -qx "0 passed, 2 failed, 1 not yet executable"; then ok; else fail "not-yet elsewhere"; cat "$tmp/out"; fi
expect_exit 1 "not-yet TAP and JUnit" "$PTXRUN" test --tap --junit "$tmp/ny.xml" --not-yet "$tmp/ny3.txt" $NY
if grep -q "^ok 1 - $NY/refused.ptx # SKIP not yet executable: ptxrun cannot execute a call of 'host_side'" "$tmp/out" &&
   tail -n 1 "$tmp/out" | grep -qx "# 0 passed, 2 failed, 1 not yet executable"; then ok; else fail "not-yet TAP"; cat "$tmp/out"; fi
if grep -q 'skipped="1"' "$tmp/ny.xml" && grep -q '<skipped message="not yet executable: ' "$tmp/ny.xml"; then ok; else fail "not-yet JUnit"; cat "$tmp/ny.xml"; fi
if command -v xmllint >/dev/null 2>&1; then
    expect_exit 0 "JUnit with skipped cases is valid" xmllint --noout --schema tests/junit.xsd "$tmp/ny.xml"
fi
printf 'not_yet/refused  r\n\nnot_yet_refused  r\n' > "$tmp/bad1.txt"
expect_exit 2 "not-yet: a line without folder/NAME" "$PTXRUN" test --not-yet "$tmp/bad1.txt" $NY
expect_stderr_line "not-yet: a line without folder/NAME" "$tmp/bad1.txt:3: error: expected 'folder/NAME  reason'"
printf 'not_yet/refused\n' > "$tmp/bad2.txt"
expect_exit 2 "not-yet: no reason" "$PTXRUN" test --not-yet "$tmp/bad2.txt" $NY
expect_stderr_line "not-yet: no reason" "$tmp/bad2.txt:1: error: expected a reason after the case name"
printf 'not_yet/refused.ptx  r\n' > "$tmp/bad3.txt"
expect_exit 2 "not-yet: a suffix" "$PTXRUN" test --not-yet "$tmp/bad3.txt" $NY
expect_stderr_line "not-yet: a suffix" "$tmp/bad3.txt:1: error: a case is named without its suffix (folder/NAME, not folder/NAME.ptx)"
printf 'not_yet/refused  r\n# again\nnot_yet/refused  r\n' > "$tmp/bad4.txt"
expect_exit 2 "not-yet: listed twice" "$PTXRUN" test --not-yet "$tmp/bad4.txt" $NY
expect_stderr_line "not-yet: listed twice" "$tmp/bad4.txt:3: error: 'not_yet/refused' is listed twice (first at line 1)"
mkdir -p "$tmp/not_yet2" && printf 'add.s32 a, b;\n' > "$tmp/not_yet2/broken.ptx" && printf '{}\n' > "$tmp/not_yet2/broken.expect.json"
printf 'not_yet2/broken  r\n' > "$tmp/ny4.txt"
expect_exit 1 "listed, refused for another reason" "$PTXRUN" test --not-yet "$tmp/ny4.txt" "$tmp/not_yet2"
if grep -q "^FAIL $tmp/not_yet2/broken.ptx: listed in $tmp/ny4.txt as not yet executable, but not refused with \"cannot execute\": exit 2" "$tmp/out"
then ok; else fail "listed case with a syntax error"; cat "$tmp/out"; fi
expect_exit 2 "not-yet without its file" "$PTXRUN" test --not-yet
expect_stderr_line "not-yet without its file" "ptxrun test: error: '--not-yet' needs a value"
expect_exit 2 "not-yet: no such file" "$PTXRUN" test --not-yet "$tmp/none.txt" $NY
expect_stderr_line "not-yet: no such file" "ptxrun test: error: cannot open '$tmp/none.txt': No such file or directory"
expect_exit 0 "tests/hw/not-yet.txt is well formed" "$PTXRUN" test --not-yet tests/hw/not-yet.txt $NY/runs.ptx
if tail -n 1 "$tmp/out" | grep -qx "1 passed, 0 failed, 0 not yet executable"; then ok; else fail "tests/hw/not-yet.txt"; cat "$tmp/out"; fi

# -- ptxrun test --differs: listed cases pass within their tolerance, fail beyond it or once exact
DF=tests/differs
printf '# known differences\ndiffers/close  ulps=1  one float off\ndiffers/nan  nan  another NaN\ndiffers/small  abs=1e-18  near zero\n' > "$tmp/df.txt"
expect_exit 0 "differs: within the tolerance" "$PTXRUN" test --differs "$tmp/df.txt" $DF/close.ptx $DF/nan.ptx $DF/small.ptx
if tail -n 1 "$tmp/out" | grep -qx "3 passed, 0 failed, 3 of them within a tolerance"; then ok; else fail "differs summary"; cat "$tmp/out"; fi
expect_exit 1 "differs: unlisted, they fail" "$PTXRUN" test $DF/close.ptx $DF/nan.ptx $DF/small.ptx
printf 'differs/far  ulps=1  r\ndiffers/exact  ulps=1  r\ndiffers/small  ulps=1000  r\n' > "$tmp/df2.txt"
expect_exit 1 "differs: beyond, or exact" "$PTXRUN" test -j 1 --differs="$tmp/df2.txt" $DF/far.ptx $DF/exact.ptx $DF/small.ptx
if grep -q "^FAIL $DF/far.ptx: beyond its tolerance in $tmp/df2.txt: exit 1, expected 0: d lane 0: expected" "$tmp/out" &&
   grep -q "^FAIL $DF/exact.ptx: listed in $tmp/df2.txt as differing, but gives the expected bits now: remove it from $tmp/df2.txt" "$tmp/out" &&
   grep -q "^FAIL $DF/small.ptx: beyond its tolerance" "$tmp/out" &&
   tail -n 1 "$tmp/out" | grep -qx "0 passed, 3 failed, 0 of them within a tolerance"; then ok; else fail "differs failures"; cat "$tmp/out"; fi
expect_exit 0 "differs: TAP" "$PTXRUN" test --tap --differs "$tmp/df.txt" $DF/close.ptx
if grep -q "^ok 1 - $DF/close.ptx # within its tolerance" "$tmp/out"; then ok; else fail "differs TAP"; cat "$tmp/out"; fi
printf 'differs/close  r\n' > "$tmp/bad5.txt"
expect_exit 2 "differs: no tolerance" "$PTXRUN" test --differs "$tmp/bad5.txt" $DF
expect_stderr_line "differs: no tolerance" "$tmp/bad5.txt:1: error: expected 'folder/NAME  TOLERANCE  reason', TOLERANCE one or more of ulps=N, abs=E (below 1), nan joined by commas"
printf 'differs/close  ulps=0  r\n' > "$tmp/bad6.txt"
expect_exit 2 "differs: zero ulps" "$PTXRUN" test --differs "$tmp/bad6.txt" $DF
printf 'differs/close  ulps=1\n' > "$tmp/bad7.txt"
expect_exit 2 "differs: no reason" "$PTXRUN" test --differs "$tmp/bad7.txt" $DF
expect_exit 0 "tests/hw/differs.txt is well formed" "$PTXRUN" test --differs tests/hw/differs.txt tests/not_yet/runs.ptx

# -- -j: a grid's CTAs on several threads, with exactly the output of one after another
K=tests/kernels
expect_exit 0 "-j 1 grid" "$PTXRUN" -j 1 --json $K/reduce_templates.sm_90.ptx --lanes $K/reduce_templates.lanes.json
cp "$tmp/out" "$tmp/j1.json"
expect_exit 0 "-j 4 grid" "$PTXRUN" -j 4 --json $K/reduce_templates.sm_90.ptx --lanes $K/reduce_templates.lanes.json
if cmp -s "$tmp/out" "$tmp/j1.json"; then ok; else fail "-j 4 and -j 1 differ"; fi
if [ -s "$tmp/err" ]; then fail "-j 4 on independent CTAs said: $(cat "$tmp/err")"; else ok; fi
expect_exit 0 "-j 4 --expect" "$PTXRUN" -j4 $K/reduce_templates.sm_90.ptx --lanes $K/reduce_templates.lanes.json --expect $K/reduce_templates.expect.json
# CTAs counting with one global atomic: the order could matter, so they run one after another.
expect_exit 0 "-j 4 shared counter" "$PTXRUN" --jobs 4 --json $K/grid_blocks.sm_90.ptx --lanes $K/grid_blocks.lanes.json
cp "$tmp/out" "$tmp/j4.json"
expect_stderr_line "-j 4 shared counter" "ptxrun: note: -j 4: the grid's CTAs ran one after another: two CTAs used one word of .global memory, one of them writing it, so the result could depend on their order"
expect_exit 0 "-j 1 shared counter" "$PTXRUN" -j 1 --json $K/grid_blocks.sm_90.ptx --lanes $K/grid_blocks.lanes.json
if cmp -s "$tmp/out" "$tmp/j4.json"; then ok; else fail "-j 4 and -j 1 differ on grid_blocks"; fi
# A fault in CTA 2 of 4: the same report as one CTA after another.
printf "$H.visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %%r<3>;\n\t.reg .b64 %%rd<4>;\n\t.reg .pred %%p1;\n\tld.param.u64 %%rd1, [p];\n\tmov.u32 %%r1, %%ctaid.x;\n\tsetp.eq.u32 %%p1, %%r1, 2;\n\t@%%p1 trap;\n\tmul.wide.u32 %%rd2, %%r1, 4;\n\tadd.s64 %%rd3, %%rd1, %%rd2;\n\tst.global.u32 [%%rd3], %%r1;\n\tret;\n}\n" > "$tmp/gridtrap.ptx"
printf '{"grid": [4], "buffers": {"out": {"type": "u32", "count": 4}}, "params": ["@out"]}\n' > "$tmp/gridtrap.json"
expect_exit 3 "-j 1 fault in CTA 2" "$PTXRUN" --no-color -j 1 "$tmp/gridtrap.ptx" --lanes "$tmp/gridtrap.json"
cp "$tmp/err" "$tmp/trap1.err"; cp "$tmp/out" "$tmp/trap1.out"
expect_exit 3 "-j 4 fault in CTA 2" "$PTXRUN" --no-color -j 4 "$tmp/gridtrap.ptx" --lanes "$tmp/gridtrap.json"
if cmp -s "$tmp/out" "$tmp/trap1.out" && grep -v "note: -j" "$tmp/err" | cmp -s - "$tmp/trap1.err"; then ok; else fail "-j 4 fault differs from -j 1"; diff "$tmp/err" "$tmp/trap1.err"; fi
expect_stderr_line "-j 4 fault in CTA 2" "ptxrun: note: -j 4: the grid's CTAs ran one after another: a CTA stopped early (a fault, a warning, a deadlock or --max-steps), which is reported in order one CTA after another"
# .local starts undefined in every CTA, on one thread or several (tests/memory/local_between_ctas).
M=tests/memory
expect_exit 0 "-j 4 .local between CTAs" "$PTXRUN" -j 4 $M/local_between_ctas.ptx --lanes $M/local_between_ctas.lanes.json --expect $M/local_between_ctas.expect.json
# A CTA that stops makes the other workers stop too: CTA 0 traps, the others would spin for
# about 10^10 warp-steps; the grid then runs one CTA after another, which stops at CTA 0.
printf "$H.visible .entry k()\n{\n\t.reg .b32 %%r<3>;\n\t.reg .pred %%p;\n\tmov.u32 %%r1, %%ctaid.x;\n\tsetp.eq.u32 %%p, %%r1, 0;\n\t@%%p trap;\n\tmov.u32 %%r2, 0;\nL:\n\tadd.u32 %%r2, %%r2, 1;\n\tsetp.ne.u32 %%p, %%r2, 0;\n\t@%%p bra L;\n\tret;\n}\n" > "$tmp/spin.ptx"
printf '{"grid": [4]}\n' > "$tmp/spin.json"
expect_exit 3 "-j 4: one CTA traps, the others stop" timeout 60 "$PTXRUN" --no-color -j 4 --max-steps 100000000000 "$tmp/spin.ptx" --lanes "$tmp/spin.json"
expect_stderr_line "-j 4: one CTA traps, the others stop" "$tmp/spin.ptx:10:2: error: 'trap' executed by lanes 0-31: the kernel is aborted"
expect_exit 2 "-j 0" "$PTXRUN" -j 0 samples/scan.ptx
expect_stderr_line "-j 0" "ptxrun: error: -j needs a number of threads from 1 to 256, not '0'"
expect_exit 2 "-j x" "$PTXRUN" --jobs=x samples/scan.ptx

# -- CTAs that run together (issue 37): --cooperative runs the grid's CTAs interleaved, so CTAs
# that wait for each other's flags go on; without it they run one after another and the first
# one's spin never ends (a deadlock: nothing it reads can change). A grid an H100 cannot keep
# resident is refused: 64 threads a CTA, at most 32 CTAs a multiprocessor, 132 of them: 4,224.
G=tests/gang
expect_exit 0 "--cooperative" "$PTXRUN" --no-color $G/cross_cta_flags.ptx --lanes $G/cross_cta_flags.lanes.json --cooperative --expect $G/cross_cta_flags.expect.json
sed 's/, "cooperative": true//' $G/cross_cta_flags.lanes.json > "$tmp/flags_plain.json"
expect_exit 3 "the same grid, not cooperative" "$PTXRUN" --no-color $G/cross_cta_flags.ptx --lanes "$tmp/flags_plain.json"
expect_stderr_line "the same grid, not cooperative" "$G/cross_cta_flags.ptx:31:2: error: deadlock: no thread can move"
expect_exit 2 "--cooperative beyond an H100's residency" "$PTXRUN" --no-color $G/cross_cta_flags.ptx --lanes "$tmp/flags_plain.json" --cooperative --grid 4225
expect_stderr_line "--cooperative beyond an H100's residency" "ptxrun: error: a cooperative launch of 4225 CTAs of 64 threads: an H100 keeps at most 4224 of them resident at once (32 a multiprocessor, 132 multiprocessors), as every CTA of a cooperative launch must be; CUDA refuses it (cudaErrorCooperativeLaunchTooLarge)"
expect_exit 2 "--cooperative: 1,024 threads a CTA, 2 a multiprocessor" "$PTXRUN" --no-color $G/cross_cta_flags.ptx --lanes "$tmp/flags_plain.json" --cooperative --grid 265 --block 1024
expect_stderr_line "--cooperative: 1,024 threads a CTA, 2 a multiprocessor" "ptxrun: error: a cooperative launch of 265 CTAs of 1024 threads: an H100 keeps at most 264 of them resident at once (2 a multiprocessor, 132 multiprocessors), as every CTA of a cooperative launch must be; CUDA refuses it (cudaErrorCooperativeLaunchTooLarge)"
expect_exit 3 "a deadlock across CTAs names every CTA" "$PTXRUN" --no-color $G/cross_cta_deadlock.ptx --lanes $G/cross_cta_deadlock.lanes.json
for c in 0 1 2 3; do
    grep -q "note: in CTA ($c, 0, 0)" "$tmp/err" && ok || fail "a deadlock across CTAs: CTA $c not named"
done
expect_stderr_line "a deadlock across CTAs: CTA 0's thread 0" "$G/cross_cta_deadlock.ptx:26:2: note: warp 0 lane 0 spins in a loop here that comes back to the same state, and nothing it reads can change"
expect_stderr_line "a deadlock across CTAs: the others' thread 0" "$G/cross_cta_deadlock.ptx:32:2: note: warp 0 lane 0 spins in a loop here that comes back to the same state, and nothing it reads can change"

# -- long runs: --max-steps counts each warp's steps; the progress line (issue 15, point 6)
# Each warp runs mov, 100 times (add, setp, bra), ret: 1 + 3 * 100 + 1 = 302 warp-steps (by hand);
# 8 CTAs of 2 warps run 16 * 302 = 4832 together, far past --max-steps 302.
printf "$H.visible .entry k()\n{\n\t.reg .b32 %%r<3>;\n\t.reg .pred %%p;\n\tmov.u32 %%r2, 0;\nL:\n\tadd.u32 %%r2, %%r2, 1;\n\tsetp.ne.u32 %%p, %%r2, 100;\n\t@%%p bra L;\n\tret;\n}\n" > "$tmp/steps.ptx"
printf '{"grid": [8], "block": [64]}\n' > "$tmp/steps.json"
for j in 1 4; do
    expect_exit 0 "-j $j: every warp within --max-steps, the grid past it" "$PTXRUN" -j $j "$tmp/steps.ptx" --lanes "$tmp/steps.json" --max-steps 302
    expect_exit 3 "-j $j: each warp one step past --max-steps" "$PTXRUN" --no-color -j $j "$tmp/steps.ptx" --lanes "$tmp/steps.json" --max-steps 301
    expect_stderr_line "-j $j: the first warp past --max-steps" "$tmp/steps.ptx:13:2: error: warp 0 stopped after 301 warp-steps of its own (--max-steps counts each warp's); lanes still running: 0xffffffff"
done
# Warp 1 (threads 32-63) loops forever (counting), warp 0 ends: the fault names warp 1 and its CTA.
printf "$H.visible .entry k()\n{\n\t.reg .b32 %%r<3>;\n\t.reg .pred %%p;\n\tmov.u32 %%r1, %%tid.x;\n\tsetp.lt.u32 %%p, %%r1, 32;\n\t@%%p bra END;\nL:\n\tadd.u32 %%r2, %%r2, 1;\n\tbra L;\nEND:\n\tret;\n}\n" > "$tmp/spin1.ptx"
printf '{"grid": [2], "block": [64]}\n' > "$tmp/spin1.json"
expect_exit 3 "one warp looping forever" "$PTXRUN" --no-color "$tmp/spin1.ptx" --lanes "$tmp/spin1.json" --max-steps 1000
expect_stderr_line "one warp looping forever" "$tmp/spin1.ptx:13:2: error: warp 1 stopped after 1000 warp-steps of its own (--max-steps counts each warp's); lanes still running: 0xffffffff"
expect_stderr_line "one warp looping forever: its CTA" "$tmp/spin1.ptx:13:2: note: in warp 1 (threads 32-63) of CTA (0, 0, 0)"
# The same warp spinning on a .shared word nobody writes: parked, a deadlock naming the warp and its CTA.
printf "$H.visible .entry k()\n{\n\t.reg .b32 %%r<3>;\n\t.reg .pred %%p;\n\t.shared .u32 s;\n\tmov.u32 %%r1, %%tid.x;\n\tsetp.lt.u32 %%p, %%r1, 32;\n\t@%%p bra END;\nL:\n\tld.volatile.shared.u32 %%r2, [s];\n\tbra L;\nEND:\n\tret;\n}\n" > "$tmp/spin2.ptx"
expect_exit 3 "one warp spinning on nothing" "$PTXRUN" --no-color "$tmp/spin2.ptx" --lanes "$tmp/spin1.json" --max-steps 1000000000
expect_stderr_line "one warp spinning on nothing" "$tmp/spin2.ptx:14:2: error: deadlock: no thread can move"
expect_stderr_line "one warp spinning on nothing: its CTA" "$tmp/spin2.ptx:14:2: note: in CTA (0, 0, 0)"
expect_stderr_line "one warp spinning on nothing: where" "$tmp/spin2.ptx:14:2: note: warp 1 lanes 0-31 spin in a loop here that comes back to the same state, and nothing they read can change"
# The progress line: never off a terminal (so not here) unless PTXRUN_PROGRESS=1 forces it, which
# shows it from the start: "\rptxrun: DONE/TOTAL CTAs, RATE warp-steps/s" and an erase (ESC [K),
# the line erased at the end ("\r" ESC [K).
expect_exit 0 "no progress line off a terminal" "$PTXRUN" -j 1 "$tmp/steps.ptx" --lanes "$tmp/steps.json"
if [ ! -s "$tmp/err" ]; then ok; else fail "a progress line off a terminal"; od -c "$tmp/err" | head -5; fi
expect_exit 0 "progress line forced" env PTXRUN_PROGRESS=1 "$PTXRUN" -j 1 "$tmp/steps.ptx" --lanes "$tmp/steps.json"
esc=$(printf '\033')
if tr '\r' '\n' < "$tmp/err" | grep -q "^ptxrun: [1-8]/8 CTAs, [0-9]*\.[0-9][kMG]\{0,1\} warp-steps/s$esc\[K\$" &&
   [ "$(tail -c 4 "$tmp/err" | od -An -c | tr -d ' ')" = '\r033[K' ]; then ok
else fail "progress line format"; od -c "$tmp/err" | head -8; fi
# On a terminal (script(1) gives one): nothing for a run shorter than a second; a line once an
# endless loop (stopped by timeout after 2.5 s) has run for a second.
if command -v script >/dev/null 2>&1 && command -v timeout >/dev/null 2>&1; then
    script -qc "env -u PTXRUN_PROGRESS \"$PTXRUN\" -j 1 \"$tmp/steps.ptx\" --lanes \"$tmp/steps.json\" > /dev/null" /dev/null > "$tmp/tty.out" 2>&1
    if ! grep -q "ptxrun: " "$tmp/tty.out"; then ok; else fail "a progress line for a short run on a terminal"; od -c "$tmp/tty.out" | head -5; fi
    script -qc "env -u PTXRUN_PROGRESS timeout 2.5 \"$PTXRUN\" --max-steps 100000000000 \"$tmp/loop.ptx\" > /dev/null" /dev/null > "$tmp/tty.out" 2>&1
    if tr '\r' '\n' < "$tmp/tty.out" | grep -q "^ptxrun: 0/1 CTAs, [0-9]*\.[0-9][kMG]\{0,1\} warp-steps/s"; then ok
    else fail "no progress line for a long run on a terminal"; od -c "$tmp/tty.out" | head -5; fi
fi
expect_exit 0 "progress line forced off" env PTXRUN_PROGRESS=0 "$PTXRUN" -j 1 "$tmp/steps.ptx" --lanes "$tmp/steps.json"
if [ ! -s "$tmp/err" ]; then ok; else fail "a progress line with PTXRUN_PROGRESS=0"; fi
expect_exit 0 "ptxrun test: progress line forced" env PTXRUN_PROGRESS=1 "$PTXRUN" test -j 1 tests/misc
if tr '\r' '\n' < "$tmp/err" | grep -q "^ptxrun test: [0-9]*/$(ls tests/misc/*.ptx | wc -l) cases$esc\[K\$"; then ok
else fail "ptxrun test progress line"; od -c "$tmp/err" | head -8; fi
expect_exit 0 "ptxrun test: no progress line off a terminal" "$PTXRUN" test -j 1 tests/misc
if [ ! -s "$tmp/err" ]; then ok; else fail "ptxrun test: a progress line off a terminal"; fi

# -- ptxrun test --shard K/N and Bazel's sharding (issue 15, point 8): the shards are disjoint,
#    together they are the whole folder, and each one's TAP plan counts its own cases.
SH=tests/forms
"$PTXRUN" test --tap $SH > "$tmp/all.tap" 2>/dev/null
grep -o '^\(not \)\{0,1\}ok [0-9]* - [^ ]*' "$tmp/all.tap" | sed 's/.* - //' | sort > "$tmp/all.cases"
: > "$tmp/union.cases"
for k in 1 2 3; do
    expect_exit 0 "--shard $k/3" "$PTXRUN" test --tap --shard $k/3 $SH
    grep -o '^\(not \)\{0,1\}ok [0-9]* - [^ ]*' "$tmp/out" | sed 's/.* - //' > "$tmp/shard$k.cases"
    n=$(wc -l < "$tmp/shard$k.cases")
    if [ "$n" -gt 0 ] && grep -qx "1\.\.$n" "$tmp/out"; then ok; else fail "--shard $k/3: plan line for $n cases"; head -3 "$tmp/out"; fi
    cat "$tmp/shard$k.cases" >> "$tmp/union.cases"
done
if sort "$tmp/union.cases" | cmp -s - "$tmp/all.cases" && [ "$(sort -u "$tmp/union.cases" | wc -l)" -eq "$(wc -l < "$tmp/union.cases")" ]; then ok
else fail "--shard 1/3, 2/3, 3/3: not disjoint or not the whole"; fi
# Shard K of N has the cases numbered K - 1 mod N in byte order of their paths (counted by sort here).
LC_ALL=C sort "$tmp/all.cases" | awk 'NR % 3 == 2' > "$tmp/want2.cases"
if LC_ALL=C sort "$tmp/shard2.cases" | cmp -s - "$tmp/want2.cases"; then ok; else fail "--shard 2/3 is not every third case from the second"; fi
expect_exit 0 "Bazel shard index 1 of 3" env TEST_TOTAL_SHARDS=3 TEST_SHARD_INDEX=1 TEST_SHARD_STATUS_FILE="$tmp/shard.status" "$PTXRUN" test --tap $SH
if [ -e "$tmp/shard.status" ]; then ok; else fail "TEST_SHARD_STATUS_FILE not touched"; fi
grep -o '^\(not \)\{0,1\}ok [0-9]* - [^ ]*' "$tmp/out" | sed 's/.* - //' | cmp -s - "$tmp/shard2.cases" && ok || fail "TEST_SHARD_INDEX=1 is not --shard 2/3"
expect_exit 0 "--shard wins over the environment" env TEST_TOTAL_SHARDS=3 TEST_SHARD_INDEX=1 "$PTXRUN" test --tap --shard 1/3 $SH
grep -o '^\(not \)\{0,1\}ok [0-9]* - [^ ]*' "$tmp/out" | sed 's/.* - //' | cmp -s - "$tmp/shard1.cases" && ok || fail "--shard 1/3 under TEST_SHARD_INDEX=1"
expect_exit 0 "a shard's JUnit" "$PTXRUN" test --shard 3/3 --junit "$tmp/shard.xml" $SH
if [ "$(grep -c '<testcase ' "$tmp/shard.xml")" -eq "$(wc -l < "$tmp/shard3.cases")" ] &&
   grep -q "<testsuites tests=\"$(wc -l < "$tmp/shard3.cases")\"" "$tmp/shard.xml"; then ok; else fail "a shard's JUnit counts"; fi
if command -v xmllint >/dev/null 2>&1; then
    expect_exit 0 "a shard's JUnit XML is valid" xmllint --noout --schema tests/junit.xsd "$tmp/shard.xml"
fi
expect_exit 0 "more shards than cases: an empty shard" "$PTXRUN" test --tap --shard 2/2 samples/scan.ptx
if grep -qx '1\.\.0' "$tmp/out"; then ok; else fail "an empty shard's plan"; cat "$tmp/out"; fi
for bad in 0/3 4/3 3 1/0 x/2 1/2x -1/2 /2; do
    expect_exit 2 "--shard $bad" "$PTXRUN" test --shard "$bad" $SH
done
expect_stderr_line "--shard /2" "ptxrun test: error: --shard needs K/N, two numbers with 1 <= K <= N <= 1048576 (shard K of N), not '/2'"
expect_exit 2 "TEST_SHARD_INDEX out of range" env TEST_TOTAL_SHARDS=3 TEST_SHARD_INDEX=3 "$PTXRUN" test $SH
expect_stderr_line "TEST_SHARD_INDEX out of range" "ptxrun test: error: TEST_SHARD_INDEX needs a number from 0 to 2 (TEST_TOTAL_SHARDS is 3), not '3'"
expect_exit 2 "TEST_TOTAL_SHARDS not a number" env TEST_TOTAL_SHARDS=three TEST_SHARD_INDEX=0 "$PTXRUN" test $SH
expect_exit 2 "TEST_SHARD_INDEX unset" env TEST_TOTAL_SHARDS=2 "$PTXRUN" test $SH
expect_exit 2 "TEST_SHARD_STATUS_FILE cannot be made" env TEST_SHARD_STATUS_FILE="$tmp/no/such/dir/status" "$PTXRUN" test $SH

# setp with a sink for its first predicate writes only the second (it used to write a slot
# read from the sink: a crash). Lane l: x = l; _|q of x == 3 is q = (x != 3); with .and, q =
# (x != 3) and r.
printf 'mov.u32 x, %%laneid;\nsetp.eq.u32 _|q, x, 3;\nsetp.ne.u32 r, x, 0;\nsetp.eq.and.u32 _|s, x, 3, r;\n' > "$tmp/sink.ptx"
printf '{"preds": {"q": [true, true, true, false%s], "s": [false, true, true, false%s]}}\n' \
    "$(printf ', true%.0s' $(seq 28))" "$(printf ', true%.0s' $(seq 28))" > "$tmp/sink.expect.json"
expect_exit 0 "setp _|q" "$PTXRUN" "$tmp/sink.ptx" --expect "$tmp/sink.expect.json"
# Definedness bit by bit (issue 19): nvcc -G's read-modify-write of a bit-field word leaves a
# defined membermask, so --strict runs it without a warning (it used to stop with exit 3).
D=tests/definedness
expect_exit 0 "bit-field read-modify-write, --strict" "$PTXRUN" --strict $D/bitfield_rmw.ptx --lanes $D/bitfield_rmw.lanes.json --expect $D/bitfield_rmw.expect.json
# A read of bytes a cp.async has not written yet (a missing wait) warns, and --strict stops there.
A=tests/async
expect_exit 0 "a missing wait" "$PTXRUN" --no-color $A/cp_mbarrier_nowait.ptx --lanes $A/cp_mbarrier_nowait.lanes.json
if grep -q "warning: read of bytes an asynchronous copy has not written yet" "$tmp/err"; then ok; else fail "missing wait warning"; cat "$tmp/err"; fi
expect_exit 3 "a missing wait, --strict" "$PTXRUN" --strict $A/cp_mbarrier_nowait.ptx --lanes $A/cp_mbarrier_nowait.lanes.json
expect_exit 0 "the wait, --strict" "$PTXRUN" --strict $A/cp_mbarrier.ptx --lanes $A/cp_mbarrier.lanes.json --expect $A/cp_mbarrier.expect.json
expect_exit 0 "a copy the CTA before left pending, --strict" "$PTXRUN" --strict $A/pending_next_cta.ptx --lanes $A/pending_next_cta.lanes.json --expect $A/pending_next_cta.expect.json
# The corpus's multistage GEMM (tests/corpus): its missing wait stops --strict, its waits do not.
C=tests/corpus
expect_exit 3 "a GEMM's missing cp.async wait, --strict" "$PTXRUN" --strict $C/cp_async_gemm_nowait.sm_80.ptx --lanes $C/cp_async_gemm_nowait.lanes.json
expect_exit 0 "a GEMM's cp.async waits, --strict" "$PTXRUN" --strict $C/cp_async_gemm.sm_80.ptx --lanes $C/cp_async_gemm.lanes.json --expect $C/cp_async_gemm.expect.json
expect_exit 0 "a TMA + wgmma GEMM, --strict" "$PTXRUN" --strict $C/tma_wgmma_gemm.sm_90a.ptx --lanes $C/tma_wgmma_gemm.lanes.json --expect $C/tma_wgmma_gemm.expect.json
expect_exit 3 "a TMA + wgmma GEMM's D stored before its wait, --strict" "$PTXRUN" --strict $C/tma_wgmma_gemm_early_d.sm_90a.ptx --lanes $C/tma_wgmma_gemm_early_d.lanes.json
# wgmma's D read before the wgmma.wait_group that completes it (a missing wait) warns at each
# read, once a warp (4 warps x 32 stores); the wgmma.mma_async at lines 44-50 that read D in
# flight as their accumulator (the ISA's chain of one shape) do not; --strict stops at the first.
W=tests/wgmma
expect_exit 0 "wgmma's D read in flight" "$PTXRUN" --no-color $W/wgmma_f16_nowait.ptx --lanes $W/wgmma_f16_nowait.lanes.json
expect_stderr_line "wgmma's D read in flight" "$W/wgmma_f16_nowait.ptx:56:3: warning: read of %d0, which the wgmma.mma_async at line 50 writes, before wgmma.wait_group completes it (the PTX ISA leaves it undefined until then) in warp 0 lanes 0-31"
n=$(grep -c "warning: read of %d[0-9]*, which the wgmma.mma_async at line 50" "$tmp/err")
if [ "$n" = 128 ] && [ "$(grep -c warning: "$tmp/err")" = 128 ]; then ok; else fail "wgmma's D read in flight: $n warnings of 128, or others"; fi
if grep -q "nowait.ptx:\(41\|44\|47\|50\):" "$tmp/err"; then fail "wgmma's accumulator chain warned"; else ok; fi
expect_exit 3 "wgmma's D read in flight, --strict" "$PTXRUN" --strict $W/wgmma_f16_nowait.ptx --lanes $W/wgmma_f16_nowait.lanes.json
expect_exit 0 "wgmma's accumulator chain and wait, --strict" "$PTXRUN" --strict $W/wgmma_f16_sw128.ptx --lanes $W/wgmma_f16_sw128.lanes.json --expect $W/wgmma_f16_sw128.expect.json
# nvcc -G builds of cooperative groups (coalesced_threads, tiles, reduce, scan) and of a
# struct of bit-fields run without a warning under --strict and match their C references.
K=tests/kernels
for n in cg_tiles bitfields; do
    expect_exit 0 "$n -G, --strict" "$PTXRUN" --strict $K/$n.sm_75.debug.ptx --entry kernel --lanes $K/$n.lanes.json --expect $K/$n.expect.json
done
# A lanes file may give a value defined in some bits only, and --expect checks them (add
# carries into every bit from the lowest undefined one up).
printf 'add.u32 y, x, 1;\nand.b32 z, x, 0xff;\n' > "$tmp/partial.ptx"
printf '{"regs": {"x": "0x1234??00"}}\n' > "$tmp/partial.json"
printf '{"regs": {"y": "0x????0001"}}\n' > "$tmp/partial.bad.json"
printf '{"regs": {"x": "0x1234??00", "y": "0x??????01", "z": 0}}\n' > "$tmp/partial.expect.json"
expect_exit 1 "partial value, wrong digits" "$PTXRUN" "$tmp/partial.ptx" --lanes "$tmp/partial.json" --expect "$tmp/partial.bad.json"
expect_exit 0 "partial value through add and and" "$PTXRUN" "$tmp/partial.ptx" --lanes "$tmp/partial.json" --expect "$tmp/partial.expect.json"
# -- printf, assert, trap, brkpt, nanosleep and the clocks (issue 13; tests/printf, tests/kernels)
P=tests/printf
expect_exit 0 "tests/printf cases (stdout, results, clocks)" "$PTXRUN" test $P
# printf's text goes to standard output, before the final table
expect_exit 0 "printf to stdout" "$PTXRUN" --lanes $P/grid.lanes.json $P/grid.ptx --regs all
if [ "$(head -n 2 "$tmp/out")" = "$(printf 'cta 0 thread 0\ncta 0 thread 1')" ] && grep -q "^lane " "$tmp/out"; then ok
else fail "printf text before the table"; head -5 "$tmp/out"; fi
# --json keeps the text in the object ("stdout"), so that the output stays JSON
expect_exit 0 "printf with --json" "$PTXRUN" --json --lanes $P/grid.lanes.json $P/grid.ptx
if grep -qx '  "stdout": "cta 0 thread 0\\ncta 0 thread 1\\ncta 1 thread 0\\ncta 1 thread 1\\ncta 2 thread 0\\ncta 2 thread 1\\ncta 3 thread 0\\ncta 3 thread 1\\n",' "$tmp/out" &&
   [ "$(head -c 1 "$tmp/out")" = "{" ]; then ok; else fail "printf text in --json"; head -3 "$tmp/out"; fi
# -j: the same text as one thread, and a note saying why the CTAs ran in order
"$PTXRUN" -j 1 --lanes $P/grid.lanes.json $P/grid.ptx > "$tmp/grid1.out" 2>&1
expect_exit 0 "printf with -j 4" "$PTXRUN" -j 4 --lanes $P/grid.lanes.json $P/grid.ptx
if cat "$tmp/out" | cmp -s - "$tmp/grid1.out"; then ok; else fail "printf: -j 4 output differs from -j 1"; fi
expect_stderr_line "printf -j note" "ptxrun: note: -j 4: the grid's CTAs ran one after another: the kernel prints (vprintf, __assertfail), and its output comes CTA by CTA"
# two warps printing before and after bar.sync: every a line before every b line, each call's
# lanes in lane order, each thread once per call
printf '{"block": [64, 1, 1]}\n' > "$tmp/warps.json"
expect_exit 0 "printf from two warps" "$PTXRUN" --lanes "$tmp/warps.json" $P/warps.ptx
if awk 'NR <= 128 && !/^[ab] [0-9]+$/ { bad = 1 }
        NR <= 64 && $1 != "a" { bad = 1 } NR > 64 && NR <= 128 && $1 != "b" { bad = 1 }
        NR <= 128 { if (seen[$0]++) bad = 1; w = int($2 / 32); k = $1 w; if (k in last && $2 != last[k] + 1) bad = 1; last[k] = $2 }
        END { exit bad }' "$tmp/out"; then ok; else fail "printf order across warps"; head -130 "$tmp/out" | tr '\n' ' '; echo; fi
# nvcc's printf: %lld of a long long, %g of a double, %c of a char (promoted), %u (CUDA's own
# example kernel in tests/ptx/nvcc/printf.cu); two threads, each call in thread order
printf '{"block": [2, 1, 1], "params": [-5, 2.5, 65]}\n' > "$tmp/print_ll.json"
expect_exit 0 "nvcc printf kernel" "$PTXRUN" --entry _Z8print_llxdc --lanes "$tmp/print_ll.json" tests/ptx/nvcc/printf.sm_80.ptx
if [ "$(head -n 4 "$tmp/out")" = "$(printf -- '-5 2.5 A 0\n-5 2.5 A 1\nno args\nno args')" ]; then ok; else fail "nvcc printf text"; head -4 "$tmp/out"; fi
# 33 arguments: the 33rd printed as it is; no arguments; NULL format (results checked by the cases)
# faults: %n, a %s address outside memory, an argument asked for and not given
expect_exit 3 "printf %n" "$PTXRUN" --no-color $P/percent_n.ptx
if grep -q "error: lane 0: ptxrun cannot print the conversion '%n' (CUDA's printf has no %n)" "$tmp/err"; then ok; else fail "%n message"; cat "$tmp/err"; fi
expect_exit 3 "printf %s outside memory" "$PTXRUN" --no-color $P/bad_string.ptx
if grep -q "error: lane 0: vprintf's %s string at 0x1234, outside every region" "$tmp/err"; then ok; else fail "%s fault"; cat "$tmp/err"; fi
expect_exit 3 "printf without arguments" "$PTXRUN" --no-color $P/missing_args.ptx
if grep -q "error: lane 0: vprintf's format asks for an argument, and it was given none" "$tmp/err"; then ok; else fail "missing args"; cat "$tmp/err"; fi
expect_exit 0 "printf of an undefined value" "$PTXRUN" --no-color $P/undefined.ptx
if grep -q "warning: undefined value printed by vprintf in lane 3$" "$tmp/err"; then ok; else fail "undefined printf warning"; cat "$tmp/err"; fi
expect_exit 3 "printf of an undefined value, --strict" "$PTXRUN" --strict --no-color $P/undefined.ptx
# vprintf called with the wrong parameters: refused before the run
sed 's/call.uni (r), vprintf, (p0, p1);/call.uni (r), vprintf, (p0);/' $P/no_args.ptx > "$tmp/vprintf1.ptx"
expect_exit 2 "vprintf with one argument" "$PTXRUN" --no-color "$tmp/vprintf1.ptx"
if grep -q "error: a call of 'vprintf' with 1 argument and 1 result; CUDA's takes 2 (.b64 format, .b64 arguments) and gives a .b32" "$tmp/err"
then ok; else fail "vprintf signature"; cat "$tmp/err"; fi
# assert: CUDA's message on stderr, exit 3, and the printf text before it kept
K=tests/kernels
expect_exit 3 "assert" "$PTXRUN" --no-color --lanes $K/assert_fail.lanes.json $K/assert_fail.sm_80.ptx
expect_stderr_line "assert message" 'assert_fail.cu:11: void kernel(const int *, int *): block: [0,0,0], thread: [5,1,0] Assertion `in[t] != 7` failed.'
if grep -q "error: assertion failed in lane 13 (__assertfail): the kernel is aborted" "$tmp/err"; then ok; else fail "assert fault"; cat "$tmp/err"; fi
if [ "$(grep -c '^thread [0-9]* (' "$tmp/out")" -eq 16 ]; then ok; else fail "printf text lost before an assert"; head -20 "$tmp/out"; fi
# trap in a block of two warps and a grid: the lanes, the warp, the CTA and the line
printf '.version 8.0\n.target sm_80\n.visible .entry k()\n{\n\t.reg .b32 %%r<3>;\n\t.reg .pred %%p1;\n\tmov.u32 %%r1, %%tid.x;\n\tmov.u32 %%r2, %%ctaid.x;\n\tadd.u32 %%r1, %%r1, %%r2;\n\tsetp.eq.u32 %%p1, %%r1, 37;\n\t@%%p1 trap;\n\tret;\n}\n' > "$tmp/trap2.ptx"
printf '{"block": [64, 1, 1], "grid": [2, 1, 1]}\n' > "$tmp/trap2.json"
expect_exit 3 "trap in warp 1" "$PTXRUN" --no-color --lanes "$tmp/trap2.json" "$tmp/trap2.ptx"
expect_stderr_line "trap lanes and line" "$tmp/trap2.ptx:11:2: error: 'trap' executed by warp 1 lane 5 (thread [37,0,0]): the kernel is aborted"
if grep -q "note: in warp 1 (threads 32-63) of CTA (0, 0, 0)" "$tmp/err"; then ok; else fail "trap CTA note"; cat "$tmp/err"; fi
# brkpt goes on; --trace notes it. nanosleep is one warp-step.
printf 'brkpt;\nnanosleep.u32 5;\nmov.u32 a, 1;\n' > "$tmp/brkpt.ptx"
expect_exit 0 "brkpt" "$PTXRUN" "$tmp/brkpt.ptx"
if grep -q "^3 warp-steps" "$tmp/out"; then ok; else fail "brkpt and nanosleep steps"; cat "$tmp/out"; fi
expect_exit 0 "brkpt --trace" "$PTXRUN" --trace --no-color "$tmp/brkpt.ptx"
if grep -q "^    note: brkpt: no debugger is attached; the lanes go on$" "$tmp/err"; then ok; else fail "brkpt trace note"; cat "$tmp/err"; fi
# the clocks are the same with --trace as without (the counts are the rule, not the batching)
"$PTXRUN" --lanes $P/clock.lanes.json $P/clock.ptx > "$tmp/clock1.out" 2>&1
expect_exit 0 "clock --trace" "$PTXRUN" --trace --lanes $P/clock.lanes.json $P/clock.ptx
if cmp -s "$tmp/out" "$tmp/clock1.out"; then ok; else fail "clocks differ under --trace"; fi
# ptxrun test: "stdout" compared exactly; a case refused and not listed is unsupported
mkdir -p "$tmp/pf" && cp $P/grid.ptx $P/grid.lanes.json "$tmp/pf/" && sed 's/cta 3 thread 1/cta 3 thread 9/' $P/grid.expect.json > "$tmp/pf/grid.expect.json"
expect_exit 1 "stdout differs" "$PTXRUN" test "$tmp/pf"
if grep -qx "FAIL $tmp/pf/grid.ptx: stdout line 8: expected \"cta 3 thread 9\", got \"cta 3 thread 1\"" "$tmp/out"; then ok; else fail "stdout difference"; cat "$tmp/out"; fi
expect_exit 1 "unsupported case" "$PTXRUN" test $NY/refused.ptx $NY/runs.ptx
if grep -qx "UNSUPPORTED $NY/refused.ptx: unsupported: ptxrun cannot execute a call of 'host_side' (no body: an external function) yet" "$tmp/out" &&
   tail -n 1 "$tmp/out" | grep -qx "1 passed, 0 failed, 1 unsupported"; then ok; else fail "unsupported summary"; cat "$tmp/out"; fi
expect_exit 1 "unsupported TAP and JUnit" "$PTXRUN" test --tap --junit "$tmp/un.xml" $NY/refused.ptx $NY/runs.ptx
if grep -qx "not ok 1 - $NY/refused.ptx # unsupported" "$tmp/out" && grep -qx "  outcome: unsupported" "$tmp/out" &&
   tail -n 1 "$tmp/out" | grep -qx "# 1 passed, 0 failed, 1 unsupported"; then ok; else fail "unsupported TAP"; cat "$tmp/out"; fi
if grep -q 'failures="0" errors="0" skipped="1"' "$tmp/un.xml" && grep -q '<skipped message="unsupported: ptxrun cannot execute' "$tmp/un.xml"
then ok; else fail "unsupported JUnit"; cat "$tmp/un.xml"; fi
if command -v xmllint >/dev/null 2>&1; then
    expect_exit 0 "JUnit with an unsupported case is valid" xmllint --noout --schema tests/junit.xsd "$tmp/un.xml"
fi
expect_exit 0 "listed: not yet executable, not unsupported" "$PTXRUN" test --not-yet "$tmp/ny.txt" $NY/refused.ptx

# --json escapes what it quotes: a warning whose text holds quotes stays valid JSON (read back
# as a lanes file).
printf 'add.cc.u32 x, a, a;\nsubc.u32 y, 0, 0;\n' > "$tmp/quoted.ptx"
printf '{"regs": {"a": "0x80000000"}}\n' > "$tmp/quoted.json"
"$PTXRUN" "$tmp/quoted.ptx" --lanes "$tmp/quoted.json" --json > "$tmp/quoted.out.json" 2>/dev/null
if grep -q '[^\\]"no borrow' "$tmp/quoted.out.json"; then fail "--json warning quotes unescaped"; else ok; fi
expect_exit 0 "--json with a quoted warning reads back" "$PTXRUN" "$tmp/quoted.ptx" --lanes "$tmp/quoted.out.json"
# -- multimem (docs/semantics.md, "Multimem"): a buffer with "replicas" is a multicast object;
#    multimem.* elsewhere, and ld/st on it, are faults naming the address; bad copies are errors
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<2>;\nld.param.u64 %%rd1, [p];\nmultimem.ld_reduce.add.u32 %%r1, [%%rd1];\nret;\n}\n' > "$tmp/mm.ptx"
printf '{"block": [1, 1, 1], "buffers": {"x": {"type": "u32", "count": 4}}, "params": {"p": "@x"}}\n' > "$tmp/mm1.json"
expect_exit 3 "multimem on an ordinary buffer" "$PTXRUN" "$tmp/mm.ptx" --lanes "$tmp/mm1.json"
grep -qF "'multimem.ld_reduce.add.u32' at 0x" "$tmp/err" && grep -qF "(in 'x'): not a multimem address" "$tmp/err" && ok || fail "multimem fault: no message"
printf '{"block": [1, 1, 1], "buffers": {"x": {"type": "u32", "data": [1, 2, 3, 4], "replicas": 2}, "x@1": {"type": "u32", "data": [10, 20, 30, 40]}}, "params": {"p": "@x"}}\n' > "$tmp/mm2.json"
printf '{"regs": {"%%r1": [11]}, "buffers": {"x": [1, 2, 3, 4], "x@1": [10, 20, 30, 40]}}\n' > "$tmp/mm2.expect.json"
expect_exit 0 "multimem.ld_reduce of two copies" "$PTXRUN" "$tmp/mm.ptx" --lanes "$tmp/mm2.json" --expect "$tmp/mm2.expect.json"
sed 's/multimem.ld_reduce.add.u32 %r1, /multimem.red.add.f32 /; s/\[%rd1\];/[%rd1], 0f00000003;/' "$tmp/mm.ptx" > "$tmp/mmsub.ptx"
printf '{"block": [1, 1, 1], "buffers": {"x": {"type": "f32", "data": [1.5, 2, 3, 4], "replicas": 2}}, "params": {"p": "@x"}}\n' > "$tmp/mmsub.json"
expect_exit 0 "multimem.red.add.f32 of a subnormal" "$PTXRUN" "$tmp/mmsub.ptx" --lanes "$tmp/mmsub.json"
grep -qF "multimem .add.f32 with a subnormal input or result: the PTX ISA does not say whether it is flushed" "$tmp/err" && ok || fail "multimem subnormal: no warning"
sed 's/multimem.ld_reduce.add.u32/ld.global.u32/' "$tmp/mm.ptx" > "$tmp/mmld.ptx"
expect_exit 3 "ld of a multimem address" "$PTXRUN" "$tmp/mmld.ptx" --lanes "$tmp/mm2.json"
grep -qF "reads 0x100000000000 in 'x', a multimem address: only multimem.* may access it" "$tmp/err" && ok || fail "ld of multimem: no message"
printf '{"block": [1, 1, 1], "buffers": {"x": {"type": "u32", "count": 4, "replicas": 17}}, "params": {"p": "@x"}}\n' > "$tmp/mm3.json"
expect_exit 2 "17 replicas" "$PTXRUN" "$tmp/mm.ptx" --lanes "$tmp/mm3.json"
grep -qF 'buffers.x: "replicas" is a number of copies, 1 to 16' "$tmp/err" && ok || fail "17 replicas: no message"
printf '{"block": [1, 1, 1], "buffers": {"x": {"type": "u32", "count": 4}, "x@1": {"type": "u32", "data": [1, 2, 3, 4]}}, "params": {"p": "@x"}}\n' > "$tmp/mm4.json"
expect_exit 2 "a copy of no multicast buffer" "$PTXRUN" "$tmp/mm.ptx" --lanes "$tmp/mm4.json"
grep -qF "buffers.x@1: no copy of that name, type and size" "$tmp/err" && ok || fail "x@1 alone: no message"
# -- packed registers are their bits: shown in hex, read as bits, a real refused
printf '.reg .f16x2 h;\n.reg .bf16x2 b;\nmov.b32 h, 0x3c00c000;\nmov.b32 b, 0x3f80c000;\n' > "$tmp/packed.ptx"
if "$PTXRUN" "$tmp/packed.ptx" > "$tmp/packed.out" && grep -q "^0 *0x3c00c000 *0x3f80c000$" "$tmp/packed.out"; then ok
else fail ".f16x2 and .bf16x2 registers shown as their bits"; fi
printf '{"regs": {"h": 1.5}}\n' > "$tmp/packed.json"
expect_exit 2 "a real for a packed register" "$PTXRUN" "$tmp/packed.ptx" --lanes "$tmp/packed.json"
expect_stderr_line "a real for a packed register" "ptxrun: error: $tmp/packed.json: regs.h: 1.5 is a real, but the register is .f16x2"
# -- operand forms ptxas takes (tests/forms): the cases run, ptxas takes them and their
#    --dump-ir, and the forms ptxrun refuses or rejects say so
expect_exit 0 "operand form cases" "$PTXRUN" test tests/forms
for f in tests/forms/*.ptx; do
    "$PTXRUN" --dump-ir "$f" > "$tmp/forms.ptx" || { fail "dump $f"; continue; }
    expect_exit 0 "recheck dump of $f" "$PTXRUN" --check "$tmp/forms.ptx"
    if [ -x "$PTXAS" ]; then
        arch=$(sed -n 's/^\.target \(sm_[0-9]*a\?\).*/\1/p' "$f" | head -1)   # the case's own target
        expect_exit 0 "ptxas accepts $f" "$PTXAS" -arch="${arch:-sm_80}" "$f" -o /dev/null
        expect_exit 0 "ptxas accepts the dump of $f" "$PTXAS" -arch="${arch:-sm_80}" "$tmp/forms.ptx" -o /dev/null
    fi
done
form_error() {   # form_error DESCRIPTION PTX LINE
    printf '%s\n' "$2" > "$tmp/form.ptx"
    expect_exit 2 "$1" "$PTXRUN" "$tmp/form.ptx"
    expect_stderr_line "$1" "$tmp/form.ptx:$3"
}
form_error "a .b128 register not declared" 'mov.b128 q, {a, b};' "1:10: error: ptxrun cannot execute an undeclared .b128 register yet: declare 'q' with .reg .b128"
form_error "a float immediate for .b128" '.reg .b128 q;
mov.b128 q, 1.0;' "2:13: error: floating-point immediate for the .b128 operand of 'mov.b128'"
form_error "ld of a narrower type into .b128" '.reg .b128 q;
ld.global.u64 q, [a];' "2:1: error: ptxrun cannot execute 'ld.global.u64' with a .b128 register yet"
form_error "division by zero" 'mov.u32 d, 7 / (3 - 3);' "1:14: error: division by zero in a constant expression"
form_error "array element at a register index" '.global .u32 A[4];
.reg .b64 d;
.reg .b32 i;
mov.u64 d, A[i];' "4:12: error: ptxrun cannot execute an array element at a register index yet"
form_error "index of a scalar variable" '.global .u32 S;
.reg .b64 d;
mov.u64 d, S[1];' "3:12: error: 'S' is not an array: only an array variable takes an index"
form_error "index of a register" '.reg .b64 d, r;
mov.u64 d, r[1];' "2:12: error: 'r' is not an array: only an array variable takes an index"
form_error ".unified on st" '.reg .b64 a;
.reg .b32 v;
st.global.u32 [a].unified, v;' "3:15: error: '.unified' qualifies the .global or generic address of ld, ldu or atom only"
form_error ".unified on a .shared load" '.reg .b64 a;
.reg .b32 v;
ld.shared.u32 v, [a].unified;' "3:18: error: '.unified' qualifies the .global or generic address of ld, ldu or atom only"
form_error ".unified on a variable declared without it" '.global .u32 A[4];
.reg .b32 v;
ld.global.u32 v, [A+4].unified;' "3:18: error: 'A' is not declared .attribute(.unified(...)): its address takes no '.unified'"
form_error "another qualifier after an address" '.reg .b64 a;
.reg .b32 v;
ld.global.u32 v, [a].cached;' "3:21: error: unexpected '.cached' after an address (only '.unified' may follow one)"
cat > "$tmp/unified.ptx" <<'PTX'
.version 8.5
.target sm_80
.address_size 64
.global .attribute(.unified(19, 95)) .u32 U[2] = {7, 9};
.visible .entry k()
{
    .reg .b32 %r<2>;
    ld.global.u32 %r1, [U+4].unified;
    ret;
}
PTX
if "$PTXRUN" "$tmp/unified.ptx" --regs %r1 > "$tmp/unified.out" 2>/dev/null && grep -q "^0 *0x00000009$" "$tmp/unified.out"; then ok
else fail ".attribute(.unified(a, b)) variable read through [U+4].unified"; fi
form_error "shift by 64" 'mov.u64 d, 1 << 64;' "1:14: error: ptxrun cannot evaluate a shift by 64 yet (0 to 63 only)"
form_error "bitwise on a float" 'mov.f32 d, 1.5 & 1.0;' "1:16: error: '&' needs integer operands, not floating-point ones"
form_error "float element in mov's vector" 'mov.b32 d, {1.0, 1};' "1:13: error: 'mov.b32' packs bits: an element is a register or an integer, not an immediate"
form_error "destination plus an offset" 'mov.u32 a, 1;
add.u32 a+1, a, 1;' "2:9: error: a destination cannot take an offset"
form_error "float register plus an offset" '.reg .f32 f;
mov.f32 f, 1.0;
add.f32 g, f+1, 1.0;' "3:12: error: 'f' plus an offset is not a value here: 'add.f32' needs an integer"
form_error "vector of .b128 registers" '.reg .v2 .b128 v;
mov.u32 a, 1;' "1:16: error: a vector of .b128 registers is wider than 128 bits (ptxas refuses one)"
printf '.reg .v4 .b32 v<2>;\nmov.u32 v1.w, 7;\nmov.b32 v0.r, v1.a;\n' > "$tmp/vrange.ptx"
if "$PTXRUN" "$tmp/vrange.ptx" --regs v0.x,v1.w | grep -q '^0 *0x00000007  0x00000007$'; then ok; else fail "range of vector registers"; fi
# a .b128 register under an undefined guard: both its halves become undefined (docs/semantics.md,
# "Undefined values": written or not, nobody can say); 1 and 2 packed: 0x...0002 0...0001
printf '.reg .b128 q, s;\nmov.b128 q, {1, 2};\nmov.b128 s, q;\n@p mov.b128 q, {3, 4};\n' > "$tmp/b128g.ptx"
printf '{"preds": {"p": null}}\n' > "$tmp/b128g.json"
if "$PTXRUN" "$tmp/b128g.ptx" --lanes "$tmp/b128g.json" --regs q,s | grep -q '^0 *undef  0x00000000000000020000000000000001$'; then ok
else fail ".b128 under an undefined guard"; fi
# -- video instructions, bmsk, szext, cvt.pack (issue 13): they run, --list-ops says so, and a
# selector that does not fit is an error at its place, as ptxas makes it.
"$PTXRUN" --list-ops > "$tmp/ops.md"
for op in vadd vshr vmad vset vadd2 vset4 vabsdiff4 bmsk szext cvt.pack; do
    if grep -q "^| \`$op\` | [0-9.]* | sm_[0-9]* | yes |" "$tmp/ops.md"; then passed=$((passed + 1)); else
        failed=$((failed + 1)); echo "FAIL: --list-ops does not show $op as running"; fi
done
printf '.version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n.reg .b32 a, d;\nvadd.u32.u32.u32 d, a.b4, a;\n}\n' > "$tmp/vsel.ptx"
expect_exit 2 "video selector out of range" "$PTXRUN" --check --no-color "$tmp/vsel.ptx"
expect_stderr_line "video selector out of range" "$tmp/vsel.ptx:7:21: error: this selector does not fit this operand of 'vadd.u32.u32.u32' (.b0-.b3, .h0 or .h1)"
printf 'mov.b32 a, 0x80ff7f01;\nmov.b32 b, 0x01020304;\nvadd4.u32.u32.u32.sat d, a, b, a;\nvmad.s32.s32.u32 e, -a.b0, b.b0, 5;\nbmsk.wrap.b32 f, 1, 2;\n' > "$tmp/video.ptx"
printf '{"regs": {"d": "0x81ff8205", "e": 1, "f": 6}}\n' > "$tmp/video.expect.json"
expect_exit 0 "vadd4 .sat, vmad -a, bmsk" "$PTXRUN" "$tmp/video.ptx" --expect "$tmp/video.expect.json"
# vmad as the H100 does it (tests/h100_more/cases2/vmad): a .u32 word of 2^31 or more read as
# negative, c sign-extended: -2^31 + 0x212b3e1c < 0 clamps to 0 (the PTX ISA's reading: 0xa12b3e1c),
# and (0xffff * 0x10000) + -2^31 = 0x7fff0000 (the ISA's: 0xffffffff); warned, both readings named
printf 'mov.b32 a, 0x80000000;\nmov.b32 b, 1;\nmov.b32 c, 0x212b3e1c;\nvmad.u32.u32.u32.sat d, a, b, c;\nmov.b32 p, 0xffff;\nmov.b32 q, 0x10000;\nmov.b32 r, 0x80000000;\nvmad.u32.u32.u32.sat e, p, q, r;\nvmad.u32.u32.u32 f, a, b, c;\n' > "$tmp/vmad.ptx"
printf '{"regs": {"d": 0, "e": "0x7fff0000", "f": "0xa12b3e1c"}}\n' > "$tmp/vmad.expect.json"
expect_exit 0 "vmad as the H100" "$PTXRUN" --no-color "$tmp/vmad.ptx" --expect "$tmp/vmad.expect.json"
if [ "$(grep -c 'warning: vmad: the PTX ISA extends a and b read whole by their types and c by the sign of the result; the H100 sign-extends them' "$tmp/err")" = 2 ]; then ok; else fail "vmad: not warned twice: $(cat "$tmp/err")"; fi
# -- debug builds (issue 13): NAME.A.B.ptx takes NAME.B.expect.json, then NAME.A..., then
# NAME.expect.json (a -G build whose values legitimately differ has NAME.debug.expect.json)
mkdir -p "$tmp/tags"
printf 'mov.u32 r, 1;\n' > "$tmp/tags/k.sm_80.ptx"
printf 'mov.u32 r, 2;\n' > "$tmp/tags/k.sm_80.debug.ptx"
printf 'mov.u32 r, 3;\n' > "$tmp/tags/k.sm_90.ptx"
printf '{"regs": {"r": 1}}\n' > "$tmp/tags/k.expect.json"
printf '{"regs": {"r": 2}}\n' > "$tmp/tags/k.debug.expect.json"
printf '{"regs": {"r": 3}}\n' > "$tmp/tags/k.sm_90.expect.json"
expect_exit 0 "each build with its own expect file" "$PTXRUN" test "$tmp/tags"
cp "$tmp/tags/k.sm_80.debug.ptx" "$tmp/tags/k.sm_90.debug.ptx"
expect_exit 0 "the last tag first" "$PTXRUN" test "$tmp/tags/k.sm_90.debug.ptx"
rm "$tmp/tags/k.debug.expect.json"
expect_exit 1 "without it, the debug build is held to k.expect.json" "$PTXRUN" test "$tmp/tags/k.sm_80.debug.ptx"
expect_exit 1 "and k.sm_90.debug.ptx to k.sm_90.expect.json" "$PTXRUN" test "$tmp/tags/k.sm_90.debug.ptx"
if grep -q "expected 3, got 2" "$tmp/out"; then ok; else fail "k.sm_90.debug.ptx against k.sm_90.expect.json"; sed 's/^/  | /' "$tmp/out" | head; fi
# Every -G build of the corpus runs without a warning under --strict (its locals, structs and
# bit-fields in .local memory, read-modify-written) and matches its reference.
for f in tests/kernels/*.sm_80.debug.ptx; do
    n=${f%%.*}
    e=$n.expect.json
    [ -f "$n.debug.expect.json" ] && e=$n.debug.expect.json
    want=0
    case $f in */assert_fail.*) want=3;;          # the assertion fails, as it should
               */printf_all.*) want=3;;           # its %hh call returns the H100's count, warned
    esac
    # vsub .min and vabsdiff d.h1: the H100 departs from the PTX ISA and ptxrun warns, naming both
    # readings (docs/semantics.md); `ptxrun test tests/kernels` checks its values
    case $f in */video_simd.*) want=3;; esac
    expect_exit $want "$f, --strict" "$PTXRUN" --strict "$f" --entry kernel --lanes "$n.lanes.json" --expect "$e"
done

expect_exit 3 "printf_all -G, --strict: the %hh call" "$PTXRUN" --strict tests/kernels/printf_all.sm_80.debug.ptx \
    --entry kernel --lanes tests/kernels/printf_all.lanes.json
grep -qF "error: printf (vprintf) with an %hh conversion: C takes an argument for it, the H100 takes none" "$tmp/err" && ok ||
    fail "printf_all -G --strict: no %hh warning"

# -- half precision (issue 13): what stays refused names its form; ex2.approx on halves runs; a
# packed half's result is defined where the same half of every source is.
printf 'cvt.rn.satfinite.e2m1x2.f32 h, x, y;\n' > "$tmp/e2m1.ptx"
expect_exit 2 "cvt to e2m1x2" "$PTXRUN" "$tmp/e2m1.ptx"
grep -qF "error: ptxrun cannot execute 'cvt' with '.e2m1x2' yet" "$tmp/err" && ok || fail "cvt to e2m1x2: no message naming .e2m1x2"
printf 'cvt.rs.satfinite.f16x2.f32 h, x, y, z;\n' > "$tmp/rs.ptx"
expect_exit 2 "cvt.rs" "$PTXRUN" --check "$tmp/rs.ptx"
grep -qF "error: ptxrun cannot execute 'cvt' with '.rs' yet" "$tmp/err" && ok || fail "cvt.rs: no message naming .rs"
# fma.oob: the ISA does not give the OOB-NaN's bits; ptxrun follows the H100 (0x7ff7 or 0xfff7
# as a or b gives +0, any other NaN 0x7fff), with a warning; .oob is for halves only, not with
# .ftz (as ptxas).
printf 'mov.b16 a, 0x7e00;\nmov.b16 b, 0x3c00;\nmov.b16 o, 0xfff7;\nfma.rn.oob.f16 h, a, b, b;\nfma.rn.oob.f16 g, b, o, b;\n' > "$tmp/oob.ptx"
expect_exit 0 "fma.oob with a NaN" "$PTXRUN" "$tmp/oob.ptx" --regs h,g --hex
grep -qF "warning: fma.oob with a NaN operand: the PTX ISA gives +0 for the OOB-NaN" "$tmp/err" && ok || fail "fma.oob: no warning"
grep -qE '^0 +0x7fff +0x0000$' "$tmp/out" && ok || fail "fma.oob: h is not 0x7fff, g not +0"
printf 'fma.rn.oob.f32 f, a, b, c;\n' > "$tmp/oob32.ptx"
expect_exit 2 "fma.oob.f32" "$PTXRUN" --check "$tmp/oob32.ptx"
grep -qF "error: 'fma.rn.oob.f32': .oob is for .f16, .f16x2, .bf16 and .bf16x2" "$tmp/err" && ok || fail "fma.oob.f32: no message"
printf 'fma.rn.oob.ftz.f16 h, a, b, c;\n' > "$tmp/oobftz.ptx"
expect_exit 2 "fma.oob.ftz" "$PTXRUN" --check "$tmp/oobftz.ptx"
grep -qF ".oob and .ftz do not go together" "$tmp/err" && ok || fail "fma.oob.ftz: no message"
printf 'ex2.approx.f16x2 r, x;\n' > "$tmp/ex2h.ptx"
printf '{"regs": {"x": "0xc5003c00"}}\n' > "$tmp/ex2h.json"
printf '{"regs": {"r": "0x28004000"}}\n' > "$tmp/ex2h.expect.json"
expect_exit 0 "ex2.approx.f16x2 (the H100's table: 2^1, 2^-5)" "$PTXRUN" "$tmp/ex2h.ptx" --lanes "$tmp/ex2h.json" --expect "$tmp/ex2h.expect.json"
printf '.version 8.7\n.target sm_90\n.entry k()\n{\n.reg .b16 h<3>;\nadd.rz.f16 h0, h1, h2;\nret;\n}\n' > "$tmp/addrz.ptx"
expect_exit 2 "add.rz.f16" "$PTXRUN" --check "$tmp/addrz.ptx"
grep -qF "error: 'add.rz.f16': half-precision arithmetic rounds to nearest only (.rn)" "$tmp/err" && ok || fail "add.rz.f16: no message"
# set with halves: 1.0 of a half destination, all ones of a 16-bit or (per half) 32-bit one; a
# set ptxas refuses (f32 from f16) is an error.
printf '.reg .b16 h, g, a, b;\n.reg .u32 r, s, n;\n.reg .b32 x, y;\nset.lt.f16.u32 h, r, s;\nset.gt.s16.bf16 g, a, b;\nset.lt.u32.f16x2 n, x, y;\n' > "$tmp/set.ptx"
printf '{"regs": {"r": 1, "s": 2, "a": "0x3f80", "b": "0x3c00", "x": "0x3c003c00", "y": "0x3c004000"}}\n' > "$tmp/set.json"
printf '{"regs": {"h": "0x3c00", "g": "0xffff", "n": "0x0000ffff"}}\n' > "$tmp/set.expect.json"
expect_exit 0 "set with halves" "$PTXRUN" "$tmp/set.ptx" --lanes "$tmp/set.json" --expect "$tmp/set.expect.json"
printf '.reg .b16 a, b;\n.reg .f32 f;\nset.lt.f32.f16 f, a, b;\n' > "$tmp/set2.ptx"
expect_exit 2 "set.f32.f16" "$PTXRUN" --check "$tmp/set2.ptx"
grep -qF "error: 'set.lt.f32.f16': set does not give .f32 from .f16" "$tmp/err" && ok || fail "set.f32.f16: no message"
# x = 2.0 in its low half, undefined above; y = 1.0 in both: the low half of x + y is 3.0 (0x4200), the
# high one undefined; cvt.rn.f16x2.f32 puts a (defined 1.0) above b (undefined).
printf 'add.rn.f16x2 z, x, y;\ncvt.rn.f16x2.f32 w, f, g;\n' > "$tmp/half2.ptx"
printf '{"regs": {"x": "0x????4000", "y": "0x3c003c00", "f": "0x3f800000", "g": "0x????????"}}\n' > "$tmp/half2.json"
printf '{"regs": {"z": "0x????4200", "w": "0x3c00????"}}\n' > "$tmp/half2.expect.json"
expect_exit 0 "f16x2: each half's own definedness" "$PTXRUN" "$tmp/half2.ptx" --lanes "$tmp/half2.json" --expect "$tmp/half2.expect.json"
# -- issue 13, other instructions and special registers (tests/misc has the cases that run)
H9='.version 8.5\n.target sm_90\n.address_size 64\n'
printf "$H9.visible .entry k(.param .u64 b)\n{\n\t.reg .b64 %%rd<2>;\n\tld.param.u64 %%rd1, [b];\n\tdiscard.global.L2 [%%rd1+64], 128;\n\tret;\n}\n" > "$tmp/discard.ptx"
printf '{"buffers": {"b": {"type": "u32", "count": 64}}, "params": ["@b"]}\n' > "$tmp/buf.json"
expect_exit 3 "discard not 128-byte aligned" "$PTXRUN" --no-color "$tmp/discard.ptx" --lanes "$tmp/buf.json"
expect_stderr_line "discard not 128-byte aligned" "$tmp/discard.ptx:8:2: error: lane 0 (pc 1): 'discard.global.L2' writes 128 bytes at 0x100000000040, which is not 128-byte aligned"
printf "$H9.shared .align 4 .b32 s;\n.visible .entry k()\n{\n\t.reg .b64 %%rd<3>;\n\t.reg .b32 %%r1;\n\tmov.u64 %%rd1, s;\n\tcvta.shared.u64 %%rd2, %%rd1;\n\tldu.u32 %%r1, [%%rd2];\n\tret;\n}\n" > "$tmp/ldu.ptx"
expect_exit 3 "ldu of a .shared address" "$PTXRUN" --no-color "$tmp/ldu.ptx"
expect_stderr_line "ldu of a .shared address" "$tmp/ldu.ptx:11:2: error: lane 0 (pc 2): 'ldu.u32' of a .shared address (0x200000000000000): it reaches .global memory only"
printf "$H9.visible .entry k()\n{\n\t.reg .b64 %%rd<3>;\n\tstacksave.u64 %%rd1;\n\talloca.u64 %%rd2, 2000;\n\tadd.u64 %%rd1, %%rd1, 4000;\n\tstackrestore.u64 %%rd1;\n\tret;\n}\n" > "$tmp/alloca.ptx"
expect_exit 3 "alloca past --stack" "$PTXRUN" --no-color "$tmp/alloca.ptx"
expect_stderr_line "alloca past --stack" "$tmp/alloca.ptx:8:2: error: lane 0: the stack overflows: 'alloca' of 2000 bytes needs 2000 bytes of stack; each thread has 1024 (--stack)"
expect_exit 3 "stackrestore past the stack's end" "$PTXRUN" --no-color --stack 4096 "$tmp/alloca.ptx"
expect_stderr_line "stackrestore past the stack's end" "$tmp/alloca.ptx:10:2: error: lane 0: 'stackrestore' to 0x20000fa0, which is no stack pointer of this activation (0x1ffff830 to 0x20000000)"
printf "$H9.visible .entry k()\n{\n\t.reg .b32 %%r1;\n\tmov.u32 %%r1, %%laneid;\nts: .branchtargets A, B;\n\tbrx.idx %%r1, ts;\nA:\nB:\n\tret;\n}\n" > "$tmp/brx.ptx"
expect_exit 3 "brx.idx past its list" "$PTXRUN" --no-color "$tmp/brx.ptx"
expect_stderr_line "brx.idx past its list" "$tmp/brx.ptx:9:2: error: lane 2: 'brx.idx' with index 2; its list has 2 labels"
printf "$H9.visible .entry k()\n{\n\t.reg .b32 %%r1;\n\tmov.u32 %%r1, 0;\nts:\n\tbrx.idx %%r1, ts;\n\tret;\n}\n" > "$tmp/brx2.ptx"
expect_exit 2 "brx.idx without a list" "$PTXRUN" --no-color --check "$tmp/brx2.ptx"
expect_stderr_line "brx.idx without a list" "$tmp/brx2.ptx:9:15: error: 'ts' is not the label of a .branchtargets list"
printf "$H9.visible .entry k()\n{\n\t.reg .b32 %%r1;\n\tmov.u32 %%r1, %%is_explicit_cluster;\n\tret;\n}\n" > "$tmp/cluster.ptx"
expect_exit 2 "%%is_explicit_cluster is a predicate" "$PTXRUN" --no-color --check "$tmp/cluster.ptx"
expect_stderr_line "%is_explicit_cluster is a predicate" "$tmp/cluster.ptx:7:15: error: special register '%is_explicit_cluster' is a predicate: 'mov.u32' cannot take it here"
printf "$H9.visible .entry k()\n{\n\t.reg .b32 %%r1;\n\tadd.u32 %%r1, %%ctaid.y, 1;\n\tret;\n}\n" > "$tmp/sreg_add.ptx"
expect_exit 2 "add of %%ctaid.y" "$PTXRUN" --no-color --check "$tmp/sreg_add.ptx"
expect_stderr_line "add of %ctaid.y" "$tmp/sreg_add.ptx:7:15: error: 'add.u32' cannot read special register '%ctaid.y': only mov and cvt to an integer or predicate do (PTX ISA; ptxas refuses it): move it to a register first"
# Constant expressions fold as ptxas folds them: each expression and the value worked out for it
# in tests/forms (as a mov.u32 immediate) make the same cubin.
if [ -x "$PTXAS" ]; then
    fold() {   # fold EXPR FILE: a kernel storing mov.u32 EXPR, built by ptxas into FILE
        printf '.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %%r<3>;\n.reg .b64 %%rd<3>;\nld.param.u64 %%rd1, [p];\nmov.u32 %%r1, %s;\nst.global.u32 [%%rd1], %%r1;\nret;\n}\n' "$1" > "$tmp/fold.ptx"
        "$PTXAS" -arch=sm_80 "$tmp/fold.ptx" -o "$2" 2>/dev/null
    }
    while IFS='@' read -r expr value; do
        fold "$expr" "$tmp/fold_a.cubin"; fold "$value" "$tmp/fold_b.cubin"
        if cmp -s "$tmp/fold_a.cubin" "$tmp/fold_b.cubin"; then ok; else fail "ptxas folds '$expr' to another value than $value"; fi
    done <<'FOLD'
123 + 123 * 7@984
(3 + 7) * 10 / 5@20
99 % 10@9
~7@0xfffffff8
!1 + !0@1
3 == 1 | 2 != 2 | 4 >= 4@1
-16 >> 2@0xfffffffc
0xFFFFFFFFU >> 4@0x0fffffff
-7 / 2@0xfffffffd
-7 % 2@1
-1 < 0U@0
1 + 2 << 3@24
6 & 3 ^ 5@7
0 || 5 && 0@0
0b101 + 017 + 0x10@36
0xFFFFFFFFFFFFFFFF >> 60@15
(0xFFFFFFFFFFFFFFFF < 0) + 5@5
~0 >> 60@15
7 % -3 + 100@107
(1 ? -1 : 0U) >> 60@0xffffffff
WARP_SZ * 2 - 1@63
FOLD
fi
# Found by review (issue 13): .sat on conversions to f16, 64-bit integers to bf16 rounded once,
# immediates refused for half operands as ptxas refuses them, a call's one immediate argument.
printf 'cvt.rn.sat.f16.f32 h1, f;\ncvt.rn.sat.f16.f32 h2, g;\ncvt.rn.sat.f16.f32 h3, n;\ncvt.rn.sat.f16.s32 h4, i;\ncvt.rn.bf16.u64 b1, u;\ncvt.rn.bf16.s64 b2, s;\n' > "$tmp/sat16.ptx"
printf '{"regs": {"f": 3.5, "g": -2.0, "n": "0x7fc00000", "i": 5, "u": "0x8080000000000001", "s": "0xff7f7fffffffffff"}}\n' > "$tmp/sat16.json"
# [0, 1]: 3.5 -> 1.0, -2 -> +0, NaN -> +0, 5 -> 1.0; 2^63 + 2^55 + 1 is above the tie between
# bf16 0x5f00 and 0x5f01, so it rounds up (through double it would tie and go to even)
printf '{"regs": {"h1": "0x3c00", "h2": "0x0000", "h3": "0x0000", "h4": "0x3c00", "b1": "0x5f01", "b2": "0xdb01"}}\n' > "$tmp/sat16.expect.json"
expect_exit 0 "cvt .sat to f16, u64/s64 to bf16" "$PTXRUN" "$tmp/sat16.ptx" --lanes "$tmp/sat16.json" --expect "$tmp/sat16.expect.json"
printf 'cvt.rn.sat.bf16.f32 h, f;\n' > "$tmp/satbf.ptx"
expect_exit 2 "cvt .sat to bf16" "$PTXRUN" "$tmp/satbf.ptx"
expect_stderr_line "cvt .sat to bf16" "$tmp/satbf.ptx:1:1: error: 'cvt.rn.sat.bf16.f32': .sat is not for .bf16 (ptxas refuses it)"
printf '.reg .b16 h, d;\nmul.f16 d, h, 2.0;\n' > "$tmp/himm.ptx"
expect_exit 2 "immediate for a half operand" "$PTXRUN" "$tmp/himm.ptx"
expect_stderr_line "immediate for a half operand" "$tmp/himm.ptx:2:15: error: 'mul.f16' takes no immediate for its .f16 operand (ptxas refuses one): move the bits into a register first, as in mov.b16 h, 0x3C00"
{ printf "$H"; printf '.func (.reg .u32 r) inc(.reg .u32 n)\n{\n\tadd.u32 r, n, 1;\n\tret;\n}\n.visible .entry k()\n{\n\t.reg .u32 %%r<4>;\n\tmov.u32 %%r1, 5;\n\tcall (%%r2), inc, (0xFFFFFFFF);\n\tcall (%%r3), inc, (%%r1);\n\tret;\n}\n'; } > "$tmp/onearg2.ptx"
printf '{"regs": {"%%r2": 0, "%%r3": 6}}\n' > "$tmp/onearg.expect.json"
expect_exit 0 "call f, (imm): one argument" "$PTXRUN" "$tmp/onearg2.ptx" --expect "$tmp/onearg.expect.json"
sed 's/inc, (%r1);/inc, (%r1+10);/' "$tmp/onearg2.ptx" > "$tmp/regoff.ptx"
expect_exit 2 "call argument register plus offset" "$PTXRUN" "$tmp/regoff.ptx"
if grep -q "error: a call passes a register or an immediate, not a register plus an offset (ptxas refuses it)" "$tmp/err"; then ok; else fail "call argument register plus offset message"; cat "$tmp/err"; fi
sed 's/inc, (%r1);/inc;/' "$tmp/onearg2.ptx" > "$tmp/noargs.ptx"
expect_exit 2 "call without its argument" "$PTXRUN" "$tmp/noargs.ptx"
if grep -q "error: 'inc' takes 1 arguments and gives 1 results; this call passes 0 and asks for 1" "$tmp/err"; then ok; else fail "call without its argument message"; cat "$tmp/err"; fi
for form in "cvt.bf16.f32 h, f;" "cvt.rni.bf16.f32 h, f;" "cvt.rn.bf16.bf16 h, g;"; do   # as ptxas refuses them
    printf '.reg .b16 h, g;\n.reg .f32 f;\n%s\n' "$form" > "$tmp/bfcvt.ptx"
    expect_exit 2 "refused like ptxas: $form" "$PTXRUN" --check "$tmp/bfcvt.ptx"
done
# -- issue 13, textures and surfaces (tests/images has the cases that run)
HT='.version 7.1\n.target sm_75\n.address_size 64\n'
printf "$HT.visible .entry k(.param .u64 h)\n{\n\t.reg .b64 %%rd1;\n\t.reg .b32 %%r<2>;\n\tld.param.u64 %%rd1, [h];\n\tsuld.b.1d.b32.trap {%%r1}, [%%rd1, {0}];\n\tret;\n}\n" > "$tmp/suld.ptx"
image_error() {   # image_error DESCRIPTION JSON MESSAGE
    printf '%s\n' "$2" > "$tmp/img.json"
    expect_exit 2 "$1" "$PTXRUN" "$tmp/suld.ptx" --lanes "$tmp/img.json"
    expect_stderr_line "$1" "ptxrun: error: $tmp/img.json: $3"
}
image_error "linear filtering of integers" '{"textures": {"t": {"type": "u8", "dims": [4], "filter": "linear"}}, "params": ["@t"]}' 'textures.t: linear filtering needs a texture that returns floats ("type": "f32", or "read": "normalized_float")'
image_error "wrap without normalized coordinates" '{"textures": {"t": {"type": "f32", "dims": [4], "address": "wrap"}}, "params": ["@t"]}' 'textures.t: wrap addressing needs normalized coordinates (CUDA guide)'
image_error "mirror without normalized coordinates" '{"textures": {"t": {"type": "f32", "dims": [4], "address": ["mirror"]}}, "params": ["@t"]}' 'textures.t: mirror addressing needs normalized coordinates (CUDA guide)'
image_error "mipmaps without normalized coordinates" '{"textures": {"t": {"type": "f32", "dims": [4], "levels": 2}}, "params": ["@t"]}' 'textures.t: a mipmapped texture needs normalized coordinates (CUDA guide)'
image_error "too many mipmap levels" '{"textures": {"t": {"type": "f32", "dims": [4], "levels": 4, "normalized_coords": true}}, "params": ["@t"]}' 'textures.t: "levels": 4 is more than the 3 a 4-texel dimension halves into'
image_error "a cubemap that is not square" '{"textures": {"t": {"type": "f32", "dims": [4, 2], "cube": true}}, "params": ["@t"]}' 'textures.t: a cubemap'"'"'s faces are square: "dims": [width, width]'
image_error "unknown key in a sampler" '{"samplers": {"s": {"filter": "linear", "read": "element"}}, "params": ["@s"]}' 'samplers.s: unknown key "read"'
image_error "normalized float of floats" '{"textures": {"t": {"type": "f32", "dims": [4], "read": "normalized_float"}}, "params": ["@t"]}' 'textures.t: "normalized_float" reads 8- and 16-bit integer textures'
image_error "data of the wrong length" '{"surfaces": {"s": {"type": "u32", "dims": [2, 2], "data": [1, 2, 3]}}, "params": ["@s"]}' 'surfaces.s: "data" has the wrong length (4 values: channels x samples x width x height x depth x layers (x 6 faces), summed over the levels)'
printf '.version 8.5\n.target sm_90, texmode_independent\n.address_size 64\n.global .samplerref smp = { filter_mode = linear };\n.entry k()\n{\n\tret;\n}\n' > "$tmp/smpdup.ptx"
printf '{"samplers": {"smp": {"filter": "point"}}}\n' > "$tmp/smpdup.json"
expect_exit 2 "a lanes sampler and a .samplerref of one name" "$PTXRUN" "$tmp/smpdup.ptx" --lanes "$tmp/smpdup.json"
expect_stderr_line "a lanes sampler and a .samplerref of one name" "ptxrun: error: $tmp/smpdup.json: samplers.smp: the program's .samplerref 'smp' has an initializer: give its settings in one place"
image_error "unknown key in a surface" '{"surfaces": {"s": {"type": "u32", "dims": [2], "filter": "linear"}}, "params": ["@s"]}' 'surfaces.s: unknown key "filter"'
printf "$HT.visible .entry k(.param .u32 h)\n{\n\tret;\n}\n" > "$tmp/narrow.ptx"
printf '{"surfaces": {"s": {"type": "u32", "dims": [2]}}, "params": ["@s"]}\n' > "$tmp/img.json"
expect_exit 2 "a handle needs 64 bits" "$PTXRUN" "$tmp/narrow.ptx" --lanes "$tmp/img.json"
expect_stderr_line "a handle needs 64 bits" "ptxrun: error: $tmp/img.json: params.h: a texture, surface or sampler handle needs a 64-bit parameter, not .u32"
printf '{"textures": {"t": {"type": "u32", "dims": [2]}}, "params": ["@t"]}\n' > "$tmp/img.json"
expect_exit 3 "suld through a texture's handle" "$PTXRUN" --no-color "$tmp/suld.ptx" --lanes "$tmp/img.json"
expect_stderr_line "suld through a texture's handle" "$tmp/suld.ptx:9:2: error: lane 0 (pc 1): 'suld.b.1d.b32.trap' through 0xe00000000000, which is not the handle of a surface: it is the texture's"
printf "$HT.visible .entry k(.param .u64 h)\n{\n\t.reg .b64 %%rd1;\n\t.reg .f32 %%f<5>;\n\tld.param.u64 %%rd1, [h];\n\ttex.level.2d.v4.f32.f32 {%%f1, %%f2, %%f3, %%f4}, [%%rd1, {%%f1, %%f1}], %%f1, %%f1;\n\tret;\n}\n" > "$tmp/depth.ptx"
expect_exit 0 "tex.level with a depth compare value checks" "$PTXRUN" --no-color --check "$tmp/depth.ptx"
printf "$HT.visible .entry k(.param .u64 h)\n{\n\t.reg .b64 %%rd1;\n\t.reg .f32 %%f<5>;\n\t.reg .b32 %%r1;\n\tld.param.u64 %%rd1, [h];\n\ttex.cube.v4.f32.f32 {%%f1, %%f2, %%f3, %%f4}, [%%rd1, {%%f1, %%f1, %%f1, %%f1}], {%%r1, %%r1};\n\ttex.2d.v4.f32.f32 {%%f1, %%f2, %%f3, %%f4}, [%%rd1, {%%f1, %%f1}], {%%r1};\n\ttex.2d.v4.f32.f32 {%%f1, %%f2, %%f3, %%f4}, [%%rd1, {%%f1, %%f1}], {%%r1, %%r1}, %%f1, %%f1;\n\ttex.3d.v4.f32.f32 {%%f1, %%f2, %%f3, %%f4}, [%%rd1, {%%f1, %%f1, %%f1, %%f1}], %%f1;\n\tret;\n}\n" > "$tmp/offsets.ptx"
expect_exit 2 "offset and depth operands" "$PTXRUN" --no-color --check "$tmp/offsets.ptx"
expect_stderr_line "an offset on a cubemap" "$tmp/offsets.ptx:10:74: error: 'tex.cube.v4.f32.f32': a cubemap read takes no offset (PTX ISA)"
expect_stderr_line "an offset of the wrong size" "$tmp/offsets.ptx:11:62: error: 'tex.2d.v4.f32.f32' takes an offset of 2 .s32 values"
expect_stderr_line "too many operands after the offset" "$tmp/offsets.ptx:12:79: error: 'tex.2d.v4.f32.f32': too many operands (an offset vector, then a depth compare value)"
expect_stderr_line "depth compare on 3D" "$tmp/offsets.ptx:13:72: error: 'tex.3d.v4.f32.f32': a 3D or multisample read takes no depth compare value (PTX ISA)"
printf "$HT.visible .entry k(.param .u64 h)\n{\n\t.reg .b64 %%rd1;\n\t.reg .f32 %%f<5>;\n\t.reg .pred %%p1;\n\tld.param.u64 %%rd1, [h];\n\ttex.2d.v4.f32.f32 {%%f1, %%f2, %%f3, %%f4}, [%%rd1, %%rd1, {%%f1, %%f1}];\n\ttex.2d.v4.f32.f32 {%%f1, %%f2, %%f3, %%f4}, [%%rd1, {%%f1}];\n\ttex.2d.v4.f32.f32 {%%f1, %%f2, %%f3, %%f4}|%%p1, [%%rd1, {%%f1, %%f1}];\n\tret;\n}\n" > "$tmp/sampler.ptx"
expect_exit 2 "a separate sampler" "$PTXRUN" --no-color --check "$tmp/sampler.ptx"
expect_stderr_line "tex.2d with one coordinate" "$tmp/sampler.ptx:11:50: error: 'tex.2d.v4.f32.f32' takes 2 coordinates, not 1"
printf "$HT.global .texref t;\n.visible .entry k()\n{\n\t.reg .pred %%p;\n\tistypep.texref %%p, t;\n\tret;\n}\n" > "$tmp/istypep.ptx"
expect_exit 2 "istypep of a .texref variable" "$PTXRUN" --no-color --check "$tmp/istypep.ptx"
expect_stderr_line "istypep of a .texref variable" "$tmp/istypep.ptx:8:21: error: 'istypep.texref' takes a handle in a 64-bit register (as ptxas does) here"
# -- .texref, .samplerref and .surfref initializers (PTX ISA "Texture Sampler and Surface Types"; tests/images/texref_init runs one)
opaque_error() {   # opaque_error DESCRIPTION DECLARATION COLUMN MESSAGE
    printf "$HT%s\n.visible .entry k()\n{\n\tret;\n}\n" "$2" > "$tmp/opaque.ptx"
    expect_exit 2 "$1" "$PTXRUN" --no-color --check "$tmp/opaque.ptx"
    expect_stderr_line "$1" "$tmp/opaque.ptx:4:$3: error: $4"
}
opaque_error "a field a .samplerref lacks" '.global .texref t = { memory_layout = 1 };' 23 "'memory_layout' is not a field of a .texref (PTX ISA, \"Texture Sampler and Surface Types\")"
opaque_error "a bad filter_mode" '.global .texref t = { filter_mode = bilinear };' 37 "filter_mode is nearest or linear"
opaque_error "a bad addr_mode" '.global .texref t = { addr_mode_1 = repeat };' 37 "addr_mode_1 is wrap, mirror, clamp_ogl, clamp_to_edge or clamp_to_border"
opaque_error "normalized_coords 2" '.global .texref t = { normalized_coords = 2 };' 43 "normalized_coords is 0 or 1"
opaque_error "a field given twice" '.global .texref t = { filter_mode = linear, filter_mode = nearest };' 45 "filter_mode is given twice, with different values (the PTX ISA does not say which counts)"
opaque_error "an opaque variable with a number" '.global .surfref s = 4;' 22 "a .surfref is initialized with { field = value, ... }"
opaque_error "fields for a plain variable" '.global .u32 x = { width = 4 };' 18 "'field = value' initializes .texref, .samplerref and .surfref variables only"
opaque_error "channel_order not yet" '.global .texref t = { channel_order = 4277 };' 23 "ptxrun cannot execute the 'channel_order' field of a .texref initializer yet"
opaque_error "a .samplerref in the unified mode" '.global .samplerref s;' 9 "a .samplerref needs the independent texturing mode (.target ..., texmode_independent), as ptxas says"
printf "$HT.global .texref t = { filter_mode = linear, addr_mode_0 = clamp_to_border };\n.global .surfref s = { width = 2 };\n.visible .entry k()\n{\n\tret;\n}\n" > "$tmp/opaque.ptx"
opaque_lanes() {   # opaque_lanes DESCRIPTION JSON MESSAGE
    printf '%s\n' "$2" > "$tmp/img.json"
    expect_exit 2 "$1" "$PTXRUN" "$tmp/opaque.ptx" --lanes "$tmp/img.json"
    expect_stderr_line "$1" "ptxrun: error: $tmp/img.json: $3"
}
opaque_lanes "lanes file and initializer disagree on filtering" '{"textures": {"t": {"type": "f32", "dims": [4], "filter": "point"}}}' "textures.t: \"filter\" gives \"point\", but the program's initializer of 't' says filter_mode = linear ($tmp/opaque.ptx:4:23): give the setting in one place"
opaque_lanes "lanes file and initializer disagree on addressing" '{"textures": {"t": {"type": "f32", "dims": [4], "address": "clamp"}}}' "textures.t: \"address\" gives \"clamp\" in dimension 0, but the program's initializer of 't' says addr_mode_0 = clamp_to_border ($tmp/opaque.ptx:4:45): give the setting in one place"
opaque_lanes "a surface of another width" '{"surfaces": {"s": {"type": "u32", "dims": [3]}}}' "surfaces.s: the program's initializer says width = 2 ($tmp/opaque.ptx:5:24), but this surface has 3"
printf '{"textures": {"t": {"type": "f32", "dims": [4], "filter": "linear", "address": "border"}}}\n' > "$tmp/img.json"
expect_exit 0 "lanes file and initializer agree" "$PTXRUN" "$tmp/opaque.ptx" --lanes "$tmp/img.json"
printf "$HT.global .texref t;\n.visible .entry k()\n{\n\t.reg .b64 %%h;\n\t.reg .f32 %%x, %%a<4>;\n\tmov.b64 %%h, t;\n\tret;\n}\n" > "$tmp/handle.ptx"
expect_exit 2 "a .texref's handle by mov.b64" "$PTXRUN" --no-color --check "$tmp/handle.ptx"
expect_stderr_line "a .texref's handle by mov.b64" "$tmp/handle.ptx:9:14: error: the handle of 't' is taken with mov.u64 (as ptxas does)"
sed 's/mov.b64 %h, t;/mov.u64 %h, t;\n\tmov.f32 %x, 0f3FC00000;\n\ttex.1d.v4.f32.f32 {%a0, %a1, %a2, %a3}, [%h, {%x}];/' "$tmp/handle.ptx" > "$tmp/handle2.ptx"
printf '{"block": [1, 1, 1]}\n' > "$tmp/img.json"
expect_exit 3 "a .texref's handle without a texture" "$PTXRUN" --no-color "$tmp/handle2.ptx" --lanes "$tmp/img.json"
expect_stderr_line "a .texref's handle without a texture" "$tmp/handle2.ptx:11:2: error: lane 0 (pc 2): 'tex.1d.v4.f32.f32' through the handle of 't', to which the lanes file gives no texture"
sed 's/mov.b64 %h, t;/cvta.global.u64 %h, t;/' "$tmp/handle.ptx" > "$tmp/handle3.ptx"
expect_exit 2 "cvta of a .texref not yet" "$PTXRUN" --no-color --check "$tmp/handle3.ptx"
expect_stderr_line "cvta of a .texref not yet" "$tmp/handle3.ptx:9:2: error: ptxrun cannot execute cvta of the .texref 't' yet"
printf '.version 8.5\n.target sm_90, texmode_independent\n.address_size 64\n.global .texref t = { filter_mode = linear, width = 4 };\n.visible .entry k()\n{\n\tret;\n}\n' > "$tmp/ind.ptx"
expect_exit 0 "a .texref's sampling in the independent mode" "$PTXRUN" --no-color --check "$tmp/ind.ptx"
expect_stderr_line "a .texref's sampling in the independent mode" "$tmp/ind.ptx:4:23: warning: filter_mode is ignored in a .texref in the independent texturing mode (PTX ISA; a .samplerref gives the sampling)"
# .param .texref/.surfref kernel parameters: named as ptxas takes them, given a handle of the right kind
printf "$HT.func f(.param .texref t)\n{\n\tret;\n}\n.visible .entry k()\n{\n\tret;\n}\n" > "$tmp/ptex.ptx"
expect_exit 2 "a .texref parameter of a .func" "$PTXRUN" --no-color --check "$tmp/ptex.ptx"
expect_stderr_line "a .texref parameter of a .func" "$tmp/ptex.ptx:4:24: error: 't': a .texref, .surfref or .samplerref parameter belongs to a kernel (.entry), as ptxas says"
printf ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k(.param .texref t, .param .surfref s)\n{\n\t.reg .b64 %%rd<3>;\n\t.reg .f32 %%f<4>;\n\tld.param.u64 %%rd1, [t];\n\tcvta.param.u64 %%rd2, s;\n\ttex.1d.v4.f32.s32 {%%f0, %%f1, %%f2, %%f3}, [s, {0}];\n\tret;\n}\n" > "$tmp/ptex2.ptx"
expect_exit 2 "a .texref parameter read by ld" "$PTXRUN" --no-color --check "$tmp/ptex2.ptx"
expect_stderr_line "a .texref parameter read by ld" "$tmp/ptex2.ptx:8:22: error: 't' holds a handle: it is named in tex, tld4, txq, suld, sust, sured, suq or mov.u64 (as ptxas takes)"
expect_stderr_line "cvta of a .surfref parameter not yet" "$tmp/ptex2.ptx:9:2: error: ptxrun cannot execute cvta of the .surfref parameter 's' yet"
expect_stderr_line "tex of a .surfref parameter" "$tmp/ptex2.ptx:10:43: error: 'tex.1d.v4.f32.s32' takes a .texref here; 's' is a .surfref parameter"
printf "$HT.visible .entry k(.param .texref t, .param .surfref s)\n{\n\tret;\n}\n" > "$tmp/ptex3.ptx"
ptex_lanes() {   # ptex_lanes DESCRIPTION PARAMS MESSAGE
    printf '{"params": %s, "textures": {"tx": {"type": "f32", "dims": [4]}}, "surfaces": {"sf": {"type": "u32", "dims": [4]}}}\n' "$2" > "$tmp/img.json"
    expect_exit 2 "$1" "$PTXRUN" "$tmp/ptex3.ptx" --lanes "$tmp/img.json"
    expect_stderr_line "$1" "ptxrun: error: $tmp/img.json: $3"
}
ptex_lanes "a .texref parameter given a surface" '["@sf", "@sf"]' 'params.t: a .texref parameter takes the handle of a texture of "textures", "@name"'
ptex_lanes "a .surfref parameter given a number" '{"t": "@tx", "s": 7}' 'params.s: a .surfref parameter takes the handle of a surface of "surfaces", "@name"'
printf '{"params": ["@tx", "@sf"], "textures": {"tx": {"type": "f32", "dims": [4]}}, "surfaces": {"sf": {"type": "u32", "dims": [4]}}}\n' > "$tmp/img.json"
expect_exit 0 "opaque parameters given their handles" "$PTXRUN" "$tmp/ptex3.ptx" --lanes "$tmp/img.json"
printf "$HT.global .surfref s;\n.visible .entry k()\n{\n\t.reg .b32 %%r<3>;\n\t.reg .b64 %%rd<3>;\n\tsured.p.add.1d.b64.trap [s, {%%r1}], %%rd2;\n\tsured.p.min.1d.u32.trap [s, {%%r1}], %%r2;\n\tsured.b.min.1d.b64.trap [s, {%%r1}], %%rd2;\n\tret;\n}\n" > "$tmp/sured.ptx"
expect_exit 2 "sured types as ptxas takes them" "$PTXRUN" --no-color --check "$tmp/sured.ptx"
expect_stderr_line "sured.p.add.b64" "$tmp/sured.ptx:9:2: error: 'sured.p.add.1d.b64.trap': sured.p takes .b32, or .b64 with .min and .max (PTX ISA)"
expect_stderr_line "sured.p.u32" "$tmp/sured.ptx:10:2: error: 'sured.p.min.1d.u32.trap': sured.p takes .b32, or .b64 with .min and .max (PTX ISA)"
expect_stderr_line "sured.b.b64" "$tmp/sured.ptx:11:2: error: 'sured.b.min.1d.b64.trap': sured.b takes .u32, .u64, .s32, .b32 or .s64 (PTX ISA)"
# -- issue 32: forms ptxas 13.0 refuses though ptxrun ran them, refused at --check with ptxas's reason
printf "$H9.visible .entry k()\n{\n\t.reg .b16 %%h<2>;\n\t.reg .b32 %%r1;\n\t.reg .pred %%p<2>;\n\tcvt.rpi.u8.bf16 %%h1, %%h0;\n\tcvt.rn.bf16.u8 %%h1, %%h0;\n\tcvt.rni.f32.bf16 %%r1, %%h0;\n\tsetp.lt.f16 %%p0|%%p1, %%h0, %%h1;\n\tret;\n}\n" > "$tmp/ptxas_refuses.ptx"
expect_exit 2 "forms ptxas refuses" "$PTXRUN" --no-color --check "$tmp/ptxas_refuses.ptx"
expect_stderr_line "cvt.rpi.u8.bf16" "$tmp/ptxas_refuses.ptx:9:2: error: 'cvt.rpi.u8.bf16': no conversion between .bf16 and .u8 (ptxas refuses it: arguments mismatch)"
expect_stderr_line "cvt.rn.bf16.u8" "$tmp/ptxas_refuses.ptx:10:2: error: 'cvt.rn.bf16.u8': no conversion between .u8 and .bf16 (ptxas refuses it: arguments mismatch)"
expect_stderr_line "cvt.rni.f32.bf16" "$tmp/ptxas_refuses.ptx:11:2: error: 'cvt.rni.f32.bf16': .rni rounds to an integer only from .bf16 to .bf16 (ptxas refuses it: illegal rounding modifier)"
expect_stderr_line "setp.lt.f16 p|q" "$tmp/ptxas_refuses.ptx:12:14: error: 'setp.lt.f16' writes one predicate: p|q is for .f16x2 (ptxas refuses it: predicate output not allowed)"
# alloca's stack pointer grows down (PTX ISA, alloca): stackrestore takes one of the activation's own, from where it
# is now up to where the activation began; a callee's to its caller's, or one below the stack pointer, is a fault
printf "$H9.func f(.param .u64 s)\n{\n\t.reg .b64 %%rd<3>;\n\tld.param.u64 %%rd1, [s];\n\talloca.u64 %%rd2, 8;\n\tstackrestore.u64 %%rd1;\n\tret;\n}\n.visible .entry k()\n{\n\t.reg .b64 %%rd<4>;\n\tstacksave.u64 %%rd1;\n\talloca.u64 %%rd2, 16;\n\t{\n\t.param .u64 a;\n\tst.param.u64 [a], %%rd1;\n\tcall f, (a);\n\t}\n\tsub.u64 %%rd3, %%rd2, 16;\n\tstackrestore.u64 %%rd3;\n\tret;\n}\n" > "$tmp/restore.ptx"
expect_exit 3 "stackrestore to the caller's stack pointer" "$PTXRUN" --no-color "$tmp/restore.ptx"
expect_stderr_line "stackrestore to the caller's stack pointer" "$tmp/restore.ptx:9:2: error: lane 0: 'stackrestore' to 0x20000000, which is no stack pointer of this activation (0x1fffffe8 to 0x1ffffff0)"
sed 's/call f, (a);/mov.u64 %rd3, 0;/' "$tmp/restore.ptx" > "$tmp/restore2.ptx"
expect_exit 3 "stackrestore below the stack pointer" "$PTXRUN" --no-color "$tmp/restore2.ptx"
expect_stderr_line "stackrestore below the stack pointer" "$tmp/restore2.ptx:23:2: error: lane 0: 'stackrestore' to 0x1fffffe0, which is no stack pointer of this activation (0x1ffffff0 to 0x20000000)"
. tests/cli_launch.sh
. tests/cli_grid.sh
. tests/cli_layout.sh
. tests/cli_bounds.sh
. tests/cli_init.sh
. tests/cli_matrix.sh                  # --matrix, --trace's fragments of matrix instructions
. tests/cli_exec.sh                    # ptxrun exec, the CUDA launcher

# -- mul and add without rounding modifiers fused into one fma as ptxas fuses them for the GPU (the default),
# rounded each on its own with --no-fmad: a = b = 2^64, c = -FLT_MAX gives 2^104 on the H100 (fused), where two
# roundings overflow to +inf (tests/h100_more/README.md, "cases3"; tests/h100_more/cases3/fmad_contract). The
# inputs come from the lanes file: of constants (a mov of an immediate) ptxas computes the product itself.
printf '{"regs": {"%%f1": "0x5f800000", "%%f2": "0xff7fffff"}}\n' > "$tmp/fmad.json"
printf '.reg .f32 %%f<8>;\nmul.f32 %%f3, %%f1, %%f1;\nadd.f32 %%f4, %%f3, %%f2;\nmul.f32 %%f5, %%f1, %%f1;\nsub.f32 %%f6, %%f5, %%f1;\n' > "$tmp/fmad.ptx"
expect_exit 0 "fmad: fused" "$PTXRUN" --no-color --hex --regs %f4 --threads 0 --lanes "$tmp/fmad.json" "$tmp/fmad.ptx"
grep -qx "0       0x73800000" "$tmp/out" && ok || { fail "fmad: fused: no 0x73800000"; cat "$tmp/out"; }
expect_stderr_line "fmad: the warning names the lines" "$tmp/fmad.ptx:3:1: warning: mul and add fused into one fma (one rounding) at lines 3, 5, as ptxas fuses them for the GPU (the PTX ISA allows it without a rounding modifier); --no-fmad rounds each on its own"
expect_exit 0 "--no-fmad" "$PTXRUN" --no-color --no-fmad --hex --regs %f4 --threads 0 --lanes "$tmp/fmad.json" "$tmp/fmad.ptx"
grep -qx "0       0x7f800000" "$tmp/out" && ok || { fail "--no-fmad: no 0x7f800000"; cat "$tmp/out"; }
if grep -q "fused" "$tmp/err"; then fail "--no-fmad: a fusion warning"; cat "$tmp/err"; else ok; fi
# The same of constants: ptxas computes 2^64 * 2^64 itself (+inf, its cubin stores 0x7f800000): not fused
printf '.reg .f32 %%f<8>;\nmov.b32 %%f1, 0f5F800000;\nmov.b32 %%f2, 0fFF7FFFFF;\nmul.f32 %%f3, %%f1, %%f1;\nadd.f32 %%f4, %%f3, %%f2;\n' > "$tmp/fmad_const.ptx"
expect_exit 0 "fmad: constants" "$PTXRUN" --no-color --hex --regs %f4 --threads 0 "$tmp/fmad_const.ptx"
grep -qx "0       0x7f800000" "$tmp/out" && ok || { fail "fmad: constants: not 0x7f800000"; cat "$tmp/out"; }
if grep -q "fused" "$tmp/err"; then fail "fmad: constants: a fusion warning"; cat "$tmp/err"; else ok; fi
# Not fused: the product also stored (ptxas keeps the mul and the add; the H100's half_arith_018 and _108 in
# ../shared/hw/half show it), and a module whose .target says debug (ptxas compiles it unoptimised)
fmad_module='.version 8.6\n.target sm_90%s\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .f32 %%f<8>;\n.reg .b64 %%rd1;\nld.param.u64 %%rd1, [p];\nld.global.f32 %%f1, [%%rd1];\nld.global.f32 %%f2, [%%rd1+4];\nmul.f32 %%f3, %%f1, %%f1;\nadd.f32 %%f4, %%f3, %%f2;\nst.global.f32 [%%rd1+8], %%f4;\n%s\nret;\n}\n'
printf "$fmad_module" ', debug' '' > "$tmp/fmad_debug.ptx"
printf "$fmad_module" '' 'st.global.f32 [%rd1+12], %f3;' > "$tmp/fmad_stored.ptx"
printf '{"block": [1, 1, 1], "buffers": {"b": {"type": "b32", "data": ["0x5f800000", "0xff7fffff", 0, 0]}}, "params": ["@b"]}\n' > "$tmp/fmad_b.json"
for f in fmad_debug fmad_stored; do
    expect_exit 0 "$f" "$PTXRUN" --no-color --hex --lanes "$tmp/fmad_b.json" "$tmp/$f.ptx"
    grep -q "^ *0:  0x5f800000  0xff7fffff  0x7f800000" "$tmp/out" && ok || { fail "$f: not rounded twice"; cat "$tmp/out"; }
    if grep -q "fused" "$tmp/err"; then fail "$f: a fusion warning"; cat "$tmp/err"; else ok; fi
done
# A mul that overwrites its own operand: ptxas still fuses it, with the operand's old value (scripts/fmad_ptxas.py)
printf '.reg .f32 %%f<8>;\nmul.f32 %%f1, %%f1, %%f1;\nadd.f32 %%f4, %%f1, %%f2;\n' > "$tmp/fmad_gone.ptx"
expect_exit 0 "fmad: operand overwritten" "$PTXRUN" --no-color --hex --regs %f1,%f4 --threads 0 --lanes "$tmp/fmad.json" "$tmp/fmad_gone.ptx"
grep -qx "0       0x7f800000  0x73800000" "$tmp/out" && ok || { fail "fmad: operand overwritten: not 2^128 rounded, 2^104 fused"; cat "$tmp/out"; }

# A product that loses a later add of two products to one read twice: ptxas fuses it into its earlier add too
# (three FFMA; docs/semantics.md, "Contraction"), which ptxrun does not model: the warning names that add
printf '.reg .f32 %%f<11>;\nmul.f32 %%f5, %%f1, %%f2;\nmul.f32 %%f6, %%f3, %%f4;\nadd.f32 %%f7, %%f5, %%f1;\nadd.f32 %%f9, %%f6, %%f3;\nadd.f32 %%f10, %%f6, %%f5;\n' > "$tmp/fmad_lost.ptx"
expect_exit 0 "fmad: a lost add" "$PTXRUN" --no-color --regs %f7 --threads 0 "$tmp/fmad_lost.ptx"
expect_stderr_line "fmad: a lost add" "$tmp/fmad_lost.ptx:4:1: warning: at line 4, an add reads a product that a later add of two products leaves to the other: ptxas fuses such a product into its earlier adds too where it was tried (one rounding), which ptxrun does not model: it rounds the product there, so the GPU may differ"
# max.f32 of a register with itself is a move (ptxas; the H100's float_000): a signalling NaN passes unchanged,
# warned (the ISA gives the canonical NaN)
printf 'max.f32 %%f2, %%f1, %%f1;\n' > "$tmp/maxself.ptx"
python3 -c 'import json; print(json.dumps({"regs": {"%f1": ["0x7f800001"] * 32}}))' > "$tmp/maxself.json"
expect_exit 0 "max of itself" "$PTXRUN" --no-color --hex --regs %f2 --threads 0 --lanes "$tmp/maxself.json" "$tmp/maxself.ptx"
grep -qx "0       0x7f800001" "$tmp/out" && ok || { fail "max of itself: not the NaN's bits"; cat "$tmp/out"; }
grep -q "warning: a NaN through a neg of a neg (or min/max of a value with itself)" "$tmp/err" && ok || { fail "max of itself: no warning"; cat "$tmp/err"; }
# -- ptxrun test on an empty folder (no case: an error) and with an empty --differs list (nothing
# to sort: the SANITIZE run checks it)
mkdir -p "$tmp/empty_cases"
: > "$tmp/empty_differs.txt"
expect_exit 2 "ptxrun test of an empty folder" "$PTXRUN" test "$tmp/empty_cases"
expect_exit 0 "an empty --differs list" "$PTXRUN" test --differs "$tmp/empty_differs.txt" samples/scan.ptx

# -- the launch workflow (issue 33): every missing parameter, a kernel left without --block, the
#    buffers the table shows, a partial last warp's full membermask, --json fed back, --save-buffers
SAXPY_RUN="samples/saxpy.ptx --grid 4 --param 0=1000 --param 1=2.0 --buffer x=@samples/saxpy_x.npy --buffer y=@samples/saxpy_y.npy --param 2=@x --param 3=@y"
expect_exit 2 "missing parameters" "$PTXRUN" samples/saxpy.ptx --block 256 --param 1=2.0
expect_stderr_line "missing parameters" "ptxrun: error: kernel 'saxpy(int, float, float const*, float*)' needs a value for 3 parameters:"
expect_stderr_line "missing parameter 0" "  parameter 0 (.u32): --param param_0=VALUE"
expect_stderr_line "missing parameter 2" "  parameter 2 (.u64): --param param_2=VALUE"
expect_stderr_line "missing parameter 3" "  parameter 3 (.u64): --param param_3=VALUE"
if grep -q "parameter 1 " "$tmp/err"; then fail "missing parameters: the given one listed"; else ok; fi
expect_exit 0 "a kernel without --block" "$PTXRUN" $SAXPY_RUN
expect_stderr_line "a kernel without --block" 'ptxrun: note: no --block (nor "block" in the lanes file): the kernel runs as a block of one warp, 32 threads'
expect_exit 0 "a kernel with --block" "$PTXRUN" $SAXPY_RUN --block 256
if grep -q "note: no --block" "$tmp/err"; then fail "a kernel with --block: the note said"; else ok; fi
expect_exit 0 "a snippet without a block" "$PTXRUN" samples/scan.ptx --lanes samples/scan.lanes.json
if grep -q "note: no --block" "$tmp/err"; then fail "a snippet: the no --block note said"; else ok; fi
# the table: an input the run left as it was in one line, one it changed in full; --buffers chooses
expect_exit 0 "unchanged buffers" "$PTXRUN" $SAXPY_RUN --block 256
grep -qxF "buffer x: .f32[1000], unchanged (--buffers x shows it)" "$tmp/out" && ok || { fail "unchanged input not summarised"; head -8 "$tmp/out"; }
grep -qxF "buffer y: .f32[1000]" "$tmp/out" && ok || fail "a changed buffer not shown in full"
expect_exit 0 "--buffers x" "$PTXRUN" $SAXPY_RUN --block 256 --buffers x
if grep -qxF "buffer x: .f32[1000]" "$tmp/out" && ! grep -q "^buffer y" "$tmp/out" && [ "$(grep -c '^ *[0-9]*:' "$tmp/out")" -gt 1 ]; then ok; else fail "--buffers x"; head -8 "$tmp/out"; fi
expect_exit 0 "--buffers none" "$PTXRUN" $SAXPY_RUN --block 256 --buffers none
if grep -q "^buffer" "$tmp/out"; then fail "--buffers none shows a buffer"; else ok; fi
expect_exit 2 "--buffers of no buffer" "$PTXRUN" $SAXPY_RUN --block 256 --buffers y,nope
expect_stderr_line "--buffers of no buffer" "ptxrun: error: --buffers: 'nope' is not a buffer of the run; its buffers: x, y"
for list in "" "x," ",x" "x,,y"; do     # an empty name is no buffer's (it showed none, or was passed over)
    expect_exit 2 "--buffers '$list'" "$PTXRUN" $SAXPY_RUN --block 256 --buffers "$list"
    expect_stderr_line "--buffers '$list'" "ptxrun: error: --buffers: '' is not a buffer of the run; its buffers: x, y"
done
# a message of any length: 40 buffers of 125-byte names make the list 5,100 bytes, every name in it
# (it stopped at 4,095 bytes, in the 32nd name); a register's 200-byte name in --regs is found whole
long_args="" long_list="x, y"
for i in $(seq 1 40); do
    n=$(printf 'b%03d_%0120d' "$i" 0); long_args="$long_args --buffer $n=u32:1"; long_list="$long_list, $n"
done
expect_exit 2 "--buffers listing 40 long names" "$PTXRUN" $SAXPY_RUN --block 256 $long_args --buffers nope
expect_stderr_line "--buffers listing 40 long names" "ptxrun: error: --buffers: 'nope' is not a buffer of the run; its buffers: $long_list"
long_reg=r$(printf '%0199d' 7)
printf 'mov.b32 %s, 5;\n' "$long_reg" > "$tmp/long_reg.ptx"
expect_exit 0 "--regs of a 200-byte name" "$PTXRUN" "$tmp/long_reg.ptx" --regs "$long_reg"
grep -q "^lane  *$long_reg\$" "$tmp/out" && ok || fail "--regs of a 200-byte name: not the table's column"
# a block of 48 threads: warp 1 has lanes 0-15 only, and 0xffffffff names 16 more
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry pw(.param .u64 pw_param_0)\n{\n.reg .b32 %%r<3>;\n.reg .b64 %%rd<4>;\nld.param.u64 %%rd1, [pw_param_0];\nmov.u32 %%r1, %%tid.x;\nshfl.sync.bfly.b32 %%r2, %%r1, 16, 31, -1;\nmul.wide.u32 %%rd2, %%r1, 4;\nadd.s64 %%rd3, %%rd1, %%rd2;\nst.global.u32 [%%rd3], %%r2;\nret;\n}\n' > "$tmp/partial_warp.ptx"
expect_exit 0 "a partial warp's full membermask" "$PTXRUN" --no-color "$tmp/partial_warp.ptx" --block 48 --buffer out=u32:48 --param 0=@out
expect_stderr_line "a partial warp's full membermask" "$tmp/partial_warp.ptx:10:1: warning: membermask names lanes past the block's end (its last warp is partial): they take part as exited lanes, and a value read from one is undefined; in warp 1 lanes 0-15"
expect_exit 0 "whole warps' full membermask" "$PTXRUN" --no-color "$tmp/partial_warp.ptx" --block 64 --buffer out=u32:64 --param 0=@out
if grep -q "membermask" "$tmp/err"; then fail "whole warps: a membermask warning"; cat "$tmp/err"; else ok; fi
# an expect file's misspelt key is an error, not a comparison of nothing that passes
printf '{"reg": {"%%r1": 5}}' > "$tmp/misspelt.json"
expect_exit 2 "an expect file's unknown key" "$PTXRUN" $SAXPY_RUN --block 256 --expect "$tmp/misspelt.json"
expect_stderr_line "an expect file's unknown key" "ptxrun: error: $tmp/misspelt.json: unknown key \"reg\" (compared: regs, preds, buffers, exited)"
"$PTXRUN" $SAXPY_RUN --block 256 --json > "$tmp/as_expected.json" 2>/dev/null
expect_exit 0 "--json output as the expect file" "$PTXRUN" $SAXPY_RUN --block 256 --expect "$tmp/as_expected.json"
# --json fed back as the lanes file: the same launch (params, block, grid), each buffer's final data
"$PTXRUN" $SAXPY_RUN --block 256 --json > "$tmp/saxpy1.json" 2>/dev/null
expect_exit 0 "--json round trip" "$PTXRUN" samples/saxpy.ptx --lanes "$tmp/saxpy1.json" --json
cp "$tmp/out" "$tmp/saxpy2.json"
if python3 -c '
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for j in (a, b):
    assert j["params"] == [1000, 2.0, "@x", "@y"] and j["block"] == [256, 1, 1] and j["grid"] == [4, 1, 1], j["params"]
x, y1, y2 = a["buffers"]["x"]["data"], a["buffers"]["y"]["data"], b["buffers"]["y"]["data"]
assert b["buffers"]["x"]["data"] == x and len(y2) == 1000
assert all(y2[i] == 2.0 * x[i] + y1[i] for i in range(1000))   # small halves: exact in f32
' "$tmp/saxpy1.json" "$tmp/saxpy2.json"; then ok; else fail "--json round trip"; fi
# --json of a kernel with 600 registers, one name declared again in an inner { }: every register,
# each key once ("%r1@2" the inner one), and fed back the lanes file sets the inner one by that key
python3 -c '
print(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<600>;")
print("".join("mov.u32 %%r%d, %d;\n" % (i, i) for i in range(600)))
print("{\n.reg .b32 %r1;\nmov.u32 %r1, 1000;\n}\nret;\n}")' > "$tmp/scoped.ptx"
expect_exit 0 "--json of 600 registers" "$PTXRUN" "$tmp/scoped.ptx" --block 1 --json
if python3 -c '
import json, sys
pairs = json.load(open(sys.argv[1]), object_pairs_hook=lambda p: p)
regs = dict(dict(pairs)["regs"])
keys = [k for k, _ in dict(pairs)["regs"]]
assert len(keys) == len(set(keys)) == 601, len(keys)
assert [int(regs[k][0], 16) for k in ("%r1", "%r1@2", "%r599")] == [1, 1000, 599]
' "$tmp/out" 2>/dev/null; then ok; else fail "--json of 600 registers: not every register once"; fi
printf '{"block": [1, 1, 1], "regs": {"%%r1@2": 7}}' > "$tmp/scoped.json"
expect_exit 0 "a lanes file's NAME@2" "$PTXRUN" "$tmp/scoped.ptx" --lanes "$tmp/scoped.json" --regs '%r1'
printf '{"block": [1, 1, 1], "regs": {"%%r1@3": 7}}' > "$tmp/scoped.json"
expect_exit 2 "a lanes file's NAME@3 of a name declared twice" "$PTXRUN" "$tmp/scoped.ptx" --lanes "$tmp/scoped.json"
"$PTXRUN" tests/kernels/printf_all.sm_80.ptx --lanes tests/kernels/printf_all.lanes.json --json > "$tmp/printf1.json" 2>/dev/null
expect_exit 0 "--json with printf's \"stdout\" fed back" "$PTXRUN" tests/kernels/printf_all.sm_80.ptx --lanes "$tmp/printf1.json"
# --save-buffers: its folder checked before the run; a file written whole or not at all
: > "$tmp/not_a_folder"
expect_exit 2 "--save-buffers to a file" "$PTXRUN" $SAXPY_RUN --block 256 --save-buffers "$tmp/not_a_folder"
expect_stderr_line "--save-buffers to a file" "ptxrun: error: --save-buffers $tmp/not_a_folder: not a folder"
if [ -s "$tmp/out" ]; then fail "--save-buffers to a file: the kernel ran first"; else ok; fi
if [ "$(id -u)" != 0 ]; then
    mkdir -p "$tmp/read_only" && chmod a-w "$tmp/read_only"
    expect_exit 2 "--save-buffers to a read-only folder" "$PTXRUN" $SAXPY_RUN --block 256 --save-buffers "$tmp/read_only"
    expect_stderr_line "--save-buffers to a read-only folder" "ptxrun: error: --save-buffers $tmp/read_only: cannot write in the folder: Permission denied"
    if [ -s "$tmp/out" ]; then fail "--save-buffers to a read-only folder: the kernel ran first"; else ok; fi
fi
# a full disk: files of at most 4 KiB (ulimit -f; SIGXFSZ ignored, so a write past it fails with
# EFBIG); x.npy needs 4128 bytes: an error, and nothing left in the folder
mkdir -p "$tmp/small_disk"
expect_exit 2 "--save-buffers on a full disk" sh -c 'trap "" XFSZ; ulimit -f 4; exec "$@" > /dev/null' sh "$PTXRUN" $SAXPY_RUN --block 256 --save-buffers "$tmp/small_disk"
expect_stderr_line "--save-buffers on a full disk" "ptxrun: error: --save-buffers: cannot write '$tmp/small_disk/x.npy': File too large (nothing left there)"
if [ -z "$(ls -A "$tmp/small_disk")" ]; then ok; else fail "--save-buffers on a full disk left: $(ls -A "$tmp/small_disk")"; fi
expect_exit 0 "--save-buffers" "$PTXRUN" $SAXPY_RUN --block 256 --save-buffers "$tmp/small_disk"
if [ "$(ls -A "$tmp/small_disk" | tr '\n' ' ')" = "x.npy y.npy " ] && cmp -s "$tmp/small_disk/x.npy" samples/saxpy_x.npy; then ok; else fail "--save-buffers: $(ls -A "$tmp/small_disk")"; fi
# a file size limit (ulimit -f) without the shell ignoring SIGXFSZ: an error, not a death with the temporary left
mkdir -p "$tmp/limited"
expect_exit 2 "--save-buffers past ulimit -f" sh -c 'ulimit -f 4; exec "$@" > /dev/null' sh "$PTXRUN" $SAXPY_RUN --block 256 --save-buffers "$tmp/limited"
if [ -z "$(ls -A "$tmp/limited")" ]; then ok; else fail "--save-buffers past ulimit -f left: $(ls -A "$tmp/limited")"; fi
# a buffer name of 250 bytes: NAME.npy fits a file name (255), so the temporary must too; a folder whose
# NAME.npy passes PATH_MAX is an error, not a file of a name cut short
long_name=$(printf 'b%.0s' $(seq 250))
printf '{"buffers": {"%s": {"type": "u32", "data": [1, 2]}}, "params": ["@%s"], "block": [1, 1, 1]}' "$long_name" "$long_name" > "$tmp/long_buffer.json"
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\nret;\n}\n' > "$tmp/noop.ptx"
mkdir -p "$tmp/long_save"
expect_exit 0 "--save-buffers of a 250-byte name" "$PTXRUN" "$tmp/noop.ptx" --lanes "$tmp/long_buffer.json" --save-buffers "$tmp/long_save"
if [ "$(ls -A "$tmp/long_save")" = "$long_name.npy" ]; then ok; else fail "--save-buffers of a 250-byte name: $(ls -A "$tmp/long_save")"; fi
deep="$tmp/deep/$(printf 'd%.0s' $(seq 200))"
while [ ${#deep} -lt 3950 ]; do deep="$deep/$(printf 'd%.0s' $(seq 200))"; done
expect_exit 2 "--save-buffers past PATH_MAX" "$PTXRUN" "$tmp/noop.ptx" --lanes "$tmp/long_buffer.json" --save-buffers "$deep"
if [ -z "$(find "$tmp/deep" -type f)" ]; then ok; else fail "--save-buffers past PATH_MAX wrote: $(find "$tmp/deep" -type f | tail -c 80)"; fi
rm -rf "$tmp/deep"
# a long name of two-byte UTF-8 characters, shortened in the middle, stays UTF-8 (was cut inside a character)
python3 -c 'import json; print(json.dumps({"block": [32, 1, 1], "params": {"\u00e9" * 100: 1}}, ensure_ascii=False))' > "$tmp/utf8_key.json"
expect_exit 2 "a long UTF-8 name shortened" "$PTXRUN" samples/saxpy.ptx --lanes "$tmp/utf8_key.json"
if python3 -c 'import sys; t = open(sys.argv[1], "rb").read().decode("utf-8"); assert "\u00e9..." in t' "$tmp/err" 2>/dev/null; then ok
else fail "a long UTF-8 name shortened: not UTF-8"; fi
# a value of 5000 bytes in an option, a lanes key or a path: the message shows it shortened in the
# middle and keeps what follows it (a 4096-byte buffer cut each of these before the reason)
long=$(printf 'q%.0s' $(seq 5000))
long_run() {   # long_run WHAT END ARGS...: exit 2, one line ending in END
    what=$1; end=$2; shift 2
    expect_exit 2 "$what" "$PTXRUN" samples/saxpy.ptx --block 32 --param 0=1 --param 1=2.0 --buffer x=f32:1 --buffer y=f32:1 --param 2=@x --param 3=@y "$@"
    case "$(cat "$tmp/err")" in *"...qqq"*"$end") ok ;; *) fail "$what: the message is cut: $(tail -c 80 "$tmp/err")" ;; esac
}
long_run "a long --buffers name" "' is not a buffer of the run; its buffers: x, y" --buffers "$long"
long_run "a long --cta" "qq'" --cta "$long"
long_run "a long --param name" "; its parameters: 0 param_0 (.u32), 1 param_1 (.f32), 2 param_2 (.u64), 3 param_3 (.u64)" --param "$long=1"
long_run "a long --trace-lines" "' is not LINE, FIRST-LAST or FILE:FIRST-LAST (lines from 1)" --trace --trace-lines "$long"
long_run "a long --buffer file" ".npy': File name too long" --buffer "x=@$long.npy"
long_run "a long --save-buffers folder" "': File name too long" --save-buffers "$tmp/$long"
printf '{"%s": 1}' "$long" > "$tmp/long_key.json"
long_run "a lanes file's long key" "(expected block, grid, cluster, cooperative, active, regs, preds, buffers, params, dynamic_shared, surfaces, textures, samplers)" --lanes "$tmp/long_key.json"
printf '{"regs": {"%s": 1}}' "$long" > "$tmp/long_key.json"
long_run "a lanes file's long register name" "qq'" --lanes "$tmp/long_key.json"
printf '{"%s": 1}' "$long" > "$tmp/long_key.json"
long_run "an expect file's long key" "\" (compared: regs, preds, buffers, exited)" --expect "$tmp/long_key.json"
long_run "a long --param value" "give an integer, a real, 0x bits, @buffer, or JSON such as {\"bytes\": [1, 2]}" --param "0=$long"
printf '{"regs": {"%%r1": "%s"}}' "$long" > "$tmp/long_key.json"
long_run "a lanes file's long value" "\" is not a value (use a number, \"0x...\" bits, or null)" --lanes "$tmp/long_key.json"
# -- long kernel names (an nvcc template kernel's 189 characters, a 500-character name): messages
#    show the C++ name (as c++filt writes it), its middle left out, and lose nothing after it
K=_ZN6ptxrun4demo36block_reduce_with_warp_shuffles_thenIfLi256ELN3cub20BlockReduceAlgorithmE1ENS0_34accumulate_in_registers_then_storeIfEENS0_25output_iterator_with_castIfEEEEvPKT_T3_T2_iijjf
long_kernel() {   # NAME FILE: a kernel of that name and 8 parameters, ptxas-valid
    { printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry %s(\n' "$1"
      for i in 0 1 2; do printf '.param .u64 %s_param_%d,\n' "$1" $i; done
      for i in 3 4 5 6; do printf '.param .u32 %s_param_%d,\n' "$1" $i; done
      printf '.param .f32 %s_param_7\n)\n{\nret;\n}\n' "$1"; } > "$2"
}
long_kernel "$K" "$tmp/template_kernel.ptx"
SHOWN="ptxrun::demo::block_reduce_with_warp_shuffles_then<float, 256, (cub::Blo... int, int, unsigned int, unsigned int, float)"
expect_exit 2 "a template kernel's --param error" "$PTXRUN" "$tmp/template_kernel.ptx" --param n=3
expect_stderr_line "a template kernel's --param error" "ptxrun: error: --param n: kernel '$SHOWN' has no parameter 'n'; its parameters: 0 param_0 (.u64), 1 param_1 (.u64), 2 param_2 (.u64), 3 param_3 (.u32), 4 param_4 (.u32), 5 param_5 (.u32), 6 param_6 (.u32), 7 param_7 (.f32)"
expect_exit 2 "a template kernel's missing parameters" "$PTXRUN" "$tmp/template_kernel.ptx" --param 0=1
expect_stderr_line "a template kernel's missing parameters" "ptxrun: error: kernel '$SHOWN' needs a value for 7 parameters:"
expect_stderr_line "a template kernel's last missing parameter" "  parameter 7 (.f32): --param param_7=VALUE"
LONG=k$(printf '%0499d' 0 | tr 0 x)
long_kernel "$LONG" "$tmp/long_kernel.ptx"
expect_exit 2 "a 500-character kernel's --param error" "$PTXRUN" "$tmp/long_kernel.ptx" --param n=3
expect_stderr_line "a 500-character kernel's --param error" "ptxrun: error: --param n: kernel '$(printf '%.72s' "$LONG")...$(printf '%045d' 0 | tr 0 x)' has no parameter 'n'; its parameters: 0 param_0 (.u64), 1 param_1 (.u64), 2 param_2 (.u64), 3 param_3 (.u32), 4 param_4 (.u32), 5 param_5 (.u32), 6 param_6 (.u32), 7 param_7 (.f32)"
# a parameter's full name (over 500 bytes) is taken, as the short one is (a 256-byte buffer refused it)
expect_exit 2 "a 500-character kernel's full parameter name" "$PTXRUN" "$tmp/long_kernel.ptx" --param "${LONG}_param_0=1" --param 1=1
if grep -q "needs a value" "$tmp/err" && ! grep -q "parameter 0 \|parameter 1 \|expected NAME=VALUE" "$tmp/err"; then ok
else fail "a 500-character kernel's full parameter name"; head -3 "$tmp/err"; fi
expect_exit 2 "a 500-character kernel's missing parameters" "$PTXRUN" "$tmp/long_kernel.ptx" --param 0=1
expect_stderr_line "a 500-character kernel's last missing parameter" "  parameter 7 (.f32): --param param_7=VALUE"
# a lanes file of a long path: the message keeps the path's end, the file's name
D="$tmp/d$(printf '%0239d' 0 | tr 0 w)"
mkdir -p "$D" && printf '{"regz": {}}\n' > "$D/bad_key.json"
expect_exit 2 "a lanes file of a long path" "$PTXRUN" samples/scan.ptx --lanes "$D/bad_key.json"
grep -q "^ptxrun: error: \.\.\..*w/bad_key.json: unknown key \"regz\"" "$tmp/err" && ok || { fail "a lanes file of a long path: its name lost"; cat "$tmp/err"; }
# a refusal naming an external function of 200 characters (ptxas -c accepts the file): whole
F=f$(printf '%0199d' 0 | tr 0 z)
printf '.version 8.0\n.target sm_90\n.address_size 64\n.extern .func %s\n(\n)\n;\n.visible .entry k()\n{\ncall.uni %s, ();\nret;\n}\n' "$F" "$F" > "$tmp/long_extern.ptx"
expect_exit 2 "a call of a long external function" "$PTXRUN" --no-color "$tmp/long_extern.ptx"
expect_stderr_line "a call of a long external function" "$tmp/long_extern.ptx:10:1: error: ptxrun cannot execute a call of '$F' (no body: an external function) yet"
# a fault's message (a diagnostic) naming a buffer of 1200 characters: whole, to its last address
B=b$(printf '%01199d' 0 | tr 0 y)
printf '{"block": [32], "buffers": {"%s": {"type": "u32", "count": 8}}, "params": ["@%s"]}\n' "$B" "$B" > "$tmp/long_buffer.json"
expect_exit 3 "a fault naming a long buffer" "$PTXRUN" --no-color "$tmp/partial_warp.ptx" --lanes "$tmp/long_buffer.json"
grep -q "outside every region; the nearest is '$B' at 0x100000000000\.\.0x100000000020$" "$tmp/err" && ok || { fail "a fault naming a long buffer: the message cut"; head -c 300 "$tmp/err"; }

# -- tests/readme_tour.py (make check runs it on README.md) finds a README whose shown output drifted
mkdir -p "$tmp/tour"
for d in samples tests build docs; do ln -sfn "$PWD/$d" "$tmp/tour/$d"; done
printf '    $ ptxrun --version | cut -c1-6\n    ptxrun\n' > "$tmp/tour/README.md"
expect_exit 0 "readme tour: a true README" python3 tests/readme_tour.py "$tmp/tour/README.md" "$(dirname "$PTXRUN")"
printf '    $ ptxrun --version | cut -c1-6\n    ptxrum\n' > "$tmp/tour/README.md"
expect_exit 1 "readme tour: a drifted README" python3 tests/readme_tour.py "$tmp/tour/README.md" "$(dirname "$PTXRUN")"
# -- ldmatrix, stmatrix, movmatrix (exec/matrix.c): rows 16-byte aligned and in .shared; only the
# lanes whose addresses the form uses (x1: 0-7) count; the whole warp at one instruction
M=tests/matrix
matrix_rows() {   # matrix_rows SPACE [LANE=OFFSET...]: the lanes file of rows.ptx
    python3 -c "
import json, sys
off = [16 * (l & 7) for l in range(32)]
for kv in sys.argv[2:]:
    l, v = kv.split('='); off[int(l)] = int(v)
print(json.dumps({'block': [32], 'regs': {'%off': off, '%space': int(sys.argv[1])}}))" "$@" > "$tmp/rows.json"
}
matrix_rows 0
expect_exit 0 "ldmatrix: aligned rows in .shared" "$PTXRUN" --no-color $M/rows.ptx --lanes "$tmp/rows.json"
matrix_rows 0 3=56
expect_exit 3 "ldmatrix: a row address not 16-byte aligned" "$PTXRUN" --no-color $M/rows.ptx --lanes "$tmp/rows.json"
expect_stderr_line "ldmatrix: a row address not 16-byte aligned" "$M/rows.ptx:21:5: error: lane 3 (pc 4): 'ldmatrix.sync.aligned.m8n8.x1.shared.b16' reads 16 bytes at 0x38, which is not 16-byte aligned"
matrix_rows 0 20=7
expect_exit 0 "ldmatrix .x1: lane 20's address is not used" "$PTXRUN" --no-color $M/rows.ptx --lanes "$tmp/rows.json"
matrix_rows 0 5=256
expect_exit 3 "ldmatrix: a row past the tile" "$PTXRUN" --no-color $M/rows.ptx --lanes "$tmp/rows.json"
matrix_rows 1
expect_exit 3 "ldmatrix: a generic address outside .shared" "$PTXRUN" --no-color $M/rows.ptx --lanes "$tmp/rows.json"
expect_stderr_line "ldmatrix: a generic address outside .shared" "$M/rows.ptx:27:5: error: lane 0 (pc 9): 'ldmatrix.sync.aligned.m8n8.x1.b16' reads a row at 0x100000000000, a generic address outside .shared (.global): the PTX ISA gives these instructions shared memory only"
expect_exit 3 "ldmatrix: a diverged warp" "$PTXRUN" --no-color $M/diverged.ptx
expect_stderr_line "ldmatrix: a diverged warp" "$M/diverged.ptx:20:5: error: 'ldmatrix.sync.aligned.m8n8.x1.shared.b16' is .sync.aligned: the warp's lanes reached it at different instructions"
expect_exit 3 "ldmatrix .x4 after lanes exited" "$PTXRUN" --no-color $M/exited.ptx
expect_stderr_line "ldmatrix .x4 after lanes exited" "$M/exited.ptx:19:5: error: lane 0 (pc 7): 'ldmatrix.sync.aligned.m8n8.x4.shared.b16' needs the row address of lane 16, which has exited"
expect_exit 0 "stmatrix: two lanes naming one row" "$PTXRUN" --no-color $M/collide.ptx
expect_stderr_line "stmatrix: two lanes naming one row" "$M/collide.ptx:15:5: warning: 'stmatrix': a row named again, after an earlier lane (which element lands there the PTX ISA does not say; ptxrun keeps the last write, matrix by matrix, lane by lane), in lanes 4-7"
expect_exit 0 "ldmatrix: a guard false for half the warp" "$PTXRUN" --no-color $M/guarded.ptx
expect_stderr_line "ldmatrix: a guard false for half the warp" "$M/guarded.ptx:17:5: warning: guard false for some of the warp's lanes at a '.sync.aligned' instruction (PTX leaves that undefined; they go on, the others wait until they exit or arrive), in lanes 16-31"
# what ptxas refuses ("Vector of size 1 is expected", "Arguments mismatch"), and forms of later targets
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %%r<2>;\n.reg .u32 %%a;\n%s\nret;\n}\n' \
    'ldmatrix.sync.aligned.m8n8.x1.shared.b16 %r0, [%a];' > "$tmp/m1.ptx"
expect_exit 2 "ldmatrix .x1 without braces" "$PTXRUN" --check --no-color "$tmp/m1.ptx"
expect_stderr_line "ldmatrix .x1 without braces" "$tmp/m1.ptx:8:42: error: 'ldmatrix.sync.aligned.m8n8.x1.shared.b16' takes a vector of 1 .b32 register here (.x1): {r}"
sed -i 's/^ldmatrix.*/movmatrix.sync.aligned.m8n8.trans.b16 %r0, 5;/' "$tmp/m1.ptx"
expect_exit 2 "movmatrix of an immediate" "$PTXRUN" --check --no-color "$tmp/m1.ptx"
sed -i 's/^movmatrix.*/ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r0, %r1}, [%a];/' "$tmp/m1.ptx"
expect_exit 2 "ldmatrix .m16n16 (sm_100a)" "$PTXRUN" --check --no-color "$tmp/m1.ptx"
expect_stderr_line "ldmatrix .m16n16 (sm_100a)" "$tmp/m1.ptx:8:22: error: ptxrun cannot execute 'ldmatrix' with '.m16n16' yet"
# wmma: CUDA's fill_fragment of a half is `mov.b32 %r, {%h, %h}` (every element alike: no warning
# about the fragment's layout); two different halves are two different elements (a warning)
printf '.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 pd)\n{\n.reg .b32 %%r<4>;\n.reg .b16 %%h<2>;\n.reg .u64 %%d;\nld.param.u64 %%d, [pd];\nmov.b16 %%h0, 0x3e00;\nmov.b16 %%h1, 0x3e00;\n%s\nwmma.store.d.sync.aligned.row.m16n16k16.global.f16 [%%d], {%%r0, %%r0, %%r0, %%r0}, 16;\nret;\n}\n' \
    'mov.b32 %r0, {%h0, %h0};' > "$tmp/wf.ptx"
expect_exit 0 "wmma fill of a half" "$PTXRUN" --no-color --buffer d=b32:128 --param 0=@d "$tmp/wf.ptx"
if grep -q "names a register of a wmma fragment" "$tmp/err"; then fail "wmma fill of a half: warned"; else ok; fi
sed -i 's/^mov.b32 %r0, {%h0, %h0};/mov.b32 %r0, {%h0, %h1};/' "$tmp/wf.ptx"
expect_exit 0 "wmma fill of two halves" "$PTXRUN" --no-color --buffer d=b32:128 --param 0=@d "$tmp/wf.ptx"
expect_stderr_line "wmma fill of two halves" "$tmp/wf.ptx:12:1: warning: 'mov.b32' names a register of a wmma fragment: the PTX ISA leaves which matrix element each register holds unspecified; ptxrun uses the layout an H100 showed for f16 m16n16k16 (two m16n8k16 fragments), derived the same way for the other shapes and types (docs/semantics.md, wmma)"
echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
