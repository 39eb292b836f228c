/* matview.c: --matrix LINE[@N]: the whole A, B, C and D of a matrix instruction (mma; wmma.mma)
 * as matrices, each element with the lane and register that hold it, from the MatrixView the
 * executor hands ExecOptions.on_matrix at each execution (exec/mmaview.c). LINE is a PTX line
 * or FILE.cu:LINE (through the .loc lines, as --trace-lines); every execution of the
 * instructions there is shown, numbered from 1 in the order they ran (warps, CTAs), or only the
 * N-th. The table is printed as each execution happens; under --json the executions are kept
 * (in a temporary file) for the final object's "matrices". */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const operand_names[MATRIX_OPERANDS] = { "A", "B", "C", "D" };

/* An e4m3 or e5m2 byte's value (e4m3: no infinities, S.1111.111 NaN). */
static double fp8_value(uint64_t bits, int type)
{
    bool e4 = type == TYPE_E4M3;
    unsigned frac_bits = e4 ? 3 : 2, bias = e4 ? 7 : 15, v = (unsigned)bits & 0xff;
    unsigned exp = (v & 0x7f) >> frac_bits, frac = v & ((1u << frac_bits) - 1);
    double r;
    if (e4 && (v & 0x7f) == 0x7f)
        r = NAN;
    else if (!e4 && exp == 31)
        r = frac ? NAN : INFINITY;
    else if (exp == 0)
        r = ldexp(frac, 1 - (int)bias - (int)frac_bits);
    else
        r = ldexp(frac | 1u << frac_bits, (int)exp - (int)bias - (int)frac_bits);
    return v & 0x80 ? -r : r;
}

/* One element as text: its value in the type (json: a JSON value), its bits in hex (hex), or,
 * when not every bit is defined, "undef" (null) or its defined hex digits ("0x?f"). */
void matview_cell(char *buf, size_t size, const MatrixElement *e, int type, bool json, bool hex)
{
    if (!buf || size == 0)
        return;                                /* (tells GCC's -Wformat-truncation so) */
    MatrixElement top;
    if (type == TYPE_TF32 && !hex) {           /* the value the tensor core uses: the top 19 bits */
        top = *e;
        top.bits &= 0xffffe000u;
        e = &top;
        type = TYPE_F32;
    }
    unsigned width = type_info[type].bits;
    uint64_t all = width >= 64 ? ~0ull : (1ull << width) - 1;
    if ((e->dbits & all) != all) {
        if (!(e->dbits & all) || width < 4)
            snprintf(buf, size, "%s", json ? "null" : "undef");
        else {
            char partial[40];
            format_partial(partial, sizeof partial, e->bits, e->dbits, width);
            snprintf(buf, size, json ? "\"%s\"" : "%s", partial);
        }
    } else if (hex) {
        snprintf(buf, size, "0x%0*" PRIx64, (int)(width + 3) / 4, e->bits & all);
    } else if (type == TYPE_B1) {
        snprintf(buf, size, "%u", (unsigned)(e->bits & 1));
    } else if (type == TYPE_E4M3 || type == TYPE_E5M2) {
        double d = fp8_value(e->bits, type);
        if (isnan(d) || isinf(d))
            snprintf(buf, size, json ? "\"%s\"" : "%s", isnan(d) ? "nan" : d < 0 ? "-inf" : "inf");
        else {
            for (int p = 1; p <= 17; p++) {   /* the shortest that reads back */
                snprintf(buf, size, "%.*g", p, d);
                if (strtod(buf, NULL) == d)
                    break;
            }
        }
    } else if (json) {
        format_json_value(buf, size, e->bits, type);
    } else if ((type == TYPE_F16 || type == TYPE_BF16) && fabs(convert_small_to_double(e->bits, type)) < 1e16 &&
               convert_small_to_double(e->bits, type) == floor(convert_small_to_double(e->bits, type))) {
        snprintf(buf, size, "%.1f", convert_small_to_double(e->bits, type));   /* 140.0, not 1.4e+02 */
    } else {
        format_value(buf, size, e->bits, type);
    }
}

/* Where an element lives: "5:1" (lane 5, register 1 of the vector), "5:1.2" (its third
 * element, from the low bits) when a register holds several. */
static void place_text(char *buf, size_t size, const MatrixOperand *op, const MatrixElement *e)
{
    if (op->per_reg > 1)
        snprintf(buf, size, "%u:%u.%u", e->lane, e->reg, e->part);
    else
        snprintf(buf, size, "%u:%u", e->lane, e->reg);
}

