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

/* "  reduce0<int>(int*, int*, unsigned int)  (_Z7reduce0IiEvPT_S1_j)", or the name alone */
static void print_kernel(FILE *out, const KernelName *k)
{
    if (k->cxx)
        fprintf(out, "  %s  (%s)\n", k->cxx + k->name_at, k->f->name);
    else
        fprintf(out, "  %s\n", k->f->name);
}

/* The kernels picked (all when picked is NULL), a screenful at most, then how many more. */
static void print_some(FILE *out, const KernelName *k, uint32_t count, const bool *picked, uint32_t total)
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

/* The kernel to run: *name is its PTX name (NULL when the module has no kernel, or one and no
 * query was given: the caller's lower_entry takes the first, or finds nothing). False when the
 * query names no kernel or several, or none was given and there are several: said on err. */
bool entry_choose(const Module *m, const char *query, const char **name, FILE *err)
{
    uint32_t count;
    KernelName *k = kernelname_list(m, &count);
    bool ok = false;
    *name = NULL;
    if (!query) {
        if (count <= 1)
            ok = true;
        else {
            fprintf(err, "ptxrun: error: the module has %u kernels; choose one with --entry:\n", count);
            print_some(err, k, count, NULL, count);
        }
        kernelname_free(k, count);
        return ok;
    }
    bool *matched = xmalloc((count + 1) * sizeof *matched);
    uint32_t matches = 0;
    const KernelName *found = kernelname_find(k, count, query, matched, &matches);
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
    kernelname_free(k, count);
    return ok;
}

/* --list-kernels: each kernel on a line, its PTX name, a tab and its C++ name as c++filt writes
 * it (the name again when it is not mangled); with json, an array of {"name", "demangled"}. */
void entry_list(FILE *out, const Module *m, bool json)
{
    uint32_t count;
    KernelName *k = kernelname_list(m, &count);
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
    kernelname_free(k, count);
}
