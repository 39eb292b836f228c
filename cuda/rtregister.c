/* rtregister.c: what nvcc's static constructors call before main: each compiled file's fatbinary
 * (__cudaRegisterFatBinary, given the 24-byte wrapper docs/cuda.md describes), its kernels by
 * their host stubs and PTX names, its __device__, __constant__ and __managed__ variables by their
 * host shadows and names; __cudaInitModule when host code first reads a managed variable; and
 * __cudaUnregisterFatBinary at exit. Nothing is loaded here: rtstate.c loads a fatbinary when it
 * is first used. Requires: rtstate.c. */
#include <string.h>

#include "rt.h"

enum {
    WRAPPER_MAGIC = 0x466243b1,    /* nvcc's fatbinary wrapper: magic, version, the fatbinary's address */
};

void **__cudaRegisterFatBinary(void *fatCubin)
{
    const void *fatbin = NULL;
    uint32_t magic = 0, version = 0;
    if (fatCubin)
        memcpy(&magic, fatCubin, sizeof magic);
    if (magic == WRAPPER_MAGIC) {
        memcpy(&version, (const char *)fatCubin + 4, sizeof version);
        memcpy(&fatbin, (const char *)fatCubin + 8, sizeof fatbin);
    }
    else
        rt_say("ptxrun's libcudart: __cudaRegisterFatBinary was given no fatbinary wrapper (magic 0x%08x); "
               "its kernels cannot be launched", (unsigned)magic);
    RtModule *m = rt_module_add(fatbin, version);
    if (!m)
        rt_say("ptxrun's libcudart: out of memory registering a fatbinary");
    return (void **)m;
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
    (void)fatCubinHandle;
}

void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    if (fatCubinHandle)
        rt_module_remove((RtModule *)fatCubinHandle);
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    if (fatCubinHandle)
        rt_function_add((RtModule *)fatCubinHandle, hostFun, deviceFun ? deviceFun : deviceName);
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global)
{
    (void)ext, (void)constant, (void)global;
    if (fatCubinHandle)
        rt_var_add((RtModule *)fatCubinHandle, hostVar, deviceAddress ? deviceAddress : deviceName, size, NULL);
}

/* A __managed__ variable: host code reads it through *hostVarPtrAddress, which gets the variable's
 * address when its fatbinary is loaded (__cudaInitModule asks for that). */
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)ext, (void)constant, (void)global;
    if (fatCubinHandle)
        rt_var_add((RtModule *)fatCubinHandle, hostVarPtrAddress, deviceAddress ? deviceAddress : deviceName, size,
                   hostVarPtrAddress);
}

/* 1 once the fatbinary is loaded (its managed variables have their addresses), else 0: nvcc's code
 * asks again at the next access. */
char __cudaInitModule(void **fatCubinHandle)
{
    if (!fatCubinHandle)
        return 0;
    return rt_module_load((RtModule *)fatCubinHandle) == CUDA_SUCCESS;
}
