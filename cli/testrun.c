/* testrun.c: `ptxrun test [DIR|FILE]...`, the regression runner.
 *
 * A case is a NAME...ptx file. Beside it, NAME.lanes.json gives its input and NAME.expect.json
 * its expected final state (NAME is the file name up to its first dot, so kernel.sm_75.ptx and
 * kernel.sm_90.ptx share kernel.lanes.json); a file named for one of the case's tags,
 * kernel.debug.expect.json for kernel.sm_80.debug.ptx, comes first (testfind.c). The expect
 * file may also say
 *     "exit": 2                     the exit code the case must end with (default 0)
 *     "diagnostic": "text"          text that must appear in its messages
 *     "entry": "name"               the kernel to run
 *     "stdout": "text"              exactly what the kernel prints (printf)
 * A .ptx file without an expect file must pass --check. Cases run in parallel, one process
 * each (a crash fails its case, not the run); results are printed in file order.
 * --not-yet FILE names cases ("folder/NAME  reason" lines) that ptxrun refuses before running
 * ("cannot execute", exit 2): such a case is counted as not yet executable; if it runs, it fails.
 * A case refused so that is not listed is unsupported: neither passed nor failed, counted
 * apart, and it makes the run exit 1 as a failure does (docs/lanes-format.md).
 * Requires: driver_run (driver.c), testfind_cases (testfind.c: the cases and their companions). */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

enum { MAX_SHOWN_LINES = 20 };

typedef struct TestOptions {
    int jobs;
    bool tap;
    const char *junit;
    const char *not_yet;       /* the --not-yet file, or NULL */
    const char *differs;       /* the --differs file, or NULL */
    Shard shard;               /* --shard K/N or Bazel's environment; count 0: every case */
} TestOptions;

/* The cases a --not-yet or --differs file names, sorted by key. */
typedef struct Listed {
    char *key;                 /* "folder/NAME" */
    unsigned line;             /* where the file names it */
    Tolerance tol;             /* --differs: how far its values may be from the expected ones */
} Listed;

typedef struct Listing {
    Listed *items;
    uint32_t count;
} Listing;

/* exit, diagnostic and entry from the expect file; false with a reason if it is unreadable. */
static bool read_expectations(TestCase *c)
{
    c->want_exit = 0;
    if (!c->expect)
        return true;
    json_error_t e;
    FILE *f = fopen(c->expect, "rb");
    json_t *root = f ? values_load_json(f, &e) : NULL;
    if (!f)
        snprintf(e.text, sizeof e.text, "%s", strerror(errno));
    if (f)
        fclose(f);
    if (!f)
        e.line = 0;
    if (!root) {
        msg_set(&c->why, "%s:%d: %s", c->expect, e.line, e.text);
        return false;
    }
    json_t *v = json_object_get(root, "exit");
    if (json_is_integer(v))
        c->want_exit = (int)json_integer_value(v);
    v = json_object_get(root, "diagnostic");
    if (json_is_string(v))
        c->diagnostic = xstrdup(json_string_value(v));
    v = json_object_get(root, "entry");
    if (json_is_string(v))
        c->entry = xstrdup(json_string_value(v));
    v = json_object_get(root, "stdout");
    if (json_is_string(v))
        c->want_stdout = xstrdup(json_string_value(v));
    json_decref(root);
    return true;
}

/* In the child: run the case, leave the exit code and the messages in the result file. */
static _Noreturn void run_child(const TestCase *c)
{
    FILE *result = fopen(c->result_path, "w");
    FILE *out = fopen("/dev/null", "w");
    FILE *printed = c->want_stdout ? fopen(c->stdout_path, "w") : NULL;
    if (!result || !out || (c->want_stdout && !printed))
        _exit(127);
    RunOptions o;
    memset(&o, 0, sizeof o);
    o.path = c->ptx;
    o.mode = c->expect ? MODE_RUN : MODE_CHECK;
    o.lanes = c->lanes;
    o.expect = c->expect;
    o.entry = c->entry;
    o.no_warnings = !c->diagnostic;          /* a case that names a warning sees them */
    if (c->differs)
        o.tolerance = c->tol;
    o.check.warn_deprecated = false;
    o.exec.max_steps = 100000000;
    o.exec.stack_bytes = DEFAULT_STACK_BYTES;
    o.kernel_out = printed;
    fputs("      \n", result);                   /* room for the exit code */
    int rc = driver_run(&o, out, result);
    fflush(result);
    fseek(result, 0, SEEK_SET);
    fprintf(result, "%d", rc);
    fclose(result);
    fclose(out);
    if (printed)
        fclose(printed);
    _exit(0);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = xmalloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2)
            buf = xrealloc(buf, cap *= 2);
    }
    buf[len] = '\0';
    fclose(f);
    return buf;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Where the printed text first differs from the expected, as a reason. */
