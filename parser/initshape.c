/* initshape.c: an initializer against its declaration, as ptxas 13.0 holds it: a .global or
 * .const variable's only ("No initial value is allowed ... in this state space"); an
 * array takes a list in braces at each dimension, of at most that many values ("Greater number of
 * elements in array initializer"), a .vN element exactly N numbers in braces ("Incorrect number of
 * elements in vector initializer"), a scalar one number; a list where a number stands, or a number
 * where a list does, is ptxas's "Initial value type mismatch". Fewer values than a dimension leave
 * zeros, but ptxas places the values of a short inner list one after another ({{1}, {3, 4}} in a
 * [2][2] is 1, 3, 4, 0, not C's 1, 0, 3, 4), so ptxrun does and warns, as the ISA does not say so.
 * Requires: the declaration's dimensions and vector width (parse.c), its initializer whole. */
#include "parse.h"

typedef struct Shape {
    Parser *p;
    const Decl *d;
    const Init *short_list;    /* an inner list with fewer values than its dimension, values after it */
    bool warned;
} Shape;

/* One value: a number (or address) was seen after a short inner list: ptxas's packing differs from C's. */
static void placed(Shape *s)
{
    if (s->short_list && !s->warned) {
        diag_at(s->p->diag, DIAG_WARNING, s->short_list->at, "the values after this short list follow it directly, "
                "as ptxas 13.0 places them ({{1}, {3, 4}} in a [2][2] array is 1, 3, 4, 0), not from the next row "
                "as in C; the PTX ISA does not say");
        s->warned = true;
    }
}

static bool number(Shape *s, const Init *v, const char *what)
{
    if (v->kind == INIT_LIST) {
        diag_at(s->p->diag, DIAG_ERROR, v->at, "a list in braces where %s stands (ptxas refuses it: initial value "
                "type mismatch)", what);
        return false;
    }
    placed(s);
    return true;
}

/* An element of the declaration's type: a number, or a .vN's N numbers in braces. */
static bool element(Shape *s, const Init *v)
{
    unsigned n = s->d->vector;
    if (!n)
        return number(s, v, "a number");
    if (v->kind != INIT_LIST) {
        diag_at(s->p->diag, DIAG_ERROR, v->at, "a .v%u value is %u numbers in braces, not one (ptxas refuses it: "
                "initial value type mismatch)", n, n);
        return false;
    }
    if (v->count != n) {
        diag_at(s->p->diag, DIAG_ERROR, v->at, "a .v%u value is %u numbers in braces, not %u (ptxas refuses it)",
                n, n, v->count);
        return false;
    }
    for (uint32_t i = 0; i < v->count; i++)
        if (!number(s, &v->elems[i], "a vector's element"))
            return false;
    return true;
}

/* The value of dimension level and those below it. */
static bool level(Shape *s, const Init *v, unsigned k)
{
    if (k == s->d->dim_count)
        return element(s, v);
    if (v->kind != INIT_LIST) {
        diag_at(s->p->diag, DIAG_ERROR, v->at, "an array's value is a list in braces, not one number (ptxas refuses "
                "it: initial value type mismatch)");
        return false;
    }
    int64_t size = s->d->dims[k];
    if (size < 0 && !v->count) {
        diag_at(s->p->diag, DIAG_ERROR, v->at, "an array of unknown size ([]) needs one value or more (ptxas refuses "
                "it: initial value type mismatch)");
        return false;
    }
    if (size >= 0 && v->count > (uint64_t)size) {
        diag_at(s->p->diag, DIAG_ERROR, v->at, "%u values in braces for a dimension of %lld (ptxas refuses more)",
                v->count, (long long)size);
        return false;
    }
    for (uint32_t i = 0; i < v->count; i++)
        if (!level(s, &v->elems[i], k + 1))
            return false;
    if (k > 0 && size >= 0 && v->count < (uint64_t)size && !s->short_list)
        s->short_list = v;
    return true;
}

bool initshape_check(Parser *p, const Decl *d, const Init *v)
{
    if (d->type == TYPE_NONE || d->space == SPACE_TEX || d->space == SPACE_SURF || d->space == SPACE_SAMPLER)
        return true;                            /* .texref and others: opaque.c */
    if (d->space != SPACE_GLOBAL && d->space != SPACE_CONST) {
        diag_at(p->diag, DIAG_ERROR, v->at, "only .global and .const variables take an initial value (PTX ISA; "
                "ptxas refuses one in .shared, .local, .reg and .param)");
        return false;
    }
    for (uint32_t i = 0; v->kind == INIT_LIST && i < v->count; i++)
        if (v->elems[i].kind == INIT_FIELD)
            return true;                        /* 'field = value' where it does not belong: opaque.c */
    Shape s = { p, d, NULL, false };
    return level(&s, v, 0);
}
