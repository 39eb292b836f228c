/* block.h: a run: the Block (one CTA at a time: its Program, Memory, warps, barriers, images)
 * and its Warps (lanes' registers, predicates, pcs, call stacks); the run's options and what it
 * hands its watchers (ExecOptions, TraceFilter, MatrixView); the warp_* helpers every executor
 * uses; and the loop: warp.c, block.c, grid.c, sync.c, call.c, builtin.c, barrier.c, bounds.c,
 * with report.c (faults, warnings) and trace.c below it. */
#ifndef PTXRUN_BLOCK_H
#define PTXRUN_BLOCK_H

#include <stdatomic.h>
#include <string.h>

#include "slab.h"
#include "program.h"

typedef struct Block Block;
struct Gang;

typedef struct Frame {
    uint32_t return_pc;
    uint32_t call_pc;
    uint32_t callee;
    uint32_t caller_sp;        /* the stack's end before the call */
    uint32_t caller_stack_ptr; /* the stack pointer (alloca's) before the call */
    bool saved;                /* a recursive call: the outer activation's registers were saved */
    size_t saved_at;           /* where, in the lane's save area */
} Frame;

typedef struct SaveArea {      /* one lane's saved activations, for recursion */
    uint8_t *data;
    size_t len, cap;
} SaveArea;

/* Where a lane waits at a synchronising instruction. */
typedef struct Arrival {
    uint32_t pc;
    uint32_t membermask;
    uint64_t since;            /* the step at which the lane arrived */
} Arrival;

/* A block is CUDA's: x and y up to 1024, z up to 64, 1024 threads in all.
 * A grid's extent in each dimension is CUDA's (gridDim.x up to 2^31 - 1, y and z up to 65,535),
 * so it has up to about 2^63 CTAs: a CTA's number (x fastest) is 64 bits (block_cta_count). */
enum { MAX_BLOCK_THREADS = 1024, MAX_BLOCK_Z = 64, MAX_WARPS = MAX_BLOCK_THREADS / WARP_SIZE,
       MAX_GRID_X = 0x7fffffff, MAX_GRID_YZ = 65535, MAX_CLUSTER_CTAS = 16 };

/* One of a CTA's sixteen barriers (bar, barrier) between its arrivals and its completion. */
typedef struct Barrier {
    uint32_t expected;         /* threads it waits for; 0: every non-exited thread of the CTA */
    uint32_t arrived;          /* threads counted so far (sm_6x and below: 32 for each warp's arrival) */
    uint32_t first_pc;         /* the instruction of the first arrival, for reports */
    uint32_t first_warp;       /* and its warp */
    uint32_t warp_pc[MAX_WARPS];   /* 1 + the instruction each warp's lanes arrived from, 0 none */
    uint32_t split_warps;      /* warps whose lanes arrived from different instructions */
    uint8_t red_op;            /* 0 (sync, arrive) or the BARRIER_RED_ operation of its .red */
    uint32_t red_true, red_false;  /* threads whose predicate held, did not hold */
    bool red_undefined;        /* some thread's predicate was undefined */
    uint32_t waiting[MAX_WARPS];   /* lanes of each warp waiting for it */
} Barrier;

/* What --trace shows about one warp-step beyond the instruction: filled only while tracing. */
enum { SOURCE_NONE = -1 };
typedef struct StepTrace {
    int8_t source[WARP_SIZE];  /* shfl: the lane each lane read, SOURCE_NONE if it read none */
    uint32_t own;              /* shfl: lanes out of range (kept their own value, p false) */
    uint32_t undefined;        /* shfl: lanes whose source supplied no defined value */
    uint32_t waiting;          /* lanes that started waiting at a synchronising instruction */
    uint32_t released;         /* lanes released from waiting */
    uint64_t waited_since;     /* the earliest arrival among the released */
    bool exchanged;            /* a shuffle happened */
} StepTrace;

typedef struct Warning {
    uint32_t pc;
    uint32_t lanes;
    const char *what;          /* "undefined branch condition", "undefined membermask", ... */
} Warning;

/* What --trace shows (cli/srcline.c builds it): the steps of the instructions chosen by
 * opcode (--trace-ops) and by line (--trace-lines), and the values of the registers chosen by
 * --regs. Nothing chosen in a kind: every one. */
typedef struct TraceRange {
    uint32_t file;             /* 0: PTX lines; else a CUDA source file, as XInstr.src_file */
    uint32_t first, last;
} TraceRange;

typedef struct TraceFilter {
    uint64_t ops[(OP_COUNT + 63) / 64];   /* bit op: traced */
    bool by_op;
    TraceRange *ranges;
    uint32_t range_count;
    const char *regs;          /* "A,B": only these registers' and predicates' values; NULL: all */
} TraceFilter;

/* One execution of a matrix instruction (mma; wmma.mma) as its whole matrices, for --matrix
 * (ExecOptions.on_matrix): A (m x k), B (k x n), C and D (m x n), each element with its bits,
 * which of them are defined, and where it lives: the lane and the register of the operand's
 * vector ({%a0, %a1}: 0, 1), and its place in that register (low bits first). exec/mmaview.c
 * makes it, only while on_matrix is set; D is the instruction's result, A, B, C what it read. */
typedef struct MatrixElement {
    uint64_t bits;             /* an f16 in the low 16 bits, an 8-, 4- or 1-bit element in the low bits */
    uint64_t dbits;            /* its defined bits (all of the element's: defined) */
    uint8_t lane, reg, part;
    uint8_t absent;            /* mma.sp's A: MATRIX_NOT_KEPT, MATRIX_UNPLACED (0: an element held) */
} MatrixElement;
/* An element of mma.sp's dense A that no lane holds: one its row's metadata does not keep (zero in
 * the product), or one of a chunk whose metadata is undefined, or a value the PTX ISA leaves
 * undefined (where the chunk's kept elements go is unknown). */
enum { MATRIX_NOT_KEPT = 1, MATRIX_UNPLACED = 2 };
/* mma.sp: the metadata of one chunk of a row of A (MatrixView.meta) */
enum { MATRIX_NO_LANE = 0xff };
typedef struct MatrixMeta {
    uint8_t lane, bit;         /* its nibble: bits bit..bit+3 of the metadata register in lane
                                * (MATRIX_NO_LANE: none, a selector the ISA leaves undefined) */
    uint8_t nibble, defined;   /* the nibble, its defined bits (0xf: all) */
    bool valid;                /* all defined, a value the ISA defines: cols are the kept columns */
    uint8_t cols[4];           /* the dense columns of its kept elements, in the fragment's order */
} MatrixMeta;

enum { MATRIX_A, MATRIX_B, MATRIX_C, MATRIX_D, MATRIX_OPERANDS, MATRIX_MAX_REGS = 16 };
typedef struct MatrixOperand {
    int type;                  /* the elements' TYPE_* (types.def) */
    uint16_t rows, cols;
    uint8_t reg_count, per_reg;            /* registers in the vector, elements in each */
    const char *regs[MATRIX_MAX_REGS];     /* their names; NULL: an immediate */
    uint32_t reg_rows[MATRIX_MAX_REGS];    /* and rows */
    MatrixElement *at;         /* rows x cols, row after row */
} MatrixOperand;

