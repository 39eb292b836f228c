/* replay.c: runs a fuzz target's LLVMFuzzerTestOneInput on files and directories of inputs,
 * without libFuzzer, so that `make check` (and its ASan/UBSan build) replays the committed
 * seeds and every input that once crashed. Linked with one of fuzz_*.c.
 * usage: replay PATH...   (a directory means every file in it) */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool replay_file(const char *path, unsigned *count)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open '%s': %s\n", path, strerror(errno));
        return false;
    }
    size_t len = 0, cap = 4096;
    uint8_t *data = xmalloc(cap);
    size_t n;
    while ((n = fread(data + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap)
            data = xrealloc(data, cap *= 2);
    }
    bool ok = !ferror(f);
    fclose(f);
    if (ok) {
        LLVMFuzzerTestOneInput(data, len);
        (*count)++;
    } else
        fprintf(stderr, "replay: cannot read '%s'\n", path);
    free(data);
    return ok;
}

static bool replay_path(const char *path, unsigned *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: cannot open '%s': %s\n", path, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path, count);
    DIR *dir = opendir(path);
    if (!dir) {
        fprintf(stderr, "replay: cannot open '%s': %s\n", path, strerror(errno));
        return false;
    }
    bool ok = true;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        size_t size = strlen(path) + strlen(e->d_name) + 2;
        char *child = xmalloc(size);
        snprintf(child, size, "%s/%s", path, e->d_name);
        ok &= replay_path(child, count);
        free(child);
    }
    closedir(dir);
    return ok;
}

int main(int argc, char **argv)
{
    unsigned count = 0;
    bool ok = true;
    for (int i = 1; i < argc; i++)
        ok &= replay_path(argv[i], &count);
    printf("%s: %u inputs replayed\n", argv[0], count);
    return ok ? 0 : 1;
}
