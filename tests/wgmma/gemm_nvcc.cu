// gemm_nvcc.cu: one 64x64x64 f16 GEMM tile on a warpgroup with wgmma (written for ptxrun's tests;
// tests/wgmma/gen_gemm.py makes its PTX and the expected D). A: 64 x 64 (M x K), B: 64 x 64 (N x K,
// K contiguous), both row after row; D: 64 x 64 f32, row after row.
#include <cuda_fp16.h>
#include <stdint.h>

// A K-major 128B-swizzled operand: row r (of 64 halves, 128 bytes) at r * 128, then the 16-byte
// chunks of the row xored with r % 8 (bits 4-6 of the address with bits 7-9).
__device__ static uint32_t swizzled(int r, int k)
{
    uint32_t off = r * 128 + k * 2;
    return off ^ (((off >> 7) & 7) << 4);
}

// start >> 4, LBO 16 bytes (unused), SBO 1024 bytes (8 rows of 128), 128B swizzle (1 << 62)
__device__ static uint64_t descriptor(const void *p)
{
    uint64_t a = (uint32_t)__cvta_generic_to_shared(p);
    return ((a & 0x3ffff) >> 4) | (uint64_t)(16 >> 4) << 16 | (uint64_t)(1024 >> 4) << 32 | (uint64_t)1 << 62;
}

extern "C" __global__ void __launch_bounds__(128) gemm(const __half *A, const __half *B, float *D)
{
    __shared__ __align__(1024) __half sA[64 * 64];
    __shared__ __align__(1024) __half sB[64 * 64];
    int t = threadIdx.x;
    for (int i = t; i < 64 * 64; i += 128) {
        uint32_t off = swizzled(i / 64, i % 64);
        sA[off / 2] = A[i];
        sB[off / 2] = B[i];
    }
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    float d[32];
#pragma unroll
    for (int i = 0; i < 32; i++)
        d[i] = 0.0f;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int ks = 0; ks < 4; ks++) {
        uint64_t da = descriptor(sA + ks * 16), db = descriptor(sB + ks * 16);
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n}\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                     : "l"(da), "l"(db), "r"((int)(ks > 0)));
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    int w = t / 32, l = t % 32;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        int row = 16 * w + l / 4 + 8 * ((i >> 1) & 1), col = 8 * (i >> 2) + 2 * (l % 4) + (i & 1);
        D[row * 64 + col] = d[i];
    }
}
