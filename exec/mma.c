/* mma.c: mma.sync.aligned, the warp's matrix product D = A*B + C from register fragments. The
 * form (shape, the four element types, .satfinite, .xor/.and.popc) is decoded once when lowered
 * into an MmaForm (Program.mma_forms, XInstr.target); each execution gathers A, B and C from the
 * lanes' registers into matrices by the PTX ISA's fragment layouts (mma_layout; each register of
 * each lane read once), computes every D element for the whole warp at once, and scatters D:
 * floating-point, fp8 and integer forms decode each element of A's rows and B's columns once per
 * mma (mmaf_terms, mma8_terms, sign extension) for all of D; the others go element by element
 * through mma_dot, which gives the same bits for every form. Integer forms wrap modulo
 * 2^32 or saturate the exact sum once (.satfinite); b1 forms sum the popcounts; m8n8k4 .f64 is
 * an IEEE fma chain in k order from C; floating-point forms go to mmafloat.c or mmafp8.c. Forms
 * ptxrun does not run yet are refused when lowered (mma_form_runs). A D element is undefined
 * when any element of A's row, B's column or C it depends on has an undefined bit. Layouts and
 * arithmetic: docs/semantics.md, "mma", from ../shared/hw/mma (H100). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "tensor.h"

static const struct { const char *word; uint8_t type; } type_words[] = {
    { "s32", MT_S32 }, { "s8", MT_S8 }, { "u8", MT_U8 }, { "s4", MT_S4 }, { "u4", MT_U4 }, { "b1", MT_B1 },
    { "f16", MT_F16 }, { "bf16", MT_BF16 }, { "tf32", MT_TF32 }, { "e4m3", MT_E4M3 }, { "e5m2", MT_E5M2 },
    { "f32", MT_F32 }, { "f64", MT_F64 },
};

static const char *type_name(unsigned t)
{
    for (size_t i = 0; i < sizeof type_words / sizeof *type_words; i++)
        if (type_words[i].type == t)
            return type_words[i].word;
    return "?";
}

unsigned mma_type_bits(unsigned t)
{
    switch (t) {
    case MT_B1: return 1;
    case MT_S4: case MT_U4: return 4;
    case MT_S8: case MT_U8: case MT_E4M3: case MT_E5M2: return 8;
    case MT_F16: case MT_BF16: return 16;
    case MT_F64: return 64;
    default: return 32;
    }
}

/* A's and B's element kinds, for the table of shapes below. */
enum { AB_I8 = 1, AB_I4, AB_B1, AB_F16, AB_BF16, AB_TF32, AB_FP8, AB_F64 };

static unsigned ab_kind(unsigned t)
{
    switch (t) {
    case MT_S8: case MT_U8: return AB_I8;
    case MT_S4: case MT_U4: return AB_I4;
    case MT_B1: return AB_B1;
    case MT_F16: return AB_F16;
    case MT_BF16: return AB_BF16;
    case MT_TF32: return AB_TF32;
    case MT_E4M3: case MT_E5M2: return AB_FP8;
    case MT_F64: return AB_F64;
    default: return 0;
    }
}

/* The dense shapes of mma.sync for sm_70-sm_90 (PTX ISA 9.7.14.5.14, "mma"): A and B's element
 * kind, the C/D types allowed (a bit per MmaType). */
#define T(t) (1u << (t))
static const struct { uint16_t m, n, k; uint8_t ab; uint16_t cd; } shapes[] = {
    { 8, 8, 4, AB_F64, T(MT_F64) },
    { 16, 8, 4, AB_F64, T(MT_F64) }, { 16, 8, 8, AB_F64, T(MT_F64) }, { 16, 8, 16, AB_F64, T(MT_F64) },
    { 8, 8, 4, AB_F16, T(MT_F16) | T(MT_F32) },
    { 8, 8, 16, AB_I8, T(MT_S32) }, { 8, 8, 32, AB_I4, T(MT_S32) }, { 8, 8, 128, AB_B1, T(MT_S32) },
    { 16, 8, 4, AB_TF32, T(MT_F32) },
    { 16, 8, 8, AB_F16, T(MT_F16) | T(MT_F32) }, { 16, 8, 8, AB_BF16, T(MT_F32) }, { 16, 8, 8, AB_TF32, T(MT_F32) },
    { 16, 8, 16, AB_F16, T(MT_F16) | T(MT_F32) }, { 16, 8, 16, AB_BF16, T(MT_F32) }, { 16, 8, 16, AB_I8, T(MT_S32) },
    { 16, 8, 16, AB_FP8, T(MT_F32) | T(MT_F16) },
    { 16, 8, 32, AB_I8, T(MT_S32) }, { 16, 8, 32, AB_I4, T(MT_S32) }, { 16, 8, 32, AB_FP8, T(MT_F32) | T(MT_F16) },
    { 16, 8, 64, AB_I4, T(MT_S32) }, { 16, 8, 128, AB_B1, T(MT_S32) }, { 16, 8, 256, AB_B1, T(MT_S32) },
};
#undef T

