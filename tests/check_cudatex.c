/* check_cudatex.c: CUDA arrays, texture and surface objects in ptxrun's CUDA shims
 * (cuda/drvtex.c, cuda/rttex.c), through cudrv.h and cudart.h alone: kernels in PTX written here
 * read textures through the handles the host made, and each value read is checked against what
 * the CUDA C Programming Guide's texture-fetching appendix gives, computed here in plain C
 * (coordinates chosen so that every filter weight is a multiple of 1/256 and every result exact
 * in f32: no rounding choice is tested). Each test runs in a process of its own. */
#define _GNU_SOURCE                  /* setenv */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart.h"
#include "cudrv.h"

#include "drvtest.h"

/* cuInit and a context made current (drvtest.h). */
static CUcontext start(void)
{
    return drvtest_start("check_cudatex");
}

/* Each kernel: thread i reads its coordinates from coords, fetches through the handle tex and
 * writes the four channels it got to out[4i..4i+3] (tex1d_fetch: the first channel to out[i]);
 * surf_add adds `add` to each 32-bit texel (x, y) = (tid.x, tid.y) of a surface. */
#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"
static const char tex_ptx[] = HEADER
    ".visible .entry tex2d_f(.param .u64 out, .param .u64 coords, .param .u64 tex, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .f32 %f<8>; .reg .b64 %rd<8>; .reg .pred %p;\n"
    "  mov.u32 %r1, %tid.x; ld.param.u32 %r2, [n]; setp.ge.u32 %p, %r1, %r2; @%p bra DONE;\n"
    "  ld.param.u64 %rd1, [coords]; mul.wide.u32 %rd2, %r1, 8; add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.v2.f32 {%f1, %f2}, [%rd3];\n"
    "  ld.param.u64 %rd4, [tex];\n"
    "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd4, {%f1, %f2}];\n"
    "  ld.param.u64 %rd5, [out]; mul.wide.u32 %rd6, %r1, 16; add.u64 %rd7, %rd5, %rd6;\n"
    "  st.global.v4.f32 [%rd7], {%f3, %f4, %f5, %f6};\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry tex2d_u(.param .u64 out, .param .u64 coords, .param .u64 tex, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .f32 %f<3>; .reg .b64 %rd<8>; .reg .pred %p;\n"
    "  mov.u32 %r1, %tid.x; ld.param.u32 %r2, [n]; setp.ge.u32 %p, %r1, %r2; @%p bra DONE;\n"
    "  ld.param.u64 %rd1, [coords]; mul.wide.u32 %rd2, %r1, 8; add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.v2.f32 {%f1, %f2}, [%rd3];\n"
    "  ld.param.u64 %rd4, [tex];\n"
    "  tex.2d.v4.u32.f32 {%r3, %r4, %r5, %r6}, [%rd4, {%f1, %f2}];\n"
    "  ld.param.u64 %rd5, [out]; mul.wide.u32 %rd6, %r1, 16; add.u64 %rd7, %rd5, %rd6;\n"
    "  st.global.v4.u32 [%rd7], {%r3, %r4, %r5, %r6};\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry tex2d_s(.param .u64 out, .param .u64 coords, .param .u64 tex, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .f32 %f<3>; .reg .b64 %rd<8>; .reg .pred %p;\n"
    "  mov.u32 %r1, %tid.x; ld.param.u32 %r2, [n]; setp.ge.u32 %p, %r1, %r2; @%p bra DONE;\n"
    "  ld.param.u64 %rd1, [coords]; mul.wide.u32 %rd2, %r1, 8; add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.v2.f32 {%f1, %f2}, [%rd3];\n"
    "  ld.param.u64 %rd4, [tex];\n"
    "  tex.2d.v4.s32.f32 {%r3, %r4, %r5, %r6}, [%rd4, {%f1, %f2}];\n"
    "  ld.param.u64 %rd5, [out]; mul.wide.u32 %rd6, %r1, 16; add.u64 %rd7, %rd5, %rd6;\n"
    "  st.global.v4.u32 [%rd7], {%r3, %r4, %r5, %r6};\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry texa2d(.param .u64 out, .param .u64 coords, .param .u64 tex, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .f32 %f<8>; .reg .b64 %rd<8>; .reg .pred %p;\n"
    "  mov.u32 %r1, %tid.x; ld.param.u32 %r2, [n]; setp.ge.u32 %p, %r1, %r2; @%p bra DONE;\n"
    "  ld.param.u64 %rd1, [coords]; mul.wide.u32 %rd2, %r1, 16; add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.v2.f32 {%f1, %f2}, [%rd3]; ld.global.u32 %r3, [%rd3+8];\n"
    "  ld.param.u64 %rd4, [tex];\n"
    "  tex.a2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd4, {%r3, %f1, %f2, %f2}];\n"
    "  ld.param.u64 %rd5, [out]; mul.wide.u32 %rd6, %r1, 16; add.u64 %rd7, %rd5, %rd6;\n"
    "  st.global.v4.f32 [%rd7], {%f3, %f4, %f5, %f6};\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry texcube(.param .u64 out, .param .u64 coords, .param .u64 tex, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .f32 %f<12>; .reg .b64 %rd<8>; .reg .pred %p;\n"
    "  mov.u32 %r1, %tid.x; ld.param.u32 %r2, [n]; setp.ge.u32 %p, %r1, %r2; @%p bra DONE;\n"
    "  ld.param.u64 %rd1, [coords]; mul.wide.u32 %rd2, %r1, 16; add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.v4.f32 {%f1, %f2, %f7, %f8}, [%rd3];\n"
    "  ld.param.u64 %rd4, [tex];\n"
    "  tex.cube.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd4, {%f1, %f2, %f7, %f8}];\n"
    "  ld.param.u64 %rd5, [out]; mul.wide.u32 %rd6, %r1, 16; add.u64 %rd7, %rd5, %rd6;\n"
    "  st.global.v4.f32 [%rd7], {%f3, %f4, %f5, %f6};\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry tex1d_fetch(.param .u64 out, .param .u64 coords, .param .u64 tex, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p;\n"
    "  mov.u32 %r1, %tid.x; ld.param.u32 %r2, [n]; setp.ge.u32 %p, %r1, %r2; @%p bra DONE;\n"
    "  ld.param.u64 %rd1, [coords]; mul.wide.u32 %rd2, %r1, 4; add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.s32 %r7, [%rd3];\n"
    "  ld.param.u64 %rd4, [tex];\n"
    "  tex.1d.v4.s32.s32 {%r3, %r4, %r5, %r6}, [%rd4, {%r7}];\n"
    "  ld.param.u64 %rd5, [out]; add.u64 %rd7, %rd5, %rd2;\n"
    "  st.global.u32 [%rd7], %r3;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry surf_add(.param .u64 surf, .param .u32 w, .param .u32 add)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<2>;\n"
    "  mov.u32 %r1, %tid.x; mov.u32 %r2, %tid.y; shl.b32 %r3, %r1, 2;\n"
    "  ld.param.u64 %rd1, [surf]; ld.param.u32 %r4, [add];\n"
    "  suld.b.2d.b32.trap {%r5}, [%rd1, {%r3, %r2}];\n"
    "  add.u32 %r5, %r5, %r4;\n"
    "  sust.b.2d.b32.trap [%rd1, {%r3, %r2}], {%r5};\n"
    "  ret;\n"
    "}\n";

