/* checkop.c: checks one decoded instruction against what ops.def says of its opcode: the PTX
 * version and target it requires (and that shfl and vote without .sync are legacy), how many
 * operands its form takes, and each operand's kind and type for its shape letter.
 * Requires: in decoded (decode.c) and its names resolved (check.c); called by check.c only. */
#include <stdlib.h>
#include <string.h>

#include "checker.h"

static void error(Diag *diag, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(diag, DIAG_ERROR, at, fmt, ap);
    va_end(ap);
}

static void warning(Diag *diag, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(diag, DIAG_WARNING, at, fmt, ap);
    va_end(ap);
}

/* ---- versions and targets ---- */

enum { PTX_SYNC_INTRODUCED = 60, PTX_NOSYNC_REMOVED = 64, SM_NOSYNC_REMOVED = 70 };

/* What the opcode requires of the module's .version and .target. shfl and vote without .sync
 * are refused where ptxas refuses them and otherwise warned about once per opcode (warned_legacy,
 * indexed by opcode). */
void checkop_version_target(Diag *diag, const Module *m, const CheckOptions *options, bool *warned_legacy,
                            const Instr *in)
{
    const OpInfo *o = &op_info[in->op];
    if (m->version && o->min_ptx > m->version)
        error(diag, in->at, "'%s' requires PTX ISA %u.%u or later (this module is .version %u.%u)",
              o->name, o->min_ptx / 10, o->min_ptx % 10, m->version / 10, m->version % 10);
    if (m->target_sm && o->min_sm > m->target_sm)
        error(diag, in->at, "'%s' requires sm_%u or later (this module targets sm_%u)", o->name,
              o->min_sm, m->target_sm);
    if (m->target_sm && (o->flags & OPF_ARCH) && !m->target_arch)
        error(diag, in->at, "'%s' requires an architecture-specific target such as sm_%ua", o->name,
              o->min_sm);
    bool b128 = false;                  /* .b128 (PTX ISA 8.3, sm_70; atom's: sm_90) */
    for (unsigned i = 0; i < in->type_count; i++)
        b128 |= in->types[i] == TYPE_B128;
    if (b128 && m->version && m->version < 83)
        error(diag, in->at, "'.b128' requires PTX ISA 8.3 or later (this module is .version %u.%u)",
              m->version / 10, m->version % 10);
    unsigned b128_sm = in->op == OP_ATOM ? 90 : 70;
    if (b128 && m->target_sm && m->target_sm < b128_sm)
        error(diag, in->at, "'%s' of .b128 requires sm_%u or later (this module targets sm_%u)", o->name,
              b128_sm, m->target_sm);
    if (o->flags & OPF_LEGACY_NOSYNC) {
        if (m->version >= PTX_NOSYNC_REMOVED && m->target_sm >= SM_NOSYNC_REMOVED)
            error(diag, in->at, "'%s' without .sync is not supported for sm_%u and later from PTX ISA "
                  "6.4 on (use '%s.sync')", o->name, SM_NOSYNC_REMOVED, o->name);
        else if (options->warn_deprecated && (m->version >= PTX_SYNC_INTRODUCED || !m->version) &&
                 !warned_legacy[in->op]) {
            warned_legacy[in->op] = true;
            warning(diag, in->at, "'%s' without .sync is deprecated since PTX ISA 6.0 (use '%s.sync')",
                    o->name, o->name);
        }
    }
}

/* ---- operands ---- */

/* The kind of an operand in words, for messages: "an immediate", "a label". */
const char *checkop_kind_word(const Operand *o)
{
    switch (o->kind) {
    case OPND_INT: case OPND_F32: case OPND_F64: return "an immediate";
    case OPND_SYM: return "a variable or function name";
    case OPND_LABEL: return "a label";
    case OPND_SINK: return "'_'";
    case OPND_ADDR: return "an address";
    case OPND_VEC: return "a vector";
    case OPND_PAIR: return "a pair";
    case OPND_LIST: return "a parenthesised list";
    case OPND_REG_OFFSET: return "a register plus an offset";
    case OPND_SREG: return "a special register";
    case OPND_PRED: return "a predicate";
    default: return "a register";
    }
}

