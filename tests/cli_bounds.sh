# -- launch bounds (issue 33, point 4); sourced by tests/cli.sh, whose helpers (expect_exit,
# expect_stderr_line, ok, fail, $tmp) it uses. What a GPU refuses comes from the PTX ISA's words
# (.maxntid: "the total number of threads"; .reqntid: "the size of each CTA dimension ... equal";
# .reqnctapercluster, .explicitcluster: "a runtime error or kernel launch failure") and CUDA's block
# limits (1024, 1024, 64; 1024 threads); what ptxas refuses, from ptxas 13.0 (-arch=sm_90).
LB=tests/ptx/nvcc/launch_bounds.sm_90.ptx
# __launch_bounds__(256, 2): nvcc's .maxntid 256, 1, 1 at line 22
expect_exit 2 "maxntid: a block above it" "$PTXRUN" --no-color $LB --entry lb_saxpy --block 512 --param 0=2 \
    --buffer x=f32:512 --buffer y=f32:512 --param 1=@x --param 2=@y --param 3=512
expect_stderr_line "maxntid: a block above it" "$LB:22:1: error: kernel '_Z8lb_saxpyfPKfPfi' is launched with a block of 512 x 1 x 1 (512 threads), but its '.maxntid 256, 1, 1' allows at most 256 threads a block: a GPU refuses the launch"
expect_stderr_line "maxntid: the line" "   22 | .maxntid 256, 1, 1"
expect_stderr_line "maxntid: the caret" "      | ^~~~~~~~"
expect_exit 0 "maxntid: a block within it" "$PTXRUN" $LB --entry lb_saxpy --block 256 --param 0=2 \
    --buffer x=f32:256 --buffer y=f32:256 --param 1=@x --param 2=@y --param 3=256
# .maxntid bounds the product, not each dimension ("does not guarantee that the limit in any
# particular dimension is not exceeded"): 16 x 16 under .maxntid 256, 1, 1 launches
expect_exit 0 "maxntid: the product counts" "$PTXRUN" $LB --entry lb_saxpy --block 16,16 --param 0=2 \
    --buffer x=f32:256 --buffer y=f32:256 --param 1=@x --param 2=@y --param 3=256
# __cluster_dims__(2, 1, 1): .explicitcluster and .reqnctapercluster 2, 1, 1 at line 124
expect_exit 2 "reqnctapercluster: a grid of one CTA" "$PTXRUN" --no-color $LB --entry lb_cluster --block 128 \
    --buffer p=f32:128 --param 0=@p
expect_stderr_line "reqnctapercluster: a grid of one CTA" "$LB:124:1: error: kernel 'lb_cluster' runs in clusters of 2 x 1 x 1 CTAs ('.reqnctapercluster'), but the grid is not a whole number of them: a GPU refuses the launch"
expect_exit 0 "reqnctapercluster: clusters of two run" "$PTXRUN" --no-color $LB --entry lb_cluster --block 128 --grid 2 \
    --buffer p=f32:256 --param 0=@p
expect_exit 2 "reqnctapercluster: another --cluster" "$PTXRUN" --no-color $LB --entry lb_cluster --block 128 \
    --buffer p=f32:128 --param 0=@p --cluster 1,1,1
expect_stderr_line "reqnctapercluster: another --cluster" "$LB:124:1: error: kernel 'lb_cluster' is launched with clusters of 1 x 1 x 1 CTAs, but its '.reqnctapercluster' requires 2 x 1 x 1: a GPU refuses the launch"
# __launch_bounds__(64, 1, 2): .maxclusterrank 2 allows a launch without clusters
expect_exit 0 "maxclusterrank: no cluster" "$PTXRUN" $LB --entry lb_small --block 64 --buffer d=f64:64 --param 0=@d
# .reqntid: each dimension, so a 1-D .reqntid 128 refuses 64 x 2 as it refuses 256 and the default warp
bounds_ptx() {    # bounds_ptx DIRECTIVES: a kernel that stores %tid.x + 1 at p[%tid.x]
    printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n%s\n{\n\t.reg .u64 %%a;\n\t.reg .u32 %%t, %%v;\n\tld.param.u64 %%a, [p];\n\tmov.u32 %%t, %%tid.x;\n\tadd.u32 %%v, %%t, 1;\n\tmad.wide.u32 %%a, %%t, 4, %%a;\n\tst.global.u32 [%%a], %%v;\n\tret;\n}\n' "$1"
}
bounds_ptx ".reqntid 128" > "$tmp/reqntid.ptx"
expect_exit 2 "reqntid: more threads" "$PTXRUN" --no-color "$tmp/reqntid.ptx" --block 256 --buffer o=u32:256 --param 0=@o
expect_stderr_line "reqntid: more threads" "$tmp/reqntid.ptx:5:1: error: kernel 'k' is launched with a block of 256 x 1 x 1 (256 threads), but its '.reqntid' requires a block of exactly 128 x 1 x 1: a GPU refuses the launch"
expect_exit 2 "reqntid: the same count, another shape" "$PTXRUN" --no-color "$tmp/reqntid.ptx" --block 64,2 \
    --buffer o=u32:128 --param 0=@o
