/* check_exec.c: the warp executor against references written here from the spec pseudo-code
 * (../shared/spec, DECISIONS.md), not from ptxrun's code: shfl and shfl.sync in every mode over
 * many b and c, shf for every direction, mode and edge amount, divergence and synchronisation,
 * undefined values, faults, and the arithmetic whose results PTX defines exactly. */
#include <jansson.h>
#include <signal.h>
#include <math.h>

#include "testutil.h"

/* A snippet ready to run: parsed, checked, loaded (testutil.h). */
typedef Loaded Run;

static Run *load(const char *text)
{
    return loaded_new(text);
}

static int run(Run *r)
{
    ExecOptions o = { .max_steps = 1000000 };
    r->status = grid_run(r->b, &o, (char[256]){ 0 }, 256);
    return r->status;
}

static void done(Run *r)
{
    loaded_free(r);
}

static uint32_t reg(Run *r, const char *name)
{
    return reg_index(r->w, name);
}

static uint32_t pred(Run *r, const char *name)
{
    Function *f = r->w->prog->fn;
    for (uint32_t i = 0; i < f->preds.len; i++)
        if (strcmp(f->preds.data[i].name, name) == 0)
            return i;
    ck_abort_msg("no predicate %s", name);
    return 0;
}

static void set_all(Run *r, const char *name, uint64_t (*value)(int lane))
{
    uint32_t s = reg(r, name);
    for (int l = 0; l < WARP_SIZE; l++)
        r->w->val[s][l] = value(l);
    r->w->defined[s] = ALL_LANES;
}

static uint64_t distinct(int lane)
{
    return 0x1000u + (uint64_t)lane * 0x101u;
}

/* ---- shfl: the reference, from the pseudo-code of ptx-shfl-sync.md ---- */

enum { UP, DOWN, BFLY, IDX };
static const char *const mode_names[] = { "up", "down", "bfly", "idx" };

static int reference_source(int mode, int lane, uint32_t b, uint32_t c, bool *pval)
{
    int bval = (int)(b & 0x1f), cval = (int)(c & 0x1f), segmask = (int)((c >> 8) & 0x1f);
    int max_lane = (lane & segmask) | (cval & ~segmask & 0x1f);
    int min_lane = lane & segmask;
    int j;
    switch (mode) {
    case UP: j = lane - bval; *pval = j >= max_lane; break;
    case DOWN: j = lane + bval; *pval = j <= max_lane; break;
    case BFLY: j = lane ^ bval; *pval = j <= max_lane; break;
    default: j = min_lane | (bval & ~segmask & 0x1f); *pval = j <= max_lane; break;
    }
    return *pval ? j : lane;
}

static void check_shfl_case(bool sync, int mode, uint32_t b, uint32_t c)
{
    char text[256];
    snprintf(text, sizeof text, "%s.%s.b32 d|p, a, %u, %u%s;\n", sync ? "shfl.sync" : "shfl", mode_names[mode],
             b, c, sync ? ", 0xffffffff" : "");
    Run *r = load(text);
    set_all(r, "a", distinct);
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t d = reg(r, "d"), p = pred(r, "p");
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        bool pval;
        int j = reference_source(mode, lane, b, c, &pval);
        ck_assert_msg(r->w->val[d][lane] == distinct(j), "%s lane %d: got 0x%llx, want lane %d's", text, lane,
                      (unsigned long long)r->w->val[d][lane], j);
        ck_assert_msg((r->w->pred[p] >> lane & 1) == pval, "%s lane %d: p", text, lane);
        ck_assert(r->w->defined[d] >> lane & 1);
    }
    done(r);
}

START_TEST(shfl_every_mode_b_and_c)
{
    const uint32_t bs[] = { 0, 1, 5, 31, 32, 33, 0xffffffffu };
    uint32_t cs[32];
    size_t nc = 0;
    cs[nc++] = 0;
    cs[nc++] = 0x1f;
    cs[nc++] = 0x0f;
    cs[nc++] = 0x0b;                    /* an odd clamp */
    cs[nc++] = 0x1f0b;                  /* a segment mask with a clamp */
    for (int width = 2; width <= 16; width *= 2) {
        cs[nc++] = (uint32_t)((32 - width) << 8) | 0x1f;   /* CUDA width w: down, bfly, idx */
        cs[nc++] = (uint32_t)((32 - width) << 8);          /* and up */
    }
    cs[nc++] = 0xffffe01f;              /* bits outside 4:0 and 12:8 are ignored */
    for (int sync = 0; sync < 2; sync++)
        for (int mode = 0; mode < 4; mode++)
            for (size_t i = 0; i < COUNT_OF(bs); i++)
                for (size_t k = 0; k < nc; k++)
                    check_shfl_case(sync, mode, bs[i], cs[k]);
}
END_TEST

START_TEST(shfl_register_operands_and_in_place)
{
    /* b and c from registers, different in every lane; d is a: all sources are read first. */
    Run *r = load("shfl.sync.idx.b32 a|p, a, b, c, m;\n");
    set_all(r, "a", distinct);
    uint32_t b = reg(r, "b"), c = reg(r, "c"), m = reg(r, "m");
    for (int l = 0; l < WARP_SIZE; l++) {
        r->w->val[b][l] = (uint64_t)(31 - l) + 64 * (uint64_t)l;      /* high bits ignored */
        r->w->val[c][l] = l % 2 ? 0x1f : 0x181f;                      /* odd lanes: 8-lane segments */
        r->w->val[m][l] = ALL_LANES;
    }
    r->w->defined[b] = r->w->defined[c] = r->w->defined[m] = ALL_LANES;
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t a = reg(r, "a");
    for (int l = 0; l < WARP_SIZE; l++) {
        bool pval;
        int j = reference_source(IDX, l, (uint32_t)r->w->val[b][l], (uint32_t)r->w->val[c][l], &pval);
        ck_assert_uint_eq(r->w->val[a][l], distinct(j));
    }
    done(r);
}
END_TEST

/* ---- shf ---- */

static uint32_t reference_shf(bool left, bool clamp, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t n = clamp ? (c < 32 ? c : 32) : c & 0x1f;
    /* The spec: l: d = (b << n) | (a >> (32-n)); r: d = (b << (32-n)) | (a >> n), where a
     * shift by 32 or more gives 0 (the 64-bit reading of DECISIONS.md, point 10). */
    uint64_t bl = n >= 32 ? 0 : (uint64_t)b << n, ar = (32 - n) >= 32 ? 0 : (uint64_t)a >> (32 - n);
    uint64_t br = (32 - n) >= 32 ? 0 : (uint64_t)b << (32 - n), an = n >= 32 ? 0 : (uint64_t)a >> n;
    if (n == 32)
        return left ? a : b;
    return (uint32_t)(left ? (bl | ar) : (br | an));
}

START_TEST(shf_every_amount)
{
    const uint32_t ns[] = { 0, 1, 31, 32, 33, 255, 0xffffffffu };
    const char *dirs[] = { "l", "r" }, *modes[] = { "wrap", "clamp" };
    for (int dir = 0; dir < 2; dir++)
        for (int mode = 0; mode < 2; mode++)
            for (size_t i = 0; i < COUNT_OF(ns); i++) {
                char text[128];
                snprintf(text, sizeof text, "shf.%s.%s.b32 d, a, b, %u;\n", dirs[dir], modes[mode], ns[i]);
                Run *r = load(text);
                uint32_t a = reg(r, "a"), b = reg(r, "b");
                for (int l = 0; l < WARP_SIZE; l++) {
                    r->w->val[a][l] = 0x89abcdefu ^ (uint32_t)(l * 0x01010101u);
                    r->w->val[b][l] = 0x01234567u + (uint32_t)l;
                }
                r->w->defined[a] = r->w->defined[b] = ALL_LANES;
                ck_assert_int_eq(run(r), EXEC_OK);
                uint32_t d = reg(r, "d");
                for (int l = 0; l < WARP_SIZE; l++) {
                    uint32_t want = reference_shf(dir == 0, mode == 1, (uint32_t)r->w->val[a][l],
                                                  (uint32_t)r->w->val[b][l], ns[i]);
                    ck_assert_msg(r->w->val[d][l] == want, "%s lane %d: 0x%08llx, want 0x%08x", text, l,
                                  (unsigned long long)r->w->val[d][l], want);
                }
                done(r);
            }
    /* DECISIONS.md 10, by hand: n = 32 gives a (.l) and b (.r); n = 0 gives b and a. */
    ck_assert_uint_eq(reference_shf(true, true, 0xAAAAAAAA, 0xBBBBBBBB, 32), 0xAAAAAAAA);
    ck_assert_uint_eq(reference_shf(false, true, 0xAAAAAAAA, 0xBBBBBBBB, 32), 0xBBBBBBBB);
    ck_assert_uint_eq(reference_shf(true, true, 0xAAAAAAAA, 0xBBBBBBBB, 0), 0xBBBBBBBB);
    ck_assert_uint_eq(reference_shf(false, false, 0xAAAAAAAA, 0xBBBBBBBB, 32), 0xAAAAAAAA);
}
END_TEST

/* ---- divergence and synchronisation ---- */

