/* dump.c: the warp's final state out: a table (one row per lane or thread, a column per
 * register, values in their type, then each buffer in rows of eight) or JSON that is itself
 * valid --lanes input; --warps and --threads choose the table's rows. Formats a value as the
 * table and as JSON write it (trace.c and expect.c too).
 * Requires: a Warp that has run; lanes.c (block_thread_warp), convert.c (half formats). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { TABLE_WIDTH = 100 };

uint64_t dump_buffer_element(const Region *r, uint64_t i, uint64_t *bits)
{
    unsigned size = type_info[r->type].bits / 8;
    uint64_t dbits = 0;
    *bits = 0;
    for (unsigned k = 0; k < size; k++) {
        *bits |= (uint64_t)r->data[i * size + k] << (8 * k);
        dbits |= (uint64_t)(r->shadow ? r->shadow[i * size + k] : 0xff) << (8 * k);   /* NULL: all defined */
    }
    return dbits;
}

uint64_t dump_buffer_count(const Region *r)
{
    return r->size / (type_info[r->type].bits / 8);
}

/* A hash of a buffer's bytes and their defined bits, before and after the run: the table shows
 * a buffer whose hash the run left as it was as one line, "unchanged". (A changed buffer read as
 * unchanged would need two different contents of the same 64-bit hash.) */
static uint64_t buffer_hash(const Region *r)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ r->size;
    for (int pass = 0; pass < 2; pass++) {
        const uint8_t *p = pass ? r->shadow : r->data;   /* no shadow: every bit defined, 0xff bytes */
        uint64_t i = 0, w = ~0ull;
        for (; i + 8 <= r->size; i += 8) {
            if (p)
                memcpy(&w, p + i, 8);
            h = (h ^ w) * 0xff51afd7ed558ccdu;
            h ^= h >> 29;
        }
        for (; i < r->size; i++)
            h = ((h ^ (p ? p[i] : 0xff)) * 0xc4ceb9fe1a85ec53u) ^ (h >> 31);
    }
    return h;
}

uint64_t *dump_buffer_hashes(const Block *b)
{
    uint64_t *h = xmalloc((b->mem.count + 1) * sizeof *h);
    for (uint32_t k = 0; k < b->mem.count; k++)
        h[k] = b->mem.regions[k].is_buffer ? buffer_hash(&b->mem.regions[k]) : 0;
    return h;
}

static bool listed(const char *only, const char *name);

/* Rows of eight values. As in hexdump, a run of rows equal to the one before is shown as one
 * "*" line, so that a large buffer that is mostly zero (or undef) stays readable; the last row
 * is always shown. --json lists every value. */
static void print_buffers_table(FILE *out, const Block *b, const TableView *v)
{
    enum { PER_ROW = 8, CELL = 66 };   /* ' ' and up to 64 characters (format_value's buffer) */
    char row[PER_ROW * CELL + 1], previous[PER_ROW * CELL + 1];
    bool hex = v->hex, all = v->buffers && !strcmp(v->buffers, "all");
    for (uint32_t k = 0; k < b->mem.count; k++) {
        const Region *r = &b->mem.regions[k];
        if (!r->is_buffer || (v->buffers && !all && !listed(v->buffers, r->name)))
            continue;
        uint64_t n = dump_buffer_count(r);
        if (!v->buffers && v->before && v->before[k] == buffer_hash(r)) {
            fprintf(out, "\nbuffer %s: .%s[%llu], unchanged (--buffers %s shows it)\n", r->name,
                    type_info[r->type].name, (unsigned long long)n, r->name);
            continue;
        }
        fprintf(out, "\nbuffer %s: .%s[%llu]", r->name, type_info[r->type].name, (unsigned long long)n);
        fprintf(out, r->replicas ? ", multimem: copy 0 of %u (%s@1 ...: the others)\n" : "\n", r->replicas, r->name);
        bool starred = false;
        previous[0] = '\0';
        size_t element = type_info[r->type].bits / 8, row_bytes = PER_ROW * element;
        for (uint64_t i = 0; i < n; i += PER_ROW) {
            bool last = i + PER_ROW >= n;
            size_t at = (size_t)i * element;
            if (!last && i > 0 && memcmp(r->data + at, r->data + at - row_bytes, row_bytes) == 0 &&
                (!r->shadow || memcmp(r->shadow + at, r->shadow + at - row_bytes, row_bytes) == 0)) {
                if (!starred)                  /* the same bytes as the row before: no need to format */
                    fputs("*\n", out);
                starred = true;
                continue;
            }
            size_t len = 0;
            row[0] = '\0';
            for (uint64_t e = i; e < i + PER_ROW && e < n; e++) {
                uint64_t bits, dbits = dump_buffer_element(r, e, &bits), full = width_mask(type_info[r->type].bits);
                char buf[64];
                if (dbits == full && !hex)
                    format_value(buf, sizeof buf, bits, r->type);
                else
                    format_partial(buf, sizeof buf, bits, dbits, type_info[r->type].bits);
                int wrote = snprintf(row + len, sizeof row - len, " %11s", buf);
                len = wrote < 0 || (size_t)wrote >= sizeof row - len ? sizeof row - 1 : len + (size_t)wrote;
            }
            if (!last && i > 0 && strcmp(row, previous) == 0) {
                if (!starred)
                    fputs("*\n", out);
                starred = true;
                continue;
            }
            starred = false;
            fprintf(out, "%6llu:%s\n", (unsigned long long)i, row);
            memcpy(previous, row, len + 1);
        }
    }
}

