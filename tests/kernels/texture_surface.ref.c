/* Reference for texture_surface.cu: the CUDA C Programming Guide's linear filtering
 * ("Texture Fetching"): xB = x - 0.5, yB = y - 0.5, i = floor(xB), j = floor(yB), a = frac(xB),
 * b = frac(yB), (1-a)(1-b) T[i,j] + a(1-b) T[i+1,j] + (1-a)b T[i,j+1] + ab T[i+1,j+1], indices
 * clamped into the texture. Thread (x, y) samples at (x + 0.75, y + 1.0): a = 0.25, b = 0.5,
 * multiples of 1/256, so the 9-bit weights are exact; the texels are integers below 256, so
 * every sum is a multiple of 1/8 and exact in float. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "ref_common.h"

enum { W = 8, H = 4, N = W * H };

static float texel(const float *t, int i, int j)
{
    i = i < 0 ? 0 : i >= W ? W - 1 : i;
    j = j < 0 ? 0 : j >= H ? H - 1 : j;
    return t[j * W + i];
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(0x7e57u);
    float tex[N], out[N];
    uint32_t surf[N], after[N];
    for (int k = 0; k < N; k++) {
        tex[k] = (float)(rnd() % 256);
        surf[k] = rnd();
    }
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double xb = x + 0.75 - 0.5, yb = y + 1.0 - 0.5;
            int i = (int)floor(xb), j = (int)floor(yb);
            double a = xb - i, b = yb - j;
            double v = (1 - a) * (1 - b) * texel(tex, i, j) + a * (1 - b) * texel(tex, i + 1, j) +
                       (1 - a) * b * texel(tex, i, j + 1) + a * b * texel(tex, i + 1, j + 1);
            out[y * W + x] = (float)v;
            after[y * W + x] = surf[y * W + x] + (uint32_t)(float)v;
        }
    int block[3] = { W, H, 1 }, grid[3] = { 1, 1, 1 };
    FILE *fl = lanes_begin_grid(argv[1], block, grid);
    lanes_zero(fl, "out", "f32", N);
    fprintf(fl, "\n },\n \"textures\": {\"tex\": {\"type\": \"f32\", \"dims\": [%d, %d], \"filter\": \"linear\", "
            "\"address\": \"clamp\", \"data\": ", W, H);
    json_array(fl, "f32", tex, N);
    fprintf(fl, "}},\n \"surfaces\": {\"surf\": {\"type\": \"u32\", \"dims\": [%d, %d], \"data\": ", W, H);
    json_array(fl, "u32", surf, N);
    fputs("}},\n \"params\": [\"@tex\", \"@surf\", \"@out\"]}\n", fl);
    close_out(fl);

    FILE *fe = expect_begin(argv[2]);
    expect_buf(fe, "out", "f32", out, N);
    expect_buf(fe, "surf", "u32", after, N);
    expect_end(fe);
    return 0;
}
