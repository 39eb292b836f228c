/* cudart.h: our declarations of the CUDA runtime's ABI (what a program built by nvcc with
 * -cudart shared calls in libcudart.so.13 or .12): the types, enum values and struct layouts the
 * calls exchange (facts measured on CUDA 13.0's headers, the .12 layout of cudaDeviceProp from
 * CUDA 12's: see tests/cuda/props_layout.txt) and the functions ptxrun's libcudart exports
 * (cuda/rt*.c, docs/cuda.md "Runtime API"). Plain C, no CUDA header. RT_API marks what the
 * library exports (the version script cuda/libcudart.map gives each its node). */
#ifndef PTXRUN_CUDART_H
#define PTXRUN_CUDART_H

#include <stddef.h>
#include <stdint.h>

#define RT_API __attribute__((visibility("default")))

typedef enum cudaError {
#define RT_ERROR(name, value, text) name = value,
#include "rterrors.def"
#undef RT_ERROR
} cudaError_t;

typedef struct dim3 {
    unsigned int x, y, z;
} dim3;
typedef struct uint3 {
    unsigned int x, y, z;
} uint3;

typedef struct CUstream_st *cudaStream_t;      /* the driver's streams and events, as CUDA's */
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUfunc_st *cudaFunction_t;
typedef struct RtFunction *cudaKernel_t;       /* __cudaGetKernel's handle: a registered kernel */
typedef struct CUarray_st *cudaArray_t;        /* the driver's arrays (cuda/rttex.c) */

#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,                     /* the direction found from the pointers */
} cudaMemcpyKind;

typedef enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3,
} cudaMemoryType;

struct cudaPointerAttributes {
    cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
    long reserved[8];
};

/* flags of cudaHostAlloc, cudaHostRegister, cudaMallocManaged, streams, events, devices: the
 * driver's values (CU_MEMHOSTALLOC_*, CU_MEMHOSTREGISTER_*, CU_MEM_ATTACH_*, ...) are the same */
enum {
    cudaHostAllocPortable = 0x1, cudaHostAllocMapped = 0x2, cudaHostAllocWriteCombined = 0x4,
    cudaHostAllocDefault = 0, cudaHostRegisterDefault = 0, cudaHostRegisterPortable = 0x1, cudaHostRegisterMapped = 0x2, cudaHostRegisterIoMemory = 0x4,
    cudaHostRegisterReadOnly = 0x8,
    cudaMemAttachGlobal = 0x1, cudaMemAttachHost = 0x2, cudaMemAttachSingle = 0x4,
    cudaStreamNonBlocking = 0x1,
    cudaEventBlockingSync = 0x1, cudaEventDisableTiming = 0x2, cudaEventInterprocess = 0x4,
    cudaDeviceScheduleMask = 0x7, cudaDeviceMapHost = 0x8, cudaDeviceLmemResizeToMax = 0x10,
    cudaDeviceSyncMemops = 0x80, cudaDeviceMask = 0xff,
    cudaOccupancyDisableCachingOverride = 0x1,
};

struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaMemcpy3DParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    cudaMemcpyKind kind;
};

typedef enum cudaChannelFormatKind {
    cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1, cudaChannelFormatKindFloat = 2,
    cudaChannelFormatKindNone = 3,
} cudaChannelFormatKind;
struct cudaChannelFormatDesc { int x, y, z, w; cudaChannelFormatKind f; };

typedef enum cudaLimit {
    cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2,
    cudaLimitDevRuntimeSyncDepth = 3, cudaLimitDevRuntimePendingLaunchCount = 4,
    cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6,
} cudaLimit;

typedef enum cudaFuncCache {
    cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3,
} cudaFuncCache;

/* cudaFuncSetAttribute's attributes: the driver's CUfunction_attribute numbers */
typedef enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
    cudaFuncAttributeClusterDimMustBeSet = 10,
    cudaFuncAttributeRequiredClusterWidth = 11,
    cudaFuncAttributeRequiredClusterHeight = 12,
    cudaFuncAttributeRequiredClusterDepth = 13,
    cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
    cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
} cudaFuncAttribute;

