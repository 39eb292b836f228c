/* bench_gemm.c: tensor-core GEMMs on one warp, ptxrun against the same GEMM in plain C
 * (reference.c, built with -O2 -march=native) in the same run, each run's result checked
 * against that C bit for bit: (a) D += A B over 64 x 64 x 256 s8 with mma.sync m16n8k32
 * .s32.s8.s8.s32 (fragments loaded as words from global memory, as the ISA's figures place
 * them), (b) D += A B over 32 x 32 x 64 doubles with mma.sync m8n8k4 .f64 (DMMA: an fma chain
 * in k order, which the C does with fma()), (c) D += A B over 64 x 64 x 64 f16 with mma.sync
 * m16n8k16 .f32.f16.f16.f32 (small integers: every sum exact, so plain C's float sum is the one
 * result), or a line saying ptxrun does not execute it yet. Figures: multiply-adds per second
 * (best of 3) and how many times slower than C ptxrun is; the mma instructions' share of the
 * steps.
 * usage: bench_gemm */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "reference.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

enum { SM = 64, SN = 64, SK = 256, SKW = SK / 4,     /* (a): s8, rows of SK bytes = SKW words */
       DM = 32, DN = 32, DK = 64,                    /* (b): f64 */
       HM = 64, HN = 64, HK = 64 };                  /* (c): f16, rows of HK / 2 words */

/* (a) One warp walks the 4 x 8 m16n8 tiles of D; each loads its C from D, runs the 8 k steps
 * and stores D; all of it `iterations` times. pa, pb, pd: the buffers (set by the bench). */
static const char gemm_s8[] =
    ".reg .b64 pa;\n.reg .b64 pb;\n.reg .b64 pd;\n.reg .b64 ta;\n.reg .b64 tb;\n.reg .b64 td;\n"
    ".reg .b32 a<4>;\n.reg .b32 b<2>;\n.reg .b32 c<4>;\n"
    ".reg .u32 it;\n.reg .u32 mt;\n.reg .u32 nt;\n.reg .u32 kt;\n.reg .u32 g;\n.reg .u32 q;\n.reg .u32 off;\n"
    ".reg .pred p;\n"
    "    mov.u32 g, %%laneid;\n    and.b32 q, g, 3;\n    shr.u32 g, g, 2;\n    mov.u32 it, 0;\n"
    "ITER:\n    mov.u32 mt, 0;\n"
    "MT:\n    mov.u32 nt, 0;\n"
    "NT:\n"
    "    mad.lo.u32 off, mt, 16, g;\n    mul.lo.u32 off, off, 64;\n    mad.lo.u32 off, nt, 8, off;\n"
    "    mad.lo.u32 off, q, 2, off;\n    mul.wide.u32 td, off, 4;\n    add.s64 td, pd, td;\n"
    "    ld.global.v2.b32 {c0, c1}, [td];\n    ld.global.v2.b32 {c2, c3}, [td+2048];\n"
    "    mad.lo.u32 off, mt, 16, g;\n    mad.lo.u32 off, off, 64, q;\n    mul.wide.u32 ta, off, 4;\n"
    "    add.s64 ta, pa, ta;\n"
    "    mad.lo.u32 off, nt, 8, g;\n    mad.lo.u32 off, off, 64, q;\n    mul.wide.u32 tb, off, 4;\n"
    "    add.s64 tb, pb, tb;\n    mov.u32 kt, 0;\n"
    "KT:\n"
    "    ld.global.b32 a0, [ta];\n    ld.global.b32 a1, [ta+2048];\n    ld.global.b32 a2, [ta+16];\n"
    "    ld.global.b32 a3, [ta+2064];\n    ld.global.b32 b0, [tb];\n    ld.global.b32 b1, [tb+16];\n"
    "    mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {c0, c1, c2, c3}, {a0, a1, a2, a3}, {b0, b1}, "
    "{c0, c1, c2, c3};\n"
    "    add.s64 ta, ta, 32;\n    add.s64 tb, tb, 32;\n"
    "    add.u32 kt, kt, 1;\n    setp.lt.u32 p, kt, 8;\n@p  bra KT;\n"
    "    st.global.v2.b32 [td], {c0, c1};\n    st.global.v2.b32 [td+2048], {c2, c3};\n"
    "    add.u32 nt, nt, 1;\n    setp.lt.u32 p, nt, 8;\n@p  bra NT;\n"
    "    add.u32 mt, mt, 1;\n    setp.lt.u32 p, mt, 4;\n@p  bra MT;\n"
    "    add.u32 it, it, 1;\n    setp.lt.u32 p, it, %u;\n@p  bra ITER;\n";

/* (b) The same over the 4 x 4 m8n8 tiles of a 32 x 32 D, 16 k steps of 4; A row-major, B
 * row-major (b[k][n]). */
