/* approx_tables.c: runs ptxrun's .approx models (approx.c) over every entry of the H100's dense
 * tables (../shared/hw/approx) and prints per table: entries, % bit-exact, the largest distance
 * in ulps (ord() of the README), and for sin/cos/lg2 the largest absolute difference. Exits 1
 * if an entry is farther from the H100 than the bound below, or if one of the f16/bf16 ex2 and
 * tanh results (all 65,536 inputs each) is not the H100's.
 *   build/approx_tables [DIR]          (make approx-tables) */
#include "cli.h"
#include "tables.h"

/* The claimed bound: within MAX_ULPS of the H100, or (sin/cos/lg2, whose own error is absolute
 * near their zeros) within MAX_ABS of it. */
#define MAX_ULPS 2
#define MAX_ABS 0x1p-22

typedef struct Table {
    const char *label;      /* instruction and range */
    int op;
    bool ftz;
    float a;                /* the dividend for div, else unused */
    const char *stem;       /* the file holding the H100's results */
    uint32_t first;
    double (*ref)(double);  /* the README's reference, to rebuild hw from the deltas */
    bool absolute;          /* sin/cos/lg2: absolute error allowed */
} Table;

static double ex2(double x) { return exp2(x); }

static const Table TABLES[] = {
    { "rcp.approx.f32 [1,2)", OP_RCP, false, 0, "rcp.approx.f32_p1_2", 0x3f800000, tab_rcp, false },
    { "rcp.approx.f32 [2,4)", OP_RCP, false, 0, "rcp.approx.f32_p1_2", 0x40000000, tab_rcp, false },
    { "rcp.approx.ftz.f32 [1,2)", OP_RCP, true, 0, "rcp.approx.f32_p1_2", 0x3f800000, tab_rcp, false },
    { "div.approx.f32 1/b, b in [1,2)", OP_DIV, false, 1.0f, "rcp.approx.f32_p1_2", 0x3f800000, tab_rcp, false },
    { "div.approx.f32 1.5/b, b in [1,2)", OP_DIV, false, 1.5f, "div.approx.f32_a1.5_b_p1_2", 0x3f800000, tab_div15, false },
    { "sqrt.approx.f32 [1,2)", OP_SQRT, false, 0, "sqrt.approx.f32_p1_2", 0x3f800000, sqrt, false },
    { "sqrt.approx.f32 [2,4)", OP_SQRT, false, 0, "sqrt.approx.f32_p2_4", 0x40000000, sqrt, false },
    { "rsqrt.approx.f32 [1,2)", OP_RSQRT, false, 0, "rsqrt.approx.f32_p1_2", 0x3f800000, tab_rsqrt, false },
    { "rsqrt.approx.f32 [2,4)", OP_RSQRT, false, 0, "rsqrt.approx.f32_p2_4", 0x40000000, tab_rsqrt, false },
    { "ex2.approx.f32 (-1,-0.5]", OP_EX2, false, 0, "ex2.approx.f32_m0.5_1", 0xbf000000, ex2, false },
    { "ex2.approx.f32 [0.5,1)", OP_EX2, false, 0, "ex2.approx.f32_p0.5_1", 0x3f000000, ex2, false },
    { "ex2.approx.f32 [1,2)", OP_EX2, false, 0, "ex2.approx.f32_p1_2", 0x3f800000, ex2, false },
    { "ex2.approx.f32 [16,32)", OP_EX2, false, 0, "ex2.approx.f32_p16_32", 0x41800000, ex2, false },
    { "ex2.approx.ftz.f32 [16,32)", OP_EX2, true, 0, "ex2.approx.f32_p16_32", 0x41800000, ex2, false },
    { "lg2.approx.f32 [1,2)", OP_LG2, false, 0, "lg2.approx.f32_p1_2", 0x3f800000, log2, true },
    { "lg2.approx.f32 [0.5,1)", OP_LG2, false, 0, "lg2.approx.f32_p0.5_1", 0x3f000000, log2, true },
    { "sin.approx.f32 [0.5,1)", OP_SIN, false, 0, "sin.approx.f32_p0.5_1", 0x3f000000, sin, true },
    { "sin.approx.f32 [1,2)", OP_SIN, false, 0, "sin.approx.f32_p1_2", 0x3f800000, sin, true },
    { "sin.approx.f32 [2,4)", OP_SIN, false, 0, "sin.approx.f32_p2_4", 0x40000000, sin, true },
    { "sin.approx.f32 (-2,-1]", OP_SIN, false, 0, "sin.approx.f32_m1_2", 0xbf800000, sin, true },
    { "cos.approx.f32 [0.5,1)", OP_COS, false, 0, "cos.approx.f32_p0.5_1", 0x3f000000, cos, true },
    { "cos.approx.f32 [1,2)", OP_COS, false, 0, "cos.approx.f32_p1_2", 0x3f800000, cos, true },
    { "cos.approx.f32 [2,4)", OP_COS, false, 0, "cos.approx.f32_p2_4", 0x40000000, cos, true },
    { "cos.approx.f32 (-2,-1]", OP_COS, false, 0, "cos.approx.f32_p1_2", 0xbf800000, cos, true },
    { "tanh.approx.f32 [0.125,0.25)", OP_TANH, false, 0, "tanh.approx.f32_p0.125_0.25", 0x3e000000, tanh, false },
    { "tanh.approx.f32 [0.5,1)", OP_TANH, false, 0, "tanh.approx.f32_p0.5_1", 0x3f000000, tanh, false },
    { "tanh.approx.f32 [1,2)", OP_TANH, false, 0, "tanh.approx.f32_p1_2", 0x3f800000, tanh, false },
};