struct Warp;
typedef struct MatrixView {
    const struct Warp *warp;   /* the warp that executed it (its block: CTA, steps; its index) */
    uint32_t pc;               /* the instruction: warp->prog->code[pc] */
    uint16_t m, n, k;
    uint8_t products;          /* 1; m8n8k4 .f16: 4, one per quad-pair, stacked: product p's D is rows
                                * 8p.. of D and C, of A (A 32 x 4), from columns 8p.. of B (4 x 32) */
    MatrixOperand op[MATRIX_OPERANDS];   /* A, B, C, D */
    /* mma.sp (sparse): op[MATRIX_A] is the dense m x k the metadata makes of A's fragment, which
     * is packed (m x k/2, as the lanes hold it); each row of A in chunks of chunk elements, kept
     * of each kept; chunk j of row r's metadata at meta[r * (k / chunk) + j], from the register
     * meta_reg (row meta_row) of the threads selector * threads.. of each group of four. */
    bool sparse, ordered;
    bool selector_undefined;   /* a selector the ISA leaves undefined (ptxas takes it): D undefined */
    uint8_t chunk, kept, selector, threads;
    const char *meta_reg;
    uint32_t meta_row;
    MatrixOperand packed;
    MatrixMeta *meta;
} MatrixView;

typedef struct ExecOptions {
    uint64_t max_steps;        /* --max-steps: the warp-steps each warp of each CTA may run */
    uint32_t stack_bytes;      /* --stack: each thread's stack for calls */
    bool strict;               /* undefined-value warnings stop the run (exit 3) */
    bool no_fmad;              /* --no-fmad: no mul and add fused into an fma (block_load_fmad) */
    FILE *trace;               /* NULL: no trace */
    bool trace_json;           /* one JSON object per step instead of text */
    bool trace_color;
    const TraceFilter *trace_filter;   /* NULL: every step, every value */
    uint32_t jobs;             /* -j: CTAs of a grid run on this many threads (0, 1: one) */
    bool jobs_given;           /* -j was given: say why a grid runs on one thread */
    /* The CTA (its number, x fastest) whose final registers the block shows after the run, when
     * keep_given; otherwise the last CTA to run (the one where a fault stopped the grid). */
    bool keep_given;
    uint64_t keep_cta;
    /* Called after each CTA of the grid has run (or stopped), with the block in that CTA's final
     * state; the CTAs then run one after another, in order. NULL: nothing is called. */
    void (*cta_done)(void *context, const struct Block *b);
    void *cta_context;
    /* What the kernel prints (builtin.c: printf's text, PRINT_OUT; an assertion's message,
     * PRINT_ERR), one call's text at a time, in the order the threads executed the calls.
     * NULL: it goes nowhere. */
    void (*print)(void *context, int stream, const char *text, size_t len);
    void *print_context;
    /* How far a run has come: CTAs ended of the grid's, warp-steps so far. Called after each
     * CTA and every PROGRESS_STEPS warp-steps within one, always on the thread that called
     * grid_run (never on a -j worker's own thread). NULL: nobody asks. */
    void (*progress)(void *context, uint64_t ctas_done, uint64_t ctas, uint64_t steps);
    void *progress_context;
    /* --matrix: each execution of an instruction mmaview_has() gives a view of (mma) as its
     * matrices, told as it executes (the grid's CTAs then run one after another). NULL: none
     * is made. matrix_wanted (NULL: every one is), asked first, says whether the execution of
     * the instruction at pc gets a view: one not shown costs no view. */
    void (*on_matrix)(void *context, const MatrixView *v);
    bool (*matrix_wanted)(void *context, uint32_t pc);
    void *matrix_context;
    /* Where CTAs run together (gang.c: a cooperative launch's, a cluster's), which warp of which
     * CTA runs next, for a slice of its steps: *cta and *warp get one that gang_runnable says may
     * run; false when none may (every warp ended, waits or is parked: the gang ends, or deadlocks).
     * NULL: gang_next, round-robin. When set it is asked for every CTA, an ordinary grid's too
     * (each CTA then a gang of its own): the hook for the race checker and schedule exploration. */
    bool (*schedule)(void *context, struct Gang *g, uint32_t *cta, uint32_t *warp);
    void *schedule_context;
} ExecOptions;

enum { PROGRESS_STEPS = 1 << 20 };

/* A grid's progress (grid.c): counted by every thread that runs its CTAs, told by one. */
typedef struct GridProgress {
    atomic_uint_fast64_t ctas_done, steps;
    uint64_t ctas;
} GridProgress;

enum { PRINT_OUT = 1, PRINT_ERR = 2 };

enum { EXEC_OK = 0, EXEC_FAULT = 3 };

/* Textures and surfaces (surface.c, texture.c, sample.c), from the lanes file: an image's texels
 * lie in a .global region named after it, level after level (a mipmapped texture), in a level
 * layer after layer, row after row (x fastest, then y, then z), the samples of a multisample
 * texel together, the channels of a sample together. A kernel names one by a 64-bit handle,
 * IMAGE_HANDLE_BASE + its index, as CUDA's texture and surface objects are 64-bit handles; a
 * separate sampler (the independent texturing mode) by SAMPLER_HANDLE_BASE + its index. */
#define IMAGE_HANDLE_BASE 0x0000e00000000000ull
#define SAMPLER_HANDLE_BASE 0x0000e80000000000ull
#define IMAGE_MAX_LEVELS 17
typedef enum { GEOM_1D = 1, GEOM_2D, GEOM_3D, GEOM_A1D, GEOM_A2D, GEOM_CUBE, GEOM_ACUBE, GEOM_2DMS,
               GEOM_A2DMS } ImageGeom;
typedef enum { ADDRESS_CLAMP, ADDRESS_WRAP, ADDRESS_MIRROR, ADDRESS_BORDER } ImageAddress;
/* How a texture is sampled: a texture's own settings, or a separate sampler's. */
typedef struct Sampler {
    const char *name;          /* a separate sampler's; NULL for a texture's own */
    bool linear;               /* linear filtering, else nearest-point */
    bool normalized_coords;    /* coordinates in [0, 1) */
    uint8_t address[3];        /* ImageAddress of each dimension */
    bool mip_linear;           /* mipmaps: linear between two levels, else the nearest level */
    float min_lod, max_lod;    /* mipmaps: the level of detail clamped into [min_lod, max_lod] */
    bool texture_coords;       /* a .samplerref's: coordinates normalized as the texture's
                                  normalized_coords says, unless force_unnormalized */
    bool force_unnormalized;   /* a .samplerref's force_unnormalized_coords = 1 */
    uint8_t compare;           /* depth compare (the lanes file's "compare"): SAMPLER_NEVER..ALWAYS, 0 none */
} Sampler;
enum { SAMPLER_NEVER = 1, SAMPLER_LESS, SAMPLER_EQUAL, SAMPLER_LEQUAL, SAMPLER_GREATER, SAMPLER_NOTEQUAL,
       SAMPLER_GEQUAL, SAMPLER_ALWAYS };