enum { LINE_WIDTH = 120 };

/* b1 values: 64 columns to a block, in groups of 8 ("10010000 ..."), '?' undefined. */
static void print_bits(FILE *out, const MatrixOperand *op)
{
    for (unsigned from = 0; from < op->cols; from += 64) {
        unsigned to = from + 64 < op->cols ? from + 64 : op->cols;
        if (from)
            fputc('\n', out);
        fputs("     ", out);
        for (unsigned c = from; c < to; c += 8)
            fprintf(out, c + 8 < to ? " %-8u" : " %u", c);
        fputc('\n', out);
        for (unsigned r = 0; r < op->rows; r++) {
            fprintf(out, "%4u:", r);
            for (unsigned c = from; c < to; c++) {
                const MatrixElement *e = &op->at[r * op->cols + c];
                if ((c - from) % 8 == 0)
                    fputc(' ', out);
                fputc(!(e->dbits & 1) ? '?' : e->bits & 1 ? '1' : '0', out);
            }
            fputc('\n', out);
        }
    }
}

/* One table of op: its values (places false) or where each element lives, in column blocks
 * that fit LINE_WIDTH. */
static void print_table(FILE *out, const MatrixOperand *op, bool places, bool hex)
{
    if (op->type == TYPE_B1 && !places && !hex) {
        print_bits(out, op);
        return;
    }
    size_t width = 1;
    char cell[64];
    for (unsigned e = 0; e < (unsigned)op->rows * op->cols; e++) {
        if (op->at[e].absent)
            snprintf(cell, sizeof cell, "?");
        else if (places)
            place_text(cell, sizeof cell, op, &op->at[e]);
        else
            matview_cell(cell, sizeof cell, &op->at[e], op->type, false, hex);
        size_t n = strlen(cell);
        width = n > width ? n : width;
    }
    char label[16];
    snprintf(label, sizeof label, "%u", op->cols - 1u);
    width = strlen(label) > width ? strlen(label) : width;
    unsigned per_block = (unsigned)((LINE_WIDTH - 6) / (width + 1));
    per_block = per_block ? per_block : 1;
    for (unsigned from = 0; from < op->cols; from += per_block) {
        unsigned to = from + per_block < op->cols ? from + per_block : op->cols;
        if (from)
            fputc('\n', out);
        fputs("     ", out);
        for (unsigned c = from; c < to; c++)
            fprintf(out, " %*u", (int)width, c);
        fputc('\n', out);
        for (unsigned r = 0; r < op->rows; r++) {
            fprintf(out, "%4u:", r);
            for (unsigned c = from; c < to; c++) {
                const MatrixElement *e = &op->at[r * op->cols + c];
                if (e->absent)
                    snprintf(cell, sizeof cell, "%s", e->absent == MATRIX_NOT_KEPT ? "." : "?");
                else if (places)
                    place_text(cell, sizeof cell, op, e);
                else
                    matview_cell(cell, sizeof cell, e, op->type, false, hex);
                fprintf(out, " %*s", (int)width, cell);
            }
            fputc('\n', out);
        }
    }
}

static void print_registers(FILE *out, const MatrixOperand *op)
{
    fputs("{", out);
    for (unsigned r = 0; r < op->reg_count; r++)
        fprintf(out, "%s%s", r ? ", " : "", op->regs[r] ? op->regs[r] : "(immediate)");
    fputs("}", out);
}

/* Chunk j of a row of mma.sp's A: the dense columns its metadata keeps ("4,6"), or its nibble
 * ("!0b0101": a value the PTX ISA leaves undefined; "0b01??": undefined bits). */
static void meta_text(char *buf, size_t size, const MatrixView *v, const MatrixMeta *e)
{
    if (e->valid) {
        size_t used = 0;
        for (unsigned q = 0; q < v->kept && used < size; q++)
            used += (size_t)snprintf(buf + used, size - used, "%s%u", q ? "," : "", e->cols[q]);
        return;
    }
    if (e->lane == MATRIX_NO_LANE) {
        snprintf(buf, size, "-");              /* not read */
        return;
    }
    char bits[5];
    for (unsigned b = 0; b < 4; b++)
        bits[b] = e->defined >> (3 - b) & 1 ? (char)('0' + (e->nibble >> (3 - b) & 1)) : '?';
    bits[4] = '\0';
    snprintf(buf, size, "%s0b%s", e->defined == 0xf ? "!" : "", bits);
}

