/* tensor.h: the tensor-core instructions: mma.sync (mma.c) and its arithmetic (mma884.c,
 * mmasp.c, mmafloat.c, mmafp8.c), wmma (wmma.c, wmmalayout.c), ldmatrix, stmatrix, movmatrix
 * (matrix.c), and their matrices shown for --matrix and --trace (mmaview.c, mmasource.c,
 * tracefrag.c). */
#ifndef PTXRUN_TENSOR_H
#define PTXRUN_TENSOR_H

#include "block.h"

/* mma.c: mma.sync.aligned. The form of one mma, decoded once when lowered (Program.mma_forms,
 * indexed by its XInstr.target); forms not run yet are refused then. */
void mma_lower(Loader *ld, const Instr *in, XInstr *x);
void mma_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true);
/* The words of a tensor-core mnemonic after its opcode (mma, wgmma.mma_async), read one at a time
 * by mma_word: the shape, the types in their order, and the flag words seen. */
typedef struct MmaWords {
    unsigned m, n, k, ntypes;
    uint8_t types[4];
    bool sync, aligned, satfinite, rn, popc, and_, xor_;
} MmaWords;
/* One word into s: the shape, a type, or a flag word not seen yet (.and and .xor exclude each
 * other); false for any other word, a second shape or a fifth type. */
bool mma_word(MmaWords *s, const char *word);
unsigned mma_type_bits(unsigned t);
bool mma_form_runs(const MmaForm *f);       /* whether ptxrun runs its arithmetic (else refused) */
/* Element i of lane's fragment of 'a', 'b', 'c' or 'd' of f: its row and column. */
void mma_layout(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col);
/* One element of D: a[0..k-1] a row of A, b[0..k-1] a column of B, c: raw bits of each element
 * (in the low bits); D's raw bits. *nan_choice: the H100's bits unrecorded (f64: two different
 * NaNs met; f16/bf16/tf32: mmaf_dot's *unrecorded). */
uint64_t mma_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c, bool *nan_choice);
/* mma884.c: m8n8k4 with .f16 A and B: four 8x8x4 products, one per quad-pair of lanes, their
 * matrices stacked (pair p: A's rows, B's columns, C's rows 8p..8p+7); one element of D. */
bool mma884_form(const MmaForm *f);
void mma884_layout(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col);
uint64_t mma884_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c);
/* {d...}, {a...}, {b...}, {c...} of an mma: count registers of bits bits (immediates in sources)
 * into rows, 32-bit ones of a kind ptxas takes for elements of MmaType t; false if not that. */
bool mma_vector_rows(Loader *ld, const Operand *o, unsigned count, unsigned bits, unsigned t, bool dst, uint32_t *rows);
/* Element i of a fragment held in regs (lane l), of bits bits: its raw bits; *undef: any undefined. */
uint64_t mma_element(const Warp *w, const uint32_t *regs, unsigned l, unsigned i, unsigned bits, bool *undef);
/* x's form f appended to Program.mma_forms (its total rows just written at the end of mma_rows) */
void mma_add_form(Program *p, MmaForm f, unsigned total, XInstr *x);
/* D (raw bits and undefined, element (i, j) at i * stride + j) into the D registers d, each
 * element's bits defined or not on their own; all undefined when the guard is */
void mma_scatter(Warp *w, const XInstr *x, const MmaForm *f, const uint32_t *d, const uint64_t *D,
                 const bool *undefined, unsigned stride);
/* mmasp.c: mma.sp and mma.sp::ordered_metadata (forms with flags MMA_SPARSE; fp8 refused when
 * lowered). mma_rows after C: the metadata register's row, the selector's. */
void mmasp_lower(Loader *ld, const Instr *in, XInstr *x);
void mmasp_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true);
void mmasp_layout_b(const MmaForm *f, unsigned lane, unsigned i, unsigned *row, unsigned *col);
/* Element i of lane's fragment of 'a' (the compressed m x k/2), 'b', 'c' or 'd' of a sparse f */
void mmasp_layout(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col);
/* The view's sparse part (v laid out by mmaview_lay_out with mmasp_layout, A read or not): the
 * metadata as the registers hold it now, A packed and made dense (MatrixView) */
