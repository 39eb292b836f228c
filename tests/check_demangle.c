/* check_demangle.c: the C++ names of kernels (cli/demangle.c) and choosing a kernel by one
 * (cli/entry.c).
 * The expected C++ names are binutils' c++filt's, an independent demangler: tests/entry/regen.sh
 * wrote tests/entry/demangled.tsv with it, from the kernels nvcc made of tests/entry/templates.cu
 * and the names of tests/entry/names.txt (the repository's nvcc kernels and more written by
 * hand). PTXRUN_ROOT names the repository (make check sets it). */
#include "testutil.h"

/* demangle_name(mangled), or mangled itself when it gives NULL (as c++filt leaves a name) */
static char *shown(const char *mangled)
{
    char *s = demangle_name(mangled, NULL);
    return s ? s : strdup(mangled);
}

/* tests/entry/demangled.tsv, its lines "mangled<TAB>what c++filt gives" */
static FILE *open_names(void)
{
    const char *root = getenv("PTXRUN_ROOT");
    ck_assert_msg(root != NULL, "set PTXRUN_ROOT to the repository (make check does)");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/entry/demangled.tsv", root);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    return f;
}

START_TEST(as_cxxfilt_writes_them)
{
    char line[8192];
    FILE *f = open_names();
    unsigned names = 0, templates = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        ck_assert_msg(tab != NULL, "no tab in '%s'", line);
        *tab = '\0';
        char *got = shown(line);
        ck_assert_msg(!strcmp(got, tab + 1), "%s:\n  ptxrun:   %s\n  c++filt:  %s", line, got, tab + 1);
        free(got);
        size_t at;
        char *cxx = demangle_name(line, &at);
        if (cxx && at) {                     /* a function template's: its return type, a space, the name */
            ck_assert_msg(at > 1 && cxx[at - 1] == ' ' && !strncmp(cxx + at, tab + 1 + at, strlen(cxx + at)),
                          "%s: the name at %zu of '%s'", line, at, cxx);
            templates++;
        }
        free(cxx);
        names++;
    }
    fclose(f);
    ck_assert_uint_ge(names, 150);
    ck_assert_uint_ge(templates, 40);
}
END_TEST

/* Names c++filt reads and this demangler does not (operators, constructors, expressions in
 * types, clone suffixes, a function returning a pointer to a function): shown mangled. And
 * names that are not whole: never a crash, never a name. */
START_TEST(what_it_does_not_read_stays_mangled)
{
    static const char *const unread[] = {
        "_ZN1AC1Ev", "_ZNK1AplERKS_", "_Z1fv.cold", "_Z1fIiEDTcl1gfp_EET_", "_Z1fPFPFviEvE", "_Z1fFviRE",
        "_ZZ4mainENK3$_0clEv", "_Z1fIXplLi1ELi2EEEvv", "_Z1fIN1AUt_E1bEEvv",
        "", "_", "_Z", "_Z1", "_Z0", "_Z1fIiEvT0_", "_Z1fS_", "_Z3fo", "_Z1fIiEv", "kernel",
        "_Z1fPVVi", "_Z1fIiEvDpT_", "_Z1fPRi", "_Z1fIiLi3EEvRATn0__T_", "_Z4rowsIfLi3EEvPATn0__T_",
    };
    for (size_t i = 0; i < sizeof unread / sizeof *unread; i++) {
        char *s = demangle_name(unread[i], NULL);
        ck_assert_msg(s == NULL, "%s read as '%s'", unread[i], s);
    }
}
END_TEST

/* Every start of every name, and names nested deeper than any compiler writes: NULL or a
 * name, within the bounds (run under the sanitizers by CI). */
START_TEST(no_input_breaks_it)
{
    char line[8192];
    FILE *f = open_names();
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\t")] = '\0';
        for (size_t len = strlen(line); len > 0; len--) {
            line[len] = '\0';
            free(demangle_name(line, NULL));
        }
    }
    fclose(f);
    size_t n = 200000;
    char *deep = malloc(n + 8);
    memcpy(deep, "_Z1f", 4);
    memset(deep + 4, 'P', n);
    strcpy(deep + 4 + n, "i");
    ck_assert_ptr_null(demangle_name(deep, NULL));
    for (size_t i = 0; i < n; i += 2)        /* templates in templates: I ... E */
        deep[4 + i] = 'I', deep[5 + i] = 'E';
    free(demangle_name(deep, NULL));
    memset(deep + 4, 'I', n);                /* a list never closed */
    free(demangle_name(deep, NULL));
    deep[4] = 'I';                           /* packs in packs */
    memset(deep + 5, 'J', n - 1);
    free(demangle_name(deep, NULL));
    free(deep);
    char *s = demangle_name("_Z1fPPPPPPPPi", NULL);
    ck_assert_str_eq(s, "f(int********)");
    free(s);
}
END_TEST

