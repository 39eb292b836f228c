#!/bin/sh
# run.sh: run the CUDA test programs through ptxrun's CUDA libraries and check what they do.
#   sh tests/cuda/run.sh [-b BINDIR] [-l LIBDIR] [-p PTXRUN] [NAME...]
# BINDIR: the programs (default tests/cuda/bin, nvcc's output committed by regen.sh); LIBDIR:
# ptxrun's libcudart.so.13 and libcuda.so.1 (default build/cuda), put first on LD_LIBRARY_PATH;
# PTXRUN: build/ptxrun, for the cases run through `ptxrun exec`. NAME...: those programs only.
# $CUDA_TEST_WRAP, when set, goes before each program (valgrind, for make valgrind), and
# $CUDA_TEST_PRELOAD becomes its LD_PRELOAD (the sanitizers' runtime, for SANITIZE=1 shims).
#
# Each program NAME has NAME.expect beside its source: one or more cases, each a block of lines
#   case LABEL           a run of the program (the lines below, up to the next case, are its own)
#   env VAR=VALUE        in its environment (every PTXRUN_* variable is unset otherwise)
#   args ARG...          its arguments
#   exec [OPTION...]     run it as `ptxrun exec OPTION... -- PROGRAM ARGS` (PTXRUN_CUDA_LIB=LIBDIR)
#   exit N               its exit status (default 0)
#   stdout RE, stderr RE     some line of that stream matches the extended regular expression
#   !stdout RE, !stderr RE   no line does
#   stdout-file FILE     standard output is exactly FILE (beside NAME.expect)
#   file NAME RE         the run wrote the file NAME in its folder (an empty one of its own), and
#                        some line of it matches RE
#   xfail REASON         the case is known to fail for REASON: its failure is reported, not
#                        counted; its passing is a failure (so that the line is taken out)
# Every case also requires that standard error has no "internal error" and, when it expects exit
# 0, that no line of standard output starts with FAIL (the programs' own checks); each run is
# limited to 120 seconds (a hang fails).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bindir=$here/bin
libdir=$root/build/cuda
ptxrun=$root/build/ptxrun
while getopts b:l:p: opt; do
    case $opt in
    b) bindir=$(cd "$OPTARG" && pwd) ;;
    l) libdir=$(cd "$OPTARG" && pwd) ;;
    p) ptxrun=$(cd "$(dirname "$OPTARG")" && pwd)/$(basename "$OPTARG") ;;
    *) echo "usage: run.sh [-b BINDIR] [-l LIBDIR] [-p PTXRUN] [NAME...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ ! -e "$libdir/libcuda.so.1" ]; then
    echo "cuda-tests: $libdir/libcuda.so.1 is not built" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 known=0

# Unset every PTXRUN_* variable of the caller's environment.
for var in $(env | sed -n 's/^\(PTXRUN_[A-Za-z0-9_]*\)=.*/\1/p'); do
    unset "$var"
done

