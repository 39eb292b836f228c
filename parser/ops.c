/* ops.c: the tables generated from ops.def, types.def, mods.def and sregs.def, the lookups
 * by name, and the instruction reference printed by `ptxrun --list-ops`. */
#include <string.h>

#include "ir.h"

const OpInfo op_info[OP_COUNT] = {
#define OP(e, name, ptx, sm, flags, family, shape, rule, synopsis) { name, ptx, sm, flags, FAM_##family, shape, rule, synopsis },
#include "ops.def"
#undef OP
};

const char *const family_name[FAM_COUNT] = {
    "", "alu", "bitops", "mathops", "convert", "memory", "atomic", "warp", "sync", "barrier", "fence", "control", "video",
    "half", "hint", "stack", "surface", "texture", "multimem", "bulk", "async", "mbarrier",
};

const TypeInfo type_info[TYPE_COUNT] = {
#define TYPE(e, name, bits, cls) { name, bits, cls },
#include "types.def"
#undef TYPE
};

const char *const mod_name[MOD_COUNT] = {
#define MOD(e, word) word,
#define HINT(e, word) word,
#include "mods.def"
#undef MOD
#undef HINT
};

const bool mod_is_hint[MOD_COUNT] = {
#define MOD(e, word) false,
#define HINT(e, word) true,
#include "mods.def"
#undef MOD
#undef HINT
};

const SregInfo sreg_info[SREG_COUNT] = {
#define SREG(e, name, bits, xyz, ptx, sm, mov_bits) { name, bits, xyz, ptx, sm, mov_bits },
#include "sregs.def"
#undef SREG
};

static bool same(const char *name, const char *s, size_t len)
{
    /* the first byte first: most names in a table differ there */
    return (len == 0 || name[0] == s[0]) && strncmp(name, s, len) == 0 && name[len] == '\0';
}

/* The opcode named by the longest dotted prefix of mnemonic, or OP_COUNT. Callers memoise
 * by mnemonic (decode.c), so a linear scan of the table is fast enough. */
int op_lookup(const char *mnemonic, size_t len)
{
    size_t prefix = len;
    for (;;) {
        for (int op = 0; op < OP_COUNT; op++)
            if (same(op_info[op].name, mnemonic, prefix))
                return op;
        while (prefix > 0 && mnemonic[prefix - 1] != '.')
            prefix--;
        if (prefix == 0)
            return OP_COUNT;
        prefix--;                   /* drop the '.' */
    }
}

int type_lookup(const char *word, size_t len)
{
    for (int t = 0; t < TYPE_COUNT; t++)
        if (same(type_info[t].name, word, len))
            return t;
    return TYPE_COUNT;
}

int mod_lookup(const char *word, size_t len)
{
    for (int m = 0; m < MOD_COUNT; m++)
        if (same(mod_name[m], word, len))
            return m;
    return MOD_COUNT;
}

int sreg_lookup(const char *name, size_t len)
{
    for (int s = 0; s < SREG_COUNT; s++)
        if (same(sreg_info[s].name, name, len))
            return s;
    return SREG_COUNT;
}

static void print_version(FILE *out, unsigned v)
{
    fprintf(out, "%u.%u", v / 10, v % 10);
}

/* Markdown table cells cannot hold a bare '|'. */
static void print_cell(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', out);
        fputc(*s, out);
    }
}

/* The instruction reference (docs/instructions.md is this output). */
void ops_print_markdown(FILE *out)
{
    fputs("# PTX instructions known to ptxrun\n\n"
          "Generated from `parser/ops.def` by `ptxrun --list-ops`; do not edit by hand.\n\n"
          "*checked*: operands and suffixes are checked against the rule shown; the others are\n"
          "known by name and version only. *runs*: the part of the executor that runs it (empty: not yet).\n\n"
          "| instruction | PTX | target | checked | runs | synopsis |\n"
          "|---|---|---|---|---|---|\n", out);
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *o = &op_info[op];
        fprintf(out, "| `%s` | ", o->name);
        print_version(out, o->min_ptx);
        if (o->min_sm)
            fprintf(out, " | sm_%u%s", o->min_sm, (o->flags & OPF_ARCH) ? "a" : "");
        else
            fputs(" | any", out);
        fprintf(out, " | %s | %s | %s", strcmp(o->rule, "*") ? "yes" : "", family_name[o->family],
                o->synopsis);
        if (o->flags & OPF_LEGACY_NOSYNC)
            fputs(" (deprecated in PTX 6.0; not for sm_70+ from PTX 6.4)", out);
        fputs(" |\n", out);
    }
    fputs("\n## Operands and suffixes of the checked instructions\n\n"
          "| instruction | operands | suffixes |\n|---|---|---|\n", out);
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *o = &op_info[op];
        if (strcmp(o->rule, "*") == 0)
            continue;
        fprintf(out, "| `%s` | `", o->name);
        print_cell(out, o->shape[0] ? o->shape : "(none)");
        fputs("` | ", out);
        print_cell(out, o->rule[0] ? o->rule : "(none)");
        fputs(" |\n", out);
    }
    fputs("\nOperand letters: d destination, D destination with optional |p, Q predicate destination"
          " with optional |q, a source of the instruction type, w source of the result type,"
          " t source of the second type, u 32-bit integer source, U 32-bit integer destination, p predicate (may be negated), l label,"
          " V destination or vector, v source or vector,"
          " S source, vector or address of a variable, A address in brackets, c 64-bit cache policy;"
          " ? marks an optional operand; `.word letters | letters`: the operands of the forms with"
          " that suffix, then of the others.\n"
          "Suffixes: {x|y} one of them, [x|y] at most one; !word: valid PTX that ptxrun does not execute yet.\n", out);
}
