/* exec.h: the executor: a checked Module lowered into a Program and run by a Block of warps
 * (docs/architecture.md). Nothing here prints or exits: faults and warnings go to the Diag. */
#ifndef PTXRUN_EXEC_H
#define PTXRUN_EXEC_H

#include <stdatomic.h>
#include <string.h>

#include "ir.h"

/* ---- the executor (lower.c, warp.c, block.c, ...) ---- */

#define NO_SLOT 0xffffffffu       /* no register or predicate */
#define ALL_LANES 0xffffffffu     /* every lane of the warp */

typedef enum { DST_NONE, DST_VALUE, DST_PRED } DstKind;

/* ---- memory (mem.c) ---- */

/* Generic addresses: global memory from MEM_GLOBAL_BASE; every other space in a window. */
#define MEM_GLOBAL_BASE   0x0000100000000000ull
#define MEM_SHARED_WINDOW 0x0200000000000000ull
#define MEM_LOCAL_WINDOW  0x0300000000000000ull
#define MEM_CONST_WINDOW  0x0400000000000000ull
#define MEM_PARAM_WINDOW  0x0500000000000000ull
#define MEM_WINDOW_SIZE   0x0000100000000000ull
#define MEM_FUNC_BASE     0x0000f00000000000ull   /* function "addresses" for indirect calls */
#define MEM_ALLOCA_TOP    0x20000000u             /* .local: alloca's stack grows down from here */

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
    uint64_t high;             /* per-lane: no thread has written at or past this offset since
                                * the CTA began (what a new CTA must make undefined again) */
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
} Memory;

/* layout.c: what a name means, and where it lives. A .func's frame variable has a row with its
 * address in each lane (address: its offset in the frame); everything else a fixed address. */
typedef struct Symbol {
    const char *name;
    uint8_t space;             /* a frame variable's bytes are .local, its parameters' too */
    uint8_t declared;          /* the space it was declared in */
    uint64_t address;
    uint32_t row;              /* NO_SLOT: fixed */
    uint32_t size;
} Symbol;
typedef VEC(Symbol) SymbolVec;
typedef struct PendingInit {
    const Decl *decl;
    uint32_t region, func;
} PendingInit;
typedef struct Layout {
    SymbolVec module;          /* the module's names */
    uint32_t *by_name;         /* open addressing: 1 + the index in module of the last symbol with a
                                  name, or 0; then (by_name_cap slots on) 1 + the index of the first
                                  function with it: made once every module symbol is laid out */
    uint32_t by_name_cap, indexed;   /* slots for each; module.len when it was made */
    SymbolVec *scope;          /* each function's own */
    uint32_t **by_decl;        /* each function's: its declaration id -> index in scope */
    uint32_t *decl_count;
    VEC(PendingInit) inits;
    Memory *mem;               /* where variables get their regions */
    Diag *diag;
} Layout;

enum { VEC_MAX = 8 };          /* the most elements a vector operand has (.v8) */
enum { MEM_MAX_REPLICAS = 16 };    /* the most copies a multicast object has */

/* An instruction decoded for execution: every operand is a row of Warp.val (registers,
 * special registers and immediates alike) or a predicate slot. */
typedef struct XInstr {
    uint16_t op;               /* Opcode */
    uint8_t family;            /* Family: the executor that runs it (ops.def; div of floats: mathops) */
    uint8_t type;              /* the instruction's (first) type */
    uint8_t bits;              /* its width */
    uint8_t cls;               /* 'u' 's' 'b' 'f' 'p' */
    uint8_t guard;             /* 0 none, 1 @p, 2 @!p */
    uint8_t dst_kind;          /* DstKind; a sink '_' is DST_NONE */
    uint8_t src_count;
    uint8_t mode;              /* a Mod: shfl/vote mode, compare, shf direction, mul half */
    uint8_t boolop;            /* setp .and/.or/.xor (a Mod) or 0 */
    uint8_t rounding;          /* a Mod among rn rz rm rp, or 0 */
    bool ftz, sat, clamp, wide, hi;
    bool relu;                 /* min/max.relu, fma.relu, cvt.relu: negative results become 0 */
    bool oob;                  /* fma.oob: an operand that is the OOB-NaN gives +0 */
    bool folded_move;          /* a neg of a neg, min/max of a value with itself: ptxas makes it a
                                  move of src[0] (fold.c) */
    bool acc_f32;              /* multimem.ld_reduce.acc::f32: halves summed in f32 */
    bool satfinite;            /* cvt.satfinite: beyond the largest finite value, that value */
    bool narrow;               /* cvt into or out of a packed, tf32 or fp8 format, or .relu/.satfinite */
    bool nan_out;              /* min/max.NaN: a NaN operand gives NaN */
    bool xorsign_abs;          /* min/max.xorsign.abs */
    bool carry_out;            /* .cc: writes the lane's carry flag */
    uint8_t src_not;           /* bit i: source i is a negated predicate */
    uint8_t src_pred;          /* bit i: source i is a predicate slot */
    uint32_t guard_pred;
    uint32_t dst;              /* value row or predicate slot */
    uint32_t dst_pred;         /* second destination: the p of d|p, the q of p|q; NO_SLOT if none */
    uint32_t src[5];           /* lop3.or/.and: a, b, c, immLut, q */
    uint32_t target;           /* bra: instruction index; brx.idx: its list in Program.branch_targets */
    uint32_t target_count;     /* brx.idx: the list's length */
    uint32_t line;             /* source line, for traces and reports */
    uint32_t src_line;         /* the CUDA source line (.loc), 0: none */
    uint32_t src_file;         /* ... in m->files.data[src_file - 1] (0: no such .file) */
    uint8_t src_type;          /* cvt: the source type; dp4a, video: a's type */
    uint8_t src_type2;         /* video: b's type */
    uint16_t select[3];        /* video: the selectors of d, a and b (Operand.select; 0: none) */
    uint8_t secondary;         /* video: .add, .min or .max with c (a Mod), or 0 */
    uint8_t negate;            /* vmad, a fused fma (contract.c): bit i: source i is negated */
    bool keeps_operands;       /* a mul whose operands a fused add reads after they are written:
                                  copied first to rows keep_row, keep_row + 1 (contract.c) */
    uint32_t keep_row;
    bool plus_one;             /* vmad.po */
    const Function *owner;     /* the function the instruction is in (for names) */
    uint8_t space;             /* ld/st/cvta: Space (SPACE_NONE = generic) */
    bool to_space;             /* cvta.to */
    bool pack, unpack;         /* mov d, {a, b} / mov {a, b}, d: vec holds the parts */
    bool vmove;                /* mov.v2/.v4 {a, b}, {c, d}: vec[i] = src[i] */
    uint8_t adjust_bits;       /* a source r+imm: row adjust_row = adjust_from + adjust_by, in
                                  adjust_bits, before the instruction runs (0: none) */
    uint32_t adjust_row, adjust_from;
    int64_t adjust_by;
    uint8_t vec_count;         /* ld/st: registers moved (1, or the .v2/.v4 count); atom/red: b (and
                                  .cas's c), or b's elements */
    uint8_t dst_bits;          /* ld: width of the destination register */
    uint32_t vec[VEC_MAX];     /* ld: destination rows; st: source rows (NO_SLOT for '_'); atom/red: b */
    uint8_t elements;          /* atom, red, multimem: elements of a .v2/.v4/.v8 vector (1: a scalar) */
    uint32_t dsts[VEC_MAX];    /* atom, multimem.ld_reduce of a vector: d's elements (NO_SLOT: '_' or none) */
    int64_t offset;            /* ld/st: [base + offset] */
    uint8_t addr_bits;         /* ld/st/atom/red: the base register's width; [base + offset] wraps in it */
    uint8_t barrier;           /* bar, barrier: BARRIER_SYNC, _ARRIVE or _RED */
    uint32_t sync_kind;        /* synchronising: equal for the same opcode, types and modifiers */
    uint32_t shfl_table;       /* shfl with immediate b and c: its sources, Program.shfl_tables; NO_SLOT */
    uint8_t kop;               /* a 32-bit integer operation Kernels.int32 runs (KOP_NONE: alu.c's loops) */
    uint8_t field_rule;        /* bfe.s32/bfi.b32 with immediate position and length: ptxas's reading (bitops.c) */
    uint8_t kcmp;              /* a 32-bit integer setp Kernels.compare32 runs (KCMP_NONE: alu.c's) */
    uint8_t red_op;            /* bar.red: BARRIER_RED_POPC, _AND or _OR */
    bool has_count;            /* bar, barrier: a thread count is given (src[1]) */
    bool aligned;              /* bar, barrier.aligned: every thread must execute this very instruction */
    bool trans;                /* ldmatrix, stmatrix .trans (matrix.c) */
    bool reconverge;           /* the immediate post-dominator of a conditional branch */
    bool reads_clock;          /* a source is %clock, %clock64, %globaltimer, ...: set before it runs */
    uint32_t pdom_in, pdom_out;    /* its interval in the function's post-dominator tree (NO_SLOT: none) */
    uint8_t geom;              /* tex tld4 suld sust: an ImageGeom; txq suq: the query (a Mod) in mode */
    bool formatted;            /* sust.p: by the sample, in the surface's format */
    uint8_t out_of_range;      /* suld sust sured: MOD_TRAP (the default), MOD_CLAMP or MOD_ZERO */
    uint8_t coord_count;       /* tex tld4 suld sust: coordinate rows in coord (an array's layer first) */
    uint32_t coord[4];
    uint8_t mip;               /* tex: MOD_LEVEL (lod in src[2]), MOD_GRAD (grad[]) or 0; txq.level: MOD_LEVEL */
    bool has_sampler;          /* tex tld4: a separate sampler's handle in src[1] */
    uint32_t grad[6];          /* tex.grad: dPdx then dPdy, three rows each (NO_SLOT beyond the geometry) */
    uint32_t texel_offset[3];  /* tex tld4: the offset operand e's rows (.s32 texels), or NO_SLOT */
    uint32_t depth_ref;        /* tex tld4: the depth compare operand f's row, or NO_SLOT */
    const char *image_name;    /* a .texref or .surfref variable named instead of a handle (src[0] unused) */
    const Instr *ir;
} XInstr;

