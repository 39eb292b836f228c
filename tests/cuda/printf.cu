// printf.cu: kernel printf as a GPU prints it: each call's lines in lane order, after the
// host's own earlier lines and before its later ones (cudaDeviceSynchronize). The runner compares
// standard output with printf.stdout, written by hand from printf's formats.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void say(int base, float scale, const char *word)
{
    int t = threadIdx.x;
    printf("thread %d: %d %u %x %5.2f %s %c\n", t, base - t, (unsigned)t * 3000000000u / 3u, 255 + t,
           scale * (float)t, t % 2 ? "odd" : "even", 'a' + t);
    if (t == 2)
        printf("only thread 2: %lld %e %%\n", -1234567890123ll, 0.5);
}

int main(void)
{
    printf("host: before the launch\n");
    say<<<1, 4>>>(10, 1.5f, "unused");
    cudaError_t err = cudaDeviceSynchronize();
    printf("host: after cudaDeviceSynchronize: %s\n", cudaGetErrorName(err));
    return err != cudaSuccess;
}