bool mma_word(MmaWords *s, const char *word)
{
    unsigned t = 0;
    for (size_t i = 0; i < sizeof type_words / sizeof *type_words; i++)
        if (!strcmp(word, type_words[i].word))
            t = type_words[i].type;
    bool *flag = !strcmp(word, "sync") ? &s->sync : !strcmp(word, "aligned") ? &s->aligned
               : !strcmp(word, "satfinite") ? &s->satfinite : !strcmp(word, "rn") ? &s->rn
               : !strcmp(word, "popc") ? &s->popc : !strcmp(word, "and") ? &s->and_
               : !strcmp(word, "xor") ? &s->xor_ : NULL;
    if (flag && !*flag && !((flag == &s->and_ || flag == &s->xor_) && (s->and_ || s->xor_)))
        return *flag = true;
    if (!flag && word[0] == 'm' && !s->k && sscanf(word, "m%un%uk%u", &s->m, &s->n, &s->k) == 3)
        return true;
    if (!flag && t && s->ntypes < 4) {
        s->types[s->ntypes++] = (uint8_t)t;
        return true;
    }
    return false;
}

/* Decodes mma's mnemonic (canonical order) into f; NULL, or what is wrong with it. */
static const char *decode(const char *mnemonic, MmaForm *f)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%s", mnemonic);
    MmaWords s = { 0 };
    unsigned layouts = 0;
    memset(f, 0, sizeof *f);
    char *save = NULL;
    char *word = strtok_r(buf, ".", &save);              /* "mma" */
    while ((word = strtok_r(NULL, ".", &save))) {
        if ((!strcmp(word, "row") || !strcmp(word, "col")) && layouts < 2) {
            if (layouts++ == 0 ? !strcmp(word, "col") : !strcmp(word, "row"))
                f->flags |= layouts == 1 ? MMA_A_COL : MMA_B_ROW;
        } else if (!mma_word(&s, word)) {
            return "a suffix this form does not take";
        }
    }
    if (!s.sync || !s.aligned || layouts != 2 || !s.k || s.ntypes != 4)
        return "a form that lacks .sync, .aligned, the shape, two layouts or four types";
    unsigned m = s.m, n = s.n, k = s.k;
    bool sat = s.satfinite, rn = s.rn, popc = s.popc, xor_ = s.xor_, and_ = s.and_;
    f->m = (uint16_t)m, f->n = (uint16_t)n, f->k = (uint16_t)k;
    f->d = s.types[0], f->a = s.types[1], f->b = s.types[2], f->c = s.types[3];
    unsigned kind = ab_kind(f->a);
    bool found = false;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        if (shapes[i].m == m && shapes[i].n == n && shapes[i].k == k && shapes[i].ab == kind &&
            (shapes[i].cd >> f->c & 1) && (shapes[i].cd >> f->d & 1))
            found = true;
    if (!found || ab_kind(f->b) != kind)
        return "a shape and types the PTX ISA does not list together";
    bool integer = kind == AB_I8 || kind == AB_I4;
    if (sat && !integer)
        return ".satfinite on a form that is not integer";
    if (rn && kind != AB_F64)
        return ".rn on a form other than .f64";
    if (kind == AB_B1 ? !popc || (!xor_ && !and_) : popc || xor_ || and_)
        return "b1 forms and only they take .xor.popc or .and.popc";
    if (m == 16 && kind == AB_F16 && f->c != f->d)     /* ptxas: ".dtype must be '.f16' when .ctype is '.f16'" */
        return "m16n8k8 and m16n8k16 .f16 take .f16 or .f32 for both C and D, not one of each";
    if (kind == AB_FP8 && f->c != f->d)                 /* ptxas: "Unexpected instruction types" */
        return "e4m3 and e5m2 forms take .f16 or .f32 for both C and D, not one of each";
    if (f->flags && !(m == 8 && k == 4 && kind == AB_F16))
        return "a layout other than .row.col (only m8n8k4 .f16 takes others)";
    if (m == 8 && k == 4 && kind == AB_F16 && f->c == MT_F32 && f->d == MT_F16)
        return ".f16 D with .f32 C, which ptxas refuses: .dtype must be .f32 when .ctype is .f32";
    f->flags |= (uint8_t)((sat ? MMA_SAT : 0) | (xor_ ? MMA_XOR_POPC : 0) | (and_ ? MMA_AND_POPC : 0));
    unsigned abits = mma_type_bits(f->a), cbits = mma_type_bits(f->c), dbits = mma_type_bits(f->d);
    unsigned per_a = abits >= 32 ? 1 : 32 / abits;
    f->a_regs = (uint8_t)(m * k / 32 / per_a);
    f->b_regs = (uint8_t)(k * n / 32 / per_a);
    f->c_regs = (uint8_t)(m * n / 32 / (cbits >= 32 ? 1 : 32 / cbits));
    f->d_regs = (uint8_t)(m * n / 32 / (dbits >= 32 ? 1 : 32 / dbits));
    if (m == 8 && k == 4 && kind == AB_F16) {  /* four 8x8x4 products, one per quad-pair of lanes */
        f->a_regs = f->b_regs = 2;
        f->c_regs = cbits == 16 ? 4 : 8;
        f->d_regs = dbits == 16 ? 4 : 8;
    }
    return NULL;
}

