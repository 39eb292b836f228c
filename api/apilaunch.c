/* apilaunch.c: ptxrun_launch, one run of a kernel over the caller's memory, and what it left (a
 * ptxrun_result). Each launch copies its kernel's lowered block (block_launch_new), so that any
 * number of threads launch the same kernel at once; the caller's buffers become .global regions
 * at their own addresses (mem_add_host), every byte defined; the parameters are the bytes the
 * caller's args point at. The module's .global variables start as its last launch left them and
 * are kept again after the run, under the module's lock (CUDA keeps a kernel's writes to them for
 * the module's next launches). A result keeps only the definedness of the caller's bytes the
 * kernel wrote, so that it may outlive the module. */
#define _GNU_SOURCE                  /* fopencookie: the trace's stream writes to a callback */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

typedef struct Shadow {              /* the caller's bytes [base, base + size) and their defined bits */
    uint64_t base, size;
    uint8_t *bits;
} Shadow;

struct ptxrun_result {
    ptxrun_status status;
    uint64_t steps, instructions;
    unsigned warnings;
    Shadow *shadows;
    uint32_t shadow_count;
};

enum { MAX_DYNAMIC_SHARED = 1 << 20, DEFAULT_MAX_STEPS = 100000000 };

static ssize_t trace_write(void *cookie, const char *text, size_t len)
{
    const ptxrun_callbacks *cb = cookie;
    cb->trace(cb->context, text, len);
    return (ssize_t)len;
}

/* The CTAs that run together: the options' cluster shape and cooperative launch; false, said, when
 * CUDA would refuse the cluster (more than 16 CTAs, a grid not a whole number of clusters). */
static bool together(ApiDiag *d, Block *b, const ptxrun_launch_options *o)
{
    if (!o)
        return true;
    block_set_cooperative(b, o->cooperative != 0);
    if (!o->cluster[0] && !o->cluster[1] && !o->cluster[2])
        return true;
    uint32_t c[3];
    for (int i = 0; i < 3; i++)
        c[i] = o->cluster[i] ? o->cluster[i] : 1;
    if ((uint64_t)c[0] * c[1] * c[2] > MAX_CLUSTER_CTAS) {
        apidiag_say(d, PTXRUN_ERROR, "launch: a cluster of %u x %u x %u CTAs is more than an H100's %u", c[0], c[1],
                    c[2], (unsigned)MAX_CLUSTER_CTAS);
        return false;
    }
    for (int i = 0; i < 3; i++)
        if (b->nctaid[i] % c[i]) {
            apidiag_say(d, PTXRUN_ERROR, "launch: the grid's %c (%u) is not a whole number of clusters of %u", "xyz"[i],
                        b->nctaid[i], c[i]);
            return false;
        }
    block_set_cluster(b, c);
    return true;
}

/* A launch's shape from the options, 0s counted as 1; false, said, when CUDA would refuse it. */
static bool shape(ApiDiag *d, const ptxrun_launch_options *o, uint32_t ntid[3], uint32_t nctaid[3])
{
    static const uint32_t block_most[3] = { MAX_BLOCK_THREADS, MAX_BLOCK_THREADS, MAX_BLOCK_Z };   /* CUDA's */
    static const uint32_t grid_most[3] = { MAX_GRID_X, MAX_GRID_YZ, MAX_GRID_YZ };
    static const char xyz[] = "xyz";
    for (int i = 0; i < 3; i++) {
        ntid[i] = o && o->block[i] ? o->block[i] : 1;
        nctaid[i] = o && o->grid[i] ? o->grid[i] : 1;
        if (ntid[i] > block_most[i] || nctaid[i] > grid_most[i]) {
            bool block = ntid[i] > block_most[i];
            apidiag_say(d, PTXRUN_ERROR, "launch: %s %c is %u, more than CUDA's %u", block ? "block" : "grid", xyz[i],
                        block ? ntid[i] : nctaid[i], block ? block_most[i] : grid_most[i]);
            return false;
        }
    }
    if ((uint64_t)ntid[0] * ntid[1] * ntid[2] > MAX_BLOCK_THREADS) {
        apidiag_say(d, PTXRUN_ERROR, "launch: a block of %u x %u x %u threads is more than CUDA's %u", ntid[0], ntid[1],
                    ntid[2], MAX_BLOCK_THREADS);
        return false;
    }
    return true;
}

/* Whether r is one of the module's .global variables (not the caller's memory). */
static bool module_var(const Region *r)
{
    return r->space == SPACE_GLOBAL && !r->host && !r->borrowed && !r->per_lane && r->name && r->decl && r->size;
}

