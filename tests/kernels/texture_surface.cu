// Texture and surface objects passed as kernel parameters (CUDA's 64-bit handles): each thread
// (x, y) of an 8 x 4 block samples texture tex (8 x 4 floats, linear filtering, clamp addressing,
// unnormalized coordinates) at (x + 0.75, y + 1.0), which weighs texels (x, y), (x+1, y),
// (x, y+1), (x+1, y+1) by 3/8, 1/8, 3/8, 1/8 (clamped at the right and bottom edges); reads its
// texel of surface surf (8 x 4 unsigned ints, byte x coordinates) and adds the sample's integer
// part to it; and stores the sample in out.
#include <cuda_runtime.h>

extern "C" __global__ void kernel(cudaTextureObject_t tex, cudaSurfaceObject_t surf, float *out)
{
    int x = threadIdx.x, y = threadIdx.y;
    float v = tex2D<float>(tex, x + 0.75f, y + 1.0f);
    unsigned s;
    surf2Dread(&s, surf, x * 4, y);
    surf2Dwrite(s + (unsigned)v, surf, x * 4, y);
    out[y * 8 + x] = v;
}