/* Register type compatibility (PTX ISA 5.4.4): same width, and a .b type on either side, or
 * both integer types, or the same floating-point type. */
static bool compatible(int reg_type, int want)
{
    if (reg_type == TYPE_NONE || want == TYPE_NONE)
        return true;
    if (checker_type_bits(reg_type) != checker_type_bits(want))
        return false;
    char r = checker_type_class(reg_type), w = checker_type_class(want);
    if (r == 'b' || w == 'b')
        return true;
    if ((r == 'u' || r == 's') && (w == 'u' || w == 's'))
        return true;
    return reg_type == want;
}

/* Whether in may read special register sreg: the PTX ISA's special registers "are accessed
 * through mov or cvt instructions", and ptxas 13.0 takes them there only for integer (or
 * predicate) results ("Special register argument not allowed" elsewhere); WARP_SZ is a constant,
 * an immediate anywhere. */
static bool reads_special_registers(const Instr *in, int sreg)
{
    if (sreg == SREG_WARP_SZ)
        return true;
    return (in->op == OP_MOV || in->op == OP_CVT) && in->type_count > 0 && checker_type_class(in->types[0]) != 'f';
}

static void check_value(Diag *diag, const Function *fn, const Instr *in, const Operand *o, Expect e)
{
    const char *op = in->mnemonic;
    switch (o->kind) {
    case OPND_PRED:
        if (!e.pred)
            error(diag, o->at, "predicate '%s' used as a value in '%s'", fn->preds.data[o->u.slot].name, op);
        return;
    case OPND_REG: {
        Register *r = &fn->regs.data[o->u.slot];
        if (e.pred) {
            error(diag, o->at, "'%s' is not a predicate ('%s' needs one here)", r->name, op);
            return;
        }
        /* ld, st and cvt may name registers wider than their type (PTX ISA 5.4.5.1): integers,
         * or .bN registers (cvt's packed formats: .e2m1x2 in a .b16); for ld and st also
         * registers of any type for .bN data. */
        char want = checker_type_class(e.type), have = checker_type_class(r->type);
        bool wider = checker_type_bits(r->type) > checker_type_bits(e.type);
        bool wider_ok = (in->op == OP_CVT && wider && ((want != 'f' && have != 'f') || have == 'b')) ||
                        ((in->op == OP_LD || in->op == OP_LDU || in->op == OP_ST) && wider &&
                         (want == 'b' || have == 'b' || (want != 'f' && have != 'f'))) ||
                        ((in->op == OP_LDMATRIX || in->op == OP_STMATRIX || in->op == OP_MOVMATRIX) &&
                         checker_type_bits(r->type) == 32 && have != 'f');   /* two .b16 elements a register */
        if (in->op == OP_ISSPACEP && !r->inferred &&
            (have == 'f' || (checker_type_bits(r->type) != 32 && checker_type_bits(r->type) != 64))) {
            error(diag, o->at, "'%s' is .%s: '%s' takes a 32- or 64-bit integer address", r->name,
                  type_info[r->type].name, op);
            return;
        }
        if (!r->inferred && !wider_ok && !compatible(r->type, e.type))
            error(diag, o->at, "'%s' is .%s, which does not fit the .%s operand of '%s'", r->name,
                  type_info[r->type].name, type_info[e.type].name, op);
        return;
    }
    case OPND_SINK:
        if (!e.dest)
            error(diag, o->at, "'_' can only be a destination");
        return;
    default:
        break;
    }
    if (e.dest) {
        error(diag, o->at, "the destination of '%s' must be a register, not %s", op, checkop_kind_word(o));
        return;
    }
    /* An integer immediate stands for a predicate (ptxas takes selp d, a, b, 5): true when not
     * zero (setp and set: when its low 32 bits are not; exec/operand.c, docs/semantics.md). */
    bool pred_sreg = o->kind == OPND_SREG && sreg_info[o->u.sreg].bits == 1;   /* %is_explicit_cluster */
    if (e.pred && o->kind != OPND_INT && !pred_sreg) {
        error(diag, o->at, "'%s' needs a predicate here, not %s", op, checkop_kind_word(o));
        return;
    }
    if (pred_sreg && !e.pred) {
        error(diag, o->at, "special register '%s' is a predicate: '%s' cannot take it here", sreg_info[o->u.sreg].name,
              op);
        return;
    }
    char cls = checker_type_class(e.type);
    switch (o->kind) {
    case OPND_REG_OFFSET: {                  /* r+imm: ptxas takes it where an integer may stand */
        const Register *r = &fn->regs.data[o->u.group.elems[0].u.slot];
        if (cls == 'f' || checker_type_class(r->type) == 'f')
            error(diag, o->at, "'%s' plus an offset is not a value here: '%s' needs an integer", r->name, op);
        else if (!r->inferred && !compatible(r->type, e.type) && e.type != TYPE_NONE)
            error(diag, o->at, "'%s' is .%s, which does not fit the .%s operand of '%s'", r->name,
                  type_info[r->type].name, type_info[e.type].name, op);
        return;
    }
    case OPND_INT:
    case OPND_F32:
    case OPND_F64:
        if (e.type == TYPE_F16 || e.type == TYPE_BF16 || e.type == TYPE_F16X2 || e.type == TYPE_BF16X2)
            error(diag, o->at, "'%s' takes no immediate for its .%s operand (ptxas refuses one): move the bits into "
                  "a register first, as in mov.b16 h, 0x3C00", op, type_info[e.type].name);
        else if (o->kind == OPND_INT && cls == 'f')
            error(diag, o->at, "integer immediate for the .%s operand of '%s' (write a float such as 1.0 or 0f3F800000)",
                  type_info[e.type].name, op);
        else if (o->kind != OPND_INT && (cls == 'u' || cls == 's' ||
                                         (cls == 'b' && (checker_type_bits(e.type) < 32 || e.type == TYPE_B128))))
            error(diag, o->at, "floating-point immediate for the .%s operand of '%s'", type_info[e.type].name, op);
        return;
    case OPND_SREG: {
        /* A narrower mov reads the low bits of the legacy 16-bit (and %gridid's 32-bit) forms;
         * cvt those of any special register, as of a wider register (sregs.def). */
        const SregInfo *s = &sreg_info[o->u.sreg];
        unsigned narrowest = in->op == OP_CVT ? 0 : in->op == OP_MOV ? s->mov_bits : s->bits;
        if (e.type != TYPE_NONE && cls != 'f' && !pred_sreg && narrowest > checker_type_bits(e.type)) {
            if (narrowest < s->bits)
                error(diag, o->at, "special register '%s' is %u-bit: '%s' reads at least its low %u bits (PTX ISA), "
                      "not .%s", s->name, s->bits, op, narrowest, type_info[e.type].name);
            else
                error(diag, o->at, "special register '%s' is %u-bit, wider than the .%s operand of '%s'", s->name,
                      s->bits, type_info[e.type].name, op);
        }
        return;
    }
    case OPND_SYM:
        if (e.letter == 'S')
            return;
        /* fall through */
    default:
        error(diag, o->at, "'%s' cannot take %s here", op, checkop_kind_word(o));
    }
}

