// __match_any_sync and __match_all_sync on int and long long. The 64-bit keys share their low
// word and differ only in the high word, so a 32-bit comparison would get them wrong. Also
// half-warp match_any with masks 0x0000ffff / 0xffff0000.
extern "C" __global__ void kernel(const int *in, const long long *lin, unsigned *out, int *preds,
                                  int uni, long long uni64)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int v = in[lane];
    long long w = lin[lane];
    int p0, p1, p2, p3;
    out[0 * 32 + lane] = __match_any_sync(full, v);
    out[1 * 32 + lane] = __match_any_sync(full, w);
    out[2 * 32 + lane] = __match_all_sync(full, uni, &p0);
    out[3 * 32 + lane] = __match_all_sync(full, v, &p1);
    out[4 * 32 + lane] = __match_all_sync(full, uni64, &p2);
    out[5 * 32 + lane] = __match_all_sync(full, w | (long long)(v & 0), &p3);
    preds[0 * 32 + lane] = p0;
    preds[1 * 32 + lane] = p1;
    preds[2 * 32 + lane] = p2;
    preds[3 * 32 + lane] = p3;
    if (lane < 16)
        out[6 * 32 + lane] = __match_any_sync(0x0000ffffu, v);
    else
        out[6 * 32 + lane] = __match_any_sync(0xffff0000u, (long long)v << 40);
}
