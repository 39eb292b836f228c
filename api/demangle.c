/* demangle.c: the C++ name of a kernel from its Itanium-ABI mangled name (_Z...), written as
 * binutils' c++filt writes it, so that a user can tell the kernels of a large module apart and
 * choose one by the name in their source (entry.c).
 * It reads what nvcc gives kernels: plain, nested and local names, anonymous namespaces,
 * templates with type, integer, bool and pack arguments, substitutions (S_, S0_, St, Sa, ...),
 * template parameters (T_), pointers, references, arrays, function types, pointers to
 * members, cv-qualifiers, builtin and vendor types, vector types, lambdas and unnamed types
 * (as the last part of a name), and of expressions only X T_ E and a function's address.
 * Anything else gives NULL, and the caller shows the mangled name: operators, constructors,
 * other expressions, decltype, clone suffixes (.cold), functions returning pointers to
 * functions, ref-qualified function types, a name beyond the bounds (32 template arguments in
 * a list, 512 substitutions, nesting 64 deep, 32 KB of text). Each name is read once, a pack
 * expansion once per element, so no input can crash it or make it run long. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

enum {
    POOL_BYTES = 1 << 15,      /* the text of one name and its parts */
    MAX_SUBS = 512,            /* substitution candidates (S_, S0_, ...) */
    MAX_ARGS = 512,            /* template arguments read, all lists together */
    MAX_DEPTH = 64,            /* nesting of types within types */
};

/* A type's text around the place a declarator would go: "void (*" ")(int)" for a pointer to a
 * function, "int" "" for a plain type. A pack holds its elements (Demangler.args[first..]). A
 * sealed type (an array of pointers to functions) is written whole, never inside another. */
typedef enum { SHAPE_PLAIN, SHAPE_FUNCTION, SHAPE_ARRAY, SHAPE_GROUPED, SHAPE_PACK, SHAPE_SEALED } Shape;

typedef struct Piece {
    const char *left, *right;
    Shape shape;
    unsigned first, count;     /* a pack's elements */
    unsigned cv;               /* CV_ bits qualifying the whole (written already) */
    unsigned ref;              /* 1: an lvalue reference, 2: an rvalue one, to the type bare */
    const char *bare;
} Piece;

enum { CV_CONST = 1, CV_VOLATILE = 2, CV_RESTRICT = 4 };

typedef struct Demangler {
    const char *p;             /* the next character to read */
    bool failed;
    unsigned depth;
    char pool[POOL_BYTES];     /* every string made, none freed until the end */
    size_t used;
    Piece subs[MAX_SUBS];      /* S_ is subs[0] */
    unsigned nsubs;
    Piece args[MAX_ARGS];      /* every template argument list read, one after another */
    unsigned nargs;
    unsigned bound_first, bound_count;   /* the list T_ refers to: the function's own */
    unsigned last_first, last_count;     /* the last list read in a function's name */
    int pack_index;            /* in a pack expansion: which element T_ of a pack gives */
    int pack_length;           /* the length of the pack found there (-1: none yet) */
    bool function;             /* the last encoding read had parameters */
} Demangler;

static Piece type(Demangler *d);
static const char *template_args(Demangler *d, bool of_function);
static const char *encoding(Demangler *d, size_t *name_at);
static const char *name(Demangler *d, bool of_function, bool *templated, const char **quals);

static const Piece nothing = { .left = "", .right = "", .bare = "" };

static bool fail(Demangler *d)
{
    d->failed = true;
    return false;
}

/* a, b and c one after another, as a new string */
static const char *join3(Demangler *d, const char *a, const char *b, const char *c)
{
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
    if (d->failed || la + lb + lc + 1 > POOL_BYTES - d->used) {
        fail(d);
        return "";
    }
    char *s = d->pool + d->used;
    memcpy(s, a, la);
    memcpy(s + la, b, lb);
    memcpy(s + la + lb, c, lc);
    s[la + lb + lc] = '\0';
    d->used += la + lb + lc + 1;
    return s;
}

static const char *join(Demangler *d, const char *a, const char *b)
{
    return join3(d, a, b, "");
}

/* list, then item as its i-th element: c++filt writes ", " before each element but the first
 * that has a text (an empty pack has none): <, float> for an empty pack and a float. */
static const char *join_item(Demangler *d, const char *list, unsigned i, const char *item)
{
    return join3(d, list, i && *item ? ", " : "", item);
}