typedef struct Image {
    const char *name;
    bool surface;              /* a surface (suld sust suq), else a texture (tex tld4 txq) */
    uint8_t type;              /* a channel's type: u8 u16 u32 s8 s16 s32 f32 */
    uint8_t channels;          /* 1, 2 or 4 */
    uint8_t dims;              /* 1, 2 or 3 */
    uint32_t size[3];          /* width, height, depth in texels (1 beyond dims) of level 0 */
    uint32_t layers;           /* a layered (array) image: its layers (cubes: 6 a cube); 0: not layered */
    uint32_t region;           /* its texels */
    bool cube;                 /* texture: a cubemap (6 square 2D faces a cube) */
    uint32_t samples;          /* texture: multisample (.2dms), its samples a texel; 0: not */
    uint32_t levels;           /* texture: mipmap levels (1: level 0 only) */
    uint64_t level_at[IMAGE_MAX_LEVELS];    /* the first texel of each level, in texels */
    bool normalized_float;     /* texture: 8- and 16-bit integers read as floats in [0, 1] or [-1, 1] */
    Sampler sampler;           /* texture: its sampling (unified texturing mode) */
    uint64_t handle;           /* nonzero: the handle naming it (a CUDA texture or surface object's,
                                  given by the CUDA driver), instead of IMAGE_HANDLE_BASE + its index */
} Image;

/* surface.c: a .texref or .samplerref initializer's sampling fields (filter_mode,
 * normalized_coords, force_unnormalized_coords, addr_mode_0..2) set sm's; false, with the field in
 * *refused, for a setting ptxrun does not run (clamp_ogl). */
bool image_sampling_from_init(const OpaqueInit *o, Sampler *sm, OpaqueField *refused);

/* Size d of level l of an image: halved at each level, never below 1. */
static inline uint32_t image_level_size(const Image *im, unsigned level, unsigned d)
{
    uint32_t n = im->size[d] >> level;
    return d < im->dims && n ? n : d < im->dims ? 1 : im->size[d];
}

/* txq/suq: the attribute mode (a Mod) of an image (or sampler sm) into *v; false for one the
 * image lacks (a height of a 1D image) or does not keep: the answer is then undefined. *open
 * is set when the value is ptxrun's documented choice (the ISA names no number): a warning. */
static inline bool image_query(int mode, const Image *im, const Sampler *sm, unsigned level, uint64_t *v,
                               bool *open)
{
    *open = false;
    *v = 0;
    if (im && level >= im->levels && (mode == MOD_WIDTH || mode == MOD_HEIGHT || mode == MOD_DEPTH))
        return false;
    switch (mode) {
    case MOD_WIDTH: *v = im ? image_level_size(im, level, 0) : 0; return im != NULL;
    case MOD_HEIGHT: *v = im ? image_level_size(im, level, 1) : 0; return im && im->dims >= 2;
    case MOD_DEPTH: *v = im ? image_level_size(im, level, 2) : 0; return im && im->dims >= 3;
    case MOD_ARRAY_SIZE:
        *v = im ? im->layers : 0;              /* a cubemap array: its cubes */
        return im && im->layers != 0;
    case MOD_NUM_MIPMAP_LEVELS: *v = im ? im->levels : 0; return im && !im->surface;
    case MOD_NUM_SAMPLES: *v = im ? im->samples : 0; return im && im->samples;
    case MOD_MEMORY_LAYOUT: *v = im && im->layers; *open = true; return im != NULL;
    case MOD_CHANNEL_ORDER:
        /* OpenCL's cl_channel_order, which the ISA names: CL_R 0x10B0, CL_RG 0x10B2, CL_RGBA 0x10B5 */
        *v = !im ? 0 : im->channels == 1 ? 0x10B0 : im->channels == 2 ? 0x10B2 : 0x10B5;
        *open = true;
        return im != NULL;
    case MOD_CHANNEL_DATA_TYPE:
        /* OpenCL's cl_channel_type: CL_SNORM_INT8 0x10D0, CL_SNORM_INT16 0x10D1, CL_UNORM_INT8
         * 0x10D2, CL_UNORM_INT16 0x10D3, CL_SIGNED_INT8..32 0x10D7..9, CL_UNSIGNED_INT8..32
         * 0x10DA..C, CL_FLOAT 0x10DE */
        if (!im)
            return false;
        *open = true;
        if (type_info[im->type].cls == 'f')
            *v = 0x10DE;
        else if (im->normalized_float)
            *v = (type_info[im->type].cls == 's' ? 0x10D0 : 0x10D2) + (type_info[im->type].bits == 16);
        else
            *v = (type_info[im->type].cls == 's' ? 0x10D7 : 0x10DA) + (type_info[im->type].bits == 16) +
                 2 * (type_info[im->type].bits == 32);
        return true;
    default: break;
    }
    if (!sm)
        return false;
    switch (mode) {
    case MOD_NORMALIZED_COORDS: *v = sm->normalized_coords; return true;
    case MOD_FORCE_UNNORMALIZED_COORDS:
        if (sm->texture_coords) {              /* a .samplerref's own field */
            *v = sm->force_unnormalized;
            return true;
        }
        *v = !sm->normalized_coords;
        *open = true;
        return true;
    /* CUDA's cudaTextureFilterMode (point 0, linear 1) and cudaTextureAddressMode (wrap 0,
     * clamp 1, mirror 2, border 3) */
    case MOD_FILTER_MODE: *v = sm->linear; *open = true; return true;
    case MOD_ADDR_MODE_0: case MOD_ADDR_MODE_1: case MOD_ADDR_MODE_2: {
        static const uint8_t cuda[4] = { [ADDRESS_CLAMP] = 1, [ADDRESS_WRAP] = 0, [ADDRESS_MIRROR] = 2,
                                         [ADDRESS_BORDER] = 3 };
        *v = cuda[sm->address[mode - MOD_ADDR_MODE_0]];
        *open = true;
        return true;
    }
    default: return false;
    }
}

/* A warp's lanes at the cluster barrier (barrier.cluster, cluster.c). */
typedef struct ClusterLanes {
    uint32_t gather;           /* at a barrier.cluster, waiting for the warp's other non-exited lanes */
    uint32_t arrived;          /* arrived in the barrier's current phase */
    uint32_t passed;           /* whose arrival's phase has completed, their wait still to come */
    uint32_t waiting;          /* at barrier.cluster.wait until their arrival's phase completes */
} ClusterLanes;

