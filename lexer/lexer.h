/* lexer.h: what every stage shares (errors, arenas, interned names, the source, diagnostics)
 * and the lexer: bytes to tokens. The first room of the pipeline
 * lexer -> parser -> exec -> cli; each room's header includes the one before it. */
#ifndef PTXRUN_LEXER_H
#define PTXRUN_LEXER_H

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
_Noreturn void util_out_of_memory(size_t size);   /* says so and exits (EXIT_FAULT) */
void *xmalloc(size_t size);
char *xstrdup(const char *s);   /* a copy of s from xmalloc */
void *xcalloc(size_t count, size_t size);
void *xcalloc_aligned(size_t count, size_t size, size_t align);
/* pages.c: big zeroed blocks from the system (huge pages where offered); pages_free with the size */
void *pages_alloc(size_t size);
void pages_free(void *p, size_t size);
void *xrealloc(void *old, size_t size);
const char *util_option_value(const char *a, const char *name, int argc, char **argv, int *i, bool *missing);
_Noreturn void util_bug(const char *file, int line, const char *fmt, ...);
/* A message of any length, formed in parts: text is NULL until the first msg_set or msg_add
 * (Msg m = {0}), then always NUL-terminated; msg_free gives the memory back. */
typedef struct Msg {
    char *text;
    size_t len, cap;           /* strlen(text); bytes allocated */
} Msg;
void msg_set(Msg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));   /* the whole text */
void msg_add(Msg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));   /* appended */
void msg_prefix(Msg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));   /* put before */
void msg_free(Msg *m);
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
    ArenaBlock *spare;         /* a zeroed block arena_release kept for the next growth */
} Arena;

/* A point in an arena's allocations, to release everything allocated after it. */
typedef struct ArenaMark {
    ArenaBlock *block;
    size_t used;
} ArenaMark;

void *arena_alloc(Arena *arena, size_t size);           /* zero-filled, 16-byte aligned */
void *arena_grow(Arena *arena, void *old, size_t old_size, size_t new_size);
char *arena_strndup(Arena *arena, const char *s, size_t len);
void arena_reset(Arena *arena);                         /* empty again, its newest block kept */
ArenaMark arena_mark(const Arena *arena);
void arena_release(Arena *arena, ArenaMark mark);       /* frees what was allocated after mark */
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

/* Room for more elements without growing again (the new capacity is exactly that). */
#define VEC_RESERVE(arena, vec, more)                                                      \
    do {                                                                                   \
        if ((vec).cap - (vec).len < (more)) {                                              \
            uint32_t vec_newcap_ = (vec).len + (more);                                     \
            (vec).data = arena_grow((arena), (vec).data, (vec).cap * sizeof *(vec).data,   \
                                    vec_newcap_ * sizeof *(vec).data);                     \
            (vec).cap = vec_newcap_;                                                       \
        }                                                                                  \
    } while (0)

/* intern.c: one copy of every name, so names compare by pointer. */
typedef struct InternSlot {
    const char *name;          /* NULL = empty */
    uint32_t hash, len;        /* compared before the name: one cache line per probe */
} InternSlot;
enum { INTERN_RECENT = 1024 };
typedef struct Interner {
    Arena *arena;
    InternSlot *slots;         /* open addressing, from pages_alloc */
    uint32_t count, capacity;  /* capacity is a power of two */
    InternSlot *recent;        /* INTERN_RECENT slots: the last name found in each of as many
                                  hash classes; the names used again and again, in 4 KB */
} Interner;

void intern_init(Interner *in, Arena *arena);
const char *intern(Interner *in, const char *s, size_t len);
void intern_free(Interner *in);

/* source.c: the input text, NUL-terminated, and byte offset -> line:column. */
typedef struct Source {
    const char *name;          /* path as given, or "<stdin>" */
    char *text;                /* contents plus a NUL sentinel */
    size_t pages;              /* text came from pages_alloc, this size (0: from malloc) */
    size_t mapped;             /* text is the file mapped (source.c), this many bytes (0: not) */
    int64_t stamp[4];          /* a mapped file's device, inode, size and change time (ns) */
    uint32_t len;              /* bytes, without the sentinel */
    uint32_t *line_starts;     /* offset of each line's first byte; built on first use */
    uint32_t line_count;
} Source;

int source_load(Source *src, const char *path, Msg *err);
/* False when src is a mapped file that has changed since it was loaded (others never change). */
bool source_unchanged(const Source *src);
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

/* lexer.re */
typedef struct Literal {       /* the value of a T_INTEGER or T_FLOAT token, or of an expression */
    uint64_t bits;
    uint8_t kind;              /* OPND_INT, OPND_F32, OPND_F64 */
    bool unsigned_suffix;      /* an unsigned integer: a U suffix, or too big for a signed one */
    bool grouped;              /* an expression in parentheses, nothing outside them */
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
/* Passes over the rest of the innermost open block (close '}') or parenthesized list (')'),
 * without tokens, to the close that ends it (returned, as lex_next would) or the end of the file
 * (T_EOF). Exact where lex_next would say nothing (comments and strings are passed over as it
 * passes them); elsewhere it may differ, after an error of its own. For a kernel some other
 * reader parses. */
int lex_skip_group(Lexer *lx, int close, Span *at);
const char *lex_token_name(int token);

#endif
