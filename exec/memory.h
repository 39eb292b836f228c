/* memory.h: a run's memory (mem.c): its regions in every state space and where each lives
 * (the generic address windows), their bytes and the shadow of which bits are defined, the
 * caller's own memory as regions (mem_add_host); and a grid on threads' record of who touched
 * which .global word (gridtrack.c). The Block owns it; it knows nothing of programs or warps. */
#ifndef PTXRUN_MEMORY_H
#define PTXRUN_MEMORY_H

#include <stdatomic.h>

#include "ir.h"

/* Generic addresses: global memory from MEM_GLOBAL_BASE; every other space in a window. */
#define MEM_GLOBAL_BASE   0x0000100000000000ull
#define MEM_SHARED_WINDOW 0x0200000000000000ull
#define MEM_LOCAL_WINDOW  0x0300000000000000ull
#define MEM_CONST_WINDOW  0x0400000000000000ull
#define MEM_PARAM_WINDOW  0x0500000000000000ull
#define MEM_WINDOW_SIZE   0x0000100000000000ull
#define MEM_FUNC_BASE     0x0000f00000000000ull   /* function "addresses" for indirect calls */
#define MEM_ALLOCA_TOP    0x20000000u             /* .local: alloca's stack grows down from here */
/* .shared::cluster addresses (cluster.c): below 1 << MEM_CLUSTER_RANK_SHIFT, the CTA's own .shared;
 * (rank + 1) << MEM_CLUSTER_RANK_SHIFT plus an offset, the .shared of the CTA of that cluster rank. */
#define MEM_CLUSTER_RANK_SHIFT 27

typedef struct Region {
    const char *name;          /* variable, parameter or buffer */
    uint8_t space;             /* Space */
    uint8_t type;              /* element type, for printing buffers */
    bool per_lane;             /* .local: one copy per lane */
    bool is_buffer;            /* from the lanes file: printed with the output */
    bool kernel_param;         /* read-only */
    uint16_t replicas;         /* a multicast object (multimem.*): its copies, this region and the
                                  replicas - 1 regions after it; 0: an ordinary region */
    uint64_t base;             /* address in its space */
    uint64_t size;             /* bytes (per lane for .local) */
    uint8_t *data;
    uint8_t *shadow;           /* each byte's defined bits (0xff: all of them); NULL: every byte
                                * defined, for a buffer given whole until something writes it
                                * (mem_all_defined, mem_shadow) */
    bool borrowed;             /* data and shadow belong to another Memory (grid.c's workers) */
    bool host;                 /* data is the caller's memory at base, its host address (mem_add_host):
                                * never freed here; the shadow, when made, is this Memory's */
    bool read_only;            /* the caller's memory that may not be written (mem_add_host) */
    bool in_slab;             /* data and shadow are pieces of a slab (slab.h, a gang's CTA): never freed here */
    const void *decl;          /* a static variable's declaration (layout.c): the same variable in
                                  every kernel's program of the module, and only it */
    uint64_t high;             /* per-lane: no thread has written at or past this offset since
                                * the CTA began (what a new CTA must make undefined again) */
    uint32_t async_pending;    /* asynchronous writes on their way into it (exec/async.h) */
} Region;

/* A grid on several threads (grid.c, gridtrack.c): for each 4-byte word of each .global region,
 * the CTA (numbered from 1) that wrote it and the one that read it (TRACK_MANY: several), and
 * the old bytes of each word written. A word one CTA writes and another reads or writes could
 * come out otherwise than one CTA after another: `conflict` says so, .global is put back and
 * the grid runs again on one thread. */
#define TRACK_MANY 0xffffffffu    /* not an enum: beyond int */
typedef struct TrackChunk TrackChunk;
typedef struct GridTrack {
    uint32_t count;                     /* regions */
    _Atomic(TrackChunk *) **chunks;     /* per region, its chunks (NULL until touched); NULL: not .global */
    _Atomic(uint8_t *) *shadows;        /* per region, shadow bytes a worker made for a region without (mem_shadow) */
    uint64_t *slots;                    /* per region, how many chunks */
    atomic_uint_fast64_t bytes;         /* allocated for all this */
    uint64_t budget;                    /* at most: more gives the run up (too_big) */
    atomic_bool too_big;
    atomic_bool conflict;
    atomic_bool stop;                   /* a worker stopped: the others give up too */
} GridTrack;

/* The .shared bytes reserved for the system in each CTA (an H100 reserves 1 KiB), in two halves
 * %reserved_smem_offset_0 and _1 point to (cooperative groups keep their scratch in the second). */
enum { RESERVED_SMEM_BYTES = 1024, RESERVED_SMEM_ALIGN = 16 };

/* Memory limits: one variable (all threads' copies of a .local) and all of them together. */
enum { MAX_VARIABLE_BYTES = 256 << 20, MAX_MEMORY_BYTES = 1 << 30 };

