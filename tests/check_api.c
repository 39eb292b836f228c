/* check_api.c: libptxrun through its public header alone (ptxrun.h), linked against the public
 * static library build/lib/libptxrun.a, so that what it exports is shown to be enough. Each
 * expected value is computed here in plain C from the same inputs. The 8-thread cases also run
 * under ThreadSanitizer (make tsan-tests), the whole suite under valgrind and ASan/UBSan. */
#define _GNU_SOURCE                  /* MAP_ANONYMOUS, pthread_barrier */
#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ptxrun.h"

/* ---- what the callbacks got ---- */

typedef struct Log {
    char text[32768];                /* every diagnostic's text, one after another */
    size_t len;
    unsigned errors, warnings, notes;
    unsigned line, column;           /* the first error's place */
    char message[512];               /* the first error's message */
    char cuda_file[256];
    unsigned cuda_line, cuda_column;
    char out[8192];                  /* printed text (PTXRUN_PRINT_OUT) */
    size_t out_len;
    unsigned prints;
    size_t trace_len;
    char trace[4096];                /* the trace's first bytes */
} Log;

static void on_diag(void *context, const ptxrun_diagnostic *d)
{
    Log *log = context;
    size_t n = strlen(d->text);
    if (log->len + n < sizeof log->text) {
        memcpy(log->text + log->len, d->text, n + 1);
        log->len += n;
    }
    if (d->level == PTXRUN_WARNING)
        log->warnings++;
    else if (d->level == PTXRUN_NOTE)
        log->notes++;
    else if (log->errors++ == 0) {
        log->line = d->line;
        log->column = d->column;
        snprintf(log->message, sizeof log->message, "%s", d->message);
        if (d->cuda_file) {
            snprintf(log->cuda_file, sizeof log->cuda_file, "%s", d->cuda_file);
            log->cuda_line = d->cuda_line;
            log->cuda_column = d->cuda_column;
        }
    }
}

static void on_print(void *context, int stream, const char *text, size_t len)
{
    Log *log = context;
    log->prints++;
    if (stream == PTXRUN_PRINT_OUT && log->out_len + len < sizeof log->out) {
        memcpy(log->out + log->out_len, text, len);
        log->out_len += len;
        log->out[log->out_len] = '\0';
    }
}

static void on_trace(void *context, const char *text, size_t len)
{
    Log *log = context;
    if (log->trace_len + len < sizeof log->trace) {
        memcpy(log->trace + log->trace_len, text, len);
        log->trace[log->trace_len + len] = '\0';
    }
    log->trace_len += len;
}

static ptxrun_callbacks logged(Log *log)
{
    return (ptxrun_callbacks){ on_diag, on_print, NULL, log };
}

/* ---- modules ---- */

static char *read_text(const char *path)
{
    const char *root = getenv("PTXRUN_ROOT");
    char full[4096];
    snprintf(full, sizeof full, "%s/%s", root ? root : ".", path);
    FILE *f = fopen(full, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", full);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    return text;
}

static ptxrun_module *load_named(const char *text, const char *name, Log *log)
{
    ptxrun_module_options o = { 0 };
    o.name = name;
    if (log)
        o.callbacks = logged(log);
    ptxrun_module *m = NULL;
    ptxrun_status s = ptxrun_module_load(text, strlen(text), &o, &m);
    ck_assert_msg(s == PTXRUN_OK, "load: %s\n%s", ptxrun_status_name(s), log ? log->text : "");
    ck_assert_ptr_nonnull(m);
    return m;
}

static ptxrun_kernel *kernel(ptxrun_module *m, const char *name)
{
    ptxrun_kernel *k = NULL;
    ptxrun_status s = ptxrun_module_kernel(m, name, &k);
    ck_assert_msg(s == PTXRUN_OK, "kernel %s: %s", name ? name : "(first)", ptxrun_status_name(s));
    return k;
}

/* The 1-based line and column of the first occurrence of needle in text (the place an independent
 * reader of the PTX gives the instruction). */
static void place_of(const char *text, const char *needle, unsigned *line, unsigned *column)
{
    const char *at = strstr(text, needle);
    ck_assert_msg(at != NULL, "'%s' is not in the text", needle);
    *line = 1;
    const char *start = text;
    for (const char *p = text; p < at; p++)
        if (*p == '\n') {
            ++*line;
            start = p + 1;
        }
    *column = (unsigned)(at - start) + 1;
}

#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* out[global linear thread index] = its thread and CTA coordinates, packed, xor salt. */
static const char index3d_ptx[] = HEAD
    ".visible .entry index3d(.param .u64 out, .param .u32 salt)\n"
    "{\n"
    "    .reg .b32 %r<24>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    ld.param.u32 %r20, [salt];\n"
    "    mov.u32 %r1, %tid.x;\n    mov.u32 %r2, %tid.y;\n    mov.u32 %r3, %tid.z;\n"
    "    mov.u32 %r4, %ntid.x;\n    mov.u32 %r5, %ntid.y;\n    mov.u32 %r6, %ntid.z;\n"
    "    mov.u32 %r7, %ctaid.x;\n    mov.u32 %r8, %ctaid.y;\n    mov.u32 %r9, %ctaid.z;\n"
    "    mov.u32 %r10, %nctaid.x;\n    mov.u32 %r11, %nctaid.y;\n"
    "    mad.lo.u32 %r12, %r9, %r11, %r8;\n"
    "    mad.lo.u32 %r12, %r12, %r10, %r7;\n"
    "    mad.lo.u32 %r13, %r3, %r5, %r2;\n"
    "    mad.lo.u32 %r13, %r13, %r4, %r1;\n"
    "    mul.lo.u32 %r14, %r4, %r5;\n"
    "    mul.lo.u32 %r14, %r14, %r6;\n"
    "    mad.lo.u32 %r15, %r12, %r14, %r13;\n"
    "    shl.b32 %r16, %r2, 6;\n    or.b32 %r16, %r16, %r1;\n"
    "    shl.b32 %r17, %r3, 12;\n    or.b32 %r16, %r16, %r17;\n"
    "    shl.b32 %r17, %r7, 16;\n    or.b32 %r16, %r16, %r17;\n"
    "    shl.b32 %r17, %r8, 21;\n    or.b32 %r16, %r16, %r17;\n"
    "    shl.b32 %r17, %r9, 26;\n    or.b32 %r16, %r16, %r17;\n"
    "    xor.b32 %r16, %r16, %r20;\n"
    "    mul.wide.u32 %rd2, %r15, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    st.global.u32 [%rd3], %r16;\n"
    "    ret;\n"
    "}\n";

static uint32_t pack3d(unsigned tx, unsigned ty, unsigned tz, unsigned cx, unsigned cy, unsigned cz)
{
    return tx | ty << 6 | tz << 12 | cx << 16 | cy << 21 | cz << 26;
}

/* dst[0] = src[0] (one thread): a load from one address, a store to another. */
static const char copy_ptx[] = HEAD
    ".visible .entry copy(.param .u64 src, .param .u64 dst)\n"
    "{\n"
    "    .reg .b32 %r<2>;\n"
    "    .reg .b64 %rd<3>;\n"
    "    ld.param.u64 %rd1, [src];\n"
    "    ld.param.u64 %rd2, [dst];\n"
    "    ld.global.u32 %r1, [%rd1];\n"
    "    st.global.u32 [%rd2], %r1;\n"
    "    ret;\n"
    "}\n";

/* A module variable each launch of bump adds 1 to (one thread), and peek reads. */
static const char counter_ptx[] = HEAD
    ".global .align 4 .u32 counter = 10;\n"
    ".visible .entry bump(.param .u64 out)\n"
    "{\n"
    "    .reg .b32 %r<2>;\n"
    "    .reg .b64 %rd<2>;\n"
    "    ld.global.u32 %r1, [counter];\n"
    "    add.u32 %r1, %r1, 1;\n"
    "    st.global.u32 [counter], %r1;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    st.global.u32 [%rd1], %r1;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry peek(.param .u64 out)\n"
    "{\n"
    "    .reg .b32 %r<2>;\n"
    "    .reg .b64 %rd<2>;\n"
    "    ld.global.u32 %r1, [counter];\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    st.global.u32 [%rd1], %r1;\n"
    "    ret;\n"
    "}\n";

static ptxrun_status launch1(ptxrun_kernel *k, void **args, const ptxrun_buffer *bufs, size_t count, Log *log,
                             ptxrun_result **r)
{
    ptxrun_launch_options o = { 0 };
    o.buffers = bufs;
    o.buffer_count = count;
    if (log)
        o.callbacks = logged(log);
    return ptxrun_launch(k, args, &o, r);
}

/* ---- saxpy (nvcc's, samples/saxpy.ptx) over the caller's buffers ---- */

static void run_saxpy(ptxrun_kernel *k, int n, float a, const float *x, float *y, unsigned block, unsigned grid,
                      unsigned jobs)
{
    ptxrun_buffer bufs[2] = { { (void *)x, n * sizeof *x, 1 }, { y, n * sizeof *y, 0 } };
    void *args[4] = { &n, &a, &x, &y };
    ptxrun_launch_options o = { { grid, 1, 1 }, { block, 1, 1 }, 0, bufs, 2, 0, 0, 0, jobs, { 0 }, { 0, 0, 0 }, 0 };
    Log log = { 0 };
    o.callbacks = logged(&log);
    ptxrun_status s = ptxrun_launch(k, args, &o, NULL);
    ck_assert_msg(s == PTXRUN_OK, "saxpy n=%d %ux%u: %s\n%s", n, grid, block, ptxrun_status_name(s), log.text);
    ck_assert_uint_eq(log.errors, 0);
}

START_TEST(test_saxpy_shapes)
{
    static const struct { int n; unsigned block, grid; } shapes[] = {
        { 1000, 128, 8 },     /* 24 threads past n in the last CTA */
        { 150, 50, 3 },       /* a partial last warp in every CTA */
        { 7, 1, 7 },
        { 100, 32, 5 },
        { 1, 1, 1 },
    };
    char *text = read_text("samples/saxpy.ptx");
    ptxrun_module *m = load_named(text, "saxpy.ptx", NULL);
    ptxrun_kernel *k = kernel(m, "saxpy");
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        int n = shapes[s].n;
        /* Inputs whose products are not exact: fma's one rounding differs from mul's and add's. */
        float a = (1.0f + (float)s) / 3.0f, *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y),
              *want = malloc(n * sizeof *y);
        for (int i = 0; i < n; i++) {
            x[i] = 1.0f / (float)(i + 3);
            y[i] = (float)i * 0.1f - 1.0f;
            want[i] = fmaf(x[i], a, y[i]);          /* the kernel's fma.rn.f32 */
        }
        run_saxpy(k, n, a, x, y, shapes[s].block, shapes[s].grid, 1);
        ck_assert_msg(!memcmp(y, want, n * sizeof *y), "saxpy shape %zu", s);
        free(x);
        free(y);
        free(want);
    }
    ptxrun_module_free(m);
    free(text);
}
END_TEST

