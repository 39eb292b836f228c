/* check_launch.c: ptxrun_launch makes each launch's block at the launch's own shape
 * (block_launch_new): every thread's %tid, %ntid, %ctaid and %laneid, for shapes of one to
 * 1,024 threads in one to three dimensions, partial warps and several CTAs included, against
 * the CUDA thread numbering computed here; and each thread's own .local stack, which a launch
 * of more threads than the kernel was lowered with (32) gets fresh: a word the thread stored
 * reads back, a word no thread wrote is undefined (docs/semantics.md, "Undefined values"). The
 * same module launches every shape in turn, so that a shape left from the one before would show. */
#include "testutil.h"
#include "api.h"

static const char launch_ptx[] =
    ".version 7.8\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 o)\n{\n"
    "  .reg .b32 %r<20>;\n  .reg .b64 %rd<4>;\n  .local .align 4 .b8 loc[64];\n"
    "  ld.param.u64 %rd1, [o];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %tid.y;\n  mov.u32 %r3, %tid.z;\n"
    "  mov.u32 %r4, %ntid.x;\n  mov.u32 %r5, %ntid.y;\n  mov.u32 %r6, %ntid.z;\n"
    "  mov.u32 %r7, %ctaid.x;\n  mov.u32 %r8, %ctaid.y;\n  mov.u32 %r9, %nctaid.x;\n"
    "  mad.lo.u32 %r10, %r3, %r5, %r2;\n  mad.lo.u32 %r10, %r10, %r4, %r1;\n"     /* the thread in its CTA */
    "  mul.lo.u32 %r11, %r4, %r5;\n  mul.lo.u32 %r11, %r11, %r6;\n"                /* threads in a CTA */
    "  mad.lo.u32 %r12, %r8, %r9, %r7;\n  mad.lo.u32 %r12, %r12, %r11, %r10;\n"    /* in the grid */
    "  mul.wide.u32 %rd2, %r12, 32;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  mov.u32 %r13, %laneid;\n"
    "  st.local.u32 [loc+4], %r10;\n"
    "  ld.local.u32 %r14, [loc];\n  ld.local.u32 %r15, [loc+4];\n"
    "  st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r13};\n"
    "  st.global.v4.u32 [%rd3+16], {%r11, %r7, %r14, %r15};\n"
    "  ret;\n}\n";

enum { MOST = 4096 };            /* threads of the largest grid below */
static uint32_t out[MOST * 8];
static uint8_t defined[sizeof out];

START_TEST(every_thread_sees_its_own_numbers)
{
    static const unsigned shapes[][5] = {      /* block x y z, grid x y */
        { 32, 1, 1, 1, 1 }, { 128, 1, 1, 2, 1 }, { 7, 3, 2, 3, 2 }, { 33, 1, 1, 1, 1 }, { 5, 5, 5, 2, 2 },
        { 1, 1, 1, 1, 1 }, { 16, 8, 4, 1, 1 }, { 100, 3, 1, 2, 1 }, { 1024, 1, 1, 1, 1 }, { 2, 2, 64, 1, 2 },
        { 32, 1, 1, 1, 1 },
    };
    ptxrun_module *m;
    ptxrun_kernel *k;
    ck_assert_int_eq(ptxrun_module_load(launch_ptx, strlen(launch_ptx), NULL, &m), PTXRUN_OK);
    ck_assert_int_eq(ptxrun_module_kernel(m, NULL, &k), PTXRUN_OK);
    for (unsigned s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        const unsigned *sh = shapes[s];
        unsigned threads = sh[0] * sh[1] * sh[2], ctas = sh[3] * sh[4];
        ck_assert_uint_le(threads * ctas, MOST);
        memset(out, 0xcd, sizeof out);
        void *p = out, *args[1] = { &p };
        ptxrun_buffer buffer = { out, sizeof out, 0 };
        ptxrun_launch_options o = { { sh[3], sh[4], 1 }, { sh[0], sh[1], sh[2] }, 0, &buffer, 1, 0, 0, 0, 0, { 0 },
                                    { 0, 0, 0 }, 0 };
        ptxrun_result *r;
        ck_assert_int_eq(ptxrun_launch(k, args, &o, &r), PTXRUN_OK);
        ck_assert_int_eq(ptxrun_result_defined(r, out, sizeof out, defined), PTXRUN_OK);
        for (unsigned g = 0; g < threads * ctas; g++) {
            unsigned t = g % threads, cta = g / threads;
            uint32_t want[8] = { t % sh[0], t / sh[0] % sh[1], t / (sh[0] * sh[1]), t % 32, threads, cta % sh[3], 0, t };
            for (unsigned i = 0; i < 8; i++) {
                const uint8_t *bits = &defined[(g * 8 + i) * 4];
                bool all = bits[0] == 0xff && bits[1] == 0xff && bits[2] == 0xff && bits[3] == 0xff;
                bool none = !bits[0] && !bits[1] && !bits[2] && !bits[3];
                if (i == 6) {          /* loc[0..3]: never written */
                    ck_assert_msg(none, "shape %u, thread %u: a .local word never written is defined", s, g);
                    continue;
                }
                ck_assert_msg(all && out[g * 8 + i] == want[i], "shape %u (%ux%ux%u, grid %ux%u), thread %u, word "
                              "%u: %u (%s), not %u", s, sh[0], sh[1], sh[2], sh[3], sh[4], g, i, out[g * 8 + i],
                              all ? "defined" : "not all defined", want[i]);
            }
        }
        for (unsigned g = threads * ctas; g < MOST; g++)          /* no thread past the grid wrote */
            ck_assert_uint_eq(out[g * 8], 0xcdcdcdcdu);
        ptxrun_result_free(r);
    }
    ptxrun_module_free(m);
}
END_TEST

