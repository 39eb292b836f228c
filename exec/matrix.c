/* matrix.c: the warp's 8x8 matrices of .b16 elements: ldmatrix, stmatrix, movmatrix (.m8n8,
 * .x1/.x2/.x4, .trans), as the PTX ISA gives their fragments and an H100 showed them
 * (../shared/hw/mma/README.md): matrix j's row r is at the address of lane 8j+r; lane l holds
 * row l>>2, columns 2(l&3) and 2(l&3)+1 of it in one .b32 register, the lower column in the
 * low half (.trans: the element of the transposed matrix). Addresses of lanes past 8*count are
 * not used. They run when the whole warp has arrived (sync.c, membermask all lanes); each row
 * is one 16-byte access through mem_locate (faults, 16-byte alignment, definedness). */
#include <string.h>

#include "family.h"
#include "tensor.h"

/* Matrices of x (.x1/.x2/.x4; movmatrix: 1). */
static unsigned matrix_count(const XInstr *x)
{
    return x->op == OP_MOVMATRIX ? 1u : x->elements;
}

/* The lanes of the warp that are not at this instruction (exited, or past the block's end) give
 * no address; a .aligned instruction reached at different pcs is a fault. False after a fault. */
static bool matrix_rows_ready(Warp *w, const XInstr *at, uint32_t lanes, unsigned count, uint32_t *rows)
{
    if (!at) {
        uint32_t pc = w->arrival[__builtin_ctz(lanes)].pc;
        report_fault(w, pc, "'%s' is .sync.aligned: the warp's lanes reached it at different instructions",
                     w->prog->code[pc].ir->mnemonic);
        return false;
    }
    uint32_t used = count >= 4 ? ALL_LANES : (1u << (8 * count)) - 1;
    uint32_t pc = (uint32_t)(at - w->prog->code);
    if ((used & ~lanes) != 0) {
        report_fault(w, pc, "lane %d (pc %u): '%s' needs the row address of lane %d, which has exited",
                     __builtin_ctz(lanes), pc, at->ir->mnemonic, __builtin_ctz(used & ~lanes));
        return false;
    }
    *rows = used;
    return mem_address_defined(w, at, used, pc);
}

/* One row of 16 bytes at lane l's address, through mem_locate; a generic address must fall in
 * .shared (the PTX ISA: ldmatrix and stmatrix access shared memory only; elsewhere the result
 * is undefined), else a fault. NULL after a fault. */
static uint8_t *matrix_row(Warp *w, const XInstr *at, int l, bool store, uint8_t **shadow)
{
    uint64_t address = mem_lane_address(w, at, l), in_space;
    if (at->space == SPACE_NONE && mem_space_of(address, &in_space) != SPACE_SHARED) {
        uint32_t pc = (uint32_t)(at - w->prog->code);
        report_fault(w, pc, "lane %d (pc %u): '%s' %s a row at 0x%llx, a generic address outside .shared (%s): "
                     "the PTX ISA gives these instructions shared memory only", l, pc, at->ir->mnemonic,
                     store ? "writes" : "reads", (unsigned long long)address,
                     mem_space_name(mem_space_of(address, &in_space)));
        return NULL;
    }
    return mem_locate(w, at, l, address, 16, store, shadow);
}

/* Element k (0, 1) of lane l's register of one matrix: its row and column, given .trans. */
static void matrix_place(int l, unsigned k, bool trans, unsigned *row, unsigned *col)
{
    unsigned r = (unsigned)l >> 2, c = 2 * ((unsigned)l & 3) + k;
    *row = trans ? c : r;
    *col = trans ? r : c;
}