struct cudaFuncAttributes {
    size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA;
    int maxDynamicSharedSizeBytes, preferredShmemCarveout;
    int clusterDimMustBeSet, requiredClusterWidth, requiredClusterHeight, requiredClusterDepth;
    int clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed;
    int reserved[16];
};

/* cudaLaunchKernelExC's configuration and its attributes (a 64-byte union of values) */
typedef enum cudaLaunchAttributeID {
    cudaLaunchAttributeIgnore = 0, cudaLaunchAttributeAccessPolicyWindow = 1,
    cudaLaunchAttributeCooperative = 2, cudaLaunchAttributeSynchronizationPolicy = 3,
    cudaLaunchAttributeClusterDimension = 4, cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
    cudaLaunchAttributeProgrammaticStreamSerialization = 6, cudaLaunchAttributeProgrammaticEvent = 7,
    cudaLaunchAttributePriority = 8, cudaLaunchAttributeMemSyncDomainMap = 9,
    cudaLaunchAttributeMemSyncDomain = 10, cudaLaunchAttributePreferredClusterDimension = 11,
    cudaLaunchAttributeLaunchCompletionEvent = 12, cudaLaunchAttributeDeviceUpdatableKernelNode = 13,
    cudaLaunchAttributePreferredSharedMemoryCarveout = 14,
    cudaLaunchAttributeNvlinkUtilCentricScheduling = 16,
} cudaLaunchAttributeID;
typedef union cudaLaunchAttributeValue {
    char pad[64];
    int cooperative;
    struct { unsigned int x, y, z; } clusterDim;
    int programmaticStreamSerializationAllowed;
    int priority;
    unsigned int sharedMemCarveout;
} cudaLaunchAttributeValue;
typedef struct cudaLaunchAttribute {
    cudaLaunchAttributeID id;
    char pad[4];
    cudaLaunchAttributeValue val;
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_t {
    dim3 gridDim, blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute *attrs;
    unsigned int numAttrs;
} cudaLaunchConfig_t;

typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);
typedef void (*cudaHostFn_t)(void *userData);

/* cudaDeviceAttr: the same numbers as the driver's CUdevice_attribute, passed through */
typedef int cudaDeviceAttr;

typedef struct cudaUUID { char bytes[16]; } cudaUUID_t;

/* The device's properties as CUDA 13 lays them out (libcudart.so.13's cudaGetDeviceProperties).
 * tests/cuda/props_layout.txt holds each field's offset as CUDA 13's own header gives it;
 * check_cudart holds this struct to it. */
struct cudaDeviceProp {
    char name[256];
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem, sharedMemPerBlock;
    int regsPerBlock, warpSize;
    size_t memPitch;
    int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
    size_t totalConstMem;
    int major, minor;
    size_t textureAlignment, texturePitchAlignment;
    int multiProcessorCount, integrated, canMapHostMemory;
    int maxTexture1D, maxTexture1DMipmap, maxTexture2D[2], maxTexture2DMipmap[2], maxTexture2DLinear[3];
    int maxTexture2DGather[2], maxTexture3D[3], maxTexture3DAlt[3], maxTextureCubemap;
    int maxTexture1DLayered[2], maxTexture2DLayered[3], maxTextureCubemapLayered[2];
    int maxSurface1D, maxSurface2D[2], maxSurface3D[3], maxSurface1DLayered[2], maxSurface2DLayered[3];
    int maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount;
    int unifiedAddressing, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor, streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID;
    int hostNativeAtomicSupported, pageableMemoryAccess, concurrentManagedAccess;
    int computePreemptionSupported, canUseHostPointerForRegisteredMem, cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers;
    int deviceNumaConfig, deviceNumaId, mpsEnabled, hostNumaId;
    unsigned int gpuPciDeviceID, gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};

/* The same as CUDA 12 lays it out (libcudart.so.12's cudaGetDeviceProperties_v2, which CUDA 12's
 * headers name cudaGetDeviceProperties): eight more fields CUDA 13 removed (clockRate,
 * deviceOverlap, kernelExecTimeoutEnabled, computeMode, maxTexture1DLinear, memoryClockRate,
 * singleToDoublePrecisionPerfRatio, cooperativeMultiDeviceLaunch), the NUMA fields of 12.4 and
 * later in what 12.0 left reserved. Read from CUDA 12's driver_types.h as public repositories
 * vendor it (12.0's text, whose struct ends "reserved2[2], reserved1[1], reserved[60]", found with
 * the code search; the fields before hostRegisterSupported as in CUDA 11's copy in
 * ggerganov/llama.cpp include/cuda/driver_types.h). */