/* Four kernels; entry_choose's answer for query, or its message. */
static const char *const four_kernels =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry _Z6reduceIiLj4ELb1EEvPKT_PS0_j(.param .u64 a, .param .u64 b, .param .u32 c) { ret; }\n"
    ".visible .entry _Z6reduceIiLj4ELb0EEvPKT_PS0_j(.param .u64 a, .param .u64 b, .param .u32 c) { ret; }\n"
    ".visible .entry _Z6reduceIfLj4ELb1EEvPKT_PS0_j(.param .u64 a, .param .u64 b, .param .u32 c) { ret; }\n"
    ".visible .entry reduce_c(.param .u64 a) { ret; }\n";

static char *choose(const char *query, bool *ok)
{
    Parsed *p = parse_ok(four_kernels);
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    const char *name = NULL;
    *ok = entry_choose(p->m, query, &name, err);
    fclose(err);
    char *answer = *ok ? strdup(name ? name : "(none)") : text;
    if (*ok)
        free(text);
    parsed_free(p);
    return answer;
}

static void chooses(const char *query, const char *kernel)
{
    bool ok;
    char *got = choose(query, &ok);
    ck_assert_msg(ok && !strcmp(got, kernel), "'%s' chose '%s', not %s", query, got, kernel);
    free(got);
}

static void refuses(const char *query, const char *message)
{
    bool ok;
    char *got = choose(query, &ok);
    ck_assert_msg(!ok && strstr(got, message), "'%s': '%s' has no '%s'", query ? query : "(none)", got, message);
    free(got);
}

START_TEST(a_kernel_by_its_cxx_name)
{
    chooses("_Z6reduceIiLj4ELb0EEvPKT_PS0_j", "_Z6reduceIiLj4ELb0EEvPKT_PS0_j");
    chooses("void reduce<int, 4u, false>(int const*, int*, unsigned int)", "_Z6reduceIiLj4ELb0EEvPKT_PS0_j");
    chooses("reduce<int, 4u, false>(int const*, int*, unsigned int)", "_Z6reduceIiLj4ELb0EEvPKT_PS0_j");
    chooses("reduce<int,4u,false>(int const*,int*,unsigned int)", "_Z6reduceIiLj4ELb0EEvPKT_PS0_j");
    chooses("reduce<int, 4u, false>", "_Z6reduceIiLj4ELb0EEvPKT_PS0_j");
    chooses("reduce<float", "_Z6reduceIfLj4ELb1EEvPKT_PS0_j");
    chooses("reduce_c", "reduce_c");
    chooses("reduce_", "reduce_c");          /* the only start; it ends inside a word */
    chooses("void reduce<f", "_Z6reduceIfLj4ELb1EEvPKT_PS0_j");
    refuses("reduce", "'reduce' could be any of 3 kernels");   /* ends a word in three: not reduce_c */
    refuses("reduce<int", "could be any of 2 kernels");
    refuses("reduce<int, 4u, true>(int const* , int*, unsignedint)", "no kernel (.entry) named");
    refuses("nope", "no kernel (.entry) named 'nope'; the module's kernels:\n"
                    "  reduce<int, 4u, true>(int const*, int*, unsigned int)  (_Z6reduceIiLj4ELb1EEvPKT_PS0_j)\n");
    refuses(NULL, "the module has 4 kernels; choose one with --entry:\n");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("demangle");
    TCase *tc = tcase_create("against c++filt");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, as_cxxfilt_writes_them);
    tcase_add_test(tc, what_it_does_not_read_stays_mangled);
    tcase_add_test(tc, no_input_breaks_it);
    suite_add_tcase(s, tc);
    TCase *entry = tcase_create("choosing a kernel");
    tcase_add_test(entry, a_kernel_by_its_cxx_name);
    suite_add_tcase(s, entry);
    return run_suite(s);
}