/* mma.sp's metadata: the kept columns of each chunk of each row of A; places: and where each
 * chunk's nibble is. */
static void print_metadata(FILE *out, const MatrixView *v, bool places)
{
    unsigned chunks = v->k / v->chunk, width = 0;
    char cell[40];
    const char *reg = v->meta_reg ? v->meta_reg : "(immediate)";
    for (unsigned e = 0; e < (unsigned)v->m * chunks; e++) {
        meta_text(cell, sizeof cell, v, &v->meta[e]);
        width = strlen(cell) > width ? (unsigned)strlen(cell) : width;
        snprintf(cell, sizeof cell, "%u:%u", v->meta[e].lane, v->meta[e].bit);
        width = places && strlen(cell) > width ? (unsigned)strlen(cell) : width;
    }
    if (v->selector_undefined)
        fprintf(out, "\nmetadata %s, selector %u: the PTX ISA leaves it undefined (ptxas takes it): no metadata is "
                "read, all of D is undefined:\n", reg, v->selector);
    else
        fprintf(out, "\nmetadata %s, selector %u (thread%s %u", reg, v->selector, v->threads > 1 ? "s" : "",
                v->selector * v->threads);
    if (v->selector_undefined)
        ;
    else if (v->threads > 1)
        fprintf(out, "..%u", v->selector * v->threads + v->threads - 1);
    if (!v->selector_undefined)
        fprintf(out, " of each group of four give%s it): the columns of A each row keeps, chunk by chunk of %u "
                "(chunk j: columns %uj..%uj+%u; '!': a nibble the PTX ISA leaves undefined for this form, '?': an "
                "undefined bit):\n", v->threads > 1 ? "" : "s", v->chunk, v->chunk, v->chunk, v->chunk - 1);
    for (unsigned pass = 0; pass < (places ? 2u : 1u); pass++) {
        if (pass)
            fprintf(out, "metadata: LANE:BIT of each chunk's nibble (bits BIT..BIT+3 of %s in lane LANE):\n", reg);
        fputs("     ", out);
        for (unsigned j = 0; j < chunks; j++)
            fprintf(out, " %*u", (int)width, j);
        fputc('\n', out);
        for (unsigned r = 0; r < v->m; r++) {
            fprintf(out, "%4u:", r);
            for (unsigned j = 0; j < chunks; j++) {
                const MatrixMeta *e = &v->meta[r * chunks + j];
                if (pass && e->lane == MATRIX_NO_LANE)
                    snprintf(cell, sizeof cell, "-");
                else if (pass)
                    snprintf(cell, sizeof cell, "%u:%u", e->lane, e->bit);
                else
                    meta_text(cell, sizeof cell, v, e);
                fprintf(out, " %*s", (int)width, cell);
            }
            fputc('\n', out);
        }
    }
}

/* The four matrices of v as tables; places: each followed by the lane and register of each
 * element. */
void matview_print_operands(FILE *out, const MatrixView *v, bool places, bool hex)
{
    const MatrixOperand *op = v->op;
    if (v->sparse)
        fprintf(out, "mma.sp%s, sparse A: %u of each %u elements of a row kept, as the metadata says\n",
                v->ordered ? "::ordered_metadata" : "", v->kept, v->chunk);
    fprintf(out, "m%un%uk%u: D (%ux%u %s) = A (%ux%u %s) * B (%ux%u %s) + C (%ux%u %s)\n", v->m, v->n, v->k,
            op[MATRIX_D].rows, op[MATRIX_D].cols, type_info[op[MATRIX_D].type].name, op[MATRIX_A].rows,
            op[MATRIX_A].cols, type_info[op[MATRIX_A].type].name, op[MATRIX_B].rows, op[MATRIX_B].cols,
            type_info[op[MATRIX_B].type].name, op[MATRIX_C].rows, op[MATRIX_C].cols, type_info[op[MATRIX_C].type].name);
    if (v->products > 1)
        fprintf(out, "(%u products, one per quad-pair of lanes, stacked: product p's D is rows %up..%up+%u of D, "
                "from those rows of A and C and columns %up..%up+%u of B)\n", v->products, v->m, v->m, v->m - 1, v->n,
                v->n, v->n - 1);
    for (unsigned k = 0; k < MATRIX_OPERANDS; k++) {
        fprintf(out, "\n%s (%s, %ux%u), registers ", operand_names[k], type_info[op[k].type].name, op[k].rows,
                op[k].cols);
        print_registers(out, &op[k]);
        if (k == MATRIX_A && v->sparse)
            fprintf(out, " (they hold its kept %ux%u; '.': an element the metadata does not keep, '?': one of a "
                    "chunk whose metadata is undefined)", v->packed.rows, v->packed.cols);
        fputs(":\n", out);
        print_table(out, &op[k], false, hex);
        if (places) {
            fprintf(out, "%s: LANE:REGISTER%s of each element (REGISTER: its place in ", operand_names[k],
                    op[k].per_reg > 1 ? ".PART" : "");
            print_registers(out, &op[k]);
            fprintf(out, "%s):\n", op[k].per_reg > 1 ? "; PART: its place in the register from the low bits" : "");
            print_table(out, &op[k], true, false);
        }
    }
    if (v->sparse)
        print_metadata(out, v, places);
}

