/* mem.c: the memory spaces of one warp's kernel. Every variable, kernel parameter and buffer
 * is a Region with an address in its own state space; a generic address is the global address
 * itself, or a space's address plus that space's window (what cvta computes). Each byte has a
 * shadow byte saying whether it is defined, so an undefined register stored and loaded again
 * stays undefined (--check's lowering only places regions: no bytes). ld/st/cvta, ldu, isspacep and discard execute here; an access outside every
 * region, misaligned, to an undefined address or to read-only memory is a fault naming lane,
 * line, address and the nearest region; atomic.c and multimem.c reach memory through the same
 * checks (mem_locate). Requires: lower.c (XInstr), report.c (faults). */
#include <stdlib.h>
#include <string.h>

#include "family.h"

/* Where each space appears in the generic address space. Global addresses are generic. */
static uint64_t window(int space)
{
    switch (space) {
    case SPACE_SHARED: return MEM_SHARED_WINDOW;
    case SPACE_LOCAL: return MEM_LOCAL_WINDOW;
    case SPACE_CONST: return MEM_CONST_WINDOW;
    case SPACE_PARAM: return MEM_PARAM_WINDOW;
    default: return 0;
    }
}

const char *mem_space_name(int space)
{
    switch (space) {
    case SPACE_GLOBAL: return ".global";
    case SPACE_SHARED: return ".shared";
    case SPACE_LOCAL: return ".local";
    case SPACE_CONST: return ".const";
    case SPACE_PARAM: return ".param";
    default: return "generic";
    }
}

void mem_init(Memory *mem)
{
    memset(mem, 0, sizeof *mem);
    mem->cursor[SPACE_GLOBAL] = MEM_GLOBAL_BASE;
    mem->cursor[SPACE_SHARED] = 0;
    mem->cursor[SPACE_LOCAL] = 0;
    mem->cursor[SPACE_CONST] = 0;
    mem->cursor[SPACE_PARAM] = 0;
    mem->copies = WARP_SIZE;
}

/* Gives every per-lane region a copy for each of `copies` threads; new copies start zero and
 * undefined. */
void mem_set_copies(Memory *mem, uint32_t copies)
{
    for (uint32_t i = 0; i < mem->count; i++) {
        Region *r = &mem->regions[i];
        if (!r->per_lane || copies == mem->copies)
            continue;
        size_t old = (size_t)r->size * mem->copies, bytes = (size_t)r->size * copies;
        r->data = xrealloc(r->data, bytes ? bytes : 1);
        r->shadow = xrealloc(r->shadow, bytes ? bytes : 1);
        if (bytes > old) {
            memset(r->data + old, 0, bytes - old);
            memset(r->shadow + old, 0, bytes - old);
        }
    }
    mem->copies = copies;
}

void mem_free(Memory *mem)
{
    for (uint32_t i = 0; i < mem->count; i++) {
        if (mem->regions[i].borrowed || mem->regions[i].in_slab)
            continue;
        if (!mem->regions[i].host)
            free(mem->regions[i].data);
        free(mem->regions[i].shadow);
    }
    free(mem->regions);
    mem->regions = NULL;
    mem->count = mem->capacity = 0;
}

/* Whether [base, base + size) of space shares a byte with a region of that space. */
bool mem_overlaps(const Memory *mem, int space, uint64_t base, uint64_t size, uint32_t except)
{
    for (uint32_t i = 0; i < mem->count; i++) {
        const Region *r = &mem->regions[i];
        if (i != except && r->space == space && size && r->size && base < r->base + r->size && r->base < base + size)
            return true;
    }
    return false;
}

/* A new zero-filled region (placed only, without bytes, where mem->placed_only); returns its
 * index. Regions of a space never overlap: one that would is ptxrun's bug. Global and constant
 * variables and buffers sit 256 bytes apart, so that running off the end of one is caught;
 * .shared variables and kernel parameters are packed as a GPU packs them (each at its alignment). */
uint32_t mem_add(Memory *mem, const char *name, int space, uint64_t size, uint32_t align, int type, bool per_lane,
                 bool defined)
{
    if (mem->count == mem->capacity) {
        mem->capacity = mem->capacity ? 2 * mem->capacity : 16;
        mem->regions = xrealloc(mem->regions, mem->capacity * sizeof *mem->regions);
    }
    bool apart = space == SPACE_GLOBAL || space == SPACE_CONST;
    if (align < 16 && apart)
        align = 16;
    if (align == 0)
        align = 1;
    /* Every region of the space ends at or below its cursor (mem_resize and mem_move raise it),
     * so one placed from the cursor up overlaps none: no search of the regions (a module of
     * thousands of globals lowered kernel by kernel made that quadratic). */
    uint64_t base = (mem->cursor[space] + align - 1) & ~(uint64_t)(align - 1);
    mem->cursor[space] = base + size + (apart ? 256 : 0);
    Region *r = &mem->regions[mem->count];
    memset(r, 0, sizeof *r);
    r->name = name;
    r->space = (uint8_t)space;
    r->type = (uint8_t)type;
    r->per_lane = per_lane;
    r->base = base;
    r->size = size;
    size_t bytes = (size_t)size * (per_lane ? mem->copies : 1);
    if (mem->placed_only)
        return mem->count++;
    r->data = xcalloc(bytes ? bytes : 1, 1);
    r->shadow = xcalloc(bytes ? bytes : 1, 1);
    if (defined)
        memset(r->shadow, 0xff, bytes);
    return mem->count++;
}

