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
typedef struct RtArray *cudaArray_t;           /* arrays are not supported: only passed around */

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
RT_API cudaError_t cudaStreamIsCapturing(cudaStream_t stream, int *pCaptureStatus);
RT_API cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode);
RT_API cudaError_t cudaProfilerStart(void);
RT_API cudaError_t cudaProfilerStop(void);

#endif
