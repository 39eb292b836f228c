/* fuzz_frontend.c: libFuzzer target for the front end. Any input must lex, parse, check and
 * print without crashing, leaking or tripping the sanitizers. Build with `make fuzz`. */
#include <stdlib.h>

#include "cli.h"

static void ignore_diag(void *context, Diag *diag, DiagLevel level, Span at, const char *message)
{
    (void)context; (void)level; (void)message;
    uint32_t line, column;
    source_position(diag->src, at.offset, &line, &column);   /* exercise the line map too */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Source src;
    source_from_string(&src, "fuzz.ptx", (const char *)data, size);
    Diag diag;
    diag_init(&diag, &src, stderr);
    diag.emit = ignore_diag;
    Module *m = parse_module(&src, &diag);
    check_module(m, &diag, NULL);
    if (diag.errors == 0) {
        FILE *out = fopen("/dev/null", "w");
        if (out) {
            ir_print_module(out, m);
            fclose(out);
        }
    }
    module_free(m);
    source_free(&src);
    return 0;
}
