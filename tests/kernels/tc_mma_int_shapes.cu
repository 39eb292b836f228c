// tc_mma_int_shapes: one warp runs seven integer and single-bit mma.sync forms once each, on
// random inputs, each lane loading its A, B and C fragments straight from global memory at the
// places the PTX ISA's fragment figures give: every 32-bit register holds one 32-bit chunk of a
// row of A (rows groupID and groupID + 8, chunks threadID_in_group and + 4) or of a column of B
// (chunks threadID_in_group and + 4, column groupID); C and D: rows groupID (+ 8), columns
// 2 * threadID_in_group (+ 1). A is stored row-major and B col-major as words of packed
// elements, the lowest-addressed element in the low bits. Forms: m8n8k16 s8 x u8, m16n8k16
// u8 x u8 .satfinite, m8n8k32 s4 x s4, m16n8k32 u4 x s4, m16n8k64 s4 x u4 .satfinite,
// m8n8k128 b1 .xor.popc, m16n8k128 b1 .and.popc. The C reference decodes the elements and
// sums exactly (64 bits), clamping where .satfinite is given.

// A form's A fragment: regs registers; M = 16 uses rows g and g + 8
template <int M, int REGS>
__device__ void load_a(const unsigned *a, int kw, unsigned *r)
{
    int lane = threadIdx.x, g = lane >> 2, q = lane & 3;
    for (int i = 0; i < REGS; i++)
        r[i] = a[(g + (M == 16 ? 8 * (i & 1) : 0)) * kw + q + 4 * (M == 16 ? i >> 1 : i)];
}

template <int REGS>
__device__ void load_b(const unsigned *b, int kw, unsigned *r)
{
    int lane = threadIdx.x, g = lane >> 2, q = lane & 3;
    for (int i = 0; i < REGS; i++)
        r[i] = b[g * kw + q + 4 * i];
}

template <int M>
__device__ void load_c(const int *c, int *r)
{
    int lane = threadIdx.x, g = lane >> 2, q = lane & 3;
    for (int i = 0; i < M / 8; i++)
        for (int j = 0; j < 2; j++)
            r[2 * i + j] = c[(g + 8 * i) * 8 + 2 * q + j];
}

template <int M>
__device__ void store_d(int *d, const int *r)
{
    int lane = threadIdx.x, g = lane >> 2, q = lane & 3;
    for (int i = 0; i < M / 8; i++)
        for (int j = 0; j < 2; j++)
            d[(g + 8 * i) * 8 + 2 * q + j] = r[2 * i + j];
}

// buffers per form f: a + 256 * f (words), b + 64 * f, c and d + 128 * f
extern "C" __global__ void kernel(const unsigned *a, const unsigned *b, const int *c, int *d)
{
    unsigned fa[4], fb[2];
    int x[4];
    // 0: m8n8k16 .s32.s8.u8.s32 (rows of 16 bytes: 4 words)
    load_a<8, 1>(a, 4, fa); load_b<1>(b, 4, fb); load_c<8>(c, x);
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.u8.s32 {%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+r"(x[0]), "+r"(x[1]) : "r"(fa[0]), "r"(fb[0]));
    store_d<8>(d, x);
    // 1: m16n8k16 .satfinite.s32.u8.u8.s32 (4 words a row)
    load_a<16, 2>(a + 256, 4, fa); load_b<1>(b + 64, 4, fb); load_c<16>(c + 128, x);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};"
                 : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]) : "r"(fa[0]), "r"(fa[1]), "r"(fb[0]));
    store_d<16>(d + 128, x);
    // 2: m8n8k32 .s32.s4.s4.s32 (32 nibbles: 4 words a row)
    load_a<8, 1>(a + 512, 4, fa); load_b<1>(b + 128, 4, fb); load_c<8>(c + 256, x);
    asm volatile("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 {%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+r"(x[0]), "+r"(x[1]) : "r"(fa[0]), "r"(fb[0]));
    store_d<8>(d + 256, x);
    // 3: m16n8k32 .s32.u4.s4.s32 (4 words a row)
    load_a<16, 2>(a + 768, 4, fa); load_b<1>(b + 192, 4, fb); load_c<16>(c + 384, x);
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u4.s4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};"
                 : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]) : "r"(fa[0]), "r"(fa[1]), "r"(fb[0]));
    store_d<16>(d + 384, x);
    // 4: m16n8k64 .satfinite.s32.s4.u4.s32 (64 nibbles: 8 words a row)
    load_a<16, 4>(a + 1024, 8, fa); load_b<2>(b + 256, 8, fb); load_c<16>(c + 512, x);
    asm volatile("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.u4.s32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3])
                 : "r"(fa[0]), "r"(fa[1]), "r"(fa[2]), "r"(fa[3]), "r"(fb[0]), "r"(fb[1]));
    store_d<16>(d + 512, x);
    // 5: m8n8k128 .s32.b1.b1.s32.xor.popc (128 bits: 4 words a row)
    load_a<8, 1>(a + 1280, 4, fa); load_b<1>(b + 320, 4, fb); load_c<8>(c + 640, x);
    asm volatile("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc {%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+r"(x[0]), "+r"(x[1]) : "r"(fa[0]), "r"(fb[0]));
    store_d<8>(d + 640, x);
    // 6: m16n8k128 .s32.b1.b1.s32.and.popc (4 words a row)
    load_a<16, 2>(a + 1536, 4, fa); load_b<1>(b + 384, 4, fb); load_c<16>(c + 768, x);
    asm volatile("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};"
                 : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]) : "r"(fa[0]), "r"(fa[1]), "r"(fb[0]));
    store_d<16>(d + 768, x);
}