expect_stderr_line "reqntid: the same count, another shape" "$tmp/reqntid.ptx:5:1: error: kernel 'k' is launched with a block of 64 x 2 x 1 (128 threads), but its '.reqntid' requires a block of exactly 128 x 1 x 1: a GPU refuses the launch"
expect_exit 2 "reqntid: no --block" "$PTXRUN" --no-color "$tmp/reqntid.ptx" --buffer o=u32:128 --param 0=@o
expect_stderr_line "reqntid: no --block" "$tmp/reqntid.ptx:5:1: error: kernel 'k' is launched with a block of 32 x 1 x 1 (32 threads; no --block gives one warp), but its '.reqntid' requires a block of exactly 128 x 1 x 1: a GPU refuses the launch"
printf '{"block": [256], "buffers": {"o": {"type": "u32", "count": 256}}, "params": ["@o"]}\n' > "$tmp/reqntid.lanes.json"
expect_exit 2 "reqntid: the lanes file's block" "$PTXRUN" "$tmp/reqntid.ptx" --lanes "$tmp/reqntid.lanes.json"
expect_exit 0 "reqntid: its block" "$PTXRUN" "$tmp/reqntid.ptx" --block 128 --buffer o=u32:128 --param 0=@o
# CUDA's z limit is 64 (x and y 1024, 1024 threads in all)
expect_exit 2 "block z above 64" "$PTXRUN" "$tmp/reqntid.ptx" --block 1,1,65 --buffer o=u32:65 --param 0=@o
expect_stderr_line "block z above 64" "ptxrun: error: --block 1,1,65: expected X[,Y,Z], X and Y from 1 to 1024, Z from 1 to 64"
bounds_ptx "" > "$tmp/nobounds.ptx"
expect_exit 0 "block z of 64" "$PTXRUN" "$tmp/nobounds.ptx" --block 1,1,64 --buffer o=u32:1 --param 0=@o
printf '{"block": [1, 1, 65], "buffers": {"o": {"type": "u32", "count": 1}}, "params": ["@o"]}\n' > "$tmp/z65.lanes.json"
expect_exit 2 "lanes file block z above 64" "$PTXRUN" "$tmp/nobounds.ptx" --lanes "$tmp/z65.lanes.json"
expect_stderr_line "lanes file block z above 64" "ptxrun: error: $tmp/z65.lanes.json: block[2]: expected an integer from 1 to 64"
# .explicitcluster: a launch must give the cluster's shape
bounds_ptx ".explicitcluster" > "$tmp/explicit.ptx"
expect_exit 2 ".explicitcluster without --cluster" "$PTXRUN" --no-color "$tmp/explicit.ptx" --buffer o=u32:32 --param 0=@o
expect_stderr_line ".explicitcluster without --cluster" "$tmp/explicit.ptx:5:1: error: kernel 'k' must be launched with a cluster shape ('.explicitcluster'), and a GPU refuses it without one: give --cluster 1,1,1"
expect_exit 0 ".explicitcluster with --cluster" "$PTXRUN" "$tmp/explicit.ptx" --cluster 1,1,1 --buffer o=u32:32 --param 0=@o
# The last of a kind counts, as in ptxas's cubin (.maxntid 128 .maxntid 64 gives .maxntid 64's)
bounds_ptx ".maxntid 128
.maxntid 64" > "$tmp/twice.ptx"
expect_exit 2 "maxntid twice: the last counts" "$PTXRUN" --no-color "$tmp/twice.ptx" --block 128 --buffer o=u32:128 --param 0=@o
expect_stderr_line "maxntid twice: the last counts" "$tmp/twice.ptx:6:1: error: kernel 'k' is launched with a block of 128 x 1 x 1 (128 threads), but its '.maxntid 64, 1, 1' allows at most 64 threads a block: a GPU refuses the launch"
# .minnctapersm, .maxnreg and .pragma "nounroll" change no result: the same output as without them
bounds_ptx '.maxntid 64 .minnctapersm 2 .maxnreg 32 .pragma "nounroll";' > "$tmp/hints.ptx"
"$PTXRUN" "$tmp/nobounds.ptx" --block 64 --buffer o=u32:64 --param 0=@o > "$tmp/plain.out" 2>&1
expect_exit 0 "hints run" "$PTXRUN" "$tmp/hints.ptx" --block 64 --buffer o=u32:64 --param 0=@o
if cmp -s "$tmp/plain.out" "$tmp/out" && grep -q "64" "$tmp/out"; then ok; else fail "hints: another output than without them"; fi
# What ptxas 13.0 refuses in the directives themselves
bounds_directive() {    # bounds_directive EXIT DESCRIPTION TARGET HEADER LINE: --check of "HEADER { ret; }" for TARGET
    printf '.version 9.0\n.target %s\n.address_size 64\n%s\n{\n\tret;\n}\n' "$3" "$4" > "$tmp/directive.ptx"
    expect_exit "$1" "$2" "$PTXRUN" --check --no-color "$tmp/directive.ptx"
    expect_stderr_line "$2" "$tmp/directive.ptx:$5"
}
bounds_refused() {    # bounds_refused DESCRIPTION HEADER LINE: --check of ".entry k() HEADER" fails with LINE
    bounds_directive 2 "$1" sm_90 "$2" "$3"
}
bounds_refused "maxntid 0" ".entry k() .maxntid 0" "4:12: error: '.maxntid' takes positive numbers, not 0 (ptxas refuses it)"
bounds_refused "maxntid and reqntid" ".entry k() .maxntid 128 .reqntid 128" "4:25: error: '.maxntid' and '.reqntid' cannot both be given (PTX ISA; ptxas refuses them together)"
bounds_refused "reqnctapercluster and maxclusterrank" ".entry k() .reqnctapercluster 2 .maxclusterrank 4" "4:33: error: '.reqnctapercluster' and '.maxclusterrank' cannot both be given (PTX ISA; ptxas refuses them together)"
bounds_refused "maxntid on a .func" ".func f() .maxntid 128" "4:11: error: '.maxntid' belongs to a kernel (.entry), not to a .func"
bounds_refused "noreturn on a kernel" ".entry k() .noreturn" "4:12: error: '.noreturn' belongs to a device function (.func), not to a kernel"
bounds_refused "maxnreg of two numbers" ".entry k() .maxnreg 32, 2" "4:12: error: '.maxnreg' takes one number"
bounds_refused "blocksareclusters alone" ".entry k() .blocksareclusters" "4:12: error: '.blocksareclusters' needs '.reqntid' and '.reqnctapercluster' too"
bounds_directive 2 "explicitcluster on sm_80" sm_80 ".entry k() .explicitcluster" "4:12: error: '.explicitcluster' requires sm_90 or later (this module targets sm_80)"
# .minnctapersm alone: ignored, with ptxas's warning (PTX ISA: "a warning is generated")
bounds_directive 0 ".minnctapersm alone" sm_90 ".entry k() .minnctapersm 2" "4:12: warning: '.minnctapersm' without '.maxntid' or '.reqntid' is ignored (PTX ISA; ptxas warns too)"
# .maxntid's product past 64 bits (ptxas takes each number up to 2^32 - 1): 2^66 threads allow any block,
# not 0 (the product wrapped, every launch refused, before)
bounds_ptx ".maxntid 4194304, 4194304, 4194304" > "$tmp/huge.ptx"
expect_exit 0 "maxntid: a product past 64 bits" "$PTXRUN" "$tmp/huge.ptx" --block 32 --buffer o=u32:32 --param 0=@o
