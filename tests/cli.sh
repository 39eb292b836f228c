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

# -- a syntax error: file:line:col, the line, a caret; three mistakes, three errors
expect_exit 2 "three mistakes" "$PTXRUN" --check --no-color tests/ptx/bad/three_mistakes.ptx.txt
expect_stderr_line "mistake 1" "tests/ptx/bad/three_mistakes.ptx.txt:11:2: error: 'shfl.sync.bfly.b32' takes 5 operands, not 4"
expect_stderr_line "mistake 2" "tests/ptx/bad/three_mistakes.ptx.txt:12:19: error: unexpected identifier '%r1' (expected ',', ';', '+' or '|')"
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

# -- every nvcc file checks clean
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

# -- every sample runs and matches its expected state (computed by samples/make_expected.py)
n=0
for lanes in samples/*.lanes.json; do
    name=${lanes%.lanes.json}
    expect_exit 0 "sample $name" "$PTXRUN" -w "$name.ptx" --lanes "$lanes" --expect "$name.expect.json"
    n=$((n + 1))
done
[ "$n" -ge 9 ] && ok || fail "only $n samples"

# -- the instruction table in docs/ is what ops.def says
"$PTXRUN" --list-ops > "$tmp/instructions.md"
if cmp -s "$tmp/instructions.md" docs/instructions.md; then ok; else fail "docs/instructions.md is stale: run 'make docs'"; fi

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
