/* check_math.c: division, reciprocal, roots and the .approx functions against values an NVIDIA
 * H100 gave (../shared/hw): every expected value below is the hardware's, with the case (file,
 * thread, output slot) or table it comes from. */
#include "testutil.h"

typedef struct Run {
    Parsed *p;
    Warp *w;
} Run;

static uint32_t reg(Warp *w, const char *name)
{
    return reg_index(w, name);
}

/* Runs one instruction "op d, a[, b];" on lane 0 with a and b as given; returns d. */
static uint64_t run1(const char *text, uint64_t a, uint64_t b)
{
    Parsed *p = parse_ok(text);
    Block *blk = block_load(p->m, p->m->functions.data[0], &p->diag, DEFAULT_STACK_BYTES);
    ck_assert_msg(blk != NULL, "not loadable:\n%s", p->cap.text);
    Warp *w = blk->warps[0];
    Function *f = w->prog->fn;
    for (uint32_t i = 0; i < f->regs.len; i++) {
        if (!strcmp(f->regs.data[i].name, "a")) { w->val[i][0] = a; w->defined[i] = ALL_LANES; }
        if (!strcmp(f->regs.data[i].name, "b")) { w->val[i][0] = b; w->defined[i] = ALL_LANES; }
    }
    ExecOptions o = { .max_steps = 1000 };
    ck_assert_int_eq(grid_run(blk, &o, (char[256]){ 0 }, 256), EXEC_OK);
    uint64_t d = w->val[reg(w, "d")][0];
    block_free(blk);
    parsed_free(p);
    return d;
}

START_TEST(f64_nan_payloads)
{
    /* Invalid operations give the default NaN 0xfff8000000000000. */
    ck_assert_uint_eq(run1("sqrt.rn.f64 d, a;", 0xc00921fb54442d18ull, 0), 0xfff8000000000000ull);  /* float_002 t4 o64[2] */
    ck_assert_uint_eq(run1("div.rn.f64 d, a, b;", 0x8000000000000000ull, 0x8000000000000000ull), 0xfff8000000000000ull); /* float_000 t34 o64[2] */
    /* An input NaN comes back quieted with its sign and payload. */
    ck_assert_uint_eq(run1("sqrt.rn.f64 d, a;", 0x7ff0000000000001ull, 0), 0x7ff8000000000001ull);  /* float_002 t7 o64[2] */
    ck_assert_uint_eq(run1("rcp.rn.f64 d, a;", 0x7ff4000000000000ull, 0), 0x7ffc000000000000ull);   /* float_004 t29 o64[1] */
    ck_assert_uint_eq(run1("div.rn.f64 d, a, b;", 0x7ff4000000000000ull, 0x7ff4000000000000ull), 0x7ffc000000000000ull); /* float_000 t19 o64[2] */
    /* Of two NaNs the first, even where only the second signals. */
    ck_assert_uint_eq(run1("div.rn.f64 d, a, b;", 0x7fffffffffffffffull, 0x7ff4000000000000ull), 0x7fffffffffffffffull); /* float_174 t46 o64[0] */
}
END_TEST

START_TEST(f32_canonical_nan)
{
    ck_assert_uint_eq(run1("sqrt.approx.f32 d, a;", 0xcbb9b9e3, 0), 0x7fffffff);     /* float_approx_000 t2 o32[5] */
}
END_TEST

START_TEST(div_approx_huge_divisor)
{
    /* |b| > 2^126: the reciprocal is flushed, so a/b is ±0. */
    ck_assert_uint_eq(run1("div.approx.f32 d, a, b;", 0x47ccd8d2, 0x7f000000), 0);            /* float_approx_010 t1 o32[9] */
    ck_assert_uint_eq(run1("div.approx.f32 d, a, b;", 0xc5bd9fa8, 0x7f7fffff), 0x80000000);   /* float_approx_016 t31 o32[9] */
}
END_TEST

START_TEST(f64_approx_upper_word)
{
    /* Low 32 bits of the result are zero; only the input's upper word counts. */
    ck_assert_uint_eq(run1("rcp.approx.ftz.f64 d, a;", 0x43ae63a4618bfc83ull, 0), 0x3c30d91b00000000ull); /* float_approx_000 t2 o64[0] */
    ck_assert_uint_eq(run1("rcp.approx.ftz.f64 d, a;", 0x43ae63a400000000ull, 0), 0x3c30d91b00000000ull); /* same, README hypothesis */
    /* Subnormals are flushed: 1/-0 and 1/sqrt(-0). */
    ck_assert_uint_eq(run1("rcp.approx.ftz.f64 d, a;", 0x8000000000000001ull, 0), 0xfff0000000000000ull); /* float_approx_018 t22 o64[3] */
    ck_assert_uint_eq(run1("rsqrt.approx.ftz.f64 d, a;", 0x8000000000000001ull, 0), 0xfff0000000000000ull); /* float_approx_002 t2 o64[0] */
    ck_assert_uint_eq(run1("rsqrt.approx.ftz.f64 d, a;", 0xc1a17227db809bc8ull, 0), 0x7fffffff00000000ull); /* float_approx_002 t0 o64[0] */
    /* One table entry: rcp.approx.ftz.f64_p1_2_hw_u64 entry 0x40000 (input high word 0x3ff40000). */
    ck_assert_uint_eq(run1("rcp.approx.ftz.f64 d, a;", 0x3ff4000000000000ull, 0), 0x3fe9999900000000ull);
}
END_TEST

START_TEST(sin_of_tiny_angle)
{
    ck_assert_uint_eq(run1("sin.approx.f32 d, a;", 0x2180a424, 0), 0);                   /* float_approx_004 t2 o32[7] */
    ck_assert_uint_eq(run1("sin.approx.f32 d, a;", 0x100, 0), 0);                        /* float_approx_004 t6 o32[7] */
}
END_TEST

