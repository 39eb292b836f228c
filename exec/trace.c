/* trace.c: --trace. After each warp-step: the step, pc, PTX line and CUDA source line (.loc),
 * the lanes as 32 marks (# ran, w waiting, x exited, . elsewhere, - not launched), the
 * instruction, the values it wrote (a value every lane that ran wrote alike once, "7 (all)";
 * a few values with their lanes; else one per lane), for a shuffle which lane each lane read
 * (lane <- source; * out of range, so its own value; ? undefined), lanes that began or ended
 * waiting at a synchronising instruction, and where lanes parted (divergence) or met
 * (reconvergence). A TraceFilter picks the steps (by opcode, by line) and the registers
 * (--regs). --trace=json writes the same as one JSON object per line.
 * Requires: warp.c's StepTrace of the step. */
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "tensor.h"

static const char *const GREEN = "\033[32m", *const YELLOW = "\033[33m", *const DIM = "\033[2m",
                         *const RED = "\033[31m", *const RESET = "\033[0m";


static const FuncLayout *layout_of(const Warp *w, const Function *fn)
{
    for (uint32_t k = 0; k < w->prog->func_count; k++)
        if (w->prog->funcs[k].fn == fn)
            return &w->prog->funcs[k];
    return &w->prog->funcs[0];
}

/* The registers the instruction wrote: rows (and predicate slots) with their names. */
typedef struct Written {
    const char *name;
    uint32_t row;
    bool pred;
    int type;
} Written;

static unsigned written_by(const Warp *w, const XInstr *x, Written out[8])
{
    const FuncLayout *f = layout_of(w, x->owner);
    unsigned n = 0;
    if (x->op == OP_ST || x->op == OP_RED || x->op == OP_BRA || x->op == OP_CALL)
        return 0;
    MatrixView v;
    if (mmasource_layout(w, x, &v)) {               /* mma: its D registers */
        const MatrixOperand *d = &v.op[MATRIX_D];
        for (unsigned i = 0; i < d->reg_count && n < 8; i++)
            if (d->regs[i])
                out[n++] = (Written){ d->regs[i], d->reg_rows[i], false,
                                      f->fn->regs.data[d->reg_rows[i] - f->row_base].type };
        mmaview_free(&v);
        return n;
    }
    if ((x->op == OP_LD || x->op == OP_LDU || x->unpack) && x->vec_count) {
        for (unsigned i = 0; i < x->vec_count && n < 4; i++)
            if (x->vec[i] != NO_SLOT && x->vec[i] >= f->row_base && x->vec[i] - f->row_base < f->fn->regs.len) {
                const Register *r = &f->fn->regs.data[x->vec[i] - f->row_base];
                if (r->upper)
                    continue;                    /* shown with the .b128 register's low row */
                out[n++] = (Written){ r->name, x->vec[i], false, r->type };
            }
        return n;
    }
    if (x->elements > 1 && x->dsts[0] != NO_SLOT) {   /* atom.v4 {a, b, c, d}, multimem.ld_reduce.v4 */
        for (unsigned i = 0; i < x->elements && n < 4; i++)
            if (x->dsts[i] != NO_SLOT && x->dsts[i] >= f->row_base && x->dsts[i] - f->row_base < f->fn->regs.len) {
                const Register *r = &f->fn->regs.data[x->dsts[i] - f->row_base];
                out[n++] = (Written){ r->name, x->dsts[i], false, r->type };
            }
        return n;
    }
    if (x->dst_kind == DST_VALUE && x->dst >= f->row_base && x->dst - f->row_base < f->fn->regs.len) {
        const Register *r = &f->fn->regs.data[x->dst - f->row_base];
        out[n++] = (Written){ r->name, x->dst, false, r->type };
    }
    if (x->dst_kind == DST_PRED && x->dst >= f->pred_base && x->dst - f->pred_base < f->fn->preds.len)
        out[n++] = (Written){ f->fn->preds.data[x->dst - f->pred_base].name, x->dst, true, TYPE_PRED };
    if (x->dst_pred != NO_SLOT && x->dst_pred >= f->pred_base && x->dst_pred - f->pred_base < f->fn->preds.len)
        out[n++] = (Written){ f->fn->preds.data[x->dst_pred - f->pred_base].name, x->dst_pred, true, TYPE_PRED };
    return n;
}

static void value_text(char *buf, size_t size, const Warp *w, const Written *v, int lane, bool json);

/* "A,B" names name (or list is NULL) */
static bool in_list(const char *list, const char *name)
{
    if (!list)
        return true;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && !memcmp(p, name, n))
            return true;
        p += len + (end != NULL);
    }
    return false;
}

