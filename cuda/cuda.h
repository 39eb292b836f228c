/* cuda.h: the CUDA room's own declarations: what the CUDA runtime and driver shims (built on
 * libptxrun, api/) need to read a program's device code. For now the fatbinary reader, fatbin.c.
 * Nothing here prints or keeps global state. Requires: api.h. */
#ifndef PTXRUN_CUDA_H
#define PTXRUN_CUDA_H

#include "api.h"

/* fatbin.c: NVIDIA fatbinaries (docs/cuda.md, "Fatbinaries": the layout as nvcc 13 writes it).
 * Every length is checked against the bytes given: a malformed, truncated or corrupted fatbinary
 * is an error message, never a read past its end. */
enum {
    FATBIN_PTX = 1,            /* an entry's kind: PTX text for a virtual architecture */
    FATBIN_ELF = 2,            /* an ELF cubin (SASS) for a real one */
};
typedef enum FatbinCompression {
    FATBIN_STORED,             /* not compressed */
    FATBIN_LZ4,                /* an LZ4 block (flag 0x2000: nvcc -compress-mode=speed, CUDA 12's default) */
    FATBIN_ZSTD,               /* a zstd frame (flag 0x8000: nvcc 13's default) */
} FatbinCompression;
typedef struct FatbinEntry {
    int kind;                  /* FATBIN_PTX or FATBIN_ELF */
    unsigned arch;             /* 80 for compute_80 (PTX) or sm_80 (ELF) */
    char variant;              /* 'a' (sm_90a: that architecture only), 'f' (a family), or 0 */
    unsigned major, minor;     /* a PTX entry's ISA version (9.0); a cubin's ELF format (1.8) */
    FatbinCompression compression;   /* how it was stored; data is always the plain bytes */
    const uint8_t *data;       /* the entry's bytes: in the fatbinary, or owned when decompressed */
    size_t size;               /* PTX: the text's length, its NUL padding left out */
    uint8_t *owned;            /* the decompressed bytes (malloc), freed by fatbin_free; or NULL */
    const uint8_t *options;    /* the header's options bytes (PTX: JIT options such as "--compile-only") */
    size_t options_size;
    size_t offset;             /* where its header starts in the bytes read, for messages */
} FatbinEntry;
typedef struct FatbinEntries {
    FatbinEntry *v;
    size_t count;
} FatbinEntries;

/* One or more fatbinaries laid end to end (a whole .nv_fatbin section; zero bytes up to the next
 * 8-byte boundary between them), avail bytes at blob: every entry of each, in order. On success
 * *out holds them (data may point into blob, which must outlive them); on failure *out is empty
 * and err says what and at which offset. */
bool fatbin_read(const void *blob, size_t avail, FatbinEntries *out, Msg *err);
/* What __cudaRegisterFatBinary is given: the wrapper (magic 0x466243b1, version 1 or 2, a pointer
 * to one fatbinary). Its size is the fatbinary's own header's: the memory must be the process's. */
bool fatbin_from_wrapper(const void *wrapper, FatbinEntries *out, Msg *err);
/* The fatbinaries in an ELF64 file's section (".nv_fatbin", or "__nv_relfatbin" for -rdc). */
bool fatbin_from_elf(const uint8_t *file, size_t size, const char *section, FatbinEntries *out, Msg *err);
/* The PTX the CUDA driver would compile for arch: of the highest virtual architecture not above
 * it; an 'a' or 'f' entry only for its own architecture, and then before a plain one of it. NULL
 * when there is none. */
const FatbinEntry *fatbin_best_ptx(const FatbinEntries *e, unsigned arch);
void fatbin_free(FatbinEntries *e);

/* The driver API shim, libcuda.so.1 (cuda/drv*.c; docs/cuda.md, "Driver API"): the process's
 * state of both shims, in one struct behind one mutex (drvstate.c); the calls are in files by
 * subject, each using drvstate.c below it: drvdevice.c, drvmem.c, drvmodule.c, drvlaunch.c,
 * drvstream.c, drvctx.c (which frees what a context held, so it comes last). */
