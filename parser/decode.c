/* decode.c: decodes an instruction's mnemonic against its opcode's suffix rule in ops.def:
 * the opcode, its types and modifiers in canonical order, and the first suffix that is valid
 * PTX but that ptxrun does not execute (a !word). It reports an unknown instruction, a suffix
 * that does not fit the rule or conflicts with another, and a required group left out. Each
 * rule is parsed once and each distinct mnemonic decoded once per check.
 * Requires: an Instr from parse_module; called by check.c only. */
#include <stdlib.h>
#include <string.h>

#include "checker.h"

enum { MAX_GROUPS = 16, MAX_GROUP_WORDS = 32 };

/* A suffix rule from ops.def, parsed once per opcode per check. */
typedef struct RuleWord {
    bool is_type;
    bool refused;              /* '!word': valid PTX that ptxrun does not execute yet */
    uint8_t id;                /* Type or Mod */
} RuleWord;

typedef struct RuleGroup {
    bool required;             /* {x|y} rather than [x|y] */
    uint8_t count;
    RuleWord words[MAX_GROUP_WORDS];
} RuleGroup;

typedef struct Rule {
    bool parsed;
    bool any;                  /* "*": suffixes not checked */
    uint8_t group_count;
    RuleGroup groups[MAX_GROUPS];
} Rule;

/* What a mnemonic decodes to; memoised by its interned pointer. */
typedef struct Decoded {
    const char *mnemonic;
    const char *canonical;
    uint32_t refused_at, refused_length;   /* the first '.word' ptxrun does not execute (length 0: none) */
    uint16_t op;
    uint8_t type_count, mod_count;
    uint8_t types[MAX_TYPES];
    uint8_t mods[MAX_SUFFIXES];
} Decoded;

/* The rules parsed so far and the mnemonics decoded so far, for one check. */
struct Decoder {
    Rule rules[OP_COUNT];
    Decoded *memo;             /* open addressing, keyed by mnemonic pointer */
    uint32_t memo_count, memo_capacity;
};

Decoder *decode_new(void)
{
    return xcalloc(1, sizeof(Decoder));
}

void decode_free(Decoder *dec)
{
    if (!dec)
        return;
    free(dec->memo);
    free(dec);
}

static void error(Diag *diag, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(diag, DIAG_ERROR, at, fmt, ap);
    va_end(ap);
}

static Rule *rule_of(Decoder *dec, int op)
{
    Rule *r = &dec->rules[op];
    if (r->parsed)
        return r;
    r->parsed = true;
    const char *s = op_info[op].rule;
    if (strcmp(s, "*") == 0) {
        r->any = true;
        return r;
    }
    while (*s) {
        if (*s == ' ') {
            s++;
            continue;
        }
        if (*s != '{' && *s != '[')
            BUG("ops.def rule of '%s' is malformed at \"%s\"", op_info[op].name, s);
        if (r->group_count == MAX_GROUPS)
            BUG("ops.def rule of '%s' has too many groups", op_info[op].name);
        RuleGroup *g = &r->groups[r->group_count++];
        g->required = *s == '{';
        char close = g->required ? '}' : ']';
        s++;
        while (*s != close) {
            bool refused = *s == '!';
            s += refused;
            const char *w = s;
            while (*s != '|' && *s != close) {
                if (!*s)
                    BUG("ops.def rule of '%s' is unterminated", op_info[op].name);
                s++;
            }
            int t = type_lookup(w, (size_t)(s - w));
            int m = t == TYPE_COUNT ? mod_lookup(w, (size_t)(s - w)) : MOD_COUNT;
            if (t == TYPE_COUNT && m == MOD_COUNT)
                BUG("ops.def rule of '%s' names '%.*s', which is neither in types.def nor in mods.def",
                    op_info[op].name, (int)(s - w), w);
            if (g->count == MAX_GROUP_WORDS)
                BUG("ops.def rule of '%s' has a group that is too large", op_info[op].name);
            g->words[g->count++] = (RuleWord){ t != TYPE_COUNT, refused, (uint8_t)(t != TYPE_COUNT ? t : m) };
            if (*s == '|')
                s++;
        }
        s++;
    }
    unsigned type_groups = 0;
    for (unsigned g = 0; g < r->group_count; g++)
        type_groups += r->groups[g].words[0].is_type;
    if (type_groups > MAX_TYPES || r->group_count - type_groups > MAX_SUFFIXES)
        BUG("ops.def rule of '%s' has more groups than an instruction has room for", op_info[op].name);
    return r;
}

