// 32x32 transpose through shuffles. Lane i loads row i of the matrix into a local array;
// in step s every lane supplies row[(lane + s) & 31] and reads lane (lane - s) & 31, which
// gives it element i of that row, i.e. column i. Lane i then stores column i as row i of the
// output. The dynamically indexed arrays live in local memory.
extern "C" __global__ void kernel(const unsigned *in, unsigned *out)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    unsigned row[32], col[32];
    for (int j = 0; j < 32; j++)
        row[j] = in[lane * 32 + j];
    for (int s = 0; s < 32; s++) {
        unsigned v = __shfl_sync(full, row[(lane + s) & 31], (lane - s) & 31);
        col[(lane - s) & 31] = v;
    }
    for (int k = 0; k < 32; k++)
        out[lane * 32 + k] = col[k];
}