static Piece plain(const char *text)
{
    Piece t = { .left = text, .right = "", .bare = text };
    return t;
}

static bool next_is(Demangler *d, char c)
{
    if (*d->p != c)
        return false;
    d->p++;
    return true;
}

static void add_sub(Demangler *d, Piece t)
{
    if (d->nsubs == MAX_SUBS) {
        fail(d);
        return;
    }
    d->subs[d->nsubs++] = t;
}

/* <number> ::= [n] <decimal>; false when there is none (or it is absurdly long) */
static bool number(Demangler *d, long *value)
{
    bool negative = next_is(d, 'n');
    if (*d->p < '0' || *d->p > '9')
        return fail(d);
    long v = 0;
    for (; *d->p >= '0' && *d->p <= '9'; d->p++) {
        if (v > 100000000)
            return fail(d);
        v = v * 10 + (*d->p - '0');
    }
    *value = negative ? -v : v;
    return true;
}

/* The whole of a pack's elements, or any other piece, as one string. */
static const char *text(Demangler *d, Piece t)
{
    if (t.shape != SHAPE_PACK)
        return join(d, t.left, t.right);
    const char *s = "";
    for (unsigned i = 0; i < t.count; i++)
        s = join_item(d, s, i, text(d, d->args[t.first + i]));
    return s;
}

/* <source-name> ::= <length> <identifier>; an anonymous namespace's name is _GLOBAL__N_... */
static const char *source_name(Demangler *d)
{
    long len;
    if (!number(d, &len) || len <= 0 || (long)strnlen(d->p, (size_t)len) < len) {
        fail(d);
        return "";
    }
    const char *start = d->p;
    for (; d->p < start + len; d->p++)
        if (!(*d->p == '_' || *d->p == '$' || (*d->p >= '0' && *d->p <= '9') || (*d->p >= 'a' && *d->p <= 'z') ||
              (*d->p >= 'A' && *d->p <= 'Z')))
            return fail(d), "";
    if (len >= 10 && !strncmp(start, "_GLOBAL__N", 10))
        return "(anonymous namespace)";
    if (d->failed || (size_t)len + 1 > POOL_BYTES - d->used)
        return fail(d), "";
    char *s = d->pool + d->used;
    memcpy(s, start, (size_t)len);
    s[len] = '\0';
    d->used += (size_t)len + 1;
    return s;
}

/* A discriminator or an unnamed type's number: [<number>] _, counted from 1 as c++filt does. */
static const char *ordinal(Demangler *d)
{
    long n = -1;
    if (*d->p == 'n' || (*d->p != '_' && !number(d, &n)) || !next_is(d, '_'))
        return fail(d), "";
    char buf[24];
    snprintf(buf, sizeof buf, "#%ld", n + 2);
    return join(d, buf, "}");
}

/* The parameter types of a function up to 'E' or the end, as "(int, float*)"; "v" alone is "()". */
static const char *parameters(Demangler *d)
{
    if (d->p[0] == 'v' && (d->p[1] == 'E' || d->p[1] == '\0')) {
        d->p++;
        return "()";
    }
    const char *s = "";
    if (!*d->p || *d->p == 'E')
        fail(d);
    for (unsigned i = 0; *d->p && *d->p != 'E' && !d->failed; i++)
        s = join_item(d, s, i, text(d, type(d)));
    return join3(d, "(", s, ")");
}

/* <unqualified-name>: a source name (after L, the mark of internal linkage), an unnamed type
 * (Ut [n] _) or a lambda (Ul <parameters> E [n] _), then any ABI tags (B <source-name>). */
static const char *unqualified_name(Demangler *d)
{
    const char *s;
    if (next_is(d, 'L') && !(*d->p >= '0' && *d->p <= '9'))
        return fail(d), "";
    if (*d->p >= '0' && *d->p <= '9')
        s = source_name(d);
    else if (d->p[0] == 'U' && d->p[1] == 't') {
        d->p += 2;
        s = join(d, "{unnamed type", ordinal(d));
    } else if (d->p[0] == 'U' && d->p[1] == 'l') {
        d->p += 2;
        const char *params = parameters(d);
        if (!next_is(d, 'E'))
            return fail(d), "";
        s = join3(d, "{lambda", params, ordinal(d));
    } else
        return fail(d), "";
    while (next_is(d, 'B'))
        s = join3(d, s, "[abi:", join(d, source_name(d), "]"));
    return s;
}

