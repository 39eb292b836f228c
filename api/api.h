/* api.h: the library facade's own declarations (the public interface is ptxrun.h): a loaded
 * module and its kernels, a launch's messages, the process's own memory for ptx_run, and the
 * names of kernels (C++ names too). Nothing here prints or keeps global state but ocelot.c's
 * cache. Requires: exec.h (the executor), ptxrun.h. */
#ifndef PTXRUN_API_H
#define PTXRUN_API_H

#include <pthread.h>

#include "exec.h"
#include "ptxrun.h"

/* demangle.c: the C++ name of an Itanium-mangled name (_Z...) as c++filt writes it, a new
 * string; NULL when it is not one, or uses what demangle.c does not read. *name_at (may be
 * NULL): where the name starts after a function template's return type ("void "). */
char *demangle_name(const char *mangled, size_t *name_at);
/* A name as messages show it: demangled, and at most DEMANGLE_SHOWN bytes (its middle left out);
 * a new string. */
enum { DEMANGLE_SHOWN = 120, PATH_SHOWN = 1024 };
char *demangle_shown(const char *name);
/* Any text a message quotes (an option's value, a lanes file's key, a path: PATH_SHOWN): len bytes
 * at text, at most max bytes long, the middle left out. A new string. */
char *demangle_cut(const char *text, size_t len, size_t max);

/* kernelname.c: a module's kernels and the names a user may choose one by: the PTX name, the C++
 * name as c++filt writes it (with or without the return type), or the start of one C++ name.
 * Names are compared with the spaces that do not separate two words taken out. */
typedef struct KernelName {
    const Function *f;
    char *cxx;                 /* its C++ name, or NULL when the name is not mangled or not read */
    size_t name_at;            /* where cxx's name starts after a return type */
    char *full, *name;         /* cxx (or the name) and cxx from name_at, in the compared form */
} KernelName;
KernelName *kernelname_list(const Module *m, uint32_t *count);   /* the kernels with a body, in order */
void kernelname_free(KernelName *k, uint32_t count);
/* The kernel query names; NULL: none or several, those marked in matched (count of them, may be
 * NULL when no list is wanted), *matches of them. */
const KernelName *kernelname_find(const KernelName *k, uint32_t count, const char *query, bool *matched,
                                  uint32_t *matches);

/* apidiag.c: the executor's and the checker's messages to a caller's ptxrun_callbacks, each with
 * its text formed as the command line shows it, its PTX place and its CUDA place. */