/* One warp of the CTA: its lanes' registers, predicates, pcs and call stacks, nothing else. */
typedef struct Warp {
    /* What a step reads and writes, together at the start (a warp of one of many CTAs comes back
     * with its lines out of the processor's caches): */
    Block *block;
    const Program *prog;       /* the block's */
    uint64_t (*val)[WARP_SIZE];/* val[row][lane] */
    uint32_t shared_from;      /* rows from here on are read from immediates (warp_src): a gang's
                                * warp's, the program's first immediate; another's, none */
    const uint64_t (*immediates)[WARP_SIZE];   /* the program's copy (Program.immediate_rows) */
    uint32_t *defined;         /* defined[row]: lanes whose value is defined in every bit */
    uint64_t (*bits)[WARP_SIZE];   /* bits[row][lane]: for a lane not in defined[row], the bits of
                                * its value that are defined (0: none; warp_define keeps it) */
    uint32_t *pred;            /* pred[slot]: lanes where true */
    uint32_t *pred_defined;
    uint32_t index;            /* %warpid */
    uint32_t thread_base;      /* the CTA thread number of lane 0 */
    uint32_t carry, carry_defined;  /* CC.CF of each lane (add.cc, addc, ...) */
    uint32_t carry_by_sub;     /* lanes whose CC.CF a sub.cc/subc wrote (the readings differ) */
    uint32_t launched;         /* lanes that run */
    uint32_t exited;
    uint32_t waiting;          /* lanes blocked at a synchronising instruction */
    uint32_t at_barrier;       /* those of them waiting at a CTA barrier (bar, barrier) or barrier.cluster */
    uint32_t next_pc, last_mask, previous_ready;   /* where the loop left off (see warp_run) */
    uint64_t steps;            /* the warp's own clock: starvation, arrival times */
    StepTrace *trace;          /* non-NULL while tracing */
    bool faulted;
    uint32_t wgmma_inflight;   /* wgmma results in flight: while nonzero, each instruction's reads are checked */
    /* spin.c: a warp that comes back to a state it was in while nothing it could see changed */
    uint64_t spin_epoch;       /* Memory.epoch at its last look (SPIN_AFRESH: look afresh) */
    uint32_t spin_checks;      /* looks since the epoch last moved */
    bool spin_skip;            /* resumed at the branch it parked at: that branch runs first */
    bool parked;               /* not run until the epoch moves past spin_epoch */
    bool spin_read;            /* it read memory (ld, atom, multimem) since its last look */
    bool spin_kept;            /* its state was kept (Warp.spin) since the epoch last moved */
    bool spin_partial;         /* Warp.spin holds only the rows its loop [spin_lo, spin_hi] writes */
    uint32_t parked_pc;        /* the branch it waits at */
    uint32_t hurry;            /* ready lanes held while the others spun: they run next (spin.c) */
    uint32_t spin_lo, spin_hi;
    uint64_t uncounted;        /* steps of repeated iterations, not counted against --max-steps */
    struct SpinState *spin;    /* the state kept at a look, one of its pool's (SpinPool) */
    uint32_t pc[WARP_SIZE];
    uint32_t depth[WARP_SIZE];
    uint64_t last_run[WARP_SIZE];  /* step at which each lane last executed */
    Arrival arrival[WARP_SIZE];
    /* Calls, clusters, wgmma, warnings: */
    ClusterLanes cluster;
    Frame *stack[WARP_SIZE];   /* each lane's calls, depth[lane] of them */
    uint32_t stacks_made;      /* lanes whose stack (and saved activations, recursion's) were allocated */
    uint32_t stack_cap[WARP_SIZE];
    uint32_t sp[WARP_SIZE];    /* the end of each lane's .local stack */
    uint32_t stack_ptr[WARP_SIZE]; /* the stack pointer of stacksave: alloca's lowest byte, or MEM_ALLOCA_TOP */
    uint32_t charged[WARP_SIZE];   /* the --stack bytes its calls use */
    uint32_t (*active)[WARP_SIZE]; /* active[f][lane]: activations of function f on the lane's stack */
    SaveArea saves[WARP_SIZE];
    VEC(Warning) warnings;
    struct WgmmaState *wgmma;  /* wgmma.mma_async results not landed yet (wgmma.c); NULL: none */
    bool in_slab;              /* it and its rows are pieces of a gang's memory (GangMemory): not freed */
} Warp;

/* The states spinning warps keep (spin.c), a few for a block or a gang: a warp takes one when
 * it looks, the one taken longest ago leaving its owner (who then looks afresh). */
enum { SPIN_POOL = 16 };
typedef struct SpinPool {
    struct SpinState *slot[SPIN_POOL];
    uint32_t next;
} SpinPool;

/* The memory the CTAs of a gang take their state from (gang.c): its members' Block and Warp, their
 * registers, predicates and .shared (rows) and their partly-defined bits and .local (lazy). After
 * a launch it waits in the kernel's GangSpare for the next one (slab.h says why). */
typedef struct GangMemory {
    Slab rows, lazy;
    SpinPool spins;            /* the gang's kept states (spin.c) */
} GangMemory;

/* Where a kernel keeps one GangMemory between launches; made with the block that holds the
 * lowered kernel, shared by every launch copied from it (block_launch_new), which may run at
 * once on several threads: a launch takes it whole or makes its own. */
typedef struct GangSpare {
    _Atomic(GangMemory *) kept;
} GangSpare;

/* The CTA being run: its warps under one scheduler, its barriers, and the grid it belongs to.
 * CTAs of a grid run one after another; each starts from the state the lanes file gave. */
