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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Source src;
    source_from_string(&src, "fuzz.ptx", (const char *)data, size);
    Diag diag;
    Said whole = { 0, 0 }, streamed = { 0, 0 };
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

    diag_init(&diag, &src, stderr);
    diag.emit = ignore_diag;
    diag.context = &streamed;
    m = checkstream_module(&src, &diag, NULL, 1);
    if (m && (whole_errors || diag.errors || whole.count != streamed.count || whole.sum != streamed.sum)) {
        fprintf(stderr, "fuzz_frontend: streamed --check said %u messages (%u errors), the whole check %u (%u errors)\n",
                streamed.count, diag.errors, whole.count, whole_errors);
        abort();
    }
    module_free(m);

    /* Two readers on threads: where they answer, they say what the whole check says. */
    Said split = { 0, 0 };
    diag_init(&diag, &src, stderr);
    diag.emit = ignore_diag;
    diag.context = &split;
    m = checkstream_module(&src, &diag, NULL, 2);
    if (m && (whole_errors || diag.errors || whole.count != split.count || whole.sum != split.sum)) {
        fprintf(stderr, "fuzz_frontend: --check by two readers said %u messages (%u errors), the whole check %u (%u errors)\n",
                split.count, diag.errors, whole.count, whole_errors);
        abort();
    }
    module_free(m);
    source_free(&src);
    return 0;
}