/* written_by, less the registers --regs leaves out */
static unsigned shown_writes(const Warp *w, const XInstr *x, const ExecOptions *o, Written out[8])
{
    unsigned n = written_by(w, x, out), kept = 0;
    const char *regs = o->trace_filter ? o->trace_filter->regs : NULL;
    for (unsigned i = 0; i < n; i++)
        if (in_list(regs, out[i].name))
            out[kept++] = out[i];
    return kept;
}

/* The lanes of the step that wrote: those whose guard held (or was undefined). After the step
 * the guard is read again, unless the instruction wrote it: then every lane of the step. */
static uint32_t writing_lanes(const Warp *w, const XInstr *x, uint32_t mask)
{
    if (!x->guard || x->dst_pred == x->guard_pred || (x->dst_kind == DST_PRED && x->dst == x->guard_pred))
        return mask;
    uint32_t p = w->pred[x->guard_pred], defined = w->pred_defined[x->guard_pred];
    return mask & ((x->guard == 1 ? p : ~p) | ~defined);
}

/* The lanes that ran, grouped by the value (as text) they wrote: at most max groups (false: more). */
typedef struct ValueGroup {
    char text[64];
    uint32_t lanes;
} ValueGroup;

static unsigned value_groups(const Warp *w, const Written *v, uint32_t mask, bool json, ValueGroup *g, unsigned max)
{
    unsigned n = 0;
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(mask >> l & 1))
            continue;
        char text[64];
        value_text(text, sizeof text, w, v, l, json);
        unsigned k = 0;
        while (k < n && strcmp(g[k].text, text))
            k++;
        if (k == n) {
            if (n == max)
                return max + 1;
            memcpy(g[n].text, text, sizeof text);
            g[n++].lanes = 0;
        }
        g[k].lanes |= 1u << l;
    }
    return n;
}

/* The CUDA source file's name (its last part), without the quotes of the .file string. */
static void source_name(char *buf, size_t size, const Warp *w, const XInstr *x)
{
    const char *path = w->prog->m->files.data[x->src_file - 1].path;
    const char *q = path[0] == '"' ? path + 1 : path;
    for (const char *p = q; *p; p++)
        if (*p == '/' && p[1] && p[1] != '"')
            q = p + 1;
    size_t len = strlen(q);
    if (len && q[len - 1] == '"')
        len--;
    snprintf(buf, size, "%.*s", (int)len, q);
}

static void value_text(char *buf, size_t size, const Warp *w, const Written *v, int lane, bool json)
{
    if (v->type == TYPE_B128) {
        format_wide(buf, size, w, v->row, lane, json);
    } else if (v->pred) {
        bool defined = w->pred_defined[v->row] >> lane & 1;
        snprintf(buf, size, "%s", !defined ? (json ? "null" : "undef") : (w->pred[v->row] >> lane & 1) ? "true" : "false");
    } else if (!(w->defined[v->row] >> lane & 1) && !w->bits[v->row][lane]) {
        snprintf(buf, size, "%s", json ? "null" : "undef");
    } else if (!(w->defined[v->row] >> lane & 1)) {      /* defined in some bits: "0x0000??00" */
        char text[32];
        format_partial(text, sizeof text, w->val[v->row][lane], w->bits[v->row][lane], type_info[v->type].bits);
        snprintf(buf, size, json ? "\"%s\"" : "%s", text);
    } else if (json) {
        format_json_value(buf, size, w->val[v->row][lane], v->type);
    } else {
        format_value(buf, size, w->val[v->row][lane], v->type);
    }
}

static char *instruction_text(const Warp *w, const XInstr *x)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ir_print_instr(f, w->prog->m, x->owner, x->ir);
    fclose(f);
    return buf;
}

/* Groups of the executed lanes by the pc they went on to (more than one = they parted). */
static unsigned destinations(const Warp *w, uint32_t mask, uint32_t pcs[WARP_SIZE], uint32_t groups[WARP_SIZE])
{
    unsigned n = 0;
    for (uint32_t left = mask & ~w->exited & ~w->waiting; left;) {
        int l = __builtin_ctz(left);
        uint32_t g = 0;
        for (uint32_t k = left; k; k &= k - 1)
            if (w->pc[__builtin_ctz(k)] == w->pc[l])
                g |= 1u << __builtin_ctz(k);
        pcs[n] = w->pc[l];
        groups[n++] = g;
        left &= ~g;
    }
    return n;
}

static uint32_t line_at(const Warp *w, uint32_t pc)
{
    return pc < w->prog->code_len ? w->prog->code[pc].line : 0;
}