/* A variable in a function's frame: its offset from the frame's start and its size. */
typedef struct FrameSlot {
    uint32_t offset, size;
} FrameSlot;

/* A function's place in the loaded program: its code, register rows and predicate slots, and
 * its frame in each thread's .local stack: parameters, results, .local variables and the .param
 * of its call sequences. A .func's frame starts where the caller's stack ends, so each
 * activation has its own; the kernel's frame is at .local address 0. Rows frame_row.. hold, in
 * each lane, the address of the frame and of each variable in it (`ld.param [n]` and `mov r, y`
 * read them); the kernel's are constants. */
typedef struct FuncLayout {
    Function *fn;
    uint32_t code_base, row_base, pred_base;
    uint32_t frame_size;       /* bytes, return address included */
    uint32_t frame_align;      /* the largest alignment a variable in it asks for (at least 16) */
    uint32_t charge;           /* what a call costs of the --stack bytes: .local and return address */
    uint32_t frame_row;        /* row of the frame's address, then one per variable; NO_SLOT: kernel */
    uint32_t frame_vars;       /* variables with a row */
    FrameSlot *params;         /* parameters, then results */
    uint32_t *var_offset;      /* offset of each variable with a row */
} FuncLayout;

/* A parameter passed in registers (.func f(.reg .u32 a), called with a register or an
 * immediate): count rows (a vector register: its elements) from one function's rows to the
 * other's; count 0: passed in a .param variable. */
typedef struct RegPass {
    uint8_t count;
    bool pred;                 /* predicates: from and to are predicate slots */
    uint32_t from[4], to[4];
} RegPass;

/* A call site: who is called, and where in the caller's frame arguments and results are. */
enum { MAX_CALL_PARAMS = 16, DEFAULT_STACK_BYTES = 1024, MAX_STACK_BYTES = 1 << 20 };
typedef struct CallSite {
    uint32_t callee;           /* index into Program.funcs, or NO_SLOT for an indirect call */
    uint32_t caller;           /* index into Program.funcs */
    uint32_t target_row;       /* indirect: the register holding the function's address */
    uint8_t arg_count, ret_count;
    uint8_t builtin;           /* a Builtin: a function the CUDA runtime supplies (vprintf), no callee */
    FrameSlot args[MAX_CALL_PARAMS];   /* the caller's .param variables */
    FrameSlot rets[MAX_CALL_PARAMS];
    RegPass arg_regs[MAX_CALL_PARAMS]; /* or registers: caller rows to the callee's .reg parameter */
    RegPass ret_regs[MAX_CALL_PARAMS]; /* the callee's .reg results to caller rows */
} CallSite;

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

enum { BARRIER_SYNC = 1, BARRIER_ARRIVE, BARRIER_RED };
enum { BARRIER_RED_POPC = 1, BARRIER_RED_AND, BARRIER_RED_OR };

/* A block is CUDA's: x and y up to 1024, z up to 64, 1024 threads in all.
 * A grid's extent in each dimension is CUDA's (gridDim.x up to 2^31 - 1, y and z up to 65,535),
 * so it has up to about 2^63 CTAs: a CTA's number (x fastest) is 64 bits (block_cta_count). */