START_TEST(test_shapes_3d)
{
    static const unsigned shapes[][6] = {
        { 8, 4, 2, 3, 2, 2 },
        { 5, 3, 3, 2, 1, 3 },     /* 45 threads: a partial second warp */
        { 33, 1, 1, 1, 1, 1 },
        { 1, 1, 1, 4, 3, 2 },
        { 2, 16, 2, 1, 2, 1 },
    };
    ptxrun_module *m = load_named(index3d_ptx, "index3d", NULL);
    ptxrun_kernel *k = kernel(m, "index3d");
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        const unsigned *sh = shapes[s];
        size_t total = (size_t)sh[0] * sh[1] * sh[2] * sh[3] * sh[4] * sh[5];
        uint32_t *out = malloc((total + 4) * sizeof *out), *want = malloc((total + 4) * sizeof *out);
        for (size_t i = 0; i < total + 4; i++)
            out[i] = want[i] = 0xdeadbeef;
        uint32_t salt = 0x5a5a0000u + (uint32_t)s;
        size_t idx = 0;
        for (unsigned cz = 0; cz < sh[5]; cz++)
            for (unsigned cy = 0; cy < sh[4]; cy++)
                for (unsigned cx = 0; cx < sh[3]; cx++)
                    for (unsigned tz = 0; tz < sh[2]; tz++)
                        for (unsigned ty = 0; ty < sh[1]; ty++)
                            for (unsigned tx = 0; tx < sh[0]; tx++)
                                want[idx++] = pack3d(tx, ty, tz, cx, cy, cz) ^ salt;
        ptxrun_buffer buf = { out, (total + 4) * sizeof *out, 0 };
        void *args[2] = { &out, &salt };
        ptxrun_launch_options o = { { sh[3], sh[4], sh[5] }, { sh[0], sh[1], sh[2] }, 0, &buf, 1, 0, 0, 0, 0, { 0 },
                                    { 0, 0, 0 }, 0 };
        ck_assert_int_eq(ptxrun_launch(k, args, &o, NULL), PTXRUN_OK);
        for (size_t i = 0; i < total + 4; i++)
            ck_assert_msg(out[i] == want[i], "shape %zu: out[%zu] = %#x, not %#x", s, i, out[i], want[i]);
        free(out);
        free(want);
    }
    ptxrun_module_free(m);
}
END_TEST

START_TEST(test_twice)
{
    char *text = read_text("samples/saxpy.ptx");
    ptxrun_module *m = load_named(text, "saxpy.ptx", NULL);
    ptxrun_kernel *k = kernel(m, "saxpy"), *again = kernel(m, "_Z5saxpyifPKfPf");
    ck_assert_ptr_eq(k, again);                  /* one kernel, lowered once */
    enum { N = 300 };
    float x[N], y[N], want[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 17) - 8.5f;
        y[i] = (float)i;
        want[i] = fmaf(x[i], -0.75f, fmaf(x[i], 2.0f, y[i]));
    }
    run_saxpy(k, N, 2.0f, x, y, 64, 5, 1);
    run_saxpy(again, N, -0.75f, x, y, 256, 2, 1);
    ck_assert(!memcmp(y, want, sizeof y));
    ptxrun_module_free(m);
    free(text);
}
END_TEST

/* CUDA keeps what a kernel writes to a module's .global variable for the module's next launches,
 * of the same kernel or another; another module of the same text has its own. */
START_TEST(test_module_variables_kept)
{
    ptxrun_module *m = load_named(counter_ptx, "counter", NULL), *other = load_named(counter_ptx, "counter", NULL);
    ptxrun_kernel *bump = kernel(m, "bump"), *peek = kernel(m, "peek");
    uint32_t out = 0, *p = &out;
    ptxrun_buffer buf = { &out, sizeof out, 0 };
    void *args[1] = { &p };
    ptxrun_status s = ptxrun_launch(peek, args, &(ptxrun_launch_options){ .buffers = &buf, .buffer_count = 1 }, NULL);
    ck_assert_int_eq(s, PTXRUN_OK);
    ck_assert_uint_eq(out, 10);                  /* the initial value */
    for (uint32_t want = 11; want <= 13; want++) {
        ck_assert_int_eq(launch1(bump, args, &buf, 1, NULL, NULL), PTXRUN_OK);
        ck_assert_uint_eq(out, want);
    }
    ck_assert_int_eq(launch1(peek, args, &buf, 1, NULL, NULL), PTXRUN_OK);
    ck_assert_uint_eq(out, 13);
    ck_assert_int_eq(launch1(kernel(other, "bump"), args, &buf, 1, NULL, NULL), PTXRUN_OK);
    ck_assert_uint_eq(out, 11);
    ptxrun_module_free(m);
    ptxrun_module_free(other);
}
END_TEST

/* Two kernels' function-scope .global variables of one name are two variables (ptxas takes them;
 * as a C function's statics): each kernel keeps its own between launches (they were one, matched
 * by name: b went on from a's count). */
START_TEST(test_function_scope_variables_apart)
{
    static const char text[] = HEAD
        ".visible .entry a(.param .u64 out)\n"
        "{\n"
        "    .global .align 4 .u32 count;\n"
        "    .reg .b32 %r<2>;\n"
        "    .reg .b64 %rd<2>;\n"
        "    ld.global.u32 %r1, [count];\n"
        "    add.u32 %r1, %r1, 1;\n"
        "    st.global.u32 [count], %r1;\n"
        "    ld.param.u64 %rd1, [out];\n"
        "    st.global.u32 [%rd1], %r1;\n"
        "    ret;\n"
        "}\n"
        ".visible .entry b(.param .u64 out)\n"
        "{\n"
        "    .global .align 4 .u32 count;\n"
        "    .reg .b32 %r<2>;\n"
        "    .reg .b64 %rd<2>;\n"
        "    ld.global.u32 %r1, [count];\n"
        "    add.u32 %r1, %r1, 100;\n"
        "    st.global.u32 [count], %r1;\n"
        "    ld.param.u64 %rd1, [out];\n"
        "    st.global.u32 [%rd1], %r1;\n"
        "    ret;\n"
        "}\n";
    ptxrun_module *m = load_named(text, "statics", NULL);
    ptxrun_kernel *a = kernel(m, "a"), *b = kernel(m, "b");
    uint32_t out = 0, *p = &out;
    ptxrun_buffer buf = { &out, sizeof out, 0 };
    void *args[1] = { &p };
    ptxrun_kernel *order[5] = { a, a, b, b, a };
    const uint32_t want[5] = { 1, 2, 100, 200, 3 };
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(launch1(order[i], args, &buf, 1, NULL, NULL), PTXRUN_OK);
        ck_assert_uint_eq(out, want[i]);
    }
    ptxrun_module_free(m);
}
END_TEST

