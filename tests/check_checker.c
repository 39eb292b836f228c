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
    /* .param::entry / ::func need PTX ISA 8.3; a module-scope .local is refused (ptxas 13.0). */
    const char *ld = "ld.param::entry.b32 %r1, [x];";
    char text[512];
    snprintf(text, sizeof text, ".version 8.2\n.target sm_90\n.entry k(.param .b32 x) {\n.reg .b32 %%r<2>;\n%s\n}\n", ld);
    ck_assert_uint_eq(errors_of(text, NULL), 1);
    snprintf(text, sizeof text, ".version 8.3\n.target sm_90\n.entry k(.param .b32 x) {\n.reg .b32 %%r<2>;\n%s\n}\n", ld);
    ck_assert_uint_eq(errors_of(text, NULL), 0);
    ck_assert_uint_eq(errors_of(".version 9.0\n.target sm_90\n.local .b32 v;\n.entry k() {\nret;\n}\n", NULL), 1);
    ck_assert_uint_eq(errors_of(".version 9.0\n.target sm_90\n.entry k() {\n.local .b32 v;\nret;\n}\n", NULL), 0);
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
    suite_add_tcase(s, tc);
    return run_suite(s);
}
