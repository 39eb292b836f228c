/* ptxrun.h: the types every stage shares, and the prototypes of each file, grouped by the
 * file that defines them. The pipeline is source -> lexer -> parser -> check -> (exec) -> dump;
 * everything a run allocates lives in one Arena owned by the Module. */
#ifndef PTXRUN_H
#define PTXRUN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { WARP_SIZE = 32 };

#define PTXRUN_VERSION "0.4.0"
#define PTXRUN_PTX_ISA "9.0"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define BUG(...) util_bug(__FILE__, __LINE__, __VA_ARGS__)

/* Exit statuses: ok, --expect mismatch, bad input (PTX, JSON, options), execution fault. */
enum { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_BAD_INPUT = 2, EXIT_FAULT = 3 };

/* The low `bits` bits set (bits <= 64). */
static inline uint64_t width_mask(unsigned bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* util.c */
void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *old, size_t size);
const char *util_option_value(const char *a, const char *name, int argc, char **argv, int *i, bool *missing);
_Noreturn void util_bug(const char *file, int line, const char *fmt, ...);
/* The length of the well-formed UTF-8 sequence at text (1 for ASCII), or 0 if it is not one. */
size_t utf8_sequence_length(const char *text, size_t available);
/* The character of a well-formed sequence of that length. */
uint32_t utf8_code_point(const char *text, size_t length);
/* False for a control character or a bidirectional override: not to be echoed to a terminal. */
bool utf8_is_visible(const char *text, size_t length);

/* arena.c: bump allocation for everything that lives as long as a Module. */
typedef struct ArenaBlock ArenaBlock;
typedef struct Arena {
    ArenaBlock *head;          /* newest block; older ones chain behind it */
} Arena;

void *arena_alloc(Arena *arena, size_t size);           /* zero-filled, 16-byte aligned */
void *arena_grow(Arena *arena, void *old, size_t old_size, size_t new_size);
char *arena_strndup(Arena *arena, const char *s, size_t len);
void arena_free(Arena *arena);

/* A growable array whose storage comes from an arena (old storage is simply abandoned). */
#define VEC(T) struct { T *data; uint32_t len, cap; }
#define VEC_PUSH(arena, vec, value)                                                        \
    do {                                                                                   \
        if ((vec).len == (vec).cap) {                                                      \
            uint32_t vec_newcap_ = (vec).cap ? 2 * (vec).cap : 8;                          \
            (vec).data = arena_grow((arena), (vec).data, (vec).cap * sizeof *(vec).data,   \
                                    vec_newcap_ * sizeof *(vec).data);                     \
            (vec).cap = vec_newcap_;                                                       \
        }                                                                                  \
        (vec).data[(vec).len++] = (value);                                                 \
    } while (0)

/* intern.c: one copy of every name, so names compare by pointer. */
typedef struct Interner {
    Arena *arena;
    const char **slots;        /* open addressing; NULL = empty */
    uint32_t *hashes;
    uint32_t count, capacity;  /* capacity is a power of two */
} Interner;

void intern_init(Interner *in, Arena *arena);
const char *intern(Interner *in, const char *s, size_t len);
void intern_free(Interner *in);

/* source.c: the input text, NUL-terminated, and byte offset -> line:column. */
typedef struct Source {
    const char *name;          /* path as given, or "<stdin>" */
    char *text;                /* contents plus a NUL sentinel */
    uint32_t len;              /* bytes, without the sentinel */
    uint32_t *line_starts;     /* offset of each line's first byte; built on first use */
    uint32_t line_count;
} Source;

int source_load(Source *src, const char *path, char *errbuf, size_t errlen);
void source_from_string(Source *src, const char *name, const char *text, size_t len);
void source_free(Source *src);
void source_position(Source *src, uint32_t offset, uint32_t *line, uint32_t *column);
const char *source_line(Source *src, uint32_t line, uint32_t *len);