/* What the operand at shape letter `letter` of in must be. */
Expect checkop_expect(const Instr *in, char letter)
{
    int type = in->type_count ? in->types[0] : TYPE_NONE;
    bool is_pred_type = type == TYPE_PRED;
    int wide = type;
    if (ir_has_mod(in, MOD_WIDE) && type != TYPE_NONE)
        wide = checker_type_of(checker_type_class(type), 2 * checker_type_bits(type));
    Expect e = { letter, false, false, type };
    switch (letter) {
    case 'd': case 'V': e.dest = true; e.pred = is_pred_type; e.type = wide; break;
    case 'D': e.dest = true; break;
    case 'Q': case 'q': e.dest = true; e.pred = true; e.type = TYPE_PRED; break;
    case 'a': case 'S': case 'v': e.pred = is_pred_type; break;
    case 'c': e.type = TYPE_B64; break;
    case 'A': e.type = TYPE_NONE; break;
    case 'w': e.type = wide; break;
    case 't': e.type = in->type_count > 1 ? in->types[1] : TYPE_NONE; break;
    case 'u': e.type = TYPE_U32; break;
    case 'f': e.type = TYPE_F32; break;
    case 'U': case 'M': e.dest = true; e.type = TYPE_U32; break;
    case 'p': e.pred = true; e.type = TYPE_PRED; break;
    case 'l': e.type = TYPE_NONE; break;
    case 'x': case 'm': case 'n': case 'h': case 'b': e.type = TYPE_U32; break;
    case 'y': case 'H': case 'B': e.dest = true; e.type = TYPE_U32; break;
    default: break;
    }
    return e;
}