static void stdout_difference(TestCase *c, const char *got)
{
    size_t at = 0, line = 1;
    while (got[at] && got[at] == c->want_stdout[at])
        line += got[at++] == '\n';
    const char *want_line = c->want_stdout + at, *got_line = got + at;
    while (want_line > c->want_stdout && want_line[-1] != '\n')
        want_line--, got_line--;
    msg_set(&c->why, "stdout line %zu: expected \"%.*s\", got \"%.*s\"%s", line,
            (int)strcspn(want_line, "\n") < 100 ? (int)strcspn(want_line, "\n") : 100, want_line,
            (int)strcspn(got_line, "\n") < 100 ? (int)strcspn(got_line, "\n") : 100, got_line,
            !c->want_stdout[at] ? " (more than expected)" : !got[at] ? " (less than expected)" : "");
}

/* The refusal's message when ptxrun refused the case before running ("cannot execute", exit 2),
 * else NULL. */
static const char *refusal(const TestCase *c, size_t *len)
{
    const char *at = c->got_exit == EXIT_BAD_INPUT ? strstr(c->output, "cannot execute") : NULL;
    if (!at)
        return NULL;
    const char *line = at;
    while (line > c->output && line[-1] != '\n')
        line--;
    const char *message = strstr(line, "error: ");
    message = message && message < at ? message + strlen("error: ") : line;
    *len = strcspn(message, "\n");
    return message;
}

static void judge(TestCase *c, int status)
{
    char *text = read_file(c->result_path);
    unlink(c->result_path);
    char *printed = c->want_stdout ? read_file(c->stdout_path) : NULL;
    if (c->want_stdout)
        unlink(c->stdout_path);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !text) {
        msg_set(&c->why, "ptxrun crashed (%s %d)", WIFSIGNALED(status) ? "signal" : "status",
                WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        c->got_exit = -1;
        free(text);
        c->output = xstrdup("");
        free(printed);
        return;
    }
    c->got_exit = atoi(text);
    char *body = strchr(text, '\n');
    c->output = xstrdup(body ? body + 1 : "");
    free(text);
    bool diag_ok = !c->diagnostic || strstr(c->output, c->diagnostic);
    bool stdout_ok = !c->want_stdout || (printed && strcmp(printed, c->want_stdout) == 0);
    c->outcome = c->got_exit == c->want_exit && diag_ok && stdout_ok ? CASE_PASSED : CASE_FAILED;
    if (c->outcome == CASE_PASSED) {
        free(printed);
        return;
    }
    size_t len;
    const char *refused = c->want_exit != EXIT_BAD_INPUT ? refusal(c, &len) : NULL;
    if (refused) {
        c->outcome = CASE_UNSUPPORTED;
        msg_set(&c->why, "unsupported: %.*s", (int)(len < 200 ? len : 200), refused);
        free(printed);
        return;
    }
    const char *first = c->output;
    while (*first == '\n')
        first++;
    size_t n = strcspn(first, "\n");
    if (c->got_exit != c->want_exit)
        msg_set(&c->why, "exit %d, expected %d: %.*s", c->got_exit, c->want_exit,
                (int)(n < 180 ? n : 180), first);
    else if (!diag_ok)
        msg_set(&c->why, "the messages do not contain \"%.100s\"", c->diagnostic);
    else
        stdout_difference(c, printed ? printed : "");
    free(printed);
}

