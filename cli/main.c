/* main.c: the command line: options into RunOptions, then driver_run (driver.c); or the
 * test runner (testrun.c) for `ptxrun test`, the CUDA launcher (exec.c) for `ptxrun exec`. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"


/* Two strings, each within the 4095 bytes C99 promises a literal. */
static const char *const usage[] = {
    "usage: ptxrun [options] FILE.ptx      run a kernel: a warp, a block or a grid (FILE '-': standard input)\n"
    "       ptxrun test [options] [DIR|FILE.ptx]...   run regression cases (ptxrun test --help)\n"
    "       ptxrun exec [options] PROGRAM [ARGS]...   run a CUDA program on ptxrun (ptxrun exec --help)\n"
    "\n"
    "Running (prints the final registers, predicates and buffers):\n"
    "  --lanes FILE       the initial state: block, grid, active lanes, registers, buffers, parameters\n"
    "  --expect FILE      compare the final state with FILE; exit 1 on a difference\n"
    "  --json             print the final state as JSON (valid --lanes input; every register)\n"
    "  --regs A,B|all     show these registers and predicates (a kernel's table shows the buffers,\n"
    "                     the registers the lanes file gives and a count of the others; a snippet's, all)\n"
    "  --buffers A,B|all  show these buffers in full (default: changed ones; others: a line)\n"
    "  --cta N|X,Y,Z      show this CTA's registers (default: the last to run, or where a fault stopped)\n"
    "  --all-ctas         with --json: every CTA's registers too, in \"ctas\" (--lanes leaves it aside)\n"
    "  --hex              show register and buffer values as their bits in hex\n"
    "  --warps 0,2-3      show only these warps' threads in the table\n"
    "  --threads 0-7,64   show only these threads in the table\n"
    "  --entry NAME       the kernel to run (needed when there are several): its name, its C++\n"
    "                     name as c++filt writes it, or the start of that (--entry 'reduce<int')\n"
    "  --trace[=json]     every warp-step on standard error: lanes, values, shuffle sources,\n"
    "                     CUDA source lines (.loc); --regs picks the values shown\n"
    "  --trace-ops A,B    trace only these instructions (shfl: shfl, shfl.sync; see --list-ops)\n"
    "  --trace-lines L    trace only these PTX lines or CUDA lines: 120-130,kernel.cu:40-45\n"
    "  --matrix LINE[@N]  the A, B, C, D of the mma on this PTX or CUDA line (k.cu:57), at each\n"
    "                     execution (@N: the N-th), with the lane and register of each element\n"
    "  --max-steps N      stop a runaway warp after N warp-steps of its own (default 100000000;\n"
    "                     each warp of each CTA counts its own, so a large grid is not cut short)\n"
    "  --stack BYTES      each thread's stack for the frames of calls (default 1024, as a GPU's)\n"
    "  --strict           undefined branch conditions, shift amounts, membermasks: exit 3\n"
    "  --no-fmad          round a mul and an add each on its own (default: fused into one fma\n"
    "                     where ptxas fuses them, with a warning naming the lines)\n"
    "  -j N, --jobs N     run a grid's CTAs on N threads (default: the processors) when that gives\n"
    "                     what one CTA after another gives (else one after another); --check\n"
    "                     reads a module of 1 MB or more on N threads (at most 8; default 2)\n"
    ,
    "Launching (each replaces the lanes file's entry of the same name):\n"
    "  --block X[,Y,Z]    the thread block (X, Y up to 1024, Z up to 64; 1024 threads in all)\n"
    "  --grid X[,Y,Z]     the grid of CTAs (X up to 2^31-1, Y and Z up to 65535)\n"
    "  --cluster X[,Y,Z]  the cluster's shape in CTAs (more than one: not yet, the kernel's checks refuse it)\n"
    "  --cooperative      a cooperative launch: every CTA runs together (grid.sync()), within an H100's residency\n"
    "  --shared BYTES     dynamic shared memory, 0 to 1 MiB (the lanes file's dynamic_shared)\n"
    "  --param NAME=VALUE a kernel parameter by position (0), name or name after the kernel's\n"
    "                     (param_0); VALUE: integer, real, 0x bits, @buffer, or JSON\n"
    "  --buffer NAME=TYPE:COUNT   a buffer of COUNT zeros (TYPE u8..u64, s8..s64, b8..b64, f16,\n"
    "                     bf16, f32, f64); NAME=@FILE.npy or NAME=TYPE@FILE.bin: its data from a file;\n"
    "                     a buffer holds at most 2^26 elements and 256 MiB, all of them 1 GiB\n"
    "                     (--param, --buffer and the lanes file in full: docs/lanes-format.md)\n"
    "  --save-buffers DIR write each final buffer as DIR/NAME.npy\n"
    "Checking:\n"
    "  --check            parse, check and lower, without running (exit 0 clean, 2 on errors)\n"
    "  --dump-ir          print the decoded program back as canonical PTX\n"
    "  --list-kernels     print each kernel's name, a tab and its C++ name (with --json: JSON)\n"
    "  --list-ops         print the instruction table (markdown)\n"
    "Output:\n"
    "  -w                 no warnings\n"
    "  --color, --no-color   color diagnostics and traces (default: on a terminal, unless NO_COLOR)\n"
    "  --help, --version\n"
    "Options that take a value accept --opt value and --opt=value.\n"
    "A run that goes on for a second shows its progress on standard error when that is a terminal\n"
    "(PTXRUN_PROGRESS=0: never; =1: always, from the start).\n"
    "Exit: 0 ok, 1 --expect mismatch, 2 bad input (PTX, JSON, options), 3 execution fault\n"
    "(a closed pipe, | head: a quiet end by SIGPIPE, as grep's).\n"
};

