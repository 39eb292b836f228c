/* rtpool.c: stream-ordered memory: the device's memory pools (cudaMallocAsync, cudaFreeAsync,
 * cudaMallocFromPoolAsync, cudaMemPool*), and the memory of graphs' allocation nodes with the
 * device's graph-memory counters. Every stream runs in order on the host, so an allocation in
 * stream order is one now. A pool keeps what is freed into it, up to its release threshold, for
 * its next allocations (reserved memory), and gives the rest back to the driver at once (CUDA
 * does at the next synchronisation); its counters say what it holds. Memory a pool keeps, or that
 * a graph's allocation node holds between its runs, stays reachable by kernels (as on a GPU,
 * where it stays mapped): a kernel that uses it after its free is not caught. Requires:
 * rtstate.c, rterror.c. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rtgraph.h"

typedef struct RtPoolBlock {
    void *p;
    size_t size;
    bool used;
} RtPoolBlock;

struct RtMemPool {
    struct cudaMemPoolProps props;
    uint64_t threshold;
    uint64_t reserved, reserved_high, used, used_high;
    RtPoolBlock *blocks;
    size_t count, cap;
    bool is_default;
    struct RtMemPool *next;
};

struct RtGraphBlock {
    void *p;
    size_t size;
    unsigned refs;             /* nodes (of graphs and execs) that allocate it */
    bool live;                 /* allocated by a run, not yet freed */
    bool gone;                 /* its memory went with a cudaDeviceReset */
    RtGraphBlock *next;
};

/* The runtime's stream-ordered memory, behind one lock. */
static struct {
    pthread_mutex_t lock;
    struct RtMemPool default_pool, *current, *pools;
    RtGraphBlock *blocks;
    uint64_t graph_used, graph_used_high, graph_reserved, graph_reserved_high;
} pool_state = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void lock(void)
{
    pthread_mutex_lock(&pool_state.lock);
}

static void unlock(void)
{
    pthread_mutex_unlock(&pool_state.lock);
}

static void high(uint64_t *mark, uint64_t now)
{
    if (now > *mark)
        *mark = now;
}

/* ---- graph memory */

RtGraphBlock *rt_graph_block_new(size_t bytes, cudaError_t *e)
{
    CUdeviceptr p = 0;
    CUresult r = cuMemAlloc_v2(&p, bytes);
    if (r != CUDA_SUCCESS) {
        *e = rt_error_of(r);
        return NULL;
    }
    RtGraphBlock *b = calloc(1, sizeof *b);
    if (!b)
        abort();
    *b = (RtGraphBlock){ (void *)(uintptr_t)p, bytes, 1, false, false, NULL };
    lock();
    b->next = pool_state.blocks;
    pool_state.blocks = b;
    pool_state.graph_reserved += bytes;
    high(&pool_state.graph_reserved_high, pool_state.graph_reserved);
    unlock();
    return b;
}

void *rt_graph_block_address(const RtGraphBlock *b)
{
    return b->p;
}

void rt_graph_block_hold(RtGraphBlock *b)
{
    lock();
    b->refs++;
    unlock();
}

/* Gives the block back when nothing uses it; the caller holds the lock. */
static void release_if_unused(RtGraphBlock *b)
{
    if (b->refs || b->live)
        return;
    for (RtGraphBlock **at = &pool_state.blocks; *at; at = &(*at)->next)
        if (*at == b) {
            *at = b->next;
            break;
        }
    if (!b->gone) {
        pool_state.graph_reserved -= b->size;
        cuMemFree_v2((CUdeviceptr)(uintptr_t)b->p);
    }
    free(b);
}

void rt_graph_block_drop(RtGraphBlock *b)
{
    lock();
    b->refs--;
    release_if_unused(b);
    unlock();
}

/* An allocation node runs: its memory must not be live from an earlier run (nor gone). */
cudaError_t rt_graph_block_alloc(RtGraphBlock *b)
{
    lock();
    bool was = b->live || b->gone;
    if (!was) {
        b->live = true;
        pool_state.graph_used += b->size;
        high(&pool_state.graph_used_high, pool_state.graph_used);
    }
    unlock();
    return was ? cudaErrorInvalidValue : cudaSuccess;
}

bool rt_graph_block_live(const RtGraphBlock *b)
{
    lock();
    bool live = b->live;
    unlock();
    return live;
}

static RtGraphBlock *block_at(const void *p)
{
    for (RtGraphBlock *b = pool_state.blocks; b; b = b->next)
        if (b->p == p && !b->gone)
            return b;
    return NULL;
}