typedef struct ApiDiag {
    Diag diag;                 /* what the pipeline reports into (its emit is apidiag's) */
    const ptxrun_callbacks *callbacks;
    const char *file;          /* the module's name */
    const Module *m;           /* its .files, for CUDA places */
    const Program *prog;       /* a launch's program: the instruction at a message's place; NULL */
    uint32_t unsupported;      /* errors that were "ptxrun cannot execute ... yet" */
} ApiDiag;
void apidiag_init(ApiDiag *d, Source *src, const char *file, const Module *m, const ptxrun_callbacks *callbacks);
/* A message with no place in the PTX (a launch's arguments). */
void apidiag_say(ApiDiag *d, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* reach.c: what a run of one kernel may reach, the library's and the command line's: the checker's
 * "cannot execute ... yet" refusals held (reach_hold sets CheckOptions.refusals), then said only
 * for the functions a kernel reaches (reach_of_kernel, which gives those functions, a new array);
 * reach_narrow gives the lowering only those (m->functions) until reach_restore. */
typedef struct Refusal {
    Span at;
    char *message;
} Refusal;
typedef struct KernelReach {
    Diag refusals;             /* CheckOptions.refusals: what it hears is held in items */
    Refusal *items;
    uint32_t len, cap;
    Function **all;            /* m->functions before reach_narrow */
    uint32_t all_len;
} KernelReach;
void reach_hold(KernelReach *r, Source *src, CheckOptions *check);
void reach_forget(KernelReach *r, uint32_t from);     /* the refusals held from the from-th on */
void reach_refuse_all(KernelReach *r, Diag *diag);    /* every one said (a module with errors) */
Function **reach_of_kernel(const KernelReach *r, const Module *m, const Function *fn, Diag *diag, uint32_t *count);
void reach_narrow(KernelReach *r, Module *m, Function **reached, uint32_t count);   /* takes reached */
void reach_restore(KernelReach *r, Module *m);        /* m->functions as before reach_narrow */
void reach_release(KernelReach *r, Module *m);        /* the refusals freed, m restored */

/* Where a static .global or .const variable's bytes live (Memory.place): the caller's, or NULL. */
typedef void *(*ModulePlacer)(void *context, const void *decl, const char *name, int space, uint64_t size,
                              uint32_t align, bool *fresh);

/* A module's .global variable as its launches left it: CUDA keeps what a kernel writes there
 * for the module's next launches, of that kernel or another. */
typedef struct ModuleVar {
    const void *decl;          /* its declaration (Region.decl): two kernels' function-scope
                                  variables of one name are two variables */
    char *name;
    uint64_t size;
    uint8_t *data, *shadow;    /* shadow NULL: every byte defined */
} ModuleVar;
/* library.c: a module, loaded once, and its kernels, each lowered once into the block every
 * launch of it starts from (block_launch_new). */
struct ptxrun_kernel {
    ptxrun_module *module;
    const KernelName *name;
    bool lowered;              /* asked for before: status says how that went */
    ptxrun_status status;
    Block *block;              /* the lowered kernel every launch copies; NULL when refused */
};
struct ptxrun_module {
    char *name;
    Source src;
    Module *m;
    ptxrun_callbacks callbacks;
    bool fmad;
    uint32_t stack_bytes;
    KernelReach reach;               /* the checker's refusals, said only for a kernel reaching one */
    KernelName *names;
    ptxrun_kernel *kernels;
    uint32_t kernel_count;
    ModuleVar *vars;           /* its .global variables as the last launch left them (none launched: none) */
    uint32_t var_count;
    pthread_mutex_t lock;      /* lowering a kernel (it narrows m->functions to what the kernel reaches);
                                  vars */
    ModulePlacer place;        /* where its static .global and .const variables live (library_set_placer) */
    void *place_context;
};

/* A module variable the host may name: of module scope, in .global or .const, defined here (not
 * .extern). managed: declared with .attribute(.managed) (CUDA's __managed__). */
typedef struct LibraryVar {
    const void *decl;          /* what a ModulePlacer is given for it */
    const char *name;
    int space;                 /* SPACE_GLOBAL or SPACE_CONST */
    uint64_t size;
    uint32_t align;
    bool managed;
} LibraryVar;
/* library.c: the CUDA shims' hooks. library_set_placer: where the module's static .global and
 * .const variables live (Memory.place; the caller's bytes), asked while each kernel is lowered;
 * set it before the first ptxrun_module_kernel. library_var: the i-th variable the host may name;
 * false past the last. */
void library_set_placer(ptxrun_module *mod, ModulePlacer place, void *context);
uint32_t library_var_count(const ptxrun_module *mod);
bool library_var(const ptxrun_module *mod, uint32_t i, LibraryVar *out);

/* apilaunch.c: ptxrun_launch keeping the definedness of the caller's bytes between launches (the
 * CUDA shims' device memory, which starts undefined): shadows (NULL, or one per buffer of o)
 * gives each buffer's bits as they start, one byte a byte (0xff: all defined; NULL: all of them),
 * and gets them as the run left them: a buffer's shadow is written in place, or, NULL before and
 * some bits of it undefined after, made (malloc: the caller frees it). */
ptxrun_status library_launch(ptxrun_kernel *k, void *const *args, const ptxrun_launch_options *o, uint8_t **shadows,
                             ptxrun_result **result);

/* hostmem.c: the process's own memory for ptx_run: an address outside every buffer is looked up
 * in /proc/self/maps, and the mapping holding it becomes a region (read-only where the process may
 * not write). A Memory.resolve. */
bool hostmem_resolve(void *context, Memory *mem, uint64_t address, uint64_t size, bool store);

#endif
