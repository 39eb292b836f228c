/* check_builtin.c: what the CUDA runtime supplies (exec/builtin.c), through the library's own
 * interface: vprintf's text reaches ExecOptions.print one whole call at a time, in lane order,
 * with C's meaning of each conversion (the expected strings are written out here by hand);
 * __assertfail's message goes to the error stream and aborts the run; the clock registers
 * count the warp's steps; nothing is printed without a callback. */
#include "testutil.h"

typedef struct Printed {
    char text[4096];
    size_t len;
    unsigned calls[3];         /* by stream */
} Printed;

static void collect(void *context, int stream, const char *text, size_t len)
{
    Printed *p = context;
    ck_assert_int_lt(p->len + len, sizeof p->text);
    memcpy(p->text + p->len, text, len);
    p->len += len;
    p->text[p->len] = '\0';
    p->calls[stream]++;
}

/* Runs the kernel of text on a block of `threads`, the text it prints into *out (NULL: no
 * callback); returns grid_run's status. */
static int run_printing(const char *text, uint32_t threads, Printed *out, uint64_t *reg_value, const char *reg)
{
    Parsed *p = parse_ok(text);
    Function *fn = lower_entry(p->m, NULL);
    Block *b = block_load(p->m, fn, &p->diag, DEFAULT_STACK_BYTES);
    ck_assert_msg(b != NULL, "not loadable:\n%s", p->cap.text);
    block_set_shape(b, (const uint32_t[3]){ threads, 1, 1 }, ALL_LANES);
    ExecOptions o = { .max_steps = 100000, .print = out ? collect : NULL, .print_context = out };
    int status = grid_run(b, &o, (char[256]){ 0 }, 256);
    for (uint32_t i = 0; reg && i < fn->regs.len; i++)
        if (strcmp(fn->regs.data[i].name, reg) == 0)
            *reg_value = b->warps[0]->val[b->prog.funcs[0].row_base + i][0];
    block_free(b);
    parsed_free(p);
    return status;
}

#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n" \
             ".extern .func (.param .b32 r) vprintf (.param .b64 f, .param .b64 a);\n"
/* "%u:%5.2f|%-4x|%c\n" */
#define FMT ".global .align 1 .b8 fmt[19] = {37,117,58,37,53,46,50,102,124,37,45,52,120,124,37,99,10,0};\n"
#define CALL "{\n.param .b64 p0;\n.param .b64 p1;\n.param .b32 r;\nst.param.b64 [p0], %rd3;\n" \
             "st.param.b64 [p1], %rd2;\ncall.uni (r), vprintf, (p0, p1);\nld.param.b32 %r9, [r];\n}\n"

static const char *const three_args =
    HEAD FMT
    ".visible .entry k()\n{\n.local .align 8 .b8 buf[24];\n.reg .b32 %r<10>;\n.reg .b64 %rd<4>;\n.reg .f64 %fd1;\n"
    "mov.u32 %r1, %laneid;\nst.local.u32 [buf], %r1;\ncvt.rn.f64.u32 %fd1, %r1;\nmul.f64 %fd1, %fd1, 0.25;\n"
    "st.local.f64 [buf+8], %fd1;\nadd.u32 %r2, %r1, 10;\nst.local.u32 [buf+16], %r2;\n"
    "add.u32 %r3, %r1, 65;\nst.local.u32 [buf+20], %r3;\n"
    "mov.u64 %rd1, buf;\ncvta.local.u64 %rd2, %rd1;\nmov.u64 %rd3, fmt;\ncvta.global.u64 %rd3, %rd3;\n"
    CALL "ret;\n}\n";

START_TEST(vprintf_calls_reach_the_callback_whole_in_lane_order)
{
    Printed out = { .len = 0 };
    uint64_t result = 0;
    ck_assert_int_eq(run_printing(three_args, 3, &out, &result, "%r9"), EXEC_OK);
    ck_assert_str_eq(out.text, "0: 0.00|a   |A\n1: 0.25|b   |B\n2: 0.50|c   |C\n");
    ck_assert_uint_eq(out.calls[PRINT_OUT], 3);
    ck_assert_uint_eq(out.calls[PRINT_ERR], 0);
    ck_assert_uint_eq(result, 4);                 /* the arguments it took */
}
END_TEST

START_TEST(without_a_callback_nothing_is_printed)
{
    ck_assert_int_eq(run_printing(three_args, 32, NULL, NULL, NULL), EXEC_OK);
}
END_TEST

START_TEST(assertfail_prints_cudas_message_and_aborts)
{
    static const char *const text =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".extern .func __assertfail (.param .b64 m, .param .b64 f, .param .b32 l, .param .b64 fn, .param .b64 c);\n"
        ".global .align 1 .b8 msg[4] = {120,62,49,0};\n"          /* x>1 */
        ".global .align 1 .b8 file[5] = {97,46,99,117,0};\n"      /* a.cu */
        ".global .align 1 .b8 func[7] = {118,111,105,100,32,107,0};\n"   /* void k */
        ".visible .entry k()\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<4>;\n.reg .pred %p1;\n"
        "mov.u32 %r1, %tid.x;\nsetp.ne.u32 %p1, %r1, 2;\n@%p1 bra DONE;\n"
        "mov.u64 %rd1, msg;\ncvta.global.u64 %rd1, %rd1;\nmov.u64 %rd2, file;\ncvta.global.u64 %rd2, %rd2;\n"
        "mov.u64 %rd3, func;\ncvta.global.u64 %rd3, %rd3;\n"
        "{\n.param .b64 a;\n.param .b64 b;\n.param .b32 c;\n.param .b64 d;\n.param .b64 e;\n"
        "st.param.b64 [a], %rd1;\nst.param.b64 [b], %rd2;\nst.param.b32 [c], 42;\nst.param.b64 [d], %rd3;\n"
        "st.param.b64 [e], 1;\ncall.uni __assertfail, (a, b, c, d, e);\n}\nDONE:\nret;\n}\n";
    Printed out = { .len = 0 };
    ck_assert_int_eq(run_printing(text, 4, &out, NULL, NULL), EXEC_FAULT);
    ck_assert_str_eq(out.text, "a.cu:42: void k: block: [0,0,0], thread: [2,0,0] Assertion `x>1` failed.\n");
    ck_assert_uint_eq(out.calls[PRINT_ERR], 1);
}
END_TEST

START_TEST(clock_counts_the_warps_steps)
{
    static const char *const text =
        ".version 8.0\n.target sm_80\n.visible .entry k()\n{\n.reg .b64 %rd<3>;\n"
        "mov.u64 %rd1, 7;\nadd.u64 %rd1, %rd1, 1;\nnanosleep.u32 3;\nmov.u64 %rd2, %clock64;\nret;\n}\n";
    uint64_t clock = 0;
    ck_assert_int_eq(run_printing(text, 32, NULL, &clock, "%rd2"), EXEC_OK);
    ck_assert_uint_eq(clock, 4);                  /* mov, add, nanosleep, then the reading mov */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("builtin");
    TCase *tc = tcase_create("builtin");
    tcase_add_test(tc, vprintf_calls_reach_the_callback_whole_in_lane_order);
    tcase_add_test(tc, without_a_callback_nothing_is_printed);
    tcase_add_test(tc, assertfail_prints_cudas_message_and_aborts);
    tcase_add_test(tc, clock_counts_the_warps_steps);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
