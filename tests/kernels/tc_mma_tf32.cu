// tc_mma_tf32: a 32 x 32 x 32 GEMM with mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 in
// inline PTX, four warps of four m16n8 tiles, four k steps; each lane loads its f32 fragment
// elements from global memory at the places the ISA's m16n8k8 .tf32 figures give and rounds
// them with cvt.rna.tf32.f32 (as wmma::__float_to_tf32 does). The inputs are multiples of 1/8
// in [-2, 2] carrying noise in the 13 low mantissa bits that cvt.rna rounds away: some round
// down, some (below half an ulp under the value) round up, so a cut instead of cvt.rna gives
// other values. Every product and partial sum is then exact in f32, and the C reference's sum
// is the one result whatever order the tensor core adds in. D = A * B + C.
#define M 32
#define N 32
#define K 32

__device__ __forceinline__ unsigned tf32(float x)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}

extern "C" __global__ void kernel(const float *a, const float *b, const float *c, float *d)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int tm = (warp >> 1) * 16, g = lane >> 2, q = lane & 3;
    for (int j = 0; j < 2; j++) {
        int tn = (warp & 1) * 16 + j * 8;
        int r0 = (tm + g) * N + tn + 2 * q, r1 = (tm + g + 8) * N + tn + 2 * q;
        float acc[4] = { c[r0], c[r0 + 1], c[r1], c[r1 + 1] };
        for (int k = 0; k < K; k += 8) {
            unsigned fa[4], fb[2];
            fa[0] = tf32(a[(tm + g) * K + k + q]);            // a[m][k], row-major
            fa[1] = tf32(a[(tm + g + 8) * K + k + q]);
            fa[2] = tf32(a[(tm + g) * K + k + q + 4]);
            fa[3] = tf32(a[(tm + g + 8) * K + k + q + 4]);
            fb[0] = tf32(b[(k + q) * N + tn + g]);            // b[k][n], row-major
            fb[1] = tf32(b[(k + q + 4) * N + tn + g]);
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                         "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                         : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                         : "r"(fa[0]), "r"(fa[1]), "r"(fa[2]), "r"(fa[3]), "r"(fb[0]), "r"(fb[1]));
        }
        d[r0] = acc[0]; d[r0 + 1] = acc[1]; d[r1] = acc[2]; d[r1 + 1] = acc[3];
    }
}