struct Block {
    Program prog;
    Memory mem;
    Diag *diag;
    Warp *warps[MAX_WARPS];
    uint32_t warp_count;
    uint32_t threads;          /* ntid.x * ntid.y * ntid.z */
    uint32_t ntid[3], nctaid[3], ctaid[3];
    bool per_warp_barriers;    /* .target sm_6x or below: a warp's arrival counts 32 threads */
    Barrier barriers[BARRIER_COUNT];
    uint32_t live_threads;     /* what barriers for all threads count to; NO_SLOT: count again */
    uint64_t steps;            /* warp-steps of every warp and CTA, for --max-steps */
    uint64_t lane_steps;       /* instructions executed, summed over threads */
    uint64_t cta_first_step;   /* steps when this CTA began: its clock counts from here */
    struct Snapshot *start;    /* the state every CTA starts from (registers, .shared, .local) */
    /* The registers, predicates and lanes of the CTA ExecOptions.keep_cta names, copied when it
     * ended (only when one is named); the grid swaps them back into warps at the end. */
    Warp *kept[MAX_WARPS];
    bool has_kept;
    uint32_t kept_ctaid[3];
    const ExecOptions *options;    /* the run's, while a CTA runs (builtin.c prints through it) */
    GridProgress *progress;    /* the grid's count, while it runs with ExecOptions.progress; else NULL */
    bool tells_progress;       /* this block runs on grid_run's thread: it calls ExecOptions.progress */
    uint64_t steps_counted;    /* its steps already added to progress->steps */
    /* A worker of a grid run on several threads (grid.c): it shares the program, the start
     * state and the memory outside the CTA; it reports nothing, and anything it would report
     * abandons the parallel run (the grid then runs on one thread, which reports it). */
    bool worker;
    bool abandoned;
    bool shares_program;       /* a launch's (block_launch_new): the program and images are another's */
    uint64_t track_bytes;      /* what the last run on threads took to track .global and put it back */
    /* Definedness one flag per value, as before it was kept bit by bit: a value defined in some
     * bits only counts as undefined. For make bench's figure without bit-by-bit definedness. */
    bool whole_values;
    Image *images;             /* textures and surfaces, from the lanes file; read-only while it runs */
    uint32_t image_count;
    Sampler *samplers;         /* separate samplers (independent texturing mode), from the lanes file */
    uint32_t sampler_count;
    struct BulkState *bulk;    /* the CTA's bulk copies not yet landed, its threads' bulk groups (bulk.c) */
    uint32_t cluster[3];       /* the cluster's shape in CTAs; {1,1,1}: none launched (each CTA a cluster of one) */
    bool explicit_cluster;     /* a cluster shape was launched (%is_explicit_cluster) */
    bool cooperative;          /* a cooperative launch: every CTA of the grid resident together */
    struct Gang *gang;         /* the CTAs this one runs with (gang.c); NULL: it runs alone */
    uint32_t gang_rank;        /* its index in gang->ctas */
    uint64_t own_epoch;        /* Memory.epoch's counter while it runs alone */
    struct AsyncState *async;  /* pending asynchronous writes and mbarriers (async.h); NULL: none yet */
    bool fresh_local;          /* its .local was never run in (zero, undefined): no clearing */
    uint64_t grid_workspace;   /* a cooperative launch's (gang.c): %envreg1 and %envreg2; 0: none */
    SpinPool spin_pool;        /* its warps' kept states while it runs alone (spin.c) */
    GangSpare *spare;          /* its kernel's gang memory between launches (the kernel's block owns it) */
    bool in_slab;             /* a gang's CTA whose Block is a piece of GangMemory: not freed */
};

/* Memory the processor is asked to fetch ahead, a line at a time: gang.c lists the lines the CTA
 * that runs next will touch first, warp.c's straight-line loop asks for two of them at each step
 * of the CTA running now. A cooperative grid's CTAs each come back to run after all the others
 * have: their registers are long out of the processor's caches by then, and met one miss after
 * another as the instructions reach them, they cost more than the instructions did. (Asked for
 * all at once as the CTA's turn came, they gained nothing; spread over the steps before, they
 * are the largest of the gains in make bench's cooperative figure.) */
enum { PREFETCH_MAX = 2048 };
typedef struct Prefetch {
    const void *line[PREFETCH_MAX];
    const void *rest[PREFETCH_MAX];   /* ahead.c's, while it orders line[] */
    uint32_t count, next;      /* lines listed; the next to ask for */
    /* ahead.c's: the rows the instructions from each pc on touch, found once (rows_at[pc]: 1 +
     * where its list, its length first, begins in rows; 0: not yet), and marks of rows listed */
    uint32_t *rows_at, *rows, rows_len, rows_cap;
    uint32_t *list_mark, *warp_mark, list_counter, warp_counter;
} Prefetch;

static inline void prefetch_some(Prefetch *p)
{
    if (p->next < p->count)
        __builtin_prefetch(p->line[p->next++], 1, 3);
    if (p->next < p->count)
        __builtin_prefetch(p->line[p->next++], 1, 3);
}

/* CTAs that run together, interleaved under one scheduler (gang.c): the CTAs of a cluster, or
 * every CTA of a cooperative launch. */
typedef struct Gang {
    Block **ctas;              /* each a block like grid.c's workers: program, .global shared; .shared, .local its own */
    uint32_t count;
    uint64_t epoch;            /* counts every change another thread could see (a memory write, an mbarrier's
                                  or a cluster barrier's state, a copy landing): a spinning warp waits for it */
    uint32_t lo[3], extent[3]; /* the box of CTA ids it holds, x fastest in ctas: ctas[x + ex * (y + ey * z)] */
    /* gang.c's own below; the cluster helper adds its barrier.cluster state here. */
    uint32_t next_cta, next_warp, cta_turns;   /* the default schedule's turn (gang_next) */
    bool sweeping;             /* and whether parked warps whose epoch moved may run (gang_next) */
    SpinPool *spin_pool;       /* its warps' kept states (spin.c), its GangMemory's */
    uint64_t picks;            /* picks since the last sweep */
    Prefetch *ahead;           /* the next CTA's lines (default schedule only); NULL: none */
} Gang;

/* ahead.c: the lines the CTA after CTA c of a gang will touch first, listed (g->ahead) as c's
 * turn comes. */
Prefetch *ahead_new(const Program *p);
void ahead_free(Prefetch *a);
void ahead_fill(struct Gang *g, uint32_t c);

/* gang.c: CTAs that run together. */
void block_set_cluster(Block *b, const uint32_t cluster[3]);   /* validated by the caller (bounds.c) */
void block_set_cooperative(Block *b, bool on);
/* The CTA of b's cluster with cluster rank `rank` (%cluster_ctarank), NULL when there is none;
 * b itself for its own rank (also when b runs alone). */
Block *gang_peer(const Block *b, uint32_t rank);
/* Something another thread could see changed: a spinning warp may go on. Cheap; call it at every
 * such change that is not a plain memory write (mem.c counts those itself). */
void gang_changed(Block *b);
/* Whether warp `warp` of the gang's CTA `cta` may run now: a lane ready, not parked (spin.c). */
bool gang_runnable(const struct Gang *g, uint32_t cta, uint32_t warp);
/* The default schedule (ExecOptions.schedule): round-robin over the CTAs' warps, from where it
 * left off; context unused. */
bool gang_next(void *context, struct Gang *g, uint32_t *cta, uint32_t *warp);
/* The grid, when its CTAs run in gangs (gang_wanted): cooperative, one gang of all; clusters, a
 * gang each, one after another; else (ExecOptions.schedule set) a gang of one CTA each.
 * false: stopped early (a fault, a deadlock, a --strict warning). */
bool gang_wanted(const Block *b, const ExecOptions *o);
/* An H100's residency (CUDA's occupancy, registers left out): the CTAs of b's shape one SM holds,
 * and whether b's cooperative launch fits all 132 SMs (false: err says why; CUDA refuses it). */
enum { H100_SMS = 132, H100_CTAS_PER_SM = 32, H100_WARPS_PER_SM = 64, H100_SHARED_PER_SM = 228 << 10,
       GANG_WORKSPACE_BYTES = 8 };
#define GANG_WORKSPACE "(grid workspace)"
uint32_t gang_ctas_per_sm(const Block *b);
bool gang_fits(const Block *b, Msg *err);
bool gang_run_grid(Block *b, const ExecOptions *o);

/* A region that belongs to the CTA (.shared: each CTA its own); a region's bytes, every thread's. */
static inline bool block_region_of_cta(const Region *r)
{
    return r->space == SPACE_SHARED;
}

