/* check_checker.c: what the checker accepts, what it rejects, and what it decodes: version and
 * target rules from ../shared/spec, type compatibility, scopes, symbols, snippet inference. */
#include "testutil.h"

static unsigned errors_of(const char *text, unsigned *warnings)
{
    Parsed *p = parse_text(text, true);
    unsigned e = p->diag.errors;
    if (warnings)
        *warnings = p->diag.warnings;
    parsed_free(p);
    return e;
}

static char *kernel(const char *version, const char *target, const char *body)
{
    static char text[4096];
    snprintf(text, sizeof text, ".version %s\n.target %s\n.entry k() {\n.reg .b32 %%r<8>;\n.reg .pred %%p<4>;\n%s\n}\n",
             version, target, body);
    return text;
}

START_TEST(legacy_shfl_rules)
{
    const char *shfl = "shfl.up.b32 %r1|%p1, %r2, 1, 0;";
    unsigned w;
    /* Removed in PTX 6.4 for sm_70 and later. */
    ck_assert_uint_eq(errors_of(kernel("6.4", "sm_70", shfl), &w), 1);
    ck_assert_uint_eq(errors_of(kernel("9.0", "sm_90", shfl), &w), 1);
    /* Only deprecated (a warning) below either bound. */
    ck_assert_uint_eq(errors_of(kernel("6.3", "sm_70", shfl), &w), 0);
    ck_assert_uint_eq(w, 1);
    ck_assert_uint_eq(errors_of(kernel("6.4", "sm_61", shfl), &w), 0);
    ck_assert_uint_eq(w, 1);
    /* Before PTX 6.0 there was nothing to prefer. */
    ck_assert_uint_eq(errors_of(kernel("5.0", "sm_30", shfl), &w), 0);
    ck_assert_uint_eq(w, 0);
    /* vote follows the same rule. */
    ck_assert_uint_eq(errors_of(kernel("7.0", "sm_75", "vote.all.pred %p1, %p2;"), &w), 1);
    ck_assert_uint_eq(errors_of(kernel("6.0", "sm_60", "vote.ballot.b32 %r1, %p2;"), &w), 0);
    ck_assert_uint_eq(w, 1);
}
END_TEST

START_TEST(labels_scoped_by_blocks)
{
    /* As ptxas 13.0 scopes them (each form put to it): a label is its block's, and the blocks'
     * inside it; sibling blocks may repeat one, an inner one hides an outer one. */
    const char *ok[] = {
        "{ L: add.s32 %r1, %r1, 1; @%p1 bra L; } { L: add.s32 %r1, %r1, 2; @%p1 bra L; }",
        "L: add.s32 %r1, %r1, 3; { L: add.s32 %r1, %r1, 1; @%p1 bra L; }",
        "{ @%p1 bra L; } L: add.s32 %r1, %r1, 3;",
        "{ L: add.s32 %r1, %r1, 1; { L: add.s32 %r1, %r1, 2; @%p1 bra L; } @%p1 bra L; }",
    };
    for (unsigned i = 0; i < sizeof ok / sizeof *ok; i++)
        ck_assert_msg(errors_of(kernel("8.0", "sm_90", ok[i]), NULL) == 0, "%s", ok[i]);
    /* ptxas: "Unknown symbol 'L'" (a block's label from outside it), "Duplicate definition". */
    ck_assert_uint_eq(errors_of(kernel("8.0", "sm_90", "@%p1 bra L; { L: add.s32 %r1, %r1, 1; }"), NULL), 1);
    ck_assert_uint_eq(errors_of(kernel("8.0", "sm_90", "{ L: add.s32 %r1, %r1, 1; L: add.s32 %r1, %r1, 2; }"), NULL), 1);
    ck_assert_uint_eq(errors_of(kernel("8.0", "sm_90", "L: add.s32 %r1, %r1, 1; { bra L; } L: add.s32 %r1, %r1, 2;"), NULL),
                      1);
}
END_TEST

START_TEST(sync_and_funnel_shift_versions)
{
    const char *sync = "shfl.sync.idx.b32 %r1, %r2, 0, 31, -1;";
    ck_assert_uint_eq(errors_of(kernel("6.0", "sm_30", sync), NULL), 0);
    ck_assert_uint_eq(errors_of(kernel("5.0", "sm_30", sync), NULL), 1);
    ck_assert_uint_eq(errors_of(kernel("6.0", "sm_20", sync), NULL), 1);
    const char *shf = "shf.r.wrap.b32 %r1, %r2, %r3, %r4;";
    ck_assert_uint_eq(errors_of(kernel("4.0", "sm_32", shf), NULL), 0);
    ck_assert_uint_eq(errors_of(kernel("4.0", "sm_30", shf), NULL), 1);
    ck_assert_uint_eq(errors_of(kernel("3.0", "sm_35", shf), NULL), 1);
}
END_TEST

