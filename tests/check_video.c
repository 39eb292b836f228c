/* check_video.c: the video instructions, bmsk, szext and cvt.pack against the PTX ISA. Values worked out
 * by hand from the ISA's pseudo-code, then sweeps over every type, selector, .sat, secondary
 * operation and merge against a reference written here: the ISA's helper functions
 * (partSelectSignExtend, optSaturate, optSecOp, optMerge, extractAndSignExt, vmad's 128-bit
 * steps) transcribed literally, selectors kept as the text written, 128 bits as two words; for
 * the scalar forms with the four departures an H100 showed (tests/h100_more/README.md point 4:
 * d.h1 in place, .sat into a selector, vadd/vsub held in 32 bits for .min/.max, vset's c signed;
 * and .sat into a full u32 destination, README "probe2"), written here from that README's rules,
 * not from exec/video.c. */
#include <math.h>

#include "testutil.h"

enum { LANES = WARP_SIZE };

/* ---- running one instruction over 32 lanes ---- */

static uint32_t slot_of(Block *b, const char *name)
{
    Function *f = b->prog.fn;
    for (uint32_t i = 0; i < f->regs.len; i++)
        if (strcmp(f->regs.data[i].name, name) == 0)
            return i;
    return NO_SLOT;
}

/* Runs the snippet text with registers a, b, c of each lane from the arrays (those it names)
 * and returns d of each lane in out; true when d is defined in every lane. */
static bool run_lanes(const char *text, const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *out)
{
    Parsed *p = parse_ok(text);
    Block *blk = block_load(p->m, p->m->functions.data[0], &p->diag, DEFAULT_STACK_BYTES);
    ck_assert_msg(blk != NULL, "not loadable: %s\n%s", text, p->cap.text);
    Warp *w = blk->warps[0];
    const char *names[] = { "a", "b", "c" };
    const uint32_t *values[] = { a, b, c };
    for (int i = 0; i < 3; i++) {
        uint32_t s = slot_of(blk, names[i]);
        if (s == NO_SLOT)
            continue;
        for (int l = 0; l < LANES; l++)
            w->val[s][l] = values[i][l];
        w->defined[s] = ALL_LANES;
    }
    ExecOptions o = { .max_steps = 1000 };
    ck_assert_int_eq(grid_run(blk, &o, (char[256]){ 0 }, 256), EXEC_OK);
    uint32_t d = slot_of(blk, "d");
    for (int l = 0; l < LANES; l++)
        out[l] = (uint32_t)w->val[d][l];
    bool defined = w->defined[d] == ALL_LANES;
    block_free(blk);
    parsed_free(p);
    return defined;
}

static uint32_t run_one(const char *text, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t va[LANES], vb[LANES], vc[LANES], out[LANES];
    for (int l = 0; l < LANES; l++) {
        va[l] = a;
        vb[l] = b;
        vc[l] = c;
    }
    run_lanes(text, va, vb, vc, out);
    return out[0];
}

/* Inputs rich in the bytes where saturation and signs turn: 0x00 0x01 0x7f 0x80 0x81 0xff. */
static uint32_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (uint32_t)(*state >> 11);
}

static void fill(uint64_t *state, uint32_t *v)
{
    static const uint8_t edges[] = { 0x00, 0x01, 0x7f, 0x80, 0x81, 0xff, 0xfe, 0x40 };
    for (int l = 0; l < LANES; l++) {
        uint32_t r = next_random(state), x = 0;
        for (int i = 0; i < 4; i++)
            x |= (uint32_t)((r >> (8 * i) & 1) ? edges[(r >> (8 * i + 1)) & 7] : (uint8_t)(r >> (8 * i + 4) | r >> 27))
                 << (8 * i);
        v[l] = (l & 7) == 7 ? next_random(state) : x;
    }
}

/* ---- the reference: the ISA's helpers, literally ---- */

static int64_t sign_extend(uint64_t v, int bits)
{
    v &= (bits == 64 ? ~0ull : (1ull << bits) - 1);
    if (bits < 64 && (v >> (bits - 1)) & 1)
        return (int64_t)(v | ~((1ull << bits) - 1));
    return (int64_t)v;
}

/* partSelectSignExtend(x, type, sel): sel is "" (the word), "b0".."b3", "h0", "h1". */
static int64_t ref_part(uint32_t x, bool is_signed, const char *sel)
{
    uint32_t v = x;
    int bits = 32;
    if (sel[0] == 'b') { v = x >> (8 * (sel[1] - '0')) & 0xff; bits = 8; }
    if (sel[0] == 'h') { v = x >> (16 * (sel[1] - '0')) & 0xffff; bits = 16; }
    return is_signed ? sign_extend(v, bits) : (int64_t)v;
}

static long double ref_clamp(long double v, long double max, long double min)
{
    return v > max ? max : v < min ? min : v;
}

/* optSaturate: the destination's range, of the merged byte or half under dsel. */
static long double ref_saturate(long double tmp, bool sat, bool is_signed, const char *dsel)
{
    if (!sat)
        return tmp;
    if (dsel[0] == 'b')
        return is_signed ? ref_clamp(tmp, 127, -128) : ref_clamp(tmp, 255, 0);
    if (dsel[0] == 'h')
        return is_signed ? ref_clamp(tmp, 32767, -32768) : ref_clamp(tmp, 65535, 0);
    return is_signed ? ref_clamp(tmp, 2147483647.0L, -2147483648.0L) : ref_clamp(tmp, 4294967295.0L, 0);
}

static long double ref_secondary(const char *op2, long double tmp, long double c)
{
    if (!strcmp(op2, "add")) return tmp + c;
    if (!strcmp(op2, "min")) return tmp < c ? tmp : c;
    if (!strcmp(op2, "max")) return tmp > c ? tmp : c;
    return tmp;
}

