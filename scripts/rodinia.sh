#!/bin/bash
# Run Rodinia's CUDA programs (github.com/yuhc/gpu-rodinia, sources unmodified) through ptxrun's
# libcudart/libcuda with small inputs and compare what they compute with Rodinia's CPU (OpenMP)
# versions of the same programs, built with g++/gcc from the same checkout.
#
#   RODINIA=/path/to/gpu-rodinia scripts/rodinia.sh [PROGRAM...]
#
# Environment: RODINIA (required), BIN (default /tmp/ptxrun-rodinia), BUILD (ptxrun's build dir,
# default build/ here), NVCC (default /usr/local/cuda/bin/nvcc), ARCH (default 90: compute_90 PTX
# only), TIMEOUT (seconds per run, default 300). Needs nvcc, gcc, g++ (with OpenMP) and python3.
# Not part of `make check`.
#
# Build flags: nvcc -cudart shared; CUDA 13 removed cudaThreadSynchronize, so it is defined to its
# successor cudaDeviceSynchronize on the command line (-D; the sources are not edited). Programs that
# use what CUDA 12/13 removed from the language or the headers (texture references: kmeans, leukocyte,
# mummergpu; cudaDeviceProp.clockRate/deviceOverlap/computeMode, cudaThreadExit: gaussian, huffman,
# hybridsort) do not build with CUDA 13 and are reported as build-fail. Programs whose inputs are only in
# Rodinia's separate data package (cfd, b+tree, heartwall, dwt2d, srad_v1, myocyte, kmeans, leukocyte,
# mummergpu) are not run. Backprop, lavaMD and particlefilter seed their random inputs from the clock
# (or print no result), so nothing can be compared: they are not run either.
#
# What is compared (inputs generated here, the same for both versions):
#   lud            lud_cuda -s 64 -v: the program's own check (it multiplies L and U back on the CPU
#                  and prints "dismatch" for any element off by more than its tolerance)
#   nw             needle 64 10 (random sequences from srand(7)); built with -DTRACEBACK both, which
#                  writes the alignment's traceback to result.txt: compared exactly
#   pathfinder     256 columns, 20 rows (srand(9) walls), -DBENCH_PRINT both: the input row and the
#                  final row of costs, compared exactly
#   bfs            a random graph of 4096 nodes in Rodinia's format, written here (Rodinia's graphgen is
#                  in the data package): result.txt (the cost of each node) compared exactly
#   hotspot        64x64 grid, 2 steps, random temperature/power files written here: the output file
#                  against a model of the CUDA program's arithmetic written here in Python (Rodinia's
#                  OpenMP hotspot computes something else: a 1000 times smaller step, other edges),
#                  relative tolerance 1e-5
#   hotspot3D      64x64x8, 2 iterations, random files: as hotspot
#   srad_v2        64x64 image (srand(7)), 2 iterations, -DOUTPUT both (and -DITERATION for the OpenMP
#                  one, without which it does one iteration only): the image, tolerance 1e-4
#   nn             4 files of 200 hurricanes from Rodinia's own hurricane_gen, the 5 nearest to
#                  (30,90): records and distances compared (tolerance 1e-4)
#   streamcluster  1024 random points of 16 dimensions (srand48(SEED)), the centers it writes,
#                  tolerance 1e-4
# Result column: match, differ (first differences shown), fault (a kernel fault ptxrun reported while
# the program, which checks no errors, went on and exited 0), fail (status), timeout, build-fail.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
: "${RODINIA:?set RODINIA to a checkout of yuhc/gpu-rodinia}"
BIN=${BIN:-/tmp/ptxrun-rodinia}
BUILD=${BUILD:-$here/build}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
ARCH=${ARCH:-90}
TIMEOUT=${TIMEOUT:-300}
R=$RODINIA
mkdir -p "$BIN"
names=("$@")
want() { [ ${#names[@]} -eq 0 ] && return 0; local n; for n in "${names[@]}"; do [ "$n" = "$1" ] && return 0; done; return 1; }

nv() {  # OUT SRCDIR ARGS...: build a CUDA program (unless built), log in OUT.build.log
    local out=$1 dir=$2; shift 2
    [ -x "$BIN/$out" ] && return 0
    (cd "$dir" && "$NVCC" -cudart shared -gencode "arch=compute_$ARCH,code=compute_$ARCH" -lineinfo -w \
        -Wno-deprecated-gpu-targets -DcudaThreadSynchronize=cudaDeviceSynchronize "$@" -o "$BIN/$out") \
        > "$BIN/$out.build.log" 2>&1
}
cc() {  # OUT SRCDIR COMPILER ARGS...: build a CPU program
    local out=$1 dir=$2 comp=$3; shift 3
    [ -x "$BIN/$out" ] && return 0
    (cd "$dir" && $comp -O2 -fopenmp "$@" -o "$BIN/$out" -lm) > "$BIN/$out.build.log" 2>&1
}
gpu() {  # run a CUDA program through the shims: DIR LOG CMD...
    local dir=$1 log=$2; shift 2
    (cd "$dir" && LD_LIBRARY_PATH="$BUILD/cuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        timeout -k 5 "$TIMEOUT" "$@" < /dev/null > "$log" 2>&1)
}
cpu() { local dir=$1 log=$2; shift 2; (cd "$dir" && timeout -k 5 "$TIMEOUT" "$@" < /dev/null > "$log" 2>&1); }

# compare FILE_GPU FILE_CPU RTOL: the numbers of the two files pair by pair (|a-b| <= rtol*max(|a|,|b|)
# + 1e-30; exactly when RTOL is 0) and their other words exactly; prints the first differences
compare() {
    python3 - "$1" "$2" "$3" <<'EOF'
import sys, re
a = open(sys.argv[1], errors='replace').read().split()
b = open(sys.argv[2], errors='replace').read().split()
rtol = float(sys.argv[3])
def num(w):
    try: return float(w)
    except ValueError: return None
bad = []; worst = 0.0
if len(a) != len(b): bad.append(f'{len(a)} words vs {len(b)}')
for i, (x, y) in enumerate(zip(a, b)):
    fx, fy = num(x), num(y)
    if fx is not None and fy is not None:
        d = abs(fx - fy); scale = max(abs(fx), abs(fy))
        if scale: worst = max(worst, d / scale)
        if d > rtol * scale + 1e-30: bad.append(f'word {i}: {x} vs {y}')
    elif x != y: bad.append(f'word {i}: {x!r} vs {y!r}')
if bad: print('; '.join(bad[:3]) + (f' ... ({len(bad)} differences)' if len(bad) > 3 else '')); sys.exit(1)
print(f'{len(a)} words equal (largest relative difference {worst:.2g})')
EOF
}

row() { printf '%-14s %-10s %6s  %s\n' "$1" "$2" "$3" "$(echo "$4" | tr '\n' ' ' | tr -s ' ' | cut -c1-220)"; }
status() {  # NAME RC LOG: a row for a failed or timed-out run; returns 1 then
    if [ "$2" -eq 124 ] || [ "$2" -eq 137 ]; then row "$1" timeout "$secs" "$(tail -n 2 "$3")"; return 1; fi
    # a kernel fault the program does not check for (it exits 0): ptxrun's report names it
    if [ "$2" -eq 0 ] && grep -q '^<.*>:[0-9]*:[0-9]*: error: ' "$3"; then
        row "$1" fault "$secs" "$(grep -m1 -E ': error: ' "$3" | sed 's/^<[^>]*>:[0-9:]* //') at $(grep -m1 -oE '[^ /]+\.cu:[0-9]+' "$3")"
        return 1
    fi
    if [ "$2" -ne 0 ]; then
        local why; why=$(grep -m2 -E 'ptxrun|not supported|cannot execute' "$3")
        row "$1" "fail($2)" "$secs" "${why:-$(tail -n 2 "$3")}"; return 1
    fi
}
timed() { local t0; t0=$(date +%s.%N); "$@"; local rc=$?; secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)"); return $rc; }
buildfail() { row "$1" build-fail - "$(grep -m2 error "$BIN/$2.build.log")"; }

[ -e "$BUILD/cuda/libcudart.so.13" ] || { echo "no $BUILD/cuda/libcudart.so.13: build ptxrun's shims first" >&2; exit 2; }
printf '%-14s %-10s %6s  %s\n' program result secs 'what was compared / reason'
W=$BIN/work; mkdir -p "$W"

if want lud; then
    if nv lud_cuda "$R/cuda/lud" -Icommon cuda/lud.cu cuda/lud_kernel.cu common/common.c; then
        timed gpu "$W" "$W/lud.gpu" "$BIN/lud_cuda" -s 64 -v; rc=$?
        if status lud $rc "$W/lud.gpu"; then
            if grep -q dismatch "$W/lud.gpu"; then row lud differ "$secs" "$(grep -m2 dismatch "$W/lud.gpu")"
            else row lud match "$secs" "its own CPU check of L*U against the 64x64 input: no dismatch"; fi
        fi
    else buildfail lud lud_cuda; fi
fi

if want nw; then
    if nv needle "$R/cuda/nw" -DTRACEBACK needle.cu && cc needle_omp "$R/openmp/nw" g++ needle.cpp; then
        mkdir -p "$W/nw.g" "$W/nw.c"
        timed gpu "$W/nw.g" "$W/nw.gpu" "$BIN/needle" 64 10; rc=$?
        if status nw $rc "$W/nw.gpu"; then
            cpu "$W/nw.c" "$W/nw.cpu" "$BIN/needle_omp" 64 10 1
            if why=$(compare "$W/nw.g/result.txt" "$W/nw.c/result.txt" 0); then row nw match "$secs" "traceback (result.txt): $why"
            else row nw differ "$secs" "$why"; fi
        fi
    else buildfail nw needle; fi
fi

if want pathfinder; then
    if nv pathfinder "$R/cuda/pathfinder" -DBENCH_PRINT pathfinder.cu &&
       cc pathfinder_omp "$R/openmp/pathfinder" g++ pathfinder.cpp; then
        timed gpu "$W" "$W/pf.gpu" "$BIN/pathfinder" 256 20 5; rc=$?
        if status pathfinder $rc "$W/pf.gpu"; then
            cpu "$W" "$W/pf.cpu" "$BIN/pathfinder_omp" 256 20
            # the input row and the result row: the last two lines of integers
            grep -E '^([0-9]+ )+$' "$W/pf.gpu" | tail -n 2 > "$W/pf.g"; grep -E '^([0-9]+ )+$' "$W/pf.cpu" | tail -n 2 > "$W/pf.c"
            if why=$(compare "$W/pf.g" "$W/pf.c" 0); then row pathfinder match "$secs" "first and final rows: $why"
            else row pathfinder differ "$secs" "$why"; fi
        fi
    else buildfail pathfinder pathfinder; fi
fi

if want bfs; then
    if nv bfs "$R/cuda/bfs" -I../util bfs.cu && cc bfs_omp "$R/openmp/bfs" g++ bfs.cpp; then
        # Rodinia's graph format: N; N lines "first_edge degree"; the source; E; E lines "dest weight"
        awk 'BEGIN { srand(5); n = 4096; print n; e = 0
                     for (i = 0; i < n; i++) { d[i] = 1 + int(rand() * 6); print e, d[i]; e += d[i] }
                     print 0; print e
                     for (i = 0; i < n; i++) for (k = 0; k < d[i]; k++) print int(rand() * n), 1 }' > "$W/graph4096.txt"
        mkdir -p "$W/bfs.g" "$W/bfs.c"
        timed gpu "$W/bfs.g" "$W/bfs.gpu" "$BIN/bfs" "$W/graph4096.txt"; rc=$?
        if status bfs $rc "$W/bfs.gpu"; then
            cpu "$W/bfs.c" "$W/bfs.cpu" "$BIN/bfs_omp" 1 "$W/graph4096.txt"
            if why=$(compare "$W/bfs.g/result.txt" "$W/bfs.c/result.txt" 0); then row bfs match "$secs" "costs (result.txt): $why"
            else row bfs differ "$secs" "$why"; fi
        fi
    else buildfail bfs bfs; fi
fi

if want hotspot; then
    # Rodinia's OpenMP hotspot is not the same computation (its time step is 1000 times smaller and its
    # edges are handled apart), so the reference is a model of the CUDA program's own arithmetic written
    # here (below): float32 inputs, its constants rounded as its C expressions round them, 2 steps.
    if nv hotspot "$R/cuda/hotspot" hotspot.cu; then
        awk 'BEGIN { srand(1); for (i = 0; i < 4096; i++) printf "%.6f\n", 320 + rand() * 20 }' > "$W/temp_64"
        awk 'BEGIN { srand(2); for (i = 0; i < 4096; i++) printf "%.8f\n", rand() * 0.001 }' > "$W/power_64"
        timed gpu "$W" "$W/hs.gpu" "$BIN/hotspot" 64 2 2 "$W/temp_64" "$W/power_64" "$W/hs.g.out"; rc=$?
        if status hotspot $rc "$W/hs.gpu"; then
            python3 - "$W/temp_64" "$W/power_64" 64 2 > "$W/hs.ref.out" <<'PYEOF'
import sys, struct
f = lambda x: struct.unpack('f', struct.pack('f', x))[0]      # round to float32
T = [f(float(l)) for l in open(sys.argv[1])]; P = [f(float(l)) for l in open(sys.argv[2])]
n = int(sys.argv[3]); steps = int(sys.argv[4])
t_chip, chip = f(0.0005), f(0.016)
gh = gw = f(chip / n)                                          # float / int: float
Cap = f(0.5 * 1.75e6 * t_chip * gw * gh)                       # double expression, stored as float
Rx = f(gw / (2.0 * 100 * t_chip * gh)); Ry = f(gh / (2.0 * 100 * t_chip * gw))
Rz = f(t_chip / f(f(100 * gh) * gw))                           # all float arithmetic
max_slope = f(3.0e6 / (0.5 * t_chip * 1.75e6)); step = f(0.001 / max_slope)
sdc, Rx1, Ry1, Rz1 = f(step / Cap), f(1 / Rx), f(1 / Ry), f(1 / Rz)
for _ in range(steps):
    U = [0.0] * (n * n)
    for y in range(n):
        for x in range(n):
            c = T[y*n + x]; N = T[max(y-1, 0)*n + x]; S = T[min(y+1, n-1)*n + x]
            W = T[y*n + max(x-1, 0)]; E = T[y*n + min(x+1, n-1)]
            s = P[y*n + x] + (f(S + N) - 2.0 * c) * Ry1 + (f(E + W) - 2.0 * c) * Rx1 + f(f(80.0 - c) * Rz1)
            U[y*n + x] = f(c + sdc * s)
    T = U
for i, v in enumerate(T): print(f'{i}\t{v:g}')
PYEOF
            if why=$(compare "$W/hs.g.out" "$W/hs.ref.out" 1e-5); then row hotspot match "$secs" "temperatures vs a model of its arithmetic: $why"
            else row hotspot differ "$secs" "$why"; fi
        fi
    else buildfail hotspot hotspot; fi
fi

if want hotspot3D; then
    if nv hotspot3D "$R/cuda/hotspot3D" 3D.cu && cc hotspot3D_omp "$R/openmp/hotspot3D" gcc 3D.c; then
        awk 'BEGIN { srand(3); for (i = 0; i < 32768; i++) printf "%.6f\n", 320 + rand() * 20 }' > "$W/temp_64x8"
        awk 'BEGIN { srand(4); for (i = 0; i < 32768; i++) printf "%.8f\n", rand() * 0.001 }' > "$W/power_64x8"
        timed gpu "$W" "$W/h3.gpu" "$BIN/hotspot3D" 64 8 2 "$W/power_64x8" "$W/temp_64x8" "$W/h3.g.out"; rc=$?
        if status hotspot3D $rc "$W/h3.gpu"; then
            cpu "$W" "$W/h3.cpu" "$BIN/hotspot3D_omp" 64 8 2 "$W/power_64x8" "$W/temp_64x8" "$W/h3.c.out"
            if why=$(compare "$W/h3.g.out" "$W/h3.c.out" 1e-5); then row hotspot3D match "$secs" "temperatures: $why"
            else row hotspot3D differ "$secs" "$why"; fi
        fi
    else buildfail hotspot3D hotspot3D; fi
fi

if want srad_v2; then
    if nv srad_v2 "$R/cuda/srad/srad_v2" -DOUTPUT srad.cu && cc srad_v2_omp "$R/openmp/srad/srad_v2" g++ -DOUTPUT -DITERATION srad.cpp; then
        timed gpu "$W" "$W/srad.gpu" "$BIN/srad_v2" 64 64 0 31 0 31 0.5 2; rc=$?
        if status srad_v2 $rc "$W/srad.gpu"; then
            cpu "$W" "$W/srad.cpu" "$BIN/srad_v2_omp" 64 64 0 31 0 31 1 0.5 2
            grep -E '^([0-9.e+-]+ )+$' "$W/srad.gpu" > "$W/srad.g"; grep -E '^([0-9.e+-]+ )+$' "$W/srad.cpu" > "$W/srad.c"
            if why=$(compare "$W/srad.g" "$W/srad.c" 1e-4); then row srad_v2 match "$secs" "image: $why"
            else row srad_v2 differ "$secs" "$why"; fi
        fi
    else buildfail srad_v2 srad_v2; fi
fi

if want nn; then
    if nv nn "$R/cuda/nn" nn_cuda.cu && cc nn_omp "$R/openmp/nn" gcc nn_openmp.c &&
       cc hurricane_gen "$R/cuda/nn" gcc hurricane_gen.c; then
        mkdir -p "$W/nn/data"
        [ -s "$W/nn/data/cane4_3.db" ] || (cd "$W/nn" && "$BIN/hurricane_gen" 800 4 > /dev/null)
        (cd "$W/nn" && ls data/cane4_*.db > filelist)
        timed gpu "$W/nn" "$W/nn.gpu" "$BIN/nn" filelist -r 5 -lat 30 -lng 90; rc=$?
        if status nn $rc "$W/nn.gpu"; then
            cpu "$W/nn" "$W/nn.cpu" "$BIN/nn_omp" filelist 5 30 90
            grep -- '-->' "$W/nn.gpu" | sed 's/Distance=//' | sort > "$W/nn.g"; grep -- '-->' "$W/nn.cpu" | sort > "$W/nn.c"
            if [ -s "$W/nn.g" ] && why=$(compare "$W/nn.g" "$W/nn.c" 1e-4); then row nn match "$secs" "5 nearest records and distances: $why"
            else row nn differ "$secs" "${why:-no neighbours printed}"; fi
        fi
    else buildfail nn nn; fi
fi

if want streamcluster; then
    if nv sc_gpu "$R/cuda/streamcluster" streamcluster_cuda_cpu.cpp streamcluster_cuda.cu streamcluster_header.cu &&
       cc sc_omp "$R/openmp/streamcluster" g++ streamcluster_omp.cpp; then
        timed gpu "$W" "$W/sc.gpu" "$BIN/sc_gpu" 10 20 16 1024 1024 100 none "$W/sc.g.out" 1; rc=$?
        if status streamcluster $rc "$W/sc.gpu"; then
            cpu "$W" "$W/sc.cpu" "$BIN/sc_omp" 10 20 16 1024 1024 100 none "$W/sc.c.out" 1
            if why=$(compare "$W/sc.g.out" "$W/sc.c.out" 1e-4); then row streamcluster match "$secs" "centers: $why"
            else row streamcluster differ "$secs" "$why"; fi
        fi
    else buildfail streamcluster sc_gpu; fi
fi

for p in gaussian:gaussian.cu kmeans:kmeans_cuda.cu huffman:main_test_cu.cu hybridsort:main.cu; do
    n=${p%%:*}; want "$n" || continue
    if [ "$n" = kmeans ]; then nv kmeans "$R/cuda/kmeans" -c kmeans_cuda.cu
    else nv "$n" "$R/cuda/$n" "${p#*:}"; fi && { row "$n" built - "builds: add a comparison to run it"; continue; }
    buildfail "$n" "$n"
done
