# -- constant expressions in initializers (issue 33, point 6); sourced by tests/cli.sh, whose helpers
# (expect_exit, expect_stderr_line, ok, fail, $tmp) it uses. What ptxas 13.0 (-arch=sm_90) accepts
# and refuses, and the bytes it writes (the cubin's .nv.global.init); the values of accepted forms are
# in tests/misc/init_expr (scripts/init_expr.py).
init_ptx() {    # init_ptx DECLARATION: a module declaring it and a kernel copying g's first 8 bytes to out
    printf '.version 8.0\n.target sm_90\n.address_size 64\n.global .u32 a;\n.global %s;\n.visible .entry k(.param .u64 out)\n{\n\t.reg .u64 %%o;\n\t.reg .b32 %%r;\n\tld.param.u64 %%o, [out];\n\tld.global.b32 %%r, [g];\n\tst.global.b32 [%%o], %%r;\n\tld.global.b32 %%r, [g+4];\n\tst.global.b32 [%%o+4], %%r;\n\tret;\n}\n' "$1" > "$tmp/init.ptx"
}
init_ptx ".u32 g[2] = {1+1, 2*3}"
expect_exit 0 "initializer: the issue's {1+1, 2*3}" "$PTXRUN" --check "$tmp/init.ptx"
init_refused() {    # init_refused DESCRIPTION DECLARATION LINE
    init_ptx "$2"
    expect_exit 2 "$1" "$PTXRUN" --check --no-color "$tmp/init.ptx"
    expect_stderr_line "$1" "$tmp/init.ptx:$3"
}
# ptxas: "Initial value type mismatch" (an integer for a real, a real for an integer), "No initial value
# is allowed for .f16 type", "Constant expression has division by zero"
init_refused "initializer: an integer in .f32" ".f32 g = 1" "5:18: error: a .f32 variable's initial value is floating-point, not an integer (write 1.0 for 1; ptxas refuses it)"
init_refused "initializer: a real in .u32" ".u32 g = 1.5" "5:18: error: a .u32 variable's initial value is an integer, not a floating-point number (ptxas refuses it)"
init_refused "initializer: a real expression in .u64" ".u64 g = 1.0 / 4.0" "5:18: error: a .u64 variable's initial value is an integer, not a floating-point number (ptxas refuses it)"
init_refused "initializer: .f16" ".f16 g = 1.5" "5:18: error: a .f16 variable takes no initial value (ptxas refuses one)"
init_refused "initializer: division by zero" ".u32 g = 5/0" "5:19: error: division by zero in a constant expression"
init_refused "initializer: a real address offset" ".u64 g = a + 1.5" "5:18: error: an address offset is an integer, not a floating-point number"
# ptxas gives -(0f3F800000) as -0.0 in a .f32 (0x80000000): not the ISA's -1.0, so not taken
init_refused "initializer: an expression of a 0f literal" ".f32 g = -(0f3F800000)" "5:18: error: ptxrun cannot take an expression of a 0f literal in an initializer yet: ptxas's value is not the ISA's (-(0f3F800000) is -0.0 in a .f32 variable); write the 0f literal of the value"
# ptxas's bytes for .f64 g = 0f3F800000: 00 00 80 3f 00 00 00 00 (the pattern, not 1.0), with a warning
init_words() {    # init_words DESCRIPTION DECLARATION WORDS: g's first two words, in hex, match WORDS (a grep pattern)
    init_ptx "$2"
    expect_exit 0 "$1" "$PTXRUN" --no-color --hex "$tmp/init.ptx" --buffer out=u32:2 --param 0=@out
    if grep -q "$3" "$tmp/out"; then ok; else fail "$1: not $3"; sed 's/^/  | /' "$tmp/out"; fi
}
init_words "initializer: 0f in .f64" ".f64 g = 0f3F800000" "0x3f800000 *0x00000000"
expect_stderr_line "initializer: 0f in .f64" "$tmp/init.ptx:5:18: warning: the 0f literal in this .f64 variable is its 32-bit pattern in the low half, the high half 0, as ptxas stores it (not the number converted; write a 0d literal for that)"
# ptxas's bytes for .b32 g = 1.5: the float's, 0x3fc00000 (not the low half of the double, 0)
init_words "initializer: a real in .b32" ".b32 g[2] = {1.5, -2.5}" "0x3fc00000 *0xc0200000"
# one message a declaration, not one an element
init_refused "initializer: one message a list" ".f32 g[3] = {1, 2, 3}" "5:22: error: a .f32 variable's initial value is floating-point, not an integer (write 1.0 for 1; ptxas refuses it)"
expect_stderr_line "initializer: one message a list" "$tmp/init.ptx: 1 error"
# the braces against the dimensions and the vector width, as ptxas 13.0 holds them ("Greater number of
# elements in array initializer", "Incorrect number of elements in vector initializer", "Initial value
# type mismatch"); each ran before with exit 0
init_refused "initializer: more values than the array" ".u32 g[2] = {1, 2, 3}" "5:21: error: 3 values in braces for a dimension of 2 (ptxas refuses more)"
init_refused "initializer: more rows than the array" ".u32 g[1][2] = {{1, 2}, {3, 4}}" "5:24: error: 2 values in braces for a dimension of 1 (ptxas refuses more)"
init_refused "initializer: a flat list in a 2-D array" ".u32 g[2][2] = {1, 2}" "5:25: error: an array's value is a list in braces, not one number (ptxas refuses it: initial value type mismatch)"
init_refused "initializer: braces around a scalar" ".u32 g = {1}" "5:18: error: a list in braces where a number stands (ptxas refuses it: initial value type mismatch)"
init_refused "initializer: a number for an array" ".u32 g[2] = 1" "5:21: error: an array's value is a list in braces, not one number (ptxas refuses it: initial value type mismatch)"
init_refused "initializer: a .v2 of three" ".v2 .u32 g = {1, 2, 3}" "5:22: error: a .v2 value is 2 numbers in braces, not 3 (ptxas refuses it)"
init_refused "initializer: a .v2 of one number" ".v2 .u32 g = 1" "5:22: error: a .v2 value is 2 numbers in braces, not one (ptxas refuses it: initial value type mismatch)"
# ptxas's bytes for .u32 g[2][2] = {{1}, {3, 4}}: 1, 3, 4, 0 (the values one after another, not C's 1, 0, 3, 4)
init_words "initializer: a short inner list" ".u32 g[2][2] = {{1}, {3, 4}}" "0x00000001 *0x00000003"
expect_stderr_line "initializer: a short inner list" "$tmp/init.ptx:5:25: warning: the values after this short list follow it directly, as ptxas 13.0 places them ({{1}, {3, 4}} in a [2][2] array is 1, 3, 4, 0), not from the next row as in C; the PTX ISA does not say"
# ?: of an integer and a real is a real (the ISA's evaluation rules), so no .u32's value; ptxas refuses it too
init_refused "initializer: ?: of an integer and a real" ".u32 g = 1 ? 2 : 3.0" "5:18: error: a .u32 variable's initial value is an integer, not a floating-point number (ptxas refuses it)"
# an address as ptxas 13.0 takes it: in a .u32 or .u64, of a .global or .const variable declared before
# ("Initial value type mismatch", "Invalid initial value symbol", "Variable used as initial value not in
# .global or .const state space"); each ran before with exit 0
init_refused "initializer: an address in a .b64" ".b64 g = a" "5:18: error: an address initializes a .u32 or .u64 variable, not a .b64 one (ptxas refuses it)"
init_refused "initializer: a kernel's address" ".u64 g = k" "5:18: error: 'k' is a kernel, whose address no initializer takes (ptxas refuses it)"
init_refused "initializer: its own address" ".u64 g[2] = {a, g}" "5:25: error: 'g' is not declared before this variable, as an initializer's variable must be (ptxas refuses it)"
init_refused "initializer: a .shared variable's address" ".u32 b; .shared .u32 s; .global .u64 g = s" "5:50: error: 's' is not a .global or .const variable, whose address alone an initializer takes (ptxas refuses it)"
# an initial value in .shared, .local, .reg or .param (ptxas: "No initial value is allowed for 'g' in this
# state space"): each ran before with exit 0
init_refused "initializer: a .shared variable" ".u32 b; .shared .u32 g = 5" "5:34: error: only .global and .const variables take an initial value (PTX ISA; ptxas refuses one in .shared, .local, .reg and .param)"
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.local .u32 g[2] = {1, 2};\n\tret;\n}\n' > "$tmp/init.ptx"
expect_exit 2 "initializer: a .local variable" "$PTXRUN" --check --no-color "$tmp/init.ptx"
expect_stderr_line "initializer: a .local variable" "$tmp/init.ptx:6:21: error: only .global and .const variables take an initial value (PTX ISA; ptxas refuses one in .shared, .local, .reg and .param)"
# a function's own .global variable named by its next one's initializer: declared before (ptxas takes it)
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 o)\n{\n\t.global .u32 x = 7;\n\t.global .u64 p = x;\n\t.reg .u64 %%a, %%b;\n\t.reg .u32 %%r;\n\tld.param.u64 %%a, [o];\n\tld.global.u64 %%b, [p];\n\tld.global.u32 %%r, [%%b];\n\tst.global.u32 [%%a], %%r;\n\tret;\n}\n' > "$tmp/init.ptx"
expect_exit 0 "initializer: a function's variable" "$PTXRUN" "$tmp/init.ptx" --block 1 --buffer o=u32:1 --param 0=@o
if grep -q "0: *7$" "$tmp/out"; then ok; else fail "initializer: a function's variable: not 7"; sed 's/^/  | /' "$tmp/out"; fi
# a name ptxas refuses said as such, not as what ptxrun "cannot execute yet" (exit 2 before, that message)
init_refused "initializer: an undeclared name" ".u64 g = nosuch" "5:18: error: 'nosuch' is not declared (ptxas refuses it)"
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.local .u32 l;\n\t.global .u64 g = l;\n\tret;\n}\n' > "$tmp/init.ptx"
expect_exit 2 "initializer: a .local variable's address" "$PTXRUN" --check --no-color "$tmp/init.ptx"
expect_stderr_line "initializer: a .local variable's address" "$tmp/init.ptx:7:19: error: 'l' is not a .global or .const variable, whose address alone an initializer takes (ptxas refuses it)"
# empty braces: ptxas 13.0 takes {} as zeros (a syntax error before), refuses it for an array of unknown size
init_words "initializer: empty braces" ".u32 g[2][2] = {{}, {3, 4}}" "0x00000003 *0x00000004"
init_refused "initializer: empty braces of unknown size" ".u32 g[] = {}" "5:20: error: an array of unknown size ([]) needs one value or more (ptxas refuses it: initial value type mismatch)"
