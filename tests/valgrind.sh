#!/bin/sh
# Runs every sample and corpus kernel, the cluster and async cases (and a few error paths) under valgrind's memcheck:
# zero errors and zero leaks, or exit 1.
# usage: PTXRUN=build/ptxrun sh tests/valgrind.sh
set -u
PTXRUN=${PTXRUN:-build/ptxrun}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind: not installed (scripts/deps.sh installs it)"; exit 1; }
vg="valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all --show-leak-kinds=all"
passed=0
failed=0
run() { # run DESCRIPTION ARGS...: fails only on valgrind's exit code
    what=$1; shift
    $vg "$PTXRUN" "$@" >/dev/null 2>"$tmp"
    if [ $? -eq 99 ]; then failed=$((failed + 1)); echo "FAIL $what"; cat "$tmp"; else passed=$((passed + 1)); fi
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for lanes in samples/*.lanes.json tests/kernels/*.lanes.json tests/bulk/*.lanes.json tests/corpus/*.lanes.json; do
    name=${lanes%.lanes.json}
    entry=
    case $name in tests/kernels/*) entry="--entry kernel" ;; esac   # CUB's modules add a second kernel
    for ptx in "$name".ptx "$name".*.ptx; do
        [ -f "$ptx" ] || continue
        run "$ptx" -w "$ptx" --lanes "$lanes" --expect "$name.expect.json" --json $entry
    done
done
for lanes in tests/cluster/*.lanes.json; do     # clusters: CTAs that run together, their faults and deadlocks
    run "${lanes%.lanes.json}.ptx" -w "${lanes%.lanes.json}.ptx" --lanes "$lanes"
done
for lanes in tests/async/*.lanes.json tests/async/nvcc/*.lanes.json; do   # cp.async, mbarrier: copies on their way, faults
    for ptx in "${lanes%.lanes.json}".ptx "${lanes%.lanes.json}".*.ptx; do
        [ -f "$ptx" ] && run "$ptx" -w "$ptx" --lanes "$lanes"
    done
done
run "check of the nvcc corpus file with debug sections" --check tests/ptx/nvcc/printf.sm_75.debug.ptx
run "dump-ir" --dump-ir tests/ptx/nvcc/noinline_call.sm_90.ptx
run "syntax errors" --check tests/ptx/bad/three_mistakes.ptx.txt
run "deadlock" samples/deadlock.ptx
run "trace" -w samples/butterfly.ptx --lanes samples/butterfly.lanes.json --trace
run "trace json" -w samples/scan.ptx --lanes samples/scan.lanes.json --trace=json
run "test runner" test -j 1 samples
run "grid on 4 threads" -w -j 4 tests/kernels/reduce_templates.sm_90.ptx --lanes tests/kernels/reduce_templates.lanes.json --entry kernel
run "grid on 4 threads, run again one by one" -w -j 4 tests/kernels/grid_blocks.sm_90.ptx --lanes tests/kernels/grid_blocks.lanes.json
run "a kernel chosen by its C++ name" -w tests/entry/templates.ptx --lanes tests/entry/templates.lanes.json \
    --expect tests/entry/templates.expect.json --entry 'reduce<int, 4u, true>'
run "kernels listed" tests/entry/templates.ptx
run "--list-kernels --json" --list-kernels --json tests/entry/templates.ptx
echo "valgrind: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
