// cub::BlockRadixSort over a block of 128 threads with 4 keys each (blocked arrangement): unsigned
// keys ascending; int keys with their original positions as values, descending (stable); and
// unsigned keys by bits 4 to 11 only (stable). nvcc emits bmsk for the digit extraction (PTX ISA
// 7.6), on sm_75, sm_80 and sm_90 alike.
#include <cub/block/block_radix_sort.cuh>

extern "C" __global__ void kernel(const unsigned *ukeys, const int *ikeys, unsigned *sorted, int *desc_keys,
                                  int *desc_values, unsigned *by_bits)
{
    using Sort = cub::BlockRadixSort<unsigned, 128, 4>;
    using SortPairs = cub::BlockRadixSort<int, 128, 4, int>;
    __shared__ typename Sort::TempStorage t1;
    __shared__ typename SortPairs::TempStorage t2;
    int t = threadIdx.x;
    unsigned k[4], kb[4];
    int ik[4], iv[4];
    for (int i = 0; i < 4; i++) {
        k[i] = ukeys[4 * t + i];
        kb[i] = ukeys[4 * t + i];
        ik[i] = ikeys[4 * t + i];
        iv[i] = 4 * t + i;
    }
    Sort(t1).Sort(k);
    __syncthreads();
    Sort(t1).Sort(kb, 4, 12);
    SortPairs(t2).SortDescending(ik, iv);
    for (int i = 0; i < 4; i++) {
        sorted[4 * t + i] = k[i];
        by_bits[4 * t + i] = kb[i];
        desc_keys[4 * t + i] = ik[i];
        desc_values[4 * t + i] = iv[i];
    }
}
