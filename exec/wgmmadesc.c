/* wgmmadesc.c: wgmma.mma_async's shared-memory matrix descriptors (PTX ISA 9.7.15.5.1.2, "Matrix
 * Descriptor Format" and "Shared Memory Matrix Layout"): the 64-bit value's fields, and the
 * elements of A or B it describes read from .shared, 16 bytes at a time through mem_locate.
 *
 * The fields: bits 0-13 the start address, 16-29 the leading dimension byte offset (LBO), 32-45
 * the stride dimension byte offset (SBO), each the byte value >> 4 (so 16-byte aligned, below
 * 256 KiB); 49-51 the base offset; 62-63 the swizzle mode (0 none, 1 128B, 2 64B, 3 32B).
 * A matrix is made of 16-byte chunks, each holding T = 128 / bits consecutive elements along
 * its contiguous dimension (K for K-major, M or N for MN-major). With W the swizzle width in
 * chunks (1, 2, 4, 8 for none, 32B, 64B, 128B), the chunk of element (mn, k) lies at, in chunks
 * from the start address (the canonical layouts CUTLASS's make_gmma_desc states, which the
 * ISA's figures draw):
 *   K-major, no swizzle:  (mn % 8) + (mn / 8) SBO + (k / T) LBO
 *   K-major, swizzled:    (mn % 8) W + (mn / 8) SBO + k / T          (LBO unused)
 *   MN-major, no swizzle: (mn / T) SBO + (k % 8) + (k / 8) LBO
 *   MN-major, swizzled:   (mn / T % W) + (mn / T / W) LBO + (k % 8) W + (k / 8) SBO
 * then the swizzle, on the whole .shared address: bits 4.. 4+log2 W are xored with bits 7..
 * 7+log2 W (its pattern repeats every 8 W chunks: 1024, 512, 256 bytes). A nonzero base offset
 * (for a pattern that does not start on that boundary) is not modelled: a fault. */
#include <string.h>

#include "family.h"
#include "tensor.h"

/* The bits of a descriptor the hardware reads: the three addresses, base offset, swizzle. */
#define DESC_USED 0xc00e3fff3fff3fffull

/* Lane 0's descriptor in row, checked: defined in every bit used, the same in every lane (the
 * ISA: the same across the warpgroup), its base offset 0 when it swizzles. False after a fault
 * (named by what: "A" or "B"). */
static bool desc_of(Warp *w, const XInstr *x, uint32_t row, const char *what, WgmmaDesc *out)
{
    uint32_t pc = (uint32_t)(x - w->prog->code);
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        if ((warp_dbits(w, row, (int)l) & DESC_USED) != DESC_USED) {
            report_fault(w, pc, "lane %u (pc %u): '%s': %s's matrix descriptor is undefined in bits it uses",
                         l, pc, x->ir->mnemonic, what);
            return false;
        }
        if ((w->val[row][l] & DESC_USED) != (w->val[row][0] & DESC_USED)) {
            report_fault(w, pc, "lane %u (pc %u): '%s': %s's matrix descriptor 0x%016llx differs from lane 0's "
                         "0x%016llx (the PTX ISA wants one descriptor for the whole warpgroup)", l, pc,
                         x->ir->mnemonic, what, (unsigned long long)w->val[row][l],
                         (unsigned long long)w->val[row][0]);
            return false;
        }
    }
    uint64_t d = w->val[row][0];
    out->start = (d & 0x3fff) << 4;
    out->lbo = (d >> 16 & 0x3fff) << 4;
    out->sbo = (d >> 32 & 0x3fff) << 4;
    out->base = (unsigned)(d >> 49 & 7);
    out->swizzle = (unsigned)(d >> 62 & 3);
    if (out->swizzle && out->base) {
        report_fault(w, pc, "'%s': %s's matrix descriptor 0x%016llx has base offset %u: ptxrun models only base "
                     "offset 0 (a swizzle pattern starting on its own boundary, as CUTLASS makes them)",
                     x->ir->mnemonic, what, (unsigned long long)d, out->base);
        return false;
    }
    return true;
}

unsigned wgmmadesc_width(unsigned swizzle)
{
    static const unsigned width[4] = { 1, 8, 4, 2 };    /* none, 128B, 64B, 32B */
    return width[swizzle & 3];
}

uint64_t wgmmadesc_chunk(const WgmmaDesc *d, bool mn_major, unsigned bits, unsigned mn, unsigned k)
{
    unsigned T = 128 / bits, W = wgmmadesc_width(d->swizzle);
    uint64_t off;                                       /* bytes from the start address */
    if (!mn_major && W == 1)
        off = 16 * (mn % 8) + (mn / 8) * d->sbo + (k / T) * d->lbo;
    else if (!mn_major)
        off = 16 * ((mn % 8) * W + k / T) + (mn / 8) * d->sbo;
    else if (W == 1)
        off = (mn / T) * d->sbo + 16 * (k % 8) + (k / 8) * d->lbo;
    else
        off = 16 * (mn / T % W + (k % 8) * W) + (mn / T / W) * d->lbo + (k / 8) * d->sbo;
    uint64_t a = d->start + off;
    return W == 1 ? a : a ^ ((a >> 3) & (uint64_t)(W - 1) << 4);
}

/* Rows [row0, row0 + rows) of the M or N index, k elements each, of the matrix in desc_row
 * (element width bits; mn_major: the imm-trans layout) into out[r * k + kk] as raw bits; und[r]
 * set when any bit of row r's elements is undefined. False after a fault. */
bool wgmmadesc_gather(Warp *w, const XInstr *x, uint32_t desc_row, const char *what, bool mn_major, unsigned bits,
                      unsigned row0, unsigned rows, unsigned k, uint64_t *out, bool *und)
{
    WgmmaDesc d;
    if (!desc_of(w, x, desc_row, what, &d))
        return false;
    unsigned T = 128 / bits;
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    /* One chunk holds T elements along the contiguous dimension: K-major, of one row; MN-major,
     * of one k, T rows. */
    unsigned outer = mn_major ? k : rows, inner = mn_major ? rows / T : k / T;
    for (unsigned o = 0; o < outer; o++)
        for (unsigned c = 0; c < inner; c++) {
            unsigned mn = mn_major ? row0 + c * T : row0 + o, kk = mn_major ? o : c * T;
            uint8_t *shadow;
            uint8_t *p = mem_locate(w, x, 0, wgmmadesc_chunk(&d, mn_major, bits, mn, kk), 16, false, &shadow);
            if (!p)
                return false;
            for (unsigned e = 0; e < T; e++) {
                unsigned bit = e * bits, byte = bit / 8, sh = bit % 8;
                uint64_t v = 0, s = 0;
                for (unsigned b = 0; b < (bits + 7) / 8; b++) {
                    v |= (uint64_t)p[byte + b] << (8 * b);
                    s |= (uint64_t)shadow[byte + b] << (8 * b);
                }
                v = v >> sh & mask;
                s = s >> sh & mask;
                unsigned r = mn_major ? c * T + e : o, col = mn_major ? o : c * T + e;
                out[r * k + col] = v;
                if (s != mask)
                    und[r] = true;
            }
        }
    return true;
}
