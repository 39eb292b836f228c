/* ptxrun.h: libptxrun, the PTX executor as a library (docs/library.md).
 *
 * Load a module from PTX text once (parsed, checked, each kernel lowered on first use), choose a
 * kernel, launch it over memory the caller owns: a .global address is the caller's own host
 * address, and each buffer the kernel may touch is given with its size (an access outside them
 * all is a fault, reported, never a crash). Results are status codes; every message, the
 * kernel's printf text and the trace go to callbacks the caller passes (none: they go nowhere).
 * The library keeps no global state (but ptx_run's cache, below), never exits, never prints:
 * any number of threads may load and launch at once, the same module and kernel included.
 *
 * This header is the whole public interface: the library exports nothing else. */
#ifndef PTXRUN_H
#define PTXRUN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTXRUN_API_VERSION 1

#if defined(__GNUC__)
#define PTXRUN_API __attribute__((visibility("default")))
#else
#define PTXRUN_API
#endif

/* What a call gives back. 2 and 3 are the command line's exit codes for the same outcomes. */
typedef enum ptxrun_status {
    PTXRUN_OK = 0,
    PTXRUN_ERROR_ARGUMENT = 1,    /* a wrong argument to the call itself (NULL, a count, a size) */
    PTXRUN_ERROR_INPUT = 2,       /* refused: PTX that does not check, or a launch the kernel cannot take */
    PTXRUN_ERROR_FAULT = 3,       /* the run stopped at an execution fault (or, strict, an undefined value) */
    PTXRUN_ERROR_UNSUPPORTED = 4, /* the kernel uses what ptxrun cannot execute yet */
    PTXRUN_ERROR_NOT_FOUND = 5    /* no kernel of that name */
} ptxrun_status;

/* "ok", "fault", ...: a word for each status. */
PTXRUN_API const char *ptxrun_status_name(ptxrun_status status);

enum { PTXRUN_ERROR = 0, PTXRUN_WARNING = 1, PTXRUN_NOTE = 2 };   /* ptxrun_diagnostic.level */
enum { PTXRUN_PRINT_OUT = 1, PTXRUN_PRINT_ERR = 2 };              /* ptxrun_callbacks.print's stream */

/* One message: an error, a warning, or a note explaining the message before it. The strings
 * live until the callback returns. */
typedef struct ptxrun_diagnostic {
    int level;                 /* PTXRUN_ERROR, PTXRUN_WARNING, PTXRUN_NOTE */
    const char *message;       /* the message alone */
    const char *text;          /* as the command line shows it: "name:line:col: error: message",
                                  the PTX line and a caret, and the CUDA line's note if any */
    const char *file;          /* the module's name (ptxrun_module_options.name) */
    unsigned line, column;     /* in the PTX, from 1; 0: the message has no place */
    const char *cuda_file;     /* the CUDA source of the instruction (.file/.loc, nvcc -lineinfo);
                                  NULL: none */
    unsigned cuda_line, cuda_column;
} ptxrun_diagnostic;

/* Where output goes; any of them NULL: that output goes nowhere. */
typedef struct ptxrun_callbacks {
    void (*diagnostic)(void *context, const ptxrun_diagnostic *d);
    /* What the kernel prints: printf's text (PTXRUN_PRINT_OUT) and an assertion's message
     * (PTXRUN_PRINT_ERR), one call's text at a time, in the order the threads made the calls. */
    void (*print)(void *context, int stream, const char *text, size_t len);
    /* The trace of the run (the command line's --trace), a piece of text at a time; set, it is
     * made (which slows the run). */
    void (*trace)(void *context, const char *text, size_t len);
    void *context;
} ptxrun_callbacks;

typedef struct ptxrun_module ptxrun_module;   /* a loaded module: ptxrun_module_free */
typedef struct ptxrun_kernel ptxrun_kernel;   /* a kernel of a module, the module's */
typedef struct ptxrun_result ptxrun_result;   /* what a launch left: ptxrun_result_free */

typedef struct ptxrun_module_options {
    const char *name;          /* the name messages give the PTX; NULL: "<ptx>" */
    int no_fmad;               /* nonzero: no mul and add fused into an fma as ptxas fuses them */
    unsigned stack_bytes;      /* each thread's stack for calls; 0: the command line's default */
    ptxrun_callbacks callbacks;    /* the load's messages (and the lowering's, ptxrun_module_kernel) */
} ptxrun_module_options;

/* Parses and checks len bytes of PTX text (the text is copied). On PTXRUN_OK *out is the module;
 * otherwise *out is NULL and the messages went to the callbacks. options may be NULL. */
PTXRUN_API ptxrun_status ptxrun_module_load(const char *ptx, size_t len, const ptxrun_module_options *options,
                                            ptxrun_module **out);
/* Frees the module and its kernels. No launch of it may be running; results may outlive it. */
PTXRUN_API void ptxrun_module_free(ptxrun_module *module);

/* The module's kernels (.entry), in order: their PTX names. */
PTXRUN_API unsigned ptxrun_module_kernel_count(const ptxrun_module *module);
PTXRUN_API const char *ptxrun_module_kernel_name(const ptxrun_module *module, unsigned index);

/* The kernel named `name`: its PTX name, its C++ name (an nvcc kernel's mangled name demangled,
 * with or without its parameter list), or NULL for the module's first .entry. It is lowered the
 * first time it is asked for; what it uses that ptxrun cannot execute is refused then
 * (PTXRUN_ERROR_UNSUPPORTED, the messages to the module's callbacks). The kernel belongs to the
 * module. */
PTXRUN_API ptxrun_status ptxrun_module_kernel(ptxrun_module *module, const char *name, ptxrun_kernel **out);