/* Whether ptxrun executes form f; what it does not run yet is refused before the run. */
bool mma_form_runs(const MmaForm *f)
{
    switch (ab_kind(f->a)) {
    case AB_I8: case AB_I4: case AB_B1: return true;
    case AB_F64: return f->m == 8;                                 /* m16n8k* .f64 (sm_90): not yet */
    case AB_F16: case AB_BF16: case AB_TF32: return f->m == 16 || mma884_form(f);   /* mmafloat.c, mma884.c */
    case AB_FP8: return true;                                      /* mmafp8.c */
    default: return false;
    }
}

/* Element j of register r of lane's fragment: 'a', 'b' or 'c' (C and D) of f at (*row, *col)
 * (PTX ISA 9.7.14.5, "Matrix fragments for mma.m16n8k*" and "mma.m8n8k*"), f not m8n8k4 .f16:
 * g = lane >> 2, t = lane & 3, e the elements one register holds (low bits first), i = r e + j. */
static inline void mma_place(const MmaForm *f, char which, unsigned e, unsigned lane, unsigned r, unsigned j,
                             unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3, i = r * e + j;
    switch (which) {
    case 'a':
        *row = f->m == 16 ? g + 8 * (r & 1) : g;
        *col = e * t + j + (f->m == 16 ? f->k / 2 * (r >> 1) : 0);
        break;
    case 'b':
        *row = e * t + j + f->k / 2 * r;
        *col = g;
        break;
    default:
        *row = f->m == 16 ? g + 8 * (i >> 1) : g;
        *col = f->m == 16 ? 2 * t + (i & 1) : 2 * t + i;
        break;
    }
}

/* Element i of lane's fragment: 'a', 'b' or 'c' (C and D) of f at (*row, *col) (mma_place);
 * 'd': D's, C's but in m8n8k4 .f16 (mma884.c: its four products stacked, D's type its own). */
