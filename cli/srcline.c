/* srcline.c: the CUDA source lines of nvcc -lineinfo PTX (.file N "path", .loc N LINE COL) in
 * run-time diagnostics, and --trace-lines / --trace-ops. After a message at an instruction
 * that has a .loc, a note names the CUDA line and shows its text when the file can be read:
 * the path as the .file wrote it (a relative one from the PTX file's folder, then from the
 * working directory), else the file of that name next to the PTX file (nvcc writes the folder
 * it compiled in, which a corpus or a copy no longer has). The executor only carries the
 * numbers (XInstr.src_file, src_line); all reading happens here. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct SourceMap {
    const Module *m;
    const char *ptx_path;
    Source *files;             /* m->files.len of them, read on first use */
    char **paths;              /* the path each was read from; NULL: not read, or unreadable */
    bool *tried;
    const Instr *last;         /* the instruction of the last note: one note per run of messages */
};

SourceMap *srcline_open(const Module *m, const char *ptx_path)
{
    SourceMap *s = xcalloc(1, sizeof *s);
    uint32_t n = m->files.len ? m->files.len : 1;
    s->m = m;
    s->ptx_path = ptx_path;
    s->files = xcalloc(n, sizeof *s->files);
    s->paths = xcalloc(n, sizeof *s->paths);
    s->tried = xcalloc(n, sizeof *s->tried);
    return s;
}

void srcline_free(SourceMap *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < s->m->files.len; i++)
        if (s->paths[i]) {
            source_free(&s->files[i]);
            free(s->paths[i]);
        }
    free(s->files);
    free(s->paths);
    free(s->tried);
    free(s);
}

/* The .file string without its quotes, a new string. */
static char *unquoted(const char *path)
{
    const char *p = path[0] == '"' ? path + 1 : path;
    size_t len = strlen(p);
    if (len && p[len - 1] == '"' && p != path)
        len--;
    char *out = xmalloc(len + 1);
    memcpy(out, p, len);
    out[len] = '\0';
    return out;
}

static char *joined(const char *ptx_path, const char *name)
{
    const char *slash = strrchr(ptx_path, '/');
    size_t dir = slash ? (size_t)(slash - ptx_path) + 1 : 0;
    char *out = xmalloc(dir + strlen(name) + 1);
    memcpy(out, ptx_path, dir);
    strcpy(out + dir, name);
    return out;
}

/* File i, read on first use; NULL if no candidate path can be read. */
static Source *file_text(SourceMap *s, uint32_t i)
{
    if (!s->tried[i]) {
        s->tried[i] = true;
        char *path = unquoted(s->m->files.data[i].path);
        Msg err = { 0 };
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        char *candidates[3] = { path[0] == '/' ? xstrdup(path) : joined(s->ptx_path, path),
                                path[0] == '/' ? NULL : xstrdup(path), joined(s->ptx_path, base) };
        for (int k = 0; k < 3; k++) {
            if (candidates[k] && !s->paths[i] && source_load(&s->files[i], candidates[k], &err) == 0) {
                s->paths[i] = candidates[k];
                continue;
            }
            free(candidates[k]);
        }
        msg_free(&err);
        free(path);
    }
    return s->paths[i] ? &s->files[i] : NULL;
}

/* The instruction whose statement holds offset, if it has a .loc. */
static const Instr *instr_at(const Module *m, uint32_t offset)
{
    for (uint32_t f = 0; f < m->functions.len; f++) {
        const Function *fn = m->functions.data[f];
        for (uint32_t i = 0; i < fn->code.len; i++) {
            const Instr *in = &fn->code.data[i];
            if (offset >= in->stmt_at.offset && offset < in->stmt_at.offset + (in->stmt_at.length ? in->stmt_at.length : 1))
                return in->loc_line ? in : NULL;
        }
    }
    return NULL;
}

