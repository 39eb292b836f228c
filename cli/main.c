/* main.c: the command line: options into RunOptions, then driver_run (driver.c); or the
 * test runner (testrun.c) for `ptxrun test`. */
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"


static const char usage[] =
    "usage: ptxrun [options] FILE.ptx      run a kernel: a warp, a block or a grid (FILE '-': standard input)\n"
    "       ptxrun test [options] [DIR|FILE.ptx]...   run regression cases (ptxrun test --help)\n"
    "\n"
    "Running (prints the final registers, predicates and buffers):\n"
    "  --lanes FILE       the initial state: block, grid, active lanes, registers, buffers, parameters\n"
    "  --expect FILE      compare the final state with FILE; exit 1 on a difference\n"
    "  --json             print the final state as JSON (valid --lanes input)\n"
    "  --regs A,B         show only these registers and predicates\n"
    "  --warps 0,2-3      show only these warps' threads in the table\n"
    "  --threads 0-7,64   show only these threads in the table\n"
    "  --entry NAME       the kernel to run (needed when there are several)\n"
    "  --trace[=json]     every warp-step on standard error: lanes, values, shuffle sources,\n"
    "                     CUDA source lines (.loc); --regs picks the values shown\n"
    "  --trace-ops A,B    trace only these instructions (shfl: shfl, shfl.sync; see --list-ops)\n"
    "  --trace-lines L    trace only these PTX lines or CUDA lines: 120-130,kernel.cu:40-45\n"
    "  --max-steps N      stop a runaway program after N warp-steps (default 100000000)\n"
    "  --stack BYTES      each thread's stack for the frames of calls (default 1024, as a GPU's)\n"
    "  --strict           undefined branch conditions, shift amounts, membermasks: exit 3\n"
    "  -j N, --jobs N     run a grid's CTAs on N threads (default: the processors) when that gives\n"
    "                     what one CTA after another gives (else one after another)\n"
    "Checking:\n"
    "  --check            parse, check and lower, without running (exit 0 clean, 2 on errors)\n"
    "  --dump-ir          print the decoded program back as canonical PTX\n"
    "  --list-ops         print the instruction table (markdown)\n"
    "Output:\n"
    "  -w                 no warnings\n"
    "  --color, --no-color   color diagnostics and traces (default: on a terminal, unless NO_COLOR)\n"
    "  --help, --version\n"
    "Options that take a value accept --opt value and --opt=value.\n"
    "Exit: 0 ok, 1 --expect mismatch, 2 bad input (PTX, JSON, options), 3 execution fault.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("ptxrun: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(ptxrun --help lists the options)\n", stderr);
    return EXIT_BAD_INPUT;
}