void mma_layout(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    if (mma884_form(f)) {
        mma884_layout(f, which, lane, i, row, col);
        return;
    }
    unsigned bits = mma_type_bits(which == 'c' ? f->c : f->a), e = bits >= 32 ? 1 : 32 / bits;
    mma_place(f, which, e, lane, i / e, i % e, row, col);
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double f64_of(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* One step of the f64 chain, its NaNs independent of the host: an input NaN, quieted, with its
 * sign and payload (a's, else b's, else c's), or 0xfff8000000000000 for an invalid operation on
 * numbers, as the H100's f64 fma gives them (exec/alu.c). *choice: two different NaNs met. */
static double f64_fma(double a, double b, double c, bool *choice)
{
    uint64_t in[3] = { f64_bits(a), f64_bits(b), f64_bits(c) }, first = 0;
    for (unsigned i = 0; i < 3; i++) {
        if ((in[i] & 0x7fffffffffffffffull) <= 0x7ff0000000000000ull)
            continue;
        if (first && (in[i] | 1ull << 51) != first)
            *choice = true;
        if (!first)
            first = in[i] | 1ull << 51;
    }
    double r = fma(a, b, c);
    if (first)
        return f64_of(first);
    return isnan(r) ? f64_of(0xfff8000000000000ull) : r;
}

/* An integer element's value: signed types sign-extended from their width. */
static int64_t int_of(unsigned type, uint64_t raw)
{
    unsigned bits = mma_type_bits(type);
    if (type == MT_S8 || type == MT_S4 || type == MT_S32)
        return (int64_t)(raw << (64 - bits)) >> (64 - bits);
    return (int64_t)raw;
}

uint64_t mma_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c, bool *nan_choice)
{
    if (mma884_form(f))
        return mma884_dot(f, a, b, c);
    switch (ab_kind(f->a)) {
    case AB_F64: {
        /* No NaN operand: the host's fma chain, a NaN it makes (inf - inf, inf * 0) the canonical
         * one, as f64_fma gives it and keeps it through the later steps. */
        uint64_t nan = (c & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
        for (unsigned k = 0; k < f->k; k++)
            nan |= ((a[k] & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) |
                   ((b[k] & 0x7fffffffffffffffull) > 0x7ff0000000000000ull);
        double acc = f64_of(c);
        if (!nan) {
            for (unsigned k = 0; k < f->k; k++)
                acc = fma(f64_of(a[k]), f64_of(b[k]), acc);
            return isnan(acc) ? 0xfff8000000000000ull : f64_bits(acc);
        }
        for (unsigned k = 0; k < f->k; k++)
            acc = f64_fma(f64_of(a[k]), f64_of(b[k]), acc, nan_choice);
        return f64_bits(acc);
    }
    case AB_B1: {
        int64_t acc = int_of(MT_S32, c);
        for (unsigned k = 0; k < f->k; k++)
            acc += f->flags & MMA_XOR_POPC ? (a[k] ^ b[k]) & 1 : a[k] & b[k] & 1;
        return (uint32_t)(uint64_t)acc;       /* modulo 2^32 */
    }
    case AB_I8: case AB_I4: {
        int64_t acc = int_of(MT_S32, c);      /* at most 64 * 255 * 255 + 2^31: no overflow */
        for (unsigned k = 0; k < f->k; k++)
            acc += int_of(f->a, a[k]) * int_of(f->b, b[k]);
        if (f->flags & MMA_SAT)
            acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
        return (uint32_t)(uint64_t)acc;       /* modulo 2^32 */
    }
    case AB_F16: case AB_BF16: case AB_TF32:
        return mmaf_dot(f, a, b, c, nan_choice);
    case AB_FP8:
        return mma8_dot(f, a, b, c);
    default:
        return 0;                             /* refused when lowered (mma_form_runs) */
    }
}

/* The checker puts a mnemonic's words in canonical order, so the types' order in the source
 * (.dtype.atype.btype.ctype) is checked here: ptxas refuses .s32.s32.s8.s8 ("Unexpected
 * instruction types"), which would otherwise run as .s32.s8.s8.s32. */
static bool types_in_order(Loader *ld, const Instr *in)
{
    const char *src = ld->p->m->src->text + in->at.offset;
    char from_source[64] = "", from_canonical[64] = "";
    for (int pass = 0; pass < 2; pass++) {
        const char *s = pass ? in->mnemonic : src;
        size_t len = pass ? strlen(in->mnemonic) : in->at.length;
        char *out = pass ? from_canonical : from_source;
        for (size_t pos = 0; pos < len;) {
            size_t start = pos + 1, end = start;
            while (end < len && s[end] != '.')
                end++;
            if (s[pos] == '.')
                for (size_t t = 0; t < sizeof type_words / sizeof *type_words; t++)
                    if (strlen(type_words[t].word) == end - start && !memcmp(s + start, type_words[t].word, end - start) &&
                        strlen(out) + end - start + 2 < 64) {
                        strcat(out, ".");
                        strncat(out, s + start, end - start);
                    }
            pos = end;
        }
    }
    if (!strcmp(from_source, from_canonical))
        return true;
    diag_at(ld->diag, DIAG_ERROR, in->at, "mma's types must come in the order .dtype.atype.btype.ctype "
            "(%s here; a valid form is %s)", from_source, from_canonical);
    ld->failed = true;
    return false;
}

/* The PTX ISA version and target a form needs, as ptxas 13.0 asks: fp8 PTX ISA 8.4 and sm_89
 * (8.7 for f16 C/D or m16n8k16); m16n8k4, k8, k16 .f64 PTX ISA 7.8 and sm_90. */
static bool version_target(Loader *ld, const Instr *in, unsigned need, unsigned sm)
{
    const Module *m = ld->p->m;
    if (m->version && m->version < need)
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' requires PTX ISA %u.%u or later (this module is .version %u.%u)",
                in->mnemonic, need / 10, need % 10, m->version / 10, m->version % 10);
    else if (m->target_sm && m->target_sm < sm)
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' requires sm_%u or later (this module targets sm_%u)",
                in->mnemonic, sm, m->target_sm);
    else
        return true;
    ld->failed = true;
    return false;
}

/* What an element of a 32-bit mma operand vector is, for ptxas's type rule below: a .b32
 * register (any), .f32 (registers and 0f immediates), .f16x2, integer (.u32, .s32 registers and
 * integer immediates), or another type (never allowed); VK_IMM_I: a vector of integer
 * immediates only. */
enum { VK_B = 1, VK_F = 2, VK_H = 4, VK_I = 8, VK_OTHER = 16, VK_IMM_I = 32 };

static unsigned vector_kind_of(Loader *ld, const Operand *e)
{
    if (e->kind == OPND_INT)
        return VK_I;
    if (e->kind == OPND_F32)
        return VK_F;
    switch (ld->cur->fn->regs.data[e->u.slot].type) {
    case TYPE_B32: return VK_B;
    case TYPE_F32: return VK_F;
    case TYPE_F16X2: return VK_H;
    case TYPE_U32: case TYPE_S32: return VK_I;
    default: return VK_OTHER;
    }
}

/* The kinds of vector ptxas 13.0 takes (sm_90) for a 32-bit operand whose elements are of
 * MmaType t: .f32 C/D also in .f32 registers or all 0f immediates; .f16 A/B/C/D in .f16x2;
 * .s32 C/D in .u32/.s32 or all integer immediates; 8-, 4- and 1-bit A/B in any 32-bit
 * registers or all 0f immediates (not all integer ones); bf16 and tf32 only in .b32. */
static unsigned vector_kinds(unsigned t)
{
    switch (t) {
    case MT_F32: return VK_B | VK_F;
    case MT_F16: return VK_B | VK_H;
    case MT_S32: return VK_B | VK_I | VK_IMM_I;
    case MT_S8: case MT_U8: case MT_S4: case MT_U4: case MT_B1: case MT_E4M3: case MT_E5M2:
        return VK_B | VK_F | VK_H | VK_I;
    default: return VK_B;
    }
}

/* A 32-bit vector's kind as ptxas types it: its registers' one typed kind (.b32 ones go with
 * any), else .b32; with no register, its immediates' kind. An immediate must suit the
 * registers' kind (an integer one .b32 or integer registers, a 0f one .b32 or .f32); kinds
 * that differ make it 0 (ptxas: "Vector with elements of different types are not allowed"). */
static unsigned vector_kind(Loader *ld, const Operand *o)
{
    unsigned regs = 0, imms = 0;
    for (unsigned i = 0; i < o->count; i++) {
        const Operand *e = &o->u.group.elems[i];
        unsigned k = vector_kind_of(ld, e);
        *(e->kind == OPND_REG ? &regs : &imms) |= k;
    }
    unsigned typed = regs & ~(unsigned)VK_B;
    if (typed & (typed - 1) || typed & VK_OTHER)
        return 0;
    if (!regs)
        return imms == VK_I ? VK_IMM_I : imms == VK_F ? VK_F : 0;
    unsigned kind = typed ? typed : VK_B;
    if (((imms & VK_I) && !(kind & (VK_B | VK_I))) || ((imms & VK_F) && !(kind & (VK_B | VK_F))))
        return 0;
    return kind;
}

/* {d...}, {a...}, {b...}, {c...}: registers of width bits, count of them, into rows; 32-bit
 * ones of a kind ptxas takes for elements of MmaType t (vector_kind). */
bool mma_vector_rows(Loader *ld, const Operand *o, unsigned count, unsigned bits, unsigned t, bool dst,
                     uint32_t *rows)
{
    if (o->kind != OPND_VEC || o->count != count)
        return false;
    for (unsigned i = 0; i < count; i++) {
        const Operand *e = &o->u.group.elems[i];
        if (e->kind == OPND_REG) {
            if (type_info[ld->cur->fn->regs.data[e->u.slot].type].bits != bits)
                return false;
            rows[i] = ld->cur->row_base + e->u.slot;
        } else if (!dst && (e->kind == OPND_INT || e->kind == OPND_F64) && bits == 64) {
            rows[i] = operand_immediate_row(ld, e->u.bits);
        } else if (!dst && (e->kind == OPND_INT || (e->kind == OPND_F32 && t == MT_F32)) && bits == 32) {
            /* its bits, as ptxas's cubins show them for these; a 0f one elsewhere (an .s32 C)
               ptxas compiles to another value (0): refused */
            rows[i] = operand_immediate_row(ld, e->u.bits & 0xffffffffu);
        } else {
            return false;
        }
    }
    return bits != 32 || (vector_kind(ld, o) & vector_kinds(t)) != 0;
}

/* Lowers mma: its form into Program.mma_forms[x->target]; the rows of D, A, B, C in order into
 * Program.mma_rows from the form's rows (x->target_count of them). Refuses other forms. */
void mma_lower(Loader *ld, const Instr *in, XInstr *x)
{
    MmaForm f;
    if (!types_in_order(ld, in))
        return;
    const char *wrong = decode(in->mnemonic, &f);
    if (wrong) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' is not a form of mma (%s)", in->mnemonic, wrong);
        ld->failed = true;
        return;
    }
    if (ab_kind(f.a) == AB_FP8 && !version_target(ld, in, f.c == MT_F16 || f.k == 16 ? 87 : 84, 89))
        return;
    if (f.a == MT_F64 && f.m == 16 && !version_target(ld, in, 78, 90))  /* ptxas: PTX 7.8, sm_90 */
        return;
    if (!mma_form_runs(&f)) {
        char what[200];
        snprintf(what, sizeof what, "'%s' (mma%s with .%s A and B)", in->mnemonic,
                 f.a == MT_F64 ? " m16n8k*" : "", type_name(f.a));
        operand_cannot(ld, in, what);
        return;
    }
    unsigned bits = f.a == MT_F64 ? 64 : 32;
    if (in->operand_count != 4) {
        operand_cannot(ld, in, "mma without four vector operands");
        return;
    }
    unsigned counts[4] = { f.d_regs, f.a_regs, f.b_regs, f.c_regs }, types[4] = { f.d, f.a, f.b, f.c };
    unsigned total = f.d_regs + f.a_regs + f.b_regs + f.c_regs;
    Program *p = ld->p;
    p->mma_rows = xrealloc(p->mma_rows, (p->mma_row_count + total) * sizeof *p->mma_rows);
    uint32_t *rows = p->mma_rows + p->mma_row_count;
    for (unsigned k = 0, at = 0; k < 4; at += counts[k], k++)
        if (!mma_vector_rows(ld, &in->operands[k], counts[k], bits, types[k], k == 0, rows + at)) {
            unsigned kinds = bits == 32 ? vector_kinds(types[k]) : 0;
            diag_at(ld->diag, DIAG_ERROR, in->operands[k].at, "operand %u of '%s' must be {%u .b%u%s%s%s registers}%s",
                    k + 1, in->mnemonic, counts[k], bits, kinds & VK_F ? " or .f32" : "",
                    kinds & VK_H ? " or .f16x2" : "", kinds & VK_I ? " or .u32/.s32" : "",
                    !k ? "" : types[k] == MT_F32 ? " (or integer or 0f immediates)" : " (or integer immediates)");
            ld->failed = true;
            return;
        }
    mma_add_form(p, f, total, x);
}

/* f, whose total rows the lowering has written at the end of Program.mma_rows, as x's form:
 * appended to Program.mma_forms, x->target its index; x names no destination or source of its
 * own (its rows are the form's). */
void mma_add_form(Program *p, MmaForm f, unsigned total, XInstr *x)
{
    f.rows = p->mma_row_count;
    p->mma_row_count += total;
    p->mma_forms = xrealloc(p->mma_forms, (p->mma_form_count + 1) * sizeof *p->mma_forms);
    p->mma_forms[p->mma_form_count] = f;
    x->target = p->mma_form_count++;
    x->target_count = total;
    x->dst_kind = DST_NONE;
    x->src_count = 0;
}

/* Element i of a fragment held in regs (lane l), of bits bits: its raw bits and whether any of
 * them is undefined. */
uint64_t mma_element(const Warp *w, const uint32_t *regs, unsigned l, unsigned i, unsigned bits, bool *undef)
{
    if (bits >= 32) {
        uint64_t need = bits == 64 ? ~0ull : 0xffffffffull;
        *undef = (warp_dbits(w, regs[i], (int)l) & need) != need;
        return w->val[regs[i]][l] & need;
    }
    unsigned e = 32 / bits, sh = bits * (i % e);
    uint64_t mask = (1ull << bits) - 1;
    uint32_t row = regs[i / e];
    *undef = ((warp_dbits(w, row, (int)l) >> sh) & mask) != mask;
    return w->val[row][l] >> sh & mask;
}

/* The largest A (m16n8k256: 16 x 256) and B (256 x 8), rows of k elements; C and D 32 x 32
 * (m8n8k4 .f16's four products stacked). */
enum { MAX_M = 32, MAX_N = 32, MAX_A = 16 * 256, MAX_B = 8 * 256 };

/* One operand's fragments, which ('a', 'b', 'c'), nregs registers of bits-bit elements, into
 * out[row * rs + col * cs], each element's undefinedness or'ed into und[row * urs + col * ucs]:
 * each register of each lane read once, its elements placed by mma_place (mma_layout's
 * m8n8k4 .f16 places through mma884.c). */
static bool gather(const Warp *w, const MmaForm *f, char which, const uint32_t *regs, unsigned nregs, unsigned bits,
                   uint64_t *out, unsigned rs, unsigned cs, bool *und, unsigned urs, unsigned ucs)
{
    bool any = false;
    unsigned e = bits >= 32 ? 1 : 32 / bits;
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    bool quads = mma884_form(f);
    for (unsigned r = 0; r < nregs; r++) {
        uint32_t row = regs[r];
        bool defined = w->defined[row] == ALL_LANES;      /* every lane's every bit: nothing to mark */
        any |= !defined;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            uint64_t v = w->val[row][l], d = defined ? ~0ull : warp_dbits(w, row, (int)l);
            for (unsigned j = 0; j < e; j++) {
                unsigned rr, cc, sh = j * bits;
                if (quads)
                    mma884_layout(f, which, l, r * e + j, &rr, &cc);
                else
                    mma_place(f, which, e, l, r, j, &rr, &cc);
                out[rr * rs + cc * cs] = v >> sh & mask;
                if (!defined)
                    und[rr * urs + cc * ucs] |= (d >> sh & mask) != mask;
            }
        }
    }
    return any;
}

