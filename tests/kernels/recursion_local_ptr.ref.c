/* recursion_local_ptr: the same recursion on the host, whose C frames are distinct, so the
 * pointers reach the outer activations' arrays. Depths 9 + (13 * lane) % 32: 9 to 40, each once. */
#include "ref_common.h"

static void descend(uint32_t *root, uint32_t *parent, uint32_t depth, uint32_t seed)
{
    uint32_t mine[2];
    mine[0] = seed ^ parent[0];
    mine[1] = depth;
    parent[1] = parent[1] * 3u + seed;
    root[depth & 1] += mine[0];
    if (depth != 0)
        descend(root, mine, depth - 1, seed * 1664525u + 1013904223u);
    parent[0] += mine[0] ^ (mine[1] * 7u);
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(1803);
    uint32_t depths[32], seeds[32], frames[32 * 4];
    for (uint32_t l = 0; l < 32; l++) {
        depths[l] = 9u + (13u * l) % 32u;
        seeds[l] = rnd();
    }
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t root[2] = { l, l * 3u };
        uint32_t top[2] = { 0x9e3779b9u * l, 1u };
        descend(root, top, depths[l], seeds[l]);
        frames[l * 4 + 0] = root[0];
        frames[l * 4 + 1] = root[1];
        frames[l * 4 + 2] = top[0];
        frames[l * 4 + 3] = top[1];
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "depths", "u32", depths, 32);
    lanes_buf(f, "seeds", "u32", seeds, 32);
    lanes_zero(f, "frames", "u32", 32 * 4);
    lanes_end(f, "\"@depths\", \"@seeds\", \"@frames\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "frames", "u32", frames, 32 * 4);
    expect_end(f);
    return 0;
}
