# -- ptxrun exec: the CUDA launcher (cli/exec.c); sourced by tests/cli.sh, whose helpers (expect_exit,
# expect_stderr_line, ok, fail, $tmp) it uses. The program run is a shell script that prints what it
# was given, so no CUDA is needed: the libraries' folder is one holding an empty libcudart.so.13.
mkdir -p "$tmp/exec/lib" "$tmp/exec/bin/cuda" "$tmp/exec/empty"
: > "$tmp/exec/lib/libcudart.so.13"
: > "$tmp/exec/bin/cuda/libcudart.so.13"
cat > "$tmp/exec/show" <<'SCRIPT'
#!/bin/sh
for v in LD_LIBRARY_PATH PTXRUN_ARCH PTXRUN_STRICT PTXRUN_TRACE PTXRUN_REPORT; do
    eval "printf '%s=[%s]\n' $v \"\${$v-unset}\""
done
for a in "$@"; do printf 'arg=[%s]\n' "$a"; done
exit "${SHOW_EXIT:-0}"
SCRIPT
chmod +x "$tmp/exec/show"
exec_ptxrun=$(cd "$(dirname "$PTXRUN")" && pwd)/$(basename "$PTXRUN")
expect_stdout_line() {   # expect_stdout_line DESCRIPTION LINE: stdout of the last command holds LINE exactly
    if grep -qxF -- "$2" "$tmp/out"; then ok; else fail "$1: no line '$2' in stdout"; sed 's/^/  | /' "$tmp/out" | head -20; fi
}
expect_exit 0 "exec --help" "$PTXRUN" exec --help
for v in PTXRUN_ARCH PTXRUN_STRICT PTXRUN_TRACE PTXRUN_REPORT PTXRUN_CUDA_LIB; do
    grep -q "$v" "$tmp/out" && ok || fail "exec --help does not name $v"
done
# the options become the settings; the folder goes first on LD_LIBRARY_PATH, the caller's after it
PTXRUN_CUDA_LIB=$tmp/exec/lib LD_LIBRARY_PATH=/old/one SHOW_EXIT=7 expect_exit 7 "exec: the program's exit status" \
    "$PTXRUN" exec --arch sm_80 --strict --trace t.txt --report=r.txt "$tmp/exec/show" -x "two words" --arch
expect_stdout_line "exec: LD_LIBRARY_PATH" "LD_LIBRARY_PATH=[$tmp/exec/lib:/old/one]"
expect_stdout_line "exec --arch" "PTXRUN_ARCH=[sm_80]"
expect_stdout_line "exec --strict" "PTXRUN_STRICT=[1]"
expect_stdout_line "exec --trace" "PTXRUN_TRACE=[t.txt]"
expect_stdout_line "exec --report=" "PTXRUN_REPORT=[r.txt]"
expect_stdout_line "exec: the program's options are its own" "arg=[-x]"
expect_stdout_line "exec: an argument with a space" "arg=[two words]"
expect_stdout_line "exec: an option after the program is the program's" "arg=[--arch]"
# without options nothing is set, and the caller's settings stay; no LD_LIBRARY_PATH before: the folder alone
expect_exit 0 "exec: no options" env -u LD_LIBRARY_PATH -u PTXRUN_ARCH PTXRUN_CUDA_LIB="$tmp/exec/lib" PTXRUN_STRICT=1 \
    "$PTXRUN" exec "$tmp/exec/show"
expect_stdout_line "exec: LD_LIBRARY_PATH alone" "LD_LIBRARY_PATH=[$tmp/exec/lib]"
expect_stdout_line "exec: no --arch" "PTXRUN_ARCH=[unset]"
expect_stdout_line "exec: the caller's PTXRUN_STRICT" "PTXRUN_STRICT=[1]"
# a relative PTXRUN_CUDA_LIB is made absolute (the program may change its folder before loading libcuda)
expect_exit 0 "exec: a relative PTXRUN_CUDA_LIB" sh -c 'cd "$1" && PTXRUN_CUDA_LIB=lib exec "$2" exec ./show' sh "$tmp/exec" \
    "$exec_ptxrun"