/* The CUDA shims' placer (library_set_placer, Memory.place): a .global variable lives at the host
 * address the placer gives (the kernel's address of it is that address), its initializer written
 * there once, when the bytes are new, never again when another kernel is lowered; a .const
 * variable's bytes are the placer's (what the host writes there, the kernel reads); a variable
 * the placer leaves to ptxrun (NULL) keeps ptxrun's own address. library_var lists those the
 * host may name. */
static const char placed_ptx[] =
    ".version 7.8\n.target sm_80\n.address_size 64\n"
    ".global .align 4 .u32 g = 7;\n"
    ".const .align 4 .u32 c[2];\n"
    ".global .align 8 .u64 own = 5;\n"
    ".extern .global .align 4 .u32 elsewhere;\n"
    ".global .attribute(.managed) .align 4 .u32 m;\n"
    ".visible .entry first(.param .u64 o)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [o];\n"
    "  ld.global.u32 %r1, [g];\n  ld.const.u32 %r2, [c+4];\n  add.u32 %r3, %r1, %r2;\n"
    "  st.global.u32 [g], %r3;\n"
    "  mov.u64 %rd2, g;\n  mov.u64 %rd3, own;\n  ld.global.u64 %rd4, [own];\n"
    "  st.global.u64 [%rd1], %rd2;\n  st.global.u64 [%rd1+8], %rd3;\n  st.global.u64 [%rd1+16], %rd4;\n"
    "  st.global.u32 [%rd1+24], %r1;\n"
    "  ret;\n}\n"
    ".visible .entry second(.param .u64 o)\n{\n"
    "  .reg .b32 %r<3>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [o];\n  ld.global.u32 %r1, [g];\n  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n}\n";

typedef struct Placed {
    uint32_t g, pad;
    uint32_t c[2];
    unsigned asked, fresh;
} Placed;

static void *place_test(void *context, const void *decl, const char *name, int space, uint64_t size, uint32_t align,
                        bool *fresh)
{
    Placed *p = context;
    (void)decl;
    (void)align;
    p->asked++;
    *fresh = p->asked <= 2;                 /* the first kernel's lowering makes them; the second finds them */
    p->fresh += *fresh;
    if (!strcmp(name, "g") && space == SPACE_GLOBAL && size == 4)
        return &p->g;
    if (!strcmp(name, "c") && space == SPACE_CONST && size == 8)
        return p->c;
    return NULL;                            /* own, m: ptxrun's */
}