/* s as a JSON string: quotes, backslashes and control characters escaped. */
static void print_json_string_body(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
}

static void print_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    print_json_string_body(out, s);
    fputc('"', out);
}

static void print_buffers_json(FILE *out, const Block *b)
{
    bool first = true;
    fputs(",\n  \"buffers\": {", out);
    for (uint32_t k = 0; k < b->mem.count; k++) {
        const Region *r = &b->mem.regions[k];
        if (!r->is_buffer)
            continue;
        fputs(first ? "\n    " : ",\n    ", out);
        print_json_string(out, r->name);
        fprintf(out, ": {\"type\": \"%s\", ", type_info[r->type].name);
        if (r->replicas)
            fprintf(out, "\"replicas\": %u, ", r->replicas);
        fputs("\"data\": [", out);
        first = false;
        for (uint64_t i = 0; i < dump_buffer_count(r); i++) {
            uint64_t bits, dbits = dump_buffer_element(r, i, &bits), full = width_mask(type_info[r->type].bits);
            char buf[64];
            if (dbits == full) {
                format_json_value(buf, sizeof buf, bits, r->type);
            } else if (!dbits) {
                snprintf(buf, sizeof buf, "null");
            } else {
                char text[32];
                format_partial(text, sizeof text, bits, dbits, type_info[r->type].bits);
                snprintf(buf, sizeof buf, "\"%s\"", text);
            }
            fprintf(out, "%s%s", i ? ", " : "", buf);
        }
        fputs("]}", out);
    }
    fputs(first ? "}" : "\n  }", out);
}

/* ---- the table ---- */

typedef struct Column {
    const char *name;
    bool is_pred;
    uint32_t slot;
    int type;
    unsigned width;
} Column;

static bool listed(const char *only, const char *name)
{
    if (!only)
        return true;
    size_t n = strlen(name);
    for (const char *p = only; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p += len + (p[len] == ',');
    }
    return false;
}

/* Edits (insert, delete, replace a character) from a to b, stopping past 3. */
static unsigned edits(const char *a, const char *b)
{
    size_t n = strlen(b);
    if (n > 62)
        return 4;
    unsigned row[64];
    for (size_t j = 0; j <= n; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; a[i - 1]; i++) {
        unsigned diag = row[0], best = row[0] = (unsigned)i;
        for (size_t j = 1; j <= n; j++) {
            unsigned up = row[j], v = diag + (a[i - 1] != b[j - 1]);
            v = up + 1 < v ? up + 1 : v;
            v = row[j - 1] + 1 < v ? row[j - 1] + 1 : v;
            diag = up;
            row[j] = v;
            best = v < best ? v : best;
        }
        if (best > 3)
            return 4;
    }
    return row[n];
}