struct cudaDeviceProp12 {
    char name[256];
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem, sharedMemPerBlock;
    int regsPerBlock, warpSize;
    size_t memPitch;
    int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
    size_t totalConstMem;
    int major, minor;
    size_t textureAlignment, texturePitchAlignment;
    int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated, canMapHostMemory;
    int computeMode, maxTexture1D, maxTexture1DMipmap, maxTexture1DLinear;
    int maxTexture2D[2], maxTexture2DMipmap[2], maxTexture2DLinear[3];
    int maxTexture2DGather[2], maxTexture3D[3], maxTexture3DAlt[3], maxTextureCubemap;
    int maxTexture1DLayered[2], maxTexture2DLayered[3], maxTextureCubemapLayered[2];
    int maxSurface1D, maxSurface2D[2], maxSurface3D[3], maxSurface1DLayered[2], maxSurface2DLayered[3];
    int maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount;
    int unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor, streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID;
    int hostNativeAtomicSupported, singleToDoublePrecisionPerfRatio, pageableMemoryAccess;
    int concurrentManagedAccess, computePreemptionSupported, canUseHostPointerForRegisteredMem;
    int cooperativeLaunch, cooperativeMultiDeviceLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers;
    int deviceNumaConfig, deviceNumaId, mpsEnabled, hostNumaId;
    unsigned int gpuPciDeviceID, gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};

/* ---- registration and launch, what nvcc's generated host code calls (rtregister.c, rtlaunch.c) */
RT_API void **__cudaRegisterFatBinary(void *fatCubin);
RT_API void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
RT_API void __cudaUnregisterFatBinary(void **fatCubinHandle);
RT_API void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                                   dim3 *bDim, dim3 *gDim, int *wSize);
RT_API void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName,
                              int ext, size_t size, int constant, int global);
RT_API void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                                     const char *deviceName, int ext, size_t size, int constant, int global);
RT_API char __cudaInitModule(void **fatCubinHandle);
RT_API unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream);
RT_API cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);
RT_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
RT_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                      size_t sharedMem, cudaStream_t stream);
RT_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                           size_t sharedMem, cudaStream_t stream);

RT_API cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *entryFuncAddr);
RT_API cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                    cudaStream_t stream);
RT_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                         size_t sharedMem, cudaStream_t stream);
RT_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
RT_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args);
RT_API cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                               size_t sharedMem, cudaStream_t stream);
RT_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                    size_t sharedMem, cudaStream_t stream);
RT_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
RT_API cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value);
RT_API cudaError_t cudaFuncSetCacheConfig(const void *func, cudaFuncCache cacheConfig);
RT_API cudaError_t cudaFuncGetName(const char **name, const void *func);
RT_API cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr);
RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                                 size_t dynamicSMemSize);
RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                          int blockSize, size_t dynamicSMemSize,
                                                                          unsigned int flags);

/* ---- memory (rtmemory.c) */
RT_API cudaError_t cudaMalloc(void **devPtr, size_t size);
RT_API cudaError_t cudaFree(void *devPtr);
RT_API cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
RT_API cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
RT_API cudaError_t cudaMallocHost(void **ptr, size_t size);
RT_API cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
RT_API cudaError_t cudaFreeHost(void *ptr);
RT_API cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
RT_API cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost);
RT_API cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
RT_API cudaError_t cudaHostUnregister(void *ptr);
RT_API cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags);
RT_API cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
RT_API cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
RT_API cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
RT_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);
RT_API cudaError_t cudaMemset(void *devPtr, int value, size_t count);
RT_API cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream);
RT_API cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
RT_API cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                     cudaStream_t stream);
RT_API cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
RT_API cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                     cudaStream_t stream);

