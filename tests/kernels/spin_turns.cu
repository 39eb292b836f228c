// Lanes of one warp wait for each other through memory; this needs independent thread
// scheduling (sm_70+) to finish.
//  (1) Turn taking in shared memory: lane `l` spins until the volatile `turn` equals
//      order[l], then appends itself to a log, folds its lane id into a running hash (an
//      order-dependent value) and passes the turn on.
//  (2) A global spin lock (atomicCAS / atomicExch) around a non-atomic read-modify-write of a
//      volatile global counter.
extern "C" __global__ void kernel(const int *order, int *seq, unsigned *hash_out, int *lock,
                                  volatile unsigned *counter)
{
    __shared__ volatile int turn;
    __shared__ volatile unsigned hash;
    int lane = threadIdx.x;
    if (lane == 0) {
        turn = 0;
        hash = 17;
    }
    __syncwarp();
    int my = order[lane];
    while (turn != my)
        ;
    seq[my] = lane;
    hash = hash * 31u + (unsigned)lane;
    __threadfence_block();
    turn = my + 1;
    __syncwarp();
    if (lane == 0)
        hash_out[0] = hash;

    while (atomicCAS(lock, 0, 1) != 0)
        ;
    __threadfence();
    unsigned c = counter[0];              // non-atomic read-modify-writes: lost updates
    counter[0] = c + 1u;                  // would show if two lanes were inside at once
    counter[1] = counter[1] + (unsigned)lane * (unsigned)lane;
    __threadfence();
    atomicExch(lock, 0);
}