START_TEST(test_fault_out_of_buffer)
{
    char *text = read_text("samples/saxpy.ptx");
    ptxrun_module *m = load_named(text, "saxpy.ptx", NULL);
    ptxrun_kernel *k = kernel(m, "saxpy");
    float arr[256];
    for (int i = 0; i < 256; i++)
        arr[i] = (float)i;
    float *x = arr, *y = arr + 128;
    int n = 64;                                  /* buffers of 32: threads 32..63 read past x's */
    float a = 2.0f;
    ptxrun_buffer bufs[2] = { { x, 32 * sizeof *x, 0 }, { y, 32 * sizeof *y, 0 } };
    void *args[4] = { &n, &a, &x, &y };
    Log log = { 0 };
    ptxrun_launch_options o = { { 1, 1, 1 }, { 64, 1, 1 }, 0, bufs, 2, 0, 0, 0, 0, logged(&log), { 0, 0, 0 }, 0 };
    ptxrun_result *r = NULL;
    ck_assert_int_eq(ptxrun_launch(k, args, &o, &r), PTXRUN_ERROR_FAULT);
    ck_assert_int_eq(ptxrun_result_status(r), PTXRUN_ERROR_FAULT);
    ptxrun_result_free(r);
    unsigned line, column;
    place_of(text, "ld.global.f32 \t%f2", &line, &column);
    ck_assert_uint_ge(log.errors, 1);
    ck_assert_uint_eq(log.line, line);
    ck_assert_uint_eq(log.column, column);
    ck_assert_str_eq(log.cuda_file, "/tmp/ptxrun-samples/saxpy.cu");   /* .loc 1 6 9 before it */
    ck_assert_uint_eq(log.cuda_line, 6);
    ck_assert_uint_eq(log.cuda_column, 9);
    char where[64];
    snprintf(where, sizeof where, "saxpy.ptx:%u:%u: error:", line, column);
    ck_assert_msg(strstr(log.text, where) && strstr(log.text, "^") && strstr(log.text, "ld.global.f32"),
                  "the text: %s", log.text);
    for (int i = 32; i < 128; i++)               /* nothing outside the buffers written */
        ck_assert(arr[i] == (float)i && arr[128 + i] == (float)(128 + i));
    ptxrun_module_free(m);
    free(text);
}
END_TEST

START_TEST(test_bad_ptx)
{
    static const char bad[] = HEAD
        ".visible .entry k(.param .u64 p)\n"
        "{\n"
        "    .reg .b32 %r<3>;\n"
        "    add.u32 %r1, %r2;\n"                /* line 7: one source missing */
        "    ret;\n"
        "}\n";
    Log log = { 0 };
    ptxrun_module_options o = { "bad.ptx", 0, 0, logged(&log) };
    ptxrun_module *m = (ptxrun_module *)&log;    /* a load that fails sets it to NULL */
    ck_assert_int_eq(ptxrun_module_load(bad, strlen(bad), &o, &m), PTXRUN_ERROR_INPUT);
    ck_assert_ptr_null(m);
    ck_assert_uint_ge(log.errors, 1);
    ck_assert_uint_eq(log.line, 7);
    ck_assert_uint_eq(log.column, 5);
    ck_assert_msg(strstr(log.text, "bad.ptx:7:5: error:") && strstr(log.text, "^"), "%s", log.text);
    /* A text that ends in the middle of a statement, and one with no kernel. */
    Log log2 = { 0 };
    o.callbacks = logged(&log2);
    ck_assert_int_eq(ptxrun_module_load(bad, 60, &o, &m), PTXRUN_ERROR_INPUT);
    ck_assert_uint_ge(log2.errors, 1);
    ck_assert_uint_ne(log2.line, 0);
    ck_assert_int_eq(ptxrun_module_load(HEAD, strlen(HEAD), NULL, &m), PTXRUN_OK);
    ck_assert_uint_eq(ptxrun_module_kernel_count(m), 0);
    ptxrun_kernel *k = (ptxrun_kernel *)&log;
    ck_assert_int_eq(ptxrun_module_kernel(m, NULL, &k), PTXRUN_ERROR_NOT_FOUND);
    ck_assert_ptr_null(k);
    ptxrun_module_free(m);
}
END_TEST

/* A call of a function without a body cannot be run: refused for the kernel that reaches it,
 * while another kernel of the module loads and runs. */
static const char unsupported_ptx[] = HEAD
    ".extern .func (.param .b32 ret) host_side(.param .b32 x);\n"
    ".func helper()\n"
    "{\n"
    "    .reg .b32 %r<3>;\n"
    "    mov.u32 %r1, 5;\n"
    "    {\n"
    "    .param .b32 x;\n"
    "    .param .b32 ret;\n"
    "    st.param.b32 [x], %r1;\n"
    "    call.uni (ret), host_side, (x);\n"
    "    ld.param.b32 %r2, [ret];\n"
    "    }\n"
    "    ret;\n"
    "}\n"
    ".visible .entry reaches()\n"
    "{\n"
    "    call.uni helper;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry fine(.param .u64 src, .param .u64 dst)\n"
    "{\n"
    "    .reg .b32 %r<2>;\n"
    "    .reg .b64 %rd<3>;\n"
    "    ld.param.u64 %rd1, [src];\n"
    "    ld.param.u64 %rd2, [dst];\n"
    "    ld.global.u32 %r1, [%rd1];\n"
    "    st.global.u32 [%rd2], %r1;\n"
    "    ret;\n"
    "}\n";

START_TEST(test_unsupported)
{
    Log log = { 0 };
    ptxrun_module *m = load_named(unsupported_ptx, "unsupported.ptx", &log);
    ck_assert_uint_eq(log.errors, 0);            /* nothing said while no kernel reaches it */
    ck_assert_uint_eq(ptxrun_module_kernel_count(m), 2);
    ptxrun_kernel *k = kernel(m, "fine");
    uint32_t src = 77, dst = 0, *ps = &src, *pd = &dst;
    ptxrun_buffer bufs[2] = { { &src, 4, 1 }, { &dst, 4, 0 } };
    void *args[2] = { &ps, &pd };
    ck_assert_int_eq(launch1(k, args, bufs, 2, NULL, NULL), PTXRUN_OK);
    ck_assert_uint_eq(dst, 77);
    ptxrun_kernel *bad = (ptxrun_kernel *)&log;
    ck_assert_int_eq(ptxrun_module_kernel(m, "reaches", &bad), PTXRUN_ERROR_UNSUPPORTED);
    ck_assert_ptr_null(bad);
    ck_assert_uint_ge(log.errors, 1);
    ck_assert_msg(strstr(log.text, "cannot execute"), "%s", log.text);
    unsigned line, column;
    place_of(unsupported_ptx, "call.uni (ret)", &line, &column);
    ck_assert_uint_eq(log.line, line);
    /* Asked again: the same answer, said again. */
    ck_assert_int_eq(ptxrun_module_kernel(m, "reaches", &bad), PTXRUN_ERROR_UNSUPPORTED);
    ck_assert_int_eq(launch1(k, args, bufs, 2, NULL, NULL), PTXRUN_OK);
    ptxrun_module_free(m);
}
END_TEST

START_TEST(test_lookup)
{
    char *text = read_text("samples/saxpy.ptx");
    ptxrun_module *m = load_named(text, "saxpy.ptx", NULL);
    ck_assert_uint_eq(ptxrun_module_kernel_count(m), 1);
    ck_assert_str_eq(ptxrun_module_kernel_name(m, 0), "_Z5saxpyifPKfPf");
    ck_assert_ptr_null(ptxrun_module_kernel_name(m, 1));
    ptxrun_kernel *k = kernel(m, "_Z5saxpyifPKfPf");
    ck_assert_ptr_eq(kernel(m, "saxpy"), k);
    ck_assert_ptr_eq(kernel(m, "saxpy(int, float, float const*, float*)"), k);   /* c++filt's */
    ck_assert_ptr_eq(kernel(m, NULL), k);
    ck_assert_str_eq(ptxrun_kernel_name(k), "_Z5saxpyifPKfPf");
    ck_assert_str_eq(ptxrun_kernel_cxx_name(k), "saxpy(int, float, float const*, float*)");
    Log log = { 0 };
    ptxrun_module_options o = { "saxpy.ptx", 0, 0, logged(&log) };
    ptxrun_module *m2 = NULL;
    ck_assert_int_eq(ptxrun_module_load(text, strlen(text), &o, &m2), PTXRUN_OK);
    ptxrun_kernel *none = (ptxrun_kernel *)&log;
    ck_assert_int_eq(ptxrun_module_kernel(m2, "daxpy", &none), PTXRUN_ERROR_NOT_FOUND);
    ck_assert_ptr_null(none);
    ck_assert_uint_eq(log.errors, 1);
    ck_assert_msg(strstr(log.message, "daxpy"), "%s", log.message);
    ptxrun_module *plain = load_named(copy_ptx, "copy", NULL);
    ck_assert_ptr_null(ptxrun_kernel_cxx_name(kernel(plain, "copy")));   /* not a mangled name */
    ptxrun_module_free(plain);
    ptxrun_module_free(m2);
    ptxrun_module_free(m);
    free(text);
}
END_TEST

