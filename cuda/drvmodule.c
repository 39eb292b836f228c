/* drvmodule.c: modules. An image is PTX text (ended by a NUL), a fatbinary (magic 0xBA55ED50), the
 * wrapper __cudaRegisterFatBinary is given (0x466243b1), or a file holding one of them; of a
 * fatbinary the PTX the CUDA driver would compile for the device is taken (fatbin_best_ptx): ptxrun
 * runs PTX, never SASS. At load, as CUDA compiles the whole module then, every kernel is lowered:
 * the module's .global and .const variables get their bytes from the driver then, through the
 * placer (an aligned, zeroed allocation each, in the driver's table, its initializer written once),
 * and each kernel's lowering messages are held for its launches (a kernel ptxrun cannot execute
 * yet is refused at its launch). Module-scope variables no kernel reaches are placed after, zeroed.
 * cuLink* joins one PTX input into an image for cuModuleLoadData. Requires: cuda.h. */
#include <stdlib.h>
#include <string.h>

#include "cuda.h"

#define WRAPPER_MAGIC 0x466243b1u      /* __cudaRegisterFatBinary's wrapper */
#define FATBIN_MAGIC 0xBA55ED50u       /* a fatbinary */
enum { FATBIN_HEADER = 16 };

/* The module's messages while it loads: the lowering's held for its kernel, the rest said now. */
static void module_diag(void *context, const ptxrun_diagnostic *d)
{
    CUmodule m = context;
    if (m->lowering < m->func_count) {
        msg_add(&m->funcs[m->lowering].held, "%s\n", d->text);
        return;
    }
    if (d->level == PTXRUN_ERROR)
        msg_add(&m->errors, "%s\n", d->text);
    drv_report(m->loading, "%s", d->text);
}

/* The placer (api.h's ModulePlacer): a module variable's bytes, the driver's. */
static void *place(void *context, const void *decl, const char *name, int space, uint64_t size, uint32_t align,
                   bool *fresh)
{
    CUmodule m = context;
    DrvState *s = m->loading;
    for (size_t i = 0; i < s->mem_count; i++)
        if (s->mems[i].kind == DRV_MEM_SYMBOL && s->mems[i].module == m && s->mems[i].decl == decl) {
            *fresh = false;
            return s->mems[i].base;
        }
    void *p;
    size_t bytes = size ? (size_t)size : 1;
    if (size > SIZE_MAX / 2 || posix_memalign(&p, align > DRV_ALIGN ? align : DRV_ALIGN, bytes))
        return NULL;
    memset(p, 0, bytes);
    drv_mem_add(s, &(DrvMem){ .base = p, .size = bytes, .kind = DRV_MEM_SYMBOL, .ctx = m->ctx, .module = m,
                              .decl = decl, .name = xstrdup(name), .space = space });
    *fresh = true;
    return p;
}

static DrvMem *symbol(DrvState *s, CUmodule m, const void *decl)
{
    for (size_t i = 0; i < s->mem_count; i++)
        if (s->mems[i].kind == DRV_MEM_SYMBOL && s->mems[i].module == m && s->mems[i].decl == decl)
            return &s->mems[i];
    return NULL;
}

void drvmodule_free(DrvState *s, CUmodule m)
{
    for (size_t i = s->mem_count; i-- > 0;)
        if (s->mems[i].kind == DRV_MEM_SYMBOL && s->mems[i].module == m)
            drv_mem_remove(s, &s->mems[i]);
    for (unsigned i = 0; i < m->func_count; i++)
        msg_free(&m->funcs[i].held);
    free(m->funcs);
    ptxrun_module_free(m->mod);
    msg_free(&m->errors);
    drv_handle_remove(s, m);
    free(m);
}

/* The PTX of an image: text, or the best entry of a fatbinary (its bytes in *entries, which the
 * caller frees). NULL and *r the error, said on the report stream, when there is none. */