bool rt_graph_block_known(const void *p)
{
    lock();
    bool known = p && block_at(p);
    unlock();
    return known;
}

/* A free node runs, or the program frees graph memory itself: freeing memory not allocated is
 * an error (cudaErrorInvalidValue). */
cudaError_t rt_graph_block_free_at(void *p)
{
    lock();
    RtGraphBlock *b = block_at(p);
    cudaError_t e = b && b->live ? cudaSuccess : cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        b->live = false;
        pool_state.graph_used -= b->size;
        release_if_unused(b);
    }
    unlock();
    return e;
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void *value)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (device != rt_device())
        return rt_fail(cudaErrorInvalidDevice);
    if (!value || (unsigned)attr > cudaGraphMemAttrReservedMemHigh)
        return rt_fail(cudaErrorInvalidValue);
    lock();
    uint64_t v = attr == cudaGraphMemAttrUsedMemCurrent ? pool_state.graph_used
               : attr == cudaGraphMemAttrUsedMemHigh ? pool_state.graph_used_high
               : attr == cudaGraphMemAttrReservedMemCurrent ? pool_state.graph_reserved
               : pool_state.graph_reserved_high;
    unlock();
    memcpy(value, &v, sizeof v);
    return cudaSuccess;
}

/* Only the high marks may be set, and only to 0 (CUDA's rule): they restart from the current. */
cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void *value)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (device != rt_device())
        return rt_fail(cudaErrorInvalidDevice);
    uint64_t v = 1;
    if (value)
        memcpy(&v, value, sizeof v);
    if (v != 0 || (attr != cudaGraphMemAttrUsedMemHigh && attr != cudaGraphMemAttrReservedMemHigh))
        return rt_fail(cudaErrorInvalidValue);
    lock();
    if (attr == cudaGraphMemAttrUsedMemHigh)
        pool_state.graph_used_high = pool_state.graph_used;
    else
        pool_state.graph_reserved_high = pool_state.graph_reserved;
    unlock();
    return cudaSuccess;
}

/* Graph memory keeps its addresses for the graph's life: nothing an allocation node holds can be
 * given back until its graphs and execs are destroyed (which gives it back then). */
cudaError_t cudaDeviceGraphMemTrim(int device)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return device == rt_device() ? cudaSuccess : rt_fail(cudaErrorInvalidDevice);
}

/* ---- pools */

static struct RtMemPool *current_pool(void)
{
    if (!pool_state.current) {
        pool_state.default_pool.props.allocType = 1;
        pool_state.default_pool.props.location.type = 1;
        pool_state.default_pool.is_default = true;
        pool_state.current = &pool_state.default_pool;
    }
    return pool_state.current;
}

static bool pool_ok(const struct RtMemPool *pool)
{
    if (pool && pool == &pool_state.default_pool)
        return true;
    for (const struct RtMemPool *p = pool_state.pools; p; p = p->next)
        if (p == pool)
            return true;
    return false;
}

/* Gives back kept blocks, largest first, until the pool holds no more than keep bytes beyond
 * what is in use. */
static void trim(struct RtMemPool *pool, uint64_t keep)
{
    while (pool->reserved > pool->used + keep) {
        size_t best = pool->count;
        for (size_t i = 0; i < pool->count; i++)
            if (!pool->blocks[i].used && (best == pool->count || pool->blocks[i].size > pool->blocks[best].size))
                best = i;
        if (best == pool->count)
            return;
        cuMemFree_v2((CUdeviceptr)(uintptr_t)pool->blocks[best].p);
        pool->reserved -= pool->blocks[best].size;
        pool->blocks[best] = pool->blocks[--pool->count];
    }
}

/* The smallest kept block that fits, else a new one. */
static cudaError_t pool_take(struct RtMemPool *pool, size_t size, void **out)
{
    size_t best = pool->count;
    for (size_t i = 0; i < pool->count; i++)
        if (!pool->blocks[i].used && pool->blocks[i].size >= size &&
            (best == pool->count || pool->blocks[i].size < pool->blocks[best].size))
            best = i;
    if (best == pool->count) {
        if (pool->props.maxSize && pool->reserved + size > pool->props.maxSize)
            return cudaErrorMemoryAllocation;
        CUdeviceptr p = 0;
        CUresult r = cuMemAlloc_v2(&p, size);
        if (r != CUDA_SUCCESS)
            return rt_error_of(r);
        if (pool->count == pool->cap) {
            pool->cap = pool->cap ? pool->cap * 2 : 16;
            pool->blocks = realloc(pool->blocks, pool->cap * sizeof *pool->blocks);
            if (!pool->blocks)
                abort();
        }
        pool->blocks[pool->count] = (RtPoolBlock){ (void *)(uintptr_t)p, size, false };
        pool->reserved += size;
        high(&pool->reserved_high, pool->reserved);
        best = pool->count++;
    }
    pool->blocks[best].used = true;
    pool->used += pool->blocks[best].size;
    high(&pool->used_high, pool->used);
    *out = pool->blocks[best].p;
    return cudaSuccess;
}