uint32_t mem_add_host(Memory *mem, const char *name, void *data, uint64_t size, bool read_only)
{
    uint64_t lo = (uint64_t)(uintptr_t)data, hi = lo + size;
    for (uint32_t i = 0; i < mem->count; i++) {
        const Region *r = &mem->regions[i];
        if (r->space == SPACE_GLOBAL && (!r->host || r->decl) && size && r->size && lo < r->base + r->size &&
            r->base < hi)
            return UINT32_MAX;            /* a module variable, ptxrun's or placed (Memory.place) */
    }
    /* Views of the caller's memory that share bytes (an array and a slice of it) become one
     * region over all of them, read-only if one is (a store to bytes the process may not write
     * must stay a fault); shadows made go with it. */
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t i = 0; i < mem->count; i++) {
            const Region *r = &mem->regions[i];
            if (r->host && r->space == SPACE_GLOBAL && lo < r->base + r->size && r->base < hi &&
                (r->base < lo || r->base + r->size > hi)) {
                lo = r->base < lo ? r->base : lo;
                hi = r->base + r->size > hi ? r->base + r->size : hi;
                grew = true;
            }
        }
    }
    uint8_t *shadow = NULL;
    for (uint32_t i = 0; i < mem->count;) {
        Region *r = &mem->regions[i];
        if (!(r->host && r->space == SPACE_GLOBAL && lo < r->base + r->size && r->base < hi)) {
            i++;
            continue;
        }
        if (r->shadow) {
            if (!shadow)
                shadow = memset(xmalloc(hi - lo + 1), 0xff, hi - lo);
            memcpy(shadow + (r->base - lo), r->shadow, r->size);
            free(r->shadow);
        }
        read_only = read_only || r->read_only;
        memmove(r, r + 1, (mem->count - i - 1) * sizeof *r);
        mem->count--;
        mem->last = 0;
    }
    if (mem->count == mem->capacity) {
        mem->capacity = mem->capacity ? 2 * mem->capacity : 16;
        mem->regions = xrealloc(mem->regions, mem->capacity * sizeof *mem->regions);
    }
    Region *r = &mem->regions[mem->count];
    memset(r, 0, sizeof *r);
    r->name = name;
    r->space = SPACE_GLOBAL;
    r->type = TYPE_B8;
    r->is_buffer = true;
    r->host = true;
    r->read_only = read_only;
    r->base = lo;
    r->size = hi - lo;
    r->data = (uint8_t *)(uintptr_t)lo;
    r->shadow = shadow;
    return mem->count++;
}

uint32_t mem_add_const_host(Memory *mem, const char *name, void *data, uint64_t size, uint32_t align)
{
    bool placed_only = mem->placed_only;
    mem->placed_only = true;              /* placed, no bytes of its own */
    uint32_t i = mem_add(mem, name, SPACE_CONST, size, align, TYPE_B8, false, true);
    mem->placed_only = placed_only;
    Region *r = &mem->regions[i];
    r->host = true;
    r->data = data;
    return i;
}

/* Gives a region (the last of its space) a new size; new bytes are zero and undefined. */
void mem_resize(Memory *mem, uint32_t index, uint64_t size)
{
    Region *r = &mem->regions[index];
    if (r->per_lane || mem_overlaps(mem, r->space, r->base, size, index))
        BUG("region '%s' cannot grow to %llu bytes", r->name ? r->name : "?", (unsigned long long)size);
    mem_shadow(mem, r);
    r->data = xrealloc(r->data, size ? size : 1);
    r->shadow = xrealloc(r->shadow, size ? size : 1);
    if (size > r->size) {
        memset(r->data + r->size, 0, size - r->size);
        memset(r->shadow + r->size, 0, size - r->size);
    }
    r->size = size;
    if (mem->cursor[r->space] < r->base + size)
        mem->cursor[r->space] = r->base + size;
}

/* Gives a region a new address in its space (the reserved .shared bytes follow the dynamic
 * block when it grows); its bytes stay as they are. */
void mem_move(Memory *mem, uint32_t index, uint64_t base)
{
    Region *r = &mem->regions[index];
    if (mem_overlaps(mem, r->space, base, r->size, index))
        BUG("region '%s' cannot move to 0x%llx", r->name ? r->name : "?", (unsigned long long)base);
    r->base = base;
    if (mem->cursor[r->space] < base + r->size)
        mem->cursor[r->space] = base + r->size;
}

