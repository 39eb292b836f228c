// cluster.cu: thread block clusters (sm_90) as programs use them, through cooperative groups.
//   cluster hist   a histogram in distributed shared memory: a kernel of __cluster_dims__(4, 1, 1)
//                  launched with <<<>>>, each CTA holding a quarter of the bins and every thread
//                  adding into the CTA that holds its value's bin (cluster.map_shared_rank);
//                  checked against the host's count
//   cluster ring   a cluster shape given at launch (cudaLaunchKernelEx, 2 x 2 CTAs): each CTA
//                  reads its rank and the cluster's shape, and, after cluster.sync(), a word its
//                  neighbour (the next rank) wrote into its own shared memory; checked against
//                  the ranks the host computes (x fastest)
#include "check.h"
#include <cooperative_groups.h>
#include <string.h>

namespace cg = cooperative_groups;

enum { BINS = 64, VALUES = 3000, BLOCKS = 8, THREADS = 128 };

__global__ void __cluster_dims__(4, 1, 1) hist(const int *in, int n, int *out)
{
    __shared__ int part[BINS / 4];
    cg::cluster_group cluster = cg::this_cluster();
    int per = BINS / (int)cluster.num_blocks();
    for (int i = threadIdx.x; i < per; i += blockDim.x)
        part[i] = 0;
    cluster.sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int bin = in[i] < 0 ? 0 : in[i] >= BINS ? BINS - 1 : in[i];
        int *dst = cluster.map_shared_rank(part, bin / per);
        atomicAdd(dst + bin % per, 1);
    }
    cluster.sync();
    for (int i = threadIdx.x; i < per; i += blockDim.x)
        atomicAdd(&out[cluster.block_rank() * per + i], part[i]);
}

__global__ void ring(unsigned *out)
{
    __shared__ unsigned word;
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank(), n = cluster.num_blocks();
    if (threadIdx.x == 0)
        *cluster.map_shared_rank(&word, (rank + n - 1) % n) = 100 + rank;   // into the previous rank's word
    cluster.sync();
    unsigned cta = blockIdx.x + gridDim.x * blockIdx.y;
    if (threadIdx.x == 0) {
        dim3 shape = cluster.dim_blocks();
        out[4 * cta] = rank;
        out[4 * cta + 1] = n;
        out[4 * cta + 2] = shape.x * 10 + shape.y;
        out[4 * cta + 3] = word;                  // the next rank's 100 + rank
    }
    cluster.sync();                               // every CTA's word stays until all have read theirs
}

static int run_hist(void)
{
    int *in, *out, host_in[VALUES], want[BINS];
    memset(want, 0, sizeof want);
    unsigned seed = 7;
    for (int i = 0; i < VALUES; i++) {
        seed = seed * 1103515245u + 12345u;
        host_in[i] = (int)(seed >> 16) % (BINS + 16) - 8;
        want[host_in[i] < 0 ? 0 : host_in[i] >= BINS ? BINS - 1 : host_in[i]]++;
    }
    CHECK_ERR(cudaMalloc(&in, sizeof host_in), cudaSuccess);
    CHECK_ERR(cudaMalloc(&out, BINS * sizeof(int)), cudaSuccess);
    CHECK_ERR(cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice), cudaSuccess);
    CHECK_ERR(cudaMemset(out, 0, BINS * sizeof(int)), cudaSuccess);
    hist<<<BLOCKS, THREADS>>>(in, VALUES, out);
    CHECK_ERR(cudaGetLastError(), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);
    int got[BINS];
    CHECK_ERR(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    int wrong = 0;
    for (int b = 0; b < BINS; b++)
        wrong += got[b] != want[b];
    CHECK(wrong == 0, "the histogram of %d values in %d bins (%d bins differ)", VALUES, BINS, wrong);
    cudaFree(in);
    cudaFree(out);
    return 0;
}

static int run_ring(void)
{
    enum { GX = 4, GY = 2 };
    unsigned *out, got[4 * GX * GY];
    CHECK_ERR(cudaMalloc(&out, sizeof got), cudaSuccess);
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(GX, GY, 1);
    config.blockDim = dim3(32, 1, 1);
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = 2, attr.val.clusterDim.y = 2, attr.val.clusterDim.z = 1;
    config.attrs = &attr;
    config.numAttrs = 1;
    CHECK_ERR(cudaLaunchKernelEx(&config, ring, out), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_ERR(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    int wrong = 0;
    for (unsigned y = 0; y < GY; y++)
        for (unsigned x = 0; x < GX; x++) {
            unsigned cta = x + GX * y, rank = x % 2 + 2 * (y % 2);
            unsigned want[4] = { rank, 4, 22, 100 + (rank + 1) % 4 };
            wrong += memcmp(&got[4 * cta], want, sizeof want) != 0;
        }
    CHECK(wrong == 0, "ranks, shapes and the neighbours' words of %d CTAs in clusters of 2 x 2 (%d differ)", GX * GY,
          wrong);
    cudaFree(out);
    return 0;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "hist";
    if (!strcmp(what, "hist"))
        run_hist();
    else if (!strcmp(what, "ring"))
        run_ring();
    else
        return 2;
    printf("cluster %s: %d passed, %d failed\n", what, check_passed, check_failed);
    return check_failed != 0;
}