/* diag.c: diagnostics go to a sink; the default prints file:line:col, the line and a caret. */
typedef enum { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;

typedef struct Span {
    uint32_t offset, length;   /* bytes into Source.text */
} Span;

typedef struct Diag Diag;
typedef void DiagEmit(void *context, Diag *diag, DiagLevel level, Span at, const char *message);

struct Diag {
    Source *src;
    DiagEmit *emit;            /* NULL = print to stream */
    void *context;
    FILE *stream;              /* where the default printer writes */
    bool color;
    uint32_t errors, warnings;
    uint32_t max_errors;       /* stop reporting (but keep counting) past this; 0 = no limit */
};

void diag_init(Diag *diag, Source *src, FILE *stream);
void diag_at(Diag *diag, DiagLevel level, Span at, const char *fmt, ...);
void diag_vat(Diag *diag, DiagLevel level, Span at, const char *fmt, va_list ap);
void diag_print(FILE *out, Source *src, DiagLevel level, Span at, const char *message, bool color);

/* ---- the decoded program (ir.c prints and compares it) ---- */

typedef enum {
#define TYPE(e, name, bits, cls) TYPE_##e,
#include "types.def"
#undef TYPE
    TYPE_COUNT,
    TYPE_NONE = 0xff
} Type;

typedef enum {
#define MOD(e, word) MOD_##e,
#define HINT(e, word) MOD_##e,
#include "mods.def"
#undef MOD
#undef HINT
    MOD_COUNT
} Mod;

typedef enum {
#define SREG(e, name, bits, xyz) SREG_##e,
#include "sregs.def"
#undef SREG
    SREG_COUNT
} SpecialReg;

enum {                         /* OpInfo.flags */
    OPF_LEGACY_NOSYNC = 1 << 0,/* deprecated by its .sync form in PTX 6.0; removed for sm_70+ in 6.4 */
    OPF_ARCH = 1 << 1,         /* needs an architecture-specific target such as sm_90a */
};

/* Which part of the executor runs an opcode (ops.def's family column); FAM_NONE: ptxrun does
 * not execute it. step() in exec.c dispatches on it. */
typedef enum {
    FAM_NONE,
    FAM_ALU,                   /* alu.c: arithmetic, logic, compares, moves */
    FAM_BITOPS,                /* bitops.c: bit fields, counts, permutes, integer division */
    FAM_MATHOPS,               /* mathops.c: float division, roots, transcendentals, classes */
    FAM_CONVERT,               /* convert.c: cvt */
    FAM_MEMORY,                /* mem.c: ld, st, cvta */
    FAM_ATOMIC,                /* mem.c: atom, red */
    FAM_WARP,                  /* warp_ops.c: exchanges among the lanes executing together */
    FAM_SYNC,                  /* exec.c: warp-synchronising (.sync) exchanges, warp_ops.c */
    FAM_BARRIER,               /* barrier.c: CTA barriers */
    FAM_FENCE,                 /* memory ordering: nothing to do, every access is in order */
    FAM_CONTROL,               /* exec.c: branches, calls, returns, exit, trap */
    FAM_COUNT
} Family;

typedef enum {
#define OP(e, name, ptx, sm, flags, family, shape, rule, synopsis) OP_##e,
#include "ops.def"
#undef OP
    OP_COUNT
} Opcode;

typedef struct OpInfo {
    const char *name;
    uint8_t min_ptx;           /* major*10 + minor */
    uint16_t min_sm;
    uint8_t flags;
    uint8_t family;            /* Family */
    const char *shape;         /* see ops.def */
    const char *rule;
    const char *synopsis;
} OpInfo;

extern const OpInfo op_info[OP_COUNT];
extern const char *const family_name[FAM_COUNT];

typedef struct TypeInfo {
    const char *name;
    uint16_t bits;
    char cls;                  /* 'p' 'b' 'u' 's' 'f' */
} TypeInfo;

extern const TypeInfo type_info[TYPE_COUNT];
extern const char *const mod_name[MOD_COUNT];
extern const bool mod_is_hint[MOD_COUNT];        /* mods.def HINT: the executor ignores it */

typedef struct SregInfo {
    const char *name;
    uint8_t bits;
    bool xyz;                  /* has .x .y .z components */
} SregInfo;

extern const SregInfo sreg_info[SREG_COUNT];

typedef enum {
    OPND_NAME,                 /* not yet resolved (parser output) */
    OPND_REG,                  /* value register: slot */
    OPND_PRED,                 /* predicate register: slot; OPNDF_NOT for !p */
    OPND_SREG,                 /* special register: sreg, component */
    OPND_INT,                  /* integer immediate: bits (two's complement when negative) */
    OPND_F32,                  /* 0fXXXXXXXX: bits */
    OPND_F64,                  /* 0dXXXXXXXXXXXXXXXX or decimal: bits */
    OPND_SYM,                  /* variable or function: name (+ offset for sym+imm) */
    OPND_LABEL,                /* branch target: name, target (statement index) */
    OPND_SINK,                 /* _ */
    OPND_ADDR,                 /* [base + offset]: elems[0] = base, or no elems for [imm] */
    OPND_VEC,                  /* {a, b, ...}: elems */
    OPND_PAIR,                 /* d|p: elems[0], elems[1] */
    OPND_LIST,                 /* (a, b, ...) in call: elems */
} OperandKind;

enum {                         /* Operand.flags */
    OPNDF_NOT = 1 << 0,        /* !p */
    OPNDF_NEGATIVE = 1 << 1,   /* written with a minus sign (for printing) */
    OPNDF_UNSIGNED = 1 << 2,   /* integer literal with a U suffix */
};

typedef struct Operand Operand;
struct Operand {
    uint8_t kind;              /* OperandKind */
    uint8_t flags;             /* OPNDF_* */
    uint8_t component;         /* OPND_SREG: 0 none, 1..3 = .x .y .z */
    uint16_t count;            /* elements of ADDR, VEC, PAIR, LIST */
    Span at;
    union {
        uint32_t slot;         /* REG, PRED */
        uint16_t sreg;         /* SREG */
        uint64_t bits;         /* INT, F32, F64 */
        struct {               /* SYM, LABEL, NAME */
            const char *name;
            int64_t offset;    /* SYM: sym+offset */
            uint32_t target;   /* LABEL: index of the labelled statement; SYM: the function's
                                  declaration it names (results, parameters, body, from 1),
                                  0 for a module-scope name (set by the checker) */
        } ref;
        struct {               /* ADDR, VEC, PAIR, LIST */
            Operand *elems;
            int64_t offset;    /* ADDR */
        } group;
    } u;
};

enum { MAX_SUFFIXES = 12, MAX_TYPES = 4 };

typedef struct Instr {
    uint16_t op;               /* Opcode */
    uint8_t type_count;
    uint8_t mod_count;
    uint8_t types[MAX_TYPES];  /* type suffixes in order: types[0] is "the" type */
    uint8_t mods[MAX_SUFFIXES];/* Mod of each modifier suffix, canonical order (checked ops) */
    uint8_t guard_kind;        /* 0 none, 1 @p, 2 @!p */
    uint32_t guard_slot;       /* predicate slot of the guard */
    Span guard_at;
    uint16_t operand_count;
    Operand *operands;
    const char *mnemonic;      /* the dotted mnemonic as printed (canonical for checked ops) */
    Span at;                   /* the mnemonic in the source */
    Span stmt_at;              /* the whole statement */
    const char *guard_name;    /* guard register before resolution */
} Instr;

typedef enum { SPACE_NONE, SPACE_REG, SPACE_SREG, SPACE_CONST, SPACE_GLOBAL, SPACE_LOCAL,
               SPACE_PARAM, SPACE_SHARED, SPACE_TEX, SPACE_SURF, SPACE_SAMPLER } Space;

/* A constant in an initializer: a number, a symbol (+offset), generic(symbol), or a brace list. */
typedef struct Init Init;
struct Init {
    uint8_t kind;              /* INIT_INT, INIT_F32, INIT_F64, INIT_SYM, INIT_GENERIC, INIT_LIST */
    uint8_t negative;
    uint32_t count;            /* INIT_LIST */
    uint64_t bits;
    int64_t offset;
    const char *name;
    Init *elems;
};
enum { INIT_INT, INIT_F32, INIT_F64, INIT_SYM, INIT_GENERIC, INIT_LIST };

enum { MAX_DIMS = 4 };
enum { MAX_REGISTERS = 1 << 20 };  /* per program, and so per function and per range */
enum { MAX_FUNCTION_STATEMENTS = 1 << 20 };  /* instructions, and labels, in one function */

/* A declared variable, parameter or register (range). */
typedef struct Decl {
    uint8_t space;             /* Space */
    uint8_t linkage;           /* LINK_* */
    uint8_t type;              /* Type, TYPE_NONE for .func pointers */
    uint8_t vector;            /* 0, 2, 4, 8 */
    uint8_t dim_count;
    bool is_ptr;               /* .param .ptr */
    uint8_t ptr_space;         /* .param .ptr .global ... */
    uint32_t align;            /* 0 = not given; .ptr .align in ptr_align */
    uint32_t ptr_align;
    uint32_t range;            /* %r<range>; 0 = a single name */
    bool has_range;
    int64_t dims[MAX_DIMS];    /* -1 = [] (size from initializer or extern) */
    const char *name;
    Init *init;
    Span at;
    uint32_t first_slot;       /* registers: slot of name (or name0) */
    const char **attrs;        /* other directives kept verbatim, e.g. ".attribute(.managed)" */
    uint32_t attr_count;
} Decl;

enum { LINK_NONE, LINK_VISIBLE = 1, LINK_EXTERN = 2, LINK_WEAK = 4, LINK_COMMON = 8 };

typedef enum { ITEM_INSTR, ITEM_LABEL, ITEM_DECL, ITEM_OPEN, ITEM_CLOSE, ITEM_PRAGMA,
               ITEM_PROTOTYPE, ITEM_TARGETS } ItemKind;

/* The body in source order; instructions live in Function.code, items refer to them. */
typedef struct Item {
    uint8_t kind;              /* ItemKind */
    uint32_t index;            /* INSTR: index into code; DECL: into decls; LABEL: into labels */
    const char *text;          /* PRAGMA: the string; PROTOTYPE/TARGETS: printed form */
} Item;

typedef struct Label {
    const char *name;
    uint32_t target;           /* index into code of the next instruction */
    Span at;
} Label;

/* A register after resolution. Value registers and predicates are numbered apart. */
typedef struct Register {
    const char *name;
    uint8_t type;              /* declared or inferred Type */
    uint8_t vector;            /* .v2/.v4 register */
    bool is_pred;
    bool inferred;             /* a snippet's undeclared register: typed by its uses */
} Register;

typedef struct PerfDirective {
    const char *name;          /* "maxntid", ... */
    uint32_t count;
    uint64_t values[3];
    const char *text;          /* .pragma string */
} PerfDirective;

typedef struct Function {
    const char *name;
    bool is_entry;             /* .entry, or a snippet's implicit kernel */
    bool is_snippet;
    bool has_body;             /* false for a prototype declaration ending in ';' */
    bool too_long;             /* MAX_FUNCTION_STATEMENTS reached and reported: the rest is dropped */
    uint8_t linkage;
    Span at;
    VEC(Decl) params;
    VEC(Decl) returns;
    VEC(Decl) decls;           /* body declarations: .reg, .local, .shared, .param */
    VEC(Item) items;
    VEC(Instr) code;
    VEC(Label) labels;
    VEC(PerfDirective) perf;
    VEC(Register) regs;        /* value registers by slot (after check) */
    VEC(Register) preds;       /* predicate registers by slot (after check) */
} Function;

/* Top-level things in source order. */
typedef enum { TOP_FUNCTION, TOP_DECL, TOP_FILE, TOP_VERBATIM } TopKind;
typedef struct TopItem {
    uint8_t kind;
    uint32_t index;            /* into functions, globals, files, verbatim */
} TopItem;

typedef struct FileDirective {
    uint64_t number;
    const char *path;          /* the string literal, quotes included */
    const char *extra;         /* ", timestamp, size" verbatim or NULL */
} FileDirective;

typedef struct Module {
    Arena arena;               /* owns everything below */
    Interner names;
    Source *src;
    uint8_t version;           /* .version major*10+minor; 0 = none given */
    Span version_at;
    uint16_t target_sm;        /* 0 = none given */
    bool target_arch;          /* sm_90a-style */
    char target_suffix;        /* 'a', 'f' or 0 */
    Span target_at;
    const char **target_options;  /* texmode_..., debug, map_f64_to_f32 */
    uint32_t target_option_count;
    uint8_t address_size;      /* 0 = none given */
    bool is_snippet;           /* bare instructions at top level */
    VEC(TopItem) top;
    VEC(Function *) functions;
    VEC(Decl) globals;
    VEC(FileDirective) files;
    VEC(const char *) verbatim;   /* .section and .alias directives, kept as written */
} Module;

/* lexer.re */
typedef struct Literal {       /* the value of a T_INTEGER or T_FLOAT token */
    uint64_t bits;
    uint8_t kind;              /* OPND_INT, OPND_F32, OPND_F64 */
    bool unsigned_suffix;
} Literal;

typedef struct Lexer {
    Source *src;
    Diag *diag;
    const char *cursor;
    const char *token;         /* start of the current token */
    VEC(uint32_t) open_braces; /* offsets of unclosed '{', to name them at end of file */
    bool gave_up;              /* blocks nested too deep: everything after is end of file */
    Arena *arena;
} Lexer;

enum { MAX_BLOCK_DEPTH = 1000 };  /* nvcc nests a few levels; the parser's stack holds far more */

void lex_init(Lexer *lx, Source *src, Diag *diag, Arena *arena);
union YYSTYPE;
int lex_next(Lexer *lx, union YYSTYPE *value, Span *at);
const char *lex_token_name(int token);

/* parser.y */
Module *parse_module(Source *src, Diag *diag);
void module_free(Module *m);

/* ops.c: the tables generated from the .def files, and name lookups. */
int op_lookup(const char *mnemonic, size_t len);       /* longest listed dotted prefix */
int type_lookup(const char *word, size_t len);         /* TYPE_COUNT if not a type */
int mod_lookup(const char *word, size_t len);          /* MOD_COUNT if not known */
int sreg_lookup(const char *name, size_t len);         /* SREG_COUNT if not special */
void ops_print_markdown(FILE *out);

/* check.c (with decode.c and checkop.c, which share checker.h): resolve names, decode and check
 * every instruction against ops.def. */
typedef struct CheckOptions {
    bool warn_deprecated;      /* warn on shfl/vote without .sync */
} CheckOptions;

int check_module(Module *m, Diag *diag, const CheckOptions *options);

/* suffixes.c: what a decoded instruction's suffixes must say together (called by check.c). */
void suffixes_check(Diag *diag, const Module *m, const Instr *in);

/* ir.c: print the decoded module back as PTX; compare two modules. */
void ir_print_module(FILE *out, const Module *m);
void ir_print_instr(FILE *out, const Module *m, const Function *f, const Instr *in);
bool ir_equal(const Module *a, const Module *b, char *why, size_t why_len);
bool ir_has_mod(const Instr *in, Mod mod);

/* ---- the warp (exec.c, alu.c, warp_ops.c) ---- */

#define NO_SLOT 0xffffffffu       /* no register or predicate */
#define ALL_LANES 0xffffffffu     /* every lane of the warp */

typedef enum { DST_NONE, DST_VALUE, DST_PRED } DstKind;

/* ---- memory (mem.c) ---- */

/* Generic addresses: global memory from MEM_GLOBAL_BASE; every other space in a window. */
#define MEM_GLOBAL_BASE   0x0000100000000000ull
#define MEM_SHARED_WINDOW 0x0000200000000000ull
#define MEM_LOCAL_WINDOW  0x0000300000000000ull
#define MEM_CONST_WINDOW  0x0000400000000000ull
#define MEM_PARAM_WINDOW  0x0000500000000000ull
#define MEM_WINDOW_SIZE   0x0000100000000000ull
#define MEM_FUNC_BASE     0x0000f00000000000ull   /* function "addresses" for indirect calls */

typedef struct Region {
    const char *name;          /* variable, parameter or buffer */
    uint8_t space;             /* Space */
    uint8_t type;              /* element type, for printing buffers */
    bool per_lane;             /* .local: one copy per lane */
    bool is_buffer;            /* from the lanes file: printed with the output */
    bool kernel_param;         /* read-only */
    uint64_t base;             /* address in its space */
    uint64_t size;             /* bytes (per lane for .local) */
    uint8_t *data;
    uint8_t *shadow;           /* 1 where the byte is defined */
} Region;

/* Memory limits: one variable (all threads' copies of a .local) and all of them together. */
enum { MAX_VARIABLE_BYTES = 256 << 20, MAX_MEMORY_BYTES = 1 << 30 };

typedef struct Memory {
    Region *regions;
    uint32_t count, capacity;
    uint32_t copies;           /* threads with a copy of each per-lane region (32 per warp) */
    uint64_t cursor[SPACE_SAMPLER + 1];  /* next free address of each space */
    uint32_t last;             /* the region found last: the next access is usually there too */
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
    SymbolVec *scope;          /* each function's own */
    uint32_t **by_decl;        /* each function's: its declaration id -> index in scope */
    uint32_t *decl_count;
    VEC(PendingInit) inits;
} Layout;

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
    bool relu;                 /* min/max.relu: negative results become 0 */
    bool nan_out;              /* min/max.NaN: a NaN operand gives NaN */
    bool xorsign_abs;          /* min/max.xorsign.abs */
    bool carry_out;            /* .cc: writes the lane's carry flag */
    uint8_t src_not;           /* bit i: source i is a negated predicate */
    uint8_t src_pred;          /* bit i: source i is a predicate slot */
    uint32_t guard_pred;
    uint32_t dst;              /* value row or predicate slot */
    uint32_t dst_pred;         /* second destination: the p of d|p, the q of p|q; NO_SLOT if none */
    uint32_t src[4];
    uint32_t target;           /* bra: instruction index */
    uint32_t line;             /* source line, for traces and reports */
    uint8_t src_type;          /* cvt: the source type; dp4a, vabsdiff4: a's type */
    uint8_t src_type2;         /* vabsdiff4: b's type */
    const Function *owner;     /* the function the instruction is in (for names) */
    uint8_t space;             /* ld/st/cvta: Space (SPACE_NONE = generic) */
    bool to_space;             /* cvta.to */
    bool pack, unpack;         /* mov d, {a, b} / mov {a, b}, d: vec holds the parts */
    uint8_t vec_count;         /* ld/st: registers moved (1, or the .v2/.v4 count) */
    uint8_t dst_bits;          /* ld: width of the destination register */
    uint32_t vec[4];           /* ld: destination rows; st: source rows (NO_SLOT for '_') */
    int64_t offset;            /* ld/st: [base + offset] */
    uint8_t addr_bits;         /* ld/st/atom/red: the base register's width; [base + offset] wraps in it */
    uint8_t barrier;           /* bar, barrier: BARRIER_SYNC, _ARRIVE or _RED */
    uint8_t red_op;            /* bar.red: BARRIER_RED_POPC, _AND or _OR */
    bool has_count;            /* bar, barrier: a thread count is given (src[1]) */
    bool aligned;              /* bar, barrier.aligned: every thread must execute this very instruction */
    bool reconverge;           /* the immediate post-dominator of a conditional branch */
    uint32_t pdom_in, pdom_out;    /* its interval in the function's post-dominator tree (NO_SLOT: none) */
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

/* A call site: who is called, and where in the caller's frame arguments and results are. */
enum { MAX_CALL_PARAMS = 16, DEFAULT_STACK_BYTES = 1024, MAX_STACK_BYTES = 1 << 20 };
typedef struct CallSite {
    uint32_t callee;           /* index into Warp.funcs, or NO_SLOT for an indirect call */
    uint32_t caller;           /* index into Warp.funcs */
    uint32_t target_row;       /* indirect: the register holding the function's address */
    uint8_t arg_count, ret_count;
    FrameSlot args[MAX_CALL_PARAMS];   /* the caller's .param variables */
    FrameSlot rets[MAX_CALL_PARAMS];
} CallSite;

typedef struct Frame {
    uint32_t return_pc;
    uint32_t call_pc;
    uint32_t callee;
    uint32_t caller_sp;        /* the stack's end before the call */
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

/* One of a CTA's sixteen barriers (bar, barrier) between its arrivals and its completion. */
enum { BARRIER_COUNT = 16, MAX_BLOCK_THREADS = 1024, MAX_WARPS = MAX_BLOCK_THREADS / WARP_SIZE,
       MAX_GRID_CTAS = 1 << 16 };
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

typedef struct ExecOptions {
    uint64_t max_steps;
    uint32_t stack_bytes;      /* --stack: each thread's stack for calls */
    bool strict;               /* undefined-value warnings stop the run (exit 3) */
    FILE *trace;               /* NULL: no trace */
    bool trace_json;           /* one JSON object per step instead of text */
    bool trace_color;
} ExecOptions;

enum { EXEC_OK = 0, EXEC_FAULT = 3 };

typedef struct Block Block;

/* One warp of the CTA: its lanes' registers, predicates, pcs and call stacks. Everything loaded
 * from the program (code, function layouts, call sites, special register rows) and the memory
 * belong to the first warp, which the others share them with. */
typedef struct Warp {
    Block *block;
    uint32_t index;            /* %warpid */
    uint32_t thread_base;      /* the CTA thread number of lane 0 */
    Module *m;
    Function *fn;
    Diag *diag;
    XInstr *code;
    uint32_t code_len;
    uint32_t reg_count;        /* rows [0, reg_count) are registers */
    uint32_t first_immediate;  /* rows from here on are immediates (the same in every lane) */
    uint32_t row_count;        /* then special registers, then immediates */
    uint64_t (*val)[WARP_SIZE];/* val[row][lane] */
    uint32_t *defined;         /* defined[row]: lanes whose value is defined */
    uint32_t pred_count;       /* slots [0, fn->preds.len) are predicates, then false, true */
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
    uint32_t sreg_rows[SREG_COUNT][4];  /* row of each special register (.x .y .z = 1..3) */
    Memory *mem;               /* the block's */
    StepTrace *trace;          /* non-NULL while tracing */
    FuncLayout *funcs;         /* funcs[0] is the kernel */
    uint32_t func_count;
    CallSite *calls;
    uint32_t call_count;
    Frame *stack[WARP_SIZE];   /* each lane's calls, depth[lane] of them */
    uint32_t stack_cap[WARP_SIZE];
    uint32_t sp[WARP_SIZE];    /* the end of each lane's .local stack */
    uint32_t charged[WARP_SIZE];   /* the --stack bytes its calls use */
    uint32_t (*active)[WARP_SIZE]; /* active[f][lane]: activations of function f on the lane's stack */
    uint32_t stack_bytes;      /* --stack */
    SaveArea saves[WARP_SIZE];
    uint32_t depth[WARP_SIZE];
    uint32_t local_region;     /* the threads' .local memory: the kernel's frame, then the stack */
    uint32_t param_region;     /* the kernel's parameter buffer */
    uint32_t dynamic_region;   /* the CTA's dynamic .shared block */
    uint32_t kernel_code_len;  /* the kernel's instructions come first */
    uint64_t steps;            /* the warp's own clock: starvation, arrival times */
    uint32_t next_pc, last_mask, previous_ready;   /* where the loop left off (see warp_run) */
    VEC(Warning) warnings;
    bool faulted;
} Warp;

/* The CTA being run: its warps under one scheduler, its barriers, and the grid it belongs to.
 * CTAs of a grid run one after another; each starts from the state the lanes file gave. */
struct Block {
    Warp *warps[MAX_WARPS];    /* warps[0] owns the program and the memory */
    uint32_t warp_count;
    uint32_t threads;          /* ntid.x * ntid.y * ntid.z */
    uint32_t ntid[3], nctaid[3], ctaid[3];
    bool per_warp_barriers;    /* .target sm_6x or below: a warp's arrival counts 32 threads */
    Barrier barriers[BARRIER_COUNT];
    uint32_t live_threads;     /* what barriers for all threads count to; NO_SLOT: count again */
    Memory mem;
    uint64_t steps;            /* warp-steps of every warp and CTA, for --max-steps */
    uint64_t lane_steps;       /* instructions executed, summed over threads */
    struct Snapshot *start;    /* the state every CTA starts from (registers, .shared, .local) */
};

/* exec.c */
/* NULL after reporting what cannot run; stack_bytes: each thread's stack for the frames of calls. */
Warp *exec_load(Module *m, Function *fn, Diag *diag, uint32_t stack_bytes);
/* The bytes of kernel parameter i in the parameter buffer, and its size. */
uint8_t *exec_param_bytes(const Warp *w, uint32_t i, uint8_t **shadow, uint32_t *size);
void exec_set_dynamic_shared(Warp *w, uint32_t bytes);
/* The block's shape: creates its warps, fills the special registers. Ask exec_block_fits first:
 * each thread has its own copy of .local. */
bool exec_block_fits(const Warp *w, const uint32_t ntid[3], char *err, size_t errlen);
void exec_set_block(Warp *w, const uint32_t ntid[3], uint32_t active);
void exec_set_grid(Warp *w, const uint32_t nctaid[3]);
int exec_run(Warp *w, const ExecOptions *options);       /* the whole grid: EXEC_OK or EXEC_FAULT */
void warp_reset(Warp *w);
bool warp_run(Warp *w, const ExecOptions *options, uint64_t slice);   /* false: no lane was ready */
void exec_report_warnings(Warp *w, bool strict);
void exec_report_waits(Warp *w);                          /* deadlock notes for warp-level waits */
void exec_format_lanes(const Warp *w, char *buf, size_t size, uint32_t lanes);   /* "warp 1 lanes 0-3" */
void exec_warn(Warp *w, uint32_t pc, uint32_t lanes, const char *what);
void exec_fault(Warp *w, uint32_t pc, const char *fmt, ...);
void exec_free(Warp *w);                                  /* the block, its warps, the program */

/* layout.c (the Layout type is above) */
uint64_t layout_decl_bytes(const Decl *d);
bool layout_fits(const Warp *w, Diag *diag);
uint32_t layout_frames(Layout *ly, Warp *w, uint32_t rows);     /* returns the rows after the frames' */
bool layout_memory(Layout *ly, Warp *w, uint32_t stack_bytes);
enum { LAYOUT_BY_NAME = UINT32_MAX };
bool layout_find(const Layout *ly, const Warp *w, uint32_t func, const char *name, uint32_t decl, Symbol *out);
void layout_free(Layout *ly, uint32_t func_count);

/* barrier.c: bar and barrier. */
void barrier_arrive(Warp *w, uint32_t pc, uint32_t lanes);
void barrier_threads_exited(Block *b);                    /* barriers for all threads may complete */
void barrier_report_waits(Block *b);                      /* deadlock notes for barrier waits */
Function *exec_entry(Module *m, const char *name);        /* the kernel to run */
void exec_lane_ranges(char *buf, size_t size, uint32_t lanes, const char *separator);  /* "0-3,7" */

/* trace.c: --trace, one warp-step at a time. */
void trace_step(FILE *out, const Warp *w, const ExecOptions *o, uint32_t pc, uint32_t mask);

/* alu.c: integer, float, logic, compare, select and move, over the lanes of mask. */
void alu_execute(Warp *w, const XInstr *x, uint32_t mask);
void alu_move_parts(Warp *w, const XInstr *x, uint32_t mask);   /* mov packing and unpacking */

/* bitops.c: popc clz bfind brev bfe bfi prmt lop3, integer div and rem. */
void bitops_execute(Warp *w, const XInstr *x, uint32_t mask);

/* mathops.c: float div rcp sqrt rsqrt sin cos lg2 ex2 tanh, copysign, testp, slct. */
void mathops_execute(Warp *w, const XInstr *x, uint32_t mask);
/* approx.c: the H100's .approx/.full results (op an OP_ code; f32 operands and result as bits). */
uint32_t approx_f32(int op, bool full, bool ftz, uint32_t a, uint32_t b);
uint64_t approx_f64(int op, bool ftz, uint64_t a);     /* rcp.approx.ftz.f64, rsqrt.approx[.ftz].f64 */

/* convert.c */
void convert_execute(Warp *w, const XInstr *x, uint32_t mask);
double convert_small_to_double(uint64_t bits, int type);     /* f16, bf16 */
bool convert_is_nan(uint64_t bits, int type);                  /* f16, bf16, f32, f64 */
uint64_t convert_nan(uint64_t bits, int from, int to);         /* a NaN in another format, quieted */
double float_from_bits(uint64_t bits, unsigned width, bool ftz);   /* f32 (flushed if ftz) or f64 */
uint64_t float_to_bits(double v, unsigned width, bool ftz);        /* rounded in the current mode; NaN canonical */
uint64_t convert_double_to_small(double v, int type);        /* rounded to nearest even */

/* warp_ops.c: the exchange instructions, for the lanes that complete them together. */
/* at: the instruction when every lane runs the same one; NULL: each lane's own, found through
 * arrival[lane].pc (lanes that met from different pcs). */
void warp_shfl(Warp *w, const XInstr *at, uint32_t lanes, uint32_t participants, uint32_t guard_true);
void warp_vote(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true);
void warp_shf(Warp *w, const XInstr *x, uint32_t mask);
void warp_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true);   /* shfl, vote, activemask, shf */
void warp_match(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true);
void warp_redux(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true);
void warp_elect(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true);

/* mem.c */
void mem_init(Memory *mem);
void mem_free(Memory *mem);
void mem_set_copies(Memory *mem, uint32_t copies);     /* threads with a copy of each per-lane region */
uint32_t mem_add(Memory *mem, const char *name, int space, uint64_t size, uint32_t align, int type, bool per_lane,
                 bool defined);
Region *mem_named(Memory *mem, const char *name, int space);  /* space -1: any */
bool mem_overlaps(const Memory *mem, int space, uint64_t base, uint64_t size, uint32_t except);
void mem_resize(Memory *mem, uint32_t index, uint64_t size);
bool mem_grow_per_lane(Memory *mem, uint32_t index, uint64_t size);
uint8_t *mem_thread_bytes(Memory *mem, uint32_t index, uint32_t thread, uint64_t address, uint64_t size,
                          uint8_t **shadow);
uint64_t mem_generic(int space, uint64_t address);
const char *mem_space_name(int space);          /* ".global", ..., "generic" */
void mem_execute(Warp *w, const XInstr *x, uint32_t mask);     /* ld, st, cvta */
void mem_atomic(Warp *w, const XInstr *x, uint32_t mask);      /* atom, red: lane by lane, lowest first */

/* lanes.c: --lanes JSON in. The json_t values are jansson's. */
struct json_t;
int lanes_load(Warp *w, const char *path, char *err, size_t errlen);
bool lanes_params_given(const Warp *w, char *err, size_t errlen);
struct json_t *lanes_load_json(const char *path, char *err, size_t errlen);   /* a JSON object, or NULL */
bool lanes_value_bits(struct json_t *v, int type, uint64_t *bits, bool *defined, char *err, size_t errlen);
bool lanes_pred_value(struct json_t *v, bool *value, bool *defined, char *err, size_t errlen);
bool lanes_parse_mask(struct json_t *v, uint32_t *mask);
bool lanes_lookup(const Warp *w, const char *path, const char *section, const char *name, bool want_pred,
                  uint32_t *slot, int *type, char *err, size_t errlen);
bool lanes_array_size_ok(const Warp *w, size_t n);
const char *lanes_array_size_text(const Warp *w, char *buf, size_t size);
Warp *lanes_thread_warp(const Warp *w, uint32_t t, int *lane);  /* thread t of the block */

/* dump.c: the final state out as a table or JSON. */
void dump_print_table(FILE *out, const Warp *w, const char *only, const bool *shown);   /* shown: NULL, all */
bool dump_select(const Warp *w, const char *warps, const char *threads, bool *shown, char *err, size_t errlen);
void dump_print_json(FILE *out, const Warp *w);
void dump_format_value(char *buf, size_t size, uint64_t bits, int type);       /* as the table shows it */
void dump_format_json_value(char *buf, size_t size, uint64_t bits, int type);  /* as --json writes it */
bool dump_buffer_element(const Region *r, uint64_t i, uint64_t *bits);   /* false: undefined */
uint64_t dump_buffer_count(const Region *r);

/* expect.c: --expect. How far it lets a 32- or 64-bit value be from the expected bits, as floats:
 * within ulps representable values, or within abs_err of it, or any NaN for an expected NaN.
 * Zero: bit for bit. */
typedef struct Tolerance {
    uint64_t ulps;
    double abs_err;
    bool any_nan;
} Tolerance;
int expect_compare(FILE *out, const Warp *w, const char *path, const Tolerance *tol, char *err, size_t errlen);

/* driver.c */

typedef enum { MODE_RUN, MODE_CHECK, MODE_DUMP_IR } Mode;

typedef struct RunOptions {
    Mode mode;
    const char *path;
    const char *lanes;         /* --lanes FILE.json */
    const char *expect;        /* --expect FILE.json */
    const char *regs;          /* --regs A,B */
    const char *warps, *threads;   /* --warps 0,2-3, --threads 0-7: the table's rows */
    const char *entry;         /* --entry NAME */
    bool json;
    bool color;
    bool no_warnings;
    Tolerance tolerance;       /* --expect within this (ptxrun test --differs) */
    CheckOptions check;
    ExecOptions exec;
} RunOptions;

int driver_run(const RunOptions *o, FILE *out, FILE *err);

/* testrun.c: `ptxrun test` (argv[0] is "test"). */
int test_main(int argc, char **argv);

#endif
