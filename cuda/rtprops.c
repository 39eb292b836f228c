/* rtprops.c: cudaGetDeviceProperties, built from the driver's device attributes, in CUDA 13's
 * layout (libcudart.so.13's cudaGetDeviceProperties) and CUDA 12's (libcudart.so.12's
 * cudaGetDeviceProperties_v2, the name CUDA 12's headers give the call): one table says which
 * attribute fills each field and where the field is in each layout. Requires: rterror.c. */
#include <stddef.h>
#include <string.h>

#include "rt.h"

typedef struct PropField {
    size_t at13, at12;         /* the field's offset in each layout; NO_FIELD where it has none */
    CUdevice_attribute attribute;
    bool wide;                 /* a size_t field, else an int */
} PropField;

#define NO_FIELD ((size_t)-1)

/* The fields before clockRate are where they are in both layouts (fill writes them once). */
_Static_assert(offsetof(struct cudaDeviceProp, totalGlobalMem) == offsetof(struct cudaDeviceProp12, totalGlobalMem)
               && offsetof(struct cudaDeviceProp, uuid) == offsetof(struct cudaDeviceProp12, uuid),
               "the two layouts start alike");

#define BOTH(field, attr) { offsetof(struct cudaDeviceProp, field), offsetof(struct cudaDeviceProp12, field), attr, false }
#define WIDE(field, attr) { offsetof(struct cudaDeviceProp, field), offsetof(struct cudaDeviceProp12, field), attr, true }
#define ONLY12(field, attr) { NO_FIELD, offsetof(struct cudaDeviceProp12, field), attr, false }