/* An address: [reg], [reg+imm], [var], [var+imm] or [imm]; the register an integer one. */
static void check_address(Diag *diag, const Function *fn, const Instr *in, const Operand *o)
{
    if (o->kind != OPND_ADDR) {
        error(diag, o->at, "'%s' needs an address in brackets here, such as [p], not %s", in->mnemonic, checkop_kind_word(o));
        return;
    }
    for (unsigned i = 0; i < o->count; i++) {
        const Operand *base = &o->u.group.elems[i];
        if (base->kind == OPND_REG && checker_type_class(fn->regs.data[base->u.slot].type) == 'f')
            error(diag, base->at, "'%s' is .%s: an address is an integer", fn->regs.data[base->u.slot].name,
                  type_info[fn->regs.data[base->u.slot].type].name);
        else if (base->kind != OPND_REG && base->kind != OPND_SYM && base->kind != OPND_NAME)
            error(diag, base->at, "an address is a register or a variable (plus an offset), not %s", checkop_kind_word(base));
    }
}

/* Whether a video selector fits its operand's shape letter: x y m (scalar video) one byte or
 * half, .b0-.b3 .h0 .h1; h (2-way SIMD) two of the four halves of {b, a}, .hxy; b (4-way) four
 * of the eight bytes, .bxyzw; H and B a destination mask, .h0 .h1 .h10 or bytes from 3 down to
 * 0, each at most once (.b0 ... .b3210). As ptxas 13.0 takes them. */
static bool selector_fits(char letter, unsigned select)
{
    unsigned n = sel_count(select);
    bool half = select & SEL_HALF;
    switch (letter) {
    case 'x': case 'y': case 'm':
        return n == 1 && sel_digit(select, 0) < (half ? 2u : 4u);
    case 'h':
        return half && n == 2 && sel_digit(select, 0) < 4 && sel_digit(select, 1) < 4;
    case 'b':
        return !half && n == 4;
    case 'H':
        return half && (n == 1 ? sel_digit(select, 0) < 2 : sel_digit(select, 1) == 1 && sel_digit(select, 0) == 0);
    case 'B':
        if (half || sel_digit(select, n - 1) > 3)
            return false;
        for (unsigned i = 1; i < n; i++)
            if (sel_digit(select, i) <= sel_digit(select, i - 1))
                return false;
        return true;
    default:
        return false;
    }
}

/* A register written with '-' (before a number, '-' is the number's sign). */
static bool is_negated(const Operand *o)
{
    return o->kind == OPND_REG && (o->flags & OPNDF_NEGATIVE);
}

/* A video instruction's operand: its selector, a SIMD form's registers, vmad's negations
 * (of a or b or both, or of c, not of both the product and c, none under .po). */