bool dump_check_regs(const Block *b, const char *only, Msg *err)
{
    const Function *f = b->prog.fn;
    if (only && !strcmp(only, "all"))
        return true;
    for (const char *p = only; p && *p;) {
        size_t len = strcspn(p, ",");
        char *name = xmalloc(len + 1);
        memcpy(name, p, len);
        name[len] = '\0';
        p += len + (p[len] == ',');
        bool found = false;
        for (uint32_t i = 0; i < f->regs.len + f->preds.len && !found; i++) {
            const Register *r = i < f->regs.len ? &f->regs.data[i] : &f->preds.data[i - f->regs.len];
            found = r->name && !(i < f->regs.len && r->upper) && !strcmp(r->name, name);
        }
        if (found) {
            free(name);
            continue;
        }
        char *kernel = demangle_shown(f->name);
        char *shown = demangle_cut(name, len, DEMANGLE_SHOWN);
        msg_set(err, "--regs: '%s' is not a register or predicate of '%s'", shown, kernel);
        free(kernel);
        free(shown);
        unsigned close = 0;
        for (uint32_t i = 0; i < f->regs.len + f->preds.len && close < 5; i++) {
            const Register *r = i < f->regs.len ? &f->regs.data[i] : &f->preds.data[i - f->regs.len];
            if (!r->name || (i < f->regs.len && r->upper) || edits(name, r->name) > (strlen(name) <= 3 ? 1u : 2u))
                continue;
            msg_add(err, "%s'%s'", close++ ? ", " : " (close: ", r->name);
        }
        if (close)
            msg_add(err, ")");
        free(name);
        return false;
    }
    return true;
}

bool dump_check_buffers(const Block *b, const char *only, Msg *err)
{
    if (!only || !strcmp(only, "all") || !strcmp(only, "none"))
        return true;
    for (const char *p = only; ; p++) {      /* every item, an empty one too ("", "x,", "x,,y") */
        size_t len = strcspn(p, ",");
        bool found = false;
        for (uint32_t k = 0; k < b->mem.count && !found; k++) {
            const Region *r = &b->mem.regions[k];
            found = r->is_buffer && strlen(r->name) == len && !strncmp(r->name, p, len);
        }
        if (!found) {
            char *shown = demangle_cut(p, len, DEMANGLE_SHOWN);
            msg_set(err, "--buffers: '%s' is not a buffer of the run; its buffers:", shown);
            free(shown);
            bool any = false;
            for (uint32_t k = 0; k < b->mem.count; k++)
                if (b->mem.regions[k].is_buffer) {
                    msg_add(err, "%s %s", any ? "," : "", b->mem.regions[k].name);
                    any = true;
                }
            if (!any)
                msg_add(err, " none");
            return false;
        }
        if (!p[len])
            return true;
        p += len;
    }
}

/* The columns, in *cols (to free; as many as the kernel has registers): with only, the registers
 * it lists; with trim, those given marks (NULL: none); else every register the program names
 * (range registers it never mentions are left out). */