/* A's (which 'a') or B's ('b') fragments of f, not m8n8k4 .f16, as gather() puts them: a
 * register's e elements lie next to each other along k (mma_place), in A's row or B's column,
 * so each register of each lane is one run of e elements at out[base]. */
static bool gather_ab(const Warp *w, const MmaForm *f, char which, const uint32_t *regs, unsigned nregs,
                      unsigned bits, uint64_t *out, bool *und)
{
    bool any = false;
    unsigned e = bits >= 32 ? 1 : 32 / bits, k = f->k;
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1, all = bits >= 64 ? ~0ull : 0xffffffffull;
    for (unsigned r = 0; r < nregs; r++) {
        uint32_t row = regs[r];
        bool defined = w->defined[row] == ALL_LANES;      /* every lane's every bit */
        any |= !defined;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            unsigned rr, cc;
            mma_place(f, which, e, l, r, 0, &rr, &cc);
            unsigned line = which == 'a' ? rr : cc;       /* A's row or B's column */
            uint64_t v = w->val[row][l], *at = out + line * k + (which == 'a' ? cc : rr);
            switch (e) {                                  /* the register's elements, low bits first */
            case 1: at[0] = v & mask; break;
            case 2: at[0] = v & 0xffff, at[1] = v >> 16 & 0xffff; break;
            case 4: at[0] = v & 0xff, at[1] = v >> 8 & 0xff, at[2] = v >> 16 & 0xff, at[3] = v >> 24 & 0xff; break;
            default:
                for (unsigned j = 0; j < e; j++)
                    at[j] = v >> (j * bits) & mask;
                break;
            }
            if (!defined && (warp_dbits(w, row, (int)l) & all) != all)
                und[line] = true;
        }
    }
    return any;
}