void mem_all_defined(Memory *mem, uint32_t index)
{
    Region *r = &mem->regions[index];
    if (r->space != SPACE_GLOBAL || r->per_lane || r->replicas)
        BUG("region '%s' cannot go without shadow bytes", r->name ? r->name : "?");
    free(r->shadow);
    r->shadow = NULL;
}

uint8_t *mem_shadow(Memory *mem, Region *r)
{
    if (r->shadow)
        return r->shadow;
    if (mem->track)
        return r->shadow = gridtrack_shadow(mem->track, (uint32_t)(r - mem->regions), r->size);
    r->shadow = xmalloc(r->size + 1);
    memset(r->shadow, 0xff, r->size);
    return r->shadow;
}

/* Gives every thread's copy of a per-thread region `size` bytes (more than now), the new ones
 * undefined, after its bytes (down: before them, the region's base moving down by as many, so
 * that its end stays where it is). Each copy keeps its bytes at their addresses. False if all
 * copies together would pass the limit on one variable. */
static bool grow_per_lane(Memory *mem, uint32_t index, uint64_t size, bool down)
{
    Region *r = &mem->regions[index];
    if (!r->per_lane || size <= r->size)
        return true;
    if (size > MAX_VARIABLE_BYTES / (mem->copies ? mem->copies : 1) || (down && size - r->size > r->base))
        return false;
    size_t bytes = (size_t)size * mem->copies, at = down ? (size_t)(size - r->size) : 0;
    uint8_t *data = xcalloc(bytes ? bytes : 1, 1), *shadow = xcalloc(bytes ? bytes : 1, 1);
    for (uint32_t t = 0; t < mem->copies; t++) {
        memcpy(data + (size_t)t * size + at, r->data + (size_t)t * r->size, r->size);
        memcpy(shadow + (size_t)t * size + at, r->shadow + (size_t)t * r->size, r->size);
    }
    if (!r->in_slab)                   /* a gang's CTA: its old bytes are its slab's */
        free(r->data), free(r->shadow);
    r->data = data, r->shadow = shadow, r->in_slab = false;
    if (down)
        r->base -= size - r->size;
    r->size = size;
    return true;
}

bool mem_grow_per_lane(Memory *mem, uint32_t index, uint64_t size)
{
    return grow_per_lane(mem, index, size, false);
}

bool mem_grow_per_lane_down(Memory *mem, uint32_t index, uint64_t size)
{
    return grow_per_lane(mem, index, size, true);
}

/* The bytes at address in one thread's copy of a per-thread region; NULL if outside it. */
uint8_t *mem_thread_bytes(Memory *mem, uint32_t index, uint32_t thread, uint64_t address, uint64_t size,
                          uint8_t **shadow)
{
    Region *r = &mem->regions[index];
    if (address < r->base || address - r->base > r->size || r->size - (address - r->base) < size)
        return NULL;
    uint64_t offset = address - r->base + (r->per_lane ? (uint64_t)thread * r->size : 0);
    *shadow = r->shadow + offset;
    return r->data + offset;
}

Region *mem_named(Memory *mem, const char *name, int space)
{
    for (uint32_t i = 0; i < mem->count; i++)
        if (mem->regions[i].name == name && (space < 0 || mem->regions[i].space == space))
            return &mem->regions[i];
    for (uint32_t i = 0; i < mem->count; i++)     /* names from JSON are not interned */
        if (mem->regions[i].name && strcmp(mem->regions[i].name, name) == 0 &&
            (space < 0 || mem->regions[i].space == space))
            return &mem->regions[i];
    return NULL;
}

uint64_t mem_generic(int space, uint64_t address)
{
    return address + window(space);
}

/* Splits a generic address into a space and an address in it. */
int mem_space_of(uint64_t generic, uint64_t *address)
{
    static const int spaces[] = { SPACE_SHARED, SPACE_LOCAL, SPACE_CONST, SPACE_PARAM };
    for (size_t i = 0; i < COUNT_OF(spaces); i++) {
        uint64_t w = window(spaces[i]);
        if (generic >= w && generic - w < MEM_WINDOW_SIZE) {
            *address = generic - w;
            return spaces[i];
        }
    }
    *address = generic;
    return SPACE_GLOBAL;
}

static bool contains(const Region *r, int space, uint64_t address, uint64_t size)
{
    return r->space == space && address >= r->base && address - r->base <= r->size &&
           r->size - (address - r->base) >= size;
}

static Region *find(Memory *mem, int space, uint64_t address, uint64_t size)
{
    if (mem->last < mem->count && contains(&mem->regions[mem->last], space, address, size))
        return &mem->regions[mem->last];
    for (uint32_t i = 0; i < mem->count; i++) {
        if (contains(&mem->regions[i], space, address, size)) {
            mem->last = i;
            return &mem->regions[i];
        }
    }
    return NULL;
}

/* find, or where the memory has a resolver (and the grid runs on one thread), the region it adds
 * for an address of .global outside every region (the library's process memory). */