static uint32_t collect_columns(const Block *b, const char *only, const bool *given, bool trim, Column **out)
{
    const Function *f = b->prog.fn;
    Column *cols = *out = xmalloc(((size_t)f->regs.len + f->preds.len + 1) * sizeof *cols);
    bool *used = xcalloc(f->regs.len + f->preds.len + 1, sizeof *used);
    for (uint32_t i = 0; i < b->prog.kernel_code_len; i++) {
        const XInstr *x = &b->prog.code[i];
        if (x->dst_kind == DST_VALUE) used[x->dst] = true;
        if (x->dst_kind == DST_PRED) used[f->regs.len + x->dst] = true;
        if (x->dst_pred != NO_SLOT) used[f->regs.len + x->dst_pred] = true;
        if (x->guard) used[f->regs.len + x->guard_pred] = true;
        for (unsigned v = 0; v < x->vec_count && v < VEC_MAX; v++)
            if (x->vec[v] < b->prog.reg_count)
                used[x->vec[v]] = true;
        for (unsigned v = 0; v < x->elements; v++)     /* atom.v4 {a, b, c, d}, ... */
            if (x->dsts[v] < b->prog.reg_count)
                used[x->dsts[v]] = true;
        if (x->op == OP_MMA || x->op == OP_MMA_SP || x->op == OP_MMA_SP_ORDERED || x->op == OP_WMMA_MMA)   /* D, A, B, C (e) */
            for (uint32_t v = 0; v < x->target_count; v++)
                if (b->prog.mma_rows[b->prog.mma_forms[x->target].rows + v] < b->prog.reg_count)
                    used[b->prog.mma_rows[b->prog.mma_forms[x->target].rows + v]] = true;
        if (x->op == OP_WMMA_LOAD || x->op == OP_WMMA_STORE)   /* their fragments */
            for (uint32_t v = 0; v < x->target_count; v++)
                if (b->prog.mma_rows[x->target + v] < b->prog.reg_count)
                    used[b->prog.mma_rows[x->target + v]] = true;
        if (x->op == OP_CALL && x->target < b->prog.call_count) {    /* results passed in registers */
            const CallSite *site = &b->prog.calls[x->target];
            for (unsigned r = 0; r < site->ret_count; r++)
                for (unsigned j = 0; j < site->ret_regs[r].count; j++) {
                    uint32_t to = site->ret_regs[r].to[j];
                    if (site->ret_regs[r].pred ? to < f->preds.len : to < b->prog.reg_count)
                        used[site->ret_regs[r].pred ? f->regs.len + to : to] = true;
                }
        }
        for (unsigned s = 0; s < x->src_count; s++) {
            if (x->src_pred >> s & 1) {
                if (x->src[s] < f->preds.len)
                    used[f->regs.len + x->src[s]] = true;
            } else if (x->src[s] < b->prog.reg_count) {
                used[x->src[s]] = true;
            }
        }
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < f->regs.len + f->preds.len; i++) {
        bool pred = i >= f->regs.len;
        const Register *r = pred ? &f->preds.data[i - f->regs.len] : &f->regs.data[i];
        if (!pred && r->upper)
            continue;                          /* shown with its .b128 register (the slot before) */
        if (only ? !listed(only, r->name) : trim ? !(given && given[i])
                                                 : !used[i] && !(r->type == TYPE_B128 && used[i + 1]))
            continue;
        cols[n++] = (Column){ r->name, pred, pred ? i - (uint32_t)f->regs.len : i, pred ? TYPE_PRED : r->type, 0 };
    }
    free(used);
    return n;
}

static void cell(const Warp *w, const Column *c, int lane, bool hex, char *buf, size_t size)
{
    if (c->is_pred) {
        if (!(w->pred_defined[c->slot] >> lane & 1))
            snprintf(buf, size, "undef");
        else
            snprintf(buf, size, "%s", (w->pred[c->slot] >> lane & 1) ? "true" : "false");
    } else if (c->type == TYPE_B128) {
        format_wide(buf, size, w, c->slot, lane, false);
    } else if (!(w->defined[c->slot] >> lane & 1)) {
        format_partial(buf, size, w->val[c->slot][lane], w->bits[c->slot][lane], type_info[c->type].bits);
    } else if (hex) {
        format_partial(buf, size, w->val[c->slot][lane], UINT64_MAX, type_info[c->type].bits);
    } else {
        format_value(buf, size, w->val[c->slot][lane], c->type);
    }
}

/* Rows of the table: a one-warp block's lanes (up to its thread count), or every thread. */
static uint32_t row_count(const Block *b)
{
    return b->threads < WARP_SIZE || b->warp_count > 1 ? b->threads : WARP_SIZE;
}

/* "0,2-3" (numbers and ranges below limit) into marks; false with err if malformed. */
static bool parse_selection(const char *text, const char *option, uint32_t limit, const char *what, bool *marks,
                            Msg *err)
{
    const char *p = text;
    for (;;) {
        char *end;
        if (*p < '0' || *p > '9')
            goto bad;
        unsigned long first = strtoul(p, &end, 10), last = first;
        p = end;
        if (*p == '-') {
            if (p[1] < '0' || p[1] > '9')
                goto bad;
            last = strtoul(p + 1, &end, 10);
            p = end;
        }
        if (last < first)
            goto bad;
        if (last >= limit) {
            msg_set(err, "%s: %s %lu does not exist (the block has %u %s%s)", option, what, last, limit, what,
                    limit == 1 ? "" : "s");
            return false;
        }
        for (unsigned long i = first; i <= last; i++)
            marks[i] = true;
        if (!*p)
            return true;
        if (*p++ != ',')
            goto bad;
    }
bad:;
    char *shown = demangle_cut(text, strlen(text), DEMANGLE_SHOWN);
    msg_set(err, "%s: expected numbers and ranges such as 0,2-3, not '%s'", option, shown);
    free(shown);
    return false;
}

