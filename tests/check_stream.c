/* check_stream.c: --check one function at a time (checkstream.c) against the whole-module
 * check (parse_module, check_module, lower_check_all): the same diagnostics for every PTX file
 * of the repository that streams, the whole path wherever the answer could differ, and bodies
 * really let go. */
#include <stdio.h>

#include "testutil.h"

typedef struct Said {
    uint32_t key, sequence;
    char *text;
} Said;

typedef struct Heard {
    Said *items;
    uint32_t count, cap, last_key;
} Heard;

/* As the driver holds them: a note sorts with the message before it. */
static void hear(void *context, Diag *diag, DiagLevel level, Span at, const char *message)
{
    static const char *const names[] = { "error", "warning", "note" };
    Heard *h = context;
    uint32_t line, column;
    source_position(diag->src, at.offset, &line, &column);
    if (level != DIAG_NOTE)
        h->last_key = at.offset;
    if (h->count == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 16;
        h->items = realloc(h->items, h->cap * sizeof *h->items);
    }
    char *text = malloc(strlen(message) + 64);
    sprintf(text, "%u:%u: %s: %s\n", line, column, names[level], message);
    h->items[h->count] = (Said){ h->last_key, h->count, text };
    h->count++;
}

static int by_key(const void *a, const void *b)
{
    const Said *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->sequence < y->sequence ? -1 : 1;
}

/* The messages in the order the driver prints them, as one string (caller frees). */
static char *heard_text(Heard *h)
{
    if (h->count)                              /* (qsort of no list is undefined) */
        qsort(h->items, h->count, sizeof *h->items, by_key);
    size_t len = 1;
    for (uint32_t i = 0; i < h->count; i++)
        len += strlen(h->items[i].text);
    char *all = calloc(1, len);
    for (uint32_t i = 0; i < h->count; i++) {
        strcat(all, h->items[i].text);
        free(h->items[i].text);
    }
    free(h->items);
    *h = (Heard){ 0 };
    return all;
}

typedef struct Result {
    char *whole, *streamed;    /* diagnostics; streamed NULL: it went the whole way */
    unsigned whole_errors;
    uint32_t kernels, dropped;
    uint32_t skipped[2];       /* read by 2 and by 3 readers, kernels dealt in turn: the kernels the
                                  first one skipped (0: the readers could not answer, one reader did) */
} Result;

static Result compare(const char *name, const char *text, size_t len)
{
    Result o = { 0 };
    Source src;
    source_from_string(&src, name, text, len);
    Heard h = { 0 };
    Diag diag;
    diag_init(&diag, &src, stderr);
    diag.emit = hear;
    diag.context = &h;

    Module *m = parse_module(&src, &diag);
    check_module(m, &diag, NULL);
    if (!diag.errors)
        lower_check_all(m, &diag);
    o.whole_errors = diag.errors;
    o.whole = heard_text(&h);
    module_free(m);

    diag_init(&diag, &src, stderr);
    diag.emit = hear;
    diag.context = &h;
    m = checkstream_module(&src, &diag, NULL, 1, false);
    char *said = heard_text(&h);
    if (m) {
        o.streamed = said;
        for (uint32_t i = 0; i < m->functions.len; i++) {
            o.kernels += m->functions.data[i]->is_entry && m->functions.data[i]->has_body;
            o.dropped += m->functions.data[i]->dropped;
        }
        ck_assert_msg(diag.errors == 0, "%s: streamed with %u errors", name, diag.errors);
        module_free(m);
    } else {
        free(said);
    }

    /* Several readers (on threads) answer what the whole check says, or leave it to one reader.
     * (They may answer where one reader cannot: a reader's first kernel waits for the end of
     * the module, where nothing is declared after it.) 2 and 3 readers with kernels dealt in
     * turn (which kernels each reads is known), then 2 that race for them, as --check's do. */
    for (unsigned k = 0; k < 3; k++) {
        unsigned readers = k == 2 ? 2 : 2 + k;
        diag_init(&diag, &src, stderr);
        diag.emit = hear;
        diag.context = &h;
        m = checkstream_module(&src, &diag, NULL, readers, k < 2);
        said = heard_text(&h);
        ck_assert_msg(m != NULL || o.streamed == NULL, "%s: %u readers did not answer, one did", name, readers);
        if (m) {
            ck_assert_msg(!strcmp(said, o.whole), "%s: %u readers said\n%s\nthe whole check said\n%s", name, readers,
                          said, o.whole);
            ck_assert_ptr_eq(m->src, &src);
            for (uint32_t i = 0; i < m->functions.len && k < 2; i++)
                o.skipped[k] += m->functions.data[i]->skipped;
            module_free(m);
        }
        free(said);
    }
    source_free(&src);
    return o;
}