#include <stdio.h>
#include <time.h>
#include "cudrv.h"

/* drvsettings.c: the environment, read once at cuInit. */
typedef struct DrvSettings {
    unsigned arch;             /* PTXRUN_ARCH: 90 (sm_90, the default) or another sm_XX */
    bool strict;               /* PTXRUN_STRICT=1: an undefined value used is a fault */
    unsigned jobs;             /* PTXRUN_JOBS: threads a launch may run CTAs on (0: one) */
    FILE *report;              /* PTXRUN_REPORT: stderr (default), a file (appended), NULL: none */
    FILE *trace;               /* PTXRUN_TRACE=FILE: every launch's trace appended; NULL: none */
} DrvSettings;
/* Reads the settings; false, with a message on stderr naming the variable, on a bad value. */
bool drvsettings_read(DrvSettings *s);
void drvsettings_close(DrvSettings *s);

/* What a piece of memory the driver hands out is. */
typedef enum DrvMemKind {
    DRV_MEM_DEVICE,            /* cuMemAlloc, cuMemAllocPitch */
    DRV_MEM_HOST,              /* cuMemAllocHost, cuMemHostAlloc */
    DRV_MEM_MANAGED,           /* cuMemAllocManaged */
    DRV_MEM_REGISTERED,        /* cuMemHostRegister: the caller's, not freed by the driver */
    DRV_MEM_SYMBOL,            /* a module's .global or .const variable (its placer's) */
} DrvMemKind;
typedef struct DrvMem {
    uint8_t *base;
    size_t size;
    DrvMemKind kind;
    CUcontext ctx;             /* the context it was made in */
    unsigned flags;            /* cuMemHostAlloc's or cuMemHostRegister's */
    CUmodule module;           /* a symbol's module */
    const void *decl;          /* a symbol's declaration (LibraryVar.decl) */
    char *name;                /* a symbol's name */
    int space;                 /* a symbol's space (SPACE_GLOBAL, SPACE_CONST) */
    bool managed;              /* a symbol declared .attribute(.managed) (CUDA's __managed__) */
    unsigned long long id;     /* CU_POINTER_ATTRIBUTE_BUFFER_ID: never the same twice in a process */
    uint8_t *shadow;           /* device memory: each byte's defined bits (0: none, 0xff: all), as the
                                  host's copies and the launches left them; NULL: every byte defined */
} DrvMem;

typedef struct DrvState DrvState;
struct CUctx_st {
    CUdevice device;
    unsigned flags;
    CUresult sticky;           /* a kernel's fault: every later call that can returns it */
    bool primary;              /* the device's primary context (cuDevicePrimaryCtxRetain) */
    unsigned retains;          /* a primary context's retains */
    size_t limits[3];          /* cuCtxSetLimit's stack (bytes a thread; 0: the default), printf FIFO
                                  and malloc heap sizes (0: their defaults) */
};
struct CUstream_st {
    CUcontext ctx;
    unsigned flags;
    int priority;
};
struct CUevent_st {
    CUcontext ctx;
    unsigned flags;
    bool recorded;
    struct timespec at;        /* when it was recorded (the work before it is done by then) */
};
/* A kernel of a module: lowered at the module's load, its messages held for its launch. */
struct CUfunc_st {
    CUmodule module;
    ptxrun_kernel *kernel;     /* NULL: refused (status) */
    ptxrun_status status;
    const char *name;          /* the PTX name (the module's) */
    Msg held;                  /* the lowering's messages, said at its first launch (NULL text: none) */
    bool told;                 /* held said */
    int max_dynamic_shared;    /* cuFuncSetAttribute's MAX_DYNAMIC_SHARED_SIZE_BYTES */
    int carveout;              /* ... PREFERRED_SHARED_MEMORY_CARVEOUT (-1: none said) */
};
struct CUmod_st {
    CUcontext ctx;
    ptxrun_module *mod;
    struct CUfunc_st *funcs;
    unsigned func_count;
    unsigned lowering;         /* the kernel whose lowering's messages are being held */
    DrvState *loading;         /* while it loads (the lock held): the state, for its placer */
    Msg errors;                /* the load's error messages (CU_JIT_ERROR_LOG_BUFFER) */
};

