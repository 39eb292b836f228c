/* cexpr.c: constant expressions in operands (PTX ISA, "Constant Expressions"), evaluated as
 * the parser reads them. Integers are 64-bit, wrapping on overflow. A literal is signed unless
 * it has a U suffix or does not fit a signed one; an operation is unsigned when an operand is,
 * and ~ and % always are (the ISA's table of evaluation rules; ptxas folds them so). ?: gives
 * the chosen operand as it is (what ptxas folds, where the ISA would convert it to the two
 * operands' common type). A floating-point operand makes the operation one in double
 * precision, where only + - * /, comparisons, && || ! and ?: apply. Comparisons and logical
 * operators give the signed integer 0 or 1. What the ISA leaves open (a division by zero, a
 * shift by 64 or more or by a negative amount) is an error. Initializers take the same expressions
 * (parser.y's init_value), held to the variable's type by parse_const_init. */
#include <string.h>

#include "parse.h"

static Literal integer(uint64_t bits, bool is_unsigned)
{
    return (Literal){ bits, OPND_INT, is_unsigned, false };
}

static Literal real(double d)
{
    Literal r = { 0, OPND_F64, false, false };
    memcpy(&r.bits, &d, sizeof d);
    return r;
}

/* A literal's value as a double: 0f literals are single precision. */
static double as_double(Literal a)
{
    if (a.kind == OPND_F32) {
        uint32_t b = (uint32_t)a.bits;
        float f;
        memcpy(&f, &b, sizeof f);
        return f;
    }
    if (a.kind == OPND_F64) {
        double d;
        memcpy(&d, &a.bits, sizeof d);
        return d;
    }
    return a.unsigned_suffix ? (double)a.bits : (double)(int64_t)a.bits;
}

static bool is_true(Literal a)
{
    return a.kind == OPND_INT ? a.bits != 0 : as_double(a) != 0;
}

static const char *op_text(int op)
{
    switch (op) {
    case '%': return "%";
    case '&': return "&";
    case '^': return "^";
    case '|': return "|";
    case CONST_SHL: return "<<";
    default: return ">>";
    }
}

/* An integer literal: unsigned when no signed 64-bit integer holds it. */
Literal parse_const_literal(Literal a)
{
    a.grouped = false;
    if (a.kind != OPND_INT)
        a.unsigned_suffix = false;
    else if (a.bits > INT64_MAX)
        a.unsigned_suffix = true;
    return a;
}

Literal parse_const_unary(Parser *p, int op, Literal a, Span at)
{
    a.grouped = false;
    if (op == '+')
        return a;
    if (op == '!')
        return integer(!is_true(a), false);
    if (a.kind != OPND_INT) {
        if (op == '~') {
            diag_at(p->diag, DIAG_ERROR, at, "'~' needs an integer operand");
            return integer(0, false);
        }
        a.bits ^= a.kind == OPND_F32 ? 0x80000000u : 0x8000000000000000u;   /* '-' */
        return a;
    }
    return op == '-' ? integer(0 - a.bits, a.unsigned_suffix) : integer(~a.bits, true);
}

static Literal compare(int op, int order)
{
    bool r = op == '<' ? order < 0 : op == '>' ? order > 0 : op == CONST_LE ? order <= 0 :
             op == CONST_GE ? order >= 0 : op == CONST_EQ ? order == 0 : order != 0;
    return integer(r, false);
}

/* A NaN made from numbers (0.0/0.0, inf - inf) has the sign of the host's default NaN, which
 * differs (x86: negative, as ptxas gives it; Arm: positive): it is x86's, on every host. */
static Literal made(double r, double x, double y)
{
    if (r != r && x == x && y == y)
        return (Literal){ 0xFFF8000000000000u, OPND_F64, false, false };
    return real(r);
}

static Literal binary_real(Parser *p, int op, double x, double y, Span at)
{
    switch (op) {
    case '*': return made(x * y, x, y);
    case '/': return made(x / y, x, y);
    case '+': return made(x + y, x, y);
    case '-': return made(x - y, x, y);
    case '<': case '>': case CONST_LE: case CONST_GE: case CONST_EQ: case CONST_NE:
        if (x != x || y != y)                 /* NaN: unordered, only != holds */
            return integer(op == CONST_NE, false);
        return compare(op, x < y ? -1 : x > y);
    default:
        diag_at(p->diag, DIAG_ERROR, at, "'%s' needs integer operands, not floating-point ones", op_text(op));
        return integer(0, false);
    }
}

