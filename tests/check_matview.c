/* check_matview.c: --matrix's printer (cli/matview.c) on views built here by hand: one element
 * in each element type (the values worked out from the formats' definitions: f16 1.5 is
 * 0 01111 1000000000, e4m3 -448 is 1 1111 110), undefined and partly defined elements, the
 * tables with each element's lane and register, wide matrices cut into blocks that fit a line,
 * and the JSON members; and that the executor makes a view only of an execution
 * ExecOptions.matrix_wanted wants. */
#include <jansson.h>

#include "testutil.h"

static const char *cell(uint64_t bits, uint64_t dbits, int type, bool json, bool hex)
{
    static char buf[64];
    MatrixElement e = { bits, dbits, 0, 0, 0, 0 };
    matview_cell(buf, sizeof buf, &e, type, json, hex);
    return buf;
}

START_TEST(each_type_in_its_own_terms)
{
    uint64_t all = ~0ull;
    ck_assert_str_eq(cell(0x3e00, all, TYPE_F16, false, false), "1.5");
    ck_assert_str_eq(cell(0x3c00, all, TYPE_F16, false, false), "1.0");
    ck_assert_str_eq(cell(0x5860, all, TYPE_F16, false, false), "140.0");        /* 0 10110 0001100000 */
    ck_assert_str_eq(cell(0xc900, all, TYPE_F16, false, false), "-10.0");        /* 1 10010 0100000000 */
    ck_assert_str_eq(cell(0x3fc0, all, TYPE_BF16, false, false), "1.5");
    ck_assert_str_eq(cell(0x3fc00000, all, TYPE_TF32, false, false), "1.5");
    /* tf32: the register's top 19 bits, as the tensor core reads it (the low 13 dropped) */
    ck_assert_str_eq(cell(0x3f800001, all, TYPE_TF32, false, false), "1.0");     /* f32 1 + 2^-23 */
    ck_assert_str_eq(cell(0xbfc00800, all, TYPE_TF32, true, false), "-1.5");     /* f32 -(1.5 + 2^-12) */
    ck_assert_str_eq(cell(0x7f800001, all, TYPE_TF32, false, false), "inf");     /* an f32 NaN, tf32 inf */
    ck_assert_str_eq(cell(0x3f800001, all, TYPE_TF32, false, true), "0x3f800001");   /* --hex: the register */
    ck_assert_str_eq(cell(0xbf800000, all, TYPE_F32, false, false), "-1.0");
    ck_assert_str_eq(cell(0x3fb999999999999aull, all, TYPE_F64, false, false), "0.1");
    ck_assert_str_eq(cell(0x3c, all, TYPE_E4M3, false, false), "1.5");          /* 0 0111 100 */
    ck_assert_str_eq(cell(0xfe, all, TYPE_E4M3, false, false), "-448");         /* 1 1111 110: the largest */
    ck_assert_str_eq(cell(0x01, all, TYPE_E4M3, false, false), "0.001953125");  /* 2^-9, subnormal */
    ck_assert_str_eq(cell(0x7f, all, TYPE_E4M3, false, false), "nan");          /* S 1111 111 */
    ck_assert_str_eq(cell(0x3e, all, TYPE_E5M2, false, false), "1.5");          /* 0 01111 10 */
    ck_assert_str_eq(cell(0x7c, all, TYPE_E5M2, false, false), "inf");
    ck_assert_str_eq(cell(0xfc, all, TYPE_E5M2, true, false), "\"-inf\"");
    ck_assert_str_eq(cell(0x7e, all, TYPE_E5M2, false, false), "nan");
    ck_assert_str_eq(cell(0x80, all, TYPE_S8, false, false), "-128");
    ck_assert_str_eq(cell(0x80, all, TYPE_U8, false, false), "128");
    ck_assert_str_eq(cell(0xf, all, TYPE_S4, false, false), "-1");
    ck_assert_str_eq(cell(0xf, all, TYPE_U4, false, false), "15");
    ck_assert_str_eq(cell(1, all, TYPE_B1, false, false), "1");
    ck_assert_str_eq(cell(0xffffffff, all, TYPE_S32, true, false), "-1");
    ck_assert_str_eq(cell(0x3e00, all, TYPE_F16, false, true), "0x3e00");       /* --hex: the bits */
    ck_assert_str_eq(cell(0x80, all, TYPE_E4M3, false, true), "0x80");
    ck_assert_str_eq(cell(1, all, TYPE_B1, false, true), "0x1");
    ck_assert_str_eq(cell(0x3e00, 0, TYPE_F16, false, false), "undef");
    ck_assert_str_eq(cell(0x3e00, 0, TYPE_F16, true, false), "null");
    ck_assert_str_eq(cell(0x12345678, 0xffff, TYPE_S32, false, false), "0x????5678");
    ck_assert_str_eq(cell(0x12345678, 0xffff, TYPE_S32, true, false), "\"0x????5678\"");
    ck_assert_str_eq(cell(0x3e00, 0x3fff, TYPE_F16, false, false), "0x?e00");
}
END_TEST