static void text_step(FILE *out, const Warp *w, const ExecOptions *o, uint32_t pc, uint32_t mask)
{
    bool color = o->trace_color;
    const XInstr *x = &w->prog->code[pc];
    const StepTrace *t = w->trace;
    char marks[WARP_SIZE * 12 + 16] = "";
    size_t len = 0;
    const char *last = NULL;
    for (int l = 0; l < WARP_SIZE; l++) {
        char c;
        const char *tone;
        if (mask >> l & 1) { c = '#'; tone = GREEN; }
        else if (!(w->launched >> l & 1)) { c = '-'; tone = DIM; }
        else if (w->exited >> l & 1) { c = 'x'; tone = DIM; }
        else if (w->waiting >> l & 1) { c = 'w'; tone = YELLOW; }
        else { c = '.'; tone = DIM; }
        if (color && tone != last) {
            len += (size_t)snprintf(marks + len, sizeof marks - len, "%s", tone);
            last = tone;
        }
        marks[len++] = c;
        marks[len] = '\0';
    }
    if (color)
        snprintf(marks + len, sizeof marks - len, "%s", RESET);
    char *text = instruction_text(w, x);
    char warp[32] = "";
    if (w->block->warp_count > 1)
        snprintf(warp, sizeof warp, "warp %-3u ", w->index);
    char where[160] = "";
    if (x->src_file) {
        char name[128];
        source_name(name, sizeof name, w, x);
        snprintf(where, sizeof where, "%s:%u  ", name, x->src_line);
    }
    fprintf(out, "step %-6llu %spc %-4u line %-4u %s%s  %s\n", (unsigned long long)w->block->steps, warp, pc, x->line,
            where, marks, text);
    free(text);

    Written written[8];
    unsigned n = shown_writes(w, x, o, written);
    uint32_t wrote = writing_lanes(w, x, mask);
    if (!wrote)
        n = 0;                                  /* no lane's guard held */
    for (unsigned i = 0; i < n; i++) {
        enum { FEW = 4 };                       /* more values than this: one per lane */
        ValueGroup g[FEW];
        unsigned groups = value_groups(w, &written[i], wrote, false, g, FEW);
        char lanes[200];
        fprintf(out, "    %s =", written[i].name);
        if (groups == 1 && wrote == 0xffffffffu)
            fprintf(out, " %s (all)", g[0].text);
        else if (groups <= FEW) {
            for (unsigned k = 0; k < groups; k++) {
                report_lane_ranges(lanes, sizeof lanes, g[k].lanes, ",");
                fprintf(out, "%s %s (lane%s %s)", k ? "," : "", g[k].text, __builtin_popcount(g[k].lanes) == 1 ? "" : "s",
                        lanes);
            }
        } else {
            for (int l = 0; l < WARP_SIZE; l++) {
                char v[64] = "-";
                if (wrote >> l & 1)
                    value_text(v, sizeof v, w, &written[i], l, false);
                fprintf(out, "%s%s", l ? " " : " [", v);
            }
            fputc(']', out);
        }
        fputc('\n', out);
    }
    if (wrote)
        tracefrag_step(out, w, x, false);
    if (x->op == OP_BRKPT)
        fputs("    note: brkpt: no debugger is attached; the lanes go on\n", out);
    if (t->exchanged) {
        fputs("    read:", out);
        for (int l = 0; l < WARP_SIZE; l++) {
            if (t->source[l] == SOURCE_NONE)
                continue;
            bool own = t->own >> l & 1, undefined = t->undefined >> l & 1;
            if (color && (own || undefined))
                fputs(undefined ? RED : DIM, out);
            fprintf(out, " %d<-%d%s", l, t->source[l], undefined ? "?" : own ? "*" : "");
            if (color && (own || undefined))
                fputs(RESET, out);
        }
        fputs("   (* out of range: own value; ? undefined)\n", out);
    }
    char lanes[200];
    if (t->waiting) {
        report_lane_ranges(lanes, sizeof lanes, t->waiting, ",");
        fprintf(out, "    wait: lanes %s wait for their membermask\n", lanes);
    }
    if (t->released) {
        report_lane_ranges(lanes, sizeof lanes, t->released, ",");
        fprintf(out, "    released: lanes %s (waiting since step %llu)\n", lanes, (unsigned long long)t->waited_since);
    }
    uint32_t pcs[WARP_SIZE], groups[WARP_SIZE];
    unsigned parts = destinations(w, mask, pcs, groups);
    if (parts > 1) {
        fputs("    diverge:", out);
        for (unsigned i = 0; i < parts; i++) {
            report_lane_ranges(lanes, sizeof lanes, groups[i], ",");
            fprintf(out, "%s lanes %s -> pc %u (line %u)", i ? ";" : "", lanes, pcs[i], line_at(w, pcs[i]));
        }
        fputc('\n', out);
    } else if (parts == 1) {
        uint32_t alive = w->launched & ~w->exited & ~w->waiting;
        uint32_t others = 0;
        for (int l = 0; l < WARP_SIZE; l++)
            if ((alive & ~mask) >> l & 1 && w->pc[l] == pcs[0])
                others |= 1u << l;
        if (others) {
            report_lane_ranges(lanes, sizeof lanes, groups[0] | others, ",");
            fprintf(out, "    reconverge: lanes %s at pc %u (line %u)\n", lanes, pcs[0], line_at(w, pcs[0]));
        }
    }
}