static int usage_error(const char *fmt, const char *arg)
{
    fputs("ptxrun: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(ptxrun --help lists the options)\n", stderr);
    return EXIT_BAD_INPUT;
}

/* Whether a and b name one stream that can be read only once: '-' twice, or one pipe, FIFO,
 * socket or terminal under two names ('-' and /dev/stdin, a FIFO given twice; the second read
 * would find nothing, or wait for ever on a FIFO). A regular file given twice is read twice. */
static bool one_stream(const char *a, const char *b)
{
    struct stat sa, sb;
    bool a_in = !strcmp(a, "-"), b_in = !strcmp(b, "-");
    if (a_in && b_in)
        return true;
    return (a_in ? fstat(0, &sa) : stat(a, &sa)) == 0 && (b_in ? fstat(0, &sb) : stat(b, &sb)) == 0 &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && !S_ISREG(sa.st_mode);
}

/* The inputs read to their end (the PTX file, --lanes, --expect) are apart; false after a
 * message when two are one stream. */
static bool inputs_apart(const RunOptions *o)
{
    const char *reads[3] = { o->path, o->lanes, o->expect }, *names[3] = { "the PTX file", "--lanes", "--expect" };
    for (int k = 1; k < 3; k++)
        for (int j = 0; j < k; j++)
            if (reads[j] && reads[k] && one_stream(reads[j], reads[k])) {
                if (!strcmp(reads[j], "-") && !strcmp(reads[k], "-"))
                    fprintf(stderr, "ptxrun: error: standard input ('-') given as both %s and %s: it can be read "
                            "only once\n", names[j], names[k]);
                else
                    fprintf(stderr, "ptxrun: error: '%s' (%s) and '%s' (%s) are one stream: it can be read only "
                            "once\n", reads[j], names[j], reads[k], names[k]);
                fputs("(ptxrun --help lists the options)\n", stderr);
                return false;
            }
    return true;
}