typedef struct Memory {
    Region *regions;
    uint32_t count, capacity;
    uint32_t copies;           /* threads with a copy of each per-lane region (32 per warp) */
    uint64_t cursor[SPACE_SAMPLER + 1];  /* next free address of each space */
    uint32_t last;             /* the region found last: the next access is usually there too */
    struct GridTrack *track;   /* a grid on several threads: who touched which global word */
    uint32_t track_cta;        /* and the CTA this memory's accesses are made by, from 1 */
    bool placed_only;          /* regions are placed, never read or written (--check): no bytes */
    /* An access to .global outside every region asks this, when set and the grid runs on one
     * thread, before it is a fault: it may add a region holding the address (mem_add_host) and
     * return true (the library's ptx_run, whose caller gives no buffer sizes). */
    bool (*resolve)(void *context, struct Memory *mem, uint64_t address, uint64_t size, bool store);
    void *resolve_context;
    /* When set (the CUDA shims, whose __device__ variable's device address is a host address),
     * lowering asks it where each static .global and .const variable's bytes live: size bytes
     * the caller keeps (zeroed and *fresh set when new: the initializer is written then, never
     * again), or NULL for ptxrun's own. A .global variable placed lives at that host address (a
     * host region); a .const one keeps its .const address, its bytes the caller's. decl: the
     * variable's declaration, the same for every kernel of the module. */
    void *(*place)(void *context, const void *decl, const char *name, int space, uint64_t size, uint32_t align,
                   bool *fresh);
    void *place_context;
    /* Counts every change another thread could see (gang.c): the Block's own counter while it
     * runs alone, its gang's while CTAs run together. Every write of memory that changes a byte
     * or its definedness moves it (mem_put; mem_changed, where a write is counted without
     * comparing: a warp's whole st, sust); a warp spinning on memory waits for it (spin.c). */
    uint64_t *epoch;
} Memory;

/* Something another thread could see changed in mem (gang.c's rule for spinning warps). */
static inline void mem_changed(Memory *mem)
{
    if (mem->epoch)
        ++*mem->epoch;
}

enum { MEM_MAX_REPLICAS = 16 };    /* the most copies a multicast object has */

/* mem.c */
void mem_init(Memory *mem);
void mem_free(Memory *mem);
void mem_set_copies(Memory *mem, uint32_t copies);     /* threads with a copy of each per-lane region */
uint32_t mem_add(Memory *mem, const char *name, int space, uint64_t size, uint32_t align, int type, bool per_lane,
                 bool defined);
/* The caller's `size` bytes at data as a .global region at its own address (the library's buffers),
 * every byte defined; a region of the caller's memory it overlaps is merged into it. UINT32_MAX
 * when the bytes overlap one of ptxrun's own .global regions (a module variable). */
uint32_t mem_add_host(Memory *mem, const char *name, void *data, uint64_t size, bool read_only);
/* The caller's size bytes at data as a .const region at ptxrun's next .const address (a placed
 * .const variable): never freed here, every byte defined. */
uint32_t mem_add_const_host(Memory *mem, const char *name, void *data, uint64_t size, uint32_t align);
Region *mem_named(Memory *mem, const char *name, int space);  /* space -1: any */
bool mem_overlaps(const Memory *mem, int space, uint64_t base, uint64_t size, uint32_t except);
void mem_resize(Memory *mem, uint32_t index, uint64_t size);
/* A .global region every byte of which is defined keeps no shadow bytes until written (a
 * buffer the kernel only reads, or never touches, costs only its data); mem_shadow makes them,
 * all 0xff, for a write (on a grid's threads, one for all, through GridTrack). */
void mem_all_defined(Memory *mem, uint32_t index);
uint8_t *mem_shadow(Memory *mem, Region *r);
void mem_move(Memory *mem, uint32_t index, uint64_t base);
bool mem_grow_per_lane(Memory *mem, uint32_t index, uint64_t size);
bool mem_grow_per_lane_down(Memory *mem, uint32_t index, uint64_t size);   /* its end stays */
uint8_t *mem_thread_bytes(Memory *mem, uint32_t index, uint32_t thread, uint64_t address, uint64_t size,
                          uint8_t **shadow);
/* The bytes at a generic address as thread sees them, and how many of its region's follow
 * (*available, from the address on); NULL when no region holds the address. */
const uint8_t *mem_peek(Memory *mem, uint32_t thread, uint64_t generic, uint64_t *available, const uint8_t **shadow);
uint64_t mem_generic(int space, uint64_t address);
const char *mem_space_name(int space);          /* ".global", ..., "generic" */
int mem_space_of(uint64_t generic, uint64_t *address);      /* a generic address's space and address in it */
uint64_t mem_read_bytes(const uint8_t *p, unsigned size);   /* little-endian */
void mem_write_bytes(uint8_t *p, uint64_t v, unsigned size);
/* Writes v (size bytes) at p and its defined bits at shadow, moving mem's epoch when either changes. */
void mem_put(Memory *mem, uint8_t *p, uint8_t *shadow, uint64_t v, uint64_t bits, unsigned size);

/* gridtrack.c: who touched which .global word in a grid on threads, and the bytes to put back. */
GridTrack *gridtrack_new(const Memory *mem);     /* for every .global region of mem, nobody yet */
void gridtrack_free(GridTrack *t);
bool gridtrack_access(Memory *mem, const Region *r, uint64_t offset, uint64_t size, bool read, bool write);
uint8_t *gridtrack_shadow(GridTrack *t, uint32_t region, uint64_t size);
void gridtrack_end(GridTrack *t, Memory *mem, bool restore);

#endif