START_TEST(test_params)
{
    static const char text[] = HEAD
        ".visible .entry params(.param .u32 a, .param .f32 b, .param .align 8 .b8 s[24],\n"
        "    .param .u64 .ptr .global .align 16 p, .param .s64 q, .param .f64 d, .param .b16 h, .param .u8 c)\n"
        "{\n"
        "    ret;\n"
        "}\n";
    static const struct { const char *name, *type; unsigned size, align, elements; int pointer; } want[] = {
        { "a", "u32", 4, 4, 1, 0 }, { "b", "f32", 4, 4, 1, 0 }, { "s", "b8", 24, 8, 24, 0 },
        { "p", "u64", 8, 8, 1, 1 }   /* .align 16: the pointee's */, { "q", "s64", 8, 8, 1, 1 }, { "d", "f64", 8, 8, 1, 0 },
        { "h", "b16", 2, 2, 1, 0 }, { "c", "u8", 1, 1, 1, 0 },
    };
    ptxrun_module *m = load_named(text, "params", NULL);
    ptxrun_kernel *k = kernel(m, NULL);
    ck_assert_uint_eq(ptxrun_kernel_param_count(k), 8);
    for (unsigned i = 0; i < 8; i++) {
        ptxrun_param p;
        ck_assert_int_eq(ptxrun_kernel_param(k, i, &p), PTXRUN_OK);
        ck_assert_str_eq(p.name, want[i].name);
        ck_assert_msg(!strcmp(p.type, want[i].type), "param %u: type %s, not %s", i, p.type, want[i].type);
        ck_assert_msg(p.size == want[i].size && p.align == want[i].align && p.elements == want[i].elements &&
                      p.pointer == want[i].pointer, "param %s: size %u align %u elements %u pointer %d", p.name, p.size,
                      p.align, p.elements, p.pointer);
    }
    ptxrun_param p;
    ck_assert_int_eq(ptxrun_kernel_param(k, 8, &p), PTXRUN_ERROR_ARGUMENT);
    ck_assert_int_eq(ptxrun_kernel_param(k, 0, NULL), PTXRUN_ERROR_ARGUMENT);
    ptxrun_module_free(m);
}
END_TEST

/* nvcc's printf (vprintf) through the print callback, thread by thread. */
START_TEST(test_printf)
{
    char *text = read_text("tests/api/printf.ptx");
    ptxrun_module *m = load_named(text, "printf.ptx", NULL);
    ptxrun_kernel *k = kernel(m, "hello(int)");
    int base = 5;
    void *args[1] = { &base };
    Log log = { 0 };
    ptxrun_launch_options o = { { 2, 1, 1 }, { 4, 1, 1 }, 0, NULL, 0, 0, 0, 0, 0, logged(&log), { 0, 0, 0 }, 0 };
    ck_assert_int_eq(ptxrun_launch(k, args, &o, NULL), PTXRUN_OK);
    char want[512] = "";
    for (int i = 0; i < 8; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "thread %d: %d\n", i, base + 10 * i);
    ck_assert_str_eq(log.out, want);
    ck_assert_uint_eq(log.prints, 8);            /* one call's text at a time */
    ptxrun_module_free(m);
    free(text);
}
END_TEST

START_TEST(test_trace)
{
    ptxrun_module *m = load_named(copy_ptx, "copy", NULL);
    uint32_t src = 9, dst = 0, *ps = &src, *pd = &dst;
    ptxrun_buffer bufs[2] = { { &src, 4, 0 }, { &dst, 4, 0 } };
    void *args[2] = { &ps, &pd };
    Log log = { 0 };
    ptxrun_launch_options o = { { 1, 1, 1 }, { 1, 1, 1 }, 0, bufs, 2, 0, 0, 0, 0, logged(&log), { 0, 0, 0 }, 0 };
    o.callbacks.trace = on_trace;
    ck_assert_int_eq(ptxrun_launch(kernel(m, NULL), args, &o, NULL), PTXRUN_OK);
    ck_assert_uint_eq(dst, 9);
    ck_assert_uint_gt(log.trace_len, 0);
    ck_assert_msg(strstr(log.trace, "ld.global.u32") && strstr(log.trace, "st.global.u32"), "%s", log.trace);
    ptxrun_module_free(m);
}
END_TEST

/* An uninitialised register stored into the caller's buffer: those bytes come back undefined
 * (a store is no use of the value: no warning, as in Memcheck; docs/semantics.md). A branch on an
 * undefined predicate is a warning at its line (strict: a fault). */
static const char undef_ptx[] = HEAD
    ".visible .entry undef(.param .u64 p, .param .u32 decide)\n"
    "{\n"
    "    .reg .pred %p<3>;\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<2>;\n"
    "    ld.param.u64 %rd1, [p];\n"
    "    ld.param.u32 %r3, [decide];\n"
    "    mov.u32 %r2, 3;\n"
    "    st.global.u32 [%rd1+8], %r2;\n"
    "    st.global.u32 [%rd1+4], %r1;\n"
    "    setp.ne.u32 %p2, %r3, 0;\n"
    "    @!%p2 bra DONE;\n"
    "    @%p1 bra DONE;\n"
    "DONE:\n"
    "    ret;\n"
    "}\n"
    /* A while of work, then the same warning: launches on 8 threads at once warn at once. */
    ".visible .entry spin(.param .u32 n)\n"
    "{\n"
    "    .reg .pred %p<3>;\n"
    "    .reg .b32 %r<4>;\n"
    "    ld.param.u32 %r2, [n];\n"
    "    mov.u32 %r3, 0;\n"
    "LOOP:\n"
    "    add.u32 %r3, %r3, 1;\n"
    "    setp.lt.u32 %p2, %r3, %r2;\n"
    "    @%p2 bra LOOP;\n"
    "    @%p1 bra END;\n"
    "END:\n"
    "    ret;\n"
    "}\n";

START_TEST(test_undefined)
{
    ptxrun_module *m = load_named(undef_ptx, "undef.ptx", NULL);
    _Alignas(8) uint8_t mem[24] = { 0 };
    uint8_t *buf = mem + 8;                      /* 16 bytes of buffer */
    ptxrun_buffer b = { buf, 16, 0 };
    uint32_t decide = 0;
    void *args[2] = { &buf, &decide };
    Log log = { 0 };
    ptxrun_result *r = NULL;
    ptxrun_status s = launch1(kernel(m, "undef"), args, &b, 1, &log, &r);
    ck_assert_msg(s == PTXRUN_OK, "%s: %s", ptxrun_status_name(s), log.text);
    ck_assert_uint_eq(buf[8], 3);
    uint8_t bits[20];
    ck_assert_int_eq(ptxrun_result_defined(r, buf - 2, sizeof bits, bits), PTXRUN_OK);
    for (int i = 0; i < 20; i++)       /* buf's bytes 4..7; 2 bytes either side of it */
        ck_assert_msg(bits[i] == (i >= 6 && i < 10 ? 0 : 0xff), "byte %d: %#x", i - 2, bits[i]);
    ck_assert_uint_eq(ptxrun_result_warnings(r), 0);
    ck_assert_uint_eq(log.warnings + log.errors, 0);
    ck_assert_uint_ge(ptxrun_result_steps(r), 1);
    ck_assert_uint_ge(ptxrun_result_instructions(r), 8);
    ptxrun_result_free(r);
    /* The branch on %p1 taken: a warning at it, and the run goes on. */
    decide = 1;
    s = launch1(kernel(m, "undef"), args, &b, 1, &log, &r);
    ck_assert_msg(s == PTXRUN_OK, "%s: %s", ptxrun_status_name(s), log.text);
    ck_assert_uint_eq(ptxrun_result_warnings(r), 1);
    ck_assert_uint_eq(log.warnings, 1);
    ck_assert_uint_eq(log.errors, 0);
    unsigned line, column;
    place_of(undef_ptx, "@%p1 bra", &line, &column);
    ck_assert_msg(strstr(log.text, "warning") && strstr(log.text, "^"), "%s", log.text);
    char where[64];
    snprintf(where, sizeof where, "undef.ptx:%u:%u: warning:", line, column);
    ck_assert_msg(strstr(log.text, where), "%s", log.text);
    ptxrun_result_free(r);
    /* strict: that branch is a fault. */
    ptxrun_launch_options o = { .buffers = &b, .buffer_count = 1, .strict = 1 };
    ck_assert_int_eq(ptxrun_launch(kernel(m, "undef"), args, &o, NULL), PTXRUN_ERROR_FAULT);
    ptxrun_module_free(m);
}
END_TEST

/* A cooperative launch's CTAs take their registers, .shared and .local from memory the kernel
 * keeps for its next launch (exec/slab.c): each launch must begin as from fresh memory. With
 * decide 1 each thread defines %r5, its .shared word, its .local word and half of %r6 (and with an
 * undefined register); with decide 0 none of them. out[thread] holds the four words. */
static const char reuse_ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry reuse(.param .u64 out, .param .u32 decide)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<10>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    .shared .align 4 .b32 sh[64];\n"
    "    .local .align 4 .b32 loc[2];\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    ld.param.u32 %r1, [decide];\n"
    "    mov.u32 %r2, %tid.x;\n"
    "    mov.u32 %r3, %ctaid.x;\n"
    "    mov.u32 %r4, %ntid.x;\n"
    "    mad.lo.u32 %r7, %r3, %r4, %r2;\n"
    "    mul.wide.u32 %rd2, %r7, 16;\n"
    "    add.u64 %rd3, %rd1, %rd2;\n"
    "    mov.u64 %rd4, sh;\n"
    "    mul.wide.u32 %rd5, %r2, 4;\n"
    "    add.u64 %rd4, %rd4, %rd5;\n"
    "    setp.ne.u32 %p1, %r1, 0;\n"
    "    @%p1 mov.u32 %r5, 7;\n"
    "    @%p1 st.shared.u32 [%rd4], 9;\n"
    "    @%p1 st.local.u32 [loc], 11;\n"
    "    @%p1 and.b32 %r6, %r9, 0xffff0000;\n"
    "    bar.sync 0;\n"
    "    st.global.u32 [%rd3], %r5;\n"
    "    ld.shared.u32 %r8, [%rd4];\n"
    "    st.global.u32 [%rd3+4], %r8;\n"
    "    ld.local.u32 %r8, [loc];\n"
    "    st.global.u32 [%rd3+8], %r8;\n"
    "    st.global.u32 [%rd3+12], %r6;\n"
    "}\n";