/* One f32 table: prints its line; returns whether every entry is within the bound. */
static bool check_f32(const char *dir, const Table *t)
{
    uint32_t *hw = tab_hw(dir, t->stem, t->first, t->ref);
    if (!hw) {
        printf("%-34s missing\n", t->label);
        return false;
    }
    uint64_t exact = 0, beyond = 0, max_ulps = 0;
    double max_abs = 0;
    for (uint32_t i = 0; i < TABLE_ENTRIES; i++) {
        uint32_t x = t->first + i;
        uint32_t ours = t->op == OP_DIV ? approx_f32(OP_DIV, false, t->ftz, tab_bits(t->a), x)
                                        : approx_f32(t->op, false, t->ftz, x, 0);
        int64_t d = tab_ord(ours) - tab_ord(hw[i]);
        uint64_t ulps = (uint64_t)(d < 0 ? -d : d);
        double abs_diff = fabs((double)tab_f32(ours) - tab_f32(hw[i]));
        exact += ulps == 0;
        max_ulps = ulps > max_ulps ? ulps : max_ulps;
        max_abs = abs_diff > max_abs ? abs_diff : max_abs;
        beyond += ulps > MAX_ULPS && !(t->absolute && abs_diff <= MAX_ABS);
    }
    free(hw);
    printf("%-34s %8u %8.3f%% %10llu ulp", t->label, TABLE_ENTRIES, 100.0 * (double)exact / TABLE_ENTRIES,
           (unsigned long long)max_ulps);
    if (t->absolute)
        printf("  abs 2^%.2f", max_abs > 0 ? log2(max_abs) : -INFINITY);
    printf("%s\n", beyond ? "  BEYOND BOUND" : "");
    if (beyond)
        printf("    %llu entries beyond the bound\n", (unsigned long long)beyond);
    return beyond == 0;
}

/* rcp/rsqrt.approx.ftz.f64: 2^20 results, one per high word (the low word does not count). */
static bool check_f64(const char *dir, const char *label, int op, const char *file, uint64_t high_first)
{
    size_t len;
    uint64_t *hw = tab_read(dir, file, &len);
    if (!hw || len != (8u << 20)) {
        printf("%-34s missing\n", label);
        free(hw);
        return false;
    }
    uint64_t exact = 0, max_ulps = 0;
    for (uint64_t j = 0; j < 1u << 20; j++) {
        uint64_t ours = approx_f64(op, true, (high_first | j) << 32 | 0x12345678u);
        uint64_t d = ours > hw[j] ? ours - hw[j] : hw[j] - ours;
        d >>= 32;                                 /* in units of the result's last (20th) bit */
        exact += d == 0;
        max_ulps = d > max_ulps ? d : max_ulps;
    }
    free(hw);
    printf("%-34s %8u %8.3f%% %10llu ulp (of 2^-20)%s\n", label, 1u << 20, 100.0 * (double)exact / (1u << 20),
           (unsigned long long)max_ulps, max_ulps > MAX_ULPS ? "  BEYOND BOUND" : "");
    return max_ulps <= MAX_ULPS;
}

/* ex2/tanh .approx of f16 and bf16: every input; these must all be the H100's bits. */
static bool check_half(const char *dir, const char *label, int op, int type, bool ftz, const char *file)
{
    size_t len;
    uint16_t *hw = tab_read(dir, file, &len);
    if (!hw || len != 2u << 16) {
        printf("%-34s missing\n", label);
        free(hw);
        return false;
    }
    uint32_t exact = 0;
    for (uint32_t x = 0; x < 1u << 16; x++)
        exact += approx_half(op, type, ftz, x) == hw[x];
    free(hw);
    printf("%-34s %8u %8.3f%%%s\n", label, 1u << 16, 100.0 * exact / (1u << 16), exact == 1u << 16 ? "" : "  NOT ALL");
    return exact == 1u << 16;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/hw/approx";
    bool ok = true;
    printf("%-34s %8s %9s %14s   (bound: %d ulp, or 2^-22 absolute for sin/cos/lg2)\n", "table",
           "entries", "bit-exact", "max distance", MAX_ULPS);
    for (size_t i = 0; i < sizeof TABLES / sizeof TABLES[0]; i++)
        ok &= check_f32(dir, &TABLES[i]);
    ok &= check_f64(dir, "rcp.approx.ftz.f64 [1,2)", OP_RCP, "rcp.approx.ftz.f64_p1_2_hw_u64.bin.gz", 0x3ff00000);
    ok &= check_f64(dir, "rsqrt.approx.ftz.f64 [1,2)", OP_RSQRT, "rsqrt.approx.ftz.f64_p1_2_hw_u64.bin.gz", 0x3ff00000);
    ok &= check_f64(dir, "rsqrt.approx.ftz.f64 [2,4)", OP_RSQRT, "rsqrt.approx.ftz.f64_p2_4_hw_u64.bin.gz", 0x40000000);
    ok &= check_half(dir, "ex2.approx.f16 (all)", OP_EX2, TYPE_F16, false, "ex2.approx.f16_all65536_hw_u16.bin.gz");
    ok &= check_half(dir, "ex2.approx.ftz.bf16 (all)", OP_EX2, TYPE_BF16, true, "ex2.approx.ftz.bf16_all65536_hw_u16.bin.gz");
    ok &= check_half(dir, "tanh.approx.f16 (all)", OP_TANH, TYPE_F16, false, "tanh.approx.f16_all65536_hw_u16.bin.gz");
    ok &= check_half(dir, "tanh.approx.bf16 (all)", OP_TANH, TYPE_BF16, false, "tanh.approx.bf16_all65536_hw_u16.bin.gz");
    printf("%s\n", ok ? "all entries within the bound" : "FAILED: entries beyond the bound");
    return ok ? 0 : 1;
}