static ModuleVar *find_var(ptxrun_module *mod, const Region *r)
{
    for (uint32_t i = 0; i < mod->var_count; i++)
        if (mod->vars[i].decl == r->decl && mod->vars[i].size == r->size)
            return &mod->vars[i];
    return NULL;
}

/* The module's variables as its last launch left them into b's regions (out false), or b's back
 * into the module's (out true); the module's lock held. */
static void move_vars(ptxrun_module *mod, Block *b, bool out)
{
    for (uint32_t i = 0; i < b->mem.count; i++) {
        Region *r = &b->mem.regions[i];
        if (!module_var(r))
            continue;
        ModuleVar *v = find_var(mod, r);
        if (!out) {
            if (!v)
                continue;
            memcpy(r->data, v->data, r->size);
            if (v->shadow && !r->shadow)
                r->shadow = xmalloc(r->size + 1);
            if (v->shadow)
                memcpy(r->shadow, v->shadow, r->size);
            else if (r->shadow)
                memset(r->shadow, 0xff, r->size);
            continue;
        }
        if (!v) {
            mod->vars = xrealloc(mod->vars, (mod->var_count + 1) * sizeof *mod->vars);
            v = &mod->vars[mod->var_count++];
            size_t len = strlen(r->name) + 1;
            *v = (ModuleVar){ r->decl, memcpy(xmalloc(len), r->name, len), r->size, xmalloc(r->size), NULL };
        }
        memcpy(v->data, r->data, r->size);
        if (r->shadow && !v->shadow)
            v->shadow = xmalloc(r->size);
        if (r->shadow)
            memcpy(v->shadow, r->shadow, r->size);
        else {
            free(v->shadow);
            v->shadow = NULL;
        }
    }
}

/* The caller's memory into b's: the parameters' bytes and the buffers; false, said, if refused
 * (*status: why). */
static bool give_memory(ApiDiag *d, Block *b, void *const *args, const ptxrun_launch_options *o,
                        uint8_t *const *shadows, ptxrun_status *status)
{
    const Function *f = b->prog.fn;
    for (uint32_t i = 0; i < f->params.len; i++) {
        uint8_t *shadow;
        uint32_t size;
        uint8_t *data = block_param_bytes(b, i, &shadow, &size);
        if (!args || !args[i]) {
            apidiag_say(d, PTXRUN_ERROR, "launch: no value for parameter %u ('%s') of kernel '%s'", i,
                        f->params.data[i].name, f->name);
            *status = PTXRUN_ERROR_ARGUMENT;
            return false;
        }
        memcpy(data, args[i], size);
        memset(shadow, 0xff, size);
    }
    for (size_t i = 0; o && i < o->buffer_count; i++) {
        const ptxrun_buffer *buf = &o->buffers[i];
        if (!buf->data || !buf->size) {
            if (buf->size) {
                apidiag_say(d, PTXRUN_ERROR, "launch: buffer %zu has %zu bytes at NULL", i, buf->size);
                *status = PTXRUN_ERROR_ARGUMENT;
                return false;
            }
            continue;
        }
        if ((uint64_t)(uintptr_t)buf->data + buf->size < (uint64_t)(uintptr_t)buf->data) {
            apidiag_say(d, PTXRUN_ERROR, "launch: buffer %zu (%zu bytes at %p) runs past the end of the addresses", i,
                        buf->size, buf->data);
            *status = PTXRUN_ERROR_ARGUMENT;
            return false;
        }
        uint32_t r = mem_add_host(&b->mem, "buffer", buf->data, buf->size, buf->read_only != 0);
        if (r == UINT32_MAX) {
            apidiag_say(d, PTXRUN_ERROR, "launch: buffer %zu (%zu bytes at %p) shares addresses with the module's own "
                        ".global variables", i, buf->size, buf->data);
            return false;
        }
        if (shadows && shadows[i]) {         /* the bytes' definedness as the caller keeps it */
            Region *reg = &b->mem.regions[r];
            memcpy(mem_shadow(&b->mem, reg) + ((uint64_t)(uintptr_t)buf->data - reg->base), shadows[i], buf->size);
        }
    }
    return true;
}

/* The CUDA shims' images into b (after the buffers): each image's texels a region of their own,
 * with shadow bytes (all defined) that texture reads and surface stores use; *all is the new
 * list of b's images, which the caller frees after b. False, said, if refused. */