/* ---- copies (rtcopy.c) */
RT_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                                   cudaStream_t stream);
RT_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                size_t height, cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind, cudaStream_t stream);
RT_API cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
RT_API cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream);
RT_API cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
RT_API cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                       cudaStream_t stream);
RT_API cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                      cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                        cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                           cudaMemcpyKind kind, cudaStream_t stream);
RT_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                             cudaMemcpyKind kind, cudaStream_t stream);
RT_API cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
RT_API cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);

/* ---- the device (rtdevice.c, rtprops.c, rtversion.c) */
RT_API cudaError_t cudaGetDeviceCount(int *count);
RT_API cudaError_t cudaSetDevice(int device);
RT_API cudaError_t cudaGetDevice(int *device);
RT_API cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags);
RT_API cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
RT_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
RT_API cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp12 *prop, int device);
RT_API cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
RT_API cudaError_t cudaDeviceSynchronize(void);
RT_API cudaError_t cudaDeviceReset(void);
RT_API cudaError_t cudaSetDeviceFlags(unsigned int flags);
RT_API cudaError_t cudaGetDeviceFlags(unsigned int *flags);
RT_API cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache cacheConfig);
RT_API cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *pCacheConfig);
RT_API cudaError_t cudaDeviceGetLimit(size_t *pValue, cudaLimit limit);
RT_API cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
RT_API cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
RT_API cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
RT_API cudaError_t cudaCtxResetPersistingL2Cache(void);
RT_API cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
RT_API cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
RT_API cudaError_t cudaSetValidDevices(int *device_arr, int len);
RT_API cudaError_t cudaDriverGetVersion(int *driverVersion);
RT_API cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);

/* Where managed memory is advised to or prefetched to (CUDA 13's; .12 also takes a device ordinal). */
enum { cudaMemLocationTypeDevice = 1, cudaMemLocationTypeHost = 2 };
struct cudaMemLocation { int type, id; };
enum { cudaCpuDeviceId = -1 };
#if !defined(RT_CUDART_VERSION) || RT_CUDART_VERSION >= 13000
RT_API cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                        unsigned int flags, cudaStream_t stream);
RT_API cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice, struct cudaMemLocation location);
#else
RT_API cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream);
RT_API cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice, int device);
#endif

/* ---- streams and events (rtstream.c) */
RT_API cudaError_t cudaStreamCreate(cudaStream_t *pStream);
RT_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
RT_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
RT_API cudaError_t cudaStreamDestroy(cudaStream_t stream);
RT_API cudaError_t cudaStreamSynchronize(cudaStream_t stream);
RT_API cudaError_t cudaStreamQuery(cudaStream_t stream);
RT_API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
RT_API cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                         unsigned int flags);
RT_API cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
RT_API cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags);
RT_API cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr,
                                          const cudaLaunchAttributeValue *value);
RT_API cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags);
RT_API cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority);
RT_API cudaError_t cudaStreamGetDevice(cudaStream_t stream, int *device);
RT_API cudaError_t cudaEventCreate(cudaEvent_t *event);
RT_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
RT_API cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
RT_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags);
RT_API cudaError_t cudaEventSynchronize(cudaEvent_t event);
RT_API cudaError_t cudaEventQuery(cudaEvent_t event);
RT_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
RT_API cudaError_t cudaEventDestroy(cudaEvent_t event);

/* ---- errors (rterror.c) */
RT_API cudaError_t cudaGetLastError(void);
RT_API cudaError_t cudaPeekAtLastError(void);
RT_API const char *cudaGetErrorString(cudaError_t error);
RT_API const char *cudaGetErrorName(cudaError_t error);

/* ---- what needs no device (rtunsupported.c) */
RT_API struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f);
RT_API cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode);
RT_API cudaError_t cudaProfilerStart(void);
RT_API cudaError_t cudaProfilerStop(void);