/* A listed case passes as not yet executable only if ptxrun refused it before running. */
static void judge_listed(TestCase *c, const char *not_yet_file)
{
    size_t len;
    const char *refused = refusal(c, &len);
    if (refused) {
        c->outcome = CASE_NOT_YET;
        msg_set(&c->why, "not yet executable: %.*s", (int)len, refused);
        return;
    }
    char *first = xstrdup(c->why.text ? c->why.text : "");
    if (c->outcome == CASE_PASSED)
        msg_set(&c->why, "listed in %s as not yet executable, but passes now: remove it from %s",
                not_yet_file, not_yet_file);
    else if (c->got_exit == EXIT_OK || c->got_exit == EXIT_MISMATCH)
        msg_set(&c->why, "wrong values (listed in %s as not yet executable, but it runs): %.150s",
                not_yet_file, first);
    else
        msg_set(&c->why, "listed in %s as not yet executable, but not refused with \"cannot execute\": "
                "%.150s", not_yet_file, first);
    free(first);
    c->outcome = CASE_FAILED;
}

/* A case known to differ passes only within its tolerance, and only while it still differs. */
static void judge_differs(TestCase *c, const char *differs_file)
{
    bool close = strstr(c->output, "within the tolerance") != NULL;
    if (c->outcome == CASE_PASSED && close) {
        c->outcome = CASE_CLOSE;
    } else if (c->outcome == CASE_PASSED) {
        msg_set(&c->why, "listed in %s as differing, but gives the expected bits now: remove it "
                "from %s", differs_file, differs_file);
        c->outcome = CASE_FAILED;
    } else {
        char *first = xstrdup(c->why.text ? c->why.text : "");
        msg_set(&c->why, "beyond its tolerance in %s: %.180s", differs_file, first);
        free(first);
    }
}

/* Runs every case, at most jobs at a time. */
static void run_all(TestCaseList *list, int jobs, const char *not_yet_file, const char *differs_file)
{
    uint32_t next = 0, running = 0, done = 0;
    Progress progress;
    progress_start(&progress, stderr, progress_mode(stderr));
    while (done < list->count) {
        progress_show(&progress, " test: %u/%u cases", done, list->count);
        while (running < (uint32_t)jobs && next < list->count) {
            TestCase *c = &list->items[next++];
            if (!read_expectations(c)) {
                c->got_exit = -1;
                c->output = xstrdup("");
                done++;
                continue;
            }
            snprintf(c->result_path, sizeof c->result_path, "/tmp/ptxrun-test-%ld-%u", (long)getpid(), next);
            snprintf(c->stdout_path, sizeof c->stdout_path, "%s.stdout", c->result_path);
            c->seconds = now();
            fflush(NULL);
            c->pid = fork();
            if (c->pid == 0)
                run_child(c);
            if (c->pid < 0) {
                msg_set(&c->why, "cannot start a process");
                c->output = xstrdup("");
                done++;
                continue;
            }
            running++;
        }
        if (!running)
            continue;
        int status;
        pid_t pid = wait(&status);
        if (pid < 0)
            break;
        for (uint32_t i = 0; i < list->count; i++) {
            TestCase *c = &list->items[i];
            if (c->pid == pid) {
                c->seconds = now() - c->seconds;
                c->pid = 0;
                judge(c, status);
                if (c->listed)
                    judge_listed(c, not_yet_file);
                else if (c->differs)
                    judge_differs(c, differs_file);
                break;
            }
        }
        running--;
        done++;
    }
    progress_erase(&progress);
}

/* ---- the --not-yet file ---- */

/* The folder a path's last component lies in, seen lexically ("a/b/./" is b, "a/b/.." is a);
 * a path that runs out of components goes on in cwd. Its length (0: none, at the root). */
static size_t parent_folder(const char *path, size_t len, const char *cwd, const char **start)
{
    unsigned up = 0;                           /* ".." components still to undo */
    for (int pass = 0; pass < 2; pass++) {
        while (len > 0) {
            size_t end = len;
            while (len > 0 && path[len - 1] != '/')
                len--;
            size_t n = end - len;
            const char *part = path + len;
            while (len > 0 && path[len - 1] == '/')
                len--;
            if (n == 0 || (n == 1 && part[0] == '.'))
                continue;
            if (n == 2 && part[0] == '.' && part[1] == '.')
                up++;
            else if (up > 0)
                up--;
            else {
                *start = part;
                return n;
            }
        }
        if (pass == 0 && path[0] == '/')
            break;                             /* absolute: no cwd to go on in */
        path = cwd;
        len = cwd ? strlen(cwd) : 0;
    }
    return 0;
}

