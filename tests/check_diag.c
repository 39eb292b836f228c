/* check_diag.c: exact line, column and text of diagnostics, one case per distinct message.
 * Positions were worked out by hand from the inputs below (1-based, in bytes). */
#include "testutil.h"

typedef struct Case {
    const char *name;
    const char *input;
    const char *expected;      /* every diagnostic, as "line:col: level: message\n" */
} Case;

#define MODULE ".version 9.0\n.target sm_90\n.address_size 64\n"
#define KERNEL(body) MODULE ".entry k() {\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n.reg .f32 %f<2>;\n" body "}\n"
/* In KERNEL, body line 1 is file line 8. */

static const Case cases[] = {
    { "stray character", "add.s32 a, b, c; #\n",
      "1:18: error: stray '#' in program\n" },
    { "missing semicolon at end of line", "add.s32 a, b, c\nret;\n",
      "1:16: error: expected ';' at end of statement\n" },
    { "unexpected token with expectations", "add.s32 a, b c;\n",
      "1:14: error: unexpected identifier 'c' (expected ',', ';', '+', '|' or '[')\n" },
    { "unclosed brace names its opener", MODULE ".entry k()\n{\n  ret;\n",
      "7:1: error: expected '}' at end of file (to close '{' at line 5)\n" },
    { "unknown instruction", "frobnicate.b32 a, b;\n",
      "1:1: error: unknown instruction 'frobnicate'\n" },
    { "unknown modifier", "shf.l.spin.b32 a, b, c, 1;\n",
      "1:6: error: unknown modifier '.spin' for 'shf'\n" },
    { "missing required modifier of a group", "shf.l.b32 a, b, c, 1;\n",
      "1:1: error: 'shf.l.b32' needs one of .clamp, .wrap\n" },
    { "type not allowed", "shf.l.wrap.f32 a, b, c, 1;\n",
      "1:11: error: '.f32' is not a valid type for 'shf'\n" },
    { "conflicting modifiers", "shfl.sync.up.down.b32 a, b, 1, 0, -1;\n",
      "1:13: error: '.down' conflicts with '.up' in 'shfl.sync'\n" },
    { "missing required modifier", "shfl.sync.b32 a, b, 1, 0, -1;\n",
      "1:1: error: 'shfl.sync.b32' needs one of .up, .down, .bfly, .idx\n" },
    { "wrong operand count", "shfl.sync.up.b32 a, b, 1, 0;\n",
      "1:1: error: 'shfl.sync.up.b32' takes 5 operands, not 4\n" },
    { "optional operand count", "min.s32 a, b;\n",
      "1:1: error: 'min.s32' takes 3 to 4 operands, not 2\n" },
    { "immediate destination", "add.s32 5, b, c;\n",
      "1:9: error: the destination of 'add.s32' must be a register, not an immediate\n" },
    { "undeclared register", KERNEL("add.s32 %r1, %r9, 1;\n"),
      "8:14: error: undeclared identifier '%r9'\n" },
    { "undefined label", KERNEL("bra NOWHERE;\n"),
      "8:5: error: undefined label 'NOWHERE'\n" },
    { "duplicate label", KERNEL("L:\nL:\nret;\n"),
      "9:1: error: duplicate label 'L' (first defined at line 8)\n" },
    { "predicate used as a value", KERNEL("add.s32 %r1, %p1, 1;\n"),
      "8:14: error: predicate '%p1' used as a value in 'add.s32'\n" },
    { "value used as a guard", KERNEL("@%r1 ret;\n"),
      "8:2: error: '%r1' is not a predicate and cannot guard an instruction\n" },
    { "register type mismatch", KERNEL("add.u32 %r1, %f1, 1;\n"),
      "8:14: error: '%f1' is .f32, which does not fit the .u32 operand of 'add.u32'\n" },
    { "float immediate for integer", KERNEL("add.s32 %r1, %r2, 1.5;\n"),
      "8:19: error: floating-point immediate for the .s32 operand of 'add.s32'\n" },
    { "shfl without sync removed on sm_70+", KERNEL("shfl.up.b32 %r1, %r2, 1, 0;\n"),
      "8:1: error: 'shfl' without .sync is not supported for sm_70 and later from PTX ISA 6.4 on (use 'shfl.sync')\n" },
    { "shfl without sync deprecated", ".version 6.0\n.target sm_60\n.entry k() {\n.reg .b32 %r<3>;\n"
      "shfl.up.b32 %r1, %r2, 1, 0;\n}\n",
      "5:1: warning: 'shfl' without .sync is deprecated since PTX ISA 6.0 (use 'shfl.sync')\n" },
    { "shfl.sync needs PTX 6.0", ".version 5.0\n.target sm_60\n.entry k() {\n.reg .b32 %r<3>;\n"
      "shfl.sync.up.b32 %r1, %r2, 1, 0, -1;\n}\n",
      "5:1: error: 'shfl.sync' requires PTX ISA 6.0 or later (this module is .version 5.0)\n" },
    { "shf needs sm_32", ".version 6.0\n.target sm_30\n.entry k() {\n.reg .b32 %r<3>;\n"
      "shf.l.clamp.b32 %r1, %r2, %r0, 4;\n}\n",
      "5:1: error: 'shf' requires sm_32 or later (this module targets sm_30)\n" },
    { "architecture-specific target", MODULE ".entry k() {\nwgmma.fence.sync.aligned;\n}\n",
      "5:1: error: 'wgmma.fence' requires an architecture-specific target such as sm_90a\n" },
    { "missing version", ".target sm_90\n.entry k() { ret; }\n",
      "2:8: error: missing .version directive (nvcc writes e.g. '.version 9.0' first)\n" },
    { "unknown target", ".version 9.0\n.target sm_9x\n",
      "2:9: error: unknown target 'sm_9x'\n" },
    { "malformed version", ".version 9\n",
      "1:10: error: malformed .version '9' (expected major.minor, e.g. 9.0)\n" },
    { "special register without component", KERNEL("mov.u32 %r1, %tid;\n"),
      "8:14: error: special register '%tid' needs a component (.x, .y or .z)\n" },
    { "special register is read-only", KERNEL("mov.u32 %laneid, %r1;\n"),
      "8:9: error: special register '%laneid' is read-only\n" },
    { "setp third predicate", KERNEL("setp.eq.s32 %p1, %r1, 0, %p0;\n"),
      "8:26: error: 'setp.eq.s32' takes a third predicate only with .and, .or or .xor\n" },
    { "mad float needs rounding", KERNEL("mad.f32 %f1, %f0, %f0, %f0;\n"),
      "8:1: error: 'mad.f32' needs a rounding modifier (.rn, .rz, .rm or .rp)\n" },
    { "integer mul needs a half", KERNEL("mul.s32 %r1, %r2, %r3;\n"),
      "8:1: error: 'mul.s32' needs .lo, .hi or .wide for an integer type\n" },
    { "vote type follows mode", KERNEL("vote.sync.ballot.pred %p1, %p0, -1;\n"),
      "8:1: error: 'vote.sync.ballot.pred': .ballot gives a .b32 mask, .all/.any/.uni give a .pred\n" },
    { "snippet width conflict", "mov.b32 x, 1;\nmov.b64 x, 2;\n",
      "2:9: error: 'x' is used as a 64-bit value here and as a 32-bit one before\n" },
    { "snippet predicate then value", "setp.eq.s32 p, a, 0;\nadd.s32 b, p, 1;\n",
      "2:12: error: predicate 'p' used as a value in 'add.s32'\n" },
    { "duplicate register", KERNEL(".reg .b32 %r<2>;\n"),
      "8:11: error: '%r' is already declared (at line 5)\n" },
    { "unknown declaration directive", MODULE ".global .funky .u32 x;\n",
      "4:9: error: unknown '.funky' in declaration\n" },
    { "bad alignment", MODULE ".global .align 3 .u32 x;\n",
      "4:16: error: .align needs a power of two, not 3\n" },
    { "instructions outside a function", MODULE "ret;\n.entry k() { ret; }\n",
      "4:1: error: instruction outside a function (this file also defines .entry/.func)\n" },
    { "three independent mistakes", "add.s32 a, b c;\nfoo.b32 x;\nmov.u32 y, %tid;\n",
      "1:14: error: unexpected identifier 'c' (expected ',', ';', '+', '|' or '[')\n"
      "2:1: error: unknown instruction 'foo'\n"
      "3:12: error: special register '%tid' needs a component (.x, .y or .z)\n" },
};

