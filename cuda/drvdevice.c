/* drvdevice.c: the one device ptxrun's driver gives: an NVIDIA H100 (SXM5, compute capability
 * 9.0) by default, an A100 (SXM4, 8.0) with PTXRUN_ARCH=sm_80 (below 9.0 the A100's limits, from 9.0
 * the H100's, with the compute capability PTXRUN_ARCH names). The figures are NVIDIA's: the CUDA
 * C++ Programming Guide's "Technical Specifications per Compute Capability" table (threads, blocks,
 * registers and shared memory per SM and per block, grid and texture limits), the Hopper and
 * Ampere tuning guides (228 KB of shared memory per SM and 227 KB a block may opt in to on 9.0;
 * 164 KB and 163 KB on 8.0; 1 KB reserved per block), and the H100 SXM5 80GB and A100 SXM4 40GB
 * data sheets (SMs, clocks, L2, bus width). Where a GPU's answer would promise what ptxrun does
 * not do (cooperative and cluster launches through this driver, memory pools, virtual memory
 * management, IPC, persisting L2), the attribute says 0 (docs/cuda.md, "Driver API"). The memory
 * is the H100's 80 GiB; cuMemGetInfo says what of it the host can give. Requires: cuda.h. */
#include <string.h>
#include <unistd.h>

#include "cuda.h"

enum { TOTAL_MEMORY_GIB = 80 };

typedef struct Attribute {
    CUdevice_attribute attribute;
    int h100, a100;
} Attribute;

#define SAME(a, v) { a, v, v }
static const Attribute attributes[] = {
    SAME(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024),
    SAME(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024),
    SAME(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024),
    SAME(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64),
    SAME(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647),
    SAME(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535),
    SAME(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535),
    SAME(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 49152),
    SAME(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 65536),
    SAME(CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32),
    SAME(CU_DEVICE_ATTRIBUTE_MAX_PITCH, 2147483647),
    SAME(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 65536),
    { CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1980000, 1410000 },                /* kHz, the boost clock */
    SAME(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 512),
    SAME(CU_DEVICE_ATTRIBUTE_GPU_OVERLAP, 1),
    { CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132, 108 },
    SAME(CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT, 0),
    SAME(CU_DEVICE_ATTRIBUTE_INTEGRATED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 1),
    SAME(CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, 0),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH, 131072),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH, 131072),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT, 65536),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH, 16384),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT, 16384),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH, 16384),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS, 2048),
    SAME(CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT, 512),
    SAME(CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, 1),
    SAME(CU_DEVICE_ATTRIBUTE_ECC_ENABLED, 1),
    SAME(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 0),
    SAME(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, 0),
    SAME(CU_DEVICE_ATTRIBUTE_TCC_DRIVER, 0),
    { CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 2619000, 1215000 },         /* kHz */
    SAME(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 5120),
    { CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 50 << 20, 40 << 20 },
    SAME(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 2048),
    SAME(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, 3),
    SAME(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS, 2048),
    SAME(CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER, 1),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE, 8192),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE, 8192),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, 0),
    SAME(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, 32),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS, 2046),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH, 131072),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT, 65536),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH, 16384),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT, 16384),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH, 16384),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS, 2048),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS, 2048),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS, 2046),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH, 268435456),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH, 131072),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT, 65000),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH, 2097120),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT, 32768),
    { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9, 8 },              /* PTXRUN_ARCH's, below */
    SAME(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0),
    SAME(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH, 32768),
    SAME(CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED, 1),
    SAME(CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED, 1),
    SAME(CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED, 1),
    { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 228 << 10, 164 << 10 },
    SAME(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 65536),
    SAME(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1),
    SAME(CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD, 0),
    SAME(CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID, 0),
    SAME(CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO, 2),
    SAME(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, 0),       /* a kernel reaches the driver's memory only */
    SAME(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 1),
    SAME(CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED, 1),
    SAME(CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM, 1),   /* a device pointer is the host's */
    SAME(CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1, 0),
    SAME(CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1, 0),
    SAME(CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1, 0),
    SAME(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, 1),           /* cuLaunchCooperativeKernel (gang.c) */
    SAME(CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH, 0),
    { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 227 << 10, 163 << 10 },
    SAME(CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES, 0),
    SAME(CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED, 1),
    SAME(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES, 0),
    SAME(CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, 1),   /* managed memory is the host's */
    SAME(CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 32),
    SAME(CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE, 0),    /* no cache to persist in */
    SAME(CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, 0),
    SAME(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, 1024),
    SAME(CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED, 1),
    SAME(CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS, 0),
    SAME(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING, 0),
    SAME(CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, 0),
    { CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, 1, 0 },              /* clusters: an H100's (sm_90), not an A100's */
    SAME(CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, 0),
    SAME(CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR, 0),
    SAME(CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED, 0),
    { CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT, 4, 1 },
    SAME(CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS, 0),
    SAME(CU_DEVICE_ATTRIBUTE_NUMA_CONFIG, 0),
    SAME(CU_DEVICE_ATTRIBUTE_NUMA_ID, -1),
    SAME(CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_MPS_ENABLED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID, -1),
    SAME(CU_DEVICE_ATTRIBUTE_D3D12_CIG_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK, 0),
    SAME(CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH, 0),
    SAME(CU_DEVICE_ATTRIBUTE_VULKAN_CIG_SUPPORTED, 0),
    { CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID, 0x233010de, 0x20b010de },   /* device << 16 | NVIDIA's vendor id */
    SAME(CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID, 0),
    SAME(CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED, 0),
    SAME(CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED, 0),
};