static void check_video_operand(Diag *diag, const Instr *in, const Operand *o, char letter)
{
    bool third_source = o == &in->operands[3];
    bool secondary = ir_has_mod(in, MOD_ADD) || ir_has_mod(in, MOD_MIN) || ir_has_mod(in, MOD_MAX);
    if (letter == 'y' && o->select && secondary)
        error(diag, o->at, "'%s' merges into c under a selector of d or applies .add/.min/.max, not both",
              in->mnemonic);
    if (letter == 'y' && (o->select || secondary) && in->operand_count < 4)
        error(diag, in->stmt_at, "'%s' needs c, its fourth operand, here", in->mnemonic);
    if ((letter == 'H' || letter == 'B') && ir_has_mod(in, MOD_SAT) && ir_has_mod(in, MOD_ADD))
        error(diag, in->at, "'%s': .sat and .add do not go together", in->mnemonic);
    const char *form = letter == 'h' ? ".hxy, x and y in 0-3" : letter == 'b' ? ".bxyzw, each in 0-7" :
                       letter == 'H' ? ".h0, .h1 or .h10" : letter == 'B' ? "bytes from 3 down to 0: .b0 ... .b3210" :
                       ".b0-.b3, .h0 or .h1";
    if (o->select && third_source)
        error(diag, o->at, "the third source of '%s' takes no selector", in->mnemonic);
    else if (o->select && !selector_fits(letter, o->select))
        error(diag, o->at, "this selector does not fit this operand of '%s' (%s)", in->mnemonic, form);
    if (o->kind == OPND_SREG)
        error(diag, o->at, "'%s' cannot read a special register: move it to a register first", in->mnemonic);
    else if (strchr("hbHB", letter) && o->kind != OPND_REG)
        error(diag, o->at, "'%s' needs a register here, not %s", in->mnemonic, checkop_kind_word(o));
    if (letter == 'n' && is_negated(o) && is_negated(&in->operands[1]) != is_negated(&in->operands[2]))
        error(diag, o->at, "'%s' negates the product (one of a, b) or c, not both", in->mnemonic);
    if ((letter == 'm' || letter == 'n') && is_negated(o) && ir_has_mod(in, MOD_PO))
        error(diag, o->at, "'%s' cannot negate an operand under .po", in->mnemonic);
}

/* Checks one operand, its names resolved, against what its shape letter expects. */
void checkop_operand(Diag *diag, const Function *fn, const Instr *in, const Operand *o, Expect e)
{
    if (e.letter && strchr("xymnhbHB", e.letter))
        check_video_operand(diag, in, o, e.letter);
    else if (o->select)
        error(diag, o->at, "'%s' takes no selector such as '.b0' here", in->mnemonic);
    if (o->kind == OPND_REG && (o->flags & OPNDF_NEGATIVE) && e.letter != 'm' && e.letter != 'n')
        error(diag, o->at, "'-' before a register is for vmad's operands only");
    /* bfe's b, c and bfi's c, d: ptxas takes an immediate position or length from 0 to 255 only */
    if ((in->op == OP_BFE || in->op == OP_BFI) && o->kind == OPND_INT && o >= &in->operands[in->op == OP_BFE ? 2 : 3] &&
        o->u.bits > 255)
        error(diag, o->at, "'%s' takes an immediate position or length from 0 to 255, not %lld (ptxas refuses it)",
              in->mnemonic, (long long)o->u.bits);
    if (e.letter == 'l') {
        if (o->kind != OPND_LABEL && o->kind != OPND_NAME)
            error(diag, o->at, "'%s' needs a label, not %s", in->mnemonic, checkop_kind_word(o));
        return;
    }
    if (o->kind == OPND_PAIR) {
        if (e.letter != 'D' && e.letter != 'Q' && e.letter != 'M') {
            error(diag, o->at, "'%s' does not take a d|p pair here", in->mnemonic);
            return;
        }
        Expect first = e;
        check_value(diag, fn, in, &o->u.group.elems[0], first);
        Expect second = { 'q', true, true, TYPE_PRED };
        check_value(diag, fn, in, &o->u.group.elems[1], second);
        return;
    }
    if (e.letter == 'A') {
        check_address(diag, fn, in, o);
        return;
    }
    if (o->kind == OPND_VEC && (e.letter == 'V' || e.letter == 'S' || e.letter == 'v')) {
        Expect elem = e;
        elem.type = TYPE_NONE;
        for (unsigned i = 0; i < o->count; i++) {
            const Operand *x = &o->u.group.elems[i];
            if (in->op == OP_MOV && (x->kind == OPND_F32 || x->kind == OPND_F64))
                error(diag, x->at, "'%s' packs bits: an element is a register or an integer, not %s", in->mnemonic,
                      checkop_kind_word(x));
            else
                check_value(diag, fn, in, x, elem);
        }
        return;
    }
    if (o->kind == OPND_SINK && in->op == OP_LD) {
        error(diag, o->at, "'%s' cannot discard its one value ('_' is for elements of a vector)", in->mnemonic);
        return;
    }
    if (o->kind == OPND_SREG && e.letter == 'v') {
        error(diag, o->at, "'%s' cannot store special register '%s': move it to a register first", in->mnemonic,
              sreg_info[o->u.sreg].name);
        return;
    }
    if (e.letter == 'P') {                   /* cp.async's ignore-src (a predicate) or src-size */
        e.pred = o->kind == OPND_PRED;
        e.type = e.pred ? TYPE_PRED : TYPE_U32;
    }
    if ((o->flags & OPNDF_NOT) && e.letter != 'p')
        error(diag, o->at, "'!' is not allowed on this operand of '%s'", in->mnemonic);
    if (o->kind == OPND_SREG && !e.dest && !reads_special_registers(in, o->u.sreg)) {
        error(diag, o->at, "'%s' cannot read special register '%s%s': only mov and cvt to an integer or predicate do "
              "(PTX ISA; ptxas refuses it): move it to a register first", in->mnemonic, sreg_info[o->u.sreg].name,
              o->component ? (const char *[]){ ".x", ".y", ".z" }[o->component - 1] : "");
        return;
    }
    if (o->kind == OPND_SREG && e.dest)
        error(diag, o->at, "special register '%s' is read-only", sreg_info[o->u.sreg].name);
    else if (o->kind != OPND_NAME)
        check_value(diag, fn, in, o, e);
}