enum { MAX_BLOCK_THREADS = 1024, MAX_BLOCK_Z = 64, MAX_WARPS = MAX_BLOCK_THREADS / WARP_SIZE,
       MAX_GRID_X = 0x7fffffff, MAX_GRID_YZ = 65535 };

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

struct Block;
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
} ExecOptions;

enum { PROGRESS_STEPS = 1 << 20 };

/* A grid's progress (grid.c): counted by every thread that runs its CTAs, told by one. */
typedef struct GridProgress {
    atomic_uint_fast64_t ctas_done, steps;
    uint64_t ctas;
} GridProgress;

enum { PRINT_OUT = 1, PRINT_ERR = 2 };

enum { EXEC_OK = 0, EXEC_FAULT = 3 };

/* Where each lane of a shfl reads, and which lanes are in range, when b and c are the same in
 * every lane (immediates): worked out once, when the program is lowered. */
typedef struct ShflTable {
    int8_t src[WARP_SIZE];
    uint32_t in_range;
    uint8_t form, k;           /* src as a pattern Kernels.shfl32 knows (KSHFL_*), and its distance */
} ShflTable;

/* kernels.c: the lane loops most of a run's time goes to, one copy per instruction-set level. */
enum { KOP_NONE, KOP_MOV, KOP_ADD, KOP_SUB, KOP_MUL, KOP_AND, KOP_OR, KOP_XOR, KOP_SHL, KOP_SHR_U, KOP_SHR_S };
enum { KSHFL_GATHER, KSHFL_UP, KSHFL_DOWN, KSHFL_BFLY };
enum { KCMP_NONE, KCMP_EQ, KCMP_NE, KCMP_LT_U, KCMP_LE_U, KCMP_GT_U, KCMP_GE_U, KCMP_LT_S, KCMP_LE_S, KCMP_GT_S,
       KCMP_GE_S };
typedef struct Kernels {
    const char *name;          /* "baseline", "avx2", "avx512" */
    void (*select)(uint64_t *d, const uint64_t *t, uint32_t mask);                  /* lanes of mask from t */
    void (*int32)(unsigned kop, uint64_t *d, const uint64_t *a, const uint64_t *b, uint32_t mask);
    uint32_t (*compare32)(unsigned kcmp, const uint64_t *a, const uint64_t *b);    /* bit l: lane l holds */
    uint32_t (*covers)(const uint64_t *d, uint64_t m);                             /* bit l: d[l] has all of m */
    /* d[l] = a[src[l]]; form and k: src is shfl.up, .down or .bfly by k (KSHFL_GATHER: any) */
    void (*shfl32)(unsigned form, unsigned k, uint64_t *d, const uint64_t *a, const int8_t *src, uint32_t mask);
} Kernels;
const Kernels *kernels_for_cpu(void);                           /* the widest this processor runs */
unsigned kernels_available(const Kernels **out, unsigned size); /* all it runs, widest first */

/* The lowered program (lower.c): made once from the checked IR, never written back into it,
 * and read-only while it runs. Rows [0, reg_count) of each warp's values are registers, then
 * special registers, then immediates (the same in every lane); predicate slots
 * [0, pred_count - 2) are predicates, then the constants false and true. Its memory plan (where
 * each variable lives) is the regions it made in the block's Memory. */
/* The form of one mma (mma.c), decoded once when lowered. */
typedef enum MmaType { MT_NONE, MT_S32, MT_S8, MT_U8, MT_S4, MT_U4, MT_B1, MT_F16, MT_BF16, MT_TF32,
                       MT_E4M3, MT_E5M2, MT_F32, MT_F64 } MmaType;
enum { MMA_SAT = 1, MMA_XOR_POPC = 2, MMA_AND_POPC = 4, MMA_SPARSE = 8, MMA_A_COL = 16, MMA_B_ROW = 32 };
typedef struct MmaForm {
    uint16_t m, n, k;
    uint8_t a, b, c, d;                       /* MmaType of A's, B's, C's, D's elements */
    uint8_t a_regs, b_regs, c_regs, d_regs;   /* registers in each vector operand */
    uint8_t flags;                            /* MMA_* */
    uint32_t rows;                            /* its D, A, B, C (then e, selector) rows in Program.mma_rows */
} MmaForm;

typedef struct Program {
    Module *m;
    Function *fn;              /* the kernel */
    XInstr *code;
    uint32_t code_len;
    uint32_t kernel_code_len;  /* the kernel's instructions come first */
    uint32_t reg_count;
    uint32_t first_immediate;
    uint32_t row_count;
    uint64_t *immediates;      /* the values of rows first_immediate.. */
    uint32_t pred_count;
    uint32_t sreg_rows[SREG_COUNT][4];  /* row of each special register (.x .y .z = 1..3); NO_SLOT */
    uint16_t sreg_used[SREG_COUNT * 4]; /* s * 4 + c of each sreg_rows[s][c] that is a row, ascending */
    uint32_t sreg_used_count;
    uint32_t *handle_rows;     /* each kernel parameter's: the row an instruction naming a .texref,
                                * .surfref or .samplerref parameter reads its handle from (block.c
                                * fills it from the parameter buffer at each CTA's start); NO_SLOT */
    FuncLayout *funcs;         /* funcs[0] is the kernel */
    uint32_t func_count;
    CallSite *calls;
    uint32_t call_count;
    uint32_t *branch_targets;  /* the .branchtargets lists brx.idx uses, as instruction indices */
    uint32_t branch_target_count;
    MmaForm *mma_forms;        /* each mma's form, at its XInstr.target (mma.c) */
    uint32_t mma_form_count;
    uint32_t *mma_rows;        /* each mma's D, A, B, C registers' rows, from its form's rows */
    uint32_t mma_row_count;
    struct ShflTable *shfl_tables;
    uint32_t shfl_table_count;
    uint32_t local_region;     /* the threads' .local memory: the kernel's frame, then the stack */
    uint32_t alloca_region;    /* .local below MEM_ALLOCA_TOP, alloca's stack; NO_SLOT: no alloca */
    uint32_t param_region;     /* the kernel's parameter buffer */
    uint32_t dynamic_region;   /* the CTA's dynamic .shared block */
    uint32_t reserved_region;  /* the system's reserved .shared bytes, after the dynamic block; NO_SLOT
                                * when no %reserved_smem_offset_* is read */
    uint32_t stack_bytes;      /* --stack */
    const Kernels *kernels;    /* kernels_for_cpu() */
    bool prints;               /* it calls vprintf or __assertfail: its CTAs run in order (grid.c) */
    bool uses_images;          /* it reads or writes textures or surfaces: its CTAs run in order too */
} Program;

typedef struct Block Block;

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

