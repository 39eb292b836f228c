/* quick.c: the streaming parser's short way through the plainest items, which make most of
 * nvcc's output: in a body, a label, or an instruction (guarded or not) whose operands are names,
 * numbers (a minus sign allowed), pairs name|name, vectors of names and the addresses [name],
 * [name+integer] and [name+-integer]; in a body or at the top level, a declaration of one name,
 * with a range or dimensions, or a number or a list of numbers as its initializer. The tokens
 * of such an item are read here and the grammar's own actions called on them, in its order and
 * with its spans, so that the module built is the one the grammar would build; the parser is
 * then handed one token, T_ITEM, for the whole item (the rules "body: body T_ITEM" and
 * "top_item: T_ITEM"), in place of a dozen or more shifts and reductions. Tokens read for an
 * item that turns out to be anything else are handed to the grammar one by one, as they were
 * read (queued in the Parser), so nothing is read twice.
 * Requires: the lexer, parse.c's actions; parser.y's yylex calls quick_item only where an item
 * may begin (see there). */
#include <string.h>

#include "parse.h"
#include "parser.h"

_Static_assert(sizeof(YYSTYPE) <= sizeof(((QuickToken *)0)->value), "a token's value fits a QuickToken");

/* Reads the next token into the queue; false when it is full. */
static bool read_token(Parser *p)
{
    if (p->quick_len == QUICK_MAX_TOKENS)
        return false;
    QuickToken *t = &p->quick[p->quick_len++];
    YYSTYPE value;
    t->token = lex_next(&p->lx, &value, &t->at);
    memcpy(t->value, &value, sizeof value);
    return true;
}

/* The k-th token read for this item, reading up to it; -1 when the queue is full. */
static int read_through(Parser *p, uint32_t k)
{
    while (p->quick_len <= k)
        if (!read_token(p))
            return -1;
    return p->quick[k].token;
}

static inline int token_at(Parser *p, uint32_t k)
{
    return k < p->quick_len ? p->quick[k].token : read_through(p, k);
}

static Literal literal_of(const QuickToken *t)
{
    YYSTYPE value;
    memcpy(&value, t->value, sizeof value);
    return value.T_INTEGER;                     /* (T_FLOAT's value is a Literal too) */
}

static bool is_number(int token)
{
    return token == T_INTEGER || token == T_FLOAT;
}

/* The operand whose first token is the k-th: its token count, or 0 when it is none of the
 * plain forms (then the grammar reads it): name, name|name, number, -number, [name],
 * [name+integer], [name+-integer], {name, ...}. */
static uint32_t operand_length(Parser *p, uint32_t k)
{
    int t = token_at(p, k);
    if (t == T_WORD)
        return token_at(p, k + 1) != '|' ? 1 : token_at(p, k + 2) == T_WORD ? 3 : 0;
    if (is_number(t))
        return 1;
    if (t == '-')
        return is_number(token_at(p, k + 1)) ? 2 : 0;
    if (t == '{') {
        uint32_t n = 1;
        while (token_at(p, k + n) == T_WORD) {
            int after = token_at(p, k + n + 1);
            if (after == '}')
                return n + 2;
            if (after != ',')
                return 0;
            n += 2;
        }
        return 0;
    }
    if (t != '[' || token_at(p, k + 1) != T_WORD)
        return 0;
    int after = token_at(p, k + 2);
    if (after == ']')
        return 3;                               /* [name] */
    if (after != '+')
        return 0;
    uint32_t minus = token_at(p, k + 3) == '-';
    return token_at(p, k + 3 + minus) == T_INTEGER && token_at(p, k + 4 + minus) == ']' ? 5 + minus : 0;
}

/* A number's value as cexpr makes it, from its first token t: a literal or -literal of n tokens. */
static Literal number_of(Parser *p, const QuickToken *t, uint32_t n)
{
    Literal value = parse_const_literal(literal_of(&t[n - 1]));
    return n == 1 ? value : parse_const_unary(p, '-', value, SPAN(t[0].at, t[1].at));
}

/* The grammar's actions for the operand of n tokens from the k-th (operand_list, operand,
 * number, cexpr, vec_list, address and addr_rest in parser.y). */
static void take_operand(Parser *p, uint32_t k, uint32_t n)
{
    const QuickToken *t = &p->quick[k];
    Span at = SPAN(t[0].at, t[n - 1].at);
    switch (t->token) {
    case T_WORD:
        parse_operand_name(p, t->at);
        if (n == 3) {                          /* name|name */
            parse_operand_name(p, t[2].at);
            parse_operand_group(p, OPND_PAIR, 2, 0, at);
        }
        break;
    case '{':
        for (uint32_t i = 1; i < n; i += 2)
            parse_operand_name(p, t[i].at);
        parse_operand_group(p, OPND_VEC, n / 2, 0, at);
        break;
    case '[':
        parse_operand_name(p, t[1].at);
        p->addr_offset = n == 3 ? 0 : parse_const_offset(p, number_of(p, &t[3], n - 4), SPAN(t[3].at, t[n - 2].at));
        parse_operand_group(p, OPND_ADDR, 1, p->addr_offset, at);
        break;
    default:                                   /* a number */
        parse_operand_constant(p, number_of(p, t, n), at);
    }
}

