/* source.c: read the whole input into one NUL-terminated buffer (the lexer's sentinel) and
 * map byte offsets to line:column. The line table is built only when a diagnostic needs it. */
#define _DEFAULT_SOURCE        /* MAP_ANONYMOUS, MAP_POPULATE: outside POSIX 2008 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lexer.h"

enum { SOURCE_MAX_BYTES = 0x7fffffff, SOURCE_MAP_MIN = 1 << 20 };

/* A regular file of 1 MB or more is mapped rather than read: its text is then the system's
 * cached pages of it, neither zeroed nor copied (reading took a tenth of --check's time on a
 * 50 MB module). The mapping reaches past the text into at least one zero byte (the rest of its
 * last page, or a page of zeros after it): the lexer's sentinel. Should the file be cut short
 * while mapped, reading what it lost raises SIGBUS (the command line says so: main.c). */
/* What tells that a file has changed: device, inode, size and modification time. */
static void stamp_of(const struct stat *st, int64_t stamp[4])
{
    stamp[0] = (int64_t)st->st_dev;
    stamp[1] = (int64_t)st->st_ino;
    stamp[2] = (int64_t)st->st_size;
    stamp[3] = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

bool source_unchanged(const Source *src)
{
    struct stat st;
    int64_t now[4];
    if (!src->mapped)
        return true;
    if (stat(src->name, &st) != 0)
        return false;
    stamp_of(&st, now);
    return memcmp(now, src->stamp, sizeof now) == 0;
}

static bool map_file(Source *src, const char *path, size_t size)
{
#if defined(MAP_ANONYMOUS) && defined(MAP_POPULATE)
    long page = sysconf(_SC_PAGESIZE);
    if (size < SOURCE_MAP_MIN || size > SOURCE_MAX_BYTES || page <= 0)
        return false;
    size_t span = (size / (size_t)page + 1) * (size_t)page;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    char *area = mmap(NULL, span, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *text = area == MAP_FAILED ? MAP_FAILED
                                    : mmap(area, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd, 0);
    close(fd);
    if (text == MAP_FAILED) {
        if (area != MAP_FAILED)
            munmap(area, span);
        return false;
    }
    src->text = text;
    src->len = (uint32_t)size;
    src->mapped = span;
    return true;
#else
    (void)src, (void)path, (void)size;
    return false;
#endif
}

/* size_hint: the file's size when known (a regular file): the text is read into one block of
 * that size (pages_alloc), not doubled and copied on the way; should the file have grown since,
 * the rest is read as a stream would be. */
static int read_stream(Source *src, FILE *f, size_t size_hint, Msg *err)
{
    size_t cap = size_hint && size_hint < SOURCE_MAX_BYTES ? size_hint + 2 : 1 << 16, len = 0;
    size_t pages = size_hint ? cap : 0;
    char *buf = pages ? pages_alloc(cap) : xmalloc(cap);
    for (;;) {
        if (cap - len < 2) {
            if (cap > SOURCE_MAX_BYTES) {
                if (pages)
                    pages_free(buf, pages);
                else
                    free(buf);
                msg_set(err, "'%s' is larger than 2 GiB", src->name);
                return -1;
            }
            cap *= 2;
            if (pages) {
                char *grown = xmalloc(cap);
                memcpy(grown, buf, len);
                pages_free(buf, pages);
                buf = grown;
                pages = 0;
            } else {
                buf = xrealloc(buf, cap);
            }
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        if (pages)
            pages_free(buf, pages);
        else
            free(buf);
        msg_set(err, "cannot read '%s': %s", src->name, strerror(errno));
        return -1;
    }
    buf[len] = '\0';
    src->text = buf;
    src->pages = pages;
    src->len = (uint32_t)len;
    return 0;
}

/* Loads path ("-" = standard input). On failure says why in err and returns -1. */
int source_load(Source *src, const char *path, Msg *err)
{
    memset(src, 0, sizeof *src);
    if (strcmp(path, "-") == 0) {
        src->name = "<stdin>";
        return read_stream(src, stdin, 0, err);
    }
    src->name = path;
    struct stat st;
    bool known = stat(path, &st) == 0;
    if (known && S_ISDIR(st.st_mode)) {
        msg_set(err, "'%s' is a directory", path);
        return -1;
    }
    if (known && S_ISREG(st.st_mode) && st.st_size > 0 && map_file(src, path, (size_t)st.st_size)) {
        stamp_of(&st, src->stamp);
        return 0;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        msg_set(err, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    int rc = read_stream(src, f, known && S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size : 0, err);
    fclose(f);
    return rc;
}

void source_from_string(Source *src, const char *name, const char *text, size_t len)
{
    memset(src, 0, sizeof *src);
    src->name = name;
    src->text = xmalloc(len + 1);
    memcpy(src->text, text, len);
    src->text[len] = '\0';
    src->len = (uint32_t)len;
}

void source_free(Source *src)
{
    if (src->mapped)
        munmap(src->text, src->mapped);
    else if (src->pages)
        pages_free(src->text, src->pages);
    else
        free(src->text);
    src->pages = src->mapped = 0;
    free(src->line_starts);
    src->text = NULL;
    src->line_starts = NULL;
}

static void build_line_table(Source *src)
{
    uint32_t count = 1;
    const char *end = src->text + src->len;
    for (const char *p = src->text; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        count++;
    src->line_starts = xmalloc(count * sizeof *src->line_starts);
    src->line_starts[0] = 0;
    uint32_t n = 1;
    for (const char *p = src->text; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        src->line_starts[n++] = (uint32_t)(p - src->text) + 1;
    src->line_count = count;
}

/* 1-based line and column (in bytes) of offset. */
void source_position(Source *src, uint32_t offset, uint32_t *line, uint32_t *column)
{
    if (!src->line_starts)
        build_line_table(src);
    if (offset > src->len)
        offset = src->len;
    uint32_t lo = 0, hi = src->line_count;       /* last line start <= offset */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (src->line_starts[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    *line = lo + 1;
    *column = offset - src->line_starts[lo] + 1;
}

/* The text of a 1-based line, without its line ending. */
const char *source_line(Source *src, uint32_t line, uint32_t *len)
{
    if (!src->line_starts)
        build_line_table(src);
    if (line == 0 || line > src->line_count) {
        *len = 0;
        return "";
    }
    uint32_t start = src->line_starts[line - 1];
    uint32_t end = line < src->line_count ? src->line_starts[line] - 1 : src->len;
    if (end > start && src->text[end - 1] == '\r')
        end--;
    *len = end - start;
    return src->text + start;
}