static void outcome_free(Result *o)
{
    free(o->whole);
    free(o->streamed);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    *len = 0;
    size_t got;
    while ((got = fread(buf + *len, 1, cap - *len, f)) > 0) {
        *len += got;
        if (*len == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    return buf;
}

/* Every .ptx of the repository: where it streams, what it says is the whole check's, word for
 * word; nvcc's output always streams, and its kernels after the first are let go. */
START_TEST(every_file_agrees)
{
    const char *root = getenv("PTXRUN_ROOT");
    char command[1024];
    snprintf(command, sizeof command, "cd '%s' && find tests samples -name '*.ptx' | sort", root ? root : ".");
    FILE *list = popen(command, "r");
    ck_assert(list != NULL);
    char path[512], full[1200];
    unsigned files = 0, streamed = 0, nvcc_dropped = 0, nvcc_multi = 0, nvcc_split = 0;
    while (fgets(path, sizeof path, list)) {
        path[strcspn(path, "\n")] = '\0';
        snprintf(full, sizeof full, "%s/%s", root ? root : ".", path);
        size_t len;
        char *text = read_all(full, &len);
        Result o = compare(path, text, len);
        files++;
        if (o.streamed) {
            streamed++;
            ck_assert_msg(o.whole_errors == 0, "%s streamed, but the whole check has errors", path);
            ck_assert_msg(!strcmp(o.streamed, o.whole), "%s: streamed said\n%s\nthe whole check said\n%s", path,
                          o.streamed, o.whole);
        }
        if (strstr(path, "tests/ptx/nvcc/") && o.whole_errors == 0) {
            ck_assert_msg(o.streamed != NULL, "%s: nvcc output went the whole way", path);
            ck_assert_msg(o.kernels < 2 || o.dropped > 0, "%s: %u kernels, none let go", path, o.kernels);
            nvcc_multi += o.kernels >= 2;
            nvcc_split += o.kernels >= 2 && o.skipped[0] > 0 && o.skipped[1] > 0;
            nvcc_dropped += o.dropped;
        }
        outcome_free(&o);
        free(text);
    }
    pclose(list);
    ck_assert_msg(files > 500, "only %u .ptx files found under %s", files, root ? root : ".");
    ck_assert_msg(streamed > files / 2, "only %u of %u files streamed", streamed, files);
    ck_assert_uint_gt(nvcc_dropped, 10);
    /* nvcc files of several kernels are shared out among readers, but where .funcs and
     * declarations make most of the bytes (mostly_kernels) */
    ck_assert_msg(nvcc_split * 2 > nvcc_multi, "only %u of %u nvcc files of several kernels read by readers",
                  nvcc_split, nvcc_multi);
}
END_TEST

static Result compare_text(const char *text)
{
    return compare("test.ptx", text, strlen(text));
}

#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* text is valid (the whole check finds no error), and the streamed check must not answer. */
static void goes_the_whole_way_clean(const char *text)
{
    Result o = compare_text(text);
    ck_assert_ptr_null(o.streamed);
    ck_assert_uint_eq(o.whole_errors, 0);
    outcome_free(&o);
}

START_TEST(kernels_after_the_first_are_let_go)
{
    Result o = compare_text(HEAD
        ".visible .entry a(.param .u64 p) { .reg .b64 %rd<2>; ld.param.u64 %rd1, [p]; ret; }\n"
        ".visible .entry b(.param .u64 p) { .reg .b64 %rd<2>; ld.param.u64 %rd1, [p]; ret; }\n"
        ".visible .entry c() { ret; }\n");
    ck_assert_ptr_nonnull(o.streamed);
    ck_assert_uint_eq(o.kernels, 3);
    ck_assert_uint_eq(o.dropped, 2);           /* b and c; a waits to be lowered with everything */
    outcome_free(&o);
}
END_TEST

/* A name used before it is declared: the streamed check cannot resolve it, the whole one can. */
START_TEST(a_forward_reference_goes_the_whole_way)
{
    goes_the_whole_way_clean(HEAD
        ".visible .entry a() { ret; }\n"
        ".visible .entry b() { .reg .b32 %r<2>; ld.global.u32 %r1, [g]; ret; }\n"
        ".global .u32 g;\n");
}
END_TEST

/* Declared again after a kernel resolved it (and was let go): check_module binds the later one. */
START_TEST(a_name_declared_again_after_use_goes_the_whole_way)
{
    goes_the_whole_way_clean(HEAD
        ".global .u32 g;\n"
        ".visible .entry a() { ret; }\n"
        ".visible .entry b() { .reg .b32 %r<2>; ld.global.u32 %r1, [g]; ret; }\n"
        ".extern .global .u32 g;\n");
}
END_TEST

/* The same, the first kernel (kept to the end) the user: the checker's memory of what it
 * resolved is what notices. */
START_TEST(a_name_the_first_kernel_used_declared_again)
{
    goes_the_whole_way_clean(HEAD
        ".global .u32 g;\n"
        ".visible .entry a() { .reg .b32 %r<2>; ld.global.u32 %r1, [g]; ret; }\n"
        ".extern .global .u32 g;\n");
}
END_TEST

/* A name only an initializer names, declared again after a kernel that reached it was let go:
 * what the lowering reached is what notices (the checker never looked it up). */
START_TEST(a_name_an_initializer_reached_declared_later)
{
    goes_the_whole_way_clean(HEAD
        ".visible .entry a() { ret; }\n"
        ".global .u32 q;\n"
        ".global .u64 p = generic(q);\n"
        ".visible .entry b() { .reg .b64 %rd<2>; ld.global.u64 %rd1, [p]; ret; }\n"
        ".extern .global .u32 q;\n");
}
END_TEST

/* A kernel calling a function defined after it waits for the end instead of being let go. */
START_TEST(a_call_to_a_later_definition_waits)
{
    Result o = compare_text(HEAD
        ".func (.param .b32 r) f(.param .b32 x);\n"
        ".visible .entry a() { ret; }\n"
        ".visible .entry b() { .reg .b32 %r<3>; mov.b32 %r1, 1;\n"
        "  { .param .b32 x0; .param .b32 r0; st.param.b32 [x0], %r1;\n"
        "    call (r0), f, (x0); ld.param.b32 %r2, [r0]; }\n"
        "  ret; }\n"
        ".func (.param .b32 r) f(.param .b32 x) { .reg .b32 %r<2>; ld.param.b32 %r1, [x];\n"
        "  st.param.b32 [r], %r1; ret; }\n");
    ck_assert_ptr_nonnull(o.streamed);
    ck_assert_uint_eq(o.whole_errors, 0);
    ck_assert_uint_eq(o.dropped, 0);
    ck_assert_str_eq(o.streamed, o.whole);
    outcome_free(&o);
}
END_TEST

/* A prototype a kernel called, its definition, then a variable of the same name: check_module
 * declares the variable first and refuses both functions (ptxas 13: "Inconsistent redefinition
 * of variable 'g'"). The definition taking the name over from the prototype must not make the
 * streamed check forget that the name was used. */
START_TEST(a_used_function_name_declared_as_a_variable_after_its_definition)
{
    Result o = compare_text(HEAD
        ".func g();\n"
        ".visible .entry a() { call g; ret; }\n"
        ".func g() { ret; }\n"
        ".extern .global .u32 g;\n");
    ck_assert_uint_eq(o.whole_errors, 2);
    ck_assert_ptr_null(o.streamed);
    outcome_free(&o);
}
END_TEST

/* A function, then an .extern variable of its name: check_module declares every variable before
 * the functions and refuses the function (ptxas 13: "Inconsistent redefinition of variable
 * 'f'"); streamed, the variable came second and an .extern is no redefinition. */
START_TEST(a_variable_named_as_an_earlier_function)
{
    Result o = compare_text(HEAD
        ".func f() { ret; }\n"
        ".extern .global .u32 f;\n"
        ".visible .entry k() { ret; }\n");
    ck_assert_uint_eq(o.whole_errors, 1);
    ck_assert_ptr_null(o.streamed);
    outcome_free(&o);
}
END_TEST

START_TEST(errors_snippets_and_warnings)
{
    Result o = compare_text(HEAD ".visible .entry a() { add.u32 %r1, 1; ret; }\n");      /* an error */
    ck_assert_ptr_null(o.streamed);
    ck_assert_uint_gt(o.whole_errors, 0);
    outcome_free(&o);
    o = compare_text("add.u32 %r1, %r2, 1;\n");                                         /* a snippet */
    ck_assert_ptr_null(o.streamed);
    outcome_free(&o);
    o = compare_text(".version 6.0\n.target sm_60\n"                                      /* warnings */
                     ".visible .entry a() { .reg .b32 %r<3>; .reg .pred %p<2>;\n"
                     "  shfl.up.b32 %r1|%p1, %r2, 1, 0; ret; }\n"
                     ".visible .entry b() { .reg .pred %p<3>; vote.all.pred %p1, %p2; ret; }\n");
    ck_assert_ptr_nonnull(o.streamed);
    ck_assert_ptr_nonnull(strstr(o.whole, "warning"));
    ck_assert_str_eq(o.streamed, o.whole);
    ck_assert_uint_eq(o.dropped, 1);
    ck_assert_uint_eq(o.skipped[0], 0);        /* a warning: one reader answers, with it */
    outcome_free(&o);
}
END_TEST

/* Readers share the kernels out in order, each to the one with the fewest bytes so far: a to
 * the first, b to the second, c to the first again of two (b is the longest) or the third of
 * three. A body passed over ends at its own '}', a list of parameters at its ')': braces and
 * parentheses in comments and strings do not count. */
START_TEST(readers_pass_over_bodies_by_their_braces)
{
    Result o = compare_text(HEAD
        ".visible .entry a() { ret; }\n"
        ".visible .entry b(.param .u64 p /* ) ( */, // )\n"
        "                  .param .u32 q) {\n"
        "  // } in a comment\n"
        "  /* { and } */ .pragma \"nounroll}{\\\"\";\n"
        "  { .reg .b32 %r<2>; mov.b32 %r1, 1; { } }\n"
        "  ret; }\n"
        ".visible .entry c() { ret; }\n");
    ck_assert_ptr_nonnull(o.streamed);
    ck_assert_str_eq(o.whole, "");
    ck_assert_uint_eq(o.skipped[0], 1);
    ck_assert_uint_eq(o.skipped[1], 2);
    outcome_free(&o);
}
END_TEST

/* Kernels are shared out only where their lines make most of the module: where .funcs (or
 * declarations) do, each reader would parse them all again. */
START_TEST(readers_only_where_kernels_make_most_of_it)
{
    char text[4096] = HEAD;
    for (int i = 0; i < 8; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text),
                 ".func f%d(.param .b32 a)\n{\n.reg .b32 %%r<2>;\nld.param.b32 %%r1, [a];\nret;\n}\n", i);
    strcat(text, ".visible .entry a() { ret; }\n.visible .entry b() { ret; }\n");
    Result o = compare_text(text);
    ck_assert_ptr_nonnull(o.streamed);
    ck_assert_uint_eq(o.skipped[0], 0);
    outcome_free(&o);
    strcpy(text, HEAD ".func f() { ret; }\n");
    for (int i = 0; i < 8; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text),
                 ".visible .entry k%d(.param .u64 p)\n{\n.reg .b64 %%rd<2>;\nld.param.u64 %%rd1, [p];\nret;\n}\n", i);
    o = compare_text(text);
    ck_assert_uint_gt(o.skipped[0], 0);
    outcome_free(&o);
}
END_TEST