/* ---- shapes ---- */

/* An operand shape from ops.def: its letters in order; optional ones may be left out. */
typedef struct Shape {
    bool any;                  /* "*": operands not checked */
    unsigned count;
    uint32_t optional;         /* bit i: letters[i] is optional */
    char letters[MAX_SHAPE];
} Shape;

static bool has_word(const Instr *in, const char *word, size_t len)
{
    int t = type_lookup(word, len);
    for (unsigned i = 0; t != TYPE_COUNT && i < in->type_count; i++)
        if (in->types[i] == t)
            return true;
    int m = mod_lookup(word, len);
    if (t == TYPE_COUNT && m == MOD_COUNT)
        BUG("ops.def shape of '%s' is keyed by '%.*s', which is neither a type nor a modifier",
            op_info[in->op].name, (int)len, word);
    return m != MOD_COUNT && ir_has_mod(in, (Mod)m);
}

/* The shape of in's form: of ops.def's alternatives ".key letters | ... | letters", the first
 * whose key is one of in's suffixes, else the last (unkeyed). */
static Shape shape_of(const Instr *in)
{
    Shape sh = { 0 };
    const char *s = op_info[in->op].shape;
    if (strcmp(s, "*") == 0) {
        sh.any = true;
        return sh;
    }
    for (;;) {
        while (*s == ' ')
            s++;
        const char *end = s + strcspn(s, "|");
        if (*s == '.') {
            size_t key = strcspn(s + 1, " |");
            bool chosen = has_word(in, s + 1, key);
            s += 1 + key;
            if (!chosen) {
                if (!*end)
                    BUG("ops.def shape of '%s' has no unkeyed alternative", op_info[in->op].name);
                s = end + 1;
                continue;
            }
        }
        for (; s < end; s++) {
            if (*s == ',' || *s == ' ')
                continue;
            if (*s == '?') {
                sh.optional |= 1u << (sh.count - 1);
                continue;
            }
            if (sh.count == MAX_SHAPE)
                BUG("ops.def shape of '%s' is too long", op_info[in->op].name);
            sh.letters[sh.count++] = *s;
        }
        return sh;
    }
}

/* The letters for n operands: of the optional ones, the first (n - required) are present.
 * Returns false when n does not fit the shape. */
static bool fit_shape(const Shape *sh, unsigned n, char *letters)
{
    unsigned optional = (unsigned)__builtin_popcount(sh->optional), required = sh->count - optional;
    if (n < required || n > sh->count)
        return false;
    unsigned present = n - required, k = 0;
    for (unsigned i = 0; i < sh->count; i++) {
        if (sh->optional >> i & 1) {
            if (!present)
                continue;
            present--;
        }
        letters[k++] = sh->letters[i];
    }
    return true;
}