static const char *image_ptx(DrvState *s, const void *image, unsigned arch, FatbinEntries *entries, size_t *len,
                             CUresult *r)
{
    uint32_t magic;
    memcpy(&magic, image, sizeof magic);
    Msg err = { 0 };
    bool read = true;
    if (magic == WRAPPER_MAGIC)
        read = fatbin_from_wrapper(image, entries, &err);
    else if (magic == FATBIN_MAGIC) {
        uint64_t size;
        memcpy(&size, (const uint8_t *)image + 8, sizeof size);
        read = size < UINT64_MAX - FATBIN_HEADER && fatbin_read(image, (size_t)(size + FATBIN_HEADER), entries, &err);
    } else if (!memcmp(image, "\177ELF", 4)) {
        drv_report(s, "ptxrun's libcuda: the module is an ELF cubin (SASS); ptxrun runs PTX only: load PTX, or a "
                      "fatbinary with PTX (nvcc -gencode arch=compute_%u,code=compute_%u, or nvcc's default, which "
                      "includes PTX)", arch, arch);
        *r = CUDA_ERROR_NO_BINARY_FOR_GPU;
        return NULL;
    } else {
        *len = strlen(image);
        return image;
    }
    if (!read) {
        drv_report(s, "ptxrun's libcuda: the module's fatbinary cannot be read: %s", err.text);
        msg_free(&err);
        *r = CUDA_ERROR_INVALID_IMAGE;
        return NULL;
    }
    const FatbinEntry *e = fatbin_best_ptx(entries, arch);
    if (!e) {
        drv_report(s, "ptxrun's libcuda: the fatbinary has no PTX for sm_%u (%zu entr%s, none PTX of compute_%u or "
                      "below); ptxrun runs PTX only, never SASS: build with "
                      "nvcc -gencode arch=compute_%u,code=compute_%u "
                      "(or nvcc's default, which includes PTX)", arch, entries->count,
                   entries->count == 1 ? "y" : "ies", arch, arch, arch);
        *r = CUDA_ERROR_NO_BINARY_FOR_GPU;
        return NULL;
    }
    *len = e->size;
    return (const char *)e->data;
}

/* The module's variables no kernel reached, placed now (zeroed: their initializers are written
 * only by a kernel's lowering); the managed ones marked. */
static void place_the_rest(DrvState *s, CUmodule m)
{
    uint32_t n = library_var_count(m->mod);
    for (uint32_t i = 0; i < n; i++) {
        LibraryVar v;
        bool fresh;
        if (!library_var(m->mod, i, &v))
            continue;
        if (!symbol(s, m, v.decl))
            place(m, v.decl, v.name, v.space, v.size, v.align, &fresh);
        DrvMem *placed = symbol(s, m, v.decl);
        if (placed)
            placed->managed = v.managed;
    }
}

/* Loads the image into a module of the current context, its kernels lowered. */
static CUresult load(CUmodule *out, const void *image, const char *name, Msg *errors)
{
    DrvState *s;
    CUcontext ctx;
    CUresult r = drv_enter(&s, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!out || !image) {
        drv_unlock();
        return CUDA_ERROR_INVALID_VALUE;
    }
    FatbinEntries entries = { 0 };
    size_t len = 0;
    const char *ptx = image_ptx(s, image, s->settings.arch, &entries, &len, &r);
    CUmodule m = NULL;
    if (ptx) {
        m = xcalloc(1, sizeof *m);
        m->ctx = ctx;
        m->loading = s;
        m->lowering = UINT32_MAX;
        ptxrun_module_options o = { .name = name, .stack_bytes = (unsigned)ctx->limits[CU_LIMIT_STACK_SIZE],
                                    .callbacks = { .diagnostic = module_diag, .context = m } };
        if (ptxrun_module_load(ptx, len, &o, &m->mod) != PTXRUN_OK)
            r = CUDA_ERROR_INVALID_PTX;
        else if (m->mod->m->target_sm > s->settings.arch) {
            drv_report(s, "ptxrun's libcuda: %s: the PTX's .target sm_%u is above the device's sm_%u (PTXRUN_ARCH), "
                          "which a GPU's driver refuses", name, m->mod->m->target_sm, s->settings.arch);
            msg_add(&m->errors, "the PTX's .target sm_%u is above the device's sm_%u\n", m->mod->m->target_sm,
                    s->settings.arch);
            r = CUDA_ERROR_INVALID_PTX;
        }
    }
    if (m && r == CUDA_SUCCESS) {
        library_set_placer(m->mod, place, m);
        m->func_count = ptxrun_module_kernel_count(m->mod);
        m->funcs = xcalloc(m->func_count + 1, sizeof *m->funcs);
        for (unsigned i = 0; i < m->func_count; i++) {
            struct CUfunc_st *f = &m->funcs[i];
            f->module = m;
            f->name = ptxrun_module_kernel_name(m->mod, i);
            f->carveout = -1;
            m->lowering = i;
            f->status = ptxrun_module_kernel(m->mod, f->name, &f->kernel);
        }
        m->lowering = UINT32_MAX;
        place_the_rest(s, m);
        m->loading = NULL;
        drv_handle_add(s, DRV_MODULE, m);
        *out = m;
    } else if (m) {
        if (errors && m->errors.text)
            msg_add(errors, "%s", m->errors.text);
        msg_free(&m->errors);
        ptxrun_module_free(m->mod);
        free(m);
    }
    fatbin_free(&entries);
    drv_unlock();
    return r;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    return load(module, image, "<cuModuleLoadData>", NULL);
}

CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatbin)
{
    return load(module, fatbin, "<cuModuleLoadFatBinary>", NULL);
}

/* The JIT options: the error log gets the load's errors, the info log is emptied (each with its
 * size option, which is given back as the bytes written); every other option is taken and has no
 * effect (ptxrun has no code generation to tune). */
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned count, CUjit_option *options, void **values)
{
    if (count && (!options || !values))
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < count; i++)
        if ((unsigned)options[i] >= CU_JIT_NUM_OPTIONS)
            return CUDA_ERROR_INVALID_VALUE;
    Msg errors = { 0 };
    CUresult r = load(module, image, "<cuModuleLoadDataEx>", &errors);
    for (unsigned i = 0; i < count; i++) {
        bool error_log = options[i] == CU_JIT_ERROR_LOG_BUFFER, info_log = options[i] == CU_JIT_INFO_LOG_BUFFER;
        if (!error_log && !info_log)
            continue;
        CUjit_option size_option = error_log ? CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES : CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES;
        for (unsigned j = 0; j < count; j++) {
            size_t size = (size_t)(uintptr_t)values[j];
            if (options[j] != size_option || !size || !values[i])
                continue;
            const char *text = error_log && errors.text ? errors.text : "";
            size_t n = strlen(text) < size - 1 ? strlen(text) : size - 1;
            memcpy(values[i], text, n);
            ((char *)values[i])[n] = '\0';
            values[j] = (void *)(uintptr_t)(n + 1);
        }
    }
    msg_free(&errors);
    return r;
}

/* A whole file, with a NUL after it; NULL when it cannot be read. */
static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *data = NULL;
    size_t len = 0, cap = 0, n;
    do {
        if (len + 65536 + 1 > cap)
            data = xrealloc(data, cap = 2 * cap + 65536 + 1);
        n = fread(data + len, 1, cap - len - 1, f);
        len += n;
    } while (n);
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        free(data);
        return NULL;
    }
    data[len] = '\0';
    *size = len;
    return data;
}

CUresult cuModuleLoad(CUmodule *module, const char *path)
{
    if (!path || !module) {
        DrvState *s;
        CUresult r = drv_enter(&s, NULL);
        if (r == CUDA_SUCCESS)
            drv_unlock();
        return r == CUDA_SUCCESS ? CUDA_ERROR_INVALID_VALUE : r;
    }
    size_t size;
    char *data = read_file(path, &size);
    if (!data)
        return CUDA_ERROR_FILE_NOT_FOUND;
    CUresult r = size >= 4 ? load(module, data, path, NULL) : CUDA_ERROR_INVALID_IMAGE;
    free(data);
    return r;
}

CUresult cuModuleUnload(CUmodule module)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_handle_has(s, DRV_MODULE, module))
        r = CUDA_ERROR_INVALID_HANDLE;
    else
        drvmodule_free(s, module);
    drv_unlock();
    return r;
}

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module, const char *name)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!function || !name)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!drv_handle_has(s, DRV_MODULE, module))
        r = CUDA_ERROR_INVALID_HANDLE;
    else {
        r = CUDA_ERROR_NOT_FOUND;
        for (unsigned i = 0; i < module->func_count; i++)
            if (!strcmp(module->funcs[i].name, name)) {
                *function = &module->funcs[i];
                r = CUDA_SUCCESS;
            }
    }
    drv_unlock();
    return r;
}

CUresult cuModuleGetFunctionCount(unsigned *count, CUmodule module)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!count)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!drv_handle_has(s, DRV_MODULE, module))
        r = CUDA_ERROR_INVALID_HANDLE;
    else
        *count = module->func_count;
    drv_unlock();
    return r;
}