/* Tokens 0..end-1 of the queue make a plain item, the operands length[i] tokens long from the
 * token after the mnemonic (with a ',' or the ';' after each): its actions, and T_ITEM for it. */
static int take_item(Parser *p, uint32_t end, const uint8_t *length, Span *at)
{
    const QuickToken *t = p->quick;
    *at = SPAN(t[0].at, t[end - 1].at);
    if (t[1].token == ':') {
        parse_label(p, t[0].at);
    } else {
        uint32_t guard = t[0].token != '@' ? 0 : t[1].token == '!' ? 2 : 1;
        uint32_t k = guard ? guard + 1 : 0;    /* the mnemonic */
        Span mnemonic = t[k].at, guard_at = guard ? t[k - 1].at : mnemonic;
        uint32_t count = 0;
        for (k++; k < end - 1; k += length[count++] + 1)
            take_operand(p, k, length[count]);
        parse_instr(p, mnemonic, (int)guard, guard_at, count, *at);
    }
    p->quick_len = p->quick_next = 0;
    return T_ITEM;
}

/* A T_SPACE's or T_LINKAGE's value (an int each). */
static int int_of(const QuickToken *t)
{
    YYSTYPE value;
    memcpy(&value, t->value, sizeof value);
    return value.T_SPACE;
}

/* Where a plain declaration's parts are among the tokens read (their indexes). */
typedef struct DeclShape {
    uint32_t space, name;      /* its (first) state space; its name */
    uint32_t range;            /* the '<' of name<integer>, or 0 */
    uint32_t dims[MAX_DIMS + 1], dim_count;   /* each '[' (more than MAX_DIMS: the grammar's) */
    uint32_t init;             /* the '=', or 0 */
    bool list;                 /* the initializer is {...} */
    uint32_t number[QUICK_MAX_TOKENS / 2], number_count;   /* each number's first token */
    uint32_t end;              /* one past the ';' */
} DeclShape;

/* The initializer's number from the k-th token ('-' or the number): init_value's cexpr in parser.y. */
static void take_init_number(Parser *p, const QuickToken *t, uint32_t k)
{
    uint32_t last = k + (t[k].token == '-');
    Span at = SPAN(t[k].at, t[last].at);
    Literal value = parse_const_literal(literal_of(&t[last]));
    if (last > k)
        value = parse_const_unary(p, '-', value, at);
    parse_init_number(p, value, at);
}

/* The declaration's actions (decl_head, decl_name, dims, init_value and var_decl in parser.y),
 * and T_ITEM for it. */
static int take_decl(Parser *p, const DeclShape *d, Span *at)
{
    const QuickToken *t = p->quick;
    *at = SPAN(t[0].at, t[d->end - 1].at);
    int linkage = 0;
    for (uint32_t k = 0; k < d->space; k++)
        linkage |= int_of(&t[k]);
    parse_decl_begin(p, int_of(&t[d->space]), linkage);
    for (uint32_t k = d->space + 1; k < d->name; k++) {
        if (t[k].token == T_DIRECTIVE)
            parse_decl_attr(p, t[k].at);
        else if (t[k].token == T_SPACE)
            parse_decl_space(p, int_of(&t[k]), t[k].at);
        else if (t[k].token == T_ALIGN) {      /* and its integer */
            k++;
            parse_decl_align(p, literal_of(&t[k]), t[k].at);
        }
    }
    if (d->range) {
        parse_decl_name(p, t[d->name].at, SPAN(t[d->name].at, t[d->range + 2].at), false);
        parse_decl_range(p, literal_of(&t[d->range + 1]), t[d->range + 1].at);
    } else {
        parse_decl_name(p, t[d->name].at, t[d->name].at, false);
        Span dims = { t[d->name].at.offset + t[d->name].at.length, 0 };   /* (empty dims are there) */
        for (uint32_t i = 0; i < d->dim_count; i++) {
            uint32_t k = d->dims[i];
            bool sized = t[k + 1].token == T_INTEGER;
            dims = SPAN(dims, t[k + 1 + sized].at);
            parse_decl_dim(p, sized, sized ? literal_of(&t[k + 1]) : (Literal){ 0 }, sized ? t[k + 1].at : dims);
        }
    }
    if (d->init) {
        for (uint32_t i = 0; i < d->number_count; i++)
            take_init_number(p, t, d->number[i]);
        Span value = SPAN(t[d->init + 1].at, t[d->end - 2].at);
        if (d->list)
            parse_init_value(p, INIT_LIST, (Literal){ .bits = d->number_count }, value, value);
        parse_decl_init(p, 1, value);
    }
    p->quick_len = p->quick_next = 0;
    return T_ITEM;
}

