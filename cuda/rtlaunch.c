/* rtlaunch.c: kernel launches and what the runtime says of a kernel. A <<<grid, block, shared,
 * stream>>> launch is __cudaPushCallConfiguration, then the host stub's
 * __cudaPopCallConfiguration, __cudaGetKernel (once) and __cudaLaunchKernel with the addresses of
 * the arguments; cudaLaunchKernel names the kernel by its host stub. Each becomes the driver's
 * cuLaunchKernel, which runs the grid before it returns; a fault in it becomes the context's
 * sticky error, returned by the next call (rterror.c). Requires: rtstate.c, rterror.c. */
#include <stdio.h>
#include <string.h>

#include "rt.h"

/* The configurations pushed and not yet popped, on this thread: a launch's arguments may launch
 * kernels themselves, so they nest. */
enum { CONFIG_DEPTH = 32 };
typedef struct RtCallConfig {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
} RtCallConfig;
static _Thread_local RtCallConfig configs[CONFIG_DEPTH];
static _Thread_local unsigned config_count;

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream)
{
    if (config_count == CONFIG_DEPTH) {
        rt_say("ptxrun's libcudart: more than %d kernel launches nested in each other's arguments", CONFIG_DEPTH);
        rt_fail(cudaErrorInvalidConfiguration);
        return 1;
    }
    configs[config_count++] = (RtCallConfig){ gridDim, blockDim, sharedMem, stream };
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
    if (config_count == 0)
        return rt_fail(cudaErrorMissingConfiguration);
    RtCallConfig *c = &configs[--config_count];
    *gridDim = c->grid;
    *blockDim = c->block;
    *sharedMem = c->shared;
    *(cudaStream_t *)stream = c->stream;
    return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    cudaError_t e = cudaSuccess;
    RtFunction *f = rt_function_find(hostFun, &e);
    if (kernel)
        *kernel = f;
    return f ? cudaSuccess : rt_fail(e);
}

/* The public name of the same (CUDA 12.1 and later): a cudaKernel_t that the calls taking a kernel
 * by its host stub take too. */
cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *entryFuncAddr)
{
    if (!kernel)
        return rt_fail(cudaErrorInvalidValue);
    return __cudaGetKernel(kernel, entryFuncAddr);
}

/* A shape no GPU launches: a zero or too large dimension (CUDA's limits; the driver checks the
 * device's own and the kernel's). */
