/* fuzz_frontend.c: libFuzzer target for the front end. Any input must lex, parse, check and
 * print without crashing, leaking or tripping the sanitizers; the streaming parser (which reads
 * plain items its own way, quick.c) must build the bodies parse_module builds, and find a mistake
 * where it finds one; and where --check's streamed path (checkstream.c), by one reader or by two
 * on threads, answers, it must say what the whole-module check says (the same messages, in any
 * order: the driver sorts them) with no errors. Build with `make fuzz`. */
#include <stdlib.h>

#include "cli.h"

/* An order-free digest of the messages: their count and a sum of hashes of each. */
typedef struct Said {
    uint64_t sum;
    uint32_t count;
} Said;

static void ignore_diag(void *context, Diag *diag, DiagLevel level, Span at, const char *message)
{
    Said *said = context;
    uint32_t line, column;
    source_position(diag->src, at.offset, &line, &column);   /* exercise the line map too */
    uint64_t h = 1469598103934665603u ^ level ^ ((uint64_t)at.offset << 8) ^ ((uint64_t)at.length << 40);
    for (const char *p = message; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211u;
    said->sum += h;
    said->count++;
}

/* --check one function at a time by `readers` readers: where it answers, it must say what the
 * whole check said (whole, whole_errors), with no errors. */
static void streamed_agrees(Source *src, unsigned readers, const Said *whole, uint32_t whole_errors)
{
    Said said = { 0, 0 };
    Diag diag;
    diag_init(&diag, src, stderr);
    diag.emit = ignore_diag;
    diag.context = &said;
    Module *m = checkstream_module(src, &diag, NULL, readers, true);
    if (m && (whole_errors || diag.errors || whole->count != said.count || whole->sum != said.sum)) {
        fprintf(stderr, "fuzz_frontend: --check by %u reader%s said %u messages (%u errors), the whole check %u (%u errors)\n",
                readers, readers == 1 ? "" : "s", said.count, diag.errors, whole->count, whole_errors);
        abort();
    }
    module_free(m);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 1099511628211u;
}

static uint64_t text_digest(uint64_t h, const char *s)
{
    for (; s && *s; s++)
        h = mix(h, (unsigned char)*s);
    return mix(h, 0x100);
}

static uint64_t operand_digest(uint64_t h, const Operand *o)
{
    h = mix(mix(mix(mix(mix(h, o->kind), o->flags), o->count), o->component), o->select);
    h = mix(mix(h, o->at.offset), o->at.length);
    if (o->kind == OPND_NAME)
        return mix(mix(text_digest(h, o->u.ref.name), (uint64_t)o->u.ref.offset), o->u.ref.target);
    if (o->kind == OPND_ADDR || o->kind == OPND_VEC || o->kind == OPND_PAIR || o->kind == OPND_LIST) {
        h = mix(h, (uint64_t)o->u.group.offset);
        for (uint16_t i = 0; i < o->count; i++)
            h = operand_digest(h, &o->u.group.elems[i]);
        return h;
    }
    return mix(h, o->u.bits);
}

static uint64_t init_digest(uint64_t h, const Init *v)
{
    if (!v)
        return mix(h, 0x200);
    h = mix(mix(mix(mix(mix(h, v->kind), v->negative), v->count), v->bits), (uint64_t)v->offset);
    h = mix(mix(text_digest(h, v->name), v->at.offset), v->at.length);
    uint32_t n = v->kind == INIT_LIST ? v->count : v->kind == INIT_FIELD ? 1 : 0;
    for (uint32_t i = 0; i < n; i++)
        h = init_digest(h, &v->elems[i]);
    return h;
}

static uint64_t decls_digest(uint64_t h, const Decl *d, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++, d++) {
        h = mix(mix(mix(mix(mix(text_digest(h, d->name), d->space), d->linkage), d->type), d->vector), d->dim_count);
        h = mix(mix(mix(mix(mix(h, d->is_ptr), d->ptr_space), d->align), d->ptr_align), d->range);
        h = mix(mix(mix(mix(h, d->has_range), d->handle_space), d->at.offset), d->at.length);
        for (uint32_t k = 0; k < d->dim_count; k++)
            h = mix(h, (uint64_t)d->dims[k]);
        for (uint32_t k = 0; k < d->attr_count; k++)
            h = text_digest(h, d->attrs[k]);
        h = init_digest(h, d->init);
    }
    return h;
}

