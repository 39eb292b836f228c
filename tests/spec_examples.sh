#!/bin/sh
# Extracts the PTX example blocks of ../shared/spec/*.md (the fenced blocks under an
# "Example" heading) into DIR, one file per block: NAME.N.ptx.
# usage: tests/spec_examples.sh SPEC_DIR OUT_DIR
set -eu
spec=$1
out=$2
mkdir -p "$out"
for md in "$spec"/*.md; do
    name=$(basename "$md" .md)
    awk -v out="$out" -v name="$name" '
        /^#* *Examples?[ \t]*$/ || /^Examples?$/ { in_examples = 1; next }
        /^#/ || /^(Syntax|Semantics|Description|Notes|PTX ISA Notes|Target ISA Notes)$/ { if (!fence) in_examples = 0 }
        /^```/ {
            if (fence) { fence = 0; close(file); next }
            if (in_examples) { fence = 1; n++; file = out "/" name "." n ".ptx"; printf "" > file; next }
        }
        fence { print > file }
    ' "$md"
done
ls "$out"