/* D = A B + C for every element: floating-point and integer forms with each element of A's
 * rows and B's columns decoded once (mmaf_terms, mma8_terms, sign-extended integers), the
 * others element by element through mma_dot. A: rows of k, Bt: B's columns of k. */
static void product(const MmaForm *f, unsigned rows, const uint64_t *A, const uint64_t *Bt,
                    uint64_t (*C)[MAX_N], uint64_t (*D)[MAX_N], bool *nan_choice)
{
    unsigned kind = ab_kind(f->a), m = f->m, n = f->n, k = f->k;
    if ((kind == AB_F16 || kind == AB_BF16 || kind == AB_TF32) && !mma884_form(f)) {
        MmafTerm X[16 * 16], Y[8 * 16];                /* m16n8k16 at most */
        mmaf_terms(f->a, A, m * k, X);
        mmaf_terms(f->b, Bt, n * k, Y);
        for (unsigned i = 0; i < m; i++)
            for (unsigned j = 0; j < n; j++)
                D[i][j] = mmaf_dot_terms(f, X + i * k, Y + j * k, C[i][j], nan_choice);
        return;
    }
    if (kind == AB_FP8) {
        MmafTerm X[16 * 32], Y[8 * 32];                /* m16n8k32 at most */
        for (unsigned i = 0; i < m; i++)
            mma8_terms(f->a, A + i * k, k, X + i * k);
        for (unsigned j = 0; j < n; j++)
            mma8_terms(f->b, Bt + j * k, k, Y + j * k);
        for (unsigned i = 0; i < m; i++)
            for (unsigned j = 0; j < n; j++)
                D[i][j] = mma8_dot_terms(f, X + i * k, Y + j * k, C[i][j]);
        return;
    }
    if (kind == AB_I8 || kind == AB_I4) {
        int16_t X[16 * 64], Y[8 * 64];                 /* m16n8k64 at most; -128..255 */
        for (unsigned i = 0; i < m * k; i++)
            X[i] = (int16_t)int_of(f->a, A[i]);
        for (unsigned i = 0; i < n * k; i++)
            Y[i] = (int16_t)int_of(f->b, Bt[i]);
        for (unsigned i = 0; i < m; i++)
            for (unsigned j = 0; j < n; j++) {
                const int16_t *x = X + i * k, *y = Y + j * k;
                int32_t dot = 0;                         /* |dot| <= 64 * 255 * 255 < 2^31: exact */
                for (unsigned h = 0; h < k; h++)
                    dot += x[h] * y[h];
                int64_t acc = int_of(MT_S32, C[i][j]) + dot;
                if (f->flags & MMA_SAT)
                    acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                D[i][j] = (uint32_t)(uint64_t)acc;     /* modulo 2^32 */
            }
        return;
    }
    for (unsigned i = 0; i < rows; i++)
        for (unsigned j = 0; j < n; j++)
            D[i][j] = mma_dot(f, A + i * k, Bt + (i / m * n + j) * k, C[i][j], nan_choice);
}