/* One warp of the CTA: its lanes' registers, predicates, pcs and call stacks, nothing else. */
typedef struct Warp {
    Block *block;
    const Program *prog;       /* the block's */
    uint32_t index;            /* %warpid */
    uint32_t thread_base;      /* the CTA thread number of lane 0 */
    uint64_t (*val)[WARP_SIZE];/* val[row][lane] */
    uint32_t *defined;         /* defined[row]: lanes whose value is defined in every bit */
    uint64_t (*bits)[WARP_SIZE];   /* bits[row][lane]: for a lane not in defined[row], the bits of
                                * its value that are defined (0: none; warp_define keeps it) */
    uint32_t *pred;            /* pred[slot]: lanes where true */
    uint32_t *pred_defined;
    uint32_t pc[WARP_SIZE];
    uint64_t last_run[WARP_SIZE];  /* step at which each lane last executed */
    uint32_t carry, carry_defined;  /* CC.CF of each lane (add.cc, addc, ...) */
    uint32_t carry_by_sub;     /* lanes whose CC.CF a sub.cc/subc wrote (the readings differ) */
    uint32_t launched;         /* lanes that run */
    uint32_t exited;
    uint32_t waiting;          /* lanes blocked at a synchronising instruction */
    uint32_t at_barrier;       /* those of them waiting at a CTA barrier (bar, barrier) */
    Arrival arrival[WARP_SIZE];
    StepTrace *trace;          /* non-NULL while tracing */
    Frame *stack[WARP_SIZE];   /* each lane's calls, depth[lane] of them */
    uint32_t stack_cap[WARP_SIZE];
    uint32_t sp[WARP_SIZE];    /* the end of each lane's .local stack */
    uint32_t stack_ptr[WARP_SIZE]; /* the stack pointer of stacksave: alloca's lowest byte, or MEM_ALLOCA_TOP */
    uint32_t charged[WARP_SIZE];   /* the --stack bytes its calls use */
    uint32_t (*active)[WARP_SIZE]; /* active[f][lane]: activations of function f on the lane's stack */
    SaveArea saves[WARP_SIZE];
    uint32_t depth[WARP_SIZE];
    uint64_t steps;            /* the warp's own clock: starvation, arrival times */
    uint32_t next_pc, last_mask, previous_ready;   /* where the loop left off (see warp_run) */
    VEC(Warning) warnings;
    bool faulted;
} Warp;

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
};

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

