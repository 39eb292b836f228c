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

#include "benchload.h"
#include "reference.h"

enum { SM = 64, SN = 64, SK = 256, SKW = SK / 4,     /* (a): s8, rows of SK bytes = SKW words */
       DM = 32, DN = 32, DK = 64,                    /* (b): f64 */
       HM = 64, HN = 64, HK = 64 };                  /* (c): f16, rows of HK / 2 words */

/* What every program has: the buffers' addresses pa, pb, pd and the walkers ta, tb, td over them;
 * the fragments' registers (fragments); g and q, the lane's group of four and place in it; it, mt,
 * nt over the iterations (%u in the format) and D's tiles, then kt over the k steps of a tile. */
#define GEMM_HEAD(fragments) \
    ".reg .b64 pa;\n.reg .b64 pb;\n.reg .b64 pd;\n.reg .b64 ta;\n.reg .b64 tb;\n.reg .b64 td;\n" fragments \
    ".reg .u32 it;\n.reg .u32 mt;\n.reg .u32 nt;\n.reg .u32 kt;\n.reg .u32 g;\n.reg .u32 q;\n.reg .u32 off;\n" \
    ".reg .pred p;\n" \
    "    mov.u32 g, %%laneid;\n    and.b32 q, g, 3;\n    shr.u32 g, g, 2;\n    mov.u32 it, 0;\n" \
    "ITER:\n    mov.u32 mt, 0;\n" \
    "MT:\n    mov.u32 nt, 0;\n" \
    "NT:\n"
#define GEMM_LOOP(counter, count, label) \
    "    add.u32 " counter ", " counter ", 1;\n    setp.lt.u32 p, " counter ", " count ";\n@p  bra " label ";\n"
/* the ends of the tile loops (m_tiles x n_tiles tiles) and of the iterations */
#define GEMM_TAIL(m_tiles, n_tiles) \
    GEMM_LOOP("nt", n_tiles, "NT") GEMM_LOOP("mt", m_tiles, "MT") GEMM_LOOP("it", "%u", "ITER")

/* (a), (c): one warp walks the 4 x 8 m16n8 tiles of D; each loads its C from D, runs the k_steps
 * k steps and stores D; all of it `iterations` times. D's rows are 64 words of type c; A's and B's
 * rows (B by columns) row_words words, a_regs A's registers 1 to 3 at their offsets. */
#define GEMM_M16N8(c, row_words, a_regs, mma, k_steps) \
    GEMM_HEAD(".reg .b32 a<4>;\n.reg .b32 b<2>;\n.reg ." c " c<4>;\n") \
    "    mad.lo.u32 off, mt, 16, g;\n    mul.lo.u32 off, off, 64;\n    mad.lo.u32 off, nt, 8, off;\n" \
    "    mad.lo.u32 off, q, 2, off;\n    mul.wide.u32 td, off, 4;\n    add.s64 td, pd, td;\n" \
    "    ld.global.v2." c " {c0, c1}, [td];\n    ld.global.v2." c " {c2, c3}, [td+2048];\n" \
    "    mad.lo.u32 off, mt, 16, g;\n    mad.lo.u32 off, off, " row_words ", q;\n    mul.wide.u32 ta, off, 4;\n" \
    "    add.s64 ta, pa, ta;\n" \
    "    mad.lo.u32 off, nt, 8, g;\n    mad.lo.u32 off, off, " row_words ", q;\n    mul.wide.u32 tb, off, 4;\n" \
    "    add.s64 tb, pb, tb;\n    mov.u32 kt, 0;\n" \
    "KT:\n" \
    a_regs "    ld.global.b32 b0, [tb];\n    ld.global.b32 b1, [tb+16];\n" \
    "    " mma " {c0, c1, c2, c3}, {a0, a1, a2, a3}, {b0, b1}, {c0, c1, c2, c3};\n" \
    "    add.s64 ta, ta, 32;\n    add.s64 tb, tb, 32;\n" \
    GEMM_LOOP("kt", k_steps, "KT") \
    "    st.global.v2." c " [td], {c0, c1};\n    st.global.v2." c " [td+2048], {c2, c3};\n" \
    GEMM_TAIL("4", "8")

/* (a) s8, rows of 64 words, 8 k steps of 32 */
static const char gemm_s8[] = GEMM_M16N8("b32", "64",
    "    ld.global.b32 a0, [ta];\n    ld.global.b32 a1, [ta+2048];\n    ld.global.b32 a2, [ta+16];\n"
    "    ld.global.b32 a3, [ta+2064];\n", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "8");

/* (b) The same over the 4 x 4 m8n8 tiles of a 32 x 32 D, 16 k steps of 4; A row-major, B
 * row-major (b[k][n]). */
static const char gemm_f64[] =
    GEMM_HEAD(".reg .f64 a0;\n.reg .f64 b0;\n.reg .f64 c<2>;\n")
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
    GEMM_LOOP("kt", "16", "KT")
    "    st.global.v2.f64 [td], {c0, c1};\n"
    GEMM_TAIL("4", "4");

/* (c) f16 into f32, rows of 32 words (64 halves), 4 k steps of 16 */
static const char gemm_f16[] = GEMM_M16N8("f32", "32",
    "    ld.global.b32 a0, [ta];\n    ld.global.b32 a1, [ta+1024];\n    ld.global.b32 a2, [ta+16];\n"
    "    ld.global.b32 a3, [ta+1040];\n", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "4");

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

/* One GEMM: its PTX (a format, %u = iterations), D = A B + C's sizes (m x n x k) and the mma's
 * tile (tm x tn x tk); A, B, D's start (d0) as ptxrun's buffers hold them, and as the plain C
 * reference takes them (ref_a, ref_b, each C type's own); want: D after the iterations, which
 * plain (the reference run once from d0's copy in want) leaves there, seconds. */
