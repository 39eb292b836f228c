/* library.c: ptxrun.h's modules and kernels. A module is parsed and checked once; the checker's
 * "cannot execute ... yet" refusals are held and said only for a kernel that reaches their
 * function (as the command line's run does, runstream.c); a kernel is lowered the first time it
 * is asked for, under the module's lock, into the block every launch copies (apilaunch.c). */
#include <stdlib.h>
#include <string.h>

#include "api.h"

const char *ptxrun_status_name(ptxrun_status status)
{
    switch (status) {
    case PTXRUN_OK: return "ok";
    case PTXRUN_ERROR_ARGUMENT: return "bad argument";
    case PTXRUN_ERROR_INPUT: return "refused";
    case PTXRUN_ERROR_FAULT: return "fault";
    case PTXRUN_ERROR_UNSUPPORTED: return "not executable yet";
    case PTXRUN_ERROR_NOT_FOUND: return "no such kernel";
    }
    return "unknown status";
}

ptxrun_status ptxrun_module_load(const char *ptx, size_t len, const ptxrun_module_options *options,
                                 ptxrun_module **out)
{
    if (!out)
        return PTXRUN_ERROR_ARGUMENT;
    *out = NULL;
    if ((!ptx && len) || len >= UINT32_MAX)
        return PTXRUN_ERROR_ARGUMENT;
    ptxrun_module *mod = xcalloc(1, sizeof *mod);
    const char *name = options && options->name ? options->name : "<ptx>";
    size_t name_len = strlen(name) + 1;
    mod->name = memcpy(xmalloc(name_len), name, name_len);
    if (options)
        mod->callbacks = options->callbacks;
    mod->fmad = !(options && options->no_fmad);
    mod->stack_bytes = options && options->stack_bytes ? options->stack_bytes : DEFAULT_STACK_BYTES;
    source_from_string(&mod->src, mod->name, ptx ? ptx : "", len);
    uint32_t line, column;
    source_position(&mod->src, 0, &line, &column);     /* the line table, made now: launches only read it */
    pthread_mutex_init(&mod->lock, NULL);
    ApiDiag d;
    apidiag_init(&d, &mod->src, mod->name, NULL, &mod->callbacks);
    CheckOptions check = { 0 };
    reach_hold(&mod->reach, &mod->src, &check);
    if (options && options->stack_bytes > MAX_STACK_BYTES)
        apidiag_say(&d, PTXRUN_ERROR, "stack_bytes %u is more than the most a thread may have, %u",
                    options->stack_bytes, (unsigned)MAX_STACK_BYTES);
    mod->m = parse_module(&mod->src, &d.diag);
    check_module(mod->m, &d.diag, &check);
    if (d.diag.errors) {
        reach_refuse_all(&mod->reach, &d.diag);
        ptxrun_module_free(mod);
        return PTXRUN_ERROR_INPUT;
    }
    mod->names = kernelname_list(mod->m, &mod->kernel_count);
    mod->kernels = xcalloc(mod->kernel_count + 1, sizeof *mod->kernels);
    for (uint32_t i = 0; i < mod->kernel_count; i++) {
        mod->kernels[i].module = mod;
        mod->kernels[i].name = &mod->names[i];
    }
    *out = mod;
    return PTXRUN_OK;
}

void ptxrun_module_free(ptxrun_module *mod)
{
    if (!mod)
        return;
    for (uint32_t i = 0; i < mod->kernel_count; i++)
        block_free(mod->kernels[i].block);
    free(mod->kernels);
    kernelname_free(mod->names, mod->kernel_count);
    reach_release(&mod->reach, mod->m);
    for (uint32_t i = 0; i < mod->var_count; i++) {
        free(mod->vars[i].name);
        free(mod->vars[i].data);
        free(mod->vars[i].shadow);
    }
    free(mod->vars);
    module_free(mod->m);
    source_free(&mod->src);
    pthread_mutex_destroy(&mod->lock);
    free(mod->name);
    free(mod);
}

unsigned ptxrun_module_kernel_count(const ptxrun_module *mod)
{
    return mod ? mod->kernel_count : 0;
}

const char *ptxrun_module_kernel_name(const ptxrun_module *mod, unsigned index)
{
    return mod && index < mod->kernel_count ? mod->names[index].f->name : NULL;
}

/* Lowers k (the module's lock held): its refusals said first, then the lowering of the functions
 * it reaches, as the command line's run lowers them. */
