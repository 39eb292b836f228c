/* check_lexer.c: every token form, literal value and error position of lexer.re. */
#include "testutil.h"
#include "parse.h"
#include "parser.h"

typedef struct Lexed {
    Source src;
    Diag diag;
    Captured cap;
    Arena arena;
    Lexer lx;
} Lexed;

static Lexed *lex_text(const char *text, size_t len)
{
    Lexed *l = calloc(1, sizeof *l);
    source_from_string(&l->src, "lex.ptx", text, len);
    diag_init(&l->diag, &l->src, stderr);
    l->diag.emit = capture_diag;
    l->diag.context = &l->cap;
    lex_init(&l->lx, &l->src, &l->diag, &l->arena);
    return l;
}

static void lexed_free(Lexed *l)
{
    source_free(&l->src);
    arena_free(&l->arena);
    free(l);
}

/* The next token, its span and value. */
static int next(Lexed *l, YYSTYPE *value, Span *at)
{
    memset(value, 0, sizeof *value);
    return lex_next(&l->lx, value, at);
}

static void expect_token(Lexed *l, int kind, const char *text)
{
    YYSTYPE v;
    Span at;
    int t = next(l, &v, &at);
    ck_assert_int_eq(t, kind);
    ck_assert_int_eq(at.length, strlen(text));
    ck_assert_mem_eq(l->src.text + at.offset, text, at.length);
}

static Literal lex_literal(const char *text, int expected_kind)
{
    Lexed *l = lex_text(text, strlen(text));
    YYSTYPE v;
    Span at;
    int t = next(l, &v, &at);
    ck_assert_msg(t == expected_kind, "'%s': token %d, expected %d", text, t, expected_kind);
    ck_assert_msg(l->diag.errors == 0, "'%s': %s", text, l->cap.text);
    ck_assert_int_eq(at.length, strlen(text));
    Literal lit = t == T_INTEGER ? v.T_INTEGER : v.T_FLOAT;
    ck_assert_int_eq(next(l, &v, &at), T_EOF);
    lexed_free(l);
    return lit;
}

static uint64_t f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

START_TEST(integers_in_every_base)
{
    ck_assert_uint_eq(lex_literal("0", T_INTEGER).bits, 0);
    ck_assert_uint_eq(lex_literal("42", T_INTEGER).bits, 42);
    ck_assert_uint_eq(lex_literal("0x1f", T_INTEGER).bits, 31);
    ck_assert_uint_eq(lex_literal("0XFFFFFFFF", T_INTEGER).bits, 0xffffffffu);
    ck_assert_uint_eq(lex_literal("017", T_INTEGER).bits, 15);
    ck_assert_uint_eq(lex_literal("0b101", T_INTEGER).bits, 5);
    ck_assert_uint_eq(lex_literal("0B11111111", T_INTEGER).bits, 255);
    ck_assert_uint_eq(lex_literal("18446744073709551615", T_INTEGER).bits, UINT64_MAX);
    ck_assert_uint_eq(lex_literal("0xffffffffffffffff", T_INTEGER).bits, UINT64_MAX);
}
END_TEST

START_TEST(unsigned_suffix)
{
    Literal a = lex_literal("7U", T_INTEGER);
    ck_assert_uint_eq(a.bits, 7);
    ck_assert(a.unsigned_suffix);
    Literal b = lex_literal("0x10U", T_INTEGER);
    ck_assert_uint_eq(b.bits, 16);
    ck_assert(b.unsigned_suffix);
    ck_assert(!lex_literal("7", T_INTEGER).unsigned_suffix);
}
END_TEST

START_TEST(negative_integer_is_minus_then_literal)
{
    Parsed *p = parse_ok("mov.s32 r, -5;\nmov.s32 r, -0x10;\n");
    Function *f = p->m->functions.data[0];
    ck_assert_uint_eq(f->code.data[0].operands[1].u.bits, (uint64_t)-5);
    ck_assert(f->code.data[0].operands[1].flags & OPNDF_NEGATIVE);
    ck_assert_uint_eq(f->code.data[1].operands[1].u.bits, (uint64_t)-16);
    parsed_free(p);
}
END_TEST

