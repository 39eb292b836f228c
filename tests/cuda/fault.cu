// fault.cu: the other ways a launch goes wrong, one a run (a fault is sticky: nothing runs after
// it in the process):
//   fault misaligned   a 4-byte load from an address 2 bytes into an allocation:
//                      cudaErrorMisalignedAddress from the next synchronisation on
//   fault trap         __trap() in one thread: cudaErrorLaunchFailure from then on
//   fault config       a block of 2048 threads: the launch itself fails with
//                      cudaErrorInvalidConfiguration, nothing runs, and the error is not sticky: the
//                      next launch runs and cudaDeviceSynchronize succeeds
//   fault badcopy      copies a GPU's driver refuses (a host array as the device side, a copy past
//                      an allocation's end) and cudaFree of a host pointer: cudaErrorInvalidValue
//                      from each call, nothing written, and nothing sticky after
#include "check.h"
#include <string.h>

__global__ void load_at(const char *base, int offset, int *out)
{
    out[threadIdx.x] = *(const int *)(base + offset);
}

__global__ void trap_in_one(int *out)
{
    if (threadIdx.x == 7)
        __trap();
    out[threadIdx.x] = 1;
}

__global__ void mark(int *out)
{
    out[threadIdx.x] = 100 + threadIdx.x;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int *out;
    char *base;
    CHECK_OK(cudaMalloc(&out, 2048 * sizeof(int)));
    CHECK_OK(cudaMalloc(&base, 64));
    CHECK_OK(cudaMemset(out, 0, 2048 * sizeof(int)));
    if (!strcmp(mode, "misaligned")) {
        load_at<<<1, 32>>>(base, 2, out);
        CHECK_ERR(cudaDeviceSynchronize(), cudaErrorMisalignedAddress);
        CHECK_ERR(cudaDeviceSynchronize(), cudaErrorMisalignedAddress);
    } else if (!strcmp(mode, "trap")) {
        trap_in_one<<<1, 32>>>(out);
        CHECK_ERR(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
        CHECK_ERR(cudaMemset(out, 0, 4), cudaErrorLaunchFailure);
    } else if (!strcmp(mode, "config")) {
        mark<<<1, 2048>>>(out);
        CHECK_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
        CHECK_OK(cudaGetLastError());
        CHECK_OK(cudaDeviceSynchronize());
        int host[32];
        CHECK_OK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
        CHECK(host[0] == 0 && host[31] == 0, "the refused launch ran nothing (%d, %d)", host[0], host[31]);
        mark<<<1, 32>>>(out);
        CHECK_OK(cudaGetLastError());
        CHECK_OK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
        CHECK(host[0] == 100 && host[31] == 131, "the next launch ran (%d, %d)", host[0], host[31]);
    } else if (!strcmp(mode, "badcopy")) {
        static int host[64], not_device[64];
        for (int i = 0; i < 64; i++)
            host[i] = i + 1;
        CHECK_ERR(cudaMemcpy(not_device, host, sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
        CHECK(not_device[0] == 0 && not_device[63] == 0, "nothing copied into the host array (%d, %d)", not_device[0],
              not_device[63]);
        CHECK_ERR(cudaMemcpy(base, host, sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue);  // 64 bytes there
        CHECK_ERR(cudaFree(host), cudaErrorInvalidValue);
        CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);   // the last call's error, once
        CHECK_OK(cudaGetLastError());
        mark<<<1, 32>>>(out);
        CHECK_OK(cudaDeviceSynchronize());
        CHECK_OK(cudaMemcpy(host, out, 32 * sizeof(int), cudaMemcpyDeviceToHost));
        CHECK(host[0] == 100 && host[31] == 131, "a launch after them ran (%d, %d)", host[0], host[31]);
    } else {
        printf("usage: fault misaligned|trap|config|badcopy\n");
        return 2;
    }
    return check_report(mode);
}
