/* fuzz_lanes.c: libFuzzer target for the lanes-file loader and the --expect comparison. The
 * input is the JSON; the program is fixed and has registers and predicates of every width and
 * class and a kernel parameter, so every value path is reachable. Build with `make fuzz`. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char program[] =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1, .param .f32 k_param_2)\n{\n"
    ".reg .b8 b8; .reg .u16 u16; .reg .s16 s16; .reg .b16 h; .reg .u32 u32; .reg .s32 s32; .reg .f32 f32;\n"
    ".reg .b32 b32; .reg .u64 u64; .reg .s64 s64; .reg .f64 f64; .reg .b64 b64; .reg .pred p;\n"
    ".local .u32 loc[4]; .shared .u32 sh[4];\n"
    "mov.u32 u32, %laneid;\nst.local.u32 [loc], u32;\nst.shared.u32 [sh], u32;\nbar.sync 0;\n"
    "ld.local.u32 s32, [loc];\nret;\n}\n";

static void ignore_diag(void *context, Diag *diag, DiagLevel level, Span at, const char *message)
{
    (void)context; (void)diag; (void)level; (void)at; (void)message;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/ptxrun-fuzz-lanes-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    FILE *f = fdopen(fd, "wb");
    fwrite(data, 1, size, f);
    fclose(f);

    Source src;
    source_from_string(&src, "k.ptx", program, sizeof program - 1);
    Diag diag;
    diag_init(&diag, &src, stderr);
    diag.emit = ignore_diag;
    Module *m = parse_module(&src, &diag);
    check_module(m, &diag, NULL);
    Block *w = block_load(m, lower_entry(m, NULL), &diag, DEFAULT_STACK_BYTES);
    Msg err = { 0 };
    /* CUDA's grids reach 2^63 CTAs: a larger one than the old limit only takes longer to run */
    if (w && lanes_load(w, path, NULL, &err) >= 0 && block_cta_count(w) <= 1 << 16) {
        ExecOptions options = { .max_steps = 100 };
        grid_run(w, &options, (char[256]){ 0 }, 256);
        FILE *out = fopen("/dev/null", "w");
        if (out) {
            uint64_t buffer_bytes = 0;         /* listing millions of values is slow, not interesting */
            for (uint32_t i = 0; i < w->mem.count; i++)
                buffer_bytes += w->mem.regions[i].is_buffer ? w->mem.regions[i].size : 0;
            dump_print_table(out, w, NULL);
            if (buffer_bytes <= 1 << 20)
                dump_print_json(out, w, NULL, 0, NULL, NULL);
            expect_compare(out, w, path, NULL, &err);
            fclose(out);
        }
    }
    msg_free(&err);
    block_free(w);
    module_free(m);
    source_free(&src);
    unlink(path);
    return 0;
}
