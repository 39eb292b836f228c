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

/* ---- the streaming parser's plain items (quick.c) are what the grammar builds ---- */

static StreamVerdict keep_every_function(void *context, Module *m, Function *f)
{
    (void)context, (void)m, (void)f;
    return STREAM_KEEP;
}

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_span(Span a, Span b)
{
    return a.offset == b.offset && a.length == b.length;
}

static void same_operand(const char *where, const Operand *a, const Operand *b)
{
    ck_assert_msg(a->kind == b->kind && a->flags == b->flags && a->component == b->component &&
                  a->count == b->count && a->select == b->select && same_span(a->at, b->at),
                  "%s: operand kind %d/%d flags %d/%d count %d/%d at %u+%u/%u+%u", where, a->kind, b->kind,
                  a->flags, b->flags, a->count, b->count, a->at.offset, a->at.length, b->at.offset, b->at.length);
    switch (a->kind) {
    case OPND_NAME:
        ck_assert_msg(same_text(a->u.ref.name, b->u.ref.name) && a->u.ref.offset == b->u.ref.offset &&
                      a->u.ref.target == b->u.ref.target, "%s: name %s/%s", where, a->u.ref.name, b->u.ref.name);
        break;
    case OPND_INT: case OPND_F32: case OPND_F64:
        ck_assert_msg(a->u.bits == b->u.bits, "%s: bits %llx/%llx", where, (unsigned long long)a->u.bits,
                      (unsigned long long)b->u.bits);
        break;
    case OPND_ADDR: case OPND_VEC: case OPND_PAIR: case OPND_LIST:
        ck_assert_msg(a->u.group.offset == b->u.group.offset, "%s: offset %lld/%lld", where,
                      (long long)a->u.group.offset, (long long)b->u.group.offset);
        for (uint16_t i = 0; i < a->count; i++)
            same_operand(where, &a->u.group.elems[i], &b->u.group.elems[i]);
        break;
    default:
        ck_assert_msg(memcmp(&a->u, &b->u, sizeof a->u) == 0, "%s: operand of kind %d differs", where, a->kind);
    }
}

static void same_init(const char *where, const Init *a, const Init *b)
{
    ck_assert_msg((a == NULL) == (b == NULL), "%s: an initializer on one side only", where);
    if (!a)
        return;
    ck_assert_msg(a->kind == b->kind && a->negative == b->negative && a->count == b->count && a->bits == b->bits &&
                  a->offset == b->offset && same_text(a->name, b->name) && same_span(a->at, b->at),
                  "%s: initializer kind %d/%d bits %llx/%llx at %u+%u/%u+%u", where, a->kind, b->kind,
                  (unsigned long long)a->bits, (unsigned long long)b->bits, a->at.offset, a->at.length,
                  b->at.offset, b->at.length);
    uint32_t n = a->kind == INIT_LIST ? a->count : a->kind == INIT_FIELD ? 1 : 0;
    for (uint32_t i = 0; i < n; i++)
        same_init(where, &a->elems[i], &b->elems[i]);
}

static void same_decls(const char *where, const Decl *a, const Decl *b, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++, a++, b++) {
        ck_assert_msg(same_text(a->name, b->name) && a->space == b->space && a->linkage == b->linkage &&
                      a->type == b->type && a->vector == b->vector && a->dim_count == b->dim_count &&
                      a->is_ptr == b->is_ptr && a->ptr_space == b->ptr_space && a->align == b->align &&
                      a->ptr_align == b->ptr_align && a->range == b->range && a->has_range == b->has_range &&
                      memcmp(a->dims, b->dims, sizeof a->dims) == 0 && a->handle_space == b->handle_space &&
                      same_span(a->at, b->at) && a->attr_count == b->attr_count && (a->opaque == NULL) == (b->opaque == NULL),
                      "%s: declaration %u (%s) differs (space %d/%d type %d/%d at %u+%u/%u+%u)", where, i, a->name,
                      a->space, b->space, a->type, b->type, a->at.offset, a->at.length, b->at.offset, b->at.length);
        for (uint32_t k = 0; k < a->attr_count; k++)
            ck_assert_msg(same_text(a->attrs[k], b->attrs[k]), "%s: %s: attribute %u", where, a->name, k);
        same_init(where, a->init, b->init);
    }
}

/* The module's top level, declarations and every function's statements, items and labels,
 * field by field (names as text: each module interns its own). */
