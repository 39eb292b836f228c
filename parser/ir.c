/* ir.c: prints the decoded module back as PTX (what --dump-ir shows) and compares two
 * modules. The printer's output parses back to the same IR: numbers are printed exactly
 * (floats as 0f/0d bit patterns), mnemonics in canonical suffix order, one statement a line.
 * Requires: a checked module (operands resolved); unresolved names are printed as written. */
#include <inttypes.h>
#include <string.h>

#include "ir.h"

static const char *const space_name[] = {
    [SPACE_NONE] = "", [SPACE_REG] = ".reg", [SPACE_SREG] = ".sreg", [SPACE_CONST] = ".const",
    [SPACE_GLOBAL] = ".global", [SPACE_LOCAL] = ".local", [SPACE_PARAM] = ".param",
    [SPACE_SHARED] = ".shared", [SPACE_TEX] = ".tex", [SPACE_SURF] = ".surfref",
    [SPACE_SAMPLER] = ".samplerref",
};

/* Small numbers in decimal, masks and addresses (above 0xffff) in hex. */
static void print_int(FILE *out, uint64_t bits, bool negative)
{
    if (negative)
        fprintf(out, "-%" PRIu64, 0 - bits);
    else if (bits > 0xffff)
        fprintf(out, "0x%" PRIx64, bits);
    else
        fprintf(out, "%" PRIu64, bits);
}

static void print_operand(FILE *out, const Function *f, const Operand *o)
{
    switch (o->kind) {
    case OPND_REG:
        fprintf(out, "%s%s", (o->flags & OPNDF_NEGATIVE) ? "-" : "", f->regs.data[o->u.slot].name);
        if (o->select) {
            fputs((o->select & SEL_HALF) ? ".h" : ".b", out);
            for (unsigned i = sel_count(o->select); i-- > 0;)
                fputc('0' + (int)sel_digit(o->select, i), out);
        }
        break;
    case OPND_PRED:
        fprintf(out, "%s%s", (o->flags & OPNDF_NOT) ? "!" : "", f->preds.data[o->u.slot].name);
        break;
    case OPND_SREG:
        fputs(sreg_info[o->u.sreg].name, out);
        if (o->component)
            fprintf(out, ".%c", 'x' + o->component - 1);
        break;
    case OPND_INT:
        if (o->flags & OPNDF_GROUPED)
            fputc('(', out);
        print_int(out, o->u.bits, o->flags & OPNDF_NEGATIVE);
        if (o->flags & OPNDF_UNSIGNED)
            fputc('U', out);
        if (o->flags & OPNDF_GROUPED)
            fputc(')', out);
        break;
    case OPND_F32:
        fprintf(out, "0f%08" PRIX32, (uint32_t)o->u.bits);
        break;
    case OPND_F64:
        fprintf(out, "0d%016" PRIX64, o->u.bits);
        break;
    case OPND_NAME:
    case OPND_SYM:
    case OPND_LABEL:
        fprintf(out, "%s%s", (o->flags & OPNDF_NOT) ? "!" : (o->flags & OPNDF_NEGATIVE) ? "-" : "", o->u.ref.name);
        if (o->flags & OPNDF_INDEXED)
            fprintf(out, "[%" PRId64 "]", o->u.ref.offset);
        else if (o->u.ref.offset)
            fprintf(out, "+%" PRId64, o->u.ref.offset);
        break;
    case OPND_SINK:
        fputc('_', out);
        break;
    case OPND_ADDR:
        fputc('[', out);
        for (unsigned i = 0; i < o->count; i++) {
            if (i)
                fputs(", ", out);
            print_operand(out, f, &o->u.group.elems[i]);
        }
        if (o->count == 0)
            fprintf(out, "%" PRId64, o->u.group.offset);
        else if (o->u.group.offset)
            fprintf(out, "+%" PRId64, o->u.group.offset);
        fputs((o->flags & OPNDF_UNIFIED) ? "].unified" : "]", out);
        break;
    case OPND_VEC:
    case OPND_LIST:
        if (o->flags & OPNDF_VECTOR_REG) {    /* v, whose elements are v.x, v.y, ... */
            const char *first = f->regs.data[o->u.group.elems[0].u.slot].name;
            fprintf(out, "%.*s", (int)(strlen(first) - 2), first);
            break;
        }
        fputc(o->kind == OPND_VEC ? '{' : '(', out);
        for (unsigned i = 0; i < o->count; i++) {
            if (i)
                fputs(", ", out);
            print_operand(out, f, &o->u.group.elems[i]);
        }
        fputc(o->kind == OPND_VEC ? '}' : ')', out);
        break;
    case OPND_REG_OFFSET:
        print_operand(out, f, &o->u.group.elems[0]);
        fprintf(out, "+%" PRId64, o->u.group.offset);
        break;
    case OPND_PAIR:
        print_operand(out, f, &o->u.group.elems[0]);
        fputc('|', out);
        print_operand(out, f, &o->u.group.elems[1]);
        break;
    default:
        BUG("operand kind %d", o->kind);
    }
}