/* The image a handle names, or NULL: a variable's handle names the lanes file's image of its name. */
static inline const Image *image_of(const Block *b, uint64_t handle)
{
    const Decl *d = opaque_of(b, handle);
    for (uint32_t i = 0; d && i < b->image_count; i++)
        if (b->images[i].name == d->name)
            return &b->images[i];
    return handle - IMAGE_HANDLE_BASE < b->image_count ? &b->images[handle - IMAGE_HANDLE_BASE] : NULL;
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

/* The lowering's state (lower.c), which operand.c and callsite.c lower operands and calls in. */
typedef struct Loader {
    Program *p;
    Memory *mem;               /* where the memory plan goes: the block's */
    Diag *diag;
    const FuncLayout *cur;     /* the function being loaded */
    uint32_t total_preds;      /* constant predicates follow every function's predicates */
    uint32_t sreg_row[SREG_COUNT][4];    /* row of each special register component */
    VEC(uint64_t) immediates;             /* values of the immediate rows, in order */
    Layout layout;             /* what each name means, where it lives */
    bool failed;
    bool check_only;           /* --check: only what lowering refuses matters, nothing will run */
} Loader;

void operand_cannot(Loader *ld, const Instr *in, const char *what);
void operand_parts(Loader *ld, const Instr *in, const Operand *parts, XInstr *x, bool unpack, int part_type,
                   const char *what);     /* mov {a, b, ...}: the parts into vec */      /* "ptxrun cannot execute ... yet" */
/* The row holding the handle of the kernel's .texref/.surfref/.samplerref parameter o names (its
 * space in *space), or NO_SLOT when o names no such parameter. */
uint32_t operand_handle_param(Loader *ld, const Operand *o, int *space);
uint64_t operand_immediate_bits(const Operand *o, int type);
uint32_t operand_immediate_row(Loader *ld, uint64_t bits);              /* a placeholder row until the end */
bool operand_find_symbol(const Loader *ld, const Operand *o, Symbol *out);
uint32_t operand_source(Loader *ld, const Instr *in, const Operand *o, int type, XInstr *x, unsigned i);
void operand_address(Loader *ld, const Instr *in, const Operand *o, XInstr *x);
void operand_data(Loader *ld, const Instr *in, const Operand *o, XInstr *x, bool store);
void operand_destination(Loader *ld, const Instr *in, const Operand *o, XInstr *x);
void callsite_load(Loader *ld, const Instr *in, XInstr *x);             /* call: Program.calls */
void image_load(Loader *ld, const Instr *in, XInstr *x);                /* tex tld4 txq suld sust sured suq istypep */


/* lower.c: the checked IR lowered into a Program; the memory plan goes into mem. False after
 * reporting what cannot run (lower_free then releases what was made). check_only (--check):
 * the Program is only looked at for what it refuses and never runs, so the steps after the
 * refusals (source lines, reconvergence points, immediate rows, kernels, register names) are
 * skipped; such a Program must only be freed. */
bool lower_program(Program *p, Memory *mem, Module *m, Function *fn, Diag *diag, uint32_t stack_bytes,
                   bool check_only, bool fmad);
void lower_free(Program *p);
/* contract.c: the mul and add/sub pairs ptxas fuses into one fma (docs/semantics.md,
 * "Contraction"). contract_function finds them in one function (instruction indices), and where
 * ptxas fuses but ptxrun does not (Unfused); contract_program makes each fused add of a lowered
 * Program an fma of the mul's operands and warns once, naming the lines (and the Unfused ones). */
typedef struct Fusion {
    uint32_t add, mul;
    uint8_t operand;           /* the add's operand (1 or 2) that is the product */
    uint8_t negate;            /* XInstr.negate of the fma: bit 0 the product, bit 2 the other operand */
    bool keep;                 /* an operand of the mul is written before the add: the mul keeps them */
} Fusion;
typedef struct Unfused {
    uint32_t at;               /* the add, or the atom/red */
    uint8_t why;               /* UNFUSED_SHARED_ATOMIC: atom/red.shared.add.f32 of a mul by a constant;
                                  UNFUSED_DIVISION: an add of a div.approx/.full.f32's quotient;
                                  UNFUSED_LOST_ADD: an add of a product that lost another add */
} Unfused;
enum { UNFUSED_SHARED_ATOMIC, UNFUSED_DIVISION, UNFUSED_LOST_ADD, UNFUSED_KINDS };
uint32_t contract_function(const Function *fn, Fusion **fused, Unfused **unfused, uint32_t *unfused_count);
void contract_program(Program *p, Diag *diag);
Function *lower_entry(Module *m, const char *name);           /* the kernel to run (NULL: the first) */
enum { MAX_INSTRUCTIONS = 1 << 24 };                        /* per program */
/* lowercheck.c: for --check, what lowering each kernel of m refuses (as its run would), in
 * time linear in m. */
void lower_check_all(Module *m, Diag *diag);
/* The same as parse_module_stream hands over the functions (each checked, without errors):
 * lower_check_function lowers f now when it can and returns true when f's body may then be
 * dropped; lower_check_end lowers the kernels kept and returns false when the answer may not be
 * lower_check_all's (then check the whole module). The first kernel kept (lower_check_waits) is
 * lowered with the whole module where whole_here, else with what it reaches: with several readers
 * of one module (cli/checkstream.c), one of those that have kernels lowers the whole module. */
typedef struct LowerCheck LowerCheck;
LowerCheck *lower_check_new(Module *m, Diag *diag);
bool lower_check_function(LowerCheck *lc, Function *f);
bool lower_check_waits(const LowerCheck *lc);
bool lower_check_end(LowerCheck *lc, bool whole_here);
void lower_check_free(LowerCheck *lc);
/* A run's functions: the kernel and those it may reach, through its code and theirs and the
 * initializers of every module variable (a run lays them all out), and every .func when that code
 * takes a function's address or calls through one, in module order; *count of them, in a new array. */
Function **lower_reached(const Module *m, const Function *kernel, uint32_t *count);

/* cfg.c: post-dominators and reconvergence points of one function's code. */
void cfg_reconvergence(XInstr *code, const uint32_t *targets, const FuncLayout *f);
bool cfg_postdominates(const XInstr *code, uint32_t p, uint32_t q);   /* every path from q passes p */

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

/* vbits.c: definedness bit by bit. The defined bits of a result from those of its inputs
 * (da, db; all ones where defined), width bits wide: a Kernels op (KOP_*) a op b; every bit or
 * none; a conversion that truncates or extends (zero or sign). */
uint64_t vbits_binary(unsigned kop, uint64_t a, uint64_t da, uint64_t b, uint64_t db, unsigned width);
uint64_t vbits_whole(uint64_t da, uint64_t db, unsigned width);
uint64_t vbits_convert(uint64_t da, unsigned from, unsigned to, bool sign);
/* An ALU instruction's lanes of mask where a source is not defined in every bit (defined: the
 * lanes where all are): their results' defined bits into dbits, read before the destination is
 * written; vbits_define_partial then gives those lanes those bits. */
uint32_t vbits_partial_results(const Warp *w, const XInstr *x, uint32_t mask, uint32_t defined, uint64_t *dbits);
void vbits_define_partial(Warp *w, const XInstr *x, uint32_t lanes, const uint64_t *dbits);
void vbits_define_row(Warp *w, uint32_t row, uint32_t lanes, const uint64_t *dbits, unsigned width);

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
typedef enum { BUILTIN_NONE, BUILTIN_VPRINTF, BUILTIN_ASSERTFAIL } Builtin;
Builtin builtin_named(const char *name);                  /* BUILTIN_NONE: not one of them */
/* The parameter sizes CUDA gives it (bytes, 0 ends the list), and its result's (0: none). */
const uint8_t *builtin_params(Builtin f, uint8_t *result_size);
void builtin_call(Warp *w, uint32_t pc, uint32_t run);    /* the lanes of run call it, lowest first */
void builtin_clock(Warp *w);                              /* the clock registers, now */

/* warp.c: one warp's loop. */
void warp_reset(Warp *w);
bool warp_run(Warp *w, const ExecOptions *options, uint64_t slice);   /* false: no lane was ready */

/* block.c: the CTA and the grid; the handle the driver holds. */
/* NULL after reporting what cannot run; stack_bytes: each thread's stack for the frames of calls. */
Block *block_load(Module *m, Function *fn, Diag *diag, uint32_t stack_bytes);
/* ... fmad: mul and add pairs fused as ptxas fuses them (contract.c), as block_load does */
Block *block_load_fmad(Module *m, Function *fn, Diag *diag, uint32_t stack_bytes, bool fmad);
/* The bytes of kernel parameter i in the parameter buffer, and its size. */
uint8_t *block_param_bytes(Block *b, uint32_t i, uint8_t **shadow, uint32_t *size);
void block_set_dynamic_shared(Block *b, uint32_t bytes);
/* The block's shape: creates its warps, fills the special registers. Ask block_fits first:
 * each thread has its own copy of .local. */
bool block_fits(const Block *b, const uint32_t ntid[3], Msg *err);
void block_set_shape(Block *b, const uint32_t ntid[3], uint32_t active);
void block_set_grid(Block *b, const uint32_t nctaid[3]);
/* bounds.c: false, after reporting at the directive, when the kernel's launch bounds refuse the block
 * set or the clusters (cluster: the shape given, NULL for none); note follows the block's shape. */
bool bounds_check(const Block *b, const uint32_t *cluster, const char *note);
void block_start(Block *b);                               /* before the first CTA */
bool block_run_cta(Block *b, const ExecOptions *options, uint64_t cta);   /* false: stopped early */
int block_finish(Block *b, const ExecOptions *options, bool faulted);    /* EXEC_OK or EXEC_FAULT */
/* Adds b's steps to its grid's progress (every PROGRESS_STEPS, or now with `now`) and, on
 * grid_run's thread, tells ExecOptions.progress. */
void block_progress(Block *b, const ExecOptions *options, bool now);
Block *block_worker_new(const Block *b);                  /* for grid.c; freed by block_free */
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

/* layout.c (the Layout type is above) */
uint64_t layout_decl_bytes(const Decl *d);
bool layout_fits(const Program *prog, Diag *diag);
uint64_t layout_variables_bytes(const Decl *d, uint32_t n);   /* what layout_fits counts for them */
uint32_t layout_frames(Layout *ly, Program *prog, uint32_t rows);     /* returns the rows after the frames' */
bool layout_memory(Layout *ly, Program *prog, uint32_t stack_bytes);
#define LAYOUT_BY_NAME 0xffffffffu    /* not an enum: beyond int */
bool layout_find(const Layout *ly, const Program *prog, uint32_t func, const char *name, uint32_t decl, Symbol *out);
void layout_free(Layout *ly, uint32_t func_count);

/* barrier.c: bar and barrier. */
void barrier_arrive(Warp *w, uint32_t pc, uint32_t lanes);
void barrier_threads_exited(Block *b);                    /* barriers for all threads may complete */
void barrier_report_waits(Block *b);                      /* deadlock notes for barrier waits */

/* trace.c: --trace, one warp-step at a time. */
void trace_step(FILE *out, const Warp *w, const ExecOptions *o, uint32_t pc, uint32_t mask);
void trace_json_string(FILE *out, const char *s);     /* s in quotes, escaped as JSON */

/* alu.c: integer, float, logic, compare, select and move, over the lanes of mask. */
void alu_execute(Warp *w, const XInstr *x, uint32_t mask);
void alu_kernel_forms(XInstr *x);                                 /* lower.c: sets kop and kcmp */
void alu_kernel(Warp *w, const XInstr *x, uint32_t mask);         /* one with kop or kcmp */
void pack_execute(Warp *w, const XInstr *x, uint32_t mask);     /* pack.c: mov packing, unpacking, mov.v4 */
/* wide.c: .b128 registers (two rows each): lowering their instructions; atom128.c: atom's 16 bytes */
void wide_lower(Loader *ld, const Instr *in, XInstr *x);
bool wide_other_ok(Loader *ld, const Instr *in);
void atom128_lane(Warp *w, const XInstr *x, int lane, uint8_t *p, uint8_t *shadow);

/* bitops.c: popc clz bfind brev bfe bfi prmt lop3 bmsk szext, integer div and rem. */
void bitops_execute(Warp *w, const XInstr *x, uint32_t mask);
void bitops_field_rule(const Program *p, XInstr *x, bool data_known);   /* fold.c: sets field_rule */

/* video.c: the video instructions, scalar and SIMD. */
void video_execute(Warp *w, const XInstr *x, uint32_t mask);
void video_lower(XInstr *x, const Instr *in);           /* lower.c: selectors, negations, modes */

/* sample.c: what a texture read samples (the CUDA guide's "Texture Fetching"). */
typedef struct TexSample {
    double value[4];           /* filtered (linear filtering, normalized reads, blended levels) */
    uint64_t bits[4];          /* nearest-point: the texel's bits */
    uint64_t dbits[4];         /* all ones: defined */
    bool filtered;             /* value holds the result, else bits */
    bool warn_weight, warn_convert, warn_level, off_face;
    uint8_t compare;           /* depth compare (a Sampler.compare), 0: none; ref the value */
    double ref;
} TexSample;
/* Depth compare (tex, tld4 with f): 1.0 where reference ref and the texel's value pass the
 * sampler's comparison (OpenGL's reading: ref OP texel), else 0.0. */
double sample_depth_test(const Image *im, int compare, double ref, uint64_t bits);
/* A normalized coordinate of dimension d under the sampler's wrap or mirror addressing. */
double sample_address(const Sampler *sm, unsigned d, double v);
/* Sample at coordinates u (addressed; texels, or normalized ones or a cube face's in [0, 1]),
 * layer, multisample sample smp, level of detail lod (mipmaps). */
void sample_texture(const Warp *w, const Image *im, const Sampler *sm, const double u[3], int64_t layer,
                    uint32_t smp, double lod, bool face, TexSample *s);
bool sample_cube_face(const double v[3], double uv[2], unsigned *face);
double sample_grad_lod(const Image *im, const Sampler *sm, const double dx[3], const double dy[3]);
bool sample_gather(const Warp *w, const Image *im, const Sampler *sm, const double u[2], int64_t layer, bool face,
                   unsigned c, uint64_t bits[4], uint64_t dbits[4]);

/* surface.c and texture.c: textures and surfaces. image_lower decodes their suffixes for lower.c:
 * the geometry, the out-of-range mode, the query, the coordinates and registers they take. */
void image_lower(XInstr *x, const Instr *in);
/* The image lane l's handle names, a surface or a texture, with the instruction's geometry and
 * defined coordinates; NULL after reporting a fault. */
const Image *image_for(Warp *w, const XInstr *x, int l, bool surface);
void surface_execute(Warp *w, const XInstr *x, uint32_t mask);     /* suld sust sured suq */
void texture_execute(Warp *w, const XInstr *x, uint32_t mask);     /* tex tld4 txq istypep */

/* mathops.c: float div rcp sqrt rsqrt sin cos lg2 ex2 tanh, copysign, testp, slct. */
void mathops_execute(Warp *w, const XInstr *x, uint32_t mask);
/* approx.c: the H100's .approx/.full results (op an OP_ code; f32 operands and result as bits). */
uint32_t approx_f32(int op, bool full, bool ftz, uint32_t a, uint32_t b);
uint64_t approx_f64(int op, bool ftz, uint64_t a);     /* rcp.approx.ftz.f64, rsqrt.approx[.ftz].f64 */
uint32_t approx_half(int op, int type, bool ftz, uint32_t a);   /* ex2, tanh of one f16 or bf16 */

/* half.c: f16, bf16 (alone and in pairs), tf32, e4m3, e5m2: arithmetic, compares, rounding. */
enum { HALF_FTZ = 1, HALF_SAT = 2, HALF_RELU = 4, HALF_NAN = 8, HALF_XORSIGN = 16, HALF_OOB = 32 };   /* half_op flags */
uint32_t half_op(int op, int type, unsigned flags, uint32_t a, uint32_t b, uint32_t c);   /* one 16-bit half */
bool half_compare(int cmp, int type, bool ftz, uint32_t a, uint32_t b);
double half_decode(uint32_t v, int type);                     /* exact; NaN for any NaN */
bool half_is_nan(uint32_t v, int type);
uint32_t half_encode(double v, int type, int mode, bool satfinite);   /* v exact or rounded to odd */
double half_sum_to_odd(double a, double b);                   /* a + b rounded to odd */
bool half_tiny(double v, unsigned frac, int emin, int mode);  /* .ftz: tiny after rounding (IEEE 754) */
bool half_type(int type);                                     /* f16 f16x2 bf16 bf16x2 */
bool half_executes(const XInstr *x);                          /* lower.c: an ALU instruction for half.c */
void half_execute(Warp *w, const XInstr *x, uint32_t mask);

/* fold.c: the neg and min/max instructions ptxas makes moves of (XInstr.folded_move). */
void fold_moves(Program *p);                                  /* lower.c, once the code is loaded */

/* convert.c */
void convert_execute(Warp *w, const XInstr *x, uint32_t mask);
bool convert_narrow_form(int to, int from, bool relu, bool satfinite, int rounding, unsigned operands);
double convert_small_to_double(uint64_t bits, int type);     /* f16, bf16 */
bool convert_is_nan(uint64_t bits, int type);                  /* f16, bf16, f32, f64 */
uint64_t convert_nan(uint64_t bits, int from, int to);         /* a NaN in another format, quieted */
double float_from_bits(uint64_t bits, unsigned width, bool ftz);   /* f32 (flushed if ftz) or f64 */
uint64_t float_to_bits(double v, unsigned width, bool ftz);        /* rounded in the current mode; NaN canonical */
uint64_t convert_double_to_small(double v, int type);        /* rounded to nearest even */

/* format.c: one value as text in its type. */
void format_value(char *buf, size_t size, uint64_t bits, int type);       /* as the table shows it */
void format_json_value(char *buf, size_t size, uint64_t bits, int type);  /* as --json writes it */
void format_wide_bits(char *buf, size_t size, const uint64_t v[2], const uint64_t d[2], bool json);  /* 128 bits */
void format_wide(char *buf, size_t size, const Warp *w, uint32_t row, int lane, bool json);  /* a .b128 register */
void format_partial(char *buf, size_t size, uint64_t bits, uint64_t dbits, unsigned width);  /* "0x0000??00" */

/* warpops.c: the exchange instructions, for the lanes that complete them together. */
/* at: the instruction when every lane runs the same one; NULL: each lane's own, found through
 * arrival[lane].pc (lanes that met from different pcs). */
/* The sources of shfl mode `mode` with b and c in each lane (uniform: lane 0's for all);
 * returns the lanes in range. */
uint32_t warpops_shfl_sources(int mode, const uint64_t *b, const uint64_t *c, bool uniform, int8_t src[WARP_SIZE]);
void warpops_shfl_tables(Program *p);     /* lower.c: the tables of shfl with immediate b and c */
void warpops_shfl(Warp *w, const XInstr *at, uint32_t lanes, uint32_t participants, uint32_t guard_true);
void warpops_vote(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true);
void warpops_shf(Warp *w, const XInstr *x, uint32_t mask);
void warpops_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true);   /* shfl, vote, activemask, shf, mma */
/* mma.c: mma.sync.aligned. The form of one mma, decoded once when lowered (Program.mma_forms,
 * indexed by its XInstr.target); forms not run yet are refused then. */