/* optMerge, but .h1 as the H100: the upper half of the 32-bit result stays where it is */
static uint32_t ref_merge(const char *dsel, uint32_t tmp, uint32_t c)
{
    if (!strcmp(dsel, "h0")) return (tmp & 0xffff) | (0xffff0000 & c);
    if (!strcmp(dsel, "h1")) return (tmp & 0xffff0000) | (0x0000ffff & c);
    if (!strcmp(dsel, "b0")) return (tmp & 0xff) | (0xffffff00 & c);
    if (!strcmp(dsel, "b1")) return ((tmp & 0xff) << 8) | (0xffff00ff & c);
    if (!strcmp(dsel, "b2")) return ((tmp & 0xff) << 16) | (0xff00ffff & c);
    if (!strcmp(dsel, "b3")) return ((tmp & 0xff) << 24) | (0x00ffffff & c);
    return tmp;
}

/* The low 32 bits of an integer held exactly in a long double (|v| < 2^64). */
static uint32_t low_word(long double v)
{
    return v < 0 ? (uint32_t)(0 - (uint64_t)(-v)) : (uint32_t)(uint64_t)v;
}

typedef struct Scalar {
    const char *op;            /* vadd vsub vabsdiff vmin vmax vshl vshr vset */
    char dtype, atype, btype;  /* 'u' or 's' (vset: dtype unused) */
    const char *dsel, *asel, *bsel, *op2, *mode, *cmp;
    bool sat;
} Scalar;

static uint32_t ref_scalar(const Scalar *s, uint32_t a, uint32_t b, uint32_t c)
{
    bool vset = !strcmp(s->op, "vset"), dsigned = !vset && s->dtype == 's';
    int64_t ta = ref_part(a, s->atype == 's', s->asel);
    int64_t tb = ref_part(b, s->btype == 's', s->bsel);
    long double tmp = 0;
    if (!strcmp(s->op, "vadd")) tmp = (long double)ta + tb;
    if (!strcmp(s->op, "vsub")) tmp = (long double)ta - tb;
    if (!strcmp(s->op, "vabsdiff")) tmp = ta > tb ? (long double)ta - tb : (long double)tb - ta;
    if (!strcmp(s->op, "vmin")) tmp = ta < tb ? ta : tb;
    if (!strcmp(s->op, "vmax")) tmp = ta > tb ? ta : tb;
    if (!strcmp(s->op, "vshl") || !strcmp(s->op, "vshr")) {
        uint64_t n = (uint64_t)tb;
        if (!strcmp(s->mode, "clamp") && n > 32) n = 32;
        if (!strcmp(s->mode, "wrap")) n &= 0x1f;
        long double scale = 1;
        for (uint64_t i = 0; i < n; i++)
            scale *= 2;
        tmp = !strcmp(s->op, "vshl") ? (long double)ta * scale : floorl((long double)ta / scale);
    }
    if (vset) {
        const char *k = s->cmp;
        tmp = !strcmp(k, "eq") ? ta == tb : !strcmp(k, "ne") ? ta != tb : !strcmp(k, "lt") ? ta < tb :
              !strcmp(k, "le") ? ta <= tb : !strcmp(k, "gt") ? ta > tb : ta >= tb;
    }
    /* the H100: vadd and vsub hold their value in 32 bits, read as signed (for .min/.max and a
     * .sat that is not the ISA's) */
    long double held = !strcmp(s->op, "vadd") || !strcmp(s->op, "vsub") ? (int32_t)low_word(tmp) : tmp;
    if (s->sat && !s->dsel[0] && !dsigned && strcmp(s->op, "vshl")) {
        tmp = tmp < 0 ? 0 : (int32_t)low_word(tmp);         /* u32: 0 below 0, the low word above */
    } else if (s->sat && !s->dsel[0] && (dsigned || strcmp(s->op2, "min"))) {
        tmp = ref_saturate(tmp, true, dsigned, "");          /* full width: the ISA's clamp */
    } else if (s->sat) {                                       /* the field's largest value */
        long double max = s->dsel[0] == 'b' ? (dsigned ? 127 : 255) : s->dsel[0] == 'h' ? (dsigned ? 32767 : 65535)
                                                                                      : 4294967295.0L;
        tmp = held < 0 || held > max ? max : held;
    } else if (!strcmp(s->op2, "min") || !strcmp(s->op2, "max")) {
        tmp = held;
    }
    bool csigned = dsigned || vset;
    long double cc = csigned ? (int32_t)c : (long double)c;
    if (!csigned && (!strcmp(s->op2, "min") || !strcmp(s->op2, "max"))) {
        bool less = tmp >= 0 && tmp < cc;                    /* unsigned: a negative value is huge */
        tmp = !strcmp(s->op2, "min") ? (less ? tmp : cc) : (less ? cc : tmp);
    } else {
        tmp = ref_secondary(s->op2, tmp, cc);
    }
    return ref_merge(s->dsel, low_word(tmp), c);
}

static void scalar_text(char *buf, size_t size, const Scalar *s)
{
    bool vset = !strcmp(s->op, "vset"), shift = s->mode[0] != 0;
    bool four = s->op2[0] || s->dsel[0];
    char types[32];
    if (vset)
        snprintf(types, sizeof types, ".%c32.%c32.%s", s->atype, s->btype, s->cmp);
    else
        snprintf(types, sizeof types, ".%c32.%c32.%c32%s%s%s", s->dtype, s->atype, shift ? 'u' : s->btype,
                 s->sat ? ".sat" : "", shift ? "." : "", s->mode);
    snprintf(buf, size, "%s%s%s%s d%s%s, a%s%s, b%s%s%s;", s->op, types, s->op2[0] ? "." : "", s->op2,
             s->dsel[0] ? "." : "", s->dsel, s->asel[0] ? "." : "", s->asel, s->bsel[0] ? "." : "", s->bsel,
             four ? ", c" : "");
}

