/* kernels.c: the loops over a warp's lanes that take most of a run's time (32-bit integer
 * arithmetic, compares into a lane mask, a shuffle's moves, a masked copy), built once for
 * the baseline of the target and, with GCC or Clang on x86-64, once for AVX2 and once for
 * AVX-512; kernels_for_cpu picks the widest this processor runs. All copies compute the same
 * values (tests/check_kernels.c checks each against the PTX meaning, lane by lane). The loops are in kernels_body.h.
 * Requires: nothing but program.h. */
#include <string.h>

#include "program.h"

#define KERNEL(name) base_##name
#define KERNEL_TARGET
#define KERNEL_NAME "baseline"
#include "kernels_body.h"
#undef KERNEL
#undef KERNEL_TARGET
#undef KERNEL_NAME

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define KERNELS_X86 1

#define KERNEL(name) avx2_##name
#define KERNEL_TARGET __attribute__((target("avx2,bmi,bmi2,popcnt")))
#define KERNEL_NAME "avx2"
#include "kernels_body.h"
#undef KERNEL
#undef KERNEL_TARGET
#undef KERNEL_NAME

#include <immintrin.h>

#define KERNEL(name) avx512_##name
#define KERNEL_TARGET __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,bmi,bmi2,popcnt")))
#define KERNEL_NAME "avx512"
#define KERNEL_PERMUTE 1
#include "kernels_body.h"
#undef KERNEL
#undef KERNEL_TARGET
#undef KERNEL_NAME
#undef KERNEL_PERMUTE
#endif

/* The copies this processor can run, widest first; returns how many. */
unsigned kernels_available(const Kernels **out, unsigned size)
{
    unsigned n = 0;
#ifdef KERNELS_X86
    __builtin_cpu_init();
    if (n < size && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
        __builtin_cpu_supports("popcnt"))
        out[n++] = &avx512_table;
    if (n < size && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
        __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt"))
        out[n++] = &avx2_table;
#endif
    if (n < size)
        out[n++] = &base_table;
    return n;
}

const Kernels *kernels_for_cpu(void)
{
    const Kernels *k;
    kernels_available(&k, 1);
    return k;
}