/* Returns -1 to go on, or the exit code. */
static int parse_args(int argc, char **argv, RunOptions *o, const char **params, const char **buffers)
{
    memset(o, 0, sizeof *o);
    o->launch.params = params;               /* each room for every argument */
    o->launch.buffers = buffers;
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
        else if ((v = util_option_value(a, "--buffers", argc, argv, &i, &missing)))
            o->buffers = v;
        else if ((v = util_option_value(a, "--cta", argc, argv, &i, &missing)))
            o->cta = v;
        else if ((v = util_option_value(a, "--warps", argc, argv, &i, &missing)))
            o->warps = v;
        else if ((v = util_option_value(a, "--threads", argc, argv, &i, &missing)))
            o->threads = v;
        else if ((v = util_option_value(a, "--entry", argc, argv, &i, &missing)))
            o->entry = v;
        else if ((v = util_option_value(a, "--block", argc, argv, &i, &missing)))
            o->launch.block = v;
        else if ((v = util_option_value(a, "--grid", argc, argv, &i, &missing)))
            o->launch.grid = v;
        else if ((v = util_option_value(a, "--cluster", argc, argv, &i, &missing)))
            o->launch.cluster = v;
        else if ((v = util_option_value(a, "--shared", argc, argv, &i, &missing)))
            o->launch.shared = v;
        else if ((v = util_option_value(a, "--param", argc, argv, &i, &missing)))
            o->launch.params[o->launch.param_count++] = v;
        else if ((v = util_option_value(a, "--buffer", argc, argv, &i, &missing)))
            o->launch.buffers[o->launch.buffer_count++] = v;
        else if ((v = util_option_value(a, "--save-buffers", argc, argv, &i, &missing)))
            o->save_buffers = v;
        else if ((v = util_option_value(a, "--matrix", argc, argv, &i, &missing)))
            o->matrix = v;
        else if ((v = util_option_value(a, "--trace-lines", argc, argv, &i, &missing)))
            o->trace_lines = v;
        else if ((v = util_option_value(a, "--trace-ops", argc, argv, &i, &missing))) {
            Msg err = { 0 };
            if (!srcline_trace_ops(&o->trace_filter, v, &err)) {
                int rc = usage_error("%s", err.text);
                msg_free(&err);
                return rc;
            }
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
        else if (!strcmp(a, "--list-kernels"))
            o->mode = MODE_LIST_KERNELS;
        else if (!strcmp(a, "--json"))
            o->json = true;
        else if (!strcmp(a, "--cooperative"))
            o->launch.cooperative = true;
        else if (!strcmp(a, "--no-fmad"))
            o->exec.no_fmad = true;
        else if (!strcmp(a, "--all-ctas"))
            o->all_ctas = true;
        else if (!strcmp(a, "--hex"))
            o->hex = true;
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
            for (size_t part = 0; part < sizeof usage / sizeof *usage; part++)
                fputs(usage[part], stdout);
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
    if (!inputs_apart(o))
        return EXIT_BAD_INPUT;
    if (o->all_ctas && !o->json)
        return usage_error("%s", "--all-ctas is for --json (the table shows one CTA: choose it with --cta)");
    if (o->buffers && o->json)
        return usage_error("%s", "--buffers is for the table (--json writes every buffer)");
    if (o->hex && o->json)
        return usage_error("%s", "--hex is for the table (--json writes each value in its type)");
    if (!o->exec.trace && (o->trace_lines || o->trace_filter.by_op))
        o->exec.trace = stderr;                /* --trace-ops, --trace-lines alone: a text trace */
    o->exec.trace_color = o->color;
    o->progress = progress_mode(stderr);
    return -1;
}

static void *json_alloc(size_t size)
{
    return xmalloc(size);
}

/* A standard stream the caller closed (`ptxrun k.ptx >&-`) gets /dev/null opened for reading, so
 * that writes to it fail (reported as for a full disk) and no file ptxrun opens later takes its
 * number. */
static void hold_closed_streams(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF && open("/dev/null", O_RDONLY) != fd)
            return;
}

/* rc, or 2 when it was 0 but standard output could not be written (--help > /dev/full): every
 * path that ends with 0 comes here; the others have said what went wrong. */
static int output_written(int rc)
{
    if (rc == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "ptxrun: error: cannot write the output: %s\n", strerror(errno));
        return EXIT_BAD_INPUT;
    }
    return rc;
}

/* A large input file is mapped (source.c): one cut short while ptxrun reads it raises SIGBUS
 * with BUS_ADRERR (a page of the mapping that the file no longer has). Any other SIGBUS is not
 * explained away: the default action (SA_RESETHAND) ends the process when the access repeats. */
static void input_cut_short(int sig, siginfo_t *info, void *context)
{
    (void)sig, (void)context;
    if (info->si_code != BUS_ADRERR)
        return;
    static const char message[] = "ptxrun: error: the input file was cut short while it was being read\n";
    ssize_t written = write(STDERR_FILENO, message, sizeof message - 1);
    (void)written;
    _exit(EXIT_BAD_INPUT);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "exec") == 0)   /* first: the program gets the caller's signals and streams */
        return exec_main(argc - 1, argv + 1);
    hold_closed_streams();
    signal(SIGPIPE, SIG_DFL);                /* a closed pipe (| head) ends ptxrun quietly, as grep */
    signal(SIGXFSZ, SIG_IGN);                /* a file size limit (ulimit -f): a write error we report */
    struct sigaction bus = { .sa_sigaction = input_cut_short, .sa_flags = SA_SIGINFO | SA_RESETHAND };
    sigemptyset(&bus.sa_mask);
    sigaction(SIGBUS, &bus, NULL);
    json_set_alloc_funcs(json_alloc, free);
    if (argc > 1 && strcmp(argv[1], "test") == 0)
        return output_written(test_main(argc - 1, argv + 1));
    RunOptions o;
    const char **params = xmalloc((size_t)argc * sizeof *params), **buffers = xmalloc((size_t)argc * sizeof *buffers);
    int rc = parse_args(argc, argv, &o, params, buffers);
    if (rc >= 0) {
        free(params);
        free(buffers);
        return output_written(rc);
    }
    if (o.exec.trace)                        /* a step's lines in one write, not ~35 */
        setvbuf(o.exec.trace, NULL, _IOFBF, 1 << 16);
    rc = output_written(driver_run(&o, stdout, stderr));
    free(params);
    free(buffers);
    return rc;
}