void srcline_note(SourceMap *s, FILE *out, Span at, bool color)
{
    const Instr *in = s ? instr_at(s->m, at.offset) : NULL;
    if (!in || in == s->last) {
        if (!in && s)
            s->last = NULL;
        return;
    }
    s->last = in;
    uint32_t k = 0;
    while (k < s->m->files.len && s->m->files.data[k].number != in->loc_file)
        k++;
    if (k == s->m->files.len)
        return;                                /* a .loc without its .file: no name to give */
    char *written = unquoted(s->m->files.data[k].path);
    Source *src = file_text(s, k);
    const char *name = src ? s->paths[k] : written;
    char column[16] = "";
    if (in->loc_col)
        snprintf(column, sizeof column, ":%u", in->loc_col);
    fprintf(out, color ? "\033[1m%s:%u%s: \033[1;36mnote:\033[0m\033[1m in the CUDA source\033[0m\n"
                       : "%s:%u%s: note: in the CUDA source\n", name, in->loc_line, column);
    uint32_t len;
    const char *text = src ? source_line(src, in->loc_line, &len) : NULL;
    if (text && in->loc_line <= src->line_count) {
        fprintf(out, "%5u | ", in->loc_line);
        for (uint32_t i = 0; i < len; i++)     /* control characters shown as '?' */
            fputc((unsigned char)text[i] < 0x20 && text[i] != '\t' ? '?' : text[i], out);
        fputc('\n', out);
    }
    free(written);
}

/* ---- --trace-ops, --trace-lines ---- */

/* "shfl,bar": every opcode of ops.def whose name is one of these or starts with it and a dot
 * (shfl: shfl and shfl.sync; bar: bar and bar.warp.sync, not barrier). */
bool srcline_trace_ops(TraceFilter *f, const char *list, Msg *err)
{
    f->by_op = true;
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        bool any = false;
        for (int op = 0; op < OP_COUNT && len; op++) {
            const char *name = op_info[op].name;
            if (!strncmp(name, p, len) && (name[len] == '\0' || name[len] == '.')) {
                f->ops[op / 64] |= 1ull << (op % 64);
                any = true;
            }
        }
        if (!any) {
            msg_set(err, "--trace-ops: '%.*s' is not an instruction (ptxrun --list-ops lists them)", (int)len, p);
            return false;
        }
        p += len + (end != NULL);
    }
    return true;
}

static bool line_range(const char *p, size_t len, uint32_t *first, uint32_t *last)
{
    char text[64];
    if (len == 0 || len >= sizeof text)
        return false;
    memcpy(text, p, len);
    text[len] = '\0';
    char *end;
    unsigned long a = strtoul(text, &end, 10), b = a;
    if (end == text || text[0] == '-' || text[0] == '+')
        return false;
    if (*end == '-') {
        char *from = end + 1;
        b = strtoul(from, &end, 10);
        if (end == from || *from == '-' || *from == '+')
            return false;
    }
    if (*end || a == 0 || b < a || b > UINT32_MAX)
        return false;
    *first = (uint32_t)a;
    *last = (uint32_t)b;
    return true;
}

/* The last ':' of the len bytes at p (what is before it names a file), or NULL. */
static const char *last_colon(const char *p, size_t len)
{
    const char *colon = NULL;
    for (const char *c = p; c < p + len; c++)
        colon = *c == ':' ? c : colon;
    return colon;
}

/* "120-130,kernel.cu:40-45": PTX lines, or lines of the .file whose path is FILE or ends in
 * "/FILE". The ranges are malloc'ed into f->ranges. */
bool srcline_trace_lines(TraceFilter *f, const Module *m, const char *list, Msg *err)
{
    return srcline_ranges(f, m, list, "--trace-lines", err);
}

/* list's LINE, FIRST-LAST, FILE:FIRST-LAST ranges into f; option names the option in messages */
bool srcline_ranges(TraceFilter *f, const Module *m, const char *list, const char *option, Msg *err)
{
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *colon = last_colon(p, len);
        TraceRange r = { 0, 0, 0 };
        const char *lines = colon ? colon + 1 : p;
        if (!line_range(lines, (size_t)(p + len - lines), &r.first, &r.last)) {
            char *shown = demangle_cut(p, len, DEMANGLE_SHOWN);
            msg_set(err, "%s: '%s' is not LINE, FIRST-LAST or FILE:FIRST-LAST (lines from 1)", option,
                    shown);
            free(shown);
            return false;
        }
        if (colon) {
            size_t n = (size_t)(colon - p);
            for (uint32_t k = 0; k < m->files.len && !r.file; k++) {
                char *path = unquoted(m->files.data[k].path);
                size_t pl = strlen(path);
                if (pl >= n && !strncmp(path + pl - n, p, n) && (pl == n || path[pl - n - 1] == '/'))
                    r.file = k + 1;
                free(path);
            }
            if (!r.file) {
                char *shown = demangle_cut(p, n, PATH_SHOWN);
                msg_set(err, "%s: no .file of the PTX is '%s'", option, shown);
                free(shown);
                for (uint32_t k = 0; k < m->files.len; k++)
                    msg_add(err, "%s %s", k ? "," : "; its files:", m->files.data[k].path);
                if (!m->files.len)
                    msg_add(err, " (it has no .file: compile with nvcc -lineinfo)");
                return false;
            }
        }
        f->ranges = xrealloc(f->ranges, (f->range_count + 1) * sizeof *f->ranges);
        f->ranges[f->range_count++] = r;
        p += len + (end != NULL);
    }
    return true;
}