void drv_limits(unsigned arch, DrvLimits *out)
{
    bool hopper = arch >= 90;
    *out = (DrvLimits){ .arch = arch, .sms = hopper ? 132 : 108, .threads_per_sm = 2048, .blocks_per_sm = 32,
                        .regs_per_sm = 65536, .shared_per_sm = hopper ? 228 << 10 : 164 << 10,
                        .shared_per_block = 48 << 10, .shared_optin = hopper ? 227 << 10 : 163 << 10,
                        .reserved_shared = 1024 };
}

/* The state with cuInit done and dev the device, or the error (the lock not held). */
static CUresult enter_device(DrvState **s, CUdevice dev)
{
    CUresult r = drv_enter_init(s);
    if (r == CUDA_SUCCESS && dev != 0) {
        drv_unlock();
        r = CUDA_ERROR_INVALID_DEVICE;
    }
    return r;
}

CUresult cuInit(unsigned flags)
{
    return drv_init(flags);
}

CUresult cuDriverGetVersion(int *version)
{
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    *version = 13000;            /* CUDA 13.0's driver API, which cudrv.h declares */
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    drv_unlock();
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    *count = 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    drv_unlock();
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    DrvState *s;
    CUresult r = enter_device(&s, dev);
    if (r != CUDA_SUCCESS)
        return r;
    unsigned arch = s->settings.arch;
    drv_unlock();
    if (!name || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    snprintf(name, (size_t)len, "ptxrun sm_%u (%s-like)", arch, arch >= 90 ? "NVIDIA H100" : "NVIDIA A100");
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    DrvState *s;
    CUresult r = enter_device(&s, dev);
    if (r != CUDA_SUCCESS)
        return r;
    drv_unlock();
    if (!uuid)
        return CUDA_ERROR_INVALID_VALUE;
    static const char id[16] = "ptxrun device 0";     /* the same in every process */
    memcpy(uuid->bytes, id, sizeof id);
    return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    DrvState *s;
    CUresult r = enter_device(&s, dev);
    if (r != CUDA_SUCCESS)
        return r;
    drv_unlock();
    if (!bytes)
        return CUDA_ERROR_INVALID_VALUE;
    *bytes = (size_t)TOTAL_MEMORY_GIB << 30;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute, CUdevice dev)
{
    DrvState *s;
    CUresult r = enter_device(&s, dev);
    if (r != CUDA_SUCCESS)
        return r;
    unsigned arch = s->settings.arch;
    drv_unlock();
    if (!value)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof attributes / sizeof attributes[0]; i++) {
        if (attributes[i].attribute != attribute)
            continue;
        *value = arch >= 90 ? attributes[i].h100 : attributes[i].a100;
        if (attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
            *value = (int)(arch / 10);
        else if (attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
            *value = (int)(arch % 10);
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    CUresult r = cuDeviceGetAttribute(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    return r != CUDA_SUCCESS ? r : cuDeviceGetAttribute(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
}

/* The device's place on the PCI bus, as domain:bus:device.function: all 0. */
CUresult cuDeviceGetPCIBusId(char *id, int len, CUdevice dev)
{
    DrvState *s;
    CUresult r = enter_device(&s, dev);
    if (r != CUDA_SUCCESS)
        return r;
    drv_unlock();
    if (!id || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    snprintf(id, (size_t)len, "0000:00:00.0");
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *id)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    drv_unlock();
    /* "0000:00:00.0", or without the domain ("00:00.0") */
    if (!dev || !id || (strcmp(id, "0000:00:00.0") && strcmp(id, "00:00.0")))
        return CUDA_ERROR_INVALID_VALUE;
    *dev = 0;
    return CUDA_SUCCESS;
}

/* cuMemGetInfo's: the memory not handed out of the device's 80 GiB, or what the host has free
 * if that is less; the total. */
CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    size_t used = 0;
    for (size_t i = 0; i < s->mem_count; i++)
        if (s->mems[i].kind == DRV_MEM_DEVICE || s->mems[i].kind == DRV_MEM_MANAGED)
            used += s->mems[i].size;
    drv_unlock();
    if (!free_bytes || !total)
        return CUDA_ERROR_INVALID_VALUE;
    size_t all = (size_t)TOTAL_MEMORY_GIB << 30;
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t host = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : all;
    *total = all;
    *free_bytes = used >= all ? 0 : all - used < host ? all - used : host;
    return CUDA_SUCCESS;
}