typedef enum DrvHandleKind { DRV_CONTEXT, DRV_MODULE, DRV_STREAM, DRV_EVENT, DRV_LINK } DrvHandleKind;
typedef struct DrvHandle {
    DrvHandleKind kind;
    void *p;
} DrvHandle;

struct DrvState {
    bool initialized;
    CUresult init_result;      /* cuInit's, once tried */
    DrvSettings settings;
    DrvMem *mems;              /* every live allocation, in no order */
    size_t mem_count, mem_cap;
    DrvHandle *handles;        /* every live handle (contexts, modules, streams, events, links) */
    size_t handle_count, handle_cap;
    struct CUctx_st *primary;  /* device 0's primary context, once made (NULL: none) */
    unsigned long long next_id;    /* the next allocation's DrvMem.id */
};

/* drvstate.c. drv_lock gives the state, locked (one mutex for the process); drv_unlock. */
DrvState *drv_lock(void);
void drv_unlock(void);
/* The start of a call that needs cuInit and a current context: the state locked and *ctx the
 * context (NULL ctx: not wanted), or an error with the lock not held (NOT_INITIALIZED,
 * INVALID_CONTEXT, the context's sticky error). */
CUresult drv_enter(DrvState **s, CUcontext *ctx);
CUresult drv_enter_init(DrvState **s);        /* ... needing cuInit only */
CUresult drv_init(unsigned flags);             /* cuInit */
/* The calling thread's current context (its stack's top; NULL: none), set, pushed, popped. */
CUcontext drv_current(void);
void drv_set_current(CUcontext ctx);
bool drv_push_current(CUcontext ctx);
CUcontext drv_pop_current(void);
void drv_forget_current(CUcontext ctx);        /* a destroyed context off this thread's stack */
void drv_handle_add(DrvState *s, DrvHandleKind kind, void *p);
bool drv_handle_has(const DrvState *s, DrvHandleKind kind, const void *p);
void drv_handle_remove(DrvState *s, const void *p);
/* Whether stream names a stream: 0, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD or a live one. */
bool drv_stream_ok(const DrvState *s, CUstream stream);
DrvMem *drv_mem_add(DrvState *s, const DrvMem *m);
DrvMem *drv_mem_find(DrvState *s, uint64_t address);          /* the allocation holding address */
DrvMem *drv_mem_at(DrvState *s, uint64_t address, DrvMemKind kind);   /* the one starting there */
void drv_mem_remove(DrvState *s, DrvMem *m);  /* its bytes freed when the driver's */
/* The host wrote size bytes at dst (a copy from src, or 0 for values of its own): device memory
 * there takes src's definedness where src is device memory, else becomes defined. */
void drv_mem_written(DrvState *s, uint64_t dst, size_t size, uint64_t src);
/* A shadow every byte of which is defined is dropped (NULL: all defined). */
void drv_mem_settle(DrvMem *m);
/* Whether [address, address + size) lies in one allocation (size 0: address in one or 0). */
bool drv_mem_covers(DrvState *s, uint64_t address, size_t size);
/* A message on the report stream (PTXRUN_REPORT), a line ended by a newline. */
void drv_report(DrvState *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "ptxrun's libcuda: NAME is not supported yet", CUDA_ERROR_NOT_SUPPORTED. */
CUresult drv_not_supported(const char *name);
enum { DRV_ALIGN = 256 };                      /* cuMemAlloc's alignment */

/* drvdevice.c: the one device, an H100 (sm_90) or, PTXRUN_ARCH=sm_80, an A100. */
typedef struct DrvLimits {
    unsigned arch, sms, threads_per_sm, blocks_per_sm, regs_per_sm, shared_per_sm, shared_per_block,
        shared_optin, reserved_shared;
} DrvLimits;
void drv_limits(unsigned arch, DrvLimits *out);

/* drvmodule.c: a module freed, its variables' memory too (the lock held). */
void drvmodule_free(DrvState *s, CUmodule m);

#endif