/* ---- helper X's block: CUDA arrays, texture and surface objects (rttex.c) */
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
typedef struct CUmipmappedArray_st *cudaMipmappedArray_t;
enum {
    cudaArrayDefault = 0x00, cudaArrayLayered = 0x01, cudaArraySurfaceLoadStore = 0x02, cudaArrayCubemap = 0x04,
    cudaArrayTextureGather = 0x08,
};
typedef enum cudaResourceType {
    cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1, cudaResourceTypeLinear = 2,
    cudaResourceTypePitch2D = 3,
} cudaResourceType;
typedef enum cudaTextureAddressMode {
    cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2, cudaAddressModeBorder = 3,
} cudaTextureAddressMode;
typedef enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 } cudaTextureFilterMode;
typedef enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 } cudaTextureReadMode;

/* What an object reads (driver_types.h's layout: the type, a 128-byte union, the flags). */
struct cudaResourceDesc {
    cudaResourceType resType;
    union {
        struct { cudaArray_t array; } array;
        struct { cudaMipmappedArray_t mipmap; } mipmap;
        struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t width, height, pitchInBytes;
        } pitch2D;
        struct { int reserved[32]; } reserved;
    } res;
    unsigned int flags;
};
/* How a texture samples (texture_types.h's layout, CUDA 12 and 13). */
struct cudaTextureDesc {
    cudaTextureAddressMode addressMode[3];
    cudaTextureFilterMode filterMode;
    cudaTextureReadMode readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned int maxAnisotropy;
    cudaTextureFilterMode mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int seamlessCubemap;
};
struct cudaResourceViewDesc {
    int format;
    size_t width, height, depth;
    unsigned int firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
    unsigned int reserved[16];
};

RT_API cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                   size_t height, unsigned int flags);
RT_API cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent, unsigned int flags);
RT_API cudaError_t cudaFreeArray(cudaArray_t array);
RT_API cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned int *flags,
                                    cudaArray_t array);
RT_API cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_t array);
RT_API cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                     cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_t src, size_t wOffset, size_t hOffset, size_t count,
                                       cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                       size_t width, size_t height, cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_t src, size_t wOffset, size_t hOffset,
                                         size_t width, size_t height, cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                            size_t spitch, size_t width, size_t height, cudaMemcpyKind kind,
                                            cudaStream_t stream);
RT_API cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_t src, size_t wOffset,
                                              size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind,
                                              cudaStream_t stream);
RT_API cudaError_t cudaCreateTextureObject(cudaTextureObject_t *object, const struct cudaResourceDesc *res,
                                           const struct cudaTextureDesc *tex, const struct cudaResourceViewDesc *view);
RT_API cudaError_t cudaDestroyTextureObject(cudaTextureObject_t object);
RT_API cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *res, cudaTextureObject_t object);
RT_API cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *object, const struct cudaResourceDesc *res);
RT_API cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t object);
/* ---- helper G's block: graphs, stream capture, stream-ordered allocation, stream attributes
 * (rtgraph.c, rtgraphedit.c, rtgraphexec.c, rtcapture.c, rtpool.c, rtstreamattr.c). Layouts and values as CUDA
 * 13's driver_types.h gives them (measured, not copied). */
typedef struct RtGraph *cudaGraph_t;
typedef struct RtGraphNode *cudaGraphNode_t;
typedef struct RtGraphExec *cudaGraphExec_t;
typedef struct RtMemPool *cudaMemPool_t;
typedef unsigned long long cudaGraphConditionalHandle;

typedef enum cudaGraphNodeType {
    cudaGraphNodeTypeKernel = 0, cudaGraphNodeTypeMemcpy = 1, cudaGraphNodeTypeMemset = 2,
    cudaGraphNodeTypeHost = 3, cudaGraphNodeTypeGraph = 4, cudaGraphNodeTypeEmpty = 5,
    cudaGraphNodeTypeWaitEvent = 6, cudaGraphNodeTypeEventRecord = 7, cudaGraphNodeTypeExtSemaphoreSignal = 8,
    cudaGraphNodeTypeExtSemaphoreWait = 9, cudaGraphNodeTypeMemAlloc = 10, cudaGraphNodeTypeMemFree = 11,
    cudaGraphNodeTypeConditional = 13,
} cudaGraphNodeType;

