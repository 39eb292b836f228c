// rdc_lib.cu: the device function rdc.cu calls from another file (separate compilation, -rdc).
__device__ int triple_plus(int v, int k)
{
    return 3 * v + k;
}