void mma_lower(Loader *ld, const Instr *in, XInstr *x);
void mma_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true);
unsigned mma_type_bits(unsigned t);
bool mma_form_runs(const MmaForm *f);       /* whether ptxrun runs its arithmetic (else refused) */
/* Element i of lane's fragment of 'a', 'b', 'c' or 'd' of f: its row and column. */
void mma_layout(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col);
/* One element of D: a[0..k-1] a row of A, b[0..k-1] a column of B, c: raw bits of each element
 * (in the low bits); D's raw bits. *nan_choice: the H100's bits unrecorded (f64: two different
 * NaNs met; f16/bf16/tf32: mmaf_dot's *unrecorded). */
uint64_t mma_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c, bool *nan_choice);
/* mma884.c: m8n8k4 with .f16 A and B: four 8x8x4 products, one per quad-pair of lanes, their
 * matrices stacked (pair p: A's rows, B's columns, C's rows 8p..8p+7); one element of D. */
bool mma884_form(const MmaForm *f);
void mma884_layout(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col);
uint64_t mma884_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c);
/* {d...}, {a...}, {b...}, {c...} of an mma: count registers of bits bits (immediates in sources)
 * into rows, 32-bit ones of a kind ptxas takes for elements of MmaType t; false if not that. */
bool mma_vector_rows(Loader *ld, const Operand *o, unsigned count, unsigned bits, unsigned t, bool dst, uint32_t *rows);
/* Element i of a fragment held in regs (lane l), of bits bits: its raw bits; *undef: any undefined. */
uint64_t mma_element(const Warp *w, const uint32_t *regs, unsigned l, unsigned i, unsigned bits, bool *undef);
/* x's form f appended to Program.mma_forms (its total rows just written at the end of mma_rows) */
void mma_add_form(Program *p, MmaForm f, unsigned total, XInstr *x);
/* D (raw bits and undefined, element (i, j) at i * stride + j) into the D registers d, each
 * element's bits defined or not on their own; all undefined when the guard is */
