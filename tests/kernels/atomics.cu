// Shared and global atomics on one warp, with results that do not depend on the order in
// which the lanes' atomics happen: atomicAdd histograms and tickets (every ticket 0..31 is
// handed out exactly once), atomicMax/atomicMin, an atomicCAS retry loop that adds, a single
// atomicCAS winner, atomicInc wrapping, float atomicAdd of exactly representable values, and
// global atomicOr/atomicXor/atomicAnd.
#include <climits>

extern "C" __global__ void kernel(const int *in, int *out, float *fout, int *gsum, int *gmax,
                                  unsigned *gbits, float *gf)
{
    __shared__ int hist[8];
    __shared__ int seen[32];
    __shared__ int ctr, smax, smin, winners, flag;
    __shared__ unsigned scas, sinc;
    __shared__ float fsum;
    int lane = threadIdx.x;
    int v = in[lane];
    if (lane < 8)
        hist[lane] = 0;
    seen[lane] = 0;
    if (lane == 0) {
        ctr = 0; smax = INT_MIN; smin = INT_MAX; winners = 0; flag = 0;
        scas = 0; sinc = 0; fsum = 0.0f;
    }
    __syncthreads();

    atomicAdd(&hist[v & 7], 1);
    int ticket = atomicAdd(&ctr, 1);
    atomicAdd(&seen[ticket], ticket + 1);
    atomicMax(&smax, v);
    atomicMin(&smin, v);
    unsigned old = scas, assumed;
    do {
        assumed = old;
        old = atomicCAS(&scas, assumed, assumed + (unsigned)v);
    } while (old != assumed);
    if (atomicCAS(&flag, 0, lane + 1) == 0)
        atomicAdd(&winners, 1);
    atomicInc(&sinc, 9u);
    atomicAdd(&fsum, (float)(v & 0xff) * 0.25f);

    atomicAdd(&gsum[v & 3], v);
    atomicMax(&gmax[0], v);
    atomicMin(&gmax[1], v);
    atomicOr(&gbits[0], 1u << (v & 31));
    atomicXor(&gbits[1], (unsigned)v);
    atomicAnd(&gbits[2], ~(1u << lane) | 0x1u);
    atomicAdd(gf, (float)(v % 64) * 0.5f);
    __syncthreads();

    if (lane < 8)
        out[lane] = hist[lane];
    out[8 + lane] = seen[lane];
    if (lane == 0) {
        out[40] = smax;
        out[41] = smin;
        out[42] = (int)scas;
        out[43] = winners;
        out[44] = flag != 0;
        out[45] = (int)sinc;
        out[46] = ctr;
        fout[0] = fsum;
    }
}
