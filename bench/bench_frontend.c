/* bench_frontend.c: front-end throughput. Builds one large, valid module from the nvcc corpus
 * (each sm_90 -O3 file copied many times, its kernels, functions and globals renamed per
 * copy), writes it to build/bench_corpus.ptx for comparison with ptxas, then times, in this
 * process (best of several runs), lexing alone, lexing and parsing alone (each function let go
 * as it ends, as --check streams them), and lex + parse + check of the whole module; then
 * runs `PTXRUN --check -j1` and `PTXRUN --check` (its default: two readers, on two threads, where
 * there are two processors) on the file (best of several each, their median shown) and measures the process's peak memory
 * (getrusage RUSAGE_CHILDREN's ru_maxrss, the largest of the children waited for so far: the
 * -j1 runs come first; everything, the source text, every thread and the executable included)
 * per byte. Each target is a ratio: --check's rate at least CHECK_SHARE of plain C splitting
 * the same text into words (reference.c) in the same run (issue 15's 100 MB/s against the
 * 2.49 GB/s that plain C gave on an idle machine where it was restated so, issue 33; 1.3 GB/s
 * read on a busy one first gave 1/13, which --check at 176 MB/s missed), its memory at most 4 bytes
 * per byte of PTX.
 * usage: bench_frontend OUT.ptx PTXRUN FILE.ptx...   (files that are not sm_90 -O3 are skipped) */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "parser.h"
#include "reference.h"

/* The ptxrun runs are more: on a machine shared with others (CI's, a cloud VM) one run in three
 * may be slowed by a third; their median is printed too. */
enum { TARGET_BYTES = 50 * 1000 * 1000, RUNS = 3, CHECK_RUNS = 7, CHECK_LIMIT = 20 };
static const double CHECK_SHARE = 1.0 / 25;

typedef struct Buffer {
    char *data;
    size_t len, cap;
} Buffer;

