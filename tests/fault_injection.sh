#!/bin/sh
# Fails every allocation in turn (PTXRUN_FAIL_ALLOC_AT=1, 2, ...) in a build made with
# -DPTXRUN_FAULT_INJECTION: each run must either succeed or end with "out of memory" and exit
# status 3 -- never a crash, a hang or another error. (Output to a full disk and to a closed
# pipe is tested in tests/cli.sh.)
# usage: PTXRUN=build/fi/ptxrun sh tests/fault_injection.sh
set -u
PTXRUN=${PTXRUN:-build/fi/ptxrun}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# sweep NAME STATUS ARGS...: every allocation of one run fails once; a run whose
# allocations all succeed must end with STATUS (2 for input with mistakes in it)
sweep() {
    name=$1; want=$2; shift 2
    n=1
    while :; do
        PTXRUN_FAIL_ALLOC_AT=$n timeout 20 "$PTXRUN" "$@" >/dev/null 2>"$tmp/err"
        rc=$?
        if [ "$rc" -eq "$want" ] && ! grep -q "out of memory" "$tmp/err"; then
            passed=$((passed + 1))
            echo "$name: ok after failing each of its $((n - 1)) allocations in turn"
            return
        fi
        if [ "$rc" -ne 3 ] || ! grep -q "^ptxrun: error: out of memory" "$tmp/err"; then
            failed=$((failed + 1))
            echo "FAIL $name: allocation $n failed and ptxrun exited $rc:"
            head -5 "$tmp/err"
            return
        fi
        n=$((n + 1))
        if [ "$n" -gt 20000 ]; then failed=$((failed + 1)); echo "FAIL $name: no end"; return; fi
    done
}

sweep "snippet run" 0 -w samples/scan.ptx --lanes samples/scan.lanes.json --expect samples/scan.expect.json --json
sweep "nvcc kernel run" 0 -w tests/kernels/atomics.sm_80.ptx --lanes tests/kernels/atomics.lanes.json \
    --expect tests/kernels/atomics.expect.json --trace=json
sweep "grid of multi-warp CTAs" 0 -w tests/kernels/grid_blocks.sm_80.ptx --lanes tests/kernels/grid_blocks.lanes.json \
    --expect tests/kernels/grid_blocks.expect.json --warps 1
sweep "check with debug sections" 0 --check tests/ptx/nvcc/noinline_call.sm_75.debug.ptx
sweep "syntax errors" 2 --check tests/ptx/bad/three_mistakes.ptx.txt --dump-ir
sweep "kernels listed with their C++ names" 0 --list-kernels --json tests/entry/templates.ptx
sweep "a kernel of several not chosen" 2 tests/entry/templates.ptx --entry reduce

echo "fault injection: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