START_TEST(narrow_special_register_reads)
{
    /* The PTX ISA's legacy reads: 16-bit mov of %tid, %ntid, %ctaid, %nctaid; 16- and 32-bit of
     * %gridid; cvt of any special register's low bits; no other instruction reads one. Each
     * verdict is ptxas 13.0's (sm_90). */
    static const struct { const char *body; unsigned errors; } cases[] = {
        { ".reg .b16 %h;\nmov.u16 %h, %tid.x;", 0 },
        { ".reg .b16 %h;\nmov.b16 %h, %ntid.y;", 0 },
        { ".reg .b16 %h;\nmov.s16 %h, %ctaid.z;", 0 },
        { ".reg .b16 %h;\nmov.u16 %h, %nctaid.x;", 0 },
        { "mov.u32 %r1, %gridid;", 0 },
        { ".reg .b16 %h;\nmov.u16 %h, %gridid;", 0 },
        { "cvt.u32.u16 %r1, %tid.z;", 0 },
        { "cvt.u32.u8 %r1, %laneid;", 0 },
        { "cvt.u32.u32 %r1, %clock64;", 0 },
        { ".reg .b16 %h;\nmov.u16 %h, %laneid;", 1 },
        { ".reg .b16 %h;\nmov.u16 %h, %clusterid.x;", 1 },
        { "mov.u32 %r1, %clock64;", 1 },
        { "mov.u32 %r1, %globaltimer;", 1 },
        /* "accessed through mov or cvt instructions": to an integer or a predicate only */
        { "add.u32 %r1, %tid.x, 1;", 1 },
        { "setp.eq.u32 %p1, %laneid, 0;", 1 },
        { "shfl.sync.idx.b32 %r1, %r2, %laneid, 31, -1;", 1 },
        { "and.pred %p1, %is_explicit_cluster, %p2;", 1 },
        { "mov.f32 %r1, %tid.x;", 1 },
        { "cvt.rn.f32.u32 %r1, %tid.x;", 1 },
        { "mov.pred %p1, %is_explicit_cluster;", 0 },
        { "add.u32 %r1, %r2, WARP_SZ;", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(errors_of(kernel("8.7", "sm_90", cases[i].body), NULL) == cases[i].errors, "%s", cases[i].body);
}
END_TEST

START_TEST(conversions_and_compares_ptxas_refuses)
{
    /* Forms the PTX ISA's syntax lists but ptxas 13.0 refuses (sm_90), each beside a neighbour
     * it takes. */
    static const struct { const char *body; unsigned errors; } cases[] = {
        { ".reg .b16 %h<2>;\ncvt.rpi.u8.bf16 %h1, %h0;", 1 },
        { ".reg .b16 %h<2>;\ncvt.rzi.s8.bf16 %h1, %h0;", 1 },
        { ".reg .b16 %h<2>;\ncvt.rn.bf16.u8 %h1, %h0;", 1 },
        { ".reg .b16 %h<2>;\ncvt.rz.bf16.s8 %h1, %h0;", 1 },
        { ".reg .b16 %h<2>;\ncvt.rpi.u8.f16 %h1, %h0;", 0 },
        { ".reg .b16 %h<2>;\ncvt.rpi.u16.bf16 %h1, %h0;", 0 },
        { ".reg .b16 %h<2>;\ncvt.rn.bf16.s16 %h1, %h0;", 0 },
        { ".reg .b16 %h<2>;\ncvt.rni.f32.bf16 %r1, %h0;", 1 },
        { ".reg .b16 %h<2>;\ncvt.rzi.bf16.f16 %h1, %h0;", 1 },
        { ".reg .b16 %h<2>;\ncvt.rmi.f16.bf16 %h1, %h0;", 1 },
        { ".reg .b16 %h<2>;\ncvt.rmi.bf16.bf16 %h1, %h0;", 0 },
        { ".reg .b16 %h<2>;\ncvt.f32.bf16 %r1, %h0;", 0 },
        { ".reg .b16 %h<2>;\nsetp.lt.f16 %p0|%p1, %h0, %h1;", 1 },
        { ".reg .b16 %h<2>;\nsetp.eq.and.bf16 %p0|%p1, %h0, %h1, %p2;", 1 },
        { ".reg .b16 %h<2>;\nsetp.lt.f16 %p0, %h0, %h1;", 0 },
        { "setp.lt.f16x2 %p0|%p1, %r0, %r1;", 0 },
        { "setp.lt.f32 %p0|%p1, %r0, %r1;", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(errors_of(kernel("8.7", "sm_90", cases[i].body), NULL) == cases[i].errors, "%s", cases[i].body);
}
END_TEST

START_TEST(snippets_have_no_version_rules)
{
    unsigned w;
    ck_assert_uint_eq(errors_of("shfl.up.b32 Ry|p, Rx, 1, 0;\nshfl.down.b32 Ry|p, Rx, 1, 31;\n", &w), 0);
    ck_assert_uint_eq(w, 1);           /* once per opcode, not per use */
    /* A snippet may state its version and target, and then the rules apply. */
    ck_assert_uint_eq(errors_of(".version 7.0\n.target sm_75\nshfl.up.b32 Ry|p, Rx, 1, 0;\n", NULL), 1);
}
END_TEST

START_TEST(register_type_compatibility)
{
    /* PTX ISA "operand type checking": .b registers fit any type of their width; integer
     * registers fit any integer type of their width; float registers only their own type. */
    const char *decls = ".reg .b32 b; .reg .u32 u; .reg .s32 s; .reg .f32 f; .reg .b64 d; .reg .f64 g;\n";
    char text[1024];
    const char *ok[] = { "add.f32 f, b, b;", "add.s32 u, s, u;", "add.u32 b, s, 1;", "mov.b32 b, f;",
                         "add.f64 g, d, g;", "shl.b32 b, u, s;", "selp.f32 f, f, b, %p1;" };
    const char *bad[] = { "add.u32 u, f, 1;", "add.f32 f, u, f;", "add.s32 s, d, s;", "add.f64 g, f, g;",
                          "shl.b32 b, b, d;", "mov.u32 u, g;" };
    for (size_t i = 0; i < COUNT_OF(ok); i++) {
        snprintf(text, sizeof text, "%s%s", decls, ok[i]);
        ck_assert_msg(errors_of(kernel("9.0", "sm_90", text), NULL) == 0, "'%s' was rejected", ok[i]);
    }
    for (size_t i = 0; i < COUNT_OF(bad); i++) {
        snprintf(text, sizeof text, "%s%s", decls, bad[i]);
        ck_assert_msg(errors_of(kernel("9.0", "sm_90", text), NULL) == 1, "'%s' was accepted", bad[i]);
    }
}
END_TEST

START_TEST(immediates_by_type)
{
    ck_assert_uint_eq(errors_of(kernel("9.0", "sm_90", ".reg .f32 f;\nadd.f32 f, f, 0f3F800000;\nadd.f32 f, f, 1.5;"), NULL), 0);
    ck_assert_uint_eq(errors_of(kernel("9.0", "sm_90", ".reg .f32 f;\nadd.f32 f, f, 1;"), NULL), 1);
    ck_assert_uint_eq(errors_of(kernel("9.0", "sm_90", "mov.b32 %r1, 0f3F800000;\nmov.pred %p1, 1;"), NULL), 0);
    ck_assert_uint_eq(errors_of(kernel("9.0", "sm_90", "mov.pred %p1, -1;"), NULL), 0);   /* nvcc -G writes -1 */
}
END_TEST

START_TEST(block_scopes)
{
    const char *body = "{ .reg .b32 t; mov.b32 t, 1; }\n{ .reg .b32 t; mov.b32 t, 2; }\n";
    ck_assert_uint_eq(errors_of(kernel("9.0", "sm_90", body), NULL), 0);
    ck_assert_uint_eq(errors_of(kernel("9.0", "sm_90", "{ .reg .b32 t; }\nmov.b32 t, 1;"), NULL), 1);
    /* An inner declaration shadows an outer one and ends with its block. */
    Parsed *p = parse_ok(kernel("9.0", "sm_90", ".reg .f32 x;\n{ .reg .b64 x; mov.b64 x, 1; }\nmov.f32 x, 0f00000000;"));
    Function *f = p->m->functions.data[0];
    ck_assert_int_eq(f->regs.data[f->code.data[0].operands[0].u.slot].type, TYPE_B64);
    ck_assert_int_eq(f->regs.data[f->code.data[1].operands[0].u.slot].type, TYPE_F32);
    parsed_free(p);
}
END_TEST

START_TEST(module_symbols)
{
    const char *ok = ".version 9.0\n.target sm_90\n"
                     ".func f();\n.func f() { ret; }\n.global .u32 g;\n"
                     ".entry k() { .reg .b64 %rd; mov.u64 %rd, g; call f, (); ret; }\n";
    ck_assert_uint_eq(errors_of(ok, NULL), 0);
    ck_assert_uint_eq(errors_of(".version 9.0\n.target sm_90\n.func f() { ret; }\n.func f() { ret; }\n", NULL), 1);
    ck_assert_uint_eq(errors_of(".version 9.0\n.target sm_90\n.global .u32 g;\n.global .u32 g;\n", NULL), 1);
}
END_TEST

START_TEST(labels_resolve_to_instruction_indices)
{
    Parsed *p = parse_ok("L0:\n  add.s32 i, i, 1;\n  setp.lt.s32 p, i, 10;\n@p bra L0;\n  bra.uni END;\nEND:\n");
    Function *f = p->m->functions.data[0];
    ck_assert_int_eq(f->code.data[2].operands[0].u.ref.target, 0);
    ck_assert_int_eq(f->code.data[3].operands[0].u.ref.target, 4);   /* past the end: falls off */
    parsed_free(p);
}
END_TEST

/* Every rule string in ops.def names only known words: decoding an instruction of each
 * checked opcode parses its rule (a bad rule stops the program with an internal error). */
START_TEST(every_rule_parses)
{
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *o = &op_info[op];
        if (strcmp(o->rule, "*") == 0)
            continue;
        char text[256];
        snprintf(text, sizeof text, "%s;\n", o->name);
        Parsed *p = parse_text(text, true);
        parsed_free(p);
    }
    /* Names are unique, and each maps back to itself. */
    for (int op = 0; op < OP_COUNT; op++)
        ck_assert_int_eq(op_lookup(op_info[op].name, strlen(op_info[op].name)), op);
}
END_TEST

START_TEST(what_ptxas_refuses)
{
    /* PTX ISA atom/red: add of f16, f16x2, bf16 and bf16x2 requires .noftz (ptxas 13.0:
     * "'.noftz' modifier required for instruction 'atom' with type '.f16x2'"). */
    ck_assert_uint_eq(errors_of("atom.global.add.f16x2 d, [a], b;\n", NULL), 1);
    ck_assert_uint_eq(errors_of("red.shared.add.bf16 [a], b;\n", NULL), 1);
    ck_assert_uint_eq(errors_of("atom.global.add.noftz.f16x2 d, [a], b;\nred.add.noftz.bf16 [a], h;\n", NULL), 0);
    /* Special registers that came later (ptxas 13.0: "Feature '%aggr_smem_size' requires .target
     * sm_90 or higher"; %reserved_smem_offset_* need PTX ISA 7.6 and sm_80). */
    ck_assert_uint_eq(errors_of(kernel("8.5", "sm_90", "mov.u32 %r1, %aggr_smem_size;"), NULL), 0);
    ck_assert_uint_eq(errors_of(kernel("8.5", "sm_80", "mov.u32 %r1, %aggr_smem_size;"), NULL), 1);
    ck_assert_uint_eq(errors_of(kernel("7.6", "sm_80", "mov.u32 %r1, %reserved_smem_offset_1;"), NULL), 0);
    ck_assert_uint_eq(errors_of(kernel("7.5", "sm_80", "mov.u32 %r1, %reserved_smem_offset_1;"), NULL), 1);
    ck_assert_uint_eq(errors_of(kernel("7.6", "sm_75", "mov.u32 %r1, %reserved_smem_offset_1;"), NULL), 1);
    ck_assert_uint_eq(errors_of(kernel("7.8", "sm_90", "mov.pred %p1, %is_explicit_cluster;"), NULL), 0);
    ck_assert_uint_eq(errors_of(kernel("7.8", "sm_86", "mov.u32 %r1, %cluster_ctaid.x;"), NULL), 1);
    /* .param::entry / ::func need PTX ISA 8.3; a module-scope .local is refused (ptxas 13.0). */
    const char *ld = "ld.param::entry.b32 %r1, [x];";
    char text[512];
    snprintf(text, sizeof text, ".version 8.2\n.target sm_90\n.entry k(.param .b32 x) {\n.reg .b32 %%r<2>;\n%s\n}\n", ld);
    ck_assert_uint_eq(errors_of(text, NULL), 1);
    snprintf(text, sizeof text, ".version 8.3\n.target sm_90\n.entry k(.param .b32 x) {\n.reg .b32 %%r<2>;\n%s\n}\n", ld);
    ck_assert_uint_eq(errors_of(text, NULL), 0);
    ck_assert_uint_eq(errors_of(".version 9.0\n.target sm_90\n.local .b32 v;\n.entry k() {\nret;\n}\n", NULL), 1);
    ck_assert_uint_eq(errors_of(".version 9.0\n.target sm_90\n.entry k() {\n.local .b32 v;\nret;\n}\n", NULL), 0);
    /* bfe/bfi: an immediate position or length from 0 to 255 (ptxas 13.0: "value '256' out of
     * range, expected to be in range [0..255]"; scripts/bitfield_imm.py). */
    ck_assert_uint_eq(errors_of("bfe.u32 d, a, 255, 255;\nbfi.b64 e, f, f, 0, 255;\n", NULL), 0);
    ck_assert_uint_eq(errors_of("bfe.u32 d, a, 256, 1;\n", NULL), 1);
    ck_assert_uint_eq(errors_of("bfe.s64 e, f, 3, -1;\n", NULL), 1);
    ck_assert_uint_eq(errors_of("bfi.b32 d, a, b, 1, 256;\n", NULL), 1);
}
END_TEST

/* The diagnostics of one instruction in a kernel for sm_100 (so that 256-bit accesses are valid
 * PTX), with its declarations; "" when it checks clean. */
static const char *diagnostics_of(const char *instr)
{
    static char out[1024];
    char text[2048];
    snprintf(text, sizeof text, ".version 9.0\n.target sm_100\n.global .align 16 .b8 gbl[256];\n"
             ".shared .align 16 .b8 sh[256];\n.entry k(.param .u64 prm) {\n"
             ".reg .b16 %%h<8>;\n.reg .b32 %%r<8>;\n.reg .b64 %%rd<8>;\n.reg .f32 %%f<8>;\n.reg .pred %%p<4>;\n"
             ".reg .b128 %%q<4>;\n%s\n}\n", instr);
    Parsed *p = parse_text(text, true);
    snprintf(out, sizeof out, "%s", p->cap.text);
    parsed_free(p);
    return out;
}

START_TEST(memory_barrier_and_fence_forms)
{
    /* Forms ptxas 13.0 accepts (sm_100); ptxrun checks them clean. */
    static const char *const valid[] = {
        "st.global.b128 [%rd1], %q1;", "ld.shared.b128 %q1, [sh];", "atom.global.cas.b128 %q2, [%rd1], %q1, %q3;",
        "atom.exch.b128 %q2, [%rd1], %q1;",
        "ld.global.u32 %r1, [%rd1];", "ld.relaxed.gpu.global.u32 %r1, [%rd1];", "ld.global.relaxed.gpu.u32 %r1, [%rd1];",
        "ld.global.nc.L1::evict_last.u32 %r1, [%rd1];", "ld.global.L2::128B.ca.u32 %r1, [%rd1];",
        "ld.volatile.shared.u32 %r1, [sh];", "ld.mmio.relaxed.sys.global.u32 %r1, [%rd1];",
        "ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd2;", "ld.param::entry.u64 %rd3, [prm];",
        "ld.global.b8 %f1, [%rd1];", "ld.global.u8 %rd2, [%rd1];", "ld.global.v2.u32 {%r1, _}, [%rd1];",
        "ld.global.v4.u64 {%rd0, %rd1, %rd2, %rd3}, [%rd1];", "ld.global.u32 %r1, [gbl+8];",
        "st.global.u8 [%rd1], 300;", "st.global.f32 [%rd1], 1.0;", "st.release.cta.shared::cta.u32 [sh], %r1;",
        "st.global.L1::no_allocate.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};",
        "cvta.global.u64 %rd2, gbl+4;", "cvta.to.global.u64 %rd2, %rd1;", "cvta.param.u64 %rd2, prm;",
        "atom.global.add.u32 %r2, [%rd1], 1;", "atom.acq_rel.gpu.global.cas.b32 %r2, [%rd1], %r1, 5;",
        "atom.global.add.noftz.f16 %h2, [%rd1], %h1;", "atom.global.add.L2::cache_hint.u32 %r2, [%rd1], %r1, %rd2;",
        "atom.shared::cta.max.s32 %r2, [sh], %r1;", "atom.global.add.u32 _, [%rd1], %r1;",
        "red.release.gpu.global.add.u32 [%rd1], %r1;", "red.global.and.b64 [%rd1], %rd1;",
        "bar.sync 0;", "bar.sync %r1, 64;", "bar.cta.arrive 0, 64;", "bar.red.popc.u32 %r2, 0, 64, !%p1;",
        "bar.red.and.pred %p2, 0, %p1;", "barrier.red.aligned.or.pred %p2, 0, %p1;", "barrier.cta.sync 0, 64;",
        "membar.gl;", "membar.proxy.alias;", "fence.sc.cta;", "fence.acq_rel.gpu;", "fence.proxy.async.shared::cta;",
        "fence.mbarrier_init.release.cluster;", "fence.acquire.sync_restrict::shared::cluster.cluster;", "trap;",
        "isspacep.global %p1, %rd1;", "isspacep.shared::cluster %p1, %r1;", "isspacep.param::entry %p1, %rd1;",
        "ldu.global.v4.f32 {%f0, %f1, %f2, %f3}, [%rd1];", "ldu.u64 %rd2, [%rd1+8];", "ldu.global.b8 %r1, [gbl];",
        "prefetch.global.L2::evict_last [%rd1];", "prefetchu.L1 [%rd1];", "discard.global.L2 [%rd1], 128;",
        "applypriority.global.L2::evict_normal [%rd1], 128;", "createpolicy.fractional.L2::evict_last.b64 %rd2;",
        "createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %rd2, %f1;",
        "createpolicy.range.global.L2::evict_last.L2::evict_first.b64 %rd2, [%rd1], 64, %r1;",
        "createpolicy.cvt.L2.b64 %rd2, %rd1;", "stacksave.u64 %rd2;", "alloca.u32 %r1, %r2, 64;",
        "stackrestore.u64 %rd2;", "pmevent.mask 0x8;", "griddepcontrol.wait;", "mov.pred %p1, %is_explicit_cluster;",
        "ld.shared::cluster.u32 %r1, [sh];", "cvta.shared::cluster.u64 %rd2, sh;", "red.shared::cluster.add.u32 [sh], %r1;",
        "mapa.shared::cluster.u32 %r1, sh, 1;", "mapa.u64 %rd2, %rd1, %r1;", "getctarank.shared::cluster.u32 %r1, sh+4;",
        "getctarank.u64 %r1, %rd1;", "barrier.cluster.arrive.relaxed.aligned;", "barrier.cluster.wait.acquire;",
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%r1], {%r2, %r3}, [%r4];",
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%r1], %rd1, [%r4];",
    };
    for (size_t i = 0; i < COUNT_OF(valid); i++)
        ck_assert_msg(strcmp(diagnostics_of(valid[i]), "") == 0, "'%s': %s", valid[i], diagnostics_of(valid[i]));

    /* Forms ptxas 13.0 refuses: one located error each. */
    static const struct {
        const char *instr, *message;
    } invalid[] = {
        { "bar.frob 0;", "12:4: error: unknown modifier '.frob' for 'bar'\n" },
        { "barrier.cluster.wait.relaxed;", "12:1: error: 'barrier.cluster.wait.relaxed': barrier.cluster.arrive takes "
          ".release or .relaxed, barrier.cluster.wait .acquire\n" },
        { "barrier.cluster.arrive.acquire;", "12:1: error: 'barrier.cluster.arrive.acquire': barrier.cluster.arrive takes "
          ".release or .relaxed, barrier.cluster.wait .acquire\n" },
        { "mapa.shared::cta.u32 %r1, sh, 1;", "12:5: error: unknown modifier '.shared::cta' for 'mapa'\n" },
        { "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.s32 [%r1], %r2, [%r4];",
          "12:1: error: 'red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.s32': red.async takes "
          ".inc and .dec of .u32, .min and .max of .u32 and .s32, .and, .or and .xor of .b32, .add of .u32, .s32, .u64 "
          "and .s64\n" },
        { "getctarank.shared::cluster.u32 %rd2, %r1;",
          "12:32: error: '%rd2' is .b64, which does not fit the .u32 operand of 'getctarank.shared::cluster.u32'\n" },
        { "ld.weird.global.u32 %r1, [%rd1];", "12:3: error: unknown modifier '.weird' for 'ld'\n" },
        { "ld.global.f16 %h1, [%rd1];", "12:10: error: '.f16' is not a valid type for 'ld'\n" },
        { "ld.relaxed.global.u32 %r1, [%rd1];",
          "12:1: error: 'ld.relaxed.global.u32': .relaxed needs a scope (.cta, .cluster, .gpu or .sys)\n" },
        { "ld.volatile.global.ca.u32 %r1, [%rd1];",
          "12:1: error: 'ld.volatile.global.ca.u32': .volatile cannot be combined with .ca\n" },
        { "ld.global.u32 %r1, [%rd1], %rd2;", "12:1: error: 'ld.global.u32' takes 2 operands, not 3\n" },
        { "ld.global.u32 _, [%rd1];",
          "12:15: error: 'ld.global.u32' cannot discard its one value ('_' is for elements of a vector)\n" },
        { "ld.global.u32 %f1, [%rd1];",
          "12:15: error: '%f1' is .f32, which does not fit the .u32 operand of 'ld.global.u32'\n" },
        { "ld.global.v2.u32 %r1, [%rd1];",
          "12:18: error: 'ld.global.v2.u32' moves a vector of 2 values, not one value\n" },
        { "st.const.u32 [%rd1], %r1;", "12:3: error: unknown modifier '.const' for 'st'\n" },
        { "st.global.u32 [%rd1], %tid.x;",
          "12:23: error: 'st.global.u32' cannot store special register '%tid': move it to a register first\n" },
        { "cvta.to.global.u64 %rd2, gbl;",
          "12:26: error: 'cvta.to.global.u64' cannot take a variable or function name here\n" },
        { "atom.global.and.u32 %r2, [%rd1], 1;",
          "12:1: error: 'atom.global.and.u32': .and takes .b32 or .b64, not .u32\n" },
        { "atom.global.min.noftz.f16 %h2, [%rd1], %h1;",
          "12:1: error: 'atom.global.min.noftz.f16': .min of .f16 is a vector operation (.v2, .v4 or .v8)\n" },
        { "red.global.exch.b32 [%rd1], %r1;", "12:11: error: unknown modifier '.exch' for 'red'\n" },
        { "bar.arrive 0;", "12:1: error: 'bar.arrive' takes 2 operands, not 1\n" },
        { "bar.red.and.u32 %r2, 0, %p1;", "12:1: error: 'bar.red.and.u32': .and gives a .pred\n" },
        { "bar.sync 16;", "12:10: error: barrier 16 is out of range: a CTA has barriers 0 to 15\n" },
        { "bar.sync 0, 33;", "12:13: error: a thread count is a multiple of 32 (the warp size), not 33\n" },
        { "membar.gpu;", "12:7: error: unknown modifier '.gpu' for 'membar'\n" },
        { "fence.sc;", "12:1: error: 'fence.sc' needs a scope (.cta, .cluster, .gpu or .sys)\n" },
        { "fence.proxy.alias.gpu;", "12:1: error: 'fence.proxy.alias.gpu': fence.proxy.alias takes no order or scope\n" },
        { "trap.x;", "12:5: error: unknown modifier '.x' for 'trap'\n" },
        { "discard.global.L2 [%rd1], 64;", "12:27: error: 'discard.global.L2' takes the size 128 (an immediate), no other\n" },
        { "alloca.u64 %rd2, 16, 3;", "12:22: error: 'alloca.u64': the alignment is an immediate power of two up to 2^23\n" },
        { "pmevent 16;", "12:9: error: 'pmevent' takes an immediate event from 0 to 15\n" },
        { "createpolicy.fractional.L2::evict_last.b64 %rd2, 0.0;",
          "12:50: error: 'createpolicy.fractional.L2::evict_last.b64': the fraction is in (0, 1]\n" },
        { "isspacep.global %p1, %f1;", "12:22: error: '%f1' is .f32: 'isspacep.global' takes a 32- or 64-bit integer address\n" },
        { "ldu.shared.u32 %r1, [sh];", "12:4: error: unknown modifier '.shared' for 'ldu'\n" },
        { "mov.u32 %r1, %is_explicit_cluster;",
          "12:14: error: special register '%is_explicit_cluster' is a predicate: 'mov.u32' cannot take it here\n" },
    };
    for (size_t i = 0; i < COUNT_OF(invalid); i++)
        ck_assert_str_eq(diagnostics_of(invalid[i].instr), invalid[i].message);

    /* Valid forms ptxrun does not execute: refused where the suffix is written. */
    static const struct {
        const char *instr, *message;
    } refused[] = {
        { "ld.global.v8.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, [%rd1];",
          "12:10: error: ptxrun cannot execute 'ld' with '.v8' yet\n" },
        { "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;",
          "12:12: error: ptxrun cannot execute 'fence' with '.tensormap::generic' yet\n" },
    };
    for (size_t i = 0; i < COUNT_OF(refused); i++)
        ck_assert_str_eq(diagnostics_of(refused[i].instr), refused[i].message);
}
END_TEST

START_TEST(arithmetic_forms)
{
    /* What ptxas 13.0 accepts of the arithmetic that ptxrun executes... */
    static const char *const valid[] = {
        "mul24.hi.u32 %r1, %r2, 7;", "mad24.hi.sat.s32 %r1, %r2, %r3, %r4;", "div.approx.ftz.f32 %f1, %f2, %f3;",
        "div.rz.f64 %rd1, %rd2, %rd3;", "rcp.approx.ftz.f64 %rd1, %rd2;", "rcp.rm.ftz.f64 %rd1, %rd2;",
        "bfind.shiftamt.s64 %r1, %rd1;", "dp2a.hi.s32.u32 %r1, %r2, %r3, %r4;", "madc.lo.cc.s32 %r1, %r2, %r3, %r4;",
        "ex2.approx.ftz.bf16x2 %r1, %r2;", "set.lt.and.u32.s32 %r1, %r2, %r3, %p1;", "setp.hs.u32 %p1, %r1, %r2;",
        "setp.num.f32 %p1, %f1, %f2;", "slct.ftz.b32.f32 %r1, %r2, %r3, %f1;", "lop3.or.b32 %r1|%p1, %r2, %r3, %r4, 0x80, %p2;",
        "prmt.b32.f4e %r1, %r2, %r3, %r4;", "cvt.rni.s32.f32 %r1, %f1;", "cvt.rn.f32.s32 %f1, %r1;",
        "cvt.f64.f32 %rd1, %f1;", "cvt.bf16.f16 %h1, %h2;", "cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;",
        "cvt.sat.u32.s32 %r1, %r2;", "match.all.sync.b64 %r1|%p1, %rd1, -1;", "redux.sync.min.s32 %r1, %r2, -1;",
        "elect.sync _|%p1, -1;", "vabsdiff4.u32.u32.s32.sat %r1, %r2, %r3, %r4;",
    };
    for (size_t i = 0; i < COUNT_OF(valid); i++)
        ck_assert_msg(strcmp(diagnostics_of(valid[i]), "") == 0, "'%s': %s", valid[i], diagnostics_of(valid[i]));
    /* ... and what it refuses. */
    static const struct {
        const char *instr, *message;
    } invalid[] = {
        { "mul24.u32 %r1, %r2, %r3;", "12:1: error: 'mul24.u32' needs one of .hi, .lo\n" },
        { "popc.u32 %r1, %r2;", "12:5: error: '.u32' is not a valid type for 'popc'\n" },
        { "div.f32 %f1, %f2, %f3;",
          "12:1: error: 'div.f32' needs .approx, .full or a rounding modifier (.rn, .rz, .rm or .rp)\n" },
        { "sqrt.approx.f64 %rd1, %rd2;", "12:1: error: 'sqrt.approx.f64': .approx is for .f32\n" },
        { "setp.lt.b32 %p1, %r1, %r2;", "12:1: error: 'setp.lt.b32': .lt is not a comparison of .b32 values\n" },
        { "cvt.s32.f32 %r1, %f1;", "12:1: error: 'cvt.s32.f32' needs an integer rounding (.rni, .rzi, .rmi or .rpi)\n" },
        { "cvt.rn.f64.f32 %rd1, %f1;", "12:1: error: 'cvt.rn.f64.f32' takes no rounding: every value converts exactly\n" },
        { "cvt.sat.s32.s16 %r1, %h1;",
          "12:1: error: 'cvt.sat.s32.s16': .sat changes nothing: every .s16 value is a .s32 value\n" },
        { "match.any.sync.b32 %r1|%p1, %r2, -1;", "12:20: error: 'match.any.sync.b32' does not take a d|p pair here\n" },
        { "redux.sync.and.u32 %r1, %r2, -1;",
          "12:1: error: 'redux.sync.and.u32': .and, .or and .xor take .b32; .add .u32 or .s32; .min and .max those or .f32\n" },
        { "elect.sync %r1, -1;", "12:12: error: 'elect.sync' writes d|p: it needs a predicate destination\n" },
        /* ptxas 13.0: "Unexpected instruction types specified for 'sub'" (the PTX ISA's sub lists no
         * .u16x2/.s16x2, which add, min and max have) */
        { "sub.u16x2 %r1, %r2, %r3;", "12:4: error: '.u16x2' is not a valid type for 'sub'\n" },
        { "sub.s16x2 %r1, %r2, %r3;", "12:4: error: '.s16x2' is not a valid type for 'sub'\n" },
    };
    for (size_t i = 0; i < COUNT_OF(invalid); i++)
        ck_assert_str_eq(diagnostics_of(invalid[i].instr), invalid[i].message);
    /* redux.sync of .f32 would be computed as integers: refused. */
    ck_assert_str_eq(diagnostics_of("redux.sync.min.f32 %f1, %f2, -1;"),
                     "12:15: error: ptxrun cannot execute 'redux.sync' with '.f32' yet\n");
}
END_TEST

/* Parameters ptxas 13.0 refuses: the same name twice ("Duplicate definition of variable 'p'"),
 * a kernel's in another state space than .param ("Entry parameter 'p' must have .param state
 * space"); a .func's .reg parameter it takes. */
START_TEST(parameters_ptxas_refuses)
{
#define M(text) ".version 8.0\n.target sm_80\n" text
    ck_assert_uint_eq(errors_of(M(".entry k(.param .u64 p, .param .u64 p) { ret; }\n"), NULL), 1);
    ck_assert_uint_eq(errors_of(M(".func (.param .b32 r) f(.param .b32 r) { ret; }\n"), NULL), 1);
    ck_assert_uint_eq(errors_of(M(".entry k(.reg .u64 p) { ret; }\n"), NULL), 1);
    ck_assert_uint_eq(errors_of(M(".entry k(.param .u64 p, .param .u64 q) { ret; }\n"), NULL), 0);
    ck_assert_uint_eq(errors_of(M(".func f(.reg .b32 a, .param .b32 b) { ret; }\n"), NULL), 0);
    /* a body's declaration may reuse a parameter's name in an inner block */
    ck_assert_uint_eq(errors_of(M(".entry k(.param .u64 p) { { .reg .b64 p; } ret; }\n"), NULL), 0);
#undef M
}
END_TEST

START_TEST(suffixes_newer_than_their_opcode)
{
    ck_assert_uint_eq(errors_of(kernel("7.7", "sm_90", "bar.cta.sync 0;"), NULL), 1);
    ck_assert_uint_eq(errors_of(kernel("7.8", "sm_90", "bar.cta.sync 0;\nbarrier.cta.arrive 0, 32;"), NULL), 0);
    ck_assert_uint_eq(errors_of(kernel("7.7", "sm_90", "barrier.cta.sync 0;"), NULL), 1);
    ck_assert_uint_eq(errors_of(kernel("1.4", "sm_10", "bar.arrive 0, 32;"), NULL), 2);    /* PTX 2.0, sm_20 */
    ck_assert_uint_eq(errors_of(kernel("2.0", "sm_20", "bar.red.popc.u32 %r1, 0, %p1;"), NULL), 0);
    /* lop3.or/.and with a predicate: PTX ISA 8.2 (ptxas 13.0: "Feature 'lop3.<BoolOp>' requires PTX ISA
     * .version 8.2 or later") */
    ck_assert_uint_eq(errors_of(kernel("8.1", "sm_90", "lop3.or.b32 %r1|%p1, %r2, %r3, %r4, 0x80, %p2;"), NULL), 1);
    ck_assert_uint_eq(errors_of(kernel("8.1", "sm_90", "lop3.and.b32 %r1|%p1, %r2, %r3, %r4, 0x80, %p2;"), NULL), 1);
    ck_assert_uint_eq(errors_of(kernel("8.2", "sm_90", "lop3.or.b32 %r1|%p1, %r2, %r3, %r4, 0x80, %p2;"), NULL), 0);
    ck_assert_uint_eq(errors_of(kernel("8.1", "sm_90", "lop3.b32 %r1, %r2, %r3, %r4, 0x80;"), NULL), 0);
    /* 256-bit loads and stores are for sm_100 on. */
    ck_assert_uint_eq(errors_of(kernel("9.0", "sm_90", ".reg .b64 %rd<4>;\nld.global.v4.u64 {%rd0, %rd1, %rd2, %rd3}, [%rd0];"),
                                NULL), 1);
}
END_TEST

/* The checker's decode carries what the loader needs: opcode, canonical suffixes, types. */
START_TEST(memory_suffixes_are_decoded)
{
    Parsed *p = parse_ok(".reg .b64 a;\n.reg .b32 x, y;\nld.global.relaxed.gpu.L1::evict_last.v2.u32 {x, y}, [a];\n"
                         "bar.cta.red.or.pred q, 1, !q;\n");
    Function *f = p->m->functions.data[0];
    Instr *ld = &f->code.data[0], *bar = &f->code.data[1];
    ck_assert_int_eq(ld->op, OP_LD);
    ck_assert_str_eq(ld->mnemonic, "ld.relaxed.gpu.global.L1::evict_last.v2.u32");
    ck_assert(ir_has_mod(ld, MOD_GLOBAL) && ir_has_mod(ld, MOD_V2) && ir_has_mod(ld, MOD_RELAXED));
    ck_assert(mod_is_hint[MOD_RELAXED] && mod_is_hint[MOD_GPU] && mod_is_hint[MOD_L1_EVICT_LAST]);
    ck_assert(!mod_is_hint[MOD_GLOBAL] && !mod_is_hint[MOD_V2]);
    ck_assert_int_eq(ld->type_count, 1);
    ck_assert_int_eq(ld->types[0], TYPE_U32);
    ck_assert_int_eq(bar->op, OP_BAR);
    ck_assert(ir_has_mod(bar, MOD_RED) && ir_has_mod(bar, MOD_OR));
    ck_assert_int_eq(bar->types[0], TYPE_PRED);
    parsed_free(p);
    /* Every executed opcode has a real suffix rule (and, but for those below, an operand shape); an
     * opcode ptxrun does not execute has no family. */
    for (int op = 0; op < OP_COUNT; op++) {
        ck_assert_int_lt(op_info[op].family, FAM_COUNT);
        if (op_info[op].family == FAM_NONE)
            continue;
        /* wgmma.mma_async's 114 shapes (m64nNkK) would take the 8-bit Mod past its range: its
         * suffixes are decoded and checked when it is lowered (exec/wgmma.c), --check too. */
        ck_assert_msg(strcmp(op_info[op].rule, "*") != 0 || op == OP_WGMMA_MMA_ASYNC, "'%s' has no suffix rule",
                      op_info[op].name);
        /* call, and the texture and surface instructions, whose [handle, {coordinates}]
         * operands and optional ones image_load (exec/surface.c) checks as it lowers them (the
         * tensor copies' [map, {coordinates}] likewise, exec/bulk.c); mma,
         * whose four vectors' lengths and widths depend on its form (exec/mma.c), mma.sp
         * (exec/mmasp.c), wmma (exec/wmma.c) and wgmma.mma_async (exec/wgmma.c). */
        bool own_operands = op == OP_CALL || op == OP_MMA || op == OP_MMA_SP || op == OP_MMA_SP_ORDERED ||
                            op == OP_WMMA_LOAD || op == OP_WMMA_STORE || op == OP_WMMA_MMA ||
                            op == OP_WGMMA_MMA_ASYNC ||
                            op_info[op].family == FAM_TEXTURE || op_info[op].family == FAM_SURFACE ||
                            op == OP_CP_ASYNC_BULK_TENSOR || op == OP_CP_REDUCE_ASYNC_BULK_TENSOR ||
                            op == OP_CP_ASYNC_BULK_PREFETCH_TENSOR;
        ck_assert_msg(strcmp(op_info[op].shape, "*") != 0 || own_operands, "'%s' has no operand shape",
                      op_info[op].name);
    }
}
END_TEST

START_TEST(longest_prefix_wins)
{
    ck_assert_int_eq(op_lookup("shfl.sync.up.b32", 16), OP_SHFL_SYNC);
    ck_assert_int_eq(op_lookup("shfl.up.b32", 11), OP_SHFL);
    ck_assert_int_eq(op_lookup("bar.warp.sync", 13), OP_BAR_WARP_SYNC);
    ck_assert_int_eq(op_lookup("bar.sync", 8), OP_BAR);
    ck_assert_int_eq(op_lookup("cp.async.bulk.tensor.2d.shared::cluster", 39), OP_CP_ASYNC_BULK_TENSOR);
    ck_assert_int_eq(op_lookup("shflx.up", 8), OP_COUNT);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("checker");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, legacy_shfl_rules);
    tcase_add_test(tc, sync_and_funnel_shift_versions);
    tcase_add_test(tc, snippets_have_no_version_rules);
    tcase_add_test(tc, register_type_compatibility);
    tcase_add_test(tc, immediates_by_type);
    tcase_add_test(tc, block_scopes);
    tcase_add_test(tc, module_symbols);
    tcase_add_test(tc, labels_resolve_to_instruction_indices);
    tcase_add_test(tc, every_rule_parses);
    tcase_add_test(tc, longest_prefix_wins);
    tcase_add_test(tc, what_ptxas_refuses);
    tcase_add_test(tc, memory_barrier_and_fence_forms);
    tcase_add_test(tc, arithmetic_forms);
    tcase_add_test(tc, suffixes_newer_than_their_opcode);
    tcase_add_test(tc, parameters_ptxas_refuses);
    tcase_add_test(tc, memory_suffixes_are_decoded);
    tcase_add_test(tc, narrow_special_register_reads);
    tcase_add_test(tc, conversions_and_compares_ptxas_refuses);
    tcase_add_test(tc, labels_scoped_by_blocks);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
