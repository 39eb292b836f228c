/* kernels_body.h: the lane loops of kernels.c. kernels.c includes this file once for each
 * instruction-set level, with KERNEL(name) naming that level's copies and KERNEL_TARGET giving
 * its target attribute; the compiler vectorises each loop for that level. Every loop runs over
 * all 32 lanes of 64-bit rows and touches nothing but its arguments. */

/* d[l] = t[l] for the lanes of mask; the others keep theirs. */
KERNEL_TARGET static void KERNEL(select)(uint64_t *restrict d, const uint64_t *restrict t, uint32_t mask)
{
    for (int l = 0; l < WARP_SIZE; l++)
        d[l] = (mask >> l & 1) ? t[l] : d[l];
}

/* d = a op b on 32 bits, zero-extended, for the lanes of mask (d may be a or b: each lane reads
 * its own before it writes). */
KERNEL_TARGET static void KERNEL(int32)(unsigned op, uint64_t *d, const uint64_t *a, const uint64_t *b,
                                        uint32_t mask)
{
    const uint64_t m = 0xffffffffu;
#define KERNEL_LANES(expr) \
    do { \
        if (mask == ALL_LANES) { \
            for (int l = 0; l < WARP_SIZE; l++) \
                d[l] = (expr); \
        } else { \
            for (int l = 0; l < WARP_SIZE; l++) { \
                uint64_t t = (expr); \
                d[l] = (mask >> l & 1) ? t : d[l]; \
            } \
        } \
    } while (0)
    switch (op) {
    case KOP_MOV: KERNEL_LANES(a[l] & m); break;
    case KOP_ADD: KERNEL_LANES((a[l] + b[l]) & m); break;
    case KOP_SUB: KERNEL_LANES((a[l] - b[l]) & m); break;
    case KOP_MUL: KERNEL_LANES((uint64_t)((uint32_t)a[l] * (uint32_t)b[l])); break;
    case KOP_AND: KERNEL_LANES(a[l] & b[l] & m); break;
    case KOP_OR:  KERNEL_LANES((a[l] | b[l]) & m); break;
    case KOP_XOR: KERNEL_LANES((a[l] ^ b[l]) & m); break;
    case KOP_SHL: KERNEL_LANES((uint32_t)b[l] >= 32 ? 0 : (uint64_t)((uint32_t)a[l] << (b[l] & 31))); break;
    case KOP_SHR_U: KERNEL_LANES((uint32_t)b[l] >= 32 ? 0 : (uint64_t)((uint32_t)a[l] >> (b[l] & 31))); break;
    case KOP_SHR_S:
        KERNEL_LANES((uint64_t)(uint32_t)((int32_t)(uint32_t)a[l] >> ((uint32_t)b[l] >= 32 ? 31 : b[l] & 31)));
        break;
    default: break;
    }
#undef KERNEL_LANES
}

/* Bit l: every bit of m is set in d[l]. */
KERNEL_TARGET static uint32_t KERNEL(covers)(const uint64_t *d, uint64_t m)
{
    uint32_t t = 0;
    for (int l = 0; l < WARP_SIZE; l++)
        t |= (uint32_t)((d[l] & m) == m) << l;
    return t;
}

/* Bit l: the compare of the low 32 bits of a[l] and b[l] holds. */
KERNEL_TARGET static uint32_t KERNEL(compare32)(unsigned cmp, const uint64_t *a, const uint64_t *b)
{
    uint32_t t = 0;
#define KERNEL_COMPARE(type, op) \
    do { \
        for (int l = 0; l < WARP_SIZE; l++) \
            t |= (uint32_t)((type)a[l] op (type)b[l]) << l; \
    } while (0)
    switch (cmp) {
    case KCMP_EQ: KERNEL_COMPARE(uint32_t, ==); break;
    case KCMP_NE: KERNEL_COMPARE(uint32_t, !=); break;
    case KCMP_LT_U: KERNEL_COMPARE(uint32_t, <); break;
    case KCMP_LE_U: KERNEL_COMPARE(uint32_t, <=); break;
    case KCMP_GT_U: KERNEL_COMPARE(uint32_t, >); break;
    case KCMP_GE_U: KERNEL_COMPARE(uint32_t, >=); break;
    case KCMP_LT_S: KERNEL_COMPARE(int32_t, <); break;
    case KCMP_LE_S: KERNEL_COMPARE(int32_t, <=); break;
    case KCMP_GT_S: KERNEL_COMPARE(int32_t, >); break;
    case KCMP_GE_S: KERNEL_COMPARE(int32_t, >=); break;
    default: break;
    }
#undef KERNEL_COMPARE
    return t;
}

#ifdef KERNEL_PERMUTE
/* A shuffle with AVX-512, whatever the table: the row in four registers, each lane's value
 * picked by two two-register permutes and a blend, then blended with d's old lanes and stored
 * whole (a masked store would not forward its value to the next instruction's loads). Every load
 * comes before the first store, so d may be a. */
