/* Reference for assert_fail.cu: in[k] = k ^ 10, so only thread 13 (x 5, y 1) holds 7 and fails
 * the assert at line 11 of assert_fail.cu; the message is the CUDA Programming Guide's format,
 * "FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion `EXPR` failed.", with
 * nvcc's __PRETTY_FUNCTION__ of the kernel. Before it, every thread prints one line (one warp:
 * all of them print before any reaches the assert). Expected: exit 3, that message, that text. */
#include <stdint.h>
#include <stdio.h>

#include "ref_common.h"

enum { BX = 8, BY = 2, N = BX * BY, ASSERT_LINE = 11 };

int main(int argc, char **argv)
{
    check_args(argc, argv);
    int32_t in[N];
    for (int k = 0; k < N; k++)
        in[k] = k ^ 10;
    int block[3] = { BX, BY, 1 }, grid[3] = { 1, 1, 1 };
    FILE *fl = lanes_begin_grid(argv[1], block, grid);
    lanes_buf(fl, "in", "s32", in, N);
    lanes_zero(fl, "out", "s32", N);
    lanes_end(fl, "\"@in\", \"@out\"", NULL);

    FILE *fe = open_out(argv[2]);
    fputs("{\"exit\": 3,\n \"diagnostic\": \"", fe);
    for (int k = 0; k < N; k++)
        if (in[k] == 7)
            fprintf(fe, "assert_fail.cu:%d: void kernel(const int *, int *): block: [0,0,0], thread: [%d,%d,0] "
                    "Assertion `in[t] != 7` failed.", ASSERT_LINE, k % BX, k / BX);
    fputs("\",\n \"stdout\": \"", fe);
    for (int k = 0; k < N; k++)
        fprintf(fe, "thread %d (%d,%d) sees %d\\n", k, k % BX, k / BX, in[k]);
    fputs("\"}\n", fe);
    close_out(fe);
    return 0;
}