START_TEST(tanh_small_and_lg2_one)
{
    /* Below 2^-8 tanh.approx gives x itself, subnormals included (no flush). */
    ck_assert_uint_eq(run1("tanh.approx.f32 d, a;", 0x3b783b86, 0), 0x3b783b86);          /* float_approx_142 t20 o32[10] */
    ck_assert_uint_eq(run1("tanh.approx.f32 d, a;", 0x007fffff, 0), 0x007fffff);          /* float_approx_046 t7 o32[17] */
    ck_assert_uint_eq(run1("lg2.approx.f32 d, a;", 0x3f800000, 0), 0);                    /* float_approx_042 t4 o32[7] */
}
END_TEST

START_TEST(tanh_segments)
{
    /* MUFU.TANH's quadratic per segment (approx.c): bit-exact where the H100 was tabulated,
     * odd in x, 1 from 8 on. */
    ck_assert_uint_eq(run1("tanh.approx.f32 d, a;", 0x3f0b2580, 0), 0x3efdc7cc);          /* float_approx_024 t22 o32[7] */
    ck_assert_uint_eq(run1("tanh.approx.f32 d, a;", 0x3f871447, 0), 0x3f48aaf2);          /* float_approx_114 t14 o32[19] */
    ck_assert_uint_eq(run1("tanh.approx.f32 d, a;", 0xbf93251b, 0), 0xbf514e8e);          /* float_approx_128 t18 o32[6] */
    ck_assert_uint_eq(run1("tanh.approx.f32 d, a;", 0x4100252a, 0), 0x3f800000);          /* float_approx_066 t14 o32[9] */
}
END_TEST

START_TEST(one_point_per_function)
{
    ck_assert_uint_eq(run1("rcp.approx.ftz.f32 d, a;", 0xbe3e0d89, 0), 0xc0ac6a4a);       /* float_approx_002 t0 o32[1] */
    ck_assert_uint_eq(run1("sqrt.approx.f32 d, a;", 0x3c068010, 0), 0x3db98f0c);          /* float_approx_000 t0 o32[5] */
    ck_assert_uint_eq(run1("rsqrt.approx.f32 d, a;", 0x4f90995d, 0), 0x3770dbcf);         /* float_approx_000 t0 o32[0] */
    ck_assert_uint_eq(run1("ex2.approx.ftz.f32 d, a;", 0x3f0f487b, 0), 0x3fbcaacd);       /* float_approx_028 t7 o32[22] */
    ck_assert_uint_eq(run1("lg2.approx.ftz.f32 d, a;", 0x42b17218, 0), 0x40cf1458);       /* float_approx_000 t1 o32[1] */
    ck_assert_uint_eq(run1("sin.approx.f32 d, a;", 0x3fb095bf, 0), 0x3f7b5567);           /* float_approx_004 t29 o32[7] */
    ck_assert_uint_eq(run1("cos.approx.f32 d, a;", 0x40200000, 0), 0xbf4d17bc);           /* float_approx_004 t20 o32[6] */
    ck_assert_uint_eq(run1("div.approx.f32 d, a, b;", 0x3b547430, 0xbff119bc), 0xbae19541); /* float_approx_002 t0 o32[3] */
    ck_assert_uint_eq(run1("tanh.approx.f32 d, a;", 0x3e1bb1b6, 0), 0x3e1a8151);          /* float_approx_032 t4 o32[18] */
}
END_TEST

/* ex2 and tanh .approx of halves: values from the H100's tables of all 65,536 inputs
 * (../shared/hw/approx, the _all65536_hw_u16 files: entry = input bits), f16x2 each half alone. */
START_TEST(half_approx)
{
    ck_assert_uint_eq(run1("ex2.approx.f16 d, a;", 0x83a0, 0), 0x3bff);        /* not RN(f32 result) = 0x3c00 */
    ck_assert_uint_eq(run1("ex2.approx.f16 d, a;", 0x4c00, 0), 0x7c00);        /* 2^16 overflows */
    ck_assert_uint_eq(run1("ex2.approx.f16x2 d, a;", 0xc5003c00, 0), 0x28004000);
    ck_assert_uint_eq(run1("ex2.approx.ftz.bf16 d, a;", 0x0001, 0), 0x3f80);   /* a subnormal flushed */
    ck_assert_uint_eq(run1("ex2.approx.ftz.bf16x2 d, a;", 0xc2f03f80, 0), 0x03804000);
    ck_assert_uint_eq(run1("tanh.approx.f16 d, a;", 0x47a0, 0), 0x3bff);
    ck_assert_uint_eq(run1("tanh.approx.f16 d, a;", 0xb55b, 0), 0xb52a);
    ck_assert_uint_eq(run1("tanh.approx.bf16x2 d, a;", 0x3f003b80, 0), 0x3eec3b80);
    ck_assert_uint_eq(run1("tanh.approx.f16 d, a;", 0x7e01, 0), 0x7fff);       /* NaN: the canonical one */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("math");
    TCase *tc = tcase_create("h100");
    tcase_add_test(tc, f64_nan_payloads);
    tcase_add_test(tc, f32_canonical_nan);
    tcase_add_test(tc, div_approx_huge_divisor);
    tcase_add_test(tc, f64_approx_upper_word);
    tcase_add_test(tc, sin_of_tiny_angle);
    tcase_add_test(tc, tanh_small_and_lg2_one);
    tcase_add_test(tc, tanh_segments);
    tcase_add_test(tc, one_point_per_function);
    tcase_add_test(tc, half_approx);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