void mma_scatter(Warp *w, const XInstr *x, const MmaForm *f, const uint32_t *d, const uint64_t *D,
                 const bool *undefined, unsigned stride);
/* mmasp.c: mma.sp and mma.sp::ordered_metadata (forms with flags MMA_SPARSE; fp8 refused when
 * lowered). mma_rows after C: the metadata register's row, the selector's. */
void mmasp_lower(Loader *ld, const Instr *in, XInstr *x);
void mmasp_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true);
void mmasp_layout_b(const MmaForm *f, unsigned lane, unsigned i, unsigned *row, unsigned *col);
/* Element i of lane's fragment of 'a' (the compressed m x k/2), 'b', 'c' or 'd' of a sparse f */
void mmasp_layout(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col);
/* The view's sparse part (v laid out by mmaview_lay_out with mmasp_layout, A read or not): the
 * metadata as the registers hold it now, A packed and made dense (MatrixView) */
void mmasp_view(const Warp *w, const XInstr *x, MatrixView *v);
/* The metadata nibble of chunk j of A's row r: lane and first bit, with threads of each group of
 * four giving metadata and the selector. */
void mmasp_meta_at(unsigned threads, unsigned selector, unsigned r, unsigned j, unsigned *lane, unsigned *bit);
/* The dense columns of chunk j's kept elements into pos (by compressed column), by its nibble
 * (A's element bits); false for a value the PTX ISA leaves undefined. */
bool mmasp_place(unsigned abits, bool ordered, unsigned nibble, unsigned j, uint8_t *pos);
/* mmafloat.c: one D element of an mma with f16, bf16 or tf32 A and B (f32 or f16 C and D), as
 * the H100 computes it; a, b: k elements, c: C's raw bits; D's raw bits. unrecorded: NULL, or
 * set when the bits rest on a choice no recording decides (docs/semantics.md) and another
 * choice would give other bits. */
uint64_t mmaf_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c, bool *unrecorded);
/* mmaf_terms: count elements of A or B (type) decoded once; mmaf_dot_terms: mmaf_dot's D element
 * from a row of A's and a column of B's terms (mma.c decodes each element once per mma). */
typedef struct MmafTerm { uint32_t sig; int16_t align; uint8_t sign, kind; } MmafTerm;
void mmaf_terms(unsigned type, const uint64_t *raw, unsigned count, MmafTerm *out);
uint64_t mmaf_dot_terms(const MmaForm *f, const MmafTerm *x, const MmafTerm *y, uint64_t c, bool *unrecorded);
/* mmafp8.c: one D element of an mma with e4m3/e5m2 A and B (f32 or f16 C and D), as ptxas's
 * sm_90 code computes it on the H100 (two f16 HMMA, then C added); mma8_recorded: whether the
 * form's arithmetic was recorded on the H100 (mma.c warns when another one runs). */
uint64_t mma8_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c);
bool mma8_recorded(const MmaForm *f);
/* mma8_terms: a row of A or column of B (k fp8 elements of type) as the f16 terms of the two
 * HMMA, those with k % 4 < 2 first; mma8_dot_terms: mma8_dot's D element from them. */