/* One cooperative launch of reuse: 4 CTAs of 64 threads; false when out or its definedness are not
 * what decide gives (checked against the kernel's text above, thread by thread). */
static int reuse_run(ptxrun_kernel *k, uint32_t decide)
{
    enum { THREADS_ALL = 256 };
    uint32_t *out = calloc(THREADS_ALL, 16);
    ptxrun_buffer b = { out, THREADS_ALL * 16, 0 };
    void *args[2] = { &out, &decide };
    ptxrun_launch_options o = { { 4, 1, 1 }, { 64, 1, 1 }, 0, &b, 1, 0, 0, 0, 0, { 0 }, { 0, 0, 0 }, 1 };
    ptxrun_result *r = NULL;
    int ok = ptxrun_launch(k, args, &o, &r) == PTXRUN_OK;
    uint8_t *bits = malloc(THREADS_ALL * 16);
    ok = ok && ptxrun_result_defined(r, out, THREADS_ALL * 16, bits) == PTXRUN_OK;
    for (int t = 0; t < THREADS_ALL && ok; t++) {
        const uint8_t *d = bits + 16 * t;
        for (int i = 0; i < 16; i++)   /* %r6: its lower half defined (zero), its upper not */
            ok = ok && d[i] == (decide && i < 14 ? 0xff : 0);
        ok = ok && (!decide || (out[4 * t] == 7 && out[4 * t + 1] == 9 && out[4 * t + 2] == 11 &&
                                (out[4 * t + 3] & 0xffffu) == 0));
    }
    ptxrun_result_free(r);
    free(bits);
    free(out);
    return ok;
}

START_TEST(test_cooperative_reuse)
{
    ptxrun_module *m = load_named(reuse_ptx, "reuse.ptx", NULL);
    ptxrun_kernel *k = kernel(m, "reuse");
    for (uint32_t i = 0; i < 4; i++)   /* defined, undefined again, ... */
        ck_assert_msg(reuse_run(k, i % 2 == 0), "launch %u (decide %u)", i, i % 2 == 0);
    ptxrun_module_free(m);
}
END_TEST

START_TEST(test_read_only)
{
    ptxrun_module *m = load_named(copy_ptx, "copy", NULL);
    uint32_t src = 9, dst = 4, *ps = &src, *pd = &dst;
    ptxrun_buffer bufs[2] = { { &src, 4, 0 }, { &dst, 4, 1 } };
    void *args[2] = { &ps, &pd };
    Log log = { 0 };
    ck_assert_int_eq(launch1(kernel(m, NULL), args, bufs, 2, &log, NULL), PTXRUN_ERROR_FAULT);
    ck_assert_uint_eq(dst, 4);
    unsigned line, column;
    place_of(copy_ptx, "st.global.u32", &line, &column);
    ck_assert_uint_eq(log.line, line);
    ck_assert_uint_eq(log.column, column);
    bufs[1].read_only = 0;
    ck_assert_int_eq(launch1(kernel(m, NULL), args, bufs, 2, NULL, NULL), PTXRUN_OK);
    ck_assert_uint_eq(dst, 9);
    ptxrun_module_free(m);
}
END_TEST

/* An array and a slice of it given as two buffers act as one memory. */
START_TEST(test_overlapping)
{
    static const char text[] = HEAD
        ".visible .entry views(.param .u64 p, .param .u64 q)\n"
        "{\n"
        "    .reg .b32 %r<4>;\n"
        "    .reg .b64 %rd<3>;\n"
        "    ld.param.u64 %rd1, [p];\n"
        "    ld.param.u64 %rd2, [q];\n"
        "    ld.global.u32 %r1, [%rd2];\n"             /* q[0] = p[4] */
        "    add.u32 %r1, %r1, 1000;\n"
        "    st.global.u32 [%rd1], %r1;\n"             /* p[0] */
        "    mov.u32 %r2, 7;\n"
        "    st.global.u32 [%rd2+4], %r2;\n"           /* q[1] = p[5] */
        "    ld.global.u32 %r3, [%rd1+20];\n"          /* p[5] */
        "    st.global.u32 [%rd1+60], %r3;\n"          /* p[15] */
        "    ret;\n"
        "}\n";
    ptxrun_module *m = load_named(text, "views", NULL);
    uint32_t a[16], want[16];
    for (int i = 0; i < 16; i++)
        a[i] = want[i] = 100 + i;
    want[0] = a[4] + 1000;
    want[5] = 7;
    want[15] = 7;
    uint32_t *p = a, *q = a + 4;
    ptxrun_buffer bufs[2] = { { q, 8 * sizeof *q, 0 }, { a, sizeof a, 0 } };
    void *args[2] = { &p, &q };
    ptxrun_result *r = NULL;
    ck_assert_int_eq(launch1(kernel(m, NULL), args, bufs, 2, NULL, &r), PTXRUN_OK);
    ck_assert(!memcmp(a, want, sizeof a));
    uint8_t bits[sizeof a];
    ck_assert_int_eq(ptxrun_result_defined(r, a, sizeof a, bits), PTXRUN_OK);
    for (size_t i = 0; i < sizeof a; i++)
        ck_assert_uint_eq(bits[i], 0xff);
    ptxrun_result_free(r);
    ptxrun_module_free(m);
}
END_TEST

static ptxrun_status run_copy_process(ptxrun_kernel *k, const void *src, void *dst, Log *log)
{
    void *args[2] = { &src, &dst };
    ptxrun_launch_options o = { 0 };
    o.process_memory = 1;
    if (log)
        o.callbacks = logged(log);
    return ptxrun_launch(k, args, &o, NULL);
}

/* No buffers given: the process's own mappings decide. */
START_TEST(test_process_memory)
{
    ptxrun_module *m = load_named(copy_ptx, "copy", NULL);
    ptxrun_kernel *k = kernel(m, NULL);
    uint32_t stack_src = 1234, stack_dst = 0, *heap = malloc(2 * sizeof *heap);
    heap[0] = 5678;
    heap[1] = 0;
    ck_assert_int_eq(run_copy_process(k, &stack_src, &stack_dst, NULL), PTXRUN_OK);
    ck_assert_uint_eq(stack_dst, 1234);
    ck_assert_int_eq(run_copy_process(k, &heap[0], &heap[1], NULL), PTXRUN_OK);
    ck_assert_uint_eq(heap[1], 5678);
    ck_assert_int_eq(run_copy_process(k, &heap[0], &stack_dst, NULL), PTXRUN_OK);
    ck_assert_uint_eq(stack_dst, 5678);
    /* Unmapped: address 0x10, and a page given back. */
    Log log = { 0 };
    ck_assert_int_eq(run_copy_process(k, (void *)0x10, &stack_dst, &log), PTXRUN_ERROR_FAULT);
    ck_assert_uint_ge(log.errors, 1);
    long page = sysconf(_SC_PAGESIZE);
    uint32_t *gone = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(gone, MAP_FAILED);
    munmap(gone, page);
    ck_assert_int_eq(run_copy_process(k, gone, &stack_dst, NULL), PTXRUN_ERROR_FAULT);
    ck_assert_int_eq(run_copy_process(k, &stack_src, gone, NULL), PTXRUN_ERROR_FAULT);
    ck_assert_uint_eq(stack_dst, 5678);
    /* Read-only: a string literal, and a page made read-only; reading them is fine. */
    static const char literal[] = "abcd";
    ck_assert_int_eq(run_copy_process(k, &stack_src, (void *)literal, NULL), PTXRUN_ERROR_FAULT);
    ck_assert_str_eq(literal, "abcd");
    uint32_t *ro = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(ro, MAP_FAILED);
    ro[0] = 42;
    ck_assert_int_eq(mprotect(ro, page, PROT_READ), 0);
    ck_assert_int_eq(run_copy_process(k, &stack_src, ro, NULL), PTXRUN_ERROR_FAULT);
    ck_assert_uint_eq(ro[0], 42);
    ck_assert_int_eq(run_copy_process(k, ro, &stack_dst, NULL), PTXRUN_OK);
    ck_assert_uint_eq(stack_dst, 42);
    /* A page the process may not even read. */
    ck_assert_int_eq(mprotect(ro, page, PROT_NONE), 0);
    ck_assert_int_eq(run_copy_process(k, ro, &stack_dst, NULL), PTXRUN_ERROR_FAULT);
    munmap(ro, page);
    free(heap);
    ptxrun_module_free(m);
}
END_TEST

/* A file mapping's pages past the end of the file are in /proc/self/maps, but touching them is
 * SIGBUS: a read there is a fault, the page before it still read. */