static Region *find_or_resolve(Memory *mem, int space, uint64_t address, uint64_t size, bool store)
{
    Region *r = find(mem, space, address, size);
    if (!r && space == SPACE_GLOBAL && mem->resolve && !mem->track &&
        mem->resolve(mem->resolve_context, mem, address, size, store))
        r = find(mem, space, address, size);
    return r;
}

const uint8_t *mem_peek(Memory *mem, uint32_t thread, uint64_t generic, uint64_t *available, const uint8_t **shadow)
{
    uint64_t address;
    int space = mem_space_of(generic, &address);
    Region *r = find_or_resolve(mem, space, address, 1, false);
    if (!r)
        return NULL;
    uint64_t offset = address - r->base + (r->per_lane ? (uint64_t)thread * r->size : 0);
    *available = r->size - (address - r->base);
    *shadow = mem_shadow(mem, r) + offset;
    return r->data + offset;
}

/* The region of space nearest to address (an address in the space), or NULL when it has none. */
static const Region *nearest_region(const Memory *mem, int space, uint64_t address)
{
    const Region *best = NULL;
    uint64_t best_distance = UINT64_MAX;
    for (uint32_t i = 0; i < mem->count; i++) {
        const Region *r = &mem->regions[i];
        if (r->space != space)
            continue;
        uint64_t d = address < r->base ? r->base - address : address >= r->base + r->size ? address - (r->base + r->size) + 1 : 0;
        if (d < best_distance) {
            best_distance = d;
            best = r;
        }
    }
    return best;
}

/* ---- execution ---- */

/* False (after a fault) when an access of size bytes at address is not size-aligned: a scalar is
 * aligned to its size, a .v2/.v4 vector to the whole vector (PTX ISA, Addresses as Operands).
 * Every window is aligned far beyond any access, so a generic address is as aligned as the
 * space address it stands for. */
static bool aligned(Warp *w, const XInstr *x, int lane, uint64_t address, unsigned size, bool store)
{
    if (address % size == 0)
        return true;
    uint32_t pc = (uint32_t)(x - w->prog->code);
    report_fault(w, pc, "lane %d (pc %u): '%s' %s %u bytes at 0x%llx, which is not %u-byte aligned", lane, pc,
               x->ir->mnemonic, store ? "writes" : "reads", size, (unsigned long long)address, size);
    return false;
}

/* A conflict stops the CTA at once (grid.c then runs the grid one CTA after another). */
static void give_up(Warp *w)
{
    w->block->abandoned = true;
    w->faulted = true;
}

/* The shadow of bytes a load reads from a region without shadow bytes: all defined. */
#define FF16 "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
static const char ALL_DEFINED[] = FF16 FF16 FF16 FF16;
#undef FF16

/* The bytes of lane's access, after every check; NULL after a fault. */
uint8_t *mem_locate(Warp *w, const XInstr *x, int lane, uint64_t address, unsigned size, bool store,
                       uint8_t **shadow)
{
    return mem_locate_in(w, x, lane, x->space, address, size, store, shadow);
}

