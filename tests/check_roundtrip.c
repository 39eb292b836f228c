/* check_roundtrip.c: parse(print(parse(x))) == parse(x) for every .ptx file in the repository
 * (tests/ptx, samples, tests/kernels): the printed IR is valid PTX that decodes to the same program, and
 * printing it again changes nothing. PTXRUN_ROOT names the repository (make check sets it). */
#include <dirent.h>
#include <sys/stat.h>

#include "testutil.h"

static char *print_to_string(const Module *m, size_t *len)
{
    char *buf = NULL;
    FILE *out = open_memstream(&buf, len);
    ir_print_module(out, m);
    fclose(out);
    return buf;
}

static unsigned files_checked;

static void roundtrip_file(const char *path)
{
    Source src;
    Msg err = { 0 };
    ck_assert_msg(source_load(&src, path, &err) == 0, "%s", err.text);
    msg_free(&err);
    Captured cap = { .len = 0 };
    Diag diag;
    diag_init(&diag, &src, stderr);
    diag.emit = capture_diag;
    diag.context = &cap;
    Module *first = parse_module(&src, &diag);
    check_module(first, &diag, NULL);
    ck_assert_msg(diag.errors == 0, "%s:\n%s", path, cap.text);

    size_t len;
    char *printed = print_to_string(first, &len);
    Parsed *again = parse_text(printed, true);
    ck_assert_msg(again->diag.errors == 0, "%s: the printed IR does not parse back:\n%s", path, again->cap.text);
    char why[256] = "";
    ck_assert_msg(ir_equal(first, again->m, why, sizeof why), "%s: %s", path, why);
    size_t len2;
    char *printed2 = print_to_string(again->m, &len2);
    ck_assert_msg(len == len2 && memcmp(printed, printed2, len) == 0, "%s: printing is not stable", path);
    free(printed);
    free(printed2);
    parsed_free(again);
    module_free(first);
    source_free(&src);
    files_checked++;
}

static void walk(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        size_t n = strlen(e->d_name);
        if (S_ISDIR(st.st_mode))
            walk(path);
        else if (n > 4 && strcmp(e->d_name + n - 4, ".ptx") == 0)
            roundtrip_file(path);
    }
    closedir(d);
}

START_TEST(every_ptx_file_round_trips)
{
    const char *root = getenv("PTXRUN_ROOT");
    ck_assert_msg(root != NULL, "set PTXRUN_ROOT to the repository (make check does)");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/ptx", root);
    walk(dir);
    snprintf(dir, sizeof dir, "%s/samples", root);
    walk(dir);
    snprintf(dir, sizeof dir, "%s/tests/kernels", root);
    walk(dir);
    ck_assert_msg(files_checked >= 45, "only %u .ptx files found under %s", files_checked, root);
}
END_TEST

START_TEST(snippet_round_trips)
{
    Parsed *p = parse_ok("  shfl.sync.up.b32 Ry|p, Rx, 0x1, 0x0, 0xffffffff;\n@p add.f32 Rx, Ry, Rx;\n"
                         "@!p mov.b32 Ry, -0f3F800000;\n  add.f64 d, d, -2.5;\n  add.s32 i, i, 65536;\nL: bra L;\n");
    size_t len;
    char *printed = print_to_string(p->m, &len);
    ck_assert_str_eq(printed, "// registers: Ry .f32, Rx .f32, d .f64, i .s32, p .pred\n"
                              "shfl.sync.up.b32 Ry|p, Rx, 1, 0, 0xffffffff;\n"
                              "@p add.f32 Rx, Ry, Rx;\n"
                              "@!p mov.b32 Ry, 0fBF800000;\n"
                              "add.f64 d, d, 0dC004000000000000;\n"
                              "add.s32 i, i, 0x10000;\n"
                              "L:\n"
                              "bra L;\n");
    free(printed);
    parsed_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("roundtrip");
    TCase *tc = tcase_create("files");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_ptx_file_round_trips);
    tcase_add_test(tc, snippet_round_trips);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