static const PropField prop_fields[] = {
    WIDE(sharedMemPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
    BOTH(regsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK),
    BOTH(warpSize, CU_DEVICE_ATTRIBUTE_WARP_SIZE),
    WIDE(memPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH),
    BOTH(maxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
    BOTH(maxThreadsDim[0], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
    BOTH(maxThreadsDim[1], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
    BOTH(maxThreadsDim[2], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z),
    BOTH(maxGridSize[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
    BOTH(maxGridSize[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
    BOTH(maxGridSize[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z),
    ONLY12(clockRate, CU_DEVICE_ATTRIBUTE_CLOCK_RATE),
    WIDE(totalConstMem, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY),
    BOTH(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
    BOTH(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
    WIDE(textureAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT),
    WIDE(texturePitchAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT),
    ONLY12(deviceOverlap, CU_DEVICE_ATTRIBUTE_GPU_OVERLAP),
    BOTH(multiProcessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
    ONLY12(kernelExecTimeoutEnabled, CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT),
    BOTH(integrated, CU_DEVICE_ATTRIBUTE_INTEGRATED),
    BOTH(canMapHostMemory, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY),
    ONLY12(computeMode, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE),
    BOTH(maxTexture1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH),
    BOTH(maxTexture1DMipmap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH),
    ONLY12(maxTexture1DLinear, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH),
    BOTH(maxTexture2D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH),
    BOTH(maxTexture2D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT),
    BOTH(maxTexture2DMipmap[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH),
    BOTH(maxTexture2DMipmap[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT),
    BOTH(maxTexture2DLinear[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH),
    BOTH(maxTexture2DLinear[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT),
    BOTH(maxTexture2DLinear[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH),
    BOTH(maxTexture2DGather[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH),
    BOTH(maxTexture2DGather[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT),
    BOTH(maxTexture3D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH),
    BOTH(maxTexture3D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT),
    BOTH(maxTexture3D[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH),
    BOTH(maxTexture3DAlt[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE),
    BOTH(maxTexture3DAlt[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE),
    BOTH(maxTexture3DAlt[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE),
    BOTH(maxTextureCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH),
    BOTH(maxTexture1DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH),
    BOTH(maxTexture1DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS),
    BOTH(maxTexture2DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH),
    BOTH(maxTexture2DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT),
    BOTH(maxTexture2DLayered[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS),
    BOTH(maxTextureCubemapLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH),
    BOTH(maxTextureCubemapLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS),
    BOTH(maxSurface1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH),
    BOTH(maxSurface2D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH),
    BOTH(maxSurface2D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT),
    BOTH(maxSurface3D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH),
    BOTH(maxSurface3D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT),
    BOTH(maxSurface3D[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH),
    BOTH(maxSurface1DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH),
    BOTH(maxSurface1DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS),
    BOTH(maxSurface2DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH),
    BOTH(maxSurface2DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT),
    BOTH(maxSurface2DLayered[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS),
    BOTH(maxSurfaceCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH),
    BOTH(maxSurfaceCubemapLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH),
    BOTH(maxSurfaceCubemapLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS),
    WIDE(surfaceAlignment, CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT),
    BOTH(concurrentKernels, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS),
    BOTH(ECCEnabled, CU_DEVICE_ATTRIBUTE_ECC_ENABLED),
    BOTH(pciBusID, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID),
    BOTH(pciDeviceID, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID),
    BOTH(pciDomainID, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID),
    BOTH(tccDriver, CU_DEVICE_ATTRIBUTE_TCC_DRIVER),
    BOTH(asyncEngineCount, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT),
    BOTH(unifiedAddressing, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING),
    ONLY12(memoryClockRate, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE),
    BOTH(memoryBusWidth, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH),
    BOTH(l2CacheSize, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE),
    BOTH(persistingL2CacheMaxSize, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE),
    BOTH(maxThreadsPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR),
    BOTH(streamPrioritiesSupported, CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED),
    BOTH(globalL1CacheSupported, CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED),
    BOTH(localL1CacheSupported, CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED),
    WIDE(sharedMemPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
    BOTH(regsPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR),
    BOTH(managedMemory, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY),
    BOTH(isMultiGpuBoard, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD),
    BOTH(multiGpuBoardGroupID, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID),
    BOTH(hostNativeAtomicSupported, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED),
    ONLY12(singleToDoublePrecisionPerfRatio, CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO),
    BOTH(pageableMemoryAccess, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS),
    BOTH(concurrentManagedAccess, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS),
    BOTH(computePreemptionSupported, CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED),
    BOTH(canUseHostPointerForRegisteredMem, CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM),
    BOTH(cooperativeLaunch, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH),
    ONLY12(cooperativeMultiDeviceLaunch, CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH),
    WIDE(sharedMemPerBlockOptin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
    BOTH(pageableMemoryAccessUsesHostPageTables, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES),
    BOTH(directManagedMemAccessFromHost, CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST),
    BOTH(maxBlocksPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR),
    BOTH(accessPolicyMaxWindowSize, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE),
    WIDE(reservedSharedMemPerBlock, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK),
    BOTH(hostRegisterSupported, CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED),
    BOTH(sparseCudaArraySupported, CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED),
    BOTH(hostRegisterReadOnlySupported, CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED),
    BOTH(timelineSemaphoreInteropSupported, CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED),
    BOTH(memoryPoolsSupported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED),
    BOTH(gpuDirectRDMASupported, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED),
    BOTH(gpuDirectRDMAFlushWritesOptions, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS),
    BOTH(gpuDirectRDMAWritesOrdering, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING),
    BOTH(memoryPoolSupportedHandleTypes, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES),
    BOTH(deferredMappingCudaArraySupported, CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED),
    BOTH(ipcEventSupported, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED),
    BOTH(clusterLaunch, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH),
    BOTH(unifiedFunctionPointers, CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS),
    BOTH(deviceNumaConfig, CU_DEVICE_ATTRIBUTE_NUMA_CONFIG),
    BOTH(deviceNumaId, CU_DEVICE_ATTRIBUTE_NUMA_ID),
    BOTH(mpsEnabled, CU_DEVICE_ATTRIBUTE_MPS_ENABLED),
    BOTH(hostNumaId, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID),
    BOTH(gpuPciDeviceID, CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID),
    BOTH(gpuPciSubsystemID, CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID),
    BOTH(hostNumaMultinodeIpcSupported, CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED),
};

/* Fills a layout's fields (cuda13: CUDA 13's, else CUDA 12's) from the device's attributes; one the
 * driver does not know (CUDA_ERROR_INVALID_VALUE) is left 0. */
static cudaError_t fill(unsigned char *out, bool cuda13, int device)
{
    int n = 0;
    if (cuInit(0) != CUDA_SUCCESS)
        return rt_fail(cudaErrorInitializationError);
    CUresult r = cuDeviceGetCount(&n);
    if (r != CUDA_SUCCESS)
        return rt_return(r);
    if (device < 0 || device >= n)
        return rt_fail(cudaErrorInvalidDevice);
    CUdevice dev;
    size_t total = 0;
    r = cuDeviceGet(&dev, device);
    if (r == CUDA_SUCCESS)
        r = cuDeviceGetName((char *)out, 256, dev);
    if (r == CUDA_SUCCESS)
        r = cuDeviceGetUuid_v2((CUuuid *)(out + offsetof(struct cudaDeviceProp, uuid)), dev);
    if (r == CUDA_SUCCESS)
        r = cuDeviceTotalMem_v2(&total, dev);
    if (r != CUDA_SUCCESS)
        return rt_return(r);
    memcpy(out + offsetof(struct cudaDeviceProp, totalGlobalMem), &total, sizeof total);
    for (size_t i = 0; i < sizeof prop_fields / sizeof prop_fields[0]; i++) {
        const PropField *f = &prop_fields[i];
        size_t at = cuda13 ? f->at13 : f->at12;
        if (at == NO_FIELD)
            continue;
        int value = 0;
        r = cuDeviceGetAttribute(&value, f->attribute, dev);
        if (r == CUDA_ERROR_INVALID_VALUE)
            value = 0;
        else if (r != CUDA_SUCCESS)
            return rt_return(r);
        if (f->wide) {
            size_t wide = (size_t)(unsigned)value;
            memcpy(out + at, &wide, sizeof wide);
        } else {
            memcpy(out + at, &value, sizeof value);
        }
    }
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (!prop)
        return rt_fail(cudaErrorInvalidValue);
    struct cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    cudaError_t e = fill((unsigned char *)&p, true, device);
    if (e == cudaSuccess)
        *prop = p;
    return e;
}

cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp12 *prop, int device)
{
    if (!prop)
        return rt_fail(cudaErrorInvalidValue);
    struct cudaDeviceProp12 p;
    memset(&p, 0, sizeof p);
    cudaError_t e = fill((unsigned char *)&p, false, device);
    if (e == cudaSuccess)
        *prop = p;
    return e;
}
