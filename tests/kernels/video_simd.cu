// SIMD-in-a-word intrinsics (those nvcc turns into video instructions, vabsdiff4 and
// vabsdiff2/4.add for the __vsad* sums, and others it turns into plain integer code), then each
// PTX video instruction in inline asm with selectors, masks, .sat, secondary operations and
// merges, vmad with negations, .po and .shr7, bmsk / szext edges (a or b of 0, 32 or more,
// .clamp against .wrap), and cvt.pack.sat packing four bytes as CUTLASS does.
extern "C" __global__ void kernel(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out)
{
    int lane = threadIdx.x, k = 0;
    unsigned x = a[lane], y = b[lane], z = c[lane], d;
#define OUT(v) out[(k++) * 32 + lane] = (v)
#define V2(text) asm(text : "=r"(d) : "r"(x), "r"(y)); OUT(d)
#define V3(text) asm(text : "=r"(d) : "r"(x), "r"(y), "r"(z)); OUT(d)
    OUT(__vadd2(x, y));
    OUT(__vsub4(x, y));
    OUT(__vabsdiffu4(x, y));
    OUT(__vabsdiffs2(x, y));
    OUT(__vmaxs2(x, y));
    OUT(__vminu4(x, y));
    OUT(__vcmpgtu4(x, y));
    OUT(__vsads2(x, y));
    OUT(__vsadu4(x, y));
    OUT(__vsadu2(x, y));
    OUT(__vavgu4(x, y));
    OUT(__vhaddu2(x, y));
    OUT(__vaddss4(x, y));
    OUT(__vsubus2(x, y));
    OUT(__vseteq4(x, y));
    OUT(__vsetltu2(x, y));
    V2("vadd.s32.s32.u32.sat %0, %1.b1, %2.h0;");
    V3("vsub.s32.u32.u32.min %0, %1, %2, %3;");
    V3("vabsdiff.s32.s32.s32 %0.h1, %1.b3, %2.b0, %3;");
    V3("vmin.s32.u32.s32.add %0, %1.h1, %2.h0, %3;");
    V3("vmax.u32.s32.u32.sat %0.b2, %1.b0, %2.b1, %3;");
    V2("vshl.u32.u32.u32.wrap %0, %1, %2.b0;");
    V3("vshr.s32.s32.u32.clamp.add %0, %1, %2.b1, %3;");
    V3("vmad.s32.s32.u32.sat.shr7 %0, -%1.h0, %2.b2, %3;");
    V3("vmad.u32.u32.u32.po %0, %1.h1, %2.h0, %3;");
    V3("vmad.s32.u32.u32 %0, %1, %2, -%3;");
    V3("vset.s32.u32.lt.add %0, %1.b1, %2.b2, %3;");
    V3("vset.u32.u32.ne %0.b2, %1.h1, %2.h1, %3;");
    V3("vadd2.s32.s32.s32.sat %0, %1, %2, %3;");
    V3("vsub2.u32.u32.u32 %0.h1, %1, %2, %3;");
    V3("vavrg2.s32.s32.s32 %0, %1, %2, %3;");
    V3("vabsdiff2.u32.s32.s32.add %0, %1, %2, %3;");
    V3("vmin2.s32.u32.u32.add %0.h10, %1.h00, %2.h22, %3;");
    V3("vmax2.u32.u32.u32 %0.h0, %1.h32, %2.h10, %3;");
    V3("vset2.u32.u32.gt.add %0, %1, %2, %3;");
    V3("vadd4.u32.u32.u32.sat %0, %1, %2, %3;");
    V3("vsub4.s32.s32.s32.sat %0.b0, %1.b3210, %2.b7654, %3;");
    V3("vavrg4.u32.u32.u32 %0, %1, %2, %3;");
    V3("vabsdiff4.s32.s32.s32 %0.b31, %1, %2, %3;");
    V3("vmin4.s32.s32.s32.add %0, %1, %2, %3;");
    V3("vmax4.u32.u32.u32 %0, %1.b7070, %2.b2301, %3;");
    V3("vset4.s32.s32.le %0, %1, %2, %3;");
    unsigned pos = x & 63, len = y & 63;
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(d) : "r"(pos), "r"(len)); OUT(d);
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(d) : "r"(pos), "r"(len)); OUT(d);
    asm("szext.clamp.s32 %0, %1, %2;" : "=r"(d) : "r"(z), "r"(len)); OUT(d);
    asm("szext.wrap.s32 %0, %1, %2;" : "=r"(d) : "r"(z), "r"(len)); OUT(d);
    asm("szext.clamp.u32 %0, %1, %2;" : "=r"(d) : "r"(z), "r"(len)); OUT(d);
    asm("szext.wrap.u32 %0, %1, %2;" : "=r"(d) : "r"(z), "r"(len)); OUT(d);
    int sx = (int)x >> (x & 15), sy = (int)y >> (y & 15), sz = (int)z >> 20;   /* some in range of a byte */
    unsigned lo;
    asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, 0;" : "=r"(lo) : "r"(sz), "r"(sy));
    asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(sx), "r"(sz), "r"(lo)); OUT(d);
    asm("cvt.pack.sat.s16.s32 %0, %1, %2;" : "=r"(d) : "r"(sx), "r"(sy)); OUT(d);
    asm("cvt.pack.sat.s4.s32.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(sy), "r"(sz), "r"(z)); OUT(d);
}