/* The module's kernels in the PTX's order, at most count of them. */
CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned count, CUmodule module)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!functions && count)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!drv_handle_has(s, DRV_MODULE, module))
        r = CUDA_ERROR_INVALID_HANDLE;
    for (unsigned i = 0; r == CUDA_SUCCESS && i < count && i < module->func_count; i++)
        functions[i] = &module->funcs[i];
    drv_unlock();
    return r;
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule module, const char *name)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!name || (!dptr && !bytes))
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!drv_handle_has(s, DRV_MODULE, module))
        r = CUDA_ERROR_INVALID_HANDLE;
    else {
        r = CUDA_ERROR_NOT_FOUND;
        uint32_t n = library_var_count(module->mod);
        for (uint32_t i = 0; i < n; i++) {
            LibraryVar v;
            DrvMem *m;
            if (!library_var(module->mod, i, &v) || strcmp(v.name, name) || !(m = symbol(s, module, v.decl)))
                continue;
            if (dptr)
                *dptr = (CUdeviceptr)(uintptr_t)m->base;
            if (bytes)
                *bytes = (size_t)v.size;
            r = CUDA_SUCCESS;
            break;
        }
    }
    drv_unlock();
    return r;
}

/* cuLink*: one PTX input (text, or a fatbinary's PTX), given back as the image. */
struct CUlinkState_st {
    char *ptx;                 /* the input's text, NUL-ended; NULL: none yet */
    size_t len;
};

CUresult cuLinkCreate_v2(unsigned count, CUjit_option *options, void **values, CUlinkState *state)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!state || (count && (!options || !values)))
        r = CUDA_ERROR_INVALID_VALUE;
    else {
        *state = xcalloc(1, sizeof **state);
        drv_handle_add(s, DRV_LINK, *state);
    }
    drv_unlock();
    return r;
}

static CUresult link_add(CUlinkState state, CUjitInputType type, const void *data, size_t size, const char *name)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    FatbinEntries entries = { 0 };
    const char *ptx = NULL;
    size_t len = 0;
    if (!drv_handle_has(s, DRV_LINK, state))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (!data || !size)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (type == CU_JIT_INPUT_PTX) {
        ptx = data;
        len = strnlen(ptx, size);
    } else if (type == CU_JIT_INPUT_FATBINARY)
        ptx = size >= 4 ? image_ptx(s, data, s->settings.arch, &entries, &len, &r) : NULL;
    else {
        drv_report(s, "ptxrun's libcuda: cuLinkAddData: input '%s' is not PTX (type %d); ptxrun links PTX only "
                      "(no cubins, objects or libraries such as cudadevrt)", name ? name : "", (int)type);
        r = CUDA_ERROR_NOT_SUPPORTED;
    }
    if (ptx && state->ptx) {
        drv_report(s, "ptxrun's libcuda: cuLinkAddData: a second PTX input ('%s'); ptxrun links one PTX module only",
                   name ? name : "");
        r = CUDA_ERROR_NOT_SUPPORTED;
    } else if (ptx && r == CUDA_SUCCESS) {
        state->ptx = xmalloc(len + 1);
        memcpy(state->ptx, ptx, len);
        state->ptx[len] = '\0';
        state->len = len;
    } else if (r == CUDA_SUCCESS && type == CU_JIT_INPUT_FATBINARY)
        r = CUDA_ERROR_INVALID_IMAGE;
    fatbin_free(&entries);
    drv_unlock();
    return r;
}

CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                          unsigned count, CUjit_option *options, void **values)
{
    if (count && (!options || !values))
        return CUDA_ERROR_INVALID_VALUE;
    return link_add(state, type, data, size, name);
}

CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path, unsigned count,
                          CUjit_option *options, void **values)
{
    if (!path || (count && (!options || !values)))
        return CUDA_ERROR_INVALID_VALUE;
    size_t size;
    char *data = read_file(path, &size);
    if (!data)
        return CUDA_ERROR_FILE_NOT_FOUND;
    CUresult r = link_add(state, type, data, size + (type == CU_JIT_INPUT_PTX), path);
    free(data);
    return r;
}

CUresult cuLinkComplete(CUlinkState state, void **image, size_t *size)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_handle_has(s, DRV_LINK, state))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (!image || !size)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!state->ptx)
        r = CUDA_ERROR_INVALID_IMAGE;
    else {
        *image = state->ptx;
        *size = state->len + 1;
    }
    drv_unlock();
    return r;
}

CUresult cuLinkDestroy(CUlinkState state)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_handle_has(s, DRV_LINK, state))
        r = CUDA_ERROR_INVALID_HANDLE;
    else {
        drv_handle_remove(s, state);
        free(state->ptx);
        free(state);
    }
    drv_unlock();
    return r;
}
