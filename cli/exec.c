/* exec.c: `ptxrun exec [options] PROGRAM [ARGS]...`: run a CUDA program (built with nvcc -cudart
 * shared) on ptxrun's CUDA libraries. It finds them (libcudart.so.13 and libcuda.so.1: the folder
 * $PTXRUN_CUDA_LIB names, else cuda/ beside this executable, as build/cuda beside build/ptxrun),
 * puts that folder first on LD_LIBRARY_PATH, turns its options into the PTXRUN_* settings the
 * libraries read (docs/cuda.md) and replaces itself with the program, whose exit status becomes
 * ptxrun's. It runs nothing of ptxrun's own. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char exec_usage[] =
    "usage: ptxrun exec [options] [--] PROGRAM [ARGS]...\n"
    "Run a CUDA program built with nvcc -cudart shared on ptxrun's CUDA runtime and driver\n"
    "libraries: every kernel it launches runs in ptxrun (docs/cuda.md).\n"
    "  --arch sm_XX    the device's compute capability, and which PTX of the program runs\n"
    "                  (PTXRUN_ARCH; default sm_90)\n"
    "  --strict        undefined values where they matter are errors the program sees\n"
    "                  (PTXRUN_STRICT=1; default: warnings)\n"
    "  --trace FILE    append the trace of every launch to FILE (PTXRUN_TRACE)\n"
    "  --report WHERE  diagnostics to stderr (the default), none, or a FILE (PTXRUN_REPORT)\n"
    "The libraries are looked for in $PTXRUN_CUDA_LIB, else in cuda/ beside the ptxrun executable.\n"
    "Exit: the program's own status; 2 for bad options, libraries not found, a program that\n"
    "cannot be run.\n";

static int exec_usage_error(const char *fmt, const char *arg)
{
    fputs("ptxrun exec: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(ptxrun exec --help lists the options)\n", stderr);
    return EXIT_BAD_INPUT;
}

/* Whether name is an architecture PTXRUN_ARCH takes in form: sm_ and two or three digits, and
 * an 'a' or 'f' after them (the libraries judge whether they know it). */
static bool exec_arch_form(const char *name)
{
    if (strncmp(name, "sm_", 3) != 0)
        return false;
    size_t digits = strspn(name + 3, "0123456789");
    const char *rest = name + 3 + digits;
    return digits >= 2 && digits <= 3 && (rest[0] == '\0' || ((rest[0] == 'a' || rest[0] == 'f') && rest[1] == '\0'));
}

/* The folder holding libcudart.so.13, as an absolute path (the program may change its folder
 * before it loads libcuda.so.1) into dir (PATH_MAX bytes); false after a message. */
static bool exec_find_libraries(char *dir)
{
    const char *given = getenv("PTXRUN_CUDA_LIB");
    char where[PATH_MAX] = "", *end;
    size_t room = sizeof where - sizeof "/libcudart.so.13";
    if (given && given[0]) {
        if (given[0] != '/' && !getcwd(where, room)) {
            fprintf(stderr, "ptxrun exec: error: cannot tell the current folder: %s\n", strerror(errno));
            return false;
        }
        if (strlen(where) + strlen(given) + 2 > room)
            return exec_usage_error("%s", "PTXRUN_CUDA_LIB is too long"), false;
        if (where[0])
            strcat(where, "/");
        strcat(where, given);
    } else {
        ssize_t n = readlink("/proc/self/exe", where, room);
        if (n <= 0 || (size_t)n >= room - sizeof "cuda" || !(end = strrchr(where, '/'))) {
            fputs("ptxrun exec: error: cannot tell where this ptxrun is (/proc/self/exe); set PTXRUN_CUDA_LIB to the "
                  "folder of ptxrun's libcudart.so.13\n", stderr);
            return false;
        }
        strcpy(end + 1, "cuda");
    }
    strcpy(dir, where);
    strcat(where, "/libcudart.so.13");
    if (access(where, R_OK) != 0) {
        fprintf(stderr, "ptxrun exec: error: ptxrun's CUDA libraries are not in %s (no libcudart.so.13 there: %s); "
                "build them (make), or set PTXRUN_CUDA_LIB to their folder\n", dir, strerror(errno));
        return false;
    }
    return true;
}

/* setenv, or false after a message. */
static bool exec_set(const char *name, const char *value)
{
    if (setenv(name, value, 1) == 0)
        return true;
    fprintf(stderr, "ptxrun exec: error: cannot set %s: %s\n", name, strerror(errno));
    return false;
}

int exec_main(int argc, char **argv)
{
    const char *arch = NULL, *trace = NULL, *report = NULL;
    bool strict = false;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i], *v;
        bool missing = false;
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if ((v = util_option_value(a, "--arch", argc, argv, &i, &missing))) {
            if (!exec_arch_form(v))
                return exec_usage_error("--arch needs an architecture such as sm_80 or sm_90, not '%s'", v);
            arch = v;
        } else if ((v = util_option_value(a, "--trace", argc, argv, &i, &missing))) {
            if (!v[0])
                return exec_usage_error("%s", "--trace needs a file name");
            trace = v;
        } else if ((v = util_option_value(a, "--report", argc, argv, &i, &missing))) {
            if (!v[0])
                return exec_usage_error("%s", "--report needs stderr, none or a file name");
            report = v;
        } else if (missing)
            return exec_usage_error("'%s' needs a value", a);
        else if (!strcmp(a, "--strict"))
            strict = true;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(exec_usage, stdout);
            return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_BAD_INPUT;
        } else if (a[0] == '-' && a[1] != '\0')
            return exec_usage_error("unknown option '%s'", a);
        else
            break;
    }
    if (i >= argc)
        return exec_usage_error("%s", "no program to run");
    char dir[PATH_MAX];
    if (!exec_find_libraries(dir))
        return EXIT_BAD_INPUT;
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t size = strlen(dir) + (old ? strlen(old) : 0) + 2;
    char *path = xmalloc(size);
    snprintf(path, size, old && old[0] ? "%s:%s" : "%s", dir, old);
    bool set = exec_set("LD_LIBRARY_PATH", path) && (!arch || exec_set("PTXRUN_ARCH", arch)) &&
               (!strict || exec_set("PTXRUN_STRICT", "1")) && (!trace || exec_set("PTXRUN_TRACE", trace)) &&
               (!report || exec_set("PTXRUN_REPORT", report));
    free(path);
    if (!set)
        return EXIT_BAD_INPUT;
    fflush(NULL);
    execvp(argv[i], argv + i);
    fprintf(stderr, "ptxrun exec: error: cannot run '%s': %s\n", argv[i], strerror(errno));
    return EXIT_BAD_INPUT;
}