static const char gemm_f64[] =
    ".reg .b64 pa;\n.reg .b64 pb;\n.reg .b64 pd;\n.reg .b64 ta;\n.reg .b64 tb;\n.reg .b64 td;\n"
    ".reg .f64 a0;\n.reg .f64 b0;\n.reg .f64 c<2>;\n"
    ".reg .u32 it;\n.reg .u32 mt;\n.reg .u32 nt;\n.reg .u32 kt;\n.reg .u32 g;\n.reg .u32 q;\n.reg .u32 off;\n"
    ".reg .pred p;\n"
    "    mov.u32 g, %%laneid;\n    and.b32 q, g, 3;\n    shr.u32 g, g, 2;\n    mov.u32 it, 0;\n"
    "ITER:\n    mov.u32 mt, 0;\n"
    "MT:\n    mov.u32 nt, 0;\n"
    "NT:\n"
    "    mad.lo.u32 off, mt, 8, g;\n    mul.lo.u32 off, off, 32;\n    mad.lo.u32 off, nt, 8, off;\n"
    "    mad.lo.u32 off, q, 2, off;\n    mul.wide.u32 td, off, 8;\n    add.s64 td, pd, td;\n"
    "    ld.global.v2.f64 {c0, c1}, [td];\n"
    "    mad.lo.u32 off, mt, 8, g;\n    mad.lo.u32 off, off, 64, q;\n    mul.wide.u32 ta, off, 8;\n"
    "    add.s64 ta, pa, ta;\n"
    "    mad.lo.u32 off, q, 32, g;\n    mad.lo.u32 off, nt, 8, off;\n    mul.wide.u32 tb, off, 8;\n"
    "    add.s64 tb, pb, tb;\n    mov.u32 kt, 0;\n"
    "KT:\n"
    "    ld.global.f64 a0, [ta];\n    ld.global.f64 b0, [tb];\n"
    "    mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {c0, c1}, {a0}, {b0}, {c0, c1};\n"
    "    add.s64 ta, ta, 32;\n    add.s64 tb, tb, 1024;\n"
    "    add.u32 kt, kt, 1;\n    setp.lt.u32 p, kt, 16;\n@p  bra KT;\n"
    "    st.global.v2.f64 [td], {c0, c1};\n"
    "    add.u32 nt, nt, 1;\n    setp.lt.u32 p, nt, 4;\n@p  bra NT;\n"
    "    add.u32 mt, mt, 1;\n    setp.lt.u32 p, mt, 4;\n@p  bra MT;\n"
    "    add.u32 it, it, 1;\n    setp.lt.u32 p, it, %u;\n@p  bra ITER;\n";

/* (c) As (a), with rows of 32 words (64 halves) and 4 k steps of 16. */
static const char gemm_f16[] =
    ".reg .b64 pa;\n.reg .b64 pb;\n.reg .b64 pd;\n.reg .b64 ta;\n.reg .b64 tb;\n.reg .b64 td;\n"
    ".reg .b32 a<4>;\n.reg .b32 b<2>;\n.reg .f32 c<4>;\n"
    ".reg .u32 it;\n.reg .u32 mt;\n.reg .u32 nt;\n.reg .u32 kt;\n.reg .u32 g;\n.reg .u32 q;\n.reg .u32 off;\n"
    ".reg .pred p;\n"
    "    mov.u32 g, %%laneid;\n    and.b32 q, g, 3;\n    shr.u32 g, g, 2;\n    mov.u32 it, 0;\n"
    "ITER:\n    mov.u32 mt, 0;\n"
    "MT:\n    mov.u32 nt, 0;\n"
    "NT:\n"
    "    mad.lo.u32 off, mt, 16, g;\n    mul.lo.u32 off, off, 64;\n    mad.lo.u32 off, nt, 8, off;\n"
    "    mad.lo.u32 off, q, 2, off;\n    mul.wide.u32 td, off, 4;\n    add.s64 td, pd, td;\n"
    "    ld.global.v2.f32 {c0, c1}, [td];\n    ld.global.v2.f32 {c2, c3}, [td+2048];\n"
    "    mad.lo.u32 off, mt, 16, g;\n    mad.lo.u32 off, off, 32, q;\n    mul.wide.u32 ta, off, 4;\n"
    "    add.s64 ta, pa, ta;\n"
    "    mad.lo.u32 off, nt, 8, g;\n    mad.lo.u32 off, off, 32, q;\n    mul.wide.u32 tb, off, 4;\n"
    "    add.s64 tb, pb, tb;\n    mov.u32 kt, 0;\n"
    "KT:\n"
    "    ld.global.b32 a0, [ta];\n    ld.global.b32 a1, [ta+1024];\n    ld.global.b32 a2, [ta+16];\n"
    "    ld.global.b32 a3, [ta+1040];\n    ld.global.b32 b0, [tb];\n    ld.global.b32 b1, [tb+16];\n"
    "    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {c0, c1, c2, c3}, {a0, a1, a2, a3}, {b0, b1}, "
    "{c0, c1, c2, c3};\n"
    "    add.s64 ta, ta, 32;\n    add.s64 tb, tb, 32;\n"
    "    add.u32 kt, kt, 1;\n    setp.lt.u32 p, kt, 4;\n@p  bra KT;\n"
    "    st.global.v2.f32 [td], {c0, c1};\n    st.global.v2.f32 [td+2048], {c2, c3};\n"
    "    add.u32 nt, nt, 1;\n    setp.lt.u32 p, nt, 8;\n@p  bra NT;\n"
    "    add.u32 mt, mt, 1;\n    setp.lt.u32 p, mt, 4;\n@p  bra MT;\n"
    "    add.u32 it, it, 1;\n    setp.lt.u32 p, it, %u;\n@p  bra ITER;\n";