static inline uint64_t block_region_bytes(const Memory *mem, const Region *r)
{
    return r->size * (r->per_lane ? mem->copies : 1);
}

/* The warps of a CTA of ntid threads. */
static inline uint32_t block_warps_for(const uint32_t ntid[3])
{
    return (ntid[0] * ntid[1] * ntid[2] + WARP_SIZE - 1) / WARP_SIZE;
}

/* The CTAs of b's grid (x * y * z, which 32 bits do not always hold). */
static inline uint64_t block_cta_count(const Block *b)
{
    return (uint64_t)b->nctaid[0] * b->nctaid[1] * b->nctaid[2];
}

/* The handle of a .texref, .surfref or .samplerref variable (`mov.u64 r, t`): OPAQUE_HANDLE_BASE
 * plus its index among the module's globals, another opaque number naming nothing in memory. */
#define OPAQUE_HANDLE_BASE 0x0000e10000000000ull

/* The variable a handle names, or NULL. */
static inline const Decl *opaque_of(const Block *b, uint64_t handle)
{
    const Module *m = b->prog.m;
    return handle - OPAQUE_HANDLE_BASE < m->globals.len ? &m->globals.data[handle - OPAQUE_HANDLE_BASE] : NULL;
}

/* The image a handle names, or NULL: a variable's handle names the lanes file's image of its name;
 * a CUDA object's handle the image holding it (Image.handle). */
static inline const Image *image_of(const Block *b, uint64_t handle)
{
    const Decl *d = opaque_of(b, handle);
    for (uint32_t i = 0; i < b->image_count; i++)
        if (d ? b->images[i].name == d->name : handle && b->images[i].handle == handle)
            return &b->images[i];
    uint64_t index = handle - IMAGE_HANDLE_BASE;
    return index < b->image_count && !b->images[index].handle ? &b->images[index] : NULL;
}

/* The separate sampler a handle names, or NULL. */
static inline const Sampler *sampler_of(const Block *b, uint64_t handle)
{
    const Decl *d = opaque_of(b, handle);      /* a .samplerref variable's: the sampler of its name */
    for (uint32_t i = 0; d && i < b->sampler_count; i++)
        if (b->samplers[i].name == d->name)
            return &b->samplers[i];
    return handle - SAMPLER_HANDLE_BASE < b->sampler_count ? &b->samplers[handle - SAMPLER_HANDLE_BASE] : NULL;
}

/* report.c: faults, warnings and deadlock notes, into the block's Diag. */
void report_fault(Warp *w, uint32_t pc, const char *fmt, ...);
void report_warn(Warp *w, uint32_t pc, uint32_t lanes, const char *what);
void report_warnings(Warp *w, bool strict);               /* the collected warnings, as diagnostics */
void report_waits(Warp *w);                               /* deadlock notes for warp-level waits */
void report_lanes(const Warp *w, char *buf, size_t size, uint32_t lanes);   /* "warp 1 lanes 0-3" */
void report_lane_ranges(char *buf, size_t size, uint32_t lanes, const char *separator);  /* "0-3,7" */

/* Where the frame of the function a lane runs starts: the kernel's at 0. */
static inline uint32_t warp_frame_base(const Warp *w, uint32_t func, int lane)
{
    const FuncLayout *f = &w->prog->funcs[func];
    return f->frame_row == NO_SLOT ? 0 : (uint32_t)w->val[f->frame_row][lane];
}

/* The lanes of mask go on at pc next. */
static inline void warp_advance(Warp *w, uint32_t mask, uint32_t next)
{
    if (mask == ALL_LANES) {
        for (int l = 0; l < WARP_SIZE; l++)
            w->pc[l] = next;
        return;
    }
    if (!mask)
        return;
    for (int l = 0; l < WARP_SIZE; l++)
        w->pc[l] = (mask >> l & 1) ? next : w->pc[l];
}

/* A source row's values. A gang's warp reads an immediate from the program's one copy
 * (Program.immediate_rows): coming back to run after the warps of many other CTAs (a cooperative
 * grid), it finds it in the processor's caches, not its own copy, which is the same. */
static inline const uint64_t *warp_src(const Warp *w, uint32_t row)
{
    return row < w->shared_from ? w->val[row] : w->immediates[row - w->prog->first_immediate];
}

/* The defined bits of lane l's value in row (all ones when every bit is). */
static inline uint64_t warp_dbits(const Warp *w, uint32_t row, int l)
{
    return (w->defined[row] >> l & 1) ? ~0ull : w->bits[row][l];
}

/* The lanes of `lanes` whose value in row is defined in every bit of need. */
static inline uint32_t warp_defined_in(const Warp *w, uint32_t row, uint32_t lanes, uint64_t need)
{
    uint32_t d = w->defined[row] & lanes;
    for (uint32_t k = lanes & ~d; k; k &= k - 1)
        if ((w->bits[row][__builtin_ctz(k)] & need) == need)
            d |= 1u << __builtin_ctz(k);
    return d;
}

/* The lanes of mask become defined in every bit (those of `defined`) or in none (the others). */
static inline void warp_define(Warp *w, uint32_t row, uint32_t mask, uint32_t defined)
{
    for (uint32_t k = mask & ~defined; k; k &= k - 1)
        w->bits[row][__builtin_ctz(k)] = 0;
    w->defined[row] = (w->defined[row] & ~mask) | (defined & mask);
}

/* a CmpOp b (a Mod among the float compares) of two values held exactly as doubles. */
static inline bool warp_compare_float(int cmp, double a, double b)
{
    bool unordered = a != a || b != b;      /* NaN */
    switch (cmp) {
    case MOD_EQ: return !unordered && a == b;
    case MOD_NE: return !unordered && a != b;
    case MOD_LT: return !unordered && a < b;
    case MOD_LE: return !unordered && a <= b;
    case MOD_GT: return !unordered && a > b;
    case MOD_GE: return !unordered && a >= b;
    case MOD_EQU: return unordered || a == b;
    case MOD_NEU: return unordered || a != b;
    case MOD_LTU: return unordered || a < b;
    case MOD_LEU: return unordered || a <= b;
    case MOD_GTU: return unordered || a > b;
    case MOD_GEU: return unordered || a >= b;
    case MOD_NUM: return !unordered;
    case MOD_NAN: return unordered;
    default: BUG("float compare %d", cmp);
    }
}

/* setp's .and/.or/.xor: the compare's lanes v with c's. */
static inline uint32_t warp_combine(int boolop, uint32_t v, uint32_t c)
{
    switch (boolop) {
    case MOD_AND: return v & c;
    case MOD_OR: return v | c;
    case MOD_XOR: return v ^ c;
    default: return v;
    }
}

/* Which lanes of a boolean and/or/xor (MOD_AND, MOD_OR, MOD_XOR; anything else: v alone) of v
 * (defined in dv) and c (in dc) are defined: both are, or one side decides it alone (a defined
 * false for and, a defined true for or), as for the bits of and.b32 and or.b32 (vbits.c). */
