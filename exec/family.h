/* family.h: the executors of the instruction families that warp.c hands each step to (alu.c,
 * bitops.c, video.c, mathops.c, half.c, convert.c, pack.c, wide.c, surface.c, texture.c,
 * warpops.c, mem.c's ld/st, atomic.c, multimem.c) and what they share: definedness bit by bit
 * (vbits.c), the H100's approximations (approx.c), texture sampling (sample.c), values as text
 * (format.c). The tensor-core instructions are in tensor.h. */
#ifndef PTXRUN_FAMILY_H
#define PTXRUN_FAMILY_H

#include "block.h"

/* vbits.c: definedness bit by bit. The defined bits of a result from those of its inputs
 * (da, db; all ones where defined), width bits wide: a Kernels op (KOP_*) a op b; every bit or
 * none; a conversion that truncates or extends (zero or sign). */
uint64_t vbits_binary(unsigned kop, uint64_t a, uint64_t da, uint64_t b, uint64_t db, unsigned width);
uint64_t vbits_whole(uint64_t da, uint64_t db, unsigned width);
uint64_t vbits_convert(uint64_t da, unsigned from, unsigned to, bool sign);
/* An ALU instruction's lanes of mask where a source is not defined in every bit (defined: the
 * lanes where all are): their results' defined bits into dbits, read before the destination is
 * written; vbits_define_partial then gives those lanes those bits. */
uint32_t vbits_partial_results(const Warp *w, const XInstr *x, uint32_t mask, uint32_t defined, uint64_t *dbits);
void vbits_define_partial(Warp *w, const XInstr *x, uint32_t lanes, const uint64_t *dbits);
void vbits_define_row(Warp *w, uint32_t row, uint32_t lanes, const uint64_t *dbits, unsigned width);

/* alu.c: integer, float, logic, compare, select and move, over the lanes of mask. */
void alu_execute(Warp *w, const XInstr *x, uint32_t mask);
void alu_kernel_forms(XInstr *x);                                 /* lower.c: sets kop and kcmp */
void alu_kernel(Warp *w, const XInstr *x, uint32_t mask);         /* one with kop or kcmp */
void pack_execute(Warp *w, const XInstr *x, uint32_t mask);     /* pack.c: mov packing, unpacking, mov.v4 */
/* wide.c: .b128 registers (two rows each): lowering their instructions; atom128.c: atom's 16 bytes */
void wide_lower(Loader *ld, const Instr *in, XInstr *x);
bool wide_other_ok(Loader *ld, const Instr *in);
void atom128_lane(Warp *w, const XInstr *x, int lane, uint8_t *p, uint8_t *shadow);

/* bitops.c: popc clz bfind brev bfe bfi prmt lop3 bmsk szext, integer div and rem. */
void bitops_execute(Warp *w, const XInstr *x, uint32_t mask);
void bitops_field_rule(const Program *p, XInstr *x, bool data_known);   /* fold.c: sets field_rule */

/* video.c: the video instructions, scalar and SIMD. */
void video_execute(Warp *w, const XInstr *x, uint32_t mask);
void video_lower(XInstr *x, const Instr *in);           /* lower.c: selectors, negations, modes */

/* sample.c: what a texture read samples (the CUDA guide's "Texture Fetching"). */
typedef struct TexSample {
    double value[4];           /* filtered (linear filtering, normalized reads, blended levels) */
    uint64_t bits[4];          /* nearest-point: the texel's bits */
    uint64_t dbits[4];         /* all ones: defined */
    bool filtered;             /* value holds the result, else bits */
    bool warn_weight, warn_convert, warn_level, off_face;
    uint8_t compare;           /* depth compare (a Sampler.compare), 0: none; ref the value */
    double ref;
} TexSample;
/* Depth compare (tex, tld4 with f): 1.0 where reference ref and the texel's value pass the
 * sampler's comparison (OpenGL's reading: ref OP texel), else 0.0. */
double sample_depth_test(const Image *im, int compare, double ref, uint64_t bits);
/* A normalized coordinate of dimension d under the sampler's wrap or mirror addressing. */
double sample_address(const Sampler *sm, unsigned d, double v);
/* Sample at coordinates u (addressed; texels, or normalized ones or a cube face's in [0, 1]),
 * layer, multisample sample smp, level of detail lod (mipmaps). */