/* Shapes already worked out, by op, types and modifiers (what shape_of reads), hashed by the
 * canonical mnemonic that spells them: a module repeats few forms. */
typedef struct ShapeEntry {
    const char *mnemonic;      /* NULL: empty */
    uint16_t op;
    uint8_t type_count, mod_count;
    uint8_t types[MAX_TYPES];
    uint8_t mods[MAX_SUFFIXES];
    Shape shape;
} ShapeEntry;

struct ShapeMemo {
    ShapeEntry *entries;       /* open addressing */
    uint32_t count, capacity;  /* capacity is a power of two */
};

ShapeMemo *checkop_memo_new(void)
{
    ShapeMemo *memo = xcalloc(1, sizeof *memo);
    memo->capacity = 64;
    memo->entries = xcalloc(memo->capacity, sizeof *memo->entries);
    return memo;
}

void checkop_memo_free(ShapeMemo *memo)
{
    if (memo)
        free(memo->entries);
    free(memo);
}

static bool same_form(const ShapeEntry *e, const Instr *in)
{
    return e->op == in->op && e->type_count == in->type_count && e->mod_count == in->mod_count &&
           memcmp(e->types, in->types, in->type_count) == 0 && memcmp(e->mods, in->mods, in->mod_count) == 0;
}

static void memo_grow(ShapeMemo *memo)
{
    uint32_t capacity = memo->capacity * 2;
    ShapeEntry *entries = xcalloc(capacity, sizeof *entries);
    for (uint32_t i = 0; i < memo->capacity; i++) {
        if (!memo->entries[i].mnemonic)
            continue;
        uint32_t j = checker_pointer_hash(memo->entries[i].mnemonic) & (capacity - 1);
        while (entries[j].mnemonic)
            j = (j + 1) & (capacity - 1);
        entries[j] = memo->entries[i];
    }
    free(memo->entries);
    memo->entries = entries;
    memo->capacity = capacity;
}

static Shape memo_shape(ShapeMemo *memo, const Instr *in)
{
    uint32_t j = checker_pointer_hash(in->mnemonic) & (memo->capacity - 1);
    for (; memo->entries[j].mnemonic; j = (j + 1) & (memo->capacity - 1))
        if (memo->entries[j].mnemonic == in->mnemonic && same_form(&memo->entries[j], in))
            return memo->entries[j].shape;
    ShapeEntry *e = &memo->entries[j];
    e->mnemonic = in->mnemonic;
    e->op = in->op;
    e->type_count = in->type_count;
    e->mod_count = in->mod_count;
    memcpy(e->types, in->types, sizeof e->types);
    memcpy(e->mods, in->mods, sizeof e->mods);
    e->shape = shape_of(in);
    Shape sh = e->shape;
    if (++memo->count * 2 > memo->capacity)
        memo_grow(memo);
    return sh;
}

/* The shape letter of each of in's operands. Returns false when they are not to be checked one
 * by one: ops.def does not describe them ("*"), or their count does not fit (reported here). */
bool checkop_letters(Diag *diag, ShapeMemo *memo, const Instr *in, char letters[MAX_SHAPE])
{
    Shape sh = memo ? memo_shape(memo, in) : shape_of(in);
    if (sh.any)
        return false;
    if (fit_shape(&sh, in->operand_count, letters))
        return true;
    unsigned optional = (unsigned)__builtin_popcount(sh.optional), n = sh.count;
    if (!optional)
        error(diag, in->stmt_at, "'%s' takes %u operand%s, not %u", in->mnemonic, n, n == 1 ? "" : "s",
              in->operand_count);
    else
        error(diag, in->stmt_at, "'%s' takes %u to %u operands, not %u", in->mnemonic, n - optional, n,
              in->operand_count);
    return false;
}

/* ld, st and the atomics give the types of memory, to which a register may be wider; a barrier's
 * operands are numbers. Neither types a snippet's registers. */
bool checkop_types_registers(int op)
{
    int family = op_info[op].family;
    return family != FAM_MEMORY && family != FAM_ATOMIC && family != FAM_BARRIER;
}
