/* drverror.c: cuGetErrorName and cuGetErrorString: each CUresult CUDA 13.0 defines, its name and
 * a sentence of ours. Requires: cudrv.h. */
#include <stddef.h>

#include "cudrv.h"

typedef struct ErrorText {
    CUresult code;
    const char *name, *text;
} ErrorText;

static const ErrorText errors[] = {
    { CUDA_SUCCESS, "CUDA_SUCCESS", "no error" },
    { CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE",
      "an argument is not valid (a NULL pointer, a size, an unknown pointer or flag)" },
    { CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "the host could not give the memory asked for" },
    { CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "cuInit has not been called (or it failed)" },
    { CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED", "the driver is shutting down" },
    { CUDA_ERROR_PROFILER_DISABLED, "CUDA_ERROR_PROFILER_DISABLED", "error: profiler disabled" },
    { CUDA_ERROR_PROFILER_NOT_INITIALIZED, "CUDA_ERROR_PROFILER_NOT_INITIALIZED", "error: profiler not initialized" },
    { CUDA_ERROR_PROFILER_ALREADY_STARTED, "CUDA_ERROR_PROFILER_ALREADY_STARTED", "error: profiler already started" },
    { CUDA_ERROR_PROFILER_ALREADY_STOPPED, "CUDA_ERROR_PROFILER_ALREADY_STOPPED", "error: profiler already stopped" },
    { CUDA_ERROR_STUB_LIBRARY, "CUDA_ERROR_STUB_LIBRARY", "error: stub library" },
    { CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER",
      "error: call requires newer driver" },
    { CUDA_ERROR_DEVICE_UNAVAILABLE, "CUDA_ERROR_DEVICE_UNAVAILABLE", "error: device unavailable" },
    { CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA device" },
    { CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "no device of that number" },
    { CUDA_ERROR_DEVICE_NOT_LICENSED, "CUDA_ERROR_DEVICE_NOT_LICENSED", "error: device not licensed" },
    { CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE",
      "the module image is not PTX text or a fatbinary ptxrun can read" },
    { CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "no current context, or the context is not valid" },
    { CUDA_ERROR_CONTEXT_ALREADY_CURRENT, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT", "error: context already current" },
    { CUDA_ERROR_MAP_FAILED, "CUDA_ERROR_MAP_FAILED", "error: map failed" },
    { CUDA_ERROR_UNMAP_FAILED, "CUDA_ERROR_UNMAP_FAILED", "error: unmap failed" },
    { CUDA_ERROR_ARRAY_IS_MAPPED, "CUDA_ERROR_ARRAY_IS_MAPPED", "error: array is mapped" },
    { CUDA_ERROR_ALREADY_MAPPED, "CUDA_ERROR_ALREADY_MAPPED", "error: already mapped" },
    { CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU",
      "the fatbinary has no PTX for this device (ptxrun runs PTX only)" },
    { CUDA_ERROR_ALREADY_ACQUIRED, "CUDA_ERROR_ALREADY_ACQUIRED", "error: already acquired" },
    { CUDA_ERROR_NOT_MAPPED, "CUDA_ERROR_NOT_MAPPED", "error: not mapped" },
    { CUDA_ERROR_NOT_MAPPED_AS_ARRAY, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY", "error: not mapped as array" },
    { CUDA_ERROR_NOT_MAPPED_AS_POINTER, "CUDA_ERROR_NOT_MAPPED_AS_POINTER", "error: not mapped as pointer" },
    { CUDA_ERROR_ECC_UNCORRECTABLE, "CUDA_ERROR_ECC_UNCORRECTABLE", "error: ecc uncorrectable" },
    { CUDA_ERROR_UNSUPPORTED_LIMIT, "CUDA_ERROR_UNSUPPORTED_LIMIT", "error: unsupported limit" },
    { CUDA_ERROR_CONTEXT_ALREADY_IN_USE, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", "error: context already in use" },
    { CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "error: peer access unsupported" },
    { CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX",
      "the PTX does not check (its messages are on the report stream)" },
    { CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", "error: invalid graphics context" },
    { CUDA_ERROR_NVLINK_UNCORRECTABLE, "CUDA_ERROR_NVLINK_UNCORRECTABLE", "error: nvlink uncorrectable" },
    { CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "error: jit compiler not found" },
    { CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "error: unsupported ptx version" },
    { CUDA_ERROR_JIT_COMPILATION_DISABLED, "CUDA_ERROR_JIT_COMPILATION_DISABLED", "error: jit compilation disabled" },
    { CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY",
      "error: unsupported exec affinity" },
    { CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC", "error: unsupported devside sync" },
    { CUDA_ERROR_CONTAINED, "CUDA_ERROR_CONTAINED", "error: contained" },
    { CUDA_ERROR_INVALID_SOURCE, "CUDA_ERROR_INVALID_SOURCE", "the source is not valid" },
    { CUDA_ERROR_FILE_NOT_FOUND, "CUDA_ERROR_FILE_NOT_FOUND", "the file cannot be read" },
    { CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND",
      "error: shared object symbol not found" },
    { CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED",
      "error: shared object init failed" },
    { CUDA_ERROR_OPERATING_SYSTEM, "CUDA_ERROR_OPERATING_SYSTEM", "error: operating system" },
    { CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE",
      "a handle is not valid (unknown, destroyed, or of another kind)" },
    { CUDA_ERROR_ILLEGAL_STATE, "CUDA_ERROR_ILLEGAL_STATE", "error: illegal state" },
    { CUDA_ERROR_LOSSY_QUERY, "CUDA_ERROR_LOSSY_QUERY", "error: lossy query" },
    { CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "no symbol of that name" },
    { CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "the work is not done yet" },
    { CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "a kernel accessed memory outside every allocation" },
    { CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
      "the launch asks for more resources than a block may have" },
    { CUDA_ERROR_LAUNCH_TIMEOUT, "CUDA_ERROR_LAUNCH_TIMEOUT",
      "a kernel did not end (a deadlock, or past its step limit)" },
    { CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING",
      "error: launch incompatible texturing" },
    { CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED",
      "error: peer access already enabled" },
    { CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "error: peer access not enabled" },
    { CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE",
      "the primary context is active already" },
    { CUDA_ERROR_CONTEXT_IS_DESTROYED, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "the context has been destroyed" },
    { CUDA_ERROR_ASSERT, "CUDA_ERROR_ASSERT", "a kernel assertion failed" },
    { CUDA_ERROR_TOO_MANY_PEERS, "CUDA_ERROR_TOO_MANY_PEERS", "error: too many peers" },
    { CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
      "that host memory is registered already" },
    { CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
      "that host memory is not registered" },
    { CUDA_ERROR_HARDWARE_STACK_ERROR, "CUDA_ERROR_HARDWARE_STACK_ERROR", "error: hardware stack error" },
    { CUDA_ERROR_ILLEGAL_INSTRUCTION, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "error: illegal instruction" },
    { CUDA_ERROR_MISALIGNED_ADDRESS, "CUDA_ERROR_MISALIGNED_ADDRESS",
      "a kernel accessed memory at a misaligned address" },
    { CUDA_ERROR_INVALID_ADDRESS_SPACE, "CUDA_ERROR_INVALID_ADDRESS_SPACE", "error: invalid address space" },
    { CUDA_ERROR_INVALID_PC, "CUDA_ERROR_INVALID_PC", "error: invalid pc" },
    { CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED",
      "a kernel stopped with a fault (a trap, or an undefined value under PTXRUN_STRICT)" },
    { CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
      "error: cooperative launch too large" },
    { CUDA_ERROR_TENSOR_MEMORY_LEAK, "CUDA_ERROR_TENSOR_MEMORY_LEAK", "error: tensor memory leak" },
    { CUDA_ERROR_NOT_PERMITTED, "CUDA_ERROR_NOT_PERMITTED", "the operation is not permitted" },
    { CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED",
      "not supported by ptxrun yet (the report stream names it)" },
    { CUDA_ERROR_SYSTEM_NOT_READY, "CUDA_ERROR_SYSTEM_NOT_READY", "error: system not ready" },
    { CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "error: system driver mismatch" },
    { CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
      "error: compat not supported on device" },
    { CUDA_ERROR_MPS_CONNECTION_FAILED, "CUDA_ERROR_MPS_CONNECTION_FAILED", "error: mps connection failed" },
    { CUDA_ERROR_MPS_RPC_FAILURE, "CUDA_ERROR_MPS_RPC_FAILURE", "error: mps rpc failure" },
    { CUDA_ERROR_MPS_SERVER_NOT_READY, "CUDA_ERROR_MPS_SERVER_NOT_READY", "error: mps server not ready" },
    { CUDA_ERROR_MPS_MAX_CLIENTS_REACHED, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED", "error: mps max clients reached" },
    { CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED",
      "error: mps max connections reached" },
    { CUDA_ERROR_MPS_CLIENT_TERMINATED, "CUDA_ERROR_MPS_CLIENT_TERMINATED", "error: mps client terminated" },
    { CUDA_ERROR_CDP_NOT_SUPPORTED, "CUDA_ERROR_CDP_NOT_SUPPORTED", "error: cdp not supported" },
    { CUDA_ERROR_CDP_VERSION_MISMATCH, "CUDA_ERROR_CDP_VERSION_MISMATCH", "error: cdp version mismatch" },
    { CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
      "error: stream capture unsupported" },
    { CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED",
      "error: stream capture invalidated" },
    { CUDA_ERROR_STREAM_CAPTURE_MERGE, "CUDA_ERROR_STREAM_CAPTURE_MERGE", "error: stream capture merge" },
    { CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", "error: stream capture unmatched" },
    { CUDA_ERROR_STREAM_CAPTURE_UNJOINED, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED", "error: stream capture unjoined" },
    { CUDA_ERROR_STREAM_CAPTURE_ISOLATION, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION", "error: stream capture isolation" },
    { CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT", "error: stream capture implicit" },
    { CUDA_ERROR_CAPTURED_EVENT, "CUDA_ERROR_CAPTURED_EVENT", "error: captured event" },
    { CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD",
      "error: stream capture wrong thread" },
    { CUDA_ERROR_TIMEOUT, "CUDA_ERROR_TIMEOUT", "error: timeout" },
    { CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE",
      "error: graph exec update failure" },
    { CUDA_ERROR_EXTERNAL_DEVICE, "CUDA_ERROR_EXTERNAL_DEVICE", "error: external device" },
    { CUDA_ERROR_INVALID_CLUSTER_SIZE, "CUDA_ERROR_INVALID_CLUSTER_SIZE", "error: invalid cluster size" },
    { CUDA_ERROR_FUNCTION_NOT_LOADED, "CUDA_ERROR_FUNCTION_NOT_LOADED", "error: function not loaded" },
    { CUDA_ERROR_INVALID_RESOURCE_TYPE, "CUDA_ERROR_INVALID_RESOURCE_TYPE", "error: invalid resource type" },
    { CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION",
      "error: invalid resource configuration" },
    { CUDA_ERROR_KEY_ROTATION, "CUDA_ERROR_KEY_ROTATION", "error: key rotation" },
    { CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "an unknown error" },
};

static const ErrorText *find(CUresult code)
{
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == code)
            return &errors[i];
    return NULL;
}

CUresult cuGetErrorName(CUresult error, const char **name)
{
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    const ErrorText *e = find(error);
    *name = e ? e->name : NULL;
    return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **text)
{
    if (!text)
        return CUDA_ERROR_INVALID_VALUE;
    const ErrorText *e = find(error);
    *text = e ? e->text : NULL;
    return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