static bool give_images(ApiDiag *d, Block *b, const LibraryImage *images, size_t count, Image **all)
{
    for (size_t i = 0; i < count; i++)
        if (!images[i].texels || !images[i].bytes || !images[i].image.handle ||
            mem_add_host(&b->mem, "image", images[i].texels, images[i].bytes, false) == UINT32_MAX) {
            apidiag_say(d, PTXRUN_ERROR, "launch: image %zu (%zu bytes at %p) has no bytes of its own", i,
                        images[i].bytes, images[i].texels);
            return false;
        }
    *all = xmalloc((b->image_count + count + 1) * sizeof **all);
    if (b->image_count)
        memcpy(*all, b->images, b->image_count * sizeof **all);
    for (size_t i = 0; i < count; i++) {
        uint64_t at = (uint64_t)(uintptr_t)images[i].texels;
        uint32_t r = 0;
        while (r < b->mem.count && !(b->mem.regions[r].host && b->mem.regions[r].space == SPACE_GLOBAL &&
                                     b->mem.regions[r].base == at && b->mem.regions[r].size >= images[i].bytes))
            r++;
        if (r == b->mem.count) {
            apidiag_say(d, PTXRUN_ERROR, "launch: image %zu (%zu bytes at %p) shares a buffer's bytes", i,
                        images[i].bytes, images[i].texels);
            return false;
        }
        mem_shadow(&b->mem, &b->mem.regions[r]);
        (*all)[b->image_count + i] = images[i].image;
        (*all)[b->image_count + i].region = r;
        if (!(*all)[b->image_count + i].levels)
            (*all)[b->image_count + i].levels = 1;
    }
    b->images = *all;
    b->image_count += (uint32_t)count;
    return true;
}

/* The definedness of the caller's bytes the run wrote, taken from b before it is freed. */
static void keep_shadows(ptxrun_result *r, Block *b)
{
    for (uint32_t i = 0; i < b->mem.count; i++) {
        Region *reg = &b->mem.regions[i];
        if (!reg->host || reg->space != SPACE_GLOBAL || !reg->shadow)
            continue;
        r->shadows = xrealloc(r->shadows, (r->shadow_count + 1) * sizeof *r->shadows);
        r->shadows[r->shadow_count++] = (Shadow){ reg->base, reg->size, reg->shadow };
        reg->shadow = NULL;
    }
}

/* The definedness the run left in each buffer's bytes, back into the caller's shadows: a buffer
 * without one whose bytes the run made undefined gets one (malloc, the caller's). */
static void return_shadows(Block *b, const ptxrun_launch_options *o, uint8_t **shadows)
{
    for (size_t i = 0; i < o->buffer_count; i++) {
        const ptxrun_buffer *buf = &o->buffers[i];
        uint64_t lo = (uint64_t)(uintptr_t)buf->data;
        const Region *r = NULL;
        for (uint32_t j = 0; buf->size && j < b->mem.count && !r; j++) {
            const Region *reg = &b->mem.regions[j];
            if (reg->host && reg->space == SPACE_GLOBAL && reg->base <= lo && lo - reg->base < reg->size)
                r = reg;
        }
        if (!r || !r->shadow)
            continue;                         /* nothing written: as it was */
        const uint8_t *from = r->shadow + (lo - r->base);
        if (!shadows[i]) {
            size_t n = 0;
            while (n < buf->size && from[n] == 0xff)
                n++;
            if (n == buf->size)
                continue;                     /* still all defined */
            shadows[i] = xmalloc(buf->size);
        }
        memcpy(shadows[i], from, buf->size);
    }
}

ptxrun_status ptxrun_launch(ptxrun_kernel *k, void *const *args, const ptxrun_launch_options *o,
                            ptxrun_result **result)
{
    return library_launch(k, args, o, NULL, result);
}

ptxrun_status library_launch(ptxrun_kernel *k, void *const *args, const ptxrun_launch_options *o, uint8_t **shadows,
                             ptxrun_result **result)
{
    return library_launch_images(k, args, o, shadows, NULL, 0, result);
}

