#!/bin/bash
# tinygrad_backend.sh: tinygrad's backend tests on its mock GPU, whose kernels go to gpuocelot's
# ptx_run, here libptxrun's (docs/library.md), as tinygrad's CI ran them with gpuocelot; or the
# same tests on tinygrad's CPU backend, the baseline that tells Debian's older torch and numpy
# apart from ptxrun. Needs a tinygrad checkout (TG) and Debian's python3 with python3-numpy,
# python3-torch, python3-pytest, python3-pytest-xdist and python3-hypothesis; not run by make check.
# usage: TG=DIR scripts/tinygrad_backend.sh build/lib/libptxrun.so|cpu [extra pytest args...]
# env:   ARCHES="sm35 sm80"  the mock's architectures (sm35: DEV=MOCK+CUDA:PTX, tinygrad's default;
#                            smNN: DEV=MOCK+CUDA:PTX:sm_NN)
#        OUT=DIR             results (default build/tinygrad/<cpu or the library's name>)
#        TESTS="..."         the tests (default: test/backend --ignore=test/backend/test_multitensor.py)
#        JOBS=2              pytest-xdist workers;  BASE=XML  the CPU run's JUnit file (default OUT/../cpu/cpu.xml)
# Writes per architecture: OUT/V.xml (JUnit), V.log, V.launch (the tests that launched kernels),
# V.summary.txt, V.failed.txt, and with the baseline V.failed_{same_on_cpu,other_on_cpu,ours}.txt.
# tinygrad's conftest.py needs pluggy >= 1.2 (Debian has 1.0): tinygrad_plugin.py stands in for it.
# CI's CHECK_OOB=1 needs z3 >= 4.12.4 (Debian has 4.8): it stays 0.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
TG=${TG:?set TG to a tinygrad checkout}
lib=${1:?usage: TG=DIR tinygrad_backend.sh LIB.so|cpu [pytest args...]}; shift
if [ "$lib" = cpu ]; then label=cpu; variants=cpu
else
  lib=$(readlink -f "$lib"); [ -f "$lib" ] || { echo "no such library: $lib" >&2; exit 2; }
  nm -D --defined-only "$lib" | grep -qw ptx_run || { echo "$lib does not export ptx_run" >&2; exit 2; }
  label=$(basename "$lib" .so); label=${label%.so.*}; variants=${ARCHES:-sm35 sm80}
fi
OUT=${OUT:-$root/build/tinygrad/$label}; mkdir -p "$OUT"; OUT=$(readlink -f "$OUT")
BASE=${BASE:-$OUT/../cpu/cpu.xml}
cache=$root/build/tinygrad/cache; mkdir -p "$cache"
read -r -a tests <<< "${TESTS:-test/backend --ignore=test/backend/test_multitensor.py}"
cd "$TG" || exit 2
for v in $variants; do
  case $v in
    cpu)  dev=CPU ;;
    sm35) dev=MOCK+CUDA:PTX ;;
    sm*)  dev=MOCK+CUDA:PTX:sm_${v#sm} ;;
    *) echo "unknown architecture $v" >&2; exit 2 ;;
  esac
  rm -f "$OUT/$v.launch" "$OUT/$v.xml"
  echo "== $v: DEV=$dev $lib"
  start=$(date +%s)
  env DEV="$dev" OCELOT_PATH="$lib" FORWARD_ONLY=1 OMP_NUM_THREADS=1 MAX_BUFFER_SIZE=300000000 CAPTURE_PROCESS_REPLAY=0 \
      CHECK_OOB=0 PYTHONPATH="$TG:$here" XDG_CACHE_HOME="$cache" TG_LAUNCH_LOG="$OUT/$v.launch" \
    /usr/bin/python3 -m pytest --noconftest -p tinygrad_plugin -p no:cacheprovider -n "${JOBS:-2}" -o junit_family=xunit1 \
      --junitxml="$OUT/$v.xml" -q -rfE --durations=20 "${tests[@]}" "$@" > "$OUT/$v.log" 2>&1
  rc=$?
  echo "rc=$rc wall_s=$(( $(date +%s) - start ))" | tee "$OUT/$v.time"
  tail -1 "$OUT/$v.log"
  if [ -f "$OUT/$v.xml" ]; then
    args=("$OUT/$v.xml")
    [ "$v" != cpu ] && args+=(--launch "$OUT/$v.launch")
    [ "$v" != cpu ] && [ -f "$BASE" ] && args+=(--base "$BASE")
    TG="$TG" /usr/bin/python3 "$here/tinygrad_summary.py" "${args[@]}"
  fi
done
