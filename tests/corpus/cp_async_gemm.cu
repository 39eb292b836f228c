// cp_async_gemm.cu: a multistage GEMM in the CUTLASS sm_80 pattern, written for ptxrun's corpus
// (tests/corpus/regen.sh makes its PTX; gen.py its inputs and the expected D, computed apart).
//
// D (M x N, f32, row after row) = A (M x K, f16, row after row) times B, given as N x K (f16, K
// contiguous: the "col" operand of mma.sync.row.col). Each CTA computes a 64 x 64 tile of D with
// 128 threads (4 warps, each a 32 x 32 quarter); the K dimension is walked in tiles of 32 through a
// STAGES-deep ring in shared memory filled by cp.async.cg 16-byte copies, one commit_group per
// tile. Before each compute step: cp.async.wait_group STAGES-2 and __syncthreads (the tile to
// compute has landed, and every thread is done with the stage about to be refilled); then the
// copies of the tile STAGES-1 ahead are issued, and the step runs ldmatrix.x4 from shared and
// mma.sync.m16n8k16 f16 x f16 + f32.
//
// Built with -DMISSING_WAIT, the wait is cp.async.wait_group STAGES-1: the tile about to be
// computed is still in flight, and ptxrun reports reads of bytes a copy has not written yet.
#include <cuda_fp16.h>
#include <stdint.h>

#define STAGES 3
#define BM 64
#define BN 64
#define BK 32
#define LDS (BK + 8) // halves a row in shared: 80 bytes, 16-byte aligned, rows on other banks

#ifdef MISSING_WAIT
#define WAIT_PENDING (STAGES - 1)
#else
#define WAIT_PENDING (STAGES - 2)
#endif

__device__ static inline uint32_t smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ static inline void cp_async16(void *dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(dst)), "l"(src) : "memory");
}

__device__ static inline void cp_async_commit()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int N> __device__ static inline void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

__device__ static inline void ldmatrix_x4(uint32_t r[4], const void *p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_addr(p)));
}

__device__ static inline void mma16816(float d[4], const uint32_t a[4], const uint32_t b[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// One K tile of A's 64 rows and B's 64 rows into a stage: 2 x 256 chunks of 16 bytes, 4 a thread.
__device__ static inline void load_tile(__half (*sA)[LDS], __half (*sB)[LDS], const __half *A, const __half *B,
                                        int K, int m0, int n0, int k0, int t)
{
#pragma unroll
    for (int i = 0; i < 2; i++) {
        int c = t + 128 * i, row = c / 4, col = (c % 4) * 8;
        cp_async16(&sA[row][col], A + (size_t)(m0 + row) * K + k0 + col);
        cp_async16(&sB[row][col], B + (size_t)(n0 + row) * K + k0 + col);
    }
}

extern "C" __global__ void __launch_bounds__(128) gemm_cp_async(const __half *A, const __half *B, float *D, int M,
                                                                 int N, int K)
{
    __shared__ __align__(128) __half sA[STAGES][BM][LDS];
    __shared__ __align__(128) __half sB[STAGES][BN][LDS];
    int t = threadIdx.x, warp = t / 32, lane = t % 32;
    int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    int wm = (warp / 2) * 32, wn = (warp % 2) * 32; // the warp's quarter of the tile
    int ktiles = K / BK;
    float acc[2][4][4];
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int e = 0; e < 4; e++)
                acc[i][j][e] = 0.0f;

    // The prologue: tiles 0 to STAGES-2, a group each.
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < ktiles)
            load_tile(sA[s], sB[s], A, B, K, m0, n0, s * BK, t);
        cp_async_commit();
    }

    for (int kt = 0; kt < ktiles; kt++) {
        cp_async_wait<WAIT_PENDING>();
        __syncthreads();
        // Refill the stage computed in the step before (every thread has passed the barrier).
        int next = kt + STAGES - 1;
        if (next < ktiles)
            load_tile(sA[next % STAGES], sB[next % STAGES], A, B, K, m0, n0, next * BK, t);
        cp_async_commit();

        int s = kt % STAGES;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            uint32_t a[2][4], b[4][2];
#pragma unroll
            for (int i = 0; i < 2; i++) // A: rows lane % 16, k (lane / 16) * 8
                ldmatrix_x4(a[i], &sA[s][wm + 16 * i + lane % 16][kk + (lane / 16) * 8]);
#pragma unroll
            for (int j = 0; j < 4; j += 2) { // B: two n8 tiles, each k 0-7 and 8-15
                uint32_t r[4];
                ldmatrix_x4(r, &sB[s][wn + 8 * j + (lane / 16) * 8 + lane % 8][kk + ((lane / 8) % 2) * 8]);
                b[j][0] = r[0];
                b[j][1] = r[1];
                b[j + 1][0] = r[2];
                b[j + 1][1] = r[3];
            }
#pragma unroll
            for (int i = 0; i < 2; i++)
#pragma unroll
                for (int j = 0; j < 4; j++)
                    mma16816(acc[i][j], a[i], b[j]);
        }
    }
    cp_async_wait<0>();

    // The epilogue: the C fragment of m16n8 (c0, c1 at row lane / 4, columns 2 (lane % 4) + 0, 1;
    // c2, c3 eight rows below).
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                int row = m0 + wm + 16 * i + lane / 4 + 8 * (e / 2), col = n0 + wn + 8 * j + 2 * (lane % 4) + e % 2;
                if (row < M && col < N)
                    D[(size_t)row * N + col] = acc[i][j][e];
            }
}
