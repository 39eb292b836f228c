/* lexer.re: bytes -> tokens, for the bison parser (re2c, sentinel method).
 * Requires a Source whose text ends in a NUL: re2c stops there without bounds checks, and a
 * NUL before the real end is reported as a stray byte. Mnemonics are not keywords: a word and
 * its dotted parts ("shfl.sync.up.b32", "%tid.x") come back as one T_WORD, looked up later in
 * the opcode table. Only the directives the grammar is built on are tokens of their own.
 * All state lives in the Lexer; locations are byte spans. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "parser.h"

void lex_init(Lexer *lx, Source *src, Diag *diag, Arena *arena)
{
    memset(lx, 0, sizeof *lx);
    lx->src = src;
    lx->diag = diag;
    lx->arena = arena;
    lx->cursor = src->text;
    if (src->len >= 3 && memcmp(src->text, "\xEF\xBB\xBF", 3) == 0)
        lx->cursor += 3;                       /* UTF-8 byte order mark */
}

static Span span_of(const Lexer *lx, const char *start, const char *end)
{
    return (Span){ (uint32_t)(start - lx->src->text), (uint32_t)(end - start) };
}

/* Integer literal in base (2, 8, 10, 16) from digits [s, e). Reports overflow. */
static uint64_t parse_integer(Lexer *lx, const char *s, const char *e, unsigned base)
{
    uint64_t value = 0;
    bool overflow = false;
    const char *start = lx->token;
    for (; s < e; s++) {
        unsigned d = (*s >= '0' && *s <= '9') ? (unsigned)(*s - '0')
                   : (*s >= 'a' && *s <= 'f') ? (unsigned)(*s - 'a' + 10)
                   : (unsigned)(*s - 'A' + 10);
        if (value > (UINT64_MAX - d) / base)
            overflow = true;
        value = value * base + d;
    }
    if (overflow)
        diag_at(lx->diag, DIAG_ERROR, span_of(lx, start, lx->cursor),
                "integer literal '%.*s' does not fit in 64 bits", (int)(lx->cursor - start), start);
    return value;
}

static uint64_t parse_hex_bits(const char *s, const char *e)
{
    uint64_t value = 0;
    for (; s < e; s++)
        value = value * 16 + (unsigned)((*s >= '0' && *s <= '9') ? *s - '0'
                                        : (*s | 0x20) - 'a' + 10);
    return value;
}

static int integer_token(Lexer *lx, YYSTYPE *value, const char *digits, unsigned base)
{
    const char *end = lx->cursor;
    bool unsigned_suffix = end[-1] == 'U';
    if (unsigned_suffix)
        end--;
    value->T_INTEGER.bits = parse_integer(lx, digits, end, base);
    value->T_INTEGER.kind = OPND_INT;
    value->T_INTEGER.unsigned_suffix = unsigned_suffix;
    return T_INTEGER;
}

/* Skips a block comment whose opening has been consumed; false if it never closes. NULs inside a
 * comment are harmless, so only the real end of the text stops the scan. */
static bool skip_block_comment(Lexer *lx)
{
    const char *end = lx->src->text + lx->src->len;
    for (const char *p = lx->cursor; p + 1 < end; p++) {
        if (p[0] == '*' && p[1] == '/') {
            lx->cursor = p + 2;
            return true;
        }
    }
    lx->cursor = end;
    return false;
}

/* The end of the string whose opening quote is at p, or NULL where lex_next would say it is
 * unterminated. */
static const char *string_end(const char *p)
{
    for (p++; *p != '"'; p++) {
        if (*p == '\\')
            p++;
        if (*p == '\n' || *p == '\0')
            return NULL;
    }
    return p;
}

