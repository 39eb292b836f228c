/* gang.c: CTAs that run together. The CTAs of a cluster, or every CTA of a cooperative launch,
 * run interleaved under one scheduler as one Gang; every other CTA runs alone (grid.c).
 * Requires: block.c (the CTA). */
#include <stdlib.h>
#include <string.h>

#include "block.h"

void block_set_cluster(Block *b, const uint32_t cluster[3])
{
    memcpy(b->cluster, cluster, sizeof b->cluster);
    b->explicit_cluster = true;
}

void block_set_cooperative(Block *b, bool on)
{
    b->cooperative = on;
}

/* b's rank in its cluster (%cluster_ctarank): x fastest. */
static uint32_t cluster_rank(const Block *b)
{
    const uint32_t *c = b->cluster;
    return b->ctaid[0] % c[0] + c[0] * (b->ctaid[1] % c[1] + c[1] * (b->ctaid[2] % c[2]));
}

Block *gang_peer(const Block *b, uint32_t rank)
{
    const uint32_t *c = b->cluster;
    if (rank >= c[0] * c[1] * c[2])
        return NULL;
    if (rank == cluster_rank(b))
        return (Block *)b;
    const Gang *g = b->gang;
    if (!g)
        return NULL;
    uint32_t id[3] = { b->ctaid[0] - b->ctaid[0] % c[0] + rank % c[0],
                       b->ctaid[1] - b->ctaid[1] % c[1] + rank / c[0] % c[1],
                       b->ctaid[2] - b->ctaid[2] % c[2] + rank / (c[0] * c[1]) };
    for (int d = 0; d < 3; d++)
        if (id[d] - g->lo[d] >= g->extent[d])
            return NULL;
    uint64_t at = (id[0] - g->lo[0]) + (uint64_t)g->extent[0] * ((id[1] - g->lo[1]) + (uint64_t)g->extent[1] *
                                                                  (id[2] - g->lo[2]));
    return at < g->count ? g->ctas[at] : NULL;
}

void gang_changed(Block *b)
{
    mem_changed(&b->mem);
}