bool dump_select(const Block *b, const char *warps, const char *threads, bool *shown, Msg *err)
{
    bool by_warp[MAX_WARPS] = { false }, by_thread[MAX_BLOCK_THREADS] = { false };
    if (warps && !parse_selection(warps, "--warps", b->warp_count, "warp", by_warp, err))
        return false;
    if (threads && !parse_selection(threads, "--threads", b->threads, "thread", by_thread, err))
        return false;
    for (uint32_t t = 0; t < MAX_BLOCK_THREADS; t++)
        shown[t] = (!warps && !threads) || by_thread[t] || (t / WARP_SIZE < MAX_WARPS && by_warp[t / WARP_SIZE]);
    return true;
}

/* The registers of the program a module's table leaves out (hidden[i]), counted by name
 * without its number ("%r 20, %rd 12, %p 3"), after "registers: " or "other registers: ". */
static void print_summary(FILE *out, const Column *all, uint32_t count, const Column *shown, uint32_t n)
{
    uint32_t hidden = 0;
    bool *counted = xcalloc(count + 1, sizeof *counted);
    for (uint32_t i = 0; i < count; i++) {
        bool in_table = false;
        for (uint32_t k = 0; k < n && !in_table; k++)
            in_table = shown[k].is_pred == all[i].is_pred && shown[k].slot == all[i].slot;
        counted[i] = in_table;
        hidden += !in_table;
    }
    if (hidden) {
        fprintf(out, "%s%u (", n ? "other registers: " : "registers: ", hidden);
        const char *sep = "";
        for (uint32_t i = 0; i < count; i++) {
            if (counted[i])
                continue;
            size_t len = strlen(all[i].name);
            while (len > 1 && all[i].name[len - 1] >= '0' && all[i].name[len - 1] <= '9')
                len--;
            uint32_t same = 0;
            for (uint32_t k = i; k < count; k++)
                if (!counted[k] && !strncmp(all[k].name, all[i].name, len) &&
                    strspn(all[k].name + len, "0123456789") == strlen(all[k].name + len) &&
                    (all[k].name[len] || !all[i].name[len])) {
                    counted[k] = true;
                    same++;
                }
            fprintf(out, "%s%.*s %u", sep, (int)len, all[i].name, same);
            sep = ", ";
        }
        fputs("); --regs NAME,... or --regs all shows them\n", out);
    }
    free(counted);
}

/* Which CTA the registers are of, when the grid has several. */
static void print_cta_line(FILE *out, const Block *b, const TableView *v)
{
    unsigned long long ctas = block_cta_count(b);
    if (ctas <= 1)
        return;
    fprintf(out, "(registers of CTA (%u, %u, %u)", b->ctaid[0], b->ctaid[1], b->ctaid[2]);
    bool chosen = v->cta_given && !memcmp(v->cta, b->ctaid, sizeof b->ctaid);
    if (chosen)
        fprintf(out, ", chosen with --cta, of the grid's %llu CTAs", ctas);
    else if (v->stopped)
        fprintf(out, ", where the run stopped, of the grid's %llu CTAs", ctas);
    else
        fprintf(out, ", the last of the grid's %llu CTAs to run; --cta X,Y,Z shows another", ctas);
    if (v->cta_given && !chosen)
        fprintf(out, "; CTA (%u, %u, %u) did not run", v->cta[0], v->cta[1], v->cta[2]);
    fputs(")\n", out);
}

bool *dump_given(const Block *b)
{
    const Function *f = b->prog.fn;
    bool *given = xcalloc(f->regs.len + f->preds.len + 1, sizeof *given);
    for (uint32_t k = 0; k < b->warp_count; k++) {
        const Warp *w = b->warps[k];
        for (uint32_t i = 0; i < f->regs.len && i < b->prog.reg_count; i++)
            for (int l = 0; l < WARP_SIZE && !given[i]; l++)
                given[i] = (w->defined[i] >> l & 1) || w->val[i][l] || w->bits[i][l];
        for (uint32_t i = 0; i < f->preds.len && i + PRED_CONSTANTS < b->prog.pred_count; i++)
            given[f->regs.len + i] |= w->pred[i] || w->pred_defined[i];
    }
    for (uint32_t i = 0; i + 1 < f->regs.len; i++)     /* a .b128 register by either half */
        if (f->regs.data[i].type == TYPE_B128)
            given[i] |= given[i + 1];
    return given;
}