/* <substitution> ::= S_ | S <seq-id> _ | Sa | Sb | Ss | Si | So | Sd (not St: the caller's) */
static Piece substitution(Demangler *d)
{
    static const struct { char code; const char *name; } std_names[] = {
        { 'a', "std::allocator" }, { 'b', "std::basic_string" },
        { 's', "std::basic_string<char, std::char_traits<char>, std::allocator<char> >" },
        { 'i', "std::basic_istream<char, std::char_traits<char> >" },
        { 'o', "std::basic_ostream<char, std::char_traits<char> >" },
        { 'd', "std::basic_iostream<char, std::char_traits<char> >" },
    };
    d->p++;                                  /* S */
    for (size_t i = 0; i < sizeof std_names / sizeof *std_names; i++)
        if (next_is(d, std_names[i].code))
            return plain(std_names[i].name);
    unsigned long seq = 0;
    if (!next_is(d, '_')) {
        for (; (*d->p >= '0' && *d->p <= '9') || (*d->p >= 'A' && *d->p <= 'Z'); d->p++) {
            if (seq > MAX_SUBS)
                break;
            seq = seq * 36 + (unsigned long)(*d->p <= '9' ? *d->p - '0' : *d->p - 'A' + 10);
        }
        if (!next_is(d, '_'))
            return fail(d), nothing;
        seq++;
    }
    if (seq >= d->nsubs)
        return fail(d), nothing;
    return d->subs[seq];
}

/* <template-param> ::= T_ | T <number> _ : the argument of the function's template; in a
 * pack expansion, the element being expanded. */
static Piece template_param(Demangler *d)
{
    long n = -1;
    d->p++;                                  /* T */
    if (*d->p != '_' && (*d->p == 'n' || !number(d, &n)))
        return fail(d), nothing;             /* no sign: Tn0_ is no T0_ (c++filt) */
    if (!next_is(d, '_') || (unsigned long)(n + 1) >= d->bound_count)
        return fail(d), nothing;
    Piece t = d->args[d->bound_first + (unsigned)(n + 1)];
    if (t.shape == SHAPE_PACK && d->pack_index < 0)
        return fail(d), nothing;             /* a pack outside a pack expansion */
    if (t.shape == SHAPE_PACK) {
        if (d->pack_length < 0)
            d->pack_length = (int)t.count;
        if ((unsigned)d->pack_index >= t.count)
            return nothing;
        return d->args[t.first + (unsigned)d->pack_index];
    }
    return t;
}

/* <expr-primary> ::= L <type> <value> E | L _Z <encoding> E: an integer as C++ writes it
 * (8u, 128ul, -5, true), others as c++filt does ((char)65, (float)[3f800000], (Color)2). */
static const char *literal(Demangler *d)
{
    static const struct { char code; const char *suffix; } integers[] = {
        { 'i', "" }, { 'j', "u" }, { 'l', "l" }, { 'm', "ul" }, { 'x', "ll" }, { 'y', "ull" },
    };
    d->p++;                                  /* L */
    if (next_is(d, '_')) {
        size_t at;
        const char *e = next_is(d, 'Z') ? encoding(d, &at) : "";
        return next_is(d, 'E') && *e ? e : (fail(d), "");
    }
    if (d->p[0] == 'b' && (d->p[1] == '0' || d->p[1] == '1') && d->p[2] == 'E') {
        d->p += 3;
        return d->p[-2] == '1' ? "true" : "false";
    }
    const char *suffix = NULL, *cast = NULL;
    bool bits = *d->p == 'f' || *d->p == 'd' || *d->p == 'e' || *d->p == 'g';
    for (size_t i = 0; i < sizeof integers / sizeof *integers; i++)
        if (*d->p == integers[i].code) {
            suffix = integers[i].suffix;
            d->p++;
            break;
        }
    if (!suffix)
        cast = text(d, type(d));
    const char *start = d->p;
    bool negative = next_is(d, 'n');
    if (negative)
        start = d->p;
    while ((*d->p >= '0' && *d->p <= '9') || (bits && *d->p >= 'a' && *d->p <= 'f'))
        d->p++;
    size_t len = (size_t)(d->p - start);
    if (!len || len > 64 || !next_is(d, 'E'))
        return fail(d), "";
    char value[80];
    snprintf(value, sizeof value, "%s%.*s", negative ? "-" : "", (int)len, start);
    if (suffix)
        return join(d, value, suffix);
    return bits ? join3(d, join3(d, "(", cast, ")["), value, "]") : join3(d, join3(d, "(", cast, ")"), value, "");
}