/* A 2x3 f16 A (two to a register), a 3x2 f16 B, a 2x2 f32 C and D, in lanes of our choosing. */
static MatrixElement a_at[6], b_at[6], c_at[4], d_at[4];

static MatrixView small_view(void)
{
    static const uint16_t a_bits[6] = { 0x3c00, 0x4000, 0x4200, 0xbc00, 0x3800, 0x7c00 };   /* 1 2 3 / -1 0.5 inf */
    for (unsigned i = 0; i < 6; i++) {
        a_at[i] = (MatrixElement){ a_bits[i], 0xffff, (uint8_t)(i / 2), (uint8_t)(i % 3 / 2), (uint8_t)(i % 2), 0 };
        b_at[i] = (MatrixElement){ 0x3c00, 0xffff, (uint8_t)(10 + i), 0, 0, 0 };
    }
    b_at[5].dbits = 0;                                           /* B[2][1] undefined */
    for (unsigned i = 0; i < 4; i++) {
        c_at[i] = (MatrixElement){ 0x3f800000u * (i & 1), 0xffffffff, (uint8_t)(4 * i), (uint8_t)(i & 1), 0, 0 };
        d_at[i] = (MatrixElement){ 0x40400000, 0xffffffff, (uint8_t)(4 * i), (uint8_t)(i & 1), 0, 0 };
    }
    d_at[3].dbits = 0;
    MatrixView v = { .m = 2, .n = 2, .k = 3, .products = 1 };
    MatrixOperand *op = v.op;
    op[MATRIX_A] = (MatrixOperand){ TYPE_F16, 2, 3, 2, 2, { "%ra", "%rb" }, { 0 }, a_at };
    op[MATRIX_B] = (MatrixOperand){ TYPE_F16, 3, 2, 1, 2, { "%rc" }, { 0 }, b_at };
    op[MATRIX_C] = (MatrixOperand){ TYPE_F32, 2, 2, 2, 1, { "%f1", NULL }, { 0 }, c_at };
    op[MATRIX_D] = (MatrixOperand){ TYPE_F32, 2, 2, 2, 1, { "%f2", "%f3" }, { 0 }, d_at };
    return v;
}

static char *printed(const MatrixView *v, bool places, bool hex, bool json)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    if (json) {
        fputc('{', f);
        matview_json_operands(f, v);
        fputc('}', f);
    } else
        matview_print_operands(f, v, places, hex);
    long len = ftell(f);
    char *text = xmalloc((size_t)len + 1);
    rewind(f);
    ck_assert_uint_eq(fread(text, 1, (size_t)len, f), (size_t)len);
    text[len] = '\0';
    fclose(f);
    return text;
}