static void append(Buffer *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->data = xrealloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* Appends text with every token that starts with one of names[] given a suffix after the name,
 * and without its .version/.target/.address_size lines. */
static void append_renamed(Buffer *out, const char *text, const char **names, size_t count, unsigned copy)
{
    char suffix[32];
    int suffix_len = snprintf(suffix, sizeof suffix, "_c%u", copy);
    const char *p = text;
    while (*p) {
        if (p == text || p[-1] == '\n') {
            if (!strncmp(p, ".version", 8) || !strncmp(p, ".target", 7) || !strncmp(p, ".address_size", 13)) {
                p += strcspn(p, "\n");
                continue;
            }
        }
        if (!ident_char(*p) || (p > text && ident_char(p[-1]))) {
            append(out, p++, 1);
            continue;
        }
        size_t best = 0;
        for (size_t i = 0; i < count; i++) {
            size_t n = strlen(names[i]);
            if (n > best && strncmp(p, names[i], n) == 0)
                best = n;
        }
        size_t token = 0;
        while (ident_char(p[token]))
            token++;
        append(out, p, best ? best : token);
        if (best) {
            append(out, suffix, (size_t)suffix_len);
            append(out, p + best, token - best);
        }
        p += token;
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Runs ptxrun --check path (with jobs, "-j1", or NULL: its default) with its output discarded,
 * stopped after `limit` seconds; its wall time, the peak memory in KiB of every child so far and
 * whether it finished (exit 0). */
static bool run_check(const char *ptxrun, const char *jobs, const char *path, double limit, double *seconds,
                      long *max_rss_kb, bool *finished)
{
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        if (jobs)
            execl(ptxrun, ptxrun, "--check", jobs, path, (char *)NULL);
        else
            execl(ptxrun, ptxrun, "--check", path, (char *)NULL);
        _exit(127);
    }
    if (pid < 0)
        return false;
    int status;
    pid_t got;
    *finished = true;
    while ((got = waitpid(pid, &status, WNOHANG)) == 0) {
        if (now() - t0 > limit) {
            kill(pid, SIGKILL);
            *finished = false;
            got = waitpid(pid, &status, 0);
            break;
        }
        struct timespec pause = { 0, 5 * 1000 * 1000 };
        nanosleep(&pause, NULL);
    }
    struct rusage ru;
    if (got != pid || getrusage(RUSAGE_CHILDREN, &ru) != 0)
        return false;
    *seconds = now() - t0;
    *max_rss_kb = ru.ru_maxrss;
    return !*finished || (WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void ignore_diag(void *context, Diag *diag, DiagLevel level, Span at, const char *message)
{
    (void)context; (void)diag; (void)level; (void)at; (void)message;
}

static StreamVerdict let_go(void *context, Module *m, Function *f)
{
    (void)context; (void)m; (void)f;
    return STREAM_DROP;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Seconds (best of RUNS) to lex the text (counting *tokens), or (parse) to lex and parse it,
 * each function let go: the times --check cannot go below (it adds checking and lowering). */
static double time_stage(const Buffer *big, const char *name, bool parse, uint32_t *tokens)
{
    double best = 1e30;
    for (int run = 0; run < RUNS; run++) {
        Source src;
        source_from_string(&src, name, big->data, big->len);
        Diag diag;
        diag_init(&diag, &src, stderr);
        diag.emit = ignore_diag;
        double t0 = now();
        if (parse) {
            StreamHook hook = { let_go, NULL, NULL };
            bool stopped;
            module_free(parse_module_stream(&src, &diag, &hook, &stopped));
        } else {
            Arena arena = { 0 };
            Lexer lx;
            lex_init(&lx, &src, &diag, &arena);
            YYSTYPE value;
            Span at;
            *tokens = 0;
            while (lex_next(&lx, &value, &at) != T_EOF)
                ++*tokens;
            arena_free(&arena);
        }
        double t = now() - t0;
        best = t < best ? t : best;
        source_free(&src);
    }
    return best;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_frontend OUT.ptx PTXRUN FILE.ptx...\n");
        return 2;
    }
    Buffer big = { 0 };
    const char *header = ".version 9.0\n.target sm_90\n.address_size 64\n\n";
    append(&big, header, strlen(header));
    unsigned used_files = 0;
    for (unsigned copy = 0; big.len < TARGET_BYTES; copy++) {
        for (int i = 3; i < argc && big.len < TARGET_BYTES; i++) {
            size_t n = strlen(argv[i]);
            if (n < 10 || strcmp(argv[i] + n - 10, ".sm_90.ptx") != 0)
                continue;
            Source src;
            Msg err = { 0 };
            if (source_load(&src, argv[i], &err) != 0) {
                fprintf(stderr, "%s\n", err.text);
                return 2;
            }
            Diag diag;
            diag_init(&diag, &src, stderr);
            Module *m = parse_module(&src, &diag);
            const char **names = xmalloc((m->functions.len + m->globals.len + 1) * sizeof *names);
            size_t count = 0;
            bool external = false;
            for (uint32_t f = 0; f < m->functions.len; f++) {
                external |= (m->functions.data[f]->linkage & LINK_EXTERN) != 0;
                names[count++] = m->functions.data[f]->name;
            }
            for (uint32_t g = 0; g < m->globals.len; g++)
                names[count++] = m->globals.data[g].name;
            /* Files that call external functions (vprintf) would declare them many times. */
            if (!external && diag.errors == 0) {
                append_renamed(&big, src.text, names, count, copy);
                used_files += copy == 0;
            }
            free(names);
            module_free(m);
            source_free(&src);
        }
        if (used_files == 0) {
            fprintf(stderr, "bench_frontend: no usable .sm_90.ptx files given\n");
            return 2;
        }
    }
    FILE *out = fopen(argv[1], "wb");
    if (!out || fwrite(big.data, 1, big.len, out) != big.len || fclose(out) != 0) {
        fprintf(stderr, "bench_frontend: cannot write %s\n", argv[1]);
        return 2;
    }

    double mb = (double)big.len / 1e6;
    double best = 1e30;
    uint32_t instructions = 0;
    for (int run = 0; run < RUNS; run++) {
        Source src;
        source_from_string(&src, argv[1], big.data, big.len);
        Diag diag;
        diag_init(&diag, &src, stderr);
        diag.emit = ignore_diag;
        double t0 = now();
        Module *m = parse_module(&src, &diag);
        check_module(m, &diag, NULL);
        double t = now() - t0;
        if (diag.errors) {
            fprintf(stderr, "bench_frontend: the generated module has %u errors (see ptxrun --check %s)\n",
                    diag.errors, argv[1]);
            return 1;
        }
        instructions = 0;
        for (uint32_t f = 0; f < m->functions.len; f++)
            instructions += m->functions.data[f]->code.len;
        if (t < best)
            best = t;
        module_free(m);
        source_free(&src);
    }
    printf("front end (lex + parse + check): %.1f MB of PTX from %u nvcc files, %u instructions\n", mb,
           used_files, instructions);
    printf("front end: %.3f s best of %d, %.1f MB/s, %.2f M instructions/s\n", best, RUNS, mb / best,
           instructions / best / 1e6);
    uint32_t tokens = 0;
    double lex = time_stage(&big, argv[1], false, &tokens), parse = time_stage(&big, argv[1], true, NULL);
    printf("front end: lexing alone %.3f s, %.0f MB/s (%u tokens); lexing and parsing alone (re2c and bison, "
           "with the IR built) %.3f s, %.1f MB/s\n", lex, mb / lex, tokens, parse, mb / parse);
    double plain = 1e30;
    uint64_t words = 0;
    for (int run = 0; run < RUNS; run++) {
        double p = ref_words(big.data, big.len, &words);
        plain = p < plain ? p : plain;
    }
    printf("front end: plain C splitting it into words (the reference) %.3f s, %.0f MB/s (%llu words)\n", plain,
           mb / plain, (unsigned long long)words);
    long processors = sysconf(_SC_NPROCESSORS_ONLN);
    for (int pass = 0; pass < 2; pass++) {
        const char *jobs = pass == 0 ? "-j1" : NULL;
        double check_best = 1e30, times[CHECK_RUNS];
        long rss_kb = 0;
        bool finished = true;
        int runs = 0;
        for (; runs < CHECK_RUNS && finished; runs++) {
            if (!run_check(argv[2], jobs, argv[1], CHECK_LIMIT, &times[runs], &rss_kb, &finished)) {
                fprintf(stderr, "bench_frontend: %s --check %s failed\n", argv[2], argv[1]);
                return 1;
            }
            check_best = times[runs] < check_best ? times[runs] : check_best;
        }
        qsort(times, (size_t)runs, sizeof *times, by_value);
        char target[96] = "";
        if (!jobs)
            snprintf(target, sizeof target, " (target: at least 1/%.0f of plain C's: %s)", 1 / CHECK_SHARE,
                     finished && check_best <= plain / CHECK_SHARE ? "met" : "NOT met");
        char which[96];
        if (jobs)
            snprintf(which, sizeof which, "ptxrun --check -j1 (one reader)");
        else
            snprintf(which, sizeof which, "ptxrun --check (%ld reader%s, its default)", processors < 2 ? processors : 2,
                     processors < 2 ? "" : "s");
        if (finished)
            printf("front end: %s of it: %.3f s best of %d (median %.3f s), %.1f MB/s%s; ", which, check_best, runs,
                   times[runs / 2], mb / check_best, target);
        else
            printf("front end: %s of it: stopped after %d s, under %.1f MB/s%s; ", which, CHECK_LIMIT,
                   mb / CHECK_LIMIT, target);
        double per_byte = rss_kb * 1024.0 / (double)big.len;
        printf("peak memory %s%.0f MB, %.2f bytes per byte of PTX%s\n", finished ? "" : "at least ", rss_kb / 1024.0,
               per_byte, jobs ? "" : per_byte <= 4 ? " (target: at most 4: met)" : " (target: at most 4: NOT met)");
    }
    free(big.data);
    return 0;
}
