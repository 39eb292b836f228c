// A recursive __noinline__ device function whose activations keep a local array and hand its
// address to the callee, which reads and writes the caller's array through that pointer (before
// and after its own recursive call); every activation also updates an array in the kernel's own
// frame through a pointer passed all the way down. Pointers into outer activations' stack
// frames must therefore reach those frames, not the current one. Each lane recurses to its own
// depth, 9 to 40 (41 activations: more than 32 nested calls). ptxas gives descend a 24-byte
// frame and the kernel a 16-byte one, so 16 + 41 * 24 = 1000 bytes fit the GPU's default
// 1 KiB stack.
__device__ __noinline__ void descend(unsigned *root, unsigned *parent, unsigned depth,
                                     unsigned seed)
{
    unsigned mine[2];
    mine[0] = seed ^ parent[0];             // reads the caller's frame
    mine[1] = depth;
    parent[1] = parent[1] * 3u + seed;      // writes the caller's frame
    root[depth & 1] += mine[0];             // writes the kernel's frame
    if (depth != 0)
        descend(root, mine, depth - 1, seed * 1664525u + 1013904223u);
    // the callee rewrote mine[1] and (on its way out) mine[0]
    parent[0] += mine[0] ^ (mine[1] * 7u);
}

extern "C" __global__ void kernel(const unsigned *depths, const unsigned *seeds, unsigned *frames)
{
    unsigned lane = threadIdx.x;
    unsigned root[2] = { lane, lane * 3u };
    unsigned top[2] = { 0x9e3779b9u * lane, 1u };
    descend(root, top, depths[lane], seeds[lane]);
    frames[lane * 4 + 0] = root[0];
    frames[lane * 4 + 1] = root[1];
    frames[lane * 4 + 2] = top[0];
    frames[lane * 4 + 3] = top[1];
}