static void check_scalar(const Scalar *s, uint64_t *state, bool small_b)
{
    char text[160];
    scalar_text(text, sizeof text, s);
    uint32_t a[LANES], b[LANES], c[LANES], d[LANES];
    fill(state, a);
    fill(state, b);
    fill(state, c);
    if (small_b)
        for (int l = 0; l < LANES; l++)
            b[l] = l < 20 ? (uint32_t)l * 2 + (b[l] & 1) : b[l];
    run_lanes(text, a, b, c, d);
    for (int l = 0; l < LANES; l++) {
        uint32_t want = ref_scalar(s, a[l], b[l], c[l]);
        ck_assert_msg(d[l] == want, "%s with a=0x%08x b=0x%08x c=0x%08x: 0x%08x, the reference gives 0x%08x", text, a[l],
                      b[l], c[l], d[l], want);
    }
}

/* ---- values worked out by hand ---- */

START_TEST(bmsk_and_szext_edges)
{
    /* bmsk: mask0 = ~0 << (a & 31); mask1 = ~0 << (a1 + b1) unless a sum >= 32 or (.clamp) a, b >= 32. */
    ck_assert_uint_eq(run_one("bmsk.wrap.b32 d, a, b;", 1, 2, 0), 0x00000006);
    ck_assert_uint_eq(run_one("bmsk.clamp.b32 d, a, b;", 1, 2, 0), 0x00000006);
    ck_assert_uint_eq(run_one("bmsk.clamp.b32 d, a, b;", 0, 0, 0), 0);
    ck_assert_uint_eq(run_one("bmsk.wrap.b32 d, a, b;", 0, 0, 0), 0);
    ck_assert_uint_eq(run_one("bmsk.clamp.b32 d, a, b;", 0, 32, 0), 0xffffffff);
    ck_assert_uint_eq(run_one("bmsk.wrap.b32 d, a, b;", 0, 32, 0), 0);          /* b1 = 0 */
    ck_assert_uint_eq(run_one("bmsk.clamp.b32 d, a, b;", 8, 40, 0), 0xffffff00);
    ck_assert_uint_eq(run_one("bmsk.wrap.b32 d, a, b;", 8, 40, 0), 0x0000ff00); /* b1 = 8 */
    ck_assert_uint_eq(run_one("bmsk.clamp.b32 d, a, b;", 32, 4, 0), 0);
    ck_assert_uint_eq(run_one("bmsk.wrap.b32 d, a, b;", 33, 4, 0), 0x0000001e); /* a1 = 1 */
    ck_assert_uint_eq(run_one("bmsk.wrap.b32 d, a, b;", 28, 8, 0), 0xf0000000); /* sum >= 32 */
    ck_assert_uint_eq(run_one("bmsk.clamp.b32 d, a, b;", 31, 1, 0), 0x80000000);
    /* szext: the low b bits of a, extended; 0 bits give 0. */
    ck_assert_uint_eq(run_one("szext.clamp.s32 d, a, b;", 0xf0, 8, 0), 0xfffffff0);
    ck_assert_uint_eq(run_one("szext.clamp.u32 d, a, b;", 0x1f0, 8, 0), 0x000000f0);
    ck_assert_uint_eq(run_one("szext.clamp.s32 d, a, b;", 0x70, 8, 0), 0x00000070);
    ck_assert_uint_eq(run_one("szext.wrap.s32 d, a, b;", 0xffffffff, 0, 0), 0);
    ck_assert_uint_eq(run_one("szext.clamp.s32 d, a, b;", 0x12345678, 0, 0), 0);
    ck_assert_uint_eq(run_one("szext.clamp.s32 d, a, b;", 0x87654321, 32, 0), 0x87654321);
    ck_assert_uint_eq(run_one("szext.clamp.u32 d, a, b;", 0x87654321, 99, 0), 0x87654321);
    ck_assert_uint_eq(run_one("szext.wrap.s32 d, a, b;", 0x87654321, 32, 0), 0);        /* b1 = 0 */
    ck_assert_uint_eq(run_one("szext.wrap.s32 d, a, b;", 0x000000f0, 40, 0), 0xfffffff0); /* b1 = 8 */
    ck_assert_uint_eq(run_one("szext.clamp.s32 d, a, b;", 0x00000001, 1, 0), 0xffffffff);
    ck_assert_uint_eq(run_one("szext.clamp.s32 d, a, b;", 0x40000000, 31, 0), 0xc0000000);
}
END_TEST

