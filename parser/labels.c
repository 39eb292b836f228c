/* labels.c: a function's labels by the { } block that declares them, as ptxas scopes them (a
 * label is visible in its block, before and after it, and in the blocks inside, where one of the
 * same name hides it; two sibling blocks may each declare one: CUTLASS's inline-asm wait loop
 * `{ LAB_WAIT: ... bra LAB_WAIT; DONE: }` comes once per use), and the .branchtargets lists
 * resolved to instructions. Called by check.c, which binds the names; calls nothing back. */
#include "checker.h"

uint32_t labels_next(const Function *f, uint32_t *item)
{
    for (uint32_t nested = 0; *item < f->items.len;) {
        const Item *it = &f->items.data[(*item)++];
        if (it->kind == ITEM_OPEN)
            nested++;
        else if (it->kind == ITEM_CLOSE && nested-- == 0)
            break;
        else if (it->kind == ITEM_LABEL && !nested)
            return it->index;
    }
    *item = f->items.len;   /* the block has ended: nothing more */
    return UINT32_MAX;
}

void labels_resolve_table(Diag *diag, Arena *arena, const Function *f, BranchTable *t)
{
    t->targets = arena_alloc(arena, (t->count ? t->count : 1) * sizeof *t->targets);
    for (uint32_t k = 0; k < t->count; k++) {
        const Operand *o = &t->labels[k];
        uint32_t at = 0;      /* the first label of the name (of the body, or of a block) */
        while (at < f->labels.len && f->labels.data[at].name != o->u.ref.name)
            at++;
        if (at == f->labels.len)
            diag_at(diag, DIAG_ERROR, o->at, "'%s' in a .branchtargets list is not a label of '%s'", o->u.ref.name,
                    f->name);
        else
            t->targets[k] = f->labels.data[at].target;
    }
}