uint8_t *mem_locate_in(Warp *w, const XInstr *x, int lane, int given, uint64_t address, unsigned size, bool store,
                       uint8_t **shadow)
{
    Memory *mem = &w->block->mem;
    int space = given;
    uint64_t in_space = address;
    if (space == SPACE_NONE)
        space = mem_space_of(address, &in_space);
    uint32_t pc = (uint32_t)(x - w->prog->code);
    if (!aligned(w, x, lane, address, size, store))
        return NULL;
    if (space == SPACE_SHARED && in_space >> MEM_CLUSTER_RANK_SHIFT && !(mem = cluster_memory(w, x, lane, address, &in_space)))
        return NULL;                           /* another CTA's memory (cluster.c), or a fault */
    Region *r = find_or_resolve(mem, space, in_space, size, store);
    if (!r) {
        /* The nearest region in the form of the address: generic, or an address in its space. */
        const Region *best = nearest_region(mem, space, in_space);
        const char *what = store ? "writes" : "reads";
        if (space == SPACE_GLOBAL && mem->resolve && !mem->track) {
            report_fault(w, pc, "lane %d (pc %u): '%s' %s %u bytes at 0x%llx (%s), where the process has no memory "
                         "it may %s", lane, pc, x->ir->mnemonic, what, size, (unsigned long long)address,
                         mem_space_name(space), store ? "write" : "read");
            return NULL;
        }
        if (!best) {
            report_fault(w, pc, "lane %d (pc %u): '%s' %s %u bytes at 0x%llx (%s), outside every region; there is "
                         "no %s memory", lane, pc, x->ir->mnemonic, what, size, (unsigned long long)address,
                         mem_space_name(space), mem_space_name(space));
            return NULL;
        }
        bool generic = given == SPACE_NONE;
        uint64_t lo = generic ? mem_generic(space, best->base) : best->base;
        uint64_t hi = generic ? mem_generic(space, best->base + best->size) : best->base + best->size;
        bool empty_dynamic = best->name && !strcmp(best->name, "dynamic .shared") && best->size == 0;
        report_fault(w, pc, "lane %d (pc %u): '%s' %s %u bytes at 0x%llx (%s), outside every region; the nearest is "
                     "'%s' at 0x%llx..0x%llx%s", lane, pc, x->ir->mnemonic, what, size, (unsigned long long)address,
                     mem_space_name(space), best->name ? best->name : "?", (unsigned long long)lo,
                     (unsigned long long)hi,
                     empty_dynamic ? ", which is empty: the kernel's extern .shared arrays take their bytes from "
                                     "--shared BYTES (the lanes file's \"dynamic_shared\")" : "");
        return NULL;
    }
    if (r->replicas) {
        report_fault(w, pc, "lane %d (pc %u): '%s' %s 0x%llx in '%s', a multimem address: only multimem.* may "
                     "access it (the PTX ISA leaves anything else undefined)", lane, pc, x->ir->mnemonic,
                     store ? "writes" : "reads", (unsigned long long)address, r->name);
        return NULL;
    }
    if (store && (r->space == SPACE_CONST || (r->space == SPACE_PARAM && r->kernel_param) || r->read_only)) {
        report_fault(w, pc, "lane %d (pc %u): '%s' writes to read-only %s memory '%s'", lane, pc, x->ir->mnemonic,
                   mem_space_name(r->space), r->name);
        return NULL;
    }
    uint64_t offset = (in_space - r->base) + (r->per_lane ? (uint64_t)(w->thread_base + (uint32_t)lane) * r->size : 0);
    if (store && r->per_lane && in_space - r->base + size > r->high)
        r->high = in_space - r->base + size;
    if (mem->track && !gridtrack_access(mem, r, offset, size, !store || x->op == OP_ATOM || x->op == OP_RED, store)) {
        give_up(w);
        return NULL;
    }
    if (!r->shadow && !store && size <= sizeof ALL_DEFINED - 1)
        *shadow = (uint8_t *)ALL_DEFINED;      /* read only */
    else
        *shadow = mem_shadow(mem, r) + offset;
    if (r->async_pending && !store)
        async_read_check(w, pc, lane, *shadow, size);
    return r->data + offset;
}

unsigned mem_locate_copies(Warp *w, const XInstr *x, int lane, uint64_t address, unsigned size, uint8_t **data,
                           uint8_t **shadow)
{
    Memory *mem = &w->block->mem;
    uint64_t in_space = address;
    int space = x->space == SPACE_NONE ? mem_space_of(address, &in_space) : x->space;
    uint32_t pc = (uint32_t)(x - w->prog->code);
    if (!aligned(w, x, lane, address, size, x->op == OP_MULTIMEM_ST))
        return 0;
    Region *r = space == SPACE_GLOBAL ? find(mem, space, in_space, size) : NULL;
    if (!r || !r->replicas) {
        report_fault(w, pc, "lane %d (pc %u): '%s' at 0x%llx (%s%s%s): not a multimem address, which the PTX "
                     "ISA leaves undefined (a lanes-file buffer with \"replicas\" is one)", lane, pc, x->ir->mnemonic,
                     (unsigned long long)address, r ? "in '" : "", r ? r->name : mem_space_name(space), r ? "'" : "");
        return 0;
    }
    uint64_t offset = in_space - r->base;
    uint32_t first = (uint32_t)(r - mem->regions);
    for (unsigned i = 0; i < r->replicas; i++) {
        Region *copy = &mem->regions[first + i];
        if (mem->track && !gridtrack_access(mem, copy, offset, size, x->op != OP_MULTIMEM_ST, x->op != OP_MULTIMEM_LD_REDUCE)) {
            give_up(w);
            return 0;
        }
        data[i] = copy->data + offset;
        shadow[i] = copy->shadow + offset;
    }
    return r->replicas;
}

uint64_t mem_read_bytes(const uint8_t *p, unsigned size)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

