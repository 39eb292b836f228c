/* ir.h: the decoded program (Module, Function, Instr, the tables from the .def files) and the
 * parser and checker that make it: tokens to a checked Module. */
#ifndef PTXRUN_IR_H
#define PTXRUN_IR_H

#include "lexer.h"

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
#define SREG(e, name, bits, xyz, ptx, sm, mov_bits) SREG_##e,
#include "sregs.def"
#undef SREG
    SREG_COUNT
} SpecialReg;

enum {                         /* OpInfo.flags */
    OPF_LEGACY_NOSYNC = 1 << 0,/* deprecated by its .sync form in PTX 6.0; removed for sm_70+ in 6.4 */
    OPF_ARCH = 1 << 1,         /* needs an architecture-specific target such as sm_90a */
};

/* Which part of the executor runs an opcode (ops.def's family column); FAM_NONE: ptxrun does
 * not execute it. step() in warp.c dispatches on it. */
typedef enum {
    FAM_NONE,
    FAM_ALU,                   /* alu.c: arithmetic, logic, compares, moves */
    FAM_BITOPS,                /* bitops.c: bit fields, counts, permutes, integer division */
    FAM_MATHOPS,               /* mathops.c: float division, roots, transcendentals, classes */
    FAM_CONVERT,               /* convert.c: cvt */
    FAM_MEMORY,                /* mem.c: ld, st, cvta */
    FAM_ATOMIC,                /* atomic.c: atom, red */
    FAM_WARP,                  /* warpops.c: exchanges among the lanes executing together */
    FAM_SYNC,                  /* sync.c: warp-synchronising (.sync) exchanges, warpops.c */
    FAM_BARRIER,               /* barrier.c: CTA barriers */
    FAM_FENCE,                 /* memory ordering: nothing to do, every access is in order */
    FAM_CONTROL,               /* warp.c, call.c: branches, calls, returns, exit, trap */
    FAM_VIDEO,                 /* video.c: vadd ... vset, their 2- and 4-way SIMD forms */
    FAM_HALF,                  /* half.c: ALU instructions on f16, bf16 and pairs (lower.c decides) */
    FAM_HINT,                  /* prefetches, priorities, events: nothing to do (no caches, one grid) */
    FAM_STACK,                 /* call.c: stacksave, stackrestore, alloca */
    FAM_SURFACE,               /* surface.c: suld, sust, suq */
    FAM_TEXTURE,               /* texture.c: tex, tld4, txq, istypep */
    FAM_MULTIMEM,              /* multimem.c: multimem.ld_reduce, .st, .red on a buffer's copies */
    FAM_BULK,                  /* bulk.c: bulk and tensor copies, their groups */
    FAM_ASYNC,                 /* async.c: cp.async, its groups and waits, cp.async.mbarrier.arrive */
    FAM_MBARRIER,              /* mbarrier.c: mbarrier objects in .shared */
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

/* Several values packed in one register (.f16x2 .bf16x2, fp8 pairs, .u16x2 .s16x2): shown, read
 * and compared as their bits, like a .b type, never as one number of their width. */
static inline bool type_packed(int t)
{
    return t == TYPE_F16X2 || t == TYPE_BF16X2 || t == TYPE_E4M3X2 || t == TYPE_E5M2X2 || t == TYPE_E2M3X2 ||
           t == TYPE_E3M2X2 || t == TYPE_E2M1X2 || t == TYPE_UE8M0X2 || t == TYPE_U16X2 || t == TYPE_S16X2;
}
extern const char *const mod_name[MOD_COUNT];
extern const bool mod_is_hint[MOD_COUNT];        /* mods.def HINT: the executor ignores it */

typedef struct SregInfo {
    const char *name;
    uint8_t bits;
    bool xyz;                  /* has .x .y .z components */
    uint8_t min_ptx;           /* major*10 + minor; 0: any */
    uint16_t min_sm;           /* 0: any */
    uint8_t mov_bits;          /* the narrowest mov that may read its low bits */
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
    OPND_REG_OFFSET,           /* r+imm as a value: elems[0] the register, offset the imm */
} OperandKind;

enum {                         /* Operand.flags */
    OPNDF_NOT = 1 << 0,        /* !p */
    OPNDF_NEGATIVE = 1 << 1,   /* written with a minus sign: a number (for printing), or a
                                  register vmad negates */
    OPNDF_UNSIGNED = 1 << 2,   /* integer literal with a U suffix */
    OPNDF_VECTOR_REG = 1 << 3, /* VEC: a vector register, written by its name (v for v.x, v.y) */
    OPNDF_GROUPED = 1 << 4,    /* an immediate written in parentheses: "(1)", a call's one argument */
    OPNDF_INDEXED = 1 << 5,    /* NAME: A[k], the address of element k (offset k until the checker
                                  scales it by the element size); A[r] keeps no index: refused */
    OPNDF_REG_INDEX = 1 << 6,  /* NAME: A[r], an element at a register index */
    OPNDF_UNIFIED = 1 << 7,    /* ADDR: [a].unified (ld, ldu, atom: a hint, no effect here) */
};

/* A video instruction's operand selector, Operand.select: the bytes or halves it names, as
 * written after the register (a.b0, a.h1, a.h32, a.b7654, the masks d.h10, d.b320). 0: none;
 * else SEL_HALF for .hN..., the count of digits (1 to 4) and the digits, 3 bits each, the last
 * written (the one for lane 0 of a SIMD result) in bits 0-2. */
enum { SEL_HALF = 1 << 15, SEL_COUNT_SHIFT = 12, SEL_MAX_DIGITS = 4 };
static inline unsigned sel_count(unsigned select) { return select >> SEL_COUNT_SHIFT & 7; }
static inline unsigned sel_digit(unsigned select, unsigned i) { return select >> (3 * i) & 7; }

typedef struct Operand Operand;
struct Operand {
    uint8_t kind;              /* OperandKind */
    uint8_t flags;             /* OPNDF_* */
    uint8_t component;         /* OPND_SREG: 0 none, 1..3 = .x .y .z */
    uint16_t count;            /* elements of ADDR, VEC, PAIR, LIST */
    uint16_t select;           /* REG: a video selector (SEL_*), 0 none */
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
    uint16_t operand_count;
    uint32_t guard_slot;       /* predicate slot of the guard */
    uint32_t guard_offset;     /* where the guard's name starts in the source (its length: guard_name's) */
    Span at;                   /* the mnemonic in the source */
    Span stmt_at;              /* the whole statement */
    uint32_t loc_line;         /* the last .loc before it in its function: CUDA source line (0: none) */
    uint16_t loc_file;         /* ... its .file number */
    uint16_t loc_col;          /* ... its column (0: none) */
    Operand *operands;
    const char *mnemonic;      /* the dotted mnemonic as printed (canonical for checked ops) */
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
    const char *name;          /* INIT_SYM, INIT_GENERIC: the symbol; INIT_FIELD: the field */
    Init *elems;               /* INIT_LIST: count values; INIT_FIELD: the one value */
    Span at;
};
/* INIT_FIELD: `name = value` in a .texref, .samplerref or .surfref initializer */
enum { INIT_INT, INIT_F32, INIT_F64, INIT_SYM, INIT_GENERIC, INIT_LIST, INIT_FIELD };

/* The fields of a .texref, .samplerref or .surfref initializer (PTX ISA "Texture Sampler and
 * Surface Types"), decoded by opaque.c as the parser reads them: bit f of given says field f was
 * set, to value[f] (a number, or a FILTER_ or ADDR_ word), written at at[f]. */
typedef enum { OPAQUE_WIDTH, OPAQUE_HEIGHT, OPAQUE_DEPTH, OPAQUE_CHANNEL_DATA_TYPE, OPAQUE_CHANNEL_ORDER,
               OPAQUE_NORMALIZED_COORDS, OPAQUE_FORCE_UNNORMALIZED_COORDS, OPAQUE_FILTER_MODE,
               OPAQUE_ADDR_MODE_0, OPAQUE_ADDR_MODE_1, OPAQUE_ADDR_MODE_2, OPAQUE_ARRAY_SIZE,
               OPAQUE_NUM_MIPMAP_LEVELS, OPAQUE_NUM_SAMPLES, OPAQUE_MEMORY_LAYOUT, OPAQUE_FIELD_COUNT } OpaqueField;
enum { FILTER_NEAREST, FILTER_LINEAR };
enum { ADDR_WRAP, ADDR_MIRROR, ADDR_CLAMP_OGL, ADDR_CLAMP_TO_EDGE, ADDR_CLAMP_TO_BORDER };
typedef struct OpaqueInit {
    uint32_t given;
    int64_t value[OPAQUE_FIELD_COUNT];
    Span at[OPAQUE_FIELD_COUNT];
} OpaqueInit;
extern const char *const opaque_field_names[OPAQUE_FIELD_COUNT];
extern const char *const opaque_addr_names[5];

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
    OpaqueInit *opaque;        /* a .texref/.samplerref/.surfref initializer's fields, or NULL */
    uint8_t handle_space;      /* a kernel parameter .param .texref/.surfref/.samplerref: SPACE_TEX, SPACE_SURF
                                  or SPACE_SAMPLER (it holds a 64-bit handle, its type .u64); else SPACE_NONE */
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

/* A .branchtargets list, for brx.idx: the label that names it and its labels, as name operands;
 * the checker gives each label's instruction index in targets. */
typedef struct BranchTable {
    const char *name;
    uint32_t count;
    Operand *labels;
    uint32_t *targets;         /* after check */
    Span at;
} BranchTable;

/* A register after resolution. Value registers and predicates are numbered apart. A vector
 * register (.reg .v4 .f32 v) is its elements, v.x to v.w, one register each. A .b128 register
 * takes two slots: its own (the low 64 bits) and the next, an `upper` one with no name (the
 * high 64 bits), so that each slot is one 64-bit row of lane values when it runs. */
typedef struct Register {
    const char *name;          /* NULL for an upper slot */
    uint8_t type;              /* declared or inferred Type (an upper slot: .b64) */
    bool is_pred;
    bool inferred;             /* a snippet's undeclared register: typed by its uses */
    bool upper;                /* the high 64 bits of the .b128 register in the slot before */
} Register;

typedef struct PerfDirective {
    const char *name;          /* "maxntid", ... */
    uint32_t count;
    uint64_t values[3];
    const char *text;          /* .pragma string */
    Span at;                   /* the directive's name */
} PerfDirective;

typedef struct Function {
    const char *name;
    bool is_entry;             /* .entry, or a snippet's implicit kernel */
    bool is_snippet;
    bool has_body;             /* false for a prototype declaration ending in ';' */
    bool too_long;             /* MAX_FUNCTION_STATEMENTS reached and reported: the rest is dropped */
    bool dropped;              /* streamed (parse_module_stream) and let go: every list empty */
    bool skipped;              /* streamed, and its body read past unparsed (StreamHook.skip): it
                                  is another reader's to check; has_body still says it had one */
    uint8_t linkage;
    Span at;
    VEC(Decl) params;
    VEC(Decl) returns;
    VEC(Decl) decls;           /* body declarations: .reg, .local, .shared, .param */
    VEC(Item) items;
    VEC(Instr) code;
    VEC(Label) labels;
    VEC(BranchTable) tables;   /* .branchtargets lists */
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
    Arena arena;               /* owns everything below but function bodies streamed and globals */
    Arena body;                /* parse_module_stream: function bodies (released when dropped) */
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
    VEC(Decl) globals;         /* from pages_alloc, not the arena (growing, it leaves no old
                                  copies behind); module_free frees it */
    VEC(FileDirective) files;
    VEC(const char *) verbatim;   /* .section and .alias directives, kept as written */
} Module;

/* A CTA has sixteen named barriers (bar, barrier: ids 0 to 15). */
enum { BARRIER_COUNT = 16 };

/* parser.y */
Module *parse_module(Source *src, Diag *diag);
void module_free(Module *m);

/* Streaming: each function is handed to done() when its closing brace (or prototype's ';')
 * has been parsed, with what precedes it in the module. done() returns STREAM_KEEP to keep its
 * body, STREAM_DROP to let it go (the Function stays, marked dropped, its lists empty: only
 * its name and place remain), or STREAM_STOP to end the parse there (the module
 * then holds what was parsed, and is for freeing only). Bodies go to m->body meanwhile.
 * skip(), if given, is asked when a kernel's name has been read: true has its body (from '{' to
 * the matching '}') lexed but not parsed, so that the kernel reaches done() with an empty body
 * and marked skipped. (A body whose '{' was read before the answer is parsed as usual.) */
typedef enum { STREAM_KEEP, STREAM_DROP, STREAM_STOP } StreamVerdict;
typedef struct StreamHook {
    StreamVerdict (*done)(void *context, Module *m, Function *f);
    bool (*skip)(void *context, const Module *m, const Function *f);
    void *context;
} StreamHook;
Module *parse_module_stream(Source *src, Diag *diag, const StreamHook *hook, bool *stopped);

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
    Diag *refusals;            /* where "ptxrun cannot execute ... yet" in a function goes (NULL: diag):
                                  a run says only those of the code it reaches (cli/runstream.c) */
} CheckOptions;

