// Both arms of a divergent branch use a full-mask warp operation. On sm_70+ the lanes of the
// two arms meet at their (different) shfl.sync / vote.sync instructions and exchange values:
// each lane reads the operand its source lane supplied in *its* arm. Last, each half warp
// writes shared memory and calls __syncwarp() in its own arm; the two barriers meet, so each
// half then reads what the other half wrote.
extern "C" __global__ void kernel(const int *in, int *out)
{
    __shared__ int buf[32];
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int v = in[lane];
    int r;
    if (v & 1)
        r = __shfl_xor_sync(full, v * 3, 1) + 7;
    else
        r = __shfl_xor_sync(full, v + 1000, 1) - 7;
    out[0 * 32 + lane] = r;

    int r2;
    if (lane & 2)
        r2 = __shfl_sync(full, v, lane - 2) * 5;
    else
        r2 = __shfl_sync(full, -v, 31 - lane) ^ 0x55;
    out[1 * 32 + lane] = r2;

    unsigned b;
    if (v > 0)
        b = __ballot_sync(full, lane & 1);
    else
        b = __ballot_sync(full, lane & 2) + 1;
    out[2 * 32 + lane] = (int)b;

    int r4;
    if (lane < 16) {
        buf[lane] = v + 1;
        __syncwarp();
        r4 = buf[lane + 16] * 2;
    } else {
        buf[lane] = v - 1;
        __syncwarp();
        r4 = buf[lane - 16] * 3;
    }
    out[3 * 32 + lane] = r4;
}