/* One matrix's members: "type", "registers", "rows" (each element's value, bits, lane,
 * register, part, definedness; mma.sp's dense A: "kept" too, and null places for the others). */
static void json_operand(FILE *out, const MatrixOperand *op, bool sparse)
{
    fprintf(out, "{\"type\": \"%s\", \"registers\": [", type_info[op->type].name);
    for (unsigned r = 0; r < op->reg_count; r++) {
        if (op->regs[r])
            fprintf(out, "%s\"%s\"", r ? ", " : "", op->regs[r]);
        else
            fprintf(out, "%snull", r ? ", " : "");
    }
    fputs("], \"rows\": [", out);
    unsigned width = type_info[op->type].bits;
    for (unsigned r = 0; r < op->rows; r++) {
        fprintf(out, "%s\n        [", r ? "," : "");
        for (unsigned c = 0; c < op->cols; c++) {
            const MatrixElement *e = &op->at[r * op->cols + c];
            if (e->absent) {
                fprintf(out, "%s{\"value\": null, \"bits\": null, \"lane\": null, \"reg\": null, \"part\": null, "
                        "\"defined\": null, \"kept\": %s}", c ? ", " : "",
                        e->absent == MATRIX_NOT_KEPT ? "false" : "null");
                continue;
            }
            char value[64], bits[64];
            uint64_t all = width >= 64 ? ~0ull : (1ull << width) - 1;
            matview_cell(value, sizeof value, e, op->type, true, false);
            format_partial(bits, sizeof bits, e->bits, e->dbits, width);   /* "undef": none defined */
            fprintf(out, "%s{\"value\": %s, \"bits\": ", c ? ", " : "", value);
            if (e->dbits & all)
                fprintf(out, "\"%s\"", bits);
            else
                fputs("null", out);
            fprintf(out, ", \"lane\": %u, \"reg\": %u, \"part\": %u, \"defined\": %s%s}", e->lane, e->reg, e->part,
                    (e->dbits & all) == all ? "true" : "false", sparse ? ", \"kept\": true" : "");
        }
        fputc(']', out);
    }
    fputs("]}", out);
}

/* mma.sp: "sparse": its metadata chunk by chunk, and A as the lanes hold it ("held"). */
static void json_sparse(FILE *out, const MatrixView *v)
{
    unsigned chunks = v->k / v->chunk;
    fprintf(out, ",\n      \"sparse\": {\"ordered\": %s, \"chunk\": %u, \"kept\": %u, \"selector\": %u, "
            "\"selector_defined\": %s, \"threads\": %u, \"metadata\": {\"register\": ", v->ordered ? "true" : "false",
            v->chunk, v->kept, v->selector, v->selector_undefined ? "false" : "true", v->threads);
    if (v->meta_reg)
        fprintf(out, "\"%s\"", v->meta_reg);
    else
        fputs("null", out);
    fputs(", \"rows\": [", out);
    for (unsigned r = 0; r < v->m; r++) {
        fprintf(out, "%s\n        [", r ? "," : "");
        for (unsigned j = 0; j < chunks; j++) {
            const MatrixMeta *e = &v->meta[r * chunks + j];
            char nibble[16];
            format_partial(nibble, sizeof nibble, e->nibble, e->defined, 4);
            if (e->lane == MATRIX_NO_LANE)
                fprintf(out, "%s{\"lane\": null, \"bit\": null, \"nibble\": ", j ? ", " : "");
            else
                fprintf(out, "%s{\"lane\": %u, \"bit\": %u, \"nibble\": ", j ? ", " : "", e->lane, e->bit);
            if (e->defined)
                fprintf(out, "\"%s\"", nibble);
            else
                fputs("null", out);
            fprintf(out, ", \"defined\": %s, \"valid\": %s, \"columns\": ", e->defined == 0xf ? "true" : "false",
                    e->valid ? "true" : "false");
            if (!e->valid)
                fputs("null", out);
            for (unsigned q = 0; e->valid && q < v->kept; q++)
                fprintf(out, "%s%u", q ? ", " : "[", e->cols[q]);
            fputs(e->valid ? "]}" : "}", out);
        }
        fputc(']', out);
    }
    fputs("]},\n      \"held\": ", out);
    json_operand(out, &v->packed, false);
    fputc('}', out);
}