/* An initializer's number from the k-th token into d: its token count, or 0 when none is there. */
static uint32_t init_number(Parser *p, DeclShape *d, uint32_t k)
{
    uint32_t minus = token_at(p, k) == '-';
    if (!is_number(token_at(p, k + minus)))
        return 0;
    d->number[d->number_count++] = k;          /* (2 tokens or more each: room enough) */
    return 1 + minus;
}

/* [linkage...] space [attribute | .align integer | space]... name [<integer> | [integer]... | []...]
 * [= number | = {number, ...}] ; */
static int quick_decl(Parser *p, void *value, Span *at)
{
    DeclShape d = { 0 };
    uint32_t k = 0, n;
    while (token_at(p, k) == T_LINKAGE)
        k++;
    if (token_at(p, k) != T_SPACE)
        return quick_next(p, value, at);
    d.space = k++;
    for (;;) {
        int t = token_at(p, k);
        if (t == T_DIRECTIVE && token_at(p, k + 1) != '(')
            k++;
        else if (t == T_ALIGN && token_at(p, k + 1) == T_INTEGER)
            k += 2;
        else if (t == T_SPACE)
            k++;
        else
            break;
    }
    if (token_at(p, k) != T_WORD)
        return quick_next(p, value, at);
    d.name = k++;
    if (token_at(p, k) == '<') {
        if (token_at(p, k + 1) != T_INTEGER || token_at(p, k + 2) != '>')
            return quick_next(p, value, at);
        d.range = k;
        k += 3;
    }
    while (!d.range && token_at(p, k) == '[' && d.dim_count <= MAX_DIMS) {
        d.dims[d.dim_count++] = k;
        if (token_at(p, k + 1) == ']')
            k += 2;
        else if (token_at(p, k + 1) == T_INTEGER && token_at(p, k + 2) == ']')
            k += 3;
        else
            return quick_next(p, value, at);
    }
    if (!d.range && token_at(p, k) == '=') {
        d.init = k++;
        d.list = token_at(p, k) == '{';
        if (!d.list) {
            if (!(n = init_number(p, &d, k)))
                return quick_next(p, value, at);
            k += n;
        } else {
            do {
                k++;
                k += n = init_number(p, &d, k);
            } while (n && token_at(p, k) == ',');
            if (!n || token_at(p, k++) != '}')
                return quick_next(p, value, at);
        }
    }
    if (token_at(p, k) != ';')
        return quick_next(p, value, at);
    d.end = k + 1;
    return take_decl(p, &d, at);
}

int quick_item(Parser *p, void *value, Span *at)
{
    p->quick_len = p->quick_next = 0;
    uint8_t length[QUICK_MAX_TOKENS / 2];      /* of each operand */
    int first = token_at(p, 0);
    uint32_t k = 0, n, count = 0;             /* (a snippet's bare statements are the grammar's) */
    if (first == T_WORD && p->fn) {
        int second = token_at(p, 1);
        if (second == ':' || second == ';')
            return take_item(p, 2, NULL, at);
        k = 1;
    } else if (first == '@' && p->fn) {
        k = token_at(p, 1) == '!' ? 2 : 1;
        if (token_at(p, k) != T_WORD || token_at(p, k + 1) != T_WORD)
            return quick_next(p, value, at);
        if (token_at(p, k + 2) == ';')
            return take_item(p, k + 3, NULL, at);
        k += 2;
    } else if (first == T_SPACE || first == T_LINKAGE) {
        return quick_decl(p, value, at);
    } else {
        return quick_next(p, value, at);
    }
    while ((n = operand_length(p, k)) > 0) {   /* k: the first token of an operand */
        length[count++] = (uint8_t)n;          /* (at least 2 tokens each: room enough) */
        int after = token_at(p, k + n);
        if (after == ';')
            return take_item(p, k + n + 1, length, at);
        if (after != ',')
            break;
        k += n + 1;
    }
    return quick_next(p, value, at);
}

int quick_next(Parser *p, void *value, Span *at)
{
    const QuickToken *t = &p->quick[p->quick_next++];
    memcpy(value, t->value, sizeof(YYSTYPE));
    *at = t->at;
    if (p->quick_next == p->quick_len)
        p->quick_len = p->quick_next = 0;
    return t->token;
}
