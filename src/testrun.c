/* testrun.c: `ptxrun test [DIR|FILE]...`, the regression runner.
 *
 * A case is a NAME...ptx file. Beside it, NAME.lanes.json gives its input and NAME.expect.json
 * its expected final state (NAME is the file name up to its first dot, so kernel.sm_75.ptx and
 * kernel.sm_90.ptx share kernel.lanes.json). The expect file may also say
 *     "exit": 2                     the exit code the case must end with (default 0)
 *     "diagnostic": "text"          text that must appear in its messages
 *     "entry": "name"               the kernel to run
 * A .ptx file without an expect file must pass --check. Cases run in parallel, one process
 * each (a crash fails its case, not the run); results are printed in file order.
 * Requires: driver_run (driver.c). */
#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ptxrun.h"

enum { MAX_SHOWN_LINES = 20 };

typedef struct Case {
    char *ptx;                 /* the file */
    char *lanes, *expect;      /* companions, or NULL */
    char *entry;               /* from the expect file */
    char *diagnostic;          /* text the messages must contain */
    int want_exit;
    int got_exit;
    char *output;              /* what the run printed on its error stream */
    char result_path[64];      /* where the child leaves it */
    pid_t pid;
    double seconds;
    bool passed;
    char why[256];             /* the first line of the failure */
} Case;

typedef struct CaseList {
    Case *items;
    uint32_t count, capacity;
} CaseList;

typedef struct TestOptions {
    int jobs;
    bool tap;
    const char *junit;
} TestOptions;

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* dir/NAME.suffix where NAME is the file name of ptx up to its first dot. */
static char *companion(const char *ptx, const char *suffix)
{
    const char *base = strrchr(ptx, '/');
    base = base ? base + 1 : ptx;
    size_t dir_len = (size_t)(base - ptx), name_len = strcspn(base, ".");
    char *path = xmalloc(dir_len + name_len + strlen(suffix) + 1);
    memcpy(path, ptx, dir_len + name_len);
    strcpy(path + dir_len + name_len, suffix);
    if (exists(path))
        return path;
    free(path);
    return NULL;
}

static void add_case(CaseList *list, const char *ptx)
{
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? 2 * list->capacity : 64;
        list->items = xrealloc(list->items, list->capacity * sizeof *list->items);
    }
    Case *c = &list->items[list->count++];
    memset(c, 0, sizeof *c);
    c->ptx = xstrdup(ptx);
    c->lanes = companion(ptx, ".lanes.json");
    c->expect = companion(ptx, ".expect.json");
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .ptx below dir, in name order. */
static void discover(CaseList *list, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        names = xrealloc(names, (count + 1) * sizeof *names);
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        names[count] = xmalloc(n);
        snprintf(names[count++], n, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(names, count, sizeof *names, by_name);
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode))
            discover(list, names[i]);
        else if (ends_with(names[i], ".ptx"))
            add_case(list, names[i]);
        free(names[i]);
    }
    free(names);
}

