// Exercises __match_any_sync and __match_all_sync on 32- and 64-bit values.
extern "C" __global__ void match32(const unsigned *keys, unsigned *any_out, unsigned *all_out, int *pred_out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned k = keys[tid];
    int pred = 0;
    any_out[tid] = __match_any_sync(0xffffffffu, k);
    all_out[tid] = __match_all_sync(0xffffffffu, k, &pred);
    pred_out[tid] = pred;
}

extern "C" __global__ void match64(const unsigned long long *keys, unsigned *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long k = keys[tid];
    int pred;
    unsigned peers = __match_any_sync(0xffffffffu, k);
    unsigned all = __match_all_sync(0xffffffffu, k, &pred);
    // The leader (lowest lane) of each group of equal keys writes the group size.
    int leader = __ffs(peers) - 1;
    if ((threadIdx.x & 31) == leader)
        out[tid] = __popc(peers) + (pred ? all : 0u);
}
