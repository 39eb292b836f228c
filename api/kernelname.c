/* kernelname.c: a module's kernels and the names that choose one (api.h): the PTX name, the C++
 * name as c++filt writes it (demangle.c), with or without the return type, or the start of that
 * C++ name, if only one kernel's starts so. Names are compared with the spaces that do not
 * separate two words taken out, so that 'reduce6<float,256u,true>' and
 * 'reduce6<float, 256u, true>' are one. */
#include <stdlib.h>
#include <string.h>

#include "api.h"

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
KernelName *kernelname_list(const Module *m, uint32_t *count)
{
    KernelName *k = xmalloc((m->functions.len + 1) * sizeof *k);
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

void kernelname_free(KernelName *k, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        free(k[i].cxx);
        free(k[i].full);
        free(k[i].name);
    }
    free(k);
}

/* How well q (compared form) starts the kernel's C++ name: 0 not at all, 1 it does, 2 it does
 * and ends where a word of the name ends ('reduce' fits 'reduce<int>' better than 'reduce_c'). */
static int fit(const KernelName *k, const char *q)
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
const KernelName *kernelname_find(const KernelName *k, uint32_t count, const char *query, bool *matched, uint32_t *matches)
{
    for (uint32_t i = 0; i < count; i++)
        if (!strcmp(k[i].f->name, query)) {
            *matches = 1;
            return &k[i];
        }
    char *q = compared_form(query);
    const KernelName *found = NULL;
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
        bool m = best && fit(&k[i], q) == best;
        if (matched)
            matched[i] = m;
        if (m) {
            found = &k[i];
            ++*matches;
        }
    }
    free(q);
    if (exact == 1)
        *matches = 1;
    return *matches == 1 ? found : NULL;
}

