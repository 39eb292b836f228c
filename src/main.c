/* main.c: the command line: options into RunOptions, then driver_run (driver.c); or the
 * test runner (testrun.c) for `ptxrun test`. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptxrun.h"


static const char usage[] =
    "usage: ptxrun [options] FILE.ptx      (FILE '-' reads standard input)\n"
    "\n"
    "Runs the kernel on one warp and prints the final registers and predicates.\n"
    "  --lanes FILE     initial state: {\"block\": [32,1,1], \"active\": \"0xffffffff\",\n"
    "                   \"regs\": {\"Rx\": [32 values] or one}, \"preds\": {\"p\": [32 bools] or one}}\n"
    "  --expect FILE    compare the final state with the keys in FILE (exit 1 on a mismatch)\n"
    "  --json           print the final state as JSON (valid --lanes input)\n"
    "  --regs A,B       show only these registers and predicates\n"
    "  --entry NAME     the kernel to run (default: the first .entry)\n"
    "  --trace          print each warp-step to standard error\n"
    "  --max-steps N    stop a runaway program after N warp-steps (default 100000000)\n"
    "  --strict         undefined values used as branch conditions, shift amounts or\n"
    "                   membermasks are errors (exit 3), not warnings\n"
    "\n"
    "  --check          parse and check; print diagnostics (exit 0 clean, 2 on errors)\n"
    "  --dump-ir        print the decoded program back as canonical PTX\n"
    "  --list-ops       print the instruction table (markdown) and exit\n"
    "  -w               suppress warnings\n"
    "  --color          color diagnostics (default: when stderr is a terminal)\n"
    "  --no-color       never color diagnostics\n"
    "  --help           this text\n"
    "\n"
    "A file of bare instructions (no .entry/.func) is a snippet: one implicit kernel whose\n"
    "registers need no declaration.\n"
    "Exit: 0 ok, 1 --expect mismatch, 2 bad input (PTX, JSON, options), 3 execution fault.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("ptxrun: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(ptxrun --help lists the options)\n", stderr);
    return EXIT_BAD_INPUT;
}

/* Returns -1 to go on, or the exit code. */
static int parse_args(int argc, char **argv, RunOptions *o)
{
    memset(o, 0, sizeof *o);
    o->check.warn_deprecated = true;
    o->exec.max_steps = 100000000;
    o->color = isatty(STDERR_FILENO) && getenv("NO_COLOR") == NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--check") == 0)
            o->mode = MODE_CHECK;
        else if (strcmp(a, "--dump-ir") == 0)
            o->mode = MODE_DUMP_IR;
        else if (!strcmp(a, "--lanes") || !strcmp(a, "--expect") || !strcmp(a, "--regs") ||
                 !strcmp(a, "--entry") || !strcmp(a, "--max-steps")) {
            if (i + 1 >= argc)
                return usage_error("'%s' needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--lanes"))
                o->lanes = v;
            else if (!strcmp(a, "--expect"))
                o->expect = v;
            else if (!strcmp(a, "--regs"))
                o->regs = v;
            else if (!strcmp(a, "--entry"))
                o->entry = v;
            else {
                char *end;
                unsigned long long n = strtoull(v, &end, 10);
                if (*end || v[0] == '-' || !v[0] || n == 0)
                    return usage_error("--max-steps needs a positive number, not '%s'", v);
                o->exec.max_steps = n;
            }
        } else if (strcmp(a, "--json") == 0)
            o->json = true;
        else if (strcmp(a, "--trace") == 0 || strcmp(a, "--trace=text") == 0)
            o->exec.trace = stderr;
        else if (strcmp(a, "--trace=json") == 0) {
            o->exec.trace = stderr;
            o->exec.trace_json = true;
        }
        else if (strcmp(a, "--strict") == 0)
            o->exec.strict = true;
        else if (strcmp(a, "--list-ops") == 0) {
            ops_print_markdown(stdout);
            return EXIT_OK;
        } else if (strcmp(a, "-w") == 0)
            o->no_warnings = true;
        else if (strcmp(a, "--color") == 0)
            o->color = true;
        else if (strcmp(a, "--no-color") == 0)
            o->color = false;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
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
    o->exec.trace_color = o->color;
    return -1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "test") == 0)
        return test_main(argc - 1, argv + 1);
    RunOptions o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    return driver_run(&o, stdout, stderr);
}
