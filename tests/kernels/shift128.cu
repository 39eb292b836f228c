// Multi-word shifts built from funnel shifts.
//  (1) Each lane shifts its own 128-bit value (4 words, little-endian) left and right by a
//      per-lane amount 0..127 (word shift + __funnelshift_l/_r on neighbouring words).
//  (2) The warp holds one 1024-bit number, word `lane` in lane `lane`; it is shifted left by
//      the parameter `n` bits with __shfl_up_sync for the word shift and __funnelshift_l.
extern "C" __global__ void kernel(const unsigned *words, const unsigned *amount,
                                  unsigned *shl_out, unsigned *shr_out,
                                  const unsigned *big, unsigned *big_out, unsigned n)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    unsigned w[4];
    for (int i = 0; i < 4; i++)
        w[i] = words[lane * 4 + i];
    unsigned s = amount[lane];
    int ws = s >> 5;
    unsigned bs = s & 31;
    for (int i = 0; i < 4; i++) {
        int k = i - ws;                      // word that lands in word i
        unsigned cur = k >= 0 ? w[k] : 0;
        unsigned below = k - 1 >= 0 ? w[k - 1] : 0;
        shl_out[lane * 4 + i] = __funnelshift_l(below, cur, bs);
        int m = i + ws;
        unsigned cur2 = m < 4 ? w[m] : 0;
        unsigned above = m + 1 < 4 ? w[m + 1] : 0;
        shr_out[lane * 4 + i] = __funnelshift_r(cur2, above, bs);
    }

    unsigned x = big[lane];
    unsigned wsh = n >> 5, bsh = n & 31;
    unsigned cur = __shfl_up_sync(full, x, wsh);
    unsigned below = __shfl_up_sync(full, x, wsh + 1);
    if ((unsigned)lane < wsh)
        cur = 0;
    if ((unsigned)lane < wsh + 1)
        below = 0;
    big_out[lane] = __funnelshift_l(below, cur, bsh);
}