void ir_print_instr(FILE *out, const Module *m, const Function *f, const Instr *in)
{
    (void)m;
    if (in->guard_kind) {
        const char *guard = in->guard_name;
        fprintf(out, "@%s%s ", in->guard_kind == 2 ? "!" : "", guard);
    }
    fputs(in->mnemonic, out);
    for (unsigned i = 0; i < in->operand_count; i++) {
        fputs(i ? ", " : " ", out);
        print_operand(out, f, &in->operands[i]);
    }
    fputc(';', out);
}

static void print_init(FILE *out, const Init *v)
{
    switch (v->kind) {
    case INIT_INT:
        print_int(out, v->bits, v->negative);
        break;
    case INIT_F32:
        fprintf(out, "0f%08" PRIX32, (uint32_t)v->bits);
        break;
    case INIT_F64:
        fprintf(out, "0d%016" PRIX64, v->bits);
        break;
    case INIT_SYM:
    case INIT_GENERIC:
        fprintf(out, v->kind == INIT_GENERIC ? "generic(%s)" : "%s", v->name);
        if (v->offset)
            fprintf(out, "+%" PRId64, v->offset);
        break;
    case INIT_FIELD:
        fprintf(out, "%s = ", v->name);
        print_init(out, v->elems);
        break;
    case INIT_LIST:
        fputc('{', out);
        for (uint32_t i = 0; i < v->count; i++) {
            if (i)
                fputs(", ", out);
            print_init(out, &v->elems[i]);
        }
        fputc('}', out);
        break;
    }
}

static void print_decl(FILE *out, const Decl *d)
{
    if (d->linkage & LINK_EXTERN)
        fputs(".extern ", out);
    if (d->linkage & LINK_VISIBLE)
        fputs(".visible ", out);
    if (d->linkage & LINK_WEAK)
        fputs(".weak ", out);
    if (d->linkage & LINK_COMMON)
        fputs(".common ", out);
    if ((d->space == SPACE_TEX || d->space == SPACE_SURF || d->space == SPACE_SAMPLER) && d->type == TYPE_NONE)
        fprintf(out, ".global %s", d->space == SPACE_TEX ? ".texref" : space_name[d->space]);   /* .global .texref t */
    else if (d->handle_space)
        fprintf(out, ".param %s", d->handle_space == SPACE_TEX ? ".texref" : space_name[d->handle_space]);
    else
        fputs(space_name[d->space], out);
    for (uint32_t i = 0; i < d->attr_count; i++)
        fprintf(out, " %s", d->attrs[i]);
    if (d->align)
        fprintf(out, " .align %u", d->align);
    if (d->vector)
        fprintf(out, " .v%u", d->vector);
    if (d->type != TYPE_NONE && !d->handle_space)
        fprintf(out, " .%s", type_info[d->type].name);
    if (d->is_ptr) {
        fputs(" .ptr", out);
        if (d->ptr_space)
            fprintf(out, " %s", space_name[d->ptr_space]);
        if (d->ptr_align)
            fprintf(out, " .align %u", d->ptr_align);
    }
    fprintf(out, " %s", d->name);
    if (d->has_range)
        fprintf(out, "<%u>", d->range);
    for (unsigned i = 0; i < d->dim_count; i++) {
        if (d->dims[i] < 0)
            fputs("[]", out);
        else
            fprintf(out, "[%" PRId64 "]", d->dims[i]);
    }
    if (d->init) {
        fputs(" = ", out);
        print_init(out, d->init);
    }
}

static void print_params(FILE *out, const Decl *params, uint32_t count)
{
    fputc('(', out);
    for (uint32_t i = 0; i < count; i++) {
        fputs(i ? ",\n\t" : "\n\t", out);
        print_decl(out, &params[i]);
    }
    fputs(count ? "\n)" : ")", out);
}