static int by_line(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The lines of p's instructions in file (0: PTX lines), sorted, each once, from xmalloc;
 * *count of them. */
static uint32_t *code_lines(const Program *p, uint32_t file, uint32_t *count)
{
    uint32_t *lines = xmalloc((p->code_len ? p->code_len : 1) * sizeof *lines), n = 0;
    for (uint32_t pc = 0; pc < p->code_len; pc++) {
        const XInstr *x = &p->code[pc];
        uint32_t line = file ? (x->src_file == file ? x->src_line : 0) : x->line;
        if (line)
            lines[n++] = line;
    }
    qsort(lines, n, sizeof *lines, by_line);
    *count = 0;
    for (uint32_t i = 0; i < n; i++)
        if (*count == 0 || lines[*count - 1] != lines[i])
            lines[(*count)++] = lines[i];
    return lines;
}

/* Whether one of the sorted lines lies in [first, last]. */
static bool any_in(const uint32_t *lines, uint32_t count, uint32_t first, uint32_t last)
{
    for (uint32_t i = 0; i < count; i++)
        if (lines[i] >= first && lines[i] <= last)
            return true;
    return false;
}

/* The sorted lines as ranges, "6, 8-11, 14", into out: as many as fit in a short message. */
static void write_ranges(char *out, size_t size, const uint32_t *lines, uint32_t count)
{
    enum { SHOWN_RANGES = 8 };
    size_t used = 0;
    out[0] = '\0';
    for (uint32_t i = 0, shown = 0; i < count && used < size; shown++) {
        uint32_t j = i;
        while (j + 1 < count && lines[j + 1] == lines[j] + 1)
            j++;
        int w = shown == SHOWN_RANGES ? snprintf(out + used, size - used, ", ...") :
                lines[j] > lines[i] ? snprintf(out + used, size - used, "%s%u-%u", i ? ", " : "", lines[i], lines[j]) :
                snprintf(out + used, size - used, "%s%u", i ? ", " : "", lines[i]);
        used += w > 0 ? (size_t)w : size;
        i = shown == SHOWN_RANGES ? count : j + 1;
    }
}

/* Each range of --trace-lines (list, as srcline_trace_lines read it into f) picks some
 * instruction of the program: one that picks none is a mistake (a line without code, a line
 * of another kernel), said with the lines that do have code, rather than an empty trace. */
bool srcline_trace_lines_reached(const TraceFilter *f, const Program *p, const char *list, Msg *err)
{
    static const char none[] = "--trace-lines: no instruction of the kernel (or of a function it calls) is on";
    const char *item = list;
    bool reached = true;
    for (uint32_t i = 0; i < f->range_count && reached; i++) {
        const TraceRange *r = &f->ranges[i];
        size_t len = strcspn(item, ",");
        uint32_t count;
        uint32_t *lines = code_lines(p, r->file, &count);
        reached = any_in(lines, count, r->first, r->last);
        if (!reached) {
            const char *colon = last_colon(item, len);
            int file_len = colon ? (int)(colon - item) : 0;
            char ranges[200];          /* 8 ranges of two 10-digit lines and ", ..." */
            write_ranges(ranges, sizeof ranges, lines, count);
            if (r->file && count)
                msg_set(err, "%s %.*s; its code in %.*s is on lines %s", none, (int)len, item, file_len, item,
                        ranges);
            else if (r->file)
                msg_set(err, "%s %.*s; none of them is in %.*s", none, (int)len, item, file_len, item);
            else if (count)
                msg_set(err, "%s PTX line%s %.*s; its code is on PTX lines %s", none,
                        memchr(item, '-', len) ? "s" : "", (int)len, item, ranges);
            else
                msg_set(err, "%s PTX line%s %.*s: the kernel has no instruction", none,
                        memchr(item, '-', len) ? "s" : "", (int)len, item);
        }
        free(lines);
        item += len + (item[len] == ',');
    }
    return reached;
}
