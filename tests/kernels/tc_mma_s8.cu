// tc_mma_s8: a 32 x 32 x 64 integer GEMM with mma.sync.aligned.m16n8k32 in inline PTX, four
// warps of four m16n8 tiles, two k steps; each lane loads its fragments as 32-bit words straight
// from global memory at the places the PTX ISA's m16n8k32 figures give (A row-major a[m][k],
// B col-major b[n][k], 4 bytes a register). D = A * B + C with .s32.s8.s8.s32 (wrapping: the
// sums stay small); E = A' * B + C' with .satfinite.s32.u8.s8.s32, where C' lies near INT32_MIN
// and INT32_MAX so that some results clamp. The reference sums exactly in 64 bits and clamps.
#define M 32
#define N 32
#define K 64
#define KW (K / 4)      // 32-bit words of a row

extern "C" __global__ void kernel(const unsigned *a, const unsigned *au, const unsigned *b,
                                  const int *c, const int *c2, int *d, int *e)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int tm = (warp >> 1) * 16, g = lane >> 2, q = lane & 3;
    for (int j = 0; j < 4; j++) {
        int tn = (warp & 1) * 16 + (j & 1) * 8;
        int col = tn + 2 * q;
        int r0 = (tm + g) * N + col, r1 = (tm + g + 8) * N + col;
        int acc[4] = { c[r0], c[r0 + 1], c[r1], c[r1 + 1] };
        int sat[4] = { c2[r0], c2[r0 + 1], c2[r1], c2[r1 + 1] };
        for (int k = 0; k < KW; k += 8) {
            unsigned fa[4], fu[4], fb[2];
            fa[0] = a[(tm + g) * KW + k + q];
            fa[1] = a[(tm + g + 8) * KW + k + q];
            fa[2] = a[(tm + g) * KW + k + 4 + q];
            fa[3] = a[(tm + g + 8) * KW + k + 4 + q];
            fu[0] = au[(tm + g) * KW + k + q];
            fu[1] = au[(tm + g + 8) * KW + k + q];
            fu[2] = au[(tm + g) * KW + k + 4 + q];
            fu[3] = au[(tm + g + 8) * KW + k + 4 + q];
            fb[0] = b[(tn + g) * KW + k + q];
            fb[1] = b[(tn + g) * KW + k + 4 + q];
            asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
                         "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                         : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3])
                         : "r"(fa[0]), "r"(fa[1]), "r"(fa[2]), "r"(fa[3]), "r"(fb[0]), "r"(fb[1]));
            // .satfinite clamps each k step's result: C' is added in the first step only
            asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 "
                         "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                         : "+r"(sat[0]), "+r"(sat[1]), "+r"(sat[2]), "+r"(sat[3])
                         : "r"(fu[0]), "r"(fu[1]), "r"(fu[2]), "r"(fu[3]), "r"(fb[0]), "r"(fb[1]));
        }
        d[r0] = acc[0]; d[r0 + 1] = acc[1]; d[r1] = acc[2]; d[r1 + 1] = acc[3];
        e[r0] = sat[0]; e[r0 + 1] = sat[1]; e[r1] = sat[2]; e[r1 + 1] = sat[3];
    }
}