void dump_print_table(FILE *out, const Block *b, const TableView *view)
{
    static const TableView whole = { 0 };
    const TableView *v = view ? view : &whole;
    const char *only = v->regs && strcmp(v->regs, "all") ? v->regs : NULL;
    const bool *shown = v->threads;
    bool trim = !v->regs && view && !b->prog.fn->is_snippet;
    Column *cols;
    uint32_t n = collect_columns(b, only, v->given, trim, &cols);
    uint32_t rows = row_count(b);
    bool many = b->warp_count > 1;
    char buf[64];
    for (uint32_t i = 0; i < n; i++) {
        unsigned width = (unsigned)strlen(cols[i].name);
        for (uint32_t t = 0; t < rows; t++) {
            int lane;
            const Warp *x = block_thread_warp(b, t, &lane);
            cell(x, &cols[i], lane, v->hex, buf, sizeof buf);
            if (strlen(buf) > width)
                width = (unsigned)strlen(buf);
        }
        cols[i].width = width;
    }
    const unsigned lane_width = many ? 8 : 6;     /* "lane  " / "31*   ", "thread  " */
    uint32_t start = 0;
    if (n == 0 && !trim)
        fputs("(no registers)\n", out);
    while (start < n) {
        uint32_t end = start;
        unsigned used = lane_width;
        while (end < n && (end == start || used + 2 + cols[end].width <= TABLE_WIDTH))
            used += 2 + cols[end++].width;
        if (start > 0)
            fputc('\n', out);
        fprintf(out, "%-*s", lane_width, many ? "thread" : "lane");
        for (uint32_t i = start; i < end; i++)
            fprintf(out, "  %*s", cols[i].width, cols[i].name);
        fputc('\n', out);
        uint32_t heading = NO_SLOT;
        for (uint32_t t = 0; t < rows; t++) {
            if (shown && !shown[t])
                continue;
            int lane;
            const Warp *x = block_thread_warp(b, t, &lane);
            if (many && heading != x->index) {
                heading = x->index;
                uint32_t last = x->thread_base + WARP_SIZE - 1 < b->threads ? x->thread_base + WARP_SIZE - 1
                                                                           : b->threads - 1;
                fprintf(out, "-- warp %u: threads %u-%u\n", x->index, x->thread_base, last);
            }
            char label[16];
            snprintf(label, sizeof label, "%u%s", t, (x->launched >> lane & 1) ? "" : "-");
            fprintf(out, "%-*s", lane_width, label);
            for (uint32_t i = start; i < end; i++) {
                cell(x, &cols[i], lane, v->hex, buf, sizeof buf);
                fprintf(out, "  %*s", cols[i].width, buf);
            }
            fputc('\n', out);
        }
        start = end;
    }
    if (n && !many && b->warps[0]->launched != (rows >= WARP_SIZE ? ALL_LANES : (1u << rows) - 1))
        fputs("(lanes marked - were not active)\n", out);
    if (trim) {
        Column *all;
        uint32_t count = collect_columns(b, NULL, NULL, false, &all);
        print_summary(out, all, count, cols, n);
        free(all);
    }
    free(cols);
    print_cta_line(out, b, v);
    print_buffers_table(out, b, v);
    fprintf(out, "%llu warp-steps\n", (unsigned long long)b->steps);
}

/* ---- JSON ---- */

/* text as a JSON string: quotes, backslashes and control characters escaped, other bytes as
 * they are (the kernel's UTF-8 stays UTF-8). */