# The case described by the variables below: run it, check it, count it.
run_case() {
    [ -n "$label" ] || return 0
    rm -rf "$tmp/out" "$tmp/err" "$tmp/run"
    mkdir "$tmp/run"
    # $CUDA_TEST_WRAP runs the program itself (after ptxrun exec's execvp, or env's)
    if [ -n "$via_exec" ]; then
        # shellcheck disable=SC2086
        ([ -n "$envs" ] && eval "export $envs"; cd "$tmp/run" && PTXRUN_CUDA_LIB=$libdir \
            timeout 120 env ${CUDA_TEST_PRELOAD:+LD_PRELOAD=$CUDA_TEST_PRELOAD} \
            "$ptxrun" exec $exec_opts -- ${CUDA_TEST_WRAP:-} "$program" $args >"$tmp/out" 2>"$tmp/err")
    else
        # shellcheck disable=SC2086
        ([ -n "$envs" ] && eval "export $envs"; cd "$tmp/run" && LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            timeout 120 env ${CUDA_TEST_PRELOAD:+LD_PRELOAD=$CUDA_TEST_PRELOAD} \
            ${CUDA_TEST_WRAP:-} "$program" $args >"$tmp/out" 2>"$tmp/err")
    fi
    status=$?
    why=""
    [ "$status" = "$want_exit" ] || why="${why}exit $status, not $want_exit; "
    [ "$want_exit" = 0 ] && grep -q '^FAIL' "$tmp/out" && why="${why}a FAIL line; "
    grep -q 'internal error' "$tmp/err" && why="${why}an internal error; "
    printf '%s' "$checks" > "$tmp/checks"
    while IFS= read -r line; do
        kind=${line%% *} re=${line#* }
        case $kind in
        stdout|'!stdout') f=$tmp/out ;;
        *)                f=$tmp/err ;;
        esac
        case $kind in
        stdout|stderr)     grep -Eq -- "$re" "$f" || why="${why}no $kind line matches '$re'; " ;;
        '!stdout'|'!stderr') grep -Eq -- "$re" "$f" && why="${why}a ${kind#!} line matches '$re'; " ;;
        stdout-file)       cmp -s "$here/$re" "$tmp/out" || why="${why}standard output is not $re; " ;;
        file)              f=$tmp/run/${re%% *} re=${re#* }
                           grep -Eq -- "$re" "$f" 2>/dev/null || why="${why}no line of ${f##*/} matches '$re'; " ;;
        esac
    done < "$tmp/checks"
    if [ -z "$why" ] && [ -z "$xfail" ]; then
        passed=$((passed + 1))
        echo "ok   $name: $label"
    elif [ -n "$why" ] && [ -n "$xfail" ]; then
        known=$((known + 1))
        echo "xfail $name: $label ($xfail)"
    else
        failed=$((failed + 1))
        if [ -n "$why" ]; then
            echo "FAIL $name: $label: $why"
        else
            echo "FAIL $name: $label passes, but its expect file says xfail: take that line out"
        fi
        echo "---- standard output:"; sed -n '1,40p' "$tmp/out"
        echo "---- standard error:"; sed -n '1,40p' "$tmp/err"
        echo "----"
    fi
}

if [ $# -eq 0 ]; then
    set -- $(cd "$here" && ls *.expect | sed 's/\.expect$//')
fi
for name in "$@"; do
    expect=$here/$name.expect
    program=$bindir/$name
    if [ ! -f "$expect" ] || [ ! -x "$program" ]; then
        echo "FAIL $name: $expect or $program is missing"
        failed=$((failed + 1))
        continue
    fi
    # never NVIDIA's libcudart from the system's library path instead of ptxrun's
    if grep -q libcudart.so.13 "$program" && [ ! -e "$libdir/libcudart.so.13" ]; then
        echo "FAIL $name: it needs libcudart.so.13, which is not in $libdir"
        failed=$((failed + 1))
        continue
    fi
    label=""
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in
        '#'*|'') continue ;;
        esac
        key=${line%% *} value=${line#* }
        [ "$key" = "$line" ] && value=""
        case $key in
        case)  run_case
               label=$value envs="" args="" via_exec="" exec_opts="" want_exit=0 checks="" xfail="" ;;
        env)   envs="$envs $value" ;;
        args)  args=$value ;;
        exec)  via_exec=1 exec_opts=$value ;;
        exit)  want_exit=$value ;;
        xfail) xfail=$value ;;
        stdout|stderr|'!stdout'|'!stderr'|stdout-file|file) checks="$checks$key $value
" ;;
        *)     echo "$expect: unknown line '$line'" >&2; exit 2 ;;
        esac
    done < "$expect"
    run_case
done
[ "$known" -gt 0 ] && known_note=", $known known to fail" || known_note=""
echo "cuda-tests: $passed passed, $failed failed$known_note"
[ "$failed" -eq 0 ]