static void same_bodies(const char *name, const Module *a, const Module *b)
{
    ck_assert_msg(a->functions.len == b->functions.len, "%s: %u functions, streamed %u", name, a->functions.len,
                  b->functions.len);
    ck_assert_msg(a->globals.len == b->globals.len && a->top.len == b->top.len, "%s: %u variables and %u items, "
                  "streamed %u and %u", name, a->globals.len, a->top.len, b->globals.len, b->top.len);
    for (uint32_t i = 0; i < a->top.len; i++)
        ck_assert_msg(a->top.data[i].kind == b->top.data[i].kind && a->top.data[i].index == b->top.data[i].index,
                      "%s: top-level item %u", name, i);
    same_decls(name, a->globals.data, b->globals.data, a->globals.len);
    char where[600];
    for (uint32_t i = 0; i < a->functions.len; i++) {
        const Function *f = a->functions.data[i], *g = b->functions.data[i];
        ck_assert_msg(same_text(f->name, g->name) && f->code.len == g->code.len && f->items.len == g->items.len &&
                      f->labels.len == g->labels.len && f->decls.len == g->decls.len,
                      "%s: function %s: %u/%u instructions, %u/%u items, %u/%u labels", name, f->name, f->code.len,
                      g->code.len, f->items.len, g->items.len, f->labels.len, g->labels.len);
        snprintf(where, sizeof where, "%s: %s", name, f->name);
        ck_assert_msg(f->params.len == g->params.len && f->returns.len == g->returns.len, "%s: parameters", where);
        same_decls(where, f->params.data, g->params.data, f->params.len);
        same_decls(where, f->returns.data, g->returns.data, f->returns.len);
        same_decls(where, f->decls.data, g->decls.data, f->decls.len);
        for (uint32_t k = 0; k < f->items.len; k++)
            ck_assert_msg(f->items.data[k].kind == g->items.data[k].kind &&
                          f->items.data[k].index == g->items.data[k].index &&
                          same_text(f->items.data[k].text, g->items.data[k].text), "%s: %s: item %u", name, f->name, k);
        for (uint32_t k = 0; k < f->labels.len; k++)
            ck_assert_msg(same_text(f->labels.data[k].name, g->labels.data[k].name) &&
                          f->labels.data[k].target == g->labels.data[k].target &&
                          same_span(f->labels.data[k].at, g->labels.data[k].at), "%s: %s: label %s", name, f->name,
                          f->labels.data[k].name);
        for (uint32_t k = 0; k < f->code.len; k++) {
            const Instr *x = &f->code.data[k], *y = &g->code.data[k];
            snprintf(where, sizeof where, "%s: %s: instruction %u (%s at %u)", name, f->name, k, x->mnemonic,
                     x->at.offset);
            ck_assert_msg(same_text(x->mnemonic, y->mnemonic) && same_span(x->at, y->at) &&
                          same_span(x->stmt_at, y->stmt_at) && x->guard_kind == y->guard_kind &&
                          x->guard_offset == y->guard_offset && same_text(x->guard_name, y->guard_name) &&
                          x->loc_line == y->loc_line && x->loc_file == y->loc_file && x->loc_col == y->loc_col &&
                          x->operand_count == y->operand_count,
                          "%s: streamed as %s at %u+%u (statement %u+%u), guard %d %s, %u operands", where,
                          y->mnemonic, y->at.offset, y->at.length, y->stmt_at.offset, y->stmt_at.length,
                          y->guard_kind, y->guard_name ? y->guard_name : "-", y->operand_count);
            for (uint16_t o = 0; o < x->operand_count; o++)
                same_operand(where, &x->operands[o], &y->operands[o]);
        }
    }
}

/* text parsed whole and streamed (every function kept): the same bodies where the grammar finds
 * no mistake, and a mistake found by both where it does. The number of the text's plain items. */
static void parses_alike(const char *name, const char *text, size_t len)
{
    Source src;
    source_from_string(&src, name, text, len);
    Diag diag;
    diag_init(&diag, &src, stderr);
    diag.emit = hear;
    Heard h = { 0 };
    diag.context = &h;
    Module *whole = parse_module(&src, &diag);
    unsigned whole_errors = diag.errors;
    diag.errors = diag.warnings = 0;
    StreamHook hook = { keep_every_function, NULL, NULL };
    bool stopped = false;
    Module *streamed = parse_module_stream(&src, &diag, &hook, &stopped);
    free(heard_text(&h));
    ck_assert_msg(!stopped, "%s: the stream stopped", name);
    if (whole_errors)
        ck_assert_msg(diag.errors > 0, "%s: the grammar found %u mistakes, the stream none", name, whole_errors);
    else {
        ck_assert_msg(diag.errors == 0, "%s: the stream found %u mistakes, the grammar none", name, diag.errors);
        same_bodies(name, whole, streamed);
    }
    module_free(whole);
    module_free(streamed);
    source_free(&src);
}