static CUmodule module;

static CUfunction kernel(const char *name)
{
    if (!module)
        OK(cuModuleLoadData(&module, tex_ptx));
    CUfunction f;
    OK(cuModuleGetFunction(&f, module, name));
    return f;
}

/* A launch of n threads of the fetching kernel name; out gets 4 words a thread. */
static void fetch(const char *name, unsigned long long tex, const void *coords, size_t coord_bytes, void *out,
                  unsigned n)
{
    CUdeviceptr dout, dcoords;
    OK(cuMemAlloc_v2(&dout, 16 * n));
    OK(cuMemAlloc_v2(&dcoords, coord_bytes));
    OK(cuMemcpyHtoD_v2(dcoords, coords, coord_bytes));
    void *args[] = { &dout, &dcoords, &tex, &n };
    OK(cuLaunchKernel(kernel(name), 1, 1, 1, n, 1, 1, 0, NULL, args, NULL));
    CUresult r = cuCtxSynchronize();
    ck_assert_msg(r == CUDA_SUCCESS, "%s: error %d: %s", name, (int)r, report());
    OK(cuMemcpyDtoH_v2(out, dout, 16 * n));
    OK(cuMemFree_v2(dout));
    OK(cuMemFree_v2(dcoords));
}

/* ---- the guide's texture fetch, for one channel of f32 texels (its appendix "Texture Fetching") */

enum { WRAP = CU_TR_ADDRESS_MODE_WRAP, CLAMP = CU_TR_ADDRESS_MODE_CLAMP, MIRROR = CU_TR_ADDRESS_MODE_MIRROR,
       BORDER = CU_TR_ADDRESS_MODE_BORDER };

/* A normalized coordinate after wrap (its fraction) or mirror (the fraction, mirrored on odd
 * periods); the others keep it. */
static double fold(int mode, double x)
{
    double f = x - floor(x);
    if (mode == WRAP)
        return f;
    if (mode == MIRROR)
        return ((long)floor(x) & 1) ? 1 - f : f;
    return x;
}

/* Texel i of n under the mode; false: border, which reads 0. */
static bool index_of(int mode, long n, long *i)
{
    if (*i >= 0 && *i < n)
        return true;
    if (mode == BORDER)
        return false;
    if (mode == WRAP)
        *i = ((*i % n) + n) % n;
    else
        *i = *i < 0 ? 0 : n - 1;
    return true;
}

static double texel(const float *t, long w, long h, const int mode[2], long i, long j)
{
    if (!index_of(mode[0], w, &i) || !index_of(mode[1], h, &j))
        return 0;
    return t[j * w + i];
}

/* tex2D of a w x h texture t at (x, y). */
static double fetch_2d(const float *t, long w, long h, const int mode[2], bool linear, bool normalized, double x,
                       double y)
{
    if (normalized) {
        x = fold(mode[0], x) * w;
        y = fold(mode[1], y) * h;
    }
    if (!linear)
        return texel(t, w, h, mode, (long)floor(x), (long)floor(y));
    double xb = x - 0.5, yb = y - 0.5;
    long i = (long)floor(xb), j = (long)floor(yb);
    double a = round((xb - i) * 256) / 256, b = round((yb - j) * 256) / 256;   /* 9-bit weights */
    return (1 - a) * (1 - b) * texel(t, w, h, mode, i, j) + a * (1 - b) * texel(t, w, h, mode, i + 1, j) +
           (1 - a) * b * texel(t, w, h, mode, i, j + 1) + a * b * texel(t, w, h, mode, i + 1, j + 1);
}

enum { W = 8, H = 4 };