void sample_texture(const Warp *w, const Image *im, const Sampler *sm, const double u[3], int64_t layer,
                    uint32_t smp, double lod, bool face, TexSample *s);
bool sample_cube_face(const double v[3], double uv[2], unsigned *face);
double sample_grad_lod(const Image *im, const Sampler *sm, const double dx[3], const double dy[3]);
bool sample_gather(const Warp *w, const Image *im, const Sampler *sm, const double u[2], int64_t layer, bool face,
                   unsigned c, uint64_t bits[4], uint64_t dbits[4]);

/* surface.c and texture.c: textures and surfaces. image_lower decodes their suffixes for lower.c:
 * the geometry, the out-of-range mode, the query, the coordinates and registers they take. */
void image_lower(XInstr *x, const Instr *in);
/* The image lane l's handle names, a surface or a texture, with the instruction's geometry and
 * defined coordinates; NULL after reporting a fault. */
const Image *image_for(Warp *w, const XInstr *x, int l, bool surface);
void surface_execute(Warp *w, const XInstr *x, uint32_t mask);     /* suld sust sured suq */
void texture_execute(Warp *w, const XInstr *x, uint32_t mask);     /* tex tld4 txq istypep */

/* mathops.c: float div rcp sqrt rsqrt sin cos lg2 ex2 tanh, copysign, testp, slct. */
void mathops_execute(Warp *w, const XInstr *x, uint32_t mask);
/* approx.c: the H100's .approx/.full results (op an OP_ code; f32 operands and result as bits). */
uint32_t approx_f32(int op, bool full, bool ftz, uint32_t a, uint32_t b);
uint64_t approx_f64(int op, bool ftz, uint64_t a);     /* rcp.approx.ftz.f64, rsqrt.approx[.ftz].f64 */
uint32_t approx_half(int op, int type, bool ftz, uint32_t a);   /* ex2, tanh of one f16 or bf16 */

/* half.c: f16, bf16 (alone and in pairs), tf32, e4m3, e5m2: arithmetic, compares, rounding. */
enum { HALF_FTZ = 1, HALF_SAT = 2, HALF_RELU = 4, HALF_NAN = 8, HALF_XORSIGN = 16, HALF_OOB = 32 };   /* half_op flags */
uint32_t half_op(int op, int type, unsigned flags, uint32_t a, uint32_t b, uint32_t c);   /* one 16-bit half */
bool half_compare(int cmp, int type, bool ftz, uint32_t a, uint32_t b);
double half_decode(uint32_t v, int type);                     /* exact; NaN for any NaN */
bool half_is_nan(uint32_t v, int type);
uint32_t half_encode(double v, int type, int mode, bool satfinite);   /* v exact or rounded to odd */
double half_sum_to_odd(double a, double b);                   /* a + b rounded to odd */
bool half_tiny(double v, unsigned frac, int emin, int mode);  /* .ftz: tiny after rounding (IEEE 754) */
bool half_type(int type);                                     /* f16 f16x2 bf16 bf16x2 */
bool half_executes(const XInstr *x);                          /* lower.c: an ALU instruction for half.c */
void half_execute(Warp *w, const XInstr *x, uint32_t mask);

/* convert.c */
void convert_execute(Warp *w, const XInstr *x, uint32_t mask);
bool convert_narrow_form(int to, int from, bool relu, bool satfinite, int rounding, unsigned operands);
double convert_small_to_double(uint64_t bits, int type);     /* f16, bf16 */
bool convert_is_nan(uint64_t bits, int type);                  /* f16, bf16, f32, f64 */
uint64_t convert_nan(uint64_t bits, int from, int to);         /* a NaN in another format, quieted */
double float_from_bits(uint64_t bits, unsigned width, bool ftz);   /* f32 (flushed if ftz) or f64 */
uint64_t float_to_bits(double v, unsigned width, bool ftz);        /* rounded in the current mode; NaN canonical */
uint64_t convert_double_to_small(double v, int type);        /* rounded to nearest even */