void mmasp_view(const Warp *w, const XInstr *x, MatrixView *v);
/* The metadata nibble of chunk j of A's row r: lane and first bit, with threads of each group of
 * four giving metadata and the selector. */
void mmasp_meta_at(unsigned threads, unsigned selector, unsigned r, unsigned j, unsigned *lane, unsigned *bit);
/* The dense columns of chunk j's kept elements into pos (by compressed column), by its nibble
 * (A's element bits); false for a value the PTX ISA leaves undefined. */
bool mmasp_place(unsigned abits, bool ordered, unsigned nibble, unsigned j, uint8_t *pos);
/* mmafloat.c: one D element of an mma with f16, bf16 or tf32 A and B (f32 or f16 C and D), as
 * the H100 computes it; a, b: k elements, c: C's raw bits; D's raw bits. unrecorded: NULL, or
 * set when the bits rest on a choice no recording decides (docs/semantics.md) and another
 * choice would give other bits. */
uint64_t mmaf_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c, bool *unrecorded);
/* mmaf_terms: count elements of A or B (type) decoded once; mmaf_dot_terms: mmaf_dot's D element
 * from a row of A's and a column of B's terms (mma.c decodes each element once per mma). */
typedef struct MmafTerm { uint32_t sig; int16_t align; uint8_t sign, kind; } MmafTerm;
void mmaf_terms(unsigned type, const uint64_t *raw, unsigned count, MmafTerm *out);
uint64_t mmaf_dot_terms(const MmaForm *f, const MmafTerm *x, const MmafTerm *y, uint64_t c, bool *unrecorded);
/* mmafp8.c: one D element of an mma with e4m3/e5m2 A and B (f32 or f16 C and D), as ptxas's
 * sm_90 code computes it on the H100 (two f16 HMMA, then C added); mma8_recorded: whether the
 * form's arithmetic was recorded on the H100 (mma.c warns when another one runs). */
uint64_t mma8_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c);
bool mma8_recorded(const MmaForm *f);
/* mma8_terms: a row of A or column of B (k fp8 elements of type) as the f16 terms of the two
 * HMMA, those with k % 4 < 2 first; mma8_dot_terms: mma8_dot's D element from them. */
void mma8_terms(unsigned type, const uint64_t *raw, unsigned k, MmafTerm *out);
uint64_t mma8_dot_terms(const MmaForm *f, const MmafTerm *x, const MmafTerm *y, uint64_t c);

/* wmma.c, wmmalayout.c: wmma.load, wmma.mma, wmma.store (x->mode: a WmmaShape). */
enum { WMMA_M16N16K16 = 1, WMMA_M32N8K16, WMMA_M8N32K16, WMMA_M16N16K8, WMMA_M8N8K4, WMMA_M8N8K32, WMMA_M8N8K128 };
void wmma_lower(Loader *ld, const Instr *in, XInstr *x);
void wmma_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true);
void wmma_warn_fragments(const Program *p, Diag *diag);   /* other instructions naming a fragment's register */
void wmma_dims(unsigned shape, unsigned *m, unsigned *n, unsigned *k);
void wmma_matrix_dims(unsigned shape, char which, unsigned *rows, unsigned *cols);
bool wmma_type_fits(unsigned shape, char which, int type);
unsigned wmma_regs(unsigned shape, char which, int type);
unsigned wmma_elements(unsigned shape, char which, int type);
/* element i of lane's fragment of matrix which ('a', 'b', 'c' or 'd') of elements of type */
void wmma_layout(unsigned shape, char which, int type, unsigned lane, unsigned i, unsigned *row, unsigned *col);
/* wmma.mma's form (Program.mma_forms: its m, n, k and types, D A B C rows): element i of lane's
 * fragment of 'a', 'b', 'c' or 'd' (a MatrixPlace, for --matrix and --trace) */
