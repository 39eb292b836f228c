// tc_mma_b1: a binary GEMM, 32 x 32 x 512 bits, with mma.sync.aligned.m16n8k256 .b1 in inline
// PTX: D = C + sum over k of popc(a xor b) (.xor.popc) and E = sum of popc(a and b) (.and.popc),
// four warps of four m16n8 tiles, two k steps; each lane loads its fragments as 32-bit words
// of 32 bits each from global memory at the places the ISA's m16n8k256 figures give (A
// row-major a[m][k/32], B col-major b[n][k/32]). The reference counts bits in plain C.
#define M 32
#define N 32
#define K 512
#define KW (K / 32)

extern "C" __global__ void kernel(const unsigned *a, const unsigned *b, const int *c, int *d, int *e)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int tm = (warp >> 1) * 16, g = lane >> 2, q = lane & 3;
    for (int j = 0; j < 2; j++) {
        int tn = (warp & 1) * 16 + j * 8;
        int r0 = (tm + g) * N + tn + 2 * q, r1 = (tm + g + 8) * N + tn + 2 * q;
        int x[4] = { c[r0], c[r0 + 1], c[r1], c[r1 + 1] };
        int y[4] = { 0, 0, 0, 0 };
        for (int k = 0; k < KW; k += 8) {
            unsigned fa[4], fb[2];
            fa[0] = a[(tm + g) * KW + k + q];
            fa[1] = a[(tm + g + 8) * KW + k + q];
            fa[2] = a[(tm + g) * KW + k + 4 + q];
            fa[3] = a[(tm + g + 8) * KW + k + 4 + q];
            fb[0] = b[(tn + g) * KW + k + q];
            fb[1] = b[(tn + g) * KW + k + 4 + q];
            asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc "
                         "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                         : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3])
                         : "r"(fa[0]), "r"(fa[1]), "r"(fa[2]), "r"(fa[3]), "r"(fb[0]), "r"(fb[1]));
            asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc "
                         "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                         : "+r"(y[0]), "+r"(y[1]), "+r"(y[2]), "+r"(y[3])
                         : "r"(fa[0]), "r"(fa[1]), "r"(fa[2]), "r"(fa[3]), "r"(fb[0]), "r"(fb[1]));
        }
        d[r0] = x[0]; d[r0 + 1] = x[1]; d[r1] = x[2]; d[r1 + 1] = x[3];
        e[r0] = y[0]; e[r0 + 1] = y[1]; e[r1] = y[2]; e[r1 + 1] = y[3];
    }
}
