/* check_matrix.c: ldmatrix, stmatrix and movmatrix (exec/matrix.c) lane by lane against the PTX
 * ISA's fragment figures for .m8n8 .b16, written here as the ISA draws them, from the matrix's
 * side: row r of matrix j is at the address of thread 8j + r (.x1: threads 0-7, .x2: 0-15,
 * .x4: 0-31); in the fragment each row is spread over four consecutive threads, two consecutive
 * elements each, so element (r, c) is in thread 4r + c/2, the low half of its register j when c is
 * even; .trans gives the fragment the element (c, r) of the stored matrix. Addresses of the
 * other threads are not used: they are set here to rows the used ones also name, or to rows no
 * one else names, and must change nothing. */
#include "testutil.h"

typedef Loaded Run;           /* testutil.h */

static const char *const MODULE_FMT =
    ".version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
    "    .reg .b32 %%r<4>;\n    .reg .b32 %%s<4>;\n    .reg .u32 %%ad;\n"
    "    .shared .align 16 .b8 tile[1024];\n    %s\n    ret;\n}\n";

static Run *load(const char *instr)
{
    char text[1024];
    snprintf(text, sizeof text, MODULE_FMT, instr);
    return loaded_new(text);
}

static void done(Run *r)
{
    loaded_free(r);
}

static uint32_t reg(Run *r, const char *name)
{
    return reg_index(r->w, name);
}

static Region *tile(Run *r)
{
    Memory *m = &r->b->mem;
    for (uint32_t i = 0; i < m->count; i++)
        if (m->regions[i].name && strcmp(m->regions[i].name, "tile") == 0)
            return &m->regions[i];
    ck_abort_msg("no tile");
    return NULL;
}