void mem_write_bytes(uint8_t *p, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void mem_put(Memory *mem, uint8_t *p, uint8_t *shadow, uint64_t v, uint64_t bits, unsigned size)
{
    uint64_t m = width_mask(8 * size);
    if (((mem_read_bytes(p, size) ^ v) | (mem_read_bytes(shadow, size) ^ bits)) & m)
        mem_changed(mem);
    mem_write_bytes(p, v, size);
    mem_write_bytes(shadow, bits, size);
}

/* The defined bits of a value loaded from size bytes whose shadow is s, extended as the load
 * extends the value: bits above a zero-extended value are defined zeros; above a sign-extended
 * one, copies of the sign bit, defined as it is. */
static uint64_t loaded_dbits(uint64_t s, unsigned size, bool sign)
{
    if (size >= 8)
        return s;
    uint64_t m = width_mask(8 * size);
    bool top_defined = s >> (8 * size - 1) & 1;
    return (s & m) | (sign && !top_defined ? 0 : ~m);
}

/* The lane's address [base + offset], formed in the width of the base register: with a 32-bit
 * register the sum wraps in 32 bits (nvcc folds negative offsets into 32-bit .shared addresses:
 * [%r3+68] with %r3 = buf - 64). */
uint64_t mem_lane_address(const Warp *w, const XInstr *x, int lane)
{
    return (warp_src(w, x->src[0])[lane] + (uint64_t)x->offset) & width_mask(x->addr_bits ? x->addr_bits : 64);
}

/* ---- the whole warp at once ----
 * Most accesses are a warp's lanes reading or writing one array, every one in bounds and
 * aligned. Then one region lookup and one check serve the warp, and the copy is a tight loop
 * of word loads and stores of data and shadow bytes. Whenever anything is unusual (lanes in two
 * regions or spaces, an access that would fault, a store to read-only memory, an unusual size)
 * warp_access declines before changing anything, and the lane-by-lane path below does the
 * access and reports what it finds exactly as it always has. */

/* size bytes at p, little-endian (PTX memory is), as one word where the host allows. */
static inline uint64_t load_word(const uint8_t *p, unsigned size)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint8_t v8;
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    switch (size) {
    case 1: memcpy(&v8, p, 1); return v8;
    case 2: memcpy(&v16, p, 2); return v16;
    case 4: memcpy(&v32, p, 4); return v32;
    case 8: memcpy(&v64, p, 8); return v64;
    default: break;
    }
#endif
    return mem_read_bytes(p, size);
}

static inline void store_word(uint8_t *p, uint64_t v, unsigned size)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint8_t v8 = (uint8_t)v;
    uint16_t v16 = (uint16_t)v;
    uint32_t v32 = (uint32_t)v;
    switch (size) {
    case 1: memcpy(p, &v8, 1); return;
    case 2: memcpy(p, &v16, 2); return;
    case 4: memcpy(p, &v32, 4); return;
    case 8: memcpy(p, &v, 8); return;
    default: break;
    }
#endif
    mem_write_bytes(p, v, size);
}


/* The copy itself, lane by lane, lowest lane first (overlapping stores end as on the slow
 * path). Lane l's access starts at byte address[l] + adjust + l * copy of the region: adjust
 * takes a lane's address to the region's start (and to the warp's copies of a per-thread
 * region, copy bytes apart). Inlined for whole warps (full) of 4 and 8 bytes, so the word
 * loads and stores are single instructions and the loops have no tests. */
static inline void warp_copy(Warp *w, const XInstr *x, bool full, uint32_t mask, const uint64_t *address,
                             uint64_t adjust, uint64_t copy, const Region *r, unsigned size)
{
    uint8_t *data = r->data, *shadow = r->shadow;
    unsigned count = x->vec_count;
    if (x->op == OP_ST && count == 1) {
        const uint64_t *v = warp_src(w, x->vec[0]), *bits = w->bits[x->vec[0]];
        uint32_t defined = w->defined[x->vec[0]];
        for (int l = 0; l < WARP_SIZE; l++) {
            if (!full && !(mask >> l & 1))
                continue;
            uint64_t at = address[l] + adjust + (uint64_t)l * copy;
            store_word(data + at, v[l], size);
            store_word(shadow + at, (defined >> l & 1) ? ~0ull : bits[l], size);
        }
        mem_changed(&w->block->mem);       /* the fast path: counted without comparing (spin.c) */
        return;
    }
    if (x->op == OP_ST) {
        for (uint32_t k = mask; k; k &= k - 1) {
            int l = __builtin_ctz(k);
            for (unsigned e = 0; e < count; e++) {
                uint32_t row = x->vec[e];
                if (row == NO_SLOT)
                    continue;                    /* '_' in a vector */
                uint64_t at = address[l] + adjust + (uint64_t)l * copy + e * size;
                mem_put(&w->block->mem, data + at, shadow + at, w->val[row][l], warp_dbits(w, row, l), size);
            }
        }
        return;
    }
    /* A load only writes registers, so it may go element by element; an element written twice
     * ({r, r}) keeps the last, as lane by lane. */
    unsigned shift = 64 - 8 * size;
    uint64_t keep = width_mask(x->dst_bits);
    bool sign = x->cls == 's' && size < 8;
    for (unsigned e = 0; e < count; e++) {
        uint32_t row = x->vec[e];
        if (row == NO_SLOT)
            continue;
        uint64_t *d = w->val[row];
        uint64_t start = adjust + e * size, whole = width_mask(8 * size);
        uint64_t partial_bits[WARP_SIZE];
        uint32_t set = 0, partial = 0;
        for (int l = 0; l < WARP_SIZE; l++) {
            if (!full && !(mask >> l & 1))
                continue;
            uint64_t at = address[l] + start + (uint64_t)l * copy;
            uint64_t v = load_word(data + at, size), sw = shadow ? load_word(shadow + at, size) : whole;
            if (sign)
                v = (uint64_t)((int64_t)(v << shift) >> shift);
            d[l] = v & keep;
            set |= (uint32_t)(sw == whole) << l;
            partial |= (uint32_t)(sw != whole && sw != 0) << l;
            partial_bits[l] = sw;
        }
        warp_define(w, row, mask, set);
        for (uint32_t k = partial; k; k &= k - 1) {
            int l = __builtin_ctz(k);
            warp_define_bits(w, row, l, loaded_dbits(partial_bits[l], size, sign), x->dst_bits);
        }
    }
}