static void lower(ptxrun_kernel *k)
{
    ptxrun_module *mod = k->module;
    Module *m = mod->m;
    Function *fn = (Function *)k->name->f;
    ApiDiag d;
    apidiag_init(&d, &mod->src, mod->name, m, &mod->callbacks);
    uint32_t count;
    Function **reached = reach_of_kernel(&mod->reach, m, fn, &d.diag, &count);
    k->lowered = true;
    if (d.diag.errors) {
        free(reached);
        k->status = d.unsupported == d.diag.errors ? PTXRUN_ERROR_UNSUPPORTED : PTXRUN_ERROR_INPUT;
        return;
    }
    reach_narrow(&mod->reach, m, reached, count);
    k->block = block_load_placed(m, fn, &d.diag, mod->stack_bytes, mod->fmad, mod->place, mod->place_context);
    reach_restore(&mod->reach, m);
    if (k->block && d.diag.errors) {
        block_free(k->block);
        k->block = NULL;
    }
    if (k->block)
        k->block->diag = NULL;              /* each launch has its own */
    k->status = k->block ? PTXRUN_OK
                : d.unsupported && d.unsupported == d.diag.errors ? PTXRUN_ERROR_UNSUPPORTED : PTXRUN_ERROR_INPUT;
}

ptxrun_status ptxrun_module_kernel(ptxrun_module *mod, const char *name, ptxrun_kernel **out)
{
    if (!out)
        return PTXRUN_ERROR_ARGUMENT;
    *out = NULL;
    if (!mod)
        return PTXRUN_ERROR_ARGUMENT;
    uint32_t matches = 0;
    const KernelName *found = !name ? (mod->kernel_count ? &mod->names[0] : NULL)
                              : kernelname_find(mod->names, mod->kernel_count, name, NULL, &matches);
    if (!found) {
        ApiDiag d;
        apidiag_init(&d, &mod->src, mod->name, mod->m, &mod->callbacks);
        if (!mod->kernel_count)
            apidiag_say(&d, PTXRUN_ERROR, "%s has no kernel (.entry with a body)", mod->name);
        else if (matches > 1)
            apidiag_say(&d, PTXRUN_ERROR, "'%s' names %u kernels of %s; give the PTX name", name, matches, mod->name);
        else
            apidiag_say(&d, PTXRUN_ERROR, "%s has no kernel named '%s' (%u kernel%s, the first '%s')", mod->name,
                        name, mod->kernel_count, mod->kernel_count == 1 ? "" : "s", mod->names[0].f->name);
        return PTXRUN_ERROR_NOT_FOUND;
    }
    ptxrun_kernel *k = &mod->kernels[found - mod->names];
    pthread_mutex_lock(&mod->lock);
    if (!k->lowered)
        lower(k);
    ptxrun_status status = k->status;
    pthread_mutex_unlock(&mod->lock);
    if (status == PTXRUN_OK)
        *out = k;
    return status;
}

const char *ptxrun_kernel_name(const ptxrun_kernel *k)
{
    return k ? k->name->f->name : NULL;
}

const char *ptxrun_kernel_cxx_name(const ptxrun_kernel *k)
{
    return k && k->name->cxx ? k->name->cxx + k->name->name_at : NULL;
}

unsigned ptxrun_kernel_param_count(const ptxrun_kernel *k)
{
    return k ? k->name->f->params.len : 0;
}

ptxrun_status ptxrun_kernel_param(const ptxrun_kernel *k, unsigned index, ptxrun_param *out)
{
    if (!k || !out || index >= k->name->f->params.len || !k->block)
        return PTXRUN_ERROR_ARGUMENT;
    const Decl *d = &k->name->f->params.data[index];
    const FrameSlot *slot = &k->block->prog.funcs[0].params[index];
    bool bytes = d->dim_count || d->type == TYPE_NONE || d->vector || type_info[d->type].bits > 64;
    unsigned element = bytes ? 1 : (type_info[d->type].bits + 7) / 8;
    out->name = d->name;
    out->type = bytes ? "b8" : type_info[d->type].name;
    out->size = slot->size;
    out->align = d->align ? d->align : element;
    out->elements = bytes ? slot->size : 1;
    out->pointer = d->is_ptr || (!bytes && type_info[d->type].bits == 64 && type_info[d->type].cls != 'f');
    return PTXRUN_OK;
}

void library_set_placer(ptxrun_module *mod, ModulePlacer place, void *context)
{
    mod->place = place;
    mod->place_context = context;
}

/* Whether the module's i-th declaration is a variable the host may name. */
static bool host_named(const Decl *d)
{
    return (d->space == SPACE_GLOBAL || d->space == SPACE_CONST) && !(d->linkage & LINK_EXTERN) && d->name;
}

uint32_t library_var_count(const ptxrun_module *mod)
{
    uint32_t n = 0;
    for (uint32_t i = 0; mod && i < mod->m->globals.len; i++)
        n += host_named(&mod->m->globals.data[i]);
    return n;
}

bool library_var(const ptxrun_module *mod, uint32_t index, LibraryVar *out)
{
    for (uint32_t i = 0; mod && i < mod->m->globals.len; i++) {
        const Decl *d = &mod->m->globals.data[i];
        if (!host_named(d) || index-- > 0)
            continue;
        bool managed = false;
        for (uint32_t a = 0; a < d->attr_count; a++)
            managed = managed || strstr(d->attrs[a], ".managed") != NULL;
        *out = (LibraryVar){ d, d->name, d->space, layout_decl_bytes(d), layout_decl_align(d), managed };
        return true;
    }
    return false;
}
