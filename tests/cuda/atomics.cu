// atomics.cu: atomics from 4 blocks of 256 threads, each final value computed on the host: a
// histogram (atomicAdd on int), tickets (atomicAdd's old values: each of 0..1023 once), a float
// sum of small integers (exact in any order), atomicMax/atomicMin, a counter by an atomicCAS loop,
// atomicInc's wrap, atomicOr/atomicAnd/atomicXor, a 64-bit atomicAdd, atomicExch.
#include "check.h"
#include <string.h>

enum { T = 1024, BINS = 16 };

struct Results {
    int hist[BINS];
    int tickets[T];
    int next_ticket;
    float fsum;
    int max, min;
    int cas_count;
    unsigned inc;
    unsigned bits_or, bits_and, bits_xor;
    unsigned long long big;
    int exch;
};

__global__ void atomics(const int *in, Results *r)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, v = in[t];
    atomicAdd(&r->hist[v % BINS], 1);
    r->tickets[t] = atomicAdd(&r->next_ticket, 1);
    atomicAdd(&r->fsum, (float)(v % 10));
    atomicMax(&r->max, v);
    atomicMin(&r->min, v);
    int old = r->cas_count, seen;
    while ((seen = atomicCAS(&r->cas_count, old, old + 1)) != old)
        old = seen;
    atomicInc(&r->inc, 9);
    atomicOr(&r->bits_or, 1u << (v % 32));
    atomicAnd(&r->bits_and, ~(1u << (v % 31)));
    atomicXor(&r->bits_xor, (unsigned)v);
    atomicAdd(&r->big, 0x100000000ull + (unsigned long long)v);
    atomicExch(&r->exch, 7);
}

int main(void)
{
    static int in[T];
    Results want, got;
    memset(&want, 0, sizeof want);
    want.max = -1000000;
    want.min = 1000000;
    want.bits_and = 0xffffffffu;
    for (int t = 0; t < T; t++) {
        in[t] = (t * 7919) % 5003 - 100;
        if (in[t] < 0)
            in[t] = -in[t];
        int v = in[t];
        want.hist[v % BINS]++;
        want.fsum += (float)(v % 10);
        want.max = v > want.max ? v : want.max;
        want.min = v < want.min ? v : want.min;
        want.inc = want.inc >= 9 ? 0 : want.inc + 1;
        want.bits_or |= 1u << (v % 32);
        want.bits_and &= ~(1u << (v % 31));
        want.bits_xor ^= (unsigned)v;
        want.big += 0x100000000ull + (unsigned long long)v;
    }
    Results start;
    memset(&start, 0, sizeof start);
    start.max = -1000000;
    start.min = 1000000;
    start.bits_and = 0xffffffffu;
    int *din;
    Results *dr;
    CHECK_OK(cudaMalloc(&din, sizeof in));
    CHECK_OK(cudaMalloc(&dr, sizeof(Results)));
    CHECK_OK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    CHECK_OK(cudaMemcpy(dr, &start, sizeof start, cudaMemcpyHostToDevice));
    atomics<<<T / 256, 256>>>(din, dr);
    CHECK_OK(cudaGetLastError());
    CHECK_OK(cudaDeviceSynchronize());
    CHECK_OK(cudaMemcpy(&got, dr, sizeof got, cudaMemcpyDeviceToHost));

    CHECK(!memcmp(got.hist, want.hist, sizeof want.hist), "histogram of %d values in %d bins", T, BINS);
    static char seen[T];
    int unique = 0;
    for (int t = 0; t < T; t++)
        if (got.tickets[t] >= 0 && got.tickets[t] < T && !seen[got.tickets[t]]++)
            unique++;
    CHECK(unique == T && got.next_ticket == T, "atomicAdd's old values: %d distinct tickets of %d, next %d", unique,
          T, got.next_ticket);
    CHECK(got.fsum == want.fsum, "atomicAdd float: %g (host %g)", got.fsum, want.fsum);
    CHECK(got.max == want.max && got.min == want.min, "atomicMax %d, atomicMin %d (host %d, %d)", got.max, got.min,
          want.max, want.min);
    CHECK(got.cas_count == T, "atomicCAS loop counted %d (host %d)", got.cas_count, T);
    CHECK(got.inc == want.inc, "atomicInc wrapping at 9: %u (host %u)", got.inc, want.inc);
    CHECK(got.bits_or == want.bits_or && got.bits_and == want.bits_and && got.bits_xor == want.bits_xor,
          "atomicOr %#x, atomicAnd %#x, atomicXor %#x (host %#x, %#x, %#x)", got.bits_or, got.bits_and, got.bits_xor,
          want.bits_or, want.bits_and, want.bits_xor);
    CHECK(got.big == want.big, "64-bit atomicAdd %#llx (host %#llx)", got.big, want.big);
    CHECK(got.exch == 7, "atomicExch %d", got.exch);
    CHECK_OK(cudaFree(din));
    CHECK_OK(cudaFree(dr));
    return check_report("atomics");
}