enum { MAX_LIST = 32 };                      /* the arguments of one list (or one pack) */

/* One <template-arg>: a literal, a pack (J <template-arg>* E) or a type. */
static Piece template_arg(Demangler *d)
{
    if (*d->p == 'L')
        return plain(literal(d));
    if (next_is(d, 'X')) {                   /* of expressions, only X T_ E and X ad L_Z...E E */
        Piece t = nothing;
        if (*d->p == 'T')
            t = template_param(d);
        else if (d->p[0] == 'a' && d->p[1] == 'd' && d->p[2] == 'L' && d->p[3] == '_') {
            d->p += 2;
            const char *e = literal(d);      /* &v, &(f()) */
            t = plain(d->function ? join3(d, "&(", e, ")") : join(d, "&", e));
        } else
            fail(d);
        return next_is(d, 'E') ? t : (fail(d), nothing);
    }
    if (!next_is(d, 'J'))
        return type(d);
    Piece list[MAX_LIST];
    unsigned count = 0;
    if (++d->depth > MAX_DEPTH)
        return fail(d), nothing;
    while (!next_is(d, 'E')) {
        if (count == MAX_LIST || !*d->p || d->failed)
            return fail(d), nothing;
        list[count++] = template_arg(d);
    }
    d->depth--;
    if (d->nargs + count > MAX_ARGS)
        return fail(d), nothing;
    Piece pack = { .left = "", .right = "", .shape = SHAPE_PACK, .first = d->nargs, .count = count, .bare = "" };
    memcpy(d->args + d->nargs, list, count * sizeof *list);
    d->nargs += count;
    return pack;
}

/* <template-args> ::= I <template-arg>+ E, as "<int, 8u>" ("> >" where one list ends
 * another, as c++filt writes it). Those of a function's name are what its T_ refer to. */
static const char *template_args(Demangler *d, bool of_function)
{
    Piece list[MAX_LIST];
    unsigned count = 0;
    d->p++;                                  /* I */
    if (++d->depth > MAX_DEPTH)
        return fail(d), "";
    while (!next_is(d, 'E')) {
        if (count == MAX_LIST || !*d->p || d->failed)
            return fail(d), "";
        list[count++] = template_arg(d);
    }
    d->depth--;
    if (d->nargs + count > MAX_ARGS)
        return fail(d), "";
    if (of_function) {
        d->last_first = d->nargs;
        d->last_count = count;
    }
    memcpy(d->args + d->nargs, list, count * sizeof *list);
    d->nargs += count;
    const char *s = "";
    for (unsigned i = 0; i < count; i++)
        s = join_item(d, s, i, text(d, list[i]));
    size_t len = strlen(s);
    return join3(d, "<", s, len && s[len - 1] == '>' ? " >" : ">");
}

/* A pointer, lvalue or rvalue reference (op "*", "&", "&&"), or pointer to a member ("A::*"),
 * to in. A reference to a reference is one reference, an lvalue one if either is. */
static Piece pointer_to(Demangler *d, Piece in, const char *op)
{
    Piece t = in;
    unsigned ref = !strcmp(op, "&") ? 1 : !strcmp(op, "&&") ? 2 : 0;
    if (ref && in.ref) {
        if (in.shape != SHAPE_PLAIN)
            return fail(d), nothing;
        t = plain(join(d, in.bare, in.ref == 1 || ref == 1 ? "&" : "&&"));
        t.ref = in.ref == 1 || ref == 1 ? 1 : 2;
        t.bare = in.bare;
        return t;
    }
    if ((!ref && in.ref) || in.shape == SHAPE_SEALED || in.shape == SHAPE_PACK)
        return fail(d), nothing;             /* a pointer to a reference: no such type */
    t.ref = ref;
    switch (in.shape) {
    case SHAPE_FUNCTION:
        t.left = join3(d, in.left, "(", op);
        t.right = join(d, ")", in.right);
        t.shape = SHAPE_GROUPED;
        break;
    case SHAPE_ARRAY:
        t.left = join3(d, in.left, " (", op);
        t.right = join(d, ")", in.right);
        t.shape = SHAPE_GROUPED;
        break;
    case SHAPE_GROUPED:
        t.left = join(d, in.left, op);
        break;
    default:
        t = plain(join3(d, text(d, in), strchr(op, ':') ? " " : "", op));   /* int A::* */
        t.ref = ref;
        t.bare = in.left;
    }
    return t;
}