START_TEST(test_process_memory_past_eof)
{
    ptxrun_module *m = load_named(copy_ptx, "copy", NULL);
    ptxrun_kernel *k = kernel(m, NULL);
    long page = sysconf(_SC_PAGESIZE);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fwrite("abcdefgh", 1, 8, f), 8);
    fflush(f);
    uint8_t *p = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fileno(f), 0);
    ck_assert_ptr_ne(p, MAP_FAILED);
    uint32_t dst = 0;
    ck_assert_int_eq(run_copy_process(k, p + 4, &dst, NULL), PTXRUN_OK);
    ck_assert_uint_eq(dst, 'e' | 'f' << 8 | 'g' << 16 | (uint32_t)'h' << 24);
    Log log = { 0 };
    ck_assert_int_eq(run_copy_process(k, p + page, &dst, &log), PTXRUN_ERROR_FAULT);
    ck_assert_uint_ge(log.errors, 1);
    ck_assert_int_eq(run_copy_process(k, &dst, p + 2 * page + 8, NULL), PTXRUN_ERROR_FAULT);
    ck_assert_int_eq(run_copy_process(k, p + page - 4, &dst, NULL), PTXRUN_OK);
    ck_assert_uint_eq(dst, 0);
    munmap(p, 3 * page);
    fclose(f);
    ptxrun_module_free(m);
}
END_TEST

/* process_memory with a buffer: wmma.store.d's elements are all found before any is written, and
 * the one that runs past the buffer's end merges its region with the memory around it; the
 * undefined values stored (registers never set) must show in the merged region's shadow (they
 * went to the buffer's freed shadow bytes: defined, and a use after free). */
START_TEST(test_process_memory_wmma_merge)
{
    static const char text[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry tile(.param .u64 out)\n"
        "{\n"
        "    .reg .f32 %f<8>;\n"
        "    .reg .b64 %rd<2>;\n"
        "    ld.param.u64 %rd1, [out];\n"
        "    wmma.store.d.sync.aligned.m16n16k16.row.global.f32 [%rd1], {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7}, 16;\n"
        "    ret;\n"
        "}\n";
    ptxrun_module *m = load_named(text, "tile", NULL);
    float *tile = calloc(256, sizeof *tile);
    void *args[1] = { &tile };
    ptxrun_buffer buf = { tile, 4 * sizeof *tile + 2, 0 };   /* element 4 runs past its end */
    ptxrun_launch_options o = { 0 };
    o.block[0] = 32;
    o.buffers = &buf;
    o.buffer_count = 1;
    o.process_memory = 1;
    ptxrun_result *r = NULL;
    ck_assert_int_eq(ptxrun_launch(kernel(m, NULL), args, &o, &r), PTXRUN_OK);
    uint8_t bits[256 * sizeof *tile];
    ck_assert_int_eq(ptxrun_result_defined(r, tile, sizeof bits, bits), PTXRUN_OK);
    for (size_t i = 0; i < sizeof bits; i++)
        ck_assert_msg(bits[i] == 0, "byte %zu: defined bits 0x%02x", i, bits[i]);
    ptxrun_result_free(r);
    free(tile);
    ptxrun_module_free(m);
}
END_TEST

/* process_memory: vprintf's %s string in the caller's memory is looked up as a load's address is
 * (it was a fault: "outside every region"). */
START_TEST(test_process_memory_printf_string)
{
    static const char text[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
        ".global .align 1 .b8 fmt[4] = {37, 115, 10, 0};\n"          /* "%s\n" */
        ".visible .entry say(.param .u64 s)\n"
        "{\n"
        "    .reg .b64 %rd<4>;\n"
        "    .local .align 8 .b8 args[8];\n"
        "    ld.param.u64 %rd1, [s];\n"
        "    st.local.u64 [args], %rd1;\n"
        "    mov.u64 %rd2, fmt;\n"
        "    cvta.global.u64 %rd2, %rd2;\n"
        "    mov.u64 %rd3, args;\n"
        "    cvta.local.u64 %rd3, %rd3;\n"
        "    {\n"
        "    .param .b64 f;\n"
        "    .param .b64 a;\n"
        "    .param .b32 r;\n"
        "    st.param.b64 [f], %rd2;\n"
        "    st.param.b64 [a], %rd3;\n"
        "    call.uni (r), vprintf, (f, a);\n"
        "    }\n"
        "    ret;\n"
        "}\n";
    ptxrun_module *m = load_named(text, "say", NULL);
    static const char said[] = "from the caller's memory";
    const char *s = said;
    void *args[1] = { &s };
    Log log = { 0 };
    ptxrun_launch_options o = { 0 };
    o.process_memory = 1;
    o.callbacks = logged(&log);
    ck_assert_msg(ptxrun_launch(kernel(m, NULL), args, &o, NULL) == PTXRUN_OK, "%s", log.text);
    ck_assert_str_eq(log.out, "from the caller's memory\n");
    ptxrun_module_free(m);
}
END_TEST

/* process_memory beside a read-only buffer: the process's memory next to it stays writable (the
 * chunk looked up around a store took the buffer in, and was read-only as a whole). */
START_TEST(test_process_memory_beside_read_only)
{
    ptxrun_module *m = load_named(copy_ptx, "copy", NULL);
    uint32_t *a = calloc(64, sizeof *a);
    a[0] = 42;
    const void *src = a;
    void *dst = a + 32;
    void *args[2] = { &src, &dst };
    ptxrun_buffer buf = { a, 4 * sizeof *a, 1 };
    Log log = { 0 };
    ptxrun_launch_options o = { 0 };
    o.buffers = &buf;
    o.buffer_count = 1;
    o.process_memory = 1;
    o.callbacks = logged(&log);
    ck_assert_msg(ptxrun_launch(kernel(m, NULL), args, &o, NULL) == PTXRUN_OK, "%s", log.text);
    ck_assert_uint_eq(a[32], 42);
    dst = a + 1;                                      /* in the read-only buffer: still a fault */
    ck_assert_int_eq(ptxrun_launch(kernel(m, NULL), args, &o, NULL), PTXRUN_ERROR_FAULT);
    ck_assert_uint_eq(a[1], 0);
    free(a);
    ptxrun_module_free(m);
}
END_TEST

/* ---- ptx_run, gpuocelot's entry point ---- */

/* Standard error to a file while f runs; what was written there, a new string. */
static char *stderr_of(void (*f)(void *), void *context)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    ck_assert_ptr_nonnull(tmp);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    f(context);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    long n = ftell(tmp);
    fseek(tmp, 0, SEEK_SET);
    char *text = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
    if (n > 0)
        ck_assert_uint_eq(fread(text, 1, (size_t)n, tmp), (size_t)n);
    fclose(tmp);
    return text;
}

static const char ocelot_ptx[] = HEAD
    ".visible .entry first(.param .u64 out, .param .u64 in, .param .s32 a, .param .s64 b)\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<10>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    ld.param.u64 %rd2, [in];\n"
    "    ld.param.s32 %r1, [a];\n"
    "    ld.param.s64 %rd3, [b];\n"
    "    mov.u32 %r2, %ctaid.x;\n"
    "    mov.u32 %r3, %ntid.x;\n"
    "    mov.u32 %r4, %tid.x;\n"
    "    mad.lo.u32 %r5, %r2, %r3, %r4;\n"
    "    mul.wide.u32 %rd4, %r5, 4;\n"
    "    add.s64 %rd5, %rd2, %rd4;\n"
    "    ld.global.s32 %r6, [%rd5];\n"
    "    mul.wide.s32 %rd6, %r6, %r1;\n"
    "    add.s64 %rd6, %rd6, %rd3;\n"
    "    mul.wide.u32 %rd7, %r5, 8;\n"
    "    add.s64 %rd8, %rd1, %rd7;\n"
    "    st.global.s64 [%rd8], %rd6;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry second(.param .u64 out)\n"
    "{\n"
    "    trap;\n"
    "}\n";

START_TEST(test_ptx_run)
{
    enum { N = 24 };
    int32_t in[N];
    int64_t out[N];
    for (int i = 0; i < N; i++) {
        in[i] = i * 7 - 50;
        out[i] = 0;
    }
    int32_t a = -3;
    int64_t b = -10000000000ll;
    /* tinygrad's way: each argument is the value, an integer sign-extended to 64 bits. */
    void *args[4] = { out, in, (void *)(intptr_t)(int64_t)a, (void *)(intptr_t)b };
    ptx_run(ocelot_ptx, 4, args, 8, 1, 1, 3, 1, 1, 0);         /* block sizes first */
    for (int i = 0; i < N; i++)
        ck_assert_msg(out[i] == (int64_t)in[i] * a + b, "out[%d] = %lld", i, (long long)out[i]);
    /* The same text again (from the cache) with other values. */
    a = 5;
    args[2] = (void *)(intptr_t)a;
    args[3] = (void *)(intptr_t)7;
    ptx_run(ocelot_ptx, 4, args, 2, 1, 1, 12, 1, 1, 0);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(out[i], (int64_t)in[i] * 5 + 7);
}
END_TEST

static char counter_20_ptx[sizeof counter_ptx + 8];

static void bump_out(uint32_t *out, const char *text)
{
    void *args[1] = { out };
    ptx_run(text, 1, args, 1, 1, 1, 1, 1, 1, 0);
}

/* A module passed again is the cached one: its .global variable keeps what the last run left. */
START_TEST(test_ptx_run_cache)
{
    const char *at = strstr(counter_ptx, "= 10;");
    size_t head = (size_t)(at - counter_ptx);
    memcpy(counter_20_ptx, counter_ptx, head);
    strcpy(counter_20_ptx + head, "= 20;");
    strcat(counter_20_ptx, at + 5);
    uint32_t out = 0;
    char *copy = strdup(counter_ptx);                    /* the same text at another address */
    bump_out(&out, counter_ptx);
    ck_assert_uint_eq(out, 11);
    bump_out(&out, copy);
    ck_assert_uint_eq(out, 12);
    bump_out(&out, counter_20_ptx);
    ck_assert_uint_eq(out, 21);
    bump_out(&out, counter_ptx);
    ck_assert_uint_eq(out, 13);
    free(copy);
}
END_TEST

static void ocelot_bad(void *context)
{
    (void)context;
    ptx_run(HEAD ".visible .entry k() { bogus; }\n", 0, NULL, 1, 1, 1, 1, 1, 1, 0);
}

static void ocelot_fault(void *context)
{
    void *args[4] = { (void *)0x10, (void *)0x10, 0, 0 };
    (void)context;
    ptx_run(ocelot_ptx, 4, args, 32, 1, 1, 1, 1, 1, 0);
}

static void ocelot_arguments(void *context)
{
    void *args[1] = { context };
    ptx_run(ocelot_ptx, 1, args, 1, 1, 1, 1, 1, 1, 0);     /* 1 argument for 4 parameters */
    ptx_run(NULL, 0, NULL, 1, 1, 1, 1, 1, 1, 0);
    ptx_run(ocelot_ptx, -1, NULL, 1, 1, 1, 1, 1, 1, 0);
}

/* What goes wrong is said on standard error, and the process goes on. */
START_TEST(test_ptx_run_errors)
{
    char *said = stderr_of(ocelot_bad, NULL);
    ck_assert_msg(strstr(said, "<ptx_run>:4:") && strstr(said, "error"), "%s", said);
    free(said);
    said = stderr_of(ocelot_fault, NULL);
    ck_assert_msg(strstr(said, "error") && strstr(said, "ld.global.s32"), "%s", said);
    free(said);
    int64_t x = 0;
    said = stderr_of(ocelot_arguments, &x);
    ck_assert_msg(strstr(said, "4 parameters, and 1 argument came") && strstr(said, "no PTX text"), "%s", said);
    free(said);
    ck_assert_int_eq(x, 0);
}
END_TEST

/* ---- wrong arguments, and no callbacks ---- */

START_TEST(test_arguments)
{
    ptxrun_module *m = (ptxrun_module *)1;
    ck_assert_int_eq(ptxrun_module_load(NULL, 5, NULL, &m), PTXRUN_ERROR_ARGUMENT);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(ptxrun_module_load(copy_ptx, strlen(copy_ptx), NULL, NULL), PTXRUN_ERROR_ARGUMENT);
    ptxrun_kernel *k = (ptxrun_kernel *)1;
    ck_assert_int_eq(ptxrun_module_kernel(NULL, "copy", &k), PTXRUN_ERROR_ARGUMENT);
    ck_assert_ptr_null(k);
    m = load_named(copy_ptx, "copy", NULL);
    ck_assert_int_eq(ptxrun_module_kernel(m, "copy", NULL), PTXRUN_ERROR_ARGUMENT);
    k = kernel(m, "copy");
    ck_assert_int_eq(ptxrun_launch(NULL, NULL, NULL, NULL), PTXRUN_ERROR_ARGUMENT);
    ptxrun_launch_options o = { 0 };
    o.buffer_count = 2;
    ck_assert_int_eq(ptxrun_launch(k, NULL, &o, NULL), PTXRUN_ERROR_ARGUMENT);        /* buffers NULL */
    o.buffer_count = 0;
    ptxrun_result *r = (ptxrun_result *)1;
    ck_assert_int_eq(ptxrun_launch(k, NULL, &o, &r), PTXRUN_ERROR_ARGUMENT);          /* no arguments */
    ck_assert_ptr_null(r);
    uint32_t v = 0, *pv = &v;
    void *args[2] = { &pv, NULL };
    ck_assert_int_eq(ptxrun_launch(k, args, &o, NULL), PTXRUN_ERROR_ARGUMENT);        /* one missing */
    args[1] = &pv;
    ptxrun_buffer bad = { NULL, 16, 0 };
    o.buffers = &bad;
    o.buffer_count = 1;
    ck_assert_int_eq(ptxrun_launch(k, args, &o, NULL), PTXRUN_ERROR_ARGUMENT);        /* bytes at NULL */
    ptxrun_buffer wraps = { (void *)(uintptr_t)(UINTPTR_MAX - 8), 64, 0 };
    o.buffers = &wraps;
    ck_assert_int_eq(ptxrun_launch(k, args, &o, NULL), PTXRUN_ERROR_ARGUMENT);
    /* Shapes CUDA refuses are refused inputs. */
    ptxrun_buffer good = { &v, 4, 0 };
    o.buffers = &good;
    o.block[0] = 1025;
    ck_assert_int_eq(ptxrun_launch(k, args, &o, NULL), PTXRUN_ERROR_INPUT);
    o.block[0] = 32;
    o.block[2] = 65;
    ck_assert_int_eq(ptxrun_launch(k, args, &o, NULL), PTXRUN_ERROR_INPUT);
    o.block[2] = 1;
    o.grid[1] = 65536;
    ck_assert_int_eq(ptxrun_launch(k, args, &o, NULL), PTXRUN_ERROR_INPUT);
    o.grid[1] = 1;
    ck_assert_int_eq(ptxrun_launch(k, args, &o, NULL), PTXRUN_OK);
    /* The rest: NULLs answered, never a crash. */
    ck_assert_int_eq(ptxrun_kernel_param(NULL, 0, NULL), PTXRUN_ERROR_ARGUMENT);
    ck_assert_uint_eq(ptxrun_kernel_param_count(NULL), 0);
    ck_assert_ptr_null(ptxrun_kernel_name(NULL));
    ck_assert_ptr_null(ptxrun_kernel_cxx_name(NULL));
    ck_assert_uint_eq(ptxrun_module_kernel_count(NULL), 0);
    ck_assert_ptr_null(ptxrun_module_kernel_name(NULL, 0));
    ck_assert_int_eq(ptxrun_result_status(NULL), PTXRUN_ERROR_ARGUMENT);
    ck_assert_uint_eq(ptxrun_result_steps(NULL) + ptxrun_result_instructions(NULL) + ptxrun_result_warnings(NULL), 0);
    uint8_t bits[4];
    ck_assert_int_eq(ptxrun_result_defined(NULL, &v, 4, bits), PTXRUN_ERROR_ARGUMENT);
    ck_assert_str_eq(ptxrun_status_name(PTXRUN_ERROR_FAULT), "fault");
    ck_assert_str_eq(ptxrun_status_name((ptxrun_status)99), "unknown status");
    ptxrun_module_free(NULL);
    ptxrun_result_free(NULL);
    ptxrun_module_free(m);
}
END_TEST

static void quiet_work(void *context)
{
    (void)context;
    ptxrun_module *m = NULL;
    static const char bad[] = HEAD ".visible .entry k() { bogus; }\n";
    ck_assert_int_eq(ptxrun_module_load(bad, strlen(bad), NULL, &m), PTXRUN_ERROR_INPUT);
    m = load_named(copy_ptx, "copy", NULL);
    ptxrun_kernel *k = kernel(m, NULL);
    ck_assert_int_eq(ptxrun_module_kernel(m, "nope", &k), PTXRUN_ERROR_NOT_FOUND);
    k = kernel(m, NULL);
    ck_assert_int_eq(run_copy_process(k, (void *)0x10, (void *)0x10, NULL), PTXRUN_ERROR_FAULT);
    ptxrun_module_free(m);
    char *text = read_text("tests/api/printf.ptx");
    m = load_named(text, "printf.ptx", NULL);
    int base = 1;
    void *args[1] = { &base };
    ck_assert_int_eq(ptxrun_launch(kernel(m, NULL), args, NULL, NULL), PTXRUN_OK);
    ptxrun_module_free(m);
    free(text);
}

/* No callbacks: refusals, faults and printf go nowhere (not to standard output or error). */
START_TEST(test_no_callbacks_silent)
{
    fflush(stdout);
    int saved = dup(1);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 1);
    char *said = stderr_of(quiet_work, NULL);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    long out = ftell(tmp);
    fclose(tmp);
    ck_assert_str_eq(said, "");
    ck_assert_int_eq(out, 0);
    free(said);
}
END_TEST

