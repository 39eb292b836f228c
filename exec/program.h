/* program.h: the lowered program: a checked kernel and the functions it may call made once
 * (lower.c) into XInstr code over rows of lane values, with their frames, call sites, mma forms
 * and the lane loops that run it (kernels.c); what each name means and where it lives (Layout,
 * layout.c); the lowering's state (Loader) and its passes (operand.c, callsite.c, contract.c,
 * lowercheck.c, cfg.c, fold.c). Read-only while it runs, shared by every warp. */
#ifndef PTXRUN_PROGRAM_H
#define PTXRUN_PROGRAM_H

#include "memory.h"

#define NO_SLOT 0xffffffffu       /* no register or predicate */
#define ALL_LANES 0xffffffffu     /* every lane of the warp */

typedef enum { DST_NONE, DST_VALUE, DST_PRED } DstKind;

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
    bool cluster_space;        /* .shared::cluster: the shared memory of any CTA of the cluster (cluster.c) */
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
    int64_t src_offset;        /* cp.async: its source address [src[1] + src_offset] */
    uint8_t src_addr_bits;     /* and src[1]'s width */
    uint8_t barrier;           /* bar, barrier: BARRIER_SYNC, _ARRIVE or _RED; barrier.cluster: BARRIER_CLUSTER_* */
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

enum { BARRIER_SYNC = 1, BARRIER_ARRIVE, BARRIER_RED, BARRIER_CLUSTER_ARRIVE, BARRIER_CLUSTER_WAIT };
enum { BARRIER_RED_POPC = 1, BARRIER_RED_AND, BARRIER_RED_OR };

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

/* The lowered program (lower.c): made once from the checked IR, never written back into it,
 * and read-only while it runs. Rows [0, reg_count) of each warp's values are registers, then
 * special registers, then immediates (the same in every lane); predicate slots
 * [0, pred_count - PRED_CONSTANTS) are predicates, then the constants false and true, then
 * %is_explicit_cluster (the launch's: block.c fills it). Its memory plan (where
 * each variable lives) is the regions it made in the block's Memory. */
enum { PRED_CONSTANTS = 3 };
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
    uint64_t (*immediate_rows)[WARP_SIZE];    /* the same as rows, each value in every lane (warp_src) */
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
    const char **wgmma_reads;  /* at a wgmma.mma_async's D rows in mma_rows: the warning for a read of
                                * that register in flight (wgmma.c); NULL elsewhere */
    struct ShflTable *shfl_tables;
    uint32_t shfl_table_count;
    struct BulkForm *bulk_forms;   /* each bulk or tensor copy's operands, at its XInstr.target (bulk.c) */
    uint32_t bulk_form_count;
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
 * skipped; such a Program must only be freed. mem is made anew, but for its place and
 * place_context, which the caller sets (or zeroes). */
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
bool contract_first_is_destination(const Instr *in);   /* in's first operand is only written */
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

/* layout.c (the Layout type is above) */
uint64_t layout_decl_bytes(const Decl *d);
uint32_t layout_decl_align(const Decl *d);    /* the declared .align, or the element's own size */
bool layout_fits(const Program *prog, Diag *diag);
uint64_t layout_variables_bytes(const Decl *d, uint32_t n);   /* what layout_fits counts for them */
uint32_t layout_frames(Layout *ly, Program *prog, uint32_t rows);     /* returns the rows after the frames' */
bool layout_memory(Layout *ly, Program *prog, uint32_t stack_bytes);
#define LAYOUT_BY_NAME 0xffffffffu    /* not an enum: beyond int */
bool layout_find(const Layout *ly, const Program *prog, uint32_t func, const char *name, uint32_t decl, Symbol *out);
void layout_free(Layout *ly, uint32_t func_count);

/* fold.c: the neg and min/max instructions ptxas makes moves of (XInstr.folded_move). */
void fold_moves(Program *p);                                  /* lower.c, once the code is loaded */

#endif