static void json_text(FILE *out, const char *text, size_t len)
{
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", out);
        else if (ch == '\t')
            fputs("\\t", out);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

/* "regs": {...}, "preds": {...} of every register the program names, each line after indent. */
static void print_regs_json(FILE *out, const Block *b, const char *indent)
{
    Column *cols;
    uint32_t n = collect_columns(b, NULL, NULL, false, &cols);
    uint32_t values = b->warp_count > 1 ? b->threads : WARP_SIZE;
    char buf[64];
    fprintf(out, "%s\"regs\": {", indent);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            fprintf(out, "\n%s},\n%s\"preds\": {", indent, indent);
        bool first = true;
        for (uint32_t i = 0; i < n; i++) {
            const Column *c = &cols[i];
            if (c->is_pred != (pass == 1))
                continue;
            fprintf(out, "%s\n%s  ", first ? "" : ",", indent);
            uint32_t again = lanes_declared_before(b->prog.fn, c->is_pred, c->slot);
            fputc('"', out);
            print_json_string_body(out, c->name);
            if (again)                     /* a name declared again in an inner { }: "%p1@2" */
                fprintf(out, "@%u", again + 1);
            fputs("\": [", out);
            first = false;
            for (uint32_t t = 0; t < values; t++) {
                int l;
                const Warp *x = block_thread_warp(b, t, &l);
                if (c->is_pred)
                    snprintf(buf, sizeof buf, "%s", !(x->pred_defined[c->slot] >> l & 1) ? "null"
                             : (x->pred[c->slot] >> l & 1) ? "true" : "false");
                else if (c->type == TYPE_B128)
                    format_wide(buf, sizeof buf, x, c->slot, l, true);
                else if (!(x->defined[c->slot] >> l & 1) && !x->bits[c->slot][l])
                    snprintf(buf, sizeof buf, "null");
                else if (!(x->defined[c->slot] >> l & 1)) {
                    char text[32];
                    format_partial(text, sizeof text, x->val[c->slot][l], x->bits[c->slot][l], type_info[c->type].bits);
                    snprintf(buf, sizeof buf, "\"%s\"", text);
                }
                else
                    format_json_value(buf, sizeof buf, x->val[c->slot][l], c->type);
                fprintf(out, "%s%s", t ? ", " : "", buf);
            }
            fputc(']', out);
        }
    }
    fprintf(out, "\n%s}", indent);
    free(cols);
}

static void print_exited_json(FILE *out, const Block *b)
{
    if (b->warp_count == 1) {
        fprintf(out, "\"0x%08x\"", b->warps[0]->exited);
        return;
    }
    fputc('[', out);
    for (uint32_t i = 0; i < b->warp_count; i++)
        fprintf(out, "%s\"0x%08x\"", i ? ", " : "", b->warps[i]->exited);
    fputc(']', out);
}

void dump_print_cta_json(FILE *out, const Block *b, bool first)
{
    fprintf(out, "%s\n    {\n      \"cta\": [%u, %u, %u],\n", first ? "" : ",", b->ctaid[0], b->ctaid[1], b->ctaid[2]);
    print_regs_json(out, b, "      ");
    fputs(",\n      \"exited\": ", out);
    print_exited_json(out, b);
    fputs("\n    }", out);
}

/* The name "@name" gives a parameter of bits: a buffer's address, a texture's, surface's or
 * sampler's handle; NULL when none. */
static const char *named_address(const Block *b, uint64_t bits)
{
    for (uint32_t k = 0; k < b->mem.count; k++) {
        const Region *r = &b->mem.regions[k];
        if (r->is_buffer && r->space == SPACE_GLOBAL && !strchr(r->name, '@') && mem_generic(SPACE_GLOBAL, r->base) == bits)
            return r->name;
    }
    if (bits - IMAGE_HANDLE_BASE < b->image_count)
        return b->images[bits - IMAGE_HANDLE_BASE].name;
    if (bits - SAMPLER_HANDLE_BASE < b->sampler_count)
        return b->samplers[bits - SAMPLER_HANDLE_BASE].name;
    return NULL;
}

/* "params": [...], each kernel parameter as a lanes file gives it (a kernel's parameters cannot
 * be written, so these are the launch's): "@name" for a buffer's address or an image's handle,
 * a value of the parameter's type, or {"bytes": [...]} for an array, a struct, or a value not
 * defined in every bit (null: an undefined byte). */
