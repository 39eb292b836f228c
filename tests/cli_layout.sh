# -- the top of the repository (issue 32, point 7); sourced by tests/cli.sh, whose helpers
# (expect_exit, expect_stderr_line, ok, fail, $tmp) it uses.
# The scripts that write files refuse an option they do not know (it once became a folder
# `--help/` of 25 cases) and print their usage for --help; run in an empty folder, they must
# leave it empty.
gen="$tmp/gen"
mkdir -p "$gen"
for s in h100_more_gen h100_more_gen2 h100_more_gen3 h100_points h100_run hw_differs ptxas_moves bitfield_imm; do
    expect_exit 0 "scripts/$s.py --help" sh -c "cd '$gen' && python3 '$PWD/scripts/$s.py' --help"
    if grep -qF "scripts/$s.py" "$tmp/out"; then ok; else fail "scripts/$s.py --help: no usage"; head -3 "$tmp/out"; fi
    expect_exit 2 "scripts/$s.py --hlep" sh -c "cd '$gen' && python3 '$PWD/scripts/$s.py' --hlep out"
    expect_stderr_line "scripts/$s.py --hlep" "$s.py: error: unknown option '--hlep'"
done
expect_exit 2 "h100_run.py --write-expect without its folder" sh -c "cd '$gen' && python3 '$PWD/scripts/h100_run.py' --write-expect --help"
expect_stderr_line "h100_run.py --write-expect without its folder" "h100_run.py: error: --write-expect takes 2 values"
expect_exit 2 "bitfield_imm.py --case without its folder" sh -c "cd '$gen' && python3 '$PWD/scripts/bitfield_imm.py' --case --help"
expect_stderr_line "bitfield_imm.py --case without its folder" "bitfield_imm.py: error: --case takes 1 value"
if [ -z "$(ls -A "$gen")" ]; then ok; else fail "the scripts wrote into $gen: $(ls -A "$gen")"; fi

# scripts/structure.py on a copy of the top level (each tracked entry an empty file, or a folder
# with one), docs/architecture.md and .gitignore as they are: it passes, then fails on a stray
# entry git would track, passes on one git ignores, fails on an entry the page names but lacks.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    lay="$tmp/layout"
    mkdir -p "$lay"
    git init -q "$lay"
    for e in $(git ls-files | cut -d/ -f1 | sort -u); do
        if [ -d "$e" ]; then mkdir -p "$lay/$e" && : > "$lay/$e/placeholder"; else : > "$lay/$e"; fi
    done
    cp docs/architecture.md "$lay/docs/"
    cp .gitignore "$lay/"
    structure() { expect_exit "$1" "$2" sh -c "cd '$lay' && python3 '$PWD/scripts/structure.py' lexer parser exec cli"; }
    structure 0 "structure.py: the top level as docs/architecture.md names it"
    mkdir "$lay/--help" && : > "$lay/--help/a.ptx"
    structure 1 "structure.py: a stray folder"
    if grep -qxF "structure: --help: at the top of the repository, but not in the layout docs/architecture.md names (\"The top level\"): move it, ignore it in .gitignore, or name it there" "$tmp/out"
    then ok; else fail "structure.py: a stray folder: no message"; cat "$tmp/out"; fi
    rm -r "$lay/--help"
    : > "$lay/stray.txt"
    structure 1 "structure.py: a stray file"
    rm "$lay/stray.txt"
    : > "$lay/fuzz-0.log"
    structure 0 "structure.py: an ignored fuzz log"
    rm -r "$lay/samples"
    structure 1 "structure.py: a named folder missing"
    if grep -qxF "structure: samples: named in docs/architecture.md (\"The top level\"), but not in the repository" "$tmp/out"
    then ok; else fail "structure.py: a named folder missing: no message"; cat "$tmp/out"; fi
fi
