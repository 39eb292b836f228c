/* Reference for printf_all.cu: the text the kernel prints, made by the host C library's printf
 * on the same values (CUDA formats device printf on the host too), call by call and, within a
 * call, thread by thread (one warp executes each call for all its threads together, in lane
 * order). ret holds what CUDA's printf returns: the number of arguments after the format,
 * counted here by hand for each call, less those of %hh conversions: an H100 returned 5, not 8,
 * for call 1 (8 arguments, 3 of them %hh; tests/h100_more/whole/kernels/printf_all.*.h100.json),
 * and every other call's count as the guide's rule gives it. Call 1's text is the H100's too
 * (tests/h100_more/printf_hh): after a %hh conversion the arguments shift by one slot. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ref_common.h"

enum { N = 4, CALLS = 12 };

static const char f1[] = "[%d] %hd %hhd %hu %hhu %hx %hhX|%-+6hd|\n";

static char text[1 << 16];
static size_t text_len;

static void out(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text + text_len, sizeof text - text_len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof text - text_len) {
        fprintf(stderr, "printf_all.ref: text too long\n");
        exit(1);
    }
    text_len += (size_t)n;
}

static void json_text(FILE *f, const char *s, size_t n)
{
    fputc('"', f);
    for (size_t k = 0; k < n; k++) {
        unsigned char ch = (unsigned char)s[k];
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", f);
        else if (ch < 0x20 || ch >= 0x7f)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    static const int32_t iv[N] = { 0, -1, 123456789, INT32_MIN };
    static const int64_t lv[N] = { 0, -1, INT64_MAX, INT64_MIN };
    double dv[N] = { -0.0, 3.141592653589793, -1.0e-310, INFINITY };
    float fv[N] = { NAN, 1.0f / 3.0f, -1.0e38f, 1.4e-45f };
    static const char *names[N] = { "warp", "lane", "", "thread block" };
    static const int32_t args[CALLS] = { 16, 8 - 3, 10, 9, 10, 6, 6, 7, 7, 3, 2, 1 };
    int32_t ret[N * CALLS];
    for (int t = 0; t < N; t++)
        for (int j = 0; j < CALLS; j++)
            ret[t * CALLS + j] = args[j];

    for (int j = 0; j < CALLS; j++) {
        for (int t = 0; t < N; t++) {
            int i = iv[t];
            long long l = lv[t];
            double d = dv[t];
            float f = fv[t];
            const char *s = names[t];
            switch (j) {
            case 0:
                out("[%d] %d %i %u %x %X %o|%5d|%-5d|%05d|%+d|% d|%#x|%#o|%.3d|%8.4d|\n", t, i, i, (unsigned)i,
                    (unsigned)i, (unsigned)i, (unsigned)i, i, i, i, i, i, (unsigned)i, (unsigned)i, i, i);
                break;
            case 1:
                /* the H100 (tests/h100_more/printf_hh): the device takes the first 5 arguments
                 * (none for %hh), the host prints each conversion with the next slot, so the
                 * last three read the format string's bytes 0-1, 8 and 16-17 (8 to a slot) */
                out(f1, t, (short)i, (signed char)i, (unsigned short)i, (unsigned char)i,
                    (unsigned short)((unsigned char)f1[0] | (unsigned char)f1[1] << 8), (unsigned char)f1[8],
                    (short)((unsigned char)f1[16] | (unsigned char)f1[17] << 8));
                break;
            case 2:
                out("[%d] %lld %lld %llu %llu %llx %llX %#llo|%-22lld|%+020lld|\n", t, l, l, (unsigned long long)l,
                    (unsigned long long)l, (unsigned long long)l, (unsigned long long)l, (unsigned long long)l, l, l);
                break;
            case 3:
                out("[%d] %f %.2f %10.3f %-12.1f| %+e %E %.0e %#.0e\n", t, d, d, d, d, d, d, d, d);
                break;
            case 4:
                out("[%d] %g %G %#g %.3g %-10g| %a %A %.2a %F\n", t, d, d, d, d, d, d, d, d, d);
                break;
            case 5:
                out("[%d] float %f %e %g %a % .3f\n", t, (double)f, (double)f, (double)f, (double)f, (double)f);
                break;
            case 6:
                out("[%d] %c%c|%5c|%-3c|%%|%5.1f%%\n", t, 'A' + t, 'z' - t, '0' + t, '#', d);
                break;
            case 7:
                out("[%d] %s|%10s|%-10s|%.3s|%.0s|%s\n", t, s, s, s, s, s, "literal");
                break;
            case 8:
                out("[%d] %*d|%-*d|%*s|\n", t, 6, i, -6, i, t - 2, "ab");
                break;
            case 9:
                out("[%d] %p %p\n", t, (void *)0, (void *)(uintptr_t)(0x1000u + 16u * (unsigned)t));
                break;
            case 10:
                out("[%d] %s\n", t, t == 2 ? "(null)" : "non-null");   /* glibc prints NULL so */
                break;
            default:
                out("no arguments, thread %s\n", t < 2 ? "low" : "high");
                break;
            }
        }
    }

    FILE *fl = lanes_begin(argv[1], N);
    lanes_buf(fl, "iv", "s32", iv, N);
    lanes_buf(fl, "lv", "s64", lv, N);
    lanes_buf(fl, "dv", "f64", dv, N);
    lanes_buf(fl, "fv", "f32", fv, N);
    lanes_zero(fl, "ret", "s32", N * CALLS);
    lanes_end(fl, "\"@iv\", \"@lv\", \"@dv\", \"@fv\", \"@ret\"", NULL);
    FILE *fe = expect_begin(argv[2]);
    expect_buf(fe, "ret", "s32", ret, N * CALLS);
    fputs("\n },\n \"stdout\": ", fe);
    json_text(fe, text, text_len);
    fputs("}\n", fe);
    close_out(fe);
    return 0;
}