void matrix_ldmatrix(Warp *w, const XInstr *at, uint32_t lanes)
{
    unsigned count = at ? matrix_count(at) : 1;
    uint32_t rows;
    if (!matrix_rows_ready(w, at, lanes, count, &rows))
        return;
    uint8_t data[32][16], shadow[32][16];
    for (uint32_t k = rows; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint8_t *s;
        uint8_t *p = matrix_row(w, at, l, false, &s);
        if (!p)
            return;
        memcpy(data[l], p, 16);
        memcpy(shadow[l], s, 16);
    }
    bool trans = at->trans;
    for (unsigned j = 0; j < count; j++) {
        uint32_t row = at->dsts[j];
        if (row == NO_SLOT)
            continue;
        for (uint32_t m = lanes; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            uint64_t v = 0, d = 0;
            for (unsigned e = 0; e < 2; e++) {
                unsigned r, c;
                matrix_place(l, e, trans, &r, &c);
                const uint8_t *b = data[8 * j + r] + 2 * c, *sb = shadow[8 * j + r] + 2 * c;
                v |= (uint64_t)(b[0] | b[1] << 8) << (16 * e);
                d |= (uint64_t)(sb[0] | sb[1] << 8) << (16 * e);
            }
            w->val[row][l] = v;
            warp_define_bits(w, row, l, d, 32);
        }
    }
}

void matrix_stmatrix(Warp *w, const XInstr *at, uint32_t lanes)
{
    unsigned count = at ? matrix_count(at) : 1;
    uint32_t rows;
    if (!matrix_rows_ready(w, at, lanes, count, &rows))
        return;
    uint8_t *data[32], *shadow[32];
    for (uint32_t k = rows; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        data[l] = matrix_row(w, at, l, true, &shadow[l]);
        if (!data[l])
            return;
    }
    uint32_t twice = 0;            /* used lanes naming a row an earlier one names */
    for (uint32_t k = rows; k; k &= k - 1)
        for (uint32_t m = rows & ((1u << __builtin_ctz(k)) - 1); m; m &= m - 1)
            if (data[__builtin_ctz(m)] == data[__builtin_ctz(k)])
                twice |= 1u << __builtin_ctz(k);
    if (twice)
        report_warn(w, (uint32_t)(at - w->prog->code), twice,
                    "'stmatrix': a row named again, after an earlier lane (which element lands there the PTX "
                    "ISA does not say; ptxrun keeps the last write, matrix by matrix, lane by lane),");
    bool trans = at->trans;
    for (unsigned j = 0; j < count; j++) {
        uint32_t src = at->vec[j];
        for (int l = 0; l < WARP_SIZE; l++) {
            bool here = lanes >> l & 1;
            uint64_t v = here ? w->val[src][l] : 0, d = here ? warp_dbits(w, src, l) : 0;
            for (unsigned e = 0; e < 2; e++) {
                unsigned r, c;
                matrix_place(l, e, trans, &r, &c);
                mem_put(&w->block->mem, data[8 * j + r] + 2 * c, shadow[8 * j + r] + 2 * c, v >> 16 * e, d >> 16 * e,
                        2);
            }
        }
    }
}

/* movmatrix: lane l's d gets element (l>>2, 2(l&3)+k) of the transpose, held by the lane that
 * has (2(l&3)+k, l>>2) of the source. A source lane not here (exited) gives undefined bits. */
void matrix_movmatrix(Warp *w, const XInstr *at, uint32_t lanes)
{
    if (!matrix_rows_ready(w, at, ALL_LANES, 0, &(uint32_t){0}))
        return;
    uint32_t src = at->src[0], dst = at->dst;
    uint64_t v[WARP_SIZE], d[WARP_SIZE];
    for (int l = 0; l < WARP_SIZE; l++) {
        bool here = lanes >> l & 1;
        v[l] = here ? w->val[src][l] : 0;
        d[l] = here ? warp_dbits(w, src, l) : 0;
    }
    for (uint32_t m = lanes; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t out = 0, def = 0;
        for (unsigned e = 0; e < 2; e++) {
            unsigned r, c;
            matrix_place(l, e, true, &r, &c);     /* the source element (r, c) */
            int from = (int)(4 * r + c / 2);
            unsigned half = 16 * (c & 1);
            out |= ((v[from] >> half) & 0xffff) << (16 * e);
            def |= ((d[from] >> half) & 0xffff) << (16 * e);
        }
        w->val[dst][l] = out;
        warp_define_bits(w, dst, l, def, 32);
    }
}