START_TEST(video_values_by_hand)
{
    uint32_t a = 0x80ff7f01, b = 0x01020304;
    /* bytes 01+04, 7f+03, ff+02 = 0x101 -> 0xff, 80+01 */
    ck_assert_uint_eq(run_one("vadd4.u32.u32.u32.sat d, a, b, c;", a, b, 0), 0x81ff8205);
    ck_assert_uint_eq(run_one("vadd4.u32.u32.u32 d, a, b, c;", a, b, 0), 0x81018205);
    /* signed bytes: 01+04, 127+3 = 130 -> 127, -1+2, -128+1 */
    ck_assert_uint_eq(run_one("vadd4.s32.s32.s32.sat d, a, b, c;", a, b, 0), 0x81017f05);
    ck_assert_uint_eq(run_one("vabsdiff4.u32.u32.u32 d, a, b, c;", a, b, 0), 0x7ffd7c03);
    /* .add: c + 3 + 0x7c + 0xfd + 0x7f */
    ck_assert_uint_eq(run_one("vabsdiff4.u32.u32.u32.add d, a, b, c;", a, b, 1000), 1000 + 3 + 0x7c + 0xfd + 0x7f);
    /* -128 (a.b3, signed) + 0x0304 (b.h0) */
    ck_assert_uint_eq(run_one("vadd.s32.s32.s32 d, a.b3, b.h0;", a, b, 0), 644);
    /* 0x7f + 0x04 = 0x83 into byte 1 of c */
    ck_assert_uint_eq(run_one("vadd.u32.u32.u32.sat d.b1, a.b1, b.b0, c;", a, b, b), 0x01028304);
    /* signed byte merge saturates at 127: 0x7f + 0x04 -> 0x7f */
    ck_assert_uint_eq(run_one("vadd.s32.u32.u32.sat d.b1, a.b1, b.b0, c;", a, b, b), 0x01027f04);
    /* -(1 * 4) + 5 */
    ck_assert_uint_eq(run_one("vmad.s32.s32.u32 d, -a.b0, b.b0, c;", a, b, 5), 1);
    /* 0xffff * 0xffff + 0 + 1 (.po), >> 15 */
    ck_assert_uint_eq(run_one("vmad.u32.u32.u32.po.shr15 d, a.h0, b.h0, c;", 0xffff, 0xffff, 0),
                      (uint32_t)((0xffffull * 0xffff + 1) >> 15));
    /* (u32 * u32) + u32 overflowing 32 bits, .sat -> U32_MAX; without, the low word */
    ck_assert_uint_eq(run_one("vmad.u32.u32.u32.sat d, a, b, c;", 0x10000, 0x10000, 0), 0xffffffff);
    ck_assert_uint_eq(run_one("vmad.u32.u32.u32 d, a, b, c;", 0x10000, 0x10001, 7), 0x00010007);
    /* (u32 * u32) - u32: c = ~c, + 1, signed; 3*4 - 20 = -8, .sat keeps it */
    ck_assert_uint_eq(run_one("vmad.s32.u32.u32.sat d, a, b, -c;", 3, 4, 20), 0xfffffff8);
    /* a '-' before a number is its sign, not a negation (ptxas takes -9 under .po): c = 0xfffffff7,
     * which the H100 sign-extends (tests/h100_more/cases2/vmad*): 12 - 9 = 3 (the PTX ISA, c
     * unsigned for an unsigned result: 12 + 0xfffffff7 saturates to 0xffffffff) */
    ck_assert_uint_eq(run_one("vmad.u32.u32.u32.sat d, a, b, -9;", 3, 4, 0), 3);
    /* a .u32 word of 2^31 or more: negative on the H100: -2^31 + 0x212b3e1c < 0 clamps to 0 */
    ck_assert_uint_eq(run_one("vmad.u32.u32.u32.sat d, a, b, c;", 0x80000000, 1, 0x212b3e1c), 0);
    ck_assert_uint_eq(run_one("vmad.s32.s32.u32.sat d, a, b, -9;", 3, 4, 0), 3);
    ck_assert_uint_eq(run_one("vset4.u32.u32.lt d, a, b, c;", a, b, 0xdeadbeef), 0x00000001);
    /* .h23 of {b, a}: b's halves, .h01 a's; lane 0: 0x80ff > 0x0102, lane 1: 0x7f01 > 0x0304 */
    ck_assert_uint_eq(run_one("vset2.u32.u32.gt.add d, a.h23, b.h01, c;", b, a, 10), 12);
    ck_assert_uint_eq(run_one("vset2.u32.u32.lt.add d, a.h23, b.h01, c;", b, a, 10), 10);
    /* mask .h1: lane 1 replaced, lane 0 from c */
    ck_assert_uint_eq(run_one("vsub2.u32.u32.u32 d.h1, a, b, c;", 0x00050003, 0x00020001, 0xaaaabbbb), 0x0003bbbb);
    /* vavrg: (3 + 4 + 1) >> 1 = 4, (-3 + -4) >> 1 = -4 (floor), (-1 + 2 + 1) >> 1 = 1, (0 + -1) >> 1 = -1 */
    ck_assert_uint_eq(run_one("vavrg4.s32.s32.s32 d, a, b, c;", 0x00fffd03, 0xff02fc04, 0), 0xff01fc04);
    /* vshl .clamp at 32: 1 << 40 -> 0; .wrap: 1 << 8 */
    ck_assert_uint_eq(run_one("vshl.u32.u32.u32.clamp d, a, b;", 1, 40, 0), 0);
    ck_assert_uint_eq(run_one("vshl.u32.u32.u32.wrap d, a, b;", 1, 40, 0), 0x100);
    ck_assert_uint_eq(run_one("vshl.u32.u32.u32.sat.clamp d, a, b;", 1, 40, 0), 0xffffffff);
    ck_assert_uint_eq(run_one("vshr.s32.s32.u32.clamp d, a, b;", 0x80000000, 40, 0), 0xffffffff);
    ck_assert_uint_eq(run_one("vshr.u32.s32.u32.sat.clamp d, a, b;", 0x80000000, 4, 0), 0);
}
END_TEST

START_TEST(video_definedness_follows_the_bits_read)
{
    /* a.b0 reads byte 0 only: an undefined upper part of a leaves d defined */
    Parsed *p = parse_ok(".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n"
                         ".reg .b32 a, e, d, f, g, m, n, o, z;\n.reg .b16 lo, hi, u;\n"
                         "mov.b32 a, 0x12;\n"
                         "mov.b32 {lo, hi}, a;\n"
                         "mov.b32 e, {lo, u};\n"
                         "vadd.u32.u32.u32 d, e.b0, e.b1;\n"
                         "vadd.u32.u32.u32 f, e.b0, e.b2;\n"
                         "vadd4.u32.u32.u32 g, e, e, e;\n"
                         "vadd.u32.u32.u32 m.b0, a.b0, a.b0, z;\n"    /* merges into z, never written */
                         "vadd.u32.u32.u32 m.b1, a.b0, a.b0, m;\n"
                         "vadd.u32.u32.u32 m.b2, a.b0, a.b0, m;\n"
                         "vadd.u32.u32.u32 o.b3, a.b0, a.b0, m;\n"
                         "vadd4.u32.u32.u32 n.b31, a, a, z;\n}\n");
    Block *blk = block_load(p->m, p->m->functions.data[0], &p->diag, DEFAULT_STACK_BYTES);
    ck_assert_ptr_nonnull(blk);
    ExecOptions o = { .max_steps = 1000 };
    grid_run(blk, &o, (char[256]){ 0 }, 256);
    Warp *w = blk->warps[0];
    ck_assert_uint_eq(w->defined[slot_of(blk, "d")], ALL_LANES);
    ck_assert_uint_eq((uint32_t)w->val[slot_of(blk, "d")][0], 0x12);
    ck_assert_uint_eq(w->defined[slot_of(blk, "f")], 0);
    ck_assert_uint_eq(w->defined[slot_of(blk, "g")], 0);
    /* merges keep c's bits as defined as they were: byte by byte, m becomes defined */
    ck_assert_uint_eq(w->defined[slot_of(blk, "m")], 0);
    ck_assert_uint_eq(w->bits[slot_of(blk, "m")][5], 0x00ffffff);
    ck_assert_uint_eq(w->defined[slot_of(blk, "o")], ALL_LANES);
    ck_assert_uint_eq((uint32_t)w->val[slot_of(blk, "o")][0], 0x24242424);
    ck_assert_uint_eq(w->bits[slot_of(blk, "n")][0], 0xff00ff00);
    block_free(blk);
    parsed_free(p);
}
END_TEST