/* A global buffer holding `size` bytes of data, its address in register `reg` of every lane. */
static Region *add_buffer(Block *b, const char *reg, const void *data, size_t size)
{
    uint32_t k = mem_add(&b->mem, reg, SPACE_GLOBAL, size, 256, TYPE_U32, false, true);
    Region *r = &b->mem.regions[k];
    r->is_buffer = true;
    memcpy(r->data, data, size);
    const Function *f = b->prog.fn;
    for (uint32_t i = 0; i < f->regs.len; i++)
        if (strcmp(f->regs.data[i].name, reg) == 0) {
            for (int l = 0; l < WARP_SIZE; l++)
                b->warps[0]->val[i][l] = r->base;
            b->warps[0]->defined[i] = ALL_LANES;
        }
    return r;
}

/* Runs `format` (%u = iterations) on one warp with buffers pa, pb, pd (d0 its initial contents)
 * and checks pd's final bytes, every one defined, against want. Returns seconds; *mma_share
 * gets the share of the warp's instructions that were mma. */
static bool refused;        /* the last diagnostic said "cannot execute" */

static void note_refusal(void *c, Diag *d, DiagLevel l, Span at, const char *m)
{
    (void)c; (void)d; (void)l; (void)at;
    refused |= strstr(m, "cannot execute") != NULL;
}

/* ... -1 when ptxrun does not execute the program yet. */
static double run_gemm(const char *format, unsigned iterations, const void *a, size_t asize, const void *b,
                       size_t bsize, const void *d0, const void *want, size_t dsize, double *mma_share)
{
    char text[8192];
    snprintf(text, sizeof text, format, iterations);
    Source src;
    source_from_string(&src, "bench_gemm.ptx", text, strlen(text));
    Diag diag;
    diag_init(&diag, &src, stderr);
    diag.emit = note_refusal;
    refused = false;
    Module *m = parse_module(&src, &diag);
    check_module(m, &diag, NULL);
    Block *blk = diag.errors ? NULL : block_load(m, m->functions.data[0], &diag, DEFAULT_STACK_BYTES);
    if (!blk && refused) {
        module_free(m);
        source_free(&src);
        return -1;
    }
    if (!blk) {
        diag.emit = NULL;
        fprintf(stderr, "bench_gemm: the benchmark program does not load:\n%s\n", text);
        exit(1);
    }
    add_buffer(blk, "pa", a, asize);
    add_buffer(blk, "pb", b, bsize);
    const Region *rd = add_buffer(blk, "pd", d0, dsize);
    uint32_t ntid[3] = { WARP_SIZE, 1, 1 }, nctaid[3] = { 1, 1, 1 };
    block_set_shape(blk, ntid, ALL_LANES);
    block_set_grid(blk, nctaid);
    ExecOptions o = { .max_steps = UINT64_MAX, .jobs = 1 };
    char why[256];
    double t0 = now();
    int rc = grid_run(blk, &o, why, sizeof why);
    double t = now() - t0;
    if (rc != EXEC_OK) {
        fprintf(stderr, "bench_gemm: the benchmark program faulted\n");
        exit(1);
    }
    for (size_t i = 0; i < dsize; i++)
        if ((rd->shadow && rd->shadow[i] != 0xff) || rd->data[i] != ((const uint8_t *)want)[i]) {
            fprintf(stderr, "bench_gemm: a wrong result: byte %zu of D is 0x%02x, not 0x%02x\n", i, rd->data[i],
                    ((const uint8_t *)want)[i]);
            exit(1);
        }
    /* steps of the warp: lane_steps / 32; mma steps: one per tile and k step, per iteration */
    *mma_share = (double)blk->lane_steps / WARP_SIZE;
    block_free(blk);
    module_free(m);
    source_free(&src);
    return t;
}