KERNEL_TARGET static void KERNEL(shfl32)(unsigned form, unsigned k, uint64_t *d, const uint64_t *a,
                                         const int8_t *src, uint32_t mask)
{
    (void)form;
    (void)k;
    __m512i a0 = _mm512_loadu_si512(a), a1 = _mm512_loadu_si512(a + 8);
    __m512i a2 = _mm512_loadu_si512(a + 16), a3 = _mm512_loadu_si512(a + 24);
    __m512i low32 = _mm512_set1_epi64(0xffffffff), upper = _mm512_set1_epi64(WARP_SIZE / 2);
    __m512i r[4];
    for (int i = 0; i < 4; i++) {
        __m128i bytes = _mm_setzero_si128();
        memcpy(&bytes, src + 8 * i, 8);
        __m512i index = _mm512_cvtepu8_epi64(bytes);
        __m512i lo = _mm512_permutex2var_epi64(a0, index, a1), hi = _mm512_permutex2var_epi64(a2, index, a3);
        r[i] = _mm512_and_si512(_mm512_mask_blend_epi64(_mm512_test_epi64_mask(index, upper), lo, hi), low32);
    }
    for (int i = 0; i < 4; i++)
        _mm512_storeu_si512(d + 8 * i, _mm512_mask_blend_epi64((__mmask8)(mask >> (8 * i)),
                                                                _mm512_loadu_si512(d + 8 * i), r[i]));
}
#else
/* d[l] = the low 32 bits of a[index] for the lanes l of mask, d apart from a. */
#define KERNEL_SHFL(index) \
    do { \
        for (int l = 0; l < WARP_SIZE; l++) { \
            uint64_t t = a[(index)] & 0xffffffffu; \
            d[l] = (mask >> l & 1) ? t : d[l]; \
        } \
    } while (0)
/* shfl.up by k: lanes below k keep their own value; down: lanes from 32 - k on. */
#define KERNEL_SHFL_UP(k) \
    do { \
        for (int l = 0; l < (k); l++) \
            d[l] = (mask >> l & 1) ? a[l] & 0xffffffffu : d[l]; \
        for (int l = (k); l < WARP_SIZE; l++) \
            d[l] = (mask >> l & 1) ? a[l - (k)] & 0xffffffffu : d[l]; \
    } while (0)
#define KERNEL_SHFL_DOWN(k) \
    do { \
        for (int l = 0; l < WARP_SIZE - (k); l++) \
            d[l] = (mask >> l & 1) ? a[l + (k)] & 0xffffffffu : d[l]; \
        for (int l = WARP_SIZE - (k); l < WARP_SIZE; l++) \
            d[l] = (mask >> l & 1) ? a[l] & 0xffffffffu : d[l]; \
    } while (0)

KERNEL_TARGET static void KERNEL(shfl_apart)(unsigned form, unsigned k, uint64_t *restrict d,
                                             const uint64_t *restrict a, const int8_t *restrict src, uint32_t mask)
{
    /* The usual distances as constants, so that each loop becomes a few whole-vector moves. */
    switch (form) {
    case KSHFL_BFLY:
        switch (k) {
        case 1: KERNEL_SHFL(l ^ 1); return;
        case 2: KERNEL_SHFL(l ^ 2); return;
        case 4: KERNEL_SHFL(l ^ 4); return;
        case 8: KERNEL_SHFL(l ^ 8); return;
        case 16: KERNEL_SHFL(l ^ 16); return;
        default: break;
        }
        break;
    case KSHFL_UP:
        switch (k) {
        case 1: KERNEL_SHFL_UP(1); return;
        case 2: KERNEL_SHFL_UP(2); return;
        case 4: KERNEL_SHFL_UP(4); return;
        case 8: KERNEL_SHFL_UP(8); return;
        case 16: KERNEL_SHFL_UP(16); return;
        default: KERNEL_SHFL_UP((int)k); return;
        }
    case KSHFL_DOWN:
        switch (k) {
        case 1: KERNEL_SHFL_DOWN(1); return;
        case 2: KERNEL_SHFL_DOWN(2); return;
        case 4: KERNEL_SHFL_DOWN(4); return;
        case 8: KERNEL_SHFL_DOWN(8); return;
        case 16: KERNEL_SHFL_DOWN(16); return;
        default: KERNEL_SHFL_DOWN((int)k); return;
        }
    default:
        break;
    }
    KERNEL_SHFL((uint8_t)src[l] & (WARP_SIZE - 1));
}

/* A shuffle's values: d[l] = the low 32 bits of a[src[l]] for the lanes of mask (d may be a).
 * form and k (KSHFL_*) say when src is a plain pattern. */
KERNEL_TARGET static void KERNEL(shfl32)(unsigned form, unsigned k, uint64_t *d, const uint64_t *a,
                                         const int8_t *src, uint32_t mask)
{
    if (d != a) {
        KERNEL(shfl_apart)(form, k, d, a, src, mask);
        return;
    }
    uint64_t t[WARP_SIZE];
    KERNEL(shfl_apart)(form, k, t, a, src, ALL_LANES);
    KERNEL(select)(d, t, mask);
}

#undef KERNEL_SHFL
#undef KERNEL_SHFL_UP
#undef KERNEL_SHFL_DOWN
#endif

static const Kernels KERNEL(table) = {
    .name = KERNEL_NAME,
    .select = KERNEL(select),
    .int32 = KERNEL(int32),
    .compare32 = KERNEL(compare32),
    .covers = KERNEL(covers),
    .shfl32 = KERNEL(shfl32),
};
