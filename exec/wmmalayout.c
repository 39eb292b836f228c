/* wmmalayout.c: wmma's shapes, its fragments' sizes, and which element of which matrix each
 * register of each lane holds. The PTX ISA leaves wmma's fragment layout unspecified. For f16
 * m16n16k16 (A, B f16; C, D f32) it is what an H100 showed (../shared/hw/mma, the wmma_* cases:
 * every fragment register of every lane, in five layout combinations and strides 16 and 24):
 * the fragments of the two mma.m16n8k16 the JIT makes of it (two HMMA.16816), A's first four
 * registers again in the last four, B's n 0-7 tile then its n 8-15 tile, again; C and D the n
 * 0-7 tile then the n 8-15 tile; the same whatever the .row/.col of the memory. The other shapes
 * and types are not recorded: their layouts are derived the same way, from the mma.sync form
 * that does the same arithmetic (m16n8k16 for 16-bit and 8-bit A and B, m16n8k8 for tf32, and
 * m8n8k4 f64, m8n8k32 s4/u4, m8n8k128 b1 as they are), tiles along m (m32n8k16) or n
 * (m16n16k*), m8n32k16 as the transpose of m32n8k16 (D^T = B^T A^T: its B plays A). f16 A and B
 * fragments are eight registers in every shape, as the ISA gives them: the elements that do not
 * fill them are repeated. docs/semantics.md, "wmma". */
#include "tensor.h"

/* The m, n, k of each WmmaShape. */
void wmma_dims(unsigned shape, unsigned *m, unsigned *n, unsigned *k)
{
    static const uint8_t dims[][3] = { [WMMA_M16N16K16] = { 16, 16, 16 }, [WMMA_M32N8K16] = { 32, 8, 16 },
                                       [WMMA_M8N32K16] = { 8, 32, 16 }, [WMMA_M16N16K8] = { 16, 16, 8 },
                                       [WMMA_M8N8K4] = { 8, 8, 4 }, [WMMA_M8N8K32] = { 8, 8, 32 },
                                       [WMMA_M8N8K128] = { 8, 8, 128 } };
    *m = dims[shape][0];
    *n = dims[shape][1];
    *k = dims[shape][2];
}

/* Rows and columns of matrix which ('a': m x k, 'b': k x n, 'c' and 'd': m x n). */
void wmma_matrix_dims(unsigned shape, char which, unsigned *rows, unsigned *cols)
{
    unsigned m, n, k;
    wmma_dims(shape, &m, &n, &k);
    *rows = which == 'a' ? m : which == 'b' ? k : m;
    *cols = which == 'a' ? k : n;
}

/* Whether type is an element type of matrix which in shape (the PTX ISA's wmma tables). */
bool wmma_type_fits(unsigned shape, char which, int type)
{
    bool ab = which == 'a' || which == 'b';
    switch (shape) {
    case WMMA_M16N16K16: case WMMA_M32N8K16: case WMMA_M8N32K16:
        return ab ? type == TYPE_F16 || type == TYPE_BF16 || type == TYPE_S8 || type == TYPE_U8
                  : type == TYPE_F16 || type == TYPE_F32 || type == TYPE_S32;
    case WMMA_M16N16K8: return type == (ab ? TYPE_TF32 : TYPE_F32);
    case WMMA_M8N8K4: return type == TYPE_F64;
    case WMMA_M8N8K32: return ab ? type == TYPE_S4 || type == TYPE_U4 : type == TYPE_S32 || type == TYPE_F32;
    default: return ab ? type == TYPE_B1 : type == TYPE_S32 || type == TYPE_F32;   /* .f32: ptxas takes it */
    }
}

/* Registers of a fragment of matrix which with elements of type (.b64 for f64, else .b32). */
unsigned wmma_regs(unsigned shape, char which, int type)
{
    if (type == TYPE_F16)
        return which == 'a' || which == 'b' ? 8 : 4;
    unsigned rows, cols;
    wmma_matrix_dims(shape, which, &rows, &cols);
    return rows * cols / WARP_SIZE * type_info[type].bits / (type == TYPE_F64 ? 64 : 32);
}