/* "folder/NAME" for .../folder/NAME...ptx: how a --not-yet file names a case, so that one file
 * serves tests/hw/int and ../shared/hw/int alike. */
static char *case_key(const char *ptx, const char *cwd)
{
    const char *base = strrchr(ptx, '/');
    base = base ? base + 1 : ptx;
    size_t name_len = strcspn(base, ".");
    const char *folder = "";
    size_t folder_len = parent_folder(ptx, (size_t)(base - ptx), cwd, &folder);
    size_t n = folder_len + 1 + name_len + 1;
    char *key = xmalloc(n);
    snprintf(key, n, "%.*s/%.*s", (int)folder_len, folder, (int)name_len, base);
    return key;
}

static int by_key(const void *a, const void *b)
{
    const Listed *x = a, *y = b;
    int order = strcmp(x->key, y->key);
    return order ? order : (x->line > y->line) - (x->line < y->line);
}

static int key_order(const void *key, const void *item)
{
    return strcmp(key, ((const Listed *)item)->key);
}

static const Listed *listing_find(const Listing *n, const char *key)
{
    return n->count ? bsearch(key, n->items, n->count, sizeof *n->items, key_order) : NULL;
}

/* "ulps=N", "abs=E", "nan" or several joined by commas at the start of a --differs reason;
 * false if it is not there. */
static bool parse_tolerance(const char **text, Tolerance *tol)
{
    const char *p = *text;
    memset(tol, 0, sizeof *tol);
    for (;;) {
        char *end;
        if (!strncmp(p, "ulps=", 5) && p[5] >= '0' && p[5] <= '9') {
            errno = 0;
            unsigned long long n = strtoull(p + 5, &end, 10);
            if (n == 0 || errno)
                return false;
            tol->ulps = n;
            p = end;
        } else if (!strncmp(p, "abs=", 4) && ((p[4] >= '0' && p[4] <= '9') || p[4] == '.')) {
            double e = strtod(p + 4, &end);
            if (!(e > 0 && e < 1))
                return false;
            tol->abs_err = e;
            p = end;
        } else if (!strncmp(p, "nan", 3)) {
            tol->any_nan = true;
            p += 3;
        } else {
            return false;
        }
        if (*p != ',')
            break;
        p++;
    }
    if (*p != ' ' && *p != '\t')
        return false;
    *text = p + strspn(p, " \t");
    return true;
}

/* The key of one line, "folder/NAME  reason" (--differs: "folder/NAME  TOLERANCE  reason");
 * NULL (with the reason in why) when malformed. */
static char *parse_listing_line(const char *line, Tolerance *tol, const char **why)
{
    size_t key_len = strcspn(line, " \t");
    const char *slash = memchr(line, '/', key_len);
    const char *name = slash ? slash + 1 : line + key_len;
    size_t name_len = (size_t)(line + key_len - name);
    const char *reason = line + key_len + strspn(line + key_len, " \t");
    if (!slash || slash == line || name_len == 0 || memchr(name, '/', name_len)) {
        *why = "expected 'folder/NAME  reason'";
        return NULL;
    }
    if (memchr(name, '.', name_len)) {
        *why = "a case is named without its suffix (folder/NAME, not folder/NAME.ptx)";
        return NULL;
    }
    if (tol && !parse_tolerance(&reason, tol)) {
        *why = "expected 'folder/NAME  TOLERANCE  reason', TOLERANCE one or more of ulps=N, abs=E (below 1), "
               "nan joined by commas";
        return NULL;
    }
    if (*reason == '\0') {
        *why = "expected a reason after the case name";
        return NULL;
    }
    char *key = xmalloc(key_len + 1);
    memcpy(key, line, key_len);
    key[key_len] = '\0';
    return key;
}

static void listing_free(Listing *n)
{
    for (uint32_t i = 0; i < n->count; i++)
        free(n->items[i].key);
    free(n->items);
    memset(n, 0, sizeof *n);
}

/* Reads a --not-yet file ("folder/NAME  reason" lines) or, with tolerances, a --differs file;
 * '#' comments and blank lines are skipped. */
