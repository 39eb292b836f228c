// coop.cu: cooperative groups as programs use them.
//   coop tiles   a block sum by thread_block_tile<16> shuffles (shfl_down), tile.sync and the
//                block's sync, and cg::reduce over a tile of 32: checked against the host's sums
//   coop grid    a grid-wide sync (cudaLaunchCooperativeKernel, grid.sync()) between two phases:
//                the device says whether it can (cudaDevAttrCooperativeLaunch); when it cannot,
//                the launch must be refused (not run wrongly) and the program exits 77
#include "check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <string.h>

namespace cg = cooperative_groups;

enum { BLOCKS = 4, THREADS = 128 };

__global__ void tile_sums(const int *in, int *by_tile16, int *by_tile32, int *by_block)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile16 = cg::tiled_partition<16>(block);
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(block);
    __shared__ int partial[THREADS / 16];
    int i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i];
    int sum = v;
    for (int d = tile16.size() / 2; d > 0; d /= 2)
        sum += tile16.shfl_down(sum, d);
    tile16.sync();
    if (tile16.thread_rank() == 0) {
        by_tile16[i / 16] = sum;
        partial[threadIdx.x / 16] = sum;
    }
    by_tile32[i] = cg::reduce(tile32, v, cg::plus<int>());
    block.sync();
    if (block.thread_rank() == 0) {
        int total = 0;
        for (int k = 0; k < THREADS / 16; k++)
            total += partial[k];
        by_block[blockIdx.x] = total;
    }
}

__global__ void two_phases(int *data, int *out)
{
    cg::grid_group grid = cg::this_grid();
    int i = grid.thread_rank();
    data[i] = i * 3;
    grid.sync();
    int n = (int)grid.size();
    out[i] = data[(i + 1) % n];          // written by another block before the sync
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    enum { N = BLOCKS * THREADS };
    if (!strcmp(mode, "tiles")) {
        int in[N], t16[N / 16], t32[N], blocks[BLOCKS];
        for (int i = 0; i < N; i++)
            in[i] = (i * 13) % 29 - 9;
        int *din, *d16, *d32, *dblock;
        CHECK_OK(cudaMalloc(&din, sizeof in));
        CHECK_OK(cudaMalloc(&d16, sizeof t16));
        CHECK_OK(cudaMalloc(&d32, sizeof t32));
        CHECK_OK(cudaMalloc(&dblock, sizeof blocks));
        CHECK_OK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
        tile_sums<<<BLOCKS, THREADS>>>(din, d16, d32, dblock);
        CHECK_OK(cudaGetLastError());
        CHECK_OK(cudaMemcpy(t16, d16, sizeof t16, cudaMemcpyDeviceToHost));
        CHECK_OK(cudaMemcpy(t32, d32, sizeof t32, cudaMemcpyDeviceToHost));
        CHECK_OK(cudaMemcpy(blocks, dblock, sizeof blocks, cudaMemcpyDeviceToHost));
        int wrong16 = 0, wrong32 = 0, wrong_block = 0;
        for (int t = 0; t < N / 16; t++) {
            int want = 0;
            for (int k = 0; k < 16; k++)
                want += in[t * 16 + k];
            wrong16 += t16[t] != want;
        }
        for (int i = 0; i < N; i++) {
            int want = 0;
            for (int k = i / 32 * 32; k < i / 32 * 32 + 32; k++)
                want += in[k];
            wrong32 += t32[i] != want;
        }
        for (int b = 0; b < BLOCKS; b++) {
            int want = 0;
            for (int k = b * THREADS; k < (b + 1) * THREADS; k++)
                want += in[k];
            wrong_block += blocks[b] != want;
        }
        CHECK(wrong16 == 0, "thread_block_tile<16> shfl_down sums (%d wrong)", wrong16);
        CHECK(wrong32 == 0, "cg::reduce over tiles of 32 (%d wrong)", wrong32);
        CHECK(wrong_block == 0, "block sums after block.sync (%d wrong)", wrong_block);
        return check_report("coop tiles");
    }
    if (!strcmp(mode, "grid")) {
        int can = -1;
        CHECK_OK(cudaDeviceGetAttribute(&can, cudaDevAttrCooperativeLaunch, 0));
        int *data, *dout, out[N];
        CHECK_OK(cudaMalloc(&data, N * sizeof(int)));
        CHECK_OK(cudaMalloc(&dout, N * sizeof(int)));
        void *args[] = { &data, &dout };
        cudaError_t e = cudaLaunchCooperativeKernel((const void *)two_phases, dim3(BLOCKS), dim3(THREADS), args, 0, 0);
        if (!can) {
            CHECK(e != cudaSuccess, "no cooperative launch on this device: the launch refused (%s)", cudaGetErrorName(e));
            check_report("coop grid");
            printf("REFUSED cudaLaunchCooperativeKernel: %s\n", cudaGetErrorName(e));
            return 77;
        }
        CHECK(e == cudaSuccess, "cudaLaunchCooperativeKernel -> %s", cudaGetErrorName(e));
        CHECK_OK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int i = 0; i < N; i++)
            wrong += out[i] != (i + 1) % N * 3;
        CHECK(wrong == 0, "grid.sync: each thread read what another block wrote before it (%d wrong)", wrong);
        return check_report("coop grid");
    }
    printf("usage: coop tiles|grid\n");
    return 2;
}