expect_stdout_line "exec: a relative PTXRUN_CUDA_LIB made absolute" "LD_LIBRARY_PATH=[$tmp/exec/lib]"
# -- ends the options: a program whose name starts with '-'
cp "$tmp/exec/show" "$tmp/exec/-show"
expect_exit 0 "exec --" env PTXRUN_CUDA_LIB="$tmp/exec/lib" PATH="$tmp/exec:$PATH" "$PTXRUN" exec --arch sm_90a -- -show
expect_stdout_line "exec -- then a program found on the PATH" "PTXRUN_ARCH=[sm_90a]"
# without PTXRUN_CUDA_LIB: cuda/ beside the executable (/proc/self/exe: a copy of ptxrun in another folder)
cp "$PTXRUN" "$tmp/exec/bin/ptxrun"
expect_exit 0 "exec: cuda/ beside ptxrun" env -u PTXRUN_CUDA_LIB "$tmp/exec/bin/ptxrun" exec "$tmp/exec/show"
expect_stdout_line "exec: cuda/ beside ptxrun" "LD_LIBRARY_PATH=[$tmp/exec/bin/cuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}]"
# errors: exit 2 and a message, the program never run
PTXRUN_CUDA_LIB=$tmp/exec/lib expect_exit 2 "exec: no program" "$PTXRUN" exec --strict
expect_stderr_line "exec: no program" "ptxrun exec: error: no program to run"
PTXRUN_CUDA_LIB=$tmp/exec/lib expect_exit 2 "exec: unknown option" "$PTXRUN" exec --fast "$tmp/exec/show"
expect_stderr_line "exec: unknown option" "ptxrun exec: error: unknown option '--fast'"
for bad in 80 sm_8 sm_1000 sm_90x compute_90 ''; do
    PTXRUN_CUDA_LIB=$tmp/exec/lib expect_exit 2 "exec --arch '$bad'" "$PTXRUN" exec --arch "$bad" "$tmp/exec/show"
    expect_stderr_line "exec --arch '$bad'" "ptxrun exec: error: --arch needs an architecture such as sm_80 or sm_90, not '$bad'"
done
PTXRUN_CUDA_LIB=$tmp/exec/lib expect_exit 2 "exec --trace without a value" "$PTXRUN" exec --trace
expect_stderr_line "exec --trace without a value" "ptxrun exec: error: '--trace' needs a value"
PTXRUN_CUDA_LIB=$tmp/exec/lib expect_exit 2 "exec: a program not found" "$PTXRUN" exec "$tmp/exec/no-such-program" a b
expect_stderr_line "exec: a program not found" "ptxrun exec: error: cannot run '$tmp/exec/no-such-program': No such file or directory"
PTXRUN_CUDA_LIB=$tmp/exec/empty expect_exit 2 "exec: no libraries" "$PTXRUN" exec "$tmp/exec/show"
expect_stderr_line "exec: no libraries" "ptxrun exec: error: ptxrun's CUDA libraries are not in $tmp/exec/empty (no libcudart.so.13 there: No such file or directory); build them (make), or set PTXRUN_CUDA_LIB to their folder"
grep -q '^arg=' "$tmp/out" && fail "exec: the program ran without its libraries" || ok
# every option of exec --help is in the man page's PTXRUN EXEC section
"$PTXRUN" exec --help > "$tmp/exec_help"
sed -n '/^\.SH PTXRUN EXEC/,/^\.SH ENVIRONMENT/p' docs/ptxrun.1 > "$tmp/exec_man"
for opt in $(grep -o -- '--[a-z][-a-z]*' "$tmp/exec_help" | grep -v -- '^--help$' | sort -u); do
    roff=$(printf '%s' "$opt" | sed 's/-/\\-/g')
    grep -qF -- "$roff" "$tmp/exec_man" && ok || fail "ptxrun exec $opt is not in the man page's PTXRUN EXEC section"
done
# the program gets the caller's signal dispositions (ptxrun's own, SIGXFSZ ignored, are not passed on)
cat > "$tmp/exec/sigs" <<'SCRIPT'
#!/bin/sh
grep -E '^Sig(Ign|Cgt):' /proc/self/status
SCRIPT
chmod +x "$tmp/exec/sigs"
"$tmp/exec/sigs" > "$tmp/sigs_plain"
PTXRUN_CUDA_LIB=$tmp/exec/lib "$PTXRUN" exec "$tmp/exec/sigs" > "$tmp/sigs_exec"
cmp -s "$tmp/sigs_plain" "$tmp/sigs_exec" && ok || { fail "exec: the program's signal dispositions differ from the caller's"; cat "$tmp/sigs_plain" "$tmp/sigs_exec"; }