int check_module(Module *m, Diag *diag, const CheckOptions *options);

/* Checking a module as parse_module_stream hands over its functions, each with the module-scope
 * names declared before it. check_stream_function returns false when the answer could differ
 * from check_module's: a name one function resolved is declared again later (check_module
 * would bind the later one). Errors are reported as check_module would, but their order and
 * wording are check_module's only when there are none: after an error, check the whole module
 * again. check_stream_end declares what follows the last function and frees the checker. */
typedef struct Checker Checker;
Checker *check_stream_new(Module *m, Diag *diag, const CheckOptions *options);
bool check_stream_function(Checker *c, Function *f);
bool check_stream_end(Checker *c);

/* suffixes.c: what a decoded instruction's suffixes must say together (called by check.c). */
void suffixes_check(Diag *diag, const Module *m, const Instr *in);

/* ir.c: print the decoded module back as PTX; compare two modules. */
void ir_print_module(FILE *out, const Module *m);
void ir_print_instr(FILE *out, const Module *m, const Function *f, const Instr *in);
bool ir_equal(const Module *a, const Module *b, char *why, size_t why_len);
/* perf.c: the function's last directive of that name ("maxntid"), the one ptxas reads; NULL if none. */
const PerfDirective *perf_find(const Function *f, const char *name);
/* Whether in carries the modifier (inline: the checker asks it dozens of times per instruction). */
static inline bool ir_has_mod(const Instr *in, Mod mod)
{
    for (unsigned i = 0; i < in->mod_count; i++)
        if (in->mods[i] == mod)
            return true;
    return false;
}

#endif
