// __reduce_{add,min,max}_sync (unsigned and int) and __reduce_{and,or,xor}_sync. They need
// sm_80 (redux.sync); older targets use an equivalent __shfl_xor_sync butterfly, so every
// target gives the same results. The last case reduces each half warp separately.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define HAVE_REDUX 1
#else
#define HAVE_REDUX 0
#endif

extern "C" __global__ void kernel(const unsigned *uin, const int *sin, unsigned *out)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    unsigned u = uin[lane];
    int s = sin[lane];
    unsigned r[10];
#if HAVE_REDUX
    r[0] = __reduce_add_sync(full, u);
    r[1] = __reduce_min_sync(full, u);
    r[2] = __reduce_max_sync(full, u);
    r[3] = (unsigned)__reduce_add_sync(full, s);
    r[4] = (unsigned)__reduce_min_sync(full, s);
    r[5] = (unsigned)__reduce_max_sync(full, s);
    r[6] = __reduce_and_sync(full, u | 0x10000001u);
    r[7] = __reduce_or_sync(full, u & 0x0ff00ff0u);
    r[8] = __reduce_xor_sync(full, u);
    if (lane < 16)
        r[9] = __reduce_add_sync(0x0000ffffu, u);
    else
        r[9] = (unsigned)__reduce_max_sync(0xffff0000u, s);
#else
    unsigned a = u, mn = u, mx = u, an = u | 0x10000001u, o = u & 0x0ff00ff0u, x = u;
    unsigned sa = (unsigned)s;
    int smn = s, smx = s;
    for (int m = 16; m > 0; m >>= 1) {
        a += __shfl_xor_sync(full, a, m);
        mn = min(mn, __shfl_xor_sync(full, mn, m));
        mx = max(mx, __shfl_xor_sync(full, mx, m));
        sa += __shfl_xor_sync(full, sa, m);
        smn = min(smn, __shfl_xor_sync(full, smn, m));
        smx = max(smx, __shfl_xor_sync(full, smx, m));
        an &= __shfl_xor_sync(full, an, m);
        o |= __shfl_xor_sync(full, o, m);
        x ^= __shfl_xor_sync(full, x, m);
    }
    r[0] = a; r[1] = mn; r[2] = mx;
    r[3] = sa; r[4] = (unsigned)smn; r[5] = (unsigned)smx;
    r[6] = an; r[7] = o; r[8] = x;
    if (lane < 16) {
        unsigned h = u;
        for (int m = 8; m > 0; m >>= 1)
            h += __shfl_xor_sync(0x0000ffffu, h, m);
        r[9] = h;
    } else {
        int h = s;
        for (int m = 8; m > 0; m >>= 1)
            h = max(h, __shfl_xor_sync(0xffff0000u, h, m));
        r[9] = (unsigned)h;
    }
#endif
    for (int i = 0; i < 10; i++)
        out[i * 32 + lane] = r[i];
}