/* v's shape, types and matrices as members of a JSON object ("m": ... "D": {...}). */
void matview_json_operands(FILE *out, const MatrixView *v)
{
    const MatrixOperand *op = v->op;
    fprintf(out, "\"m\": %u, \"n\": %u, \"k\": %u, \"products\": %u, \"types\": {\"a\": \"%s\", \"b\": \"%s\", "
            "\"c\": \"%s\", \"d\": \"%s\"}", v->m, v->n, v->k, v->products ? v->products : 1u,
            type_info[op[MATRIX_A].type].name, type_info[op[MATRIX_B].type].name, type_info[op[MATRIX_C].type].name,
            type_info[op[MATRIX_D].type].name);
    for (unsigned k = 0; k < MATRIX_OPERANDS; k++) {
        fprintf(out, ",\n      \"%s\": ", operand_names[k]);
        json_operand(out, &op[k], k == MATRIX_A && v->sparse);
    }
    if (v->sparse)
        json_sparse(out, v);
}

enum { MATRIX_SHOWN = 64 };            /* executions shown without @N */

/* --matrix TEXT against the program: the instructions it picks into p; false with err when
 * TEXT is malformed or picks no matrix instruction. */
bool matview_open(MatrixPick *p, const Program *prog, const char *text, Msg *err)
{
    p->text = text;
    p->prog = prog;
    p->want = p->seen = p->shown = 0;
    p->pcs = NULL;
    p->placed_at = NULL;
    char *head = xmalloc(strlen(text) + 1);
    strcpy(head, text);
    char *at = strrchr(head, '@');
    if (at) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(at + 1, &end, 10);
        if (at[1] < '0' || at[1] > '9' || *end || n == 0 || errno == ERANGE) {
            msg_set(err, "--matrix: '%s' after '@' is not an execution's number (1 for the first)", at + 1);
            free(head);
            return false;
        }
        p->want = n;
        *at = '\0';
    }
    TraceFilter f = { 0 };
    bool ok = srcline_ranges(&f, prog->m, head, "--matrix", err);
    p->pcs = xcalloc(prog->code_len ? prog->code_len : 1, sizeof *p->pcs);
    p->placed_at = xcalloc(prog->code_len ? prog->code_len : 1, sizeof *p->placed_at);
    uint32_t picked = 0, matrices = 0;
    char lines[200] = "";
    size_t used = 0;
    for (uint32_t pc = 0; ok && pc < prog->code_len; pc++) {
        const XInstr *x = &prog->code[pc];
        if (!mmasource_has(prog, x))
            continue;
        matrices++;
        if (used + 16 < sizeof lines)
            used += (size_t)snprintf(lines + used, sizeof lines - used, "%s%u", used ? ", " : "", x->line);
        for (uint32_t i = 0; i < f.range_count; i++) {
            const TraceRange *r = &f.ranges[i];
            uint32_t line = r->file ? (x->src_file == r->file ? x->src_line : 0) : x->line;
            if (line && line >= r->first && line <= r->last) {
                p->pcs[pc] = true;
                picked++;
                break;
            }
        }
    }
    if (ok && !picked) {
        if (matrices)
            msg_set(err, "--matrix %s: no mma (nor wmma.mma) instruction of the kernel is there; the kernel's "
                    "are on PTX line%s %s", head, matrices == 1 ? "" : "s", lines);
        else
            msg_set(err, "--matrix %s: the kernel (and what it calls) has no mma or wmma.mma instruction", head);
        ok = false;
    }
    free(f.ranges);
    free(head);
    return ok;
}