START_TEST(scalar_video_sweep)
{
    static const char *const ops[] = { "vadd", "vsub", "vabsdiff", "vmin", "vmax" };
    static const char *const tails[][2] = { { "", "" }, { "add", "" }, { "min", "" }, { "max", "" },
                                            { "", "b1" }, { "", "h1" }, { "", "b3" }, { "", "h0" } };
    static const char *const sels[][2] = { { "", "" }, { "b0", "h1" }, { "h0", "b3" }, { "b2", "b1" } };
    uint64_t state = 0x9e3779b97f4a7c15ull;
    for (unsigned op = 0; op < 5; op++)
        for (unsigned t = 0; t < 8; t++)
            for (unsigned tail = 0; tail < 8; tail++)
                for (unsigned sel = 0; sel < 4; sel++)
                    for (int sat = 0; sat < 2; sat++) {
                        Scalar s = { ops[op], "us"[t & 1], "us"[t >> 1 & 1], "us"[t >> 2 & 1], tails[tail][1],
                                     sels[sel][0], sels[sel][1], tails[tail][0], "", "", sat };
                        check_scalar(&s, &state, false);
                    }
}
END_TEST

START_TEST(shift_and_compare_sweep)
{
    static const char *const tails[][2] = { { "", "" }, { "add", "" }, { "min", "" }, { "max", "" },
                                            { "", "b2" }, { "", "h1" } };
    static const char *const sels[][2] = { { "", "" }, { "b3", "b0" }, { "h1", "h0" } };
    static const char *const cmps[] = { "eq", "ne", "lt", "le", "gt", "ge" };
    uint64_t state = 0x1234567887654321ull;
    for (unsigned t = 0; t < 4; t++)
        for (unsigned tail = 0; tail < 6; tail++)
            for (unsigned sel = 0; sel < 3; sel++) {
                for (int k = 0; k < 8; k++) {
                    Scalar s = { k & 1 ? "vshr" : "vshl", "us"[t & 1], "us"[t >> 1 & 1], 'u', tails[tail][1],
                                 sels[sel][0], sels[sel][1], tails[tail][0], k & 2 ? "clamp" : "wrap", "", k >> 2 & 1 };
                    check_scalar(&s, &state, true);
                }
                for (unsigned cmp = 0; cmp < 6; cmp++) {
                    Scalar s = { "vset", 'u', "us"[t & 1], "us"[t >> 1 & 1], tails[tail][1], sels[sel][0],
                                 sels[sel][1], tails[tail][0], "", cmps[cmp], false };
                    check_scalar(&s, &state, false);
                }
            }
}
END_TEST

/* ---- vmad: the ISA's 128-bit steps on a pair of 64-bit words ---- */

typedef struct U128 {
    uint64_t hi, lo;
} U128;

static U128 u128_from(int64_t v)
{
    return (U128){ v < 0 ? ~0ull : 0, (uint64_t)v };
}

static U128 u128_add(U128 x, U128 y)
{
    U128 r = { x.hi + y.hi, x.lo + y.lo };
    r.hi += r.lo < x.lo;
    return r;
}

static U128 u128_not(U128 x)
{
    return (U128){ ~x.hi, ~x.lo };
}

/* The product of two values of at most 33 bits, signed: their magnitudes multiplied in halves. */
static U128 u128_mul(int64_t x, int64_t y)
{
    bool negative = (x < 0) != (y < 0);
    uint64_t mx = x < 0 ? 0 - (uint64_t)x : (uint64_t)x, my = y < 0 ? 0 - (uint64_t)y : (uint64_t)y;
    uint64_t xl = mx & 0xffffffff, xh = mx >> 32, yl = my & 0xffffffff, yh = my >> 32;
    U128 r = { xh * yh, xl * yl };
    U128 mid1 = { (xh * yl) >> 32, (xh * yl) << 32 }, mid2 = { (xl * yh) >> 32, (xl * yh) << 32 };
    r = u128_add(u128_add(r, mid1), mid2);
    return negative ? u128_add(u128_not(r), u128_from(1)) : r;
}

/* A 128-bit value clamped to the 32-bit signed or unsigned range. */
static uint64_t u128_clamp32(U128 v, bool is_signed)
{
    bool negative = v.hi >> 63;
    bool fits64 = v.hi == (negative ? ~0ull : 0) && (v.lo >> 63) == negative;
    if (is_signed) {
        if (!fits64)
            return negative ? (uint64_t)INT32_MIN : INT32_MAX;
        int64_t s = (int64_t)v.lo;
        return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? (uint64_t)INT32_MIN : v.lo;
    }
    if (negative)
        return 0;
    return v.hi || v.lo > UINT32_MAX ? UINT32_MAX : v.lo;
}

/* The PTX ISA's pseudo-code (h100 false) or the H100's rule (tests/h100_more/README.md, cases2:
 * a and b read whole sign-extended whatever their types, c sign-extended always, and .sat
 * without a shift on the exact 128-bit value). */