START_TEST(if_else_arms_meet_at_different_pcs)
{
    Run *r = load("    mov.u32 lane, %laneid;\n    setp.lt.u32 p, lane, 16;\n@p  bra LOW;\n"
                  "    shfl.sync.bfly.b32 v, lane, 16, 31, 0xffffffff;\n    bra DONE;\n"
                  "LOW:\n    shfl.sync.bfly.b32 w, lane, 16, 31, 0xffffffff;\nDONE:\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t v = reg(r, "v"), w = reg(r, "w");
    for (int l = 0; l < WARP_SIZE; l++) {
        uint32_t row = l < 16 ? w : v;
        ck_assert_uint_eq(r->w->val[row][l], (uint64_t)(l ^ 16));
        ck_assert(r->w->defined[row] >> l & 1);
    }
    done(r);
}
END_TEST

START_TEST(half_warp_masks_sync_apart)
{
    /* Each half shuffles with its own mask; reading the other half is outside the mask. */
    Run *r = load("    mov.u32 lane, %laneid;\n    setp.lt.u32 p, lane, 16;\n@!p bra HIGH;\n"
                  "    shfl.sync.idx.b32 v, lane, 3, 31, 0x0000ffff;\n"
                  "    shfl.sync.idx.b32 u, lane, 20, 31, 0x0000ffff;\n    exit;\n"
                  "HIGH:\n    shfl.sync.idx.b32 v, lane, 19, 31, 0xffff0000;\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t v = reg(r, "v"), u = reg(r, "u");
    for (int l = 0; l < WARP_SIZE; l++)
        ck_assert_uint_eq(r->w->val[v][l], l < 16 ? 3u : 19u);
    ck_assert_uint_eq(r->w->defined[v], ALL_LANES);
    ck_assert_uint_eq(r->w->defined[u] & 0xffff, 0);     /* lane 20 is not in 0x0000ffff */
    done(r);
}
END_TEST

START_TEST(exited_lanes_do_not_block_and_read_undefined)
{
    Run *r = load("    mov.u32 lane, %laneid;\n    setp.ge.u32 p, lane, 24;\n@p  exit;\n"
                  "    shfl.sync.down.b32 v|q, lane, 4, 31, 0xffffffff;\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t v = reg(r, "v");
    ck_assert_uint_eq(r->w->exited, ALL_LANES);
    for (int l = 0; l < 24; l++) {
        bool reads_exited = l + 4 >= 24 && l + 4 <= 31;
        ck_assert_msg((r->w->defined[v] >> l & 1) == !reads_exited, "lane %d", l);
        if (!reads_exited)
            ck_assert_uint_eq(r->w->val[v][l], (uint64_t)(l + 4));
    }
    /* p depends on lane, b and c only: defined even where the value is not. */
    ck_assert_uint_eq(r->w->pred_defined[pred(r, "q")] & 0x00ffffff, 0x00ffffff);
    done(r);
}
END_TEST

/* ---- guarded synchronising instructions (DECISIONS.md 8, measured on an H100) ---- */

START_TEST(guard_false_lanes_meet_at_their_next_shuffle)
{
    /* Lane 5 skips the guarded shuffle; its next shuffle pairs with the others' first: they
     * read lane 5's a there (t = 105), and lane 5 reads itself. The others' second shuffle
     * then reads lane 5, which has gone: undefined (the H100 gave 0). */
    Run *r = load("    mov.u32 lane, %laneid;\n    mov.u32 v, 777;\n    setp.ne.u32 p, lane, 5;\n"
                  "@p  shfl.sync.idx.b32 v, lane, 5, 31, 0xffffffff;\n"
                  "    add.u32 t, lane, 100;\n"
                  "    shfl.sync.idx.b32 x, t, 5, 31, 0xffffffff;\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t v = reg(r, "v"), x = reg(r, "x");
    for (int l = 0; l < WARP_SIZE; l++) {
        ck_assert_msg(r->w->val[v][l] == (l == 5 ? 777u : 105u), "v of lane %d", l);
        ck_assert(r->w->defined[v] >> l & 1);
    }
    ck_assert_uint_eq(r->w->val[x][5], 105);
    ck_assert_uint_eq(r->w->defined[x], 1u << 5);
    done(r);
}
END_TEST

START_TEST(guarded_shuffles_of_different_modes_never_meet)
{
    /* @g shfl.sync.bfly then @!g shfl.sync.idx, full masks: each half waits for the other at
     * an instruction of another mode. The H100 never completes it. */
    Run *r = load("    mov.u32 lane, %laneid;\n    setp.lt.u32 g, lane, 16;\n"
                  "@g  shfl.sync.bfly.b32 v, lane, 1, 31, 0xffffffff;\n"
                  "@!g shfl.sync.idx.b32 w, lane, 0, 31, 0xffffffff;\n");
    ck_assert_int_eq(run(r), EXEC_FAULT);
    ck_assert_msg(strstr(r->p->cap.text, "deadlock: no lane can move") != NULL, "%s", r->p->cap.text);
    ck_assert(strstr(r->p->cap.text, "3:1: note: lanes 0-15 wait here (membermask 0xffffffff) for lanes 16-31\n"));
    ck_assert(strstr(r->p->cap.text, "4:1: note: lanes 16-31 wait here (membermask 0xffffffff) for lanes 0-15\n"));
    done(r);
}
END_TEST

START_TEST(guarded_ballot_counts_the_votes_of_the_next_one)
{
    /* Lanes 0-15 ballot on q1 (odd lanes) under a guard; lanes 16-31 skip to the next ballot,
     * on q2 (lanes 4k). The first ballot holds lanes 0-15's q1 and lanes 16-31's q2; lanes
     * 0-15's second is without lanes 16-31 (gone: they vote 0). */
    Run *r = load("    mov.u32 lane, %laneid;\n    mov.u32 b1, 0xdead;\n    setp.lt.u32 g, lane, 16;\n"
                  "    and.b32 odd, lane, 1;\n    setp.eq.u32 q1, odd, 1;\n"
                  "    and.b32 four, lane, 3;\n    setp.eq.u32 q2, four, 0;\n"
                  "@g  vote.sync.ballot.b32 b1, q1, 0xffffffff;\n"
                  "    vote.sync.ballot.b32 b2, q2, 0xffffffff;\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t b1 = reg(r, "b1"), b2 = reg(r, "b2");
    for (int l = 0; l < WARP_SIZE; l++) {
        ck_assert_msg(r->w->val[b1][l] == (l < 16 ? 0x1111aaaau : 0xdeadu), "b1 of lane %d", l);
        ck_assert_msg(r->w->val[b2][l] == (l < 16 ? 0x00001111u : 0x1111aaaau), "b2 of lane %d", l);
    }
    ck_assert_uint_eq(r->w->defined[b2], ALL_LANES);
    done(r);
}
END_TEST

START_TEST(guarded_match_and_elect_meet_their_next_instruction)
{
    /* match.any: lanes 0-15 match k1 = lane & 1 at the guarded one, lanes 16-31 k2 = 1 at
     * the next. elect: lanes 0-7 skip the guarded one, so its leader is lane 0 from the next. */
    Run *r = load("    mov.u32 lane, %laneid;\n    setp.lt.u32 g, lane, 16;\n    and.b32 k1, lane, 1;\n"
                  "    mov.u32 k2, 1;\n"
                  "@g  match.any.sync.b32 m1, k1, 0xffffffff;\n"
                  "    match.any.sync.b32 m2, k2, 0xffffffff;\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t m1 = reg(r, "m1"), m2 = reg(r, "m2");
    ck_assert_uint_eq(r->w->val[m1][0], 0x00005555);
    ck_assert_uint_eq(r->w->val[m1][1], 0xffffaaaa);
    ck_assert_uint_eq(r->w->val[m2][20], 0xffffaaaa);
    ck_assert_uint_eq(r->w->val[m2][3], 0x0000ffff);     /* lanes 16-31 have gone */
    done(r);
    r = load("    mov.u32 lane, %laneid;\n    setp.ge.u32 h, lane, 8;\n"
             "@h  elect.sync e1|p1, 0xffffffff;\n"
             "    elect.sync e2|p2, 0xffffffff;\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t e1 = reg(r, "e1"), e2 = reg(r, "e2");
    ck_assert_uint_eq(r->w->val[e1][12], 0);
    ck_assert_uint_eq(r->w->val[e2][3], 0);
    ck_assert_uint_eq(r->w->val[e2][12], 8);             /* lanes 0-7 have gone */
    ck_assert_uint_eq(r->w->pred[pred(r, "p1")] & 0xffffff00, 0);
    ck_assert_uint_eq(r->w->pred[pred(r, "p2")], (1u << 0) | (1u << 8));
    done(r);
}
END_TEST

START_TEST(guard_false_lanes_are_not_checked_for_their_bit)
{
    /* Even lanes add over membermask 0x55555555; odd lanes, not in it, have a false guard:
     * they do not execute the instruction, so nothing faults (redux and vote.all alike). */
    Run *r = load("    mov.u32 lane, %laneid;\n    and.b32 odd, lane, 1;\n    setp.eq.u32 even, odd, 0;\n"
                  "    mov.u32 s, 0;\n@even redux.sync.add.u32 s, lane, 0x55555555;\n"
                  "    setp.ne.u32 notfirst, lane, 0;\n    mov.pred all, 0;\n"
                  "@notfirst vote.sync.all.pred all, notfirst, 0xfffffffe;\n"
                  "    setp.lt.u32 low, lane, 16;\n@low bar.warp.sync 0x0000ffff;\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t s = reg(r, "s");
    for (int l = 0; l < WARP_SIZE; l++)
        ck_assert_msg(r->w->val[s][l] == (l % 2 ? 0u : 240u), "lane %d", l);   /* 0 + 2 + ... + 30 */
    ck_assert_uint_eq(r->w->pred[pred(r, "all")], 0xfffffffe);
    ck_assert_uint_eq(r->w->pred_defined[pred(r, "all")], ALL_LANES);
    done(r);
}
END_TEST

/* ---- reconvergence ---- */

START_TEST(lanes_wait_at_a_long_loop_exit)
{
    /* Lane l runs 20 l iterations: far more than the 256 warp-steps after which a lane left
     * behind would otherwise run ahead. Lanes that leave early wait at the exit, so the
     * activemask after the loop is the full mask (the H100 reconverges there). */
    Run *r = load("    mov.u32 lane, %laneid;\n    mul.lo.u32 n, lane, 20;\n    mov.u32 i, 0;\n"
                  "LOOP:\n    add.u32 i, i, 1;\n    setp.lt.u32 p, i, n;\n@p  bra LOOP;\n"
                  "    activemask.b32 after;\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t after = reg(r, "after");
    for (int l = 0; l < WARP_SIZE; l++)
        ck_assert_msg(r->w->val[after][l] == ALL_LANES, "lane %d: 0x%llx", l, (unsigned long long)r->w->val[after][l]);
    done(r);
}
END_TEST

START_TEST(lanes_wait_at_a_loop_exit_placed_before_the_loop)
{
    /* The loop's body comes after its exit in the code, so the lowest pc alone would run the
     * lanes that leave first; the exit post-dominates the body, so they wait there. */
    Run *r = load("    mov.u32 lane, %laneid;\n    mov.u32 i, 0;\n    bra.uni BODY;\n"
                  "DONE:\n    activemask.b32 after;\n    exit;\n"
                  "BODY:\n    add.u32 i, i, 1;\n    setp.ge.u32 q, i, lane;\n@q  bra DONE;\n    bra.uni BODY;\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t after = reg(r, "after");
    for (int l = 0; l < WARP_SIZE; l++)
        ck_assert_uint_eq(r->w->val[after][l], ALL_LANES);
    done(r);
}
END_TEST

START_TEST(lanes_wait_after_brx_idx)
{
    /* brx.idx sends even lanes to A and odd ones to B; both go to J, which comes before them in
     * the code. J post-dominates the branch over all its targets, so the lanes that reach it
     * first wait there for the others: activemask at J is the full mask, and each lane has the
     * value of its own target. */
    Run *r = load(".version 8.5\n.target sm_90\n.address_size 64\n.entry k()\n{\n"
                  "    .reg .b32 lane, i, v, after;\n"
                  "    mov.u32 lane, %laneid;\n    and.b32 i, lane, 1;\n    bra.uni GO;\n"
                  "J:\n    activemask.b32 after;\n    exit;\n"
                  "GO:\nts: .branchtargets A, B;\n    brx.idx i, ts;\n"
                  "A:\n    mov.u32 v, 10;\n    bra.uni J;\nB:\n    mov.u32 v, 20;\n    bra.uni J;\n}\n");
    const XInstr *code = r->w->prog->code;
    ck_assert(code[3].reconverge);                            /* J */
    ck_assert(cfg_postdominates(code, 3, 5));                 /* J after brx.idx, instruction 5 */
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t after = reg(r, "after"), v = reg(r, "v");
    for (int l = 0; l < WARP_SIZE; l++) {
        ck_assert_uint_eq(r->w->val[after][l], ALL_LANES);
        ck_assert_uint_eq(r->w->val[v][l], l % 2 ? 20 : 10);
    }
    done(r);
}
END_TEST

START_TEST(spin_lock_makes_progress)
{
    /* Each lane takes a lock, counts, and gives it back. A lane that has the lock leaves the
     * loop and waits at its exit for the lanes still spinning, which can only finish once it
     * gives the lock back: after a long wait it goes on anyway. */
    Run *r = load(".shared .u32 lock;\n.shared .u32 count;\n"
                  "    mov.u64 a, lock;\n    mov.u64 c, count;\n"
                  "SPIN:\n    atom.shared.cas.b32 old, [a], 0, 1;\n    setp.ne.u32 busy, old, 0;\n@busy bra SPIN;\n"
                  "    ld.shared.u32 n, [c];\n    add.u32 n, n, 1;\n    st.shared.u32 [c], n;\n"
                  "    atom.shared.exch.b32 x, [a], 0;\n    bar.warp.sync 0xffffffff;\n    ld.shared.u32 total, [c];\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    uint32_t total = reg(r, "total");
    for (int l = 0; l < WARP_SIZE; l++)
        ck_assert_uint_eq(r->w->val[total][l], 32);
    done(r);
}
END_TEST

START_TEST(trap_aborts_the_kernel)
{
    Run *r = load("    mov.u32 lane, %laneid;\n    setp.gt.u32 p, lane, 27;\n@p  trap;\n");
    ck_assert_int_eq(run(r), EXEC_FAULT);
    ck_assert_str_eq(r->p->cap.text, "3:1: error: 'trap' executed by lanes 28-31: the kernel is aborted\n");
    done(r);
    r = load("    mov.u32 lane, %laneid;\n    setp.gt.u32 p, lane, 40;\n@p  trap;\n    add.u32 b, lane, 1;\n");
    ck_assert_int_eq(run(r), EXEC_OK);                  /* no lane's guard holds */
    ck_assert_uint_eq(r->w->val[reg(r, "b")][31], 32);
    done(r);
}
END_TEST

START_TEST(deadlock_is_reported)
{
    Run *r = load("    mov.u32 lane, %laneid;\n    setp.lt.u32 p, lane, 16;\n@p  bra LOW;\n"
                  "    shfl.sync.down.b32 v, lane, 1, 31, 0xffffffff;\n    exit;\n"
                  "LOW:\n    shfl.sync.up.b32 v, lane, 1, 0, 0xffffffff;\n");
    ck_assert_int_eq(run(r), EXEC_FAULT);
    ck_assert_msg(strstr(r->p->cap.text, "7:5: error: deadlock: no lane can move\n") != NULL, "%s", r->p->cap.text);
    ck_assert(strstr(r->p->cap.text, "7:5: note: lanes 0-15 wait here (membermask 0xffffffff) for lanes 16-31\n"));
    ck_assert(strstr(r->p->cap.text, "4:5: note: lanes 16-31 wait here (membermask 0xffffffff) for lanes 0-15\n"));
    ck_assert(strstr(r->p->cap.text, "never complete together"));
    done(r);
}
END_TEST

START_TEST(own_bit_missing_from_membermask)
{
    Run *r = load("shfl.sync.idx.b32 v, a, 0, 31, 0xfffffffe;\n");
    ck_assert_int_eq(run(r), EXEC_FAULT);
    ck_assert_str_eq(r->p->cap.text, "1:1: error: lane 0 executes 'shfl.sync.idx.b32' with membermask 0xfffffffe, "
                                     "which does not include the lane itself\n");
    done(r);
}
END_TEST

START_TEST(legacy_shfl_reads_only_lanes_executing_together)
{
    Run *r = load("    mov.u32 lane, %laneid;\n    setp.lt.u32 p, lane, 8;\n@!p bra SKIP;\n"
                  "    shfl.idx.b32 v, lane, 12, 31;\n    shfl.idx.b32 u, lane, 7, 31;\nSKIP:\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(r->w->defined[reg(r, "v")], 0);       /* lane 12 did not execute it */
    ck_assert_uint_eq(r->w->defined[reg(r, "u")], 0xff);
    done(r);
}
END_TEST

START_TEST(vote_and_activemask)
{
    Run *r = load("    mov.u32 lane, %laneid;\n    setp.lt.u32 p, lane, 10;\n"
                  "    vote.sync.ballot.b32 b, p, 0xffffffff;\n    vote.sync.any.pred any, p, 0xffffffff;\n"
                  "    vote.sync.all.pred all, p, 0xffffffff;\n    vote.sync.uni.pred uni, p, 0xffffffff;\n"
                  "@p  bra END;\n    activemask.b32 m;\nEND:\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    for (int l = 0; l < WARP_SIZE; l++)
        ck_assert_uint_eq(r->w->val[reg(r, "b")][l], 0x3ff);
    ck_assert_uint_eq(r->w->pred[pred(r, "any")], ALL_LANES);
    ck_assert_uint_eq(r->w->pred[pred(r, "all")], 0);
    ck_assert_uint_eq(r->w->pred[pred(r, "uni")], 0);
    ck_assert_uint_eq(r->w->val[reg(r, "m")][31], 0xfffffc00);
    done(r);
}
END_TEST

START_TEST(undefined_values_propagate_and_warn)
{
    Run *r = load("    add.s32 y, x, 1;\n    setp.eq.s32 p, y, 3;\n@p  bra L;\nL:\n    shf.l.wrap.b32 z, y, y, y;\n");
    uint32_t x = reg(r, "x");
    r->w->val[x][0] = 2;
    r->w->defined[x] = 1;                           /* only lane 0 has an x */
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(r->w->defined[reg(r, "y")], 1);
    ck_assert_uint_eq(r->w->val[reg(r, "y")][0], 3);
    ck_assert_uint_eq(r->w->defined[reg(r, "z")], 1);
    ck_assert_int_eq(r->w->warnings.len, 2);        /* the branch condition, the shift amount */
    ck_assert_uint_eq(r->w->warnings.data[0].lanes, 0xfffffffe);
    done(r);
}
END_TEST

START_TEST(partial_warp_and_inactive_lanes)
{
    Run *r = load("mov.u32 l, %laneid;\nshfl.sync.idx.b32 v, l, 6, 31, 0xffffffff;\n");
    uint32_t ntid[3] = { 8, 1, 1 };
    block_set_shape(r->b, ntid, 0xffffffbf);        /* 8 threads, lane 6 not active */
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(r->w->defined[reg(r, "v")], 0);   /* everyone read inactive lane 6 */
    ck_assert_uint_eq(r->w->exited, 0xbf);
    done(r);
}
END_TEST

START_TEST(runaway_loop_stops)
{
    /* A counter: the state changes at every turn, so --max-steps stops it. */
    Run *r = load("mov.u32 c, 0;\nL: add.u32 c, c, 1;\nbra L;\n");
    ExecOptions o = { .max_steps = 1000 };
    ck_assert_int_eq(grid_run(r->b, &o, (char[256]){ 0 }, 256), EXEC_FAULT);
    ck_assert(strstr(r->p->cap.text, "stopped after 1000 warp-steps"));
    done(r);
}
END_TEST

START_TEST(a_loop_back_to_the_same_state_is_a_deadlock)
{
    /* A loop reading a word nobody writes comes back to the same state with nothing it reads
     * changing (spin.c): it would repeat forever, so it parks, and with nothing left to run that
     * is a deadlock, long before --max-steps; its repeated steps are not counted. A loop that
     * reads no memory (bra L alone), or reads the clock, never parks: --max-steps stops it. */
    Run *r = load(".shared .u32 s;\nL: ld.volatile.shared.u32 v, [s];\nbra L;\n");
    ExecOptions o = { .max_steps = UINT64_MAX };
    ck_assert_int_eq(grid_run(r->b, &o, (char[256]){ 0 }, 256), EXEC_FAULT);
    ck_assert(strstr(r->p->cap.text, "deadlock: no lane can move"));
    ck_assert(strstr(r->p->cap.text, "lanes 0-31 spin in a loop here that comes back to the same state"));
    ck_assert_uint_le(r->b->warps[0]->steps - r->b->warps[0]->uncounted, 40);
    done(r);
    r = load("L: bra L;\n");
    o.max_steps = 5000;
    ck_assert_int_eq(grid_run(r->b, &o, (char[256]){ 0 }, 256), EXEC_FAULT);
    ck_assert(strstr(r->p->cap.text, "stopped after 5000 warp-steps"));
    done(r);
    r = load(".shared .u32 s;\nL: ld.volatile.shared.u32 v, [s];\nmov.u32 t, %clock;\nbra L;\n");
    o.max_steps = 5000;
    ck_assert_int_eq(grid_run(r->b, &o, (char[256]){ 0 }, 256), EXEC_FAULT);
    ck_assert(strstr(r->p->cap.text, "stopped after 5000 warp-steps"));
    done(r);
}
END_TEST


START_TEST(spin_wait_makes_progress)
{
    /* Lanes 0-15 loop until lanes 16-31 reach the shuffle: lowest-pc-first alone would spin
     * forever; the starvation rule lets the other lanes on. */
    Run *r = load("    mov.u32 lane, %laneid;\n    setp.lt.u32 p, lane, 16;\n@!p bra HIGH;\n"
                  "    mov.u32 i, 0;\nLOOP:\n    add.u32 i, i, 1;\n    setp.lt.u32 q, i, 2000;\n@q  bra LOOP;\n"
                  "    exit;\nHIGH:\n    add.u32 h, lane, 1;\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(r->w->val[reg(r, "h")][20], 21);
    ck_assert_uint_eq(r->w->val[reg(r, "i")][3], 2000);
    done(r);
}
END_TEST

/* ---- arithmetic PTX defines exactly (values worked out by hand) ---- */

static uint64_t run_unary(const char *text, uint64_t a, uint64_t b, uint64_t c)
{
    Run *r = load(text);
    uint32_t ra = reg(r, "a");
    r->w->val[ra][0] = a;
    r->w->defined[ra] = ALL_LANES;
    Function *f = r->w->prog->fn;
    for (uint32_t i = 0; i < f->regs.len; i++) {
        if (!strcmp(f->regs.data[i].name, "b")) { r->w->val[i][0] = b; r->w->defined[i] = ALL_LANES; }
        if (!strcmp(f->regs.data[i].name, "c")) { r->w->val[i][0] = c; r->w->defined[i] = ALL_LANES; }
    }
    ck_assert_int_eq(run(r), EXEC_OK);
    uint64_t d = r->w->val[reg(r, "d")][0];
    done(r);
    return d;
}

START_TEST(integer_arithmetic)
{
    ck_assert_uint_eq(run_unary("add.u32 d, a, b;", 0xffffffff, 2, 0), 1);
    ck_assert_uint_eq(run_unary("add.sat.s32 d, a, b;", 0x7fffffff, 5, 0), 0x7fffffff);
    ck_assert_uint_eq(run_unary("sub.sat.s32 d, a, b;", 0x80000000, 1, 0), 0x80000000);
    ck_assert_uint_eq(run_unary("mul.lo.u32 d, a, b;", 0x10001, 0x10001, 0), 0x20001);
    ck_assert_uint_eq(run_unary("mul.hi.u32 d, a, b;", 0xffffffff, 0xffffffff, 0), 0xfffffffe);
    ck_assert_uint_eq(run_unary("mul.hi.s32 d, a, b;", 0xffffffff, 0xffffffff, 0), 0);      /* -1 * -1 */
    ck_assert_uint_eq(run_unary("mul.hi.s32 d, a, b;", 0x80000000, 2, 0), 0xffffffff);     /* -2^31 * 2 */
    ck_assert_uint_eq(run_unary("mul.wide.s32 d, a, b;", 0xfffffffe, 3, 0), (uint64_t)-6);
    ck_assert_uint_eq(run_unary("mul.wide.u32 d, a, b;", 0xffffffff, 0xffffffff, 0), 0xfffffffe00000001ull);
    ck_assert_uint_eq(run_unary("mul.hi.u64 d, a, b;", ~0ull, ~0ull, 0), 0xfffffffffffffffeull);
    ck_assert_uint_eq(run_unary("mul.hi.s64 d, a, b;", (uint64_t)-3, 5, 0), ~0ull);          /* -15 >> 64 */
    ck_assert_uint_eq(run_unary("mad.lo.s32 d, a, b, c;", 7, 6, (uint64_t)0xfffffffb), 37);
    ck_assert_uint_eq(run_unary("mad.wide.u32 d, a, b, c;", 0x80000000, 4, 1), 0x200000001ull);
    ck_assert_uint_eq(run_unary("shl.b32 d, a, b;", 1, 32, 0), 0);
    ck_assert_uint_eq(run_unary("shr.s32 d, a, b;", 0x80000000, 40, 0), 0xffffffff);
    ck_assert_uint_eq(run_unary("shr.u32 d, a, b;", 0x80000000, 31, 0), 1);
    ck_assert_uint_eq(run_unary("min.s32 d, a, b;", 0xffffffff, 1, 0), 0xffffffff);
    ck_assert_uint_eq(run_unary("min.u32 d, a, b;", 0xffffffff, 1, 0), 1);
    ck_assert_uint_eq(run_unary("abs.s32 d, a;", 0x80000000, 0, 0), 0x80000000);
    ck_assert_uint_eq(run_unary("neg.s64 d, a;", 1, 0, 0), ~0ull);
    ck_assert_uint_eq(run_unary("cnot.b32 d, a;", 0, 0, 0), 1);
    ck_assert_uint_eq(run_unary("not.b16 d, a;", 0x00ff, 0, 0), 0xff00);
}
END_TEST

START_TEST(float_arithmetic)
{
    /* 1 + 2^-24 is halfway between 1 and the next float: .rn goes to even (1), .rp up. */
    ck_assert_uint_eq(run_unary("add.rn.f32 d, a, b;", 0x3f800000, 0x33800000, 0), 0x3f800000);
    ck_assert_uint_eq(run_unary("add.rp.f32 d, a, b;", 0x3f800000, 0x33800000, 0), 0x3f800001);
    ck_assert_uint_eq(run_unary("add.rz.f32 d, a, b;", 0x3f800000, 0x33800001, 0), 0x3f800000);
    /* 1 - 2^-24(1 + 2^-23) lies just below 1 - 2^-24: .rm goes to the float below, 1 - 2^-23. */
    ck_assert_uint_eq(run_unary("sub.rm.f32 d, a, b;", 0x3f800000, 0x33800001, 0), 0x3f7ffffe);
    ck_assert_uint_eq(run_unary("mul.f32 d, a, b;", 0x40000000, 0x40400000, 0), 0x40c00000);   /* 2*3 = 6 */
    ck_assert_uint_eq(run_unary("add.f32 d, a, b;", 0x7f800000, 0xff800000, 0), 0x7fffffff);   /* inf-inf */
    ck_assert_uint_eq(run_unary("add.sat.f32 d, a, b;", 0x3f800000, 0x3f800000, 0), 0x3f800000);
    ck_assert_uint_eq(run_unary("add.sat.f32 d, a, b;", 0x7fffffff, 0, 0), 0);
    ck_assert_uint_eq(run_unary("add.ftz.f32 d, a, b;", 0x00000001, 0, 0), 0);                   /* subnormal */
    ck_assert_uint_eq(run_unary("add.f32 d, a, b;", 0x00000001, 0, 0), 1);
    /* fma rounds once: (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly (0x3a000400); a rounded
     * product would lose the 2^-24 (a tie, to even) and give 2^-11 (0x3a000000). */
    ck_assert_uint_eq(run_unary("fma.rn.f32 d, a, a, b;", 0x3f800800, 0xbf800000, 0), 0x3a000400);
    ck_assert_uint_eq(run_unary("mad.rn.f32 d, a, a, b;", 0x3f800800, 0xbf800000, 0), 0x3a000400);
    ck_assert_uint_eq(run_unary("mul.rn.f32 d, a, a;", 0x3f800800, 0, 0), 0x3f801000);
    ck_assert_uint_eq(run_unary("min.f32 d, a, b;", 0x7fffffff, 0x40000000, 0), 0x40000000);
    ck_assert_uint_eq(run_unary("max.f32 d, a, b;", 0x00000000, 0x80000000, 0), 0x00000000);
    ck_assert_uint_eq(run_unary("min.f32 d, a, b;", 0x00000000, 0x80000000, 0), 0x80000000);
    ck_assert_uint_eq(run_unary("neg.f32 d, a;", 0x3f800000, 0, 0), 0xbf800000);
    ck_assert_uint_eq(run_unary("abs.f64 d, a;", 0xbff0000000000000ull, 0, 0), 0x3ff0000000000000ull);
    ck_assert_uint_eq(run_unary("add.f64 d, a, b;", 0x3ff0000000000000ull, 0x3ff0000000000000ull, 0),
                      0x4000000000000000ull);
    ck_assert_uint_eq(run_unary("mad.rn.f64 d, a, b, c;", 0x4000000000000000ull, 0x4008000000000000ull,
                                0x3ff0000000000000ull), 0x401c000000000000ull);               /* 2*3+1 = 7 */
}
END_TEST

START_TEST(conversions)
{
    /* Float to integer: rounded as asked, clamped, NaN to 0 (values by hand). */
    ck_assert_uint_eq(run_unary("cvt.rzi.s32.f32 d, a;", 0xc0200000, 0, 0), (uint32_t)-2);        /* -2.5 */
    ck_assert_uint_eq(run_unary("cvt.rni.s32.f32 d, a;", 0x40200000, 0, 0), 2);                    /* 2.5, to even */
    ck_assert_uint_eq(run_unary("cvt.rni.s32.f32 d, a;", 0x40600000, 0, 0), 4);                    /* 3.5 */
    ck_assert_uint_eq(run_unary("cvt.rmi.s32.f32 d, a;", 0xc0200000, 0, 0), (uint32_t)-3);
    ck_assert_uint_eq(run_unary("cvt.rpi.u32.f32 d, a;", 0x3f800001, 0, 0), 2);
    ck_assert_uint_eq(run_unary("cvt.rzi.s32.f32 d, a;", 0x60ad78ec, 0, 0), 0x7fffffff);          /* 1e20 */
    ck_assert_uint_eq(run_unary("cvt.rzi.u32.f32 d, a;", 0xbf800000, 0, 0), 0);                    /* -1 */
    ck_assert_uint_eq(run_unary("cvt.rzi.s32.f32 d, a;", 0x7fc00000, 0, 0), 0);                    /* NaN */
    ck_assert_uint_eq(run_unary("cvt.rzi.s64.f64 d, a;", 0xc3e0000000000000ull, 0, 0), 0x8000000000000000ull);
    /* Integer to float: 2^24 + 1 is not a float; .rn goes to even, .rp up. */
    ck_assert_uint_eq(run_unary("cvt.rn.f32.s32 d, a;", 16777217, 0, 0), 0x4b800000);
    ck_assert_uint_eq(run_unary("cvt.rp.f32.s32 d, a;", 16777217, 0, 0), 0x4b800001);
    ck_assert_uint_eq(run_unary("cvt.rn.f32.u64 d, a;", ~0ull, 0, 0), 0x5f800000);                  /* 2^64 */
    ck_assert_uint_eq(run_unary("cvt.rz.f32.u64 d, a;", ~0ull, 0, 0), 0x5f7fffff);
    /* Integers: extend by the source's signedness, truncate, or clamp with .sat. */
    ck_assert_uint_eq(run_unary("cvt.s64.s32 d, a;", 0xfffffffe, 0, 0), (uint64_t)-2);
    ck_assert_uint_eq(run_unary("cvt.u64.u32 d, a;", 0xfffffffe, 0, 0), 0xfffffffe);
    ck_assert_uint_eq(run_unary("cvt.u8.u32 d, a;", 300, 0, 0), 44);
    ck_assert_uint_eq(run_unary("cvt.sat.u8.s32 d, a;", 0xffffffff, 0, 0), 0);
    ck_assert_uint_eq(run_unary("cvt.sat.s8.s32 d, a;", 1000, 0, 0), 127);
    ck_assert_uint_eq(run_unary("cvt.sat.u32.s64 d, a;", 1ull << 40, 0, 0), 0xffffffff);
    /* Floats: exact widening, rounded narrowing, integral rounding in place. */
    ck_assert_uint_eq(run_unary("cvt.f64.f32 d, a;", 0x3f800000, 0, 0), 0x3ff0000000000000ull);
    ck_assert_uint_eq(run_unary("cvt.rn.f32.f64 d, a;", 0x3ff0000010000000ull, 0, 0), 0x3f800000);   /* 1 + 2^-24 */
    ck_assert_uint_eq(run_unary("cvt.rp.f32.f64 d, a;", 0x3ff0000010000000ull, 0, 0), 0x3f800001);
    ck_assert_uint_eq(run_unary("cvt.rni.f32.f32 d, a;", 0x40200000, 0, 0), 0x40000000);            /* 2.5 -> 2 */
    /* Half precision (IEEE binary16: 0x3c00 = 1; 0.1f rounds to 0x2e66; 65520 to infinity,
     * or to the largest finite 0x7bff toward zero) and bfloat16 (the top 16 bits, rounded). */
    ck_assert_uint_eq(run_unary(".reg .b16 d;\ncvt.rn.f16.f32 d, a;", 0x3f800000, 0, 0), 0x3c00);
    ck_assert_uint_eq(run_unary(".reg .b16 d;\ncvt.rn.f16.f32 d, a;", 0x3dcccccd, 0, 0), 0x2e66);
    ck_assert_uint_eq(run_unary(".reg .b16 d;\ncvt.rn.f16.f32 d, a;", 0x477ff000, 0, 0), 0x7c00);
    ck_assert_uint_eq(run_unary(".reg .b16 d;\ncvt.rz.f16.f32 d, a;", 0x477ff000, 0, 0), 0x7bff);
    ck_assert_uint_eq(run_unary(".reg .b16 d;\ncvt.rn.bf16.f32 d, a;", 0x3dcccccd, 0, 0), 0x3dcd);
    ck_assert_uint_eq(run_unary(".reg .b16 a;\ncvt.f32.f16 d, a;", 0x0001, 0, 0), 0x33800000);    /* 2^-24 */
    ck_assert_uint_eq(run_unary(".reg .b16 a;\ncvt.f32.bf16 d, a;", 0xbf80, 0, 0), 0xbf800000);
}
END_TEST

START_TEST(bit_instructions_and_division)
{
    /* Values by hand from the PTX ISA pseudo-code. */
    ck_assert_uint_eq(run_unary("popc.b32 d, a;", 0xf0f0f0f1, 0, 0), 17);
    ck_assert_uint_eq(run_unary("popc.b64 d, a;", ~0ull, 0, 0), 64);
    ck_assert_uint_eq(run_unary("clz.b32 d, a;", 0x00010000, 0, 0), 15);
    ck_assert_uint_eq(run_unary("clz.b32 d, a;", 0, 0, 0), 32);
    ck_assert_uint_eq(run_unary("bfind.u32 d, a;", 0x00010000, 0, 0), 16);
    ck_assert_uint_eq(run_unary("bfind.u32 d, a;", 0, 0, 0), 0xffffffff);
    ck_assert_uint_eq(run_unary("bfind.s32 d, a;", 0xfffffff0, 0, 0), 3);        /* first bit unlike the sign */
    ck_assert_uint_eq(run_unary("bfind.shiftamt.u32 d, a;", 0x00010000, 0, 0), 15);
    ck_assert_uint_eq(run_unary("brev.b32 d, a;", 0x00000001, 0, 0), 0x80000000);
    ck_assert_uint_eq(run_unary("brev.b32 d, a;", 0x12345678, 0, 0), 0x1e6a2c48);
    ck_assert_uint_eq(run_unary("bfe.u32 d, a, 8, 8;", 0x12345678, 0, 0), 0x56);
    ck_assert_uint_eq(run_unary("bfe.s32 d, a, 4, 4;", 0x000000f0, 0, 0), 0xffffffff);  /* field 0xf, signed */
    ck_assert_uint_eq(run_unary("bfe.s32 d, a, 28, 8;", 0x80000000, 0, 0), 0xfffffff8);
    ck_assert_uint_eq(run_unary("bfe.u32 d, a, 0, 0;", 0xffffffff, 0, 0), 0);
    ck_assert_uint_eq(run_unary("bfi.b32 d, a, b, 8, 8;", 0xab, 0x11111111, 0), 0x1111ab11);
    ck_assert_uint_eq(run_unary("bfi.b32 d, a, b, 28, 8;", 0xff, 0, 0), 0xf0000000);
    ck_assert_uint_eq(run_unary("prmt.b32 d, a, b, 0x3210;", 0x44332211, 0x88776655, 0), 0x44332211);
    ck_assert_uint_eq(run_unary("prmt.b32 d, a, b, 0x4567;", 0x44332211, 0x88776655, 0), 0x55667788);
    /* 0x0019: byte 0 = sign of byte 1 (0x80), byte 1 = byte 1, bytes 2-3 = byte 0 (0xff). */
    ck_assert_uint_eq(run_unary("prmt.b32 d, a, b, 0x0019;", 0x000080ff, 0, 0), 0xffff80ff);
    /* The modes: bytes of b:a = 88 77 66 55 44 33 22 11, selector 1. */
    ck_assert_uint_eq(run_unary("prmt.b32.f4e d, a, b, 1;", 0x44332211, 0x88776655, 0), 0x55443322);
    ck_assert_uint_eq(run_unary("prmt.b32.b4e d, a, b, 1;", 0x44332211, 0x88776655, 0), 0x77881122);
    ck_assert_uint_eq(run_unary("prmt.b32.rc8 d, a, b, 1;", 0x44332211, 0x88776655, 0), 0x22222222);
    ck_assert_uint_eq(run_unary("prmt.b32.ecl d, a, b, 1;", 0x44332211, 0x88776655, 0), 0x44332222);
    ck_assert_uint_eq(run_unary("prmt.b32.ecr d, a, b, 1;", 0x44332211, 0x88776655, 0), 0x22222211);
    ck_assert_uint_eq(run_unary("prmt.b32.rc16 d, a, b, 1;", 0x44332211, 0x88776655, 0), 0x44334433);
    ck_assert_uint_eq(run_unary("lop3.b32 d, a, b, c, 0x96;", 0xff00ff00, 0xf0f0f0f0, 0xcccccccc), 0xff00ff00 ^ 0xf0f0f0f0 ^ 0xcccccccc);
    ck_assert_uint_eq(run_unary("lop3.b32 d, a, b, c, 0x80;", 0xff00ff00, 0xf0f0f0f0, 0xcccccccc), 0xc000c000);
    ck_assert_uint_eq(run_unary("div.s32 d, a, b;", (uint32_t)-7, 2, 0), (uint32_t)-3);      /* truncates */
    ck_assert_uint_eq(run_unary("rem.s32 d, a, b;", (uint32_t)-7, 2, 0), (uint32_t)-1);
    ck_assert_uint_eq(run_unary("div.u64 d, a, b;", ~0ull, 3, 0), 0x5555555555555555ull);
    ck_assert_uint_eq(run_unary("div.rn.f32 d, a, b;", 0x3f800000, 0x40400000, 0), 0x3eaaaaab);   /* 1/3 */
    ck_assert_uint_eq(run_unary("div.rz.f32 d, a, b;", 0x3f800000, 0x40400000, 0), 0x3eaaaaaa);
    ck_assert_uint_eq(run_unary("sqrt.rn.f32 d, a;", 0x40800000, 0, 0), 0x40000000);               /* sqrt 4 */
    ck_assert_uint_eq(run_unary("rcp.rn.f64 d, a;", 0x4000000000000000ull, 0, 0), 0x3fe0000000000000ull);
    ck_assert_uint_eq(run_unary("copysign.f32 d, a, b;", 0x80000000, 0x3f800000, 0), 0xbf800000);
    ck_assert_uint_eq(run_unary("ex2.approx.f32 d, a;", 0x40400000, 0, 0), 0x41000000);             /* 2^3 */
}
END_TEST

/* bfe.s32/bfi.b32 with immediate position and length run the code ptxas 13.0 makes for them
 * (scripts/bitfield_imm.py, docs/semantics.md): bfe.s32 at a position of 32 or more with a length
 * of 1 or more gives all ones; bfi.b32 at a position below 32 that is not a multiple of 8 reads a
 * length of 32 or more modulo 32. Elsewhere, and when the data are immediates too (ptxas folds the
 * whole result), the ISA. Values by hand from those rules. */
START_TEST(bitfield_immediates_as_ptxas_makes_them)
{
    /* At a byte position ptxas moves bytes (prmt), by the ISA: the H100 gave 0x54125412 (issue 32). */
    ck_assert_uint_eq(run_unary("bfi.b32 d, a, a, 16, 32;", 0x5412, 0, 0), 0x54125412);
    ck_assert_uint_eq(run_unary("bfi.b32 d, a, b, 8, 33;", 0x00abcdef, 0x11111111, 0), 0xabcdef11);
    ck_assert_uint_eq(run_unary("bfi.b32 d, a, b, 0, 40;", 0x12345678, 0x11111111, 0), 0x12345678);
    /* Elsewhere the length modulo 32: 31, 32 inserts nothing, 7, 33 one bit, 4, 40 eight bits. */
    ck_assert_uint_eq(run_unary("bfi.b32 d, a, b, 31, 32;", 1, 0, 0), 0);
    ck_assert_uint_eq(run_unary("bfi.b32 d, a, b, 7, 33;", 0xffffffff, 0, 0), 0x80);
    ck_assert_uint_eq(run_unary("bfi.b32 d, a, b, 4, 40;", 0xffffffff, 0, 0), 0xff0);
    ck_assert_uint_eq(run_unary("bfi.b32 d, a, b, 4, 31;", 0xffffffff, 0, 0), 0xfffffff0);  /* below 32: ISA */
    /* All data immediate: ptxas folds the whole result, by the ISA. */
    ck_assert_uint_eq(run_unary("mov.b32 e, a;\nbfi.b32 d, 1, 0x12345678, 31, 32;", 0, 0, 0), 0x92345678);
    /* bfe.s32 at 32 or more: all ones for any a, but 0 for a length of 0 (the ISA's value). */
    ck_assert_uint_eq(run_unary("bfe.s32 d, a, 40, 8;", 0x12345678, 0, 0), 0xffffffff);
    ck_assert_uint_eq(run_unary("bfe.s32 d, a, 33, 0;", 0x12345678, 0, 0), 0);
    ck_assert_uint_eq(run_unary("mov.b32 e, a;\nbfe.s32 d, 0x12345678, 33, 31;", 0, 0, 0), 0);
    ck_assert_uint_eq(run_unary("bfe.u32 d, a, 33, 31;", 0xffffffff, 0, 0), 0);

    /* The warning names both readings, on the lanes where they differ. */
    Run *r = load("bfi.b32 d, a, b, 31, 32;\nbfe.s32 e, a, 32, 1;\n");
    uint32_t a = reg(r, "a"), b = reg(r, "b");
    for (int l = 0; l < WARP_SIZE; l++) {
        r->w->val[a][l] = l == 3 ? 1 : 0;                /* lane 3: the ISA inserts a 1 at bit 31 */
        r->w->val[b][l] = 0;
    }
    r->w->val[a][5] = 0x80000000;                        /* lane 5: sign copies are ones by the ISA too */
    r->w->defined[a] = r->w->defined[b] = ALL_LANES;
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(r->w->warnings.len, 2);
    ck_assert_uint_eq(r->w->warnings.data[0].lanes, 1u << 3);
    ck_assert_uint_eq(r->w->warnings.data[1].lanes, ALL_LANES & ~(1u << 5));
    ck_assert_uint_eq(r->w->val[reg(r, "e")][0], 0xffffffffu);
    done(r);
}
END_TEST

START_TEST(division_by_zero_gives_the_h100_value_and_warns)
{
    /* Unspecified in PTX; the H100 gives all ones, and MIN / -1 = MIN (../shared/hw/undef). */
    Run *r = load("div.u32 d, a, b;\nrem.u32 e, a, b;\ndiv.s32 f, a, c;\nrem.s32 g, a, c;\n");
    uint32_t a = reg(r, "a"), b = reg(r, "b"), c = reg(r, "c");
    for (int l = 0; l < WARP_SIZE; l++) {
        r->w->val[a][l] = l == 1 ? 0x80000000u : 10;
        r->w->val[b][l] = l == 0 ? 0 : 3;
        r->w->val[c][l] = l == 1 ? 0xffffffffu : 2;
    }
    r->w->defined[a] = r->w->defined[b] = r->w->defined[c] = ALL_LANES;
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(r->w->defined[reg(r, "d")], ALL_LANES);
    ck_assert_uint_eq(r->w->val[reg(r, "d")][0], 0xffffffffu);
    ck_assert_uint_eq(r->w->val[reg(r, "e")][0], 0xffffffffu);
    ck_assert_uint_eq(r->w->val[reg(r, "f")][1], 0x80000000u);    /* INT_MIN / -1 */
    ck_assert_uint_eq(r->w->val[reg(r, "g")][1], 0);
    ck_assert_uint_eq(r->w->val[reg(r, "d")][5], 3);
    ck_assert_uint_eq(r->w->warnings.len, 4);                     /* one per instruction */
    ck_assert_uint_eq(r->w->warnings.data[0].lanes, 1u);
    done(r);
}
END_TEST

/* A global buffer of n u32, its address in register "p" of every lane. */
static Region *buffer(Run *r, const char *name, uint64_t n)
{
    uint32_t index = mem_add(&r->b->mem, name, SPACE_GLOBAL, n * 4, 256, TYPE_U32, false, true);
    Region *b = &r->w->block->mem.regions[index];
    b->is_buffer = true;
    uint32_t p = reg(r, "p");
    for (int l = 0; l < WARP_SIZE; l++)
        r->w->val[p][l] = b->base;
    r->w->defined[p] = ALL_LANES;
    return b;
}

static uint32_t word(const Region *b, unsigned i)
{
    return (uint32_t)b->data[4 * i] | (uint32_t)b->data[4 * i + 1] << 8 | (uint32_t)b->data[4 * i + 2] << 16 |
           (uint32_t)b->data[4 * i + 3] << 24;
}

START_TEST(loads_stores_and_atomics)
{
    Run *r = load(".reg .b64 p;\n.reg .b64 q;\nmov.u32 l, %laneid;\nmul.wide.u32 o, l, 4;\nadd.s64 q, p, o;\n"
                  "st.global.u32 [q], l;\nld.global.u32 v, [q+4];\natom.global.add.u32 old, [p+128], 1;\n"
                  "red.global.max.s32 [p+132], l;\nst.global.v2.u32 [p+136], {l, l};\n");
    Region *b = buffer(r, "out", 64);
    ck_assert_int_eq(run(r), EXEC_OK);
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(word(b, i), i);
    uint32_t v = reg(r, "v");
    ck_assert_uint_eq(r->w->val[v][3], 4);             /* stores happen before the next load */
    ck_assert_uint_eq(r->w->val[v][31], 0);            /* word 32 is read before the atomics run */
    ck_assert_uint_eq(word(b, 32), 32);
    uint32_t old = reg(r, "old");
    for (int l = 0; l < WARP_SIZE; l++)
        ck_assert_uint_eq(r->w->val[old][l], (uint64_t)l);   /* lane by lane, lowest first */
    ck_assert_uint_eq(word(b, 33), 31);
    ck_assert_uint_eq(word(b, 34), 31);                /* the last lane's v2 store wins */
    done(r);
}
END_TEST

START_TEST(out_of_bounds_and_misaligned_accesses_fault)
{
    Run *r = load(".reg .b64 p;\nmov.u32 l, %laneid;\nsetp.eq.u32 last, l, 31;\n@last st.global.u32 [p+128], l;\n");
    buffer(r, "out", 32);
    ck_assert_int_eq(run(r), EXEC_FAULT);
    char expected[256];
    snprintf(expected, sizeof expected, "4:1: error: lane 31 (pc 2): 'st.global.u32' writes 4 bytes at 0x%llx (.global), "
             "outside every region; the nearest is 'out' at 0x%llx..0x%llx\n",
             (unsigned long long)(MEM_GLOBAL_BASE + 128), (unsigned long long)MEM_GLOBAL_BASE,
             (unsigned long long)(MEM_GLOBAL_BASE + 128));
    ck_assert_str_eq(r->p->cap.text, expected);
    done(r);

    r = load(".reg .b64 p;\nld.global.u32 v, [p+2];\n");
    buffer(r, "in", 32);
    ck_assert_int_eq(run(r), EXEC_FAULT);
    ck_assert(strstr(r->p->cap.text, "is not 4-byte aligned"));
    done(r);
}
END_TEST

START_TEST(a_warp_access_may_span_regions_and_fault_part_way)
{
    /* Lanes 0-15 store to 'a', lanes 16-31 to 'b' (512 bytes on: 128 bytes, 256 apart, aligned
     * to 256): one instruction whose lanes reach two regions still writes and reads both. */
    Run *r = load(".reg .b64 p;\n.reg .b64 q;\nmov.u32 l, %laneid;\nmul.wide.u32 o, l, 4;\nadd.s64 q, p, o;\n"
                  "setp.ge.u32 high, l, 16;\n@high add.s64 q, q, 512;\nst.global.u32 [q], l;\nld.global.u32 v, [q];\n");
    Region *a = buffer(r, "a", 32);
    uint32_t index = mem_add(&r->b->mem, "b", SPACE_GLOBAL, 32 * 4, 256, TYPE_U32, false, true);
    Region *b = &r->b->mem.regions[index];
    a = &r->b->mem.regions[index - 1];
    ck_assert_uint_eq(b->base, a->base + 512);
    ck_assert_msg(run(r) == EXEC_OK, "%s", r->p->cap.text);
    for (unsigned i = 0; i < 16; i++)
        ck_assert_uint_eq(word(a, i), i);
    for (unsigned i = 16; i < 32; i++)
        ck_assert_uint_eq(word(b, i), i);
    ck_assert_uint_eq(r->w->defined[reg(r, "v")], ALL_LANES);
    ck_assert_uint_eq(r->w->val[reg(r, "v")][20], 20);
    done(r);

    /* 31 words: lanes 0-30 store before lane 31's store runs off the end and faults. */
    r = load(".reg .b64 p;\n.reg .b64 q;\nmov.u32 l, %laneid;\nmul.wide.u32 o, l, 4;\nadd.s64 q, p, o;\n"
             "st.global.u32 [q], l;\n");
    Region *out = buffer(r, "out", 31);
    ck_assert_int_eq(run(r), EXEC_FAULT);
    char expected[256];
    snprintf(expected, sizeof expected, "6:1: error: lane 31 (pc 3): 'st.global.u32' writes 4 bytes at 0x%llx (.global), "
             "outside every region; the nearest is 'out' at 0x%llx..0x%llx\n",
             (unsigned long long)(MEM_GLOBAL_BASE + 124), (unsigned long long)MEM_GLOBAL_BASE,
             (unsigned long long)(MEM_GLOBAL_BASE + 124));
    ck_assert_str_eq(r->p->cap.text, expected);
    for (unsigned i = 0; i < 31; i++)
        ck_assert_uint_eq(word(out, i), i);
    done(r);
}
END_TEST

START_TEST(a_warp_access_keeps_each_byte_defined_or_not)
{
    /* Each lane stores l | 0x80 as a word (defined), then an undefined byte at +2 in lanes 16-31
     * (u is written only in lanes 0-15). A word load is defined where all four bytes are; a
     * 16-bit load of bytes 0-1 everywhere; ld.s8 of byte 0 sign-extends 0x80 | l. A store of a
     * register defined in even lanes only leaves the odd lanes' words undefined. */
    Run *r = load(".reg .b64 p;\n.reg .b64 q;\nmov.u32 l, %laneid;\nmul.wide.u32 o, l, 8;\nadd.s64 q, p, o;\n"
                  "or.b32 x, l, 0x80;\nst.global.u32 [q], x;\nsetp.lt.u32 low, l, 16;\n@low mov.u32 u, 7;\n"
                  "st.global.u8 [q+2], u;\nld.global.u32 w, [q];\nld.global.u16 h, [q];\nld.global.s8 s, [q];\n"
                  "and.b32 e, l, 1;\nsetp.eq.u32 even, e, 0;\n@even mov.u32 y, l;\nst.global.u32 [q+4], y;\n"
                  "ld.global.v2.u32 {z0, z1}, [q];\n");
    buffer(r, "buf", 64);
    ck_assert_msg(run(r) == EXEC_OK, "%s", r->p->cap.text);
    ck_assert_uint_eq(r->w->defined[reg(r, "w")], 0x0000ffffu);
    ck_assert_uint_eq(r->w->val[reg(r, "w")][3], 0x00070083u);
    ck_assert_uint_eq(r->w->val[reg(r, "w")][20], 0x00000094u);    /* an undefined register's bits: 0 */
    ck_assert_uint_eq(r->w->defined[reg(r, "h")], ALL_LANES);
    ck_assert_uint_eq(r->w->val[reg(r, "h")][5], 0x0085u);
    ck_assert_uint_eq(r->w->defined[reg(r, "s")], ALL_LANES);
    ck_assert_uint_eq(r->w->val[reg(r, "s")][5], 0xffffff85u);
    ck_assert_uint_eq(r->w->defined[reg(r, "z0")], 0x0000ffffu);
    ck_assert_uint_eq(r->w->defined[reg(r, "z1")], 0x55555555u);
    ck_assert_uint_eq(r->w->val[reg(r, "z1")][6], 6);
    done(r);
}
END_TEST

START_TEST(vector_accesses_are_aligned_to_the_whole_vector)
{
    /* PTX ISA, Addresses as Operands: a vector access is aligned to the vector's whole size. */
    static const struct { const char *text; const char *message; } cases[] = {
        { "ld.global.v2.u16 {a, b}, [p+2];\n", "'ld.global.v2.u16' reads 4 bytes at 0x%llx, which is not 4-byte aligned" },
        { "ld.global.v4.u32 {a, b, c, d}, [p+8];\n",
          "'ld.global.v4.u32' reads 16 bytes at 0x%llx, which is not 16-byte aligned" },
        { "st.global.v2.u64 [p+8], {x, x};\n", "'st.global.v2.u64' writes 16 bytes at 0x%llx, which is not 16-byte aligned" },
    };
    for (size_t i = 0; i < COUNT_OF(cases); i++) {
        char text[256], message[256];
        snprintf(text, sizeof text, ".reg .b64 p;\n.reg .b64 x;\nmov.b64 x, 0;\n%s", cases[i].text);
        Run *r = load(text);
        Region *b = buffer(r, "buf", 16);
        ck_assert_int_eq(run(r), EXEC_FAULT);
        uint64_t offset = strstr(cases[i].text, "p+2") ? 2 : 8;
        snprintf(message, sizeof message, cases[i].message, (unsigned long long)(b->base + offset));
        ck_assert_msg(strstr(r->p->cap.text, message), "%s: %s", cases[i].text, r->p->cap.text);
        done(r);
    }
    Run *r = load(".shared .align 16 .b8 s[32];\n.reg .b64 x;\nmov.b64 x, 0;\nst.shared.v2.u64 [s+8], {x, x};\n");
    ck_assert_int_eq(run(r), EXEC_FAULT);
    ck_assert_msg(strstr(r->p->cap.text, "writes 16 bytes at 0x") && strstr(r->p->cap.text, "not 16-byte aligned"),
                  "%s", r->p->cap.text);
    done(r);
    /* Aligned to the whole vector: no fault. */
    r = load(".reg .b64 p;\nld.global.v2.u16 {a, b}, [p+4];\nld.global.v4.u32 {c, d, e, f}, [p+16];\n");
    buffer(r, "buf", 16);
    ck_assert_int_eq(run(r), EXEC_OK);
    done(r);
}
END_TEST

/* Lane 0 stores old at A, runs one atomic (OP d, [A], b), and loads the result back: the value
 * memory holds after it. space: "global" (A = p, a buffer), "shared" (A = s) or "" for generic
 * (A = p, or g = cvta.shared s when generic_shared). */
static uint64_t atomic_once(const char *op, const char *space, bool generic_shared, unsigned bits, uint64_t old,
                            uint64_t b)
{
    bool is_red = strncmp(op, "red", 3) == 0;
    const char *a = !strcmp(space, "shared") ? "s" : generic_shared ? "g" : "p";
    char text[1024], dot[16];
    snprintf(dot, sizeof dot, "%s%s", *space ? "." : "", space);
    snprintf(text, sizeof text,
             ".reg .b64 p;\n.reg .b64 g;\n.reg .b%u m;\n.reg .b%u b;\n.reg .b%u d;\n.reg .b%u n;\n"
             ".shared .align 8 .b8 s[8];\nmov.u32 l, %%laneid;\nsetp.eq.u32 one, l, 0;\ncvta.shared.u64 g, s;\n"
             "@one st%s.b%u [%s], m;\n@one %s %s%s[%s], b;\n@one ld%s.b%u n, [%s];\n",
             bits, bits, bits, bits, dot, bits, a, op, is_red ? "" : "d", is_red ? "" : ", ", a, dot, bits, a);
    Run *r = load(text);
    buffer(r, "buf", 2);
    uint32_t m = reg(r, "m"), rb = reg(r, "b");
    r->w->val[m][0] = old;
    r->w->val[rb][0] = b;
    r->w->defined[m] = r->w->defined[rb] = ALL_LANES;
    ck_assert_msg(run(r) == EXEC_OK, "%s", r->p->cap.text);
    if (!is_red)
        ck_assert_uint_eq(r->w->val[reg(r, "d")][0], old);
    uint64_t result = r->w->val[reg(r, "n")][0];
    done(r);
    return result;
}

START_TEST(half_atomic_adds_round_each_half)
{
    /* add.noftz: each binary16 / bfloat16 half added on its own, rounded to nearest even,
     * subnormals kept (PTX ISA atom, red). Expected bits worked out by hand from the formats. */
    static const struct { const char *type; unsigned bits; uint64_t old, b, sum; } cases[] = {
        { "f16x2", 32, 0x3c003c00, 0x3c003c00, 0x40004000 },    /* 1 + 1 = 2 in each half */
        { "f16x2", 32, 0x3c000001, 0xbc000001, 0x00000002 },    /* 1 - 1 = +0; subnormals 2^-24 + 2^-24 */
        { "f16x2", 32, 0x68006801, 0x3c003c00, 0x68006802 },    /* 2048 + 1 ties to 2048, 2050 + 1 to 2052 */
        { "f16x2", 32, 0x7bff7c00, 0x7bfffc00, 0x7c007fff },    /* 65504 + 65504 = inf; inf - inf = NaN */
        { "f16x2", 32, 0x03ff0000, 0x00018000, 0x04000000 },    /* largest subnormal + 2^-24 = 2^-14; +0 + -0 = +0 */
        { "bf16x2", 32, 0x3f803f81, 0x3b803b80, 0x3f803f82 },   /* 1 + 2^-8 ties to 1; (1 + 2^-7) + 2^-8 to 1 + 2^-6 */
        { "bf16x2", 32, 0x00013f80, 0x00013f80, 0x00024000 },   /* bf16 subnormals kept; 1 + 1 = 2 */
        { "f16", 16, 0x3c00, 0x3800, 0x3e00 },                  /* 1 + 0.5 = 1.5 */
        { "f16", 16, 0x0001, 0x8002, 0x8001 },                  /* 2^-24 - 2^-23 = -2^-24 */
        { "bf16", 16, 0x3f80, 0xbf80, 0x0000 },                 /* 1 - 1 = +0 */
        { "bf16", 16, 0x7f7f, 0x7f7f, 0x7f80 },                 /* the largest + itself = inf */
    };
    static const char *const kinds[] = { "atom", "red" }, *const spaces[] = { "global", "shared", "" };
    for (size_t i = 0; i < COUNT_OF(cases); i++) {
        for (size_t j = 0; j < COUNT_OF(kinds); j++) {
            for (size_t k = 0; k < COUNT_OF(spaces); k++) {
                char op[64];
                snprintf(op, sizeof op, "%s%s%s.add.noftz.%s", kinds[j], *spaces[k] ? "." : "", spaces[k],
                         cases[i].type);
                uint64_t got = atomic_once(op, spaces[k], false, cases[i].bits, cases[i].old, cases[i].b);
                ck_assert_msg(got == cases[i].sum, "%s: 0x%llx + 0x%llx gave 0x%llx, want 0x%llx", op,
                              (unsigned long long)cases[i].old, (unsigned long long)cases[i].b,
                              (unsigned long long)got, (unsigned long long)cases[i].sum);
            }
        }
    }
}
END_TEST

START_TEST(fma_oob_gives_the_h100s_values)
{
    /* PTX ISA (half fma): .oob gives +0 where an operand is the OOB-NaN, tested per half, without
     * giving that NaN's bits. The H100 (tests/h100_more/cases3/fma_oob_scan, every NaN of f16 and
     * bf16): 0x7ff7 or 0xfff7 as a or b gives +0, in either format; as c, like any other NaN, the
     * canonical 0x7fff. Without a NaN it is fma.rn: by hand, 1 * 2 + 1 = 3 (0x4200), 2 * 2 + 1 =
     * 5 (0x4500), bf16 1 * 1 + 1 = 2 (0x4000). With .sat a NaN saturates to +0. A NaN operand
     * without .sat warns, the ISA not saying which NaN the OOB-NaN is. */
    Run *r = load("mov.b32 a, 0x7e003c00;\nmov.b32 b, 0x40004000;\nmov.b32 c, 0x3c003c00;\n"
                  "mov.b32 n, 0x40003c00;\nmov.b32 o, 0xfff73c00;\nmov.b32 q, 0x7ff73f80;\n"
                  "fma.rn.oob.f16x2 d, a, b, c;\nfma.rn.oob.sat.f16x2 e, a, b, c;\n"
                  "fma.rn.oob.relu.f16x2 f, n, b, c;\nfma.rn.oob.f16x2 g, o, b, c;\n"
                  "fma.rn.oob.f16x2 h, b, b, o;\nfma.rn.oob.relu.bf16x2 i, q, q, q;\n");
    ck_assert_msg(run(r) == EXEC_OK, "%s", r->p->cap.text);
    static const struct { const char *reg; uint64_t value; } want[] = {
        { "d", 0x7fff4200 }, { "e", 0x00003c00 }, { "f", 0x45004200 }, { "g", 0x00004200 },
        { "h", 0x7fff4500 }, { "i", 0x00004000 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ck_assert_msg(r->w->val[reg(r, want[i].reg)][5] == want[i].value, "%s: 0x%llx, want 0x%llx", want[i].reg,
                      (unsigned long long)r->w->val[reg(r, want[i].reg)][5], (unsigned long long)want[i].value);
        ck_assert_uint_eq(r->w->defined[reg(r, want[i].reg)], ALL_LANES);
    }
    ck_assert_int_eq(r->w->warnings.len, 4);
    ck_assert_uint_eq(r->w->warnings.data[0].lanes, ALL_LANES);
    done(r);
}
END_TEST

START_TEST(vector_atomics_work_element_by_element)
{
    /* atom.v4.f16.min: element e at p + 2e, each on its own as min of halves (PTX ISA atom: the
     * atomicity is per element). Lanes 0 and 1 update the same vector, lane 0 first. Memory
     * {1, NaN, 2, -0} (0x3c00 0x7e00 0x4000 0x8000); lane 0's b {0.5, 3, NaN, +0}, lane 1's {2, 1,
     * 1, -1}. By hand: after lane 0 {0.5, 3, 2, -0} (a NaN gives the other operand, -0 < +0),
     * after lane 1 {0.5, 1, 1, -1}; lane 1's d is lane 0's result. Lane 0 met a NaN: a warning. */
    static const uint16_t memory[4] = { 0x3c00, 0x7e00, 0x4000, 0x8000 };
    static const uint16_t b[2][4] = { { 0x3800, 0x4200, 0x7e00, 0x0000 }, { 0x4000, 0x3c00, 0x3c00, 0xbc00 } };
    static const uint16_t after[4] = { 0x3800, 0x3c00, 0x3c00, 0xbc00 }, between[4] = { 0x3800, 0x4200, 0x4000, 0x8000 };
    static const char *const src[4] = { "a", "b", "c", "e" }, *const dst[4] = { "w", "x", "y", "z" };
    Run *r = load(".reg .b64 p;\n.reg .b16 a, b, c, e, w, x, y, z;\nmov.u32 l, %laneid;\nsetp.lt.u32 two, l, 2;\n"
                  "@two atom.global.v4.f16.min.noftz {w, x, y, z}, [p], {a, b, c, e};\n");
    Region *buf = buffer(r, "buf", 2);
    memcpy(buf->data, memory, sizeof memory);
    for (int i = 0; i < 4; i++) {
        uint32_t row = reg(r, src[i]);
        r->w->val[row][0] = b[0][i];
        r->w->val[row][1] = b[1][i];
        r->w->defined[row] = ALL_LANES;
    }
    ck_assert_msg(run(r) == EXEC_OK, "%s", r->p->cap.text);
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq((uint32_t)buf->data[2 * i] | (uint32_t)buf->data[2 * i + 1] << 8, after[i]);
        ck_assert_uint_eq(r->w->val[reg(r, dst[i])][0], memory[i]);
        ck_assert_uint_eq(r->w->val[reg(r, dst[i])][1], between[i]);
    }
    ck_assert_int_eq(r->w->warnings.len, 1);
    ck_assert_uint_eq(r->w->warnings.data[0].lanes, 1u);
    done(r);

    /* The whole vector must be aligned to its size, and in .global memory. */
    r = load(".reg .b64 p;\n.reg .f32 a, b, c, d;\natom.global.v4.f32.add {a, b, c, d}, [p+8], {a, b, c, d};\n");
    buffer(r, "buf", 8);
    ck_assert_int_eq(run(r), EXEC_FAULT);
    ck_assert_msg(strstr(r->p->cap.text, "writes 16 bytes at") && strstr(r->p->cap.text, "not 16-byte aligned"), "%s",
                  r->p->cap.text);
    done(r);
    r = load(".reg .b64 g;\n.reg .f32 a, b;\n.shared .align 8 .b8 s[8];\ncvta.shared.u64 g, s;\n"
             "atom.v2.f32.add {a, b}, [g], {a, b};\n");
    ck_assert_int_eq(run(r), EXEC_FAULT);
    ck_assert_msg(strstr(r->p->cap.text, "vector atomics are defined on .global memory only"), "%s", r->p->cap.text);
    done(r);
}
END_TEST

START_TEST(f32_atomic_add_flushes_subnormals_on_global_memory_only)
{
    /* PTX ISA (atom, red): add.f32 on global memory flushes subnormal inputs and results to
     * sign-preserving zero; on shared memory it keeps them. */
    static const struct { uint32_t old, b, global, shared; } cases[] = {
        { 0x00000001, 0x00000001, 0x00000000, 0x00000002 },    /* 2^-149 + 2^-149 */
        { 0x80000001, 0x80000001, 0x80000000, 0x80000002 },    /* the same negated: -0 */
        { 0x00c00000, 0x80800000, 0x00000000, 0x00400000 },    /* 1.5·2^-126 - 2^-126 = 2^-127, subnormal */
        { 0x00800000, 0x00000001, 0x00800000, 0x00800001 },    /* 2^-126 + 2^-149 */
        { 0x3f800000, 0x40000000, 0x40400000, 0x40400000 },    /* 1 + 2 = 3 */
        { 0x3f800000, 0x33800000, 0x3f800000, 0x3f800000 },    /* 1 + 2^-24 ties to 1 */
        { 0x3f800001, 0x33800000, 0x3f800002, 0x3f800002 },    /* (1 + 2^-23) + 2^-24 ties to even */
    };
    for (size_t i = 0; i < COUNT_OF(cases); i++) {
        ck_assert_uint_eq(atomic_once("atom.global.add.f32", "global", false, 32, cases[i].old, cases[i].b),
                          cases[i].global);
        ck_assert_uint_eq(atomic_once("red.global.add.f32", "global", false, 32, cases[i].old, cases[i].b),
                          cases[i].global);
        ck_assert_uint_eq(atomic_once("atom.add.f32", "", false, 32, cases[i].old, cases[i].b), cases[i].global);
        ck_assert_uint_eq(atomic_once("atom.shared.add.f32", "shared", false, 32, cases[i].old, cases[i].b),
                          cases[i].shared);
        ck_assert_uint_eq(atomic_once("red.shared.add.f32", "shared", false, 32, cases[i].old, cases[i].b),
                          cases[i].shared);
        ck_assert_uint_eq(atomic_once("atom.add.f32", "", true, 32, cases[i].old, cases[i].b), cases[i].shared);
    }
}
END_TEST

/* Each form (after ".reg .b64 p;") is an error: "ptxrun cannot execute" for the refused ones,
 * another message for the invalid ones; one error only when one_error. */
static void check_forms(const char *const *refused, size_t nr, const char *const *invalid, size_t ni, bool one_error)
{
    for (size_t i = 0; i < nr + ni; i++) {
        bool is_refused = i < nr;
        const char *form = is_refused ? refused[i] : invalid[i - nr];
        char text[256];
        snprintf(text, sizeof text, ".reg .b64 p;\n%s", form);
        Parsed *p = parse_text(text, true);
        ck_assert_msg(one_error ? p->diag.errors == 1 : p->diag.errors >= 1, "%s: %s", form, p->cap.text);
        ck_assert_msg((strstr(p->cap.text, "ptxrun cannot execute") != NULL) == is_refused, "%s: %s", form,
                      p->cap.text);
        parsed_free(p);
    }
}

START_TEST(atomic_forms_ptx_lacks_are_errors)
{
    /* Forms PTX does not have are errors (atom.shared::cluster, refused before clusters ran,
     * runs: tests/cluster). */
    static const char *const invalid[] = {
        "atom.global.v2.f32.add {d, e}, [p], b;\n",       /* a vector takes vector operands */
        "atom.global.v8.f32.add {d, e, f, g, h, i, j, k}, [p], {b, c, d, e, f, g, h, i};\n",
        "atom.global.exch.b16 d, [p], b;\n",            /* .b16 is for .cas */
        "atom.global.min.noftz.f16x2 d, [p], b;\n",      /* a vector operation */
        "atom.global.add.noftz.e4m3x2 d, [p], b;\n",
        "atom.global.inc.s32 d, [p], b;\n",              /* .inc takes .u32 */
    };
    check_forms(NULL, 0, invalid, COUNT_OF(invalid), true);
}
END_TEST

START_TEST(multimem_forms_are_checked)
{
    /* As ptxas 13 (sm_90) decides, form by form: the fp8 types and .acc::f16 are refused (not run
     * yet); the others are errors. */
    static const char *const refused[] = {
        "multimem.ld_reduce.add.acc::f16.v4.e4m3 {a, b, c, d}, [p];\n",
    };
    static const char *const invalid[] = {
        "multimem.ld_reduce.add.f16 d, [p];\n",             /* 16 bits: needs .v2, .v4 or .v8 */
        "multimem.red.global.min.f16x2 [p], d;\n",          /* min of halves: vectors only */
        "multimem.ld_reduce.and.u32 d, [p];\n",             /* and takes .b32, .b64 */
        "multimem.ld_reduce.add.acc::f32.f32 d, [p];\n",    /* .acc::f32 is for 16-bit floats */
        "multimem.st.acquire.b32 [p], d;\n",
        "multimem.ld_reduce.weak.gpu.add.u32 d, [p];\n",
        "multimem.ld_reduce.add.v2.u32 {d, e}, [p];\n",     /* integers take no vector */
    };
    check_forms(refused, COUNT_OF(refused), invalid, COUNT_OF(invalid), false);
}
END_TEST

START_TEST(thirty_two_bit_addresses_wrap)
{
    /* A 32-bit register plus an offset is a 32-bit address: buf - 64 + 68 is buf + 4 (nvcc folds
     * negative offsets into .shared addresses this way). */
    Run *r = load(".shared .align 4 .b8 buf[16];\nmov.u32 v, 1234;\nst.shared.u32 [buf+4], v;\n"
                  "mov.u32 r1, buf;\nadd.s32 r3, r1, -64;\nld.shared.u32 r4, [r3+68];\n"
                  "mov.u32 l, %laneid;\nsetp.eq.u32 one, l, 0;\n@one atom.shared.add.u32 old, [r3+68], 1;\n"
                  "@one red.shared.add.u32 [r3+68], 1;\nst.shared.u32 [r3+72], v;\nld.shared.u32 r5, [buf+8];\n"
                  "add.s32 r6, r1, -1048576;\nld.shared.u32 r7, [r6+1048580];\n");
    ck_assert_msg(run(r) == EXEC_OK, "%s", r->p->cap.text);
    ck_assert_uint_eq(r->w->val[reg(r, "r4")][5], 1234);
    ck_assert_uint_eq(r->w->val[reg(r, "old")][0], 1234);
    ck_assert_uint_eq(r->w->val[reg(r, "r5")][5], 1234);
    ck_assert_uint_eq(r->w->val[reg(r, "r7")][5], 1236);
    done(r);
}
END_TEST

START_TEST(match_redux_elect)
{
    Run *r = load("mov.u32 l, %laneid;\nand.b32 k, l, 3;\n"
                  "match.any.sync.b32 any, k, 0xffffffff;\nmatch.all.sync.b32 all|same, k, 0xffffffff;\n"
                  "redux.sync.add.u32 sum, l, 0xffffffff;\nredux.sync.min.s32 lo, m, 0xffffffff;\n"
                  "redux.sync.max.u32 hi, m, 0xffffffff;\nredux.sync.xor.b32 x, l, 0xffffffff;\n"
                  "setp.ge.u32 upper, l, 8;\n@upper elect.sync e|leader, 0xffffffff;\n");
    uint32_t m = reg(r, "m");
    for (int l = 0; l < WARP_SIZE; l++)
        r->w->val[m][l] = (uint64_t)(uint32_t)(l - 5);     /* -5 .. 26 */
    r->w->defined[m] = ALL_LANES;
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(r->w->val[reg(r, "any")][6], 0x44444444);          /* lanes with k == 2 */
    ck_assert_uint_eq(r->w->val[reg(r, "all")][0], 0);
    ck_assert_uint_eq(r->w->pred[pred(r, "same")], 0);
    ck_assert_uint_eq(r->w->val[reg(r, "sum")][9], 496);                /* 0 + ... + 31 */
    ck_assert_uint_eq(r->w->val[reg(r, "lo")][0], (uint32_t)-5);
    ck_assert_uint_eq(r->w->val[reg(r, "hi")][0], (uint32_t)-1);        /* as .u32, -1 is largest */
    ck_assert_uint_eq(r->w->val[reg(r, "x")][0], 0);                    /* 0 ^ 1 ^ ... ^ 31 */
    ck_assert_uint_eq(r->w->val[reg(r, "e")][12], 8);    /* lanes 0-7 do not execute it: they are not elected */
    ck_assert_uint_eq(r->w->pred[pred(r, "leader")], 1u << 8);
    done(r);
}
END_TEST

START_TEST(barrier_waits_for_the_whole_block)
{
    /* Lanes 0-15 store, everyone meets at bar.sync, then lanes 16-31 read what they stored. */
    Run *r = load(".reg .b64 p;\n.shared .u32 s[32];\nmov.u32 l, %laneid;\nsetp.lt.u32 low, l, 16;\n"
                  "mov.u64 base, s;\n@!low bra WAIT;\nmul.lo.u32 o, l, 4;\ncvt.u64.u32 o64, o;\nadd.s64 a, base, o64;\n"
                  "add.u32 v, l, 100;\nst.shared.u32 [a], v;\nWAIT:\nbar.sync 0;\n"
                  "sub.u32 j, l, 16;\nmul.lo.u32 o2, j, 4;\ncvt.u64.u32 o3, o2;\nadd.s64 a2, base, o3;\n"
                  "@!low ld.shared.u32 r, [a2];\n");
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(r->w->val[reg(r, "r")][20], 104);
    ck_assert_uint_eq(r->w->defined[reg(r, "r")] & 0xffff0000, 0xffff0000);
    done(r);
}
END_TEST

/* ---- thread blocks (PTX ISA: bar, barrier; the CTA's special registers) ---- */

static Run *load_block(const char *text, uint32_t threads)
{
    Run *r = load(text);
    uint32_t ntid[3] = { threads, 1, 1 };
    Msg err = { 0 };
    ck_assert(block_fits(r->b, ntid, &err));
    msg_free(&err);
    block_set_shape(r->b, ntid, ALL_LANES);
    return r;
}

static Warp *warp_of(Run *r, uint32_t index)
{
    ck_assert_uint_lt(index, r->w->block->warp_count);
    return r->w->block->warps[index];
}

START_TEST(warps_take_turns_while_one_spins)
{
    /* Warp 0 spins on a shared flag that warp 1 sets after 500 iterations of its own loop: it
     * finishes only if warp 1 gets turns while warp 0 is still spinning. */
    Run *r = load_block(".shared .u32 flag;\nmov.u32 w, %warpid;\nsetp.eq.u32 first, w, 0;\n@!first bra WORK;\n"
                        "SPIN: ld.volatile.shared.u32 f, [flag];\nsetp.eq.u32 wait, f, 0;\n@wait bra SPIN;\n"
                        "exit;\nWORK: mov.u32 i, 0;\nLOOP: add.u32 i, i, 1;\nsetp.lt.u32 more, i, 500;\n"
                        "@more bra LOOP;\nst.volatile.shared.u32 [flag], i;\n", 64);
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(warp_of(r, 0)->val[reg(r, "f")][7], 500);
    ck_assert_uint_eq(warp_of(r, 0)->exited, ALL_LANES);
    ck_assert_uint_eq(warp_of(r, 1)->exited, ALL_LANES);
    done(r);
}
END_TEST

START_TEST(warps_shuffle_among_their_own_lanes)
{
    /* shfl.sync.idx from lane 31 - laneid: each warp reads its own lanes, never the other warp's. */
    Run *r = load_block("mov.u32 t, %tid.x;\nmov.u32 l, %laneid;\nsub.u32 src, 31, l;\n"
                        "shfl.sync.idx.b32 v, t, src, 31, 0xffffffff;\n", 64);
    ck_assert_int_eq(run(r), EXEC_OK);
    for (uint32_t t = 0; t < 64; t++)
        ck_assert_uint_eq(warp_of(r, t / 32)->val[reg(r, "v")][t % 32], (t / 32) * 32 + 31 - t % 32);
    done(r);
}
END_TEST

START_TEST(barrier_red_counts_threads_and_combines_predicates)
{
    /* 48 threads (the second warp partial); the predicate holds for t % 3 == 0: 16 threads. */
    Run *r = load_block(".reg .pred q, all, any, none;\nmov.u32 t, %tid.x;\nrem.u32 m, t, 3;\nsetp.eq.u32 q, m, 0;\n"
                        "bar.red.popc.u32 n, 0, q;\nbar.red.and.pred all, 1, q;\nbar.red.or.pred any, 2, !q;\n"
                        "barrier.red.and.pred none, 3, !q;\n", 48);
    ck_assert_int_eq(run(r), EXEC_OK);
    for (uint32_t t = 0; t < 48; t++) {
        Warp *w = warp_of(r, t / 32);
        uint32_t bit = 1u << (t % 32);
        ck_assert_uint_eq(w->val[reg(r, "n")][t % 32], 16);
        ck_assert(!(w->pred[pred(r, "all")] & bit) && (w->pred_defined[pred(r, "all")] & bit));
        ck_assert(w->pred[pred(r, "any")] & bit);
        ck_assert(!(w->pred[pred(r, "none")] & bit));
    }
    done(r);
}
END_TEST

START_TEST(barrier_red_with_an_undefined_predicate_is_undefined)
{
    Run *r = load_block(".reg .pred q;\nmov.u32 t, %tid.x;\nsetp.lt.u32 low, t, 40;\n@low setp.eq.u32 q, t, 0;\n"
                        "bar.red.popc.u32 n, 0, q;\n", 64);
    ck_assert_int_eq(run(r), EXEC_OK);          /* q is undefined in threads 40-63 */
    ck_assert_uint_eq(warp_of(r, 0)->defined[reg(r, "n")], 0);
    ck_assert_uint_eq(warp_of(r, 1)->defined[reg(r, "n")], 0);
    ck_assert_msg(strstr(r->p->cap.text, "warning: undefined predicate in warp 1 lanes 8-31") != NULL, "%s",
                  r->p->cap.text);
    done(r);
}
END_TEST

START_TEST(barrier_for_all_threads_is_completed_by_exits)
{
    /* Threads 40-63 loop, then exit, after all the others wait at bar.sync 0 (all threads): their
     * exit completes it. A guard-false barrier is not executed: threads 0-7 skip the second one. */
    Run *r = load_block("mov.u32 t, %tid.x;\nsetp.ge.u32 late, t, 40;\n@late bra LATE;\nbar.sync 0;\n"
                        "setp.ge.u32 q, t, 8;\n@q bar.sync 1;\nmov.u32 done, 1;\nexit;\n"
                        "LATE: mov.u32 i, 0;\nLOOP: add.u32 i, i, 1;\nsetp.lt.u32 more, i, 100;\n@more bra LOOP;\n"
                        "exit;\n", 64);
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(warp_of(r, 0)->defined[reg(r, "done")], ALL_LANES);
    ck_assert_uint_eq(warp_of(r, 1)->defined[reg(r, "done")], 0xff);
    ck_assert_uint_eq(warp_of(r, 1)->val[reg(r, "i")][20], 100);
    done(r);
}
END_TEST

START_TEST(barrier_thread_count_phases)
{
    /* bar.sync 1, 32 completes for each 32 arrivals: warp 0 and warp 1 each pass on their own. */
    Run *r = load_block("mov.u32 w, %warpid;\nsetp.eq.u32 first, w, 0;\n@first bra A;\nbar.sync 1, 32;\n"
                        "mov.u32 x, 2;\nexit;\nA: bar.sync 1, 32;\nmov.u32 x, 1;\n", 64);
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(warp_of(r, 0)->val[reg(r, "x")][3], 1);
    ck_assert_uint_eq(warp_of(r, 1)->val[reg(r, "x")][3], 2);
    done(r);
}
END_TEST

START_TEST(block_shape_can_change)
{
    /* Warps are made and freed with the shape; per-thread .local grows with them. */
    Run *r = load(".local .u32 x[2];\nmov.u32 t, %tid.x;\nst.local.u32 [x+4], t;\nld.local.u32 y, [x+4];\n");
    uint32_t big[3] = { 32, 8, 4 }, small[3] = { 7, 3, 1 };
    Msg err = { 0 };
    ck_assert(block_fits(r->b, big, &err));
    msg_free(&err);
    block_set_shape(r->b, big, ALL_LANES);
    ck_assert_uint_eq(r->w->block->warp_count, 32);
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(warp_of(r, 31)->val[reg(r, "y")][5], 5);   /* thread 997: x 5 */
    block_set_shape(r->b, small, ALL_LANES);
    ck_assert_uint_eq(r->w->block->warp_count, 1);
    ck_assert_uint_eq(r->w->launched, (1u << 21) - 1);
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(r->w->val[reg(r, "y")][20], 6);
    done(r);
}
END_TEST

START_TEST(mov_packs_and_unpacks)
{
    Run *r = load(".reg .b64 d;\n.reg .b16 s0;\n.reg .b16 s1;\nmov.b64 d, {lo, hi};\nmov.b64 {x, y}, d;\n"
                  "mov.b32 h, {s0, s1};\nmov.b32 {t0, t1}, h;\n");
    uint32_t lo = reg(r, "lo"), hi = reg(r, "hi"), s0 = reg(r, "s0"), s1 = reg(r, "s1");
    for (int l = 0; l < WARP_SIZE; l++) {
        r->w->val[lo][l] = 0x11111111;
        r->w->val[hi][l] = 0x22222222u + (uint64_t)l;
        r->w->val[s0][l] = 0xbeef;
        r->w->val[s1][l] = 0xdead;
    }
    r->w->defined[lo] = r->w->defined[hi] = r->w->defined[s0] = r->w->defined[s1] = ALL_LANES;
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(r->w->val[reg(r, "d")][3], 0x2222222511111111ull);
    ck_assert_uint_eq(r->w->val[reg(r, "y")][3], 0x22222225);
    ck_assert_uint_eq(r->w->val[reg(r, "x")][3], 0x11111111);
    ck_assert_uint_eq(r->w->val[reg(r, "h")][0], 0xdeadbeef);
    ck_assert_uint_eq(r->w->val[reg(r, "t1")][0], 0xdead);
    done(r);
}
END_TEST

START_TEST(carry_chains)
{
    /* A 64-bit add and subtract from 32-bit halves, by hand. */
    Run *r = load("add.cc.u32 lo, a0, b0;\naddc.u32 hi, a1, b1;\nsub.cc.u32 dlo, b0, a0;\nsubc.u32 dhi, b1, a1;\n"
                  "mad.lo.cc.u32 m0, a0, a0, b0;\nmadc.hi.u32 m1, a0, a0, b1;\n"
                  "mul24.lo.u32 p, a1, a1;\nmul24.hi.u32 q, a0, a0;\nsad.u32 s, b0, a1, b1;\n");
    uint32_t a0 = reg(r, "a0"), a1 = reg(r, "a1"), b0 = reg(r, "b0"), b1 = reg(r, "b1");
    for (int l = 0; l < WARP_SIZE; l++) {
        r->w->val[a0][l] = 0xffffffff;
        r->w->val[a1][l] = 2;
        r->w->val[b0][l] = 1;
        r->w->val[b1][l] = 5;
    }
    r->w->defined[a0] = r->w->defined[a1] = r->w->defined[b0] = r->w->defined[b1] = ALL_LANES;
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(r->w->val[reg(r, "lo")][0], 0);          /* 0xffffffff + 1: carry */
    ck_assert_uint_eq(r->w->val[reg(r, "hi")][0], 8);          /* 2 + 5 + 1 */
    ck_assert_uint_eq(r->w->val[reg(r, "dlo")][0], 2);         /* 1 - 0xffffffff: borrow */
    ck_assert_uint_eq(r->w->val[reg(r, "dhi")][0], 2);         /* 5 - 2 - 1 */
    /* 0xffffffff^2 = 0xfffffffe00000001: lo + 1 = 0xfffffffe00000002 -> lo 2, no carry. */
    ck_assert_uint_eq(r->w->val[reg(r, "m0")][0], 2);
    ck_assert_uint_eq(r->w->val[reg(r, "m1")][0], 0xfffffffe + 5);
    ck_assert_uint_eq(r->w->val[reg(r, "p")][0], 4);
    ck_assert_uint_eq(r->w->val[reg(r, "q")][0], 0xfffffe00);  /* (2^24-1)^2 >> 16, low 32 bits */
    ck_assert_uint_eq(r->w->val[reg(r, "s")][0], 6);           /* 5 + |1 - 2| */
    done(r);
}
END_TEST

/* --trace=json: one valid JSON object per step; shuffles say which lane each lane read. */
START_TEST(json_trace_names_sources)
{
    Run *r = load("mov.u32 l, %laneid;\nsetp.lt.u32 p, l, 4;\n@p bra A;\nshfl.sync.up.b32 v|q, l, 1, 0, 0xffffffff;\n"
                  "bra B;\nA:\nshfl.sync.up.b32 v|q, l, 1, 0, 0xffffffff;\nB:\n");
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ExecOptions o = { .max_steps = 1000, .trace = out, .trace_json = true };
    ck_assert_int_eq(grid_run(r->b, &o, (char[256]){ 0 }, 256), EXEC_OK);
    fclose(out);
    unsigned steps = 0, shuffles = 0;
    bool waited = false, released = false, diverged = false;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        json_error_t e;
        json_t *j = json_loads(line, 0, &e);
        ck_assert_msg(j != NULL, "not JSON: %s (%s)", line, e.text);
        steps++;
        json_t *sources = json_object_get(j, "sources");
        if (sources) {
            shuffles++;
            /* The second shuffle completes both arms: lane 0 keeps its own value, lane 5 reads 4. */
            if (json_integer_value(json_array_get(sources, 5)) == 4 &&
                json_integer_value(json_array_get(sources, 0)) == 0)
                ck_assert_str_eq(json_string_value(json_object_get(j, "own")), "0x00000001");
        }
        waited |= json_object_get(j, "waiting") != NULL;
        released |= json_object_get(j, "released") != NULL;
        diverged |= json_object_get(j, "diverge") != NULL;
        json_decref(j);
    }
    ck_assert_uint_eq(steps, r->w->steps);
    ck_assert_uint_eq(shuffles, 1);            /* the arms complete together, in one step */
    ck_assert(waited && released && diverged);
    free(buf);
    done(r);
}
END_TEST

START_TEST(compare_and_select)
{
    Run *r = load("setp.lt.f32 lt|ge, a, b;\nsetp.ltu.f32 ltu, a, b;\nsetp.nan.f32 nan, a, b;\n"
                  "setp.lt.s32 slt, c, e;\nsetp.lo.u32 ulo, c, e;\nsetp.eq.and.s32 both, c, c, slt;\n"
                  "selp.b32 s, c, e, slt;\n");
    uint32_t a = reg(r, "a"), b = reg(r, "b"), c = reg(r, "c"), e = reg(r, "e");
    for (int l = 0; l < WARP_SIZE; l++) {
        r->w->val[a][l] = l == 0 ? 0x7fc00000 : 0x3f800000;   /* lane 0: NaN, others 1.0 */
        r->w->val[b][l] = 0x40000000;                          /* 2.0 */
        r->w->val[c][l] = 0xffffffff;                          /* -1, or 4294967295 */
        r->w->val[e][l] = 1;
    }
    r->w->defined[a] = r->w->defined[b] = r->w->defined[c] = r->w->defined[e] = ALL_LANES;
    ck_assert_int_eq(run(r), EXEC_OK);
    ck_assert_uint_eq(r->w->pred[pred(r, "lt")], 0xfffffffe);   /* NaN compares false */
    ck_assert_uint_eq(r->w->pred[pred(r, "ge")], 0x00000001);   /* the q of p|q is !lt */
    ck_assert_uint_eq(r->w->pred[pred(r, "ltu")], ALL_LANES);
    ck_assert_uint_eq(r->w->pred[pred(r, "nan")], 1);
    ck_assert_uint_eq(r->w->pred[pred(r, "slt")], ALL_LANES);
    ck_assert_uint_eq(r->w->pred[pred(r, "ulo")], 0);
    ck_assert_uint_eq(r->w->pred[pred(r, "both")], ALL_LANES);
    ck_assert_uint_eq(r->w->val[reg(r, "s")][9], 0xffffffff);
    done(r);
    /* set: the compare as a value, all ones (or 1.0 for .f32) when true. */
    ck_assert_uint_eq(run_unary("set.lt.u32.s32 d, a, b;", 0xffffffff, 1, 0), 0xffffffff);
    ck_assert_uint_eq(run_unary("set.lt.u32.u32 d, a, b;", 0xffffffff, 1, 0), 0);
    ck_assert_uint_eq(run_unary("set.ge.f32.f32 d, a, b;", 0x40000000, 0x3f800000, 0), 0x3f800000);
}
END_TEST

/* Linear filtering as the CUDA C Programming Guide's "Texture Fetching" appendix gives it, worked
 * out by hand: T = 1 2 / 3 4 (2 x 2 .f32, clamp); at (x, y), xB = x - 0.5, yB = y - 0.5, weights
 * a = frac(xB), b = frac(yB) in 1/256 steps. A weight between two steps is the documents' open
 * question: ptxrun warns. */
START_TEST(texture_linear_filtering_by_hand)
{
    Run *r = load(".version 7.0\n.target sm_75\n.address_size 64\n.entry k()\n{\n.reg .b64 h;\n"
                  ".reg .f32 x, y, a<4>;\ntex.2d.v4.f32.f32 {a0, a1, a2, a3}, [h, {x, y}];\nret;\n}\n");
    uint32_t index = mem_add(&r->b->mem, "t", SPACE_GLOBAL, 16, 256, TYPE_F32, false, true);
    const float texels[4] = { 1, 2, 3, 4 };
    memcpy(r->b->mem.regions[index].data, texels, sizeof texels);
    Image im = { .name = "t", .type = TYPE_F32, .channels = 1, .dims = 2, .size = { 2, 2, 1 }, .region = index,
                 .sampler.linear = true };
    uint64_t handle = block_add_image(r->b, &im);
    /* lane 0 (0.75, 0.5): a = 1/4, b = 0: 3/4 * 1 + 1/4 * 2 = 1.25
     * lane 1 (1.0, 1.0): a = b = 1/2: (1 + 2 + 3 + 4) / 4 = 2.5
     * lane 2 (1.25, 0.75): a = 3/4, b = 1/4: 1/4*3/4*1 + 3/4*3/4*2 + 1/4*1/4*3 + 3/4*1/4*4
     *                      = 0.1875 + 1.125 + 0.1875 + 0.75 = 2.25
     * lane 3 (-3.0, 9.0): past the corner, every index clamped: T[0, 1] = 3
     * lane 4 (0.5 + 1/512, 0.5): a = 1/512, half a step: a warning */
    const float xs[5] = { 0.75f, 1.0f, 1.25f, -3.0f, 0.5f + 1.0f / 512 }, ys[5] = { 0.5f, 1.0f, 0.75f, 9.0f, 0.5f };
    const float want[4] = { 1.25f, 2.5f, 2.25f, 3.0f };
    uint32_t rh = reg(r, "h"), rx = reg(r, "x"), ry = reg(r, "y");
    for (int l = 0; l < WARP_SIZE; l++) {
        float fx = xs[l < 5 ? l : 0], fy = ys[l < 5 ? l : 0];
        uint32_t bx, by;
        memcpy(&bx, &fx, 4);
        memcpy(&by, &fy, 4);
        r->w->val[rh][l] = handle;
        r->w->val[rx][l] = bx;
        r->w->val[ry][l] = by;
    }
    r->w->defined[rh] = r->w->defined[rx] = r->w->defined[ry] = ALL_LANES;
    ck_assert_int_eq(run(r), EXEC_OK);
    for (int l = 0; l < 4; l++) {
        uint32_t got = (uint32_t)r->w->val[reg(r, "a0")][l], bits;
        memcpy(&bits, &want[l], 4);
        ck_assert_msg(got == bits, "lane %d: 0x%08x, expected 0x%08x", l, got, bits);
    }
    ck_assert_uint_eq(r->w->defined[reg(r, "a1")] & 0xf, 0);   /* a channel T lacks: undefined */
    ck_assert_uint_eq(r->w->warnings.len, 1);
    ck_assert_uint_eq(r->w->warnings.data[0].lanes, 1u << 4);
    done(r);
}
END_TEST

START_TEST(unsupported_instructions_are_reported_before_running)
{
    /* An opcode ptxrun does not execute is the checker's to refuse; a variant of one it does,
     * the loader's. */
    Parsed *p = parse_text("tcgen05.fence;\n", true);
    ck_assert_str_eq(p->cap.text, "1:1: error: ptxrun cannot execute 'tcgen05.fence' yet\n");
    parsed_free(p);
    p = parse_ok(".reg .b128 q;\ncvt.u64.u32 q, r;\n");   /* the checker takes a wider cvt destination */
    Block *b = block_load(p->m, p->m->functions.data[0], &p->diag, DEFAULT_STACK_BYTES);
    ck_assert_ptr_null(b);
    ck_assert_str_eq(p->cap.text, "2:1: error: ptxrun cannot execute 'cvt.u64.u32' with a .b128 register yet\n");
    parsed_free(p);
}
END_TEST

/* Regions of one space never share a byte: mem_overlaps finds the shared bytes, and mem_add
 * refuses (an internal error) to make a region over another. */
START_TEST(regions_never_overlap)
{
    Memory mem;
    mem_init(&mem);
    uint32_t a = mem_add(&mem, "a", SPACE_SHARED, 12, 4, TYPE_B32, false, false);
    uint32_t b = mem_add(&mem, "b", SPACE_SHARED, 8, 8, TYPE_B32, false, false);
    ck_assert_uint_eq(mem.regions[a].base, 0);
    ck_assert_uint_eq(mem.regions[b].base, 16);        /* 12 rounded up to b's alignment */
    ck_assert(mem_overlaps(&mem, SPACE_SHARED, 8, 8, NO_SLOT));   /* 8..15 meets a's 8..11 */
    ck_assert(!mem_overlaps(&mem, SPACE_SHARED, 12, 4, NO_SLOT)); /* the padding between them */
    ck_assert(mem_overlaps(&mem, SPACE_SHARED, 23, 1, NO_SLOT));  /* b's last byte */
    ck_assert(!mem_overlaps(&mem, SPACE_SHARED, 24, 100, NO_SLOT));
    ck_assert(!mem_overlaps(&mem, SPACE_LOCAL, 0, 100, NO_SLOT)); /* another space */
    ck_assert(!mem_overlaps(&mem, SPACE_SHARED, 16, 8, b));       /* b itself, excepted */
    uint32_t c = mem_add(&mem, "c", SPACE_SHARED, 0, 16, TYPE_B8, false, false);
    ck_assert_uint_eq(mem.regions[c].base, 32);
    mem_resize(&mem, c, 64);                                    /* the last one may grow */
    ck_assert(mem_overlaps(&mem, SPACE_SHARED, 90, 4, NO_SLOT));
    mem_free(&mem);
}
END_TEST

START_TEST(growing_a_region_over_another_is_an_internal_error)
{
    Memory mem;
    mem_init(&mem);
    uint32_t a = mem_add(&mem, "a", SPACE_SHARED, 4, 4, TYPE_B32, false, false);
    mem_add(&mem, "b", SPACE_SHARED, 4, 4, TYPE_B32, false, false);
    /* The abort's "internal error" message is expected: kept out of make check's log (this runs
     * in a child of its own, so standard error is the child's to close). */
    if (!freopen("/dev/null", "w", stderr))
        ck_abort_msg("cannot quiet standard error");
    mem_resize(&mem, a, 8);                                     /* aborts */
}
END_TEST

/* Every region a program's variables make: no two of one space overlap. */
START_TEST(program_regions_do_not_overlap)
{
    Run *r = load(".version 8.0\n.target sm_80\n.address_size 64\n"
                  ".extern .shared .align 8 .b8 e1[];\n.extern .shared .align 16 .b8 e2[];\n"
                  ".shared .align 4 .b32 s1[3];\n.shared .align 8 .b64 s2;\n.global .b32 g1[5];\n"
                  ".const .b8 c1[3] = {1, 2, 3};\n"
                  ".visible .entry k(.param .u32 a, .param .u64 b, .param .align 8 .b8 st[12])\n"
                  "{\n.local .align 8 .b8 depot[24];\n.shared .b32 s4[7];\nret;\n}\n"
                  ".func f(.param .b32 n)\n{\n.local .b32 l[4];\n.shared .b16 s3;\nret;\n}\n");
    Memory *mem = &r->b->mem;
    block_set_dynamic_shared(r->b, 100);
    for (uint32_t i = 0; i < mem->count; i++)
        ck_assert_msg(!mem_overlaps(mem, mem->regions[i].space, mem->regions[i].base, mem->regions[i].size, i),
                      "region '%s' overlaps another", mem->regions[i].name);
    /* The dynamic block comes after every static .shared variable, 16-byte aligned. */
    const Region *dyn = &mem->regions[r->w->prog->dynamic_region];
    ck_assert_uint_eq(dyn->base % 16, 0);
    for (uint32_t i = 0; i < mem->count; i++)
        if (mem->regions[i].space == SPACE_SHARED && i != r->w->prog->dynamic_region)
            ck_assert_uint_le(mem->regions[i].base + mem->regions[i].size, dyn->base);
    /* The parameters packed as the ABI packs them: a at 0, b at 8, st at 16. */
    ck_assert_uint_eq(r->w->prog->funcs[0].params[0].offset, 0);
    ck_assert_uint_eq(r->w->prog->funcs[0].params[1].offset, 8);
    ck_assert_uint_eq(r->w->prog->funcs[0].params[2].offset, 16);
    ck_assert_uint_eq(mem->regions[r->w->prog->param_region].size, 28);
    done(r);
}
END_TEST

/* Each CTA of a grid starts from what was given: the given register as set, every other
 * register and predicate undefined, however the CTA before left them (only the given rows are
 * kept between CTAs). */
START_TEST(every_cta_starts_from_the_given_registers)
{
    Run *r = load("mov.u32 c, %ctaid.x;\n"
                  "setp.eq.u32 first, c, 0;\n"
                  "@first mov.u32 left, 7;\n"
                  "@first setp.ne.u32 q, c, 1;\n"
                  "add.u32 given, given, c;\n");
    uint32_t given = reg(r, "given"), left = reg(r, "left"), q = pred(r, "q");
    for (int l = 0; l < WARP_SIZE; l++)
        r->w->val[given][l] = 40;
    r->w->defined[given] = ALL_LANES;
    uint32_t grid[3] = { 2, 1, 1 };
    block_set_grid(r->b, grid);
    ck_assert_int_eq(run(r), EXEC_OK);
    /* what the dump shows: CTA 1, the last to run */
    ck_assert_uint_eq(r->w->val[given][5], 41);
    ck_assert_uint_eq(r->w->defined[given], ALL_LANES);
    ck_assert_uint_eq(r->w->defined[left], 0);
    ck_assert_uint_eq(r->w->pred_defined[q], 0);
    done(r);
}
END_TEST

/* CUDA's largest grid, (2^31 - 1) x 65,535 x 65,535, has about 2^63 CTAs: a CTA's number (x
 * fastest) takes 64 bits, and the CTA it names has the %ctaid a division in 64 bits gives (the
 * number computed here from the place, x + X * (y + Y * z)). */
START_TEST(a_cta_number_beyond_32_bits_names_its_place)
{
    Run *r = load("mov.u32 x, %ctaid.x;\nmov.u32 y, %ctaid.y;\nmov.u32 z, %ctaid.z;\nmov.u32 nx, %nctaid.x;\n");
    const uint64_t X = 0x7fffffff, Y = 65535, Z = 65535;
    uint32_t grid[3] = { (uint32_t)X, (uint32_t)Y, (uint32_t)Z };
    block_set_grid(r->b, grid);
    block_start(r->b);
    ExecOptions o = { .max_steps = 1000 };
    const uint32_t place[][3] = { { 123456789, 4321, 65534 }, { 0x7ffffffe, 65534, 65534 }, { 5, 0, 1 } };
    for (size_t k = 0; k < sizeof place / sizeof place[0]; k++) {
        uint64_t number = place[k][0] + X * (place[k][1] + Y * place[k][2]);
        ck_assert(block_run_cta(r->b, &o, number));
        for (int l = 0; l < WARP_SIZE; l++) {
            ck_assert_uint_eq(r->w->val[reg(r, "x")][l], place[k][0]);
            ck_assert_uint_eq(r->w->val[reg(r, "y")][l], place[k][1]);
            ck_assert_uint_eq(r->w->val[reg(r, "z")][l], place[k][2]);
            ck_assert_uint_eq(r->w->val[reg(r, "nx")][l], X);
        }
    }
    done(r);
}
END_TEST

/* Runs r's kernel as a grid of ctas CTAs (x) on jobs threads; why: grid_run's reason. */
static int run_ctas(Run *r, uint32_t ctas, unsigned jobs, uint64_t max_steps, char *why, size_t size)
{
    uint32_t grid[3] = { ctas, 1, 1 };
    block_set_grid(r->b, grid);
    ExecOptions o = { .max_steps = max_steps, .jobs = jobs };
    return grid_run(r->b, &o, why, size);
}

/* A grid on threads keeps, to put .global back, the old bytes of the words its CTAs write and
 * nothing else (issue 33, point 3): 8 CTAs each writing their own word beside 16 MiB the
 * kernel never touches keep a few KiB (Block.track_bytes, counted as allocated), not a copy of
 * the 16 MiB, and the run stands. */
START_TEST(a_grid_on_threads_does_not_copy_memory_it_does_not_write)
{
    Run *r = load(".reg .b64 p;\n.reg .b64 q;\nmov.u32 c, %ctaid.x;\nmul.wide.u32 o, c, 4;\nadd.s64 q, p, o;\n"
                  "st.global.u32 [q], c;\n");
    enum { BIG_WORDS = 4 << 20 };
    buffer(r, "big", BIG_WORDS);
    buffer(r, "out", 8);                       /* p: out's address */
    char why[256];
    ck_assert_int_eq(run_ctas(r, 8, 4, 1000, why, sizeof why), EXEC_OK);
    ck_assert_str_eq(why, "");                 /* it ran on threads, and stood */
    const Region *out = &r->b->mem.regions[r->b->mem.count - 1];
    for (unsigned i = 0; i < 8; i++)
        ck_assert_uint_eq(word(out, i), i);
    ck_assert_msg(r->b->track_bytes > 0 && r->b->track_bytes <= 256 << 10, "kept %llu bytes beside a %u-byte buffer",
                  (unsigned long long)r->b->track_bytes, 4 * BIG_WORDS);
    done(r);
}
END_TEST

/* Clusters run as gangs (gang.c), one cluster after another: in each cluster of 2 CTAs, rank 0
 * waits for a flag its rank 1 sets, which one CTA after another would never see (rank 1 runs
 * after rank 0 ends). (The launch's checks refuse clusters of more than one CTA until the cluster
 * instructions run; grid_run itself runs them.) */
START_TEST(the_ctas_of_a_cluster_run_together)
{
    Run *r = load(".reg .b64 p;\n.reg .b64 q;\nmov.u32 c, %ctaid.x;\nshr.u32 h, c, 1;\nmul.wide.u32 o, h, 4;\n"
                  "add.s64 q, p, o;\nand.b32 odd, c, 1;\nsetp.eq.u32 even, odd, 0;\n@even bra WAIT;\n"
                  "st.volatile.global.u32 [q], c;\nbra END;\nWAIT:\nld.volatile.global.u32 v, [q];\n"
                  "setp.eq.u32 z, v, 0;\n@z bra WAIT;\nEND:\nret;\n");
    uint32_t grid[3] = { 8, 1, 1 }, cluster[3] = { 2, 1, 1 };
    block_set_grid(r->b, grid);
    buffer(r, "flags", 4);                     /* p: its address */
    ExecOptions o = { .max_steps = 100000 };
    ck_assert_int_eq(grid_run(r->b, &o, (char[256]){ 0 }, 256), EXEC_FAULT);   /* one after another */
    ck_assert(strstr(r->p->cap.text, "deadlock"));
    done(r);
    r = load(".reg .b64 p;\n.reg .b64 q;\nmov.u32 c, %ctaid.x;\nshr.u32 h, c, 1;\nmul.wide.u32 o, h, 4;\n"
             "add.s64 q, p, o;\nand.b32 odd, c, 1;\nsetp.eq.u32 even, odd, 0;\n@even bra WAIT;\n"
             "st.volatile.global.u32 [q], c;\nbra END;\nWAIT:\nld.volatile.global.u32 v, [q];\n"
             "setp.eq.u32 z, v, 0;\n@z bra WAIT;\nEND:\nret;\n");
    block_set_grid(r->b, grid);
    block_set_cluster(r->b, cluster);
    buffer(r, "flags", 4);
    ck_assert_int_eq(grid_run(r->b, &o, (char[256]){ 0 }, 256), EXEC_OK);
    const Region *flags = &r->b->mem.regions[r->b->mem.count - 1];
    for (uint32_t i = 0; i < 4; i++)
        ck_assert_uint_eq(word(flags, i), 2 * i + 1);     /* rank 1 of cluster i wrote its CTA number */
    done(r);
}
END_TEST

/* A schedule (ExecOptions.schedule) that runs the gang's last runnable warp first, counting its
 * calls: the hook the race checker plugs into. */
static bool last_first(void *context, Gang *g, uint32_t *cta, uint32_t *warp)
{
    ++*(unsigned *)context;
    for (uint32_t c = g->count; c--;)
        for (uint32_t w = g->ctas[c]->warp_count; w--;)
            if (gang_runnable(g, c, w)) {
                *cta = c, *warp = w;
                return true;
            }
    return false;
}

START_TEST(a_schedule_of_ones_own_runs_every_cta)
{
    /* Each CTA writes its number: with a schedule given, an ordinary grid of 4 CTAs runs as gangs
     * of one CTA, each through the schedule, with the same result. */
    Run *r = load(".reg .b64 p;\n.reg .b64 q;\nmov.u32 c, %ctaid.x;\nmul.wide.u32 o, c, 4;\nadd.s64 q, p, o;\n"
                  "st.global.u32 [q], c;\n");
    uint32_t grid[3] = { 4, 1, 1 };
    block_set_grid(r->b, grid);
    buffer(r, "out", 4);                       /* p: out's address */
    unsigned calls = 0;
    ExecOptions o = { .max_steps = 1000, .schedule = last_first, .schedule_context = &calls };
    ck_assert_int_eq(grid_run(r->b, &o, (char[256]){ 0 }, 256), EXEC_OK);
    const Region *out = &r->b->mem.regions[r->b->mem.count - 1];
    for (uint32_t i = 0; i < 4; i++)
        ck_assert_uint_eq(word(out, i), i);
    ck_assert_uint_ge(calls, 8);       /* each CTA: its warp once, then none left */
    done(r);
}
END_TEST

/* A run on threads that does not stand puts back every byte, data and definedness, its CTAs
 * wrote, and the CTAs run again one after another: CTA 40 of 64 spins, then traps; even CTAs
 * double and add 1 to their own word (7 * CTA), odd ones write an undefined register over
 * theirs (undefined and 0xabababab; or, given whole without shadow bytes, 7 * CTA). One after
 * another stops at CTA 40: the words below it as the kernel makes them, those above exactly as
 * they were, though CTAs past 40 will have run on the other threads (by hand from the kernel). */
START_TEST(a_grid_on_threads_that_does_not_stand_puts_every_byte_back)
{
    for (int whole = 0; whole < 2; whole++) {
        Run *r = load(".reg .b64 p;\n.reg .b64 q;\nmov.u32 c, %ctaid.x;\nsetp.eq.u32 t, c, 40;\n@t bra SPIN;\n"
                      "mul.wide.u32 o, c, 4;\nadd.s64 q, p, o;\nand.b32 odd, c, 1;\nsetp.eq.u32 isodd, odd, 1;\n"
                      "@isodd bra ODD;\nld.global.u32 v, [q];\nmad.lo.u32 v, v, 2, 1;\nst.global.u32 [q], v;\n"
                      "bra DONE;\nODD:\nst.global.u32 [q], u;\nbra DONE;\n"
                      "SPIN:\nmov.u32 i, 0;\nL:\nadd.u32 i, i, 1;\nsetp.lt.u32 s, i, 20000;\n@s bra L;\ntrap;\nDONE:\n");
        Region *out = buffer(r, "out", 64);
        for (unsigned i = 0; i < 64; i++)
            for (unsigned k = 0; k < 4; k++) {
                bool undefined = i % 2 && !whole;
                out->data[4 * i + k] = undefined ? 0xab : (uint8_t)(7 * i >> 8 * k);
                out->shadow[4 * i + k] = undefined ? 0 : 0xff;
            }
        if (whole)
            mem_all_defined(&r->b->mem, r->b->mem.count - 1);
        char why[256];
        ck_assert_int_eq(run_ctas(r, 64, 4, 10000000, why, sizeof why), EXEC_FAULT);
        ck_assert_msg(strstr(why, "a CTA stopped early"), "%s", why);
        out = &r->b->mem.regions[r->b->mem.count - 1];
        ck_assert_ptr_nonnull(out->shadow);
        for (unsigned i = 0; i < 64; i++) {
            uint32_t shadow = (uint32_t)out->shadow[4 * i] | (uint32_t)out->shadow[4 * i + 1] << 8 |
                              (uint32_t)out->shadow[4 * i + 2] << 16 | (uint32_t)out->shadow[4 * i + 3] << 24;
            bool undefined = i % 2 && (i < 40 || !whole);
            uint32_t want = i % 2 ? (whole ? 7 * i : 0xababababu) : i < 40 ? 14 * i + 1 : 7 * i;
            if (!(i % 2 && i < 40))
                ck_assert_msg(word(out, i) == want, "%s: word %u: 0x%x, not 0x%x", whole ? "whole" : "shadow", i,
                              word(out, i), want);
            ck_assert_msg(shadow == (undefined ? 0 : 0xffffffffu), "%s: word %u: defined bits 0x%x",
                          whole ? "whole" : "shadow", i, shadow);
        }
        done(r);
    }
}
END_TEST

/* A buffer given whole keeps no shadow bytes (mem_all_defined) until a CTA writes it; on a
 * grid's threads the workers make one for all: 16 CTAs on 4 threads, odd CTAs writing an
 * undefined register to their own word and even ones their number; the buffer 'in' that only
 * is read keeps none. By hand: odd words undefined in every bit, even words their CTA's
 * number, words 16-31 zero and defined; v read from 'in' defined. */
START_TEST(a_buffer_given_whole_gets_shadow_bytes_when_written)
{
    for (uint32_t jobs = 1; jobs <= 4; jobs += 3) {
        Run *r = load(".reg .b64 p;\n.reg .b64 q;\nmov.u32 c, %ctaid.x;\nmul.wide.u32 o, c, 4;\nadd.s64 q, p, o;\n"
                      "ld.global.u32 v, [p+512];\nand.b32 odd, c, 1;\nsetp.eq.u32 isodd, odd, 1;\n"
                      "@isodd st.global.u32 [q], u;\n@!isodd st.global.u32 [q], c;\n");
        buffer(r, "out", 32);
        buffer(r, "in", 8);
        uint32_t out_index = r->b->mem.count - 2, in_index = out_index + 1;
        Region *out = &r->b->mem.regions[out_index];
        for (int l = 0; l < WARP_SIZE; l++)
            r->w->val[reg(r, "p")][l] = out->base;      /* 'in' 512 bytes on, 256 past its end */
        ck_assert_uint_eq(r->b->mem.regions[in_index].base, out->base + 512);
        mem_all_defined(&r->b->mem, out_index);
        mem_all_defined(&r->b->mem, in_index);
        ck_assert_ptr_null(out->shadow);
        uint32_t v = reg(r, "v");              /* r->w is not the block's warp after a run on threads */
        char why[256];
        ck_assert_int_eq(run_ctas(r, 16, jobs, 1000, why, sizeof why), EXEC_OK);
        ck_assert_str_eq(why, "");
        out = &r->b->mem.regions[out_index];
        ck_assert_ptr_nonnull(out->shadow);
        ck_assert_ptr_null(r->b->mem.regions[in_index].shadow);
        ck_assert_uint_eq(r->b->warps[0]->defined[v], ALL_LANES);
        ck_assert_uint_eq(r->b->warps[0]->val[v][3], 0);
        for (unsigned i = 0; i < 32; i++) {
            uint32_t want = i < 16 && i % 2 ? 0 : i < 16 ? i : 0;
            uint8_t defined = i < 16 && i % 2 ? 0 : 0xff;
            if (!(i < 16 && i % 2))
                ck_assert_msg(word(out, i) == want, "-j %u: word %u: %u", jobs, i, word(out, i));
            for (unsigned k = 0; k < 4; k++)
                ck_assert_msg(out->shadow[4 * i + k] == defined, "-j %u: word %u byte %u: 0x%x", jobs, i, k,
                              out->shadow[4 * i + k]);
        }
        done(r);
    }
}
END_TEST

/* The record a run on threads keeps stays within its budget (a quarter byte per byte of .global, or
 * 64 MiB): 4 CTAs each reading a quarter of 40 MiB would need 80 MiB of marks, so the run gives
 * up and the CTAs run one after another. Each lane adds 1 + each word it reads (zeros) in
 * 81,920 rounds; lane 0 writes the sum: 81,920 in every CTA's word (by hand). */
START_TEST(a_grid_on_threads_keeps_its_record_within_its_budget)
{
    Run *r = load(".reg .b64 p;\n.reg .b64 po;\n.reg .b64 q;\nmov.u32 c, %ctaid.x;\nmov.u32 l, %laneid;\n"
                  "mul.wide.u32 o, c, 10485760;\nadd.s64 q, p, o;\nmul.wide.u32 lo, l, 4;\nadd.s64 q, q, lo;\n"
                  "mov.u32 i, 0;\nmov.u32 s, 0;\nL:\nld.global.u32 v, [q];\nadd.u32 s, s, v;\nadd.u32 s, s, 1;\n"
                  "add.s64 q, q, 128;\nadd.u32 i, i, 1;\nsetp.lt.u32 t, i, 81920;\n@t bra L;\n"
                  "mul.wide.u32 oo, c, 4;\nadd.s64 po, po, oo;\nsetp.eq.u32 z, l, 0;\n@z st.global.u32 [po], s;\n");
    buffer(r, "out", 4);
    uint32_t po = reg(r, "po");
    for (int l = 0; l < WARP_SIZE; l++)
        r->w->val[po][l] = r->w->val[reg(r, "p")][l];
    r->w->defined[po] = ALL_LANES;
    buffer(r, "big", 10 << 20);                /* p: big's address */
    mem_all_defined(&r->b->mem, r->b->mem.count - 1);
    char why[256];
    ck_assert_int_eq(run_ctas(r, 4, 4, 10000000, why, sizeof why), EXEC_OK);
    ck_assert_msg(strstr(why, "would pass its bound"), "%s", why);
    ck_assert_msg(r->b->track_bytes <= 64 << 20, "kept %llu bytes", (unsigned long long)r->b->track_bytes);
    const Region *out = &r->b->mem.regions[r->b->mem.count - 2];
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(word(out, i), 81920);
    done(r);
}
END_TEST

/* The adds contract_function fuses in a kernel around body, each with its mul, as "L2<L1 L5<L3"
 * (lines of body, which holds one instruction a line, the first L1), in the order it found them. */
static void fused_lines(const char *body, char *out, size_t size)
{
    char text[4096];
    static const char head[] = ".version 8.6\n.target sm_90\n.address_size 64\n"
                               ".visible .entry k(.param .u64 p)\n{\n"
                               ".reg .f32 %f<20>;\n.reg .f64 %d<9>;\n.reg .b16 %h<9>;\n.reg .b64 %rd<2>;\n"
                               ".reg .pred %p<3>;\n";
    enum { HEAD_LINES = 10 };
    snprintf(text, sizeof text, "%s%s\nret;\n}\n", head, body);
    Parsed *p = parse_ok(text);
    Fusion *fused;
    Unfused *missed;
    uint32_t missed_count;
    uint32_t n = contract_function(p->m->functions.data[0], &fused, &missed, &missed_count);
    size_t len = 0;
    out[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t add, mul, column;
        source_position(&p->src, p->m->functions.data[0]->code.data[fused[i].add].at.offset, &add, &column);
        source_position(&p->src, p->m->functions.data[0]->code.data[fused[i].mul].at.offset, &mul, &column);
        len += (size_t)snprintf(out + len, size - len, "%sL%u<L%u", len ? " " : "", add - HEAD_LINES, mul - HEAD_LINES);
    }
    for (uint32_t i = 0; i < missed_count; i++) {
        uint32_t line, column;
        source_position(&p->src, p->m->functions.data[0]->code.data[missed[i].at].at.offset, &line, &column);
        len += (size_t)snprintf(out + len, size - len, "%s%s L%u", len ? " " : "",
                                missed[i].why == UNFUSED_SHARED_ATOMIC ? "atomic"
                                : missed[i].why == UNFUSED_DIVISION ? "division" : "lost", line - HEAD_LINES);
    }
    free(fused);
    free(missed);
    parsed_free(p);
}

/* Which pairs ptxas 13.0 fuses (docs/semantics.md, "Contraction"; each case is one of
 * scripts/fmad_ptxas.py's variants, whose SASS ptxas gave). */
START_TEST(contraction_follows_ptxas)
{
    static const struct { const char *body, *fused; } cases[] = {
        { "mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;", "L2<L1" },
        { "mul.f32 %f5, %f1, %f2;\nsub.f32 %f9, %f3, %f5;", "L2<L1" },
        { "mul.f64 %d5, %d1, %d2;\nadd.f64 %d6, %d5, %d3;", "L2<L1" },
        { "mul.bf16 %h5, %h1, %h2;\nsub.bf16 %h6, %h5, %h3;", "L2<L1" },
        { "mul.ftz.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;", "" },              /* .ftz differs */
        { "mul.rn.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;", "" },
        { "mul.f32 %f5, %f1, %f2;\nadd.rz.f32 %f9, %f5, %f3;", "" },
        { "mul.sat.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;", "" },
        { "mul.f32 %f5, %f1, %f2;\nadd.sat.f32 %f9, %f5, %f3;", "L2<L1" },
        { "mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;\nst.global.f32 [%rd1], %f5;", "" },   /* also stored */
        { "mul.f32 %f5, %f1, %f2;\nadd.f32 %f6, %f5, %f3;\nadd.f32 %f9, %f6, %f5;", "L2<L1 L3<L1" },
        { "mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f5;", "" },
        { "mul.f32 %f5, %f1, %f2;\nneg.f32 %f6, %f5;\nmov.f32 %f7, %f6;\nadd.f32 %f9, %f7, %f3;", "L4<L1" },
        { "mul.f32 %f5, %f1, %f2;\nabs.f32 %f6, %f5;\nadd.f32 %f9, %f6, %f3;", "" },
        /* through ten movs, each register read once */
        { "mul.f32 %f5, %f1, %f2;\nmov.f32 %f6, %f5;\nmov.f32 %f7, %f6;\nmov.f32 %f8, %f7;\nmov.f32 %f9, %f8;\n"
          "mov.f32 %f10, %f9;\nmov.f32 %f11, %f10;\nmov.f32 %f12, %f11;\nmov.f32 %f13, %f12;\nmov.f32 %f14, %f13;\n"
          "mov.f32 %f15, %f14;\nadd.f32 %f16, %f15, %f3;", "L12<L1" },
        { "mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f3, %f5;\nabs.f32 %f6, %f5;", "L2<L1" },   /* the abs is dead */
        /* dead through a chain, or a setp whose predicate nothing reads: ptxas removes them */
        { "mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f3, %f5;\nabs.f32 %f6, %f5;\nabs.f32 %f7, %f6;", "L2<L1" },
        { "mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;\nsetp.gt.f32 %p2, %f5, %f4;", "L2<L1" },
        { "mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;\nsetp.gt.f32 %p2, %f5, %f4;\n@%p2 st.global.f32 [%rd1], %f9;",
          "" },
        { "mul.f32 %f5, %f1, %f2;\n@%p1 add.f32 %f9, %f5, %f3;", "L2<L1" },
        { "@%p1 mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;", "" },
        { "mul.f32 %f5, %f1, %f2;\nbar.sync 0;\nadd.f32 %f9, %f5, %f3;", "L3<L1" },
        { "mul.f32 %f5, %f1, %f2;\nmembar.gl;\nadd.f32 %f9, %f5, %f3;", "" },
        { "mul.f32 %f5, %f1, %f2;\nfence.proxy.alias;\nadd.f32 %f9, %f5, %f3;", "L3<L1" },
        { "mul.f32 %f5, %f1, %f2;\n@%p1 bra L1;\nadd.f32 %f4, %f4, %f4;\nL1: add.f32 %f9, %f5, %f3;", "" },
        { "mul.f32 %f5, %f1, %f2;\n@%p1 bra L1;\nL1: add.f32 %f9, %f5, %f3;", "L3<L1" },      /* a bra to the next */
        { "mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;\n@%p1 bra L1;\nmov.f32 %f5, %f3;\n"
          "L1: add.f32 %f8, %f5, %f1;", "" },                                         /* read after the block */
        { "mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;\n@%p1 bra L1;\nmov.f32 %f5, %f3;\n"
          "add.f32 %f8, %f5, %f1;\nL1: ret;", "L2<L1" },                             /* written before any read */
        /* two products in one add: the one read fewer times, the first on a tie; one not fused
         * elsewhere leaves the add to the other; among ties, the earlier add decides */
        { "mul.f32 %f5, %f1, %f2;\nmul.f32 %f6, %f3, %f4;\nadd.f32 %f9, %f6, %f5;", "L3<L2" },
        { "mul.f32 %f5, %f1, %f2;\nmul.f32 %f6, %f3, %f4;\nadd.f32 %f9, %f6, %f5;\n"
          "add.f32 %f7, %f6, %f1;\nadd.f32 %f8, %f6, %f2;\nadd.f32 %f10, %f5, %f4;", "L3<L1 L6<L1" },
        { "mul.f32 %f5, %f1, %f2;\nmul.f32 %f6, %f3, %f4;\nmul.f32 %f7, %f4, %f1;\nadd.f32 %f9, %f6, %f5;\n"
          "add.f32 %f8, %f7, %f6;\nadd.f32 %f10, %f5, %f4;", "L4<L1 L6<L1 L5<L3" },
        { "mul.f32 %f5, %f1, %f2;\nmul.f32 %f6, %f3, %f4;\nadd.f32 %f9, %f5, %f6;\nsub.f32 %f8, %f6, %f5;",
          "L3<L1 L4<L1" },
        { "mul.f32 %f5, %f1, %f2;\nmul.f32 %f6, %f3, %f4;\nsub.f32 %f8, %f6, %f5;\nadd.f32 %f9, %f5, %f6;",
          "L3<L2 L4<L2" },
        /* tied, the first operand of the add they share first (ptxas: fma(f3, f4, P) there); one
         * product per add; ptxas fuses P into L3 too (three FFMA), which is not modelled: warned */
        { "mul.f32 %f5, %f1, %f2;\nmul.f32 %f6, %f3, %f4;\nadd.f32 %f7, %f5, %f1;\nadd.f32 %f9, %f6, %f3;\n"
          "add.f32 %f10, %f6, %f5;", "L4<L2 L5<L2 lost L3" },
        { "mul.f32 %f1, %f1, %f2;\nadd.f32 %f9, %f1, %f3;", "L2<L1" },   /* its operand overwritten: kept */
        /* shfl.sync writes a register as any destination (the product's, after the add) */
        { "mul.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f4;\nshfl.sync.idx.b32 %f5, %f3, 0, 31, -1;\n"
          "st.global.f32 [%rd1], %f5;", "L2<L1" },
        /* a neg.ftz passes only a .ftz product on */
        { "mul.f32 %f5, %f1, %f2;\nneg.ftz.f32 %f6, %f5;\nadd.f32 %f9, %f6, %f3;", "" },
        { "mul.ftz.f32 %f5, %f1, %f2;\nneg.ftz.f32 %f6, %f5;\nadd.ftz.f32 %f9, %f6, %f3;", "L3<L1" },
        /* a product of two constants ptxas computes itself: nothing fused */
        { "mul.f32 %f5, 0f3DCCCCCD, 0f3DCCCCCD;\nadd.f32 %f9, %f5, %f3;", "" },
        { "mov.f32 %f6, 0f3DCCCCCD;\nmul.f32 %f5, %f6, %f6;\nadd.f32 %f9, %f5, %f3;", "" },
        { "mov.f32 %f6, 0f3DCCCCCD;\nmul.f32 %f5, %f6, %f1;\nadd.f32 %f9, %f5, %f3;", "L3<L2" },
        { "add.f64 %d6, 0d3FB999999999999A, 0d3FB999999999999A;\nmul.f64 %d5, %d6, %d6;\nadd.f64 %d7, %d5, %d3;", "" },
        /* atom/red.shared.add.f32 of a mul by a constant, read there only: ptxas fuses it into
         * the compare-and-swap loop it emulates them with */
        { "mul.f32 %f5, %f1, 0f3DCCCCCD;\nneg.f32 %f6, %f5;\nred.shared.add.f32 [%rd1], %f6;", "atomic L3" },
        { "mul.f32 %f5, %f1, %f2;\natom.shared.add.f32 %f6, [%rd1], %f5;", "" },
        /* div.approx/.full.f32: its multiply by the reciprocal fused into the add */
        { "div.approx.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f3, %f5;", "division L2" },
        { "div.approx.ftz.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f3, %f5;", "" },
        { "div.full.f32 %f5, %f1, %f2;\nadd.f32 %f9, %f5, %f3;\nst.global.f32 [%rd1], %f5;", "" },
        { "mul.f32 %f5, %f1, 0f3DCCCCCD;\natom.global.add.f32 %f6, [%rd1], %f5;", "" },
        { "mul.f32 %f5, %f1, 0f3DCCCCCD;\natom.shared.add.f32 %f6, [%rd1], %f5;\nst.global.f32 [%rd1], %f5;", "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char got[256];
        fused_lines(cases[i].body, got, sizeof got);
        ck_assert_msg(!strcmp(got, cases[i].fused), "case %zu: fused '%s', expected '%s'\n%s", i, got, cases[i].fused,
                      cases[i].body);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("exec");
    TCase *tc = tcase_create("warp");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, shfl_every_mode_b_and_c);
    tcase_add_test(tc, contraction_follows_ptxas);
    tcase_add_test(tc, shfl_register_operands_and_in_place);
    tcase_add_test(tc, shf_every_amount);
    tcase_add_test(tc, if_else_arms_meet_at_different_pcs);
    tcase_add_test(tc, half_warp_masks_sync_apart);
    tcase_add_test(tc, exited_lanes_do_not_block_and_read_undefined);
    tcase_add_test(tc, guard_false_lanes_meet_at_their_next_shuffle);
    tcase_add_test(tc, guarded_shuffles_of_different_modes_never_meet);
    tcase_add_test(tc, guarded_ballot_counts_the_votes_of_the_next_one);
    tcase_add_test(tc, guarded_match_and_elect_meet_their_next_instruction);
    tcase_add_test(tc, guard_false_lanes_are_not_checked_for_their_bit);
    tcase_add_test(tc, lanes_wait_at_a_long_loop_exit);
    tcase_add_test(tc, lanes_wait_at_a_loop_exit_placed_before_the_loop);
    tcase_add_test(tc, lanes_wait_after_brx_idx);
    tcase_add_test(tc, spin_lock_makes_progress);
    tcase_add_test(tc, trap_aborts_the_kernel);
    tcase_add_test(tc, deadlock_is_reported);
    tcase_add_test(tc, own_bit_missing_from_membermask);
    tcase_add_test(tc, legacy_shfl_reads_only_lanes_executing_together);
    tcase_add_test(tc, vote_and_activemask);
    tcase_add_test(tc, undefined_values_propagate_and_warn);
    tcase_add_test(tc, partial_warp_and_inactive_lanes);
    tcase_add_test(tc, runaway_loop_stops);
    tcase_add_test(tc, a_loop_back_to_the_same_state_is_a_deadlock);
    tcase_add_test(tc, a_schedule_of_ones_own_runs_every_cta);
    tcase_add_test(tc, the_ctas_of_a_cluster_run_together);
    tcase_add_test(tc, spin_wait_makes_progress);
    tcase_add_test(tc, integer_arithmetic);
    tcase_add_test(tc, float_arithmetic);
    tcase_add_test(tc, compare_and_select);
    tcase_add_test(tc, conversions);
    tcase_add_test(tc, bit_instructions_and_division);
    tcase_add_test(tc, bitfield_immediates_as_ptxas_makes_them);
    tcase_add_test(tc, division_by_zero_gives_the_h100_value_and_warns);
    tcase_add_test(tc, loads_stores_and_atomics);
    tcase_add_test(tc, regions_never_overlap);
    tcase_add_test_raise_signal(tc, growing_a_region_over_another_is_an_internal_error, SIGABRT);
    tcase_add_test(tc, program_regions_do_not_overlap);
    tcase_add_test(tc, out_of_bounds_and_misaligned_accesses_fault);
    tcase_add_test(tc, a_warp_access_may_span_regions_and_fault_part_way);
    tcase_add_test(tc, a_warp_access_keeps_each_byte_defined_or_not);
    tcase_add_test(tc, vector_accesses_are_aligned_to_the_whole_vector);
    tcase_add_test(tc, half_atomic_adds_round_each_half);
    tcase_add_test(tc, vector_atomics_work_element_by_element);
    tcase_add_test(tc, fma_oob_gives_the_h100s_values);
    tcase_add_test(tc, multimem_forms_are_checked);
    tcase_add_test(tc, f32_atomic_add_flushes_subnormals_on_global_memory_only);
    tcase_add_test(tc, atomic_forms_ptx_lacks_are_errors);
    tcase_add_test(tc, thirty_two_bit_addresses_wrap);
    tcase_add_test(tc, match_redux_elect);
    tcase_add_test(tc, barrier_waits_for_the_whole_block);
    tcase_add_test(tc, warps_take_turns_while_one_spins);
    tcase_add_test(tc, warps_shuffle_among_their_own_lanes);
    tcase_add_test(tc, barrier_red_counts_threads_and_combines_predicates);
    tcase_add_test(tc, barrier_red_with_an_undefined_predicate_is_undefined);
    tcase_add_test(tc, barrier_for_all_threads_is_completed_by_exits);
    tcase_add_test(tc, barrier_thread_count_phases);
    tcase_add_test(tc, block_shape_can_change);
    tcase_add_test(tc, every_cta_starts_from_the_given_registers);
    tcase_add_test(tc, a_cta_number_beyond_32_bits_names_its_place);
    tcase_add_test(tc, a_grid_on_threads_does_not_copy_memory_it_does_not_write);
    tcase_add_test(tc, a_grid_on_threads_that_does_not_stand_puts_every_byte_back);
    tcase_add_test(tc, a_buffer_given_whole_gets_shadow_bytes_when_written);
    tcase_add_test(tc, a_grid_on_threads_keeps_its_record_within_its_budget);
    tcase_add_test(tc, mov_packs_and_unpacks);
    tcase_add_test(tc, carry_chains);
    tcase_add_test(tc, json_trace_names_sources);
    tcase_add_test(tc, unsupported_instructions_are_reported_before_running);
    tcase_add_test(tc, texture_linear_filtering_by_hand);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