/* The .file's name, its last part, without quotes. */
static void source_name(char *buf, size_t size, const Module *m, uint32_t file)
{
    const char *path = m->files.data[file - 1].path, *q = path[0] == '"' ? path + 1 : path;
    for (const char *s = q; *s; s++)
        if (*s == '/' && s[1] && s[1] != '"')
            q = s + 1;
    size_t len = strlen(q);
    snprintf(buf, size, "%.*s", (int)(len && q[len - 1] == '"' ? len - 1 : len), q);
}

/* ExecOptions.matrix_wanted: counts an execution of a picked instruction; true when it is
 * shown (the @N-th, or one of the first 64): only those get a view, so a loop of 10^6 mma
 * runs at the speed it runs without --matrix. */
bool matview_wanted(void *context, uint32_t pc)
{
    MatrixPick *p = context;
    if (!p->pcs[pc])
        return false;
    uint64_t number = ++p->seen;
    return p->want ? number == p->want : p->shown < MATRIX_SHOWN;
}

/* ExecOptions.on_matrix: the execution matview_wanted just counted and picked, shown. */
void matview_execution(void *context, const MatrixView *v)
{
    MatrixPick *p = context;
    uint64_t number = p->seen;
    p->shown++;
    const Warp *w = v->warp;
    const Block *b = w->block;
    const XInstr *x = &p->prog->code[v->pc];
    char *text = NULL, where[160] = "";
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ir_print_instr(f, p->prog->m, x->owner, x->ir);
    fclose(f);
    if (x->src_file)
        source_name(where, sizeof where, p->prog->m, x->src_file);
    bool grid = block_cta_count(b) > 1;
    if (p->json) {
        fprintf(p->json, "%s\n    {\"execution\": %llu, \"line\": %u, \"pc\": %u, ", p->shown > 1 ? "," : "",
                (unsigned long long)number, x->line, v->pc);
        if (x->src_file) {
            fputs("\"source\": ", p->json);
            trace_json_string(p->json, where);
            fprintf(p->json, ", \"source_line\": %u, ", x->src_line);
        }
        if (grid)
            fprintf(p->json, "\"cta\": [%u, %u, %u], ", b->ctaid[0], b->ctaid[1], b->ctaid[2]);
        fprintf(p->json, "\"warp\": %u, \"instruction\": ", w->index);
        trace_json_string(p->json, text);
        fputs(",\n      ", p->json);
        matview_json_operands(p->json, v);
        fputs("}", p->json);
    } else {
        progress_erase(p->progress);
        fprintf(p->out, "\n== --matrix %s: execution %llu: PTX line %u", p->text, (unsigned long long)number, x->line);
        if (x->src_file)
            fprintf(p->out, " (%s:%u)", where, x->src_line);
        if (grid)
            fprintf(p->out, ", CTA %u,%u,%u", b->ctaid[0], b->ctaid[1], b->ctaid[2]);
        fprintf(p->out, ", warp %u\n%s\n", w->index, text);
        bool places = !p->placed_at[v->pc];
        if (places)
            p->placed_at[v->pc] = number;
        matview_print_operands(p->out, v, places, p->hex);
        if (!places)
            fprintf(p->out, "(the lanes and registers of each element: as in execution %llu)\n",
                    (unsigned long long)p->placed_at[v->pc]);
        fflush(p->out);
    }
    free(text);
}

/* After the run: a note when the instruction never ran, ran fewer times than @N asked, or
 * more often than was shown (err NULL: no notes); then p's memory (not its files). */
void matview_close(MatrixPick *p, FILE *err)
{
    if (!p->pcs)
        return;
    if (!err)
        ;
    else if (!p->seen)
        fprintf(err, "ptxrun: note: --matrix %s: the instruction never executed\n", p->text);
    else if (p->want > p->seen)
        fprintf(err, "ptxrun: note: --matrix %s: it executed %llu time%s, no execution %llu\n", p->text,
                (unsigned long long)p->seen, p->seen == 1 ? "" : "s", (unsigned long long)p->want);
    else if (!p->want && p->seen > p->shown)
        fprintf(err, "ptxrun: note: --matrix %s: %llu executions, the first %llu shown (--matrix %s@N shows the "
                "N-th)\n", p->text, (unsigned long long)p->seen, (unsigned long long)p->shown, p->text);
    free(p->pcs);
    free(p->placed_at);
    p->pcs = NULL;
    p->placed_at = NULL;
}