/* exit, diagnostic and entry from the expect file; false with a reason if it is unreadable. */
static bool read_expectations(Case *c)
{
    c->want_exit = 0;
    if (!c->expect)
        return true;
    json_error_t e;
    json_t *root = json_load_file(c->expect, JSON_REJECT_DUPLICATES, &e);
    if (!root) {
        snprintf(c->why, sizeof c->why, "%s:%d: %s", c->expect, e.line, e.text);
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
    json_decref(root);
    return true;
}

/* In the child: run the case, leave the exit code and the messages in the result file. */
static _Noreturn void run_child(const Case *c)
{
    FILE *result = fopen(c->result_path, "w");
    FILE *out = fopen("/dev/null", "w");
    if (!result || !out)
        _exit(127);
    RunOptions o;
    memset(&o, 0, sizeof o);
    o.path = c->ptx;
    o.mode = c->expect ? MODE_RUN : MODE_CHECK;
    o.lanes = c->lanes;
    o.expect = c->expect;
    o.entry = c->entry;
    o.no_warnings = !c->diagnostic;          /* a case that names a warning sees them */
    o.check.warn_deprecated = false;
    o.exec.max_steps = 100000000;
    fputs("      \n", result);                   /* room for the exit code */
    int rc = driver_run(&o, out, result);
    fflush(result);
    fseek(result, 0, SEEK_SET);
    fprintf(result, "%d", rc);
    fclose(result);
    fclose(out);
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

static void judge(Case *c, int status)
{
    char *text = read_file(c->result_path);
    unlink(c->result_path);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !text) {
        snprintf(c->why, sizeof c->why, "ptxrun crashed (%s %d)", WIFSIGNALED(status) ? "signal" : "status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        c->got_exit = -1;
        free(text);
        c->output = xstrdup("");
        return;
    }
    c->got_exit = atoi(text);
    char *body = strchr(text, '\n');
    c->output = xstrdup(body ? body + 1 : "");
    free(text);
    bool diag_ok = !c->diagnostic || strstr(c->output, c->diagnostic);
    c->passed = c->got_exit == c->want_exit && diag_ok;
    if (c->passed)
        return;
    const char *first = c->output;
    while (*first == '\n')
        first++;
    size_t n = strcspn(first, "\n");
    if (c->got_exit != c->want_exit)
        snprintf(c->why, sizeof c->why, "exit %d, expected %d: %.*s", c->got_exit, c->want_exit,
                 (int)(n < 180 ? n : 180), first);
    else
        snprintf(c->why, sizeof c->why, "the messages do not contain \"%.100s\"", c->diagnostic);
}

/* Runs every case, at most jobs at a time. */
static void run_all(CaseList *list, int jobs)
{
    uint32_t next = 0, running = 0, done = 0;
    while (done < list->count) {
        while (running < (uint32_t)jobs && next < list->count) {
            Case *c = &list->items[next++];
            if (!read_expectations(c)) {
                c->got_exit = -1;
                c->output = xstrdup("");
                done++;
                continue;
            }
            snprintf(c->result_path, sizeof c->result_path, "/tmp/ptxrun-test-%ld-%u", (long)getpid(), next);
            c->seconds = now();
            fflush(NULL);
            c->pid = fork();
            if (c->pid == 0)
                run_child(c);
            if (c->pid < 0) {
                snprintf(c->why, sizeof c->why, "cannot start a process");
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
            Case *c = &list->items[i];
            if (c->pid == pid) {
                c->seconds = now() - c->seconds;
                c->pid = 0;
                judge(c, status);
                break;
            }
        }
        running--;
        done++;
    }
}

/* ---- reports ---- */

static void print_plain(const CaseList *list)
{
    for (uint32_t i = 0; i < list->count; i++) {
        const Case *c = &list->items[i];
        if (!c->passed)
            printf("FAIL %s: %s\n", c->ptx, c->why);
    }
}

static void print_tap(const CaseList *list)
{
    printf("TAP version 13\n1..%u\n", list->count);
    for (uint32_t i = 0; i < list->count; i++) {
        const Case *c = &list->items[i];
        printf("%s %u - %s\n", c->passed ? "ok" : "not ok", i + 1, c->ptx);
        if (c->passed)
            continue;
        printf("  ---\n  message: \"");
        for (const char *p = c->why; *p; p++)
            printf(*p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
        printf("\"\n  exit: %d\n  expected_exit: %d\n  ...\n", c->got_exit, c->want_exit);
    }
}

static void xml_text(FILE *f, const char *s, size_t limit)
{
    for (size_t i = 0; s[i] && i < limit; i++) {
        unsigned char ch = (unsigned char)s[i];
        switch (ch) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if (ch < 0x20 && ch != '\n' && ch != '\t')
                fputc('?', f);                 /* not allowed in XML 1.0 */
            else
                fputc(ch, f);
        }
    }
}

static bool write_junit(const CaseList *list, const char *path, unsigned failed, double seconds)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"%u\" failures=\"%u\">\n", list->count,
            failed);
    fprintf(f, "  <testsuite name=\"ptxrun\" tests=\"%u\" failures=\"%u\" errors=\"0\" time=\"%.3f\">\n", list->count,
            failed, seconds);
    for (uint32_t i = 0; i < list->count; i++) {
        const Case *c = &list->items[i];
        fputs("    <testcase classname=\"ptxrun\" name=\"", f);
        xml_text(f, c->ptx, 1000);
        fprintf(f, "\" time=\"%.3f\"", c->seconds > 0 ? c->seconds : 0);
        if (c->passed) {
            fputs("/>\n", f);
            continue;
        }
        fputs(">\n      <failure message=\"", f);
        xml_text(f, c->why, sizeof c->why);
        fputs("\">", f);
        xml_text(f, c->output ? c->output : "", 20000);
        fputs("</failure>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    return fclose(f) == 0;
}

static const char test_usage[] =
    "usage: ptxrun test [options] [DIR|FILE.ptx]...   (default: the current directory)\n"
    "  -j N, --jobs N   run N cases at once (default: the number of processors)\n"
    "  --tap            write TAP version 13 to standard output\n"
    "  --junit FILE     also write JUnit XML to FILE\n";

int test_main(int argc, char **argv)
{
    TestOptions o = { (int)sysconf(_SC_NPROCESSORS_ONLN), false, NULL };
    if (o.jobs < 1)
        o.jobs = 1;
    CaseList list = { 0 };
    bool any_path = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *value = NULL;
        if (!strncmp(a, "--jobs=", 7) || !strncmp(a, "--junit=", 8)) {
            value = strchr(a, '=') + 1;
        } else if ((!strcmp(a, "-j") || !strcmp(a, "--jobs") || !strcmp(a, "--junit")) && i + 1 < argc) {
            value = argv[++i];
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(test_usage, stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--tap")) {
            o.tap = true;
        } else if (!strncmp(a, "-j", 2) && a[2] && a[2] != '-') {
            o.jobs = atoi(a + 2);
        } else if (value && (!strncmp(a, "-j", 2) || !strncmp(a, "--jobs", 6))) {
            o.jobs = atoi(value);
        } else if (value) {
            o.junit = value;
        } else if (a[0] == '-') {
            fprintf(stderr, "ptxrun test: error: unknown option '%s'\n%s", a, test_usage);
            return EXIT_BAD_INPUT;
        } else {
            any_path = true;
            struct stat st;
            if (stat(a, &st) != 0) {
                fprintf(stderr, "ptxrun test: error: no file or directory '%s'\n", a);
                return EXIT_BAD_INPUT;
            }
            if (S_ISDIR(st.st_mode))
                discover(&list, a);
            else
                add_case(&list, a);
        }
        if (o.jobs < 1 || o.jobs > 1024) {
            fprintf(stderr, "ptxrun test: error: -j needs a number from 1 to 1024\n");
            return EXIT_BAD_INPUT;
        }
    }
    if (!any_path)
        discover(&list, ".");
    double start = now();
    run_all(&list, o.jobs);
    double seconds = now() - start;
    unsigned failed = 0;
    for (uint32_t i = 0; i < list.count; i++)
        failed += !list.items[i].passed;
    if (o.tap) {
        print_tap(&list);
        printf("# %u passed, %u failed\n", list.count - failed, failed);
    } else {
        print_plain(&list);
        printf("%u passed, %u failed\n", list.count - failed, failed);
    }
    int rc = failed ? EXIT_MISMATCH : EXIT_OK;
    if (o.junit && !write_junit(&list, o.junit, failed, seconds)) {
        fprintf(stderr, "ptxrun test: error: cannot write '%s'\n", o.junit);
        rc = EXIT_BAD_INPUT;
    }
    for (uint32_t i = 0; i < list.count; i++) {
        Case *c = &list.items[i];
        free(c->ptx);
        free(c->lanes);
        free(c->expect);
        free(c->entry);
        free(c->diagnostic);
        free(c->output);
    }
    free(list.items);
    return rc;
}