/* Each lane's address [base + offset] (lane_address) into address[], the lowest and highest
 * of them; false when one is not aligned to total bytes. Inlined with full (mask is
 * ALL_LANES), the loop has no tests. */
static inline bool lane_addresses(const Warp *w, const XInstr *x, bool full, uint32_t mask, uint64_t total,
                                  uint64_t *address, uint64_t *low_out, uint64_t *high_out)
{
    const uint64_t *base = warp_src(w, x->src[0]);
    uint64_t offset = (uint64_t)x->offset, wrap = width_mask(x->addr_bits ? x->addr_bits : 64);
    uint64_t low = UINT64_MAX, high = 0, bits = 0;
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!full && !(mask >> l & 1))
            continue;
        uint64_t a = (base[l] + offset) & wrap;
        address[l] = a;
        bits |= a;
        low = a < low ? a : low;
        high = a > high ? a : high;
    }
    *low_out = low;
    *high_out = high;
    return (bits & (total - 1)) == 0;
}

/* ld/st of the lanes of mask (addresses defined) in one go; false, having changed nothing,
 * when the warp's access needs the lane-by-lane path: the lanes' accesses do not all lie in
 * one region, one is misaligned (for a vector: to the whole vector, which implies each
 * element), a store meets read-only memory, or the size is not 1, 2, 4 or 8 bytes. */
static bool warp_access(Warp *w, const XInstr *x, uint32_t mask, unsigned size)
{
    uint64_t total = (uint64_t)size * x->vec_count;
    if (!mask || size > 8 || (size & (size - 1)) || (total & (total - 1)))
        return false;
    uint64_t address[WARP_SIZE], low, high;
    if (!(mask == ALL_LANES ? lane_addresses(w, x, true, ALL_LANES, total, address, &low, &high)
                            : lane_addresses(w, x, false, mask, total, address, &low, &high)))
        return false;
    int space = x->space;
    uint64_t low_in = low, high_in = high;
    if (space == SPACE_NONE) {
        space = mem_space_of(low, &low_in);
        /* Both ends in one window put every lane in it; global addresses lie below every window. */
        if (mem_space_of(high, &high_in) != space || (space == SPACE_GLOBAL && high >= MEM_SHARED_WINDOW))
            return false;
    }
    if (high_in - low_in > UINT64_MAX - total)
        return false;
    Region *r = find(&w->block->mem, space, low_in, high_in - low_in + total);
    if (!r || r->replicas || r->async_pending ||
        (x->op == OP_ST && (r->space == SPACE_CONST || (r->space == SPACE_PARAM && r->kernel_param) || r->read_only)))
        return false;
    /* From a lane's address to its space address (low_in - low: minus the window), to the
     * region's start, to the lane's own copy of a per-thread region. */
    uint64_t copy = r->per_lane ? r->size : 0;
    uint64_t adjust = (low_in - low) - r->base + (uint64_t)w->thread_base * copy;
    if (x->op == OP_ST && r->per_lane && high_in - r->base + total > r->high)
        r->high = high_in - r->base + total;
    if (w->block->mem.track)
        for (uint32_t k = mask; k; k &= k - 1)
            if (!gridtrack_access(&w->block->mem, r, address[__builtin_ctz(k)] + adjust, total, x->op != OP_ST, x->op == OP_ST)) {
                give_up(w);
                return true;
            }
    if (x->op == OP_ST)
        mem_shadow(&w->block->mem, r);         /* a region without one gets shadow bytes */
    if (mask == ALL_LANES && size == 4)           /* the common case, compiled on its own */
        warp_copy(w, x, true, ALL_LANES, address, adjust, copy, r, 4);
    else if (mask == ALL_LANES && size == 8)
        warp_copy(w, x, true, ALL_LANES, address, adjust, copy, r, 8);
    else
        warp_copy(w, x, false, mask, address, adjust, copy, r, size);
    return true;
}

/* An access through an undefined address is a fault: false after reporting it. */
bool mem_address_defined(Warp *w, const XInstr *x, uint32_t mask, uint32_t pc)
{
    uint32_t undefined = mask & ~w->defined[x->src[0]];
    if (undefined)
        report_fault(w, pc, "lane %d (pc %u): '%s' uses an undefined address", __builtin_ctz(undefined), pc,
                     x->ir->mnemonic);
    return !undefined;
}