static bool listing_load(const char *path, bool tolerances, Listing *n)
{
    memset(n, 0, sizeof *n);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "ptxrun test: error: cannot open '%s': %s\n", path, strerror(errno));
        return false;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    unsigned number = 0;
    bool ok = true;
    while (ok && (len = getline(&line, &cap, f)) >= 0) {
        number++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        const char *text = line + strspn(line, " \t");
        if (*text == '\0' || *text == '#')
            continue;
        const char *why = NULL;
        Tolerance tol = { 0, 0, false };
        char *key = parse_listing_line(text, tolerances ? &tol : NULL, &why);
        if (!key) {
            fprintf(stderr, "%s:%u: error: %s\n", path, number, why);
            ok = false;
            break;
        }
        n->items = xrealloc(n->items, (n->count + 1) * sizeof *n->items);
        n->items[n->count++] = (Listed){ key, number, tol };
    }
    free(line);
    fclose(f);
    if (ok && n->count) {
        qsort(n->items, n->count, sizeof *n->items, by_key);
        for (uint32_t i = 1; i < n->count && ok; i++)
            if (!strcmp(n->items[i - 1].key, n->items[i].key)) {
                fprintf(stderr, "%s:%u: error: '%s' is listed twice (first at line %u)\n", path, n->items[i].line,
                        n->items[i].key, n->items[i - 1].line);
                ok = false;
            }
    }
    if (!ok)
        listing_free(n);
    return ok;
}

static void mark_listed(TestCaseList *list, const Listing *not_yet, const Listing *differs)
{
    char cwd_buffer[PATH_MAX];
    const char *cwd = getcwd(cwd_buffer, sizeof cwd_buffer);
    for (uint32_t i = 0; i < list->count; i++) {
        TestCase *c = &list->items[i];
        char *key = case_key(c->ptx, cwd);
        c->listed = listing_find(not_yet, key) != NULL;
        const Listed *d = c->listed ? NULL : listing_find(differs, key);
        c->differs = d != NULL;
        if (d)
            c->tol = d->tol;
        free(key);
    }
}

/* ---- options ---- */

static const char test_usage[] =
    "usage: ptxrun test [options] [DIR|FILE.ptx]...   (default: the current directory)\n"
    "  -j N, --jobs N   run N cases at once (default: the number of processors)\n"
    "  --tap            write TAP version 13 to standard output\n"
    "  --junit FILE     also write JUnit XML to FILE\n"
    "  --not-yet FILE   cases (folder/NAME lines) ptxrun refuses yet: counted as not yet\n"
    "                   executable while refused (\"cannot execute\"); failed if they run\n"
    "  --differs FILE   cases (folder/NAME ulps=N,abs=E,nan lines) known to differ from their\n"
    "                   expected values: passed within that tolerance, failed beyond it or once exact\n"
    "  --shard K/N      run shard K of N (K from 1): the cases whose number in byte order of their\n"
    "                   paths, counted from 0, is K - 1 mod N (Bazel: TEST_TOTAL_SHARDS, TEST_SHARD_INDEX)\n"
    "On a terminal, standard error shows how many cases are done once the run passes a second.\n";

/* Options into o and cases into list; returns -1 to go on, or the exit code. */
static int parse_test_args(int argc, char **argv, TestOptions *o, TestCaseList *list, const char **paths)
{
    int path_count = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *value;
        bool missing = false;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(test_usage, stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--tap")) {
            o->tap = true;
        } else if (!strncmp(a, "-j", 2) && a[2] && a[2] != '-') {
            o->jobs = atoi(a + 2);
        } else if ((value = util_option_value(a, "-j", argc, argv, &i, &missing)) ||
                   (value = util_option_value(a, "--jobs", argc, argv, &i, &missing))) {
            o->jobs = atoi(value);
        } else if ((value = util_option_value(a, "--junit", argc, argv, &i, &missing))) {
            o->junit = value;
        } else if ((value = util_option_value(a, "--not-yet", argc, argv, &i, &missing))) {
            o->not_yet = value;
        } else if ((value = util_option_value(a, "--differs", argc, argv, &i, &missing))) {
            o->differs = value;
        } else if ((value = util_option_value(a, "--shard", argc, argv, &i, &missing))) {
            Msg err = { 0 };
            if (!testshard_parse(value, &o->shard, &err)) {
                fprintf(stderr, "ptxrun test: error: %s\n", err.text);
                msg_free(&err);
                return EXIT_BAD_INPUT;
            }
        } else if (missing) {
            fprintf(stderr, "ptxrun test: error: '%s' needs a value\n", a);
            return EXIT_BAD_INPUT;
        } else if (a[0] == '-') {
            fprintf(stderr, "ptxrun test: error: unknown option '%s'\n%s", a, test_usage);
            return EXIT_BAD_INPUT;
        } else {
            paths[path_count++] = a;
        }
        if (o->jobs < 1 || o->jobs > 1024) {
            fprintf(stderr, "ptxrun test: error: -j needs a number from 1 to 1024\n");
            return EXIT_BAD_INPUT;
        }
    }
    if (!path_count)
        paths[path_count++] = ".";
    return testfind_cases(list, paths, path_count);
}