/* format.c: one value as text in its type. */
void format_value(char *buf, size_t size, uint64_t bits, int type);       /* as the table shows it */
void format_json_value(char *buf, size_t size, uint64_t bits, int type);  /* as --json writes it */
void format_wide_bits(char *buf, size_t size, const uint64_t v[2], const uint64_t d[2], bool json);  /* 128 bits */
void format_wide(char *buf, size_t size, const Warp *w, uint32_t row, int lane, bool json);  /* a .b128 register */
void format_partial(char *buf, size_t size, uint64_t bits, uint64_t dbits, unsigned width);  /* "0x0000??00" */

/* warpops.c: the exchange instructions, for the lanes that complete them together. */
/* at: the instruction when every lane runs the same one; NULL: each lane's own, found through
 * arrival[lane].pc (lanes that met from different pcs). */
/* The sources of shfl mode `mode` with b and c in each lane (uniform: lane 0's for all);
 * returns the lanes in range. */
uint32_t warpops_shfl_sources(int mode, const uint64_t *b, const uint64_t *c, bool uniform, int8_t src[WARP_SIZE]);
void warpops_shfl_tables(Program *p);     /* lower.c: the tables of shfl with immediate b and c */
void warpops_shfl(Warp *w, const XInstr *at, uint32_t lanes, uint32_t participants, uint32_t guard_true);
void warpops_vote(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true);
void warpops_shf(Warp *w, const XInstr *x, uint32_t mask);
void warpops_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true);   /* shfl, vote, activemask, shf, mma */
void warpops_match(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true);
void warpops_redux(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true);
void warpops_elect(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true);

/* mem.c: ld, st and cvta (the regions they reach are memory.h's) */
void mem_execute(Warp *w, const XInstr *x, uint32_t mask);     /* ld, st, cvta */
/* For atomic.c and multimem.c: the checks and bytes of one lane's access. */
bool mem_address_defined(Warp *w, const XInstr *x, uint32_t mask, uint32_t pc);   /* else a fault */
uint64_t mem_lane_address(const Warp *w, const XInstr *x, int lane);   /* [base + offset] */
/* The size bytes at address (aligned to size, in one region, writable if store) and their
 * shadow; NULL after a fault. */
uint8_t *mem_locate(Warp *w, const XInstr *x, int lane, uint64_t address, unsigned size, bool store,
                    uint8_t **shadow);
/* asyncwrite.c: a read of size bytes (their shadow) of a region an asynchronous write is on
 * its way into: a warning when one of them is undefined (a missing wait, most likely). */
void async_read_check(Warp *w, uint32_t pc, int lane, const uint8_t *shadow, unsigned size);
/* ... in state space `space` (SPACE_NONE: generic), not x's (cp.async's two addresses) */
uint8_t *mem_locate_in(Warp *w, const XInstr *x, int lane, int space, uint64_t address, unsigned size, bool store,
                       uint8_t **shadow);
/* For multimem.*: the size bytes at lane's multimem address in each copy of the multicast
 * object (data[i], shadow[i]); how many copies, or 0 after a fault (not a multimem address). */
unsigned mem_locate_copies(Warp *w, const XInstr *x, int lane, uint64_t address, unsigned size, uint8_t **data,
                           uint8_t **shadow);

/* atomic.c: atom, red (scalars and .v2/.v4/.v8 vectors): lane by lane, lowest first. */
void atomic_execute(Warp *w, const XInstr *x, uint32_t mask);
/* old updated with b (c: .cas's); global: a .global address (an f32 add flushes subnormals, an
 * f64 add keeps a signalling NaN); *nan_choice set when a .min/.max of halves meets a NaN. Then
 * the new value's defined bits. */
uint64_t atomic_update(const XInstr *x, uint64_t old, uint64_t b, uint64_t c, bool global, bool *nan_choice);
uint64_t atomic_defined_bits(const XInstr *x, uint64_t old, uint64_t old_bits, uint64_t b, uint64_t b_bits,
                             uint64_t c_bits);

/* multimem.c: multimem.ld_reduce, .st, .red on the copies of a multicast object. */
void multimem_execute(Warp *w, const XInstr *x, uint32_t mask);

/* bulk.c: the bulk and tensor copies (cp.async.bulk*, cp.reduce.async.bulk*, their groups): lowered
 * into a BulkForm, issued lane by lane; their bytes land at the completion point (docs/semantics.md,
 * "Bulk and tensor copies"). */