START_TEST(tables_with_places)
{
    MatrixView v = small_view();
    char *text = printed(&v, true, false, false);
    static const char want[] =
        "m2n2k3: D (2x2 f32) = A (2x3 f16) * B (3x2 f16) + C (2x2 f32)\n"
        "\n"
        "A (f16, 2x3), registers {%ra, %rb}:\n"
        "         0    1    2\n"
        "   0:  1.0  2.0  3.0\n"
        "   1: -1.0  0.5  inf\n"
        "A: LANE:REGISTER.PART of each element (REGISTER: its place in {%ra, %rb}; PART: its place in the "
        "register from the low bits):\n"
        "          0     1     2\n"
        "   0: 0:0.0 0:0.1 1:1.0\n"
        "   1: 1:0.1 2:0.0 2:1.1\n"
        "\n"
        "B (f16, 3x2), registers {%rc}:\n"
        "          0     1\n"
        "   0:   1.0   1.0\n"
        "   1:   1.0   1.0\n"
        "   2:   1.0 undef\n"
        "B: LANE:REGISTER.PART of each element (REGISTER: its place in {%rc}; PART: its place in the register "
        "from the low bits):\n"
        "           0      1\n"
        "   0: 10:0.0 11:0.0\n"
        "   1: 12:0.0 13:0.0\n"
        "   2: 14:0.0 15:0.0\n"
        "\n"
        "C (f32, 2x2), registers {%f1, (immediate)}:\n"
        "        0   1\n"
        "   0: 0.0 1.0\n"
        "   1: 0.0 1.0\n"
        "C: LANE:REGISTER of each element (REGISTER: its place in {%f1, (immediate)}):\n"
        "         0    1\n"
        "   0:  0:0  4:1\n"
        "   1:  8:0 12:1\n"
        "\n"
        "D (f32, 2x2), registers {%f2, %f3}:\n"
        "          0     1\n"
        "   0:   3.0   3.0\n"
        "   1:   3.0 undef\n"
        "D: LANE:REGISTER of each element (REGISTER: its place in {%f2, %f3}):\n"
        "         0    1\n"
        "   0:  0:0  4:1\n"
        "   1:  8:0 12:1\n";
    if (strcmp(text, want))
        fprintf(stderr, "printed:\n%s\nwanted:\n%s\n", text, want);
    ck_assert_msg(!strcmp(text, want), "the tables differ (both above)");
    free(text);
    text = printed(&v, false, true, false);                   /* --hex, no places */
    ck_assert_ptr_nonnull(strstr(text, "   1: 0xbc00 0x3800 0x7c00\n"));
    ck_assert_ptr_null(strstr(text, "LANE:REGISTER"));
    free(text);
}
END_TEST

START_TEST(json_members)
{
    MatrixView v = small_view();
    char *text = printed(&v, false, false, true);
    json_error_t err;
    json_t *root = json_loads(text, 0, &err);
    ck_assert_msg(root != NULL, "not JSON (%s): %s", err.text, text);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "k")), 3);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "types"), "a")), "f16");
    json_t *a = json_object_get(root, "A");
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(a, "registers"), 1)), "%rb");
    json_t *e = json_array_get(json_array_get(json_object_get(a, "rows"), 1), 1);   /* A[1][1]: 0.5 */
    ck_assert(json_real_value(json_object_get(e, "value")) == 0.5);
    ck_assert_str_eq(json_string_value(json_object_get(e, "bits")), "0x3800");
    ck_assert_int_eq(json_integer_value(json_object_get(e, "lane")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(e, "reg")), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(e, "part")), 0);
    ck_assert(json_is_true(json_object_get(e, "defined")));
    e = json_array_get(json_array_get(json_object_get(a, "rows"), 1), 2);           /* inf */
    ck_assert_str_eq(json_string_value(json_object_get(e, "value")), "inf");
    e = json_array_get(json_array_get(json_object_get(json_object_get(root, "B"), "rows"), 2), 1);
    ck_assert(json_is_null(json_object_get(e, "value")) && json_is_null(json_object_get(e, "bits")));
    ck_assert(json_is_false(json_object_get(e, "defined")));
    ck_assert(json_is_null(json_array_get(json_object_get(json_object_get(root, "C"), "registers"), 1)));
    json_decref(root);
    free(text);
}
END_TEST

/* Lines of text no longer than width; columns' labels each once. */
static void fits(const char *text, size_t width)
{
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        ck_assert_msg(len <= width, "a line of %zu characters: %.*s", len, (int)len, p);
        p += len + (p[len] == '\n');
    }
}

static void wide_ones(const char *text)
{
    fits(text, 120);
    const char *table = strstr(text, "A (s32, 1x256)"), *end = table ? strstr(table, "\nA: LANE") : NULL;
    ck_assert_ptr_nonnull(end);
    const char *last = strstr(table, " -255000000\n");   /* the last column, in the last block */
    ck_assert(last && last < end);
    const char *bits = strstr(text, "B (b1, 1x256), registers {%b}:\n");
    ck_assert_ptr_nonnull(bits);
    /* 64 columns to a block, eight to a group; B[0][7] undefined */
    ck_assert_ptr_nonnull(strstr(bits, "      0        8        16       24       32       40       48       56\n"
                                       "   0: 1001001? 01001001 00100100 10010010 01001001 00100100 10010010 01001001\n"
                                       "\n      64       72"));
    ck_assert_ptr_nonnull(strstr(bits, "      192      200      208      216      224      232      240      248\n"));
}