START_TEST(floats)
{
    Literal one = lex_literal("0f3F800000", T_FLOAT);        /* 1.0f: IEEE-754 single */
    ck_assert_int_eq(one.kind, OPND_F32);
    ck_assert_uint_eq(one.bits, 0x3F800000u);
    Literal d = lex_literal("0d3FF0000000000000", T_FLOAT);  /* 1.0: IEEE-754 double */
    ck_assert_int_eq(d.kind, OPND_F64);
    ck_assert_uint_eq(d.bits, 0x3FF0000000000000u);
    ck_assert_uint_eq(lex_literal("0F7f800000", T_FLOAT).bits, 0x7F800000u);
    ck_assert_uint_eq(lex_literal("1.5", T_FLOAT).bits, f64_bits(1.5));
    ck_assert_uint_eq(lex_literal("1.", T_FLOAT).bits, f64_bits(1.0));
    ck_assert_uint_eq(lex_literal(".25", T_FLOAT).bits, f64_bits(0.25));
    ck_assert_uint_eq(lex_literal("1e3", T_FLOAT).bits, f64_bits(1000.0));
    ck_assert_uint_eq(lex_literal("2.5e-3", T_FLOAT).bits, f64_bits(0.0025));
    ck_assert_uint_eq(lex_literal("6.02E+23", T_FLOAT).bits, f64_bits(6.02e23));
    ck_assert_int_eq(lex_literal("0.0", T_FLOAT).kind, OPND_F64);
}
END_TEST

START_TEST(words_registers_and_opcodes)
{
    const char *text = "shfl.sync.up.b32 %r12 %tid.x %laneid %lanemask_lt $L__BB0_1 _Z3fooPi _ "
                       "Rx cp.async.bulk.shared::cluster.global WARP_SZ";
    Lexed *l = lex_text(text, strlen(text));
    expect_token(l, T_WORD, "shfl.sync.up.b32");
    expect_token(l, T_WORD, "%r12");
    expect_token(l, T_WORD, "%tid.x");
    expect_token(l, T_WORD, "%laneid");
    expect_token(l, T_WORD, "%lanemask_lt");
    expect_token(l, T_WORD, "$L__BB0_1");
    expect_token(l, T_WORD, "_Z3fooPi");
    expect_token(l, T_WORD, "_");
    expect_token(l, T_WORD, "Rx");
    expect_token(l, T_WORD, "cp.async.bulk.shared::cluster.global");
    expect_token(l, T_INTEGER, "WARP_SZ");      /* the constant 32 */
    expect_token(l, T_EOF, "");
    ck_assert_int_eq(l->diag.errors, 0);
    lexed_free(l);
}
END_TEST

START_TEST(directives)
{
    const char *text = ".version .target .address_size .entry .func .reg .shared .global .local .const "
                       ".param .visible .extern .weak .align .b32 .v4 .maxntid .pragma .file .loc .section "
                       ".callprototype .branchtargets .calltargets .debug_info";
    Lexed *l = lex_text(text, strlen(text));
    int expected[] = { T_VERSION, T_TARGET, T_ADDRESS_SIZE, T_ENTRY, T_FUNC, T_SPACE, T_SPACE,
                       T_SPACE, T_SPACE, T_SPACE, T_SPACE, T_LINKAGE, T_LINKAGE, T_LINKAGE, T_ALIGN,
                       T_DIRECTIVE, T_DIRECTIVE, T_PERF, T_PRAGMA, T_FILE, T_LOC, T_SECTION,
                       T_CALLPROTOTYPE, T_BRANCHTARGETS, T_CALLTARGETS, T_DIRECTIVE, T_EOF };
    for (size_t i = 0; i < COUNT_OF(expected); i++) {
        YYSTYPE v;
        Span at;
        ck_assert_int_eq(next(l, &v, &at), expected[i]);
        if (i == 6)
            ck_assert_int_eq(v.T_SPACE, SPACE_SHARED);
        if (i == 12)
            ck_assert_int_eq(v.T_LINKAGE, LINK_EXTERN);
    }
    lexed_free(l);
}
END_TEST

START_TEST(punctuation_strings_comments)
{
    const char *text = ", ; : | @ ! { } [ ] ( ) < > + - = \"a \\\"b\\\"\" // line comment\n"
                       "/* block\n comment */ x";
    Lexed *l = lex_text(text, strlen(text));
    const char *punct = ",;:|@!{}[]()<>+-=";
    for (const char *c = punct; *c; c++) {
        char s[2] = { *c, 0 };
        expect_token(l, *c, s);
    }
    expect_token(l, T_STRING, "\"a \\\"b\\\"\"");
    expect_token(l, T_WORD, "x");
    expect_token(l, T_EOF, "");
    ck_assert_int_eq(l->diag.errors, 0);
    lexed_free(l);
}
END_TEST

