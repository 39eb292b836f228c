// Dynamic shared memory (extern __shared__, size from the launch): a histogram with shared
// atomicAdd into `nbins` bins, and a 32x32 tile transpose through a padded (32x33) shared
// tile, separated by __syncwarp.
extern "C" __global__ void kernel(const unsigned *in, const unsigned *mat, unsigned *hist_out,
                                  unsigned *tout, int nbins)
{
    extern __shared__ unsigned smem[];
    unsigned *bins = smem;                  // nbins words
    unsigned *tile = smem + nbins;          // 32 x 33 words
    int lane = threadIdx.x;
    for (int i = lane; i < nbins; i += 32)
        bins[i] = 0;
    __syncwarp();
    for (int k = 0; k < 4; k++)
        atomicAdd(&bins[in[lane * 4 + k] % (unsigned)nbins], 1u + (unsigned)k);
    for (int r = 0; r < 32; r++)
        tile[r * 33 + lane] = mat[r * 32 + lane];
    __syncwarp();
    for (int i = lane; i < nbins; i += 32)
        hist_out[i] = bins[i];
    for (int r = 0; r < 32; r++)
        tout[r * 32 + lane] = tile[lane * 33 + r];
}
