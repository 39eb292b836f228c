/* fuzz_pipeline.c: libFuzzer target for the whole pipeline on small programs: parse, check,
 * load, run at most 10000 warp-steps with every kernel parameter zero, print the state as a
 * table and as JSON. A program that mentions a CTA barrier or %warpid runs as a block of 48
 * threads (two warps, the second partial) in a grid of 2 CTAs. Build with `make fuzz`. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void ignore_diag(void *context, Diag *diag, DiagLevel level, Span at, const char *message)
{
    (void)context; (void)diag; (void)level; (void)at; (void)message;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;                              /* small programs: many runs a second */
    Source src;
    source_from_string(&src, "fuzz.ptx", (const char *)data, size);
    Diag diag;
    diag_init(&diag, &src, stderr);
    diag.emit = ignore_diag;
    Module *m = parse_module(&src, &diag);
    check_module(m, &diag, NULL);
    Function *fn = diag.errors ? NULL : lower_entry(m, NULL);
    Block *w = fn ? block_load(m, fn, &diag, DEFAULT_STACK_BYTES) : NULL;
    if (w) {
        for (uint32_t i = 0; i < w->mem.count; i++)       /* parameters: zero, defined */
            if (w->mem.regions[i].kernel_param)
                memset(w->mem.regions[i].shadow, 1, w->mem.regions[i].size);
        Msg err = { 0 };
        uint32_t block[3] = { 48, 1, 1 }, grid[3] = { 2, 1, 1 };
        if ((strstr(src.text, "bar") || strstr(src.text, "%warpid")) && block_fits(w, block, &err)) {
            block_set_shape(w, block, ALL_LANES);
            block_set_grid(w, grid);
        }
        msg_free(&err);
        ExecOptions options = { .max_steps = 10000 };
        grid_run(w, &options, (char[256]){ 0 }, 256);
        FILE *out = fopen("/dev/null", "w");
        if (out) {
            dump_print_table(out, w, NULL);
            dump_print_json(out, w, NULL, 0, NULL, NULL);
            fclose(out);
        }
        block_free(w);
    }
    module_free(m);
    source_free(&src);
    return 0;
}