START_TEST(crlf_bom_and_no_final_newline)
{
    const char *text = "\xEF\xBB\xBF" "add.s32 a, b, c;\r\nret;";
    Lexed *l = lex_text(text, strlen(text));
    YYSTYPE v;
    Span at;
    ck_assert_int_eq(next(l, &v, &at), T_WORD);
    ck_assert_int_eq(at.offset, 3);                 /* after the BOM */
    uint32_t line, col;
    for (int i = 0; i < 6; i++)
        next(l, &v, &at);                           /* a , b , c ; */
    ck_assert_int_eq(next(l, &v, &at), T_WORD);     /* ret */
    source_position(&l->src, at.offset, &line, &col);
    ck_assert_int_eq(line, 2);
    ck_assert_int_eq(col, 1);
    expect_token(l, ';', ";");
    expect_token(l, T_EOF, "");
    ck_assert_int_eq(l->diag.errors, 0);
    /* A CR is not part of the line the caret is drawn under. */
    uint32_t len;
    source_line(&l->src, 1, &len);
    ck_assert_int_eq(len, strlen("\xEF\xBB\xBF" "add.s32 a, b, c;"));
    lexed_free(l);
}
END_TEST

START_TEST(nul_byte_is_reported_and_skipped)
{
    const char text[] = "mov\0 x";
    Lexed *l = lex_text(text, sizeof text - 1);
    expect_token(l, T_WORD, "mov");
    expect_token(l, T_WORD, "x");
    expect_token(l, T_EOF, "");
    ck_assert_str_eq(l->cap.text, "1:4: error: NUL byte in input\n");
    lexed_free(l);
}
END_TEST

START_TEST(stray_characters)
{
    const char *text = "a # b\n  \xC3\xA9 ` c";
    Lexed *l = lex_text(text, strlen(text));
    expect_token(l, T_WORD, "a");
    expect_token(l, T_WORD, "b");
    expect_token(l, T_WORD, "c");
    expect_token(l, T_EOF, "");
    ck_assert_str_eq(l->cap.text, "1:3: error: stray '#' in program\n"
                                  "2:3: error: stray non-ASCII character '\xC3\xA9' in program\n"
                                  "2:6: error: stray '`' in program\n");
    lexed_free(l);
}
END_TEST

START_TEST(unterminated_string_and_comment)
{
    const char *text = "x \"abc\ny /* never closed";
    Lexed *l = lex_text(text, strlen(text));
    expect_token(l, T_WORD, "x");
    expect_token(l, T_STRING, "\"abc");
    expect_token(l, T_WORD, "y");
    expect_token(l, T_EOF, "");
    ck_assert_str_eq(l->cap.text, "1:3: error: unterminated string\n2:3: error: unterminated comment\n");
    lexed_free(l);
}
END_TEST

START_TEST(bad_numbers)
{
    const char *text = "18446744073709551616 09 0f3F80";
    Lexed *l = lex_text(text, strlen(text));
    YYSTYPE v;
    Span at;
    ck_assert_int_eq(next(l, &v, &at), T_INTEGER);
    ck_assert_int_eq(next(l, &v, &at), T_INTEGER);
    ck_assert_int_eq(next(l, &v, &at), T_INTEGER);
    ck_assert_str_eq(l->cap.text, "1:1: error: integer literal '18446744073709551616' does not fit in 64 bits\n"
                                  "1:22: error: invalid number '09'\n"
                                  "1:25: error: invalid number '0f3F80'\n");
    lexed_free(l);
}
END_TEST

START_TEST(long_tokens_have_no_length_limit)
{
    size_t n = 100000;
    char *text = malloc(n + 1);
    text[0] = 'r';
    memset(text + 1, 'x', n - 1);
    text[n] = '\0';
    Lexed *l = lex_text(text, n);
    YYSTYPE v;
    Span at;
    ck_assert_int_eq(next(l, &v, &at), T_WORD);
    ck_assert_int_eq(at.length, n);
    lexed_free(l);
    free(text);
}
END_TEST