/* What is wrong in a kernel one reader passes over is found by the one that reads it: then one
 * reader reads it all and says what the whole check says (compare() checks the words). */
START_TEST(readers_leave_mistakes_to_one_reader)
{
    static const char *const middles[] = {
        ".visible .entry b() { add.u32 %r1, 1; ret; }\n",                     /* the checker's */
        ".visible .entry b() { .pragma \"open; ret; }\n",                       /* the lexer's */
        ".visible .entry b() { /* open; ret; }\n",
        ".visible .entry b() { ret; \n",                                       /* the parser's */
        ".visible .entry b() { ret; } }\n",
        ".visible .entry b() { ret; # }\n",
    };
    for (unsigned i = 0; i < sizeof middles / sizeof middles[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, HEAD ".visible .entry a() { ret; }\n%s.visible .entry c() { ret; }\n", middles[i]);
        Result o = compare_text(text);
        ck_assert_msg(o.streamed == NULL && o.whole_errors > 0, "case %u: %s", i, o.whole);
        outcome_free(&o);
    }
    char nul[] = HEAD ".visible .entry a() { ret; }\n.visible .entry b() { ret; X }\n.visible .entry c() { ret; }\n";
    *strchr(nul, 'X') = '\0';                 /* a NUL byte inside b */
    Result o = compare("test.ptx", nul, sizeof nul - 1);
    ck_assert(o.streamed == NULL && o.whole_errors > 0);
    outcome_free(&o);
    /* a name b used, declared again after it: one reader decides (it goes the whole way) */
    o = compare_text(HEAD ".global .u32 g;\n.visible .entry a() { ret; }\n"
                     ".visible .entry b() { .reg .b64 %rd<2>; mov.u64 %rd1, g; ret; }\n"
                     ".extern .global .u32 g;\n.visible .entry c() { ret; }\n");
    ck_assert_ptr_null(o.streamed);
    outcome_free(&o);
}
END_TEST