/* The builtin types, and those of two letters after D. */
static const char *builtin(Demangler *d)
{
    static const char *const one[26] = {
        ['v' - 'a'] = "void", ['w' - 'a'] = "wchar_t", ['b' - 'a'] = "bool", ['c' - 'a'] = "char",
        ['a' - 'a'] = "signed char", ['h' - 'a'] = "unsigned char", ['s' - 'a'] = "short",
        ['t' - 'a'] = "unsigned short", ['i' - 'a'] = "int", ['j' - 'a'] = "unsigned int", ['l' - 'a'] = "long",
        ['m' - 'a'] = "unsigned long", ['x' - 'a'] = "long long", ['y' - 'a'] = "unsigned long long",
        ['n' - 'a'] = "__int128", ['o' - 'a'] = "unsigned __int128", ['f' - 'a'] = "float",
        ['d' - 'a'] = "double", ['e' - 'a'] = "long double", ['g' - 'a'] = "__float128", ['z' - 'a'] = "...",
    };
    static const struct { char code; const char *name; } two[] = {
        { 'h', "half" }, { 'i', "char32_t" }, { 's', "char16_t" }, { 'u', "char8_t" },
        { 'n', "decltype(nullptr)" }, { 'a', "auto" }, { 'c', "decltype(auto)" },
    };
    char c = *d->p;
    if (c >= 'a' && c <= 'z' && one[c - 'a']) {
        d->p++;
        return one[c - 'a'];
    }
    if (c != 'D')
        return NULL;
    for (size_t i = 0; i < sizeof two / sizeof *two; i++)
        if (d->p[1] == two[i].code) {
            d->p += 2;
            return two[i].name;
        }
    if (d->p[1] == 'F' && d->p[2] >= '1' && d->p[2] <= '9') {   /* DF <bits> _ : _Float16 */
        const char *bits = d->p + 2;
        d->p += 2;
        while (*d->p >= '0' && *d->p <= '9')
            d->p++;
        size_t len = (size_t)(d->p - bits);
        if (!next_is(d, '_') || len > 4)
            return fail(d), "";
        char buf[16];
        snprintf(buf, sizeof buf, "_Float%.*s", (int)len, bits);
        return join(d, buf, "");
    }
    return NULL;
}

/* Dp <type>: the pattern once for each element of the pack its T_ names, joined by commas. */
static Piece pack_expansion(Demangler *d)
{
    d->p += 2;
    const char *start = d->p;
    unsigned subs = d->nsubs;
    int saved_index = d->pack_index, saved_length = d->pack_length;
    d->pack_index = 0;
    d->pack_length = -1;
    Piece t = type(d);
    int length = d->pack_length;
    if (length < 0)                          /* no pack in the pattern */
        fail(d);
    else {
        const char *s = "";
        for (int i = 0; i < length && !d->failed; i++) {
            d->p = start;
            d->nsubs = subs;
            d->pack_index = i;
            s = join_item(d, s, i, text(d, type(d)));
        }
        t = plain(s);
    }
    d->pack_index = saved_index;
    d->pack_length = saved_length;
    return t;
}

/* <CV-qualifiers> ::= [r] [V] [K], as CV_ bits */
static unsigned qualifiers(Demangler *d)
{
    unsigned r = next_is(d, 'r') ? CV_RESTRICT : 0, v = next_is(d, 'V') ? CV_VOLATILE : 0;
    return r | v | (next_is(d, 'K') ? CV_CONST : 0);
}

/* " const volatile restrict", in c++filt's order */
static const char *cv_text(Demangler *d, unsigned cv)
{
    return join3(d, cv & CV_CONST ? " const" : "", cv & CV_VOLATILE ? " volatile" : "", cv & CV_RESTRICT ? " restrict" : "");
}

