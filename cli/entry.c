/* entry.c: which kernel of a module to run, by a name the user gives (--entry, the expect
 * file's "entry"): the kernel's name in the PTX, its C++ name as c++filt writes it (demangle.c),
 * with or without the return type, or the start of that C++ name, if only one kernel's starts
 * so; the kernels listed one a line, a screenful at most, when the choice is missing or unclear;
 * and --list-kernels, which lists them all.
 * Names are compared with the spaces that do not separate two words taken out, so that
 * 'reduce6<float,256u,true>' and 'reduce6<float, 256u, true>' are one. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { SCREENFUL = 20 };                     /* kernels a message lists before "... and N more" */

typedef struct Kernel {
    const Function *f;
    char *cxx;                 /* its C++ name, or NULL when the name is not mangled or not read */
    size_t name_at;            /* where cxx's name starts after a return type */
    char *full, *name;         /* cxx (or the name) and cxx from name_at, in the compared form */
} Kernel;

static bool word_char(char c)
{
    return c == '_' || c == '$' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* text without its spaces, but one between two words ("unsigned int"), in a new string */
static char *compared_form(const char *text)
{
    char *s = xmalloc(strlen(text) + 1), *o = s;
    for (const char *p = text; *p; p++) {
        if (*p != ' ')
            *o++ = *p;
        else if (o > s && word_char(o[-1])) {
            const char *q = p;
            while (*q == ' ')
                q++;
            if (word_char(*q))
                *o++ = ' ';
            p = q - 1;
        }
    }
    *o = '\0';
    return s;
}

/* The kernels of m that have a body, in the module's order, with their C++ names. */
static Kernel *kernels_of(const Module *m, uint32_t *count)
{
    Kernel *k = xmalloc((m->functions.len + 1) * sizeof *k);
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->functions.len; i++) {
        const Function *f = m->functions.data[i];
        if (!f->is_entry || !f->has_body)
            continue;
        k[n].f = f;
        k[n].cxx = demangle_name(f->name, &k[n].name_at);
        k[n].full = compared_form(k[n].cxx ? k[n].cxx : f->name);
        k[n].name = compared_form(k[n].cxx ? k[n].cxx + k[n].name_at : f->name);
        n++;
    }
    *count = n;
    return k;
}

static void free_kernels(Kernel *k, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        free(k[i].cxx);
        free(k[i].full);
        free(k[i].name);
    }
    free(k);
}

/* "  reduce0<int>(int*, int*, unsigned int)  (_Z7reduce0IiEvPT_S1_j)", or the name alone */
static void print_kernel(FILE *out, const Kernel *k)
{
    if (k->cxx)
        fprintf(out, "  %s  (%s)\n", k->cxx + k->name_at, k->f->name);
    else
        fprintf(out, "  %s\n", k->f->name);
}

/* The kernels picked (all when picked is NULL), a screenful at most, then how many more. */
static void print_some(FILE *out, const Kernel *k, uint32_t count, const bool *picked, uint32_t total)
{
    uint32_t shown = 0;
    for (uint32_t i = 0; i < count && shown < SCREENFUL; i++)
        if (!picked || picked[i]) {
            print_kernel(out, &k[i]);
            shown++;
        }
    if (total > shown)
        fprintf(out, "  ... and %u more (ptxrun --list-kernels FILE lists every kernel)\n", total - shown);
}

/* How well q (compared form) starts the kernel's C++ name: 0 not at all, 1 it does, 2 it does
 * and ends where a word of the name ends ('reduce' fits 'reduce<int>' better than 'reduce_c'). */
static int fit(const Kernel *k, const char *q)
{
    size_t len = strlen(q);
    int best = 0;
    for (int form = 0; form < 2; form++) {
        const char *name = form ? k->full : k->name;
        if (strncmp(name, q, len) == 0) {
            int f = len && word_char(q[len - 1]) && word_char(name[len]) ? 1 : 2;
            best = f > best ? f : best;
        }
    }
    return best;
}

/* The kernel query names: its PTX name, its C++ name (with or without the return type), or the
 * start of one C++ name. NULL: none or several, those marked in matched, *matches of them. */
static const Kernel *find(const Kernel *k, uint32_t count, const char *query, bool *matched, uint32_t *matches)
{
    for (uint32_t i = 0; i < count; i++)
        if (!strcmp(k[i].f->name, query)) {
            *matches = 1;
            return &k[i];
        }
    char *q = compared_form(query);
    const Kernel *found = NULL;
    uint32_t exact = 0;
    for (uint32_t i = 0; i < count; i++)
        if (!strcmp(k[i].full, q) || !strcmp(k[i].name, q)) {
            found = &k[i];
            exact++;
        }
    int best = 0;
    for (uint32_t i = 0; i < count && exact != 1; i++) {
        int f = fit(&k[i], q);
        best = f > best ? f : best;
    }
    *matches = 0;
    for (uint32_t i = 0; i < count && exact != 1; i++) {
        matched[i] = best && fit(&k[i], q) == best;
        if (matched[i]) {
            found = &k[i];
            ++*matches;
        }
    }
    free(q);
    if (exact == 1)
        *matches = 1;
    return *matches == 1 ? found : NULL;
}

/* The kernel to run: *name is its PTX name (NULL when the module has no kernel, or one and no
 * query was given: the caller's lower_entry takes the first, or finds nothing). False when the
 * query names no kernel or several, or none was given and there are several: said on err. */
bool entry_choose(const Module *m, const char *query, const char **name, FILE *err)
{
    uint32_t count;
    Kernel *k = kernels_of(m, &count);
    bool ok = false;
    *name = NULL;
    if (!query) {
        if (count <= 1)
            ok = true;
        else {
            fprintf(err, "ptxrun: error: the module has %u kernels; choose one with --entry:\n", count);
            print_some(err, k, count, NULL, count);
        }
        free_kernels(k, count);
        return ok;
    }
    bool *matched = xmalloc((count + 1) * sizeof *matched);
    uint32_t matches = 0;
    const Kernel *found = find(k, count, query, matched, &matches);
    if (found) {
        *name = found->f->name;
        ok = true;
    } else if (matches > 1) {
        fprintf(err, "ptxrun: error: '%s' could be any of %u kernels; name one in full, or more of its C++ name:\n",
                query, matches);
        print_some(err, k, count, matched, matches);
    } else if (!count)
        fprintf(err, "ptxrun: error: no kernel (.entry) named '%s': the module has none\n", query);
    else {
        fprintf(err, "ptxrun: error: no kernel (.entry) named '%s'; the module's kernels:\n", query);
        print_some(err, k, count, NULL, count);
    }
    free(matched);
    free_kernels(k, count);
    return ok;
}

/* --list-kernels: each kernel on a line, its PTX name, a tab and its C++ name as c++filt writes
 * it (the name again when it is not mangled); with json, an array of {"name", "demangled"}. */
void entry_list(FILE *out, const Module *m, bool json)
{
    uint32_t count;
    Kernel *k = kernels_of(m, &count);
    json_t *list = json ? json_array() : NULL;
    for (uint32_t i = 0; i < count; i++) {
        const char *cxx = k[i].cxx ? k[i].cxx : k[i].f->name;
        if (list)
            json_array_append_new(list, json_pack("{s:s, s:s}", "name", k[i].f->name, "demangled", cxx));
        else
            fprintf(out, "%s\t%s\n", k[i].f->name, cxx);
    }
    if (list) {
        json_dumpf(list, out, JSON_INDENT(2));
        fputc('\n', out);
        json_decref(list);
    }
    free_kernels(k, count);
}