static inline uint32_t warp_combine_defined(int boolop, uint32_t v, uint32_t dv, uint32_t c, uint32_t dc)
{
    switch (boolop) {
    case MOD_AND: return (dv & dc) | (dv & ~v) | (dc & ~c);
    case MOD_OR: return (dv & dc) | (dv & v) | (dc & c);
    case MOD_XOR: return dv & dc;
    default: return dv;
    }
}

typedef uint64_t Lanes[WARP_SIZE];   /* one value per lane */

/* The lanes of mask get result into row, defined where defined says. */
static inline void warp_commit(Warp *w, uint32_t row, const uint64_t *result, uint32_t mask, uint32_t defined)
{
    uint64_t *dst = w->val[row];
    if (mask == ALL_LANES)
        memcpy(dst, result, WARP_SIZE * sizeof *dst);
    else
        w->prog->kernels->select(dst, result, mask);
    warp_define(w, row, mask, defined);
}

/* Lane l of row gets the defined bits dbits of a value `width` bits wide. */
static inline void warp_define_bits(Warp *w, uint32_t row, int l, uint64_t dbits, unsigned width)
{
    uint64_t m = width_mask(width);
    if ((dbits & m) == m) {
        w->defined[row] |= 1u << l;
    } else {
        w->defined[row] &= ~(1u << l);
        w->bits[row][l] = w->block->whole_values ? 0 : dbits & m;
    }
}

/* The lanes of `lanes` whose guard holds; `undefined` gets those whose guard is undefined. */
static inline uint32_t warp_guard_lanes(const Warp *w, const XInstr *x, uint32_t lanes, uint32_t *undefined)
{
    *undefined = 0;
    if (!x->guard)
        return lanes;
    uint32_t p = w->pred[x->guard_pred];
    *undefined = lanes & ~w->pred_defined[x->guard_pred];
    return lanes & (x->guard == 1 ? p : ~p);
}

/* sync.c: warp-level synchronising instructions. */
void sync_arrive(Warp *w, uint32_t pc, uint32_t mask);    /* lanes of mask reach the one at pc */
void sync_try_complete(Warp *w);                          /* after lanes exited: who may complete */
bool sync_converged(Warp *w, uint32_t pc, uint32_t mask);  /* all ready lanes, at once, or false */

/* call.c */
void call_enter(Warp *w, uint32_t pc, uint32_t run);      /* the lanes of run call (not a builtin) */
void call_return(Warp *w, uint32_t run);                  /* and return (from the kernel: end) */
void call_stack(Warp *w, const XInstr *x, uint32_t run);  /* stacksave, stackrestore, alloca */

/* builtin.c: the functions the CUDA runtime supplies, which PTX declares .extern without a body. */
typedef enum { BUILTIN_NONE, BUILTIN_VPRINTF, BUILTIN_ASSERTFAIL, BUILTIN_SETCONDITIONAL } Builtin;
Builtin builtin_named(const char *name);                  /* BUILTIN_NONE: not one of them */
/* The parameter sizes CUDA gives it (bytes, 0 ends the list), and its result's (0: none). */
const uint8_t *builtin_params(Builtin f, uint8_t *result_size);
void builtin_call(Warp *w, uint32_t pc, uint32_t run);    /* the lanes of run call it, lowest first */
void builtin_clock(Warp *w);                              /* the clock registers, now */

/* spin.c: a warp whose ready lanes, together at a backward branch they all take, come back to a
 * state they were in while nothing another thread could see changed, parks (the rule: spin.c). */
#define SPIN_AFRESH UINT64_MAX
/* The epoch has not moved: SPIN_PARKED when it parks, SPIN_HURRY when its lanes of mask repeat
 * while other ready lanes are held (they run next: Warp.hurry), else SPIN_ON. */
enum { SPIN_ON, SPIN_PARKED, SPIN_HURRY };
int spin_check(Warp *w, uint32_t pc, uint32_t mask);
void spin_pool_free(SpinPool *p);
void spin_moved(Warp *w, uint64_t epoch);
void spin_resume(Warp *w);                                /* the epoch moved while it was parked */
void spin_report(Warp *w);                                /* a deadlock's note for a parked warp */
void spin_free(Warp *w);
void spin_widen(Warp *w);                                 /* it leaves the loop: keep every row */

/* Before the warp's lanes run the instruction at pc (warp.c): a state kept with only the rows its
 * loop writes gets the others while they are still as they were (the loop wrote none of them). */
static inline void spin_watch(Warp *w, uint32_t pc)
{
    if (w->spin_partial && (pc < w->spin_lo || pc > w->spin_hi))
        spin_widen(w);
}

/* At a backward branch the lanes of mask all take at pc: SPIN_ON, SPIN_PARKED, SPIN_HURRY. */
static inline int warp_spins(Warp *w, uint32_t pc, uint32_t mask)
{
    if (!w->spin_read)                     /* a loop that reads no memory waits for nothing */
        return SPIN_ON;
    w->spin_read = false;
    uint64_t e = *w->block->mem.epoch;
    if (e != w->spin_epoch) {
        w->spin_epoch = e;
        w->spin_checks = 0;
        w->spin_kept = false;
        return SPIN_ON;
    }
    return spin_check(w, pc, mask);
}

/* The waiting lanes of `lanes` go on after the instruction each waits at (a trace notes it):
 * a barrier's or a cluster barrier's phase completed (barrier.c, cluster.c). */
static inline void warp_release(Warp *w, uint32_t lanes)
{
    for (uint32_t k = lanes; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        w->pc[l] = w->arrival[l].pc + 1;
        if (w->trace) {
            if (!w->trace->released || w->arrival[l].since < w->trace->waited_since)
                w->trace->waited_since = w->arrival[l].since;
            w->trace->released |= 1u << l;
        }
    }
    w->waiting &= ~lanes;
    w->at_barrier &= ~lanes;
}

/* Whether the warp waits for the epoch to move (resumed when it has). */
static inline bool warp_parked(Warp *w)
{
    if (!w->parked)
        return false;
    if (*w->block->mem.epoch == w->spin_epoch)
        return true;
    spin_resume(w);
    return false;
}

/* warp.c: one warp's loop. */
void warp_reset(Warp *w);
void wgmma_release(Warp *w);    /* wgmma.c: the warp's results in flight dropped (a CTA's start, its end) */
/* wgmma.c: a warning when the instruction at pc, run by the lanes of mask (those of them its
 * guard leaves), reads a register a wgmma.mma_async in flight writes (Warp.wgmma_inflight) */
void wgmma_check_reads(Warp *w, uint32_t pc, uint32_t mask);
void wgmma_name_reads(Program *p);     /* Program.wgmma_reads, once the registers have names */
bool warp_run(Warp *w, const ExecOptions *options, uint64_t slice);   /* false: no lane was ready */