static void print_body(FILE *out, const Module *m, const Function *f, const char *indent)
{
    for (uint32_t i = 0; i < f->items.len; i++) {
        const Item *it = &f->items.data[i];
        switch (it->kind) {
        case ITEM_INSTR:
            fputs(indent, out);
            ir_print_instr(out, m, f, &f->code.data[it->index]);
            fputc('\n', out);
            break;
        case ITEM_LABEL:
            fprintf(out, "%s:\n", f->labels.data[it->index].name);
            break;
        case ITEM_DECL:
            fputs(indent, out);
            print_decl(out, &f->decls.data[it->index]);
            fputs(";\n", out);
            break;
        case ITEM_OPEN:
            fprintf(out, "%s{\n", indent);
            break;
        case ITEM_CLOSE:
            fprintf(out, "%s}\n", indent);
            break;
        default:
            fprintf(out, "%s%s\n", indent, it->text);
            break;
        }
    }
}

static void print_function(FILE *out, const Module *m, const Function *f)
{
    if (f->is_snippet) {
        /* The inferred types, as a comment: declarations would change the program. */
        for (uint32_t i = 0; i < f->regs.len + f->preds.len; i++) {
            const Register *r = i < f->regs.len ? &f->regs.data[i] : &f->preds.data[i - f->regs.len];
            if (r->upper)
                continue;                  /* the high half of a .b128 register */
            fprintf(out, "%s%s .%s", i == 0 ? "// registers: " : ", ", r->name,
                    r->is_pred ? "pred" : type_info[r->type].name);
        }
        if (f->regs.len + f->preds.len)
            fputc('\n', out);
        print_body(out, m, f, "");
        return;
    }
    if (f->linkage & LINK_EXTERN)
        fputs(".extern ", out);
    if (f->linkage & LINK_VISIBLE)
        fputs(".visible ", out);
    if (f->linkage & LINK_WEAK)
        fputs(".weak ", out);
    fputs(f->is_entry ? ".entry " : ".func ", out);
    if (!f->is_entry && f->returns.len) {
        print_params(out, f->returns.data, f->returns.len);
        fputc(' ', out);
    }
    fputs(f->name, out);
    print_params(out, f->params.data, f->params.len);
    for (uint32_t i = 0; i < f->perf.len; i++) {
        const PerfDirective *d = &f->perf.data[i];
        fprintf(out, "\n.%s", d->name);
        for (uint32_t j = 0; j < d->count; j++)
            fprintf(out, "%s%" PRIu64, j ? ", " : " ", d->values[j]);
    }
    if (!f->has_body) {
        fputs(";\n\n", out);
        return;
    }
    fputs("\n{\n", out);
    print_body(out, m, f, "\t");
    fputs("}\n\n", out);
}

void ir_print_module(FILE *out, const Module *m)
{
    if (m->version)
        fprintf(out, ".version %u.%u\n", m->version / 10, m->version % 10);
    if (m->target_sm || m->target_option_count) {
        fputs(".target ", out);
        const char *sep = "";
        if (m->target_sm) {
            fprintf(out, "sm_%u", m->target_sm);
            if (m->target_suffix)
                fputc(m->target_suffix, out);
            sep = ", ";
        }
        for (uint32_t i = 0; i < m->target_option_count; i++, sep = ", ")
            fprintf(out, "%s%s", sep, m->target_options[i]);
        fputc('\n', out);
    }
    if (m->address_size)
        fprintf(out, ".address_size %u\n", m->address_size);
    if (m->version || m->target_sm || m->address_size)
        fputc('\n', out);
    for (uint32_t i = 0; i < m->top.len; i++) {
        const TopItem *t = &m->top.data[i];
        switch (t->kind) {
        case TOP_FUNCTION:
            print_function(out, m, m->functions.data[t->index]);
            break;
        case TOP_DECL:
            print_decl(out, &m->globals.data[t->index]);
            fputs(";\n", out);
            break;
        case TOP_FILE: {
            const FileDirective *fd = &m->files.data[t->index];
            fprintf(out, ".file %" PRIu64 " %s%s\n", fd->number, fd->path, fd->extra ? fd->extra : "");
            break;
        }
        case TOP_VERBATIM:
            fprintf(out, "%s\n", m->verbatim.data[t->index]);
            break;
        }
    }
}

/* ---- structural comparison (for the round-trip test) ---- */

#define DIFFER(...) do { snprintf(why, why_len, __VA_ARGS__); return false; } while (0)