struct cudaKernelNodeParams {
    void *func;                  /* the kernel's host stub */
    dim3 gridDim, blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams, **extra;
};
struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value, elementSize;   /* elementSize 1, 2 or 4 */
    size_t width, height;              /* width in elements */
};
struct cudaHostNodeParams {
    cudaHostFn_t fn;
    void *userData;
};
struct cudaMemAccessDesc { struct cudaMemLocation location; int flags; };
struct cudaMemPoolProps {
    int allocType;                     /* 1 pinned (device memory) */
    int handleTypes;
    struct cudaMemLocation location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
};
struct cudaMemAllocNodeParams {
    struct cudaMemPoolProps poolProps;
    const struct cudaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;                        /* out: the allocation's address, fixed for the graph's life */
};
/* cudaGraphAddNode's parameters: the type, then a 232-byte union of each kind's parameters */
struct cudaMemcpyNodeParams { int flags; int reserved[3]; struct cudaMemcpy3DParms copyParams; };
struct cudaConditionalNodeParams {
    cudaGraphConditionalHandle handle;
    int type;
    unsigned int size;
    cudaGraph_t *phGraph_out;
};
struct cudaGraphNodeParams {
    cudaGraphNodeType type;
    int reserved0[3];
    union {
        long long reserved1[29];
        struct cudaKernelNodeParams kernel;
        struct cudaMemcpyNodeParams memcpy;
        struct cudaMemsetParams memset;
        struct cudaHostNodeParams host;
        struct { cudaGraph_t graph; int ownership; } graph;
        struct { cudaEvent_t event; } eventWait, eventRecord;
        struct cudaMemAllocNodeParams alloc;
        struct { void *dptr; } free;
        struct cudaConditionalNodeParams conditional;
    };
    long long reserved2;
};
typedef struct cudaGraphEdgeData {
    unsigned char from_port, to_port, type, reserved[5];
} cudaGraphEdgeData;

typedef enum cudaGraphExecUpdateResult {
    cudaGraphExecUpdateSuccess = 0, cudaGraphExecUpdateError = 1, cudaGraphExecUpdateErrorTopologyChanged = 2,
    cudaGraphExecUpdateErrorNodeTypeChanged = 3, cudaGraphExecUpdateErrorFunctionChanged = 4,
    cudaGraphExecUpdateErrorParametersChanged = 5, cudaGraphExecUpdateErrorNotSupported = 6,
    cudaGraphExecUpdateErrorUnsupportedFunctionChange = 7, cudaGraphExecUpdateErrorAttributesChanged = 8,
} cudaGraphExecUpdateResult;
typedef struct cudaGraphExecUpdateResultInfo {
    cudaGraphExecUpdateResult result;
    cudaGraphNode_t errorNode, errorFromNode;
} cudaGraphExecUpdateResultInfo;
typedef struct cudaGraphInstantiateParams {
    unsigned long long flags;
    cudaStream_t uploadStream;
    cudaGraphNode_t errNode_out;
    int result_out;
} cudaGraphInstantiateParams;
enum {
    cudaGraphInstantiateFlagAutoFreeOnLaunch = 1, cudaGraphInstantiateFlagUpload = 2,
    cudaGraphInstantiateFlagDeviceLaunch = 4, cudaGraphInstantiateFlagUseNodePriority = 8,
};

typedef enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1, cudaStreamCaptureStatusInvalidated = 2,
} cudaStreamCaptureStatus;
typedef enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1, cudaStreamCaptureModeRelaxed = 2,
} cudaStreamCaptureMode;
enum { cudaStreamAddCaptureDependencies = 0, cudaStreamSetCaptureDependencies = 1 };

typedef enum cudaMemPoolAttr {
    cudaMemPoolReuseFollowEventDependencies = 1, cudaMemPoolReuseAllowOpportunistic = 2,
    cudaMemPoolReuseAllowInternalDependencies = 3, cudaMemPoolAttrReleaseThreshold = 4,
    cudaMemPoolAttrReservedMemCurrent = 5, cudaMemPoolAttrReservedMemHigh = 6,
    cudaMemPoolAttrUsedMemCurrent = 7, cudaMemPoolAttrUsedMemHigh = 8,
} cudaMemPoolAttr;
typedef enum cudaGraphMemAttributeType {
    cudaGraphMemAttrUsedMemCurrent = 0, cudaGraphMemAttrUsedMemHigh = 1,
    cudaGraphMemAttrReservedMemCurrent = 2, cudaGraphMemAttrReservedMemHigh = 3,
} cudaGraphMemAttributeType;