/* block.c: the CTA and the grid; the handle the driver holds. */
/* NULL after reporting what cannot run; stack_bytes: each thread's stack for the frames of calls. */
Block *block_load(Module *m, Function *fn, Diag *diag, uint32_t stack_bytes);
/* ... fmad: mul and add pairs fused as ptxas fuses them (contract.c), as block_load does */
Block *block_load_fmad(Module *m, Function *fn, Diag *diag, uint32_t stack_bytes, bool fmad);
/* ... with its static .global and .const variables where place says (Memory.place; the CUDA shims) */
Block *block_load_placed(Module *m, Function *fn, Diag *diag, uint32_t stack_bytes, bool fmad,
                         void *(*place)(void *, const void *, const char *, int, uint64_t, uint32_t, bool *),
                         void *place_context);
/* The bytes of kernel parameter i in the parameter buffer, and its size. */
uint8_t *block_param_bytes(Block *b, uint32_t i, uint8_t **shadow, uint32_t *size);
void block_set_dynamic_shared(Block *b, uint32_t bytes);
/* The block's shape: creates its warps, fills the special registers. Ask block_fits first:
 * each thread has its own copy of .local. */
bool block_fits(const Block *b, const uint32_t ntid[3], Msg *err);
void block_set_shape(Block *b, const uint32_t ntid[3], uint32_t active);
void block_set_grid(Block *b, const uint32_t nctaid[3]);
/* bounds.c: false, after reporting at the directive, when the kernel's launch bounds refuse the block
 * set or the clusters (cluster: the shape given, NULL for none); note follows the block's shape.
 * Without a shape given, a kernel's .reqnctapercluster becomes b's (Block.cluster). */
bool bounds_check(Block *b, const uint32_t *cluster, const char *note);
void block_start(Block *b);                               /* before the first CTA */
bool block_run_cta(Block *b, const ExecOptions *options, uint64_t cta);   /* false: stopped early */
void block_begin_cta(Block *b, const ExecOptions *options, uint64_t cta); /* its start, for gang.c */
void block_end_cta(Block *b, const ExecOptions *options, uint64_t cta);
void block_report_deadlock(Block *b, bool first);         /* where its threads wait; first: the error too */
int block_finish(Block *b, const ExecOptions *options, bool faulted);    /* EXEC_OK or EXEC_FAULT */
/* Adds b's steps to its grid's progress (every PROGRESS_STEPS, or now with `now`) and, on
 * grid_run's thread, tells ExecOptions.progress. */
void block_progress(Block *b, const ExecOptions *options, bool now);
/* block.c's, for blockcopy.c: a new warp (its rows from m, or malloc's when NULL); rows of zero
 * partly-defined bits (Warp.bits), mapped from the system when large. */
Warp *block_new_warp(Block *b, uint32_t index, GangMemory *m);
void *block_bits_alloc(uint32_t rows);
/* blockcopy.c: blocks made from another. */
Block *block_worker_new(const Block *b, GangMemory *m, const bool *undefined);   /* for grid.c (m NULL), gang.c; freed by block_free */
bool block_undefined_bytes(const uint8_t *shadow, uint64_t n);   /* no byte of the n whose shadow it is defined */
void block_leave_slab(Block *k);                         /* before a gang's CTA hands its state on */
void gang_memory_free(GangMemory *m);                     /* NULL: nothing */
/* A block for one launch of the kernel b was loaded for (the library's), of ntid threads (the
 * first warp's lanes in active) that block_fits allows: it shares b's program and images, which
 * are read-only while it runs, and starts from a copy of b's memory (its variables, parameter
 * buffer, .shared and .local); its messages go to diag. b must outlive it; block_free. */
Block *block_launch_new(const Block *b, Diag *diag, const uint32_t ntid[3], uint32_t active);
void block_adopt(Block *b, Block *worker);                /* b shows the worker's last CTA */
void block_adopt_kept(Block *b, Block *worker);           /* b takes the worker's kept CTA */
void block_show_kept(Block *b);                           /* the warps show the kept CTA, if one was */

/* grid.c: the whole grid, its CTAs one after another or on options->jobs threads when that
 * gives the same; EXEC_OK or EXEC_FAULT. why: when a grid of several CTAs ran on one thread
 * though jobs > 1, the reason (else ""). */
int grid_run(Block *b, const ExecOptions *options, char *why, size_t why_size);
void block_free(Block *b);                                /* its warps, memory and program */
Warp *block_thread_warp(const Block *b, uint32_t t, int *lane);  /* the warp and lane of thread t */
/* A texture or surface for the kernel (its texels: im->region, a buffer of b's memory); returns
 * its handle. */
uint64_t block_add_image(Block *b, const Image *im);
uint64_t block_add_sampler(Block *b, const Sampler *s);

/* barrier.c: bar and barrier. */
void barrier_arrive(Warp *w, uint32_t pc, uint32_t lanes);
void barrier_threads_exited(Block *b);                    /* barriers for all threads may complete */
void barrier_report_waits(Block *b);                      /* deadlock notes for barrier waits */

/* bulk.c: as a CTA ends, every bulk copy of it not landed yet lands (a copy whose shared source was
 * not waited for, undefined, with a warning); the state freed with the block. */
void bulk_cta_end(Block *b);
void bulk_free(Block *b);

/* cluster.c: the CTAs of a cluster. Its size (%cluster_nctarank) and b's rank (%cluster_ctarank). */
uint32_t cluster_nctarank(const Block *b);
uint32_t cluster_ctarank(const Block *b);
/* The CTA of b's cluster of that rank (b's Gang), as gang_peer gives it; NULL when there is none. */
Block *cluster_peer(const Block *b, uint32_t rank);
/* Whether a .shared::cluster address is b's own shared memory (whole_cluster: that of a CTA of its cluster). */
bool cluster_holds(const Block *b, uint64_t address, bool whole_cluster);
/* The memory a .shared::cluster address (*in_space, made the offset in it) of lane's access reaches;
 * NULL after a fault. */
Memory *cluster_memory(Warp *w, const XInstr *x, int lane, uint64_t address, uint64_t *in_space);
Block *cluster_owner(const Block *b, uint64_t address);   /* the live CTA an address's shared memory is, or NULL */
void cluster_execute(Warp *w, const XInstr *x, uint32_t mask);       /* mapa, getctarank */
void cluster_barrier(Warp *w, uint32_t pc, uint32_t lanes);          /* barrier.cluster.arrive/.wait */
void cluster_threads_exited(Block *b);                    /* the barrier may complete */
void cluster_report_waits(Block *b);                      /* deadlock notes */
/* clusterasync.c: st.async, red.async */
void clusterasync_execute(Warp *w, const XInstr *x, uint32_t mask);

/* trace.c: --trace, one warp-step at a time. */
void trace_step(FILE *out, const Warp *w, const ExecOptions *o, uint32_t pc, uint32_t mask);
void trace_json_string(FILE *out, const char *s);     /* s in quotes, escaped as JSON */

#endif