static const char *word_name(RuleWord w)
{
    return w.is_type ? type_info[w.id].name : mod_name[w.id];
}

static void list_group(char *buf, size_t size, const RuleGroup *g)
{
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < g->count && len < size; i++) {
        if (i == 8) {
            len += (size_t)snprintf(buf + len, size - len, ", ...");
            break;
        }
        len += (size_t)snprintf(buf + len, size - len, "%s.%s", i ? ", " : "", word_name(g->words[i]));
    }
}

/* ptxas takes the .sync of vote.sync, shfl.sync and redux.sync after other suffixes too
 * (vote.ballot.sync.b32, as CUB writes it; shfl.up.b32.sync): where the mnemonic's first word
 * alone was found and a later ".sync" part completes an opcode, *op becomes that opcode and
 * the offset of that ".sync" is returned (0: none). */
static size_t sync_later(const char *s, int *op)
{
    size_t base = strcspn(s, ".");
    if (*op != OP_COUNT && strlen(op_info[*op].name) != base)
        return 0;                      /* found by more than its first word */
    for (const char *p = s + base; (p = strstr(p, ".sync")) != NULL; p += 5) {
        if (p[5] != '.' && p[5] != '\0')
            continue;
        char full[32];
        int n = snprintf(full, sizeof full, "%.*s.sync", (int)base, s);
        int synced = n > 0 && (size_t)n < sizeof full ? op_lookup(full, (size_t)n) : OP_COUNT;
        if (synced == OP_COUNT || strcmp(op_info[synced].name, full) != 0)
            return 0;
        *op = synced;
        return (size_t)(p - s);
    }
    return 0;
}

/* Decodes in->mnemonic into opcode, types and modifiers; reports what does not fit. Returns
 * false (after reporting) when the mnemonic is wrong. */