static bool bad_shape(dim3 grid, dim3 block)
{
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
        return true;
    if (grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
        return true;
    if (block.x > 1024 || block.y > 1024 || block.z > 64)
        return true;
    return (uint64_t)block.x * block.y * block.z > 1024;
}

static cudaError_t launch(RtFunction *f, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!f)
        return rt_fail(cudaErrorInvalidDeviceFunction);
    e = rt_function_load(f);
    if (e != cudaSuccess)
        return e;
    if (bad_shape(grid, block))
        return rt_fail(cudaErrorInvalidConfiguration);
    if (shared > 0xffffffffu)
        return rt_fail(cudaErrorInvalidValue);
    if (rt_capturing(stream))
        return rt_capture_kernel(stream, f, grid, block, shared, args);
    return rt_return(cuLaunchKernel(f->function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                    (unsigned)shared, rt_stream(stream), args, NULL));
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                               cudaStream_t stream)
{
    return launch(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                    cudaStream_t stream)
{
    return launch(kernel, gridDim, blockDim, args, sharedMem, stream);
}

static RtFunction *kernel_of(const void *func, cudaError_t *e)
{
    *e = cudaSuccess;
    RtFunction *f = rt_function_find(func, e);
    if (f)
        *e = rt_function_load(f);
    else
        rt_fail(*e);
    return *e == cudaSuccess ? f : NULL;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream)
{
    cudaError_t e = cudaSuccess;
    RtFunction *f = rt_function_find(func, &e);
    return launch(f, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                  cudaStream_t stream)
{
    return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

/* A launch whose CTAs run together (a cooperative launch, clusters: cluster NULL for none), through
 * the driver's cuLaunchKernelEx and its attributes. */
static cudaError_t together(const char *call, const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                            cudaStream_t stream, bool coop, const dim3 *cluster)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    RtFunction *f = kernel_of(func, &e);
    if (!f)
        return e;
    if (bad_shape(grid, block))
        return rt_fail(cudaErrorInvalidConfiguration);
    if (shared > 0xffffffffu)
        return rt_fail(cudaErrorInvalidValue);
    if (rt_capturing(stream))
        return rt_not_supported(call, "a cooperative or cluster launch in a stream capture");
    CUlaunchAttribute attrs[2];
    memset(attrs, 0, sizeof attrs);
    unsigned n = 0;
    if (coop) {
        attrs[n].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
        attrs[n++].value.cooperative = 1;
    }
    if (cluster) {
        attrs[n].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attrs[n].value.clusterDim.x = cluster->x, attrs[n].value.clusterDim.y = cluster->y;
        attrs[n++].value.clusterDim.z = cluster->z;
    }
    CUlaunchConfig c = { grid.x, grid.y, grid.z, block.x, block.y, block.z, (unsigned)shared, rt_stream(stream), attrs,
                         n };
    return rt_return(cuLaunchKernelEx(&c, f->function, args, NULL));
}

/* Every CTA of the grid runs together with the others (grid.sync()); a grid larger than the
 * device keeps resident is refused, cudaErrorCooperativeLaunchTooLarge. */
static cudaError_t cooperative(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                               cudaStream_t stream)
{
    return together("cudaLaunchCooperativeKernel", func, grid, block, args, shared, stream, true, NULL);
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                        cudaStream_t stream)
{
    return cooperative(func, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                             size_t sharedMem, cudaStream_t stream)
{
    return cooperative(func, gridDim, blockDim, args, sharedMem, stream);
}

/* cudaLaunchKernelExC's attributes: those that change nothing when every launch runs whole and in
 * order on the host are taken; cooperative is a cooperative launch; a completion event is
 * recorded after the launch; the others are refused by name. */
static const char *const attribute_names[] = {
    [cudaLaunchAttributeProgrammaticEvent] = "cudaLaunchAttributeProgrammaticEvent",
    [cudaLaunchAttributeDeviceUpdatableKernelNode] = "cudaLaunchAttributeDeviceUpdatableKernelNode",
};

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    if (!config || (config->numAttrs && !config->attrs))
        return rt_fail(cudaErrorInvalidValue);
    bool cooperative_launch = false;
    dim3 cluster = { 1, 1, 1 };
    cudaEvent_t completion = NULL;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        switch (a->id) {
        case cudaLaunchAttributeIgnore: case cudaLaunchAttributeAccessPolicyWindow:
        case cudaLaunchAttributeSynchronizationPolicy: case cudaLaunchAttributeClusterSchedulingPolicyPreference:
        case cudaLaunchAttributeProgrammaticStreamSerialization: case cudaLaunchAttributePriority:
        case cudaLaunchAttributeMemSyncDomainMap: case cudaLaunchAttributeMemSyncDomain:
        case cudaLaunchAttributePreferredClusterDimension: case cudaLaunchAttributePreferredSharedMemoryCarveout:
        case cudaLaunchAttributeNvlinkUtilCentricScheduling:
            break;
        case cudaLaunchAttributeCooperative:
            cooperative_launch = a->val.cooperative != 0;
            break;
        case cudaLaunchAttributeClusterDimension:
            cluster.x = a->val.clusterDim.x, cluster.y = a->val.clusterDim.y, cluster.z = a->val.clusterDim.z;
            break;
        case cudaLaunchAttributeLaunchCompletionEvent: {
            cudaEvent_t event;
            memcpy(&event, a->val.pad, sizeof event);
            completion = event;
            break;
        }
        case cudaLaunchAttributeProgrammaticEvent: case cudaLaunchAttributeDeviceUpdatableKernelNode: {
            char why[96];
            snprintf(why, sizeof why, "the attribute %s", attribute_names[a->id]);
            return rt_not_supported("cudaLaunchKernelExC", why);
        }
        default: {
            char why[64];
            snprintf(why, sizeof why, "the launch attribute %d", (int)a->id);
            return rt_not_supported("cudaLaunchKernelExC", why);
        }
        }
    }
    bool clusters = cluster.x != 1 || cluster.y != 1 || cluster.z != 1;
    cudaError_t e = cooperative_launch || clusters
        ? together("cudaLaunchKernelExC", func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                   config->stream, cooperative_launch, clusters ? &cluster : NULL)
        : cudaLaunchKernel(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream);
    if (e == cudaSuccess && completion)
        e = rt_return(cuEventRecord((CUevent)completion, rt_stream(config->stream)));
    return e;
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    return cudaLaunchKernelExC(config, func, args);
}

/* One of the driver's function attributes; those after CACHE_MODE_CA may be unknown to it (0). */
static CUresult func_attribute(int *value, CUfunction_attribute a, CUfunction fn)
{
    *value = 0;
    CUresult r = cuFuncGetAttribute(value, a, fn);
    if (r != CUDA_SUCCESS && a > CU_FUNC_ATTRIBUTE_CACHE_MODE_CA) {
        *value = 0;
        return CUDA_SUCCESS;
    }
    return r;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!attr)
        return rt_fail(cudaErrorInvalidValue);
    RtFunction *f = kernel_of(func, &e);
    if (!f)
        return e;
    struct cudaFuncAttributes a = { 0 };
    int shared, constant, local;
    CUfunction fn = f->function;
    CUresult r = func_attribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
    if (r == CUDA_SUCCESS) r = func_attribute(&constant, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, fn);
    if (r == CUDA_SUCCESS) r = func_attribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn);
    if (r == CUDA_SUCCESS) r = func_attribute(&a.maxThreadsPerBlock, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
    if (r == CUDA_SUCCESS) r = func_attribute(&a.numRegs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
    if (r == CUDA_SUCCESS) r = func_attribute(&a.ptxVersion, CU_FUNC_ATTRIBUTE_PTX_VERSION, fn);
    if (r == CUDA_SUCCESS) r = func_attribute(&a.binaryVersion, CU_FUNC_ATTRIBUTE_BINARY_VERSION, fn);
    if (r == CUDA_SUCCESS) r = func_attribute(&a.cacheModeCA, CU_FUNC_ATTRIBUTE_CACHE_MODE_CA, fn);
    if (r == CUDA_SUCCESS)
        r = func_attribute(&a.maxDynamicSharedSizeBytes, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, fn);
    if (r == CUDA_SUCCESS)
        r = func_attribute(&a.preferredShmemCarveout, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, fn);
    if (r == CUDA_SUCCESS)
        r = func_attribute(&a.clusterDimMustBeSet, CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET, fn);
    if (r == CUDA_SUCCESS) r = func_attribute(&a.requiredClusterWidth, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, fn);
    if (r == CUDA_SUCCESS)
        r = func_attribute(&a.requiredClusterHeight, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT, fn);
    if (r == CUDA_SUCCESS) r = func_attribute(&a.requiredClusterDepth, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH, fn);
    if (r == CUDA_SUCCESS)
        r = func_attribute(&a.clusterSchedulingPolicyPreference,
                           CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, fn);
    if (r == CUDA_SUCCESS)
        r = func_attribute(&a.nonPortableClusterSizeAllowed, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, fn);
    if (r != CUDA_SUCCESS)
        return rt_return(r);
    a.sharedSizeBytes = (size_t)shared;
    a.constSizeBytes = (size_t)constant;
    a.localSizeBytes = (size_t)local;
    *attr = a;
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    RtFunction *f = kernel_of(func, &e);
    if (!f)
        return e;
    return rt_return(cuFuncSetAttribute(f->function, (CUfunction_attribute)attr, value));
}

cudaError_t cudaFuncSetCacheConfig(const void *func, cudaFuncCache cacheConfig)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    RtFunction *f = kernel_of(func, &e);
    if (!f)
        return e;
    return rt_return(cuFuncSetCacheConfig(f->function, (CUfunc_cache)cacheConfig));
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    if (!name)
        return rt_fail(cudaErrorInvalidValue);
    cudaError_t e = cudaSuccess;
    RtFunction *f = rt_function_find(func, &e);
    if (!f)
        return rt_fail(e);
    *name = f->name;
    return cudaSuccess;
}

cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!functionPtr)
        return rt_fail(cudaErrorInvalidValue);
    RtFunction *f = kernel_of(symbolPtr, &e);
    if (!f)
        return e;
    *functionPtr = (cudaFunction_t)f->function;
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!numBlocks)
        return rt_fail(cudaErrorInvalidValue);
    RtFunction *f = kernel_of(func, &e);
    if (!f)
        return e;
    return rt_return(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, f->function, blockSize,
                                                                          dynamicSMemSize, flags));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                          size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}