static cudaError_t malloc_from(struct RtMemPool *pool, void **p, size_t size, cudaStream_t s)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!p)
        return rt_fail(cudaErrorInvalidValue);
    *p = NULL;
    if (size == 0)
        return cudaSuccess;
    e = rt_return(cuStreamSynchronize(rt_stream(s)));
    if (e != cudaSuccess)
        return e;
    lock();
    if (!pool)
        pool = current_pool();
    e = pool_ok(pool) ? pool_take(pool, size, p) : cudaErrorInvalidValue;
    unlock();
    return e == cudaSuccess ? e : rt_fail(e);
}

cudaError_t rt_pool_malloc(void **p, size_t size, cudaStream_t s)
{
    return malloc_from(NULL, p, size, s);
}

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    if (!memPool)
        return rt_fail(cudaErrorInvalidValue);
    cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &capturing) == cudaSuccess && capturing != cudaStreamCaptureStatusNone)
        return rt_not_supported("cudaMallocFromPoolAsync", "an allocation from a pool in a stream capture");
    return malloc_from(memPool, ptr, size, stream);
}

bool rt_pool_free(void *p, cudaError_t *e)
{
    if (!p)
        return false;
    lock();
    struct RtMemPool *pools[2] = { &pool_state.default_pool, pool_state.pools };
    for (int k = 0; k < 2; k++)
        for (struct RtMemPool *pool = pools[k]; pool; pool = k ? pool->next : NULL)
            for (size_t i = 0; i < pool->count; i++)
                if (pool->blocks[i].p == p) {
                    *e = pool->blocks[i].used ? cudaSuccess : cudaErrorInvalidValue;
                    if (pool->blocks[i].used) {
                        pool->blocks[i].used = false;
                        pool->used -= pool->blocks[i].size;
                        trim(pool, pool->threshold);
                    }
                    unlock();
                    return true;
                }
    unlock();
    if (rt_graph_block_known(p)) {
        *e = rt_graph_block_free_at(p);
        return true;
    }
    return false;
}

/* The context's reset frees every allocation: the pools forget their blocks (and the pools made
 * by the program are gone), the default pool starts again. Graph memory stays with its graphs,
 * which a program may not use after a reset. */
void rt_pool_reset(void)
{
    lock();
    while (pool_state.pools) {
        struct RtMemPool *p = pool_state.pools;
        pool_state.pools = p->next;
        free(p->blocks);
        free(p);
    }
    free(pool_state.default_pool.blocks);
    memset(&pool_state.default_pool, 0, sizeof pool_state.default_pool);
    pool_state.current = NULL;
    for (RtGraphBlock *b = pool_state.blocks; b; b = b->next)
        if (!b->gone) {
            b->gone = true;
            b->live = false;
        }
    pool_state.graph_used = pool_state.graph_reserved = 0;
    unlock();
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!memPool)
        return rt_fail(cudaErrorInvalidValue);
    if (device != rt_device())
        return rt_fail(cudaErrorInvalidDevice);
    lock();
    current_pool();
    *memPool = &pool_state.default_pool;
    unlock();
    return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!memPool)
        return rt_fail(cudaErrorInvalidValue);
    if (device != rt_device())
        return rt_fail(cudaErrorInvalidDevice);
    lock();
    *memPool = current_pool();
    unlock();
    return cudaSuccess;
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (device != rt_device())
        return rt_fail(cudaErrorInvalidDevice);
    lock();
    current_pool();
    bool ok = pool_ok(memPool);
    if (ok)
        pool_state.current = memPool;
    unlock();
    return ok ? cudaSuccess : rt_fail(cudaErrorInvalidValue);
}