/* Elements a lane's fragment holds, repeats included. */
unsigned wmma_elements(unsigned shape, char which, int type)
{
    return wmma_regs(shape, which, type) * (type == TYPE_F64 ? 64 : 32) / type_info[type].bits;
}

/* The fragment of the mma.sync form underneath: elements of A and of B a lane holds. */
static unsigned base_count(char which, int type)
{
    switch (type) {
    case TYPE_F16: case TYPE_BF16: case TYPE_S8: case TYPE_U8: return which == 'a' ? 8 : 4;
    case TYPE_TF32: return which == 'a' ? 4 : 2;
    case TYPE_F64: return 1;
    case TYPE_S4: case TYPE_U4: return 8;
    default: return 32;                       /* b1 */
    }
}

/* Element j of a lane's A or B fragment of that mma.sync form (PTX ISA, "Matrix fragments for
 * mma.m16n8k16 / m16n8k8 / m8n8k4 / m8n8k32 / m8n8k128"), g = lane >> 2, t = lane & 3. */
static void base_ab(char which, int type, unsigned g, unsigned t, unsigned j, unsigned *row, unsigned *col)
{
    unsigned r, c;                            /* of A: row in m, column in k */
    switch (type) {
    case TYPE_F16: case TYPE_BF16:
        if (which == 'a') {
            r = g + 8 * ((j >> 1) & 1);
            c = 2 * t + (j & 1) + 8 * (j >> 2);
        } else {
            r = g;
            c = 2 * t + (j & 1) + 8 * (j >> 1);
        }
        break;
    case TYPE_S8: case TYPE_U8:
        r = which == 'a' ? g + 8 * (j >> 2) : g;
        c = 4 * t + (which == 'a' ? (j & 3) : j);
        break;
    case TYPE_TF32:
        r = which == 'a' ? g + 8 * (j & 1) : g;
        c = which == 'a' ? t + 4 * (j >> 1) : t + 4 * j;
        break;
    case TYPE_F64: r = g; c = t; break;
    case TYPE_S4: case TYPE_U4: r = g; c = 8 * t + j; break;
    default: r = g; c = 32 * t + j; break;   /* b1 */
    }
    *row = which == 'a' ? r : c;              /* B: row in k, column in n (g) */
    *col = which == 'a' ? c : r;
}

void wmma_layout(unsigned shape, char which, int type, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3;
    if (shape == WMMA_M8N32K16) {             /* D^T = B^T A^T, an m32n8k16: its A is our B^T */
        char other = which == 'a' ? 'b' : which == 'b' ? 'a' : which;
        wmma_layout(WMMA_M32N8K16, other, type, lane, i, col, row);
        return;
    }
    if (which == 'c' || which == 'd') {
        if (shape == WMMA_M8N8K4 || shape == WMMA_M8N8K32 || shape == WMMA_M8N8K128) {
            *row = g;
            *col = 2 * t + i;
            return;
        }
        unsigned j = i & 3, tile = i >> 2;    /* the m16n8 C fragment, c0..c3, per tile */
        *row = g + 8 * (j >> 1) + (shape == WMMA_M32N8K16 ? 16 * tile : 0);
        *col = 2 * t + (j & 1) + (shape == WMMA_M32N8K16 ? 0 : 8 * tile);
        return;
    }
    unsigned count = base_count(which, type), tile = (i / count) & 1;
    base_ab(which, type, g, t, i % count, row, col);
    if (shape == WMMA_M32N8K16 && which == 'a')
        *row += 16 * tile;                    /* rows 16-31: the second m16n8k16 */
    else if ((shape == WMMA_M16N16K16 || shape == WMMA_M16N16K8) && which == 'b')
        *col += 8 * tile;                     /* columns 8-15: the second one */
}