typedef struct Gemm {
    const char *name, *format;
    unsigned iterations, m, n, k, tm, tn, tk;
    const void *a, *b, *d0, *ref_a, *ref_b;
    size_t asize, bsize, dsize;
    void *want;
    double (*plain)(const struct Gemm *g);
} Gemm;

static bool refused;        /* the last diagnostic said "cannot execute" */

static void note_refusal(void *c, Diag *d, DiagLevel l, Span at, const char *m)
{
    (void)c; (void)d; (void)l; (void)at;
    refused |= strstr(m, "cannot execute") != NULL;
}

/* Runs g's program on one warp with buffers pa, pb, pd and checks pd's final bytes, every one
 * defined, against g->want. Returns seconds (-1 when ptxrun does not execute the program yet);
 * *steps gets the warp's instructions. */
static double run_gemm(const Gemm *g, double *steps)
{
    char text[8192];
    snprintf(text, sizeof text, g->format, g->iterations);
    BenchProgram prog;
    refused = false;
    benchload_open(&prog, "bench_gemm.ptx", text, note_refusal);
    Block *blk = prog.block;
    if (!blk && refused) {
        benchload_close(&prog);
        return -1;
    }
    if (!blk) {
        fprintf(stderr, "bench_gemm: the benchmark program does not load:\n%s\n", text);
        exit(1);
    }
    add_buffer(blk, "pa", g->a, g->asize);
    add_buffer(blk, "pb", g->b, g->bsize);
    const Region *rd = add_buffer(blk, "pd", g->d0, g->dsize);
    char why[256];
    double t = benchload_run(&prog, "bench_gemm", WARP_SIZE, 1, 1, why, sizeof why);
    const uint8_t *want = g->want;
    for (size_t i = 0; i < g->dsize; i++)
        if ((rd->shadow && rd->shadow[i] != 0xff) || rd->data[i] != want[i]) {
            fprintf(stderr, "bench_gemm: a wrong result: byte %zu of D is 0x%02x, not 0x%02x\n", i, rd->data[i],
                    want[i]);
            exit(1);
        }
    *steps = (double)blk->lane_steps / WARP_SIZE;    /* steps of the warp: lane_steps / 32 */
    benchload_close(&prog);
    return t;
}

/* Best of 3 of the plain C and of ptxrun on g; its line: multiply-adds per second, how many
 * times slower than C ptxrun is, the mma instructions' share of the warp's. */
static void bench(const Gemm *g)
{
    double plain = 1e30, t = 1e30, steps = 0;
    for (int r = 0; r < 3; r++) {
        memcpy(g->want, g->d0, g->dsize);
        double p = g->plain(g);
        plain = p < plain ? p : plain;
    }
    for (int r = 0; r < 3 && t > 0; r++) {
        double x = run_gemm(g, &steps);
        t = x < t ? x : t;
    }
    if (t < 0) {
        printf("%-34s ptxrun cannot execute it yet\n", g->name);
        return;
    }
    double macs = (double)g->iterations * g->m * g->n * g->k;
    double mmas = (double)g->iterations * (g->m / g->tm) * (g->n / g->tn) * (g->k / g->tk);   /* one a tile, k step */
    printf("%-34s %8.3g multiply-adds/s, result checked; plain C %.3g/s, %.1fx ptxrun; mma %.0f%% of the warp's "
           "instructions\n", g->name, macs / t, macs / plain, t / plain, 100.0 * mmas / steps);
}

static double plain_s8(const Gemm *g)
{
    return ref_gemm_s8(g->iterations, g->ref_a, g->ref_b, g->want, (int)g->m, (int)g->n, (int)g->k);
}

static double plain_f64(const Gemm *g)
{
    return ref_gemm_f64(g->iterations, g->ref_a, g->ref_b, g->want, (int)g->m, (int)g->n, (int)g->k);
}

static double plain_f32(const Gemm *g)
{
    return ref_gemm_f32(g->iterations, g->ref_a, g->ref_b, g->want, (int)g->m, (int)g->n, (int)g->k);
}

static uint32_t rng = 0x2545f491u;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
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
    bench(&(Gemm){ "(a) s8 GEMM, mma.m16n8k32", gemm_s8, S8_ITER, SM, SN, SK, 16, 8, 32, a8, b8, d8, a8, b8,
                   sizeof a8, sizeof b8, sizeof d8, want8, plain_s8 });

    static double af[DM * DK], bf[DK * DN], df[DM * DN], wantf[DM * DN];
    for (size_t i = 0; i < DM * DK; i++)
        af[i] = ((int32_t)next() >> 8) * 0x1p-20;
    for (size_t i = 0; i < DK * DN; i++)
        bf[i] = ((int32_t)next() >> 8) * 0x1p-18;
    for (size_t i = 0; i < DM * DN; i++)
        df[i] = ((int32_t)next() >> 8) * 0x1p-10;
    bench(&(Gemm){ "(b) f64 GEMM, mma.m8n8k4 (DMMA)", gemm_f64, F64_ITER, DM, DN, DK, 8, 8, 4, af, bf, df, af, bf,
                   sizeof af, sizeof bf, sizeof df, wantf, plain_f64 });

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
    bench(&(Gemm){ "(c) f16 GEMM, mma.m16n8k16", gemm_f16, F16_ITER, HM, HN, HK, 16, 8, 16, ah, bh, dh, a32, b32,
                   sizeof ah, sizeof bh, sizeof dh, wanth, plain_f32 });
    return 0;
}
