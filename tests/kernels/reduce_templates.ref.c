/* reduce_templates: 4 CTAs of 128 threads; one 1024-byte dynamic shared memory per CTA that
 * every extern __shared__ name (__smem, __smem_d, dyn_words) addresses from its first byte.
 * Each phase is simulated on that memory, step by step between its barriers. The doubles are
 * multiples of 1/8 below 2^17, so every sum is exact. */
#include "ref_common.h"

#define CTAS 4
#define T 128
#define SMEM (T * 8)
#define NWORDS (SMEM / 4)

static unsigned char smem[SMEM];

static double ld_d(int k) { double v; memcpy(&v, smem + 8 * k, 8); return v; }
static void st_d(int k, double v) { memcpy(smem + 8 * k, &v, 8); }
static uint32_t ld_w(int k) { uint32_t v; memcpy(&v, smem + 4 * k, 4); return v; }
static void st_w(int k, uint32_t v) { memcpy(smem + 4 * k, &v, 4); }

/* reduce0: sdata[tid] += sdata[tid + s] in the threads with tid % (2s) == 0; within one step
 * the threads read only elements no thread of that step writes. */
static double reduce0_d(const double *in, int cta)
{
    for (int t = 0; t < T; t++)
        st_d(t, in[cta * T + t]);
    for (int s = 1; s < T; s *= 2)
        for (int t = 0; t < T; t++)
            if (t % (2 * s) == 0)
                st_d(t, ld_d(t) + ld_d(t + s));
    return ld_d(0);
}

static int32_t reduce0_i(const int32_t *in, int cta)
{
    for (int t = 0; t < T; t++)
        st_w(t, (uint32_t)in[cta * T + t]);
    for (int s = 1; s < T; s *= 2)
        for (int t = 0; t < T; t++)
            if (t % (2 * s) == 0)
                st_w(t, (uint32_t)((int32_t)ld_w(t) + (int32_t)ld_w(t + s)));
    return (int32_t)ld_w(0);
}

/* mySum += __shfl_down_sync(full, mySum, offset) for offsets 16..1 in one warp's 32 lanes */
static void warp_down_d(double *v)
{
    for (int off = 16; off > 0; off /= 2) {
        double nv[32];
        for (int l = 0; l < 32; l++)
            nv[l] = v[l] + v[cuda_shfl_src(SHFL_DOWN, l, (uint32_t)off, 32)];
        memcpy(v, nv, sizeof nv);
    }
}

static void warp_down_u(uint32_t *v)
{
    for (int off = 16; off > 0; off /= 2) {
        uint32_t nv[32];
        for (int l = 0; l < 32; l++)
            nv[l] = v[l] + v[cuda_shfl_src(SHFL_DOWN, l, (uint32_t)off, 32)];
        memcpy(v, nv, sizeof nv);
    }
}

static double reduce_shfl_d(const double *in, int cta)
{
    double v[32];
    for (int w = 0; w < T / 32; w++) {
        for (int l = 0; l < 32; l++) {
            int i = cta * 2 * T + w * 32 + l;
            v[l] = in[i] + in[i + T];
        }
        warp_down_d(v);
        st_d(w, v[0]);
    }
    for (int l = 0; l < 32; l++)
        v[l] = l < T / 32 ? ld_d(l) : 0.0;
    warp_down_d(v);
    return v[0];
}

static uint32_t reduce_shfl_u(const uint32_t *in, int cta)
{
    uint32_t v[32];
    for (int w = 0; w < T / 32; w++) {
        for (int l = 0; l < 32; l++) {
            int i = cta * 2 * T + w * 32 + l;
            v[l] = in[i] + in[i + T];
        }
        warp_down_u(v);
        st_w(w, v[0]);
    }
    for (int l = 0; l < 32; l++)
        v[l] = l < T / 32 ? ld_w(l) : 0u;
    warp_down_u(v);
    return v[0];
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(1801);
    static double din0[CTAS * T], din1[CTAS * 2 * T], dsum[2 * CTAS];
    static int32_t iin[CTAS * T], isum[CTAS];
    static uint32_t uin[CTAS * 2 * T], usum[CTAS], words[CTAS * NWORDS];
    for (int i = 0; i < CTAS * T; i++)
        din0[i] = rnd_range(-1000000, 1000000) / 8.0;
    for (int i = 0; i < CTAS * T; i++)
        iin[i] = rnd_range(-100000, 100000);
    for (int i = 0; i < CTAS * 2 * T; i++)
        din1[i] = rnd_range(-1000000, 1000000) / 8.0;
    for (int i = 0; i < CTAS * 2 * T; i++)
        uin[i] = rnd();
    for (int cta = 0; cta < CTAS; cta++) {
        memset(smem, 0xa5, sizeof smem);    /* overwritten by the first phase */
        dsum[cta] = reduce0_d(din0, cta);
        isum[cta] = reduce0_i(iin, cta);
        dsum[CTAS + cta] = reduce_shfl_d(din1, cta);
        usum[cta] = reduce_shfl_u(uin, cta);
        for (int k = 0; k < NWORDS; k++)
            words[cta * NWORDS + k] = ld_w(k);
        /* the trees must agree with plain sums (exact for these values) */
        double d0 = 0, d1 = 0;
        int32_t i0 = 0;
        uint32_t u0 = 0;
        for (int i = 0; i < T; i++) {
            d0 += din0[cta * T + i];
            i0 += iin[cta * T + i];
        }
        for (int i = 0; i < 2 * T; i++) {
            d1 += din1[cta * 2 * T + i];
            u0 += uin[cta * 2 * T + i];
        }
        if (d0 != dsum[cta] || i0 != isum[cta] || d1 != dsum[CTAS + cta] || u0 != usum[cta]) {
            fprintf(stderr, "reduce_templates.ref: CTA %d: tree and plain sums differ\n", cta);
            return 1;
        }
    }
    int block[3] = { T, 1, 1 }, grid[3] = { CTAS, 1, 1 };
    FILE *f = lanes_begin_grid(argv[1], block, grid);
    lanes_buf(f, "din0", "f64", din0, CTAS * T);
    lanes_buf(f, "iin", "s32", iin, CTAS * T);
    lanes_buf(f, "din1", "f64", din1, CTAS * 2 * T);
    lanes_buf(f, "uin", "u32", uin, CTAS * 2 * T);
    lanes_zero(f, "dsum", "f64", 2 * CTAS);
    lanes_zero(f, "isum", "s32", CTAS);
    lanes_zero(f, "usum", "u32", CTAS);
    lanes_zero(f, "words", "b32", CTAS * NWORDS);
    char extra[64];
    snprintf(extra, sizeof extra, "\"dynamic_shared\": %d", SMEM);
    lanes_end(f, "\"@din0\", \"@iin\", \"@din1\", \"@uin\", \"@dsum\", \"@isum\", \"@usum\", \"@words\"",
              extra);
    f = expect_begin(argv[2]);
    expect_buf(f, "dsum", "f64", dsum, 2 * CTAS);
    expect_buf(f, "isum", "s32", isum, CTAS);
    expect_buf(f, "usum", "u32", usum, CTAS);
    expect_buf(f, "words", "b32", words, CTAS * NWORDS);
    expect_end(f);
    return 0;
}