ptxrun_status library_launch_images(ptxrun_kernel *k, void *const *args, const ptxrun_launch_options *o,
                                    uint8_t **shadows, const LibraryImage *images, size_t image_count,
                                    ptxrun_result **result)
{
    if (result)
        *result = NULL;
    if (!k || (o && o->buffer_count && !o->buffers))
        return PTXRUN_ERROR_ARGUMENT;
    if (!k->block)
        return k->status;
    ptxrun_module *mod = k->module;
    static const ptxrun_callbacks none = { 0 };
    const ptxrun_callbacks *cb = o ? &o->callbacks : &none;
    ApiDiag d;
    apidiag_init(&d, &mod->src, mod->name, mod->m, cb);
    d.prog = &k->block->prog;
    uint32_t ntid[3], nctaid[3];
    if (!shape(&d, o, ntid, nctaid))
        return PTXRUN_ERROR_INPUT;
    if (o && o->shared_bytes > MAX_DYNAMIC_SHARED) {
        apidiag_say(&d, PTXRUN_ERROR, "launch: %u bytes of dynamic .shared, more than the %u ptxrun gives a CTA",
                    o->shared_bytes, (unsigned)MAX_DYNAMIC_SHARED);
        return PTXRUN_ERROR_INPUT;
    }
    Msg err = { 0 };
    if (!block_fits(k->block, ntid, &err)) {
        apidiag_say(&d, PTXRUN_ERROR, "launch: %s", err.text);
        msg_free(&err);
        return PTXRUN_ERROR_INPUT;
    }
    Block *b = block_launch_new(k->block, &d.diag, ntid, ALL_LANES);
    ptxrun_status status = PTXRUN_ERROR_INPUT;
    block_set_grid(b, nctaid);
    if (o && o->shared_bytes)
        block_set_dynamic_shared(b, o->shared_bytes);
    Image *all_images = NULL;
    if (!give_memory(&d, b, args, o, shadows, &status) ||
        (image_count && !give_images(&d, b, images, image_count, &all_images)) || !together(&d, b, o) ||
        !bounds_check(b, b->explicit_cluster ? b->cluster : NULL, NULL))
        goto out;
    if (!gang_fits(b, &err)) {
        apidiag_say(&d, PTXRUN_ERROR, "launch: %s", err.text);
        goto out;
    }
    pthread_mutex_lock(&mod->lock);
    move_vars(mod, b, false);
    pthread_mutex_unlock(&mod->lock);
    ExecOptions e = { 0 };
    e.max_steps = o && o->max_steps ? o->max_steps : DEFAULT_MAX_STEPS;
    e.strict = o && o->strict;
    e.jobs = o && o->jobs > 1 && !o->process_memory ? o->jobs : 1;
    e.print = cb->print;
    e.print_context = cb->context;
    if (o && o->process_memory) {
        b->mem.resolve = hostmem_resolve;
        b->mem.resolve_context = NULL;
    }
    static cookie_io_functions_t to_callback = { NULL, trace_write, NULL, NULL };
    if (cb->trace && !(e.trace = fopencookie((void *)cb, "w", to_callback))) {
        apidiag_say(&d, PTXRUN_ERROR, "launch: cannot make the trace's stream");
        goto out;
    }
    char why[256];
    status = grid_run(b, &e, why, sizeof why) == EXEC_OK ? PTXRUN_OK : PTXRUN_ERROR_FAULT;
    pthread_mutex_lock(&mod->lock);
    move_vars(mod, b, true);
    pthread_mutex_unlock(&mod->lock);
    if (shadows && o)
        return_shadows(b, o, shadows);
    if (e.trace)
        fclose(e.trace);
    if (result) {
        ptxrun_result *r = xcalloc(1, sizeof *r);
        r->status = status;
        r->steps = b->steps;
        r->instructions = b->lane_steps;
        r->warnings = d.diag.warnings;
        keep_shadows(r, b);
        *result = r;
    }
out:
    msg_free(&err);
    block_free(b);
    free(all_images);
    return status;
}

ptxrun_status ptxrun_result_status(const ptxrun_result *r)
{
    return r ? r->status : PTXRUN_ERROR_ARGUMENT;
}

uint64_t ptxrun_result_steps(const ptxrun_result *r)
{
    return r ? r->steps : 0;
}

uint64_t ptxrun_result_instructions(const ptxrun_result *r)
{
    return r ? r->instructions : 0;
}

unsigned ptxrun_result_warnings(const ptxrun_result *r)
{
    return r ? r->warnings : 0;
}

ptxrun_status ptxrun_result_defined(const ptxrun_result *r, const void *data, size_t size, uint8_t *bits)
{
    if (!r || (size && (!data || !bits)))
        return PTXRUN_ERROR_ARGUMENT;
    memset(bits, 0xff, size);
    uint64_t lo = (uint64_t)(uintptr_t)data, hi = lo + size;
    for (uint32_t i = 0; i < r->shadow_count; i++) {
        const Shadow *s = &r->shadows[i];
        uint64_t from = s->base > lo ? s->base : lo, to = s->base + s->size < hi ? s->base + s->size : hi;
        if (from < to)
            memcpy(bits + (from - lo), s->bits + (from - s->base), to - from);
    }
    return PTXRUN_OK;
}

void ptxrun_result_free(ptxrun_result *r)
{
    if (!r)
        return;
    for (uint32_t i = 0; i < r->shadow_count; i++)
        free(r->shadows[i].bits);
    free(r->shadows);
    free(r);
}