static void memory_access(Warp *w, const XInstr *x, uint32_t mask)
{
    unsigned size = (unsigned)(x->bits + 7) / 8;
    bool store = x->op == OP_ST;
    w->spin_read |= !store;                 /* a loop that reads memory may spin on it (spin.c) */
    uint32_t pc = (uint32_t)(x - w->prog->code);
    if (!mem_address_defined(w, x, mask, pc))
        return;
    if (warp_access(w, x, mask, size))
        return;
    /* Lane by lane: every check for each lane, the first failure a fault. */
    bool sign = x->cls == 's';
    for (uint32_t k = mask; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint64_t address = mem_lane_address(w, x, l);
        if (x->vec_count > 1 && !aligned(w, x, l, address, size * x->vec_count, store))
            return;
        for (unsigned e = 0; e < x->vec_count; e++) {
            uint8_t *shadow;
            uint8_t *p = mem_locate(w, x, l, address + e * size, size, store, &shadow);
            if (!p)
                return;
            uint32_t row = x->vec[e];
            if (row == NO_SLOT)
                continue;                    /* '_' in a vector */
            if (store) {
                mem_put(&w->block->mem, p, shadow, w->val[row][l], warp_dbits(w, row, l), size);
            } else {
                uint64_t v = mem_read_bytes(p, size);
                if (sign && size < 8) {
                    unsigned shift = 64 - 8 * size;
                    v = (uint64_t)((int64_t)(v << shift) >> shift);
                }
                w->val[row][l] = v & width_mask(x->dst_bits);
                warp_define_bits(w, row, l, loaded_dbits(mem_read_bytes(shadow, size), size, sign && size < 8), x->dst_bits);
            }
        }
    }
}

/* cvta.space: space address -> generic; cvta.to.space: generic -> space address. */
static void convert_address(Warp *w, const XInstr *x, uint32_t mask)
{
    const uint64_t *a = warp_src(w, x->src[0]);
    uint64_t *d = w->val[x->dst];
    uint64_t shift = window(x->space);
    for (int l = 0; l < WARP_SIZE; l++)
        if (mask >> l & 1)
            d[l] = (x->to_space ? a[l] - shift : a[l] + shift) & width_mask(x->bits);
    warp_define(w, x->dst, mask, w->defined[x->src[0]]);
}

/* isspacep.space p, a: whether each lane's generic address a is in the space's window. The kernel parameters' window
 * lies in the global one (PTX ISA, Generic Addressing): .global is everything outside the .shared, .local and .const
 * windows; .shared::cluster, the shared memory of its cluster's CTAs (cluster.c). p is undefined where a is, in a bit. */
static void space_test(Warp *w, const XInstr *x, uint32_t mask)
{
    const uint64_t *a = warp_src(w, x->src[0]);
    uint32_t yes = 0;
    for (uint32_t k = mask; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint64_t in_space;
        int space = mem_space_of(a[l], &in_space);
        bool in = x->space == SPACE_GLOBAL ? space != SPACE_SHARED && space != SPACE_LOCAL && space != SPACE_CONST
                 : space == x->space && (space != SPACE_SHARED || cluster_holds(w->block, in_space, x->cluster_space));
        yes |= (uint32_t)in << l;
    }
    w->pred[x->dst] = (w->pred[x->dst] & ~mask) | yes;
    w->pred_defined[x->dst] = (w->pred_defined[x->dst] & ~mask) | warp_defined_in(w, x->src[0], mask, ~0ull);
}

/* ldu and discard reach global memory only: a generic address elsewhere is a fault (false). */
static bool global_only(Warp *w, const XInstr *x, uint32_t mask)
{
    if (x->space != SPACE_NONE)
        return true;
    for (uint32_t k = mask; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint64_t address = mem_lane_address(w, x, l), in_space;
        int space = mem_space_of(address, &in_space);
        if (space != SPACE_GLOBAL && space != SPACE_PARAM) {
            uint32_t pc = (uint32_t)(x - w->prog->code);
            report_fault(w, pc, "lane %d (pc %u): '%s' of a %s address (0x%llx): it reaches .global memory only", l, pc,
                         x->ir->mnemonic, mem_space_name(space), (unsigned long long)address);
            return false;
        }
    }
    return true;
}

/* discard.global.L2 [a], 128: the 128 bytes at a, 128-byte aligned, become undefined (PTX ISA:
 * reads then give an unstable indeterminate value until the bytes are written). */
static void discard(Warp *w, const XInstr *x, uint32_t mask)
{
    enum { DISCARD_BYTES = 128 };
    for (uint32_t k = mask; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint8_t *shadow;
        if (!mem_locate(w, x, l, mem_lane_address(w, x, l), DISCARD_BYTES, true, &shadow))
            return;
        memset(shadow, 0, DISCARD_BYTES);
    }
}

void mem_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    uint32_t pc = (uint32_t)(x - w->prog->code);
    switch (x->op) {
    case OP_CVTA:
        convert_address(w, x, mask);
        break;
    case OP_ISSPACEP:
        space_test(w, x, mask);
        break;
    case OP_LDU:
    case OP_DISCARD:
        if (!mem_address_defined(w, x, mask, pc) || !global_only(w, x, mask))
            break;
        if (x->op == OP_DISCARD)
            discard(w, x, mask);
        else
            memory_access(w, x, mask);
        break;
    default:
        memory_access(w, x, mask);
    }
}
