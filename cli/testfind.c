/* testfind.c: the cases of `ptxrun test DIR|FILE...`, and the companion files of each.
 *
 * A folder is searched below for NAME...ptx files that are regular files (or links to one); a
 * FIFO, a socket or a device of that name is passed over (a FIFO would never end), while a file
 * named on the command line is taken whatever it is. Each folder is walked once, known by its
 * device and inode: a link to a folder already walked, or to one that holds the link (.., /),
 * is passed over, so a folder that links to itself ends and no link leads out above the folders
 * given. Links to folders are followed after every folder reached without one, in the order
 * they were met: a case that both reach is named by its path without links (so "folder/NAME"
 * in --not-yet means the folder it lies in), and through links only when it has no such path. A case named twice (a file given and also found in a folder
 * given) runs once, under its first path. Finding no case at all is an error (exit 2), and so
 * is a folder or a name in one that cannot be read: no case is run (its cases would be missing).
 * Requires: nothing of ptxrun's beyond util (xmalloc). */
#define _XOPEN_SOURCE 700        /* realpath: XSI, outside POSIX 2008's base */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* A folder, as the file system knows it. */
typedef struct Place {
    dev_t dev;
    ino_t ino;
} Place;

/* A case by what it is: its folder and its name there (two paths to it give one). */
typedef struct CaseId {
    Place folder;
    const char *name;          /* in the case's ptx path */
    uint32_t index;            /* in the list */
} CaseId;

typedef struct Finder {
    TestCaseList *list;
    CaseId *ids;               /* one per case of list */
    Place *walked;             /* every folder walked */
    size_t walked_count;
    char **links;              /* links to folders met, followed after the plain walk */
    size_t link_count;
    char *passed_over;         /* the first NAME.ptx that is no regular file, for the message */
    bool unreadable;           /* a folder or a name in one could not be read: said, and the run is refused */
} Finder;

static bool regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The companion file of ptx with this suffix: dir/NAME.TAG.suffix for the file's tags (the parts
 * between NAME and .ptx, so sm_80 and debug in NAME.sm_80.debug.ptx), the last tag first, else
 * dir/NAME.suffix; NAME is the file name up to its first dot. So a debug build whose results
 * legitimately differ (no contraction into fma) has NAME.debug.expect.json. NULL when none is there. */
static char *companion(const char *ptx, const char *suffix)
{
    const char *base = strrchr(ptx, '/');
    base = base ? base + 1 : ptx;
    size_t dir_len = (size_t)(base - ptx), name_len = strcspn(base, ".");
    const char *tags = base + name_len, *end = ends_with(base, ".ptx") ? base + strlen(base) - 4 : tags;
    char *path = xmalloc(dir_len + name_len + (size_t)(end > tags ? end - tags : 0) + strlen(suffix) + 1);
    memcpy(path, ptx, dir_len + name_len);
    for (const char *tag_end = end; tag_end > tags;) {
        const char *tag = tag_end - 1;     /* the tag's dot */
        while (*tag != '.')
            tag--;
        size_t tag_len = (size_t)(tag_end - tag);
        memcpy(path + dir_len + name_len, tag, tag_len);
        strcpy(path + dir_len + name_len + tag_len, suffix);
        if (regular(path))
            return path;
        tag_end = tag;
    }
    strcpy(path + dir_len + name_len, suffix);
    if (regular(path))
        return path;
    free(path);
    return NULL;
}

static void add_case(Finder *f, const char *ptx, Place folder)
{
    TestCaseList *list = f->list;
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? 2 * list->capacity : 64;
        list->items = xrealloc(list->items, list->capacity * sizeof *list->items);
        f->ids = xrealloc(f->ids, list->capacity * sizeof *f->ids);
    }
    TestCase *c = &list->items[list->count];
    memset(c, 0, sizeof *c);
    c->ptx = xstrdup(ptx);
    c->lanes = companion(ptx, ".lanes.json");
    c->expect = companion(ptx, ".expect.json");
    const char *base = strrchr(c->ptx, '/');
    f->ids[list->count] = (CaseId){ folder, base ? base + 1 : c->ptx, list->count };
    list->count++;
}