START_TEST(diagnostic)
{
    const Case *c = &cases[_i];
    Parsed *p = parse_text(c->input, true);
    ck_assert_msg(strcmp(p->cap.text, c->expected) == 0, "case '%s':\nexpected:\n%sgot:\n%s", c->name,
                  c->expected, p->cap.text);
    parsed_free(p);
}
END_TEST

/* The default printer: file:line:col, the line, and a caret under the span. */
START_TEST(printed_form)
{
    const char *text = "ret;\n\tshf.l.wrap.f32 a, b, c, 1;\n";
    Source src;
    source_from_string(&src, "x.ptx", text, strlen(text));
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    diag_print(out, &src, DIAG_ERROR, (Span){ 16, 4 }, "'.f32' is not a valid type for 'shf'", false);
    fclose(out);
    ck_assert_str_eq(buf, "x.ptx:2:12: error: '.f32' is not a valid type for 'shf'\n"
                          "    2 | \tshf.l.wrap.f32 a, b, c, 1;\n"
                          "      | \t          ^~~~\n");
    free(buf);
    source_free(&src);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("diagnostics");
    TCase *tc = tcase_create("messages");
    tcase_add_loop_test(tc, diagnostic, 0, (int)COUNT_OF(cases));
    tcase_add_test(tc, printed_form);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