int lex_skip_group(Lexer *lx, int close, Span *at)
{
    const char *p = lx->cursor, *end = lx->src->text + lx->src->len;
    const char *bad = NULL;
    bool block = close == '}';
    int open = block ? '{' : '(';
    size_t depth = 0;
    for (;;) {
        p += strcspn(p, block ? "{}/\"" : "()/\"");   /* (the text ends in a NUL) */
        if (*p == '\0') {
            if (p < end)
                bad = p;                       /* a NUL byte inside */
            break;
        } else if (*p == open) {
            if (block && lx->open_braces.len + ++depth > MAX_BLOCK_DEPTH) {
                bad = p;
                break;
            }
            depth += !block;
        } else if (*p == close) {
            if (depth == 0) {
                lx->token = p;
                lx->cursor = p + 1;
                if (block)
                    lx->open_braces.len--;
                *at = span_of(lx, lx->token, lx->cursor);
                return close;
            }
            depth--;
        } else if (*p == '"') {
            const char *quote = string_end(p);
            if (!quote) {
                bad = p;
                break;
            }
            p = quote;
        } else if (p[1] == '/') {
            p += strcspn(p, "\n");          /* to the end of the line (or a NUL) */
            continue;
        } else if (p[1] == '*') {
            lx->cursor = p + 2;
            if (!skip_block_comment(lx)) {
                bad = p;
                break;
            }
            p = lx->cursor;
            continue;
        }
        p++;
    }
    if (bad)
        diag_at(lx->diag, DIAG_ERROR, span_of(lx, bad, bad + 1), "cannot pass over this %s unparsed",
                block ? "block" : "list");
    lx->cursor = end;
    lx->token = end;
    *at = span_of(lx, end, end);
    return T_EOF;
}