/* Sizes about the points where pages.c changes how it allocates (1 MB, whole 2 MB huge pages):
 * each block comes zeroed, every byte of it can be written, and freeing one (with the size asked
 * for) leaves its neighbours whole. (Unmapping too much shows where a neighbour lies next to the
 * block, as they mostly do; unmapping too little would only leak, which this cannot see.) */
START_TEST(pages_zeroed_whole_and_freed_alone)
{
    const size_t sizes[] = { 1, (1u << 20) - 1, 1u << 20, (1u << 20) + 1, (2u << 20) - 1, 2u << 20,
                             (2u << 20) + 32, (7u << 20) / 2, (4u << 20) + 4096 };
    enum { N = sizeof sizes / sizeof sizes[0] };
    unsigned char *block[N], *again[N];
    for (size_t i = 0; i < N; i++) {
        block[i] = pages_alloc(sizes[i]);
        for (size_t j = 0; j < sizes[i]; j += 4093)
            ck_assert_int_eq(block[i][j], 0);
        ck_assert_int_eq(block[i][sizes[i] - 1], 0);
        memset(block[i], (int)(i + 1), sizes[i]);
    }
    for (size_t i = 0; i < N; i += 2)          /* every other one freed, then asked for again */
        pages_free(block[i], sizes[i]);
    for (size_t i = 0; i < N; i += 2) {
        again[i] = pages_alloc(sizes[i]);
        ck_assert_int_eq(again[i][sizes[i] - 1], 0);
        memset(again[i], 0xee, sizes[i]);
    }
    for (size_t i = 1; i < N; i += 2) {        /* the neighbours kept their bytes */
        ck_assert_int_eq(block[i][0], (int)(i + 1));
        ck_assert_int_eq(block[i][sizes[i] / 2], (int)(i + 1));
        ck_assert_int_eq(block[i][sizes[i] - 1], (int)(i + 1));
        pages_free(block[i], sizes[i]);
    }
    for (size_t i = 0; i < N; i += 2)
        pages_free(again[i], sizes[i]);
}
END_TEST

/* An arena hands out zeroed, 16-byte aligned, separate room across its growing blocks, up to
 * and past the largest (64 MB); after a release to a mark the bytes handed out again are zero. */
START_TEST(arena_blocks_from_small_to_largest)
{
    Arena arena = { 0 };
    size_t total = 0, count = 0;
    unsigned char *first = arena_alloc(&arena, 24);
    first[0] = 0x5a;
    ArenaMark mark = arena_mark(&arena);
    while (total < (80u << 20)) {
        size_t size = 1 + (count * 7919) % 300000;
        unsigned char *p = arena_alloc(&arena, size);
        ck_assert_uint_eq((uintptr_t)p % 16, 0);
        ck_assert_int_eq(p[0], 0);
        ck_assert_int_eq(p[size - 1], 0);
        memset(p, 0xff, size);
        total += size;
        count++;
    }
    arena_release(&arena, mark);
    for (int i = 0; i < 1000; i++) {
        unsigned char *p = arena_alloc(&arena, 100000);
        ck_assert_int_eq(p[0], 0);
        ck_assert_int_eq(p[99999], 0);
        memset(p, 0xff, 100000);
    }
    ck_assert_int_eq(first[0], 0x5a);
    arena_free(&arena);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = tcase_create("tokens");
    tcase_add_test(tc, integers_in_every_base);
    tcase_add_test(tc, unsigned_suffix);
    tcase_add_test(tc, negative_integer_is_minus_then_literal);
    tcase_add_test(tc, floats);
    tcase_add_test(tc, words_registers_and_opcodes);
    tcase_add_test(tc, directives);
    tcase_add_test(tc, punctuation_strings_comments);
    tcase_add_test(tc, crlf_bom_and_no_final_newline);
    tcase_add_test(tc, nul_byte_is_reported_and_skipped);
    tcase_add_test(tc, stray_characters);
    tcase_add_test(tc, unterminated_string_and_comment);
    tcase_add_test(tc, bad_numbers);
    tcase_add_test(tc, long_tokens_have_no_length_limit);
    suite_add_tcase(s, tc);
    TCase *memory = tcase_create("memory");
    tcase_add_test(memory, pages_zeroed_whole_and_freed_alone);
    tcase_add_test(memory, arena_blocks_from_small_to_largest);
    tcase_set_timeout(memory, 60);
    suite_add_tcase(s, memory);
    return run_suite(s);
}