/* cudaStreamSetAttribute's values: the launch attributes' union (cudaStreamAttrValue) */
struct cudaAccessPolicyWindow {
    void *base_ptr;
    size_t num_bytes;
    float hitRatio;
    int hitProp, missProp;
};

/* graphs (rtgraph.c) */
RT_API cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
RT_API cudaError_t cudaGraphDestroy(cudaGraph_t graph);
RT_API cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                          const struct cudaKernelNodeParams *pNodeParams);
RT_API cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                          const struct cudaMemcpy3DParms *pCopyParams);
RT_API cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                            const void *src, size_t count, cudaMemcpyKind kind);
RT_API cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                          const struct cudaMemsetParams *pMemsetParams);
RT_API cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                        const struct cudaHostNodeParams *pNodeParams);
RT_API cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                         const cudaGraphNode_t *pDependencies, size_t numDependencies);
RT_API cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                              cudaGraph_t childGraph);
RT_API cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                               cudaEvent_t event);
RT_API cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             cudaEvent_t event);
RT_API cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                            struct cudaMemAllocNodeParams *nodeParams);
RT_API cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dptr);
RT_API cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies, const cudaGraphEdgeData *dependencyData,
                                    size_t numDependencies, struct cudaGraphNodeParams *nodeParams);
RT_API cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                            const cudaGraphEdgeData *edgeData, size_t numDependencies);
RT_API cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
RT_API cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes);
RT_API cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                     cudaGraphEdgeData *edgeData, size_t *numEdges);
RT_API cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                                cudaGraphEdgeData *edgeData, size_t *pNumDependencies);
RT_API cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType *pType);
RT_API cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams);
RT_API cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams);
RT_API cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *pNodeParams);
RT_API cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams);
RT_API cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams);
RT_API cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out);
RT_API cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
RT_API cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                                  cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes);
RT_API cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                               const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                               size_t numDependencies);
RT_API cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node);
RT_API cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                            cudaGraph_t clonedGraph);
RT_API cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *pNodeParams);
RT_API cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams);
RT_API cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams);
RT_API cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph);
RT_API cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out);
RT_API cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                                    unsigned int defaultLaunchValue, unsigned int flags);

/* instantiated graphs (rtgraphexec.c) */
RT_API cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags);
RT_API cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                 unsigned long long flags);
RT_API cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                  cudaGraphInstantiateParams *instantiateParams);
RT_API cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
RT_API cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
RT_API cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
RT_API cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                    const struct cudaKernelNodeParams *pNodeParams);
RT_API cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                    const struct cudaMemcpy3DParms *pNodeParams);
RT_API cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                    const struct cudaMemsetParams *pNodeParams);
RT_API cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                  const struct cudaHostNodeParams *pNodeParams);
RT_API cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int isEnabled);
RT_API cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int *isEnabled);
RT_API cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags);
RT_API cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                       cudaGraphExecUpdateResultInfo *resultInfo);

/* stream capture (rtcapture.c) */
RT_API cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
RT_API cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                 const cudaGraphNode_t *dependencies,
                                                 const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                 cudaStreamCaptureMode mode);
RT_API cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
RT_API cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus *pCaptureStatus);
RT_API cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus *captureStatus_out,
                                            unsigned long long *id_out, cudaGraph_t *graph_out,
                                            const cudaGraphNode_t **dependencies_out,
                                            const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out);
RT_API cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                       const cudaGraphEdgeData *dependencyData,
                                                       size_t numDependencies, unsigned int flags);

/* memory pools and graph memory (rtpool.c) */
RT_API cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
RT_API cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
RT_API cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
RT_API cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps);
RT_API cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool);
RT_API cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void *value);
RT_API cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void *value);
RT_API cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
RT_API cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);
RT_API cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void *value);
RT_API cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void *value);
RT_API cudaError_t cudaDeviceGraphMemTrim(int device);

/* a stream's attributes read back (rtstreamattr.c) */
RT_API cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr,
                                          cudaLaunchAttributeValue *value);

#endif