/* <type>; every type but a builtin one becomes a substitution candidate, after its parts. */
static Piece type_of(Demangler *d)
{
    const char *b = builtin(d);
    if (b)
        return plain(b);
    if (d->failed)
        return nothing;
    Piece t = nothing, in;
    bool templated;
    const char *quals;
    switch (*d->p) {
    case 'r': case 'V': case 'K': {         /* on a type qualified already (a substitution): both */
        unsigned cv = qualifiers(d);
        if (*d->p == 'r' || *d->p == 'V' || *d->p == 'K')
            return fail(d), nothing;         /* out of order, or twice */
        t = in = type(d);
        if (in.ref || in.shape == SHAPE_SEALED || in.shape == SHAPE_PACK || (in.shape == SHAPE_ARRAY && (cv & (cv - 1))))
            return fail(d), nothing;         /* (c++filt orders several on an array otherwise) */
        if (in.shape == SHAPE_FUNCTION)
            t.right = join(d, in.right, cv_text(d, cv));
        else {
            t.left = join(d, in.left, cv_text(d, cv & ~in.cv));   /* each once, as c++filt */
            t.cv = in.cv | cv;
        }
        add_sub(d, t);
        return t;
    }
    case 'P': case 'R': case 'O': {
        const char *op = *d->p == 'P' ? "*" : *d->p == 'R' ? "&" : "&&";
        d->p++;
        t = pointer_to(d, type(d), op);
        break;
    }
    case 'F': {
        d->p++;
        next_is(d, 'Y');
        Piece ret_type = type(d);            /* returning a function or an array: not read */
        if (ret_type.shape != SHAPE_PLAIN)
            return fail(d), nothing;
        const char *params = parameters(d);  /* (a ref-qualifier before E is not read) */
        if (!next_is(d, 'E'))
            return fail(d), nothing;
        t.left = join(d, ret_type.left, " ");
        t.right = params;
        t.shape = SHAPE_FUNCTION;
        break;
    }
    case 'A': {
        d->p++;                              /* A <number> _ | A <template-param> _ | A _ */
        const char *bound = d->p, *dim;
        if (*d->p == 'T')
            dim = join3(d, "[", text(d, template_param(d)), "]");
        else {
            while (*d->p >= '0' && *d->p <= '9' && d->p - bound < 20)
                d->p++;
            char buf[32];
            snprintf(buf, sizeof buf, "[%.*s]", (int)(d->p - bound), bound);
            dim = join(d, buf, "");
        }
        if (!next_is(d, '_'))
            return fail(d), nothing;
        in = type(d);
        t = in;
        if (in.shape == SHAPE_ARRAY && *in.right)
            t.right = join3(d, " ", dim, in.right + 1);
        else if (in.shape == SHAPE_PLAIN) {
            t.right = join(d, " ", dim);
            t.shape = SHAPE_ARRAY;
        } else if (in.shape == SHAPE_GROUPED) {
            t.left = join3(d, in.left, " ", dim);   /* void (* [3])(int) */
            t.shape = SHAPE_SEALED;
        } else
            return fail(d), nothing;
        break;
    }
    case 'M': {
        d->p++;
        const char *cls = text(d, type(d));
        in = type(d);
        if (in.shape == SHAPE_GROUPED)
            return fail(d), nothing;
        t = pointer_to(d, in, join(d, cls, "::*"));
        break;
    }
    case 'T':
        t = template_param(d);
        add_sub(d, t);
        if (*d->p != 'I')
            return t;
        t = plain(join(d, text(d, t), template_args(d, false)));
        break;
    case 'D':
        if (d->p[1] == 'p')
            t = pack_expansion(d);
        else if (d->p[1] == 'v') {
            long lanes;
            d->p += 2;
            if (!number(d, &lanes) || !next_is(d, '_'))
                return fail(d), nothing;
            char buf[40];
            snprintf(buf, sizeof buf, " __vector(%ld)", lanes);
            in = type(d);
            if (in.shape != SHAPE_PLAIN)
                return fail(d), nothing;
            t = plain(join(d, in.left, buf));
        } else
            return fail(d), nothing;
        break;
    case 'u':
        d->p++;
        t = plain(source_name(d));
        break;
    case 'S':
        if (d->p[1] == 't') {                /* a name in std */
            t = plain(name(d, false, &templated, &quals));
            break;
        }
        t = substitution(d);
        if (*d->p != 'I')
            return t;
        t = plain(join(d, text(d, t), template_args(d, false)));
        break;
    case 'N': case 'Z': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8':
    case '9':
        t = plain(name(d, false, &templated, &quals));
        if (*quals)                          /* a member function's qualifiers on a type */
            return fail(d), nothing;
        break;
    default:
        return fail(d), nothing;
    }
    t.cv = 0;
    add_sub(d, t);
    return t;
}