/* Marks the folder walked; false if it was already. */
static bool first_walk(Finder *f, const struct stat *st)
{
    for (size_t i = 0; i < f->walked_count; i++)
        if (f->walked[i].dev == st->st_dev && f->walked[i].ino == st->st_ino)
            return false;
    f->walked = xrealloc(f->walked, (f->walked_count + 1) * sizeof *f->walked);
    f->walked[f->walked_count++] = (Place){ st->st_dev, st->st_ino };
    return true;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(Finder *f, const char *dir, const struct stat *st);

/* Says that path (a folder, or a name in one) cannot be read, with errno's reason: its cases
 * would be left out of a run that passes, so the run is refused (as pytest's collection errors). */
static void unreadable(Finder *f, const char *path)
{
    fprintf(stderr, "ptxrun test: error: cannot read '%s': %s\n", path, strerror(errno));
    f->unreadable = true;
}

/* One name met in the folder here: a folder is walked (one reached through a link, later); a
 * NAME.ptx that is a regular file, or a link to nothing (it fails as its case, not silently),
 * is a case. True when the name is kept (a link to a folder). */
static bool visit(Finder *f, char *name, Place here)
{
    struct stat link, target;
    bool is_link = lstat(name, &link) == 0 && S_ISLNK(link.st_mode);
    bool found = stat(name, &target) == 0, is_case = ends_with(name, ".ptx");
    if (!found && !(is_link && (errno == ENOENT || errno == ELOOP))) {
        unreadable(f, name);              /* not a link to nothing: a name too long, a folder not searchable */
    } else if (found && S_ISDIR(target.st_mode) && is_link) {
        f->links = xrealloc(f->links, (f->link_count + 1) * sizeof *f->links);
        f->links[f->link_count++] = name;
        return true;
    } else if (found && S_ISDIR(target.st_mode)) {
        walk(f, name, &target);
    } else if (is_case && (!found || S_ISREG(target.st_mode))) {
        add_case(f, name, here);
    } else if (is_case && !f->passed_over) {
        f->passed_over = xstrdup(name);
    }
    return false;
}

/* Every case below the folder dir (st: its stat), in name order; links to folders are kept
 * for later. */
static void walk(Finder *f, const char *dir, const struct stat *st)
{
    if (!first_walk(f, st))
        return;
    Place here = { st->st_dev, st->st_ino };
    DIR *d = opendir(dir);
    if (!d) {
        unreadable(f, dir);
        return;
    }
    char **names = NULL;
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        names = xrealloc(names, (count + 1) * sizeof *names);
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        names[count] = xmalloc(n);
        snprintf(names[count++], n, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", e->d_name);
    }
    closedir(d);
    if (count)
        qsort(names, count, sizeof *names, by_name);
    for (size_t i = 0; i < count; i++)
        if (!visit(f, names[i], here))
            free(names[i]);
    free(names);
}

/* The path of the folder that path lies in ("." when it has no '/'), from xmalloc. */
static char *folder_path(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *dir = memcpy(xmalloc(n + 1), path, n);
    dir[n] = '\0';
    return dir;
}

/* The folder a file named on the command line lies in. */
static bool folder_of(const char *path, Place *p)
{
    char *dir = folder_path(path);
    struct stat st;
    bool ok = stat(dir, &st) == 0;
    free(dir);
    *p = ok ? (Place){ st.st_dev, st.st_ino } : (Place){ 0, 0 };
    return ok;
}

/* Whether the link leads to a folder that holds it (.., ../.., /): a cycle, which would also
 * take the walk out of the folders given (to their neighbours, or the whole file system). */
static bool leads_above(const char *link)
{
    char *dir = folder_path(link), *here = realpath(dir, NULL), *there = realpath(link, NULL);
    size_t n = there ? strlen(there) : 0;
    bool above = here && there && !strncmp(here, there, n) && (here[n] == '/' || here[n] == '\0' || n == 1);
    free(dir);
    free(here);
    free(there);
    return above;
}

static int by_id(const void *a, const void *b)
{
    const CaseId *x = a, *y = b;
    if (x->folder.dev != y->folder.dev)
        return x->folder.dev < y->folder.dev ? -1 : 1;
    if (x->folder.ino != y->folder.ino)
        return x->folder.ino < y->folder.ino ? -1 : 1;
    int order = strcmp(x->name, y->name);
    return order ? order : (x->index > y->index) - (x->index < y->index);
}

/* Each case once, the first of its paths kept, in the order found. */
static void drop_repeats(Finder *f)
{
    TestCaseList *list = f->list;
    if (list->count < 2)
        return;
    qsort(f->ids, list->count, sizeof *f->ids, by_id);
    const CaseId *first = &f->ids[0];          /* the first path of the case the run is of */
    for (uint32_t i = 1; i < list->count; i++) {
        const CaseId *b = &f->ids[i];
        if (first->folder.dev != b->folder.dev || first->folder.ino != b->folder.ino || strcmp(first->name, b->name))
            first = b;
        else {
            TestCase *c = &list->items[b->index];
            free(c->ptx);
            free(c->lanes);
            free(c->expect);
            c->ptx = NULL;
        }
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < list->count; i++)
        if (list->items[i].ptx)
            list->items[kept++] = list->items[i];
    list->count = kept;
}

int testfind_cases(TestCaseList *list, const char *const *paths, int count)
{
    Finder f = { list, NULL, NULL, 0, NULL, 0, NULL, false };
    int rc = -1;
    for (int i = 0; i < count && rc < 0; i++) {
        struct stat st;
        Place folder;
        if (stat(paths[i], &st) != 0) {
            fprintf(stderr, "ptxrun test: error: no file or directory '%s'\n", paths[i]);
            rc = EXIT_BAD_INPUT;
        } else if (S_ISDIR(st.st_mode)) {
            walk(&f, paths[i], &st);
        } else if (folder_of(paths[i], &folder)) {
            add_case(&f, paths[i], folder);
        } else {
            fprintf(stderr, "ptxrun test: error: cannot read the folder of '%s': %s\n", paths[i], strerror(errno));
            rc = EXIT_BAD_INPUT;
        }
    }
    for (size_t i = 0; i < f.link_count; i++) {     /* the list grows as linked folders are walked */
        struct stat st;
        if (rc < 0 && stat(f.links[i], &st) == 0 && S_ISDIR(st.st_mode) && !leads_above(f.links[i]))
            walk(&f, f.links[i], &st);
        free(f.links[i]);
    }
    drop_repeats(&f);
    if (rc < 0 && f.unreadable) {
        fprintf(stderr, "ptxrun test: error: a folder that cannot be read may hold cases: none is run\n");
        rc = EXIT_BAD_INPUT;
    }
    if (rc < 0 && list->count == 0) {
        fprintf(stderr, "ptxrun test: error: no case found: no NAME.ptx file below ");
        for (int i = 0; i < count; i++)
            fprintf(stderr, "%s'%s'", i == 0 ? "" : i + 1 < count ? ", " : " and ", paths[i]);
        fprintf(stderr, "%s%s%s\n", f.passed_over ? " ('" : "", f.passed_over ? f.passed_over : "",
                f.passed_over ? "' is no regular file: passed over)" : "");
        rc = EXIT_BAD_INPUT;
    }
    free(f.ids);
    free(f.walked);
    free(f.links);
    free(f.passed_over);
    return rc;
}