/* s as a JSON string, in quotes: quotes, backslashes and control characters escaped. */
void trace_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(out, "\\u%04x", *s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

static void json_step(FILE *out, const Warp *w, const ExecOptions *o, uint32_t pc, uint32_t mask)
{
    const XInstr *x = &w->prog->code[pc];
    const StepTrace *t = w->trace;
    char *text = instruction_text(w, x);
    fprintf(out, "{\"step\": %llu, ", (unsigned long long)w->block->steps);
    if (w->block->warp_count > 1)
        fprintf(out, "\"warp\": %u, ", w->index);
    fprintf(out, "\"pc\": %u, \"line\": %u, ", pc, x->line);
    if (x->src_file) {
        char name[128];
        source_name(name, sizeof name, w, x);
        fputs("\"source\": ", out);
        trace_json_string(out, name);
        fprintf(out, ", \"source_line\": %u, ", x->src_line);
    }
    fprintf(out, "\"mask\": \"0x%08x\", \"instruction\": ", mask);
    trace_json_string(out, text);
    free(text);
    Written written[8];
    unsigned n = shown_writes(w, x, o, written);
    uint32_t wrote = writing_lanes(w, x, mask);
    if (!wrote)
        n = 0;
    fputs(", \"writes\": {", out);
    for (unsigned i = 0; i < n; i++) {
        ValueGroup g[WARP_SIZE];
        unsigned groups = value_groups(w, &written[i], wrote, true, g, WARP_SIZE);
        fprintf(out, "%s", i ? ", " : "");
        trace_json_string(out, written[i].name);
        fputs(": [", out);
        for (unsigned k = 0; k < groups; k++)
            fprintf(out, "%s{\"value\": %s, \"lanes\": \"0x%08x\"}", k ? ", " : "", g[k].text, g[k].lanes);
        fputc(']', out);
    }
    fputc('}', out);
    if (t->exchanged) {
        fputs(", \"sources\": [", out);
        for (int l = 0; l < WARP_SIZE; l++) {
            if (t->source[l] == SOURCE_NONE)
                fprintf(out, "%snull", l ? ", " : "");
            else
                fprintf(out, "%s%d", l ? ", " : "", t->source[l]);
        }
        fprintf(out, "], \"own\": \"0x%08x\", \"undefined\": \"0x%08x\"", t->own, t->undefined);
    }
    if (wrote)
        tracefrag_step(out, w, x, true);
    if (t->waiting)
        fprintf(out, ", \"waiting\": \"0x%08x\"", t->waiting);
    if (t->released)
        fprintf(out, ", \"released\": \"0x%08x\", \"waiting_since\": %llu", t->released,
                (unsigned long long)t->waited_since);
    uint32_t pcs[WARP_SIZE], groups[WARP_SIZE];
    unsigned parts = destinations(w, mask, pcs, groups);
    if (parts > 1) {
        fputs(", \"diverge\": [", out);
        for (unsigned i = 0; i < parts; i++)
            fprintf(out, "%s{\"lanes\": \"0x%08x\", \"pc\": %u}", i ? ", " : "", groups[i], pcs[i]);
        fputc(']', out);
    }
    fputs("}\n", out);
}

/* Does the filter pick the instruction: its opcode among --trace-ops, its PTX or CUDA line in
 * a range of --trace-lines? */
static bool picked(const TraceFilter *f, const XInstr *x)
{
    if (!f)
        return true;
    if (f->by_op && !(f->ops[x->op / 64] >> (x->op % 64) & 1))
        return false;
    if (!f->range_count)
        return true;
    for (uint32_t i = 0; i < f->range_count; i++) {
        const TraceRange *r = &f->ranges[i];
        uint32_t line = r->file ? (x->src_file == r->file ? x->src_line : 0) : x->line;
        if (line && line >= r->first && line <= r->last)
            return true;
    }
    return false;
}

void trace_step(FILE *out, const Warp *w, const ExecOptions *o, uint32_t pc, uint32_t mask)
{
    if (!picked(o->trace_filter, &w->prog->code[pc]))
        return;
    if (o->trace_json)
        json_step(out, w, o, pc, mask);
    else
        text_step(out, w, o, pc, mask);
}