static Piece type(Demangler *d)
{
    if (++d->depth > MAX_DEPTH || d->failed)
        return fail(d), nothing;
    Piece t = type_of(d);
    d->depth--;
    return d->failed ? nothing : t;
}

/* <nested-name> ::= N [<CV-qualifiers>] [<ref-qualifier>] <prefix> <unqualified-name> E, the
 * parts joined by "::"; each prefix is a substitution candidate. *quals: a member function's
 * " const", " &", ... */
static const char *nested_name(Demangler *d, bool of_function, bool *templated, const char **quals)
{
    d->p++;                                  /* N */
    *quals = cv_text(d, qualifiers(d));
    if (next_is(d, 'R'))
        *quals = join(d, *quals, " &");
    else if (next_is(d, 'O'))
        *quals = join(d, *quals, " &&");
    const char *s = "";
    bool named = false;                      /* the last part is a name or template arguments */
    while (!next_is(d, 'E')) {
        if (!*d->p || d->failed)
            return fail(d), "";
        *templated = false;
        named = *d->p != 'S';
        if (*d->p == 'I' && *s) {
            s = join(d, s, template_args(d, of_function));
            *templated = true;
        } else if (d->p[0] == 'S' && d->p[1] == 't' && !*s) {
            d->p += 2;
            s = "std";
            continue;
        } else if (*d->p == 'S' && !*s) {
            s = text(d, substitution(d));
            continue;
        } else if (*d->p == 'T' && !*s)
            s = text(d, template_param(d));
        else {
            bool unnamed = *d->p == 'U';     /* a lambda or unnamed type: only last (c++filt */
            const char *part = unqualified_name(d);   /* numbers substitutions after one otherwise) */
            s = *s ? join3(d, s, "::", part) : part;
            if (unnamed && *d->p != 'E')
                return fail(d), "";
        }
        if (*d->p != 'E')
            add_sub(d, plain(s));
    }
    return named ? s : (fail(d), "");
}

/* <local-name> ::= Z <encoding> E <entity name> [<discriminator>] | Z <encoding> E s [...] */
static const char *local_name(Demangler *d, bool *templated, const char **quals)
{
    size_t at;
    d->p++;                                  /* Z */
    const char *outer = encoding(d, &at);    /* without a return type */
    if (d->failed)
        return "";
    outer += at;
    if (!next_is(d, 'E'))
        return fail(d), "";
    const char *s = next_is(d, 's') ? join(d, outer, "::string literal")
                                     : join3(d, outer, "::", name(d, false, templated, quals));
    if (next_is(d, '_')) {                   /* <discriminator> ::= _ <digit> | __ <number> _ */
        long n;                              /* (as c++filt, _ and any number) */
        bool two = next_is(d, '_');
        if (!number(d, &n) || n < 0 || (two && n >= 10 && !next_is(d, '_')))
            return fail(d), "";
    }
    return s;
}

/* <name>: nested (N...E), local (Z...E...), in std (St...), or unscoped, each perhaps a template
 * (*templated: it ends with template arguments). */
static const char *name(Demangler *d, bool of_function, bool *templated, const char **quals)
{
    *templated = false;
    *quals = "";
    if (*d->p == 'N')
        return nested_name(d, of_function, templated, quals);
    if (*d->p == 'Z')
        return local_name(d, templated, quals);
    const char *s;
    bool substituted = false;
    if (d->p[0] == 'S' && d->p[1] == 't') {
        d->p += 2;
        s = join(d, "std::", unqualified_name(d));
    } else if (*d->p == 'S') {
        s = text(d, substitution(d));
        substituted = true;
        if (*d->p != 'I')
            return fail(d), "";
    } else
        s = unqualified_name(d);
    if (*d->p == 'I') {
        if (!substituted)
            add_sub(d, plain(s));
        s = join(d, s, template_args(d, of_function));
        *templated = true;
    }
    return s;
}

/* <encoding> ::= <name> <bare-function-type> | <name> (an object): a function template's
 * first type is its return type, written first; *name_at is where the name starts after it. */