/* ---- threads ---- */

enum { THREADS = 8 };

typedef struct Job {
    ptxrun_module *m, *undef, *print, *copy;   /* shared */
    const char *text;
    pthread_barrier_t *start;
    int index;
    int ok;
} Job;

/* Each thread: its own inputs, the kernel of the shared module (the first asks lower it, all at
 * once), several launches, one of them on CTAs over two threads. */
static void *launch_job(void *context)
{
    Job *job = context;
    pthread_barrier_wait(job->start);
    ptxrun_kernel *k = NULL;
    if (ptxrun_module_kernel(job->m, job->index % 2 ? "saxpy" : NULL, &k) != PTXRUN_OK)
        return NULL;
    /* A warning from every thread at once (each launch's own). */
    uint32_t spins = 2000;
    void *sargs[1] = { &spins };
    ptxrun_launch_options so = { { 2, 1, 1 }, { 40, 1, 1 }, 0, NULL, 0, 0, 0, 0, 0, { 0 }, { 0, 0, 0 }, 0 };
    ptxrun_result *r = NULL;
    ptxrun_kernel *sk = NULL;
    int warned = ptxrun_module_kernel(job->undef, "spin", &sk) == PTXRUN_OK &&
                 ptxrun_launch(sk, sargs, &so, &r) == PTXRUN_OK && ptxrun_result_warnings(r) >= 1;
    ptxrun_result_free(r);
    int n = 200 + 37 * job->index;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *want = malloc(n * sizeof *y);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i + job->index);
        y[i] = (float)job->index - (float)i * 0.5f;
        want[i] = y[i];
    }
    job->ok = 1;
    for (int round = 0; round < 3; round++) {
        float a = (float)(job->index + 1) * (round ? -0.5f : 2.0f);
        for (int i = 0; i < n; i++)
            want[i] = fmaf(x[i], a, want[i]);
        ptxrun_buffer bufs[2] = { { x, n * sizeof *x, 1 }, { y, n * sizeof *y, 0 } };
        void *args[4] = { &n, &a, &x, &y };
        ptxrun_launch_options o = { { (unsigned)(n + 63) / 64, 1, 1 }, { 64, 1, 1 }, 0, bufs, 2, 0, 0, 0,
                                    round == 2 ? 2 : 1, { 0 }, { 0, 0, 0 }, 0 };
        if (ptxrun_launch(k, args, &o, NULL) != PTXRUN_OK)
            job->ok = 0;
    }
    /* printf text and a trace through each thread's own callbacks; the process's own memory. */
    Log *log = calloc(1, sizeof *log);
    ptxrun_kernel *pk = NULL, *ck = NULL;
    int base = 1000 * job->index;
    void *pargs[1] = { &base };
    ptxrun_launch_options po = { { 2, 1, 1 }, { 3, 1, 1 }, 0, NULL, 0, 0, 0, 0, 0, logged(log), { 0, 0, 0 }, 0 };
    int printed = ptxrun_module_kernel(job->print, NULL, &pk) == PTXRUN_OK &&
                  ptxrun_launch(pk, pargs, &po, NULL) == PTXRUN_OK;
    char want_text[256] = "";
    for (int i = 0; i < 6; i++)
        snprintf(want_text + strlen(want_text), sizeof want_text - strlen(want_text), "thread %d: %d\n", i,
                 base + 10 * i);
    printed = printed && !strcmp(log->out, want_text);
    uint32_t src = 7u * (uint32_t)job->index, dst = 0, *ps = &src, *pd = &dst;
    void *cargs[2] = { &ps, &pd };
    ptxrun_launch_options co = { .process_memory = 1, .callbacks = logged(log) };
    co.callbacks.trace = on_trace;
    int copied = ptxrun_module_kernel(job->copy, NULL, &ck) == PTXRUN_OK &&
                 ptxrun_launch(ck, cargs, &co, NULL) == PTXRUN_OK && dst == src && log->trace_len > 0;
    free(log);
    job->ok = job->ok && warned && printed && copied && !memcmp(y, want, n * sizeof *y);
    free(x);
    free(y);
    free(want);
    return NULL;
}