/* Returns -1 to go on, or the exit code. */
/* Returns -1 to go on, or the exit code. */
static int parse_args(int argc, char **argv, RunOptions *o)
{
    memset(o, 0, sizeof *o);
    o->check.warn_deprecated = true;
    o->exec.max_steps = 100000000;
    o->exec.stack_bytes = DEFAULT_STACK_BYTES;
    long processors = sysconf(_SC_NPROCESSORS_ONLN);
    o->exec.jobs = processors > 1 ? (uint32_t)(processors < 256 ? processors : 256) : 1;
    o->color = isatty(STDERR_FILENO) && getenv("NO_COLOR") == NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        bool missing = false;
        if ((v = util_option_value(a, "--lanes", argc, argv, &i, &missing)))
            o->lanes = v;
        else if ((v = util_option_value(a, "--expect", argc, argv, &i, &missing)))
            o->expect = v;
        else if ((v = util_option_value(a, "--regs", argc, argv, &i, &missing)))
            o->regs = v;
        else if ((v = util_option_value(a, "--warps", argc, argv, &i, &missing)))
            o->warps = v;
        else if ((v = util_option_value(a, "--threads", argc, argv, &i, &missing)))
            o->threads = v;
        else if ((v = util_option_value(a, "--entry", argc, argv, &i, &missing)))
            o->entry = v;
        else if ((v = util_option_value(a, "--trace-lines", argc, argv, &i, &missing)))
            o->trace_lines = v;
        else if ((v = util_option_value(a, "--trace-ops", argc, argv, &i, &missing))) {
            char err[256];
            if (!srcline_trace_ops(&o->trace_filter, v, err, sizeof err))
                return usage_error("%s", err);
        }
        else if ((v = util_option_value(a, "--max-steps", argc, argv, &i, &missing))) {
            char *end;
            errno = 0;
            unsigned long long n = strtoull(v, &end, 10);
            if (*end || v[0] == '-' || !v[0] || n == 0 || errno == ERANGE)
                return usage_error("--max-steps needs a positive number, not '%s'", v);
            o->exec.max_steps = n;
        } else if ((v = util_option_value(a, "--jobs", argc, argv, &i, &missing)) ||
                   (v = util_option_value(a, "-j", argc, argv, &i, &missing)) ||
                   (!strncmp(a, "-j", 2) && a[2] >= '0' && a[2] <= '9' && (v = a + 2))) {
            char *end;
            errno = 0;
            unsigned long n = strtoul(v, &end, 10);
            if (*end || v[0] < '1' || v[0] > '9' || n > 256 || errno == ERANGE)
                return usage_error("-j needs a number of threads from 1 to 256, not '%s'", v);
            o->exec.jobs = (uint32_t)n;
            o->exec.jobs_given = true;
        } else if ((v = util_option_value(a, "--stack", argc, argv, &i, &missing))) {
            char *end;
            errno = 0;
            unsigned long n = strtoul(v, &end, 10);
            if (*end || v[0] < '0' || v[0] > '9' || n > MAX_STACK_BYTES || errno == ERANGE)
                return usage_error("--stack needs a number of bytes from 0 to 1048576, not '%s'", v);
            o->exec.stack_bytes = (uint32_t)n;
        } else if (missing)
            return usage_error("'%s' needs a value", a);
        else if (!strcmp(a, "--check"))
            o->mode = MODE_CHECK;
        else if (!strcmp(a, "--dump-ir"))
            o->mode = MODE_DUMP_IR;
        else if (!strcmp(a, "--json"))
            o->json = true;
        else if (!strcmp(a, "--trace") || !strcmp(a, "--trace=text"))
            o->exec.trace = stderr;
        else if (!strcmp(a, "--trace=json")) {
            o->exec.trace = stderr;
            o->exec.trace_json = true;
        } else if (!strcmp(a, "--strict"))
            o->exec.strict = true;
        else if (!strcmp(a, "--list-ops")) {
            ops_print_markdown(stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "-w"))
            o->no_warnings = true;
        else if (!strcmp(a, "--color"))
            o->color = true;
        else if (!strcmp(a, "--no-color"))
            o->color = false;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--version")) {
            printf("ptxrun %s (PTX ISA %s; warps, blocks and grids)\n", PTXRUN_VERSION, PTXRUN_PTX_ISA);
            return EXIT_OK;
        } else if (a[0] == '-' && a[1] != '\0')
            return usage_error("unknown option '%s'", a);
        else if (o->path)
            return usage_error("more than one input file ('%s')", a);
        else
            o->path = a;
    }
    if (!o->path)
        return usage_error("%s", "no input file");
    if (!o->exec.trace && (o->trace_lines || o->trace_filter.by_op))
        o->exec.trace = stderr;                /* --trace-ops, --trace-lines alone: a text trace */
    o->exec.trace_color = o->color;
    return -1;
}

static void *json_alloc(size_t size)
{
    return xmalloc(size);
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);                /* a closed pipe is a write error we report */
    json_set_alloc_funcs(json_alloc, free);
    if (argc > 1 && strcmp(argv[1], "test") == 0)
        return test_main(argc - 1, argv + 1);
    RunOptions o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (o.exec.trace)                        /* a step's lines in one write, not ~35 */
        setvbuf(o.exec.trace, NULL, _IOFBF, 1 << 16);
    return driver_run(&o, stdout, stderr);
}