/* The warp's mma: every lane of the warp takes part (.aligned), or none (a guard false in
 * all of them); otherwise a fault. */
void mma_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true)
{
    uint32_t all = w->launched & ~w->exited;
    if (!guard_true)
        return;                          /* guarded off in every lane: nobody executes it */
    if (w->launched != ALL_LANES || lanes != ALL_LANES || guard_true != ALL_LANES || all != ALL_LANES) {
        report_fault(w, (uint32_t)(x - w->prog->code), "'%s' executed by lanes 0x%08x of the warp (guard true in "
                     "0x%08x): mma.sync.aligned needs all 32 lanes of a whole warp to execute it together",
                     x->ir->mnemonic, lanes, guard_true);
        return;
    }
    const MmaForm *f = &w->prog->mma_forms[x->target];
    const uint32_t *rows = w->prog->mma_rows + f->rows;
    const uint32_t *d = rows, *a = d + f->d_regs, *b = a + f->a_regs, *c = b + f->b_regs;
    unsigned abits = mma_type_bits(f->a), cbits = mma_type_bits(f->c);
    unsigned pairs = mma884_form(f) ? 4 : 1;   /* m8n8k4 .f16: pair p's A, C rows, B columns at 8p (mma884.c) */
    MatrixView *view = mmaview_begin(w, x, &(MatrixSource){ f, rows, mma_layout, pairs });   /* --matrix */
    uint64_t A[MAX_A], Bt[MAX_B], C[MAX_M][MAX_N];   /* A by rows, B by columns, k elements each */
    bool Au[MAX_M], Bu[MAX_N], Cu[MAX_M][MAX_N];  /* any element of A's row, B's column undefined */
    memset(Au, 0, sizeof Au), memset(Bu, 0, sizeof Bu), memset(Cu, 0, sizeof Cu);
    bool undefined;                              /* some element of A, B or C has an undefined bit */
    if (pairs == 1)
        undefined = gather_ab(w, f, 'a', a, f->a_regs, abits, A, Au) | gather_ab(w, f, 'b', b, f->b_regs, abits, Bt, Bu);
    else
        undefined = gather(w, f, 'a', a, f->a_regs, abits, A, f->k, 1, Au, 1, 0) |
                    gather(w, f, 'b', b, f->b_regs, abits, Bt, 1, f->k, Bu, 0, 1);
    undefined |= gather(w, f, 'c', c, f->c_regs, cbits, &C[0][0], MAX_N, 1, &Cu[0][0], MAX_N, 1);
    uint64_t D[MAX_M][MAX_N];
    bool Du[MAX_M][MAX_N], nan_choice = false;       /* Du: a source of the element undefined */
    product(f, pairs * f->m, A, Bt, C, D, &nan_choice);
    for (unsigned i = 0; i < pairs * f->m; i++)
        for (unsigned j = 0; j < f->n; j++)
            Du[i][j] = undefined && (Au[i] || Bu[i / f->m * f->n + j] || Cu[i][j]);
    if (ab_kind(f->a) == AB_FP8 && !mma8_recorded(f))
        report_warn(w, (uint32_t)(x - w->prog->code), ALL_LANES, "mma with fp8 A/B in a form not recorded on the H100 "
                    "(only m16n8k32 .f32.e4m3.e4m3.f32 and .f32.e5m2.e5m2.f32 are): ptxrun computes it as ptxas's "
                    "sm_90 code does (fp8 to f16, two f16 HMMA, then C added), from the recorded parts");
    if (nan_choice && f->a == MT_F64)
        report_warn(w, (uint32_t)(x - w->prog->code), ALL_LANES, "mma .f64 on two different NaNs in one step of "
                    "the fma chain: which one the H100 returns is not recorded; ptxrun returns a's, else b's, quieted");
    else if (nan_choice)
        report_warn(w, (uint32_t)(x - w->prog->code), ALL_LANES, "mma: an element of D on a case no H100 recording "
                    "decides (a sum of -0 terms only, a subnormal f16 C above every product, all terms below 2^-133, "
                    "or an f16 D from beyond f32's precision), where another choice gives other bits: ptxrun's "
                    "are those of docs/semantics.md, \"mma\"");
    mma_scatter(w, x, f, d, &D[0][0], &Du[0][0], MAX_N);
    mmaview_end(view);
}