/* THREADS threads, each on a copy of like (its index and a barrier they start at together) running
 * job; every one must end ok. */
static void run_threads(const Job *like, void *(*job)(void *))
{
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, THREADS);
    pthread_t t[THREADS];
    Job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = *like;
        jobs[i].start = &start;
        jobs[i].index = i;
        ck_assert_int_eq(pthread_create(&t[i], NULL, job, &jobs[i]), 0);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < THREADS; i++)
        ck_assert_msg(jobs[i].ok, "thread %d", i);
    pthread_barrier_destroy(&start);
}

START_TEST(test_threads_one_module)
{
    char *text = read_text("samples/saxpy.ptx");
    char *print_text = read_text("tests/api/printf.ptx");
    ptxrun_module *m = load_named(text, "saxpy.ptx", NULL), *undef = load_named(undef_ptx, "undef.ptx", NULL);
    ptxrun_module *print = load_named(print_text, "printf.ptx", NULL), *copy = load_named(copy_ptx, "copy", NULL);
    Job job = { m, undef, print, copy, text, NULL, 0, 0 };
    run_threads(&job, launch_job);
    ptxrun_module_free(m);
    ptxrun_module_free(undef);
    ptxrun_module_free(print);
    ptxrun_module_free(copy);
    free(print_text);
    free(text);
}
END_TEST

/* Each thread launches the one module's cooperative kernel again and again: the memory its kernel
 * keeps between launches (exec/slab.c) is taken by one launch at a time, the others make their own. */
static void *reuse_job(void *context)
{
    Job *job = context;
    pthread_barrier_wait(job->start);
    ptxrun_kernel *k = NULL;
    job->ok = ptxrun_module_kernel(job->m, "reuse", &k) == PTXRUN_OK;
    for (int i = 0; i < 4 && job->ok; i++)
        job->ok = reuse_run(k, (uint32_t)(i + job->index) % 2);
    return NULL;
}

START_TEST(test_threads_cooperative)
{
    ptxrun_module *m = load_named(reuse_ptx, "reuse.ptx", NULL);
    Job job = { m, NULL, NULL, NULL, NULL, NULL, 0, 0 };
    run_threads(&job, reuse_job);
    ptxrun_module_free(m);
}
END_TEST

/* Each thread loads its own module of a text (the parser and checker on 8 threads at once), looks
 * a kernel up by its C++ name, launches it; and calls ptx_run (its cache shared). */
static void *load_job(void *context)
{
    Job *job = context;
    pthread_barrier_wait(job->start);
    ptxrun_module *m = NULL;
    if (ptxrun_module_load(job->text, strlen(job->text), NULL, &m) != PTXRUN_OK)
        return NULL;
    ptxrun_kernel *k = NULL;
    if (ptxrun_module_kernel(m, "saxpy(int, float, float const*, float*)", &k) != PTXRUN_OK) {
        ptxrun_module_free(m);
        return NULL;
    }
    enum { N = 96 };
    float x[N], y[N], want[N], a = 0.5f * (float)job->index;
    int n = N;
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = (float)(job->index * i);
        want[i] = fmaf(x[i], a, y[i]);
    }
    ptxrun_buffer bufs[2] = { { x, sizeof x, 1 }, { y, sizeof y, 0 } };
    float *px = x, *py = y;
    void *args[4] = { &n, &a, &px, &py };
    ptxrun_launch_options o = { { 3, 1, 1 }, { 32, 1, 1 }, 0, bufs, 2, 0, 0, 0, 0, { 0 }, { 0, 0, 0 }, 0 };
    job->ok = ptxrun_launch(k, args, &o, NULL) == PTXRUN_OK && !memcmp(y, want, sizeof y);
    ptxrun_module_free(m);
    int32_t in[8];
    int64_t out[8];
    for (int i = 0; i < 8; i++)
        in[i] = i - job->index;
    void *oargs[4] = { out, in, (void *)(intptr_t)job->index, (void *)(intptr_t)-1 };
    ptx_run(ocelot_ptx, 4, oargs, 8, 1, 1, 1, 1, 1, 0);
    for (int i = 0; i < 8; i++)
        job->ok = job->ok && out[i] == (int64_t)in[i] * job->index - 1;
    return NULL;
}

START_TEST(test_threads_loads)
{
    char *text = read_text("samples/saxpy.ptx");
    Job job = { NULL, NULL, NULL, NULL, text, NULL, 0, 0 };
    run_threads(&job, load_job);
    free(text);
}
END_TEST

static Suite *api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_saxpy_shapes);
    tcase_add_test(tc, test_shapes_3d);
    tcase_add_test(tc, test_twice);
    tcase_add_test(tc, test_module_variables_kept);
    tcase_add_test(tc, test_function_scope_variables_apart);
    tcase_add_test(tc, test_fault_out_of_buffer);
    tcase_add_test(tc, test_bad_ptx);
    tcase_add_test(tc, test_unsupported);
    tcase_add_test(tc, test_lookup);
    tcase_add_test(tc, test_params);
    tcase_add_test(tc, test_printf);
    tcase_add_test(tc, test_trace);
    tcase_add_test(tc, test_undefined);
    tcase_add_test(tc, test_cooperative_reuse);
    tcase_add_test(tc, test_read_only);
    tcase_add_test(tc, test_overlapping);
    tcase_add_test(tc, test_process_memory);
    tcase_add_test(tc, test_process_memory_past_eof);
    tcase_add_test(tc, test_process_memory_wmma_merge);
    tcase_add_test(tc, test_process_memory_printf_string);
    tcase_add_test(tc, test_process_memory_beside_read_only);
    tcase_add_test(tc, test_ptx_run);
    tcase_add_test(tc, test_ptx_run_cache);
    tcase_add_test(tc, test_ptx_run_errors);
    tcase_add_test(tc, test_arguments);
    tcase_add_test(tc, test_no_callbacks_silent);
    suite_add_tcase(s, tc);
    TCase *threads = tcase_create("threads");
    tcase_set_timeout(threads, 300);
    tcase_add_test(threads, test_threads_one_module);
    tcase_add_test(threads, test_threads_loads);
    tcase_add_test(threads, test_threads_cooperative);
    suite_add_tcase(s, threads);
    return s;
}

int main(int argc, char **argv)
{
    SRunner *sr = srunner_create(api_suite());
    if (argc > 1)                    /* a case's name: that one alone (make tsan-tests runs the threads) */
        setenv("CK_RUN_CASE", argv[1], 1);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
