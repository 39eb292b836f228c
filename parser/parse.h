/* parse.h: the parser's state and the actions its grammar (parser.y) calls to build a Module.
 * Private to parser.y and parse.c; everyone else calls parse_module(). */
#ifndef PARSE_H
#define PARSE_H

#include "ir.h"

#define YYLTYPE Span
#define YYLTYPE_IS_DECLARED 1

/* A token read ahead by quick.c, its value (a YYSTYPE, unknown here) as bytes. */
typedef struct QuickToken {
    int token;
    Span at;
    unsigned char value[sizeof(Literal)];
} QuickToken;

enum { QUICK_MAX_TOKENS = 128 };

/* One parse: the module being built and the stacks on which the grammar's actions collect
 * lists (operands, initializers, parameters) before copying them into the module's arena. */
typedef struct Parser {
    Lexer lx;
    Diag *diag;
    Module *m;
    Function *fn;              /* function whose body is being parsed, NULL at the top level */
    Function *snippet;         /* the implicit kernel of bare top-level instructions */
    int pending_linkage;       /* linkage directives read before .entry/.func */
    Decl *last_decl;           /* the declaration that dims, ranges and initializers extend */
    Decl decl;                 /* attributes of the declaration being parsed */
    int64_t addr_offset;       /* offset of the address being parsed: [base+offset] */
    uint64_t perf_values[3];   /* numbers after a performance directive */
    VEC(Operand) operands;
    VEC(Init) inits;
    VEC(Decl) params;
    uint32_t prev_end, token_end;  /* end offsets of the previous and current token */
    Span first_bare;           /* the first bare top-level statement (snippet mode) */
    bool has_bare;
    uint32_t loc_line;         /* the last .loc in the function (0: none), for the next instructions */
    uint16_t loc_file, loc_col;
    Literal inlined_at[3];     /* the .loc being read has ", inlined_at FILE LINE COLUMN" */
    bool inlined;
    const StreamHook *hook;    /* parse_module_stream: bodies go to m->body, handed to it */
    ArenaMark body_mark;       /* m->body when the current function began */
    bool stopped;              /* the hook said STREAM_STOP: the lexer gives end of file */
    bool skip_body;            /* the hook's skip() said so: the next '{' starts a body to skip */
    bool skip_params;          /* ... and a '(' next, the parameters */
    int held_token;            /* a token read ahead (the '}' ending a skipped body), or 0 */
    Span held_at;
    Instr *spare_code;         /* heap storage of the last lists sealed, for the next function */
    Item *spare_items;
    Label *spare_labels;
    uint32_t spare_code_cap, spare_items_cap, spare_labels_cap;
    bool item_start;           /* streaming: the last token given ended an item, or was one */
    uint32_t quick_len, quick_next;   /* quick.c: tokens read ahead, and the next to give */
    QuickToken quick[QUICK_MAX_TOKENS];
} Parser;

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                                          \
    do {                                                                                     \
        if (N) {                                                                             \
            (Cur).offset = YYRHSLOC(Rhs, 1).offset;                                          \
            (Cur).length = YYRHSLOC(Rhs, N).offset + YYRHSLOC(Rhs, N).length - (Cur).offset; \
        } else {                                                                             \
            (Cur).offset = YYRHSLOC(Rhs, 0).offset + YYRHSLOC(Rhs, 0).length;                \
            (Cur).length = 0;                                                                \
        }                                                                                    \
    } while (0)
/* The span from the start of a to the end of b. */
#define SPAN(a, b) ((Span){ (a).offset, (b).offset + (b).length - (a).offset })

void parse_init(Parser *p, Source *src, Diag *diag);

Module *parse_finish(Parser *p);
void parse_recover(Parser *p, bool top_level);

void parse_version(Parser *p, Span at);
void parse_target(Parser *p, Span at);
void parse_file(Parser *p, Literal number, Span path, Span extra);
void parse_top_verbatim(Parser *p, Span at);
void parse_loc(Parser *p, Literal file, Literal line, Literal column);
void parse_loc_inlined(Parser *p, Span word, Literal file, Literal line, Literal column);