static bool decode_mnemonic(Decoder *dec, Diag *diag, Interner *names, const Instr *in, Decoded *out)
{
    const char *s = in->mnemonic;
    size_t len = strlen(s);
    memset(out, 0, sizeof *out);
    out->mnemonic = s;
    int op = op_lookup(s, len);
    size_t sync_at = sync_later(s, &op);
    if (op == OP_COUNT) {
        size_t first = strcspn(s, ".");
        error(diag, (Span){ in->at.offset, (uint32_t)first }, "unknown instruction '%.*s'", (int)first, s);
        return false;
    }
    out->op = (uint16_t)op;
    const char *name = op_info[op].name;
    const Rule *r = rule_of(dec, op);
    bool ok = true;
    int chosen[MAX_GROUPS];
    for (int g = 0; g < MAX_GROUPS; g++)
        chosen[g] = -1;

    for (size_t pos = sync_at ? strcspn(s, ".") : strlen(name); pos < len;) {
        size_t start = pos + 1, end = start;
        while (end < len && s[end] != '.')
            end++;
        pos = end;
        if ((sync_at && start - 1 == sync_at) ||
            (end - start == 4 && memcmp(s + start, "sync", 4) == 0 && strstr(name, ".sync")))
            continue;                  /* the .sync that named the opcode, or one more (ptxas takes it) */
        const char *part = s + start;
        size_t part_len = end - start;
        Span part_at = { in->at.offset + (uint32_t)start - 1, (uint32_t)part_len + 1 };
        int t = type_lookup(part, part_len);
        int m = t == TYPE_COUNT ? mod_lookup(part, part_len) : MOD_COUNT;
        if (r->any) {
            /* Not checked (ptxrun does not execute the opcode): the known words are kept. */
            if (t != TYPE_COUNT && out->type_count < MAX_TYPES)
                out->types[out->type_count++] = (uint8_t)t;
            else if (m != MOD_COUNT && out->mod_count < MAX_SUFFIXES)
                out->mods[out->mod_count++] = (uint8_t)m;
            continue;
        }
        int found = -1, conflict = -1;
        for (int g = 0; g < r->group_count && found < 0; g++) {
            const RuleGroup *grp = &r->groups[g];
            for (int w = 0; w < grp->count; w++) {
                bool match = grp->words[w].is_type ? grp->words[w].id == t : grp->words[w].id == m;
                if (t != TYPE_COUNT && !grp->words[w].is_type)
                    match = false;
                if (!match)
                    continue;
                if (chosen[g] < 0) {
                    chosen[g] = w;
                    found = g;
                    if (grp->words[w].refused && !out->refused_length) {
                        out->refused_at = (uint32_t)(start - 1);
                        out->refused_length = (uint32_t)(part_len + 1);
                    }
                } else if (conflict < 0) {
                    conflict = g;
                }
                break;
            }
        }
        if (found >= 0)
            continue;
        ok = false;
        if (conflict >= 0)
            error(diag, part_at, "'.%.*s' conflicts with '.%s' in '%s'", (int)part_len, part,
                  word_name(r->groups[conflict].words[chosen[conflict]]), name);
        else if (t != TYPE_COUNT)
            error(diag, part_at, "'.%.*s' is not a valid type for '%s'", (int)part_len, part, name);
        else
            error(diag, part_at, "unknown modifier '.%.*s' for '%s'", (int)part_len, part, name);
    }
    if (r->any) {
        out->canonical = s;
        return ok;
    }
    char canonical[256];
    size_t clen = (size_t)snprintf(canonical, sizeof canonical, "%s", name);
    for (int g = 0; g < r->group_count; g++) {
        const RuleGroup *grp = &r->groups[g];
        if (chosen[g] < 0) {
            if (grp->required && ok) {
                char options[160];
                list_group(options, sizeof options, grp);
                error(diag, in->at, "'%s' needs one of %s", s, options);
                ok = false;
            }
            continue;
        }
        RuleWord w = grp->words[chosen[g]];
        if (w.is_type)
            out->types[out->type_count++] = w.id;
        else
            out->mods[out->mod_count++] = w.id;
        clen += (size_t)snprintf(canonical + clen, sizeof canonical - clen, ".%s", word_name(w));
    }
    if (clen >= sizeof canonical)
        BUG("canonical mnemonic too long");
    out->canonical = intern(names, canonical, clen);
    return ok;
}

/* Memoised decode: each distinct mnemonic is decoded once; a wrong one is decoded (and so
 * reported) at every use. */
bool decode_instr(Decoder *dec, Diag *diag, Module *m, Instr *in, Span *refused)
{
    if (dec->memo_count * 2 >= dec->memo_capacity) {
        uint32_t cap = dec->memo_capacity ? dec->memo_capacity * 2 : 256;
        Decoded *memo = xcalloc(cap, sizeof *memo);
        for (uint32_t i = 0; i < dec->memo_capacity; i++) {
            if (!dec->memo[i].mnemonic)
                continue;
            uint32_t j = checker_pointer_hash(dec->memo[i].mnemonic) & (cap - 1);
            while (memo[j].mnemonic)
                j = (j + 1) & (cap - 1);
            memo[j] = dec->memo[i];
        }
        free(dec->memo);
        dec->memo = memo;
        dec->memo_capacity = cap;
    }
    uint32_t j = checker_pointer_hash(in->mnemonic) & (dec->memo_capacity - 1);
    while (dec->memo[j].mnemonic && dec->memo[j].mnemonic != in->mnemonic)
        j = (j + 1) & (dec->memo_capacity - 1);
    Decoded d;
    if (dec->memo[j].mnemonic) {
        d = dec->memo[j];
    } else {
        if (!decode_mnemonic(dec, diag, &m->names, in, &d))
            return false;
        dec->memo[j] = d;
        dec->memo_count++;
    }
    in->op = d.op;
    in->type_count = d.type_count;
    in->mod_count = d.mod_count;
    memcpy(in->types, d.types, sizeof d.types);
    memcpy(in->mods, d.mods, sizeof d.mods);
    in->mnemonic = d.canonical;
    *refused = (Span){ in->at.offset + d.refused_at, d.refused_length };
    return true;
}
