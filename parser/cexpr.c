/* cexpr.c: constant expressions in operands (PTX ISA, "Constant Expressions"), evaluated as
 * the parser reads them. Integers are 64-bit, wrapping on overflow. A literal is signed unless
 * it has a U suffix or does not fit a signed one; an operation is unsigned when an operand is,
 * and ~ and % always are (the ISA's table of evaluation rules; ptxas folds them so). ?: gives
 * the chosen operand as it is (what ptxas folds, where the ISA would convert it to the two
 * operands' common type). A floating-point operand makes the operation one in double
 * precision, where only + - * /, comparisons, && || ! and ?: apply. Comparisons and logical
 * operators give the signed integer 0 or 1. What the ISA leaves open (a division by zero, a
 * shift by 64 or more or by a negative amount) is an error. */
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

static Literal binary_real(Parser *p, int op, double x, double y, Span at)
{
    switch (op) {
    case '*': return real(x * y);
    case '/': return real(x / y);
    case '+': return real(x + y);
    case '-': return real(x - y);
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