static uint32_t rng = 0x2545f491u;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void report(const char *name, double macs, double t, double plain, double mmas, double steps)
{
    printf("%-34s %8.3g multiply-adds/s, result checked; plain C %.3g/s, %.1fx ptxrun; mma %.0f%% of the warp's "
           "instructions\n", name, macs / t, macs / plain, t / plain, 100.0 * mmas / steps);
}

int main(void)
{
    enum { S8_ITER = 200, F64_ITER = 400, F16_ITER = 200 };
    static int8_t a8[SM * SK], b8[SN * SK];
    static int32_t d8[SM * SN], want8[SM * SN];
    for (size_t i = 0; i < sizeof a8; i++)
        a8[i] = (int8_t)next();
    for (size_t i = 0; i < sizeof b8; i++)
        b8[i] = (int8_t)next();
    for (size_t i = 0; i < SM * SN; i++)
        d8[i] = (int32_t)next();
    double plain = 1e30, t = 1e30, steps = 0;
    for (int r = 0; r < 3; r++) {
        memcpy(want8, d8, sizeof want8);
        double p = ref_gemm_s8(S8_ITER, a8, b8, want8, SM, SN, SK);
        plain = p < plain ? p : plain;
    }
    for (int r = 0; r < 3; r++) {
        double x = run_gemm(gemm_s8, S8_ITER, a8, sizeof a8, b8, sizeof b8, d8, want8, sizeof d8, &steps);
        t = x < t ? x : t;
    }
    double macs = (double)S8_ITER * SM * SN * SK;
    report("(a) s8 GEMM, mma.m16n8k32", macs, t, plain, (double)S8_ITER * (SM / 16) * (SN / 8) * (SK / 32), steps);

    static double af[DM * DK], bf[DK * DN], df[DM * DN], wantf[DM * DN];
    for (size_t i = 0; i < DM * DK; i++)
        af[i] = ((int32_t)next() >> 8) * 0x1p-20;
    for (size_t i = 0; i < DK * DN; i++)
        bf[i] = ((int32_t)next() >> 8) * 0x1p-18;
    for (size_t i = 0; i < DM * DN; i++)
        df[i] = ((int32_t)next() >> 8) * 0x1p-10;
    plain = 1e30;
    t = 1e30;
    for (int r = 0; r < 3; r++) {
        memcpy(wantf, df, sizeof wantf);
        double p = ref_gemm_f64(F64_ITER, af, bf, wantf, DM, DN, DK);
        plain = p < plain ? p : plain;
    }
    for (int r = 0; r < 3; r++) {
        double x = run_gemm(gemm_f64, F64_ITER, af, sizeof af, bf, sizeof bf, df, wantf, sizeof df, &steps);
        t = x < t ? x : t;
    }
    macs = (double)F64_ITER * DM * DN * DK;
    report("(b) f64 GEMM, mma.m8n8k4 (DMMA)", macs, t, plain, (double)F64_ITER * (DM / 8) * (DN / 8) * (DK / 4),
           steps);

    /* f16 halves of small integers (-3..3), as words of two (the lower k in the low half) */
    static uint16_t ah[HM * HK], bh[HN * HK];
    static float a32[HM * HK], b32[HN * HK], dh[HM * HN], wanth[HM * HN];
    static const uint16_t half_of[7] = { 0xc200, 0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000, 0x4200 };   /* -3..3 */
    for (size_t i = 0; i < HM * HK; i++) {
        int v = (int)(next() % 7);
        ah[i] = half_of[v];
        a32[i] = (float)(v - 3);
    }
    for (size_t i = 0; i < HN * HK; i++) {
        int v = (int)(next() % 7);
        bh[i] = half_of[v];
        b32[i] = (float)(v - 3);
    }
    for (size_t i = 0; i < HM * HN; i++)
        dh[i] = (float)((int)(next() % 2001) - 1000);
    plain = 1e30;
    t = 1e30;
    for (int r = 0; r < 3; r++) {
        memcpy(wanth, dh, sizeof wanth);
        double p = ref_gemm_f32(F16_ITER, a32, b32, wanth, HM, HN, HK);
        plain = p < plain ? p : plain;
    }
    for (int r = 0; r < 3 && t > 0; r++) {
        double x = run_gemm(gemm_f16, F16_ITER, ah, sizeof ah, bh, sizeof bh, dh, wanth, sizeof dh, &steps);
        t = x < t ? x : t;
    }
    macs = (double)F16_ITER * HM * HN * HK;
    if (t < 0)
        printf("%-34s ptxrun cannot execute it yet\n", "(c) f16 GEMM, mma.m16n8k16");
    else
        report("(c) f16 GEMM, mma.m16n8k16", macs, t, plain, (double)F16_ITER * (HM / 16) * (HN / 8) * (HK / 16),
               steps);
    return 0;
}