PTXRUN_API const char *ptxrun_kernel_name(const ptxrun_kernel *kernel);      /* the PTX name */
/* The C++ name (demangled, with its parameters) of an nvcc kernel, or NULL when it has none. */
PTXRUN_API const char *ptxrun_kernel_cxx_name(const ptxrun_kernel *kernel);

/* One kernel parameter. */
typedef struct ptxrun_param {
    const char *name;
    const char *type;          /* its PTX type without the dot ("u32", "f16", "b8"...); "b8" for
                                  an array or a struct of bytes */
    unsigned size;             /* bytes in the parameter buffer */
    unsigned align;
    unsigned elements;         /* 1, or the elements of an array parameter (.b8 p[16]: 16) */
    int pointer;               /* declared .ptr (a pointer into memory), or a .u64/.s64/.b64 */
} ptxrun_param;
PTXRUN_API unsigned ptxrun_kernel_param_count(const ptxrun_kernel *kernel);
PTXRUN_API ptxrun_status ptxrun_kernel_param(const ptxrun_kernel *kernel, unsigned index, ptxrun_param *out);

/* Caller memory a launch may touch: size bytes at data, whose address is the .global address the
 * kernel uses. Every byte starts defined. Buffers that share bytes act as one. */
typedef struct ptxrun_buffer {
    void *data;
    size_t size;
    int read_only;             /* nonzero: a store to it is a fault */
} ptxrun_buffer;

typedef struct ptxrun_launch_options {
    unsigned grid[3];          /* CTAs in x, y, z; a 0 counts as 1 */
    unsigned block[3];         /* threads of each CTA in x, y, z; a 0 counts as 1 */
    unsigned shared_bytes;     /* the dynamic .shared block of each CTA */
    const ptxrun_buffer *buffers;
    size_t buffer_count;
    /* Nonzero: an address outside every buffer is looked up in this process's own mappings and
     * used where the process may read (or write) it (ptx_run's way, which has no buffer sizes);
     * the CTAs then run on one thread. */
    int process_memory;
    uint64_t max_steps;        /* the warp-steps each warp of each CTA may run; 0: the default */
    int strict;                /* nonzero: an undefined value used is a fault, not a warning */
    unsigned jobs;             /* run CTAs on this many threads where that gives the same; 0, 1: one */
    ptxrun_callbacks callbacks;    /* the launch's messages, printf text and trace */
    /* CTAs that run together (docs/semantics.md, "CTAs that run together"): the cluster's shape
     * in CTAs (all 0: none, a plain launch; a 0 counts as 1), and nonzero cooperative for a
     * cooperative launch (cudaLaunchCooperativeKernel: grid.sync(); refused, PTXRUN_ERROR_INPUT,
     * when an H100 could not keep every CTA resident at once). */
    unsigned cluster[3];
    int cooperative;
} ptxrun_launch_options;

/* Runs the kernel once. args[i] points at the bytes of parameter i (ptxrun_kernel_param's size),
 * as cuLaunchKernel's kernelParams do; a pointer parameter holds the caller's address of a buffer.
 * The caller's buffers are written in place. The module's own .global variables keep what a launch
 * wrote for the module's next launches, of any of its kernels, as CUDA's do (launches at once each
 * start from the values when they began; the last to end leaves its values). result, when not
 * NULL, gets what the run left (also after a fault): ptxrun_result_free. PTXRUN_ERROR_ARGUMENT: no
 * value for a parameter, a buffer of bytes at NULL. PTXRUN_ERROR_INPUT: the launch was refused
 * before the run (a shape the kernel's bounds refuse, a buffer over the module's variables, ...). */
PTXRUN_API ptxrun_status ptxrun_launch(ptxrun_kernel *kernel, void *const *args, const ptxrun_launch_options *options,
                                       ptxrun_result **result);

PTXRUN_API ptxrun_status ptxrun_result_status(const ptxrun_result *result);
/* Warp-steps the run took, summed over every warp of every CTA; and threads' instructions. */
PTXRUN_API uint64_t ptxrun_result_steps(const ptxrun_result *result);
PTXRUN_API uint64_t ptxrun_result_instructions(const ptxrun_result *result);
/* The warnings the run gave (undefined values used, ...). */
PTXRUN_API unsigned ptxrun_result_warnings(const ptxrun_result *result);
/* Which bits of the size bytes at data the run left defined: bits[i] for byte i (0xff: all of
 * them). Bytes of no buffer of the launch, and bytes the kernel never wrote, are all defined.
 * A store of an undefined value (an uninitialised register, a read of uninitialised .shared) makes
 * them undefined. */
PTXRUN_API ptxrun_status ptxrun_result_defined(const ptxrun_result *result, const void *data, size_t size,
                                               uint8_t *bits);
PTXRUN_API void ptxrun_result_free(ptxrun_result *result);

/* gpuocelot's entry point, with its contract: runs the first .entry of the PTX text (ended by a
 * NUL) on a grid of gx * gy * gz CTAs of bx * by * bz threads; args[i] is parameter i's value
 * itself (a scalar's bits, or a global pointer: this process's own address), of which the
 * parameter's size is taken; shared_mem bytes of dynamic .shared. Addresses are checked against
 * the process's mappings. A module passed again is found in a cache (a process-wide one, the
 * library's only state, behind a lock), not parsed again. Messages (a refusal, a fault, warnings)
 * go to standard error, printf's text to standard output, as gpuocelot's did: the one place the
 * library prints. A bad module or a fault never ends the process. */
PTXRUN_API void ptx_run(const char *ptx, int n_args, void **args, int bx, int by, int bz, int gx, int gy, int gz,
                        int shared_mem);

#ifdef __cplusplus
}
#endif

#endif
