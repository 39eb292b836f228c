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

#endif
