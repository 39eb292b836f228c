// __ballot_sync, __any_sync, __all_sync and __activemask, converged and inside the two arms of
// a data-dependent branch (each arm votes with the mask of its own lanes).
extern "C" __global__ void kernel(const int *in, unsigned *out, int thr)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int v = in[lane];
    out[0 * 32 + lane] = __ballot_sync(full, v > thr);
    out[1 * 32 + lane] = __any_sync(full, v > 900);
    out[2 * 32 + lane] = __any_sync(full, v > 100000);
    out[3 * 32 + lane] = __all_sync(full, v > -1001);
    out[4 * 32 + lane] = __all_sync(full, v > thr);
    out[5 * 32 + lane] = __activemask();
    unsigned odd = __ballot_sync(full, v & 1);
    if (v & 1) {
        out[6 * 32 + lane] = __activemask();
        out[7 * 32 + lane] = __ballot_sync(odd, v > thr);
        out[8 * 32 + lane] = __all_sync(odd, v > -1001);
    } else {
        out[6 * 32 + lane] = ~__activemask();
        out[7 * 32 + lane] = __ballot_sync(~odd, v < thr) ^ 0x80000000u;
        out[8 * 32 + lane] = __any_sync(~odd, v == 0);
    }
    // half warps vote separately
    if (lane < 16)
        out[9 * 32 + lane] = __ballot_sync(0x0000ffffu, v > 0);
    else
        out[9 * 32 + lane] = __ballot_sync(0xffff0000u, v < 0);
}