static void print_params_json(FILE *out, const Block *b)
{
    const Function *f = b->prog.fn;
    if (!f->params.len)
        return;
    fputs("  \"params\": [", out);
    for (uint32_t i = 0; i < f->params.len; i++) {
        const Decl *d = &f->params.data[i];
        uint8_t *shadow;
        uint32_t size;
        const uint8_t *data = block_param_bytes((Block *)b, i, &shadow, &size);   /* reads only */
        uint64_t bits = 0, dbits = 0;
        for (uint32_t k = 0; k < size && k < 8; k++) {
            bits |= (uint64_t)data[k] << (8 * k);
            dbits |= (uint64_t)shadow[k] << (8 * k);
        }
        bool scalar = !d->dim_count && d->type != TYPE_NONE && size <= 8 &&
                      dbits == width_mask(8 * size) && size * 8 == type_info[d->type].bits;
        const char *name = scalar && size == 8 ? named_address(b, bits) : NULL;
        char buf[64];
        fputs(i ? ", " : "", out);
        if (name) {
            fputc('"', out);
            fputc('@', out);
            print_json_string_body(out, name);
            fputc('"', out);
        } else if (scalar) {
            format_json_value(buf, sizeof buf, bits, d->type);
            fputs(buf, out);
        } else {
            fputs("{\"bytes\": [", out);
            for (uint32_t k = 0; k < size; k++) {
                if (shadow[k] == 0xff)
                    fprintf(out, "%s%u", k ? ", " : "", data[k]);
                else
                    fprintf(out, "%snull", k ? ", " : "");
            }
            fputs("]}", out);
        }
    }
    fputs("],\n", out);
}

void dump_print_json(FILE *out, const Block *b, const char *printed, size_t printed_len, FILE *ctas, FILE *matrices)
{
    fprintf(out, "{\n  \"block\": [%u, %u, %u],\n", b->ntid[0], b->ntid[1], b->ntid[2]);
    if (block_cta_count(b) > 1)
        fprintf(out, "  \"grid\": [%u, %u, %u],\n  \"cta\": [%u, %u, %u],\n", b->nctaid[0], b->nctaid[1], b->nctaid[2],
                b->ctaid[0], b->ctaid[1], b->ctaid[2]);
    if (b->warp_count == 1)
        fprintf(out, "  \"active\": \"0x%08x\",\n", b->warps[0]->launched);
    const Region *dynamic = b->prog.dynamic_region != NO_SLOT ? &b->mem.regions[b->prog.dynamic_region] : NULL;
    if (dynamic && dynamic->size)
        fprintf(out, "  \"dynamic_shared\": %llu,\n", (unsigned long long)dynamic->size);
    print_params_json(out, b);
    print_regs_json(out, b, "  ");
    print_buffers_json(out, b);
    fputs(",\n  \"exited\": ", out);
    print_exited_json(out, b);
    if (printed) {
        fputs(",\n  \"stdout\": ", out);
        json_text(out, printed, printed_len);
    }
    fprintf(out, ",\n  \"steps\": %llu,\n  \"warnings\": [", (unsigned long long)b->steps);
    bool any = false;
    for (uint32_t k = 0; k < b->warp_count; k++) {
        const Warp *x = b->warps[k];
        for (uint32_t i = 0; i < x->warnings.len; i++) {
            const Warning *y = &x->warnings.data[i];
            fprintf(out, "%s\n    {\"line\": %u, \"what\": ", any ? "," : "", b->prog.code[y->pc].line);
            print_json_string(out, y->what);
            fputs(", ", out);
            if (b->warp_count > 1)
                fprintf(out, "\"warp\": %u, ", k);
            fprintf(out, "\"lanes\": \"0x%08x\"}", y->lanes);
            any = true;
        }
    }
    fputs(any ? "\n  ]" : "]", out);
    if (ctas) {                        /* --all-ctas: dump_print_cta_json's elements */
        fputs(",\n  \"ctas\": [", out);
        rewind(ctas);
        char chunk[1 << 14];
        for (size_t got; (got = fread(chunk, 1, sizeof chunk, ctas)) > 0;)
            fwrite(chunk, 1, got, out);
        fputs("\n  ]", out);
    }
    if (matrices) {                    /* --matrix: matview.c's elements */
        fputs(",\n  \"matrices\": [", out);
        rewind(matrices);
        char chunk[1 << 14];
        bool some = false;
        for (size_t got; (got = fread(chunk, 1, sizeof chunk, matrices)) > 0; some = true)
            fwrite(chunk, 1, got, out);
        fputs(some ? "\n  ]" : "]", out);
    }
    fputs("\n}\n", out);
}
