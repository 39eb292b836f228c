// Bitonic sort of 32 keys, one per lane, with __shfl_xor_sync compare-exchange steps. A
// payload (the key's original lane) travels with each key; a float key array is sorted
// descending by the same network.
extern "C" __global__ void kernel(const int *keys, const float *fkeys, int *sorted, int *payload,
                                  float *fsorted)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int x = keys[lane];
    int pl = lane;
    float f = fkeys[lane];
    for (int k = 2; k <= 32; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int y = __shfl_xor_sync(full, x, j);
            int py = __shfl_xor_sync(full, pl, j);
            float g = __shfl_xor_sync(full, f, j);
            bool up = (lane & k) == 0;
            bool lower = (lane & j) == 0;
            bool take_min = (lower == up);
            bool swap = take_min ? (y < x) : (y > x);
            if (swap) {
                x = y;
                pl = py;
            }
            // descending for the floats
            f = take_min ? fmaxf(f, g) : fminf(f, g);
        }
    }
    sorted[lane] = x;
    payload[lane] = pl;
    fsorted[lane] = f;
}
