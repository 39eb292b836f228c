// Warp-aggregated atomic (stream compaction): inside a data-dependent branch the active lanes
// elect a leader (__activemask, __ffs), the leader reserves space with one atomicAdd of the
// group size (__popc), broadcasts the base with __shfl_sync over the active mask, and each
// lane writes at base + its rank among the active lanes (%lanemask_lt read with inline asm).
extern "C" __global__ void kernel(const int *in, int *ctr, int *compact, int *pos_out, int thr)
{
    int lane = threadIdx.x;
    int v = in[lane];
    int pos = -1;
    if (v > thr) {
        unsigned m = __activemask();
        int leader = __ffs(m) - 1;
        unsigned lt;
        asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
        int base = 0;
        if (lane == leader)
            base = atomicAdd(ctr, __popc(m));
        base = __shfl_sync(m, base, leader);
        pos = base + __popc(m & lt);
        compact[pos] = v;
    }
    pos_out[lane] = pos;
}
