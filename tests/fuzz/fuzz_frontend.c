/* fuzz_frontend.c: libFuzzer target for the front end. Any input must lex, parse, check and
 * print without crashing, leaking or tripping the sanitizers; and where --check's streamed path
 * (checkstream.c), by one reader or by two on threads, answers, it must say what the whole-module
 * check says (the same messages, in any order: the driver sorts them) with no errors. Build with
 * `make fuzz`. */
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
    streamed_agrees(&src, 1, &whole, whole_errors);
    streamed_agrees(&src, 2, &whole, whole_errors);    /* two readers, on threads */
    source_free(&src);
    return 0;
}
