#include <mma.h>
using namespace nvcuda;
// C = alpha * A*B + beta * C, 32x32x32, one warp per 16x16 tile of C (as cudaTensorCoreGemm's simple kernel)
__global__ void gemm(const half *a, const half *b, float *c, int M, int N, int K, float alpha, float beta)
{
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32, warpN = blockIdx.y * blockDim.y + threadIdx.y;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, fc;
    wmma::fill_fragment(acc, 0.0f);
    for (int i = 0; i < K; i += 16) {
        int aRow = warpM * 16, aCol = i, bRow = i, bCol = warpN * 16;
        if (aRow < M && aCol < K && bRow < K && bCol < N) {
            wmma::load_matrix_sync(fa, a + aRow + aCol * M, M);
            wmma::load_matrix_sync(fb, b + bRow + bCol * K, K);
            wmma::mma_sync(acc, fa, fb, acc);
        }
    }
    int cRow = warpM * 16, cCol = warpN * 16;
    if (cRow < M && cCol < N) {
        wmma::load_matrix_sync(fc, c + cRow + cCol * M, M, wmma::mem_col_major);
        for (int i = 0; i < fc.num_elements; i++) fc.x[i] = alpha * acc.x[i] + beta * fc.x[i];
        wmma::store_matrix_sync(c + cRow + cCol * M, fc, M, wmma::mem_col_major);
    }
}