START_TEST(placed_variables_live_in_the_callers_memory)
{
    ptxrun_module *m;
    ptxrun_kernel *first, *second;
    Placed p = { 0 };
    ck_assert_int_eq(ptxrun_module_load(placed_ptx, strlen(placed_ptx), NULL, &m), PTXRUN_OK);
    ck_assert_uint_eq(library_var_count(m), 4);          /* g, c, own, m: not the .extern one */
    LibraryVar v;
    ck_assert(library_var(m, 1, &v));
    ck_assert_str_eq(v.name, "c");
    ck_assert_int_eq(v.space, SPACE_CONST);
    ck_assert_uint_eq(v.size, 8);
    ck_assert(!v.managed);
    ck_assert(library_var(m, 3, &v));
    ck_assert_str_eq(v.name, "m");
    ck_assert(v.managed);
    ck_assert(!library_var(m, 4, &v));
    library_set_placer(m, place_test, &p);
    ck_assert_int_eq(ptxrun_module_kernel(m, "first", &first), PTXRUN_OK);
    ck_assert_uint_eq(p.g, 7);                            /* the initializer, into the caller's bytes */
    p.g = 40;                                             /* the host's write before any launch */
    ck_assert_int_eq(ptxrun_module_kernel(m, "second", &second), PTXRUN_OK);
    ck_assert_uint_eq(p.g, 40);                           /* not written again */
    p.c[1] = 2;
    uint64_t got[4] = { 0 };
    void *o = got, *args[1] = { &o };
    ptxrun_buffer buffer = { got, sizeof got, 0 };
    ptxrun_launch_options opt = { { 1, 1, 1 }, { 1, 1, 1 }, 0, &buffer, 1, 0, 0, 0, 0, { 0 }, { 0, 0, 0 }, 0 };
    ck_assert_int_eq(ptxrun_launch(first, args, &opt, NULL), PTXRUN_OK);
    ck_assert_uint_eq(p.g, 42);                           /* 40 + c[1], stored at the host address */
    ck_assert_uint_eq(got[0], (uint64_t)(uintptr_t)&p.g); /* the kernel's address of g */
    ck_assert_uint_ge(got[1], MEM_GLOBAL_BASE);           /* own: ptxrun's address, its initializer */
    ck_assert_uint_eq(got[2], 5);
    ck_assert_uint_eq((uint32_t)got[3], 40);
    memset(got, 0, sizeof got);
    ck_assert_int_eq(ptxrun_launch(second, args, &opt, NULL), PTXRUN_OK);
    ck_assert_uint_eq((uint32_t)got[0], 42);              /* the other kernel sees the same bytes */
    ptxrun_buffer over = { &p.g, 4, 0 };                  /* a buffer over a placed variable: refused */
    opt.buffers = &over;
    ck_assert_int_eq(ptxrun_launch(second, args, &opt, NULL), PTXRUN_ERROR_INPUT);
    ptxrun_module_free(m);
    ck_assert_uint_eq(p.g, 42);                           /* the caller's bytes outlive the module */
}
END_TEST

/* library_launch: the caller's definedness of its buffers' bytes in (a word no one defined) and
 * out (what the run stored: a copy of that word is undefined, a constant defined; a buffer given
 * without a shadow gets one when the run leaves some of its bits undefined). */
static const char shadow_ptx[] =
    ".version 7.8\n.target sm_80\n.address_size 64\n"
    ".visible .entry copy(.param .u64 a, .param .u64 b)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n"
    "  ld.global.u32 %r1, [%rd1];\n  st.global.u32 [%rd1+4], %r1;\n"
    "  mov.u32 %r2, 9;\n  st.global.u32 [%rd1+8], %r2;\n"
    "  st.global.u32 [%rd2], %r3;\n"                      /* %r3: never written */
    "  ret;\n}\n";

START_TEST(shadows_in_and_out)
{
    ptxrun_module *m;
    ptxrun_kernel *k;
    ck_assert_int_eq(ptxrun_module_load(shadow_ptx, strlen(shadow_ptx), NULL, &m), PTXRUN_OK);
    ck_assert_int_eq(ptxrun_module_kernel(m, NULL, &k), PTXRUN_OK);
    uint32_t a[4] = { 5, 0, 0, 7 }, b[2] = { 1, 2 };
    uint8_t a_bits[16];
    memset(a_bits, 0xff, sizeof a_bits);
    memset(a_bits, 0, 4);                                  /* a[0]: undefined */
    void *pa = a, *pb = b, *args[2] = { &pa, &pb };
    ptxrun_buffer buffers[2] = { { a, sizeof a, 0 }, { b, sizeof b, 0 } };
    uint8_t *shadows[2] = { a_bits, NULL };
    ptxrun_launch_options o = { { 1, 1, 1 }, { 1, 1, 1 }, 0, buffers, 2, 0, 0, 0, 0, { 0 }, { 0, 0, 0 }, 0 };
    ck_assert_int_eq(library_launch(k, args, &o, shadows, NULL), PTXRUN_OK);
    ck_assert_ptr_eq(shadows[0], a_bits);
    static const uint8_t want[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    ck_assert_mem_eq(a_bits, want, 16);
    ck_assert_uint_eq(a[1], 5);
    ck_assert_uint_eq(a[2], 9);
    ck_assert_ptr_nonnull(shadows[1]);                     /* b[0] from an unwritten register */
    static const uint8_t want_b[8] = { 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };
    ck_assert_mem_eq(shadows[1], want_b, 8);
    free(shadows[1]);
    ptxrun_module_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("launch");
    TCase *tc = tcase_create("shapes");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_thread_sees_its_own_numbers);
    tcase_add_test(tc, placed_variables_live_in_the_callers_memory);
    tcase_add_test(tc, shadows_in_and_out);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