/* What only the lowering of a kernel with the whole module refuses (here a variable no kernel
 * reaches, the address of a function defined nowhere) is found with readers too: one of those
 * with a kernel of their own lowers the whole module; then one reader says what the whole
 * check says. Also with one long kernel: the reader without a kernel, passing over it, comes to
 * the end first, and must leave that lowering to the other. */
START_TEST(readers_lower_the_whole_module)
{
    static const char bad[] = ".extern .func f();\n.global .u64 table[1] = {f};\n";
    for (int where = 0; where < 4; where++) {
        size_t cap = 1 << 20;
        char *text = malloc(cap);
        strcpy(text, HEAD);
        int kernels = where < 3 ? 6 : 1;
        for (int i = 0; i < kernels; i++) {
            if (i == 2 * where || (where == 3 && i == 0))
                strcat(text, bad);
            snprintf(text + strlen(text), cap - strlen(text),
                     ".visible .entry k%d(.param .u64 p)\n{\n.reg .b64 %%rd<2>;\nld.param.u64 %%rd1, [p];\n", i);
            size_t len = strlen(text);
            for (int n = 0; where == 3 && n < 20000; n++)
                len += (size_t)sprintf(text + len, "add.u64 %%rd1, %%rd1, %d;\n", n);
            strcat(text, "ret;\n}\n");
        }
        Result o = compare_text(text);
        ck_assert_msg(o.whole_errors == 1 && strstr(o.whole, "initializer with the address of 'f'"), "%s", o.whole);
        ck_assert_ptr_null(o.streamed);
        outcome_free(&o);
        free(text);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stream");
    TCase *tc = tcase_create("stream");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, every_file_agrees);
    tcase_add_test(tc, kernels_after_the_first_are_let_go);
    tcase_add_test(tc, a_forward_reference_goes_the_whole_way);
    tcase_add_test(tc, a_name_declared_again_after_use_goes_the_whole_way);
    tcase_add_test(tc, a_name_the_first_kernel_used_declared_again);
    tcase_add_test(tc, a_name_an_initializer_reached_declared_later);
    tcase_add_test(tc, a_call_to_a_later_definition_waits);
    tcase_add_test(tc, a_used_function_name_declared_as_a_variable_after_its_definition);
    tcase_add_test(tc, a_variable_named_as_an_earlier_function);
    tcase_add_test(tc, errors_snippets_and_warnings);
    tcase_add_test(tc, readers_pass_over_bodies_by_their_braces);
    tcase_add_test(tc, readers_only_where_kernels_make_most_of_it);
    tcase_add_test(tc, readers_leave_mistakes_to_one_reader);
    tcase_add_test(tc, readers_lower_the_whole_module);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