/* Pools of device memory on this device; other kinds (host, IPC handles) are refused. */
cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!memPool || !poolProps || poolProps->allocType != 1)
        return rt_fail(cudaErrorInvalidValue);
    if (poolProps->location.type != 1 || poolProps->location.id != rt_device())
        return rt_fail(poolProps->location.type == 1 ? cudaErrorInvalidDevice : cudaErrorInvalidValue);
    if (poolProps->handleTypes)
        return rt_not_supported("cudaMemPoolCreate", "pools shared with other processes (handle types)");
    struct RtMemPool *pool = calloc(1, sizeof *pool);
    if (!pool)
        abort();
    pool->props = *poolProps;
    lock();
    pool->next = pool_state.pools;
    pool_state.pools = pool;
    unlock();
    *memPool = pool;
    return cudaSuccess;
}

/* A pool destroyed with allocations in use keeps them (CUDA frees the pool when they are freed);
 * here the blocks in use are moved to the default pool, and the kept ones given back. */
cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
    lock();
    bool ok = memPool && memPool != &pool_state.default_pool && pool_ok(memPool);
    if (ok) {
        for (struct RtMemPool **at = &pool_state.pools; *at; at = &(*at)->next)
            if (*at == memPool) {
                *at = memPool->next;
                break;
            }
        if (pool_state.current == memPool)
            pool_state.current = &pool_state.default_pool;
        trim(memPool, 0);
        struct RtMemPool *d = &pool_state.default_pool;
        for (size_t i = 0; i < memPool->count; i++) {
            if (d->count == d->cap) {
                d->cap = d->cap ? d->cap * 2 : 16;
                d->blocks = realloc(d->blocks, d->cap * sizeof *d->blocks);
                if (!d->blocks)
                    abort();
            }
            d->blocks[d->count++] = memPool->blocks[i];
            d->used += memPool->blocks[i].size;
            d->reserved += memPool->blocks[i].size;
        }
        free(memPool->blocks);
        free(memPool);
    }
    unlock();
    return ok ? cudaSuccess : rt_fail(cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void *value)
{
    if (!value)
        return rt_fail(cudaErrorInvalidValue);
    lock();
    cudaError_t e = pool_ok(memPool) ? cudaSuccess : cudaErrorInvalidValue;
    uint64_t v = 0;
    if (e == cudaSuccess) {
        switch (attr) {
        case cudaMemPoolReuseFollowEventDependencies: case cudaMemPoolReuseAllowOpportunistic:
        case cudaMemPoolReuseAllowInternalDependencies:
            break;                              /* every stream is in order: reuse is always safe */
        case cudaMemPoolAttrReleaseThreshold:
            memcpy(&memPool->threshold, value, sizeof memPool->threshold);
            trim(memPool, memPool->threshold);
            break;
        case cudaMemPoolAttrReservedMemHigh: case cudaMemPoolAttrUsedMemHigh:
            memcpy(&v, value, sizeof v);
            if (v)
                e = cudaErrorInvalidValue;
            else if (attr == cudaMemPoolAttrReservedMemHigh)
                memPool->reserved_high = memPool->reserved;
            else
                memPool->used_high = memPool->used;
            break;
        default:
            e = cudaErrorInvalidValue;
        }
    }
    unlock();
    return e == cudaSuccess ? e : rt_fail(e);
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void *value)
{
    if (!value)
        return rt_fail(cudaErrorInvalidValue);
    lock();
    cudaError_t e = pool_ok(memPool) ? cudaSuccess : cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        int yes = 1;
        uint64_t v = 0;
        switch (attr) {
        case cudaMemPoolReuseFollowEventDependencies: case cudaMemPoolReuseAllowOpportunistic:
        case cudaMemPoolReuseAllowInternalDependencies:
            memcpy(value, &yes, sizeof yes);
            break;
        case cudaMemPoolAttrReleaseThreshold: v = memPool->threshold; break;
        case cudaMemPoolAttrReservedMemCurrent: v = memPool->reserved; break;
        case cudaMemPoolAttrReservedMemHigh: v = memPool->reserved_high; break;
        case cudaMemPoolAttrUsedMemCurrent: v = memPool->used; break;
        case cudaMemPoolAttrUsedMemHigh: v = memPool->used_high; break;
        default: e = cudaErrorInvalidValue;
        }
        if (e == cudaSuccess && attr >= cudaMemPoolAttrReleaseThreshold)
            memcpy(value, &v, sizeof v);
    }
    unlock();
    return e == cudaSuccess ? e : rt_fail(e);
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    lock();
    bool ok = pool_ok(memPool);
    if (ok)
        trim(memPool, minBytesToKeep);
    unlock();
    return ok ? cudaSuccess : rt_fail(cudaErrorInvalidValue);
}

/* The per-thread default stream's name (rt.h). */
RT_SAME_AS(cudaMallocFromPoolAsync_ptsz, cudaMallocFromPoolAsync)