int lex_next(Lexer *lx, YYSTYPE *value, Span *at)
{
    const char *marker;
    for (;;) {
        const char *cursor = lx->cursor;       /* a local, so that it can live in a register */
        lx->token = cursor;
        const char *digits = NULL;
        /*!stags:re2c format = "const char *@@ = NULL;\n"; */
#define SEEN (lx->cursor = cursor)           /* first in every action: the token ends here */
#define RETURN(tok) do { *at = span_of(lx, lx->token, lx->cursor); return (tok); } while (0)
    /*!re2c
        re2c:define:YYCTYPE = "unsigned char";
        re2c:define:YYCURSOR = "cursor";
        re2c:define:YYMARKER = "marker";
        re2c:yyfill:enable = 0;
        re2c:flags:tags = 1;
        re2c:flags:bit-vectors = 1;

        alpha  = [a-zA-Z];
        digit  = [0-9];
        hex    = [0-9a-fA-F];
        wordc  = [a-zA-Z0-9_$];
        part   = wordc+ ("::" wordc+)*;
        word   = ([a-zA-Z_$] wordc* | "%" wordc+) ("." part)*;
        exp    = [eE] [+-]? digit+;

        [\x00] { SEEN;
            if (lx->token == lx->src->text + lx->src->len) {
                *at = span_of(lx, lx->token, lx->token);
                lx->cursor = lx->token;    /* stay at the end: every later call is EOF too */
                return T_EOF;
            }
            diag_at(lx->diag, DIAG_ERROR, span_of(lx, lx->token, lx->cursor),
                    "NUL byte in input");
            continue;
        }
        [ \t\r\n\v\f]+ { SEEN; continue; }
        "//" { lx->cursor = cursor + strcspn(cursor, "\n"); continue; }   /* to the line's end, or a NUL */
        "/*" { SEEN;
            if (!skip_block_comment(lx))
                diag_at(lx->diag, DIAG_ERROR, span_of(lx, lx->token, lx->token + 2),
                        "unterminated comment");
            continue;
        }

        ".version"      { SEEN; RETURN(T_VERSION); }
        ".target"       { SEEN; RETURN(T_TARGET); }
        ".address_size" { SEEN; RETURN(T_ADDRESS_SIZE); }
        ".entry"        { SEEN; RETURN(T_ENTRY); }
        ".func"         { SEEN; RETURN(T_FUNC); }
        ".align"        { SEEN; RETURN(T_ALIGN); }
        ".file"         { SEEN; RETURN(T_FILE); }
        ".loc"          { SEEN; RETURN(T_LOC); }
        ".section"      { SEEN; RETURN(T_SECTION); }
        ".pragma"       { SEEN; RETURN(T_PRAGMA); }
        ".callprototype" { SEEN; RETURN(T_CALLPROTOTYPE); }
        ".calltargets"  { SEEN; RETURN(T_CALLTARGETS); }
        ".branchtargets" { SEEN; RETURN(T_BRANCHTARGETS); }
        ".alias"        { SEEN; RETURN(T_ALIAS); }
        ".visible"      { SEEN; value->T_LINKAGE = LINK_VISIBLE; RETURN(T_LINKAGE); }
        ".extern"       { SEEN; value->T_LINKAGE = LINK_EXTERN;  RETURN(T_LINKAGE); }
        ".weak"         { SEEN; value->T_LINKAGE = LINK_WEAK;    RETURN(T_LINKAGE); }
        ".common"       { SEEN; value->T_LINKAGE = LINK_COMMON;  RETURN(T_LINKAGE); }
        ".reg"          { SEEN; value->T_SPACE = SPACE_REG;    RETURN(T_SPACE); }
        ".sreg"         { SEEN; value->T_SPACE = SPACE_SREG;   RETURN(T_SPACE); }
        ".const"        { SEEN; value->T_SPACE = SPACE_CONST;  RETURN(T_SPACE); }
        ".global"       { SEEN; value->T_SPACE = SPACE_GLOBAL; RETURN(T_SPACE); }
        ".local"        { SEEN; value->T_SPACE = SPACE_LOCAL;  RETURN(T_SPACE); }
        ".param"        { SEEN; value->T_SPACE = SPACE_PARAM;  RETURN(T_SPACE); }
        ".shared"       { SEEN; value->T_SPACE = SPACE_SHARED; RETURN(T_SPACE); }
        ".tex" | ".texref" { SEEN; value->T_SPACE = SPACE_TEX; RETURN(T_SPACE); }
        ".surfref"      { SEEN; value->T_SPACE = SPACE_SURF;   RETURN(T_SPACE); }
        ".samplerref"   { SEEN; value->T_SPACE = SPACE_SAMPLER; RETURN(T_SPACE); }
        ".maxntid" | ".reqntid" | ".minnctapersm" | ".maxnctapersm" | ".maxnreg"
            | ".noreturn" | ".explicitcluster" | ".reqnctapercluster" | ".maxclusterrank"
            | ".blocksareclusters" | ".abi_preserve" | ".abi_preserve_control" { SEEN;
            RETURN(T_PERF);
        }
        "." [a-zA-Z_] wordc* ("::" wordc+)* { SEEN; RETURN(T_DIRECTIVE); }

        "WARP_SZ" { SEEN;                /* a constant wherever a number may stand, expressions too */
            value->T_INTEGER = (Literal){ WARP_SIZE, OPND_INT, false, false };
            RETURN(T_INTEGER);
        }
        word { SEEN; RETURN(T_WORD); }

        "0" [xX] @digits hex+ "U"? { SEEN; integer_token(lx, value, digits, 16); RETURN(T_INTEGER); }
        "0" [bB] @digits [01]+ "U"? { SEEN; integer_token(lx, value, digits, 2); RETURN(T_INTEGER); }
        "0" @digits [0-7]+ "U"?    { SEEN; integer_token(lx, value, digits, 8); RETURN(T_INTEGER); }
        @digits ("0" | [1-9] digit*) "U"? { SEEN; integer_token(lx, value, digits, 10); RETURN(T_INTEGER); }
        "0" [fF] @digits hex{8} { SEEN;
            value->T_FLOAT.bits = parse_hex_bits(digits, lx->cursor);
            value->T_FLOAT.kind = OPND_F32;
            RETURN(T_FLOAT);
        }
        "0" [dD] @digits hex{16} { SEEN;
            value->T_FLOAT.bits = parse_hex_bits(digits, lx->cursor);
            value->T_FLOAT.kind = OPND_F64;
            RETURN(T_FLOAT);
        }
        (digit+ "." digit* exp? | "." digit+ exp? | digit+ exp) { SEEN;
            /* strtod reads exactly this token: what follows it cannot extend a number. */
            double d = strtod(lx->token, NULL);
            memcpy(&value->T_FLOAT.bits, &d, sizeof d);
            value->T_FLOAT.kind = OPND_F64;
            RETURN(T_FLOAT);
        }
        digit+ wordc+ { SEEN;
            diag_at(lx->diag, DIAG_ERROR, span_of(lx, lx->token, lx->cursor),
                    "invalid number '%.*s'", (int)(lx->cursor - lx->token), lx->token);
            value->T_INTEGER.bits = 0;
            value->T_INTEGER.kind = OPND_INT;
            value->T_INTEGER.unsigned_suffix = false;
            RETURN(T_INTEGER);
        }

        ["] ([^"\\\n\x00] | "\\" [^\n\x00])* ["] { SEEN; RETURN(T_STRING); }
        ["] ([^"\\\n\x00] | "\\" [^\n\x00])* { SEEN;
            diag_at(lx->diag, DIAG_ERROR, span_of(lx, lx->token, lx->token + 1),
                    "unterminated string");
            RETURN(T_STRING);
        }

        "{" { SEEN;
            uint32_t offset = (uint32_t)(lx->token - lx->src->text);
            if (lx->open_braces.len == MAX_BLOCK_DEPTH) {
                diag_at(lx->diag, DIAG_ERROR, span_of(lx, lx->token, lx->cursor),
                        "blocks nested more than %d deep", MAX_BLOCK_DEPTH);
                lx->gave_up = true;
                lx->cursor = lx->src->text + lx->src->len;
                *at = span_of(lx, lx->cursor, lx->cursor);
                return T_EOF;
            }
            VEC_PUSH(lx->arena, lx->open_braces, offset);
            RETURN('{');
        }
        "}" { SEEN;
            if (lx->open_braces.len)
                lx->open_braces.len--;
            RETURN('}');
        }
        [,;:|@![\]()<>+\-=*/%~^&?] { SEEN; RETURN(lx->token[0]); }
        "<<" { SEEN; RETURN(T_SHL); }
        ">>" { SEEN; RETURN(T_SHR); }
        "<=" { SEEN; RETURN(T_LE); }
        ">=" { SEEN; RETURN(T_GE); }
        "==" { SEEN; RETURN(T_EQ); }
        "!=" { SEEN; RETURN(T_NE); }
        "&&" { SEEN; RETURN(T_ANDAND); }
        "||" { SEEN; RETURN(T_OROR); }

        [^] { SEEN;
            unsigned char c = (unsigned char)lx->token[0];
            size_t utf8 = utf8_sequence_length(lx->token,
                                                (size_t)(lx->src->text + lx->src->len - lx->token));
            if (c >= 0x80 && utf8 > 1 && utf8_is_visible(lx->token, utf8)) {
                lx->cursor = lx->token + utf8;
                diag_at(lx->diag, DIAG_ERROR, span_of(lx, lx->token, lx->cursor),
                        "stray non-ASCII character '%.*s' in program", (int)utf8, lx->token);
            } else if (c >= 0x80 && utf8 > 1) {
                lx->cursor = lx->token + utf8;
                diag_at(lx->diag, DIAG_ERROR, span_of(lx, lx->token, lx->cursor),
                        "stray invisible character U+%04X in program", (unsigned)utf8_code_point(lx->token, utf8));
            } else if (c >= 0x80)
                diag_at(lx->diag, DIAG_ERROR, span_of(lx, lx->token, lx->cursor),
                        "invalid UTF-8 byte 0x%02x in program", c);
            else if (c >= 0x20 && c < 0x7f)
                diag_at(lx->diag, DIAG_ERROR, span_of(lx, lx->token, lx->cursor),
                        "stray '%c' in program", c);
            else
                diag_at(lx->diag, DIAG_ERROR, span_of(lx, lx->token, lx->cursor),
                        "stray control character 0x%02x in program", c);
            continue;
        }
    */
#undef RETURN
#undef SEEN
    }
}