START_TEST(plain_items_build_what_the_grammar_builds)
{
    const char *root = getenv("PTXRUN_ROOT");
    char command[1024], path[512], full[1200];
    snprintf(command, sizeof command, "cd '%s' && find tests samples -name '*.ptx' | sort", root ? root : ".");
    FILE *list = popen(command, "r");
    ck_assert(list != NULL);
    unsigned files = 0;
    while (fgets(path, sizeof path, list)) {
        path[strcspn(path, "\n")] = '\0';
        snprintf(full, sizeof full, "%s/%s", root ? root : ".", path);
        size_t len;
        char *text = read_all(full, &len);
        parses_alike(path, text, len);
        files++;
        free(text);
    }
    pclose(list);
    ck_assert_uint_gt(files, 500);
}
END_TEST

/* The forms at the edges of what quick.c takes, and those just past them, which the grammar
 * reads: each in a body of its own, then all in one. */
START_TEST(plain_items_at_their_edges)
{
    static const char *const items[] = {
        "add.s32 %r1, %r2, %r3;", "ret;", "$L__BB0_1:", "$L__BB0_1: ret;", "@%p1 bra $L__BB0_1;",
        "@!%p1 bra $L__BB0_1;", "@%p1 ret;", "@!%p1 ret;", "ld.global.u32 %r1, [%rd1];",
        "ld.global.u32 %r1, [%rd1+16];", "st.global.u32 [%rd1+0x10], %r1;", "mov.b32 %r1, 0f3F800000;",
        "mov.b64 %rd1, 0d3FF0000000000000;", "mov.u64 %rd1, 18446744073709551615;", "mov.u32 %r1, 0xffffffff;",
        "mov.u32 %r1, 017;", "mov.u32 %r1, 0b101;", "mov.u32 %r1, 7U;", "mov.f32 %f1, 1.5;",
        "mov.s32 %r1, -1;", "mov.f32 %f1, -0f3F800000;", "mov.s64 %rd1, -9223372036854775808;",
        "mov.u64 %rd1, -18446744073709551615;", "ld.u32 %r1, [%rd1+-4];", "ld.u32 %r1, [%rd1+-0x8000000000000000];",
        "setp.eq.s32 %p1|%p2, %r1, %r2;", "shfl.sync.up.b32 %r1|%p1, %r2, 1, 0, -1;",
        "ld.v2.u32 {%r1, %r2}, [%rd1];", "mov.b64 %rd1, {%r1, %r2};", "st.v4.u32 [%rd1+8], {%r1, %r2, %r3, %r4};",
        "mov.b32 {%r1}, %r2;", "mov.b64 {%r1, _}, %rd1;",
        /* past the edges: the grammar reads them */
        "ld.u32 %r1, [%rd1-4];", "ld.u32 %r1, [16];", "ld.u32 %r1, [%rd1+-%r2];", "ld.u32 %r1, [%rd1+4*2];",
        "ld.u32 %r1, [%rd1].unified;", "mov.u32 %r1, 1+2;", "mov.u32 %r1, (3);", "mov.s32 %r1, -1*2;",
        "mov.s32 %r1, --1;", "mov.s32 %r1, - 0f3F800000 + 1;", "mov.u64 %rd1, arr+8;", "mov.u64 %rd1, arr[2];",
        "not.pred %p1, !%p2;", "neg.s32 %r1, -%r2;", "mov.b64 %rd1, {%r1, 2};", "mov.b64 %rd1, {};",
        "mov.b64 %rd1, {%r1 %r2};", "mov.b64 {%r1, %r2}|%p1, %rd1;", "setp.eq.s32 %p1|%p2|%p3, %r1, %r2;",
        "setp.eq.s32 %p1|, %r1, %r2;", "call.uni (r), f, (a, b);",
        "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, {%f5, %f6}];", "add.s32 %r1, %r2, %r3 // the end\n;",
        "add.s32 /* a */ %r1 /* b */, %r2, %r3;", "add.s32\n%r1,\n%r2,\n%r3\n;", "{ add.s32 %r1, %r2, %r3; }",
        "{ $L1: ret; } ret;", "mov.u32 %r1, %tid.x;", "mov.u32 %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, "
        "%r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26;",
        ".pragma \"nounroll\"; add.s32 %r1, %r2, %r3;", ".loc 1 2 3\nadd.s32 %r1, %r2, %r3;",
    };
    static const char head[] = ".version 8.0\n.target sm_90\n.address_size 64\n.global .b32 arr[4];\n"
                               ".func (.param .b32 r) f (.param .b32 a, .param .b32 b) { ret; }\n"
                               ".global .texref t;\n.entry k(.param .u64 p) {\n"
                               ".reg .b32 %r<40>; .reg .b64 %rd<4>; .reg .pred %p<4>; .reg .f32 %f<8>;\n"
                               ".param .b32 r; .param .b32 a; .param .b32 b;\n"
                               "mov.u32 %r1, %r2;\n";
    char text[8192], all[16384];
    snprintf(all, sizeof all, "%s", head);
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        snprintf(text, sizeof text, "%s%s\n}\n", head, items[i]);
        parses_alike(items[i], text, strlen(text));
        strncat(all, items[i], sizeof all - strlen(all) - 1);
        strncat(all, "\n", sizeof all - strlen(all) - 1);
    }
    strncat(all, "}\n", sizeof all - strlen(all) - 1);
    parses_alike("all of them", all, strlen(all));
    /* declarations: at the top level, then in a body */
    static const char *const top[] = {
        ".global .b32 g;", ".visible .global .align 4 .u32 g;", ".extern .shared .align 16 .b8 s[];",
        ".global .b8 a[2][3];", ".global .b8 a[][2];", ".global .b8 a[][2] = {1, 2, 3, 4};", ".const .f32 c = 0f3F800000;",
        ".global .s32 n = -5;", ".global .u32 l[3] = {1, -2, 3};", ".global .f64 d[2] = {1.5, -0d3FF0000000000000};",
        ".weak .global .u64 w;", ".visible .weak .global .u32 vw;", ".global .v4 .f32 v;", ".global .texref t2;",
        ".shared .b32 s2;", ".global .align 1 .b8 _ZN4cuda3std3__45__cpo5beginE[1];", ".global .u32 big = 18446744073709551615;",
        /* past the edges */
        ".global .u64 p = f;", ".global .u32 a, b;", ".global .u32 a = 1 + 2;", ".global .u32 l[2] = {{1}, {2}};",
        ".global .attribute(.managed) .u32 m;", ".global .u32 r<4>;", ".global .u64 q[2] = {f, 0};",
        ".global .u32 x = (1);", ".global .u32 y = -(1);", ".global .u32 e[5] = {1+1, 2*3, ~1, 1?2:3, -5};",
        ".global .u32 z[2] = {1, 1 << 2};", ".global .f32 h[2] = {-1.5, 2.0*3.0};", ".global .u64 o = w+2*4;",
        ".global .f32 bad = 1;", ".global .f32 neg = -0f3F800000;",
    };
    static const char *const inner[] = {
        ".reg .b32 %q<3>;", ".reg .pred %pq;", ".local .align 8 .b8 depot[16];", ".shared .align 4 .b8 sm[128];",
        ".param .b64 pp;", ".reg .v2 .f32 %vv;", ".reg .b32 %x = 5;", ".local .u32 la[2] = {1, 2};",
        ".reg .b32 %s1, %s2;", ".reg .b32 %t<2>, %u;",
    };
    static const char module_head[] = ".version 8.0\n.target sm_90\n.address_size 64\n";
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++) {   /* (the first after a ';': quick.c's) */
        snprintf(text, sizeof text, "%s.global .b32 first;\n%s\n%s}\n", module_head, top[i], head + strlen(module_head));
        parses_alike(top[i], text, strlen(text));
    }
    for (size_t i = 0; i < sizeof inner / sizeof inner[0]; i++) {
        snprintf(text, sizeof text, "%s%s\nret;\n}\n", head, inner[i]);
        parses_alike(inner[i], text, strlen(text));
    }
    /* mistakes in and after plain items: both find one */
    static const char *const wrong[] = { "add.s32 %r1, %r2 %r3;", "add.s32 %r1, %r2,;", "add.s32 %r1 %r2;",
                                         "@ bra $L1;", "@%p1;", "ld.u32 %r1, [%rd1+];", "ld.u32 %r1, [];",
                                         "add.s32 %r1, %r2, %r3", "$L1: $L2:: ret;", "ret; ;;; add %r1, 0x;",
                                         "mov.b64 %rd1, {%r1, %r2;", "mov.b64 %rd1, %r1, %r2};", "mov.s32 %r1, -;",
                                         "ld.u32 %r1, [%rd1+-];", "setp.eq.s32 %p1|%p2 %r1;", "{ add.s32 %r1, %r2;",
                                         ".reg .b32;", ".reg %r9;", ".reg .b32 %r9[;", ".reg .b32 %r9 = ;",
                                         ".reg .b32 %r9 = {1,};", ".reg .b32 %r9 = {1 2};", ".reg .b32 %r<>;",
                                         ".reg .b32 %r<3;", ".local .u32 la[2] = {};", ".global .u32 late;" };
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        snprintf(text, sizeof text, "%s%s\n}\n", head, wrong[i]);
        parses_alike(wrong[i], text, strlen(text));
    }
}
END_TEST

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
    tcase_add_test(tc, plain_items_build_what_the_grammar_builds);
    tcase_add_test(tc, plain_items_at_their_edges);
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