Literal parse_const_binary(Parser *p, int op, Literal a, Literal b, Span at)
{
    if (op == CONST_ANDAND)
        return integer(is_true(a) && is_true(b), false);
    if (op == CONST_OROR)
        return integer(is_true(a) || is_true(b), false);
    if (a.kind != OPND_INT || b.kind != OPND_INT)
        return binary_real(p, op, as_double(a), as_double(b), at);
    bool u = a.unsigned_suffix || b.unsigned_suffix || op == '%';
    uint64_t x = a.bits, y = b.bits;
    int64_t sx = (int64_t)x, sy = (int64_t)y;
    switch (op) {
    case '*': return integer(x * y, u);
    case '+': return integer(x + y, u);
    case '-': return integer(x - y, u);
    case '&': return integer(x & y, u);
    case '^': return integer(x ^ y, u);
    case '|': return integer(x | y, u);
    case '/': case '%':
        if (y == 0) {
            diag_at(p->diag, DIAG_ERROR, at, "division by zero in a constant expression");
            return integer(0, u);
        }
        if (u)
            return integer(op == '/' ? x / y : x % y, true);
        if (sx == INT64_MIN && sy == -1)       /* wraps: the quotient 2^63 is -2^63, no remainder */
            return integer(op == '/' ? x : 0, false);
        return integer((uint64_t)(op == '/' ? sx / sy : sx % sy), false);
    case CONST_SHL: case CONST_SHR:
        if (y >= 64) {                         /* negative amounts too, as unsigned */
            diag_at(p->diag, DIAG_ERROR, at, "ptxrun cannot evaluate a shift by %s%llu yet (0 to 63 only)",
                    !b.unsigned_suffix && sy < 0 ? "-" : "",
                    (unsigned long long)(!b.unsigned_suffix && sy < 0 ? 0 - y : y));
            return integer(0, a.unsigned_suffix);
        }
        if (op == CONST_SHL)
            return integer(x << y, a.unsigned_suffix);
        return integer(a.unsigned_suffix ? x >> y : (uint64_t)(sx >> y), a.unsigned_suffix);   /* arithmetic */
    default:                                   /* comparisons */
        if (u)
            return compare(op, x < y ? -1 : x > y);
        return compare(op, sx < sy ? -1 : sx > sy);
    }
}

Literal parse_const_select(Parser *p, Literal cond, Literal a, Literal b)
{
    (void)p;
    Literal r = is_true(cond) ? a : b;
    r.grouped = false;
    if (r.kind == OPND_INT && (a.kind != OPND_INT || b.kind != OPND_INT))
        return real(as_double(r));             /* an integer and a real: the real's type (the ISA's table) */
    return r;
}

/* An address's offset, [r+expr]: an integer. */
int64_t parse_const_offset(Parser *p, Literal value, Span at)
{
    if (value.kind != OPND_INT) {
        diag_at(p->diag, DIAG_ERROR, at, "an address offset is an integer, not a floating-point number");
        return 0;
    }
    return (int64_t)value.bits;
}

/* An initializer's numbers against the variable's type, as ptxas 13.0 takes them: an integer
 * variable takes integers (a comparison of reals is one), a .f32 or .f64 variable reals, a .bN
 * either; ptxas gives a .f16 or .f16x2 variable none, and an address only a .u32 or .u64. A 0f literal in an 8-byte variable is its
 * 32-bit pattern in the low half (ptxas's cubin: .f64 0f3F800000 is 0x000000003F800000), which
 * the ISA does not say: a warning. An 0f literal under an operator ptxas refuses (a binary one) or
 * misreads (its unary minus negates the 64-bit pattern: -(0f3F800000) is -0.0 in a .f32): refused. */
bool parse_const_init(Parser *p, const Decl *d, const Init *v)
{
    if (v->kind == INIT_LIST) {
        for (uint32_t i = 0; i < v->count; i++)
            if (!parse_const_init(p, d, &v->elems[i]))
                return false;
        return true;
    }
    if (d->type == TYPE_NONE || d->space == SPACE_TEX || d->space == SPACE_SURF || d->space == SPACE_SAMPLER)
        return true;
    const TypeInfo *t = &type_info[d->type];
    if ((v->kind == INIT_SYM || v->kind == INIT_GENERIC) && d->type != TYPE_U32 && d->type != TYPE_U64) {
        diag_at(p->diag, DIAG_ERROR, v->at, "an address initializes a .u32 or .u64 variable, not a .%s one (ptxas "
                "refuses it)", t->name);
        return false;
    }
    if (v->kind != INIT_INT && v->kind != INIT_F32 && v->kind != INIT_F64)
        return true;
    bool real = v->kind != INIT_INT;
    if (v->kind == INIT_F32 && t->bits == 64 && (t->cls == 'f' || t->cls == 'b') && v->at.length == 10)
        diag_at(p->diag, DIAG_WARNING, v->at, "the 0f literal in this .%s variable is its 32-bit pattern in the low "
                "half, the high half 0, as ptxas stores it (not the number converted; write a 0d literal for that)",
                t->name);
    if (t->cls == 'f' && d->type != TYPE_F32 && d->type != TYPE_F64)
        diag_at(p->diag, DIAG_ERROR, v->at, "a .%s variable takes no initial value (ptxas refuses one)", t->name);
    else if (t->cls == 'f' && !real)
        diag_at(p->diag, DIAG_ERROR, v->at, "a .%s variable's initial value is floating-point, not an integer "
                "(write 1.0 for 1; ptxas refuses it)", t->name);
    else if ((t->cls == 'u' || t->cls == 's') && real)
        diag_at(p->diag, DIAG_ERROR, v->at, "a .%s variable's initial value is an integer, not a floating-point "
                "number (ptxas refuses it)", t->name);
    else if (v->kind == INIT_F32 && v->at.length != 10)      /* not the literal alone (0f and 8 digits) */
        diag_at(p->diag, DIAG_ERROR, v->at, "ptxrun cannot take an expression of a 0f literal in an initializer yet: "
                "ptxas's value is not the ISA's (-(0f3F800000) is -0.0 in a .f32 variable); write the 0f literal of "
                "the value");
    else
        return true;
    return false;    /* one message a declaration */
}