void parse_function_begin(Parser *p, Span name, bool is_entry, uint32_t returns);
void parse_function_params(Parser *p, uint32_t count);
void parse_function_end(Parser *p, bool has_body);
void parse_perf(Parser *p, Span name, uint32_t count);
void perf_check(Parser *p, const PerfDirective *d);   /* perf.c */
void perf_end(Parser *p, Function *f);
void parse_item_text(Parser *p, ItemKind kind, Span at, uint32_t drop_params);
void parse_targets(Parser *p, bool branch, uint32_t count, Span at);
void parse_block_open(Parser *p);
void parse_block_close(Parser *p);

void parse_label(Parser *p, Span name);
void parse_instr(Parser *p, Span mnemonic, int guard_kind, Span guard, uint32_t count, Span stmt);
void parse_operand_name(Parser *p, Span at);
void parse_operand_not(Parser *p, Span at);
void parse_operand_negate(Parser *p, Span at);
void parse_operand_offset(Parser *p, int64_t offset, Span at);
void parse_operand_index(Parser *p, Literal index, bool by_register, Span at);
void parse_operand_qualifier(Parser *p, Span qualifier);
void parse_operand_literal(Parser *p, Literal lit, bool negative, Span at);
void parse_operand_group(Parser *p, OperandKind kind, uint32_t count, int64_t offset, Span at);
void parse_operand_constant(Parser *p, Literal value, Span at);

/* cexpr.c: constant expressions, evaluated as they are parsed. An operator is its character,
 * or one of these for the two-character ones. */
enum { CONST_SHL = 256, CONST_SHR, CONST_LE, CONST_GE, CONST_EQ, CONST_NE, CONST_ANDAND, CONST_OROR };
Literal parse_const_literal(Literal a);
Literal parse_const_unary(Parser *p, int op, Literal a, Span at);
Literal parse_const_binary(Parser *p, int op, Literal a, Literal b, Span at);
Literal parse_const_select(Parser *p, Literal cond, Literal a, Literal b);
int64_t parse_const_offset(Parser *p, Literal value, Span at);
bool parse_const_init(Parser *p, const Decl *d, const Init *v);   /* an initializer against its type */

/* initshape.c: an initializer's braces against the declaration's dimensions and vector width */
bool initshape_check(Parser *p, const Decl *d, const Init *v);

void parse_decl_begin(Parser *p, int space, int linkage);
void parse_decl_attr(Parser *p, Span at);
void parse_decl_attr_call(Parser *p, Span name, Span close);
void parse_decl_align(Parser *p, Literal value, Span at);
void parse_decl_space(Parser *p, int space, Span at);
void parse_decl_name(Parser *p, Span name, Span at, bool is_param);
void parse_decl_dim(Parser *p, bool has_size, Literal size, Span at);
void parse_decl_range(Parser *p, Literal count, Span at);
void parse_decl_init(Parser *p, uint32_t count, Span at);
void parse_init_value(Parser *p, int kind, Literal lit, Span name, Span at);   /* a list, a symbol (+lit) */
void parse_init_number(Parser *p, Literal value, Span at);                     /* a constant expression's */
void parse_init_field(Parser *p, Span name, Span at);

/* opaque.c: a .texref, .samplerref or .surfref initializer into the declaration's OpaqueInit */
void opaque_decode(Module *m, Decl *d, Diag *diag);
bool opaque_independent(const Module *m);   /* .target texmode_independent */

/* quick.c (the streaming parser's): where an item may begin, a plain one in one token (T_ITEM,
 * its actions done); else the tokens read, one a call (quick_next, while quick_len says some are
 * left). value: the YYSTYPE of the token given. */
int quick_item(Parser *p, void *value, Span *at);
int quick_next(Parser *p, void *value, Span *at);

#endif
