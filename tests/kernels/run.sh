#!/bin/sh
# Run every *.ptx in this directory with ptxrun against NAME.lanes.json / NAME.expect.json
# (NAME is the file name up to the first dot). Needs no CUDA.
#
#   PTXRUN=build/ptxrun sh tests/kernels/run.sh
#
# Prints one line per failure and a final line "kernels: N passed, M failed"; exits 1 if any
# kernel failed.
dir=$(cd "$(dirname "$0")" && pwd) || exit 2
PTXRUN=${PTXRUN:-ptxrun}
pass=0
fail=0
tmp=${TMPDIR:-/tmp}/ptxrun-kernels-run.$$
trap 'rm -f "$tmp"' EXIT INT TERM
for ptx in "$dir"/*.ptx; do
    [ -e "$ptx" ] || continue
    file=${ptx##*/}
    name=${file%%.*}
    if [ ! -f "$dir/$name.lanes.json" ] || [ ! -f "$dir/$name.expect.json" ]; then
        echo "FAIL $file: missing $name.lanes.json or $name.expect.json"
        fail=$((fail + 1))
        continue
    fi
    "$PTXRUN" "$ptx" --entry kernel -w --lanes "$dir/$name.lanes.json" \
        --expect "$dir/$name.expect.json" >/dev/null 2>"$tmp"
    rc=$?
    if [ "$rc" -eq 0 ]; then
        pass=$((pass + 1))
    else
        msg=$(grep -v '^[[:space:]]*$' "$tmp" | head -n 1)
        n=$(grep -c . "$tmp")
        [ "$n" -gt 1 ] && msg="$msg (+$((n - 1)) more lines)"
        echo "FAIL $file (exit $rc): $msg"
        fail=$((fail + 1))
    fi
done
echo "kernels: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
