#!/bin/sh
# With BENCH_PTXAS=1 and CUDA installed, times `ptxas` on the module bench_frontend timed
# `ptxrun --check` on (bench_frontend prints that figure, stopped after 20 s if it takes longer).
# usage: compare_ptxas.sh PTXRUN FILE.ptx
set -eu
ptxrun=$1
file=$2
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
seconds() { # command...: wall time in seconds
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l 2>/dev/null || awk "BEGIN { print $end - $start }"
}
size=$(wc -c < "$file")
[ -x "$ptxrun" ] || { echo "compare_ptxas.sh: no ptxrun at $ptxrun" >&2; exit 2; }
if [ "${BENCH_PTXAS:-0}" != 1 ]; then
    echo "ptxas comparison skipped (it takes about 10 minutes on this file): make bench BENCH_PTXAS=1"
elif [ -x "$ptxas" ]; then
    t=$(seconds timeout 600 "$ptxas" -arch=sm_90 -O0 "$file" -o /dev/null) &&
        awk -v t="$t" -v s="$size" 'BEGIN { printf "ptxas -O0 on the same file: %.3f s, %.2f MB/s\n", t, s / 1e6 / t }'
else
    echo "ptxas not found at $ptxas: no comparison"
fi
