/* bounds.c: a launch against its kernel's launch bounds. A GPU refuses to launch a kernel with a
 * block its .maxntid (the product of its numbers: PTX ISA, "the total number of threads") or
 * .reqntid (each dimension equal) does not allow, or with clusters its .reqnctapercluster,
 * .explicitcluster or .maxclusterrank do not allow ("a runtime error or kernel launch failure");
 * so does ptxrun, before the run, at the directive. Of each kind the last counts (ptxas reads it so);
 * a cluster directive's 0 is none (ptxas's cubin is the one without it). A launch without a cluster
 * shape runs a kernel with .reqnctapercluster in clusters of that shape (Block.cluster), the grid a
 * whole number of them, as the CUDA runtime launches nvcc's __cluster_dims__ kernels: an explicit
 * cluster launch, as the PTX ISA calls every launch but the implicit clusters of one CTA.
 * Requires: a Block whose shape and grid are set (block_set_shape, block_set_grid), its Program's kernel. */
#include <stdio.h>

#include "block.h"

/* "128, 1, 1": the directive's numbers, the missing ones 1; false if one is 0. */
static bool dims_of(const PerfDirective *d, uint32_t dims[3])
{
    dims[0] = dims[1] = dims[2] = 1;
    for (uint32_t i = 0; i < d->count && i < 3; i++)
        dims[i] = (uint32_t)d->values[i];
    return dims[0] && dims[1] && dims[2];
}

/* The threads (or CTAs) of a shape; 2^64 - 1 when more (.maxntid 4194304, 4194304, 4194304 is 2^66). */
static uint64_t product(const uint32_t d[3])
{
    uint64_t two = (uint64_t)d[0] * d[1];
    return d[2] && two > UINT64_MAX / d[2] ? UINT64_MAX : two * d[2];
}

bool bounds_check(Block *b, const uint32_t *cluster, const char *note)
{
    const Function *f = b->prog.fn;
    const PerfDirective *d;
    uint32_t want[3], given[3] = { 1, 1, 1 };
    char shape[96];
    note = note ? note : "";
    snprintf(shape, sizeof shape, "a block of %u x %u x %u (%u thread%s%s)", b->ntid[0], b->ntid[1], b->ntid[2],
             b->threads, b->threads == 1 ? "" : "s", note);
    if ((d = perf_find(f, "maxntid")) && dims_of(d, want) && b->threads > product(want)) {
        diag_at(b->diag, DIAG_ERROR, d->at, "kernel '%s' is launched with %s, but its '.maxntid %u, %u, %u' allows "
                "at most %llu thread%s a block: a GPU refuses the launch", f->name, shape, want[0], want[1], want[2],
                (unsigned long long)product(want), product(want) == 1 ? "" : "s");
        return false;
    }
    if ((d = perf_find(f, "reqntid")) && dims_of(d, want) &&
        (want[0] != b->ntid[0] || want[1] != b->ntid[1] || want[2] != b->ntid[2])) {
        diag_at(b->diag, DIAG_ERROR, d->at, "kernel '%s' is launched with %s, but its '.reqntid' requires a block of "
                "exactly %u x %u x %u: a GPU refuses the launch", f->name, shape, want[0], want[1], want[2]);
        return false;
    }
    const PerfDirective *req = perf_find(f, "reqnctapercluster");
    bool required = req && dims_of(req, want);
    if (cluster) {
        given[0] = cluster[0], given[1] = cluster[1], given[2] = cluster[2];
        if (required && (want[0] != given[0] || want[1] != given[1] || want[2] != given[2])) {
            diag_at(b->diag, DIAG_ERROR, req->at, "kernel '%s' is launched with clusters of %u x %u x %u CTAs, but its "
                    "'.reqnctapercluster' requires %u x %u x %u: a GPU refuses the launch", f->name, given[0],
                    given[1], given[2], want[0], want[1], want[2]);
            return false;
        }
    } else if (required) {
        given[0] = want[0], given[1] = want[1], given[2] = want[2];
    } else if ((d = perf_find(f, "explicitcluster"))) {
        diag_at(b->diag, DIAG_ERROR, d->at, "kernel '%s' must be launched with a cluster shape ('.explicitcluster'), "
                "and a GPU refuses it without one: give --cluster 1,1,1", f->name);
        return false;
    }
    if ((d = perf_find(f, "maxclusterrank")) && d->count && d->values[0] && product(given) > d->values[0]) {
        diag_at(b->diag, DIAG_ERROR, d->at, "kernel '%s' is launched with clusters of %llu CTAs, but its "
                "'.maxclusterrank' allows at most %llu: a GPU refuses the launch", f->name,
                (unsigned long long)product(given), (unsigned long long)d->values[0]);
        return false;
    }
    if (cluster || product(given) == 1)
        return true;
    for (int i = 0; i < 3; i++)
        if (b->nctaid[i] % given[i] || product(given) > MAX_CLUSTER_CTAS) {
            diag_at(b->diag, DIAG_ERROR, req->at, "kernel '%s' runs in clusters of %u x %u x %u CTAs "
                    "('.reqnctapercluster'), but %s: a GPU refuses the launch", f->name, given[0], given[1], given[2],
                    product(given) > MAX_CLUSTER_CTAS ? "an H100's clusters have at most 16 CTAs" :
                    "the grid is not a whole number of them");
            return false;
        }
    block_set_cluster(b, given);     /* a launch in clusters of more than one CTA is an explicit one (PTX ISA) */
    return true;
}