static bool same_name(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

static bool operand_equal(const Operand *a, const Operand *b)
{
    if (a->kind != b->kind || a->count != b->count || a->component != b->component || a->select != b->select)
        return false;
    uint8_t flags_mask = (a->kind == OPND_F32 || a->kind == OPND_F64) ? (uint8_t)~OPNDF_NEGATIVE : 0xff;
    if ((a->flags & flags_mask) != (b->flags & flags_mask))
        return false;
    switch (a->kind) {
    case OPND_REG: case OPND_PRED: return a->u.slot == b->u.slot;
    case OPND_SREG: return a->u.sreg == b->u.sreg;
    case OPND_INT: case OPND_F32: case OPND_F64: return a->u.bits == b->u.bits;
    case OPND_SYM: case OPND_NAME:
        return same_name(a->u.ref.name, b->u.ref.name) && a->u.ref.offset == b->u.ref.offset;
    case OPND_LABEL:
        return same_name(a->u.ref.name, b->u.ref.name) && a->u.ref.target == b->u.ref.target;
    case OPND_SINK: return true;
    default:
        if ((a->kind == OPND_ADDR || a->kind == OPND_REG_OFFSET) && a->u.group.offset != b->u.group.offset)
            return false;
        for (unsigned i = 0; i < a->count; i++)
            if (!operand_equal(&a->u.group.elems[i], &b->u.group.elems[i]))
                return false;
        return true;
    }
}

static bool instr_equal(const Instr *a, const Instr *b)
{
    return a->op == b->op && a->type_count == b->type_count && a->mod_count == b->mod_count &&
           memcmp(a->types, b->types, a->type_count) == 0 && memcmp(a->mods, b->mods, a->mod_count) == 0 &&
           a->guard_kind == b->guard_kind && (!a->guard_kind || a->guard_slot == b->guard_slot) &&
           same_name(a->mnemonic, b->mnemonic) && a->operand_count == b->operand_count;
}

static bool function_equal(const Function *a, const Function *b, char *why, size_t why_len)
{
    if (!same_name(a->name, b->name) || a->is_entry != b->is_entry || a->has_body != b->has_body)
        DIFFER("function '%s' differs in name or kind", a->name);
    if (a->code.len != b->code.len)
        DIFFER("function '%s': %u instructions vs %u", a->name, a->code.len, b->code.len);
    if (a->regs.len != b->regs.len || a->preds.len != b->preds.len)
        DIFFER("function '%s': register counts differ", a->name);
    for (uint32_t i = 0; i < a->regs.len; i++)
        if (a->regs.data[i].type != b->regs.data[i].type)
            DIFFER("function '%s': register slot %u has another type", a->name, i);
    if (a->params.len != b->params.len || a->decls.len != b->decls.len || a->labels.len != b->labels.len)
        DIFFER("function '%s': parameter, declaration or label counts differ", a->name);
    for (uint32_t i = 0; i < a->labels.len; i++)
        if (!same_name(a->labels.data[i].name, b->labels.data[i].name) ||
            a->labels.data[i].target != b->labels.data[i].target)
            DIFFER("function '%s': label %u differs", a->name, i);
    for (uint32_t i = 0; i < a->code.len; i++) {
        const Instr *x = &a->code.data[i], *y = &b->code.data[i];
        if (!instr_equal(x, y))
            DIFFER("function '%s': instruction %u ('%s' vs '%s') differs", a->name, i, x->mnemonic, y->mnemonic);
        for (unsigned k = 0; k < x->operand_count; k++)
            if (!operand_equal(&x->operands[k], &y->operands[k]))
                DIFFER("function '%s': instruction %u ('%s'), operand %u differs", a->name, i, x->mnemonic, k + 1);
    }
    return true;
}

bool ir_equal(const Module *a, const Module *b, char *why, size_t why_len)
{
    if (a->version != b->version || a->target_sm != b->target_sm || a->target_suffix != b->target_suffix ||
        a->address_size != b->address_size || a->is_snippet != b->is_snippet)
        DIFFER("module directives differ");
    if (a->functions.len != b->functions.len || a->globals.len != b->globals.len)
        DIFFER("%u functions and %u globals vs %u and %u", a->functions.len, a->globals.len,
               b->functions.len, b->globals.len);
    for (uint32_t i = 0; i < a->globals.len; i++) {
        const Decl *x = &a->globals.data[i], *y = &b->globals.data[i];
        if (!same_name(x->name, y->name) || x->type != y->type || x->space != y->space ||
            x->dim_count != y->dim_count || x->align != y->align || (x->init == NULL) != (y->init == NULL))
            DIFFER("global '%s' differs", x->name);
    }
    for (uint32_t i = 0; i < a->functions.len; i++)
        if (!function_equal(a->functions.data[i], b->functions.data[i], why, why_len))
            return false;
    return true;
}