static uint32_t rng = 12345;
static uint32_t next(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

/* Each lane's tile row (64 rows of 16 bytes): the used lanes distinct rows, the others rows of
 * the used ones or any. %ad of each lane is set to it. */
static void rows(Run *r, unsigned count, unsigned row[32])
{
    unsigned order[64];
    for (unsigned i = 0; i < 64; i++)
        order[i] = i;
    for (unsigned i = 63; i > 0; i--) {
        unsigned j = next() % (i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (unsigned l = 0; l < 32; l++)
        row[l] = l < 8 * count ? order[l] : (next() & 1) ? row[next() % (8 * count)] : next() % 64;
    uint32_t ad = reg(r, "%ad");
    for (unsigned l = 0; l < 32; l++)
        r->w->val[ad][l] = tile(r)->base + 16 * row[l];
    r->w->defined[ad] = ALL_LANES;
}

static uint16_t stored(const Region *t, unsigned row, unsigned col)
{
    return (uint16_t)(t->data[16 * row + 2 * col] | t->data[16 * row + 2 * col + 1] << 8);
}

/* The b16 element (r, c) of the fragment of matrix j: in lane 4r + c/2, register j, half c % 2. */
static uint16_t fragment(Run *r, const char *prefix, unsigned j, unsigned row, unsigned col)
{
    char name[8];
    snprintf(name, sizeof name, "%%%s%u", prefix, j);
    uint32_t v = (uint32_t)r->w->val[reg(r, name)][4 * row + col / 2];
    return (uint16_t)(col % 2 ? v >> 16 : v);
}

static const char *regs_of(unsigned count, const char *p)
{
    static char buf[64];
    if (count == 1)
        snprintf(buf, sizeof buf, "{%%%s0}", p);
    else if (count == 2)
        snprintf(buf, sizeof buf, "{%%%s0, %%%s1}", p, p);
    else
        snprintf(buf, sizeof buf, "{%%%s0, %%%s1, %%%s2, %%%s3}", p, p, p, p);
    return buf;
}

START_TEST(ldmatrix_fragments_lane_by_lane)
{
    for (unsigned count = 1; count <= 4; count *= 2)
        for (int trans = 0; trans < 2; trans++) {
            char instr[160];
            snprintf(instr, sizeof instr, "ldmatrix.sync.aligned.m8n8.x%u%s.shared.b16 %s, [%%ad];", count,
                     trans ? ".trans" : "", regs_of(count, "r"));
            Run *r = load(instr);
            Region *t = tile(r);
            memset(mem_shadow(&r->b->mem, t), 0xff, t->size);
            for (unsigned i = 0; i < t->size; i++)
                t->data[i] = (uint8_t)next();
            unsigned row[32];
            rows(r, count, row);
            ck_assert_int_eq(grid_run(r->b, &(ExecOptions){ .max_steps = 1000 }, (char[256]){ 0 }, 256), 0);
            for (unsigned j = 0; j < count; j++)
                for (unsigned a = 0; a < 8; a++)
                    for (unsigned b = 0; b < 8; b++) {
                        uint16_t want = trans ? stored(t, row[8 * j + b], a) : stored(t, row[8 * j + a], b);
                        ck_assert_msg(fragment(r, "r", j, a, b) == want, "x%u%s matrix %u element (%u,%u)", count,
                                      trans ? ".trans" : "", j, a, b);
                    }
            ck_assert_uint_eq(r->w->defined[reg(r, "%r0")], ALL_LANES);
            done(r);
        }
}
END_TEST

START_TEST(stmatrix_fragments_lane_by_lane)
{
    for (unsigned count = 1; count <= 4; count *= 2)
        for (int trans = 0; trans < 2; trans++) {
            char instr[160];
            snprintf(instr, sizeof instr, "stmatrix.sync.aligned.m8n8.x%u%s.shared.b16 [%%ad], %s;", count,
                     trans ? ".trans" : "", regs_of(count, "s"));
            Run *r = load(instr);
            Region *t = tile(r);
            memset(mem_shadow(&r->b->mem, t), 0xff, t->size);
            memset(t->data, 0xee, t->size);
            for (unsigned j = 0; j < count; j++) {
                char name[8];
                snprintf(name, sizeof name, "%%s%u", j);
                uint32_t s = reg(r, name);
                for (int l = 0; l < WARP_SIZE; l++)
                    r->w->val[s][l] = next() | (uint64_t)next() << 24;
                r->w->defined[s] = ALL_LANES;
            }
            unsigned row[32];
            rows(r, count, row);
            ck_assert_int_eq(grid_run(r->b, &(ExecOptions){ .max_steps = 1000 }, (char[256]){ 0 }, 256), 0);
            bool written[64] = { false };
            for (unsigned j = 0; j < count; j++)
                for (unsigned a = 0; a < 8; a++) {
                    written[row[8 * j + a]] = true;
                    for (unsigned b = 0; b < 8; b++) {
                        uint16_t want = trans ? fragment(r, "s", j, b, a) : fragment(r, "s", j, a, b);
                        ck_assert_msg(stored(t, row[8 * j + a], b) == want, "x%u%s matrix %u element (%u,%u)",
                                      count, trans ? ".trans" : "", j, a, b);
                    }
                }
            for (unsigned i = 0; i < 64; i++)              /* rows no used lane names: untouched */
                for (unsigned k = 0; k < 16 && !written[i]; k++)
                    ck_assert_uint_eq(t->data[16 * i + k], 0xee);
            done(r);
        }
}
END_TEST

/* movmatrix: the fragment of the transpose; a source half with undefined bits gives them. */
START_TEST(movmatrix_transposes_the_fragment)
{
    Run *r = load("movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r0;");
    uint32_t a = reg(r, "%r0");
    for (int l = 0; l < WARP_SIZE; l++)
        r->w->val[a][l] = next() | (uint64_t)next() << 24;
    r->w->defined[a] = ALL_LANES & ~(1u << 6);
    r->w->bits[a][6] = 0x0000ffff;                 /* lane 6: elements (1, 4) defined, (1, 5) not */
    ck_assert_int_eq(grid_run(r->b, &(ExecOptions){ .max_steps = 1000 }, (char[256]){ 0 }, 256), 0);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned c = 0; c < 8; c++)
            ck_assert_msg(fragment(r, "r", 1, i, c) == fragment(r, "r", 0, c, i), "element (%u,%u)", i, c);
    uint32_t d = reg(r, "%r1");
    /* (1, 5) of the source is (5, 1) of the result: lane 20, high half; (1, 4) is (4, 1): lane 16, high. */
    ck_assert_uint_eq(r->w->defined[d], ALL_LANES & ~(1u << 20));
    ck_assert_uint_eq((uint32_t)r->w->bits[d][20], 0x0000ffff);
    done(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("matrix");
    TCase *tc = tcase_create("matrix");
    tcase_add_test(tc, ldmatrix_fragments_lane_by_lane);
    tcase_add_test(tc, stmatrix_fragments_lane_by_lane);
    tcase_add_test(tc, movmatrix_transposes_the_fragment);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
