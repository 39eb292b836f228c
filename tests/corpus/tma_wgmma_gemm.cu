// tma_wgmma_gemm.cu: a GEMM tile in the CUTLASS sm_90 pattern (TMA, mbarriers, wgmma), written for
// ptxrun's corpus (tests/corpus/regen.sh makes its PTX; gen.py its inputs and the expected D,
// computed apart).
//
// D (M x N, f32, row after row) = A (M x K, f16, row after row) times B, given as N x K (f16, K
// contiguous). Each CTA computes a 64 x 64 tile of D with two warpgroups, warp-specialized as
// CUTLASS's sm90 kernels are:
// - the producer warpgroup (threads 0-127) gives registers back (setmaxnreg.dec); one elected thread
//   of its first warp walks K in tiles of 64: it waits for the stage's "empty" mbarrier (parity of
//   the pass before; a fresh barrier's parity 1 passes at once), arms the stage's "full" mbarrier
//   with arrive.expect_tx of the stage's bytes, and issues two cp.async.bulk.tensor.2d loads (A's
//   64 x 64 box and B's) through the tensor maps, 128B-swizzled, completing the full barrier's
//   transaction count;
// - the consumer warpgroup (threads 128-255) takes registers (setmaxnreg.inc), waits for the
//   stage's full barrier (try_wait.parity in a loop, as CUTLASS's ClusterBarrier::wait), makes
//   the wgmma descriptors of the stage's A and B (K-major, 128B swizzle, SBO 1024, K stepped by 32
//   bytes of the start address), runs four wgmma.mma_async m64n64k16 f32 += f16 * f16, commits,
//   waits for the group, and arrives on the stage's empty barrier (128 arrivals free it);
// - the epilogue stores D from the accumulators by the ISA's fragment figure.
//
// -DSKIP_FULL_WAIT: the consumer does not wait for the full barrier (the missing wait: it reads
// a stage before its tensor copies land). -DSKIP_WGMMA_WAIT: the last K tile's wgmma.wait_group is
// left out, so the epilogue reads D while the last wgmma is in flight.
#include <cuda.h>
#include <cuda_fp16.h>
#include <stdint.h>

#define STAGES 3
#define BM 64
#define BN 64
#define BK 64
#define STAGE_BYTES ((BM + BN) * BK * 2)

__device__ static inline uint32_t smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ static inline void mbar_init(uint64_t *bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(count));
}

__device__ static inline void mbar_wait(uint64_t *bar, uint32_t parity)
{
    asm volatile("{\n"
                 ".reg .pred P1;\n"
                 "LAB_WAIT:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
                 "@P1 bra DONE;\n"
                 "bra LAB_WAIT;\n"
                 "DONE:\n"
                 "}\n" ::"r"(smem_addr(bar)),
                 "r"(parity));
}

__device__ static inline void mbar_arrive_expect_tx(uint64_t *bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(bytes));
}

__device__ static inline void mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_addr(bar)));
}

__device__ static inline void tma_load_2d(void *dst, const CUtensorMap *map, uint64_t *bar, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n"
                 ::"r"(smem_addr(dst)), "l"((uint64_t)map), "r"(smem_addr(bar)), "r"(x), "r"(y)
                 : "memory");
}

__device__ static inline bool elect_one()
{
    uint32_t pred = 0;
    asm volatile("{\n.reg .b32 %%rx;\n.reg .pred %%px;\nelect.sync %%rx|%%px, %1;\n@%%px mov.s32 %0, 1;\n}\n"
                 : "+r"(pred)
                 : "r"(0xffffffffu));
    return pred != 0;
}

// start >> 4, LBO 16 bytes (unused with a swizzle), SBO 1024 bytes (8 rows of 128), 128B swizzle
__device__ static inline uint64_t descriptor(uint32_t addr)
{
    return ((addr & 0x3ffff) >> 4) | (uint64_t)(16 >> 4) << 16 | (uint64_t)(1024 >> 4) << 32 | (uint64_t)1 << 62;
}

__device__ static inline void wgmma_64x64x16(float d[32], uint64_t da, uint64_t db, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "l"(da), "l"(db), "r"(scale_d));
}

extern "C" __global__ void __launch_bounds__(256) gemm_tma_wgmma(const __grid_constant__ CUtensorMap tmA,
                                                                  const __grid_constant__ CUtensorMap tmB, float *D,
                                                                  int M, int N, int K)
{
    extern __shared__ __align__(1024) uint8_t dsmem[];
    __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES];
    // The stages, each A's box (64 rows of 128 bytes) then B's, on a 1024-byte boundary (the swizzle's repeat).
    uint32_t base = (smem_addr(dsmem) + 1023) & ~1023u;
    uint8_t *stages = dsmem + (base - smem_addr(dsmem));
    int t = threadIdx.x, wg = t / 128;
    int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN, ktiles = K / BK;
    if (t == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], 128);
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();

    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        if (t / 32 == 0 && elect_one()) {
            for (int kt = 0; kt < ktiles; kt++) {
                int s = kt % STAGES;
                mbar_wait(&empty[s], ((kt / STAGES) & 1) ^ 1);
                mbar_arrive_expect_tx(&full[s], STAGE_BYTES);
                uint8_t *sa = stages + s * STAGE_BYTES, *sb = sa + BM * BK * 2;
                tma_load_2d(sa, &tmA, &full[s], kt * BK, m0);
                tma_load_2d(sb, &tmB, &full[s], kt * BK, n0);
            }
        }
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
        float d[32];
#pragma unroll
        for (int i = 0; i < 32; i++)
            d[i] = 0.0f;
        for (int kt = 0; kt < ktiles; kt++) {
            int s = kt % STAGES;
#ifndef SKIP_FULL_WAIT
            mbar_wait(&full[s], (kt / STAGES) & 1);
#endif
            uint32_t sa = base + s * STAGE_BYTES, sb = sa + BM * BK * 2;
            asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
            for (int ks = 0; ks < BK / 16; ks++)
                wgmma_64x64x16(d, descriptor(sa + 32 * ks), descriptor(sb + 32 * ks), kt > 0 || ks > 0);
            asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#ifdef SKIP_WGMMA_WAIT
            if (kt < ktiles - 1)
#endif
                asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
            mbar_arrive(&empty[s]);
        }
        int w = (t / 32) % 4, l = t % 32;
#pragma unroll
        for (int i = 0; i < 32; i++) {
            int row = m0 + 16 * w + l / 4 + 8 * ((i >> 1) & 1), col = n0 + 8 * (i >> 2) + 2 * (l % 4) + (i & 1);
            if (row < M && col < N)
                D[(size_t)row * N + col] = d[i];
        }
    }
}