static uint32_t ref_vmad(bool h100, bool asigned, bool bsigned, const char *asel, const char *bsel,
                         int negate, bool po, bool sat, int shift, uint32_t a, uint32_t b, uint32_t c)
{
    bool an = negate & 1, bn = negate & 2, cn = negate & 4;
    int64_t ta = ref_part(a, asigned || (h100 && !asel[0]), asel), tb = ref_part(b, bsigned || (h100 && !bsel[0]), bsel);
    bool signed_final = asigned || bsigned || (an ^ bn) || cn;
    U128 tmp = u128_mul(ta, tb);
    int lsb = 0;
    if (po) { lsb = 1; }
    else if (an ^ bn) { tmp = u128_not(tmp); lsb = 1; }
    else if (cn) { c = ~c; lsb = 1; }
    U128 c128 = signed_final || h100 ? u128_from((int32_t)c) : u128_from((int64_t)c);
    tmp = u128_add(u128_add(tmp, c128), u128_from(lsb));
    if (h100 && !shift)
        return (uint32_t)(sat ? u128_clamp32(tmp, signed_final) : tmp.lo);
    uint64_t result = shift ? (tmp.lo >> shift) | (tmp.hi << (64 - shift)) : tmp.lo;
    if (sat) {
        if (signed_final)
            result = (int64_t)result > INT32_MAX ? INT32_MAX : (int64_t)result < INT32_MIN ? (uint64_t)INT32_MIN : result;
        else
            result = result > UINT32_MAX ? UINT32_MAX : result;
    }
    return (uint32_t)result;
}

START_TEST(vmad_sweep)
{
    static const char *const sels[][2] = { { "", "" }, { "h0", "h1" }, { "b1", "" }, { "", "b3" } };
    static const int negations[] = { 0, 1, 2, 3, 4, 7 };   /* bits: a, b, c */
    uint32_t departs = 0;   /* lanes where the PTX ISA's reading differs: the sweep reaches them */
    uint64_t state = 0xfeedfacecafebeefull;
    for (unsigned t = 0; t < 8; t++)
        for (unsigned sel = 0; sel < 4; sel++)
            for (unsigned n = 0; n < 6; n++)
                for (int po = 0; po < 2; po++)
                    for (int sat = 0; sat < 2; sat++)
                        for (int shift = 0; shift < 3; shift++) {
                            int negate = po ? 0 : negations[n];
                            char text[160];
                            bool ds = t & 1, as = t & 2, bs = t & 4;
                            snprintf(text, sizeof text, "vmad.%c32.%c32.%c32%s%s%s d, %sa%s%s, %sb%s%s, %sc;",
                                     ds ? 's' : 'u', as ? 's' : 'u', bs ? 's' : 'u', po ? ".po" : "",
                                     sat ? ".sat" : "", shift == 1 ? ".shr7" : shift == 2 ? ".shr15" : "",
                                     negate & 1 ? "-" : "", sels[sel][0][0] ? "." : "", sels[sel][0],
                                     negate & 2 ? "-" : "", sels[sel][1][0] ? "." : "", sels[sel][1],
                                     negate & 4 ? "-" : "");
                            uint32_t a[LANES], b[LANES], c[LANES], d[LANES];
                            fill(&state, a);
                            fill(&state, b);
                            fill(&state, c);
                            run_lanes(text, a, b, c, d);
                            for (int l = 0; l < LANES; l++) {
                                uint32_t want = ref_vmad(true, as, bs, sels[sel][0], sels[sel][1], negate, po, sat,
                                                         shift == 1 ? 7 : shift == 2 ? 15 : 0, a[l], b[l], c[l]);
                                ck_assert_msg(d[l] == want, "%s a=0x%08x b=0x%08x c=0x%08x: 0x%08x, the H100's rule gives 0x%08x",
                                              text, a[l], b[l], c[l], d[l], want);
                                departs += want != ref_vmad(false, as, bs, sels[sel][0], sels[sel][1], negate, po, sat,
                                                            shift == 1 ? 7 : shift == 2 ? 15 : 0, a[l], b[l], c[l]);
                            }
                        }
    ck_assert_uint_gt(departs, 100);
}
END_TEST

/* ---- SIMD: extractAndSignExt and the merge or accumulate, literally ---- */

/* Element i of {b, a} by a selector written as digits (".h32" -> "32"), its last digit lane 0. */
static int64_t ref_element(uint32_t a, uint32_t b, const char *digits, int i, int width, bool is_signed)
{
    int n = (int)strlen(digits), which = digits[n - 1 - i] - '0';
    uint32_t word = which * width >= 32 ? b : a;
    uint32_t v = word >> ((which * width) % 32) & (width == 8 ? 0xff : 0xffff);
    return is_signed ? sign_extend(v, width) : (int64_t)v;
}

static uint32_t ref_simd(const char *op, int lanes, char dtype, char atype, char btype, const char *mask,
                         const char *asel, const char *bsel, bool sat, bool add, const char *cmp, uint32_t a,
                         uint32_t b, uint32_t c)
{
    int width = 32 / lanes;
    int64_t t[4];
    for (int i = 0; i < lanes; i++) {
        int64_t va = ref_element(a, b, asel, i, width, atype == 's');
        int64_t vb = ref_element(a, b, bsel, i, width, btype == 's');
        if (!strncmp(op, "vadd", 4)) t[i] = va + vb;
        if (!strncmp(op, "vsub", 4)) t[i] = va - vb;
        if (!strncmp(op, "vavrg", 5)) t[i] = (va + vb) >= 0 ? (va + vb + 1) / 2 : -((-(va + vb) + 1) / 2);
        if (!strncmp(op, "vabsdiff", 8)) t[i] = va > vb ? va - vb : vb - va;
        if (!strncmp(op, "vmin", 4)) t[i] = va < vb ? va : vb;
        if (!strncmp(op, "vmax", 4)) t[i] = va > vb ? va : vb;
        if (!strncmp(op, "vset", 4))
            t[i] = !strcmp(cmp, "eq") ? va == vb : !strcmp(cmp, "ne") ? va != vb : !strcmp(cmp, "lt") ? va < vb :
                   !strcmp(cmp, "le") ? va <= vb : !strcmp(cmp, "gt") ? va > vb : va >= vb;
        if (sat) {
            int64_t hi = dtype == 's' ? (width == 8 ? 127 : 32767) : (width == 8 ? 255 : 65535);
            int64_t lo = dtype == 's' ? -hi - 1 : 0;
            t[i] = t[i] > hi ? hi : t[i] < lo ? lo : t[i];
        }
    }
    if (add) {
        uint32_t d = c;
        for (int i = 0; i < lanes; i++)
            if (strchr(mask, '0' + i))
                d += (uint32_t)t[i];
        return d;
    }
    uint32_t d = 0, field = width == 8 ? 0xff : 0xffff;
    for (int i = 0; i < lanes; i++)
        d |= (strchr(mask, '0' + i) ? (uint32_t)t[i] & field : c >> (i * width) & field) << (i * width);
    return d;
}