void mma8_terms(unsigned type, const uint64_t *raw, unsigned k, MmafTerm *out);
uint64_t mma8_dot_terms(const MmaForm *f, const MmafTerm *x, const MmafTerm *y, uint64_t c);
void warpops_match(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true);
void warpops_redux(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true);
void warpops_elect(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true);

/* wmma.c, wmmalayout.c: wmma.load, wmma.mma, wmma.store (x->mode: a WmmaShape). */
enum { WMMA_M16N16K16 = 1, WMMA_M32N8K16, WMMA_M8N32K16, WMMA_M16N16K8, WMMA_M8N8K4, WMMA_M8N8K32, WMMA_M8N8K128 };
void wmma_lower(Loader *ld, const Instr *in, XInstr *x);
void wmma_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true);
void wmma_warn_fragments(const Program *p, Diag *diag);   /* other instructions naming a fragment's register */
void wmma_dims(unsigned shape, unsigned *m, unsigned *n, unsigned *k);
void wmma_matrix_dims(unsigned shape, char which, unsigned *rows, unsigned *cols);
bool wmma_type_fits(unsigned shape, char which, int type);
unsigned wmma_regs(unsigned shape, char which, int type);
unsigned wmma_elements(unsigned shape, char which, int type);
/* element i of lane's fragment of matrix which ('a', 'b', 'c' or 'd') of elements of type */
void wmma_layout(unsigned shape, char which, int type, unsigned lane, unsigned i, unsigned *row, unsigned *col);
/* wmma.mma's form (Program.mma_forms: its m, n, k and types, D A B C rows): element i of lane's
 * fragment of 'a', 'b', 'c' or 'd' (a MatrixPlace, for --matrix and --trace) */
void wmma_place(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col);

/* matrix.c: ldmatrix, stmatrix, movmatrix for the whole warp (at: NULL when lanes came from different pcs) */
void matrix_ldmatrix(Warp *w, const XInstr *at, uint32_t lanes);
void matrix_stmatrix(Warp *w, const XInstr *at, uint32_t lanes);
void matrix_movmatrix(Warp *w, const XInstr *at, uint32_t lanes);
/* mmaview.c: a matrix instruction's execution as a MatrixView (--matrix). mmaview_begin, before
 * the instruction writes D (NULL unless ExecOptions.on_matrix is set), reads A, B, C by the form
 * and the layout the caller gives (place: element i of lane's fragment of 'a', 'b', 'c' or 'd');
 * mmaview_end, after it, reads D and hands the view to on_matrix. */
typedef void (*MatrixPlace)(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col);
typedef struct MatrixSource {
    const MmaForm *form;
    const uint32_t *rows;      /* D, A, B, C */
    MatrixPlace place;         /* 'd': D's places */
    unsigned products;         /* MatrixView.products */
} MatrixSource;
MatrixView *mmaview_begin(const Warp *w, const XInstr *x, const MatrixSource *s);
void mmaview_end(MatrixView *v);
void mmaview_lay_out(const Warp *w, const XInstr *x, const MatrixSource *s, MatrixView *v);   /* places only */
void mmaview_free(MatrixView *v);
const char *mmaview_row_name(const Program *p, const XInstr *x, uint32_t row);   /* NULL: not a register */
/* mmasource.c: whether x gives a view, and its places (--trace; mmaview_free frees it) */
bool mmasource_has(const Program *p, const XInstr *x);
bool mmasource_layout(const Warp *w, const XInstr *x, MatrixView *v);
/* tracefrag.c: --trace's fragments of a matrix instruction, lane by lane (json: members) */
void tracefrag_step(FILE *out, const Warp *w, const XInstr *x, bool json);
/* mma_execute, D worked out (d: m x n raw bits, row after row; undefined: per element, or all
 * of them), before D is written: the view to ExecOptions.on_matrix */
void mmaview_mma(const Warp *w, const XInstr *x, const uint64_t *d, const bool *undefined, bool all_undefined);

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
void mem_execute(Warp *w, const XInstr *x, uint32_t mask);     /* ld, st, cvta */
/* For atomic.c and multimem.c: the checks and bytes of one lane's access. */
bool mem_address_defined(Warp *w, const XInstr *x, uint32_t mask, uint32_t pc);   /* else a fault */
uint64_t mem_lane_address(const Warp *w, const XInstr *x, int lane);   /* [base + offset] */
int mem_space_of(uint64_t generic, uint64_t *address);      /* a generic address's space and address in it */
/* The size bytes at address (aligned to size, in one region, writable if store) and their
 * shadow; NULL after a fault. */
uint8_t *mem_locate(Warp *w, const XInstr *x, int lane, uint64_t address, unsigned size, bool store,
                    uint8_t **shadow);
/* For multimem.*: the size bytes at lane's multimem address in each copy of the multicast
 * object (data[i], shadow[i]); how many copies, or 0 after a fault (not a multimem address). */
unsigned mem_locate_copies(Warp *w, const XInstr *x, int lane, uint64_t address, unsigned size, uint8_t **data,
                           uint8_t **shadow);
uint64_t mem_read_bytes(const uint8_t *p, unsigned size);   /* little-endian */
void mem_write_bytes(uint8_t *p, uint64_t v, unsigned size);

/* atomic.c: atom, red (scalars and .v2/.v4/.v8 vectors): lane by lane, lowest first. */
void atomic_execute(Warp *w, const XInstr *x, uint32_t mask);
/* old updated with b (c: .cas's); global: a .global address (an f32 add flushes subnormals, an
 * f64 add keeps a signalling NaN); *nan_choice set when a .min/.max of halves meets a NaN. Then
 * the new value's defined bits. */
uint64_t atomic_update(const XInstr *x, uint64_t old, uint64_t b, uint64_t c, bool global, bool *nan_choice);
uint64_t atomic_defined_bits(const XInstr *x, uint64_t old, uint64_t old_bits, uint64_t b, uint64_t b_bits,
                             uint64_t c_bits);

/* multimem.c: multimem.ld_reduce, .st, .red on the copies of a multicast object. */
void multimem_execute(Warp *w, const XInstr *x, uint32_t mask);
/* gridtrack.c: who touched which .global word in a grid on threads, and the bytes to put back. */
GridTrack *gridtrack_new(const Memory *mem);     /* for every .global region of mem, nobody yet */
void gridtrack_free(GridTrack *t);
bool gridtrack_access(Memory *mem, const Region *r, uint64_t offset, uint64_t size, bool read, bool write);
uint8_t *gridtrack_shadow(GridTrack *t, uint32_t region, uint64_t size);
void gridtrack_end(GridTrack *t, Memory *mem, bool restore);

#endif
