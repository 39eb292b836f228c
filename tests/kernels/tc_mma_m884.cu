// tc_mma_m884: mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16, the Volta form, on one warp: each
// quad-pair (lanes 4p..4p+3 and 16+4p..16+4p+3) computes its own D = A B + C of 8 x 8 x 4. Per
// the ISA's m8n8k4 figures, lane l of a pair holds row r = l % 4 (+ 4 from lane 16) of A (a0..a3
// along k), column r of B (b0..b3 down k) and row r of C and D (c0..c7 along n), as f16x2 words.
// Each pair's A, B and C come from its own slice of the buffers (A row-major a[p][8][4], B
// col-major b[p][8][4], C and D row-major [p][8][8]). Inputs are small integers, so every sum is
// exact in f16 and the C reference's sum is the one result.
extern "C" __global__ void kernel(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *d)
{
    int l = threadIdx.x, p = (l >> 2) & 3, r = (l & 3) + (l >= 16 ? 4 : 0);
    unsigned fa[2], fb[2], fc[4], x[4];
    for (int i = 0; i < 2; i++) {
        fa[i] = a[p * 16 + r * 2 + i];       // 8 rows of 4 halves: 2 words a row
        fb[i] = b[p * 16 + r * 2 + i];       // 8 columns of 4 halves
    }
    for (int i = 0; i < 4; i++)
        fc[i] = c[p * 32 + r * 4 + i];       // 8 rows of 8 halves: 4 words a row
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, "
                 "{%8, %9, %10, %11};"
                 : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3])
                 : "r"(fa[0]), "r"(fa[1]), "r"(fb[0]), "r"(fb[1]), "r"(fc[0]), "r"(fc[1]), "r"(fc[2]), "r"(fc[3]));
    for (int i = 0; i < 4; i++)
        d[p * 32 + r * 4 + i] = x[i];
}