START_TEST(simd_video_sweep)
{
    static const char *const ops[] = { "vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset" };
    static const char *const cmps[] = { "eq", "ne", "lt", "le", "gt", "ge" };
    /* mask, a's selector, b's selector; "" = the default (written as the default's digits) */
    static const char *const forms2[][3] = { { "", "", "" }, { "h1", "h33", "h02" }, { "h0", "h12", "h21" } };
    static const char *const forms4[][3] = { { "", "", "" }, { "b31", "b7654", "b0123" },
                                             { "b320", "b4444", "b7070" } };
    uint64_t state = 0x0ddba11cafef00dull;
    for (int lanes = 2; lanes <= 4; lanes += 2)
        for (unsigned op = 0; op < 7; op++)
            for (unsigned t = 0; t < 8; t++)
                for (unsigned f = 0; f < 3; f++)
                    for (int kind = 0; kind < 3; kind++) {     /* plain, .sat, .add */
                        bool vset = op == 6;
                        if (vset && kind == 1)
                            continue;
                        const char *const *form = lanes == 2 ? forms2[f] : forms4[f];
                        const char *mask = form[0][0] ? form[0] + 1 : (lanes == 2 ? "10" : "3210");
                        const char *asel = form[1][0] ? form[1] + 1 : (lanes == 2 ? "10" : "3210");
                        const char *bsel = form[2][0] ? form[2] + 1 : (lanes == 2 ? "32" : "7654");
                        const char *cmp = cmps[(t + f) % 6];
                        char d = "us"[t & 1], at = "us"[t >> 1 & 1], bt = "us"[t >> 2 & 1], text[160], types[40];
                        if (vset)
                            snprintf(types, sizeof types, ".%c32.%c32.%s", at, bt, cmp);
                        else
                            snprintf(types, sizeof types, ".%c32.%c32.%c32", d, at, bt);
                        snprintf(text, sizeof text, "%s%d%s%s d%s%s, a%s%s, b%s%s, c;", ops[op], lanes, types,
                                 kind == 1 ? ".sat" : kind == 2 ? ".add" : "", form[0][0] ? "." : "", form[0],
                                 form[1][0] ? "." : "", form[1], form[2][0] ? "." : "", form[2]);
                        uint32_t a[LANES], b[LANES], c[LANES], out[LANES];
                        fill(&state, a);
                        fill(&state, b);
                        fill(&state, c);
                        run_lanes(text, a, b, c, out);
                        for (int l = 0; l < LANES; l++) {
                            uint32_t want = ref_simd(ops[op], lanes, vset ? 'u' : d, at, bt, mask, asel, bsel,
                                                     kind == 1, kind == 2, cmp, a[l], b[l], c[l]);
                            ck_assert_msg(out[l] == want, "%s a=0x%08x b=0x%08x c=0x%08x: 0x%08x, the ISA gives 0x%08x",
                                          text, a[l], b[l], c[l], out[l], want);
                        }
                    }
}
END_TEST

/* ---- cvt.pack.sat: the ISA's bit loop, td[i] = ta[i - size] above tb, c above both ---- */

static uint32_t ref_pack(int size, bool is_signed, int32_t a, int32_t b, uint32_t c)
{
    int64_t min = is_signed ? -(1ll << (size - 1)) : 0, max = is_signed ? (1ll << (size - 1)) - 1 : (1ll << size) - 1;
    int64_t ta = a < min ? min : a > max ? max : a, tb = b < min ? min : b > max ? max : b;
    uint32_t d = 0;
    for (int i = 0; i < size; i++)
        d |= (uint32_t)((uint64_t)tb >> i & 1) << i;
    for (int i = size; i <= 2 * size - 1; i++)
        d |= (uint32_t)((uint64_t)ta >> (i - size) & 1) << i;
    if (size < 16)
        for (int i = 2 * size; i <= 31; i++)
            d |= (c >> (i - 2 * size) & 1) << i;
    return d;
}

START_TEST(cvt_pack_saturates_and_packs)
{
    /* the ISA's example: two u8 packs make { a, b, a', b' } */
    ck_assert_uint_eq(run_one("cvt.pack.sat.u8.s32.b32 d, a, b, c;", 300, (uint32_t)-5, 0x12345678), 0x5678ff00);
    ck_assert_uint_eq(run_one("cvt.pack.sat.s8.s32.b32 d, a, b, c;", 300, (uint32_t)-5, 0x12345678), 0x56787ffb);
    ck_assert_uint_eq(run_one("cvt.pack.sat.s16.s32 d, a, b;", 300, (uint32_t)-40000, 0), 0x012c8000);
    ck_assert_uint_eq(run_one("cvt.pack.sat.u16.s32 d, a, b;", 70000, (uint32_t)-5, 0), 0xffff0000);
    ck_assert_uint_eq(run_one("cvt.pack.sat.s4.s32.b32 d, a, b, c;", (uint32_t)-9, 3, 0xabcdef12), 0xcdef1283);
    ck_assert_uint_eq(run_one("cvt.pack.sat.u2.s32.b32 d, a, b, c;", 9, 1, 0xffffffff), 0xfffffffd);
    static const struct { const char *name; int size; bool is_signed; } types[] = {
        { "u16", 16, false }, { "s16", 16, true }, { "u8", 8, false }, { "s8", 8, true },
        { "u4", 4, false }, { "s4", 4, true }, { "u2", 2, false }, { "s2", 2, true } };
    uint64_t state = 0x5eed5eed5eedull;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        char text[96];
        snprintf(text, sizeof text, "cvt.pack.sat.%s.s32%s d, a, b%s;", types[t].name, types[t].size < 16 ? ".b32" : "",
                 types[t].size < 16 ? ", c" : "");
        uint32_t a[LANES], b[LANES], c[LANES], d[LANES];
        fill(&state, a);
        fill(&state, b);
        fill(&state, c);
        for (int l = 0; l < 12; l++) {               /* around the limits of every type */
            a[l] = (uint32_t)(l - 6) * (uint32_t)(1u << (l % 17));
            b[l] = (uint32_t)(6 - l) * 37u;
        }
        run_lanes(text, a, b, c, d);
        for (int l = 0; l < LANES; l++) {
            uint32_t want = ref_pack(types[t].size, types[t].is_signed, (int32_t)a[l], (int32_t)b[l], c[l]);
            ck_assert_msg(d[l] == want, "%s a=0x%08x b=0x%08x c=0x%08x: 0x%08x, the ISA gives 0x%08x", text, a[l], b[l],
                          c[l], d[l], want);
        }
    }
}
END_TEST