START_TEST(wide_matrices_in_blocks)
{
    enum { K = 256 };
    static MatrixElement a[K], b[K], c[1], d[1];
    for (unsigned i = 0; i < K; i++) {
        a[i] = (MatrixElement){ (uint64_t)-(int64_t)(1000000 * i), ~0ull, (uint8_t)(i / 8), (uint8_t)(i % 8), 0, 0 };
        b[i] = (MatrixElement){ i % 3 == 0, i == 7 ? 0 : 1, (uint8_t)(i % 32), 0, (uint8_t)(i / 32), 0 };
    }
    c[0] = d[0] = (MatrixElement){ 5, ~0ull, 0, 0, 0, 0 };
    MatrixView v = { .m = 1, .n = 1, .k = K, .products = 1 };
    v.op[MATRIX_A] = (MatrixOperand){ TYPE_S32, 1, K, 8, 1, { "%a0", "%a1", "%a2", "%a3", "%a4", "%a5", "%a6", "%a7" },
                                      { 0 }, a };
    v.op[MATRIX_B] = (MatrixOperand){ TYPE_B1, 1, K, 1, 32, { "%b" }, { 0 }, b };   /* laid out as a row here */
    v.op[MATRIX_C] = (MatrixOperand){ TYPE_S32, 1, 1, 1, 1, { "%c" }, { 0 }, c };
    v.op[MATRIX_D] = (MatrixOperand){ TYPE_S32, 1, 1, 1, 1, { "%d" }, { 0 }, d };
    char *text = printed(&v, true, false, false);
    wide_ones(text);
    free(text);
}
END_TEST

/* ExecOptions.matrix_wanted: asked at each execution of an mma before its view is made; only
 * the executions it wants reach on_matrix (five executions of one mma, the third wanted). */
typedef struct Asked {
    unsigned asked, shown, asked_when_shown;
    uint32_t pc, shown_pc;
} Asked;

static bool third_wanted(void *context, uint32_t pc)
{
    Asked *a = context;
    a->pc = pc;
    return ++a->asked == 3;
}

static void shown(void *context, const MatrixView *v)
{
    Asked *a = context;
    a->shown++;
    a->asked_when_shown = a->asked;
    a->shown_pc = v->pc;
}

START_TEST(views_only_where_wanted)
{
    Loaded *r = loaded_new(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                           "    .reg .b32 %a, %b, %c<2>, %i;\n    .reg .pred %p;\n"
                           "    mov.b32 %a, 0x01010101;\n    mov.b32 %b, 0x02020202;\n    mov.b32 %c0, 0;\n"
                           "    mov.b32 %c1, 0;\n    mov.u32 %i, 0;\nLOOP:\n"
                           "    mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%c0, %c1}, {%a}, {%b}, {%c0, %c1};\n"
                           "    add.u32 %i, %i, 1;\n    setp.lt.u32 %p, %i, 5;\n    @%p bra LOOP;\n    ret;\n}\n");
    Asked a = { 0 };
    ExecOptions o = { .max_steps = 1000, .on_matrix = shown, .matrix_wanted = third_wanted, .matrix_context = &a };
    ck_assert_int_eq(grid_run(r->b, &o, (char[256]){ 0 }, 256), 0);
    ck_assert_uint_eq(a.asked, 5);
    ck_assert_uint_eq(a.shown, 1);
    ck_assert_uint_eq(a.asked_when_shown, 3);
    ck_assert_uint_eq(a.shown_pc, a.pc);
    ck_assert_uint_eq(r->w->val[reg_index(r->w, "%c0")][0], 5 * 32);   /* the mma ran each time */
    loaded_free(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("matview");
    TCase *tc = tcase_create("printer");
    tcase_add_test(tc, each_type_in_its_own_terms);
    tcase_add_test(tc, tables_with_places);
    tcase_add_test(tc, json_members);
    tcase_add_test(tc, wide_matrices_in_blocks);
    tcase_add_test(tc, views_only_where_wanted);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
