// texture.cu: texture objects as programs use them: a 2D CUDA array of floats (cudaMallocArray,
// cudaMemcpy2DToArray) read by tex2D with point sampling at texel centres, with clamping outside
// it, and with linear filtering halfway between texels (weights of 1/2, exact); a linear buffer
// read by tex1Dfetch. Values checked against the host's. Until ptxrun's runtime has CUDA arrays
// and texture objects, the program reports the call refused (cudaErrorNotSupported) and exits 77.
#include "check.h"

enum { W = 8, H = 4 };

__global__ void sample(cudaTextureObject_t point, cudaTextureObject_t linear, cudaTextureObject_t fetch, float *out)
{
    int x = threadIdx.x, y = threadIdx.y, i = y * W + x;
    out[i] = tex2D<float>(point, x + 0.5f, y + 0.5f);
    out[W * H + i] = tex2D<float>(point, x + 0.5f + W, y + 0.5f);      // past the right edge: clamped
    out[2 * W * H + i] = tex2D<float>(linear, x + 1.0f, y + 0.5f);       // halfway between x and x + 1
    out[3 * W * H + i] = tex1Dfetch<float>(fetch, i);
}

static int refused(cudaError_t e, const char *call)
{
    if (e == cudaErrorNotSupported) {
        printf("REFUSED %s: cudaErrorNotSupported\n", call);
        return 1;
    }
    return 0;
}

int main(void)
{
    float texels[H][W], host_linear[W * H], out[4 * W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            texels[y][x] = (float)(y * 16 + x * 2);
    for (int i = 0; i < W * H; i++)
        host_linear[i] = 0.5f * (float)i;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t array;
    cudaError_t e = cudaMallocArray(&array, &desc, W, H);
    if (refused(e, "cudaMallocArray"))
        return 77;
    CHECK(e == cudaSuccess, "cudaMallocArray -> %s", cudaGetErrorName(e));
    CHECK_OK(cudaMemcpy2DToArray(array, 0, 0, texels, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));

    cudaResourceDesc resource = {};
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = array;
    cudaTextureDesc how = {};
    how.addressMode[0] = how.addressMode[1] = cudaAddressModeClamp;
    how.filterMode = cudaFilterModePoint;
    how.readMode = cudaReadModeElementType;
    cudaTextureObject_t point = 0, linear = 0, fetch = 0;
    e = cudaCreateTextureObject(&point, &resource, &how, NULL);
    if (refused(e, "cudaCreateTextureObject"))
        return 77;
    CHECK(e == cudaSuccess, "cudaCreateTextureObject (point) -> %s", cudaGetErrorName(e));
    how.filterMode = cudaFilterModeLinear;
    CHECK_OK(cudaCreateTextureObject(&linear, &resource, &how, NULL));

    float *buffer, *dout;
    CHECK_OK(cudaMalloc(&buffer, sizeof host_linear));
    CHECK_OK(cudaMemcpy(buffer, host_linear, sizeof host_linear, cudaMemcpyHostToDevice));
    cudaResourceDesc flat = {};
    flat.resType = cudaResourceTypeLinear;
    flat.res.linear.devPtr = buffer;
    flat.res.linear.desc = desc;
    flat.res.linear.sizeInBytes = sizeof host_linear;
    cudaTextureDesc plain = {};
    plain.readMode = cudaReadModeElementType;
    CHECK_OK(cudaCreateTextureObject(&fetch, &flat, &plain, NULL));

    CHECK_OK(cudaMalloc(&dout, sizeof out));
    sample<<<1, dim3(W, H)>>>(point, linear, fetch, dout);
    CHECK_OK(cudaGetLastError());
    CHECK_OK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    int wrong[4] = { 0, 0, 0, 0 };
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int i = y * W + x, right = x + 1 < W ? x + 1 : W - 1;
            wrong[0] += out[i] != texels[y][x];
            wrong[1] += out[W * H + i] != texels[y][W - 1];
            wrong[2] += out[2 * W * H + i] != 0.5f * (texels[y][x] + texels[y][right]);
            wrong[3] += out[3 * W * H + i] != host_linear[i];
        }
    CHECK(wrong[0] == 0, "tex2D at texel centres (%d wrong)", wrong[0]);
    CHECK(wrong[1] == 0, "tex2D past the edge, clamped (%d wrong)", wrong[1]);
    CHECK(wrong[2] == 0, "tex2D linear, halfway between texels (%d wrong)", wrong[2]);
    CHECK(wrong[3] == 0, "tex1Dfetch of a linear buffer (%d wrong)", wrong[3]);
    CHECK_OK(cudaDestroyTextureObject(point));
    CHECK_OK(cudaDestroyTextureObject(linear));
    CHECK_OK(cudaDestroyTextureObject(fetch));
    CHECK_OK(cudaFreeArray(array));
    CHECK_OK(cudaFree(buffer));
    CHECK_OK(cudaFree(dout));
    return check_report("texture");
}