static void ramp(float *t, int n)
{
    for (int i = 0; i < n; i++)
        t[i] = (float)(i * 3 % 17) - 4;
}

/* Coordinates over and around a W x H texture: inside, on edges, outside on each side, and
 * between texels at multiples of 1/256 of a texel (normalized: divided by the size). */
static unsigned coordinates(float *c, bool normalized)
{
    static const double xs[] = { 0.5, 3.25, 7.75, -1.5, 9.125, 4.0, 0.0, -6.5, 15.875, 2.5 + 1.0 / 256 };
    static const double ys[] = { 0.5, 1.75, 3.5, -2.25, 5.5, 2.0, 4.0, 0.125, -0.5, 3.0 - 3.0 / 256 };
    unsigned n = 0;
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++)
        for (unsigned j = 0; j < sizeof ys / sizeof ys[0]; j++, n++) {
            c[2 * n] = (float)(normalized ? xs[i] / W : xs[i]);
            c[2 * n + 1] = (float)(normalized ? ys[j] / H : ys[j]);
        }
    return n;
}

static CUarray float_array(const float *t, size_t w, size_t h)
{
    CUarray a;
    CUDA_ARRAY_DESCRIPTOR d = { w, h, CU_AD_FORMAT_FLOAT, 1 };
    OK(cuArrayCreate_v2(&a, &d));
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = t;
    c.srcPitch = w * 4;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = a;
    c.WidthInBytes = w * 4;
    c.Height = h;
    OK(cuMemcpy2D_v2(&c));
    return a;
}

static CUtexObject texture(CUarray a, const int mode[2], bool linear, unsigned flags)
{
    CUDA_RESOURCE_DESC r;
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_ARRAY;
    r.res.array.hArray = a;
    CUDA_TEXTURE_DESC t;
    memset(&t, 0, sizeof t);
    t.addressMode[0] = (CUaddress_mode)mode[0];
    t.addressMode[1] = (CUaddress_mode)mode[1];
    t.filterMode = linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
    t.flags = flags;
    CUtexObject o;
    OK(cuTexObjectCreate(&o, &r, &t, NULL));
    return o;
}

/* Every address mode in x and y, nearest and linear, normalized and not, against fetch_2d. */
START_TEST(test_filtering_and_addressing)
{
    CUcontext c = start();
    float t[W * H];
    ramp(t, W * H);
    CUarray a = float_array(t, W, H);
    static const int modes[][2] = { { CLAMP, CLAMP }, { WRAP, MIRROR }, { MIRROR, WRAP }, { BORDER, CLAMP },
                                    { CLAMP, BORDER } };
    for (unsigned m = 0; m < sizeof modes / sizeof modes[0]; m++)
        for (int linear = 0; linear < 2; linear++)
            for (int normalized = 0; normalized < 2; normalized++) {
                bool folds = modes[m][0] == WRAP || modes[m][0] == MIRROR || modes[m][1] == WRAP ||
                             modes[m][1] == MIRROR;
                /* CUDA defines wrap and mirror for normalized coordinates only: with texel
                 * coordinates ptxrun clamps (docs/cuda.md), and says so */
                int mode[2] = { modes[m][0], modes[m][1] };
                for (int d = 0; d < 2 && !normalized; d++)
                    mode[d] = mode[d] == WRAP || mode[d] == MIRROR ? CLAMP : mode[d];
                CUtexObject o = texture(a, modes[m], linear, normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0);
                if (folds && !normalized)
                    ck_assert_ptr_nonnull(strstr(report(), "ptxrun clamps its coordinates"));
                float coords[2 * 100], got[4 * 100];
                unsigned n = coordinates(coords, normalized);
                fetch("tex2d_f", o, coords, sizeof coords, got, n);
                for (unsigned i = 0; i < n; i++) {
                    double want = fetch_2d(t, W, H, mode, linear, normalized, coords[2 * i], coords[2 * i + 1]);
                    if (got[4 * i] != (float)want)
                        ck_abort_msg("modes %d/%d %s %s at (%g, %g): got %.9g, want %.9g", modes[m][0], modes[m][1],
                                     linear ? "linear" : "nearest", normalized ? "normalized" : "texels",
                                     coords[2 * i], coords[2 * i + 1], got[4 * i], want);
                }
                OK(cuTexObjectDestroy(o));
            }
    OK(cuArrayDestroy(a));
    finish(c);
}
END_TEST

/* 8-bit texels read as their integers (CU_TRSF_READ_AS_INTEGER) or, by default, as normalized
 * floats: unsigned v / 255, signed max(v / 127, -1) (the guide); of two channels. */