/* The module's top level and declarations, and every function's declarations, statements,
 * items and labels as parsed (names as text). */
static uint64_t bodies_digest(const Module *m)
{
    uint64_t h = 1469598103934665603u;
    for (uint32_t i = 0; i < m->top.len; i++)
        h = mix(mix(h, m->top.data[i].kind), m->top.data[i].index);
    h = decls_digest(h, m->globals.data, m->globals.len);
    for (uint32_t i = 0; i < m->functions.len; i++) {
        const Function *f = m->functions.data[i];
        h = mix(mix(mix(text_digest(h, f->name), f->code.len), f->items.len), f->labels.len);
        h = decls_digest(h, f->params.data, f->params.len);
        h = decls_digest(h, f->returns.data, f->returns.len);
        h = decls_digest(h, f->decls.data, f->decls.len);
        for (uint32_t k = 0; k < f->items.len; k++)
            h = text_digest(mix(mix(h, f->items.data[k].kind), f->items.data[k].index), f->items.data[k].text);
        for (uint32_t k = 0; k < f->labels.len; k++)
            h = mix(mix(text_digest(h, f->labels.data[k].name), f->labels.data[k].target), f->labels.data[k].at.offset);
        for (uint32_t k = 0; k < f->code.len; k++) {
            const Instr *x = &f->code.data[k];
            h = mix(mix(text_digest(h, x->mnemonic), x->at.offset), x->at.length);
            h = mix(mix(mix(h, x->stmt_at.offset), x->stmt_at.length), x->guard_kind);
            h = mix(mix(mix(mix(text_digest(h, x->guard_name), x->guard_offset), x->loc_line), x->loc_file), x->loc_col);
            for (uint16_t o = 0; o < x->operand_count; o++)
                h = operand_digest(h, &x->operands[o]);
        }
    }
    return h;
}

static StreamVerdict keep_every_function(void *context, Module *m, Function *f)
{
    (void)context, (void)m, (void)f;
    return STREAM_KEEP;
}

/* The streaming parser, every function kept: parse_module's module (digest), or a mistake where
 * parse_module found one. */
static void stream_parses_alike(Source *src, uint64_t digest, uint32_t whole_errors)
{
    Said said = { 0, 0 };
    Diag diag;
    diag_init(&diag, src, stderr);
    diag.emit = ignore_diag;
    diag.context = &said;
    StreamHook hook = { keep_every_function, NULL, NULL };
    bool stopped = false;
    Module *m = parse_module_stream(src, &diag, &hook, &stopped);
    if (whole_errors ? diag.errors == 0 : diag.errors != 0 || bodies_digest(m) != digest) {
        fprintf(stderr, "fuzz_frontend: the streaming parser built other bodies (%u errors) than parse_module (%u)\n",
                diag.errors, whole_errors);
        abort();
    }
    module_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Source src;
    source_from_string(&src, "fuzz.ptx", (const char *)data, size);
    Diag diag;
    Said whole = { 0, 0 };
    diag_init(&diag, &src, stderr);
    diag.emit = ignore_diag;
    diag.context = &whole;
    Module *m = parse_module(&src, &diag);
    uint32_t parse_errors = diag.errors;
    uint64_t digest = bodies_digest(m);
    check_module(m, &diag, NULL);
    if (diag.errors == 0) {
        FILE *out = fopen("/dev/null", "w");
        if (out) {
            ir_print_module(out, m);
            fclose(out);
        }
        lower_check_all(m, &diag);
    }
    uint32_t whole_errors = diag.errors;
    module_free(m);
    stream_parses_alike(&src, digest, parse_errors);
    streamed_agrees(&src, 1, &whole, whole_errors);
    streamed_agrees(&src, 2, &whole, whole_errors);    /* two readers, on threads */
    source_free(&src);
    return 0;
}
