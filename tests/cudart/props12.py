#!/usr/bin/env python3
"""props12.py: cudaDeviceProp as CUDA 12's driver_types.h lays it out, computed here with the
x86-64 C rules (each field at the next multiple of its alignment; the struct padded to its largest)
from the header's declarations, transcribed below: CUDA 12.0's struct (public repositories vendor
it: the code search finds copies ending "reserved2[2]; reserved1[1]; reserved[60]"; the fields
before hostRegisterSupported as in CUDA 11's copy, ggerganov/llama.cpp include/cuda/driver_types.h),
with the names 12.4 and later give the first seven of those 63 reserved ints (deviceNumaConfig ...
hostNumaMultinodeIpcSupported, then reserved[56]: the same bytes). CUDA 12's headers are not on this
machine, so this stands in for props_layout.cu there. Writes props12.txt: name offset size.
"""
import os

SIZES = {"char": 1, "int": 4, "unsigned": 4, "size_t": 8, "uuid": 1}
FIELDS = """
char name 256; uuid uuid 16; char luid 8; unsigned luidDeviceNodeMask; size_t totalGlobalMem;
size_t sharedMemPerBlock; int regsPerBlock; int warpSize; size_t memPitch; int maxThreadsPerBlock;
int maxThreadsDim 3; int maxGridSize 3; int clockRate; size_t totalConstMem; int major; int minor;
size_t textureAlignment; size_t texturePitchAlignment; int deviceOverlap; int multiProcessorCount;
int kernelExecTimeoutEnabled; int integrated; int canMapHostMemory; int computeMode; int maxTexture1D;
int maxTexture1DMipmap; int maxTexture1DLinear; int maxTexture2D 2; int maxTexture2DMipmap 2;
int maxTexture2DLinear 3; int maxTexture2DGather 2; int maxTexture3D 3; int maxTexture3DAlt 3;
int maxTextureCubemap; int maxTexture1DLayered 2; int maxTexture2DLayered 3; int maxTextureCubemapLayered 2;
int maxSurface1D; int maxSurface2D 2; int maxSurface3D 3; int maxSurface1DLayered 2; int maxSurface2DLayered 3;
int maxSurfaceCubemap; int maxSurfaceCubemapLayered 2; size_t surfaceAlignment; int concurrentKernels;
int ECCEnabled; int pciBusID; int pciDeviceID; int pciDomainID; int tccDriver; int asyncEngineCount;
int unifiedAddressing; int memoryClockRate; int memoryBusWidth; int l2CacheSize; int persistingL2CacheMaxSize;
int maxThreadsPerMultiProcessor; int streamPrioritiesSupported; int globalL1CacheSupported;
int localL1CacheSupported; size_t sharedMemPerMultiprocessor; int regsPerMultiprocessor; int managedMemory;
int isMultiGpuBoard; int multiGpuBoardGroupID; int hostNativeAtomicSupported; int singleToDoublePrecisionPerfRatio;
int pageableMemoryAccess; int concurrentManagedAccess; int computePreemptionSupported;
int canUseHostPointerForRegisteredMem; int cooperativeLaunch; int cooperativeMultiDeviceLaunch;
size_t sharedMemPerBlockOptin; int pageableMemoryAccessUsesHostPageTables; int directManagedMemAccessFromHost;
int maxBlocksPerMultiProcessor; int accessPolicyMaxWindowSize; size_t reservedSharedMemPerBlock;
int hostRegisterSupported; int sparseCudaArraySupported; int hostRegisterReadOnlySupported;
int timelineSemaphoreInteropSupported; int memoryPoolsSupported; int gpuDirectRDMASupported;
unsigned gpuDirectRDMAFlushWritesOptions; int gpuDirectRDMAWritesOrdering; unsigned memoryPoolSupportedHandleTypes;
int deferredMappingCudaArraySupported; int ipcEventSupported; int clusterLaunch; int unifiedFunctionPointers;
int deviceNumaConfig; int deviceNumaId; int mpsEnabled; int hostNumaId; unsigned gpuPciDeviceID;
unsigned gpuPciSubsystemID; int hostNumaMultinodeIpcSupported; int reserved 56
"""

def layout():
    at, largest, out = 0, 1, []
    for decl in FIELDS.replace("\n", " ").split(";"):
        words = decl.split()
        if not words:
            continue
        kind, name = words[0], words[1]
        count = int(words[2]) if len(words) > 2 else 1
        align = SIZES[kind]
        largest = max(largest, align)
        at = (at + align - 1) // align * align
        out.append((name, at, align * count))
        at += align * count
    return out, (at + largest - 1) // largest * largest

if __name__ == "__main__":
    fields, size = layout()
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "props12.txt"), "w") as f:
        for name, at, n in fields:
            f.write("%s %d %d\n" % (name, at, n))
        f.write("sizeof %d\n" % size)