START_TEST(test_read_modes)
{
    CUcontext c = start();
    for (int sign = 0; sign < 2; sign++) {
        CUarray a;
        CUDA_ARRAY_DESCRIPTOR d = { 4, 1, sign ? CU_AD_FORMAT_SIGNED_INT8 : CU_AD_FORMAT_UNSIGNED_INT8, 2 };
        OK(cuArrayCreate_v2(&a, &d));
        const uint8_t bytes[8] = { 0, 255, 1, 128, 127, 129, 200, 54 };
        CUDA_MEMCPY2D cp;
        memset(&cp, 0, sizeof cp);
        cp.srcMemoryType = CU_MEMORYTYPE_HOST;
        cp.srcHost = bytes;
        cp.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        cp.dstArray = a;
        cp.WidthInBytes = 8;
        cp.Height = 1;
        OK(cuMemcpy2D_v2(&cp));
        static const int clamp[2] = { CLAMP, CLAMP };
        float coords[8] = { 0.5f, 0.5f, 1.5f, 0.5f, 2.5f, 0.5f, 3.5f, 0.5f };
        CUtexObject as_int = texture(a, clamp, false, CU_TRSF_READ_AS_INTEGER);
        CUtexObject as_float = texture(a, clamp, false, 0);
        int32_t ints[16];
        float floats[16];
        fetch(sign ? "tex2d_s" : "tex2d_u", as_int, coords, sizeof coords, ints, 4);
        fetch("tex2d_f", as_float, coords, sizeof coords, floats, 4);
        for (int i = 0; i < 4; i++)
            for (int ch = 0; ch < 2; ch++) {
                int v = sign ? (int8_t)bytes[2 * i + ch] : bytes[2 * i + ch];
                ck_assert_int_eq(ints[4 * i + ch], v);
                float want = sign ? fmaxf((float)v / 127.0f, -1.0f) : (float)v / 255.0f;
                ck_assert_msg(floats[4 * i + ch] == want, "texel %d channel %d: %.9g, want %.9g", i, ch,
                              floats[4 * i + ch], want);
            }
        /* linear filtering of integers read as integers: refused */
        CUDA_RESOURCE_DESC r;
        memset(&r, 0, sizeof r);
        r.res.array.hArray = a;
        CUDA_TEXTURE_DESC td;
        memset(&td, 0, sizeof td);
        td.filterMode = CU_TR_FILTER_MODE_LINEAR;
        td.flags = CU_TRSF_READ_AS_INTEGER;
        CUtexObject o;
        FAILS(cuTexObjectCreate(&o, &r, &td, NULL), CUDA_ERROR_INVALID_VALUE);
        OK(cuArrayDestroy(a));
    }
    finish(c);
}
END_TEST

/* A layered array (3 layers of W x H) read by layer; a cubemap's six faces by direction. */
START_TEST(test_layered_and_cube)
{
    CUcontext c = start();
    enum { LAYERS = 3 };
    float t[LAYERS * W * H];
    for (int i = 0; i < LAYERS * W * H; i++)
        t[i] = (float)(i * 7 % 23);
    CUarray a;
    CUDA_ARRAY3D_DESCRIPTOR d = { W, H, LAYERS, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED };
    OK(cuArray3DCreate_v2(&a, &d));
    CUDA_MEMCPY3D cp;
    memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_HOST;
    cp.srcHost = t;
    cp.srcPitch = W * 4;
    cp.srcHeight = H;
    cp.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    cp.dstArray = a;
    cp.WidthInBytes = W * 4;
    cp.Height = H;
    cp.Depth = LAYERS;
    OK(cuMemcpy3D_v2(&cp));
    CUDA_ARRAY3D_DESCRIPTOR back;
    OK(cuArray3DGetDescriptor_v2(&back, a));
    ck_assert(back.Width == W && back.Height == H && back.Depth == LAYERS && back.Flags == CUDA_ARRAY3D_LAYERED);
    static const int clamp[2] = { CLAMP, CLAMP };
    CUtexObject o = texture(a, clamp, true, 0);
    struct LayerCoords { float x, y; int32_t layer, pad; } coords[LAYERS * 4];
    for (int l = 0; l < LAYERS; l++)
        for (int k = 0; k < 4; k++)
            coords[4 * l + k] = (struct LayerCoords){ 0.5f + 1.75f * k, 0.5f + 0.625f * k, l, 0 };
    float got[4 * LAYERS * 4];
    fetch("texa2d", o, coords, sizeof coords, got, LAYERS * 4);
    for (int i = 0; i < LAYERS * 4; i++) {
        double want = fetch_2d(t + coords[i].layer * W * H, W, H, clamp, true, false, coords[i].x, coords[i].y);
        ck_assert_msg(got[4 * i] == (float)want, "layer %d (%g, %g): %.9g, want %.9g", coords[i].layer, coords[i].x,
                      coords[i].y, got[4 * i], want);
    }
    OK(cuTexObjectDestroy(o));
    OK(cuArrayDestroy(a));

    /* faces +x -x +y -y +z -z of 2 x 2 texels, texel (1, 1) of face f holding 10 f + 1: the
     * direction along an axis picks its face (the guide's cubemap table) and lands on the face's
     * centre, (1, 1) under nearest filtering */
    float faces[6 * 4];
    for (int f = 0; f < 6; f++)
        for (int k = 0; k < 4; k++)
            faces[4 * f + k] = k == 3 ? 10.0f * f + 1 : -1;
    CUDA_ARRAY3D_DESCRIPTOR cd = { 2, 2, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP };
    OK(cuArray3DCreate_v2(&a, &cd));
    cp.srcHost = faces;
    cp.srcPitch = 8;
    cp.srcHeight = 2;
    cp.dstArray = a;
    cp.WidthInBytes = 8;
    cp.Height = 2;
    cp.Depth = 6;
    OK(cuMemcpy3D_v2(&cp));
    o = texture(a, clamp, false, CU_TRSF_NORMALIZED_COORDINATES);
    float dirs[6][4] = { { 1, 0, 0, 0 }, { -1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, -1, 0, 0 }, { 0, 0, 1, 0 },
                         { 0, 0, -1, 0 } };
    float cube[4 * 6];
    fetch("texcube", o, dirs, sizeof dirs, cube, 6);
    for (int f = 0; f < 6; f++)
        ck_assert_msg(cube[4 * f] == 10.0f * f + 1, "face %d: %g", f, cube[4 * f]);
    OK(cuTexObjectDestroy(o));
    OK(cuArrayDestroy(a));
    /* a cubemap's faces are square, 6 of them */
    cd.Height = 3;
    FAILS(cuArray3DCreate_v2(&a, &cd), CUDA_ERROR_INVALID_VALUE);
    cd.Height = 2;
    cd.Depth = 5;
    FAILS(cuArray3DCreate_v2(&a, &cd), CUDA_ERROR_INVALID_VALUE);
    finish(c);
}
END_TEST