/* ---- what the checker refuses, as ptxas 13.0 does ---- */

START_TEST(checker_refuses_what_ptxas_refuses)
{
    static const char *const bad[] = {
        "vadd.u32.u32.u32.add d.b2, a.b1, b.h1, c;",      /* merge and secondary op */
        "vadd.u32.u32.u32 d, a.b4, b;",                   /* no byte 4 in a word */
        "vadd.u32.u32.u32 d, a.h2, b;",
        "vadd.u32.u32.u32 d, a, b.b0, c.b0;",             /* c takes no selector */
        "vadd.u32.u32.u32.add d, a, b;",                  /* .add needs c */
        "vshl.u32.u32.s32.clamp d, a, b;",                /* b is .u32 */
        "vshl.u32.u32.u32 d, a, b;",                      /* .clamp or .wrap */
        "vmad.u32.u32.u32.po d, -a.h0, b.h0, c;",         /* no negation under .po */
        "vmad.u32.u32.u32 d.b0, a.h0, b.h0, c;",          /* vmad's d takes no selector */
        "vmad.s32.s32.u32 d, -a, b, -c;",                 /* the product or c, not both */
        "vmad.u32.u32.u32 d, -a, 5, -c;",                 /* 5 is no negation */
        "vset.s32.u32.lo d, a, b;",
        "vset.s32.u32.lt.sat d, a, b;",
        "vadd2.u32.u32.u32 d, a, b;",                     /* SIMD forms take c */
        "vadd2.u32.u32.u32.sat.add d, a, b, c;",
        "vadd2.s32.s32.u32.sat d.h0, a.h1, b.h32, c;",    /* two halves */
        "vadd2.s32.s32.u32.sat d.h01, a.h10, b.h32, c;",  /* a mask from the top down */
        "vset2.u32.u32.ne.max d, a, b, c;",
        "vmin4.s32.u32.u32.add d.b02, a.b0000, b.b2222, c;",
        "vmin4.s32.u32.u32.add d.b321, a.b707, b.b2222, c;",
        "vmax4.u32.u32.u32 d, a, b, 0;",                  /* SIMD sources are registers */
        "vadd4.u32.u32.u32 d, -a, b, c;",
        "add.u32 d, -a, b;",
        "add.u32 d, a.b0, b;",
        "bmsk.b32 d, a, b;",
        "bmsk.wrap.u32 d, a, b;",
        "szext.s32 d, a, b;",
        "szext.clamp.b32 d, a, b;",
        "cvt.pack.sat.s16.s32.b32 d, a, b, c;",           /* 16 bits: no c */
        "cvt.pack.sat.u8.s32 d, a, b;",                   /* 8 bits and less: c */
        "cvt.pack.u8.s32.b32 d, a, b, c;",                /* .sat is required */
        "cvt.pack.sat.u8.u32.b32 d, a, b, c;",
        "cvt.pack.sat.u32.s32 d, a, b;",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, ".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n"
                 ".reg .b32 a, b, c, d;\n%s\n}\n", bad[i]);
        Parsed *p = parse_text(text, true);
        ck_assert_msg(p->diag.errors > 0, "accepted: %s", bad[i]);
        parsed_free(p);
    }
}
END_TEST

START_TEST(selectors_print_back_as_written)
{
    const char *text = ".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n"
                       ".reg .b32 a, b, c, d;\n"
                       "vsub4.s32.s32.s32.sat d.b0, a.b3210, b.b7654, c;\n"
                       "vmad.s32.s32.u32.sat d, -a.h1, -b, -c;\n}\n";
    Parsed *p = parse_ok(text);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ir_print_module(out, p->m);
    fclose(out);
    ck_assert_msg(strstr(buf, "d.b0, a.b3210, b.b7654, c;") != NULL, "%s", buf);
    ck_assert_msg(strstr(buf, "d, -a.h1, -b, -c;") != NULL, "%s", buf);
    Parsed *q = parse_ok(buf);
    char why[256];
    ck_assert_msg(ir_equal(p->m, q->m, why, sizeof why), "%s", why);
    parsed_free(q);
    free(buf);
    parsed_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("video");
    TCase *tc = tcase_create("video");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, bmsk_and_szext_edges);
    tcase_add_test(tc, video_values_by_hand);
    tcase_add_test(tc, video_definedness_follows_the_bits_read);
    tcase_add_test(tc, scalar_video_sweep);
    tcase_add_test(tc, shift_and_compare_sweep);
    tcase_add_test(tc, vmad_sweep);
    tcase_add_test(tc, simd_video_sweep);
    tcase_add_test(tc, cvt_pack_saturates_and_packs);
    tcase_add_test(tc, checker_refuses_what_ptxas_refuses);
    tcase_add_test(tc, selectors_print_back_as_written);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