void bulk_lower(Loader *ld, const Instr *in, XInstr *x);
void bulk_execute(Warp *w, const XInstr *x, uint32_t mask);

/* tensormap.c: tensor maps (CUDA's CUtensorMap, 128 bytes in ptxrun's own encoding) and the
 * addresses of a tensor copy (docs/semantics.md, "Tensor maps"). Types, interleave and swizzle
 * are CUDA's enum values. */
enum { TMAP_BYTES = 128, TMAP_MAX_RANK = 5 };
enum { TMAP_TILED = 1, TMAP_IM2COL = 2 };
enum { TMAP_UINT8, TMAP_UINT16, TMAP_UINT32, TMAP_INT32, TMAP_UINT64, TMAP_INT64, TMAP_FLOAT16, TMAP_FLOAT32,
       TMAP_FLOAT64, TMAP_BFLOAT16, TMAP_FLOAT32_FTZ, TMAP_TFLOAT32, TMAP_TFLOAT32_FTZ, TMAP_TYPE_COUNT };
enum { TMAP_INTERLEAVE_NONE, TMAP_INTERLEAVE_16B, TMAP_INTERLEAVE_32B };
enum { TMAP_SWIZZLE_NONE, TMAP_SWIZZLE_32B, TMAP_SWIZZLE_64B, TMAP_SWIZZLE_128B };
typedef struct TensorMap {
    uint8_t mode, rank, dtype, interleave, swizzle, l2, oobfill;
    uint16_t channels, pixels;     /* im2col: channelsPerPixel, pixelsPerColumn */
    uint64_t address;              /* globalAddress */
    uint64_t dim[TMAP_MAX_RANK];   /* globalDim */
    uint64_t stride[TMAP_MAX_RANK];    /* bytes: [0] the element's size, [i] globalStrides[i - 1] */
    uint32_t box[TMAP_MAX_RANK];   /* tiled: boxDim */
    uint32_t estride[TMAP_MAX_RANK];   /* elementStrides */
    int32_t lower[3], upper[3];    /* im2col: pixelBoxLowerCorner, pixelBoxUpperCorner */
} TensorMap;
unsigned tensormap_element_bytes(int dtype);          /* 0: not a type ptxrun's maps hold */
bool tensormap_float(int dtype);
unsigned tensormap_swizzle_span(int swizzle);         /* 32, 64, 128 bytes; 0 none */
/* False, with why, where CUDA's encoders refuse the map (cuda.h's rules for sm_90). */
bool tensormap_check(const TensorMap *t, char *why, size_t size);
void tensormap_encode(const TensorMap *t, uint8_t out[TMAP_BYTES]);
bool tensormap_decode(const uint8_t in[TMAP_BYTES], TensorMap *t, char *why, size_t size);
/* Elements one copy moves: the box's (tiled), channels x pixels (im2col); in shared memory they
 * lie packed in this order, element e at e times the element's size (then swizzled). */
uint64_t tensormap_box_elements(const TensorMap *t);
/* im2col: the place of each pixel of the column a copy at coord moves (pixelsPerColumn of them),
 * before the im2col offsets. */
void tensormap_pixels(const TensorMap *t, const int32_t *coord, int64_t (*at)[TMAP_MAX_RANK]);
/* Element e of a copy at the instruction's coordinates (im2col: with its offsets, and the pixels
 * tensormap_pixels gave; tiled: pixels NULL): its coordinates in the tensor into g; false when it
 * lies outside the tensor (filled, or not stored). */
bool tensormap_element(const TensorMap *t, const int32_t *coord, const uint16_t *offsets,
                       const int64_t (*pixels)[TMAP_MAX_RANK], uint64_t e, int64_t g[TMAP_MAX_RANK]);
uint64_t tensormap_global_address(const TensorMap *t, const int64_t g[TMAP_MAX_RANK]);
uint64_t tensormap_swizzle(int swizzle, uint64_t shared_address);   /* where a byte of the box lands */
uint64_t tensormap_fill(const TensorMap *t);          /* an element outside the tensor: 0 or a NaN */

#endif
