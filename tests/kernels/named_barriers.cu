// Producer/consumer warps with named barriers (a block of 128): warps 0-1 write shared memory
// and signal with bar.arrive 1, 128 without waiting; warps 2-3 wait with bar.sync 1, 128 and
// read it. Then the roles swap on barrier 2, and warp pairs meet on barriers 3 and 4 (64
// threads each) independently. Last, bar.arrive must not wait: warp 0 arrives on barrier 5 and
// then meets warp 1 on barrier 6, which warp 1 reaches before barrier 5.
extern "C" __global__ void kernel(const int *in, int *out)
{
    __shared__ int a[64], b[64], c[128];
    int t = threadIdx.x;
    int producer = t < 64;
    if (producer) {
        a[t] = in[t] * 3;
        asm volatile("bar.arrive 1, 128;" ::: "memory");
        asm volatile("bar.sync 2, 128;" ::: "memory");
        out[t] = b[63 - t];
    } else {
        asm volatile("bar.sync 1, 128;" ::: "memory");
        out[t] = a[t - 64] + 1;
        b[t - 64] = in[t] - 7;
        asm volatile("bar.arrive 2, 128;" ::: "memory");
    }
    c[t] = in[t] ^ 0x55;
    if (t < 64)
        asm volatile("bar.sync 3, 64;" ::: "memory");
    else
        asm volatile("bar.sync 4, 64;" ::: "memory");
    out[128 + t] = t < 64 ? c[63 - t] : c[191 - t];
    if (t < 32) {
        asm volatile("bar.arrive 5, 64;" ::: "memory");
        asm volatile("bar.sync 6, 64;" ::: "memory");
    } else if (t < 64) {
        asm volatile("bar.sync 6, 64;" ::: "memory");
        asm volatile("bar.sync 5, 64;" ::: "memory");
    }
}