/* A surface read and written by a kernel (suld, sust), the array then copied out; a surface on
 * an array made without SURFACE_LDST is refused; a store outside it under .trap faults. */
START_TEST(test_surface)
{
    CUcontext c = start();
    enum { SW = 5, SH = 3 };
    uint32_t v[SW * SH], got[SW * SH];
    for (int i = 0; i < SW * SH; i++)
        v[i] = 1000u * (uint32_t)i + 7;
    CUarray a;
    CUDA_ARRAY3D_DESCRIPTOR d = { SW, SH, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, CUDA_ARRAY3D_SURFACE_LDST };
    OK(cuArray3DCreate_v2(&a, &d));
    CUDA_MEMCPY2D cp;
    memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_HOST;
    cp.srcHost = v;
    cp.srcPitch = SW * 4;
    cp.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    cp.dstArray = a;
    cp.WidthInBytes = SW * 4;
    cp.Height = SH;
    OK(cuMemcpy2D_v2(&cp));
    CUDA_RESOURCE_DESC r;
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_ARRAY;
    r.res.array.hArray = a;
    CUsurfObject s;
    OK(cuSurfObjectCreate(&s, &r));
    unsigned w = SW, add = 5;
    void *args[] = { &s, &w, &add };
    OK(cuLaunchKernel(kernel("surf_add"), 1, 1, 1, SW, SH, 1, 0, NULL, args, NULL));
    OK(cuCtxSynchronize());
    /* the copy out of rows 1 and 2 from byte 4 on: a 2D copy from the array */
    memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    cp.srcArray = a;
    cp.srcXInBytes = 4;
    cp.srcY = 1;
    cp.dstMemoryType = CU_MEMORYTYPE_HOST;
    cp.dstHost = got;
    cp.dstPitch = SW * 4;
    cp.WidthInBytes = (SW - 1) * 4;
    cp.Height = SH - 1;
    OK(cuMemcpy2D_v2(&cp));
    for (int y = 1; y < SH; y++)
        for (int x = 1; x < SW; x++)
            ck_assert_uint_eq(got[(y - 1) * SW + x - 1], v[y * SW + x] + 5);
    /* past the array's rows: refused */
    cp.srcY = 2;
    FAILS(cuMemcpy2D_v2(&cp), CUDA_ERROR_INVALID_VALUE);
    cp.srcY = SH;
    cp.Height = 1;
    FAILS(cuMemcpy2D_v2(&cp), CUDA_ERROR_INVALID_VALUE);
    /* a texture object's handle is no surface's */
    static const int clamp[2] = { CLAMP, CLAMP };
    CUtexObject t = texture(a, clamp, false, CU_TRSF_READ_AS_INTEGER);
    OK(cuSurfObjectDestroy(s));
    FAILS(cuSurfObjectDestroy(s), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuSurfObjectDestroy(t), CUDA_ERROR_INVALID_VALUE);
    /* an array made without SURFACE_LDST holds no surface */
    CUarray plain;
    d.Flags = 0;
    OK(cuArray3DCreate_v2(&plain, &d));
    r.res.array.hArray = plain;
    FAILS(cuSurfObjectCreate(&s, &r), CUDA_ERROR_INVALID_VALUE);
    /* 6 threads in x: the sixth stores outside the 5-texel rows under .trap */
    r.res.array.hArray = a;
    OK(cuSurfObjectCreate(&s, &r));
    OK(cuLaunchKernel(kernel("surf_add"), 1, 1, 1, SW + 1, 1, 1, 0, NULL, args, NULL));
    FAILS(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    finish(c);
}
END_TEST

/* Textures over pitched and linear memory: rows pitch bytes apart (the padding never read),
 * and tex1Dfetch's texel indices. */
START_TEST(test_pitched_and_linear)
{
    CUcontext c = start();
    CUdeviceptr p;
    size_t pitch;
    OK(cuMemAllocPitch_v2(&p, &pitch, W * 4, H, 4));
    ck_assert(pitch > W * 4);
    float *host = calloc(pitch / 4 * H, 4), t[W * H];
    ramp(t, W * H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < (int)(pitch / 4); x++)
            host[y * (pitch / 4) + x] = x < W ? t[y * W + x] : 1e9f;
    OK(cuMemcpyHtoD_v2(p, host, pitch * H));
    CUDA_RESOURCE_DESC r;
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_PITCH2D;
    r.res.pitch2D.devPtr = p;
    r.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
    r.res.pitch2D.numChannels = 1;
    r.res.pitch2D.width = W;
    r.res.pitch2D.height = H;
    r.res.pitch2D.pitchInBytes = pitch;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    CUtexObject o;
    OK(cuTexObjectCreate(&o, &r, &td, NULL));
    CUDA_RESOURCE_DESC back;
    OK(cuTexObjectGetResourceDesc(&back, o));
    ck_assert(back.resType == CU_RESOURCE_TYPE_PITCH2D && back.res.pitch2D.pitchInBytes == pitch);
    float coords[2 * 100], got[4 * 100];
    unsigned n = coordinates(coords, false);
    fetch("tex2d_f", o, coords, sizeof coords, got, n);
    static const int clamp[2] = { CLAMP, CLAMP };
    for (unsigned i = 0; i < n; i++)
        ck_assert_msg(got[4 * i] == (float)fetch_2d(t, W, H, clamp, true, false, coords[2 * i], coords[2 * i + 1]),
                      "(%g, %g): %.9g", coords[2 * i], coords[2 * i + 1], got[4 * i]);
    /* a pitch below a row, or not a multiple of 32 bytes: refused */
    r.res.pitch2D.pitchInBytes = W * 4 - 4;
    FAILS(cuTexObjectCreate(&o, &r, &td, NULL), CUDA_ERROR_INVALID_VALUE);
    r.res.pitch2D.pitchInBytes = pitch - 4;
    FAILS(cuTexObjectCreate(&o, &r, &td, NULL), CUDA_ERROR_INVALID_VALUE);

    int32_t words[6] = { 5, -6, 7, -8, 9, 10 }, idx[5] = { 0, 3, 5, 1, 4 }, fetched[4 * 5];
    CUdeviceptr lin;
    OK(cuMemAlloc_v2(&lin, sizeof words));
    OK(cuMemcpyHtoD_v2(lin, words, sizeof words));
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_LINEAR;
    r.res.linear.devPtr = lin;
    r.res.linear.format = CU_AD_FORMAT_SIGNED_INT32;
    r.res.linear.numChannels = 1;
    r.res.linear.sizeInBytes = sizeof words;
    memset(&td, 0, sizeof td);
    td.flags = CU_TRSF_READ_AS_INTEGER;
    OK(cuTexObjectCreate(&o, &r, &td, NULL));
    fetch("tex1d_fetch", o, idx, sizeof idx, fetched, 5);
    static const int32_t want[5] = { 5, -8, 10, -6, 9 };
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(fetched[i], want[i]);
    /* linear memory past its allocation: refused */
    r.res.linear.sizeInBytes = sizeof words + 4;
    FAILS(cuTexObjectCreate(&o, &r, &td, NULL), CUDA_ERROR_INVALID_VALUE);
    free(host);
    finish(c);
}
END_TEST

/* A kernel fetching through a handle no live object has (destroyed) faults, as a GPU's illegal
 * address, and reads nothing. */
START_TEST(test_errors)
{
    CUcontext c = start();
    float t[W * H];
    ramp(t, W * H);
    CUarray a = float_array(t, W, H);
    static const int clamp[2] = { CLAMP, CLAMP };
    CUtexObject o = texture(a, clamp, false, 0);
    OK(cuTexObjectDestroy(o));
    FAILS(cuTexObjectDestroy(o), CUDA_ERROR_INVALID_VALUE);
    CUDA_RESOURCE_DESC r;
    FAILS(cuTexObjectGetResourceDesc(&r, o), CUDA_ERROR_INVALID_VALUE);
    float coords[2] = { 1, 1 }, got[4];
    CUdeviceptr dout, dcoords;
    OK(cuMemAlloc_v2(&dout, 16));
    OK(cuMemAlloc_v2(&dcoords, 8));
    OK(cuMemcpyHtoD_v2(dcoords, coords, 8));
    unsigned n = 1;
    void *args[] = { &dout, &dcoords, &o, &n };
    OK(cuLaunchKernel(kernel("tex2d_f"), 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    FAILS(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    FAILS(cuMemcpyDtoH_v2(got, dout, 16), CUDA_ERROR_ILLEGAL_ADDRESS);
    ck_assert_ptr_nonnull(strstr(report(), "not the handle of a texture"));
    finish(c);
}
END_TEST

/* What ptxrun's images cannot hold is refused by name; what CUDA refuses, as CUDA does. */
START_TEST(test_refusals)
{
    CUcontext c = start();
    float t[W * H], coords[2] = { 1, 1 };
    unsigned n = 1;
    ramp(t, W * H);
    static const int clamp[2] = { CLAMP, CLAMP };
    (void)clamp;
    CUtexObject o;
    CUDA_RESOURCE_DESC r;
    CUarray a = float_array(t, W, H);
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_ARRAY;
    r.res.array.hArray = a;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.flags = CU_TRSF_SRGB;
    FAILS(cuTexObjectCreate(&o, &r, &td, NULL), CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_ptr_nonnull(strstr(report(), "sRGB texture is not supported yet"));
    td.flags = 0;
    td.addressMode[0] = CU_TR_ADDRESS_MODE_BORDER;
    td.borderColor[0] = 1;
    FAILS(cuTexObjectCreate(&o, &r, &td, NULL), CUDA_ERROR_NOT_SUPPORTED);
    td.borderColor[0] = 0;
    CUDA_RESOURCE_VIEW_DESC view;
    memset(&view, 0, sizeof view);
    FAILS(cuTexObjectCreate(&o, &r, &td, &view), CUDA_ERROR_NOT_SUPPORTED);
    FAILS(cuTexObjectCreate(&o, &r, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    td.filterMode = (CUfilter_mode)2;
    FAILS(cuTexObjectCreate(&o, &r, &td, NULL), CUDA_ERROR_INVALID_VALUE);
    td.filterMode = CU_TR_FILTER_MODE_POINT;
    r.flags = 1;
    FAILS(cuTexObjectCreate(&o, &r, &td, NULL), CUDA_ERROR_INVALID_VALUE);
    r.flags = 0;
    r.res.array.hArray = (CUarray)&td;
    FAILS(cuTexObjectCreate(&o, &r, &td, NULL), CUDA_ERROR_INVALID_HANDLE);
    /* half floats: an array of them is made and copied, a texture of them refused */
    CUarray half;
    CUDA_ARRAY_DESCRIPTOR hd = { 4, 4, CU_AD_FORMAT_HALF, 1 };
    OK(cuArrayCreate_v2(&half, &hd));
    r.res.array.hArray = half;
    FAILS(cuTexObjectCreate(&o, &r, &td, NULL), CUDA_ERROR_NOT_SUPPORTED);
    /* arrays CUDA does not make */
    CUDA_ARRAY_DESCRIPTOR bad = { 4, 4, CU_AD_FORMAT_FLOAT, 3 };
    CUarray b;
    FAILS(cuArrayCreate_v2(&b, &bad), CUDA_ERROR_INVALID_VALUE);
    bad.NumChannels = 1;
    bad.Width = 0;
    FAILS(cuArrayCreate_v2(&b, &bad), CUDA_ERROR_INVALID_VALUE);
    bad.Width = 4;
    bad.Format = (CUarray_format)0x33;
    FAILS(cuArrayCreate_v2(&b, &bad), CUDA_ERROR_INVALID_VALUE);
    bad.Format = (CUarray_format)0x97;         /* BC4: CUDA's, not ptxrun's */
    FAILS(cuArrayCreate_v2(&b, &bad), CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_ptr_nonnull(strstr(report(), "format 0x97"));
    OK(cuArrayDestroy(half));
    FAILS(cuArrayDestroy(half), CUDA_ERROR_INVALID_HANDLE);
    CUDA_ARRAY_DESCRIPTOR back;
    FAILS(cuArrayGetDescriptor_v2(&back, half), CUDA_ERROR_INVALID_HANDLE);
    OK(cuArrayGetDescriptor_v2(&back, a));
    ck_assert(back.Width == W && back.Height == H && back.Format == CU_AD_FORMAT_FLOAT && back.NumChannels == 1);
    /* an object whose array was destroyed is left out of launches: its use faults */
    r.res.array.hArray = a;
    OK(cuTexObjectCreate(&o, &r, &td, NULL));
    OK(cuArrayDestroy(a));
    CUdeviceptr dc, dd;
    OK(cuMemAlloc_v2(&dd, 16));
    OK(cuMemAlloc_v2(&dc, 8));
    OK(cuMemcpyHtoD_v2(dc, coords, 8));
    void *args2[] = { &dd, &dc, &o, &n };
    OK(cuLaunchKernel(kernel("tex2d_f"), 1, 1, 1, 1, 1, 1, 0, NULL, args2, NULL));
    FAILS(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    finish(c);
}
END_TEST

/* ---- the runtime's calls, over the driver's (the kernels launched through the driver in the
 * runtime's primary context, where its objects live) */

static void runtime_module(void)
{
    OK(cudaFree(NULL));                        /* the primary context made current */
    module = NULL;
}

START_TEST(test_runtime_arrays)
{
    setenv("PTXRUN_REPORT", "none", 1);
    runtime_module();
    struct cudaChannelFormatDesc f = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    ck_assert(f.x == 32 && f.y == 0 && f.f == cudaChannelFormatKindFloat);
    cudaArray_t a;
    ck_assert_int_eq(cudaMallocArray(&a, &f, W, H, 0), cudaSuccess);
    struct cudaChannelFormatDesc back;
    struct cudaExtent e;
    unsigned flags;
    ck_assert_int_eq(cudaArrayGetInfo(&back, &e, &flags, a), cudaSuccess);
    ck_assert(back.x == 32 && back.y == 0 && back.f == cudaChannelFormatKindFloat);
    ck_assert(e.width == W && e.height == H && e.depth == 0 && flags == 0);
    /* cudaMemcpyToArray: count bytes from (byte 12, row 1) on, across rows */
    float t[W * H], got[W * H];
    ramp(t, W * H);
    float zero[W * H] = { 0 };
    ck_assert_int_eq(cudaMemcpy2DToArray(a, 0, 0, zero, W * 4, W * 4, H, cudaMemcpyHostToDevice), cudaSuccess);
    ck_assert_int_eq(cudaMemcpyToArray(a, 12, 1, t, 13 * 4, cudaMemcpyHostToDevice), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy2DFromArray(got, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < W * H; i++) {
        int k = i - (W + 3);
        ck_assert_msg(got[i] == (k >= 0 && k < 13 ? t[k] : 0), "element %d: %g", i, got[i]);
    }
    float run[5];
    ck_assert_int_eq(cudaMemcpyFromArray(run, a, 4 * 7, 1, sizeof run, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 5; i++)
        ck_assert(run[i] == got[W + 7 + i]);
    /* past the end; the wrong direction */
    ck_assert_int_eq(cudaMemcpyToArray(a, 4, H - 1, t, W * 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaMemcpyToArray(a, 0, 0, t, 4, cudaMemcpyDeviceToHost), cudaErrorInvalidMemcpyDirection);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
    /* a channel description no array takes */
    struct cudaChannelFormatDesc three = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t b;
    ck_assert_int_eq(cudaMallocArray(&b, &three, 4, 4, 0), cudaErrorInvalidChannelDescriptor);
    ck_assert_int_eq(cudaFreeArray(a), cudaSuccess);
    ck_assert_int_eq(cudaFreeArray(a), cudaErrorInvalidResourceHandle);

    /* cudaMemcpy3D into a layered array (positions and extent in elements), then out of it */
    enum { LAYERS = 2 };
    float layers[LAYERS * H * W], out[LAYERS * H * W];
    for (int i = 0; i < LAYERS * H * W; i++)
        layers[i] = (float)i;
    ck_assert_int_eq(cudaMalloc3DArray(&a, &f, (struct cudaExtent){ W, H, LAYERS }, cudaArrayLayered), cudaSuccess);
    ck_assert_int_eq(cudaArrayGetInfo(NULL, &e, &flags, a), cudaSuccess);
    ck_assert(e.width == W && e.height == H && e.depth == LAYERS && flags == cudaArrayLayered);
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = (struct cudaPitchedPtr){ layers, W * 4, W, H };
    p.dstArray = a;
    p.extent = (struct cudaExtent){ W, H, LAYERS };
    p.kind = cudaMemcpyHostToDevice;
    ck_assert_int_eq(cudaMemcpy3D(&p), cudaSuccess);
    memset(&p, 0, sizeof p);
    memset(out, 0, sizeof out);
    p.srcArray = a;
    p.srcPos = (struct cudaPos){ 2, 1, 1 };    /* element 2 of row 1 of layer 1 */
    p.dstPtr = (struct cudaPitchedPtr){ out, W * 4, W, H };
    p.extent = (struct cudaExtent){ 3, 2, 1 };
    p.kind = cudaMemcpyDeviceToHost;
    ck_assert_int_eq(cudaMemcpy3D(&p), cudaSuccess);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++)
            ck_assert(out[y * W + x] == layers[(1 * H + 1 + y) * W + 2 + x]);
    ck_assert(out[3] == 0 && out[2 * W] == 0);
    p.kind = cudaMemcpyHostToDevice;           /* from an array is not host to device */
    ck_assert_int_eq(cudaMemcpy3D(&p), cudaErrorInvalidMemcpyDirection);
    /* an element x whose byte offset wraps past 2^64 is outside the array, not element 0 */
    p.kind = cudaMemcpyDeviceToHost;
    p.srcPos = (struct cudaPos){ (size_t)1 << 62, 0, 0 };
    p.extent = (struct cudaExtent){ 1, 1, 1 };
    ck_assert_int_eq(cudaMemcpy3D(&p), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaFreeArray(a), cudaSuccess);
}
END_TEST

/* cudaReadModeElementType reads 8-bit texels as integers, cudaReadModeNormalizedFloat as floats;
 * normalizedCoords and the address modes as the driver's; a surface object writes the array. */
START_TEST(test_runtime_objects)
{
    setenv("PTXRUN_REPORT", "none", 1);
    runtime_module();
    struct cudaChannelFormatDesc f = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t a;
    ck_assert_int_eq(cudaMallocArray(&a, &f, 4, 1, cudaArraySurfaceLoadStore), cudaSuccess);
    const uint8_t bytes[4] = { 0, 51, 204, 255 };
    ck_assert_int_eq(cudaMemcpyToArray(a, 0, 0, bytes, 4, cudaMemcpyHostToDevice), cudaSuccess);
    struct cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    struct cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.normalizedCoords = 1;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t as_int, as_float;
    ck_assert_int_eq(cudaCreateTextureObject(&as_int, &r, &td, NULL), cudaSuccess);
    td.readMode = cudaReadModeNormalizedFloat;
    ck_assert_int_eq(cudaCreateTextureObject(&as_float, &r, &td, NULL), cudaSuccess);
    ck_assert(as_int != as_float);
    struct cudaResourceDesc back;
    ck_assert_int_eq(cudaGetTextureObjectResourceDesc(&back, as_int), cudaSuccess);
    ck_assert(back.resType == cudaResourceTypeArray && back.res.array.array == a);
    /* x = 1.375 wraps to 0.375: texel 1 of 4 */
    float coords[4] = { 1.375f, 0.5f, -0.125f, 0.5f };
    int32_t ints[8];
    float floats[8];
    fetch("tex2d_u", as_int, coords, sizeof coords, ints, 2);
    fetch("tex2d_f", as_float, coords, sizeof coords, floats, 2);
    ck_assert_int_eq(ints[0], 51);
    ck_assert_int_eq(ints[4], 255);
    ck_assert(floats[0] == 51.0f / 255.0f && floats[4] == 1.0f);
    ck_assert_int_eq(cudaDestroyTextureObject(as_int), cudaSuccess);
    ck_assert_int_eq(cudaDestroyTextureObject(as_int), cudaErrorInvalidValue);
    /* surfaces: only on an array */
    cudaSurfaceObject_t s;
    r.resType = cudaResourceTypeLinear;
    ck_assert_int_ne(cudaCreateSurfaceObject(&s, &r), cudaSuccess);
    r.resType = cudaResourceTypeArray;
    ck_assert_int_eq(cudaCreateSurfaceObject(&s, &r), cudaSuccess);
    ck_assert_int_eq(cudaDestroySurfaceObject(s), cudaSuccess);
    ck_assert_int_eq(cudaFreeArray(a), cudaSuccess);
}
END_TEST

static Suite *cudatex_suite(void)
{
    Suite *s = suite_create("cudatex");
    TCase *t = tcase_create("driver");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_filtering_and_addressing);
    tcase_add_test(t, test_read_modes);
    tcase_add_test(t, test_layered_and_cube);
    tcase_add_test(t, test_surface);
    tcase_add_test(t, test_pitched_and_linear);
    tcase_add_test(t, test_errors);
    tcase_add_test(t, test_refusals);
    suite_add_tcase(s, t);
    t = tcase_create("runtime");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_runtime_arrays);
    tcase_add_test(t, test_runtime_objects);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cudatex_suite());
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