/* D into every lane's D registers (d: their rows) by f's 'd' layout: element (i, j) has the raw
 * bits D[i * stride + j], undefined[i * stride + j] whether it is undefined (rows may repeat a
 * source: the caller gathered them first). Definedness goes element by element, so an f16 D
 * register with one undefined half keeps the other defined; a guard undefined in some lane
 * leaves all of D undefined (whether the warp ran it at all is unknown). */
void mma_scatter(Warp *w, const XInstr *x, const MmaForm *f, const uint32_t *d, const uint64_t *D,
                 const bool *undefined, unsigned stride)
{
    bool guard_unknown = x->guard && (w->pred_defined[x->guard_pred] & ALL_LANES) != ALL_LANES;
    unsigned dbits = mma_type_bits(f->d), e = dbits >= 32 ? 1 : 32 / dbits, rr, cc;
    uint64_t mask = dbits >= 64 ? ~0ull : (1ull << dbits) - 1;
    bool stacked = mma884_form(f);               /* m8n8k4 .f16: D by its own layout (mma884.c) */
    for (unsigned r = 0; r < f->d_regs; r++) {
        Lanes out, dbits_of;                     /* dbits_of: each lane's defined bits, element by element */
        uint32_t defined = 0;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            uint64_t v = 0, vd = 0;
            for (unsigned h = 0; h < e; h++) {
                if (stacked)
                    mma884_layout(f, 'd', l, r * e + h, &rr, &cc);
                else
                    mma_place(f, 'c', e, l, r, h, &rr, &cc);
                v |= (D[rr * stride + cc] & mask) << (h * dbits);
                if (!undefined[rr * stride + cc])
                    vd |= mask << (h * dbits);
            }
            out[l] = v;
            dbits_of[l] = vd;
            defined |= (uint32_t)(vd == (e == 1 ? mask : 0xffffffffull)) << l;
        }
        warp_commit(w, d[r], out, ALL_LANES, guard_unknown ? 0 : defined);
        if (!guard_unknown && defined != ALL_LANES)      /* f16 D: one of a register's two may be undefined */
            vbits_define_row(w, d[r], ~defined & ALL_LANES, dbits_of, dbits >= 32 ? dbits : 32);
    }
}
