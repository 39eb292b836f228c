/* perf.c: the directives between a function's parameters and its body (PTX ISA, "Performance-Tuning
 * Directives" and "Cluster Dimension Directives"): .maxntid, .reqntid, .maxnreg, .minnctapersm,
 * .reqnctapercluster, .explicitcluster, .maxclusterrank, .blocksareclusters, .noreturn,
 * .abi_preserve(_control). Each is kept in Function.perf with its place, and held to what ptxas
 * 13.0 accepts: the kind of function, how many numbers, no zero where ptxas wants a positive
 * value, PTX ISA version and target, and the pairs it refuses together. What they mean for a launch
 * (exec/bounds.c) is read from the last of each kind, as ptxas does (its cubins say so).
 * Requires: parse.c's Parser (p->fn, the module's .version and .target), which keeps each directive
 * perf_check has seen. */
#include <string.h>

#include "parse.h"

/* What ptxas accepts of each directive. */
typedef struct PerfRule {
    const char *name;
    uint8_t min_ptx, min_sm;   /* PTX ISA version *10; sm_XX (0: any) */
    bool entry;                /* a kernel's (.entry); otherwise a .func's */
    uint8_t least, most;       /* how many numbers */
    bool zero_ok;              /* 0 stands for "not given" (ptxas: the cubin is the one without it) */
} PerfRule;

static const PerfRule rules[] = {
    { "maxnreg", 13, 0, true, 1, 1, false },
    { "maxntid", 13, 0, true, 1, 3, false },
    { "reqntid", 21, 0, true, 1, 3, false },
    { "minnctapersm", 20, 0, true, 1, 1, false },
    { "maxnctapersm", 13, 0, true, 1, 1, false },
    { "explicitcluster", 78, 90, true, 0, 0, true },
    { "reqnctapercluster", 78, 90, true, 1, 3, true },
    { "maxclusterrank", 78, 90, true, 1, 1, true },
    { "blocksareclusters", 90, 90, true, 0, 0, true },
    { "noreturn", 64, 30, false, 0, 0, true },
    { "abi_preserve", 90, 80, false, 1, 1, true },
    { "abi_preserve_control", 90, 80, false, 1, 1, true },
};

static const PerfRule *rule_of(const char *name)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!strcmp(rules[i].name, name))
            return &rules[i];
    return NULL;
}

const PerfDirective *perf_find(const Function *f, const char *name)
{
    const PerfDirective *last = NULL;
    for (uint32_t i = 0; i < f->perf.len; i++)
        if (!strcmp(f->perf.data[i].name, name))
            last = &f->perf.data[i];
    return last;
}

/* The two of a pair ptxas refuses together ("Conflicting directives"), d the later one. */
static void refuse_pair(Parser *p, const PerfDirective *d, const char *a, const char *b)
{
    const char *other = !strcmp(d->name, a) ? b : !strcmp(d->name, b) ? a : NULL;
    if (other && perf_find(p->fn, other))
        diag_at(p->diag, DIAG_ERROR, d->at, "'.%s' and '.%s' cannot both be given (PTX ISA; ptxas refuses them "
                "together)", a, b);
}

/* A directive just read, before parse.c keeps it. */
void perf_check(Parser *p, const PerfDirective *d)
{
    const Module *m = p->m;
    const PerfRule *r = rule_of(d->name);
    Span name = d->at;
    uint32_t count = d->count;
    if (!r)
        BUG("performance directive '%s' without a rule", d->name);
    if (r->entry != p->fn->is_entry)
        diag_at(p->diag, DIAG_ERROR, name, "'.%s' belongs to %s, not to %s", d->name,
                r->entry ? "a kernel (.entry)" : "a device function (.func)", p->fn->is_entry ? "a kernel" : "a .func");
    else if (count < r->least || count > r->most) {
        if (r->most == 0)
            diag_at(p->diag, DIAG_ERROR, name, "'.%s' takes no numbers", d->name);
        else if (r->least == r->most)
            diag_at(p->diag, DIAG_ERROR, name, "'.%s' takes one number", d->name);
        else
            diag_at(p->diag, DIAG_ERROR, name, "'.%s' takes one to three numbers", d->name);
    } else if (!strcmp(d->name, "maxnctapersm") && m->version >= 21)
        diag_at(p->diag, DIAG_ERROR, name, "'.maxnctapersm' is deprecated and refused from PTX ISA 2.1 on: "
                "use '.minnctapersm'");
    else if (m->version && r->min_ptx > m->version)
        diag_at(p->diag, DIAG_ERROR, name, "'.%s' requires PTX ISA %u.%u or later (this module is .version %u.%u)",
                d->name, r->min_ptx / 10, r->min_ptx % 10, m->version / 10, m->version % 10);
    else if (m->target_sm && r->min_sm > m->target_sm)
        diag_at(p->diag, DIAG_ERROR, name, "'.%s' requires sm_%u or later (this module targets sm_%u)", d->name,
                r->min_sm, m->target_sm);
    for (uint32_t i = 0; i < count && i < r->most; i++) {
        if (d->values[i] > UINT32_MAX)
            diag_at(p->diag, DIAG_ERROR, name, "'.%s': %llu does not fit 32 bits", d->name,
                    (unsigned long long)d->values[i]);
        else if (d->values[i] == 0 && !r->zero_ok)
            diag_at(p->diag, DIAG_ERROR, name, "'.%s' takes positive numbers, not 0 (ptxas refuses it)", d->name);
        else
            continue;
        break;
    }
    refuse_pair(p, d, "maxntid", "reqntid");
    refuse_pair(p, d, "reqnctapercluster", "maxclusterrank");
}

/* At the function's body: what needs another directive. */
void perf_end(Parser *p, Function *f)
{
    const PerfDirective *d = perf_find(f, "minnctapersm");
    if (d && p->m->version >= 21 && !perf_find(f, "maxntid") && !perf_find(f, "reqntid"))
        diag_at(p->diag, DIAG_WARNING, d->at, "'.minnctapersm' without '.maxntid' or '.reqntid' is ignored (PTX ISA; "
                "ptxas warns too)");
    d = perf_find(f, "blocksareclusters");
    if (d && (!perf_find(f, "reqntid") || !perf_find(f, "reqnctapercluster")))
        diag_at(p->diag, DIAG_ERROR, d->at, "'.blocksareclusters' needs '.reqntid' and '.reqnctapercluster' too");
}