static const char *encoding(Demangler *d, size_t *name_at)
{
    bool templated;
    const char *quals;
    unsigned bound_first = d->bound_first, bound_count = d->bound_count;
    *name_at = 0;
    if (++d->depth > MAX_DEPTH)
        return fail(d), "";
    d->last_count = 0;
    const char *n = name(d, true, &templated, &quals);
    d->function = false;
    if (!*d->p || *d->p == 'E' || d->failed) {
        d->depth--;
        return join(d, n, quals);
    }
    d->bound_first = d->last_first;
    d->bound_count = d->last_count;
    Piece ret_type = templated ? type(d) : nothing;
    const char *ret = ret_type.shape == SHAPE_PLAIN ? ret_type.left : (fail(d), "");
    if (!*d->p || *d->p == 'E')              /* a return type, and no parameters */
        fail(d);
    const char *s = join3(d, n, parameters(d), quals);
    d->bound_first = bound_first;
    d->bound_count = bound_count;
    d->depth--;
    d->function = true;
    if (!*ret || d->failed)
        return s;
    *name_at = strlen(ret) + 1;
    return join3(d, ret, " ", s);
}

/* The demangled name of mangled (a new string), or NULL when it is not an Itanium name
 * this file reads whole. *name_at: where the name starts after a template's return type. */
char *demangle_name(const char *mangled, size_t *name_at)
{
    size_t at = 0;
    if (strncmp(mangled, "_Z", 2) != 0)
        return NULL;
    Demangler *d = xmalloc(sizeof *d);
    d->p = mangled + 2;
    d->failed = false;
    d->depth = 0;
    d->used = 0;
    d->nsubs = d->nargs = 0;
    d->bound_first = d->bound_count = d->last_first = d->last_count = 0;
    d->pack_index = d->pack_length = -1;
    d->function = false;
    const char *s = encoding(d, &at);
    char *result = NULL;
    if (!d->failed && !*d->p)
        result = memcpy(xmalloc(strlen(s) + 1), s, strlen(s) + 1);
    free(d);
    if (name_at)
        *name_at = result ? at : 0;
    return result;
}

/* The len bytes at text as a message shows them: whole when at most max bytes, else its start
 * and its end with "..." between (cut between UTF-8 characters), at most max bytes. A new string. */
char *demangle_cut(const char *text, size_t len, size_t max)
{
    size_t head = len, tail = len;
    if (len > max) {
        head = max * 3 / 5;
        tail = len - (max - 3 - head);
        while (head && (text[head] & 0xc0) == 0x80)       /* a UTF-8 character (a lanes file's key) whole */
            head--;
        while (tail < len && (text[tail] & 0xc0) == 0x80)
            tail++;
    }
    char *shown = xmalloc(head + (len > max ? 3 : 0) + (len - tail) + 1), *at = shown;
    memcpy(at, text, head);
    at += head;
    if (len > max) {
        memcpy(at, "...", 3);
        at += 3;
    }
    memcpy(at, text + tail, len - tail);
    at[len - tail] = '\0';
    return shown;
}

/* A kernel's or parameter's name as messages show it: demangled when it is a C++ name (a
 * parameter _Z..._param_1 as its kernel's C++ name and "_param_1"), then, when still longer than
 * DEMANGLE_SHOWN bytes, its start and its end with "..." between: the function's name and its
 * parameter list's end (or the "_param_N") stay. A new string. */
char *demangle_shown(const char *name)
{
    const char *suffix = strstr(name, "_param_");
    size_t at = 0;                                /* past a template's return type */
    char *base = NULL, *whole;
    if (!strncmp(name, "_Z", 2) && suffix) {      /* nvcc's parameter names: KERNEL_param_N */
        char *kernel = demangle_cut(name, (size_t)(suffix - name), (size_t)(suffix - name));
        base = demangle_name(kernel, &at);
        free(kernel);
    }
    if (base) {
        size_t len = strlen(base + at) + strlen(suffix) + 1;
        whole = xmalloc(len);
        snprintf(whole, len, "%s%s", base + at, suffix);
    } else if ((base = demangle_name(name, &at)))
        whole = demangle_cut(base + at, strlen(base + at), SIZE_MAX);
    else
        whole = demangle_cut(name, strlen(name), SIZE_MAX);
    free(base);
    char *shown = demangle_cut(whole, strlen(whole), DEMANGLE_SHOWN);
    free(whole);
    return shown;
}