static void free_case(TestCase *c)
{
    free(c->ptx);
    free(c->lanes);
    free(c->expect);
    free(c->entry);
    free(c->diagnostic);
    free(c->want_stdout);
    free(c->output);
    msg_free(&c->why);
}

static void free_cases(TestCaseList *list)
{
    for (uint32_t i = 0; i < list->count; i++)
        free_case(&list->items[i]);
    free(list->items);
}

int test_main(int argc, char **argv)
{
    TestOptions o = { (int)sysconf(_SC_NPROCESSORS_ONLN), false, NULL, NULL, NULL, { 0, 0 } };
    if (o.jobs < 1)
        o.jobs = 1;
    TestCaseList list = { 0 };
    Listing not_yet = { 0 }, differs = { 0 };
    const char **paths = xmalloc((size_t)argc * sizeof *paths);   /* room for every argument */
    int rc = parse_test_args(argc, argv, &o, &list, paths);
    free(paths);
    Msg err = { 0 };
    if (rc < 0 && !testshard_environment(&o.shard, &err)) {
        fprintf(stderr, "ptxrun test: error: %s\n", err.text);
        rc = EXIT_BAD_INPUT;
    }
    msg_free(&err);
    if (rc < 0 && o.not_yet && !listing_load(o.not_yet, false, &not_yet))
        rc = EXIT_BAD_INPUT;
    if (rc < 0 && o.differs && !listing_load(o.differs, true, &differs))
        rc = EXIT_BAD_INPUT;
    if (rc >= 0) {
        free_cases(&list);
        listing_free(&not_yet);
        return rc;
    }
    testshard_select(&list, &o.shard, free_case);
    mark_listed(&list, &not_yet, &differs);
    double start = now();
    run_all(&list, o.jobs, o.not_yet, o.differs);
    double seconds = now() - start;
    unsigned failed = 0, refused = 0, close = 0, unsupported = 0;
    for (uint32_t i = 0; i < list.count; i++) {
        failed += list.items[i].outcome == CASE_FAILED;
        unsupported += list.items[i].outcome == CASE_UNSUPPORTED;
        refused += list.items[i].outcome == CASE_NOT_YET;
        close += list.items[i].outcome == CASE_CLOSE;
    }
    if (o.tap)
        testreport_tap(&list);
    else
        testreport_plain(&list);
    printf("%s%u passed, %u failed", o.tap ? "# " : "", list.count - failed - refused - unsupported, failed);
    if (unsupported)
        printf(", %u unsupported", unsupported);
    if (o.not_yet)
        printf(", %u not yet executable", refused);
    if (o.differs)
        printf(", %u of them within a tolerance", close);
    putchar('\n');
    rc = failed || unsupported ? EXIT_MISMATCH : EXIT_OK;
    if (o.junit && !testreport_junit(&list, o.junit, failed, refused + unsupported, seconds)) {
        fprintf(stderr, "ptxrun test: error: cannot write '%s': %s\n", o.junit, strerror(errno));
        rc = EXIT_BAD_INPUT;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {   /* a report that did not reach its reader */
        fprintf(stderr, "ptxrun test: error: cannot write the report: %s\n", strerror(errno));
        rc = EXIT_BAD_INPUT;
    }
    free_cases(&list);
    listing_free(&not_yet);
    listing_free(&differs);
    return rc;
}