void wmma_place(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col);

/* wgmma.c: wgmma.fence, .mma_async, .commit_group, .wait_group (x->mode, negate: its immediates;
 * its form in Program.mma_forms: D rows, A's 4 registers or descriptor, B's descriptor). Each
 * warp's pending results live in Warp.wgmma (wgmma_release: block.h). */
void wgmma_lower(Loader *ld, const Instr *in, XInstr *x);
void wgmma_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true);
/* wgmmadesc.c: a matrix descriptor's fields (addresses in bytes in .shared) */
typedef struct WgmmaDesc { uint64_t start, lbo, sbo; unsigned base, swizzle; } WgmmaDesc;
unsigned wgmmadesc_width(unsigned swizzle);    /* the swizzle's width in 16-byte chunks: 1 (none), 2, 4, 8 */
/* The .shared address of the 16-byte chunk holding element (mn, k) of the matrix d describes
 * (K-major, or MN-major), elements of bits bits: its canonical layout, then the swizzle. */
uint64_t wgmmadesc_chunk(const WgmmaDesc *d, bool mn_major, unsigned bits, unsigned mn, unsigned k);
/* Rows row0.. row0 + rows - 1 (M or N) of the matrix the descriptor in desc_row describes, k
 * elements each, into out[r * k + kk]; und[r]: an undefined bit in row r. False after a fault. */
bool wgmmadesc_gather(Warp *w, const XInstr *x, uint32_t desc_row, const char *what, bool mn_major, unsigned bits,
                      unsigned row0, unsigned rows, unsigned k, uint64_t *out, bool *und);

/* matrix.c: ldmatrix, stmatrix, movmatrix for the whole warp (at: NULL when lanes came from different pcs) */
void matrix_ldmatrix(Warp *w, const XInstr *at, uint32_t lanes);
void matrix_stmatrix(Warp *w, const XInstr *at, uint32_t lanes);
void matrix_movmatrix(Warp *w, const XInstr *at, uint32_t lanes);
/* mmaview.c: a matrix instruction's execution as a MatrixView (--matrix). mmaview_begin, before
 * the instruction writes D (NULL unless ExecOptions.on_matrix is set), reads A, B, C by the form
 * and the layout the caller gives (place: element i of lane's fragment of 'a', 'b', 'c' or 'd');
 * mmaview_end, after it, reads D and hands the view to on_matrix. */
typedef void (*MatrixPlace)(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col);
typedef struct MatrixSource {
    const MmaForm *form;
    const uint32_t *rows;      /* D, A, B, C */
    MatrixPlace place;         /* 'd': D's places */
    unsigned products;         /* MatrixView.products */
} MatrixSource;
MatrixView *mmaview_begin(const Warp *w, const XInstr *x, const MatrixSource *s);
void mmaview_end(MatrixView *v);
void mmaview_lay_out(const Warp *w, const XInstr *x, const MatrixSource *s, MatrixView *v);   /* places only */
void mmaview_free(MatrixView *v);
const char *mmaview_row_name(const Program *p, const XInstr *x, uint32_t row);   /* NULL: not a register */
/* mmasource.c: whether x gives a view, and its places (--trace; mmaview_free frees it) */
bool mmasource_has(const Program *p, const XInstr *x);
bool mmasource_layout(const Warp *w, const XInstr *x, MatrixView *v);
/* tracefrag.c: --trace's fragments of a matrix instruction, lane by lane (json: members) */
void tracefrag_step(FILE *out, const Warp *w, const XInstr *x, bool json);
/* mma_execute, D worked out (d: m x n raw bits, row after row; undefined: per element, or all
 * of them), before D is written: the view to ExecOptions.on_matrix */
void mmaview_mma(const Warp *w, const XInstr *x, const uint64_t *d, const bool *undefined, bool all_undefined);

#endif
